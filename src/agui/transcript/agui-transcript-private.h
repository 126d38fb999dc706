/* agui-transcript-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-speaker-turn.h"
#include "agui-event.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

/* The metadata member a stored message keeps Tandem's own state under
 * (see _agui_transcript_restore_local_state()) */
#define AGUI_TRANSCRIPT_LOCAL_STATE_KEY "tandem"

/* One saved turn as a restore reads it back from the store: where it
 * sits in the chain of turns, how it ended, and, when read, the
 * thread's messages (an array: its AG-UI messages, with what Tandem
 * keeps under AGUI_TRANSCRIPT_LOCAL_STATE_KEY) and state after it.
 * @n_messages is known even when @messages was not read (left null);
 * @state is null when the turn saved none. */
typedef struct
{
  char          *id;
  char          *parent_id;
  char          *thread_id;
  char          *run_id;
  char          *status;
  char          *finish_reason;
  char          *error;
  int            turn_index;
  guint          n_messages;
  gint64         created_at;
  AguiJsonValue  messages;
  AguiJsonValue  state;
} AguiTurnSnapshot;

AguiTurnSnapshot *_agui_turn_snapshot_new  (void);
void              _agui_turn_snapshot_free (AguiTurnSnapshot *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiTurnSnapshot, _agui_turn_snapshot_free)

/* A record is one AG-UI message, exactly as the protocol sees it; rows
 * (AguiSpeakerTurn) group records for display. Only the transcript's own
 * files see inside one (agui-transcript-shared-private.h); everyone
 * else, the reducer first, changes records through the operations
 * below, and reads them through these. */
typedef struct _AguiRecord AguiRecord;

const char *_agui_record_get_id                     (AguiRecord      *record);
AguiRole    _agui_record_get_role                   (AguiRecord      *record);
/* The record's last part of @type, or NULL */
AguiPart   *_agui_record_get_last_part              (AguiRecord      *record,
                                                     GType            type);
/* The record's message in a run's input, as agui_transcript_to_messages
 * (…, FALSE) has it, into @message (null before); FALSE, @message left
 * null, when nothing of the record goes to the agent */
gboolean    _agui_record_to_input_message_value     (AguiRecord      *record,
                                                     AguiJsonValue   *message);
/* The record's message as agui_transcript_to_messages (…, TRUE) has it,
 * printed straight into @out (pretty, indented for @level) when the
 * record is of the plain shapes a long run is made of: text, tool calls
 * and their results, strings only, which always print. FALSE, and @out
 * unchanged, for any other; with @out NULL, only says which. */
gboolean    _agui_record_append_message             (AguiRecord      *record,
                                                     GString         *out,
                                                     guint            level);

AguiRecord *_agui_transcript_lookup_record          (AguiTranscript  *self,
                                                     const char      *id);
AguiRecord *_agui_transcript_lookup_tool_call       (AguiTranscript  *self,
                                                     const char      *tool_call_id,
                                                     AguiToolCallPart **part);

/* The reducer's vocabulary: each operation is what an event does to the
 * transcript. A record or a call passed in is one that a lookup (or an
 * operation) gave just before. A @metadata is the event's, an object of
 * the compact tree or NULL for none; an operation that keeps it takes it,
 * leaving it null (the caller clears it either way). */

/* Runs: a run begins with no step and no subagent open */
void        _agui_transcript_begin_run              (AguiTranscript  *self,
                                                     AguiRunState    *run_state);
/* @interrupts: (nullable): the run's, an array; taken, left null */
void        _agui_transcript_finish_run             (AguiTranscript  *self,
                                                     AguiRunState    *run_state,
                                                     AguiJsonValue   *interrupts);
void        _agui_transcript_set_run_state          (AguiTranscript  *self,
                                                     AguiRunState    *run_state);
void        _agui_transcript_start_step             (AguiTranscript  *self,
                                                     const char      *name);
void        _agui_transcript_finish_step            (AguiTranscript  *self,
                                                     const char      *name);
/* Returns a new reference, or NULL when no subagent of the current run
 * has @id. */
AguiSubagentRun *_agui_transcript_lookup_subagent   (AguiTranscript  *self,
                                                     const char      *id);
void        _agui_transcript_add_subagent           (AguiTranscript  *self,
                                                     AguiSubagentRun *run);
/* Puts @run in the place of the run with its id. */
void        _agui_transcript_replace_subagent       (AguiTranscript  *self,
                                                     AguiSubagentRun *run);

/* Messages. A whole AG-UI message (of a run's input, say), copied: a
 * tool message goes after the call it answers; NULL when it is not one. */
AguiRecord *_agui_transcript_add_message            (AguiTranscript  *self,
                                                     const AguiJsonValue *message);
/* A streamed message: text, or reasoning for AGUI_ROLE_REASONING */
AguiRecord *_agui_transcript_begin_message          (AguiTranscript  *self,
                                                     const char      *id,
                                                     AguiRole         role,
                                                     const char      *name,
                                                     const char      *subagent_run_id);
/* Content, and the end, of message @id: FALSE, and nothing changes,
 * when there is no such message (or it is an activity) */
gboolean    _agui_transcript_append_text            (AguiTranscript  *self,
                                                     const char      *id,
                                                     const char      *delta,
                                                     AguiJsonValue   *metadata);
gboolean    _agui_transcript_end_message            (AguiTranscript  *self,
                                                     const char      *id,
                                                     AguiJsonValue   *metadata);
void        _agui_transcript_merge_metadata         (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     AguiJsonValue   *metadata);
void        _agui_transcript_set_encrypted_value    (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     const char      *value);

/* Tool calls. @parent: the assistant message to hold the call, or NULL
 * for a new one called @parent_id. */
void        _agui_transcript_begin_tool_call        (AguiTranscript  *self,
                                                     AguiRecord      *parent,
                                                     const char      *parent_id,
                                                     const char      *tool_call_id,
                                                     const char      *name,
                                                     const char      *subagent_run_id,
                                                     AguiJsonValue   *metadata);
/* A TOOL_CALL_START for a call there already is */
void        _agui_transcript_restart_tool_call      (AguiTranscript   *self,
                                                     AguiToolCallPart *call,
                                                     const char       *name,
                                                     AguiJsonValue    *metadata);
/* FALSE, and nothing changes, when there is no such call */
gboolean    _agui_transcript_append_tool_call_args  (AguiTranscript  *self,
                                                     const char      *tool_call_id,
                                                     const char      *delta,
                                                     AguiJsonValue   *metadata);
gboolean    _agui_transcript_end_tool_call          (AguiTranscript  *self,
                                                     const char      *tool_call_id,
                                                     AguiJsonValue   *metadata);
void        _agui_transcript_set_tool_call_encrypted_value (AguiTranscript   *self,
                                                            AguiToolCallPart *call,
                                                            const char       *value);
/* @content: (nullable): taken, left null; NULL for an empty string */
AguiRecord *_agui_transcript_add_tool_result        (AguiTranscript  *self,
                                                     const char      *id,
                                                     const char      *tool_call_id,
                                                     const char      *subagent_run_id,
                                                     AguiJsonValue   *content,
                                                     const char      *error,
                                                     AguiJsonValue   *metadata);

/* Activities: sets activity @id, in the place of any message with that
 * id, or at the end. @content: (nullable): taken, left null */
void        _agui_transcript_set_activity           (AguiTranscript  *self,
                                                     const char      *id,
                                                     const char      *activity_type,
                                                     AguiJsonValue   *content,
                                                     const char      *subagent_run_id,
                                                     AguiJsonValue   *metadata);
/* A patch (an array) that does not apply changes nothing and returns
 * FALSE. @max_size: the cap on the content's size, 0 for none. */
gboolean    _agui_transcript_patch_activity         (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     const char      *activity_type,
                                                     const AguiJsonValue *patch,
                                                     gsize            max_size,
                                                     GError         **error);

/* The shared state. A STATE_DELTA that does not apply changes nothing
 * and returns FALSE. @max_size: the cap on the state's size, 0 for none. */
void        _agui_transcript_take_state             (AguiTranscript  *self,
                                                     JsonNode        *state);
/* The same for a state already in the compact tree: takes @state, leaving
 * it null; its JsonNode is built when asked for. */
void        _agui_transcript_take_state_value       (AguiTranscript  *self,
                                                     AguiJsonValue   *state);
gboolean    _agui_transcript_patch_state            (AguiTranscript  *self,
                                                     AguiEvent       *delta,
                                                     gsize            max_size,
                                                     GError         **error);
void        _agui_transcript_set_state_error        (AguiTranscript  *self,
                                                     const char      *message);
/* A refused STATE_DELTA (@record NULL) or ACTIVITY_DELTA, noted in the
 * conversation */
void        _agui_transcript_note_refused_patch     (AguiTranscript  *self,
                                                     AguiRecord      *record,
                                                     const char      *event_type,
                                                     const char      *reason);

/* MESSAGES_SNAPSHOT */
/* @messages: the snapshot's array (anything else holds no message) */
void        _agui_transcript_merge_snapshot         (AguiTranscript  *self,
                                                     const AguiJsonValue *messages,
                                                     const AguiJsonValue *metadata);

/* What the session does besides folding events: attempts (a run it
 * started), notes, branches, and a restore. */
guint       _agui_transcript_begin_attempt          (AguiTranscript  *self);
void        _agui_transcript_mark_attempt           (AguiTranscript  *self,
                                                     guint            serial,
                                                     AguiAttempt      attempt);
void        _agui_transcript_mark_unanswered_calls  (AguiTranscript  *self);
void        _agui_transcript_add_note               (AguiTranscript  *self,
                                                     JsonObject      *note);
/* The same for a note in the compact tree, copied */
void        _agui_transcript_add_note_value         (AguiTranscript  *self,
                                                     const AguiJsonValue *note);
/* @messages: stored messages (an array), as AguiTurnSnapshot has them */
void        _agui_transcript_restore_local_state    (AguiTranscript      *self,
                                                     const AguiJsonValue *messages);
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
/* For a thread that forked. @snapshots: every AguiTurnSnapshot of the
 * thread in turn order, the messages read of those no other chains to */
void        _agui_transcript_restore_branches       (AguiTranscript  *self,
                                                     GPtrArray       *snapshots,
                                                     const char      *chosen_id);
void        _agui_transcript_set_times              (AguiTranscript  *self,
                                                     guint            from,
                                                     guint            to,
                                                     gint64           time);

/* Reading */
/* The state and its size estimate (agui-json-doc-private.h) */
const AguiJsonValue *_agui_transcript_get_state_doc (AguiTranscript  *self);
gsize       _agui_transcript_get_state_size         (AguiTranscript  *self);
/* The state as compact JSON, what _agui_json_to_string () would print for
 * agui_transcript_get_state (), without building that node. */
char       *_agui_transcript_dup_state_json         (AguiTranscript  *self,
                                                     GError         **error);
JsonArray  *_agui_transcript_get_pending_interrupts_json (AguiTranscript *self);
/* The same as the tree (an array), borrowed */
const AguiJsonValue *_agui_transcript_get_pending_interrupts_value (AguiTranscript *self);
guint       _agui_transcript_get_n_records          (AguiTranscript  *self);
AguiRecord *_agui_transcript_get_record             (AguiTranscript  *self,
                                                     guint            index);
/* The messages one at a time, for a caller that writes them in slices */
/* The messages one at a time, as trees, into @message (null before) */
void        _agui_transcript_get_record_message     (AguiTranscript  *self,
                                                     guint            index,
                                                     AguiJsonValue   *message);

G_END_DECLS
