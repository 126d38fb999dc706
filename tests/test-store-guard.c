/* test-store-guard.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "agui.h"
#include "agui-store-guard-private.h"

/* Store files crafted with SQLite itself, as someone who wants to hurt
 * Tandem would: each is refused with a message naming the file, or read,
 * and never runs what it holds. */

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
set_up (Fixture       *f,
        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("store-guard-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "tandem.db", NULL);
}

static void
tear_down (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);

  g_free (f->path);
  g_free (f->dir);
}

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static gint64
sql_int (const char *path,
         const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

/* The schema version this Tandem writes: what a new store gets */
static gint64
latest_version (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("store-guard-latest-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(AguiSessionStore) store = NULL;
  gint64 version;

  g_assert_no_error (error);
  path = g_build_filename (dir, "new.db", NULL);
  store = agui_session_store_new (path, &error);
  g_assert_no_error (error);
  g_clear_object (&store);
  version = sql_int (path, "PRAGMA user_version");
  g_unlink (path);
  g_rmdir (dir);

  return version;
}

/* A real store with one thread, closed again. */
static void
make_store (const char *path)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = agui_session_store_new (path, &error);
  g_assert_no_error (error);
  g_assert_true (agui_session_store_create_thread (store, "t1", "Kept", "demo", &error));
  g_assert_no_error (error);
}

/* Opening @path fails, naming the file and saying @reason; nothing in it
 * changed. */
static void
assert_refused (const char *path,
                const char *reason)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize before_length, after_length;

  g_assert_true (g_file_get_contents (path, &before, &before_length, NULL));

  store = agui_session_store_new (path, &error);
  g_assert_null (store);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "Could not open the session store at "));
  g_assert_nonnull (strstr (error->message, path));
  if (strstr (error->message, reason) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, reason);

  g_assert_true (g_file_get_contents (path, &after, &after_length, NULL));
  g_assert_cmpmem (before, before_length, after, after_length);
}

static void
test_version_negative (Fixture       *f,
                       gconstpointer  data)
{
  g_test_summary ("A negative schema version (-1 read migrations[-1]) is refused, as is INT_MIN");

  make_store (f->path);
  sql_exec (f->path, "PRAGMA user_version = -1");
  assert_refused (f->path, "schema version is -1, which no version of Tandem writes");

  sql_exec (f->path, "PRAGMA user_version = -2147483648");
  assert_refused (f->path, "schema version is -2147483648");
}

static void
test_version_newer (Fixture       *f,
                    gconstpointer  data)
{
  g_test_summary ("A version from the future is refused as written by a newer Tandem");

  make_store (f->path);
  sql_exec (f->path, "PRAGMA user_version = 2147483647");
  assert_refused (f->path, "newer version of Tandem (schema version 2147483647; this version knows up to ");
}

static void
test_version_older_mismatch (Fixture       *f,
                             gconstpointer  data)
{
  g_test_summary ("A store whose version is older than its tables says so, not a raw SQLite message");

  make_store (f->path);
  sql_exec (f->path, "PRAGMA user_version = 0");
  assert_refused (f->path, "not a Tandem store: it has no schema version and holds the table \"");

  sql_exec (f->path, "PRAGMA user_version = 1");
  assert_refused (f->path, "is not defined as Tandem defines it at schema version 1");

  sql_exec (f->path, "PRAGMA user_version = 2");
  assert_refused (f->path, "is not defined as Tandem defines it at schema version 2");
}

static void
test_foreign_database (Fixture       *f,
                       gconstpointer  data)
{
  g_test_summary ("Another program's database is not taken for a new store");

  sql_exec (f->path, "CREATE TABLE contacts (name TEXT)");
  assert_refused (f->path, "not a Tandem store: it has no schema version and holds the table \"contacts\"");
}

/* Version 1 as Tandem 1 wrote it: migrations never change once shipped,
 * so this copy is what old stores hold. */
static const char version_1[] =
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
  ");"
  "PRAGMA user_version = 1;";

static void
test_old_versions_migrate (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(JsonArray) threads = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Real stores of schema versions 1 and 2 still open and move to the latest version");

  sql_exec (f->path, version_1);
  sql_exec (f->path, "INSERT INTO threads (id, title, created, updated) VALUES ('old', 'From version 1', 1, 1)");

  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  threads = agui_session_store_list_threads (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (threads), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 0), "title"), ==,
                   "From version 1");
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, latest_version ());

  g_unlink (f->path);
  sql_exec (f->path, version_1);
  sql_exec (f->path, "CREATE TABLE search_text ("
                     "  thread_id TEXT PRIMARY KEY NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
                     "  text TEXT NOT NULL"
                     ");"
                     "PRAGMA user_version = 2;");
  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, latest_version ());
}

/* Versions 2 to 5 over version 1, as those Tandems wrote them */
static const char versions_2_to_5[] =
  "CREATE TABLE search_text ("
  "  thread_id TEXT PRIMARY KEY NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  text TEXT NOT NULL"
  ");"
  "ALTER TABLE threads ADD COLUMN branch TEXT;"
  "ALTER TABLE snapshots ADD COLUMN run_id TEXT;"
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
  ");"
  "CREATE TABLE messages ("
  "  thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,"
  "  hash INTEGER NOT NULL,"
  "  json TEXT NOT NULL,"
  "  PRIMARY KEY (thread_id, hash)"
  ");"
  "DROP TABLE search_text;"
  "PRAGMA user_version = 5;";

static void
test_version_5_pins (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A store of schema version 5 opens, its threads unpinned, and a pin is kept across a reopening");

  sql_exec (f->path, version_1);
  sql_exec (f->path, versions_2_to_5);
  sql_exec (f->path, "INSERT INTO threads (id, title, created, updated) VALUES ('old', 'From version 5', 1, 1)");

  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, latest_version ());
  g_assert_cmpint (sql_int (f->path, "SELECT pinned FROM threads WHERE id = 'old'"), ==, 0);

  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  g_assert_true (agui_session_store_set_thread_pinned (store, "old", TRUE, &error));
  g_assert_no_error (error);
  g_assert_false (agui_session_store_set_thread_pinned (store, "missing", TRUE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "SELECT pinned FROM threads WHERE id = 'old'"), ==, 1);

  /* The migrated schema is the one a new store gets: it opens again */
  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  g_assert_true (agui_session_store_set_thread_pinned (store, "old", FALSE, &error));
  g_assert_no_error (error);
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "SELECT pinned FROM threads WHERE id = 'old'"), ==, 0);
}

static void
test_layout (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) sql = g_string_new (version_1);

  g_test_summary ("A schema laid out otherwise (another SQLite splices columns in its own way) "
                  "still opens; one token more does not");

  g_string_replace (sql, " (", "(\n    ", 0);
  g_string_replace (sql, ",", " ,\t", 0);
  sql_exec (f->path, sql->str);

  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  g_clear_object (&store);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, latest_version ());

  /* "position INTEGER" made "position INTEGER UNIQUE": a token more */
  g_unlink (f->path);
  g_string_assign (sql, version_1);
  g_string_replace (sql, "position INTEGER", "position INTEGER UNIQUE", 0);
  sql_exec (f->path, sql->str);
  assert_refused (f->path, "its table \"interrupts\" is not defined as Tandem defines it at schema version 1");
}

static void
test_recursive_view (Fixture       *f,
                     gconstpointer  data)
{
  g_test_summary ("A threads table replaced by an endless recursive view is refused, not run");

  make_store (f->path);
  sql_exec (f->path,
            "DROP TABLE threads;"
            "CREATE VIEW threads (id, title, agent, created, updated, branch) AS "
            "  WITH RECURSIVE n (x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
            "  SELECT x, 'loop', NULL, x, x, NULL FROM n;");
  assert_refused (f->path, "its \"threads\" is a view where Tandem makes a table");
}

static void
test_trigger (Fixture       *f,
              gconstpointer  data)
{
  g_test_summary ("A trigger in a store file is refused before any save could run it");

  make_store (f->path);
  sql_exec (f->path,
            "CREATE TRIGGER on_save AFTER UPDATE ON threads "
            "BEGIN UPDATE threads SET title = 'Taken over'; END;");
  assert_refused (f->path, "holds the trigger \"on_save\", which Tandem does not make");
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads WHERE title = 'Kept'"), ==, 1);
}

static void
test_changed_definitions (Fixture       *f,
                          gconstpointer  data)
{
  gint64 latest = latest_version ();
  g_autofree char *missing = g_strdup_printf ("its index \"threads_by_updated\", part of schema version %"
                                              G_GINT64_FORMAT ", is missing", latest);
  g_autofree char *changed = g_strdup_printf ("its table \"interrupts\" is not defined as Tandem defines it "
                                              "at schema version %" G_GINT64_FORMAT, latest);

  g_test_summary ("A Tandem table defined otherwise, an extra index or a missing one is refused");

  make_store (f->path);
  sql_exec (f->path, "CREATE INDEX slow ON log (length (printf ('%.*c', 100000000, 'x')))");
  assert_refused (f->path, "holds the index \"slow\", which Tandem does not make");

  sql_exec (f->path, "DROP INDEX slow; DROP INDEX threads_by_updated");
  assert_refused (f->path, missing);

  sql_exec (f->path,
            "CREATE INDEX threads_by_updated ON threads (updated);"
            "ALTER TABLE interrupts RENAME TO old_interrupts;"
            "CREATE TABLE interrupts (thread_id TEXT, position INTEGER, json TEXT "
            "  CHECK (length (printf ('%.*c', 100000000, 'x'))));"
            "DROP TABLE old_interrupts;");
  assert_refused (f->path, changed);
}

static void
test_analyzed_store (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(JsonArray) threads = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A store someone ran ANALYZE on (the planner's statistics are data) still opens");

  make_store (f->path);
  sql_exec (f->path, "ANALYZE");
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM sqlite_master WHERE name = 'sqlite_stat1'"), ==, 1);

  store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  threads = agui_session_store_list_threads (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (threads), ==, 1);

  /* Deleting still cascades, with triggers switched off. */
  g_assert_true (agui_session_store_delete_thread (store, "t1", &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads"), ==, 0);
}

static void
test_harden (void)
{
  AguiStoreGuard guard;
  sqlite3 *db = NULL;
  g_autoptr(GError) error = NULL;
  int value = -1;
  int rc;

  g_test_summary ("A hardened connection is defensive, trusts no schema, runs no view or trigger, "
                  "and stops a statement that runs on");

  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  _agui_store_guard_init (&guard, G_USEC_PER_SEC / 10);
  g_assert_true (_agui_store_guard_harden (&guard, db, &error));
  g_assert_no_error (error);

  g_assert_cmpint (sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, -1, &value), ==, SQLITE_OK);
  g_assert_cmpint (value, ==, 1);
  g_assert_cmpint (sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &value), ==, SQLITE_OK);
  g_assert_cmpint (value, ==, 0);

  g_assert_cmpint (sqlite3_exec (db, "CREATE VIEW v AS SELECT 1", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "SELECT * FROM v", NULL, NULL, NULL), ==, SQLITE_ERROR);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA writable_schema = ON; "
                                     "UPDATE sqlite_master SET sql = 'x'", NULL, NULL, NULL), !=, SQLITE_OK);

  rc = sqlite3_exec (db, "WITH RECURSIVE n (x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                         "SELECT COUNT (*) FROM n", NULL, NULL, NULL);
  g_assert_cmpint (rc, ==, SQLITE_INTERRUPT);

  /* The next statement starts its own clock. */
  g_assert_cmpint (sqlite3_exec (db, "SELECT 1", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* The same files through the command line */

static char *
run_cli (int         *status,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, err, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  *status = g_subprocess_get_exit_status (process);

  return out;
}

static void
assert_cli_refuses (const char *path,
                    const char *reason)
{
  const char *commands[][2] = { { "threads", NULL }, { "show", "t1" } };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status;

      if (commands[i][1] != NULL)
        out = run_cli (&status, &err, commands[i][0], commands[i][1], "--store", path, NULL);
      else
        out = run_cli (&status, &err, commands[i][0], "--store", path, NULL);
      g_assert_cmpint (status, ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, path));
      if (strstr (err, reason) == NULL)
        g_error ("%s said \"%s\", not \"%s\"", commands[i][0], err, reason);
    }
}

static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  g_autofree char *sql = NULL;

  g_test_summary ("threads and show --store refuse crafted stores with the same clear errors");

  make_store (f->path);
  out = run_cli (&status, &err, "threads", "--store", f->path, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "t1"));

  sql_exec (f->path, "PRAGMA user_version = -1");
  assert_cli_refuses (f->path, "schema version is -1");

  sql = g_strdup_printf ("PRAGMA user_version = %" G_GINT64_FORMAT ";"
                         "DROP TABLE threads;"
                         "CREATE VIEW threads (id, title, agent, created, updated, branch) AS "
                         "  WITH RECURSIVE n (x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                         "  SELECT x, 'loop', NULL, x, x, NULL FROM n;", latest_version ());
  sql_exec (f->path, sql);
  assert_cli_refuses (f->path, "is a view where Tandem makes a table");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD_TEST(path, fn) g_test_add (path, Fixture, NULL, set_up, fn, tear_down)

  ADD_TEST ("/agui/store-guard/version/negative", test_version_negative);
  ADD_TEST ("/agui/store-guard/version/newer", test_version_newer);
  ADD_TEST ("/agui/store-guard/version/older-than-tables", test_version_older_mismatch);
  ADD_TEST ("/agui/store-guard/version/old-stores-migrate", test_old_versions_migrate);
  ADD_TEST ("/agui/store-guard/version/5-pins", test_version_5_pins);
  ADD_TEST ("/agui/store-guard/schema/foreign-database", test_foreign_database);
  ADD_TEST ("/agui/store-guard/schema/layout", test_layout);
  ADD_TEST ("/agui/store-guard/schema/recursive-view", test_recursive_view);
  ADD_TEST ("/agui/store-guard/schema/trigger", test_trigger);
  ADD_TEST ("/agui/store-guard/schema/changed-definitions", test_changed_definitions);
  ADD_TEST ("/agui/store-guard/schema/analyzed", test_analyzed_store);
  g_test_add_func ("/agui/store-guard/harden", test_harden);
  ADD_TEST ("/tandem-cli/store-guard", test_cli);

#undef ADD_TEST

  return g_test_run ();
}
