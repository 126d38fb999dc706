/* agui-session-store-turns-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store-db-private.h"
#include "agui-session-store-private.h"

G_BEGIN_DECLS

/* Reads of a thread's turns, with the mutex held (see the public calls
 * of the same names) */
GPtrArray *_agui_session_store_load_events_locked         (AguiSessionStore  *self,
                                                           const char        *thread_id,
                                                           const char        *what,
                                                           GError           **error);
/* Sets *snapshot to NULL (and returns TRUE) when the thread has none.
 * @filter, if set, keeps only the messages whose JSON holds it. */
gboolean   _agui_session_store_get_last_snapshot_locked   (AguiSessionStore  *self,
                                                           const char        *thread_id,
                                                           gboolean           completed_only,
                                                           const char        *filter,
                                                           AguiTurnSnapshot **snapshot,
                                                           const char        *what,
                                                           GError           **error);
/* Into @interrupts (null before): an array */
gboolean   _agui_session_store_get_pending_interrupts_locked (AguiSessionStore  *self,
                                                              const char        *thread_id,
                                                              AguiJsonValue     *interrupts,
                                                              const char        *what,
                                                              GError           **error);
int        _agui_session_store_count_branches_locked  (AguiSessionStore  *self,
                                                           const char        *thread_id,
                                                           const char        *what,
                                                           GError           **error);
GPtrArray *_agui_session_store_list_branches_locked       (AguiSessionStore  *self,
                                                           const char        *thread_id,
                                                           guint             *chosen,
                                                           const char        *what,
                                                           GError           **error);
/* The public JSON forms of a snapshot and of the branches */
JsonObject *_agui_session_store_snapshot_to_object        (const AguiTurnSnapshot *snapshot);
JsonArray  *_agui_session_store_branches_to_json          (GPtrArray         *leaves,
                                                           guint              chosen);

/* Writes @rows in one transaction, as a turn is (an import makes them
 * a message and an event at a time) */
gboolean   _agui_session_store_write_rows                 (AguiSessionStore      *self,
                                                           const AguiTurnRows    *rows,
                                                           const char            *what,
                                                           GError               **error);

/* Writes @turn, creating its thread with @title and @agent if needed */
gboolean   _agui_session_store_save_turn_with_thread      (AguiSessionStore      *self,
                                                           const AguiTurnRecord  *turn,
                                                           const char            *title,
                                                           const char            *agent,
                                                           const char            *what,
                                                           GError               **error);

G_END_DECLS
