/* test-reducer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-event-parser-private.h"
#include "agui-event-private.h"
#include "agui-interrupt-description-private.h"
#include "agui-interrupt-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"
#include "agui-util-private.h"
#include "agui-test-util.h"

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

static char *
messages_json (AguiTranscript *transcript)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (),
                                                   agui_transcript_to_messages (transcript, TRUE));

  json_array_unref (json_node_get_array (node));
  return json_to_string (node, FALSE);
}

static AguiSpeakerTurn *
row (AguiTranscript *transcript,
     guint           position)
{
  AguiSpeakerTurn *message = g_list_model_get_item (G_LIST_MODEL (transcript), position);

  g_assert_nonnull (message);
  g_object_unref (message);   /* the transcript keeps it alive */

  return message;
}

static void
test_metadata_merges_in_order (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autofree char *json = NULL;

  g_test_summary ("Metadata the events carry is merged as it comes, message and call apart: a member "
                  "sent again keeps its place, new ones follow, in the order the agent sent them");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\","
                  "\"metadata\":{\"model\":\"x\",\"n\":0}}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"hi\",\"metadata\":{\"n\":1}}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"metadata\":{\"extra\":{\"k\":[1]}}}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\","
                  "\"parentMessageId\":\"m1\",\"metadata\":{\"b\":1,\"a\":2}}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\",\"metadata\":{\"a\":3}}");

  json = messages_json (_agui_reducer_get_transcript (reducer));
  g_assert_cmpstr (json, ==,
                   "[{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"hi\","
                   "\"toolCalls\":[{\"id\":\"tc1\",\"type\":\"function\","
                   "\"function\":{\"name\":\"f\",\"arguments\":\"\"},\"metadata\":{\"b\":1,\"a\":3}}],"
                   "\"metadata\":{\"model\":\"x\",\"n\":1,\"extra\":{\"k\":[1]}}}]");
}

static void
test_part_order (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *json = NULL;
  AguiSpeakerTurn *turn;
  g_autoptr(AguiPart) first = NULL, second = NULL, third = NULL;

  g_test_summary ("Text, a tool call and more text keep their order in one turn");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Let me check. \"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":1}\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Found it.\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 1);
  turn = row (transcript, 0);
  g_assert_cmpint (agui_speaker_turn_get_role (turn), ==, AGUI_ROLE_ASSISTANT);
  g_assert_cmpuint (g_list_model_get_n_items (agui_speaker_turn_get_parts (turn)), ==, 3);

  first = g_list_model_get_item (agui_speaker_turn_get_parts (turn), 0);
  second = g_list_model_get_item (agui_speaker_turn_get_parts (turn), 1);
  third = g_list_model_get_item (agui_speaker_turn_get_parts (turn), 2);
  g_assert_cmpstr (agui_text_part_get_text (AGUI_TEXT_PART (first)), ==, "Let me check. ");
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (AGUI_TOOL_CALL_PART (second)), ==, "lookup");
  g_assert_cmpint (agui_tool_call_part_get_status (AGUI_TOOL_CALL_PART (second)), ==, AGUI_TOOL_CALL_AWAITING_RESULT);
  g_assert_nonnull (agui_tool_call_part_get_parsed_arguments (AGUI_TOOL_CALL_PART (second)));
  g_assert_cmpstr (agui_text_part_get_text (AGUI_TEXT_PART (third)), ==, "Found it.");

  /* The protocol still sees one message holding both texts and the call. */
  json = messages_json (transcript);
  g_assert_cmpstr (json, ==,
                   "[{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Let me check. Found it.\","
                   "\"toolCalls\":[{\"id\":\"tc1\",\"type\":\"function\","
                   "\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":1}\"}}]}]");
}

static void
test_two_runs (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(JsonArray) messages = NULL;

  g_test_summary ("A second run grows the same transcript; the first answer stays");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"first\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FINISHED);

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_RUNNING);
  g_assert_cmpstr (agui_run_state_get_run_id (agui_transcript_get_run_state (transcript)), ==, "r2");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"user\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"again\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m3\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m3\",\"delta\":\"second\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m3\"}");
  apply (reducer, "{\"type\":\"RUN_ERROR\",\"message\":\"overloaded\",\"code\":\"busy\"}");

  messages = agui_transcript_to_messages (transcript, TRUE);
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==, "first");
  /* Agent turn, the user's message, a second agent turn. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 3);
  g_assert_cmpint (agui_speaker_turn_get_role (row (transcript, 1)), ==, AGUI_ROLE_USER);

  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FAILED);
  g_assert_cmpstr (agui_run_state_get_error_message (agui_transcript_get_run_state (transcript)), ==, "overloaded");
  g_assert_cmpstr (agui_run_state_get_error_code (agui_transcript_get_run_state (transcript)), ==, "busy");
  g_assert_cmpint (agui_run_state_get_error_stage (agui_transcript_get_run_state (transcript)), ==, AGUI_STAGE_AGENT);
}

static void
count_cb (gpointer  object,
          gpointer  pspec_or_position,
          gpointer  user_data)
{
  (*(guint *) user_data)++;
}

static void
count_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_notify_contract (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(AguiPart) part = NULL;
  guint rows_changed = 0, parts_changed = 0, text_notifies = 0;
  AguiSpeakerTurn *turn;

  g_test_summary ("A delta is one notify on its part; items-changed only on add/remove");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  g_signal_connect (transcript, "items-changed", G_CALLBACK (count_items_changed_cb), &rows_changed);
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  g_assert_cmpuint (rows_changed, ==, 1);

  turn = row (transcript, 0);
  part = g_list_model_get_item (agui_speaker_turn_get_parts (turn), 0);
  g_signal_connect (turn, "items-changed", G_CALLBACK (count_items_changed_cb), &parts_changed);
  g_signal_connect (part, "notify::text", G_CALLBACK (count_cb), &text_notifies);

  for (guint i = 0; i < 100; i++)
    apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"x\"}");
  /* Keep-alives change nothing and say nothing. */
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\"}");

  g_assert_cmpuint (text_notifies, ==, 100);
  g_assert_cmpuint (parts_changed, ==, 0);
  g_assert_cmpuint (rows_changed, ==, 1);
  g_assert_cmpuint (agui_text_part_get_length (AGUI_TEXT_PART (part)), ==, 100);

  /* A tool call in the same turn adds a part, not a row. */
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc\",\"toolCallName\":\"n\",\"parentMessageId\":\"m1\"}");
  g_assert_cmpuint (parts_changed, ==, 1);
  g_assert_cmpuint (rows_changed, ==, 1);
}

static void
test_state_delta_failure (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *state = NULL;

  g_test_summary ("A state delta that fails leaves the state unchanged and records a warning");

  apply (reducer, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"count\":1,\"items\":[\"a\"]}}");
  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/count\",\"value\":2},"
                  "{\"op\":\"test\",\"path\":\"/items/0\",\"value\":\"nope\"}]}");
  g_assert_cmpuint (_agui_reducer_get_warnings (reducer)->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (_agui_reducer_get_warnings (reducer), 0), "STATE_DELTA"));

  state = json_to_string (agui_transcript_get_state (transcript), FALSE);
  g_assert_cmpstr (state, ==, "{\"count\":1,\"items\":[\"a\"]}");

  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/items/-\",\"value\":\"b\"}]}");
  g_clear_pointer (&state, g_free);
  state = json_to_string (agui_transcript_get_state (transcript), FALSE);
  g_assert_cmpstr (state, ==, "{\"count\":1,\"items\":[\"a\",\"b\"]}");
  g_assert_nonnull (agui_transcript_get_last_state_delta (transcript));
}

static void
on_state_notify_cb (GObject    *object,
                    GParamSpec *pspec,
                    gpointer    user_data)
{
  GPtrArray *seen = user_data;

  g_ptr_array_add (seen, _agui_json_to_string (agui_transcript_get_state (AGUI_TRANSCRIPT (object)),
                                               FALSE, NULL));
}

static void
test_state_view (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  JsonNode *first;
  JsonNode *state;
  GValue value = G_VALUE_INIT;

  g_test_summary ("The state's JsonNode is built from the transcript's tree when asked, kept "
                  "while the state stays, and follows every change a listener is told of");

  g_signal_connect (transcript, "notify::state", G_CALLBACK (on_state_notify_cb), seen);

  first = agui_transcript_get_state (transcript);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (first));
  g_assert_cmpuint (json_object_get_size (json_node_get_object (first)), ==, 0);

  apply (reducer, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1,\"keys\":{}}}");
  /* Names enough for the tree's index, and one added again after removal. */
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\","
                                                "\"path\":\"/keys/k%u\",\"value\":{\"n\":%u,\"tag\":\"new\"}}]}",
                                                i, i);

      apply (reducer, delta);
    }
  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/keys/k3\"},"
                  "{\"op\":\"replace\",\"path\":\"/n\",\"value\":2.5}]}");
  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/keys/k3\",\"value\":\"back\"}]}");
  g_assert_cmpuint (seen->len, ==, 15);
  g_assert_cmpstr (g_ptr_array_index (seen, 0), ==, "{\"n\":1,\"keys\":{}}");
  g_assert_cmpstr (g_ptr_array_index (seen, 1), ==, "{\"n\":1,\"keys\":{\"k0\":{\"n\":0,\"tag\":\"new\"}}}");

  state = agui_transcript_get_state (transcript);
  g_assert_true (agui_transcript_get_state (transcript) == state);
  text = _agui_json_to_string (state, FALSE, NULL);
  g_assert_cmpstr (text, ==, g_ptr_array_index (seen, seen->len - 1));
  g_assert_true (g_str_has_prefix (text, "{\"n\":2.5,\"keys\":{\"k0\":"));
  g_assert_true (g_str_has_suffix (text, "\"k11\":{\"n\":11,\"tag\":\"new\"},\"k3\":\"back\"}}"));
  g_assert_null (strstr (text, "\"k3\":{"));

  /* The text readers that need no node get the same bytes. */
  json = _agui_transcript_dup_state_json (transcript, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, text);

  /* The property is a copy of the same node (boxed: json_node_copy ()). */
  g_value_init (&value, JSON_TYPE_NODE);
  g_object_get_property (G_OBJECT (transcript), "state", &value);
  g_assert_true (json_node_get_object (g_value_get_boxed (&value)) == json_node_get_object (state));
  g_value_unset (&value);

  /* A failing delta changes nothing, the node included. */
  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/keys/k0\"},"
                  "{\"op\":\"test\",\"path\":\"/n\",\"value\":3}]}");
  g_assert_true (agui_transcript_get_state (transcript) == state);
  g_assert_cmpuint (seen->len, ==, 15);
}

/* Values the patch reader does not read itself (arrays, nested objects,
 * doubles, repeated names) go through the event reader into the state's
 * tree; the same frames through json-glib (the reference parser) must
 * fold to the same state, byte for byte, with the same warnings. */
static const char * const value_deltas[] = {
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/a\",\"value\":[1,2.5,-0.0,1e3,\"x\",true,false,null,[],{}]}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/o\",\"value\":{\"k\":{\"deep\":[{\"n\":9223372036854775807}]},\"d\":0.1}}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/r\",\"value\":{\"a\":1,\"b\":[2],\"a\":3}}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/p\",\"value\":{\"a\":1,\"b\":2,\"a\":{\"x\":1}}}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/a/1\",\"value\":[{\"caf\xc3\xa9\":\"\xf0\x9f\x98\x80 a string longer than fourteen\"}]}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/o\",\"value\":{\"d\":0.1,\"k\":{\"deep\":[{\"n\":9223372036854775807}]}}},"
  "{\"op\":\"add\",\"path\":\"/o/k/deep/-\",\"value\":[[[1]]]}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/a/0\",\"value\":[1]},{\"op\":\"add\",\"path\":\"/never\",\"value\":1}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/e\",\"value\":\"tab\\tquote\\\"\"},{\"op\":\"add\",\"path\":\"/n\",\"value\":null}]}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"move\",\"from\":\"/o/k\",\"path\":\"/k\"},{\"op\":\"copy\",\"from\":\"/k\",\"path\":\"/a/0\"}]}",
};

static void
count_patch_ops_cb (AguiEvent *event,
                    gpointer   user_data)
{
  const char *strings;
  const char *patch;
  guint n_ops = 0;

  if (agui_event_get_event_type (event) == AGUI_EVENT_STATE_DELTA &&
      _agui_event_get_patch_ops (event, &n_ops, &strings, &patch) != NULL)
    (*(guint *) user_data)++;
}

/* Folds the frames as a session does (the pipeline: the fast parser and
 * its patch reader, or the reference); @n_read: how many deltas the patch
 * reader read into operations. */
static char *
fold_value_deltas (gboolean    reference,
                   GPtrArray **warnings,
                   guint      *n_read)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  AguiPipeline *pipeline;
  char *state;

  g_string_append (body, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
  for (guint i = 0; i < G_N_ELEMENTS (value_deltas); i++)
    g_string_append_printf (body, "data: %s\n\n", value_deltas[i]);
  g_string_append (body, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");

  *n_read = 0;
  _agui_event_parser_set_reference_by_default (reference);
  pipeline = _agui_pipeline_new (reducer);
  _agui_event_parser_set_reference_by_default (FALSE);
  _agui_pipeline_set_callbacks (pipeline, count_patch_ops_cb, NULL, n_read);
  g_assert_true (_agui_pipeline_push_bytes (pipeline, (const guint8 *) body->str, body->len));
  g_assert_true (_agui_pipeline_finish (pipeline));
  g_assert_null (_agui_pipeline_get_error (pipeline));
  _agui_pipeline_free (pipeline);

  state = _agui_json_to_string (agui_transcript_get_state (_agui_reducer_get_transcript (reducer)), FALSE, NULL);
  *warnings = g_ptr_array_ref (_agui_reducer_get_warnings (reducer));

  return state;
}

static void
test_state_values_both_ways (void)
{
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) reference_warnings = NULL;
  guint n_read, n_reference_read;
  g_autofree char *state = fold_value_deltas (FALSE, &warnings, &n_read);
  g_autofree char *reference = fold_value_deltas (TRUE, &reference_warnings, &n_reference_read);

  g_test_summary ("Nested values read straight into the state's tree fold as json-glib's do");

  /* every delta but the one with escapes went through the patch reader */
  g_assert_cmpuint (n_read, ==, G_N_ELEMENTS (value_deltas) - 1);
  g_assert_cmpuint (n_reference_read, ==, 0);

  g_assert_cmpstr (state, ==, reference);
  g_assert_cmpstr (state, ==,
                   "{\"a\":[{\"deep\":[{\"n\":9223372036854775807},[[[1]]]]},1,"
                   "[{\"caf\xc3\xa9\":\"\xf0\x9f\x98\x80 a string longer than fourteen\"}],"
                   "-0.0,1000.0,\"x\",true,false,null,[],{}],"
                   "\"o\":{\"d\":0.10000000000000001},\"r\":{\"a\":3,\"b\":[2]},\"p\":{\"a\":{\"x\":1},\"b\":2},"
                   "\"e\":\"tab\\tquote\\\"\",\"n\":null,\"k\":{\"deep\":[{\"n\":9223372036854775807},[[[1]]]]}}");
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpuint (reference_warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==, g_ptr_array_index (reference_warnings, 0));
}

static gboolean
call_expired (gpointer data)
{
  return agui_tool_call_part_get_status (data) == AGUI_TOOL_CALL_EXPIRED;
}

static void
apply_printf (AguiReducer *reducer,
              const char  *format,
              ...) G_GNUC_PRINTF (2, 3);

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_tool_expires (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 1);
  g_autofree char *expires_at = g_date_time_format_iso8601 (soon);
  g_autofree char *finished = NULL;
  AguiToolCallPart *call;
  AguiToolCallPart *past;
  guint notified = 0;

  g_test_summary ("A question past its expiresAt shows Expired when it expires, "
                  "by a timer, without an answer or another event");

  finished = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\","
                              "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"expiresAt\":\"%s\"},"
                              "{\"id\":\"i2\",\"reason\":\"tool_call\",\"toolCallId\":\"tc2\",\"expiresAt\":\"2001-02-03T04:05:06Z\"}]}}",
                              expires_at);
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"delete_db\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"delete_db\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}");
  apply (reducer, finished);
  call = agui_transcript_lookup_tool_call (transcript, "tc1");
  past = agui_transcript_lookup_tool_call (transcript, "tc2");

  /* Already past: expired from the start */
  g_assert_cmpint (agui_tool_call_part_get_status (past), ==, AGUI_TOOL_CALL_EXPIRED);
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);

  g_signal_connect (transcript, "notify::pending-interrupts", G_CALLBACK (count_notify_cb), &notified);
  g_assert_true (agui_test_wait_for (call_expired, call, 10000));
  /* Told, so that what lists the questions looks again; still open until dismissed */
  g_assert_cmpuint (notified, >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (agui_transcript_get_pending_interrupts (transcript)), ==, 2);
  g_signal_handlers_disconnect_by_func (transcript, count_notify_cb, &notified);
}

static void
test_tool_statuses (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(AguiInterrupt) interrupt = NULL;
  AguiToolCallPart *call;
  GListModel *interrupts;

  g_test_summary ("A tool card goes streaming, awaiting approval, awaiting result, complete");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"delete_db\"}");
  call = agui_transcript_lookup_tool_call (transcript, "tc1");
  g_assert_nonnull (call);
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_STREAMING);
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"name\\\":\"}");
  g_assert_null (agui_tool_call_part_get_parsed_arguments (call));
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"\\\"staging\\\"}\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_RESULT);
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\","
                  "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}]}}");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);
  interrupts = agui_transcript_get_pending_interrupts (transcript);
  g_assert_cmpuint (g_list_model_get_n_items (interrupts), ==, 1);
  interrupt = g_list_model_get_item (interrupts, 0);
  g_assert_cmpstr (agui_interrupt_get_id (interrupt), ==, "i1");
  g_assert_cmpstr (agui_interrupt_get_reason (interrupt), ==, "tool_call");
  g_assert_cmpstr (agui_interrupt_get_tool_call_id (interrupt), ==, "tc1");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"done\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_COMPLETE);
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "done");
  g_assert_cmpuint (g_list_model_get_n_items (interrupts), ==, 0);
  /* An interrupt outlives its answer: a caller's reference stays good. */
  g_assert_cmpstr (agui_interrupt_get_id (interrupt), ==, "i1");
}

static void
test_tool_call_arguments (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(GString) expected = g_string_new ("{\"q\":\"");
  g_autoptr(JsonNode) property = NULL;
  g_autofree char *parsed_text = NULL;
  AguiToolCallPart *call, *second, *broken;
  JsonNode *parsed;
  guint parsed_notifies = 0;

  g_test_summary ("Arguments streamed in many deltas read back whole, parse once the "
                  "call ends, keep what the end parsed, and calls share their tool name");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\"}");
  call = agui_transcript_lookup_tool_call (transcript, "tc1");
  g_signal_connect (call, "notify::parsed-arguments", G_CALLBACK (count_cb), &parsed_notifies);
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\\\"\"}");
  /* enough deltas to outgrow any first allocation many times over */
  for (guint i = 0; i < 500; i++)
    {
      apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"abc\"}");
      g_string_append (expected, "abc");
    }
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"\\\"}\"}");
  g_string_append (expected, "\"}");
  g_assert_cmpstr (agui_tool_call_part_get_arguments (call), ==, expected->str);
  g_assert_null (agui_tool_call_part_get_parsed_arguments (call));
  g_assert_cmpuint (parsed_notifies, ==, 0);

  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  g_assert_cmpuint (parsed_notifies, ==, 1);
  g_assert_cmpstr (agui_tool_call_part_get_arguments (call), ==, expected->str);
  parsed = agui_tool_call_part_get_parsed_arguments (call);
  g_assert_nonnull (parsed);
  g_assert_true (agui_tool_call_part_get_parsed_arguments (call) == parsed);
  parsed_text = json_to_string (parsed, FALSE);
  g_assert_cmpstr (parsed_text, ==, expected->str);
  g_object_get (call, "parsed-arguments", &property, NULL);
  g_assert_true (json_node_equal (property, parsed));

  /* A delta after the end (the reducer alone lets it through) grows the
   * text, but the parsed arguments stay those the end gave. */
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\" x\"}");
  g_string_append (expected, " x");
  g_assert_cmpstr (agui_tool_call_part_get_arguments (call), ==, expected->str);
  g_assert_true (agui_tool_call_part_get_parsed_arguments (call) == parsed);

  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"lookup\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}");
  second = agui_transcript_lookup_tool_call (transcript, "tc2");
  g_assert_cmpstr (agui_tool_call_part_get_arguments (second), ==, "");
  g_assert_null (agui_tool_call_part_get_parsed_arguments (second));
  g_assert_true (agui_tool_call_part_get_tool_name (second) == agui_tool_call_part_get_tool_name (call));

  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc3\",\"toolCallName\":\"other\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc3\",\"delta\":\"{\\\"open\\\":\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc3\"}");
  broken = agui_transcript_lookup_tool_call (transcript, "tc3");
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (broken), ==, "other");
  g_assert_cmpstr (agui_tool_call_part_get_arguments (broken), ==, "{\"open\":");
  g_assert_null (agui_tool_call_part_get_parsed_arguments (broken));
  g_assert_cmpint (agui_tool_call_part_get_status (broken), ==, AGUI_TOOL_CALL_AWAITING_RESULT);
}

static void
test_tool_call_holders (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(JsonNode) plain = NULL;
  g_autoptr(GError) error = NULL;
  AguiToolCallPart *own;

  g_test_summary ("A call is found by its id wherever it is held: by the message made for it, "
                  "by a message it was started under, after the parts of its message go, "
                  "and a second call of an id never hides the first");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  /* a: the message of its own id; b under a; c under a message "b" made for it */
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"a\",\"toolCallName\":\"fa\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"b\",\"toolCallName\":\"fb\",\"parentMessageId\":\"a\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"fc\",\"parentMessageId\":\"b\"}");
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (agui_transcript_lookup_tool_call (transcript, "a")), ==, "fa");
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (agui_transcript_lookup_tool_call (transcript, "b")), ==, "fb");
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (agui_transcript_lookup_tool_call (transcript, "c")), ==, "fc");
  g_assert_null (agui_transcript_lookup_tool_call (transcript, "d"));

  /* the calls found before go with their messages */
  g_assert_nonnull (agui_transcript_lookup_tool_call (transcript, "c"));
  plain = json_from_string ("[{\"id\":\"u\",\"role\":\"user\",\"content\":\"hi\"}]", &error);
  g_assert_no_error (error);
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (plain), &error));
  g_assert_no_error (error);
  g_assert_null (agui_transcript_lookup_tool_call (transcript, "c"));

  /* d's message, as loaded, holds a call of its id first and
   * has content parts: text streamed to it takes the parts away */
  messages = json_from_string ("[{\"id\":\"d\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}],"
                               "\"toolCalls\":[{\"id\":\"d\",\"type\":\"function\",\"function\":{\"name\":\"fd\",\"arguments\":\"{}\"}},"
                               "{\"id\":\"e\",\"type\":\"function\",\"function\":{\"name\":\"fe\",\"arguments\":\"{}\"}}]}]", &error);
  g_assert_no_error (error);
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (messages), &error));
  g_assert_no_error (error);
  own = agui_transcript_lookup_tool_call (transcript, "d");
  g_assert_nonnull (own);
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (own), ==, "fd");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"d\",\"delta\":\"y\"}");
  g_assert_true (agui_transcript_lookup_tool_call (transcript, "d") == own);
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (agui_transcript_lookup_tool_call (transcript, "e")), ==, "fe");

  /* a second message "d" holding a call "d" does not hide the first */
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"f\",\"toolCallName\":\"ff\",\"parentMessageId\":\"d\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r1\",\"toolCallId\":\"d\",\"content\":\"done\"}");
  g_assert_true (agui_transcript_lookup_tool_call (transcript, "d") == own);
  g_assert_cmpstr (agui_tool_call_part_get_result (own), ==, "done");
}

static void
test_lent_result (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(AguiToolCallPart) call = NULL;
  g_autoptr(AguiToolCallPart) short_call = NULL;
  g_autoptr(JsonNode) plain = NULL;
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  g_test_summary ("A call's result is its tool message's text, lent: it follows the "
                  "message's text, and outlives the message as it was");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  call = g_object_ref (agui_transcript_lookup_tool_call (transcript, "tc1"));
  g_signal_connect (call, "notify::result", G_CALLBACK (count_notify_cb), &notified);
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r1\",\"toolCallId\":\"tc1\","
                  "\"content\":\"an answer too long to sit inside its value\"}");
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "an answer too long to sit inside its value");
  g_assert_cmpuint (notified, ==, 1);

  /* text streamed to the tool message (its id reused) changes the result */
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\", and more\"}");
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "an answer too long to sit inside its value, and more");
  g_assert_cmpuint (notified, ==, 2);

  /* a short answer lives inside its record */
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"f\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r2\",\"toolCallId\":\"tc2\",\"content\":\"short\"}");
  short_call = g_object_ref (agui_transcript_lookup_tool_call (transcript, "tc2"));
  g_assert_cmpstr (agui_tool_call_part_get_result (short_call), ==, "short");

  /* the messages go; the calls keep their results, unchanged, while
   * what the records took is made again for others */
  plain = json_from_string ("[{\"id\":\"u\",\"role\":\"user\",\"content\":\"hi\"}]", &error);
  g_assert_no_error (error);
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (plain), &error));
  g_assert_no_error (error);
  g_assert_null (agui_transcript_lookup_tool_call (transcript, "tc1"));
  for (guint i = 0; i < 100; i++)
    {
      apply_printf (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"x%u\",\"toolCallName\":\"f\"}", i);
      apply_printf (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"y%u\",\"toolCallId\":\"x%u\","
                    "\"content\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}", i, i);
    }
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "an answer too long to sit inside its value, and more");
  g_assert_cmpstr (agui_tool_call_part_get_result (short_call), ==, "short");
  g_assert_cmpuint (notified, ==, 2);
}

static void
test_tool_call_replayed (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  AguiRunState *state;
  const char * const *pending;

  g_test_summary ("A TOOL_CALL_START replayed for a known call leaves the call pending once");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  state = agui_transcript_get_run_state (transcript);
  pending = agui_run_state_get_pending_tool_call_ids (state);
  g_assert_nonnull (pending);
  g_assert_cmpuint (g_strv_length ((char **) pending), ==, 2);
  g_assert_cmpstr (pending[0], ==, "tc1");
  g_assert_cmpstr (pending[1], ==, "tc2");
}

static void
test_pending_after_results (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  const char * const *pending;

  g_test_summary ("A run ends with the calls it started and got no result for pending, "
                  "a result that came before its call's start included");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r1\",\"toolCallId\":\"tc1\",\"content\":\"1\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r3\",\"toolCallId\":\"tc3\",\"content\":\"3\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc3\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc3\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc4\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc4\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  pending = agui_run_state_get_pending_tool_call_ids (agui_transcript_get_run_state (transcript));
  g_assert_cmpstrv (pending, ((const char * const []) { "tc2", "tc4", NULL }));

  /* The next run starts afresh: tc2's late result is not this run's call,
   * and a call of this run with a result is not pending. */
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r2\",\"toolCallId\":\"tc2\",\"content\":\"2\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc5\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc5\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc6\",\"toolCallName\":\"clock\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc6\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r5\",\"toolCallId\":\"tc5\",\"content\":\"5\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r2\"}");

  pending = agui_run_state_get_pending_tool_call_ids (agui_transcript_get_run_state (transcript));
  g_assert_cmpstrv (pending, ((const char * const []) { "tc6", NULL }));
  g_assert_cmpstr (agui_tool_call_part_get_result (agui_transcript_lookup_tool_call (transcript, "tc2")), ==, "2");
}

static void
apply_printf (AguiReducer *reducer,
              const char  *format,
              ...)
{
  g_autofree char *json = NULL;
  va_list args;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);
  apply (reducer, json);
}

static void
test_pending_in_long_run (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) expected = NULL;
  const char * const *pending;

  g_test_summary ("In a run of many calls, most answered as they go, the unanswered "
                  "ones end it pending, in the order they started, each once");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  for (guint i = 1; i <= 500; i++)
    {
      apply_printf (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc%u\",\"toolCallName\":\"clock\"}", i);
      apply_printf (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc%u\"}", i);
      /* every seventh call stays unanswered */
      if (i % 7 != 0)
        apply_printf (reducer, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r%u\",\"toolCallId\":\"tc%u\",\"content\":\"ok\"}", i, i);
      else
        {
          g_autofree char *id = g_strdup_printf ("tc%u", i);

          g_strv_builder_add (builder, id);
        }
      /* a start replayed for an answered call lists it no more, and one
       * for an open call lists it only once */
      if (i % 50 == 0)
        {
          apply_printf (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc%u\",\"toolCallName\":\"clock\"}", i - 1);
          apply_printf (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc%u\",\"toolCallName\":\"clock\"}", i - 1 - (i - 1) % 7);
        }
    }
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  expected = g_strv_builder_end (builder);
  g_assert_cmpuint (g_strv_length (expected), ==, 71);
  pending = agui_run_state_get_pending_tool_call_ids (agui_transcript_get_run_state (transcript));
  g_assert_cmpstrv (pending, (const char * const *) expected);
}

static void
test_messages_snapshot (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *json = NULL;

  g_test_summary ("MESSAGES_SNAPSHOT replaces known messages in place and drops the ones it omits");

  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\",\"role\":\"user\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a\",\"delta\":\"hi\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"b\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"b\",\"delta\":\"draft\"}");
  apply (reducer, "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r\",\"role\":\"reasoning\"}");
  apply (reducer, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                  "{\"id\":\"c\",\"role\":\"assistant\",\"content\":\"new\"},"
                  "{\"id\":\"b\",\"role\":\"assistant\",\"content\":\"final\"}]}");

  json = messages_json (transcript);
  /* b keeps its place, the local reasoning is protected, a is gone, c is new. */
  g_assert_cmpstr (json, ==,
                   "[{\"id\":\"b\",\"role\":\"assistant\",\"content\":\"final\"},"
                   "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"\"},"
                   "{\"id\":\"c\",\"role\":\"assistant\",\"content\":\"new\"}]");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 1);
}

static void
on_steps_notify_cb (GObject    *object,
                    GParamSpec *pspec,
                    gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static char *
steps_string (AguiTranscript *transcript)
{
  return g_strjoinv (",", (char **) agui_transcript_get_steps (transcript));
}

static void
test_steps (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_auto(GStrv) property = NULL;
  guint notifies = 0;
  char *text;

  g_test_summary ("Steps open in order, a finish closes the innermost of that name, "
                  "one notify per change and none for a step that is not open");

  g_signal_connect (transcript, "notify::steps", G_CALLBACK (on_steps_notify_cb), &notifies);
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}");
  apply (reducer, "{\"type\":\"STEP_STARTED\",\"stepName\":\"b\"}");
  apply (reducer, "{\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}");
  apply (reducer, "{\"type\":\"STEP_STARTED\",\"stepName\":\"c\"}");
  text = steps_string (transcript);
  g_assert_cmpstr (text, ==, "a,b,a,c");
  g_free (text);
  g_assert_cmpuint (notifies, ==, 4);

  apply (reducer, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"a\"}");
  apply (reducer, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"nope\"}");
  text = steps_string (transcript);
  g_assert_cmpstr (text, ==, "a,b,c");
  g_free (text);
  g_assert_cmpuint (notifies, ==, 5);

  apply (reducer, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"a\"}");
  apply (reducer, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"b\"}");
  g_object_get (transcript, "steps", &property, NULL);
  g_assert_cmpstrv (property, ((const char * const []) { "c", NULL }));
  apply (reducer, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"c\"}");
  g_assert_cmpuint (g_strv_length ((char **) agui_transcript_get_steps (transcript)), ==, 0);
  g_assert_cmpuint (notifies, ==, 8);
}

static void
test_interrupt_description (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  GListModel *pending = agui_transcript_get_pending_interrupts (transcript);
  AguiInterruptDescription descriptions[5] = { { 0 } };

  g_test_summary ("What the dialog and the CLI show of an interrupt: a bound call, a call not in the "
                  "transcript, a tool in Mastra's metadata with its reason, metadata of no known shape, "
                  "a question that is not yes or no");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"delete_db\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"name\\\":\\\"prod\\\"}\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":["
                  "{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"},"
                  "{\"id\":\"i2\",\"reason\":\"tool_call\",\"toolCallId\":\"elsewhere\",\"message\":\"Go on?\"},"
                  "{\"id\":\"i3\",\"reason\":\"mastra:tool_suspend\",\"toolCallId\":\"call-1\",\"metadata\":{\"mastra\":"
                  "{\"toolName\":\"bookFlight\",\"args\":{\"to\":\"Oslo\"},\"suspendPayload\":{\"reason\":\"Book it?\"}}}},"
                  "{\"id\":\"i4\",\"reason\":\"confirmation\",\"metadata\":{\"ticket\":7}},"
                  "{\"id\":\"i5\",\"reason\":\"input_required\",\"responseSchema\":{\"type\":\"string\"}}]}}");

  g_assert_cmpuint (g_list_model_get_n_items (pending), ==, G_N_ELEMENTS (descriptions));
  for (guint i = 0; i < G_N_ELEMENTS (descriptions); i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);

      _agui_interrupt_describe (interrupt, transcript, &descriptions[i]);
    }

  g_assert_cmpint (descriptions[0].action, ==, AGUI_INTERRUPT_ACTION_CALL);
  g_assert_true (descriptions[0].approval);
  g_assert_null (descriptions[0].question);
  g_assert_cmpstr (descriptions[0].tool_name, ==, "delete_db");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (descriptions[0].arguments), "name"), ==, "prod");

  g_assert_cmpint (descriptions[1].action, ==, AGUI_INTERRUPT_ACTION_UNKNOWN_CALL);
  g_assert_cmpstr (descriptions[1].tool_call_id, ==, "elsewhere");
  g_assert_cmpstr (descriptions[1].question, ==, "Go on?");

  g_assert_cmpint (descriptions[2].action, ==, AGUI_INTERRUPT_ACTION_METADATA_TOOL);
  g_assert_cmpstr (descriptions[2].tool_name, ==, "bookFlight");
  g_assert_cmpstr (descriptions[2].question, ==, "Book it?");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (descriptions[2].arguments), "to"), ==, "Oslo");

  g_assert_cmpint (descriptions[3].action, ==, AGUI_INTERRUPT_ACTION_DETAILS);
  g_assert_cmpint (json_object_get_int_member (descriptions[3].details, "ticket"), ==, 7);
  g_assert_null (descriptions[3].question);

  g_assert_cmpint (descriptions[4].action, ==, AGUI_INTERRUPT_ACTION_NONE);
  g_assert_false (descriptions[4].approval);

  for (guint i = 0; i < G_N_ELEMENTS (descriptions); i++)
    _agui_interrupt_description_clear (&descriptions[i]);
}

static char *
part_notes_json (AguiSpeakerTurn *message,
                 guint            position)
{
  g_autoptr(AguiPart) part = g_list_model_get_item (agui_speaker_turn_get_parts (message), position);
  JsonArray *notes = agui_part_get_notes (part);
  g_autoptr(JsonNode) node = NULL;

  if (notes == NULL)
    return NULL;

  node = json_node_init_array (json_node_alloc (), notes);
  return json_to_string (node, FALSE);
}

static void
count_notify (guint *count)
{
  (*count)++;
}

static void
test_refused_patch_notes (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autofree char *text_notes = NULL;
  g_autofree char *activity_notes = NULL;
  AguiActivityPart *activity;
  g_autoptr(AguiPart) part = NULL;
  JsonArray *notes;
  guint notified = 0;

  g_test_summary ("A refused STATE_DELTA notes the latest message, a refused ACTIVITY_DELTA its "
                  "activity: one note each, counting the refusals and naming the last reason");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  /* nothing shown yet: only the state inspector can say so */
  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/x\"}]}");
  g_assert_nonnull (agui_transcript_get_state_error (transcript));
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Hi\"}");
  apply (reducer, "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"plan\","
                  "\"content\":{\"steps\":[1]}}");
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\","
                                                "\"path\":\"/x%u\"}]}", i);

      apply (reducer, delta);
    }
  apply (reducer, "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"plan\",\"patch\":"
                  "[{\"op\":\"replace\",\"path\":\"/steps/0\",\"value\":2},{\"op\":\"remove\",\"path\":\"/none\"}]}");

  /* one turn: the state's note went with the activity, the latest shown;
   * the activity's own note beside it; the content unchanged */
  g_assert_null (part_notes_json (row (transcript, 0), 0));
  activity_notes = part_notes_json (row (transcript, 0), 1);
  g_assert_cmpstr (activity_notes, ==,
                   "[{\"kind\":\"patch-refused\",\"event\":\"STATE_DELTA\","
                   "\"reason\":\"operation 0 (remove /x2): no member 'x2' at the root\",\"count\":3},"
                   "{\"kind\":\"patch-refused\",\"event\":\"ACTIVITY_DELTA\","
                   "\"reason\":\"operation 1 (remove /none): no member 'none' at the root\",\"count\":1}]");
  part = g_list_model_get_item (agui_speaker_turn_get_parts (row (transcript, 0)), 1);
  activity = AGUI_ACTIVITY_PART (part);
  text_notes = _agui_json_to_string (agui_activity_part_get_content (activity), FALSE, NULL);
  g_assert_cmpstr (text_notes, ==, "{\"steps\":[1]}");

  /* The notes' JsonArray is built once and kept until they change */
  notes = agui_part_get_notes (part);
  g_assert_true (agui_part_get_notes (part) == notes);
  g_signal_connect_swapped (part, "notify::notes", G_CALLBACK (count_notify), &notified);
  apply (reducer, "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"plan\",\"patch\":"
                  "[{\"op\":\"remove\",\"path\":\"/none\"}]}");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (json_array_get_length (agui_part_get_notes (part)), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (agui_part_get_notes (part), 1), "count"),
                   ==, 2);
}

static void
test_activity_content_node (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(AguiPart) part = NULL;
  g_autoptr(JsonNode) held = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  JsonNode *first;

  g_test_summary ("An activity's content node is built once per change and never changes under "
                  "whoever holds it");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"plan\","
                  "\"content\":{\"steps\":[\"one\"]}}");
  part = g_list_model_get_item (agui_speaker_turn_get_parts (row (transcript, 0)), 0);

  first = agui_activity_part_get_content (AGUI_ACTIVITY_PART (part));
  g_assert_true (agui_activity_part_get_content (AGUI_ACTIVITY_PART (part)) == first);
  held = json_node_ref (first);
  before = _agui_json_to_string (held, FALSE, NULL);

  apply (reducer, "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"plan\","
                  "\"patch\":[{\"op\":\"add\",\"path\":\"/steps/0\",\"value\":\"zero\"}]}");
  after = _agui_json_to_string (agui_activity_part_get_content (AGUI_ACTIVITY_PART (part)), FALSE, NULL);
  g_assert_cmpstr (after, ==, "{\"steps\":[\"zero\",\"one\"]}");
  g_clear_pointer (&after, g_free);
  after = _agui_json_to_string (held, FALSE, NULL);
  g_assert_cmpstr (after, ==, before);
}

/* A thread's log holds what the client added between runs (the person's
 * messages): folded as a log, it is not held to one run's order, which a
 * live stream is. */
static void
test_pipeline_log (void)
{
  const char *events[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u\",\"delta\":\"hello\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u\"}",
  };

  for (guint log = 0; log < 2; log++)
    {
      g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
      g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new_full (reducer, log ? AGUI_PIPELINE_LOG : AGUI_PIPELINE_STREAM);
      AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
      gboolean pushed = TRUE;

      for (guint i = 0; i < G_N_ELEMENTS (events); i++)
        {
          g_autoptr(AguiEvent) event = agui_event_new_from_string (events[i], -1, NULL);

          g_assert_nonnull (event);
          pushed = pushed && _agui_pipeline_push_event (pipeline, event);
        }

      if (log)
        {
          g_assert_true (pushed);
          g_assert_null (_agui_pipeline_get_error (pipeline));
          g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 1);
        }
      else
        {
          g_assert_false (pushed);
          g_assert_nonnull (_agui_pipeline_get_error (pipeline));
        }
    }
}

/* Two threads make and let go of the same id, as a restore on its
 * worker interns the ids of a transcript the main thread lets go */
static gpointer
intern_and_release (gpointer data)
{
  for (guint i = 0; i < 200000; i++)
    {
      char *id = _agui_id_new ("m426");

      g_assert_cmpstr (id, ==, "m426");
      _agui_id_release (id);
    }

  return NULL;
}

static void
test_id_intern_race (void)
{
  GThread *threads[4];

  g_test_summary ("An id released to nothing on one thread while another makes it again is never "
                  "handed out freed (GLib 2.74's interned strings race there on their own)");

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("ids", intern_and_release, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/reducer/part-order", test_part_order);
  g_test_add_func ("/agui/reducer/two-runs", test_two_runs);
  g_test_add_func ("/agui/reducer/notify-contract", test_notify_contract);
  g_test_add_func ("/agui/reducer/state-delta-failure", test_state_delta_failure);
  g_test_add_func ("/agui/reducer/state-view", test_state_view);
  g_test_add_func ("/agui/reducer/state-values-both-ways", test_state_values_both_ways);
  g_test_add_func ("/agui/reducer/tool-statuses", test_tool_statuses);
  g_test_add_func ("/agui/reducer/tool-call-arguments", test_tool_call_arguments);
  g_test_add_func ("/agui/reducer/tool-call-replayed", test_tool_call_replayed);
  g_test_add_func ("/agui/reducer/tool-call-holders", test_tool_call_holders);
  g_test_add_func ("/agui/reducer/lent-result", test_lent_result);
  g_test_add_func ("/agui/reducer/pending-after-results", test_pending_after_results);
  g_test_add_func ("/agui/reducer/pending-in-long-run", test_pending_in_long_run);
  g_test_add_func ("/agui/reducer/messages-snapshot", test_messages_snapshot);
  g_test_add_func ("/agui/reducer/steps", test_steps);
  g_test_add_func ("/agui/reducer/interrupt-description", test_interrupt_description);
  g_test_add_func ("/agui/reducer/tool-expires", test_tool_expires);
  g_test_add_func ("/agui/reducer/metadata-merges-in-order", test_metadata_merges_in_order);
  g_test_add_func ("/agui/reducer/refused-patch-notes", test_refused_patch_notes);
  g_test_add_func ("/agui/reducer/activity-content-node", test_activity_content_node);

  g_test_add_func ("/agui/reducer/pipeline-log", test_pipeline_log);
  g_test_add_func ("/agui/reducer/id-intern-race", test_id_intern_race);

  return g_test_run ();
}
