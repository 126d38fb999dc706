/* agui-session-store-journal-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store-db-private.h"

G_BEGIN_DECLS

/* With the mutex held, inside the saving turn's transaction */
gboolean _agui_session_store_delete_journal_locked (AguiSessionStore  *self,
                                                    const char        *thread_id,
                                                    const char        *snapshot_id,
                                                    const char        *what,
                                                    GError           **error);

/* With the mutex held: the journal's events, in order, and (if asked)
 * the ids of the turns they belong to */
GPtrArray *_agui_session_store_load_journal_locked (AguiSessionStore  *self,
                                                    const char        *thread_id,
                                                    GStrv             *snapshot_ids,
                                                    const char        *what,
                                                    GError           **error);

/* With the mutex held: whether the thread has a turn a crash cut short.
 * An error reads as none: the journal is a best effort */
gboolean   _agui_session_store_has_journal_locked  (AguiSessionStore  *self,
                                                    const char        *thread_id);

G_END_DECLS
