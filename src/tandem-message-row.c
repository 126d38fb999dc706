/* tandem-message-row.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-a2ui-surface-view.h"
#include "tandem-conversation-search-exclude.h"
#include "tandem-display-text.h"
#include "tandem-markdown-view.h"
#include "tandem-media-view.h"
#include "tandem-message-row.h"
#include "tandem-attempt-frame.h"
#include "tandem-pretty-json.h"
#include "tandem-tool-card.h"

/* One message of the transcript, its parts drawn in order. The row
 * follows the parts model: an appended part adds one widget, a streamed
 * delta updates the one widget it belongs to, nothing is rebuilt. Agent
 * text only ever reaches gtk_label_set_text() or the Markdown view, never
 * Pango markup. */

struct _TandemMessageRow
{
  GtkWidget    parent_instance;
  AguiSpeakerTurn *message;
  GListModel  *parts;
  GtkWidget   *box;
  GPtrArray   *part_widgets;
};

G_DEFINE_FINAL_TYPE (TandemMessageRow, tandem_message_row, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_MESSAGE, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
set_label_text (GtkLabel   *label,
                const char *text)
{
  /* A pasted log or a minified file can be one line of 100 KB */
  g_autofree char *shown = tandem_display_text (text, TANDEM_DISPLAY_MESSAGE_BYTES, FALSE);

  gtk_label_set_text (label, shown);
}

static GtkWidget *
plain_label (const char *text)
{
  GtkWidget *label = gtk_label_new (NULL);

  set_label_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), TANDEM_MARKDOWN_LABEL_MIN_CHARS);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* The keyboard stops on the message's row, not on its text. Not
   * focusable is not enough: GTK 4.8's label still answers Tab as if it
   * took the focus, and the focus goes no further. */
  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_set_can_focus (label, FALSE);

  return label;
}

static void
on_text_part_notify_text_cb (AguiTextPart *part,
                             GParamSpec   *pspec,
                             GtkLabel     *label)
{
  set_label_text (label, agui_text_part_get_text (part));
}

static void
on_markdown_part_notify_text_cb (AguiTextPart       *part,
                                 GParamSpec         *pspec,
                                 TandemMarkdownView *view)
{
  tandem_markdown_view_set_text (view, agui_text_part_get_text (part));
}

static void
on_reasoning_notify_text_cb (AguiReasoningPart *part,
                             GParamSpec        *pspec,
                             GtkLabel          *label)
{
  const char *text = agui_reasoning_part_get_text (part);

  set_label_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && text[0] != '\0');
}

static void
on_reasoning_notify_encrypted_cb (AguiReasoningPart *part,
                                  GParamSpec        *pspec,
                                  GtkWidget         *note)
{
  gtk_widget_set_visible (note, agui_reasoning_part_get_encrypted (part));
}

static void
on_activity_notify_content_cb (AguiActivityPart *part,
                               GParamSpec       *pspec,
                               GtkLabel         *label)
{
  g_autofree char *text = tandem_pretty_json (agui_activity_part_get_content (part));

  set_label_text (label, text);
}

static void
on_activity_notify_type_cb (AguiActivityPart *part,
                            GParamSpec       *pspec,
                            GtkLabel         *label)
{
  set_label_text (label, agui_activity_part_get_activity_type (part));
}

static GtkWidget *
create_text_widget (AguiRole      role,
                    AguiTextPart *part)
{
  GtkWidget *widget;

  if (role == AGUI_ROLE_ASSISTANT)
    {
      widget = tandem_markdown_view_new ();
      tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (widget), agui_text_part_get_text (part));
      g_signal_connect_object (part, "notify::text", G_CALLBACK (on_markdown_part_notify_text_cb), widget, 0);
      return widget;
    }

  widget = plain_label (agui_text_part_get_text (part));
  /* A short message's bubble is as wide as its words; a long one wraps
   * anyway and keeps the cheap minimum. */
  if (role == AGUI_ROLE_USER &&
      g_utf8_strlen (agui_text_part_get_text (part) ? agui_text_part_get_text (part) : "", 200) < 2 * TANDEM_MARKDOWN_LABEL_MIN_CHARS)
    gtk_label_set_width_chars (GTK_LABEL (widget), -1);
  if (role != AGUI_ROLE_USER)
    gtk_widget_add_css_class (widget, "dim-label");
  g_signal_connect_object (part, "notify::text", G_CALLBACK (on_text_part_notify_text_cb), widget, 0);

  return widget;
}

static GtkWidget *
create_reasoning_widget (AguiReasoningPart *part)
{
  GtkWidget *expander = gtk_expander_new (_("Reasoning"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = plain_label (NULL);
  GtkWidget *note = gtk_label_new (_("Encrypted reasoning: the agent keeps its content private."));

  gtk_widget_add_css_class (expander, "reasoning");
  tandem_conversation_search_exclude (gtk_expander_get_label_widget (GTK_EXPANDER (expander)));
  tandem_conversation_search_exclude (note);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (note, "dim-label");
  gtk_widget_add_css_class (note, "caption");
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_widget_set_margin_top (box, 6);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), note);
  gtk_expander_set_child (GTK_EXPANDER (expander), box);

  on_reasoning_notify_text_cb (part, NULL, GTK_LABEL (label));
  on_reasoning_notify_encrypted_cb (part, NULL, note);
  g_signal_connect_object (part, "notify::text", G_CALLBACK (on_reasoning_notify_text_cb), label, 0);
  g_signal_connect_object (part, "notify::encrypted", G_CALLBACK (on_reasoning_notify_encrypted_cb), note, 0);

  return expander;
}

static GtkWidget *
create_activity_widget (AguiActivityPart *part)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *content = plain_label (NULL);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "activity-card");
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (content, "monospace");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_box_append (GTK_BOX (header), tandem_accessible_icon_new ("emblem-system-symbolic"));
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), content);

  on_activity_notify_type_cb (part, NULL, GTK_LABEL (title));
  on_activity_notify_content_cb (part, NULL, GTK_LABEL (content));
  g_signal_connect_object (part, "notify::activity-type", G_CALLBACK (on_activity_notify_type_cb), title, 0);
  g_signal_connect_object (part, "notify::content", G_CALLBACK (on_activity_notify_content_cb), content, 0);

  return box;
}

/**
 * tandem_part_widget_new:
 * @role: the role of the message @part belongs to
 * @part: a part of a message
 * @session: (nullable): the conversation @part is in, which an A2UI
 *   surface sends its actions to
 *
 * Makes the widget that shows @part and follows its changes: a message
 * row holds one per part, and the transcript view's block rows one each.
 *
 * Returns: (transfer floating): a new widget
 */
GtkWidget *
tandem_part_widget_new (AguiRole          role,
                        AguiPart         *part,
                        AguiAgentSession *session)
{
  g_return_val_if_fail (AGUI_IS_PART (part), NULL);

  if (AGUI_IS_TEXT_PART (part))
    return create_text_widget (role, AGUI_TEXT_PART (part));
  if (AGUI_IS_REASONING_PART (part))
    return create_reasoning_widget (AGUI_REASONING_PART (part));
  if (AGUI_IS_TOOL_CALL_PART (part))
    return tandem_tool_card_new (AGUI_TOOL_CALL_PART (part));
  if (AGUI_IS_ACTIVITY_PART (part) && tandem_a2ui_is_surface (AGUI_ACTIVITY_PART (part)))
    {
      GtkWidget *surface = tandem_a2ui_surface_view_new (AGUI_ACTIVITY_PART (part), session);

      tandem_conversation_search_exclude (surface);
      return surface;
    }
  if (AGUI_IS_ACTIVITY_PART (part))
    return create_activity_widget (AGUI_ACTIVITY_PART (part));
  if (AGUI_IS_MEDIA_PART (part))
    return tandem_media_view_new (AGUI_MEDIA_PART (part));

  return plain_label (G_OBJECT_TYPE_NAME (part));
}

/**
 * tandem_part_dup_text:
 * @role: the role of the message @part belongs to
 * @part: a part of a message
 *
 * The text the widget of tandem_part_widget_new() shows of @part, in its
 * order, for Find in Conversation: a text's or a reasoning's words, a
 * tool call's name, answer, arguments and result, an activity's type and
 * content. A widget's own titles are not in it, nor an A2UI surface,
 * which is drawn from components, not text.
 *
 * Returns: (transfer full): the text, maybe empty
 */
char *
tandem_part_dup_text (AguiRole  role,
                      AguiPart *part)
{
  g_return_val_if_fail (AGUI_IS_PART (part), NULL);

  if (AGUI_IS_TEXT_PART (part))
    return g_strdup (agui_text_part_get_text (AGUI_TEXT_PART (part)) ? agui_text_part_get_text (AGUI_TEXT_PART (part)) : "");
  if (AGUI_IS_REASONING_PART (part))
    return g_strdup (agui_reasoning_part_get_text (AGUI_REASONING_PART (part)) ? agui_reasoning_part_get_text (AGUI_REASONING_PART (part)) : "");
  if (AGUI_IS_TOOL_CALL_PART (part))
    return tandem_tool_card_dup_text (AGUI_TOOL_CALL_PART (part));
  if (AGUI_IS_ACTIVITY_PART (part) && !tandem_a2ui_is_surface (AGUI_ACTIVITY_PART (part)))
    {
      g_autofree char *content = tandem_pretty_json (agui_activity_part_get_content (AGUI_ACTIVITY_PART (part)));
      const char *type = agui_activity_part_get_activity_type (AGUI_ACTIVITY_PART (part));

      return g_strconcat (type ? type : "", type && type[0] ? "\n" : "", content, NULL);
    }
  if (AGUI_IS_MEDIA_PART (part))
    return g_strdup (agui_media_part_get_filename (AGUI_MEDIA_PART (part)) ? agui_media_part_get_filename (AGUI_MEDIA_PART (part)) : "");

  return g_strdup ("");
}

static void
on_parts_items_changed_cb (TandemMessageRow *self,
                           guint             position,
                           guint             removed,
                           guint             added,
                           GListModel       *parts)
{
  GtkWidget *sibling;

  g_assert (TANDEM_IS_MESSAGE_ROW (self));
  g_assert (position + removed <= self->part_widgets->len);

  for (guint i = 0; i < removed; i++)
    {
      gtk_box_remove (GTK_BOX (self->box), g_ptr_array_index (self->part_widgets, position));
      g_ptr_array_remove_index (self->part_widgets, position);
    }

  sibling = position > 0 ? g_ptr_array_index (self->part_widgets, position - 1) : NULL;
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, position + i);
      GtkWidget *widget = tandem_attempt_frame_new (part, tandem_part_widget_new (agui_speaker_turn_get_role (self->message), part,
                                                                                  NULL));

      gtk_box_insert_child_after (GTK_BOX (self->box), widget, sibling);
      g_ptr_array_insert (self->part_widgets, position + i, widget);
      sibling = widget;
    }
}

static void
tandem_message_row_clear (TandemMessageRow *self)
{
  if (self->parts != NULL)
    g_signal_handlers_disconnect_by_data (self->parts, self);
  g_clear_object (&self->parts);
  g_clear_object (&self->message);

  for (guint i = 0; i < self->part_widgets->len; i++)
    gtk_box_remove (GTK_BOX (self->box), g_ptr_array_index (self->part_widgets, i));
  g_ptr_array_set_size (self->part_widgets, 0);

  gtk_widget_remove_css_class (self->box, "user-bubble");
  gtk_widget_remove_css_class (self->box, "agent-message");
  gtk_widget_remove_css_class (self->box, "other-message");
}

static void
tandem_message_row_dispose (GObject *object)
{
  TandemMessageRow *self = TANDEM_MESSAGE_ROW (object);

  if (self->part_widgets != NULL)
    tandem_message_row_clear (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->part_widgets, g_ptr_array_unref);

  G_OBJECT_CLASS (tandem_message_row_parent_class)->dispose (object);
}

static void
tandem_message_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TandemMessageRow *self = TANDEM_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      g_value_set_object (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_message_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TandemMessageRow *self = TANDEM_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      tandem_message_row_set_message (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_message_row_class_init (TandemMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_message_row_dispose;
  object_class->get_property = tandem_message_row_get_property;
  object_class->set_property = tandem_message_row_set_property;

  properties[PROP_MESSAGE] =
    g_param_spec_object ("message", NULL, NULL, AGUI_TYPE_SPEAKER_TURN,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "messagerow");
}

static void
tandem_message_row_init (TandemMessageRow *self)
{
  self->part_widgets = g_ptr_array_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

GtkWidget *
tandem_message_row_new (void)
{
  return g_object_new (TANDEM_TYPE_MESSAGE_ROW, NULL);
}

/**
 * tandem_message_row_get_message:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the message drawn
 */
AguiSpeakerTurn *
tandem_message_row_get_message (TandemMessageRow *self)
{
  g_return_val_if_fail (TANDEM_IS_MESSAGE_ROW (self), NULL);

  return self->message;
}

void
tandem_message_row_set_message (TandemMessageRow *self,
                                AguiSpeakerTurn  *message)
{
  AguiRole role;

  g_return_if_fail (TANDEM_IS_MESSAGE_ROW (self));
  g_return_if_fail (!message || AGUI_IS_SPEAKER_TURN (message));

  if (self->message == message)
    return;

  tandem_message_row_clear (self);

  if (message != NULL)
    {
      self->message = g_object_ref (message);
      self->parts = g_object_ref (agui_speaker_turn_get_parts (message));
      role = agui_speaker_turn_get_role (message);

      if (role == AGUI_ROLE_USER)
        {
          gtk_widget_set_halign (self->box, GTK_ALIGN_END);
          gtk_widget_add_css_class (self->box, "user-bubble");
        }
      else
        {
          gtk_widget_set_halign (self->box, GTK_ALIGN_FILL);
          gtk_widget_add_css_class (self->box, role == AGUI_ROLE_ASSISTANT || role == AGUI_ROLE_ACTIVITY
                                                 ? "agent-message" : "other-message");
        }

      g_signal_connect_object (self->parts, "items-changed",
                               G_CALLBACK (on_parts_items_changed_cb), self, G_CONNECT_SWAPPED);
      on_parts_items_changed_cb (self, 0, 0, g_list_model_get_n_items (self->parts), self->parts);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

guint
tandem_message_row_get_n_parts (TandemMessageRow *self)
{
  g_return_val_if_fail (TANDEM_IS_MESSAGE_ROW (self), 0);

  return self->part_widgets->len;
}
