/* agui-patch-reader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-reader-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-patch-reader-private.h"

/* The general path reads a STATE_DELTA into a json-glib tree of its
 * operations, checks that tree against the schema, seals it, and the
 * reducer deep-copies each value out of it; the tree is then freed. For a
 * document that grows, that is most of the fold. Here the operations are
 * read into plain structs; each value is only checked, and is read once,
 * when it is applied, straight into the state's tree (agui-json-doc.c):
 * a plain value (a scalar, or an object of scalars) by the scanner's own
 * code, anything else by the event reader (yajl), never as a JsonNode.
 *
 * The scanner is deliberately narrow: it takes only what the schema takes
 * unchanged (no unknown member, so nothing a warning would name, no
 * escape, no null value), so that the event it makes is exactly the
 * event the general path would make. */

static const char * const op_names[] = {
  [AGUI_PATCH_ADD] = "add",
  [AGUI_PATCH_REMOVE] = "remove",
  [AGUI_PATCH_REPLACE] = "replace",
  [AGUI_PATCH_MOVE] = "move",
  [AGUI_PATCH_COPY] = "copy",
  [AGUI_PATCH_TEST] = "test",
};

const char *
_agui_patch_op_name (AguiPatchOpKind kind)
{
  return op_names[kind];
}

enum {
  SEEN_OP = 1 << 0,
  SEEN_PATH = 1 << 1,
  SEEN_FROM = 1 << 2,
  SEEN_VALUE = 1 << 3,
};

static inline const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;

  return p;
}

/* @p is at an opening quote; returns the closing one, or NULL for a
 * string with a control character (the frame has no backslash). */
static const char *
string_end (const char *p,
            const char *end)
{
  const char *quote = memchr (p + 1, '"', end - p - 1);

  if (quote == NULL)
    return NULL;

  for (const char *c = p + 1; c < quote; c++)
    {
      if ((guchar) *c < 0x20)
        return NULL;
    }

  return quote;
}

/* The end of the value at @p: a string is skipped whole, a container to
 * its matching bracket, a scalar to what may follow it. Only finds the
 * extent; yajl then reads and checks it. */
static const char *
value_end (const char *p,
           const char *end)
{
  guint depth = 0;

  if (*p == '"')
    {
      const char *quote = memchr (p + 1, '"', end - p - 1);

      return quote != NULL ? quote + 1 : NULL;
    }

  if (*p == '{' || *p == '[')
    {
      while (p < end)
        {
          char c = *p;

          if (c == '"')
            {
              const char *quote = memchr (p + 1, '"', end - p - 1);

              if (quote == NULL)
                return NULL;
              p = quote + 1;
              continue;
            }

          if (c == '{' || c == '[')
            depth++;
          else if ((c == '}' || c == ']') && --depth == 0)
            return p + 1;
          p++;
        }

      return NULL;
    }

  while (p < end && *p != ',' && *p != '}' && *p != ']' &&
         *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
    p++;

  return p;
}

/* A string, a small integer, a boolean at @p, read into @value as the
 * event reader would read it (or only checked, when @value is NULL);
 * NULL (and @value untouched) for anything else. */
static const char *
plain_scalar (const char    *p,
              const char    *end,
              AguiJsonValue *value)
{
  if (*p == '"')
    {
      const char *close = string_end (p, end);

      if (close == NULL)
        return NULL;
      if (value != NULL)
        _agui_json_value_set_string (value, p + 1, close - p - 1);
      return close + 1;
    }

  if (*p == '-' || g_ascii_isdigit (*p))
    {
      const char *digits = *p == '-' ? p + 1 : p;
      const char *q = digits;
      gint64 integer = 0;

      /* past 18 digits the value is not wanted, and could overflow */
      while (q < end && g_ascii_isdigit (*q))
        {
          if (q - digits < 18)
            integer = integer * 10 + (*q - '0');
          q++;
        }

      if (q == digits || q - digits > 18 || (*digits == '0' && q - digits > 1) ||
          (q < end && (*q == '.' || *q == 'e' || *q == 'E')))
        return NULL;

      if (value != NULL)
        _agui_json_value_set_int (value, *p == '-' ? -integer : integer);
      return q;
    }

  if (end - p >= 4 && memcmp (p, "true", 4) == 0)
    {
      if (value != NULL)
        _agui_json_value_set_boolean (value, TRUE);
      return p + 4;
    }

  if (end - p >= 5 && memcmp (p, "false", 5) == 0)
    {
      if (value != NULL)
        _agui_json_value_set_boolean (value, FALSE);
      return p + 5;
    }

  return NULL;
}

/* A scalar as above, or an object of such scalars, which is what most
 * patch values are; NULL for anything else, which yajl then reads. A
 * repeated name keeps its first place and takes the last value, as in
 * json-glib. */
static const char *
plain_value (const char    *p,
             const char    *end,
             AguiJsonValue *value)
{
  AguiJsonValue object = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members = NULL;

  if (*p != '{')
    return plain_scalar (p, end, value);

  if (value != NULL)
    members = _agui_json_value_set_object (&object, 2);
  p = skip_space (p + 1, end);
  if (p < end && *p == '}')
    goto closed;

  for (;;)
    {
      const char *close;
      const char *key;
      gsize key_length;
      AguiJsonValue member = AGUI_JSON_VALUE_INIT;

      if (p == end || *p != '"' || (close = string_end (p, end)) == NULL)
        goto refuse;
      key = p + 1;
      key_length = close - key;

      p = skip_space (close + 1, end);
      if (p == end || *p != ':')
        goto refuse;
      p = skip_space (p + 1, end);
      if (p == end || (p = plain_scalar (p, end, value != NULL ? &member : NULL)) == NULL)
        goto refuse;
      if (value != NULL)
        {
          char name[64];
          g_autofree char *long_name = NULL;

          if (key_length < sizeof name)
            {
              memcpy (name, key, key_length);
              name[key_length] = '\0';
              _agui_json_object_set (members, name, &member);
            }
          else
            {
              long_name = g_strndup (key, key_length);
              _agui_json_object_set (members, long_name, &member);
            }
        }

      p = skip_space (p, end);
      if (p == end)
        goto refuse;
      if (*p == '}')
        break;
      if (*p != ',')
        goto refuse;
      p = skip_space (p + 1, end);
    }

closed:
  if (value != NULL)
    _agui_json_value_move (value, &object);

  return p + 1;

refuse:
  _agui_json_value_clear (&object);

  return NULL;
}

gboolean
_agui_patch_op_read_value (const AguiPatchOp *op,
                           const char        *patch,
                           AguiJsonValue     *value)
{
  static GPrivate reader_key = G_PRIVATE_INIT ((GDestroyNotify) _agui_event_reader_free);
  const char *text = patch + op->value;
  AguiEventReader *reader;

  if (plain_value (text, text + op->value_length, value) != NULL)
    return TRUE;

  /* One reader per thread, as in _agui_json_parse (). */
  reader = g_private_get (&reader_key);
  if (reader == NULL)
    {
      reader = _agui_event_reader_new ();
      g_private_set (&reader_key, reader);
    }

  /* The scanner read this very text, at this depth. */
  return _agui_event_reader_read_doc_value (reader, text, op->value_length, 3, value);
}

/* As is_json_pointer () in the schema. */
static gboolean
is_pointer (const char *string,
            gsize       length)
{
  if (length > 0 && string[0] != '/')
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      if (string[i] == '~' && (i + 1 == length || (string[i + 1] != '0' && string[i + 1] != '1')))
        return FALSE;
    }

  return TRUE;
}

static gboolean
op_kind (const char      *name,
         gsize            length,
         AguiPatchOpKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    {
      if (strlen (op_names[i]) == length && memcmp (op_names[i], name, length) == 0)
        {
          *kind = (AguiPatchOpKind) i;
          return TRUE;
        }
    }

  return FALSE;
}

static gsize
add_string (GString    *strings,
            const char *string,
            gsize       length)
{
  gsize offset = strings->len;

  g_string_append_len (strings, string, length);
  g_string_append_c (strings, '\0');

  return offset;
}

static gboolean
key_is (const char *key,
        gsize       length,
        const char *name)
{
  return strlen (name) == length && memcmp (key, name, length) == 0;
}

/* One operation object at @p; returns past its closing brace. */
static const char *
scan_operation (AguiEventReader *reader,
                const char      *patch,
                const char      *p,
                const char      *end,
                AguiPatchOp     *op,
                GString         *strings)
{
  guint seen = 0;
  const char *op_name = NULL;
  gsize op_length = 0;
  const char *path = NULL, *from = NULL;
  gsize path_length = 0, from_length = 0;
  guint needed;

  if (p == end || *p != '{')
    return NULL;
  p = skip_space (p + 1, end);

  for (;;)
    {
      const char *key, *close;
      gsize key_length;
      guint bit;

      if (p == end || *p != '"' || (close = string_end (p, end)) == NULL)
        return NULL;
      key = p + 1;
      key_length = close - key;

      if (key_is (key, key_length, "op"))
        bit = SEEN_OP;
      else if (key_is (key, key_length, "path"))
        bit = SEEN_PATH;
      else if (key_is (key, key_length, "from"))
        bit = SEEN_FROM;
      else if (key_is (key, key_length, "value"))
        bit = SEEN_VALUE;
      else
        return NULL;

      /* a repeated member: json-glib's rules for it stay its own */
      if (seen & bit)
        return NULL;
      seen |= bit;

      p = skip_space (close + 1, end);
      if (p == end || *p != ':')
        return NULL;
      p = skip_space (p + 1, end);
      if (p == end)
        return NULL;

      if (bit == SEEN_VALUE)
        {
          const char *value_stop;

          /* null is data here, and the one value json-glib and the
           * schema treat apart: left to the general path */
          if (*p == 'n')
            return NULL;

          if ((value_stop = plain_value (p, end, NULL)) == NULL)
            {
              AguiJsonValue checked = AGUI_JSON_VALUE_INIT;

              value_stop = value_end (p, end);
              if (value_stop == NULL || value_stop == p)
                return NULL;
              /* inside the frame, the patch and the operation */
              if (!_agui_event_reader_read_doc_value (reader, p, value_stop - p, 3, &checked))
                return NULL;
              _agui_json_value_clear (&checked);
            }

          op->value = p - patch;
          op->value_length = value_stop - p;
          p = value_stop;
        }
      else
        {
          if (*p != '"' || (close = string_end (p, end)) == NULL)
            return NULL;

          if (bit == SEEN_OP)
            op_name = p + 1, op_length = close - p - 1;
          else if (bit == SEEN_PATH)
            path = p + 1, path_length = close - p - 1;
          else
            from = p + 1, from_length = close - p - 1;
          p = close + 1;
        }

      p = skip_space (p, end);
      if (p == end)
        return NULL;
      if (*p == '}')
        break;
      if (*p != ',')
        return NULL;
      p = skip_space (p + 1, end);
    }

  if (op_name == NULL || !op_kind (op_name, op_length, &op->kind))
    return NULL;

  switch (op->kind)
    {
    case AGUI_PATCH_ADD:
    case AGUI_PATCH_REPLACE:
    case AGUI_PATCH_TEST:
      needed = SEEN_OP | SEEN_PATH | SEEN_VALUE;
      break;
    case AGUI_PATCH_MOVE:
    case AGUI_PATCH_COPY:
      needed = SEEN_OP | SEEN_PATH | SEEN_FROM;
      break;
    case AGUI_PATCH_REMOVE:
    default:
      needed = SEEN_OP | SEEN_PATH;
      break;
    }

  if (seen != needed || !is_pointer (path, path_length) ||
      (from != NULL && !is_pointer (from, from_length)))
    return NULL;

  op->path = add_string (strings, path, path_length);
  op->from = from != NULL ? add_string (strings, from, from_length) : AGUI_PATCH_NO_STRING;

  return p + 1;
}

gsize
_agui_patch_reader_scan (AguiEventReader *reader,
                         const char      *text,
                         gsize            length,
                         GArray          *ops,
                         GString         *strings)
{
  const char *end = text + length;
  const char *p = text;
  guint first = ops->len;
  gsize first_string = strings->len;

  if (p == end || *p != '[')
    return 0;
  p = skip_space (p + 1, end);

  if (p < end && *p == ']')
    return p + 1 - text;

  for (;;)
    {
      AguiPatchOp op = { .value = 0 };

      p = scan_operation (reader, text, p, end, &op, strings);
      if (p == NULL)
        goto refuse;
      g_array_append_val (ops, op);

      p = skip_space (p, end);
      if (p == end)
        goto refuse;
      if (*p == ']')
        return p + 1 - text;
      if (*p != ',')
        goto refuse;
      p = skip_space (p + 1, end);
    }

refuse:
  g_array_set_size (ops, first);
  g_string_truncate (strings, first_string);

  return 0;
}
