/* agui-run-state-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-run-state.h"

G_BEGIN_DECLS

void _agui_run_state_set_pending_tool_call_ids (AguiRunState *self,
                                                GStrv         ids);

void        _agui_run_state_set_error_details (AguiRunState *self,
                                               const char   *details);
const char *_agui_run_state_get_error_details (AguiRunState *self);

G_END_DECLS
