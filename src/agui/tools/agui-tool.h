/* agui-tool.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_TYPE_TOOL (agui_tool_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (AguiTool, agui_tool, AGUI, TOOL, GObject)

struct _AguiToolClass
{
  GObjectClass parent_class;

  void   (*execute_async)  (AguiTool             *self,
                            JsonNode             *arguments,
                            GCancellable         *cancellable,
                            GAsyncReadyCallback   callback,
                            gpointer              user_data);
  char  *(*execute_finish) (AguiTool             *self,
                            GAsyncResult         *result,
                            GError              **error);

  /*< private >*/
  gpointer _reserved[8];
};

/**
 * AguiToolFunc:
 * @arguments: (nullable): the call's arguments as JSON, or %NULL if they did not parse
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * A tool that answers at once.
 *
 * Returns: (transfer full) (nullable): the result text, or %NULL with @error set
 */
typedef char *(*AguiToolFunc) (JsonNode  *arguments,
                               gpointer   user_data,
                               GError   **error);

AGUI_AVAILABLE_IN_ALL
AguiTool   *agui_tool_new_simple       (const char           *name,
                                        const char           *description,
                                        JsonNode             *parameters,
                                        AguiToolFunc          func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy);
AGUI_AVAILABLE_IN_ALL
const char *agui_tool_get_name         (AguiTool             *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_tool_get_description  (AguiTool             *self);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_tool_get_parameters   (AguiTool             *self);
AGUI_AVAILABLE_IN_ALL
JsonNode   *agui_tool_to_json          (AguiTool             *self);
AGUI_AVAILABLE_IN_ALL
void        agui_tool_execute_async    (AguiTool             *self,
                                        JsonNode             *arguments,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
char       *agui_tool_execute_finish   (AguiTool             *self,
                                        GAsyncResult         *result,
                                        GError              **error);

G_END_DECLS
