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
#include <sqlite3.h>

#include "agui-event-compactor-private.h"
#include "agui-event-private.h"
#include "agui-interrupt-private.h"
#include "agui-json-private.h"
#include "agui-json-patch-private.h"
#include "agui-chunk-normalizer-private.h"
#include "agui-event-parser-private.h"
#include "agui-reducer-private.h"
#include "agui-session-store-private.h"
#include "agui-store-guard-private.h"
#include "agui-thread-info-private.h"
#include "agui-transcript-private.h"
#include "agui-transcript.h"

/**
 * AguiSessionStore:
 *
 * Keeps threads on disk in one SQLite database: each thread's event log,
 * one snapshot per turn and the interrupts the thread waits on.
 *
 * A session given the store ([property@Agui.AgentSession:store]) writes
 * each turn in one transaction. While a turn is in flight, the person's
 * message (before the request leaves) and then the answer's events (a
 * batch at most every tenth of a second) go to a journal, which the
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
 * if (!agui_session_store_save_turn (store, &turn, &error))
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

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
  /* 6: pinned conversations, which the lists show first */
  "ALTER TABLE threads ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;",
};

static const char * const status_names[] = {
  [AGUI_SNAPSHOT_COMPLETED] = "COMPLETED",
  [AGUI_SNAPSHOT_FAILED] = "FAILED",
  [AGUI_SNAPSHOT_ABORTED] = "ABORTED",
};

/* Errors */

static char *
describe_failure (sqlite3  *db,
                  int       code,
                  gboolean  folder_read_only)
{
  int system_errno = db != NULL ? sqlite3_system_errno (db) : 0;

  switch (code & 0xff)
    {
    case SQLITE_FULL:
      return g_strdup ("the disk is full");

    case SQLITE_READONLY:
      if (folder_read_only || code == SQLITE_READONLY_DIRECTORY)
        return g_strdup ("the database's folder is read-only");
      return g_strdup ("the database is read-only");

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return g_strdup ("another process kept the database locked for too long");

    case SQLITE_CORRUPT:
      return g_strdup ("the database file is damaged");

    case SQLITE_NOTADB:
      return g_strdup ("the file is not a database");

    case SQLITE_NOMEM:
      return g_strdup ("out of memory");

    case SQLITE_INTERRUPT:
      return g_strdup ("a statement ran far too long and was stopped: the file may be damaged");

    case SQLITE_PERM:
    case SQLITE_AUTH:
      return g_strdup ("permission denied");

    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
      if (system_errno == ENOSPC)
        return g_strdup ("the disk is full");
      if (system_errno == EROFS || system_errno == EACCES || system_errno == EPERM)
        return g_strdup_printf ("the database or its folder is read-only (%s)",
                                g_strerror (system_errno));
      return g_strdup_printf ("%s (%s)",
                              (code & 0xff) == SQLITE_CANTOPEN
                                ? "the database file cannot be opened"
                                : "reading or writing the database failed",
                              system_errno != 0 ? g_strerror (system_errno) : sqlite3_errmsg (db));

    default:
      return g_strdup (db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (code));
    }
}

/* Call at once after the failing call: a ROLLBACK would replace the
 * connection's error message. */
static void
set_sqlite_error (AguiSessionStore  *self,
                  int                code,
                  const char        *what,
                  GError           **error)
{
  g_autofree char *reason = describe_failure (self->db, code, self->folder_read_only);

  self->last_code = code;
  if ((code & 0xff) == SQLITE_READONLY && self->read_only_reason != NULL)
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: the store is open for reading only: %s",
                 what, self->read_only_reason);
  else
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: %s", what, reason);
}

static gboolean
exec_sql (AguiSessionStore  *self,
          const char        *sql,
          const char        *what,
          GError           **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

static sqlite3_stmt *
prepare (AguiSessionStore  *self,
         const char        *sql,
         const char        *what,
         GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      set_sqlite_error (self, rc, what, error);
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

/* Runs a statement that returns no rows. */
static gboolean
step_done (AguiSessionStore  *self,
           sqlite3_stmt      *stmt,
           const char        *what,
           GError           **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
      sqlite3_reset (stmt);
      return FALSE;
    }

  sqlite3_reset (stmt);
  return TRUE;
}

static void
rollback (AguiSessionStore *self)
{
  /* SQLite may already have rolled back by itself (after SQLITE_FULL,
   * SQLITE_IOERR...); a second ROLLBACK would only fail. */
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

static gboolean
commit (AguiSessionStore  *self,
        const char        *what,
        GError           **error)
{
  if (!exec_sql (self, "COMMIT", what, error))
    {
      rollback (self);
      return FALSE;
    }

  return TRUE;
}

/* JSON helpers */

static JsonNode *
column_json (sqlite3_stmt  *stmt,
             int            column,
             const char    *what,
             const char    *name,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *node;

  node = _agui_json_parse ((const char *) sqlite3_column_text (stmt, column),
                           sqlite3_column_bytes (stmt, column), &local_error);
  if (node == NULL)
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                 "%s: the stored %s are not valid JSON (%s)", what, name, local_error->message);

  return node;
}

/* Unlike json_object_get_string_member_with_default(), no critical when
 * the member is not a string: stored and imported JSON is not trusted. */
static const char *
object_string (JsonObject *object,
               const char *name)
{
  JsonNode *member = json_object_get_member (object, name);

  if (member == NULL || json_node_get_value_type (member) != G_TYPE_STRING)
    return "";

  return json_node_get_string (member);
}

static void
set_string_or_null (JsonObject *object,
                    const char *name,
                    const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

/* Search */

static char *
fold_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *normalized = g_utf8_normalize (valid, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normalized, -1);
}

/* agui_message_text (json): the text of a stored message that a search
 * looks at (see _agui_turn_rows_search_text_for()), or NULL if it does
 * not parse: one damaged row never fails a search. */
static void
message_text_func (sqlite3_context  *context,
                   int               argc,
                   sqlite3_value   **argv)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonArray) array = NULL;
  char *text;

  g_assert (argc == 1);

  if (sqlite3_value_type (argv[0]) != SQLITE_TEXT ||
      !(node = _agui_json_parse ((const char *) sqlite3_value_text (argv[0]), sqlite3_value_bytes (argv[0]), NULL)))
    {
      sqlite3_result_null (context);
      return;
    }

  array = json_array_new ();
  json_array_add_element (array, g_steal_pointer (&node));
  text = _agui_turn_rows_search_text_for (array);
  sqlite3_result_text (context, text, -1, g_free);
}

/* What a search may look for in a message's JSON before it reads the
 * message: the text itself, unless printing it as JSON would escape it;
 * else "", which every message has. */
static const char *
raw_needle (const char *search)
{
  for (const char *p = search; p != NULL && *p != '\0'; p++)
    if (*p == '"' || *p == '\\' || (guchar) *p < 0x20 || *p == 0x7f)
      return "";

  return search;
}

/* agui_text_matches (haystack, needle): case-insensitive substring match
 * for any script, which LIKE only does for ASCII. The folded needle is
 * kept as auxiliary data, so it is folded once per statement. */
static void
text_matches_func (sqlite3_context  *context,
                   int               argc,
                   sqlite3_value   **argv)
{
  const char *haystack = (const char *) sqlite3_value_text (argv[0]);
  const char *needle = (const char *) sqlite3_value_text (argv[1]);
  g_autofree char *owned_needle = NULL;
  g_autofree char *folded = NULL;
  const char *folded_needle;

  g_assert (argc == 2);

  if (haystack == NULL || needle == NULL)
    {
      sqlite3_result_int (context, 0);
      return;
    }

  folded_needle = sqlite3_get_auxdata (context, 1);
  if (folded_needle == NULL)
    {
      folded_needle = owned_needle = fold_text (needle);
      sqlite3_set_auxdata (context, 1, g_strdup (owned_needle), g_free);
    }

  folded = fold_text (haystack);
  sqlite3_result_int (context, strstr (folded, folded_needle) != NULL);
}

GPtrArray *
_agui_session_store_compact_events (GPtrArray *events)
{
  g_autoptr(AguiEventCompactor) compactor = _agui_event_compactor_new ();
  GPtrArray *compacted;
  guint n;

  g_return_val_if_fail (events != NULL, NULL);

  for (guint i = 0; i < events->len; i++)
    _agui_event_compactor_add (compactor, g_ptr_array_index (events, i));

  n = _agui_event_compactor_get_n_events (compactor);
  compacted = g_ptr_array_new_full (n, (GDestroyNotify) agui_event_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (compacted, _agui_event_compactor_dup_event (compactor, i));

  return compacted;
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

  if (!(stmt = prepare (self, "PRAGMA user_version", what, error)))
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  *version = sqlite3_column_int (stmt, 0);
  return TRUE;
}

static gboolean write_search_text (AguiSessionStore  *self,
                                   const char        *thread_id,
                                   const char        *text,
                                   const char        *what,
                                   GError           **error);

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

  if (!(stmt = prepare (self,
                        "SELECT s.thread_id, s.messages FROM snapshots s "
                        "WHERE s.turn_index = (SELECT MAX (turn_index) FROM snapshots WHERE thread_id = s.thread_id)",
                        what, error)))
    return FALSE;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(JsonNode) messages = NULL;
      g_autofree char *text = NULL;

      messages = _agui_json_parse ((const char *) sqlite3_column_text (stmt, 1),
                                   sqlite3_column_bytes (stmt, 1), NULL);
      if (messages == NULL || !JSON_NODE_HOLDS_ARRAY (messages))
        continue;

      text = _agui_turn_rows_search_text_for (json_node_get_array (messages));
      if (!write_search_text (self, (const char *) sqlite3_column_text (stmt, 0), text, what, error))
        return FALSE;
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* Messages, each stored once */

/* The key of a message in the messages table: 63 bits of the SHA-1 of
 * its JSON, which no two messages of one thread share in practice */
static gint64
message_hash (const char *json,
              gssize      length)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA1);
  guint8 digest[20];
  gsize digest_length = sizeof digest;
  guint64 value = 0;

  g_checksum_update (checksum, (const guchar *) json, length);
  g_checksum_get_digest (checksum, digest, &digest_length);
  for (guint i = 0; i < 8; i++)
    value = (value << 8) | digest[i];

  return (gint64) (value >> 1);
}

/* What a snapshot's messages column holds: the first @keep messages of
 * its parent's, then @hashes from @first on */
static char *
print_message_delta (guint         keep,
                     const GArray *hashes,
                     guint         first)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "{\"keep\":%u,\"add\":[", keep);
  for (guint i = first; i < hashes->len; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i > first ? "," : "", g_array_index (hashes, gint64, i));
  g_string_append (out, "]}");

  return g_string_free (out, FALSE);
}

static guint
common_prefix (const GArray *a,
               const GArray *b)
{
  guint n = 0;

  while (n < a->len && n < b->len && g_array_index (a, gint64, n) == g_array_index (b, gint64, n))
    n++;

  return n;
}

static gboolean
insert_message (AguiSessionStore  *self,
                sqlite3_stmt      *insert,
                const char        *thread_id,
                gint64             hash,
                const char        *json,
                const char        *what,
                GError           **error)
{
  sqlite3_bind_text (insert, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 2, hash);
  sqlite3_bind_text (insert, 3, json, -1, SQLITE_STATIC);

  return step_done (self, insert, what, error);
}

#define SNAPSHOTS_PER_CHECKPOINT 1024

#define INSERT_MESSAGE_SQL "INSERT OR IGNORE INTO messages (thread_id, hash, json) VALUES (?1, ?2, ?3)"

/* Reads the messages of one thread's snapshots, remembering what it
 * read: the hashes of each snapshot met, and each message parsed, so
 * that the snapshots of a thread with branches cost their own changes */
typedef struct
{
  AguiSessionStore *store;
  char             *thread_id;
  sqlite3_stmt     *snapshot;
  /* snapshot id → GArray of gint64 */
  GHashTable       *lists;
  /* gint64 hash → JsonNode */
  GHashTable       *nodes;
  /* gint64 hash → the JSON of each of the thread's messages, once read */
  GHashTable       *json;
  /* Only the messages whose JSON holds this, if set */
  const char       *filter;
} MessageReader;

static void
message_reader_free (MessageReader *reader)
{
  g_free (reader->thread_id);
  g_clear_pointer (&reader->snapshot, sqlite3_finalize);
  g_clear_pointer (&reader->lists, g_hash_table_unref);
  g_clear_pointer (&reader->nodes, g_hash_table_unref);
  g_clear_pointer (&reader->json, g_hash_table_unref);
  g_free (reader);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MessageReader, message_reader_free)

static MessageReader *
message_reader_new (AguiSessionStore  *self,
                    const char        *thread_id,
                    const char        *what,
                    GError           **error)
{
  g_autoptr(MessageReader) reader = g_new0 (MessageReader, 1);

  reader->store = self;
  reader->thread_id = g_strdup (thread_id);
  reader->lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  reader->nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) json_node_unref);

  if (!(reader->snapshot = prepare (self, "SELECT parent_id, messages FROM snapshots WHERE id = ?1", what, error)))
    return NULL;

  if (self->last_hashes_id != NULL)
    g_hash_table_insert (reader->lists, g_strdup (self->last_hashes_id), g_array_ref (self->last_hashes));

  return g_steal_pointer (&reader);
}

/* A snapshot written before schema 5 (or by hand) holds its messages:
 * they are taken as they are, and known by the hashes of their JSON */
static GArray *
hashes_of_array (MessageReader *reader,
                 JsonArray     *messages)
{
  GArray *hashes = g_array_sized_new (FALSE, FALSE, sizeof (gint64), json_array_get_length (messages));

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *message = json_array_get_element (messages, i);
      g_autofree char *json = json_to_string (message, FALSE);
      gint64 hash = message_hash (json, -1);

      g_array_append_val (hashes, hash);
      g_hash_table_replace (reader->nodes, g_memdup2 (&hash, sizeof hash), json_node_copy (message));
    }

  return hashes;
}

/* Reads what print_message_delta() printed, {"keep":N,"add":[h,...]},
 * without a JSON parser: a thread's chain is read back a row a turn */
static gboolean
parse_message_delta (const char *text,
                     guint      *keep,
                     GArray     *add)
{
  const char *p = text;
  char *end;
  guint64 value;

  if (text == NULL || !g_str_has_prefix (p, "{\"keep\":"))
    return FALSE;
  p += strlen ("{\"keep\":");
  value = g_ascii_strtoull (p, &end, 10);
  if (end == p || value > G_MAXUINT || !g_str_has_prefix (end, ",\"add\":["))
    return FALSE;
  *keep = (guint) value;
  p = end + strlen (",\"add\":[");

  while (*p != ']')
    {
      gint64 hash = g_ascii_strtoll (p, &end, 10);

      if (end == p)
        return FALSE;
      g_array_append_val (add, hash);
      p = end;
      if (*p == ',')
        p++;
      else if (*p != ']')
        return FALSE;
    }

  return g_str_equal (p, "]}");
}

typedef struct
{
  char   *id;
  guint   keep;
  GArray *add;
  /* A snapshot that holds its messages (written before schema 5) */
  GArray *whole;
} Delta;

static void
delta_free (Delta *delta)
{
  g_free (delta->id);
  g_clear_pointer (&delta->add, g_array_unref);
  g_clear_pointer (&delta->whole, g_array_unref);
  g_free (delta);
}

/* The hashes of @snapshot_id's messages, in order (borrowed from the
 * reader), or NULL with @error. A missing parent is a thread's start. */
static GArray *
message_reader_hashes (MessageReader  *reader,
                       const char     *snapshot_id,
                       const char     *what,
                       GError        **error)
{
  g_autoptr(GPtrArray) chain = g_ptr_array_new_with_free_func ((GDestroyNotify) delta_free);
  g_autoptr(GArray) list = NULL;
  g_autofree char *current = g_strdup (snapshot_id);
  const char *key = snapshot_id != NULL ? snapshot_id : "";
  GArray *found = NULL;

  /* Back to a snapshot already known, or the first */
  while (current != NULL && !(found = g_hash_table_lookup (reader->lists, current)))
    {
      const char *text;
      char *parent = NULL;
      Delta *delta;
      int rc;

      sqlite3_bind_text (reader->snapshot, 1, current, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (reader->snapshot);
      if (rc == SQLITE_DONE)
        {
          sqlite3_reset (reader->snapshot);
          break;
        }
      if (rc != SQLITE_ROW)
        {
          set_sqlite_error (reader->store, rc, what, error);
          sqlite3_reset (reader->snapshot);
          return NULL;
        }

      if (sqlite3_column_type (reader->snapshot, 0) != SQLITE_NULL)
        parent = g_strdup ((const char *) sqlite3_column_text (reader->snapshot, 0));
      text = (const char *) sqlite3_column_text (reader->snapshot, 1);

      delta = g_new0 (Delta, 1);
      delta->id = g_steal_pointer (&current);
      delta->add = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_ptr_array_add (chain, delta);

      if (!parse_message_delta (text, &delta->keep, delta->add))
        {
          g_autoptr(JsonNode) messages = _agui_json_parse (text, sqlite3_column_bytes (reader->snapshot, 1), NULL);

          if (messages == NULL || !JSON_NODE_HOLDS_ARRAY (messages))
            {
              sqlite3_reset (reader->snapshot);
              g_free (parent);
              g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                           "%s: the stored messages of a snapshot are damaged", what);
              return NULL;
            }
          delta->whole = hashes_of_array (reader, json_node_get_array (messages));
          sqlite3_reset (reader->snapshot);
          g_free (parent);
          break;
        }
      sqlite3_reset (reader->snapshot);
      current = parent;
    }

  list = found != NULL ? g_array_copy (found) : g_array_new (FALSE, FALSE, sizeof (gint64));

  /* Then forward, each snapshot's changes on its parent's list */
  for (guint i = chain->len; i > 0; i--)
    {
      Delta *delta = g_ptr_array_index (chain, i - 1);

      if (delta->whole != NULL)
        {
          g_array_set_size (list, 0);
          g_array_append_vals (list, delta->whole->data, delta->whole->len);
          continue;
        }

      if (delta->keep > list->len)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "%s: the stored messages of a snapshot are damaged", what);
          return NULL;
        }
      g_array_set_size (list, delta->keep);
      g_array_append_vals (list, delta->add->data, delta->add->len);
    }

  /* Only the list asked for is kept: the ones on the way there were
   * the same array, changed as it went (a thread's snapshots are read
   * in order, so each one's parent was asked for before it) */
  if (chain->len > 0)
    g_hash_table_replace (reader->lists, g_strdup (((Delta *) g_ptr_array_index (chain, 0))->id), g_array_ref (list));
  else if (found != NULL)
    return found;
  else
    /* No snapshot (or no such one): nothing before it */
    g_hash_table_replace (reader->lists, g_strdup (key), g_array_ref (list));

  return g_hash_table_lookup (reader->lists, key);
}

/* Reads the JSON of every message of the thread in one pass: cheaper,
 * past a few, than looking each one up */
static gboolean
message_reader_load_all (MessageReader  *reader,
                         const char     *what,
                         GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (reader->json != NULL)
    return TRUE;

  if (!(stmt = prepare (reader->store, "SELECT hash, json FROM messages WHERE thread_id = ?1", what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, reader->thread_id, -1, SQLITE_STATIC);
  reader->json = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 hash = sqlite3_column_int64 (stmt, 0);

      g_hash_table_replace (reader->json, g_memdup2 (&hash, sizeof hash),
                            g_strndup ((const char *) sqlite3_column_text (stmt, 1), sqlite3_column_bytes (stmt, 1)));
    }

  if (rc != SQLITE_DONE)
    {
      g_clear_pointer (&reader->json, g_hash_table_unref);
      set_sqlite_error (reader->store, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* The messages @hashes name, as a new array */
static JsonArray *
message_reader_messages (MessageReader  *reader,
                         const GArray   *hashes,
                         const char     *what,
                         GError        **error)
{
  g_autoptr(JsonArray) messages = json_array_sized_new (hashes->len);
  g_autoptr(GString) missing = g_string_new ("[");
  g_autoptr(GArray) missing_hashes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) local_error = NULL;

  /* The messages not read yet are parsed together, as one array */
  for (guint i = 0; i < hashes->len; i++)
    {
      gint64 hash = g_array_index (hashes, gint64, i);
      const char *json;

      if (g_hash_table_contains (reader->nodes, &hash))
        continue;
      if (!message_reader_load_all (reader, what, error))
        return NULL;
      if (!(json = g_hash_table_lookup (reader->json, &hash)))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: a stored message is missing", what);
          return NULL;
        }
      if (reader->filter != NULL && strstr (json, reader->filter) == NULL)
        continue;
      if (missing_hashes->len > 0)
        g_string_append_c (missing, ',');
      g_string_append (missing, json);
      g_array_append_val (missing_hashes, hash);
      /* Once, though a list may name a message twice */
      g_hash_table_insert (reader->nodes, g_memdup2 (&hash, sizeof hash), json_node_new (JSON_NODE_NULL));
    }
  g_string_append_c (missing, ']');

  if (missing_hashes->len > 0)
    {
      JsonArray *array;

      parsed = _agui_json_parse (missing->str, missing->len, &local_error);
      if (parsed == NULL || !JSON_NODE_HOLDS_ARRAY (parsed) ||
          json_array_get_length (json_node_get_array (parsed)) != missing_hashes->len)
        {
          for (guint i = 0; i < missing_hashes->len; i++)
            g_hash_table_remove (reader->nodes, &g_array_index (missing_hashes, gint64, i));
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: a stored message is not valid JSON", what);
          return NULL;
        }

      array = json_node_get_array (parsed);
      for (guint i = 0; i < missing_hashes->len; i++)
        g_hash_table_replace (reader->nodes, g_memdup2 (&g_array_index (missing_hashes, gint64, i), sizeof (gint64)),
                              json_node_copy (json_array_get_element (array, i)));
    }

  for (guint i = 0; i < hashes->len; i++)
    {
      JsonNode *node = g_hash_table_lookup (reader->nodes, &g_array_index (hashes, gint64, i));

      /* A node has one parent: each array takes a copy, which shares
       * the message's object */
      if (node != NULL)
        json_array_add_element (messages, json_node_copy (node));
    }

  return g_steal_pointer (&messages);
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

  if (!(select = prepare (self, "SELECT id, parent_id, thread_id, messages FROM snapshots "
                                "ORDER BY thread_id, turn_index", what, error)) ||
      !(update = prepare (self, "UPDATE snapshots SET messages = ?2 WHERE id = ?1", what, error)) ||
      !(insert = prepare (self, INSERT_MESSAGE_SQL, what, error)))
    return FALSE;

  while ((rc = sqlite3_step (select)) == SQLITE_ROW)
    {
      const char *id = (const char *) sqlite3_column_text (select, 0);
      const char *parent = (const char *) sqlite3_column_text (select, 1);
      const char *thread = (const char *) sqlite3_column_text (select, 2);
      g_autoptr(JsonNode) messages = NULL;
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

      messages = _agui_json_parse ((const char *) sqlite3_column_text (select, 3),
                                   sqlite3_column_bytes (select, 3), NULL);
      if (messages == NULL || !JSON_NODE_HOLDS_ARRAY (messages))
        continue;

      hashes = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint i = 0; i < json_array_get_length (json_node_get_array (messages)); i++)
        {
          g_autoptr(GString) json = g_string_new (NULL);
          gint64 hash;

          if (!_agui_json_append (json, json_array_get_element (json_node_get_array (messages), i), 1, NULL))
            break;
          hash = message_hash (json->str, json->len);
          g_array_append_val (hashes, hash);
          if (!insert_message (self, insert, thread_id, hash, json->str, what, error))
            return FALSE;
        }
      if (hashes->len != json_array_get_length (json_node_get_array (messages)))
        continue;

      parent_hashes = parent != NULL ? g_hash_table_lookup (lists, parent) : NULL;
      keep = parent_hashes != NULL ? common_prefix (parent_hashes, hashes) : 0;
      delta = print_message_delta (keep, hashes, keep);

      sqlite3_bind_text (update, 1, id, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (update, 2, delta, -1, SQLITE_TRANSIENT);
      if (!step_done (self, update, what, error))
        return FALSE;

      g_hash_table_replace (lists, g_strdup (id), g_steal_pointer (&hashes));
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
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

  if (own_transaction && !exec_sql (self, "BEGIN", what, error))
    return FALSE;

  if (!read_user_version (self, version, what, error))
    {
      rollback (self);
      return FALSE;
    }

  if (!_agui_store_guard_check_schema (self->db, migrations, G_N_ELEMENTS (migrations), *version,
                                       &self->last_code, error))
    {
      rollback (self);
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }

  return !own_transaction || commit (self, what, error);
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
  if (!exec_sql (self, "BEGIN IMMEDIATE", what, error))
    return FALSE;

  checked = version;
  if (!read_user_version (self, &version, what, error))
    {
      rollback (self);
      return FALSE;
    }
  if (version != checked && !check_schema (self, &version, what, error))
    {
      rollback (self);
      return FALSE;
    }

  for (int i = version; i < latest; i++)
    {
      if (!exec_sql (self, migrations[i], what, error) ||
          (i == 1 && !fill_search_text (self, what, error)) ||
          (i == 4 && !split_snapshot_messages (self, what, error)))
        {
          rollback (self);
          return FALSE;
        }
    }

  set_version = g_strdup_printf ("PRAGMA user_version = %d", latest);
  if (!exec_sql (self, set_version, what, error))
    {
      rollback (self);
      return FALSE;
    }

  return commit (self, what, error);
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
      set_sqlite_error (self, rc, what, error);
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
  if ((!read_only && !exec_sql (self, "PRAGMA journal_mode = WAL", what, error)) ||
      !exec_sql (self, "PRAGMA synchronous = FULL", what, error) ||
      !exec_sql (self, "PRAGMA foreign_keys = ON", what, error))
    return FALSE;

  rc = sqlite3_create_function_v2 (self->db, "agui_text_matches", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                   NULL, text_matches_func, NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function_v2 (self->db, "agui_message_text", 1,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                     NULL, message_text_func, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    {
      set_sqlite_error (self, rc, what, error);
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

static void run_job (gpointer data,
                     gpointer user_data);

static void
agui_session_store_init (AguiSessionStore *self)
{
  g_mutex_init (&self->mutex);
  _agui_store_guard_init (&self->guard, AGUI_STORE_GUARD_STATEMENT_LIMIT_US);
  self->worker = g_thread_pool_new (run_job, NULL, 1, FALSE, NULL);
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

/* The next "updated" time: now, or just after the newest thread if the
 * clock is coarse or went back, so "newest first" is never a tie. */
#define NEXT_UPDATED_SQL "MAX (?4, (SELECT COALESCE (MAX (updated), 0) + 1 FROM threads))"

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
static gboolean insert_thread (AguiSessionStore  *self,
                               const char        *thread_id,
                               const char        *title,
                               const char        *agent,
                               GError           **error);
static void     announce_change (AguiSessionStore *self,
                                 const char       *thread_id);

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

  announce_change (self, thread_id);
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

  if (!(stmt = prepare (self,
                        "INSERT INTO threads (id, title, agent, created, updated) "
                        "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ")",
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
      set_sqlite_error (self, rc, what, error);
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
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = prepare (self, sql, what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  if (title != NULL)
    sqlite3_bind_text (stmt, 2, title, -1, SQLITE_STATIC);

  if (!step_done (self, stmt, what, error))
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

  announce_change (self, thread_id);
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

  announce_change (self, thread_id);
  return TRUE;
}

static JsonObject *
thread_from_row (sqlite3_stmt *stmt)
{
  JsonObject *thread = json_object_new ();

  json_object_set_string_member (thread, "id", (const char *) sqlite3_column_text (stmt, 0));
  json_object_set_string_member (thread, "title", (const char *) sqlite3_column_text (stmt, 1));
  set_string_or_null (thread, "agent", (const char *) sqlite3_column_text (stmt, 2));
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
  if (!(stmt = prepare (self,
                        "SELECT t.id, t.title, t.agent, t.created, t.updated, "
                        "EXISTS (SELECT 1 FROM interrupts i WHERE i.thread_id = t.id) FROM threads t "
                        "WHERE ?1 IS NULL OR agui_text_matches (t.title, ?1) OR EXISTS ("
                        "  SELECT 1 FROM messages m"
                        "  WHERE m.thread_id = t.id AND agui_text_matches (m.json, ?2)"
                        "  AND agui_text_matches (agui_message_text (m.json), ?1)) "
                        "ORDER BY t.updated DESC",
                        what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 2, raw_needle (search), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 1, search, -1, SQLITE_STATIC);

  threads = json_array_new ();
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    json_array_add_object_element (threads, thread_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&threads);
}

static JsonObject *
get_thread_locked (AguiSessionStore  *self,
                   const char        *thread_id,
                   const char        *what,
                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = prepare (self,
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
    set_sqlite_error (self, rc, what, error);

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

  return get_thread_locked (self, thread_id, what, error);
}

/* Thread infos: what a list of threads shows, read in one statement */

#define THREAD_INFO_SQL \
  "SELECT t.id, t.title, t.agent, t.created, t.updated, " \
  "EXISTS (SELECT 1 FROM interrupts i WHERE i.thread_id = t.id), t.pinned FROM threads t "

/* Pinned threads first, then the most recently updated */
#define THREAD_INFO_ORDER "ORDER BY t.pinned DESC, t.updated DESC"

static AguiThreadInfo *
thread_info_from_row (sqlite3_stmt *stmt)
{
  return _agui_thread_info_new ((const char *) sqlite3_column_text (stmt, 0),
                                (const char *) sqlite3_column_text (stmt, 1),
                                (const char *) sqlite3_column_text (stmt, 2),
                                sqlite3_column_int64 (stmt, 3),
                                sqlite3_column_int64 (stmt, 4),
                                sqlite3_column_int (stmt, 5) != 0 ? AGUI_THREAD_WAITING_FOR_ANSWER
                                                                  : AGUI_THREAD_IDLE,
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

  if (!(stmt = prepare (self, THREAD_INFO_SQL "WHERE t.id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return thread_info_from_row (stmt);
  if (rc != SQLITE_DONE)
    set_sqlite_error (self, rc, what, error);

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
static void
announce_change (AguiSessionStore *self,
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

static GPtrArray *
list_thread_infos (AguiSessionStore  *self,
                   GError           **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  const char *what = "Could not list the threads";
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  int rc;

  if (!(stmt = prepare (self, THREAD_INFO_SQL THREAD_INFO_ORDER, what, error)))
    return NULL;

  infos = g_ptr_array_new_with_free_func (g_object_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (infos, thread_info_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&infos);
}

/* The snippet around the first match of @folded_needle in @text: its
 * line, cut to about SNIPPET_CHARS characters around the match. Each
 * character is folded alone, so that a match found in the folded text
 * has a place in the text itself. */
#define SNIPPET_CHARS 80
#define SNIPPET_BEFORE 12

static char *
snippet_for (const char *text,
             const char *folded_needle)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autoptr(GString) folded = g_string_new (NULL);
  g_autoptr(GArray) origins = g_array_new (FALSE, FALSE, sizeof (const char *));
  const char *match_start = NULL;
  const char *line_start;
  const char *line_end;
  const char *from;
  const char *to;
  const char *found;
  GString *out;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      g_autofree char *one = g_utf8_normalize (p, g_utf8_next_char (p) - p, G_NORMALIZE_ALL);
      g_autofree char *folded_one = one != NULL ? g_utf8_casefold (one, -1) : NULL;

      if (folded_one == NULL)
        continue;
      for (const char *q = folded_one; *q != '\0'; q++)
        g_array_append_val (origins, p);
      g_string_append (folded, folded_one);
    }

  found = strstr (folded->str, folded_needle);
  if (found == NULL)
    return NULL;
  match_start = g_array_index (origins, const char *, found - folded->str);

  for (line_start = match_start; line_start > valid && line_start[-1] != '\n'; line_start--)
    ;
  line_end = strchr (match_start, '\n');
  if (line_end == NULL)
    line_end = match_start + strlen (match_start);

  /* A few words before the match, so that a narrow view that cuts the
   * end still shows the match; the rest of the room after it */
  from = match_start;
  for (int i = 0; i < SNIPPET_BEFORE && from > line_start; i++)
    from = g_utf8_prev_char (from);
  if (from > line_start)
    {
      /* ...starting at a word */
      const char *space = memchr (from, ' ', match_start - from);

      if (space != NULL)
        from = space + 1;
    }
  to = match_start;
  for (int i = 0; i < SNIPPET_CHARS - SNIPPET_BEFORE && to < line_end; i++)
    to = g_utf8_next_char (to);

  out = g_string_new (from > line_start ? "…" : NULL);
  g_string_append_len (out, from, to - from);
  if (to < line_end)
    g_string_append (out, "…");

  return g_strstrip (g_string_free (out, FALSE));
}

/* Thread id → snippet, for the threads whose message text contains
 * @search (all of them, or only @thread_id) */
static GHashTable *
search_threads (AguiSessionStore  *self,
                const char        *search,
                const char        *thread_id,
                GError           **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  const char *what = "Could not search the threads";
  g_autofree char *folded_needle = fold_text (search);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) found = NULL;
  int rc;

  /* In the order they were said: the snippet is the first match */
  if (!(stmt = prepare (self,
                        "SELECT thread_id, agui_message_text (json) FROM messages "
                        "WHERE (?2 IS NULL OR thread_id = ?2) AND agui_text_matches (json, ?3) "
                        "AND agui_text_matches (agui_message_text (json), ?1) ORDER BY rowid",
                        what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, search, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, raw_needle (search), -1, SQLITE_STATIC);

  found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      char *snippet;

      if (g_hash_table_contains (found, (const char *) sqlite3_column_text (stmt, 0)))
        continue;
      snippet = snippet_for ((const char *) sqlite3_column_text (stmt, 1), folded_needle);

      /* Folded alone, a character may not match as the whole text did
       * (a combining sequence): the thread matches all the same. */
      if (snippet == NULL)
        snippet = g_strdup ("");
      g_hash_table_insert (found, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), snippet);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&found);
}

/* Turns */

static gboolean
write_search_text (AguiSessionStore  *self,
                   const char        *thread_id,
                   const char        *text,
                   const char        *what,
                   GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = prepare (self,
                        "INSERT INTO search_text (thread_id, text) VALUES (?1, ?2) "
                        "ON CONFLICT (thread_id) DO UPDATE SET text = excluded.text",
                        what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);

  return step_done (self, stmt, what, error);
}

static gboolean
delete_journal_locked (AguiSessionStore  *self,
                       const char        *thread_id,
                       const char        *snapshot_id,
                       const char        *what,
                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!(stmt = prepare (self, "DELETE FROM journal WHERE thread_id = ?1 AND snapshot_id = ?2", what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, snapshot_id, -1, SQLITE_STATIC);

  return step_done (self, stmt, what, error);
}

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
  g_autoptr(MessageReader) reader = NULL;
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

  if (!(upsert = prepare (self,
                          "INSERT INTO threads (id, title, agent, created, updated, branch) "
                          "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ", ?5) "
                          "ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, "
                          "agent = COALESCE (excluded.agent, agent), branch = excluded.branch",
                          what, error)) ||
      !(next_seq = prepare (self,
                            "SELECT COALESCE (MAX (seq), -1) + 1 FROM events WHERE thread_id = ?1",
                            what, error)) ||
      !(insert_event = prepare (self,
                                "INSERT INTO events (thread_id, seq, run_id, json) VALUES (?1, ?2, ?3, ?4)",
                                what, error)) ||
      !(insert_snapshot = prepare (self,
                                   "INSERT INTO snapshots (id, parent_id, thread_id, turn_index, status, "
                                   "finish_reason, error, messages, state, created_at, run_id) "
                                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                                   what, error)) ||
      !(clear_interrupts = prepare (self, "DELETE FROM interrupts WHERE thread_id = ?1", what, error)) ||
      !(insert_interrupt = prepare (self,
                                    "INSERT INTO interrupts (thread_id, position, json) VALUES (?1, ?2, ?3)",
                                    what, error)) ||
      !(insert_message_stmt = prepare (self, INSERT_MESSAGE_SQL, what, error)) ||
      !(reader = message_reader_new (self, turn->thread_id, what, error)))
    return FALSE;

  sqlite3_bind_text (upsert, 1, turn->thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (upsert, 2, title ? title : "", -1, SQLITE_STATIC);
  sqlite3_bind_text (upsert, 3, agent, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (upsert, 4, now);
  /* The newest turn is on the branch the person is on. */
  sqlite3_bind_text (upsert, 5, turn->snapshot_id, -1, SQLITE_STATIC);
  if (!step_done (self, upsert, what, error))
    return FALSE;

  sqlite3_bind_text (next_seq, 1, turn->thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (next_seq);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
      return FALSE;
    }
  seq = sqlite3_column_int64 (next_seq, 0);
  sqlite3_reset (next_seq);

  sqlite3_bind_text (insert_event, 1, turn->thread_id, -1, SQLITE_STATIC);
  for (guint i = 0; i < rows->event_json->len; i++)
    {
      sqlite3_bind_int64 (insert_event, 2, seq + i);
      sqlite3_bind_text (insert_event, 3, g_ptr_array_index (rows->event_run_ids, i), -1, SQLITE_STATIC);
      sqlite3_bind_text (insert_event, 4, g_ptr_array_index (rows->event_json, i), -1, SQLITE_STATIC);
      if (!step_done (self, insert_event, what, error))
        return FALSE;
    }

  /* Each message once: the snapshot names its parent's messages it
   * keeps, and the ones it adds, which are stored if new */
  hashes = g_array_sized_new (FALSE, FALSE, sizeof (gint64), rows->message_json->len);
  for (guint i = 0; i < rows->message_json->len; i++)
    {
      gint64 hash = message_hash (g_ptr_array_index (rows->message_json, i), -1);

      g_array_append_val (hashes, hash);
    }
  if (!(parent_hashes = message_reader_hashes (reader, turn->parent_id, what, error)))
    return FALSE;
  keep = common_prefix (parent_hashes, hashes);
  /* Now and then the whole list, so that reading a long thread back
   * walks at most this many snapshots */
  if (turn->turn_index % SNAPSHOTS_PER_CHECKPOINT == SNAPSHOTS_PER_CHECKPOINT - 1)
    keep = 0;
  for (guint i = keep; i < hashes->len; i++)
    if (!insert_message (self, insert_message_stmt, turn->thread_id, g_array_index (hashes, gint64, i),
                         g_ptr_array_index (rows->message_json, i), what, error))
      return FALSE;
  delta = print_message_delta (keep, hashes, keep);

  sqlite3_bind_text (insert_snapshot, 1, turn->snapshot_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 2, turn->parent_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert_snapshot, 3, turn->thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_int (insert_snapshot, 4, turn->turn_index);
  sqlite3_bind_text (insert_snapshot, 5, status_names[turn->status], -1, SQLITE_STATIC);
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
      set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  sqlite3_bind_text (clear_interrupts, 1, turn->thread_id, -1, SQLITE_STATIC);
  if (!step_done (self, clear_interrupts, what, error))
    return FALSE;

  sqlite3_bind_text (insert_interrupt, 1, turn->thread_id, -1, SQLITE_STATIC);
  for (guint i = 0; i < rows->interrupts->len; i++)
    {
      sqlite3_bind_int (insert_interrupt, 2, i);
      sqlite3_bind_text (insert_interrupt, 3, g_ptr_array_index (rows->interrupts, i), -1, SQLITE_STATIC);
      if (!step_done (self, insert_interrupt, what, error))
        return FALSE;
    }

  /* The turn's events are in the log now: its journal, and the
   * journals of the unsaved turns whose events it carries, go. */
  if (!delete_journal_locked (self, turn->thread_id, turn->snapshot_id, what, error))
    return FALSE;
  for (guint i = 0; rows->journal_ids != NULL && rows->journal_ids[i] != NULL; i++)
    if (!delete_journal_locked (self, turn->thread_id, rows->journal_ids[i], what, error))
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

  if (!exec_sql (self, "BEGIN IMMEDIATE", what, error))
    return FALSE;

  if (!write_turn_locked (self, rows, &hashes, what, error))
    {
      rollback (self);
      return FALSE;
    }

  if (!commit (self, what, error))
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
    announce_change (self, rows->thread_id);

  return written;
}

static gboolean
save_turn_with_thread (AguiSessionStore      *self,
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
 * agui_session_store_save_turn:
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
agui_session_store_save_turn (AguiSessionStore      *self,
                              const AguiTurnRecord  *turn,
                              GError               **error)
{
  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (turn != NULL, FALSE);
  g_return_val_if_fail (turn->thread_id != NULL && turn->thread_id[0] != '\0', FALSE);
  g_return_val_if_fail (turn->snapshot_id != NULL && turn->snapshot_id[0] != '\0', FALSE);
  g_return_val_if_fail ((guint) turn->status < G_N_ELEMENTS (status_names), FALSE);

  return save_turn_with_thread (self, turn, NULL, NULL, "Could not save the turn", error);
}

static GPtrArray *
load_events_locked (AguiSessionStore  *self,
                    const char        *thread_id,
                    const char        *what,
                    GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) events = NULL;
  int rc;

  if (!(stmt = prepare (self, "SELECT seq, json FROM events WHERE thread_id = ?1 ORDER BY seq",
                        what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *json = (const char *) sqlite3_column_text (stmt, 1);
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GError) local_error = NULL;
      JsonObject *object;
      AguiEventType type;

      /* The log holds only events that passed the pipeline, so the
       * schema is not checked again: reopening a thread stays fast. A
       * row damaged anyway (by an older version, or on disk) is skipped
       * with a warning, so that one row cannot make the whole thread
       * unreadable. */
      node = _agui_json_parse (json, sqlite3_column_bytes (stmt, 1), &local_error);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
          !agui_event_type_from_string (object_string (json_node_get_object (node), "type"), &type))
        {
          g_warning ("%s: skipped the stored event %" G_GINT64_FORMAT ", which is not an AG-UI event%s%s",
                     what, (gint64) sqlite3_column_int64 (stmt, 0),
                     local_error ? ": " : "", local_error ? local_error->message : "");
          continue;
        }

      object = json_node_dup_object (node);
      g_ptr_array_add (events, _agui_event_new_trusted (type, object));
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
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

  return load_events_locked (self, thread_id, what, error);
}

#define SNAPSHOT_COLUMNS \
  "id, parent_id, thread_id, turn_index, status, finish_reason, error, messages, state, created_at, run_id"

static JsonObject *
snapshot_from_row (MessageReader  *reader,
                   sqlite3_stmt   *stmt,
                   const char     *what,
                   GError        **error)
{
  g_autoptr(JsonObject) snapshot = json_object_new ();
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(JsonNode) state = NULL;

  if (!(messages = column_json (stmt, 7, what, "messages", error)) ||
      !(state = column_json (stmt, 8, what, "state", error)))
    return NULL;

  /* Since schema 5, what changed since the parent snapshot */
  if (JSON_NODE_HOLDS_OBJECT (messages))
    {
      GArray *hashes = message_reader_hashes (reader, (const char *) sqlite3_column_text (stmt, 0), what, error);
      JsonArray *array;

      if (hashes == NULL || !(array = message_reader_messages (reader, hashes, what, error)))
        return NULL;
      json_node_unref (messages);
      messages = json_node_init_array (json_node_alloc (), array);
      json_array_unref (array);
    }

  if (!JSON_NODE_HOLDS_ARRAY (messages))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: the stored messages are not an array", what);
      return NULL;
    }

  json_object_set_string_member (snapshot, "id", (const char *) sqlite3_column_text (stmt, 0));
  set_string_or_null (snapshot, "parentId", (const char *) sqlite3_column_text (stmt, 1));
  json_object_set_string_member (snapshot, "threadId", (const char *) sqlite3_column_text (stmt, 2));
  json_object_set_int_member (snapshot, "turnIndex", sqlite3_column_int (stmt, 3));
  json_object_set_string_member (snapshot, "status", (const char *) sqlite3_column_text (stmt, 4));
  if (sqlite3_column_type (stmt, 5) != SQLITE_NULL)
    json_object_set_string_member (snapshot, "finishReason", (const char *) sqlite3_column_text (stmt, 5));
  if (sqlite3_column_type (stmt, 6) != SQLITE_NULL)
    json_object_set_string_member (snapshot, "error", (const char *) sqlite3_column_text (stmt, 6));
  json_object_set_member (snapshot, "messages", g_steal_pointer (&messages));
  json_object_set_member (snapshot, "state", g_steal_pointer (&state));
  json_object_set_int_member (snapshot, "createdAt", sqlite3_column_int64 (stmt, 9));
  if (sqlite3_column_type (stmt, 10) != SQLITE_NULL)
    json_object_set_string_member (snapshot, "runId", (const char *) sqlite3_column_text (stmt, 10));

  return g_steal_pointer (&snapshot);
}

/* Sets *snapshot to NULL (and returns TRUE) when the thread has none. */
static gboolean
get_last_snapshot_locked (AguiSessionStore  *self,
                          const char        *thread_id,
                          gboolean           completed_only,
                          const char        *filter,
                          JsonObject       **snapshot,
                          const char        *what,
                          GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(MessageReader) reader = NULL;
  int rc;

  *snapshot = NULL;

  if (!(reader = message_reader_new (self, thread_id, what, error)))
    return FALSE;
  reader->filter = filter;

  if (!(stmt = prepare (self,
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

      if ((*snapshot = snapshot_from_row (reader, stmt, what, &local_error)) != NULL)
        return TRUE;

      g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                 what, sqlite3_column_int (stmt, 3), local_error->message);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
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
  g_autofree char *what = NULL;
  JsonObject *snapshot;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last snapshot of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  get_last_snapshot_locked (self, thread_id, FALSE, NULL, &snapshot, what, error);
  return snapshot;
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
  g_autoptr(JsonObject) snapshot = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last good state of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!get_last_snapshot_locked (self, thread_id, TRUE, NULL, &snapshot, what, error) || snapshot == NULL)
    return NULL;

  return json_object_dup_member (snapshot, "state");
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

  if (!(stmt = prepare (self, "SELECT COUNT (*) FROM snapshots WHERE thread_id = ?1", what, error)))
    return -1;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
      return -1;
    }

  return sqlite3_column_int (stmt, 0);
}

static JsonArray *
get_pending_interrupts_locked (AguiSessionStore  *self,
                               const char        *thread_id,
                               const char        *what,
                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(JsonArray) interrupts = NULL;
  int rc;

  if (!(stmt = prepare (self, "SELECT json FROM interrupts WHERE thread_id = ?1 ORDER BY position",
                        what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  interrupts = json_array_new ();
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;
      JsonNode *interrupt = column_json (stmt, 0, what, "interrupts", &local_error);

      if (interrupt == NULL)
        {
          g_warning ("%s: skipped a damaged interrupt: %s", what, local_error->message);
          continue;
        }
      json_array_add_element (interrupts, interrupt);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&interrupts);
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
  g_autoptr(JsonArray) interrupts = NULL;
  g_autofree char *what = NULL;
  GListStore *list;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the interrupts of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(interrupts = get_pending_interrupts_locked (self, thread_id, what, error)))
    return NULL;

  /* Each interrupt copies its object, so no JSON of this thread's leaves
   * it when the list goes to another. */
  list = g_list_store_new (AGUI_TYPE_INTERRUPT);
  for (guint i = 0; i < json_array_get_length (interrupts); i++)
    {
      JsonNode *element = json_array_get_element (interrupts, i);
      g_autoptr(AguiInterrupt) interrupt = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      interrupt = _agui_interrupt_new (json_node_get_object (element));
      g_list_store_append (list, interrupt);
    }

  return G_LIST_MODEL (list);
}

/* Export and import */

#define EXPORT_FORMAT "tandem-thread"
#define EXPORT_VERSION 1

static JsonArray *list_branches_locked (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        const char        *what,
                                        GError           **error);

/* A thread that forked has one log for all its branches, which replays
 * as none of them: its export carries, in place of the log, the chosen
 * branch as a snapshot of its messages and one of its state, which an
 * import folds to exactly what the export says. */
static JsonArray *
branch_events (JsonObject *snapshot)
{
  JsonArray *events = json_array_new ();
  JsonObject *messages = json_object_new ();
  JsonObject *state = json_object_new ();

  json_object_set_string_member (messages, "type", "MESSAGES_SNAPSHOT");
  json_object_set_member (messages, "messages", json_object_dup_member (snapshot, "messages"));
  json_array_add_object_element (events, messages);

  if (json_object_has_member (snapshot, "state") && !json_object_get_null_member (snapshot, "state"))
    {
      json_object_set_string_member (state, "type", "STATE_SNAPSHOT");
      json_object_set_member (state, "snapshot", json_object_dup_member (snapshot, "state"));
      json_array_add_object_element (events, state);
    }
  else
    {
      json_object_unref (state);
    }

  return events;
}

static JsonNode *
export_json_locked (AguiSessionStore  *self,
                    const char        *thread_id,
                    const char        *what,
                    GError           **error)
{
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonArray) interrupts = NULL;
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(JsonObject) root = NULL;
  JsonArray *event_array;

  if (!(thread = get_thread_locked (self, thread_id, what, error)) ||
      !get_last_snapshot_locked (self, thread_id, FALSE, NULL, &snapshot, what, error) ||
      !(events = load_events_locked (self, thread_id, what, error)) ||
      !(interrupts = get_pending_interrupts_locked (self, thread_id, what, error)) ||
      !(branches = list_branches_locked (self, thread_id, what, error)))
    return NULL;

  root = json_object_new ();
  json_object_set_string_member (root, "format", EXPORT_FORMAT);
  json_object_set_int_member (root, "version", EXPORT_VERSION);
  json_object_set_object_member (root, "thread", g_steal_pointer (&thread));

  if (snapshot != NULL)
    {
      json_object_set_member (root, "messages", json_object_dup_member (snapshot, "messages"));
      json_object_set_member (root, "state", json_object_dup_member (snapshot, "state"));
    }
  else
    {
      json_object_set_array_member (root, "messages", json_array_new ());
      json_object_set_null_member (root, "state");
    }

  json_object_set_array_member (root, "pendingInterrupts", g_steal_pointer (&interrupts));

  if (snapshot != NULL && json_array_get_length (branches) > 1)
    {
      event_array = branch_events (snapshot);
    }
  else
    {
      event_array = json_array_sized_new (events->len);
      for (guint i = 0; i < events->len; i++)
        json_array_add_element (event_array, agui_event_to_json (g_ptr_array_index (events, i)));
    }
  json_object_set_array_member (root, "events", event_array);

  return json_node_init_object (json_node_alloc (), root);
}

/**
 * agui_session_store_export_json:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Exports a thread as one JSON object:
 *
 * ```json
 * { "format": "tandem-thread", "version": 1,
 *   "thread": { "id": …, "title": …, "agent": …, "created": …, "updated": … },
 *   "messages": [ AG-UI messages ], "state": …, "pendingInterrupts": [ … ],
 *   "events": [ the compacted log ] }
 * ```
 *
 * The messages and state are those of the latest turn of the branch the
 * person chose. The snapshot chain is not exported: it belongs to this
 * database; a thread that forked exports, in place of its log (which
 * holds every branch), a `MESSAGES_SNAPSHOT` and a `STATE_SNAPSHOT` of
 * the chosen branch ([method@Agui.SessionStore.list_branches] has the
 * others).
 * [method@Agui.SessionStore.import_json] reads it back.
 *
 * Returns: (transfer full) (nullable): the export, or %NULL on error
 */
JsonNode *
agui_session_store_export_json (AguiSessionStore  *self,
                                const char        *thread_id,
                                GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;
  JsonNode *exported;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not export the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  /* One read transaction, so a writer in another process cannot slip a
   * turn in between the snapshot and the log. */
  if (!exec_sql (self, "BEGIN", what, error))
    return NULL;

  exported = export_json_locked (self, thread_id, what, error);
  rollback (self);

  return exported;
}

/* Markdown */

/* A fence longer than any run of backticks in @text, so the block
 * cannot end early. */
static char *
fence_for (const char *text)
{
  guint longest = 0;
  guint run = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }

  return g_strnfill (MAX (3, longest + 1), '`');
}

static void
append_code_block (GString    *out,
                   const char *language,
                   const char *text)
{
  g_autofree char *fence = fence_for (text);

  g_string_append_printf (out, "%s%s\n%s%s%s\n\n",
                          fence, language, text,
                          g_str_has_suffix (text, "\n") || text[0] == '\0' ? "" : "\n",
                          fence);
}

static void
append_json_block (GString  *out,
                   JsonNode *node)
{
  g_autofree char *text = NULL;

  if (!(text = _agui_json_to_string (node, TRUE, NULL)))
    text = g_strdup ("(a value that cannot be shown as JSON)");

  append_code_block (out, "json", text);
}

static void
append_quoted (GString    *out,
               const char *heading,
               const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_string_append_printf (out, "> %s\n>\n", heading);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        g_string_append (out, ">\n");
      else
        g_string_append_printf (out, "> %s\n", lines[i]);
    }
  g_string_append_c (out, '\n');
}

/* The text of a message's content: a string, or the text of its input
 * parts with a placeholder for each non-text part. */
static char *
content_to_text (JsonNode *content)
{
  GString *text;
  JsonArray *parts;

  if (content == NULL || JSON_NODE_HOLDS_NULL (content))
    return g_strdup ("");

  if (json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));

  if (!JSON_NODE_HOLDS_ARRAY (content))
    {
      char *printed = _agui_json_to_string (content, TRUE, NULL);

      return printed != NULL ? printed : g_strdup ("");
    }

  text = g_string_new (NULL);
  parts = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *element = json_array_get_element (parts, i);
      JsonObject *part = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *type = part ? json_object_get_string_member_with_default (part, "type", "") : "";

      if (text->len > 0)
        g_string_append (text, "\n\n");

      if (g_str_equal (type, "text"))
        g_string_append (text, json_object_get_string_member_with_default (part, "text", ""));
      else if (part != NULL && json_object_has_member (part, "mimeType"))
        g_string_append_printf (text, "*[%s: %s]*", type,
                                json_object_get_string_member_with_default (part, "mimeType", ""));
      else
        g_string_append_printf (text, "*[%s]*", type);
    }

  return g_string_free (text, FALSE);
}

static void
append_tool_calls (GString    *out,
                   JsonArray  *calls,
                   GHashTable *tool_names)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *element = json_array_get_element (calls, i);
      JsonObject *call = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonObject *function = call && json_object_has_member (call, "function")
                               ? json_object_get_object_member (call, "function") : NULL;
      const char *name = function ? json_object_get_string_member_with_default (function, "name", "") : "";
      const char *arguments = function
                                ? json_object_get_string_member_with_default (function, "arguments", "")
                                : "";
      g_autoptr(JsonNode) parsed = NULL;

      if (call == NULL)
        continue;

      if (json_object_has_member (call, "id"))
        g_hash_table_insert (tool_names,
                             g_strdup (json_object_get_string_member_with_default (call, "id", "")),
                             g_strdup (name));

      g_string_append_printf (out, "**Tool call:** `%s`\n\n", name);

      /* Arguments arrive as a JSON string; pretty-print them when they parse. */
      if ((parsed = _agui_json_parse (arguments, -1, NULL)) != NULL)
        append_json_block (out, parsed);
      else
        append_code_block (out, "json", arguments);
    }
}

/* A message someone said, under its role */
static void
append_said (GString    *out,
             const char *role,
             const char *text,
             JsonObject *message,
             GHashTable *tool_names)
{
  if (g_str_equal (role, "user"))
    g_string_append (out, "### User\n\n");
  else if (g_str_equal (role, "assistant"))
    g_string_append (out, "### Assistant\n\n");
  else if (g_str_equal (role, "system"))
    g_string_append (out, "### System\n\n");
  else if (g_str_equal (role, "developer"))
    g_string_append (out, "### Developer\n\n");
  else
    g_string_append_printf (out, "### %s\n\n", role);

  if (text[0] != '\0')
    g_string_append_printf (out, "%s\n\n", text);

  if (json_object_has_member (message, "toolCalls") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (message, "toolCalls")))
    append_tool_calls (out, json_object_get_array_member (message, "toolCalls"), tool_names);
}

/* How the run that ended with @message ended, when not as it should:
 * the transcript's own marks in the message's metadata, on the last
 * message of a stopped or failed run, or in a note on the message
 * shown last before a run that said nothing. NULL for a finished run. */
static const char *
attempt_end_words (JsonObject *message)
{
  JsonObject *metadata = NULL;
  JsonObject *local = NULL;
  JsonArray *notes = NULL;
  const char *attempt = NULL;

  if (json_object_has_member (message, "metadata") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (message, "metadata")))
    metadata = json_object_get_object_member (message, "metadata");
  if (metadata != NULL && json_object_has_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY) &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY)))
    local = json_object_get_object_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY);
  if (local == NULL)
    return NULL;

  if (json_object_get_boolean_member_with_default (local, "attemptEnd", FALSE))
    attempt = json_object_get_string_member_with_default (local, "attempt", NULL);

  if (json_object_has_member (local, "notes") && JSON_NODE_HOLDS_ARRAY (json_object_get_member (local, "notes")))
    notes = json_object_get_array_member (local, "notes");
  for (guint i = 0; attempt == NULL && notes != NULL && i < json_array_get_length (notes); i++)
    {
      JsonNode *element = json_array_get_element (notes, i);
      JsonObject *note = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;

      if (note != NULL && g_strcmp0 (json_object_get_string_member_with_default (note, "kind", NULL), "run-end") == 0)
        attempt = json_object_get_string_member_with_default (note, "attempt", NULL);
    }

  if (g_strcmp0 (attempt, "stopped") == 0)
    return "*Stopped*";
  if (g_strcmp0 (attempt, "failed") == 0)
    return "*Failed*";

  return NULL;
}

static void
append_message (GString    *out,
                JsonObject *message,
                GHashTable *tool_names)
{
  const char *ended = attempt_end_words (message);
  const char *role = json_object_get_string_member_with_default (message, "role", "");
  JsonNode *content = json_object_get_member (message, "content");
  g_autofree char *text = content_to_text (content);

  if (g_str_equal (role, "tool"))
    {
      const char *call_id = json_object_get_string_member_with_default (message, "toolCallId", "");
      const char *name = g_hash_table_lookup (tool_names, call_id);
      const char *failure = json_object_get_string_member_with_default (message, "error", NULL);
      g_autofree char *heading = g_strdup_printf ("**Tool result** (`%s`)%s",
                                                  name ? name : call_id,
                                                  failure ? " — failed" : "");

      append_quoted (out, heading, failure && text[0] == '\0' ? failure : text);
    }
  else if (g_str_equal (role, "reasoning"))
    {
      append_quoted (out, "**Reasoning**", text);
    }
  else if (g_str_equal (role, "activity"))
    {
      g_string_append_printf (out, "**Activity:** `%s`\n\n",
                              json_object_get_string_member_with_default (message, "activityType", ""));
      append_json_block (out, content);
    }
  else
    {
      append_said (out, role, text, message, tool_names);
    }

  if (ended != NULL)
    g_string_append_printf (out, "%s\n\n", ended);
}

/* The state is left out: it is the agent's working data, not what was
 * said, and the JSON export keeps it. */
static void
append_messages (GString    *out,
                 JsonArray  *messages,
                 GHashTable *tool_names)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);

      if (JSON_NODE_HOLDS_OBJECT (element))
        append_message (out, json_node_get_object (element), tool_names);
    }
}

/**
 * agui_session_store_export_markdown:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Renders a thread for people to read: its title, then each message
 * under its role, tool calls with their arguments as JSON blocks, tool
 * results and reasoning as quotes, and a stopped or failed answer marked
 * so in words. The state, the agent's working data, is left out: the
 * JSON export has it.
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_markdown (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    GError           **error)
{
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GHashTable) tool_names = NULL;
  JsonObject *root;
  JsonObject *thread;
  JsonArray *messages;
  const char *title;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  if (!(exported = agui_session_store_export_json (self, thread_id, error)))
    return NULL;

  root = json_node_get_object (exported);
  thread = json_object_get_object_member (root, "thread");
  messages = json_object_get_array_member (root, "messages");
  title = json_object_get_string_member (thread, "title");
  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n\n", title[0] != '\0' ? title : "Untitled thread");
  if (!json_object_get_null_member (thread, "agent"))
    g_string_append_printf (out, "Agent: %s\n\n", json_object_get_string_member (thread, "agent"));

  append_messages (out, messages, tool_names);

  return g_string_free (out, FALSE);
}

/**
 * agui_session_store_export_branches_markdown:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Like [method@Agui.SessionStore.export_markdown], with every branch of
 * the thread one after the other, each under its own heading ("Branch 2
 * of 3", the chosen one marked), whole.
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_branches_markdown (AguiSessionStore  *self,
                                             const char        *thread_id,
                                             GError           **error)
{
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(GHashTable) tool_names = NULL;
  g_autofree char *what = NULL;
  const char *title;
  guint n;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not export the thread '%s'", thread_id);

  {
    g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);

    if (!exec_sql (self, "BEGIN", what, error))
      return NULL;
    thread = get_thread_locked (self, thread_id, what, error);
    branches = thread ? list_branches_locked (self, thread_id, what, error) : NULL;
    rollback (self);
    if (branches == NULL)
      return NULL;
  }

  title = json_object_get_string_member (thread, "title");
  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n\n", title[0] != '\0' ? title : "Untitled thread");
  if (!json_object_get_null_member (thread, "agent"))
    g_string_append_printf (out, "Agent: %s\n\n", json_object_get_string_member (thread, "agent"));

  n = json_array_get_length (branches);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *branch = json_array_get_object_element (branches, i);

      g_string_append_printf (out, "## Branch %u of %u%s\n\n", i + 1, n,
                              json_object_get_boolean_member (branch, "chosen") ? " (chosen)" : "");
      append_messages (out, json_object_get_array_member (branch, "messages"), tool_names);
    }

  return g_string_free (out, FALSE);
}

static char *
import_error (GError     **error,
              const char  *reason)
{
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "Could not import the thread: %s", reason);
  return NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static char *
first_difference (JsonArray *imported,
                  JsonArray *folded)
{
  guint n_imported = json_array_get_length (imported);
  guint n_folded = json_array_get_length (folded);

  for (guint i = 0; i < MIN (n_imported, n_folded); i++)
    {
      if (!agui_json_node_equal (json_array_get_element (imported, i), json_array_get_element (folded, i)))
        {
          JsonNode *element = json_array_get_element (imported, i);
          const char *id = JSON_NODE_HOLDS_OBJECT (element)
                             ? object_string (json_node_get_object (element), "id") : "";

          return g_strdup_printf ("message %u (id '%s') is not what its event log reproduces", i, id);
        }
    }

  if (n_imported != n_folded)
    return g_strdup_printf ("it has %u messages but its event log reproduces %u", n_imported, n_folded);

  return NULL;
}

/* A person's message with attachments is logged as a TEXT_MESSAGE_START
 * that carries its content parts (see _agui_reducer_add_user_message()),
 * which the parser, reading AG-UI, leaves out as unknown. Tandem's own
 * log gets them back: the messages they make are checked against the
 * exported ones, which were checked against the schema. */
static AguiEvent *
with_user_content (AguiEvent  *event,
                   JsonObject *node)
{
  JsonNode *content = json_object_get_member (node, "content");
  g_autoptr(JsonNode) members = NULL;
  g_autoptr(JsonNode) copy = NULL;
  JsonObject *object;

  if (agui_event_get_event_type (event) != AGUI_EVENT_TEXT_MESSAGE_START ||
      g_strcmp0 (object_string (node, "role"), "user") != 0 ||
      content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return event;

  /* The event's members are sealed: a copy takes the content */
  members = agui_event_to_json (event);
  copy = _agui_json_node_copy_deep (members);
  object = json_node_dup_object (copy);
  json_object_set_member (object, "content", _agui_json_node_copy_deep (content));
  agui_event_unref (event);

  return _agui_event_new_trusted (AGUI_EVENT_TEXT_MESSAGE_START, object);
}

/* Returns the expanded events the log applies, or NULL with @reason.
 * Each event is checked against the schema and CHUNK events are
 * expanded, as in a live stream; the protocol's run order is not
 * checked, since a thread's log also holds the events the client added
 * between runs (the user's messages), just as reopening a thread folds
 * it. */
static GPtrArray *
replay_import (JsonArray   *event_array,
               JsonArray   *messages,
               JsonNode    *state,
               char       **reason)
{
  g_autoptr(AguiEventParser) parser = agui_event_parser_new ();
  g_autoptr(AguiChunkNormalizer) normalizer = agui_chunk_normalizer_new ();
  g_autoptr(AguiReducer) reducer = agui_reducer_new (NULL);
  g_autoptr(GPtrArray) applied = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(JsonArray) folded = NULL;
  AguiTranscript *transcript = agui_reducer_get_transcript (reducer);
  JsonNode *folded_state;
  char *difference;

  for (guint i = 0; i < json_array_get_length (event_array); i++)
    {
      JsonNode *node = json_array_get_element (event_array, i);
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) local_error = NULL;
      guint first = applied->len;

      if (!JSON_NODE_HOLDS_OBJECT (node) ||
          json_node_get_value_type (json_object_get_member (json_node_get_object (node), "type")
                                      ? json_object_get_member (json_node_get_object (node), "type")
                                      : node) != G_TYPE_STRING)
        {
          *reason = g_strdup_printf ("event %u is not an object with a string \"type\"", i);
          return NULL;
        }

      if (!(event = agui_event_parser_parse_node (parser, node, &local_error)))
        {
          *reason = g_strdup_printf ("event %u is invalid: %s", i,
                                     local_error ? local_error->message : "its type is not one of AG-UI 1.0");
          return NULL;
        }
      event = with_user_content (event, json_node_get_object (node));

      if (!agui_chunk_normalizer_push (normalizer, event, applied, &local_error))
        {
          *reason = g_strdup_printf ("event %u is invalid: %s", i, local_error->message);
          return NULL;
        }

      for (guint j = first; j < applied->len; j++)
        agui_reducer_apply (reducer, g_ptr_array_index (applied, j));
    }

  /* What the person answered about a call is Tandem's own note, kept
   * with the stored messages and not in the log: take it over as a
   * restore does, so the comparison is of what the log says. */
  _agui_transcript_restore_local_state (transcript, messages);
  folded = agui_transcript_to_messages (transcript, TRUE);
  if ((difference = first_difference (messages, folded)) != NULL)
    {
      *reason = difference;
      return NULL;
    }

  /* No state is written null by the export and is an empty object in
   * a transcript that never received one. */
  folded_state = agui_transcript_get_state (transcript);
  if (folded_state != NULL && JSON_NODE_HOLDS_OBJECT (folded_state) &&
      json_object_get_size (json_node_get_object (folded_state)) == 0 &&
      (state == NULL || JSON_NODE_HOLDS_NULL (state)))
    folded_state = NULL;
  if ((state == NULL || JSON_NODE_HOLDS_NULL (state))
        ? (folded_state != NULL && !JSON_NODE_HOLDS_NULL (folded_state))
        : (folded_state == NULL || !agui_json_node_equal (state, folded_state)))
    {
      *reason = g_strdup ("its state is not what its event log reproduces");
      return NULL;
    }

  return g_steal_pointer (&applied);
}

/**
 * agui_session_store_import_json:
 * @self: a session store
 * @exported: an export made by [method@Agui.SessionStore.export_json]
 * @error: return location for a #GError
 *
 * Adds a new thread, under a new id, with the title, messages, state,
 * interrupts and event log of @exported. The import is checked first
 * (its format and version, each message and each event against the
 * schema); if anything is wrong nothing is written. The new thread has
 * one COMPLETED snapshot, turn 0, holding the imported messages and state.
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_json (AguiSessionStore  *self,
                                JsonNode          *exported,
                                GError           **error)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AguiTranscript) check = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *snapshot_id = NULL;
  g_autofree char *reason = NULL;
  AguiTurnRecord turn = { NULL, };
  JsonObject *root;
  JsonObject *thread = NULL;
  JsonArray *messages;
  JsonArray *interrupts;
  JsonArray *event_array;
  JsonNode *member;
  JsonNode *state;
  const char *title = NULL;
  const char *agent = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (exported != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (exported))
    return import_error (error, "it is not a JSON object");

  /* What a file would be refused for (see _agui_json_parse ()), a tree
   * made some other way is refused for too, before anything is stored
   * that no export could read back. */
  if (!_agui_json_check_tree (exported, &local_error))
    {
      reason = g_strdup_printf ("it cannot be stored: %s", local_error->message);
      return import_error (error, reason);
    }

  root = json_node_get_object (exported);
  if (!g_str_equal (object_string (root, "format"), EXPORT_FORMAT))
    return import_error (error, "it is not a Tandem thread export");

  member = json_object_get_member (root, "version");
  if (member == NULL || json_node_get_value_type (member) != G_TYPE_INT64)
    return import_error (error, "the export has no version");
  if (json_node_get_int (member) != EXPORT_VERSION)
    {
      reason = g_strdup_printf ("the export has version %" G_GINT64_FORMAT "; this version of Tandem reads version %d",
                                json_node_get_int (member), EXPORT_VERSION);
      return import_error (error, reason);
    }

  member = json_object_get_member (root, "thread");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    thread = json_node_get_object (member);
  if (thread == NULL)
    return import_error (error, "the export has no thread");

  member = json_object_get_member (thread, "title");
  if (member != NULL && json_node_get_value_type (member) == G_TYPE_STRING)
    title = json_node_get_string (member);
  member = json_object_get_member (thread, "agent");
  if (member != NULL && json_node_get_value_type (member) == G_TYPE_STRING)
    agent = json_node_get_string (member);

  if (!(messages = member_array (root, "messages")))
    return import_error (error, "the export has no messages array");

  check = agui_transcript_new ();
  if (!agui_transcript_load_messages (check, messages, &local_error))
    {
      reason = g_strdup_printf ("its messages are invalid: %s", local_error->message);
      return import_error (error, reason);
    }

  interrupts = member_array (root, "pendingInterrupts");
  if (json_object_has_member (root, "pendingInterrupts") && interrupts == NULL)
    return import_error (error, "its pending interrupts are not an array");

  if (!(event_array = member_array (root, "events")))
    return import_error (error, "the export has no events array");

  state = json_object_get_member (root, "state");

  /* The log is read as a live stream would be (chunks expanded, the
   * protocol verified, folded), and it is the log that is kept: the
   * messages and state must be what it folds to, or they would vanish
   * from the next snapshot. */
  if (!(events = replay_import (event_array, messages, state, &reason)))
    return import_error (error, reason);

  thread_id = g_uuid_string_random ();
  snapshot_id = g_uuid_string_random ();

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.turn_index = 0;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.messages = messages;
  turn.state = state;
  turn.events = events;
  turn.pending_interrupts = interrupts;

  if (!save_turn_with_thread (self, &turn, title, agent, "Could not import the thread", error))
    return NULL;

  return g_steal_pointer (&thread_id);
}

/* The worker
 *
 * Each asynchronous call is a job the worker runs with the blocking call
 * of the same name; its result comes back on the caller's main context.
 * What a job is given is its own: strings, rows made on the caller's
 * thread, or a deep copy of the caller's JSON. */

typedef void (*JobFunc) (AguiSessionStore *self,
                         GTask            *task,
                         gpointer          data);

typedef struct
{
  JobFunc        func;
  gpointer       data;
  GDestroyNotify destroy;
  /* Rows are plain data: the worker lets them go once the job ran,
   * rather than the task on the caller's thread */
  gboolean       release_on_worker;
} Job;

static void
job_free (Job *job)
{
  if (job->destroy != NULL && job->data != NULL)
    job->destroy (job->data);
  g_free (job);
}

static void
run_job (gpointer data,
         gpointer user_data)
{
  g_autoptr(GTask) task = data;
  Job *job = g_task_get_task_data (task);

  if (!g_task_return_error_if_cancelled (task))
    job->func (g_task_get_source_object (task), task, job->data);

  if (job->release_on_worker && job->destroy != NULL)
    g_clear_pointer (&job->data, job->destroy);
}

static void
start_job (AguiSessionStore    *self,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data,
           gpointer             source_tag,
           JobFunc              func,
           gpointer             data,
           GDestroyNotify       destroy)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->func = func;
  job->data = data;
  job->destroy = destroy;
  job->release_on_worker = destroy == (GDestroyNotify) _agui_turn_rows_unref;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_thread_pool_push (self->worker, task, NULL);
}

/* The calls that read one thread and give what they read, or NULL and
 * an error, run on the worker by one job */
typedef gpointer (*ThreadRead) (AguiSessionStore  *self,
                                const char        *thread_id,
                                GError           **error);

typedef struct
{
  char           *thread_id;
  ThreadRead      read;
  GDestroyNotify  free_result;
} ReadThread;

static void
read_thread_free (ReadThread *read)
{
  g_free (read->thread_id);
  g_free (read);
}

static void
read_thread_job (AguiSessionStore *self,
                 GTask            *task,
                 gpointer          data)
{
  ReadThread *read = data;
  GError *error = NULL;
  gpointer result = read->read (self, read->thread_id, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, read->free_result);
}

/* Runs @read on the worker; the call's _finish propagates the pointer */
static void
start_read_thread (AguiSessionStore    *self,
                   const char          *thread_id,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data,
                   gpointer             source_tag,
                   ThreadRead           read,
                   GDestroyNotify       free_result)
{
  ReadThread *job = g_new0 (ReadThread, 1);

  job->thread_id = g_strdup (thread_id);
  job->read = read;
  job->free_result = free_result;
  start_job (self, cancellable, callback, user_data, source_tag,
             read_thread_job, job, (GDestroyNotify) read_thread_free);
}

static gboolean
job_is_valid (AguiSessionStore *self,
              GAsyncResult     *result,
              gpointer          source_tag)
{
  return g_task_is_valid (result, self) && g_task_get_source_tag (G_TASK (result)) == source_tag;
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

  start_job (self, cancellable, callback, user_data, agui_session_store_list_threads_async,
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_list_threads_async), NULL);

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

  start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_get_thread_async,
                     (ThreadRead) agui_session_store_get_thread, (GDestroyNotify) json_object_unref);
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_get_thread_async), NULL);

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
  start_job (self, cancellable, callback, user_data, agui_session_store_rename_thread_async,
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_rename_thread_async), FALSE);

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

  start_job (self, cancellable, callback, user_data, agui_session_store_delete_thread_async,
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_delete_thread_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Pinning: the threads.pinned column (migration 6) */

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

  announce_change (self, thread_id);
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
  start_job (self, cancellable, callback, user_data, agui_session_store_set_thread_pinned_async,
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_set_thread_pinned_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* End of pinning */

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

  start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_get_pending_interrupts_async,
                     (ThreadRead) agui_session_store_get_pending_interrupts, g_object_unref);
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
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_get_pending_interrupts_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agui_session_store_export_json_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the export
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.export_json] on the store's worker.
 */
void
agui_session_store_export_json_async (AguiSessionStore    *self,
                                      const char          *thread_id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_export_json_async,
                     (ThreadRead) agui_session_store_export_json, (GDestroyNotify) json_node_unref);
}

/**
 * agui_session_store_export_json_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the export, or %NULL on error
 */
JsonNode *
agui_session_store_export_json_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_export_json_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agui_session_store_export_markdown_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the text
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.export_markdown] on the store's worker.
 */
void
agui_session_store_export_markdown_async (AguiSessionStore    *self,
                                          const char          *thread_id,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_export_markdown_async,
                     (ThreadRead) agui_session_store_export_markdown, g_free);
}

/**
 * agui_session_store_export_markdown_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_markdown_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_export_markdown_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
import_json_job (AguiSessionStore *self,
                 GTask            *task,
                 gpointer          data)
{
  GError *error = NULL;
  char *thread_id = agui_session_store_import_json (self, data, &error);

  if (thread_id == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, thread_id, g_free);
}

/**
 * agui_session_store_import_json_async:
 * @self: a session store
 * @exported: an export made by [method@Agui.SessionStore.export_json]
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the new thread's id
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.import_json] on the store's worker: the
 * import is checked (its log folded) and written there. @exported is
 * copied first; the caller may change or drop it at once.
 */
void
agui_session_store_import_json_async (AguiSessionStore    *self,
                                      JsonNode            *exported,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (exported != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  /* A deep copy, so that no JSON the caller holds is touched by the worker. */
  start_job (self, cancellable, callback, user_data, agui_session_store_import_json_async,
             import_json_job, _agui_json_node_copy_deep (exported), (GDestroyNotify) json_node_unref);
}

/**
 * agui_session_store_import_json_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_json_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, agui_session_store_import_json_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
write_rows_job (AguiSessionStore *self,
                GTask            *task,
                gpointer          data)
{
  GError *error = NULL;

  if (write_rows (self, data, "Could not save the turn", &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
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

  start_job (self, cancellable, callback, user_data, _agui_session_store_write_rows_async,
             write_rows_job, _agui_turn_rows_ref (rows), (GDestroyNotify) _agui_turn_rows_unref);
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

  start_job (self, NULL, NULL, NULL, _agui_session_store_release_rows,
             release_rows_job, rows, (GDestroyNotify) _agui_turn_rows_unref);
}

gboolean
_agui_session_store_write_rows_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_write_rows_async), FALSE);

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

  start_job (self, cancellable, callback, user_data, _agui_session_store_list_thread_infos_async,
             list_thread_infos_job, NULL, NULL);
}

GPtrArray *
_agui_session_store_list_thread_infos_finish (AguiSessionStore  *self,
                                              GAsyncResult      *result,
                                              GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_list_thread_infos_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char *search;
  char *thread_id;
} Search;

static void
search_free (gpointer data)
{
  Search *search = data;

  g_free (search->search);
  g_free (search->thread_id);
  g_free (search);
}

static void
search_threads_job (AguiSessionStore *self,
                    GTask            *task,
                    gpointer          data)
{
  Search *search = data;
  GError *error = NULL;
  GHashTable *found = search_threads (self, search->search, search->thread_id, &error);

  if (found == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, found, (GDestroyNotify) g_hash_table_unref);
}

void
_agui_session_store_search_threads_async (AguiSessionStore    *self,
                                          const char          *search,
                                          const char          *thread_id,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  Search *data;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (search != NULL && search[0] != '\0');
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (Search, 1);
  data->search = g_strdup (search);
  data->thread_id = g_strdup (thread_id);
  start_job (self, cancellable, callback, user_data, _agui_session_store_search_threads_async,
             search_threads_job, data, search_free);
}

GHashTable *
_agui_session_store_search_threads_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_search_threads_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Test hooks */

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
  if (!(stmt = prepare (self, sql, "Could not cap the database", NULL)) ||
      sqlite3_step (stmt) != SQLITE_ROW)
    return -1;

  return sqlite3_column_int64 (stmt, 0);
}

/* Branches */

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

/* Every snapshot of the thread, in turn order, as
 * agui_session_store_get_last_snapshot() gives one; damaged ones are
 * skipped with a warning, as there. */
static JsonArray *
list_snapshots_locked (AguiSessionStore  *self,
                       const char        *thread_id,
                       const char        *what,
                       GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(JsonArray) snapshots = json_array_new ();
  g_autoptr(MessageReader) reader = NULL;
  int rc;

  if (!(stmt = prepare (self,
                        "SELECT " SNAPSHOT_COLUMNS " FROM snapshots WHERE thread_id = ?1 ORDER BY turn_index",
                        what, error)) ||
      !(reader = message_reader_new (self, thread_id, what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;
      JsonObject *snapshot = snapshot_from_row (reader, stmt, what, &local_error);

      if (snapshot == NULL)
        g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                   what, sqlite3_column_int (stmt, 3), local_error->message);
      else
        json_array_add_object_element (snapshots, snapshot);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&snapshots);
}

JsonArray *
_agui_session_store_list_snapshots (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the snapshots of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return list_snapshots_locked (self, thread_id, what, error);
}

/* The snapshots no other chains to, each the end of a branch, in turn
 * order; the one @chosen_id names (the thread's branch) is marked
 * `"chosen": true`, or the newest when it names none of them. */
static JsonArray *
branches_of (JsonArray  *snapshots,
             const char *chosen_id)
{
  g_autoptr(GHashTable) parents = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *leaves = json_array_new ();
  gboolean found = FALSE;

  for (guint i = 0; i < json_array_get_length (snapshots); i++)
    {
      JsonObject *snapshot = json_array_get_object_element (snapshots, i);
      const char *parent = json_object_get_string_member_with_default (snapshot, "parentId", NULL);

      if (parent != NULL)
        g_hash_table_add (parents, (gpointer) parent);
    }

  for (guint i = 0; i < json_array_get_length (snapshots); i++)
    {
      JsonObject *snapshot = json_array_get_object_element (snapshots, i);
      const char *id = json_object_get_string_member (snapshot, "id");

      if (g_hash_table_contains (parents, id))
        continue;

      json_object_set_boolean_member (snapshot, "chosen", g_strcmp0 (id, chosen_id) == 0);
      found |= g_strcmp0 (id, chosen_id) == 0;
      json_array_add_object_element (leaves, json_object_ref (snapshot));
    }

  if (!found && json_array_get_length (leaves) > 0)
    json_object_set_boolean_member (json_array_get_object_element (leaves, json_array_get_length (leaves) - 1),
                                    "chosen", TRUE);

  return leaves;
}

static JsonArray *
list_branches_locked (AguiSessionStore  *self,
                      const char        *thread_id,
                      const char        *what,
                      GError           **error)
{
  g_autoptr(JsonArray) snapshots = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *chosen = NULL;
  int rc;

  if (!(stmt = prepare (self, "SELECT branch FROM threads WHERE id = ?1", what, error)))
    return NULL;
  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    chosen = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  if (!(snapshots = list_snapshots_locked (self, thread_id, what, error)))
    return NULL;

  return branches_of (snapshots, chosen);
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
  g_autofree char *what = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the branches of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  return list_branches_locked (self, thread_id, what, error);
}

/* How many branches the thread has, without reading any snapshot's
 * messages: a restore reads them all only for a thread that forked. */
int
_agui_session_store_count_branches (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *what = NULL;
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), -1);
  g_return_val_if_fail (thread_id != NULL, -1);

  what = g_strdup_printf ("Could not count the branches of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = prepare (self,
                        "SELECT COUNT (*) FROM snapshots AS s WHERE s.thread_id = ?1 AND NOT EXISTS "
                        "(SELECT 1 FROM snapshots AS c WHERE c.thread_id = ?1 AND c.parent_id = s.id)",
                        what, error)))
    return -1;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
      return -1;
    }

  return sqlite3_column_int (stmt, 0);
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

  if (!(stmt = prepare (self,
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
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&times);
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

  if (!(stmt = prepare (self, "SELECT branch FROM threads WHERE id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (rc != SQLITE_DONE)
    set_sqlite_error (self, rc, what, error);

  return NULL;
}

/* The journal */

void
_agui_journal_rows_free (AguiJournalRows *rows)
{
  g_free (rows->thread_id);
  g_free (rows->snapshot_id);
  g_free (rows->title);
  g_free (rows->agent);
  g_clear_pointer (&rows->event_json, g_ptr_array_unref);
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
  if (!(upsert = prepare (self,
                          rows->first
                            ? "INSERT INTO threads (id, title, agent, created, updated) "
                              "VALUES (?1, ?2, ?3, ?4, " NEXT_UPDATED_SQL ") "
                              "ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, "
                              "agent = COALESCE (excluded.agent, agent)"
                            : "SELECT COUNT (*) FROM threads WHERE id = ?1",
                          what, error)) ||
      !(next_seq = prepare (self, "SELECT COALESCE (MAX (seq), -1) + 1 FROM journal WHERE thread_id = ?1",
                            what, error)) ||
      !(insert = prepare (self, "INSERT INTO journal (thread_id, seq, snapshot_id, json) VALUES (?1, ?2, ?3, ?4)",
                          what, error)))
    return FALSE;

  sqlite3_bind_text (upsert, 1, rows->thread_id, -1, SQLITE_STATIC);
  if (rows->first)
    {
      sqlite3_bind_text (upsert, 2, rows->title ? rows->title : "", -1, SQLITE_STATIC);
      sqlite3_bind_text (upsert, 3, rows->agent, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (upsert, 4, g_get_real_time ());
      if (!step_done (self, upsert, what, error))
        return FALSE;
    }
  else
    {
      if ((rc = sqlite3_step (upsert)) != SQLITE_ROW)
        {
          set_sqlite_error (self, rc, what, error);
          return FALSE;
        }
      if (sqlite3_column_int (upsert, 0) == 0)
        return TRUE;
    }

  sqlite3_bind_text (next_seq, 1, rows->thread_id, -1, SQLITE_STATIC);
  if ((rc = sqlite3_step (next_seq)) != SQLITE_ROW)
    {
      set_sqlite_error (self, rc, what, error);
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
      if (!step_done (self, insert, what, error))
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

  /* Not synced: what the journal guards against is the program dying,
   * which loses nothing the kernel was given, and a sync on a busy
   * disk can take longer than the quarter second a batch may wait.
   * The turn, once saved, is synced as ever. */
  g_mutex_lock (&self->mutex);
  sqlite3_exec (self->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
  written = exec_sql (self, "BEGIN IMMEDIATE", what, &error);
  if (written && !(written = append_journal_locked (self, rows, what, &error)))
    rollback (self);
  else if (written)
    written = commit (self, what, &error);
  sqlite3_exec (self->db, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
  g_mutex_unlock (&self->mutex);

  if (!written)
    {
      g_task_return_error (task, error);
      return;
    }

  if (rows->first)
    announce_change (self, rows->thread_id);
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

  start_job (self, cancellable, callback, user_data, _agui_session_store_append_journal_async,
             append_journal_job, rows, (GDestroyNotify) _agui_journal_rows_free);
}

gboolean
_agui_session_store_append_journal_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_append_journal_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

GPtrArray *
_agui_session_store_load_journal (AguiSessionStore  *self,
                                  const char        *thread_id,
                                  GStrv             *snapshot_ids,
                                  GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  g_autofree char *what = NULL;
  g_autofree char *last_id = NULL;
  int rc;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read what was kept of the unfinished answer in the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  if (!(stmt = prepare (self, "SELECT seq, snapshot_id, json FROM journal WHERE thread_id = ?1 ORDER BY seq",
                        what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *snapshot_id = (const char *) sqlite3_column_text (stmt, 1);
      const char *json = (const char *) sqlite3_column_text (stmt, 2);
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GError) local_error = NULL;
      AguiEventType type;

      if (g_strcmp0 (snapshot_id, last_id) != 0)
        {
          g_strv_builder_add (ids, snapshot_id);
          g_free (last_id);
          last_id = g_strdup (snapshot_id);
        }

      /* As in the log: a damaged row is skipped, not the thread */
      node = _agui_json_parse (json, sqlite3_column_bytes (stmt, 2), &local_error);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
          !agui_event_type_from_string (object_string (json_node_get_object (node), "type"), &type))
        {
          g_warning ("%s: skipped the kept event %" G_GINT64_FORMAT ", which is not an AG-UI event%s%s",
                     what, (gint64) sqlite3_column_int64 (stmt, 0),
                     local_error ? ": " : "", local_error ? local_error->message : "");
          continue;
        }

      g_ptr_array_add (events, _agui_event_new_trusted (type, json_node_dup_object (node)));
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  if (snapshot_ids != NULL)
    *snapshot_ids = g_strv_builder_end (ids);

  return g_steal_pointer (&events);
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
  if (!(stmt = prepare (self,
                        forget ? "DELETE FROM drafts WHERE thread_id = ?1"
                               : "INSERT INTO drafts (thread_id, text) VALUES (?1, ?2) "
                                 "ON CONFLICT (thread_id) DO UPDATE SET text = excluded.text",
                        what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  if (!forget)
    sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);

  return step_done (self, stmt, what, error);
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
  if (!(stmt = prepare (self, "SELECT text FROM drafts WHERE thread_id = ?1", what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, what, error);
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
  start_job (self, cancellable, callback, user_data, _agui_session_store_set_draft_async,
             set_draft_job, draft, (GDestroyNotify) draft_free);
}

gboolean
_agui_session_store_set_draft_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_set_draft_async), FALSE);

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

  start_read_thread (self, thread_id, cancellable, callback, user_data, _agui_session_store_dup_draft_async,
                     (ThreadRead) _agui_session_store_dup_draft, g_free);
}

char *
_agui_session_store_dup_draft_finish (AguiSessionStore  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  g_return_val_if_fail (job_is_valid (self, result, _agui_session_store_dup_draft_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The last snapshot as agui_session_store_get_last_snapshot() reads it,
 * but its messages only those that keep Tandem's own state: what a
 * restore takes from it, without reading every message of a long
 * thread */
JsonObject *
_agui_session_store_get_last_snapshot_for_restore (AguiSessionStore  *self,
                                                   const char        *thread_id,
                                                   GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;
  JsonObject *snapshot;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not read the last snapshot of the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  get_last_snapshot_locked (self, thread_id, FALSE, "\"" AGUI_TRANSCRIPT_LOCAL_STATE_KEY "\":",
                            &snapshot, what, error);
  return snapshot;
}
