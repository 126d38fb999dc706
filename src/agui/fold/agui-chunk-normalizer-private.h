/* agui-chunk-normalizer-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_CHUNK_NORMALIZER (_agui_chunk_normalizer_get_type ())
G_DECLARE_FINAL_TYPE (AguiChunkNormalizer, _agui_chunk_normalizer, AGUI, CHUNK_NORMALIZER, GObject)

AguiChunkNormalizer *_agui_chunk_normalizer_new   (void);
gboolean             _agui_chunk_normalizer_push  (AguiChunkNormalizer  *self,
                                                  AguiEvent            *event,
                                                  GPtrArray            *out,
                                                  GError              **error);
GPtrArray           *_agui_chunk_normalizer_expand (AguiChunkNormalizer  *self,
                                                   AguiEvent            *event,
                                                   GError              **error);
void                 _agui_chunk_normalizer_reset (AguiChunkNormalizer  *self);

/* %TRUE when _agui_chunk_normalizer_push () would append @event alone and
 * change nothing: no chunk stream is pending and @event is not a chunk.
 * That is nearly every event of a stream, which the pipeline then passes
 * on without an array. */
gboolean _agui_chunk_normalizer_passes (AguiChunkNormalizer *self,
                                        AguiEvent           *event);

G_END_DECLS
