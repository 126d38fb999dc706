/* fuzz-openai-chunks.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any body an OpenAI-compatible server could send, read by the chunk
 * reader whole or in small pieces, gives the same events either way, and
 * those events (between the agent's RUN_STARTED and its end) always pass
 * the verifier and fold: a server can fail a run, never break the client.
 */

#include "config.h"

#include "agui.h"
#include "agui-openai-chunk-reader-private.h"
#include "agui-pipeline-private.h"
#include "fuzz.h"

typedef struct
{
  GPtrArray *events;
  GString   *shape;
} Collected;

static void
on_event (AguiEvent *event,
          gpointer   user_data)
{
  Collected *collected = user_data;
  const char *delta = agui_event_get_delta (event);

  g_ptr_array_add (collected->events, agui_event_ref (event));
  /* Ids are random; the kinds and the deltas are what chunking may not change. */
  g_string_append_printf (collected->shape, "%s|%s|%s\n",
                          agui_event_get_type_name (event),
                          delta ? delta : "",
                          agui_event_get_string (event, "toolCallName") ?: "");
}

static void
read_body (const uint8_t *data,
           size_t         size,
           gboolean       chunked,
           Collected     *collected,
           gboolean      *complete)
{
  g_autoptr(AguiOpenaiChunkReader) reader = _agui_openai_chunk_reader_new (on_event, collected);
  gboolean ok = TRUE;
  size_t offset = 0;

  /* A small cap, so the over-cap path is reached too. */
  _agui_openai_chunk_reader_set_max_frame_size (reader, 2048);

  while (ok && offset < size)
    {
      size_t length = chunked ? MIN (size - offset, (size_t) (data[offset] % 16) + 1) : size;

      ok = _agui_openai_chunk_reader_push_bytes (reader, data + offset, length, NULL);
      offset += length;
    }

  *complete = _agui_openai_chunk_reader_finish (reader, NULL);
  FUZZ_CHECK (*complete || _agui_openai_chunk_reader_get_error_code (reader) != NULL,
              "a failed body has no error code");
  g_string_append_printf (collected->shape, "complete=%d\n", *complete);
}

static void
fold (Collected *collected,
      gboolean   complete)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new (reducer);
  g_autoptr(JsonObject) started = json_object_new ();
  g_autoptr(JsonObject) ended = json_object_new ();
  g_autoptr(AguiEvent) start = NULL;
  g_autoptr(AguiEvent) end = NULL;

  json_object_set_string_member (started, "threadId", "t");
  json_object_set_string_member (started, "runId", "r");
  start = agui_event_new (AGUI_EVENT_RUN_STARTED, g_steal_pointer (&started), NULL);
  FUZZ_CHECK (_agui_pipeline_push_event (pipeline, start), "RUN_STARTED was refused");

  for (guint i = 0; i < collected->events->len; i++)
    FUZZ_CHECK (_agui_pipeline_push_event (pipeline, g_ptr_array_index (collected->events, i)),
                "the reader's %s was refused: %s",
                agui_event_get_type_name (g_ptr_array_index (collected->events, i)),
                _agui_pipeline_get_error (pipeline) ? _agui_pipeline_get_error (pipeline)->message : "?");

  if (complete)
    {
      json_object_set_string_member (ended, "threadId", "t");
      json_object_set_string_member (ended, "runId", "r");
      end = agui_event_new (AGUI_EVENT_RUN_FINISHED, g_steal_pointer (&ended), NULL);
    }
  else
    {
      json_object_set_string_member (ended, "message", "failed");
      end = agui_event_new (AGUI_EVENT_RUN_ERROR, g_steal_pointer (&ended), NULL);
    }
  FUZZ_CHECK (_agui_pipeline_push_event (pipeline, end), "the run's end was refused: %s",
              _agui_pipeline_get_error (pipeline) ? _agui_pipeline_get_error (pipeline)->message : "?");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  Collected whole = { g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref), g_string_new (NULL) };
  Collected pieces = { g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref), g_string_new (NULL) };
  gboolean whole_complete, pieces_complete;

  fuzz_init ();

  read_body (data, size, FALSE, &whole, &whole_complete);
  read_body (data, size, TRUE, &pieces, &pieces_complete);

  FUZZ_CHECK (g_str_equal (whole.shape->str, pieces.shape->str),
              "chunking changed the events:\n%s\nvs\n%s", whole.shape->str, pieces.shape->str);

  fold (&whole, whole_complete);

  g_ptr_array_unref (whole.events);
  g_ptr_array_unref (pieces.events);
  g_string_free (whole.shape, TRUE);
  g_string_free (pieces.shape, TRUE);

  return 0;
}
