/* agui-reasoning-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-part-private.h"
#include "agui-reasoning-part-private.h"
#include "agui-util-private.h"

/**
 * AguiReasoningPart:
 *
 * The agent's visible reasoning. A provider may also attach an opaque
 * encrypted value that must travel back with later turns; the part then
 * reports [property@Agui.ReasoningPart:encrypted], so a view can say that
 * there is reasoning it cannot show.
 */
struct _AguiReasoningPart
{
  AguiPart  parent_instance;
  GString  *text;
  char     *encrypted_value;
};

G_DEFINE_FINAL_TYPE (AguiReasoningPart, agui_reasoning_part, AGUI_TYPE_PART)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_ENCRYPTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_reasoning_part_finalize (GObject *object)
{
  AguiReasoningPart *self = AGUI_REASONING_PART (object);

  g_string_free (self->text, TRUE);
  g_clear_pointer (&self->encrypted_value, g_free);

  G_OBJECT_CLASS (agui_reasoning_part_parent_class)->finalize (object);
}

static void
agui_reasoning_part_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AguiReasoningPart *self = AGUI_REASONING_PART (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text->str);
      break;

    case PROP_ENCRYPTED:
      g_value_set_boolean (value, self->encrypted_value != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_reasoning_part_class_init (AguiReasoningPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_reasoning_part_finalize;
  object_class->get_property = agui_reasoning_part_get_property;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ENCRYPTED] =
    g_param_spec_boolean ("encrypted", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_reasoning_part_init (AguiReasoningPart *self)
{
  self->text = g_string_new (NULL);
}

AguiReasoningPart *
_agui_reasoning_part_new (const char *message_id,
                          const char *text)
{
  AguiReasoningPart *self = g_object_new (AGUI_TYPE_REASONING_PART, NULL);

  _agui_part_set_message_id (AGUI_PART (self), message_id);
  if (text != NULL)
    g_string_append (self->text, text);

  return self;
}

/**
 * agui_reasoning_part_get_text:
 * @self: a reasoning part
 *
 * Returns: the reasoning text so far
 */
const char *
agui_reasoning_part_get_text (AguiReasoningPart *self)
{
  g_return_val_if_fail (AGUI_IS_REASONING_PART (self), NULL);

  return self->text->str;
}

/**
 * agui_reasoning_part_get_encrypted:
 * @self: a reasoning part
 *
 * Returns: %TRUE if the provider attached an encrypted value
 */
gboolean
agui_reasoning_part_get_encrypted (AguiReasoningPart *self)
{
  g_return_val_if_fail (AGUI_IS_REASONING_PART (self), FALSE);

  return self->encrypted_value != NULL;
}

/**
 * agui_reasoning_part_get_encrypted_value:
 * @self: a reasoning part
 *
 * Returns: (nullable): the opaque encrypted value
 */
const char *
agui_reasoning_part_get_encrypted_value (AguiReasoningPart *self)
{
  g_return_val_if_fail (AGUI_IS_REASONING_PART (self), NULL);

  return self->encrypted_value;
}

void
_agui_reasoning_part_append (AguiReasoningPart *self,
                             const char        *delta)
{
  g_return_if_fail (AGUI_IS_REASONING_PART (self));

  if (delta == NULL || delta[0] == '\0')
    return;

  g_string_append (self->text, delta);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

void
_agui_reasoning_part_set_encrypted_value (AguiReasoningPart *self,
                                          const char        *value)
{
  gboolean was_encrypted;

  g_return_if_fail (AGUI_IS_REASONING_PART (self));

  was_encrypted = self->encrypted_value != NULL;
  _agui_set_str (&self->encrypted_value, value);
  if (was_encrypted != (self->encrypted_value != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENCRYPTED]);
}
