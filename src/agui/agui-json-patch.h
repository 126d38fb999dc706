/* agui-json-patch.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

AGUI_AVAILABLE_IN_ALL
gboolean  agui_json_patch_apply          (JsonNode    **document,
                                          JsonArray    *patch,
                                          GError      **error);
AGUI_AVAILABLE_IN_ALL
gboolean  agui_json_pointer_is_valid     (const char   *pointer);
AGUI_AVAILABLE_IN_ALL
JsonNode *agui_json_pointer_get          (JsonNode     *document,
                                          const char   *pointer,
                                          GError      **error);
AGUI_AVAILABLE_IN_ALL
gboolean  agui_json_node_equal           (JsonNode     *a,
                                          JsonNode     *b);

G_END_DECLS
