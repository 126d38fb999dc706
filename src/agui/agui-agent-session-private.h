/* agui-agent-session-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-agent-session.h"

G_BEGIN_DECLS

/* agui_agent_session_restore_async() all at once, blocking on the store:
 * for the CLI and the tests, which have no window to keep drawing. */
gboolean _agui_agent_session_restore (AguiAgentSession  *self,
                                      GError           **error);

/* Whether a branch chosen is still being written to the store, for the
 * tests to wait on the write rather than for a while. */
gboolean _agui_agent_session_get_keeping_branch (AguiAgentSession *self);

G_END_DECLS
