/* agui-turn-recorder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-private.h"
#include "agui-session-store-private.h"
#include "agui-turn-recorder-private.h"

/* What one turn writes, copied so that a worker thread can write it while
 * the conversation goes on in the main thread. */
typedef struct _TurnSave
{
  char               *thread_id;
  char               *title;
  char               *agent;
  char               *snapshot_id;
  char               *parent_id;
  char               *finish_reason;
  char               *error;
  int                 turn_index;
  AguiSnapshotStatus  status;
  JsonNode           *messages;
  JsonNode           *state;
  JsonNode           *pending_interrupts;
  GPtrArray          *events;
} TurnSave;

struct _AguiTurnRecorder
{
  GObject          *owner;
  AguiSessionStore *store;
  char             *thread_id;
  char             *agent;
  char             *default_title;
  char             *last_snapshot_id;
  guint             turn_index;
  char             *store_error;
  /* The events of turns whose save failed: written with the next turn
   * that saves, so the log still replays everything the snapshot holds. */
  GPtrArray        *unsaved_events;
  /* The last turn that could not be saved, for a retry. */
  TurnSave         *failed_save;
};

static void
turn_save_free (TurnSave *save)
{
  g_free (save->thread_id);
  g_free (save->title);
  g_free (save->agent);
  g_free (save->snapshot_id);
  g_free (save->parent_id);
  g_free (save->finish_reason);
  g_free (save->error);
  g_clear_pointer (&save->messages, json_node_unref);
  g_clear_pointer (&save->state, json_node_unref);
  g_clear_pointer (&save->pending_interrupts, json_node_unref);
  g_clear_pointer (&save->events, g_ptr_array_unref);
  g_free (save);
}

/* Shares the trees: nothing modifies a save once it is made. */
static TurnSave *
turn_save_copy (const TurnSave *save)
{
  TurnSave *copy = g_new0 (TurnSave, 1);

  copy->thread_id = g_strdup (save->thread_id);
  copy->title = g_strdup (save->title);
  copy->agent = g_strdup (save->agent);
  copy->snapshot_id = g_strdup (save->snapshot_id);
  copy->parent_id = g_strdup (save->parent_id);
  copy->finish_reason = g_strdup (save->finish_reason);
  copy->error = g_strdup (save->error);
  copy->turn_index = save->turn_index;
  copy->status = save->status;
  copy->messages = save->messages ? json_node_ref (save->messages) : NULL;
  copy->state = save->state ? json_node_ref (save->state) : NULL;
  copy->pending_interrupts = save->pending_interrupts ? json_node_ref (save->pending_interrupts) : NULL;
  copy->events = save->events ? g_ptr_array_ref (save->events) : NULL;

  return copy;
}

AguiTurnRecorder *
_agui_turn_recorder_new (GObject          *owner,
                         AguiSessionStore *store,
                         const char       *thread_id,
                         const char       *agent,
                         const char       *default_title)
{
  AguiTurnRecorder *self = g_new0 (AguiTurnRecorder, 1);

  self->owner = owner;
  self->store = store ? g_object_ref (store) : NULL;
  self->thread_id = g_strdup (thread_id);
  self->agent = g_strdup (agent);
  self->default_title = g_strdup (default_title);

  return self;
}

void
_agui_turn_recorder_free (AguiTurnRecorder *self)
{
  g_clear_object (&self->store);
  g_free (self->thread_id);
  g_free (self->agent);
  g_free (self->default_title);
  g_free (self->last_snapshot_id);
  g_free (self->store_error);
  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, turn_save_free);
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
                 const char       *message)
{
  if (g_strcmp0 (self->store_error, message) == 0)
    return;

  g_free (self->store_error);
  self->store_error = g_strdup (message);
  g_object_notify (self->owner, "store-error");
}

/* The text a person reads first in a user message: its content when it
 * is text, else its first text part (a multimodal message). */
static const char *
user_text (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");

  if (content == NULL)
    return NULL;

  if (json_node_get_value_type (content) == G_TYPE_STRING)
    return json_node_get_string (content);

  if (JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonNode *part = json_array_get_element (parts, i);
          JsonNode *text;

          if (!JSON_NODE_HOLDS_OBJECT (part) ||
              g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (part), "type", NULL),
                         "text") != 0)
            continue;

          text = json_object_get_member (json_node_get_object (part), "text");
          if (text != NULL && json_node_get_value_type (text) == G_TYPE_STRING &&
              json_node_get_string (text)[0] != '\0')
            return json_node_get_string (text);
        }
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
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript, FALSE);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *content;

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "role", NULL), "user") != 0)
        continue;

      content = user_text (message);
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
save_turn_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  AguiSessionStore *store = source_object;
  TurnSave *save = task_data;
  AguiTurnRecord turn = { 0 };
  GError *error = NULL;

  turn.thread_id = save->thread_id;
  turn.snapshot_id = save->snapshot_id;
  turn.parent_id = save->parent_id;
  turn.turn_index = save->turn_index;
  turn.status = save->status;
  turn.finish_reason = save->finish_reason;
  turn.error = save->error;
  turn.messages = json_node_get_array (save->messages);
  turn.state = save->state;
  turn.events = save->events;
  turn.pending_interrupts = json_node_get_array (save->pending_interrupts);

  /* The thread is created in the turn's transaction: a kill between
   * the two must not leave a titled thread with no messages. */
  if (_agui_session_store_save_turn_in_thread (store, &turn, save->title, save->agent, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
advance_turn (AguiTurnRecorder *self,
              const char       *snapshot_id)
{
  g_free (self->last_snapshot_id);
  self->last_snapshot_id = g_strdup (snapshot_id);
  self->turn_index++;
  g_object_notify (self->owner, "last-snapshot-id");
  g_object_notify (self->owner, "turn-index");
}

static void
turn_saved (AguiTurnRecorder *self,
            const TurnSave   *save)
{
  g_autofree char *snapshot_id = g_strdup (save->snapshot_id);

  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, turn_save_free);
  set_store_error (self, NULL);
  advance_turn (self, snapshot_id);
}

char *
_agui_turn_recorder_reserve_snapshot_id (AguiTurnRecorder *self)
{
  /* Client-managed mode: no snapshot, so no id. */
  return self->store ? g_uuid_string_random () : g_strdup ("");
}

static void
on_turn_saved (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiTurnRecorder *self = g_task_get_task_data (task);
  TurnSave *save = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_warning ("%s", error->message);
      set_store_error (self, error->message);

      /* The turn counter and the parent link stay on the last snapshot
       * that was written, and this turn's events wait for the next
       * save, so a retried save neither skips an index nor names a
       * parent that does not exist. */
      g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
      self->unsaved_events = g_ptr_array_ref (save->events);
      g_clear_pointer (&self->failed_save, turn_save_free);
      self->failed_save = turn_save_copy (save);
    }
  else
    {
      turn_saved (self, save);
    }

  g_task_return_boolean (task, TRUE);
}

/* The turn ends as a snapshot chained to the one before it: COMPLETED,
 * FAILED with its error, or ABORTED when cancelled. The write happens in
 * a worker thread (a turn's log can be long, and SQLite syncs the disk);
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
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) save_task = NULL;
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(JsonNode) interrupts = NULL;
  TurnSave *save;

  if (self->store == NULL)
    {
      advance_turn (self, snapshot_id);
      return FALSE;
    }

  save = g_new0 (TurnSave, 1);
  save->thread_id = g_strdup (self->thread_id);
  save->title = _agui_turn_recorder_dup_title (self, transcript);
  save->agent = g_strdup (self->agent);
  save->snapshot_id = g_strdup (snapshot_id);
  save->parent_id = self->last_snapshot_id && self->last_snapshot_id[0] ? g_strdup (self->last_snapshot_id) : NULL;
  save->turn_index = self->turn_index;
  save->status = cancelled ? AGUI_SNAPSHOT_ABORTED
                 : agui_run_state_get_status (state) == AGUI_RUN_FAILED ? AGUI_SNAPSHOT_FAILED
                 : AGUI_SNAPSHOT_COMPLETED;
  save->finish_reason = g_strdup (finish_reason (state, cancelled));
  save->error = save->status == AGUI_SNAPSHOT_FAILED ? g_strdup (agui_run_state_get_error_message (state)) : NULL;
  /* Deep copies: the transcript goes on changing while the thread writes. */
  messages = _agui_json_node_new_array (agui_transcript_to_messages (transcript, TRUE));
  save->messages = _agui_json_node_copy_deep (messages);
  save->state = _agui_json_node_copy_deep (agui_transcript_get_state (transcript));
  interrupts = json_node_init_array (json_node_alloc (), agui_transcript_get_pending_interrupts (transcript));
  save->pending_interrupts = _agui_json_node_copy_deep (interrupts);
  if (self->unsaved_events != NULL)
    {
      save->events = g_ptr_array_new_full (self->unsaved_events->len + events->len,
                                           (GDestroyNotify) agui_event_unref);
      for (guint i = 0; i < self->unsaved_events->len; i++)
        g_ptr_array_add (save->events, agui_event_ref (g_ptr_array_index (self->unsaved_events, i)));
      for (guint i = 0; i < events->len; i++)
        g_ptr_array_add (save->events, agui_event_ref (g_ptr_array_index (events, i)));
    }
  else
    {
      save->events = g_ptr_array_ref (events);
    }

  /* The owner is the source: it, and so this recorder, outlive the save. */
  task = g_task_new (self->owner, NULL, callback, user_data);
  g_task_set_source_tag (task, _agui_turn_recorder_save_async);
  g_task_set_task_data (task, self, NULL);

  save_task = g_task_new (self->store, NULL, on_turn_saved, g_steal_pointer (&task));
  g_task_set_source_tag (save_task, _agui_turn_recorder_save_async);
  g_task_set_task_data (save_task, save, (GDestroyNotify) turn_save_free);
  g_task_run_in_thread (save_task, save_turn_in_thread);

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

static void
on_retry_saved (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiTurnRecorder *self = g_task_get_task_data (task);
  TurnSave *save = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      set_store_error (self, error->message);
      g_task_return_error (task, error);
      return;
    }

  /* A turn that saved meanwhile carried these events and this index. */
  if (self->failed_save != NULL && g_strcmp0 (self->failed_save->snapshot_id, save->snapshot_id) == 0)
    turn_saved (self, save);
  g_task_return_boolean (task, TRUE);
}

/* Writes again the last turn that could not be saved, with the events of
 * every unsaved turn before it. Nothing to retry is a success. */
void
_agui_turn_recorder_retry_async (AguiTurnRecorder    *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) save_task = NULL;

  task = g_task_new (self->owner, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agui_turn_recorder_retry_async);
  g_task_set_task_data (task, self, NULL);

  if (self->failed_save == NULL || self->store == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  save_task = g_task_new (self->store, cancellable, on_retry_saved, g_steal_pointer (&task));
  g_task_set_source_tag (save_task, _agui_turn_recorder_retry_async);
  g_task_set_task_data (save_task, turn_save_copy (self->failed_save), (GDestroyNotify) turn_save_free);
  g_task_run_in_thread (save_task, save_turn_in_thread);
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
  g_object_notify (self->owner, "last-snapshot-id");
  g_object_notify (self->owner, "turn-index");
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

const char *
_agui_turn_recorder_get_store_error (AguiTurnRecorder *self)
{
  return self->store_error;
}
