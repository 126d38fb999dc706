/* agui-http-framing.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-error-private.h"
#include "agui-event-stream-private.h"
#include "agui-http-errors-private.h"
#include "agui-http-framing-private.h"
#include "agui-proto-decoder-private.h"
#include "agui-sse-decoder-private.h"

G_STATIC_ASSERT (AGUI_HTTP_DEFAULT_MAX_FRAME_SIZE == AGUI_SSE_DEFAULT_MAX_FRAME_SIZE);

#define SSE_CONTENT_TYPE "text/event-stream"
#define PROTOBUF_CONTENT_TYPE AGUI_PROTO_CONTENT_TYPE

struct _AguiHttpBodyReader
{
  AguiHttpFraming   framing;
  AguiEventStream  *stream;
  AguiProtoDecoder *proto_decoder;  /* binary bodies; SSE goes through the stream */
  AguiEventParser  *parser;
  char             *content_encoding;
  guint64           body_read;      /* bytes of the (decoded) body so far */
};

const char *
_agui_http_framing_get_accept (AguiHttpEncoding encoding)
{
  return encoding == AGUI_HTTP_ENCODING_PROTOBUF ? PROTOBUF_CONTENT_TYPE : SSE_CONTENT_TYPE;
}

AguiHttpFraming
_agui_http_framing_for_response (SoupMessageHeaders *headers)
{
  g_autofree char *media_type = NULL;

  g_return_val_if_fail (headers != NULL, AGUI_HTTP_FRAMING_NONE);

  /* Parameters (charset=utf-8) and case do not matter; no Content-Type at
   * all is read as SSE, as the reference does. */
  if (soup_message_headers_get_one (headers, "Content-Type") == NULL)
    return AGUI_HTTP_FRAMING_SSE;

  media_type = g_ascii_strdown (soup_message_headers_get_content_type (headers, NULL) ?: "", -1);

  /* Whatever was asked for, as the reference reads it: an agent set to
   * SSE never gets here with a binary body unless its server ignores
   * Accept, and then the body is still understood. */
  if (g_strcmp0 (media_type, PROTOBUF_CONTENT_TYPE) == 0)
    return AGUI_HTTP_FRAMING_PROTOBUF;

  if (g_strcmp0 (media_type, SSE_CONTENT_TYPE) != 0)
    return AGUI_HTTP_FRAMING_NONE;

  return AGUI_HTTP_FRAMING_SSE;
}

AguiHttpBodyReader *
_agui_http_body_reader_new (AguiHttpFraming  framing,
                            AguiEventStream *stream,
                            gsize            max_frame_size,
                            const char      *content_encoding)
{
  AguiHttpBodyReader *self;

  g_return_val_if_fail (framing == AGUI_HTTP_FRAMING_SSE || framing == AGUI_HTTP_FRAMING_PROTOBUF, NULL);
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (stream), NULL);

  self = g_new0 (AguiHttpBodyReader, 1);
  self->framing = framing;
  self->stream = g_object_ref (stream);
  self->content_encoding = g_strdup (content_encoding);

  _agui_event_stream_set_max_frame_size (stream, max_frame_size);
  if (framing == AGUI_HTTP_FRAMING_PROTOBUF)
    {
      self->parser = _agui_event_parser_new ();
      self->proto_decoder = _agui_proto_decoder_new ();
      if (max_frame_size > 0)
        _agui_proto_decoder_set_max_frame_size (self->proto_decoder, max_frame_size);
    }

  return self;
}

void
_agui_http_body_reader_free (AguiHttpBodyReader *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->stream);
  g_clear_pointer (&self->proto_decoder, _agui_proto_decoder_free);
  g_clear_object (&self->parser);
  g_clear_pointer (&self->content_encoding, g_free);
  g_free (self);
}

/* FALSE with @error when a binary body has lost its framing. */
static gboolean
body_reader_drain_proto (AguiHttpBodyReader  *self,
                         GError             **error)
{
  const guint8 *data;
  gsize length;
  guint index;

  while (_agui_proto_decoder_next_frame (self->proto_decoder, &data, &length, &index, error))
    {
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) frame_error = NULL;

      event = _agui_proto_decoder_parse_frame (self->parser, data, length, index, &frame_error);
      if (event != NULL)
        agui_event_stream_push_event (self->stream, event);
      else if (frame_error != NULL)
        agui_event_stream_push_error (self->stream, frame_error);
    }

  return error == NULL || *error == NULL;
}

gboolean
_agui_http_body_reader_push (AguiHttpBodyReader  *self,
                             const guint8        *data,
                             gsize                length,
                             GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  gsize overflow;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->proto_decoder != NULL)
    {
      if (length > 0)
        _agui_proto_decoder_push (self->proto_decoder, data, length);

      return body_reader_drain_proto (self, error);
    }

  self->body_read += length;
  if (_agui_event_stream_push_bytes (self->stream, data, length, &local_error))
    return TRUE;

  overflow = _agui_event_stream_get_overflow_size (self->stream);

  if (local_error == NULL)
    {
      /* The consumer closed the stream. */
    }
  else if (overflow > 0)
    {
      g_propagate_error (error, _agui_http_error_new_frame_cap (overflow, TRUE,
                                                                _agui_event_stream_get_max_frame_size (self->stream)));
    }
  else if (self->content_encoding != NULL && self->body_read == length &&
           g_error_matches (local_error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME))
    {
      /* The first bytes, not text: a compressed body libsoup
       * could not decompress from its start and passed on. */
      g_propagate_error (error, _agui_http_error_new_compressed_corrupt (self->content_encoding));
    }
  else
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
    }

  return FALSE;
}

gboolean
_agui_http_body_reader_finish (AguiHttpBodyReader  *self,
                               GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->proto_decoder != NULL)
    return body_reader_drain_proto (self, error) &&
           _agui_proto_decoder_finish (self->proto_decoder, error);

  return _agui_event_stream_finish_bytes (self->stream, error);
}
