/* agui-test-patch.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"

G_BEGIN_DECLS

/* The patch engine reads its patch as a tree; tests write theirs with
 * json-glib. */
static inline gboolean
agui_test_apply_patch (AguiJsonValue      *document,
                       AguiJsonDocBounds  *bounds,
                       JsonArray          *patch,
                       GError            **error)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), patch);
  AguiJsonValue operations = AGUI_JSON_VALUE_INIT;
  gboolean applied;

  _agui_json_value_set_node (&operations, node);
  applied = _agui_json_doc_patch_apply (document, bounds, &operations, error);
  _agui_json_value_clear (&operations);

  return applied;
}

G_END_DECLS
