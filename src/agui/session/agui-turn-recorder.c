/* agui-turn-recorder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-private.h"
#include "agui-turn-rows-private.h"
#include "agui-transcript-private.h"
#include "agui-turn-recorder-private.h"

typedef struct _JournalFeed JournalFeed;

struct _AguiTurnRecorder
{
  GObject          *owner;
  AguiTurnRecorderChanged changed;
  AguiSessionStore *store;
  char             *thread_id;
  char             *agent;
  char             *default_title;
  char             *last_snapshot_id;
  guint             turn_index;
  GError           *store_error;
  /* The events of turns whose save failed: written with the next turn
   * that saves, so the log still replays everything the snapshot holds. */
  GPtrArray        *unsaved_events;
  /* The last turn that could not be saved, for a retry. */
  AguiTurnRows     *failed_save;
  /* The turn whose rows are being made, a slice at a time */
  guint             slice_id;

  /* The journal of the turn in flight: its snapshot id, and the events
   * printed but not yet taken by the store's worker */
  char             *journal_id;
  char             *journal_title;
  JournalFeed      *journal_feed;
  /* The journals of turns whose save failed (or that a crash left),
   * which the next turn that saves takes in with their events */
  GPtrArray        *unsaved_journal_ids;
};

/* The events of the turn in flight, printed as they come, until the
 * store's worker takes them: shared by the main thread, which adds, and
 * the worker, which takes all that waits as it writes a batch. An event
 * waits for no timer of the main loop, which a loaded machine gives
 * little time and which may be drawing a long frame: a crash loses at
 * most what the worker had not written yet (see journal_add). */
struct _JournalFeed
{
  gatomicrefcount  ref;
  GMutex           lock;
  GPtrArray       *json;
  /* A batch is on the worker's queue and will take what waits */
  gboolean         queued;
  /* No batch of the turn was written yet: the next one lists the thread */
  gboolean         first;
  /* The turn was saved: what waits is in its rows */
  gboolean         closed;
  /* When the worker last took a batch (monotonic), for the gap below */
  gint64           taken_at;
};

/* The least time between two batches of a turn: a fast stream is not
 * written an event a transaction (thousands of them for a long answer),
 * and the worker, not a timer of the main loop, waits it out, so a word
 * is still in the store this soon after the one before, however busy
 * the main loop is. Other store jobs wait behind it at most this long. */
#define JOURNAL_GAP_US (20 * 1000)

static JournalFeed *
journal_feed_new (void)
{
  JournalFeed *feed = g_new0 (JournalFeed, 1);

  g_atomic_ref_count_init (&feed->ref);
  g_mutex_init (&feed->lock);
  feed->json = g_ptr_array_new_with_free_func (g_free);
  feed->first = TRUE;

  return feed;
}

static JournalFeed *
journal_feed_ref (JournalFeed *feed)
{
  g_atomic_ref_count_inc (&feed->ref);
  return feed;
}

static void
journal_feed_unref (JournalFeed *feed)
{
  if (!g_atomic_ref_count_dec (&feed->ref))
    return;

  g_clear_pointer (&feed->json, g_ptr_array_unref);
  g_mutex_clear (&feed->lock);
  g_free (feed);
}

/* The turn is saved (or a new one begins): nothing more is written */
static void
journal_feed_close (JournalFeed *feed)
{
  g_mutex_lock (&feed->lock);
  feed->closed = TRUE;
  g_ptr_array_set_size (feed->json, 0);
  g_mutex_unlock (&feed->lock);
  journal_feed_unref (feed);
}

/* On the worker, as a batch is written */
static void
journal_feed_take (gpointer    data,
                   GPtrArray **event_json,
                   gboolean   *first)
{
  JournalFeed *feed = data;
  gint64 wait;

  /* Nothing to wait for when there is nothing to take */
  g_mutex_lock (&feed->lock);
  wait = feed->taken_at != 0 && !feed->closed && feed->json->len > 0
         ? feed->taken_at + JOURNAL_GAP_US - g_get_monotonic_time () : 0;
  g_mutex_unlock (&feed->lock);
  if (wait > 0)
    g_usleep (MIN (wait, JOURNAL_GAP_US));

  g_mutex_lock (&feed->lock);
  feed->queued = FALSE;
  g_clear_pointer (event_json, g_ptr_array_unref);
  *first = FALSE;
  if (!feed->closed && feed->json->len > 0)
    {
      feed->taken_at = g_get_monotonic_time ();
      *event_json = g_steal_pointer (&feed->json);
      feed->json = g_ptr_array_new_with_free_func (g_free);
      *first = feed->first;
      feed->first = FALSE;
    }
  g_mutex_unlock (&feed->lock);
}

AguiTurnRecorder *
_agui_turn_recorder_new (GObject                 *owner,
                         AguiTurnRecorderChanged  changed,
                         AguiSessionStore        *store,
                         const char              *thread_id,
                         const char              *agent,
                         const char              *default_title)
{
  AguiTurnRecorder *self = g_new0 (AguiTurnRecorder, 1);

  self->owner = owner;
  self->changed = changed;
  self->store = store ? g_object_ref (store) : NULL;
  self->thread_id = g_strdup (thread_id);
  self->agent = g_strdup (agent);
  self->default_title = g_strdup (default_title);

  return self;
}

void
_agui_turn_recorder_free (AguiTurnRecorder *self)
{
  /* Only when the owner is disposed by force: a save holds it */
  g_clear_handle_id (&self->slice_id, g_source_remove);
  g_free (self->journal_id);
  g_free (self->journal_title);
  g_clear_pointer (&self->journal_feed, journal_feed_close);
  g_clear_pointer (&self->unsaved_journal_ids, g_ptr_array_unref);
  g_clear_object (&self->store);
  g_free (self->thread_id);
  g_free (self->agent);
  g_free (self->default_title);
  g_free (self->last_snapshot_id);
  g_clear_error (&self->store_error);
  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, _agui_turn_rows_unref);
  g_free (self);
}

static const char *
finish_reason (AguiRunState *state,
               gboolean      cancelled)
{
  if (cancelled)
    return "cancelled";

  switch (agui_run_state_get_status (state))
    {
    case AGUI_RUN_FAILED:
      return agui_stage_to_string (agui_run_state_get_error_stage (state));

    case AGUI_RUN_FINISHED:
      switch (agui_run_state_get_outcome (state))
        {
        case AGUI_OUTCOME_INTERRUPT: return "interrupt";
        case AGUI_OUTCOME_CANCELLED: return "cancelled";
        case AGUI_OUTCOME_SUCCESS:
        case AGUI_OUTCOME_NONE:
        default:                     return "success";
        }

    case AGUI_RUN_IDLE:
    case AGUI_RUN_RUNNING:
    default:
      return NULL;
    }
}

static void
set_store_error (AguiTurnRecorder *self,
                 const GError     *error)
{
  if (self->store_error == NULL && error == NULL)
    return;
  if (self->store_error != NULL && error != NULL &&
      g_error_matches (self->store_error, error->domain, error->code) &&
      g_strcmp0 (self->store_error->message, error->message) == 0)
    return;

  g_clear_error (&self->store_error);
  if (error != NULL)
    self->store_error = g_error_copy (error);
  self->changed (self->owner, AGUI_TURN_RECORDER_CHANGED_STORE_ERROR);
}

/* For a write of the owner's own that failed (the branch chosen) */
void
_agui_turn_recorder_set_store_error (AguiTurnRecorder *self,
                                     const GError     *error)
{
  set_store_error (self, error);
}

/* The text a person reads first in a user message: its content when it
 * is text, else its first text part (a multimodal message). */
static const char *
user_text (const AguiJsonValue *message)
{
  const AguiJsonValue *content = _agui_json_doc_get_member (message, "content");

  if (content == NULL)
    return NULL;

  if (_agui_json_value_is_string (content))
    return _agui_json_value_get_string (content);

  for (guint i = 0; i < _agui_json_doc_get_length (content); i++)
    {
      const AguiJsonValue *part = _agui_json_doc_get_element (content, i);
      const char *text;

      if (g_strcmp0 (_agui_json_doc_get_string (part, "type"), "text") != 0)
        continue;

      text = _agui_json_doc_get_string (part, "text");
      if (text != NULL && text[0] != '\0')
        return text;
    }

  return NULL;
}

/* The thread is named after the first line of the person's first words;
 * a thread whose first message has no text gets the owner's default
 * title, which is the application's to say (and translate). */
char *
_agui_turn_recorder_dup_title (AguiTurnRecorder *self,
                               AguiTranscript   *transcript)
{
  /* Message by message: the first words come first, and a long thread
   * is not turned into JSON whole to find them. */
  for (guint i = 0; i < _agui_transcript_get_n_records (transcript); i++)
    {
      g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;
      const char *content;

      if (_agui_record_get_role (_agui_transcript_get_record (transcript, i)) != AGUI_ROLE_USER)
        continue;

      _agui_transcript_get_record_message (transcript, i, &message);
      content = user_text (&message);
      if (content != NULL && content[0] != '\0')
        {
          g_autofree char *line = g_strndup (content, strcspn (content, "\n"));

          if (g_utf8_strlen (line, -1) > 60)
            {
              char *cut = g_utf8_offset_to_pointer (line, 59);

              *cut = '\0';
              return g_strconcat (line, "…", NULL);
            }
          return g_steal_pointer (&line);
        }
    }

  return g_strdup (self->default_title ? self->default_title : "");
}

static void
advance_turn (AguiTurnRecorder *self,
              const char       *snapshot_id)
{
  g_free (self->last_snapshot_id);
  self->last_snapshot_id = g_strdup (snapshot_id);
  self->turn_index++;
  self->changed (self->owner, AGUI_TURN_RECORDER_CHANGED_CHAIN);
}

static void
turn_saved (AguiTurnRecorder *self,
            AguiTurnRows     *rows)
{
  g_autofree char *snapshot_id = g_strdup (_agui_turn_rows_get_snapshot_id (rows));

  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, _agui_turn_rows_unref);
  g_clear_pointer (&self->unsaved_journal_ids, g_ptr_array_unref);
  set_store_error (self, NULL);
  advance_turn (self, snapshot_id);
}

char *
_agui_turn_recorder_reserve_snapshot_id (AguiTurnRecorder *self)
{
  /* Client-managed mode: no snapshot, so no id. */
  return self->store ? g_uuid_string_random () : g_strdup ("");
}

/* The turn counter and the parent link stay on the last snapshot that
 * was written, and the turn's events wait for the next save, so a
 * retried save neither skips an index nor names a parent that does not
 * exist. @rows is what a retry writes, or NULL if the turn has no rows
 * (its JSON cannot be stored). */
static void
turn_failed (AguiTurnRecorder *self,
             const char       *snapshot_id,
             GPtrArray        *events,
             AguiTurnRows     *rows,
             const GError     *error)
{
  /* Its journal stays, as its events do, until a turn saves them */
  if (self->unsaved_journal_ids == NULL)
    self->unsaved_journal_ids = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->unsaved_journal_ids, g_strdup (snapshot_id));

  g_warning ("%s", error->message);
  set_store_error (self, error);

  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  self->unsaved_events = g_ptr_array_ref (events);
  g_clear_pointer (&self->failed_save, _agui_turn_rows_unref);
  self->failed_save = rows ? _agui_turn_rows_ref (rows) : NULL;
}

typedef struct
{
  AguiTurnRecorder    *recorder;
  /* Its own: the task may outlive the owner, and so the recorder */
  AguiSessionStore    *store;
  AguiTurnRows        *rows;
  GPtrArray           *events;
  AguiTurnRowsBuilder *builder;
  char                *snapshot_id;
} Save;

static void
save_free (Save *save)
{
  /* Often the rows' last reference: a long turn's are let go off the
   * main loop */
  if (save->rows != NULL)
    _agui_session_store_release_rows (save->store, g_steal_pointer (&save->rows));
  g_clear_object (&save->store);
  g_clear_pointer (&save->events, g_ptr_array_unref);
  g_clear_pointer (&save->builder, _agui_turn_rows_builder_free);
  g_free (save->snapshot_id);
  g_free (save);
}

static void
on_turn_saved (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Save *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!_agui_session_store_write_rows_finish (AGUI_SESSION_STORE (object), result, &error))
    turn_failed (save->recorder, save->snapshot_id, save->events, save->rows, error);
  else
    turn_saved (save->recorder, save->rows);

  g_task_return_boolean (task, TRUE);
}

/* How long one slice of a turn's rows may keep the main loop: well
 * under a frame */
#define SLICE_BUDGET_US 4000

static gboolean
make_rows_slice (gpointer user_data)
{
  GTask *task = user_data;
  Save *save = g_task_get_task_data (task);
  AguiTurnRecorder *self = save->recorder;
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;

  if (!_agui_turn_rows_builder_step (save->builder, SLICE_BUDGET_US, &done, &error))
    {
      /* Nothing a retry could write: the turn has no JSON form. */
      self->slice_id = 0;
      turn_failed (self, save->snapshot_id, save->events, NULL, error);
      g_task_return_boolean (task, TRUE);
      return G_SOURCE_REMOVE;
    }

  if (!done)
    return G_SOURCE_CONTINUE;

  self->slice_id = 0;
  save->rows = _agui_turn_rows_builder_end (save->builder);
  g_clear_pointer (&save->builder, _agui_turn_rows_builder_free);
  _agui_session_store_write_rows_async (self->store, save->rows, NULL, on_turn_saved, g_object_ref (task));

  return G_SOURCE_REMOVE;
}

/* The turn ends as a snapshot chained to the one before it: COMPLETED,
 * FAILED with its error, or ABORTED when cancelled. It is turned into
 * rows here, on the main thread that owns its JSON, and written on the
 * store's worker (a turn's log can be long, and SQLite syncs the disk);
 * @callback runs once it is done, so a caller that sees the turn end
 * also sees it stored. A store that cannot write says so on the owner;
 * the conversation itself goes on. Without a store the turn advances at
 * once and FALSE is returned: @callback is not called. */
gboolean
_agui_turn_recorder_save_async (AguiTurnRecorder    *self,
                                AguiTranscript      *transcript,
                                const char          *snapshot_id,
                                gboolean             cancelled,
                                GPtrArray           *events,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  AguiRunState *state = agui_transcript_get_run_state (transcript);
  g_autoptr(GPtrArray) all_events = NULL;
  g_autoptr(GPtrArray) journal_ids = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GError) error = NULL;
  AguiTurnRecord turn = { 0 };
  g_autoptr(GTask) task = NULL;
  Save *save;

  /* Where the turn ends on its branch, for a later branch to start from */
  _agui_transcript_mark_turn (transcript, snapshot_id, agui_run_state_get_run_id (state), self->turn_index);

  /* The turn's events are all in its rows: what the journal had not
   * written yet need not be. */
  g_clear_pointer (&self->journal_feed, journal_feed_close);
  g_clear_pointer (&self->journal_id, g_free);

  if (self->store == NULL)
    {
      advance_turn (self, snapshot_id);
      return FALSE;
    }

  journal_ids = g_ptr_array_new ();
  for (guint i = 0; self->unsaved_journal_ids != NULL && i < self->unsaved_journal_ids->len; i++)
    g_ptr_array_add (journal_ids, g_ptr_array_index (self->unsaved_journal_ids, i));
  g_ptr_array_add (journal_ids, NULL);

  if (self->unsaved_events != NULL)
    {
      all_events = g_ptr_array_new_full (self->unsaved_events->len + events->len,
                                         (GDestroyNotify) agui_event_unref);
      for (guint i = 0; i < self->unsaved_events->len; i++)
        g_ptr_array_add (all_events, agui_event_ref (g_ptr_array_index (self->unsaved_events, i)));
      for (guint i = 0; i < events->len; i++)
        g_ptr_array_add (all_events, agui_event_ref (g_ptr_array_index (events, i)));
    }
  else
    {
      all_events = g_ptr_array_ref (events);
    }

  title = _agui_turn_recorder_dup_title (self, transcript);
  turn.thread_id = self->thread_id;
  turn.snapshot_id = snapshot_id;
  turn.parent_id = self->last_snapshot_id && self->last_snapshot_id[0] ? self->last_snapshot_id : NULL;
  turn.turn_index = self->turn_index;
  turn.status = cancelled ? AGUI_SNAPSHOT_ABORTED
                : agui_run_state_get_status (state) == AGUI_RUN_FAILED ? AGUI_SNAPSHOT_FAILED
                : AGUI_SNAPSHOT_COMPLETED;
  turn.finish_reason = finish_reason (state, cancelled);
  turn.error = turn.status == AGUI_SNAPSHOT_FAILED ? agui_run_state_get_error_message (state) : NULL;
  turn.state = _agui_transcript_get_state_doc (transcript);
  turn.events = all_events;
  turn.pending_interrupts = _agui_transcript_get_pending_interrupts_value (transcript);
  turn.run_id = agui_run_state_get_run_id (state);
  turn.journal_ids = (const char * const *) journal_ids->pdata;

  /* The owner is the source: it, and so this recorder, outlive the save. */
  task = g_task_new (self->owner, NULL, callback, user_data);
  g_task_set_source_tag (task, _agui_turn_recorder_save_async);
  save = g_new0 (Save, 1);
  save->recorder = self;
  save->store = g_object_ref (self->store);
  save->events = g_ptr_array_ref (all_events);
  save->snapshot_id = g_strdup (snapshot_id);
  g_task_set_task_data (task, save, (GDestroyNotify) save_free);

  save->builder = _agui_turn_rows_builder_new (&turn, transcript, title, self->agent, &error);
  if (save->builder == NULL)
    {
      /* Nothing a retry could write: the turn has no JSON form. */
      turn_failed (self, snapshot_id, all_events, NULL, error);
      g_task_return_boolean (task, TRUE);
      return TRUE;
    }

  /* A long turn takes far longer to print than a frame lasts: its rows
   * are made in slices, between which the main loop draws. Not an
   * idle, which a window that draws all the time would starve (see the
   * restore in agui-agent-session.c); the owner is busy until the turn
   * is saved, so the transcript holds still meanwhile. */
  self->slice_id = g_timeout_add_full (G_PRIORITY_DEFAULT, 1, make_rows_slice,
                                       g_steal_pointer (&task), g_object_unref);

  return TRUE;
}

/* A failed save is no error of the turn: the owner's store error says it. */
void
_agui_turn_recorder_save_finish (AguiTurnRecorder *self,
                                 GAsyncResult     *result)
{
  g_return_if_fail (g_task_get_source_tag (G_TASK (result)) == _agui_turn_recorder_save_async);

  g_task_propagate_boolean (G_TASK (result), NULL);
}

/* A retry's task data: the recorder (which the task's owner holds) and
 * the rows it writes again */
typedef struct
{
  AguiTurnRecorder *recorder;
  AguiTurnRows     *rows;
} Retry;

static void
retry_free (Retry *retry)
{
  g_clear_pointer (&retry->rows, _agui_turn_rows_unref);
  g_free (retry);
}

static void
on_retry_saved (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Retry *retry = g_task_get_task_data (task);
  AguiTurnRecorder *self = retry->recorder;
  AguiTurnRows *rows = retry->rows;
  GError *error = NULL;

  if (!_agui_session_store_write_rows_finish (AGUI_SESSION_STORE (object), result, &error))
    {
      set_store_error (self, error);
      g_task_return_error (task, error);
      return;
    }

  /* A turn that saved meanwhile carried these events and this index. */
  if (self->failed_save != NULL &&
      g_strcmp0 (_agui_turn_rows_get_snapshot_id (self->failed_save), _agui_turn_rows_get_snapshot_id (rows)) == 0)
    turn_saved (self, rows);
  g_task_return_boolean (task, TRUE);
}

/* Writes again the last turn that could not be saved, with the events of
 * every unsaved turn before it. Nothing to retry is a success; a turn
 * that has no JSON form fails again, saying why. */
void
_agui_turn_recorder_retry_async (AguiTurnRecorder    *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Retry *retry = g_new0 (Retry, 1);

  task = g_task_new (self->owner, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agui_turn_recorder_retry_async);
  retry->recorder = self;
  g_task_set_task_data (task, retry, (GDestroyNotify) retry_free);

  if (self->store == NULL || self->store_error == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (self->failed_save == NULL)
    {
      g_task_return_error (task, g_error_copy (self->store_error));
      return;
    }

  retry->rows = _agui_turn_rows_ref (self->failed_save);
  _agui_session_store_write_rows_async (self->store, self->failed_save, cancellable,
                                        on_retry_saved, g_steal_pointer (&task));
}

gboolean
_agui_turn_recorder_retry_finish (AguiTurnRecorder  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _agui_turn_recorder_retry_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The chain goes on from a stored thread's last snapshot. */
void
_agui_turn_recorder_restore (AguiTurnRecorder *self,
                             const char       *snapshot_id,
                             guint             turn_index)
{
  g_free (self->last_snapshot_id);
  self->last_snapshot_id = g_strdup (snapshot_id);
  self->turn_index = turn_index;
  self->changed (self->owner, AGUI_TURN_RECORDER_CHANGED_CHAIN);
}

const char *
_agui_turn_recorder_get_last_snapshot_id (AguiTurnRecorder *self)
{
  return self->last_snapshot_id;
}

guint
_agui_turn_recorder_get_turn_index (AguiTurnRecorder *self)
{
  return self->turn_index;
}

const GError *
_agui_turn_recorder_get_store_error (AguiTurnRecorder *self)
{
  return self->store_error;
}

/* The journal */

static void
on_journal_written (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!_agui_session_store_append_journal_finish (AGUI_SESSION_STORE (object), result, &error))
    {
      AguiTurnRecorder *self = g_task_get_task_data (task);

      /* The turn goes on; its save writes everything again, and warns
       * if it cannot. Not a warning here: how many batches a stream
       * makes, and so fail, depends on how soon the worker takes them.
       * The task holds the owner, and so the recorder. */
      g_debug ("%s", error->message);
      set_store_error (self, error);
    }

  g_task_return_boolean (task, TRUE);
}

/* Hands the store's worker a batch of the turn's journal, which takes
 * what waits when the worker comes to it; @task (may be NULL) returns
 * once it is written. */
static void
journal_write (AguiTurnRecorder *self,
               GTask            *task)
{
  AguiJournalRows *rows;

  if (self->store == NULL || self->journal_feed == NULL)
    {
      if (task != NULL)
        g_task_return_boolean (task, TRUE);
      return;
    }

  rows = g_new0 (AguiJournalRows, 1);
  rows->thread_id = g_strdup (self->thread_id);
  rows->snapshot_id = g_strdup (self->journal_id);
  rows->title = g_strdup (self->journal_title);
  rows->agent = g_strdup (self->agent);
  rows->take = journal_feed_take;
  rows->take_data = journal_feed_ref (self->journal_feed);
  rows->take_data_free = (GDestroyNotify) journal_feed_unref;

  if (task == NULL)
    {
      task = g_task_new (self->owner, NULL, NULL, NULL);
      g_task_set_task_data (task, self, NULL);
    }
  else
    {
      g_object_ref (task);
    }
  _agui_session_store_append_journal_async (self->store, rows, NULL, on_journal_written, task);
}

/* A turn begins: its events are journaled under @snapshot_id, and the
 * thread, if new, is listed as @transcript names it. */
void
_agui_turn_recorder_journal_begin (AguiTurnRecorder *self,
                                   AguiTranscript   *transcript,
                                   const char       *snapshot_id)
{
  g_clear_pointer (&self->journal_feed, journal_feed_close);

  if (self->store == NULL)
    return;

  g_free (self->journal_id);
  self->journal_id = g_strdup (snapshot_id);
  g_free (self->journal_title);
  self->journal_title = _agui_turn_recorder_dup_title (self, transcript);
  self->journal_feed = journal_feed_new ();
}

/* The events are printed now, on the main thread that owns their JSON,
 * and a batch is queued on the worker unless one waits there already:
 * they are in the store as soon as the worker gets to it, however busy
 * the main loop is meanwhile. All of them reach the feed at once, so no
 * batch holds a part of them: the worker, on its own thread, could take
 * the first while the next were printed (a person's message without
 * its text, written and announced alone; the rest a gap later). */
static void
journal_push (AguiTurnRecorder *self,
              AguiEvent       **events,
              guint             n_events)
{
  g_autoptr(GPtrArray) printed = NULL;
  g_autoptr(GString) json = NULL;
  gboolean queue;

  if (self->journal_feed == NULL)
    return;

  printed = g_ptr_array_new_full (n_events, g_free);
  json = g_string_new (NULL);
  for (guint i = 0; i < n_events; i++)
    {
      /* An event with no JSON form fails the turn's save, which says so */
      g_string_truncate (json, 0);
      if (_agui_event_append_json (events[i], json, NULL))
        g_ptr_array_add (printed, g_strndup (json->str, json->len));
    }
  if (printed->len == 0)
    return;

  g_mutex_lock (&self->journal_feed->lock);
  g_ptr_array_extend_and_steal (self->journal_feed->json, g_steal_pointer (&printed));
  queue = !self->journal_feed->queued;
  self->journal_feed->queued = TRUE;
  g_mutex_unlock (&self->journal_feed->lock);

  if (queue)
    journal_write (self, NULL);
}

void
_agui_turn_recorder_journal_add (AguiTurnRecorder *self,
                                 AguiEvent        *event)
{
  journal_push (self, &event, 1);
}

/* @events, in one batch: a person's message is written whole or not at all */
void
_agui_turn_recorder_journal_add_all (AguiTurnRecorder *self,
                                     GPtrArray        *events)
{
  journal_push (self, (AguiEvent **) events->pdata, events->len);
}

/* Writes what waits now: @callback runs once it is in the store (or the
 * write failed, which the owner's store error says). The worker runs
 * batches in order, so every event added before is written by then. */
void
_agui_turn_recorder_journal_flush_async (AguiTurnRecorder    *self,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self->owner, NULL, callback, user_data);

  g_task_set_source_tag (task, _agui_turn_recorder_journal_flush_async);
  g_task_set_task_data (task, self, NULL);
  journal_write (self, task);
}

void
_agui_turn_recorder_journal_flush_finish (AguiTurnRecorder *self,
                                          GAsyncResult     *result)
{
  g_return_if_fail (g_task_get_source_tag (G_TASK (result)) == _agui_turn_recorder_journal_flush_async);

  g_task_propagate_boolean (G_TASK (result), NULL);
}

/* A restore found these turns' journals, with @events: the next turn
 * that saves writes the events and takes the journals in, as after a
 * save that failed. */
void
_agui_turn_recorder_adopt_journals (AguiTurnRecorder   *self,
                                    GPtrArray          *events,
                                    const char * const *snapshot_ids)
{
  if (events != NULL && events->len > 0)
    {
      if (self->unsaved_events == NULL)
        self->unsaved_events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      for (guint i = 0; i < events->len; i++)
        g_ptr_array_add (self->unsaved_events, agui_event_ref (g_ptr_array_index (events, i)));
    }

  for (guint i = 0; snapshot_ids != NULL && snapshot_ids[i] != NULL; i++)
    {
      if (self->unsaved_journal_ids == NULL)
        self->unsaved_journal_ids = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->unsaved_journal_ids, g_strdup (snapshot_ids[i]));
    }
}

/* Freeing a long turn's events at once (each holds its JSON) stalls the
 * main loop as long as printing them did; they go a slice at a time,
 * from the main loop, as the JSON they share with the transcript is not
 * to be touched from another thread. A short turn goes at once. */
#define RELEASE_AT_ONCE 1024
#define RELEASE_BUDGET_US 1000

static gboolean
release_slice (gpointer user_data)
{
  GPtrArray *events = user_data;
  gint64 deadline = g_get_monotonic_time () + RELEASE_BUDGET_US;

  while (events->len > 0)
    {
      g_ptr_array_remove_index (events, events->len - 1);
      if (events->len % 16 == 0 && g_get_monotonic_time () >= deadline)
        return G_SOURCE_CONTINUE;
    }

  return G_SOURCE_REMOVE;
}

void
_agui_turn_recorder_release_events (GPtrArray *events)
{
  GPtrArray *owned;

  if (events == NULL)
    return;

  if (events->len <= RELEASE_AT_ONCE)
    {
      g_ptr_array_unref (events);
      return;
    }

  /* Others may share the array (a failed save keeps it to write again):
   * the events are handed to an array of this function's own, which
   * costs a reference each, and the last references go in slices. */
  owned = g_ptr_array_new_full (events->len, (GDestroyNotify) agui_event_unref);
  for (guint i = 0; i < events->len; i++)
    g_ptr_array_add (owned, agui_event_ref (g_ptr_array_index (events, i)));
  g_ptr_array_unref (events);

  g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, 1, release_slice, owned, (GDestroyNotify) g_ptr_array_unref);
}
