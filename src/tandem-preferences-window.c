/* tandem-preferences-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-connection-test.h"
#include "tandem-openai-editor.h"
#include "tandem-preferences-window.h"
#include "tandem-toaster.h"

#define MIB (1024 * 1024)

/* A row of the agent list: the agent, and the check button that makes it
 * the one new conversations use. */

#define TANDEM_TYPE_AGENT_ROW (tandem_agent_row_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgentRow, tandem_agent_row, TANDEM, AGENT_ROW, AdwActionRow)

struct _TandemAgentRow
{
  AdwActionRow    parent_instance;
  TandemAgent    *agent;
  GtkCheckButton *check;
};

G_DEFINE_FINAL_TYPE (TandemAgentRow, tandem_agent_row, ADW_TYPE_ACTION_ROW)

static void
tandem_agent_row_dispose (GObject *object)
{
  TandemAgentRow *self = TANDEM_AGENT_ROW (object);

  g_clear_object (&self->agent);

  G_OBJECT_CLASS (tandem_agent_row_parent_class)->dispose (object);
}

static void
tandem_agent_row_class_init (TandemAgentRowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tandem_agent_row_dispose;
}

static void
tandem_agent_row_init (TandemAgentRow *self)
{
}

/* One extra header in the editor. The widgets are owned by the group. */
typedef struct
{
  GtkWidget   *row;
  GtkEditable *name;
  GtkEditable *value;
} HeaderRow;

struct _TandemPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  TandemAgents         *agents;
  TandemToaster        *toaster;

  /* Template widgets */
  GtkListBox           *agent_list;
  /* Every row's check button joins this one, never shown, so each is a
   * radio button however many agents there are: a lone check box would
   * read as "on or off" rather than "this one of them" */
  GtkCheckButton       *agent_group;

  /* The editor subpage, while one is open. */
  GtkWidget            *editor;
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

  /* An editor asked for while the last one is still closing. */
  guint                 pending_open_id;
  char                 *pending_agent_id;

  /* The token Forget Stored Token removed, while its toast offers Undo */
  char                 *forgotten_id;
  char                 *forgotten_token;
  AdwToast             *forgotten_toast;
};

G_DEFINE_FINAL_TYPE (TandemPreferencesWindow, tandem_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_AGENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

static AdwToast *
new_toast (const char *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);

  return toast;
}

/* Every toast goes through the toaster (libadwaita 1.2 frees what a
 * replaced toast still animates); a closed window shows none */
static void
add_toast (TandemPreferencesWindow *self,
           AdwToast                *toast)
{
  if (self->toaster == NULL)
    {
      g_object_unref (toast);
      return;
    }

  tandem_toaster_add (self->toaster, toast);
}

static void
show_toast (TandemPreferencesWindow *self,
            const char              *message)
{
  add_toast (self, new_toast (message));
}

static void
on_check_toggled_cb (GtkCheckButton *check,
                     TandemAgentRow *row)
{
  TandemPreferencesWindow *self;
  GtkRoot *root;

  if (!gtk_check_button_get_active (check))
    return;

  root = gtk_widget_get_root (GTK_WIDGET (row));
  if (!TANDEM_IS_PREFERENCES_WINDOW (root))
    return;

  self = TANDEM_PREFERENCES_WINDOW (root);
  tandem_agents_set_active_id (self->agents, tandem_agent_get_id (row->agent));
}

static GtkWidget *
create_icon_button (const char *icon_name,
                    const char *tooltip,
                    const char *accessible_label,
                    const char *action_name,
                    const char *id)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, tooltip);
  set_accessible_label (button, accessible_label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);

  return button;
}

static GtkWidget *
create_agent_row_cb (gpointer item,
                     gpointer user_data)
{
  TandemPreferencesWindow *self = user_data;
  TandemAgent *agent = item;
  TandemAgentRow *row = g_object_new (TANDEM_TYPE_AGENT_ROW, NULL);
  const char *id = tandem_agent_get_id (agent);
  const char *name = tandem_agent_get_name (agent);
  g_autofree char *use_label = g_strdup_printf (_("Use “%s” for new conversations"), name);

  row->agent = g_object_ref (agent);

  /* Names and URLs are the person's text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);

  row->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  gtk_widget_set_valign (GTK_WIDGET (row->check), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->check), _("Use for new conversations"));
  set_accessible_label (GTK_WIDGET (row->check), use_label);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), GTK_WIDGET (row->check));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), GTK_WIDGET (row->check));
  /* The row makes its title name the check box too, which would read
   * "Use “Demo” for new conversations Demo": the label above says it all */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (row->check), GTK_ACCESSIBLE_RELATION_LABELLED_BY);

  if (tandem_agent_is_demo (agent))
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("Runs inside Tandem, with no server or account; good for trying things out"));
    }
  else
    {
      g_autofree char *edit_label = g_strdup_printf (_("Edit “%s”"), name);
      g_autofree char *remove_label = g_strdup_printf (_("Remove “%s”"), name);

      if (tandem_agent_is_openai (agent))
        {
          /* Translators: a model's name on a server's base URL, such as
           * "llama3.2 on http://localhost:11434/v1" */
          g_autofree char *subtitle = g_strdup_printf (_("%s on %s"), tandem_agent_get_model (agent),
                                                       tandem_agent_get_url (agent));

          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
        }
      else
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), tandem_agent_get_url (agent));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 create_icon_button ("document-edit-symbolic", _("Edit"),
                                                     edit_label, "agents.edit", id));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 create_icon_button ("user-trash-symbolic", _("Remove"),
                                                     remove_label, "agents.remove", id));
    }

  gtk_check_button_set_group (row->check, self->agent_group);

  gtk_check_button_set_active (row->check,
                               g_strcmp0 (id, tandem_agents_get_active_id (self->agents)) == 0);
  g_signal_connect (row->check, "toggled", G_CALLBACK (on_check_toggled_cb), row);

  return GTK_WIDGET (row);
}

static void
on_active_id_changed_cb (TandemPreferencesWindow *self)
{
  const char *active_id = tandem_agents_get_active_id (self->agents);
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->agent_list, i)); i++)
    {
      TandemAgentRow *agent_row = TANDEM_AGENT_ROW (row);

      if (g_strcmp0 (tandem_agent_get_id (agent_row->agent), active_id) == 0)
        gtk_check_button_set_active (agent_row->check, TRUE);
    }
}

/* The editor */

static void
clear_field_error (GtkWidget *widget)
{
  gtk_widget_remove_css_class (widget, "error");
  gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
set_field_error (TandemPreferencesWindow *self,
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
on_remove_header_clicked_cb (GtkButton *button,
                             GtkWidget *row)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (gtk_widget_get_root (row));

  if (self->header_rows == NULL)
    return;

  for (guint i = 0; i < self->header_rows->len; i++)
    {
      HeaderRow *header = g_ptr_array_index (self->header_rows, i);

      if (header->row == row)
        {
          adw_preferences_group_remove (self->headers_group, row);
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
  set_accessible_label (entry, placeholder);
  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
  gtk_widget_set_valign (entry, GTK_ALIGN_CENTER);
  g_signal_connect (entry, "changed", G_CALLBACK (on_field_changed_cb), NULL);
  gtk_box_append (box, entry);

  return GTK_EDITABLE (entry);
}

static void
editor_add_header_row (TandemPreferencesWindow *self,
                       const char              *name,
                       const char              *value)
{
  HeaderRow *header = g_new0 (HeaderRow, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *remove;

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
  set_accessible_label (remove, _("Remove header"));
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_header_clicked_cb), header->row);
  gtk_box_append (GTK_BOX (box), remove);

  adw_preferences_group_add (self->headers_group, header->row);
  g_ptr_array_add (self->header_rows, header);
}

/* What a keyring call comes back to. Only a weak reference: a window
 * kept alive by the keyring's answer is disposed after the window it is
 * transient for, and GTK 4.8 then crashes (most likely the crash of the
 * first Undo of Forget Stored Token, whose test closed both windows with
 * the restore still being written). The call itself goes on, not to
 * lose a token saved just before the window closed. */
static GWeakRef *
window_ref_new (TandemPreferencesWindow *self)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, self);

  return ref;
}

/* Returns: (transfer full) (nullable): the window, unless it is gone */
static TandemPreferencesWindow *
window_ref_steal (gpointer data)
{
  GWeakRef *ref = data;
  TandemPreferencesWindow *self = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);

  return self;
}

/* Forget Stored Token: one click with no question, so the toast that
 * says it is done offers Undo, which stores the same token again. The
 * token is held, in memory only, until that toast goes. */

static void
forgotten_clear (TandemPreferencesWindow *self)
{
  g_clear_pointer (&self->forgotten_id, g_free);
  g_clear_pointer (&self->forgotten_token, secret_password_free);
  g_clear_object (&self->forgotten_toast);
}

static void
on_forgotten_toast_dismissed_cb (AdwToast                *toast,
                                 TandemPreferencesWindow *self)
{
  /* Not the toast of an earlier Forget */
  if (toast == self->forgotten_toast)
    forgotten_clear (self);
}

/* A Forget under way: it goes on when the window closes meanwhile. */
typedef struct
{
  GWeakRef      window;
  TandemAgents *agents;
  char         *id;
  char         *token;
} Forget;

static void
forget_free (Forget *forget)
{
  g_weak_ref_clear (&forget->window);
  g_clear_object (&forget->agents);
  g_free (forget->id);
  g_clear_pointer (&forget->token, secret_password_free);
  g_free (forget);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Forget, forget_free)

static void
on_forget_token_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(Forget) forget = user_data;
  g_autoptr(TandemPreferencesWindow) self = g_weak_ref_get (&forget->window);
  g_autoptr(GError) error = NULL;
  gboolean forgotten;
  AdwToast *toast;

  forgotten = tandem_agents_store_token_finish (TANDEM_AGENTS (object), result, &error);
  if (self == NULL)
    return;

  if (!forgotten)
    {
      show_toast (self, error->message);
      return;
    }

  toast = new_toast (_("The token was removed from the keyring"));
  if (forget->token == NULL)
    {
      add_toast (self, toast);
      return;
    }

  forgotten_clear (self);
  self->forgotten_id = g_steal_pointer (&forget->id);
  self->forgotten_token = g_steal_pointer (&forget->token);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "editor.undo-forget-token");
  g_set_object (&self->forgotten_toast, toast);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_forgotten_toast_dismissed_cb), self, 0);
  add_toast (self, toast);
}

static void
on_token_to_forget_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  Forget *forget = user_data;
  g_autoptr(GError) error = NULL;

  /* Unread, it is forgotten all the same, with no Undo */
  forget->token = tandem_agents_lookup_token_finish (TANDEM_AGENTS (object), result, &error);
  if (error != NULL)
    g_debug ("Forgetting a token that could not be read: %s", error->message);

  tandem_agents_store_token_async (forget->agents, forget->id, NULL, NULL, on_forget_token_cb, forget);
}

static void
on_token_restored_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(TandemPreferencesWindow) self = window_ref_steal (user_data);
  g_autoptr(GError) error = NULL;

  if (self == NULL)
    return;

  /* Success says nothing: the toast that offered Undo is still going */
  if (!tandem_agents_store_token_finish (TANDEM_AGENTS (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_toast (self, error->message);
}

static void
on_token_stored_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TandemPreferencesWindow) self = window_ref_steal (user_data);
  g_autoptr(GError) error = NULL;

  if (self == NULL)
    return;

  if (!tandem_agents_store_token_finish (TANDEM_AGENTS (object), result, &error))
    {
      /* The agent itself is saved; only the token is missing. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, error->message);
    }
}

static void editor_clear (TandemPreferencesWindow *self);

static void
editor_close (TandemPreferencesWindow *self)
{
  editor_clear (self);
  adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (self));
}

static void
editor_clear (TandemPreferencesWindow *self)
{
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
editor_add_connection_group (TandemPreferencesWindow *self,
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

static TandemAgent *editor_create_agent (TandemPreferencesWindow  *self,
                                         gboolean                  for_test,
                                         GError                  **error);

static void
show_test_result (TandemPreferencesWindow *self,
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
  g_autoptr(TandemPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = tandem_connection_test_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->test_result == NULL)
    return;

  g_clear_object (&self->test_cancellable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.test-connection", TRUE);
  show_test_result (self, text != NULL ? text : error->message, text != NULL);
}

/* With the settings as typed and @token, on the transport a run would
 * use once they are saved */
static void
editor_start_test (TandemPreferencesWindow *self,
                   const char              *token)
{
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  if (!(agent = editor_create_agent (self, TRUE, &error)) ||
      !(transport = tandem_agent_create_transport (agent, token, &error)))
    {
      g_clear_object (&self->test_cancellable);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.test-connection", TRUE);
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
  g_autoptr(TandemPreferencesWindow) self = user_data;
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

static void
editor_test_connection (TandemPreferencesWindow *self)
{
  g_autofree char *url = dup_stripped_text (GTK_EDITABLE (self->url_row));
  const char *token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));
  g_autoptr(GError) error = NULL;

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
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.test-connection", FALSE);

  if (token[0] == '\0' && self->editor_id != NULL &&
      tandem_agents_lookup (self->agents, self->editor_id) != NULL)
    tandem_agents_lookup_token_async (self->agents, self->editor_id, self->test_cancellable,
                                      on_stored_token_cb, g_object_ref (self));
  else
    editor_start_test (self, token);
}

static void
editor_add_test_group (TandemPreferencesWindow *self,
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
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.test-connection", TRUE);

  adw_preferences_page_add (page, group);
}

static void editor_open (TandemPreferencesWindow *self,
                         TandemAgent             *agent);

static gboolean
editor_is_closing (TandemPreferencesWindow *self)
{
  GtkWidget *leaflet = self->editor ? gtk_widget_get_parent (self->editor) : NULL;

  return ADW_IS_LEAFLET (leaflet) &&
         adw_leaflet_get_visible_child (ADW_LEAFLET (leaflet)) != self->editor;
}

static gboolean
on_pending_open_cb (gpointer user_data)
{
  TandemPreferencesWindow *self = user_data;
  g_autoptr(TandemAgent) agent = NULL;

  if (editor_is_closing (self))
    return G_SOURCE_CONTINUE;

  self->pending_open_id = 0;

  if (self->pending_agent_id != NULL)
    {
      TandemAgent *found = tandem_agents_lookup (self->agents, self->pending_agent_id);

      g_clear_pointer (&self->pending_agent_id, g_free);
      if (found == NULL)
        return G_SOURCE_REMOVE;
      agent = g_object_ref (found);
    }

  editor_open (self, agent);

  return G_SOURCE_REMOVE;
}

static void
editor_open (TandemPreferencesWindow *self,
             TandemAgent             *agent)
{
  GtkWidget *header_bar;
  GtkWidget *back;
  GtkWidget *save;
  GtkWidget *page;
  GtkWidget *add;
  AdwPreferencesGroup *group;
  AdwPreferencesGroup *kind_group;
  AdwPreferencesGroup *token_group;

  g_autoptr(GtkWidget) previous = NULL;
  GtkWidget *leaflet = self->editor ? gtk_widget_get_parent (self->editor) : NULL;
  gboolean shown;

  /* HACK: libadwaita 1.2 uses a subpage it has already freed when another
   * replaces it on screen or while it closes. So an editor on screen is
   * refilled in place, and a new one waits for the old to be gone. */
  if (editor_is_closing (self))
    {
      g_free (self->pending_agent_id);
      self->pending_agent_id = agent ? g_strdup (tandem_agent_get_id (agent)) : NULL;
      if (self->pending_open_id == 0)
        self->pending_open_id = g_timeout_add (50, on_pending_open_cb, self);
      return;
    }

  shown = ADW_IS_LEAFLET (leaflet);

  editor_clear (self);

  if (shown)
    {
      GtkWidget *child;

      while ((child = gtk_widget_get_first_child (self->editor)))
        gtk_box_remove (GTK_BOX (self->editor), child);
    }
  else
    {
      previous = g_steal_pointer (&self->editor);
      self->editor = g_object_ref_sink (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
    }

  self->editor_id = agent ? g_strdup (tandem_agent_get_id (agent)) : NULL;
  self->header_rows = g_ptr_array_new_with_free_func (g_free);

  header_bar = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header_bar),
                                   adw_window_title_new (agent ? _("Edit Agent") : _("Add Agent"), NULL));
  back = gtk_button_new_from_icon_name ("go-previous-symbolic");
  gtk_widget_set_tooltip_text (back, _("Back"));
  set_accessible_label (back, _("Back"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (back), "editor.cancel");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header_bar), back);
  save = gtk_button_new_with_mnemonic (_("_Save"));
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (save), "editor.save");
  adw_header_bar_pack_end (ADW_HEADER_BAR (header_bar), save);
  gtk_box_append (GTK_BOX (self->editor), header_bar);

  page = adw_preferences_page_new ();
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (self->editor), page);

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
  set_accessible_label (add, _("Add header"));
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
          editor_add_header_row (self, name, value);
        }
    }

  if (!shown)
    adw_preferences_window_present_subpage (ADW_PREFERENCES_WINDOW (self), self->editor);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

/* The agent as the editor's fields say; %NULL, with the fields at fault
 * marked and the first problem in @error, when they do not make one. For
 * Test Connection (@for_test) the name may still be missing. */
static TandemAgent *
editor_create_agent (TandemPreferencesWindow  *self,
                     gboolean                  for_test,
                     GError                  **error)
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

  g_assert (self->name_row != NULL);

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

static gboolean
editor_save (TandemPreferencesWindow *self)
{
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  const char *token;

  g_return_val_if_fail (self->name_row != NULL, FALSE);

  if (!(agent = editor_create_agent (self, FALSE, NULL)))
    return FALSE;

  if (!tandem_agents_save (self->agents, agent, &error))
    {
      gtk_label_set_text (self->editor_error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->editor_error), TRUE);
      return FALSE;
    }

  token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));
  if (token[0] != '\0')
    {
      /* Kept even when the window closes at once */
      tandem_agents_store_token_async (self->agents, tandem_agent_get_id (agent), token, NULL,
                                       on_token_stored_cb, window_ref_new (self));
      gtk_editable_set_text (GTK_EDITABLE (self->token_row), "");
    }

  editor_close (self);

  return TRUE;
}

/* Actions */

static void
agents_add_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  editor_open (TANDEM_PREFERENCES_WINDOW (widget), NULL);
}

static void
agents_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  tandem_preferences_window_edit_agent (self, g_variant_get_string (parameter, NULL));
}

typedef struct
{
  TandemPreferencesWindow *self;
  char                    *id;
} RemoveRequest;

static void
remove_request_free (gpointer  data,
                     GClosure *closure)
{
  RemoveRequest *request = data;

  g_clear_object (&request->self);
  g_clear_pointer (&request->id, g_free);
  g_free (request);
}

static void
on_remove_response_cb (AdwMessageDialog *dialog,
                       const char       *response,
                       RemoveRequest    *request)
{
  TandemPreferencesWindow *self = request->self;
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "remove") != 0 || self->agents == NULL)
    return;

  if (!tandem_agents_remove (self->agents, request->id, &error))
    show_toast (self, error->message);
}

static void
agents_remove_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);
  TandemAgent *agent = tandem_agents_lookup (self->agents, id);
  g_autofree char *heading = NULL;
  RemoveRequest *request;
  GtkWidget *dialog;

  if (agent == NULL || tandem_agent_is_demo (agent))
    return;

  heading = g_strdup_printf (_("Remove “%s”?"), tandem_agent_get_name (agent));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("Tandem will forget its address, its headers and its token. Conversations with it are kept."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "remove", _("_Remove"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  request = g_new0 (RemoveRequest, 1);
  request->self = g_object_ref (self);
  request->id = g_strdup (id);
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_remove_response_cb),
                         request, remove_request_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
editor_save_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  if (self->name_row != NULL)
    editor_save (self);
}

static void
editor_cancel_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  editor_close (TANDEM_PREFERENCES_WINDOW (widget));
}

/* Escape is Back on the editor's page, as on any GNOME subpage, and
 * closes the window from its first page, as a GNOME dialog. A popover
 * or a dialog on top, and a search, take it first. */
static gboolean
editor_escape_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  if (self->name_row == NULL)
    gtk_window_close (GTK_WINDOW (self));
  else if (!editor_is_closing (self))
    editor_close (self);

  return TRUE;
}

static void
editor_add_header_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);
  HeaderRow *header;

  if (self->header_rows == NULL)
    return;

  editor_add_header_row (self, NULL, NULL);
  header = g_ptr_array_index (self->header_rows, self->header_rows->len - 1);
  gtk_widget_grab_focus (GTK_WIDGET (header->name));
}

static void
editor_test_connection_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  if (self->url_row != NULL)
    editor_test_connection (self);
}

static void
editor_forget_token_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);
  Forget *forget;

  if (self->editor_id == NULL)
    return;

  forget = g_new0 (Forget, 1);
  g_weak_ref_init (&forget->window, self);
  forget->agents = g_object_ref (self->agents);
  forget->id = g_strdup (self->editor_id);
  tandem_agents_lookup_token_async (self->agents, self->editor_id, NULL, on_token_to_forget_cb, forget);
}

static void
editor_undo_forget_token_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  /* Not for an agent removed meanwhile */
  if (self->forgotten_token != NULL && tandem_agents_lookup (self->agents, self->forgotten_id) != NULL)
    tandem_agents_store_token_async (self->agents, self->forgotten_id, self->forgotten_token, NULL,
                                     on_token_restored_cb, window_ref_new (self));
  forgotten_clear (self);
}

/* GObject */

static void
tandem_preferences_window_constructed (GObject *object)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (tandem_preferences_window_parent_class)->constructed (object);

  g_assert (TANDEM_IS_AGENTS (self->agents));

  gtk_list_box_bind_model (self->agent_list,
                           tandem_agents_get_model (self->agents),
                           create_agent_row_cb, self, NULL);
  g_signal_connect_object (self->agents, "notify::active-id",
                           G_CALLBACK (on_active_id_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
tandem_preferences_window_dispose (GObject *object)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (object);

  g_clear_object (&self->toaster);
  g_clear_handle_id (&self->pending_open_id, g_source_remove);
  g_clear_pointer (&self->pending_agent_id, g_free);

  if (self->agent_list != NULL)
    gtk_list_box_bind_model (self->agent_list, NULL, NULL, NULL, NULL);

  editor_clear (self);
  g_clear_object (&self->editor);
  g_clear_object (&self->agents);

  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->agent_group);

  G_OBJECT_CLASS (tandem_preferences_window_parent_class)->dispose (object);
}

static void
tandem_preferences_window_finalize (GObject *object)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (object);

  forgotten_clear (self);

  G_OBJECT_CLASS (tandem_preferences_window_parent_class)->finalize (object);
}

static void
tandem_preferences_window_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_AGENTS:
      g_value_set_object (value, self->agents);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_preferences_window_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (object);

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
tandem_preferences_window_class_init (TandemPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tandem_preferences_window_constructed;
  object_class->dispose = tandem_preferences_window_dispose;
  object_class->finalize = tandem_preferences_window_finalize;
  object_class->get_property = tandem_preferences_window_get_property;
  object_class->set_property = tandem_preferences_window_set_property;

  properties[PROP_AGENTS] =
    g_param_spec_object ("agents", NULL, NULL, TANDEM_TYPE_AGENTS,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "agents.add", NULL, agents_add_action);
  gtk_widget_class_install_action (widget_class, "agents.edit", "s", agents_edit_action);
  gtk_widget_class_install_action (widget_class, "agents.remove", "s", agents_remove_action);
  gtk_widget_class_install_action (widget_class, "editor.save", NULL, editor_save_action);
  gtk_widget_class_install_action (widget_class, "editor.cancel", NULL, editor_cancel_action);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, editor_escape_cb, NULL);
  gtk_widget_class_install_action (widget_class, "editor.add-header", NULL, editor_add_header_action);
  gtk_widget_class_install_action (widget_class, "editor.forget-token", NULL, editor_forget_token_action);
  gtk_widget_class_install_action (widget_class, "editor.undo-forget-token", NULL, editor_undo_forget_token_action);
  gtk_widget_class_install_action (widget_class, "editor.test-connection", NULL, editor_test_connection_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemPreferencesWindow, agent_list);
}

static void
tandem_preferences_window_init (TandemPreferencesWindow *self)
{

  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = tandem_toaster_new (GTK_WIDGET (self));
  self->agent_group = GTK_CHECK_BUTTON (g_object_ref_sink (gtk_check_button_new ()));
}

/**
 * tandem_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 * @agents: the agents to configure
 *
 * Returns: (transfer floating): a new preferences window, not yet shown
 */
GtkWidget *
tandem_preferences_window_new (GtkWindow    *parent,
                               TandemAgents *agents)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (TANDEM_IS_AGENTS (agents), NULL);

  return g_object_new (TANDEM_TYPE_PREFERENCES_WINDOW,
                       "agents", agents,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
}

/**
 * tandem_preferences_window_get_agent_list:
 * @self: a preferences window
 *
 * Returns: (transfer none): the list with one row per agent, the demo
 *   agent first
 */
GtkListBox *
tandem_preferences_window_get_agent_list (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);

  return self->agent_list;
}

/**
 * tandem_preferences_window_edit_agent:
 * @self: a preferences window
 * @id: (nullable): the id of the agent to edit, or %NULL to add one
 *
 * Opens the editor.
 */
void
tandem_preferences_window_edit_agent (TandemPreferencesWindow *self,
                                      const char              *id)
{
  g_autoptr(TandemAgent) agent = NULL;

  g_return_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self));

  if (id != NULL)
    {
      agent = tandem_agents_lookup (self->agents, id);
      if (agent != NULL)
        g_object_ref (agent);
      if (agent == NULL || tandem_agent_is_demo (agent))
        return;
    }

  editor_open (self, agent);
}

/**
 * tandem_preferences_window_get_editor_field:
 * @self: a preferences window
 * @field: "name", "url", "token", "idle-timeout", "max-frame-size", or for
 *   a model server "model", "system-prompt" or "temperature"
 *
 * Returns: (transfer none) (nullable): the editor's field, if the editor
 *   is open
 */
GtkEditable *
tandem_preferences_window_get_editor_field (TandemPreferencesWindow *self,
                                            const char              *field)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);
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
 * tandem_preferences_window_get_editor_encoding:
 * @self: a preferences window
 *
 * Returns: (transfer none) (nullable): the editor's encoding row, whose
 *   selection is an #AguiHttpEncoding, if the editor is open
 */
AdwComboRow *
tandem_preferences_window_get_editor_encoding (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);

  return self->encoding_row;
}

/**
 * tandem_preferences_window_add_editor_header:
 * @self: a preferences window
 * @name: a header name
 * @value: its value
 *
 * Adds a header row to the open editor, as its add button does.
 */
void
tandem_preferences_window_add_editor_header (TandemPreferencesWindow *self,
                                             const char              *name,
                                             const char              *value)
{
  g_return_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (self->header_rows != NULL);

  editor_add_header_row (self, name, value);
}

/**
 * tandem_preferences_window_save_editor:
 * @self: a preferences window
 *
 * Saves the open editor, as its Save button does.
 *
 * Returns: whether the agent was saved; if not, the editor shows why
 */
gboolean
tandem_preferences_window_save_editor (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), FALSE);
  g_return_val_if_fail (self->name_row != NULL, FALSE);

  return editor_save (self);
}

/**
 * tandem_preferences_window_get_editor_error:
 * @self: a preferences window
 *
 * Returns: (nullable): the error the open editor shows, if any
 */
const char *
tandem_preferences_window_get_editor_error (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);

  if (self->editor_error == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->editor_error)))
    return NULL;

  return gtk_label_get_text (self->editor_error);
}


/**
 * tandem_preferences_window_get_connection_result:
 * @self: a preferences window
 *
 * Returns: (nullable): what Test Connection found, once it is done
 */
const char *
tandem_preferences_window_get_connection_result (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);

  /* Still connecting while the cancellable is there */
  if (self->test_result == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->test_result)) ||
      self->test_cancellable != NULL)
    return NULL;

  return gtk_label_get_text (self->test_result);
}

/**
 * tandem_preferences_window_get_editor_openai:
 * @self: a preferences window
 *
 * Returns: (transfer none) (nullable): the editor's model server part,
 *   if the editor is open
 */
TandemOpenaiEditor *
tandem_preferences_window_get_editor_openai (TandemPreferencesWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_PREFERENCES_WINDOW (self), NULL);

  return self->openai;
}
