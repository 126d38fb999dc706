/* agui-event-stream-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event-stream.h"

G_BEGIN_DECLS

/* A producer has two ways in. One that already has events (the replay
 * transport, the demo agent, a decoder of another framing) pushes them
 * with agui_event_stream_push_event () and push_error (). One that has
 * the bytes of an SSE body (the HTTP transport, read_sse) hands them over
 * here, and they go through AguiEventByteReader, the path AguiPipeline
 * and so the conformance suite read bytes with: each event and each error
 * item is queued as its frame completes. Neither ends the stream; the
 * producer does, with the error these return if any. */
void     _agui_event_stream_set_max_frame_size (AguiEventStream  *self,
                                                gsize             max_frame_size);
gsize    _agui_event_stream_get_max_frame_size (AguiEventStream  *self);
/* After a push failed on the frame cap: how big the frame had grown. */
gsize    _agui_event_stream_get_overflow_size  (AguiEventStream  *self);
/* FALSE with @error when the body cannot go on (its earlier frames are
 * queued first); FALSE without one once the consumer has closed. */
gboolean _agui_event_stream_push_bytes         (AguiEventStream  *self,
                                                const guint8     *data,
                                                gsize             length,
                                                GError          **error);
gboolean _agui_event_stream_finish_bytes       (AguiEventStream  *self,
                                                GError          **error);

G_END_DECLS
