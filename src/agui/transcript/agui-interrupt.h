/* agui-interrupt.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_TYPE_INTERRUPT (agui_interrupt_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiInterrupt, agui_interrupt, AGUI, INTERRUPT, GObject)

AGUI_AVAILABLE_IN_ALL
const char *agui_interrupt_get_id              (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_interrupt_get_reason          (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_interrupt_get_message         (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_interrupt_get_tool_call_id    (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_interrupt_get_subagent_run_id (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_interrupt_get_response_schema (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_interrupt_get_metadata        (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
GDateTime  *agui_interrupt_get_expires_at      (AguiInterrupt *self);
AGUI_AVAILABLE_IN_ALL
gboolean    agui_interrupt_has_expired         (AguiInterrupt *self,
                                                GDateTime     *now);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_interrupt_to_json             (AguiInterrupt *self);

G_END_DECLS
