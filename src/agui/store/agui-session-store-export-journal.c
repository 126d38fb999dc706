/* agui-session-store-export-journal.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-export-private.h"
#include "agui-session-store-journal-private.h"
#include "agui-session-store-private.h"
#include "agui-transcript-private.h"
#include "agui-transcript.h"

/* A turn a crash cut short lives only in the store's journal until the
 * next turn saves it (see _agui_turn_recorder_adopt_journals()): the
 * person's message, saved at send, and the answer as far as it
 * streamed. An export made meanwhile carries them as that save will:
 * the journal's events after the log's, and the messages and state as a
 * restore folds them (see restore_journal() in
 * agui-agent-session-restore.c), the answer marked failed, so that an
 * import, folding the same events, shows what a relaunch shows. */

/* Not a restore's words ("the program stopped"): a turn still streaming
 * has a journal too, and is exported as far as it went */
#define INTERRUPTED "The answer was interrupted: it had not ended when the conversation was exported"

static void
push_value (AguiPipeline        *pipeline,
            const AguiJsonValue *value)
{
  g_autoptr(AguiEvent) event = NULL;
  g_auto(AguiJsonValue) members = AGUI_JSON_VALUE_INIT;
  const char *name = _agui_json_doc_get_string (value, "type");
  AguiEventType type;

  /* The export's events are the store's own rows, read as a restore
   * reads them */
  if (name == NULL || !agui_event_type_from_string (name, &type))
    return;

  _agui_json_value_copy (&members, value);
  event = _agui_event_new_tree (type, &members);
  _agui_pipeline_push_event (pipeline, event);
}

/* What restore_finish() takes from the last snapshot and the log cannot
 * say: the person's answers about calls, and a stopped last turn */
static void
fold_snapshot (AguiReducer         *reducer,
               AguiTurnSnapshot    *snapshot,
               const AguiJsonValue *messages)
{
  if (snapshot == NULL)
    return;

  _agui_transcript_restore_local_state (_agui_reducer_get_transcript (reducer), messages);

  if (g_strcmp0 (snapshot->status, "ABORTED") == 0)
    _agui_reducer_cancel_run (reducer);
}

/* The run the journal leaves open ends as the restore ends it: failed,
 * interrupted. In the export it ends with a RUN_ERROR saying so, which
 * an import folds to the same failure (with Retry), where a log that
 * just stops would reopen as a run still going. Returns the event, or
 * NULL when no run is open (the crash came before it started) and the
 * failure is only said, as a restore says it. */
static AguiEvent *
fold_interrupted (AguiReducer  *reducer,
                  AguiPipeline *pipeline)
{
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  g_autoptr(AguiEvent) ended = NULL;
  g_auto(AguiJsonValue) members = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;

  if (agui_run_state_get_status (agui_transcript_get_run_state (transcript)) == AGUI_RUN_RUNNING)
    {
      /* Its members in the order the others have them */
      object = _agui_json_value_set_object (&members, 2);
      _agui_json_doc_set_string (object, "type", "RUN_ERROR");
      _agui_json_doc_set_string (object, "message", INTERRUPTED);
      ended = _agui_event_new_tree (AGUI_EVENT_RUN_ERROR, &members);
      if (_agui_pipeline_push_event (pipeline, ended))
        return g_steal_pointer (&ended);
    }

  {
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED, INTERRUPTED);

    _agui_reducer_fail (reducer, error);
  }

  return NULL;
}

static AguiEvent *
fold_journal (AguiReducer  *reducer,
              AguiPipeline *pipeline,
              GPtrArray    *journal)
{
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  AguiEvent *ended;
  AguiRunStatus status;
  guint attempt = 0;

  for (guint i = 0; i < journal->len; i++)
    {
      AguiEvent *event = g_ptr_array_index (journal, i);

      if (agui_event_get_event_type (event) == AGUI_EVENT_RUN_STARTED)
        attempt = _agui_transcript_begin_attempt (transcript);
      _agui_pipeline_push_event (pipeline, event);
    }

  status = agui_run_state_get_status (agui_transcript_get_run_state (transcript));
  if (status == AGUI_RUN_FINISHED || status == AGUI_RUN_FAILED)
    return NULL;

  if (g_list_model_get_n_items (agui_transcript_get_pending_interrupts (transcript)) == 0)
    _agui_transcript_mark_unanswered_calls (transcript);
  ended = fold_interrupted (reducer, pipeline);
  _agui_transcript_mark_attempt (transcript, attempt, AGUI_ATTEMPT_FAILED);

  return ended;
}

gboolean
_agui_session_store_export_add_journal_locked (AguiSessionStore  *self,
                                               const char        *thread_id,
                                               AguiJsonValue     *root,
                                               AguiTurnSnapshot  *snapshot,
                                               const char        *what,
                                               GError           **error)
{
  g_autoptr(GPtrArray) journal = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(AguiReducer) reducer = NULL;
  g_autoptr(AguiEvent) ended = NULL;
  AguiPipeline *pipeline;
  AguiTranscript *transcript;
  AguiJsonValue *events;
  AguiJsonValue messages = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *array;
  const AguiJsonValue *folded_state;
  const AguiJsonValue *state;
  guint n_records;

  /* Best effort, as for a restore: without it the export is of the
   * turns saved */
  if (!(journal = _agui_session_store_load_journal_locked (self, thread_id, NULL, what, &local_error)))
    {
      g_warning ("%s", local_error->message);
      return TRUE;
    }
  if (journal->len == 0)
    return TRUE;

  reducer = _agui_reducer_new (NULL);
  transcript = _agui_reducer_get_transcript (reducer);
  pipeline = _agui_pipeline_new_full (reducer, AGUI_PIPELINE_LOG);

  events = _agui_json_doc_get_array (root, "events");
  for (guint i = 0; i < _agui_json_doc_get_length (events); i++)
    push_value (pipeline, _agui_json_doc_get_element (events, i));
  /* The saved turns' messages, which the export has as the snapshot's */
  fold_snapshot (reducer, snapshot, _agui_json_doc_get_array (root, "messages"));
  ended = fold_journal (reducer, pipeline, journal);
  _agui_pipeline_free (pipeline);

  for (guint i = 0; i < journal->len; i++)
    {
      AguiJsonValue event = AGUI_JSON_VALUE_INIT;

      _agui_event_copy_tree (g_ptr_array_index (journal, i), &event);
      _agui_json_array_insert (events->u.array, _agui_json_array_get_length (events->u.array), &event);
    }
  if (ended != NULL)
    {
      AguiJsonValue event = AGUI_JSON_VALUE_INIT;

      _agui_event_copy_tree (ended, &event);
      _agui_json_array_insert (events->u.array, _agui_json_array_get_length (events->u.array), &event);
    }

  n_records = _agui_transcript_get_n_records (transcript);
  array = _agui_json_value_set_array (&messages, n_records);
  for (guint i = 0; i < n_records; i++)
    {
      AguiJsonValue message = AGUI_JSON_VALUE_INIT;

      _agui_transcript_get_record_message (transcript, i, &message);
      _agui_json_array_insert (array, i, &message);
    }
  _agui_json_object_set (root->u.object, "messages", &messages);

  /* An export without state says null, where a transcript that never
   * received one has an empty object (as the import reads it) */
  folded_state = _agui_transcript_get_state_doc (transcript);
  state = _agui_json_doc_get_member (root, "state");
  if (!(folded_state->kind == AGUI_JSON_DOC_OBJECT && _agui_json_object_get_size (folded_state->u.object) == 0 &&
        (state == NULL || state->kind == AGUI_JSON_DOC_NULL)))
    {
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

      _agui_json_value_copy (&copy, folded_state);
      _agui_json_object_set (root->u.object, "state", &copy);
    }

  return TRUE;
}
