/* agui-reasoning-part.h
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

#define AGUI_TYPE_REASONING_PART (agui_reasoning_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiReasoningPart, agui_reasoning_part, AGUI, REASONING_PART, AguiPart)

AGUI_AVAILABLE_IN_ALL
const char *agui_reasoning_part_get_text            (AguiReasoningPart *self);
AGUI_AVAILABLE_IN_ALL
gboolean    agui_reasoning_part_get_encrypted       (AguiReasoningPart *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_reasoning_part_get_encrypted_value (AguiReasoningPart *self);

G_END_DECLS
