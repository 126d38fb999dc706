/* test-session-http.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-test-server.h"
#include "agui-run-state-private.h"

/* AguiAgentSession over real HTTP on 127.0.0.1: what the client sends
 * (headers, message order, tool placement, tools, resume) and how every
 * fault ends (run state, transcript). */

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TS(id)   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\"}"
#define TC(id, d) "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" d "\"}"
#define TE(id)   "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiToolRegistry  *tools;
  AguiAgentSession  *session;
} Fixture;

static char *
clock_tool (JsonNode  *arguments,
            gpointer   user_data,
            GError   **error)
{
  return g_strdup ("noon");
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AguiTool) clock = agui_tool_new_simple ("clock", "Tells the time", NULL, clock_tool, NULL, NULL);
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);

  f->transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, &error,
                                 "url", agui_test_server_get_url (f->server),
                                 "headers", (const char * const[]) {
                                   "Authorization: Bearer secret",
                                   "Accept: */*",
                                   NULL
                                 },
                                 "connect-timeout", GPOINTER_TO_UINT (data) ? GPOINTER_TO_UINT (data) : 5000,
                                 /* 0 means none: the default's five minutes then. */
                                 "idle-timeout", GPOINTER_TO_UINT (data) ? GPOINTER_TO_UINT (data) : AGUI_HTTP_DEFAULT_IDLE_TIMEOUT,
                                 NULL);
  g_assert_no_error (error);

  f->tools = agui_tool_registry_new ();
  agui_tool_registry_add (f->tools, clock);
  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", "t", "tools", f->tools, NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->session);
  g_clear_object (&f->tools);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

static AguiRunState *
send (Fixture     *f,
      const char  *text,
      GError     **error)
{
  GAsyncResult *result = NULL;
  AguiRunState *state;

  agui_agent_session_send_async (f->session, text, NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  state = agui_agent_session_send_finish (f->session, result, error);
  g_object_unref (result);

  return state;
}

static void
test_request_headers_and_body (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  const AguiTestRequest *request;
  JsonObject *body;

  g_test_summary ("The session POSTs the RunAgentInput with exact Accept and the caller's headers");

  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r1"), TS ("m1"), TC ("m1", "hi"), TE ("m1"), RF ("r1"), NULL));
  state = send (f, "hello", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);

  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Accept"), ==, "text/event-stream");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer secret");
  g_assert_true (g_str_has_prefix (soup_message_headers_get_one (request->headers, "Content-Type"), "application/json"));

  body = agui_test_server_get_request_body (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (body, "threadId"), ==, "t");
  g_assert_cmpstr (json_object_get_string_member (body, "protocolVersion"), ==, "1.0");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (body, "messages")), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (body, "tools"), 0), "name"),
                   ==, "clock");
}

static void
test_tool_follow_up_over_http (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  JsonArray *messages;

  g_test_summary ("A frontend tool's answer goes back in a second POST, right after its call");

  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"), TS ("m1"), TC ("m1", "Checking"), TE ("m1"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\",\"parentMessageId\":\"m1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
    TS ("m2"), TC ("m2", "one moment"), TE ("m2"), RF ("r1"), NULL));
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r2"), TS ("m3"), TC ("m3", "It is noon"), TE ("m3"), RF ("r2"), NULL));

  state = send (f, "time?", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);

  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "id"), ==, "m1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "noon");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "id"), ==, "m2");
  g_assert_cmpstr (json_object_get_string_member (agui_test_server_get_request_body (f->server, 0), "runId"), !=,
                   json_object_get_string_member (agui_test_server_get_request_body (f->server, 1), "runId"));
}

static void
test_resume_over_http (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(JsonNode) answers = json_from_string ("[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":true,\"editedArgs\":{\"name\":\"dev\"}}}]", NULL);
  GAsyncResult *result = NULL;
  JsonArray *resume;

  g_test_summary ("A resume POST carries the answers; send is refused while interrupted");

  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"delete_db\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":"
    "[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}]}}", NULL));
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r2"), "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"done\"}", RF ("r2"), NULL));

  state = send (f, "delete it", NULL);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_INTERRUPT);

  agui_agent_session_resume_async (f->session, json_node_get_array (answers), NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  g_clear_pointer (&state, agui_run_state_unref);
  state = agui_agent_session_resume_finish (f->session, result, NULL);
  g_object_unref (result);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_SUCCESS);

  resume = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "resume");
  g_assert_cmpuint (json_array_get_length (resume), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (resume, 0), "status"), ==, "resolved");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_object_get_object_member (json_array_get_object_element (resume, 0), "payload"), "editedArgs"), "name"),
                   ==, "dev");
}

static JsonObject *
message_at (JsonArray *messages,
            guint      index)
{
  g_assert_cmpuint (index, <, json_array_get_length (messages));
  return json_array_get_object_element (messages, index);
}

static void
test_strands_tool_call (Fixture *f,
                        guint    delay)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(JsonArray) history = NULL;
  AguiToolCallPart *call;
  JsonArray *messages;

  g_test_summary ("A MESSAGES_SNAPSHOT right after a frontend tool's call (as @ag-ui/aws-strands sends) "
                  "does not lose the tool's answer: the follow-up carries it and the exchange ends in two runs");

  agui_test_server_push_response (f->server, agui_test_response_new_strands_tool_call ("r1", "tc1", "clock", "{}", delay));
  agui_test_server_push_response (f->server, agui_test_response_new_strands_answer ("r2", "answer", "It is noon"));

  state = send (f, "time?", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);

  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 0), "role"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 1), "id"), ==, "tc1-message");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 2), "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 2), "toolCallId"), ==, "tc1");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 2), "content"), ==, "noon");

  /* The second snapshot names the answer (the request sent it): one answer, drawn on its call. */
  history = agui_transcript_to_messages (transcript, FALSE);
  g_assert_cmpuint (json_array_get_length (history), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (message_at (history, 2), "content"), ==, "noon");
  g_assert_cmpstr (json_object_get_string_member (message_at (history, 3), "content"), ==, "It is noon");
  call = agui_transcript_lookup_tool_call (transcript, "tc1");
  g_assert_nonnull (call);
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_COMPLETE);
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "noon");
}

/* The snapshot comes before the tool has answered, or after. */
static void
test_strands_snapshot_at_once (Fixture       *f,
                               gconstpointer  data)
{
  test_strands_tool_call (f, 0);
}

static void
test_strands_snapshot_after_5ms (Fixture       *f,
                                 gconstpointer  data)
{
  test_strands_tool_call (f, 5);
}

static void
test_strands_snapshot_after_50ms (Fixture       *f,
                                  gconstpointer  data)
{
  test_strands_tool_call (f, 50);
}

static void
test_snapshot_answer_wins (Fixture       *f,
                           gconstpointer  data)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(JsonArray) history = NULL;
  AguiTestResponse *response;

  g_test_summary ("A snapshot that already holds an answer to the client's call wins over the tool's own: "
                  "one answer, and no follow-up to carry another");

  response = agui_test_response_new_events (
    RS ("r1"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\",\"parentMessageId\":\"a1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}", NULL);
  agui_test_response_append_stall (response, 50);
  agui_test_response_append_messages_snapshot (response,
    "[{\"id\":\"a1\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc1\",\"type\":\"function\","
    "\"function\":{\"name\":\"clock\",\"arguments\":\"{}\"}}]},"
    "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"tc1\",\"content\":\"a minute to noon\"}]");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  state = send (f, "time?", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  history = agui_transcript_to_messages (transcript, FALSE);
  g_assert_cmpuint (json_array_get_length (history), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (message_at (history, 2), "content"), ==, "a minute to noon");
  g_assert_cmpstr (agui_tool_call_part_get_result (agui_transcript_lookup_tool_call (transcript, "tc1")), ==,
                   "a minute to noon");
}

static void
test_client_answer_after_sibling (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  AguiTestResponse *response;
  JsonArray *messages;

  g_test_summary ("With two calls in one run, the agent's answered by TOOL_CALL_RESULT and the client's, "
                  "the client's answer goes after the agent's, as the reference places it");

  response = agui_test_response_new_events (
    RS ("r1"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"search1\",\"toolCallName\":\"search\",\"parentMessageId\":\"a1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"search1\",\"delta\":\"{}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"search1\"}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"clock1\",\"toolCallName\":\"clock\",\"parentMessageId\":\"a1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"clock1\",\"delta\":\"{}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"clock1\"}", NULL);
  /* The clock has answered long before the agent's search does. */
  agui_test_response_append_stall (response, 50);
  agui_test_response_append_event_json (response,
    "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r-search\",\"toolCallId\":\"search1\",\"content\":\"found\"}");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r2"), TS ("m2"), TC ("m2", "done"),
                                                                            TE ("m2"), RF ("r2"), NULL));

  state = send (f, "search and tell the time", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);

  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 1), "id"), ==, "a1");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 2), "toolCallId"), ==, "search1");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 3), "toolCallId"), ==, "clock1");
  g_assert_cmpstr (json_object_get_string_member (message_at (messages, 3), "content"), ==, "noon");
}

static gboolean
has_answer_note (AguiTranscript *transcript)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (G_LIST_MODEL (transcript), i);
      GListModel *parts = agui_speaker_turn_get_parts (message);

      for (guint j = 0; j < g_list_model_get_n_items (parts); j++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (parts, j);
          JsonArray *notes = agui_part_get_notes (part);

          for (guint k = 0; notes != NULL && k < json_array_get_length (notes); k++)
            if (g_strcmp0 (json_object_get_string_member_with_default (json_array_get_object_element (notes, k), "kind", NULL),
                           "answer") == 0)
              return TRUE;
        }
    }

  return FALSE;
}

static void
test_answer_survives_snapshot (Fixture       *f,
                               gconstpointer  data)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  g_autoptr(JsonNode) answers = json_from_string ("[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}]", NULL);
  g_autoptr(AguiRunState) state = NULL;
  GAsyncResult *result = NULL;
  AguiTestResponse *response;

  g_test_summary ("The person's answer to a suspension is noted on the turn, and a snapshot of the resumed "
                  "run that drops the message it was noted on does not drop it");

  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"), TS ("m1"), TC ("m1", "I need to book it"), TE ("m1"),
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":"
    "[{\"id\":\"i1\",\"reason\":\"mastra:tool_suspend\",\"metadata\":{\"mastra\":{\"toolName\":\"book\",\"args\":{}}}}]}}", NULL));
  response = agui_test_response_new_events (RS ("r2"), NULL);
  agui_test_response_append_messages_snapshot (response, "[{\"id\":\"m2\",\"role\":\"assistant\",\"content\":\"Booked\"}]");
  agui_test_response_append_event_json (response, RF ("r2"));
  agui_test_server_push_response (f->server, response);

  state = send (f, "book it", NULL);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_INTERRUPT);

  agui_agent_session_resume_async (f->session, json_node_get_array (answers), NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  g_clear_pointer (&state, agui_run_state_unref);
  state = agui_agent_session_resume_finish (f->session, result, NULL);
  g_object_unref (result);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_SUCCESS);

  g_assert_true (has_answer_note (transcript));
}

static void
assert_failed (AguiRunState *state,
               AguiStage     stage,
               const char   *message_part)
{
  g_assert_nonnull (state);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, stage);
  if (message_part != NULL && strstr (agui_run_state_get_error_message (state), message_part) == NULL)
    g_error ("“%s” does not mention “%s”", agui_run_state_get_error_message (state), message_part);
}

static void
test_faults (Fixture       *f,
             gconstpointer  data)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  AguiTestResponse *response;
  g_autofree char *html = g_strnfill (100 * 1024, 'x');
  AguiRunState *state;

  g_test_summary ("Every fault ends as a failed run with its reason; the transcript keeps what arrived");

  /* A 500 with a 100 KB page: the reason is short and names the status. */
  agui_test_server_push_response (f->server, agui_test_response_new_error (500, "text/html", html));
  state = send (f, "one", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "The agent's server failed (HTTP 500)");
  g_assert_cmpuint (strlen (agui_run_state_get_error_message (state)), <=, 2048 + 16);
  /* The page is kept for the "Details" section, not put in the message. */
  g_assert_true (g_str_has_prefix (_agui_run_state_get_error_details (state),
                                   "HTTP 500 Internal Server Error\nContent-Type: text/html\n\n"));
  agui_run_state_unref (state);

  agui_test_server_push_response (f->server, agui_test_response_new_error (401, "application/json", "{\"error\":\"no token\"}"));
  state = send (f, "two", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT,
                 "The agent's server refused the credentials (HTTP 401): no token; "
                 "check the agent's token in Preferences");
  agui_run_state_unref (state);

  /* Reset mid-stream: the partial answer stays. */
  response = agui_test_response_new_events (RS ("r3"), TS ("m3"), TC ("m3", "partial"), NULL);
  agui_test_response_append_reset (response);
  agui_test_server_push_response (f->server, response);
  state = send (f, "three", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, NULL);
  agui_run_state_unref (state);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 4);

  /* A stream that just ends without RUN_FINISHED. */
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r4"), TS ("m4"), TC ("m4", "cut"), NULL));
  state = send (f, "four", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "ended before the answer was complete");
  agui_run_state_unref (state);

  /* Invalid UTF-8, one-byte drip of a protocol violation. */
  response = agui_test_response_new_events (RS ("r5"), NULL);
  agui_test_response_append_data (response, "data: {\"type\":\"CUSTOM\",\"name\":\"\xff\xfe\",\"value\":1}\n\n", -1);
  agui_test_server_push_response (f->server, response);
  state = send (f, "five", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "UTF-8");
  agui_run_state_unref (state);

  response = agui_test_response_new_events (RS ("r6"), TC ("nope", "x"), NULL);
  agui_test_response_set_drip (response, 0);
  agui_test_server_push_response (f->server, response);
  state = send (f, "six", NULL);
  assert_failed (state, AGUI_STAGE_VERIFY, "No active text message");
  agui_run_state_unref (state);

  /* A malformed frame is skipped, the rest arrives, the run still fails. */
  response = agui_test_response_new_events (RS ("r7"), NULL);
  agui_test_response_append_data (response, "data: {not json}\n\n", -1);
  agui_test_response_append_event_json (response, TS ("m7"));
  agui_test_response_append_event_json (response, TC ("m7", "after the bad frame"));
  agui_test_response_append_event_json (response, TE ("m7"));
  agui_test_response_append_event_json (response, RF ("r7"));
  agui_test_server_push_response (f->server, response);
  state = send (f, "seven", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "Invalid event");
  agui_run_state_unref (state);
  {
    g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript, TRUE);
    JsonObject *last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);

    g_assert_cmpstr (json_object_get_string_member (last, "content"), ==, "after the bad frame");
  }

  /* Every user message and partial answer is still there. */
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 10);
}

static void
test_slow_headers_vs_slow_stream (Fixture       *f,
                                  gconstpointer  data)
{
  AguiTestResponse *response;
  AguiRunState *state;

  g_test_summary ("Headers slower than the idle timeout fail; a slow stream whose gaps stay within it does not");

  response = agui_test_response_new_events (RS ("r1"), RF ("r1"), NULL);
  agui_test_response_set_headers_delay (response, 1500);
  agui_test_server_push_response (f->server, response);
  state = send (f, "slow", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "did not start answering within 800 ms (the idle timeout)");
  agui_run_state_unref (state);

  response = agui_test_response_new_events (RS ("r2"), TS ("m2"), TC ("m2", "slow"), TC ("m2", " but fine"), TE ("m2"), RF ("r2"), NULL);
  agui_test_response_set_chunk_interval (response, 300);
  agui_test_server_push_response (f->server, response);
  state = send (f, "slow stream", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  agui_run_state_unref (state);
}

static void
test_cancel_closes_connection (Fixture       *f,
                               gconstpointer  data)
{
  AguiTestResponse *response;
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;
  const AguiTestRequest *request;

  g_test_summary ("Stop closes the connection promptly and the run ends cancelled");

  response = agui_test_response_new_events (RS ("r1"), TS ("m1"), TC ("m1", "thinking"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  agui_agent_session_send_async (f->session, "go", NULL, NULL, agui_test_store_result_cb, &result);
  while (agui_test_server_get_n_requests (f->server) == 0 ||
         agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (f->session)) < 2)
    g_main_context_iteration (NULL, TRUE);

  agui_agent_session_cancel (f->session);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 5000));
  g_assert_null (agui_agent_session_send_finish (f->session, result, &error));
  g_object_unref (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (f->session)), ==, AGUI_OUTCOME_CANCELLED);

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, 2000));
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_dropped_stream (Fixture       *f,
                     gconstpointer  data)
{
  AguiTestResponse *response;
  AguiRunState *state;

  g_test_summary ("A stream that ends or breaks mid-answer fails the run saying the answer is "
                  "incomplete, keeps the partial text, and a retry works");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TS ("m1"), TC ("m1", "Half an"), NULL));
  state = send (f, "one", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT,
                 "The connection ended before the answer was complete; try again "
                 "(the stream had no RUN_FINISHED or RUN_ERROR)");
  agui_run_state_unref (state);

  response = agui_test_response_new_events (RS ("r2"), TS ("m2"), TC ("m2", "Half"), NULL);
  agui_test_response_append_reset (response);
  agui_test_server_push_response (f->server, response);
  state = send (f, "two", NULL);
  assert_failed (state, AGUI_STAGE_TRANSPORT, "The connection to the agent broke before the answer was complete: ");
  agui_run_state_unref (state);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r3"), TS ("m3"), TC ("m3", "Whole"), TE ("m3"),
                                                                 RF ("r3"), NULL));
  state = send (f, "three", NULL);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  agui_run_state_unref (state);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/agui/session-http/request-headers-and-body", Fixture, NULL, fixture_set_up, test_request_headers_and_body, fixture_tear_down);
  g_test_add ("/agui/session-http/tool-follow-up", Fixture, NULL, fixture_set_up, test_tool_follow_up_over_http, fixture_tear_down);
  g_test_add ("/agui/session-http/resume", Fixture, NULL, fixture_set_up, test_resume_over_http, fixture_tear_down);
  g_test_add ("/agui/session-http/strands-tool-call/snapshot-at-once", Fixture, NULL,
              fixture_set_up, test_strands_snapshot_at_once, fixture_tear_down);
  g_test_add ("/agui/session-http/strands-tool-call/snapshot-after-5ms", Fixture, NULL,
              fixture_set_up, test_strands_snapshot_after_5ms, fixture_tear_down);
  g_test_add ("/agui/session-http/strands-tool-call/snapshot-after-50ms", Fixture, NULL,
              fixture_set_up, test_strands_snapshot_after_50ms, fixture_tear_down);
  g_test_add ("/agui/session-http/snapshot-answer-wins", Fixture, NULL, fixture_set_up, test_snapshot_answer_wins, fixture_tear_down);
  g_test_add ("/agui/session-http/client-answer-after-sibling", Fixture, NULL, fixture_set_up, test_client_answer_after_sibling, fixture_tear_down);
  g_test_add ("/agui/session-http/answer-survives-snapshot", Fixture, NULL, fixture_set_up, test_answer_survives_snapshot, fixture_tear_down);
  g_test_add ("/agui/session-http/faults", Fixture, NULL, fixture_set_up, test_faults, fixture_tear_down);
  g_test_add ("/agui/session-http/slow-headers-vs-slow-stream", Fixture, GUINT_TO_POINTER (800),
              fixture_set_up, test_slow_headers_vs_slow_stream, fixture_tear_down);
  g_test_add ("/agui/session-http/dropped-stream", Fixture, NULL, fixture_set_up, test_dropped_stream, fixture_tear_down);
  g_test_add ("/agui/session-http/cancel-closes-connection", Fixture, NULL, fixture_set_up, test_cancel_closes_connection, fixture_tear_down);

  return g_test_run ();
}
