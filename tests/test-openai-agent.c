/* test-openai-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-test-openai.h"
#include "agui-test-server.h"

/* AguiOpenaiAgent against a loopback OpenAI-compatible server: the
 * chunks are the shapes OpenAI, Ollama and llama.cpp's llama-server send
 * (`chat.completion.chunk` objects, tool calls by index with the id and
 * name in the first piece, `reasoning_content`, a usage chunk with no
 * choices, `data: [DONE]`), and the errors they answer with. */

typedef struct
{
  AguiTestServer   *server;
  char             *base_url;
  AguiOpenaiAgent  *agent;
  AguiToolRegistry *tools;
  AguiAgentSession *session;
  GPtrArray        *tool_arguments;   /* what each tool call was run with */
} Fixture;

static char *
clock_tool (JsonNode  *arguments,
            gpointer   user_data,
            GError   **error)
{
  Fixture *f = user_data;

  g_ptr_array_add (f->tool_arguments, arguments ? json_to_string (arguments, FALSE) : g_strdup ("null"));

  return g_strdup ("12:00 UTC");
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(JsonNode) schema = json_from_string ("{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\"}}}", NULL);
  g_autoptr(AguiTool) clock = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);

  url = g_strdup (agui_test_server_get_url (f->server));
  if (g_str_has_suffix (url, "/"))
    url[strlen (url) - 1] = '\0';
  f->base_url = g_strconcat (url, "/v1", NULL);

  f->agent = g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, &error,
                             "base-url", f->base_url,
                             "model", "qwen3:8b",
                             "api-key", "sk-local",
                             "headers", (const char * const[]) { "X-Team: tandem", NULL },
                             "system-prompt", "You are a helpful desktop assistant.",
                             "temperature", 0.25,
                             "idle-timeout", 20000,
                             NULL);
  g_assert_no_error (error);

  f->tool_arguments = g_ptr_array_new_with_free_func (g_free);
  clock = agui_tool_new_simple ("get_current_time", "The time on the user's computer", schema, clock_tool, f, NULL);
  f->tools = agui_tool_registry_new ();
  agui_tool_registry_add (f->tools, clock);
  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION,
                             "transport", AGUI_TRANSPORT (f->agent),
                             "thread-id", "t",
                             "tools", f->tools,
                             NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->session);
  g_clear_object (&f->tools);
  g_clear_object (&f->agent);
  g_clear_pointer (&f->tool_arguments, g_ptr_array_unref);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
  g_free (f->base_url);
}

/* A deadline, not a measure: a loaded sanitizer build is slow. */
#define SEND_DEADLINE_MS 120000

static AguiRunState *
send (Fixture    *f,
      const char *text)
{
  GAsyncResult *result = NULL;
  AguiRunState *state;
  g_autoptr(GError) error = NULL;

  agui_agent_session_send_async (f->session, text, NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, SEND_DEADLINE_MS));
  state = agui_agent_session_send_finish (f->session, result, &error);
  g_object_unref (result);

  return state;
}

static JsonArray *
history (Fixture *f)
{
  /* As kept: a failed attempt's words are not sent back, but shown. */
  return agui_transcript_to_messages (agui_agent_session_get_transcript (f->session), TRUE);
}

/* The text of the last assistant message. */
static char *
dup_last_answer (Fixture *f)
{
  g_autoptr(JsonArray) messages = history (f);

  for (guint i = json_array_get_length (messages); i > 0; i--)
    {
      JsonObject *message = json_array_get_object_element (messages, i - 1);

      if (g_strcmp0 (json_object_get_string_member (message, "role"), "assistant") == 0 &&
          json_object_has_member (message, "content") &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (message, "content")))
        return g_strdup (json_object_get_string_member (message, "content"));
    }

  return NULL;
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

static guint
request_n_messages (Fixture *f,
                    guint    request)
{
  return json_array_get_length (json_object_get_array_member (agui_test_server_get_request_body (f->server, request), "messages"));
}

static void
assert_failed (AguiRunState *state,
               const char   *code,
               const char   *message_part)
{
  g_assert_nonnull (state);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  if (code != NULL)
    g_assert_cmpstr (agui_run_state_get_error_code (state), ==, code);
  if (strstr (agui_run_state_get_error_message (state), message_part) == NULL)
    g_error ("“%s” does not say “%s”", agui_run_state_get_error_message (state), message_part);
}

static void
test_text (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;
  const AguiTestRequest *request;
  JsonObject *body, *function, *result;

  g_test_summary ("Text deltas stream into one answer; the request is a streaming chat completion "
                  "with the system prompt, the temperature, the key and the tools");

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Hel"), TEXT ("lo, "), TEXT ("world."),
                                                     FINISH ("stop"), USAGE, DONE, NULL));
  state = send (f, "Hi");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);

  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "Hello, world.");

  result = json_node_get_object (agui_run_state_get_result (state));
  g_assert_cmpstr (json_object_get_string_member (result, "finishReason"), ==, "stop");
  g_assert_cmpstr (json_object_get_string_member (result, "model"), ==, "qwen3:8b");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (result, "usage"), "total_tokens"), ==, 26);

  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_true (g_str_has_suffix (request->path, "/v1/chat/completions"));
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer sk-local");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "X-Team"), ==, "tandem");

  body = agui_test_server_get_request_body (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen3:8b");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (body, "stream_options"), "include_usage"));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (body, "temperature"), 0.25, 1e-9);
  g_assert_cmpuint (request_n_messages (f, 0), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 0), "role"), ==, "system");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 0), "content"), ==, "You are a helpful desktop assistant.");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 1), "role"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 1), "content"), ==, "Hi");

  function = json_object_get_object_member (json_array_get_object_element (json_object_get_array_member (body, "tools"), 0), "function");
  g_assert_cmpstr (json_object_get_string_member (function, "name"), ==, "get_current_time");
  g_assert_cmpstr (json_object_get_string_member (function, "description"), ==, "The time on the user's computer");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (function, "parameters"), "type"), ==, "object");
}

static void
test_tool_call_split (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;
  JsonObject *assistant, *call, *tool;

  g_test_summary ("A tool call whose arguments arrive in pieces runs once, whole, and its answer "
                  "goes back on the follow-up with its tool_call_id");

  agui_test_server_push_response (f->server, chunks (
    FIRST, TEXT ("Let me look."),
    CALL_START (0, "call_k3", "get_current_time"),
    CALL_ARGS (0, "{\\\"time"), CALL_ARGS (0, "zone\\\": "), CALL_ARGS (0, "\\\"UTC\\\"}"),
    FINISH ("tool_calls"), USAGE, DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("It is noon."), FINISH ("stop"), DONE, NULL));

  state = send (f, "What time is it?");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->tool_arguments, 0), ==, "{\"timezone\":\"UTC\"}");

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (request_n_messages (f, 1), ==, 4);
  assistant = request_message (f, 1, 2);
  g_assert_cmpstr (json_object_get_string_member (assistant, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (assistant, "content"), ==, "Let me look.");
  call = json_array_get_object_element (json_object_get_array_member (assistant, "tool_calls"), 0);
  g_assert_cmpstr (json_object_get_string_member (call, "id"), ==, "call_k3");
  g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "function");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (call, "function"), "name"), ==, "get_current_time");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (call, "function"), "arguments"), ==,
                   "{\"timezone\": \"UTC\"}");
  tool = request_message (f, 1, 3);
  g_assert_cmpstr (json_object_get_string_member (tool, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_k3");
  g_assert_cmpstr (json_object_get_string_member (tool, "content"), ==, "12:00 UTC");

  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "It is noon.");
}

static void
test_parallel_calls (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  JsonArray *calls;

  g_test_summary ("Two calls streamed side by side by index both run, and both answers go back");

  agui_test_server_push_response (f->server, chunks (
    FIRST,
    CALL_START (0, "call_a", "get_current_time"),
    CALL_START (1, "call_b", "get_current_time"),
    CALL_ARGS (1, "{\\\"timezone\\\":"), CALL_ARGS (0, "{\\\"timezone\\\":"),
    CALL_ARGS (0, "\\\"Asia/Tokyo\\\"}"), CALL_ARGS (1, "\\\"Europe/Paris\\\"}"),
    FINISH ("tool_calls"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Tokyo is ahead."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Time in Tokyo and Paris?");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);

  g_assert_cmpuint (f->tool_arguments->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->tool_arguments, 0), ==, "{\"timezone\":\"Asia/Tokyo\"}");
  g_assert_cmpstr (g_ptr_array_index (f->tool_arguments, 1), ==, "{\"timezone\":\"Europe/Paris\"}");

  g_assert_cmpuint (request_n_messages (f, 1), ==, 5);
  calls = json_object_get_array_member (request_message (f, 1, 2), "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (request_message (f, 1, 2), "content")));
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 3), "tool_call_id"), ==, "call_a");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 4), "tool_call_id"), ==, "call_b");
}

static void
test_whole_call_without_index (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A call sent whole in one chunk, without an index and with finish_reason "
                  "stop (older Ollama), still runs");

  agui_test_server_push_response (f->server, chunks (
    CHUNK ("{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"call_o1\",\"type\":\"function\","
           "\"function\":{\"name\":\"get_current_time\",\"arguments\":\"{\\\"timezone\\\":\\\"local\\\"}\"}}]}", "null"),
    FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Done."), FINISH ("stop"), DONE, NULL));

  state = send (f, "time");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->tool_arguments, 0), ==, "{\"timezone\":\"local\"}");
}

static void
test_whole_json_answer (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;

  g_test_summary ("A server that ignores stream and answers one chat.completion object is read the same way");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    200, "application/json",
    "{\"id\":\"chatcmpl-9\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"qwen3:8b\","
    "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
    "\"tool_calls\":[{\"id\":\"call_w\",\"type\":\"function\",\"function\":{\"name\":\"get_current_time\","
    "\"arguments\":\"{\\\"timezone\\\":\\\"UTC\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}],"
    "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"total_tokens\":13}}"));
  agui_test_server_push_response (f->server, agui_test_response_new_error (
    200, "application/json; charset=utf-8",
    "{\"id\":\"chatcmpl-10\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
    "\"message\":{\"role\":\"assistant\",\"content\":\"Noon, UTC.\"},\"finish_reason\":\"stop\"}]}"));

  state = send (f, "time?");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->tool_arguments, 0), ==, "{\"timezone\":\"UTC\"}");
  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "Noon, UTC.");
}

static AguiReasoningPart *
find_reasoning (Fixture *f)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (G_LIST_MODEL (transcript), i);

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (message)); j++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (G_LIST_MODEL (message), j);

          if (AGUI_IS_REASONING_PART (part))
            return AGUI_REASONING_PART (part);
        }
    }

  return NULL;
}

static void
test_reasoning_content (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;
  AguiReasoningPart *reasoning;

  g_test_summary ("reasoning_content (llama.cpp, DeepSeek) streams as reasoning before the answer, "
                  "and is not sent back");

  agui_test_server_push_response (f->server, chunks (
    CHUNK ("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"The user \"}", "null"),
    CHUNK ("{\"content\":null,\"reasoning_content\":\"greets me.\"}", "null"),
    TEXT ("Hello!"), FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Again."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Hi");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  reasoning = find_reasoning (f);
  g_assert_nonnull (reasoning);
  g_assert_cmpstr (agui_reasoning_part_get_text (reasoning), ==, "The user greets me.");
  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "Hello!");

  g_clear_pointer (&state, agui_run_state_unref);
  state = send (f, "Once more");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  /* system, user, assistant, user: no reasoning message */
  g_assert_cmpuint (request_n_messages (f, 1), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 2), "content"), ==, "Hello!");
}

static void
test_think_tags (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;
  AguiReasoningPart *reasoning;

  g_test_summary ("A <think>…</think> opening the content, its tags split across chunks, is reasoning");

  agui_test_server_push_response (f->server, chunks (
    FIRST, TEXT ("<thi"), TEXT ("nk>Pondering"), TEXT (" a bit</th"), TEXT ("ink>\\n\\n"),
    TEXT ("Answer: use <think> tags."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Hi");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  reasoning = find_reasoning (f);
  g_assert_nonnull (reasoning);
  g_assert_cmpstr (agui_reasoning_part_get_text (reasoning), ==, "Pondering a bit");
  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "Answer: use <think> tags.");
}

static void
test_unauthorized (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A 401 fails the run with the server's words");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    401, "application/json",
    "{\"error\":{\"message\":\"Incorrect API key provided: sk-local.\",\"type\":\"invalid_request_error\","
    "\"param\":null,\"code\":\"invalid_api_key\"}}"));

  state = send (f, "Hi");
  assert_failed (state, "http_401", "Incorrect API key provided: sk-local.");
  g_assert_nonnull (strstr (agui_run_state_get_error_message (state), "401"));
}

static void
test_unknown_model (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("Ollama's 404 for a model it does not have is quoted");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    404, "application/json",
    "{\"error\":{\"message\":\"model \\\"qwen3:8b\\\" not found, try pulling it first\",\"type\":\"api_error\","
    "\"param\":null,\"code\":null}}"));

  state = send (f, "Hi");
  assert_failed (state, "http_404", "model \"qwen3:8b\" not found, try pulling it first");
}

static void
test_empty_error_body (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A proxy's bare 502 still says what happened");

  agui_test_server_push_response (f->server, agui_test_response_new_error (502, "text/plain", ""));

  state = send (f, "Hi");
  assert_failed (state, "http_502", "The model server answered HTTP 502");
}

static void
test_error_mid_stream (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;

  g_test_summary ("An error chunk mid-stream (llama.cpp, vLLM) fails the run with its message; "
                  "the text so far is kept");

  agui_test_server_push_response (f->server, chunks (
    FIRST, TEXT ("Once upon"),
    "{\"error\":{\"code\":500,\"message\":\"the request exceeds the available context size\",\"type\":\"exceed_context_size_error\"}}",
    NULL));

  state = send (f, "Tell a story");
  assert_failed (state, "exceed_context_size_error", "the request exceeds the available context size");
  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "Once upon");
}

static void
test_done_missing (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A stream that ends without [DONE] fails, and its tool calls do not run");

  agui_test_server_push_response (f->server, chunks (
    FIRST, CALL_START (0, "call_1", "get_current_time"), CALL_ARGS (0, "{}"), FINISH ("tool_calls"), NULL));

  state = send (f, "time");
  assert_failed (state, "stream", "[DONE]");
  g_assert_cmpuint (f->tool_arguments->len, ==, 0);
}

static void
test_cut_short (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  AguiTestResponse *response;

  g_test_summary ("A connection cut mid-chunk, mid tool call, fails the run and runs nothing");

  response = chunks (FIRST, CALL_START (0, "call_1", "get_current_time"), CALL_ARGS (0, "{\\\"time"), NULL);
  agui_test_response_append_data (response, "data: {\"id\":\"chatcmpl-7\",\"choi", -1);
  agui_test_server_push_response (f->server, response);

  state = send (f, "time");
  assert_failed (state, "stream", "before the answer was complete");
  g_assert_cmpuint (f->tool_arguments->len, ==, 0);
}

static void
test_length (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;

  g_test_summary ("finish_reason length says the answer was cut off");

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("The first of many"), FINISH ("length"), DONE, NULL));

  state = send (f, "Write a novel");
  assert_failed (state, "length", "cut off");
  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "The first of many");
}

static void
test_content_filter (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("finish_reason content_filter says the filter stopped the answer");

  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("Well"), FINISH ("content_filter"), DONE, NULL));

  state = send (f, "Hi");
  assert_failed (state, "content_filter", "content filter");
}

static void
test_long_answer (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *answer = NULL;
  AguiTestResponse *response = agui_test_response_new ();

  g_test_summary ("A very long answer, one word a chunk, arrives whole");

  agui_test_response_append_data (response, "data: " FIRST "\n\n", -1);
  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *word = g_strdup_printf ("w%u ", i);
      g_autofree char *frame = g_strdup_printf ("data: " CHUNK ("{\"content\":\"%s\"}", "null") "\n\n", word);

      g_string_append (expected, word);
      agui_test_response_append_data (response, frame, -1);
    }
  agui_test_response_append_data (response, "data: " FINISH ("stop") "\n\ndata: " USAGE "\n\ndata: [DONE]\n\n", -1);
  agui_test_server_push_response (f->server, response);

  state = send (f, "Count");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  answer = dup_last_answer (f);
  g_assert_cmpuint (strlen (answer), ==, expected->len);
  g_assert_cmpstr (answer, ==, expected->str);
}

static void
test_unknown_tool (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autofree char *answer = NULL;
  JsonObject *tool;

  g_test_summary ("A call to a tool the run did not offer gets an error result, and the model is "
                  "asked again in the same run");

  agui_test_server_push_response (f->server, chunks (
    FIRST, CALL_START (0, "call_x", "delete_everything"), CALL_ARGS (0, "{}"), FINISH ("tool_calls"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, TEXT ("I cannot do that."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Clean up");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 0);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);

  g_assert_cmpuint (request_n_messages (f, 1), ==, 4);
  tool = request_message (f, 1, 3);
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_x");
  g_assert_nonnull (strstr (json_object_get_string_member (tool, "content"), "no tool named “delete_everything”"));
  g_assert_nonnull (strstr (json_object_get_string_member (tool, "content"), "get_current_time"));

  answer = dup_last_answer (f);
  g_assert_cmpstr (answer, ==, "I cannot do that.");
}

static char *
dup_user_message_id (Fixture    *f,
                     const char *text)
{
  g_autoptr(JsonArray) messages = history (f);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member (message, "role"), "user") == 0 &&
          g_strcmp0 (json_object_get_string_member (message, "content"), text) == 0)
        return g_strdup (json_object_get_string_member (message, "id"));
    }

  return NULL;
}

static void
test_branches (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  GAsyncResult *result = NULL;

  g_test_summary ("Regenerate and edit send the model the chosen branch's history only");

  agui_test_server_push_response (f->server, chunks (TEXT ("One."), FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Two."), FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Two, again."), FINISH ("stop"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Hello to you."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Hi");
  g_clear_pointer (&state, agui_run_state_unref);
  state = send (f, "And then?");
  g_clear_pointer (&state, agui_run_state_unref);

  /* Regenerate the second answer: the history ends at its question. */
  first = dup_user_message_id (f, "And then?");
  agui_agent_session_regenerate_async (f->session, first, NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, SEND_DEADLINE_MS));
  state = agui_agent_session_regenerate_finish (f->session, result, &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_clear_pointer (&state, agui_run_state_unref);
  g_assert_cmpuint (request_n_messages (f, 2), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 2, 2), "content"), ==, "One.");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 2, 3), "content"), ==, "And then?");

  /* Edit the first question: only the system prompt and the new text. */
  g_free (first);
  first = dup_user_message_id (f, "Hi");
  agui_agent_session_edit_async (f->session, first, "Hello", NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, SEND_DEADLINE_MS));
  state = agui_agent_session_edit_finish (f->session, result, &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_cmpuint (request_n_messages (f, 3), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 3, 1), "content"), ==, "Hello");
}

static void
test_known_and_unknown_calls (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A known and an unknown call together: the unknown one is answered with an error, "
                  "the known one runs, and both answers go back on the follow-up");

  agui_test_server_push_response (f->server, chunks (
    FIRST, CALL_START (0, "call_ok", "get_current_time"), CALL_ARGS (0, "{}"),
    CALL_START (1, "call_bad", "format_disk"), CALL_ARGS (1, "{}"),
    FINISH ("tool_calls"), DONE, NULL));
  agui_test_server_push_response (f->server, chunks (TEXT ("Done."), FINISH ("stop"), DONE, NULL));

  state = send (f, "Go");
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 1);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (request_n_messages (f, 1), ==, 5);
  /* The agent answers the unknown call within the run; the desktop's
   * answer is folded once the run has ended, after it, as the reference
   * client places a frontend tool's answer */
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 3), "tool_call_id"), ==, "call_bad");
  g_assert_nonnull (strstr (json_object_get_string_member (request_message (f, 1, 3), "content"), "no tool named"));
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 4), "tool_call_id"), ==, "call_ok");
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 1, 4), "content"), ==, "12:00 UTC");
}

static gboolean
has_tool_call (gpointer data)
{
  Fixture *f = data;

  return agui_transcript_lookup_tool_call (agui_agent_session_get_transcript (f->session), "call_s") != NULL;
}

static void
test_stop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  AguiTestResponse *response;

  g_test_summary ("Stop cancels the request and runs no half-streamed tool call");

  response = chunks (FIRST, CALL_START (0, "call_s", "get_current_time"), CALL_ARGS (0, "{\\\"time"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  agui_agent_session_send_async (f->session, "time", NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for (has_tool_call, f, 10000));

  agui_agent_session_cancel (f->session);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  state = agui_agent_session_send_finish (f->session, result, &error);
  g_object_unref (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, 10000));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==, AGUI_TEST_EXCHANGE_DISCONNECTED);
  g_assert_cmpuint (f->tool_arguments->len, ==, 0);
}

static void
test_not_running (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A server that is not running fails the run saying so");

  agui_test_server_stop (f->server);
  state = send (f, "Hi");
  assert_failed (state, "connect", "is the model server running?");
}

static void
test_messages (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text_file = g_base64_encode ((const guchar *) "x = 1\n", 6);
  g_autofree char *json = NULL;
  GAsyncResult *result = NULL;
  JsonObject *system, *user, *assistant, *tool;
  JsonArray *parts;

  g_test_summary ("The conversation goes out as OpenAI messages: the context after the system prompt, "
                  "images as image_url data parts, text files inlined, tool calls and their results");

  json = g_strdup_printf (
    "{\"threadId\":\"t\",\"runId\":\"r\",\"state\":{},\"forwardedProps\":{},\"tools\":[],"
    "\"context\":[{\"description\":\"Today\",\"value\":\"Tuesday\"}],"
    "\"messages\":["
    "{\"id\":\"u1\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"What is this?\"},"
    "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBORw0K\",\"mimeType\":\"image/png\"}},"
    "{\"type\":\"document\",\"source\":{\"type\":\"data\",\"value\":\"%s\",\"mimeType\":\"text/x-python\"},"
    "\"metadata\":{\"filename\":\"a.py\"}}]},"
    "{\"id\":\"r1\",\"role\":\"reasoning\",\"content\":\"hmm\"},"
    "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\","
    "\"function\":{\"name\":\"get_current_time\",\"arguments\":\"\"}}]},"
    "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"noon\"}"
    "]}", text_file);
  input = json_from_string (json, &error);
  g_assert_no_error (error);

  agui_test_server_push_response (f->server, chunks (TEXT ("ok"), FINISH ("stop"), DONE, NULL));
  agui_transport_run_async (AGUI_TRANSPORT (f->agent), input, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  stream = agui_transport_run_finish (AGUI_TRANSPORT (f->agent), result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, 10000));

  g_assert_cmpuint (request_n_messages (f, 0), ==, 4);
  g_assert_false (json_object_has_member (agui_test_server_get_request_body (f->server, 0), "tools"));

  system = request_message (f, 0, 0);
  g_assert_cmpstr (json_object_get_string_member (system, "content"), ==,
                   "You are a helpful desktop assistant.\n\nToday: Tuesday");

  user = request_message (f, 0, 1);
  parts = json_object_get_array_member (user, "content");
  g_assert_cmpuint (json_array_get_length (parts), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (parts, 0), "text"), ==, "What is this?");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (parts, 1), "type"), ==, "image_url");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_array_get_object_element (parts, 1), "image_url"), "url"),
                   ==, "data:image/png;base64,iVBORw0K");
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (parts, 2), "text"), "“a.py”"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (parts, 2), "text"), "x = 1\n"));

  assistant = request_message (f, 0, 2);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (assistant, "content")));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_array_get_object_element (json_object_get_array_member (assistant, "tool_calls"), 0), "function"),
                     "arguments"), ==, "{}");

  tool = request_message (f, 0, 3);
  g_assert_cmpstr (json_object_get_string_member (tool, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "c1");
  g_assert_cmpstr (json_object_get_string_member (tool, "content"), ==, "noon");
}

static char **
list_models (Fixture  *f,
             GError  **error)
{
  GAsyncResult *result = NULL;
  char **models;

  agui_openai_agent_list_models_async (f->agent, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  models = agui_openai_agent_list_models_finish (f->agent, result, error);
  g_object_unref (result);

  return models;
}

static void
test_models (Fixture       *f,
             gconstpointer  data)
{
  g_auto(GStrv) models = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("GET /models lists the model ids, sorted; a refusal quotes the server");

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    200, "application/json",
    "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3:8b\",\"object\":\"model\",\"created\":1,\"owned_by\":\"library\"},"
    "{\"id\":\"llama3.2:latest\",\"object\":\"model\",\"created\":1,\"owned_by\":\"library\"}]}"));
  models = list_models (f, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (models), ==, 2);
  g_assert_cmpstr (models[0], ==, "llama3.2:latest");
  g_assert_cmpstr (models[1], ==, "qwen3:8b");
  g_assert_cmpstr (agui_test_server_get_request (f->server, 0)->method, ==, "GET");
  g_assert_true (g_str_has_suffix (agui_test_server_get_request (f->server, 0)->path, "/v1/models"));
  g_assert_cmpstr (soup_message_headers_get_one (agui_test_server_get_request (f->server, 0)->headers, "Authorization"),
                   ==, "Bearer sk-local");

  g_clear_pointer (&models, g_strfreev);
  agui_test_server_push_response (f->server, agui_test_response_new_error (
    401, "application/json", "{\"error\":{\"message\":\"Invalid token\",\"type\":\"invalid_request_error\"}}"));
  models = list_models (f, &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS);
  g_assert_nonnull (strstr (error->message, "Invalid token"));
  g_clear_error (&error);

  agui_test_server_push_response (f->server, agui_test_response_new_error (200, "text/html", "<html>router</html>"));
  models = list_models (f, &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  agui_test_server_stop (f->server);
  models = list_models (f, &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONNECT);
  g_assert_nonnull (strstr (error->message, "is the model server running?"));
}

static void
test_models_cancelled (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;
  GAsyncResult *result = NULL;
  AguiTestResponse *response = agui_test_response_new ();

  g_test_summary ("Listing the models can be cancelled");

  agui_test_response_set_headers_delay (response, 60000);
  agui_test_server_push_response (f->server, response);
  agui_openai_agent_list_models_async (f->agent, cancellable, agui_test_store_result_cb, &result);
  g_cancellable_cancel (cancellable);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  models = agui_openai_agent_list_models_finish (f->agent, result, &error);
  g_object_unref (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (models);
}

static void
test_configuration (void)
{
  g_autoptr(AguiOpenaiAgent) agent = NULL;
  g_autoptr(AguiOpenaiAgent) bad = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A base URL is checked, and one pasted with its endpoint or a slash is still the base");

  agent = agui_openai_agent_new ("http://localhost:11434/v1/chat/completions", "llama3.2", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agui_openai_agent_get_base_url (agent), ==, "http://localhost:11434/v1");
  g_assert_cmpstr (agui_openai_agent_get_model (agent), ==, "llama3.2");
  g_assert_cmpfloat (agui_openai_agent_get_temperature (agent), <, 0);
  g_assert_cmpuint (agui_openai_agent_get_idle_timeout (agent), ==, AGUI_OPENAI_DEFAULT_IDLE_TIMEOUT);
  g_clear_object (&agent);

  agent = agui_openai_agent_new ("http://localhost:8080/v1/", "m", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agui_openai_agent_get_base_url (agent), ==, "http://localhost:8080/v1");

  bad = agui_openai_agent_new ("localhost:11434", "m", &error);
  g_assert_null (bad);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG);
  g_clear_error (&error);

  bad = g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, &error,
                        "base-url", "http://localhost:1234/v1",
                        "model", "m",
                        "headers", (const char * const[]) { "no colon here", NULL },
                        NULL);
  g_assert_null (bad);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/agui/openai-agent/text", test_text);
  ADD ("/agui/openai-agent/tool-call-split", test_tool_call_split);
  ADD ("/agui/openai-agent/parallel-calls", test_parallel_calls);
  ADD ("/agui/openai-agent/whole-call-without-index", test_whole_call_without_index);
  ADD ("/agui/openai-agent/whole-json-answer", test_whole_json_answer);
  ADD ("/agui/openai-agent/reasoning-content", test_reasoning_content);
  ADD ("/agui/openai-agent/think-tags", test_think_tags);
  ADD ("/agui/openai-agent/unauthorized", test_unauthorized);
  ADD ("/agui/openai-agent/unknown-model", test_unknown_model);
  ADD ("/agui/openai-agent/empty-error-body", test_empty_error_body);
  ADD ("/agui/openai-agent/error-mid-stream", test_error_mid_stream);
  ADD ("/agui/openai-agent/done-missing", test_done_missing);
  ADD ("/agui/openai-agent/cut-short", test_cut_short);
  ADD ("/agui/openai-agent/length", test_length);
  ADD ("/agui/openai-agent/content-filter", test_content_filter);
  ADD ("/agui/openai-agent/long-answer", test_long_answer);
  ADD ("/agui/openai-agent/unknown-tool", test_unknown_tool);
  ADD ("/agui/openai-agent/known-and-unknown-calls", test_known_and_unknown_calls);
  ADD ("/agui/openai-agent/branches", test_branches);
  ADD ("/agui/openai-agent/stop", test_stop);
  ADD ("/agui/openai-agent/not-running", test_not_running);
  ADD ("/agui/openai-agent/messages", test_messages);
  ADD ("/agui/openai-agent/models", test_models);
  ADD ("/agui/openai-agent/models-cancelled", test_models_cancelled);
#undef ADD
  g_test_add_func ("/agui/openai-agent/configuration", test_configuration);

  return g_test_run ();
}
