/* tandem-markdown-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tandem-display-text.h"
#include "tandem-markdown-model.h"
#include "tandem-markdown-view.h"
#include "tandem-nested-scroll.h"

/**
 * TandemMarkdownView:
 *
 * Shows an agent's Markdown as a column of blocks, one child widget per
 * top-level block: selectable labels for paragraphs and headings, boxes for
 * lists and block quotes, a grid for tables, a separator for thematic
 * breaks, and a monospace box with a Copy button for code blocks.
 *
 * The text is CommonMark with the GitHub extensions, parsed by md4c into
 * a #TandemMarkdownModel (no GTK there, so the fuzzer can compare a
 * streamed text with the finished one headless); this draws the model. It
 * is never trusted as markup: every run of text is escaped before it
 * becomes Pango markup, raw HTML is shown as the characters that were
 * typed, and only `http:`, `https:` and `mailto:` links are clickable.
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

typedef TandemMarkdownNode  Node;
typedef TandemMarkdownBlock Block;

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
  GtkWidget            parent_instance;
  TandemMarkdownModel *model;
  guint                blocks_built;
};

G_DEFINE_FINAL_TYPE (TandemMarkdownView, tandem_markdown_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

  /* The code scrolls sideways only: the wheel over it goes on to the
   * conversation, unless turned sideways (Shift+wheel, a tilting wheel,
   * a horizontal swipe) over code wider than the block. */
  tandem_nested_scroll_pass_on (GTK_SCROLLED_WINDOW (self->scroller), GTK_ORIENTATION_HORIZONTAL);

  self->code_label = gtk_label_new (NULL);
  gtk_label_set_selectable (GTK_LABEL (self->code_label), TRUE);
  gtk_widget_set_focusable (self->code_label, FALSE);
  gtk_widget_set_can_focus (self->code_label, FALSE);
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
  g_autofree char *name = tandem_code_language_name (language);

  tandem_markdown_code_block_set_code (self, code, length);
  gtk_label_set_text (GTK_LABEL (self->language_label), name);

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
  if (tandem_markdown_uri_is_openable (uri))
    gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);

  return TRUE;
}

static void
text_label_init (GtkLabel   *label,
                 const char *markup)
{
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  /* A wrapping label finds its minimum width by laying its text out at
   * width 0, a line per word, and Pango 1.50 shapes the rest of the
   * paragraph again at each line: a 500-byte paragraph took 11 ms to
   * measure and each delta measures it again. At 20 characters the
   * minimum is a few lines and costs 0.7 ms; the label fills its row, so
   * the width is never seen. */
  gtk_label_set_width_chars (label, TANDEM_MARKDOWN_LABEL_MIN_CHARS);
  gtk_label_set_xalign (label, 0.0f);
  gtk_label_set_selectable (label, TRUE);
  /* Selected with the pointer; the keyboard stops on the message's row
   * and its controls, not on each paragraph, selecting all its text.
   * Nor does Tab end there: a label that cannot be focused still takes
   * Tab in GTK 4.8 and moves the focus nowhere. */
  gtk_widget_set_focusable (GTK_WIDGET (label), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (label), FALSE);
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
  /* The frame hugs the columns; a filled row would draw it past them. */
  gtk_widget_set_halign (grid, GTK_ALIGN_START);
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
          /* Cells are short and sit side by side: their own minimum, not
           * 20 characters each, decides how narrow a table can be. */
          gtk_label_set_width_chars (GTK_LABEL (label), -1);
          gtk_widget_add_css_class (label, "md-table-cell");
          if (cell->flags & TANDEM_MARKDOWN_HEADER)
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
    case TANDEM_MARKDOWN_PARAGRAPH:
      widget = gtk_label_new (NULL);
      text_label_init (GTK_LABEL (widget), node->text->str);
      gtk_widget_add_css_class (widget, "md-paragraph");
      break;

    case TANDEM_MARKDOWN_HEADING:
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

    case TANDEM_MARKDOWN_CODE:
      widget = tandem_markdown_code_block_new (node->text->str, node->text->len, node->info);
      break;

    case TANDEM_MARKDOWN_RULE:
      widget = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
      gtk_widget_add_css_class (widget, "md-rule");
      break;

    case TANDEM_MARKDOWN_QUOTE:
      widget = box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      gtk_widget_add_css_class (widget, "md-blockquote");
      break;

    case TANDEM_MARKDOWN_LIST:
      widget = box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
      gtk_widget_add_css_class (widget, "md-list");
      break;

    case TANDEM_MARKDOWN_ITEM:
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

    case TANDEM_MARKDOWN_TABLE:
      widget = table_build (node);
      break;

    case TANDEM_MARKDOWN_ROW:
    case TANDEM_MARKDOWN_CELL:
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

/* Shows @new_nodes from @new_first on in @container in place of
 * @old_nodes, after the widget @previous, keeping the widgets of nodes
 * that can be updated. Returns how many widgets were built. */
static guint
reconcile_children (GtkWidget   *container,
                    GtkWidget   *previous,
                    GPtrArray   *old_nodes,
                    GPtrArray   *new_nodes,
                    guint        new_first,
                    GetNodeFunc  get_node)
{
  guint n_old = old_nodes->len;
  guint n_new = new_nodes->len - new_first;
  guint built = 0;

  for (guint i = 0; i < MAX (n_old, n_new); i++)
    {
      Node *old = i < n_old ? get_node (g_ptr_array_index (old_nodes, i)) : NULL;
      Node *new = i < n_new ? get_node (g_ptr_array_index (new_nodes, new_first + i)) : NULL;

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
  if (!tandem_markdown_node_same_shape (old, new))
    return FALSE;

  /* Tables are rebuilt when they change; they rarely stream for long */
  if ((new->kind == TANDEM_MARKDOWN_TABLE || new->kind == TANDEM_MARKDOWN_RULE) && !tandem_markdown_node_equal (old, new))
    return FALSE;

  new->widget = old->widget;
  new->box = old->box;

  switch (new->kind)
    {
    case TANDEM_MARKDOWN_PARAGRAPH:
    case TANDEM_MARKDOWN_HEADING:
      if (!g_string_equal (old->text, new->text))
        gtk_label_set_markup (GTK_LABEL (new->widget), new->text->str);
      break;

    case TANDEM_MARKDOWN_CODE:
      if (!g_string_equal (old->text, new->text))
        tandem_markdown_code_block_set_code (TANDEM_MARKDOWN_CODE_BLOCK (new->widget),
                                             new->text->str, new->text->len);
      break;

    case TANDEM_MARKDOWN_QUOTE:
    case TANDEM_MARKDOWN_LIST:
    case TANDEM_MARKDOWN_ITEM:
      reconcile_children (new->box, NULL, old->children, new->children, 0, get_node_itself);
      break;

    case TANDEM_MARKDOWN_TABLE:
      for (guint row = 0; row < new->children->len; row++)
        {
          Node *old_row = g_ptr_array_index (old->children, row);
          Node *new_row = g_ptr_array_index (new->children, row);

          for (guint column = 0; column < new_row->children->len; column++)
            ((Node *) g_ptr_array_index (new_row->children, column))->widget =
              ((Node *) g_ptr_array_index (old_row->children, column))->widget;
        }
      break;

    case TANDEM_MARKDOWN_RULE:
    case TANDEM_MARKDOWN_ROW:
    case TANDEM_MARKDOWN_CELL:
    default:
      break;
    }

  return TRUE;
}

/* View */

static void
tandem_markdown_view_clear (TandemMarkdownView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
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

  tandem_markdown_model_free (self->model);

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

  self->model = tandem_markdown_model_new ();
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

  return tandem_markdown_model_get_text (self->model);
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
  g_autoptr(GPtrArray) replaced = NULL;
  GPtrArray *blocks;
  GtkWidget *previous = NULL;
  gboolean rebuilt;
  guint first;

  g_return_if_fail (TANDEM_IS_MARKDOWN_VIEW (self));

  if (!(replaced = tandem_markdown_model_set_text (self->model, text, &first, &rebuilt)))
    return;

  blocks = tandem_markdown_model_get_blocks (self->model);

  /* Text parsed anew (another block of the transcript given to this
   * view's row, see tandem-block-row.c) is reconciled with the widgets
   * of the old text like an append is: a paragraph's label takes the
   * new paragraph's words instead of being made again. */
  if (!rebuilt && first > 0)
    previous = ((Block *) g_ptr_array_index (blocks, first - 1))->node->widget;

  self->blocks_built += reconcile_children (GTK_WIDGET (self), previous, replaced,
                                            blocks, first, get_block_node);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * tandem_markdown_view_set_offset:
 * @self: a markdown view
 * @offset: where the text starts in the message it was cut from
 *
 * Reads the next text given as the message reads there (see
 * tandem_markdown_model_set_offset()).
 */
void
tandem_markdown_view_set_offset (TandemMarkdownView *self,
                                 gsize               offset)
{
  g_return_if_fail (TANDEM_IS_MARKDOWN_VIEW (self));

  tandem_markdown_model_set_offset (self->model, offset);
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
