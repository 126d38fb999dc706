/* agui-session-store-search.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-session-store-db-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-text-private.h"

/* Searching the threads' messages, with a snippet around each match */

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
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  const char *what = "Could not search the threads";
  g_autofree char *folded_needle = _agui_session_store_fold_text (search);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) found = NULL;
  int rc;

  /* In the order they were said: the snippet is the first match */
  if (!(stmt = _agui_session_store_prepare (self,
                                            "SELECT t.id, agui_message_text (m.json) FROM messages m "
                                            "JOIN threads t ON t.key = m.thread_key "
                                            "WHERE (?2 IS NULL OR t.id = ?2) AND agui_text_matches (m.json, ?3) "
                                            "AND agui_text_matches (agui_message_text (m.json), ?1) ORDER BY m.rowid",
                                            what, error)))
    return NULL;

  sqlite3_bind_text (stmt, 1, search, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, _agui_session_store_raw_needle (search), -1, SQLITE_STATIC);

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
      _agui_session_store_set_sqlite_error (self, rc, what, error);
      return NULL;
    }

  return g_steal_pointer (&found);
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

  _agui_session_store_return_pointer (task, found, (GDestroyNotify) g_hash_table_unref, error);
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
  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_search_threads_async,
                                 search_threads_job, data, search_free);
}

GHashTable *
_agui_session_store_search_threads_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, _agui_session_store_search_threads_async, error);
}
