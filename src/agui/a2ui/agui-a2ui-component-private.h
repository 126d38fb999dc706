/* agui-a2ui-component-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-a2ui-component.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

AguiA2uiComponent     *_agui_a2ui_component_new          (const char    *id,
                                                          const char    *type_name,
                                                          AguiJsonValue *properties);
/* The properties, an object; borrowed, as long as @self lives. */
const AguiJsonValue   *_agui_a2ui_component_get_tree     (AguiA2uiComponent *self);
AguiA2uiComponentKind  _agui_a2ui_component_kind_for_name (const char *type_name);
gboolean               _agui_a2ui_component_equal        (AguiA2uiComponent *a,
                                                          AguiA2uiComponent *b);

G_END_DECLS
