/* agui-a2ui-pointer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-a2ui-surface-private.h"
#include "agui-json-private.h"
#include "agui-types.h"

/* JSON pointers (RFC 6901) into a surface's data model, with A2UI's
 * relative paths: a template's children resolve against their item. */

char *
_agui_a2ui_absolute_path (const char *scope,
                          const char *path)
{
  if (path[0] == '/')
    return g_strdup (path);
  if (g_str_equal (path, ".") || path[0] == '\0')
    return g_strdup (scope != NULL && scope[0] != '\0' ? scope : "/");
  if (scope == NULL || scope[0] == '\0' || g_str_equal (scope, "/"))
    return g_strconcat ("/", path, NULL);

  return g_strconcat (scope, "/", path, NULL);
}

static char **
split_pointer (const char *pointer)
{
  g_auto(GStrv) raw = NULL;
  GPtrArray *segments = g_ptr_array_new ();

  g_assert (pointer[0] == '/');

  raw = g_strsplit (pointer + 1, "/", -1);
  for (guint i = 0; raw[i] != NULL; i++)
    {
      GString *segment = g_string_new (NULL);

      /* A trailing or doubled slash names no member: "/user/" is "/user". */
      if (raw[i][0] == '\0')
        {
          g_string_free (segment, TRUE);
          continue;
        }

      for (const char *p = raw[i]; *p != '\0'; p++)
        {
          if (p[0] == '~' && p[1] == '1')
            g_string_append_c (segment, '/'), p++;
          else if (p[0] == '~' && p[1] == '0')
            g_string_append_c (segment, '~'), p++;
          else
            g_string_append_c (segment, *p);
        }
      g_ptr_array_add (segments, g_string_free (segment, FALSE));
    }
  g_ptr_array_add (segments, NULL);

  return (char **) g_ptr_array_free (segments, FALSE);
}

static gboolean
parse_index (const char *segment,
             guint       length,
             guint      *index)
{
  guint64 value;

  if (g_str_equal (segment, "-"))
    {
      *index = length;
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (segment, 10, 0, G_MAXUINT, &value, NULL))
    return FALSE;

  *index = (guint) value;

  return TRUE;
}

JsonNode *
_agui_a2ui_pointer_lookup (JsonNode   *root,
                           const char *pointer)
{
  g_auto(GStrv) segments = NULL;
  JsonNode *node = root;

  if (root == NULL || pointer == NULL || pointer[0] != '/')
    return NULL;

  segments = split_pointer (pointer);
  for (guint i = 0; segments[i] != NULL && node != NULL; i++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          node = json_object_get_member (json_node_get_object (node), segments[i]);
        }
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          guint index;

          if (!parse_index (segments[i], json_array_get_length (array), &index) ||
              index >= json_array_get_length (array))
            return NULL;
          node = json_array_get_element (array, index);
        }
      else
        {
          return NULL;
        }
    }

  return node;
}

/* Sets (or, with @value %NULL, removes) the value at @pointer, making the
 * objects on the way. Takes @value. */
gboolean
_agui_a2ui_pointer_store (JsonNode   **root,
                          const char  *pointer,
                          JsonNode    *value,
                          GError     **error)
{
  g_autoptr(JsonNode) owned = value;
  g_auto(GStrv) segments = NULL;
  JsonNode *node;
  guint n;

  g_assert (root != NULL && *root != NULL);

  if (pointer == NULL || pointer[0] != '/')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "'%s' is not a path into the data model", pointer ? pointer : "(null)");
      return FALSE;
    }

  segments = split_pointer (pointer);
  n = g_strv_length (segments);
  if (n == 0)
    {
      json_node_unref (*root);
      *root = owned != NULL && JSON_NODE_HOLDS_OBJECT (owned)
              ? g_steal_pointer (&owned)
              : _agui_json_node_new_object (json_object_new ());
      return TRUE;
    }

  node = *root;
  for (guint i = 0; i < n; i++)
    {
      gboolean last = (i + 1 == n);

      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *object = json_node_get_object (node);
          JsonNode *next;

          if (last)
            {
              if (owned != NULL)
                json_object_set_member (object, segments[i], g_steal_pointer (&owned));
              else
                json_object_remove_member (object, segments[i]);
              return TRUE;
            }

          next = json_object_get_member (object, segments[i]);
          if (next == NULL || JSON_NODE_HOLDS_NULL (next))
            {
              json_object_set_member (object, segments[i], _agui_json_node_new_object (json_object_new ()));
              next = json_object_get_member (object, segments[i]);
            }
          node = next;
        }
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          guint length = json_array_get_length (array);
          guint index;

          if (!parse_index (segments[i], length, &index) || index > length)
            {
              g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "Path '%s': '%s' is not an index into a list of %u", pointer, segments[i], length);
              return FALSE;
            }

          if (last)
            {
              if (owned == NULL)
                {
                  if (index < length)
                    json_array_remove_element (array, index);
                }
              else if (index == length)
                {
                  json_array_add_element (array, g_steal_pointer (&owned));
                }
              else
                {
                  /* JsonArray cannot replace in place, so rebuild it. */
                  JsonArray *copy = json_array_sized_new (length);

                  for (guint j = 0; j < length; j++)
                    json_array_add_element (copy, j == index ? g_steal_pointer (&owned)
                                                             : json_node_ref (json_array_get_element (array, j)));
                  json_node_take_array (node, copy);
                }
              return TRUE;
            }

          if (index == length)
            json_array_add_element (array, _agui_json_node_new_object (json_object_new ()));
          node = json_array_get_element (array, index);
        }
      else
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "Path '%s' goes through a value that is neither an object nor a list", pointer);
          return FALSE;
        }
    }

  g_assert_not_reached ();
}

/* json-glib's *_with_default() getters are critical on a mistyped member,
 * and agent data is mistyped at will. */
const char *
_agui_a2ui_string_member (JsonObject *object,
               const char *name,
               const char *default_value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return default_value;

  return json_node_get_string (node);
}
