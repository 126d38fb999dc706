/* fuzz-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Whatever the checked parser accepts, the printer writes, and what it
 * writes parses back to a document that prints the same.
 */

#include "config.h"

#include "agui-json-private.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *compact = NULL;
  g_autofree char *pretty = NULL;
  g_autofree char *reprinted = NULL;

  fuzz_init ();

  if (!(node = _agui_json_parse ((const char *) data, size, &error)))
    {
      FUZZ_CHECK (error != NULL, "a refusal without a reason");
      return 0;
    }

  compact = _agui_json_to_string (node, FALSE, &error);
  FUZZ_CHECK (compact != NULL, "an accepted document does not print: %s", error->message);
  pretty = _agui_json_to_string (node, TRUE, &error);
  FUZZ_CHECK (pretty != NULL, "an accepted document does not print pretty: %s", error->message);
  FUZZ_CHECK (g_utf8_validate (compact, -1, NULL), "the output is not UTF-8");

  again = _agui_json_parse (pretty, -1, &error);
  FUZZ_CHECK (again != NULL, "the printed document does not parse: %s", error ? error->message : "");
  reprinted = _agui_json_to_string (again, FALSE, &error);
  FUZZ_CHECK (g_strcmp0 (reprinted, compact) == 0, "printing is not stable: %s / %s", compact, reprinted);

  return 0;
}
