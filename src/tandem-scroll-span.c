/* tandem-scroll-span.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-scroll-span.h"

/**
 * TandemScrollSpan:
 *
 * The transcript's scrollbar, spanning the whole conversation, though
 * the list view is given only a stretch of it (see [class@Tandem.BlockWindow]).
 * The scrolled window's own scrollbar can only span the blocks the list
 * view has: dragged to its top, it reached the oldest of those, and the
 * rest of a long conversation was out of reach.
 *
 * This one stands for every block: those before and after the stretch
 * shown count as tall as the average of those laid out, an estimate as
 * GtkListView makes for rows it has not built. Where it is dragged to
 * inside the stretch, the transcript scrolls there; outside it, a
 * stretch around the block estimated there is shown and scrolled to.
 * While it is dragged it follows the pointer only; it takes the
 * transcript's place again when let go. The scrolled window keeps
 * scrolling (wheel, keys, touch) without a scrollbar of its own.
 */

/* Frames in which a place jumped to is asked for again: a list view
 * given other rows loses the place when they are measured */
#define JUMP_FRAMES 3
#define JUMP_EXTRA_FRAMES 12

struct _TandemScrollSpan
{
  GObject            parent_instance;

  GtkScrolledWindow *scroller;   /* borrowed */
  GtkWidget         *view;       /* borrowed */
  GtkWidget         *scrollbar;  /* owned until given a parent */
  GtkAdjustment     *real;
  GtkAdjustment     *span;
  TandemBlockWindow *window;
  guint              margin;

  guint              tick_id;
  guint              jump_frames;
  guint              jump_block;    /* in the source */
  guint              jump_extra_frames;
  guint              jump_to_start : 1;

  guint              syncing : 1;
  guint              dragging : 1;
};

G_DEFINE_FINAL_TYPE (TandemScrollSpan, tandem_scroll_span, G_TYPE_OBJECT)

enum { SCROLLED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Helpers */

static guint
n_source (TandemScrollSpan *self)
{
  return self->window != NULL ? g_list_model_get_n_items (tandem_block_window_get_source (self->window)) : 0;
}

static guint
n_shown (TandemScrollSpan *self)
{
  return self->window != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->window)) : 0;
}

/* The estimated height of a block, and of those before and after */
static double
block_height (TandemScrollSpan *self)
{
  guint n = n_shown (self);

  return n > 0 ? gtk_adjustment_get_upper (self->real) / n : 0;
}

static double
height_before (TandemScrollSpan *self)
{
  return self->window != NULL ? tandem_block_window_get_offset (self->window) * block_height (self) : 0;
}

static double
height_after (TandemScrollSpan *self)
{
  guint after;

  if (self->window == NULL)
    return 0;

  after = n_source (self) - tandem_block_window_get_offset (self->window) - n_shown (self);
  return after * block_height (self);
}

/* The transcript's place, on the span */
static void
sync_span (TandemScrollSpan *self)
{
  double before = height_before (self);
  double upper = before + gtk_adjustment_get_upper (self->real) + height_after (self);
  double page = gtk_adjustment_get_page_size (self->real);

  if (self->dragging)
    return;

  self->syncing = TRUE;
  gtk_adjustment_configure (self->span,
                            before + gtk_adjustment_get_value (self->real),
                            0, upper,
                            gtk_adjustment_get_step_increment (self->real),
                            gtk_adjustment_get_page_increment (self->real),
                            page);
  self->syncing = FALSE;

  gtk_widget_set_visible (self->scrollbar, upper > page + 1);
}

static gboolean
jump_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  TandemScrollSpan *self = user_data;
  gboolean changed = FALSE;
  guint position;

  if (self->window == NULL || self->jump_frames == 0)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  /* The stretch is changed once; the frames after only scroll, and a
   * value is only set once the list view laid out what it was given:
   * before, it cannot place a value among rows it has not measured */
  if (self->jump_to_start)
    {
      if (self->jump_frames == JUMP_FRAMES && tandem_block_window_get_offset (self->window) > 0)
        {
          tandem_block_window_show_range (self->window, 0, self->margin);
          changed = TRUE;
        }
      position = 0;
    }
  else if (self->jump_frames == JUMP_FRAMES)
    {
      guint offset = tandem_block_window_get_offset (self->window);
      guint shown = n_shown (self);

      position = tandem_block_window_to_window (self->window, self->jump_block, self->margin);
      changed = offset != tandem_block_window_get_offset (self->window) || shown != n_shown (self);
    }
  else
    {
      position = self->jump_block - MIN (self->jump_block, tandem_block_window_get_offset (self->window));
    }

  if (position < n_shown (self))
    gtk_widget_activate_action (self->view, "list.scroll-to-item", "u", position);
  if (self->jump_to_start && !changed)
    gtk_adjustment_set_value (self->real, 0);

  if (self->jump_frames > 1)
    {
      self->jump_frames--;
      return G_SOURCE_CONTINUE;
    }
  /* On a busy machine the rows may come late: the start is asked for
   * until it is shown, for a few frames more */
  if (self->jump_to_start && !changed && self->jump_extra_frames < JUMP_EXTRA_FRAMES &&
      (tandem_block_window_get_offset (self->window) > 0 || gtk_adjustment_get_value (self->real) >= 1))
    {
      self->jump_extra_frames++;
      return G_SOURCE_CONTINUE;
    }

  self->jump_frames = 0;
  self->tick_id = 0;
  sync_span (self);
  return G_SOURCE_REMOVE;
}

/* At the start of the next frames, never from inside the list view's
 * allocation, where the adjustments change */
static void
queue_jump (TandemScrollSpan *self)
{
  self->jump_frames = JUMP_FRAMES;
  self->jump_extra_frames = 0;
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->scroller), jump_tick_cb, self, NULL);
}

/* The span moved (a drag, a click in its trough, the wheel over it) */
static void
on_span_value_changed_cb (TandemScrollSpan *self)
{
  double target = gtk_adjustment_get_value (self->span);
  double before = height_before (self);
  double shown = gtk_adjustment_get_upper (self->real);
  double page = gtk_adjustment_get_page_size (self->real);
  double height = block_height (self);
  guint n = n_source (self);

  if (self->syncing || self->window == NULL)
    return;

  /* The person moved it: the owner stops following the end, or, at the
   * very end, shows it */
  g_signal_emit (self, signals[SCROLLED], 0);
  if (target >= gtk_adjustment_get_upper (self->span) - page - 1 && !tandem_block_window_get_shows_end (self->window))
    return;

  /* Within what is shown: scroll there */
  if (target >= before - 1 && target <= before + shown - page + 1)
    {
      gtk_adjustment_set_value (self->real, target - before);
      return;
    }

  if (height <= 0 || n == 0)
    return;

  if (target <= 0)
    {
      self->jump_to_start = TRUE;
    }
  else
    {
      self->jump_to_start = FALSE;
      self->jump_block = (guint) MIN (target / height, n - 1);
    }
  queue_jump (self);
}

static void
on_real_changed_cb (TandemScrollSpan *self)
{
  sync_span (self);
}

static void
on_drag_begin_cb (TandemScrollSpan *self)
{
  self->dragging = TRUE;
}

static void
on_drag_end_cb (TandemScrollSpan *self)
{
  self->dragging = FALSE;
  sync_span (self);
}

static void
on_pointer_enter_cb (TandemScrollSpan *self)
{
  gtk_widget_add_css_class (self->scrollbar, "hovering");
}

static void
on_pointer_leave_cb (TandemScrollSpan *self)
{
  gtk_widget_remove_css_class (self->scrollbar, "hovering");
}

/* GObject */

static void
tandem_scroll_span_dispose (GObject *object)
{
  TandemScrollSpan *self = TANDEM_SCROLL_SPAN (object);

  if (self->tick_id != 0 && self->scroller != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->scroller), self->tick_id);
  self->tick_id = 0;
  if (self->real != NULL)
    g_signal_handlers_disconnect_by_data (self->real, self);
  if (self->window != NULL)
    g_signal_handlers_disconnect_by_data (self->window, self);
  g_clear_object (&self->window);
  g_clear_object (&self->real);
  g_clear_object (&self->span);
  g_clear_object (&self->scrollbar);
  self->scroller = NULL;
  self->view = NULL;

  G_OBJECT_CLASS (tandem_scroll_span_parent_class)->dispose (object);
}

static void
tandem_scroll_span_class_init (TandemScrollSpanClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_scroll_span_dispose;

  /**
   * TandemScrollSpan::scrolled:
   *
   * The person moved the scrollbar: a drag, a click in its trough, the
   * wheel over it.
   */
  signals[SCROLLED] =
    g_signal_new ("scrolled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tandem_scroll_span_init (TandemScrollSpan *self)
{
}

/* API */

/**
 * tandem_scroll_span_new:
 * @scroller: the transcript's scrolled window, whose scrollbar this replaces
 * @view: the list view in it
 * @margin: how many blocks either side of a place jumped to are shown
 *
 * Returns: (transfer full): a span; put its scrollbar over the
 *   scrolled window's right edge
 */
TandemScrollSpan *
tandem_scroll_span_new (GtkScrolledWindow *scroller,
                        GtkWidget         *view,
                        guint              margin)
{
  TandemScrollSpan *self;
  GtkEventController *controller;

  g_return_val_if_fail (GTK_IS_SCROLLED_WINDOW (scroller), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (view), NULL);

  self = g_object_new (TANDEM_TYPE_SCROLL_SPAN, NULL);
  self->scroller = scroller;
  self->view = view;
  self->margin = margin;
  self->real = g_object_ref (gtk_scrolled_window_get_vadjustment (scroller));
  self->span = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 0, 0, 0));

  /* The scrolled window still scrolls, showing no scrollbar */
  gtk_scrolled_window_set_policy (scroller, GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);

  self->scrollbar = g_object_ref_sink (gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->span));
  gtk_widget_set_halign (self->scrollbar, GTK_ALIGN_END);
  gtk_widget_set_valign (self->scrollbar, GTK_ALIGN_FILL);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  /* As the scrolled window's own: thin until the pointer is on it */
  gtk_widget_add_css_class (self->scrollbar, "overlay-indicator");
  gtk_widget_set_name (self->scrollbar, "transcript-scrollbar");

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "enter", G_CALLBACK (on_pointer_enter_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (on_pointer_leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (self->scrollbar, controller);

  controller = GTK_EVENT_CONTROLLER (gtk_gesture_drag_new ());
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "drag-begin", G_CALLBACK (on_drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "drag-end", G_CALLBACK (on_drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (self->scrollbar, controller);

  g_signal_connect_object (self->real, "changed", G_CALLBACK (on_real_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->real, "value-changed", G_CALLBACK (on_real_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->span, "value-changed", G_CALLBACK (on_span_value_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * tandem_scroll_span_get_scrollbar:
 * @self: a span
 *
 * Returns: (transfer none): the scrollbar spanning the conversation
 */
GtkWidget *
tandem_scroll_span_get_scrollbar (TandemScrollSpan *self)
{
  g_return_val_if_fail (TANDEM_IS_SCROLL_SPAN (self), NULL);

  return self->scrollbar;
}

/**
 * tandem_scroll_span_get_adjustment:
 * @self: a span
 *
 * Returns: (transfer none): the scrollbar's adjustment: the whole
 *   conversation, estimated where not laid out
 */
GtkAdjustment *
tandem_scroll_span_get_adjustment (TandemScrollSpan *self)
{
  g_return_val_if_fail (TANDEM_IS_SCROLL_SPAN (self), NULL);

  return self->span;
}

/**
 * tandem_scroll_span_set_window:
 * @self: a span
 * @window: (nullable): what the list view shows of the conversation
 */
void
tandem_scroll_span_set_window (TandemScrollSpan  *self,
                               TandemBlockWindow *window)
{
  g_return_if_fail (TANDEM_IS_SCROLL_SPAN (self));
  g_return_if_fail (window == NULL || TANDEM_IS_BLOCK_WINDOW (window));

  if (self->window != NULL)
    g_signal_handlers_disconnect_by_data (self->window, self);
  g_set_object (&self->window, window);
  self->jump_frames = 0;
  if (window != NULL)
    g_signal_connect_object (window, "items-changed", G_CALLBACK (sync_span), self, G_CONNECT_SWAPPED);
  sync_span (self);
}

/**
 * tandem_scroll_span_to_start:
 * @self: a span
 *
 * Shows the first message of the conversation at the top (Ctrl+Home),
 * however far back it is.
 */
void
tandem_scroll_span_to_start (TandemScrollSpan *self)
{
  g_return_if_fail (TANDEM_IS_SCROLL_SPAN (self));

  if (self->window == NULL)
    return;

  self->jump_to_start = TRUE;
  queue_jump (self);
}
