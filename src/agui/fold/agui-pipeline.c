/* agui-pipeline.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-chunk-normalizer-private.h"
#include "agui-event-byte-reader-private.h"
#include "agui-pipeline-private.h"
#include "agui-verifier-private.h"

struct _AguiPipeline
{
  AguiEventByteReader   *reader;
  AguiChunkNormalizer   *normalizer;
  AguiVerifier          *verifier;
  AguiReducer           *reducer;
  GPtrArray             *expanded;
  GError                *error;
  AguiPipelineEventFunc  applied;
  AguiPipelineErrorFunc  item_error;
  gpointer               user_data;
  /* A frame that is not a valid event is reported and skipped, so one bad
   * event does not silence the rest of the run; the run still ends failed,
   * with the first such error. */
  GError                *item_failure;
  guint                  fatal : 1;
  guint                  run_open : 1;
  guint                  saw_event : 1;
};

static gboolean on_byte_reader_event (AguiEvent    *event,
                                      gpointer      user_data);
static void     on_byte_reader_error (const GError *error,
                                      gpointer      user_data);

AguiPipeline *
_agui_pipeline_new_full (AguiReducer         *reducer,
                         AguiPipelineOptions  options)
{
  AguiPipeline *self = g_new0 (AguiPipeline, 1);

  self->reader = _agui_event_byte_reader_new (on_byte_reader_event, on_byte_reader_error, self);
  self->normalizer = _agui_chunk_normalizer_new ();
  if (!(options & AGUI_PIPELINE_LOG))
    self->verifier = _agui_verifier_new ();
  self->reducer = reducer ? g_object_ref (reducer) : NULL;
  self->expanded = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  return self;
}

AguiPipeline *
_agui_pipeline_new (AguiReducer *reducer)
{
  return _agui_pipeline_new_full (reducer, AGUI_PIPELINE_STREAM);
}

void
_agui_pipeline_free (AguiPipeline *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->reader, _agui_event_byte_reader_free);
  g_clear_object (&self->normalizer);
  g_clear_object (&self->verifier);
  g_clear_object (&self->reducer);
  g_clear_pointer (&self->expanded, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_error (&self->item_failure);
  g_free (self);
}

void
_agui_pipeline_set_callbacks (AguiPipeline          *self,
                              AguiPipelineEventFunc  applied,
                              AguiPipelineErrorFunc  item_error,
                              gpointer               user_data)
{
  self->applied = applied;
  self->item_error = item_error;
  self->user_data = user_data;
}

void
_agui_pipeline_set_max_frame_size (AguiPipeline *self,
                                   gsize         max_frame_size)
{
  _agui_event_byte_reader_set_max_frame_size (self->reader, max_frame_size);
}

gsize
_agui_pipeline_get_max_frame_size (AguiPipeline *self)
{
  return _agui_event_byte_reader_get_max_frame_size (self->reader);
}

/* How large the frame that broke the cap had grown: 0 unless one did. */
gsize
_agui_pipeline_get_overflow_size (AguiPipeline *self)
{
  return _agui_event_byte_reader_get_overflow_size (self->reader);
}

void
_agui_pipeline_fail (AguiPipeline *self,
                     const GError *error)
{
  if (self->fatal)
    return;

  self->fatal = TRUE;
  if (self->error == NULL)
    self->error = g_error_copy (self->item_failure ? self->item_failure : error);

  if (self->reducer != NULL)
    _agui_reducer_fail (self->reducer, self->error);
}

static void
item_failed (AguiPipeline *self,
             GError       *error)
{
  if (self->item_error != NULL)
    self->item_error (error, self->user_data);

  if (self->item_failure == NULL)
    self->item_failure = error;
  else
    g_error_free (error);
}

static gboolean
apply (AguiPipeline *self,
       AguiEvent    *event)
{
  g_autoptr(GError) error = NULL;
  AguiEventType type = agui_event_get_event_type (event);

  if (self->verifier != NULL && !_agui_verifier_check (self->verifier, event, &error))
    {
      _agui_pipeline_fail (self, error);
      return FALSE;
    }

  self->saw_event = TRUE;
  if (type == AGUI_EVENT_RUN_STARTED)
    self->run_open = TRUE;
  else if (type == AGUI_EVENT_RUN_FINISHED || type == AGUI_EVENT_RUN_ERROR)
    self->run_open = FALSE;

  if (self->reducer)
    _agui_reducer_apply (self->reducer, event);
  if (self->applied)
    self->applied (event, self->user_data);

  return TRUE;
}

gboolean
_agui_pipeline_push_event (AguiPipeline *self,
                           AguiEvent    *event)
{
  g_autoptr(GError) error = NULL;

  if (self->fatal)
    return FALSE;

  if (_agui_chunk_normalizer_passes (self->normalizer, event))
    return apply (self, event);

  g_ptr_array_set_size (self->expanded, 0);
  if (!_agui_chunk_normalizer_push (self->normalizer, event, self->expanded, &error))
    {
      /* Synthetic ENDs emitted before the failure are still applied; if
       * one of them breaks the protocol, that came first and is what the
       * run failed with. */
      for (guint i = 0; i < self->expanded->len; i++)
        {
          AguiEvent *expanded = g_ptr_array_index (self->expanded, i);
          g_autoptr(GError) verify_error = NULL;

          if (self->verifier != NULL && !_agui_verifier_check (self->verifier, expanded, &verify_error))
            {
              _agui_pipeline_fail (self, verify_error);
              return FALSE;
            }
          if (self->reducer)
            _agui_reducer_apply (self->reducer, expanded);
          if (self->applied)
            self->applied (expanded, self->user_data);
        }
      _agui_pipeline_fail (self, error);
      return FALSE;
    }

  for (guint i = 0; i < self->expanded->len; i++)
    {
      if (!apply (self, g_ptr_array_index (self->expanded, i)))
        return FALSE;
    }

  return TRUE;
}

AguiEvent *
_agui_pipeline_parse_value (AguiPipeline   *self,
                            AguiJsonValue  *object,
                            GError        **error)
{
  return _agui_event_parser_parse_value (_agui_event_byte_reader_get_parser (self->reader), object, error);
}

static gboolean
on_byte_reader_event (AguiEvent *event,
                      gpointer   user_data)
{
  return _agui_pipeline_push_event (user_data, event);
}

static void
on_byte_reader_error (const GError *error,
                      gpointer      user_data)
{
  item_failed (user_data, g_error_copy (error));
}

gboolean
_agui_pipeline_push_bytes (AguiPipeline *self,
                           const guint8 *data,
                           gsize         length)
{
  g_autoptr(GError) error = NULL;

  if (self->fatal)
    return FALSE;

  if (!_agui_event_byte_reader_push (self->reader, data, length, &error))
    {
      if (error != NULL)
        _agui_pipeline_fail (self, error);
      return FALSE;
    }

  return !self->fatal;
}

gboolean
_agui_pipeline_finish (AguiPipeline *self)
{
  g_autoptr(GError) error = NULL;

  if (self->fatal)
    return FALSE;

  if (!_agui_event_byte_reader_finish (self->reader, &error))
    {
      if (error != NULL)
        _agui_pipeline_fail (self, error);
      return FALSE;
    }

  if (self->fatal)
    return FALSE;

  if (self->item_failure != NULL)
    {
      _agui_pipeline_fail (self, self->item_failure);
      return FALSE;
    }

  if (!self->saw_event)
    {
      g_autoptr(GError) empty = NULL;

      /* An answer with no run in it is not a successful run. */
      empty = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                   "The agent ended the stream without sending any event; "
                                   "check that the agent's URL is an AG-UI endpoint");
      _agui_pipeline_fail (self, empty);
      return FALSE;
    }

  if (self->run_open)
    {
      g_autoptr(GError) truncated = NULL;

      /* Said as the person sees it: the answer is cut off, and trying
       * again is what to do; the protocol's view comes after. */
      truncated = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                       "The connection ended before the answer was complete; "
                                       "try again (the stream had no RUN_FINISHED or RUN_ERROR)");
      _agui_pipeline_fail (self, truncated);
      return FALSE;
    }

  return TRUE;
}

/* An error item from a transport's stream: reported, skipped, and the
 * run's failure if nothing worse comes. */
void
_agui_pipeline_push_error (AguiPipeline *self,
                           const GError *error)
{
  if (self->fatal)
    return;

  item_failed (self, g_error_copy (error));
}

const GError *
_agui_pipeline_get_error (AguiPipeline *self)
{
  return self->error;
}

gboolean
_agui_pipeline_get_run_open (AguiPipeline *self)
{
  return self->run_open;
}
