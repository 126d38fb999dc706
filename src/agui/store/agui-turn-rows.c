/* agui-turn-rows.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-compactor-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-private.h"
#include "agui-transcript-private.h"
#include "agui-turn-rows-private.h"

/* Rows are written by the checked printer, whose output always parses
 * back with _agui_json_parse(): a value that has no JSON form (too deep,
 * not finite) fails the save, never a later read. */
static char *
value_to_string (const AguiJsonValue  *value,
                 const char           *what,
                 const char           *name,
                 GError              **error)
{
  g_autoptr(GError) local_error = NULL;
  char *text;

  if (value == NULL)
    return g_strdup ("null");

  if (!(text = _agui_json_value_to_string (value, FALSE, &local_error)))
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                 "%s: the %s cannot be stored: %s", what, name, local_error->message);

  return text;
}

/* An event as value_to_string () prints its tree, without its JsonObject. */
static char *
event_to_string (AguiEvent   *event,
                 const char  *what,
                 GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;

  if (!_agui_event_append_json (event, out, &local_error))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: the event cannot be stored: %s", what, local_error->message);
      return NULL;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A turn turned into rows: plain strings, made on the caller's thread
 * (the only one that may touch its JSON) before the transaction, which
 * they keep short. Nothing changes rows once made, so a worker may read
 * them while the caller keeps a reference for a retry. */

AguiTurnRows *
_agui_turn_rows_ref (AguiTurnRows *rows)
{
  g_atomic_ref_count_inc (&rows->ref_count);
  return rows;
}

void
_agui_turn_rows_unref (AguiTurnRows *rows)
{
  if (!g_atomic_ref_count_dec (&rows->ref_count))
    return;

  g_free (rows->thread_id);
  g_free (rows->snapshot_id);
  g_free (rows->parent_id);
  g_free (rows->run_id);
  g_free (rows->finish_reason);
  g_free (rows->error);
  g_free (rows->title);
  g_free (rows->agent);
  g_clear_pointer (&rows->event_json, g_ptr_array_unref);
  g_clear_pointer (&rows->message_json, g_ptr_array_unref);
  g_clear_pointer (&rows->state, g_free);
  g_clear_pointer (&rows->interrupts, g_ptr_array_unref);
  g_strfreev (rows->journal_ids);
  g_free (rows);
}

const char *
_agui_turn_rows_get_snapshot_id (AguiTurnRows *rows)
{
  return rows->snapshot_id;
}

static gboolean
turn_rows_init (AguiTurnRows          *rows,
                const AguiTurnRecord  *turn,
                const char            *what,
                GError               **error)
{
  g_autoptr(GPtrArray) compacted = NULL;

  rows->thread_id = g_strdup (turn->thread_id);
  rows->snapshot_id = g_strdup (turn->snapshot_id);
  rows->parent_id = g_strdup (turn->parent_id);
  rows->run_id = g_strdup (turn->run_id);
  rows->turn_index = turn->turn_index;
  rows->status = turn->status;
  rows->finish_reason = g_strdup (turn->finish_reason);
  rows->error = g_strdup (turn->error);
  rows->journal_ids = g_strdupv ((GStrv) turn->journal_ids);

  rows->event_json = g_ptr_array_new_with_free_func (g_free);
  rows->interrupts = g_ptr_array_new_with_free_func (g_free);

  if (turn->events != NULL)
    {
      compacted = _agui_event_compactor_compact (turn->events);

      for (guint i = 0; i < compacted->len; i++)
        {
          char *json;

          if (!(json = event_to_string (g_ptr_array_index (compacted, i), what, error)))
            return FALSE;
          g_ptr_array_add (rows->event_json, json);
        }
    }

  rows->message_json = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < _agui_json_doc_get_length (turn->messages); i++)
    {
      g_autoptr(GString) json = g_string_new (NULL);
      g_autoptr(GError) local_error = NULL;

      /* At the depth it has in the array the messages once were */
      if (!_agui_json_value_append (json, _agui_json_doc_get_element (turn->messages, i), FALSE, 1, &local_error))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                       "%s: the messages cannot be stored: %s", what, local_error->message);
          return FALSE;
        }
      g_ptr_array_add (rows->message_json, g_string_free (g_steal_pointer (&json), FALSE));
    }

  if (!(rows->state = value_to_string (turn->state, what, "state", error)))
    return FALSE;

  for (guint i = 0; i < _agui_json_doc_get_length (turn->pending_interrupts); i++)
    {
      char *json = value_to_string (_agui_json_doc_get_element (turn->pending_interrupts, i),
                                    what, "interrupts", error);

      if (json == NULL)
        return FALSE;
      g_ptr_array_add (rows->interrupts, json);
    }

  return TRUE;
}

AguiTurnRows *
_agui_turn_rows_new_full (const AguiTurnRecord  *turn,
                          const char            *title,
                          const char            *agent,
                          const char            *what,
                          GError               **error)
{
  AguiTurnRows *rows = g_new0 (AguiTurnRows, 1);

  g_atomic_ref_count_init (&rows->ref_count);
  rows->title = g_strdup (title);
  rows->agent = g_strdup (agent);
  if (!turn_rows_init (rows, turn, what, error))
    {
      _agui_turn_rows_unref (rows);
      return NULL;
    }

  return rows;
}

AguiTurnRows *
_agui_turn_rows_new (const AguiTurnRecord  *turn,
                     const char            *title,
                     const char            *agent,
                     GError               **error)
{
  g_return_val_if_fail (turn != NULL, NULL);
  g_return_val_if_fail (turn->thread_id != NULL && turn->thread_id[0] != '\0', NULL);
  g_return_val_if_fail (turn->snapshot_id != NULL && turn->snapshot_id[0] != '\0', NULL);
  g_return_val_if_fail ((guint) turn->status <= AGUI_SNAPSHOT_ABORTED, NULL);

  return _agui_turn_rows_new_full (turn, title, agent, "Could not save the turn", error);
}


/* The builder */

typedef enum
{
  PHASE_COMPACT,
  PHASE_EVENTS,
  PHASE_MESSAGES,
  PHASE_DONE,
} Phase;

struct _AguiTurnRowsBuilder
{
  AguiTurnRows       *rows;
  GPtrArray          *events;
  AguiEventCompactor *compactor;
  AguiTranscript     *transcript;
  Phase               phase;
  guint               index;
};

#define BUILDER_WHAT "Could not save the turn"

AguiTurnRowsBuilder *
_agui_turn_rows_builder_new (const AguiTurnRecord  *turn,
                             AguiTranscript        *transcript,
                             const char            *title,
                             const char            *agent,
                             GError               **error)
{
  g_autoptr(AguiTurnRowsBuilder) self = NULL;
  AguiTurnRecord head;

  g_return_val_if_fail (turn != NULL, NULL);
  g_return_val_if_fail (turn->thread_id != NULL && turn->thread_id[0] != '\0', NULL);
  g_return_val_if_fail (turn->snapshot_id != NULL && turn->snapshot_id[0] != '\0', NULL);
  g_return_val_if_fail ((guint) turn->status <= AGUI_SNAPSHOT_ABORTED, NULL);
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (transcript), NULL);

  /* The small rows (state, interrupts) at once; the events and messages
   * later, in slices. */
  head = *turn;
  head.events = NULL;
  head.messages = NULL;

  self = g_new0 (AguiTurnRowsBuilder, 1);
  if (!(self->rows = _agui_turn_rows_new_full (&head, title, agent, BUILDER_WHAT, error)))
    return NULL;
  g_ptr_array_set_size (self->rows->message_json, 0);

  self->events = turn->events ? g_ptr_array_ref (turn->events) : g_ptr_array_new ();
  self->compactor = _agui_event_compactor_new ();
  self->transcript = g_object_ref (transcript);

  return g_steal_pointer (&self);
}

void
_agui_turn_rows_builder_free (AguiTurnRowsBuilder *self)
{
  g_clear_pointer (&self->rows, _agui_turn_rows_unref);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_clear_pointer (&self->compactor, _agui_event_compactor_free);
  g_clear_object (&self->transcript);
  g_free (self);
}

static gboolean
add_event (AguiTurnRowsBuilder  *self,
           AguiEvent            *event,
           GError              **error)
{
  char *json;

  if (!(json = event_to_string (event, BUILDER_WHAT, error)))
    return FALSE;
  g_ptr_array_add (self->rows->event_json, json);

  return TRUE;
}

/* A message printed as the element it is of the messages array, so the
 * array as a whole reads back (see _agui_json_append()) */
static gboolean
add_message (AguiTurnRowsBuilder  *self,
             const AguiJsonValue  *message,
             GError              **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GString) json = g_string_new (NULL);

  if (!_agui_json_value_append (json, message, FALSE, 1, &local_error))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE,
                   "%s: the messages cannot be stored: %s", BUILDER_WHAT, local_error->message);
      return FALSE;
    }
  g_ptr_array_add (self->rows->message_json, g_string_free (g_steal_pointer (&json), FALSE));

  return TRUE;
}

gboolean
_agui_turn_rows_builder_step (AguiTurnRowsBuilder  *self,
                              gint64                budget,
                              gboolean             *done,
                              GError              **error)
{
  gint64 deadline = g_get_monotonic_time () + budget;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (done != NULL, FALSE);

  *done = FALSE;

  /* At least one step each time, however small the budget */
  while (self->phase != PHASE_DONE)
    {
      switch (self->phase)
        {
        case PHASE_COMPACT:
          if (self->index < self->events->len)
            {
              _agui_event_compactor_add (self->compactor, g_ptr_array_index (self->events, self->index++));
              break;
            }
          self->phase = PHASE_EVENTS;
          self->index = 0;
          break;

        case PHASE_EVENTS:
          if (self->index < _agui_event_compactor_get_n_events (self->compactor))
            {
              g_autoptr(AguiEvent) event = _agui_event_compactor_dup_event (self->compactor, self->index++);

              if (!add_event (self, event, error))
                return FALSE;
              break;
            }
          self->phase = PHASE_MESSAGES;
          self->index = 0;
          break;

        case PHASE_MESSAGES:
          if (self->index < _agui_transcript_get_n_records (self->transcript))
            {
              g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;

              _agui_transcript_get_record_message (self->transcript, self->index++, &message);
              if (!add_message (self, &message, error))
                return FALSE;
              break;
            }
          self->phase = PHASE_DONE;
          break;

        case PHASE_DONE:
        default:
          g_assert_not_reached ();
        }

      if (self->phase != PHASE_DONE && g_get_monotonic_time () >= deadline)
        return TRUE;
    }

  *done = TRUE;
  return TRUE;
}

AguiTurnRows *
_agui_turn_rows_builder_end (AguiTurnRowsBuilder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->phase == PHASE_DONE, NULL);

  return g_steal_pointer (&self->rows);
}
