/* test-cli-openai.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-test-openai.h"
#include "agui-test-server.h"

/* The real tandem-cli binary with --openai against a loopback
 * OpenAI-compatible server: send, chat, a stored thread, the models. */

#define WAIT_MS 20000

typedef struct
{
  AguiTestServer *server;
  char           *base_url;
  char           *store;
} Fixture;

typedef struct
{
  char     *out;
  char     *err;
  int       status;
  gboolean  done;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->out, g_free);
  g_clear_pointer (&outcome->err, g_free);
  outcome->done = FALSE;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Outcome, outcome_clear)

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  url = g_strdup (agui_test_server_get_url (f->server));
  if (g_str_has_suffix (url, "/"))
    url[strlen (url) - 1] = '\0';
  f->base_url = g_strconcat (url, "/v1", NULL);
  f->store = g_build_filename (g_get_user_data_dir (), "cli-openai.sqlite", NULL);
  g_mkdir_with_parents (g_get_user_data_dir (), 0700);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
  g_free (f->base_url);
  g_free (f->store);
}

static void
on_communicated_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Outcome *outcome = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result,
                                                       &outcome->out, &outcome->err, &error));
  g_assert_no_error (error);
  outcome->status = g_subprocess_get_exit_status (G_SUBPROCESS (object));
  outcome->done = TRUE;
}

static gboolean
is_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

/* Runs `tandem-cli ARGS…`, with @input on its standard input, while the
 * server answers. */
static void
run_cli (Outcome    *outcome,
         const char *input,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  va_start (args, input);
  for (arg = va_arg (args, const char *); arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, input ? input : "", NULL, on_communicated_cb, outcome);
  g_assert_true (agui_test_wait_for (is_done, outcome, WAIT_MS));
}

static JsonObject *
request_message (Fixture *f,
                 guint    request,
                 guint    index)
{
  JsonArray *messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, request), "messages");

  g_assert_cmpuint (index, <, json_array_get_length (messages));

  return json_array_get_object_element (messages, index);
}

static void
push_tool_call_then_answer (Fixture *f)
{
  agui_test_server_push_response (f->server, chunks (
    FIRST, CALL_START (0, "call_9", "get_current_time"), CALL_ARGS (0, "{\\\"timezone\\\":"),
    CALL_ARGS (0, "\\\"UTC\\\"}"), FINISH ("tool_calls"), USAGE, DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("It is "), TEXT ("noon."), FINISH ("stop"), DONE, NULL));
}

static void
test_send_through_tool_call (Fixture       *f,
                             gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  JsonObject *body;

  g_test_summary ("send --openai asks the model, runs the desktop tool it calls and prints the answer");

  push_tool_call_then_answer (f);
  run_cli (&outcome, NULL, "send", "--openai", f->base_url, "--model", "qwen3:8b",
           "-H", "X-Key: k1", "--system", "Be brief.", "--temperature", "0.5",
           "What time is it?", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_nonnull (strstr (outcome.out, "It is noon."));

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpstr (soup_message_headers_get_one (agui_test_server_get_request (f->server, 0)->headers, "X-Key"), ==, "k1");
  body = agui_test_server_get_request_body (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen3:8b");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (body, "temperature"), 0.5, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 0), "content"), ==, "Be brief.");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 3), "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 3), "tool_call_id"), ==, "call_9");
}

static void
test_send_json (Fixture       *f,
                gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("send --openai --json prints the transcript, the tool call and its result included");

  push_tool_call_then_answer (f);
  run_cli (&outcome, NULL, "send", "--openai", f->base_url, "--model", "qwen3:8b", "--json", "time?", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  node = json_from_string (outcome.out, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (outcome.out, "call_9"));
  g_assert_nonnull (strstr (outcome.out, "It is noon."));
}

static char *
dup_thread_id (const char *err)
{
  const char *line = strstr (err, "thread ");
  const char *end;

  g_assert_nonnull (line);
  line += strlen ("thread ");
  end = strchr (line, '\n');

  return g_strndup (line, end ? (gsize) (end - line) : strlen (line));
}

static void
test_store_and_thread (Fixture       *f,
                       gconstpointer  data)
{
  g_auto(Outcome) first = { 0 };
  g_auto(Outcome) second = { 0 };
  g_autofree char *thread = NULL;

  g_test_summary ("--store keeps the conversation and --thread continues it with the model");

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Hello there."), FINISH ("stop"), DONE, NULL));
  run_cli (&first, NULL, "send", "--openai", f->base_url, "--model", "m", "--store", f->store, "Hi", NULL);
  g_assert_cmpint (first.status, ==, 0);
  thread = dup_thread_id (first.err);

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Again."), FINISH ("stop"), DONE, NULL));
  run_cli (&second, NULL, "send", "--openai", f->base_url, "--model", "m", "--store", f->store,
           "--thread", thread, "And now?", NULL);
  g_assert_cmpint (second.status, ==, 0);
  g_assert_nonnull (strstr (second.out, "Again."));

  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 0), "content"), ==, "Hi");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 1), "content"), ==, "Hello there.");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 2), "content"), ==, "And now?");
}

static void
test_chat (Fixture       *f,
           gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("chat --openai talks to the model turn by turn from the terminal");

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("First answer."), FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Second answer."), FINISH ("stop"), DONE, NULL));
  run_cli (&outcome, "one\ntwo\n", "chat", "--openai", f->base_url, "--model", "m", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_nonnull (strstr (outcome.out, "First answer."));
  g_assert_nonnull (strstr (outcome.out, "Second answer."));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 2), "content"), ==, "two");
}

static void
test_server_error (Fixture       *f,
                   gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("A model the server does not have fails with the server's words");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    404, "application/json", "{\"error\":{\"message\":\"model \\\"nope\\\" not found, try pulling it first\"}}"));
  run_cli (&outcome, NULL, "send", "--openai", f->base_url, "--model", "nope", "Hi", NULL);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_nonnull (strstr (outcome.out, "model \"nope\" not found, try pulling it first"));
}

static void
test_model_required (Fixture       *f,
                     gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("--openai without --model says how to find one");

  run_cli (&outcome, NULL, "send", "--openai", f->base_url, "Hi", NULL);
  g_assert_cmpint (outcome.status, ==, 2);
  g_assert_nonnull (strstr (outcome.err, "--model"));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 0);
}

static void
test_models (Fixture       *f,
             gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("models --openai lists the server's models, one a line");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"b-model\"},{\"id\":\"a-model\"}]}"));
  run_cli (&outcome, NULL, "models", "--openai", f->base_url, NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_cmpstr (outcome.out, ==, "a-model\nb-model\n");

  outcome_clear (&outcome);
  agui_test_server_stop (f->server);
  run_cli (&outcome, NULL, "models", "--openai", f->base_url, NULL);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_nonnull (strstr (outcome.err, "is the model server running?"));
}

#define ADD(path, func) \
  g_test_add ("/tandem-cli/openai/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  ADD ("send-through-tool-call", test_send_through_tool_call);
  ADD ("send-json", test_send_json);
  ADD ("store-and-thread", test_store_and_thread);
  ADD ("chat", test_chat);
  ADD ("server-error", test_server_error);
  ADD ("model-required", test_model_required);
  ADD ("models", test_models);

  return g_test_run ();
}
