/* agui-http-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-enums.h"
#include "agui-http-request-private.h"
#include "agui-http-run-private.h"
#include "agui-transport-private.h"

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

  _agui_http_run_start (self, g_steal_pointer (&task), body, cancellable);
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

  if (!(headers = _agui_http_request_parse_headers ((const char * const *) self->header_lines,
                                                    self->encoding, error)))
    return FALSE;

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
      const AguiHttpHeader *header = &g_array_index (self->headers, AguiHttpHeader, i);

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
