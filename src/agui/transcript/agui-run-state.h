/* agui-run-state.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_TYPE_RUN_STATE (agui_run_state_get_type ())

AGUI_AVAILABLE_IN_ALL
GType           agui_run_state_get_type          (void) G_GNUC_CONST;
AGUI_AVAILABLE_IN_ALL
AguiRunState   *agui_run_state_ref               (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
void            agui_run_state_unref             (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
AguiRunStatus   agui_run_state_get_status        (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
const char     *agui_run_state_get_thread_id     (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
const char     *agui_run_state_get_run_id        (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
AguiRunOutcome  agui_run_state_get_outcome       (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
JsonNode       *agui_run_state_get_result        (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
GListModel     *agui_run_state_get_interrupts    (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
const char     *agui_run_state_get_error_message (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
const char     *agui_run_state_get_error_code    (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
AguiStage       agui_run_state_get_error_stage   (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
const char * const *agui_run_state_get_pending_tool_call_ids (AguiRunState *self);
AGUI_AVAILABLE_IN_ALL
JsonNode       *agui_run_state_to_json           (AguiRunState *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiRunState, agui_run_state_unref)

G_END_DECLS
