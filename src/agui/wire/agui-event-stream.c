/* agui-event-stream.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-byte-reader-private.h"
#include "agui-event-stream-private.h"

#define READ_SIZE 16384

/**
 * AguiEventStream:
 *
 * The events of one run as they arrive: a queue a transport pushes into
 * and a consumer pulls from with [method@Agui.EventStream.next_async].
 *
 * Besides events the stream carries error items: a frame that is not a
 * valid event is reported and the stream goes on, because one malformed
 * event should not silence the rest of a run. A stream that cannot go on
 * (the connection broke, the bytes are not valid UTF-8) ends, with its
 * error delivered once as the last item.
 *
 * The consumer says it is done with [method@Agui.EventStream.close]; the
 * producer sees [method@Agui.EventStream.get_cancellable] cancelled and
 * stops (an HTTP transport closes its connection).
 */
typedef struct
{
  AguiEvent *event;
  GError    *error;
} Item;

struct _AguiEventStream
{
  GObject       parent_instance;
  GQueue        items;
  GTask        *pending;
  gulong        pending_cancelled_id;
  GError       *end_error;
  GCancellable *cancellable;
  /* bytes → events, for a producer that has bytes (see read_sse) */
  AguiEventByteReader *byte_reader;
  gsize         max_frame_size;
  guint         ended : 1;
  guint         closed : 1;
};

G_DEFINE_FINAL_TYPE (AguiEventStream, agui_event_stream, G_TYPE_OBJECT)

static void
item_free (Item *item)
{
  g_clear_pointer (&item->event, agui_event_unref);
  g_clear_error (&item->error);
  g_free (item);
}

static void
agui_event_stream_dispose (GObject *object)
{
  AguiEventStream *self = AGUI_EVENT_STREAM (object);

  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (agui_event_stream_parent_class)->dispose (object);
}

static void
agui_event_stream_finalize (GObject *object)
{
  AguiEventStream *self = AGUI_EVENT_STREAM (object);

  g_assert (self->pending == NULL);

  g_queue_clear_full (&self->items, (GDestroyNotify) item_free);
  g_clear_error (&self->end_error);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->byte_reader, _agui_event_byte_reader_free);

  G_OBJECT_CLASS (agui_event_stream_parent_class)->finalize (object);
}

static void
agui_event_stream_class_init (AguiEventStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agui_event_stream_dispose;
  object_class->finalize = agui_event_stream_finalize;
}

static void
agui_event_stream_init (AguiEventStream *self)
{
  g_queue_init (&self->items);
  self->cancellable = g_cancellable_new ();
}

/**
 * agui_event_stream_new:
 *
 * Returns: (transfer full): an empty stream, for a transport to push into
 */
AguiEventStream *
agui_event_stream_new (void)
{
  return g_object_new (AGUI_TYPE_EVENT_STREAM, NULL);
}

static gboolean
take_next (AguiEventStream  *self,
           AguiEvent       **event,
           GError          **error)
{
  Item *item = g_queue_pop_head (&self->items);

  if (item != NULL)
    {
      *event = g_steal_pointer (&item->event);
      *error = g_steal_pointer (&item->error);
      item_free (item);
      return TRUE;
    }

  if (self->ended || self->closed)
    {
      *event = NULL;
      /* The end's error is the stream's last item, given once. */
      *error = g_steal_pointer (&self->end_error);
      return TRUE;
    }

  return FALSE;
}

static void
complete_pending (AguiEventStream *self)
{
  g_autoptr(GTask) task = NULL;
  AguiEvent *event = NULL;
  GError *error = NULL;

  if (self->pending == NULL || !take_next (self, &event, &error))
    return;

  task = g_steal_pointer (&self->pending);
  g_cancellable_disconnect (g_task_get_cancellable (task), self->pending_cancelled_id);
  self->pending_cancelled_id = 0;

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, event, (GDestroyNotify) agui_event_unref);
}

/**
 * agui_event_stream_push_event:
 * @self: a stream
 * @event: the next event
 *
 * Queues an event for the consumer.
 */
void
agui_event_stream_push_event (AguiEventStream *self,
                              AguiEvent       *event)
{
  Item *item;

  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));
  g_return_if_fail (event != NULL);

  if (self->ended || self->closed)
    return;

  item = g_new0 (Item, 1);
  item->event = agui_event_ref (event);
  g_queue_push_tail (&self->items, item);
  complete_pending (self);
}

/**
 * agui_event_stream_push_error:
 * @self: a stream
 * @error: what was wrong with one frame
 *
 * Queues an error item; the stream goes on.
 */
void
agui_event_stream_push_error (AguiEventStream *self,
                              const GError    *error)
{
  Item *item;

  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));
  g_return_if_fail (error != NULL);

  if (self->ended || self->closed)
    return;

  item = g_new0 (Item, 1);
  item->error = g_error_copy (error);
  g_queue_push_tail (&self->items, item);
  complete_pending (self);
}

/**
 * agui_event_stream_end:
 * @self: a stream
 * @error: (nullable): why the stream could not go on, or %NULL for a
 *   normal end
 *
 * Ends the stream after the items already queued.
 */
void
agui_event_stream_end (AguiEventStream *self,
                       const GError    *error)
{
  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));

  if (self->ended || self->closed)
    return;

  self->ended = TRUE;
  if (error != NULL)
    self->end_error = g_error_copy (error);
  complete_pending (self);
}

/**
 * agui_event_stream_is_ended:
 * @self: a stream
 *
 * Returns: %TRUE once the producer has ended the stream (items may still
 *   be queued)
 */
gboolean
agui_event_stream_is_ended (AguiEventStream *self)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), TRUE);

  return self->ended || self->closed;
}

static void
on_next_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  AguiEventStream *self = user_data;
  g_autoptr(GTask) task = NULL;

  /* Runs inside g_cancellable_cancel(); complete from an idle so the
   * disconnect below cannot deadlock. */
  if (self->pending == NULL)
    return;

  task = g_steal_pointer (&self->pending);
  self->pending_cancelled_id = 0;
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
}

/**
 * agui_event_stream_next_async:
 * @self: a stream
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the next item
 * @user_data: data for @callback
 *
 * Waits for the next item. One call may be pending at a time.
 */
void
agui_event_stream_next_async (AguiEventStream     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (self->pending == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_event_stream_next_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  self->pending = g_steal_pointer (&task);
  if (cancellable != NULL)
    self->pending_cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_next_cancelled),
                                                        self, NULL);
  if (self->pending != NULL)
    complete_pending (self);
}

/**
 * agui_event_stream_next_finish:
 * @self: a stream
 * @result: the result given to the callback
 * @error: return location for a #GError: an error item, or the error the
 *   stream ended with
 *
 * Returns: (transfer full) (nullable): the next event; %NULL with @error
 *   unset at the end of the stream
 */
AguiEvent *
agui_event_stream_next_finish (AguiEventStream  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agui_event_stream_close:
 * @self: a stream
 *
 * Tells the producer that nobody will read further; queued items are
 * dropped and the producer's cancellable is cancelled.
 */
void
agui_event_stream_close (AguiEventStream *self)
{
  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));

  if (self->closed)
    return;

  self->closed = TRUE;
  g_queue_clear_full (&self->items, (GDestroyNotify) item_free);
  g_cancellable_cancel (self->cancellable);
  complete_pending (self);
}

/**
 * agui_event_stream_get_cancellable:
 * @self: a stream
 *
 * Returns: (transfer none): cancelled when the consumer closes the stream
 */
GCancellable *
agui_event_stream_get_cancellable (AguiEventStream *self)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), NULL);

  return self->cancellable;
}

/* Bytes in */

static gboolean
on_byte_reader_event (AguiEvent *event,
                      gpointer   user_data)
{
  AguiEventStream *self = user_data;

  agui_event_stream_push_event (self, event);

  return !self->closed;
}

static void
on_byte_reader_error (const GError *error,
                      gpointer      user_data)
{
  agui_event_stream_push_error (user_data, error);
}

static AguiEventByteReader *
ensure_byte_reader (AguiEventStream *self)
{
  if (self->byte_reader == NULL)
    {
      self->byte_reader = _agui_event_byte_reader_new (on_byte_reader_event, on_byte_reader_error, self);
      _agui_event_byte_reader_set_max_frame_size (self->byte_reader, self->max_frame_size);
    }

  return self->byte_reader;
}

void
_agui_event_stream_set_max_frame_size (AguiEventStream *self,
                                       gsize            max_frame_size)
{
  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));
  g_return_if_fail (self->byte_reader == NULL);

  self->max_frame_size = max_frame_size;
}

gsize
_agui_event_stream_get_max_frame_size (AguiEventStream *self)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), 0);

  return _agui_event_byte_reader_get_max_frame_size (ensure_byte_reader (self));
}

gsize
_agui_event_stream_get_overflow_size (AguiEventStream *self)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), 0);

  return self->byte_reader != NULL ? _agui_event_byte_reader_get_overflow_size (self->byte_reader) : 0;
}

gboolean
_agui_event_stream_push_bytes (AguiEventStream  *self,
                               const guint8     *data,
                               gsize             length,
                               GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), FALSE);

  if (self->ended || self->closed)
    return FALSE;

  return _agui_event_byte_reader_push (ensure_byte_reader (self), data, length, error);
}

gboolean
_agui_event_stream_finish_bytes (AguiEventStream  *self,
                                 GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_STREAM (self), FALSE);

  if (self->ended || self->closed)
    return FALSE;

  return _agui_event_byte_reader_finish (ensure_byte_reader (self), error);
}

/* Reading SSE from a byte stream */

typedef struct
{
  AguiEventStream *stream;
  GInputStream    *body;
} Reader;

static void
reader_free (Reader *reader)
{
  g_clear_object (&reader->stream);
  g_clear_object (&reader->body);
  g_free (reader);
}

static void
reader_end (Reader       *reader,
            const GError *error)
{
  agui_event_stream_end (reader->stream, error);
  g_input_stream_close_async (reader->body, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  reader_free (reader);
}

static void reader_read_next (Reader *reader);

static void
reader_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Reader *reader = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (bytes == NULL)
    {
      g_autoptr(GError) broken = NULL;

      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        broken = g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                              "The connection broke off mid-stream: %s", error->message);
      reader_end (reader, broken);
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      _agui_event_stream_finish_bytes (reader->stream, &error);
      reader_end (reader, error);
      return;
    }

  if (!_agui_event_stream_push_bytes (reader->stream,
                                      g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                      &error))
    {
      reader_end (reader, error);
      return;
    }

  reader_read_next (reader);
}

static void
reader_read_next (Reader *reader)
{
  g_input_stream_read_bytes_async (reader->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   reader->stream->cancellable,
                                   reader_read_cb, reader);
}

/**
 * agui_event_stream_read_sse:
 * @self: a stream
 * @body: an SSE response body
 * @max_frame_size: the largest frame accepted, or 0 for the default
 *
 * Reads @body as it arrives, decoding SSE frames into events pushed onto
 * @self, and ends the stream with the body. A transport that receives
 * bytes hands them over with this.
 */
void
agui_event_stream_read_sse (AguiEventStream *self,
                            GInputStream    *body,
                            gsize            max_frame_size)
{
  Reader *reader;

  g_return_if_fail (AGUI_IS_EVENT_STREAM (self));
  g_return_if_fail (G_IS_INPUT_STREAM (body));
  g_return_if_fail (self->byte_reader == NULL);

  self->max_frame_size = max_frame_size;

  reader = g_new0 (Reader, 1);
  reader->stream = g_object_ref (self);
  reader->body = g_object_ref (body);

  reader_read_next (reader);
}
