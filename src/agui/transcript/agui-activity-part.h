/* agui-activity-part.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-part.h"

G_BEGIN_DECLS

#define AGUI_TYPE_ACTIVITY_PART (agui_activity_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiActivityPart, agui_activity_part, AGUI, ACTIVITY_PART, AguiPart)

AGUI_AVAILABLE_IN_ALL
const char *agui_activity_part_get_activity_type (AguiActivityPart *self);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_activity_part_get_content       (AguiActivityPart *self);

G_END_DECLS
