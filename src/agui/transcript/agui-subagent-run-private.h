/* agui-subagent-run-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-subagent-run.h"

G_BEGIN_DECLS

/* @started: a SUBAGENT_STARTED the verifier has checked */
AguiSubagentRun *_agui_subagent_run_new_started (AguiEvent       *started);
/* A new run that is @running as a SUBAGENT_FINISHED or SUBAGENT_ERROR
 * (@ended) left it: runs are immutable, so the transcript replaces one
 * with the other. */
AguiSubagentRun *_agui_subagent_run_new_ended   (AguiSubagentRun *running,
                                                 AguiEvent       *ended);

G_END_DECLS
