/* tandem-json-diff.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-json-diff.h"

static char *
short_json (JsonNode *node)
{
  char *text;

  if (node == NULL)
    return g_strdup ("(absent)");

  text = json_to_string (node, FALSE);
  if (strlen (text) > 120)
    {
      text[117] = '.';
      text[118] = '.';
      text[119] = '.';
      text[120] = '\0';
    }

  return text;
}

static void
add_line (GString    *diff,
          const char *path,
          JsonNode   *expected,
          JsonNode   *actual)
{
  g_autofree char *e = short_json (expected);
  g_autofree char *a = short_json (actual);

  if (diff != NULL)
    g_string_append_printf (diff, "  %s: expected %s, got %s\n", path[0] ? path : "(root)", e, a);
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);

  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static double
number_of (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);

  return json_node_get_double (node);
}

static gboolean
minted_match (const char *expected,
              const char *actual,
              GHashTable *minted)
{
  const char *bound;

  if (minted == NULL || !g_str_has_prefix (expected, "<minted-") || !g_str_has_suffix (expected, ">"))
    return FALSE;

  bound = g_hash_table_lookup (minted, expected);
  if (bound != NULL)
    return g_str_equal (bound, actual);

  /* Two tokens may not name one id. */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, minted);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (g_str_equal (value, actual))
        return FALSE;
  }

  g_hash_table_insert (minted, g_strdup (expected), g_strdup (actual));

  return TRUE;
}

gboolean
tandem_json_diff (const char *path,
                  JsonNode   *expected,
                  JsonNode   *actual,
                  GHashTable *minted,
                  GString    *diff)
{
  gboolean equal = TRUE;

  if (expected == NULL || actual == NULL)
    {
      if (expected == actual)
        return TRUE;
      add_line (diff, path, expected, actual);
      return FALSE;
    }

  if (is_number (expected) && is_number (actual))
    {
      if (number_of (expected) == number_of (actual))
        return TRUE;
      add_line (diff, path, expected, actual);
      return FALSE;
    }

  if (JSON_NODE_TYPE (expected) != JSON_NODE_TYPE (actual) ||
      (JSON_NODE_HOLDS_VALUE (expected) &&
       json_node_get_value_type (expected) != json_node_get_value_type (actual)))
    {
      add_line (diff, path, expected, actual);
      return FALSE;
    }

  switch (JSON_NODE_TYPE (expected))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (expected) == G_TYPE_STRING)
        {
          const char *e = json_node_get_string (expected);
          const char *a = json_node_get_string (actual);

          if (g_str_equal (e, a) || minted_match (e, a, minted))
            return TRUE;
        }
      else if (json_node_get_value_type (expected) == G_TYPE_BOOLEAN)
        {
          if (json_node_get_boolean (expected) == json_node_get_boolean (actual))
            return TRUE;
        }
      add_line (diff, path, expected, actual);
      return FALSE;

    case JSON_NODE_ARRAY:
      {
        JsonArray *e = json_node_get_array (expected);
        JsonArray *a = json_node_get_array (actual);
        guint n = MAX (json_array_get_length (e), json_array_get_length (a));

        for (guint i = 0; i < n; i++)
          {
            g_autofree char *child = g_strdup_printf ("%s[%u]", path, i);

            if (!tandem_json_diff (child,
                                   i < json_array_get_length (e) ? json_array_get_element (e, i) : NULL,
                                   i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL,
                                   minted, diff))
              equal = FALSE;
          }
        return equal;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObject *e = json_node_get_object (expected);
        JsonObject *a = json_node_get_object (actual);
        JsonObjectIter iter;
        const char *name;
        JsonNode *value;

        json_object_iter_init (&iter, e);
        while (json_object_iter_next (&iter, &name, &value))
          {
            g_autofree char *child = g_strdup_printf ("%s%s%s", path, path[0] ? "." : "", name);

            if (!tandem_json_diff (child, value, json_object_get_member (a, name), minted, diff))
              equal = FALSE;
          }

        json_object_iter_init (&iter, a);
        while (json_object_iter_next (&iter, &name, &value))
          {
            g_autofree char *child = NULL;

            if (json_object_has_member (e, name))
              continue;

            child = g_strdup_printf ("%s%s%s", path, path[0] ? "." : "", name);
            add_line (diff, child, NULL, value);
            equal = FALSE;
          }
        return equal;
      }

    default:
      return FALSE;
    }
}
