/* agui-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-enums.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-doc-node-private.h"
#include "agui-part-private.h"
#include "agui-util-private.h"

/**
 * AguiPart:
 *
 * One piece of a message as the agent produced it: text, reasoning, a tool
 * call, an activity or a media attachment.
 *
 * An assistant turn is a [class@Agui.SpeakerTurn] whose parts keep the order in
 * which they were made, so that text, a tool call and more text draw in
 * that order. Each part remembers the id of the AG-UI message it belongs
 * to, which is how the transcript projects itself back to AG-UI messages.
 */

/* A part's notes, in the compact tree, and the JsonArray the getter hands
 * out, built when first asked for: one pointer in the part, which has
 * none mostly. */
typedef struct
{
  AguiJsonValue  value;
  JsonNode      *node;
} PartNotes;

static void
part_notes_free (PartNotes *notes)
{
  _agui_json_value_clear (&notes->value);
  g_clear_pointer (&notes->node, json_node_unref);
  g_free (notes);
}

/* Packed: every tool call of a long run is a part, and GObject rounds
 * the private struct up to 16 bytes. The notes, which few parts have,
 * hang off the object's data (notes_quark) instead: with them this was
 * 32 bytes, and a call's allocation a slice size larger. */
typedef struct
{
  char        *message_id;   /* from _agui_id_new() */
  AguiAttempt  attempt : 8;
  guint        complete : 1;
  guint        attempt_end : 1;
} AguiPartPrivate;

static GQuark notes_quark;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (AguiPart, agui_part, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MESSAGE_ID,
  PROP_COMPLETE,
  PROP_ATTEMPT,
  PROP_ATTEMPT_END,
  PROP_NOTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_part_finalize (GObject *object)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (AGUI_PART (object));

  g_clear_pointer (&priv->message_id, _agui_id_release);

  G_OBJECT_CLASS (agui_part_parent_class)->finalize (object);
}

static void
agui_part_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  AguiPart *self = AGUI_PART (object);

  switch (prop_id)
    {
    case PROP_MESSAGE_ID:
      g_value_set_string (value, agui_part_get_message_id (self));
      break;

    case PROP_COMPLETE:
      g_value_set_boolean (value, agui_part_get_complete (self));
      break;

    case PROP_ATTEMPT:
      g_value_set_enum (value, agui_part_get_attempt (self));
      break;

    case PROP_ATTEMPT_END:
      g_value_set_boolean (value, agui_part_get_attempt_end (self));
      break;

    case PROP_NOTES:
      g_value_set_boxed (value, agui_part_get_notes (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_part_class_init (AguiPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  notes_quark = g_quark_from_static_string ("agui-part-notes");

  object_class->finalize = agui_part_finalize;
  object_class->get_property = agui_part_get_property;

  /**
   * AguiPart:message-id:
   *
   * The id of the AG-UI message this part belongs to.
   */
  properties[PROP_MESSAGE_ID] =
    g_param_spec_string ("message-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiPart:complete:
   *
   * Whether the part has stopped streaming.
   */
  properties[PROP_COMPLETE] =
    g_param_spec_boolean ("complete", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiPart:attempt:
   *
   * How the run this part came from ended, when it failed or the person
   * stopped it. A failed attempt's text is not given back to the agent.
   */
  properties[PROP_ATTEMPT] =
    g_param_spec_enum ("attempt", NULL, NULL, AGUI_TYPE_ATTEMPT, AGUI_ATTEMPT_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiPart:attempt-end:
   *
   * Whether this is the last part of a failed or stopped attempt: where a
   * view says "Stopped" or "Failed".
   */
  properties[PROP_ATTEMPT_END] =
    g_param_spec_boolean ("attempt-end", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiPart:notes: (type Json.Array)
   *
   * What happened after this part that belongs to the conversation
   * without being a message the agent sees, for a view to show after the
   * part: an array of objects with a `kind` member.
   *
   * - `{"kind": "run-end", "attempt": "stopped"}` (or `"failed"`): the run
   *   that followed ended before it produced anything of its own;
   * - `{"kind": "answer", "answer": …, "text": …, "interrupt": {…}}`: the
   *   person's answer to a question that is not about a tool call in the
   *   transcript; `answer` is one of `approved`, `approved-edited`,
   *   `denied`, `cancelled`, `expired`, `answered`, `text` what they typed
   *   or chose (for `answered`), `interrupt` the question as the agent
   *   sent it;
   * - `{"kind": "patch-refused", "event": "STATE_DELTA", "reason": …,
   *   "count": n}` (or `"ACTIVITY_DELTA"`, on the activity it was for):
   *   the agent's change to the shared state or to the activity was
   *   refused `count` times, `reason` saying why the last one was, so
   *   what is shown may be out of date.
   *
   * Notes are kept with the thread and restored with it.
   */
  properties[PROP_NOTES] =
    g_param_spec_boxed ("notes", NULL, NULL, JSON_TYPE_ARRAY,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_part_init (AguiPart *self)
{
}

/**
 * agui_part_get_message_id:
 * @self: a part
 *
 * Returns: (nullable): the id of the AG-UI message the part belongs to
 */
const char *
agui_part_get_message_id (AguiPart *self)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_PART (self), NULL);

  return priv->message_id;
}

/**
 * agui_part_get_complete:
 * @self: a part
 *
 * Returns: %TRUE once the part has stopped streaming
 */
gboolean
agui_part_get_complete (AguiPart *self)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_PART (self), FALSE);

  return priv->complete;
}

void
_agui_part_set_message_id (AguiPart   *self,
                           const char *message_id)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_if_fail (AGUI_IS_PART (self));

  if (_agui_set_id (&priv->message_id, message_id))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE_ID]);
}

void
_agui_part_set_complete (AguiPart *self,
                         gboolean  complete)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_if_fail (AGUI_IS_PART (self));

  complete = !!complete;
  if (priv->complete != complete)
    {
      priv->complete = complete;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPLETE]);
    }
}

/**
 * agui_part_get_attempt:
 * @self: a part
 *
 * Returns: how the run the part came from ended, if not normally
 */
AguiAttempt
agui_part_get_attempt (AguiPart *self)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_PART (self), AGUI_ATTEMPT_NONE);

  return priv->attempt;
}

/**
 * agui_part_get_attempt_end:
 * @self: a part
 *
 * Returns: whether the part is the last of a failed or stopped attempt
 */
gboolean
agui_part_get_attempt_end (AguiPart *self)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_PART (self), FALSE);

  return priv->attempt_end;
}

void
_agui_part_set_attempt (AguiPart    *self,
                        AguiAttempt  attempt,
                        gboolean     attempt_end)
{
  AguiPartPrivate *priv = agui_part_get_instance_private (self);

  g_return_if_fail (AGUI_IS_PART (self));

  attempt_end = attempt != AGUI_ATTEMPT_NONE && attempt_end;

  if (priv->attempt != attempt)
    {
      priv->attempt = attempt;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ATTEMPT]);
    }
  if (priv->attempt_end != attempt_end)
    {
      priv->attempt_end = attempt_end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ATTEMPT_END]);
    }
}

/**
 * agui_part_get_notes:
 * @self: a part
 *
 * Returns: (transfer none) (nullable): the notes that follow the part, see
 *   [property@Agui.Part:notes]
 */
JsonArray *
agui_part_get_notes (AguiPart *self)
{
  PartNotes *notes;

  g_return_val_if_fail (AGUI_IS_PART (self), NULL);

  notes = g_object_get_qdata (G_OBJECT (self), notes_quark);
  if (notes == NULL)
    return NULL;

  return json_node_get_array (_agui_json_value_ensure_node (&notes->value, &notes->node));
}

/* @notes: (nullable): an array, copied */
void
_agui_part_set_notes (AguiPart            *self,
                      const AguiJsonValue *notes)
{
  PartNotes *old;
  PartNotes *copy = NULL;

  g_return_if_fail (AGUI_IS_PART (self));

  old = g_object_get_qdata (G_OBJECT (self), notes_quark);
  if (notes == NULL ? old == NULL
                    : old != NULL && _agui_json_value_equal (&old->value, notes))
    return;

  /* copied before the old notes go: @notes may be theirs */
  if (notes != NULL)
    {
      copy = g_new0 (PartNotes, 1);
      _agui_json_value_copy (&copy->value, notes);
    }
  g_object_set_qdata_full (G_OBJECT (self), notes_quark, copy, (GDestroyNotify) part_notes_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
}
