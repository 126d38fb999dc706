/* agui-session-store-export-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-session-store-db-private.h"

G_BEGIN_DECLS

/* What agui_session_store_export_json() writes and an import reads */
#define EXPORT_FORMAT "tandem-thread"
#define EXPORT_VERSION 1

/* With the mutex held, in a read transaction: the export as a tree,
 * into @root (null before), for agui_session_store_export_json(), the
 * Markdown and the streamed export of a thread with a journal */
gboolean  _agui_session_store_export_tree_locked        (AguiSessionStore  *self,
                                                         const char        *thread_id,
                                                         AguiJsonValue     *root,
                                                         const char        *what,
                                                         GError           **error);

/* Adds to @root, the export of the thread's saved turns (@snapshot the
 * last one, or NULL), what the thread's journal kept of a turn a crash
 * cut short: its events after the others, and the messages and state
 * folded as a restore folds them. Nothing changes without a journal. */
gboolean  _agui_session_store_export_add_journal_locked (AguiSessionStore  *self,
                                                         const char        *thread_id,
                                                         AguiJsonValue     *root,
                                                         AguiTurnSnapshot  *snapshot,
                                                         const char        *what,
                                                         GError           **error);

G_END_DECLS
