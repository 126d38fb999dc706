/* agui-transcript-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-message.h"
#include "agui-event.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

/* The metadata member a stored message keeps Tandem's own state under
 * (see _agui_transcript_restore_local_state()) */
#define AGUI_TRANSCRIPT_LOCAL_STATE_KEY "tandem"

/* A record is one AG-UI message, exactly as the protocol sees it; rows
 * (AguiMessage) group records for display. Streaming data lives in the
 * parts, which both share, so a delta touches one GString and nothing
 * else. */
typedef struct _AguiRecord
{
  /* id and tool_call_id are from _agui_id_new() */
  char        *id;
  char        *name;
  char        *subagent_run_id;
  char        *encrypted_value;
  JsonObject  *metadata;
  /* Tool messages, and messages whose content is a parts array, keep the
   * content node; otherwise the text lives in the parts. */
  JsonNode    *content;
  char        *tool_call_id;
  char        *error;
  GPtrArray   *parts;
  AguiMessage *row;
  /* What followed the record without being a message: see AguiPart:notes */
  JsonArray   *notes;
  /* When the record arrived (microseconds since the epoch); for a
   * restored thread, when its turn was written; 0 when unknown. */
  gint64       time;
  /* Which attempt (run) appended the record, to mark it when the run
   * fails or is stopped; 0 for records from a snapshot or a load. */
  guint        serial;
  /* The small members last and together: a long run keeps a record or
   * two per tool call, and padding between them was an eighth of each. */
  AguiRole     role : 8;
  AguiAttempt  attempt : 8;
  guint        attempt_end : 1;
  guint        has_content : 1;
} AguiRecord;

AguiRecord *_agui_record_new                        (const char      *id,
                                                     AguiRole         role);
void        _agui_record_free                       (AguiRecord      *record);
void        _agui_record_merge_metadata             (AguiRecord      *record,
                                                     JsonObject      *metadata);
AguiRecord *_agui_record_new_from_message           (JsonObject      *message);
JsonObject *_agui_record_to_input_message           (AguiRecord      *record);

AguiRecord *_agui_transcript_lookup_record          (AguiTranscript  *self,
                                                     const char      *id);
AguiRecord *_agui_transcript_lookup_tool_call       (AguiTranscript  *self,
                                                     const char      *tool_call_id,
                                                     AguiToolCallPart **part);
void        _agui_transcript_append_record          (AguiTranscript  *self,
                                                     AguiRecord      *record);
void        _agui_transcript_insert_tool_record     (AguiTranscript  *self,
                                                     AguiRecord      *record);
void        _agui_transcript_replace_record         (AguiTranscript  *self,
                                                     AguiRecord      *old_record,
                                                     AguiRecord      *replacement);
void        _agui_transcript_add_part               (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     AguiPart        *part);
void        _agui_transcript_clear_parts            (AguiTranscript  *self,
                                                     AguiRecord      *record);
void        _agui_transcript_append_text            (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     const char      *delta);
void        _agui_transcript_merge_snapshot         (AguiTranscript  *self,
                                                     JsonArray       *messages,
                                                     JsonObject      *metadata);
void        _agui_transcript_take_state             (AguiTranscript  *self,
                                                     JsonNode        *state);
/* The state itself, for the reducer to patch in place; then it calls
 * _agui_transcript_state_patched (). */
AguiJsonValue *_agui_transcript_get_state_doc       (AguiTranscript  *self);
/* Its size estimate (agui-json-doc-private.h), which the patches keep. */
gsize         *_agui_transcript_get_state_size      (AguiTranscript  *self);
void        _agui_transcript_set_state_error        (AguiTranscript  *self,
                                                     const char      *message);
/* The state as compact JSON, what _agui_json_to_string () would print for
 * agui_transcript_get_state (), without building that node. */
char       *_agui_transcript_dup_state_json         (AguiTranscript  *self,
                                                     GError         **error);
/* @delta: the STATE_DELTA event just applied (NULL: changed otherwise) */
void        _agui_transcript_state_patched          (AguiTranscript  *self,
                                                     AguiEvent       *delta);
void        _agui_transcript_set_run_state          (AguiTranscript  *self,
                                                     AguiRunState    *run_state);
void        _agui_transcript_set_pending_interrupts (AguiTranscript  *self,
                                                     JsonArray       *interrupts);
JsonArray  *_agui_transcript_get_pending_interrupts_json (AguiTranscript *self);
void        _agui_transcript_mark_unanswered_calls  (AguiTranscript  *self);
guint       _agui_transcript_begin_attempt          (AguiTranscript  *self);
void        _agui_transcript_add_note               (AguiTranscript  *self,
                                                     JsonObject      *note);
void        _agui_transcript_note_refused_patch     (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     const char      *event_type,
                                                     const char      *reason);
void        _agui_transcript_mark_attempt           (AguiTranscript  *self,
                                                     guint            serial,
                                                     AguiAttempt      attempt);
void        _agui_transcript_restore_local_state    (AguiTranscript  *self,
                                                     JsonArray       *messages);
void        _agui_transcript_start_step             (AguiTranscript  *self,
                                                     const char      *name);
void        _agui_transcript_finish_step            (AguiTranscript  *self,
                                                     const char      *name);
void        _agui_transcript_clear_steps            (AguiTranscript  *self);
/* Returns a new reference, or NULL when no subagent of the current run
 * has @id. */
AguiSubagentRun *_agui_transcript_lookup_subagent   (AguiTranscript  *self,
                                                     const char      *id);
void        _agui_transcript_add_subagent           (AguiTranscript  *self,
                                                     AguiSubagentRun *run);
/* Puts @run in the place of the run with its id. */
void        _agui_transcript_replace_subagent       (AguiTranscript  *self,
                                                     AguiSubagentRun *run);
void        _agui_transcript_clear_subagents        (AguiTranscript  *self);
void        _agui_transcript_mark_turn              (AguiTranscript  *self,
                                                     const char      *snapshot_id,
                                                     const char      *run_id,
                                                     guint            turn_index);
gboolean    _agui_transcript_fork                   (AguiTranscript  *self,
                                                     const char      *message_id,
                                                     gboolean         replace,
                                                     char           **parent_snapshot_id,
                                                     char           **parent_run_id,
                                                     GError         **error);
gboolean    _agui_transcript_choose_branch          (AguiTranscript  *self,
                                                     const char      *message_id,
                                                     guint            index,
                                                     char           **leaf_snapshot_id,
                                                     GError         **error);
void        _agui_transcript_restore_branches       (AguiTranscript  *self,
                                                     JsonArray       *snapshots,
                                                     const char      *chosen_id);
guint       _agui_transcript_get_n_records          (AguiTranscript  *self);
AguiRecord *_agui_transcript_get_record              (AguiTranscript  *self,
                                                     guint            index);
void        _agui_transcript_set_times              (AguiTranscript  *self,
                                                     guint            from,
                                                     guint            to,
                                                     gint64           time);

/* The messages one at a time, for a caller that writes them in slices */
JsonObject *_agui_transcript_dup_record_message (AguiTranscript *self,
                                                 guint           index);

G_END_DECLS
