/* agui-http-transport.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <libsoup/soup.h>

#include "agui-transport.h"

G_BEGIN_DECLS

/**
 * AguiHttpEncoding:
 * @AGUI_HTTP_ENCODING_SSE: events as JSON in `text/event-stream` frames
 * @AGUI_HTTP_ENCODING_PROTOBUF: events as length-prefixed protobuf messages,
 *   `application/vnd.ag-ui.event+proto`
 *
 * The encoding a transport asks the agent for.
 */
typedef enum
{
  AGUI_HTTP_ENCODING_SSE,
  AGUI_HTTP_ENCODING_PROTOBUF,
} AguiHttpEncoding;

/* Generous: an agent may think for minutes between two tokens. */
#define AGUI_HTTP_DEFAULT_IDLE_TIMEOUT (5 * 60 * 1000)
/* The largest frame read when max-frame-size is 0. */
#define AGUI_HTTP_DEFAULT_MAX_FRAME_SIZE (8 * 1024 * 1024)

#define AGUI_TYPE_HTTP_TRANSPORT (agui_http_transport_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiHttpTransport, agui_http_transport, AGUI, HTTP_TRANSPORT, GObject)

AGUI_AVAILABLE_IN_ALL
AguiHttpTransport *agui_http_transport_new                  (const char         *url,
                                                             GError            **error);
AGUI_AVAILABLE_IN_ALL
const char        *agui_http_transport_get_url              (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
char             **agui_http_transport_dup_headers          (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
guint              agui_http_transport_get_connect_timeout  (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
guint              agui_http_transport_get_idle_timeout     (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
guint              agui_http_transport_get_timeout          (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
SoupSession       *agui_http_transport_get_session          (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
gsize              agui_http_transport_get_max_frame_size   (AguiHttpTransport  *self);
AGUI_AVAILABLE_IN_ALL
AguiHttpEncoding   agui_http_transport_get_encoding         (AguiHttpTransport  *self);

G_END_DECLS
