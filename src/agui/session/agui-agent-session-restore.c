/* agui-agent-session-restore.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-agent-session-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-run-input-private.h"
#include "agui-run-state-private.h"
#include "agui-session-store-private.h"
#include "agui-tool-runner-private.h"
#include "agui-transcript-private.h"
#include "agui-transport-private.h"
#include "agui-turn-recorder-private.h"

/* AguiAgentSession's restore: a stored thread drawn again from its
 * log, off the main thread, with the journal of turns a crash cut short */

typedef struct
{
  GPtrArray  *events;
  AguiTurnSnapshot *snapshot;
  /* Every snapshot, to rebuild the thread's branches */
  GPtrArray  *snapshots;
  int         turn_count;
  guint       folded;
  /* When each turn was saved, by the run that ended it, and how many
   * of the transcript's records have their time from it */
  GHashTable *run_times;
  guint       timed;
  /* What the journal kept of turns a crash cut short, and their ids */
  GPtrArray  *journal;
  GStrv       journal_ids;
  /* The log and the journal reach the transcript as a live stream
   * does, as a log: they were verified when they were written */
  AguiPipeline *pipeline;
} Restore;

static void
restore_free (Restore *restore)
{
  /* The events not folded yet, when the restore was cancelled */
  for (guint i = restore->folded; restore->events != NULL && i < restore->events->len; i++)
    agui_event_unref (g_ptr_array_index (restore->events, i));
  g_clear_pointer (&restore->events, g_ptr_array_unref);
  g_clear_pointer (&restore->snapshot, _agui_turn_snapshot_free);
  g_clear_pointer (&restore->snapshots, g_ptr_array_unref);
  g_clear_pointer (&restore->run_times, g_hash_table_unref);
  g_clear_pointer (&restore->journal, g_ptr_array_unref);
  g_strfreev (restore->journal_ids);
  g_clear_pointer (&restore->pipeline, _agui_pipeline_free);
  g_free (restore);
}

/* Reads everything a restore needs in one go: on the store's worker for
 * restore_async, after the writes asked for before it, so a long log
 * never blocks the main loop. */
static Restore *
restore_load (AguiSessionStore  *store,
              const char        *thread_id,
              GError           **error)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AguiTurnSnapshot) snapshot = NULL;
  g_autoptr(GError) local_error = NULL;
  Restore *restore;

  events = agui_session_store_load_events (store, thread_id, error);
  if (events == NULL)
    return NULL;

  snapshot = _agui_session_store_get_last_snapshot_for_restore (store, thread_id, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  restore = g_new0 (Restore, 1);
  /* Best effort: without it the thread opens as its last saved turn */
  restore->journal = _agui_session_store_load_journal (store, thread_id, &restore->journal_ids, &local_error);
  if (restore->journal == NULL)
    {
      g_warning ("%s", local_error->message);
      g_clear_error (&local_error);
    }
  restore->events = g_steal_pointer (&events);
  /* Each event is let go as it is folded, within the slice's time:
   * freeing 60,000 at the end held the main loop for 80-100 ms */
  g_ptr_array_set_free_func (restore->events, NULL);
  restore->snapshot = g_steal_pointer (&snapshot);
  restore->turn_count = restore->snapshot != NULL
                        ? agui_session_store_get_turn_count (store, thread_id, NULL) : 0;
  /* Reading every snapshot costs the thread's length times its turns:
   * only a thread that forked needs them. Best effort: without them the
   * thread still opens as its log says. */
  if (restore->snapshot != NULL && _agui_session_store_count_branches (store, thread_id, NULL) > 1)
    {
      restore->snapshots = _agui_session_store_list_snapshots (store, thread_id, FALSE, &local_error);
      if (restore->snapshots == NULL)
        g_warning ("%s", local_error->message);
    }
  /* Otherwise the messages' times come from the turns' times; without
   * them a message's time is when it was read back */
  else if (restore->snapshot != NULL)
    {
      restore->run_times = _agui_session_store_dup_run_times (store, thread_id, &local_error);
      if (restore->run_times == NULL)
        g_debug ("%s", local_error->message);
    }

  return restore;
}

/* A run of the log ended: what was said since the last timed run is as
 * old as the turn this run ended. A run that did not end its turn (a
 * tool's answer or a resume came next) has no time of its own, and its
 * records wait for the run that did. */
static void
restore_run_time (AguiAgentSession *self,
                  Restore          *restore,
                  const char       *run_id)
{
  const gint64 *time;
  guint n_records;

  if (restore->run_times == NULL || run_id == NULL ||
      !(time = g_hash_table_lookup (restore->run_times, run_id)))
    return;

  n_records = _agui_transcript_get_n_records (self->transcript);
  _agui_transcript_set_times (self->transcript, restore->timed, n_records, *time);
  restore->timed = n_records;
}

/* Folds the log, or what is left of it, until it is folded or
 * @cancellable is cancelled. Returns whether the log is folded. */
static gboolean
restore_fold (AguiAgentSession *self,
              Restore          *restore,
              GCancellable     *cancellable)
{
  if (restore->pipeline == NULL)
    restore->pipeline = _agui_pipeline_new_full (self->reducer, AGUI_PIPELINE_LOG);

  while (restore->folded < restore->events->len)
    {
      AguiEvent *event = g_ptr_array_index (restore->events, restore->folded);
      AguiEventType type = agui_event_get_event_type (event);

      _agui_pipeline_push_event (restore->pipeline, event);
      restore->folded++;
      if (type == AGUI_EVENT_RUN_FINISHED || type == AGUI_EVENT_RUN_ERROR)
        restore_run_time (self, restore, agui_event_get_string (event, "runId"));
      g_ptr_array_index (restore->events, restore->folded - 1) = NULL;
      agui_event_unref (event);

      if ((restore->folded & 0x1f) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }

  return TRUE;
}

/* What the log cannot say, from the last snapshot: what the person
 * answered, which calls got no result, how the last turn ended if not by
 * an event, and where the snapshot chain goes on. */
static void
restore_finish (AguiAgentSession *self,
                Restore          *restore)
{
  AguiTurnSnapshot *snapshot = restore->snapshot;
  const char *status;

  if (snapshot == NULL)
    return;

  _agui_transcript_restore_local_state (self->transcript, &snapshot->messages);

  status = snapshot->status;
  if (g_strcmp0 (status, "ABORTED") == 0)
    {
      _agui_reducer_cancel_run (self->reducer);
    }
  else if (g_strcmp0 (status, "FAILED") == 0 &&
           agui_run_state_get_status (agui_transcript_get_run_state (self->transcript)) != AGUI_RUN_FAILED)
    {
      const char *reason = snapshot->finish_reason;
      g_autoptr(AguiRunState) failed = NULL;
      AguiRunState *current = agui_transcript_get_run_state (self->transcript);
      AguiStage stage = AGUI_STAGE_TRANSPORT;

      for (AguiStage s = AGUI_STAGE_CLIENT; s <= AGUI_STAGE_AGENT; s++)
        if (g_strcmp0 (agui_stage_to_string (s), reason) == 0)
          stage = s;

      failed = _agui_run_state_new_failed (agui_run_state_get_thread_id (current),
                                          agui_run_state_get_run_id (current),
                                          snapshot->error ?: "",
                                          NULL, stage);
      _agui_reducer_set_run_state (self->reducer, failed);
    }

  /* A thread that forked replays as its branches one after the other;
   * the snapshots say what each held. The last one is the recorder's
   * (restore_recorder()) */
  if (restore->snapshots != NULL)
    _agui_transcript_restore_branches (self->transcript, restore->snapshots, snapshot->id);
}

/* The recorder's part of a restore, on the session's own thread: it
 * notifies the session's properties */
static void
restore_recorder (AguiAgentSession *self,
                  Restore          *restore)
{
  AguiTurnSnapshot *snapshot = restore->snapshot;

  if (snapshot != NULL)
    /* A damaged latest snapshot is skipped on reading; the next turn must
     * still not reuse its index. */
    _agui_turn_recorder_restore (self->recorder, snapshot->id,
                                 MAX ((guint) snapshot->turn_index + 1, (guint) MAX (0, restore->turn_count)));

  if (restore->journal != NULL && restore->journal->len > 0)
    _agui_turn_recorder_adopt_journals (self->recorder, restore->journal,
                                        (const char * const *) restore->journal_ids);
}

/* A crash cut a turn short: what its journal kept is drawn as it was
 * shown, the answer marked as failed (so that it can be retried), and
 * the next turn that saves writes it to the log. */
static void
restore_journal (AguiAgentSession *self,
                 Restore          *restore)
{
  AguiRunStatus status;
  guint attempt = 0;

  if (restore->journal == NULL || restore->journal->len == 0)
    return;

  for (guint i = 0; i < restore->journal->len; i++)
    {
      AguiEvent *event = g_ptr_array_index (restore->journal, i);

      if (agui_event_get_event_type (event) == AGUI_EVENT_RUN_STARTED)
        attempt = _agui_transcript_begin_attempt (self->transcript);
      _agui_pipeline_push_event (restore->pipeline, event);
    }

  status = agui_run_state_get_status (agui_transcript_get_run_state (self->transcript));
  if (status != AGUI_RUN_FINISHED && status != AGUI_RUN_FAILED)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                                                     "The answer was interrupted: the program stopped "
                                                     "before it ended");

      if (g_list_model_get_n_items (agui_transcript_get_pending_interrupts (self->transcript)) == 0)
        _agui_transcript_mark_unanswered_calls (self->transcript);
      _agui_reducer_fail (self->reducer, error);
      _agui_transcript_mark_attempt (self->transcript, attempt, AGUI_ATTEMPT_FAILED);
    }
}

gboolean
_agui_agent_session_restore (AguiAgentSession  *self,
                             GError           **error)
{
  Restore *restore;

  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);
  g_return_val_if_fail (self->current == NULL && !self->restoring, FALSE);

  if (!(restore = restore_load (self->store, self->thread_id, error)))
    return FALSE;

  restore_fold (self, restore, NULL);
  restore_finish (self, restore);
  restore_journal (self, restore);
  restore_recorder (self, restore);
  restore_free (restore);

  return TRUE;
}

static void
restore_done (GTask  *task,
              GError *error)
{
  AguiAgentSession *self = g_task_get_source_object (task);

  self->restoring = FALSE;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);

  /* A turn asked for meanwhile waited for the thread to be whole. */
  if (self->current == NULL)
    _agui_agent_session_start_next (self);
  _agui_agent_session_keep_input_messages (self);
}

/* The log is folded on a worker: the session is no one's yet (the
 * window shows it once restored, and a turn asked for meanwhile waits),
 * so nothing reads its transcript while it fills. On the main loop a
 * long log held it for a slice at a time, and one event (a snapshot of
 * 10,000 messages) for far longer than a frame. */
static void
restore_fold_in_thread (GTask        *fold,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  AguiAgentSession *self = source_object;
  Restore *restore = task_data;

  if (!restore_fold (self, restore, cancellable))
    {
      g_task_return_error_if_cancelled (fold);
      return;
    }

  /* Here too, not on the main loop: a turn a crash cut short is folded
   * from its journal (20,000 messages held it 90 ms), and the snapshot's
   * local state is laid on every record */
  restore_finish (self, restore);
  restore_journal (self, restore);

  g_task_return_boolean (fold, TRUE);
}

static void
on_restore_folded (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);
  Restore *restore = g_task_get_task_data (task);
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      restore_done (task, error);
      return;
    }

  restore_recorder (self, restore);
  restore_done (task, NULL);
}

static void
on_restore_loaded (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GTask) fold = NULL;
  AguiAgentSession *self = g_task_get_source_object (task);
  GError *error = NULL;
  Restore *restore;

  restore = _agui_session_store_read_thread_finish (AGUI_SESSION_STORE (object), result, &error);
  if (restore == NULL)
    {
      restore_done (task, error);
      return;
    }

  g_task_set_task_data (task, restore, (GDestroyNotify) restore_free);
  fold = g_task_new (self, g_task_get_cancellable (task), on_restore_folded, g_object_ref (task));
  g_task_set_source_tag (fold, restore_fold_in_thread);
  g_task_set_task_data (fold, restore, NULL);
  g_task_run_in_thread (fold, restore_fold_in_thread);
}

/**
 * agui_agent_session_restore_async:
 * @self: a session with a store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the thread is drawn again
 * @user_data: data for @callback
 *
 * Rebuilds the thread from the store: its log is folded again, so the
 * transcript draws exactly as it did, a thread that was waiting on
 * interrupts waits again, and the next turn's snapshot chains to the last
 * one saved. Call it before the first turn; a turn asked for while the
 * restore runs waits for it.
 *
 * The store is read on its worker thread, in order with the writes
 * asked for before, and the log is folded into the transcript on
 * another, so the main loop never waits for a long conversation. Until
 * the restore finishes, read nothing of the session's transcript (it is
 * being filled on that thread) and connect to none of its signals. A
 * cancelled restore leaves a partial transcript: discard the session.
 */
void
agui_agent_session_restore_async (AguiAgentSession    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (self->store != NULL);
  g_return_if_fail (self->current == NULL && !self->restoring);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_agent_session_restore_async);
  self->restoring = TRUE;

  /* On the store's worker, in order with the writes: a turn saved just
   * before is read back */
  _agui_session_store_read_thread_async (self->store, self->thread_id, (AguiStoreThreadRead) restore_load,
                                         (GDestroyNotify) restore_free, cancellable,
                                         on_restore_loaded, g_steal_pointer (&task));
}

/**
 * agui_agent_session_restore_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; an unknown thread is not an error (it
 *   restores as empty)
 */
gboolean
agui_agent_session_restore_finish (AguiAgentSession  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agui_agent_session_restore_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
