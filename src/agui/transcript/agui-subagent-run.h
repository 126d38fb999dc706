/* agui-subagent-run.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-version-macros.h"

G_BEGIN_DECLS

/**
 * AguiSubagentStatus:
 * @AGUI_SUBAGENT_RUNNING: started, not finished yet
 * @AGUI_SUBAGENT_FINISHED: finished with a success outcome, or with none
 * @AGUI_SUBAGENT_SUSPENDED: finished with a suspended outcome: it waits on
 *   interrupts (see [method@Agui.SubagentRun.get_interrupt_ids])
 * @AGUI_SUBAGENT_FAILED: ended with `SUBAGENT_ERROR`
 *
 * Where a subagent run stands.
 */
typedef enum
{
  AGUI_SUBAGENT_RUNNING,
  AGUI_SUBAGENT_FINISHED,
  AGUI_SUBAGENT_SUSPENDED,
  AGUI_SUBAGENT_FAILED,
} AguiSubagentStatus;

#define AGUI_TYPE_SUBAGENT_RUN (agui_subagent_run_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiSubagentRun, agui_subagent_run, AGUI, SUBAGENT_RUN, GObject)

AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_id                     (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_name                   (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_description            (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_parent_subagent_run_id (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_parent_tool_call_id    (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_parent_message_id      (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
AguiSubagentStatus  agui_subagent_run_get_status                 (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_subagent_run_get_result                 (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char * const *agui_subagent_run_get_interrupt_ids          (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_error_message          (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_subagent_run_get_error_code             (AguiSubagentRun *self);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_subagent_run_get_metadata               (AguiSubagentRun *self);

G_END_DECLS
