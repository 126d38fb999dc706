/* agui-a2ui-surface.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-a2ui-component.h"

G_BEGIN_DECLS

#define AGUI_A2UI_ACTIVITY_TYPE "a2ui-surface"

#define AGUI_TYPE_A2UI_SURFACE (agui_a2ui_surface_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiA2uiSurface, agui_a2ui_surface, AGUI, A2UI_SURFACE, GObject)

AGUI_AVAILABLE_IN_ALL
AguiA2uiSurface    *agui_a2ui_surface_new              (void);
AGUI_AVAILABLE_IN_ALL
void                agui_a2ui_surface_apply_content    (AguiA2uiSurface   *self,
                                                        JsonNode          *content);
AGUI_AVAILABLE_IN_ALL
const char         *agui_a2ui_surface_get_surface_id   (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_a2ui_surface_get_root_id      (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_a2ui_surface_get_status       (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
gboolean            agui_a2ui_surface_get_ready        (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
gboolean            agui_a2ui_surface_get_deleted      (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
const char * const *agui_a2ui_surface_get_errors       (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
guint               agui_a2ui_surface_get_n_components (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
AguiA2uiComponent  *agui_a2ui_surface_get_component    (AguiA2uiSurface   *self,
                                                        const char        *id);
AGUI_AVAILABLE_IN_ALL
AguiA2uiComponent  *agui_a2ui_surface_get_root         (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
GPtrArray          *agui_a2ui_surface_list_children    (AguiA2uiSurface   *self,
                                                        AguiA2uiComponent *component,
                                                        const char        *scope,
                                                        GPtrArray        **scopes);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_a2ui_surface_get_data_model   (AguiA2uiSurface   *self);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_a2ui_surface_resolve          (AguiA2uiSurface   *self,
                                                        JsonNode          *value,
                                                        const char        *scope);
AGUI_AVAILABLE_IN_ALL
char               *agui_a2ui_surface_resolve_string   (AguiA2uiSurface   *self,
                                                        JsonNode          *value,
                                                        const char        *scope);
AGUI_AVAILABLE_IN_ALL
char               *agui_a2ui_surface_dup_bound_path   (AguiA2uiSurface   *self,
                                                        JsonNode          *value,
                                                        const char        *scope);
AGUI_AVAILABLE_IN_ALL
gboolean            agui_a2ui_surface_set_value        (AguiA2uiSurface   *self,
                                                        const char        *path,
                                                        JsonNode          *value,
                                                        GError           **error);
AGUI_AVAILABLE_IN_ALL
JsonObject         *agui_a2ui_surface_build_action     (AguiA2uiSurface   *self,
                                                        AguiA2uiComponent *component,
                                                        const char        *scope,
                                                        GError           **error);

G_END_DECLS
