/* agui-json-doc-node-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* For an object that keeps a value in the compact tree behind a public
 * getter that hands out a JsonNode: @value's node, sealed, built on the
 * first call and kept in *@cache (which the object unrefs). When threads
 * ask at once, one node is kept and the others are dropped. */
static inline JsonNode *
_agui_json_value_ensure_node (const AguiJsonValue  *value,
                              JsonNode            **cache)
{
  JsonNode *node = g_atomic_pointer_get (cache);

  if (node != NULL)
    return node;

  node = _agui_json_value_to_node (value);
  json_node_seal (node);
  if (!g_atomic_pointer_compare_and_exchange (cache, NULL, node))
    {
      json_node_unref (node);
      node = g_atomic_pointer_get (cache);
    }

  return node;
}

G_END_DECLS
