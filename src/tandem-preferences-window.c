/* tandem-preferences-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-accessible.h"
#include "tandem-agent-editor.h"
#include "tandem-agent-row.h"
#include "tandem-preferences-window.h"
#include "tandem-toaster.h"

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

  /* The editor subpage, filled in while one is open. */
  TandemAgentEditor    *editor;

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

static GtkWidget *
create_agent_row_cb (gpointer item,
                     gpointer user_data)
{
  TandemPreferencesWindow *self = user_data;

  return tandem_agent_row_new (item, self->agents, self->agent_group);
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

/* The editor */

static gboolean
editor_is_open (TandemPreferencesWindow *self)
{
  return self->editor != NULL && tandem_agent_editor_is_filled (self->editor);
}

static void
editor_clear (TandemPreferencesWindow *self)
{
  if (self->editor != NULL)
    tandem_agent_editor_clear (self->editor);
}

static void
editor_close (TandemPreferencesWindow *self)
{
  editor_clear (self);
  adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (self));
}

static void
on_editor_testing_cb (TandemPreferencesWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.test-connection",
                                 !tandem_agent_editor_get_testing (self->editor));
}

static void editor_open (TandemPreferencesWindow *self,
                         TandemAgent             *agent);

static gboolean
editor_is_closing (TandemPreferencesWindow *self)
{
  GtkWidget *leaflet = self->editor ? gtk_widget_get_parent (GTK_WIDGET (self->editor)) : NULL;

  return ADW_IS_LEAFLET (leaflet) &&
         adw_leaflet_get_visible_child (ADW_LEAFLET (leaflet)) != GTK_WIDGET (self->editor);
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
  g_autoptr(TandemAgentEditor) previous = NULL;
  GtkWidget *leaflet = self->editor ? gtk_widget_get_parent (GTK_WIDGET (self->editor)) : NULL;
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

  if (!shown)
    {
      previous = g_steal_pointer (&self->editor);
      if (previous != NULL)
        g_signal_handlers_disconnect_by_data (previous, self);
      self->editor = g_object_ref_sink (TANDEM_AGENT_EDITOR (tandem_agent_editor_new (self->agents)));
      g_signal_connect_object (self->editor, "notify::testing",
                               G_CALLBACK (on_editor_testing_cb), self,
                               G_CONNECT_SWAPPED);
    }

  tandem_agent_editor_set_agent (self->editor, agent);

  if (!shown)
    adw_preferences_window_present_subpage (ADW_PREFERENCES_WINDOW (self), GTK_WIDGET (self->editor));
  gtk_widget_grab_focus (GTK_WIDGET (tandem_agent_editor_get_field (self->editor, "name")));
}

static gboolean
editor_save (TandemPreferencesWindow *self)
{
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  GtkEditable *token_field;
  const char *token;

  g_return_val_if_fail (editor_is_open (self), FALSE);

  if (!(agent = tandem_agent_editor_create_agent (self->editor, FALSE, NULL)))
    return FALSE;

  if (!tandem_agents_save (self->agents, agent, &error))
    {
      tandem_agent_editor_show_error (self->editor, error->message);
      return FALSE;
    }

  token_field = tandem_agent_editor_get_field (self->editor, "token");
  token = gtk_editable_get_text (token_field);
  if (token[0] != '\0')
    {
      /* Kept even when the window closes at once */
      tandem_agents_store_token_async (self->agents, tandem_agent_get_id (agent), token, NULL,
                                       on_token_stored_cb, window_ref_new (self));
      gtk_editable_set_text (token_field, "");
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

  if (editor_is_open (self))
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

  if (!editor_is_open (self))
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

  if (!editor_is_open (self))
    return;

  gtk_widget_grab_focus (GTK_WIDGET (tandem_agent_editor_add_header (self->editor, NULL, NULL)));
}

static void
editor_test_connection_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);

  if (editor_is_open (self))
    tandem_agent_editor_test_connection (self->editor);
}

static void
editor_forget_token_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  TandemPreferencesWindow *self = TANDEM_PREFERENCES_WINDOW (widget);
  const char *id = self->editor ? tandem_agent_editor_get_agent_id (self->editor) : NULL;
  Forget *forget;

  if (id == NULL)
    return;

  forget = g_new0 (Forget, 1);
  g_weak_ref_init (&forget->window, self);
  forget->agents = g_object_ref (self->agents);
  forget->id = g_strdup (id);
  tandem_agents_lookup_token_async (self->agents, id, NULL, on_token_to_forget_cb, forget);
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

  if (self->editor != NULL)
    g_signal_handlers_disconnect_by_data (self->editor, self);
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

  if (!editor_is_open (self))
    return NULL;

  return tandem_agent_editor_get_field (self->editor, field);
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

  return self->editor ? tandem_agent_editor_get_encoding (self->editor) : NULL;
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
  g_return_if_fail (editor_is_open (self));

  tandem_agent_editor_add_header (self->editor, name, value);
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
  g_return_val_if_fail (editor_is_open (self), FALSE);

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

  return self->editor ? tandem_agent_editor_get_error (self->editor) : NULL;
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

  return self->editor ? tandem_agent_editor_get_connection_result (self->editor) : NULL;
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

  return self->editor ? tandem_agent_editor_get_openai (self->editor) : NULL;
}
