/* fuzz-json-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a document, a newline, and a patch. A patch that fails
 * leaves the document exactly as it was. The shared state's tree, patched
 * by its own implementation, gives the same outcome, message and text.
 * Both patch within bounds: no deeper than a snapshot carries, and under
 * a size cap small enough that chains of copies reach it; the size each
 * keeps is the size of what it made.
 */

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *newline = memchr (text, '\n', size);
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *state_after = NULL;
  g_autoptr(GError) state_error = NULL;
  AguiJsonValue state = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds = { 0 };
  AguiJsonDocBounds state_bounds = { 0 };
  gsize node_size = 0;
  gsize state_size = 0;
  gboolean applied, state_applied;

  fuzz_init ();

  if (newline == NULL ||
      !(document = _agui_json_parse (text, newline - text, NULL)) ||
      !(patch = _agui_json_parse (newline + 1, size - (newline + 1 - text), NULL)) ||
      !JSON_NODE_HOLDS_ARRAY (patch))
    return 0;

  before = _agui_json_to_string (document, FALSE, NULL);
  FUZZ_CHECK (before != NULL, "a parsed document does not print");

  _agui_json_value_set_node (&state, document);
  _agui_json_node_measure (document, AGUI_JSON_MAX_DEPTH, &bounds.size);
  _agui_json_value_measure (&state, AGUI_JSON_MAX_DEPTH, &state_bounds.size);
  FUZZ_CHECK (bounds.size == state_bounds.size, "the trees measure %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT,
              bounds.size, state_bounds.size);
  bounds.max_size = state_bounds.max_size = 2 * bounds.size + 4096;

  applied = _agui_json_patch_apply_bounded (&document, &bounds, json_node_get_array (patch), &error);
  state_applied = _agui_json_doc_patch_apply (&state, &state_bounds, json_node_get_array (patch), &state_error);
  after = _agui_json_to_string (document, FALSE, NULL);
  state_after = _agui_json_value_to_string (&state, FALSE, NULL);
  _agui_json_node_measure (document, AGUI_JSON_MAX_DEPTH, &node_size);
  _agui_json_value_measure (&state, AGUI_JSON_MAX_DEPTH, &state_size);
  _agui_json_value_clear (&state);

  /* within the depth bound, whatever the patch did */
  FUZZ_CHECK (after != NULL, "a patch made a document that does not print");
  FUZZ_CHECK (bounds.size == node_size, "json-glib's patch kept a size of %" G_GSIZE_FORMAT ", not %" G_GSIZE_FORMAT,
              bounds.size, node_size);
  FUZZ_CHECK (state_bounds.size == state_size, "the state's patch kept a size of %" G_GSIZE_FORMAT
              ", not %" G_GSIZE_FORMAT, state_bounds.size, state_size);

  FUZZ_CHECK (applied == state_applied, "the state's patch %s where json-glib's %s",
              state_applied ? "applied" : "failed", applied ? "applied" : "failed");
  FUZZ_CHECK (g_strcmp0 (after, state_after) == 0, "the state's patch gave %s, json-glib's %s",
              state_after, after);

  if (applied)
    return 0;

  FUZZ_CHECK (error != NULL, "a failed patch without a reason");
  FUZZ_CHECK (g_strcmp0 (error->message, state_error->message) == 0, "the state's patch failed with '%s', "
              "json-glib's with '%s'", state_error->message, error->message);
  FUZZ_CHECK (g_strcmp0 (before, after) == 0, "a failed patch changed the document: %s -> %s", before, after);

  return 0;
}
