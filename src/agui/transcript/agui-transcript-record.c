/* agui-transcript-record.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-activity-part-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-media-part-private.h"
#include "agui-part-private.h"
#include "agui-pool-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-util-private.h"

/* Records */

/* A long run keeps two per tool call: a word more is a word more each */
G_STATIC_ASSERT (G_STRUCT_OFFSET (AguiRecord, parts) + sizeof (gpointer) <= 48);
G_STATIC_ASSERT (sizeof (AguiRecord) <= 56);

AguiRecord *
_agui_record_new (const char *id,
                  AguiRole    role)
{
  /* from the pool: there is one or two of these per tool call, and
   * malloc's header would round each up by a further 16 bytes, the
   * slice allocator's pages by 9 */
  AguiRecord *record = _agui_pool_alloc0 (_agui_record_size (role));

  record->id = _agui_id_new (id);
  record->role = role;

  return record;
}

static void
record_extra_free (AguiRecordExtra *extra)
{
  g_free (extra->name);
  g_free (extra->subagent_run_id);
  g_free (extra->encrypted_value);
  g_clear_pointer (&extra->metadata, _agui_json_doc_value_free);
  g_free (extra->error);
  g_clear_pointer (&extra->notes, _agui_json_doc_value_free);
  _agui_json_value_clear (&extra->content);
  g_free (extra);
}

AguiRecordExtra *
_agui_record_extra (AguiRecord *record)
{
  if (record->extra == NULL)
    record->extra = g_new0 (AguiRecordExtra, 1);

  return record->extra;
}

void
_agui_record_set_extra_string (AguiRecord *record,
                               gsize       offset,
                               const char *value)
{
  char **field;

  if (record->extra == NULL && value == NULL)
    return;

  field = G_STRUCT_MEMBER_P (_agui_record_extra (record), offset);
  if (*field != value)
    {
      g_free (*field);
      *field = g_strdup (value);
    }
}

/* Takes back the text the tool message lent its call, if it did: the
 * call keeps a copy of its own (see _agui_record_lend_result ()), and
 * the record its call's id again */
static void
take_back_result (AguiRecord *record)
{
  AguiToolCallPart *call;

  if (!record->parts_lent)
    return;

  call = record->held.lent;
  _agui_tool_call_part_take_back_result (call, _agui_json_value_get_string (&record->parts.tool_content));
  record->held.tool_call_id = _agui_id_new (agui_tool_call_part_get_tool_call_id (call));
  record->parts_lent = FALSE;
  g_object_unref (call);
}

void
_agui_record_free (AguiRecord *record)
{
  if (record == NULL)
    return;

  g_clear_pointer (&record->id, _agui_id_release);
  g_clear_pointer (&record->extra, record_extra_free);
  if (record->role == AGUI_ROLE_TOOL)
    {
      take_back_result (record);
      _agui_json_value_clear (&record->parts.tool_content);
      g_clear_pointer (&record->held.tool_call_id, _agui_id_release);
    }
  while (_agui_record_get_n_parts (record) > 0)
    _agui_record_remove_last_part (record);
  _agui_pool_free (_agui_record_size (record->role), record);
}

static AguiRecordParts *
record_parts_new (guint room)
{
  return g_malloc (sizeof (AguiRecordParts) + room * sizeof (AguiPart *));
}

void
_agui_record_add_part (AguiRecord *record,
                       gpointer    part)
{
  guint n;

  /* A tool message has none (it is drawn on its call), and keeps its
   * content where they would be: the schema lets no text start as one */
  if (record->role == AGUI_ROLE_TOOL)
    {
      g_critical ("A tool message has no parts");
      g_object_unref (part);
      return;
    }

  n = _agui_record_get_n_parts (record);

  if (n == 0)
    {
      record->parts.one = part;
      return;
    }

  if (n == 1)
    {
      AguiRecordParts *many = record_parts_new (2);

      many->items[0] = record->parts.one;
      record->parts.many = many;
      record->parts_many = TRUE;
    }
  else if ((n & (n - 1)) == 0)
    {
      /* full: the list has room for the next power of two of its count */
      record->parts.many = g_realloc (record->parts.many,
                                      sizeof (AguiRecordParts) + (gsize) n * 2 * sizeof (AguiPart *));
    }

  record->parts.many->items[n] = part;
  record->parts.many->n = n + 1;
}

void
_agui_record_remove_last_part (AguiRecord *record)
{
  guint n = _agui_record_get_n_parts (record);

  g_return_if_fail (n > 0);

  if (n == 1)
    {
      g_clear_object (&record->parts.one);
    }
  else if (n == 2)
    {
      AguiRecordParts *many = record->parts.many;

      g_object_unref (many->items[1]);
      record->parts.one = many->items[0];
      record->parts_many = FALSE;
      g_free (many);
    }
  else
    {
      g_object_unref (record->parts.many->items[n - 1]);
      record->parts.many->n = n - 1;
    }
}

/* Where the record keeps its content (see tool_content), for a value to
 * be put there: a record other than a tool message's gets an extra */
static AguiJsonValue *
content_slot (AguiRecord *record)
{
  take_back_result (record);

  return record->role == AGUI_ROLE_TOOL ? &record->parts.tool_content : &_agui_record_extra (record)->content;
}

AguiJsonValue *
_agui_record_edit_content (AguiRecord *record)
{
  return content_slot (record);
}

void
_agui_record_lend_result (AguiRecord       *record,
                          AguiToolCallPart *call)
{
  const AguiJsonValue *content = _agui_record_get_content (record);

  g_return_if_fail (record->role == AGUI_ROLE_TOOL && content != NULL && _agui_json_value_is_string (content));

  /* The call is held in place of its id, which is the same */
  if (!record->parts_lent || record->held.lent != call)
    {
      take_back_result (record);
      g_clear_pointer (&record->held.tool_call_id, _agui_id_release);
      record->held.lent = g_object_ref (call);
      record->parts_lent = TRUE;
    }
  _agui_tool_call_part_lend_result (call, _agui_json_value_get_string (content), RECORD_GET (record, error));
}

void
_agui_record_take_content (AguiRecord    *record,
                           AguiJsonValue *content)
{
  if (content != NULL)
    _agui_json_value_move (content_slot (record), content);
  else if (record->has_content_value)
    _agui_json_value_clear (content_slot (record));
  record->has_content_value = content != NULL;
}

static void
set_content_string (AguiRecord *record,
                    const char *string)
{
  record->has_content_value = TRUE;
  _agui_json_value_set_string (content_slot (record), string, strlen (string));
}

void
_agui_record_merge_metadata (AguiRecord    *record,
                             AguiJsonValue *metadata)
{
  if (metadata == NULL)
    return;

  _agui_json_doc_merge_object (&_agui_record_extra (record)->metadata, metadata);
}

/* Moves the member LOCAL_STATE_KEY out of the metadata *@metadata into
 * @state (null before), returning whether it held an object; with
 * @drop_empty, metadata that held only that member goes (*@metadata
 * left NULL). */
static gboolean
take_local_state_member (AguiJsonValue **metadata,
                         gboolean        drop_empty,
                         AguiJsonValue  *state)
{
  AguiJsonDocObject *object;
  int slot;

  if (*metadata == NULL)
    return FALSE;

  object = (*metadata)->u.object;
  slot = _agui_json_object_find (object, LOCAL_STATE_KEY);
  if (slot < 0)
    return FALSE;

  _agui_json_object_remove_slot (object, slot, state);
  _agui_json_object_compact (object);
  if (drop_empty && _agui_json_object_get_size (object) == 0)
    g_clear_pointer (metadata, _agui_json_doc_value_free);

  return state->kind == AGUI_JSON_DOC_OBJECT;
}

const char *
_agui_record_get_id (AguiRecord *record)
{
  return record->id;
}

AguiRole
_agui_record_get_role (AguiRecord *record)
{
  return record->role;
}

AguiPart *
_agui_record_get_last_part (AguiRecord *record,
                            GType       type)
{
  for (guint i = _agui_record_get_n_parts (record); i > 0; i--)
    {
      AguiPart *part = _agui_record_part (record, i - 1);

      if (G_TYPE_CHECK_INSTANCE_TYPE (part, type))
        return part;
    }

  return NULL;
}

static void
add_content_parts (AguiRecord          *record,
                   const AguiJsonValue *content)
{
  for (guint i = 0; i < _agui_json_doc_get_length (content); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (content, i);
      AguiPart *part;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      if (g_strcmp0 (_agui_json_doc_get_string (element, "type"), "text") == 0)
        part = AGUI_PART (_agui_text_part_new (record->id, _agui_json_doc_get_string (element, "text")));
      else
        part = AGUI_PART (_agui_media_part_new (record->id, element));

      _agui_part_set_complete (part, TRUE);
      _agui_record_add_part (record, part);
    }
}

static void
take_local_state (AguiToolCallPart *part)
{
  AguiJsonValue *metadata = _agui_tool_call_part_get_metadata (part);
  g_auto(AguiJsonValue) state = AGUI_JSON_VALUE_INIT;

  if (take_local_state_member (&metadata, FALSE, &state))
    _agui_tool_call_part_restore_local_state (part, &state);
}

static AguiRecord *record_new (const AguiJsonValue *message,
                               gboolean             take);

AguiRecord *
_agui_record_new_from_message (JsonObject *message)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), message);

  /* A caller's json-glib message, read once into the tree */
  _agui_json_value_set_node (&value, node);

  return record_new (&value, TRUE);
}

AguiRecord *
_agui_record_new_from_value (const AguiJsonValue *message)
{
  return record_new (message, FALSE);
}

/* Copies @value into @target (null before), or with @take moves it, for
 * a message made only to be read once */
static inline void
take_or_copy (AguiJsonValue       *target,
              const AguiJsonValue *value,
              gboolean             take)
{
  if (take)
    _agui_json_value_move (target, (AguiJsonValue *) value);
  else
    _agui_json_value_copy (target, value);
}

static AguiRecord *
record_new (const AguiJsonValue *message,
            gboolean             take)
{
  AguiRecord *record;
  const char *role_name;
  AguiRole role;
  const AguiJsonValue *content;
  const AguiJsonValue *metadata;

  role_name = _agui_json_doc_get_string (message, "role");
  if (role_name == NULL || !agui_role_from_string (role_name, &role))
    return NULL;

  record = _agui_record_new (_agui_json_doc_get_string (message, "id"), role);
  RECORD_SET_STRING (record, name, _agui_json_doc_get_string (message, "name"));
  RECORD_SET_STRING (record, subagent_run_id, _agui_json_doc_get_string (message, "subagentRunId"));
  RECORD_SET_STRING (record, encrypted_value, _agui_json_doc_get_string (message, "encryptedValue"));
  if ((metadata = _agui_json_doc_get_object (message, "metadata")))
    {
      _agui_record_extra (record)->metadata = g_new0 (AguiJsonValue, 1);
      take_or_copy (record->extra->metadata, metadata, take);
    }

  content = _agui_json_doc_get_member (message, "content");

  switch (role)
    {
    case AGUI_ROLE_USER:
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
    case AGUI_ROLE_ASSISTANT:
      if (content != NULL && content->kind == AGUI_JSON_DOC_ARRAY)
        {
          record->has_content = TRUE;
          record->has_content_value = TRUE;
          take_or_copy (content_slot (record), content, take);
          add_content_parts (record, _agui_record_get_content (record));
        }
      else if (content != NULL && _agui_json_value_is_string (content))
        {
          AguiTextPart *part = _agui_text_part_new (record->id, _agui_json_value_get_string (content));

          record->has_content = TRUE;
          _agui_part_set_complete (AGUI_PART (part), TRUE);
          _agui_record_add_part (record, part);
        }

      if (role == AGUI_ROLE_ASSISTANT)
        {
          const AguiJsonValue *calls = _agui_json_doc_get_array (message, "toolCalls");

          for (guint i = 0; i < _agui_json_doc_get_length (calls); i++)
            {
              const AguiJsonValue *call = _agui_json_doc_get_element (calls, i);
              const AguiJsonValue *function, *call_metadata;
              AguiToolCallPart *part;

              if (call->kind != AGUI_JSON_DOC_OBJECT)
                continue;

              function = _agui_json_doc_get_object (call, "function");
              part = _agui_tool_call_part_new (record->id, _agui_json_doc_get_string (call, "id"),
                                               _agui_json_doc_get_string (function, "name"));
              if (function != NULL)
                _agui_tool_call_part_set_arguments (part, _agui_json_doc_get_string (function, "arguments"));
              _agui_tool_call_part_set_encrypted_value (part, _agui_json_doc_get_string (call, "encryptedValue"));
              if ((call_metadata = _agui_json_doc_get_object (call, "metadata")))
                {
                  g_auto(AguiJsonValue) copy = AGUI_JSON_VALUE_INIT;

                  take_or_copy (&copy, call_metadata, take);
                  _agui_tool_call_part_merge_metadata (part, &copy);
                }
              _agui_tool_call_part_finish_arguments (part);
              take_local_state (part);
              _agui_record_add_part (record, part);
            }
        }
      break;

    case AGUI_ROLE_TOOL:
      record->held.tool_call_id = _agui_id_new (_agui_json_doc_get_string (message, "toolCallId"));
      RECORD_SET_STRING (record, error, _agui_json_doc_get_string (message, "error"));
      if (content != NULL)
        {
          record->has_content_value = TRUE;
          take_or_copy (content_slot (record), content, take);
        }
      else
        {
          set_content_string (record, "");
        }
      record->has_content = TRUE;
      break;

    case AGUI_ROLE_REASONING:
      {
        AguiReasoningPart *part;

        part = _agui_reasoning_part_new (record->id,
                                         content && _agui_json_value_is_string (content)
                                           ? _agui_json_value_get_string (content) : NULL);
        _agui_reasoning_part_set_encrypted_value (part, RECORD_GET (record, encrypted_value));
        _agui_part_set_complete (AGUI_PART (part), TRUE);
        _agui_record_add_part (record, part);
        record->has_content = TRUE;
      }
      break;

    case AGUI_ROLE_ACTIVITY:
      {
        AguiActivityPart *part = _agui_activity_part_new (record->id);
        AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

        _agui_activity_part_set_activity_type (part, _agui_json_doc_get_string (message, "activityType"));
        if (content != NULL)
          take_or_copy (&copy, content, take);
        else
          _agui_json_value_set_object (&copy, 0);
        _agui_activity_part_take_content (part, &copy);
        _agui_part_set_complete (AGUI_PART (part), TRUE);
        _agui_record_add_part (record, part);
        /* Activities carry neither a name nor an encrypted value. */
        if (record->extra != NULL)
          g_clear_pointer (&record->extra->encrypted_value, g_free);
        if (record->extra != NULL)
          g_clear_pointer (&record->extra->name, g_free);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  if (RECORD_GET (record, metadata) != NULL)
    {
      g_auto(AguiJsonValue) state = AGUI_JSON_VALUE_INIT;

      if (take_local_state_member (&record->extra->metadata, TRUE, &state))
        _agui_record_restore_state (record, &state);
    }

  return record;
}

static char *
record_dup_text (AguiRecord *record)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    {
      AguiPart *part = _agui_record_part (record, i);

      if (AGUI_IS_TEXT_PART (part))
        g_string_append_len (text,
                             _agui_text_part_get_buffer (AGUI_TEXT_PART (part))->str,
                             _agui_text_part_get_buffer (AGUI_TEXT_PART (part))->len);
      else if (AGUI_IS_REASONING_PART (part))
        g_string_append (text, agui_reasoning_part_get_text (AGUI_REASONING_PART (part)));
    }

  return g_string_free (text, FALSE);
}

void
_agui_record_set_attempt (AguiRecord  *record,
                          AguiAttempt  attempt,
                          gboolean     attempt_end)
{
  record->attempt = attempt;
  record->attempt_end = attempt != AGUI_ATTEMPT_NONE && attempt_end;

  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    _agui_part_set_attempt (_agui_record_part (record, i), attempt,
                            record->attempt_end && i == _agui_record_get_n_parts (record) - 1);
}

/* Notes show after the record's last part */
void
_agui_record_sync_notes (AguiRecord *record)
{
  if (_agui_record_get_n_parts (record) > 0)
    _agui_part_set_notes (_agui_record_part (record, _agui_record_get_n_parts (record) - 1), RECORD_GET (record, notes));
}

static gboolean
is_note (const AguiJsonValue *value)
{
  return _agui_json_doc_get_string (value, "kind") != NULL;
}

void
_agui_record_restore_state (AguiRecord          *record,
                            const AguiJsonValue *state)
{
  const char *attempt = _agui_json_doc_get_string (state, "attempt");
  const AguiJsonValue *end = _agui_json_doc_get_member (state, "attemptEnd");
  const AguiJsonValue *notes = _agui_json_doc_get_array (state, "notes");

  /* A hand-edited or damaged note is left out, never shown half */
  if (notes != NULL)
    {
      if (record->extra != NULL)
        g_clear_pointer (&record->extra->notes, _agui_json_doc_value_free);
      for (guint i = 0; i < _agui_json_doc_get_length (notes); i++)
        {
          const AguiJsonValue *note = _agui_json_doc_get_element (notes, i);
          AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

          if (!is_note (note))
            continue;
          if (RECORD_GET (record, notes) == NULL)
            {
              _agui_record_extra (record)->notes = g_new0 (AguiJsonValue, 1);
              _agui_json_value_set_array (record->extra->notes, 0);
            }
          _agui_json_value_copy (&copy, note);
          _agui_json_array_insert (RECORD_GET (record, notes)->u.array,
                                   _agui_json_array_get_length (RECORD_GET (record, notes)->u.array),
                                   &copy);
        }
      _agui_record_sync_notes (record);
    }

  _agui_record_set_attempt (record,
                            g_strcmp0 (attempt, "failed") == 0 ? AGUI_ATTEMPT_FAILED
                            : g_strcmp0 (attempt, "stopped") == 0 ? AGUI_ATTEMPT_STOPPED
                            : AGUI_ATTEMPT_NONE,
                            end != NULL && end->kind == AGUI_JSON_DOC_BOOLEAN && end->u.boolean);
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
 * The transcript keeps all of it, marked, for the person to see. FALSE,
 * and @message left null, when nothing of @record goes to the agent. */
static gboolean
attempt_to_message (AguiRecord    *record,
                    AguiJsonValue *message)
{
  AguiJsonDocObject *object;
  g_auto(AguiJsonValue) content = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) calls = AGUI_JSON_VALUE_INIT;
  AguiJsonValue kept = AGUI_JSON_VALUE_INIT;
  gboolean has_content;

  if (record->role == AGUI_ROLE_REASONING && record->attempt == AGUI_ATTEMPT_FAILED)
    return FALSE;

  _agui_record_to_message_value (record, FALSE, message);
  if (record->role != AGUI_ROLE_ASSISTANT)
    return TRUE;

  object = message->u.object;
  if (record->attempt == AGUI_ATTEMPT_FAILED)
    _agui_json_members_take (object, "content", &content);
  has_content = _agui_json_object_find (object, "content") >= 0;

  /* Out and back in at the end, where json-glib's remove and set left it */
  if (_agui_json_members_take (object, "toolCalls", &calls) && calls.kind == AGUI_JSON_DOC_ARRAY)
    {
      AguiJsonDocArray *array = calls.u.array;

      for (guint i = 0; i < _agui_json_array_get_length (array); i++)
        {
          AguiJsonValue *call = _agui_json_array_get (array, i);
          const char *id = _agui_json_doc_get_string (call, "id");
          AguiToolCallPart *part = NULL;
          AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

          for (guint j = 0; j < _agui_record_get_n_parts (record); j++)
            if (AGUI_IS_TOOL_CALL_PART (_agui_record_part (record, j)) &&
                g_strcmp0 (agui_tool_call_part_get_tool_call_id (_agui_record_part (record, j)), id) == 0)
              part = _agui_record_part (record, j);

          if (part == NULL || !_agui_tool_call_part_get_has_result (part))
            continue;

          if (kept.kind != AGUI_JSON_DOC_ARRAY)
            _agui_json_value_set_array (&kept, _agui_json_array_get_length (array));
          _agui_json_value_move (&copy, call);
          _agui_json_array_insert (kept.u.array, _agui_json_array_get_length (kept.u.array), &copy);
        }
    }

  if (kept.kind == AGUI_JSON_DOC_ARRAY)
    _agui_json_object_append (object, "toolCalls", &kept);
  else if (!has_content)
    {
      _agui_json_value_clear (message);
      return FALSE;
    }

  return TRUE;
}

/* A string member, or null for a NULL @string, as
 * json_object_set_string_member () sets it */
static void
set_string_or_null (AguiJsonDocObject *object,
                    const char        *name,
                    const char        *string)
{
  if (string != NULL)
    _agui_json_doc_set_string (object, name, string);
  else
    _agui_json_doc_set_null (object, name);
}

static void
set_text_member (AguiJsonDocObject *object,
                 AguiRecord        *record)
{
  g_autofree char *text = record_dup_text (record);

  _agui_json_doc_set_string (object, "content", text);
}

/* A copy of @metadata (NULL: none) with @state set under LOCAL_STATE_KEY,
 * taking @state, as the member of @object */
static void
set_metadata_with_state (AguiJsonDocObject   *object,
                         const AguiJsonValue *metadata,
                         AguiJsonValue       *state)
{
  AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

  if (metadata != NULL)
    _agui_json_value_copy (&copy, metadata);
  else
    _agui_json_value_set_object (&copy, 1);
  _agui_json_object_set (copy.u.object, LOCAL_STATE_KEY, state);
  _agui_json_object_set (object, "metadata", &copy);
}

static void
set_tool_calls (AguiJsonDocObject *message,
                AguiRecord        *record,
                gboolean           local)
{
  AguiJsonDocArray *calls = NULL;

  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    {
      AguiPart *part = _agui_record_part (record, i);
      g_auto(AguiJsonValue) state = AGUI_JSON_VALUE_INIT;
      AguiToolCallPart *call;
      AguiJsonDocObject *object, *function;
      const AguiJsonValue *metadata;

      if (!AGUI_IS_TOOL_CALL_PART (part))
        continue;

      call = AGUI_TOOL_CALL_PART (part);
      if (calls == NULL)
        calls = _agui_json_doc_set_array (message, "toolCalls");

      object = _agui_json_doc_add_object (calls);
      set_string_or_null (object, "id", agui_tool_call_part_get_tool_call_id (call));
      _agui_json_doc_set_string (object, "type", "function");
      function = _agui_json_doc_set_object (object, "function");
      _agui_json_doc_set_string (function, "name",
                                 agui_tool_call_part_get_tool_name (call)
                                   ? agui_tool_call_part_get_tool_name (call) : "");
      set_string_or_null (function, "arguments", agui_tool_call_part_get_arguments (call));
      if (_agui_tool_call_part_get_encrypted_value (call))
        _agui_json_doc_set_string (object, "encryptedValue", _agui_tool_call_part_get_encrypted_value (call));

      metadata = _agui_tool_call_part_get_metadata (call);
      if (local && _agui_tool_call_part_get_local_state (call, &state))
        set_metadata_with_state (object, metadata, &state);
      else if (metadata != NULL)
        _agui_json_doc_set_copy (object, "metadata", metadata);
    }
}

void
_agui_record_to_message_value (AguiRecord    *record,
                               gboolean       local,
                               AguiJsonValue *out)
{
  AguiJsonDocObject *message = _agui_json_value_set_object (out, 8);

  set_string_or_null (message, "id", record->id);
  _agui_json_doc_set_string (message, "role", agui_role_to_string (record->role));

  switch (record->role)
    {
    case AGUI_ROLE_USER:
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
    case AGUI_ROLE_ASSISTANT:
      if (record->has_content_value)
        _agui_json_doc_set_copy (message, "content", _agui_record_get_content (record));
      else if (record->has_content || record->role != AGUI_ROLE_ASSISTANT)
        set_text_member (message, record);
      if (record->role == AGUI_ROLE_ASSISTANT)
        set_tool_calls (message, record, local);
      break;

    case AGUI_ROLE_TOOL:
      _agui_json_doc_set_string (message, "toolCallId", _agui_record_get_tool_call_id (record) ? _agui_record_get_tool_call_id (record) : "");
      if (record->has_content_value)
        _agui_json_doc_set_copy (message, "content", _agui_record_get_content (record));
      else
        _agui_json_doc_set_string (message, "content", "");
      if (RECORD_GET (record, error))
        _agui_json_doc_set_string (message, "error", RECORD_GET (record, error));
      break;

    case AGUI_ROLE_REASONING:
      set_text_member (message, record);
      break;

    case AGUI_ROLE_ACTIVITY:
      {
        AguiActivityPart *part = NULL;
        const AguiJsonValue *content;

        for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
          if (AGUI_IS_ACTIVITY_PART (_agui_record_part (record, i)))
            part = _agui_record_part (record, i);

        _agui_json_doc_set_string (message, "activityType",
                                   part && agui_activity_part_get_activity_type (part)
                                     ? agui_activity_part_get_activity_type (part) : "");
        content = part ? _agui_activity_part_peek_content (part) : NULL;
        if (content != NULL)
          _agui_json_doc_set_copy (message, "content", content);
        else
          _agui_json_doc_set_object (message, "content");
      }
      break;

    default:
      g_assert_not_reached ();
    }

  if (RECORD_GET (record, name) && record->role != AGUI_ROLE_ACTIVITY && record->role != AGUI_ROLE_REASONING &&
      record->role != AGUI_ROLE_TOOL)
    _agui_json_doc_set_string (message, "name", RECORD_GET (record, name));
  if (RECORD_GET (record, subagent_run_id))
    _agui_json_doc_set_string (message, "subagentRunId", RECORD_GET (record, subagent_run_id));
  if (local && (record->attempt != AGUI_ATTEMPT_NONE || RECORD_GET (record, notes) != NULL))
    {
      AguiJsonValue state = AGUI_JSON_VALUE_INIT;
      AguiJsonDocObject *members = _agui_json_value_set_object (&state, 3);

      if (record->attempt != AGUI_ATTEMPT_NONE)
        _agui_json_doc_set_string (members, "attempt",
                                   record->attempt == AGUI_ATTEMPT_FAILED ? "failed" : "stopped");
      if (record->attempt_end)
        _agui_json_doc_set_boolean (members, "attemptEnd", TRUE);
      if (RECORD_GET (record, notes) != NULL)
        _agui_json_doc_set_copy (members, "notes", RECORD_GET (record, notes));
      set_metadata_with_state (message, RECORD_GET (record, metadata), &state);
    }
  else if (RECORD_GET (record, metadata))
    _agui_json_doc_set_copy (message, "metadata", RECORD_GET (record, metadata));
  if (RECORD_GET (record, encrypted_value) && record->role != AGUI_ROLE_ACTIVITY)
    _agui_json_doc_set_string (message, "encryptedValue", RECORD_GET (record, encrypted_value));
}

/* Printing a record's message straight from the record, for a caller
 * that streams a long transcript: building each message's JsonObject to
 * print it once was most of the cost of writing one out. Only the shapes
 * a long run is made of are written so (text, tool calls and results,
 * strings only, which always print); the rest is projected and printed
 * as a tree. What is written here is what printing
 * _agui_record_to_message_value (record, TRUE) writes, byte for byte. */

static gboolean
record_is_plain (AguiRecord *record)
{
  if (record->role == AGUI_ROLE_ACTIVITY || RECORD_GET (record, metadata) != NULL || RECORD_GET (record, notes) != NULL ||
      record->attempt != AGUI_ATTEMPT_NONE)
    return FALSE;

  if (record->has_content_value && !_agui_json_value_is_string (_agui_record_get_content (record)))
    return FALSE;

  if (record->role == AGUI_ROLE_ASSISTANT)
    {
      for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
        {
          AguiPart *part = _agui_record_part (record, i);

          if (!AGUI_IS_TOOL_CALL_PART (part))
            continue;
          if (_agui_tool_call_part_get_metadata (AGUI_TOOL_CALL_PART (part)) != NULL ||
              _agui_tool_call_part_get_local_state (AGUI_TOOL_CALL_PART (part), NULL))
            return FALSE;
        }
    }

  return TRUE;
}

static void
append_indent (GString *out,
               guint    level)
{
  /* a newline and the indent of levels up to 16, in one append */
  static const char indent[] = "\n                                ";

  if (level * 2 < sizeof indent - 1)
    {
      g_string_append_len (out, indent, 1 + level * 2);
      return;
    }

  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

/* A member of an object at @level, its value a string or null */
static void
append_string_member (GString    *out,
                      guint       level,
                      const char *name,
                      const char *value)
{
  g_string_append_c (out, ',');
  append_indent (out, level + 1);
  g_string_append_c (out, '"');
  g_string_append (out, name);
  g_string_append (out, "\" : ");
  if (value != NULL)
    _agui_json_append_string (out, value);
  else
    g_string_append (out, "null");
}

static void
append_text_member (GString    *out,
                    guint       level,
                    AguiRecord *record)
{
  g_autofree char *text = record_dup_text (record);

  append_string_member (out, level, "content", text);
}

static void
append_tool_calls (GString    *out,
                   guint       level,
                   AguiRecord *record)
{
  gboolean first = TRUE;

  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    {
      AguiPart *part = _agui_record_part (record, i);
      AguiToolCallPart *call;
      const char *name;

      if (!AGUI_IS_TOOL_CALL_PART (part))
        continue;

      call = AGUI_TOOL_CALL_PART (part);
      name = agui_tool_call_part_get_tool_name (call);
      if (first)
        {
          g_string_append_c (out, ',');
          append_indent (out, level + 1);
          g_string_append (out, "\"toolCalls\" : [");
        }
      else
        {
          g_string_append_c (out, ',');
        }
      first = FALSE;

      /* {id, type, function: {name, arguments}, encryptedValue} at level + 2 */
      append_indent (out, level + 2);
      g_string_append_c (out, '{');
      append_indent (out, level + 3);
      g_string_append (out, "\"id\" : ");
      if (agui_tool_call_part_get_tool_call_id (call) != NULL)
        _agui_json_append_string (out, agui_tool_call_part_get_tool_call_id (call));
      else
        g_string_append (out, "null");
      append_string_member (out, level + 2, "type", "function");
      g_string_append_c (out, ',');
      append_indent (out, level + 3);
      g_string_append (out, "\"function\" : {");
      append_indent (out, level + 4);
      g_string_append (out, "\"name\" : ");
      _agui_json_append_string (out, name ? name : "");
      append_string_member (out, level + 3, "arguments", agui_tool_call_part_get_arguments (call));
      append_indent (out, level + 3);
      g_string_append_c (out, '}');
      if (_agui_tool_call_part_get_encrypted_value (call))
        append_string_member (out, level + 2, "encryptedValue", _agui_tool_call_part_get_encrypted_value (call));
      append_indent (out, level + 2);
      g_string_append_c (out, '}');
    }

  if (!first)
    {
      append_indent (out, level + 1);
      g_string_append_c (out, ']');
    }
}

/* Pretty JSON as _agui_json_to_string () prints it, indented as if
 * @level deep in a larger document. */
gboolean
_agui_record_append_message (AguiRecord *record,
                             GString    *out,
                             guint       level)
{
  if (!record_is_plain (record))
    return FALSE;

  if (out == NULL)
    return TRUE;

  g_string_append_c (out, '{');
  append_indent (out, level + 1);
  g_string_append (out, "\"id\" : ");
  if (record->id != NULL)
    _agui_json_append_string (out, record->id);
  else
    g_string_append (out, "null");
  append_string_member (out, level, "role", agui_role_to_string (record->role));

  switch (record->role)
    {
    case AGUI_ROLE_USER:
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
    case AGUI_ROLE_ASSISTANT:
      if (record->has_content_value)
        append_string_member (out, level, "content", _agui_json_value_get_string (_agui_record_get_content (record)));
      else if (record->has_content || record->role != AGUI_ROLE_ASSISTANT)
        append_text_member (out, level, record);
      if (record->role == AGUI_ROLE_ASSISTANT)
        append_tool_calls (out, level, record);
      break;

    case AGUI_ROLE_TOOL:
      append_string_member (out, level, "toolCallId", _agui_record_get_tool_call_id (record) ? _agui_record_get_tool_call_id (record) : "");
      append_string_member (out, level, "content",
                            record->has_content_value ? _agui_json_value_get_string (_agui_record_get_content (record)) : "");
      if (RECORD_GET (record, error))
        append_string_member (out, level, "error", RECORD_GET (record, error));
      break;

    case AGUI_ROLE_REASONING:
      append_text_member (out, level, record);
      break;

    case AGUI_ROLE_ACTIVITY:
    default:
      g_assert_not_reached ();
    }

  if (RECORD_GET (record, name) && record->role != AGUI_ROLE_REASONING && record->role != AGUI_ROLE_TOOL)
    append_string_member (out, level, "name", RECORD_GET (record, name));
  if (RECORD_GET (record, subagent_run_id))
    append_string_member (out, level, "subagentRunId", RECORD_GET (record, subagent_run_id));
  if (RECORD_GET (record, encrypted_value))
    append_string_member (out, level, "encryptedValue", RECORD_GET (record, encrypted_value));
  append_indent (out, level);
  g_string_append_c (out, '}');

  return TRUE;
}

/* A snapshot from the agent rebuilds records from its messages, which
 * know nothing of the person's answers: keep them on the new parts. */
void
_agui_record_carry_local_state (AguiRecord *from,
                                AguiRecord *to)
{
  for (guint i = 0; i < _agui_record_get_n_parts (to); i++)
    {
      AguiPart *part = _agui_record_part (to, i);

      if (!AGUI_IS_TOOL_CALL_PART (part))
        continue;

      for (guint j = 0; j < _agui_record_get_n_parts (from); j++)
        {
          AguiPart *old = _agui_record_part (from, j);

          if (AGUI_IS_TOOL_CALL_PART (old) &&
              g_strcmp0 (agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (old)),
                         agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (part))) == 0)
            _agui_tool_call_part_copy_local_state (AGUI_TOOL_CALL_PART (part), AGUI_TOOL_CALL_PART (old));
        }
    }
}

/* Notes are this client's own: an agent's message never carries them. */
void
_agui_record_carry_notes (AguiRecord *from,
                          AguiRecord *to)
{
  if (RECORD_GET (from, notes) == NULL || RECORD_GET (to, notes) != NULL)
    return;

  _agui_record_extra (to)->notes = _agui_json_doc_value_dup (from->extra->notes);
  _agui_record_sync_notes (to);
}

/* The AG-UI message of @record in a run's input, as
 * agui_transcript_to_messages (self, FALSE) has it, into @message (null
 * before); FALSE, and @message left null, when nothing of it goes to the
 * agent (an activity, a failed attempt's words) */
gboolean
_agui_record_to_input_message_value (AguiRecord    *record,
                                     AguiJsonValue *message)
{
  if (record->role == AGUI_ROLE_ACTIVITY)
    return FALSE;

  if (record->attempt != AGUI_ATTEMPT_NONE)
    return attempt_to_message (record, message);

  _agui_record_to_message_value (record, FALSE, message);
  return TRUE;
}

/* Adds @note to @record's, or puts it in place of note @replace (-1 for
 * none). A new array, so that a part's notes never change under a reader. */
void
_agui_record_add_note (AguiRecord          *record,
                       const AguiJsonValue *note,
                       int                  replace)
{
  AguiJsonValue *notes = g_new0 (AguiJsonValue, 1);
  AguiJsonDocArray *array = _agui_json_value_set_array (notes, 0);
  AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

  for (guint j = 0; j < _agui_json_doc_get_length (RECORD_GET (record, notes)); j++)
    {
      _agui_json_value_copy (&copy, (int) j == replace ? note : _agui_json_doc_get_element (RECORD_GET (record, notes), j));
      _agui_json_array_insert (array, j, &copy);
    }
  if (replace < 0)
    {
      _agui_json_value_copy (&copy, note);
      _agui_json_array_insert (array, _agui_json_array_get_length (array), &copy);
    }
  if (record->extra != NULL)
    g_clear_pointer (&record->extra->notes, _agui_json_doc_value_free);
  _agui_record_extra (record)->notes = notes;
  _agui_record_sync_notes (record);
}

