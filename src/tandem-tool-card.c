/* tandem-tool-card.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-conversation-search-exclude.h"
#include "tandem-display-text.h"
#include "tandem-pretty-json.h"
#include "tandem-tool-card.h"

/* One tool call: its name, where it stands, what the person answered
 * about it (with Answer… while the question is open), its arguments as
 * they stream (pretty JSON once they parse; the person's edit, marked,
 * with the agent's original beneath) and its result or error. It reads
 * everything from its one part and follows its notifications, so it can
 * stand as a row of its own. Every text the
 * agent sent is set with gtk_label_set_text(), never as markup. */

struct _TandemToolCard
{
  GtkWidget         parent_instance;
  AguiToolCallPart *part;

  /* Template widgets; box is bound only so that
   * gtk_widget_dispose_template() unparents it. */
  GtkWidget        *box;
  GtkWidget        *expander;
  GtkWidget        *status_icon;
  GtkWidget        *spinner;
  GtkWidget        *name_label;
  GtkWidget        *status_label;
  GtkWidget        *answer_box;
  GtkWidget        *answer_label;
  GtkWidget        *answer_button;
  GtkWidget        *arguments_title;
  GtkWidget        *arguments_label;
  GtkWidget        *original_expander;
  GtkWidget        *original_label;
  GtkWidget        *result_title;
  GtkWidget        *result_label;

  /* What the arguments shown were made from: a call's end notifies
   * complete and parsed-arguments apart, and printing 50 KB of them
   * twice in one frame is a stall */
  gconstpointer     shown_parsed;
  const char       *shown_edited;
  gsize             shown_length;
  gboolean          shown_complete;
};

G_DEFINE_FINAL_TYPE (TandemToolCard, tandem_tool_card, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_PART, N_PROPS };
static GParamSpec *properties[N_PROPS];

static char *
pretty_text (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (text == NULL)
    return g_strdup ("");

  if (text[0] != '\0' && json_parser_load_from_data (parser, text, -1, NULL))
    return tandem_pretty_json (json_parser_get_root (parser));

  return g_strdup (text);
}

typedef struct
{
  const char *label;
  const char *icon;
  const char *css;
  gboolean    spinning;
} StatusLook;

/* Colours are libadwaita's text colours (success, warning, error, accent),
 * which keep their contrast in the light and the dark style; a coloured
 * label is never dimmed on top, which would lose it. States without a
 * colour of their own stay dim. */
static const StatusLook status_looks[] = {
  [AGUI_TOOL_CALL_STREAMING] = { N_("Streaming"), NULL, "dim-label", TRUE },
  [AGUI_TOOL_CALL_AWAITING_RESULT] = { N_("Awaiting result"), NULL, "dim-label", TRUE },
  /* Not dialog-question: Adwaita draws it as "�" in a diamond */
  [AGUI_TOOL_CALL_AWAITING_APPROVAL] = { N_("Awaiting approval"), "mail-unread-symbolic", "warning", FALSE },
  [AGUI_TOOL_CALL_COMPLETE] = { N_("Complete"), "emblem-ok-symbolic", "success", FALSE },
  [AGUI_TOOL_CALL_FAILED] = { N_("Failed"), "dialog-error-symbolic", "error", FALSE },
  [AGUI_TOOL_CALL_APPROVED] = { N_("Approved"), NULL, "accent", TRUE },
  [AGUI_TOOL_CALL_APPROVED_EDITED] = { N_("Approved with changes"), NULL, "accent", TRUE },
  [AGUI_TOOL_CALL_DENIED] = { N_("Denied"), "action-unavailable-symbolic", "error", FALSE },
  [AGUI_TOOL_CALL_CANCELLED] = { N_("Cancelled"), "process-stop-symbolic", "dim-label", FALSE },
  [AGUI_TOOL_CALL_DECLINED] = { N_("Declined"), "action-unavailable-symbolic", "error", FALSE },
  [AGUI_TOOL_CALL_EXPIRED] = { N_("Expired"), "alarm-symbolic", "dim-label", FALSE },
  [AGUI_TOOL_CALL_NO_RESULT] = { N_("No result"), "dialog-warning-symbolic", "warning", FALSE },
};

static const char * const status_classes[] = { "dim-label", "accent", "success", "warning", "error" };

/* The header is one button to a screen reader: it says what the header
 * shows, the tool and how its call stands */
static void
tandem_tool_card_update_header_label (TandemToolCard *self)
{
  g_autofree char *label = NULL;

  /* Translators: a tool card's header as a screen reader reads it: the
   * tool's name, then how its call stands ("archive_notes, Denied") */
  label = g_strdup_printf (C_("tool card", "%s, %s"),
                           gtk_label_get_text (GTK_LABEL (self->name_label)),
                           gtk_label_get_text (GTK_LABEL (self->status_label)));
  tandem_accessible_set_label (self->expander, label);
}

/* The most of a tool's name that the header keeps before its status's
 * words: a name that long is never cut for them */
#define NAME_KEPT_CHARS 16

static void
tandem_tool_card_set_name (TandemToolCard *self,
                           const char     *name)
{
  glong length = name != NULL ? g_utf8_strlen (name, -1) : 0;

  gtk_label_set_text (GTK_LABEL (self->name_label), name != NULL ? name : "");
  /* The box shares what is short between the name and the status's
   * words, which give way whole (see the .ui): the name asks for its
   * width as its least, up to a point. One more character than it has,
   * as a bold name is wider than the average character. */
  gtk_label_set_width_chars (GTK_LABEL (self->name_label), (int) MIN (length + 1, NAME_KEPT_CHARS));
}

static void
tandem_tool_card_update_status (TandemToolCard *self)
{
  AguiToolCallStatus status = agui_tool_call_part_get_status (self->part);
  const StatusLook *look;

  /* The library keeps an answered question pending until the run that
   * answers it ends; meanwhile the card says what the person answered,
   * not "Awaiting approval" beside "You approved" and a dead Answer… */
  if (status == AGUI_TOOL_CALL_AWAITING_APPROVAL)
    {
      switch (agui_tool_call_part_get_answer (self->part))
        {
        case AGUI_ANSWER_APPROVED:
          status = AGUI_TOOL_CALL_APPROVED;
          break;
        case AGUI_ANSWER_APPROVED_EDITED:
          status = AGUI_TOOL_CALL_APPROVED_EDITED;
          break;
        case AGUI_ANSWER_DENIED:
          status = AGUI_TOOL_CALL_DENIED;
          break;
        case AGUI_ANSWER_CANCELLED:
          status = AGUI_TOOL_CALL_CANCELLED;
          break;
        case AGUI_ANSWER_EXPIRED:
          status = AGUI_TOOL_CALL_EXPIRED;
          break;
        case AGUI_ANSWER_DECLINED:
          status = AGUI_TOOL_CALL_DECLINED;
          break;
        case AGUI_ANSWER_ANSWERED:
          status = AGUI_TOOL_CALL_AWAITING_RESULT;
          break;
        case AGUI_ANSWER_NONE:
        default:
          break;
        }
    }

  if ((guint) status >= G_N_ELEMENTS (status_looks) || status_looks[status].label == NULL)
    status = AGUI_TOOL_CALL_FAILED;
  look = &status_looks[status];

  gtk_label_set_text (GTK_LABEL (self->status_label), _(look->label));
  gtk_widget_set_visible (self->spinner, look->spinning);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), look->spinning);
  gtk_widget_set_visible (self->status_icon, look->icon != NULL);
  if (look->icon != NULL)
    gtk_image_set_from_icon_name (GTK_IMAGE (self->status_icon), look->icon);
  /* The words may have given the tool's name their room */
  gtk_widget_set_tooltip_text (self->status_icon, _(look->label));

  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    {
      gtk_widget_remove_css_class (self->status_label, status_classes[i]);
      gtk_widget_remove_css_class (self->status_icon, status_classes[i]);
    }
  gtk_widget_add_css_class (self->status_label, look->css);
  gtk_widget_add_css_class (self->status_icon, look->css);

  tandem_tool_card_update_header_label (self);

  gtk_widget_set_visible (self->answer_button, status == AGUI_TOOL_CALL_AWAITING_APPROVAL);
  gtk_widget_set_visible (self->answer_box,
                          status == AGUI_TOOL_CALL_AWAITING_APPROVAL ||
                          agui_tool_call_part_get_answer (self->part) != AGUI_ANSWER_NONE);
}

/**
 * tandem_tool_card_dup_answer_text:
 * @part: a tool call
 *
 * Returns: (transfer full) (nullable): one line saying what the person
 *   answered about @part, or %NULL when nobody has
 */
char *
tandem_tool_card_dup_answer_text (AguiToolCallPart *part)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (part), NULL);

  switch (agui_tool_call_part_get_answer (part))
    {
    case AGUI_ANSWER_APPROVED:
      return g_strdup (_("You approved"));
    case AGUI_ANSWER_APPROVED_EDITED:
      return g_strdup (_("You approved with changes"));
    case AGUI_ANSWER_DENIED:
      return g_strdup (_("You denied"));
    case AGUI_ANSWER_CANCELLED:
      return g_strdup (_("You dismissed the question"));
    case AGUI_ANSWER_EXPIRED:
      return g_strdup (_("The question expired unanswered"));
    case AGUI_ANSWER_DECLINED:
      return g_strdup (_("You declined"));
    case AGUI_ANSWER_ANSWERED:
      {
        const char *text = agui_tool_call_part_get_answer_text (part);
        g_autoptr(JsonNode) node = text != NULL ? json_from_string (text, NULL) : NULL;
        g_autofree char *value = NULL;

        if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
          value = g_strdup (json_node_get_string (node));
        else
          value = g_strdup (text);

        /* Translators: %s is what the person typed or chose */
        return g_strdup_printf (_("You answered: %s"), value != NULL ? value : "");
      }
    case AGUI_ANSWER_NONE:
    default:
      return NULL;
    }
}


/* The arguments as the card shows them: pretty once they parse. When
 * the person edited them, the edit is what ran and @original receives
 * the agent's own, one click away; otherwise it receives NULL. */
static char *
dup_arguments_text (AguiToolCallPart  *part,
                    char             **original)
{
  JsonNode *parsed = agui_tool_call_part_get_parsed_arguments (part);
  const char *edited = agui_tool_call_part_get_edited_arguments (part);
  char *text;

  if (parsed != NULL)
    text = tandem_pretty_json (parsed);
  else
    text = g_strdup (agui_tool_call_part_get_arguments (part) ? agui_tool_call_part_get_arguments (part) : "");

  if (edited == NULL)
    {
      *original = NULL;
      return text;
    }

  *original = text;
  return pretty_text (edited);
}

/* The result or the error as shown, or NULL before either */
static char *
dup_result_text (AguiToolCallPart *part)
{
  const char *error = agui_tool_call_part_get_error (part);
  const char *result = agui_tool_call_part_get_result (part);

  if (error != NULL)
    return g_strdup (error);
  if (result != NULL)
    return pretty_text (result);

  return NULL;
}

static char *
dup_answer_line (AguiToolCallPart *part)
{
  char *text = tandem_tool_card_dup_answer_text (part);

  if (text == NULL && agui_tool_call_part_get_status (part) == AGUI_TOOL_CALL_AWAITING_APPROVAL)
    return g_strdup (_("The agent is waiting for your answer"));
  /* Expired before anyone dismissed it */
  if (text == NULL && agui_tool_call_part_get_status (part) == AGUI_TOOL_CALL_EXPIRED)
    return g_strdup (_("The question expired unanswered"));

  return text;
}

static void
tandem_tool_card_update_answer (TandemToolCard *self)
{
  g_autofree char *text = dup_answer_line (self->part);

  gtk_label_set_text (GTK_LABEL (self->answer_label), text != NULL ? text : "");
  gtk_widget_set_visible (self->answer_box, text != NULL);
}

static void
tandem_tool_card_update_arguments (TandemToolCard *self)
{
  g_autofree char *original = NULL;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *original_shown = NULL;
  JsonNode *parsed = agui_tool_call_part_get_parsed_arguments (self->part);
  const char *edited = agui_tool_call_part_get_edited_arguments (self->part);
  const char *arguments = agui_tool_call_part_get_arguments (self->part);
  gsize length = arguments != NULL ? strlen (arguments) : 0;
  gboolean complete = agui_part_get_complete (AGUI_PART (self->part));

  if (self->shown_parsed == parsed && edited == NULL && self->shown_edited == NULL &&
      self->shown_length == length && self->shown_complete == complete &&
      (parsed != NULL || complete))
    return;
  self->shown_parsed = parsed;
  self->shown_edited = edited;
  self->shown_length = length;
  self->shown_complete = complete;

  /* While they stream, each delta shows their tail, never a copy of
   * them all */
  if (!agui_part_get_complete (AGUI_PART (self->part)) &&
      agui_tool_call_part_get_parsed_arguments (self->part) == NULL &&
      agui_tool_call_part_get_edited_arguments (self->part) == NULL)
    shown = tandem_display_text (agui_tool_call_part_get_arguments (self->part), TANDEM_DISPLAY_TOOL_BYTES, TRUE);
  else
    {
      text = dup_arguments_text (self->part, &original);
      shown = tandem_display_text (text, TANDEM_DISPLAY_TOOL_BYTES, FALSE);
      original_shown = original != NULL ? tandem_display_text (original, TANDEM_DISPLAY_TOOL_BYTES, FALSE) : NULL;
    }

  gtk_label_set_text (GTK_LABEL (self->arguments_title),
                      original != NULL ? _("Arguments (edited by you)") : _("Arguments"));
  gtk_label_set_text (GTK_LABEL (self->arguments_label), shown);
  gtk_label_set_text (GTK_LABEL (self->original_label), original_shown != NULL ? original_shown : "");
  gtk_widget_set_visible (self->original_expander, original != NULL);
}

static void
tandem_tool_card_update_result (TandemToolCard *self)
{
  gboolean failed = agui_tool_call_part_get_error (self->part) != NULL;
  g_autofree char *text = dup_result_text (self->part);
  g_autofree char *shown = text != NULL ? tandem_display_text (text, TANDEM_DISPLAY_TOOL_BYTES, FALSE) : NULL;

  gtk_label_set_text (GTK_LABEL (self->result_title), failed ? _("Error") : _("Result"));
  gtk_label_set_text (GTK_LABEL (self->result_label), shown != NULL ? shown : "");
  if (failed)
    gtk_widget_add_css_class (self->result_label, "error");
  else
    gtk_widget_remove_css_class (self->result_label, "error");

  gtk_widget_set_visible (self->result_title, text != NULL);
  gtk_widget_set_visible (self->result_label, text != NULL);
}

static void
on_part_notify_cb (TandemToolCard   *self,
                   GParamSpec       *pspec,
                   AguiToolCallPart *part)
{
  const char *name = g_param_spec_get_name (pspec);

  g_assert (TANDEM_IS_TOOL_CARD (self));

  if (g_str_equal (name, "status"))
    {
      tandem_tool_card_update_status (self);
      tandem_tool_card_update_answer (self);
    }
  else if (g_str_equal (name, "arguments") || g_str_equal (name, "parsed-arguments") ||
           g_str_equal (name, "edited-arguments") || g_str_equal (name, "complete"))
    tandem_tool_card_update_arguments (self);
  else if (g_str_equal (name, "answer") || g_str_equal (name, "answer-text"))
    {
      /* An answer can come before the status moves (see update_status) */
      tandem_tool_card_update_status (self);
      tandem_tool_card_update_answer (self);
    }
  else if (g_str_equal (name, "result") || g_str_equal (name, "error"))
    tandem_tool_card_update_result (self);
  else if (g_str_equal (name, "tool-name"))
    {
      tandem_tool_card_set_name (self, agui_tool_call_part_get_tool_name (part));
      tandem_tool_card_update_header_label (self);
    }
}

static void
tandem_tool_card_dispose (GObject *object)
{
  TandemToolCard *self = TANDEM_TOOL_CARD (object);

  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  g_clear_object (&self->part);

  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_TOOL_CARD);

  G_OBJECT_CLASS (tandem_tool_card_parent_class)->dispose (object);
}

static void
tandem_tool_card_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TandemToolCard *self = TANDEM_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_PART:
      g_value_set_object (value, self->part);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_tool_card_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TandemToolCard *self = TANDEM_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_PART:
      tandem_tool_card_set_part (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_tool_card_class_init (TandemToolCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_tool_card_dispose;
  object_class->get_property = tandem_tool_card_get_property;
  object_class->set_property = tandem_tool_card_set_property;

  properties[PROP_PART] =
    g_param_spec_object ("part", NULL, NULL, AGUI_TYPE_TOOL_CALL_PART,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "toolcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-tool-card.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, box);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, expander);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, status_icon);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, spinner);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, name_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, status_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, answer_box);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, answer_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, answer_button);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, arguments_title);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, arguments_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, original_expander);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, original_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, result_title);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, result_label);
}

static void
tandem_tool_card_init (TandemToolCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The card's own words are not the call's: Find in Conversation
   * counts what tandem_tool_card_dup_text() gives */
  tandem_conversation_search_exclude (self->status_label);
  tandem_conversation_search_exclude (self->answer_button);
  tandem_conversation_search_exclude (self->arguments_title);
  tandem_conversation_search_exclude (gtk_expander_get_label_widget (GTK_EXPANDER (self->original_expander)));
  tandem_conversation_search_exclude (self->result_title);
}

static void
append_line (GString    *text,
             const char *line)
{
  if (line == NULL || line[0] == '\0')
    return;
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append (text, line);
}

/**
 * tandem_tool_card_dup_text:
 * @part: a tool call
 *
 * What a card shows of @part, in the order it shows it: the tool's name,
 * the answer given, the arguments (the person's edit, then the agent's
 * own), the result or error. Its titles and state are left out.
 *
 * Returns: (transfer full): the text, lines joined by newlines
 */
char *
tandem_tool_card_dup_text (AguiToolCallPart *part)
{
  GString *text = g_string_new (NULL);
  g_autofree char *answer = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *original = NULL;
  g_autofree char *result = NULL;

  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (part), NULL);

  answer = dup_answer_line (part);
  arguments = dup_arguments_text (part, &original);
  result = dup_result_text (part);

  append_line (text, agui_tool_call_part_get_tool_name (part));
  append_line (text, answer);
  append_line (text, arguments);
  append_line (text, original);
  append_line (text, result);

  return g_string_free (text, FALSE);
}

GtkWidget *
tandem_tool_card_new (AguiToolCallPart *part)
{
  g_return_val_if_fail (!part || AGUI_IS_TOOL_CALL_PART (part), NULL);

  return g_object_new (TANDEM_TYPE_TOOL_CARD, "part", part, NULL);
}

AguiToolCallPart *
tandem_tool_card_get_part (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return self->part;
}

void
tandem_tool_card_set_part (TandemToolCard   *self,
                           AguiToolCallPart *part)
{
  g_return_if_fail (TANDEM_IS_TOOL_CARD (self));
  g_return_if_fail (!part || AGUI_IS_TOOL_CALL_PART (part));

  if (self->part == part)
    return;

  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  g_set_object (&self->part, part);
  self->shown_parsed = NULL;
  self->shown_edited = NULL;
  self->shown_length = 0;
  self->shown_complete = FALSE;

  if (part != NULL)
    {
      g_signal_connect_object (part, "notify", G_CALLBACK (on_part_notify_cb), self, G_CONNECT_SWAPPED);
      tandem_tool_card_set_name (self, agui_tool_call_part_get_tool_name (part));
      tandem_tool_card_update_status (self);
      tandem_tool_card_update_answer (self);
      tandem_tool_card_update_arguments (self);
      tandem_tool_card_update_result (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PART]);
}

const char *
tandem_tool_card_get_status_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->status_label));
}

const char *
tandem_tool_card_get_arguments_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->arguments_label));
}

const char *
tandem_tool_card_get_answer_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_widget_get_visible (self->answer_box) ? gtk_label_get_text (GTK_LABEL (self->answer_label)) : NULL;
}

const char *
tandem_tool_card_get_original_arguments_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_widget_get_visible (self->original_expander) ? gtk_label_get_text (GTK_LABEL (self->original_label)) : NULL;
}

const char *
tandem_tool_card_get_result_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->result_label));
}
