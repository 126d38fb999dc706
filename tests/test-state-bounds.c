/* test-state-bounds.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Patches built to explode the shared state or an activity's content:
 * nesting past any stack, copies that double the document. Each is folded
 * in-process as `tandem-cli fold` folds it (the real parser, the
 * pipeline, the reducer); each must be refused with a clear warning, the
 * state left as it was, in well under a gibibyte. */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "agui.h"
#include "agui-activity-part-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"

#define RUN_STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RUN_FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"

/* A stream under construction: frames appended as SSE. */
static void
frame (GString    *body,
       const char *json)
{
  g_string_append (body, "data: ");
  g_string_append (body, json);
  g_string_append (body, "\n\n");
}

/* Feeds @body to the reducer's pipeline (one per reducer, for the run
 * spans several bodies), as a network would: in reads of 4 KiB. A body
 * that ends in RUN_FINISHED ends the stream. */
static void
fold (AguiReducer *reducer,
      GString     *body)
{
  AguiPipeline *pipeline = g_object_get_data (G_OBJECT (reducer), "pipeline");

  if (pipeline == NULL)
    {
      pipeline = _agui_pipeline_new (reducer);
      g_object_set_data_full (G_OBJECT (reducer), "pipeline", pipeline, (GDestroyNotify) _agui_pipeline_free);
    }

  for (gsize offset = 0; offset < body->len; offset += 4096)
    g_assert_true (_agui_pipeline_push_bytes (pipeline, (const guint8 *) body->str + offset,
                                              MIN (4096, body->len - offset)));
  if (g_str_has_suffix (body->str, RUN_FINISHED "\n\n"))
    g_assert_true (_agui_pipeline_finish (pipeline));
  g_assert_null (_agui_pipeline_get_error (pipeline));
}

static char *
state_json (AguiReducer *reducer)
{
  g_autoptr(GError) error = NULL;
  char *text = _agui_transcript_dup_state_json (_agui_reducer_get_transcript (reducer), &error);

  /* whatever happened, the state still prints */
  g_assert_no_error (error);

  return text;
}

/* {"a":{"a":…{}…}}, @depth objects */
static char *
chain (guint depth)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i < depth; i++)
    g_string_append (text, "{\"a\":");
  g_string_append (text, "{}");
  for (guint i = 1; i < depth; i++)
    g_string_append_c (text, '}');

  return g_string_free (text, FALSE);
}

/* "/a/a/…/a", @depth tokens after @prefix */
static char *
chain_path (const char *prefix,
            guint       depth)
{
  GString *text = g_string_new (prefix);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, "/a");

  return g_string_free (text, FALSE);
}

static guint
count_warnings (AguiReducer *reducer,
                const char  *needle)
{
  GPtrArray *warnings = _agui_reducer_get_warnings (reducer);
  guint count = 0;

  for (guint i = 0; i < warnings->len; i++)
    count += strstr (g_ptr_array_index (warnings, i), needle) != NULL;

  return count;
}

static void
assert_memory_bounded (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  /* kilobytes */
  g_assert_cmpint (usage.ru_maxrss, <, 1024 * 1024);
}

static void
test_copy_onto_own_leaf (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *deep = chain (400);
  g_autofree char *snapshot = g_strdup_printf ("{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"x\":%s}}", deep);
  g_autofree char *leaf = chain_path ("/x", 399);
  g_autofree char *delta = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GString) ops = g_string_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);

  g_test_summary ("Copying a 400-level subtree onto its own deepest leaf, five times, is "
                  "refused at the first copy; the state is unchanged and still prints");

  for (guint i = 0; i < 5; i++)
    g_string_append_printf (ops, "%s{\"op\":\"copy\",\"from\":\"/x\",\"path\":\"%s/a\"}",
                            i > 0 ? "," : "", leaf);
  delta = g_strdup_printf ("{\"type\":\"STATE_DELTA\",\"delta\":[%s]}", ops->str);

  frame (body, RUN_STARTED);
  frame (body, snapshot);
  fold (reducer, body);
  before = state_json (reducer);

  g_string_truncate (body, 0);
  frame (body, delta);
  frame (body, RUN_FINISHED);
  fold (reducer, body);
  after = state_json (reducer);

  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (count_warnings (reducer, "operation 0 (copy "), ==, 1);
  g_assert_cmpuint (count_warnings (reducer, "nested deeper than 511 levels"), ==, 1);
  g_assert_nonnull (strstr (agui_transcript_get_state_error (transcript), "nested deeper than 511 levels"));
  /* the public node is built, and freed, without recursing past 511 */
  g_assert_nonnull (agui_transcript_get_state (transcript));
  assert_memory_bounded ();
}

static void
test_deep_adds (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *value = chain (500);
  g_autofree char *first = NULL;
  g_autofree char *after = NULL;
  guint depth = 0;

  g_test_summary ("120 adds, no frame deeper than 503 levels, each onto the deepest leaf so far: "
                  "only the first fits; the rest are refused, the state stays at 501 levels");

  frame (body, RUN_STARTED);
  for (guint i = 0; i < 120; i++)
    {
      g_autofree char *path = chain_path ("/v", depth);
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"STATE_DELTA\",\"delta\":"
                                                "[{\"op\":\"add\",\"path\":\"%s\",\"value\":%s}]}",
                                                i == 0 ? "/v" : path, value);

      frame (body, delta);
      /* where the next one would go, had this one been applied */
      depth += i == 0 ? 499 : 500;
      if (depth > 1000)
        depth = 1000;
    }
  frame (body, RUN_FINISHED);
  fold (reducer, body);

  g_assert_cmpuint (count_warnings (reducer, "STATE_DELTA left the state unchanged"), ==, 119);
  g_assert_cmpuint (count_warnings (reducer, "nested deeper than 511 levels"), ==, 119);
  after = state_json (reducer);
  first = g_strdup_printf ("{\"v\":%s}", value);
  g_assert_cmpstr (after, ==, first);
  assert_memory_bounded ();
}

/* 3.9 KB of state: 256 strings of 12 bytes. */
static char *
doubling_snapshot (const char *type)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "{\"type\":\"%s\",", type);
  if (g_str_equal (type, "ACTIVITY_SNAPSHOT"))
    g_string_append (text, "\"messageId\":\"act\",\"activityType\":\"plan\",\"content\":{\"d\":[");
  else
    g_string_append (text, "\"snapshot\":{\"d\":[");
  for (guint i = 0; i < 256; i++)
    g_string_append_printf (text, "%s\"%010u\"", i > 0 ? "," : "", i);
  g_string_append (text, "]}}");

  return g_string_free (text, FALSE);
}

static char *
doubling_delta (const char *type,
                guint       n_ops)
{
  GString *text = g_string_new (NULL);

  if (g_str_equal (type, "ACTIVITY_DELTA"))
    g_string_append (text, "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"act\",\"activityType\":\"plan\",\"patch\":[");
  else
    g_string_append (text, "{\"type\":\"STATE_DELTA\",\"delta\":[");
  for (guint i = 0; i < n_ops; i++)
    g_string_append_printf (text, "%s{\"op\":\"copy\",\"from\":\"/d\",\"path\":\"/d/-\"}", i > 0 ? "," : "");
  g_string_append (text, "]}");

  return g_string_free (text, FALSE);
}

static void
test_doubling_copies (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *snapshot = doubling_snapshot ("STATE_SNAPSHOT");
  g_autofree char *one = doubling_delta ("STATE_DELTA", 1);
  g_autofree char *all = doubling_delta ("STATE_DELTA", 24);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize size = 0;

  g_test_summary ("24 copies of an array into itself, in one delta (8 GB) are refused whole; "
                  "as 24 deltas the state grows until the next would pass the cap, no further");

  frame (body, RUN_STARTED);
  frame (body, snapshot);
  fold (reducer, body);
  before = state_json (reducer);

  g_string_truncate (body, 0);
  frame (body, all);
  fold (reducer, body);
  after = state_json (reducer);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (count_warnings (reducer, "would grow past its size limit of 8388608 bytes"), ==, 1);

  g_string_truncate (body, 0);
  for (guint i = 0; i < 24; i++)
    frame (body, one);
  frame (body, RUN_FINISHED);
  fold (reducer, body);

  /* 3.9 KB doubled 11 times is 8 MB of estimate: the 12th and later refused */
  g_assert_cmpuint (count_warnings (reducer, "would grow past its size limit"), ==, 1 + 13);
  _agui_json_value_measure (_agui_transcript_get_state_doc (_agui_reducer_get_transcript (reducer)),
                            AGUI_JSON_MAX_DEPTH, &size);
  g_assert_cmpuint (size, <=, AGUI_JSON_DOC_DEFAULT_MAX_SIZE);
  g_assert_cmpuint (size, >, AGUI_JSON_DOC_DEFAULT_MAX_SIZE / 2);
  /* the running total the patches kept is the size itself */
  g_assert_cmpuint (_agui_transcript_get_state_size (_agui_reducer_get_transcript (reducer)), ==, size);
  g_free (after);
  after = state_json (reducer);
  assert_memory_bounded ();
}

static void
test_big_value_copies (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GString) snapshot = g_string_new ("{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"v\":\"");
  g_autoptr(GString) delta = g_string_new ("{\"type\":\"STATE_DELTA\",\"delta\":[");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_test_summary ("A 4 MB value copied 1000 times in one delta (4 GB) is refused at the second copy");

  for (guint i = 0; i < 4 * 1000 * 1000 / 16; i++)
    g_string_append (snapshot, "0123456789abcdef");
  g_string_append (snapshot, "\"}}");
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (delta, "%s{\"op\":\"copy\",\"from\":\"/v\",\"path\":\"/c%u\"}", i > 0 ? "," : "", i);
  g_string_append (delta, "]}");

  frame (body, RUN_STARTED);
  frame (body, snapshot->str);
  fold (reducer, body);
  before = state_json (reducer);

  g_string_truncate (body, 0);
  frame (body, delta->str);
  frame (body, RUN_FINISHED);
  fold (reducer, body);
  after = state_json (reducer);

  g_assert_true (g_str_equal (after, before));
  g_assert_cmpuint (count_warnings (reducer, "operation 1 (copy /c1 from /v): the document would grow past"), ==, 1);
  assert_memory_bounded ();
}

static char *
activity_content_json (AguiReducer *reducer)
{
  AguiRecord *record = _agui_transcript_lookup_record (_agui_reducer_get_transcript (reducer), "act");
  g_autoptr(GError) error = NULL;
  AguiActivityPart *part;
  char *text;

  g_assert_nonnull (record);
  part = AGUI_ACTIVITY_PART (_agui_record_get_last_part (record, AGUI_TYPE_ACTIVITY_PART));
  text = _agui_json_to_string (agui_activity_part_get_content (part), FALSE, &error);
  g_assert_no_error (error);

  return text;
}

static void
test_activity (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *snapshot = doubling_snapshot ("ACTIVITY_SNAPSHOT");
  g_autofree char *all = doubling_delta ("ACTIVITY_DELTA", 24);
  g_autofree char *one = doubling_delta ("ACTIVITY_DELTA", 1);
  g_autofree char *deep = chain (500);
  g_autofree char *deep_delta = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *leaf = chain_path ("/deep", 499);

  g_test_summary ("The same bombs through an activity's content: refused, the content unchanged");

  /* json-glib's tree costs a few allocations a value: a smaller cap
   * reaches the same refusals in less time under a sanitizer */
  _agui_reducer_set_max_state_size (reducer, 128 * 1024);

  deep_delta = g_strdup_printf ("{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"act\",\"activityType\":\"plan\","
                                "\"patch\":[{\"op\":\"add\",\"path\":\"/deep\",\"value\":%s},"
                                "{\"op\":\"copy\",\"from\":\"/deep\",\"path\":\"%s/a\"}]}", deep, leaf);

  frame (body, RUN_STARTED);
  frame (body, snapshot);
  fold (reducer, body);
  before = activity_content_json (reducer);

  g_string_truncate (body, 0);
  frame (body, all);
  frame (body, deep_delta);
  fold (reducer, body);
  after = activity_content_json (reducer);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (count_warnings (reducer, "ACTIVITY_DELTA for 'act' left the content unchanged: "
                                             "operation 5 (copy /d/- from /d): the document would grow past"), ==, 1);
  g_assert_cmpuint (count_warnings (reducer, "operation 1 (copy "), ==, 1);
  g_assert_cmpuint (count_warnings (reducer, "nested deeper than 511 levels"), ==, 1);

  g_string_truncate (body, 0);
  for (guint i = 0; i < 24; i++)
    frame (body, one);
  frame (body, RUN_FINISHED);
  fold (reducer, body);
  /* doubled 5 times, then refused 19 times */
  g_assert_cmpuint (count_warnings (reducer, "would grow past its size limit of 131072 bytes"), ==, 1 + 19);
  g_free (after);
  after = activity_content_json (reducer);
  g_assert_cmpuint (strlen (after), <, 128 * 1024);
  g_assert_cmpuint (strlen (after), >, 64 * 1024);
  assert_memory_bounded ();
}

static void
test_cap_configurable (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *after = NULL;
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);

  g_test_summary ("The cap is the reducer's to set; a patch that shrinks a state over it applies, "
                  "a snapshot clears the state error");

  _agui_reducer_set_max_state_size (reducer, 64);
  frame (body, RUN_STARTED);
  frame (body, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"big\":\"" /* 70 bytes */
               "0123456789012345678901234567890123456789012345678901234567890123456789\"}}");
  frame (body, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/more\",\"value\":1}]}");
  fold (reducer, body);
  g_assert_cmpuint (count_warnings (reducer, "size limit of 64 bytes"), ==, 1);
  g_assert_nonnull (agui_transcript_get_state_error (transcript));

  g_string_truncate (body, 0);
  frame (body, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/big\",\"value\":\"small\"}]}");
  frame (body, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/more\",\"value\":1}]}");
  fold (reducer, body);
  after = state_json (reducer);
  g_assert_cmpstr (after, ==, "{\"big\":\"small\",\"more\":1}");
  /* the estimate counts a comma after every element, the last too */
  g_assert_cmpuint (_agui_transcript_get_state_size (transcript), ==, strlen (after) + 1);
  /* still the refused one's, until a snapshot */
  g_assert_nonnull (agui_transcript_get_state_error (transcript));

  g_string_truncate (body, 0);
  frame (body, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{}}");
  frame (body, RUN_FINISHED);
  fold (reducer, body);
  g_assert_null (agui_transcript_get_state_error (transcript));
}

/* Runs tandem-cli fold on @body, with @option (may be NULL). The stream
 * goes through a file, not a pipe: with a bad option the child exits
 * before reading, and writing into its closed stdin would kill the test
 * with SIGPIPE. */
static int
run_fold (GString     *body,
          const char  *option,
          char       **out,
          char       **err)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) stdout_bytes = NULL;
  g_autoptr(GBytes) stderr_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int fd;

  fd = g_file_open_tmp ("state-bounds-XXXXXX.sse", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, body->str, body->len, &error));
  g_assert_no_error (error);

  if (option != NULL)
    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                &error, g_getenv ("TANDEM_CLI"), "fold", option, path, NULL);
  else
    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                &error, g_getenv ("TANDEM_CLI"), "fold", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (process, NULL, NULL, &stdout_bytes, &stderr_bytes, &error);
  g_assert_no_error (error);
  g_unlink (path);
  *out = g_strndup (g_bytes_get_data (stdout_bytes, NULL), g_bytes_get_size (stdout_bytes));
  *err = g_strndup (g_bytes_get_data (stderr_bytes, NULL), g_bytes_get_size (stderr_bytes));

  return g_subprocess_get_exit_status (process);
}

static void
test_fold_reports (void)
{
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *state = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *warnings;

  g_test_summary ("tandem-cli fold names a refused STATE_DELTA on stderr and in its output's "
                  "warnings, the run not failed; --max-state-size sets the cap");

  frame (body, RUN_STARTED);
  frame (body, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"version\":1}}");
  frame (body, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/version\",\"value\":2}]}");
  frame (body, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/note\",\"value\":\"twenty bytes of text\"}]}");
  frame (body, RUN_FINISHED);

  g_assert_cmpint (run_fold (body, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "tandem-cli: warning: STATE_DELTA left the state unchanged: "
                                 "operation 0 (test /version): the value differs from the expected one\n"));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_null_member (root, "error"));
  warnings = json_object_get_array_member (root, "warnings");
  g_assert_cmpuint (json_array_get_length (warnings), ==, 1);
  g_assert_nonnull (strstr (json_array_get_string_element (warnings, 0), "(test /version)"));
  state = json_to_string (json_object_get_member (root, "state"), FALSE);
  g_assert_cmpstr (state, ==, "{\"version\":1,\"note\":\"twenty bytes of text\"}");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&state, g_free);
  g_assert_cmpint (run_fold (body, "--max-state-size=32", &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "operation 0 (add /note): the document would grow past its size limit of 32 bytes"));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "warnings")), ==, 2);
  state = json_to_string (json_object_get_member (root, "state"), FALSE);
  g_assert_cmpstr (state, ==, "{\"version\":1}");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_fold (body, "--max-state-size=lots", &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "lots"));
}

static void
on_sent_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  AguiRunState **state = user_data;
  g_autoptr(GError) error = NULL;

  *state = agui_agent_session_send_finish (AGUI_AGENT_SESSION (object), result, &error);
  g_assert_no_error (error);
}

static void
test_session_cap (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AguiTranscript *transcript;
  guint64 max_size = 0;

  g_test_summary ("A session's max-state-size caps what its runs' patches make of the state");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "max-state-size", (guint64) 32, NULL);
  g_object_get (session, "max-state-size", &max_size, NULL);
  g_assert_cmpuint (max_size, ==, 32);
  g_assert_cmpuint (agui_agent_session_get_max_state_size (session), ==, 32);

  g_assert_true (agui_replay_transport_add_run_json (replay,
    "[" RUN_STARTED ","
    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"a\":\"x\"}},"
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/b\",\"value\":\"more than thirty-two bytes of text\"}]},"
    RUN_FINISHED "]", &error));
  g_assert_no_error (error);

  agui_agent_session_send_async (session, "go", NULL, NULL, on_sent_cb, &state);
  while (state == NULL)
    g_main_context_iteration (NULL, TRUE);

  transcript = agui_agent_session_get_transcript (session);
  text = json_to_string (agui_transcript_get_state (transcript), FALSE);
  g_assert_cmpstr (text, ==, "{\"a\":\"x\"}");
  g_assert_nonnull (strstr (agui_transcript_get_state_error (transcript),
                            "operation 0 (add /b): the document would grow past its size limit of 32 bytes"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/agui/state-bounds/copy-onto-own-leaf", test_copy_onto_own_leaf);
  g_test_add_func ("/agui/state-bounds/deep-adds", test_deep_adds);
  g_test_add_func ("/agui/state-bounds/doubling-copies", test_doubling_copies);
  g_test_add_func ("/agui/state-bounds/big-value-copies", test_big_value_copies);
  g_test_add_func ("/agui/state-bounds/activity", test_activity);
  g_test_add_func ("/agui/state-bounds/cap-configurable", test_cap_configurable);
  g_test_add_func ("/agui/state-bounds/fold-reports", test_fold_reports);
  g_test_add_func ("/agui/state-bounds/session-cap", test_session_cap);

  return g_test_run ();
}
