/* agui-run-state-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-run-state.h"

G_BEGIN_DECLS

/* Run states are made by the reducer and the session, never by callers:
 * a caller could make one no run ended in. */
AguiRunState   *_agui_run_state_new_idle          (void);
AguiRunState   *_agui_run_state_new_running       (const char   *thread_id,
                                                  const char   *run_id);
AguiRunState   *_agui_run_state_new_finished      (const char   *thread_id,
                                                  const char   *run_id,
                                                  AguiRunOutcome outcome,
                                                  AguiJsonValue *result,
                                                  const AguiJsonValue *interrupts);
AguiRunState   *_agui_run_state_new_failed        (const char   *thread_id,
                                                  const char   *run_id,
                                                  const char   *message,
                                                  const char   *code,
                                                  AguiStage     stage);

void _agui_run_state_set_pending_tool_call_ids (AguiRunState *self,
                                                GStrv         ids);

void        _agui_run_state_set_error_details (AguiRunState *self,
                                               const char   *details);
const char *_agui_run_state_get_error_details (AguiRunState *self);

G_END_DECLS
