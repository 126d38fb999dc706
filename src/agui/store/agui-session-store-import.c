/* agui-session-store-import.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-export-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-turns-private.h"
#include "agui-transcript-private.h"
#include "agui-transcript.h"

/* Import: a thread exported as Tandem's JSON, checked and folded again
 * before anything is written. */

static char *
import_error (GError     **error,
              const char  *reason)
{
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "Could not import the thread: %s", reason);
  return NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static char *
first_difference (JsonArray *imported,
                  JsonArray *folded)
{
  guint n_imported = json_array_get_length (imported);
  guint n_folded = json_array_get_length (folded);

  for (guint i = 0; i < MIN (n_imported, n_folded); i++)
    {
      if (!_agui_json_node_equal (json_array_get_element (imported, i), json_array_get_element (folded, i)))
        {
          JsonNode *element = json_array_get_element (imported, i);
          const char *id = JSON_NODE_HOLDS_OBJECT (element)
                             ? _agui_session_store_object_string (json_node_get_object (element), "id") : "";

          return g_strdup_printf ("message %u (id '%s') is not what its event log reproduces", i, id);
        }
    }

  if (n_imported != n_folded)
    return g_strdup_printf ("it has %u messages but its event log reproduces %u", n_imported, n_folded);

  return NULL;
}

/* A person's message with attachments is logged as a TEXT_MESSAGE_START
 * that carries its content parts (see _agui_reducer_add_user_message()),
 * which the parser, reading AG-UI, leaves out as unknown. Tandem's own
 * log gets them back: the messages they make are checked against the
 * exported ones, which were checked against the schema. */
static AguiEvent *
with_user_content (AguiEvent  *event,
                   JsonObject *node)
{
  JsonNode *content = json_object_get_member (node, "content");
  g_autoptr(JsonNode) members = NULL;
  g_autoptr(JsonNode) copy = NULL;
  JsonObject *object;

  if (agui_event_get_event_type (event) != AGUI_EVENT_TEXT_MESSAGE_START ||
      g_strcmp0 (_agui_session_store_object_string (node, "role"), "user") != 0 ||
      content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return event;

  /* The event's members are sealed: a copy takes the content */
  members = agui_event_to_json (event);
  copy = _agui_json_node_copy_deep (members);
  object = json_node_dup_object (copy);
  json_object_set_member (object, "content", _agui_json_node_copy_deep (content));
  agui_event_unref (event);

  return _agui_event_new_trusted (AGUI_EVENT_TEXT_MESSAGE_START, object);
}

static void
on_import_applied (AguiEvent *event,
                   gpointer   user_data)
{
  g_ptr_array_add (user_data, agui_event_ref (event));
}

/* Returns the expanded events the log applies, or NULL with @reason.
 * The log goes through the pipeline a live stream does, as a log: each
 * event is checked against the schema and CHUNK events are expanded,
 * but the protocol's run order is not checked, since a thread's log also
 * holds the events the client added between runs (the user's messages),
 * just as reopening a thread folds it. */
static GPtrArray *
replay_import (JsonArray   *event_array,
               JsonArray   *messages,
               JsonNode    *state,
               char       **reason)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new_full (reducer, AGUI_PIPELINE_LOG);
  g_autoptr(GPtrArray) applied = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(JsonArray) folded = NULL;
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  JsonNode *folded_state;
  char *difference;

  _agui_pipeline_set_callbacks (pipeline, on_import_applied, NULL, applied);

  for (guint i = 0; i < json_array_get_length (event_array); i++)
    {
      JsonNode *node = json_array_get_element (event_array, i);
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node) ||
          json_node_get_value_type (json_object_get_member (json_node_get_object (node), "type")
                                      ? json_object_get_member (json_node_get_object (node), "type")
                                      : node) != G_TYPE_STRING)
        {
          *reason = g_strdup_printf ("event %u is not an object with a string \"type\"", i);
          return NULL;
        }

      if (!(event = _agui_pipeline_parse_node (pipeline, node, &local_error)))
        {
          *reason = g_strdup_printf ("event %u is invalid: %s", i,
                                     local_error ? local_error->message : "its type is not one of AG-UI 1.0");
          return NULL;
        }
      event = with_user_content (event, json_node_get_object (node));

      if (!_agui_pipeline_push_event (pipeline, event))
        {
          *reason = g_strdup_printf ("event %u is invalid: %s", i, _agui_pipeline_get_error (pipeline)->message);
          return NULL;
        }
    }

  /* What the person answered about a call is Tandem's own note, kept
   * with the stored messages and not in the log: take it over as a
   * restore does, so the comparison is of what the log says. */
  _agui_transcript_restore_local_state (transcript, messages);
  folded = agui_transcript_to_messages (transcript, TRUE);
  if ((difference = first_difference (messages, folded)) != NULL)
    {
      *reason = difference;
      return NULL;
    }

  /* No state is written null by the export and is an empty object in
   * a transcript that never received one. */
  folded_state = agui_transcript_get_state (transcript);
  if (folded_state != NULL && JSON_NODE_HOLDS_OBJECT (folded_state) &&
      json_object_get_size (json_node_get_object (folded_state)) == 0 &&
      (state == NULL || JSON_NODE_HOLDS_NULL (state)))
    folded_state = NULL;
  if ((state == NULL || JSON_NODE_HOLDS_NULL (state))
        ? (folded_state != NULL && !JSON_NODE_HOLDS_NULL (folded_state))
        : (folded_state == NULL || !_agui_json_node_equal (state, folded_state)))
    {
      *reason = g_strdup ("its state is not what its event log reproduces");
      return NULL;
    }

  return g_steal_pointer (&applied);
}

/**
 * agui_session_store_import_json:
 * @self: a session store
 * @exported: an export made by [method@Agui.SessionStore.export_json]
 * @error: return location for a #GError
 *
 * Adds a new thread, under a new id, with the title, messages, state,
 * interrupts and event log of @exported. The import is checked first
 * (its format and version, each message and each event against the
 * schema); if anything is wrong nothing is written. The new thread has
 * one COMPLETED snapshot, turn 0, holding the imported messages and state.
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_json (AguiSessionStore  *self,
                                JsonNode          *exported,
                                GError           **error)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AguiTranscript) check = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *snapshot_id = NULL;
  g_autofree char *reason = NULL;
  AguiTurnRecord turn = { NULL, };
  JsonObject *root;
  JsonObject *thread = NULL;
  JsonArray *messages;
  JsonArray *interrupts;
  JsonArray *event_array;
  JsonNode *member;
  JsonNode *state;
  JsonNode *values;
  const char *title = NULL;
  const char *agent = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (exported != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (exported))
    return import_error (error, "it is not a JSON object");

  /* What a file would be refused for (see _agui_json_parse ()), a tree
   * made some other way is refused for too, before anything is stored
   * that no export could read back. */
  if (!_agui_json_check_tree (exported, &local_error))
    {
      reason = g_strdup_printf ("it cannot be stored: %s", local_error->message);
      return import_error (error, reason);
    }

  root = json_node_get_object (exported);
  if (!g_str_equal (_agui_session_store_object_string (root, "format"), EXPORT_FORMAT))
    return import_error (error, "it is not a Tandem thread export");

  member = json_object_get_member (root, "version");
  if (member == NULL || json_node_get_value_type (member) != G_TYPE_INT64)
    return import_error (error, "the export has no version");
  if (json_node_get_int (member) != EXPORT_VERSION)
    {
      reason = g_strdup_printf ("the export has version %" G_GINT64_FORMAT "; this version of Tandem reads version %d",
                                json_node_get_int (member), EXPORT_VERSION);
      return import_error (error, reason);
    }

  member = json_object_get_member (root, "thread");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    thread = json_node_get_object (member);
  if (thread == NULL)
    return import_error (error, "the export has no thread");

  member = json_object_get_member (thread, "title");
  if (member != NULL && json_node_get_value_type (member) == G_TYPE_STRING)
    title = json_node_get_string (member);
  member = json_object_get_member (thread, "agent");
  if (member != NULL && json_node_get_value_type (member) == G_TYPE_STRING)
    agent = json_node_get_string (member);

  if (!(messages = member_array (root, "messages")))
    return import_error (error, "the export has no messages array");

  check = agui_transcript_new ();
  if (!agui_transcript_load_messages (check, messages, &local_error))
    {
      reason = g_strdup_printf ("its messages are invalid: %s", local_error->message);
      return import_error (error, reason);
    }

  interrupts = member_array (root, "pendingInterrupts");
  if (json_object_has_member (root, "pendingInterrupts") && interrupts == NULL)
    return import_error (error, "its pending interrupts are not an array");

  if (!(event_array = member_array (root, "events")))
    return import_error (error, "the export has no events array");

  state = json_object_get_member (root, "state");

  values = json_object_get_member (root, "surfaceValues");
  if (values != NULL && (reason = g_strdup (_agui_session_store_check_surface_values (values))) != NULL)
    return import_error (error, reason);

  /* The log is read as a live stream would be (chunks expanded, the
   * protocol verified, folded), and it is the log that is kept: the
   * messages and state must be what it folds to, or they would vanish
   * from the next snapshot. */
  if (!(events = replay_import (event_array, messages, state, &reason)))
    return import_error (error, reason);

  thread_id = g_uuid_string_random ();
  snapshot_id = g_uuid_string_random ();

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.turn_index = 0;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.messages = messages;
  turn.state = state;
  turn.events = events;
  turn.pending_interrupts = interrupts;

  if (!_agui_session_store_save_turn_with_thread (self, &turn, title, agent, "Could not import the thread", error))
    return NULL;

  /* The values go in once the thread is there; if they cannot, neither
   * does the thread, so an import is whole or not at all */
  if (values != NULL &&
      !_agui_session_store_set_all_surface_values (self, thread_id, json_node_get_object (values),
                                                   "Could not import the thread", error))
    {
      agui_session_store_delete_thread (self, thread_id, NULL);
      return NULL;
    }

  return g_steal_pointer (&thread_id);
}

static void
import_json_job (AguiSessionStore *self,
                 GTask            *task,
                 gpointer          data)
{
  GError *error = NULL;
  char *thread_id = agui_session_store_import_json (self, data, &error);

  if (thread_id == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, thread_id, g_free);
}

/**
 * agui_session_store_import_json_async:
 * @self: a session store
 * @exported: an export made by [method@Agui.SessionStore.export_json]
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the new thread's id
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.import_json] on the store's worker: the
 * import is checked (its log folded) and written there. @exported is
 * copied first; the caller may change or drop it at once.
 */
void
agui_session_store_import_json_async (AguiSessionStore    *self,
                                      JsonNode            *exported,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (exported != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  /* A deep copy, so that no JSON the caller holds is touched by the worker. */
  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_import_json_async,
                                 import_json_job, _agui_json_node_copy_deep (exported), (GDestroyNotify) json_node_unref);
}

/**
 * agui_session_store_import_json_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_json_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_import_json_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
