/* tandem-markdown-model-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-markdown-model.h"

G_BEGIN_DECLS

/* md4c's GitHub dialect, with raw HTML off so that it reaches us as text
 * and is shown as typed. */
#define TANDEM_MARKDOWN_MD4C_FLAGS (MD_DIALECT_GITHUB | MD_FLAG_NOHTML)

GPtrArray *_tandem_markdown_parse_blocks (const char          *source,
                                         gsize                length,
                                         gsize                base,
                                         gsize                offset);
void       _tandem_markdown_block_free   (TandemMarkdownBlock *block);

/* Both the parser and the model look for where lines start */

static inline gboolean
_tandem_markdown_is_line_end (char c)
{
  return c == '\n' || c == '\r';
}

static inline gsize
_tandem_markdown_line_start (const char *source,
                             gsize       base,
                             gsize       offset)
{
  while (offset > base && !_tandem_markdown_is_line_end (source[offset - 1]))
    offset--;

  return offset;
}

static inline const char *
_tandem_markdown_skip_blanks (const char *p,
                              const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;

  return p;
}

G_END_DECLS
