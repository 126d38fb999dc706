/* test-cli-http.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-test-server.h"

/* The real tandem-cli binary against the loopback server: what a person
 * sees on the terminal when a real agent answers, stalls or fails. */

#define WAIT_MS 20000

#define RS "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RF "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define THINK_START "{\"type\":\"REASONING_START\",\"messageId\":\"s1\"}"
#define THINK_MESSAGE_START "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"rm1\",\"role\":\"reasoning\"}"
#define THINK_CONTENT "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rm1\",\"delta\":\"I should ask the desktop for the time.\"}"
#define THINK_MESSAGE_END "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"rm1\"}"
#define THINK_END "{\"type\":\"REASONING_END\",\"messageId\":\"s1\"}"
#define TEXT_START "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}"
#define TEXT_CONTENT "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hello! I am here.\"}"
#define TEXT_END "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}"

typedef struct
{
  AguiTestServer *server;
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
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Outcome, outcome_clear)

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->server);
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

/* Runs `tandem-cli send URL hi ARGS…` while the server answers. */
static void
run_send (Fixture *f,
          Outcome *outcome,
          ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  g_ptr_array_add (argv, (gpointer) "send");
  g_ptr_array_add (argv, (gpointer) agui_test_server_get_url (f->server));
  g_ptr_array_add (argv, (gpointer) "hi");
  va_start (args, outcome);
  for (arg = va_arg (args, const char *); arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  /* Every object on the heap, so that ASan sees one used after it was
   * freed (GLib 2.74's slices would hide it). */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "G_SLICE", "always-malloc", TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_communicated_cb, outcome);
  g_assert_true (agui_test_wait_for (is_done, outcome, WAIT_MS));
}

static AguiTestResponse *
reasoning_then_answer (void)
{
  return agui_test_response_new_events (RS, THINK_START, THINK_MESSAGE_START, THINK_CONTENT, THINK_MESSAGE_END,
                                        THINK_END, TEXT_START, TEXT_CONTENT, TEXT_END, RF, NULL);
}

static void
test_reasoning_apart_from_answer (Fixture       *f,
                                  gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("send prints reasoning as a labelled block and the answer after a blank line, "
                  "never run together; no terminal escapes into a pipe");

  agui_test_server_push_response (f->server, reasoning_then_answer ());
  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_cmpstr (outcome.out, ==,
                   "[reasoning]\n"
                   "I should ask the desktop for the time.\n"
                   "\n"
                   "Hello! I am here.\n");
  g_assert_null (strchr (outcome.out, '\033'));
}

static void
test_json_unchanged (Fixture       *f,
                     gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;

  g_test_summary ("send --json prints only the transcript: reasoning and answer as their own messages");

  agui_test_server_push_response (f->server, reasoning_then_answer ());
  run_send (f, &outcome, "--json", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_null (strstr (outcome.out, "[reasoning]"));
  node = json_from_string (outcome.out, &error);
  g_assert_no_error (error);
  messages = json_object_get_array_member (json_node_get_object (node), "messages");
  g_assert_nonnull (strstr (outcome.out, "\"content\" : \"I should ask the desktop for the time.\""));
  g_assert_nonnull (strstr (outcome.out, "\"content\" : \"Hello! I am here.\""));
  g_assert_cmpuint (json_array_get_length (messages), >=, 2);
}

static void
test_idle_timeout_flag (Fixture       *f,
                        gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autoptr(AguiTestResponse) response = agui_test_response_new_events (RS, TEXT_START, TEXT_CONTENT, NULL);
  gint64 started;

  g_test_summary ("--idle-timeout ends a stalled stream with its message instead of hanging");

  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  started = g_get_monotonic_time ();
  run_send (f, &outcome, "--idle-timeout", "1", NULL);
  g_assert_cmpint ((g_get_monotonic_time () - started) / 1000, <, 10000);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_nonnull (strstr (outcome.out, "Hello! I am here.\n"));
  g_assert_nonnull (strstr (outcome.out,
                            "[failed] The agent stopped sending before the answer was complete: nothing "
                            "arrived for 1 s (the idle timeout)"));
}

static void
test_deadline_flag (Fixture       *f,
                    gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autoptr(AguiTestResponse) response = agui_test_response_new_events (RS, TEXT_START, TEXT_CONTENT, NULL);

  g_test_summary ("--deadline ends a run an agent keeps alive with SSE comments alone, "
                  "which --idle-timeout lets go on");

  agui_test_response_set_chunk_interval (response, 100);
  for (guint i = 0; i < 3000; i++)
    agui_test_response_append_data (response, ": keep-alive\n\n", -1);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  run_send (f, &outcome, "--idle-timeout", "1", "--deadline", "2", NULL);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_nonnull (strstr (outcome.out, "Hello! I am here.\n"));
  g_assert_nonnull (strstr (outcome.out,
                            "[failed] The run took longer than its time limit of 2 s, and the answer is incomplete"));

  g_clear_pointer (&outcome.out, g_free);
  g_clear_pointer (&outcome.err, g_free);
  outcome.done = FALSE;
  run_send (f, &outcome, "--deadline", "-1", NULL);
  g_assert_cmpint (outcome.status, ==, 2);
  g_assert_nonnull (strstr (outcome.err, "--deadline takes seconds, 0 for none, not -1"));
}

static void
test_max_frame_size_flag (Fixture       *f,
                          gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autofree char *padding = g_strnfill (3000, 'x');
  g_autofree char *big = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", padding);

  g_test_summary ("--max-frame-size caps a frame, the error says how to raise it, "
                  "and a raised cap lets the frame through");

  agui_test_server_push_response (f->server, agui_test_response_new_events (RS, TEXT_START, big, TEXT_END, RF, NULL));
  run_send (f, &outcome, "--max-frame-size", "2K", NULL);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_nonnull (strstr (outcome.out, "is larger than the maximum frame size of 2.0 KiB (2048 bytes); "
                                         "raise the agent's maximum frame size (in Preferences, or "
                                         "--max-frame-size for tandem-cli) to accept it"));
  outcome_clear (&outcome);
  outcome.done = FALSE;

  agui_test_server_push_response (f->server, agui_test_response_new_events (RS, TEXT_START, big, TEXT_END, RF, NULL));
  run_send (f, &outcome, "--max-frame-size", "4KiB", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_nonnull (strstr (outcome.out, padding));
  outcome_clear (&outcome);
  outcome.done = FALSE;

  run_send (f, &outcome, "--max-frame-size", "lots", NULL);
  g_assert_cmpint (outcome.status, ==, 2);
  g_assert_nonnull (strstr (outcome.err, "'lots' is not a size"));
}

static void
test_encoding_flag (Fixture       *f,
                    gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("--encoding protobuf asks for the binary encoding and prints its answer; "
                  "a bad value says what is allowed");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_proto_events (RS, THINK_START, THINK_MESSAGE_START,
                                                                       THINK_CONTENT, THINK_MESSAGE_END, THINK_END,
                                                                       TEXT_START, TEXT_CONTENT, TEXT_END, RF, NULL));
  run_send (f, &outcome, "--encoding", "protobuf", NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_nonnull (strstr (outcome.out, "Hello! I am here."));
  g_assert_nonnull (strstr (outcome.out, "I should ask the desktop for the time."));
  g_assert_cmpstr (soup_message_headers_get_list (agui_test_server_get_request (f->server, 0)->headers, "Accept"),
                   ==, "application/vnd.ag-ui.event+proto");
  outcome_clear (&outcome);
  outcome.done = FALSE;

  /* Without the flag: exactly SSE is asked for. */
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS, TEXT_START, TEXT_CONTENT,
                                                                            TEXT_END, RF, NULL));
  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_cmpstr (soup_message_headers_get_list (agui_test_server_get_request (f->server, 1)->headers, "Accept"),
                   ==, "text/event-stream");
  outcome_clear (&outcome);
  outcome.done = FALSE;

  run_send (f, &outcome, "--encoding", "json", NULL);
  g_assert_cmpint (outcome.status, ==, 2);
  g_assert_nonnull (strstr (outcome.err, "--encoding is sse (text, the default) or protobuf (binary), not 'json'"));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
}

static void
test_error_details (Fixture       *f,
                    gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("A failed run prints the short reason first, then the raw body as details");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (500, "application/json",
                                                                "{\"detail\":\"database unavailable\"}"));
  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 1);
  g_assert_cmpstr (outcome.out, ==,
                   "[failed] The agent's server failed (HTTP 500): database unavailable (at the transport stage)\n"
                   "[details]\n"
                   "  HTTP 500 Internal Server Error\n"
                   "  Content-Type: application/json\n"
                   "  \n"
                   "  {\"detail\":\"database unavailable\"}\n");
}

static void
run_strands_tool_call (Fixture *f,
                       guint    delay)
{
  g_auto(Outcome) outcome = { 0 };
  g_auto(GStrv) lines = NULL;
  JsonArray *messages;

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_strands_tool_call ("r1", "tc1", "get_current_time",
                                                                            "{\"timezone\":\"local\"}", delay));
  agui_test_server_push_response (f->server, agui_test_response_new_strands_answer ("r2", "answer", "It is noon."));

  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "toolCallId"), ==, "tc1");
  /* Each snapshot makes the call and the answer again: said once. */
  lines = g_strsplit (outcome.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_cmpstr (lines[0], ==, "[tool] get_current_time called");
  g_assert_cmpstr (lines[1], ==, "[tool] get_current_time({\"timezone\":\"local\"}) awaiting result");
  g_assert_true (g_str_has_prefix (lines[2], "[tool] get_current_time → complete: "));
  g_assert_cmpstr (lines[3], ==, "It is noon.");
  g_assert_cmpstr (lines[4], ==, "");
}

static void
test_strands_snapshot_at_once (Fixture       *f,
                               gconstpointer  data)
{
  g_test_summary ("A Strands-shaped run (a MESSAGES_SNAPSHOT right after the client's tool call) "
                  "ends in two runs: the tool's answer survives the snapshot");
  run_strands_tool_call (f, 0);
}

static void
test_strands_snapshot_after_5ms (Fixture       *f,
                                 gconstpointer  data)
{
  g_test_summary ("The same with the snapshot 5 ms after the call");
  run_strands_tool_call (f, 5);
}

static void
test_strands_snapshot_after_50ms (Fixture       *f,
                                  gconstpointer  data)
{
  g_test_summary ("The same with the snapshot 50 ms after the call, when the tool has long answered");
  run_strands_tool_call (f, 50);
}

static void
test_snapshot_mid_run (Fixture       *f,
                       gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };
  g_autoptr(AguiTestResponse) response = NULL;

  g_test_summary ("A MESSAGES_SNAPSHOT that rebuilds the transcript mid-run neither crashes send "
                  "(no part is held without a reference) nor prints earlier text again");

  response = agui_test_response_new_events (RS, THINK_START, THINK_MESSAGE_START, THINK_CONTENT, THINK_MESSAGE_END,
                                            THINK_END,
                                            "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
                                            "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"First part.\"}",
                                            "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}", NULL);
  /* The agent takes the text back (the reasoning, which this snapshot
   * does not own, stays): the part printed last is gone. */
  agui_test_response_append_messages_snapshot (response, "[]");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"Second part.\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}");
  /* Everything again, the last text grown: only the growth is new. */
  agui_test_response_append_messages_snapshot (response,
                                               "[{\"id\":\"rm1\",\"role\":\"reasoning\",\"content\":\"I should ask the desktop for the time.\"},"
                                               "{\"id\":\"m2\",\"role\":\"assistant\",\"content\":\"Second part. Third.\"}]");
  agui_test_response_append_event_json (response, RF);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 0);
  g_assert_cmpstr (outcome.out, ==,
                   "[reasoning]\n"
                   "I should ask the desktop for the time.\n"
                   "\n"
                   "First part.Second part. Third.\n");
}

static void
test_mastra_suspend (Fixture       *f,
                     gconstpointer  data)
{
  g_auto(Outcome) outcome = { 0 };

  g_test_summary ("An interrupt prints its question and what answering lets the agent do, as the approval "
                  "dialog shows them: with Mastra's suspend, the suspended tool, its arguments and its reason");

  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS,
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":["
    "{\"id\":\"i1\",\"reason\":\"mastra:tool_suspend\",\"metadata\":{\"mastra\":{\"toolName\":\"bookFlight\","
    "\"args\":{\"to\":\"Oslo\"},\"suspendPayload\":{\"reason\":\"Book the flight to Oslo?\"}}}},"
    "{\"id\":\"i2\",\"reason\":\"mastra:tool_suspend\",\"metadata\":{\"mastra\":{\"toolName\":\"payInvoice\","
    "\"args\":\"{\\\"amount\\\":12}\"}}},"
    "{\"id\":\"i3\",\"reason\":\"input_required\",\"responseSchema\":{\"type\":\"string\"},"
    "\"metadata\":{\"ticket\":7}}]}}", NULL));
  run_send (f, &outcome, NULL);
  g_assert_cmpint (outcome.status, ==, 3);
  g_assert_cmpstr (outcome.out, ==,
                   "[interrupt i1] Book the flight to Oslo?\n"
                   "  runs: bookFlight({\"to\":\"Oslo\"})\n"
                   "  answer: approve or deny\n"
                   "[interrupt i2] The agent wants to run “payInvoice” and asks for your approval first.\n"
                   "  runs: payInvoice({\"amount\":12})\n"
                   "  answer: approve or deny\n"
                   "[interrupt i3] The agent needs an answer from you to go on.\n"
                   "  details: {\"ticket\":7}\n"
                   "  answer: a value for the agent (JSON), or cancel\n");
  g_assert_nonnull (strstr (outcome.err, "is waiting for an answer to 3 interrupt(s)"));
}

#define ADD(path, func) \
  g_test_add ("/tandem-cli/http/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  ADD ("reasoning-apart-from-answer", test_reasoning_apart_from_answer);
  ADD ("json-unchanged", test_json_unchanged);
  ADD ("idle-timeout-flag", test_idle_timeout_flag);
  ADD ("deadline-flag", test_deadline_flag);
  ADD ("max-frame-size-flag", test_max_frame_size_flag);
  ADD ("encoding-flag", test_encoding_flag);
  ADD ("error-details", test_error_details);
  ADD ("snapshot-mid-run", test_snapshot_mid_run);
  ADD ("mastra-suspend", test_mastra_suspend);
  ADD ("strands-tool-call/snapshot-at-once", test_strands_snapshot_at_once);
  ADD ("strands-tool-call/snapshot-after-5ms", test_strands_snapshot_after_5ms);
  ADD ("strands-tool-call/snapshot-after-50ms", test_strands_snapshot_after_50ms);

  return g_test_run ();
}
