/* agui-test-tree.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* A turn's messages, state and interrupts reach the store as trees;
 * tests write theirs with json-glib. The tree lives until the test case
 * ends (NULL stays NULL). */
static inline const AguiJsonValue *
agui_test_tree (JsonNode *node)
{
  AguiJsonValue *value;

  if (node == NULL)
    return NULL;

  value = g_new0 (AguiJsonValue, 1);
  _agui_json_value_set_node (value, node);
  g_test_queue_destroy ((GDestroyNotify) _agui_json_doc_value_free, value);

  return value;
}

static inline const AguiJsonValue *
agui_test_array_tree (JsonArray *array)
{
  g_autoptr(JsonNode) node = NULL;

  if (array == NULL)
    return NULL;

  node = json_node_init_array (json_node_alloc (), array);
  return agui_test_tree (node);
}

G_END_DECLS
