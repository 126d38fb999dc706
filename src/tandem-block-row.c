/* tandem-block-row.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-attempt-frame.h"
#include "tandem-block-list.h"
#include "tandem-block-row.h"
#include "tandem-markdown-view.h"
#include "tandem-message-row.h"

/**
 * TandemBlockRow:
 *
 * One row of the transcript view: draws one [class@Tandem.Block]. A
 * Markdown block's view is brought up to date at most once a frame,
 * however many deltas arrive in between, so a burst of a thousand deltas
 * costs one render of the block, and a render costs the size of the block,
 * which the splitter keeps small, not of the answer.
 */

struct _TandemBlockRow
{
  GtkWidget    parent_instance;

  TandemBlock *block;
  GtkWidget   *child;  /* the attempt frame around the view, or the user's message row */
  GtkWidget   *view;
  guint        tick_id;
};

G_DEFINE_FINAL_TYPE (TandemBlockRow, tandem_block_row, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_BLOCK, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
update_markdown (TandemBlockRow *self)
{
  g_autofree char *text = NULL;
  const char *start;
  gsize length;

  start = tandem_block_peek_text (self->block, &length);
  text = g_strndup (start != NULL ? start : "", length);
  tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (self->view), text);
  if (TANDEM_IS_ATTEMPT_FRAME (self->child))
    tandem_attempt_frame_set_show_mark (TANDEM_ATTEMPT_FRAME (self->child),
                                        tandem_block_get_last_of_part (self->block));
}

static gboolean
on_tick_cb (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       user_data)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  self->tick_id = 0;
  if (self->block != NULL && TANDEM_IS_MARKDOWN_VIEW (self->view))
    update_markdown (self);

  return G_SOURCE_REMOVE;
}

static void
on_block_changed_cb (TandemBlockRow *self)
{
  /* Off screen there are no frames to wait for */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      update_markdown (self);
      return;
    }

  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick_cb, NULL, NULL);
}

static void
tandem_block_row_clear (TandemBlockRow *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->block != NULL)
    g_signal_handlers_disconnect_by_data (self->block, self);
  g_clear_object (&self->block);
  self->view = NULL;
  g_clear_pointer (&self->child, gtk_widget_unparent);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);

  for (const char * const *c = (const char * const []) { "user", "agent", "other", "first", "continued", "markdown", NULL };
       *c != NULL; c++)
    gtk_widget_remove_css_class (GTK_WIDGET (self), *c);
}

static GtkWidget *
create_child (TandemBlockRow *self)
{
  AguiMessage *message = tandem_block_get_message (self->block);
  AguiRole role = agui_message_get_role (message);
  GtkWidget *widget;

  switch (tandem_block_get_kind (self->block))
    {
    case TANDEM_BLOCK_USER:
      widget = tandem_message_row_new ();
      tandem_message_row_set_message (TANDEM_MESSAGE_ROW (widget), message);
      return widget;

    case TANDEM_BLOCK_MARKDOWN:
      self->view = tandem_markdown_view_new ();
      gtk_widget_add_css_class (GTK_WIDGET (self), "markdown");
      break;

    case TANDEM_BLOCK_TEXT:
    case TANDEM_BLOCK_REASONING:
    case TANDEM_BLOCK_TOOL_CALL:
    case TANDEM_BLOCK_ACTIVITY:
    case TANDEM_BLOCK_MEDIA:
    default:
      self->view = tandem_part_widget_new (role, tandem_block_get_part (self->block));
      break;
    }

  /* A failed or stopped attempt is marked on every block of it */
  return tandem_attempt_frame_new (tandem_block_get_part (self->block), self->view);
}

static TandemBlockList *
find_block_list (TandemBlockRow *self)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_LIST_VIEW);
  GListModel *model = view != NULL ? G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (view))) : NULL;

  if (GTK_IS_NO_SELECTION (model))
    model = gtk_no_selection_get_model (GTK_NO_SELECTION (model));

  return TANDEM_IS_BLOCK_LIST (model) ? TANDEM_BLOCK_LIST (model) : NULL;
}

static void
on_toggle_collapsed_cb (TandemBlockRow *self)
{
  TandemBlockList *list = find_block_list (self);

  if (list != NULL && self->block != NULL)
    tandem_block_list_set_attempt_collapsed (list, self->block, !tandem_block_get_collapsed (self->block));
}

/* A folded attempt keeps only its last block's line */
static void
on_collapsed_changed_cb (TandemBlockRow *self)
{
  gboolean collapsed = tandem_block_get_collapsed (self->block);
  AguiPart *part = tandem_block_get_part (self->block);
  gboolean end = part != NULL && agui_part_get_attempt_end (part) && tandem_block_get_last_of_part (self->block);

  if (TANDEM_IS_ATTEMPT_FRAME (self->child))
    tandem_attempt_frame_set_collapsed (TANDEM_ATTEMPT_FRAME (self->child), collapsed);
  gtk_widget_set_visible (GTK_WIDGET (self), !collapsed || end);
}

static void
tandem_block_row_dispose (GObject *object)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  tandem_block_row_clear (self);

  G_OBJECT_CLASS (tandem_block_row_parent_class)->dispose (object);
}

static void
tandem_block_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      g_value_set_object (value, self->block);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      tandem_block_row_set_block (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_row_class_init (TandemBlockRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_block_row_dispose;
  object_class->get_property = tandem_block_row_get_property;
  object_class->set_property = tandem_block_row_set_property;

  properties[PROP_BLOCK] =
    g_param_spec_object ("block", NULL, NULL, TANDEM_TYPE_BLOCK,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "blockrow");
}

static void
tandem_block_row_init (TandemBlockRow *self)
{
}

GtkWidget *
tandem_block_row_new (void)
{
  return g_object_new (TANDEM_TYPE_BLOCK_ROW, NULL);
}

/**
 * tandem_block_row_get_block:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the block drawn
 */
TandemBlock *
tandem_block_row_get_block (TandemBlockRow *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_ROW (self), NULL);

  return self->block;
}

void
tandem_block_row_set_block (TandemBlockRow *self,
                            TandemBlock    *block)
{
  AguiRole role;

  g_return_if_fail (TANDEM_IS_BLOCK_ROW (self));
  g_return_if_fail (block == NULL || TANDEM_IS_BLOCK (block));

  if (self->block == block)
    return;

  tandem_block_row_clear (self);

  if (block != NULL)
    {
      self->block = g_object_ref (block);
      role = agui_message_get_role (tandem_block_get_message (block));

      if (tandem_block_get_kind (block) == TANDEM_BLOCK_USER)
        gtk_widget_add_css_class (GTK_WIDGET (self), "user");
      else if (role == AGUI_ROLE_ASSISTANT || role == AGUI_ROLE_ACTIVITY)
        gtk_widget_add_css_class (GTK_WIDGET (self), "agent");
      else
        gtk_widget_add_css_class (GTK_WIDGET (self), "other");
      if (tandem_block_get_first (block))
        gtk_widget_add_css_class (GTK_WIDGET (self), "first");
      if (tandem_block_get_continued (block))
        gtk_widget_add_css_class (GTK_WIDGET (self), "continued");

      self->child = create_child (self);
      gtk_widget_set_parent (self->child, GTK_WIDGET (self));
      if (TANDEM_IS_ATTEMPT_FRAME (self->child))
        g_signal_connect_object (self->child, "toggle-collapsed", G_CALLBACK (on_toggle_collapsed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (block, "notify::collapsed", G_CALLBACK (on_collapsed_changed_cb), self, G_CONNECT_SWAPPED);
      on_collapsed_changed_cb (self);

      if (tandem_block_get_kind (block) == TANDEM_BLOCK_MARKDOWN)
        {
          update_markdown (self);
          g_signal_connect_object (block, "changed", G_CALLBACK (on_block_changed_cb), self, G_CONNECT_SWAPPED);
        }
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
}
