/* agui-store-guard.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-store-guard-private.h"
#include "agui-types.h"

/* A store file comes from anywhere (a backup, a download, another
 * machine), and SQLite keeps code in it: views and triggers run when a
 * table is used, and expressions in a schema run on every read or
 * write. Tandem makes no views or triggers, so a store is opened for
 * data only: SQLite is told not to run any, and the schema must be
 * the one Tandem's migrations make, token for token, or the file is refused
 * before anything reads a table. What slips past both (a damaged file
 * SQLite loops over) is interrupted by the clock. */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3, sqlite3_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* How many virtual machine steps between two looks at the clock: a
 * fraction of a millisecond. */
#define PROGRESS_STEPS 1000

/* What ANALYZE makes, which is data too (statistics for the planner):
 * a store someone analyzed with the sqlite3 shell stays usable. */
static const struct
{
  const char *name;
  const char *sql;
} sqlite_tables[] = {
  { "sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)" },
  { "sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)" },
};

void
_agui_store_guard_init (AguiStoreGuard *guard,
                        gint64          statement_limit_us)
{
  g_return_if_fail (guard != NULL);
  g_return_if_fail (statement_limit_us > 0);

  guard->statement_limit_us = statement_limit_us;
  guard->statement_started = g_get_monotonic_time ();
}

static int
on_progress (void *data)
{
  AguiStoreGuard *guard = data;

  return g_get_monotonic_time () - guard->statement_started > guard->statement_limit_us;
}

/* Every statement starts its own clock; a statement another one's rows
 * drive restarts it, so only a single statement that loops is stopped. */
static int
on_trace (unsigned int  type,
          void         *data,
          void         *statement,
          void         *sql)
{
  AguiStoreGuard *guard = data;

  if (type == SQLITE_TRACE_STMT)
    guard->statement_started = g_get_monotonic_time ();

  return 0;
}

/* Fails (naming the option) rather than run on without a guard. */
static gboolean
set_flag (sqlite3     *db,
          int          option,
          int          value,
          const char  *name,
          GError     **error)
{
  int now = -1;

  if (sqlite3_db_config (db, option, value, &now) != SQLITE_OK || now != value)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "this SQLite cannot set %s, which keeps a store file from running code", name);
      return FALSE;
    }

  return TRUE;
}

gboolean
_agui_store_guard_harden (AguiStoreGuard  *guard,
                          sqlite3         *db,
                          GError         **error)
{
  g_return_val_if_fail (guard != NULL, FALSE);
  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* DEFENSIVE forbids what could damage the file on purpose (writing
   * sqlite_schema, journal_mode=OFF); trusted_schema off keeps
   * functions with side effects out of the schema's expressions; and
   * as Tandem makes no view or trigger, none may run. */
  if (!set_flag (db, SQLITE_DBCONFIG_DEFENSIVE, 1, "SQLITE_DBCONFIG_DEFENSIVE", error) ||
      !set_flag (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "trusted_schema = OFF", error) ||
      !set_flag (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, "SQLITE_DBCONFIG_ENABLE_VIEW", error) ||
      !set_flag (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "SQLITE_DBCONFIG_ENABLE_TRIGGER", error))
    return FALSE;

  guard->statement_started = g_get_monotonic_time ();
  sqlite3_trace_v2 (db, SQLITE_TRACE_STMT, on_trace, guard);
  sqlite3_progress_handler (db, PROGRESS_STEPS, on_progress, guard);

  return TRUE;
}

/* Schema */

typedef struct
{
  char *type;
  char *name;
  char *table;
  char *sql;
} SchemaObject;

static void
schema_object_free (gpointer data)
{
  SchemaObject *object = data;

  g_free (object->type);
  g_free (object->name);
  g_free (object->table);
  g_free (object->sql);
  g_free (object);
}

static char *
dup_column (sqlite3_stmt *stmt,
            int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);

  return text != NULL ? g_strndup (text, sqlite3_column_bytes (stmt, column)) : NULL;
}

/* Text read from the file, fit for a message: escaped, cut short, and
 * quoted if it is a name. */
static char *
quote_text (const char *text,
            gboolean    quoted)
{
  g_autofree char *escaped = g_strescape (text != NULL ? text : "", NULL);
  const char *quote = quoted ? "\"" : "";

  if (strlen (escaped) > 64)
    return g_strdup_printf ("%s%.64s…%s", quote, escaped, quote);

  return g_strdup_printf ("%s%s%s", quote, escaped, quote);
}

static void
set_sqlite_error (sqlite3     *db,
                  int          rc,
                  int         *sqlite_code,
                  GError     **error)
{
  *sqlite_code = rc;
  if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "the database file is damaged (%s)", sqlite3_errmsg (db));
  else if ((rc & 0xff) == SQLITE_INTERRUPT)
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "reading its schema took too long: the file is damaged");
  else
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "cannot read its schema: %s", sqlite3_errmsg (db));
}

static GPtrArray *
read_schema (sqlite3  *db,
             int      *sqlite_code,
             GError  **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (schema_object_free);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT type, name, tbl_name, sql FROM sqlite_master", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_sqlite_error (db, rc, sqlite_code, error);
      return NULL;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      SchemaObject *object = g_new0 (SchemaObject, 1);

      object->type = dup_column (stmt, 0);
      object->name = dup_column (stmt, 1);
      object->table = dup_column (stmt, 2);
      object->sql = dup_column (stmt, 3);
      g_ptr_array_add (objects, object);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (db, rc, sqlite_code, error);
      return NULL;
    }

  return g_steal_pointer (&objects);
}

/* The schema the first @version migrations make, made in memory by this
 * SQLite: the file's must be the same, but for layout. */
static GPtrArray *
expected_schema (const char * const  *migrations,
                 int                  version,
                 GError             **error)
{
  g_autoptr(sqlite3) db = NULL;
  int sqlite_code;

  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "cannot make its expected schema: out of memory");
      return NULL;
    }

  for (int i = 0; i < version; i++)
    {
      if (sqlite3_exec (db, migrations[i], NULL, NULL, NULL) != SQLITE_OK)
        {
          g_critical ("Migration %d does not run: %s", i + 1, sqlite3_errmsg (db));
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "cannot make its expected schema: %s",
                       sqlite3_errmsg (db));
          return NULL;
        }
    }

  return read_schema (db, &sqlite_code, error);
}

static gboolean
is_sql_punctuation (char c)
{
  return c == '(' || c == ')' || c == ',' || c == ';';
}

/* The text of a definition with its layout taken out: whitespace
 * outside quotes is one space, and none beside punctuation. SQLite keeps
 * a definition as it was written and splices added columns into it, so
 * another SQLite version may have laid out the same schema otherwise;
 * the tokens are what must match. */
static char *
normalize_sql (const char *sql)
{
  GString *out;
  gboolean space = FALSE;
  char quote = '\0';

  if (sql == NULL)
    return NULL;

  out = g_string_sized_new (strlen (sql));
  for (const char *p = sql; *p != '\0'; p++)
    {
      if (quote != '\0')
        {
          g_string_append_c (out, *p);
          if (*p == quote)
            quote = '\0';
          continue;
        }

      if (g_ascii_isspace (*p))
        {
          space = TRUE;
          continue;
        }

      if (space && out->len > 0 && !is_sql_punctuation (out->str[out->len - 1]) && !is_sql_punctuation (*p))
        g_string_append_c (out, ' ');
      space = FALSE;

      g_string_append_c (out, *p);
      if (*p == '\'' || *p == '"' || *p == '`')
        quote = *p;
      else if (*p == '[')
        quote = ']';
    }

  return g_string_free (out, FALSE);
}

static gboolean
same_sql (const char *found,
          const char *want)
{
  g_autofree char *found_normal = normalize_sql (found);
  g_autofree char *want_normal = normalize_sql (want);

  return g_strcmp0 (found_normal, want_normal) == 0;
}

static gboolean
is_sqlite_table (SchemaObject *object)
{
  for (guint i = 0; i < G_N_ELEMENTS (sqlite_tables); i++)
    {
      if (g_strcmp0 (object->type, "table") == 0 &&
          g_strcmp0 (object->name, sqlite_tables[i].name) == 0 &&
          g_strcmp0 (object->table, sqlite_tables[i].name) == 0 &&
          same_sql (object->sql, sqlite_tables[i].sql))
        return TRUE;
    }

  return FALSE;
}

static SchemaObject *
find_object (GPtrArray  *objects,
             const char *name)
{
  for (guint i = 0; i < objects->len; i++)
    {
      SchemaObject *object = g_ptr_array_index (objects, i);

      if (g_strcmp0 (object->name, name) == 0)
        return object;
    }

  return NULL;
}

/* Checks that the file's schema is one Tandem makes: @version (the
 * file's `PRAGMA user_version`) is a version Tandem knows, and
 * sqlite_schema holds exactly the tables and indexes the first @version
 * of @migrations made, each defined by the same tokens. Reads
 * sqlite_schema only, so no table or view in the file is used before it
 * is known to be Tandem's. @sqlite_code is SQLite's result code if it
 * failed to read the schema, else SQLITE_OK. */
gboolean
_agui_store_guard_check_schema (sqlite3             *db,
                                const char * const  *migrations,
                                int                  n_migrations,
                                int                  version,
                                int                 *sqlite_code,
                                GError             **error)
{
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GHashTable) seen = NULL;

  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (migrations != NULL, FALSE);
  g_return_val_if_fail (sqlite_code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *sqlite_code = SQLITE_OK;
  if (version < 0)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "its schema version is %d, which no version of Tandem writes: "
                   "the file is damaged or is not a Tandem store", version);
      return FALSE;
    }

  if (version > n_migrations)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "the database was written by a newer version of Tandem "
                   "(schema version %d; this version knows up to %d)",
                   version, n_migrations);
      return FALSE;
    }

  if (!(found = read_schema (db, sqlite_code, error)) ||
      !(expected = expected_schema (migrations, version, error)))
    return FALSE;

  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < found->len; i++)
    {
      SchemaObject *object = g_ptr_array_index (found, i);
      SchemaObject *want = find_object (expected, object->name);
      g_autofree char *name = quote_text (object->name, TRUE);
      g_autofree char *type = quote_text (object->type, FALSE);

      if (want == NULL && is_sqlite_table (object))
        continue;

      if (want == NULL && version == 0)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "the file is a database but not a Tandem store: it has no schema version "
                       "and holds the %s %s", type, name);
          return FALSE;
        }

      if (want == NULL)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "it holds the %s %s, which Tandem does not make "
                       "(a store holds only Tandem's own tables and indexes)", type, name);
          return FALSE;
        }

      if (g_strcmp0 (object->type, want->type) != 0)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "its %s is a %s where Tandem makes a %s: the file is not a Tandem store",
                       name, type, want->type);
          return FALSE;
        }

      if (g_strcmp0 (object->table, want->table) != 0 || !same_sql (object->sql, want->sql) ||
          g_hash_table_contains (seen, want->name))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "its %s %s is not defined as Tandem defines it at schema version %d: "
                       "the file is not a Tandem store", want->type, name, version);
          return FALSE;
        }

      g_hash_table_add (seen, want->name);
    }

  for (guint i = 0; i < expected->len; i++)
    {
      SchemaObject *want = g_ptr_array_index (expected, i);

      if (!g_hash_table_contains (seen, want->name))
        {
          g_autofree char *name = quote_text (want->name, TRUE);

          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "its %s %s, part of schema version %d, is missing: "
                       "the file is damaged or is not a Tandem store", want->type, name, version);
          return FALSE;
        }
    }

  return TRUE;
}
