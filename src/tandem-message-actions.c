/* tandem-message-actions.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tandem-message-actions.h"
#include "tandem-nested-scroll.h"

/**
 * TandemMessageActions:
 *
 * The line above a message: which version of its turn it shows
 * ("‹ 2 / 3 ›", when it has more than one), and the buttons for what can
 * be done with it, shown while the pointer or the keyboard focus is on
 * the message. For the person's messages it also holds the editor that
 * "Edit and Resend" opens in place of the message, made the first time
 * it opens: a long conversation has thousands of these lines and few
 * are ever edited, and a text view is the dearest widget of the line.
 *
 * The buttons name `message.*` actions, which the row installs (the
 * row's context menu offers the same ones); sending an edit activates
 * `win.edit-message`.
 */

struct _TandemMessageActions
{
  GtkWidget    parent_instance;

  TandemBlock *block;

  GtkWidget   *bar;
  GtkWidget   *buttons;
  GtkWidget   *switcher;
  GtkLabel    *branch_label;
  GtkWidget   *previous_button;
  GtkWidget   *next_button;
  GtkWidget   *copy_button;
  GtkWidget   *regenerate_button;
  GtkWidget   *edit_button;
  GtkWidget   *time_label;
  GtkWidget   *editor;       /* NULL until first asked for */
  GtkTextView *editor_view;
  GtkScrolledWindow *editor_scroller;
  gboolean     compact;
};

G_DEFINE_FINAL_TYPE (TandemMessageActions, tandem_message_actions, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_EDITING, N_PROPS };
static GParamSpec *properties[N_PROPS];

/**
 * tandem_message_dup_markdown:
 * @message: a row of the transcript
 *
 * The Markdown source of a whole message, however many blocks draw it:
 * its text parts, a blank line between two.
 *
 * Returns: (transfer full): the text, maybe empty
 */
char *
tandem_message_dup_markdown (AguiSpeakerTurn *message)
{
  GListModel *parts;
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (message), NULL);

  parts = agui_speaker_turn_get_parts (message);
  for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, i);
      const char *piece;

      if (!AGUI_IS_TEXT_PART (part))
        continue;

      piece = agui_text_part_get_text (AGUI_TEXT_PART (part));
      if (piece == NULL || piece[0] == '\0')
        continue;

      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, piece);
    }

  return g_string_free (text, FALSE);
}

static void
update_branches (TandemMessageActions *self)
{
  AguiTranscript *transcript = tandem_block_get_transcript (self->block);
  AguiSpeakerTurn *message = tandem_block_get_message (self->block);
  guint index = 0, n = 1;

  if (transcript == NULL ||
      !agui_transcript_get_branch_position (transcript, agui_speaker_turn_get_id (message), &index, &n))
    n = 1;

  gtk_widget_set_visible (self->switcher, n > 1 && !self->compact);
  if (n > 1)
    {
      /* TRANSLATORS: which version of a message is shown, of how many: "2 / 3" */
      g_autofree char *text = g_strdup_printf (_("%u / %u"), index + 1, n);

      gtk_label_set_text (self->branch_label, text);
    }
}

/**
 * tandem_message_dup_time:
 * @block: a block of the message
 * @full: (out) (optional) (nullable): the date and time in full
 *
 * When the message of @block arrived, as the transcript shows it: the
 * time of day for today's, the date too for older ones, in the locale's
 * words.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL when unknown
 */
char *
tandem_message_dup_time (TandemBlock  *block,
                         char        **full)
{
  AguiTranscript *transcript = tandem_block_get_transcript (block);
  AguiSpeakerTurn *message = tandem_block_get_message (block);
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  gint64 microseconds;

  if (full != NULL)
    *full = NULL;

  microseconds = transcript ? agui_transcript_get_message_time (transcript, agui_speaker_turn_get_id (message)) : 0;
  if (microseconds <= 0 || !(time = g_date_time_new_from_unix_local (microseconds / G_USEC_PER_SEC)))
    return NULL;

  if (full != NULL)
    *full = g_date_time_format (time, "%c");
  if (g_date_time_get_year (time) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (time) == g_date_time_get_day_of_year (now))
    /* TRANSLATORS: when a message of today arrived, a g_date_time_format() format */
    return g_date_time_format (time, _("%H:%M"));
  else
    /* TRANSLATORS: when an older message arrived, a g_date_time_format() format */
    return g_date_time_format (time, _("%-d %b %Y, %H:%M"));
}

static void
update_time (TandemMessageActions *self)
{
  g_autofree char *full = NULL;
  g_autofree char *text = tandem_message_dup_time (self->block, &full);

  if (text == NULL)
    {
      gtk_widget_set_visible (self->time_label, FALSE);
      return;
    }

  gtk_label_set_text (GTK_LABEL (self->time_label), text);
  /* GTK 4.8 asks the display where the pointer is when a visible
   * widget's tooltip changes: a round trip to the X server for each row
   * made. Hidden, it does not ask. */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (self->time_label), full) != 0)
    {
      gtk_widget_set_visible (self->time_label, FALSE);
      gtk_widget_set_tooltip_text (self->time_label, full);
    }
  gtk_widget_set_visible (self->time_label, !self->compact);
  /* A column has no room for the time: it says it when pointed at */
  if (self->compact)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self), full);
}

/* The conversation's list view gives each row its minimum height, and a
 * scrolled window's minimum is a few pixels whatever its content: the
 * editor showed three lines of a long message. Its minimum grows with
 * the text it has shown, up to the editor's largest height. It does not
 * shrink as the text does: the text view's adjustment never reads less
 * than the height it was given, so only a text that overflows says its
 * height. Opening the editor again starts it small. */
static void
on_editor_vadjustment_changed_cb (GtkAdjustment     *adjustment,
                                  GtkScrolledWindow *scroller)
{
  int text = (int) ceil (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment));
  int height = MIN (text, gtk_scrolled_window_get_max_content_height (scroller));

  /* Only text taller than the editor is its real height */
  if (text > gtk_adjustment_get_page_size (adjustment) &&
      height > gtk_scrolled_window_get_min_content_height (scroller))
    gtk_scrolled_window_set_min_content_height (scroller, height);
}

/* As in the composer: Enter sends, Shift+Enter starts a new line,
 * Escape leaves the message as it was. Before the text view, which
 * would take Enter for itself. */
static gboolean
on_editor_key_pressed_cb (TandemMessageActions  *self,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          GtkEventControllerKey *controller)
{
  GdkModifierType modifiers = state & gtk_accelerator_get_default_mod_mask ();

  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && !(modifiers & GDK_SHIFT_MASK))
    return gtk_widget_activate_action (GTK_WIDGET (self), "editor.send", NULL);

  if (keyval == GDK_KEY_Escape && modifiers == 0)
    return gtk_widget_activate_action (GTK_WIDGET (self), "editor.cancel", NULL);

  return FALSE;
}

static void
ensure_editor (TandemMessageActions *self)
{
  g_autoptr(GtkBuilder) builder = NULL;
  GtkEventController *keys;

  if (self->editor != NULL)
    return;

  builder = gtk_builder_new_from_resource ("/io/github/tandemdesk/Tandem/tandem-message-editor.ui");
  self->editor = GTK_WIDGET (gtk_builder_get_object (builder, "editor"));
  self->editor_view = GTK_TEXT_VIEW (gtk_builder_get_object (builder, "editor_view"));
  gtk_widget_set_parent (self->editor, GTK_WIDGET (self));

  self->editor_scroller = GTK_SCROLLED_WINDOW (gtk_builder_get_object (builder, "editor_scroller"));
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->editor_scroller), "changed",
                           G_CALLBACK (on_editor_vadjustment_changed_cb), self->editor_scroller, 0);
  /* A short message fits the editor: the wheel over it scrolls the
   * conversation, and a long one's text scrolls only until its end. */
  tandem_nested_scroll_pass_on (self->editor_scroller, GTK_ORIENTATION_VERTICAL);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_editor_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (self->editor, keys);
}

static void
set_editing (TandemMessageActions *self,
             gboolean              editing)
{
  if (editing == tandem_message_actions_get_editing (self))
    return;

  ensure_editor (self);
  if (editing)
    gtk_scrolled_window_set_min_content_height (self->editor_scroller, -1);
  gtk_widget_set_visible (self->editor, editing);
  gtk_widget_set_visible (self->bar, !editing);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING]);
}

static void
editor_send_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemMessageActions *self = TANDEM_MESSAGE_ACTIONS (widget);
  g_autoptr(TandemMessageActions) hold = NULL;
  GtkTextBuffer *buffer;
  g_autofree char *text = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *id = NULL;
  GtkTextIter start, end;

  if (!tandem_message_actions_get_editing (self))
    return;

  buffer = gtk_text_view_get_buffer (self->editor_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  stripped = g_strstrip (g_strdup (text));
  if (stripped[0] == '\0')
    return;

  hold = g_object_ref (self);
  id = g_strdup (agui_speaker_turn_get_id (tandem_block_get_message (self->block)));

  /* Sending forks the thread, which takes this row away: the editor
   * closes first, and opens again only if the window refused the edit
   * (a run in flight) and the row is still there. */
  set_editing (self, FALSE);
  if (!gtk_widget_activate_action (widget, "win.edit-message", "(ss)", id, text) && self->block != NULL)
    set_editing (self, TRUE);
}

static void
editor_cancel_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  set_editing (TANDEM_MESSAGE_ACTIONS (widget), FALSE);
}

static void
tandem_message_actions_dispose (GObject *object)
{
  TandemMessageActions *self = TANDEM_MESSAGE_ACTIONS (object);

  g_clear_pointer (&self->editor, gtk_widget_unparent);
  self->editor_view = NULL;
  self->editor_scroller = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_MESSAGE_ACTIONS);
  g_clear_object (&self->block);

  G_OBJECT_CLASS (tandem_message_actions_parent_class)->dispose (object);
}

static void
tandem_message_actions_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TandemMessageActions *self = TANDEM_MESSAGE_ACTIONS (object);

  switch (prop_id)
    {
    case PROP_EDITING:
      g_value_set_boolean (value, tandem_message_actions_get_editing (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_message_actions_class_init (TandemMessageActionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_message_actions_dispose;
  object_class->get_property = tandem_message_actions_get_property;

  properties[PROP_EDITING] =
    g_param_spec_boolean ("editing", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-message-actions.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, bar);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, buttons);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, switcher);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, branch_label);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, previous_button);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, next_button);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, copy_button);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, regenerate_button);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, edit_button);
  gtk_widget_class_bind_template_child (widget_class, TandemMessageActions, time_label);

  gtk_widget_class_install_action (widget_class, "editor.send", NULL, editor_send_action);
  gtk_widget_class_install_action (widget_class, "editor.cancel", NULL, editor_cancel_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "messageactions");
}

static void
tandem_message_actions_init (TandemMessageActions *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Built hidden so that setting their tooltips cost no round trip to
   * the display (see update_time()) */
  gtk_widget_set_visible (self->previous_button, TRUE);
  gtk_widget_set_visible (self->next_button, TRUE);
  gtk_widget_set_visible (self->copy_button, TRUE);
  gtk_widget_set_visible (self->regenerate_button, TRUE);
  gtk_widget_set_visible (self->edit_button, TRUE);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
}

/**
 * tandem_message_actions_new:
 * @block: the first block of a message
 *
 * Returns: (transfer full): the message's action line
 */
GtkWidget *
tandem_message_actions_new (TandemBlock *block)
{
  TandemMessageActions *self;

  g_return_val_if_fail (TANDEM_IS_BLOCK (block), NULL);

  self = g_object_new (TANDEM_TYPE_MESSAGE_ACTIONS, NULL);
  tandem_message_actions_set_block (self, block);

  return GTK_WIDGET (self);
}

/**
 * tandem_message_actions_set_block:
 * @self: a message's actions
 * @block: (nullable): the first block of another message, or %NULL for
 *   a line let go of
 *
 * Makes the line say and do what it does for @block's message, for a
 * row of the transcript that draws another message in the same widgets:
 * building the line from its template is most of what a new row costs.
 * An edit open on the old message is closed. A line given no block is
 * not shown again: it holds nothing of the conversation while it waits
 * to be freed.
 */
void
tandem_message_actions_set_block (TandemMessageActions *self,
                                  TandemBlock          *block)
{
  AguiRole role;

  g_return_if_fail (TANDEM_IS_MESSAGE_ACTIONS (self));
  g_return_if_fail (block == NULL || TANDEM_IS_BLOCK (block));

  set_editing (self, FALSE);
  g_set_object (&self->block, block);
  if (block == NULL)
    return;

  role = agui_speaker_turn_get_role (tandem_block_get_message (block));
  gtk_widget_set_visible (self->regenerate_button, role == AGUI_ROLE_ASSISTANT);
  gtk_widget_set_visible (self->edit_button, role == AGUI_ROLE_USER);
  if (!self->compact)
    gtk_widget_set_halign (self->bar, role == AGUI_ROLE_USER ? GTK_ALIGN_END : GTK_ALIGN_START);
  update_branches (self);
  update_time (self);
}

gboolean
tandem_message_actions_get_editing (TandemMessageActions *self)
{
  g_return_val_if_fail (TANDEM_IS_MESSAGE_ACTIONS (self), FALSE);

  return self->editor != NULL && gtk_widget_get_visible (self->editor);
}

/**
 * tandem_message_actions_begin_edit:
 * @self: the actions of one of the person's messages
 *
 * Opens the editor on the message's text, for the person to change and
 * send again as a new branch.
 */
void
tandem_message_actions_begin_edit (TandemMessageActions *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TANDEM_IS_MESSAGE_ACTIONS (self));

  text = agui_speaker_turn_dup_text (tandem_block_get_message (self->block));
  ensure_editor (self);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor_view), text ? text : "", -1);
  set_editing (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor_view));
}

/**
 * tandem_message_actions_update_time:
 * @self: a message's actions
 *
 * Reads the message's time again, as the row shows it on hover: a
 * conversation read back from the store learns its times as it is read,
 * and "today" becomes a date overnight.
 */
void
tandem_message_actions_update_time (TandemMessageActions *self)
{
  g_return_if_fail (TANDEM_IS_MESSAGE_ACTIONS (self));

  update_time (self);
}

/**
 * tandem_message_actions_new_column:
 * @block: a later block of a message
 *
 * The message's buttons in a column, narrow enough for the margin
 * beside a block's text, so that they cover none of it: without the
 * version switcher, and with the time as its tooltip.
 *
 * Returns: (transfer full): the message's actions
 */
GtkWidget *
tandem_message_actions_new_column (TandemBlock *block)
{
  TandemMessageActions *self;

  g_return_val_if_fail (TANDEM_IS_BLOCK (block), NULL);

  self = TANDEM_MESSAGE_ACTIONS (tandem_message_actions_new (block));
  self->compact = TRUE;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->bar), GTK_ORIENTATION_VERTICAL);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->buttons), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_halign (self->bar, GTK_ALIGN_FILL);
  update_branches (self);
  update_time (self);

  return GTK_WIDGET (self);
}
