/* agui-sse-decoder.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_SSE_DEFAULT_MAX_FRAME_SIZE (8 * 1024 * 1024)

#define AGUI_TYPE_SSE_FRAME (agui_sse_frame_get_type ())

AGUI_AVAILABLE_IN_ALL
GType         agui_sse_frame_get_type               (void) G_GNUC_CONST;
AGUI_AVAILABLE_IN_ALL
AguiSseFrame *agui_sse_frame_ref                    (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
void          agui_sse_frame_unref                  (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
const char   *agui_sse_frame_get_data               (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
gsize         agui_sse_frame_get_data_length        (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
const char   *agui_sse_frame_get_event              (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
const char   *agui_sse_frame_get_id                 (AguiSseFrame   *self);
AGUI_AVAILABLE_IN_ALL
gint64        agui_sse_frame_get_retry              (AguiSseFrame   *self);

#define AGUI_TYPE_SSE_DECODER (agui_sse_decoder_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiSseDecoder, agui_sse_decoder, AGUI, SSE_DECODER, GObject)

AGUI_AVAILABLE_IN_ALL
AguiSseDecoder *agui_sse_decoder_new                (void);
AGUI_AVAILABLE_IN_ALL
gsize           agui_sse_decoder_get_max_frame_size (AguiSseDecoder *self);
AGUI_AVAILABLE_IN_ALL
void            agui_sse_decoder_set_max_frame_size (AguiSseDecoder *self,
                                                     gsize           max_frame_size);
AGUI_AVAILABLE_IN_ALL
gboolean        agui_sse_decoder_push               (AguiSseDecoder *self,
                                                     const guint8   *data,
                                                     gsize           length,
                                                     GError        **error);
AGUI_AVAILABLE_IN_ALL
AguiSseFrame   *agui_sse_decoder_next_frame         (AguiSseDecoder *self);
AGUI_AVAILABLE_IN_ALL
gboolean        agui_sse_decoder_finish             (AguiSseDecoder *self,
                                                     GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiSseFrame, agui_sse_frame_unref)

G_END_DECLS
