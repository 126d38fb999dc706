/* agui-activity-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-activity-part-private.h"
#include "agui-json-doc-private.h"
#include "agui-part-private.h"
#include "agui-util-private.h"

/**
 * AguiActivityPart:
 *
 * Structured progress an agent shows while it works (a plan, a search):
 * a producer-defined type and a JSON object, replaced by snapshots and
 * patched by deltas. Activities hold a place in the transcript but are
 * never sent back to the agent.
 */
struct _AguiActivityPart
{
  AguiPart       parent_instance;
  char          *activity_type;
  /* The content is patched in a compact tree, as the shared state is; the
   * JsonNode agui_activity_part_get_content () hands out is built from it
   * on demand and kept until the content next changes. */
  AguiJsonValue  content;
  JsonNode      *content_node;
  gsize          content_size;  /* as the patches keep it (agui-json-doc-private.h) */
  guint          has_content : 1;
};

G_DEFINE_FINAL_TYPE (AguiActivityPart, agui_activity_part, AGUI_TYPE_PART)

enum {
  PROP_0,
  PROP_ACTIVITY_TYPE,
  PROP_CONTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_activity_part_finalize (GObject *object)
{
  AguiActivityPart *self = AGUI_ACTIVITY_PART (object);

  g_clear_pointer (&self->activity_type, g_free);
  _agui_json_value_clear (&self->content);
  g_clear_pointer (&self->content_node, json_node_unref);

  G_OBJECT_CLASS (agui_activity_part_parent_class)->finalize (object);
}

static void
agui_activity_part_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AguiActivityPart *self = AGUI_ACTIVITY_PART (object);

  switch (prop_id)
    {
    case PROP_ACTIVITY_TYPE:
      g_value_set_string (value, self->activity_type);
      break;

    case PROP_CONTENT:
      g_value_set_boxed (value, agui_activity_part_get_content (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_activity_part_class_init (AguiActivityPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_activity_part_finalize;
  object_class->get_property = agui_activity_part_get_property;

  properties[PROP_ACTIVITY_TYPE] =
    g_param_spec_string ("activity-type", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CONTENT] =
    g_param_spec_boxed ("content", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_activity_part_init (AguiActivityPart *self)
{
}

AguiActivityPart *
_agui_activity_part_new (const char *message_id)
{
  AguiActivityPart *self = g_object_new (AGUI_TYPE_ACTIVITY_PART, NULL);

  _agui_part_set_message_id (AGUI_PART (self), message_id);

  return self;
}

/**
 * agui_activity_part_get_activity_type:
 * @self: an activity part
 *
 * Returns: (nullable): the producer-defined kind of activity
 */
const char *
agui_activity_part_get_activity_type (AguiActivityPart *self)
{
  g_return_val_if_fail (AGUI_IS_ACTIVITY_PART (self), NULL);

  return self->activity_type;
}

/**
 * agui_activity_part_get_content:
 * @self: an activity part
 *
 * The content as a json-glib tree, which must not be modified. The first
 * call after the content changed builds it, in O(size of the content);
 * later calls return the same node until the content changes again (after
 * which the node returned before no longer follows it), as
 * agui_transcript_get_state() does.
 *
 * Returns: (transfer none) (nullable): the activity's JSON object
 */
JsonNode *
agui_activity_part_get_content (AguiActivityPart *self)
{
  g_return_val_if_fail (AGUI_IS_ACTIVITY_PART (self), NULL);

  if (self->has_content && self->content_node == NULL)
    self->content_node = _agui_json_value_to_node (&self->content);

  return self->content_node;
}

void
_agui_activity_part_set_activity_type (AguiActivityPart *self,
                                       const char       *activity_type)
{
  g_return_if_fail (AGUI_IS_ACTIVITY_PART (self));

  if (_agui_set_str (&self->activity_type, activity_type))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVITY_TYPE]);
}

/* The content was replaced: its size measured again, its node dropped. */
static void
content_replaced (AguiActivityPart *self)
{
  self->content_size = 0;
  _agui_json_value_measure (&self->content, AGUI_JSON_MAX_DEPTH, &self->content_size);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
}

/* Copies @content (NULL: none) into the part's tree, in O(its size). */
void
_agui_activity_part_set_content (AguiActivityPart *self,
                                 JsonNode         *content)
{
  g_return_if_fail (AGUI_IS_ACTIVITY_PART (self));

  g_clear_pointer (&self->content_node, json_node_unref);
  _agui_json_value_clear (&self->content);
  self->has_content = content != NULL;
  if (content != NULL)
    _agui_json_value_set_node (&self->content, content);
  content_replaced (self);
}

void
_agui_activity_part_take_content (AguiActivityPart *self,
                                  AguiJsonValue    *content)
{
  g_return_if_fail (AGUI_IS_ACTIVITY_PART (self));

  g_clear_pointer (&self->content_node, json_node_unref);
  self->has_content = content != NULL;
  if (content != NULL)
    _agui_json_value_move (&self->content, content);
  else
    _agui_json_value_clear (&self->content);
  content_replaced (self);
}

/* The node a getter built, shared as json_node_copy () shares it, when
 * there is one; otherwise built from the tree for this caller alone, so
 * that a projection does not keep a second copy of the content alive. */
JsonNode *
_agui_activity_part_dup_content (AguiActivityPart *self)
{
  if (!self->has_content)
    return NULL;

  if (self->content_node != NULL)
    return json_node_copy (self->content_node);

  return _agui_json_value_to_node (&self->content);
}

/* The content's tree for a projection to copy or print, NULL for none */
const AguiJsonValue *
_agui_activity_part_peek_content (AguiActivityPart *self)
{
  return self->has_content ? &self->content : NULL;
}

/* For patching in place; the caller then calls
 * _agui_activity_part_content_changed(). */
AguiJsonValue *
_agui_activity_part_get_content_doc (AguiActivityPart *self)
{
  return &self->content;
}

gsize *
_agui_activity_part_get_content_size (AguiActivityPart *self)
{
  return &self->content_size;
}

void
_agui_activity_part_content_changed (AguiActivityPart *self)
{
  g_clear_pointer (&self->content_node, json_node_unref);
  self->has_content = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
}
