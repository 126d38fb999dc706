/* tandem-a2ui-inputs.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tandem-a2ui-binding-private.h"
#include "tandem-accessible.h"

/* The components a person acts on: Button, TextField, CheckBox, Slider,
 * ChoicePicker and DateTimeInput. What they set goes to the surface's
 * data model through their binding; what the model says comes back by
 * the binding's refresh. */

static void
on_button_clicked_cb (GtkButton         *button,
                      TandemA2uiBinding *binding)
{
  _tandem_a2ui_builder_press (binding->builder, binding->component, binding->scope);
}

static GtkWidget *
build_button (TandemA2uiBuilder *self,
              AguiA2uiComponent *component,
              const char        *scope,
              guint              depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *button = gtk_button_new ();
  TandemA2uiBinding *binding;

  if (children->len > 0)
    {
      GtkWidget *child = _tandem_a2ui_builder_build (self, children->pdata[0], scopes->pdata[0], depth + 1);

      /* A label inside a button is not selectable text. */
      if (GTK_IS_LABEL (child))
        gtk_label_set_selectable (GTK_LABEL (child), FALSE);
      if (child != NULL)
        {
          gtk_button_set_child (GTK_BUTTON (button), child);
          tandem_accessible_label_by_content (button, child);
        }
    }

  if (g_strcmp0 (variant, "primary") == 0)
    gtk_widget_add_css_class (button, "suggested-action");
  else if (g_strcmp0 (variant, "borderless") == 0)
    gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);

  binding = _tandem_a2ui_builder_bind (self, button, component, scope, NULL);
  _tandem_a2ui_binding_connect (binding, button, "clicked", G_CALLBACK (on_button_clicked_cb));

  return button;
}

static GtkWidget *
labelled (GtkWidget *field,
          GtkWidget *label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), field);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);

  return box;
}

static void
refresh_field_label (TandemA2uiBinding *binding)
{
  g_autofree char *text = _tandem_a2ui_binding_dup_text (binding, "label");

  gtk_label_set_text (GTK_LABEL (binding->widget), text);
  gtk_widget_set_visible (binding->widget, text[0] != '\0');
}

static void
check_pattern (GtkWidget         *entry,
               AguiA2uiComponent *component,
               const char        *text)
{
  const char *pattern = agui_a2ui_component_get_string (component, "validationRegexp");
  gboolean valid = TRUE;

  /* The pattern is the agent's: a bad one validates nothing. */
  if (pattern != NULL)
    {
      g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, NULL);

      valid = regex == NULL || g_regex_match (regex, text, G_REGEX_MATCH_DEFAULT, NULL);
    }

  if (valid)
    gtk_widget_remove_css_class (entry, "error");
  else
    gtk_widget_add_css_class (entry, "error");
}

static void
on_entry_changed_cb (GtkEditable       *editable,
                     TandemA2uiBinding *binding)
{
  AguiA2uiComponent *component = binding->component;
  const char *text = gtk_editable_get_text (editable);
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  check_pattern (GTK_WIDGET (editable), component, text);

  if (g_strcmp0 (agui_a2ui_component_get_string (component, "variant"), "number") == 0)
    {
      char *end = NULL;
      double number = g_ascii_strtod (text, &end);

      if (text[0] == '\0' || end == NULL || *end != '\0')
        return;
      json_node_set_double (value, number);
    }
  else
    {
      json_node_set_string (value, text);
    }

  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_entry (TandemA2uiBinding *binding)
{
  g_autofree char *text = _tandem_a2ui_binding_dup_text (binding, "value");

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (binding->widget)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (binding->widget), text);
}

static void
on_text_buffer_changed_cb (GtkTextBuffer     *buffer,
                           TandemA2uiBinding *binding)
{
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  json_node_set_string (value, text);
  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_text_view (TandemA2uiBinding *binding)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (binding->widget));
  g_autofree char *text = _tandem_a2ui_binding_dup_text (binding, "value");
  g_autofree char *current = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  current = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (current, text) != 0)
    gtk_text_buffer_set_text (buffer, text, -1);
}

static GtkWidget *
build_text_field (TandemA2uiBuilder *self,
                  AguiA2uiComponent *component,
                  const char        *scope,
                  guint              depth)
{
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *label = gtk_label_new (NULL);
  TandemA2uiBinding *binding;
  GtkWidget *field;

  _tandem_a2ui_builder_bind (self, label, component, scope, refresh_field_label);

  if (g_strcmp0 (variant, "longText") == 0)
    {
      GtkWidget *view = gtk_text_view_new ();
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));

      gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
      gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 6);
      gtk_widget_set_size_request (view, -1, 80);
      gtk_widget_add_css_class (view, "card");
      binding = _tandem_a2ui_builder_bind (self, view, component, scope, refresh_text_view);
      _tandem_a2ui_binding_connect (binding, buffer, "changed", G_CALLBACK (on_text_buffer_changed_cb));
      field = view;
    }
  else
    {
      field = g_strcmp0 (variant, "obscured") == 0 ? gtk_password_entry_new () : gtk_entry_new ();
      if (GTK_IS_PASSWORD_ENTRY (field))
        gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (field), TRUE);
      else if (g_strcmp0 (variant, "number") == 0)
        gtk_entry_set_input_purpose (GTK_ENTRY (field), GTK_INPUT_PURPOSE_NUMBER);
      binding = _tandem_a2ui_builder_bind (self, field, component, scope, refresh_entry);
      _tandem_a2ui_binding_connect (binding, field, "changed", G_CALLBACK (on_entry_changed_cb));
    }

  return labelled (field, label);
}

static void
on_check_toggled_cb (GtkCheckButton    *check,
                     TandemA2uiBinding *binding)
{
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  json_node_set_boolean (value, gtk_check_button_get_active (check));
  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_check (TandemA2uiBinding *binding)
{
  g_autofree char *label = _tandem_a2ui_binding_dup_text (binding, "label");
  JsonNode *value = agui_a2ui_surface_resolve (_tandem_a2ui_binding_get_surface (binding),
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);
  gboolean active = value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
                    json_node_get_value_type (value) == G_TYPE_BOOLEAN && json_node_get_boolean (value);

  gtk_check_button_set_label (GTK_CHECK_BUTTON (binding->widget), label);
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (binding->widget)) != active)
    gtk_check_button_set_active (GTK_CHECK_BUTTON (binding->widget), active);
}

static GtkWidget *
build_check_box (TandemA2uiBuilder *self,
                 AguiA2uiComponent *component,
                 const char        *scope,
                 guint              depth)
{
  GtkWidget *check = gtk_check_button_new ();
  TandemA2uiBinding *binding;

  binding = _tandem_a2ui_builder_bind (self, check, component, scope, refresh_check);
  _tandem_a2ui_binding_connect (binding, check, "toggled", G_CALLBACK (on_check_toggled_cb));

  return check;
}

static void
on_slider_changed_cb (GtkRange          *range,
                      TandemA2uiBinding *binding)
{
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  json_node_set_double (value, gtk_range_get_value (range));
  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_slider (TandemA2uiBinding *binding)
{
  JsonNode *value = agui_a2ui_surface_resolve (_tandem_a2ui_binding_get_surface (binding),
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);

  if (value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
      (json_node_get_value_type (value) == G_TYPE_DOUBLE || json_node_get_value_type (value) == G_TYPE_INT64))
    gtk_range_set_value (GTK_RANGE (binding->widget), json_node_get_double (value));
}

static GtkWidget *
build_slider (TandemA2uiBuilder *self,
              AguiA2uiComponent *component,
              const char        *scope,
              guint              depth)
{
  double min = agui_a2ui_component_get_number (component, "min", 0);
  double max = agui_a2ui_component_get_number (component, "max", 100);
  GtkWidget *label = gtk_label_new (NULL);
  TandemA2uiBinding *binding;
  GtkWidget *scale;

  if (!(max > min))
    max = min + 1;
  /* Whole numbers for a whole-number range: "5", not "5.00". */
  if (min == (double) (gint64) min && max == (double) (gint64) max && max - min >= 2)
    {
      scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, 1);
      gtk_scale_set_digits (GTK_SCALE (scale), 0);
      gtk_range_set_round_digits (GTK_RANGE (scale), 0);
    }
  else
    {
      scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, (max - min) / 100);
    }
  gtk_scale_set_draw_value (GTK_SCALE (scale), TRUE);
  gtk_widget_set_hexpand (scale, TRUE);
  _tandem_a2ui_builder_bind (self, label, component, scope, refresh_field_label);
  binding = _tandem_a2ui_builder_bind (self, scale, component, scope, refresh_slider);
  _tandem_a2ui_binding_connect (binding, scale, "value-changed", G_CALLBACK (on_slider_changed_cb));

  return labelled (scale, label);
}

/* A choice: one GtkCheckButton per option (grouped as radio buttons when
 * only one may be chosen), or toggle buttons for the "chips" style. */

static void
on_choice_toggled_cb (GtkWidget         *button,
                      TandemA2uiBinding *binding)
{
  g_autoptr(JsonNode) value = NULL;
  JsonArray *selected = json_array_new ();
  guint i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (binding->widget); child != NULL;
       child = gtk_widget_get_next_sibling (child), i++)
    {
      gboolean active = GTK_IS_CHECK_BUTTON (child) ? gtk_check_button_get_active (GTK_CHECK_BUTTON (child))
                                                    : gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (child));

      if (active)
        json_array_add_string_element (selected, g_ptr_array_index (binding->choices, i));
    }

  value = json_node_init_array (json_node_alloc (), selected);
  json_array_unref (selected);
  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_choices (TandemA2uiBinding *binding)
{
  JsonNode *value = agui_a2ui_surface_resolve (_tandem_a2ui_binding_get_surface (binding),
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);
  g_autoptr(GHashTable) chosen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i;

  if (value != NULL && JSON_NODE_HOLDS_ARRAY (value))
    for (i = 0; i < json_array_get_length (json_node_get_array (value)); i++)
      {
        JsonNode *element = json_array_get_element (json_node_get_array (value), i);

        if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
          g_hash_table_add (chosen, (gpointer) json_node_get_string (element));
      }
  else if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    g_hash_table_add (chosen, (gpointer) json_node_get_string (value));

  i = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (binding->widget); child != NULL;
       child = gtk_widget_get_next_sibling (child), i++)
    {
      gboolean active = g_hash_table_contains (chosen, g_ptr_array_index (binding->choices, i));

      if (GTK_IS_CHECK_BUTTON (child))
        gtk_check_button_set_active (GTK_CHECK_BUTTON (child), active);
      else
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (child), active);
    }
}

static GtkWidget *
build_choice_picker (TandemA2uiBuilder *self,
                     AguiA2uiComponent *component,
                     const char        *scope,
                     guint              depth)
{
  JsonNode *options = agui_a2ui_component_get_property (component, "options");
  gboolean single = g_strcmp0 (agui_a2ui_component_get_string (component, "variant"), "mutuallyExclusive") == 0;
  gboolean chips = g_strcmp0 (agui_a2ui_component_get_string (component, "displayStyle"), "chips") == 0;
  GtkWidget *box = gtk_box_new (chips ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, chips ? 6 : 2);
  GtkWidget *label = gtk_label_new (NULL);
  AguiA2uiSurface *surface = self->surface;
  TandemA2uiBinding *binding = _tandem_a2ui_binding_new (box, component, scope, refresh_choices);
  GtkWidget *first = NULL;

  binding->choices = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; options != NULL && JSON_NODE_HOLDS_ARRAY (options) &&
                    i < json_array_get_length (json_node_get_array (options)); i++)
    {
      JsonNode *option = json_array_get_element (json_node_get_array (options), i);
      g_autofree char *text = NULL;
      g_autofree char *choice = NULL;
      GtkWidget *button;

      if (!JSON_NODE_HOLDS_OBJECT (option))
        continue;
      text = agui_a2ui_surface_resolve_string (surface, json_object_get_member (json_node_get_object (option), "label"), scope);
      choice = agui_a2ui_surface_resolve_string (surface, json_object_get_member (json_node_get_object (option), "value"), scope);
      if (choice == NULL)
        continue;

      if (chips)
        {
          button = gtk_toggle_button_new_with_label (text ? text : choice);
          gtk_widget_add_css_class (button, "pill");
          if (single && first != NULL)
            gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), GTK_TOGGLE_BUTTON (first));
        }
      else
        {
          button = gtk_check_button_new_with_label (text ? text : choice);
          if (single && first != NULL)
            gtk_check_button_set_group (GTK_CHECK_BUTTON (button), GTK_CHECK_BUTTON (first));
        }
      if (first == NULL)
        first = button;
      g_ptr_array_add (binding->choices, g_steal_pointer (&choice));
      gtk_box_append (GTK_BOX (box), button);
    }

  _tandem_a2ui_builder_bind (self, label, component, scope, refresh_field_label);
  _tandem_a2ui_builder_add_binding (self, binding);
  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    _tandem_a2ui_binding_connect (binding, child, "toggled", G_CALLBACK (on_choice_toggled_cb));

  return labelled (box, label);
}

/* A date and time as ISO 8601 text: a calendar for the date, spin buttons
 * for the time, both in a popover. */

static char *
format_date_time (TandemA2uiBinding *binding)
{
  g_autoptr(GDateTime) date = binding->calendar ? gtk_calendar_get_date (binding->calendar) : NULL;
  g_autofree char *day = date ? g_date_time_format (date, "%Y-%m-%d") : NULL;
  g_autofree char *time = NULL;

  if (binding->hour != NULL)
    time = g_strdup_printf ("%02d:%02d", gtk_spin_button_get_value_as_int (binding->hour),
                            gtk_spin_button_get_value_as_int (binding->minute));

  if (day != NULL && time != NULL)
    return g_strdup_printf ("%sT%s:00", day, time);

  return g_strdup (day ? day : time ? time : "");
}

static void
on_date_time_changed_cb (GtkWidget         *widget,
                         TandemA2uiBinding *binding)
{
  g_autofree char *text = format_date_time (binding);
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  if (_tandem_a2ui_binding_is_refreshing (binding))
    return;
  gtk_menu_button_set_label (GTK_MENU_BUTTON (binding->widget), text);
  json_node_set_string (value, text);
  _tandem_a2ui_binding_write_value (binding, "value", value);
}

static void
refresh_date_time (TandemA2uiBinding *binding)
{
  g_autofree char *text = _tandem_a2ui_binding_dup_text (binding, "value");
  g_autoptr(GDateTime) parsed = NULL;
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

  gtk_menu_button_set_label (GTK_MENU_BUTTON (binding->widget), text[0] != '\0' ? text : _("Choose…"));

  parsed = g_date_time_new_from_iso8601 (text, utc);
  if (parsed == NULL && strlen (text) == 10)
    {
      g_autofree char *midnight = g_strconcat (text, "T00:00:00", NULL);

      parsed = g_date_time_new_from_iso8601 (midnight, utc);
    }
  if (parsed == NULL)
    {
      int hour, minute;

      if (binding->hour != NULL && sscanf (text, "%d:%d", &hour, &minute) == 2)
        {
          gtk_spin_button_set_value (binding->hour, CLAMP (hour, 0, 23));
          gtk_spin_button_set_value (binding->minute, CLAMP (minute, 0, 59));
        }
      return;
    }

  if (binding->calendar != NULL)
    gtk_calendar_select_day (binding->calendar, parsed);
  if (binding->hour != NULL)
    {
      gtk_spin_button_set_value (binding->hour, g_date_time_get_hour (parsed));
      gtk_spin_button_set_value (binding->minute, g_date_time_get_minute (parsed));
    }
}

static GtkWidget *
build_date_time (TandemA2uiBuilder *self,
                 AguiA2uiComponent *component,
                 const char        *scope,
                 guint              depth)
{
  gboolean date = agui_a2ui_component_get_boolean (component, "enableDate", TRUE);
  gboolean time = agui_a2ui_component_get_boolean (component, "enableTime", FALSE);
  GtkWidget *button = gtk_menu_button_new ();
  TandemA2uiBinding *binding = _tandem_a2ui_binding_new (button, component, scope, refresh_date_time);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  if (!date && !time)
    date = TRUE;

  if (date)
    {
      binding->calendar = GTK_CALENDAR (gtk_calendar_new ());
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (binding->calendar));
    }
  if (time)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      binding->hour = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 23, 1));
      binding->minute = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 59, 1));
      gtk_spin_button_set_wrap (binding->hour, TRUE);
      gtk_spin_button_set_wrap (binding->minute, TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (binding->hour), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Hour"), -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (binding->minute), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Minute"), -1);
      gtk_box_append (GTK_BOX (row), GTK_WIDGET (binding->hour));
      gtk_box_append (GTK_BOX (row), gtk_label_new (":"));
      gtk_box_append (GTK_BOX (row), GTK_WIDGET (binding->minute));
      gtk_widget_set_halign (row, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), row);
    }

  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_always_show_arrow (GTK_MENU_BUTTON (button), TRUE);
  gtk_widget_set_halign (button, GTK_ALIGN_START);

  _tandem_a2ui_builder_bind (self, label, component, scope, refresh_field_label);
  _tandem_a2ui_builder_add_binding (self, binding);

  if (binding->calendar != NULL)
    _tandem_a2ui_binding_connect (binding, binding->calendar, "day-selected", G_CALLBACK (on_date_time_changed_cb));
  if (binding->hour != NULL)
    {
      _tandem_a2ui_binding_connect (binding, binding->hour, "value-changed", G_CALLBACK (on_date_time_changed_cb));
      _tandem_a2ui_binding_connect (binding, binding->minute, "value-changed", G_CALLBACK (on_date_time_changed_cb));
    }

  return labelled (button, label);
}

TandemA2uiBuildFunc
_tandem_a2ui_inputs_builder (AguiA2uiComponentKind kind)
{
  static const TandemA2uiBuildFunc builders[] = {
    [AGUI_A2UI_COMPONENT_BUTTON]          = build_button,
    [AGUI_A2UI_COMPONENT_TEXT_FIELD]      = build_text_field,
    [AGUI_A2UI_COMPONENT_CHECK_BOX]       = build_check_box,
    [AGUI_A2UI_COMPONENT_DATE_TIME_INPUT] = build_date_time,
    [AGUI_A2UI_COMPONENT_CHOICE_PICKER]   = build_choice_picker,
    [AGUI_A2UI_COMPONENT_SLIDER]          = build_slider,
  };

  return (guint) kind < G_N_ELEMENTS (builders) ? builders[kind] : NULL;
}
