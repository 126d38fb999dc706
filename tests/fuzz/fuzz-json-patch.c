/* fuzz-json-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a document, a newline, and a patch. A patch that fails
 * leaves the document exactly as it was.
 */

#include "config.h"

#include <string.h>

#include "agui.h"
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

  fuzz_init ();

  if (newline == NULL ||
      !(document = _agui_json_parse (text, newline - text, NULL)) ||
      !(patch = _agui_json_parse (newline + 1, size - (newline + 1 - text), NULL)) ||
      !JSON_NODE_HOLDS_ARRAY (patch))
    return 0;

  before = _agui_json_to_string (document, FALSE, NULL);
  FUZZ_CHECK (before != NULL, "a parsed document does not print");

  if (agui_json_patch_apply (&document, json_node_get_array (patch), &error))
    return 0;

  FUZZ_CHECK (error != NULL, "a failed patch without a reason");
  after = _agui_json_to_string (document, FALSE, NULL);
  FUZZ_CHECK (g_strcmp0 (before, after) == 0, "a failed patch changed the document: %s -> %s", before, after);

  return 0;
}
