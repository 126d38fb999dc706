/* tandem-schema-form.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <math.h>

#include "tandem-schema-form.h"

/* Spin buttons need bounds; a schema without minimum/maximum gets these. */
#define WIDE_BOUND 1e15

typedef enum
{
  FIELD_STRING,
  FIELD_ENUM,
  FIELD_INTEGER,
  FIELD_NUMBER,
  FIELD_BOOLEAN,
  FIELD_JSON,
} FieldKind;

typedef struct
{
  char       *name;
  char       *title;
  char       *json_type;
  JsonObject *schema;
  JsonArray  *enum_values;
  GtkWidget  *row;
  GtkWidget  *input;
  FieldKind   kind;
  double      unset_value;
  guint       required : 1;
  guint       has_placeholder : 1;
  guint       numeric_unset : 1;
} Field;

struct _TandemSchemaForm
{
  GtkWidget   parent_instance;

  GtkWidget  *list;
  JsonObject *schema;
  GPtrArray  *fields;
  guint       single : 1;
};

G_DEFINE_FINAL_TYPE (TandemSchemaForm, tandem_schema_form, GTK_TYPE_WIDGET)

static void
field_free (Field *field)
{
  g_clear_pointer (&field->name, g_free);
  g_clear_pointer (&field->title, g_free);
  g_clear_pointer (&field->json_type, g_free);
  g_clear_pointer (&field->schema, json_object_unref);
  g_clear_pointer (&field->enum_values, json_array_unref);
  g_free (field);
}

static const char *
schema_get_string (JsonObject *schema,
                   const char *member)
{
  JsonNode *node = json_object_get_member (schema, member);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  return NULL;
}

static gboolean
schema_get_number (JsonObject *schema,
                   const char *member,
                   double     *number)
{
  JsonNode *node = json_object_get_member (schema, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      *number = json_node_get_double (node);
      return TRUE;

    default:
      return FALSE;
    }
}

/* "type" may be a string or a list such as ["string", "null"]. */
static const char *
schema_get_type_name (JsonObject *schema)
{
  JsonNode *node = json_object_get_member (schema, "type");

  if (node == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *types = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          JsonNode *element = json_array_get_element (types, i);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING &&
              g_strcmp0 (json_node_get_string (element), "null") != 0)
            return json_node_get_string (element);
        }
    }

  return NULL;
}

static JsonArray *
schema_get_enum (JsonObject *schema)
{
  JsonNode *node = json_object_get_member (schema, "enum");

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    return json_node_get_array (node);

  return NULL;
}

static gboolean
schema_has_properties (JsonObject *schema)
{
  JsonNode *node = json_object_get_member (schema, "properties");

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) && json_object_get_size (json_node_get_object (node)) > 0;
}

static FieldKind
kind_for_schema (JsonObject *schema)
{
  const char *type = schema_get_type_name (schema);

  if (schema_get_enum (schema) != NULL)
    return FIELD_ENUM;
  if (g_strcmp0 (type, "string") == 0)
    return FIELD_STRING;
  if (g_strcmp0 (type, "integer") == 0)
    return FIELD_INTEGER;
  if (g_strcmp0 (type, "number") == 0)
    return FIELD_NUMBER;
  if (g_strcmp0 (type, "boolean") == 0)
    return FIELD_BOOLEAN;

  return FIELD_JSON;
}

static char *
json_node_to_label (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  return json_to_string (node, FALSE);
}

static gboolean
node_is_number (JsonNode *node)
{
  return node != NULL &&
         JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static void
on_field_changed_cb (GtkWidget *row)
{
  gtk_widget_remove_css_class (row, "error");
}

static void
field_set_description (Field     *field,
                       GtkWidget *row)
{
  const char *description = schema_get_string (field->schema, "description");

  if (description == NULL || description[0] == '\0')
    return;

  if (ADW_IS_ACTION_ROW (row))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), description);
  else
    gtk_widget_set_tooltip_text (row, description);

  gtk_accessible_update_property (GTK_ACCESSIBLE (field->input),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void
field_mark_required (Field *field)
{
  GtkWidget *label;

  gtk_accessible_update_property (GTK_ACCESSIBLE (field->input),
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE,
                                  -1);

  if (!ADW_IS_ACTION_ROW (field->row) && !ADW_IS_ENTRY_ROW (field->row))
    return;

  label = gtk_label_new (_("Required"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);

  if (ADW_IS_ENTRY_ROW (field->row))
    adw_entry_row_add_suffix (ADW_ENTRY_ROW (field->row), label);
  else
    adw_action_row_add_suffix (ADW_ACTION_ROW (field->row), label);
}

static void
build_string_row (Field    *field,
                  JsonNode *initial)
{
  field->row = field->input = adw_entry_row_new ();

  if (initial != NULL && !JSON_NODE_HOLDS_NULL (initial))
    {
      g_autofree char *text = json_node_to_label (initial);

      gtk_editable_set_text (GTK_EDITABLE (field->input), text);
    }

  g_signal_connect_swapped (field->input, "changed", G_CALLBACK (on_field_changed_cb), field->row);
}

static void
build_enum_row (Field    *field,
                JsonNode *initial)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  guint length = json_array_get_length (field->enum_values);
  guint selected = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < length && initial != NULL; i++)
    {
      if (json_node_equal (json_array_get_element (field->enum_values, i), initial))
        {
          selected = i;
          break;
        }
    }

  field->has_placeholder = !field->required || selected == GTK_INVALID_LIST_POSITION;
  if (field->has_placeholder)
    gtk_string_list_append (model, field->required ? _("Choose…") : _("None"));

  for (guint i = 0; i < length; i++)
    {
      g_autofree char *label = json_node_to_label (json_array_get_element (field->enum_values, i));

      gtk_string_list_append (model, label);
    }

  field->row = field->input = adw_combo_row_new ();
  adw_combo_row_set_model (ADW_COMBO_ROW (field->row), G_LIST_MODEL (model));

  if (selected == GTK_INVALID_LIST_POSITION)
    adw_combo_row_set_selected (ADW_COMBO_ROW (field->row), 0);
  else
    adw_combo_row_set_selected (ADW_COMBO_ROW (field->row), selected + (field->has_placeholder ? 1 : 0));

  g_signal_connect_swapped (field->input, "notify::selected", G_CALLBACK (on_field_changed_cb), field->row);
}

/* An optional number without a value shows an empty entry; GtkSpinButton
 * would render its adjustment value on the next update, so keep the text
 * empty until the value really changes. */
static int
on_spin_button_input_cb (GtkSpinButton *spin_button,
                         double        *new_value,
                         Field         *field)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin_button))));

  if (text[0] != '\0')
    {
      field->numeric_unset = FALSE;
      return FALSE;
    }

  field->numeric_unset = TRUE;
  field->unset_value = gtk_spin_button_get_value (spin_button);
  *new_value = field->unset_value;

  return TRUE;
}

static gboolean
on_spin_button_output_cb (GtkSpinButton *spin_button,
                          Field         *field)
{
  if (field->numeric_unset && gtk_spin_button_get_value (spin_button) == field->unset_value)
    {
      if (gtk_editable_get_text (GTK_EDITABLE (spin_button))[0] != '\0')
        gtk_editable_set_text (GTK_EDITABLE (spin_button), "");
      return TRUE;
    }

  field->numeric_unset = FALSE;

  return FALSE;
}

static guint
digits_for_step (double step)
{
  guint digits = 0;

  while (digits < 6 && fabs (step - round (step)) > 1e-9)
    {
      step *= 10;
      digits++;
    }

  return digits;
}

static void
build_numeric_row (Field    *field,
                   JsonNode *initial)
{
  gboolean integer = field->kind == FIELD_INTEGER;
  double lower = -WIDE_BOUND;
  double upper = WIDE_BOUND;
  double step = integer ? 1 : 0.1;
  double bound;
  guint digits = 0;
  GtkAdjustment *adjustment;

  if (schema_get_number (field->schema, "minimum", &bound))
    lower = bound;
  if (schema_get_number (field->schema, "exclusiveMinimum", &bound))
    lower = integer ? floor (bound) + 1 : bound;
  if (schema_get_number (field->schema, "maximum", &bound))
    upper = bound;
  if (schema_get_number (field->schema, "exclusiveMaximum", &bound))
    upper = integer ? ceil (bound) - 1 : bound;
  if (integer)
    {
      lower = ceil (lower);
      upper = floor (upper);
    }
  if (upper < lower)
    upper = lower;

  if (schema_get_number (field->schema, "multipleOf", &bound) && bound > 0)
    step = bound;
  if (!integer)
    digits = MAX (2, digits_for_step (step));

  adjustment = gtk_adjustment_new (CLAMP (0, lower, upper), lower, upper, step, step * 10, 0);
  field->input = gtk_spin_button_new (adjustment, step, digits);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (field->input), GTK_UPDATE_IF_VALID);
  gtk_editable_set_width_chars (GTK_EDITABLE (field->input), 8);
  gtk_widget_set_valign (field->input, GTK_ALIGN_CENTER);

  g_signal_connect (field->input, "input", G_CALLBACK (on_spin_button_input_cb), field);
  g_signal_connect (field->input, "output", G_CALLBACK (on_spin_button_output_cb), field);

  if (node_is_number (initial))
    {
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (field->input), json_node_get_double (initial));
    }
  else
    {
      field->numeric_unset = TRUE;
      field->unset_value = gtk_spin_button_get_value (GTK_SPIN_BUTTON (field->input));
      gtk_editable_set_text (GTK_EDITABLE (field->input), "");
    }

  field->row = adw_action_row_new ();
  adw_action_row_add_suffix (ADW_ACTION_ROW (field->row), field->input);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (field->row), field->input);

  g_signal_connect_swapped (field->input, "changed", G_CALLBACK (on_field_changed_cb), field->row);
}

static void
build_boolean_row (Field    *field,
                   JsonNode *initial)
{
  field->input = gtk_switch_new ();
  gtk_widget_set_valign (field->input, GTK_ALIGN_CENTER);

  if (initial != NULL && JSON_NODE_HOLDS_VALUE (initial) && json_node_get_value_type (initial) == G_TYPE_BOOLEAN)
    gtk_switch_set_active (GTK_SWITCH (field->input), json_node_get_boolean (initial));

  field->row = adw_action_row_new ();
  adw_action_row_add_suffix (ADW_ACTION_ROW (field->row), field->input);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (field->row), field->input);
}

static void
build_json_row (Field    *field,
                JsonNode *initial)
{
  field->row = field->input = adw_entry_row_new ();
  gtk_widget_add_css_class (field->input, "monospace");

  if (initial != NULL)
    {
      g_autofree char *text = json_to_string (initial, FALSE);

      gtk_editable_set_text (GTK_EDITABLE (field->input), text);
    }

  g_signal_connect_swapped (field->input, "changed", G_CALLBACK (on_field_changed_cb), field->row);
}

static void
build_json_editor (Field    *field,
                   JsonNode *initial)
{
  GtkWidget *box;
  GtkWidget *label;
  GtkWidget *scrolled;
  GtkTextBuffer *buffer;

  field->input = gtk_text_view_new ();
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (field->input), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (field->input), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (field->input), FALSE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (field->input), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (field->input), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (field->input), 6);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (field->input), 6);
  gtk_widget_add_css_class (field->input, "tandem-json-editor");
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->input));

  if (initial != NULL)
    {
      g_autofree char *text = json_to_string (initial, TRUE);

      gtk_text_buffer_set_text (buffer, text, -1);
    }

  label = gtk_label_new (field->title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), field->input);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 320);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), scrolled);

  field->row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (field->row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (field->row), box);

  gtk_accessible_update_relation (GTK_ACCESSIBLE (field->input),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  -1);

  g_signal_connect_swapped (buffer, "changed", G_CALLBACK (on_field_changed_cb), field->row);
}

static guint changed_signal;

static void
tandem_schema_form_emit_changed (TandemSchemaForm *self)
{
  g_signal_emit (self, changed_signal, 0);
}

/* Whatever shows the value (the approval dialog's preview of the
 * arguments) follows every edit, not only the finished form. */
static void
tandem_schema_form_watch_field (TandemSchemaForm *self,
                                Field            *field)
{
  GObject *source = G_OBJECT (field->input);
  const char *signal = "changed";

  if (GTK_IS_TEXT_VIEW (field->input))
    source = G_OBJECT (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->input)));
  else if (GTK_IS_SWITCH (field->input))
    signal = "notify::active";
  else if (field->kind == FIELD_ENUM)
    signal = "notify::selected";

  /* A spin button's value follows its text only once the text is taken */
  if (GTK_IS_SPIN_BUTTON (field->input))
    g_signal_connect_object (source, "value-changed", G_CALLBACK (tandem_schema_form_emit_changed),
                             self, G_CONNECT_SWAPPED);
  g_signal_connect_object (source, signal, G_CALLBACK (tandem_schema_form_emit_changed), self, G_CONNECT_SWAPPED);
}

static void
tandem_schema_form_add_field (TandemSchemaForm *self,
                              const char       *name,
                              JsonObject       *schema,
                              gboolean          required,
                              JsonNode         *initial)
{
  Field *field = g_new0 (Field, 1);
  const char *title = schema_get_string (schema, "title");

  field->name = g_strdup (name);
  field->schema = json_object_ref (schema);
  field->kind = kind_for_schema (schema);
  field->json_type = g_strdup (schema_get_type_name (schema));
  field->required = !!required;

  if (title != NULL && title[0] != '\0')
    field->title = g_strdup (title);
  else if (name != NULL)
    field->title = g_strdup (name);
  else
    field->title = g_strdup (_("Value"));

  if (schema_get_enum (schema) != NULL)
    field->enum_values = json_array_ref (schema_get_enum (schema));

  if (initial == NULL || JSON_NODE_HOLDS_NULL (initial))
    initial = json_object_get_member (schema, "default");

  switch (field->kind)
    {
    case FIELD_STRING:
      build_string_row (field, initial);
      break;

    case FIELD_ENUM:
      build_enum_row (field, initial);
      break;

    case FIELD_INTEGER:
    case FIELD_NUMBER:
      build_numeric_row (field, initial);
      break;

    case FIELD_BOOLEAN:
      build_boolean_row (field, initial);
      break;

    case FIELD_JSON:
    default:
      if (name == NULL)
        build_json_editor (field, initial);
      else
        build_json_row (field, initial);
      break;
    }

  if (ADW_IS_PREFERENCES_ROW (field->row))
    {
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (field->row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (field->row), field->title);
    }

  if (field->input != field->row)
    gtk_accessible_update_property (GTK_ACCESSIBLE (field->input),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, field->title,
                                    -1);

  field_set_description (field, field->row);
  tandem_schema_form_watch_field (self, field);

  if (field->required)
    field_mark_required (field);

  gtk_list_box_append (GTK_LIST_BOX (self->list), field->row);
  g_ptr_array_add (self->fields, field);
}

static gboolean
parse_double (const char *text,
              double     *value)
{
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (end != text && *end == '\0' && isfinite (*value))
    return TRUE;

  /* GtkSpinButton prints with the locale's decimal separator. */
  *value = g_strtod (text, &end);

  return end != text && *end == '\0' && isfinite (*value);
}

static char *
format_bound (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.15g", value));
}

static gboolean
check_bounds (Field   *field,
              double   value,
              GError **error)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (field->input));
  double lower = gtk_adjustment_get_lower (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);

  if (value < lower)
    {
      g_autofree char *bound = format_bound (lower);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” must be at least %s"), field->title, bound);
      return FALSE;
    }

  if (value > upper)
    {
      g_autofree char *bound = format_bound (upper);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” must be at most %s"), field->title, bound);
      return FALSE;
    }

  return TRUE;
}

static char *
field_dup_text (Field *field)
{
  if (GTK_IS_TEXT_VIEW (field->input))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->input));
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);

      return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    }

  return g_strdup (gtk_editable_get_text (GTK_EDITABLE (field->input)));
}

/* Reads the field; *value is NULL when the field is empty. */
static gboolean
field_read (Field     *field,
            JsonNode **value,
            GError   **error)
{
  g_autofree char *text = NULL;
  g_autofree char *stripped = NULL;

  *value = NULL;

  switch (field->kind)
    {
    case FIELD_STRING:
      text = field_dup_text (field);
      stripped = g_strstrip (g_strdup (text));
      if (stripped[0] != '\0')
        *value = json_node_init_string (json_node_alloc (), text);
      return TRUE;

    case FIELD_ENUM:
      {
        guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (field->input));

        if (selected == GTK_INVALID_LIST_POSITION || (field->has_placeholder && selected == 0))
          return TRUE;

        selected -= field->has_placeholder ? 1 : 0;
        if (selected < json_array_get_length (field->enum_values))
          *value = json_node_copy (json_array_get_element (field->enum_values, selected));
        return TRUE;
      }

    case FIELD_INTEGER:
      {
        double number;
        gint64 integer;
        char *end = NULL;

        stripped = g_strstrip (field_dup_text (field));
        if (stripped[0] == '\0')
          return TRUE;

        integer = g_ascii_strtoll (stripped, &end, 10);
        if (end == stripped || *end != '\0')
          {
            if (!parse_double (stripped, &number) || number != floor (number) || fabs (number) > WIDE_BOUND)
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             _("“%s” must be a whole number"), field->title);
                return FALSE;
              }
            integer = (gint64) number;
          }

        if (!check_bounds (field, (double) integer, error))
          return FALSE;

        *value = json_node_init_int (json_node_alloc (), integer);
        return TRUE;
      }

    case FIELD_NUMBER:
      {
        double number;

        stripped = g_strstrip (field_dup_text (field));
        if (stripped[0] == '\0')
          return TRUE;

        if (!parse_double (stripped, &number))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” must be a number"), field->title);
            return FALSE;
          }

        if (!check_bounds (field, number, error))
          return FALSE;

        *value = json_node_init_double (json_node_alloc (), number);
        return TRUE;
      }

    case FIELD_BOOLEAN:
      *value = json_node_init_boolean (json_node_alloc (), gtk_switch_get_active (GTK_SWITCH (field->input)));
      return TRUE;

    case FIELD_JSON:
    default:
      {
        g_autoptr(JsonNode) node = NULL;
        g_autoptr(GError) local_error = NULL;

        text = field_dup_text (field);
        stripped = g_strstrip (g_strdup (text));
        if (stripped[0] == '\0')
          return TRUE;

        if (!(node = json_from_string (stripped, &local_error)))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” is not valid JSON"), field->title);
            return FALSE;
          }

        if (g_strcmp0 (field->json_type, "object") == 0 && !JSON_NODE_HOLDS_OBJECT (node))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” must be a JSON object"), field->title);
            return FALSE;
          }

        if (g_strcmp0 (field->json_type, "array") == 0 && !JSON_NODE_HOLDS_ARRAY (node))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” must be a JSON array"), field->title);
            return FALSE;
          }

        *value = g_steal_pointer (&node);
        return TRUE;
      }
    }
}

static gboolean
field_validate (Field     *field,
                JsonNode **value,
                GError   **error)
{
  g_autoptr(JsonNode) node = NULL;

  if (!field_read (field, &node, error))
    return FALSE;

  if (node == NULL)
    {
      if (field->required)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” is required"), field->title);
          return FALSE;
        }

      *value = NULL;
      return TRUE;
    }

  if (field->enum_values != NULL)
    {
      guint length = json_array_get_length (field->enum_values);
      g_autoptr(GString) choices = g_string_new (NULL);

      for (guint i = 0; i < length; i++)
        {
          g_autofree char *label = NULL;

          if (json_node_equal (json_array_get_element (field->enum_values, i), node))
            {
              *value = g_steal_pointer (&node);
              return TRUE;
            }

          label = json_node_to_label (json_array_get_element (field->enum_values, i));
          if (i > 0)
            g_string_append (choices, ", ");
          g_string_append (choices, label);
        }

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” must be one of %s"), field->title, choices->str);
      return FALSE;
    }

  *value = g_steal_pointer (&node);

  return TRUE;
}

static Field *
tandem_schema_form_find_field (TandemSchemaForm *self,
                               const char       *name)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (g_strcmp0 (field->name, name) == 0)
        return field;
    }

  return NULL;
}

static void
tandem_schema_form_dispose (GObject *object)
{
  TandemSchemaForm *self = (TandemSchemaForm *)object;

  g_clear_pointer (&self->list, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_schema_form_parent_class)->dispose (object);
}

static void
tandem_schema_form_finalize (GObject *object)
{
  TandemSchemaForm *self = (TandemSchemaForm *)object;

  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_pointer (&self->schema, json_object_unref);

  G_OBJECT_CLASS (tandem_schema_form_parent_class)->finalize (object);
}

static void
tandem_schema_form_class_init (TandemSchemaFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_schema_form_dispose;
  object_class->finalize = tandem_schema_form_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "schemaform");

  /**
   * TandemSchemaForm::changed:
   * @self: a form
   *
   * Emitted whenever the person edits a field: the value may have changed.
   */
  changed_signal = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tandem_schema_form_init (TandemSchemaForm *self)
{
  self->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  gtk_widget_set_parent (self->list, GTK_WIDGET (self));
}

/**
 * tandem_schema_form_new:
 * @schema: a JSON Schema
 * @initial: (nullable): values to pre-fill, overriding the schema's defaults
 *
 * Builds a form for @schema: one row per property of an object schema with
 * properties, otherwise a single field for the whole value.
 *
 * Returns: (transfer full): a new #TandemSchemaForm
 */
GtkWidget *
tandem_schema_form_new (JsonObject *schema,
                        JsonNode   *initial)
{
  TandemSchemaForm *self;
  g_autoptr(GHashTable) required = NULL;
  JsonNode *node;

  g_return_val_if_fail (schema != NULL, NULL);

  self = g_object_new (TANDEM_TYPE_SCHEMA_FORM, NULL);
  self->schema = json_object_ref (schema);

  if (!schema_has_properties (schema))
    {
      self->single = TRUE;
      tandem_schema_form_add_field (self, NULL, schema, TRUE, initial);
      return GTK_WIDGET (self);
    }

  required = g_hash_table_new (g_str_hash, g_str_equal);
  node = json_object_get_member (schema, "required");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *names = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          JsonNode *element = json_array_get_element (names, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_hash_table_add (required, (gpointer) json_node_get_string (element));
        }
    }

  {
    JsonObject *properties = json_object_get_object_member (schema, "properties");
    JsonObject *initial_object = NULL;
    g_autoptr(GList) names = json_object_get_members (properties);

    if (initial != NULL && JSON_NODE_HOLDS_OBJECT (initial))
      initial_object = json_node_get_object (initial);

    for (const GList *iter = names; iter != NULL; iter = iter->next)
      {
        const char *name = iter->data;
        JsonNode *property = json_object_get_member (properties, name);
        g_autoptr(JsonObject) property_schema = NULL;
        JsonNode *property_initial = NULL;

        if (JSON_NODE_HOLDS_OBJECT (property))
          property_schema = json_object_ref (json_node_get_object (property));
        else
          property_schema = json_object_new ();   /* `true` or junk: accept any JSON */

        if (initial_object != NULL)
          property_initial = json_object_get_member (initial_object, name);

        tandem_schema_form_add_field (self, name, property_schema,
                                      g_hash_table_contains (required, name),
                                      property_initial);
      }
  }

  return GTK_WIDGET (self);
}

/**
 * tandem_schema_form_validate:
 * @self: a schema form
 * @error: return location for a #GError naming the first bad field
 *
 * Checks every field, marking bad rows with the `error` style class.
 *
 * Returns: %TRUE when every field holds an acceptable value
 */
gboolean
tandem_schema_form_validate (TandemSchemaForm  *self,
                             GError           **error)
{
  g_autoptr(GError) first_error = NULL;

  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(JsonNode) value = NULL;

      if (field_validate (field, &value, &local_error))
        {
          gtk_widget_remove_css_class (field->row, "error");
          continue;
        }

      gtk_widget_add_css_class (field->row, "error");
      if (first_error == NULL)
        first_error = g_steal_pointer (&local_error);
    }

  if (first_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&first_error));
      return FALSE;
    }

  return TRUE;
}

/**
 * tandem_schema_form_get_value:
 * @self: a schema form
 *
 * Reads the form. For an object schema with properties this is an object
 * without the empty optional fields; otherwise the single field's value.
 * Fields that do not validate are left out, so call
 * [method@Tandem.SchemaForm.validate] first.
 *
 * Returns: (transfer full) (nullable): the value
 */
JsonNode *
tandem_schema_form_get_value (TandemSchemaForm *self)
{
  g_autoptr(JsonObject) object = NULL;

  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), NULL);

  if (self->single)
    {
      JsonNode *value = NULL;

      if (self->fields->len == 0 ||
          !field_validate (g_ptr_array_index (self->fields, 0), &value, NULL))
        return NULL;

      return value;
    }

  object = json_object_new ();

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);
      JsonNode *value = NULL;

      if (field_validate (field, &value, NULL) && value != NULL)
        json_object_set_member (object, field->name, value);
    }

  return json_node_init_object (json_node_alloc (), object);
}

/**
 * tandem_schema_form_is_single:
 * @self: a schema form
 *
 * Returns: %TRUE when the form is one field for the whole value
 */
gboolean
tandem_schema_form_is_single (TandemSchemaForm *self)
{
  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), FALSE);

  return self->single;
}

/**
 * tandem_schema_form_has_field:
 * @self: a schema form
 * @name: a property name
 *
 * Returns: whether the form has a row for the property @name
 */
gboolean
tandem_schema_form_has_field (TandemSchemaForm *self,
                              const char       *name)
{
  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return tandem_schema_form_find_field (self, name) != NULL;
}

/**
 * tandem_schema_form_get_row:
 * @self: a schema form
 * @name: (nullable): a property name, or %NULL for a single-field form
 *
 * Returns: (transfer none) (nullable): the row showing that field
 */
GtkWidget *
tandem_schema_form_get_row (TandemSchemaForm *self,
                            const char       *name)
{
  Field *field;

  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), NULL);

  field = tandem_schema_form_find_field (self, name);

  return field ? field->row : NULL;
}

/**
 * tandem_schema_form_get_input:
 * @self: a schema form
 * @name: (nullable): a property name, or %NULL for a single-field form
 *
 * The widget holding the value: an #AdwEntryRow, #AdwComboRow,
 * #GtkSpinButton, #GtkSwitch or #GtkTextView.
 *
 * Returns: (transfer none) (nullable): the input widget of that field
 */
GtkWidget *
tandem_schema_form_get_input (TandemSchemaForm *self,
                              const char       *name)
{
  Field *field;

  g_return_val_if_fail (TANDEM_IS_SCHEMA_FORM (self), NULL);

  field = tandem_schema_form_find_field (self, name);

  return field ? field->input : NULL;
}
