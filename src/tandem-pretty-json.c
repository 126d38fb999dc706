/* tandem-pretty-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-pretty-json.h"

/* JSON as the person reads it, shared by the tool cards, the activity
 * rows and the state inspector: a helper of its own, so that none of
 * them reaches into another widget's file for it. */

/**
 * tandem_pretty_json:
 * @node: (nullable): a JSON value
 *
 * Returns: (transfer full): @node as indented JSON, or an empty string
 */
char *
tandem_pretty_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = NULL;

  if (node == NULL)
    return g_strdup ("");

  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}
