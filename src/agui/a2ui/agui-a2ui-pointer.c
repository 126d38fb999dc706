/* agui-a2ui-pointer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-a2ui-surface-private.h"
#include "agui-json-doc-access-private.h"
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

AguiJsonValue *
_agui_a2ui_pointer_lookup (AguiJsonValue *root,
                           const char    *pointer)
{
  g_auto(GStrv) segments = NULL;
  AguiJsonValue *value = root;

  if (root == NULL || pointer == NULL || pointer[0] != '/')
    return NULL;

  segments = split_pointer (pointer);
  for (guint i = 0; segments[i] != NULL && value != NULL; i++)
    {
      if (value->kind == AGUI_JSON_DOC_OBJECT)
        {
          value = _agui_json_doc_get_member (value, segments[i]);
        }
      else if (value->kind == AGUI_JSON_DOC_ARRAY)
        {
          guint length = _agui_json_doc_get_length (value);
          guint index;

          if (!parse_index (segments[i], length, &index) || index >= length)
            return NULL;
          value = _agui_json_doc_get_element (value, index);
        }
      else
        {
          return NULL;
        }
    }

  return value;
}

/* Sets (or, with @value %NULL, removes) the value at @pointer, making the
 * objects on the way. Takes @value, leaving it null. */
gboolean
_agui_a2ui_pointer_store (AguiJsonValue  *root,
                          const char     *pointer,
                          AguiJsonValue  *value,
                          GError        **error)
{
  g_auto(AguiJsonValue) owned = AGUI_JSON_VALUE_INIT;
  g_auto(GStrv) segments = NULL;
  AguiJsonValue *node;
  guint n;

  g_assert (root != NULL && root->kind == AGUI_JSON_DOC_OBJECT);

  if (value != NULL)
    _agui_json_value_move (&owned, value);

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
      /* The data model stays an object. */
      if (value != NULL && owned.kind == AGUI_JSON_DOC_OBJECT)
        _agui_json_value_move (root, &owned);
      else
        _agui_json_value_set_object (root, 0);
      return TRUE;
    }

  node = root;
  for (guint i = 0; i < n; i++)
    {
      gboolean last = (i + 1 == n);

      if (node->kind == AGUI_JSON_DOC_OBJECT)
        {
          AguiJsonDocObject *object = node->u.object;
          AguiJsonValue *next;
          int slot;

          if (last)
            {
              if (value != NULL)
                {
                  _agui_json_object_set (object, segments[i], &owned);
                }
              else if ((slot = _agui_json_object_find (object, segments[i])) >= 0)
                {
                  g_auto(AguiJsonValue) removed = AGUI_JSON_VALUE_INIT;

                  _agui_json_object_remove_slot (object, slot, &removed);
                  _agui_json_object_compact (object);
                }
              return TRUE;
            }

          next = _agui_json_doc_get_member (node, segments[i]);
          if (next == NULL || next->kind == AGUI_JSON_DOC_NULL)
            {
              g_auto(AguiJsonValue) empty = AGUI_JSON_VALUE_INIT;

              _agui_json_value_set_object (&empty, 0);
              _agui_json_object_set (object, segments[i], &empty);
              next = _agui_json_doc_get_member (node, segments[i]);
            }
          node = next;
        }
      else if (node->kind == AGUI_JSON_DOC_ARRAY)
        {
          AguiJsonDocArray *array = node->u.array;
          guint length = _agui_json_array_get_length (array);
          guint index;

          if (!parse_index (segments[i], length, &index) || index > length)
            {
              g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "Path '%s': '%s' is not an index into a list of %u", pointer, segments[i], length);
              return FALSE;
            }

          if (last)
            {
              if (value == NULL)
                {
                  if (index < length)
                    _agui_json_array_remove_many (array, index, 1);
                }
              else if (index == length)
                {
                  _agui_json_array_insert (array, index, &owned);
                }
              else
                {
                  _agui_json_value_move (_agui_json_array_get (array, index), &owned);
                }
              return TRUE;
            }

          if (index == length)
            {
              g_auto(AguiJsonValue) empty = AGUI_JSON_VALUE_INIT;

              _agui_json_value_set_object (&empty, 0);
              _agui_json_array_insert (array, index, &empty);
            }
          node = _agui_json_array_get (array, index);
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
