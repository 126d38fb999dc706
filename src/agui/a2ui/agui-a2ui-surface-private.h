/* agui-a2ui-surface-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-a2ui-surface.h"

G_BEGIN_DECLS

/* Deeper than any real surface; a bound on every walk over the tree. */
#define MAX_TREE_DEPTH 64

/* A v0.8 bound value with a literal: the data to set at its path */
typedef struct
{
  char     *path;
  JsonNode *value;
} AguiA2uiInitializer;

/* agui-a2ui-surface.c */
void        _agui_a2ui_surface_operation_error (AguiA2uiSurface  *self,
                                                const char       *format,
                                                ...) G_GNUC_PRINTF (2, 3);

/* agui-a2ui-pointer.c */
char       *_agui_a2ui_absolute_path           (const char       *scope,
                                                const char       *path);
JsonNode   *_agui_a2ui_pointer_lookup          (JsonNode         *root,
                                                const char       *pointer);
gboolean    _agui_a2ui_pointer_store           (JsonNode        **root,
                                                const char       *pointer,
                                                JsonNode         *value,
                                                GError          **error);
const char *_agui_a2ui_string_member           (JsonObject       *object,
                                                const char       *name,
                                                const char       *default_value);

/* agui-a2ui-v08.c */
void        _agui_a2ui_initializer_free        (AguiA2uiInitializer *initializer);
JsonObject *_agui_a2ui_convert_properties_v08  (const char       *type_name,
                                                JsonNode         *source,
                                                GPtrArray        *initializers);
JsonNode   *_agui_a2ui_convert_contents_v08    (GPtrArray        *problems,
                                                JsonNode         *contents,
                                                guint            depth);

G_END_DECLS
