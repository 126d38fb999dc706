/* agui-event-compactor.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-compactor-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"

/* A delta may join the previous delta of its stream (the same event type
 * and id) when every event between them is a delta of another stream.
 * The reducer only appends a delta to its own message or tool call, so
 * moving it back past other streams' deltas changes nothing; any other
 * event (a START, an END, a tool call, a state change) may change where
 * the next delta lands, so nothing joins across one. A delta carrying
 * more than its stream id, its text and a timestamp (metadata, a raw
 * event) is kept apart, since the reducer reads those members on every
 * delta; later deltas may still join it. */

typedef struct
{
  AguiEvent *event;
  GString   *delta;
} Slot;

static void
slot_clear (Slot *slot)
{
  g_clear_pointer (&slot->event, agui_event_unref);
  if (slot->delta != NULL)
    g_string_free (g_steal_pointer (&slot->delta), TRUE);
}

static const char *
stream_id_member (AguiEventType type)
{
  switch (type)
    {
    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
      return "messageId";

    case AGUI_EVENT_TOOL_CALL_ARGS:
      return "toolCallId";

    default:
      return NULL;
    }
}

static gboolean
is_plain_delta (AguiEvent  *event,
                const char *id_member)
{
  AguiEventMemberIter iter;

  for (const char *name = _agui_event_member_iter_init (&iter, event);
       name != NULL;
       name = _agui_event_member_iter_next (&iter))
    {
      if (!g_str_equal (name, "type") &&
          !g_str_equal (name, "delta") &&
          !g_str_equal (name, "timestamp") &&
          !g_str_equal (name, id_member))
        return FALSE;
    }

  return TRUE;
}

static AguiEvent *
slot_to_event (Slot *slot)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) delta = AGUI_JSON_VALUE_INIT;

  if (slot->delta == NULL)
    return agui_event_ref (slot->event);

  /* Same members in the same order, so the stored JSON reads as the
   * first delta did. */
  _agui_event_copy_tree (slot->event, &tree);
  _agui_json_value_set_string (&delta, slot->delta->str, slot->delta->len);
  _agui_json_object_set (tree.u.object, "delta", &delta);

  return _agui_event_new_tree (agui_event_get_event_type (slot->event), &tree);
}

struct _AguiEventCompactor
{
  GArray     *slots;
  /* "type:id" → the slot of the stream's last delta, while it may join */
  GHashTable *open_streams;
};

AguiEventCompactor *
_agui_event_compactor_new (void)
{
  AguiEventCompactor *self = g_new0 (AguiEventCompactor, 1);

  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  g_array_set_clear_func (self->slots, (GDestroyNotify) slot_clear);
  self->open_streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  return self;
}

void
_agui_event_compactor_free (AguiEventCompactor *self)
{
  g_clear_pointer (&self->slots, g_array_unref);
  g_clear_pointer (&self->open_streams, g_hash_table_unref);
  g_free (self);
}

void
_agui_event_compactor_add (AguiEventCompactor *self,
                           AguiEvent          *event)
{
  AguiEventType type = agui_event_get_event_type (event);
  const char *id_member = stream_id_member (type);
  const char *id = id_member ? agui_event_get_string (event, id_member) : NULL;
  const char *delta = agui_event_get_delta (event);
  Slot slot = { agui_event_ref (event), NULL };
  g_autofree char *key = NULL;
  gpointer index;

  if (id == NULL || delta == NULL)
    {
      g_array_append_val (self->slots, slot);
      g_hash_table_remove_all (self->open_streams);
      return;
    }

  key = g_strdup_printf ("%d:%s", type, id);
  if (g_hash_table_lookup_extended (self->open_streams, key, NULL, &index) &&
      is_plain_delta (event, id_member))
    {
      Slot *target = &g_array_index (self->slots, Slot, GPOINTER_TO_UINT (index));

      if (target->delta == NULL)
        target->delta = g_string_new (agui_event_get_delta (target->event));
      g_string_append (target->delta, delta);
      agui_event_unref (slot.event);
      return;
    }

  g_array_append_val (self->slots, slot);
  g_hash_table_replace (self->open_streams, g_steal_pointer (&key), GUINT_TO_POINTER (self->slots->len - 1));
}

guint
_agui_event_compactor_get_n_events (AguiEventCompactor *self)
{
  return self->slots->len;
}

AguiEvent *
_agui_event_compactor_dup_event (AguiEventCompactor *self,
                                 guint               index)
{
  g_return_val_if_fail (index < self->slots->len, NULL);

  return slot_to_event (&g_array_index (self->slots, Slot, index));
}

GPtrArray *
_agui_event_compactor_compact (GPtrArray *events)
{
  g_autoptr(AguiEventCompactor) compactor = _agui_event_compactor_new ();
  GPtrArray *compacted;
  guint n;

  g_return_val_if_fail (events != NULL, NULL);

  for (guint i = 0; i < events->len; i++)
    _agui_event_compactor_add (compactor, g_ptr_array_index (events, i));

  n = _agui_event_compactor_get_n_events (compactor);
  compacted = g_ptr_array_new_full (n, (GDestroyNotify) agui_event_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (compacted, _agui_event_compactor_dup_event (compactor, i));

  return compacted;
}
