/* agui-chunk-normalizer-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-chunk-normalizer.h"

G_BEGIN_DECLS

/* %TRUE when agui_chunk_normalizer_push () would append @event alone and
 * change nothing: no chunk stream is pending and @event is not a chunk.
 * That is nearly every event of a stream, which the pipeline then passes
 * on without an array. */
gboolean _agui_chunk_normalizer_passes (AguiChunkNormalizer *self,
                                        AguiEvent           *event);

G_END_DECLS
