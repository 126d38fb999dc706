/* agui-transcript-branches.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-part-private.h"
#include "agui-run-state-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-util-private.h"

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

      _agui_record_set_attempt (record, attempt, FALSE);
      if (_agui_record_get_n_parts (record) > 0)
        last = record;
    }

  if (last != NULL)
    _agui_record_set_attempt (last, attempt, TRUE);
  else if (serial != 0 && attempt != AGUI_ATTEMPT_NONE && serial != self->noted_serial)
    {
      /* A run that ended before it produced anything still happened: the
       * person's question (or whatever came last) says how it ended. */
      g_auto(AguiJsonValue) note = AGUI_JSON_VALUE_INIT;
      AguiJsonDocObject *object = _agui_json_value_set_object (&note, 2);

      _agui_json_doc_set_string (object, "kind", "run-end");
      _agui_json_doc_set_string (object, "attempt", attempt == AGUI_ATTEMPT_FAILED ? "failed" : "stopped");
      _agui_transcript_add_note_value (self, &note);
      self->noted_serial = serial;
    }
}

static AguiRecord *
latest_shown_record (AguiTranscript *self)
{
  for (guint i = self->records->len; i > 0; i--)
    {
      AguiRecord *record = g_ptr_array_index (self->records, i - 1);

      if (_agui_record_get_n_parts (record) > 0)
        return record;
    }

  return NULL;
}

/* Notes go with the latest record that shows anything */
void
_agui_transcript_add_note_value (AguiTranscript      *self,
                                 const AguiJsonValue *note)
{
  AguiRecord *record = latest_shown_record (self);

  if (record != NULL)
    _agui_record_add_note (record, note, -1);
}

void
_agui_transcript_add_note (AguiTranscript *self,
                           JsonObject     *note)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), note);

  _agui_json_value_set_node (&value, node);
  _agui_transcript_add_note_value (self, &value);
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
  g_auto(AguiJsonValue) note = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;
  gint64 count = 1;
  int replace = -1;

  if (record == NULL && (record = latest_shown_record (self)) == NULL)
    return;

  for (guint i = 0; i < _agui_json_doc_get_length (RECORD_GET (record, notes)); i++)
    {
      const AguiJsonValue *other = _agui_json_doc_get_element (RECORD_GET (record, notes), i);

      if (g_strcmp0 (_agui_json_doc_get_string (other, "kind"), "patch-refused") == 0 &&
          g_strcmp0 (_agui_json_doc_get_string (other, "event"), event_type) == 0)
        {
          gint64 counted;

          replace = (int) i;
          if (_agui_json_doc_get_int (other, "count", &counted))
            count = CLAMP (counted, 0, G_MAXINT32 - 1) + 1;
          break;
        }
    }

  object = _agui_json_value_set_object (&note, 4);
  _agui_json_doc_set_string (object, "kind", "patch-refused");
  _agui_json_doc_set_string (object, "event", event_type);
  _agui_json_doc_set_string (object, "reason", reason);
  _agui_json_doc_set_int (object, "count", count);
  _agui_record_add_note (record, &note, replace);
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
  return branch == self->active ? self->records->len : _agui_json_doc_get_length (branch->messages);
}

static const char *
branch_id_at (AguiTranscript *self,
              Branch         *branch,
              guint           position)
{
  if (branch == self->active)
    return ((AguiRecord *) g_ptr_array_index (self->records, position))->id;

  return _agui_json_doc_get_string (_agui_json_doc_get_element (branch->messages, position), "id");
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

  if (message_id == NULL || !(record = _agui_transcript_find_record (self, message_id)))
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

      if (_agui_record_get_row (record) != NULL)
        for (guint r = 0; r < self->rows->len; r++)
          if (g_ptr_array_index (self->rows, r) == _agui_record_get_row (record))
            {
              first_row = r;
              break;
            }
    }

  g_ptr_array_set_size (self->records, keep);
  _agui_transcript_clear_indexes (self);
  for (guint i = 0; i < self->records->len; i++)
    _agui_transcript_index_record (self, g_ptr_array_index (self->records, i));

  if (first_row < n_rows)
    {
      g_ptr_array_set_size (self->rows, first_row);
      _agui_transcript_items_changed (self, first_row, n_rows - first_row, 0);
    }
}

static void
append_messages (AguiTranscript *self,
                 AguiJsonValue  *messages,
                 guint           from)
{
  guint n_rows = self->rows->len;

  for (guint i = from; i < _agui_json_doc_get_length (messages); i++)
    {
      AguiRecord *record = _agui_record_new_from_value (_agui_json_doc_get_element (messages, i));

      /* The branch was written by this transcript; a record it cannot
       * read back would have been refused when the branch was made. */
      if (record == NULL)
        continue;

      g_ptr_array_add (self->records, record);
      _agui_transcript_index_record (self, record);
      _agui_transcript_link_tool_result (self, record);
      _agui_transcript_place_record (self->rows, record);
    }
  _agui_transcript_update_approvals (self, NULL);

  if (self->rows->len != n_rows)
    {
      _agui_transcript_items_changed (self, n_rows, 0, self->rows->len - n_rows);
    }
}

static void
store_active (AguiTranscript *self)
{
  AguiJsonDocArray *messages;

  g_clear_pointer (&self->active->messages, _agui_json_doc_value_free);
  g_clear_pointer (&self->active->state, _agui_json_doc_value_free);
  g_clear_pointer (&self->active->run_state, agui_run_state_unref);
  /* Kept as the tree the records project to: json-glib's is made only
   * for a caller of agui_transcript_dup_branch_messages () */
  self->active->messages = g_new0 (AguiJsonValue, 1);
  messages = _agui_json_value_set_array (self->active->messages, self->records->len);
  for (guint i = 0; i < self->records->len; i++)
    {
      AguiJsonValue message = AGUI_JSON_VALUE_INIT;

      _agui_record_to_message_value (g_ptr_array_index (self->records, i), TRUE, &message);
      _agui_json_array_insert (messages, i, &message);
    }
  self->active->state = _agui_json_doc_value_dup (&self->state_doc);
  self->active->run_state = agui_run_state_ref (self->run_state);
}

static void times_from_marks (AguiTranscript *self,
                              guint           from);

static void
activate (AguiTranscript *self,
          Branch         *branch,
          guint           from)
{
  g_autoptr(AguiJsonValue) messages = g_steal_pointer (&branch->messages);
  g_autoptr(AguiJsonValue) state = g_steal_pointer (&branch->state);
  g_autoptr(AguiRunState) run_state = g_steal_pointer (&branch->run_state);

  store_active (self);
  self->active = branch;
  branch->recency = ++self->recency;

  truncate_records (self, from);
  append_messages (self, messages, from);
  if (state != NULL)
    _agui_transcript_take_state_value (self, state);
  if (run_state == NULL)
    run_state = _agui_run_state_new_idle ();
  _agui_transcript_set_run_state (self, run_state);
  times_from_marks (self, from);
}

/**
 * agui_transcript_get_branch_position:
 * @self: a transcript
 * @message_id: the id of a row ([property@Agui.SpeakerTurn:id])
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
 * @message_id: the id of a row ([property@Agui.SpeakerTurn:id])
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
  AguiRecord *record;

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), 0);

  /* by id alone: each row asks, and its position would be a scan */
  if (message_id == NULL || !(record = _agui_transcript_find_record (self, message_id)))
    return 0;

  return record->time;
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

  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (index < self->branches->len, NULL);

  branch = g_ptr_array_index (self->branches, index);
  if (branch == self->active)
    return agui_transcript_to_messages (self, TRUE);

  node = _agui_json_value_to_node (branch->messages);
  return json_array_ref (json_node_get_array (node));
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
  branch = _agui_transcript_branch_new ();
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
chain_marks (GHashTable       *by_id,
             AguiTurnSnapshot *leaf)
{
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  GArray *marks = _agui_transcript_marks_new ();

  /* Walks up the parents; a loop (a damaged store) stops at the first
   * snapshot seen twice. */
  for (AguiTurnSnapshot *snapshot = leaf; snapshot != NULL && chain->len <= g_hash_table_size (by_id);
       snapshot = g_hash_table_lookup (by_id, snapshot->parent_id ?: ""))
    g_ptr_array_insert (chain, 0, snapshot);

  for (guint i = 0; i < chain->len; i++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (chain, i);
      TurnMark mark = {
        g_strdup (snapshot->id),
        g_strdup (snapshot->run_id),
        (guint) MAX (snapshot->turn_index, 0),
        snapshot->n_messages,
        snapshot->created_at,
      };

      g_array_append_val (marks, mark);
    }

  return marks;
}

/* How a stored branch's last turn ended, as far as its snapshot says */
static AguiRunState *
leaf_run_state (AguiTurnSnapshot *leaf)
{
  AguiStage stage = AGUI_STAGE_AGENT;

  if (g_strcmp0 (leaf->status, "FAILED") != 0)
    return NULL;

  for (AguiStage s = AGUI_STAGE_CLIENT; s <= AGUI_STAGE_AGENT; s++)
    if (g_strcmp0 (agui_stage_to_string (s), leaf->finish_reason) == 0)
      stage = s;

  return _agui_run_state_new_failed (leaf->thread_id ?: "", leaf->run_id ?: "", leaf->error ?: "", NULL, stage);
}

/* Rebuilds the branches of a thread that forked from its stored
 * snapshots (in turn order): each snapshot nothing chains to ends a
 * branch. The transcript holds the thread as its log replays, every
 * branch one after the other; the chosen branch's messages and state
 * replace that. */
void
_agui_transcript_restore_branches (AguiTranscript *self,
                                   GPtrArray      *snapshots,
                                   const char     *chosen_id)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) parents = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) leaves = g_ptr_array_new ();
  Branch *chosen = NULL;
  AguiTurnSnapshot *chosen_leaf = NULL;
  Branch *replayed;

  for (guint i = 0; i < snapshots->len; i++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i);

      if (snapshot->id == NULL)
        continue;
      g_hash_table_insert (by_id, snapshot->id, snapshot);
      if (snapshot->parent_id != NULL)
        g_hash_table_add (parents, snapshot->parent_id);
    }

  for (guint i = 0; i < snapshots->len; i++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i);

      if (snapshot->id != NULL && g_hash_table_lookup (by_id, snapshot->id) == snapshot &&
          !g_hash_table_contains (parents, snapshot->id))
        g_ptr_array_add (leaves, snapshot);
    }

  /* Even one branch replaces the log: the store counted more than one,
   * and the log replays them all, one after the other; the others'
   * ends could not be read. */
  if (leaves->len == 0)
    return;

  replayed = self->active;
  for (guint i = 0; i < leaves->len; i++)
    {
      AguiTurnSnapshot *leaf = g_ptr_array_index (leaves, i);
      Branch *branch = _agui_transcript_branch_new ();

      g_array_unref (branch->marks);
      branch->marks = chain_marks (by_id, leaf);
      branch->messages = _agui_json_doc_value_dup (&leaf->messages);
      if (branch->messages->kind != AGUI_JSON_DOC_ARRAY)
        _agui_json_value_set_array (branch->messages, 0);
      branch->run_state = leaf_run_state (leaf);
      branch->state = _agui_json_doc_value_dup (&leaf->state);
      branch->recency = ++self->recency;
      g_ptr_array_add (self->branches, branch);
      if (g_strcmp0 (leaf->id, chosen_id) == 0 || (chosen == NULL && i == leaves->len - 1))
        {
          chosen = branch;
          chosen_leaf = leaf;
        }
    }

  /* The replayed log runs the branches one after the other, which is
   * none of them: the chosen branch's own snapshot says what it holds,
   * and a failure the log ended on may be another branch's. */
  if (agui_run_state_get_status (self->run_state) == AGUI_RUN_FAILED &&
      g_strcmp0 (chosen_leaf->status, "COMPLETED") == 0)
    {
      g_autoptr(AguiRunState) idle = _agui_run_state_new_idle ();

      _agui_transcript_set_run_state (self, idle);
    }
  self->active = chosen;
  chosen->recency = ++self->recency;
  g_ptr_array_remove (self->branches, replayed);
  {
    g_autoptr(AguiJsonValue) messages = g_steal_pointer (&chosen->messages);
    g_autoptr(AguiJsonValue) state = g_steal_pointer (&chosen->state);

    truncate_records (self, 0);
    append_messages (self, messages, 0);
    _agui_transcript_take_state_value (self, state);
  }
  times_from_marks (self, 0);
}
