/* agui-session-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "agui-interrupt-private.h"
#include "agui-interrupt.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-text-private.h"
#include "agui-thread-info-private.h"

/**
 * AguiSessionStore:
 *
 * Keeps threads on disk in one SQLite database: each thread's event log,
 * one snapshot per turn and the interrupts the thread waits on.
 *
 * A session given the store ([property@Agui.AgentSession:store]) writes
 * each turn in one transaction. While a turn is in flight, the person's
 * message (before the request leaves) and then the answer's events (a
 * batch at most every twentieth of a second) go to a journal, which the
 * turn takes in when it is saved: a crash, a kill or a full disk loses at
 * most the last moments of an answer, and a restore shows what the
 * journal kept, the answer marked as failed. Before they are written, a
 * turn's events are compacted: the deltas of one message or tool call
 * that arrived back to back become one event, and replaying the
 * compacted log draws the same transcript.
 *
 * Each message is stored once; a snapshot names the messages it keeps
 * of its parent's and the ones it adds, so a thread takes room in
 * proportion to its length, not to its square.
 *
 * ```c
 * g_autoptr(AguiSessionStore) store = agui_session_store_new (NULL, &error);
 * AguiTurnRecord turn = {
 *   .thread_id = thread_id,
 *   .snapshot_id = snapshot_id,
 *   .parent_id = previous_snapshot_id,
 *   .turn_index = agui_session_store_get_turn_count (store, thread_id, NULL),
 *   .status = AGUI_SNAPSHOT_COMPLETED,
 *   .messages = agui_transcript_to_messages (transcript, FALSE),
 *   .state = agui_transcript_get_state (transcript),
 *   .events = events,
 * };
 *
 * if (!_agui_session_store_save_turn (store, &turn, &error))
 *   g_warning ("%s", error->message);
 * ```
 *
 * Several processes may share a database: writers wait for each other
 * (up to five seconds) rather than fail. One store may be used from
 * several threads; its calls are serialized.
 *
 * Every call has an asynchronous form (`_async` and `_finish`), which
 * runs on the store's one worker thread, in the order the calls were
 * made, so that a program with a user interface never waits on the disk
 * or on another process's lock. [func@Agui.SessionStore.new_async]
 * opens the store the same way. The blocking calls stay, for command-line
 * tools and tests.
 */

static void agui_session_store_initable_iface_init (GInitableIface *iface);

static void
agui_session_store_async_initable_iface_init (GAsyncInitableIface *iface)
{
  /* GAsyncInitable's own implementation runs GInitable's init on a
   * worker thread: the retries on a busy new database, the wait for a
   * lock another process holds and the migrations all happen there. */
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiSessionStore, agui_session_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      agui_session_store_initable_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_ASYNC_INITABLE,
                                                      agui_session_store_async_initable_iface_init))

enum { PROP_0, PROP_PATH, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { THREAD_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

#define BUSY_TIMEOUT_MS 5000

/* Each entry moves the schema one version forward; the database's
 * PRAGMA user_version says how many have run. To change the schema,
 * append an entry: never edit one that has shipped. */
static const char * const migrations[] = {
  /* 1: threads, their event logs, one snapshot per turn, interrupts */
  "CREATE TABLE threads ("
  "  id TEXT PRIMARY KEY NOT NULL,"
  "  title TEXT NOT NULL DEFAULT '',"
  "  agent TEXT,"
  "  created INTEGER NOT NULL,"
  "  updated INTEGER NOT NULL"
  ");"
  "CREATE INDEX threads_by_updated ON threads (updated);"
  "CREATE TABLE events ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  run_id TEXT,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, seq)"
  ");"
  "CREATE TABLE snapshots ("
  "  id TEXT PRIMARY KEY NOT NULL,"
  "  parent_id TEXT,"
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  turn_index INTEGER NOT NULL,"
  "  status TEXT NOT NULL CHECK (status IN ('COMPLETED', 'FAILED', 'ABORTED')),"
  "  finish_reason TEXT,"
  "  error TEXT,"
  "  messages TEXT NOT NULL,"
  "  state TEXT NOT NULL,"
  "  created_at INTEGER NOT NULL,"
  "  UNIQUE (thread_id, turn_index)"
  ");"
  "CREATE INDEX snapshots_by_status ON snapshots (thread_id, status, turn_index);"
  "CREATE TABLE interrupts ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  position INTEGER NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, position)"
  ");",
  /* 2: the text search looks at, extracted when a turn is written, so
   * that searching never asks SQLite to parse stored JSON (one damaged
   * or deeply nested row would fail every search); filled in C by
   * fill_search_text() */
  "CREATE TABLE search_text ("
  "  thread_id TEXT PRIMARY KEY NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  text TEXT NOT NULL"
  ");",
  /* 3: branches. A regenerated answer or an edited message is a second
   * child of a snapshot; the thread remembers which branch the person
   * chose (the snapshot it ends on), and each snapshot the run it ended
   * on, which a new branch names as its parentRunId. */
  "ALTER TABLE threads ADD COLUMN branch TEXT;"
  "ALTER TABLE snapshots ADD COLUMN run_id TEXT;",
  /* 4: the journal of the turns in flight, written as they stream and
   * taken into the log when the turn is saved, so that a crash keeps
   * the person's message and most of the answer; and the drafts the
   * person typed and did not send (a draft may belong to a conversation
   * that has no row yet, so no foreign key). */
  "CREATE TABLE journal ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  snapshot_id TEXT NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, seq)"
  ");"
  "CREATE TABLE drafts ("
  "  thread_id TEXT PRIMARY KEY NOT NULL,"
  "  text TEXT NOT NULL"
  ");",
  /* 5: each message stored once. A snapshot held every message of the
   * thread again, so a thread took the square of its length; now its
   * messages column holds {"keep": N, "add": [hash, ...]}: the first N
   * messages of its parent snapshot, then these, each found in the
   * messages table by the thread and a hash of its JSON. Existing
   * snapshots are rewritten by split_snapshot_messages(). The rows go
   * in the order they were first said (the rowid), which the search
   * reads them in; and the search reads them, so the copy of a
   * thread's text it kept goes. */
  "CREATE TABLE messages ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  hash INTEGER NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, hash)"
  ");"
  "DROP TABLE search_text;",
  /* 6: a smaller log. Each event row repeated its thread's id (a UUID)
   * twice, in the row and in the index SQLite kept beside it for the
   * primary key, and a run id nothing read (an event's run is in the
   * log itself): a third of a thread's room. Now a thread has a small
   * integer key, and the log is one table ordered by key and sequence
   * number (WITHOUT ROWID: the key is the table). The index of
   * snapshots by status goes too: a thread's snapshots are found by
   * its turn order, which a status only filters. */
  "ALTER TABLE threads ADD COLUMN key INTEGER;"
  "UPDATE threads SET key = rowid;"
  "CREATE UNIQUE INDEX threads_by_key ON threads (key);"
  "CREATE TABLE log ("
  "  thread_key INTEGER NOT NULL REFERENCES threads (key) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_key, seq)"
  ") WITHOUT ROWID;"
  "INSERT INTO log (thread_key, seq, json) "
  "  SELECT t.key, e.seq, e.json FROM events e JOIN threads t ON t.id = e.thread_id;"
  "DROP TABLE events;"
  "DROP INDEX snapshots_by_status;",
  /* 7: what the person set in the A2UI surfaces of a conversation, by
   * the activity message that drew each: {"/pointer": value, ...},
   * applied over the data model the agent sent, so that a dashboard
   * shows as it was left. See agui-session-store-values.c. */
  "CREATE TABLE surface_values ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  message_id TEXT NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, message_id)"
  ");",
  /* 8: pinned conversations, which the lists show first */
  "ALTER TABLE threads ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;",
  /* 9: messages filed under the thread's small key, as the log is, not
   * its id: each row and its entry in the primary key's index repeated
   * a UUID, a tenth of a thread of short answers. The rows keep their
   * rowids, the order they were first said in. From this version on a
   * long row of the log or of the messages is kept deflated, a BLOB
   * (see agui-session-store-deflate.c), which the versions before
   * cannot read: they refuse the store rather than skip those rows. */
  "ALTER TABLE messages RENAME TO messages_v8;"
  "CREATE TABLE messages ("
  "  thread_key INTEGER NOT NULL REFERENCES threads (key) ON DELETE CASCADE,"
  "  hash INTEGER NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_key, hash)"
  ");"
  "INSERT INTO messages (rowid, thread_key, hash, json) "
  "  SELECT m.rowid, t.key, m.hash, m.json FROM messages_v8 m JOIN threads t ON t.id = m.thread_id;"
  "DROP TABLE messages_v8;",
};

static const char * const status_names[] = {
  [AGUI_SNAPSHOT_COMPLETED] = "COMPLETED",
  [AGUI_SNAPSHOT_FAILED] = "FAILED",
  [AGUI_SNAPSHOT_ABORTED] = "ABORTED",
};

/* JSON helpers */

void
_agui_session_store_set_string_or_null (JsonObject *object,
                                        const char *name,
                                        const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

/* Schema */

static gboolean
read_user_version (AguiSessionStore  *self,
                   int               *version,
                   const char        *what,
                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, "PRAGMA user_version", what, error)))
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  *version = sqlite3_column_int (stmt, 0);
  return TRUE;
}

static gboolean
write_search_text (AguiSessionStore  *self,
                   const char        *thread_id,
                   const char        *text,
                   const char        *what,
                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = _agui_session_store_prepare (self,
                                            "INSERT INTO search_text (thread_id, text) VALUES (?1, ?2) "
                                            "ON CONFLICT (thread_id) DO UPDATE SET text = excluded.text",
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);

  return _agui_session_store_step_done (self, stmt, what, error);
}

/* Migration 2: the search text of each thread's latest snapshot. A
 * snapshot that does not parse is left out (that thread's messages are
 * not found) rather than failing the migration, and so the store. */
static gboolean
fill_search_text (AguiSessionStore  *self,
                  const char        *what,
                  GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT s.thread_id, s.messages FROM snapshots s "
                                            "WHERE s.turn_index = (SELECT MAX (turn_index) FROM snapshots WHERE thread_id = s.thread_id)",
                                            what, error)))
    return FALSE;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_auto(AguiJsonValue) messages = AGUI_JSON_VALUE_INIT;
      g_autofree char *text = NULL;

      if (!_agui_json_doc_parse ((const char *) sqlite3_column_text (stmt, 1),
                                 sqlite3_column_bytes (stmt, 1), &messages, NULL) ||
          messages.kind != AGUI_JSON_DOC_ARRAY)
        continue;

      text = _agui_session_store_search_text_for (&messages);
      if (!write_search_text (self, (const char *) sqlite3_column_text (stmt, 0), text, what, error))
        return FALSE;
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* Migration 5: each snapshot's messages move to the messages table, and
 * the snapshot keeps what changed since its parent. A snapshot that does
 * not parse is left as it is (it was skipped on reading before, and is
 * still). */
static gboolean
split_snapshot_messages (AguiSessionStore  *self,
                         const char        *what,
                         GError           **error)
{
  g_autoptr(sqlite3_stmt) select = NULL;
  g_autoptr(sqlite3_stmt) update = NULL;
  g_autoptr(sqlite3_stmt) insert = NULL;
  g_autoptr(GHashTable) lists = NULL;
  g_autofree char *thread_id = NULL;
  int rc;

  if (!(select = _agui_session_store_prepare (self, "SELECT id, parent_id, thread_id, messages FROM snapshots "
                                                    "ORDER BY thread_id, turn_index", what, error)) ||
      !(update = _agui_session_store_prepare (self, "UPDATE snapshots SET messages = ?2 WHERE id = ?1", what, error)) ||
      /* The table as schema 5 made it, filed under the thread's id */
      !(insert = _agui_session_store_prepare (self, "INSERT OR IGNORE INTO messages (thread_id, hash, json) "
                                                    "VALUES (?1, ?2, ?3)", what, error)))
    return FALSE;

  while ((rc = sqlite3_step (select)) == SQLITE_ROW)
    {
      const char *id = (const char *) sqlite3_column_text (select, 0);
      const char *parent = (const char *) sqlite3_column_text (select, 1);
      const char *thread = (const char *) sqlite3_column_text (select, 2);
      g_auto(AguiJsonValue) messages = AGUI_JSON_VALUE_INIT;
      g_autoptr(GArray) hashes = NULL;
      g_autofree char *delta = NULL;
      GArray *parent_hashes;
      guint keep;

      if (g_strcmp0 (thread, thread_id) != 0)
        {
          g_free (thread_id);
          thread_id = g_strdup (thread);
          g_clear_pointer (&lists, g_hash_table_unref);
          lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
        }

      if (!_agui_json_doc_parse ((const char *) sqlite3_column_text (select, 3),
                                 sqlite3_column_bytes (select, 3), &messages, NULL) ||
          messages.kind != AGUI_JSON_DOC_ARRAY)
        continue;

      hashes = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint i = 0; i < _agui_json_doc_get_length (&messages); i++)
        {
          g_autoptr(GString) json = g_string_new (NULL);
          gint64 hash;

          if (!_agui_json_value_append (json, _agui_json_doc_get_element (&messages, i), FALSE, 1, NULL))
            break;
          hash = _agui_session_store_message_hash (json->str, json->len);
          g_array_append_val (hashes, hash);
          if (!_agui_session_store_insert_message (self, insert, thread_id, hash, json->str, FALSE, what, error))
            return FALSE;
        }
      if (hashes->len != _agui_json_doc_get_length (&messages))
        continue;

      parent_hashes = parent != NULL ? g_hash_table_lookup (lists, parent) : NULL;
      keep = parent_hashes != NULL ? _agui_session_store_common_prefix (parent_hashes, hashes) : 0;
      delta = _agui_session_store_print_message_delta (keep, hashes, keep);

      sqlite3_bind_text (update, 1, id, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (update, 2, delta, -1, SQLITE_TRANSIENT);
      if (!_agui_session_store_step_done (self, update, what, error))
        return FALSE;

      g_hash_table_replace (lists, g_strdup (id), g_steal_pointer (&hashes));
    }

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* Nothing reads a table, nor changes the file, before its version and
 * schema are known to be Tandem's. Both are read in one transaction:
 * another process creating the store may commit its tables between the
 * two reads, and a version 0 beside them is no Tandem store. */
static gboolean
check_schema (AguiSessionStore  *self,
              int               *version,
              const char        *what,
              GError           **error)
{
  gboolean own_transaction = sqlite3_get_autocommit (self->db);

  if (own_transaction && !_agui_session_store_exec (self, "BEGIN", what, error))
    return FALSE;

  if (!read_user_version (self, version, what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  if (!_agui_store_guard_check_schema (self->db, migrations, G_N_ELEMENTS (migrations), *version,
                                       &self->last_code, error))
    {
      _agui_session_store_rollback (self);
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }

  return !own_transaction || _agui_session_store_commit (self, what, error);
}

/* @version: the one check_schema() read */
static gboolean
migrate (AguiSessionStore  *self,
         int                version,
         const char        *what,
         GError           **error)
{
  const int latest = G_N_ELEMENTS (migrations);
  g_autofree char *set_version = NULL;
  int checked;

  if (version == latest)
    return TRUE;

  /* Re-read under the write lock: another process may have migrated
   * the database meanwhile. */
  if (!_agui_session_store_exec (self, "BEGIN IMMEDIATE", what, error))
    return FALSE;

  checked = version;
  if (!read_user_version (self, &version, what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }
  if (version != checked && !check_schema (self, &version, what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  for (int i = version; i < latest; i++)
    {
      if (!_agui_session_store_exec (self, migrations[i], what, error) ||
          (i == 1 && !fill_search_text (self, what, error)) ||
          (i == 4 && !split_snapshot_messages (self, what, error)))
        {
          _agui_session_store_rollback (self);
          return FALSE;
        }
    }

  set_version = g_strdup_printf ("PRAGMA user_version = %d", latest);
  if (!_agui_session_store_exec (self, set_version, what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  return _agui_session_store_commit (self, what, error);
}

typedef enum
{
  OPEN_READ_WRITE,
  OPEN_READ_ONLY,
  OPEN_IMMUTABLE,
} OpenMode;

static gboolean
open_database (AguiSessionStore  *self,
               OpenMode           mode,
               const char        *what,
               GError           **error)
{
  gboolean read_only = mode != OPEN_READ_WRITE;
  g_autofree char *uri = NULL;
  int version;
  int rc;

  self->last_code = SQLITE_OK;
  if (mode == OPEN_IMMUTABLE)
    {
      g_autofree char *file_uri = g_filename_to_uri (self->path, NULL, NULL);

      uri = g_strconcat (file_uri, "?immutable=1", NULL);
      rc = sqlite3_open_v2 (uri, &self->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    }
  else
    {
      rc = sqlite3_open_v2 (self->path, &self->db,
                            read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            NULL);
    }
  if (rc != SQLITE_OK)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  sqlite3_extended_result_codes (self->db, TRUE);

  if (!_agui_store_guard_harden (&self->guard, self->db, error))
    {
      self->last_code = SQLITE_ERROR;
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }

  /* Two processes on one database wait for each other's write instead of
   * failing at once. */
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MS);

  if (!check_schema (self, &version, what, error))
    return FALSE;

  /* WAL lets readers go on while a turn is written. synchronous=FULL syncs
   * the log on every commit: NORMAL would survive a killed process too,
   * but a power cut could then roll back turns that were already
   * reported saved, and one sync per turn (a turn lasts seconds) is
   * cheap. The journal mode is stored in the file, so a read-only
   * connection leaves it be. */
  if ((!read_only && !_agui_session_store_exec (self, "PRAGMA journal_mode = WAL", what, error)) ||
      !_agui_session_store_exec (self, "PRAGMA synchronous = FULL", what, error) ||
      !_agui_session_store_exec (self, "PRAGMA foreign_keys = ON", what, error))
    return FALSE;

  rc = _agui_session_store_add_text_functions (self->db);
  if (rc != SQLITE_OK)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return migrate (self, version, what, error);
}

static gboolean
is_empty_file (const char *path)
{
  GStatBuf buf;

  return g_stat (path, &buf) == 0 && S_ISREG (buf.st_mode) && buf.st_size == 0;
}

/* An empty file with no write-ahead log beside it. Another process that
 * is creating the database makes the file empty first, and fills it (or
 * its log) within milliseconds: that is given half a second. */
static gboolean
is_lost_store (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);

  for (guint attempt = 0; attempt < 20; attempt++)
    {
      if (!is_empty_file (path) ||
          (g_file_test (wal, G_FILE_TEST_EXISTS) && !is_empty_file (wal)))
        return FALSE;
      g_usleep (25 * 1000);
    }

  return TRUE;
}

static gboolean
agui_session_store_initable_init (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  AguiSessionStore *self = AGUI_SESSION_STORE (initable);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *what = NULL;
  g_autofree char *directory = NULL;

  if (self->path == NULL)
    self->path = agui_session_store_dup_default_path ();

  what = g_strdup_printf ("Could not open the session store at %s", self->path);

  /* SQLite takes an empty file for a new database. A store that should
   * hold conversations and lost them (truncated by a failed copy or a
   * full disk) must not quietly start again empty: the person decides. */
  if (is_lost_store (self->path))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: the file is empty (0 bytes), so any conversations it held are gone; "
                   "restore it from a backup, or delete it to start a new store", what);
      return FALSE;
    }

  directory = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: cannot create the folder %s: %s",
                   what, directory, g_strerror (saved_errno));
      return FALSE;
    }

  /* Switching a new file to WAL and creating the schema need the write
   * lock; SQLite may answer BUSY there without waiting (it cannot wait
   * while it might deadlock), so a second process opening a brand-new
   * database at the same moment tries again a few times. */
  for (guint attempt = 0; ; attempt++)
    {
      if (open_database (self, OPEN_READ_WRITE, what, &local_error))
        return TRUE;

      if ((self->last_code & 0xff) != SQLITE_BUSY || attempt >= 10)
        break;

      g_clear_error (&local_error);
      g_clear_pointer (&self->db, sqlite3_close_v2);
      g_usleep ((attempt + 1) * 20 * 1000);
    }

  /* A read-only file or folder: open it for reading, so the threads can
   * still be shown; each write then fails saying why. In a read-only
   * folder SQLite cannot create the WAL index a reader needs, unless it
   * is told that nobody writes the file (immutable): true of a file no
   * one may write, and its log was merged into it when it was closed. */
  if ((self->last_code & 0xff) == SQLITE_READONLY || (self->last_code & 0xff) == SQLITE_CANTOPEN ||
      (self->last_code & 0xff) == SQLITE_FULL ||
      ((self->last_code & 0xff) == SQLITE_IOERR && self->db != NULL && sqlite3_system_errno (self->db) == ENOSPC))
    {
      const char *reason = strstr (local_error->message, ": ");

      self->folder_read_only = self->last_code == SQLITE_READONLY_DIRECTORY;
      /* A full disk still lets the threads be read; writes then say
       * why they cannot happen (a read-only file says so itself). */
      if ((self->last_code & 0xff) != SQLITE_READONLY && (self->last_code & 0xff) != SQLITE_CANTOPEN)
        self->read_only_reason = g_strdup (reason != NULL ? reason + 2 : local_error->message);

      g_clear_pointer (&self->db, sqlite3_close_v2);
      if (open_database (self, OPEN_READ_ONLY, what, NULL))
        return TRUE;

      g_clear_pointer (&self->db, sqlite3_close_v2);
      if (open_database (self, OPEN_IMMUTABLE, what, NULL))
        return TRUE;
    }

  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

static void
agui_session_store_initable_iface_init (GInitableIface *iface)
{
  iface->init = agui_session_store_initable_init;
}

static void
agui_session_store_finalize (GObject *object)
{
  AguiSessionStore *self = (AguiSessionStore *) object;

  /* Every job holds a reference, so the worker is idle; it may be the
   * worker itself that drops the last one, so it is not waited for. */
  g_thread_pool_free (self->worker, FALSE, FALSE);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->read_only_reason, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->last_hashes_id, g_free);
  g_clear_pointer (&self->last_hashes, g_array_unref);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (agui_session_store_parent_class)->finalize (object);
}

static void
agui_session_store_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AguiSessionStore *self = AGUI_SESSION_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_session_store_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AguiSessionStore *self = AGUI_SESSION_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_assert (self->path == NULL);
      self->path = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_session_store_class_init (AguiSessionStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_session_store_finalize;
  object_class->get_property = agui_session_store_get_property;
  object_class->set_property = agui_session_store_set_property;

  /**
   * AguiSessionStore:path:
   *
   * The database file; %NULL at construction means the default path
   * (see [func@Agui.SessionStore.dup_default_path]).
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AguiSessionStore::thread-changed:
   * @self: the store
   * @thread_id: the thread that changed
   * @info: (nullable): the thread as it is now, or %NULL when it was deleted
   *
   * A thread was created, renamed, deleted or given a turn, by this
   * store object (another process's writes are not seen). Emitted on
   * the thread that made the store, in the main context it had then:
   * during the call that made the change when that call was made there,
   * else (an asynchronous call, or a call from another thread) from
   * that context, before the call's callback runs.
   * [class@Agui.ThreadList] follows it.
   */
  signals[THREAD_CHANGED] =
    g_signal_new ("thread-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING,
                  AGUI_TYPE_THREAD_INFO);
}

static void
agui_session_store_init (AguiSessionStore *self)
{
  g_mutex_init (&self->mutex);
  _agui_store_guard_init (&self->guard, AGUI_STORE_GUARD_STATEMENT_LIMIT_US);
  self->worker = g_thread_pool_new (_agui_session_store_run_job, NULL, 1, FALSE, NULL);
  /* g_async_initable_new_async() makes the object here, on the caller's
   * thread, and only opens the database on another. */
  self->owner = g_thread_self ();
  self->context = g_main_context_ref_thread_default ();
}

/* API */

/**
 * agui_snapshot_status_to_string:
 * @status: a snapshot status
 *
 * Returns: the stored name of @status, such as `"COMPLETED"`
 */
const char *
agui_snapshot_status_to_string (AguiSnapshotStatus status)
{
  g_return_val_if_fail ((guint) status < G_N_ELEMENTS (status_names), NULL);

  return status_names[status];
}

/**
 * agui_snapshot_status_from_string:
 * @name: a stored name such as `"FAILED"`
 * @status: (out) (optional): where to store the status
 *
 * Returns: %TRUE if @name names a snapshot status
 */
gboolean
agui_snapshot_status_from_string (const char         *name,
                                  AguiSnapshotStatus *status)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    {
      if (g_str_equal (name, status_names[i]))
        {
          if (status != NULL)
            *status = (AguiSnapshotStatus) i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * agui_session_store_new:
 * @path: (nullable) (type filename): the database file, or %NULL for the
 *   default path
 * @error: return location for a #GError
 *
 * Opens the database at @path, creating it (and its folder) if needed,
 * and brings its schema up to date. A database written by a newer
 * version, one that is not a database, or one that cannot be opened is
 * an %AGUI_ERROR_STORE error.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
AguiSessionStore *
agui_session_store_new (const char  *path,
                        GError     **error)
{
  return g_initable_new (AGUI_TYPE_SESSION_STORE, NULL, error, "path", path, NULL);
}

/**
 * agui_session_store_dup_default_path:
 *
 * The database file used when none is given:
 * `$XDG_DATA_HOME/tandem/tandem.db` (see g_get_user_data_dir()), which
 * in a Flatpak sandbox is inside the application's own data folder. The
 * folder is created when the store is opened.
 *
 * Returns: (transfer full) (type filename): the default path
 */
char *
agui_session_store_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "tandem", "tandem.db", NULL);
}

/**
 * agui_session_store_get_path:
 * @self: a session store
 *
 * Returns: (type filename): the database file
 */
const char *
agui_session_store_get_path (AguiSessionStore *self)
{
  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);

  return self->path;
}

/* Whether any of a thread's open interrupts (their JSON texts, joined
 * by U+001E, which JSON never holds unescaped) still waits: one past its
 * expiresAt waits for nobody. One that cannot be read is taken as
 * waiting, as it was before expiry was looked at. */
static gboolean
interrupts_wait (const char *joined)
{
  g_auto(GStrv) texts = NULL;
  g_autoptr(GDateTime) now = NULL;

  if (joined == NULL)
    return FALSE;

  texts = g_strsplit (joined, "\x1e", -1);
  now = g_date_time_new_now_utc ();
  for (guint i = 0; texts[i] != NULL; i++)
    {
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
      g_autoptr(AguiInterrupt) interrupt = NULL;

      if (!_agui_json_doc_parse (texts[i], -1, &value, NULL) || value.kind != AGUI_JSON_DOC_OBJECT)
        return TRUE;
      interrupt = _agui_interrupt_new_from_value (&value);
      if (interrupt == NULL || !agui_interrupt_has_expired (interrupt, now))
        return TRUE;
    }

  return FALSE;
}

AguiThreadInfo *
_agui_session_store_thread_info_from_row (sqlite3_stmt *stmt)
{
  return _agui_thread_info_new ((const char *) sqlite3_column_text (stmt, 0),
                                (const char *) sqlite3_column_text (stmt, 1),
                                (const char *) sqlite3_column_text (stmt, 2),
                                sqlite3_column_int64 (stmt, 3),
                                sqlite3_column_int64 (stmt, 4),
                                interrupts_wait ((const char *) sqlite3_column_text (stmt, 5))
                                  ? AGUI_THREAD_WAITING_FOR_ANSWER : AGUI_THREAD_IDLE,
                                sqlite3_column_int (stmt, 6) != 0);
}

/* NULL without an error when there is no such thread */
static AguiThreadInfo *
read_thread_info_locked (AguiSessionStore  *self,
                         const char        *thread_id,
                         GError           **error)
{
  const char *what = "Could not read the thread";
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = _agui_session_store_prepare (self, THREAD_INFO_SQL "WHERE t.id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return _agui_session_store_thread_info_from_row (stmt);
  if (rc != SQLITE_DONE)
    _agui_session_store_set_sqlite_error (self, rc, what, error);

  return NULL;
}

typedef struct
{
  AguiSessionStore *store;
  char             *thread_id;
  AguiThreadInfo   *info;
} Change;

static void
change_free (gpointer data)
{
  Change *change = data;

  g_object_unref (change->store);
  g_free (change->thread_id);
  g_clear_object (&change->info);
  g_free (change);
}

static gboolean
dispatch_change (gpointer data)
{
  Change *change = data;

  g_signal_emit (change->store, signals[THREAD_CHANGED], 0, change->thread_id, change->info);

  return G_SOURCE_REMOVE;
}

/* Called after a change was committed, with the mutex released: the
 * thread's row is read again here, on the thread that wrote it, so a
 * list that follows the store never has to ask. */
void
_agui_session_store_announce_change (AguiSessionStore *self,
                                     const char       *thread_id)
{
  g_autoptr(AguiThreadInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSource) source = NULL;
  Change *change;

  g_mutex_lock (&self->mutex);
  info = read_thread_info_locked (self, thread_id, &error);
  g_mutex_unlock (&self->mutex);

  if (error != NULL)
    {
      /* The change itself was written; only its announcement is lost. */
      g_warning ("The thread '%s' changed but cannot be read again: %s", thread_id, error->message);
      return;
    }

  if (g_thread_self () == self->owner)
    {
      g_signal_emit (self, signals[THREAD_CHANGED], 0, thread_id, info);
      return;
    }

  change = g_new0 (Change, 1);
  change->store = g_object_ref (self);
  change->thread_id = g_strdup (thread_id);
  change->info = g_steal_pointer (&info);

  /* At the default priority, as GTask returns are: attached now, it is
   * dispatched before the result of the job that made the change. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_static_name (source, "[agui] thread changed");
  g_source_set_callback (source, dispatch_change, change, change_free);
  g_source_attach (source, self->context);
}

/* The worker
 *
 * Each asynchronous call is a job the worker runs with the blocking call
 * of the same name; its result comes back on the caller's main context.
 * What a job is given is its own: strings, rows made on the caller's
 * thread, or a deep copy of the caller's JSON. */

typedef struct
{
  AguiStoreJobFunc  func;
  gpointer          data;
  GDestroyNotify    destroy;
  /* Rows are plain data: the worker lets them go once the job ran,
   * rather than the task on the caller's thread */
  gboolean          release_on_worker;
} Job;

static void
job_free (Job *job)
{
  if (job->destroy != NULL && job->data != NULL)
    job->destroy (job->data);
  g_free (job);
}

void
_agui_session_store_run_job (gpointer data,
                             gpointer user_data)
{
  g_autoptr(GTask) task = data;
  Job *job = g_task_get_task_data (task);

  if (!g_task_return_error_if_cancelled (task))
    job->func (g_task_get_source_object (task), task, job->data);

  if (job->release_on_worker && job->destroy != NULL)
    g_clear_pointer (&job->data, job->destroy);
}

void
_agui_session_store_start_job_full (AguiSessionStore    *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data,
                                    gpointer             source_tag,
                                    AguiStoreJobFunc     func,
                                    gpointer             data,
                                    GDestroyNotify       destroy,
                                    gboolean             release_on_worker)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->func = func;
  job->data = data;
  job->destroy = destroy;
  job->release_on_worker = release_on_worker;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_thread_pool_push (self->worker, task, NULL);
}

void
_agui_session_store_start_job (AguiSessionStore    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data,
                               gpointer             source_tag,
                               AguiStoreJobFunc     func,
                               gpointer             data,
                               GDestroyNotify       destroy)
{
  _agui_session_store_start_job_full (self, cancellable, callback, user_data, source_tag,
                                      func, data, destroy, FALSE);
}

/* A read or a write of one thread, with the one string a write takes */
typedef struct
{
  char                 *thread_id;
  char                 *text;
  AguiStoreThreadRead   read;
  AguiStoreThreadWrite  write;
  GDestroyNotify        free_result;
} ThreadJob;

static void
thread_job_free (ThreadJob *job)
{
  g_free (job->thread_id);
  g_free (job->text);
  g_free (job);
}

static void
thread_job (AguiSessionStore *self,
            GTask            *task,
            gpointer          data)
{
  ThreadJob *job = data;
  GError *error = NULL;

  /* The call first: the error is read once it has run */
  if (job->write != NULL)
    {
      gboolean done = job->write (self, job->thread_id, job->text, &error);

      _agui_session_store_return_boolean (task, done, error);
    }
  else
    {
      gpointer result = job->read (self, job->thread_id, &error);

      _agui_session_store_return_pointer (task, result, job->free_result, error);
    }
}

static void
start_thread_job (AguiSessionStore    *self,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data,
                  gpointer             source_tag,
                  ThreadJob           *job)
{
  _agui_session_store_start_job (self, cancellable, callback, user_data, source_tag,
                                 thread_job, job, (GDestroyNotify) thread_job_free);
}

/* Runs @read on the worker; the call's _finish propagates the pointer */
void
_agui_session_store_start_read_thread (AguiSessionStore    *self,
                                       const char          *thread_id,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data,
                                       gpointer             source_tag,
                                       AguiStoreThreadRead  read,
                                       GDestroyNotify       free_result)
{
  ThreadJob *job = g_new0 (ThreadJob, 1);

  job->thread_id = g_strdup (thread_id);
  job->read = read;
  job->free_result = free_result;
  start_thread_job (self, cancellable, callback, user_data, source_tag, job);
}

void
_agui_session_store_start_write_thread (AguiSessionStore     *self,
                                        const char           *thread_id,
                                        const char           *text,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data,
                                        gpointer              source_tag,
                                        AguiStoreThreadWrite  write)
{
  ThreadJob *job = g_new0 (ThreadJob, 1);

  job->thread_id = g_strdup (thread_id);
  job->text = g_strdup (text);
  job->write = write;
  start_thread_job (self, cancellable, callback, user_data, source_tag, job);
}

void
_agui_session_store_return_pointer (GTask          *task,
                                    gpointer        result,
                                    GDestroyNotify  free_result,
                                    GError         *error)
{
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, free_result);
}

void
_agui_session_store_return_boolean (GTask    *task,
                                    gboolean  done,
                                    GError   *error)
{
  if (done)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

gpointer
_agui_session_store_finish_pointer (AguiSessionStore  *self,
                                    GAsyncResult      *result,
                                    gpointer           source_tag,
                                    GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, source_tag), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
_agui_session_store_finish_boolean (AguiSessionStore  *self,
                                    GAsyncResult      *result,
                                    gpointer           source_tag,
                                    GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, source_tag), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
_agui_session_store_job_is_valid (AguiSessionStore *self,
                                  GAsyncResult     *result,
                                  gpointer          source_tag)
{
  return g_task_is_valid (result, self) && g_task_get_source_tag (G_TASK (result)) == source_tag;
}

void
_agui_session_store_read_thread_async (AguiSessionStore     *self,
                                       const char           *thread_id,
                                       AguiStoreThreadRead   read,
                                       GDestroyNotify        free_result,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (read != NULL);

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data,
                                         _agui_session_store_read_thread_async, read, free_result);
}

gpointer
_agui_session_store_read_thread_finish (AguiSessionStore  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, _agui_session_store_read_thread_async, error);
}

/**
 * agui_session_store_new_async:
 * @path: (nullable) (type filename): the database file, or %NULL for the
 *   default path
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the store is open
 * @user_data: data for @callback
 *
 * Opens the store as [ctor@Agui.SessionStore.new] does, on a worker
 * thread: waiting for another process that holds the database, creating
 * or migrating it never blocks the caller's main loop.
 */
void
agui_session_store_new_async (const char          *path,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  g_async_initable_new_async (AGUI_TYPE_SESSION_STORE, G_PRIORITY_DEFAULT, cancellable,
                              callback, user_data, "path", path, NULL);
}

/**
 * agui_session_store_new_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
AguiSessionStore *
agui_session_store_new_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_autoptr(GObject) source = g_async_result_get_source_object (result);
  GObject *object = g_async_initable_new_finish (G_ASYNC_INITABLE (source), result, error);

  return object != NULL ? AGUI_SESSION_STORE (object) : NULL;
}

gint64
_agui_session_store_set_max_page_count (AguiSessionStore *self,
                                        gint64            max_pages)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *sql = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), -1);

  locker = g_mutex_locker_new (&self->mutex);
  sql = g_strdup_printf ("PRAGMA max_page_count = %" G_GINT64_FORMAT, max_pages);
  if (!(stmt = _agui_session_store_prepare (self, sql, "Could not cap the database", NULL)) ||
      sqlite3_step (stmt) != SQLITE_ROW)
    return -1;

  return sqlite3_column_int64 (stmt, 0);
}
