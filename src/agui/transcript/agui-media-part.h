/* agui-media-part.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-part.h"

G_BEGIN_DECLS

#define AGUI_TYPE_MEDIA_PART (agui_media_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiMediaPart, agui_media_part, AGUI, MEDIA_PART, AguiPart)

AGUI_AVAILABLE_IN_ALL
const char *agui_media_part_get_kind        (AguiMediaPart *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_media_part_get_source_type (AguiMediaPart *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_media_part_get_value       (AguiMediaPart *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_media_part_get_mime_type   (AguiMediaPart *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_media_part_get_filename    (AguiMediaPart *self);

G_END_DECLS
