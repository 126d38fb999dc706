/* tandem-openai-editor.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-openai-editor.h"

/* The part of the agent editor for a model on an OpenAI-compatible
 * server: which kind of agent it is, a preset for the usual local
 * servers, the model (typed, or chosen from what the server lists), a
 * system prompt and a temperature. The preferences window owns it for as
 * long as its editor is open; the widgets belong to the editor's page. */

struct _TandemOpenaiEditor
{
  TandemAgents        *agents;
  char                *agent_id;      /* the agent edited, NULL for a new one */
  GCancellable        *cancellable;

  AdwEntryRow         *url_row;
  AdwPasswordEntryRow *token_row;
  AdwComboRow         *kind_row;
  AdwPreferencesGroup *group;
  AdwComboRow         *preset_row;
  AdwEntryRow         *model_row;
  AdwComboRow         *models_row;
  GtkStringList       *models;
  GtkLabel            *status;
  AdwEntryRow         *system_prompt_row;
  AdwEntryRow         *temperature_row;
  GPtrArray           *agui_only;
  gulong               models_selected_id;
  gboolean             refreshing;
};

enum { KIND_AGUI, KIND_OPENAI };

typedef struct
{
  const char *name;
  const char *base_url;
} Preset;

static const Preset presets[] = {
  /* Names of programs, not translated */
  { "Ollama", "http://localhost:11434/v1" },
  { "llama.cpp", "http://localhost:8080/v1" },
  { "LM Studio", "http://localhost:1234/v1" },
};

static void
set_status (TandemOpenaiEditor *self,
            const char         *text,
            gboolean            error)
{
  gtk_label_set_text (self->status, text);
  gtk_widget_set_visible (GTK_WIDGET (self->status), text != NULL && text[0] != '\0');
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
}

static void
update_kind (TandemOpenaiEditor *self)
{
  gboolean openai = tandem_openai_editor_is_openai (self);

  gtk_widget_set_visible (GTK_WIDGET (self->group), openai);
  for (guint i = 0; i < self->agui_only->len; i++)
    gtk_widget_set_visible (g_ptr_array_index (self->agui_only, i), !openai);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->url_row),
                                 openai ? _("_Base URL") : _("_URL"));
  if (self->token_row != NULL)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->token_row),
                                   openai ? _("API _Key (optional)") : _("Bearer _Token (optional)"));
}

static void
on_kind_selected_cb (TandemOpenaiEditor *self)
{
  update_kind (self);
}

static void
on_preset_selected_cb (TandemOpenaiEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->preset_row);

  /* The first entry is "Custom": the URL as typed. */
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > G_N_ELEMENTS (presets))
    return;

  gtk_editable_set_text (GTK_EDITABLE (self->url_row), presets[selected - 1].base_url);
  tandem_openai_editor_refresh_models (self);
}

/* A URL typed by hand is no preset's any more. */
static void
on_url_changed_cb (TandemOpenaiEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->preset_row);

  if (selected > 0 && selected <= G_N_ELEMENTS (presets) &&
      g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), presets[selected - 1].base_url) != 0)
    adw_combo_row_set_selected (self->preset_row, 0);
}

static void
on_model_chosen_cb (TandemOpenaiEditor *self)
{
  GtkStringObject *item = adw_combo_row_get_selected_item (self->models_row);

  if (item != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->model_row), gtk_string_object_get_string (item));
}

static void
refresh_done (TandemOpenaiEditor  *self,
              char               **models,
              const GError        *error)
{
  const char *current = gtk_editable_get_text (GTK_EDITABLE (self->model_row));
  guint n = models ? g_strv_length (models) : 0;
  guint position = GTK_INVALID_LIST_POSITION;

  self->refreshing = FALSE;

  if (error != NULL)
    {
      set_status (self, error->message, TRUE);
      return;
    }

  g_signal_handler_block (self->models_row, self->models_selected_id);
  gtk_string_list_splice (self->models, 0, g_list_model_get_n_items (G_LIST_MODEL (self->models)),
                          (const char * const *) models);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (models[i], current) == 0)
      position = i;
  adw_combo_row_set_selected (self->models_row, position);
  g_signal_handler_unblock (self->models_row, self->models_selected_id);
  gtk_widget_set_visible (GTK_WIDGET (self->models_row), n > 0);

  if (n == 0)
    {
      set_status (self, _("The server lists no models: download one first (for Ollama, “ollama pull llama3.2”)"), TRUE);
      return;
    }

  /* Nothing chosen yet: the first is a fine start. */
  if (current[0] == '\0')
    {
      adw_combo_row_set_selected (self->models_row, 0);
      gtk_editable_set_text (GTK_EDITABLE (self->model_row), models[0]);
    }

  {
    g_autofree char *text = g_strdup_printf (ngettext ("The server offers %u model", "The server offers %u models", n), n);

    set_status (self, text, FALSE);
  }
}

static void
on_models_listed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  TandemOpenaiEditor *self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;

  models = agui_openai_agent_list_models_finish (AGUI_OPENAI_AGENT (object), result, &error);
  /* The editor is gone: self is too. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  refresh_done (self, models, error);
}

static void
list_models (TandemOpenaiEditor *self,
             const char         *api_key)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  g_autoptr(AguiOpenaiAgent) agent = NULL;
  g_autoptr(GError) error = NULL;

  agent = g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, &error,
                          "base-url", url,
                          "api-key", api_key,
                          "idle-timeout", 30000,
                          NULL);
  if (agent == NULL)
    {
      refresh_done (self, NULL, error);
      return;
    }

  agui_openai_agent_list_models_async (agent, self->cancellable, on_models_listed_cb, self);
}

static void
on_token_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  TandemOpenaiEditor *self = user_data;
  g_autoptr(GError) error = NULL;
  char *token;

  token = tandem_agents_lookup_token_finish (TANDEM_AGENTS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  list_models (self, token);
  if (token != NULL)
    secret_password_free (token);
}

/**
 * tandem_openai_editor_refresh_models:
 * @self: the editor
 *
 * Asks the server at the typed base URL for its models, with the typed
 * API key, or the stored one when the field is left empty.
 */
void
tandem_openai_editor_refresh_models (TandemOpenaiEditor *self)
{
  const char *typed_key = self->token_row ? gtk_editable_get_text (GTK_EDITABLE (self->token_row)) : "";

  g_return_if_fail (self != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->refreshing = TRUE;
  set_status (self, _("Asking the server for its models…"), FALSE);

  if (typed_key[0] == '\0' && self->agent_id != NULL)
    tandem_agents_lookup_token_async (self->agents, self->agent_id, self->cancellable,
                                      on_token_looked_up_cb, self);
  else
    list_models (self, typed_key[0] ? typed_key : NULL);
}

static void
on_refresh_clicked_cb (TandemOpenaiEditor *self)
{
  tandem_openai_editor_refresh_models (self);
}

static AdwEntryRow *
add_entry_row (AdwPreferencesGroup *group,
               const char          *title,
               const char          *text)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (row), text ? text : "");
  adw_preferences_group_add (group, row);

  return ADW_ENTRY_ROW (row);
}

static void
on_setup_item_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
on_bind_item_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static AdwComboRow *
add_combo_row (AdwPreferencesGroup *group,
               const char          *title,
               const char          *subtitle,
               GListModel          *model)
{
  GtkWidget *row = adw_combo_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), model);
  /* The default popup cuts a choice such as "OpenAI-compatible Server" short. */
  {
    g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

    g_signal_connect (factory, "setup", G_CALLBACK (on_setup_item_cb), NULL);
    g_signal_connect (factory, "bind", G_CALLBACK (on_bind_item_cb), NULL);
    adw_combo_row_set_list_factory (ADW_COMBO_ROW (row), factory);
  }
  adw_preferences_group_add (group, row);

  return ADW_COMBO_ROW (row);
}

/**
 * tandem_openai_editor_new:
 * @page: the editor's page, which gets the model server's group
 * @group: the editor's first group, which gets the kind row (call this
 *   before adding the others)
 * @url_row: the URL field, which presets fill
 * @agents: the agents, for a stored key
 * @agent: (nullable): the agent edited
 *
 * Returns: (transfer full): the editor's model server part
 */
TandemOpenaiEditor *
tandem_openai_editor_new (AdwPreferencesPage  *page,
                          AdwPreferencesGroup *group,
                          AdwEntryRow         *url_row,
                          TandemAgents        *agents,
                          TandemAgent         *agent)
{
  TandemOpenaiEditor *self = g_new0 (TandemOpenaiEditor, 1);
  g_autoptr(GtkStringList) kinds = NULL;
  g_autoptr(GtkStringList) preset_names = NULL;
  GtkWidget *refresh;
  gboolean openai = agent != NULL && tandem_agent_is_openai (agent);
  guint preset = 0;

  self->agents = g_object_ref (agents);
  self->agent_id = agent ? g_strdup (tandem_agent_get_id (agent)) : NULL;
  self->cancellable = g_cancellable_new ();
  self->url_row = url_row;
  self->agui_only = g_ptr_array_new ();

  {
    const char * const names[] = { _("AG-UI Agent"), _("OpenAI-compatible Server"), NULL };

    kinds = gtk_string_list_new (names);
  }
  self->kind_row = add_combo_row (group, _("_Kind"), NULL, G_LIST_MODEL (kinds));
  /* As the subtitle the choice has the row's width, not a corner of it. */
  adw_combo_row_set_use_subtitle (self->kind_row, TRUE);
  adw_combo_row_set_selected (self->kind_row, openai ? KIND_OPENAI : KIND_AGUI);

  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("Model Server"));
  adw_preferences_group_set_description (self->group,
                                         _("Tandem runs the conversation and offers the model the desktop's tools, "
                                           "asking you before any of them acts."));
  adw_preferences_page_add (page, self->group);

  preset_names = gtk_string_list_new (NULL);
  gtk_string_list_append (preset_names, _("Custom"));
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      gtk_string_list_append (preset_names, presets[i].name);
      if (agent != NULL && g_strcmp0 (tandem_agent_get_url (agent), presets[i].base_url) == 0)
        preset = i + 1;
    }
  self->preset_row = add_combo_row (self->group, _("_Server"), _("Fills in the base URL"), G_LIST_MODEL (preset_names));
  adw_combo_row_set_selected (self->preset_row, preset);

  self->model_row = add_entry_row (self->group, _("_Model"), openai ? tandem_agent_get_model (agent) : NULL);
  refresh = gtk_button_new_from_icon_name ("view-refresh-symbolic");
  gtk_widget_add_css_class (refresh, "flat");
  gtk_widget_set_valign (refresh, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (refresh, _("Refresh the Models"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (refresh), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Refresh the models"), -1);
  g_signal_connect_swapped (refresh, "clicked", G_CALLBACK (on_refresh_clicked_cb), self);
  adw_entry_row_add_suffix (self->model_row, refresh);

  self->models = gtk_string_list_new (NULL);
  self->models_row = add_combo_row (self->group, _("Models on the Server"), NULL, G_LIST_MODEL (self->models));
  gtk_widget_set_visible (GTK_WIDGET (self->models_row), FALSE);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_margin_top (GTK_WIDGET (self->status), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  adw_preferences_group_add (self->group, GTK_WIDGET (self->status));

  self->system_prompt_row = add_entry_row (self->group, _("S_ystem Prompt"),
                                           openai ? tandem_agent_get_system_prompt (agent) : NULL);
  {
    g_autofree char *temperature = NULL;

    if (openai && tandem_agent_get_temperature (agent) >= 0)
      {
        char buffer[G_ASCII_DTOSTR_BUF_SIZE];

        temperature = g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.2g", tandem_agent_get_temperature (agent)));
      }
    self->temperature_row = add_entry_row (self->group, _("_Temperature (0 to 2, empty for the server’s default)"),
                                           temperature);
  }

  g_signal_connect_swapped (self->kind_row, "notify::selected", G_CALLBACK (on_kind_selected_cb), self);
  g_signal_connect_swapped (self->preset_row, "notify::selected", G_CALLBACK (on_preset_selected_cb), self);
  g_signal_connect_swapped (self->url_row, "changed", G_CALLBACK (on_url_changed_cb), self);
  self->models_selected_id = g_signal_connect_swapped (self->models_row, "notify::selected",
                                                       G_CALLBACK (on_model_chosen_cb), self);
  /* The rows may go with the page before the editor part is freed. */
  g_object_add_weak_pointer (G_OBJECT (self->kind_row), (gpointer *) &self->kind_row);
  g_object_add_weak_pointer (G_OBJECT (self->preset_row), (gpointer *) &self->preset_row);
  g_object_add_weak_pointer (G_OBJECT (self->models_row), (gpointer *) &self->models_row);
  g_object_add_weak_pointer (G_OBJECT (self->url_row), (gpointer *) &self->url_row);
  update_kind (self);

  return self;
}

void
tandem_openai_editor_free (TandemOpenaiEditor *self)
{
  if (self == NULL)
    return;

  /* Pending answers see the cancellation and leave self alone. */
  g_cancellable_cancel (self->cancellable);
  if (self->kind_row != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->kind_row, self);
      g_object_remove_weak_pointer (G_OBJECT (self->kind_row), (gpointer *) &self->kind_row);
    }
  if (self->preset_row != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->preset_row, self);
      g_object_remove_weak_pointer (G_OBJECT (self->preset_row), (gpointer *) &self->preset_row);
    }
  if (self->models_row != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->models_row, self);
      g_object_remove_weak_pointer (G_OBJECT (self->models_row), (gpointer *) &self->models_row);
    }
  if (self->url_row != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->url_row, self);
      g_object_remove_weak_pointer (G_OBJECT (self->url_row), (gpointer *) &self->url_row);
    }
  g_clear_object (&self->cancellable);
  g_clear_object (&self->agents);
  g_clear_object (&self->models);
  g_clear_pointer (&self->agui_only, g_ptr_array_unref);
  g_free (self->agent_id);
  g_free (self);
}

/**
 * tandem_openai_editor_set_token_row:
 * @self: the editor
 * @token_row: the token field, which is the API key for a model server
 *
 * Called once the authentication group, which comes after the model
 * server's, is made.
 */
void
tandem_openai_editor_set_token_row (TandemOpenaiEditor  *self,
                                    AdwPasswordEntryRow *token_row)
{
  g_return_if_fail (self != NULL);

  self->token_row = token_row;
  update_kind (self);
}

/**
 * tandem_openai_editor_add_agui_only:
 * @self: the editor
 * @widget: a part of the editor that only an AG-UI agent has
 *
 * Hides @widget while the agent is a model server.
 */
void
tandem_openai_editor_add_agui_only (TandemOpenaiEditor *self,
                                    GtkWidget          *widget)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (GTK_IS_WIDGET (widget));

  g_ptr_array_add (self->agui_only, widget);
  gtk_widget_set_visible (widget, !tandem_openai_editor_is_openai (self));
}

gboolean
tandem_openai_editor_is_openai (TandemOpenaiEditor *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return adw_combo_row_get_selected (self->kind_row) == KIND_OPENAI;
}

void
tandem_openai_editor_set_openai (TandemOpenaiEditor *self,
                                 gboolean            openai)
{
  g_return_if_fail (self != NULL);

  adw_combo_row_set_selected (self->kind_row, openai ? KIND_OPENAI : KIND_AGUI);
}

/* 0 is Custom; then the presets in order. */
void
tandem_openai_editor_select_preset (TandemOpenaiEditor *self,
                                    guint               position)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (position <= G_N_ELEMENTS (presets));

  adw_combo_row_set_selected (self->preset_row, position);
}

gboolean
tandem_openai_editor_get_refreshing (TandemOpenaiEditor *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->refreshing;
}

GListModel *
tandem_openai_editor_get_models (TandemOpenaiEditor *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return G_LIST_MODEL (self->models);
}

const char *
tandem_openai_editor_get_status (TandemOpenaiEditor *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->status)) ? gtk_label_get_text (self->status) : NULL;
}

/* "model", "system-prompt" or "temperature" */
GtkEditable *
tandem_openai_editor_get_field (TandemOpenaiEditor *self,
                                const char         *field)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (g_str_equal (field, "model"))
    return GTK_EDITABLE (self->model_row);
  if (g_str_equal (field, "system-prompt"))
    return GTK_EDITABLE (self->system_prompt_row);
  if (g_str_equal (field, "temperature"))
    return GTK_EDITABLE (self->temperature_row);

  return NULL;
}

/**
 * tandem_openai_editor_create_agent:
 * @self: the editor
 * @id: the agent's id
 * @name: its name
 * @base_url: the base URL as typed
 * @headers: (nullable) (array zero-terminated=1): extra headers
 * @idle_timeout: in seconds
 * @bad_field: (out) (transfer none): the field at fault, on failure
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the agent, or %NULL when the model
 *   is missing or the temperature is no number from 0 to 2
 */
TandemAgent *
tandem_openai_editor_create_agent (TandemOpenaiEditor  *self,
                                   const char          *id,
                                   const char          *name,
                                   const char          *base_url,
                                   const char * const  *headers,
                                   guint                idle_timeout,
                                   GtkWidget          **bad_field,
                                   GError             **error)
{
  g_autofree char *model = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->model_row))));
  g_autofree char *prompt = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->system_prompt_row))));
  g_autofree char *temperature_text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->temperature_row))));
  double temperature = -1.0;

  g_return_val_if_fail (self != NULL, NULL);

  if (model[0] == '\0')
    {
      *bad_field = GTK_WIDGET (self->model_row);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Choose a model: refresh the list to see what the server offers"));
      return NULL;
    }

  if (temperature_text[0] != '\0')
    {
      char *end = NULL;

      /* A comma is a decimal separator in many languages. */
      g_strdelimit (temperature_text, ",", '.');
      temperature = g_ascii_strtod (temperature_text, &end);
      if (end == temperature_text || *end != '\0' || temperature < 0 || temperature > 2)
        {
          *bad_field = GTK_WIDGET (self->temperature_row);
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("The temperature is a number from 0 to 2, or empty for the server’s default"));
          return NULL;
        }
    }

  return tandem_agent_new_openai (id, name, base_url, headers, model, prompt, temperature, idle_timeout);
}
