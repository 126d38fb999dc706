/* agui-json-syntax.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-private.h"

/* The readers (yajl behind agui-event-reader.c, the scanners in front of
 * it) decide what is JSON; when one refuses a text, this walks it again,
 * as RFC 8259 reads it (and as the reader does: raw control characters
 * in strings pass), to say where and why. It runs only for
 * text already refused, so it is written to be plain rather than fast,
 * and keeps its open containers in a byte stack instead of recursing. */

/* A word (a bareword, a misspelt literal) is quoted up to this many bytes. */
#define QUOTED_WORD 24

void
_agui_json_set_error_at (GError     **error,
                         const char  *text,
                         gsize        offset,
                         const char  *format,
                         ...)
{
  g_autofree char *reason = NULL;
  const char *line_start = text;
  guint line = 1;
  guint column = 1;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  for (gsize i = 0; i < offset; i++)
    {
      if (text[i] == '\n')
        {
          line++;
          line_start = text + i + 1;
        }
    }

  /* in characters: every byte that does not continue a UTF-8 sequence */
  for (const char *p = line_start; p < text + offset; p++)
    {
      if (((guchar) *p & 0xC0) != 0x80)
        column++;
    }

  g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
               "line %u, column %u: %s", line, column, reason);
}

/* What stands at @p, for "found …". */
static char *
describe (const char *p,
          const char *end)
{
  gunichar c;

  if (p == end)
    return g_strdup ("the end of the text");

  if (g_ascii_isalpha (*p) || *p == '_')
    {
      const char *word_end = p;

      while (word_end < end && word_end - p < QUOTED_WORD &&
             (g_ascii_isalnum (*word_end) || *word_end == '_'))
        word_end++;
      return g_strdup_printf ("'%.*s'", (int) (word_end - p), p);
    }

  if (*p == '\'')
    return g_strdup ("a single quote");

  c = g_utf8_get_char (p);
  if (c < 0x20 || c == 0x7F || (c >= 0x80 && !g_unichar_isgraph (c)))
    return g_strdup_printf ("U+%04X", c);

  return g_strdup_printf ("'%.*s'", (int) (g_utf8_next_char (p) - p), p);
}

static gboolean
failed (GError     **error,
        const char  *text,
        const char  *at,
        const char  *end,
        const char  *expected)
{
  g_autofree char *found = describe (at, end);

  _agui_json_set_error_at (error, text, at - text, "expected %s, found %s", expected, found);

  return FALSE;
}

static inline const char *
skip_space (const char *p,
            const char *end)
{
  /* yajl's whitespace, which is JSON's and \f and \v */
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == '\f' || *p == '\v'))
    p++;

  return p;
}

/* @p is at the opening quote; returns past the closing one, or NULL. A
 * raw control character is let through, as the reader lets it (json-glib
 * wrote U+001F so into rows Tandem keeps). */
static const char *
string_end (const char  *text,
            const char  *p,
            const char  *end,
            GError     **error)
{
  const char *start = p;

  for (p++; p < end; p++)
    {
      if (*p == '"')
        return p + 1;

      if (*p != '\\')
        continue;

      if (++p == end)
        break;

      if (*p == 'u')
        {
          for (int i = 1; i <= 4; i++)
            {
              if (p + i == end || !g_ascii_isxdigit (p[i]))
                {
                  _agui_json_set_error_at (error, text, p - 1 - text,
                                           "\\u must be followed by four hexadecimal digits");
                  return NULL;
                }
            }
          p += 4;
        }
      else if (strchr ("\"\\/bfnrt", *p) == NULL || *p == '\0')
        {
          g_autofree char *found = describe (p, end);

          _agui_json_set_error_at (error, text, p - 1 - text,
                                   "a backslash in a string must be followed by one of "
                                   "\" \\ / b f n r t u, not %s", found);
          return NULL;
        }
    }

  _agui_json_set_error_at (error, text, start - text, "the string is not closed");

  return NULL;
}

static const char *
digits_end (const char *p,
            const char *end)
{
  while (p < end && g_ascii_isdigit (*p))
    p++;

  return p;
}

/* @p is at '-' or a digit; returns past the number, or NULL. */
static const char *
number_end (const char  *text,
            const char  *p,
            const char  *end,
            GError     **error)
{
  const char *q;

  if (*p == '-')
    p++;

  if (p == end || !g_ascii_isdigit (*p))
    {
      failed (error, text, p, end, "a digit after '-'");
      return NULL;
    }

  /* a leading zero stands alone: what follows it is the next token */
  p = *p == '0' ? p + 1 : digits_end (p, end);

  if (p < end && *p == '.')
    {
      q = digits_end (p + 1, end);
      if (q == p + 1)
        {
          failed (error, text, q, end, "a digit after the decimal point");
          return NULL;
        }
      p = q;
    }

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      q = digits_end (p, end);
      if (q == p)
        {
          failed (error, text, q, end, "a digit in the exponent");
          return NULL;
        }
      p = q;
    }

  return p;
}

/* A scalar at @p; returns past it, or NULL. */
static const char *
scalar_end (const char  *text,
            const char  *p,
            const char  *end,
            GError     **error)
{
  static const char * const literals[] = { "true", "false", "null" };

  if (*p == '"')
    return string_end (text, p, end, error);

  if (*p == '-' || g_ascii_isdigit (*p))
    return number_end (text, p, end, error);

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      gsize length = strlen (literals[i]);

      if ((gsize) (end - p) >= length && memcmp (p, literals[i], length) == 0 &&
          (p + length == end || !(g_ascii_isalnum (p[length]) || p[length] == '_')))
        return p + length;
    }

  failed (error, text, p, end, "a value");

  return NULL;
}

/* A member name and its colon at @p; returns where its value starts, or
 * NULL. @expected says what else could have stood at @p. */
static const char *
member_start (const char  *text,
              const char  *p,
              const char  *end,
              const char  *expected,
              GError     **error)
{
  if (p == end || *p != '"')
    {
      failed (error, text, p, end, expected);
      return NULL;
    }
  if ((p = string_end (text, p, end, error)) == NULL)
    return NULL;
  p = skip_space (p, end);
  if (p == end || *p != ':')
    {
      failed (error, text, p, end, "':' after a member name");
      return NULL;
    }

  return skip_space (p + 1, end);
}

gboolean
_agui_json_check_syntax (const char  *text,
                         gsize        length,
                         GError     **error)
{
  g_autoptr(GByteArray) open = g_byte_array_new ();
  const char *end = text + length;
  const char *invalid = NULL;
  const char *p;

  if (!g_utf8_validate_len (text, length, &invalid))
    {
      _agui_json_set_error_at (error, text, invalid - text,
                               "the text is not valid UTF-8 (byte 0x%02X)", (guint) (guchar) *invalid);
      return FALSE;
    }

  p = skip_space (text, end);

  /* At the top of this loop a value is expected. */
  for (;;)
    {
      guint8 container;

      if (p == end)
        return failed (error, text, p, end, "a value");

      if (*p == '{' || *p == '[')
        {
          if (open->len == AGUI_JSON_MAX_DEPTH)
            {
              _agui_json_set_error_at (error, text, p - text,
                                       "arrays and objects are nested deeper than %d levels",
                                       AGUI_JSON_MAX_DEPTH);
              return FALSE;
            }

          container = (guint8) *p;
          g_byte_array_append (open, &container, 1);
          p = skip_space (p + 1, end);

          if (p < end && *p == (container == '{' ? '}' : ']'))
            {
              g_byte_array_set_size (open, open->len - 1);
              p++;
            }
          else if (container == '{')
            {
              p = member_start (text, p, end, "a member name in double quotes or '}'", error);
              if (p == NULL)
                return FALSE;
              continue;
            }
          else
            {
              continue;
            }
        }
      else if ((p = scalar_end (text, p, end, error)) == NULL)
        {
          return FALSE;
        }

      /* After a value: close what it ends, or go on to the next one. */
      for (;;)
        {
          p = skip_space (p, end);

          if (open->len == 0)
            {
              if (p != end)
                return failed (error, text, p, end, "the end of the text after the value");
              return TRUE;
            }

          container = open->data[open->len - 1];
          if (container == '[' && p < end && *p == ']')
            {
              g_byte_array_set_size (open, open->len - 1);
              p++;
              continue;
            }
          if (container == '{' && p < end && *p == '}')
            {
              g_byte_array_set_size (open, open->len - 1);
              p++;
              continue;
            }
          if (p == end || *p != ',')
            return failed (error, text, p, end,
                           container == '['
                             ? "',' or ']' after an array element"
                             : "',' or '}' after an object member");

          p = skip_space (p + 1, end);
          if (container == '{' &&
              (p = member_start (text, p, end, "a member name in double quotes", error)) == NULL)
            return FALSE;
          break;
        }
    }
}
