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

/* JSON Patch (RFC 6902) over the compact tree (agui-json-doc-patch.c),
 * the one engine for the shared state, activity content and the demo
 * agent: atomic (a patch that fails leaves @document as it was), each
 * object member found in O(1), an operation at either end of an array
 * O(1) amortised. @bounds: NULL for the depth bound and the default
 * cap, the size measured first (O(size of @document)).
 *
 * Unlike the reference, an operation that would nest the document deeper
 * than a snapshot frame can carry, or grow it past the cap, fails the
 * patch, so that no run of small patches builds a document that no parser
 * or printer could take. */
gboolean _agui_json_doc_patch_apply     (AguiJsonValue      *document,
                                         AguiJsonDocBounds  *bounds,
                                         JsonArray          *patch,
                                         GError            **error);
/* The same for a patch (an array) in the compact tree */
gboolean _agui_json_doc_patch_apply_value (AguiJsonValue       *document,
                                           AguiJsonDocBounds   *bounds,
                                           const AguiJsonValue *patch,
                                           GError             **error);
gboolean _agui_json_doc_patch_apply_ops (AguiJsonValue      *document,
                                         AguiJsonDocBounds  *bounds,
                                         const AguiPatchOp  *ops,
                                         guint               n_ops,
                                         const char         *strings,
                                         const char         *patch,
                                         GError            **error);

/* agui-json-pointer.c: a pointer's tokens (NULL and @error if it is not
 * a pointer or holds "__proto__"), a pointer for messages, an index. */
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

/* JSON Patch `test` equality over json-glib nodes: 1 equals 1.0, members
 * in any order, %NULL equals only %NULL. */
gboolean   _agui_json_node_equal          (JsonNode          *a,
                                          JsonNode          *b);

G_END_DECLS
