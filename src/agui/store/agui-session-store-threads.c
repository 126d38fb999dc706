/* agui-session-store-threads.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agui-json-doc-access-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-text-private.h"
#include "agui-session-store-threads-private.h"
#include "agui-thread-info-private.h"

/* Threads: their rows (title, agent, times, the branch chosen), the
 * listing a sidebar shows, and the drafts typed into them. */

static gboolean insert_thread (AguiSessionStore  *self,
                               const char        *thread_id,
                               const char        *title,
                               const char        *agent,
                               GError           **error);

/**
 * agui_session_store_create_thread:
 * @self: a session store
 * @thread_id: a new thread's id
 * @title: (nullable): its title
 * @agent: (nullable): the agent it talks to (a URL or a name)
 * @error: return location for a #GError
 *
 * Adds an empty thread. An id that is already taken is an error.
 *
 * Returns: %TRUE on success
 */
gboolean
agui_session_store_create_thread (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  const char        *title,
                                  const char        *agent,
                                  GError           **error)
{
  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL && thread_id[0] != '\0', FALSE);

  if (!insert_thread (self, thread_id, title, agent, error))
    return FALSE;

  _agui_session_store_announce_change (self, thread_id);
  return TRUE;
}

static gboolean
insert_thread (AguiSessionStore  *self,
               const char        *thread_id,
               const char        *title,
               const char        *agent,
               GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *what = NULL;
  int rc;

  what = g_strdup_printf ("Could not create the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = _agui_session_store_prepare (self,
                                            "INSERT INTO threads (id, title, agent, created, updated, key) "
                                            "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ", " NEXT_KEY_SQL ")",
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, title ? title : "", -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, agent, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time ());

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: a thread with that id already exists", what);
      return FALSE;
    }
  else if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* Runs a one-row UPDATE or DELETE keyed by thread id; no row is an error. */
static gboolean
change_thread (AguiSessionStore  *self,
               const char        *sql,
               const char        *thread_id,
               const char        *title,
               const char        *what,
               GError           **error)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = _agui_session_store_prepare_for_thread (self, sql, thread_id, what, error)))
    return FALSE;

  if (title != NULL)
    sqlite3_bind_text (stmt, 2, title, -1, SQLITE_STATIC);

  if (!_agui_session_store_step_done (self, stmt, what, error))
    return FALSE;

  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: there is no such thread", what);
      return FALSE;
    }

  return TRUE;
}

/**
 * agui_session_store_rename_thread:
 * @self: a session store
 * @thread_id: a thread's id
 * @title: its new title
 * @error: return location for a #GError
 *
 * Changes a thread's title. Its "updated" time stays: that tracks the
 * conversation, not its name.
 *
 * Returns: %TRUE on success; an unknown thread is %G_IO_ERROR_NOT_FOUND
 */
gboolean
agui_session_store_rename_thread (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  const char        *title,
                                  GError           **error)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);
  g_return_val_if_fail (title != NULL, FALSE);

  what = g_strdup_printf ("Could not rename the thread '%s'", thread_id);
  if (!change_thread (self, "UPDATE threads SET title = ?2 WHERE id = ?1",
                      thread_id, title, what, error))
    return FALSE;

  _agui_session_store_announce_change (self, thread_id);
  return TRUE;
}

/**
 * agui_session_store_delete_thread:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Deletes a thread with its event log, snapshots and interrupts.
 *
 * Returns: %TRUE on success; an unknown thread is %G_IO_ERROR_NOT_FOUND
 */
gboolean
agui_session_store_delete_thread (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  GError           **error)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);

  what = g_strdup_printf ("Could not delete the thread '%s'", thread_id);

  /* The foreign keys cascade to the log, snapshots, interrupts and
   * journal; the draft has none. */
  if (!change_thread (self, "DELETE FROM threads WHERE id = ?1",
                      thread_id, NULL, what, error))
    return FALSE;
  /* Best effort: a draft left behind is never shown without its thread */
  _agui_session_store_set_draft (self, thread_id, "", NULL);

  /* The messages it named are gone */
  g_mutex_lock (&self->mutex);
  g_clear_pointer (&self->last_hashes_id, g_free);
  g_clear_pointer (&self->last_hashes, g_array_unref);
  g_mutex_unlock (&self->mutex);

  _agui_session_store_announce_change (self, thread_id);
  return TRUE;
}

/* The thread as agui_session_store_get_thread() documents it, into
 * @value (null before) */
static void
thread_value_from_row (sqlite3_stmt  *stmt,
                       AguiJsonValue *value)
{
  AguiJsonDocObject *thread = _agui_json_value_set_object (value, 6);
  const char *agent = (const char *) sqlite3_column_text (stmt, 2);

  _agui_json_doc_set_string (thread, "id", (const char *) sqlite3_column_text (stmt, 0));
  _agui_json_doc_set_string (thread, "title", (const char *) sqlite3_column_text (stmt, 1));
  if (agent != NULL)
    _agui_json_doc_set_string (thread, "agent", agent);
  else
    _agui_json_doc_set_null (thread, "agent");
  _agui_json_doc_set_int (thread, "created", sqlite3_column_int64 (stmt, 3));
  _agui_json_doc_set_int (thread, "updated", sqlite3_column_int64 (stmt, 4));
  if (sqlite3_column_count (stmt) > 5)
    _agui_json_doc_set_boolean (thread, "waiting", sqlite3_column_int (stmt, 5) != 0);
}

static JsonObject *
thread_from_row (sqlite3_stmt *stmt)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonNode) node = NULL;

  thread_value_from_row (stmt, &value);
  node = _agui_json_value_to_node (&value);

  return json_node_dup_object (node);
}

static void
add_thread_row (sqlite3_stmt *stmt,
                gpointer      threads)
{
  json_array_add_object_element (threads, thread_from_row (stmt));
}

/**
 * agui_session_store_list_threads:
 * @self: a session store
 * @search: (nullable): text to look for, or %NULL for every thread
 * @error: return location for a #GError
 *
 * Lists threads, most recently updated first, as objects with `id`,
 * `title`, `agent` (or null), `created` and `updated` (microseconds since
 * the Unix epoch, as g_get_real_time()), and `waiting`: whether the
 * thread waits on interrupts. With @search, only threads whose title or
 * current message text contains it, ignoring case.
 *
 * Returns: (transfer full) (nullable): the threads, or %NULL on error
 */
JsonArray *
agui_session_store_list_threads (AguiSessionStore  *self,
                                 const char        *search,
                                 GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(JsonArray) threads = NULL;
  const char *what = "Could not list the threads";

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);

  if (search != NULL && search[0] == '\0')
    search = NULL;

  locker = g_mutex_locker_new (&self->mutex);

  /* Every message the thread has said, in any of its branches; only
   * message text is looked at, not ids or roles. Reading a message
   * costs: the ones whose JSON cannot hold the text are passed over. */
  if (!(stmt = _agui_session_store_prepare (self,
                                            THREAD_INFO_SQL
                                            "WHERE ?1 IS NULL OR agui_text_matches (t.title, ?1) OR EXISTS ("
                                            "  SELECT 1 FROM messages m"
                                            "  WHERE m.thread_key = t.key AND agui_text_matches (m.json, ?2)"
                                            "  AND agui_text_matches (agui_message_text (m.json), ?1)) "
                                            THREAD_INFO_ORDER,
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 2, _agui_session_store_raw_needle (search), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 1, search, -1, SQLITE_STATIC);

  threads = json_array_new ();
  if (!_agui_session_store_each_row (self, stmt, add_thread_row, threads, what, error))
    return NULL;

  return g_steal_pointer (&threads);
}

gboolean
_agui_session_store_get_thread_locked (AguiSessionStore  *self,
                                       const char        *thread_id,
                                       AguiJsonValue     *thread,
                                       const char        *what,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare_for_thread (self,
                                                       "SELECT id, title, agent, created, updated FROM threads WHERE id = ?1",
                                                       thread_id, what, error)))
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      thread_value_from_row (stmt, thread);
      return TRUE;
    }

  if (rc == SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: there is no such thread", what);
  else
    _agui_session_store_set_sqlite_error (self, rc, what, error);

  return FALSE;
}

/**
 * agui_session_store_get_thread:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the thread as
 *   [method@Agui.SessionStore.list_threads] describes it, or %NULL if
 *   there is no such thread (%G_IO_ERROR_NOT_FOUND) or it could not be
 *   read
 */
JsonObject *
agui_session_store_get_thread (AguiSessionStore  *self,
                               const char        *thread_id,
                               GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_auto(AguiJsonValue) thread = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!_agui_session_store_get_thread_locked (self, thread_id, &thread, what, error))
    return NULL;

  node = _agui_json_value_to_node (&thread);
  return json_node_dup_object (node);
}

static void
add_thread_info_row (sqlite3_stmt *stmt,
                     gpointer      infos)
{
  g_ptr_array_add (infos, _agui_session_store_thread_info_from_row (stmt));
}

static GPtrArray *
list_thread_infos (AguiSessionStore  *self,
                   GError           **error)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  const char *what = "Could not list the threads";
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) infos = NULL;

  if (!(stmt = _agui_session_store_prepare (self, THREAD_INFO_SQL THREAD_INFO_ORDER, what, error)))
    return NULL;

  infos = g_ptr_array_new_with_free_func (g_object_unref);
  if (!_agui_session_store_each_row (self, stmt, add_thread_info_row, infos, what, error))
    return NULL;

  return g_steal_pointer (&infos);
}

static void
list_threads_job (AguiSessionStore *self,
                  GTask            *task,
                  gpointer          data)
{
  GError *error = NULL;
  JsonArray *threads = agui_session_store_list_threads (self, data, &error);

  _agui_session_store_return_pointer (task, threads, (GDestroyNotify) json_array_unref, error);
}

/**
 * agui_session_store_list_threads_async:
 * @self: a session store
 * @search: (nullable): text to look for, or %NULL for every thread
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the threads
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.list_threads] on the store's worker: a
 * search over every message of every thread never blocks the caller.
 */
void
agui_session_store_list_threads_async (AguiSessionStore    *self,
                                       const char          *search,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_list_threads_async,
                                 list_threads_job, g_strdup (search), g_free);
}

/**
 * agui_session_store_list_threads_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the threads, as
 *   [method@Agui.SessionStore.list_threads] describes them, or %NULL on error
 */
JsonArray *
agui_session_store_list_threads_finish (AguiSessionStore  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, agui_session_store_list_threads_async, error);
}

/**
 * agui_session_store_get_thread_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the thread
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.get_thread] on the store's worker.
 */
void
agui_session_store_get_thread_async (AguiSessionStore    *self,
                                     const char          *thread_id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_get_thread_async,
                                         (AguiStoreThreadRead) agui_session_store_get_thread, (GDestroyNotify) json_object_unref);
}

/**
 * agui_session_store_get_thread_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the thread, or %NULL on error
 */
JsonObject *
agui_session_store_get_thread_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, agui_session_store_get_thread_async, error);
}

/**
 * agui_session_store_rename_thread_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @title: its new title
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when it is renamed
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.rename_thread] on the store's worker.
 */
void
agui_session_store_rename_thread_async (AguiSessionStore    *self,
                                        const char          *thread_id,
                                        const char          *title,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (title != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_write_thread (self, thread_id, title, cancellable, callback, user_data,
                                          agui_session_store_rename_thread_async, agui_session_store_rename_thread);
}

/**
 * agui_session_store_rename_thread_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
agui_session_store_rename_thread_finish (AguiSessionStore  *self,
                                         GAsyncResult      *result,
                                         GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, agui_session_store_rename_thread_async, error);
}

static gboolean
delete_thread (AguiSessionStore  *self,
               const char        *thread_id,
               const char        *unused,
               GError           **error)
{
  return agui_session_store_delete_thread (self, thread_id, error);
}

/**
 * agui_session_store_delete_thread_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when it is deleted
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.delete_thread] on the store's worker.
 */
void
agui_session_store_delete_thread_async (AguiSessionStore    *self,
                                        const char          *thread_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_write_thread (self, thread_id, NULL, cancellable, callback, user_data,
                                          agui_session_store_delete_thread_async, delete_thread);
}

/**
 * agui_session_store_delete_thread_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
agui_session_store_delete_thread_finish (AguiSessionStore  *self,
                                         GAsyncResult      *result,
                                         GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, agui_session_store_delete_thread_async, error);
}

static void
list_thread_infos_job (AguiSessionStore *self,
                       GTask            *task,
                       gpointer          data)
{
  GError *error = NULL;
  GPtrArray *infos = list_thread_infos (self, &error);

  _agui_session_store_return_pointer (task, infos, (GDestroyNotify) g_ptr_array_unref, error);
}

void
_agui_session_store_list_thread_infos_async (AguiSessionStore    *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_list_thread_infos_async,
                                 list_thread_infos_job, NULL, NULL);
}

GPtrArray *
_agui_session_store_list_thread_infos_finish (AguiSessionStore  *self,
                                              GAsyncResult      *result,
                                              GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, _agui_session_store_list_thread_infos_async, error);
}

gboolean
_agui_session_store_set_branch (AguiSessionStore  *self,
                                const char        *thread_id,
                                const char        *snapshot_id,
                                GError           **error)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);
  g_return_val_if_fail (snapshot_id != NULL, FALSE);

  what = g_strdup_printf ("Could not keep the branch chosen in the thread '%s'", thread_id);

  /* Only the end of a branch can be chosen: a turn written since (on
   * another thread of this process, or another process) continued it,
   * and the thread is on that turn's branch already. */
  return change_thread (self,
                        "UPDATE threads SET branch = CASE WHEN EXISTS "
                        "(SELECT 1 FROM snapshots WHERE thread_id = ?1 AND parent_id = ?2) "
                        "THEN branch ELSE ?2 END WHERE id = ?1",
                        thread_id, snapshot_id, what, error);
}

/* The snapshot the chosen branch ends on, NULL with no error when the
 * thread never chose one. */
char *
_agui_session_store_dup_branch (AguiSessionStore  *self,
                                const char        *thread_id,
                                GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *what = NULL;
  char *branch = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the branch chosen in the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if ((stmt = _agui_session_store_prepare_for_thread (self, "SELECT branch FROM threads WHERE id = ?1",
                                                      thread_id, what, error)))
    _agui_session_store_read_text (self, stmt, &branch, what, error);

  return branch;
}

void
_agui_session_store_set_branch_async (AguiSessionStore    *self,
                                      const char          *thread_id,
                                      const char          *snapshot_id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (snapshot_id != NULL);

  _agui_session_store_start_write_thread (self, thread_id, snapshot_id, cancellable, callback, user_data,
                                          _agui_session_store_set_branch_async, _agui_session_store_set_branch);
}

gboolean
_agui_session_store_set_branch_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, _agui_session_store_set_branch_async, error);
}

/* Drafts */

gboolean
_agui_session_store_set_draft (AguiSessionStore  *self,
                               const char        *thread_id,
                               const char        *text,
                               GError           **error)
{
  const char *what = "Could not keep the draft";
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gboolean forget = text == NULL || text[0] == '\0';

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);

  locker = g_mutex_locker_new (&self->mutex);
  if (!(stmt = _agui_session_store_prepare_for_thread (self,
                                                       forget ? "DELETE FROM drafts WHERE thread_id = ?1"
                                                              : "INSERT INTO drafts (thread_id, text) VALUES (?1, ?2) "
                                                                "ON CONFLICT (thread_id) DO UPDATE SET text = excluded.text",
                                                       thread_id, what, error)))
    return FALSE;

  if (!forget)
    sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);

  return _agui_session_store_step_done (self, stmt, what, error);
}

char *
_agui_session_store_dup_draft (AguiSessionStore  *self,
                               const char        *thread_id,
                               GError           **error)
{
  const char *what = "Could not read the draft";
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  char *text;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  locker = g_mutex_locker_new (&self->mutex);
  if (!(stmt = _agui_session_store_prepare_for_thread (self, "SELECT text FROM drafts WHERE thread_id = ?1",
                                                       thread_id, what, error)) ||
      !_agui_session_store_read_text (self, stmt, &text, what, error))
    return NULL;

  return text != NULL ? text : g_strdup ("");
}

void
_agui_session_store_set_draft_async (AguiSessionStore    *self,
                                     const char          *thread_id,
                                     const char          *text,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);

  _agui_session_store_start_write_thread (self, thread_id, text, cancellable, callback, user_data,
                                          _agui_session_store_set_draft_async, _agui_session_store_set_draft);
}

gboolean
_agui_session_store_set_draft_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, _agui_session_store_set_draft_async, error);
}

void
_agui_session_store_dup_draft_async (AguiSessionStore    *self,
                                     const char          *thread_id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, _agui_session_store_dup_draft_async,
                                         (AguiStoreThreadRead) _agui_session_store_dup_draft, g_free);
}

char *
_agui_session_store_dup_draft_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, _agui_session_store_dup_draft_async, error);
}

/* Pinning: the threads.pinned column (migration 8) */

/**
 * agui_session_store_set_thread_pinned:
 * @self: a session store
 * @thread_id: a thread's id
 * @pinned: whether the thread is pinned
 * @error: return location for a #GError
 *
 * Pins or unpins a thread: pinned threads come first in the lists of
 * threads. Its "updated" time stays.
 *
 * Returns: %TRUE on success; an unknown thread is %G_IO_ERROR_NOT_FOUND
 */
gboolean
agui_session_store_set_thread_pinned (AguiSessionStore  *self,
                                      const char        *thread_id,
                                      gboolean           pinned,
                                      GError           **error)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);

  what = g_strdup_printf ("Could not %s the thread '%s'", pinned ? "pin" : "unpin", thread_id);
  if (!change_thread (self, "UPDATE threads SET pinned = CAST (?2 AS INTEGER) WHERE id = ?1",
                      thread_id, pinned ? "1" : "0", what, error))
    return FALSE;

  _agui_session_store_announce_change (self, thread_id);
  return TRUE;
}

/* Pinned when given any text */
static gboolean
set_thread_pinned (AguiSessionStore  *self,
                   const char        *thread_id,
                   const char        *pin,
                   GError           **error)
{
  return agui_session_store_set_thread_pinned (self, thread_id, pin != NULL, error);
}

/**
 * agui_session_store_set_thread_pinned_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @pinned: whether the thread is pinned
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when it is done
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.set_thread_pinned] on the store's worker.
 */
void
agui_session_store_set_thread_pinned_async (AguiSessionStore    *self,
                                            const char          *thread_id,
                                            gboolean             pinned,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_write_thread (self, thread_id, pinned ? "pin" : NULL, cancellable, callback, user_data,
                                          agui_session_store_set_thread_pinned_async, set_thread_pinned);
}

/**
 * agui_session_store_set_thread_pinned_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
agui_session_store_set_thread_pinned_finish (AguiSessionStore  *self,
                                             GAsyncResult      *result,
                                             GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, agui_session_store_set_thread_pinned_async, error);
}

/* End of pinning */
