/* agui-pipeline-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-json-doc-private.h"
#include "agui-reducer-private.h"

G_BEGIN_DECLS

/* The synchronous half of a run: bytes → SSE frames → events (compat,
 * schema; AguiEventByteReader, the same path a transport reads with) →
 * chunk expansion → verification → the reducer. It is the one way
 * events reach a transcript: a session feeds it the events of its
 * transport, and a stored log when it restores a thread; the store feeds
 * it an imported log; the CLI and the conformance suite feed it bytes.
 * It never blocks and never needs a main loop. */
typedef struct _AguiPipeline AguiPipeline;

/* How a pipeline is assembled.
 * @AGUI_PIPELINE_LOG: the events are a thread's log (stored, or
 *   exported and imported), not one run's stream: the protocol's run
 *   order is not verified, since a log also holds the events the client
 *   added between runs (the person's messages); each event is still
 *   parsed and its chunks expanded as in a live stream. */
typedef enum
{
  AGUI_PIPELINE_STREAM = 0,
  AGUI_PIPELINE_LOG    = 1 << 0,
} AguiPipelineOptions;

typedef void (*AguiPipelineEventFunc) (AguiEvent *event,
                                       gpointer   user_data);
typedef void (*AguiPipelineErrorFunc) (const GError *error,
                                       gpointer      user_data);

AguiPipeline *_agui_pipeline_new            (AguiReducer            *reducer);
AguiPipeline *_agui_pipeline_new_full       (AguiReducer            *reducer,
                                             AguiPipelineOptions     options);
void          _agui_pipeline_free           (AguiPipeline           *self);
void          _agui_pipeline_set_callbacks  (AguiPipeline           *self,
                                             AguiPipelineEventFunc   applied,
                                             AguiPipelineErrorFunc   item_error,
                                             gpointer                user_data);
void          _agui_pipeline_set_max_frame_size (AguiPipeline       *self,
                                                 gsize               max_frame_size);
gsize         _agui_pipeline_get_max_frame_size (AguiPipeline       *self);
gsize         _agui_pipeline_get_overflow_size  (AguiPipeline       *self);
gboolean      _agui_pipeline_push_bytes     (AguiPipeline           *self,
                                             const guint8           *data,
                                             gsize                   length);
gboolean      _agui_pipeline_push_event     (AguiPipeline           *self,
                                             AguiEvent              *event);
/* The first stage alone: @object (taken, left null) as an event, with
 * the pipeline's parser. NULL with @error for an invalid event, NULL
 * without one for an event of a type AG-UI 1.0 does not have (a stream
 * skips those). */
AguiEvent    *_agui_pipeline_parse_value    (AguiPipeline           *self,
                                             AguiJsonValue          *object,
                                             GError                **error);
void          _agui_pipeline_push_error     (AguiPipeline           *self,
                                             const GError           *error);
gboolean      _agui_pipeline_finish         (AguiPipeline           *self);
void          _agui_pipeline_fail           (AguiPipeline           *self,
                                             const GError           *error);
const GError *_agui_pipeline_get_error      (AguiPipeline           *self);
gboolean      _agui_pipeline_get_run_open   (AguiPipeline           *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiPipeline, _agui_pipeline_free)

G_END_DECLS
