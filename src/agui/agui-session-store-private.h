/* agui-session-store-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store.h"

G_BEGIN_DECLS

/* Joins each stream's consecutive deltas into one event (see the comment
 * in agui-session-store.c for when two deltas may be joined). Returns a
 * new array of new references; @events is left as it was. */
GPtrArray *_agui_session_store_compact_events    (GPtrArray        *events);

/* agui_session_store_save_turn() that also creates the thread, with
 * @title and @agent, if it does not exist: in the turn's transaction. */
gboolean   _agui_session_store_save_turn_in_thread (AguiSessionStore     *self,
                                                    const AguiTurnRecord *turn,
                                                    const char           *title,
                                                    const char           *agent,
                                                    GError              **error);

/* Test hook: caps the database at @max_pages pages (clamped by SQLite to
 * the current size), so the next write that needs a page fails as on a
 * full disk. Returns the cap in effect, or -1 on error. */
gint64     _agui_session_store_set_max_page_count (AguiSessionStore *self,
                                                  gint64            max_pages);

/* Branches: which one the person chose (the snapshot it ends on), and
 * every snapshot of a thread, to rebuild them. */
gboolean   _agui_session_store_set_branch         (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  const char       *snapshot_id,
                                                  GError          **error);
char      *_agui_session_store_dup_branch         (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);
int        _agui_session_store_count_branches     (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);
JsonArray *_agui_session_store_list_snapshots     (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);

G_END_DECLS
