/* agui-http-run.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-error-private.h"
#include "agui-event-stream-private.h"
#include "agui-http-errors-private.h"
#include "agui-http-framing-private.h"
#include "agui-http-request-private.h"
#include "agui-http-run-private.h"

/* One run of an AguiHttpTransport, from the request to the end of its
 * stream: the timers, the redirects, an error body read to quote it, and
 * the body handed to its framing as it arrives. */

/* A character is at most four bytes of UTF-8, so this many bytes always
 * hold the characters quoted and never a megabyte of HTML. */
#define ERROR_BODY_MAX_BYTES (AGUI_HTTP_ERROR_BODY_MAX_CHARS * 4)

#define READ_SIZE 16384

/* Browsers follow 20; an agent behind more than a few is misconfigured. */
#define MAX_REDIRECTS 5

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
  AguiHttpBodyReader *body_reader;
} Run;

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
  g_clear_pointer (&run->body_reader, _agui_http_body_reader_free);
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

  if (g_bytes_get_size (bytes) == 0)
    {
      _agui_http_body_reader_finish (run->body_reader, &error);
      reader_end (run, error);
      return;
    }

  /* No error: the consumer closed the stream. */
  if (!_agui_http_body_reader_push (run->body_reader, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      reader_end (run, error);
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
start_stream (GTask           *task,
              GInputStream    *body,
              AguiHttpFraming  framing)
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
  run->body_reader = _agui_http_body_reader_new (framing, stream, run->max_frame_size,
                                                 response_encoding (run));

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
  SoupMessageHeaders *headers;
  AguiHttpFraming framing;
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

  framing = _agui_http_framing_for_response (headers);
  if (framing == AGUI_HTTP_FRAMING_NONE)
    {
      run->body = g_steal_pointer (&body);
      run->body_kind = BODY_NOT_AGUI;
      run->error_body = g_byte_array_new ();
      error_body_read_next (g_steal_pointer (&task));
      return;
    }

  start_stream (task, body, framing);
}

static void
send_request (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  run_drop_message (run);
  run->got_headers = FALSE;
  g_clear_handle_id (&run->idle_timeout_id, g_source_remove);

  run->message = _agui_http_request_new_message (run->uri, run->origin, run->headers, run->request_body);

  g_signal_connect (run->message, "network-event", G_CALLBACK (on_network_event_cb), run);
  g_signal_connect (run->message, "wrote-headers", G_CALLBACK (on_wrote_headers_cb), run);
  g_signal_connect (run->message, "wrote-body", G_CALLBACK (on_wrote_body_cb), run);

  g_clear_handle_id (&run->connect_timeout_id, g_source_remove);
  if (run->connect_timeout > 0)
    run->connect_timeout_id = g_timeout_add (run->connect_timeout, on_connect_timeout_cb, run);

  soup_session_send_async (run->session, run->message, G_PRIORITY_DEFAULT, run->cancellable,
                           agui_http_transport_send_cb, task);
}

/* Starts a run of @self, which has been initialised: the run copies
 * what it needs, so it goes on after @self is dropped, and returns @task. */
void
_agui_http_run_start (AguiHttpTransport *self,
                      GTask             *task,
                      GBytes            *body,
                      GCancellable      *cancellable)
{
  Run *run;

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

  send_request (task);
}
