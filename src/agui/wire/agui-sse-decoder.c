/* agui-sse-decoder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-sse-decoder-private.h"

/**
 * AguiSseFrame:
 *
 * One frame of a `text/event-stream` body, as dispatched by
 * [class@Agui.SseDecoder]: an immutable, reference-counted value.
 *
 * The data is the frame's `data` lines joined with a line feed. The
 * `event`, `id` and `retry` fields are those seen in this frame only;
 * each is absent (%NULL, or -1 for retry) when the frame did not carry it.
 */
struct _AguiSseFrame
{
  gatomicrefcount  ref_count;
  char            *data;
  gsize            data_length;
  char            *event;
  char            *id;
  gint64           retry;
  /* The body ended before the blank line that closes the frame. */
  gboolean         unterminated;
};

G_DEFINE_BOXED_TYPE (AguiSseFrame, _agui_sse_frame, _agui_sse_frame_ref, _agui_sse_frame_unref)

/**
 * AguiSseDecoder:
 *
 * Splits a `text/event-stream` body into [struct@Agui.SseFrame]s.
 *
 * The decoder is a plain state machine with no main loop: feed it the body
 * in whatever chunks the network delivers with [method@Agui.SseDecoder.push],
 * take the frames that became complete with
 * [method@Agui.SseDecoder.next_frame], and call
 * [method@Agui.SseDecoder.finish] when the body ends. How the body is
 * chunked never changes the frames, nor the error.
 *
 * ```c
 * g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
 * g_autoptr(GError) error = NULL;
 * AguiSseFrame *frame;
 *
 * if (!_agui_sse_decoder_push (decoder, chunk, chunk_length, &error))
 *   return fail_stream (error);
 *
 * while ((frame = _agui_sse_decoder_next_frame (decoder)) != NULL)
 *   {
 *     handle_payload (_agui_sse_frame_get_data (frame));
 *     _agui_sse_frame_unref (frame);
 *   }
 * ```
 *
 * It follows the [SSE standard](https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream)
 * rather than the narrower parser of the reference AG-UI client:
 *
 * - lines end with LF, CRLF or a lone CR, also when a CRLF is split
 *   between two pushes; one leading byte-order mark is skipped;
 * - `data` lines are joined with LF; a single space after the colon is
 *   removed; a line without a colon is a field with an empty value, so a
 *   bare `data` line is an empty data line; lines starting with a colon are
 *   comments; fields with other names are ignored;
 * - a blank line dispatches the frame. A frame with no `data` line is not
 *   dispatched, but a frame whose only data line is empty is, with empty
 *   data: the standard's data buffer then holds a line feed, which is not
 *   empty (its own example fires an event with empty data for `data` then
 *   a blank line). Skipping such a payload is the event parser's call;
 * - `retry` is kept only when it is made of ASCII digits (and fits a
 *   #gint64); an `id` holding a NUL character is ignored, as the standard
 *   says, and so is an `event` holding one, since it could not be returned
 *   as a C string.
 *
 * Where it departs from the standard, on purpose:
 *
 * - [method@Agui.SseDecoder.finish] dispatches a last frame that lacks its
 *   blank line (an unterminated last line included) where the standard
 *   drops it: servers do end bodies that way, and the reference client
 *   accepts them;
 * - `id` is reported per frame: [method@Agui.SseFrame.get_id] is the `id`
 *   field of that frame, not the standard's persistent last event ID. A
 *   caller that reconnects keeps the last non-%NULL id itself (an empty id
 *   resets it). Fields of a frame that is not dispatched are dropped;
 * - invalid UTF-8 is an %AGUI_ERROR_INVALID_FRAME error naming the byte
 *   offset in the body, where the standard would substitute U+FFFD;
 * - a single frame larger than [property@Agui.SseDecoder:max-frame-size]
 *   is an %AGUI_ERROR_INVALID_FRAME error naming the cap. A frame's size
 *   is its data so far plus the line being read, so a chunk holding many
 *   complete frames is never charged against the cap, while an
 *   unterminated line cannot grow without bound.
 *
 * After an error the stream is dead: every later push and the finish fail
 * with the same error. Frames dispatched before the failing byte are still
 * returned by [method@Agui.SseDecoder.next_frame].
 */
struct _AguiSseDecoder
{
  GObject   parent_instance;

  gsize     max_frame_size;

  /* Input: body bytes seen (the BOM included, so error offsets match the
   * wire), the line scanner's work counter, the UTF-8 validator's state. */
  guint64   offset;
  guint64   bytes_scanned;
  gsize     overflow_size;
  guint64   utf8_sequence_start;
  guint     utf8_state;
  guint     bom_matched;
  /* The body's first byte: with a next one of 0x8b, gzip's magic */
  guint8    first_byte;

  /* The frame being read: the unterminated line and the fields so far. */
  GString  *line;
  GString  *data;
  char     *event;
  char     *id;
  gint64    retry;

  GQueue    frames;
  GError   *error;

  AguiSseFrameFunc frame_func;
  gpointer  frame_func_data;

  guint     bom_checked : 1;
  guint     pending_cr : 1;
  guint     has_data : 1;
  guint     finished : 1;
};

G_DEFINE_FINAL_TYPE (AguiSseDecoder, _agui_sse_decoder, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_FRAME_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The validator's states: how many continuation bytes are still due, and
 * for four lead bytes the narrower range of the next one, which is what
 * rules out overlong forms, UTF-16 surrogates and code points above
 * U+10FFFF (RFC 3629, section 4). */
enum {
  UTF8_ACCEPT,
  UTF8_NEED_1,
  UTF8_NEED_2,
  UTF8_NEED_3,
  UTF8_AFTER_E0,
  UTF8_AFTER_ED,
  UTF8_AFTER_F0,
  UTF8_AFTER_F4,
};

/* A line buffer that grew past this is dropped rather than kept, so one
 * large frame does not pin its size for the rest of the stream. */
#define LINE_KEEP_SIZE (64 * 1024)

static const guint8 utf8_bom[] = { 0xEF, 0xBB, 0xBF };

static gboolean _agui_sse_decoder_fail (AguiSseDecoder  *self,
                                       GError         **error,
                                       const char      *format,
                                       ...) G_GNUC_PRINTF (3, 4);

static gboolean
_agui_sse_decoder_fail (AguiSseDecoder  *self,
                       GError         **error,
                       const char      *format,
                       ...)
{
  va_list args;

  g_assert (self->error == NULL);

  va_start (args, format);
  self->error = g_error_new_valist (AGUI_ERROR, AGUI_ERROR_INVALID_FRAME, format, args);
  va_end (args);

  /* The stream is dead: release what the broken frame held. */
  g_string_free (self->line, TRUE);
  self->line = g_string_new (NULL);
  g_string_free (self->data, TRUE);
  self->data = g_string_new (NULL);
  g_clear_pointer (&self->event, g_free);
  g_clear_pointer (&self->id, g_free);

  g_propagate_error (error, g_error_copy (self->error));

  return FALSE;
}

/* Returns how many leading bytes of @data are valid UTF-8 so far. A
 * sequence left open at the end counts as valid: the state carries it into
 * the next push, so each byte is looked at once. A result below @length
 * means the byte at that index breaks the encoding. */
static gsize
_agui_sse_decoder_validate_utf8 (AguiSseDecoder *self,
                                const guint8   *data,
                                gsize           length)
{
  guint state = self->utf8_state;
  gsize i;

  for (i = 0; i < length; i++)
    {
      guint8 byte;

      /* Between sequences, ASCII (nearly all of an event stream) is
       * skipped a word at a time. */
      if (state == UTF8_ACCEPT)
        {
          while (i + sizeof (guint64) <= length)
            {
              guint64 word;

              memcpy (&word, data + i, sizeof word);
              if (word & G_GUINT64_CONSTANT (0x8080808080808080))
                break;
              i += sizeof word;
            }
          if (i == length)
            break;
        }

      byte = data[i];

      if (state == UTF8_ACCEPT)
        {
          if (byte < 0x80)
            continue;

          self->utf8_sequence_start = self->offset + i;

          if (byte >= 0xC2 && byte <= 0xDF)
            state = UTF8_NEED_1;
          else if (byte == 0xE0)
            state = UTF8_AFTER_E0;
          else if (byte == 0xED)
            state = UTF8_AFTER_ED;
          else if (byte >= 0xE1 && byte <= 0xEF)
            state = UTF8_NEED_2;
          else if (byte == 0xF0)
            state = UTF8_AFTER_F0;
          else if (byte >= 0xF1 && byte <= 0xF3)
            state = UTF8_NEED_3;
          else if (byte == 0xF4)
            state = UTF8_AFTER_F4;
          else
            break;
        }
      else
        {
          guint8 low = 0x80;
          guint8 high = 0xBF;
          guint next = UTF8_ACCEPT;

          switch (state)
            {
            case UTF8_NEED_1:
              next = UTF8_ACCEPT;
              break;
            case UTF8_NEED_2:
              next = UTF8_NEED_1;
              break;
            case UTF8_NEED_3:
              next = UTF8_NEED_2;
              break;
            case UTF8_AFTER_E0:
              low = 0xA0;
              next = UTF8_NEED_1;
              break;
            case UTF8_AFTER_ED:
              high = 0x9F;
              next = UTF8_NEED_1;
              break;
            case UTF8_AFTER_F0:
              low = 0x90;
              next = UTF8_NEED_2;
              break;
            case UTF8_AFTER_F4:
              high = 0x8F;
              next = UTF8_NEED_2;
              break;
            default:
              g_assert_not_reached ();
            }

          if (byte < low || byte > high)
            break;

          state = next;
        }
    }

  self->utf8_state = state;

  return i;
}

static gboolean
field_is (const char *field,
          gsize       field_length,
          const char *name)
{
  return field_length == strlen (name) && memcmp (field, name, field_length) == 0;
}

static gboolean
parse_retry (const char *value,
             gsize       length,
             gint64     *retry)
{
  gint64 result = 0;

  if (length == 0)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      int digit;

      if (!g_ascii_isdigit (value[i]))
        return FALSE;

      digit = value[i] - '0';
      if (result > (G_MAXINT64 - digit) / 10)
        return FALSE;

      result = result * 10 + digit;
    }

  *retry = result;

  return TRUE;
}

static void
_agui_sse_decoder_dispatch (AguiSseDecoder *self,
                           gboolean        unterminated)
{
  if (self->has_data && self->frame_func != NULL)
    {
      self->frame_func (self->data->str, self->data->len, unterminated, self->frame_func_data);

      if (self->data->allocated_len > LINE_KEEP_SIZE)
        {
          g_string_free (self->data, TRUE);
          self->data = g_string_new (NULL);
        }
      else
        {
          g_string_truncate (self->data, 0);
        }
    }
  else if (self->has_data)
    {
      AguiSseFrame *frame;

      /* The frame and its data in one block; the data buffer stays for
       * the next frame, unless one large frame grew it. */
      frame = g_malloc (sizeof (AguiSseFrame) + self->data->len + 1);
      g_atomic_ref_count_init (&frame->ref_count);
      frame->data_length = self->data->len;
      frame->data = (char *) (frame + 1);
      memcpy (frame->data, self->data->str, self->data->len + 1);
      frame->unterminated = unterminated;
      frame->event = g_steal_pointer (&self->event);
      frame->id = g_steal_pointer (&self->id);
      frame->retry = self->retry;

      g_queue_push_tail (&self->frames, frame);

      if (self->data->allocated_len > LINE_KEEP_SIZE)
        {
          g_string_free (self->data, TRUE);
          self->data = g_string_new (NULL);
        }
      else
        {
          g_string_truncate (self->data, 0);
        }
    }

  /* Per frame, also for a frame that is not dispatched: a data-less frame
   * must not lend its event name or id to the next one. */
  if (G_UNLIKELY (self->event != NULL))
    g_clear_pointer (&self->event, g_free);
  if (G_UNLIKELY (self->id != NULL))
    g_clear_pointer (&self->id, g_free);
  self->retry = -1;
  self->has_data = FALSE;
}

static void
_agui_sse_decoder_process_line (AguiSseDecoder *self,
                               const char     *line,
                               gsize           length)
{
  const char *colon;
  const char *value;
  gsize field_length;
  gsize value_length;

  if (length == 0)
    {
      _agui_sse_decoder_dispatch (self, FALSE);
      return;
    }

  if (line[0] == ':')
    return;

  colon = memchr (line, ':', length);
  if (colon != NULL)
    {
      field_length = colon - line;
      value = colon + 1;
      value_length = length - field_length - 1;

      if (value_length > 0 && value[0] == ' ')
        {
          value++;
          value_length--;
        }
    }
  else
    {
      field_length = length;
      value = "";
      value_length = 0;
    }

  if (field_is (line, field_length, "data"))
    {
      if (self->has_data)
        g_string_append_c (self->data, '\n');
      g_string_append_len (self->data, value, value_length);
      self->has_data = TRUE;
    }
  else if (field_is (line, field_length, "event"))
    {
      if (memchr (value, '\0', value_length) == NULL)
        {
          g_free (self->event);
          self->event = g_strndup (value, value_length);
        }
    }
  else if (field_is (line, field_length, "id"))
    {
      if (memchr (value, '\0', value_length) == NULL)
        {
          g_free (self->id);
          self->id = g_strndup (value, value_length);
        }
    }
  else if (field_is (line, field_length, "retry"))
    {
      parse_retry (value, value_length, &self->retry);
    }
}

static void
_agui_sse_decoder_clear_line (AguiSseDecoder *self)
{
  if (self->line->allocated_len > LINE_KEEP_SIZE)
    {
      g_string_free (self->line, TRUE);
      self->line = g_string_new (NULL);
    }
  else
    {
      g_string_truncate (self->line, 0);
    }
}

/* Called before @more bytes join the current line: what a frame makes us
 * hold is its data plus the line being read, and nothing else. */
static gboolean
_agui_sse_decoder_check_size (AguiSseDecoder  *self,
                             gsize            more,
                             GError         **error)
{
  gsize held = self->data->len + self->line->len;

  if (held > self->max_frame_size || more > self->max_frame_size - held)
    {
      self->overflow_size = held + more;
      return _agui_sse_decoder_fail (self, error,
                                    "SSE frame exceeds the maximum frame size of %" G_GSIZE_FORMAT " bytes",
                                    self->max_frame_size);
    }

  return TRUE;
}

/* The line scanner. Only the bytes of this push are looked at: an
 * unterminated line is kept in self->line and never scanned again, so a
 * large frame arriving in small pieces costs linear time. */
static gboolean
_agui_sse_decoder_scan (AguiSseDecoder  *self,
                       const guint8    *data,
                       gsize            length,
                       GError         **error)
{
  gsize position = 0;

  /* A CR ended the previous push; a LF opening this one completes that
   * CRLF rather than ending an empty line. */
  if (self->pending_cr && length > 0)
    {
      self->pending_cr = FALSE;
      if (data[0] == '\n')
        {
          self->bytes_scanned++;
          position = 1;
        }
    }

  while (position < length)
    {
      const guint8 *newline = memchr (data + position, '\n', length - position);
      gsize end = newline != NULL ? (gsize) (newline - data) : length;
      const guint8 *cr = memchr (data + position, '\r', end - position);

      if (cr != NULL)
        end = cr - data;

      if (!_agui_sse_decoder_check_size (self, end - position, error))
        return FALSE;

      if (end == length)
        {
          self->bytes_scanned += end - position;
          g_string_append_len (self->line, (const char *) data + position, end - position);
          break;
        }

      self->bytes_scanned += end - position + 1;

      if (self->line->len == 0)
        {
          _agui_sse_decoder_process_line (self, (const char *) data + position, end - position);
        }
      else
        {
          g_string_append_len (self->line, (const char *) data + position, end - position);
          _agui_sse_decoder_process_line (self, self->line->str, self->line->len);
          _agui_sse_decoder_clear_line (self);
        }

      position = end + 1;

      if (data[end] == '\r')
        {
          if (position == length)
            {
              self->pending_cr = TRUE;
            }
          else if (data[position] == '\n')
            {
              self->bytes_scanned++;
              position++;
            }
        }
    }

  return TRUE;
}

/* Validates, then scans the valid prefix: frames that ended before a bad
 * byte are dispatched whatever the chunking, and the error follows. */
static gboolean
_agui_sse_decoder_consume (AguiSseDecoder  *self,
                          const guint8    *data,
                          gsize            length,
                          GError         **error)
{
  gsize valid;

  if (self->offset == 0 && length > 0)
    self->first_byte = data[0];

  valid = _agui_sse_decoder_validate_utf8 (self, data, length);

  if (!_agui_sse_decoder_scan (self, data, valid, error))
    return FALSE;

  self->offset += valid;

  /* libsoup passes a gzip body it cannot decompress on as it came. The
   * magic's second byte is never UTF-8, so it is where reading stops,
   * whether or not the first came in the same push. */
  if (valid < length && self->offset == 1 && self->first_byte == 0x1f && data[valid] == 0x8b)
    return _agui_sse_decoder_fail (self, error,
                                  "The SSE body is gzip-compressed data that could not be "
                                  "decompressed (corrupt or cut short)");

  if (valid < length)
    return _agui_sse_decoder_fail (self, error,
                                  "Invalid UTF-8 in the SSE body at byte offset %" G_GUINT64_FORMAT,
                                  self->utf8_sequence_start);

  return TRUE;
}

/* The bytes held back while they could still be a BOM are body after all. */
static gboolean
_agui_sse_decoder_release_bom (AguiSseDecoder  *self,
                              GError         **error)
{
  self->bom_checked = TRUE;

  return _agui_sse_decoder_consume (self, utf8_bom, self->bom_matched, error);
}

static void
_agui_sse_decoder_finalize (GObject *object)
{
  AguiSseDecoder *self = (AguiSseDecoder *)object;

  g_queue_clear_full (&self->frames, (GDestroyNotify) _agui_sse_frame_unref);
  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  g_clear_pointer (&self->event, g_free);
  g_clear_pointer (&self->id, g_free);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (_agui_sse_decoder_parent_class)->finalize (object);
}

static void
_agui_sse_decoder_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AguiSseDecoder *self = AGUI_SSE_DECODER (object);

  switch (prop_id)
    {
    case PROP_MAX_FRAME_SIZE:
      g_value_set_uint64 (value, self->max_frame_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
_agui_sse_decoder_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AguiSseDecoder *self = AGUI_SSE_DECODER (object);

  switch (prop_id)
    {
    case PROP_MAX_FRAME_SIZE:
      _agui_sse_decoder_set_max_frame_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
_agui_sse_decoder_class_init (AguiSseDecoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = _agui_sse_decoder_finalize;
  object_class->get_property = _agui_sse_decoder_get_property;
  object_class->set_property = _agui_sse_decoder_set_property;

  /**
   * AguiSseDecoder:max-frame-size:
   *
   * The largest frame accepted, in bytes: the frame's data plus the line
   * being read. A larger frame is an %AGUI_ERROR_INVALID_FRAME error.
   * The cap is per frame, never per pushed chunk.
   */
  properties[PROP_MAX_FRAME_SIZE] =
    g_param_spec_uint64 ("max-frame-size", NULL, NULL,
                         1, G_MAXSIZE, AGUI_SSE_DEFAULT_MAX_FRAME_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
_agui_sse_decoder_init (AguiSseDecoder *self)
{
  self->max_frame_size = AGUI_SSE_DEFAULT_MAX_FRAME_SIZE;
  self->line = g_string_new (NULL);
  self->data = g_string_new (NULL);
  self->retry = -1;
  g_queue_init (&self->frames);
}

/**
 * _agui_sse_frame_ref:
 * @self: a frame
 *
 * Returns: (transfer full): @self
 */
AguiSseFrame *
_agui_sse_frame_ref (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * _agui_sse_frame_unref:
 * @self: (transfer full): a frame
 */
void
_agui_sse_frame_unref (AguiSseFrame *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->event);
      g_free (self->id);
      g_free (self);
    }
}

/**
 * _agui_sse_frame_get_data:
 * @self: a frame
 *
 * Gets the frame's data: its `data` lines joined with a line feed. The
 * string is nul-terminated; it holds a NUL character only if the body
 * did, which [method@Agui.SseFrame.get_data_length] tells.
 *
 * Returns: the data, never %NULL (possibly empty)
 */
const char *
_agui_sse_frame_get_data (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->data;
}

/**
 * _agui_sse_frame_get_data_length:
 * @self: a frame
 *
 * Returns: the length of the frame's data in bytes, without the
 *   terminating nul
 */
gsize
_agui_sse_frame_get_data_length (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->data_length;
}

/**
 * _agui_sse_frame_get_event:
 * @self: a frame
 *
 * Gets the `event` field of the frame (the last one if it had several).
 * AG-UI does not use it; the standard's default name, `message`, is not
 * filled in.
 *
 * Returns: (nullable): the event name, or %NULL if the frame had none
 */
const char *
_agui_sse_frame_get_event (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->event;
}

/**
 * _agui_sse_frame_get_id:
 * @self: a frame
 *
 * Gets the `id` field seen in this frame. Unlike the standard's last event
 * ID it does not carry over to later frames: a caller that needs a
 * `Last-Event-ID` keeps the last non-%NULL id it saw (an empty id resets
 * it).
 *
 * Returns: (nullable): the id, or %NULL if the frame had none
 */
const char *
_agui_sse_frame_get_id (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->id;
}

/**
 * _agui_sse_frame_get_retry:
 * @self: a frame
 *
 * Gets the `retry` field seen in this frame: the reconnection time the
 * server asks for, in milliseconds. A value that is not made of ASCII
 * digits only is ignored, as the standard says.
 *
 * Returns: the reconnection time, or -1 if the frame had no valid `retry`
 */
gint64
_agui_sse_frame_get_retry (AguiSseFrame *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->retry;
}

/**
 * _agui_sse_decoder_new:
 *
 * Creates a decoder for one `text/event-stream` body, with the default
 * frame size cap of %AGUI_SSE_DEFAULT_MAX_FRAME_SIZE bytes.
 *
 * Returns: (transfer full): a new decoder
 */
AguiSseDecoder *
_agui_sse_decoder_new (void)
{
  return g_object_new (AGUI_TYPE_SSE_DECODER, NULL);
}

/**
 * _agui_sse_decoder_get_max_frame_size:
 * @self: a decoder
 *
 * Returns: the frame size cap in bytes
 */
gsize
_agui_sse_decoder_get_max_frame_size (AguiSseDecoder *self)
{
  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), 0);

  return self->max_frame_size;
}

/**
 * _agui_sse_decoder_set_max_frame_size:
 * @self: a decoder
 * @max_frame_size: the cap in bytes, at least 1
 *
 * Sets the largest frame accepted; see
 * [property@Agui.SseDecoder:max-frame-size]. A new cap applies from the
 * next byte pushed, also to the frame being read.
 */
void
_agui_sse_decoder_set_max_frame_size (AguiSseDecoder *self,
                                     gsize           max_frame_size)
{
  g_return_if_fail (AGUI_IS_SSE_DECODER (self));
  g_return_if_fail (max_frame_size > 0);

  if (self->max_frame_size == max_frame_size)
    return;

  self->max_frame_size = max_frame_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_FRAME_SIZE]);
}

/**
 * _agui_sse_decoder_push:
 * @self: a decoder
 * @data: (array length=length) (nullable): the next bytes of the body
 * @length: the length of @data
 * @error: return location for a #GError
 *
 * Feeds the next bytes of the body, in whatever size they arrived. Every
 * frame they complete is queued for [method@Agui.SseDecoder.next_frame].
 *
 * Fails with %AGUI_ERROR_INVALID_FRAME if the body is not valid UTF-8 (a
 * sequence split between two pushes is fine) or a frame grows past the
 * cap. After a failure the decoder is dead and every push fails again
 * with the same error; frames completed before the bad byte stay queued.
 *
 * Pushing after [method@Agui.SseDecoder.finish] is a programmer error.
 *
 * Returns: %TRUE on success, %FALSE if @error is set
 */
gboolean
_agui_sse_decoder_push (AguiSseDecoder  *self,
                       const guint8    *data,
                       gsize            length,
                       GError         **error)
{
  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  /* A BOM may arrive split: hold its bytes back until it is complete or
   * turns out to be something else. */
  while (!self->bom_checked && length > 0)
    {
      if (data[0] != utf8_bom[self->bom_matched])
        {
          if (!_agui_sse_decoder_release_bom (self, error))
            return FALSE;
          break;
        }

      data++;
      length--;

      if (++self->bom_matched == G_N_ELEMENTS (utf8_bom))
        {
          self->bom_checked = TRUE;
          self->offset += G_N_ELEMENTS (utf8_bom);
        }
    }

  return _agui_sse_decoder_consume (self, data, length, error);
}

/**
 * _agui_sse_decoder_next_frame:
 * @self: a decoder
 *
 * Takes the oldest frame not yet taken. Call it until it returns %NULL
 * after each push and after the finish.
 *
 * Returns: (transfer full) (nullable): the next frame, or %NULL if no
 *   complete frame is waiting
 */
AguiSseFrame *
_agui_sse_decoder_next_frame (AguiSseDecoder *self)
{
  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), NULL);

  return g_queue_pop_head (&self->frames);
}

/**
 * _agui_sse_decoder_finish:
 * @self: a decoder
 * @error: return location for a #GError
 *
 * Tells the decoder the body has ended. A last frame that lacks its blank
 * line is dispatched, its unterminated last line included, so it is not
 * lost when a server closes the body early.
 *
 * Fails with %AGUI_ERROR_INVALID_FRAME if the body ends inside a UTF-8
 * sequence, or with the error that already killed the stream. Call it
 * once; nothing may be pushed afterwards.
 *
 * Returns: %TRUE on success, %FALSE if @error is set
 */
gboolean
_agui_sse_decoder_finish (AguiSseDecoder  *self,
                         GError         **error)
{
  gboolean unterminated;

  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), FALSE);
  g_return_val_if_fail (!self->finished, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  self->finished = TRUE;

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  if (!self->bom_checked && !_agui_sse_decoder_release_bom (self, error))
    return FALSE;

  if (self->utf8_state != UTF8_ACCEPT)
    return _agui_sse_decoder_fail (self, error,
                                  "The SSE body ends inside a UTF-8 sequence at byte offset %" G_GUINT64_FORMAT,
                                  self->utf8_sequence_start);

  if (self->line->len > 0)
    {
      _agui_sse_decoder_process_line (self, self->line->str, self->line->len);
      _agui_sse_decoder_clear_line (self);
    }

  /* Data with no blank line after it: the body was cut inside a frame,
   * which explains a frame that then does not parse. */
  unterminated = self->has_data;
  _agui_sse_decoder_dispatch (self, unterminated);

  return TRUE;
}

void
_agui_sse_decoder_set_frame_func (AguiSseDecoder   *self,
                                  AguiSseFrameFunc  func,
                                  gpointer          user_data)
{
  g_return_if_fail (AGUI_IS_SSE_DECODER (self));

  self->frame_func = func;
  self->frame_func_data = user_data;
}

gboolean
_agui_sse_frame_get_unterminated (AguiSseFrame *frame)
{
  g_return_val_if_fail (frame != NULL, FALSE);

  return frame->unterminated;
}

guint64
_agui_sse_decoder_get_bytes_scanned (AguiSseDecoder *self)
{
  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), 0);

  return self->bytes_scanned;
}

gsize
_agui_sse_decoder_get_overflow_size (AguiSseDecoder *self)
{
  g_return_val_if_fail (AGUI_IS_SSE_DECODER (self), 0);

  return self->overflow_size;
}
