/* agui-proto-decoder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-http-errors-private.h"
#include "agui-proto-decoder-private.h"
#include "agui-proto-json-private.h"
#include "agui-sse-decoder-private.h"
#include "agui-types.h"

#define PREFIX_SIZE 4

struct _AguiProtoDecoder
{
  GByteArray *buffer;
  /* where the unread part of the buffer starts: frames are handed out in
   * place, and the buffer is compacted only when a push needs room */
  gsize       start;
  gsize       max_frame_size;
  guint       n_frames;
  gboolean    failed;
};

AguiProtoDecoder *
_agui_proto_decoder_new (void)
{
  AguiProtoDecoder *self = g_new0 (AguiProtoDecoder, 1);

  self->buffer = g_byte_array_new ();
  self->max_frame_size = AGUI_SSE_DEFAULT_MAX_FRAME_SIZE;

  return self;
}

void
_agui_proto_decoder_free (AguiProtoDecoder *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->buffer);
  g_free (self);
}

void
_agui_proto_decoder_set_max_frame_size (AguiProtoDecoder *self,
                                        gsize             max_frame_size)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_frame_size > 0);

  self->max_frame_size = max_frame_size;
}

gsize
_agui_proto_decoder_get_max_frame_size (AguiProtoDecoder *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_frame_size;
}

static guint32
read_prefix (const guint8 *data)
{
  return ((guint32) data[0] << 24) | ((guint32) data[1] << 16) | ((guint32) data[2] << 8) | data[3];
}

void
_agui_proto_decoder_push (AguiProtoDecoder *self,
                          const guint8     *data,
                          gsize             length)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || length == 0);

  if (self->start > 0)
    {
      g_byte_array_remove_range (self->buffer, 0, self->start);
      self->start = 0;
    }

  g_byte_array_append (self->buffer, data, length);
}

gboolean
_agui_proto_decoder_next_frame (AguiProtoDecoder  *self,
                                const guint8     **data,
                                gsize             *length,
                                guint             *index,
                                GError           **error)
{
  gsize available;
  guint32 frame_length;

  g_return_val_if_fail (self != NULL, FALSE);

  available = self->buffer->len - self->start;
  if (self->failed || available < PREFIX_SIZE)
    return FALSE;

  /* Checked as soon as the prefix is whole, so that a broken one fails
   * before its megabytes are waited for. */
  frame_length = read_prefix (self->buffer->data + self->start);
  if (frame_length > self->max_frame_size)
    {
      self->failed = TRUE;
      g_propagate_error (error, _agui_http_error_new_proto_length (frame_length, self->max_frame_size));
      return FALSE;
    }

  if (available - PREFIX_SIZE < frame_length)
    return FALSE;

  *data = self->buffer->data + self->start + PREFIX_SIZE;
  *length = frame_length;
  *index = ++self->n_frames;
  self->start += PREFIX_SIZE + frame_length;

  return TRUE;
}

gboolean
_agui_proto_decoder_finish (AguiProtoDecoder  *self,
                            GError           **error)
{
  gsize available;

  g_return_val_if_fail (self != NULL, FALSE);

  available = self->buffer->len - self->start;
  if (available == 0 || self->failed)
    return TRUE;

  if (available < PREFIX_SIZE)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STREAM,
                   "The connection to the agent ended inside the length of binary frame %u "
                   "(%" G_GSIZE_FORMAT " of its 4 bytes), before the answer was complete; try again",
                   self->n_frames + 1, available);
      return FALSE;
    }

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_STREAM,
               "The connection to the agent ended inside binary frame %u (%" G_GSIZE_FORMAT
               " of its %u bytes), before the answer was complete; try again",
               self->n_frames + 1, available - PREFIX_SIZE,
               read_prefix (self->buffer->data + self->start));
  return FALSE;
}

AguiEvent *
_agui_proto_decoder_parse_frame (AguiEventParser  *parser,
                                 const guint8     *data,
                                 gsize             length,
                                 guint             index,
                                 GError          **error)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (parser), NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  switch (_agui_proto_event_to_value (data, length, warnings, &value, &local_error))
    {
    case AGUI_PROTO_OK:
      break;

    case AGUI_PROTO_UNKNOWN_EVENT:
      g_debug ("Dropping binary frame %u: an event kind from a later protocol", index);
      return NULL;

    case AGUI_PROTO_INVALID:
    default:
      g_set_error (error, AGUI_ERROR, local_error->code, "Binary frame %u: %s", index, local_error->message);
      return NULL;
    }

  for (guint i = 0; i < warnings->len; i++)
    g_debug ("Binary frame %u: %s", index, (const char *) g_ptr_array_index (warnings, i));

  return _agui_event_parser_parse_value (parser, &value, error);
}
