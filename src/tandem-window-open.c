/* tandem-window-open.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-session-store-private.h"

#include "tandem-agent-transport.h"
#include "tandem-window-private.h"

/* Opening a conversation: a new one, a stored one, one reopened at
 * start, and which agent it talks to. */

/* Opening a conversation
 *
 * A conversation always talks to the agent it was started with, stored
 * with its thread. When that agent is gone from Preferences (or its
 * transport cannot be made) the conversation still opens, to be read, but
 * nothing is sent until the person picks another agent in the header:
 * never silently the demo agent. */

typedef struct
{
  TandemWindow *self;
  char         *thread_id;
  char         *agent_id;
  GCancellable *cancellable;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->cancellable);
  g_free (data->thread_id);
  g_free (data->agent_id);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenData, open_data_free)

typedef struct
{
  TandemWindow     *self;
  AguiAgentSession *session;
  char             *problem;
} RestoreData;

static void
restore_data_free (RestoreData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->session);
  g_free (data->problem);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RestoreData, restore_data_free)

static void
tandem_window_show_session (TandemWindow     *self,
                            AguiAgentSession *session,
                            const char       *problem)
{
  /* For tandem_window_set_session(), which shows it */
  g_free (self->next_agent_problem);
  self->next_agent_problem = g_strdup (problem);
  tandem_window_set_session (self, session);
}

typedef struct
{
  RestoreData  *restore;
  GCancellable *cancellable;
} ShowData;

static void
show_data_free (ShowData *data)
{
  g_clear_pointer (&data->restore, restore_data_free);
  g_clear_object (&data->cancellable);
  g_free (data);
}

static gboolean
show_restored_cb (gpointer user_data)
{
  ShowData *data = user_data;
  TandemWindow *self = data->restore->self;

  /* Another conversation was opened meanwhile: the one shown is shown
   * again until that one is ready (unless the window was closed) */
  if (g_cancellable_is_cancelled (data->cancellable))
    {
      if (self->transcript_selection != NULL && self->block_window != NULL)
        gtk_no_selection_set_model (self->transcript_selection, G_LIST_MODEL (self->block_window));
    }
  else
    tandem_window_show_session (self, data->restore->session, data->restore->problem);

  return G_SOURCE_REMOVE;
}

static void
on_session_restored_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(RestoreData) data = user_data;
  g_autoptr(GError) error = NULL;
  TandemWindow *self = data->self;

  if (!agui_agent_session_restore_finish (AGUI_AGENT_SESSION (object), result, &error))
    {
      g_autofree char *text = NULL;

      /* Another conversation was opened meanwhile. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      text = g_strdup_printf (_("The conversation could not be loaded: %s"), error->message);
      tandem_window_show_toast (data->self, text);
    }

  /* Taking down the rows of the conversation shown and making those of
   * the one opened held the main loop for 20 ms or more in one go: the
   * rows are taken down first, and the conversation shown at the next
   * turn, before the next frame is drawn (the frame clock paints at a
   * lower priority) so that no empty frame is seen */
  if (self->block_window != NULL && self->open_cancellable != NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->block_window)) > 0)
    {
      ShowData *show = g_new0 (ShowData, 1);

      show->cancellable = g_object_ref (self->open_cancellable);
      show->restore = g_steal_pointer (&data);
      gtk_no_selection_set_model (self->transcript_selection, NULL);
      g_idle_add_full (G_PRIORITY_HIGH_IDLE, show_restored_cb, show, (GDestroyNotify) show_data_free);
      return;
    }

  tandem_window_show_session (data->self, data->session, data->problem);
}

static void
tandem_window_finish_open (TandemWindow  *self,
                           AguiTransport *transport,
                           const char    *thread_id,
                           const char    *agent_id,
                           const char    *problem)
{
  g_autoptr(AguiAgentSession) session = NULL;
  RestoreData *data;

  session = g_object_new (AGUI_TYPE_AGENT_SESSION,
                          "transport", transport,
                          "thread-id", thread_id,
                          "tools", self->tools,
                          "store", self->store,
                          "agent", agent_id,
                          "default-title", _("New conversation"),
                          NULL);
  if (thread_id == NULL || self->store == NULL)
    {
      tandem_window_show_session (self, session, problem);
      return;
    }

  /* The store is read on its worker and the log folded on another: the
   * window keeps drawing while a long conversation loads, and it is
   * shown once whole, its end first (see TandemBlockList). */
  if (self->open_cancellable == NULL)
    self->open_cancellable = g_cancellable_new ();
  data = g_new0 (RestoreData, 1);
  data->self = g_object_ref (self);
  data->session = g_object_ref (session);
  data->problem = g_strdup (problem);
  agui_agent_session_restore_async (session, self->open_cancellable, on_session_restored_cb, data);
}

/* Opens the conversation for reading only: its agent cannot be reached.
 * The transport is never run (see _tandem_window_update_actions()). */
static void
tandem_window_finish_open_without_agent (TandemWindow *self,
                                         const char   *thread_id,
                                         const char   *agent_id,
                                         const char   *problem)
{
  g_autoptr(AguiReplayTransport) nothing = agui_replay_transport_new ();

  tandem_window_finish_open (self, AGUI_TRANSPORT (nothing), thread_id, agent_id, problem);
}

static void
on_transport_created_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(OpenData) data = user_data;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(TandemAgentTransport) live = NULL;
  g_autoptr(GError) error = NULL;

  transport = tandem_agents_create_transport_finish (TANDEM_AGENTS (object), result, &error);
  if (g_cancellable_is_cancelled (data->cancellable))
    return;

  if (transport == NULL)
    {
      g_autofree char *problem = g_strdup_printf (_("The agent cannot be used: %s"), error->message);

      tandem_window_finish_open_without_agent (data->self, data->thread_id, data->agent_id, problem);
      return;
    }

  /* Each run follows the agent's settings as saved by then */
  live = tandem_agent_transport_new (data->self->agents, data->agent_id, transport);
  tandem_window_finish_open (data->self, AGUI_TRANSPORT (live), data->thread_id, data->agent_id, NULL);
}

static void
open_url (TandemWindow *self,
          const char   *thread_id,
          const char   *url)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  if ((transport = agui_http_transport_new (url, &error)) != NULL)
    {
      tandem_window_finish_open (self, AGUI_TRANSPORT (transport), thread_id, url, NULL);
    }
  else
    {
      g_autofree char *problem = g_strdup_printf (_("The agent cannot be used: %s"), error->message);

      tandem_window_finish_open_without_agent (self, thread_id, url, problem);
    }
}

/* The agent a stored conversation was started with, or NULL when the
 * store does not say (a conversation from before agents were kept). */
static char *
dup_thread_agent (TandemWindow *self,
                  const char   *thread_id)
{
  AguiThreadInfo *thread = _tandem_window_lookup_thread (self, thread_id);

  return thread != NULL ? g_strdup (agui_thread_info_get_agent_id (thread)) : NULL;
}

/* @agent_id: the agent to use, or NULL for the conversation's own (the
 * last used one for a new conversation) */
void
_tandem_window_open (TandemWindow *self,
                    const char   *thread_id,
                    const char   *agent_id)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *url = NULL;
  g_autofree char *stored = NULL;
  OpenData *data;

  if (application != NULL)
    g_object_get (application, "agent-url", &url, NULL);

  g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);

  /* Running or waiting out of sight: the very session, still streaming */
  if (agent_id == NULL && tandem_run_registry_lookup (self->runs, thread_id) != NULL)
    {
      g_clear_pointer (&self->next_agent_problem, g_free);
      tandem_window_set_session (self, tandem_run_registry_lookup (self->runs, thread_id));
      return;
    }

  /* An agent URL on the command line is the agent of every conversation */
  if (url != NULL && agent_id == NULL)
    {
      open_url (self, thread_id, url);
      return;
    }

  if (agent_id == NULL)
    {
      stored = dup_thread_agent (self, thread_id);
      agent_id = stored;
    }
  if (agent_id == NULL)
    agent_id = self->agents != NULL ? tandem_agents_get_active_id (self->agents) : TANDEM_AGENTS_DEMO_ID;

  if (g_strcmp0 (agent_id, TANDEM_AGENTS_DEMO_ID) == 0)
    {
      g_autoptr(AguiDemoAgent) demo = agui_demo_agent_new ();

      tandem_window_finish_open (self, AGUI_TRANSPORT (demo), thread_id, TANDEM_AGENTS_DEMO_ID, NULL);
      return;
    }

  if (self->agents == NULL || tandem_agents_lookup (self->agents, agent_id) == NULL)
    {
      /* Started with --agent-url in an earlier run */
      if (_tandem_window_is_url (agent_id))
        open_url (self, thread_id, agent_id);
      else
        tandem_window_finish_open_without_agent (self, thread_id, agent_id,
                                                 _("The agent of this conversation was removed."));
      return;
    }

  self->open_cancellable = g_cancellable_new ();
  data = g_new0 (OpenData, 1);
  data->self = g_object_ref (self);
  data->thread_id = g_strdup (thread_id);
  data->agent_id = g_strdup (agent_id);
  data->cancellable = g_object_ref (self->open_cancellable);
  tandem_agents_create_transport_async (self->agents, agent_id, self->open_cancellable,
                                        on_transport_created_cb, data);
}

/* The store opens on a worker: until it is open, the sidebar is empty,
 * nothing can be sent, and the new conversation is not kept, so it
 * starts again, kept, with what the person typed meanwhile. */
void
_tandem_window_adopt_store (TandemWindow *self)
{
  if (self->store != NULL && self->session != NULL && agui_agent_session_get_store (self->session) == NULL &&
      !agui_agent_session_get_busy (self->session) &&
      g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (self->session))) == 0)
    {
      self->keep_composer_text = TRUE;
      tandem_window_new_chat (self);
    }
  _tandem_window_update_actions (self);
}

/**
 * tandem_window_new_chat:
 * @self: a window
 *
 * Starts a new conversation with the active agent.
 */
void
tandem_window_new_chat (TandemWindow *self)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));

  _tandem_window_open (self, NULL, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (tandem_composer_get_view (self->composer)));
}

/* The conversation to reopen was never sent: it has a draft, or nothing */
static void
on_reopen_draft_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TandemWindow) self = user_data;
  g_autofree char *thread_id = g_steal_pointer (&self->reopen_thread);
  g_autofree char *draft = NULL;
  g_autoptr(GError) error = NULL;

  draft = _agui_session_store_dup_draft_finish (AGUI_SESSION_STORE (object), result, &error);
  if (draft != NULL && draft[0] != '\0' && thread_id != NULL && _tandem_window_is_new_conversation (self) &&
      gtk_text_buffer_get_char_count (tandem_composer_get_buffer (self->composer)) == 0)
    {
      /* The same new conversation, its draft read back by the keeper */
      _tandem_window_open (self, thread_id, NULL);
      gtk_widget_grab_focus (GTK_WIDGET (tandem_composer_get_view (self->composer)));
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_warning ("%s", error->message);

  _tandem_window_adopt_store (self);
}

static void
on_reopen_thread_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(TandemWindow) self = user_data;
  g_autoptr(JsonObject) thread = NULL;
  g_autofree char *thread_id = g_steal_pointer (&self->reopen_thread);
  g_autoptr(GError) error = NULL;

  thread = agui_session_store_get_thread_finish (AGUI_SESSION_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* Deleted since, or never sent, or another store: a new chat, kept */
  if (thread != NULL && thread_id != NULL && _tandem_window_is_new_conversation (self))
    {
      self->keep_composer_text = TRUE;
      tandem_window_open_thread (self, thread_id);
    }
  else if (thread == NULL && thread_id != NULL && self->store != NULL)
    {
      self->reopen_thread = g_steal_pointer (&thread_id);
      _agui_session_store_dup_draft_async (self->store, self->reopen_thread, self->cancellable,
                                           on_reopen_draft_cb, g_object_ref (self));
    }
  else
    {
      _tandem_window_adopt_store (self);
    }
}

void
_tandem_window_check_reopen (TandemWindow *self)
{
  if (self->store == NULL)
    {
      g_clear_pointer (&self->reopen_thread, g_free);
      return;
    }

  agui_session_store_get_thread_async (self->store, self->reopen_thread, self->cancellable,
                                       on_reopen_thread_cb, g_object_ref (self));
}

/**
 * tandem_window_reopen_thread:
 * @self: a window
 * @thread_id: the conversation open when the app last ran
 *
 * Opens @thread_id if the store still has it, once the store is open;
 * else the window keeps its new chat.
 */
void
tandem_window_reopen_thread (TandemWindow *self,
                             const char   *thread_id)
{
  GtkApplication *application;
  gboolean opening = FALSE;

  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (thread_id != NULL);

  g_free (self->reopen_thread);
  self->reopen_thread = g_strdup (thread_id);

  application = gtk_window_get_application (GTK_WINDOW (self));
  if (application != NULL)
    g_object_get (application, "store-opening", &opening, NULL);
  if (opening)
    return;

  _tandem_window_check_reopen (self);
}

/**
 * tandem_window_open_thread:
 * @self: a window
 * @thread_id: a thread in the store
 *
 * Opens a saved conversation: a new session on the thread's agent,
 * restored from the store. The agent's transport may be created
 * asynchronously; the session is shown once it is.
 */
void
tandem_window_open_thread (TandemWindow *self,
                           const char   *thread_id)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (thread_id != NULL);

  _tandem_window_open (self, thread_id, NULL);
}
