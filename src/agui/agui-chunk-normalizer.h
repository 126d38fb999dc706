/* agui-chunk-normalizer.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_CHUNK_NORMALIZER (agui_chunk_normalizer_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiChunkNormalizer, agui_chunk_normalizer, AGUI, CHUNK_NORMALIZER, GObject)

AGUI_AVAILABLE_IN_ALL
AguiChunkNormalizer *agui_chunk_normalizer_new   (void);
AGUI_AVAILABLE_IN_ALL
gboolean             agui_chunk_normalizer_push  (AguiChunkNormalizer  *self,
                                                  AguiEvent            *event,
                                                  GPtrArray            *out,
                                                  GError              **error);
AGUI_AVAILABLE_IN_ALL
GPtrArray           *agui_chunk_normalizer_expand (AguiChunkNormalizer  *self,
                                                   AguiEvent            *event,
                                                   GError              **error);
AGUI_AVAILABLE_IN_ALL
void                 agui_chunk_normalizer_reset (AguiChunkNormalizer  *self);

G_END_DECLS
