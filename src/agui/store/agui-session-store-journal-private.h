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

G_END_DECLS
