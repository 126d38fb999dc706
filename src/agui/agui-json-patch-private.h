/* agui-json-patch-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-private.h"
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

/* agui_json_patch_apply () within @bounds (NULL: the depth bound only),
 * whose size it keeps. */
gboolean _agui_json_patch_apply_bounded (JsonNode          **document,
                                         AguiJsonDocBounds  *bounds,
                                         JsonArray          *patch,
                                         GError            **error);

/* The same patches over the shared state's tree (agui-json-doc-patch.c):
 * the same semantics, the same errors, the same atomicity, each object
 * member found in O(1). @bounds: NULL for the default cap, the size
 * measured first (O(size of @document)). */
gboolean _agui_json_doc_patch_apply     (AguiJsonValue      *document,
                                         AguiJsonDocBounds  *bounds,
                                         JsonArray          *patch,
                                         GError            **error);
gboolean _agui_json_doc_patch_apply_ops (AguiJsonValue      *document,
                                         AguiJsonDocBounds  *bounds,
                                         const AguiPatchOp  *ops,
                                         guint               n_ops,
                                         const char         *strings,
                                         const char         *patch,
                                         GError            **error);

/* What both share: a pointer's tokens (NULL and @error if it is not a
 * pointer or holds "__proto__"), a pointer for messages, an index. */
GPtrArray *_agui_json_pointer_parse      (const char         *pointer,
                                          GError            **error);
char      *_agui_json_pointer_describe   (GPtrArray          *tokens,
                                          guint               n_tokens);
gboolean   _agui_json_array_index_parse  (const char         *token,
                                          guint              *index);
gboolean   _agui_json_patch_read_operation (JsonNode         *element,
                                            guint             position,
                                            const char      **op,
                                            const char      **path,
                                            const char      **from,
                                            JsonNode        **value,
                                            GError          **error);
void       _agui_json_patch_prefix_error (GError           **error,
                                          GError            *local_error,
                                          guint              position,
                                          const char        *op,
                                          const char        *path,
                                          const char        *from);
gboolean   _agui_json_array_index_resolve (GPtrArray         *tokens,
                                           guint              depth,
                                           guint              length,
                                           gboolean           for_insert,
                                           guint             *index,
                                           GError           **error);

G_END_DECLS
