/* agui-http-request-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "agui-http-transport.h"

G_BEGIN_DECLS

/* One header of a transport's requests. */
typedef struct
{
  char *name;
  char *value;
} AguiHttpHeader;

/* The headers of a transport's requests (AguiHttpHeader), from its `Name: value`
 * lines, checked (RFC 7230: a token, a value without CR, LF or other
 * controls), followed by the one Content-Type and the one Accept for
 * @encoding, which replace any the lines give. NULL with an
 * AGUI_ERROR_CONFIG error naming the line. */
GArray      *_agui_http_request_parse_headers (const char * const  *lines,
                                               AguiHttpEncoding     encoding,
                                               GError             **error);
/* The POST of @body to @uri, for libsoup to send without following
 * redirects; @headers go with it, the caller's only when @uri has the
 * origin (RFC 6454) of @origin, the agent's configured URL. */
SoupMessage *_agui_http_request_new_message   (GUri                *uri,
                                               GUri                *origin,
                                               GArray              *headers,
                                               GBytes              *body);

G_END_DECLS
