/* test-cli.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* The real tandem-cli binary, run as a person would. */

static char *
run_cli (int         *status,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, err, &error));
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (process);

  return out;
}

static void
test_send_store_show_identical (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tandem-cli-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "t.db", NULL);
  g_autofree char *sent = NULL, *shown = NULL, *threads = NULL, *err = NULL, *id = NULL;
  g_autoptr(JsonNode) sent_json = NULL, shown_json = NULL;
  int status;

  g_test_summary ("A thread written by send --store reopens identically in show --json");

  sent = run_cli (&status, &err, "send", "--demo", "hello", "--approve", "--store", db, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);

  threads = run_cli (&status, &err, "threads", "--store", db, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (strstr (threads, "hello") != NULL);
  id = g_strndup (threads, strcspn (threads, " "));
  g_clear_pointer (&err, g_free);

  shown = run_cli (&status, &err, "show", id, "--store", db, "--json", NULL);
  g_assert_cmpint (status, ==, 0);

  sent_json = json_from_string (sent, NULL);
  shown_json = json_from_string (shown, NULL);
  g_assert_nonnull (sent_json);
  g_assert_nonnull (shown_json);
  g_assert_true (json_node_equal (sent_json, shown_json));

  /* The whole repertoire happened: reasoning, a tool answered, the approval. */
  g_assert_true (strstr (sent, "\"role\" : \"reasoning\"") != NULL);
  g_assert_true (strstr (sent, "get_current_time") != NULL);
  g_assert_true (strstr (sent, "archived") != NULL);
  g_assert_true (strstr (sent, "```c") != NULL);

  g_clear_pointer (&err, g_free);
  g_free (run_cli (&status, &err, "show", "no-such-thread", "--store", db, NULL));
  g_assert_cmpint (status, ==, 1);

  /* Export, then import as a new thread: it reads back the same. */
  {
    g_autofree char *exported = NULL, *export_path = g_build_filename (dir, "export.json", NULL);
    g_autofree char *new_id = NULL, *reshown = NULL;
    g_autoptr(JsonNode) reshown_json = NULL;

    g_clear_pointer (&err, g_free);
    exported = run_cli (&status, &err, "show", id, "--store", db, "--export", NULL);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_file_set_contents (export_path, exported, -1, NULL));
    g_clear_pointer (&err, g_free);
    new_id = run_cli (&status, &err, "import", export_path, "--store", db, NULL);
    g_assert_cmpint (status, ==, 0);
    g_strstrip (new_id);
    g_assert_cmpstr (new_id, !=, id);
    g_clear_pointer (&err, g_free);
    reshown = run_cli (&status, &err, "show", new_id, "--store", db, "--json", NULL);
    g_assert_cmpint (status, ==, 0);
    reshown_json = json_from_string (reshown, NULL);
    g_assert_true (json_node_equal (json_object_get_member (json_node_get_object (reshown_json), "messages"),
                                    json_object_get_member (json_node_get_object (shown_json), "messages")));
    g_unlink (export_path);
  }
  g_unlink (db);
}

static void
test_send_waits_for_answer (void)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("Without an answer, send says the thread is waiting and fails");

  out = run_cli (&status, &err, "send", "--demo", "hi", NULL);
  g_assert_cmpint (status, ==, 3);
  g_assert_true (strstr (err, "waiting for an answer") != NULL);
  g_assert_true (strstr (out, "May I archive") != NULL);
  /* The answer streamed as it was written. */
  g_assert_true (strstr (out, "Hello from the demo agent") != NULL);
}

static void
test_send_deny (void)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  out = run_cli (&status, &err, "send", "--demo", "hi", "--deny", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (strstr (out, "left them alone") != NULL);
}

static void
test_bad_url_is_config_error (void)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  out = run_cli (&status, &err, "send", "ftp://example.invalid/agent", "hi", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_true (err[0] != '\0');

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (&status, &err, "send", "http://127.0.0.1:9/agent", "hi", "--header", "Bad Header: x", NULL);
  g_assert_cmpint (status, ==, 2);
}

static void
test_read_max_frame_size (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tandem-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.sse", NULL);
  g_autofree char *padding = g_strnfill (3000, 'x');
  g_autofree char *body = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_test_summary ("events and fold take --max-frame-size as send does; the cap error names the option");

  body = g_strdup_printf ("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
                          "data: {\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":\"%s\"}\n\n"
                          "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n", padding);
  g_assert_true (g_file_set_contents (path, body, -1, &error));
  g_assert_no_error (error);

  out = run_cli (&status, &err, "fold", "--max-frame-size", "2K", path, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (out, "is larger than the maximum frame size of 2.0 KiB (2048 bytes); "
                                 "raise the agent's maximum frame size (in Preferences, or "
                                 "--max-frame-size for tandem-cli) to accept it"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "fold", path, "--max-frame-size", "4KiB", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "\"error\" : null"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "events", "--max-frame-size", "2K", path, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "--max-frame-size for tandem-cli"));
  g_assert_null (strstr (out, padding));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "events", "--max-frame-size", "4K", path, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, padding));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "events", "--max-frame-size", "lots", path, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "'lots' is not a size"));

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* An activity whose content nests 510 deep: the event parses, but in
 * fold's output it sits three levels down, past the printer's 512. */
static char *
deep_activity_frame (void)
{
  g_autoptr(GString) frame = g_string_new ("data: {\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a1\","
                                           "\"activityType\":\"x\",\"content\":");

  for (guint i = 0; i < 510; i++)
    g_string_append (frame, "{\"a\":");
  g_string_append_c (frame, '1');
  for (guint i = 0; i < 510; i++)
    g_string_append_c (frame, '}');
  g_string_append (frame, "}\n\n");

  return g_string_free (g_steal_pointer (&frame), FALSE);
}

static void
test_fold_too_deep_prints_nothing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tandem-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "deep.sse", NULL);
  g_autofree char *deep = deep_activity_frame ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_test_summary ("fold streams its output, yet a message too deep to print leaves stdout empty "
                  "and says why, as printing the whole tree at the end did: never half a document");

  for (guint with_deep = 0; with_deep < 2; with_deep++)
    {
      g_autofree char *body = g_strconcat ("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
                                           "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n\n"
                                           "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"first\"}\n\n"
                                           "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\n",
                                           with_deep ? deep : "",
                                           "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
                                           NULL);

      g_assert_true (g_file_set_contents (path, body, -1, &error));
      g_assert_no_error (error);
      out = run_cli (&status, &err, "fold", path, NULL);
      if (with_deep)
        {
          g_assert_cmpint (status, ==, 1);
          g_assert_cmpstr (out, ==, "");
          g_assert_nonnull (strstr (err, "cannot print the result as JSON: arrays and objects are nested deeper than 512 levels"));
        }
      else
        {
          g_assert_cmpint (status, ==, 0);
          g_assert_nonnull (strstr (out, "\"content\" : \"first\""));
        }
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
    }

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_fold_stdin_in_blocks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tandem-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "long.sse", NULL);
  g_autoptr(GString) body = g_string_new ("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *from_file = NULL, *from_tree = NULL, *from_stdin = NULL, *err = NULL;
  int status;

  g_test_summary ("fold reads a body of several read blocks from stdin as from a file, "
                  "and prints what the whole tree printed");

  /* Over a megabyte: several of fold's reads, frames cut at their edges */
  for (guint i = 0; body->len < 1200 * 1000; i++)
    {
      g_string_append_printf (body, "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%u\",\"role\":\"assistant\"}\n\n", i);
      for (guint k = 0; k < 20; k++)
        g_string_append_printf (body, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%u\",\"delta\":\"w%u \"}\n\n", i, k);
      g_string_append_printf (body, "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%u\"}\n\n", i);
      g_string_append_printf (body, "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c%u\",\"toolCallName\":\"f\",\"parentMessageId\":\"m%u\"}\n\n", i, i);
      g_string_append_printf (body, "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c%u\",\"delta\":\"{\\\"é\\\":%u}\"}\n\n", i, i);
      g_string_append_printf (body, "data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c%u\"}\n\n", i);
      g_string_append_printf (body, "data: {\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r%u\",\"toolCallId\":\"c%u\",\"content\":\"ok\"}\n\n", i, i);
    }
  g_string_append (body, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
  g_assert_true (g_file_set_contents (path, body->str, body->len, &error));
  g_assert_no_error (error);

  from_file = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  from_tree = run_cli (&status, &err, "fold", "--tree", path, NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                              G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              g_getenv ("TANDEM_CLI"), "fold", "-", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, body->str, NULL, &from_stdin, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);

  g_assert_true (g_str_has_prefix (from_file, "{\n  \"messages\" : [\n    {\n      \"id\" : \"m0\""));
  g_assert_nonnull (strstr (from_file, "\"arguments\" : \"{\\\"é\\\":0}\""));
  g_assert_cmpstr (from_stdin, ==, from_file);
  g_assert_cmpstr (from_tree, ==, from_file);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tandem-cli/send-store-show-identical", test_send_store_show_identical);
  g_test_add_func ("/tandem-cli/send-waits-for-answer", test_send_waits_for_answer);
  g_test_add_func ("/tandem-cli/send-deny", test_send_deny);
  g_test_add_func ("/tandem-cli/bad-url-is-config-error", test_bad_url_is_config_error);
  g_test_add_func ("/tandem-cli/read-max-frame-size", test_read_max_frame_size);
  g_test_add_func ("/tandem-cli/fold-too-deep-prints-nothing", test_fold_too_deep_prints_nothing);
  g_test_add_func ("/tandem-cli/fold-stdin-in-blocks", test_fold_stdin_in_blocks);

  return g_test_run ();
}
