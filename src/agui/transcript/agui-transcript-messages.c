/* agui-transcript-messages.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-activity-part-private.h"
#include "agui-json-patch-private.h"
#include "agui-speaker-turn-private.h"
#include "agui-part-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-util-private.h"

/* Records, for the operations below */

AguiRecord *
_agui_transcript_lookup_record (AguiTranscript *self,
                                const char     *id)
{
  return _agui_transcript_find_record (self, id);
}

AguiRecord *
_agui_transcript_lookup_tool_call (AguiTranscript    *self,
                                   const char        *tool_call_id,
                                   AguiToolCallPart **part)
{
  AguiRecord *record;
  AguiToolCallPart *call = _agui_transcript_find_tool_call (self, tool_call_id, &record);

  if (part != NULL)
    *part = call;

  return record;
}

static void
append_record (AguiTranscript *self,
               AguiRecord     *record)
{
  g_ptr_array_add (self->records, record);
  record->serial = self->serial;
  record->time = g_get_real_time ();
  _agui_transcript_index_record (self, record);
  _agui_transcript_link_tool_result (self, record);

  if (_agui_transcript_place_record (self->rows, record))
    _agui_transcript_items_changed (self, self->rows->len - 1, 0, 1);
}

/* A tool answer goes right after the assistant message holding its call,
 * after any answers already there, so parallel results keep their
 * arrival order; with no such message it goes at the end. Tool records
 * have no row, so rows are untouched. */
static void
insert_tool_record (AguiTranscript *self,
                    AguiRecord     *record)
{
  AguiRecord *holder = NULL;
  guint position = 0;
  gboolean found = FALSE;

  if (_agui_record_get_tool_call_id (record) != NULL)
    holder = _agui_transcript_lookup_tool_call (self, _agui_record_get_tool_call_id (record), NULL);

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
      append_record (self, record);
      return;
    }

  position++;
  while (position < self->records->len &&
         ((AguiRecord *) g_ptr_array_index (self->records, position))->role == AGUI_ROLE_TOOL)
    position++;

  g_ptr_array_insert (self->records, position, record);
  record->serial = self->serial;
  _agui_transcript_index_record (self, record);
  _agui_transcript_link_tool_result (self, record);
}

static void
replace_record (AguiTranscript *self,
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
  _agui_record_carry_local_state (old_record, replacement);
  _agui_record_free (old_record);
  _agui_transcript_rebuild (self);
}

static void
add_part (AguiTranscript *self,
          AguiRecord     *record,
          AguiPart       *part)
{
  _agui_record_add_part (record, g_object_ref (part));

  if (AGUI_IS_TOOL_CALL_PART (part))
    _agui_transcript_index_tool_call (self, record, AGUI_TOOL_CALL_PART (part));

  if (_agui_record_get_row (record) != NULL)
    _agui_speaker_turn_append_part (_agui_record_get_row (record), part);
}

static void
clear_parts (AguiTranscript *self,
             AguiRecord     *record)
{
  _agui_transcript_keep_own_call (self, record);
  while (_agui_record_get_n_parts (record) > 0)
    {
      AguiPart *part = _agui_record_part (record, _agui_record_get_n_parts (record) - 1);

      if (_agui_record_get_row (record) != NULL)
        _agui_speaker_turn_remove_part (_agui_record_get_row (record), part);
      _agui_record_remove_last_part (record);
    }
}

/* Appends streamed text to @record, wherever its text lives: reasoning in
 * its reasoning part; otherwise the last text part, or a new one when a
 * tool call came since, so text, call, text draw in that order. */
static void
append_text (AguiTranscript *self,
             AguiRecord     *record,
             const char     *delta)
{
  AguiPart *last = _agui_record_get_n_parts (record) > 0
                   ? _agui_record_part (record, _agui_record_get_n_parts (record) - 1) : NULL;

  if (record->role == AGUI_ROLE_TOOL)
    {
      AguiJsonValue *content = _agui_record_edit_content (record);
      g_autofree char *text = NULL;

      /* Only reachable when ids collide; the reference appends to string content. */
      text = g_strconcat (record->has_content_value && _agui_json_value_is_string (content)
                            ? _agui_json_value_get_string (content) : "",
                          delta, NULL);
      record->has_content_value = TRUE;
      _agui_json_value_set_string (content, text, strlen (text));
      _agui_transcript_link_tool_result (self, record);
      return;
    }

  if (record->role == AGUI_ROLE_REASONING && last != NULL && AGUI_IS_REASONING_PART (last))
    {
      _agui_reasoning_part_append (AGUI_REASONING_PART (last), delta);
      return;
    }

  if (record->has_content_value)
    {
      /* Content that was a parts array becomes text, as the reference does. */
      _agui_record_take_content (record, NULL);
      clear_parts (self, record);
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

      add_part (self, record, AGUI_PART (part));
    }
}

/* The reducer's vocabulary for what streams in: messages, tool calls
 * and activities. Each operation is what one event does to the
 * transcript, whatever records, parts and rows that touches. */

AguiRecord *
_agui_transcript_add_message (AguiTranscript      *self,
                              const AguiJsonValue *message)
{
  AguiRecord *record = _agui_record_new_from_value (message);

  if (record == NULL)
    return NULL;

  if (record->role == AGUI_ROLE_TOOL)
    insert_tool_record (self, record);
  else
    append_record (self, record);

  return record;
}

AguiRecord *
_agui_transcript_begin_message (AguiTranscript *self,
                                const char     *id,
                                AguiRole        role,
                                const char     *name,
                                const char     *subagent_run_id)
{
  AguiRecord *record = _agui_record_new (id, role);

  RECORD_SET_STRING (record, subagent_run_id, subagent_run_id);
  record->has_content = TRUE;

  if (role == AGUI_ROLE_REASONING)
    {
      _agui_record_add_part (record, _agui_reasoning_part_new (id, NULL));
    }
  else
    {
      RECORD_SET_STRING (record, name, name);
      _agui_record_add_part (record, _agui_text_part_new (id, NULL));
    }

  append_record (self, record);

  return record;
}

/* The message @id, but not an activity: content and its end are for
 * text and reasoning. */
static AguiRecord *
lookup_message (AguiTranscript *self,
                const char     *id)
{
  AguiRecord *record = _agui_transcript_find_record (self, id);

  return record == NULL || record->role == AGUI_ROLE_ACTIVITY ? NULL : record;
}

gboolean
_agui_transcript_append_text (AguiTranscript *self,
                              const char     *id,
                              const char     *delta,
                              AguiJsonValue  *metadata)
{
  AguiRecord *record = lookup_message (self, id);

  if (record == NULL)
    return FALSE;

  append_text (self, record, delta);
  /* most deltas carry none: no call for them, on the busiest path */
  if (metadata != NULL)
    _agui_record_merge_metadata (record, metadata);

  return TRUE;
}

gboolean
_agui_transcript_end_message (AguiTranscript *self,
                              const char     *id,
                              AguiJsonValue  *metadata)
{
  AguiRecord *record = lookup_message (self, id);
  AguiPart *part;

  if (record == NULL)
    return FALSE;

  _agui_record_merge_metadata (record, metadata);

  part = _agui_record_get_last_part (record, record->role == AGUI_ROLE_REASONING
                                             ? AGUI_TYPE_REASONING_PART : AGUI_TYPE_TEXT_PART);
  if (part != NULL)
    _agui_part_set_complete (part, TRUE);

  return TRUE;
}

void
_agui_transcript_merge_metadata (AguiTranscript *self,
                                 AguiRecord     *record,
                                 AguiJsonValue  *metadata)
{
  _agui_record_merge_metadata (record, metadata);
}

void
_agui_transcript_set_encrypted_value (AguiTranscript *self,
                                      AguiRecord     *record,
                                      const char     *value)
{
  AguiPart *part;

  g_free (RECORD_GET (record, encrypted_value));
  RECORD_SET_STRING (record, encrypted_value, value);
  if ((part = _agui_record_get_last_part (record, AGUI_TYPE_REASONING_PART)))
    _agui_reasoning_part_set_encrypted_value (AGUI_REASONING_PART (part), value);
}

void
_agui_transcript_begin_tool_call (AguiTranscript *self,
                                  AguiRecord     *parent,
                                  const char     *parent_id,
                                  const char     *tool_call_id,
                                  const char     *name,
                                  const char     *subagent_run_id,
                                  AguiJsonValue  *metadata)
{
  g_autoptr(AguiToolCallPart) call = NULL;

  if (parent == NULL)
    {
      parent = _agui_record_new (parent_id, AGUI_ROLE_ASSISTANT);
      RECORD_SET_STRING (parent, subagent_run_id, subagent_run_id);
      append_record (self, parent);
    }

  call = _agui_tool_call_part_new (parent->id, tool_call_id, name);
  _agui_tool_call_part_merge_metadata (call, metadata);
  add_part (self, parent, AGUI_PART (call));
}

void
_agui_transcript_restart_tool_call (AguiTranscript   *self,
                                    AguiToolCallPart *call,
                                    const char       *name,
                                    AguiJsonValue    *metadata)
{
  if (g_strcmp0 (agui_tool_call_part_get_tool_name (call), name) != 0)
    _agui_tool_call_part_set_tool_name (call, name);
  _agui_tool_call_part_merge_metadata (call, metadata);
}

static AguiToolCallPart *
lookup_call (AguiTranscript *self,
             const char     *tool_call_id)
{
  return _agui_transcript_find_tool_call (self, tool_call_id, NULL);
}

gboolean
_agui_transcript_append_tool_call_args (AguiTranscript *self,
                                        const char     *tool_call_id,
                                        const char     *delta,
                                        AguiJsonValue  *metadata)
{
  AguiToolCallPart *call = lookup_call (self, tool_call_id);

  if (call == NULL)
    return FALSE;

  _agui_tool_call_part_append_arguments (call, delta);
  if (metadata != NULL)
    _agui_tool_call_part_merge_metadata (call, metadata);

  return TRUE;
}

gboolean
_agui_transcript_end_tool_call (AguiTranscript *self,
                                const char     *tool_call_id,
                                AguiJsonValue  *metadata)
{
  AguiToolCallPart *call = lookup_call (self, tool_call_id);

  if (call == NULL)
    return FALSE;

  _agui_tool_call_part_merge_metadata (call, metadata);
  _agui_tool_call_part_finish_arguments (call);

  return TRUE;
}

void
_agui_transcript_set_tool_call_encrypted_value (AguiTranscript   *self,
                                                AguiToolCallPart *call,
                                                const char       *value)
{
  _agui_tool_call_part_set_encrypted_value (call, value);
}

AguiRecord *
_agui_transcript_add_tool_result (AguiTranscript *self,
                                  const char     *id,
                                  const char     *tool_call_id,
                                  const char     *subagent_run_id,
                                  AguiJsonValue  *content,
                                  const char     *error,
                                  AguiJsonValue  *metadata)
{
  AguiRecord *record = _agui_record_new (id, AGUI_ROLE_TOOL);

  record->held.tool_call_id = _agui_id_new (tool_call_id);
  RECORD_SET_STRING (record, subagent_run_id, subagent_run_id);
  if (content != NULL)
    {
      _agui_record_take_content (record, content);
    }
  else
    {
      AguiJsonValue empty = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_string (&empty, "", 0);
      _agui_record_take_content (record, &empty);
    }
  RECORD_SET_STRING (record, error, error);
  record->has_content = TRUE;
  _agui_record_merge_metadata (record, metadata);
  insert_tool_record (self, record);

  return record;
}

void
_agui_transcript_set_activity (AguiTranscript *self,
                               const char     *id,
                               const char     *activity_type,
                               AguiJsonValue  *content,
                               const char     *subagent_run_id,
                               AguiJsonValue  *metadata)
{
  AguiRecord *existing = _agui_transcript_lookup_record (self, id);
  AguiRecord *record;
  AguiActivityPart *part;

  if (existing != NULL && existing->role == AGUI_ROLE_ACTIVITY)
    {
      _agui_record_merge_metadata (existing, metadata);
      part = AGUI_ACTIVITY_PART (_agui_record_get_last_part (existing, AGUI_TYPE_ACTIVITY_PART));
      _agui_activity_part_set_activity_type (part, activity_type);
      _agui_activity_part_take_content (part, content);
      RECORD_SET_STRING (existing, subagent_run_id, subagent_run_id);
      return;
    }

  record = _agui_record_new (id, AGUI_ROLE_ACTIVITY);
  RECORD_SET_STRING (record, subagent_run_id, subagent_run_id);
  _agui_record_merge_metadata (record, metadata);
  part = _agui_activity_part_new (id);
  _agui_activity_part_set_activity_type (part, activity_type);
  _agui_activity_part_take_content (part, content);
  _agui_part_set_complete (AGUI_PART (part), TRUE);
  _agui_record_add_part (record, part);

  if (existing != NULL)
    replace_record (self, existing, record);
  else
    append_record (self, record);
}

gboolean
_agui_transcript_patch_activity (AguiTranscript  *self,
                                 AguiRecord      *record,
                                 const char      *activity_type,
                                 const AguiJsonValue *patch,
                                 gsize            max_size,
                                 GError         **error)
{
  AguiActivityPart *part = AGUI_ACTIVITY_PART (_agui_record_get_last_part (record, AGUI_TYPE_ACTIVITY_PART));
  AguiJsonDocBounds bounds;

  bounds.size = *_agui_activity_part_get_content_size (part);
  bounds.max_size = max_size;
  /* the schema has the patch an array; a stored event is not checked
   * again, and anything else patches nothing */
  if (patch != NULL && patch->kind == AGUI_JSON_DOC_ARRAY &&
      !_agui_json_doc_patch_apply (_agui_activity_part_get_content_doc (part), &bounds, patch, error))
    return FALSE;
  *_agui_activity_part_get_content_size (part) = bounds.size;

  _agui_activity_part_set_activity_type (part, activity_type);
  _agui_activity_part_content_changed (part);

  return TRUE;
}
