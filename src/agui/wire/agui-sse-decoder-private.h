/* agui-sse-decoder-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_SSE_DEFAULT_MAX_FRAME_SIZE (8 * 1024 * 1024)

typedef struct _AguiSseFrame AguiSseFrame;

#define AGUI_TYPE_SSE_FRAME (_agui_sse_frame_get_type ())

GType         _agui_sse_frame_get_type               (void) G_GNUC_CONST;
AguiSseFrame *_agui_sse_frame_ref                    (AguiSseFrame   *self);
void          _agui_sse_frame_unref                  (AguiSseFrame   *self);
const char   *_agui_sse_frame_get_data               (AguiSseFrame   *self);
gsize         _agui_sse_frame_get_data_length        (AguiSseFrame   *self);
const char   *_agui_sse_frame_get_event              (AguiSseFrame   *self);
const char   *_agui_sse_frame_get_id                 (AguiSseFrame   *self);
gint64        _agui_sse_frame_get_retry              (AguiSseFrame   *self);

#define AGUI_TYPE_SSE_DECODER (_agui_sse_decoder_get_type ())
G_DECLARE_FINAL_TYPE (AguiSseDecoder, _agui_sse_decoder, AGUI, SSE_DECODER, GObject)

AguiSseDecoder *_agui_sse_decoder_new                (void);
gsize           _agui_sse_decoder_get_max_frame_size (AguiSseDecoder *self);
void            _agui_sse_decoder_set_max_frame_size (AguiSseDecoder *self,
                                                     gsize           max_frame_size);
gboolean        _agui_sse_decoder_push               (AguiSseDecoder *self,
                                                     const guint8   *data,
                                                     gsize           length,
                                                     GError        **error);
AguiSseFrame   *_agui_sse_decoder_next_frame         (AguiSseDecoder *self);
gboolean        _agui_sse_decoder_finish             (AguiSseDecoder *self,
                                                     GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiSseFrame, _agui_sse_frame_unref)

/* How many bytes the line scanner has looked at so far. Tests use it to
 * prove that no byte is rescanned, however the body is chunked: a timing
 * test would be flaky, a count is not. */
guint64 _agui_sse_decoder_get_bytes_scanned (AguiSseDecoder *self);

/* After a push refused a frame over the cap: how large the frame had
 * grown by then (a lower bound of its real size), else 0. */
gsize   _agui_sse_decoder_get_overflow_size (AguiSseDecoder *self);
/* Whether the body ended inside @frame, before its closing blank line. */
gboolean _agui_sse_frame_get_unterminated (AguiSseFrame *frame);

/* Hands each frame's data to @func as it is dispatched, instead of
 * queueing an AguiSseFrame for _agui_sse_decoder_next_frame (): a reader
 * that only wants the data then costs no allocation per frame. @data is
 * nul-terminated and valid until @func returns. Frames come in the same
 * order and at the same points of the body as from the queue. */
typedef void (*AguiSseFrameFunc) (const char *data,
                                  gsize       length,
                                  gboolean    unterminated,
                                  gpointer    user_data);

void     _agui_sse_decoder_set_frame_func (AguiSseDecoder   *self,
                                           AguiSseFrameFunc  func,
                                           gpointer          user_data);

G_END_DECLS
