/* agui-http-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-enums.h"
#include "agui-error-private.h"
#include "agui-event-stream-private.h"
#include "agui-http-errors-private.h"
#include "agui-http-transport.h"
#include "agui-proto-decoder-private.h"
#include "agui-sse-decoder-private.h"
#include "agui-transport-private.h"

G_STATIC_ASSERT (AGUI_HTTP_DEFAULT_MAX_FRAME_SIZE == AGUI_SSE_DEFAULT_MAX_FRAME_SIZE);

/* A character is at most four bytes of UTF-8, so this many bytes always
 * hold the characters quoted and never a megabyte of HTML. */
#define ERROR_BODY_MAX_BYTES (AGUI_HTTP_ERROR_BODY_MAX_CHARS * 4)

#define SSE_CONTENT_TYPE "text/event-stream"
#define PROTOBUF_CONTENT_TYPE AGUI_PROTO_CONTENT_TYPE

#define READ_SIZE 16384

/* Browsers follow 20; an agent behind more than a few is misconfigured. */
#define MAX_REDIRECTS 5

/**
 * AguiHttpTransport:
 *
 * The transport that speaks AG-UI over HTTP: one `POST` of the
 * `RunAgentInput` as JSON, answered by a `text/event-stream` body decoded
 * as it arrives.
 *
 * A transport is configured by its construct properties and checked when
 * it is initialised ([iface@Gio.Initable]): a missing URL, one that is not
 * `http` or `https`, and a malformed header are errors there, not
 * criticals. [ctor@Agui.HttpTransport.new] does both for the common case;
 * anything more goes through [func@Gio.Initable.new]:
 *
 * ```c
 * const char * const headers[] = { "Authorization: Bearer token", NULL };
 * g_autoptr(AguiHttpTransport) transport = NULL;
 * g_autoptr(GError) error = NULL;
 *
 * transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, &error,
 *                             "url", "https://example.com/agent",
 *                             "headers", headers,
 *                             // Bounds the setup only; a long answer is not cut off.
 *                             "connect-timeout", 5000,
 *                             // An agent silent for a minute is taken to be stuck.
 *                             "idle-timeout", 60000,
 *                             NULL);
 * if (transport == NULL)
 *   g_printerr ("%s\n", error->message);
 * ```
 *
 * From Python, `Agui.HttpTransport(url=...)` followed by `init()` does the
 * same. A transport that was never initialised checks itself on its first
 * run, whose error is then the configuration's.
 *
 * Every request carries `Content-Type: application/json` and exactly one
 * `Accept`, after the caller's headers and replacing any of the same
 * name: `text/event-stream`, or `application/vnd.ag-ui.event+proto` for a
 * transport set to %AGUI_HTTP_ENCODING_PROTOBUF
 * ([property@Agui.HttpTransport:encoding]). An agent asked with a
 * wider `Accept` picks the binary encoding, so SSE is asked for exactly.
 * Either way the response's `Content-Type` decides how the body is read
 * (parameters and case aside): an agent may answer SSE to a request for
 * the binary encoding. Both give the same events.
 *
 * Three timers bound a run, each failing with its own message: the
 * connect timeout (setting up the connection only), the idle timeout (the
 * agent sending nothing, before its headers or mid-stream; five minutes
 * by default) and the optional whole-run timeout.
 *
 * A `307` or `308` redirect is followed with the same `POST` body, at
 * most five times; the caller's headers (a token, an API key, a cookie)
 * go only to the agent's own origin. A `301`, `302` or `303` is an error
 * naming the new location, since following it would turn the run into a
 * `GET`.
 *
 * Failing to start a run is an error of
 * [method@Agui.Transport.run_finish]: %AGUI_ERROR_CONNECT when the agent
 * cannot be reached or does not answer in time, %AGUI_ERROR_HTTP_STATUS
 * for a status outside 2xx and %AGUI_ERROR_UNSUPPORTED for an answer that
 * is no event stream (a web page, say). Their messages say first what
 * happened and what to do; the raw material (the status line, the
 * Content-Type, the start of the body) is kept apart as the error's
 * details. Failing later, a broken connection or a timer running out,
 * ends the [class@Agui.EventStream] with %AGUI_ERROR_STREAM.
 *
 * Runs stand alone: a stream keeps being read after the transport is
 * dropped, and closing the stream closes its connection.
 */

typedef struct
{
  char *name;
  char *value;
} Header;

struct _AguiHttpTransport
{
  GObject           parent_instance;
  char             *url;
  char            **header_lines;
  GUri             *uri;
  GArray           *headers;
  GError           *init_error;
  SoupSession      *session;
  gsize             max_frame_size;
  guint             connect_timeout;
  guint             idle_timeout;
  guint             timeout;
  AguiHttpEncoding  encoding;
  guint             initialized : 1;
};

typedef enum
{
  EXPIRED_NONE,
  EXPIRED_CONNECT,
  EXPIRED_IDLE,
  EXPIRED_RUN,
} Expiry;

typedef enum
{
  BODY_EVENTS,
  BODY_STATUS_ERROR,
  BODY_NOT_AGUI,
} BodyKind;

/* One run, from the request to the end of its stream. It copies what it
 * needs of the transport, so that it goes on after the transport is
 * dropped; the task holds it until the stream is handed over, the reader
 * afterwards. */
typedef struct
{
  char             *url;
  GUri             *origin;
  GArray           *headers;
  SoupSession      *session;
  gsize             max_frame_size;
  guint             connect_timeout;
  guint             idle_timeout;
  guint             timeout;

  GBytes           *request_body;
  GUri             *uri;
  GPtrArray        *visited;
  SoupMessage      *message;
  GCancellable     *cancellable;
  GCancellable     *caller_cancellable;
  gulong            caller_cancelled_id;
  GInputStream     *body;
  BodyKind          body_kind;
  GByteArray       *error_body;
  char             *content_type;

  /* The run's task until it has returned; a timer that runs out before
   * the headers returns it at once, since a TLS handshake in progress
   * does not always heed the cancellable. */
  GTask            *setup_task;
  gboolean          got_headers;

  guint             connect_timeout_id;
  guint             idle_timeout_id;
  guint             deadline_id;
  Expiry            expired;

  AguiEventStream  *stream;
  gulong            stream_closed_id;
  AguiProtoDecoder *proto_decoder;  /* binary bodies; SSE goes through the stream */
  AguiEventParser  *parser;
  guint64           body_read;      /* bytes of the (decoded) body so far */
} Run;

static void agui_http_transport_iface_init (AguiTransportInterface *iface);
static void agui_http_transport_initable_iface_init (GInitableIface *iface);
static void agui_http_transport_json_body_iface_init (AguiJsonBodyTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiHttpTransport, agui_http_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT,
                                                      agui_http_transport_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      agui_http_transport_initable_iface_init)
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_JSON_BODY_TRANSPORT,
                                                      agui_http_transport_json_body_iface_init))

enum {
  PROP_0,
  PROP_URL,
  PROP_HEADERS,
  PROP_CONNECT_TIMEOUT,
  PROP_IDLE_TIMEOUT,
  PROP_TIMEOUT,
  PROP_SESSION,
  PROP_MAX_FRAME_SIZE,
  PROP_ENCODING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
header_clear (Header *header)
{
  g_clear_pointer (&header->name, g_free);
  g_clear_pointer (&header->value, g_free);
}

static GArray *
header_array_new (void)
{
  GArray *headers = g_array_new (FALSE, TRUE, sizeof (Header));

  g_array_set_clear_func (headers, (GDestroyNotify) header_clear);

  return headers;
}

static void
header_array_append (GArray     *headers,
                     const char *name,
                     const char *value)
{
  Header header = { g_strdup (name), g_strdup (value) };

  g_array_append_val (headers, header);
}

/* RFC 7230 section 3.2.6: a token is one or more tchar. */
static gboolean
is_header_name (const char *name)
{
  if (name[0] == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
        return FALSE;
    }

  return TRUE;
}

/* A CR or LF would let a value smuggle in headers of its own; the other
 * controls (except the tab RFC 7230 allows) have no place in a value. */
static gboolean
is_header_value (const char *value)
{
  for (const guchar *p = (const guchar *) value; *p != '\0'; p++)
    {
      if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_fixed_header (const char *name)
{
  return g_ascii_strcasecmp (name, "Content-Type") == 0 ||
         g_ascii_strcasecmp (name, "Accept") == 0;
}

static int
uri_port (GUri *uri)
{
  int port = g_uri_get_port (uri);

  if (port > 0)
    return port;

  return g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 ? 443 : 80;
}

/* RFC 6454: scheme, host and port. Only the agent's own origin is trusted
 * with the caller's headers: a token, an API key or a cookie. */
static gboolean
is_same_origin (GUri *a,
                GUri *b)
{
  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         g_ascii_strcasecmp (g_uri_get_host (a), g_uri_get_host (b)) == 0 &&
         uri_port (a) == uri_port (b);
}

static void
run_stop_timers (Run *run)
{
  g_clear_handle_id (&run->connect_timeout_id, g_source_remove);
  g_clear_handle_id (&run->idle_timeout_id, g_source_remove);
  g_clear_handle_id (&run->deadline_id, g_source_remove);
}

static void
run_drop_message (Run *run)
{
  if (run->message != NULL)
    g_signal_handlers_disconnect_by_data (run->message, run);
  g_clear_object (&run->message);
}

static void
run_clear (Run *run)
{
  run_stop_timers (run);
  if (run->caller_cancelled_id != 0)
    g_cancellable_disconnect (run->caller_cancellable, run->caller_cancelled_id);
  if (run->stream_closed_id != 0)
    g_cancellable_disconnect (agui_event_stream_get_cancellable (run->stream), run->stream_closed_id);
  run_drop_message (run);
  g_clear_object (&run->caller_cancellable);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->body);
  g_clear_object (&run->stream);
  g_clear_pointer (&run->proto_decoder, _agui_proto_decoder_free);
  g_clear_object (&run->parser);
  g_clear_object (&run->session);
  g_clear_pointer (&run->error_body, g_byte_array_unref);
  g_clear_pointer (&run->content_type, g_free);
  g_clear_pointer (&run->request_body, g_bytes_unref);
  g_clear_pointer (&run->visited, g_ptr_array_unref);
  g_clear_pointer (&run->uri, g_uri_unref);
  g_clear_pointer (&run->origin, g_uri_unref);
  g_clear_pointer (&run->headers, g_array_unref);
  g_clear_pointer (&run->url, g_free);
}

static Run *
run_ref (Run *run)
{
  return g_rc_box_acquire (run);
}

static void
run_unref (Run *run)
{
  g_rc_box_release_full (run, (GDestroyNotify) run_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_unref)

/* Closing a response body before its end makes libsoup drop the
 * connection instead of reading the rest to reuse it. */
static void
close_body (GInputStream *body)
{
  g_input_stream_close_async (body, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
}

static void
on_caller_cancelled (GCancellable *caller_cancellable,
                     gpointer      user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);
}

static GError *expiry_error (Run      *run,
                             gboolean  streaming);

static void
setup_return_error (GTask  *task,
                    GError *error)
{
  Run *run = g_task_get_task_data (task);

  run->setup_task = NULL;
  g_task_return_error (task, error);
}

static void
setup_return_new_error (GTask      *task,
                        int         code,
                        const char *format,
                        ...) G_GNUC_PRINTF (3, 4);

static void
setup_return_new_error (GTask      *task,
                        int         code,
                        const char *format,
                        ...)
{
  GError *error;
  va_list args;

  va_start (args, format);
  error = g_error_new_valist (AGUI_ERROR, code, format, args);
  va_end (args);

  setup_return_error (task, error);
}

static void
run_expire (Run    *run,
            Expiry  expiry)
{
  if (run->expired == EXPIRED_NONE)
    run->expired = expiry;

  if (run->setup_task != NULL && !run->got_headers)
    setup_return_error (run->setup_task, expiry_error (run, FALSE));

  g_cancellable_cancel (run->cancellable);
}

static gboolean
on_connect_timeout_cb (gpointer user_data)
{
  Run *run = user_data;

  run->connect_timeout_id = 0;
  run_expire (run, EXPIRED_CONNECT);

  return G_SOURCE_REMOVE;
}

static gboolean
on_idle_timeout_cb (gpointer user_data)
{
  Run *run = user_data;

  run->idle_timeout_id = 0;
  run_expire (run, EXPIRED_IDLE);

  return G_SOURCE_REMOVE;
}

static gboolean
on_deadline_cb (gpointer user_data)
{
  Run *run = user_data;

  run->deadline_id = 0;
  run_expire (run, EXPIRED_RUN);

  return G_SOURCE_REMOVE;
}

/* Something arrived (or the request went out): the agent has another
 * idle timeout's worth of time to send the next byte. */
static void
run_touch (Run *run)
{
  g_clear_handle_id (&run->idle_timeout_id, g_source_remove);
  if (run->idle_timeout > 0 && run->expired == EXPIRED_NONE)
    run->idle_timeout_id = g_timeout_add (run->idle_timeout, on_idle_timeout_cb, run);
}

/* The connection is up (TCP, TLS, a proxy), or an open one was reused and
 * the request is being written: the connect timeout has done its job,
 * and from here the idle timeout governs. */
static void
run_connected (Run *run)
{
  if (run->connect_timeout_id == 0 && run->idle_timeout_id != 0)
    return;

  g_clear_handle_id (&run->connect_timeout_id, g_source_remove);
  run_touch (run);
}

static void
on_network_event_cb (SoupMessage        *message,
                     GSocketClientEvent  event,
                     GIOStream          *connection,
                     gpointer            user_data)
{
  if (event == G_SOCKET_CLIENT_COMPLETE)
    run_connected (user_data);
}

static void
on_wrote_headers_cb (SoupMessage *message,
                     gpointer     user_data)
{
  run_connected (user_data);
}

static void
on_wrote_body_cb (SoupMessage *message,
                  gpointer     user_data)
{
  run_touch (user_data);
}

static GError *
expiry_error (Run      *run,
              gboolean  streaming)
{
  g_autofree char *connect = _agui_http_format_duration (run->connect_timeout);
  g_autofree char *idle = _agui_http_format_duration (run->idle_timeout);
  g_autofree char *whole = _agui_http_format_duration (run->timeout);

  switch (run->expired)
    {
    case EXPIRED_CONNECT:
      return g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                          "Could not connect to %s within %s (the connect timeout): "
                          "check the network and the agent's URL",
                          run->url, connect);

    case EXPIRED_IDLE:
      if (!streaming)
        return g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                            "The agent at %s did not start answering within %s (the idle timeout); "
                            "an agent that thinks longer before it answers needs a longer idle timeout",
                            run->url, idle);
      return g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                          "The agent stopped sending before the answer was complete: nothing arrived "
                          "for %s (the idle timeout); try again, or raise the idle timeout for a slow agent",
                          idle);

    case EXPIRED_RUN:
      if (!streaming)
        return g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                            "The agent at %s did not answer within %s, the time limit of a whole run",
                            run->url, whole);
      return g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                          "The run took longer than its time limit of %s, and the answer is incomplete",
                          whole);

    case EXPIRED_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* Reading the events */

static void
reader_end (Run          *run,
            const GError *error)
{
  run_stop_timers (run);
  agui_event_stream_end (run->stream, error);
  close_body (run->body);
}

/* FALSE with @error when a binary body has lost its framing. */
static gboolean
reader_drain_proto (Run     *run,
                    GError **error)
{
  const guint8 *data;
  gsize length;
  guint index;

  while (_agui_proto_decoder_next_frame (run->proto_decoder, &data, &length, &index, error))
    {
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) frame_error = NULL;

      event = _agui_proto_decoder_parse_frame (run->parser, data, length, index, &frame_error);
      if (event != NULL)
        agui_event_stream_push_event (run->stream, event);
      else if (frame_error != NULL)
        agui_event_stream_push_error (run->stream, frame_error);
    }

  return error == NULL || *error == NULL;
}

static void reader_read_next (Run *run);

/* The response's Content-Encoding, if the body was compressed. */
static const char *
response_encoding (Run *run)
{
  const char *encoding = NULL;

  if (run->message != NULL)
    encoding = soup_message_headers_get_one (soup_message_get_response_headers (run->message),
                                             "Content-Encoding");
  if (encoding == NULL || encoding[0] == '\0' || g_ascii_strcasecmp (encoding, "identity") == 0)
    return NULL;

  return encoding;
}

static void
reader_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Run) run = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (bytes == NULL)
    {
      g_autoptr(GError) end_error = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Cancelled by a timer of ours, or by the consumer closing. */
          if (run->expired != EXPIRED_NONE)
            end_error = expiry_error (run, TRUE);
        }
      else
        {
          end_error = _agui_http_error_new_body_read (error, response_encoding (run));
        }
      reader_end (run, end_error);
      return;
    }

  if (run->proto_decoder != NULL)
    {
      if (g_bytes_get_size (bytes) > 0)
        _agui_proto_decoder_push (run->proto_decoder, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

      if (!reader_drain_proto (run, &error) ||
          (g_bytes_get_size (bytes) == 0 && !_agui_proto_decoder_finish (run->proto_decoder, &error)))
        {
          reader_end (run, error);
          return;
        }
      if (g_bytes_get_size (bytes) == 0)
        {
          reader_end (run, NULL);
          return;
        }

      run_touch (run);
      reader_read_next (g_steal_pointer (&run));
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      _agui_event_stream_finish_bytes (run->stream, &error);
      reader_end (run, error);
      return;
    }

  run->body_read += g_bytes_get_size (bytes);
  if (!_agui_event_stream_push_bytes (run->stream, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      gsize overflow = _agui_event_stream_get_overflow_size (run->stream);
      const char *encoding = response_encoding (run);

      if (error == NULL)
        {
          /* The consumer closed the stream. */
          reader_end (run, NULL);
        }
      else if (overflow > 0)
        {
          g_autoptr(GError) cap = NULL;

          cap = _agui_http_error_new_frame_cap (overflow, TRUE,
                                                _agui_event_stream_get_max_frame_size (run->stream));
          reader_end (run, cap);
        }
      else if (encoding != NULL && run->body_read == g_bytes_get_size (bytes) &&
               g_error_matches (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME))
        {
          g_autoptr(GError) corrupt = _agui_http_error_new_compressed_corrupt (encoding);

          /* The first bytes, not text: a compressed body libsoup
           * could not decompress from its start and passed on. */
          reader_end (run, corrupt);
        }
      else
        {
          reader_end (run, error);
        }
      return;
    }

  run_touch (run);
  reader_read_next (g_steal_pointer (&run));
}

static void
reader_read_next (Run *run)
{
  g_input_stream_read_bytes_async (run->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   run->cancellable, reader_read_cb, run);
}

static void
on_stream_closed (GCancellable *stream_cancellable,
                  gpointer      user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);
}

/* Setting up */

static void
error_body_finish (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GError *error;

  close_body (run->body);

  if (run->body_kind == BODY_NOT_AGUI)
    error = _agui_http_error_new_not_agui (run->url, run->content_type,
                                           run->error_body->data, run->error_body->len);
  else
    error = _agui_http_error_new_status (run->url,
                                         soup_message_get_status (run->message),
                                         soup_message_get_reason_phrase (run->message),
                                         run->content_type,
                                         run->error_body->data, run->error_body->len);

  setup_return_error (task, error);
}

static void error_body_read_next (GTask *task);

static void
error_body_read_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (bytes == NULL &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      run->expired == EXPIRED_NONE)
    {
      close_body (run->body);
      setup_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The end of the body, a broken connection or a timer running out:
   * quote what arrived. */
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      error_body_finish (task);
      return;
    }

  g_byte_array_append (run->error_body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  run_touch (run);

  if (run->error_body->len >= ERROR_BODY_MAX_BYTES)
    error_body_finish (task);
  else
    error_body_read_next (g_steal_pointer (&task));
}

static void
error_body_read_next (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (run->body,
                                   ERROR_BODY_MAX_BYTES - run->error_body->len,
                                   G_PRIORITY_DEFAULT,
                                   run->cancellable,
                                   error_body_read_cb,
                                   task);
}

static void send_request (GTask *task);

static gboolean
is_redirect (guint status)
{
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

static void
follow_redirect (GTask      *task,
                 guint       status,
                 const char *location)
{
  Run *run = g_task_get_task_data (task);
  g_autoptr(GUri) next = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *next_url = NULL;
  const char *scheme;

  close_body (g_steal_pointer (&run->body));

  if (!(next = g_uri_parse_relative (run->uri, location, SOUP_HTTP_URI_FLAGS, &error)) ||
      g_uri_get_host (next) == NULL ||
      ((scheme = g_uri_get_scheme (next)),
       g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      setup_return_new_error (task, AGUI_ERROR_HTTP_STATUS,
                              "The agent's server redirected the run (HTTP %u) to “%s”, "
                              "which is not an http or https URL; check the agent's URL",
                              status, location);
      return;
    }

  next_url = g_uri_to_string_partial (next, G_URI_HIDE_PASSWORD);

  /* 301, 302 and 303 let a client turn the POST into a GET, which would
   * drop the run's input; say where the agent went instead of guessing. */
  if (status != 307 && status != 308)
    {
      setup_return_new_error (task, AGUI_ERROR_HTTP_STATUS,
                              "The agent moved to %s (HTTP %u); a POST redirected this way is not "
                              "followed, because it would be sent again as a GET without the run: "
                              "set the agent's URL to the new location",
                              next_url, status);
      return;
    }

  for (guint i = 0; i < run->visited->len; i++)
    {
      if (g_strcmp0 (g_ptr_array_index (run->visited, i), next_url) == 0)
        {
          setup_return_new_error (task, AGUI_ERROR_HTTP_STATUS,
                                  "The agent's server redirects in a loop (%s leads back to %s); "
                                  "check the agent's URL and the server's configuration",
                                  (const char *) g_ptr_array_index (run->visited, run->visited->len - 1),
                                  next_url);
          return;
        }
    }

  if (run->visited->len > MAX_REDIRECTS)
    {
      setup_return_new_error (task, AGUI_ERROR_HTTP_STATUS,
                              "The agent's server redirected the run more than %d times (last to %s); "
                              "check the agent's URL",
                              MAX_REDIRECTS, next_url);
      return;
    }

  g_ptr_array_add (run->visited, g_steal_pointer (&next_url));
  g_clear_pointer (&run->uri, g_uri_unref);
  run->uri = g_steal_pointer (&next);

  send_request (g_object_ref (task));
}

static void
start_stream (GTask        *task,
              GInputStream *body,
              gboolean      binary)
{
  Run *run = g_task_get_task_data (task);
  g_autoptr(AguiEventStream) stream = agui_event_stream_new ();

  /* From here the run belongs to its stream: the caller's cancellable
   * bounded the setup, closing the stream ends the rest. */
  if (run->caller_cancelled_id != 0)
    {
      g_cancellable_disconnect (run->caller_cancellable, run->caller_cancelled_id);
      run->caller_cancelled_id = 0;
    }

  run->body = g_object_ref (body);
  run->stream = g_object_ref (stream);
  _agui_event_stream_set_max_frame_size (stream, run->max_frame_size);
  if (binary)
    {
      run->parser = agui_event_parser_new ();
      run->proto_decoder = _agui_proto_decoder_new ();
      if (run->max_frame_size > 0)
        _agui_proto_decoder_set_max_frame_size (run->proto_decoder, run->max_frame_size);
    }

  run->stream_closed_id = g_cancellable_connect (agui_event_stream_get_cancellable (stream),
                                                 G_CALLBACK (on_stream_closed),
                                                 run->cancellable, NULL);
  run_touch (run);
  reader_read_next (run_ref (run));

  run->setup_task = NULL;
  g_task_return_pointer (task, g_steal_pointer (&stream), g_object_unref);
}

static void
agui_http_transport_send_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *media_type = NULL;
  SoupMessageHeaders *headers;
  guint status;

  body = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  /* A timer has returned the task already. */
  if (run->setup_task == NULL)
    {
      if (body != NULL)
        close_body (body);
      return;
    }

  if (body == NULL)
    {
      if (run->expired != EXPIRED_NONE)
        setup_return_error (task, expiry_error (run, FALSE));
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        setup_return_error (task, g_steal_pointer (&error));
      else
        setup_return_error (task, _agui_http_error_new_connect (run->url, error));
      return;
    }

  /* The headers are an answer: the idle timeout starts over for the body. */
  run->got_headers = TRUE;
  g_clear_handle_id (&run->connect_timeout_id, g_source_remove);
  run_touch (run);

  status = soup_message_get_status (run->message);
  headers = soup_message_get_response_headers (run->message);
  g_clear_pointer (&run->content_type, g_free);
  run->content_type = g_strdup (soup_message_headers_get_one (headers, "Content-Type"));

  if (is_redirect (status) && soup_message_headers_get_one (headers, "Location") != NULL)
    {
      run->body = g_steal_pointer (&body);
      follow_redirect (task, status, soup_message_headers_get_one (headers, "Location"));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      run->body = g_steal_pointer (&body);
      run->body_kind = BODY_STATUS_ERROR;
      run->error_body = g_byte_array_new ();
      error_body_read_next (g_steal_pointer (&task));
      return;
    }

  /* Parameters (charset=utf-8) and case do not matter; no Content-Type at
   * all is read as SSE, as the reference does. */
  if (run->content_type != NULL)
    media_type = g_ascii_strdown (soup_message_headers_get_content_type (headers, NULL) ?: "", -1);

  /* Whatever was asked for, as the reference reads it: an agent set to
   * SSE never gets here with a binary body unless its server ignores
   * Accept, and then the body is still understood. */
  if (media_type != NULL && g_strcmp0 (media_type, PROTOBUF_CONTENT_TYPE) == 0)
    {
      start_stream (task, body, TRUE);
      return;
    }

  if (media_type != NULL && g_strcmp0 (media_type, SSE_CONTENT_TYPE) != 0)
    {
      run->body = g_steal_pointer (&body);
      run->body_kind = BODY_NOT_AGUI;
      run->error_body = g_byte_array_new ();
      error_body_read_next (g_steal_pointer (&task));
      return;
    }

  start_stream (task, body, FALSE);
}

static void
send_request (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  gboolean trusted = is_same_origin (run->uri, run->origin);
  SoupMessageHeaders *headers;

  run_drop_message (run);
  run->got_headers = FALSE;
  g_clear_handle_id (&run->idle_timeout_id, g_source_remove);

  run->message = soup_message_new_from_uri (SOUP_METHOD_POST, run->uri);
  /* Redirects are ours to judge: libsoup would turn a 301-303 into a GET
   * and carry every header to wherever the Location points. */
  soup_message_add_flags (run->message, SOUP_MESSAGE_NO_REDIRECT);
  soup_message_set_request_body_from_bytes (run->message, NULL, run->request_body);
  headers = soup_message_get_request_headers (run->message);
  for (guint i = 0; i < run->headers->len; i++)
    {
      const Header *header = &g_array_index (run->headers, Header, i);

      if (trusted || is_fixed_header (header->name))
        soup_message_headers_append (headers, header->name, header->value);
    }

  g_signal_connect (run->message, "network-event", G_CALLBACK (on_network_event_cb), run);
  g_signal_connect (run->message, "wrote-headers", G_CALLBACK (on_wrote_headers_cb), run);
  g_signal_connect (run->message, "wrote-body", G_CALLBACK (on_wrote_body_cb), run);

  g_clear_handle_id (&run->connect_timeout_id, g_source_remove);
  if (run->connect_timeout > 0)
    run->connect_timeout_id = g_timeout_add (run->connect_timeout, on_connect_timeout_cb, run);

  soup_session_send_async (run->session, run->message, G_PRIORITY_DEFAULT, run->cancellable,
                           agui_http_transport_send_cb, task);
}

/* @body: the request's body, @input's JSON text */
static void
agui_http_transport_run_body_async (AguiJsonBodyTransport *transport,
                                    JsonNode              *input,
                                    GBytes                *body,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Run *run;

  g_assert (AGUI_IS_HTTP_TRANSPORT (self));
  g_assert (body != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_http_transport_run_body_async);

  /* A binding may construct the object and run it without ever calling
   * g_initable_init(): the configuration's error is then the run's. */
  if (!g_initable_init (G_INITABLE (self), NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  run = g_rc_box_new0 (Run);
  run->url = g_strdup (self->url);
  run->origin = g_uri_ref (self->uri);
  run->uri = g_uri_ref (self->uri);
  run->headers = g_array_ref (self->headers);
  run->session = g_object_ref (self->session);
  run->max_frame_size = self->max_frame_size;
  run->connect_timeout = self->connect_timeout;
  run->idle_timeout = self->idle_timeout;
  run->timeout = self->timeout;
  run->cancellable = g_cancellable_new ();
  run->visited = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (run->visited, g_uri_to_string_partial (self->uri, G_URI_HIDE_PASSWORD));
  g_task_set_task_data (task, run, (GDestroyNotify) run_unref);
  run->setup_task = task;

  run->request_body = g_bytes_ref (body);

  /* soup sees a cancellable of the run's own, so that the timers can stop
   * the request without touching the caller's. */
  if (cancellable != NULL)
    {
      run->caller_cancellable = g_object_ref (cancellable);
      run->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                        G_CALLBACK (on_caller_cancelled),
                                                        run->cancellable, NULL);
    }

  if (run->timeout > 0)
    run->deadline_id = g_timeout_add (run->timeout, on_deadline_cb, run);

  send_request (g_steal_pointer (&task));
}

static void
agui_http_transport_run_async (AguiTransport       *transport,
                               JsonNode            *input,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  char *json = json_to_string (input, FALSE);
  g_autoptr(GBytes) body = g_bytes_new_take (json, strlen (json));

  agui_http_transport_run_body_async (AGUI_JSON_BODY_TRANSPORT (transport), input, body,
                                      cancellable, callback, user_data);
}

static AguiEventStream *
agui_http_transport_run_finish (AguiTransport  *transport,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agui_http_transport_run_body_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
agui_http_transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_http_transport_run_async;
  iface->run_finish = agui_http_transport_run_finish;
}

static void
agui_http_transport_json_body_iface_init (AguiJsonBodyTransportInterface *iface)
{
  iface->run_body_async = agui_http_transport_run_body_async;
}


/* Optional whitespace around a field value (RFC 7230 section 3.2.3) is
 * spaces and tabs only: a CR or LF must stay, for the value check to
 * refuse it. */
static char *
dup_trimmed (const char *start,
             const char *end)
{
  while (start < end && (*start == ' ' || *start == '\t'))
    start++;
  while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
    end--;

  return g_strndup (start, end - start);
}

static gboolean
parse_header_line (const char  *line,
                   char       **name,
                   char       **value,
                   GError     **error)
{
  const char *colon = strchr (line, ':');
  g_autofree char *parsed_name = NULL;
  g_autofree char *parsed_value = NULL;

  if (colon == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not a header: write it as “Name: value”", line);
      return FALSE;
    }

  parsed_name = dup_trimmed (line, colon);
  parsed_value = dup_trimmed (colon + 1, colon + strlen (colon));

  if (!is_header_name (parsed_name))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not a valid header name", parsed_name);
      return FALSE;
    }

  if (!is_header_value (parsed_value))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "The value of header “%s” contains a control character",
                   parsed_name);
      return FALSE;
    }

  *name = g_steal_pointer (&parsed_name);
  *value = g_steal_pointer (&parsed_value);

  return TRUE;
}

static gboolean
check_configuration (AguiHttpTransport  *self,
                     GError            **error)
{
  g_autoptr(GError) uri_error = NULL;
  g_autoptr(GArray) headers = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (self->url == NULL)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                           "No agent URL was given: set the transport's url to an http or https URL");
      return FALSE;
    }

  if (!(uri = g_uri_parse (self->url, SOUP_HTTP_URI_FLAGS, &uri_error)))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not a valid URL: %s", self->url, uri_error->message);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not an http or https URL", self->url);
      return FALSE;
    }

  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” names no host", self->url);
      return FALSE;
    }

  headers = header_array_new ();
  for (guint i = 0; self->header_lines != NULL && self->header_lines[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (!parse_header_line (self->header_lines[i], &name, &value, error))
        return FALSE;

      if (!is_fixed_header (name))
        header_array_append (headers, name, value);
    }

  /* Exactly one type: an agent offered anything wider than SSE picks
   * the binary encoding (AG-UI.md 2.2). */
  header_array_append (headers, "Content-Type", "application/json");
  header_array_append (headers, "Accept",
                       self->encoding == AGUI_HTTP_ENCODING_PROTOBUF ? PROTOBUF_CONTENT_TYPE : SSE_CONTENT_TYPE);

  self->uri = g_steal_pointer (&uri);
  self->headers = g_steal_pointer (&headers);

  return TRUE;
}

static gboolean
agui_http_transport_initable_init (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (initable);

  g_assert (AGUI_IS_HTTP_TRANSPORT (self));

  /* The configuration is construct-only, so the first answer stands. */
  if (!self->initialized)
    {
      self->initialized = TRUE;
      check_configuration (self, &self->init_error);
    }

  if (self->init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->init_error));
      return FALSE;
    }

  return TRUE;
}

static void
agui_http_transport_initable_iface_init (GInitableIface *iface)
{
  iface->init = agui_http_transport_initable_init;
}

static void
agui_http_transport_constructed (GObject *object)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (object);

  G_OBJECT_CLASS (agui_http_transport_parent_class)->constructed (object);

  /* SoupSession:timeout is an I/O timeout: it would cut a stream whose
   * agent pauses to think. The run's own timers bound it instead. */
  if (self->session == NULL)
    self->session = g_object_new (SOUP_TYPE_SESSION,
                                  "timeout", 0,
                                  NULL);
}

static void
agui_http_transport_dispose (GObject *object)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (object);

  /* No abort, even of a session of our own: runs under way hold it
   * themselves and go on. */
  g_clear_object (&self->session);

  G_OBJECT_CLASS (agui_http_transport_parent_class)->dispose (object);
}

static void
agui_http_transport_finalize (GObject *object)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (object);

  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->header_lines, g_strfreev);
  g_clear_pointer (&self->headers, g_array_unref);
  g_clear_error (&self->init_error);

  G_OBJECT_CLASS (agui_http_transport_parent_class)->finalize (object);
}

static void
agui_http_transport_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    case PROP_HEADERS:
      g_value_set_boxed (value, self->header_lines);
      break;

    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;

    case PROP_IDLE_TIMEOUT:
      g_value_set_uint (value, self->idle_timeout);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_MAX_FRAME_SIZE:
      g_value_set_uint64 (value, self->max_frame_size);
      break;

    case PROP_ENCODING:
      g_value_set_enum (value, self->encoding);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_http_transport_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_URL:
      self->url = g_value_dup_string (value);
      break;

    case PROP_HEADERS:
      self->header_lines = g_value_dup_boxed (value);
      break;

    case PROP_CONNECT_TIMEOUT:
      self->connect_timeout = g_value_get_uint (value);
      break;

    case PROP_IDLE_TIMEOUT:
      self->idle_timeout = g_value_get_uint (value);
      break;

    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;

    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;

    case PROP_MAX_FRAME_SIZE:
      self->max_frame_size = MIN (g_value_get_uint64 (value), G_MAXSIZE);
      break;

    case PROP_ENCODING:
      self->encoding = g_value_get_enum (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_http_transport_class_init (AguiHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agui_http_transport_constructed;
  object_class->dispose = agui_http_transport_dispose;
  object_class->finalize = agui_http_transport_finalize;
  object_class->get_property = agui_http_transport_get_property;
  object_class->set_property = agui_http_transport_set_property;

  /**
   * AguiHttpTransport:url:
   *
   * The agent's endpoint, an `http` or `https` URL, posted to as it is
   * (no path is appended). Required: initialising a transport without
   * one fails with %AGUI_ERROR_CONFIG.
   */
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:headers: (type GStrv)
   *
   * Headers added to every request, in order, each a `"Name: value"`
   * line; spaces and tabs around the value are dropped. `Content-Type`
   * and `Accept` are the transport's own: a line of either name is
   * ignored. A line without a colon, a name that is not an RFC 7230 token
   * and a value with a control character (CR and LF included) fail the
   * initialisation with %AGUI_ERROR_CONFIG.
   *
   * The caller's headers go only to the agent's own origin, never to a
   * redirect's. [method@Agui.HttpTransport.dup_headers] lists every
   * header sent.
   */
  properties[PROP_HEADERS] =
    g_param_spec_boxed ("headers", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:connect-timeout:
   *
   * How long, in milliseconds, setting up the connection may take:
   * resolving the host, TCP, TLS and a proxy's tunnel; 0 for no limit.
   * Once the request is on its way, waiting for the answer is the
   * [property@Agui.HttpTransport:idle-timeout]'s business, so an agent
   * that thinks before it answers is not cut off. Running out fails the
   * run with %AGUI_ERROR_CONNECT.
   */
  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:idle-timeout:
   *
   * How long, in milliseconds, the agent may send nothing; 0 for no
   * limit. It bounds the wait between sending the request and the
   * response headers (%AGUI_ERROR_CONNECT) and between two reads of the
   * stream (the stream ends with %AGUI_ERROR_STREAM); each byte that
   * arrives starts it over. The default, %AGUI_HTTP_DEFAULT_IDLE_TIMEOUT,
   * is five minutes.
   *
   * SSE comments count: they are how a slow agent (or a proxy) keeps
   * the connection open while the model works. An agent that sends
   * nothing else is bounded by [property@Agui.HttpTransport:timeout].
   */
  properties[PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL, 0, G_MAXUINT, AGUI_HTTP_DEFAULT_IDLE_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:timeout:
   *
   * How long, in milliseconds, a whole run may take, streaming included;
   * 0 for no limit. A stream still going when the time is up ends with
   * %AGUI_ERROR_STREAM, a truncated run; one still waiting for the
   * headers fails with %AGUI_ERROR_CONNECT. A long-running agent wants
   * [property@Agui.HttpTransport:idle-timeout] instead; this one also
   * ends a run an agent keeps alive with SSE comments and nothing else.
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:session:
   *
   * The session requests are sent with: one configured for proxies, TLS
   * or a shared connection pool, or, when none is given, one of the
   * transport's own. The transport keeps a reference and never aborts
   * it. A session's [property@Soup.Session:timeout] applies to every
   * read, so a session that sets one cuts off an agent that pauses longer
   * mid-stream.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SOUP_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:max-frame-size:
   *
   * The largest frame accepted, SSE or binary, in bytes, or 0 for the
   * decoder's default (8 MiB). A larger one ends the stream with
   * %AGUI_ERROR_INVALID_FRAME, whose message names the frame's size, the
   * cap and how to raise it. A binary frame is refused as soon as its
   * length prefix announces more.
   */
  properties[PROP_MAX_FRAME_SIZE] =
    g_param_spec_uint64 ("max-frame-size", NULL, NULL, 0, G_MAXUINT64, 0,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:encoding:
   *
   * The encoding asked for in every request's `Accept`: exactly
   * `text/event-stream` for %AGUI_HTTP_ENCODING_SSE (the default),
   * exactly `application/vnd.ag-ui.event+proto` for
   * %AGUI_HTTP_ENCODING_PROTOBUF. The events are the same; the binary
   * encoding is smaller and cheaper to read. A response is read by its
   * `Content-Type` whichever was asked for.
   */
  properties[PROP_ENCODING] =
    g_param_spec_enum ("encoding", NULL, NULL, AGUI_TYPE_HTTP_ENCODING, AGUI_HTTP_ENCODING_SSE,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_http_transport_init (AguiHttpTransport *self)
{
  self->idle_timeout = AGUI_HTTP_DEFAULT_IDLE_TIMEOUT;
}

/**
 * agui_http_transport_new:
 * @url: the agent's endpoint, an `http` or `https` URL
 * @error: return location for a #GError
 *
 * Makes and initialises a transport with no extra headers, no connect or
 * whole-run timeout and the default idle timeout. A URL that does not
 * parse, is not `http` or `https` or names no host is %AGUI_ERROR_CONFIG.
 * Other settings are construct properties, given to
 * [func@Gio.Initable.new].
 *
 * Returns: (transfer full) (nullable): a new transport, or %NULL with
 *   @error set
 */
AguiHttpTransport *
agui_http_transport_new (const char  *url,
                         GError     **error)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, error,
                         "url", url,
                         NULL);
}

/**
 * agui_http_transport_get_url:
 * @self: a transport
 *
 * Returns: (nullable): the agent's URL, as configured
 */
const char *
agui_http_transport_get_url (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), NULL);

  return self->url;
}

/**
 * agui_http_transport_dup_headers:
 * @self: an initialised transport
 *
 * Lists the headers every request carries besides those libsoup adds
 * (`Host`, `Content-Length` and the like): the caller's, then
 * `Content-Type` and `Accept`.
 *
 * Returns: (transfer full) (array zero-terminated=1): `"Name: value"`
 *   lines, in the order sent; empty for a transport whose configuration
 *   failed or that was not initialised
 */
char **
agui_http_transport_dup_headers (AguiHttpTransport *self)
{
  guint n_headers;
  char **lines;

  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), NULL);

  n_headers = self->headers != NULL ? self->headers->len : 0;
  lines = g_new0 (char *, n_headers + 1);
  for (guint i = 0; i < n_headers; i++)
    {
      const Header *header = &g_array_index (self->headers, Header, i);

      lines[i] = g_strdup_printf ("%s: %s", header->name, header->value);
    }

  return lines;
}

/**
 * agui_http_transport_get_connect_timeout:
 * @self: a transport
 *
 * Returns: the connect timeout in milliseconds, 0 for none
 */
guint
agui_http_transport_get_connect_timeout (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), 0);

  return self->connect_timeout;
}

/**
 * agui_http_transport_get_idle_timeout:
 * @self: a transport
 *
 * Returns: the idle timeout in milliseconds, 0 for none
 */
guint
agui_http_transport_get_idle_timeout (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), 0);

  return self->idle_timeout;
}

/**
 * agui_http_transport_get_timeout:
 * @self: a transport
 *
 * Returns: the whole-run timeout in milliseconds, 0 for none
 */
guint
agui_http_transport_get_timeout (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), 0);

  return self->timeout;
}

/**
 * agui_http_transport_get_session:
 * @self: a transport
 *
 * Returns: (transfer none): the session requests are sent with, the
 *   caller's or the transport's own
 */
SoupSession *
agui_http_transport_get_session (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), NULL);

  return self->session;
}

/**
 * agui_http_transport_get_max_frame_size:
 * @self: a transport
 *
 * Returns: the largest frame accepted, or 0 for the decoder's default
 */
gsize
agui_http_transport_get_max_frame_size (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), 0);

  return self->max_frame_size;
}

/**
 * agui_http_transport_get_encoding:
 * @self: a transport
 *
 * Returns: the encoding the transport asks for
 */
AguiHttpEncoding
agui_http_transport_get_encoding (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), AGUI_HTTP_ENCODING_SSE);

  return self->encoding;
}
