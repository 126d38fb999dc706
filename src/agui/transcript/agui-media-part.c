/* agui-media-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-doc-access-private.h"
#include "agui-media-part-private.h"
#include "agui-part-private.h"

/**
 * AguiMediaPart:
 *
 * An image, audio clip, video or document in a multimodal message: its
 * kind, where its bytes are (inline data, a URL, or a provider's file
 * handle) and its MIME type. The part never fetches anything.
 */
struct _AguiMediaPart
{
  AguiPart  parent_instance;
  char     *kind;
  char     *source_type;
  char     *value;
  char     *mime_type;
  char     *filename;
};

G_DEFINE_FINAL_TYPE (AguiMediaPart, agui_media_part, AGUI_TYPE_PART)

enum {
  PROP_0,
  PROP_KIND,
  PROP_SOURCE_TYPE,
  PROP_VALUE,
  PROP_MIME_TYPE,
  PROP_FILENAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_media_part_finalize (GObject *object)
{
  AguiMediaPart *self = AGUI_MEDIA_PART (object);

  g_clear_pointer (&self->kind, g_free);
  g_clear_pointer (&self->source_type, g_free);
  g_clear_pointer (&self->value, g_free);
  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->filename, g_free);

  G_OBJECT_CLASS (agui_media_part_parent_class)->finalize (object);
}

static void
agui_media_part_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AguiMediaPart *self = AGUI_MEDIA_PART (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_string (value, self->kind);
      break;

    case PROP_SOURCE_TYPE:
      g_value_set_string (value, self->source_type);
      break;

    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;

    case PROP_MIME_TYPE:
      g_value_set_string (value, self->mime_type);
      break;

    case PROP_FILENAME:
      g_value_set_string (value, self->filename);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_media_part_class_init (AguiMediaPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_media_part_finalize;
  object_class->get_property = agui_media_part_get_property;

  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SOURCE_TYPE] =
    g_param_spec_string ("source-type", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_MIME_TYPE] =
    g_param_spec_string ("mime-type", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_FILENAME] =
    g_param_spec_string ("filename", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_media_part_init (AguiMediaPart *self)
{
}

AguiMediaPart *
_agui_media_part_new (const char          *message_id,
                      const AguiJsonValue *content_part)
{
  AguiMediaPart *self = g_object_new (AGUI_TYPE_MEDIA_PART, NULL);
  const AguiJsonValue *source = _agui_json_doc_get_object (content_part, "source");

  _agui_part_set_message_id (AGUI_PART (self), message_id);
  _agui_part_set_complete (AGUI_PART (self), TRUE);

  self->kind = g_strdup (_agui_json_doc_get_string (content_part, "type"));
  if (source != NULL)
    {
      self->source_type = g_strdup (_agui_json_doc_get_string (source, "type"));
      self->value = g_strdup (_agui_json_doc_get_string (source, "value"));
      self->mime_type = g_strdup (_agui_json_doc_get_string (source, "mimeType"));
    }

  /* Where the legacy binary part's filename goes (section 8), and where
   * Tandem puts the name of a file it attaches */
  self->filename = g_strdup (_agui_json_doc_get_string (_agui_json_doc_get_object (content_part, "metadata"),
                                                        "filename"));

  return self;
}

/**
 * agui_media_part_get_kind:
 * @self: a media part
 *
 * Returns: (nullable): `"image"`, `"audio"`, `"video"` or `"document"`
 */
const char *
agui_media_part_get_kind (AguiMediaPart *self)
{
  g_return_val_if_fail (AGUI_IS_MEDIA_PART (self), NULL);

  return self->kind;
}

/**
 * agui_media_part_get_source_type:
 * @self: a media part
 *
 * Returns: (nullable): `"data"`, `"url"` or `"file"`
 */
const char *
agui_media_part_get_source_type (AguiMediaPart *self)
{
  g_return_val_if_fail (AGUI_IS_MEDIA_PART (self), NULL);

  return self->source_type;
}

/**
 * agui_media_part_get_value:
 * @self: a media part
 *
 * Returns: (nullable): base64 data, a URL or a file handle, per the source type
 */
const char *
agui_media_part_get_value (AguiMediaPart *self)
{
  g_return_val_if_fail (AGUI_IS_MEDIA_PART (self), NULL);

  return self->value;
}

/**
 * agui_media_part_get_mime_type:
 * @self: a media part
 *
 * Returns: (nullable): the MIME type, when known
 */
const char *
agui_media_part_get_mime_type (AguiMediaPart *self)
{
  g_return_val_if_fail (AGUI_IS_MEDIA_PART (self), NULL);

  return self->mime_type;
}

/**
 * agui_media_part_get_filename:
 * @self: a media part
 *
 * Returns: (nullable): the file's name, from the part's `metadata.filename`
 */
const char *
agui_media_part_get_filename (AguiMediaPart *self)
{
  g_return_val_if_fail (AGUI_IS_MEDIA_PART (self), NULL);

  return self->filename;
}
