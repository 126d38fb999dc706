/* agui-a2ui-component.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-version-macros.h"

G_BEGIN_DECLS

typedef enum
{
  AGUI_A2UI_COMPONENT_UNKNOWN,
  AGUI_A2UI_COMPONENT_TEXT,
  AGUI_A2UI_COMPONENT_IMAGE,
  AGUI_A2UI_COMPONENT_ICON,
  AGUI_A2UI_COMPONENT_DIVIDER,
  AGUI_A2UI_COMPONENT_ROW,
  AGUI_A2UI_COMPONENT_COLUMN,
  AGUI_A2UI_COMPONENT_LIST,
  AGUI_A2UI_COMPONENT_CARD,
  AGUI_A2UI_COMPONENT_TABS,
  AGUI_A2UI_COMPONENT_MODAL,
  AGUI_A2UI_COMPONENT_BUTTON,
  AGUI_A2UI_COMPONENT_TEXT_FIELD,
  AGUI_A2UI_COMPONENT_CHECK_BOX,
  AGUI_A2UI_COMPONENT_DATE_TIME_INPUT,
  AGUI_A2UI_COMPONENT_CHOICE_PICKER,
  AGUI_A2UI_COMPONENT_SLIDER,
} AguiA2uiComponentKind;

#define AGUI_TYPE_A2UI_COMPONENT (agui_a2ui_component_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiA2uiComponent, agui_a2ui_component, AGUI, A2UI_COMPONENT, GObject)

AGUI_AVAILABLE_IN_ALL
const char            *agui_a2ui_component_get_id           (AguiA2uiComponent *self);
AGUI_AVAILABLE_IN_ALL
const char            *agui_a2ui_component_get_type_name    (AguiA2uiComponent *self);
AGUI_AVAILABLE_IN_ALL
AguiA2uiComponentKind  agui_a2ui_component_get_kind         (AguiA2uiComponent *self);
AGUI_AVAILABLE_IN_ALL
JsonNode              *agui_a2ui_component_get_property     (AguiA2uiComponent *self,
                                                             const char        *name);
AGUI_AVAILABLE_IN_ALL
const char            *agui_a2ui_component_get_string       (AguiA2uiComponent *self,
                                                             const char        *name);
AGUI_AVAILABLE_IN_ALL
gboolean               agui_a2ui_component_get_boolean      (AguiA2uiComponent *self,
                                                             const char        *name,
                                                             gboolean           default_value);
AGUI_AVAILABLE_IN_ALL
double                 agui_a2ui_component_get_number       (AguiA2uiComponent *self,
                                                             const char        *name,
                                                             double             default_value);
AGUI_AVAILABLE_IN_ALL
const char            *agui_a2ui_component_get_template     (AguiA2uiComponent *self,
                                                             const char       **path);
AGUI_AVAILABLE_IN_ALL
char                 **agui_a2ui_component_dup_child_ids    (AguiA2uiComponent *self);
AGUI_AVAILABLE_IN_ALL
JsonObject            *agui_a2ui_component_get_properties   (AguiA2uiComponent *self);

G_END_DECLS
