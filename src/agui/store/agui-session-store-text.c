/* agui-session-store-text.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

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
static void
message_text_func (sqlite3_context  *context,
                   int               argc,
                   sqlite3_value   **argv)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonArray) array = NULL;
  g_autofree char *inflated = NULL;
  const char *json;
  gsize length;
  char *text;

  g_assert (argc == 1);

  if (!(json = _agui_session_store_value_json (argv[0], &length, &inflated, NULL)) ||
      !(node = _agui_json_parse (json, length, NULL)))
    {
      sqlite3_result_null (context);
      return;
    }

  array = json_array_new ();
  json_array_add_element (array, g_steal_pointer (&node));
  text = _agui_session_store_search_text_for (array);
  sqlite3_result_text (context, text, -1, g_free);
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
collect_text (JsonNode *node,
              gboolean  wanted,
              GString  *out,
              guint     depth)
{
  if (depth > AGUI_JSON_MAX_DEPTH)
    return;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) names = json_object_get_members (object);

        for (const GList *l = names; l != NULL; l = l->next)
          collect_text (json_object_get_member (object, l->data),
                        g_str_equal (l->data, "content") || g_str_equal (l->data, "text"),
                        out, depth + 1);
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          collect_text (json_array_get_element (array, i), FALSE, out, depth + 1);
      }
      break;

    case JSON_NODE_VALUE:
      if (wanted && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append (out, json_node_get_string (node));
        }
      break;

    case JSON_NODE_NULL:
    default:
      break;
    }
}

char *
_agui_session_store_search_text_for (JsonArray *messages)
{
  g_autoptr(JsonNode) node = NULL;
  GString *out = g_string_new (NULL);

  if (messages != NULL)
    {
      node = json_node_init_array (json_node_alloc (), messages);
      collect_text (node, FALSE, out, 0);
    }

  return g_string_free (out, FALSE);
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
