/* tandem-sidebar.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-sidebar.h"
#include "tandem-thread-row.h"

/* The list of conversations: the store's threads as the person sees
 * them, searched, filtered to those that wait for them, marked while
 * they run. It is given what it shows (the store, the conversations
 * alive, the one shown) and says which one the person opened; what
 * opening means is the window's. */

struct _TandemSidebar
{
  AdwBin              parent_instance;

  AguiSessionStore   *store;
  TandemRunRegistry  *runs;
  AguiAgentSession   *session;     /* the conversation shown, or NULL */

  /* The store's threads, and what the sidebar shows of them: titles
   * and agents are read from the list rather than asked of the store. */
  AguiThreadList     *threads;
  GtkFilterListModel *visible_threads;
  GtkCustomFilter    *thread_filter;
  char               *folded_search;
  GHashTable         *hidden;      /* deleted, while the deletion can be undone */
  guint               waiting_only : 1;

  /* Template children */
  GtkWidget          *sidebar_title;
  GtkSearchBar       *search_bar;
  GtkSearchEntry     *search_entry;
  GtkStack           *threads_stack;
  GtkListBox         *thread_list;
};

G_DEFINE_FINAL_TYPE (TandemSidebar, tandem_sidebar, ADW_TYPE_BIN)

enum { PROP_0, PROP_STORE, PROP_RUNS, PROP_SESSION, PROP_LOADING, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { THREAD_ACTIVATED, THREADS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* A conversation alive in the window (shown, running or waiting) may be
 * ahead of the store (its turn is written in a worker); the others are
 * as their last turn left them. Questions past their expiry wait for
 * nobody: the person can only dismiss them. */
static gboolean
thread_is_waiting (TandemSidebar  *self,
                   AguiThreadInfo *info)
{
  AguiAgentSession *live = self->runs != NULL ? tandem_run_registry_lookup (self->runs, agui_thread_info_get_id (info))
                                              : NULL;

  if (self->session != NULL &&
      g_strcmp0 (agui_thread_info_get_id (info), agui_agent_session_get_thread_id (self->session)) == 0)
    return tandem_session_waits_for_person (self->session);
  if (live != NULL)
    return tandem_session_waits_for_person (live);

  return agui_thread_info_get_status (info) == AGUI_THREAD_WAITING_FOR_ANSWER;
}

/* Working, waiting, or an answer not yet seen */
static void
tandem_sidebar_mark_row (TandemSidebar   *self,
                         TandemThreadRow *row)
{
  AguiThreadInfo *info = tandem_thread_row_get_info (row);
  const char *thread_id = agui_thread_info_get_id (info);

  tandem_thread_row_set_waiting (row, thread_is_waiting (self, info));
  if (self->runs != NULL)
    tandem_thread_row_set_activity (row,
                                    tandem_run_registry_is_working (self->runs, thread_id),
                                    tandem_run_registry_is_unseen (self->runs, thread_id));
}

static char *
fold_for_search (const char *text)
{
  g_autofree char *normalized = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return normalized != NULL ? g_utf8_casefold (normalized, -1) : g_strdup ("");
}

/* What the sidebar shows of the thread list, decided in memory: not a
 * conversation being deleted, only those that wait in the inbox, and
 * with a search those whose title has it or whose messages the store
 * found it in (they carry a snippet). */
static gboolean
thread_filter_func (gpointer item,
                    gpointer user_data)
{
  TandemSidebar *self = user_data;
  AguiThreadInfo *info = item;
  g_autofree char *title = NULL;

  if (g_hash_table_contains (self->hidden, agui_thread_info_get_id (info)))
    return FALSE;
  if (self->waiting_only && !thread_is_waiting (self, info))
    return FALSE;
  if (self->folded_search == NULL)
    return TRUE;
  if (agui_thread_info_get_snippet (info) != NULL)
    return TRUE;

  title = fold_for_search (agui_thread_info_get_title (info));
  return strstr (title, self->folded_search) != NULL;
}

static GtkWidget *
create_thread_row_cb (gpointer item,
                      gpointer user_data)
{
  TandemSidebar *self = user_data;
  GtkWidget *row = tandem_thread_row_new (item);

  tandem_sidebar_mark_row (self, TANDEM_THREAD_ROW (row));

  return row;
}

/* The rows are the list box's, made from the filtered list; what is
 * left to the sidebar is which one is selected, the marks of the
 * conversations alive in the window, and what an empty list says. */
static void
tandem_sidebar_update_threads (TandemSidebar *self)
{
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  const char *current = self->session ? agui_agent_session_get_thread_id (self->session) : NULL;
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->visible_threads));
  GtkListBoxRow *selected = NULL;
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->thread_list, i)) != NULL; i++)
    {
      AguiThreadInfo *info = tandem_thread_row_get_info (TANDEM_THREAD_ROW (row));

      if (g_strcmp0 (agui_thread_info_get_id (info), current) == 0)
        selected = row;
      tandem_sidebar_mark_row (self, TANDEM_THREAD_ROW (row));
    }
  if (selected != NULL)
    gtk_list_box_select_row (self->thread_list, selected);
  else
    gtk_list_box_unselect_all (self->thread_list);

  if (n_shown == 0 && search[0] != '\0' && !self->waiting_only)
    {
      AdwStatusPage *page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (self->threads_stack, "empty"));
      g_autofree char *text = g_strdup_printf (_("No conversation matches “%s”."), search);

      /* A search that finds nothing is not an empty list */
      adw_status_page_set_icon_name (page, "edit-find-symbolic");
      adw_status_page_set_title (page, _("No Results"));
      adw_status_page_set_description (page, text);
    }
  else if (n_shown == 0 && self->waiting_only)
    {
      AdwStatusPage *page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (self->threads_stack, "empty"));

      /* Conversations exist; none of them needs the person */
      adw_status_page_set_icon_name (page, "emblem-ok-symbolic");
      adw_status_page_set_title (page, _("Nothing Waits for You"));
      adw_status_page_set_description (page, _("No conversation is waiting for you."));
    }
  else if (n_shown == 0)
    {
      AdwStatusPage *page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (self->threads_stack, "empty"));

      adw_status_page_set_icon_name (page, "chat-message-new-symbolic");
      adw_status_page_set_title (page, _("No Conversations"));
      adw_status_page_set_description (page,
                                       self->store != NULL ? _("Your conversations will appear here.")
                                                           : _("Conversations are not saved."));
    }
  gtk_stack_set_visible_child_name (self->threads_stack, n_shown > 0 ? "list" : "empty");
  g_signal_emit (self, signals[THREADS_CHANGED], 0);
}

static void
on_thread_list_loading_cb (TandemSidebar *self)
{
  tandem_sidebar_update_threads (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
on_thread_list_error_cb (TandemSidebar *self)
{
  const GError *error = agui_thread_list_get_error (self->threads);

  if (error != NULL)
    g_warning ("Cannot list the conversations: %s", error->message);
}

/* One list of the store's threads per store: it reads them once and
 * then follows the store's writes. */
static void
tandem_sidebar_follow_store (TandemSidebar *self)
{
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (self->threads != NULL && agui_thread_list_get_store (self->threads) == self->store)
    return;

  g_clear_object (&self->threads);
  if (self->store != NULL)
    {
      self->threads = agui_thread_list_new (self->store);
      agui_thread_list_set_search (self->threads, search);
      g_signal_connect_object (self->threads, "notify::loading",
                               G_CALLBACK (on_thread_list_loading_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->threads, "notify::error",
                               G_CALLBACK (on_thread_list_error_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_filter_list_model_set_model (self->visible_threads, G_LIST_MODEL (self->threads));
  tandem_sidebar_update_threads (self);
}

static void
on_runs_changed_cb (TandemSidebar *self,
                    const char    *thread_id)
{
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->thread_list, i)) != NULL; i++)
    {
      AguiThreadInfo *info = tandem_thread_row_get_info (TANDEM_THREAD_ROW (row));

      if (g_strcmp0 (agui_thread_info_get_id (info), thread_id) == 0)
        tandem_sidebar_mark_row (self, TANDEM_THREAD_ROW (row));
    }
  /* The approval inbox lists what waits now */
  if (self->waiting_only)
    gtk_filter_changed (GTK_FILTER (self->thread_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* The title is matched at once, in memory; the messages on the store's
 * worker, whose answer fills the snippets and filters again. */
static void
on_search_changed_cb (TandemSidebar *self)
{
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_clear_pointer (&self->folded_search, g_free);
  if (search[0] != '\0')
    self->folded_search = fold_for_search (search);
  if (self->threads != NULL)
    agui_thread_list_set_search (self->threads, search);
  tandem_sidebar_refresh (self);
}

/* The approval inbox: only the conversations that wait for the person. */
static void
on_waiting_toggled_cb (TandemSidebar   *self,
                       GtkToggleButton *button)
{
  self->waiting_only = gtk_toggle_button_get_active (button);
  tandem_sidebar_refresh (self);
}

static void
on_thread_row_activated_cb (TandemSidebar *self,
                            GtkListBoxRow *row)
{
  if (!TANDEM_IS_THREAD_ROW (row))
    return;

  g_signal_emit (self, signals[THREAD_ACTIVATED], 0,
                 agui_thread_info_get_id (tandem_thread_row_get_info (TANDEM_THREAD_ROW (row))));
}

static void
tandem_sidebar_dispose (GObject *object)
{
  TandemSidebar *self = TANDEM_SIDEBAR (object);

  if (self->runs != NULL)
    g_signal_handlers_disconnect_by_data (self->runs, self);
  if (self->visible_threads != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->visible_threads, self);
      gtk_list_box_bind_model (self->thread_list, NULL, NULL, NULL, NULL);
    }
  g_clear_object (&self->visible_threads);
  g_clear_object (&self->thread_filter);
  g_clear_object (&self->threads);

  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_SIDEBAR);

  g_clear_object (&self->session);
  g_clear_object (&self->runs);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tandem_sidebar_parent_class)->dispose (object);
}

static void
tandem_sidebar_finalize (GObject *object)
{
  TandemSidebar *self = TANDEM_SIDEBAR (object);

  g_clear_pointer (&self->folded_search, g_free);
  g_clear_pointer (&self->hidden, g_hash_table_unref);

  G_OBJECT_CLASS (tandem_sidebar_parent_class)->finalize (object);
}

static void
tandem_sidebar_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TandemSidebar *self = TANDEM_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_RUNS:
      g_value_set_object (value, self->runs);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, tandem_sidebar_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_sidebar_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TandemSidebar *self = TANDEM_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      tandem_sidebar_set_store (self, g_value_get_object (value));
      break;
    case PROP_RUNS:
      tandem_sidebar_set_runs (self, g_value_get_object (value));
      break;
    case PROP_SESSION:
      tandem_sidebar_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_sidebar_class_init (TandemSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_sidebar_dispose;
  object_class->finalize = tandem_sidebar_finalize;
  object_class->get_property = tandem_sidebar_get_property;
  object_class->set_property = tandem_sidebar_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGUI_TYPE_SESSION_STORE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_RUNS] =
    g_param_spec_object ("runs", NULL, NULL, TANDEM_TYPE_RUN_REGISTRY,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AGUI_TYPE_AGENT_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The person opened a conversation from the list: its thread id */
  signals[THREAD_ACTIVATED] =
    g_signal_new ("thread-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /* What the list shows changed: the titles it knows, or the rows */
  signals[THREADS_CHANGED] =
    g_signal_new ("threads-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemSidebar, sidebar_title);
  gtk_widget_class_bind_template_child (widget_class, TandemSidebar, search_bar);
  gtk_widget_class_bind_template_child (widget_class, TandemSidebar, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TandemSidebar, threads_stack);
  gtk_widget_class_bind_template_child (widget_class, TandemSidebar, thread_list);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_waiting_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_thread_row_activated_cb);
}

static void
tandem_sidebar_init (TandemSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->thread_filter = gtk_custom_filter_new (thread_filter_func, self, NULL);
  self->visible_threads = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->thread_filter)));
  gtk_list_box_bind_model (self->thread_list, G_LIST_MODEL (self->visible_threads),
                           create_thread_row_cb, self, NULL);
  /* After the list box's own handler: the rows are made by then. */
  g_signal_connect_object (self->visible_threads, "items-changed",
                           G_CALLBACK (tandem_sidebar_update_threads), self, G_CONNECT_SWAPPED);
}

GtkWidget *
tandem_sidebar_new (void)
{
  return g_object_new (TANDEM_TYPE_SIDEBAR, NULL);
}

AguiSessionStore *
tandem_sidebar_get_store (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->store;
}

/**
 * tandem_sidebar_set_store:
 * @self: a sidebar
 * @store: (nullable): the store whose conversations it lists
 */
void
tandem_sidebar_set_store (TandemSidebar    *self,
                          AguiSessionStore *store)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));
  g_return_if_fail (store == NULL || AGUI_IS_SESSION_STORE (store));

  if (!g_set_object (&self->store, store))
    return;

  tandem_sidebar_follow_store (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

TandemRunRegistry *
tandem_sidebar_get_runs (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->runs;
}

/**
 * tandem_sidebar_set_runs:
 * @self: a sidebar
 * @runs: (nullable): the conversations alive in the window, whose rows
 *   it marks while they work or wait
 */
void
tandem_sidebar_set_runs (TandemSidebar     *self,
                         TandemRunRegistry *runs)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));
  g_return_if_fail (runs == NULL || TANDEM_IS_RUN_REGISTRY (runs));

  if (self->runs == runs)
    return;

  if (self->runs != NULL)
    g_signal_handlers_disconnect_by_data (self->runs, self);
  g_set_object (&self->runs, runs);
  if (runs != NULL)
    g_signal_connect_object (runs, "changed", G_CALLBACK (on_runs_changed_cb), self, G_CONNECT_SWAPPED);
  tandem_sidebar_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNS]);
}

AguiAgentSession *
tandem_sidebar_get_session (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->session;
}

/**
 * tandem_sidebar_set_session:
 * @self: a sidebar
 * @session: (nullable): the conversation shown, whose row is selected
 */
void
tandem_sidebar_set_session (TandemSidebar    *self,
                            AguiAgentSession *session)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));
  g_return_if_fail (session == NULL || AGUI_IS_AGENT_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * tandem_sidebar_get_loading:
 * @self: a sidebar
 *
 * Returns: whether it waits for the store (its first listing of the
 *   conversations, or a search of their messages)
 */
gboolean
tandem_sidebar_get_loading (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), FALSE);

  return self->threads != NULL && agui_thread_list_is_loading (self->threads);
}

/**
 * tandem_sidebar_lookup_thread:
 * @self: a sidebar
 * @thread_id: (nullable): a conversation's thread
 *
 * Returns: (transfer none) (nullable): what the list knows of it
 */
AguiThreadInfo *
tandem_sidebar_lookup_thread (TandemSidebar *self,
                              const char    *thread_id)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return thread_id != NULL && self->threads != NULL ? agui_thread_list_lookup (self->threads, thread_id, NULL) : NULL;
}

/**
 * tandem_sidebar_refresh:
 * @self: a sidebar
 *
 * The thread list follows the store by itself; this filters it again
 * in memory, after the open conversation changed what it says (its
 * waiting mark) or a delete was undone.
 */
void
tandem_sidebar_refresh (TandemSidebar *self)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));

  tandem_sidebar_follow_store (self);
  gtk_filter_changed (GTK_FILTER (self->thread_filter), GTK_FILTER_CHANGE_DIFFERENT);
  tandem_sidebar_update_threads (self);
}

/**
 * tandem_sidebar_hide_thread:
 * @self: a sidebar
 * @thread_id: a conversation being deleted
 *
 * Leaves @thread_id out of the list while its deletion can be undone.
 */
void
tandem_sidebar_hide_thread (TandemSidebar *self,
                            const char    *thread_id)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));
  g_return_if_fail (thread_id != NULL);

  g_hash_table_add (self->hidden, g_strdup (thread_id));
  tandem_sidebar_refresh (self);
}

/**
 * tandem_sidebar_unhide_thread:
 * @self: a sidebar
 * @thread_id: a conversation hidden
 *
 * Forgets that @thread_id was hidden; the list shows it again at the
 * next tandem_sidebar_refresh().
 *
 * Returns: whether it was hidden
 */
gboolean
tandem_sidebar_unhide_thread (TandemSidebar *self,
                              const char    *thread_id)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);

  return g_hash_table_remove (self->hidden, thread_id);
}

/**
 * tandem_sidebar_take_hidden:
 * @self: a sidebar
 *
 * Forgets every conversation hidden.
 *
 * Returns: (transfer full): the threads that were hidden
 */
char **
tandem_sidebar_take_hidden (TandemSidebar *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  g_hash_table_iter_init (&iter, self->hidden);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_strv_builder_add (builder, key);
      g_hash_table_iter_remove (&iter);
    }

  return g_strv_builder_end (builder);
}

/**
 * tandem_sidebar_start_search:
 * @self: a sidebar
 *
 * Opens the search and puts the focus in it.
 */
void
tandem_sidebar_start_search (TandemSidebar *self)
{
  g_return_if_fail (TANDEM_IS_SIDEBAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

GtkListBox *
tandem_sidebar_get_thread_list (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->thread_list;
}

GtkSearchBar *
tandem_sidebar_get_search_bar (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->search_bar;
}

GtkSearchEntry *
tandem_sidebar_get_search_entry (TandemSidebar *self)
{
  g_return_val_if_fail (TANDEM_IS_SIDEBAR (self), NULL);

  return self->search_entry;
}
