/* agui-transcript.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-activity-part-private.h"
#include "agui-event.h"
#include "agui-json-private.h"
#include "agui-media-part-private.h"
#include "agui-interrupt-private.h"
#include "agui-message-private.h"
#include "agui-part-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-run-state-private.h"
#include "agui-subagent-run-private.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-private.h"
#include "agui-util-private.h"

/**
 * AguiTranscript:
 *
 * A thread's conversation as a [iface@Gio.ListModel] of
 * [class@Agui.Message], together with everything else a run changes: the
 * shared state, the run state, the open steps, the pending interrupts and
 * the subagents at work.
 *
 * The transcript is a model, not a log. Each row is something the person
 * said or one turn of the agent; an agent's turn keeps its parts in the
 * order they were produced. A streamed delta changes one part and emits
 * one notification; `items-changed` is emitted only when a row is added or
 * removed. The session's reducer, folding the agent's events, is what
 * changes it.
 *
 * The AG-UI messages the protocol needs are a projection of it:
 * [method@Agui.Transcript.to_messages] gives them for the next run, and
 * [method@Agui.Transcript.load_messages] rebuilds the transcript from them.
 */
/* Where a turn ended on a branch: its snapshot (empty without a store),
 * the run it ended on, and how many records the branch held then. */
typedef struct
{
  char  *snapshot_id;
  char  *run_id;
  guint  turn_index;
  guint  n_records;
  gint64 time;
} TurnMark;

/* A way the conversation went. The active branch lives in the records;
 * the others are kept as their stored projection, with their state. */
typedef struct
{
  JsonArray    *messages;
  JsonNode     *state;
  /* How the branch's last run ended, so that switching to it shows its
   * outcome (a failure and its Retry) and not another branch's; NULL
   * when unknown (idle) */
  AguiRunState *run_state;
  GArray       *marks;
  guint64       recency;
} Branch;

struct _AguiTranscript
{
  GObject       parent_instance;

  GPtrArray    *rows;
  GPtrArray    *records;
  /* Both map to the first holder, as the reference's find() does. */
  GHashTable   *records_by_id;
  GHashTable   *tool_calls_by_id;

  /* The shared state is patched in its own compact tree; the JsonNode
   * agui_transcript_get_state () hands out is built from it on demand
   * and kept until the state next changes (NULL until then). */
  AguiJsonValue state_doc;
  gsize         state_size;   /* its size, as the patches keep it */
  JsonNode     *state;
  /* why the last refused STATE_DELTA was refused, until a snapshot */
  char         *state_error;
  /* the STATE_DELTA event that last changed the state: its patch is
   * built as a JsonArray only when someone asks for it */
  AguiEvent    *last_state_delta;
  AguiRunState *run_state;
  JsonArray    *pending_interrupts;
  guint         expiry_source_id;
  GListStore   *interrupts;  /* the same, as AguiInterrupt */
  /* The open steps, outermost first: each a link of step_order holding
   * its name, also listed under the name in steps_by_name (name → GQueue
   * of those links, oldest first), so that a STEP event costs O(1)
   * however many steps are open. The GStrv the getter returns is built
   * from them when asked, after a change. */
  GQueue        step_order;
  GHashTable   *steps_by_name;
  GStrv         steps;
  guint         steps_dirty : 1;
  GListStore   *subagents;  /* of AguiSubagentRun, in the order they started */
  /* id → 1 + its position: runs are only appended, and cleared all at
   * once, so a position stays right until the next run. */
  GHashTable   *subagent_positions;
  guint         serial;

  /* Every branch of the thread, the active one included; see
   * "Branches" below. */
  GPtrArray    *branches;
  Branch       *active;
  guint64       recency;
  guint         noted_serial;  /* the last attempt that left a run-end note */
};

/* An entry holds its part, whose tool call id (which never changes) is
 * the entry's key: a copy per call was a tenth of a long run's memory. */
typedef struct
{
  AguiRecord       *record;
  AguiToolCallPart *part;
} ToolCallEntry;

static void
tool_call_entry_free (ToolCallEntry *entry)
{
  g_object_unref (entry->part);
  g_free (entry);
}

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiTranscript, agui_transcript, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_N_ITEMS,
  PROP_STATE,
  PROP_LAST_STATE_DELTA,
  PROP_STATE_ERROR,
  PROP_RUN_STATE,
  PROP_PENDING_INTERRUPTS,
  PROP_STEPS,
  PROP_SUBAGENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Records */

AguiRecord *
_agui_record_new (const char *id,
                  AguiRole    role)
{
  /* from the slice allocator: there is one or two of these per tool
   * call, and malloc's header would round each up by a further 16 bytes */
  AguiRecord *record = g_slice_new0 (AguiRecord);

  record->id = _agui_id_new (id);
  record->role = role;
  record->parts = g_ptr_array_new_with_free_func (g_object_unref);

  return record;
}

void
_agui_record_free (AguiRecord *record)
{
  if (record == NULL)
    return;

  g_clear_pointer (&record->id, g_ref_string_release);
  g_free (record->name);
  g_free (record->subagent_run_id);
  g_free (record->encrypted_value);
  g_clear_pointer (&record->metadata, json_object_unref);
  g_clear_pointer (&record->content, json_node_unref);
  g_clear_pointer (&record->notes, json_array_unref);
  g_clear_pointer (&record->tool_call_id, g_ref_string_release);
  g_free (record->error);
  g_ptr_array_unref (record->parts);
  g_slice_free (AguiRecord, record);
}

void
_agui_record_merge_metadata (AguiRecord *record,
                             JsonObject *metadata)
{
  if (metadata == NULL)
    return;

  if (record->metadata == NULL)
    record->metadata = json_object_new ();

  _agui_json_object_merge (record->metadata, metadata);
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* The text a tool answered with, for display: the content itself, or the
 * text parts of a multimodal answer. */
static char *
content_to_text (JsonNode *content)
{
  GString *text;
  JsonArray *array;

  if (content == NULL)
    return NULL;

  if (json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));

  if (!JSON_NODE_HOLDS_ARRAY (content))
    return NULL;

  text = g_string_new (NULL);
  array = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *piece;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      piece = get_string (json_node_get_object (element), "text");
      if (piece == NULL)
        continue;

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, piece);
    }

  return g_string_free (text, FALSE);
}

static void
add_content_parts (AguiRecord *record,
                   JsonArray  *content)
{
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonNode *element = json_array_get_element (content, i);
      JsonObject *object;
      const char *type;
      AguiPart *part;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      object = json_node_get_object (element);
      type = get_string (object, "type");
      if (g_strcmp0 (type, "text") == 0)
        part = AGUI_PART (_agui_text_part_new (record->id, get_string (object, "text")));
      else
        part = AGUI_PART (_agui_media_part_new (record->id, object));

      _agui_part_set_complete (part, TRUE);
      g_ptr_array_add (record->parts, part);
    }
}

/* Tandem's own knowledge of a call lives under this key of the call's
 * metadata in the stored projection only. */
#define LOCAL_STATE_KEY AGUI_TRANSCRIPT_LOCAL_STATE_KEY

static void        restore_record_state (AguiRecord *record,
                                         JsonObject *state);
static JsonObject *record_to_message    (AguiRecord *record,
                                         gboolean    local);

static JsonObject *
call_metadata (AguiToolCallPart *call,
               gboolean          local)
{
  JsonObject *metadata = _agui_tool_call_part_get_metadata (call);
  g_autoptr(JsonObject) state = local ? _agui_tool_call_part_dup_local_state (call) : NULL;
  JsonObject *copy;

  if (state == NULL)
    return metadata ? json_object_ref (metadata) : NULL;

  copy = json_object_new ();
  if (metadata != NULL)
    _agui_json_object_merge (copy, metadata);
  json_object_set_object_member (copy, LOCAL_STATE_KEY, g_steal_pointer (&state));

  return copy;
}

static void
take_local_state (AguiToolCallPart *part)
{
  JsonObject *metadata = _agui_tool_call_part_get_metadata (part);
  JsonNode *state;

  if (metadata == NULL || !(state = json_object_get_member (metadata, LOCAL_STATE_KEY)))
    return;

  if (JSON_NODE_HOLDS_OBJECT (state))
    _agui_tool_call_part_restore_local_state (part, json_node_get_object (state));
  json_object_remove_member (metadata, LOCAL_STATE_KEY);
}

AguiRecord *
_agui_record_new_from_message (JsonObject *message)
{
  AguiRecord *record;
  const char *role_name;
  AguiRole role;
  JsonNode *content;

  role_name = get_string (message, "role");
  if (role_name == NULL || !agui_role_from_string (role_name, &role))
    return NULL;

  record = _agui_record_new (get_string (message, "id"), role);
  record->name = g_strdup (get_string (message, "name"));
  record->subagent_run_id = g_strdup (get_string (message, "subagentRunId"));
  record->encrypted_value = g_strdup (get_string (message, "encryptedValue"));
  if (json_object_has_member (message, "metadata") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (message, "metadata")))
    _agui_record_merge_metadata (record, json_object_get_object_member (message, "metadata"));

  content = json_object_get_member (message, "content");

  switch (role)
    {
    case AGUI_ROLE_USER:
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
    case AGUI_ROLE_ASSISTANT:
      if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        {
          record->has_content = TRUE;
          record->content = json_node_copy (content);
          add_content_parts (record, json_node_get_array (content));
        }
      else if (content != NULL && json_node_get_value_type (content) == G_TYPE_STRING)
        {
          AguiTextPart *part = _agui_text_part_new (record->id, json_node_get_string (content));

          record->has_content = TRUE;
          _agui_part_set_complete (AGUI_PART (part), TRUE);
          g_ptr_array_add (record->parts, part);
        }

      if (role == AGUI_ROLE_ASSISTANT &&
          json_object_has_member (message, "toolCalls") &&
          JSON_NODE_HOLDS_ARRAY (json_object_get_member (message, "toolCalls")))
        {
          JsonArray *calls = json_object_get_array_member (message, "toolCalls");

          for (guint i = 0; i < json_array_get_length (calls); i++)
            {
              JsonNode *element = json_array_get_element (calls, i);
              JsonObject *call, *function = NULL;
              AguiToolCallPart *part;

              if (!JSON_NODE_HOLDS_OBJECT (element))
                continue;

              call = json_node_get_object (element);
              if (json_object_has_member (call, "function") &&
                  JSON_NODE_HOLDS_OBJECT (json_object_get_member (call, "function")))
                function = json_object_get_object_member (call, "function");

              part = _agui_tool_call_part_new (record->id, get_string (call, "id"),
                                               function ? get_string (function, "name") : NULL);
              if (function != NULL)
                _agui_tool_call_part_set_arguments (part, get_string (function, "arguments"));
              _agui_tool_call_part_set_encrypted_value (part, get_string (call, "encryptedValue"));
              if (json_object_has_member (call, "metadata") &&
                  JSON_NODE_HOLDS_OBJECT (json_object_get_member (call, "metadata")))
                _agui_tool_call_part_merge_metadata (part, json_object_get_object_member (call, "metadata"));
              _agui_tool_call_part_finish_arguments (part);
              take_local_state (part);
              g_ptr_array_add (record->parts, part);
            }
        }
      break;

    case AGUI_ROLE_TOOL:
      record->tool_call_id = _agui_id_new (get_string (message, "toolCallId"));
      record->error = g_strdup (get_string (message, "error"));
      record->content = content ? json_node_copy (content) : json_node_init_string (json_node_alloc (), "");
      record->has_content = TRUE;
      break;

    case AGUI_ROLE_REASONING:
      {
        AguiReasoningPart *part;

        part = _agui_reasoning_part_new (record->id,
                                         content && json_node_get_value_type (content) == G_TYPE_STRING
                                           ? json_node_get_string (content) : NULL);
        _agui_reasoning_part_set_encrypted_value (part, record->encrypted_value);
        _agui_part_set_complete (AGUI_PART (part), TRUE);
        g_ptr_array_add (record->parts, part);
        record->has_content = TRUE;
      }
      break;

    case AGUI_ROLE_ACTIVITY:
      {
        AguiActivityPart *part = _agui_activity_part_new (record->id);

        _agui_activity_part_set_activity_type (part, get_string (message, "activityType"));
        if (content != NULL)
          {
            _agui_activity_part_set_content (part, content);
          }
        else
          {
            g_autoptr(JsonNode) empty = _agui_json_node_new_object (json_object_new ());

            _agui_activity_part_set_content (part, empty);
          }
        _agui_part_set_complete (AGUI_PART (part), TRUE);
        g_ptr_array_add (record->parts, part);
        /* Activities carry neither a name nor an encrypted value. */
        g_clear_pointer (&record->encrypted_value, g_free);
        g_clear_pointer (&record->name, g_free);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  if (record->metadata != NULL && json_object_has_member (record->metadata, LOCAL_STATE_KEY))
    {
      JsonNode *state = json_object_get_member (record->metadata, LOCAL_STATE_KEY);

      if (JSON_NODE_HOLDS_OBJECT (state))
        restore_record_state (record, json_node_get_object (state));
      json_object_remove_member (record->metadata, LOCAL_STATE_KEY);
      if (json_object_get_size (record->metadata) == 0)
        g_clear_pointer (&record->metadata, json_object_unref);
    }


  return record;
}

static char *
record_dup_text (AguiRecord *record)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < record->parts->len; i++)
    {
      AguiPart *part = g_ptr_array_index (record->parts, i);

      if (AGUI_IS_TEXT_PART (part))
        g_string_append_len (text,
                             _agui_text_part_get_buffer (AGUI_TEXT_PART (part))->str,
                             _agui_text_part_get_buffer (AGUI_TEXT_PART (part))->len);
      else if (AGUI_IS_REASONING_PART (part))
        g_string_append (text, agui_reasoning_part_get_text (AGUI_REASONING_PART (part)));
    }

  return g_string_free (text, FALSE);
}

static JsonNode *
record_text_node (AguiRecord *record)
{
  g_autofree char *text = record_dup_text (record);

  return json_node_init_string (json_node_alloc (), text);
}

static void
set_record_attempt (AguiRecord  *record,
                    AguiAttempt  attempt,
                    gboolean     attempt_end)
{
  record->attempt = attempt;
  record->attempt_end = attempt != AGUI_ATTEMPT_NONE && attempt_end;

  for (guint i = 0; i < record->parts->len; i++)
    _agui_part_set_attempt (g_ptr_array_index (record->parts, i), attempt,
                            record->attempt_end && i == record->parts->len - 1);
}

/* Notes show after the record's last part */
static void
sync_record_notes (AguiRecord *record)
{
  if (record->parts->len > 0)
    _agui_part_set_notes (g_ptr_array_index (record->parts, record->parts->len - 1), record->notes);
}

static gboolean
is_note (JsonNode *node)
{
  return JSON_NODE_HOLDS_OBJECT (node) && get_string (json_node_get_object (node), "kind") != NULL;
}

static void
restore_record_state (AguiRecord *record,
                      JsonObject *state)
{
  const char *attempt = get_string (state, "attempt");
  JsonNode *end = json_object_get_member (state, "attemptEnd");
  JsonNode *notes = json_object_get_member (state, "notes");

  /* A hand-edited or damaged note is left out, never shown half */
  if (notes != NULL && JSON_NODE_HOLDS_ARRAY (notes))
    {
      JsonArray *array = json_node_get_array (notes);

      g_clear_pointer (&record->notes, json_array_unref);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *note = json_array_get_element (array, i);

          if (!is_note (note))
            continue;
          if (record->notes == NULL)
            record->notes = json_array_new ();
          json_array_add_element (record->notes, json_node_copy (note));
        }
      sync_record_notes (record);
    }

  set_record_attempt (record,
                      g_strcmp0 (attempt, "failed") == 0 ? AGUI_ATTEMPT_FAILED
                      : g_strcmp0 (attempt, "stopped") == 0 ? AGUI_ATTEMPT_STOPPED
                      : AGUI_ATTEMPT_NONE,
                      end != NULL && JSON_NODE_HOLDS_VALUE (end) &&
                      json_node_get_value_type (end) == G_TYPE_BOOLEAN && json_node_get_boolean (end));
}

/* A failed attempt is not the agent's answer, and a stopped one may hold
 * calls nobody will answer. What the next run is given of them:
 *
 * - a tool result always goes with the call it answers, so every call
 *   that got a result stays, in its assistant message, with its result;
 * - a call without a result is left out, as an assistant message with a
 *   call and no answer is not a valid history;
 * - a failed attempt's text and reasoning are left out: the agent would
 *   take its own broken-off words for its answer (and answer them);
 * - a stopped attempt's text stays: the person read it, and stopped it.
 *
 * The transcript keeps all of it, marked, for the person to see. Returns
 * NULL when nothing of @record goes to the agent. */
static JsonObject *
attempt_to_message (AguiRecord *record)
{
  JsonObject *message;
  JsonArray *calls;
  g_autoptr(JsonArray) kept = NULL;

  if (record->role == AGUI_ROLE_TOOL)
    return record_to_message (record, FALSE);

  if (record->role == AGUI_ROLE_REASONING)
    return record->attempt == AGUI_ATTEMPT_FAILED ? NULL : record_to_message (record, FALSE);

  if (record->role != AGUI_ROLE_ASSISTANT)
    return record_to_message (record, FALSE);

  message = record_to_message (record, FALSE);
  if (record->attempt == AGUI_ATTEMPT_FAILED)
    json_object_remove_member (message, "content");

  calls = json_object_has_member (message, "toolCalls") ? json_object_get_array_member (message, "toolCalls") : NULL;
  kept = json_array_new ();
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);
      const char *id = get_string (call, "id");
      AguiToolCallPart *part = NULL;

      for (guint j = 0; j < record->parts->len; j++)
        if (AGUI_IS_TOOL_CALL_PART (g_ptr_array_index (record->parts, j)) &&
            g_strcmp0 (agui_tool_call_part_get_tool_call_id (g_ptr_array_index (record->parts, j)), id) == 0)
          part = g_ptr_array_index (record->parts, j);

      if (part != NULL && _agui_tool_call_part_get_has_result (part))
        json_array_add_element (kept, json_node_copy (json_array_get_element (calls, i)));
    }

  if (calls != NULL)
    json_object_remove_member (message, "toolCalls");
  if (json_array_get_length (kept) > 0)
    json_object_set_array_member (message, "toolCalls", g_steal_pointer (&kept));

  if (!json_object_has_member (message, "content") && !json_object_has_member (message, "toolCalls"))
    {
      json_object_unref (message);
      return NULL;
    }

  return message;
}

static JsonObject *
record_to_message (AguiRecord *record,
                   gboolean    local)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "id", record->id);
  json_object_set_string_member (message, "role", agui_role_to_string (record->role));

  switch (record->role)
    {
    case AGUI_ROLE_USER:
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
    case AGUI_ROLE_ASSISTANT:
      if (record->content != NULL)
        json_object_set_member (message, "content", json_node_copy (record->content));
      else if (record->has_content || record->role != AGUI_ROLE_ASSISTANT)
        json_object_set_member (message, "content",
                                record_text_node (record));
      if (record->role == AGUI_ROLE_ASSISTANT)
        {
          JsonArray *calls = NULL;

          for (guint i = 0; i < record->parts->len; i++)
            {
              AguiPart *part = g_ptr_array_index (record->parts, i);
              AguiToolCallPart *call;
              JsonObject *object, *function, *metadata;

              if (!AGUI_IS_TOOL_CALL_PART (part))
                continue;

              call = AGUI_TOOL_CALL_PART (part);
              if (calls == NULL)
                calls = json_array_new ();

              function = json_object_new ();
              json_object_set_string_member (function, "name",
                                             agui_tool_call_part_get_tool_name (call)
                                               ? agui_tool_call_part_get_tool_name (call) : "");
              json_object_set_string_member (function, "arguments",
                                             agui_tool_call_part_get_arguments (call));

              object = json_object_new ();
              json_object_set_string_member (object, "id", agui_tool_call_part_get_tool_call_id (call));
              json_object_set_string_member (object, "type", "function");
              json_object_set_object_member (object, "function", function);
              if (_agui_tool_call_part_get_encrypted_value (call))
                json_object_set_string_member (object, "encryptedValue",
                                               _agui_tool_call_part_get_encrypted_value (call));
              if ((metadata = call_metadata (call, local)))
                json_object_set_object_member (object, "metadata", metadata);
              json_array_add_object_element (calls, object);
            }

          if (calls != NULL)
            json_object_set_array_member (message, "toolCalls", calls);
        }
      break;

    case AGUI_ROLE_TOOL:
      json_object_set_string_member (message, "toolCallId", record->tool_call_id ? record->tool_call_id : "");
      json_object_set_member (message, "content",
                              record->content ? json_node_copy (record->content)
                                              : json_node_init_string (json_node_alloc (), ""));
      if (record->error)
        json_object_set_string_member (message, "error", record->error);
      break;

    case AGUI_ROLE_REASONING:
      json_object_set_member (message, "content",
                              record_text_node (record));
      break;

    case AGUI_ROLE_ACTIVITY:
      {
        AguiActivityPart *part = NULL;

        for (guint i = 0; i < record->parts->len; i++)
          if (AGUI_IS_ACTIVITY_PART (g_ptr_array_index (record->parts, i)))
            part = g_ptr_array_index (record->parts, i);

        json_object_set_string_member (message, "activityType",
                                       part && agui_activity_part_get_activity_type (part)
                                         ? agui_activity_part_get_activity_type (part) : "");
        json_object_set_member (message, "content",
                                part && agui_activity_part_get_content (part)
                                  ? json_node_copy (agui_activity_part_get_content (part))
                                  : _agui_json_node_new_object (json_object_new ()));
      }
      break;

    default:
      g_assert_not_reached ();
    }

  if (record->name && record->role != AGUI_ROLE_ACTIVITY && record->role != AGUI_ROLE_REASONING &&
      record->role != AGUI_ROLE_TOOL)
    json_object_set_string_member (message, "name", record->name);
  if (record->subagent_run_id)
    json_object_set_string_member (message, "subagentRunId", record->subagent_run_id);
  if (local && (record->attempt != AGUI_ATTEMPT_NONE || record->notes != NULL))
    {
      JsonObject *metadata = json_object_new ();
      JsonObject *state = json_object_new ();

      if (record->metadata)
        _agui_json_object_merge (metadata, record->metadata);
      if (record->attempt != AGUI_ATTEMPT_NONE)
        json_object_set_string_member (state, "attempt",
                                       record->attempt == AGUI_ATTEMPT_FAILED ? "failed" : "stopped");
      if (record->attempt_end)
        json_object_set_boolean_member (state, "attemptEnd", TRUE);
      if (record->notes != NULL)
        {
          g_autoptr(JsonNode) notes = json_node_init_array (json_node_alloc (), record->notes);

          /* A copy: what is projected may be written on another thread */
          json_object_set_member (state, "notes", _agui_json_node_copy_deep (notes));
        }
      json_object_set_object_member (metadata, LOCAL_STATE_KEY, state);
      json_object_set_object_member (message, "metadata", metadata);
    }
  else if (record->metadata)
    json_object_set_object_member (message, "metadata", json_object_ref (record->metadata));
  if (record->encrypted_value && record->role != AGUI_ROLE_ACTIVITY)
    json_object_set_string_member (message, "encryptedValue", record->encrypted_value);

  return message;
}

/* Indexes */

static void
index_tool_call (AguiTranscript   *self,
                 AguiRecord       *record,
                 AguiToolCallPart *part)
{
  const char *id = agui_tool_call_part_get_tool_call_id (part);
  ToolCallEntry *entry;

  if (id == NULL || g_hash_table_contains (self->tool_calls_by_id, id))
    return;

  entry = g_new0 (ToolCallEntry, 1);
  entry->record = record;
  entry->part = g_object_ref (part);
  g_hash_table_insert (self->tool_calls_by_id, (char *) id, entry);
}

static void
index_record (AguiTranscript *self,
              AguiRecord     *record)
{
  if (record->id != NULL && !g_hash_table_contains (self->records_by_id, record->id))
    g_hash_table_insert (self->records_by_id, record->id, record);

  if (record->role == AGUI_ROLE_ASSISTANT)
    {
      for (guint i = 0; i < record->parts->len; i++)
        {
          AguiPart *part = g_ptr_array_index (record->parts, i);

          if (AGUI_IS_TOOL_CALL_PART (part))
            index_tool_call (self, record, AGUI_TOOL_CALL_PART (part));
        }
    }
}

static void
link_tool_result (AguiTranscript *self,
                  AguiRecord     *record)
{
  ToolCallEntry *entry;
  g_autofree char *text = NULL;

  if (record->role != AGUI_ROLE_TOOL || record->tool_call_id == NULL)
    return;

  entry = g_hash_table_lookup (self->tool_calls_by_id, record->tool_call_id);
  if (entry == NULL)
    return;

  text = content_to_text (record->content);
  _agui_tool_call_part_set_result (entry->part, text, record->error);
}

static GDateTime *
interrupt_dup_expiry (JsonObject *interrupt)
{
  const char *expires_at = get_string (interrupt, "expiresAt");

  /* An unparseable expiresAt never expires, as the protocol says */
  return expires_at != NULL ? g_date_time_new_from_iso8601 (expires_at, NULL) : NULL;
}

static gboolean
interrupt_expired (JsonObject *interrupt,
                   GDateTime  *now)
{
  g_autoptr(GDateTime) expiry = interrupt_dup_expiry (interrupt);

  return expiry != NULL && g_date_time_compare (expiry, now) <= 0;
}

static void update_approvals (AguiTranscript *self,
                              JsonArray      *previous);

static gboolean
on_expiry_cb (gpointer user_data)
{
  AguiTranscript *self = AGUI_TRANSCRIPT (user_data);

  self->expiry_source_id = 0;
  update_approvals (self, NULL);
  /* The list is the same; what may be answered in it is not. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_INTERRUPTS]);

  return G_SOURCE_REMOVE;
}

/* One timer to the next expiresAt among the open questions, so that a
 * question shows as expired the moment it is, without polling. */
static void
schedule_expiry (AguiTranscript *self,
                 GDateTime      *now)
{
  g_autoptr(GDateTime) next = NULL;
  GTimeSpan delay;

  g_clear_handle_id (&self->expiry_source_id, g_source_remove);

  for (guint i = 0; i < json_array_get_length (self->pending_interrupts); i++)
    {
      JsonNode *element = json_array_get_element (self->pending_interrupts, i);
      g_autoptr(GDateTime) expiry = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      expiry = interrupt_dup_expiry (json_node_get_object (element));
      if (expiry != NULL && g_date_time_compare (expiry, now) > 0 &&
          (next == NULL || g_date_time_compare (expiry, next) < 0))
        {
          g_clear_pointer (&next, g_date_time_unref);
          next = g_steal_pointer (&expiry);
        }
    }

  if (next == NULL)
    return;

  /* Rounded up: woken a little early, the question would not have expired yet */
  delay = (g_date_time_difference (next, now) + G_TIME_SPAN_MILLISECOND - 1) / G_TIME_SPAN_MILLISECOND;
  self->expiry_source_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) MIN (delay, (GTimeSpan) G_MAXUINT),
                                               on_expiry_cb, self, NULL);
  g_source_set_name_by_id (self->expiry_source_id, "[agui] interrupt expiry");
}

static void
update_approvals (AguiTranscript *self,
                  JsonArray      *previous)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  /* Calls that an interrupt named stop waiting for approval... */
  if (previous != NULL)
    {
      for (guint i = 0; i < json_array_get_length (previous); i++)
        {
          JsonNode *element = json_array_get_element (previous, i);
          const char *tool_call_id;
          ToolCallEntry *entry;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;

          tool_call_id = get_string (json_node_get_object (element), "toolCallId");
          if (tool_call_id && (entry = g_hash_table_lookup (self->tool_calls_by_id, tool_call_id)))
            _agui_tool_call_part_set_awaiting_approval (entry->part, FALSE);
        }
    }

  /* ...and the ones the current interrupts name wait for it, unless
   * its time is up. */
  for (guint i = 0; i < json_array_get_length (self->pending_interrupts); i++)
    {
      JsonNode *element = json_array_get_element (self->pending_interrupts, i);
      const char *tool_call_id;
      ToolCallEntry *entry;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      tool_call_id = get_string (json_node_get_object (element), "toolCallId");
      if (tool_call_id && (entry = g_hash_table_lookup (self->tool_calls_by_id, tool_call_id)))
        {
          _agui_tool_call_part_set_awaiting_approval (entry->part, TRUE);
          _agui_tool_call_part_set_question_expired (entry->part,
                                                     interrupt_expired (json_node_get_object (element), now));
        }
    }

  schedule_expiry (self, now);
}

/* A snapshot from the agent rebuilds records from its messages, which
 * know nothing of the person's answers: keep them on the new parts. */
static void
carry_local_state (AguiRecord *from,
                   AguiRecord *to)
{
  for (guint i = 0; i < to->parts->len; i++)
    {
      AguiPart *part = g_ptr_array_index (to->parts, i);

      if (!AGUI_IS_TOOL_CALL_PART (part))
        continue;

      for (guint j = 0; j < from->parts->len; j++)
        {
          AguiPart *old = g_ptr_array_index (from->parts, j);

          if (AGUI_IS_TOOL_CALL_PART (old) &&
              g_strcmp0 (agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (old)),
                         agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (part))) == 0)
            _agui_tool_call_part_copy_local_state (AGUI_TOOL_CALL_PART (part), AGUI_TOOL_CALL_PART (old));
        }
    }
}

/* Notes are this client's own: an agent's message never carries them. */
static void
carry_notes (AguiRecord *from,
             AguiRecord *to)
{
  if (from->notes == NULL || to->notes != NULL)
    return;

  to->notes = json_array_ref (from->notes);
  sync_record_notes (to);
}

/* Rows */

static gboolean
role_has_own_row (AguiRole role)
{
  return role == AGUI_ROLE_USER || role == AGUI_ROLE_SYSTEM || role == AGUI_ROLE_DEVELOPER;
}

/* Puts @record in a row of @rows: the person's messages (and system or
 * developer prompts) get a row each; everything the agent produced
 * between two of them shares one turn row. Tool answers have no row of
 * their own: they are drawn on the call they answer. Returns whether a
 * row was appended. */
static gboolean
place_record (GPtrArray  *rows,
              AguiRecord *record)
{
  AguiMessage *last = rows->len > 0 ? g_ptr_array_index (rows, rows->len - 1) : NULL;
  gboolean appended = FALSE;

  if (record->role == AGUI_ROLE_TOOL)
    {
      record->row = NULL;
      return FALSE;
    }

  if (role_has_own_row (record->role) ||
      last == NULL || agui_message_get_role (last) != AGUI_ROLE_ASSISTANT)
    {
      AguiRole row_role = role_has_own_row (record->role) ? record->role : AGUI_ROLE_ASSISTANT;

      last = _agui_message_new (record->id, row_role, record->name);
      g_ptr_array_add (rows, last);
      appended = TRUE;
    }

  record->row = last;
  for (guint i = 0; i < record->parts->len; i++)
    _agui_message_append_part (last, g_ptr_array_index (record->parts, i));

  return appended;
}

static void
rebuild (AguiTranscript *self)
{
  g_autoptr(GPtrArray) old_rows = NULL;
  guint old_n;

  g_hash_table_remove_all (self->records_by_id);
  g_hash_table_remove_all (self->tool_calls_by_id);
  for (guint i = 0; i < self->records->len; i++)
    index_record (self, g_ptr_array_index (self->records, i));
  for (guint i = 0; i < self->records->len; i++)
    link_tool_result (self, g_ptr_array_index (self->records, i));
  update_approvals (self, NULL);

  old_rows = g_steal_pointer (&self->rows);
  old_n = old_rows->len;
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->records->len; i++)
    place_record (self->rows, g_ptr_array_index (self->records, i));

  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, self->rows->len);
  if (old_n != self->rows->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* Branches */

static void
turn_mark_clear (TurnMark *mark)
{
  g_free (mark->snapshot_id);
  g_free (mark->run_id);
}

static GArray *
marks_new (void)
{
  GArray *marks = g_array_new (FALSE, TRUE, sizeof (TurnMark));

  g_array_set_clear_func (marks, (GDestroyNotify) turn_mark_clear);

  return marks;
}

static Branch *
branch_new (void)
{
  Branch *branch = g_new0 (Branch, 1);

  branch->marks = marks_new ();

  return branch;
}

static void
branch_free (Branch *branch)
{
  g_clear_pointer (&branch->messages, json_array_unref);
  g_clear_pointer (&branch->state, json_node_unref);
  g_clear_pointer (&branch->run_state, agui_run_state_unref);
  g_array_unref (branch->marks);
  g_free (branch);
}

static void
branch_add_mark (Branch     *branch,
                 const char *snapshot_id,
                 const char *run_id,
                 guint       turn_index,
                 guint       n_records,
                 gint64      time)
{
  TurnMark mark = { g_strdup (snapshot_id), g_strdup (run_id), turn_index, n_records, time };

  g_array_append_val (branch->marks, mark);
}

/* GListModel */

static GType
agui_transcript_get_item_type (GListModel *model)
{
  return AGUI_TYPE_MESSAGE;
}

static guint
agui_transcript_get_n_items (GListModel *model)
{
  return AGUI_TRANSCRIPT (model)->rows->len;
}

static gpointer
agui_transcript_get_item (GListModel *model,
                          guint       position)
{
  AguiTranscript *self = AGUI_TRANSCRIPT (model);

  if (position >= self->rows->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->rows, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agui_transcript_get_item_type;
  iface->get_n_items = agui_transcript_get_n_items;
  iface->get_item = agui_transcript_get_item;
}

/* GObject */

static void
agui_transcript_finalize (GObject *object)
{
  AguiTranscript *self = AGUI_TRANSCRIPT (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->records_by_id, g_hash_table_unref);
  g_clear_pointer (&self->tool_calls_by_id, g_hash_table_unref);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->state, json_node_unref);
  _agui_json_value_clear (&self->state_doc);
  g_clear_pointer (&self->state_error, g_free);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  g_clear_pointer (&self->run_state, agui_run_state_unref);
  g_clear_handle_id (&self->expiry_source_id, g_source_remove);
  g_clear_pointer (&self->pending_interrupts, json_array_unref);
  g_clear_object (&self->interrupts);
  g_queue_clear_full (&self->step_order, g_free);
  g_clear_pointer (&self->steps_by_name, g_hash_table_unref);
  g_clear_pointer (&self->steps, g_strfreev);
  g_clear_object (&self->subagents);
  g_clear_pointer (&self->subagent_positions, g_hash_table_unref);
  g_clear_pointer (&self->branches, g_ptr_array_unref);

  G_OBJECT_CLASS (agui_transcript_parent_class)->finalize (object);
}

static void
agui_transcript_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AguiTranscript *self = AGUI_TRANSCRIPT (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->rows->len);
      break;

    case PROP_STATE:
      g_value_set_boxed (value, agui_transcript_get_state (self));
      break;

    case PROP_LAST_STATE_DELTA:
      g_value_set_boxed (value, agui_transcript_get_last_state_delta (self));
      break;

    case PROP_STATE_ERROR:
      g_value_set_string (value, self->state_error);
      break;

    case PROP_RUN_STATE:
      g_value_set_boxed (value, self->run_state);
      break;

    case PROP_PENDING_INTERRUPTS:
      g_value_set_object (value, self->interrupts);
      break;

    case PROP_STEPS:
      g_value_set_boxed (value, agui_transcript_get_steps (self));
      break;

    case PROP_SUBAGENTS:
      g_value_set_object (value, self->subagents);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_transcript_class_init (AguiTranscriptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_transcript_finalize;
  object_class->get_property = agui_transcript_get_property;

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:state:
   *
   * The agent's shared state, any JSON value.
   */
  properties[PROP_STATE] =
    g_param_spec_boxed ("state", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:last-state-delta:
   *
   * The JSON Patch that last changed the state, or %NULL after a snapshot.
   */
  properties[PROP_LAST_STATE_DELTA] =
    g_param_spec_boxed ("last-state-delta", NULL, NULL, JSON_TYPE_ARRAY,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:state-error:
   *
   * Why the agent's last refused state change was refused, such as
   * `operation 0 (copy /a from /b): the document would grow past its size
   * limit of 8388608 bytes`, or %NULL. A refused `STATE_DELTA` leaves the
   * state as it was, so it may lag behind the agent's until the next state
   * snapshot, which clears this.
   */
  properties[PROP_STATE_ERROR] =
    g_param_spec_string ("state-error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:run-state:
   *
   * Where the latest run stands.
   */
  properties[PROP_RUN_STATE] =
    g_param_spec_boxed ("run-state", NULL, NULL, AGUI_TYPE_RUN_STATE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:pending-interrupts:
   *
   * The interrupts the thread waits on: a list of [class@Agui.Interrupt],
   * always the same list, changed when a run ends. It is notified after
   * the list has changed, and when one of them expires (its
   * `expiresAt` passes; the list is the same, what may answer it is
   * not), as the tool call it names turns %AGUI_TOOL_CALL_EXPIRED.
   */
  properties[PROP_PENDING_INTERRUPTS] =
    g_param_spec_object ("pending-interrupts", NULL, NULL, G_TYPE_LIST_MODEL,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:steps:
   *
   * The names of the steps open in the current run, outermost first.
   */
  properties[PROP_STEPS] =
    g_param_spec_boxed ("steps", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTranscript:subagents:
   *
   * The subagents of the current run: a list of
   * [class@Agui.SubagentRun] in the order they started, always the same
   * list. A subagent that starts is appended; one that ends is replaced
   * by a run that says how it ended; a new run empties the list.
   */
  properties[PROP_SUBAGENTS] =
    g_param_spec_object ("subagents", NULL, NULL, G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_transcript_init (AguiTranscript *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_record_free);
  self->records_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->tool_calls_by_id = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                  (GDestroyNotify) tool_call_entry_free);
  _agui_json_value_set_object (&self->state_doc, 0);
  self->state_size = 2;
  self->run_state = agui_run_state_new_idle ();
  self->pending_interrupts = json_array_new ();
  self->interrupts = g_list_store_new (AGUI_TYPE_INTERRUPT);
  self->steps = g_new0 (char *, 1);
  g_queue_init (&self->step_order);
  self->steps_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_queue_free);
  self->subagents = g_list_store_new (AGUI_TYPE_SUBAGENT_RUN);
  self->subagent_positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->branches = g_ptr_array_new_with_free_func ((GDestroyNotify) branch_free);
  self->active = branch_new ();
  g_ptr_array_add (self->branches, self->active);
}

/**
 * agui_transcript_new:
 *
 * Returns: (transfer full): an empty transcript with the state `{}`
 */
AguiTranscript *
agui_transcript_new (void)
{
  return g_object_new (AGUI_TYPE_TRANSCRIPT, NULL);
}

/**
 * agui_transcript_get_state:
 * @self: a transcript
 *
 * The shared state as a json-glib tree, which must not be modified.
 *
 * The transcript keeps the state in a compact tree of its own, made for
 * applying patches; the first call after the state changed builds this
 * node from it, which costs O(size of the state), and later calls
 * return the same node until the state changes again (after which the
 * node returned before no longer follows it). A caller that reads the
 * state on every #AguiTranscript:state notification therefore pays for
 * one copy per change, as much as printing it would cost.
 *
 * Returns: (transfer none): the shared state
 */
JsonNode *
agui_transcript_get_state (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  if (self->state == NULL)
    self->state = _agui_json_value_to_node (&self->state_doc);

  return self->state;
}

/**
 * agui_transcript_get_state_error:
 * @self: a transcript
 *
 * Returns: (nullable): why the last refused state change was refused, or
 *   %NULL; see [property@Agui.Transcript:state-error]
 */
const char *
agui_transcript_get_state_error (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return self->state_error;
}

/**
 * agui_transcript_get_last_state_delta:
 * @self: a transcript
 *
 * Returns: (transfer none) (nullable): the patch that last changed the state
 */
JsonArray *
agui_transcript_get_last_state_delta (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return self->last_state_delta != NULL
         ? agui_event_get_array_member (self->last_state_delta, "delta")
         : NULL;
}

/**
 * agui_transcript_get_run_state:
 * @self: a transcript
 *
 * Returns: (transfer none): where the latest run stands
 */
AguiRunState *
agui_transcript_get_run_state (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return self->run_state;
}

/**
 * agui_transcript_get_pending_interrupts:
 * @self: a transcript
 *
 * Returns: (transfer none): the interrupts the thread waits on, a list of
 *   [class@Agui.Interrupt] (maybe empty); see
 *   [property@Agui.Transcript:pending-interrupts]
 */
GListModel *
agui_transcript_get_pending_interrupts (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return G_LIST_MODEL (self->interrupts);
}

/* The same as AG-UI Interrupt objects, for the run input, the store and
 * the CLI. */
JsonArray *
_agui_transcript_get_pending_interrupts_json (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return self->pending_interrupts;
}

/**
 * agui_transcript_get_steps:
 * @self: a transcript
 *
 * Returns: (transfer none): the open steps, outermost first
 */
const char * const *
agui_transcript_get_steps (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  if (self->steps_dirty)
    {
      guint i = 0;

      g_strfreev (self->steps);
      self->steps = g_new (char *, self->step_order.length + 1);
      for (GList *l = self->step_order.head; l != NULL; l = l->next)
        self->steps[i++] = g_strdup (l->data);
      self->steps[i] = NULL;
      self->steps_dirty = FALSE;
    }

  return (const char * const *) self->steps;
}

/**
 * agui_transcript_get_subagents:
 * @self: a transcript
 *
 * Returns: (transfer none): the subagents of the current run, a list of
 *   [class@Agui.SubagentRun] (maybe empty); see
 *   [property@Agui.Transcript:subagents]
 */
GListModel *
agui_transcript_get_subagents (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return G_LIST_MODEL (self->subagents);
}

/**
 * agui_transcript_lookup_tool_call:
 * @self: a transcript
 * @tool_call_id: a tool call id
 *
 * Returns: (transfer none) (nullable): the first tool call with that id
 */
AguiToolCallPart *
agui_transcript_lookup_tool_call (AguiTranscript *self,
                                  const char     *tool_call_id)
{
  ToolCallEntry *entry;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  entry = g_hash_table_lookup (self->tool_calls_by_id, tool_call_id);

  return entry ? entry->part : NULL;
}

/**
 * agui_transcript_get_n_ag_ui_messages:
 * @self: a transcript
 *
 * Returns: how many AG-UI messages the transcript projects to
 */
guint
agui_transcript_get_n_ag_ui_messages (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), 0);

  return self->records->len;
}

/**
 * agui_transcript_to_messages:
 * @self: a transcript
 * @include_activity: whether the projection is for keeping rather than
 *   for a run's input: it then includes activity messages and, in a tool
 *   call's `metadata.tandem`, what the person answered about the call;
 *   neither is ever sent back to the agent
 *
 * Projects the transcript to AG-UI messages, in protocol order: tool
 * answers directly after the assistant message holding their call.
 *
 * Returns: (transfer full): an array of AG-UI Message objects
 */
JsonArray *
agui_transcript_to_messages (AguiTranscript *self,
                             gboolean        include_activity)
{
  JsonArray *messages;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  messages = json_array_sized_new (self->records->len);
  for (guint i = 0; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);
      JsonObject *message;

      if (include_activity)
        message = record_to_message (record, TRUE);
      else
        message = _agui_record_to_input_message (record);

      if (message != NULL)
        json_array_add_object_element (messages, message);
    }

  return messages;
}

/* The AG-UI message of @record in a run's input, as
 * agui_transcript_to_messages (self, FALSE) has it; NULL when nothing of
 * it goes to the agent (an activity, a failed attempt's words) */
JsonObject *
_agui_record_to_input_message (AguiRecord *record)
{
  if (record->role == AGUI_ROLE_ACTIVITY)
    return NULL;

  if (record->attempt != AGUI_ATTEMPT_NONE)
    return attempt_to_message (record);

  return record_to_message (record, FALSE);
}

/* The AG-UI message of record @index, activity included, as
 * agui_transcript_to_messages (self, TRUE) has it */
JsonObject *
_agui_transcript_dup_record_message (AguiTranscript *self,
                                     guint           index)
{
  g_return_val_if_fail (index < self->records->len, NULL);

  return record_to_message (g_ptr_array_index (self->records, index), TRUE);
}

/**
 * agui_transcript_load_messages:
 * @self: a transcript
 * @messages: AG-UI Message objects
 * @error: return location for a #GError
 *
 * Replaces the conversation with @messages (a stored thread, or the
 * history a run starts from). Messages with a role AG-UI does not define
 * are an error, and nothing changes.
 *
 * Returns: %TRUE on success
 */
gboolean
agui_transcript_load_messages (AguiTranscript  *self,
                               JsonArray       *messages,
                               GError         **error)
{
  g_autoptr(GPtrArray) records = NULL;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), FALSE);
  g_return_val_if_fail (messages != NULL, FALSE);

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_record_free);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      AguiRecord *record = NULL;

      if (JSON_NODE_HOLDS_OBJECT (element))
        record = _agui_record_new_from_message (json_node_get_object (element));

      if (record == NULL || record->id == NULL)
        {
          _agui_record_free (record);
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "Message %u is not an AG-UI message with an id and a known role", i);
          return FALSE;
        }

      g_ptr_array_add (records, record);
    }

  g_ptr_array_unref (self->records);
  self->records = g_steal_pointer (&records);
  rebuild (self);

  return TRUE;
}

/* Mutators, for the reducer */

AguiRecord *
_agui_transcript_lookup_record (AguiTranscript *self,
                                const char     *id)
{
  return g_hash_table_lookup (self->records_by_id, id);
}

AguiRecord *
_agui_transcript_lookup_tool_call (AguiTranscript    *self,
                                   const char        *tool_call_id,
                                   AguiToolCallPart **part)
{
  ToolCallEntry *entry = g_hash_table_lookup (self->tool_calls_by_id, tool_call_id);

  if (part != NULL)
    *part = entry ? entry->part : NULL;

  return entry ? entry->record : NULL;
}

void
_agui_transcript_append_record (AguiTranscript *self,
                                AguiRecord     *record)
{
  g_ptr_array_add (self->records, record);
  record->serial = self->serial;
  record->time = g_get_real_time ();
  index_record (self, record);
  link_tool_result (self, record);

  if (place_record (self->rows, record))
    {
      g_list_model_items_changed (G_LIST_MODEL (self), self->rows->len - 1, 0, 1);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

/* A tool answer goes right after the assistant message holding its call,
 * after any answers already there, so parallel results keep their
 * arrival order; with no such message it goes at the end. Tool records
 * have no row, so rows are untouched. */
void
_agui_transcript_insert_tool_record (AguiTranscript *self,
                                     AguiRecord     *record)
{
  AguiRecord *holder = NULL;
  guint position = 0;
  gboolean found = FALSE;

  if (record->tool_call_id != NULL)
    holder = _agui_transcript_lookup_tool_call (self, record->tool_call_id, NULL);

  /* From the end: the holder is nearly always the latest message, and a
   * search from the start made a long run of tool calls quadratic. */
  for (guint i = self->records->len; holder != NULL && i > 0 && !found; i--)
    {
      if (g_ptr_array_index (self->records, i - 1) == holder)
        {
          position = i - 1;
          found = TRUE;
        }
    }

  if (!found)
    {
      _agui_transcript_append_record (self, record);
      return;
    }

  position++;
  while (position < self->records->len &&
         ((AguiRecord *) g_ptr_array_index (self->records, position))->role == AGUI_ROLE_TOOL)
    position++;

  g_ptr_array_insert (self->records, position, record);
  record->serial = self->serial;
  index_record (self, record);
  link_tool_result (self, record);
}

void
_agui_transcript_replace_record (AguiTranscript *self,
                                 AguiRecord     *old_record,
                                 AguiRecord     *replacement)
{
  guint position;

  if (!g_ptr_array_find (self->records, old_record, &position))
    {
      _agui_record_free (replacement);
      return;
    }

  self->records->pdata[position] = replacement;
  carry_local_state (old_record, replacement);
  _agui_record_free (old_record);
  rebuild (self);
}

void
_agui_transcript_add_part (AguiTranscript *self,
                           AguiRecord     *record,
                           AguiPart       *part)
{
  g_ptr_array_add (record->parts, g_object_ref (part));

  if (AGUI_IS_TOOL_CALL_PART (part))
    index_tool_call (self, record, AGUI_TOOL_CALL_PART (part));

  if (record->row != NULL)
    _agui_message_append_part (record->row, part);
}

void
_agui_transcript_clear_parts (AguiTranscript *self,
                              AguiRecord     *record)
{
  while (record->parts->len > 0)
    {
      AguiPart *part = g_ptr_array_index (record->parts, record->parts->len - 1);

      if (record->row != NULL)
        _agui_message_remove_part (record->row, part);
      g_ptr_array_remove_index (record->parts, record->parts->len - 1);
    }
}

/* Appends streamed text to @record, wherever its text lives: reasoning in
 * its reasoning part; otherwise the last text part, or a new one when a
 * tool call came since, so text, call, text draw in that order. */
void
_agui_transcript_append_text (AguiTranscript *self,
                              AguiRecord     *record,
                              const char     *delta)
{
  AguiPart *last = record->parts->len > 0
                   ? g_ptr_array_index (record->parts, record->parts->len - 1) : NULL;

  if (record->role == AGUI_ROLE_TOOL)
    {
      g_autofree char *text = NULL;

      /* Only reachable when ids collide; the reference appends to string content. */
      text = g_strconcat (record->content && json_node_get_value_type (record->content) == G_TYPE_STRING
                            ? json_node_get_string (record->content) : "",
                          delta, NULL);
      g_clear_pointer (&record->content, json_node_unref);
      record->content = json_node_init_string (json_node_alloc (), text);
      link_tool_result (self, record);
      return;
    }

  if (record->role == AGUI_ROLE_REASONING && last != NULL && AGUI_IS_REASONING_PART (last))
    {
      _agui_reasoning_part_append (AGUI_REASONING_PART (last), delta);
      return;
    }

  if (record->content != NULL)
    {
      /* Content that was a parts array becomes text, as the reference does. */
      g_clear_pointer (&record->content, json_node_unref);
      _agui_transcript_clear_parts (self, record);
      last = NULL;
    }

  record->has_content = TRUE;

  if (last != NULL && AGUI_IS_TEXT_PART (last))
    {
      _agui_text_part_append (AGUI_TEXT_PART (last), delta);
    }
  else
    {
      g_autoptr(AguiTextPart) part = _agui_text_part_new (record->id, delta);

      _agui_transcript_add_part (self, record, AGUI_PART (part));
    }
}

static gboolean
snapshot_owns_activity (JsonObject *metadata,
                        gboolean    snapshot_has_activity,
                        const char *activity_type)
{
  JsonNode *convention = NULL;
  JsonNode *types;

  if (metadata != NULL && json_object_has_member (metadata, "@ag-ui/client"))
    convention = json_object_get_member (metadata, "@ag-ui/client");

  if (convention == NULL || !JSON_NODE_HOLDS_OBJECT (convention) ||
      !json_object_has_member (json_node_get_object (convention), "authoritativeActivityTypes"))
    return snapshot_has_activity;

  types = json_object_get_member (json_node_get_object (convention), "authoritativeActivityTypes");
  if (JSON_NODE_HOLDS_NULL (types))
    return TRUE;

  if (JSON_NODE_HOLDS_ARRAY (types))
    {
      JsonArray *array = json_node_get_array (types);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (json_node_get_value_type (element) == G_TYPE_STRING &&
              g_strcmp0 (json_node_get_string (element), activity_type) == 0)
            return TRUE;
        }
    }

  return FALSE;
}

/* MESSAGES_SNAPSHOT (AG-UI 12.4): messages the snapshot names are replaced
 * where they stand, unprotected ones it omits disappear, new ones go to the
 * end. A snapshot is a boundary, so rebuilding the rows here is fine. */
void
_agui_transcript_merge_snapshot (AguiTranscript *self,
                                 JsonArray      *messages,
                                 JsonObject     *metadata)
{
  g_autoptr(GHashTable) incoming = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) kept = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) orphan_notes = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  gboolean has_reasoning = FALSE;
  gboolean has_activity = FALSE;

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message;
      const char *id, *role;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      message = json_node_get_object (element);
      id = get_string (message, "id");
      role = get_string (message, "role");
      if (id != NULL && !g_hash_table_contains (incoming, id))
        g_hash_table_insert (incoming, (gpointer) id, message);
      has_reasoning |= g_strcmp0 (role, "reasoning") == 0;
      has_activity |= g_strcmp0 (role, "activity") == 0;
    }

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_record_free);

  for (guint i = 0; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);
      JsonObject *message = record->id ? g_hash_table_lookup (incoming, record->id) : NULL;

      if (message != NULL)
        {
          AguiRecord *replacement = _agui_record_new_from_message (message);

          if (replacement != NULL)
            {
              carry_local_state (record, replacement);
              carry_notes (record, replacement);
              g_ptr_array_add (records, replacement);
              g_hash_table_add (kept, replacement->id);
            }
          continue;
        }

      if ((record->role == AGUI_ROLE_REASONING && !has_reasoning) ||
          (record->role == AGUI_ROLE_ACTIVITY &&
           !snapshot_owns_activity (metadata, has_activity,
                                    record->parts->len > 0 && AGUI_IS_ACTIVITY_PART (g_ptr_array_index (record->parts, 0))
                                      ? agui_activity_part_get_activity_type (g_ptr_array_index (record->parts, 0))
                                      : NULL)))
        {
          /* Protected: moved over as it is, parts and all. */
          self->records->pdata[i] = NULL;
          g_ptr_array_add (records, record);
          g_hash_table_add (kept, record->id);
          continue;
        }

      /* The person's answers are this client's to know: a snapshot that
       * drops the record they were noted on does not drop them. (A
       * run-end note goes with its attempt.) */
      for (guint j = 0; record->notes != NULL && j < json_array_get_length (record->notes); j++)
        {
          JsonNode *note = json_array_get_element (record->notes, j);

          if (g_strcmp0 (get_string (json_node_get_object (note), "kind"), "answer") == 0)
            g_ptr_array_add (orphan_notes, json_node_dup_object (note));
        }
    }

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      AguiRecord *record;
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      id = get_string (json_node_get_object (element), "id");
      if (id == NULL || g_hash_table_contains (kept, id))
        continue;

      record = _agui_record_new_from_message (json_node_get_object (element));
      if (record == NULL)
        continue;

      g_ptr_array_add (records, record);
      g_hash_table_add (kept, record->id);
    }

  g_ptr_array_set_free_func (self->records, NULL);
  for (guint i = 0; i < self->records->len; i++)
    _agui_record_free (g_ptr_array_index (self->records, i));
  g_ptr_array_unref (self->records);
  self->records = g_steal_pointer (&records);

  rebuild (self);

  for (guint i = 0; i < orphan_notes->len; i++)
    _agui_transcript_add_note (self, g_ptr_array_index (orphan_notes, i));
}

void
_agui_transcript_take_state (AguiTranscript *self,
                             JsonNode       *state)
{
  g_clear_pointer (&self->state, json_node_unref);
  self->state = state ? state : json_node_init_null (json_node_alloc ());
  /* the node stays, as the view of the tree made from it */
  _agui_json_value_set_node (&self->state_doc, self->state);
  self->state_size = 0;
  _agui_json_value_measure (&self->state_doc, AGUI_JSON_MAX_DEPTH, &self->state_size);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  _agui_transcript_set_state_error (self, NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_STATE_DELTA]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

AguiJsonValue *
_agui_transcript_get_state_doc (AguiTranscript *self)
{
  return &self->state_doc;
}

gsize *
_agui_transcript_get_state_size (AguiTranscript *self)
{
  return &self->state_size;
}

void
_agui_transcript_set_state_error (AguiTranscript *self,
                                  const char     *message)
{
  if (g_strcmp0 (self->state_error, message) == 0)
    return;

  g_free (self->state_error);
  self->state_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE_ERROR]);
}

char *
_agui_transcript_dup_state_json (AguiTranscript  *self,
                                 GError         **error)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return _agui_json_value_to_string (&self->state_doc, FALSE, error);
}

void
_agui_transcript_state_patched (AguiTranscript *self,
                                AguiEvent      *delta)
{
  g_clear_pointer (&self->state, json_node_unref);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  self->last_state_delta = delta ? agui_event_ref (delta) : NULL;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_STATE_DELTA]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
_agui_transcript_set_run_state (AguiTranscript *self,
                                AguiRunState   *run_state)
{
  if (self->run_state == run_state)
    return;

  g_clear_pointer (&self->run_state, agui_run_state_unref);
  self->run_state = agui_run_state_ref (run_state);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN_STATE]);
}

static void
update_interrupt_list (AguiTranscript *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < json_array_get_length (self->pending_interrupts); i++)
    {
      JsonNode *element = json_array_get_element (self->pending_interrupts, i);

      /* The verifier lets only objects through; a restored row is checked
       * as it is read. */
      if (JSON_NODE_HOLDS_OBJECT (element))
        g_ptr_array_add (items, _agui_interrupt_new (json_node_get_object (element)));
    }

  g_list_store_splice (self->interrupts, 0, g_list_model_get_n_items (G_LIST_MODEL (self->interrupts)),
                       items->pdata, items->len);
}

void
_agui_transcript_set_pending_interrupts (AguiTranscript *self,
                                         JsonArray      *interrupts)
{
  g_autoptr(JsonArray) previous = NULL;

  if (json_array_get_length (self->pending_interrupts) == 0 &&
      (interrupts == NULL || json_array_get_length (interrupts) == 0))
    return;

  previous = g_steal_pointer (&self->pending_interrupts);
  self->pending_interrupts = interrupts ? json_array_ref (interrupts) : json_array_new ();
  update_approvals (self, previous);
  update_interrupt_list (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_INTERRUPTS]);
}

/* Once no run will answer them any more, calls that still wait for a
 * result say that none came. */
void
_agui_transcript_mark_unanswered_calls (AguiTranscript *self)
{
  for (guint i = 0; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);

      for (guint j = 0; j < record->parts->len; j++)
        {
          AguiPart *part = g_ptr_array_index (record->parts, j);
          AguiToolCallPart *call;

          if (!AGUI_IS_TOOL_CALL_PART (part))
            continue;

          call = AGUI_TOOL_CALL_PART (part);
          if (!_agui_tool_call_part_get_has_result (call) &&
              !_agui_tool_call_part_get_awaiting_approval (call))
            _agui_tool_call_part_set_no_result (call, TRUE);
        }
    }
}

/* A thread rebuilt from its event log lacks what only this client knew
 * about its calls; the stored messages (a snapshot's, say) have it. */
void
_agui_transcript_restore_local_state (AguiTranscript *self,
                                      JsonArray      *messages)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonNode *calls;
      JsonNode *metadata_node;
      AguiRecord *record;

      if (JSON_NODE_HOLDS_OBJECT (element) &&
          (metadata_node = json_object_get_member (json_node_get_object (element), "metadata")) &&
          JSON_NODE_HOLDS_OBJECT (metadata_node) &&
          json_object_has_member (json_node_get_object (metadata_node), LOCAL_STATE_KEY) &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (metadata_node), LOCAL_STATE_KEY)) &&
          (record = g_hash_table_lookup (self->records_by_id, get_string (json_node_get_object (element), "id") ?: "")))
        restore_record_state (record,
                              json_object_get_object_member (json_node_get_object (metadata_node), LOCAL_STATE_KEY));

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !(calls = json_object_get_member (json_node_get_object (element), "toolCalls")) ||
          !JSON_NODE_HOLDS_ARRAY (calls))
        continue;

      for (guint j = 0; j < json_array_get_length (json_node_get_array (calls)); j++)
        {
          JsonNode *call = json_array_get_element (json_node_get_array (calls), j);
          JsonObject *metadata;
          JsonNode *state;
          ToolCallEntry *entry;
          const char *id;

          if (!JSON_NODE_HOLDS_OBJECT (call) ||
              !(id = get_string (json_node_get_object (call), "id")) ||
              !(entry = g_hash_table_lookup (self->tool_calls_by_id, id)) ||
              !json_object_has_member (json_node_get_object (call), "metadata") ||
              !JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (call), "metadata")))
            continue;

          metadata = json_object_get_object_member (json_node_get_object (call), "metadata");
          state = json_object_get_member (metadata, LOCAL_STATE_KEY);
          if (state != NULL && JSON_NODE_HOLDS_OBJECT (state))
            _agui_tool_call_part_restore_local_state (entry->part, json_node_get_object (state));
        }
    }
}

/* Each run the session starts is an attempt; records it appends carry
 * its serial, so that a failed or stopped run can be marked afterwards
 * whatever else happened in the transcript meanwhile. */
guint
_agui_transcript_begin_attempt (AguiTranscript *self)
{
  return ++self->serial;
}

void
_agui_transcript_mark_attempt (AguiTranscript *self,
                               guint           serial,
                               AguiAttempt     attempt)
{
  AguiRecord *last = NULL;

  for (guint i = 0; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);

      if (record->serial != serial || serial == 0)
        continue;

      set_record_attempt (record, attempt, FALSE);
      if (record->parts->len > 0)
        last = record;
    }

  if (last != NULL)
    set_record_attempt (last, attempt, TRUE);
  else if (serial != 0 && attempt != AGUI_ATTEMPT_NONE && serial != self->noted_serial)
    {
      /* A run that ended before it produced anything still happened: the
       * person's question (or whatever came last) says how it ended. */
      g_autoptr(JsonObject) note = json_object_new ();

      json_object_set_string_member (note, "kind", "run-end");
      json_object_set_string_member (note, "attempt", attempt == AGUI_ATTEMPT_FAILED ? "failed" : "stopped");
      _agui_transcript_add_note (self, note);
      self->noted_serial = serial;
    }
}

/* Adds @note to @record's, or puts it in place of note @replace (-1 for
 * none). A new array, so that a part's notes never change under a reader. */
static void
record_add_note (AguiRecord *record,
                 JsonObject *note,
                 int         replace)
{
  JsonArray *notes = json_array_new ();

  for (guint j = 0; record->notes != NULL && j < json_array_get_length (record->notes); j++)
    {
      if ((int) j == replace)
        json_array_add_object_element (notes, json_object_ref (note));
      else
        json_array_add_element (notes, json_node_copy (json_array_get_element (record->notes, j)));
    }
  if (replace < 0)
    json_array_add_object_element (notes, json_object_ref (note));
  g_clear_pointer (&record->notes, json_array_unref);
  record->notes = notes;
  sync_record_notes (record);
}

static AguiRecord *
latest_shown_record (AguiTranscript *self)
{
  for (guint i = self->records->len; i > 0; i--)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i - 1);

      if (record->parts->len > 0)
        return record;
    }

  return NULL;
}

/* Notes go with the latest record that shows anything */
void
_agui_transcript_add_note (AguiTranscript *self,
                           JsonObject     *note)
{
  AguiRecord *record = latest_shown_record (self);

  if (record != NULL)
    record_add_note (record, note, -1);
}

/* A refused STATE_DELTA (@record NULL: the note goes with the latest
 * record that shows anything) or ACTIVITY_DELTA (@record the activity),
 * so that the conversation says its view may be out of date:
 * `{"kind": "patch-refused", "event": …, "reason": …, "count": n}`. A
 * record keeps one such note per event type, counting the refusals and
 * naming the last reason, so that an agent that sends bad patches again
 * and again costs one line, not one per patch. */
void
_agui_transcript_note_refused_patch (AguiTranscript *self,
                                     AguiRecord     *record,
                                     const char     *event_type,
                                     const char     *reason)
{
  g_autoptr(JsonObject) note = json_object_new ();
  gint64 count = 1;
  int replace = -1;

  if (record == NULL && (record = latest_shown_record (self)) == NULL)
    return;

  for (guint i = 0; record->notes != NULL && i < json_array_get_length (record->notes); i++)
    {
      JsonNode *node = json_array_get_element (record->notes, i);
      JsonObject *other = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (other != NULL && g_strcmp0 (get_string (other, "kind"), "patch-refused") == 0 &&
          g_strcmp0 (get_string (other, "event"), event_type) == 0)
        {
          JsonNode *counted = json_object_get_member (other, "count");

          replace = (int) i;
          if (counted != NULL && JSON_NODE_HOLDS_VALUE (counted) &&
              json_node_get_value_type (counted) == G_TYPE_INT64)
            count = CLAMP (json_node_get_int (counted), 0, G_MAXINT32 - 1) + 1;
          break;
        }
    }

  json_object_set_string_member (note, "kind", "patch-refused");
  json_object_set_string_member (note, "event", event_type);
  json_object_set_string_member (note, "reason", reason);
  json_object_set_int_member (note, "count", count);
  record_add_note (record, note, replace);
}

static void
steps_changed (AguiTranscript *self)
{
  self->steps_dirty = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEPS]);
}

void
_agui_transcript_start_step (AguiTranscript *self,
                             const char     *name)
{
  GList *link = g_list_alloc ();
  GQueue *same_name;

  link->data = g_strdup (name);
  g_queue_push_tail_link (&self->step_order, link);

  same_name = g_hash_table_lookup (self->steps_by_name, name);
  if (same_name == NULL)
    {
      same_name = g_queue_new ();
      g_hash_table_insert (self->steps_by_name, g_strdup (name), same_name);
    }
  g_queue_push_tail (same_name, link);

  steps_changed (self);
}

/* Closes the innermost open step called @name, if there is one. */
void
_agui_transcript_finish_step (AguiTranscript *self,
                              const char     *name)
{
  GQueue *same_name = g_hash_table_lookup (self->steps_by_name, name);
  GList *link;

  if (same_name == NULL)
    return;

  link = g_queue_pop_tail (same_name);
  if (g_queue_is_empty (same_name))
    g_hash_table_remove (self->steps_by_name, name);

  g_queue_unlink (&self->step_order, link);
  g_free (link->data);
  g_list_free_1 (link);

  steps_changed (self);
}

void
_agui_transcript_clear_steps (AguiTranscript *self)
{
  if (g_queue_is_empty (&self->step_order))
    return;

  g_queue_clear_full (&self->step_order, g_free);
  g_hash_table_remove_all (self->steps_by_name);
  steps_changed (self);
}

/* Subagents */

AguiSubagentRun *
_agui_transcript_lookup_subagent (AguiTranscript *self,
                                  const char     *id)
{
  guint position;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  if (id == NULL ||
      (position = GPOINTER_TO_UINT (g_hash_table_lookup (self->subagent_positions, id))) == 0)
    return NULL;

  return g_list_model_get_item (G_LIST_MODEL (self->subagents), position - 1);
}

void
_agui_transcript_add_subagent (AguiTranscript  *self,
                               AguiSubagentRun *run)
{
  guint n_items;

  g_return_if_fail (AGUI_IS_TRANSCRIPT (self));
  g_return_if_fail (AGUI_IS_SUBAGENT_RUN (run));

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->subagents));
  g_hash_table_replace (self->subagent_positions, g_strdup (agui_subagent_run_get_id (run)),
                        GUINT_TO_POINTER (n_items + 1));
  g_list_store_append (self->subagents, run);
}

void
_agui_transcript_replace_subagent (AguiTranscript  *self,
                                   AguiSubagentRun *run)
{
  guint position;

  g_return_if_fail (AGUI_IS_TRANSCRIPT (self));
  g_return_if_fail (AGUI_IS_SUBAGENT_RUN (run));

  position = GPOINTER_TO_UINT (g_hash_table_lookup (self->subagent_positions,
                                                    agui_subagent_run_get_id (run)));
  g_return_if_fail (position > 0);

  g_list_store_splice (self->subagents, position - 1, 1, (gpointer *) &run, 1);
}

void
_agui_transcript_clear_subagents (AguiTranscript *self)
{
  guint n_items;

  g_return_if_fail (AGUI_IS_TRANSCRIPT (self));

  if ((n_items = g_list_model_get_n_items (G_LIST_MODEL (self->subagents))) == 0)
    return;

  g_hash_table_remove_all (self->subagent_positions);
  g_list_store_splice (self->subagents, 0, n_items, NULL, 0);
}

/* Branches
 *
 * Regenerating an answer or editing a message does not overwrite what
 * was there: the conversation forks. Every branch is a whole linear
 * history; one is active, in the records, and the others are kept as
 * their stored projection. Two branches share the records up to where
 * they forked, so what a row may switch between is read off them: the
 * branches that agree with the active one before the row's first record,
 * grouped by the record they hold there. */

static guint
branch_length (AguiTranscript *self,
               Branch         *branch)
{
  return branch == self->active ? self->records->len : json_array_get_length (branch->messages);
}

static const char *
branch_id_at (AguiTranscript *self,
              Branch         *branch,
              guint           position)
{
  JsonNode *element;

  if (branch == self->active)
    return ((AguiRecord *) g_ptr_array_index (self->records, position))->id;

  element = json_array_get_element (branch->messages, position);
  return JSON_NODE_HOLDS_OBJECT (element) ? get_string (json_node_get_object (element), "id") : NULL;
}

static gboolean
branch_shares_prefix (AguiTranscript *self,
                      Branch         *branch,
                      guint           length)
{
  if (branch == self->active)
    return TRUE;

  if (branch_length (self, branch) < length)
    return FALSE;

  for (guint i = 0; i < length; i++)
    if (g_strcmp0 (branch_id_at (self, branch, i), branch_id_at (self, self->active, i)) != 0)
      return FALSE;

  return TRUE;
}

/* When the turn holding @position was first written on @branch: the turn
 * index of its snapshot, or "now" for a turn in flight. Orders the
 * alternatives as they were made, before and after a relaunch alike. */
static guint
branch_turn_at (Branch *branch,
                guint   position)
{
  for (guint i = 0; i < branch->marks->len; i++)
    {
      TurnMark *mark = &g_array_index (branch->marks, TurnMark, i);

      if (mark->n_records > position)
        return mark->turn_index;
    }

  return G_MAXUINT;
}

typedef struct
{
  const char *id;
  guint       turn;
  Branch     *latest;
} Alternative;

static int
compare_alternatives (gconstpointer a,
                      gconstpointer b)
{
  const Alternative *x = a, *y = b;

  return x->turn < y->turn ? -1 : x->turn > y->turn;
}

/* The alternatives at @position, in the order they were made; each
 * names the branch last chosen among those holding it. */
static GArray *
alternatives_at (AguiTranscript *self,
                 guint           position)
{
  GArray *alternatives = g_array_new (FALSE, TRUE, sizeof (Alternative));

  for (guint i = 0; i < self->branches->len; i++)
    {
      Branch *branch = g_ptr_array_index (self->branches, i);
      const char *id;
      guint turn, j;

      if (branch_length (self, branch) <= position || !branch_shares_prefix (self, branch, position))
        continue;

      id = branch_id_at (self, branch, position);
      turn = branch_turn_at (branch, position);
      for (j = 0; j < alternatives->len; j++)
        if (g_strcmp0 (g_array_index (alternatives, Alternative, j).id, id) == 0)
          break;

      if (j == alternatives->len)
        {
          Alternative alternative = { id, turn, branch };

          g_array_append_val (alternatives, alternative);
        }
      else
        {
          Alternative *alternative = &g_array_index (alternatives, Alternative, j);

          alternative->turn = MIN (alternative->turn, turn);
          if (branch == self->active ||
              (alternative->latest != self->active && branch->recency > alternative->latest->recency))
            alternative->latest = branch;
        }
    }

  g_array_sort (alternatives, compare_alternatives);

  return alternatives;
}

/* Each row the view builds asks for its message's position, so finding
 * it is a lookup and a scan of pointers, not a string comparison per
 * record of a 10,000-message conversation. */
static gboolean
find_record (AguiTranscript *self,
             const char     *message_id,
             guint          *position)
{
  AguiRecord *record;

  if (message_id == NULL || !(record = g_hash_table_lookup (self->records_by_id, message_id)))
    return FALSE;

  return g_ptr_array_find (self->records, record, position);
}

/* Drops the records from @keep on, and the rows they started. */
static void
truncate_records (AguiTranscript *self,
                  guint           keep)
{
  guint first_row = self->rows->len;
  guint n_rows = self->rows->len;

  if (keep >= self->records->len)
    return;

  for (guint i = keep; i < self->records->len && first_row == n_rows; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);

      if (record->row != NULL)
        for (guint r = 0; r < self->rows->len; r++)
          if (g_ptr_array_index (self->rows, r) == record->row)
            {
              first_row = r;
              break;
            }
    }

  g_ptr_array_set_size (self->records, keep);
  g_hash_table_remove_all (self->records_by_id);
  g_hash_table_remove_all (self->tool_calls_by_id);
  for (guint i = 0; i < self->records->len; i++)
    index_record (self, g_ptr_array_index (self->records, i));

  if (first_row < n_rows)
    {
      g_ptr_array_set_size (self->rows, first_row);
      g_list_model_items_changed (G_LIST_MODEL (self), first_row, n_rows - first_row, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

static void
append_messages (AguiTranscript *self,
                 JsonArray      *messages,
                 guint           from)
{
  guint n_rows = self->rows->len;

  for (guint i = from; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      AguiRecord *record = JSON_NODE_HOLDS_OBJECT (element)
                           ? _agui_record_new_from_message (json_node_get_object (element)) : NULL;

      /* The branch was written by this transcript; a record it cannot
       * read back would have been refused when the branch was made. */
      if (record == NULL)
        continue;

      g_ptr_array_add (self->records, record);
      index_record (self, record);
      link_tool_result (self, record);
      place_record (self->rows, record);
    }
  update_approvals (self, NULL);

  if (self->rows->len != n_rows)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), n_rows, 0, self->rows->len - n_rows);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

static void
store_active (AguiTranscript *self)
{
  g_clear_pointer (&self->active->messages, json_array_unref);
  g_clear_pointer (&self->active->state, json_node_unref);
  g_clear_pointer (&self->active->run_state, agui_run_state_unref);
  self->active->messages = agui_transcript_to_messages (self, TRUE);
  self->active->state = _agui_json_value_to_node (&self->state_doc);
  self->active->run_state = agui_run_state_ref (self->run_state);
}

static void times_from_marks (AguiTranscript *self,
                              guint           from);

static void
activate (AguiTranscript *self,
          Branch         *branch,
          guint           from)
{
  g_autoptr(JsonArray) messages = g_steal_pointer (&branch->messages);
  g_autoptr(JsonNode) state = g_steal_pointer (&branch->state);
  g_autoptr(AguiRunState) run_state = g_steal_pointer (&branch->run_state);

  store_active (self);
  self->active = branch;
  branch->recency = ++self->recency;

  truncate_records (self, from);
  append_messages (self, messages, from);
  if (state != NULL)
    _agui_transcript_take_state (self, g_steal_pointer (&state));
  if (run_state == NULL)
    run_state = agui_run_state_new_idle ();
  _agui_transcript_set_run_state (self, run_state);
  times_from_marks (self, from);
}

/**
 * agui_transcript_get_branch_position:
 * @self: a transcript
 * @message_id: the id of a row ([property@Agui.Message:id])
 * @index: (out) (optional): which alternative the row shows, from 0
 * @n_branches: (out) (optional): how many alternatives the row has
 *
 * Where a row stands among the alternatives of its turn: a regenerated
 * answer, or an edited message, is another alternative of the same turn.
 * A row that was never forked is alternative 0 of 1.
 *
 * Returns: %TRUE if the transcript holds the row
 */
gboolean
agui_transcript_get_branch_position (AguiTranscript *self,
                                     const char     *message_id,
                                     guint          *index,
                                     guint          *n_branches)
{
  g_autoptr(GArray) alternatives = NULL;
  guint position;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), FALSE);

  if (!find_record (self, message_id, &position))
    return FALSE;

  alternatives = alternatives_at (self, position);
  for (guint i = 0; i < alternatives->len; i++)
    if (g_strcmp0 (g_array_index (alternatives, Alternative, i).id, message_id) == 0 && index != NULL)
      *index = i;
  if (n_branches != NULL)
    *n_branches = alternatives->len;

  return TRUE;
}

/**
 * agui_transcript_get_message_time:
 * @self: a transcript
 * @message_id: the id of a row ([property@Agui.Message:id])
 *
 * When the row's first message arrived. For a thread reopened from a
 * store, and for a branch switched to, that is when its turn was saved.
 *
 * Returns: microseconds since the Unix epoch, or 0 when unknown
 */
gint64
agui_transcript_get_message_time (AguiTranscript *self,
                                  const char     *message_id)
{
  guint position;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), 0);

  if (!find_record (self, message_id, &position))
    return 0;

  return ((AguiRecord *) g_ptr_array_index (self->records, position))->time;
}

guint
_agui_transcript_get_n_records (AguiTranscript *self)
{
  return self->records->len;
}

AguiRecord *
_agui_transcript_get_record (AguiTranscript *self,
                             guint           index)
{
  g_return_val_if_fail (index < self->records->len, NULL);

  return g_ptr_array_index (self->records, index);
}

/* A replayed log arrives all at once: the restore says when the records
 * from @from to @to came, as the store knows it */
void
_agui_transcript_set_times (AguiTranscript *self,
                            guint           from,
                            guint           to,
                            gint64          time)
{
  for (guint i = from; i < MIN (to, self->records->len); i++)
    ((AguiRecord *) g_ptr_array_index (self->records, i))->time = time;
}

/**
 * agui_transcript_get_n_branches:
 * @self: a transcript
 *
 * Returns: how many ways the conversation went: 1 until an answer is
 *   regenerated or a message edited
 */
guint
agui_transcript_get_n_branches (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), 0);

  return self->branches->len;
}

/**
 * agui_transcript_dup_branch_messages:
 * @self: a transcript
 * @index: a branch, below [method@Agui.Transcript.get_n_branches]
 *
 * Returns: (transfer full): the branch's AG-UI messages, as they are kept
 */
JsonArray *
agui_transcript_dup_branch_messages (AguiTranscript *self,
                                     guint           index)
{
  Branch *branch;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) copy = NULL;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (index < self->branches->len, NULL);

  branch = g_ptr_array_index (self->branches, index);
  if (branch == self->active)
    return agui_transcript_to_messages (self, TRUE);

  node = json_node_init_array (json_node_alloc (), branch->messages);
  copy = _agui_json_node_copy_deep (node);
  return json_array_ref (json_node_get_array (copy));
}

void
_agui_transcript_mark_turn (AguiTranscript *self,
                            const char     *snapshot_id,
                            const char     *run_id,
                            guint           turn_index)
{
  branch_add_mark (self->active, snapshot_id, run_id, turn_index, self->records->len, g_get_real_time ());
}

gboolean
_agui_transcript_fork (AguiTranscript  *self,
                       const char      *message_id,
                       gboolean         replace,
                       char           **parent_snapshot_id,
                       char           **parent_run_id,
                       GError         **error)
{
  Branch *branch;
  AguiRecord *record;
  guint position, user, keep;

  if (!find_record (self, message_id, &position))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "The thread has no message '%s'", message_id ? message_id : "(null)");
      return FALSE;
    }

  /* The branch starts at the person's message: an edit replaces it, a
   * regenerated answer keeps it and drops what answered it. */
  for (user = position + 1; user > 0; user--)
    {
      record = g_ptr_array_index (self->records, user - 1);
      if (record->role == AGUI_ROLE_USER)
        break;
    }
  if (user == 0 || (replace && user - 1 != position))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   replace ? "Only a message of the person's can be edited ('%s' is not one)"
                           : "There is no message of the person's before '%s' to answer again",
                   message_id);
      return FALSE;
    }
  user--;
  keep = replace ? user : user + 1;

  store_active (self);
  branch = branch_new ();
  for (guint i = 0; i < self->active->marks->len; i++)
    {
      TurnMark *mark = &g_array_index (self->active->marks, TurnMark, i);

      if (mark->n_records > user)
        break;
      branch_add_mark (branch, mark->snapshot_id, mark->run_id, mark->turn_index, mark->n_records, mark->time);
    }

  if (branch->marks->len > 0)
    {
      TurnMark *parent = &g_array_index (branch->marks, TurnMark, branch->marks->len - 1);

      *parent_snapshot_id = g_strdup (parent->snapshot_id);
      *parent_run_id = g_strdup (parent->run_id);
    }
  else
    {
      *parent_snapshot_id = NULL;
      *parent_run_id = NULL;
    }

  g_ptr_array_add (self->branches, branch);
  self->active = branch;
  branch->recency = ++self->recency;
  truncate_records (self, keep);

  return TRUE;
}

/* Returns the snapshot the chosen branch ends on (empty without a
 * store, NULL if it has none) in @leaf_snapshot_id. */
gboolean
_agui_transcript_choose_branch (AguiTranscript  *self,
                                const char      *message_id,
                                guint            index,
                                char           **leaf_snapshot_id,
                                GError         **error)
{
  g_autoptr(GArray) alternatives = NULL;
  Branch *branch;
  guint position;

  if (!find_record (self, message_id, &position))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "The thread has no message '%s'", message_id ? message_id : "(null)");
      return FALSE;
    }

  alternatives = alternatives_at (self, position);
  if (index >= alternatives->len)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "The message '%s' has %u alternative(s), not %u", message_id, alternatives->len, index + 1);
      return FALSE;
    }

  branch = g_array_index (alternatives, Alternative, index).latest;
  if (branch != self->active)
    activate (self, branch, position);

  *leaf_snapshot_id = branch->marks->len > 0
                      ? g_strdup (g_array_index (branch->marks, TurnMark, branch->marks->len - 1).snapshot_id)
                      : NULL;

  return TRUE;
}

/* A replayed log arrives all at once: a restored record's time is when
 * its turn was written. */
static void
times_from_marks (AguiTranscript *self,
                  guint           from)
{
  guint m = 0;

  for (guint i = from; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);

      while (m < self->active->marks->len && g_array_index (self->active->marks, TurnMark, m).n_records <= i)
        m++;
      record->time = m < self->active->marks->len ? g_array_index (self->active->marks, TurnMark, m).time : 0;
    }
}

static GArray *
chain_marks (GHashTable *by_id,
             JsonObject *leaf)
{
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  GArray *marks = marks_new ();

  /* Walks up the parents; a loop (a damaged store) stops at the first
   * snapshot seen twice. */
  for (JsonObject *snapshot = leaf; snapshot != NULL && chain->len <= g_hash_table_size (by_id);
       snapshot = g_hash_table_lookup (by_id, get_string (snapshot, "parentId") ?: ""))
    g_ptr_array_insert (chain, 0, snapshot);

  for (guint i = 0; i < chain->len; i++)
    {
      JsonObject *snapshot = g_ptr_array_index (chain, i);
      TurnMark mark = {
        g_strdup (get_string (snapshot, "id")),
        g_strdup (get_string (snapshot, "runId")),
        (guint) json_object_get_int_member_with_default (snapshot, "turnIndex", 0),
        json_array_get_length (json_object_get_array_member (snapshot, "messages")),
        json_object_get_int_member_with_default (snapshot, "createdAt", 0),
      };

      g_array_append_val (marks, mark);
    }

  return marks;
}

/* How a stored branch's last turn ended, as far as its snapshot says */
static AguiRunState *
leaf_run_state (JsonObject *leaf)
{
  const char *reason = get_string (leaf, "finishReason");
  AguiStage stage = AGUI_STAGE_AGENT;

  if (g_strcmp0 (get_string (leaf, "status"), "FAILED") != 0)
    return NULL;

  for (AguiStage s = AGUI_STAGE_CLIENT; s <= AGUI_STAGE_AGENT; s++)
    if (g_strcmp0 (agui_stage_to_string (s), reason) == 0)
      stage = s;

  return agui_run_state_new_failed (get_string (leaf, "threadId") ?: "", get_string (leaf, "runId") ?: "",
                                    get_string (leaf, "error") ?: "", NULL, stage);
}

/* Rebuilds the branches from a thread's stored snapshots (objects as
 * agui_session_store_get_last_snapshot() gives, with `runId`, in turn
 * order): each snapshot nothing chains to ends a branch. The transcript
 * already holds the thread as its log replays; with more than one
 * branch, the chosen one replaces what is after the first fork. */
void
_agui_transcript_restore_branches (AguiTranscript *self,
                                   JsonArray      *snapshots,
                                   const char     *chosen_id)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) parents = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) leaves = g_ptr_array_new ();
  Branch *chosen = NULL;
  JsonObject *chosen_leaf = NULL;
  Branch *replayed;

  for (guint i = 0; i < json_array_get_length (snapshots); i++)
    {
      JsonObject *snapshot = json_array_get_object_element (snapshots, i);

      if (get_string (snapshot, "id") == NULL ||
          !JSON_NODE_HOLDS_ARRAY (json_object_get_member (snapshot, "messages")))
        continue;
      g_hash_table_insert (by_id, (gpointer) get_string (snapshot, "id"), snapshot);
      if (get_string (snapshot, "parentId") != NULL)
        g_hash_table_add (parents, (gpointer) get_string (snapshot, "parentId"));
    }

  for (guint i = 0; i < json_array_get_length (snapshots); i++)
    {
      JsonObject *snapshot = json_array_get_object_element (snapshots, i);
      const char *id = get_string (snapshot, "id");

      if (id != NULL && g_hash_table_lookup (by_id, id) == snapshot && !g_hash_table_contains (parents, id))
        g_ptr_array_add (leaves, snapshot);
    }

  if (leaves->len == 0)
    return;

  if (leaves->len == 1)
    {
      g_array_unref (self->active->marks);
      self->active->marks = chain_marks (by_id, g_ptr_array_index (leaves, 0));
      times_from_marks (self, 0);
      return;
    }

  replayed = self->active;
  for (guint i = 0; i < leaves->len; i++)
    {
      JsonObject *leaf = g_ptr_array_index (leaves, i);
      Branch *branch = branch_new ();

      g_array_unref (branch->marks);
      branch->marks = chain_marks (by_id, leaf);
      branch->messages = json_array_ref (json_object_get_array_member (leaf, "messages"));
      branch->run_state = leaf_run_state (leaf);
      if (json_object_has_member (leaf, "state"))
        branch->state = _agui_json_node_copy_deep (json_object_get_member (leaf, "state"));
      branch->recency = ++self->recency;
      g_ptr_array_add (self->branches, branch);
      if (g_strcmp0 (get_string (leaf, "id"), chosen_id) == 0 || (chosen == NULL && i == leaves->len - 1))
        {
          chosen = branch;
          chosen_leaf = leaf;
        }
    }

  /* The replayed log runs the branches one after the other, which is
   * none of them: the chosen branch's own snapshot says what it holds,
   * and a failure the log ended on may be another branch's. */
  if (agui_run_state_get_status (self->run_state) == AGUI_RUN_FAILED &&
      g_strcmp0 (get_string (chosen_leaf, "status"), "COMPLETED") == 0)
    {
      g_autoptr(AguiRunState) idle = agui_run_state_new_idle ();

      _agui_transcript_set_run_state (self, idle);
    }
  self->active = chosen;
  chosen->recency = ++self->recency;
  g_ptr_array_remove (self->branches, replayed);
  {
    g_autoptr(JsonArray) messages = g_steal_pointer (&chosen->messages);
    g_autoptr(JsonNode) state = g_steal_pointer (&chosen->state);

    truncate_records (self, 0);
    append_messages (self, messages, 0);
    if (state != NULL)
      _agui_transcript_take_state (self, g_steal_pointer (&state));
  }
  times_from_marks (self, 0);
}
