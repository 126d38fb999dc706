/* test-subagent-run.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-reducer-private.h"

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
assert_change (GArray *changes,
               guint   index,
               guint   position,
               guint   removed,
               guint   added)
{
  Change *change;

  g_assert_cmpuint (changes->len, >, index);
  change = &g_array_index (changes, Change, index);
  g_assert_cmpuint (change->position, ==, position);
  g_assert_cmpuint (change->removed, ==, removed);
  g_assert_cmpuint (change->added, ==, added);
}

static AguiSubagentRun *
item (GListModel *subagents,
      guint       position)
{
  AguiSubagentRun *run = g_list_model_get_item (subagents, position);

  g_assert_true (AGUI_IS_SUBAGENT_RUN (run));
  g_object_unref (run);   /* the list keeps it alive */

  return run;
}

static void
test_lifecycle (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  GListModel *subagents = agui_transcript_get_subagents (transcript);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GListModel) property = NULL;
  g_autoptr(AguiSubagentRun) researcher = NULL;
  g_autofree char *result = NULL;
  AguiSubagentRun *run;

  g_test_summary ("Each SUBAGENT_STARTED appends a running AguiSubagentRun and each "
                  "FINISHED or ERROR puts an ended one in its place, one items-changed each");

  g_object_get (transcript, "subagents", &property, NULL);
  g_assert_true (property == subagents);
  g_assert_true (g_list_model_get_item_type (subagents) == AGUI_TYPE_SUBAGENT_RUN);
  g_signal_connect (subagents, "items-changed", G_CALLBACK (on_items_changed_cb), changes);

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  g_assert_cmpuint (changes->len, ==, 0);

  apply (reducer, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"researcher\","
                  "\"description\":\"finds things\",\"parentToolCallId\":\"tc1\",\"parentMessageId\":\"m0\","
                  "\"metadata\":{\"model\":\"small\"}}");
  apply (reducer, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa2\",\"name\":\"checker\","
                  "\"parentSubagentRunId\":\"sa1\"}");
  apply (reducer, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa3\",\"name\":\"writer\"}");
  g_assert_cmpuint (changes->len, ==, 3);
  assert_change (changes, 0, 0, 0, 1);
  assert_change (changes, 1, 1, 0, 1);
  assert_change (changes, 2, 2, 0, 1);

  researcher = g_object_ref (item (subagents, 0));
  g_assert_cmpstr (agui_subagent_run_get_id (researcher), ==, "sa1");
  g_assert_cmpstr (agui_subagent_run_get_name (researcher), ==, "researcher");
  g_assert_cmpstr (agui_subagent_run_get_description (researcher), ==, "finds things");
  g_assert_null (agui_subagent_run_get_parent_subagent_run_id (researcher));
  g_assert_cmpstr (agui_subagent_run_get_parent_tool_call_id (researcher), ==, "tc1");
  g_assert_cmpstr (agui_subagent_run_get_parent_message_id (researcher), ==, "m0");
  g_assert_cmpint (agui_subagent_run_get_status (researcher), ==, AGUI_SUBAGENT_RUNNING);
  g_assert_null (agui_subagent_run_get_result (researcher));
  g_assert_cmpuint (g_strv_length ((char **) agui_subagent_run_get_interrupt_ids (researcher)), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (agui_subagent_run_get_metadata (researcher)), "model"),
                   ==, "small");

  run = item (subagents, 1);
  g_assert_cmpstr (agui_subagent_run_get_parent_subagent_run_id (run), ==, "sa1");
  g_assert_null (agui_subagent_run_get_description (run));
  g_assert_null (agui_subagent_run_get_metadata (run));

  /* Another subagent's text changes nothing in the list. */
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\",\"subagentRunId\":\"sa2\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ok\",\"subagentRunId\":\"sa2\"}");
  g_assert_cmpuint (changes->len, ==, 3);

  apply (reducer, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa2\",\"result\":{\"found\":[1,2]},"
                  "\"outcome\":{\"type\":\"success\"}}");
  g_assert_cmpuint (changes->len, ==, 4);
  assert_change (changes, 3, 1, 1, 1);
  run = item (subagents, 1);
  g_assert_cmpstr (agui_subagent_run_get_id (run), ==, "sa2");
  g_assert_cmpstr (agui_subagent_run_get_name (run), ==, "checker");
  g_assert_cmpstr (agui_subagent_run_get_parent_subagent_run_id (run), ==, "sa1");
  g_assert_cmpint (agui_subagent_run_get_status (run), ==, AGUI_SUBAGENT_FINISHED);
  result = json_to_string (agui_subagent_run_get_result (run), FALSE);
  g_assert_cmpstr (result, ==, "{\"found\":[1,2]}");

  apply (reducer, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\","
                  "\"outcome\":{\"type\":\"suspended\",\"interruptIds\":[\"i1\",\"i2\"]}}");
  apply (reducer, "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa3\",\"message\":\"out of ink\",\"code\":\"E_INK\"}");
  g_assert_cmpuint (changes->len, ==, 6);
  assert_change (changes, 4, 0, 1, 1);
  assert_change (changes, 5, 2, 1, 1);

  run = item (subagents, 0);
  g_assert_cmpint (agui_subagent_run_get_status (run), ==, AGUI_SUBAGENT_SUSPENDED);
  g_assert_cmpstrv (agui_subagent_run_get_interrupt_ids (run), ((const char * const []) { "i1", "i2", NULL }));
  g_assert_null (agui_subagent_run_get_result (run));
  g_assert_cmpstr (agui_subagent_run_get_parent_tool_call_id (run), ==, "tc1");
  g_assert_nonnull (agui_subagent_run_get_metadata (run));
  /* A run is immutable: the one a caller held still says it ran. */
  g_assert_cmpint (agui_subagent_run_get_status (researcher), ==, AGUI_SUBAGENT_RUNNING);

  run = item (subagents, 2);
  g_assert_cmpint (agui_subagent_run_get_status (run), ==, AGUI_SUBAGENT_FAILED);
  g_assert_cmpstr (agui_subagent_run_get_error_message (run), ==, "out of ink");
  g_assert_cmpstr (agui_subagent_run_get_error_code (run), ==, "E_INK");

  /* An end for a subagent not at work is ignored, as the verifier would
   * have refused it. */
  apply (reducer, "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa2\",\"message\":\"late\"}");
  apply (reducer, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"nobody\"}");
  g_assert_cmpuint (changes->len, ==, 6);
  g_assert_cmpint (agui_subagent_run_get_status (item (subagents, 1)), ==, AGUI_SUBAGENT_FINISHED);

  /* A new run starts with none, in one change. */
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  g_assert_cmpuint (changes->len, ==, 7);
  assert_change (changes, 6, 0, 3, 0);
  g_assert_cmpuint (g_list_model_get_n_items (subagents), ==, 0);

  /* Its ids are its own: an id of the last run starts afresh. */
  apply (reducer, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa3\",\"name\":\"writer\"}");
  apply (reducer, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa3\"}");
  g_assert_cmpuint (changes->len, ==, 9);
  assert_change (changes, 7, 0, 0, 1);
  assert_change (changes, 8, 0, 1, 1);
  g_assert_cmpint (agui_subagent_run_get_status (item (subagents, 0)), ==, AGUI_SUBAGENT_FINISHED);
  g_assert_null (agui_subagent_run_get_error_message (item (subagents, 0)));
}

static void
test_properties (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  GListModel *subagents = agui_transcript_get_subagents (_agui_reducer_get_transcript (reducer));
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) interrupt_ids = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GEnumClass) enum_class = NULL;
  AguiSubagentStatus status;

  g_test_summary ("A subagent run's properties say what its getters say, its status an enum with nicks");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"researcher\"}");
  apply (reducer, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\",\"result\":42,"
                  "\"outcome\":{\"type\":\"suspended\",\"interruptIds\":[\"i9\"]}}");

  g_object_get (item (subagents, 0),
                "id", &id,
                "name", &name,
                "status", &status,
                "result", &result,
                "interrupt-ids", &interrupt_ids,
                NULL);
  g_assert_cmpstr (id, ==, "sa1");
  g_assert_cmpstr (name, ==, "researcher");
  g_assert_cmpint (status, ==, AGUI_SUBAGENT_SUSPENDED);
  g_assert_cmpint (json_node_get_int (result), ==, 42);
  g_assert_cmpstrv (interrupt_ids, ((const char * const []) { "i9", NULL }));

  enum_class = g_type_class_ref (AGUI_TYPE_SUBAGENT_STATUS);
  g_assert_cmpstr (g_enum_get_value (enum_class, AGUI_SUBAGENT_RUNNING)->value_nick, ==, "running");
  g_assert_cmpstr (g_enum_get_value (enum_class, AGUI_SUBAGENT_SUSPENDED)->value_nick, ==, "suspended");
  g_assert_cmpstr (g_enum_get_value (enum_class, AGUI_SUBAGENT_FAILED)->value_nick, ==, "failed");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/subagent-run/lifecycle", test_lifecycle);
  g_test_add_func ("/agui/subagent-run/properties", test_properties);

  return g_test_run ();
}
