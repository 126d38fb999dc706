/* agui-http-request.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-http-framing-private.h"
#include "agui-http-request-private.h"

/* What a run sends: the headers a transport is configured with, and
 * the request for one URL, the caller's headers going only to the
 * agent's own origin. */

static void
header_clear (AguiHttpHeader *header)
{
  g_clear_pointer (&header->name, g_free);
  g_clear_pointer (&header->value, g_free);
}

static GArray *
header_array_new (void)
{
  GArray *headers = g_array_new (FALSE, TRUE, sizeof (AguiHttpHeader));

  g_array_set_clear_func (headers, (GDestroyNotify) header_clear);

  return headers;
}

static void
header_array_append (GArray     *headers,
                     const char *name,
                     const char *value)
{
  AguiHttpHeader header = { g_strdup (name), g_strdup (value) };

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

/* The headers of every request of a transport, from its `Name: value`
 * lines: the caller's, then the two fixed ones, replacing any of the
 * same name. */
GArray *
_agui_http_request_parse_headers (const char * const  *lines,
                                  AguiHttpEncoding     encoding,
                                  GError             **error)
{
  g_autoptr(GArray) headers = NULL;

  headers = header_array_new ();
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (!parse_header_line (lines[i], &name, &value, error))
        return NULL;

      if (!is_fixed_header (name))
        header_array_append (headers, name, value);
    }

  /* Exactly one type: an agent offered anything wider than SSE picks
   * the binary encoding (AG-UI.md 2.2). */
  header_array_append (headers, "Content-Type", "application/json");
  header_array_append (headers, "Accept", _agui_http_framing_get_accept (encoding));

  return g_steal_pointer (&headers);
}

SoupMessage *
_agui_http_request_new_message (GUri   *uri,
                                GUri   *origin,
                                GArray *headers,
                                GBytes *body)
{
  gboolean trusted = is_same_origin (uri, origin);
  SoupMessageHeaders *request_headers;
  SoupMessage *message;

  message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  /* Redirects are ours to judge: libsoup would turn a 301-303 into a GET
   * and carry every header to wherever the Location points. */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  soup_message_set_request_body_from_bytes (message, NULL, body);
  request_headers = soup_message_get_request_headers (message);
  for (guint i = 0; i < headers->len; i++)
    {
      const AguiHttpHeader *header = &g_array_index (headers, AguiHttpHeader, i);

      if (trusted || is_fixed_header (header->name))
        soup_message_headers_append (request_headers, header->name, header->value);
    }

  return message;
}
