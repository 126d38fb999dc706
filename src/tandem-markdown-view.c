/* tandem-markdown-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <md4c.h>

#include "tandem-markdown-view.h"

/**
 * TandemMarkdownView:
 *
 * Shows an agent's Markdown as a column of blocks, one child widget per
 * top-level block: selectable labels for paragraphs and headings, boxes for
 * lists and block quotes, a grid for tables, a separator for thematic
 * breaks, and a monospace box with a Copy button for code blocks.
 *
 * The text is CommonMark with the GitHub extensions (tables,
 * strikethrough, task lists, bare URLs as links), parsed by md4c. It is
 * never trusted as markup: every run of text is escaped before it becomes
 * Pango markup, raw HTML is shown as the characters that were typed, and
 * only `http:`, `https:` and `mailto:` links are clickable.
 *
 * The view is made for streaming. Call [method@Tandem.MarkdownView.set_text]
 * with the whole text so far after each delta. When the new text extends the
 * old one, only the last top-level block is parsed again (blocks before it
 * cannot change when text is appended), and widgets whose content did not
 * change are kept, so a delta costs the size of the last block, not of the
 * message. Any other change parses and builds everything again.
 *
 * ```c
 * GtkWidget *view = tandem_markdown_view_new ();
 *
 * tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (view), "Hello, **wor");
 * tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (view), "Hello, **world**");
 * ```
 */

/* md4c's GitHub dialect, with raw HTML off so that it reaches us as text
 * and is shown as typed. */
#define MARKDOWN_FLAGS (MD_DIALECT_GITHUB | MD_FLAG_NOHTML)

/* Deeper block quotes and lists are flattened into the deepest one kept:
 * a widget tree thousands of levels deep would exhaust the stack when GTK
 * measures it. */
#define MAX_NESTING 16

#define UNKNOWN_START G_MAXSIZE

#define REPLACEMENT_CHARACTER "\xef\xbf\xbd"

typedef enum
{
  NODE_PARAGRAPH,
  NODE_HEADING,
  NODE_CODE,
  NODE_RULE,
  NODE_QUOTE,
  NODE_LIST,
  NODE_ITEM,
  NODE_TABLE,
  NODE_ROW,
  NODE_CELL,
} NodeKind;

typedef enum
{
  NODE_FLAG_ORDERED  = 1 << 0,
  NODE_FLAG_HEADER   = 1 << 1,
  NODE_FLAG_IMPLICIT = 1 << 2,
} NodeFlags;

/* The parsed form of one block: what its widgets show, so that a block
 * parsed again can be compared with the one already on screen. */
typedef struct _Node Node;
struct _Node
{
  NodeKind    kind;
  NodeFlags   flags;
  guint       level;     /* heading level, first number of an ordered list */
  float       xalign;    /* table cells */
  GString    *text;      /* markup of an inline leaf, plain text of code */
  char       *info;      /* code language, list item marker */
  GPtrArray  *children;  /* of Node */
  GtkWidget  *widget;    /* borrowed: shows this node once built */
  GtkWidget  *box;       /* borrowed: holds the children's widgets */
};

/* A top-level block and the byte offset in the source of its first line,
 * or UNKNOWN_START when that offset cannot be told for sure. */
typedef struct
{
  Node  *node;
  gsize  start;
} Block;

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
} Builder;

#define TANDEM_TYPE_MARKDOWN_CODE_BLOCK (tandem_markdown_code_block_get_type ())
G_DECLARE_FINAL_TYPE (TandemMarkdownCodeBlock, tandem_markdown_code_block, TANDEM, MARKDOWN_CODE_BLOCK, GtkWidget)

/* A code block: its language, a Copy button and the code, scrolling
 * sideways rather than wrapping. */
struct _TandemMarkdownCodeBlock
{
  GtkWidget  parent_instance;
  GtkWidget *header;
  GtkWidget *language_label;
  GtkWidget *copy_button;
  GtkWidget *scroller;
  GtkWidget *code_label;
  char      *code;
  guint      copied_source_id;
};

G_DEFINE_FINAL_TYPE (TandemMarkdownCodeBlock, tandem_markdown_code_block, GTK_TYPE_WIDGET)

struct _TandemMarkdownView
{
  GtkWidget  parent_instance;
  GString   *text;
  GPtrArray *blocks;        /* of Block, in order */
  guint      blocks_built;
  guint      has_definitions : 1;
};

G_DEFINE_FINAL_TYPE (TandemMarkdownView, tandem_markdown_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Nodes */

static void node_free (Node *node);

static Node *
node_new (NodeKind kind)
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

static void
block_free (Block *block)
{
  node_free (block->node);
  g_free (block);
}

/* Whether @old's widget can show @new by changing its text and children. */
static gboolean
node_same_shape (const Node *old,
                 const Node *new)
{
  return old->kind == new->kind &&
         (old->flags & ~NODE_FLAG_IMPLICIT) == (new->flags & ~NODE_FLAG_IMPLICIT) &&
         old->level == new->level &&
         old->xalign == new->xalign &&
         g_strcmp0 (old->info, new->info) == 0;
}

static gboolean
node_equal (const Node *old,
            const Node *new)
{
  if (!node_same_shape (old, new) ||
      !g_string_equal (old->text, new->text) ||
      old->children->len != new->children->len)
    return FALSE;

  for (guint i = 0; i < old->children->len; i++)
    {
      if (!node_equal (g_ptr_array_index (old->children, i),
                       g_ptr_array_index (new->children, i)))
        return FALSE;
    }

  return TRUE;
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
static gboolean
uri_is_openable (const char *uri)
{
  return g_ascii_strncasecmp (uri, "https://", 8) == 0 ||
         g_ascii_strncasecmp (uri, "http://", 7) == 0 ||
         g_ascii_strncasecmp (uri, "mailto:", 7) == 0;
}

/* Where blocks start */

static gboolean
is_line_end (char c)
{
  return c == '\n' || c == '\r';
}

static gsize
line_start (const char *source,
            gsize       base,
            gsize       offset)
{
  while (offset > base && !is_line_end (source[offset - 1]))
    offset--;

  return offset;
}

static const char *
skip_blanks (const char *p,
             const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;

  return p;
}

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
      p = skip_blanks (p, end);

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

  if (b->first_offset == UNKNOWN_START || n_steps == 0)
    return UNKNOWN_START;

  line = line_start (b->source, b->base, b->first_offset);

  if (steps[n_steps - 1].type == MD_BLOCK_CODE &&
      steps[n_steps - 1].mark != 0 &&
      !b->first_is_info)
    {
      const char *fence;
      gsize previous_end;

      /* The code starts on the line after its fence; only a fence at the
       * top level is sure to be the line before. */
      if (n_steps != 1 || line == b->base)
        return UNKNOWN_START;

      previous_end = line - 1;
      if (b->source[previous_end] == '\n' && previous_end > b->base &&
          b->source[previous_end - 1] == '\r')
        previous_end--;
      line = line_start (b->source, b->base, previous_end);

      fence = b->source + line;
      for (guint i = 0; i < 3 && fence < b->source + previous_end && *fence == ' '; i++)
        fence++;
      if (!skip_fence (fence, b->source + previous_end, steps[0].mark))
        return UNKNOWN_START;

      return line;
    }

  if (!prefix_matches_spine (b->source + line, b->source + b->first_offset,
                             steps, n_steps))
    return UNKNOWN_START;

  return line;
}

static void
builder_note_pointer (Builder    *b,
                      const char *text,
                      gsize       size)
{
  if (!b->spine_open || size == 0)
    return;

  /* md4c also hands over static strings (line breaks, indentation) */
  if ((guintptr) text >= (guintptr) (b->source + b->base) &&
      (guintptr) text < (guintptr) (b->source + b->length))
    {
      b->first_offset = text - b->source;
      b->spine_open = FALSE;
    }
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
  if (top != NULL && (top->flags & NODE_FLAG_IMPLICIT) != 0)
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
      (top->kind == NODE_PARAGRAPH || top->kind == NODE_HEADING ||
       top->kind == NODE_CELL || top->kind == NODE_CODE))
    return top;

  if (builder_get_parent (b) == NULL)
    return NULL;

  paragraph = node_new (NODE_PARAGRAPH);
  paragraph->flags |= NODE_FLAG_IMPLICIT;
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

      block->start = UNKNOWN_START;
      g_ptr_array_add (b->blocks, block);

      g_array_set_size (b->spine, 0);
      b->spine_open = TRUE;
      b->first_is_info = FALSE;
      b->first_offset = UNKNOWN_START;
    }

  if (b->spine_open)
    builder_add_spine_step (b, type, detail);

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      if (b->nesting++ < MAX_NESTING)
        node = node_new (NODE_QUOTE);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      if (b->nesting++ < MAX_NESTING)
        {
          node = node_new (NODE_LIST);
          if (type == MD_BLOCK_OL)
            {
              node->flags |= NODE_FLAG_ORDERED;
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

        if (list == NULL || list->kind != NODE_LIST)
          break;

        node = node_new (NODE_ITEM);
        if (item->is_task)
          node->info = g_strdup (item->task_mark == ' ' ? "☐" : "☑");
        else if (list->flags & NODE_FLAG_ORDERED)
          node->info = g_strdup_printf ("%u.", list->level + list->children->len);
        else
          node->info = g_strdup (list->info);
      }
      break;

    case MD_BLOCK_HR:
      node = node_new (NODE_RULE);
      break;

    case MD_BLOCK_H:
      node = node_new (NODE_HEADING);
      node->level = ((MD_BLOCK_H_DETAIL *) detail)->level;
      break;

    case MD_BLOCK_CODE:
      node = node_new (NODE_CODE);
      node->info = attribute_to_string (&((MD_BLOCK_CODE_DETAIL *) detail)->lang);
      break;

    case MD_BLOCK_TABLE:
      node = node_new (NODE_TABLE);
      break;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      b->in_table_head = type == MD_BLOCK_THEAD;
      break;

    case MD_BLOCK_TR:
      node = node_new (NODE_ROW);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      node = node_new (NODE_CELL);
      if (type == MD_BLOCK_TH || b->in_table_head)
        node->flags |= NODE_FLAG_HEADER;
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
      node = node_new (NODE_PARAGRAPH);
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
  MD_SPANTYPE type;
  gboolean    closes;    /* a tag was written that the leave must close */
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
  OpenSpan span = { type, FALSE };

  if (node != NULL && node->kind != NODE_CODE)
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
        if (b->open_anchors == 0 && uri_is_openable (href))
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

static int
on_leave_span_cb (MD_SPANTYPE  type,
                  void        *detail,
                  void        *user_data)
{
  Builder *b = user_data;
  Node *node = builder_get_inline_node (b);
  OpenSpan span;

  if (b->spans->len == 0 || g_array_index (b->spans, OpenSpan, b->spans->len - 1).type != type)
    return 0;

  span = g_array_index (b->spans, OpenSpan, b->spans->len - 1);
  g_array_set_size (b->spans, b->spans->len - 1);

  if (!span.closes || node == NULL)
    return 0;

  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (node->text, "</i>");
      break;

    case MD_SPAN_STRONG:
      g_string_append (node->text, "</b>");
      break;

    case MD_SPAN_DEL:
      g_string_append (node->text, "</s>");
      break;

    case MD_SPAN_U:
      g_string_append (node->text, "</u>");
      break;

    case MD_SPAN_CODE:
      g_string_append (node->text, "</tt>");
      break;

    case MD_SPAN_A:
      g_string_append (node->text, "</a>");
      b->open_anchors--;
      break;

    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }

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

  if (node->kind == NODE_CODE)
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

/* Parses @source from @base, which must be the start of a top-level block,
 * to its end. Returns the top-level blocks, with offsets into @source. */
static GPtrArray *
parse_blocks (const char *source,
              gsize       length,
              gsize       base)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MARKDOWN_FLAGS,
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
    .first_offset = UNKNOWN_START,
  };

  g_assert (base <= length);

  b.blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
  b.stack = g_ptr_array_new ();
  b.spans = g_array_new (FALSE, FALSE, sizeof (OpenSpan));
  b.spine = g_array_new (FALSE, FALSE, sizeof (SpineStep));

  /* Only fails when out of memory; whatever was built is shown. */
  if (md_parse (source + base, MIN (length - base, G_MAXUINT32), &parser, &b) != 0)
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

/* Code block */

static gboolean
on_copied_timeout_cb (gpointer user_data)
{
  TandemMarkdownCodeBlock *self = user_data;

  self->copied_source_id = 0;

  gtk_button_set_icon_name (GTK_BUTTON (self->copy_button), "edit-copy-symbolic");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy code"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy code"),
                                  -1);
  gtk_widget_remove_css_class (self->copy_button, "md-copied");

  return G_SOURCE_REMOVE;
}

static void
tandem_markdown_code_block_copy (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *parameter)
{
  TandemMarkdownCodeBlock *self = TANDEM_MARKDOWN_CODE_BLOCK (widget);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->code);

  gtk_button_set_icon_name (GTK_BUTTON (self->copy_button), "object-select-symbolic");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copied"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copied"),
                                  -1);
  gtk_widget_add_css_class (self->copy_button, "md-copied");

  g_clear_handle_id (&self->copied_source_id, g_source_remove);
  self->copied_source_id = g_timeout_add_seconds (2, on_copied_timeout_cb, self);
}

static void
tandem_markdown_code_block_dispose (GObject *object)
{
  TandemMarkdownCodeBlock *self = TANDEM_MARKDOWN_CODE_BLOCK (object);
  GtkWidget *child;

  g_clear_handle_id (&self->copied_source_id, g_source_remove);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tandem_markdown_code_block_parent_class)->dispose (object);
}

static void
tandem_markdown_code_block_finalize (GObject *object)
{
  TandemMarkdownCodeBlock *self = TANDEM_MARKDOWN_CODE_BLOCK (object);

  g_free (self->code);

  G_OBJECT_CLASS (tandem_markdown_code_block_parent_class)->finalize (object);
}

static void
tandem_markdown_code_block_class_init (TandemMarkdownCodeBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_markdown_code_block_dispose;
  object_class->finalize = tandem_markdown_code_block_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "codeblock");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_install_action (widget_class, "code.copy", NULL,
                                   tandem_markdown_code_block_copy);
}

static void
tandem_markdown_code_block_init (TandemMarkdownCodeBlock *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "md-code-block");

  self->header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->header, "md-code-header");
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));

  self->language_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->language_label), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (self->language_label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->language_label, TRUE);
  gtk_widget_add_css_class (self->language_label, "md-code-language");
  gtk_widget_add_css_class (self->language_label, "caption");
  gtk_widget_add_css_class (self->language_label, "dim-label");
  gtk_box_append (GTK_BOX (self->header), self->language_label);

  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_valign (self->copy_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy code"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy code"),
                                  -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "code.copy");
  gtk_widget_add_css_class (self->copy_button, "flat");
  gtk_widget_add_css_class (self->copy_button, "md-code-copy");
  gtk_box_append (GTK_BOX (self->header), self->copy_button);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));

  self->code_label = gtk_label_new (NULL);
  gtk_label_set_selectable (GTK_LABEL (self->code_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->code_label), 0.0f);
  gtk_label_set_yalign (GTK_LABEL (self->code_label), 0.0f);
  gtk_widget_add_css_class (self->code_label, "monospace");
  gtk_widget_add_css_class (self->code_label, "md-code");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->code_label);
}

static void
tandem_markdown_code_block_set_code (TandemMarkdownCodeBlock *self,
                                     const char              *code,
                                     gsize                    length)
{
  g_assert (TANDEM_IS_MARKDOWN_CODE_BLOCK (self));

  /* md4c ends every line, the last one too, with a newline */
  if (length > 0 && code[length - 1] == '\n')
    length--;

  g_free (self->code);
  self->code = g_strndup (code, length);

  /* Plain text: code never goes near markup */
  gtk_label_set_text (GTK_LABEL (self->code_label), self->code);
}

static GtkWidget *
tandem_markdown_code_block_new (const char *code,
                                gsize       length,
                                const char *language)
{
  TandemMarkdownCodeBlock *self = g_object_new (TANDEM_TYPE_MARKDOWN_CODE_BLOCK, NULL);

  tandem_markdown_code_block_set_code (self, code, length);
  gtk_label_set_text (GTK_LABEL (self->language_label), language ? language : "");

  return GTK_WIDGET (self);
}

/* Widgets */

static gboolean
on_label_activate_link_cb (GtkLabel   *label,
                           const char *uri,
                           gpointer    user_data)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (label));

  g_assert (GTK_IS_LABEL (label));

  /* Whatever the markup says, only web and mail links leave the app. */
  if (uri_is_openable (uri))
    gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);

  return TRUE;
}

static void
text_label_init (GtkLabel   *label,
                 const char *markup)
{
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (label, 0.0f);
  gtk_label_set_selectable (label, TRUE);
  gtk_label_set_markup (label, markup);
  g_signal_connect (label, "activate-link", G_CALLBACK (on_label_activate_link_cb), NULL);
}

static void
container_insert_after (GtkWidget *container,
                        GtkWidget *child,
                        GtkWidget *previous)
{
  if (GTK_IS_BOX (container))
    gtk_box_insert_child_after (GTK_BOX (container), child, previous);
  else
    gtk_widget_insert_after (child, container, previous);
}

static void
container_remove (GtkWidget *container,
                  GtkWidget *child)
{
  if (GTK_IS_BOX (container))
    gtk_box_remove (GTK_BOX (container), child);
  else
    gtk_widget_unparent (child);
}

static GtkWidget *node_build (Node *node);

static GtkWidget *
table_build (Node *table)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_widget_add_css_class (grid, "md-table");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 0);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 0);

  for (guint row = 0; row < table->children->len; row++)
    {
      Node *row_node = g_ptr_array_index (table->children, row);

      for (guint column = 0; column < row_node->children->len; column++)
        {
          Node *cell = g_ptr_array_index (row_node->children, column);
          GtkWidget *label = gtk_label_new (NULL);

          text_label_init (GTK_LABEL (label), cell->text->str);
          gtk_label_set_xalign (GTK_LABEL (label), cell->xalign);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
          gtk_widget_add_css_class (label, "md-table-cell");
          if (cell->flags & NODE_FLAG_HEADER)
            gtk_widget_add_css_class (label, "heading");
          gtk_grid_attach (GTK_GRID (grid), label, column, row, 1, 1);
          cell->widget = label;
        }
    }

  /* No horizontal scroller: cells wrap (at most 40 characters wide), and
   * a GtkScrolledWindow measures its child's height at the child's
   * minimum width, where every cell wraps word by word, leaving a tall
   * empty frame under the table. */
  table->box = grid;

  return grid;
}

static GtkWidget *
node_build (Node *node)
{
  GtkWidget *widget = NULL;
  GtkWidget *box = NULL;

  switch (node->kind)
    {
    case NODE_PARAGRAPH:
      widget = gtk_label_new (NULL);
      text_label_init (GTK_LABEL (widget), node->text->str);
      gtk_widget_add_css_class (widget, "md-paragraph");
      break;

    case NODE_HEADING:
      widget = g_object_new (GTK_TYPE_LABEL,
                             "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING,
                             NULL);
      text_label_init (GTK_LABEL (widget), node->text->str);
      gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                      GTK_ACCESSIBLE_PROPERTY_LEVEL, (int) node->level,
                                      -1);
      if (node->level <= 4)
        {
          g_autofree char *css_class = g_strdup_printf ("title-%u", node->level);

          gtk_widget_add_css_class (widget, css_class);
        }
      else
        {
          gtk_widget_add_css_class (widget, "heading");
        }
      gtk_widget_add_css_class (widget, "md-heading");
      break;

    case NODE_CODE:
      widget = tandem_markdown_code_block_new (node->text->str, node->text->len, node->info);
      break;

    case NODE_RULE:
      widget = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
      gtk_widget_add_css_class (widget, "md-rule");
      break;

    case NODE_QUOTE:
      widget = box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      gtk_widget_add_css_class (widget, "md-blockquote");
      break;

    case NODE_LIST:
      widget = box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
      gtk_widget_add_css_class (widget, "md-list");
      break;

    case NODE_ITEM:
      {
        GtkWidget *marker = gtk_label_new (node->info);

        widget = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_widget_add_css_class (widget, "md-list-item");

        gtk_widget_set_valign (marker, GTK_ALIGN_START);
        gtk_label_set_xalign (GTK_LABEL (marker), 1.0f);
        gtk_widget_add_css_class (marker, "md-list-marker");
        gtk_box_append (GTK_BOX (widget), marker);

        box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
        gtk_widget_set_hexpand (box, TRUE);
        gtk_box_append (GTK_BOX (widget), box);
      }
      break;

    case NODE_TABLE:
      widget = table_build (node);
      break;

    case NODE_ROW:
    case NODE_CELL:
    default:
      g_assert_not_reached ();
    }

  node->widget = widget;

  if (box != NULL)
    {
      node->box = box;

      for (guint i = 0; i < node->children->len; i++)
        gtk_box_append (GTK_BOX (box), node_build (g_ptr_array_index (node->children, i)));
    }

  return widget;
}

typedef Node *(*GetNodeFunc) (gpointer item);

static gboolean node_reconcile (Node *old,
                                Node *new);

/* Shows @new_nodes in @container in place of @old_nodes (from @first on),
 * keeping the widgets of nodes that can be updated. Returns how many
 * widgets were built. */
static guint
reconcile_children (GtkWidget   *container,
                    GPtrArray   *old_nodes,
                    guint        first,
                    GPtrArray   *new_nodes,
                    GetNodeFunc  get_node)
{
  GtkWidget *previous = NULL;
  guint n_old = old_nodes->len - first;
  guint built = 0;

  if (first > 0)
    previous = get_node (g_ptr_array_index (old_nodes, first - 1))->widget;

  for (guint i = 0; i < MAX (n_old, new_nodes->len); i++)
    {
      Node *old = i < n_old ? get_node (g_ptr_array_index (old_nodes, first + i)) : NULL;
      Node *new = i < new_nodes->len ? get_node (g_ptr_array_index (new_nodes, i)) : NULL;

      if (new == NULL)
        {
          container_remove (container, old->widget);
          continue;
        }

      if (old == NULL || !node_reconcile (old, new))
        {
          container_insert_after (container, node_build (new), previous);
          if (old != NULL)
            container_remove (container, old->widget);
          built++;
        }

      previous = new->widget;
    }

  return built;
}

static Node *
get_node_itself (gpointer item)
{
  return item;
}

static Node *
get_block_node (gpointer item)
{
  return ((Block *) item)->node;
}

/* Makes @old's widget show @new, if it can, and hands it over. */
static gboolean
node_reconcile (Node *old,
                Node *new)
{
  if (!node_same_shape (old, new))
    return FALSE;

  /* Tables are rebuilt when they change; they rarely stream for long */
  if ((new->kind == NODE_TABLE || new->kind == NODE_RULE) && !node_equal (old, new))
    return FALSE;

  new->widget = old->widget;
  new->box = old->box;

  switch (new->kind)
    {
    case NODE_PARAGRAPH:
    case NODE_HEADING:
      if (!g_string_equal (old->text, new->text))
        gtk_label_set_markup (GTK_LABEL (new->widget), new->text->str);
      break;

    case NODE_CODE:
      if (!g_string_equal (old->text, new->text))
        tandem_markdown_code_block_set_code (TANDEM_MARKDOWN_CODE_BLOCK (new->widget),
                                             new->text->str, new->text->len);
      break;

    case NODE_QUOTE:
    case NODE_LIST:
    case NODE_ITEM:
      reconcile_children (new->box, old->children, 0, new->children, get_node_itself);
      break;

    case NODE_TABLE:
      for (guint row = 0; row < new->children->len; row++)
        {
          Node *old_row = g_ptr_array_index (old->children, row);
          Node *new_row = g_ptr_array_index (new->children, row);

          for (guint column = 0; column < new_row->children->len; column++)
            ((Node *) g_ptr_array_index (new_row->children, column))->widget =
              ((Node *) g_ptr_array_index (old_row->children, column))->widget;
        }
      break;

    case NODE_RULE:
    case NODE_ROW:
    case NODE_CELL:
    default:
      break;
    }

  return TRUE;
}

/* View */

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

      while (line_end < end && !is_line_end (*line_end))
        line_end++;

      q = p;
      for (;;)
        {
          q = skip_blanks (q, line_end);
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

      if (q < line_end && *q == '[' && g_strstr_len (q, line_end - q, "]:") != NULL)
        return TRUE;

      p = line_end + 1;
    }

  return FALSE;
}

static void
tandem_markdown_view_clear (TandemMarkdownView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  g_ptr_array_set_size (self->blocks, 0);
}

/* Parses again from the start of block @first, which must be a block
 * whose start is known, and updates the widgets from there on. */
static void
tandem_markdown_view_reparse (TandemMarkdownView *self,
                              guint               first)
{
  g_autoptr(GPtrArray) new_blocks = NULL;
  gsize start = 0;

  /* The first block starts where the text does, whatever is known */
  if (first > 0)
    start = ((Block *) g_ptr_array_index (self->blocks, first))->start;

  g_assert (start != UNKNOWN_START);

  new_blocks = parse_blocks (self->text->str, self->text->len, start);

  /* The blocks before the last cannot change when text is appended. If
   * the parse says otherwise, @start was not where a block begins: parse
   * the whole message. */
  if (first > 0 && new_blocks->len > 0)
    {
      Block *new_first = g_ptr_array_index (new_blocks, 0);
      Block *old_first = g_ptr_array_index (self->blocks, first);
      gboolean is_last = first + 1 == self->blocks->len;

      if ((new_first->start != UNKNOWN_START && new_first->start != start) ||
          (!is_last && new_first->node->kind != old_first->node->kind))
        {
          g_debug ("Markdown block at %" G_GSIZE_FORMAT " moved; parsing all", start);
          g_clear_pointer (&new_blocks, g_ptr_array_unref);
          new_blocks = parse_blocks (self->text->str, self->text->len, 0);
          first = 0;
        }
    }

  self->blocks_built += reconcile_children (GTK_WIDGET (self), self->blocks, first,
                                            new_blocks, get_block_node);

  g_ptr_array_remove_range (self->blocks, first, self->blocks->len - first);
  g_ptr_array_extend_and_steal (self->blocks, g_steal_pointer (&new_blocks));
}

/* @old_length bytes of the text were there before, and shown.
 *
 * CommonMark closes a block for good once a later line starts another, so
 * appending text can only change the last top-level block (a paragraph
 * growing, turning into a setext heading or a table when its underline or
 * delimiter row arrives, a lazy continuation line, a list or quote going
 * on after a blank line, a fence still open) and add blocks after it.
 * Parsing from the last block's first line therefore gives the same blocks
 * as parsing everything.
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
static void
tandem_markdown_view_append (TandemMarkdownView *self,
                             gsize               old_length)
{
  gsize scan_from = line_start (self->text->str, 0, old_length);
  guint first = 0;

  if (!self->has_definitions &&
      has_reference_definition (self->text->str + scan_from,
                                self->text->str + self->text->len))
    self->has_definitions = TRUE;

  /* Only the last block can grow, but when its start is not known for
   * sure, parse from the nearest block before it whose start is. */
  if (!self->has_definitions)
    {
      for (first = self->blocks->len; first > 0; first--)
        {
          if (((Block *) g_ptr_array_index (self->blocks, first - 1))->start != UNKNOWN_START)
            break;
        }
      if (first > 0)
        first--;
    }

  tandem_markdown_view_reparse (self, first);
}

static void
tandem_markdown_view_dispose (GObject *object)
{
  TandemMarkdownView *self = TANDEM_MARKDOWN_VIEW (object);

  tandem_markdown_view_clear (self);

  G_OBJECT_CLASS (tandem_markdown_view_parent_class)->dispose (object);
}

static void
tandem_markdown_view_finalize (GObject *object)
{
  TandemMarkdownView *self = TANDEM_MARKDOWN_VIEW (object);

  g_string_free (self->text, TRUE);
  g_ptr_array_unref (self->blocks);

  G_OBJECT_CLASS (tandem_markdown_view_parent_class)->finalize (object);
}

static void
tandem_markdown_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TandemMarkdownView *self = TANDEM_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, tandem_markdown_view_get_text (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_markdown_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TandemMarkdownView *self = TANDEM_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      tandem_markdown_view_set_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_markdown_view_class_init (TandemMarkdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_markdown_view_dispose;
  object_class->finalize = tandem_markdown_view_finalize;
  object_class->get_property = tandem_markdown_view_get_property;
  object_class->set_property = tandem_markdown_view_set_property;

  /**
   * TandemMarkdownView:text:
   *
   * The Markdown shown.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "markdownview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tandem_markdown_view_init (TandemMarkdownView *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 12);

  self->text = g_string_new (NULL);
  self->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
}

/**
 * tandem_markdown_view_new:
 *
 * Returns: (transfer floating): a new, empty view
 */
GtkWidget *
tandem_markdown_view_new (void)
{
  return g_object_new (TANDEM_TYPE_MARKDOWN_VIEW, NULL);
}

/**
 * tandem_markdown_view_get_text:
 * @self: a markdown view
 *
 * Returns: (transfer none): the Markdown shown, never %NULL
 */
const char *
tandem_markdown_view_get_text (TandemMarkdownView *self)
{
  g_return_val_if_fail (TANDEM_IS_MARKDOWN_VIEW (self), NULL);

  return self->text->str;
}

/**
 * tandem_markdown_view_set_text:
 * @self: a markdown view
 * @text: (nullable): Markdown, such as a streaming message so far
 *
 * Shows @text. When @text extends the text shown (the old text is its
 * prefix), only the end of it is parsed again; anything else is a full
 * rebuild. Invalid UTF-8 is shown with replacement characters.
 */
void
tandem_markdown_view_set_text (TandemMarkdownView *self,
                               const char         *text)
{
  gsize old_length;
  gsize length;

  g_return_if_fail (TANDEM_IS_MARKDOWN_VIEW (self));

  if (text == NULL)
    text = "";

  length = strlen (text);
  old_length = self->text->len;

  if (length >= old_length && memcmp (text, self->text->str, old_length) == 0)
    {
      const char *appended = text + old_length;

      if (length == old_length)
        return;

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

      tandem_markdown_view_append (self, old_length);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, length);

      g_string_assign (self->text, valid);
      self->has_definitions = FALSE;
      tandem_markdown_view_clear (self);
      tandem_markdown_view_append (self, 0);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * tandem_markdown_view_get_blocks_built:
 * @self: a markdown view
 *
 * Counts the top-level block widgets built since @self was made. Blocks
 * whose widgets could be kept or updated in place are not counted, so
 * streaming into a message costs about one per new block.
 *
 * Returns: the number of block widgets built so far
 */
guint
tandem_markdown_view_get_blocks_built (TandemMarkdownView *self)
{
  g_return_val_if_fail (TANDEM_IS_MARKDOWN_VIEW (self), 0);

  return self->blocks_built;
}
