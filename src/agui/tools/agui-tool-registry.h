/* agui-tool-registry.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-tool.h"

G_BEGIN_DECLS

#define AGUI_TYPE_TOOL_REGISTRY (agui_tool_registry_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiToolRegistry, agui_tool_registry, AGUI, TOOL_REGISTRY, GObject)

AGUI_AVAILABLE_IN_ALL
AguiToolRegistry *agui_tool_registry_new     (void);
AGUI_AVAILABLE_IN_ALL
void              agui_tool_registry_add     (AguiToolRegistry *self,
                                              AguiTool         *tool);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_tool_registry_remove  (AguiToolRegistry *self,
                                              const char       *name);
AGUI_AVAILABLE_IN_ALL
AguiTool         *agui_tool_registry_lookup  (AguiToolRegistry *self,
                                              const char       *name);
AGUI_AVAILABLE_IN_ALL
JsonArray        *agui_tool_registry_to_json (AguiToolRegistry *self);

G_END_DECLS
