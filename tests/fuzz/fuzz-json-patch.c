/* fuzz-json-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a document, a newline, and a patch. A patch that fails
 * leaves the document exactly as it was; one applied whole gives what its
 * operations give one at a time (the whole patch batches inserts and
 * rolls back through its log, one at a time does neither), success,
 * message and text alike. Both patch within bounds: no deeper than a
 * snapshot carries, and under a size cap small enough that chains of
 * copies reach it; the size each keeps is the size of what it made.
 */

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "fuzz.h"
#include "../agui-test-patch.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *newline = memchr (text, '\n', size);
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) stepwise_error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *stepwise_after = NULL;
  AguiJsonValue state = AGUI_JSON_VALUE_INIT;
  AguiJsonValue stepwise = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds = { 0 };
  AguiJsonDocBounds stepwise_bounds;
  gsize state_size = 0;
  gsize stepwise_size = 0;
  gboolean applied, stepwise_applied = TRUE;
  JsonArray *operations;

  fuzz_init ();

  if (newline == NULL ||
      !(document = _agui_json_parse (text, newline - text, NULL)) ||
      !(patch = _agui_json_parse (newline + 1, size - (newline + 1 - text), NULL)) ||
      !JSON_NODE_HOLDS_ARRAY (patch))
    return 0;

  _agui_json_value_set_node (&state, document);
  _agui_json_value_set_node (&stepwise, document);
  before = _agui_json_value_to_string (&state, FALSE, NULL);
  FUZZ_CHECK (before != NULL, "a parsed document does not print");

  _agui_json_node_measure (document, AGUI_JSON_MAX_DEPTH, &bounds.size);
  _agui_json_value_measure (&state, AGUI_JSON_MAX_DEPTH, &state_size);
  FUZZ_CHECK (bounds.size == state_size, "the trees measure %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT,
              bounds.size, state_size);
  bounds.max_size = 2 * bounds.size + 4096;
  stepwise_bounds = bounds;

  operations = json_node_get_array (patch);
  applied = agui_test_apply_patch (&state, &bounds, operations, &error);
  for (guint i = 0; i < json_array_get_length (operations) && stepwise_applied; i++)
    {
      g_autoptr(JsonArray) one = json_array_new ();

      json_array_add_element (one, json_node_copy (json_array_get_element (operations, i)));
      stepwise_applied = agui_test_apply_patch (&stepwise, &stepwise_bounds, one, &stepwise_error);
    }

  after = _agui_json_value_to_string (&state, FALSE, NULL);
  stepwise_after = _agui_json_value_to_string (&stepwise, FALSE, NULL);
  state_size = stepwise_size = 0;
  _agui_json_value_measure (&state, AGUI_JSON_MAX_DEPTH, &state_size);
  _agui_json_value_measure (&stepwise, AGUI_JSON_MAX_DEPTH, &stepwise_size);
  _agui_json_value_clear (&state);
  _agui_json_value_clear (&stepwise);

  /* within the depth bound, whatever the patch did */
  FUZZ_CHECK (after != NULL, "a patch made a document that does not print");
  FUZZ_CHECK (bounds.size == state_size, "the patch kept a size of %" G_GSIZE_FORMAT ", not %" G_GSIZE_FORMAT,
              bounds.size, state_size);
  FUZZ_CHECK (stepwise_bounds.size == stepwise_size, "one operation at a time kept a size of %" G_GSIZE_FORMAT
              ", not %" G_GSIZE_FORMAT, stepwise_bounds.size, stepwise_size);

  FUZZ_CHECK (applied == stepwise_applied, "the patch %s where one operation at a time %s",
              applied ? "applied" : "failed", stepwise_applied ? "applied" : "failed");

  if (applied)
    {
      FUZZ_CHECK (g_strcmp0 (after, stepwise_after) == 0, "the patch gave %s, one operation at a time %s",
                  after, stepwise_after);
      return 0;
    }

  FUZZ_CHECK (error != NULL, "a failed patch without a reason");
  FUZZ_CHECK (g_strcmp0 (before, after) == 0, "a failed patch changed the document: %s -> %s", before, after);

  return 0;
}
