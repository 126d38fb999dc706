/* tandem-tool-card.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-tool-card.h"

/* One tool call: its name, where it stands, its arguments as they stream
 * (pretty JSON once they parse) and its result or error. Every text the
 * agent sent is set with gtk_label_set_text(), never as markup. */

struct _TandemToolCard
{
  GtkWidget         parent_instance;
  AguiToolCallPart *part;

  /* Template widgets; box is bound only so that
   * gtk_widget_dispose_template() unparents it. */
  GtkWidget        *box;
  GtkWidget        *status_icon;
  GtkWidget        *spinner;
  GtkWidget        *name_label;
  GtkWidget        *status_label;
  GtkWidget        *arguments_label;
  GtkWidget        *result_title;
  GtkWidget        *result_label;
};

G_DEFINE_FINAL_TYPE (TandemToolCard, tandem_tool_card, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_PART, N_PROPS };
static GParamSpec *properties[N_PROPS];

/**
 * tandem_pretty_json:
 * @node: (nullable): a JSON value
 *
 * Returns: (transfer full): @node as indented JSON, or an empty string
 */
char *
tandem_pretty_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = NULL;

  if (node == NULL)
    return g_strdup ("");

  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

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

static void
tandem_tool_card_update_status (TandemToolCard *self)
{
  AguiToolCallStatus status = agui_tool_call_part_get_status (self->part);
  const char *text = NULL;
  const char *icon = NULL;
  const char *css = NULL;
  gboolean spinning = FALSE;

  switch (status)
    {
    case AGUI_TOOL_CALL_STREAMING:
      text = _("Streaming");
      spinning = TRUE;
      break;
    case AGUI_TOOL_CALL_AWAITING_RESULT:
      text = _("Awaiting result");
      spinning = TRUE;
      break;
    case AGUI_TOOL_CALL_AWAITING_APPROVAL:
      text = _("Awaiting approval");
      icon = "dialog-question-symbolic";
      css = "warning";
      break;
    case AGUI_TOOL_CALL_COMPLETE:
      text = _("Complete");
      icon = "emblem-ok-symbolic";
      css = "success";
      break;
    case AGUI_TOOL_CALL_FAILED:
    default:
      text = _("Failed");
      icon = "dialog-error-symbolic";
      css = "error";
      break;
    }

  gtk_label_set_text (GTK_LABEL (self->status_label), text);
  gtk_widget_set_visible (self->spinner, spinning);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), spinning);
  gtk_widget_set_visible (self->status_icon, icon != NULL);
  if (icon != NULL)
    gtk_image_set_from_icon_name (GTK_IMAGE (self->status_icon), icon);

  gtk_widget_remove_css_class (self->status_label, "warning");
  gtk_widget_remove_css_class (self->status_label, "success");
  gtk_widget_remove_css_class (self->status_label, "error");
  if (css != NULL)
    gtk_widget_add_css_class (self->status_label, css);
}

static void
tandem_tool_card_update_arguments (TandemToolCard *self)
{
  JsonNode *parsed = agui_tool_call_part_get_parsed_arguments (self->part);
  g_autofree char *text = NULL;

  if (parsed != NULL)
    text = tandem_pretty_json (parsed);
  else
    text = g_strdup (agui_tool_call_part_get_arguments (self->part));

  gtk_label_set_text (GTK_LABEL (self->arguments_label), text != NULL ? text : "");
}

static void
tandem_tool_card_update_result (TandemToolCard *self)
{
  const char *error = agui_tool_call_part_get_error (self->part);
  const char *result = agui_tool_call_part_get_result (self->part);

  if (error != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->result_title), _("Error"));
      gtk_label_set_text (GTK_LABEL (self->result_label), error);
      gtk_widget_add_css_class (self->result_label, "error");
    }
  else if (result != NULL)
    {
      g_autofree char *pretty = pretty_text (result);

      gtk_label_set_text (GTK_LABEL (self->result_title), _("Result"));
      gtk_label_set_text (GTK_LABEL (self->result_label), pretty);
      gtk_widget_remove_css_class (self->result_label, "error");
    }

  gtk_widget_set_visible (self->result_title, error != NULL || result != NULL);
  gtk_widget_set_visible (self->result_label, error != NULL || result != NULL);
}

static void
on_part_notify_cb (TandemToolCard   *self,
                   GParamSpec       *pspec,
                   AguiToolCallPart *part)
{
  const char *name = g_param_spec_get_name (pspec);

  g_assert (TANDEM_IS_TOOL_CARD (self));

  if (g_str_equal (name, "status"))
    tandem_tool_card_update_status (self);
  else if (g_str_equal (name, "arguments") || g_str_equal (name, "parsed-arguments"))
    tandem_tool_card_update_arguments (self);
  else if (g_str_equal (name, "result") || g_str_equal (name, "error"))
    tandem_tool_card_update_result (self);
  else if (g_str_equal (name, "tool-name"))
    gtk_label_set_text (GTK_LABEL (self->name_label), agui_tool_call_part_get_tool_name (part) ? agui_tool_call_part_get_tool_name (part) : "");
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
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, status_icon);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, spinner);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, name_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, status_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, arguments_label);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, result_title);
  gtk_widget_class_bind_template_child (widget_class, TandemToolCard, result_label);
}

static void
tandem_tool_card_init (TandemToolCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
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

  if (part != NULL)
    {
      g_signal_connect_object (part, "notify", G_CALLBACK (on_part_notify_cb), self, G_CONNECT_SWAPPED);
      gtk_label_set_text (GTK_LABEL (self->name_label), agui_tool_call_part_get_tool_name (part) ? agui_tool_call_part_get_tool_name (part) : "");
      tandem_tool_card_update_status (self);
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
tandem_tool_card_get_result_text (TandemToolCard *self)
{
  g_return_val_if_fail (TANDEM_IS_TOOL_CARD (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->result_label));
}
