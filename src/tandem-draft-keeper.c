/* tandem-draft-keeper.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agui-session-store-private.h"

#include "tandem-draft-keeper.h"

/* Keeps what the person types into the composer as the draft of the
 * conversation shown, in the store, so that it survives switching
 * conversations and a relaunch (or a crash: a change is written within
 * half a second). Switching shows the other conversation's draft. */
struct _TandemDraftKeeper
{
  GObject           parent_instance;
  GtkTextBuffer    *buffer;
  AguiSessionStore *store;
  char             *thread_id;
  GCancellable     *load_cancellable;
  guint             write_id;
  /* The text is the keeper's own (a draft being shown), not typed */
  gboolean          loading;
};

G_DEFINE_FINAL_TYPE (TandemDraftKeeper, tandem_draft_keeper, G_TYPE_OBJECT)

#define WRITE_DELAY_MS 400

static char *
dup_text (TandemDraftKeeper *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);
  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

static void
on_draft_written_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* A draft is a convenience: one not kept is no reason to interrupt */
  if (!_agui_session_store_set_draft_finish (AGUI_SESSION_STORE (object), result, &error))
    g_warning ("%s", error->message);
}

static void
write_now (TandemDraftKeeper *self)
{
  g_autofree char *text = NULL;

  g_clear_handle_id (&self->write_id, g_source_remove);
  if (self->store == NULL || self->thread_id == NULL)
    return;

  text = dup_text (self);
  _agui_session_store_set_draft_async (self->store, self->thread_id, text, NULL, on_draft_written_cb, NULL);
}

static gboolean
on_write_timeout_cb (gpointer user_data)
{
  TandemDraftKeeper *self = user_data;

  self->write_id = 0;
  write_now (self);
  return G_SOURCE_REMOVE;
}

static void
on_buffer_changed_cb (TandemDraftKeeper *self)
{
  if (self->loading || self->store == NULL)
    return;

  g_clear_handle_id (&self->write_id, g_source_remove);
  self->write_id = g_timeout_add (WRITE_DELAY_MS, on_write_timeout_cb, self);
  g_source_set_name_by_id (self->write_id, "[tandem] draft");
}

static void
tandem_draft_keeper_dispose (GObject *object)
{
  TandemDraftKeeper *self = TANDEM_DRAFT_KEEPER (object);

  /* The window closes, and the program may end before a job on the
   * store's worker ran: the last change is written here, once. */
  if (self->write_id != 0 && self->store != NULL && self->thread_id != NULL)
    {
      g_autofree char *text = dup_text (self);
      g_autoptr(GError) error = NULL;

      g_clear_handle_id (&self->write_id, g_source_remove);
      if (!_agui_session_store_set_draft (self->store, self->thread_id, text, &error))
        g_warning ("%s", error->message);
    }
  g_clear_handle_id (&self->write_id, g_source_remove);
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->buffer != NULL)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  g_clear_object (&self->buffer);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tandem_draft_keeper_parent_class)->dispose (object);
}

static void
tandem_draft_keeper_finalize (GObject *object)
{
  TandemDraftKeeper *self = TANDEM_DRAFT_KEEPER (object);

  g_free (self->thread_id);

  G_OBJECT_CLASS (tandem_draft_keeper_parent_class)->finalize (object);
}

static void
tandem_draft_keeper_class_init (TandemDraftKeeperClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_draft_keeper_dispose;
  object_class->finalize = tandem_draft_keeper_finalize;
}

static void
tandem_draft_keeper_init (TandemDraftKeeper *self)
{
}

TandemDraftKeeper *
tandem_draft_keeper_new (GtkTextBuffer *buffer)
{
  TandemDraftKeeper *self;

  g_return_val_if_fail (GTK_IS_TEXT_BUFFER (buffer), NULL);

  self = g_object_new (TANDEM_TYPE_DRAFT_KEEPER, NULL);
  self->buffer = g_object_ref (buffer);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (on_buffer_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

static void
on_draft_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TandemDraftKeeper) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *draft = NULL;
  g_autofree char *typed = NULL;

  draft = _agui_session_store_dup_draft_finish (AGUI_SESSION_STORE (object), result, &error);
  if (draft == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("%s", error->message);
      return;
    }

  /* What the person began typing meanwhile wins */
  typed = dup_text (self);
  if (draft[0] == '\0' || typed[0] != '\0')
    return;

  self->loading = TRUE;
  gtk_text_buffer_set_text (self->buffer, draft, -1);
  self->loading = FALSE;
}

/* The conversation shown is now @thread_id: the draft of the one before
 * is written, and @thread_id's draft shown in its place. */
void
tandem_draft_keeper_set_thread (TandemDraftKeeper *self,
                                AguiSessionStore  *store,
                                const char        *thread_id)
{
  g_return_if_fail (TANDEM_IS_DRAFT_KEEPER (self));
  g_return_if_fail (!store || AGUI_IS_SESSION_STORE (store));

  if (store == self->store && g_strcmp0 (thread_id, self->thread_id) == 0)
    return;

  tandem_draft_keeper_flush (self);
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);

  g_set_object (&self->store, store);
  g_free (self->thread_id);
  self->thread_id = g_strdup (thread_id);

  /* The text typed belongs to the conversation it was typed in */
  self->loading = TRUE;
  gtk_text_buffer_set_text (self->buffer, "", 0);
  self->loading = FALSE;

  if (store == NULL || thread_id == NULL)
    return;

  self->load_cancellable = g_cancellable_new ();
  _agui_session_store_dup_draft_async (store, thread_id, self->load_cancellable,
                                       on_draft_read_cb, g_object_ref (self));
}

/* Writes a change not written yet, now */
void
tandem_draft_keeper_flush (TandemDraftKeeper *self)
{
  g_return_if_fail (TANDEM_IS_DRAFT_KEEPER (self));

  if (self->write_id != 0)
    write_now (self);
}
