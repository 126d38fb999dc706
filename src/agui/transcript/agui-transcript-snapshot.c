/* agui-transcript-snapshot.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-activity-part-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-part-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-util-private.h"

static gboolean
snapshot_owns_activity (const AguiJsonValue *metadata,
                        gboolean             snapshot_has_activity,
                        const char          *activity_type)
{
  const AguiJsonValue *convention = _agui_json_doc_get_object (metadata, "@ag-ui/client");
  const AguiJsonValue *types = _agui_json_doc_get_member (convention, "authoritativeActivityTypes");

  if (types == NULL)
    return snapshot_has_activity;

  if (types->kind == AGUI_JSON_DOC_NULL)
    return TRUE;

  for (guint i = 0; i < _agui_json_doc_get_length (types); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (types, i);

      if (_agui_json_value_is_string (element) &&
          g_strcmp0 (_agui_json_value_get_string (element), activity_type) == 0)
        return TRUE;
    }

  return FALSE;
}

/* MESSAGES_SNAPSHOT (AG-UI 12.4): messages the snapshot names are replaced
 * where they stand, unprotected ones it omits disappear, new ones go to the
 * end. A snapshot is a boundary, so rebuilding the rows here is fine. */
void
_agui_transcript_merge_snapshot (AguiTranscript      *self,
                                 const AguiJsonValue *messages,
                                 const AguiJsonValue *metadata)
{
  g_autoptr(GHashTable) incoming = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) kept = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) orphan_notes = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_json_doc_value_free);
  gboolean has_reasoning = FALSE;
  gboolean has_activity = FALSE;

  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      const char *id, *role;

      if (message->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      id = _agui_json_doc_get_string (message, "id");
      role = _agui_json_doc_get_string (message, "role");
      if (id != NULL && !g_hash_table_contains (incoming, id))
        g_hash_table_insert (incoming, (gpointer) id, (gpointer) message);
      has_reasoning |= g_strcmp0 (role, "reasoning") == 0;
      has_activity |= g_strcmp0 (role, "activity") == 0;
    }

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_record_free);

  for (guint i = 0; i < self->records->len; i++)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i);
      const AguiJsonValue *message = record->id ? g_hash_table_lookup (incoming, record->id) : NULL;

      if (message != NULL)
        {
          AguiRecord *replacement = _agui_record_new_from_value (message);

          if (replacement != NULL)
            {
              _agui_record_carry_local_state (record, replacement);
              _agui_record_carry_notes (record, replacement);
              g_ptr_array_add (records, replacement);
              g_hash_table_add (kept, replacement->id);
            }
          continue;
        }

      if ((record->role == AGUI_ROLE_REASONING && !has_reasoning) ||
          (record->role == AGUI_ROLE_ACTIVITY &&
           !snapshot_owns_activity (metadata, has_activity,
                                    _agui_record_get_n_parts (record) > 0 && AGUI_IS_ACTIVITY_PART (_agui_record_part (record, 0))
                                      ? agui_activity_part_get_activity_type (_agui_record_part (record, 0))
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
      for (guint j = 0; j < _agui_json_doc_get_length (RECORD_GET (record, notes)); j++)
        {
          const AguiJsonValue *note = _agui_json_doc_get_element (RECORD_GET (record, notes), j);

          if (g_strcmp0 (_agui_json_doc_get_string (note, "kind"), "answer") == 0)
            g_ptr_array_add (orphan_notes, _agui_json_doc_value_dup (note));
        }
    }

  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      const char *id = _agui_json_doc_get_string (message, "id");
      AguiRecord *record;

      if (id == NULL || g_hash_table_contains (kept, id))
        continue;

      record = _agui_record_new_from_value (message);
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

  _agui_transcript_rebuild (self);

  for (guint i = 0; i < orphan_notes->len; i++)
    _agui_transcript_add_note_value (self, g_ptr_array_index (orphan_notes, i));
}

AguiTurnSnapshot *
_agui_turn_snapshot_new (void)
{
  return g_new0 (AguiTurnSnapshot, 1);
}

void
_agui_turn_snapshot_free (AguiTurnSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;

  g_free (snapshot->id);
  g_free (snapshot->parent_id);
  g_free (snapshot->thread_id);
  g_free (snapshot->run_id);
  g_free (snapshot->status);
  g_free (snapshot->finish_reason);
  g_free (snapshot->error);
  _agui_json_value_clear (&snapshot->messages);
  _agui_json_value_clear (&snapshot->state);
  g_free (snapshot);
}

/* A thread rebuilt from its event log lacks what only this client knew
 * about its calls; the stored messages (a snapshot's, say) have it. */
void
_agui_transcript_restore_local_state (AguiTranscript      *self,
                                      const AguiJsonValue *messages)
{
  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (messages, i);
      const AguiJsonValue *metadata = _agui_json_doc_get_object (element, "metadata");
      const AguiJsonValue *local = _agui_json_doc_get_object (metadata, LOCAL_STATE_KEY);
      const AguiJsonValue *calls = _agui_json_doc_get_array (element, "toolCalls");
      AguiRecord *record;

      if (local != NULL &&
          (record = _agui_transcript_find_record (self, _agui_json_doc_get_string (element, "id") ?: "")))
        _agui_record_restore_state (record, local);

      for (guint j = 0; j < _agui_json_doc_get_length (calls); j++)
        {
          const AguiJsonValue *call = _agui_json_doc_get_element (calls, j);
          const AguiJsonValue *call_local;
          AguiToolCallPart *part;
          const char *id;

          if ((id = _agui_json_doc_get_string (call, "id")) != NULL &&
              (part = _agui_transcript_find_tool_call (self, id, NULL)) != NULL &&
              (call_local = _agui_json_doc_get_object (_agui_json_doc_get_object (call, "metadata"),
                                                       LOCAL_STATE_KEY)) != NULL)
            _agui_tool_call_part_restore_local_state (part, call_local);
        }
    }
}

