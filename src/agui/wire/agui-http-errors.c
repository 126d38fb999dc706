/* agui-http-errors.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "agui-error-private.h"
#include "agui-http-errors-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

/* A plain-text body short enough to be a reason ("bad token") is quoted
 * in the message; a longer one, or a page, only in the details. */
#define SHORT_TEXT_MAX_CHARS 200

char *
_agui_http_format_duration (guint milliseconds)
{
  if (milliseconds < 1000 || milliseconds % 100 != 0)
    return g_strdup_printf ("%u ms", milliseconds);

  if (milliseconds % 60000 == 0)
    return g_strdup_printf ("%u min", milliseconds / 60000);

  if (milliseconds % 1000 == 0)
    return g_strdup_printf ("%u s", milliseconds / 1000);

  return g_strdup_printf ("%u.%u s", milliseconds / 1000, (milliseconds % 1000) / 100);
}

static gboolean
is_json_content_type (const char *content_type)
{
  return content_type != NULL &&
         (strstr (content_type, "application/json") != NULL ||
          strstr (content_type, "+json") != NULL);
}

/* json-glib's parser recurses; a body nested deeper than Tandem accepts
 * anywhere is not parsed at all. Strings are skipped so that a bracket
 * inside one does not count. */
static gboolean
is_shallow_json (const char *text)
{
  gboolean in_string = FALSE;
  int depth = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if (*p == '[' || *p == '{')
        {
          if (++depth > AGUI_JSON_MAX_DEPTH)
            return FALSE;
        }
      else if (*p == ']' || *p == '}')
        depth--;
    }

  return TRUE;
}

/* @text read into @value (null before), or FALSE */
static gboolean
parse_json (const char    *text,
            AguiJsonValue *value)
{
  return is_shallow_json (text) && _agui_json_doc_parse (text, -1, value, NULL);
}

char *
_agui_http_quote_body (const guint8 *body,
                       gsize         length,
                       const char   *content_type)
{
  g_autofree char *text = NULL;

  if (length == 0)
    return g_strdup ("");

  text = g_utf8_make_valid ((const char *) body, length);

  /* As the reference does, a JSON error is re-serialised compactly; one
   * cut short by the size limit is quoted as it came. */
  if (is_json_content_type (content_type))
    {
      g_auto(AguiJsonValue) root = AGUI_JSON_VALUE_INIT;
      char *compact = parse_json (text, &root) ? _agui_json_value_to_string (&root, FALSE, NULL) : NULL;

      if (compact != NULL)
        {
          g_free (text);
          text = compact;
        }
    }

  if (g_utf8_strlen (text, -1) > AGUI_HTTP_ERROR_BODY_MAX_CHARS)
    *g_utf8_offset_to_pointer (text, AGUI_HTTP_ERROR_BODY_MAX_CHARS) = '\0';

  return g_steal_pointer (&text);
}

/* What the common server frameworks put in an error body: FastAPI's
 * {"detail": "…"} or {"detail": [{"msg": "…"}]}, Express's and Hono's
 * {"message": "…"} or {"error": "…"}, OpenAI-style {"error": {"message"}}. */
static const char *
reason_from_value (const AguiJsonValue *value,
                   int                  depth)
{
  static const char * const names[] = { "detail", "message", "error", "msg", "title", NULL };

  if (value == NULL || depth > 3)
    return NULL;

  if (_agui_json_value_is_string (value))
    return _agui_json_value_get_string (value);

  if (value->kind == AGUI_JSON_DOC_ARRAY)
    return _agui_json_doc_get_length (value) > 0
           ? reason_from_value (_agui_json_doc_get_element (value, 0), depth + 1) : NULL;

  if (value->kind != AGUI_JSON_DOC_OBJECT)
    return NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *text = _agui_json_doc_get_string (value, names[i]);

      if (text != NULL && text[0] != '\0')
        return text;
    }

  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *text = reason_from_value (_agui_json_doc_get_member (value, names[i]), depth + 1);

      if (text != NULL)
        return text;
    }

  return NULL;
}

/* The one-line reason an error body gives, if it gives one. */
static char *
extract_reason (const guint8 *body,
                gsize         length,
                const char   *content_type)
{
  g_autofree char *text = NULL;
  g_auto(AguiJsonValue) root = AGUI_JSON_VALUE_INIT;
  gboolean parsed = FALSE;
  const char *reason = NULL;

  if (length == 0)
    return NULL;

  text = g_utf8_make_valid ((const char *) body, length);

  if (is_json_content_type (content_type) || text[0] == '{')
    {
      if ((parsed = parse_json (text, &root)))
        reason = reason_from_value (&root, 0);
      if (reason == NULL && parsed)
        return NULL;
    }

  if (reason == NULL)
    {
      /* A short plain-text body is its own reason; a page is not. */
      if (content_type != NULL && !g_str_has_prefix (content_type, "text/plain"))
        return NULL;
      g_strstrip (text);
      if (text[0] == '\0' || strchr (text, '\n') != NULL || g_utf8_strlen (text, -1) > SHORT_TEXT_MAX_CHARS)
        return NULL;
      return g_steal_pointer (&text);
    }

  if (g_utf8_strlen (reason, -1) > SHORT_TEXT_MAX_CHARS)
    {
      g_autofree char *cut = g_strdup (reason);

      *g_utf8_offset_to_pointer (cut, SHORT_TEXT_MAX_CHARS) = '\0';
      return g_strconcat (cut, "…", NULL);
    }

  return g_strdup (reason);
}

static char *
format_details (guint         status,
                const char   *reason_phrase,
                const char   *content_type,
                const guint8 *body,
                gsize         length)
{
  g_autofree char *quoted = _agui_http_quote_body (body, length, content_type);
  GString *details = g_string_new (NULL);

  if (status != 0)
    g_string_append_printf (details, "HTTP %u%s%s\n", status,
                            reason_phrase != NULL && reason_phrase[0] != '\0' ? " " : "",
                            reason_phrase != NULL ? reason_phrase : "");
  g_string_append_printf (details, "Content-Type: %s\n", content_type != NULL ? content_type : "(none)");
  if (quoted[0] != '\0')
    g_string_append_printf (details, "\n%s", quoted);

  return g_string_free (details, FALSE);
}

GError *
_agui_http_error_new_status (const char   *url,
                             guint         status,
                             const char   *reason_phrase,
                             const char   *content_type,
                             const guint8 *body,
                             gsize         length)
{
  g_autofree char *reason = extract_reason (body, length, content_type);
  g_autofree char *details = NULL;
  g_autoptr(GString) message = g_string_new (NULL);
  const char *advice = NULL;
  GError *error;

  if (reason_phrase == NULL || reason_phrase[0] == '\0')
    reason_phrase = soup_status_get_phrase (status);

  if (status == 401 || status == 403)
    {
      g_string_append_printf (message, "The agent's server refused the credentials (HTTP %u)", status);
      advice = "check the agent's token in Preferences";
    }
  else if (status == 404 || status == 405)
    {
      g_string_append_printf (message, "There is no AG-UI agent at %s (HTTP %u)", url, status);
      advice = "check the agent's URL";
    }
  else if (status == 408 || status == 429)
    {
      g_string_append_printf (message, "The agent's server is too busy to answer (HTTP %u)", status);
      advice = "wait a moment and try again";
    }
  else if (status >= 400 && status < 500)
    g_string_append_printf (message, "The agent's server rejected the request (HTTP %u)", status);
  else if (status == 502 || status == 503 || status == 504)
    {
      g_string_append_printf (message, "The agent's server is unavailable (HTTP %u)", status);
      advice = "try again later";
    }
  else if (status >= 500 && status < 600)
    g_string_append_printf (message, "The agent's server failed (HTTP %u)", status);
  else
    g_string_append_printf (message, "The agent's server answered HTTP %u%s%s", status,
                            reason_phrase != NULL ? " " : "", reason_phrase != NULL ? reason_phrase : "");

  if (reason != NULL)
    g_string_append_printf (message, ": %s", reason);
  else if (reason_phrase != NULL && status >= 400 && status < 600)
    g_string_append_printf (message, ": %s", reason_phrase);

  if (advice != NULL)
    g_string_append_printf (message, "; %s", advice);

  error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, message->str);
  details = format_details (status, reason_phrase, content_type, body, length);
  _agui_error_set_details (error, details);

  return error;
}

GError *
_agui_http_error_new_not_agui (const char   *url,
                               const char   *content_type,
                               const guint8 *body,
                               gsize         length)
{
  g_autofree char *details = format_details (0, NULL, content_type, body, length);
  GError *error;

  error = g_error_new (AGUI_ERROR, AGUI_ERROR_UNSUPPORTED,
                       "%s does not look like an AG-UI endpoint: it answered with %s "
                       "instead of an event stream; check the agent's URL",
                       url, content_type);
  _agui_error_set_details (error, details);

  return error;
}

GError *
_agui_http_error_new_connect (const char   *url,
                              const GError *cause)
{
  GError *error;

  g_assert (cause != NULL);

  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                         "Nothing is listening at %s: check that the agent's server is running "
                         "and that the URL (host and port) is right", url);
  else if (cause->domain == G_RESOLVER_ERROR)
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                         "The host of %s could not be found: check the agent's URL and the network", url);
  else if (cause->domain == G_TLS_ERROR)
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                         "Could not set up a secure connection to %s: %s", url, cause->message);
  else
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_CONNECT,
                         "Could not reach the agent at %s: %s", url, cause->message);

  _agui_error_set_details (error, cause->message);

  return error;
}

/* g_format_size() puts a no-break space before the unit; in a message
 * read on a terminal or matched by a script, a plain one is kinder. */
static char *
format_size (gsize size)
{
  static const char * const units[] = { "KiB", "MiB", "GiB" };
  double value = size;
  guint unit = 0;

  if (size < 1024)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", size);

  value /= 1024;
  while (value >= 1024 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024;
      unit++;
    }

  return g_strdup_printf ("%.1f %s (%" G_GSIZE_FORMAT " bytes)", value, units[unit], size);
}

GError *
_agui_http_error_new_frame_cap (gsize    size,
                                gboolean at_least,
                                gsize    max_frame_size)
{
  g_autofree char *size_text = format_size (size);
  g_autofree char *cap_text = format_size (max_frame_size);

  return g_error_new (AGUI_ERROR, AGUI_ERROR_INVALID_FRAME,
                      "An event of %s%s is larger than the maximum frame size of %s; "
                      "raise the agent's maximum frame size (in Preferences, or "
                      "--max-frame-size for tandem-cli) to accept it",
                      at_least ? "at least " : "", size_text, cap_text);
}

GError *
_agui_http_error_new_proto_length (gsize announced,
                                   gsize max_frame_size)
{
  g_autofree char *size_text = format_size (announced);
  g_autofree char *cap_text = format_size (max_frame_size);

  /* A body in another format read as binary frames announces nonsense:
   * "data" is 1.6 GiB. Both causes are named, the likelier first. */
  return g_error_new (AGUI_ERROR, AGUI_ERROR_INVALID_FRAME,
                      "A binary frame announces %s, more than the maximum frame size of %s: "
                      "its length prefix is broken, or the event is that large (then raise the "
                      "agent's maximum frame size, in Preferences or --max-frame-size for tandem-cli)",
                      size_text, cap_text);
}

/* A compressed body that does not decompress. libsoup reports it in
 * one of two ways, depending only on how the bytes were split on the
 * way: an error once its decompressor had taken a first piece (the gzip
 * header alone, say), or, when the first piece it saw already failed,
 * the body passed on as it came, which the SSE decoder then cannot read.
 * Both are said the same way. */
GError *
_agui_http_error_new_compressed_corrupt (const char *content_encoding)
{
  g_assert (content_encoding != NULL);

  return g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                      "The agent's answer is compressed (Content-Encoding: %s) and corrupt, "
                      "so it could not be decompressed; the answer is incomplete",
                      content_encoding);
}

/* What libsoup 3.2 reports while a 2xx body is read, said as what
 * happened to the answer. libsoup decodes chunked transfer-encoding and
 * Content-Encoding itself, and several faults reach us as nothing at all:
 * a chunk size that is not hex reads as the last chunk (a clean end),
 * a gzip body corrupt from its first bytes is passed on undecoded, one
 * cut short ends cleanly. Those are named where they surface (the SSE
 * decoder names gzip bytes, the event reader a frame cut short). What
 * does arrive as an error: */
GError *
_agui_http_error_new_body_read (const GError *cause,
                                const char   *content_encoding)
{
  GError *error;

  g_assert (cause != NULL);

  /* Compressed data that stops decompressing once it had started:
   * zlib's "Invalid compressed data", nothing to do with the network */
  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) &&
      content_encoding != NULL && content_encoding[0] != '\0')
    error = _agui_http_error_new_compressed_corrupt (content_encoding);
  /* The body ended before its Content-Length, or inside a chunk, or on a
   * chunk-size line longer than libsoup reads */
  else if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                 "The connection to the agent broke before the answer was complete: "
                                 "the agent's server closed it in the middle of the response body; "
                                 "try again");
  else if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
           g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
    error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                 "The connection to the agent broke before the answer was complete: "
                                 "it was reset (by the agent's server or the network in between); "
                                 "try again");
  else if (cause->domain == G_TLS_ERROR)
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                         "The connection to the agent broke before the answer was complete: "
                         "the secure connection failed (%s)", cause->message);
  else
    error = g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                         "The connection to the agent broke before the answer was complete: %s",
                         cause->message);

  _agui_error_set_details (error, cause->message);

  return error;
}
