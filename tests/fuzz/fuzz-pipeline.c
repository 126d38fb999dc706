/* fuzz-pipeline.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any body, fed through the whole pipeline (SSE, events, chunks,
 * verifier, reducer) in small chunks, folds without crashing; what it
 * folds to prints as valid JSON; and the events it applied, compacted
 * and written and read back as the store does, fold to the same
 * messages and state.
 */

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-event-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-event-compactor-private.h"
#include "agui-session-store-private.h"
#include "fuzz.h"

static void
on_applied (AguiEvent *event,
            gpointer   user_data)
{
  g_ptr_array_add (user_data, agui_event_ref (event));
}

static void
on_item_error (const GError *error,
               gpointer      user_data)
{
}

/* NULL when the fold holds a value with no JSON form (nested deeper
 * than the limit by patches): the store refuses to save it, saying so. */
static char *
describe (AguiTranscript *transcript)
{
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript, FALSE);
  g_autoptr(JsonNode) messages_node = json_node_init_array (json_node_alloc (), messages);
  g_autofree char *messages_text = _agui_json_to_string (messages_node, FALSE, NULL);
  g_autofree char *state_text = _agui_json_to_string (agui_transcript_get_state (transcript), FALSE, NULL);

  if (messages_text == NULL || state_text == NULL)
    return NULL;

  return g_strconcat (messages_text, "\n", state_text, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiReducer) refold = _agui_reducer_new (NULL);
  g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new (reducer);
  g_autoptr(GPtrArray) applied = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(GPtrArray) compacted = NULL;
  g_autofree char *folded = NULL;
  g_autofree char *refolded = NULL;
  size_t offset = 0;

  fuzz_init ();

  _agui_pipeline_set_callbacks (pipeline, on_applied, on_item_error, applied);
  while (offset < size)
    {
      size_t length = MIN (size - offset, (size_t) (data[offset] % 64) + 1);

      if (!_agui_pipeline_push_bytes (pipeline, data + offset, length))
        break;
      offset += length;
    }
  if (offset >= size)
    _agui_pipeline_finish (pipeline);

  if (!(folded = describe (_agui_reducer_get_transcript (reducer))))
    return 0;

  compacted = _agui_event_compactor_compact (applied);
  for (guint i = 0; i < compacted->len; i++)
    {
      AguiEvent *event = g_ptr_array_index (compacted, i);
      g_autoptr(JsonNode) node = agui_event_to_json (event);
      g_autoptr(GError) error = NULL;
      g_autofree char *row = _agui_json_to_string (node, FALSE, &error);
      g_autoptr(GString) printed = g_string_new (NULL);
      g_autoptr(AguiEvent) reread = NULL;

      FUZZ_CHECK (row != NULL, "an applied event cannot be stored: %s", error->message);
      /* The store prints events without their JsonObject: the same bytes */
      FUZZ_CHECK (_agui_event_append_json (event, printed, &error), "an event does not print: %s", error->message);
      FUZZ_CHECK (g_strcmp0 (printed->str, row) == 0, "an event prints differently:\n%s\nvs\n%s", printed->str, row);
      reread = _agui_event_new_from_stored (row, strlen (row), &error);
      FUZZ_CHECK (reread != NULL, "a stored event does not read back: %s", error->message);
      _agui_reducer_apply (refold, reread);
    }

  refolded = describe (_agui_reducer_get_transcript (refold));
  FUZZ_CHECK (g_strcmp0 (folded, refolded) == 0,
              "the stored log folds differently:\n%s\nvs\n%s", folded, refolded);

  return 0;
}
