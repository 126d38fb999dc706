/* test-transport-errors.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What AguiHttpTransport says when a 2xx body goes wrong on the wire:
 * broken chunked encoding, a connection closed or reset inside the body,
 * a corrupt or cut compressed body. libsoup decodes both encodings
 * itself, so the faults are written byte by byte by a raw socket server
 * on 127.0.0.1 (SoupServer would only write well-formed responses), and
 * read by libsoup as it reads any server. Where libsoup turns a fault
 * into a clean end of the body, the test says so: it fails the day
 * libsoup starts reporting it, so that the message can follow.
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "agui.h"
#include "agui-error-private.h"
#include "agui-http-errors-private.h"
#include "agui-test-server.h"

#define WAIT_MS 5000

#define RUN_STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"
#define RUN_FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"

#define SSE_HEADERS "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"

#define INPUT_JSON \
  "{\"threadId\":\"t1\",\"runId\":\"r1\",\"state\":{},\"messages\":[]," \
  "\"tools\":[],\"context\":[],\"forwardedProps\":{}}"

/* One scripted response: bytes written, then (when @pause_ms is set) a
 * pause and more bytes, then the connection closed or reset. */
typedef struct
{
  GBytes   *first;
  GBytes   *second;
  guint     pause_ms;
  gboolean  reset;
} Script;

typedef struct
{
  GSocketService *service;
  guint16         port;
  Script          script;
  GMutex          mutex;
  GCond           released_cond;
  gboolean        hold;       /* the second write waits for raw_server_release() */
  gboolean        released;
  guint           n_requests;
} RawServer;

static void
script_clear (Script *script)
{
  g_clear_pointer (&script->first, g_bytes_unref);
  g_clear_pointer (&script->second, g_bytes_unref);
}

/* The request is read to the end of its body first: closing a socket
 * with unread bytes makes the kernel reset it, which would hide the
 * fault under test. */
static gboolean
read_request (GInputStream *input)
{
  g_autoptr(GString) request = g_string_new (NULL);
  const char *headers_end = NULL;
  gsize content_length = 0;
  char buffer[4096];

  for (;;)
    {
      gssize n = g_input_stream_read (input, buffer, sizeof buffer, NULL, NULL);

      if (n <= 0)
        return FALSE;
      g_string_append_len (request, buffer, n);

      if (headers_end == NULL && (headers_end = strstr (request->str, "\r\n\r\n")) != NULL)
        {
          g_autofree char *lower = g_ascii_strdown (request->str, headers_end - request->str);
          const char *length = strstr (lower, "content-length:");

          if (length != NULL)
            content_length = g_ascii_strtoull (length + strlen ("content-length:"), NULL, 10);
        }
      headers_end = strstr (request->str, "\r\n\r\n");
      if (headers_end != NULL && request->len >= (gsize) (headers_end + 4 - request->str) + content_length)
        return TRUE;
    }
}

static void
write_bytes (GOutputStream *output,
             GBytes        *bytes)
{
  gsize size;
  const void *data = g_bytes_get_data (bytes, &size);

  g_output_stream_write_all (output, data, size, NULL, NULL, NULL);
  g_output_stream_flush (output, NULL, NULL);
}

/* Runs in the service's own thread, with blocking I/O */
static gboolean
on_run_cb (GThreadedSocketService *service,
           GSocketConnection      *connection,
           GObject                *source_object,
           gpointer                user_data)
{
  RawServer *server = user_data;
  GIOStream *stream = G_IO_STREAM (connection);
  GSocket *socket = g_socket_connection_get_socket (connection);
  Script script = { 0 };

  g_mutex_lock (&server->mutex);
  server->n_requests++;
  script.first = server->script.first != NULL ? g_bytes_ref (server->script.first) : NULL;
  script.second = server->script.second != NULL ? g_bytes_ref (server->script.second) : NULL;
  script.pause_ms = server->script.pause_ms;
  script.reset = server->script.reset;
  g_mutex_unlock (&server->mutex);

  if (read_request (g_io_stream_get_input_stream (stream)) && script.first != NULL)
    {
      write_bytes (g_io_stream_get_output_stream (stream), script.first);
      if (script.second != NULL)
        {
          gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;

          g_usleep (script.pause_ms * G_TIME_SPAN_MILLISECOND);
          g_mutex_lock (&server->mutex);
          while (server->hold && !server->released &&
                 g_cond_wait_until (&server->released_cond, &server->mutex, deadline))
            ;
          g_mutex_unlock (&server->mutex);
          write_bytes (g_io_stream_get_output_stream (stream), script.second);
        }
    }

  /* A zero linger time makes the close a reset (RST), as a crashed
   * server or a middlebox giving up sends */
  if (script.reset)
    {
      struct linger linger = { 1, 0 };

      g_assert_cmpint (setsockopt (g_socket_get_fd (socket), SOL_SOCKET, SO_LINGER, &linger, sizeof linger), ==, 0);
    }
  g_io_stream_close (stream, NULL, NULL);
  script_clear (&script);

  return TRUE;
}

static void
raw_server_start (RawServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_mutex_init (&server->mutex);
  g_cond_init (&server->released_cond);
  server->service = g_threaded_socket_service_new (2);
  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (server->service), address,
                                                G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                                NULL, &bound, &error));
  g_assert_no_error (error);
  server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_signal_connect (server->service, "run", G_CALLBACK (on_run_cb), server);
  g_socket_service_start (server->service);
}

static void
raw_server_stop (RawServer *server)
{
  g_socket_service_stop (server->service);
  g_socket_listener_close (G_SOCKET_LISTENER (server->service));
  g_clear_object (&server->service);
  script_clear (&server->script);
  g_cond_clear (&server->released_cond);
  g_mutex_clear (&server->mutex);
}

/* Lets a held second write go */
static void
raw_server_release (RawServer *server)
{
  g_mutex_lock (&server->mutex);
  server->released = TRUE;
  g_cond_signal (&server->released_cond);
  g_mutex_unlock (&server->mutex);
}

static void
raw_server_script (RawServer *server,
                   GBytes    *first,
                   GBytes    *second,
                   guint      pause_ms,
                   gboolean   reset)
{
  g_mutex_lock (&server->mutex);
  script_clear (&server->script);
  server->script.first = first;
  server->script.second = second;
  server->script.pause_ms = pause_ms;
  server->script.reset = reset;
  g_mutex_unlock (&server->mutex);
}

static GBytes *
bytes_from_string (GString *string)
{
  return g_string_free_to_bytes (string);
}

static void
append_chunk (GString    *out,
              const char *data,
              gssize      length)
{
  if (length < 0)
    length = strlen (data);
  g_string_append_printf (out, "%" G_GSSIZE_MODIFIER "x\r\n", length);
  g_string_append_len (out, data, length);
  g_string_append (out, "\r\n");
}

static void
append_event_chunk (GString    *out,
                    const char *json)
{
  g_autofree char *frame = g_strdup_printf ("data: %s\n\n", json);

  append_chunk (out, frame, -1);
}

/* Running the transport against it */

typedef struct
{
  GPtrArray *items;   /* event type names, "ERROR" for an error */
  GPtrArray *errors;
} Collected;

static void
collected_clear (Collected *collected)
{
  g_clear_pointer (&collected->items, g_ptr_array_unref);
  g_clear_pointer (&collected->errors, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Collected, collected_clear)

static AguiEventStream *
run_transport (RawServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/agent", server->port);
  g_autoptr(AguiHttpTransport) transport = agui_http_transport_new (url, &error);
  g_autoptr(JsonNode) input = json_from_string (INPUT_JSON, &error);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AguiEventStream *stream;

  g_assert_no_error (error);
  agui_transport_run_async (AGUI_TRANSPORT (transport), input, cancellable, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));
  stream = agui_transport_run_finish (AGUI_TRANSPORT (transport), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stream);

  return stream;
}

static void
collect (AguiEventStream *stream,
         Collected       *collected)
{
  collected->items = g_ptr_array_new_with_free_func (g_free);
  collected->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);

  for (guint i = 0; i < 100000; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(AguiEvent) event = NULL;
      GError *error = NULL;

      agui_event_stream_next_async (stream, cancellable, agui_test_store_result_cb, &result);
      g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));
      event = agui_event_stream_next_finish (stream, result, &error);

      if (error != NULL)
        {
          g_test_message ("error: %s", error->message);
          g_ptr_array_add (collected->items, g_strdup ("ERROR"));
          g_ptr_array_add (collected->errors, error);
          continue;
        }
      if (event == NULL)
        return;
      g_ptr_array_add (collected->items,
                       g_strdup (agui_event_type_to_string (agui_event_get_event_type (event))));
    }

  g_assert_not_reached ();
}

static char *
join_items (Collected *collected)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < collected->items->len; i++)
    {
      const char *item = g_ptr_array_index (collected->items, i);

      /* Runs of one event type read as one, so long bodies stay short */
      if (i > 0 && g_strcmp0 (item, g_ptr_array_index (collected->items, i - 1)) == 0 &&
          g_strcmp0 (item, "ERROR") != 0)
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, item);
    }

  return g_strdup (out->str);
}

static const GError *
last_error (Collected *collected)
{
  g_assert_cmpuint (collected->errors->len, >, 0);
  return g_ptr_array_index (collected->errors, collected->errors->len - 1);
}

static void
run_and_collect (RawServer *server,
                 Collected *collected)
{
  g_autoptr(AguiEventStream) stream = run_transport (server);

  collect (stream, collected);
}

/* Chunked transfer-encoding */

#define CLOSED_MID_BODY \
  "The connection to the agent broke before the answer was complete: the agent's server " \
  "closed it in the middle of the response body; try again"

static void
test_closed_mid_chunk (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  GString *body = g_string_new (SSE_HEADERS "Transfer-Encoding: chunked\r\n\r\n");

  g_test_summary ("A connection closed inside an announced chunk says the server closed it mid-body");

  raw_server_start (&server);
  append_event_chunk (body, RUN_STARTED);
  g_string_append (body, "100\r\ndata: {\"type\":\"TEXT_MESSAGE_START\"");
  raw_server_script (&server, bytes_from_string (body), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "RUN_STARTED ERROR");
  g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (last_error (&collected)->message, ==, CLOSED_MID_BODY);
  /* libsoup's own words ("Connection terminated unexpectedly", or their
   * translation) stay in the details */
  g_assert_nonnull (_agui_error_get_details (last_error (&collected)));
  g_assert_cmpstr (_agui_error_get_details (last_error (&collected)), !=, "");

  raw_server_stop (&server);
}

static void
test_closed_mid_length (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  GString *body = g_string_new (SSE_HEADERS "Content-Length: 1000\r\n\r\n");

  g_test_summary ("A body closed before its Content-Length reads as one closed mid-body too");

  raw_server_start (&server);
  g_string_append (body, "data: " RUN_STARTED "\n\ndata: {\"type\":");
  raw_server_script (&server, bytes_from_string (body), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "RUN_STARTED ERROR");
  g_assert_cmpstr (last_error (&collected)->message, ==, CLOSED_MID_BODY);

  raw_server_stop (&server);
}

static void
test_reset_mid_chunk (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autoptr(AguiEventStream) stream = NULL;
  g_autofree char *items = NULL;
  GString *body = g_string_new (SSE_HEADERS "Transfer-Encoding: chunked\r\n\r\n");
  GString *rest = g_string_new ("100\r\ndata: {\"type\"");

  g_test_summary ("A connection reset inside the body says it was reset, not closed");

  /* A reset drops what the client has not read yet, so the half chunk
   * and the reset wait until the first event has arrived */
  raw_server_start (&server);
  server.hold = TRUE;
  append_event_chunk (body, RUN_STARTED);
  raw_server_script (&server, bytes_from_string (body), bytes_from_string (rest), 0, TRUE);

  stream = run_transport (&server);
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(AguiEvent) event = NULL;
    g_autoptr(GError) error = NULL;

    agui_event_stream_next_async (stream, cancellable, agui_test_store_result_cb, &result);
    g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));
    event = agui_event_stream_next_finish (stream, result, &error);
    g_assert_no_error (error);
    g_assert_cmpint (agui_event_get_event_type (event), ==, AGUI_EVENT_RUN_STARTED);
  }
  raw_server_release (&server);

  collect (stream, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "ERROR");
  g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (last_error (&collected)->message, ==,
                   "The connection to the agent broke before the answer was complete: it was reset "
                   "(by the agent's server or the network in between); try again");
  /* GIO's words, translated in the locale of the run */
  g_assert_nonnull (_agui_error_get_details (last_error (&collected)));
  g_assert_cmpstr (_agui_error_get_details (last_error (&collected)), !=, "");

  raw_server_stop (&server);
}

static void
test_chunk_size_line_too_long (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  GString *body = g_string_new (SSE_HEADERS "Transfer-Encoding: chunked\r\n\r\n");

  g_test_summary ("A chunk-size line longer than libsoup reads (128 bytes) fails as a body cut short");

  raw_server_start (&server);
  append_event_chunk (body, RUN_STARTED);
  for (guint i = 0; i < 200; i++)
    g_string_append_c (body, '0');
  g_string_append (body, "5\r\nhello\r\n0\r\n\r\n");
  raw_server_script (&server, bytes_from_string (body), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "RUN_STARTED ERROR");
  g_assert_cmpstr (last_error (&collected)->message, ==, CLOSED_MID_BODY);

  raw_server_stop (&server);
}

static void
test_bad_chunk_size (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  GString *body = g_string_new (SSE_HEADERS "Transfer-Encoding: chunked\r\n\r\n");

  g_test_summary ("libsoup 3.2 reads a chunk size that is not hex as the last chunk: "
                  "the body ends cleanly there, and the events after it never arrive");

  /* libsoup parses the size with strtoul() and checks nothing: "zz" is
   * 0, the last chunk, and the next line ends its trailers. No error
   * reaches the transport, so the run ends without RUN_FINISHED, which
   * the pipeline reports as an answer cut short. */
  raw_server_start (&server);
  append_event_chunk (body, RUN_STARTED);
  g_string_append (body, "zz\r\n\r\n");
  append_event_chunk (body, RUN_FINISHED);
  g_string_append (body, "0\r\n\r\n");
  raw_server_script (&server, bytes_from_string (body), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "RUN_STARTED");

  raw_server_stop (&server);
}

/* Content-Encoding */

static GBytes *
gzip (const char *text,
      gsize       length)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GError) error = NULL;
  gsize size = length + 1024;
  guint8 *out = g_malloc (size);
  gsize read, written;

  g_assert_cmpint (g_converter_convert (G_CONVERTER (compressor), text, length, out, size,
                                        G_CONVERTER_INPUT_AT_END, &read, &written, &error),
                   ==, G_CONVERTER_FINISHED);
  g_assert_no_error (error);
  g_assert_cmpuint (read, ==, length);

  return g_bytes_new_take (out, written);
}

/* Events that compress poorly, so the compressed body is long */
static GString *
custom_events (guint n_events)
{
  GString *text = g_string_new ("data: " RUN_STARTED "\n\n");
  GRand *rand = g_rand_new_with_seed (15);

  for (guint i = 0; i < n_events; i++)
    g_string_append_printf (text, "data: {\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":\"%08x%08x%08x\"}\n\n",
                            g_rand_int (rand), g_rand_int (rand), g_rand_int (rand));
  g_rand_free (rand);

  return text;
}

#define GZIP_CORRUPT \
  "The agent's answer is compressed (Content-Encoding: gzip) and corrupt, so it could not be " \
  "decompressed; the answer is incomplete"

static void
test_gzip_corrupt_midway (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  g_autoptr(GString) text = custom_events (2000);
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GError) error = NULL;
  gsize size = text->len + 1024;
  g_autofree guint8 *data = g_malloc (size);
  static const guint8 reserved_block[] = { 0x07, 0xff, 0xff, 0xff };
  GString *head = g_string_new (SSE_HEADERS "Content-Encoding: gzip\r\n");
  g_autoptr(AguiEventStream) stream = NULL;
  gsize consumed = 0, produced = 0;
  guint n_custom = 0;

  g_test_summary ("A gzip body that turns corrupt after it began to decompress says so, "
                  "not that the connection broke");

  /* libsoup passes a body on undecoded when its first bytes do not
   * decompress; once decompressing has begun, corrupt data is an error.
   * The events, flushed to a byte boundary, then a block of the type
   * deflate reserves, which zlib refuses at once. */
  for (GConverterResult result = G_CONVERTER_CONVERTED; result != G_CONVERTER_FLUSHED; )
    {
      gsize read, written;

      result = g_converter_convert (G_CONVERTER (compressor), text->str + consumed, text->len - consumed,
                                    data + produced, size - produced, G_CONVERTER_FLUSH,
                                    &read, &written, &error);
      g_assert_no_error (error);
      consumed += read;
      produced += written;
    }
  g_assert_cmpuint (consumed, ==, text->len);
  g_string_append_printf (head, "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n", produced + sizeof reserved_block);
  g_string_append_len (head, (const char *) data, produced);

  /* The corrupt block goes once every event before it has arrived: zlib
   * drops what it decoded in the call that meets the corruption, and
   * under load that call would hold the last events too */
  raw_server_start (&server);
  server.hold = TRUE;
  raw_server_script (&server, bytes_from_string (head),
                     g_bytes_new_static (reserved_block, sizeof reserved_block), 0, FALSE);

  stream = run_transport (&server);
  for (guint i = 0; i < 2001; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) item_error = NULL;

      agui_event_stream_next_async (stream, cancellable, agui_test_store_result_cb, &result);
      g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));
      event = agui_event_stream_next_finish (stream, result, &item_error);
      g_assert_no_error (item_error);
      g_assert_nonnull (event);
      n_custom += agui_event_get_event_type (event) == AGUI_EVENT_CUSTOM;
    }
  g_assert_cmpuint (n_custom, ==, 2000);
  raw_server_release (&server);

  collect (stream, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "ERROR");
  g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (last_error (&collected)->message, ==, GZIP_CORRUPT);

  raw_server_stop (&server);
}

static void
test_gzip_corrupt_from_start (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  static const guint8 body[] = { 0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x03, 0xff, 0xfe, 0xfd, 0x01 };
  GString *head = g_string_new (SSE_HEADERS "Content-Encoding: gzip\r\n");

  g_test_summary ("A gzip body corrupt from its first bytes, which libsoup passes on undecoded, "
                  "is named as compressed and corrupt");

  g_string_append_printf (head, "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n", sizeof body);
  g_string_append_len (head, (const char *) body, sizeof body);

  raw_server_start (&server);
  raw_server_script (&server, bytes_from_string (head), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "ERROR");
  g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (last_error (&collected)->message, ==, GZIP_CORRUPT);

  raw_server_stop (&server);
}

static void
test_gzip_corrupt_any_chunking (void)
{
  static const guint8 body[] = { 0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x03, 0xff, 0xfe, 0xfd, 0x01 };
  static const gsize splits[] = { 0, 1, 2, 3, 10, 11, 13 };

  g_test_summary ("A corrupt gzip body gets one error however its bytes are split: "
                  "libsoup passes on what follows a header it took, or the header's first byte alone");

  for (guint i = 0; i < G_N_ELEMENTS (splits); i++)
    {
      RawServer server = { 0 };
      g_auto(Collected) collected = { 0 };
      g_autofree char *items = NULL;
      GString *head = g_string_new (SSE_HEADERS "Content-Encoding: gzip\r\n");
      GBytes *rest = NULL;

      g_string_append_printf (head, "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n", sizeof body);
      if (splits[i] == 0)
        {
          g_string_append_len (head, (const char *) body, sizeof body);
        }
      else
        {
          g_string_append_len (head, (const char *) body, splits[i]);
          rest = g_bytes_new_static (body + splits[i], sizeof body - splits[i]);
        }

      raw_server_start (&server);
      raw_server_script (&server, bytes_from_string (head), rest, 50, FALSE);

      run_and_collect (&server, &collected);
      items = join_items (&collected);
      g_test_message ("split at %" G_GSIZE_FORMAT ": %s", splits[i], last_error (&collected)->message);
      g_assert_cmpstr (items, ==, "ERROR");
      g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
      g_assert_cmpstr (last_error (&collected)->message, ==, GZIP_CORRUPT);

      raw_server_stop (&server);
    }
}

static void
test_gzip_cut_short (void)
{
  RawServer server = { 0 };
  g_auto(Collected) collected = { 0 };
  g_autofree char *items = NULL;
  g_autoptr(GString) text = custom_events (400);
  g_autoptr(GBytes) compressed = gzip (text->str, text->len);
  gsize size = g_bytes_get_size (compressed);
  GString *head = g_string_new (SSE_HEADERS "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n");

  g_test_summary ("A gzip body cut short ends cleanly in libsoup; the frame it cut says "
                  "the connection closed in the middle of an event");

  /* Half the compressed body, then a proper last chunk */
  append_chunk (head, g_bytes_get_data (compressed, NULL), size / 2);
  g_string_append (head, "0\r\n\r\n");

  raw_server_start (&server);
  raw_server_script (&server, bytes_from_string (head), NULL, 0, FALSE);

  run_and_collect (&server, &collected);
  items = join_items (&collected);
  g_assert_cmpstr (items, ==, "RUN_STARTED CUSTOM ERROR");
  g_assert_error (last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_true (g_str_has_prefix (last_error (&collected)->message,
                                   "The connection closed in the middle of an event, after "));

  raw_server_stop (&server);
}

/* The mapping alone, for the causes a loopback server cannot make */

static void
test_mapping (void)
{
  struct {
    GQuark      domain;
    int         code;
    const char *encoding;
    const char *expected;
  } cases[] = {
    { G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, NULL, CLOSED_MID_BODY },
    { G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "gzip", CLOSED_MID_BODY },
    { G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "deflate",
      "The agent's answer is compressed (Content-Encoding: deflate) and corrupt, "
      "so it could not be decompressed; the answer is incomplete" },
    { G_IO_ERROR, G_IO_ERROR_INVALID_DATA, NULL,
      "The connection to the agent broke before the answer was complete: cause" },
    { G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, NULL,
      "The connection to the agent broke before the answer was complete: it was reset "
      "(by the agent's server or the network in between); try again" },
    { G_TLS_ERROR, G_TLS_ERROR_MISC, NULL,
      "The connection to the agent broke before the answer was complete: the secure "
      "connection failed (cause)" },
    { G_IO_ERROR, G_IO_ERROR_FAILED, "gzip",
      "The connection to the agent broke before the answer was complete: cause" },
  };

  g_test_summary ("Each read failure has its own message, and keeps libsoup's words as details");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) cause = g_error_new_literal (cases[i].domain, cases[i].code, "cause");
      g_autoptr(GError) error = _agui_http_error_new_body_read (cause, cases[i].encoding);

      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STREAM);
      g_assert_cmpstr (error->message, ==, cases[i].expected);
      g_assert_cmpstr (_agui_error_get_details (error), ==, "cause");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transport-errors/chunked/closed-mid-chunk", test_closed_mid_chunk);
  g_test_add_func ("/transport-errors/chunked/size-line-too-long", test_chunk_size_line_too_long);
  g_test_add_func ("/transport-errors/chunked/bad-size", test_bad_chunk_size);
  g_test_add_func ("/transport-errors/closed-mid-length", test_closed_mid_length);
  g_test_add_func ("/transport-errors/reset-mid-chunk", test_reset_mid_chunk);
  g_test_add_func ("/transport-errors/gzip/corrupt-midway", test_gzip_corrupt_midway);
  g_test_add_func ("/transport-errors/gzip/corrupt-from-start", test_gzip_corrupt_from_start);
  g_test_add_func ("/transport-errors/gzip/corrupt-any-chunking", test_gzip_corrupt_any_chunking);
  g_test_add_func ("/transport-errors/gzip/cut-short", test_gzip_cut_short);
  g_test_add_func ("/transport-errors/mapping", test_mapping);

  return g_test_run ();
}
