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
 * A stretch of a list of blocks: usually its end, everything from an
 * offset on, the offset moving towards the start as the person scrolls
 * up; or, after a jump far back (find stepping to an old match), a few
 * dozen blocks around the place jumped to, growing at either edge as the
 * person scrolls, until Jump to Latest shows the end again.
 *
 * GTK 4.8's GtkListView keeps 200 rows alive around its anchor, built,
 * measured and styled, however few fit on screen; opening a long
 * conversation at its end made and laid out all 200 before the first
 * frame. Shown through this window, a conversation opens with its last
 * few dozen blocks; older ones are put in front, a few at a time, as the
 * person reads back. Items put in front are one items-changed at 0, which
 * the list view takes without moving what is on screen; changes to the
 * source past the offset are passed on as they are. Jumping far back by
 * scrolling the whole list would make the list view build its 200 rows
 * around the place jumped to (a quarter of a second); a window around it
 * costs the few rows it holds.
 *
 * A change that brings more blocks into the window at once than the list
 * view keeps rows for (a snapshot of the messages, a history loaded into
 * the conversation shown) leaves the window on the new end, as a
 * conversation opened: held whole, the first jump across them (Home, the
 * scrollbar) had the list view build all its 200 rows in one frame, and
 * a walk through them held the main thread half a second a step.
 */

/* An end that follows the source's: the window reaches the last block */
#define OPEN_END G_MAXUINT

struct _TandemBlockWindow
{
  GObject     parent_instance;

  GListModel *source;
  guint       offset;
  guint       end;     /* one past the last item shown, or OPEN_END */
  guint       tail;    /* how many a window on the end starts with */
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
window_end (TandemBlockWindow *self)
{
  guint n = g_list_model_get_n_items (self->source);

  return self->end == OPEN_END ? n : MIN (self->end, n);
}

/* A closed end that came to the source's own follows it from then on */
static void
normalize_end (TandemBlockWindow *self)
{
  if (self->end != OPEN_END && self->end >= g_list_model_get_n_items (self->source))
    self->end = OPEN_END;
}

static guint
tandem_block_window_get_n_items (GListModel *model)
{
  TandemBlockWindow *self = TANDEM_BLOCK_WINDOW (model);

  return window_end (self) - self->offset;
}

static gpointer
tandem_block_window_get_item (GListModel *model,
                              guint       position)
{
  TandemBlockWindow *self = TANDEM_BLOCK_WINDOW (model);

  if (position >= window_end (self) - self->offset)
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

/* With a closed end: what changed at or past the end is not shown; the
 * window keeps its items, wherever changes before them move them to, and
 * takes in whatever replaced a stretch of it, all of it. */
static void
on_source_items_changed_closed (TandemBlockWindow *self,
                                guint              position,
                                guint              removed,
                                guint              added)
{
  guint in_window, removed_in;

  if (position >= self->end)
    return;

  if (position + removed <= self->offset)
    {
      self->offset = self->offset - removed + added;
      self->end = self->end - removed + added;
      return;
    }

  in_window = position >= self->offset ? position - self->offset : 0;
  removed_in = MIN (position + removed, self->end) - MAX (position, self->offset);
  self->offset = MIN (self->offset, position);
  self->end = position + removed >= self->end ? position + added : self->end - removed + added;
  normalize_end (self);
  g_list_model_items_changed (G_LIST_MODEL (self), in_window, removed_in, added);
}

/* Whether a change of the source brings more items into the window at
 * once than the list view keeps rows for: it replaces some of what the
 * window shows, or comes at the end it follows. Items put in front of
 * what it shows (the block list taking in older messages, into a window
 * read back to their start) are not: the list view keeps its place. */
static gboolean
is_bulk_change (TandemBlockWindow *self,
                guint              position,
                guint              removed,
                guint              added)
{
  guint n_before = g_list_model_get_n_items (self->source) - added + removed;

  if (added <= TANDEM_BLOCK_WINDOW_MAX_BULK)
    return FALSE;
  if (self->end != OPEN_END && position >= self->end)
    return FALSE;
  if (removed == 0 && position == self->offset && n_before > self->offset)
    return FALSE;

  return position >= self->offset || position + removed > self->offset;
}

static void
on_source_items_changed_cb (TandemBlockWindow *self,
                            guint              position,
                            guint              removed,
                            guint              added)
{
  if (is_bulk_change (self, position, removed, added))
    {
      /* Too many at once for the list view's rows: the window starts
       * again on the source's end, its tail only. What it showed before
       * the change is counted as it was. */
      guint n = g_list_model_get_n_items (self->source);
      guint n_before = n - added + removed;
      guint old_n = (self->end == OPEN_END ? n_before : MIN (self->end, n_before)) - self->offset;

      self->offset = n > self->tail ? n - self->tail : 0;
      self->end = OPEN_END;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, n - self->offset);
      return;
    }

  if (self->end != OPEN_END)
    {
      on_source_items_changed_closed (self, position, removed, added);
      return;
    }

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
 * @tail: how many of its last items to show at first, and after a
 *   change of more than %TANDEM_BLOCK_WINDOW_MAX_BULK items at once
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
  self->end = OPEN_END;
  self->tail = tail;
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
 * tandem_block_window_get_shows_end:
 * @self: a window
 *
 * Returns: whether the window reaches the end of the source, and takes
 *   in what is appended to it
 */
gboolean
tandem_block_window_get_shows_end (TandemBlockWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), TRUE);

  return self->end == OPEN_END;
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
 * tandem_block_window_reveal_after:
 * @self: a window
 * @count: how many more items to show after the last
 *
 * Returns: how many were added: 0 when the window shows the end
 */
guint
tandem_block_window_reveal_after (TandemBlockWindow *self,
                                  guint              count)
{
  guint n, shown, old_n;

  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), 0);

  if (self->end == OPEN_END)
    return 0;

  n = g_list_model_get_n_items (self->source);
  old_n = self->end - self->offset;
  shown = MIN (count, n - self->end);
  self->end += shown;
  normalize_end (self);
  if (shown > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, shown);

  return shown;
}

/**
 * tandem_block_window_drop_front:
 * @self: a window
 * @count: how many of its first items to stop showing
 *
 * The window starts later: a person reading on towards the end has left
 * its first items far behind, and the list view keeps a row, built,
 * styled and laid out in every frame, for each item it is given (up to
 * 200). The window keeps at least one item.
 *
 * Returns: how many were dropped
 */
guint
tandem_block_window_drop_front (TandemBlockWindow *self,
                                guint              count)
{
  guint n, dropped;

  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), 0);

  n = window_end (self) - self->offset;
  dropped = n > 0 ? MIN (count, n - 1) : 0;
  if (dropped == 0)
    return 0;

  self->offset += dropped;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, dropped, 0);

  return dropped;
}

/**
 * tandem_block_window_show_range:
 * @self: a window
 * @first: the position in the source of the first item to show
 * @count: how many to show
 *
 * Shows that stretch of the source instead of what the window showed;
 * when it reaches the source's end, the window follows the end again.
 */
void
tandem_block_window_show_range (TandemBlockWindow *self,
                                guint              first,
                                guint              count)
{
  guint n, old_n;

  g_return_if_fail (TANDEM_IS_BLOCK_WINDOW (self));

  n = g_list_model_get_n_items (self->source);
  old_n = window_end (self) - self->offset;
  self->offset = MIN (first, n);
  self->end = count > n - self->offset ? n : self->offset + count;
  normalize_end (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, window_end (self) - self->offset);
}

/**
 * tandem_block_window_show_tail:
 * @self: a window
 * @tail: how many of the last items to show
 *
 * Shows the end of the source again, as when the window was made, if it
 * does not already.
 */
void
tandem_block_window_show_tail (TandemBlockWindow *self,
                               guint              tail)
{
  guint n;

  g_return_if_fail (TANDEM_IS_BLOCK_WINDOW (self));

  if (self->end == OPEN_END)
    return;

  n = g_list_model_get_n_items (self->source);
  tandem_block_window_show_range (self, n > tail ? n - tail : 0, tail);
}

/**
 * tandem_block_window_to_window:
 * @self: a window
 * @position: a position in the source
 *
 * Shows @position, and says where it is in the window. A position just
 * outside the window is added at that edge; one further away gets a
 * window of its own, @position and @margin items either side.
 *
 * Returns: the position of the source's item @position in the window
 */
guint
tandem_block_window_to_window (TandemBlockWindow *self,
                               guint              position,
                               guint              margin)
{
  guint end;

  g_return_val_if_fail (TANDEM_IS_BLOCK_WINDOW (self), position);

  end = window_end (self);
  if (position < self->offset && self->offset - position <= margin)
    tandem_block_window_reveal (self, self->offset - position);
  else if (position >= end && position - end < margin)
    tandem_block_window_reveal_after (self, position - end + 1);
  else if (position < self->offset || position >= end)
    tandem_block_window_show_range (self, position > margin ? position - margin : 0,
                                    (position > margin ? margin : position) + 1 + margin);

  return position - self->offset;
}
