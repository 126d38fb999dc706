/* agui-tool-runner-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-reducer-private.h"
#include "agui-tool-registry.h"

G_BEGIN_DECLS

/* Answers the agent's calls to frontend tools during one run: a call is
 * assembled from its events, its tool runs once its arguments are
 * complete, and the answer is folded as a TOOL_CALL_RESULT when the run
 * is finished (_agui_tool_runner_finish ()). A call to a tool the
 * registry lacks belongs to the agent and is left alone.
 *
 * The runner is reference-counted because a tool may answer after its
 * run was given up: the execution keeps the runner alive, and the idle
 * function is called on the main context whenever the last tool in
 * flight has answered. */
typedef struct _AguiToolRunner AguiToolRunner;

typedef void (*AguiToolRunnerIdleFunc) (gpointer user_data);

AguiToolRunner *_agui_tool_runner_new              (AguiToolRegistry       *tools,
                                                    AguiReducer            *reducer,
                                                    GPtrArray              *answers,
                                                    GCancellable           *cancellable,
                                                    AguiToolRunnerIdleFunc  idle,
                                                    GObject                *idle_data);
AguiToolRunner *_agui_tool_runner_ref              (AguiToolRunner         *self);
void            _agui_tool_runner_unref            (AguiToolRunner         *self);
void            _agui_tool_runner_observe          (AguiToolRunner         *self,
                                                    AguiEvent              *event);
gboolean        _agui_tool_runner_get_busy         (AguiToolRunner         *self);
gboolean        _agui_tool_runner_get_called_tools (AguiToolRunner         *self);
void            _agui_tool_runner_finish           (AguiToolRunner         *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiToolRunner, _agui_tool_runner_unref)

G_END_DECLS
