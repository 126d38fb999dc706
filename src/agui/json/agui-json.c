/* agui-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "agui-json-private.h"

/* AG-UI metadata merges shallowly, key by key, last write wins (12.2):
 * an object under a key is replaced whole, never merged deeply. */
void
_agui_json_object_merge (JsonObject *target,
                         JsonObject *source)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, source);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_member (target, name, json_node_copy (value));
}

JsonNode *
_agui_json_node_new_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);

  return node;
}

JsonNode *
_agui_json_node_new_array (JsonArray *array)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);

  return node;
}

/* Checking what no tree keeps as sent */

static gboolean
check_failed (GError     **error,
              const char  *text,
              gsize        offset,
              const char  *format,
              ...) G_GNUC_PRINTF (4, 5);

static gboolean
check_failed (GError     **error,
              const char  *text,
              gsize        offset,
              const char  *format,
              ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  _agui_json_set_error_at (error, text, offset, "%s", reason);
  return FALSE;
}

static int
hex4 (const char *p,
      const char *end)
{
  int value = 0;

  if (end - p < 4)
    return -1;

  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }

  return value;
}

static gboolean
check_number (const char  *text,
              const char  *start,
              const char  *end,
              GError     **error)
{
  g_autofree char *token = g_strndup (start, end - start);
  gboolean integer = strpbrk (token, ".eE") == NULL;

  if (integer)
    {
      gint64 value;

      /* g_ascii_string_to_signed() refuses a leading '+' and nothing
       * else json-glib would take. */
      if (!g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, &value, NULL))
        {
          const char *digits = token[0] == '-' ? token + 1 : token;

          /* Not a number at all is the syntax check's to report. */
          if (digits[0] == '\0' || strspn (digits, "0123456789") != strlen (digits))
            return TRUE;
          return check_failed (error, text, start - text,
                               "the integer %.40s%s does not fit in 64 bits",
                               token, strlen (token) > 40 ? "…" : "");
        }
    }
  else
    {
      char *number_end = NULL;
      double value = g_ascii_strtod (token, &number_end);

      if (number_end != token && !isfinite (value))
        return check_failed (error, text, start - text,
                             "the number %.40s%s is too large for a double",
                             token, strlen (token) > 40 ? "…" : "");
    }

  return TRUE;
}

gboolean
_agui_json_check (const char     *text,
                  gssize          length,
                  AguiJsonCheck   checks,
                  GError        **error)
{
  const char *end;
  const char *p;
  guint depth = 0;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  if (length < 0)
    length = strlen (text);
  end = text + length;

  for (p = text; p < end; p++)
    {
      switch (*p)
        {
        case '[':
        case '{':
          if (++depth > AGUI_JSON_MAX_DEPTH)
            return check_failed (error, text, p - text,
                                 "arrays and objects are nested deeper than %d levels",
                                 AGUI_JSON_MAX_DEPTH);
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        case '\0':
          if (checks & AGUI_JSON_CHECK_NUL)
            return check_failed (error, text, p - text, "the text contains a NUL byte");
          break;

        case '"':
          for (p++; p < end && *p != '"'; p++)
            {
              int unit;

              if (*p == '\0' && (checks & AGUI_JSON_CHECK_NUL))
                return check_failed (error, text, p - text, "a string contains a NUL byte");

              if (*p != '\\')
                continue;

              if (++p >= end || *p != 'u')
                continue;

              if ((unit = hex4 (p + 1, end)) < 0)
                continue;

              if (unit == 0 && (checks & AGUI_JSON_CHECK_NUL))
                return check_failed (error, text, p - 1 - text,
                                     "a string contains \\u0000, which Tandem cannot keep");

              if (unit >= 0xDC00 && unit <= 0xDFFF && (checks & AGUI_JSON_CHECK_SURROGATES))
                return check_failed (error, text, p - 1 - text,
                                     "a string contains the lone low surrogate \\u%04X", unit);

              if (unit >= 0xD800 && unit <= 0xDBFF)
                {
                  int low = p + 5 < end && p[5] == '\\' && p + 6 < end && p[6] == 'u'
                              ? hex4 (p + 7, end) : -1;

                  if (low < 0xDC00 || low > 0xDFFF)
                    {
                      if (checks & AGUI_JSON_CHECK_SURROGATES)
                        return check_failed (error, text, p - 1 - text,
                                             "a string contains the lone high surrogate \\u%04X", unit);
                    }
                  else
                    p += 6;
                }

              p += 4;
            }
          break;

        case '-':
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          {
            const char *start = p;

            while (p + 1 < end && strchr ("+-.eE0123456789", p[1]) != NULL && p[1] != '\0')
              p++;

            if ((checks & AGUI_JSON_CHECK_NUMBERS) &&
                !check_number (text, start, p + 1, error))
              return FALSE;
          }
          break;

        default:
          break;
        }
    }

  return TRUE;
}

/* Trees */

/* Appends @name to the pointer @path, escaped; the caller truncates it
 * back afterwards. */
static void
append_pointer_token (GString    *path,
                      const char *name)
{
  g_string_append_c (path, '/');
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '~')
        g_string_append (path, "~0");
      else if (*p == '/')
        g_string_append (path, "~1");
      else
        g_string_append_c (path, *p);
    }
}

static gboolean
tree_string_failed (const char  *string,
                    const char  *what,
                    GString     *path,
                    GError     **error)
{
  const char *end = NULL;
  g_autofree char *where = g_utf8_make_valid (path->len > 0 ? path->str : "/", -1);

  g_utf8_validate (string, -1, &end);

  /* ED A0..BF xx is how a surrogate is written, CESU-style */
  if ((guchar) end[0] == 0xED && (guchar) end[1] >= 0xA0 && (guchar) end[1] <= 0xBF &&
      ((guchar) end[2] & 0xC0) == 0x80)
    {
      guint unit = 0xD000 | (((guchar) end[1] & 0x3F) << 6) | ((guchar) end[2] & 0x3F);

      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "%s at %s contains the lone %s surrogate \\u%04X",
                   what, where, unit <= 0xDBFF ? "high" : "low", unit);
    }
  else
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "%s at %s is not valid UTF-8", what, where);
    }

  return FALSE;
}

static gboolean
check_tree (JsonNode  *node,
            guint      depth,
            GString   *path,
            GError   **error)
{
  if (depth > AGUI_JSON_MAX_DEPTH)
    {
      g_autofree char *where = g_utf8_make_valid (path->str, -1);

      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "the value at %s is nested deeper than %d levels", where, AGUI_JSON_MAX_DEPTH);
      return FALSE;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          {
            gsize length = path->len;

            if (!g_utf8_validate (name, -1, NULL))
              return tree_string_failed (name, "a member name", path, error);

            append_pointer_token (path, name);
            if (!check_tree (member, depth + 1, path, error))
              return FALSE;
            g_string_truncate (path, length);
          }
      }
      return TRUE;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            gsize length = path->len;

            g_string_append_printf (path, "/%u", i);
            if (!check_tree (json_array_get_element (array, i), depth + 1, path, error))
              return FALSE;
            g_string_truncate (path, length);
          }
      }
      return TRUE;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING &&
          !g_utf8_validate (json_node_get_string (node), -1, NULL))
        return tree_string_failed (json_node_get_string (node), "the string", path, error);
      return TRUE;

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

gboolean
_agui_json_check_tree (JsonNode  *node,
                       GError   **error)
{
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return check_tree (node, 0, path, error);
}

/* The printer */

void
_agui_json_append_string (GString    *out,
                          const char *string)
{
  const char *p = string;

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      const char *run = p;
      gunichar c;

      /* Printable ASCII is copied as it is, a run at a time: a fold's
       * output is mostly such runs, and a character at a time they were
       * a quarter of printing one. */
      while ((guchar) *p >= 0x20 && (guchar) *p < 0x7f && *p != '"' && *p != '\\')
        p++;
      if (p > run)
        g_string_append_len (out, run, p - run);
      if (*p == '\0')
        break;

      c = g_utf8_get_char_validated (p, -1);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append (out, "\xef\xbf\xbd");
          p++;
          continue;
        }

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

gboolean
_agui_json_append_double (GString  *out,
                          double    value,
                          GError  **error)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "the number %s has no JSON form", isnan (value) ? "NaN" : "infinity");
      return FALSE;
    }

  /* As json-glib writes it ("%.17g", then ".0" when it would read as an
   * integer), except that json-glib also appends ".0" after an exponent,
   * which is not JSON. */
  g_ascii_formatd (buffer, sizeof buffer, "%.17g", value);
  g_string_append (out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (out, ".0");

  return TRUE;
}

static void
append_indent (GString *out,
               gboolean pretty,
               guint    level)
{
  if (!pretty)
    return;

  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

static gboolean
append_value (GString   *out,
              JsonNode  *node,
              gboolean   pretty,
              guint      level,
              GError   **error)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr(GList) names = NULL;

        if (level >= AGUI_JSON_MAX_DEPTH)
          break;

        names = json_object_get_members (json_node_get_object (node));
        if (names == NULL)
          {
            g_string_append (out, pretty ? "{  }" : "{}");
            return TRUE;
          }

        g_string_append_c (out, '{');
        for (const GList *l = names; l != NULL; l = l->next)
          {
            append_indent (out, pretty, level + 1);
            _agui_json_append_string (out, l->data);
            g_string_append (out, pretty ? " : " : ":");
            if (!append_value (out, json_object_get_member (json_node_get_object (node), l->data),
                               pretty, level + 1, error))
              return FALSE;
            if (l->next != NULL)
              g_string_append_c (out, ',');
          }
        append_indent (out, pretty, level);
        g_string_append_c (out, '}');
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        if (level >= AGUI_JSON_MAX_DEPTH)
          break;

        if (length == 0)
          {
            g_string_append (out, "[]");
            return TRUE;
          }

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            append_indent (out, pretty, level + 1);
            if (!append_value (out, json_array_get_element (array, i), pretty, level + 1, error))
              return FALSE;
            if (i + 1 < length)
              g_string_append_c (out, ',');
          }
        append_indent (out, pretty, level);
        g_string_append_c (out, ']');
        return TRUE;
      }

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      return TRUE;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          return TRUE;

        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          return TRUE;

        case G_TYPE_STRING:
          _agui_json_append_string (out, json_node_get_string (node));
          return TRUE;

        case G_TYPE_DOUBLE:
          return _agui_json_append_double (out, json_node_get_double (node), error);

        default:
          g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                       "a value of type %s has no JSON form",
                       g_type_name (json_node_get_value_type (node)));
          return FALSE;
        }
    }

  g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
               "arrays and objects are nested deeper than %d levels", AGUI_JSON_MAX_DEPTH);
  return FALSE;
}

gboolean
_agui_json_append (GString   *out,
                   JsonNode  *node,
                   guint      level,
                   GError   **error)
{
  g_return_val_if_fail (out != NULL, FALSE);

  if (node == NULL)
    {
      g_string_append (out, "null");
      return TRUE;
    }

  return append_value (out, node, FALSE, level, error);
}

gboolean
_agui_json_append_pretty (GString   *out,
                          JsonNode  *node,
                          guint      level,
                          GError   **error)
{
  g_return_val_if_fail (out != NULL, FALSE);

  if (node == NULL)
    {
      g_string_append (out, "null");
      return TRUE;
    }

  return append_value (out, node, TRUE, level, error);
}

char *
_agui_json_to_string (JsonNode  *node,
                      gboolean   pretty,
                      GError   **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (node == NULL)
    return g_strdup ("null");

  if (!append_value (out, node, pretty, 0, error))
    return NULL;

  return g_string_free (g_steal_pointer (&out), FALSE);
}
