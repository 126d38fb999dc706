/* tandem-agent-editor.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-accessible.h"
#include "tandem-agent-editor.h"
#include "tandem-connection-test.h"

#define MIB (1024 * 1024)

/* TandemAgentEditor: the Add Agent and Edit Agent page of the
 * preferences, with its header bar: the fields of an agent of either kind
 * (an AG-UI server, or a model on an OpenAI-compatible server, whose part
 * is a TandemOpenaiEditor), its extra headers, its connection settings and
 * Test Connection. Its buttons activate the "editor." actions of the
 * window it is shown in, which saves, cancels and forgets tokens. */

/* One extra header in the editor. The widgets are owned by the group. */
typedef struct
{
  GtkWidget   *row;
  GtkEditable *name;
  GtkEditable *value;
} HeaderRow;

struct _TandemAgentEditor
{
  GtkBox                parent_instance;

  TandemAgents         *agents;

  /* The fields, while it is filled in */
  char                 *editor_id;
  AdwEntryRow          *name_row;
  AdwEntryRow          *url_row;
  AdwPasswordEntryRow  *token_row;
  GtkLabel             *editor_error;
  AdwPreferencesGroup  *headers_group;
  GPtrArray            *header_rows;
  GtkSpinButton        *idle_timeout_spin;
  GtkSpinButton        *max_frame_spin;
  AdwComboRow          *encoding_row;
  GtkLabel             *test_result;
  GCancellable         *test_cancellable;
  TandemOpenaiEditor   *openai;
};

G_DEFINE_FINAL_TYPE (TandemAgentEditor, tandem_agent_editor, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_AGENTS,
  PROP_TESTING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
clear_field_error (GtkWidget *widget)
{
  gtk_widget_remove_css_class (widget, "error");
  gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
set_field_error (TandemAgentEditor       *self,
                 GtkWidget               *widget,
                 const char              *message,
                 gboolean                 first)
{
  gtk_widget_add_css_class (widget, "error");
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                  -1);

  if (first)
    {
      gtk_label_set_text (self->editor_error, message);
      gtk_widget_set_visible (GTK_WIDGET (self->editor_error), TRUE);
      gtk_widget_grab_focus (widget);
    }
}

static void
on_field_changed_cb (GtkWidget *widget)
{
  clear_field_error (widget);
}

static void
on_remove_header_clicked_cb (GtkButton         *button,
                             TandemAgentEditor *self)
{
  if (self->header_rows == NULL)
    return;

  for (guint i = 0; i < self->header_rows->len; i++)
    {
      HeaderRow *header = g_ptr_array_index (self->header_rows, i);

      if (gtk_widget_is_ancestor (GTK_WIDGET (button), header->row))
        {
          adw_preferences_group_remove (self->headers_group, header->row);
          g_ptr_array_remove_index (self->header_rows, i);
          break;
        }
    }
}

static GtkEditable *
create_header_entry (GtkBox     *box,
                     const char *placeholder,
                     const char *text)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  tandem_accessible_set_label (entry, placeholder);
  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
  gtk_widget_set_valign (entry, GTK_ALIGN_CENTER);
  g_signal_connect (entry, "changed", G_CALLBACK (on_field_changed_cb), NULL);
  gtk_box_append (box, entry);

  return GTK_EDITABLE (entry);
}

/**
 * tandem_agent_editor_add_header:
 * @self: an agent editor, filled in
 * @name: (nullable): a header name
 * @value: (nullable): its value
 *
 * Adds a header row, as the Add Header button does.
 *
 * Returns: (transfer none): the new row's name field
 */
GtkEditable *
tandem_agent_editor_add_header (TandemAgentEditor *self,
                                const char        *name,
                                const char        *value)
{
  HeaderRow *header;
  GtkWidget *box;
  GtkWidget *remove;

  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);
  g_return_val_if_fail (self->header_rows != NULL, NULL);

  header = g_new0 (HeaderRow, 1);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_add_css_class (box, "tandem-header-row");
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);

  header->name = create_header_entry (GTK_BOX (box), _("Header name"), name);
  gtk_editable_set_width_chars (header->name, 14);
  header->value = create_header_entry (GTK_BOX (box), _("Value"), value);
  gtk_widget_set_hexpand (GTK_WIDGET (header->value), TRUE);

  header->row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (header->row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (header->row), box);

  remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, _("Remove header"));
  tandem_accessible_set_label (remove, _("Remove header"));
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_header_clicked_cb), self, 0);
  gtk_box_append (GTK_BOX (box), remove);

  adw_preferences_group_add (self->headers_group, header->row);
  g_ptr_array_add (self->header_rows, header);

  return header->name;
}

/**
 * tandem_agent_editor_clear:
 * @self: an agent editor
 *
 * Lets go of the fields and stops Test Connection; the widgets stay on
 * screen, as the page slides away, until the editor is filled in again.
 */
void
tandem_agent_editor_clear (TandemAgentEditor *self)
{
  gboolean was_testing;

  g_return_if_fail (TANDEM_IS_AGENT_EDITOR (self));

  was_testing = self->test_cancellable != NULL;
  g_clear_pointer (&self->editor_id, g_free);
  g_clear_pointer (&self->header_rows, g_ptr_array_unref);
  self->name_row = NULL;
  self->url_row = NULL;
  self->token_row = NULL;
  self->editor_error = NULL;
  self->headers_group = NULL;
  self->idle_timeout_spin = NULL;
  self->max_frame_spin = NULL;
  self->encoding_row = NULL;
  self->test_result = NULL;
  g_clear_pointer (&self->openai, tandem_openai_editor_free);
  g_cancellable_cancel (self->test_cancellable);
  g_clear_object (&self->test_cancellable);
  if (was_testing)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
}

/* A number in a row, as AdwSpinRow (libadwaita 1.4) would show it. */
static GtkSpinButton *
add_spin_row (AdwPreferencesGroup *group,
              const char          *title,
              const char          *subtitle,
              double               lower,
              double               upper,
              double               value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (group, row);

  return GTK_SPIN_BUTTON (spin);
}

static void
editor_add_connection_group (TandemAgentEditor       *self,
                             AdwPreferencesPage      *page,
                             TandemAgent             *agent)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  gsize max_frame_size = agent ? tandem_agent_get_max_frame_size (agent) : 0;

  adw_preferences_group_set_title (group, _("Connection"));
  adw_preferences_group_set_description (group,
                                         _("How the agent's answers are read. The defaults suit most servers."));
  adw_preferences_page_add (page, group);

  self->idle_timeout_spin = add_spin_row (group, _("_Idle Timeout"),
                                          _("Seconds the agent may send nothing before the run is given up; 0 waits forever"),
                                          0, TANDEM_AGENT_MAX_IDLE_TIMEOUT,
                                          agent ? tandem_agent_get_idle_timeout (agent) : TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT);

  if (max_frame_size == 0)
    max_frame_size = AGUI_HTTP_DEFAULT_MAX_FRAME_SIZE;
  self->max_frame_spin = add_spin_row (group, _("_Largest Event"),
                                       _("In MiB; a larger event, such as a huge state snapshot, ends the run"),
                                       1, 1024, (max_frame_size + MIB - 1) / MIB);

  /* In AguiHttpEncoding's order. */
  {
    const char * const encodings[] = { _("Text (SSE)"), _("Binary (Protocol Buffers)"), NULL };
    g_autoptr(GtkStringList) model = gtk_string_list_new (encodings);

    self->encoding_row = ADW_COMBO_ROW (adw_combo_row_new ());
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->encoding_row), _("_Encoding"));
    adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->encoding_row), TRUE);
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->encoding_row),
                                 _("Binary is smaller; only some servers offer it"));
    adw_combo_row_set_model (self->encoding_row, G_LIST_MODEL (model));
    adw_combo_row_set_selected (self->encoding_row,
                                agent ? tandem_agent_get_encoding (agent) : AGUI_HTTP_ENCODING_SSE);
    adw_preferences_group_add (group, GTK_WIDGET (self->encoding_row));
  }
}

static AdwEntryRow *
create_entry_row (AdwPreferencesGroup *group,
                  GtkWidget           *row,
                  const char          *title,
                  const char          *text)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (row), text ? text : "");
  g_signal_connect (row, "changed", G_CALLBACK (on_field_changed_cb), NULL);
  adw_preferences_group_add (group, row);

  return ADW_ENTRY_ROW (row);
}

static char *
dup_stripped_text (GtkEditable *editable)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (editable)));
}

/* Test Connection: the URL and headers as typed, and the token if one
 * is typed; a typed token stays out of the keyring until the agent is
 * saved. On a saved agent an empty token field means "keep the stored
 * token", so the test reads that one from the keyring and sends it, as
 * a conversation would. */

static void
show_test_result (TandemAgentEditor       *self,
                  const char              *text,
                  gboolean                 success)
{
  gtk_label_set_text (self->test_result, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->test_result), success ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->test_result), success ? "success" : "error");
  gtk_widget_set_visible (GTK_WIDGET (self->test_result), TRUE);
}

static void
on_connection_tested_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(TandemAgentEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = tandem_connection_test_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->test_result == NULL)
    return;

  g_clear_object (&self->test_cancellable);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
  show_test_result (self, text != NULL ? text : error->message, text != NULL);
}

/* With the settings as typed and @token, on the transport a run would
 * use once they are saved */
static void
editor_start_test (TandemAgentEditor       *self,
                   const char              *token)
{
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  if (!(agent = tandem_agent_editor_create_agent (self, TRUE, &error)) ||
      !(transport = tandem_agent_create_transport (agent, token, &error)))
    {
      g_clear_object (&self->test_cancellable);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
      show_test_result (self, error->message, FALSE);
      return;
    }

  tandem_connection_test_async (transport, tandem_agent_get_url (agent),
                                self->test_cancellable, on_connection_tested_cb, g_object_ref (self));
}

static void
on_stored_token_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TandemAgentEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  char *token = tandem_agents_lookup_token_finish (TANDEM_AGENTS (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->test_result == NULL)
    return;

  /* No keyring, no token: a conversation would go without one too */
  if (error != NULL)
    g_debug ("Testing the connection without the stored token: %s", error->message);

  editor_start_test (self, token);
  secret_password_free (token);
}

/**
 * tandem_agent_editor_test_connection:
 * @self: an agent editor, filled in
 *
 * Tests the connection, as the Test Connection button does; the editor
 * is #TandemAgentEditor:testing until the result is shown.
 */
void
tandem_agent_editor_test_connection (TandemAgentEditor *self)
{
  g_autofree char *url = NULL;
  const char *token;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TANDEM_IS_AGENT_EDITOR (self));
  g_return_if_fail (self->url_row != NULL);

  url = dup_stripped_text (GTK_EDITABLE (self->url_row));
  token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));

  if (!tandem_agents_check_url (url, &error))
    {
      show_test_result (self, error->message, FALSE);
      return;
    }

  g_cancellable_cancel (self->test_cancellable);
  g_clear_object (&self->test_cancellable);
  self->test_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->test_result, _("Connecting…"));
  gtk_widget_remove_css_class (GTK_WIDGET (self->test_result), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->test_result), "success");
  gtk_widget_set_visible (GTK_WIDGET (self->test_result), TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);

  if (token[0] == '\0' && self->editor_id != NULL &&
      tandem_agents_lookup (self->agents, self->editor_id) != NULL)
    tandem_agents_lookup_token_async (self->agents, self->editor_id, self->test_cancellable,
                                      on_stored_token_cb, g_object_ref (self));
  else
    editor_start_test (self, token);
}

static void
editor_add_test_group (TandemAgentEditor       *self,
                       AdwPreferencesPage      *page)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Test Connection"));

  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "editor.test-connection");
  adw_preferences_group_add (group, button);

  self->test_result = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->test_result, TRUE);
  gtk_label_set_wrap_mode (self->test_result, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->test_result, TRUE);
  gtk_label_set_xalign (self->test_result, 0);
  gtk_widget_set_margin_top (GTK_WIDGET (self->test_result), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->test_result), FALSE);
  adw_preferences_group_add (group, GTK_WIDGET (self->test_result));

  adw_preferences_page_add (page, group);
}

/**
 * tandem_agent_editor_create_agent:
 * @self: an agent editor, filled in
 * @for_test: whether for Test Connection, for which the name may still
 *   be missing
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the agent as the editor's fields
 *   say; %NULL, with the fields at fault marked and the first problem in
 *   @error, when they do not make one
 */
TandemAgent *
tandem_agent_editor_create_agent (TandemAgentEditor  *self,
                                  gboolean            for_test,
                                  GError            **error)
{
  g_autoptr(GStrvBuilder) headers_builder = g_strv_builder_new ();
  g_auto(GStrv) headers = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *url = NULL;
  g_autofree char *id = NULL;
  gboolean valid = TRUE;
  int frame_mib;

  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);
  g_return_val_if_fail (self->name_row != NULL, NULL);

  gtk_widget_set_visible (GTK_WIDGET (self->editor_error), FALSE);

  name = dup_stripped_text (GTK_EDITABLE (self->name_row));
  url = dup_stripped_text (GTK_EDITABLE (self->url_row));

  if (!for_test && !tandem_agents_check_name (name, &local_error))
    {
      set_field_error (self, GTK_WIDGET (self->name_row), local_error->message, valid);
      valid = FALSE;
      g_propagate_error (error, g_steal_pointer (&local_error));
    }

  if (!tandem_agents_check_url (url, &local_error))
    {
      set_field_error (self, GTK_WIDGET (self->url_row), local_error->message, valid);
      if (valid)
        g_propagate_error (error, g_steal_pointer (&local_error));
      valid = FALSE;
      g_clear_error (&local_error);
    }

  for (guint i = 0; i < self->header_rows->len; i++)
    {
      HeaderRow *header = g_ptr_array_index (self->header_rows, i);
      g_autofree char *header_name = dup_stripped_text (header->name);
      g_autofree char *header_value = dup_stripped_text (header->value);
      g_autofree char *line = NULL;

      if (header_name[0] == '\0' && header_value[0] == '\0')
        continue;

      if (!tandem_agents_check_header (header_name, header_value, &local_error))
        {
          GtkEditable *field = header->name;

          if (tandem_agents_check_header (header_name, "", NULL))
            field = header->value;

          set_field_error (self, GTK_WIDGET (field), local_error->message, valid);
          if (valid)
            g_propagate_error (error, g_steal_pointer (&local_error));
          valid = FALSE;
          g_clear_error (&local_error);
          continue;
        }

      line = g_strdup_printf ("%s: %s", header_name, header_value);
      g_strv_builder_add (headers_builder, line);
    }

  if (!valid)
    return NULL;

  id = self->editor_id ? g_strdup (self->editor_id) : g_uuid_string_random ();
  headers = g_strv_builder_end (headers_builder);
  gtk_spin_button_update (self->idle_timeout_spin);
  gtk_spin_button_update (self->max_frame_spin);
  frame_mib = gtk_spin_button_get_value_as_int (self->max_frame_spin);
  if (tandem_openai_editor_is_openai (self->openai))
    {
      GtkWidget *bad_field = NULL;

      agent = tandem_openai_editor_create_agent (self->openai, id, name, url, (const char * const *) headers,
                                                 gtk_spin_button_get_value_as_int (self->idle_timeout_spin),
                                                 &bad_field, &local_error);
      if (agent == NULL)
        {
          set_field_error (self, bad_field, local_error->message, TRUE);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }
  else
    {
      agent = tandem_agent_new_full (id, name, url, (const char * const *) headers,
                                     gtk_spin_button_get_value_as_int (self->idle_timeout_spin),
                                     /* The default is kept as "default", so that it follows the library's. */
                                     (gsize) frame_mib * MIB == AGUI_HTTP_DEFAULT_MAX_FRAME_SIZE ? 0 : (gsize) frame_mib * MIB);
    }
  if (!tandem_agent_is_openai (agent) &&
      adw_combo_row_get_selected (self->encoding_row) == AGUI_HTTP_ENCODING_PROTOBUF)
    {
      TandemAgent *binary = tandem_agent_with_encoding (agent, AGUI_HTTP_ENCODING_PROTOBUF);

      g_object_unref (agent);
      agent = binary;
    }

  return g_steal_pointer (&agent);
}

/**
 * tandem_agent_editor_set_agent:
 * @self: an agent editor
 * @agent: (nullable): the agent to edit, or %NULL to add one
 *
 * Fills the editor in anew, for @agent, in place of what it showed.
 */
void
tandem_agent_editor_set_agent (TandemAgentEditor *self,
                               TandemAgent       *agent)
{
  GtkWidget *header_bar;
  GtkWidget *back;
  GtkWidget *save;
  GtkWidget *page;
  GtkWidget *add;
  GtkWidget *child;
  AdwPreferencesGroup *group;
  AdwPreferencesGroup *kind_group;
  AdwPreferencesGroup *token_group;

  g_return_if_fail (TANDEM_IS_AGENT_EDITOR (self));
  g_return_if_fail (agent == NULL || TANDEM_IS_AGENT (agent));

  tandem_agent_editor_clear (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_box_remove (GTK_BOX (self), child);

  self->editor_id = agent ? g_strdup (tandem_agent_get_id (agent)) : NULL;
  self->header_rows = g_ptr_array_new_with_free_func (g_free);

  header_bar = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header_bar),
                                   adw_window_title_new (agent ? _("Edit Agent") : _("Add Agent"), NULL));
  back = gtk_button_new_from_icon_name ("go-previous-symbolic");
  gtk_widget_set_tooltip_text (back, _("Back"));
  tandem_accessible_set_label (back, _("Back"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (back), "editor.cancel");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header_bar), back);
  save = gtk_button_new_with_mnemonic (_("_Save"));
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (save), "editor.save");
  adw_header_bar_pack_end (ADW_HEADER_BAR (header_bar), save);
  gtk_box_append (GTK_BOX (self), header_bar);

  page = adw_preferences_page_new ();
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (self), page);

  /* First what kind of agent it is: the rest follows from it. */
  kind_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), kind_group);
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), group);
  self->name_row = create_entry_row (group, adw_entry_row_new (), _("_Name"),
                                     agent ? tandem_agent_get_name (agent) : NULL);
  self->url_row = create_entry_row (group, adw_entry_row_new (), _("_URL"),
                                    agent ? tandem_agent_get_url (agent) : NULL);
  gtk_editable_set_enable_undo (GTK_EDITABLE (self->url_row), TRUE);
  adw_entry_row_set_input_purpose (self->url_row, GTK_INPUT_PURPOSE_URL);
  adw_entry_row_set_activates_default (self->name_row, TRUE);

  self->editor_error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->editor_error, TRUE);
  gtk_label_set_xalign (self->editor_error, 0);
  gtk_widget_set_margin_top (GTK_WIDGET (self->editor_error), 12);
  gtk_widget_add_css_class (GTK_WIDGET (self->editor_error), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->editor_error), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->editor_error),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Error"),
                                  -1);
  adw_preferences_group_add (group, GTK_WIDGET (self->editor_error));

  /* A model on an OpenAI-compatible server: its group comes after the
   * name and URL; what only an AG-UI agent has hides while it is one. */
  self->openai = tandem_openai_editor_new (ADW_PREFERENCES_PAGE (page), kind_group,
                                           self->url_row, self->agents, agent);

  token_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (token_group, _("Authentication"));
  adw_preferences_group_set_description (token_group,
                                         agent
                                         ? _("The token is kept in your keyring and sent as “Authorization: Bearer”. Leave it empty to keep the token already stored.")
                                         : _("The token is kept in your keyring and sent as “Authorization: Bearer”."));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), token_group);
  self->token_row = ADW_PASSWORD_ENTRY_ROW (create_entry_row (token_group, adw_password_entry_row_new (),
                                                              _("Bearer _Token (optional)"), NULL));
  if (agent != NULL)
    {
      GtkWidget *forget = gtk_button_new_with_mnemonic (_("_Forget Stored Token"));

      gtk_widget_set_halign (forget, GTK_ALIGN_START);
      gtk_widget_set_margin_top (forget, 12);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (forget), "editor.forget-token");
      adw_preferences_group_add (token_group, forget);
    }

  tandem_openai_editor_set_token_row (self->openai, self->token_row);
  editor_add_test_group (self, ADW_PREFERENCES_PAGE (page));
  editor_add_connection_group (self, ADW_PREFERENCES_PAGE (page), agent);
  tandem_openai_editor_add_agui_only (self->openai,
                                      gtk_widget_get_ancestor (GTK_WIDGET (self->test_result), ADW_TYPE_PREFERENCES_GROUP));
  tandem_openai_editor_add_agui_only (self->openai,
                                      gtk_widget_get_ancestor (GTK_WIDGET (self->max_frame_spin), ADW_TYPE_ACTION_ROW));
  tandem_openai_editor_add_agui_only (self->openai, GTK_WIDGET (self->encoding_row));

  self->headers_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->headers_group, _("Extra Headers"));
  adw_preferences_group_set_description (self->headers_group,
                                         _("Sent with every request, for example for an API gateway."));
  add = gtk_button_new_from_icon_name ("list-add-symbolic");
  gtk_widget_add_css_class (add, "flat");
  gtk_widget_set_tooltip_text (add, _("Add Header"));
  tandem_accessible_set_label (add, _("Add header"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "editor.add-header");
  adw_preferences_group_set_header_suffix (self->headers_group, add);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->headers_group);

  if (agent != NULL)
    {
      const char * const *headers = tandem_agent_get_headers (agent);

      for (guint i = 0; headers[i] != NULL; i++)
        {
          const char *colon = strchr (headers[i], ':');
          g_autofree char *name = NULL;
          g_autofree char *value = NULL;

          if (colon == NULL)
            continue;

          name = g_strndup (headers[i], colon - headers[i]);
          value = g_strstrip (g_strdup (colon + 1));
          tandem_agent_editor_add_header (self, name, value);
        }
    }
}

/* GObject */

static void
tandem_agent_editor_dispose (GObject *object)
{
  TandemAgentEditor *self = TANDEM_AGENT_EDITOR (object);

  tandem_agent_editor_clear (self);
  g_clear_object (&self->agents);

  G_OBJECT_CLASS (tandem_agent_editor_parent_class)->dispose (object);
}

static void
tandem_agent_editor_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TandemAgentEditor *self = TANDEM_AGENT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_AGENTS:
      g_value_set_object (value, self->agents);
      break;

    case PROP_TESTING:
      g_value_set_boolean (value, tandem_agent_editor_get_testing (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_editor_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TandemAgentEditor *self = TANDEM_AGENT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_AGENTS:
      self->agents = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_editor_class_init (TandemAgentEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_agent_editor_dispose;
  object_class->get_property = tandem_agent_editor_get_property;
  object_class->set_property = tandem_agent_editor_set_property;

  /**
   * TandemAgentEditor:agents:
   *
   * The agents, which check the fields and keep the tokens Test
   * Connection reads.
   */
  properties[PROP_AGENTS] =
    g_param_spec_object ("agents", NULL, NULL, TANDEM_TYPE_AGENTS,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemAgentEditor:testing:
   *
   * Whether Test Connection is under way.
   */
  properties[PROP_TESTING] =
    g_param_spec_boolean ("testing", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tandem_agent_editor_init (TandemAgentEditor *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
}

/**
 * tandem_agent_editor_new:
 * @agents: the agents
 *
 * Returns: (transfer floating): an editor, to be filled in with
 *   tandem_agent_editor_set_agent()
 */
GtkWidget *
tandem_agent_editor_new (TandemAgents *agents)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (agents), NULL);

  return g_object_new (TANDEM_TYPE_AGENT_EDITOR,
                       "agents", agents,
                       NULL);
}

/**
 * tandem_agent_editor_is_filled:
 * @self: an agent editor
 *
 * Returns: whether the editor is filled in, from
 *   tandem_agent_editor_set_agent() until tandem_agent_editor_clear()
 */
gboolean
tandem_agent_editor_is_filled (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), FALSE);

  return self->name_row != NULL;
}

/**
 * tandem_agent_editor_get_agent_id:
 * @self: an agent editor
 *
 * Returns: (nullable): the id of the agent edited, %NULL for a new one
 */
const char *
tandem_agent_editor_get_agent_id (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);

  return self->editor_id;
}

gboolean
tandem_agent_editor_get_testing (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), FALSE);

  return self->test_cancellable != NULL;
}

/**
 * tandem_agent_editor_show_error:
 * @self: an agent editor, filled in
 * @message: what went wrong
 *
 * Shows @message where the editor shows what is wrong with its fields.
 */
void
tandem_agent_editor_show_error (TandemAgentEditor *self,
                                const char        *message)
{
  g_return_if_fail (TANDEM_IS_AGENT_EDITOR (self));
  g_return_if_fail (self->editor_error != NULL);

  gtk_label_set_text (self->editor_error, message);
  gtk_widget_set_visible (GTK_WIDGET (self->editor_error), TRUE);
}

/**
 * tandem_agent_editor_get_field:
 * @self: an agent editor
 * @field: "name", "url", "token", "idle-timeout", "max-frame-size", or for
 *   a model server "model", "system-prompt" or "temperature"
 *
 * Returns: (transfer none) (nullable): the field, if the editor is filled in
 */
GtkEditable *
tandem_agent_editor_get_field (TandemAgentEditor *self,
                               const char        *field)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);
  g_return_val_if_fail (field != NULL, NULL);

  if (self->name_row == NULL)
    return NULL;

  if (g_str_equal (field, "name"))
    return GTK_EDITABLE (self->name_row);
  if (g_str_equal (field, "url"))
    return GTK_EDITABLE (self->url_row);
  if (g_str_equal (field, "token"))
    return GTK_EDITABLE (self->token_row);
  if (g_str_equal (field, "idle-timeout"))
    return GTK_EDITABLE (self->idle_timeout_spin);
  if (g_str_equal (field, "max-frame-size"))
    return GTK_EDITABLE (self->max_frame_spin);
  if (tandem_openai_editor_get_field (self->openai, field) != NULL)
    return tandem_openai_editor_get_field (self->openai, field);

  g_return_val_if_reached (NULL);
}

/**
 * tandem_agent_editor_get_encoding:
 * @self: an agent editor
 *
 * Returns: (transfer none) (nullable): the encoding row, whose selection
 *   is an #AguiHttpEncoding, if the editor is filled in
 */
AdwComboRow *
tandem_agent_editor_get_encoding (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);

  return self->encoding_row;
}

/**
 * tandem_agent_editor_get_error:
 * @self: an agent editor
 *
 * Returns: (nullable): the error the editor shows, if any
 */
const char *
tandem_agent_editor_get_error (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);

  if (self->editor_error == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->editor_error)))
    return NULL;

  return gtk_label_get_text (self->editor_error);
}

/**
 * tandem_agent_editor_get_connection_result:
 * @self: an agent editor
 *
 * Returns: (nullable): what Test Connection found, once it is done
 */
const char *
tandem_agent_editor_get_connection_result (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);

  /* Still connecting while the cancellable is there */
  if (self->test_result == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->test_result)) ||
      self->test_cancellable != NULL)
    return NULL;

  return gtk_label_get_text (self->test_result);
}

/**
 * tandem_agent_editor_get_openai:
 * @self: an agent editor
 *
 * Returns: (transfer none) (nullable): the model server part, if the
 *   editor is filled in
 */
TandemOpenaiEditor *
tandem_agent_editor_get_openai (TandemAgentEditor *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_EDITOR (self), NULL);

  return self->openai;
}
