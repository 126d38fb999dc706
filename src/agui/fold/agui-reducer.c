/* agui-reducer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-error-private.h"
#include "agui-event-private.h"
#include "agui-id-index-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-reducer-private.h"
#include "agui-run-state-private.h"
#include "agui-subagent-run-private.h"
#include "agui-transcript-private.h"
#include "agui-util-private.h"

/**
 * AguiReducer:
 *
 * Folds verified AG-UI events into one [class@Agui.Transcript], for the
 * whole life of a thread: a second run grows the same transcript, so the
 * first answer never vanishes.
 *
 * Every event costs in proportion to what it carries: deltas are appended
 * in place to the part they extend, messages and tool calls are found by
 * id in hash tables, and nothing is copied or serialised per event. Only
 * snapshots (`MESSAGES_SNAPSHOT`, `STATE_SNAPSHOT`) touch the whole thing.
 *
 * The reducer never fails: events the protocol allows but that make no
 * sense (content for an unknown message, a state delta that does not
 * apply) leave the transcript as it was and add a warning.
 */
struct _AguiReducer
{
  GObject         parent_instance;
  AguiTranscript *transcript;
  GPtrArray      *warnings;
  /* Tool calls started in the current run, in order (AG-UI 13.4): ids
   * borrowed from run_calls. Those answered since are dropped once they
   * are half of it (n_run_answered of them), so that a long run of
   * answered calls does not keep a pointer per call here. */
  GPtrArray      *run_tool_calls;
  guint           n_run_answered;
  /* Every call id the current run started or answered, once, with
   * which in the pointer's low bits (RUN_CALL_*): a replayed
   * TOOL_CALL_START must not list its call twice, or a frontend tool
   * would run twice, and a call answered in the run is not pending. Holds
   * a reference to each id. One table where there were two (started,
   * answered): a long run has an entry per call, and the second table was
   * 18 bytes of each call's. */
  AguiIdIndex     run_calls;
  char           *thread_id;
  char           *run_id;
  /* the cap on the state's and each activity's size (0: none) */
  gsize           max_state_size;
};

G_DEFINE_FINAL_TYPE (AguiReducer, _agui_reducer, G_TYPE_OBJECT)

/* What run_calls knows of a call, in its id's low bits: ids from
 * _agui_id_new () follow a 4-byte count in a block aligned to at least
 * 8 bytes, so those bits are free. */
enum
{
  RUN_CALL_STARTED = 1 << 0,
  RUN_CALL_ANSWERED = 1 << 1,
  RUN_CALL_FLAGS = RUN_CALL_STARTED | RUN_CALL_ANSWERED
};

static const char *
run_call_key (gconstpointer item)
{
  return (const char *) (GPOINTER_TO_SIZE (item) & ~(gsize) RUN_CALL_FLAGS);
}

static guint
run_call_flags (AguiReducer *self,
                const char  *id)
{
  gpointer *slot = _agui_id_index_lookup (&self->run_calls, id);

  return slot != NULL ? GPOINTER_TO_SIZE (slot[0]) & RUN_CALL_FLAGS : 0;
}

/* Adds @flag to what run_calls knows of @id, returning what it knew
 * before (0 for nothing); @owned: (out) (optional): its copy of @id */
static guint
mark_run_call (AguiReducer  *self,
               const char   *id,
               guint         flag,
               const char  **owned_id)
{
  gpointer *slot = _agui_id_index_insert (&self->run_calls, id);
  guint before = 0;

  if (slot[0] == NULL)
    {
      char *owned = _agui_id_new (id);

      g_assert ((GPOINTER_TO_SIZE (owned) & RUN_CALL_FLAGS) == 0);
      slot[0] = owned;
    }
  else
    {
      before = GPOINTER_TO_SIZE (slot[0]) & RUN_CALL_FLAGS;
    }
  slot[0] = GSIZE_TO_POINTER (GPOINTER_TO_SIZE (slot[0]) | flag);
  if (owned_id != NULL)
    *owned_id = run_call_key (slot[0]);

  return before;
}

/* Notes that the run answered @id, and drops the answered calls from
 * run_tool_calls once they are half of it: each is dropped once, so
 * this stays linear in the run's calls. */
static void
answer_run_call (AguiReducer *self,
                 const char  *id)
{
  guint known = mark_run_call (self, id, RUN_CALL_ANSWERED, NULL);
  guint kept = 0;

  if ((known & (RUN_CALL_STARTED | RUN_CALL_ANSWERED)) == RUN_CALL_STARTED)
    self->n_run_answered++;

  if (self->n_run_answered < 32 || self->n_run_answered * 2 < self->run_tool_calls->len)
    return;

  for (guint i = 0; i < self->run_tool_calls->len; i++)
    {
      const char *call = g_ptr_array_index (self->run_tool_calls, i);

      if ((run_call_flags (self, call) & RUN_CALL_ANSWERED) == 0)
        self->run_tool_calls->pdata[kept++] = (gpointer) call;
    }
  g_ptr_array_set_size (self->run_tool_calls, kept);
  self->n_run_answered = 0;
}

static void
clear_run_calls (AguiReducer *self)
{
  gpointer *slot;
  guint position = 0;

  while ((slot = _agui_id_index_next (&self->run_calls, &position)))
    _agui_id_release ((char *) run_call_key (slot[0]));
  _agui_id_index_clear (&self->run_calls);
}

enum {
  SIGNAL_WARNING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
warn (AguiReducer *self,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
warn (AguiReducer *self,
      const char  *format,
      ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (self->warnings, message);
  /* A run of refused deltas warns a million times: unless someone
   * listens, not even the check of G_MESSAGES_DEBUG per warning */
  if (!g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
    g_debug ("%s", message);
  g_signal_emit (self, signals[SIGNAL_WARNING], 0, message);
}

static void
_agui_reducer_dispose (GObject *object)
{
  AguiReducer *self = AGUI_REDUCER (object);

  g_clear_object (&self->transcript);

  G_OBJECT_CLASS (_agui_reducer_parent_class)->dispose (object);
}

static void
_agui_reducer_finalize (GObject *object)
{
  AguiReducer *self = AGUI_REDUCER (object);

  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  clear_run_calls (self);
  g_clear_pointer (&self->run_tool_calls, g_ptr_array_unref);
  g_clear_pointer (&self->thread_id, g_free);
  g_clear_pointer (&self->run_id, g_free);

  G_OBJECT_CLASS (_agui_reducer_parent_class)->finalize (object);
}

static void
_agui_reducer_class_init (AguiReducerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = _agui_reducer_dispose;
  object_class->finalize = _agui_reducer_finalize;

  /**
   * AguiReducer::warning:
   * @self: the reducer
   * @message: what was ignored, and why
   *
   * Emitted when an event could not be applied and was ignored.
   */
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
_agui_reducer_init (AguiReducer *self)
{
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->run_tool_calls = g_ptr_array_new ();
  _agui_id_index_init (&self->run_calls, 1, run_call_key);
  self->max_state_size = AGUI_JSON_DOC_DEFAULT_MAX_SIZE;
}

/**
 * _agui_reducer_new:
 * @transcript: (nullable): the transcript to fold into, or %NULL for a new one
 *
 * Returns: (transfer full): a new reducer
 */
AguiReducer *
_agui_reducer_new (AguiTranscript *transcript)
{
  AguiReducer *self;

  g_return_val_if_fail (!transcript || AGUI_IS_TRANSCRIPT (transcript), NULL);

  self = g_object_new (AGUI_TYPE_REDUCER, NULL);
  self->transcript = transcript ? g_object_ref (transcript) : agui_transcript_new ();

  return self;
}

/**
 * _agui_reducer_get_transcript:
 * @self: a reducer
 *
 * Returns: (transfer none): the transcript
 */
AguiTranscript *
_agui_reducer_get_transcript (AguiReducer *self)
{
  g_return_val_if_fail (AGUI_IS_REDUCER (self), NULL);

  return self->transcript;
}

/* @max_size: 0 for no cap */
void
_agui_reducer_set_max_state_size (AguiReducer *self,
                                  gsize        max_size)
{
  g_return_if_fail (AGUI_IS_REDUCER (self));

  self->max_state_size = max_size;
}

/**
 * _agui_reducer_get_warnings:
 * @self: a reducer
 *
 * Returns: (transfer none) (element-type utf8): every warning so far
 */
GPtrArray *
_agui_reducer_get_warnings (AguiReducer *self)
{
  g_return_val_if_fail (AGUI_IS_REDUCER (self), NULL);

  return self->warnings;
}

/* An event's metadata, which nearly every event lacks: its cleanup is
 * a test of the kind, inline, not a call per event. */
typedef AguiJsonValue EventMetadata;

static inline void
event_metadata_clear (EventMetadata *metadata)
{
  if (metadata->kind != AGUI_JSON_DOC_NULL)
    _agui_json_value_clear (metadata);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EventMetadata, event_metadata_clear)

/* The event's metadata, copied into @metadata (null before) when it is
 * an object: a tree event builds no JsonObject for it, as
 * agui_event_get_metadata () would, and a flat event (every chat delta)
 * has none to look for. NULL, and @metadata null, when there is none. */
static AguiJsonValue *
event_metadata (AguiEvent     *event,
                AguiJsonValue *metadata)
{
  const AguiJsonValue *member = _agui_event_peek_member (event, "metadata");

  if (member == NULL || member->kind != AGUI_JSON_DOC_OBJECT)
    return NULL;

  _agui_json_value_copy (metadata, member);

  return metadata;
}

static void
append_missing_messages (AguiReducer         *self,
                         const AguiJsonValue *messages)
{
  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      const char *id = _agui_json_doc_get_string (message, "id");

      if (id == NULL || _agui_transcript_lookup_record (self->transcript, id) != NULL)
        continue;

      _agui_transcript_add_message (self->transcript, message);
    }
}

static void
apply_run_started (AguiReducer *self,
                   AguiEvent   *event)
{
  g_autoptr(AguiRunState) state = NULL;
  g_auto(AguiJsonValue) input = AGUI_JSON_VALUE_INIT;

  /* in the tree: the event's JsonObject is not built for it */
  if (_agui_event_member_to_value (event, "input", &input))
    append_missing_messages (self, _agui_json_doc_get_array (&input, "messages"));

  clear_run_calls (self);
  g_ptr_array_set_size (self->run_tool_calls, 0);
  self->n_run_answered = 0;

  g_free (self->thread_id);
  g_free (self->run_id);
  self->thread_id = g_strdup (agui_event_get_string (event, "threadId"));
  self->run_id = g_strdup (agui_event_get_string (event, "runId"));

  state = _agui_run_state_new_running (self->thread_id, self->run_id);
  _agui_transcript_begin_run (self->transcript, state);
}

/* @outcome: the RUN_FINISHED's outcome, or NULL */
static GStrv
pending_tool_call_ids (AguiReducer         *self,
                       const AguiJsonValue *outcome)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const AguiJsonValue *ids = _agui_json_doc_get_array (outcome, "pendingToolCallIds");

  if (_agui_json_doc_get_length (ids) > 0)
    {
      /* strings only, as the schema has them */
      for (guint i = 0; i < _agui_json_doc_get_length (ids); i++)
        {
          const AguiJsonValue *id = _agui_json_doc_get_element (ids, i);

          if (_agui_json_value_is_string (id))
            g_strv_builder_add (builder, _agui_json_value_get_string (id));
        }
    }
  else
    {
      for (guint i = 0; i < self->run_tool_calls->len; i++)
        {
          const char *id = g_ptr_array_index (self->run_tool_calls, i);

          if ((run_call_flags (self, id) & RUN_CALL_ANSWERED) == 0)
            g_strv_builder_add (builder, id);
        }
    }

  return g_strv_builder_end (builder);
}

static void
apply_run_finished (AguiReducer *self,
                    AguiEvent   *event)
{
  g_autoptr(AguiRunState) state = NULL;
  g_auto(AguiJsonValue) outcome = AGUI_JSON_VALUE_INIT;
  const char *type;
  AguiRunOutcome kind = AGUI_OUTCOME_SUCCESS;
  AguiJsonValue *interrupts = NULL;
  AguiJsonValue result = AGUI_JSON_VALUE_INIT;
  gboolean has_result;

  /* in the tree: the event's JsonObject is not built for it */
  _agui_event_member_to_value (event, "outcome", &outcome);
  type = _agui_json_doc_get_string (&outcome, "type");
  if (g_strcmp0 (type, "interrupt") == 0)
    {
      kind = AGUI_OUTCOME_INTERRUPT;
      interrupts = _agui_json_doc_get_array (&outcome, "interrupts");
    }
  else if (g_strcmp0 (type, "cancelled") == 0)
    {
      kind = AGUI_OUTCOME_CANCELLED;
    }

  has_result = kind == AGUI_OUTCOME_SUCCESS && _agui_event_member_to_value (event, "result", &result);
  state = _agui_run_state_new_finished (agui_event_get_string (event, "threadId"),
                                       agui_event_get_string (event, "runId"),
                                       kind,
                                       has_result ? &result : NULL,
                                       interrupts);
  if (kind == AGUI_OUTCOME_SUCCESS)
    _agui_run_state_set_pending_tool_call_ids (state, pending_tool_call_ids (self, &outcome));

  _agui_transcript_finish_run (self->transcript, state, interrupts);
}

static void
apply_run_error (AguiReducer *self,
                 AguiEvent   *event)
{
  g_autoptr(AguiRunState) state = NULL;

  state = _agui_run_state_new_failed (self->thread_id, self->run_id,
                                     agui_event_get_string (event, "message"),
                                     agui_event_get_string (event, "code"),
                                     AGUI_STAGE_AGENT);
  _agui_transcript_set_run_state (self->transcript, state);
}

static void
apply_step (AguiReducer *self,
            AguiEvent   *event,
            gboolean     started)
{
  const char *name = agui_event_get_string (event, "stepName");

  if (name == NULL)
    return;

  if (started)
    _agui_transcript_start_step (self->transcript, name);
  else
    _agui_transcript_finish_step (self->transcript, name);
}

static AguiRecord *
open_text_record (AguiReducer *self,
                  AguiEvent   *event,
                  AguiRole     role)
{
  const char *id = agui_event_get_message_id (event);
  AguiRecord *record = _agui_transcript_lookup_record (self->transcript, id);
  g_auto(AguiJsonValue) content = AGUI_JSON_VALUE_INIT;

  if (record != NULL)
    {
      if (_agui_record_get_role (record) == AGUI_ROLE_ACTIVITY)
        {
          warn (self, "%s for '%s' ignored: that id names an activity",
                agui_event_get_type_name (event), id);
          return NULL;
        }

      /* Reopening keeps the message as it was; new text is appended. */
      return record;
    }

  /* A multimodal message the person sent: only client-made events carry
   * whole content (schema enforcement strips it from an agent's). */
  if (_agui_event_member_to_value (event, "content", &content) && content.kind == AGUI_JSON_DOC_ARRAY)
    {
      g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;
      AguiJsonDocObject *object = _agui_json_value_set_object (&message, 3);

      _agui_json_doc_set_string (object, "id", id);
      _agui_json_doc_set_string (object, "role", agui_role_to_string (role));
      _agui_json_object_append (object, "content", &content);
      return _agui_transcript_add_message (self->transcript, &message);
    }

  return _agui_transcript_begin_message (self->transcript, id, role,
                                         role == AGUI_ROLE_REASONING ? NULL : agui_event_get_string (event, "name"),
                                         agui_event_get_subagent_run_id (event));
}

static void
apply_text_content (AguiReducer *self,
                    AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *id = agui_event_get_message_id (event);
  const char *delta = agui_event_get_delta (event);

  if (!_agui_transcript_append_text (self->transcript, id, delta ? delta : "",
                                     event_metadata (event, &metadata)))
    warn (self, "%s for '%s' ignored: no such message", agui_event_get_type_name (event), id);
}

static void
apply_text_end (AguiReducer *self,
                AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *id = agui_event_get_message_id (event);

  if (!_agui_transcript_end_message (self->transcript, id, event_metadata (event, &metadata)))
    warn (self, "%s for '%s' ignored: no such message", agui_event_get_type_name (event), id);
}

static void
apply_tool_call_start (AguiReducer *self,
                       AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *id = agui_event_get_tool_call_id (event);
  const char *name = agui_event_get_string (event, "toolCallName");
  const char *parent_id = agui_event_get_string (event, "parentMessageId");
  AguiToolCallPart *existing = NULL;
  AguiRecord *parent = NULL;
  const char *owned;
  guint known;

  known = mark_run_call (self, id, RUN_CALL_STARTED, &owned);
  if ((known & RUN_CALL_STARTED) == 0)
    {
      g_ptr_array_add (self->run_tool_calls, (gpointer) owned);
      if (known & RUN_CALL_ANSWERED)
        self->n_run_answered++;
    }

  if (_agui_transcript_lookup_tool_call (self->transcript, id, &existing) != NULL)
    {
      if (g_strcmp0 (agui_tool_call_part_get_tool_name (existing), name) != 0)
        {
          warn (self, "TOOL_CALL_START for '%s' renames the call from '%s' to '%s'",
                id, agui_tool_call_part_get_tool_name (existing), name);
        }
      _agui_transcript_restart_tool_call (self->transcript, existing, name, event_metadata (event, &metadata));
      return;
    }

  if (parent_id != NULL)
    {
      parent = _agui_transcript_lookup_record (self->transcript, parent_id);
      if (parent != NULL && _agui_record_get_role (parent) != AGUI_ROLE_ASSISTANT)
        {
          warn (self, "TOOL_CALL_START for '%s': parent '%s' is not an assistant message",
                id, parent_id);
          parent = NULL;
          parent_id = id;
        }
    }
  else
    {
      parent_id = id;
    }

  _agui_transcript_begin_tool_call (self->transcript, parent, parent_id, id, name,
                                    agui_event_get_subagent_run_id (event),
                                    event_metadata (event, &metadata));
}

static void
warn_no_tool_call (AguiReducer *self,
                   AguiEvent   *event)
{
  warn (self, "%s for '%s' ignored: no such tool call",
        agui_event_get_type_name (event), agui_event_get_tool_call_id (event));
}

static void
apply_tool_call_result (AguiReducer *self,
                        AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *message_id = agui_event_get_message_id (event);
  const char *tool_call_id = agui_event_get_tool_call_id (event);
  AguiJsonValue content = AGUI_JSON_VALUE_INIT;
  gboolean has_content;

  if (_agui_transcript_lookup_record (self->transcript, message_id) != NULL)
    warn (self, "TOOL_CALL_RESULT adds a second message with the id '%s'", message_id);

  if (tool_call_id != NULL)
    answer_run_call (self, tool_call_id);

  /* Only events the client made itself carry an error: schema
   * enforcement strips the member from anything an agent sends. */
  has_content = _agui_event_member_to_value (event, "content", &content);
  _agui_transcript_add_tool_result (self->transcript, message_id, tool_call_id,
                                    agui_event_get_subagent_run_id (event),
                                    has_content ? &content : NULL,
                                    agui_event_get_string (event, "error"),
                                    event_metadata (event, &metadata));
}

static void
apply_activity_snapshot (AguiReducer *self,
                         AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *id = agui_event_get_message_id (event);
  gboolean replace = agui_event_get_boolean (event, "replace", TRUE);
  AguiRecord *existing = _agui_transcript_lookup_record (self->transcript, id);
  AguiJsonValue content = AGUI_JSON_VALUE_INIT;
  gboolean has_content;

  if (existing != NULL && _agui_record_get_role (existing) == AGUI_ROLE_ACTIVITY && !replace)
    {
      _agui_transcript_merge_metadata (self->transcript, existing, event_metadata (event, &metadata));
      return;
    }

  if (existing != NULL && !replace)
    return;

  if (existing != NULL && _agui_record_get_role (existing) != AGUI_ROLE_ACTIVITY)
    warn (self, "ACTIVITY_SNAPSHOT replaces the %s message '%s'",
          agui_role_to_string (_agui_record_get_role (existing)), id);

  has_content = _agui_event_member_to_value (event, "content", &content);
  _agui_transcript_set_activity (self->transcript, id,
                                 agui_event_get_string (event, "activityType"),
                                 has_content ? &content : NULL,
                                 agui_event_get_subagent_run_id (event),
                                 event_metadata (event, &metadata));
}

static void
apply_activity_delta (AguiReducer *self,
                      AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  const char *id = agui_event_get_message_id (event);
  AguiRecord *record = _agui_transcript_lookup_record (self->transcript, id);
  g_autoptr(GError) error = NULL;

  if (record == NULL)
    return;

  if (_agui_record_get_role (record) != AGUI_ROLE_ACTIVITY)
    {
      warn (self, "ACTIVITY_DELTA for '%s' ignored: it is a %s message",
            id, agui_role_to_string (_agui_record_get_role (record)));
      return;
    }

  _agui_transcript_merge_metadata (self->transcript, record, event_metadata (event, &metadata));

  if (!_agui_transcript_patch_activity (self->transcript, record, agui_event_get_string (event, "activityType"),
                                        _agui_event_peek_member (event, "patch"), self->max_state_size, &error))
    {
      warn (self, "ACTIVITY_DELTA for '%s' left the content unchanged: %s", id, error->message);
      _agui_transcript_note_refused_patch (self->transcript, record, "ACTIVITY_DELTA", error->message);
    }
}

static void
apply_state_delta (AguiReducer *self,
                   AguiEvent   *event)
{
  g_autoptr(GError) error = NULL;

  if (!_agui_transcript_patch_state (self->transcript, event, self->max_state_size, &error))
    {
      warn (self, "STATE_DELTA left the state unchanged: %s", error->message);
      _agui_transcript_set_state_error (self->transcript, error->message);
      _agui_transcript_note_refused_patch (self->transcript, NULL, "STATE_DELTA", error->message);
    }
}

static void
apply_encrypted_value (AguiReducer *self,
                       AguiEvent   *event)
{
  const char *subtype = agui_event_get_string (event, "subtype");
  const char *entity_id = agui_event_get_string (event, "entityId");
  const char *value = agui_event_get_string (event, "encryptedValue");

  if (g_strcmp0 (subtype, "tool-call") == 0)
    {
      AguiToolCallPart *part = NULL;

      if (_agui_transcript_lookup_tool_call (self->transcript, entity_id, &part) != NULL)
        _agui_transcript_set_tool_call_encrypted_value (self->transcript, part, value);
    }
  else
    {
      AguiRecord *record = _agui_transcript_lookup_record (self->transcript, entity_id);

      if (record == NULL || _agui_record_get_role (record) == AGUI_ROLE_ACTIVITY)
        return;

      _agui_transcript_set_encrypted_value (self->transcript, record, value);
    }
}

static void
apply_subagent (AguiReducer *self,
                AguiEvent   *event)
{
  g_autoptr(AguiSubagentRun) running = NULL;
  g_autoptr(AguiSubagentRun) ended = NULL;

  if (agui_event_get_event_type (event) == AGUI_EVENT_SUBAGENT_STARTED)
    {
      g_autoptr(AguiSubagentRun) started = _agui_subagent_run_new_started (event);

      _agui_transcript_add_subagent (self->transcript, started);
      return;
    }

  /* An end the verifier let through names a subagent of this run; a
   * reducer driven without one ignores any other. */
  running = _agui_transcript_lookup_subagent (self->transcript, agui_event_get_subagent_run_id (event));
  if (running == NULL || agui_subagent_run_get_status (running) != AGUI_SUBAGENT_RUNNING)
    return;

  ended = _agui_subagent_run_new_ended (running, event);
  _agui_transcript_replace_subagent (self->transcript, ended);
}

/**
 * _agui_reducer_apply:
 * @self: a reducer
 * @event: an event that passed verification
 *
 * Folds one event into the transcript, as AG-UI section 12 describes.
 */
void
_agui_reducer_apply (AguiReducer *self,
                    AguiEvent   *event)
{
  g_auto(EventMetadata) metadata = AGUI_JSON_VALUE_INIT;
  AguiRecord *record;

  g_return_if_fail (AGUI_IS_REDUCER (self));
  g_return_if_fail (event != NULL);

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_RUN_STARTED:
      apply_run_started (self, event);
      break;

    case AGUI_EVENT_RUN_FINISHED:
      apply_run_finished (self, event);
      break;

    case AGUI_EVENT_RUN_ERROR:
      apply_run_error (self, event);
      break;

    case AGUI_EVENT_STEP_STARTED:
    case AGUI_EVENT_STEP_FINISHED:
      apply_step (self, event, agui_event_get_event_type (event) == AGUI_EVENT_STEP_STARTED);
      break;

    case AGUI_EVENT_TEXT_MESSAGE_START:
      {
        AguiRole role = AGUI_ROLE_ASSISTANT;

        if (agui_event_get_role (event))
          agui_role_from_string (agui_event_get_role (event), &role);
        if ((record = open_text_record (self, event, role)))
          _agui_transcript_merge_metadata (self->transcript, record, event_metadata (event, &metadata));
      }
      break;

    case AGUI_EVENT_REASONING_MESSAGE_START:
      if ((record = open_text_record (self, event, AGUI_ROLE_REASONING)))
        _agui_transcript_merge_metadata (self->transcript, record, event_metadata (event, &metadata));
      break;

    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
      apply_text_content (self, event);
      break;

    case AGUI_EVENT_TEXT_MESSAGE_END:
    case AGUI_EVENT_REASONING_MESSAGE_END:
      apply_text_end (self, event);
      break;

    case AGUI_EVENT_TOOL_CALL_START:
      apply_tool_call_start (self, event);
      break;

    case AGUI_EVENT_TOOL_CALL_ARGS:
      if (!_agui_transcript_append_tool_call_args (self->transcript, agui_event_get_tool_call_id (event),
                                                   agui_event_get_delta (event),
                                                   event_metadata (event, &metadata)))
        warn_no_tool_call (self, event);
      break;

    case AGUI_EVENT_TOOL_CALL_END:
      if (!_agui_transcript_end_tool_call (self->transcript, agui_event_get_tool_call_id (event),
                                           event_metadata (event, &metadata)))
        warn_no_tool_call (self, event);
      break;

    case AGUI_EVENT_TOOL_CALL_RESULT:
      apply_tool_call_result (self, event);
      break;

    case AGUI_EVENT_STATE_SNAPSHOT:
      {
        AguiJsonValue snapshot = AGUI_JSON_VALUE_INIT;

        _agui_event_member_to_value (event, "snapshot", &snapshot);
        _agui_transcript_take_state_value (self->transcript, &snapshot);
      }
      break;

    case AGUI_EVENT_STATE_DELTA:
      apply_state_delta (self, event);
      break;

    case AGUI_EVENT_MESSAGES_SNAPSHOT:
      {
        g_auto(AguiJsonValue) messages = AGUI_JSON_VALUE_INIT;

        _agui_event_member_to_value (event, "messages", &messages);
        _agui_transcript_merge_snapshot (self->transcript, &messages,
                                         event_metadata (event, &metadata));
      }
      break;

    case AGUI_EVENT_ACTIVITY_SNAPSHOT:
      apply_activity_snapshot (self, event);
      break;

    case AGUI_EVENT_ACTIVITY_DELTA:
      apply_activity_delta (self, event);
      break;

    case AGUI_EVENT_REASONING_ENCRYPTED_VALUE:
      apply_encrypted_value (self, event);
      break;

    case AGUI_EVENT_SUBAGENT_STARTED:
    case AGUI_EVENT_SUBAGENT_FINISHED:
    case AGUI_EVENT_SUBAGENT_ERROR:
      apply_subagent (self, event);
      break;

    case AGUI_EVENT_REASONING_START:
    case AGUI_EVENT_REASONING_END:
    case AGUI_EVENT_RAW:
    case AGUI_EVENT_CUSTOM:
      break;

    case AGUI_EVENT_TEXT_MESSAGE_CHUNK:
    case AGUI_EVENT_TOOL_CALL_CHUNK:
    case AGUI_EVENT_REASONING_MESSAGE_CHUNK:
      g_critical ("%s reached the reducer; chunks must be expanded first",
                  agui_event_get_type_name (event));
      break;

    default:
      g_assert_not_reached ();
    }
}

/**
 * _agui_reducer_fail:
 * @self: a reducer
 * @error: why the run failed
 *
 * Ends the current run as failed because the pipeline failed (the
 * transport broke, an event was malformed, the stream broke the
 * protocol). The transcript keeps everything folded so far.
 */
void
_agui_reducer_fail (AguiReducer  *self,
                   const GError *error)
{
  g_autoptr(AguiRunState) state = NULL;

  g_return_if_fail (AGUI_IS_REDUCER (self));
  g_return_if_fail (error != NULL);

  state = _agui_run_state_new_failed (self->thread_id, self->run_id, error->message, NULL,
                                     agui_stage_from_error (error));
  _agui_run_state_set_error_details (state, _agui_error_get_details (error));
  _agui_transcript_set_run_state (self->transcript, state);
}

/* The person's message, as the three events that would carry it, so a
 * stored log replays it like anything else. */
GPtrArray *
_agui_reducer_add_user_message (AguiReducer *self,
                                const char  *message_id,
                                JsonNode    *content)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  gboolean text = JSON_NODE_HOLDS_VALUE (content);
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members;

  g_return_val_if_fail (AGUI_IS_REDUCER (self), NULL);

  members = _agui_json_value_set_object (&tree, 4);
  _agui_json_doc_set_string (members, "messageId", message_id);
  _agui_json_doc_set_string (members, "role", "user");
  if (!text)
    {
      g_auto(AguiJsonValue) parts = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_node (&parts, content);
      _agui_json_object_set (members, "content", &parts);
    }
  g_ptr_array_add (events, _agui_event_new_tree (AGUI_EVENT_TEXT_MESSAGE_START, &tree));

  if (text)
    {
      members = _agui_json_value_set_object (&tree, 3);
      _agui_json_doc_set_string (members, "messageId", message_id);
      _agui_json_doc_set_string (members, "delta", json_node_get_string (content));
      g_ptr_array_add (events, _agui_event_new_tree (AGUI_EVENT_TEXT_MESSAGE_CONTENT, &tree));
    }

  members = _agui_json_value_set_object (&tree, 2);
  _agui_json_doc_set_string (members, "messageId", message_id);
  g_ptr_array_add (events, _agui_event_new_tree (AGUI_EVENT_TEXT_MESSAGE_END, &tree));

  for (guint i = 0; i < events->len; i++)
    _agui_reducer_apply (self, g_ptr_array_index (events, i));

  return events;
}

/* A frontend tool's answer, folded as the TOOL_CALL_RESULT an agent would
 * send, plus the error member a tool message may carry. */
AguiEvent *
_agui_reducer_add_tool_result (AguiReducer *self,
                               const char  *message_id,
                               const char  *tool_call_id,
                               const char  *content,
                               const char  *error)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members;
  AguiEvent *event;

  g_return_val_if_fail (AGUI_IS_REDUCER (self), NULL);

  members = _agui_json_value_set_object (&tree, 6);
  _agui_json_doc_set_string (members, "messageId", message_id);
  _agui_json_doc_set_string (members, "toolCallId", tool_call_id);
  _agui_json_doc_set_string (members, "content", content ? content : "");
  _agui_json_doc_set_string (members, "role", "tool");
  if (error != NULL)
    _agui_json_doc_set_string (members, "error", error);

  event = _agui_event_new_tree (AGUI_EVENT_TOOL_CALL_RESULT, &tree);
  _agui_reducer_apply (self, event);

  return event;
}

/* The person stopped the run: it ends as cancelled, not failed. */
void
_agui_reducer_cancel_run (AguiReducer *self)
{
  g_autoptr(AguiRunState) state = NULL;

  g_return_if_fail (AGUI_IS_REDUCER (self));

  state = _agui_run_state_new_finished (self->thread_id, self->run_id,
                                       AGUI_OUTCOME_CANCELLED, NULL, NULL);
  _agui_transcript_set_run_state (self->transcript, state);
}

void
_agui_reducer_set_run_state (AguiReducer  *self,
                             AguiRunState *state)
{
  g_return_if_fail (AGUI_IS_REDUCER (self));

  _agui_transcript_set_run_state (self->transcript, state);
}
