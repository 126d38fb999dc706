/* tandem-window-actions.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-session-store-private.h"

#include "tandem-keyboard.h"
#include "tandem-toaster.h"
#include "tandem-window-private.h"

/* The window's actions (win.*): what its buttons, menus and keys ask
 * for, from sending to exporting. The window keeps the state; these
 * only act on it. */

static void
open_thread_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  const char *thread_id = g_variant_get_string (parameter, NULL);

  if (self->session == NULL || g_strcmp0 (thread_id, agui_agent_session_get_thread_id (self->session)) != 0)
    tandem_window_open_thread (self, thread_id);
  else if (tandem_run_registry_take_unasked (self->runs, thread_id))
    _tandem_window_ask_interrupts (self);

  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
}

static void
continue_with_agent_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  TandemAgent *agent = gtk_drop_down_get_selected_item (self->continue_dropdown);

  if (agent == NULL || self->session == NULL)
    return;

  tandem_agents_set_active_id (self->agents, tandem_agent_get_id (agent));
  /* The same thread goes on with that agent; the store records it with
   * the next turn. */
  _tandem_window_open (self, agui_agent_session_get_thread_id (self->session), tandem_agent_get_id (agent));
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  g_autofree char *text = _tandem_window_dup_composer_text (self);

  if (_tandem_window_is_busy (self))
    return;

  if (tandem_composer_get_n_attachments (self->composer) > 0)
    {
      _tandem_window_send_with_attachments (self, text);
      return;
    }

  if (_tandem_window_is_blank (text))
    return;
  /* Refused, the message stays to be sent later */
  if (!_tandem_window_may_run (self))
    return;

  gtk_text_buffer_set_text (tandem_composer_get_buffer (self->composer), "", 0);
  tandem_window_send (self, text);
}

/* An example prompt of the welcome page, sent as if typed */
static void
send_prompt_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  if (_tandem_window_is_busy (self))
    return;

  tandem_window_send (self, g_variant_get_string (parameter, NULL));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  if (self->session != NULL)
    agui_agent_session_cancel (self->session);
}

/* Whether the agent may be asked again now; if it may, the view
 * follows what it says */
static gboolean
start_exchange (TandemWindow *self)
{
  if (self->session == NULL || _tandem_window_is_busy (self) || !_tandem_window_may_run (self))
    return FALSE;

  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  _tandem_window_follow (self);
  return TRUE;
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  if (!start_exchange (self))
    return;

  /* The person's message is already in the thread: run the agent on it again. */
  agui_agent_session_run_async (self->session, NULL, self->cancellable, _tandem_window_on_exchange_done_cb,
                                _tandem_window_watch_exchange (self, agui_agent_session_run_finish));
  _tandem_window_update_actions (self);
}

/* Regenerate and edit fork the thread: the earlier branch is kept. */
static void
regenerate_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  if (!start_exchange (self))
    return;

  agui_agent_session_regenerate_async (self->session, g_variant_get_string (parameter, NULL), NULL,
                                       self->cancellable, _tandem_window_on_exchange_done_cb,
                                       _tandem_window_watch_exchange (self, agui_agent_session_regenerate_finish));
  _tandem_window_update_actions (self);
}

static void
edit_message_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  const char *id, *text;

  g_variant_get (parameter, "(&s&s)", &id, &text);
  if (_tandem_window_is_blank (text) || !start_exchange (self))
    return;

  agui_agent_session_edit_async (self->session, id, text, NULL, self->cancellable, _tandem_window_on_exchange_done_cb,
                                 _tandem_window_watch_exchange (self, agui_agent_session_edit_finish));
  _tandem_window_update_actions (self);
}

static void
choose_branch_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  const char *id;
  guint index;

  GListModel *rows;
  guint row = G_MAXUINT;

  g_variant_get (parameter, "(&su)", &id, &index);
  if (self->session == NULL)
    return;

  rows = G_LIST_MODEL (agui_agent_session_get_transcript (self->session));
  for (guint i = 0; i < g_list_model_get_n_items (rows) && row == G_MAXUINT; i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (rows, i);

      if (g_strcmp0 (agui_speaker_turn_get_id (message), id) == 0)
        row = i;
    }

  /* The person is reading this turn: the view stays on it, at the
   * version chosen, rather than follow the new branch to its end. */
  self->following = FALSE;
  if (!agui_agent_session_choose_branch (self->session, id, index, &error))
    g_warning ("%s", error->message);
  else if (row != G_MAXUINT && row < g_list_model_get_n_items (rows))
    {
      g_autoptr(AguiSpeakerTurn) chosen = g_list_model_get_item (rows, row);
      guint position = tandem_block_list_find_message (self->blocks, chosen);

      if (position != G_MAXUINT)
        gtk_widget_activate_action (GTK_WIDGET (self->transcript_view), "list.scroll-to-item", "u",
                                    tandem_block_window_to_window (self->block_window, position, REVEAL_BLOCKS));
    }
  _tandem_window_update_actions (self);
}

static void
answer_interrupts_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  _tandem_window_ask_interrupts (TANDEM_WINDOW (widget));
}

static void
jump_to_latest_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  _tandem_window_follow (self);
  _tandem_window_scroll_to_end (self);
  _tandem_window_queue_follow (self);
  _tandem_window_update_jump_button (self);
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  tandem_window_new_chat (TANDEM_WINDOW (widget));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  tandem_sidebar_start_search (self->sidebar);
}

/* Find in Conversation; with no conversation to search, the list of them */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "transcript") != 0)
    {
      search_action (widget, action_name, parameter);
      return;
    }

  tandem_conversation_search_open (self->conversation_search);
}

static void
focus_composer_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  tandem_keyboard_focus_composer (TANDEM_WINDOW (widget)->keyboard);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

/* A change of a thread in the store (rename, pin, delete), counted
 * until it is done; its _finish says how it went. */
typedef gboolean (*ThreadWriteFinish) (AguiSessionStore  *store,
                                       GAsyncResult      *result,
                                       GError           **error);

typedef struct
{
  TandemWindow      *window;
  ThreadWriteFinish  finish;
} ThreadWrite;

/* The user data of on_thread_written_cb */
static gpointer
watch_thread_write (TandemWindow      *self,
                    ThreadWriteFinish  finish)
{
  ThreadWrite *write = g_new0 (ThreadWrite, 1);

  self->thread_writes++;
  write->window = g_object_ref (self);
  write->finish = finish;

  return write;
}

static void
on_thread_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autofree ThreadWrite *write = user_data;
  g_autoptr(TandemWindow) self = write->window;
  g_autoptr(GError) error = NULL;

  self->thread_writes--;
  /* A window closed meanwhile has nowhere to say it. */
  if (!write->finish (AGUI_SESSION_STORE (object), result, &error) && self->toast_overlay != NULL)
    tandem_window_show_toast (self, error->message);
}

static void
on_rename_response_cb (AdwMessageDialog *dialog,
                       const char       *response,
                       gpointer          user_data)
{
  TandemWindow *self = TANDEM_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  GtkWidget *entry = adw_message_dialog_get_extra_child (dialog);
  const char *thread_id = user_data;
  const char *title;

  if (g_strcmp0 (response, "rename") != 0 || self->store == NULL)
    return;

  title = gtk_editable_get_text (GTK_EDITABLE (entry));
  if (_tandem_window_is_blank (title))
    return;

  /* The thread list hears of it from the store, before this returns. */
  agui_session_store_rename_thread_async (self->store, thread_id, title, NULL, on_thread_written_cb,
                                          watch_thread_write (self, agui_session_store_rename_thread_finish));
}

static void
free_string_closure_data (gpointer  data,
                          GClosure *closure)
{
  g_free (data);
}

static void
rename_thread_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  const char *thread_id = g_variant_get_string (parameter, NULL);
  AguiThreadInfo *thread = _tandem_window_lookup_thread (self, thread_id);
  GtkWidget *dialog;
  GtkWidget *entry;

  if (self->store == NULL)
    return;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Rename Conversation"), NULL);
  entry = gtk_entry_new ();
  if (thread != NULL)
    gtk_editable_set_text (GTK_EDITABLE (entry), agui_thread_info_get_title (thread));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Title"),
                                  -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_rename_response_cb),
                         g_strdup (thread_id), free_string_closure_data, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
tandem_window_set_thread_pinned (TandemWindow *self,
                                 const char   *thread_id,
                                 gboolean      pinned)
{
  if (self->store == NULL || thread_id == NULL)
    return;

  /* The thread list hears of it from the store and moves the row. */
  agui_session_store_set_thread_pinned_async (self->store, thread_id, pinned, NULL, on_thread_written_cb,
                                              watch_thread_write (self, agui_session_store_set_thread_pinned_finish));
}

/* From a row's menu: (id, whether to pin it) */
static void
set_thread_pinned_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  const char *thread_id;
  gboolean pinned;

  g_variant_get (parameter, "(&sb)", &thread_id, &pinned);
  tandem_window_set_thread_pinned (TANDEM_WINDOW (widget), thread_id, pinned);
}

/* From the keyboard: the conversation shown */
static void
toggle_pinned_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  AguiThreadInfo *thread;

  if (self->session == NULL)
    return;

  thread = _tandem_window_lookup_thread (self, agui_agent_session_get_thread_id (self->session));
  if (thread != NULL)
    tandem_window_set_thread_pinned (self, agui_thread_info_get_id (thread),
                                     !agui_thread_info_get_pinned (thread));
}

typedef struct
{
  GWeakRef  window;
  char     *thread_id;
} DeleteData;

static void
delete_data_free (gpointer  user_data,
                  GClosure *closure)
{
  DeleteData *data = user_data;

  g_weak_ref_clear (&data->window);
  g_free (data->thread_id);
  g_free (data);
}

static void
on_delete_toast_button_clicked_cb (AdwToast   *toast,
                                   DeleteData *data)
{
  g_autoptr(TandemWindow) self = g_weak_ref_get (&data->window);

  if (self == NULL)
    return;

  tandem_sidebar_unhide_thread (self->sidebar, data->thread_id);
  tandem_window_refresh_threads (self);
}

static void
on_delete_toast_dismissed_cb (AdwToast   *toast,
                              DeleteData *data)
{
  g_autoptr(TandemWindow) self = g_weak_ref_get (&data->window);

  if (self == NULL || !tandem_sidebar_unhide_thread (self->sidebar, data->thread_id))
    return;

  if (self->store != NULL)
    agui_session_store_delete_thread_async (self->store, data->thread_id, NULL, on_thread_written_cb,
                                            watch_thread_write (self, agui_session_store_delete_thread_finish));
}

static void
delete_thread_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  const char *thread_id = g_variant_get_string (parameter, NULL);
  DeleteData *data;
  AdwToast *toast;

  tandem_sidebar_hide_thread (self->sidebar, thread_id);

  /* A conversation deleted is not answered any more */
  if (self->session != NULL && g_strcmp0 (agui_agent_session_get_thread_id (self->session), thread_id) == 0)
    {
      agui_agent_session_cancel (self->session);
      tandem_window_new_chat (self);
    }
  tandem_run_registry_forget (self->runs, thread_id);

  data = g_new0 (DeleteData, 1);
  g_weak_ref_init (&data->window, self);
  data->thread_id = g_strdup (thread_id);

  toast = adw_toast_new (_("Conversation deleted"));
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (on_delete_toast_button_clicked_cb), data);
  g_signal_connect_data (toast, "dismissed", G_CALLBACK (on_delete_toast_dismissed_cb), data, delete_data_free, 0);
  tandem_toaster_add (self->toaster, toast);
}

void
_tandem_window_flush_pending_deletes (TandemWindow *self)
{
  g_auto(GStrv) hidden = NULL;

  /* Disposed twice: the sidebar is gone the second time */
  if (self->sidebar == NULL)
    return;

  hidden = tandem_sidebar_take_hidden (self->sidebar);
  for (guint i = 0; hidden[i] != NULL; i++)
    {
      /* The window is closing: nobody is left to hear an error. The job
       * holds the store, so the delete happens even after the window is gone. */
      if (self->store != NULL)
        agui_session_store_delete_thread_async (self->store, hidden[i], NULL, NULL, NULL);
    }
}

/* An import or export that takes a while is shown, so that the person
 * knows it runs and can stop it: a toast after a second, with how far
 * it got where that is known, and a Cancel button. A quick one shows
 * nothing until it is done. */
#define TRANSFER_QUIET_TICKS 5

typedef struct
{
  GWeakRef      window;
  GCancellable *cancellable;
  gulong        window_cancelled_id;
  GCancellable *window_cancellable;
  char         *busy_title;
  AdwToast     *toast;
  guint         ticks;
} Transfer;

static void
transfer_end (Transfer *transfer)
{
  g_autoptr(TandemWindow) window = g_weak_ref_get (&transfer->window);

  if (transfer->toast != NULL && window != NULL && window->toaster != NULL)
    tandem_toaster_withdraw (window->toaster, transfer->toast);
  g_clear_object (&transfer->toast);
  g_cancellable_disconnect (transfer->window_cancellable, transfer->window_cancelled_id);
  g_clear_object (&transfer->window_cancellable);
  g_clear_object (&transfer->cancellable);
  g_weak_ref_clear (&transfer->window);
  g_free (transfer->busy_title);
  g_free (transfer);
}

static void
on_transfer_window_cancelled_cb (GCancellable *window_cancellable,
                                 gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

static void
on_transfer_cancel_clicked_cb (AdwToast *toast,
                               gpointer  user_data)
{
  g_cancellable_cancel (user_data);
}

static void
on_transfer_progress_cb (double   fraction,
                         gpointer user_data)
{
  Transfer *transfer = user_data;
  g_autoptr(TandemWindow) window = NULL;
  g_autofree char *title = NULL;

  if (++transfer->ticks < TRANSFER_QUIET_TICKS || g_cancellable_is_cancelled (transfer->cancellable))
    return;

  if (fraction >= 0.0)
    /* Translators: an import under way; %s says what, %d how far it is */
    title = g_strdup_printf (_("%s %d%%"), transfer->busy_title, (int) (fraction * 100));
  else
    title = g_strdup (transfer->busy_title);

  if (transfer->toast != NULL)
    {
      adw_toast_set_title (transfer->toast, title);
      return;
    }

  if (!(window = g_weak_ref_get (&transfer->window)) || window->toaster == NULL)
    return;

  transfer->toast = adw_toast_new (title);
  adw_toast_set_timeout (transfer->toast, 0);
  adw_toast_set_button_label (transfer->toast, _("_Cancel"));
  g_signal_connect_object (transfer->toast, "button-clicked", G_CALLBACK (on_transfer_cancel_clicked_cb),
                           transfer->cancellable, 0);
  tandem_toaster_add (window->toaster, g_object_ref (transfer->toast));
}

static Transfer *
transfer_new (TandemWindow *self,
              char         *busy_title)
{
  Transfer *transfer = g_new0 (Transfer, 1);

  g_weak_ref_init (&transfer->window, self);
  transfer->busy_title = busy_title;
  /* Its own, so Cancel stops this one; closing the window stops all */
  transfer->cancellable = g_cancellable_new ();
  transfer->window_cancellable = g_object_ref (self->cancellable);
  transfer->window_cancelled_id = g_cancellable_connect (self->cancellable, G_CALLBACK (on_transfer_window_cancelled_cb),
                                                         transfer->cancellable, NULL);

  return transfer;
}

static void
on_export_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Transfer *transfer = user_data;
  g_autoptr(TandemWindow) self = g_weak_ref_get (&transfer->window);
  g_autoptr(GError) error = NULL;
  gboolean done = tandem_conversation_export_finish (result, &error);

  transfer_end (transfer);
  if (self == NULL)
    return;

  if (!done)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tandem_window_show_toast (self, _("Export cancelled"));
      else
        _tandem_window_show_error_dialog (self, _("Could Not Export the Conversation"), error->message);
      return;
    }

  tandem_window_show_toast (self, _("Conversation exported"));
}

/**
 * tandem_window_export_to_file:
 * @self: a window
 * @format: Markdown or Tandem's JSON
 * @file: where to write it
 *
 * Writes the conversation shown to @file, as the export's file chooser
 * does once the person chose where; says in a toast how it went.
 */
void
tandem_window_export_to_file (TandemWindow       *self,
                              TandemExportFormat  format,
                              GFile              *file)
{
  Transfer *transfer;
  g_autofree char *name = NULL;

  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->session == NULL || self->store == NULL)
    {
      tandem_window_show_toast (self, _("This conversation is not saved, so it cannot be exported"));
      return;
    }

  name = g_file_get_basename (file);
  /* Translators: %s is the file's name */
  transfer = transfer_new (self, g_strdup_printf (_("Exporting to “%s”…"), name));
  tandem_conversation_export_async (self->store, agui_agent_session_get_thread_id (self->session), format, file,
                                    on_transfer_progress_cb, transfer, transfer->cancellable,
                                    on_export_done_cb, transfer);
}

static void
on_import_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Transfer *transfer = user_data;
  g_autoptr(TandemWindow) self = g_weak_ref_get (&transfer->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = tandem_conversation_import_finish (result, &error);

  transfer_end (transfer);
  if (self == NULL)
    return;

  if (thread_id == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tandem_window_show_toast (self, _("Import cancelled"));
      else
        _tandem_window_show_error_dialog (self, _("Could Not Import the Conversation"), error->message);
      return;
    }

  tandem_window_refresh_threads (self);
  tandem_window_open_thread (self, thread_id);
  tandem_window_show_toast (self, _("Conversation imported"));
}

/**
 * tandem_window_import_file:
 * @self: a window
 * @file: a JSON export
 *
 * Adds the conversation in @file as a new one and opens it, as the
 * import's file chooser does, or says in a dialog why it could not.
 */
void
tandem_window_import_file (TandemWindow *self,
                           GFile        *file)
{
  Transfer *transfer;
  g_autofree char *name = NULL;

  g_return_if_fail (TANDEM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->store == NULL)
    {
      tandem_window_show_toast (self, _("Conversations are not being saved, so none can be imported"));
      return;
    }

  name = g_file_get_basename (file);
  /* Translators: %s is the file's name */
  transfer = transfer_new (self, g_strdup_printf (_("Importing “%s”…"), name));
  tandem_conversation_import_async (self->store, file, on_transfer_progress_cb, transfer, transfer->cancellable,
                                    on_import_done_cb, transfer);
}

/**
 * tandem_window_receive_files:
 * @self: a window
 * @files: (element-type GFile): files dropped on the window
 *
 * A JSON export is imported; anything else is attached to the message
 * being written. The drop target calls this; tests call it directly, as
 * GTK cannot synthesize a drop.
 */
void
tandem_window_receive_files (TandemWindow *self,
                             GSList       *files)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));

  for (GSList *l = files; l != NULL; l = l->next)
    {
      if (tandem_conversation_is_export (l->data))
        tandem_window_import_file (self, l->data);
      else
        tandem_window_attach_file (self, l->data);
    }
}

static gboolean
on_drop_cb (TandemWindow  *self,
            const GValue  *value,
            double         x,
            double         y,
            GtkDropTarget *target)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  tandem_window_receive_files (self, g_value_get_boxed (value));

  return TRUE;
}

void
_tandem_window_clear_file_chooser (TandemWindow *self)
{
  if (self->file_chooser == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->file_chooser, self);
  gtk_native_dialog_destroy (self->file_chooser);
  g_clear_object (&self->file_chooser);
}

static void
on_file_chooser_response_cb (TandemWindow    *self,
                             int              response,
                             GtkNativeDialog *chooser)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GFile) file = NULL;
  GtkFileChooserAction action = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser));
  gboolean attaches = self->chooser_attaches;

  if (response == GTK_RESPONSE_ACCEPT && attaches)
    files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  else if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  /* The chooser goes before anything it chose can open another */
  _tandem_window_clear_file_chooser (self);

  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) attached = g_list_model_get_item (files, i);

      tandem_window_attach_file (self, attached);
    }

  if (file == NULL)
    return;

  if (action == GTK_FILE_CHOOSER_ACTION_SAVE)
    {
      g_autoptr(GFile) folder = g_file_get_parent (file);

      if (self->settings != NULL && folder != NULL)
        {
          g_autofree char *uri = g_file_get_uri (folder);

          g_settings_set_string (self->settings, "export-folder", uri);
        }
      tandem_window_export_to_file (self, self->export_format, file);
    }
  else
    tandem_window_import_file (self, file);
}

/* GtkFileChooserNative: the portal's chooser inside Flatpak, GTK's own
 * elsewhere (GtkFileDialog needs GTK 4.10) */
static void
tandem_window_new_file_chooser (TandemWindow         *self,
                                const char           *title,
                                GtkFileChooserAction  action,
                                const char           *accept,
                                GtkFileFilter        *filter)
{
  GtkFileChooserNative *chooser;

  _tandem_window_clear_file_chooser (self);
  self->chooser_attaches = FALSE;
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (filter != NULL)
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  self->file_chooser = GTK_NATIVE_DIALOG (chooser);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_file_chooser_response_cb), self, G_CONNECT_SWAPPED);
}

/* Once it is set up: a folder or a name given to a chooser already
 * shown reaches GTK's own dialog while it loads the folder it started
 * in, which cancels that load with an error dialog and may leave it in
 * neither folder; a portal's is never told at all */
static void
tandem_window_show_file_chooser (TandemWindow *self)
{
  gtk_native_dialog_show (self->file_chooser);
}

static char *
dup_export_name (TandemWindow       *self,
                 TandemExportFormat  format)
{
  /* Characters some file systems (a USB stick's FAT) refuse */
  static const char refused[] = "/\\:?*\"<>|";
  const char *title = adw_window_title_get_title (self->window_title);
  g_autofree char *safe = g_strdup (title != NULL ? title : "");
  gsize length;

  /* At the end they only go ("What is this?" is "What is this.md", not
   * "What is this-.md"), and so do the dots and spaces FAT refuses
   * there; inside they become a dash. */
  g_strstrip (safe);
  length = strlen (safe);
  while (length > 0 && (strchr (refused, safe[length - 1]) != NULL || safe[length - 1] == '.' ||
                        g_ascii_isspace (safe[length - 1])))
    safe[--length] = '\0';
  g_strdelimit (safe, refused, '-');
  if (safe[0] == '\0')
    {
      g_free (safe);
      safe = g_strdup (_("Conversation"));
    }

  return g_strconcat (safe, format == TANDEM_EXPORT_JSON ? ".json" : ".md", NULL);
}

/* Where an export starts: the folder of the last one while it is there,
 * else Documents, else home; never the working directory, which for an
 * app started from the desktop is nothing the person chose */
static GFile *
dup_export_folder (TandemWindow *self)
{
  g_autofree char *uri = self->settings != NULL ? g_settings_get_string (self->settings, "export-folder") : NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  if (uri != NULL && uri[0] != '\0')
    {
      g_autoptr(GFile) last = g_file_new_for_uri (uri);

      if (g_file_query_file_type (last, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        return g_steal_pointer (&last);
    }

  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (documents);

  return g_file_new_for_path (g_get_home_dir ());
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  gboolean json = g_strcmp0 (g_variant_get_string (parameter, NULL), "json") == 0;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;

  self->export_format = json ? TANDEM_EXPORT_JSON : TANDEM_EXPORT_MARKDOWN;
  name = dup_export_name (self, self->export_format);
  if (json)
    {
      gtk_file_filter_set_name (filter, _("Tandem Conversations"));
      gtk_file_filter_add_suffix (filter, "json");
    }
  else
    {
      gtk_file_filter_set_name (filter, _("Markdown"));
      gtk_file_filter_add_suffix (filter, "md");
    }

  tandem_window_new_file_chooser (self, json ? _("Export as Tandem JSON") : _("Export as Markdown"),
                                  GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), filter);
  folder = dup_export_folder (self);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->file_chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->file_chooser), name);
  tandem_window_show_file_chooser (self);
}

static void
attach_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  tandem_window_new_file_chooser (self, _("Attach Files"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Attach"), NULL);
  self->chooser_attaches = TRUE;
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->file_chooser), TRUE);
  tandem_window_show_file_chooser (self);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TandemWindow *self = TANDEM_WINDOW (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Tandem Conversations"));
  gtk_file_filter_add_suffix (filter, "json");
  tandem_window_new_file_chooser (self, _("Import a Conversation"), GTK_FILE_CHOOSER_ACTION_OPEN,
                                  _("_Import"), filter);
  tandem_window_show_file_chooser (self);
}

void
_tandem_window_init_actions (TandemWindow *self)
{
  GtkEventController *controller;

  controller = GTK_EVENT_CONTROLLER (gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY));
  g_signal_connect_object (controller, "drop", G_CALLBACK (on_drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
_tandem_window_class_init_actions (GtkWidgetClass *widget_class)
{
  static const struct
  {
    const char                  *name;
    const char                  *parameter_type;
    GtkWidgetActionActivateFunc  activate;
  } actions[] = {
    { "win.send",                NULL,   send_action },
    { "win.send-prompt",         "s",    send_prompt_action },
    { "win.stop",                NULL,   stop_action },
    { "win.retry",               NULL,   retry_action },
    { "win.regenerate",          "s",    regenerate_action },
    { "win.edit-message",        "(ss)", edit_message_action },
    { "win.choose-branch",       "(su)", choose_branch_action },
    { "win.continue-with-agent", NULL,   continue_with_agent_action },
    { "win.answer-interrupts",   NULL,   answer_interrupts_action },
    { "win.jump-to-latest",      NULL,   jump_to_latest_action },
    { "win.new-chat",            NULL,   new_chat_action },
    { "win.open-thread",         "s",    open_thread_action },
    { "win.search",              NULL,   search_action },
    { "win.find",                NULL,   find_action },
    { "win.export",              "s",    export_action },
    { "win.import",              NULL,   import_action },
    { "win.attach",              NULL,   attach_action },
    { "win.toggle-sidebar",      NULL,   toggle_sidebar_action },
    { "win.focus-composer",      NULL,   focus_composer_action },
    { "win.rename-thread",       "s",    rename_thread_action },
    { "win.delete-thread",       "s",    delete_thread_action },
    { "win.set-thread-pinned",   "(sb)", set_thread_pinned_action },
    { "win.toggle-pinned",       NULL,   toggle_pinned_action },
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i].name, actions[i].parameter_type, actions[i].activate);
}
