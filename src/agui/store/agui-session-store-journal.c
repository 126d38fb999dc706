/* agui-session-store-journal.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-journal-private.h"
#include "agui-session-store-private.h"

/* The journal of the turns in flight: the person's message and the
 * answer's events, appended as they stream, and taken into the log when
 * the turn is saved (see agui-session-store-turns.c). */

gboolean
_agui_session_store_delete_journal_locked (AguiSessionStore  *self,
                                           const char        *thread_id,
                                           const char        *snapshot_id,
                                           const char        *what,
                                           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = _agui_session_store_prepare (self, "DELETE FROM journal WHERE thread_id = ?1 AND snapshot_id = ?2", what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, snapshot_id, -1, SQLITE_STATIC);

  return _agui_session_store_step_done (self, stmt, what, error);
}

void
_agui_journal_rows_free (AguiJournalRows *rows)
{
  g_free (rows->thread_id);
  g_free (rows->snapshot_id);
  g_free (rows->title);
  g_free (rows->agent);
  g_clear_pointer (&rows->event_json, g_ptr_array_unref);
  if (rows->take_data_free != NULL)
    g_clear_pointer (&rows->take_data, rows->take_data_free);
  g_free (rows);
}

static gboolean
append_journal_locked (AguiSessionStore       *self,
                       const AguiJournalRows  *rows,
                       const char             *what,
                       GError                **error)
{
  g_autoptr(sqlite3_stmt) upsert = NULL;
  g_autoptr(sqlite3_stmt) next_seq = NULL;
  g_autoptr(sqlite3_stmt) insert = NULL;
  gint64 seq;
  int rc;

  /* The thread is listed from the person's first message on; the
   * first batch of a later turn moves it to the top, as its save will.
   * A batch after the first does not bring back a thread deleted
   * meanwhile. */
  if (!(upsert = _agui_session_store_prepare (self,
                                              rows->first
                                                ? "INSERT INTO threads (id, title, agent, created, updated, key) "
                                                  "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ", " NEXT_KEY_SQL ") "
                                                  "ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, "
                                                  "agent = COALESCE (excluded.agent, agent)"
                                                : "SELECT COUNT (*) FROM threads WHERE id = ?1",
                                              what, error)) ||
      !(next_seq = _agui_session_store_prepare (self, "SELECT COALESCE (MAX (seq), -1) + 1 FROM journal WHERE thread_id = ?1",
                                                what, error)) ||
      !(insert = _agui_session_store_prepare (self, "INSERT INTO journal (thread_id, seq, snapshot_id, json) VALUES (?1, ?2, ?3, ?4)",
                                              what, error)))
    return FALSE;

  sqlite3_bind_text (upsert, 1, rows->thread_id, -1, SQLITE_STATIC);
  if (rows->first)
    {
      sqlite3_bind_text (upsert, 2, rows->title ? rows->title : "", -1, SQLITE_STATIC);
      sqlite3_bind_text (upsert, 3, rows->agent, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (upsert, 4, g_get_real_time ());
      if (!_agui_session_store_step_done (self, upsert, what, error))
        return FALSE;
    }
  else
    {
      if ((rc = sqlite3_step (upsert)) != SQLITE_ROW)
        {
          _agui_session_store_set_sqlite_error (self, rc, what, error);
          return FALSE;
        }
      if (sqlite3_column_int (upsert, 0) == 0)
        return TRUE;
    }

  sqlite3_bind_text (next_seq, 1, rows->thread_id, -1, SQLITE_STATIC);
  if ((rc = sqlite3_step (next_seq)) != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }
  seq = sqlite3_column_int64 (next_seq, 0);
  sqlite3_reset (next_seq);

  sqlite3_bind_text (insert, 1, rows->thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 3, rows->snapshot_id, -1, SQLITE_STATIC);
  for (guint i = 0; i < rows->event_json->len; i++)
    {
      sqlite3_bind_int64 (insert, 2, seq + i);
      sqlite3_bind_text (insert, 4, g_ptr_array_index (rows->event_json, i), -1, SQLITE_STATIC);
      if (!_agui_session_store_step_done (self, insert, what, error))
        return FALSE;
    }

  return TRUE;
}

static void
append_journal_job (AguiSessionStore *self,
                    GTask            *task,
                    gpointer          data)
{
  const char *what = "Could not keep the answer as it streams";
  AguiJournalRows *rows = data;
  GError *error = NULL;
  gboolean written;

  if (rows->take != NULL)
    rows->take (rows->take_data, &rows->event_json, &rows->first);
  /* Another batch took it all */
  if (rows->event_json == NULL || rows->event_json->len == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* Not synced: what the journal guards against is the program dying,
   * which loses nothing the kernel was given, and a sync on a busy
   * disk can take longer than the quarter second a batch may wait.
   * The turn, once saved, is synced as ever. */
  g_mutex_lock (&self->mutex);
  sqlite3_exec (self->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
  written = _agui_session_store_exec (self, "BEGIN IMMEDIATE", what, &error);
  if (written && !(written = append_journal_locked (self, rows, what, &error)))
    _agui_session_store_rollback (self);
  else if (written)
    written = _agui_session_store_commit (self, what, &error);
  sqlite3_exec (self->db, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
  g_mutex_unlock (&self->mutex);

  if (!written)
    {
      g_task_return_error (task, error);
      return;
    }

  if (rows->first)
    _agui_session_store_announce_change (self, rows->thread_id);
  g_task_return_boolean (task, TRUE);
}

void
_agui_session_store_append_journal_async (AguiSessionStore    *self,
                                          AguiJournalRows     *rows,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (rows != NULL && rows->thread_id != NULL && rows->snapshot_id != NULL);

  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_append_journal_async,
                                 append_journal_job, rows, (GDestroyNotify) _agui_journal_rows_free);
}

gboolean
_agui_session_store_append_journal_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, _agui_session_store_append_journal_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

GPtrArray *
_agui_session_store_load_journal_locked (AguiSessionStore  *self,
                                         const char        *thread_id,
                                         GStrv             *snapshot_ids,
                                         const char        *what,
                                         GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  g_autofree char *last_id = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, "SELECT seq, snapshot_id, json FROM journal WHERE thread_id = ?1 ORDER BY seq",
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *snapshot_id = (const char *) sqlite3_column_text (stmt, 1);
      const char *json = (const char *) sqlite3_column_text (stmt, 2);
      g_autoptr(GError) local_error = NULL;
      AguiEvent *event;

      if (g_strcmp0 (snapshot_id, last_id) != 0)
        {
          g_strv_builder_add (ids, snapshot_id);
          g_free (last_id);
          last_id = g_strdup (snapshot_id);
        }

      /* As in the log: a damaged row is skipped, not the thread */
      event = _agui_event_new_from_stored (json, sqlite3_column_bytes (stmt, 2), &local_error);
      if (event == NULL)
        {
          g_warning ("%s: skipped the kept event %" G_GINT64_FORMAT ", which is not an AG-UI event%s%s",
                     what, (gint64) sqlite3_column_int64 (stmt, 0),
                     local_error ? ": " : "", local_error ? local_error->message : "");
          continue;
        }

      g_ptr_array_add (events, event);
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  if (snapshot_ids != NULL)
    *snapshot_ids = g_strv_builder_end (ids);

  return g_steal_pointer (&events);
}

GPtrArray *
_agui_session_store_load_journal (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  GStrv             *snapshot_ids,
                                  GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read what was kept of the unfinished answer in the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return _agui_session_store_load_journal_locked (self, thread_id, snapshot_ids, what, error);
}

gboolean
_agui_session_store_has_journal_locked (AguiSessionStore *self,
                                        const char       *thread_id)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = _agui_session_store_prepare (self, "SELECT 1 FROM journal WHERE thread_id = ?1 LIMIT 1",
                                            "Could not read the journal", NULL)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  return sqlite3_step (stmt) == SQLITE_ROW;
}
