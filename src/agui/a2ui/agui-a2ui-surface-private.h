/* agui-a2ui-surface-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-a2ui-surface.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* Deeper than any real surface; a bound on every walk over the tree. */
#define MAX_TREE_DEPTH 64

/* A v0.8 bound value with a literal: the data to set at its path */
typedef struct
{
  char          *path;
  AguiJsonValue  value;
} AguiA2uiInitializer;

/* agui-a2ui-surface.c */
void        _agui_a2ui_surface_operation_error (AguiA2uiSurface  *self,
                                                const char       *format,
                                                ...) G_GNUC_PRINTF (2, 3);

/* agui-a2ui-pointer.c */
char       *_agui_a2ui_absolute_path           (const char       *scope,
                                                const char       *path);
/* Borrowed from @root, until it next changes. */
AguiJsonValue *_agui_a2ui_pointer_lookup       (AguiJsonValue    *root,
                                                const char       *pointer);
gboolean    _agui_a2ui_pointer_store           (AguiJsonValue    *root,
                                                const char       *pointer,
                                                AguiJsonValue    *value,
                                                GError          **error);

/* agui-a2ui-v08.c */
void        _agui_a2ui_initializer_free        (AguiA2uiInitializer *initializer);
void        _agui_a2ui_convert_properties_v08  (const char          *type_name,
                                                const AguiJsonValue *source,
                                                GPtrArray           *initializers,
                                                AguiJsonValue       *properties);
void        _agui_a2ui_convert_contents_v08    (GPtrArray           *problems,
                                                const AguiJsonValue *contents,
                                                guint                depth,
                                                AguiJsonValue       *converted);

G_END_DECLS
