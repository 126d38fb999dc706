/* agui-http-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-http-transport.h"

/* The reference client quotes this much of an error response. */
#define ERROR_BODY_MAX_CHARS 2048
/* A character is at most four bytes of UTF-8, so this many bytes always
 * hold the characters quoted and never a megabyte of HTML. */
#define ERROR_BODY_MAX_BYTES (ERROR_BODY_MAX_CHARS * 4)

#define PROTOBUF_CONTENT_TYPE "application/vnd.ag-ui.event+proto"

/**
 * AguiHttpTransport:
 *
 * The transport that speaks AG-UI over HTTP: one `POST` of the
 * `RunAgentInput` as JSON, answered by a `text/event-stream` body decoded
 * as it arrives.
 *
 * A transport is made by an [struct@Agui.HttpTransportBuilder], which
 * validates the URL and the extra headers when it builds, so the setters
 * stay a plain chain:
 *
 * ```c
 * g_autoptr(AguiHttpTransportBuilder) builder = NULL;
 * g_autoptr(AguiHttpTransport) transport = NULL;
 * g_autoptr(GError) error = NULL;
 *
 * builder = agui_http_transport_builder_new ("https://example.com/agent");
 * agui_http_transport_builder_add_header (builder, "Authorization", "Bearer token");
 * // Bounds the setup only; a long answer is not cut off.
 * agui_http_transport_builder_set_connect_timeout (builder, 5000);
 * if (!(transport = agui_http_transport_builder_build (builder, &error)))
 *   g_printerr ("%s\n", error->message);
 * ```
 *
 * Every request carries `Content-Type: application/json` and exactly
 * `Accept: text/event-stream`, after the caller's headers and replacing
 * any of the same name: an agent asked with a wider `Accept` may answer
 * in the binary encoding, which this client does not speak.
 *
 * Failing to start a run is an error of
 * [method@Agui.Transport.run_finish]: %AGUI_ERROR_CONNECT when the agent
 * cannot be reached or does not answer within the connect timeout,
 * %AGUI_ERROR_HTTP_STATUS for a status outside 2xx (with the start of the
 * body in the message) and %AGUI_ERROR_UNSUPPORTED for a binary answer.
 * Failing later, a broken connection or the whole-run timeout, ends the
 * [class@Agui.EventStream] with %AGUI_ERROR_STREAM.
 *
 * Runs stand alone: a stream keeps being read after the transport is
 * dropped, and closing the stream closes its connection.
 */

/**
 * AguiHttpTransportBuilder:
 *
 * Collects the configuration of an [class@Agui.HttpTransport]. Nothing is
 * checked until [method@Agui.HttpTransportBuilder.build].
 */

typedef struct
{
  char *name;
  char *value;
} Header;

struct _AguiHttpTransportBuilder
{
  char        *url;
  GArray      *headers;
  SoupSession *session;
  gsize        max_frame_size;
  guint        connect_timeout;
  guint        timeout;
};

struct _AguiHttpTransport
{
  GObject      parent_instance;
  char        *url;
  GUri        *uri;
  GArray      *headers;
  SoupSession *session;
  gsize        max_frame_size;
  guint        connect_timeout;
  guint        timeout;
};

/* One run until its stream is handed over. */
typedef struct
{
  SoupMessage  *message;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  GInputStream *body;
  GByteArray   *error_body;
  gint64        started_at;
  guint         setup_timeout_id;
  guint         setup_limit;
  guint         timed_out : 1;
} Run;

/* The whole-run timeout, once the stream is the consumer's. */
typedef struct
{
  GWeakRef     stream;
  SoupMessage *message;
  gulong       finished_id;
  guint        source_id;
  guint        timeout;
} Deadline;

static void agui_http_transport_iface_init (AguiTransportInterface *iface);

G_DEFINE_BOXED_TYPE (AguiHttpTransportBuilder, agui_http_transport_builder,
                     agui_http_transport_builder_copy, agui_http_transport_builder_free)

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiHttpTransport, agui_http_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT,
                                                      agui_http_transport_iface_init))

enum {
  PROP_0,
  PROP_URL,
  PROP_CONNECT_TIMEOUT,
  PROP_TIMEOUT,
  PROP_SESSION,
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

static void
run_free (Run *run)
{
  if (run->caller_cancellable != NULL)
    g_cancellable_disconnect (run->caller_cancellable, run->caller_cancelled_id);
  g_clear_handle_id (&run->setup_timeout_id, g_source_remove);
  g_clear_object (&run->caller_cancellable);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->message);
  g_clear_object (&run->body);
  g_clear_pointer (&run->error_body, g_byte_array_unref);
  g_free (run);
}

static void
deadline_free (gpointer data)
{
  Deadline *deadline = data;

  g_clear_signal_handler (&deadline->finished_id, deadline->message);
  g_clear_object (&deadline->message);
  g_weak_ref_clear (&deadline->stream);
  g_free (deadline);
}

static gboolean
on_deadline_cb (gpointer user_data)
{
  Deadline *deadline = user_data;
  g_autoptr(AguiEventStream) stream = g_weak_ref_get (&deadline->stream);

  deadline->source_id = 0;

  if (stream != NULL && !agui_event_stream_is_ended (stream))
    {
      g_autoptr(GError) error = NULL;

      error = g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                           "The run took longer than %u ms", deadline->timeout);
      agui_event_stream_end (stream, error);
      /* The stream has its end; cancelling its reader closes the body,
       * and with it the connection. */
      g_cancellable_cancel (agui_event_stream_get_cancellable (stream));
    }

  return G_SOURCE_REMOVE;
}

static void
on_message_finished_cb (SoupMessage *message,
                        gpointer     user_data)
{
  Deadline *deadline = user_data;

  /* The body is done with, one way or another; nothing is left to cut. */
  if (deadline->source_id != 0)
    g_source_remove (deadline->source_id);
}

static void
deadline_start (AguiEventStream *stream,
                SoupMessage     *message,
                guint            timeout,
                guint            remaining)
{
  Deadline *deadline = g_new0 (Deadline, 1);

  g_weak_ref_init (&deadline->stream, stream);
  deadline->message = g_object_ref (message);
  deadline->timeout = timeout;
  deadline->source_id = g_timeout_add_full (G_PRIORITY_DEFAULT, remaining,
                                            on_deadline_cb, deadline, deadline_free);
  deadline->finished_id = g_signal_connect (message, "finished",
                                            G_CALLBACK (on_message_finished_cb), deadline);
}

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

static gboolean
on_setup_timeout_cb (gpointer user_data)
{
  Run *run = user_data;

  run->setup_timeout_id = 0;
  run->timed_out = TRUE;
  g_cancellable_cancel (run->cancellable);

  return G_SOURCE_REMOVE;
}

static char *
error_body_to_text (GByteArray *bytes,
                    const char *content_type)
{
  g_autofree char *text = NULL;

  if (bytes->len == 0)
    return g_strdup ("");

  text = g_utf8_make_valid ((const char *) bytes->data, bytes->len);

  /* As the reference does, a JSON error is re-serialised compactly; one
   * cut short by the size limit is quoted as it came. */
  if (content_type != NULL && strstr (content_type, "application/json") != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, text, -1, NULL) &&
          json_parser_get_root (parser) != NULL)
        {
          g_free (text);
          text = json_to_string (json_parser_get_root (parser), FALSE);
        }
    }

  if (g_utf8_strlen (text, -1) > ERROR_BODY_MAX_CHARS)
    *g_utf8_offset_to_pointer (text, ERROR_BODY_MAX_CHARS) = '\0';

  return g_steal_pointer (&text);
}

static void
error_body_finish (GTask *task)
{
  AguiHttpTransport *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  SoupMessageHeaders *headers = soup_message_get_response_headers (run->message);
  guint status = soup_message_get_status (run->message);
  g_autofree char *text = NULL;

  g_assert (AGUI_IS_HTTP_TRANSPORT (self));

  text = error_body_to_text (run->error_body,
                             soup_message_headers_get_one (headers, "Content-Type"));
  close_body (run->body);

  if (text[0] == '\0')
    {
      const char *phrase = soup_message_get_reason_phrase (run->message);

      if (phrase == NULL || phrase[0] == '\0')
        phrase = soup_status_get_phrase (status);
      g_free (text);
      text = g_strdup (phrase != NULL ? phrase : "");
    }

  g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS,
                           "HTTP %u: %s", status, text);
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
      !run->timed_out)
    {
      close_body (run->body);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A body that breaks off or stalls still has a status worth reporting:
   * quote what arrived. */
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      error_body_finish (task);
      return;
    }

  g_byte_array_append (run->error_body,
                       g_bytes_get_data (bytes, NULL),
                       g_bytes_get_size (bytes));

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

static void
agui_http_transport_send_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiHttpTransport *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;
  guint status;

  g_assert (AGUI_IS_HTTP_TRANSPORT (self));

  if (!(body = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    {
      if (run->timed_out)
        g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_CONNECT,
                                 "The agent at %s did not answer within %u ms",
                                 self->url, run->setup_limit);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_CONNECT,
                                 "Could not reach the agent at %s: %s",
                                 self->url, error->message);
      return;
    }

  status = soup_message_get_status (run->message);
  headers = soup_message_get_response_headers (run->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      /* The connect timeout keeps bounding this read: until there is a
       * stream, the run is still being set up. */
      run->body = g_steal_pointer (&body);
      run->error_body = g_byte_array_new ();
      error_body_read_next (g_steal_pointer (&task));
      return;
    }

  content_type = soup_message_headers_get_one (headers, "Content-Type");
  if (g_strcmp0 (content_type, PROTOBUF_CONTENT_TYPE) == 0)
    {
      close_body (body);
      g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_UNSUPPORTED,
                               "The agent at %s answered in the binary AG-UI encoding (%s), "
                               "which this client does not speak; it asked for text/event-stream",
                               self->url, PROTOBUF_CONTENT_TYPE);
      return;
    }

  g_clear_handle_id (&run->setup_timeout_id, g_source_remove);

  stream = agui_event_stream_new ();
  agui_event_stream_read_sse (stream, body, self->max_frame_size);

  if (self->timeout > 0)
    {
      gint64 elapsed = (g_get_monotonic_time () - run->started_at) / 1000;
      guint remaining = elapsed >= self->timeout ? 0 : self->timeout - (guint) elapsed;

      deadline_start (stream, run->message, self->timeout, remaining);
    }

  g_task_return_pointer (task, g_steal_pointer (&stream), g_object_unref);
}

static void
agui_http_transport_run_async (AguiTransport       *transport,
                               JsonNode            *input,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  AguiHttpTransport *self = AGUI_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) body = NULL;
  SoupMessageHeaders *headers;
  char *json;
  Run *run;

  g_assert (AGUI_IS_HTTP_TRANSPORT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_http_transport_run_async);

  run = g_new0 (Run, 1);
  run->started_at = g_get_monotonic_time ();
  run->cancellable = g_cancellable_new ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  json = json_to_string (input, FALSE);
  body = g_bytes_new_take (json, strlen (json));

  run->message = soup_message_new_from_uri (SOUP_METHOD_POST, self->uri);
  soup_message_set_request_body_from_bytes (run->message, NULL, body);
  headers = soup_message_get_request_headers (run->message);
  for (guint i = 0; i < self->headers->len; i++)
    {
      const Header *header = &g_array_index (self->headers, Header, i);

      soup_message_headers_append (headers, header->name, header->value);
    }

  /* soup sees a cancellable of the run's own, so that the connect timeout
   * can stop the request without touching the caller's. */
  if (cancellable != NULL)
    {
      run->caller_cancellable = g_object_ref (cancellable);
      run->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                        G_CALLBACK (on_caller_cancelled),
                                                        run->cancellable, NULL);
    }

  if (self->connect_timeout > 0 && (self->timeout == 0 || self->connect_timeout <= self->timeout))
    run->setup_limit = self->connect_timeout;
  else
    run->setup_limit = self->timeout;

  if (run->setup_limit > 0)
    run->setup_timeout_id = g_timeout_add (run->setup_limit, on_setup_timeout_cb, run);

  soup_session_send_async (self->session, run->message, G_PRIORITY_DEFAULT, run->cancellable,
                           agui_http_transport_send_cb, g_steal_pointer (&task));
}

static AguiEventStream *
agui_http_transport_run_finish (AguiTransport  *transport,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agui_http_transport_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
agui_http_transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_http_transport_run_async;
  iface->run_finish = agui_http_transport_run_finish;
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
  g_clear_pointer (&self->headers, g_array_unref);

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

    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_http_transport_class_init (AguiHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agui_http_transport_dispose;
  object_class->finalize = agui_http_transport_finalize;
  object_class->get_property = agui_http_transport_get_property;

  /**
   * AguiHttpTransport:url:
   *
   * The agent's URL, as configured.
   */
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:connect-timeout:
   *
   * How long, in milliseconds, the agent has to answer a run with its
   * response headers; 0 for no limit.
   */
  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:timeout:
   *
   * How long, in milliseconds, a whole run may take, streaming included;
   * 0 for no limit.
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiHttpTransport:session:
   *
   * The session requests are sent with.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SOUP_TYPE_SESSION,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_http_transport_init (AguiHttpTransport *self)
{
  self->headers = header_array_new ();
}

/**
 * agui_http_transport_builder_new:
 * @url: the agent's endpoint, an `http` or `https` URL
 *
 * Starts configuring a transport that posts runs to @url as it is (no
 * path is appended).
 *
 * Returns: (transfer full): a new builder
 */
AguiHttpTransportBuilder *
agui_http_transport_builder_new (const char *url)
{
  AguiHttpTransportBuilder *self;

  g_return_val_if_fail (url != NULL, NULL);

  self = g_new0 (AguiHttpTransportBuilder, 1);
  self->url = g_strdup (url);
  self->headers = header_array_new ();

  return self;
}

/**
 * agui_http_transport_builder_copy:
 * @self: a builder
 *
 * Returns: (transfer full): a builder with the same configuration
 */
AguiHttpTransportBuilder *
agui_http_transport_builder_copy (AguiHttpTransportBuilder *self)
{
  AguiHttpTransportBuilder *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = agui_http_transport_builder_new (self->url);
  for (guint i = 0; i < self->headers->len; i++)
    {
      const Header *header = &g_array_index (self->headers, Header, i);

      header_array_append (copy->headers, header->name, header->value);
    }
  g_set_object (&copy->session, self->session);
  copy->max_frame_size = self->max_frame_size;
  copy->connect_timeout = self->connect_timeout;
  copy->timeout = self->timeout;

  return copy;
}

/**
 * agui_http_transport_builder_free:
 * @self: (nullable): a builder
 *
 * Frees @self.
 */
void
agui_http_transport_builder_free (AguiHttpTransportBuilder *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->headers, g_array_unref);
  g_clear_object (&self->session);
  g_free (self);
}

/**
 * agui_http_transport_builder_add_header:
 * @self: a builder
 * @name: a header name, such as `Authorization`
 * @value: its value
 *
 * Adds a header to every request, in the order added. `Content-Type` and
 * `Accept` are the transport's own: a caller's header of either name is
 * replaced. Both are checked by [method@Agui.HttpTransportBuilder.build].
 */
void
agui_http_transport_builder_add_header (AguiHttpTransportBuilder *self,
                                        const char               *name,
                                        const char               *value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);

  header_array_append (self->headers, name, value);
}

/**
 * agui_http_transport_builder_set_connect_timeout:
 * @self: a builder
 * @milliseconds: the limit, or 0 for none
 *
 * Bounds the setup of a run only: from sending the request until the
 * response headers arrive. The stream itself stays unbounded, which is
 * what an agent that thinks for a long time needs.
 */
void
agui_http_transport_builder_set_connect_timeout (AguiHttpTransportBuilder *self,
                                                 guint                     milliseconds)
{
  g_return_if_fail (self != NULL);

  self->connect_timeout = milliseconds;
}

/**
 * agui_http_transport_builder_set_timeout:
 * @self: a builder
 * @milliseconds: the limit, or 0 for none
 *
 * Bounds the whole run, streaming included: a stream still going when
 * the time is up ends with %AGUI_ERROR_STREAM, a truncated run. A
 * long-running agent wants [method@Agui.HttpTransportBuilder.set_connect_timeout]
 * instead.
 */
void
agui_http_transport_builder_set_timeout (AguiHttpTransportBuilder *self,
                                         guint                     milliseconds)
{
  g_return_if_fail (self != NULL);

  self->timeout = milliseconds;
}

/**
 * agui_http_transport_builder_set_session:
 * @self: a builder
 * @session: (nullable): a session configured for proxies, TLS or a shared
 *   connection pool, or %NULL for one of the transport's own
 *
 * Sends requests with @session. The transport keeps a reference and never
 * aborts it. A session's #SoupSession:timeout applies to every read, so a
 * session that sets one cuts off an agent that pauses longer mid-stream.
 */
void
agui_http_transport_builder_set_session (AguiHttpTransportBuilder *self,
                                         SoupSession              *session)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!session || SOUP_IS_SESSION (session));

  g_set_object (&self->session, session);
}

/**
 * agui_http_transport_builder_set_max_frame_size:
 * @self: a builder
 * @max_frame_size: the largest SSE frame accepted, in bytes, or 0 for the
 *   decoder's default (8 MiB)
 *
 * Caps a single frame; a larger one ends the stream with
 * %AGUI_ERROR_INVALID_FRAME.
 */
void
agui_http_transport_builder_set_max_frame_size (AguiHttpTransportBuilder *self,
                                                gsize                     max_frame_size)
{
  g_return_if_fail (self != NULL);

  self->max_frame_size = max_frame_size;
}

/**
 * agui_http_transport_builder_build:
 * @self: a builder
 * @error: return location for a #GError
 *
 * Checks the configuration and makes a transport. A URL that does not
 * parse or is not `http` or `https`, a header name that is not an RFC 7230
 * token and a header value with a control character (CR and LF included)
 * are %AGUI_ERROR_CONFIG.
 *
 * The builder can be changed and built again afterwards.
 *
 * Returns: (transfer full) (nullable): a new transport, or %NULL with
 *   @error set
 */
AguiHttpTransport *
agui_http_transport_builder_build (AguiHttpTransportBuilder  *self,
                                   GError                   **error)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) uri_error = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(uri = g_uri_parse (self->url, SOUP_HTTP_URI_FLAGS, &uri_error)))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not a valid URL: %s", self->url, uri_error->message);
      return NULL;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” is not an http or https URL", self->url);
      return NULL;
    }

  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                   "“%s” names no host", self->url);
      return NULL;
    }

  transport = g_object_new (AGUI_TYPE_HTTP_TRANSPORT, NULL);

  for (guint i = 0; i < self->headers->len; i++)
    {
      const Header *header = &g_array_index (self->headers, Header, i);

      if (!is_header_name (header->name))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                       "“%s” is not a valid header name", header->name);
          return NULL;
        }

      if (!is_header_value (header->value))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG,
                       "The value of header “%s” contains a control character",
                       header->name);
          return NULL;
        }

      if (!is_fixed_header (header->name))
        header_array_append (transport->headers, header->name, header->value);
    }

  /* Exactly this Accept: an agent offered anything wider may pick the
   * binary encoding (AG-UI.md 2.2). */
  header_array_append (transport->headers, "Content-Type", "application/json");
  header_array_append (transport->headers, "Accept", "text/event-stream");

  transport->url = g_strdup (self->url);
  transport->uri = g_steal_pointer (&uri);
  transport->connect_timeout = self->connect_timeout;
  transport->timeout = self->timeout;
  transport->max_frame_size = self->max_frame_size;

  if (self->session != NULL)
    transport->session = g_object_ref (self->session);
  else
    /* SoupSession:timeout is an I/O timeout: it would cut a stream whose
     * agent pauses to think. The run's own timers bound it instead. */
    transport->session = g_object_new (SOUP_TYPE_SESSION,
                                       "timeout", 0,
                                       NULL);

  return g_steal_pointer (&transport);
}

/**
 * agui_http_transport_new:
 * @url: the agent's endpoint, an `http` or `https` URL
 * @error: return location for a #GError
 *
 * Makes a transport with no extra headers and no timeouts; see
 * [method@Agui.HttpTransportBuilder.build] for the errors.
 *
 * Returns: (transfer full) (nullable): a new transport, or %NULL with
 *   @error set
 */
AguiHttpTransport *
agui_http_transport_new (const char  *url,
                         GError     **error)
{
  g_autoptr(AguiHttpTransportBuilder) builder = NULL;

  g_return_val_if_fail (url != NULL, NULL);

  builder = agui_http_transport_builder_new (url);

  return agui_http_transport_builder_build (builder, error);
}

/**
 * agui_http_transport_get_url:
 * @self: a transport
 *
 * Returns: the agent's URL, as configured
 */
const char *
agui_http_transport_get_url (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), NULL);

  return self->url;
}

/**
 * agui_http_transport_dup_headers:
 * @self: a transport
 *
 * Lists the headers every request carries besides those libsoup adds
 * (`Host`, `Content-Length` and the like): the caller's, then
 * `Content-Type` and `Accept`.
 *
 * Returns: (transfer full) (array zero-terminated=1): `"Name: value"`
 *   lines, in the order sent
 */
char **
agui_http_transport_dup_headers (AguiHttpTransport *self)
{
  char **lines;

  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), NULL);

  lines = g_new0 (char *, self->headers->len + 1);
  for (guint i = 0; i < self->headers->len; i++)
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
 * Returns: the largest SSE frame accepted, or 0 for the decoder's default
 */
gsize
agui_http_transport_get_max_frame_size (AguiHttpTransport *self)
{
  g_return_val_if_fail (AGUI_IS_HTTP_TRANSPORT (self), 0);

  return self->max_frame_size;
}
