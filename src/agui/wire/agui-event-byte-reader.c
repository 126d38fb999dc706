/* agui-event-byte-reader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-byte-reader-private.h"
#include "agui-event-parser-private.h"
#include "agui-json-private.h"
#include "agui-sse-decoder-private.h"

struct _AguiEventByteReader
{
  AguiSseDecoder               *decoder;
  AguiEventParser              *parser;
  AguiEventByteReaderEventFunc  event_func;
  AguiEventByteReaderErrorFunc  error_func;
  gpointer                      user_data;
  guint                         stopped : 1;
};

static void on_frame (const char *data,
                      gsize       length,
                      gboolean    unterminated,
                      gpointer    user_data);

AguiEventByteReader *
_agui_event_byte_reader_new (AguiEventByteReaderEventFunc event_func,
                             AguiEventByteReaderErrorFunc error_func,
                             gpointer                     user_data)
{
  AguiEventByteReader *self = g_new0 (AguiEventByteReader, 1);

  g_assert (event_func != NULL);
  g_assert (error_func != NULL);

  self->decoder = _agui_sse_decoder_new ();
  _agui_sse_decoder_set_frame_func (self->decoder, on_frame, self);
  self->parser = _agui_event_parser_new ();
  self->event_func = event_func;
  self->error_func = error_func;
  self->user_data = user_data;

  return self;
}

void
_agui_event_byte_reader_free (AguiEventByteReader *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->decoder);
  g_clear_object (&self->parser);
  g_free (self);
}

void
_agui_event_byte_reader_set_max_frame_size (AguiEventByteReader *self,
                                            gsize                max_frame_size)
{
  if (max_frame_size > 0)
    _agui_sse_decoder_set_max_frame_size (self->decoder, max_frame_size);
}

gsize
_agui_event_byte_reader_get_max_frame_size (AguiEventByteReader *self)
{
  return _agui_sse_decoder_get_max_frame_size (self->decoder);
}

gsize
_agui_event_byte_reader_get_overflow_size (AguiEventByteReader *self)
{
  return _agui_sse_decoder_get_overflow_size (self->decoder);
}

AguiEventParser *
_agui_event_byte_reader_get_parser (AguiEventByteReader *self)
{
  return self->parser;
}

/* Frames come from the decoder, which has checked they are valid UTF-8. */
static AguiEvent *
parse_frame (AguiEventByteReader  *self,
             const char           *data,
             gsize                 length,
             gboolean              unterminated,
             GError              **error)
{
  g_autoptr(GError) local_error = NULL;
  AguiEvent *event;

  if (!unterminated)
    return _agui_event_parser_parse_valid (self->parser, data, length, error);

  /* What the parser refuses outright is said as it is, not as a cut. */
  if (!_agui_json_check (data, length, AGUI_JSON_CHECK_NUMBERS | AGUI_JSON_CHECK_NUL, &local_error))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                   "Invalid event: %s", local_error->message);
      return NULL;
    }

  event = _agui_event_parser_parse_valid (self->parser, data, length, &local_error);
  if (event == NULL && local_error != NULL)
    g_set_error (error, AGUI_ERROR, AGUI_ERROR_STREAM,
                 "The connection closed in the middle of an event, after %" G_GSIZE_FORMAT
                 " bytes of it (%s)", length, local_error->message);

  return event;
}

/* Each frame is parsed and handed over as the decoder dispatches it, so
 * no frame is allocated or queued; after a stop the rest are dropped. */
static void
on_frame (const char *data,
          gsize       length,
          gboolean    unterminated,
          gpointer    user_data)
{
  AguiEventByteReader *self = user_data;
  g_autoptr(GError) error = NULL;
  AguiEvent *event;

  if (self->stopped)
    return;

  event = parse_frame (self, data, length, unterminated, &error);
  if (event != NULL)
    {
      g_autoptr(AguiEvent) before = _agui_event_parser_take_before (self->parser);

      if (before != NULL && !self->event_func (before, self->user_data))
        self->stopped = TRUE;
      if (!self->stopped && !self->event_func (event, self->user_data))
        self->stopped = TRUE;
      agui_event_unref (event);
    }
  else if (error != NULL)
    {
      self->error_func (error, self->user_data);
    }
}

gboolean
_agui_event_byte_reader_push (AguiEventByteReader  *self,
                              const guint8         *data,
                              gsize                 length,
                              GError              **error)
{
  gboolean pushed;

  if (self->stopped)
    return FALSE;

  /* Frames completed before bad bytes have been handed over already. */
  pushed = _agui_sse_decoder_push (self->decoder, data, length, error);

  return pushed && !self->stopped;
}

gboolean
_agui_event_byte_reader_finish (AguiEventByteReader  *self,
                                GError              **error)
{
  gboolean finished;

  if (self->stopped)
    return FALSE;

  finished = _agui_sse_decoder_finish (self->decoder, error);

  return finished && !self->stopped;
}
