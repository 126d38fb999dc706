/* agui-json-patch-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-patch.h"
#include "agui-patch-reader-private.h"

G_BEGIN_DECLS

/* As agui_json_patch_apply () for operations the patch reader read from
 * @patch, with the same results and the same errors. */
gboolean _agui_json_patch_apply_ops (JsonNode          **document,
                                     const AguiPatchOp  *ops,
                                     guint               n_ops,
                                     const char         *strings,
                                     const char         *patch,
                                     GError            **error);

G_END_DECLS
