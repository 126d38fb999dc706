/* tandem-keyboard.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-keyboard.h"

/**
 * TandemKeyboard:
 *
 * How the window is worked from the keyboard, between its regions and
 * into them, as GNOME apps are:
 *
 * - the sidebar's list is one Tab stop, walked with the arrow keys; a
 *   row's menu opens on the Menu key or Shift+F10 (the row's own)
 * - in the sidebar's search, Down goes into the results and Enter opens
 *   the first; opening a result ends the search
 * - F6 and Shift+F6 move between the sidebar, the conversation and the
 *   composer; Ctrl+L puts the focus in the composer (the window's
 *   win.focus-composer action)
 * - typing while the focus is in the conversation (on a message, a
 *   button, a prompt) goes to the composer
 * - Tab from the header goes on into the conversation, on a message in
 *   view
 * - the focus is never left nowhere: when the widget holding it goes
 *   (the composer disabled while a question waits, a row rebuilt), it
 *   goes back to where it was once that can take it again, or to the
 *   composer, or into the conversation.
 *
 * The window hands over its regions; the keyboard holds them borrowed
 * and is dropped before them.
 */

/* Frames for the transcript to lay out messages put in place of the one
 * that had the focus (see TandemScrollSpan's jumps) */
#define RESTORE_FRAMES 5

struct _TandemKeyboard
{
  GObject         parent_instance;

  GtkWindow      *window;  /* borrowed, as are the widgets below */
  GtkWidget      *sidebar;
  GtkListBox     *list;
  GtkSearchBar   *search_bar;
  GtkSearchEntry *search_entry;
  GtkWidget      *conversation;
  GtkWidget      *transcript;
  GtkWidget      *composer;
  GtkTextView    *composer_view;
  GtkWidget      *composer_blocked;  /* what to do instead, while it is disabled */

  /* What had the focus before it went nowhere, and where it was put
   * meanwhile: it goes back while the stand-in still has it. */
  GWeakRef        displaced;
  GWeakRef        stand_in;
  GWeakRef        last_focus;
  gboolean        last_in_conversation;
  gboolean        entered_unseen;  /* Tab came into the conversation on a message out of view */
  gboolean        to_start;  /* Home from a message: the first one takes the focus once shown */
  GtkEventController *shortcuts;  /* on the window */
  guint           restore_id;
  guint           restore_tick;  /* on the transcript */
  guint           restore_frames;
  guint           search_done_id;
};

G_DEFINE_FINAL_TYPE (TandemKeyboard, tandem_keyboard, G_TYPE_OBJECT)

/* Helpers */

static gboolean
takes_focus (GtkWidget *widget)
{
  return widget != NULL && gtk_widget_is_drawable (widget) && gtk_widget_is_sensitive (widget) &&
         gtk_widget_get_focusable (widget);
}

static gboolean
is_within (GtkWidget *widget,
           GtkWidget *region)
{
  return widget != NULL && region != NULL && (widget == region || gtk_widget_is_ancestor (widget, region));
}

/* Whether @widget, in the transcript, is inside its viewport: a message
 * set aside by the list view may still be drawn for a few frames after a
 * jump took it far away (Ctrl+Home), and is no place to go back to */
static gboolean
in_view (TandemKeyboard *self,
         GtkWidget      *widget)
{
  graphene_rect_t bounds;

  return gtk_widget_is_drawable (widget) && gtk_widget_compute_bounds (widget, self->transcript, &bounds) &&
         bounds.origin.y + bounds.size.height > 0 && bounds.origin.y < gtk_widget_get_height (self->transcript);
}

/* Still there to hold the focus it has. Not whether it is drawn: an
 * entry in a search bar being revealed takes the focus before it is;
 * but a message the list view set aside, scrolled far away, is gone */
static gboolean
holds_focus (TandemKeyboard *self,
             GtkWidget      *widget)
{
  if (widget == NULL || !gtk_widget_is_visible (widget) || !gtk_widget_is_sensitive (widget))
    return FALSE;

  return !is_within (widget, self->transcript) || gtk_widget_is_drawable (widget);
}

static GtkWidget *
get_focus (TandemKeyboard *self)
{
  return gtk_root_get_focus (GTK_ROOT (self->window));
}

static gboolean
is_tab (guint            keyval,
        GdkModifierType  state,
        GtkDirectionType *direction)
{
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
    return FALSE;

  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    *direction = (state & GDK_SHIFT_MASK) ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  else if (keyval == GDK_KEY_ISO_Left_Tab)
    *direction = GTK_DIR_TAB_BACKWARD;
  else
    return FALSE;

  return TRUE;
}

static gboolean
is_menu_key (guint           keyval,
             GdkModifierType state)
{
  GdkModifierType modifiers = state & gtk_accelerator_get_default_mod_mask ();

  return (keyval == GDK_KEY_F10 && modifiers == GDK_SHIFT_MASK) || (keyval == GDK_KEY_Menu && modifiers == 0);
}

/* The sidebar: one Tab stop */

static gboolean
on_list_key_pressed_cb (TandemKeyboard        *self,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        GtkEventControllerKey *controller)
{
  GtkDirectionType direction;
  GtkWidget *focus = get_focus (self);
  GtkWidget *row = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_LIST_BOX_ROW) : NULL;

  if (is_menu_key (keyval, state))
    return row != NULL && gtk_widget_activate_action (row, "thread.menu", NULL);

  if (!is_tab (keyval, state, &direction))
    return FALSE;

  /* GtkListBox moves Tab from row to row; a GNOME list is left by it.
   * With the list out of the chain for a moment, the window moves the
   * focus on from where it is, as it would from the list's last row. */
  gtk_widget_set_can_focus (GTK_WIDGET (self->list), FALSE);
  gtk_widget_child_focus (GTK_WIDGET (self->window), direction);
  gtk_widget_set_can_focus (GTK_WIDGET (self->list), TRUE);

  return TRUE;
}

static GtkListBoxRow *
first_row (TandemKeyboard *self)
{
  GtkListBoxRow *row;

  /* Just made by a search's answer, it may not be drawn yet */
  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->list, i)) != NULL; i++)
    if (gtk_widget_get_visible (GTK_WIDGET (row)) && gtk_widget_get_child_visible (GTK_WIDGET (row)))
      return row;

  return NULL;
}

static gboolean
on_search_key_pressed_cb (TandemKeyboard        *self,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          GtkEventControllerKey *controller)
{
  GtkListBoxRow *row;

  if (keyval != GDK_KEY_Down && keyval != GDK_KEY_KP_Down)
    return FALSE;
  if ((state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;

  row = first_row (self);
  return row != NULL && gtk_widget_grab_focus (GTK_WIDGET (row));
}

static void
on_search_activate_cb (TandemKeyboard *self)
{
  GtkListBoxRow *row = first_row (self);

  if (row != NULL)
    gtk_widget_activate (GTK_WIDGET (row));
}

static gboolean
search_done_cb (gpointer user_data)
{
  TandemKeyboard *self = user_data;
  GtkWidget *focus = get_focus (self);
  gboolean was_searching = focus == NULL || is_within (focus, GTK_WIDGET (self->search_bar)) ||
                           is_within (focus, GTK_WIDGET (self->list));

  self->search_done_id = 0;

  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  /* At once, not after the entry's pause for typing: the next New Chat
   * lands in the whole list */
  g_signal_emit_by_name (self->search_entry, "search-changed");

  /* The result's rows are gone; the conversation opened is next */
  if (was_searching)
    tandem_keyboard_focus_composer (self);

  return G_SOURCE_REMOVE;
}

/* The conversation */

/* The item lowest in the transcript's viewport (the highest, when it is
 * scrolled to its top), whole if one is: a focus given to one cut by
 * the edge would scroll the transcript */
static GtkWidget *
item_in_view (TandemKeyboard *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->transcript));
  gboolean at_top = self->to_start ||
                    (adjustment != NULL && gtk_adjustment_get_value (adjustment) < 1 &&
                     gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 1);
  GtkWidget *whole = NULL, *cut = NULL;
  double whole_y = 0, cut_y = 0;
  int height = gtk_widget_get_height (self->transcript);

  for (GtkWidget *child = gtk_widget_get_first_child (self->transcript); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;
      double y;

      if (!gtk_widget_get_mapped (child) || !gtk_widget_get_child_visible (child) ||
          !gtk_widget_compute_bounds (child, self->transcript, &bounds))
        continue;
      if (bounds.origin.y < 0 || bounds.origin.y >= height || bounds.size.height <= 0)
        continue;
      y = at_top ? -bounds.origin.y : bounds.origin.y;
      if (bounds.origin.y + bounds.size.height <= height + 1 && (whole == NULL || y > whole_y))
        {
          whole = child;
          whole_y = y;
        }
      if (cut == NULL || y > cut_y)
        {
          cut = child;
          cut_y = y;
        }
    }

  return whole != NULL ? whole : cut;
}

/* Typing where nothing edits text goes to the composer */
static gboolean
on_conversation_key_pressed_cb (TandemKeyboard        *self,
                                guint                  keyval,
                                guint                  keycode,
                                GdkModifierType        state,
                                GtkEventControllerKey *controller)
{
  GtkWidget *focus = get_focus (self);
  gunichar c = gdk_keyval_to_unicode (keyval);
  char text[7] = { 0 };

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK | GDK_META_MASK)) != 0)
    return FALSE;
  if (c == 0 || !g_unichar_isgraph (c))
    return FALSE;
  if (focus != NULL && (GTK_IS_EDITABLE (focus) || gtk_widget_get_ancestor (focus, GTK_TYPE_TEXT_VIEW) != NULL))
    return FALSE;
  if (!takes_focus (GTK_WIDGET (self->composer_view)))
    return FALSE;

  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
  /* Through the text view's own handling, so an input method composes
   * the key as it would have; as the character itself otherwise */
  if (!gtk_event_controller_key_forward (controller, GTK_WIDGET (self->composer_view)))
    {
      g_unichar_to_utf8 (c, text);
      gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (self->composer_view), text, -1);
    }

  return TRUE;
}

/* The focus never left nowhere */

static void
restore_focus (TandemKeyboard *self)
{
  g_autoptr(GtkWidget) last = g_weak_ref_get (&self->last_focus);
  GtkWidget *focus = get_focus (self);
  gboolean unseen;

  /* Home goes to the first message: the topmost one shown, again as the
   * jump lays out more (the blocks come over several frames, with pauses
   * for the store), until the view is at the top */
  if (self->to_start && is_within (focus, self->transcript))
    {
      GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->transcript));
      GtkWidget *first = item_in_view (self);

      if (first != NULL && first != focus)
        gtk_widget_grab_focus (first);
      if (adjustment == NULL || gtk_adjustment_get_value (adjustment) < 1)
        self->to_start = FALSE;
      return;
    }
  self->to_start = FALSE;

  /* Tab put it on a message drawn out of view, and it is there still */
  unseen = self->entered_unseen && is_within (focus, self->transcript) && !in_view (self, focus);

  self->entered_unseen = FALSE;
  if ((holds_focus (self, focus) && !unseen) || !gtk_widget_get_visible (GTK_WIDGET (self->window)))
    return;

  g_weak_ref_set (&self->displaced, last);
  if (takes_focus (last) && (!is_within (last, self->transcript) || in_view (self, last)) &&
      gtk_widget_grab_focus (last))
    return;
  /* A message scrolled away (Ctrl+Home far back) leaves the focus on
   * another message; anything else, in the composer */
  if (!(self->last_in_conversation && tandem_keyboard_focus_conversation (self)) &&
      !tandem_keyboard_focus_composer (self))
    tandem_keyboard_focus_conversation (self);
  g_weak_ref_set (&self->stand_in, get_focus (self));
}

static gboolean
restore_focus_cb (gpointer user_data)
{
  TandemKeyboard *self = user_data;

  self->restore_id = 0;
  restore_focus (self);

  return G_SOURCE_REMOVE;
}

static gboolean
restore_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  TandemKeyboard *self = user_data;

  if (--self->restore_frames > 0)
    return G_SOURCE_CONTINUE;

  self->restore_tick = 0;
  restore_focus (self);
  return G_SOURCE_REMOVE;
}

/* Messages scrolled far away are replaced over a few frames, and the
 * list view keeps the one with the focus aside, not drawn: the focus
 * goes to one in view once they are laid out */
static void
restore_focus_later (TandemKeyboard *self)
{
  self->restore_frames = RESTORE_FRAMES;
  if (self->restore_tick == 0)
    self->restore_tick = gtk_widget_add_tick_callback (self->transcript, restore_tick_cb, self, NULL);
}

static void
on_focus_changed_cb (TandemKeyboard *self)
{
  GtkWidget *focus = get_focus (self);
  gboolean entering = !self->last_in_conversation && is_within (focus, self->transcript);

  /* Tab from outside goes to the message the list view last had the
   * focus on (the first, if none), which it keeps aside, not drawn, once
   * scrolled far away, and draws, out of view, when it is only a few
   * rows past the edge: on to one in view, as F6 does, not back to
   * where the focus came from (it would leave the conversation out of
   * Tab) */
  if (holds_focus (self, focus) && !(entering && !in_view (self, focus)))
    {
      g_weak_ref_set (&self->last_focus, focus);
      self->last_in_conversation = is_within (focus, self->conversation);
      self->entered_unseen = FALSE;
      return;
    }

  if (entering && gtk_widget_get_mapped (self->transcript))
    {
      g_weak_ref_set (&self->last_focus, NULL);
      self->last_in_conversation = TRUE;
      self->entered_unseen = TRUE;
    }

  if (self->last_in_conversation && self->transcript != NULL && gtk_widget_get_mapped (self->transcript))
    {
      restore_focus_later (self);
      return;
    }

  /* Not while it is taken from the window on purpose (closed, being
   * destroyed); a moment later, as the widgets settle */
  if (self->restore_id == 0)
    self->restore_id = g_idle_add (restore_focus_cb, self);
}

static void
on_transcript_items_changed_cb (TandemKeyboard *self)
{
  if (is_within (get_focus (self), self->transcript))
    restore_focus_later (self);
}

/* A jump (Ctrl+Home) scrolls over frames, and the list view sets the
 * message with the focus aside only once it is laid out far away: its
 * row, not drawn, keeps a place in view, blank, until the focus goes
 * elsewhere. Checked again once the scrolling settles. */
static void
on_transcript_scrolled_cb (TandemKeyboard *self)
{
  if (is_within (get_focus (self), self->transcript))
    restore_focus_later (self);
}

/* The composer, disabled while a question waited, takes the focus back
 * from whatever held it meanwhile */
static void
on_composer_sensitive_cb (TandemKeyboard *self)
{
  g_autoptr(GtkWidget) displaced = g_weak_ref_get (&self->displaced);
  g_autoptr(GtkWidget) stand_in = g_weak_ref_get (&self->stand_in);
  GtkWidget *focus = get_focus (self);

  if (!gtk_widget_is_sensitive (GTK_WIDGET (self->composer_view)))
    {
      if (focus == NULL || focus == GTK_WIDGET (self->composer_view) ||
          gtk_widget_is_ancestor (GTK_WIDGET (self->composer_view), focus))
        {
          g_weak_ref_set (&self->last_focus, self->composer_view);
          self->last_in_conversation = FALSE;
          on_focus_changed_cb (self);
        }
      return;
    }

  /* From where it was put meanwhile, or from an Answer… button the
   * question's end hides */
  if (focus == NULL || !gtk_widget_is_drawable (focus) || is_within (focus, self->composer_blocked) ||
      gtk_widget_is_ancestor (GTK_WIDGET (self->composer_view), focus) ||
      (displaced == GTK_WIDGET (self->composer_view) && focus == stand_in))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
  g_weak_ref_set (&self->displaced, NULL);
  g_weak_ref_set (&self->stand_in, NULL);
}

/* GObject */

static void
tandem_keyboard_dispose (GObject *object)
{
  TandemKeyboard *self = TANDEM_KEYBOARD (object);

  g_clear_handle_id (&self->restore_id, g_source_remove);
  if (self->restore_tick != 0 && self->transcript != NULL)
    gtk_widget_remove_tick_callback (self->transcript, self->restore_tick);
  self->restore_tick = 0;
  g_clear_handle_id (&self->search_done_id, g_source_remove);
  if (self->window != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->window, self);
      gtk_widget_remove_controller (GTK_WIDGET (self->window), self->shortcuts);
    }
  if (self->composer_view != NULL)
    g_signal_handlers_disconnect_by_data (self->composer_view, self);
  self->window = NULL;
  self->composer_view = NULL;

  G_OBJECT_CLASS (tandem_keyboard_parent_class)->dispose (object);
}

static void
tandem_keyboard_finalize (GObject *object)
{
  TandemKeyboard *self = TANDEM_KEYBOARD (object);

  g_weak_ref_clear (&self->displaced);
  g_weak_ref_clear (&self->stand_in);
  g_weak_ref_clear (&self->last_focus);

  G_OBJECT_CLASS (tandem_keyboard_parent_class)->finalize (object);
}

static void
tandem_keyboard_class_init (TandemKeyboardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_keyboard_dispose;
  object_class->finalize = tandem_keyboard_finalize;
}

static void
tandem_keyboard_init (TandemKeyboard *self)
{
  g_weak_ref_init (&self->displaced, NULL);
  g_weak_ref_init (&self->stand_in, NULL);
  g_weak_ref_init (&self->last_focus, NULL);
}

/* API */

static gboolean
on_cycle_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  TandemKeyboard *self = user_data;

  return tandem_keyboard_cycle_regions (self, g_variant_get_boolean (args));
}

TandemKeyboard *
tandem_keyboard_new (GtkWindow *window)
{
  TandemKeyboard *self;
  GtkEventController *shortcuts;

  g_return_val_if_fail (GTK_IS_WINDOW (window), NULL);

  self = g_object_new (TANDEM_TYPE_KEYBOARD, NULL);
  self->window = window;
  g_signal_connect_object (window, "notify::focus-widget", G_CALLBACK (on_focus_changed_cb),
                           self, G_CONNECT_SWAPPED);

  /* Wherever the focus is, once it did nothing with the key */
  shortcuts = self->shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new_with_arguments (gtk_keyval_trigger_new (GDK_KEY_F6, 0),
                                                                         gtk_callback_action_new (on_cycle_cb, self, NULL),
                                                                         "b", FALSE));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new_with_arguments (gtk_keyval_trigger_new (GDK_KEY_F6, GDK_SHIFT_MASK),
                                                                         gtk_callback_action_new (on_cycle_cb, self, NULL),
                                                                         "b", TRUE));
  gtk_widget_add_controller (GTK_WIDGET (window), shortcuts);

  return self;
}

void
tandem_keyboard_set_sidebar (TandemKeyboard *self,
                             GtkWidget      *sidebar,
                             GtkListBox     *list,
                             GtkSearchBar   *search_bar,
                             GtkSearchEntry *search_entry)
{
  GtkEventController *controller;

  g_return_if_fail (TANDEM_IS_KEYBOARD (self));
  g_return_if_fail (GTK_IS_LIST_BOX (list));

  self->sidebar = sidebar;
  self->list = list;
  self->search_bar = search_bar;
  self->search_entry = search_entry;

  /* Before the list box and its rows */
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_list_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (list), controller);

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_search_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (search_entry), controller);
  g_signal_connect_object (search_entry, "activate", G_CALLBACK (on_search_activate_cb), self, G_CONNECT_SWAPPED);
}

void
tandem_keyboard_set_conversation (TandemKeyboard *self,
                                  GtkWidget      *conversation,
                                  GtkWidget      *transcript)
{
  GtkEventController *controller;

  g_return_if_fail (TANDEM_IS_KEYBOARD (self));

  self->conversation = conversation;
  self->transcript = transcript;
  if (GTK_IS_LIST_VIEW (transcript))
    g_signal_connect_object (gtk_list_view_get_model (GTK_LIST_VIEW (transcript)), "items-changed",
                             G_CALLBACK (on_transcript_items_changed_cb), self, G_CONNECT_SWAPPED);
  if (GTK_IS_SCROLLABLE (transcript) && gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (transcript)) != NULL)
    g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (transcript)), "value-changed",
                             G_CALLBACK (on_transcript_scrolled_cb), self, G_CONNECT_SWAPPED);

  /* After whatever has the focus: a button's Space, a slider's arrows */
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (controller, "type-to-compose");
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_conversation_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (conversation, controller);
}

void
tandem_keyboard_set_composer (TandemKeyboard *self,
                              GtkWidget      *composer,
                              GtkTextView    *view,
                              GtkWidget      *blocked)
{
  g_return_if_fail (TANDEM_IS_KEYBOARD (self));

  self->composer = composer;
  self->composer_view = view;
  self->composer_blocked = blocked;
  g_signal_connect_object (view, "notify::sensitive", G_CALLBACK (on_composer_sensitive_cb),
                           self, G_CONNECT_SWAPPED);
}

/**
 * tandem_keyboard_focus_composer:
 * @self: a keyboard
 *
 * Puts the focus in the composer; while it is disabled for a question,
 * on what answers it (the banner's Answer… button), or the first
 * control of the composer that takes it.
 *
 * Returns: whether the composer has the focus
 */
gboolean
tandem_keyboard_focus_composer (TandemKeyboard *self)
{
  g_return_val_if_fail (TANDEM_IS_KEYBOARD (self), FALSE);

  if (self->composer_view == NULL || !gtk_widget_is_drawable (GTK_WIDGET (self->composer_view)))
    return FALSE;
  if (takes_focus (GTK_WIDGET (self->composer_view)))
    return gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
  /* Disabled while a question waits: its Answer… button, where the
   * focus may be already (moving it on would leave the button for the
   * composer's scrolled window, which answers nothing) */
  if (self->composer_blocked != NULL && gtk_widget_is_drawable (self->composer_blocked) &&
      (is_within (get_focus (self), self->composer_blocked) ||
       gtk_widget_child_focus (self->composer_blocked, GTK_DIR_TAB_FORWARD)))
    return TRUE;

  return gtk_widget_child_focus (self->composer, GTK_DIR_TAB_FORWARD);
}

/**
 * tandem_keyboard_focus_conversation:
 * @self: a keyboard
 *
 * Puts the focus on the lowest message in view, or on the first control
 * of the page shown instead of a transcript.
 *
 * Returns: whether the conversation has the focus
 */
gboolean
tandem_keyboard_focus_conversation (TandemKeyboard *self)
{
  GtkWidget *item;

  g_return_val_if_fail (TANDEM_IS_KEYBOARD (self), FALSE);

  if (self->conversation == NULL || !gtk_widget_is_drawable (self->conversation))
    return FALSE;

  if (self->transcript != NULL && gtk_widget_is_drawable (self->transcript) &&
      (item = item_in_view (self)) != NULL && gtk_widget_grab_focus (item))
    return TRUE;

  return gtk_widget_child_focus (self->conversation, GTK_DIR_TAB_FORWARD);
}

static gboolean
focus_sidebar (TandemKeyboard *self)
{
  GtkListBoxRow *row;

  if (self->sidebar == NULL || !gtk_widget_is_drawable (self->sidebar))
    return FALSE;

  row = gtk_list_box_get_selected_row (self->list);
  if (row == NULL || !gtk_widget_is_drawable (GTK_WIDGET (row)))
    row = first_row (self);
  if (row != NULL && gtk_widget_grab_focus (GTK_WIDGET (row)))
    return TRUE;

  return gtk_widget_child_focus (self->sidebar, GTK_DIR_TAB_FORWARD);
}

/**
 * tandem_keyboard_cycle_regions:
 * @self: a keyboard
 * @backwards: whether to go the other way (Shift+F6)
 *
 * Moves the focus to the next region shown (F6): the sidebar, the
 * conversation, the composer, and round again.
 *
 * Returns: whether the focus moved
 */
gboolean
tandem_keyboard_cycle_regions (TandemKeyboard *self,
                               gboolean        backwards)
{
  GtkWidget *focus;
  GtkWidget *regions[3];
  int current = -1;

  g_return_val_if_fail (TANDEM_IS_KEYBOARD (self), FALSE);

  regions[0] = self->sidebar;
  regions[1] = self->conversation;
  regions[2] = self->composer;
  focus = get_focus (self);
  for (int i = 0; i < 3; i++)
    if (is_within (focus, regions[i]))
      current = i;

  /* From elsewhere (a header bar, nowhere): the first or the last */
  if (current < 0)
    current = backwards ? 0 : 2;

  for (int step = 1; step <= 3; step++)
    {
      int next = (current + (backwards ? 3 - step : step)) % 3;
      gboolean moved = FALSE;

      if (next == 0)
        moved = focus_sidebar (self);
      else if (next == 1)
        moved = tandem_keyboard_focus_conversation (self);
      else
        moved = tandem_keyboard_focus_composer (self);

      if (moved)
        return TRUE;
    }

  return FALSE;
}

/**
 * tandem_keyboard_search_done:
 * @self: a keyboard
 *
 * A result of the sidebar's search was opened: the search ends, the list
 * shows every conversation again, and a person who searched by keyboard
 * goes on in the composer. After the list box is done with the row it
 * activated, which the search ending takes away.
 */
/**
 * tandem_keyboard_jumped_to_start:
 * @self: a keyboard
 *
 * The transcript is going to its first message (Home): a message with
 * the focus hands it to the first one once that is shown, not to
 * whichever message happens to be in view when the jump is half done.
 */
void
tandem_keyboard_jumped_to_start (TandemKeyboard *self)
{
  g_return_if_fail (TANDEM_IS_KEYBOARD (self));

  if (self->transcript == NULL || !is_within (get_focus (self), self->transcript))
    return;

  self->to_start = TRUE;
  restore_focus_later (self);
}

void
tandem_keyboard_search_done (TandemKeyboard *self)
{
  g_return_if_fail (TANDEM_IS_KEYBOARD (self));

  if (self->search_bar == NULL || !gtk_search_bar_get_search_mode (self->search_bar))
    return;

  if (self->search_done_id == 0)
    self->search_done_id = g_idle_add (search_done_cb, self);
}
