/* tandem-window-state.c
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

/* What the window shows of its conversation, below the window's pieces:
 * the status, the title, the actions' states, the exchanges with the
 * session and the session itself. The pieces (open, approvals, actions)
 * call into this file, never the other way: what it needs of the
 * approvals piece it reaches through the hooks tandem-window.c sets. */

static gboolean has_open_questions        (TandemWindow *self);

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
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (G_LIST_MODEL (transcript), i - 1);

      if (agui_speaker_turn_get_role (message) == AGUI_ROLE_ASSISTANT)
        {
          g_autofree char *text = agui_speaker_turn_dup_text (message);

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
  /* An agent's step name can be longer than the header has room for,
   * and a narrow header shows the spinner alone: the whole box says it */
  gtk_widget_set_tooltip_text (self->steps_box,
                               tooltip != NULL ? tooltip : current != NULL ? current : (busy ? _("Working…") : NULL));
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

gboolean
_tandem_window_is_store_opening (TandemWindow *self)
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
  /* A run resuming on the person's answers keeps them pending until it
   * ends; the composer and the banner wait for nobody meanwhile. */
  gboolean waiting = !busy && _tandem_window_has_pending_interrupts (self);
  gboolean failed = FALSE;
  /* Without its agent a conversation can be read, not continued; nor
   * before the store is open, which would not keep what is sent */
  gboolean usable = self->session != NULL && self->agent_problem == NULL && !_tandem_window_is_store_opening (self);
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
                                 usable && waiting && !busy && !self->approvals.asks_shown (self));
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
void
_tandem_window_remember_thread (TandemWindow *self)
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
  _tandem_window_remember_thread (self);
}

static void
exchange_done (TandemWindow     *self,
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
  _tandem_window_update_title (self);
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
      self->approvals.ask_interrupts (self);
    }
  else if (state != NULL && agui_run_state_get_status (state) == AGUI_RUN_FINISHED &&
           agui_run_state_get_outcome (state) == AGUI_OUTCOME_SUCCESS)
    {
      g_autofree char *body = dup_last_agent_text (self->transcript);
      tandem_window_notify (self, "answered", agui_agent_session_get_thread_id (session),
                            _("Tandem: the agent answered"), body);
    }
}

typedef struct
{
  TandemWindow         *window;
  TandemExchangeFinish  finish;
} Exchange;

gpointer
_tandem_window_watch_exchange (TandemWindow         *self,
                               TandemExchangeFinish  finish)
{
  Exchange *exchange = g_new0 (Exchange, 1);

  exchange->window = g_object_ref (self);
  exchange->finish = finish;

  return exchange;
}

void
_tandem_window_on_exchange_done_cb (GObject      *object,
                                    GAsyncResult *result,
                                    gpointer      user_data)
{
  g_autofree Exchange *exchange = user_data;
  g_autoptr(TandemWindow) self = exchange->window;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  state = exchange->finish (AGUI_AGENT_SESSION (object), result, &error);
  exchange_done (self, AGUI_AGENT_SESSION (object), state, error);
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
  /* As in _tandem_window_update_actions: a run resuming on the person's
   * answers waits for nobody, though they stay pending until it ends
   * (else a header update during that run says an expired question
   * waits, for the answered one no longer counts as open) */
  tandem_window_update_composer_hint (self, !_tandem_window_is_busy (self) &&
                                            _tandem_window_has_pending_interrupts (self) &&
                                            self->agent_problem == NULL);
}

void
_tandem_window_update_title (TandemWindow *self)
{
  GtkApplication *gtk_application = gtk_window_get_application (GTK_WINDOW (self));
  TandemApplication *application = gtk_application != NULL ? TANDEM_APPLICATION (gtk_application) : NULL;
  AguiThreadInfo *thread = NULL;
  const char *title = NULL;

  if (self->session != NULL)
    thread = _tandem_window_lookup_thread (self, agui_agent_session_get_thread_id (self->session));
  if (thread != NULL)
    title = agui_thread_info_get_title (thread);

  title = title != NULL && title[0] != '\0' ? title : _("New Chat");
  /* Another title: the words beside the spinner may fit again; the
   * header's next fit takes them away if they do not */
  if (g_strcmp0 (title, adw_window_title_get_title (self->window_title)) != 0 && self->steps_narrow)
    {
      self->steps_narrow = FALSE;
      gtk_widget_set_visible (GTK_WIDGET (self->steps_label), TRUE);
    }
  adw_window_title_set_title (self->window_title, title);
  if (self->approval_dialog != NULL && self->approvals.asks_shown (self))
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

void
_tandem_window_on_runs_changed_cb (TandemWindow *self,
                                   const char   *thread_id)
{
  /* The sidebar marks the row itself */
  tandem_window_update_notice (self);
}

void
_tandem_window_on_runs_approval_needed_cb (TandemWindow *self,
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

  agui_agent_session_send_async (self->session, text, NULL, self->cancellable, _tandem_window_on_exchange_done_cb,
                                 _tandem_window_watch_exchange (self, agui_agent_session_send_finish));
  _tandem_window_update_actions (self);
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

  agui_agent_session_send_message_async (self->session, message, NULL, self->cancellable, _tandem_window_on_exchange_done_cb,
                                         _tandem_window_watch_exchange (self, agui_agent_session_send_message_finish));
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
/* Something of the conversation left, let go of once the loop is idle */
static gboolean
let_go_cb (gpointer user_data)
{
  return G_SOURCE_REMOVE;
}

static void
let_go_later (gpointer object)
{
  if (object != NULL)
    g_idle_add_full (G_PRIORITY_LOW, let_go_cb, g_object_ref (object), g_object_unref);
}

/* The conversation opens with its last OPEN_BLOCKS blocks, made in two
 * dispatches of the main loop rather than one: each is followed at once
 * by GDK's X11 backend measuring the whole window again for its size
 * hints (an idle of a priority above any other), which lays out the rows
 * just made, so that making 16 rows and measuring them held the main
 * thread 11-12 ms in one stretch. The second half comes at a priority
 * above the frame clock's, so the first frame draws all of them. */
static gboolean
show_rest_cb (gpointer user_data)
{
  TandemWindow *self = user_data;

  self->open_rest_id = 0;
  if (self->block_window != NULL && tandem_block_window_reveal (self->block_window, OPEN_BLOCKS - OPEN_BLOCKS / 2) > 0)
    self->relayout_pending = TRUE;

  return G_SOURCE_REMOVE;
}

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

  /* Freeing a long conversation left (its transcript, its blocks) held
   * the main loop for 50 ms or more inside the switch: the window keeps
   * them until the loop is idle, the switch drawn, and lets them go
   * then, one at each turn. */
  let_go_later (self->block_window);
  let_go_later (self->blocks);
  let_go_later (self->session);

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
  /* Half the rows now, the rest at the next turn of the loop (see
   * show_rest_cb()) */
  g_clear_handle_id (&self->open_rest_id, g_source_remove);
  self->block_window = tandem_block_window_new (G_LIST_MODEL (self->blocks), OPEN_BLOCKS / 2);
  self->open_rest_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, show_rest_cb, self, NULL);
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
  _tandem_window_update_title (self);
  tandem_window_refresh_threads (self);
  _tandem_window_update_actions (self);
  self->approvals.sync_approval (self);
  /* Its questions, asked while it was out of sight, are put now */
  if (tandem_run_registry_take_unasked (self->runs, agui_agent_session_get_thread_id (session)))
    self->approvals.ask_interrupts (self);
  _tandem_window_queue_follow (self);
}

gboolean
_tandem_window_is_url (const char *agent)
{
  return agent != NULL &&
         (g_str_has_prefix (agent, "http://") || g_str_has_prefix (agent, "https://"));
}

/* The agent selector: which agent a new conversation talks to, or which
 * one takes over a conversation whose agent is gone. A conversation under
 * way keeps its agent, so then the selector is hidden. */

gboolean
_tandem_window_is_new_conversation (TandemWindow *self)
{
  if (self->session == NULL)
    return TRUE;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->transcript)) > 0)
    return FALSE;

  return _tandem_window_lookup_thread (self, agui_agent_session_get_thread_id (self->session)) == NULL;
}

void
_tandem_window_update_agent (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *url = NULL;
  gboolean override, shown;
  GListModel *model = self->agents != NULL ? tandem_agents_get_model (self->agents) : NULL;
  guint selected = GTK_INVALID_LIST_POSITION;

  if (application != NULL)
    g_object_get (application, "agent-url", &url, NULL);
  override = url != NULL;

  if (model != NULL && gtk_drop_down_get_model (self->agent_dropdown) != model)
    {
      self->syncing_dropdown = TRUE;
      gtk_drop_down_set_model (self->agent_dropdown, model);
      gtk_drop_down_set_model (self->welcome_agent_dropdown, model);
      gtk_drop_down_set_model (self->continue_dropdown, model);
      self->syncing_dropdown = FALSE;
    }

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TandemAgent) agent = g_list_model_get_item (model, i);

      if (g_strcmp0 (tandem_agent_get_id (agent), self->agent_id) == 0)
        selected = i;
    }

  shown = model != NULL && !override && self->agent_problem == NULL &&
          selected != GTK_INVALID_LIST_POSITION && _tandem_window_is_new_conversation (self);
  gtk_widget_set_visible (GTK_WIDGET (self->agent_dropdown), shown && !self->agent_narrow);
  gtk_widget_set_visible (GTK_WIDGET (self->welcome_agent_dropdown), shown && self->agent_narrow);
  if (selected != GTK_INVALID_LIST_POSITION)
    {
      self->syncing_dropdown = TRUE;
      gtk_drop_down_set_selected (self->agent_dropdown, selected);
      self->syncing_dropdown = FALSE;
    }

  if (self->agent_problem != NULL)
    {
      /* Offer the agent new conversations use */
      for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(TandemAgent) agent = g_list_model_get_item (model, i);

          if (g_strcmp0 (tandem_agent_get_id (agent), tandem_agents_get_active_id (self->agents)) == 0)
            gtk_drop_down_set_selected (self->continue_dropdown, i);
        }
      gtk_label_set_text (self->agent_missing_label, self->agent_problem);
    }
  gtk_widget_set_visible (self->agent_missing_banner, self->agent_problem != NULL);
}
