/* agui-session-store-threads-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store-db-private.h"

G_BEGIN_DECLS

/* With the mutex held: the thread as agui_session_store_get_thread()
 * gives it, into @thread (null before), or FALSE with
 * G_IO_ERROR_NOT_FOUND */
gboolean _agui_session_store_get_thread_locked (AguiSessionStore  *self,
                                                const char        *thread_id,
                                                AguiJsonValue     *thread,
                                                const char        *what,
                                                GError           **error);

G_END_DECLS
