/* tandem-application.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-application.h"
#include "tandem-preferences-window.h"
#include "tandem-quit-dialog.h"
#include "tandem-window.h"

struct _TandemApplication
{
  AdwApplication    parent_instance;
  GSettings        *settings;
  AguiSessionStore *store;
  char             *store_error;
  char             *store_path;
  char             *agent_url;
  TandemAgents     *agents;
  GtkWindow        *quit_dialog;
  gboolean          store_opening;
};

G_DEFINE_FINAL_TYPE (TandemApplication, tandem_application, ADW_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_STORE,
  PROP_STORE_OPENING,
  PROP_STORE_ERROR,
  PROP_AGENTS,
  PROP_SETTINGS,
  PROP_AGENT_URL,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

/* The conversation the window showed when the app last ran; the window
 * checks, without waiting on the store, that it still exists. */
static char *
tandem_application_dup_last_thread (TandemApplication *self)
{
  g_autofree char *thread_id = g_settings_get_string (self->settings, "last-thread");

  if (thread_id[0] == '\0' || self->agent_url != NULL)
    return NULL;

  return g_steal_pointer (&thread_id);
}

static GtkWindow *
tandem_application_ensure_window (TandemApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      /* Read before the window exists: its new chat resets the key */
      g_autofree char *last_thread = tandem_application_dup_last_thread (self);

      window = GTK_WINDOW (tandem_window_new (self));
      if (last_thread != NULL)
        tandem_window_reopen_thread (TANDEM_WINDOW (window), last_thread);
    }

  return window;
}

static void
tandem_application_preferences_action (GSimpleAction *action,
                                       GVariant      *parameter,
                                       gpointer       user_data)
{
  TandemApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *preferences = tandem_preferences_window_new (parent, self->agents);

  gtk_window_present (GTK_WINDOW (preferences));
}

/* The welcome page's "Add an Agent…": straight to the form */
static void
tandem_application_add_agent_action (GSimpleAction *action,
                                     GVariant      *parameter,
                                     gpointer       user_data)
{
  TandemApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *preferences = tandem_preferences_window_new (parent, self->agents);

  tandem_preferences_window_edit_agent (TANDEM_PREFERENCES_WINDOW (preferences), NULL);
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
tandem_application_shortcuts_action (GSimpleAction *action,
                                     GVariant      *parameter,
                                     gpointer       user_data)
{
  TandemApplication *self = user_data;
  GtkWindow *window = tandem_application_ensure_window (self);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
tandem_application_about_action (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       user_data)
{
  TandemApplication *self = user_data;
  static const char *developers[] = { "The Tandem developers", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  adw_show_about_window (parent,
                         "application-name", _("Tandem"),
                         "application-icon", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "developer-name", _("The Tandem developers"),
                         "developers", developers,
                         "comments", _("Chat with AI agents over the AG-UI protocol"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "website", "https://github.com/tandemdesk/tandem",
                         "issue-url", "https://github.com/tandemdesk/tandem/issues",
                         "copyright", "© 2026 The Tandem developers",
                         NULL);
}

static void
tandem_application_quit_now (TandemApplication *self)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Close the windows first so each saves its size. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);

  /* A window closed during a run stays, hidden, until its turn is
   * saved, and the application ends with the last window */
  g_clear_pointer (&windows, g_list_free);
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l != NULL; l = l->next)
    if (!TANDEM_IS_WINDOW (l->data) || gtk_widget_get_visible (l->data))
      gtk_window_destroy (l->data);

  if (gtk_application_get_windows (GTK_APPLICATION (self)) == NULL)
    g_application_quit (G_APPLICATION (self));
}

static void
on_quit_response_cb (AdwMessageDialog  *dialog,
                     const char        *response,
                     TandemApplication *self)
{
  g_autoptr(GList) windows = NULL;

  if (g_strcmp0 (response, "quit") != 0)
    return;

  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l != NULL; l = l->next)
    if (TANDEM_IS_WINDOW (l->data))
      tandem_window_confirm_close (l->data);
  tandem_application_quit_now (self);
}

static void
tandem_application_quit_action (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data)
{
  TandemApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));
  guint n_running = 0;

  for (GList *l = windows; l != NULL; l = l->next)
    if (TANDEM_IS_WINDOW (l->data))
      n_running += tandem_window_get_n_running (l->data);

  /* Once for every window, rather than a dialog each; pressed again,
   * the same question */
  if (n_running > 0)
    {
      if (self->quit_dialog == NULL)
        {
          GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
          GtkWidget *dialog = tandem_quit_dialog_new (parent, n_running);

          g_signal_connect_object (dialog, "response", G_CALLBACK (on_quit_response_cb), self, 0);
          g_set_weak_pointer (&self->quit_dialog, GTK_WINDOW (dialog));
        }
      gtk_window_present (self->quit_dialog);
      return;
    }

  tandem_application_quit_now (self);
}

/* A notification's click: the conversation it is about, in front. */
static void
tandem_application_open_thread_action (GSimpleAction *action,
                                       GVariant      *parameter,
                                       gpointer       user_data)
{
  TandemApplication *self = user_data;
  const char *thread_id = g_variant_get_string (parameter, NULL);
  GtkWindow *window = NULL;

  /* The window whose conversation it is, running or waiting there */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL && window == NULL; l = l->next)
    if (TANDEM_IS_WINDOW (l->data) && gtk_widget_get_visible (l->data) &&
        tandem_window_holds_thread (l->data, thread_id))
      window = l->data;

  if (window == NULL)
    {
      g_application_activate (G_APPLICATION (self));
      window = gtk_application_get_active_window (GTK_APPLICATION (self));
    }
  if (TANDEM_IS_WINDOW (window) && thread_id[0] != '\0')
    {
      AguiAgentSession *session = tandem_window_get_session (TANDEM_WINDOW (window));

      if (session == NULL || g_strcmp0 (agui_agent_session_get_thread_id (session), thread_id) != 0)
        tandem_window_open_thread (TANDEM_WINDOW (window), thread_id);
      gtk_window_present (window);
    }
}

static const GActionEntry app_actions[] = {
  { "open-thread", tandem_application_open_thread_action, "s" },
  { "preferences", tandem_application_preferences_action },
  { "add-agent", tandem_application_add_agent_action },
  { "shortcuts", tandem_application_shortcuts_action },
  { "about", tandem_application_about_action },
  { "quit", tandem_application_quit_action },
};

static void
on_store_opened_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TandemApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  self->store = agui_session_store_new_finish (result, &error);
  self->store_opening = FALSE;
  if (self->store == NULL)
    {
      g_warning ("Cannot open the conversation store: %s", error->message);
      self->store_error = g_strdup (error->message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE_ERROR]);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE_OPENING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

static void
tandem_application_startup (GApplication *application)
{
  TandemApplication *self = TANDEM_APPLICATION (application);
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "win.new-chat", { "<Control>n", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.search", { "<Control>k", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.toggle-sidebar", { "F9", NULL } },
    { "win.focus-composer", { "<Control>l", NULL } },
    { "win.toggle-pinned", { "<Control><Alt>p", NULL } },
  };

  G_APPLICATION_CLASS (tandem_application_parent_class)->startup (application);

  tandem_accessible_init ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  self->settings = g_settings_new (APPLICATION_ID);
  self->agents = tandem_agents_new (self->settings);

  /* On a worker: another process may hold the database for seconds, and
   * a new one is created and migrated there. Windows take the store when
   * it is open (notify::store). */
  self->store_opening = TRUE;
  /* The profile's own data folder: a development build never opens the
   * conversations of the installed app */
  if (self->store_path == NULL)
    self->store_path = g_build_filename (g_get_user_data_dir (), TANDEM_DATA_FOLDER, "tandem.db", NULL);
  agui_session_store_new_async (self->store_path, NULL, on_store_opened_cb, g_object_ref (self));
}

static void
tandem_application_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TandemApplication *self = TANDEM_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_STORE_OPENING:
      g_value_set_boolean (value, self->store_opening);
      break;

    case PROP_STORE_ERROR:
      g_value_set_string (value, self->store_error);
      break;

    case PROP_AGENTS:
      g_value_set_object (value, self->agents);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_AGENT_URL:
      g_value_set_string (value, self->agent_url);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_application_activate (GApplication *application)
{
  TandemApplication *self = TANDEM_APPLICATION (application);

  gtk_window_present (tandem_application_ensure_window (self));
}

static int
tandem_application_handle_local_options (GApplication *application,
                                         GVariantDict *options)
{
  TandemApplication *self = TANDEM_APPLICATION (application);
  const char *store = NULL;
  const char *agent = NULL;

  if (g_variant_dict_lookup (options, "store", "^&ay", &store))
    tandem_application_set_store_path (self, store);
  if (g_variant_dict_lookup (options, "agent", "&s", &agent))
    tandem_application_set_agent_url (self, agent);

  return -1;
}

static void
tandem_application_dispose (GObject *object)
{
  TandemApplication *self = TANDEM_APPLICATION (object);

  g_clear_weak_pointer (&self->quit_dialog);
  g_clear_object (&self->agents);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tandem_application_parent_class)->dispose (object);
}

static void
tandem_application_finalize (GObject *object)
{
  TandemApplication *self = TANDEM_APPLICATION (object);

  g_clear_pointer (&self->store_error, g_free);
  g_clear_pointer (&self->store_path, g_free);
  g_clear_pointer (&self->agent_url, g_free);

  G_OBJECT_CLASS (tandem_application_parent_class)->finalize (object);
}

static void
tandem_application_class_init (TandemApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = tandem_application_dispose;
  object_class->finalize = tandem_application_finalize;
  object_class->get_property = tandem_application_get_property;

  /**
   * TandemApplication:store:
   *
   * The conversation store, once it is open; notified when the opening
   * ends, also when it failed (see tandem_application_get_store_error()).
   */
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGUI_TYPE_SESSION_STORE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* The window reads what it needs of the application through these
   * properties, so that it never calls the application by name. */

  /**
   * TandemApplication:store-opening:
   *
   * Whether the store is still being opened; %FALSE once :store is
   * notified.
   */
  properties[PROP_STORE_OPENING] =
    g_param_spec_boolean ("store-opening", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemApplication:store-error:
   *
   * Why the store could not be opened, or %NULL.
   */
  properties[PROP_STORE_ERROR] =
    g_param_spec_string ("store-error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemApplication:agents:
   *
   * The configured agents, from startup on.
   */
  properties[PROP_AGENTS] =
    g_param_spec_object ("agents", NULL, NULL, TANDEM_TYPE_AGENTS,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemApplication:settings:
   *
   * The application's settings, from startup on.
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemApplication:agent-url:
   *
   * The agent given on the command line, which overrides the chosen one,
   * or %NULL.
   */
  properties[PROP_AGENT_URL] =
    g_param_spec_string ("agent-url", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  application_class->startup = tandem_application_startup;
  application_class->activate = tandem_application_activate;
  application_class->handle_local_options = tandem_application_handle_local_options;
}

static void
tandem_application_init (TandemApplication *self)
{
  static const GOptionEntry options[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Keep conversations in this database file"), N_("PATH") },
    { "agent", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Talk to the AG-UI agent at this URL"), N_("URL") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

TandemApplication *
tandem_application_new (void)
{
  return g_object_new (TANDEM_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "resource-base-path", "/io/github/tandemdesk/Tandem",
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       NULL);
}

/**
 * tandem_application_get_store:
 * @self: the application
 *
 * Returns: (transfer none) (nullable): the conversation store, or %NULL
 *   when it could not be opened
 */
AguiSessionStore *
tandem_application_get_store (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), NULL);

  return self->store;
}

/**
 * tandem_application_get_store_opening:
 * @self: the application
 *
 * Returns: whether the store is still being opened
 */
gboolean
tandem_application_get_store_opening (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), FALSE);

  return self->store_opening;
}

const char *
tandem_application_get_store_error (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), NULL);

  return self->store_error;
}

/**
 * tandem_application_set_store_path:
 * @self: the application
 * @path: (nullable): the database file, or %NULL for the default
 *
 * Call before the application starts up.
 */
void
tandem_application_set_store_path (TandemApplication *self,
                                   const char        *path)
{
  g_return_if_fail (TANDEM_IS_APPLICATION (self));
  g_return_if_fail (self->settings == NULL);

  g_free (self->store_path);
  self->store_path = g_strdup (path);
}

TandemAgents *
tandem_application_get_agents (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), NULL);

  return self->agents;
}

GSettings *
tandem_application_get_settings (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), NULL);

  return self->settings;
}

/**
 * tandem_application_get_agent_url:
 * @self: the application
 *
 * Returns: (nullable): the agent given with `--agent`, which new
 *   conversations use instead of the configured one
 */
const char *
tandem_application_get_agent_url (TandemApplication *self)
{
  g_return_val_if_fail (TANDEM_IS_APPLICATION (self), NULL);

  return self->agent_url;
}

void
tandem_application_set_agent_url (TandemApplication *self,
                                  const char        *url)
{
  g_return_if_fail (TANDEM_IS_APPLICATION (self));

  g_free (self->agent_url);
  self->agent_url = g_strdup (url);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AGENT_URL]);
}
