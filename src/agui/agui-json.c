/* agui-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"

/* AG-UI metadata merges shallowly, key by key, last write wins (12.2):
 * an object under a key is replaced whole, never merged deeply. */
void
_agui_json_object_merge (JsonObject *target,
                         JsonObject *source)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, source);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_member (target, name, json_node_copy (value));
}

JsonNode *
_agui_json_node_new_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);

  return node;
}

JsonNode *
_agui_json_node_new_array (JsonArray *array)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);

  return node;
}
