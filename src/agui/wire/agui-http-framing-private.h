/* agui-http-framing-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "agui-event-stream.h"
#include "agui-http-transport.h"

G_BEGIN_DECLS

/* How the events of an HTTP body are framed, and so read: SSE (through
 * the event stream's byte reader, the path the pipeline and the CLI read
 * bytes with) or the binary encoding (through AguiProtoDecoder). The
 * choice is made here and nowhere else: what a transport asks for, how a
 * response's Content-Type is read, and which decoder a body goes to. */
typedef enum
{
  AGUI_HTTP_FRAMING_SSE,
  AGUI_HTTP_FRAMING_PROTOBUF,
  AGUI_HTTP_FRAMING_NONE,       /* not an AG-UI body at all */
} AguiHttpFraming;

typedef struct _AguiHttpBodyReader AguiHttpBodyReader;

/* The one media type to Accept for @encoding. */
const char         *_agui_http_framing_get_accept   (AguiHttpEncoding    encoding);
AguiHttpFraming     _agui_http_framing_for_response (SoupMessageHeaders *headers);

/* Reads a body in @framing onto @stream; @content_encoding is the
 * response's (NULL when not compressed), to tell a body libsoup could
 * not decompress from one that is not an event stream. */
AguiHttpBodyReader *_agui_http_body_reader_new      (AguiHttpFraming      framing,
                                                     AguiEventStream     *stream,
                                                     gsize                max_frame_size,
                                                     const char          *content_encoding);
void                _agui_http_body_reader_free     (AguiHttpBodyReader  *self);
/* FALSE with @error when the body cannot go on; FALSE without one once
 * the consumer has closed the stream. */
gboolean            _agui_http_body_reader_push     (AguiHttpBodyReader  *self,
                                                     const guint8        *data,
                                                     gsize                length,
                                                     GError             **error);
/* The body ended: FALSE with @error when it ended inside a frame. */
gboolean            _agui_http_body_reader_finish   (AguiHttpBodyReader  *self,
                                                     GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiHttpBodyReader, _agui_http_body_reader_free)

G_END_DECLS
