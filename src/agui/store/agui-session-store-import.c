/* agui-session-store-import.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-compactor-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-export-private.h"
#include "agui-session-store-import-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-turns-private.h"
#include "agui-transcript-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-transcript.h"
#include "agui-turn-rows-private.h"

/* Import: a thread exported as Tandem's JSON, checked and folded again
 * before anything is written. */

static char *
import_error (GError     **error,
              const char  *reason)
{
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "Could not import the thread: %s", reason);
  return NULL;
}

/* An import a piece at a time (see agui-session-store-import-private.h) */

/* Applied events are compacted and printed this many at a time, at a
 * boundary no join crosses */
#define EVENT_BATCH 256

struct _AguiImport
{
  /* the members other than the messages and events: an object */
  AguiJsonValue   members;
  gboolean        seen_messages;
  gboolean        seen_events;
  guint           n_events;
  /* each message printed alone, as the store keeps it */
  GPtrArray      *message_json;
  AguiReducer    *reducer;
  AguiPipeline   *pipeline;
  /* the applied events not yet compacted, and those compacted and printed */
  GPtrArray      *batch;
  GPtrArray      *event_json;
  GError         *print_error;
};

/* A person's message with attachments is logged as a TEXT_MESSAGE_START
 * that carries its content parts (see _agui_reducer_add_user_message()),
 * which the parser, reading AG-UI, leaves out as unknown. Tandem's own
 * log gets them back: the messages they make are checked against the
 * exported ones, which were checked against the schema. */
static AguiEvent *
with_user_content (AguiEvent           *event,
                   const AguiJsonValue *content)
{
  g_auto(AguiJsonValue) members = AGUI_JSON_VALUE_INIT;

  if (content == NULL)
    return event;

  _agui_event_copy_tree (event, &members);
  _agui_json_doc_set_copy (members.u.object, "content", content);
  agui_event_unref (event);

  return _agui_event_new_tree (AGUI_EVENT_TEXT_MESSAGE_START, &members);
}

/* The content parts of a person's message, if @node is the
 * TEXT_MESSAGE_START that carries them, copied: the parser takes @node. */
static AguiJsonValue *
dup_user_content (const AguiJsonValue *node)
{
  const AguiJsonValue *content = _agui_json_doc_get_array (node, "content");

  if (content == NULL ||
      g_strcmp0 (_agui_json_doc_get_string (node, "type"), "TEXT_MESSAGE_START") != 0 ||
      g_strcmp0 (_agui_json_doc_get_string (node, "role"), "user") != 0)
    return NULL;

  return _agui_json_doc_value_dup (content);
}

/* The applied events since the last batch, compacted and printed as the
 * store keeps them. A delta joins only deltas with nothing else between
 * (see agui-event-compactor.c), so a batch that ends before any other
 * event compacts as the whole log would. */
static void
flush_batch (AguiImport *self)
{
  g_autoptr(GPtrArray) compacted = NULL;
  g_autoptr(GString) json = NULL;

  if (self->batch->len == 0)
    return;

  compacted = _agui_event_compactor_compact (self->batch);
  g_ptr_array_set_size (self->batch, 0);
  json = g_string_new (NULL);
  for (guint i = 0; i < compacted->len && self->print_error == NULL; i++)
    {
      g_string_truncate (json, 0);
      if (_agui_event_append_json (g_ptr_array_index (compacted, i), json, &self->print_error))
        g_ptr_array_add (self->event_json, g_strndup (json->str, json->len));
    }
}

static gboolean
is_delta (AguiEvent *event)
{
  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
    case AGUI_EVENT_TOOL_CALL_ARGS:
      return TRUE;

    default:
      return FALSE;
    }
}

static void
on_import_applied (AguiEvent *event,
                   gpointer   user_data)
{
  AguiImport *self = user_data;

  if (self->batch->len >= EVENT_BATCH && !is_delta (event))
    flush_batch (self);
  g_ptr_array_add (self->batch, agui_event_ref (event));
}

AguiImport *
_agui_import_new (void)
{
  AguiImport *self = g_new0 (AguiImport, 1);

  _agui_json_value_set_object (&self->members, 8);
  self->message_json = g_ptr_array_new_with_free_func (g_free);
  self->reducer = _agui_reducer_new (NULL);
  self->pipeline = _agui_pipeline_new_full (self->reducer, AGUI_PIPELINE_LOG);
  self->batch = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  self->event_json = g_ptr_array_new_with_free_func (g_free);
  _agui_pipeline_set_callbacks (self->pipeline, on_import_applied, NULL, self);

  return self;
}

void
_agui_import_free (AguiImport *self)
{
  if (self == NULL)
    return;

  _agui_json_value_clear (&self->members);
  g_ptr_array_unref (self->message_json);
  _agui_pipeline_free (self->pipeline);
  g_object_unref (self->reducer);
  g_ptr_array_unref (self->batch);
  g_ptr_array_unref (self->event_json);
  g_clear_error (&self->print_error);
  g_free (self);
}

void
_agui_import_add_member (AguiImport    *self,
                         const char    *name,
                         AguiJsonValue *value)
{
  _agui_json_object_set (self->members.u.object, name, value);
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static gboolean
has_member (AguiImport *self,
            const char *name)
{
  return _agui_json_object_find (self->members.u.object, name) >= 0;
}

static gboolean
refuse (char       **reason,
        const char  *why)
{
  *reason = g_strdup (why);
  return FALSE;
}

gboolean
_agui_import_check (AguiImport        *self,
                    AguiImportChecks   checks,
                    gboolean           complete,
                    char             **reason)
{
  const AguiJsonValue *root = &self->members;
  const AguiJsonValue *member;

  if (checks & AGUI_IMPORT_BEFORE_MESSAGES)
    {
      if ((complete || has_member (self, "format")) &&
          g_strcmp0 (_agui_json_doc_get_string (root, "format"), EXPORT_FORMAT) != 0)
        return refuse (reason, "it is not a Tandem thread export");

      member = _agui_json_doc_get_member (root, "version");
      if ((complete || has_member (self, "version")) && (member == NULL || member->kind != AGUI_JSON_DOC_INT))
        return refuse (reason, "the export has no version");
      if (member != NULL && member->kind == AGUI_JSON_DOC_INT && member->u.integer != EXPORT_VERSION)
        {
          *reason = g_strdup_printf ("the export has version %" G_GINT64_FORMAT "; this version of Tandem reads version %d",
                                     member->u.integer, EXPORT_VERSION);
          return FALSE;
        }

      if ((complete || has_member (self, "thread")) && _agui_json_doc_get_object (root, "thread") == NULL)
        return refuse (reason, "the export has no thread");

      /* A member of that name here is not an array */
      if (has_member (self, "messages") || (complete && !self->seen_messages))
        return refuse (reason, "the export has no messages array");
    }

  if (checks & AGUI_IMPORT_BEFORE_EVENTS)
    {
      if (has_member (self, "pendingInterrupts") && _agui_json_doc_get_array (root, "pendingInterrupts") == NULL)
        return refuse (reason, "its pending interrupts are not an array");

      if (has_member (self, "events") || (complete && !self->seen_events))
        return refuse (reason, "the export has no events array");

      member = _agui_json_doc_get_member (root, "surfaceValues");
      if (member != NULL && (*reason = g_strdup (_agui_session_store_check_surface_values (member))) != NULL)
        return FALSE;
    }

  return TRUE;
}

gboolean
_agui_import_begin_array (AguiImport  *self,
                          const char  *name,
                          char       **reason)
{
  gboolean messages = g_str_equal (name, "messages");
  gboolean *seen = messages ? &self->seen_messages : &self->seen_events;

  /* One of each: a second would have to undo the first */
  if (*seen)
    {
      *reason = g_strdup_printf ("the export has two %s arrays", name);
      return FALSE;
    }
  *seen = TRUE;

  return _agui_import_check (self, messages ? AGUI_IMPORT_BEFORE_MESSAGES : AGUI_IMPORT_WHOLE, FALSE, reason);
}

gboolean
_agui_import_add_message (AguiImport           *self,
                          const AguiJsonValue  *message,
                          char                **reason)
{
  g_autoptr(GString) json = NULL;
  g_autoptr(GError) local_error = NULL;
  AguiRecord *record = NULL;

  /* As agui_transcript_load_messages() would take it */
  if (message->kind == AGUI_JSON_DOC_OBJECT)
    record = _agui_record_new_from_value (message);
  if (record == NULL || record->id == NULL)
    {
      _agui_record_free (record);
      *reason = g_strdup_printf ("its messages are invalid: Message %u is not an AG-UI message with an id and a known role",
                                 self->message_json->len);
      return FALSE;
    }
  _agui_record_free (record);

  /* At the depth it has in the array */
  json = g_string_new (NULL);
  if (!_agui_json_value_append (json, message, FALSE, 1, &local_error))
    {
      *reason = g_strdup_printf ("it cannot be stored: %s", local_error->message);
      return FALSE;
    }
  /* Kept until the end: no room beyond the text */
  g_ptr_array_add (self->message_json, g_strndup (json->str, json->len));

  return TRUE;
}

gboolean
_agui_import_add_event (AguiImport     *self,
                        AguiJsonValue  *node,
                        char          **reason)
{
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(AguiJsonValue) content = NULL;
  g_autoptr(GError) local_error = NULL;
  guint i = self->n_events++;

  if (_agui_json_doc_get_string (node, "type") == NULL)
    {
      _agui_json_value_clear (node);
      *reason = g_strdup_printf ("event %u is not an object with a string \"type\"", i);
      return FALSE;
    }

  content = dup_user_content (node);
  if (!(event = _agui_pipeline_parse_value (self->pipeline, node, &local_error)))
    {
      *reason = g_strdup_printf ("event %u is invalid: %s", i,
                                 local_error ? local_error->message : "its type is not one of AG-UI 1.0");
      return FALSE;
    }
  if (agui_event_get_event_type (event) == AGUI_EVENT_TEXT_MESSAGE_START)
    event = with_user_content (event, content);

  if (!_agui_pipeline_push_event (self->pipeline, event))
    {
      *reason = g_strdup_printf ("event %u is invalid: %s", i, _agui_pipeline_get_error (self->pipeline)->message);
      return FALSE;
    }

  return TRUE;
}

/* Whether the messages the log folds to are the imported ones: the
 * first that is not, or NULL */
static char *
first_difference (AguiImport     *self,
                  AguiTranscript *transcript)
{
  guint n_imported = self->message_json->len;
  guint n_records = _agui_transcript_get_n_records (transcript);
  guint n_folded = 0;

  for (guint r = 0; r < n_records; r++)
    {
      g_auto(AguiJsonValue) folded = AGUI_JSON_VALUE_INIT;
      g_auto(AguiJsonValue) imported = AGUI_JSON_VALUE_INIT;
      const char *json;
      guint i;

      if ((i = n_folded++) >= n_imported)
        continue;

      json = g_ptr_array_index (self->message_json, i);
      _agui_transcript_get_record_message (transcript, r, &folded);
      /* _agui_json_value_equal () is _agui_json_node_equal () on trees:
       * members in any order, 1 equal to 1.0 */
      if (!_agui_json_doc_parse (json, -1, &imported, NULL) || !_agui_json_value_equal (&imported, &folded))
        {
          const char *id = _agui_json_doc_get_string (&imported, "id");

          id = id != NULL ? id : "";
          return g_strdup_printf ("message %u (id '%s') is not what its event log reproduces", i, id);
        }
    }

  if (n_imported != n_folded)
    return g_strdup_printf ("it has %u messages but its event log reproduces %u", n_imported, n_folded);

  return NULL;
}

/* The messages and state must be what the log folds to, or they would
 * vanish from the next snapshot. */
static gboolean
check_fold (AguiImport  *self,
            char       **reason)
{
  AguiTranscript *transcript = _agui_reducer_get_transcript (self->reducer);
  const AguiJsonValue *state = _agui_json_doc_get_member (&self->members, "state");
  const AguiJsonValue *folded_state;

  /* What the person answered about a call is Tandem's own note, kept
   * with the stored messages and not in the log: take it over as a
   * restore does, so the comparison is of what the log says. */
  for (guint i = 0; i < self->message_json->len; i++)
    {
      g_auto(AguiJsonValue) one = AGUI_JSON_VALUE_INIT;
      AguiJsonValue message = AGUI_JSON_VALUE_INIT;

      if (!_agui_json_doc_parse (g_ptr_array_index (self->message_json, i), -1, &message, NULL))
        continue;
      _agui_json_array_insert (_agui_json_value_set_array (&one, 1), 0, &message);
      _agui_transcript_restore_local_state (transcript, &one);
    }

  if ((*reason = first_difference (self, transcript)) != NULL)
    return FALSE;

  /* No state is written null by the export and is an empty object in
   * a transcript that never received one. */
  folded_state = _agui_transcript_get_state_doc (transcript);
  if (folded_state->kind == AGUI_JSON_DOC_OBJECT && _agui_json_object_get_size (folded_state->u.object) == 0 &&
      (state == NULL || state->kind == AGUI_JSON_DOC_NULL))
    folded_state = NULL;
  if ((state == NULL || state->kind == AGUI_JSON_DOC_NULL)
        ? (folded_state != NULL && folded_state->kind != AGUI_JSON_DOC_NULL)
        : (folded_state == NULL || !_agui_json_value_equal (state, folded_state)))
    return refuse (reason, "its state is not what its event log reproduces");

  return TRUE;
}

char *
_agui_import_finish (AguiImport        *self,
                     AguiSessionStore  *store,
                     GError           **error)
{
  g_autoptr(AguiTurnRows) rows = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *snapshot_id = NULL;
  g_autofree char *reason = NULL;
  AguiTurnRecord turn = { NULL, };
  const AguiJsonValue *thread;
  const AguiJsonValue *values;
  const char *what = "Could not import the thread";

  if (!_agui_import_check (self, AGUI_IMPORT_WHOLE, TRUE, &reason) ||
      !check_fold (self, &reason))
    return import_error (error, reason);

  flush_batch (self);
  if (self->print_error != NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: the event cannot be stored: %s",
                   what, self->print_error->message);
      return NULL;
    }

  thread_id = g_uuid_string_random ();
  snapshot_id = g_uuid_string_random ();
  thread = _agui_json_doc_get_object (&self->members, "thread");

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.turn_index = 0;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.state = _agui_json_doc_get_member (&self->members, "state");
  turn.pending_interrupts = _agui_json_doc_get_array (&self->members, "pendingInterrupts");

  /* The messages and events are rows already */
  if (!(rows = _agui_turn_rows_new_full (&turn, _agui_json_doc_get_string (thread, "title"),
                                         _agui_json_doc_get_string (thread, "agent"), what, error)))
    return NULL;
  g_ptr_array_unref (rows->message_json);
  rows->message_json = g_steal_pointer (&self->message_json);
  self->message_json = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_unref (rows->event_json);
  rows->event_json = g_steal_pointer (&self->event_json);
  self->event_json = g_ptr_array_new_with_free_func (g_free);

  if (!_agui_session_store_write_rows (store, rows, what, error))
    return NULL;

  /* The values go in once the thread is there; if they cannot, neither
   * does the thread, so an import is whole or not at all */
  values = _agui_json_doc_get_object (&self->members, "surfaceValues");
  if (values != NULL &&
      !_agui_session_store_set_all_surface_values (store, thread_id, values->u.object, what, error))
    {
      agui_session_store_delete_thread (store, thread_id, NULL);
      return NULL;
    }

  return g_steal_pointer (&thread_id);
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
 * [method@Agui.SessionStore.import_stream] reads an export from a file
 * without holding it in memory.
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_json (AguiSessionStore  *self,
                                JsonNode          *exported,
                                GError           **error)
{
  g_autoptr(AguiImport) import = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *reason = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  JsonArray *messages;
  JsonArray *events;

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

  import = _agui_import_new ();
  messages = member_array (json_node_get_object (exported), "messages");
  events = member_array (json_node_get_object (exported), "events");
  import->seen_messages = messages != NULL;
  import->seen_events = events != NULL;
  json_object_iter_init (&iter, json_node_get_object (exported));
  while (json_object_iter_next (&iter, &name, &member))
    if (!((messages != NULL && g_str_equal (name, "messages")) || (events != NULL && g_str_equal (name, "events"))))
      {
        AguiJsonValue value = AGUI_JSON_VALUE_INIT;

        _agui_json_value_set_node (&value, member);
        _agui_import_add_member (import, name, &value);
      }

  /* Each check in the order the export is written */
  if (!_agui_import_check (import, AGUI_IMPORT_BEFORE_MESSAGES, TRUE, &reason))
    return import_error (error, reason);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_node (&message, json_array_get_element (messages, i));
      if (!_agui_import_add_message (import, &message, &reason))
        return import_error (error, reason);
    }
  if (!_agui_import_check (import, AGUI_IMPORT_BEFORE_EVENTS, TRUE, &reason))
    return import_error (error, reason);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      AguiJsonValue event = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_node (&event, json_array_get_element (events, i));
      if (!_agui_import_add_event (import, &event, &reason))
        return import_error (error, reason);
    }

  return _agui_import_finish (import, self, error);
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
