/* agui-run-parameters.h
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

typedef struct _AguiRunParameters AguiRunParameters;

#define AGUI_TYPE_RUN_PARAMETERS (agui_run_parameters_get_type ())

AGUI_AVAILABLE_IN_ALL
GType              agui_run_parameters_get_type            (void) G_GNUC_CONST;
AGUI_AVAILABLE_IN_ALL
AguiRunParameters *agui_run_parameters_new                 (void);
AGUI_AVAILABLE_IN_ALL
AguiRunParameters *agui_run_parameters_ref                 (AguiRunParameters *self);
AGUI_AVAILABLE_IN_ALL
void               agui_run_parameters_unref               (AguiRunParameters *self);
AGUI_AVAILABLE_IN_ALL
void               agui_run_parameters_set_tools           (AguiRunParameters *self,
                                                            JsonArray         *tools);
AGUI_AVAILABLE_IN_ALL
JsonArray         *agui_run_parameters_get_tools           (AguiRunParameters *self);
AGUI_AVAILABLE_IN_ALL
void               agui_run_parameters_set_context         (AguiRunParameters *self,
                                                            JsonArray         *context);
AGUI_AVAILABLE_IN_ALL
JsonArray         *agui_run_parameters_get_context         (AguiRunParameters *self);
AGUI_AVAILABLE_IN_ALL
void               agui_run_parameters_set_forwarded_props (AguiRunParameters *self,
                                                            JsonNode          *forwarded_props);
AGUI_AVAILABLE_IN_ALL
JsonNode          *agui_run_parameters_get_forwarded_props (AguiRunParameters *self);
AGUI_AVAILABLE_IN_ALL
void               agui_run_parameters_set_state           (AguiRunParameters *self,
                                                            JsonNode          *state);
AGUI_AVAILABLE_IN_ALL
JsonNode          *agui_run_parameters_get_state           (AguiRunParameters *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiRunParameters, agui_run_parameters_unref)

G_END_DECLS
