/* agui-text-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-part-private.h"
#include "agui-text-part-private.h"

/**
 * AguiTextPart:
 *
 * Text the agent (or the person) wrote. While the agent streams, the text
 * grows one delta at a time and each delta emits one notification of
 * [property@Agui.TextPart:text]; a view appends what is new rather than
 * redrawing everything.
 */
struct _AguiTextPart
{
  AguiPart  parent_instance;
  GString  *text;
};

G_DEFINE_FINAL_TYPE (AguiTextPart, agui_text_part, AGUI_TYPE_PART)

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_text_part_finalize (GObject *object)
{
  AguiTextPart *self = AGUI_TEXT_PART (object);

  g_string_free (self->text, TRUE);

  G_OBJECT_CLASS (agui_text_part_parent_class)->finalize (object);
}

static void
agui_text_part_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AguiTextPart *self = AGUI_TEXT_PART (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text->str);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_text_part_class_init (AguiTextPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_text_part_finalize;
  object_class->get_property = agui_text_part_get_property;

  /**
   * AguiTextPart:text:
   *
   * The text so far.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_text_part_init (AguiTextPart *self)
{
  self->text = g_string_new (NULL);
}

AguiTextPart *
_agui_text_part_new (const char *message_id,
                     const char *text)
{
  AguiTextPart *self = g_object_new (AGUI_TYPE_TEXT_PART, NULL);

  _agui_part_set_message_id (AGUI_PART (self), message_id);
  if (text != NULL)
    g_string_append (self->text, text);

  return self;
}

/**
 * agui_text_part_get_text:
 * @self: a text part
 *
 * Returns: the text so far
 */
const char *
agui_text_part_get_text (AguiTextPart *self)
{
  g_return_val_if_fail (AGUI_IS_TEXT_PART (self), NULL);

  return self->text->str;
}

/**
 * agui_text_part_get_length:
 * @self: a text part
 *
 * Returns: the length of the text in bytes
 */
gsize
agui_text_part_get_length (AguiTextPart *self)
{
  g_return_val_if_fail (AGUI_IS_TEXT_PART (self), 0);

  return self->text->len;
}

void
_agui_text_part_append (AguiTextPart *self,
                        const char   *delta)
{
  g_return_if_fail (AGUI_IS_TEXT_PART (self));

  /* Empty deltas are keep-alives: nothing changed, so nothing to notify. */
  if (delta == NULL || delta[0] == '\0')
    return;

  g_string_append (self->text, delta);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

void
_agui_text_part_set_text (AguiTextPart *self,
                          const char   *text)
{
  g_return_if_fail (AGUI_IS_TEXT_PART (self));

  if (g_strcmp0 (self->text->str, text) == 0)
    return;

  g_string_assign (self->text, text ? text : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

GString *
_agui_text_part_get_buffer (AguiTextPart *self)
{
  return self->text;
}
