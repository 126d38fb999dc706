/* tandem-block-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-block-window.h"

/**
 * TandemBlockWindow:
 *
 * The end of a list of blocks: everything from an offset on, and the
 * offset only ever moves towards the start, when the person scrolls up.
 *
 * GTK 4.8's GtkListView keeps 200 rows alive around its anchor, built,
 * measured and styled, however few fit on screen; opening a long
 * conversation at its end made and laid out all 200 before the first
 * frame. Shown through this window, a conversation opens with its last
 * few dozen blocks; older ones are put in front, a few at a time, as the
 * person reads back. Items put in front are one items-changed at 0, which
 * the list view takes without moving what is on screen; changes to the
 * source past the offset are passed on as they are.
 */

struct _TandemBlockWindow
{
  GObject     parent_instance;

  GListModel *source;
  guint       offset;
};

static void tandem_block_window_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TandemBlockWindow, tandem_block_window, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, tandem_block_window_model_init))

static GType
tandem_block_window_get_item_type (GListModel *model)
{
  return g_list_model_get_item_type (TANDEM_BLOCK_WINDOW (model)->source);
}

static guint
tandem_block_window_get_n_items (GListModel *model)
{
  TandemBlockWindow *self = TANDEM_BLOCK_WINDOW (model);

  return g_list_model_get_n_items (self->source) - self->offset;
}

static gpointer
tandem_block_window_get_item (GListModel *model,
                              guint       position)
{
  TandemBlockWindow *self = TANDEM_BLOCK_WINDOW (model);

  if (position > G_MAXUINT - self->offset)
    return NULL;

  return g_list_model_get_item (self->source, self->offset + position);
}

static void
tandem_block_window_model_init (GListModelInterface *iface)
{
  iface->get_item_type = tandem_block_window_get_item_type;
  iface->get_n_items = tandem_block_window_get_n_items;
  iface->get_item = tandem_block_window_get_item;
}

static void
on_source_items_changed_cb (TandemBlockWindow *self,
                            guint              position,
                            guint              removed,
                            guint              added)
{
  if (position >= self->offset)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position - self->offset, removed, added);
    }
  else if (position + removed <= self->offset)
    {
      /* All before the window: what it shows is the same items */
      self->offset = self->offset - removed + added;
    }
  else
    {
      /* Across the start: the window now starts where the change does */
      guint gone = position + removed - self->offset;

      self->offset = position;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, gone, added);
    }
}

static void
tandem_block_window_dispose (GObject *object)
{
  TandemBlockWindow *self = TANDEM_BLOCK_WINDOW (object);

  if (self->source != NULL)
    g_signal_handlers_disconnect_by_data (self->source, self);
  g_clear_object (&self->source);

  G_OBJECT_CLASS (tandem_block_window_parent_class)->dispose (object);
}

static void
tandem_block_window_class_init (TandemBlockWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_block_window_dispose;
}

static void
tandem_block_window_init (TandemBlockWindow *self)
{
}

/**
 * tandem_block_window_new:
 * @source: the whole list
 * @tail: how many of its last items to show at first
 *
 * Returns: (transfer full): a window on the end of @source
 */
TandemBlockWindow *
tandem_block_window_new (GListModel *source,
                         guint       tail)
{
  TandemBlockWindow *self;
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (source), NULL);

  self = g_object_new (TANDEM_TYPE_BLOCK_WINDOW, NULL);
  self->source = g_object_ref (source);
  n = g_list_model_get_n_items (source);
  self->offset = n > tail ? n - tail : 0;
  g_signal_connect_object (source, "items-changed", G_CALLBACK (on_source_items_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * tandem_block_window_get_source:
 * @self: a window
 *
 * Returns: (transfer none): the whole list
 */
GListModel *
tandem_block_window_get_source (TandemBlockWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), NULL);

  return self->source;
}

/**
 * tandem_block_window_get_offset:
 * @self: a window
 *
 * Returns: the position in the source of the window's first item
 */
guint
tandem_block_window_get_offset (TandemBlockWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), 0);

  return self->offset;
}

/**
 * tandem_block_window_reveal:
 * @self: a window
 * @count: how many more items to show in front
 *
 * Returns: how many were put in front: fewer than @count at the start
 */
guint
tandem_block_window_reveal (TandemBlockWindow *self,
                            guint              count)
{
  guint shown;

  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), 0);

  shown = MIN (count, self->offset);
  if (shown == 0)
    return 0;

  self->offset -= shown;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, shown);

  return shown;
}

/**
 * tandem_block_window_reveal_all:
 * @self: a window
 *
 * Shows the whole source, as something that looks at all of it (a search
 * stepping through matches) needs.
 */
void
tandem_block_window_reveal_all (TandemBlockWindow *self)
{
  g_return_if_fail (TANDEM_IS_BLOCK_WINDOW (self));

  tandem_block_window_reveal (self, self->offset);
}

/**
 * tandem_block_window_to_window:
 * @self: a window
 * @position: a position in the source
 *
 * Shows @position if it is in front of the window, and says where it is
 * in the window.
 *
 * Returns: the position of the source's item @position in the window
 */
guint
tandem_block_window_to_window (TandemBlockWindow *self,
                               guint              position)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), position);

  if (position < self->offset)
    tandem_block_window_reveal (self, self->offset - position);

  return position - self->offset;
}
