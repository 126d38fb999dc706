/* test-run-input.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-input-messages-private.h"
#include "agui-reducer-private.h"
#include "agui-run-input-private.h"
#include "agui-transcript-private.h"

/* The messages a run sends are kept from one send to the next; what is
 * sent must always be what a projection of the transcript as it is
 * then gives, byte for byte, however the transcript changed in place. */

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

/* Takes @array */
static char *
array_text (JsonArray *array)
{
  g_autoptr(JsonArray) owned = array;
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), owned);

  return json_to_string (node, FALSE);
}

/* The input made from @kept, its text and its JSON, against one made
 * from scratch */
static void
assert_as_from_scratch (AguiInputMessages *kept,
                        AguiTranscript    *transcript)
{
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(JsonNode) scratch = NULL;
  g_autofree char *text = NULL;
  g_autofree char *input_text = NULL;
  g_autofree char *scratch_text = NULL;

  input = _agui_run_input_build ("t", "r", transcript, kept, NULL, NULL, TRUE, NULL, NULL, "r0", &text);
  scratch = _agui_run_input_build ("t", "r", transcript, NULL, NULL, NULL, TRUE, NULL, NULL, "r0", NULL);
  input_text = json_to_string (input, FALSE);
  scratch_text = json_to_string (scratch, FALSE);

  g_assert_cmpstr (input_text, ==, scratch_text);
  g_assert_cmpstr (text, ==, scratch_text);
}

static void
test_changes_in_place (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiInputMessages) kept = _agui_input_messages_new ();
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  guint attempt;

  g_test_summary ("A kept message that changes in place is sent as it is now, never as it was kept");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Let me \\\"check\\\".\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"q\\\":1}\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  g_assert_true (_agui_input_messages_update (kept, transcript, -1));
  assert_as_from_scratch (kept, transcript);

  /* The call gets its result: the assistant message is the same, a
   * tool message follows it */
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"c1\",\"content\":\"found\"}");
  assert_as_from_scratch (kept, transcript);

  /* More text for a message already sent, and a name */
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\" Done.\"}");
  assert_as_from_scratch (kept, transcript);

  /* The agent rewrites the history: same ids, other content */
  before = array_text (agui_transcript_to_messages (transcript, FALSE));
  apply (reducer, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                  "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Rewritten\","
                  "\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{}\"}}]},"
                  "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"other\"}]}");
  after = array_text (agui_transcript_to_messages (transcript, FALSE));
  g_assert_cmpstr (before, !=, after);
  assert_as_from_scratch (kept, transcript);

  /* The run fails: its words are not the agent's answer any more */
  attempt = _agui_transcript_begin_attempt (transcript);
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"Half\"}");
  assert_as_from_scratch (kept, transcript);
  _agui_transcript_mark_attempt (transcript, attempt, AGUI_ATTEMPT_FAILED);
  assert_as_from_scratch (kept, transcript);
}

static void
test_failed_attempt_order (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiInputMessages) kept = _agui_input_messages_new ();
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *input = NULL;
  guint attempt;

  g_test_summary ("A failed attempt's message loses its words and its unanswered calls; its answered calls "
                  "go last, where taking them out and setting them again has always put them");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  attempt = _agui_transcript_begin_attempt (transcript);
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"name\":\"bot\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Half\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"q\\\":1}\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c2\",\"toolCallName\":\"fetch\",\"parentMessageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"c1\",\"content\":\"found\"}");
  _agui_transcript_mark_attempt (transcript, attempt, AGUI_ATTEMPT_FAILED);

  input = array_text (agui_transcript_to_messages (transcript, FALSE));
  g_assert_cmpstr (input, ==,
                   "[{\"id\":\"m1\",\"role\":\"assistant\",\"name\":\"bot\","
                   "\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":1}\"}}]},"
                   "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"found\"}]");
  g_assert_true (_agui_input_messages_update (kept, transcript, -1));
  assert_as_from_scratch (kept, transcript);
}

static void
test_update_in_slices (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiInputMessages) kept = _agui_input_messages_new ();
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  guint slices = 0;

  g_test_summary ("Kept messages are brought up to date a slice at a time, and a change between slices is seen");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *start = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%u\"}", i);
      g_autofree char *content = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%u\",\"delta\":\"answer %u\"}", i, i);

      apply (reducer, start);
      apply (reducer, content);
    }

  /* A budget of nothing still looks at a few records each time */
  while (!_agui_input_messages_update (kept, transcript, 0))
    slices++;
  g_assert_cmpuint (slices, >, 1);

  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m7\",\"delta\":\", changed\"}");
  assert_as_from_scratch (kept, transcript);

  /* A tool's answer goes right after its call: every record after it
   * moves one place */
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"search\",\"parentMessageId\":\"m3\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"c1\",\"content\":\"found\"}");
  g_assert_cmpstr (_agui_record_get_id (_agui_transcript_get_record (transcript, 4)), ==, "t1");
  g_assert_cmpstr (_agui_record_get_id (_agui_transcript_get_record (transcript, 5)), ==, "m4");
  assert_as_from_scratch (kept, transcript);
  assert_as_from_scratch (kept, transcript);
}

static void
test_same_id (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiInputMessages) kept = _agui_input_messages_new ();
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Two messages with one id are both sent as they are, each time");

  messages = json_from_string ("[{\"id\":\"m\",\"role\":\"user\",\"content\":\"first\"},"
                               "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"between\"},"
                               "{\"id\":\"m\",\"role\":\"user\",\"content\":\"second\"}]", &error);
  g_assert_no_error (error);
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (messages), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 3);

  assert_as_from_scratch (kept, transcript);
  assert_as_from_scratch (kept, transcript);
  g_assert_true (_agui_input_messages_update (kept, transcript, -1));
  assert_as_from_scratch (kept, transcript);
}

/* The body a transport sends is the text of the input json-glib would
 * print, whatever the caller's parameters hold; what libagui's printer
 * refuses (nesting deeper than libagui reads) is left to the transport
 * to print. */
static void
test_printed_parameters (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiInputMessages) kept = _agui_input_messages_new ();
  g_autoptr(AguiRunParameters) parameters = agui_run_parameters_new ();
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(JsonNode) forwarded = NULL;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(JsonNode) deep = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *deep_text = NULL;
  JsonNode *inner;

  g_test_summary ("The request body is what json-glib prints for any parameters, or left to the transport");

  state = json_from_string ("{\"n\":[0.1,3.0,-0.0,1e300,2.5e-8,-7,9007199254740993],"
                            "\"s\":\"caf\\u00e9 \\ud83d\\ude00 \xc3\xa9 \\u0001 \\\" \\\\ </script> \\t\x7f\","
                            "\"e\":{},\"a\":[],\"z\":null,\"b\":[true,false]}", &error);
  g_assert_no_error (error);
  forwarded = json_from_string ("{\"x\":{\"y\":[{\"\\u00e9\":1}]}}", &error);
  g_assert_no_error (error);
  agui_run_parameters_set_state (parameters, state);
  agui_run_parameters_set_forwarded_props (parameters, forwarded);

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hi\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  g_assert_true (_agui_input_messages_update (kept, transcript, -1));

  input = _agui_run_input_build ("t", "r", transcript, kept, NULL, parameters, TRUE, NULL, NULL, "r0", &text);
  expected = json_to_string (input, FALSE);
  g_assert_nonnull (text);
  g_assert_cmpstr (text, ==, expected);

  /* Deeper than libagui reads: no text, and the input is whole */
  deep = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (deep, json_array_new ());
  inner = deep;
  for (guint i = 0; i < 600; i++)
    {
      JsonNode *child = json_node_new (JSON_NODE_ARRAY);

      json_node_take_array (child, json_array_new ());
      json_array_add_element (json_node_get_array (inner), child);
      inner = child;
    }
  agui_run_parameters_set_state (parameters, deep);
  g_clear_pointer (&input, json_node_unref);
  g_clear_pointer (&text, g_free);
  input = _agui_run_input_build ("t", "r", transcript, kept, NULL, parameters, TRUE, NULL, NULL, "r0", &text);
  g_assert_null (text);
  deep_text = json_to_string (json_object_get_member (json_node_get_object (input), "state"), FALSE);
  g_assert_cmpuint (strlen (deep_text), ==, 2 * 601);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/agui/run-input/changes-in-place", test_changes_in_place);
  g_test_add_func ("/agui/run-input/printed-parameters", test_printed_parameters);
  g_test_add_func ("/agui/run-input/failed-attempt-order", test_failed_attempt_order);
  g_test_add_func ("/agui/run-input/update-in-slices", test_update_in_slices);
  g_test_add_func ("/agui/run-input/same-id", test_same_id);

  return g_test_run ();
}
