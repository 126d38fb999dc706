/* agui-openai-chunk-reader-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-event.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* Turns the body of an OpenAI-compatible streaming chat completion
 * (`data: {"choices":[{"delta":…}]}` frames ending in `data: [DONE]`)
 * into the AG-UI events of one assistant turn: text, reasoning (the
 * `reasoning_content` / `reasoning` fields and a leading
 * `<think>…</think>` in the content) and tool calls. Synchronous, like
 * the SSE decoder it reads through; the agent adds RUN_STARTED and the
 * run's end. */
typedef struct _AguiOpenaiChunkReader AguiOpenaiChunkReader;

typedef void (*AguiOpenaiChunkEventFunc) (AguiEvent *event,
                                          gpointer   user_data);

/* The most tool calls one answer may make; more is a broken stream. */
#define AGUI_OPENAI_MAX_TOOL_CALLS 64

AguiOpenaiChunkReader *_agui_openai_chunk_reader_new           (AguiOpenaiChunkEventFunc  func,
                                                                gpointer                  user_data);
void                   _agui_openai_chunk_reader_free          (AguiOpenaiChunkReader    *self);
/* 0 keeps the SSE decoder's default. */
void                   _agui_openai_chunk_reader_set_max_frame_size (AguiOpenaiChunkReader *self,
                                                                     gsize                  max_frame_size);

/* FALSE with @error once the body has failed: the server reported an
 * error (its words are in the message), a frame is not a chunk, the
 * bytes are not an event stream. Later pushes do nothing. */
gboolean               _agui_openai_chunk_reader_push_bytes    (AguiOpenaiChunkReader    *self,
                                                                const guint8             *data,
                                                                gsize                     length,
                                                                GError                  **error);
gboolean               _agui_openai_chunk_reader_push_frame    (AguiOpenaiChunkReader    *self,
                                                                const char               *data,
                                                                gsize                     length,
                                                                GError                  **error);
/* The body ended. Open text and reasoning messages are closed either
 * way; TRUE when the answer is complete (its `[DONE]` arrived and it was
 * not cut off), and only then are its tool calls ended, so that a call
 * whose arguments may be cut short is never run. */
gboolean               _agui_openai_chunk_reader_finish        (AguiOpenaiChunkReader    *self,
                                                                GError                  **error);

const char            *_agui_openai_chunk_reader_get_message_id    (AguiOpenaiChunkReader *self);
const char            *_agui_openai_chunk_reader_get_text          (AguiOpenaiChunkReader *self);
const char            *_agui_openai_chunk_reader_get_finish_reason (AguiOpenaiChunkReader *self);
const char            *_agui_openai_chunk_reader_get_model         (AguiOpenaiChunkReader *self);
/* The last `usage` object the server sent, or NULL. */
const AguiJsonValue   *_agui_openai_chunk_reader_get_usage         (AguiOpenaiChunkReader *self);
/* A short machine word for a failure (`length`, `content_filter`, the
 * server's error type or code, `stream`), or NULL. */
const char            *_agui_openai_chunk_reader_get_error_code    (AguiOpenaiChunkReader *self);
guint                  _agui_openai_chunk_reader_get_n_tool_calls  (AguiOpenaiChunkReader *self);
/* The calls that started (they have a name), in the order they did. */
gboolean               _agui_openai_chunk_reader_get_tool_call     (AguiOpenaiChunkReader  *self,
                                                                    guint                   position,
                                                                    const char            **id,
                                                                    const char            **name,
                                                                    const char            **arguments);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiOpenaiChunkReader, _agui_openai_chunk_reader_free)

G_END_DECLS
