/* agui-tool-call-part.h
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

#define AGUI_TYPE_TOOL_CALL_PART (agui_tool_call_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiToolCallPart, agui_tool_call_part, AGUI, TOOL_CALL_PART, AguiPart)

AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_tool_call_id     (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_tool_name        (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_arguments        (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_tool_call_part_get_parsed_arguments (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
AguiToolCallStatus  agui_tool_call_part_get_status           (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_result           (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_error            (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
AguiAnswer          agui_tool_call_part_get_answer           (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_edited_arguments (AguiToolCallPart *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_tool_call_part_get_answer_text      (AguiToolCallPart *self);

G_END_DECLS
