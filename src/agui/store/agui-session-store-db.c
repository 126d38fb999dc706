/* agui-session-store-db.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>

#include "agui-session-store-db-private.h"

/* The SQL helpers every file of the store shares: statements, and
 * errors that say what failed. They sit below the store's other files
 * and call none of them. */

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
void
_agui_session_store_set_sqlite_error (AguiSessionStore  *self,
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

gboolean
_agui_session_store_exec (AguiSessionStore  *self,
                          const char        *sql,
                          const char        *what,
                          GError           **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

sqlite3_stmt *
_agui_session_store_prepare (AguiSessionStore  *self,
                             const char        *sql,
                             const char        *what,
                             GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

/* Prepares @sql with the thread's id bound to ?1, as most statements
 * of the store are keyed. */
sqlite3_stmt *
_agui_session_store_prepare_for_thread (AguiSessionStore  *self,
                                        const char        *sql,
                                        const char        *thread_id,
                                        const char        *what,
                                        GError           **error)
{
  sqlite3_stmt *stmt = _agui_session_store_prepare (self, sql, what, error);

  if (stmt != NULL)
    sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);

  return stmt;
}

/* Runs a statement that returns no rows. */
gboolean
_agui_session_store_step_done (AguiSessionStore  *self,
                               sqlite3_stmt      *stmt,
                               const char        *what,
                               GError           **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      sqlite3_reset (stmt);
      return FALSE;
    }

  sqlite3_reset (stmt);
  return TRUE;
}

/* Hands each row of @stmt to @row, in order. A row @row cannot use is
 * its own to skip: only a failed step stops the walk. */
gboolean
_agui_session_store_each_row (AguiSessionStore  *self,
                              sqlite3_stmt      *stmt,
                              AguiStoreRowFunc   row,
                              gpointer           user_data,
                              const char        *what,
                              GError           **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    row (stmt, user_data);

  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* The first column of @stmt's one row, as text; %NULL with no error
 * when it finds no row. */
gboolean
_agui_session_store_read_text (AguiSessionStore  *self,
                               sqlite3_stmt      *stmt,
                               char             **text,
                               const char        *what,
                               GError           **error)
{
  int rc = sqlite3_step (stmt);

  *text = NULL;
  if (rc == SQLITE_ROW)
    *text = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

void
_agui_session_store_rollback (AguiSessionStore *self)
{
  /* SQLite may already have rolled back by itself (after SQLITE_FULL,
   * SQLITE_IOERR...); a second ROLLBACK would only fail. */
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

gboolean
_agui_session_store_commit (AguiSessionStore  *self,
                            const char        *what,
                            GError           **error)
{
  if (!_agui_session_store_exec (self, "COMMIT", what, error))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  return TRUE;
}
