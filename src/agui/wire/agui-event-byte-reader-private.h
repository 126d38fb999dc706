/* agui-event-byte-reader-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-event-parser-private.h"

G_BEGIN_DECLS

/* The one path from the bytes of an SSE body to events: the SSE decoder,
 * then the event parser, with the same refusals and the same words for
 * every frame that is not a valid event. AguiEventStream (the HTTP
 * transport, agui_event_stream_read_sse ()) and AguiPipeline (tandem-cli
 * fold and bench, the conformance suite) both read bytes through it, so
 * the conformance fixtures exercise what production runs. Synchronous:
 * each push hands over, through the callbacks, every event and every
 * error item its bytes completed. */
typedef struct _AguiEventByteReader AguiEventByteReader;

/* Returns FALSE to stop handing over events (the consumer failed): the
 * rest of the frames are dropped and later pushes do nothing. */
typedef gboolean (*AguiEventByteReaderEventFunc) (AguiEvent    *event,
                                                  gpointer      user_data);
/* A frame that is not a valid event; the stream goes on. */
typedef void     (*AguiEventByteReaderErrorFunc) (const GError *error,
                                                  gpointer      user_data);

AguiEventByteReader *_agui_event_byte_reader_new     (AguiEventByteReaderEventFunc  event_func,
                                                      AguiEventByteReaderErrorFunc  error_func,
                                                      gpointer                      user_data);
void                 _agui_event_byte_reader_free    (AguiEventByteReader          *self);
/* 0 keeps the decoder's default. */
void                 _agui_event_byte_reader_set_max_frame_size (AguiEventByteReader *self,
                                                                 gsize                max_frame_size);
gsize                _agui_event_byte_reader_get_max_frame_size (AguiEventByteReader *self);
/* After a push failed on the frame cap: how big the frame had grown. */
gsize                _agui_event_byte_reader_get_overflow_size  (AguiEventByteReader *self);
AguiEventParser     *_agui_event_byte_reader_get_parser         (AguiEventByteReader *self);

/* FALSE with @error when the body cannot go on (invalid UTF-8, a frame
 * over the cap); the frames completed before the bad bytes have been
 * handed over first. FALSE without an error when the consumer stopped. */
gboolean             _agui_event_byte_reader_push    (AguiEventByteReader          *self,
                                                      const guint8                 *data,
                                                      gsize                         length,
                                                      GError                      **error);
/* The body ended: a last frame without its blank line is handed over,
 * and one cut in the middle says so. */
gboolean             _agui_event_byte_reader_finish  (AguiEventByteReader          *self,
                                                      GError                      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiEventByteReader, _agui_event_byte_reader_free)

G_END_DECLS
