/* agui-session-store-turns.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-interrupt-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-deflate-private.h"
#include "agui-session-store-journal-private.h"
#include "agui-session-store-messages-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-turns-private.h"
#include "agui-transcript-private.h"
#include "agui-transcript.h"
#include "agui-turn-rows-private.h"

/* Turns: each written in one transaction (its compacted events, its
 * snapshot naming its messages, the interrupts it leaves), and read
 * back as snapshots, events, interrupts and branches. */

/* Writes one turn inside a transaction the caller opened. The thread row
 * is created if missing (with @title and @agent), else its updated time
 * is bumped. */
static gboolean
write_turn_locked (AguiSessionStore      *self,
                   const AguiTurnRows    *rows,
                   GArray               **hashes_out,
                   const char            *what,
                   GError               **error)
{
  const AguiTurnRows *turn = rows;
  const char *title = rows->title;
  const char *agent = rows->agent;
  g_autoptr(AguiMessageReader) reader = NULL;
  g_autoptr(sqlite3_stmt) insert_message_stmt = NULL;
  g_autoptr(GArray) hashes = NULL;
  g_autofree char *delta = NULL;
  GArray *parent_hashes;
  guint keep;

  g_autoptr(sqlite3_stmt) upsert = NULL;
  g_autoptr(sqlite3_stmt) next_seq = NULL;
  g_autoptr(sqlite3_stmt) insert_event = NULL;
  g_autoptr(sqlite3_stmt) insert_snapshot = NULL;
  g_autoptr(sqlite3_stmt) clear_interrupts = NULL;
  g_autoptr(sqlite3_stmt) insert_interrupt = NULL;
  gint64 now = g_get_real_time ();
  gint64 seq;
  int rc;

  if (!(upsert = _agui_session_store_prepare (self,
                                              "INSERT INTO threads (id, title, agent, created, updated, branch, key) "
                                              "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ", ?5, " NEXT_KEY_SQL ") "
                                              "ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, "
                                              "agent = COALESCE (excluded.agent, agent), branch = excluded.branch",
                                              what, error)) ||
      !(next_seq = _agui_session_store_prepare (self,
                                                "SELECT COALESCE (MAX (seq), -1) + 1 FROM log WHERE thread_key = " THREAD_KEY_SQL,
                                                what, error)) ||
      !(insert_event = _agui_session_store_prepare (self,
                                                    "INSERT INTO log (thread_key, seq, json) VALUES (" THREAD_KEY_SQL ", ?2, ?3)",
                                                    what, error)) ||
      !(insert_snapshot = _agui_session_store_prepare (self,
                                                       "INSERT INTO snapshots (id, parent_id, thread_id, turn_index, status, "
                                                       "finish_reason, error, messages, state, created_at, run_id) "
                                                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                                                       what, error)) ||
      !(clear_interrupts = _agui_session_store_prepare (self, "DELETE FROM interrupts WHERE thread_id = ?1", what, error)) ||
      !(insert_interrupt = _agui_session_store_prepare (self,
                                                        "INSERT INTO interrupts (thread_id, position, json) VALUES (?1, ?2, ?3)",
                                                        what, error)) ||
      !(insert_message_stmt = _agui_session_store_prepare (self, INSERT_MESSAGE_SQL, what, error)) ||
      !(reader = _agui_message_reader_new (self, turn->thread_id, what, error)))
    return FALSE;

  sqlite3_bind_text (upsert, 1, turn->thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (upsert, 2, title ? title : "", -1, SQLITE_STATIC);
  sqlite3_bind_text (upsert, 3, agent, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (upsert, 4, now);
  /* The newest turn is on the branch the person is on. */
  sqlite3_bind_text (upsert, 5, turn->snapshot_id, -1, SQLITE_STATIC);
  if (!_agui_session_store_step_done (self, upsert, what, error))
    return FALSE;

  sqlite3_bind_text (next_seq, 1, turn->thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (next_seq);
  if (rc != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }
  seq = sqlite3_column_int64 (next_seq, 0);
  sqlite3_reset (next_seq);

  sqlite3_bind_text (insert_event, 1, turn->thread_id, -1, SQLITE_STATIC);
  for (guint i = 0; i < rows->event_json->len; i++)
    {
      const char *json = g_ptr_array_index (rows->event_json, i);
      g_autoptr(GBytes) deflated = _agui_session_store_deflate (json, strlen (json));

      sqlite3_bind_int64 (insert_event, 2, seq + i);
      if (deflated != NULL)
        sqlite3_bind_blob (insert_event, 3, g_bytes_get_data (deflated, NULL), g_bytes_get_size (deflated), SQLITE_STATIC);
      else
        sqlite3_bind_text (insert_event, 3, json, -1, SQLITE_STATIC);
      if (!_agui_session_store_step_done (self, insert_event, what, error))
        return FALSE;
    }

  /* Each message once: the snapshot names its parent's messages it
   * keeps, and the ones it adds, which are stored if new */
  hashes = g_array_sized_new (FALSE, FALSE, sizeof (gint64), rows->message_json->len);
  for (guint i = 0; i < rows->message_json->len; i++)
    {
      gint64 hash = _agui_session_store_message_hash (g_ptr_array_index (rows->message_json, i), -1);

      g_array_append_val (hashes, hash);
    }
  if (!(parent_hashes = _agui_message_reader_hashes (reader, turn->parent_id, what, error)))
    return FALSE;
  keep = _agui_session_store_common_prefix (parent_hashes, hashes);
  /* Now and then the whole list, so that reading a long thread back
   * walks at most this many snapshots */
  if (turn->turn_index % SNAPSHOTS_PER_CHECKPOINT == SNAPSHOTS_PER_CHECKPOINT - 1)
    keep = 0;
  for (guint i = keep; i < hashes->len; i++)
    if (!_agui_session_store_insert_message (self, insert_message_stmt, turn->thread_id, g_array_index (hashes, gint64, i),
                                             g_ptr_array_index (rows->message_json, i), TRUE, what, error))
      return FALSE;
  delta = _agui_session_store_print_message_delta (keep, hashes, keep);

  sqlite3_bind_text (insert_snapshot, 1, turn->snapshot_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 2, turn->parent_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 3, turn->thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_int (insert_snapshot, 4, turn->turn_index);
  sqlite3_bind_text (insert_snapshot, 5, agui_snapshot_status_to_string (turn->status), -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 6, turn->finish_reason, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 7, turn->error, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 8, delta, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 9, rows->state, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert_snapshot, 10, now);
  sqlite3_bind_text (insert_snapshot, 11, turn->run_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (insert_snapshot);
  if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: a snapshot with the id '%s' already exists", what, turn->snapshot_id);
      return FALSE;
    }
  else if (rc == SQLITE_CONSTRAINT_UNIQUE)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: the thread already has a turn %d", what, turn->turn_index);
      return FALSE;
    }
  else if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  sqlite3_bind_text (clear_interrupts, 1, turn->thread_id, -1, SQLITE_STATIC);
  if (!_agui_session_store_step_done (self, clear_interrupts, what, error))
    return FALSE;

  sqlite3_bind_text (insert_interrupt, 1, turn->thread_id, -1, SQLITE_STATIC);
  for (guint i = 0; i < rows->interrupts->len; i++)
    {
      sqlite3_bind_int (insert_interrupt, 2, i);
      sqlite3_bind_text (insert_interrupt, 3, g_ptr_array_index (rows->interrupts, i), -1, SQLITE_STATIC);
      if (!_agui_session_store_step_done (self, insert_interrupt, what, error))
        return FALSE;
    }

  /* The turn's events are in the log now: its journal, and the
   * journals of the unsaved turns whose events it carries, go. */
  if (!_agui_session_store_delete_journal_locked (self, turn->thread_id, turn->snapshot_id, what, error))
    return FALSE;
  for (guint i = 0; rows->journal_ids != NULL && rows->journal_ids[i] != NULL; i++)
    if (!_agui_session_store_delete_journal_locked (self, turn->thread_id, rows->journal_ids[i], what, error))
      return FALSE;

  *hashes_out = g_steal_pointer (&hashes);
  return TRUE;
}

static gboolean
write_rows_locked (AguiSessionStore    *self,
                   const AguiTurnRows  *rows,
                   const char          *what,
                   GError             **error)
{

  /* IMMEDIATE takes the write lock up front, so a second writer waits
   * (busy timeout) instead of failing on a lock upgrade halfway. */
  g_autoptr(GArray) hashes = NULL;

  if (!_agui_session_store_exec (self, "BEGIN IMMEDIATE", what, error))
    return FALSE;

  if (!write_turn_locked (self, rows, &hashes, what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  if (!_agui_session_store_commit (self, what, error))
    return FALSE;

  g_free (self->last_hashes_id);
  self->last_hashes_id = g_strdup (rows->snapshot_id);
  g_clear_pointer (&self->last_hashes, g_array_unref);
  self->last_hashes = g_steal_pointer (&hashes);

  return TRUE;
}

static gboolean
write_rows (AguiSessionStore    *self,
            const AguiTurnRows  *rows,
            const char          *what,
            GError             **error)
{
  gboolean written;

  g_mutex_lock (&self->mutex);
  written = write_rows_locked (self, rows, what, error);
  g_mutex_unlock (&self->mutex);

  if (written)
    _agui_session_store_announce_change (self, rows->thread_id);

  return written;
}

gboolean
_agui_session_store_write_rows (AguiSessionStore    *self,
                                const AguiTurnRows  *rows,
                                const char          *what,
                                GError             **error)
{
  return write_rows (self, rows, what, error);
}

gboolean
_agui_session_store_save_turn_with_thread (AguiSessionStore      *self,
                                           const AguiTurnRecord  *turn,
                                           const char            *title,
                                           const char            *agent,
                                           const char            *what,
                                           GError               **error)
{
  g_autoptr(AguiTurnRows) rows = _agui_turn_rows_new_full (turn, title, agent, what, error);

  return rows != NULL && write_rows (self, rows, what, error);
}

/**
 * _agui_session_store_save_turn:
 * @self: a session store
 * @turn: the turn to save
 * @error: return location for a #GError
 *
 * Saves one turn in a single transaction: its events, compacted, are
 * appended to the thread's log, its snapshot is added, the thread's
 * pending interrupts are replaced by the turn's, and the thread's
 * updated time is bumped (the thread is created, untitled, if it does
 * not exist). On error nothing of the turn is written.
 *
 * A snapshot id that is already taken, or a turn index the thread
 * already has, is an error.
 *
 * Returns: %TRUE on success
 */
gboolean
_agui_session_store_save_turn (AguiSessionStore      *self,
                              const AguiTurnRecord  *turn,
                              GError               **error)
{
  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (turn != NULL, FALSE);
  g_return_val_if_fail (turn->thread_id != NULL && turn->thread_id[0] != '\0', FALSE);
  g_return_val_if_fail (turn->snapshot_id != NULL && turn->snapshot_id[0] != '\0', FALSE);
  g_return_val_if_fail ((guint) turn->status <= AGUI_SNAPSHOT_ABORTED, FALSE);

  return _agui_session_store_save_turn_with_thread (self, turn, NULL, NULL, "Could not save the turn", error);
}

GPtrArray *
_agui_session_store_load_events_locked (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        const char        *what,
                                        GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) events = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, "SELECT seq, json FROM log WHERE thread_key = " THREAD_KEY_SQL " ORDER BY seq",
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *inflated = NULL;
      g_autoptr(GError) local_error = NULL;
      AguiEvent *event = NULL;
      const char *json;
      gsize length;

      json = _agui_session_store_column_json (stmt, 1, &length, &inflated, &local_error);

      /* The log holds only events that passed the pipeline, so the
       * schema is not checked again: reopening a thread stays fast. A
       * row damaged anyway (by an older version, or on disk) is skipped
       * with a warning, so that one row cannot make the whole thread
       * unreadable. */
      if (json != NULL)
        event = _agui_event_new_from_stored (json, length, &local_error);
      if (event == NULL)
        {
          g_warning ("%s: skipped the stored event %" G_GINT64_FORMAT ", which is not an AG-UI event%s%s",
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

  return g_steal_pointer (&events);
}

/**
 * agui_session_store_load_events:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Reads a thread's compacted event log, oldest first. Folding it again
 * draws the thread's transcript, as [method@Agui.AgentSession.restore_async]
 * does. A thread with no
 * log, or no such thread, gives an empty array.
 *
 * Returns: (transfer container) (element-type AguiEvent) (nullable): the
 *   events, or %NULL on error
 */
GPtrArray *
agui_session_store_load_events (AguiSessionStore  *self,
                                const char        *thread_id,
                                GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not load the events of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return _agui_session_store_load_events_locked (self, thread_id, what, error);
}

#define SNAPSHOT_COLUMNS \
  "id, parent_id, thread_id, turn_index, status, finish_reason, error, messages, state, created_at, run_id"

/* The text of a column that may be NULL */
static char *
dup_column_text (sqlite3_stmt *stmt,
                 int           column)
{
  return sqlite3_column_type (stmt, column) != SQLITE_NULL
         ? g_strdup ((const char *) sqlite3_column_text (stmt, column)) : NULL;
}

static gboolean
column_doc (sqlite3_stmt   *stmt,
            int             column,
            AguiJsonValue  *value,
            const char     *what,
            const char     *name,
            GError        **error)
{
  g_autoptr(GError) local_error = NULL;

  if (_agui_json_doc_parse ((const char *) sqlite3_column_text (stmt, column),
                            sqlite3_column_bytes (stmt, column), value, &local_error))
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
               "%s: the stored %s are not valid JSON (%s)", what, name, local_error->message);
  return FALSE;
}

/* A snapshot row (SNAPSHOT_COLUMNS); its messages read only
 * @with_messages, and counted always. */
static AguiTurnSnapshot *
snapshot_from_row (AguiMessageReader  *reader,
                   sqlite3_stmt       *stmt,
                   gboolean            with_messages,
                   const char         *what,
                   GError            **error)
{
  g_autoptr(AguiTurnSnapshot) snapshot = _agui_turn_snapshot_new ();
  g_auto(AguiJsonValue) messages = AGUI_JSON_VALUE_INIT;

  if (!column_doc (stmt, 7, &messages, what, "messages", error) ||
      !column_doc (stmt, 8, &snapshot->state, what, "state", error))
    return NULL;

  snapshot->id = g_strdup ((const char *) sqlite3_column_text (stmt, 0));

  /* Since schema 5, what changed since the parent snapshot */
  if (messages.kind == AGUI_JSON_DOC_OBJECT)
    {
      GArray *hashes = _agui_message_reader_hashes (reader, snapshot->id, what, error);

      if (hashes == NULL ||
          (with_messages && !_agui_message_reader_messages (reader, hashes, &snapshot->messages, what, error)))
        return NULL;
      snapshot->n_messages = with_messages ? _agui_json_doc_get_length (&snapshot->messages) : hashes->len;
    }
  else if (messages.kind == AGUI_JSON_DOC_ARRAY)
    {
      snapshot->n_messages = _agui_json_doc_get_length (&messages);
      if (with_messages)
        _agui_json_value_move (&snapshot->messages, &messages);
    }
  else
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: the stored messages are not an array", what);
      return NULL;
    }

  snapshot->parent_id = dup_column_text (stmt, 1);
  snapshot->thread_id = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  snapshot->turn_index = sqlite3_column_int (stmt, 3);
  snapshot->status = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
  snapshot->finish_reason = dup_column_text (stmt, 5);
  snapshot->error = dup_column_text (stmt, 6);
  snapshot->created_at = sqlite3_column_int64 (stmt, 9);
  snapshot->run_id = dup_column_text (stmt, 10);

  return g_steal_pointer (&snapshot);
}

/* The snapshot as agui_session_store_get_last_snapshot() documents it */
JsonObject *
_agui_session_store_snapshot_to_object (const AguiTurnSnapshot *snapshot)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", snapshot->id);
  _agui_session_store_set_string_or_null (object, "parentId", snapshot->parent_id);
  json_object_set_string_member (object, "threadId", snapshot->thread_id);
  json_object_set_int_member (object, "turnIndex", snapshot->turn_index);
  json_object_set_string_member (object, "status", snapshot->status);
  if (snapshot->finish_reason != NULL)
    json_object_set_string_member (object, "finishReason", snapshot->finish_reason);
  if (snapshot->error != NULL)
    json_object_set_string_member (object, "error", snapshot->error);
  if (snapshot->messages.kind == AGUI_JSON_DOC_ARRAY)
    json_object_set_member (object, "messages", _agui_json_value_to_node (&snapshot->messages));
  else
    json_object_set_array_member (object, "messages", json_array_new ());
  json_object_set_member (object, "state", _agui_json_value_to_node (&snapshot->state));
  json_object_set_int_member (object, "createdAt", snapshot->created_at);
  if (snapshot->run_id != NULL)
    json_object_set_string_member (object, "runId", snapshot->run_id);

  return object;
}

/* Sets *snapshot to NULL (and returns TRUE) when the thread has none. */
gboolean
_agui_session_store_get_last_snapshot_locked (AguiSessionStore  *self,
                                              const char        *thread_id,
                                              gboolean           completed_only,
                                              const char        *filter,
                                              AguiTurnSnapshot **snapshot,
                                              const char        *what,
                                              GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(AguiMessageReader) reader = NULL;
  int rc;

  *snapshot = NULL;

  if (!(reader = _agui_message_reader_new (self, thread_id, what, error)))
    return FALSE;
  reader->filter = filter;

  if (!(stmt = _agui_session_store_prepare (self,
                                            completed_only
                                              ? "SELECT " SNAPSHOT_COLUMNS " FROM snapshots WHERE thread_id = ?1 "
                                                "AND status = 'COMPLETED' ORDER BY turn_index DESC"
                                              /* The chosen branch's last turn first, then the newest */
                                              : "SELECT " SNAPSHOT_COLUMNS " FROM snapshots WHERE thread_id = ?1 "
                                                "ORDER BY id IS (SELECT branch FROM threads WHERE id = ?1) DESC, turn_index DESC",
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  /* A damaged snapshot is skipped with a warning for the one before
   * it: the thread opens as of the last turn that can be read. */
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;

      if ((*snapshot = snapshot_from_row (reader, stmt, TRUE, what, &local_error)) != NULL)
        return TRUE;

      g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                 what, sqlite3_column_int (stmt, 3), local_error->message);
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/**
 * agui_session_store_get_last_snapshot:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Reads the snapshot of the thread's latest turn on the branch the person
 * chose (with no branches, the highest turn index), whatever its status: an object with `id`, `parentId` (or
 * null), `threadId`, `turnIndex`, `status` (`"COMPLETED"`, `"FAILED"` or
 * `"ABORTED"`), `finishReason` and `error` when set, `messages`, `state`
 * and `createdAt` (microseconds since the Unix epoch).
 *
 * Returns: (transfer full) (nullable): the snapshot, or %NULL with no
 *   error if the thread has none, or %NULL with @error set
 */
JsonObject *
agui_session_store_get_last_snapshot (AguiSessionStore  *self,
                                      const char        *thread_id,
                                      GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(AguiTurnSnapshot) snapshot = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last snapshot of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!_agui_session_store_get_last_snapshot_locked (self, thread_id, FALSE, NULL, &snapshot, what, error) ||
      snapshot == NULL)
    return NULL;

  return _agui_session_store_snapshot_to_object (snapshot);
}

/**
 * agui_session_store_get_last_good_state:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Reads the state as of the thread's latest COMPLETED turn, skipping
 * failed and aborted turns after it.
 *
 * Returns: (transfer full) (nullable): the state, or %NULL with no error
 *   if no turn completed, or %NULL with @error set
 */
JsonNode *
agui_session_store_get_last_good_state (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(AguiTurnSnapshot) snapshot = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last good state of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!_agui_session_store_get_last_snapshot_locked (self, thread_id, TRUE, NULL, &snapshot, what, error) || snapshot == NULL)
    return NULL;

  return _agui_json_value_to_node (&snapshot->state);
}

/**
 * agui_session_store_get_turn_count:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Counts the thread's saved turns, failed and aborted ones included:
 * the next turn's index when turns are numbered from 0.
 *
 * Returns: the number of turns, or -1 on error
 */
int
agui_session_store_get_turn_count (AguiSessionStore  *self,
                                   const char        *thread_id,
                                   GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *what = NULL;
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), -1);
  g_return_val_if_fail (thread_id != NULL, -1);

  what = g_strdup_printf ("Could not count the turns of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = _agui_session_store_prepare (self, "SELECT COUNT (*) FROM snapshots WHERE thread_id = ?1", what, error)))
    return -1;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return -1;
    }

  return sqlite3_column_int (stmt, 0);
}

gboolean
_agui_session_store_get_pending_interrupts_locked (AguiSessionStore  *self,
                                                   const char        *thread_id,
                                                   AguiJsonValue     *interrupts,
                                                   const char        *what,
                                                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  AguiJsonDocArray *array;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, "SELECT json FROM interrupts WHERE thread_id = ?1 ORDER BY position",
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  array = _agui_json_value_set_array (interrupts, 0);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;
      AguiJsonValue interrupt = AGUI_JSON_VALUE_INIT;

      if (!column_doc (stmt, 0, &interrupt, what, "interrupts", &local_error))
        {
          g_warning ("%s: skipped a damaged interrupt: %s", what, local_error->message);
          continue;
        }
      _agui_json_array_insert (array, _agui_json_array_get_length (array), &interrupt);
    }

  if (rc != SQLITE_DONE)
    {
      _agui_json_value_clear (interrupts);
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/**
 * agui_session_store_get_pending_interrupts:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Reads the interrupts the thread waits on, as its latest turn left
 * them.
 *
 * Returns: (transfer full) (nullable): a list of [class@Agui.Interrupt]
 *   (possibly empty), or %NULL on error
 */
GListModel *
agui_session_store_get_pending_interrupts (AguiSessionStore  *self,
                                           const char        *thread_id,
                                           GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_auto(AguiJsonValue) interrupts = AGUI_JSON_VALUE_INIT;
  g_autofree char *what = NULL;
  GListStore *list;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the interrupts of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!_agui_session_store_get_pending_interrupts_locked (self, thread_id, &interrupts, what, error))
    return NULL;

  /* Each interrupt copies its object, so no JSON of this thread's leaves
   * it when the list goes to another. */
  list = g_list_store_new (AGUI_TYPE_INTERRUPT);
  for (guint i = 0; i < _agui_json_doc_get_length (&interrupts); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (&interrupts, i);
      g_autoptr(AguiInterrupt) interrupt = NULL;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;
      interrupt = _agui_interrupt_new_from_value (element);
      g_list_store_append (list, interrupt);
    }

  return G_LIST_MODEL (list);
}

/**
 * agui_session_store_get_pending_interrupts_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the interrupts
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.get_pending_interrupts] on the store's worker.
 */
void
agui_session_store_get_pending_interrupts_async (AguiSessionStore    *self,
                                                 const char          *thread_id,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_get_pending_interrupts_async,
                                         (AguiStoreThreadRead) agui_session_store_get_pending_interrupts, g_object_unref);
}

/**
 * agui_session_store_get_pending_interrupts_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): a list of [class@Agui.Interrupt],
 *   or %NULL on error
 */
GListModel *
agui_session_store_get_pending_interrupts_finish (AguiSessionStore  *self,
                                                  GAsyncResult      *result,
                                                  GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, agui_session_store_get_pending_interrupts_async, error);
}

static void
write_rows_job (AguiSessionStore *self,
                GTask            *task,
                gpointer          data)
{
  GError *error = NULL;
  gboolean done = write_rows (self, data, "Could not save the turn", &error);

  _agui_session_store_return_boolean (task, done, error);
}

void
_agui_session_store_write_rows_async (AguiSessionStore    *self,
                                      AguiTurnRows        *rows,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (rows != NULL);

  _agui_session_store_start_job_full (self, cancellable, callback, user_data, _agui_session_store_write_rows_async,
                                      write_rows_job, _agui_turn_rows_ref (rows), (GDestroyNotify) _agui_turn_rows_unref,
                                      TRUE);
}

static void
release_rows_job (AguiSessionStore *self,
                  GTask            *task,
                  gpointer          data)
{
  g_task_return_boolean (task, TRUE);
}

/* A long turn's rows are tens of thousands of strings: freeing them held
 * the main loop for 10 ms. They are plain data, so the last reference
 * can be let go on the worker, after the writes queued before it. */
void
_agui_session_store_release_rows (AguiSessionStore *self,
                                  AguiTurnRows     *rows)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));

  if (rows == NULL)
    return;

  _agui_session_store_start_job_full (self, NULL, NULL, NULL, _agui_session_store_release_rows,
                                      release_rows_job, rows, (GDestroyNotify) _agui_turn_rows_unref, TRUE);
}

gboolean
_agui_session_store_write_rows_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, _agui_session_store_write_rows_async, error);
}

/* Whether @snapshot ends a branch: no other of @snapshots chains to it */
static GHashTable *
parents_of (GPtrArray *snapshots)
{
  GHashTable *parents = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < snapshots->len; i++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i);

      if (snapshot->parent_id != NULL)
        g_hash_table_add (parents, snapshot->parent_id);
    }

  return parents;
}

/* Every snapshot of the thread (AguiTurnSnapshot), in turn order;
 * damaged ones are skipped with a warning, as a restore skips them. The
 * messages are read of every one @all_messages, else only of the
 * snapshots that end a branch: a thread that forked reads its long
 * history once per branch, not once per turn. */
static GPtrArray *
list_snapshots_locked (AguiSessionStore  *self,
                       const char        *thread_id,
                       gboolean           all_messages,
                       const char        *what,
                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_turn_snapshot_free);
  g_autoptr(AguiMessageReader) reader = NULL;
  gboolean settled = all_messages;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT " SNAPSHOT_COLUMNS " FROM snapshots WHERE thread_id = ?1 ORDER BY turn_index",
                                            what, error)) ||
      !(reader = _agui_message_reader_new (self, thread_id, what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;
      AguiTurnSnapshot *snapshot = snapshot_from_row (reader, stmt, all_messages, what, &local_error);

      if (snapshot == NULL)
        g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                   what, sqlite3_column_int (stmt, 3), local_error->message);
      else
        g_ptr_array_add (snapshots, snapshot);
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  /* The ends of branches, then their messages. One whose messages are
   * damaged is skipped as above, and its parent may then end the branch:
   * until every end is read. */
  while (!settled)
    {
      g_autoptr(GHashTable) parents = parents_of (snapshots);

      settled = TRUE;
      for (guint i = snapshots->len; i > 0; i--)
        {
          AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i - 1);
          g_autoptr(GError) local_error = NULL;
          GArray *hashes;

          if (snapshot->messages.kind == AGUI_JSON_DOC_ARRAY || g_hash_table_contains (parents, snapshot->id))
            continue;

          if (!(hashes = _agui_message_reader_hashes (reader, snapshot->id, what, &local_error)) ||
              !_agui_message_reader_messages (reader, hashes, &snapshot->messages, what, &local_error))
            {
              g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                         what, snapshot->turn_index, local_error->message);
              g_ptr_array_remove_index (snapshots, i - 1);
              settled = FALSE;
              break;
            }
        }
    }

  return g_steal_pointer (&snapshots);
}

GPtrArray *
_agui_session_store_list_snapshots (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    gboolean           all_messages,
                                    GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the snapshots of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return list_snapshots_locked (self, thread_id, all_messages, what, error);
}

/* The snapshots no other chains to, each the end of a branch, in turn
 * order (AguiTurnSnapshot, with their messages); *@chosen is the
 * position of the one the thread's branch names, or of the newest when
 * it names none of them. */
GPtrArray *
_agui_session_store_list_branches_locked (AguiSessionStore  *self,
                                          const char        *thread_id,
                                          guint             *chosen,
                                          const char        *what,
                                          GError           **error)
{
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(GHashTable) parents = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *chosen_id = NULL;
  GPtrArray *leaves;
  gboolean found = FALSE;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, "SELECT branch FROM threads WHERE id = ?1", what, error)))
    return NULL;
  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    chosen_id = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  if (!(snapshots = list_snapshots_locked (self, thread_id, FALSE, what, error)))
    return NULL;

  parents = parents_of (snapshots);
  leaves = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_turn_snapshot_free);
  *chosen = 0;
  for (guint i = 0; i < snapshots->len; i++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i);

      if (g_hash_table_contains (parents, snapshot->id))
        continue;

      if (!found && g_strcmp0 (snapshot->id, chosen_id) == 0)
        {
          *chosen = leaves->len;
          found = TRUE;
        }
      g_ptr_array_add (leaves, g_steal_pointer (&g_ptr_array_index (snapshots, i)));
    }

  if (!found && leaves->len > 0)
    *chosen = leaves->len - 1;

  return leaves;
}

/* The branches as agui_session_store_list_branches() documents them */
JsonArray *
_agui_session_store_branches_to_json (GPtrArray *leaves,
                                      guint      chosen)
{
  JsonArray *branches = json_array_sized_new (leaves->len);

  for (guint i = 0; i < leaves->len; i++)
    {
      JsonObject *branch = _agui_session_store_snapshot_to_object (g_ptr_array_index (leaves, i));

      json_object_set_boolean_member (branch, "chosen", i == chosen);
      json_array_add_object_element (branches, branch);
    }

  return branches;
}

/**
 * agui_session_store_list_branches:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * The ways a thread went: a regenerated answer or an edited message
 * starts a branch, a second child of the snapshot it forked from. Each
 * branch is given as the snapshot it ends on (as
 * [method@Agui.SessionStore.get_last_snapshot] gives one, with the whole
 * branch's `messages`), in the order their last turns were written, and
 * `"chosen": true` on the one the person is on. A thread that never
 * forked has one branch; one with no turn, none.
 *
 * Returns: (transfer full) (nullable): the branches, or %NULL with @error set
 */
JsonArray *
agui_session_store_list_branches (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GPtrArray) leaves = NULL;
  g_autofree char *what = NULL;
  guint chosen;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the branches of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(leaves = _agui_session_store_list_branches_locked (self, thread_id, &chosen, what, error)))
    return NULL;

  return _agui_session_store_branches_to_json (leaves, chosen);
}

/* How many branches the thread has, without reading any snapshot's
 * messages: a restore reads them all only for a thread that forked. */
int
_agui_session_store_count_branches_locked (AguiSessionStore  *self,
                                           const char        *thread_id,
                                           const char        *what,
                                           GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  /* The ends of branches are the snapshots no other one names as its
   * parent: all of them, less the distinct parents among them. Asked
   * snapshot by snapshot (NOT EXISTS a child), SQLite looked through the
   * whole thread for each, the square of its turns: 0.7 of the 1 s that
   * `tandem-cli show` took on a thread of 2,500 turns. */
  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT COUNT (*) - (SELECT COUNT (DISTINCT c.parent_id) FROM snapshots AS c "
                                            "  WHERE c.thread_id = ?1 AND c.parent_id IN "
                                            "  (SELECT id FROM snapshots WHERE thread_id = ?1)) "
                                            "FROM snapshots WHERE thread_id = ?1",
                                            what, error)))
    return -1;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return -1;
    }

  return sqlite3_column_int (stmt, 0);
}

int
_agui_session_store_count_branches (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), -1);
  g_return_val_if_fail (thread_id != NULL, -1);

  what = g_strdup_printf ("Could not count the branches of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return _agui_session_store_count_branches_locked (self, thread_id, what, error);
}

/* When each run that ended a turn was saved: run id to a gint64 of
 * microseconds. Only the two small columns are read, never the stored
 * JSON, so it costs the thread's turns, not its length. */
GHashTable *
_agui_session_store_dup_run_times (AguiSessionStore  *self,
                                   const char        *thread_id,
                                   GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) times = NULL;
  g_autofree char *what = NULL;
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read when the turns of the thread '%s' were saved", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT run_id, created_at FROM snapshots WHERE thread_id = ?1 AND run_id IS NOT NULL",
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 *time = g_new (gint64, 1);

      *time = sqlite3_column_int64 (stmt, 1);
      g_hash_table_replace (times, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), time);
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&times);
}

/* The last snapshot as agui_session_store_get_last_snapshot() reads it,
 * but its messages only those that keep Tandem's own state: what a
 * restore takes from it, without reading every message of a long
 * thread */
AguiTurnSnapshot *
_agui_session_store_get_last_snapshot_for_restore (AguiSessionStore  *self,
                                                   const char        *thread_id,
                                                   GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;
  AguiTurnSnapshot *snapshot;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last snapshot of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  _agui_session_store_get_last_snapshot_locked (self, thread_id, FALSE, "\"" AGUI_TRANSCRIPT_LOCAL_STATE_KEY "\":",
                                                &snapshot, what, error);
  return snapshot;
}
