/* agui-transcript-shared-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-id-index-private.h"
#include "agui-tool-call-part.h"
#include "agui-transcript-private.h"

G_BEGIN_DECLS

/* AguiTranscript spans files, one job each: agui-transcript.c (the list
 * model, the records' indexes and rows, interrupts, state, run state,
 * steps and subagents), -messages (the records in place, and the
 * operations the reducer streams messages, tool calls and activities in
 * with; the per-event paths, kept in one file), -record (a record and its
 * AG-UI message), -snapshot (merging a MESSAGES_SNAPSHOT, restoring what
 * only this client knew) and -branches (attempts, notes and branches).
 * They share what is below. agui-transcript.c is the floor: the other
 * files call it, it calls none of them but -record. */

/* A record: see AguiRecord in agui-transcript-private.h. Streaming data
 * lives in the parts, which the record and its row share, so a delta
 * touches one GString and nothing else. */
/* What few records have, allocated with the first of it: a long run
 * keeps two records per tool call, and these six pointers were nearly
 * half of each. Read with RECORD_GET (). */
typedef struct
{
  char        *name;
  char        *subagent_run_id;
  char        *encrypted_value;
  /* an object of the compact tree, on the heap; NULL for none */
  AguiJsonValue *metadata;
  char        *error;
  /* What followed the record without being a message (see
   * AguiPart:notes): an array of the compact tree on the heap, or NULL */
  AguiJsonValue *notes;
  /* The content of a message other than a tool's, when it keeps one
   * (a parts array): see _agui_record_get_content () */
  AguiJsonValue content;
} AguiRecordExtra;

/* A record's parts once it has two or more: the count, and room for the
 * next power of two of it */
typedef struct
{
  guint     n;
  AguiPart *items[];
} AguiRecordParts;

/* 48 bytes, and a tool message's 56 (its content in place of the
 * parts): a long run keeps two records per tool call, and each was 64,
 * down from 80. Allocated at those sizes from the pool (see
 * _agui_record_new ()): sizeof (AguiRecord) is a tool message's. */
struct _AguiRecord
{
  /* from _agui_id_new() */
  char        *id;
  /* A tool message has no row (it is drawn on its call) and any other
   * message no tool call id: read with _agui_record_get_row () and
   * _agui_record_get_tool_call_id (). A tool message that lent its text
   * to its call (parts_lent, see _agui_record_lend_result ()) holds the
   * call instead, whose id is the same. */
  union
  {
    AguiSpeakerTurn  *row;
    char             *tool_call_id;  /* from _agui_id_new() */
    AguiToolCallPart *lent;          /* a reference */
  } held;
  AguiRecordExtra *extra;      /* NULL until needed */
  /* When the record arrived (microseconds since the epoch); for a
   * restored thread, when its turn was written; 0 when unknown. */
  gint64       time;
  /* Which attempt (run) appended the record, to mark it when the run
   * fails or is stopped; 0 for records from a snapshot or a load. */
  guint        serial;
  /* The small members together: a long run keeps a record or two per
   * tool call, and padding between them was an eighth of each. */
  AguiRole     role : 8;
  AguiAttempt  attempt : 8;
  guint        attempt_end : 1;
  guint        has_content : 1;
  guint        has_content_value : 1;
  guint        parts_many : 1;
  guint        parts_lent : 1;
  /* Last, for a tool message's record is the longer. Any other message
   * keeps its parts here, a reference each: none (NULL), the part itself
   * while there is one (a call's message, a text's), else, with
   * parts_many, a list (a GPtrArray and its block cost a call 64 bytes).
   * Read with _agui_record_get_n_parts () and _agui_record_part ().
   *
   * A tool message has no parts, and keeps its content here instead,
   * which it always has. Tool messages, and messages whose content is a
   * parts array, keep the content (when has_content_value); otherwise
   * the text lives in the parts. Any other message keeps it in its
   * extra. Read with _agui_record_get_content (). */
  union
  {
    AguiPart        *one;
    AguiRecordParts *many;
    AguiJsonValue    tool_content;
  } parts;
};

/* The size of a record of @role (see AguiRecord) */
static inline gsize
_agui_record_size (AguiRole role)
{
  return role == AGUI_ROLE_TOOL ? sizeof (AguiRecord)
                                : G_STRUCT_OFFSET (AguiRecord, parts) + sizeof (gpointer);
}

static inline AguiSpeakerTurn *
_agui_record_get_row (AguiRecord *record)
{
  return record->role != AGUI_ROLE_TOOL ? record->held.row : NULL;
}

static inline const char *
_agui_record_get_tool_call_id (AguiRecord *record)
{
  if (record->role != AGUI_ROLE_TOOL)
    return NULL;

  return record->parts_lent ? agui_tool_call_part_get_tool_call_id (record->held.lent) : record->held.tool_call_id;
}

static inline guint
_agui_record_get_n_parts (AguiRecord *record)
{
  if (record->role == AGUI_ROLE_TOOL)
    return 0;

  return record->parts_many ? record->parts.many->n : record->parts.one != NULL;
}

/* The record's content (see tool_content), NULL without one */
static inline const AguiJsonValue *
_agui_record_get_content (AguiRecord *record)
{
  if (!record->has_content_value)
    return NULL;

  return record->role == AGUI_ROLE_TOOL ? &record->parts.tool_content : &record->extra->content;
}

/* A member of the record's extra, NULL without one */
#define RECORD_GET(record, member) ((record)->extra != NULL ? (record)->extra->member : NULL)

AguiRecord *_agui_record_new                (const char      *id,
                                             AguiRole         role);
/* The record's extra, made when it has none */
AguiRecordExtra *_agui_record_extra         (AguiRecord      *record);
/* Sets the extra's string at @offset to a copy of @value: a NULL makes
 * no extra */
void        _agui_record_set_extra_string   (AguiRecord      *record,
                                             gsize            offset,
                                             const char      *value);
/* The same by the member's name */
#define RECORD_SET_STRING(record, member, value) \
  _agui_record_set_extra_string ((record), G_STRUCT_OFFSET (AguiRecordExtra, member), (value))
void        _agui_record_free               (AguiRecord      *record);
/* @part: an AguiPart, taken (untyped, as a GPtrArray's was) */
void        _agui_record_add_part           (AguiRecord      *record,
                                             gpointer         part);
void        _agui_record_remove_last_part   (AguiRecord      *record);
/* The part at @index, of _agui_record_get_n_parts () */
static inline gpointer
_agui_record_part (AguiRecord *record,
                   guint       index)
{
  return record->parts_many ? record->parts.many->items[index] : record->parts.one;
}

/* @metadata: (nullable): an object, taken, left null */
void        _agui_record_merge_metadata     (AguiRecord      *record,
                                             AguiJsonValue   *metadata);
AguiRecord *_agui_record_new_from_message   (JsonObject      *message);
/* The same for a message in the compact tree, which is copied */
AguiRecord *_agui_record_new_from_value     (const AguiJsonValue *message);
/* Takes @content (leaving it null); NULL for none. */
void        _agui_record_take_content       (AguiRecord      *record,
                                             AguiJsonValue   *content);
/* The content to change in place, made a null value when there was none
 * (a tool message's, or the extra's): whatever text it lent is taken
 * back first */
AguiJsonValue *_agui_record_edit_content    (AguiRecord      *record);
/* Makes a tool message's text (its content, a string) @call's result,
 * lent rather than copied: a long run answers a call per message, and
 * the copy was a slice per call (a whole second copy of a long answer).
 * The record holds @call until it takes the text back, which it does
 * before its content changes or goes, so the call is never left with a
 * freed text. */
void        _agui_record_lend_result        (AguiRecord       *record,
                                             AguiToolCallPart *call);

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
  AguiJsonValue *messages;
  AguiJsonValue *state;
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
  /* Both map to the first holder, as the reference's find() does.
   * records_by_id holds records, keyed by their own ids;
   * tool_calls_by_id a call (a reference) and its record per slot,
   * keyed by the call's id (see ToolCallSlot). */
  AguiIdIndex   records_by_id;
  AguiIdIndex   tool_calls_by_id;
  /* The call found last, and its record (borrowed): the arguments of a
   * call stream in as a run of deltas, each looking it up. What finds
   * an id changes only when the indexes are cleared, which forgets it. */
  AguiToolCallPart *last_call;
  AguiRecord       *last_call_record;

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
  /* an array of the compact tree; the JsonArray
   * _agui_transcript_get_pending_interrupts_json () hands out is built
   * from it when asked, and kept until it next changes */
  AguiJsonValue pending_interrupts;
  JsonNode     *pending_interrupts_node;
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

/* A slot of tool_calls_by_id holds its part (a reference), whose tool
 * call id (which never changes) is the slot's key, and the part's
 * record: a copy of the id per call was a tenth of a long run's memory,
 * and a block per entry another.
 *
 * A call that its record holds under the record's own id (what a
 * TOOL_CALL_START without a parent message makes: a message of the
 * call's id, holding it first) has no slot: records_by_id finds it
 * through its record, which holds a reference to it, and a long run of
 * tool calls spares an entry a call (a slot of 17 bytes at 53-80% full).
 * See _agui_transcript_index_tool_call (). */
enum
{
  TOOL_CALL_SLOT_PART,
  TOOL_CALL_SLOT_RECORD,
  TOOL_CALL_SLOT_WIDTH
};

/* The first holder of @tool_call_id's call, and its record */
AguiToolCallPart *_agui_transcript_find_tool_call (AguiTranscript  *self,
                                                   const char      *tool_call_id,
                                                   AguiRecord     **record);

static inline AguiRecord *
_agui_transcript_find_record (AguiTranscript *self,
                              const char     *id)
{
  gpointer *slot = id != NULL ? _agui_id_index_lookup (&self->records_by_id, id) : NULL;

  return slot != NULL ? slot[0] : NULL;
}

/* Tandem's own knowledge of a call lives under this key of the call's
 * metadata in the stored projection only. */
#define LOCAL_STATE_KEY AGUI_TRANSCRIPT_LOCAL_STATE_KEY

static inline const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* agui-transcript-record.c */
/* The record's AG-UI message into @out (null before); @local: with what
 * only this client keeps (activity, notes, attempts, answers) */
void        _agui_record_to_message_value    (AguiRecord     *record,
                                              gboolean        local,
                                              AguiJsonValue  *out);
/* @state: the object kept under LOCAL_STATE_KEY */
void        _agui_record_restore_state       (AguiRecord          *record,
                                              const AguiJsonValue *state);
void        _agui_record_set_attempt         (AguiRecord     *record,
                                              AguiAttempt     attempt,
                                              gboolean        attempt_end);
void        _agui_record_sync_notes          (AguiRecord     *record);
/* @note: an object, copied */
void        _agui_record_add_note            (AguiRecord          *record,
                                              const AguiJsonValue *note,
                                              int                  replace);
void        _agui_record_carry_local_state   (AguiRecord     *from,
                                              AguiRecord     *to);
void        _agui_record_carry_notes         (AguiRecord     *from,
                                              AguiRecord     *to);

/* agui-transcript.c */
/* Empties both indexes */
void        _agui_transcript_clear_indexes    (AguiTranscript   *self);
void        _agui_transcript_index_tool_call  (AguiTranscript   *self,
                                               AguiRecord       *record,
                                               AguiToolCallPart *part);
/* Before @record's parts go while it stays: the call found through it
 * gets a slot of its own, as every call keeps the one it was found by */
void        _agui_transcript_keep_own_call    (AguiTranscript   *self,
                                               AguiRecord       *record);
void        _agui_transcript_index_record     (AguiTranscript   *self,
                                               AguiRecord       *record);
void        _agui_transcript_link_tool_result (AguiTranscript   *self,
                                               AguiRecord       *record);
/* @previous: (nullable): the interrupts pending before, an array */
void        _agui_transcript_update_approvals (AguiTranscript      *self,
                                               const AguiJsonValue *previous);
gboolean    _agui_transcript_place_record     (GPtrArray        *rows,
                                               AguiRecord       *record);
void        _agui_transcript_rebuild          (AguiTranscript   *self);
/* Emits items-changed, and notifies n-items when the count changed */
void        _agui_transcript_items_changed    (AguiTranscript   *self,
                                               guint             position,
                                               guint             removed,
                                               guint             added);
Branch     *_agui_transcript_branch_new       (void);
void        _agui_transcript_branch_free      (Branch           *branch);
/* A branch's turn marks: an array of TurnMark */
GArray     *_agui_transcript_marks_new        (void);

G_END_DECLS
