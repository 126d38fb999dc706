/* agui-text-part.h
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

#define AGUI_TYPE_TEXT_PART (agui_text_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiTextPart, agui_text_part, AGUI, TEXT_PART, AguiPart)

AGUI_AVAILABLE_IN_ALL
const char *agui_text_part_get_text   (AguiTextPart *self);
AGUI_AVAILABLE_IN_ALL
gsize       agui_text_part_get_length (AguiTextPart *self);

G_END_DECLS
