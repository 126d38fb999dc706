/* agui-transcript.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-activity-part-private.h"
#include "agui-event-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-media-part-private.h"
#include "agui-interrupt-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-doc-node-private.h"
#include "agui-speaker-turn-private.h"
#include "agui-part-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-run-state-private.h"
#include "agui-subagent-run-private.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"
#include "agui-util-private.h"

/**
 * AguiTranscript:
 *
 * A thread's conversation as a [iface@Gio.ListModel] of
 * [class@Agui.SpeakerTurn], together with everything else a run changes: the
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

static GDateTime *
interrupt_dup_expiry (const AguiJsonValue *interrupt)
{
  const char *expires_at = _agui_json_doc_get_string (interrupt, "expiresAt");

  /* An unparseable expiresAt never expires, as the protocol says */
  return expires_at != NULL ? g_date_time_new_from_iso8601 (expires_at, NULL) : NULL;
}

static gboolean
interrupt_expired (const AguiJsonValue *interrupt,
                   GDateTime           *now)
{
  g_autoptr(GDateTime) expiry = interrupt_dup_expiry (interrupt);

  return expiry != NULL && g_date_time_compare (expiry, now) <= 0;
}

static gboolean
on_expiry_cb (gpointer user_data)
{
  AguiTranscript *self = AGUI_TRANSCRIPT (user_data);

  self->expiry_source_id = 0;
  _agui_transcript_update_approvals (self, NULL);
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

  for (guint i = 0; i < _agui_json_doc_get_length (&self->pending_interrupts); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (&self->pending_interrupts, i);
      g_autoptr(GDateTime) expiry = NULL;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      expiry = interrupt_dup_expiry (element);
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

void
_agui_transcript_update_approvals (AguiTranscript      *self,
                                   const AguiJsonValue *previous)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  /* Calls that an interrupt named stop waiting for approval... */
  for (guint i = 0; i < _agui_json_doc_get_length (previous); i++)
    {
      const char *tool_call_id = _agui_json_doc_get_string (_agui_json_doc_get_element (previous, i), "toolCallId");
      AguiToolCallPart *part = _agui_transcript_find_tool_call (self, tool_call_id, NULL);

      if (part != NULL)
        _agui_tool_call_part_set_awaiting_approval (part, FALSE);
    }

  /* ...and the ones the current interrupts name wait for it, unless
   * its time is up. */
  for (guint i = 0; i < _agui_json_doc_get_length (&self->pending_interrupts); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (&self->pending_interrupts, i);
      const char *tool_call_id = _agui_json_doc_get_string (element, "toolCallId");
      AguiToolCallPart *part = _agui_transcript_find_tool_call (self, tool_call_id, NULL);

      if (part != NULL)
        {
          _agui_tool_call_part_set_awaiting_approval (part, TRUE);
          _agui_tool_call_part_set_question_expired (part, interrupt_expired (element, now));
        }
    }

  schedule_expiry (self, now);
}

/* The text a tool answered with, for display: the content itself, or the
 * text parts of a multimodal answer. */
static char *
content_to_text (const AguiJsonValue *content)
{
  GString *text;
  AguiJsonDocArray *array;
  guint length;

  if (_agui_json_value_is_string (content))
    return g_strdup (_agui_json_value_get_string (content));

  if (content->kind != AGUI_JSON_DOC_ARRAY)
    return NULL;

  text = g_string_new (NULL);
  array = content->u.array;
  length = _agui_json_array_get_length (array);
  for (guint i = 0; i < length; i++)
    {
      AguiJsonValue *element = _agui_json_array_get (array, i);
      AguiJsonValue *member;
      const char *piece;
      int slot;

      if (element->kind != AGUI_JSON_DOC_OBJECT ||
          (slot = _agui_json_object_find (element->u.object, "text")) < 0)
        continue;

      member = _agui_json_object_slot_value (element->u.object, slot);
      if (!_agui_json_value_is_string (member))
        continue;
      piece = _agui_json_value_get_string (member);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, piece);
    }

  return g_string_free (text, FALSE);
}

/* Indexes */

static const char *
record_key (gconstpointer item)
{
  return ((const AguiRecord *) item)->id;
}

static const char *
tool_call_key (gconstpointer item)
{
  return agui_tool_call_part_get_tool_call_id ((AguiToolCallPart *) item);
}

void
_agui_transcript_clear_indexes (AguiTranscript *self)
{
  gpointer *slot;
  guint position = 0;

  /* A call stays alive while its slot holds it, as a caller of
   * agui_transcript_lookup_tool_call () may rely on */
  while ((slot = _agui_id_index_next (&self->tool_calls_by_id, &position)))
    g_object_unref (slot[TOOL_CALL_SLOT_PART]);

  _agui_id_index_clear (&self->tool_calls_by_id);
  _agui_id_index_clear (&self->records_by_id);
  self->last_call = NULL;
  self->last_call_record = NULL;
}

/* The call @record holds under its own id: its first call, when that
 * has the record's id (see tool_calls_by_id) */
static AguiToolCallPart *
own_call (AguiRecord *record)
{
  if (record->role != AGUI_ROLE_ASSISTANT || record->id == NULL)
    return NULL;

  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    {
      AguiPart *part = _agui_record_part (record, i);

      /* Both ids are from _agui_id_new (), which shares an id asked
       * for close together but does not intern it: mostly the same
       * string, which spares the comparison, not always. */
      if (AGUI_IS_TOOL_CALL_PART (part))
        {
          const char *call_id = agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (part));

          return call_id == record->id || g_strcmp0 (call_id, record->id) == 0
                 ? AGUI_TOOL_CALL_PART (part) : NULL;
        }
    }

  return NULL;
}

AguiToolCallPart *
_agui_transcript_find_tool_call (AguiTranscript  *self,
                                 const char      *tool_call_id,
                                 AguiRecord     **record)
{
  AguiToolCallPart *call = NULL;
  AguiRecord *holder = NULL;
  gpointer *slot;
  guint hash;

  if (tool_call_id == NULL)
    goto out;

  if (self->last_call != NULL &&
      strcmp (agui_tool_call_part_get_tool_call_id (self->last_call), tool_call_id) == 0)
    {
      call = self->last_call;
      holder = self->last_call_record;
      goto out;
    }

  /* one hash for both tables: the lookups of a long run's calls are
   * mostly of calls without a slot */
  hash = _agui_id_index_hash (tool_call_id);
  if ((slot = _agui_id_index_lookup_hashed (&self->tool_calls_by_id, tool_call_id, hash)) != NULL)
    {
      call = slot[TOOL_CALL_SLOT_PART];
      holder = slot[TOOL_CALL_SLOT_RECORD];
    }
  else if ((slot = _agui_id_index_lookup_hashed (&self->records_by_id, tool_call_id, hash)) != NULL &&
           (call = own_call (slot[0])) != NULL)
    {
      holder = slot[0];
    }

  if (call != NULL)
    {
      self->last_call = call;
      self->last_call_record = holder;
    }

out:
  if (record != NULL)
    *record = holder;

  return call;
}

void
_agui_transcript_index_tool_call (AguiTranscript   *self,
                                  AguiRecord       *record,
                                  AguiToolCallPart *part)
{
  const char *id = agui_tool_call_part_get_tool_call_id (part);
  gpointer *slot;

  /* The first holder is found, as ever: with a slot, or through its
   * record (@part itself, when it is its record's own call), whose own
   * call does not change while the record is the first of its id (parts
   * are only appended, or all cleared after
   * _agui_transcript_keep_own_call ()) */
  if (id == NULL || _agui_transcript_find_tool_call (self, id, NULL) != NULL)
    return;

  slot = _agui_id_index_insert (&self->tool_calls_by_id, id);
  slot[TOOL_CALL_SLOT_PART] = g_object_ref (part);
  slot[TOOL_CALL_SLOT_RECORD] = record;
}

void
_agui_transcript_keep_own_call (AguiTranscript *self,
                                AguiRecord     *record)
{
  AguiToolCallPart *call;
  gpointer *slot;

  if (record->id == NULL ||
      _agui_transcript_find_record (self, record->id) != record ||
      (call = own_call (record)) == NULL ||
      _agui_id_index_lookup (&self->tool_calls_by_id, record->id) != NULL)
    return;

  slot = _agui_id_index_insert (&self->tool_calls_by_id, record->id);
  slot[TOOL_CALL_SLOT_PART] = g_object_ref (call);
  slot[TOOL_CALL_SLOT_RECORD] = record;
}

void
_agui_transcript_index_record (AguiTranscript *self,
                               AguiRecord     *record)
{
  if (record->id != NULL)
    {
      gpointer *slot = _agui_id_index_insert (&self->records_by_id, record->id);

      if (slot[0] == NULL)
        slot[0] = record;
    }

  if (record->role == AGUI_ROLE_ASSISTANT)
    {
      for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
        {
          AguiPart *part = _agui_record_part (record, i);

          if (AGUI_IS_TOOL_CALL_PART (part))
            _agui_transcript_index_tool_call (self, record, AGUI_TOOL_CALL_PART (part));
        }
    }
}

void
_agui_transcript_link_tool_result (AguiTranscript *self,
                                   AguiRecord     *record)
{
  const AguiJsonValue *content;
  AguiToolCallPart *part;
  g_autofree char *text = NULL;

  if (record->role != AGUI_ROLE_TOOL || _agui_record_get_tool_call_id (record) == NULL)
    return;

  part = _agui_transcript_find_tool_call (self, _agui_record_get_tool_call_id (record), NULL);
  if (part == NULL)
    return;

  /* A text answer is lent to the call; parts are made text for it */
  content = _agui_record_get_content (record);
  if (content != NULL && _agui_json_value_is_string (content))
    {
      _agui_record_lend_result (record, part);
      return;
    }

  text = content != NULL ? content_to_text (content) : NULL;
  _agui_tool_call_part_set_result (part, text, RECORD_GET (record, error));
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
gboolean
_agui_transcript_place_record (GPtrArray  *rows,
                               AguiRecord *record)
{
  AguiSpeakerTurn *last = rows->len > 0 ? g_ptr_array_index (rows, rows->len - 1) : NULL;
  gboolean appended = FALSE;

  /* a tool record holds its call's id where another holds its row */
  if (record->role == AGUI_ROLE_TOOL)
    return FALSE;

  if (role_has_own_row (record->role) ||
      last == NULL || agui_speaker_turn_get_role (last) != AGUI_ROLE_ASSISTANT)
    {
      AguiRole row_role = role_has_own_row (record->role) ? record->role : AGUI_ROLE_ASSISTANT;

      last = _agui_speaker_turn_new (record->id, row_role, RECORD_GET (record, name));
      g_ptr_array_add (rows, last);
      appended = TRUE;
    }

  record->held.row = last;
  for (guint i = 0; i < _agui_record_get_n_parts (record); i++)
    _agui_speaker_turn_append_part (last, _agui_record_part (record, i));

  return appended;
}

/* Rebuilding */

void
_agui_transcript_rebuild (AguiTranscript *self)
{
  g_autoptr(GPtrArray) old_rows = NULL;
  guint old_n;

  _agui_transcript_clear_indexes (self);
  for (guint i = 0; i < self->records->len; i++)
    _agui_transcript_index_record (self, g_ptr_array_index (self->records, i));
  for (guint i = 0; i < self->records->len; i++)
    _agui_transcript_link_tool_result (self, g_ptr_array_index (self->records, i));
  _agui_transcript_update_approvals (self, NULL);

  old_rows = g_steal_pointer (&self->rows);
  old_n = old_rows->len;
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->records->len; i++)
    _agui_transcript_place_record (self->rows, g_ptr_array_index (self->records, i));

  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, self->rows->len);
  if (old_n != self->rows->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

void
_agui_transcript_items_changed (AguiTranscript *self,
                                guint           position,
                                guint           removed,
                                guint           added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* Branches: their turn marks (the branches themselves are
 * agui-transcript-branches.c) */

static void
turn_mark_clear (TurnMark *mark)
{
  g_free (mark->snapshot_id);
  g_free (mark->run_id);
}

GArray *
_agui_transcript_marks_new (void)
{
  GArray *marks = g_array_new (FALSE, TRUE, sizeof (TurnMark));

  g_array_set_clear_func (marks, (GDestroyNotify) turn_mark_clear);

  return marks;
}

Branch *
_agui_transcript_branch_new (void)
{
  Branch *branch = g_new0 (Branch, 1);

  branch->marks = _agui_transcript_marks_new ();

  return branch;
}

void
_agui_transcript_branch_free (Branch *branch)
{
  g_clear_pointer (&branch->messages, _agui_json_doc_value_free);
  g_clear_pointer (&branch->state, _agui_json_doc_value_free);
  g_clear_pointer (&branch->run_state, agui_run_state_unref);
  g_array_unref (branch->marks);
  g_free (branch);
}

/* GListModel */

static GType
agui_transcript_get_item_type (GListModel *model)
{
  return AGUI_TYPE_SPEAKER_TURN;
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
  _agui_transcript_clear_indexes (self);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->state, json_node_unref);
  _agui_json_value_clear (&self->state_doc);
  g_clear_pointer (&self->state_error, g_free);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  g_clear_pointer (&self->run_state, agui_run_state_unref);
  g_clear_handle_id (&self->expiry_source_id, g_source_remove);
  _agui_json_value_clear (&self->pending_interrupts);
  g_clear_pointer (&self->pending_interrupts_node, json_node_unref);
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
  _agui_id_index_init (&self->records_by_id, 1, record_key);
  _agui_id_index_init (&self->tool_calls_by_id, TOOL_CALL_SLOT_WIDTH, tool_call_key);
  _agui_json_value_set_object (&self->state_doc, 0);
  self->state_size = 2;
  self->run_state = _agui_run_state_new_idle ();
  _agui_json_value_set_array (&self->pending_interrupts, 0);
  self->interrupts = g_list_store_new (AGUI_TYPE_INTERRUPT);
  self->steps = g_new0 (char *, 1);
  g_queue_init (&self->step_order);
  self->steps_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_queue_free);
  self->subagents = g_list_store_new (AGUI_TYPE_SUBAGENT_RUN);
  self->subagent_positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->branches = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_transcript_branch_free);
  self->active = _agui_transcript_branch_new ();
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

const AguiJsonValue *
_agui_transcript_get_pending_interrupts_value (AguiTranscript *self)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);

  return &self->pending_interrupts;
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

  return json_node_get_array (_agui_json_value_ensure_node (&self->pending_interrupts,
                                                            &self->pending_interrupts_node));
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
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  return _agui_transcript_find_tool_call (self, tool_call_id, NULL);
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
      g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;

      /* projected as a tree, as everything inside the library reads it,
       * and turned into json-glib's only here, for the caller */
      if (include_activity)
        _agui_record_to_message_value (record, TRUE, &message);
      else if (!_agui_record_to_input_message_value (record, &message))
        continue;

      json_array_add_element (messages, _agui_json_value_to_node (&message));
    }

  return messages;
}

/* The AG-UI message of record @index, activity included, as
 * agui_transcript_to_messages (self, TRUE) has it */
void
_agui_transcript_get_record_message (AguiTranscript *self,
                                     guint           index,
                                     AguiJsonValue  *message)
{
  g_return_if_fail (index < self->records->len);

  _agui_record_to_message_value (g_ptr_array_index (self->records, index), TRUE, message);
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
  _agui_transcript_rebuild (self);

  return TRUE;
}

/* Takes @value; @node, when given, is its json-glib view, kept. */
static void
set_state (AguiTranscript *self,
           AguiJsonValue  *value,
           JsonNode       *node)
{
  g_clear_pointer (&self->state, json_node_unref);
  self->state = node;
  _agui_json_value_move (&self->state_doc, value);
  self->state_size = 0;
  _agui_json_value_measure (&self->state_doc, AGUI_JSON_MAX_DEPTH, &self->state_size);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  _agui_transcript_set_state_error (self, NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_STATE_DELTA]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
_agui_transcript_take_state (AguiTranscript *self,
                             JsonNode       *state)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  if (state != NULL)
    _agui_json_value_set_node (&value, state);
  set_state (self, &value, state);
}

void
_agui_transcript_take_state_value (AguiTranscript *self,
                                   AguiJsonValue  *state)
{
  set_state (self, state, NULL);
}

const AguiJsonValue *
_agui_transcript_get_state_doc (AguiTranscript *self)
{
  return &self->state_doc;
}

gsize
_agui_transcript_get_state_size (AguiTranscript *self)
{
  return self->state_size;
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

gboolean
_agui_transcript_patch_state (AguiTranscript  *self,
                              AguiEvent       *delta,
                              gsize            max_size,
                              GError         **error)
{
  AguiJsonDocBounds bounds = { .size = self->state_size, .max_size = max_size };
  const AguiPatchOp *ops;
  const AguiJsonValue *operations;
  const char *strings;
  const char *patch;
  guint n_ops;
  gboolean applied;

  /* A patch the patch reader read is applied from its operations, and
   * the event builds no JsonArray of it unless someone asks. */
  if ((ops = _agui_event_get_patch_ops (delta, &n_ops, &strings, &patch)) != NULL || n_ops > 0)
    applied = _agui_json_doc_patch_apply_ops (&self->state_doc, &bounds, ops, n_ops, strings, patch, error);
  else if ((operations = _agui_event_peek_member (delta, "delta")) != NULL &&
           operations->kind == AGUI_JSON_DOC_ARRAY)
    applied = _agui_json_doc_patch_apply (&self->state_doc, &bounds, operations, error);
  else
    applied = TRUE;  /* the patch reader's empty patch; anything but an array patches nothing */

  if (!applied)
    return FALSE;

  self->state_size = bounds.size;

  g_clear_pointer (&self->state, json_node_unref);
  g_clear_pointer (&self->last_state_delta, agui_event_unref);
  self->last_state_delta = agui_event_ref (delta);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_STATE_DELTA]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);

  return TRUE;
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

  for (guint i = 0; i < _agui_json_doc_get_length (&self->pending_interrupts); i++)
    {
      const AguiJsonValue *element = _agui_json_doc_get_element (&self->pending_interrupts, i);

      /* The verifier lets only objects through; a restored row is checked
       * as it is read. */
      if (element->kind == AGUI_JSON_DOC_OBJECT)
        g_ptr_array_add (items, _agui_interrupt_new_from_value (element));
    }

  g_list_store_splice (self->interrupts, 0, g_list_model_get_n_items (G_LIST_MODEL (self->interrupts)),
                       items->pdata, items->len);
}

/* Takes @interrupts (an array, or NULL for none), leaving it null */
static void
set_pending_interrupts (AguiTranscript *self,
                        AguiJsonValue  *interrupts)
{
  g_auto(AguiJsonValue) previous = AGUI_JSON_VALUE_INIT;

  if (_agui_json_doc_get_length (&self->pending_interrupts) == 0 &&
      _agui_json_doc_get_length (interrupts) == 0)
    return;

  _agui_json_value_move (&previous, &self->pending_interrupts);
  if (interrupts != NULL && interrupts->kind == AGUI_JSON_DOC_ARRAY)
    _agui_json_value_move (&self->pending_interrupts, interrupts);
  else
    _agui_json_value_set_array (&self->pending_interrupts, 0);
  /* a borrowed JsonArray lived until the interrupts changed, as before */
  g_clear_pointer (&self->pending_interrupts_node, json_node_unref);
  _agui_transcript_update_approvals (self, &previous);
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

      for (guint j = 0; j < _agui_record_get_n_parts (record); j++)
        {
          AguiPart *part = _agui_record_part (record, j);
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

static void
clear_steps (AguiTranscript *self)
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

static void
clear_subagents (AguiTranscript *self)
{
  guint n_items;

  if ((n_items = g_list_model_get_n_items (G_LIST_MODEL (self->subagents))) == 0)
    return;

  g_hash_table_remove_all (self->subagent_positions);
  g_list_store_splice (self->subagents, 0, n_items, NULL, 0);
}

/* The reducer's vocabulary for runs (the rest, for what streams in, is
 * in agui-transcript-messages.c) */

void
_agui_transcript_begin_run (AguiTranscript *self,
                            AguiRunState   *run_state)
{
  clear_steps (self);
  clear_subagents (self);
  _agui_transcript_set_run_state (self, run_state);
}

void
_agui_transcript_finish_run (AguiTranscript *self,
                             AguiRunState   *run_state,
                             AguiJsonValue  *interrupts)
{
  set_pending_interrupts (self, interrupts);
  _agui_transcript_set_run_state (self, run_state);
}
