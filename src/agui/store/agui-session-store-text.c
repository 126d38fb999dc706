/* agui-session-store-text.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-deflate-private.h"
#include "agui-session-store-text-private.h"

/* What a search looks at and how it compares: the text of stored
 * messages, folded for any script, and the SQL functions the store's
 * queries call. Nothing here knows the store: a migration and the search
 * share it. */

char *
_agui_session_store_fold_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *normalized = g_utf8_normalize (valid, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normalized, -1);
}

/* agui_message_text (json): the text of a stored message that a search
 * looks at (see _agui_session_store_search_text_for()), or NULL if it does
 * not parse: one damaged row never fails a search. */
static char *search_text (const AguiJsonValue *value,
                          guint                depth);

static void
message_text_func (sqlite3_context  *context,
                   int               argc,
                   sqlite3_value   **argv)
{
  g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;
  g_autofree char *inflated = NULL;
  const char *json;
  gsize length;

  g_assert (argc == 1);

  if (!(json = _agui_session_store_value_json (argv[0], &length, &inflated, NULL)) ||
      !_agui_json_doc_parse (json, length, &message, NULL))
    {
      sqlite3_result_null (context);
      return;
    }

  sqlite3_result_text (context, search_text (&message, 1), -1, g_free);
}

/* What a search may look for in a message's JSON before it reads the
 * message: the text itself, unless printing it as JSON would escape it;
 * else "", which every message has. */
const char *
_agui_session_store_raw_needle (const char *search)
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
  const char *needle = (const char *) sqlite3_value_text (argv[1]);
  g_autofree char *inflated = NULL;
  const char *haystack = NULL;
  g_autofree char *owned_needle = NULL;
  g_autofree char *folded = NULL;
  const char *folded_needle;
  gsize length;

  g_assert (argc == 2);

  /* A message's JSON may be kept deflated */
  if (sqlite3_value_type (argv[0]) == SQLITE_BLOB)
    haystack = _agui_session_store_value_json (argv[0], &length, &inflated, NULL);
  else
    haystack = (const char *) sqlite3_value_text (argv[0]);

  if (haystack == NULL || needle == NULL)
    {
      sqlite3_result_int (context, 0);
      return;
    }

  folded_needle = sqlite3_get_auxdata (context, 1);
  if (folded_needle == NULL)
    {
      folded_needle = owned_needle = _agui_session_store_fold_text (needle);
      sqlite3_set_auxdata (context, 1, g_strdup (owned_needle), g_free);
    }

  folded = _agui_session_store_fold_text (haystack);
  sqlite3_result_int (context, strstr (folded, folded_needle) != NULL);
}

/* Search text: every string under a "content" or "text" member, as the
 * search has always looked at message text and not at ids or roles. */
static void
collect_text (const AguiJsonValue *value,
              gboolean             wanted,
              GString             *out,
              guint                depth)
{
  if (depth > AGUI_JSON_MAX_DEPTH)
    return;

  switch (value->kind)
    {
    case AGUI_JSON_DOC_OBJECT:
      for (guint i = 0; i < _agui_json_object_get_n_slots (value->u.object); i++)
        {
          const char *name = _agui_json_object_slot_name (value->u.object, i);

          if (name != NULL)
            collect_text (_agui_json_object_slot_value (value->u.object, i),
                          g_str_equal (name, "content") || g_str_equal (name, "text"),
                          out, depth + 1);
        }
      break;

    case AGUI_JSON_DOC_ARRAY:
      for (guint i = 0; i < _agui_json_array_get_length (value->u.array); i++)
        collect_text (_agui_json_array_get (value->u.array, i), FALSE, out, depth + 1);
      break;

    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      if (wanted)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append (out, _agui_json_value_get_string (value));
        }
      break;

    default:
      break;
    }
}

/* @depth: @value's, in the array of a snapshot's messages */
static char *
search_text (const AguiJsonValue *value,
             guint                depth)
{
  GString *out = g_string_new (NULL);

  collect_text (value, FALSE, out, depth);

  return g_string_free (out, FALSE);
}

char *
_agui_session_store_search_text_for (const AguiJsonValue *messages)
{
  return search_text (messages, 0);
}

int
_agui_session_store_add_text_functions (sqlite3 *db)
{
  int rc;

  rc = sqlite3_create_function_v2 (db, "agui_text_matches", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                   NULL, text_matches_func, NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function_v2 (db, "agui_message_text", 1,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                     NULL, message_text_func, NULL, NULL, NULL);

  return rc;
}
