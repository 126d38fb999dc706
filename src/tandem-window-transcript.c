/* tandem-window-transcript.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <time.h>

#include <glib/gi18n.h>

#include "tandem-block-row.h"
#include "tandem-window-private.h"

/* The transcript view's glue: which page the conversation shows, and
 * following its end. The list view holds a window on the blocks
 * (TandemBlockWindow); this follows the latest output while the person
 * is at the bottom, stops when they read back, offers Jump to Latest,
 * and puts older (or newer) blocks in as they scroll. */

static void tandem_window_check_reveal (TandemWindow  *self,
                                        GtkAdjustment *adjustment);

/* Blocks put in at an edge of the window in one frame: as many as fit
 * in REVEAL_BUDGET_US of it, two or three. GTK 4.8's list view binds,
 * measures and lays out a row for each in the frame that puts it in,
 * 1.5-2.5 ms apiece on a slow machine; while the edge stays near, the
 * next frame puts more in. Three a frame, paging through 10,000 messages
 * held the main thread 16-25 ms in some frame of every walk here. What
 * a block costs is learned from the frames that put some in: the main
 * thread's time from the tick that did to the end of the frame's paint,
 * the whole frame counted against the blocks (the scroll itself too: it
 * errs towards fewer). No more than three: a frame's cost is not as
 * even as the average says (a row drawing another kind of block makes
 * its widgets anew), and five or more at once, learned on a quiet
 * machine, held opening a long conversation 18 ms. The budget is 4 ms,
 * not 6: with the blocks far above the view let go of (drop_far_front ())
 * a block costs the frame less, and on a quiet machine 6 ms let three in
 * every frame of a walk, which held it 23-26 ms in some frame. */
#define REVEAL_BUDGET_US 4000
/* At least two a frame, 120 blocks a second, however slow: reading back
 * by the wheel must not crawl */
#define REVEAL_MIN 2
#define REVEAL_MAX 3
/* Until a frame has told: what a block cost on a slow machine */
#define REVEAL_FIRST_COST_US 2000

static guint
reveal_count (TandemWindow *self)
{
  gint64 cost = self->reveal_cost_us > 0 ? self->reveal_cost_us : REVEAL_FIRST_COST_US;

  return (guint) CLAMP (REVEAL_BUDGET_US / cost, REVEAL_MIN, REVEAL_MAX);
}

/* The main thread's own time: what the blocks cost it, not what other
 * processes on a busy machine took meanwhile */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);

  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
is_at_bottom (GtkAdjustment *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  return value >= upper - page - BOTTOM_EPSILON;
}

static gboolean
overflows (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + BOTTOM_EPSILON;
}

static gboolean
shows_end (TandemWindow *self)
{
  return self->block_window == NULL || tandem_block_window_get_shows_end (self->block_window);
}

void
_tandem_window_update_jump_button (TandemWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);

  /* A window on older blocks has newer ones below it, whatever fits;
   * the welcome page of a new chat has nothing to jump to */
  gtk_widget_set_visible (self->jump_button,
                          g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "transcript") == 0 &&
                          !self->following && (overflows (adjustment) || !shows_end (self)));
}

void
_tandem_window_scroll_to_end (TandemWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);
  guint n = self->block_window != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->block_window)) : 0;

  /* The list view estimates the height of rows it has not made, so a
   * value alone may land short of the end: bring the last row in first,
   * which moves the list view's own anchor, then go to the bottom. */
  if (n > 0 && !is_at_bottom (adjustment))
    gtk_widget_activate_action (GTK_WIDGET (self->transcript_view), "list.scroll-to-item", "u", n - 1);

  /* Right after the model changed under it (another conversation, blocks
   * put in front), the adjustment still describes the old layout, and
   * the list view cannot place a value among rows it has not laid out:
   * the change of the adjustment after the next layout follows again. */
  if (self->relayout_pending)
    return;

  gtk_adjustment_set_value (adjustment,
                            gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

/* At the bottom of what is shown, and that is the latest */
static gboolean
is_at_latest (TandemWindow  *self,
              GtkAdjustment *adjustment)
{
  return is_at_bottom (adjustment) && shows_end (self);
}

/* Blocks the list view is given above the view, at most: in pages of
 * the view. Kept when reading on: Page Up and the wheel have that much
 * to go back to before older blocks are put in front again (which
 * tandem_window_check_reveal() does under a page). */
#define KEEP_PAGES_ABOVE 2

/* Reading on, the blocks far above the view are taken out of the
 * window: GTK 4.8's list view keeps a row for each of up to 200 items
 * around its anchor, and a row put in or taken out anywhere has GTK
 * style all of them again, every descendant (gtk_css_node_reposition()
 * invalidates the parent's first child, and an invalidated node takes its
 * children and later siblings with it). At 200 rows of 20-odd widgets,
 * that was a third of each frame of a walk through a long conversation.
 * No more than a frame puts in at the other edge, so a walk drops
 * as many as it adds. */
static void
drop_far_front (TandemWindow *self,
                guint         most)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->block_window));
  double block, excess;

  if (n == 0 || page <= 0)
    return;

  /* The list view's estimate too, for rows it has not laid out */
  block = gtk_adjustment_get_upper (adjustment) / n;
  excess = value - KEEP_PAGES_ABOVE * page;
  if (block <= 0 || excess < block)
    return;

  tandem_block_window_drop_front (self->block_window, MIN (most, (guint) (excess / block)));
}

/* Between frames, not in the one that put blocks in at the end: the list
 * view tears down the rows of the blocks let go of at once, and that
 * frame already makes the new ones. The next frame lays out both
 * changes, from the adjustment as that frame laid it out. */
static gboolean
drop_far_front_cb (gpointer user_data)
{
  TandemWindow *self = user_data;

  self->drop_id = 0;
  if (self->block_window != NULL)
    drop_far_front (self, self->drop_count);
  self->drop_count = 0;

  return G_SOURCE_REMOVE;
}

static void
queue_drop_far_front (TandemWindow *self,
                      guint         most)
{
  self->drop_count = MAX (self->drop_count, most);
  /* Above the frames' priority: before the next one */
  if (self->drop_id == 0)
    {
      self->drop_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, drop_far_front_cb, self, NULL);
      g_source_set_name_by_id (self->drop_id, "[tandem] transcript drop far front");
    }
}

static gboolean
reveal_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  TandemWindow *self = user_data;
  gint64 started = thread_cpu_us ();
  guint shown = 0;

  self->reveal_tick = 0;
  if (self->block_window == NULL)
    return G_SOURCE_REMOVE;

  /* One edge a frame; the other one's turn comes after the layout */
  if (self->reveal_front)
    shown += tandem_block_window_reveal (self->block_window, reveal_count (self));
  else if (self->reveal_back)
    {
      guint count = reveal_count (self);

      shown += tandem_block_window_reveal_after (self->block_window, count);
      queue_drop_far_front (self, count);
    }
  self->reveal_front = self->reveal_back = FALSE;
  if (shown > 0)
    {
      self->relayout_pending = TRUE;
      /* Timed to the end of this frame (see on_frame_after_paint_cb()) */
      self->reveal_started = started;
      self->reveal_shown = shown;
    }

  return G_SOURCE_REMOVE;
}

/* Follows the latest output from now on: after a jump far back, the
 * window shows the conversation's end again */
void
_tandem_window_follow (TandemWindow *self)
{
  self->following = TRUE;
  if (!shows_end (self))
    {
      tandem_block_window_show_tail (self->block_window, OPEN_BLOCKS);
      self->relayout_pending = TRUE;
    }
}

/* As for following: never from inside the list view's allocation */
static void
tandem_window_queue_reveal (TandemWindow *self)
{
  if (self->reveal_tick == 0)
    self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_tick_cb, self, NULL);
}

static void
on_vadjustment_value_changed_cb (TandemWindow  *self,
                                 GtkAdjustment *adjustment)
{
  /* Reaching the bottom, by any means, resumes following. Leaving it is
   * decided by what the person does (see tandem_window_user_scrolled()),
   * never by the value alone: the list view moves the value by itself
   * while it re-measures a row that grew, and that must not count. */
  if (is_at_latest (self, adjustment))
    self->following = TRUE;

  /* Reading back towards the oldest block shown: show older ones (and
   * towards the newest, in a window far back: newer ones) */
  tandem_window_check_reveal (self, adjustment);

  _tandem_window_update_jump_button (self);
}

static gboolean
follow_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  TandemWindow *self = user_data;

  self->follow_tick = 0;
  if (self->following)
    _tandem_window_scroll_to_end (self);

  return G_SOURCE_REMOVE;
}

/* Follows at the start of the next frame, before its layout. Never from
 * inside the list view's size allocation, which is where the adjustment
 * changes: a value set then moves the scrollbar but not the rows, since
 * the list view cannot lay itself out again while it is being laid out,
 * and the picture stays where it was. */
void
_tandem_window_queue_follow (TandemWindow *self)
{
  if (self->follow_tick == 0)
    /* On the window: the scroller has no frames while its page is hidden */
    self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick_cb, self, NULL);
}

/* Near the top (or, in a window far back, the bottom) of what is shown
 * of a conversation that has more */
static void
tandem_window_check_reveal (TandemWindow  *self,
                            GtkAdjustment *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  if (self->block_window == NULL)
    return;

  if (tandem_block_window_get_offset (self->block_window) > 0 && value < page)
    self->reveal_front = TRUE;
  if (!shows_end (self) && value + page > gtk_adjustment_get_upper (adjustment) - page)
    self->reveal_back = TRUE;
  if (self->reveal_front || self->reveal_back)
    tandem_window_queue_reveal (self);
}

static void
on_vadjustment_changed_cb (TandemWindow  *self,
                           GtkAdjustment *adjustment)
{
  self->relayout_pending = FALSE;
  if (self->following)
    _tandem_window_queue_follow (self);
  /* Also when what is shown fits the window: then nothing scrolls */
  tandem_window_check_reveal (self, adjustment);

  _tandem_window_update_jump_button (self);
}

/**
 * tandem_window_user_scrolled:
 * @self: a window
 *
 * The person moved the transcript themselves: unless that left it at the
 * bottom, stop following new output and offer Jump to Latest.
 */
void
tandem_window_user_scrolled (TandemWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);

  g_return_if_fail (TANDEM_IS_WINDOW (self));

  /* While everything fits there is nothing to read back to */
  self->following = shows_end (self) && (is_at_bottom (adjustment) || !overflows (adjustment));
  _tandem_window_update_jump_button (self);
}

static gboolean
on_transcript_scroll_cb (TandemWindow             *self,
                         double                    dx,
                         double                    dy,
                         GtkEventControllerScroll *controller)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);

  /* Shift turns the wheel sideways: it is for a code block under the
   * pointer (see tandem-markdown-view.c), and the transcript does not
   * move, so it neither reads back nor may be kept from the block. */
  if (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller)) & GDK_SHIFT_MASK)
    return FALSE;

  /* Upwards is the person reading back, when there is something above to
   * read; reaching the bottom again resumes following (see
   * on_vadjustment_value_changed_cb()). */
  if (dy < 0 && overflows (adjustment))
    {
      self->following = FALSE;
      _tandem_window_update_jump_button (self);
      return FALSE;
    }

  /* Nothing to move to while the view follows: a wheel past the top of
   * what fits, or past the end, would only make GtkScrolledWindow
   * overshoot and bounce back. Its bounce springs to where the end was
   * when it began, frame after frame, so an answer that grew meanwhile
   * was left below the view, still "followed", with nothing to bring it
   * back once the answer ended. */
  if (self->following && dy != 0 && (dy < 0 || is_at_bottom (adjustment)))
    return TRUE;

  return FALSE;
}

/* Page Up/Down and Home/End move the transcript wherever the focus is in
 * it, except in something that edits text, which has its own use for
 * them. GtkScrolledWindow's own bindings need Ctrl for Home and End. */
static gboolean
on_transcript_key_pressed_cb (TandemWindow          *self,
                              guint                  keyval,
                              guint                  keycode,
                              GdkModifierType        state,
                              GtkEventControllerKey *controller)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);
  double bottom = gtk_adjustment_get_upper (adjustment) - page;

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  if ((state & (GDK_SHIFT_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      value -= page * 0.9;
      break;
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      value += page * 0.9;
      break;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      /* The first message, however far back; and the focus on it, if a
       * message had it */
      tandem_keyboard_jumped_to_start (self->keyboard);
      /* The conversation's first, not the oldest taken in so far of one
       * just opened, whose older messages the block list still puts in
       * front a slice at a time: the window on its start would keep
       * showing the same blocks while they came in before it */
      if (self->blocks != NULL)
        tandem_block_list_take_all (self->blocks);
      if (self->block_window != NULL && tandem_block_window_get_offset (self->block_window) > 0)
        {
          self->following = FALSE;
          tandem_scroll_span_to_start (self->scroll_span);
          _tandem_window_update_jump_button (self);
          return TRUE;
        }
      value = 0;
      break;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      /* The last message, however far back the transcript is */
      if (!shows_end (self))
        {
          gtk_widget_activate_action (GTK_WIDGET (self), "win.jump-to-latest", NULL);
          return TRUE;
        }
      value = bottom;
      break;
    default:
      return FALSE;
    }

  value = CLAMP (value, 0, MAX (bottom, 0));
  /* Judged before the move: the list view may re-measure rows as it
   * scrolls, and the content overflowed when the key was pressed. */
  self->following = shows_end (self) && (value >= bottom - BOTTOM_EPSILON || !overflows (adjustment));
  gtk_adjustment_set_value (adjustment, value);
  _tandem_window_update_jump_button (self);

  return TRUE;
}

/* The scrollbar spans the whole conversation: moved to its end, the
 * latest is followed again; anywhere else, the person reads back */
static void
on_span_scrolled_cb (TandemWindow *self)
{
  GtkAdjustment *span = tandem_scroll_span_get_adjustment (self->scroll_span);

  if (gtk_adjustment_get_value (span) >= gtk_adjustment_get_upper (span) - gtk_adjustment_get_page_size (span) - 1)
    {
      if (!shows_end (self))
        gtk_widget_activate_action (GTK_WIDGET (self), "win.jump-to-latest", NULL);
      return;
    }

  self->following = FALSE;
  _tandem_window_update_jump_button (self);
}

static void
on_scrollbar_drag_end_cb (TandemWindow   *self,
                          double          x,
                          double          y,
                          GtkGestureDrag *gesture)
{
  tandem_window_user_scrolled (self);
}

void
_tandem_window_update_content_page (TandemWindow *self)
{
  guint n = self->transcript != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->transcript)) : 0;
  gboolean demo = self->agent_id == NULL || g_strcmp0 (self->agent_id, TANDEM_AGENTS_DEMO_ID) == 0;
  /* The demo agent is always listed: more than one means the person has
   * added their own, and is told where to choose it instead */
  gboolean own_agents = self->agents != NULL &&
                        g_list_model_get_n_items (tandem_agents_get_model (self->agents)) > 1;

  /* In a narrow window the selector is on this page, below the words */
  if (demo && own_agents && self->agent_narrow)
    adw_status_page_set_description (self->welcome_page,
                                     _("You are chatting with the built-in demo agent. Choose one of your own below."));
  else if (demo && own_agents)
    adw_status_page_set_description (self->welcome_page,
                                     _("You are chatting with the built-in demo agent. Choose one of your own at the top of the window."));
  else if (demo)
    adw_status_page_set_description (self->welcome_page,
                                     _("You are chatting with the built-in demo agent. Add your own agent in Preferences."));
  else
    adw_status_page_set_description (self->welcome_page, _("Send a message to start the conversation."));
  gtk_widget_set_visible (self->welcome_preferences_button, demo && !own_agents);
  tandem_welcome_prompts_set_agent (self->welcome_prompts, self->agent_id);

  gtk_stack_set_visible_child_name (self->content_stack, n > 0 ? "transcript" : "welcome");
  _tandem_window_update_jump_button (self);
}

/* Stepping to a match is reading back: new output must not take the
 * view away from it. */
static void
on_search_current_changed_cb (TandemWindow *self)
{
  if (tandem_conversation_search_get_current (self->conversation_search) < 0)
    return;

  self->following = FALSE;
  _tandem_window_update_jump_button (self);
}

/* Between a row's floating actions and Jump to Latest below them */
#define ACTIONS_JUMP_GAP 6

/* Jump to Latest and a later block's floating actions share the
 * transcript's right margin, the one at the bottom of the view, the
 * others at their block's top: each row is told where the button's top
 * is, and keeps its actions above it (tandem_block_row_set_actions_floor).
 * After the window's layout, in the same frame, when the rows are where
 * they are drawn: a scroll moves them without laying them out again. */
static void
on_frame_layout_cb (TandemWindow  *self,
                    GdkFrameClock *clock)
{
  gboolean shown = gtk_widget_get_mapped (self->jump_button);

  if (!shown && !self->row_floors_set)
    return;
  self->row_floors_set = shown;

  for (GtkWidget *item = gtk_widget_get_first_child (GTK_WIDGET (self->transcript_view));
       item != NULL;
       item = gtk_widget_get_next_sibling (item))
    {
      GtkWidget *row = gtk_widget_get_first_child (item);
      graphene_point_t top;
      int lowest = G_MAXINT;

      if (row == NULL || !TANDEM_IS_BLOCK_ROW (row))
        continue;
      if (shown && gtk_widget_compute_point (self->jump_button, row, &GRAPHENE_POINT_INIT (0, 0), &top))
        lowest = (int) top.y - ACTIONS_JUMP_GAP;
      tandem_block_row_set_actions_floor (TANDEM_BLOCK_ROW (row), lowest);
    }
}

/* The end of a frame that put blocks in at an edge: what each cost it,
 * averaged with the frames before, so that one slow frame (another
 * process had the CPU) does not halve the next ones' count */
static void
on_frame_after_paint_cb (TandemWindow  *self,
                         GdkFrameClock *clock)
{
  gint64 per_block;

  if (self->reveal_shown == 0)
    return;

  per_block = (thread_cpu_us () - self->reveal_started) / self->reveal_shown;
  self->reveal_cost_us = self->reveal_cost_us > 0 ? (3 * self->reveal_cost_us + per_block) / 4 : per_block;
  self->reveal_shown = 0;

  /* More, while the edge is still near. The adjustment's changes ask for
   * them too, but a window whose blocks all fit in the view (a few
   * around a place jumped to) does not change it as it grows: it would
   * stay that short, and Page Down have nowhere to go. */
  tandem_window_check_reveal (self, gtk_scrolled_window_get_vadjustment (self->transcript_scroller));
}

static void
on_window_realize_cb (TandemWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  /* After GTK's own handler, which lays the window out */
  g_signal_connect_object (clock, "layout", G_CALLBACK (on_frame_layout_cb), self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_frame_after_paint_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

static void
on_window_unrealize_cb (TandemWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  g_signal_handlers_disconnect_by_func (clock, on_frame_layout_cb, self);
  g_signal_handlers_disconnect_by_func (clock, on_frame_after_paint_cb, self);
  self->reveal_shown = 0;
}

/* A row for each block, made in code: a GtkBuilderListItemFactory parses
 * its template again for every row it makes, and reading on through a
 * long conversation makes a row or two in every frame (see
 * drop_far_front ()) */
static void
on_row_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, tandem_block_row_new ());
}

/* Not undone on unbind: a row handed the next block reuses what it drew
 * the last one with (tandem_block_row_set_block ()) */
static void
on_row_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  tandem_block_row_set_block (TANDEM_BLOCK_ROW (gtk_list_item_get_child (item)), gtk_list_item_get_item (item));
}

static void
on_row_teardown_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkWidget *row = gtk_list_item_get_child (item);

  if (row != NULL)
    tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), NULL);
}

/* The controllers that tell the person's scrolling from the list view's
 * own, and the scrollbar that spans the whole conversation */
void
_tandem_window_init_transcript (TandemWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkEventController *controller;
  GtkAdjustment *adjustment;

  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), NULL);
  g_signal_connect (factory, "teardown", G_CALLBACK (on_row_teardown_cb), NULL);
  gtk_list_view_set_factory (self->transcript_view, factory);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (on_transcript_scroll_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->transcript_scroller), controller);

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (controller, "transcript-keys");
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_transcript_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->transcript_scroller), controller);

  controller = GTK_EVENT_CONTROLLER (gtk_gesture_drag_new ());
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "drag-end", G_CALLBACK (on_scrollbar_drag_end_cb),
                           self, G_CONNECT_SWAPPED);
  /* The scrollbar spans the whole conversation, not only the blocks
   * the list view is given */
  self->scroll_span = tandem_scroll_span_new (self->transcript_scroller, GTK_WIDGET (self->transcript_view),
                                              REVEAL_BLOCKS);
  gtk_overlay_add_overlay (GTK_OVERLAY (gtk_widget_get_parent (GTK_WIDGET (self->content_stack))),
                           tandem_scroll_span_get_scrollbar (self->scroll_span));
  gtk_widget_add_controller (tandem_scroll_span_get_scrollbar (self->scroll_span), controller);
  g_signal_connect_object (self->scroll_span, "scrolled", G_CALLBACK (on_span_scrolled_cb), self, G_CONNECT_SWAPPED);

  adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (on_vadjustment_value_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "changed", G_CALLBACK (on_vadjustment_changed_cb),
                           self, G_CONNECT_SWAPPED);

  g_signal_connect (self, "realize", G_CALLBACK (on_window_realize_cb), NULL);
  g_signal_connect (self, "unrealize", G_CALLBACK (on_window_unrealize_cb), NULL);

  tandem_conversation_search_set_view (self->conversation_search, self->transcript_view);
  g_signal_connect_object (self->conversation_search, "notify::current",
                           G_CALLBACK (on_search_current_changed_cb), self, G_CONNECT_SWAPPED);
}
