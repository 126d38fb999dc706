/* tandem-markdown-plain.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <md4c.h>

#include "tandem-markdown-model-private.h"

/* The plain text of a line of Markdown, for previews: md4c reads it as
 * the model does, and only its text is kept. */

typedef struct
{
  GString *out;
  gboolean block_ended;
} PlainText;

static int
on_plain_enter_block_cb (MD_BLOCKTYPE  type,
                         void         *detail,
                         void         *user_data)
{
  return 0;
}

static int
on_plain_leave_block_cb (MD_BLOCKTYPE  type,
                         void         *detail,
                         void         *user_data)
{
  PlainText *plain = user_data;

  plain->block_ended = TRUE;
  return 0;
}

static int
on_plain_span_cb (MD_SPANTYPE  type,
                  void        *detail,
                  void        *user_data)
{
  return 0;
}

static int
on_plain_text_cb (MD_TEXTTYPE    type,
                  const MD_CHAR *text,
                  MD_SIZE        size,
                  void          *user_data)
{
  PlainText *plain = user_data;

  if (plain->block_ended && plain->out->len > 0)
    g_string_append_c (plain->out, ' ');
  plain->block_ended = FALSE;

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      g_string_append (plain->out, "\xef\xbf\xbd");
      break;
    case MD_TEXT_BR:
    case MD_TEXT_SOFTBR:
      g_string_append_c (plain->out, ' ');
      break;
    case MD_TEXT_ENTITY:
      {
        g_autofree char *entity = g_strndup (text, size);

        static const char * const named[][2] = {
          { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
          { "&apos;", "'" }, { "&nbsp;", "\u00a0" },
        };

        for (guint i = 0; i < G_N_ELEMENTS (named); i++)
          if (strcmp (entity, named[i][0]) == 0)
            {
              g_string_append (plain->out, named[i][1]);
              return 0;
            }

        /* The numeric forms; another named one stays as written, which
         * still reads better than markup would. */
        if (size > 3 && text[1] == '#')
          {
            gboolean hex = text[2] == 'x' || text[2] == 'X';
            guint64 code = g_ascii_strtoull (entity + (hex ? 3 : 2), NULL, hex ? 16 : 10);

            if (code > 0 && code <= 0x10FFFF && g_unichar_validate ((gunichar) code))
              {
                g_string_append_unichar (plain->out, (gunichar) code);
                break;
              }
          }
        g_string_append_len (plain->out, text, size);
      }
      break;
    default:
      g_string_append_len (plain->out, text, size);
      break;
    }

  return 0;
}

/**
 * tandem_markdown_plain_text:
 * @markdown: a line or so of Markdown
 *
 * What a reader sees of @markdown, without its markup: "## Hello
 * **world**" reads "Hello world". Blocks are joined by a space: this is
 * for one-line previews, not for the transcript.
 *
 * Returns: (transfer full): the text
 */
char *
tandem_markdown_plain_text (const char *markdown)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = TANDEM_MARKDOWN_MD4C_FLAGS,
    .enter_block = on_plain_enter_block_cb,
    .leave_block = on_plain_leave_block_cb,
    .enter_span = on_plain_span_cb,
    .leave_span = on_plain_span_cb,
    .text = on_plain_text_cb,
  };
  PlainText plain = { g_string_new (NULL), FALSE };
  gsize length = markdown != NULL ? strlen (markdown) : 0;

  if (length == 0 ||
      md_parse (markdown, MIN (length, G_MAXUINT32), &parser, &plain) != 0)
    {
      g_string_free (plain.out, TRUE);
      return g_strdup (markdown != NULL ? markdown : "");
    }

  return g_string_free (plain.out, FALSE);
}
