/* agui-session-store-db-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "agui-session-store-private.h"
#include "agui-store-guard-private.h"
#include "agui-thread-info.h"

G_BEGIN_DECLS

/* The store spans files, one job each: agui-session-store.c (the
 * database, its migrations and the worker) over -db (the SQL helpers),
 * -threads, -turns with -messages, -journal, -search with -text,
 * -export and -import. They
 * share the object below and the helpers of agui-session-store-db.c; each
 * call takes self->mutex around its statements. */
struct _AguiSessionStore
{
  GObject  parent_instance;
  char    *path;
  sqlite3 *db;
  GMutex   mutex;
  int      last_code;
  /* Why the store could only be opened for reading, said again by every
   * write that fails because of it. */
  char    *read_only_reason;
  guint    folder_read_only : 1;
  /* The one worker every asynchronous call runs on, in the order they
   * were made: a rename is never overtaken by the listing after it. */
  GThreadPool *worker;
  /* Changes to a thread are announced on the thread that made the
   * store, in its main context: at once for a call made there, after
   * the job for one the worker ran. */
  GThread      *owner;
  GMainContext *context;
  /* Keeps the file to data: no views, triggers or endless statements. */
  AguiStoreGuard guard;
  /* The messages of the snapshot written last, as hashes: the next
   * turn, its child as a rule, is told apart from it without reading
   * the chain back */
  char         *last_hashes_id;
  GArray       *last_hashes;
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* The next "updated" time: now, or just after the newest thread if the
 * clock is coarse or went back, so "newest first" is never a tie. */
#define NEXT_UPDATED_SQL "MAX (?4, (SELECT COALESCE (MAX (updated), 0) + 1 FROM threads))"

/* A new thread's key, and the key of the thread ?1 names: the log
 * files events under the key, a small integer, not the thread's id */
#define NEXT_KEY_SQL "(SELECT COALESCE (MAX (key), 0) + 1 FROM threads)"
#define THREAD_KEY_SQL "(SELECT key FROM threads WHERE id = ?1)"

/* Now and then a snapshot holds its whole list, so that reading a long
 * thread back walks at most this many snapshots */
#define SNAPSHOTS_PER_CHECKPOINT 1024

#define INSERT_MESSAGE_SQL "INSERT OR IGNORE INTO messages (thread_key, hash, json) VALUES (" THREAD_KEY_SQL ", ?2, ?3)"

/* SQL, with errors that say what failed. Call set_sqlite_error at once
 * after the failing call: a ROLLBACK would replace the connection's
 * error message. */
void          _agui_session_store_set_sqlite_error (AguiSessionStore  *self,
                                                    int                code,
                                                    const char        *what,
                                                    GError           **error);
gboolean      _agui_session_store_exec             (AguiSessionStore  *self,
                                                    const char        *sql,
                                                    const char        *what,
                                                    GError           **error);
sqlite3_stmt *_agui_session_store_prepare          (AguiSessionStore  *self,
                                                    const char        *sql,
                                                    const char        *what,
                                                    GError           **error);
sqlite3_stmt *_agui_session_store_prepare_for_thread (AguiSessionStore  *self,
                                                      const char        *sql,
                                                      const char        *thread_id,
                                                      const char        *what,
                                                      GError           **error);
gboolean      _agui_session_store_step_done        (AguiSessionStore  *self,
                                                    sqlite3_stmt      *stmt,
                                                    const char        *what,
                                                    GError           **error);
typedef void (*AguiStoreRowFunc) (sqlite3_stmt *stmt,
                                  gpointer      user_data);
gboolean      _agui_session_store_each_row         (AguiSessionStore  *self,
                                                    sqlite3_stmt      *stmt,
                                                    AguiStoreRowFunc   row,
                                                    gpointer           user_data,
                                                    const char        *what,
                                                    GError           **error);
gboolean      _agui_session_store_read_text        (AguiSessionStore  *self,
                                                    sqlite3_stmt      *stmt,
                                                    char             **text,
                                                    const char        *what,
                                                    GError           **error);
void          _agui_session_store_rollback         (AguiSessionStore  *self);
gboolean      _agui_session_store_commit           (AguiSessionStore  *self,
                                                    const char        *what,
                                                    GError           **error);

void          _agui_session_store_set_string_or_null (JsonObject      *object,
                                                      const char      *name,
                                                      const char      *value);

/* Messages, each stored once under a hash of its JSON (deflated when
 * long, @deflate, and it keeps no Tandem state); a snapshot's messages
 * column holds {"keep":N,"add":[hash,...]} */
gint64        _agui_session_store_message_hash     (const char        *json,
                                                    gssize             length);
char         *_agui_session_store_print_message_delta (guint         keep,
                                                       const GArray *hashes,
                                                       guint         first);
guint         _agui_session_store_common_prefix    (const GArray      *a,
                                                    const GArray      *b);
gboolean      _agui_session_store_insert_message   (AguiSessionStore  *self,
                                                    sqlite3_stmt      *insert,
                                                    const char        *thread_id,
                                                    gint64             hash,
                                                    const char        *json,
                                                    gboolean           deflate,
                                                    const char        *what,
                                                    GError           **error);

/* Thread rows as a list shows them, read in one statement */
#define THREAD_INFO_SQL \
  "SELECT t.id, t.title, t.agent, t.created, t.updated, " \
  "(SELECT group_concat (i.json, char (30)) FROM interrupts i WHERE i.thread_id = t.id), " \
  "t.pinned FROM threads t "

/* Pinned threads first, then the most recently updated */
#define THREAD_INFO_ORDER "ORDER BY t.pinned DESC, t.updated DESC"

AguiThreadInfo *_agui_session_store_thread_info_from_row (sqlite3_stmt *stmt);

/* The values typed into a thread's A2UI surfaces, for export and import
 * (see agui-session-store-values.c) */
gboolean      _agui_session_store_dup_surface_values_locked (AguiSessionStore  *self,
                                                             const char        *thread_id,
                                                             AguiJsonValue     *values,
                                                             const char        *what,
                                                             GError           **error);
gboolean      _agui_session_store_set_all_surface_values    (AguiSessionStore  *self,
                                                             const char        *thread_id,
                                                             AguiJsonDocObject *values,
                                                             const char        *what,
                                                             GError           **error);
const char   *_agui_session_store_check_surface_values      (const AguiJsonValue *member);

/* Emits ::thread-changed for a change just committed (the mutex
 * released), on the store's own thread */
void          _agui_session_store_announce_change  (AguiSessionStore  *self,
                                                    const char        *thread_id);

/* The worker. Each asynchronous call is a job the worker runs with the
 * blocking call of the same name; its result comes back on the caller's
 * main context. What a job is given is its own: strings, rows made on
 * the caller's thread, or a deep copy of the caller's JSON. */
typedef void     (*AguiStoreJobFunc)    (AguiSessionStore  *self,
                                         GTask             *task,
                                         gpointer           data);

void          _agui_session_store_run_job          (gpointer             data,
                                                    gpointer             user_data);
void          _agui_session_store_start_job        (AguiSessionStore    *self,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data,
                                                    gpointer             source_tag,
                                                    AguiStoreJobFunc     func,
                                                    gpointer             data,
                                                    GDestroyNotify       destroy);
/* @release_on_worker: @data is plain data (rows), let go on the worker
 * once the job ran rather than with the task on the caller's thread */
void          _agui_session_store_start_job_full   (AguiSessionStore    *self,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data,
                                                    gpointer             source_tag,
                                                    AguiStoreJobFunc     func,
                                                    gpointer             data,
                                                    GDestroyNotify       destroy,
                                                    gboolean             release_on_worker);
/* Runs @read on the worker; the call's _finish propagates the pointer */
void          _agui_session_store_start_read_thread (AguiSessionStore    *self,
                                                     const char          *thread_id,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data,
                                                     gpointer             source_tag,
                                                     AguiStoreThreadRead  read,
                                                     GDestroyNotify       free_result);
/* A write of one thread: @write with its id and one string (a title, a
 * draft...), which may be NULL */
typedef gboolean (*AguiStoreThreadWrite) (AguiSessionStore  *self,
                                          const char        *thread_id,
                                          const char        *text,
                                          GError           **error);
/* Runs @write on the worker; the call's _finish propagates the boolean */
void          _agui_session_store_start_write_thread (AguiSessionStore     *self,
                                                      const char           *thread_id,
                                                      const char           *text,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data,
                                                      gpointer              source_tag,
                                                      AguiStoreThreadWrite  write);
/* Ends a job with what its blocking call gave: the result, or @error
 * (taken) when it is NULL or FALSE */
void          _agui_session_store_return_pointer   (GTask               *task,
                                                    gpointer             result,
                                                    GDestroyNotify       free_result,
                                                    GError              *error);
void          _agui_session_store_return_boolean   (GTask               *task,
                                                    gboolean             done,
                                                    GError              *error);
gboolean      _agui_session_store_job_is_valid     (AguiSessionStore    *self,
                                                    GAsyncResult        *result,
                                                    gpointer             source_tag);
/* The body of every _finish: checks the result is of the call
 * @source_tag names, then propagates it */
gpointer      _agui_session_store_finish_pointer   (AguiSessionStore    *self,
                                                    GAsyncResult        *result,
                                                    gpointer             source_tag,
                                                    GError             **error);
gboolean      _agui_session_store_finish_boolean   (AguiSessionStore    *self,
                                                    GAsyncResult        *result,
                                                    gpointer             source_tag,
                                                    GError             **error);

G_END_DECLS
