/* tandem-block-splitter.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <md4c.h>

#include "tandem-block-splitter.h"
#include "tandem-markdown-model.h"

/* The transcript is a list of rows, and GtkListView cannot hold a
 * viewport steady inside one row taller than the window, so an agent's
 * Markdown is cut into several rows. This finds the cuts, reading each
 * byte once as the text streams in.
 *
 * Two kinds of cut:
 *
 * - Between top-level blocks, where rendering the two sides apart gives
 *   exactly what rendering the whole gives: at a line that starts in the
 *   first column after a blank line, outside a fence, and that is not a
 *   list item (which would continue a loose list). A blank line closes
 *   paragraphs, tables and block quotes, and a line in the first column
 *   cannot continue a list item or an indented code block.
 *
 * - Inside one long plain paragraph, at a word, once the stretch since the
 *   last cut is long: between sentences after a kilobyte, at any word
 *   after two. Only where no inline span (code, emphasis, a link) is open,
 *   and before a letter, so the second stretch starts a plain paragraph
 *   too. The rows show one paragraph as two, with the same words and
 *   styles; that is the price of rows of bounded height.
 *
 * A link reference definition resolves links anywhere in the text, so a
 * text that has one is never cut (see tandem_block_splitter_get_whole()).
 *
 * A fence indented two or three columns after a list item may be the
 * item's or open a top-level block: that depends on lazy lines and the
 * item's indentation, which this does not follow; md4c also takes a fence
 * right after a block quote for the close of a fence in the quote. Such a fence leaves the
 * fence state unchanged and makes the next block cut checked by md4c: the
 * line after the cut must start a new top-level block. If it does not,
 * a top-level fence is open and the text is not cut again. The check
 * parses the stretch since the last cut once, so each byte is still
 * parsed a bounded number of times. A cut after a list item is checked
 * the same way: md4c goes on with a list, or a fence in it, in ways
 * CommonMark does not.
 *
 * md4c also ends a line at a lone carriage return, which this does not
 * follow: a text with one is not cut after it.
 */

typedef enum
{
  LINE_NEED_MORE,
  LINE_BLANK,
  LINE_FENCE,
  LINE_LIST_ITEM,
  LINE_DEFINITION,
  LINE_OTHER,
} LineKind;

struct _TandemBlockSplitter
{
  gsize pos;         /* the next byte to read */
  gsize cr_checked;  /* the lines before this were checked for a lone \r */
  gsize line_start;
  gsize row_start;   /* where the current stretch starts */
  char  fence_char;
  guint fence_length;

  /* Inline spans that may be open at pos; a cut must not fall inside one. */
  guint backtick_runs;
  guint star_runs;
  guint underscore_runs;
  guint tilde_runs;
  int   brackets;
  int   parens;

  guint at_line_start : 1;
  guint item_open : 1;   /* a list item may be open */
  guint quote_open : 1;  /* a block quote may be open */
  guint unsure : 1;      /* a fence since the last cut may be the item's */
  guint stuck : 1;       /* a top-level fence of unknown end is open */
  guint line_blank : 1;
  guint previous_blank : 1;
  guint in_fence : 1;
  guint plain : 1;    /* the stretch is, so far, one plain paragraph */
  guint whole : 1;
};

TandemBlockSplitter *
tandem_block_splitter_new (void)
{
  TandemBlockSplitter *self = g_new0 (TandemBlockSplitter, 1);

  self->at_line_start = TRUE;
  self->line_blank = TRUE;
  self->previous_blank = TRUE;

  return self;
}

void
tandem_block_splitter_free (TandemBlockSplitter *self)
{
  g_free (self);
}

/**
 * tandem_block_splitter_get_whole:
 * @self: a splitter
 *
 * Whether the text holds a link reference definition, and so must be shown
 * as one block whatever cuts were reported before.
 */
gboolean
tandem_block_splitter_get_whole (TandemBlockSplitter *self)
{
  return self->whole;
}

static void
reset_spans (TandemBlockSplitter *self)
{
  self->backtick_runs = 0;
  self->star_runs = 0;
  self->underscore_runs = 0;
  self->tilde_runs = 0;
  self->brackets = 0;
  self->parens = 0;
}

static gboolean
spans_closed (TandemBlockSplitter *self)
{
  return self->backtick_runs % 2 == 0 &&
         self->star_runs % 2 == 0 &&
         self->underscore_runs % 2 == 0 &&
         self->tilde_runs % 2 == 0 &&
         self->brackets <= 0 &&
         self->parens <= 0;
}

static void
cut (TandemBlockSplitter *self,
     gsize                offset,
     gboolean             plain,
     gboolean             continued,
     GArray              *cuts)
{
  TandemBlockCut cut = { offset, continued };

  if (offset <= self->row_start)
    return;

  g_array_append_val (cuts, cut);
  self->row_start = offset;
  self->plain = plain;
  reset_spans (self);
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A letter that starts a word: ASCII, or the lead byte of a multibyte
 * character, which is never Markdown syntax. */
static gboolean
starts_word (char c)
{
  return g_ascii_isalpha (c) || (guchar) c >= 0xc0;
}

/* Where md4c ends the line at @p: also at a carriage return */
static const char *
find_content_end (const char *p,
                  const char *end)
{
  while (p < end && *p != '\n' && *p != '\r')
    p++;

  return p;
}

static const char *
find_line_end (const char *p,
               const char *end)
{
  const char *nl = memchr (p, '\n', end - p);

  return nl != NULL ? nl : end;
}

/* A link reference definition: `[label]:` at the start of the content of
 * a line, possibly inside quotes and list items. Conservative, like the
 * Markdown view's own test. */
static gboolean
is_definition (const char *p,
               const char *line_end)
{
  for (;;)
    {
      while (p < line_end && (*p == ' ' || *p == '\t'))
        p++;
      if (p < line_end && (*p == '>' || *p == '-' || *p == '+' || *p == '*'))
        p++;
      else if (p < line_end && g_ascii_isdigit (*p))
        {
          while (p < line_end && (g_ascii_isdigit (*p) || *p == '.' || *p == ')'))
            p++;
        }
      else
        break;
    }

  /* A label may go on over lines: [a\nb]: is a definition too */
  return p < line_end && *p == '[' &&
         (g_strstr_len (p, line_end - p, "]:") != NULL || memchr (p, ']', line_end - p) == NULL);
}

/* Whether the marks from @p to @line_end, all one @mark and blanks, could
 * be a thematic break or a setext underline. */
static gboolean
only_marks (const char *p,
            const char *line_end,
            char        mark)
{
  for (; p < line_end; p++)
    if (*p != mark && *p != ' ' && *p != '\t' && *p != '\r')
      return FALSE;

  return TRUE;
}

/* What the line at @line is, from as few of its characters as tell; and
 * whether it begins or continues a plain paragraph (@plain_out). */
static LineKind
classify_line (TandemBlockSplitter *self,
               const char          *line,
               const char          *end,
               gboolean             complete,
               guint               *indent_out,
               gboolean            *plain_out)
{
  const char *line_end = find_content_end (line, end);
  gboolean whole_line = line_end < end || complete;
  const char *p = line;
  const char *q;
  guint indent = 0;

  gboolean tab = FALSE;

  while (p < line_end && (*p == ' ' || *p == '\t'))
    {
      tab |= *p == '\t';
      indent += *p == '\t' ? 4 : 1;
      p++;
    }
  *indent_out = indent;
  *plain_out = indent < 4;

  if (p == line_end)
    return whole_line ? LINE_BLANK : LINE_NEED_MORE;

  switch (*p)
    {
    case '[':
      q = memchr (p, ']', line_end - p);
      if (q == NULL)
        return whole_line ? LINE_DEFINITION : LINE_NEED_MORE;  /* its label may go on */
      if (q + 1 == line_end && !whole_line)
        return LINE_NEED_MORE;
      return q + 1 < line_end && q[1] == ':' ? LINE_DEFINITION : LINE_OTHER;

    case '>':
      /* A quote may hold a definition: read it whole */
      *plain_out = FALSE;
      if (!whole_line)
        return LINE_NEED_MORE;
      return is_definition (line, line_end) ? LINE_DEFINITION : LINE_OTHER;

    case '-': case '+': case '*': case '_': case '=':
      if (p + 1 == line_end && !whole_line)
        return LINE_NEED_MORE;
      if (*p != '_' && *p != '=' && (p + 1 == line_end || p[1] == ' ' || p[1] == '\t'))
        {
          *plain_out = FALSE;
          if (!whole_line)
            return LINE_NEED_MORE;
          return is_definition (line, line_end) ? LINE_DEFINITION : LINE_LIST_ITEM;
        }
      if (*p != '+' && only_marks (p, line_end, *p))
        {
          /* A rule or an underline, unless something else follows */
          *plain_out = FALSE;
          return whole_line ? LINE_OTHER : LINE_NEED_MORE;
        }
      return LINE_OTHER;

    case '`': case '~':
      for (q = p; q < line_end && *q == *p; q++)
        ;
      if (q == line_end && !whole_line)
        return LINE_NEED_MORE;
      /* md4c and CommonMark count a tab before a fence differently, and
       * md4c may open one indented four columns after a table-like line */
      if (q - p >= 3 && (tab || indent >= 4))
        {
          self->unsure = TRUE;
          *plain_out = FALSE;
          return LINE_OTHER;
        }
      if (q - p >= 3 && indent < 4)
        {
          /* A backtick fence's info string has no backtick */
          if (*p == '`' && !whole_line)
            return LINE_NEED_MORE;
          if (*p == '~' || memchr (q, '`', line_end - q) == NULL)
            {
              self->fence_char = *p;
              self->fence_length = q - p;
              *plain_out = FALSE;
              return LINE_FENCE;
            }
        }
      return LINE_OTHER;

    case '#':
      if (p + 1 == line_end && !whole_line)
        return LINE_NEED_MORE;
      if (p + 1 == line_end || p[1] == ' ' || p[1] == '\t' || p[1] == '#')
        *plain_out = FALSE;
      return LINE_OTHER;

    case '|':
      *plain_out = FALSE;
      return LINE_OTHER;

    default:
      break;
    }

  if (g_ascii_isdigit (*p))
    {
      for (q = p; q < line_end && g_ascii_isdigit (*q) && q - p < 10; q++)
        ;
      if (q == line_end && !whole_line)
        return LINE_NEED_MORE;
      if (q < line_end && q - p < 10 && (*q == '.' || *q == ')'))
        {
          if (q + 1 == line_end && !whole_line)
            return LINE_NEED_MORE;
          if (q + 1 == line_end || q[1] == ' ' || q[1] == '\t')
            {
              *plain_out = FALSE;
              if (!whole_line)
                return LINE_NEED_MORE;
              return is_definition (line, line_end) ? LINE_DEFINITION : LINE_LIST_ITEM;
            }
        }
    }

  return LINE_OTHER;
}

/* Inside a fence, whether @line closes it: the same mark at least as
 * long, indented less than four, nothing but blanks after it. */
static LineKind
closes_fence (TandemBlockSplitter *self,
              const char          *line,
              const char          *end,
              gboolean             complete,
              gboolean            *closes)
{
  const char *line_end = find_content_end (line, end);
  const char *p = line;
  const char *q;
  guint indent = 0;

  *closes = FALSE;

  while (p < line_end && *p == ' ' && indent < 4)
    {
      indent++;
      p++;
    }
  if (p == line_end && line_end == end && !complete)
    return LINE_NEED_MORE;
  if (p < line_end && *p == '\t')
    {
      /* md4c and CommonMark count a tab before a fence differently */
      while (p < line_end && (*p == ' ' || *p == '\t'))
        p++;
      if (p == end && !complete)
        return LINE_NEED_MORE;
      if (p < line_end && *p == self->fence_char)
        self->unsure = TRUE;
      return LINE_OTHER;
    }
  if (indent >= 4 || p == line_end || *p != self->fence_char)
    return LINE_OTHER;
  if (line_end == end && !complete)
    return LINE_NEED_MORE;

  for (q = p; q < line_end && *q == self->fence_char; q++)
    ;
  if ((guint) (q - p) < self->fence_length)
    return LINE_OTHER;
  while (q < line_end && (*q == ' ' || *q == '\t' || *q == '\r'))
    {
      /* md4c may not close a fence that a tab follows */
      if (*q == '\t')
        self->unsure = TRUE;
      q++;
    }
  *closes = q == line_end;

  return LINE_OTHER;
}

static int
on_enter_block_cb (MD_BLOCKTYPE  type,
                   void         *detail,
                   void         *user_data)
{
  guint *depth = user_data;

  if (depth[0]++ == 1)
    {
      depth[1]++;
      depth[2] = type;
    }

  return 0;
}

static int
on_leave_block_cb (MD_BLOCKTYPE  type,
                   void         *detail,
                   void         *user_data)
{
  guint *depth = user_data;

  depth[0]--;

  return 0;
}

static int
on_span_cb (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  return 0;
}

static int
on_text_cb (MD_TEXTTYPE    type,
            const MD_CHAR *text,
            MD_SIZE        size,
            void          *user_data)
{
  return 0;
}

/* How many top-level blocks md4c makes of @text from @start to @end, and
 * the type of the last one in @last_type. Its lines are where they are in
 * @text modulo the alignment, as the rows' models parse them (see
 * tandem_markdown_model_set_offset()). */
static guint
count_top_level_blocks (const char *text,
                        gsize       start,
                        gsize       end,
                        guint      *last_type)
{
  gsize pad = start % TANDEM_MARKDOWN_MD4C_ALIGNMENT;
  g_autofree char *padded = g_malloc (pad + end - start + 1);
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
    .enter_block = on_enter_block_cb,
    .leave_block = on_leave_block_cb,
    .enter_span = on_span_cb,
    .leave_span = on_span_cb,
    .text = on_text_cb,
  };
  /* blocks open, the document's included; top-level blocks; the last's type */
  guint depth[3] = { 0, 0, G_MAXUINT };

  memset (padded, '\n', pad);
  memcpy (padded + pad, text + start, end - start);
  md_parse (padded, MIN (pad + end - start, G_MAXUINT32), &parser, depth);
  *last_type = depth[2];

  return depth[1];
}

/* Whether the whole line at self->line_start, ending at @line_end, after
 * a blank line and starting in the first column, starts a new top-level
 * block rather than going on with a fence or a list item opened since the
 * last cut: then it adds one block to the stretch. */
static gboolean
starts_top_level_block (TandemBlockSplitter *self,
                        const char          *text,
                        const char          *line_end)
{
  guint type_before, type_with_line, type_alone;
  gsize end = line_end - text;
  guint before = count_top_level_blocks (text, self->row_start, self->line_start, &type_before);
  guint with_line = count_top_level_blocks (text, self->row_start, end, &type_with_line);

  /* ...and the same block as the line makes alone */
  count_top_level_blocks (text, self->line_start, end, &type_alone);
  if (with_line == before + 1 && type_with_line == type_alone)
    return TRUE;

  self->stuck = TRUE;
  return FALSE;
}

/* Decides what the line at self->pos means for the cuts. Returns FALSE
 * when that cannot be told before more text arrives. */
static gboolean
start_line (TandemBlockSplitter *self,
            const char          *text,
            gsize                length,
            gboolean             complete,
            GArray              *cuts)
{
  const char *line = text + self->pos;
  const char *end = text + length;
  LineKind kind;
  gboolean cut_here;
  gboolean quote_before;
  gboolean plain;
  guint indent;

  /* Lines read so far, each ended by \n: a \r before one that is not
   * part of a \r\n ended a line for md4c */
  for (const char *cr = text + self->cr_checked;
       !self->stuck && (cr = memchr (cr, '\r', self->line_start - (cr - text))) != NULL;
       cr++)
    if (cr[1] != '\n')
      self->stuck = TRUE;
  self->cr_checked = self->line_start;

  /* Unsure where fences are, a definition may be in what seems code */
  if ((self->unsure || self->stuck) && !self->whole)
    {
      const char *line_end = find_line_end (line, end);

      if (line_end == end && !complete)
        return FALSE;
      if (is_definition (line, line_end))
        self->whole = TRUE;
    }

  if (self->in_fence)
    {
      gboolean closes;

      if (closes_fence (self, line, end, complete, &closes) == LINE_NEED_MORE)
        return FALSE;
      if (closes)
        self->in_fence = FALSE;
      self->line_blank = FALSE;
      return TRUE;
    }

  {
    const char *p = line;

    /* A line that starts with a lone \r is a blank line for md4c, and
     * what follows the \r may go on with the block before */
    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    if (p < end && *p == '\r')
      {
        if (p + 1 == end && !complete)
          return FALSE;
        if (p + 1 == end || p[1] != '\n')
          self->stuck = TRUE;
      }
  }

  kind = classify_line (self, line, end, complete, &indent, &plain);
  if (kind == LINE_NEED_MORE)
    return FALSE;

  if (kind == LINE_BLANK)
    {
      self->quote_open = FALSE;
      return TRUE;
    }

  quote_before = self->quote_open;
  {
    const char *p = line;

    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    /* Until a blank line: lazy lines go on with a quote */
    self->quote_open |= p < end && *p == '>';
  }

  self->line_blank = FALSE;

  if (kind == LINE_DEFINITION)
    self->whole = TRUE;

  cut_here = self->previous_blank && indent == 0 && kind != LINE_LIST_ITEM && !self->whole &&
             !self->stuck && self->line_start > self->row_start;
  if (cut_here && (self->unsure || self->item_open))
    {
      /* md4c, not CommonMark, tells: on the whole line, so that the answer
       * does not depend on how much of it has arrived */
      const char *line_end = find_content_end (line, end);

      if (line_end == end && !complete)
        return FALSE;
      cut_here = starts_top_level_block (self, text, line_end);
    }

  if (cut_here)
    {
      cut (self, self->line_start, plain, FALSE, cuts);
      /* A blank line and a line in the first column close every list */
      self->item_open = FALSE;
      self->unsure = FALSE;
    }
  else if (self->line_start == self->row_start)
    self->plain = plain;
  else if (!plain || self->previous_blank)
    self->plain = FALSE;

  if (kind == LINE_FENCE)
    {
      self->plain = FALSE;
      if ((self->item_open && indent >= 2) || quote_before)
        self->unsure = TRUE;
      else
        self->in_fence = TRUE;
    }
  else if (kind == LINE_LIST_ITEM && indent < 4)
    {
      self->item_open = TRUE;
    }

  return TRUE;
}

/* Reads a run of emphasis or code marks at self->pos and counts it when
 * it may open or close a span. Returns FALSE when the run may go on in
 * text not yet arrived. */
static gboolean
read_run (TandemBlockSplitter *self,
          const char          *text,
          gsize                length,
          gboolean             complete)
{
  char mark = text[self->pos];
  char before = self->pos > self->line_start ? text[self->pos - 1] : ' ';
  gsize end = self->pos;
  char after;

  while (end < length && text[end] == mark)
    end++;
  if (end == length && !complete)
    return FALSE;
  after = end < length ? text[end] : ' ';

  switch (mark)
    {
    case '`':
      self->backtick_runs++;
      break;
    case '*':
      if (!(is_space (before) && is_space (after)))
        self->star_runs++;
      break;
    case '~':
      if (!(is_space (before) && is_space (after)))
        self->tilde_runs++;
      break;
    case '_':
      if (!(is_space (before) && is_space (after)) &&
          !(g_ascii_isalnum (before) && g_ascii_isalnum (after)))
        self->underscore_runs++;
      break;
    default:
      g_assert_not_reached ();
    }

  self->pos = end;

  return TRUE;
}

/**
 * tandem_block_splitter_feed:
 * @self: a splitter
 * @text: the whole text so far, which extends the text of the last call
 * @length: its length in bytes
 * @complete: whether the text is finished
 * @cuts: (element-type TandemBlockCut): where new blocks start is appended here
 *
 * Reads what was appended since the last call. Each byte is read once,
 * give or take the start of a line or a run of marks that had to wait for
 * the next delta.
 */
void
tandem_block_splitter_feed (TandemBlockSplitter *self,
                            const char          *text,
                            gsize                length,
                            gboolean             complete,
                            GArray              *cuts)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (length >= self->pos);


  while (self->pos < length)
    {
      char c;

      if (self->at_line_start)
        {
          if (!start_line (self, text, length, complete, cuts))
            return;
          self->at_line_start = FALSE;
        }

      c = text[self->pos];

      if (c == '\n')
        {
          self->previous_blank = self->line_blank;
          self->line_blank = TRUE;
          self->at_line_start = TRUE;
          self->pos++;
          self->line_start = self->pos;
          continue;
        }

      if (self->in_fence || !self->plain || self->whole || self->stuck)
        {
          const char *line_end = find_line_end (text + self->pos, text + length);

          self->pos = line_end - text;
          continue;
        }

      switch (c)
        {
        case '\\':
          /* The escaped character is not syntax */
          if (self->pos + 1 == length && !complete)
            return;
          self->pos += self->pos + 1 < length && text[self->pos + 1] != '\n' ? 2 : 1;
          continue;

        case '`': case '*': case '_': case '~':
          if (!read_run (self, text, length, complete))
            return;
          continue;

        case '\r':
          /* md4c ends a line here unless a \n follows */
          if (self->pos + 1 == length && !complete)
            return;
          if (self->pos + 1 == length || text[self->pos + 1] != '\n')
            self->stuck = TRUE;
          break;

        case '[': self->brackets++; break;
        case ']': self->brackets--; break;
        case '(': self->parens++; break;
        case ')': self->parens--; break;

        case '|':
          /* A table row, perhaps: its delimiter row may still come */
          self->plain = FALSE;
          break;

        default:
          if (starts_word (c) && self->pos > self->line_start + 1 && text[self->pos - 1] == ' ' &&
              spans_closed (self))
            {
              gsize size = self->pos - self->row_start;
              char previous = text[self->pos - 2];

              if (size >= TANDEM_BLOCK_SPLITTER_WORD_BYTES ||
                  (size >= TANDEM_BLOCK_SPLITTER_SENTENCE_BYTES &&
                   (previous == '.' || previous == '!' || previous == '?')))
                cut (self, self->pos, TRUE, TRUE, cuts);
            }
          break;
        }

      self->pos++;
    }
}
