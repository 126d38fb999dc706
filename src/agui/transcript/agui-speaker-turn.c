/* agui-speaker-turn.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-enums.h"
#include "agui-reasoning-part.h"
#include "agui-speaker-turn-private.h"
#include "agui-text-part.h"
#include "agui-util-private.h"

/**
 * AguiSpeakerTurn:
 *
 * One row of a [class@Agui.Transcript]: one speaker's turn. That is
 * something the person said (or a system or developer prompt), or one
 * turn of the agent.
 *
 * An agent's turn gathers everything it produced between two things the
 * person said, in the order it produced it: reasoning, text, tool calls,
 * activities, from as many AG-UI messages and runs as it took. So a turn
 * is not an AG-UI message; those are what
 * [method@Agui.Transcript.to_messages] returns. The parts are a [iface@Gio.ListModel] of [class@Agui.Part];
 * it changes (emits `items-changed`) only when a part is added or removed,
 * while streaming text changes a part's property instead.
 */
struct _AguiSpeakerTurn
{
  GObject    parent_instance;
  char      *id;
  char      *name;
  AguiRole   role;
  GPtrArray *parts;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiSpeakerTurn, agui_speaker_turn, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_ID,
  PROP_ROLE,
  PROP_NAME,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
agui_speaker_turn_get_item_type (GListModel *model)
{
  return AGUI_TYPE_PART;
}

static guint
agui_speaker_turn_get_n_items (GListModel *model)
{
  return AGUI_SPEAKER_TURN (model)->parts->len;
}

static gpointer
agui_speaker_turn_get_item (GListModel *model,
                            guint       position)
{
  AguiSpeakerTurn *self = AGUI_SPEAKER_TURN (model);

  if (position >= self->parts->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->parts, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agui_speaker_turn_get_item_type;
  iface->get_n_items = agui_speaker_turn_get_n_items;
  iface->get_item = agui_speaker_turn_get_item;
}

static void
agui_speaker_turn_finalize (GObject *object)
{
  AguiSpeakerTurn *self = AGUI_SPEAKER_TURN (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->parts, g_ptr_array_unref);

  G_OBJECT_CLASS (agui_speaker_turn_parent_class)->finalize (object);
}

static void
agui_speaker_turn_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AguiSpeakerTurn *self = AGUI_SPEAKER_TURN (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->parts->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_speaker_turn_class_init (AguiSpeakerTurnClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_speaker_turn_finalize;
  object_class->get_property = agui_speaker_turn_get_property;

  /**
   * AguiSpeakerTurn:id:
   *
   * The id of the first AG-UI message drawn in this row.
   */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSpeakerTurn:role:
   *
   * Who speaks: %AGUI_ROLE_USER, %AGUI_ROLE_ASSISTANT (an agent turn),
   * %AGUI_ROLE_SYSTEM or %AGUI_ROLE_DEVELOPER.
   */
  properties[PROP_ROLE] =
    g_param_spec_enum ("role", NULL, NULL,
                       AGUI_TYPE_ROLE, AGUI_ROLE_ASSISTANT,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_speaker_turn_init (AguiSpeakerTurn *self)
{
  self->parts = g_ptr_array_new_with_free_func (g_object_unref);
}

AguiSpeakerTurn *
_agui_speaker_turn_new (const char *id,
                        AguiRole    role,
                        const char *name)
{
  AguiSpeakerTurn *self = g_object_new (AGUI_TYPE_SPEAKER_TURN, NULL);

  self->id = g_strdup (id);
  self->role = role;
  self->name = g_strdup (name);

  return self;
}

void
_agui_speaker_turn_append_part (AguiSpeakerTurn *self,
                                AguiPart        *part)
{
  g_return_if_fail (AGUI_IS_SPEAKER_TURN (self));
  g_return_if_fail (AGUI_IS_PART (part));

  g_ptr_array_add (self->parts, g_object_ref (part));
  g_list_model_items_changed (G_LIST_MODEL (self), self->parts->len - 1, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

void
_agui_speaker_turn_remove_part (AguiSpeakerTurn *self,
                                AguiPart        *part)
{
  guint position;

  g_return_if_fail (AGUI_IS_SPEAKER_TURN (self));

  if (!g_ptr_array_find (self->parts, part, &position))
    return;

  g_ptr_array_remove_index (self->parts, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

void
_agui_speaker_turn_set_name (AguiSpeakerTurn *self,
                             const char      *name)
{
  if (_agui_set_str (&self->name, name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

/**
 * agui_speaker_turn_get_id:
 * @self: a speaker turn
 *
 * Returns: the id of the first AG-UI message in this row
 */
const char *
agui_speaker_turn_get_id (AguiSpeakerTurn *self)
{
  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (self), NULL);

  return self->id;
}

/**
 * agui_speaker_turn_get_role:
 * @self: a speaker turn
 *
 * Returns: who speaks in this row
 */
AguiRole
agui_speaker_turn_get_role (AguiSpeakerTurn *self)
{
  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (self), AGUI_ROLE_ASSISTANT);

  return self->role;
}

/**
 * agui_speaker_turn_get_name:
 * @self: a speaker turn
 *
 * Returns: (nullable): the author's display name, if the agent gave one
 */
const char *
agui_speaker_turn_get_name (AguiSpeakerTurn *self)
{
  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (self), NULL);

  return self->name;
}

/**
 * agui_speaker_turn_get_parts:
 * @self: a speaker turn
 *
 * Returns: (transfer none): the parts, a list model of [class@Agui.Part]
 *   (the turn itself)
 */
GListModel *
agui_speaker_turn_get_parts (AguiSpeakerTurn *self)
{
  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (self), NULL);

  return G_LIST_MODEL (self);
}

/**
 * agui_speaker_turn_dup_text:
 * @self: a speaker turn
 *
 * Joins the text parts of the turn, with a blank line between parts,
 * for copying or searching.
 *
 * Returns: (transfer full): the text
 */
char *
agui_speaker_turn_dup_text (AguiSpeakerTurn *self)
{
  GString *text;

  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (self), NULL);

  text = g_string_new (NULL);
  for (guint i = 0; i < self->parts->len; i++)
    {
      AguiPart *part = g_ptr_array_index (self->parts, i);
      const char *piece = NULL;

      if (AGUI_IS_TEXT_PART (part))
        piece = agui_text_part_get_text (AGUI_TEXT_PART (part));

      if (piece == NULL || piece[0] == '\0')
        continue;

      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, piece);
    }

  return g_string_free (text, FALSE);
}
