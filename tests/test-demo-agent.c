/* test-demo-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <locale.h>
#include <string.h>

#include "agui.h"
#include "agui-chunk-normalizer-private.h"
#include "agui-reducer-private.h"
#include "agui-verifier-private.h"
#include "agui-transcript-private.h"

#define TIMEOUT_SECONDS 20

static gboolean
set_flag_cb (gpointer user_data)
{
  gboolean *flag = user_data;

  *flag = TRUE;

  return G_SOURCE_REMOVE;
}

/* Iterates the main context until @condition holds, failing the test
 * if that takes longer than @seconds. */
#define ITERATE_UNTIL_WITHIN(condition, seconds) \
  G_STMT_START { \
    gboolean timed_out_ = FALSE; \
    guint timeout_id_ = g_timeout_add_seconds ((seconds), set_flag_cb, &timed_out_); \
    while (!(condition) && !timed_out_) \
      g_main_context_iteration (NULL, TRUE); \
    g_assert_false (timed_out_); \
    g_source_remove (timeout_id_); \
  } G_STMT_END

#define ITERATE_UNTIL(condition) ITERATE_UNTIL_WITHIN (condition, TIMEOUT_SECONDS)

/* Collecting a run's events */

typedef struct
{
  AguiEventStream *stream;
  GPtrArray       *events;
  GError          *error;   /* the run's start error, or the stream's end error */
  gboolean         started;
  gboolean         done;
} Collector;

static Collector *
collector_new (void)
{
  Collector *collector = g_new0 (Collector, 1);

  collector->events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  return collector;
}

static void
collector_free (Collector *collector)
{
  g_clear_object (&collector->stream);
  g_ptr_array_unref (collector->events);
  g_clear_error (&collector->error);
  g_free (collector);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Collector, collector_free)

static void
on_next_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Collector *collector = user_data;
  AguiEvent *event;

  event = agui_event_stream_next_finish (AGUI_EVENT_STREAM (object), result, &collector->error);
  if (event == NULL)
    {
      collector->done = TRUE;
      return;
    }

  g_ptr_array_add (collector->events, event);

  /* A test that closed the stream may have let go of it already. */
  if (collector->stream == NULL)
    {
      collector->done = TRUE;
      return;
    }

  agui_event_stream_next_async (collector->stream, NULL, on_next_cb, collector);
}

static void
on_run_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Collector *collector = user_data;

  collector->started = TRUE;
  collector->stream = agui_transport_run_finish (AGUI_TRANSPORT (object), result, &collector->error);
  if (collector->stream == NULL)
    {
      collector->done = TRUE;
      return;
    }

  agui_event_stream_next_async (collector->stream, NULL, on_next_cb, collector);
}

static Collector *
start_run (AguiDemoAgent *agent,
           JsonNode      *input,
           GCancellable  *cancellable)
{
  Collector *collector = collector_new ();

  agui_transport_run_async (AGUI_TRANSPORT (agent), input, cancellable, on_run_cb, collector);
  /* The transport never answers from inside the call. */
  g_assert_false (collector->started);

  return collector;
}

static guint
count_type (GPtrArray     *events,
            AguiEventType  type)
{
  guint count = 0;

  for (guint i = 0; i < events->len; i++)
    if (agui_event_get_event_type (g_ptr_array_index (events, i)) == type)
      count++;

  return count;
}

static int
last_index_of (GPtrArray     *events,
               AguiEventType  type)
{
  for (guint i = events->len; i > 0; i--)
    if (agui_event_get_event_type (g_ptr_array_index (events, i - 1)) == type)
      return i - 1;

  return -1;
}

static AguiEvent *
last_event (GPtrArray *events)
{
  g_assert_cmpuint (events->len, >, 0);

  return g_ptr_array_index (events, events->len - 1);
}

/* A conversation: what a client keeps of one thread */

typedef struct
{
  AguiDemoAgent *agent;
  AguiReducer   *reducer;
  char          *thread_id;
  gboolean       declare_time_tool;
} Conversation;

static Conversation *
conversation_new (AguiDemoAgent *agent,
                  gboolean       declare_time_tool)
{
  Conversation *conversation = g_new0 (Conversation, 1);

  conversation->agent = g_object_ref (agent);
  conversation->reducer = _agui_reducer_new (NULL);
  conversation->thread_id = g_uuid_string_random ();
  conversation->declare_time_tool = declare_time_tool;

  return conversation;
}

static void
conversation_free (Conversation *conversation)
{
  g_clear_object (&conversation->agent);
  g_clear_object (&conversation->reducer);
  g_free (conversation->thread_id);
  g_free (conversation);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Conversation, conversation_free)

static AguiTranscript *
transcript_of (Conversation *conversation)
{
  return _agui_reducer_get_transcript (conversation->reducer);
}

static void
conversation_set_state (Conversation *conversation,
                        const char   *state)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":%s}", state);
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  event = agui_event_new_from_string (json, -1, &error);
  g_assert_no_error (error);
  _agui_reducer_apply (conversation->reducer, event);
}

/* Builds the next RunAgentInput from what the client holds, with @extra
 * appended to its history first (the client adds the user's turn or a
 * tool's answer before it runs). */
static JsonNode *
conversation_input (Conversation *conversation,
                    const char   *extra,
                    const char   *resume)
{
  AguiTranscript *transcript = transcript_of (conversation);
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript, FALSE);
  g_autoptr(GError) error = NULL;
  JsonObject *input = json_object_new ();
  JsonNode *state = agui_transcript_get_state (transcript);
  g_autofree char *run_id = g_uuid_string_random ();

  if (extra != NULL)
    {
      json_array_add_element (messages, json_from_string (extra, &error));
      g_assert_no_error (error);
      agui_transcript_load_messages (transcript, messages, &error);
      g_assert_no_error (error);
    }

  json_object_set_string_member (input, "threadId", conversation->thread_id);
  json_object_set_string_member (input, "runId", run_id);
  json_object_set_array_member (input, "messages", json_array_ref (messages));
  if (state != NULL && !JSON_NODE_HOLDS_NULL (state))
    {
      g_autofree char *copy = json_to_string (state, FALSE);

      json_object_set_member (input, "state", json_from_string (copy, NULL));
    }
  if (conversation->declare_time_tool)
    json_object_set_member (input, "tools",
                            json_from_string ("[{\"name\":\"pick_file\",\"description\":\"Pick a file\"},"
                                              "{\"name\":\"get_current_time\",\"description\":\"The desktop's time\","
                                              "\"parameters\":{\"type\":\"object\",\"properties\":"
                                              "{\"timezone\":{\"type\":\"string\"}}}}]", NULL));
  else
    json_object_set_array_member (input, "tools", json_array_new ());
  if (resume != NULL)
    {
      json_object_set_member (input, "resume", json_from_string (resume, &error));
      g_assert_no_error (error);
    }

  return json_node_init_object (json_node_alloc (), input);
}

/* Every event must pass the client pipeline: chunk expansion, then the
 * verifier, then the reducer, with no warning. */
static void
conversation_fold (Conversation *conversation,
                   GPtrArray    *events)
{
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();

  for (guint i = 0; i < events->len; i++)
    {
      g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      g_autoptr(GError) error = NULL;

      g_assert_true (_agui_chunk_normalizer_push (normalizer, g_ptr_array_index (events, i), out, &error));
      g_assert_no_error (error);

      for (guint j = 0; j < out->len; j++)
        {
          _agui_verifier_check (verifier, g_ptr_array_index (out, j), &error);
          g_assert_no_error (error);
          _agui_reducer_apply (conversation->reducer, g_ptr_array_index (out, j));
        }
    }

  g_assert_cmpuint (_agui_reducer_get_warnings (conversation->reducer)->len, ==, 0);
}

static GPtrArray *
conversation_run (Conversation *conversation,
                  const char   *extra,
                  const char   *resume)
{
  g_autoptr(JsonNode) input = conversation_input (conversation, extra, resume);
  g_autoptr(Collector) collector = start_run (conversation->agent, input, NULL);
  AguiEvent *first;

  ITERATE_UNTIL (collector->done);
  g_assert_no_error (collector->error);

  first = g_ptr_array_index (collector->events, 0);
  g_assert_cmpint (agui_event_get_event_type (first), ==, AGUI_EVENT_RUN_STARTED);
  g_assert_cmpstr (agui_event_get_string (first, "threadId"), ==, conversation->thread_id);
  g_assert_cmpstr (agui_event_get_string (first, "runId"), ==,
                   json_object_get_string_member (json_node_get_object (input), "runId"));

  conversation_fold (conversation, collector->events);

  return g_ptr_array_ref (collector->events);
}

static GPtrArray *
conversation_say (Conversation *conversation,
                  const char   *text)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(JsonNode) message = json_node_init_object (json_node_alloc (), json_object_new ());
  g_autofree char *json = NULL;

  json_object_set_string_member (json_node_get_object (message), "id", id);
  json_object_set_string_member (json_node_get_object (message), "role", "user");
  json_object_set_string_member (json_node_get_object (message), "content", text);
  json_object_unref (json_node_get_object (message));
  json = json_to_string (message, FALSE);

  return conversation_run (conversation, json, NULL);
}

static GPtrArray *
conversation_answer_tool (Conversation *conversation,
                          const char   *tool_call_id,
                          const char   *content)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *json = g_strdup_printf ("{\"id\":\"%s\",\"role\":\"tool\",\"toolCallId\":\"%s\",\"content\":\"%s\"}",
                                           id, tool_call_id, content);

  return conversation_run (conversation, json, NULL);
}

static GPtrArray *
conversation_resume (Conversation *conversation,
                     const char   *interrupt_id,
                     const char   *status,
                     const char   *payload)
{
  g_autofree char *resume = NULL;

  if (payload != NULL)
    resume = g_strdup_printf ("[{\"interruptId\":\"%s\",\"status\":\"%s\",\"payload\":%s}]",
                              interrupt_id, status, payload);
  else
    resume = g_strdup_printf ("[{\"interruptId\":\"%s\",\"status\":\"%s\"}]", interrupt_id, status);

  return conversation_run (conversation, NULL, resume);
}

static AguiRunState *
run_state_of (Conversation *conversation)
{
  return agui_transcript_get_run_state (transcript_of (conversation));
}

/* All the assistant's text, and all its reasoning, in the transcript. */
static char *
conversation_text (Conversation *conversation,
                   const char   *role)
{
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript_of (conversation), FALSE);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member (message, "role"), role) == 0 &&
          json_object_has_member (message, "content"))
        g_string_append (text, json_object_get_string_member (message, "content"));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static JsonObject *
demo_state (Conversation *conversation)
{
  JsonNode *state = agui_transcript_get_state (transcript_of (conversation));

  g_assert_nonnull (state);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (state));
  g_assert_true (json_object_has_member (json_node_get_object (state), "demo"));

  return json_object_get_object_member (json_node_get_object (state), "demo");
}

static const char *
pending_tool_call (Conversation *conversation)
{
  const char * const *pending = agui_run_state_get_pending_tool_call_ids (run_state_of (conversation));

  g_assert_nonnull (pending);
  g_assert_cmpuint (g_strv_length ((char **) pending), ==, 1);

  return pending[0];
}

static JsonObject *
pending_interrupt (Conversation *conversation)
{
  JsonArray *interrupts = _agui_transcript_get_pending_interrupts_json (transcript_of (conversation));

  g_assert_nonnull (interrupts);
  g_assert_cmpuint (json_array_get_length (interrupts), ==, 1);

  return json_array_get_object_element (interrupts, 0);
}

static void
assert_finished (Conversation   *conversation,
                 AguiRunOutcome  outcome)
{
  AguiRunState *state = run_state_of (conversation);

  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, outcome);
}

static void
assert_failed (Conversation *conversation,
               GPtrArray    *events,
               const char   *code)
{
  AguiRunState *state = run_state_of (conversation);

  g_assert_cmpint (agui_event_get_event_type (last_event (events)), ==, AGUI_EVENT_RUN_ERROR);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_RUN_FINISHED), ==, 0);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, AGUI_STAGE_AGENT);
  g_assert_cmpstr (agui_run_state_get_error_code (state), ==, code);
}

static AguiDemoAgent *
quick_agent (void)
{
  AguiDemoAgent *agent = agui_demo_agent_new ();

  agui_demo_agent_set_delay (agent, 0);

  return agent;
}

/* The first run with the time tool declared, then the tool's answer:
 * leaves the thread interrupted. */
static void
reach_interrupt (Conversation  *conversation,
                 char         **interrupt_id,
                 char         **tool_call_id)
{
  g_autoptr(GPtrArray) first = conversation_say (conversation, "Hello there");
  g_autoptr(GPtrArray) second = conversation_answer_tool (conversation, pending_tool_call (conversation), "14:05");
  JsonObject *interrupt = pending_interrupt (conversation);

  assert_finished (conversation, AGUI_OUTCOME_INTERRUPT);
  *interrupt_id = g_strdup (json_object_get_string_member (interrupt, "id"));
  *tool_call_id = g_strdup (json_object_get_string_member (interrupt, "toolCallId"));
}

/* Tests */

static void
test_new_message_frontend_tool (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;
  g_autofree char *reasoning = NULL;
  AguiToolCallPart *call;
  JsonNode *arguments;
  JsonObject *demo;

  g_test_summary ("A new message gets reasoning, state, streamed Markdown and a call to the app's time tool");

  conversation_set_state (conversation, "{\"theme\":\"dark\",\"demo\":{\"turns\":0,\"extra\":true}}");
  events = conversation_say (conversation, "Hello there");

  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  call = agui_transcript_lookup_tool_call (transcript_of (conversation), pending_tool_call (conversation));
  g_assert_nonnull (call);
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (call), ==, "get_current_time");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_RESULT);
  arguments = agui_tool_call_part_get_parsed_arguments (call);
  g_assert_nonnull (arguments);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (arguments), "timezone"), ==, "local");
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_ARGS), >, 1);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_RESULT), ==, 0);

  /* Streamed word by word, and Markdown with everything a renderer meets. */
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TEXT_MESSAGE_CONTENT), >, 50);
  text = conversation_text (conversation, "assistant");
  g_assert_true (g_str_has_prefix (text, "## "));
  g_assert_nonnull (strstr (text, "```c\n"));
  g_assert_nonnull (strstr (text, "\n- "));
  g_assert_nonnull (strstr (text, "**"));
  g_assert_nonnull (strstr (text, "`inline code`"));
  g_assert_nonnull (strstr (text, "](https://"));
  g_assert_nonnull (strstr (text, "| --- |"));

  reasoning = conversation_text (conversation, "reasoning");
  g_assert_nonnull (strstr (reasoning, "Plan"));
  g_assert_cmpuint (count_type (events, AGUI_EVENT_REASONING_START), ==, 1);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_STEP_STARTED), ==, 1);

  /* Patched from the input's state: the rest of it survives. */
  g_assert_cmpuint (count_type (events, AGUI_EVENT_STATE_DELTA), >, 0);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_STATE_SNAPSHOT), ==, 0);
  demo = demo_state (conversation);
  g_assert_cmpint (json_object_get_int_member (demo, "turns"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (demo, "stage"), ==, "waiting for the time");
  g_assert_true (json_object_get_boolean_member (demo, "extra"));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (agui_transcript_get_state (transcript_of (conversation))),
                                                  "theme"), ==, "dark");
}

static void
test_new_message_backend_tool (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, FALSE);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;
  AguiToolCallPart *time_call;
  AguiToolCallPart *archive_call;
  int result_index;
  JsonObject *interrupt;

  g_test_summary ("Without the app's time tool the agent answers the call itself and goes on to ask");

  events = conversation_say (conversation, "Hello there");

  result_index = last_index_of (events, AGUI_EVENT_TOOL_CALL_RESULT);
  g_assert_cmpint (result_index, >=, 0);
  time_call = agui_transcript_lookup_tool_call (transcript_of (conversation),
                                                agui_event_get_tool_call_id (g_ptr_array_index (events, result_index)));
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (time_call), ==, "get_current_time");
  g_assert_cmpint (agui_tool_call_part_get_status (time_call), ==, AGUI_TOOL_CALL_COMPLETE);
  g_assert_nonnull (strstr (agui_tool_call_part_get_result (time_call), "\"time\""));

  text = conversation_text (conversation, "assistant");
  g_assert_nonnull (strstr (text, "My own clock says it is"));

  assert_finished (conversation, AGUI_OUTCOME_INTERRUPT);
  interrupt = pending_interrupt (conversation);
  archive_call = agui_transcript_lookup_tool_call (transcript_of (conversation),
                                                   json_object_get_string_member (interrupt, "toolCallId"));
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (archive_call), ==, "archive_notes");
  g_assert_cmpint (agui_tool_call_part_get_status (archive_call), ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);

  /* No state to patch: the agent sets it whole. */
  g_assert_cmpuint (count_type (events, AGUI_EVENT_STATE_SNAPSHOT), >, 0);
  g_assert_cmpint (json_object_get_int_member (demo_state (conversation), "turns"), ==, 1);
}

static void
test_tool_result_interrupt (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expiry = NULL;
  g_autofree char *text = NULL;
  AguiToolCallPart *call;
  JsonObject *interrupt;
  JsonObject *schema;
  JsonObject *edited;
  JsonArray *required;
  JsonNode *arguments;
  GTimeSpan ahead;

  g_test_summary ("The time tool's answer leads to a tool-bound interrupt offering edits");

  first = conversation_say (conversation, "Hello there");
  events = conversation_answer_tool (conversation, pending_tool_call (conversation), "14:05");

  text = conversation_text (conversation, "assistant");
  g_assert_nonnull (strstr (text, "The desktop says it is 14:05."));

  assert_finished (conversation, AGUI_OUTCOME_INTERRUPT);
  interrupt = pending_interrupt (conversation);
  g_assert_true (g_uuid_string_is_valid (json_object_get_string_member (interrupt, "id")));
  g_assert_cmpstr (json_object_get_string_member (interrupt, "reason"), ==, "tool_call");
  g_assert_cmpstr (json_object_get_string_member (interrupt, "message"), ==,
                   "May I archive the notes in “Demo” older than 30 days?");

  call = agui_transcript_lookup_tool_call (transcript_of (conversation),
                                           json_object_get_string_member (interrupt, "toolCallId"));
  g_assert_nonnull (call);
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (call), ==, "archive_notes");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);
  arguments = agui_tool_call_part_get_parsed_arguments (call);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (arguments), "folder"), ==, "Demo");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (arguments), "keepDays"), ==, 30);

  schema = json_object_get_object_member (interrupt, "responseSchema");
  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_object_get_object_member (schema, "properties"),
                                                                                 "approved"), "type"), ==, "boolean");
  edited = json_object_get_object_member (json_object_get_object_member (schema, "properties"), "editedArgs");
  g_assert_nonnull (edited);
  g_assert_true (json_object_has_member (json_object_get_object_member (edited, "properties"), "folder"));
  g_assert_true (json_object_has_member (json_object_get_object_member (edited, "properties"), "keepDays"));
  required = json_object_get_array_member (schema, "required");
  g_assert_cmpuint (json_array_get_length (required), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (required, 0), ==, "approved");

  expiry = g_date_time_new_from_iso8601 (json_object_get_string_member (interrupt, "expiresAt"), NULL);
  g_assert_nonnull (expiry);
  ahead = g_date_time_difference (expiry, now);
  g_assert_cmpint (ahead, >, 9 * G_TIME_SPAN_MINUTE);
  g_assert_cmpint (ahead, <=, 11 * G_TIME_SPAN_MINUTE);

  /* What the resume needs goes out before the question. */
  g_assert_cmpint (last_index_of (events, AGUI_EVENT_STATE_SNAPSHOT), >=, 0);
  g_assert_cmpint (last_index_of (events, AGUI_EVENT_STATE_SNAPSHOT), <, last_index_of (events, AGUI_EVENT_RUN_FINISHED));
  g_assert_cmpstr (json_object_get_string_member (demo_state (conversation), "stage"), ==, "awaiting approval");
  g_assert_cmpint (json_object_get_int_member (demo_state (conversation), "turns"), ==, 1);
}

typedef struct
{
  const char *status;
  const char *payload;
  const char *result;     /* in the tool's result */
  const char *text;       /* in the final text */
  const char *approval;   /* /demo/approval */
} ResumeCase;

static const ResumeCase approved_case = {
  "resolved", "{\"approved\":true}",
  "\"status\":\"archived\",\"folder\":\"Demo\",\"keepDays\":30", "Done: I archived", "approved",
};
static const ResumeCase edited_case = {
  "resolved", "{\"approved\":true,\"editedArgs\":{\"folder\":\"Old stuff\",\"keepDays\":7}}",
  "\"folder\":\"Old stuff\",\"keepDays\":7", "You changed the request, so I archived", "approved with edits",
};
static const ResumeCase denied_case = {
  "resolved", "{\"approved\":false}", "\"status\":\"denied\"", "Understood, I left them alone.", "denied",
};
static const ResumeCase cancelled_case = {
  "cancelled", NULL, "\"status\":\"cancelled\"", "did not touch your notes", "cancelled",
};

static void
test_resume (gconstpointer data)
{
  const ResumeCase *resume_case = data;
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) replay = NULL;
  g_autofree char *interrupt_id = NULL;
  g_autofree char *tool_call_id = NULL;
  g_autofree char *text = NULL;
  AguiToolCallPart *call;
  int result_index;

  g_test_summary ("A resume answers the original tool call without repeating it");

  reach_interrupt (conversation, &interrupt_id, &tool_call_id);
  events = conversation_resume (conversation, interrupt_id, resume_case->status, resume_case->payload);

  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_START), ==, 0);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_ARGS), ==, 0);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_RESULT), ==, 1);
  result_index = last_index_of (events, AGUI_EVENT_TOOL_CALL_RESULT);
  g_assert_cmpstr (agui_event_get_tool_call_id (g_ptr_array_index (events, result_index)), ==, tool_call_id);

  call = agui_transcript_lookup_tool_call (transcript_of (conversation), tool_call_id);
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_COMPLETE);
  g_assert_nonnull (strstr (agui_tool_call_part_get_result (call), resume_case->result));

  text = conversation_text (conversation, "assistant");
  g_assert_nonnull (strstr (text, resume_case->text));
  if (resume_case == &edited_case)
    g_assert_nonnull (strstr (text, "“Old stuff”"));

  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (json_array_get_length (_agui_transcript_get_pending_interrupts_json (transcript_of (conversation))), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (demo_state (conversation), "stage"), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (demo_state (conversation), "approval"), ==, resume_case->approval);

  /* Replaying the same answer is harmless: nothing is done twice. */
  replay = conversation_resume (conversation, interrupt_id, resume_case->status, resume_case->payload);
  g_assert_cmpuint (count_type (replay, AGUI_EVENT_TOOL_CALL_RESULT), ==, 0);
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
}

static void
test_resume_unknown (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) answered = NULL;
  g_autofree char *interrupt_id = NULL;
  g_autofree char *tool_call_id = NULL;
  g_autofree char *stranger = g_uuid_string_random ();

  g_test_summary ("A resume naming an interrupt the agent never asked fails the run");

  reach_interrupt (conversation, &interrupt_id, &tool_call_id);
  events = conversation_resume (conversation, stranger, "resolved", "{\"approved\":true}");

  assert_failed (conversation, events, "unknown_interrupt");
  g_assert_nonnull (strstr (agui_run_state_get_error_message (run_state_of (conversation)), stranger));
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_RESULT), ==, 0);

  /* The real question is still open and can be answered. */
  answered = conversation_resume (conversation, interrupt_id, "resolved", "{\"approved\":true}");
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
}

static void
test_resume_invalid (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) wrong_type = NULL;
  g_autoptr(GPtrArray) partial_edit = NULL;
  g_autoptr(GPtrArray) no_resume = NULL;
  g_autoptr(GPtrArray) answered = NULL;
  g_autoptr(GPtrArray) changed = NULL;
  g_autofree char *interrupt_id = NULL;
  g_autofree char *tool_call_id = NULL;

  g_test_summary ("Answers that do not fit, or no answer at all, fail the run and keep the question open");

  reach_interrupt (conversation, &interrupt_id, &tool_call_id);

  wrong_type = conversation_resume (conversation, interrupt_id, "resolved", "{\"approved\":\"yes\"}");
  assert_failed (conversation, wrong_type, "invalid_answer");

  partial_edit = conversation_resume (conversation, interrupt_id, "resolved",
                                      "{\"approved\":true,\"editedArgs\":{\"folder\":\"Old\"}}");
  assert_failed (conversation, partial_edit, "invalid_answer");

  no_resume = conversation_say (conversation, "Never mind that");
  assert_failed (conversation, no_resume, "interrupt_pending");

  answered = conversation_resume (conversation, interrupt_id, "resolved",
                                  "{\"approved\":true,\"editedArgs\":{\"folder\":\"Old\",\"keepDays\":7.0}}");
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);

  /* An answer acted upon cannot be changed afterwards. */
  changed = conversation_resume (conversation, interrupt_id, "resolved", "{\"approved\":false}");
  assert_failed (conversation, changed, "already_answered");
}

static void
test_resume_after_restart (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(AguiDemoAgent) restarted = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) replay = NULL;
  g_autofree char *interrupt_id = NULL;
  g_autofree char *tool_call_id = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("An agent started afresh finds its question in the history and takes the answer");

  reach_interrupt (conversation, &interrupt_id, &tool_call_id);
  g_set_object (&conversation->agent, restarted);

  events = conversation_resume (conversation, interrupt_id, "resolved",
                                "{\"approved\":true,\"editedArgs\":{\"folder\":\"Old stuff\",\"keepDays\":7}}");
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_RESULT), ==, 1);
  text = conversation_text (conversation, "assistant");
  g_assert_nonnull (strstr (text, "instead of the ones in “Demo” older than 30 days"));

  /* Once more on a third agent: the history shows the call answered. */
  g_clear_object (&conversation->agent);
  conversation->agent = quick_agent ();
  replay = conversation_resume (conversation, interrupt_id, "resolved", "{\"approved\":false}");
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (count_type (replay, AGUI_EVENT_TOOL_CALL_RESULT), ==, 0);
}

static void
test_keyword_error (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;

  g_test_summary ("A message asking for an error gets RUN_ERROR mid-answer");

  events = conversation_say (conversation, "Show me an ERROR please");

  assert_failed (conversation, events, "demo_error");
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TEXT_MESSAGE_CONTENT), >, 0);
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TEXT_MESSAGE_END), ==, 0);
}

static void
test_keyword_long (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("A message asking for something long gets a long answer and no tool call");

  events = conversation_say (conversation, "Tell me something long");

  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  text = conversation_text (conversation, "assistant");
  g_assert_cmpuint (strlen (text), >, 3000);
  g_assert_nonnull (strstr (text, "### Part 20"));
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_START), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (demo_state (conversation), "stage"), ==, "done");
}

static void
test_keyword_whole_word (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;

  g_test_summary ("A keyword inside another word is no keyword");

  events = conversation_say (conversation, "Where does this belong? No errors, no archives");

  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpstr (agui_tool_call_part_get_tool_name (agui_transcript_lookup_tool_call (transcript_of (conversation),
                                                                                       pending_tool_call (conversation))),
                   ==, "get_current_time");
}

static void
test_keyword_archive (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) resumed = NULL;
  JsonObject *interrupt;
  g_autofree char *interrupt_id = NULL;

  g_test_summary ("A message about archiving goes straight to the question");

  events = conversation_say (conversation, "Please ARCHIVE my notes");

  assert_finished (conversation, AGUI_OUTCOME_INTERRUPT);
  interrupt = pending_interrupt (conversation);
  interrupt_id = g_strdup (json_object_get_string_member (interrupt, "id"));
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_START), ==, 1);

  resumed = conversation_resume (conversation, interrupt_id, "resolved", "{\"approved\":true}");
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
}

static void
test_keyword_german (void)
{
  static const struct { const char *text; const char *expect; } cases[] = {
    { "Bitte archiviere meine alten Notizen", "interrupt" },
    { "Schreib mir eine lange Antwort zum Durchscrollen", "long" },
    { "Zeig mir, wie ein Fehler aussieht", "error" },
  };

  g_test_summary ("The German example prompts choose what their titles promise");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AguiDemoAgent) agent = quick_agent ();
      g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
      g_autoptr(GPtrArray) events = conversation_say (conversation, cases[i].text);

      if (g_str_equal (cases[i].expect, "interrupt"))
        assert_finished (conversation, AGUI_OUTCOME_INTERRUPT);
      else if (g_str_equal (cases[i].expect, "error"))
        assert_failed (conversation, events, "demo_error");
      else
        {
          g_autofree char *text = conversation_text (conversation, "assistant");

          assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
          g_assert_nonnull (strstr (text, "### Part 20"));
        }
    }
}

static void
test_time_locale (void)
{
  g_autofree char *previous = g_strdup (setlocale (LC_TIME, NULL));
  g_autoptr(AguiDemoAgent) agent = NULL;
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("The agent tells a time in the locale's formats, with no German names in its English");

  /* build-aux/install-deps.sh generates it */
  g_assert_nonnull (setlocale (LC_TIME, "de_DE.UTF-8"));

  agent = quick_agent ();
  conversation = conversation_new (agent, TRUE);
  first = conversation_say (conversation, "Hello there");
  events = conversation_answer_tool (conversation, pending_tool_call (conversation),
                                     "{\\\"time\\\":\\\"2026-12-01T21:48:00+01:00\\\"}");
  text = conversation_text (conversation, "assistant");
  setlocale (LC_TIME, previous);

  g_assert_nonnull (strstr (text, "21:48:00 on 01.12.2026"));
  g_assert_null (strstr (text, "Dienstag"));
  g_assert_null (strstr (text, "Dezember"));
}

static void
test_introduction (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("With nothing to answer the agent says what it can do");

  events = conversation_run (conversation, NULL, NULL);
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  text = conversation_text (conversation, "assistant");
  g_assert_nonnull (strstr (text, "demo agent"));
  g_assert_nonnull (strstr (text, "**error**"));
  g_assert_cmpuint (count_type (events, AGUI_EVENT_TOOL_CALL_START), ==, 0);

  /* The last word is the agent's own: again an introduction. */
  again = conversation_run (conversation, NULL, NULL);
  assert_finished (conversation, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (count_type (again, AGUI_EVENT_TEXT_MESSAGE_START), ==, 1);
}

static void
test_close_mid_stream (void)
{
  g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(JsonNode) input = conversation_input (conversation,
                                                  "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"}", NULL);
  g_autoptr(Collector) collector = NULL;
  AguiEventStream *stream;
  guint seen;

  g_test_summary ("Closing the stream stops the run at once, pending pause or not");

  /* Pauses this long would outlast the test's patience. */
  agui_demo_agent_set_delay (agent, 10000);
  collector = start_run (agent, input, NULL);
  ITERATE_UNTIL (collector->events->len > 0);
  seen = collector->events->len;

  stream = collector->stream;
  g_object_add_weak_pointer (G_OBJECT (stream), (gpointer *) &stream);
  agui_event_stream_close (collector->stream);
  g_clear_object (&collector->stream);

  /* The run drops its ref on the stream when it stops. */
  ITERATE_UNTIL_WITHIN (stream == NULL && collector->done, 5);
  /* At most the one event already handed over before the close. */
  g_assert_cmpuint (collector->events->len, <=, seen + 1);
  g_assert_cmpuint (count_type (collector->events, AGUI_EVENT_TEXT_MESSAGE_START), ==, 0);
}

static void
test_close_quick (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(JsonNode) input = conversation_input (conversation,
                                                  "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"}", NULL);
  g_autoptr(Collector) collector = start_run (agent, input, NULL);
  AguiEventStream *stream;
  guint seen;

  g_test_summary ("Closing the stream mid-answer stops the events");

  ITERATE_UNTIL (collector->events->len >= 10);
  seen = collector->events->len;
  stream = collector->stream;
  g_object_add_weak_pointer (G_OBJECT (stream), (gpointer *) &stream);
  agui_event_stream_close (stream);
  g_clear_object (&collector->stream);

  ITERATE_UNTIL (stream == NULL && collector->done);
  g_assert_cmpuint (collector->events->len, <=, seen + 1);
  g_assert_cmpuint (count_type (collector->events, AGUI_EVENT_RUN_FINISHED), ==, 0);
}

static void
test_cancel_before_start (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(JsonNode) input = conversation_input (conversation, NULL, NULL);
  g_autoptr(GCancellable) before = g_cancellable_new ();
  g_autoptr(GCancellable) meanwhile = g_cancellable_new ();
  g_autoptr(Collector) early = NULL;
  g_autoptr(Collector) late = NULL;

  g_test_summary ("A run cancelled before it started fails with G_IO_ERROR_CANCELLED");

  g_cancellable_cancel (before);
  early = start_run (agent, input, before);
  ITERATE_UNTIL (early->done);
  g_assert_error (early->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (early->stream);

  late = start_run (agent, input, meanwhile);
  g_cancellable_cancel (meanwhile);
  ITERATE_UNTIL (late->done);
  g_assert_error (late->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (late->stream);

  /* Let the orphaned run notice, so nothing is left for the next test. */
  while (g_main_context_iteration (NULL, FALSE));
}

static void
test_dispose_mid_run (void)
{
  AguiDemoAgent *agent = agui_demo_agent_new ();
  g_autoptr(Conversation) conversation = conversation_new (agent, TRUE);
  g_autoptr(JsonNode) input = conversation_input (conversation,
                                                  "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"}", NULL);
  g_autoptr(Collector) collector = NULL;

  g_test_summary ("An agent going away ends its runs' streams with an error");

  agui_demo_agent_set_delay (agent, 10000);
  collector = start_run (agent, input, NULL);
  ITERATE_UNTIL (collector->events->len > 0);

  g_clear_object (&conversation->agent);
  g_object_add_weak_pointer (G_OBJECT (agent), (gpointer *) &agent);
  g_object_unref (agent);
  g_assert_null (agent);

  ITERATE_UNTIL (collector->done);
  g_assert_error (collector->error, AGUI_ERROR, AGUI_ERROR_STREAM);
}

static void
test_concurrent (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(Conversation) first = conversation_new (agent, TRUE);
  g_autoptr(Conversation) second = conversation_new (agent, FALSE);
  g_autoptr(JsonNode) first_input = conversation_input (first,
                                                        "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"}", NULL);
  g_autoptr(JsonNode) second_input = conversation_input (second,
                                                         "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"}", NULL);
  g_autoptr(Collector) first_run = NULL;
  g_autoptr(Collector) second_run = NULL;
  gboolean first_done_early;

  g_test_summary ("Runs on one agent stream side by side without sharing anything");

  first_run = start_run (agent, first_input, NULL);
  second_run = start_run (agent, second_input, NULL);
  ITERATE_UNTIL (second_run->events->len > 0);
  first_done_early = first_run->done;
  ITERATE_UNTIL (first_run->done && second_run->done);

  g_assert_no_error (first_run->error);
  g_assert_no_error (second_run->error);
  /* Interleaved: one run does not wait for the other. */
  g_assert_false (first_done_early);

  conversation_fold (first, first_run->events);
  conversation_fold (second, second_run->events);
  assert_finished (first, AGUI_OUTCOME_SUCCESS);
  assert_finished (second, AGUI_OUTCOME_INTERRUPT);
}

static void
test_invalid_input (void)
{
  g_autoptr(AguiDemoAgent) agent = quick_agent ();
  g_autoptr(JsonNode) no_thread = json_from_string ("{\"runId\":\"r\",\"messages\":[]}", NULL);
  g_autoptr(JsonNode) no_messages = json_from_string ("{\"threadId\":\"t\",\"runId\":\"r\"}", NULL);
  g_autoptr(Collector) first = NULL;
  g_autoptr(Collector) second = NULL;

  g_test_summary ("A malformed RunAgentInput fails to start, like a 400 would");

  first = start_run (agent, no_thread, NULL);
  second = start_run (agent, no_messages, NULL);
  ITERATE_UNTIL (first->done && second->done);
  g_assert_error (first->error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
  g_assert_error (second->error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
}

static void
on_notify_cb (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_delay_property (void)
{
  g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
  guint notified = 0;
  guint delay = 0;

  g_test_summary ("The delay defaults to a typing pace and notifies only on change");

  g_assert_cmpuint (agui_demo_agent_get_delay (agent), ==, 25);
  g_signal_connect (agent, "notify::delay", G_CALLBACK (on_notify_cb), &notified);

  agui_demo_agent_set_delay (agent, 0);
  agui_demo_agent_set_delay (agent, 0);
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (agent, "delay", 40, NULL);
  g_object_get (agent, "delay", &delay, NULL);
  g_assert_cmpuint (delay, ==, 40);
  g_assert_cmpuint (notified, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/demo-agent/new-message/frontend-tool", test_new_message_frontend_tool);
  g_test_add_func ("/agui/demo-agent/new-message/backend-tool", test_new_message_backend_tool);
  g_test_add_func ("/agui/demo-agent/tool-result/interrupt", test_tool_result_interrupt);
  g_test_add_data_func ("/agui/demo-agent/resume/approved", &approved_case, test_resume);
  g_test_add_data_func ("/agui/demo-agent/resume/edited", &edited_case, test_resume);
  g_test_add_data_func ("/agui/demo-agent/resume/denied", &denied_case, test_resume);
  g_test_add_data_func ("/agui/demo-agent/resume/cancelled", &cancelled_case, test_resume);
  g_test_add_func ("/agui/demo-agent/resume/unknown", test_resume_unknown);
  g_test_add_func ("/agui/demo-agent/resume/invalid", test_resume_invalid);
  g_test_add_func ("/agui/demo-agent/resume/after-restart", test_resume_after_restart);
  g_test_add_func ("/agui/demo-agent/keyword/error", test_keyword_error);
  g_test_add_func ("/agui/demo-agent/keyword/whole-word", test_keyword_whole_word);
  g_test_add_func ("/agui/demo-agent/keyword/long", test_keyword_long);
  g_test_add_func ("/agui/demo-agent/keyword/archive", test_keyword_archive);
  g_test_add_func ("/agui/demo-agent/keyword/german", test_keyword_german);
  g_test_add_func ("/agui/demo-agent/time-locale", test_time_locale);
  g_test_add_func ("/agui/demo-agent/introduction", test_introduction);
  g_test_add_func ("/agui/demo-agent/cancel/close-mid-stream", test_close_mid_stream);
  g_test_add_func ("/agui/demo-agent/cancel/close-quick", test_close_quick);
  g_test_add_func ("/agui/demo-agent/cancel/before-start", test_cancel_before_start);
  g_test_add_func ("/agui/demo-agent/dispose-mid-run", test_dispose_mid_run);
  g_test_add_func ("/agui/demo-agent/concurrent", test_concurrent);
  g_test_add_func ("/agui/demo-agent/invalid-input", test_invalid_input);
  g_test_add_func ("/agui/demo-agent/delay", test_delay_property);

  return g_test_run ();
}
