/* agui-json-pointer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-private.h"
#include "agui-json-patch-private.h"

/* JSON Pointer (RFC 6901) as the patches (agui-json-doc-patch.c) read
 * it, the way their messages name places, and the json-glib helpers the
 * public API's nodes need: a deep copy and JSON Patch `test` equality.
 *
 * Pointer syntax follows RFC 6901 strictly: array indices are "0" or digits
 * without a leading zero. The reference accepts "01" as index 1; no fixture
 * depends on that and a client may be stricter (AG-UI.md section 15).
 * Like the reference, a "__proto__" token anywhere in a pointer used by a
 * patch is refused, so a patch that the reference rejects is rejected here
 * too. Operation indices in error messages start at 0, as in the
 * reference's own messages. */

/* JSON Pointer */

static GPtrArray *
pointer_parse (const char *pointer)
{
  /* sized for the usual few tokens, so that adding them never grows it */
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_full (8, g_free);
  const char *p = pointer;

  if (*p == '\0')
    return g_steal_pointer (&tokens);
  if (*p != '/')
    return NULL;

  /* Decoding left to right in one pass is what RFC 6901 asks for when it
   * says to turn ~1 into / before ~0 into ~: "~01" must become "~1". */
  while (*p == '/')
    {
      const char *start = ++p;
      GString *token;

      /* Nearly every token has no escape: copied at once. */
      while (*p != '\0' && *p != '/' && *p != '~')
        p++;
      if (*p != '~')
        {
          char *plain = g_malloc (p - start + 1);

          memcpy (plain, start, p - start);
          plain[p - start] = '\0';
          g_ptr_array_add (tokens, plain);
          continue;
        }

      token = g_string_new_len (start, p - start);
      for (; *p != '\0' && *p != '/'; p++)
        {
          if (*p != '~')
            g_string_append_c (token, *p);
          else if (p[1] == '0' || p[1] == '1')
            g_string_append_c (token, *++p == '0' ? '~' : '/');
          else
            {
              g_string_free (token, TRUE);
              return NULL;
            }
        }

      g_ptr_array_add (tokens, g_string_free (token, FALSE));
    }

  return g_steal_pointer (&tokens);
}

static GPtrArray *
pointer_parse_checked (const char  *pointer,
                       GError     **error)
{
  g_autoptr(GPtrArray) tokens = NULL;

  if (!(tokens = pointer_parse (pointer)))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'%s' is not a JSON pointer", pointer);
      return NULL;
    }

  for (guint i = 0; i < tokens->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (tokens, i), "__proto__"))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                       "'__proto__' is not allowed in a path");
          return NULL;
        }
    }

  return g_steal_pointer (&tokens);
}

/* The pointer made of the first @n_tokens tokens, for error messages. */
static char *
pointer_describe (GPtrArray *tokens,
                  guint      n_tokens)
{
  GString *string;

  if (n_tokens == 0)
    return g_strdup ("the root");

  string = g_string_new (NULL);
  for (guint i = 0; i < n_tokens; i++)
    {
      const char *token = g_ptr_array_index (tokens, i);

      g_string_append_c (string, '/');
      for (const char *p = token; *p != '\0'; p++)
        {
          if (*p == '~')
            g_string_append (string, "~0");
          else if (*p == '/')
            g_string_append (string, "~1");
          else
            g_string_append_c (string, *p);
        }
    }

  return g_string_free (string, FALSE);
}

/* Indices larger than any array are clamped to G_MAXUINT so that callers
 * report them as out of range rather than as malformed. */
static gboolean
array_index_parse (const char *token,
                   guint      *index)
{
  guint64 value = 0;

  if (token[0] == '\0')
    return FALSE;
  /* RFC 6901 forbids leading zeros; see the comment at the top. */
  if (token[0] == '0' && token[1] != '\0')
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (value <= G_MAXUINT)
        value = value * 10 + (guint64) (*p - '0');
    }

  *index = (guint) MIN (value, (guint64) G_MAXUINT);

  return TRUE;
}

GPtrArray *
_agui_json_pointer_parse (const char  *pointer,
                          GError     **error)
{
  return pointer_parse_checked (pointer, error);
}

char *
_agui_json_pointer_describe (GPtrArray *tokens,
                             guint      n_tokens)
{
  return pointer_describe (tokens, n_tokens);
}

gboolean
_agui_json_array_index_parse (const char *token,
                              guint      *index)
{
  return array_index_parse (token, index);
}

/* Finds the element of an array of @length named by token @depth of
 * @tokens, which must exist when @for_insert is FALSE and may be one
 * past the end (including "-") when it is TRUE. */
gboolean
_agui_json_array_index_resolve (GPtrArray  *tokens,
                                guint       depth,
                                guint       length,
                                gboolean    for_insert,
                                guint      *index,
                                GError    **error)
{
  const char *token = g_ptr_array_index (tokens, depth);
  g_autofree char *where = NULL;

  if (for_insert && g_str_equal (token, "-"))
    {
      *index = length;
      return TRUE;
    }

  where = pointer_describe (tokens, depth);

  if (g_str_equal (token, "-"))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'-' names no element of the array at %s", where);
      return FALSE;
    }

  if (!array_index_parse (token, index))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'%s' is not an array index at %s", token, where);
      return FALSE;
    }

  if (*index > length || (*index == length && !for_insert))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "index %u is out of range at %s (length %u)",
                   *index, where, length);
      return FALSE;
    }

  return TRUE;
}

/* Patch operations */

/* Names a failed operation in its error: where it is and what. */
void
_agui_json_patch_prefix_error (GError     **error,
                               GError      *local_error,
                               guint        position,
                               const char  *op,
                               const char  *path,
                               const char  *from)
{
  if (from != NULL && (g_str_equal (op, "move") || g_str_equal (op, "copy")))
    g_propagate_prefixed_error (error, local_error,
                                "operation %u (%s %s from %s): ", position, op, path, from);
  else
    g_propagate_prefixed_error (error, local_error,
                                "operation %u (%s %s): ", position, op, path);
}

/* json-glib nodes */

static JsonNode *node_copy_deep (JsonNode *node);

JsonNode *
_agui_json_node_copy_deep (JsonNode *node)
{
  return node_copy_deep (node);
}

static JsonNode *
node_copy_deep (JsonNode *node)
{
  JsonNode *copy = json_node_alloc ();

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          json_object_set_member (object, name, node_copy_deep (member));

        return json_node_init_object (copy, object);
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *source = json_node_get_array (node);
        guint length = json_array_get_length (source);
        g_autoptr(JsonArray) array = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (array, node_copy_deep (json_array_get_element (source, i)));

        return json_node_init_array (copy, array);
      }

    case JSON_NODE_NULL:
      return json_node_init_null (copy);

    case JSON_NODE_VALUE:
    default:
      break;
    }

  /* A fresh value rather than json_node_copy(), which would share the
   * JsonValue and keep the source's immutability. */
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return json_node_init_boolean (copy, json_node_get_boolean (node));
    case G_TYPE_STRING:
      return json_node_init_string (copy, json_node_get_string (node));
    case G_TYPE_DOUBLE:
      return json_node_init_double (copy, json_node_get_double (node));
    default:
      return json_node_init_int (copy, json_node_get_int (node));
    }
}

static gboolean
number_equal (JsonNode *a,
              JsonNode *b)
{
  gboolean a_is_double = json_node_get_value_type (a) == G_TYPE_DOUBLE;
  gboolean b_is_double = json_node_get_value_type (b) == G_TYPE_DOUBLE;
  double d;
  gint64 i;

  if (a_is_double && b_is_double)
    return json_node_get_double (a) == json_node_get_double (b);
  if (!a_is_double && !b_is_double)
    return json_node_get_int (a) == json_node_get_int (b);

  d = json_node_get_double (a_is_double ? a : b);
  i = json_node_get_int (a_is_double ? b : a);

  /* Compare exactly: converting the integer to a double would round
   * 2^53 + 1 onto 2^53. Every double in [-2^63, 2^63) that has no
   * fractional part converts to gint64 without loss. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return FALSE;
  if ((double) (gint64) d != d)
    return FALSE;

  return (gint64) d == i;
}

static gboolean
value_equal (JsonNode *a,
             JsonNode *b)
{
  GType a_type = json_node_get_value_type (a);
  GType b_type = json_node_get_value_type (b);
  gboolean a_is_number = a_type == G_TYPE_INT64 || a_type == G_TYPE_DOUBLE;
  gboolean b_is_number = b_type == G_TYPE_INT64 || b_type == G_TYPE_DOUBLE;

  if (a_is_number && b_is_number)
    return number_equal (a, b);
  if (a_type != b_type)
    return FALSE;
  if (a_type == G_TYPE_BOOLEAN)
    return json_node_get_boolean (a) == json_node_get_boolean (b);
  if (a_type == G_TYPE_STRING)
    return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;

  return FALSE;
}

/**
 * _agui_json_node_equal:
 * @a: (nullable): a JSON node
 * @b: (nullable): another JSON node
 *
 * Compares two JSON values deeply, as the JSON Patch `test` operation does:
 * objects are equal when they have the same members with equal values, in
 * any order; arrays when their elements are equal in order; numbers when
 * they are numerically equal, so `1` equals `1.0`; a number never equals
 * a string or a boolean.
 *
 * Returns: %TRUE if @a and @b are equal, or both %NULL
 */
gboolean
_agui_json_node_equal (JsonNode *a,
                      JsonNode *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      return value_equal (a, b);

    case JSON_NODE_OBJECT:
      {
        JsonObject *a_object = json_node_get_object (a);
        JsonObject *b_object = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (json_object_get_size (a_object) != json_object_get_size (b_object))
          return FALSE;

        json_object_iter_init (&iter, a_object);
        while (json_object_iter_next (&iter, &name, &member))
          {
            if (!_agui_json_node_equal (member, json_object_get_member (b_object, name)))
              return FALSE;
          }

        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *a_array = json_node_get_array (a);
        JsonArray *b_array = json_node_get_array (b);
        guint length = json_array_get_length (a_array);

        if (length != json_array_get_length (b_array))
          return FALSE;

        for (guint i = 0; i < length; i++)
          {
            if (!_agui_json_node_equal (json_array_get_element (a_array, i),
                                       json_array_get_element (b_array, i)))
              return FALSE;
          }

        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }

  return FALSE;
}
