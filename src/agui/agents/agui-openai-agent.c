/* agui-openai-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-openai-agent.h"
#include "agui-openai-chunk-reader-private.h"
#include "agui-openai-request-private.h"
#include "agui-util-private.h"

/**
 * AguiOpenaiAgent:
 *
 * An agent that lives inside the process and thinks with a model behind
 * an OpenAI-compatible server: Ollama, llama.cpp's `llama-server`, LM
 * Studio, vLLM, or any service that speaks `POST /chat/completions` with
 * `"stream": true`.
 *
 * It is a [iface@Agui.Transport] like any other: each run turns the
 * `RunAgentInput` into one streaming chat completion and the completion's
 * chunks into AG-UI events, so a session, its store and the app treat it
 * as they treat an agent over HTTP.
 *
 * - **The conversation** goes out as OpenAI messages: the system prompt
 *   ([property@Agui.OpenaiAgent:system-prompt], with the run's context
 *   after it), user messages (attached images as `image_url` data parts,
 *   text files inlined), assistant messages with their `tool_calls`, and
 *   tool results with their `tool_call_id`. Reasoning is not sent back.
 * - **The run's tools** (those a session declares, an
 *   [class@Agui.ToolRegistry]'s among them) are offered to the model as
 *   functions with their JSON Schema. A call the model makes streams as
 *   `TOOL_CALL_START`, `TOOL_CALL_ARGS` and, once the completion has ended
 *   cleanly, `TOOL_CALL_END`; the run then finishes and the session runs
 *   the tool and starts the follow-up run with its answer. A call to a
 *   tool the run did not declare is answered here with an error result,
 *   and when that was all the model asked for, the agent asks it again in
 *   the same run.
 * - **The answer** streams as `TEXT_MESSAGE_*`; `reasoning_content` (and
 *   Ollama's `reasoning`) and a `<think>…</think>` opening the content
 *   stream as `REASONING_*`.
 * - **The end**: `RUN_FINISHED` whose `result` keeps the model's name,
 *   the `finish_reason` and the `usage` the server reported. An answer cut
 *   off at the length limit (`length`) or by a content filter, a status
 *   outside 2xx, an error the server reports in the stream, a stream that
 *   breaks off or ends without `[DONE]` all end the run with `RUN_ERROR`,
 *   whose message quotes the server. Tool calls of an answer that did not
 *   end cleanly are never ended, so never run.
 *
 * Closing the run's [class@Agui.EventStream] (a person pressing Stop)
 * cancels the request.
 *
 * ```c
 * g_autoptr(AguiOpenaiAgent) agent = NULL;
 * g_autoptr(AguiAgentSession) session = NULL;
 * g_autoptr(GError) error = NULL;
 *
 * agent = agui_openai_agent_new ("http://localhost:11434/v1", "llama3.2", &error);
 * if (agent == NULL)
 *   g_printerr ("%s\n", error->message);
 * else
 *   session = agui_agent_session_new (AGUI_TRANSPORT (agent));
 * ```
 *
 * An API key goes in [property@Agui.OpenaiAgent:api-key]; other headers
 * in [property@Agui.OpenaiAgent:headers], as `Name: value` lines.
 */

#define COMPLETIONS_PATH "/chat/completions"
#define MODELS_PATH      "/models"
#define READ_SIZE        16384
#define ERROR_BODY_MAX   (64 * 1024)
#define MODELS_BODY_MAX  (8 * 1024 * 1024)
#define QUOTE_CHARS      300
/* Rounds of answering calls to tools that do not exist within one run,
 * before the model is taken to be stuck. */
#define MAX_UNKNOWN_ROUNDS 4

struct _AguiOpenaiAgent
{
  GObject       parent_instance;
  char         *base_url;
  char         *model;
  char        **header_lines;
  char         *api_key;
  char         *system_prompt;
  double        temperature;
  guint         idle_timeout;
  SoupSession  *session;
  GPtrArray    *headers;       /* alternating names and values */
  GError       *init_error;
  guint         initialized : 1;
};

static void agui_openai_agent_transport_iface_init (AguiTransportInterface *iface);
static void agui_openai_agent_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiOpenaiAgent, agui_openai_agent, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT,
                                                      agui_openai_agent_transport_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      agui_openai_agent_initable_iface_init))

enum {
  PROP_0,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_HEADERS,
  PROP_API_KEY,
  PROP_SYSTEM_PROMPT,
  PROP_TEMPERATURE,
  PROP_IDLE_TIMEOUT,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* One run: copies what it needs of the agent, so it goes on after the
 * agent is dropped, and ends when its stream ends. */
typedef struct
{
  SoupSession           *session;
  char                  *url;
  GPtrArray             *headers;
  AguiEventStream       *stream;
  GCancellable          *cancellable;   /* the stream's: closing it stops the run */
  char                  *thread_id;
  char                  *run_id;
  AguiJsonValue          request;       /* the body, in the compact tree */
  AguiJsonDocArray      *messages;      /* its "messages", borrowed */
  GHashTable            *declared;      /* tool names the run offers */
  AguiOpenaiChunkReader *reader;
  SoupMessage           *message;
  GInputStream          *body;
  GByteArray            *error_body;
  GByteArray            *whole_body;    /* an answer sent as one JSON object */
  guint                  rounds;
} Run;

static void
run_free (Run *run)
{
  g_clear_object (&run->session);
  g_free (run->url);
  g_clear_pointer (&run->headers, g_ptr_array_unref);
  g_clear_object (&run->stream);
  g_clear_object (&run->cancellable);
  g_free (run->thread_id);
  g_free (run->run_id);
  _agui_json_value_clear (&run->request);
  g_clear_pointer (&run->declared, g_hash_table_unref);
  g_clear_pointer (&run->reader, _agui_openai_chunk_reader_free);
  g_clear_object (&run->message);
  g_clear_object (&run->body);
  g_clear_pointer (&run->error_body, g_byte_array_unref);
  g_clear_pointer (&run->whole_body, g_byte_array_unref);
  g_free (run);
}

/* The server's own words from an error body: OpenAI's
 * `{"error":{"message":…}}`, Ollama's older `{"error":"…"}`, or the start
 * of whatever text it sent. */
static char *
dup_server_message (const guint8 *data,
                    gsize         length)
{
  g_autofree char *text = NULL;
  g_auto(AguiJsonValue) node = AGUI_JSON_VALUE_INIT;

  if (data == NULL || length == 0)
    return g_strdup ("");

  text = g_utf8_make_valid ((const char *) data, length);

  if (_agui_json_doc_parse (text, -1, &node, NULL) && node.kind == AGUI_JSON_DOC_OBJECT)
    {
      AguiJsonValue *error = _agui_json_doc_get_member (&node, "error");
      const char *message = NULL;

      if (error != NULL && error->kind == AGUI_JSON_DOC_OBJECT)
        message = _agui_json_doc_get_string (error, "message");
      else if (error != NULL)
        message = _agui_json_doc_get_string (&node, "error");
      if (message == NULL)
        message = _agui_json_doc_get_string (&node, "message") ?: _agui_json_doc_get_string (&node, "detail");
      if (message != NULL && message[0] != '\0')
        return g_strdup (message);
    }

  g_strstrip (text);
  if (g_utf8_strlen (text, -1) > QUOTE_CHARS)
    {
      g_autofree char *start = g_utf8_substring (text, 0, QUOTE_CHARS);

      return g_strconcat (start, "…", NULL);
    }

  return g_steal_pointer (&text);
}

/* Events */

static JsonObject *
string_members (const char *first_name,
                ...) G_GNUC_NULL_TERMINATED;

static JsonObject *
string_members (const char *first_name,
                ...)
{
  JsonObject *object = json_object_new ();
  va_list args;

  va_start (args, first_name);
  for (const char *name = first_name; name != NULL; name = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      if (value != NULL)
        json_object_set_string_member (object, name, value);
    }
  va_end (args);

  return object;
}

static void
run_push (Run           *run,
          AguiEventType  type,
          JsonObject    *members)
{
  g_autoptr(JsonObject) owned = members;
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  if (!(event = agui_event_new (type, g_steal_pointer (&owned), &error)))
    {
      g_critical ("The OpenAI agent built an invalid %s event: %s",
                  agui_event_type_to_string (type), error->message);
      return;
    }

  agui_event_stream_push_event (run->stream, event);
}

static void
on_reader_event (AguiEvent *event,
                 gpointer   user_data)
{
  Run *run = user_data;

  agui_event_stream_push_event (run->stream, event);
}

/* The run is over: @run is freed. */
static void
run_fail (Run        *run,
          const char *code,
          const char *message)
{
  run_push (run, AGUI_EVENT_RUN_ERROR, string_members ("message", message, "code", code, NULL));
  agui_event_stream_end (run->stream, NULL);
  run_free (run);
}

static void
run_stopped (Run *run)
{
  agui_event_stream_end (run->stream, NULL);
  run_free (run);
}

static void
run_succeed (Run *run)
{
  JsonObject *members = string_members ("threadId", run->thread_id ? run->thread_id : "", "runId", run->run_id, NULL);
  JsonObject *result = json_object_new ();
  const AguiJsonValue *usage = _agui_openai_chunk_reader_get_usage (run->reader);

  if (_agui_openai_chunk_reader_get_model (run->reader) != NULL)
    json_object_set_string_member (result, "model", _agui_openai_chunk_reader_get_model (run->reader));
  if (_agui_openai_chunk_reader_get_finish_reason (run->reader) != NULL)
    json_object_set_string_member (result, "finishReason", _agui_openai_chunk_reader_get_finish_reason (run->reader));
  /* The event's members are json-glib's: the usage becomes one here. */
  if (usage != NULL)
    json_object_set_member (result, "usage", _agui_json_value_to_node (usage));
  json_object_set_object_member (members, "result", result);

  run_push (run, AGUI_EVENT_RUN_FINISHED, members);
  agui_event_stream_end (run->stream, NULL);
  run_free (run);
}

/* Requests */

static void send_request (Run *run);

static void
run_read_error_body (Run *run);

static void
close_body (GInputStream *body)
{
  /* Closing a body before its end makes libsoup drop the connection
   * instead of reading the rest. */
  g_input_stream_close_async (body, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
}

/* After a clean answer: answer the calls to tools the run did not
 * offer, and ask again if that was all the model did. */
static void
run_answer_complete (Run *run)
{
  guint n_calls = _agui_openai_chunk_reader_get_n_tool_calls (run->reader);
  g_auto(AguiJsonValue) answers_value = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) assistant_value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *answers = _agui_json_value_set_array (&answers_value, 0);
  AguiJsonDocObject *assistant = _agui_json_value_set_object (&assistant_value, 3);
  AguiJsonDocArray *tool_calls;
  guint unknown = 0;

  _agui_json_doc_set_string (assistant, "role", "assistant");
  if (_agui_openai_chunk_reader_get_text (run->reader)[0] != '\0')
    _agui_json_doc_set_string (assistant, "content", _agui_openai_chunk_reader_get_text (run->reader));
  else
    _agui_json_doc_set_null (assistant, "content");
  tool_calls = _agui_json_doc_set_array (assistant, "tool_calls");

  for (guint i = 0; i < n_calls; i++)
    {
      const char *id, *name, *arguments;
      AguiJsonDocObject *call, *function;

      _agui_openai_chunk_reader_get_tool_call (run->reader, i, &id, &name, &arguments);

      call = _agui_json_doc_add_object (tool_calls);
      _agui_json_doc_set_string (call, "id", id);
      _agui_json_doc_set_string (call, "type", "function");
      function = _agui_json_doc_set_object (call, "function");
      _agui_json_doc_set_string (function, "name", name);
      _agui_json_doc_set_string (function, "arguments", arguments[0] ? arguments : "{}");

      if (!g_hash_table_contains (run->declared, name))
        {
          g_autofree char *message_id = g_uuid_string_random ();
          g_autofree char *content = NULL;
          g_autoptr(GString) available = g_string_new (NULL);
          GHashTableIter iter;
          const char *known;
          AguiJsonDocObject *tool_message;

          g_hash_table_iter_init (&iter, run->declared);
          while (g_hash_table_iter_next (&iter, (gpointer *) &known, NULL))
            g_string_append_printf (available, "%s%s", available->len ? ", " : "", known);

          content = g_strdup_printf ("Error: there is no tool named “%s”. %s%s",
                                     name,
                                     available->len ? "The tools you can call are: " : "No tools are available",
                                     available->len ? available->str : ".");
          run_push (run, AGUI_EVENT_TOOL_CALL_RESULT,
                    string_members ("messageId", message_id, "toolCallId", id,
                                    "content", content, "role", "tool", NULL));

          tool_message = _agui_json_doc_add_object (answers);
          _agui_json_doc_set_string (tool_message, "role", "tool");
          _agui_json_doc_set_string (tool_message, "tool_call_id", id);
          _agui_json_doc_set_string (tool_message, "content", content);
          unknown++;
        }
    }

  if (n_calls == 0 || unknown < n_calls)
    {
      /* Nothing was called, or the session has tools to run: its
       * follow-up carries every answer back. */
      run_succeed (run);
      return;
    }

  if (++run->rounds >= MAX_UNKNOWN_ROUNDS)
    {
      run_fail (run, "unknown_tool",
                "The model kept calling tools that do not exist; try again, or a model that is better at tools");
      return;
    }

  _agui_json_array_insert (run->messages, _agui_json_array_get_length (run->messages), &assistant_value);
  while (_agui_json_array_get_length (answers) > 0)
    {
      AguiJsonValue answer = AGUI_JSON_VALUE_INIT;

      _agui_json_array_remove (answers, 0, &answer);
      _agui_json_array_insert (run->messages, _agui_json_array_get_length (run->messages), &answer);
    }

  g_clear_pointer (&run->reader, _agui_openai_chunk_reader_free);
  send_request (run);
}

static void
run_answer_failed (Run          *run,
                   const GError *error)
{
  const char *code = _agui_openai_chunk_reader_get_error_code (run->reader);

  run_fail (run, code ? code : "stream", error->message);
}

static void read_next (Run *run);

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (bytes == NULL)
    {
      g_autoptr(GError) finish_error = NULL;
      g_autofree char *message = NULL;

      if (g_cancellable_is_cancelled (run->cancellable))
        {
          run_stopped (run);
          return;
        }

      /* The answer so far is kept; its tool calls are not run. */
      _agui_openai_chunk_reader_finish (run->reader, &finish_error);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        message = g_strdup_printf ("The model server stopped sending before the answer was complete: "
                                   "nothing arrived for %u s (the idle timeout)",
                                   soup_session_get_timeout (run->session));
      else
        message = g_strdup_printf ("The connection to the model server broke before the answer was complete: %s",
                                   error->message);
      run_fail (run, "stream", message);
      return;
    }

  if (run->whole_body != NULL && g_bytes_get_size (bytes) > 0)
    {
      if (run->whole_body->len + g_bytes_get_size (bytes) > MODELS_BODY_MAX)
        {
          close_body (run->body);
          run_fail (run, "stream", "The model server's answer is larger than 8 MiB");
          return;
        }
      g_byte_array_append (run->whole_body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      read_next (run);
      return;
    }

  /* A server that ignored "stream" answered with the whole completion:
   * its `message` is read as one chunk that ends the answer. */
  if (run->whole_body != NULL &&
      (!_agui_openai_chunk_reader_push_frame (run->reader, (const char *) run->whole_body->data,
                                              run->whole_body->len, &error) ||
       !_agui_openai_chunk_reader_push_frame (run->reader, "[DONE]", strlen ("[DONE]"), &error)))
    {
      close_body (run->body);
      _agui_openai_chunk_reader_finish (run->reader, NULL);
      run_answer_failed (run, error);
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      close_body (run->body);
      if (!_agui_openai_chunk_reader_finish (run->reader, &error))
        run_answer_failed (run, error);
      else
        run_answer_complete (run);
      return;
    }

  if (!_agui_openai_chunk_reader_push_bytes (run->reader, g_bytes_get_data (bytes, NULL),
                                             g_bytes_get_size (bytes), &error))
    {
      close_body (run->body);
      _agui_openai_chunk_reader_finish (run->reader, NULL);
      run_answer_failed (run, error);
      return;
    }

  read_next (run);
}

static void
read_next (Run *run)
{
  g_input_stream_read_bytes_async (run->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   run->cancellable, on_read_cb, run);
}

static void
on_error_body_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *server = NULL;
  g_autofree char *message = NULL;
  g_autofree char *code = NULL;
  guint status;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (bytes == NULL && g_cancellable_is_cancelled (run->cancellable))
    {
      run_stopped (run);
      return;
    }

  if (bytes != NULL && g_bytes_get_size (bytes) > 0 && run->error_body->len < ERROR_BODY_MAX)
    {
      g_byte_array_append (run->error_body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      run_read_error_body (run);
      return;
    }

  close_body (run->body);
  status = soup_message_get_status (run->message);
  server = dup_server_message (run->error_body->data, run->error_body->len);
  code = g_strdup_printf ("http_%u", status);

  if (server[0] != '\0')
    message = g_strdup_printf ("The model server answered HTTP %u %s: %s", status,
                               soup_message_get_reason_phrase (run->message) ?: "", server);
  else
    message = g_strdup_printf ("The model server answered HTTP %u %s", status,
                               soup_message_get_reason_phrase (run->message) ?: "");
  run_fail (run, code, message);
}

static void
run_read_error_body (Run *run)
{
  g_input_stream_read_bytes_async (run->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   run->cancellable, on_error_body_cb, run);
}

static char *
dup_connect_message (const char   *url,
                     const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    return g_strdup_printf ("Nothing answers at %s: is the model server running? (%s)", url, error->message);

  return g_strdup_printf ("Could not reach the model server at %s: %s", url, error->message);
}

static void
on_send_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;
  guint status;

  g_clear_object (&run->body);
  run->body = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (run->body == NULL)
    {
      g_autofree char *message = NULL;

      if (g_cancellable_is_cancelled (run->cancellable))
        {
          run_stopped (run);
          return;
        }

      message = dup_connect_message (run->url, error);
      run_fail (run, "connect", message);
      return;
    }

  status = soup_message_get_status (run->message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_clear_pointer (&run->error_body, g_byte_array_unref);
      run->error_body = g_byte_array_new ();
      run_read_error_body (run);
      return;
    }

  run->reader = _agui_openai_chunk_reader_new (on_reader_event, run);
  g_clear_pointer (&run->whole_body, g_byte_array_unref);
  if (g_strcmp0 (soup_message_headers_get_content_type (soup_message_get_response_headers (run->message), NULL),
                 "application/json") == 0)
    run->whole_body = g_byte_array_new ();
  read_next (run);
}

static void
add_headers (SoupMessage *message,
             GPtrArray   *headers)
{
  SoupMessageHeaders *request_headers = soup_message_get_request_headers (message);

  for (guint i = 0; i + 1 < headers->len; i += 2)
    soup_message_headers_replace (request_headers,
                                  g_ptr_array_index (headers, i),
                                  g_ptr_array_index (headers, i + 1));
}

static void
send_request (Run *run)
{
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!(text = _agui_json_value_to_string (&run->request, FALSE, &error)))
    {
      g_autofree char *message = g_strdup_printf ("The conversation cannot be sent to the model: %s", error->message);

      run_fail (run, "request", message);
      return;
    }

  body = g_bytes_new_take (text, strlen (text));
  text = NULL;

  g_clear_object (&run->message);
  run->message = soup_message_new (SOUP_METHOD_POST, run->url);
  soup_message_set_request_body_from_bytes (run->message, "application/json", body);
  add_headers (run->message, run->headers);
  soup_message_headers_replace (soup_message_get_request_headers (run->message),
                                "Accept", "text/event-stream");

  soup_session_send_async (run->session, run->message, G_PRIORITY_DEFAULT, run->cancellable,
                           on_send_cb, run);
}

/* The transport */

static void
agui_openai_agent_run_async (AguiTransport       *transport,
                             JsonNode            *input_node,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (transport);
  JsonObject *input = json_node_get_object (input_node);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(AguiJsonValue) tools = AGUI_JSON_VALUE_INIT;
  g_autofree char *run_id = NULL;
  AguiJsonDocObject *request;
  Run *run;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_openai_agent_run_async);

  if (!g_initable_init (G_INITABLE (self), NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  run = g_new0 (Run, 1);
  run->session = g_object_ref (self->session);
  run->url = g_strconcat (self->base_url, COMPLETIONS_PATH, NULL);
  run->headers = g_ptr_array_ref (self->headers);
  run->stream = agui_event_stream_new ();
  run->cancellable = g_object_ref (agui_event_stream_get_cancellable (run->stream));
  run->thread_id = g_strdup (_agui_json_object_get_string (input, "threadId"));
  run_id = g_uuid_string_random ();
  run->run_id = g_strdup (_agui_json_object_get_string (input, "runId") ?: run_id);
  run->declared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* The members in the order the body has always had them (json-glib's
   * hash order, when the body was a JsonObject copied member by member),
   * so that what a server is sent stays byte for byte the same. */
  request = _agui_json_value_set_object (&run->request, 6);
  if (self->temperature >= 0)
    _agui_json_doc_set_double (request, "temperature", self->temperature);
  _agui_openai_convert_tools (input, run->declared, _agui_json_value_set_array (&tools, 0));
  if (_agui_json_doc_get_length (&tools) > 0)
    _agui_json_object_append (request, "tools", &tools);
  _agui_json_doc_set_string (request, "model", self->model);
  _agui_json_doc_set_boolean (request, "stream", TRUE);
  /* The usage comes in a last chunk of its own. */
  _agui_json_doc_set_boolean (_agui_json_doc_set_object (request, "stream_options"), "include_usage", TRUE);
  run->messages = _agui_json_doc_set_array (request, "messages");
  _agui_openai_convert_messages (self->system_prompt, input, run->messages);

  run_push (run, AGUI_EVENT_RUN_STARTED,
            string_members ("threadId", run->thread_id ? run->thread_id : "", "runId", run->run_id, NULL));

  g_task_set_task_data (task, g_object_ref (run->stream), g_object_unref);
  g_task_return_pointer (task, g_object_ref (run->stream), g_object_unref);

  send_request (run);
}

static AguiEventStream *
agui_openai_agent_run_finish (AguiTransport  *transport,
                              GAsyncResult   *result,
                              GError        **error)
{
  AguiEventStream *stream;

  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);

  stream = g_task_propagate_pointer (G_TASK (result), error);

  /* Cancelled after the run was set up but before its stream was taken:
   * nobody will read it, so stop the request. */
  if (stream == NULL && g_task_get_task_data (G_TASK (result)) != NULL)
    agui_event_stream_close (g_task_get_task_data (G_TASK (result)));

  return stream;
}

static void
agui_openai_agent_transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_openai_agent_run_async;
  iface->run_finish = agui_openai_agent_run_finish;
}

/* Configuration */

static gboolean
parse_header (const char  *line,
              char       **name,
              char       **value)
{
  const char *colon = strchr (line, ':');
  g_autofree char *n = NULL;

  if (colon == NULL || colon == line || strpbrk (line, "\r\n") != NULL)
    return FALSE;

  n = g_strstrip (g_strndup (line, colon - line));
  if (n[0] == '\0')
    return FALSE;
  for (const char *p = n; *p; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;

  *value = g_strstrip (g_strdup (colon + 1));
  *name = g_steal_pointer (&n);

  return TRUE;
}

static gboolean
check_configuration (AguiOpenaiAgent  *self,
                     GError          **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (self->base_url == NULL || self->base_url[0] == '\0')
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                           "An OpenAI-compatible agent needs the server's base URL, "
                           "such as http://localhost:11434/v1");
      return FALSE;
    }

  if (!(uri = g_uri_parse (self->base_url, SOUP_HTTP_URI_FLAGS, NULL)) ||
      (scheme = g_uri_get_scheme (uri)) == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not an http or https URL; a model server's base URL looks like "
                   "http://localhost:11434/v1", self->base_url);
      return FALSE;
    }

  for (guint i = 0; self->header_lines != NULL && self->header_lines[i] != NULL; i++)
    {
      char *name = NULL, *value = NULL;

      if (!parse_header (self->header_lines[i], &name, &value))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                       "“%s” is not a header: write it as “Name: value”", self->header_lines[i]);
          return FALSE;
        }
      g_ptr_array_add (self->headers, name);
      g_ptr_array_add (self->headers, value);
    }

  if (self->api_key != NULL && self->api_key[0] != '\0')
    {
      if (strpbrk (self->api_key, "\r\n") != NULL)
        {
          g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                               "The API key holds a line break; paste it again");
          return FALSE;
        }
      g_ptr_array_add (self->headers, g_strdup ("Authorization"));
      g_ptr_array_add (self->headers, g_strconcat ("Bearer ", self->api_key, NULL));
    }

  return TRUE;
}

static gboolean
agui_openai_agent_initable_init (GInitable     *initable,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (initable);

  if (!self->initialized)
    {
      self->initialized = TRUE;
      if (!check_configuration (self, &self->init_error))
        g_ptr_array_set_size (self->headers, 0);
    }

  if (self->init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->init_error));
      return FALSE;
    }

  return TRUE;
}

static void
agui_openai_agent_initable_iface_init (GInitableIface *iface)
{
  iface->init = agui_openai_agent_initable_init;
}

/* Models */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
on_models_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SoupMessage *message = g_task_get_task_data (task);
  AguiOpenaiAgent *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(AguiJsonValue) node = AGUI_JSON_VALUE_INIT;
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *url = g_strconcat (self->base_url, MODELS_PATH, NULL);
  AguiJsonValue *data;
  gsize length;
  const guint8 *raw;
  guint status;

  if (!(bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error)))
    {
      g_autofree char *text = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      text = dup_connect_message (self->base_url, error);
      g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_CONNECT, "%s", text);
      return;
    }

  raw = g_bytes_get_data (bytes, &length);
  status = soup_message_get_status (message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *server = dup_server_message (raw, MIN (length, ERROR_BODY_MAX));

      g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS,
                               "The model server answered HTTP %u %s to %s%s%s", status,
                               soup_message_get_reason_phrase (message) ?: "", url,
                               server[0] ? ": " : "", server);
      return;
    }

  if (length > MODELS_BODY_MAX ||
      !_agui_json_doc_parse ((const char *) raw, length, &node, NULL) ||
      !(data = _agui_json_doc_get_array (&node, "data")))
    {
      g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_UNSUPPORTED,
                               "%s is not a list of models: is %s the base URL of an "
                               "OpenAI-compatible server (it usually ends in /v1)?",
                               url, self->base_url);
      return;
    }

  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < _agui_json_doc_get_length (data); i++)
    {
      const char *id;

      if ((id = _agui_json_doc_get_string (_agui_json_doc_get_element (data, i), "id")))
        g_ptr_array_add (names, g_strdup (id));
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  g_task_return_pointer (task, g_ptr_array_steal (names, NULL), (GDestroyNotify) g_strfreev);
}

/**
 * agui_openai_agent_list_models_async:
 * @self: an agent
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the list
 * @user_data: data for @callback
 *
 * Asks the server which models it offers (`GET /models`), to choose
 * [property@Agui.OpenaiAgent:model] from.
 */
void
agui_openai_agent_list_models_async (AguiOpenaiAgent     *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  SoupMessage *message;

  g_return_if_fail (AGUI_IS_OPENAI_AGENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_openai_agent_list_models_async);

  if (!g_initable_init (G_INITABLE (self), NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  url = g_strconcat (self->base_url, MODELS_PATH, NULL);
  message = soup_message_new (SOUP_METHOD_GET, url);
  add_headers (message, self->headers);
  g_task_set_task_data (task, message, g_object_unref);

  soup_session_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, cancellable,
                                    on_models_cb, g_steal_pointer (&task));
}

/**
 * agui_openai_agent_list_models_finish:
 * @self: an agent
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * A server that is not running fails with %AGUI_ERROR_CONNECT, one that
 * refuses (a wrong API key) with %AGUI_ERROR_HTTP_STATUS quoting it.
 *
 * Returns: (transfer full) (nullable): the model ids, sorted
 */
char **
agui_openai_agent_list_models_finish (AguiOpenaiAgent  *self,
                                      GAsyncResult     *result,
                                      GError          **error)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The object */

static void
agui_openai_agent_constructed (GObject *object)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (object);

  G_OBJECT_CLASS (agui_openai_agent_parent_class)->constructed (object);

  /* A base URL pasted with its endpoint, or with a slash, is still the base. */
  if (self->base_url != NULL)
    {
      g_strstrip (self->base_url);
      if (g_str_has_suffix (self->base_url, COMPLETIONS_PATH))
        self->base_url[strlen (self->base_url) - strlen (COMPLETIONS_PATH)] = '\0';
      while (g_str_has_suffix (self->base_url, "/"))
        self->base_url[strlen (self->base_url) - 1] = '\0';
    }

  if (self->session == NULL)
    self->session = g_object_new (SOUP_TYPE_SESSION,
                                  "timeout", (self->idle_timeout + 999) / 1000,
                                  NULL);
}

static void
agui_openai_agent_finalize (GObject *object)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (object);

  g_free (self->base_url);
  g_free (self->model);
  g_strfreev (self->header_lines);
  g_free (self->api_key);
  g_free (self->system_prompt);
  g_clear_object (&self->session);
  g_clear_pointer (&self->headers, g_ptr_array_unref);
  g_clear_error (&self->init_error);

  G_OBJECT_CLASS (agui_openai_agent_parent_class)->finalize (object);
}

static void
agui_openai_agent_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (object);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_HEADERS:
      g_value_set_boxed (value, self->header_lines);
      break;

    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;

    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;

    case PROP_IDLE_TIMEOUT:
      g_value_set_uint (value, self->idle_timeout);
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_openai_agent_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  AguiOpenaiAgent *self = AGUI_OPENAI_AGENT (object);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      self->base_url = g_value_dup_string (value);
      break;

    case PROP_MODEL:
      self->model = g_value_dup_string (value);
      break;

    case PROP_HEADERS:
      self->header_lines = g_value_dup_boxed (value);
      break;

    case PROP_API_KEY:
      self->api_key = g_value_dup_string (value);
      break;

    case PROP_SYSTEM_PROMPT:
      agui_openai_agent_set_system_prompt (self, g_value_get_string (value));
      break;

    case PROP_TEMPERATURE:
      agui_openai_agent_set_temperature (self, g_value_get_double (value));
      break;

    case PROP_IDLE_TIMEOUT:
      self->idle_timeout = g_value_get_uint (value);
      break;

    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_openai_agent_class_init (AguiOpenaiAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agui_openai_agent_constructed;
  object_class->finalize = agui_openai_agent_finalize;
  object_class->get_property = agui_openai_agent_get_property;
  object_class->set_property = agui_openai_agent_set_property;

  /**
   * AguiOpenaiAgent:base-url:
   *
   * The server's base URL, the part before `/chat/completions`:
   * `http://localhost:11434/v1` for Ollama, `http://localhost:8080/v1`
   * for llama.cpp, `http://localhost:1234/v1` for LM Studio.
   */
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:model:
   *
   * The model to ask, as the server names it (see
   * [method@Agui.OpenaiAgent.list_models_async]).
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:headers:
   *
   * Extra request headers, each a `Name: value` line.
   */
  properties[PROP_HEADERS] =
    g_param_spec_boxed ("headers", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:api-key:
   *
   * The API key, sent as `Authorization: Bearer` (local servers need none).
   * It can be set but never read back.
   */
  properties[PROP_API_KEY] =
    g_param_spec_string ("api-key", NULL, NULL, NULL,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:system-prompt:
   *
   * What the model is told before the conversation, as its system message.
   */
  properties[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:temperature:
   *
   * The sampling temperature, from 0 to 2; below 0 the server's own default.
   */
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, -1.0, 2.0, -1.0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:idle-timeout:
   *
   * How long, in milliseconds, the server may send nothing before the run
   * fails; 0 waits forever. It applies to the agent's own
   * [class@Soup.Session] only.
   */
  properties[PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL, 0, G_MAXUINT, AGUI_OPENAI_DEFAULT_IDLE_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiOpenaiAgent:session:
   *
   * The [class@Soup.Session] requests go through; by default one of the
   * agent's own.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SOUP_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_openai_agent_init (AguiOpenaiAgent *self)
{
  self->temperature = -1.0;
  self->idle_timeout = AGUI_OPENAI_DEFAULT_IDLE_TIMEOUT;
  self->headers = g_ptr_array_new_with_free_func (g_free);
}

/**
 * agui_openai_agent_new:
 * @base_url: the server's base URL, such as `http://localhost:11434/v1`
 * @model: the model to ask
 * @error: return location for a #GError
 *
 * Creates an agent and checks its configuration.
 *
 * Returns: (transfer full) (nullable): the agent, or %NULL with
 *   %AGUI_ERROR_CONFIG when @base_url is not an http or https URL
 */
AguiOpenaiAgent *
agui_openai_agent_new (const char  *base_url,
                       const char  *model,
                       GError     **error)
{
  return g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, error,
                         "base-url", base_url,
                         "model", model,
                         NULL);
}

/**
 * agui_openai_agent_get_base_url:
 * @self: an agent
 *
 * Returns: (nullable): the base URL, without a trailing slash
 */
const char *
agui_openai_agent_get_base_url (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), NULL);

  return self->base_url;
}

/**
 * agui_openai_agent_get_model:
 * @self: an agent
 *
 * Returns: (nullable): the model asked
 */
const char *
agui_openai_agent_get_model (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), NULL);

  return self->model;
}

/**
 * agui_openai_agent_dup_headers:
 * @self: an agent
 *
 * Returns: (transfer full) (nullable): the extra header lines
 */
char **
agui_openai_agent_dup_headers (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), NULL);

  return g_strdupv (self->header_lines);
}

/**
 * agui_openai_agent_get_system_prompt:
 * @self: an agent
 *
 * Returns: (nullable): the system prompt
 */
const char *
agui_openai_agent_get_system_prompt (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), NULL);

  return self->system_prompt;
}

/**
 * agui_openai_agent_set_system_prompt:
 * @self: an agent
 * @system_prompt: (nullable): what the model is told first
 *
 * Sets the system prompt of the runs that start from now on.
 */
void
agui_openai_agent_set_system_prompt (AguiOpenaiAgent *self,
                                     const char      *system_prompt)
{
  g_return_if_fail (AGUI_IS_OPENAI_AGENT (self));

  if (_agui_set_str (&self->system_prompt, system_prompt))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM_PROMPT]);
}

/**
 * agui_openai_agent_get_temperature:
 * @self: an agent
 *
 * Returns: the temperature, below 0 for the server's default
 */
double
agui_openai_agent_get_temperature (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), -1.0);

  return self->temperature;
}

/**
 * agui_openai_agent_set_temperature:
 * @self: an agent
 * @temperature: from 0 to 2, or below 0 for the server's default
 *
 * Sets the sampling temperature of the runs that start from now on.
 */
void
agui_openai_agent_set_temperature (AguiOpenaiAgent *self,
                                   double           temperature)
{
  g_return_if_fail (AGUI_IS_OPENAI_AGENT (self));

  temperature = temperature < 0 ? -1.0 : MIN (temperature, 2.0);
  if (self->temperature == temperature)
    return;

  self->temperature = temperature;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPERATURE]);
}

/**
 * agui_openai_agent_get_idle_timeout:
 * @self: an agent
 *
 * Returns: the idle timeout in milliseconds, 0 for none
 */
guint
agui_openai_agent_get_idle_timeout (AguiOpenaiAgent *self)
{
  g_return_val_if_fail (AGUI_IS_OPENAI_AGENT (self), 0);

  return self->idle_timeout;
}
