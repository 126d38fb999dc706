/* tandem-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-run-state-private.h"

#include "tandem-accessible.h"
#include "tandem-approval-dialog.h"
#include "tandem-block-row.h"
#include "tandem-desktop-tools.h"
#include "tandem-composer.h"
#include "tandem-quit-dialog.h"
#include "tandem-sidebar.h"
#include "tandem-window-private.h"

G_DEFINE_FINAL_TYPE (TandemWindow, tandem_window, ADW_TYPE_APPLICATION_WINDOW)

static gboolean has_open_questions        (TandemWindow *self);
static void tandem_window_update_title    (TandemWindow *self);

typedef enum
{
  EXCHANGE_SEND,
  EXCHANGE_RUN,
  EXCHANGE_RESUME,
} ExchangeKind;

/* Helpers */

gboolean
_tandem_window_is_blank (const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;

  return TRUE;
}

char *
_tandem_window_dup_composer_text (TandemWindow *self)
{
  return tandem_composer_dup_text (self->composer);
}

gboolean
_tandem_window_has_pending_interrupts (TandemWindow *self)
{
  return self->session != NULL &&
         g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (self->session)) > 0;
}

gboolean
_tandem_window_is_busy (TandemWindow *self)
{
  return self->session != NULL && agui_agent_session_get_busy (self->session);
}

void
tandem_window_show_toast (TandemWindow *self,
                          const char   *title)
{
  AdwToast *toast;

  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (title != NULL);

  /* A toast that says nothing is worse than none */
  if (_tandem_window_is_blank (title) || self->toaster == NULL)
    return;

  toast = adw_toast_new (title);
  /* The title is Pango markup; ours may quote the agent or the system. */
  {
    g_autofree char *escaped = g_markup_escape_text (title, -1);
    adw_toast_set_title (toast, escaped);
  }
  tandem_toaster_add (self->toaster, toast);
}

/* An import or export that failed: its reason names a file and what in
 * it is wrong, longer than a toast shows. A dialog says it whole, in a
 * label that can be selected and copied. */
void
_tandem_window_show_error_dialog (TandemWindow *self,
                                 const char   *heading,
                                 const char   *message)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, NULL);
  GtkWidget *label = gtk_label_new (message);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), label);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* @thread_id: the conversation the notification opens, or NULL */
static void
tandem_window_notify (TandemWindow *self,
                      const char   *id,
                      const char   *thread_id,
                      const char   *title,
                      const char   *body)
{
  g_autoptr(GNotification) notification = NULL;
  GApplication *application;

  if (gtk_window_is_active (GTK_WINDOW (self)))
    return;

  application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  /* GLib's notification backends all need the session bus. */
  if (application == NULL || g_application_get_dbus_connection (application) == NULL)
    return;

  notification = g_notification_new (title);
  if (body != NULL && body[0] != '\0')
    g_notification_set_body (notification, body);
  if (thread_id != NULL && self->store != NULL)
    g_notification_set_default_action_and_target (notification, "app.open-thread", "s", thread_id);
  else
    g_notification_set_default_action (notification, "app.activate");
  g_application_send_notification (application, id, notification);
}

static char *
dup_last_agent_text (AguiTranscript *transcript)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (transcript));

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AguiMessage) message = g_list_model_get_item (G_LIST_MODEL (transcript), i - 1);

      if (agui_message_get_role (message) == AGUI_ROLE_ASSISTANT)
        {
          g_autofree char *text = agui_message_dup_text (message);

          if (text != NULL && g_utf8_strlen (text, -1) > 120)
            {
              char *end = g_utf8_offset_to_pointer (text, 120);
              return g_strdup_printf ("%.*s…", (int) (end - text), text);
            }
          return g_steal_pointer (&text);
        }
    }

  return NULL;
}

/* The conversation */

/* The latest subagent still at work, or NULL */
static AguiSubagentRun *
dup_working_subagent (AguiTranscript *transcript)
{
  GListModel *subagents = agui_transcript_get_subagents (transcript);

  for (guint i = g_list_model_get_n_items (subagents); i > 0; i--)
    {
      g_autoptr(AguiSubagentRun) run = g_list_model_get_item (subagents, i - 1);

      if (agui_subagent_run_get_status (run) == AGUI_SUBAGENT_RUNNING)
        return g_steal_pointer (&run);
    }

  return NULL;
}

static void
tandem_window_update_steps (TandemWindow *self)
{
  const char * const *steps = self->transcript != NULL ? agui_transcript_get_steps (self->transcript) : NULL;
  gboolean busy = _tandem_window_is_busy (self);
  g_autoptr(AguiSubagentRun) subagent = NULL;
  g_autofree char *tooltip = NULL;
  const char *current = NULL;

  /* The header has room for a name, not a sentence: the spinner says
   * it works, the tooltip says who. */
  if (steps != NULL && steps[0] != NULL)
    current = steps[g_strv_length ((char **) steps) - 1];
  else if (busy && (subagent = dup_working_subagent (self->transcript)) != NULL)
    {
      current = agui_subagent_run_get_name (subagent);
      /* Translators: %s is the name of a subagent the agent handed work to */
      tooltip = g_strdup_printf (_("%s is working…"), current);
    }

  gtk_label_set_text (self->steps_label, current != NULL ? current : (busy ? _("Working…") : ""));
  /* An agent's step name can be longer than the header has room for */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->steps_label), tooltip != NULL ? tooltip : current);
  gtk_spinner_set_spinning (self->steps_spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->steps_spinner), busy);
  gtk_widget_set_visible (self->steps_box, busy || current != NULL);
}

static void
tandem_window_update_run_state (TandemWindow *self)
{
  AguiRunState *state = self->session != NULL ? agui_agent_session_get_run_state (self->session) : NULL;

  if (state != NULL && agui_run_state_get_status (state) == AGUI_RUN_FAILED)
    {
      const char *reason = agui_run_state_get_error_message (state);
      g_autofree char *text = NULL;

      const char *details = _agui_run_state_get_error_details (state);

      text = g_strdup_printf (_("The run failed: %s"), reason != NULL && reason[0] != '\0' ? reason : _("unknown error"));
      gtk_label_set_text (self->error_label, text);
      /* The short reason says what to do; what the server sent is for
       * whoever has to look closer. */
      gtk_label_set_text (self->error_details_label, details != NULL ? details : "");
      gtk_widget_set_visible (GTK_WIDGET (self->error_details), details != NULL);
      if (details == NULL)
        gtk_expander_set_expanded (self->error_details, FALSE);
      gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
    }
  else
    {
      gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
    }

  _tandem_window_update_actions (self);
}

/* How the conversation stands, for a screen reader: a status object
 * below the header whose name it reads when asked, and (GTK 4.14 and
 * later) hears said when a run ends, fails or asks a question. Opening
 * another conversation changes it without a word. */
static void
tandem_window_update_status (TandemWindow *self)
{
  AguiRunState *state = self->session != NULL ? agui_agent_session_get_run_state (self->session) : NULL;
  gboolean same_session = self->status_session == (gpointer) self->session;
  gboolean busy = _tandem_window_is_busy (self);
  const char *text;

  if (busy)
    text = _("The agent is answering");
  else if (state != NULL && agui_run_state_get_status (state) == AGUI_RUN_FAILED)
    text = gtk_label_get_text (self->error_label);
  else if (_tandem_window_has_pending_interrupts (self))
    text = _("The agent is waiting for your answer");
  else if (self->transcript != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->transcript)) > 0)
    text = _("The answer is complete");
  else
    text = _("No messages yet");

  self->status_session = self->session;
  if (tandem_accessible_set_label (self->status, text) && same_session && !busy && self->session != NULL)
    tandem_accessible_announce (self->status, text);
}

/* A composer that cannot take a message says why, instead of letting
 * typing silently do nothing. */
static void
tandem_window_update_composer_hint (TandemWindow *self,
                                    gboolean      waiting)
{
  const char *text = self->composer_hint;

  if (waiting)
    text = has_open_questions (self) ? _("Answer the question above to continue")
                                     : _("Dismiss the expired question to continue");

  tandem_composer_set_hint (self->composer, text, waiting);
}

static gboolean
is_store_opening (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  gboolean opening = FALSE;

  if (application != NULL)
    g_object_get (application, "store-opening", &opening, NULL);

  return opening;
}

void
_tandem_window_update_actions (TandemWindow *self)
{
  gboolean busy = _tandem_window_is_busy (self);
  gboolean waiting = _tandem_window_has_pending_interrupts (self);
  gboolean failed = FALSE;
  /* Without its agent a conversation can be read, not continued; nor
   * before the store is open, which would not keep what is sent */
  gboolean usable = self->session != NULL && self->agent_problem == NULL && !is_store_opening (self);
  g_autofree char *text = _tandem_window_dup_composer_text (self);
  gboolean attached = tandem_composer_get_n_attachments (self->composer) > 0;

  if (self->session != NULL)
    failed = agui_run_state_get_status (agui_agent_session_get_run_state (self->session)) == AGUI_RUN_FAILED;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.send",
                                 usable && !busy && !waiting && (!_tandem_window_is_blank (text) || attached));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.attach", usable && !waiting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 self->session != NULL && self->store != NULL &&
                                 g_list_model_get_n_items (G_LIST_MODEL (self->transcript)) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import", self->store != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.retry", usable && failed && !busy && !waiting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.answer-interrupts",
                                 usable && waiting && !busy && !_tandem_window_asks_shown (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.regenerate", usable && !busy && !waiting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.edit-message", usable && !busy && !waiting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-branch", self->session != NULL && !busy);

  tandem_window_update_composer_hint (self, waiting && self->agent_problem == NULL);
  tandem_composer_set_busy (self->composer, busy);
  tandem_composer_set_waiting (self->composer, waiting);
  gtk_widget_set_sensitive (GTK_WIDGET (tandem_composer_get_view (self->composer)), !waiting && self->agent_problem == NULL);
  gtk_revealer_set_reveal_child (self->interrupt_revealer, waiting && !busy);
  {
    GListModel *pending = waiting ? agui_agent_session_get_pending_interrupts (self->session) : NULL;
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
    guint expired = 0;

    for (guint i = 0; pending != NULL && i < g_list_model_get_n_items (pending); i++)
      {
        g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);

        if (agui_interrupt_has_expired (interrupt, now))
          expired++;
      }
    tandem_interrupt_banner_set_expired (self->interrupt_banner, expired);
    tandem_interrupt_banner_set_count (self->interrupt_banner, pending != NULL ? g_list_model_get_n_items (pending) : 0);
  }
  tandem_window_update_status (self);
}

static void
on_session_busy_changed_cb (TandemWindow *self)
{
  _tandem_window_update_actions (self);
  tandem_window_update_steps (self);
}

/* What the next launch reopens: this conversation once it has a turn
 * to keep or a draft (a new conversation only typed in), a new chat
 * otherwise. Written when the window closes, with its size, as GNOME apps
 * keep their state, and whenever the conversation shown changes or is
 * first typed in, so that an app that is killed or crashes reopens it
 * too. */
static void
tandem_window_remember_thread (TandemWindow *self)
{
  g_autofree char *remembered = NULL;
  const char *thread_id = "";

  if (self->settings == NULL)
    return;

  if (self->session != NULL && self->store != NULL &&
      (g_list_model_get_n_items (G_LIST_MODEL (self->transcript)) > 0 ||
       gtk_text_buffer_get_char_count (tandem_composer_get_buffer (self->composer)) > 0))
    thread_id = agui_agent_session_get_thread_id (self->session);

  remembered = g_settings_get_string (self->settings, "last-thread");
  if (g_strcmp0 (remembered, thread_id) != 0)
    g_settings_set_string (self->settings, "last-thread", thread_id);
}

static void
on_transcript_items_changed_cb (TandemWindow *self)
{
  _tandem_window_update_content_page (self);
  _tandem_window_update_agent (self);
  tandem_window_remember_thread (self);
}

void
_tandem_window_exchange_done (TandemWindow     *self,
                             AguiAgentSession *session,
                             AguiRunState     *state,
                             const GError     *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Out of sight, the sidebar marks it (see TandemRunRegistry) and a
   * question raises the approval notice; an answer is told on the
   * desktop as the shown one's is. */
  if (session != self->session)
    {
      if (error == NULL && state != NULL && agui_run_state_get_status (state) == AGUI_RUN_FINISHED &&
          agui_run_state_get_outcome (state) == AGUI_OUTCOME_SUCCESS &&
          g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (session)) == 0)
        {
          g_autofree char *body = dup_last_agent_text (agui_agent_session_get_transcript (session));

          tandem_window_notify (self, "answered", agui_agent_session_get_thread_id (session),
                                _("Tandem: the agent answered"), body);
        }
      return;
    }

  tandem_window_refresh_threads (self);
  tandem_window_update_title (self);
  _tandem_window_update_actions (self);

  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The message could not be sent: %s"), error->message);
      tandem_window_show_toast (self, text);
      return;
    }

  if (_tandem_window_has_pending_interrupts (self))
    {
      tandem_window_notify (self, "approval", agui_agent_session_get_thread_id (session),
                            _("The agent needs your approval"), NULL);
      _tandem_window_ask_interrupts (self);
    }
  else if (state != NULL && agui_run_state_get_status (state) == AGUI_RUN_FINISHED &&
           agui_run_state_get_outcome (state) == AGUI_OUTCOME_SUCCESS)
    {
      g_autofree char *body = dup_last_agent_text (self->transcript);
      tandem_window_notify (self, "answered", agui_agent_session_get_thread_id (session),
                            _("Tandem: the agent answered"), body);
    }
}

static void
on_send_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TandemWindow) self = user_data;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  state = agui_agent_session_send_finish (AGUI_AGENT_SESSION (object), result, &error);
  _tandem_window_exchange_done (self, AGUI_AGENT_SESSION (object), state, error);
}

/* The thread list, in the sidebar */

AguiThreadInfo *
_tandem_window_lookup_thread (TandemWindow *self,
                              const char   *thread_id)
{
  return tandem_sidebar_lookup_thread (self->sidebar, thread_id);
}

/* @agent_name: the conversation's agent, or %NULL for the demo agent */
static void
tandem_window_update_placeholder (TandemWindow *self,
                                  const char   *agent_name)
{
  g_autofree char *text = NULL;

  if (agent_name != NULL)
    /* Translators: the empty composer's hint, with the agent's name */
    text = g_strdup_printf (_("Message %s…"), agent_name);
  else
    text = g_strdup (_("Message the demo agent…"));

  g_free (self->composer_hint);
  self->composer_hint = g_steal_pointer (&text);
  tandem_window_update_composer_hint (self, _tandem_window_has_pending_interrupts (self) && self->agent_problem == NULL);
}

static void
tandem_window_update_title (TandemWindow *self)
{
  GtkApplication *gtk_application = gtk_window_get_application (GTK_WINDOW (self));
  TandemApplication *application = gtk_application != NULL ? TANDEM_APPLICATION (gtk_application) : NULL;
  AguiThreadInfo *thread = NULL;
  const char *title = NULL;

  if (self->session != NULL)
    thread = _tandem_window_lookup_thread (self, agui_agent_session_get_thread_id (self->session));
  if (thread != NULL)
    title = agui_thread_info_get_title (thread);

  adw_window_title_set_title (self->window_title, title != NULL && title[0] != '\0' ? title : _("New Chat"));
  if (self->approval_dialog != NULL && _tandem_window_asks_shown (self))
    tandem_approval_dialog_set_conversation (TANDEM_APPROVAL_DIALOG (self->approval_dialog),
                                             adw_window_title_get_title (self->window_title));

  /* The conversation's own agent, never merely the default one */
  {
    TandemAgent *agent = self->agents != NULL && self->agent_id != NULL
                         ? tandem_agents_lookup (self->agents, self->agent_id) : NULL;
    const char *subtitle;

    if (agent != NULL)
      subtitle = tandem_agent_get_name (agent);
    else if (self->agent_id == NULL || g_strcmp0 (self->agent_id, TANDEM_AGENTS_DEMO_ID) == 0)
      subtitle = _("Demo agent");
    else if (_tandem_window_is_url (self->agent_id))
      subtitle = self->agent_id;
    else
      subtitle = _("Agent not available");

    adw_window_title_set_subtitle (self->window_title, subtitle);
    /* An agent given by its address on the command line is not in the
     * list, and still not the demo agent */
    tandem_window_update_placeholder (self, agent != NULL ? (tandem_agent_is_demo (agent) ? NULL : subtitle)
                                                          : (_tandem_window_is_url (self->agent_id) ? subtitle : NULL));
  }

  (void) application;
}

/* Questions past their expiry wait for nobody: the person can only
 * dismiss them. */
static gboolean
has_open_questions (TandemWindow *self)
{
  return self->session != NULL && tandem_session_waits_for_person (self->session);
}

/* Conversations in the background
 *
 * Each conversation keeps its session while its answer is written or a
 * question waits (TandemRunRegistry): switching away, New Chat or Find
 * never stops a run. The sidebar marks them; a question asked out of
 * sight raises the approval notice and, with the window in the
 * background, a desktop notification that opens the conversation. */

static void
tandem_window_update_notice (TandemWindow *self)
{
  g_autofree char *thread_id = tandem_run_registry_dup_unasked (self->runs);
  AguiThreadInfo *info = _tandem_window_lookup_thread (self, thread_id);

  tandem_approval_notice_set_thread (self->approval_notice, thread_id,
                                     info != NULL ? agui_thread_info_get_title (info) : NULL);
}

static void
on_runs_changed_cb (TandemWindow *self,
                    const char   *thread_id)
{
  /* The sidebar marks the row itself */
  tandem_window_update_notice (self);
}

static void
on_runs_approval_needed_cb (TandemWindow *self,
                            const char   *thread_id)
{
  AguiThreadInfo *info = _tandem_window_lookup_thread (self, thread_id);
  const char *title = info != NULL ? agui_thread_info_get_title (info) : NULL;

  tandem_window_update_notice (self);
  tandem_window_notify (self, "approval", thread_id, _("The agent needs your approval"),
                        title != NULL && title[0] != '\0' ? title : NULL);
}

/* Whether another run may start; when too many are going, says why the
 * message was not sent (it stays in the composer). */
gboolean
_tandem_window_may_run (TandemWindow *self)
{
  g_autofree char *text = NULL;
  guint max;

  if (tandem_run_registry_can_start (self->runs))
    return TRUE;

  max = tandem_run_registry_get_max_runs (self->runs);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Not sent: %u answer is already being written. Wait for it or stop it.",
                                       "Not sent: %u answers are already being written. Wait for one or stop one.",
                                       max),
                          max);
  tandem_window_show_toast (self, text);

  return FALSE;
}

/**
 * tandem_window_holds_thread:
 * @self: a window
 * @thread_id: a conversation's thread
 *
 * Returns: whether @thread_id is alive in @self: shown, or running or
 *   waiting for the person out of sight
 */
gboolean
tandem_window_holds_thread (TandemWindow *self,
                            const char   *thread_id)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  return tandem_run_registry_lookup (self->runs, thread_id) != NULL;
}

/**
 * tandem_window_get_n_running:
 * @self: a window
 *
 * Returns: how many of its conversations have an answer being written,
 *   shown or not
 */
guint
tandem_window_get_n_running (TandemWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), 0);

  return tandem_run_registry_get_n_running (self->runs);
}

/**
 * tandem_window_get_threads_loading:
 * @self: a window
 *
 * Returns: whether the sidebar waits for the store (its first listing
 *   of the conversations, or a search of their messages)
 */
gboolean
tandem_window_get_threads_loading (TandemWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  return self->thread_writes > 0 || tandem_sidebar_get_loading (self->sidebar);
}

/* The thread list follows the store by itself; this filters it again
 * in memory, after the open conversation changed what it says (its
 * waiting mark) or a delete was undone. */
void
tandem_window_refresh_threads (TandemWindow *self)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));

  tandem_sidebar_set_store (self->sidebar, self->store);
  tandem_sidebar_refresh (self->sidebar);
}

static void
on_sidebar_thread_activated_cb (TandemWindow *self,
                                const char   *id)
{
  if (self->session == NULL || g_strcmp0 (id, agui_agent_session_get_thread_id (self->session)) != 0)
    tandem_window_open_thread (self, id);
  /* Opening a result ends the search, or the next new chat is hidden */
  tandem_keyboard_search_done (self->keyboard);

  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
}

static void
on_agent_selected_cb (TandemWindow *self)
{
  TandemAgent *agent = gtk_drop_down_get_selected_item (self->agent_dropdown);
  const char *id;

  if (self->syncing_dropdown || agent == NULL)
    return;

  id = tandem_agent_get_id (agent);
  if (g_strcmp0 (id, self->agent_id) == 0)
    return;

  if (self->agents != NULL)
    tandem_agents_set_active_id (self->agents, id);

  /* A new conversation starts over with that agent */
  _tandem_window_open (self, NULL, id);
}

/* The composer */

/**
 * tandem_window_handle_composer_key:
 * @self: a window
 * @keyval: the key pressed
 * @state: the modifiers held
 *
 * What the composer does with a key, before the text view sees it (see
 * tandem_composer_handle_key(), which the composer's key controller
 * calls); tests call this, as GTK 4 cannot synthesize key events.
 *
 * Returns: %TRUE if the key was handled
 */
gboolean
tandem_window_handle_composer_key (TandemWindow    *self,
                                   guint            keyval,
                                   GdkModifierType  state)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  return tandem_composer_handle_key (self->composer, keyval, state);
}

/**
 * tandem_window_handle_escape:
 * @self: a window
 *
 * Escape stops the run only while focus is in the composer or the
 * transcript: pressed to close the conversation search, a popover or a
 * dialog, it is theirs. The window's key controller calls this; tests
 * call it directly, as GTK 4 cannot synthesize key events.
 *
 * Returns: %TRUE if the run was stopped
 */
gboolean
tandem_window_handle_escape (TandemWindow *self)
{
  GtkWidget *focus;

  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (!_tandem_window_is_busy (self) || focus == NULL || gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return FALSE;

  if (focus != GTK_WIDGET (self->composer) && !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->composer)) &&
      focus != GTK_WIDGET (self->transcript_scroller) &&
      !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->transcript_scroller)))
    return FALSE;

  gtk_widget_activate_action (GTK_WIDGET (self), "win.stop", NULL);
  return TRUE;
}

static gboolean
on_window_key_pressed_cb (TandemWindow          *self,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          GtkEventControllerKey *controller)
{
  if (keyval != GDK_KEY_Escape || (state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;

  return tandem_window_handle_escape (self);
}

void
tandem_window_send (TandemWindow *self,
                    const char   *text)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  if (self->session == NULL || _tandem_window_is_blank (text) || _tandem_window_has_pending_interrupts (self) || self->agent_problem != NULL)
    return;
  if (!_tandem_window_may_run (self))
    return;

  g_free (self->last_user_text);
  self->last_user_text = g_strdup (text);
  _tandem_window_follow (self);

  agui_agent_session_send_async (self->session, text, NULL, self->cancellable,
                                 on_send_done_cb, g_object_ref (self));
  _tandem_window_update_actions (self);
}

static void
on_send_message_done_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(TandemWindow) self = user_data;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  state = agui_agent_session_send_message_finish (AGUI_AGENT_SESSION (object), result, &error);
  _tandem_window_exchange_done (self, AGUI_AGENT_SESSION (object), state, error);
}

/* The text and the files attached, as one multimodal user message */
void
_tandem_window_send_with_attachments (TandemWindow *self,
                                     const char   *text)
{
  g_autoptr(JsonObject) message = NULL;
  JsonArray *content;
  JsonArray *parts;

  if (self->session == NULL || _tandem_window_has_pending_interrupts (self) || self->agent_problem != NULL)
    return;
  if (!_tandem_window_may_run (self))
    return;

  content = json_array_new ();
  if (!_tandem_window_is_blank (text))
    {
      JsonObject *part = json_object_new ();

      json_object_set_string_member (part, "type", "text");
      json_object_set_string_member (part, "text", text);
      json_array_add_object_element (content, part);
    }
  parts = tandem_composer_dup_content_parts (self->composer);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    json_array_add_element (content, json_node_copy (json_array_get_element (parts, i)));
  json_array_unref (parts);

  message = json_object_new ();
  json_object_set_string_member (message, "role", "user");
  json_object_set_array_member (message, "content", content);

  gtk_text_buffer_set_text (tandem_composer_get_buffer (self->composer), "", 0);
  tandem_composer_clear_attachments (self->composer);
  g_free (self->last_user_text);
  self->last_user_text = g_strdup (text);
  _tandem_window_follow (self);

  agui_agent_session_send_message_async (self->session, message, NULL, self->cancellable,
                                         on_send_message_done_cb, g_object_ref (self));
  _tandem_window_update_actions (self);
}

/**
 * tandem_window_attach_file:
 * @self: a window
 * @file: a file
 *
 * Attaches @file to the message being written, as choosing or dropping
 * it does; one too large is refused with a toast saying so.
 */
void
tandem_window_attach_file (TandemWindow *self,
                           GFile        *file)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  tandem_composer_attach_file (self->composer, file);
}

/* The window's buttons belong in its corners, whichever pane is there */
static void
tandem_window_update_title_buttons (TandemWindow *self)
{
  gboolean inspector = adw_flap_get_reveal_flap (self->inspector_flap);

  adw_header_bar_set_show_start_title_buttons (self->conversation_header, !adw_flap_get_reveal_flap (self->flap));
  adw_header_bar_set_show_end_title_buttons (self->conversation_header, !inspector);
  adw_header_bar_set_show_end_title_buttons (self->inspector_header, inspector);
}

static void
on_flap_reveal_changed_cb (TandemWindow *self)
{
  tandem_window_update_title_buttons (self);
  if (self->settings != NULL && !adw_flap_get_folded (self->flap))
    g_settings_set_boolean (self->settings, "sidebar-visible", adw_flap_get_reveal_flap (self->flap));
}

/* Only a side-by-side inspector is remembered: one opened over the
 * conversation in a narrow window would cover it at the next start */
static void
on_inspector_flap_changed_cb (TandemWindow *self)
{
  tandem_window_update_title_buttons (self);
  if (self->settings != NULL && !adw_flap_get_folded (self->inspector_flap))
    g_settings_set_boolean (self->settings, "inspector-visible", adw_flap_get_reveal_flap (self->inspector_flap));
}

/* GObject */

static gboolean
close_timeout_cb (gpointer user_data)
{
  TandemWindow *self = user_data;

  self->close_timeout_id = 0;
  g_warning ("The conversation was not saved in time; closing without it");
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

/* Closed during runs: their turns, stopped, are saved; the window can go */
static void
on_runs_n_running_cb (TandemWindow *self)
{
  if (self->close_timeout_id != 0 && tandem_run_registry_get_n_running (self->runs) == 0)
    {
      g_clear_handle_id (&self->close_timeout_id, g_source_remove);
      gtk_window_destroy (GTK_WINDOW (self));
    }
}

static void
on_quit_response_cb (TandemWindow     *self,
                     const char       *response,
                     AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "quit") != 0)
    return;

  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
tandem_window_close_request (GtkWindow *window)
{
  TandemWindow *self = TANDEM_WINDOW (window);
  guint n_running = tandem_run_registry_get_n_running (self->runs);

  /* Answers being written, shown or not, are not stopped unasked */
  if (n_running > 0 && !self->close_confirmed)
    {
      if (self->quit_dialog == NULL)
        {
          GtkWidget *dialog = tandem_quit_dialog_new (window, n_running);

          g_signal_connect_object (dialog, "response", G_CALLBACK (on_quit_response_cb), self, G_CONNECT_SWAPPED);
          g_set_weak_pointer (&self->quit_dialog, GTK_WINDOW (dialog));
        }
      gtk_window_present (self->quit_dialog);
      return TRUE;
    }

  if (self->settings != NULL)
    {
      int width, height;

      /* Not in delay-apply mode: these settings are the application's,
       * and would stay in it after the apply, holding back every later
       * change (the active agent, another window's conversation) */
      gtk_window_get_default_size (window, &width, &height);
      if (!gtk_window_is_maximized (window))
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      tandem_window_remember_thread (self);
    }

  _tandem_window_flush_pending_deletes (self);

  /* Closing while agents answer stops every run as Stop does, and the
   * window, hidden at once, goes when the turns (the person's messages
   * and the answers so far) are saved: quitting must not lose them. A
   * store that does not answer in time is not waited for forever. */
  if (n_running > 0)
    {
      if (self->close_timeout_id == 0)
        {
          self->close_timeout_id = g_timeout_add_seconds (CLOSE_TIMEOUT_S, close_timeout_cb, self);
          gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
          tandem_run_registry_stop_all (self->runs);
        }
      return TRUE;
    }

  return GTK_WINDOW_CLASS (tandem_window_parent_class)->close_request (window);
}

static void
show_store_error (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *error = NULL;

  if (application != NULL)
    g_object_get (application, "store-error", &error, NULL);

  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Conversations will not be saved: %s"), error);
      tandem_window_show_toast (self, text);
    }
}

static void
on_application_store_cb (TandemWindow   *self,
                         GParamSpec     *pspec,
                         GtkApplication *application)
{
  g_clear_object (&self->store);
  g_object_get (application, "store", &self->store, NULL);
  show_store_error (self);
  tandem_window_refresh_threads (self);

  if (self->reopen_thread != NULL)
    {
      _tandem_window_check_reopen (self);
      return;
    }

  _tandem_window_adopt_store (self);
}

/* GtkWindow:application is not a construct property: this runs once it is set. */
static void
tandem_window_setup (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (application != NULL)
    {
      g_clear_object (&self->settings);
      g_clear_object (&self->store);
      g_clear_object (&self->agents);
      g_object_get (application,
                    "settings", &self->settings,
                    "store", &self->store,
                    "agents", &self->agents,
                    NULL);
    }

  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      adw_flap_set_reveal_flap (self->flap, g_settings_get_boolean (self->settings, "sidebar-visible"));
      adw_flap_set_reveal_flap (self->inspector_flap, g_settings_get_boolean (self->settings, "inspector-visible"));
      if (self->agents != NULL)
        {
          g_signal_connect_object (self->settings, "changed::active-agent",
                                   G_CALLBACK (_tandem_window_update_content_page), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (tandem_agents_get_model (self->agents), "items-changed",
                                   G_CALLBACK (_tandem_window_update_content_page), self, G_CONNECT_SWAPPED);
        }
    }

  if (is_store_opening (self))
    g_signal_connect_object (application, "notify::store", G_CALLBACK (on_application_store_cb),
                             self, G_CONNECT_SWAPPED);
  else
    show_store_error (self);

  self->tools = tandem_desktop_tools_new (GTK_WINDOW (self));

  tandem_window_refresh_threads (self);
  tandem_window_new_chat (self);
}

static void
tandem_window_dispose (GObject *object)
{
  TandemWindow *self = TANDEM_WINDOW (object);

  /* HACK: the dialog outlives us until its cancellation is dispatched,
   * and GTK 4.8 would then unlink it from a freed transient parent. */
  if (self->approval_dialog != NULL)
    gtk_window_set_transient_for (self->approval_dialog, NULL);
  g_clear_weak_pointer (&self->approval_dialog);
  if (self->quit_dialog != NULL)
    gtk_window_destroy (self->quit_dialog);
  g_clear_weak_pointer (&self->quit_dialog);
  if (self->runs != NULL)
    g_signal_handlers_disconnect_by_data (self->runs, self);

  g_clear_handle_id (&self->close_timeout_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->open_cancellable);
  _tandem_window_clear_file_chooser (self);
  if (self->follow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->follow_tick);
  self->follow_tick = 0;
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->reveal_tick);
  self->reveal_tick = 0;

  _tandem_window_flush_pending_deletes (self);
  g_clear_object (&self->toaster);
  g_clear_object (&self->draft_keeper);
  g_clear_object (&self->keyboard);
  g_clear_object (&self->scroll_span);

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (self->transcript, self);
      g_signal_handlers_disconnect_by_data (agui_transcript_get_subagents (self->transcript), self);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_WINDOW);

  g_clear_object (&self->session);
  g_clear_object (&self->runs);
  g_clear_object (&self->block_window);
  g_clear_object (&self->blocks);
  self->transcript = NULL;
  g_clear_object (&self->tools);
  g_clear_object (&self->agents);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_object (&self->open_cancellable);

  G_OBJECT_CLASS (tandem_window_parent_class)->dispose (object);
}

static void
tandem_window_finalize (GObject *object)
{
  TandemWindow *self = TANDEM_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->last_user_text, g_free);
  g_clear_pointer (&self->reopen_thread, g_free);
  g_clear_pointer (&self->agent_id, g_free);
  g_clear_pointer (&self->agent_problem, g_free);
  g_clear_pointer (&self->composer_hint, g_free);
  g_clear_pointer (&self->next_agent_problem, g_free);

  G_OBJECT_CLASS (tandem_window_parent_class)->finalize (object);
}

static void
tandem_window_class_init (TandemWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tandem_window_dispose;
  object_class->finalize = tandem_window_finalize;
  window_class->close_request = tandem_window_close_request;

  g_type_ensure (TANDEM_TYPE_AGENT);
  g_type_ensure (TANDEM_TYPE_BLOCK_ROW);
  g_type_ensure (TANDEM_TYPE_SIDEBAR);
  g_type_ensure (TANDEM_TYPE_STATE_INSPECTOR);
  g_type_ensure (TANDEM_TYPE_INTERRUPT_BANNER);
  g_type_ensure (TANDEM_TYPE_APPROVAL_NOTICE);
  g_type_ensure (TANDEM_TYPE_SAVE_BANNER);
  g_type_ensure (TANDEM_TYPE_WELCOME_PROMPTS);
  g_type_ensure (TANDEM_TYPE_CONVERSATION_SEARCH);
  g_type_ensure (TANDEM_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_missing_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, approval_notice);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_missing_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, continue_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_box);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_spinner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, status);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_page);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_preferences_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_prompts);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, conversation_search);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_scroller);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_view);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_selection);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, jump_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, save_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_details);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_details_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, interrupt_revealer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, interrupt_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, composer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_flap);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_close_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, conversation_header);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_header);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector);
  gtk_widget_class_bind_template_callback (widget_class, on_flap_reveal_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_inspector_flap_changed_cb);

  _tandem_window_class_init_actions (widget_class);
}

static void
tandem_window_init (TandemWindow *self)
{
  GtkEventController *controller;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = tandem_toaster_new (GTK_WIDGET (self->toast_overlay));

  /* The striped header bar of a development build, as GNOME apps show it */
  if (DEVELOPMENT_PROFILE)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  self->cancellable = g_cancellable_new ();
  self->runs = tandem_run_registry_new (TANDEM_RUN_REGISTRY_MAX_RUNS);
  g_signal_connect_object (self->runs, "changed", G_CALLBACK (on_runs_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runs, "approval-needed", G_CALLBACK (on_runs_approval_needed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runs, "notify::n-running", G_CALLBACK (on_runs_n_running_cb),
                           self, G_CONNECT_SWAPPED);
  tandem_sidebar_set_runs (self->sidebar, self->runs);
  g_signal_connect_object (self->sidebar, "thread-activated", G_CALLBACK (on_sidebar_thread_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar, "threads-changed", G_CALLBACK (tandem_window_update_title),
                           self, G_CONNECT_SWAPPED);
  self->following = TRUE;

  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_window_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  g_signal_connect_object (tandem_composer_get_buffer (self->composer), "changed",
                           G_CALLBACK (_tandem_window_update_actions), self, G_CONNECT_SWAPPED);
  self->draft_keeper = tandem_draft_keeper_new (tandem_composer_get_buffer (self->composer));
  g_signal_connect_object (tandem_composer_get_buffer (self->composer), "changed",
                           G_CALLBACK (tandem_window_remember_thread), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "notify::n-attachments",
                           G_CALLBACK (_tandem_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "error",
                           G_CALLBACK (tandem_window_show_toast), self, G_CONNECT_SWAPPED);

  _tandem_window_init_transcript (self);

  g_signal_connect_object (self->agent_dropdown, "notify::selected",
                           G_CALLBACK (on_agent_selected_cb), self, G_CONNECT_SWAPPED);

  self->keyboard = tandem_keyboard_new (GTK_WINDOW (self));
  tandem_keyboard_set_sidebar (self->keyboard, GTK_WIDGET (self->sidebar),
                               tandem_sidebar_get_thread_list (self->sidebar),
                               tandem_sidebar_get_search_bar (self->sidebar),
                               tandem_sidebar_get_search_entry (self->sidebar));
  tandem_keyboard_set_conversation (self->keyboard, GTK_WIDGET (self->content_stack), GTK_WIDGET (self->transcript_view));
  tandem_keyboard_set_composer (self->keyboard, GTK_WIDGET (self->composer),
                                tandem_composer_get_view (self->composer),
                                GTK_WIDGET (self->interrupt_revealer));

  _tandem_window_init_actions (self);

  _tandem_window_update_actions (self);
}

/* API */

TandemWindow *
tandem_window_new (TandemApplication *application)
{
  TandemWindow *self;

  g_return_val_if_fail (TANDEM_IS_APPLICATION (application), NULL);

  self = g_object_new (TANDEM_TYPE_WINDOW, "application", application, NULL);
  tandem_window_setup (self);

  return self;
}

/**
 * tandem_window_get_session:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the conversation shown
 */
AguiAgentSession *
tandem_window_get_session (TandemWindow *self)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), NULL);

  return self->session;
}

/**
 * tandem_window_set_session:
 * @self: a window
 * @session: the conversation to show
 *
 * Shows @session, replacing the conversation shown, which goes on in the
 * background while its answer is written or its question waits; a
 * conversation still being opened is abandoned. Tests use it to drive
 * the window with a session on a scripted transport.
 */
void
tandem_window_set_session (TandemWindow     *self,
                           AguiAgentSession *session)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (AGUI_IS_AGENT_SESSION (session));

  g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);

  if (self->session == session)
    return;

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (self->transcript, self);
      g_signal_handlers_disconnect_by_data (agui_transcript_get_subagents (self->transcript), self);
    }

  /* The one shown before goes on in the background while it runs */
  g_set_object (&self->session, session);
  /* Before the registry says it changed: the sidebar marks the rows then */
  tandem_sidebar_set_session (self->sidebar, session);
  tandem_run_registry_show (self->runs, session);
  self->transcript = agui_agent_session_get_transcript (session);
  self->following = TRUE;
  g_clear_pointer (&self->agent_id, g_free);
  g_object_get (session, "agent", &self->agent_id, NULL);
  g_free (self->agent_problem);
  self->agent_problem = g_steal_pointer (&self->next_agent_problem);

  g_clear_object (&self->block_window);
  g_clear_object (&self->blocks);
  self->blocks = tandem_block_list_new (self->transcript);
  tandem_block_list_set_session (self->blocks, session);
  self->block_window = tandem_block_window_new (G_LIST_MODEL (self->blocks), OPEN_BLOCKS);
  gtk_no_selection_set_model (self->transcript_selection, G_LIST_MODEL (self->block_window));
  tandem_scroll_span_set_window (self->scroll_span, self->block_window);
  self->relayout_pending = TRUE;
  tandem_conversation_search_set_blocks (self->conversation_search, G_LIST_MODEL (self->block_window));
  tandem_state_inspector_set_transcript (self->inspector, self->transcript);
  tandem_save_banner_set_session (self->save_banner, session);
  if (self->keep_composer_text)
    {
      /* What the person typed while the store opened is theirs: it stays */
      g_autofree char *typed = _tandem_window_dup_composer_text (self);

      tandem_draft_keeper_set_thread (self->draft_keeper, self->store, agui_agent_session_get_thread_id (session));
      if (typed[0] != '\0')
        gtk_text_buffer_set_text (tandem_composer_get_buffer (self->composer), typed, -1);
      self->keep_composer_text = FALSE;
    }
  else
    {
      tandem_draft_keeper_set_thread (self->draft_keeper, self->store, agui_agent_session_get_thread_id (session));
    }

  g_signal_connect_object (session, "notify::busy", G_CALLBACK (on_session_busy_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::run-state", G_CALLBACK (tandem_window_update_run_state), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::pending-interrupts", G_CALLBACK (_tandem_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::pending-interrupts", G_CALLBACK (tandem_window_refresh_threads), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::turn-index", G_CALLBACK (tandem_window_refresh_threads), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transcript, "notify::steps", G_CALLBACK (tandem_window_update_steps), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (agui_transcript_get_subagents (self->transcript), "items-changed",
                           G_CALLBACK (tandem_window_update_steps), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transcript, "items-changed", G_CALLBACK (on_transcript_items_changed_cb), self, G_CONNECT_SWAPPED);

  _tandem_window_update_content_page (self);
  tandem_window_update_run_state (self);
  tandem_window_update_steps (self);
  _tandem_window_update_agent (self);
  tandem_window_update_title (self);
  tandem_window_refresh_threads (self);
  _tandem_window_update_actions (self);
  _tandem_window_sync_approval (self);
  /* Its questions, asked while it was out of sight, are put now */
  if (tandem_run_registry_take_unasked (self->runs, agui_agent_session_get_thread_id (session)))
    _tandem_window_ask_interrupts (self);
  _tandem_window_queue_follow (self);
}

/**
 * tandem_window_confirm_close:
 * @self: a window
 *
 * Closing @self may stop its runs without asking: the person agreed
 * already (Quit asks once for every window).
 */
void
tandem_window_confirm_close (TandemWindow *self)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));

  self->close_confirmed = TRUE;
}
