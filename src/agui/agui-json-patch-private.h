/* agui-json-patch-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-patch-reader-private.h"
#include "agui-types.h"

G_BEGIN_DECLS

gboolean  agui_json_patch_apply          (JsonNode    **document,
                                          JsonArray    *patch,
                                          GError      **error);
gboolean  agui_json_pointer_is_valid     (const char   *pointer);
JsonNode *agui_json_pointer_get          (JsonNode     *document,
                                          const char   *pointer,
                                          GError      **error);
gboolean  agui_json_node_equal           (JsonNode     *a,
                                          JsonNode     *b);

/* As agui_json_patch_apply () for operations the patch reader read from
 * @patch, with the same results and the same errors. */
gboolean _agui_json_patch_apply_ops (JsonNode          **document,
                                     const AguiPatchOp  *ops,
                                     guint               n_ops,
                                     const char         *strings,
                                     const char         *patch,
                                     GError            **error);

G_END_DECLS
