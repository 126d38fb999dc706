/* agui-test-server.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* A loopback AG-UI agent for tests: a SoupServer on 127.0.0.1 that answers
 * each POST with the next scripted response, records what it was sent, and
 * misbehaves on request (drips, stalls, slow headers, dropped connections)
 * so that transports can be tested over real HTTP. Everything runs on the
 * thread-default main context; a test iterates it. */

#include "config.h"

#include <string.h>

#include "agui-test-proto.h"
#include "agui-test-server.h"

/* How often a response that is not being written looks for a client that
 * went away: a paused SoupServerMessage reads nothing, so libsoup would
 * only notice at its next write. */
#define WATCH_INTERVAL_MS 10

typedef enum
{
  STEP_DATA,
  STEP_STALL,
  STEP_RESET,
  STEP_MESSAGES_SNAPSHOT,
} StepKind;

typedef struct
{
  StepKind  kind;
  GBytes   *data;
  guint     milliseconds;
} Step;

struct _AguiTestResponse
{
  guint      status;
  char      *content_type;
  GPtrArray *header_names;
  GPtrArray *header_values;
  GArray    *steps;
  guint      headers_delay;
  guint      chunk_interval;
  guint      drip;
};

typedef struct
{
  AguiTestServer    *server;
  SoupServerMessage *msg;
  AguiTestResponse  *response;
  guint              index;
  guint              step;
  gsize              offset;
  gsize              bytes_appended;
  guint              timeout_id;
  guint              watch_id;
  gulong             wrote_body_data_id;
  gulong             wrote_body_id;
  gulong             finished_id;
  guint              reset_pending : 1;
  guint              wrote_body : 1;
} Exchange;

struct _AguiTestServer
{
  GObject     parent_instance;
  SoupServer *server;
  char       *url;
  guint       port;
  GQueue      responses;
  GPtrArray  *requests;
  GPtrArray  *exchanges;
};

G_DEFINE_FINAL_TYPE (AguiTestServer, agui_test_server, G_TYPE_OBJECT)

enum {
  REQUEST_RECEIVED,
  RESPONSE_ENDED,
  CLIENT_DISCONNECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void exchange_advance (Exchange *exchange);

/* Responses */

static void
step_clear (Step *step)
{
  g_clear_pointer (&step->data, g_bytes_unref);
}

AguiTestResponse *
agui_test_response_new (void)
{
  AguiTestResponse *self = g_new0 (AguiTestResponse, 1);

  self->status = SOUP_STATUS_OK;
  self->content_type = g_strdup ("text/event-stream");
  self->header_names = g_ptr_array_new_with_free_func (g_free);
  self->header_values = g_ptr_array_new_with_free_func (g_free);
  self->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  g_array_set_clear_func (self->steps, (GDestroyNotify) step_clear);

  return self;
}

/* One `data: <json>` frame per argument, then nothing more: a script
 * that wants RUN_FINISHED says so. */
AguiTestResponse *
agui_test_response_new_events (const char *first_json,
                               ...)
{
  AguiTestResponse *self = agui_test_response_new ();
  va_list args;

  va_start (args, first_json);
  for (const char *json = first_json; json != NULL; json = va_arg (args, const char *))
    agui_test_response_append_event_json (self, json);
  va_end (args);

  return self;
}

AguiTestResponse *
agui_test_response_new_error (guint       status,
                              const char *content_type,
                              const char *body)
{
  AguiTestResponse *self = agui_test_response_new ();

  agui_test_response_set_status (self, status);
  agui_test_response_set_content_type (self, content_type);
  if (body != NULL)
    agui_test_response_append_data (self, body, -1);

  return self;
}

/* A redirect, for the transport's tests of which ones it follows and
 * what it carries along. */
AguiTestResponse *
agui_test_response_new_redirect (guint       status,
                                 const char *location)
{
  AguiTestResponse *self = agui_test_response_new_error (status, NULL, NULL);

  agui_test_response_add_header (self, "Location", location);

  return self;
}

void
agui_test_response_free (AguiTestResponse *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->content_type, g_free);
  g_clear_pointer (&self->header_names, g_ptr_array_unref);
  g_clear_pointer (&self->header_values, g_ptr_array_unref);
  g_clear_pointer (&self->steps, g_array_unref);
  g_free (self);
}

void
agui_test_response_set_status (AguiTestResponse *self,
                               guint             status)
{
  g_return_if_fail (self != NULL);

  self->status = status;
}

/* NULL sends no Content-Type at all. */
void
agui_test_response_set_content_type (AguiTestResponse *self,
                                     const char       *content_type)
{
  g_return_if_fail (self != NULL);

  g_free (self->content_type);
  self->content_type = g_strdup (content_type);
}

void
agui_test_response_add_header (AguiTestResponse *self,
                               const char       *name,
                               const char       *value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL && value != NULL);

  g_ptr_array_add (self->header_names, g_strdup (name));
  g_ptr_array_add (self->header_values, g_strdup (value));
}

/* Delays the status line and headers: a slow first byte. */
void
agui_test_response_set_headers_delay (AguiTestResponse *self,
                                      guint             milliseconds)
{
  g_return_if_fail (self != NULL);

  self->headers_delay = milliseconds;
}

/* Waits this long between two data steps, after the headers. */
void
agui_test_response_set_chunk_interval (AguiTestResponse *self,
                                       guint             milliseconds)
{
  g_return_if_fail (self != NULL);

  self->chunk_interval = milliseconds;
}

/* Writes the body one byte at a time, this long apart; 0 turns it off. */
void
agui_test_response_set_drip (AguiTestResponse *self,
                             guint             milliseconds)
{
  g_return_if_fail (self != NULL);

  self->drip = milliseconds;
}

void
agui_test_response_append_data (AguiTestResponse *self,
                                const void       *data,
                                gssize            length)
{
  Step step = { STEP_DATA, NULL, 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || length == 0);

  if (length < 0)
    length = strlen (data);
  step.data = g_bytes_new (data, length);
  g_array_append_val (self->steps, step);
}

void
agui_test_response_append_event_json (AguiTestResponse *self,
                                      const char       *json)
{
  g_autofree char *frame = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (json != NULL);

  frame = g_strdup_printf ("data: %s\n\n", json);
  agui_test_response_append_data (self, frame, -1);
}

void
agui_test_response_append_event (AguiTestResponse *self,
                                 AguiEvent        *event)
{
  g_autofree char *json = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);

  json = agui_event_to_string (event);
  agui_test_response_append_event_json (self, json);
}

/* One event in the binary encoding; the test fails if it has none. */
void
agui_test_response_append_proto_event (AguiTestResponse *self,
                                       const char       *json)
{
  g_autoptr(GByteArray) frame = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (json != NULL);

  if (!agui_test_proto_append_json (frame, json, &error))
    g_error ("%s has no binary form: %s", json, error->message);
  agui_test_response_append_data (self, frame->data, frame->len);
}

/* A run in the binary encoding, as an @ag-ui/encoder server answers a
 * client whose Accept admits it. */
AguiTestResponse *
agui_test_response_new_proto_events (const char *first_json,
                                     ...)
{
  AguiTestResponse *self = agui_test_response_new ();
  va_list args;

  agui_test_response_set_content_type (self, "application/vnd.ag-ui.event+proto");
  va_start (args, first_json);
  for (const char *json = first_json; json != NULL; json = va_arg (args, const char *))
    agui_test_response_append_proto_event (self, json);
  va_end (args);

  return self;
}

/* Stops writing for a while, or with AGUI_TEST_STALL_FOREVER until the
 * client goes away or the test opens the gate with
 * agui_test_server_resume(). */
void
agui_test_response_append_stall (AguiTestResponse *self,
                                 guint             milliseconds)
{
  Step step = { STEP_STALL, NULL, milliseconds };

  g_return_if_fail (self != NULL);

  g_array_append_val (self->steps, step);
}

/* Once everything before it has been written, drops the connection in
 * the middle of a chunk: the client sees the body break off. */
void
agui_test_response_append_reset (AguiTestResponse *self)
{
  Step step = { STEP_RESET, NULL, 0 };

  g_return_if_fail (self != NULL);

  g_array_append_val (self->steps, step);
}

/* A MESSAGES_SNAPSHOT made when it is written: the messages the request
 * sent, then @messages_json (a JSON array of the messages the run added),
 * as an agent that keeps no history of its own (@ag-ui/aws-strands)
 * builds one. */
void
agui_test_response_append_messages_snapshot (AguiTestResponse *self,
                                             const char       *messages_json)
{
  Step step = { STEP_MESSAGES_SNAPSHOT, NULL, 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (messages_json != NULL);

  step.data = g_bytes_new (messages_json, strlen (messages_json));
  g_array_append_val (self->steps, step);
}

/* A run shaped as @ag-ui/aws-strands answers when the model calls a
 * frontend tool: the call, and right after its TOOL_CALL_END (at once or
 * @snapshot_delay_ms later) a MESSAGES_SNAPSHOT of the request's messages
 * and the assistant message holding the call, which cannot know the
 * client's answer; then the run ends. */
AguiTestResponse *
agui_test_response_new_strands_tool_call (const char *run_id,
                                          const char *tool_call_id,
                                          const char *tool_name,
                                          const char *arguments_json,
                                          guint       snapshot_delay_ms)
{
  AguiTestResponse *self = agui_test_response_new ();
  g_autofree char *message_id = g_strdup_printf ("%s-message", tool_call_id);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) event = NULL;
  g_autoptr(JsonNode) messages = NULL;
  g_autofree char *text = NULL;

  text = g_strdup_printf ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"%s\"}", run_id);
  agui_test_response_append_event_json (self, text);
  g_clear_pointer (&text, g_free);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "TOOL_CALL_START");
  json_builder_set_member_name (builder, "toolCallId");
  json_builder_add_string_value (builder, tool_call_id);
  json_builder_set_member_name (builder, "toolCallName");
  json_builder_add_string_value (builder, tool_name);
  json_builder_set_member_name (builder, "parentMessageId");
  json_builder_add_string_value (builder, message_id);
  json_builder_end_object (builder);
  event = json_builder_get_root (builder);
  text = json_to_string (event, FALSE);
  agui_test_response_append_event_json (self, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&event, json_node_unref);

  json_builder_reset (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "TOOL_CALL_ARGS");
  json_builder_set_member_name (builder, "toolCallId");
  json_builder_add_string_value (builder, tool_call_id);
  json_builder_set_member_name (builder, "delta");
  json_builder_add_string_value (builder, arguments_json);
  json_builder_end_object (builder);
  event = json_builder_get_root (builder);
  text = json_to_string (event, FALSE);
  agui_test_response_append_event_json (self, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&event, json_node_unref);

  text = g_strdup_printf ("{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"%s\"}", tool_call_id);
  agui_test_response_append_event_json (self, text);
  g_clear_pointer (&text, g_free);

  if (snapshot_delay_ms > 0)
    agui_test_response_append_stall (self, snapshot_delay_ms);

  json_builder_reset (builder);
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, message_id);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "toolCalls");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, tool_call_id);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "function");
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, tool_name);
  json_builder_set_member_name (builder, "arguments");
  json_builder_add_string_value (builder, arguments_json);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  messages = json_builder_get_root (builder);
  text = json_to_string (messages, FALSE);
  agui_test_response_append_messages_snapshot (self, text);
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"%s\"}", run_id);
  agui_test_response_append_event_json (self, text);

  return self;
}

/* The run after the answer: @ag-ui/aws-strands streams the model's
 * text, then snapshots the whole history again. @text goes into JSON
 * as it is. */
AguiTestResponse *
agui_test_response_new_strands_answer (const char *run_id,
                                       const char *message_id,
                                       const char *text)
{
  AguiTestResponse *self = agui_test_response_new ();
  g_autofree char *started = g_strdup_printf ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"%s\"}", run_id);
  g_autofree char *start = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"%s\",\"role\":\"assistant\"}", message_id);
  g_autofree char *content = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"%s\",\"delta\":\"%s\"}", message_id, text);
  g_autofree char *end = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"%s\"}", message_id);
  g_autofree char *added = g_strdup_printf ("[{\"id\":\"%s\",\"role\":\"assistant\",\"content\":\"%s\"}]", message_id, text);
  g_autofree char *finished = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"%s\"}", run_id);

  agui_test_response_append_event_json (self, started);
  agui_test_response_append_event_json (self, start);
  agui_test_response_append_event_json (self, content);
  agui_test_response_append_event_json (self, end);
  agui_test_response_append_messages_snapshot (self, added);
  agui_test_response_append_event_json (self, finished);

  return self;
}

/* Requests */

static void
request_free (AguiTestRequest *request)
{
  g_clear_pointer (&request->method, g_free);
  g_clear_pointer (&request->path, g_free);
  g_clear_pointer (&request->headers, soup_message_headers_unref);
  g_clear_pointer (&request->body, g_bytes_unref);
  g_clear_pointer (&request->json, json_node_unref);
  g_free (request);
}

static AguiTestRequest *
request_new_from_message (SoupServerMessage *msg)
{
  AguiTestRequest *request = g_new0 (AguiTestRequest, 1);
  g_autofree char *text = NULL;

  request->method = g_strdup (soup_server_message_get_method (msg));
  request->path = g_strdup (g_uri_get_path (soup_server_message_get_uri (msg)));
  request->headers = soup_message_headers_ref (soup_server_message_get_request_headers (msg));
  request->body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  request->state = AGUI_TEST_EXCHANGE_WAITING;

  text = g_strndup (g_bytes_get_data (request->body, NULL), g_bytes_get_size (request->body));
  request->json = json_from_string (text, NULL);

  return request;
}

/* Exchanges: one scripted response being written */

static AguiTestRequest *
exchange_get_request (Exchange *exchange)
{
  return g_ptr_array_index (exchange->server->requests, exchange->index);
}

static void
exchange_detach (Exchange *exchange)
{
  g_clear_handle_id (&exchange->timeout_id, g_source_remove);
  g_clear_handle_id (&exchange->watch_id, g_source_remove);
  g_clear_signal_handler (&exchange->wrote_body_data_id, exchange->msg);
  g_clear_signal_handler (&exchange->wrote_body_id, exchange->msg);
  g_clear_signal_handler (&exchange->finished_id, exchange->msg);
}

static void
exchange_free (Exchange *exchange)
{
  exchange_detach (exchange);
  g_clear_object (&exchange->msg);
  g_clear_pointer (&exchange->response, agui_test_response_free);
  g_free (exchange);
}

static void
exchange_end (Exchange              *exchange,
              AguiTestExchangeState  state,
              gboolean               drop_connection)
{
  AguiTestServer *self = exchange->server;
  AguiTestRequest *request = exchange_get_request (exchange);
  guint index = exchange->index;

  request->state = state;
  request->ended_at = g_get_monotonic_time ();

  exchange_detach (exchange);
  if (drop_connection)
    {
      GSocket *socket = soup_server_message_get_socket (exchange->msg);
      g_autoptr(GIOStream) stream = NULL;

      /* libsoup takes a close between two chunks for the end of the body,
       * so a reset breaks off inside one: a chunk announced, never sent.
       * The socket is shut first because stealing lets libsoup write the
       * last chunk, which must not reach the client. */
      if (socket != NULL && state == AGUI_TEST_EXCHANGE_RESET)
        g_socket_send (socket, "1000\r\n", 6, NULL, NULL);
      if (socket != NULL)
        g_socket_shutdown (socket, TRUE, TRUE, NULL);

      stream = soup_server_message_steal_connection (exchange->msg);
      if (stream != NULL)
        g_io_stream_close (stream, NULL, NULL);
    }
  g_ptr_array_remove_fast (self->exchanges, exchange);

  g_signal_emit (self, signals[RESPONSE_ENDED], 0, index);
  if (state == AGUI_TEST_EXCHANGE_DISCONNECTED)
    g_signal_emit (self, signals[CLIENT_DISCONNECTED], 0, index);
}

static gboolean
socket_is_disconnected (GSocket *socket)
{
  GIOCondition condition;
  GInputVector vector;
  char byte;
  int flags = G_SOCKET_MSG_PEEK;
  gssize n;

  if (socket == NULL || g_socket_is_closed (socket))
    return TRUE;

  condition = g_socket_condition_check (socket, G_IO_IN | G_IO_HUP | G_IO_ERR);
  if (condition & (G_IO_HUP | G_IO_ERR))
    return TRUE;
  if (!(condition & G_IO_IN))
    return FALSE;

  /* Readable after the whole request was read: end of file, or a reset. */
  vector.buffer = &byte;
  vector.size = 1;
  n = g_socket_receive_message (socket, NULL, &vector, 1, NULL, NULL, &flags, NULL, NULL);

  return n <= 0;
}

static gboolean
on_watch_cb (gpointer user_data)
{
  Exchange *exchange = user_data;

  if (!socket_is_disconnected (soup_server_message_get_socket (exchange->msg)))
    return G_SOURCE_CONTINUE;

  exchange->watch_id = 0;
  exchange_end (exchange, AGUI_TEST_EXCHANGE_DISCONNECTED, TRUE);

  return G_SOURCE_REMOVE;
}

static void
on_wrote_body_data_cb (SoupServerMessage *msg,
                       guint              size,
                       gpointer           user_data);

static gboolean
on_reset_cb (gpointer user_data)
{
  Exchange *exchange = user_data;

  exchange->timeout_id = 0;
  exchange_end (exchange, AGUI_TEST_EXCHANGE_RESET, TRUE);

  return G_SOURCE_REMOVE;
}

static void
on_wrote_body_data_cb (SoupServerMessage *msg,
                       guint              size,
                       gpointer           user_data)
{
  Exchange *exchange = user_data;
  AguiTestRequest *request = exchange_get_request (exchange);

  request->bytes_written += size;

  /* Not from inside libsoup's write: steal the connection from the loop. */
  if (exchange->reset_pending && request->bytes_written >= exchange->bytes_appended)
    {
      exchange->reset_pending = FALSE;
      exchange->timeout_id = g_idle_add (on_reset_cb, exchange);
    }
}

static void
on_wrote_body_cb (SoupServerMessage *msg,
                  gpointer           user_data)
{
  Exchange *exchange = user_data;

  exchange->wrote_body = TRUE;
}

static void
on_finished_cb (SoupServerMessage *msg,
                gpointer           user_data)
{
  Exchange *exchange = user_data;

  /* Finished without the whole body written: the write failed because
   * the client had gone. */
  exchange_end (exchange,
                exchange->wrote_body ? AGUI_TEST_EXCHANGE_COMPLETE : AGUI_TEST_EXCHANGE_DISCONNECTED,
                FALSE);
}

static gboolean
on_advance_cb (gpointer user_data)
{
  Exchange *exchange = user_data;

  exchange->timeout_id = 0;
  exchange_advance (exchange);

  return G_SOURCE_REMOVE;
}

static void
exchange_schedule (Exchange *exchange,
                   guint     milliseconds)
{
  g_assert (exchange->timeout_id == 0);

  exchange->timeout_id = g_timeout_add (milliseconds, on_advance_cb, exchange);
}

static void
exchange_append (Exchange     *exchange,
                 const guint8 *data,
                 gsize         length)
{
  SoupMessageBody *body = soup_server_message_get_response_body (exchange->msg);

  soup_message_body_append (body, SOUP_MEMORY_COPY, data, length);
  exchange->bytes_appended += length;
}

static GBytes *
snapshot_frame (AguiTestRequest *request,
                GBytes          *added_json)
{
  g_autofree char *added_text = g_strndup (g_bytes_get_data (added_json, NULL), g_bytes_get_size (added_json));
  g_autoptr(JsonNode) added = json_from_string (added_text, NULL);
  g_autoptr(JsonNode) event = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  JsonArray *messages = json_array_new ();
  JsonArray *sent = NULL;
  g_autofree char *json = NULL;
  char *frame;

  g_assert_true (added != NULL && JSON_NODE_HOLDS_ARRAY (added));

  if (request->json != NULL && JSON_NODE_HOLDS_OBJECT (request->json) &&
      json_object_has_member (json_node_get_object (request->json), "messages"))
    sent = json_object_get_array_member (json_node_get_object (request->json), "messages");
  for (guint i = 0; sent != NULL && i < json_array_get_length (sent); i++)
    json_array_add_element (messages, json_node_copy (json_array_get_element (sent, i)));
  for (guint i = 0; i < json_array_get_length (json_node_get_array (added)); i++)
    json_array_add_element (messages, json_node_copy (json_array_get_element (json_node_get_array (added), i)));

  json_object_set_string_member (object, "type", "MESSAGES_SNAPSHOT");
  json_object_set_array_member (object, "messages", messages);
  json_node_take_object (event, object);
  json = json_to_string (event, FALSE);
  frame = g_strdup_printf ("data: %s\n\n", json);

  return g_bytes_new_take (frame, strlen (frame));
}

static void
exchange_advance (Exchange *exchange)
{
  AguiTestResponse *response = exchange->response;
  AguiTestRequest *request = exchange_get_request (exchange);

  request->state = AGUI_TEST_EXCHANGE_STREAMING;

  while (exchange->step < response->steps->len)
    {
      Step *step = &g_array_index (response->steps, Step, exchange->step);
      gsize length;
      const guint8 *data;

      switch (step->kind)
        {
        case STEP_MESSAGES_SNAPSHOT:
          /* From now on it is data, made of what this request sent. */
          {
            GBytes *frame = snapshot_frame (request, step->data);

            g_bytes_unref (step->data);
            step->data = frame;
            step->kind = STEP_DATA;
          }
          G_GNUC_FALLTHROUGH;

        case STEP_DATA:
          data = g_bytes_get_data (step->data, &length);
          if (response->drip > 0 && length > 0)
            {
              exchange_append (exchange, data + exchange->offset, 1);
              if (++exchange->offset == length)
                {
                  exchange->offset = 0;
                  exchange->step++;
                }
              soup_server_message_unpause (exchange->msg);
              exchange_schedule (exchange, response->drip);
              return;
            }

          if (length > 0)
            exchange_append (exchange, data, length);
          exchange->step++;
          if (response->chunk_interval > 0 && exchange->step < response->steps->len)
            {
              soup_server_message_unpause (exchange->msg);
              exchange_schedule (exchange, response->chunk_interval);
              return;
            }
          break;

        case STEP_STALL:
          exchange->step++;
          soup_server_message_unpause (exchange->msg);
          if (step->milliseconds != AGUI_TEST_STALL_FOREVER)
            exchange_schedule (exchange, step->milliseconds);
          return;

        case STEP_RESET:
          exchange->step = response->steps->len;
          soup_server_message_unpause (exchange->msg);
          if (request->bytes_written >= exchange->bytes_appended)
            exchange->timeout_id = g_idle_add (on_reset_cb, exchange);
          else
            exchange->reset_pending = TRUE;
          return;

        default:
          g_assert_not_reached ();
        }
    }

  soup_message_body_complete (soup_server_message_get_response_body (exchange->msg));
  soup_server_message_unpause (exchange->msg);
}

static void
handle_request (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  AguiTestServer *self = user_data;
  AguiTestResponse *response;
  AguiTestRequest *request;
  SoupMessageHeaders *headers;
  Exchange *exchange;
  guint index;

  request = request_new_from_message (msg);
  index = self->requests->len;
  g_ptr_array_add (self->requests, request);

  response = g_queue_pop_head (&self->responses);
  if (response == NULL)
    {
      static const char text[] = "agui-test-server: no scripted response for this request";

      soup_server_message_set_status (msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, text, strlen (text));
      request->state = AGUI_TEST_EXCHANGE_COMPLETE;
      request->ended_at = g_get_monotonic_time ();
      g_signal_emit (self, signals[REQUEST_RECEIVED], 0, index);
      return;
    }

  soup_server_message_set_status (msg, response->status, NULL);
  headers = soup_server_message_get_response_headers (msg);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  if (response->content_type != NULL)
    soup_message_headers_replace (headers, "Content-Type", response->content_type);
  for (guint i = 0; i < response->header_names->len; i++)
    soup_message_headers_append (headers,
                                 g_ptr_array_index (response->header_names, i),
                                 g_ptr_array_index (response->header_values, i));

  exchange = g_new0 (Exchange, 1);
  exchange->server = self;
  exchange->msg = g_object_ref (msg);
  exchange->response = response;
  exchange->index = index;
  g_ptr_array_add (self->exchanges, exchange);

  exchange->wrote_body_data_id = g_signal_connect (msg, "wrote-body-data",
                                                   G_CALLBACK (on_wrote_body_data_cb), exchange);
  exchange->wrote_body_id = g_signal_connect (msg, "wrote-body",
                                              G_CALLBACK (on_wrote_body_cb), exchange);
  exchange->finished_id = g_signal_connect (msg, "finished",
                                            G_CALLBACK (on_finished_cb), exchange);
  exchange->watch_id = g_timeout_add (WATCH_INTERVAL_MS, on_watch_cb, exchange);

  /* Stealing the connection looks both addresses up; once the client has
   * gone that fails with a warning, so have libsoup cache them now. */
  soup_server_message_get_local_address (msg);
  soup_server_message_get_remote_address (msg);

  /* Nothing goes out, headers included, until the script says so. */
  soup_server_message_pause (msg);
  exchange_schedule (exchange, response->headers_delay);

  g_signal_emit (self, signals[REQUEST_RECEIVED], 0, index);
}

/* The server */

static void
agui_test_server_dispose (GObject *object)
{
  AguiTestServer *self = AGUI_TEST_SERVER (object);

  agui_test_server_stop (self);
  g_clear_object (&self->server);

  G_OBJECT_CLASS (agui_test_server_parent_class)->dispose (object);
}

static void
agui_test_server_finalize (GObject *object)
{
  AguiTestServer *self = AGUI_TEST_SERVER (object);

  g_queue_clear_full (&self->responses, (GDestroyNotify) agui_test_response_free);
  g_clear_pointer (&self->requests, g_ptr_array_unref);
  g_clear_pointer (&self->exchanges, g_ptr_array_unref);
  g_clear_pointer (&self->url, g_free);

  G_OBJECT_CLASS (agui_test_server_parent_class)->finalize (object);
}

static void
agui_test_server_class_init (AguiTestServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agui_test_server_dispose;
  object_class->finalize = agui_test_server_finalize;

  /* A request was read; its index is in the record. */
  signals[REQUEST_RECEIVED] =
    g_signal_new ("request-received", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  /* A response is over, however it ended (see the request's state). */
  signals[RESPONSE_ENDED] =
    g_signal_new ("response-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  /* The client went away before the response was complete. */
  signals[CLIENT_DISCONNECTED] =
    g_signal_new ("client-disconnected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
agui_test_server_init (AguiTestServer *self)
{
  g_queue_init (&self->responses);
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  self->exchanges = g_ptr_array_new_with_free_func ((GDestroyNotify) exchange_free);
}

/* Listens on 127.0.0.1, on a port the system picks. */
AguiTestServer *
agui_test_server_new (GError **error)
{
  g_autoptr(AguiTestServer) self = g_object_new (AGUI_TYPE_TEST_SERVER, NULL);
  GSList *uris;

  self->server = soup_server_new ("server-header", "agui-test-server ", NULL);
  soup_server_add_handler (self->server, NULL, handle_request, self, NULL);

  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
    return NULL;

  uris = soup_server_get_uris (self->server);
  g_assert (uris != NULL);
  self->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  self->url = g_strdup_printf ("http://127.0.0.1:%u/agent", self->port);

  return g_steal_pointer (&self);
}

/* http://127.0.0.1:PORT/agent; any path is served alike. */
const char *
agui_test_server_get_url (AguiTestServer *self)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), NULL);

  return self->url;
}

guint
agui_test_server_get_port (AguiTestServer *self)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), 0);

  return self->port;
}

/* Takes @response; requests are answered in the order pushed, and one
 * with none left gets a 500. */
void
agui_test_server_push_response (AguiTestServer   *self,
                                AguiTestResponse *response)
{
  g_return_if_fail (AGUI_IS_TEST_SERVER (self));
  g_return_if_fail (response != NULL);

  g_queue_push_tail (&self->responses, response);
}

guint
agui_test_server_get_n_pending (AguiTestServer *self)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), 0);

  return self->responses.length;
}

guint
agui_test_server_get_n_requests (AguiTestServer *self)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), 0);

  return self->requests->len;
}

const AguiTestRequest *
agui_test_server_get_request (AguiTestServer *self,
                              guint           index)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), NULL);
  g_return_val_if_fail (index < self->requests->len, NULL);

  return g_ptr_array_index (self->requests, index);
}

typedef struct
{
  AguiTestServer *server;
  guint           index;
} EndWait;

static gboolean
request_has_ended (gpointer data)
{
  EndWait *wait = data;
  AguiTestRequest *request;

  if (wait->index >= wait->server->requests->len)
    return FALSE;

  request = g_ptr_array_index (wait->server->requests, wait->index);
  return request->state >= AGUI_TEST_EXCHANGE_COMPLETE;
}

/* Opens the gate of request @index, held by AGUI_TEST_STALL_FOREVER: the
 * rest of its script goes out. A test that must act while the stream is
 * paused holds it this way rather than for a time, which a loaded machine
 * can outlast. Returns FALSE if that request is not held at a gate. */
gboolean
agui_test_server_resume (AguiTestServer *self,
                         guint           index)
{
  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), FALSE);

  for (guint i = 0; i < self->exchanges->len; i++)
    {
      Exchange *exchange = g_ptr_array_index (self->exchanges, i);
      const Step *held;

      if (exchange->index != index)
        continue;
      if (exchange->timeout_id != 0 || exchange->step == 0)
        return FALSE;
      held = &g_array_index (exchange->response->steps, Step, exchange->step - 1);
      if (held->kind != STEP_STALL || held->milliseconds != AGUI_TEST_STALL_FOREVER)
        return FALSE;
      exchange_advance (exchange);
      return TRUE;
    }

  return FALSE;
}

/* Iterates the main context until request @index has been answered,
 * reset or abandoned, for at most @timeout_ms. */
gboolean
agui_test_server_wait_for_end (AguiTestServer *self,
                               guint           index,
                               guint           timeout_ms)
{
  EndWait wait = { self, index };

  g_return_val_if_fail (AGUI_IS_TEST_SERVER (self), FALSE);

  return agui_test_wait_for (request_has_ended, &wait, timeout_ms);
}

/* Closes the listener and every connection; responses under way stop
 * where they are. */
void
agui_test_server_stop (AguiTestServer *self)
{
  g_return_if_fail (AGUI_IS_TEST_SERVER (self));

  g_ptr_array_set_size (self->exchanges, 0);
  if (self->server != NULL)
    soup_server_disconnect (self->server);
}

/* The JSON object request @index posted: a RunAgentInput. */
JsonObject *
agui_test_server_get_request_body (AguiTestServer *self,
                                   guint           index)
{
  const AguiTestRequest *request = agui_test_server_get_request (self, index);

  g_assert_nonnull (request);
  g_assert_nonnull (request->json);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (request->json));

  return json_node_get_object (request->json);
}
