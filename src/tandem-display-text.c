/* tandem-display-text.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tandem-display-text.h"

/* Pango 1.50 wraps a paragraph in time quadratic in its lines: a 50 KB
 * line took 300 ms to lay out at 700 pixels and 1.3 s at 160 (the width
 * a label's minimum is measured at), and a label is laid out again
 * whenever its text changes. Lines broken every TANDEM_DISPLAY_LINE_BYTES
 * make that linear; a cap bounds it. */
#define STREAMING_TAIL_BYTES 2048

/**
 * tandem_display_text:
 * @text: (nullable): what to show
 * @max_bytes: the most of it to show
 * @streaming: whether @text is still growing: then only its end is shown
 *
 * What a wrapping label can show of @text in time linear in its length:
 * a line longer than %TANDEM_DISPLAY_LINE_BYTES is broken; a text longer
 * than @max_bytes is cut, with a line saying how much was left out; a
 * streaming text shows its last 2 KB after an ellipsis, without a copy of
 * the rest.
 *
 * Returns: (transfer full): the text to put on the label
 */
char *
tandem_display_text (const char *text,
                     gsize       max_bytes,
                     gboolean    streaming)
{
  gsize length = text != NULL ? strlen (text) : 0;
  const char *start = text != NULL ? text : "";
  const char *end = start + length;
  GString *shown;
  gsize run = 0;

  if (length <= TANDEM_DISPLAY_LINE_BYTES && memchr (start, '\n', length) == NULL)
    return g_strdup (start);

  shown = g_string_sized_new (MIN (length, max_bytes) + 64);
  if (streaming && length > STREAMING_TAIL_BYTES)
    {
      start = g_utf8_find_next_char (end - STREAMING_TAIL_BYTES - 1, end);
      g_string_append (shown, "…");
      run = shown->len;
    }
  else if (length > max_bytes)
    {
      end = g_utf8_find_prev_char (start, start + max_bytes + 1);
    }

  /* Line by line, so that a text of short lines costs a copy */
  for (const char *line = start; line < end;)
    {
      const char *newline = memchr (line, '\n', end - line);
      const char *line_end = newline != NULL ? newline : end;

      while ((gsize) (line_end - line) + run > TANDEM_DISPLAY_LINE_BYTES)
        {
          /* Broken at a character, never inside one */
          const char *cut = g_utf8_find_prev_char (line, line + TANDEM_DISPLAY_LINE_BYTES - run + 1);

          if (cut == NULL || cut <= line)
            cut = g_utf8_next_char (line);
          g_string_append_len (shown, line, cut - line);
          g_string_append_c (shown, '\n');
          line = cut;
          run = 0;
        }
      g_string_append_len (shown, line, line_end - line);
      run += line_end - line;
      if (newline != NULL)
        {
          g_string_append_c (shown, '\n');
          run = 0;
          line = newline + 1;
        }
      else
        line = end;
    }

  if (end < text + length && !streaming)
    {
      g_autofree char *rest = g_format_size (text + length - end);

      g_string_append_c (shown, '\n');
      /* Translators: under a long text cut short where it is shown, such
       * as a tool's arguments; %s is a size such as "42.1 kB" */
      g_string_append_printf (shown, _("… %s more, left out here; Copy copies all of it"), rest);
    }

  return g_string_free (shown, FALSE);
}
