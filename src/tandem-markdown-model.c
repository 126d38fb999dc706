/* tandem-markdown-model.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tandem-markdown-model-private.h"

/* TandemMarkdownModel: an agent's Markdown parsed by md4c into what the
 * Markdown view shows, a list of top-level blocks each a small tree of
 * nodes, with no GTK in sight, so the fuzzer and the tests can compare a
 * text streamed in pieces with the same text parsed at once.
 *
 * The text is CommonMark with the GitHub extensions (tables,
 * strikethrough, task lists, bare URLs as links). It is never trusted as
 * markup: every run of text is escaped before it becomes Pango markup,
 * raw HTML is kept as the characters that were typed, and only `http:`,
 * `https:` and `mailto:` links become links.
 *
 * Agent data never makes anything here recurse or nest without bound:
 * md4c's own parser does not recurse on nesting, quotes and lists deeper
 * than TANDEM_MARKDOWN_MAX_NESTING are flattened into the deepest one kept
 * (so the node trees, and the functions that walk them, are shallow), and
 * inline spans deeper than TANDEM_MARKDOWN_MAX_SPANS add no more markup. */

typedef TandemMarkdownNode  Node;
typedef TandemMarkdownBlock Block;

struct _TandemMarkdownModel
{
  GString   *text;
  GPtrArray *blocks;         /* of Block, in order */
  gsize      offset;         /* of the text in the message it was cut from */
  guint      has_definitions : 1;
  guint      must_rebuild : 1;
};

/* Nodes */

/* Whether @old's widget can show @new by changing its text and children. */
gboolean
tandem_markdown_node_same_shape (const Node *old,
                                 const Node *new)
{
  return old->kind == new->kind &&
         (old->flags & ~TANDEM_MARKDOWN_IMPLICIT) == (new->flags & ~TANDEM_MARKDOWN_IMPLICIT) &&
         old->level == new->level &&
         old->xalign == new->xalign &&
         g_strcmp0 (old->info, new->info) == 0;
}

gboolean
tandem_markdown_node_equal (const Node *old,
                            const Node *new)
{
  if (!tandem_markdown_node_same_shape (old, new) ||
      !g_string_equal (old->text, new->text) ||
      old->children->len != new->children->len)
    return FALSE;

  for (guint i = 0; i < old->children->len; i++)
    {
      if (!tandem_markdown_node_equal (g_ptr_array_index (old->children, i),
                                       g_ptr_array_index (new->children, i)))
        return FALSE;
    }

  return TRUE;
}

/* Link reference definitions apply to the whole message, also to links
 * above them, so a message with one is always parsed whole. Conservative:
 * any line whose content begins with `[` and has `]:`. */
static gboolean
has_reference_definition (const char *p,
                          const char *end)
{
  while (p < end)
    {
      const char *line_end = p;
      const char *q;

      while (line_end < end && !_tandem_markdown_is_line_end (*line_end))
        line_end++;

      q = p;
      for (;;)
        {
          q = _tandem_markdown_skip_blanks (q, line_end);
          if (q < line_end && (*q == '>' || *q == '-' || *q == '+' || *q == '*'))
            q++;
          else if (q < line_end && g_ascii_isdigit (*q))
            {
              while (q < line_end && (g_ascii_isdigit (*q) || *q == '.' || *q == ')'))
                q++;
            }
          else
            break;
        }

      /* A label may go on over lines: [a\nb]: is a definition too */
      if (q < line_end && *q == '[' &&
          (g_strstr_len (q, line_end - q, "]:") != NULL || memchr (q, ']', line_end - q) == NULL))
        return TRUE;

      p = line_end + 1;
    }

  return FALSE;
}

/* Whether a code block is inside @node, at most as deep as the nesting
 * limit lets nodes be */
static gboolean
node_holds_code (const Node *node)
{
  if (node->kind == TANDEM_MARKDOWN_CODE)
    return TRUE;

  for (guint i = 0; i < node->children->len; i++)
    if (node_holds_code (g_ptr_array_index (node->children, i)))
      return TRUE;

  return FALSE;
}

/* Parses again from the start of block @first, which must be a block
 * whose start is known, and puts the new blocks in place of the old ones
 * from there on. Returns the old blocks, and where they were in @first. */
static GPtrArray *
tandem_markdown_model_reparse (TandemMarkdownModel *self,
                               guint               *first)
{
  g_autoptr(GPtrArray) new_blocks = NULL;
  GPtrArray *replaced;
  gsize start = 0;

  /* The first block starts where the text does, whatever is known */
  if (*first > 0)
    start = ((Block *) g_ptr_array_index (self->blocks, *first))->start;

  g_assert (start != TANDEM_MARKDOWN_UNKNOWN_START);

  new_blocks = _tandem_markdown_parse_blocks (self->text->str, self->text->len, start, self->offset);

  /* Block @first is one that cannot change when text is appended, parsed
   * again only as the context of the blocks after it. If the parse does
   * not give it back as it was, @start was not where a block begins, or
   * md4c reads what follows differently without what comes before: parse
   * the whole message. */
  if (*first > 0)
    {
      Block *new_first = new_blocks->len > 0 ? g_ptr_array_index (new_blocks, 0) : NULL;
      Block *old_first = g_ptr_array_index (self->blocks, *first);

      if (new_first == NULL ||
          (new_first->start != TANDEM_MARKDOWN_UNKNOWN_START && new_first->start != start) ||
          !tandem_markdown_node_equal (new_first->node, old_first->node))
        {
          g_debug ("Markdown block at %" G_GSIZE_FORMAT " moved; parsing all", start);
          g_clear_pointer (&new_blocks, g_ptr_array_unref);
          new_blocks = _tandem_markdown_parse_blocks (self->text->str, self->text->len, 0, self->offset);
          *first = 0;
        }
    }

  replaced = g_ptr_array_new_with_free_func ((GDestroyNotify) _tandem_markdown_block_free);
  for (guint i = *first; i < self->blocks->len; i++)
    g_ptr_array_add (replaced, g_ptr_array_index (self->blocks, i));
  g_ptr_array_set_free_func (self->blocks, NULL);
  g_ptr_array_set_size (self->blocks, *first);
  g_ptr_array_set_free_func (self->blocks, (GDestroyNotify) _tandem_markdown_block_free);
  g_ptr_array_extend_and_steal (self->blocks, g_steal_pointer (&new_blocks));

  return replaced;
}

/* @old_length bytes of the text were there before, and parsed.
 *
 * CommonMark closes a block for good once a later line starts another, so
 * appending text can only change the last top-level block (a paragraph
 * growing, turning into a setext heading or a table when its underline or
 * delimiter row arrives, a lazy continuation line, a list or quote going
 * on after a blank line, a fence still open) and add blocks after it.
 * Parsing from the last block's first line therefore gives the same blocks
 * as parsing everything; in practice it is parsed from two blocks before
 * it, and the first of them must come out unchanged (see
 * tandem_markdown_model_reparse()): the fuzzer found lines that md4c
 * reads differently after a closed block quote than alone.
 *
 * md4c reports no offsets, so a block's first line is worked out from the
 * first text pointer inside it (see builder_find_block_start()) and is
 * left unknown when that is not certain: blocks without text (rules,
 * empty headings, empty fences), blocks whose first line holds no text (a
 * list item or quote starting with an empty line or a fence). Then the
 * parse starts at the nearest earlier block whose start is known; at
 * worst at the top. The one exception to "only the last block changes" is
 * a link reference definition, which also resolves links above it: once
 * one may be present the whole message is parsed on every change. */
static GPtrArray *
tandem_markdown_model_append (TandemMarkdownModel *self,
                              gsize                old_length,
                              guint               *first)
{
  gsize scan_from = _tandem_markdown_line_start (self->text->str, 0, old_length);

  if (!self->has_definitions &&
      has_reference_definition (self->text->str + scan_from,
                                self->text->str + self->text->len))
    self->has_definitions = TRUE;

  /* Only the last block can grow, but when its start is not known for
   * sure, parse from the nearest block before it whose start is. A block
   * that began on the line that grew is not sure either: that line may
   * still turn out to go on with the block before (a fence whose info
   * string gets a backtick is a lazy line of the list item above). */
  *first = 0;
  if (!self->has_definitions)
    {
      for (*first = self->blocks->len; *first > 0; (*first)--)
        {
          gsize start = ((Block *) g_ptr_array_index (self->blocks, *first - 1))->start;

          if (start != TANDEM_MARKDOWN_UNKNOWN_START && start < scan_from)
            break;
        }
      if (*first > 0)
        (*first)--;

      /* ...and from two blocks before that, which stay as they were, so
       * that md4c reads the growing block after what precedes it (a quote
       * holding an open fence changes how md4c ends a list after it) */
      for (guint context = 0; context < 2; context++)
        while (*first > 0)
          {
            (*first)--;
            if (((Block *) g_ptr_array_index (self->blocks, *first))->start != TANDEM_MARKDOWN_UNKNOWN_START)
              break;
          }

      /* A fence in a quote or list item, left open, changes how md4c
       * reads blocks any distance after it: parse from there */
      for (guint i = *first; i > 0; i--)
        {
          Block *block = g_ptr_array_index (self->blocks, i - 1);

          if ((block->node->kind == TANDEM_MARKDOWN_QUOTE || block->node->kind == TANDEM_MARKDOWN_LIST) &&
              node_holds_code (block->node))
            {
              *first = i - 1;
              while (*first > 0 &&
                     ((Block *) g_ptr_array_index (self->blocks, *first))->start == TANDEM_MARKDOWN_UNKNOWN_START)
                (*first)--;
              break;
            }
        }
    }

  return tandem_markdown_model_reparse (self, first);
}

TandemMarkdownModel *
tandem_markdown_model_new (void)
{
  TandemMarkdownModel *self = g_new0 (TandemMarkdownModel, 1);

  self->text = g_string_new (NULL);
  self->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) _tandem_markdown_block_free);

  return self;
}

void
tandem_markdown_model_free (TandemMarkdownModel *self)
{
  if (self == NULL)
    return;

  g_string_free (self->text, TRUE);
  g_ptr_array_unref (self->blocks);
  g_free (self);
}

/* The Markdown parsed, valid UTF-8, never %NULL */
const char *
tandem_markdown_model_get_text (TandemMarkdownModel *self)
{
  return self->text->str;
}

/* Borrowed: the top-level blocks, of #TandemMarkdownBlock */
GPtrArray *
tandem_markdown_model_get_blocks (TandemMarkdownModel *self)
{
  return self->blocks;
}

/**
 * tandem_markdown_model_set_text:
 * @self: a model
 * @text: (nullable): Markdown, such as a streaming message so far
 * @first: (out): the first block that may have changed
 * @rebuilt: (out): whether every block was parsed anew, none kept
 *
 * Parses @text. When @text extends the text parsed (the old text is its
 * prefix), only the end of it is parsed again; anything else parses it
 * all. Invalid UTF-8 becomes replacement characters.
 *
 * Returns: (transfer full) (nullable): the old blocks from @first on, which
 *   the new blocks from @first on replace; %NULL when @text is the same
 */
GPtrArray *
tandem_markdown_model_set_text (TandemMarkdownModel *self,
                                const char          *text,
                                guint               *first,
                                gboolean            *rebuilt)
{
  gsize old_length;
  gsize length;

  g_return_val_if_fail (self != NULL, NULL);

  *first = 0;
  *rebuilt = FALSE;

  if (text == NULL)
    text = "";

  length = strlen (text);
  old_length = self->text->len;

  if (!self->must_rebuild && length >= old_length && memcmp (text, self->text->str, old_length) == 0)
    {
      const char *appended = text + old_length;

      if (length == old_length)
        return NULL;

      /* The old text was valid, so @appended starts on a character */
      if (g_utf8_validate (appended, length - old_length, NULL))
        {
          g_string_append_len (self->text, appended, length - old_length);
        }
      else
        {
          g_autofree char *valid = g_utf8_make_valid (appended, length - old_length);

          g_string_append (self->text, valid);
        }

      return tandem_markdown_model_append (self, old_length, first);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, length);

      GPtrArray *replaced = g_steal_pointer (&self->blocks);

      g_string_assign (self->text, valid);
      self->has_definitions = FALSE;
      self->must_rebuild = FALSE;
      self->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) _tandem_markdown_block_free);
      *rebuilt = TRUE;
      g_ptr_array_unref (tandem_markdown_model_append (self, 0, first));

      return replaced;
    }
}

/**
 * tandem_markdown_model_set_offset:
 * @self: a model
 * @offset: where the text starts in the message it was cut from
 *
 * md4c 0.4.8 takes the bytes of a line for a block header when it checks
 * whether a list item began with two blank lines (mity/md4c issue 6), so
 * whether a list goes on after two blank lines depends on where in the
 * text its last paragraph falls, modulo 256. A row of a message cut into
 * rows is parsed with its lines where they are in the whole message, so
 * that it reads as the whole does. The next tandem_markdown_model_set_text()
 * after a change parses its text anew.
 */
void
tandem_markdown_model_set_offset (TandemMarkdownModel *self,
                                  gsize                offset)
{
  g_return_if_fail (self != NULL);

  if (offset % TANDEM_MARKDOWN_MD4C_ALIGNMENT == self->offset % TANDEM_MARKDOWN_MD4C_ALIGNMENT)
    {
      self->offset = offset;
      return;
    }

  self->offset = offset;
  self->must_rebuild = TRUE;
}

static void
node_dump (const Node *node,
           GString    *out,
           guint       depth)
{
  static const char * const kinds[] = {
    "paragraph", "heading", "code", "rule", "quote", "list", "item", "table", "row", "cell",
  };

  g_string_append_printf (out, "%*s%s", depth * 2, "", kinds[node->kind]);
  if (node->flags & TANDEM_MARKDOWN_ORDERED)
    g_string_append (out, " ordered");
  if (node->flags & TANDEM_MARKDOWN_HEADER)
    g_string_append (out, " header");
  if (node->level != 0)
    g_string_append_printf (out, " level=%u", node->level);
  if (node->xalign != 0.0f)
    g_string_append_printf (out, " xalign=%.1f", node->xalign);
  if (node->info != NULL)
    g_string_append_printf (out, " info=\"%s\"", node->info);
  if (node->text->len > 0)
    {
      g_autofree char *escaped = g_strescape (node->text->str, NULL);

      g_string_append_printf (out, " \"%s\"", escaped);
    }
  g_string_append_c (out, '\n');

  for (guint i = 0; i < node->children->len; i++)
    node_dump (g_ptr_array_index (node->children, i), out, depth + 1);
}

/**
 * tandem_markdown_model_dump:
 * @self: a model
 *
 * Describes the blocks, one node a line, indented by depth: kinds, levels,
 * markers, alignments and markup, everything the view shows. Two models
 * with the same dump are shown the same.
 *
 * Returns: (transfer full): the description
 */
char *
tandem_markdown_model_dump (TandemMarkdownModel *self)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < self->blocks->len; i++)
    node_dump (((Block *) g_ptr_array_index (self->blocks, i))->node, out, 0);

  return g_string_free (out, FALSE);
}
