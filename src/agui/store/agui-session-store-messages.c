/* agui-session-store-messages.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-deflate-private.h"
#include "agui-session-store-messages-private.h"
#include "agui-transcript-private.h"

/* Messages, each stored once: how a snapshot names them */

/* The key of a message in the messages table: 63 bits of the SHA-1 of
 * its JSON, which no two messages of one thread share in practice */
gint64
_agui_session_store_message_hash (const char *json,
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
char *
_agui_session_store_print_message_delta (guint         keep,
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

guint
_agui_session_store_common_prefix (const GArray *a,
                                   const GArray *b)
{
  guint n = 0;

  while (n < a->len && n < b->len && g_array_index (a, gint64, n) == g_array_index (b, gint64, n))
    n++;

  return n;
}

/* Reading a thread's messages back: each message is stored once, and a
 * snapshot names the ones it keeps of its parent's and the ones it adds
 * (see _agui_session_store_print_message_delta()). */

void
_agui_message_reader_free (AguiMessageReader *reader)
{
  g_free (reader->thread_id);
  g_clear_pointer (&reader->snapshot, sqlite3_finalize);
  g_clear_pointer (&reader->lists, g_hash_table_unref);
  g_clear_pointer (&reader->nodes, g_hash_table_unref);
  g_clear_pointer (&reader->json, g_hash_table_unref);
  g_free (reader);
}


AguiMessageReader *
_agui_message_reader_new (AguiSessionStore  *self,
                          const char        *thread_id,
                          const char        *what,
                          GError           **error)
{
  g_autoptr(AguiMessageReader) reader = g_new0 (AguiMessageReader, 1);

  reader->store = self;
  reader->thread_id = g_strdup (thread_id);
  reader->lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  reader->nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) _agui_json_doc_value_free);

  if (!(reader->snapshot = _agui_session_store_prepare (self, "SELECT parent_id, messages FROM snapshots WHERE id = ?1", what, error)))
    return NULL;

  if (self->last_hashes_id != NULL)
    g_hash_table_insert (reader->lists, g_strdup (self->last_hashes_id), g_array_ref (self->last_hashes));

  return g_steal_pointer (&reader);
}

/* A snapshot written before schema 5 (or by hand) holds its messages:
 * they are taken as they are, and known by the hashes of their JSON */
static GArray *
hashes_of_array (AguiMessageReader   *reader,
                 const AguiJsonValue *messages)
{
  GArray *hashes = g_array_sized_new (FALSE, FALSE, sizeof (gint64), _agui_json_doc_get_length (messages));

  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      /* Compact, where the messages table's rows are indented: these
       * hashes name no row of it */
      g_autofree char *json = _agui_json_value_to_string (message, FALSE, NULL);
      gint64 hash = _agui_session_store_message_hash (json ?: "", -1);

      g_array_append_val (hashes, hash);
      g_hash_table_replace (reader->nodes, g_memdup2 (&hash, sizeof hash), _agui_json_doc_value_dup (message));
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
GArray *
_agui_message_reader_hashes (AguiMessageReader  *reader,
                             const char         *snapshot_id,
                             const char         *what,
                             GError            **error)
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
          _agui_session_store_set_sqlite_error (reader->store, rc, what, error);
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
          g_auto(AguiJsonValue) messages = AGUI_JSON_VALUE_INIT;

          if (!_agui_json_doc_parse (text, sqlite3_column_bytes (reader->snapshot, 1), &messages, NULL) ||
              messages.kind != AGUI_JSON_DOC_ARRAY)
            {
              sqlite3_reset (reader->snapshot);
              g_free (parent);
              g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                           "%s: the stored messages of a snapshot are damaged", what);
              return NULL;
            }
          delta->whole = hashes_of_array (reader, &messages);
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
message_reader_load_all (AguiMessageReader  *reader,
                         const char         *what,
                         GError            **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (reader->json != NULL)
    return TRUE;

  /* With a filter, SQLite passes over the others: a restore wants the
   * few messages that hold Tandem's own state, not a long thread's text */
  if (!(stmt = _agui_session_store_prepare (reader->store,
                                            reader->filter != NULL
                                              ? "SELECT hash, json FROM messages WHERE thread_key = " THREAD_KEY_SQL
                                                " AND instr (json, ?2) > 0"
                                              : "SELECT hash, json FROM messages WHERE thread_key = " THREAD_KEY_SQL,
                                            what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, reader->thread_id, -1, SQLITE_STATIC);
  if (reader->filter != NULL)
    sqlite3_bind_text (stmt, 2, reader->filter, -1, SQLITE_STATIC);
  reader->json = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 hash = sqlite3_column_int64 (stmt, 0);
      char *inflated = NULL;
      const char *json;
      gsize length;

      /* A row that does not inflate is a message that is not valid JSON */
      if (!(json = _agui_session_store_column_json (stmt, 1, &length, &inflated, NULL)))
        json = "";
      g_hash_table_replace (reader->json, g_memdup2 (&hash, sizeof hash),
                            inflated != NULL ? inflated : g_strndup (json, length));
    }

  if (rc != SQLITE_DONE)
    {
      g_clear_pointer (&reader->json, g_hash_table_unref);
      _agui_session_store_set_sqlite_error (reader->store, rc, what, error);
      return FALSE;
    }

  return TRUE;
}

/* The messages @hashes name, as a new array in @messages (null before) */
gboolean
_agui_message_reader_messages (AguiMessageReader  *reader,
                               const GArray       *hashes,
                               AguiJsonValue      *messages,
                               const char         *what,
                               GError            **error)
{
  g_autoptr(GString) missing = g_string_new ("[");
  g_autoptr(GArray) missing_hashes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_auto(AguiJsonValue) parsed = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *array;

  /* The messages not read yet are parsed together, as one array */
  for (guint i = 0; i < hashes->len; i++)
    {
      gint64 hash = g_array_index (hashes, gint64, i);
      const char *json;

      if (g_hash_table_contains (reader->nodes, &hash))
        continue;
      if (!message_reader_load_all (reader, what, error))
        return FALSE;
      /* A message the filter passed over was not read */
      if (!(json = g_hash_table_lookup (reader->json, &hash)) && reader->filter != NULL)
        continue;
      if (json == NULL)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: a stored message is missing", what);
          return FALSE;
        }
      if (missing_hashes->len > 0)
        g_string_append_c (missing, ',');
      g_string_append (missing, json);
      g_array_append_val (missing_hashes, hash);
      /* Once, though a list may name a message twice */
      g_hash_table_insert (reader->nodes, g_memdup2 (&hash, sizeof hash), g_new0 (AguiJsonValue, 1));
    }
  g_string_append_c (missing, ']');

  if (missing_hashes->len > 0)
    {
      if (!_agui_json_doc_parse (missing->str, missing->len, &parsed, NULL) ||
          _agui_json_doc_get_length (&parsed) != missing_hashes->len)
        {
          for (guint i = 0; i < missing_hashes->len; i++)
            g_hash_table_remove (reader->nodes, &g_array_index (missing_hashes, gint64, i));
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: a stored message is not valid JSON", what);
          return FALSE;
        }

      for (guint i = 0; i < missing_hashes->len; i++)
        _agui_json_value_move (g_hash_table_lookup (reader->nodes, &g_array_index (missing_hashes, gint64, i)),
                               _agui_json_doc_get_element (&parsed, i));
    }

  array = _agui_json_value_set_array (messages, hashes->len);
  for (guint i = 0; i < hashes->len; i++)
    {
      AguiJsonValue *stored = g_hash_table_lookup (reader->nodes, &g_array_index (hashes, gint64, i));
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

      /* A message the filter passed over is left out */
      if (stored == NULL)
        continue;
      _agui_json_value_copy (&copy, stored);
      _agui_json_array_insert (array, _agui_json_array_get_length (array), &copy);
    }

  return TRUE;
}

gboolean
_agui_session_store_insert_message (AguiSessionStore  *self,
                                    sqlite3_stmt      *insert,
                                    const char        *thread_id,
                                    gint64             hash,
                                    const char        *json,
                                    gboolean           deflate,
                                    const char        *what,
                                    GError           **error)
{
  g_autoptr(GBytes) deflated = NULL;

  /* A message that keeps Tandem's own state stays text: a restore finds
   * those few by looking into the rows (see
   * _agui_session_store_get_last_snapshot_for_restore()) */
  if (deflate && strstr (json, "\"" AGUI_TRANSCRIPT_LOCAL_STATE_KEY "\":") == NULL)
    deflated = _agui_session_store_deflate (json, strlen (json));

  sqlite3_bind_text (insert, 1, thread_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 2, hash);
  if (deflated != NULL)
    sqlite3_bind_blob (insert, 3, g_bytes_get_data (deflated, NULL), g_bytes_get_size (deflated), SQLITE_STATIC);
  else
    sqlite3_bind_text (insert, 3, json, -1, SQLITE_STATIC);

  return _agui_session_store_step_done (self, insert, what, error);
}
