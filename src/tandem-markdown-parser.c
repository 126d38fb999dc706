/* tandem-markdown-parser.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <md4c.h>

#include "tandem-markdown-model-private.h"

/* md4c's callbacks, which build the blocks of a TandemMarkdownModel (see
 * tandem-markdown-model.c for what is trusted and how deep it goes). */

#define REPLACEMENT_CHARACTER "\xef\xbf\xbd"

typedef TandemMarkdownNode  Node;
typedef TandemMarkdownBlock Block;

/* The blocks entered, outermost first, before a top-level block's first
 * text: they say which markers may precede that text on its line. */
typedef struct
{
  MD_BLOCKTYPE type;
  char         mark;
  guint        is_task : 1;
} SpineStep;

typedef struct
{
  const char *source;
  gsize       base;
  gsize       length;
  GPtrArray  *blocks;
  GPtrArray  *stack;          /* Node, or NULL for a block shown by its parent */
  GArray     *spans;          /* OpenSpan per span entered and not yet left */
  guint       open_anchors;
  guint       nesting;
  guint       list_depth;
  guint       in_table_head : 1;

  GArray     *spine;
  gsize       first_offset;
  guint       spine_open : 1;
  guint       first_is_info : 1;
  guint       first_in_code : 1;
} Builder;

/* Nodes */

static void node_free (Node *node);

static Node *
node_new (TandemMarkdownKind kind)
{
  Node *node = g_new0 (Node, 1);

  node->kind = kind;
  node->xalign = 0.0f;
  node->text = g_string_new (NULL);
  node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);

  return node;
}

static void
node_free (Node *node)
{
  if (node == NULL)
    return;

  g_ptr_array_unref (node->children);
  g_string_free (node->text, TRUE);
  g_free (node->info);
  g_free (node);
}

void
_tandem_markdown_block_free (Block *block)
{
  node_free (block->node);
  g_free (block);
}

/* Text */

static const struct {
  const char *name;
  const char *text;
} named_entities[] = {
  { "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" },
  { "apos", "'" }, { "nbsp", "\xc2\xa0" }, { "copy", "©" }, { "reg", "®" },
  { "trade", "™" }, { "hellip", "…" }, { "mdash", "—" }, { "ndash", "–" },
  { "laquo", "«" }, { "raquo", "»" }, { "lsquo", "‘" }, { "rsquo", "’" },
  { "ldquo", "“" }, { "rdquo", "”" }, { "times", "×" }, { "divide", "÷" },
  { "deg", "°" }, { "euro", "€" }, { "pound", "£" }, { "yen", "¥" },
  { "cent", "¢" }, { "sect", "§" }, { "para", "¶" }, { "middot", "·" },
  { "bull", "•" }, { "larr", "←" }, { "rarr", "→" }, { "uarr", "↑" },
  { "darr", "↓" }, { "harr", "↔" }, { "le", "≤" }, { "ge", "≥" },
  { "ne", "≠" }, { "plusmn", "±" }, { "infin", "∞" }, { "check", "✓" },
};

/* md4c hands entities over undecoded; numeric ones and the common named
 * ones are decoded, any other is shown as written. */
static void
append_entity (GString    *out,
               const char *entity,
               gsize       size)
{
  g_assert (size >= 2);

  if (size > 3 && entity[1] == '#')
    {
      g_autofree char *digits = NULL;
      gboolean hex = entity[2] == 'x' || entity[2] == 'X';
      guint64 code_point;

      digits = g_strndup (entity + (hex ? 3 : 2), size - (hex ? 4 : 3));
      code_point = g_ascii_strtoull (digits, NULL, hex ? 16 : 10);
      if (code_point == 0 || code_point > 0x10FFFF ||
          (code_point >= 0xD800 && code_point <= 0xDFFF))
        g_string_append (out, REPLACEMENT_CHARACTER);
      else
        g_string_append_unichar (out, (gunichar) code_point);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (named_entities); i++)
    {
      if (strlen (named_entities[i].name) == size - 2 &&
          memcmp (named_entities[i].name, entity + 1, size - 2) == 0)
        {
          g_string_append (out, named_entities[i].text);
          return;
        }
    }

  g_string_append_len (out, entity, size);
}

static void
append_escaped (GString    *markup,
                const char *text,
                gssize      size)
{
  g_autofree char *escaped = g_markup_escape_text (text, size);

  g_string_append (markup, escaped);
}

static char *
attribute_to_string (const MD_ATTRIBUTE *attribute)
{
  GString *out = g_string_new (NULL);

  if (attribute->size == 0 || attribute->substr_offsets == NULL)
    return g_string_free (out, FALSE);

  for (guint i = 0; attribute->substr_offsets[i] < attribute->size; i++)
    {
      MD_OFFSET begin = attribute->substr_offsets[i];
      MD_OFFSET end = attribute->substr_offsets[i + 1];

      switch (attribute->substr_types[i])
        {
        case MD_TEXT_ENTITY:
          append_entity (out, attribute->text + begin, end - begin);
          break;

        case MD_TEXT_NULLCHAR:
          g_string_append (out, REPLACEMENT_CHARACTER);
          break;

        default:
          g_string_append_len (out, attribute->text + begin, end - begin);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* Links go to a browser or a mail client, never to a file or a program. */
gboolean
tandem_markdown_uri_is_openable (const char *uri)
{
  return g_ascii_strncasecmp (uri, "https://", 8) == 0 ||
         g_ascii_strncasecmp (uri, "http://", 7) == 0 ||
         g_ascii_strncasecmp (uri, "mailto:", 7) == 0;
}

/* Where blocks start */

static const char *
skip_fence (const char *p,
            const char *end,
            char        mark)
{
  const char *begin = p;

  while (p < end && *p == mark)
    p++;

  return p - begin >= 3 ? p : NULL;
}

/* Whether the characters from a line's start to the first text of a block
 * are exactly the markers of the blocks in @steps (plus blanks and the
 * openers of inline spans): then the block begins on that line. A list
 * item whose first line is empty fails here, because the line of its first
 * text has no list marker. */
static gboolean
prefix_matches_spine (const char      *p,
                      const char      *end,
                      const SpineStep *steps,
                      guint            n_steps)
{
  for (guint i = 0; i < n_steps; i++)
    {
      p = _tandem_markdown_skip_blanks (p, end);

      switch (steps[i].type)
        {
        case MD_BLOCK_QUOTE:
          if (p == end || *p != '>')
            return FALSE;
          p++;
          break;

        case MD_BLOCK_UL:
          if (p == end || *p != steps[i].mark)
            return FALSE;
          p++;
          if (p == end || (*p != ' ' && *p != '\t'))
            return FALSE;
          break;

        case MD_BLOCK_OL:
          {
            const char *digits = p;

            while (p < end && g_ascii_isdigit (*p))
              p++;
            if (p == digits || p - digits > 9 || p == end || *p != steps[i].mark)
              return FALSE;
            p++;
            if (p == end || (*p != ' ' && *p != '\t'))
              return FALSE;
          }
          break;

        case MD_BLOCK_LI:
          if (steps[i].is_task)
            {
              if (end - p < 3 || p[0] != '[' || p[2] != ']')
                return FALSE;
              p += 3;
            }
          break;

        case MD_BLOCK_H:
          while (p < end && *p == '#')
            p++;
          break;

        case MD_BLOCK_CODE:
          if (steps[i].mark != 0 && !(p = skip_fence (p, end, steps[i].mark)))
            return FALSE;
          break;

        case MD_BLOCK_TABLE:
        case MD_BLOCK_THEAD:
        case MD_BLOCK_TR:
        case MD_BLOCK_TH:
          if (p < end && *p == '|')
            p++;
          break;

        default:
          break;
        }
    }

  while (p < end && strchr (" \t*_~`[!<\\", *p) != NULL)
    p++;

  return p == end;
}

/* Works out where the top-level block just parsed starts, or says it
 * cannot tell: a block with no text (a rule, an empty heading), one that
 * closed an inner block before any text (an empty list item) or whose
 * first line has no text (a fence with no info string inside a list). */
static gsize
builder_find_block_start (Builder *b)
{
  const SpineStep *steps = (const SpineStep *) (gpointer) b->spine->data;
  guint n_steps = b->spine->len;
  gsize line;

  if (b->first_offset == TANDEM_MARKDOWN_UNKNOWN_START || n_steps == 0)
    return TANDEM_MARKDOWN_UNKNOWN_START;

  line = _tandem_markdown_line_start (b->source, b->base, b->first_offset);

  if (steps[n_steps - 1].type == MD_BLOCK_CODE &&
      steps[n_steps - 1].mark != 0 &&
      !b->first_is_info)
    {
      const char *fence;
      gsize previous_end;

      /* The code starts on the line after its fence; only a fence at the
       * top level is sure to be the line before. */
      if (n_steps != 1 || line == b->base)
        return TANDEM_MARKDOWN_UNKNOWN_START;

      previous_end = line - 1;
      if (b->source[previous_end] == '\n' && previous_end > b->base &&
          b->source[previous_end - 1] == '\r')
        previous_end--;
      line = _tandem_markdown_line_start (b->source, b->base, previous_end);

      fence = b->source + line;
      for (guint i = 0; i < 3 && fence < b->source + previous_end && *fence == ' '; i++)
        fence++;
      if (!skip_fence (fence, b->source + previous_end, steps[0].mark))
        return TANDEM_MARKDOWN_UNKNOWN_START;

      return line;
    }

  if (!prefix_matches_spine (b->source + line, b->source + b->first_offset,
                             steps, n_steps))
    return TANDEM_MARKDOWN_UNKNOWN_START;

  /* A code span drops the line end after its opening backticks, so its
   * first text may be a line below them */
  if (b->first_in_code && memchr (b->source + line, '`', b->first_offset - line) == NULL)
    return TANDEM_MARKDOWN_UNKNOWN_START;

  return line;
}

static void
builder_note_pointer (Builder    *b,
                      const char *text,
                      gsize       size)
{
  if (!b->spine_open || size == 0)
    return;

  /* md4c also hands over static strings (line breaks, indentation). One
   * before any text of the source means the first text is not on the
   * block's first line (a link whose text starts on the next line). */
  if ((guintptr) text >= (guintptr) (b->source + b->base) &&
      (guintptr) text < (guintptr) (b->source + b->length))
    b->first_offset = text - b->source;

  b->spine_open = FALSE;
}

/* Building */

static Node *
builder_get_parent (Builder *b)
{
  for (guint i = b->stack->len; i > 0; i--)
    {
      Node *node = g_ptr_array_index (b->stack, i - 1);

      if (node != NULL)
        return node;
    }

  return NULL;
}

static void
builder_add_node (Builder *b,
                  Node    *node)
{
  Node *parent = builder_get_parent (b);

  if (parent != NULL)
    {
      g_ptr_array_add (parent->children, node);
    }
  else
    {
      Block *block = g_ptr_array_index (b->blocks, b->blocks->len - 1);

      g_assert (block->node == NULL);
      block->node = node;
    }
}

static void
builder_close_implicit (Builder *b)
{
  Node *top;

  if (b->stack->len == 0)
    return;

  top = g_ptr_array_index (b->stack, b->stack->len - 1);
  if (top != NULL && (top->flags & TANDEM_MARKDOWN_IMPLICIT) != 0)
    g_ptr_array_set_size (b->stack, b->stack->len - 1);
}

/* The node inline content goes into. Items of tight lists get their text
 * with no paragraph around it; it goes into one made for it. */
static Node *
builder_get_inline_node (Builder *b)
{
  Node *top = NULL;
  Node *paragraph;

  if (b->stack->len > 0)
    top = g_ptr_array_index (b->stack, b->stack->len - 1);

  if (top != NULL &&
      (top->kind == TANDEM_MARKDOWN_PARAGRAPH || top->kind == TANDEM_MARKDOWN_HEADING ||
       top->kind == TANDEM_MARKDOWN_CELL || top->kind == TANDEM_MARKDOWN_CODE))
    return top;

  if (builder_get_parent (b) == NULL)
    return NULL;

  paragraph = node_new (TANDEM_MARKDOWN_PARAGRAPH);
  paragraph->flags |= TANDEM_MARKDOWN_IMPLICIT;
  builder_add_node (b, paragraph);
  g_ptr_array_add (b->stack, paragraph);

  return paragraph;
}

static void
builder_add_spine_step (Builder      *b,
                        MD_BLOCKTYPE  type,
                        void         *detail)
{
  SpineStep step = { type, 0, FALSE };

  switch (type)
    {
    case MD_BLOCK_UL:
      step.mark = ((MD_BLOCK_UL_DETAIL *) detail)->mark;
      break;

    case MD_BLOCK_OL:
      step.mark = ((MD_BLOCK_OL_DETAIL *) detail)->mark_delimiter;
      break;

    case MD_BLOCK_LI:
      step.is_task = ((MD_BLOCK_LI_DETAIL *) detail)->is_task != 0;
      break;

    case MD_BLOCK_CODE:
      {
        MD_BLOCK_CODE_DETAIL *code = detail;

        step.mark = code->fence_char;
        g_array_append_val (b->spine, step);

        /* The info string is on the fence's line */
        builder_note_pointer (b, code->info.text, code->info.size);
        b->first_is_info = !b->spine_open;
        return;
      }

    default:
      break;
    }

  g_array_append_val (b->spine, step);
}

static const char *
list_bullet (guint depth)
{
  static const char * const bullets[] = { "•", "◦", "▪" };

  return bullets[depth % G_N_ELEMENTS (bullets)];
}

static void builder_close_spans (Builder *b);

static int
on_enter_block_cb (MD_BLOCKTYPE  type,
                   void         *detail,
                   void         *user_data)
{
  Builder *b = user_data;
  Node *node = NULL;

  if (type == MD_BLOCK_DOC)
    return 0;

  builder_close_implicit (b);

  if (b->stack->len == 0)
    {
      Block *block = g_new0 (Block, 1);

      block->start = TANDEM_MARKDOWN_UNKNOWN_START;
      g_ptr_array_add (b->blocks, block);

      g_array_set_size (b->spine, 0);
      b->spine_open = TRUE;
      b->first_is_info = FALSE;
      b->first_in_code = FALSE;
      b->first_offset = TANDEM_MARKDOWN_UNKNOWN_START;
    }

  if (b->spine_open)
    builder_add_spine_step (b, type, detail);

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      if (b->nesting++ < TANDEM_MARKDOWN_MAX_NESTING)
        node = node_new (TANDEM_MARKDOWN_QUOTE);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      if (b->nesting++ < TANDEM_MARKDOWN_MAX_NESTING)
        {
          node = node_new (TANDEM_MARKDOWN_LIST);
          if (type == MD_BLOCK_OL)
            {
              node->flags |= TANDEM_MARKDOWN_ORDERED;
              node->level = ((MD_BLOCK_OL_DETAIL *) detail)->start;
            }
          node->info = g_strdup (list_bullet (b->list_depth));
        }
      b->list_depth++;
      break;

    case MD_BLOCK_LI:
      {
        Node *list = b->stack->len > 0 ? g_ptr_array_index (b->stack, b->stack->len - 1) : NULL;
        MD_BLOCK_LI_DETAIL *item = detail;

        if (list == NULL || list->kind != TANDEM_MARKDOWN_LIST)
          break;

        node = node_new (TANDEM_MARKDOWN_ITEM);
        if (item->is_task)
          node->info = g_strdup (item->task_mark == ' ' ? "☐" : "☑");
        else if (list->flags & TANDEM_MARKDOWN_ORDERED)
          node->info = g_strdup_printf ("%u.", list->level + list->children->len);
        else
          node->info = g_strdup (list->info);
      }
      break;

    case MD_BLOCK_HR:
      node = node_new (TANDEM_MARKDOWN_RULE);
      break;

    case MD_BLOCK_H:
      node = node_new (TANDEM_MARKDOWN_HEADING);
      node->level = ((MD_BLOCK_H_DETAIL *) detail)->level;
      break;

    case MD_BLOCK_CODE:
      node = node_new (TANDEM_MARKDOWN_CODE);
      node->info = attribute_to_string (&((MD_BLOCK_CODE_DETAIL *) detail)->lang);
      break;

    case MD_BLOCK_TABLE:
      node = node_new (TANDEM_MARKDOWN_TABLE);
      break;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      b->in_table_head = type == MD_BLOCK_THEAD;
      break;

    case MD_BLOCK_TR:
      node = node_new (TANDEM_MARKDOWN_ROW);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      node = node_new (TANDEM_MARKDOWN_CELL);
      if (type == MD_BLOCK_TH || b->in_table_head)
        node->flags |= TANDEM_MARKDOWN_HEADER;
      switch (((MD_BLOCK_TD_DETAIL *) detail)->align)
        {
        case MD_ALIGN_CENTER:
          node->xalign = 0.5f;
          break;

        case MD_ALIGN_RIGHT:
          node->xalign = 1.0f;
          break;

        case MD_ALIGN_DEFAULT:
        case MD_ALIGN_LEFT:
        default:
          break;
        }
      break;

    case MD_BLOCK_HTML:
    case MD_BLOCK_P:
    case MD_BLOCK_DOC:
    default:
      node = node_new (TANDEM_MARKDOWN_PARAGRAPH);
      break;
    }

  if (node != NULL)
    builder_add_node (b, node);
  g_ptr_array_add (b->stack, node);

  return 0;
}

static int
on_leave_block_cb (MD_BLOCKTYPE  type,
                   void         *detail,
                   void         *user_data)
{
  Builder *b = user_data;

  if (type == MD_BLOCK_DOC)
    return 0;

  g_assert (b->stack->len > 0);

  builder_close_spans (b);
  builder_close_implicit (b);
  g_ptr_array_set_size (b->stack, b->stack->len - 1);

  /* A block closed before the first text: the text's line may not be the
   * first line of the top-level block, so its start stays unknown. */
  b->spine_open = FALSE;

  switch (type)
    {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      b->list_depth--;
      b->nesting--;
      break;

    case MD_BLOCK_QUOTE:
      b->nesting--;
      break;

    default:
      break;
    }

  if (b->stack->len == 0)
    {
      Block *block = g_ptr_array_index (b->blocks, b->blocks->len - 1);

      block->start = builder_find_block_start (b);
    }

  return 0;
}

/* md4c 0.4 does not always pair its span callbacks: for `![]([)]()` it
 * leaves a link it never entered. Each leave is matched against the
 * spans entered, and one that matches nothing is ignored, so the markup
 * stays balanced whatever the text. */
typedef struct
{
  MD_SPANTYPE  type;
  gboolean     closes;    /* a tag was written that the leave must close */
  Node        *node;      /* where it was written */
} OpenSpan;

static gboolean write_span_open (Builder     *b,
                                 Node        *node,
                                 MD_SPANTYPE  type,
                                 void        *detail);

static int
on_enter_span_cb (MD_SPANTYPE  type,
                  void        *detail,
                  void        *user_data)
{
  Builder *b = user_data;
  Node *node = builder_get_inline_node (b);
  OpenSpan span = { type, FALSE, node };

  if (b->spine_open && type == MD_SPAN_CODE)
    b->first_in_code = TRUE;

  /* Deeper spans add no markup: GtkLabel would lay out thousands of
   * nested attributes for a line of asterisks */
  if (node != NULL && node->kind != TANDEM_MARKDOWN_CODE &&
      b->spans->len < TANDEM_MARKDOWN_MAX_SPANS)
    span.closes = write_span_open (b, node, type, detail);

  g_array_append_val (b->spans, span);

  return 0;
}

static gboolean
write_span_open (Builder     *b,
                 Node        *node,
                 MD_SPANTYPE  type,
                 void        *detail)
{
  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (node->text, "<i>");
      return TRUE;

    case MD_SPAN_STRONG:
      g_string_append (node->text, "<b>");
      return TRUE;

    case MD_SPAN_DEL:
      g_string_append (node->text, "<s>");
      return TRUE;

    case MD_SPAN_U:
      g_string_append (node->text, "<u>");
      return TRUE;

    case MD_SPAN_CODE:
      g_string_append (node->text, "<tt>");
      return TRUE;

    case MD_SPAN_A:
      {
        g_autofree char *href = attribute_to_string (&((MD_SPAN_A_DETAIL *) detail)->href);

        /* GtkLabel cannot nest links; the inner one stays text. */
        if (b->open_anchors == 0 && tandem_markdown_uri_is_openable (href))
          {
            g_string_append (node->text, "<a href=\"");
            append_escaped (node->text, href, -1);
            g_string_append (node->text, "\">");
            b->open_anchors++;
            return TRUE;
          }
      }
      return FALSE;

    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      /* Images show their alternative text; nothing is fetched. */
      return FALSE;
    }
}

static void
span_close (Builder        *b,
            const OpenSpan *span)
{
  if (!span->closes)
    return;

  switch (span->type)
    {
    case MD_SPAN_EM:
      g_string_append (span->node->text, "</i>");
      break;

    case MD_SPAN_STRONG:
      g_string_append (span->node->text, "</b>");
      break;

    case MD_SPAN_DEL:
      g_string_append (span->node->text, "</s>");
      break;

    case MD_SPAN_U:
      g_string_append (span->node->text, "</u>");
      break;

    case MD_SPAN_CODE:
      g_string_append (span->node->text, "</tt>");
      break;

    case MD_SPAN_A:
      g_string_append (span->node->text, "</a>");
      b->open_anchors--;
      break;

    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }
}

/* Spans md4c entered in a block and never left end with it */
static void
builder_close_spans (Builder *b)
{
  while (b->spans->len > 0)
    {
      OpenSpan span = g_array_index (b->spans, OpenSpan, b->spans->len - 1);

      g_array_set_size (b->spans, b->spans->len - 1);
      span_close (b, &span);
    }
}

static int
on_leave_span_cb (MD_SPANTYPE  type,
                  void        *detail,
                  void        *user_data)
{
  Builder *b = user_data;
  OpenSpan span;

  if (b->spans->len == 0 || g_array_index (b->spans, OpenSpan, b->spans->len - 1).type != type)
    return 0;

  span = g_array_index (b->spans, OpenSpan, b->spans->len - 1);
  g_array_set_size (b->spans, b->spans->len - 1);
  span_close (b, &span);

  return 0;
}

static int
on_text_cb (MD_TEXTTYPE    type,
            const MD_CHAR *text,
            MD_SIZE        size,
            void          *user_data)
{
  Builder *b = user_data;
  Node *node;

  builder_note_pointer (b, text, size);

  if (!(node = builder_get_inline_node (b)))
    return 0;

  if (node->kind == TANDEM_MARKDOWN_CODE)
    {
      if (type == MD_TEXT_NULLCHAR)
        g_string_append (node->text, REPLACEMENT_CHARACTER);
      else
        g_string_append_len (node->text, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      g_string_append (node->text, REPLACEMENT_CHARACTER);
      break;

    /* Agents write single line breaks meaning them, as GitHub comments do */
    case MD_TEXT_BR:
    case MD_TEXT_SOFTBR:
      g_string_append_c (node->text, '\n');
      break;

    case MD_TEXT_ENTITY:
      {
        g_autoptr(GString) decoded = g_string_new (NULL);

        append_entity (decoded, text, size);
        append_escaped (node->text, decoded->str, decoded->len);
      }
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      append_escaped (node->text, text, size);
      break;
    }

  return 0;
}

static GPtrArray *parse_blocks_aligned (const char *source,
                                        gsize       length,
                                        gsize       parse_from,
                                        gsize       base);

/* Parses @source from @base, which must be the start of a top-level block,
 * to its end, as md4c reads it at @offset + @base in a text it was cut
 * from (see tandem_markdown_model_set_offset()). Returns the top-level
 * blocks, with offsets into @source. */
GPtrArray *
_tandem_markdown_parse_blocks (const char *source,
                               gsize       length,
                               gsize       base,
                               gsize       offset)
{
  gsize pad = (offset + base) % TANDEM_MARKDOWN_MD4C_ALIGNMENT;
  g_autofree char *padded = NULL;
  GPtrArray *blocks;

  if (pad == 0)
    return parse_blocks_aligned (source, length, base, base);

  /* Blank lines before the text change nothing but where md4c sees its
   * lines: there, as in the text it was cut from, modulo the alignment */
  padded = g_malloc (pad + length - base + 1);
  memset (padded, '\n', pad);
  memcpy (padded + pad, source + base, length - base + 1);
  blocks = parse_blocks_aligned (padded, pad + length - base, 0, pad);

  for (guint i = 0; i < blocks->len; i++)
    {
      Block *block = g_ptr_array_index (blocks, i);

      if (block->start != TANDEM_MARKDOWN_UNKNOWN_START)
        block->start = block->start - pad + base;
    }

  return blocks;
}

/* Parses @source from @parse_from, where md4c's offsets start; blocks
 * are taken from @base on, before which there are only blank lines */
static GPtrArray *
parse_blocks_aligned (const char *source,
                      gsize       length,
                      gsize       parse_from,
                      gsize       base)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = TANDEM_MARKDOWN_MD4C_FLAGS,
    .enter_block = on_enter_block_cb,
    .leave_block = on_leave_block_cb,
    .enter_span = on_enter_span_cb,
    .leave_span = on_leave_span_cb,
    .text = on_text_cb,
  };
  Builder b = {
    .source = source,
    .base = base,
    .length = length,
    .first_offset = TANDEM_MARKDOWN_UNKNOWN_START,
  };

  g_assert (base <= length);

  b.blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) _tandem_markdown_block_free);
  b.stack = g_ptr_array_new ();
  b.spans = g_array_new (FALSE, FALSE, sizeof (OpenSpan));
  b.spine = g_array_new (FALSE, FALSE, sizeof (SpineStep));

  /* Only fails when out of memory; whatever was built is shown. */
  if (md_parse (source + parse_from, MIN (length - parse_from, G_MAXUINT32), &parser, &b) != 0)
    g_debug ("md4c could not parse a message of %" G_GSIZE_FORMAT " bytes", length);

  /* A top-level block md4c entered but never finished */
  for (guint i = b.blocks->len; i > 0; i--)
    {
      Block *block = g_ptr_array_index (b.blocks, i - 1);

      if (block->node == NULL)
        g_ptr_array_remove_index (b.blocks, i - 1);
    }

  g_ptr_array_unref (b.stack);
  g_array_unref (b.spans);
  g_array_unref (b.spine);

  return b.blocks;
}
