/* test-agent-session.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-replay-transport-private.h"

/* Each rule of the session, driven by scripted transports: the replay
 * transport, and a manual one whose stream the test feeds by hand. */

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\"}," \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}," \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CALL(id, name, parent) \
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name "\",\"parentMessageId\":\"" parent "\"}," \
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"{\\\"zone\\\":\\\"UTC\\\"}\"}," \
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"
#define INTERRUPT(run, expires) \
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\",\"outcome\":{\"type\":\"interrupt\"," \
  "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"Delete?\"" expires "}]}}"

typedef struct
{
  GAsyncResult *result;
} Waiter;

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
}

static void
wait_for (Waiter *waiter)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (waiter->result == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
iterate_briefly (void)
{
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
script (AguiReplayTransport *replay,
        const char          *events)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf ("[%s]", events);

  g_assert_true (agui_replay_transport_add_run_json (replay, json, &error));
  g_assert_no_error (error);
}

static AguiRunState *
send_and_wait (AguiAgentSession  *session,
               const char        *text,
               AguiRunParameters *parameters,
               GError           **error)
{
  Waiter waiter = { 0 };
  AguiRunState *state;

  agui_agent_session_send_async (session, text, parameters, NULL, store_result_cb, &waiter);
  wait_for (&waiter);
  state = agui_agent_session_send_finish (session, waiter.result, error);
  g_object_unref (waiter.result);

  return state;
}

static AguiRunState *
resume_and_wait (AguiAgentSession  *session,
                 const char        *answers_json,
                 GError           **error)
{
  g_autoptr(JsonNode) answers = json_from_string (answers_json, NULL);
  Waiter waiter = { 0 };
  AguiRunState *state;

  agui_agent_session_resume_async (session, json_node_get_array (answers), NULL, NULL,
                                   store_result_cb, &waiter);
  wait_for (&waiter);
  state = agui_agent_session_resume_finish (session, waiter.result, error);
  g_object_unref (waiter.result);

  return state;
}

static JsonArray *
request_member (AguiReplayTransport *replay,
                guint                index,
                const char          *member)
{
  JsonNode *request = agui_replay_transport_get_request (replay, index);

  g_assert_nonnull (request);
  return json_object_get_array_member (json_node_get_object (request), member);
}

static char *
time_tool_func (JsonNode  *arguments,
                gpointer   user_data,
                GError   **error)
{
  guint *calls = user_data;

  (*calls)++;
  g_assert_nonnull (arguments);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (arguments), "zone"), ==, "UTC");

  return g_strdup ("12:00");
}

static AguiToolRegistry *
time_registry (guint *calls)
{
  g_autoptr(AguiToolRegistry) registry = agui_tool_registry_new ();
  g_autoptr(JsonNode) schema = json_from_string ("{\"type\":\"object\",\"properties\":{\"zone\":{\"type\":\"string\"}}}", NULL);
  g_autoptr(AguiTool) tool = agui_tool_new_simple ("get_time", "Tells the time", schema,
                                                   time_tool_func, calls, NULL);

  agui_tool_registry_add (registry, tool);

  return g_steal_pointer (&registry);
}

static char *
refusing_tool_func (JsonNode  *arguments,
                    gpointer   user_data,
                    GError   **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "The user declined");
  return NULL;
}

static void
test_declined_tool (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiToolRegistry) registry = agui_tool_registry_new ();
  g_autoptr(AguiTool) tool = agui_tool_new_simple ("get_time", "Asks first", NULL, refusing_tool_func, NULL, NULL);
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiRunState) state = NULL;
  AguiToolCallPart *part;

  g_test_summary ("A desktop tool the person refuses reads declined, not failed");

  agui_tool_registry_add (registry, tool);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", NULL, "tools", registry, NULL);
  script (replay, RS ("r1") "," TEXT ("m1", "Checking") "," CALL ("tc1", "get_time", "m1") "," RF ("r1"));
  script (replay, RS ("r2") "," TEXT ("m2", "Fine.") "," RF ("r2"));
  state = send_and_wait (session, "time?", NULL, NULL);
  g_assert_nonnull (state);

  part = agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1");
  g_assert_cmpint (agui_tool_call_part_get_answer (part), ==, AGUI_ANSWER_DECLINED);
  g_assert_cmpint (agui_tool_call_part_get_status (part), ==, AGUI_TOOL_CALL_DECLINED);
  /* The agent still hears that the call failed. */
  g_assert_nonnull (agui_tool_call_part_get_error (part));
}

static void
test_answers_outrank_results (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) first = NULL;
  g_autoptr(AguiRunState) second = NULL;
  g_autoptr(GError) error = NULL;
  AguiToolCallPart *part;
  JsonArray *messages;

  g_test_summary ("A denied call stays denied when the agent reports a result; the answer stays out of the run's input");

  script (replay, RS ("r1") "," TEXT ("m1", "Deleting") "," CALL ("tc1", "delete", "m1") "," INTERRUPT ("r1", ""));
  script (replay, RS ("r2") ","
          "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"res1\",\"toolCallId\":\"tc1\",\"content\":\"ok\",\"role\":\"tool\"},"
          RF ("r2"));
  script (replay, RS ("r3") "," RF ("r3"));

  first = send_and_wait (session, "delete it", NULL, &error);
  g_assert_no_error (error);
  part = agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1");
  g_assert_cmpint (agui_tool_call_part_get_status (part), ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);

  second = resume_and_wait (session, "[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":false}}]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_tool_call_part_get_answer (part), ==, AGUI_ANSWER_DENIED);
  g_assert_cmpint (agui_tool_call_part_get_status (part), ==, AGUI_TOOL_CALL_DENIED);

  /* Stored, the answer travels with the call; sent, it does not. */
  messages = agui_transcript_to_messages (agui_agent_session_get_transcript (session), TRUE);
  {
    g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), messages);
    g_autofree char *text = json_to_string (node, FALSE);

    g_assert_nonnull (strstr (text, "\"tandem\":{\"answer\":\"denied\"}"));
    json_array_unref (messages);
  }
  messages = agui_transcript_to_messages (agui_agent_session_get_transcript (session), FALSE);
  {
    g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), messages);
    g_autofree char *text = json_to_string (node, FALSE);

    g_assert_null (strstr (text, "tandem"));
    json_array_unref (messages);
  }
}

static void
test_send_streams_text (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  AguiTranscript *transcript = agui_agent_session_get_transcript (session);
  JsonArray *messages;

  script (replay, RS ("r1") "," TEXT ("m1", "Hello!") "," RF ("r1"));
  state = send_and_wait (session, "Hi", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_false (agui_agent_session_get_busy (session));

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 2);
  messages = request_member (replay, 0, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==, "Hi");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (agui_replay_transport_get_request (replay, 0)), "threadId"),
                   ==, agui_agent_session_get_thread_id (session));
  g_assert_cmpuint (agui_replay_transport_get_remaining (replay), ==, 0);
}

static void
test_runs_take_turns (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(JsonArray) messages = NULL;
  Waiter first = { 0 }, second = { 0 };
  g_autoptr(AguiRunState) state1 = NULL, state2 = NULL;

  g_test_summary ("A second send waits for the first: runs never interleave, the first answer stays");

  script (replay, RS ("r1") "," TEXT ("m1", "one") "," RF ("r1"));
  script (replay, RS ("r2") "," TEXT ("m2", "two") "," RF ("r2"));

  agui_agent_session_send_async (session, "first", NULL, NULL, store_result_cb, &first);
  agui_agent_session_send_async (session, "second", NULL, NULL, store_result_cb, &second);
  g_assert_true (agui_agent_session_get_busy (session));
  wait_for (&first);
  wait_for (&second);
  state1 = agui_agent_session_send_finish (session, first.result, NULL);
  state2 = agui_agent_session_send_finish (session, second.result, NULL);
  g_clear_object (&first.result);
  g_clear_object (&second.result);

  /* The second request saw the whole first exchange. */
  g_assert_cmpuint (json_array_get_length (request_member (replay, 1, "messages")), ==, 3);

  messages = agui_transcript_to_messages (agui_agent_session_get_transcript (session), TRUE);
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==, "first");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"), ==, "one");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "second");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"), ==, "two");
}

static void
test_failures_end_as_failed_state (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  AguiTranscript *transcript = agui_agent_session_get_transcript (session);

  g_test_summary ("RUN_ERROR, protocol violations and transport errors all end Failed, transcript intact");

  script (replay, RS ("r1") ",{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"},"
                  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"partial\"},"
                  "{\"type\":\"RUN_ERROR\",\"message\":\"overloaded\",\"code\":\"busy\"}");
  state = send_and_wait (session, "a", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpstr (agui_run_state_get_error_message (state), ==, "overloaded");
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, AGUI_STAGE_AGENT);
  g_clear_pointer (&state, agui_run_state_unref);

  script (replay, RS ("r2") ",{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"nope\",\"delta\":\"x\"}");
  state = send_and_wait (session, "b", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, AGUI_STAGE_VERIFY);
  g_clear_pointer (&state, agui_run_state_unref);

  /* An answer with no events at all is not a success. */
  script (replay, "");
  state = send_and_wait (session, "empty", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_nonnull (strstr (agui_run_state_get_error_message (state), "without sending any event"));
  g_clear_pointer (&state, agui_run_state_unref);

  /* No script left: the transport cannot start the run. */
  state = send_and_wait (session, "c", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, AGUI_STAGE_TRANSPORT);

  /* Nothing was lost: four user messages and the partial answer. */
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 5);
}

static void
test_frontend_tool_follow_up (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  guint calls = 0;
  g_autoptr(AguiToolRegistry) registry = time_registry (&calls);
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", registry, NULL);
  g_autoptr(AguiRunParameters) parameters = agui_run_parameters_new ();
  g_autoptr(JsonNode) tools = json_from_string ("[{\"name\":\"search\",\"description\":\"Search\"}]", NULL);
  g_autoptr(JsonNode) context = json_from_string ("[{\"description\":\"locale\",\"value\":\"de\"}]", NULL);
  g_autoptr(JsonNode) props = json_from_string ("{\"temperature\":0.5}", NULL);
  g_autoptr(AguiRunState) state = NULL;
  JsonArray *messages, *declared;
  JsonNode *first, *second;
  AguiToolCallPart *part;

  g_test_summary ("A frontend tool runs, its answer goes back in a follow-up run placed after its call");

  agui_run_parameters_set_tools (parameters, json_node_get_array (tools));
  agui_run_parameters_set_context (parameters, json_node_get_array (context));
  agui_run_parameters_set_forwarded_props (parameters, props);

  /* The agent says more after the call (m2): the answer still goes
   * directly after m1, which holds the call. */
  script (replay, RS ("r1") "," TEXT ("m1", "Let me look.") "," CALL ("tc1", "get_time", "m1") ","
                  TEXT ("m2", "One moment.") "," RF ("r1"));
  script (replay, RS ("r2") "," TEXT ("m3", "It is noon.") "," RF ("r2"));

  state = send_and_wait (session, "What time is it?", parameters, NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 2);

  messages = request_member (replay, 1, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "id"), ==, "m1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "toolCallId"), ==, "tc1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "12:00");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "id"), ==, "m2");

  /* Same tools (the caller's first), context and props; a new run id. */
  first = agui_replay_transport_get_request (replay, 0);
  second = agui_replay_transport_get_request (replay, 1);
  declared = request_member (replay, 1, "tools");
  g_assert_cmpuint (json_array_get_length (declared), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (declared, 0), "name"), ==, "search");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (declared, 1), "name"), ==, "get_time");
  g_assert_true (json_node_equal (json_object_get_member (json_node_get_object (first), "tools"),
                                  json_object_get_member (json_node_get_object (second), "tools")));
  g_assert_true (json_node_equal (json_object_get_member (json_node_get_object (first), "context"),
                                  json_object_get_member (json_node_get_object (second), "context")));
  g_assert_true (json_node_equal (json_object_get_member (json_node_get_object (first), "forwardedProps"),
                                  json_object_get_member (json_node_get_object (second), "forwardedProps")));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (first), "runId"), !=,
                   json_object_get_string_member (json_node_get_object (second), "runId"));

  part = agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1");
  g_assert_cmpint (agui_tool_call_part_get_status (part), ==, AGUI_TOOL_CALL_COMPLETE);
  g_assert_cmpstr (agui_tool_call_part_get_result (part), ==, "12:00");
}

static void
test_backend_tool_left_alone (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  guint calls = 0;
  g_autoptr(AguiToolRegistry) registry = time_registry (&calls);
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", NULL, "tools", registry, NULL);
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A call to a tool the registry lacks is the agent's: no answer, no follow-up");

  script (replay, RS ("r1") "," TEXT ("m1", "Searching") "," CALL ("tc1", "web_search", "m1") "," RF ("r1"));
  state = send_and_wait (session, "find", NULL, NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (calls, ==, 0);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 1);
  /* Its run ended without a result for it, and no later run will bring one. */
  g_assert_cmpint (agui_tool_call_part_get_status (agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1")),
                   ==, AGUI_TOOL_CALL_NO_RESULT);
}

/* The pending interrupt INTERRUPT() scripts, as the session's typed list
 * and its property give it. */
static void
assert_interrupt_i1 (AguiAgentSession *session)
{
  g_autoptr(GListModel) property = NULL;
  g_autoptr(AguiInterrupt) interrupt = NULL;
  g_autoptr(JsonNode) json = NULL;

  g_object_get (session, "pending-interrupts", &property, NULL);
  g_assert_true (property == agui_agent_session_get_pending_interrupts (session));
  g_assert_true (g_list_model_get_item_type (property) == AGUI_TYPE_INTERRUPT);

  interrupt = g_list_model_get_item (property, 0);
  g_assert_cmpstr (agui_interrupt_get_id (interrupt), ==, "i1");
  g_assert_cmpstr (agui_interrupt_get_reason (interrupt), ==, "tool_call");
  g_assert_cmpstr (agui_interrupt_get_tool_call_id (interrupt), ==, "tc1");
  g_assert_cmpstr (agui_interrupt_get_message (interrupt), ==, "Delete?");
  g_assert_null (agui_interrupt_get_subagent_run_id (interrupt));
  g_assert_null (agui_interrupt_get_response_schema (interrupt));
  g_assert_null (agui_interrupt_get_expires_at (interrupt));
  g_assert_false (agui_interrupt_has_expired (interrupt, NULL));

  /* A copy: changing it changes nothing in the session. */
  json = agui_interrupt_to_json (interrupt);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json), "id"), ==, "i1");
  json_object_set_string_member (json_node_get_object (json), "id", "changed");
  g_assert_cmpstr (agui_interrupt_get_id (interrupt), ==, "i1");
}

static void
test_interrupts (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *resume;

  g_test_summary ("An interrupt blocks send and run; resume must answer every open interrupt");

  script (replay, RS ("r1") "," TEXT ("m1", "I will delete it.") "," CALL ("tc1", "delete_db", "m1") ","
                  INTERRUPT ("r1", ""));
  script (replay, RS ("r2") ",{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"deleted\"},"
                  RF ("r2"));

  state = send_and_wait (session, "clean up", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_INTERRUPT);
  g_assert_cmpuint (g_list_model_get_n_items (agui_run_state_get_interrupts (state)), ==, 1);
  {
    g_autoptr(AguiInterrupt) left_open = g_list_model_get_item (agui_run_state_get_interrupts (state), 0);

    g_assert_cmpstr (agui_interrupt_get_id (left_open), ==, "i1");
  }
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (session)), ==, 1);
  assert_interrupt_i1 (session);
  g_assert_cmpint (agui_tool_call_part_get_status (agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1")),
                   ==, AGUI_TOOL_CALL_AWAITING_APPROVAL);
  g_clear_pointer (&state, agui_run_state_unref);

  /* send refuses without sending anything. */
  state = send_and_wait (session, "hello?", NULL, &error);
  g_assert_null (state);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INTERRUPTED);
  g_clear_error (&error);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 1);

  /* An answer for an interrupt that is not open, or none at all, is refused. */
  state = resume_and_wait (session, "[{\"interruptId\":\"other\",\"status\":\"cancelled\"}]", &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  state = resume_and_wait (session, "[]", &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INTERRUPTED);
  g_clear_error (&error);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 1);

  state = resume_and_wait (session, "[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (g_list_model_get_n_items (agui_run_state_get_interrupts (state)), ==, 0);
  resume = request_member (replay, 1, "resume");
  g_assert_nonnull (resume);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (resume, 0), "interruptId"), ==, "i1");
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (session)), ==, 0);
  g_assert_cmpint (agui_tool_call_part_get_status (agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (session), "tc1")),
                   ==, AGUI_TOOL_CALL_COMPLETE);
}

static void
test_expired_interrupt (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A resolved answer to an expired interrupt is refused; cancelling it is not");

  script (replay, RS ("r1") "," CALL ("tc1", "delete_db", "m1") "," INTERRUPT ("r1", ",\"expiresAt\":\"2001-01-01T00:00:00Z\""));
  script (replay, RS ("r2") "," RF ("r2"));

  state = send_and_wait (session, "clean up", NULL, NULL);
  g_clear_pointer (&state, agui_run_state_unref);

  /* The session's list says the same as the refusal below. */
  {
    g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (agui_agent_session_get_pending_interrupts (session), 0);
    g_autoptr(GDateTime) before = g_date_time_new_utc (2000, 12, 31, 23, 59, 59);

    g_assert_nonnull (interrupt);
    g_assert_cmpint (g_date_time_to_unix (agui_interrupt_get_expires_at (interrupt)), ==, 978307200);
    g_assert_true (agui_interrupt_has_expired (interrupt, NULL));
    g_assert_false (agui_interrupt_has_expired (interrupt, before));
  }

  state = resume_and_wait (session, "[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}]", &error);
  g_assert_null (state);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_EXPIRED);
  g_clear_error (&error);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 1);

  state = resume_and_wait (session, "[{\"interruptId\":\"i1\",\"status\":\"cancelled\"}]", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 2);
}

/* A transport whose streams the test feeds by hand. */

#define TEST_TYPE_MANUAL_TRANSPORT (test_manual_transport_get_type ())
G_DECLARE_FINAL_TYPE (TestManualTransport, test_manual_transport, TEST, MANUAL_TRANSPORT, GObject)

struct _TestManualTransport
{
  GObject    parent_instance;
  GPtrArray *streams;
  GPtrArray *inputs;
};

static void manual_iface_init (AguiTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestManualTransport, test_manual_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT, manual_iface_init))

static void
manual_run_async (AguiTransport       *transport,
                  JsonNode            *input,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  TestManualTransport *self = TEST_MANUAL_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  AguiEventStream *stream = agui_event_stream_new ();
  g_autofree char *text = json_to_string (input, FALSE);

  g_ptr_array_add (self->streams, g_object_ref (stream));
  g_ptr_array_add (self->inputs, json_from_string (text, NULL));
  g_task_return_pointer (task, stream, g_object_unref);
}

static AguiEventStream *
manual_run_finish (AguiTransport  *transport,
                   GAsyncResult   *result,
                   GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
manual_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = manual_run_async;
  iface->run_finish = manual_run_finish;
}

static void
test_manual_transport_finalize (GObject *object)
{
  TestManualTransport *self = TEST_MANUAL_TRANSPORT (object);

  g_ptr_array_unref (self->streams);
  g_ptr_array_unref (self->inputs);
  G_OBJECT_CLASS (test_manual_transport_parent_class)->finalize (object);
}

static void
test_manual_transport_class_init (TestManualTransportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_manual_transport_finalize;
}

static void
test_manual_transport_init (TestManualTransport *self)
{
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);
  self->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
}

static void
push (AguiEventStream *stream,
      const char      *events)
{
  g_autofree char *json = g_strdup_printf ("[%s]", events);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  JsonArray *array = json_node_get_array (node);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(AguiEvent) event = agui_event_new_from_json (json_array_get_element (array, i), NULL, NULL);

      g_assert_nonnull (event);
      agui_event_stream_push_event (stream, event);
    }
}

/* A tool that only ends when it is cancelled. */

#define TEST_TYPE_SLOW_TOOL (test_slow_tool_get_type ())
G_DECLARE_FINAL_TYPE (TestSlowTool, test_slow_tool, TEST, SLOW_TOOL, AguiTool)

struct _TestSlowTool
{
  AguiTool parent_instance;
};

G_DEFINE_FINAL_TYPE (TestSlowTool, test_slow_tool, AGUI_TYPE_TOOL)

static void
on_slow_cancelled (GCancellable *cancellable,
                   GTask        *task)
{
  g_task_return_error_if_cancelled (task);
}

static void
slow_execute_async (AguiTool            *tool,
                    JsonNode            *arguments,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  GTask *task = g_task_new (tool, cancellable, callback, user_data);

  g_assert_nonnull (cancellable);
  g_signal_connect_data (cancellable, "cancelled", G_CALLBACK (on_slow_cancelled), task,
                         (GClosureNotify) (void (*) (void)) g_object_unref, 0);
}

static void
test_slow_tool_class_init (TestSlowToolClass *klass)
{
  AGUI_TOOL_CLASS (klass)->execute_async = slow_execute_async;
}

static void
test_slow_tool_init (TestSlowTool *self)
{
}

static void
test_tool_cancelled_mid_execution (void)
{
  g_autoptr(TestManualTransport) manual = g_object_new (TEST_TYPE_MANUAL_TRANSPORT, NULL);
  g_autoptr(AguiToolRegistry) registry = agui_tool_registry_new ();
  g_autoptr(AguiTool) slow = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiRunState) state = NULL;
  AguiEventStream *stream;
  Waiter waiter = { 0 };
  JsonArray *messages;

  g_test_summary ("A tool cancelled mid-execution answers with its failure, sent with the next run");

  slow = g_object_new (TEST_TYPE_SLOW_TOOL, "name", "slow", "description", "Takes forever", NULL);
  agui_tool_registry_add (registry, slow);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (manual), "thread-id", "t", "tools", registry, NULL);

  agui_agent_session_send_async (session, "go", NULL, NULL, store_result_cb, &waiter);
  iterate_briefly ();
  g_assert_cmpuint (manual->streams->len, ==, 1);
  stream = g_ptr_array_index (manual->streams, 0);
  push (stream, RS ("r1") "," CALL ("tc1", "slow", "m1") ",{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\","
                "\"toolCallName\":\"slow\",\"parentMessageId\":\"m1\"}");
  iterate_briefly ();

  agui_agent_session_cancel (session);
  wait_for (&waiter);
  state = agui_agent_session_send_finish (session, waiter.result, &error);
  g_clear_object (&waiter.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (session)), ==, AGUI_OUTCOME_CANCELLED);
  g_assert_true (g_cancellable_is_cancelled (agui_event_stream_get_cancellable (stream)));

  /* The next run carries both answers, ahead of the new user turn. */
  agui_agent_session_send_async (session, "again", NULL, NULL, store_result_cb, &waiter);
  iterate_briefly ();
  g_assert_cmpuint (manual->streams->len, ==, 2);
  messages = json_object_get_array_member (json_node_get_object (g_ptr_array_index (manual->inputs, 1)), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "role"), ==, "tool");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"),
                                   "Tool execution failed"));
  g_assert_true (json_object_has_member (json_array_get_object_element (messages, 2), "error"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"),
                                   "Tool was not run"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 4), "content"), ==, "again");

  push (g_ptr_array_index (manual->streams, 1), RS ("r2") "," RF ("r2"));
  agui_event_stream_end (g_ptr_array_index (manual->streams, 1), NULL);
  wait_for (&waiter);
  g_clear_pointer (&state, agui_run_state_unref);
  state = agui_agent_session_send_finish (session, waiter.result, &error);
  g_clear_object (&waiter.result);
  g_assert_no_error (error);
}

static void
test_result_of_failed_run_is_kept (void)
{
  g_autoptr(TestManualTransport) manual = g_object_new (TEST_TYPE_MANUAL_TRANSPORT, NULL);
  guint calls = 0;
  g_autoptr(AguiToolRegistry) registry = time_registry (&calls);
  g_autoptr(AguiAgentSession) session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (manual), "thread-id", "t", "tools", registry, NULL);
  g_autoptr(AguiRunState) state = NULL;
  Waiter waiter = { 0 };
  JsonArray *messages;

  g_test_summary ("A tool result whose run failed goes out with the next run, not in a follow-up");

  agui_agent_session_send_async (session, "time?", NULL, NULL, store_result_cb, &waiter);
  iterate_briefly ();
  push (g_ptr_array_index (manual->streams, 0),
        RS ("r1") "," TEXT ("m1", "checking") "," CALL ("tc1", "get_time", "m1") ","
        "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}");
  agui_event_stream_end (g_ptr_array_index (manual->streams, 0), NULL);
  wait_for (&waiter);
  state = agui_agent_session_send_finish (session, waiter.result, NULL);
  g_clear_object (&waiter.result);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpuint (manual->streams->len, ==, 1);

  agui_agent_session_send_async (session, "and now?", NULL, NULL, store_result_cb, &waiter);
  iterate_briefly ();
  messages = json_object_get_array_member (json_node_get_object (g_ptr_array_index (manual->inputs, 1)), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "12:00");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"), ==, "and now?");
  agui_agent_session_cancel (session);
  wait_for (&waiter);
  g_clear_object (&waiter.result);
}

static void
test_does_not_dispose_transport (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiReplayTransport) handle = _agui_replay_transport_copy (replay);
  AguiAgentSession *session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("The session leaves its transport to its owner; a copy shares the script");

  script (handle, RS ("r1") "," RF ("r1"));
  state = send_and_wait (session, "hi", NULL, NULL);
  g_object_unref (session);

  g_assert_cmpuint (G_OBJECT (replay)->ref_count, ==, 1);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (handle), ==, 1);
  g_assert_cmpuint (agui_replay_transport_get_remaining (replay), ==, 0);
}

static void
test_cancel_before_start (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  AguiRunState *state;

  g_cancellable_cancel (cancellable);
  agui_agent_session_send_async (session, "hi", NULL, cancellable, store_result_cb, &waiter);
  wait_for (&waiter);
  state = agui_agent_session_send_finish (session, waiter.result, &error);
  g_clear_object (&waiter.result);
  g_assert_null (state);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/agent-session/send-streams-text", test_send_streams_text);
  g_test_add_func ("/agui/agent-session/runs-take-turns", test_runs_take_turns);
  g_test_add_func ("/agui/agent-session/failures-end-as-failed-state", test_failures_end_as_failed_state);
  g_test_add_func ("/agui/agent-session/frontend-tool-follow-up", test_frontend_tool_follow_up);
  g_test_add_func ("/agui/agent-session/backend-tool-left-alone", test_backend_tool_left_alone);
  g_test_add_func ("/agui/agent-session/interrupts", test_interrupts);
  g_test_add_func ("/agui/agent-session/expired-interrupt", test_expired_interrupt);
  g_test_add_func ("/agui/agent-session/tool-cancelled-mid-execution", test_tool_cancelled_mid_execution);
  g_test_add_func ("/agui/agent-session/result-of-failed-run-is-kept", test_result_of_failed_run_is_kept);
  g_test_add_func ("/agui/agent-session/does-not-dispose-transport", test_does_not_dispose_transport);
  g_test_add_func ("/agui/agent-session/cancel-before-start", test_cancel_before_start);
  g_test_add_func ("/agui/agent-session/declined-tool", test_declined_tool);
  g_test_add_func ("/agui/agent-session/answers-outrank-results", test_answers_outrank_results);

  return g_test_run ();
}
