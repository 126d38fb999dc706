/* tandem-window-approvals.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-approval-dialog.h"
#include "tandem-window-private.h"

/* The agent's questions, asked in the window's dialogs: one dialog per
 * question, in turn, then one resume with every answer. */

/* Interrupts: one dialog each, in turn, then one resume with every answer. */

/* The window is held weakly: a dialog waiting for the person must not
 * keep a destroyed window alive, and its dispose cancels the dialogs. */
typedef struct _AskData
{
  GWeakRef          self;
  AguiAgentSession *session;
  char             *thread_id;
  GPtrArray        *interrupts;  /* of AguiInterrupt */
  JsonArray        *answers;
  guint             index;
} AskData;

static void
ask_data_free (AskData *data)
{
  g_autoptr(TandemWindow) self = g_weak_ref_get (&data->self);

  if (self != NULL && self->ask == data)
    {
      self->ask = NULL;
      _tandem_window_update_actions (self);
    }
  g_weak_ref_clear (&data->self);
  g_clear_object (&data->session);
  g_free (data->thread_id);
  g_clear_pointer (&data->interrupts, g_ptr_array_unref);
  g_clear_pointer (&data->answers, json_array_unref);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AskData, ask_data_free)

static void ask_next (AskData *data);

static void
on_approval_answered_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(AskData) data = user_data;
  g_autoptr(TandemWindow) self = g_weak_ref_get (&data->self);
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  /* CANCELLED is "decide later": nothing goes out, the question stays
   * on its card and in the banner, and Answer… asks again from the first. */
  answer = tandem_approval_dialog_ask_finish (TANDEM_APPROVAL_DIALOG (object), result, &error);
  if (answer == NULL)
    {
      if (self != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tandem_window_show_toast (self, error->message);
      return;
    }

  if (self == NULL)
    {
      json_object_unref (answer);
      return;
    }

  json_array_add_object_element (data->answers, answer);
  data->index++;
  ask_next (g_steal_pointer (&data));
}

static void
ask_next (AskData *data)
{
  g_autoptr(TandemWindow) self = g_weak_ref_get (&data->self);
  TandemApprovalDialog *dialog;

  g_assert (self != NULL);

  if (data->index >= data->interrupts->len)
    {
      g_autoptr(AskData) owned = data;

      agui_agent_session_resume_async (data->session, data->answers, NULL, self->cancellable, _tandem_window_on_exchange_done_cb,
                                       _tandem_window_watch_exchange (self, agui_agent_session_resume_finish));
      return;
    }

  dialog = tandem_approval_dialog_new (GTK_WINDOW (self),
                                       agui_agent_session_get_transcript (data->session),
                                       g_ptr_array_index (data->interrupts, data->index));
  tandem_approval_dialog_set_position (dialog, data->index + 1, data->interrupts->len);
  tandem_approval_dialog_set_conversation (dialog, adw_window_title_get_title (self->window_title));
  g_set_weak_pointer (&self->approval_dialog, GTK_WINDOW (dialog));
  tandem_approval_dialog_ask_async (dialog, self->cancellable, on_approval_answered_cb, data);
}

gboolean
_tandem_window_asks_shown (TandemWindow *self)
{
  if (self->ask == NULL || self->session == NULL)
    return FALSE;

  /* Without a thread (never stored), only the very session is its conversation */
  if (self->ask->thread_id == NULL)
    return self->ask->session == self->session;

  return g_strcmp0 (self->ask->thread_id, agui_agent_session_get_thread_id (self->session)) == 0;
}

/* Whether @session still waits on exactly the questions @data asks */
static gboolean
ask_data_matches (AskData          *data,
                  AguiAgentSession *session)
{
  GListModel *pending = agui_agent_session_get_pending_interrupts (session);

  if (g_list_model_get_n_items (pending) != data->interrupts->len)
    return FALSE;

  for (guint i = 0; i < data->interrupts->len; i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);

      if (g_strcmp0 (agui_interrupt_get_id (interrupt), agui_interrupt_get_id (data->interrupts->pdata[i])) != 0)
        return FALSE;
    }

  return TRUE;
}

/* The dialog belongs to its conversation: hidden while another is
 * shown, back as it was left (edits and all) when its own is. A
 * conversation reopened is a new session on the same thread; the
 * answers go out through the one shown. */
void
_tandem_window_sync_approval (TandemWindow *self)
{
  if (self->ask == NULL || self->approval_dialog == NULL)
    return;

  if (!_tandem_window_asks_shown (self))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->approval_dialog), FALSE);
      return;
    }

  if (self->ask->session != self->session)
    {
      /* Answered or changed meanwhile: what the dialog asks is gone */
      if (!ask_data_matches (self->ask, self->session))
        {
          self->ask = NULL;
          gtk_window_close (self->approval_dialog);
          _tandem_window_update_actions (self);
          return;
        }
      g_set_object (&self->ask->session, self->session);
    }

  gtk_window_present (self->approval_dialog);
}

void
_tandem_window_ask_interrupts (TandemWindow *self)
{
  GListModel *interrupts;
  AskData *data;

  if (_tandem_window_asks_shown (self) || !_tandem_window_has_pending_interrupts (self) || _tandem_window_is_busy (self) ||
      self->agent_problem != NULL)
    return;

  /* One conversation's questions at a time: another's, hidden, are left
   * for later, still waiting in their conversation. */
  if (self->ask != NULL)
    {
      self->ask = NULL;
      if (self->approval_dialog != NULL)
        gtk_window_close (self->approval_dialog);
    }

  interrupts = agui_agent_session_get_pending_interrupts (self->session);

  data = g_new0 (AskData, 1);
  g_weak_ref_init (&data->self, self);
  data->session = g_object_ref (self->session);
  data->thread_id = g_strdup (agui_agent_session_get_thread_id (self->session));
  /* The dialogs ask what was pending when asked, whatever the list
   * does meanwhile; each interrupt is immutable. */
  data->interrupts = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (interrupts); i++)
    g_ptr_array_add (data->interrupts, g_list_model_get_item (interrupts, i));
  data->answers = json_array_new ();
  self->ask = data;
  _tandem_window_update_actions (self);

  ask_next (data);
}
