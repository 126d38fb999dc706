/* agui-session-store-threads.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

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

  if (!(stmt = _agui_session_store_prepare (self, sql, what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
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

static JsonObject *
thread_from_row (sqlite3_stmt *stmt)
{
  JsonObject *thread = json_object_new ();

  json_object_set_string_member (thread, "id", (const char *) sqlite3_column_text (stmt, 0));
  json_object_set_string_member (thread, "title", (const char *) sqlite3_column_text (stmt, 1));
  _agui_session_store_set_string_or_null (thread, "agent", (const char *) sqlite3_column_text (stmt, 2));
  json_object_set_int_member (thread, "created", sqlite3_column_int64 (stmt, 3));
  json_object_set_int_member (thread, "updated", sqlite3_column_int64 (stmt, 4));
  if (sqlite3_column_count (stmt) > 5)
    json_object_set_boolean_member (thread, "waiting", sqlite3_column_int (stmt, 5) != 0);

  return thread;
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
  int rc;

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
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    json_array_add_object_element (threads, thread_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&threads);
}

JsonObject *
_agui_session_store_get_thread_locked (AguiSessionStore  *self,
                                       const char        *thread_id,
                                       const char        *what,
                                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT id, title, agent, created, updated FROM threads WHERE id = ?1",
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return thread_from_row (stmt);

  if (rc == SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: there is no such thread", what);
  else
    _agui_session_store_set_sqlite_error (self, rc, what, error);

  return NULL;
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
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return _agui_session_store_get_thread_locked (self, thread_id, what, error);
}

static GPtrArray *
list_thread_infos (AguiSessionStore  *self,
                   GError           **error)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  const char *what = "Could not list the threads";
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, THREAD_INFO_SQL THREAD_INFO_ORDER, what, error)))
    return NULL;

  infos = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (infos, _agui_session_store_thread_info_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&infos);
}

static void
list_threads_job (AguiSessionStore *self,
                  GTask            *task,
                  gpointer          data)
{
  GError *error = NULL;
  JsonArray *threads = agui_session_store_list_threads (self, data, &error);

  if (threads == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, threads, (GDestroyNotify) json_array_unref);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_list_threads_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_get_thread_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
rename_thread_job (AguiSessionStore *self,
                   GTask            *task,
                   gpointer          data)
{
  char **strings = data;
  GError *error = NULL;

  if (agui_session_store_rename_thread (self, strings[0], strings[1], &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
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
  char **strings;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (title != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  strings = g_new0 (char *, 3);
  strings[0] = g_strdup (thread_id);
  strings[1] = g_strdup (title);
  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_rename_thread_async,
                                 rename_thread_job, strings, (GDestroyNotify) g_strfreev);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_rename_thread_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
delete_thread_job (AguiSessionStore *self,
                   GTask            *task,
                   gpointer          data)
{
  GError *error = NULL;

  if (agui_session_store_delete_thread (self, data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
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

  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_delete_thread_async,
                                 delete_thread_job, g_strdup (thread_id), g_free);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_delete_thread_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
list_thread_infos_job (AguiSessionStore *self,
                       GTask            *task,
                       gpointer          data)
{
  GError *error = NULL;
  GPtrArray *infos = list_thread_infos (self, &error);

  if (infos == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, infos, (GDestroyNotify) g_ptr_array_unref);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, _agui_session_store_list_thread_infos_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the branch chosen in the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = _agui_session_store_prepare (self, "SELECT branch FROM threads WHERE id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (rc != SQLITE_DONE)
    _agui_session_store_set_sqlite_error (self, rc, what, error);

  return NULL;
}

typedef struct
{
  char *thread_id;
  char *snapshot_id;
} Branch;

static void
branch_free (Branch *branch)
{
  g_free (branch->thread_id);
  g_free (branch->snapshot_id);
  g_free (branch);
}

static void
set_branch_job (AguiSessionStore *self,
                GTask            *task,
                gpointer          data)
{
  Branch *branch = data;
  GError *error = NULL;

  if (_agui_session_store_set_branch (self, branch->thread_id, branch->snapshot_id, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
_agui_session_store_set_branch_async (AguiSessionStore    *self,
                                      const char          *thread_id,
                                      const char          *snapshot_id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  Branch *branch;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (snapshot_id != NULL);

  branch = g_new0 (Branch, 1);
  branch->thread_id = g_strdup (thread_id);
  branch->snapshot_id = g_strdup (snapshot_id);
  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_set_branch_async,
                                 set_branch_job, branch, (GDestroyNotify) branch_free);
}

gboolean
_agui_session_store_set_branch_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, _agui_session_store_set_branch_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  if (!(stmt = _agui_session_store_prepare (self,
                                            forget ? "DELETE FROM drafts WHERE thread_id = ?1"
                                                   : "INSERT INTO drafts (thread_id, text) VALUES (?1, ?2) "
                                                     "ON CONFLICT (thread_id) DO UPDATE SET text = excluded.text",
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
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
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  locker = g_mutex_locker_new (&self->mutex);
  if (!(stmt = _agui_session_store_prepare (self, "SELECT text FROM drafts WHERE thread_id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_strdup ("");
}

typedef struct
{
  char *thread_id;
  char *text;
} Draft;

static void
draft_free (Draft *draft)
{
  g_free (draft->thread_id);
  g_free (draft->text);
  g_free (draft);
}

static void
set_draft_job (AguiSessionStore *self,
               GTask            *task,
               gpointer          data)
{
  Draft *draft = data;
  GError *error = NULL;

  if (_agui_session_store_set_draft (self, draft->thread_id, draft->text, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
_agui_session_store_set_draft_async (AguiSessionStore    *self,
                                     const char          *thread_id,
                                     const char          *text,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  Draft *draft;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);

  draft = g_new0 (Draft, 1);
  draft->thread_id = g_strdup (thread_id);
  draft->text = g_strdup (text);
  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_set_draft_async,
                                 set_draft_job, draft, (GDestroyNotify) draft_free);
}

gboolean
_agui_session_store_set_draft_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, _agui_session_store_set_draft_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, _agui_session_store_dup_draft_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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

static void
set_thread_pinned_job (AguiSessionStore *self,
                       GTask            *task,
                       gpointer          data)
{
  char **strings = data;   /* the id, then "1" to pin or "0" */
  GError *error = NULL;

  if (agui_session_store_set_thread_pinned (self, strings[0], g_str_equal (strings[1], "1"), &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
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
  char **strings;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  strings = g_new0 (char *, 3);
  strings[0] = g_strdup (thread_id);
  strings[1] = g_strdup (pinned ? "1" : "0");
  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_set_thread_pinned_async,
             set_thread_pinned_job, strings, (GDestroyNotify) g_strfreev);
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
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_set_thread_pinned_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* End of pinning */
