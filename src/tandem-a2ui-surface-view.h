/* tandem-a2ui-surface-view.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_A2UI_SURFACE_VIEW (tandem_a2ui_surface_view_get_type ())
G_DECLARE_FINAL_TYPE (TandemA2uiSurfaceView, tandem_a2ui_surface_view, TANDEM, A2UI_SURFACE_VIEW, GtkWidget)

GtkWidget        *tandem_a2ui_surface_view_new           (AguiActivityPart      *part,
                                                          AguiAgentSession      *session);
AguiActivityPart *tandem_a2ui_surface_view_get_part      (TandemA2uiSurfaceView *self);
AguiA2uiSurface  *tandem_a2ui_surface_view_get_surface   (TandemA2uiSurfaceView *self);
AguiAgentSession *tandem_a2ui_surface_view_get_session   (TandemA2uiSurfaceView *self);
void              tandem_a2ui_surface_view_set_session   (TandemA2uiSurfaceView *self,
                                                          AguiAgentSession      *session);
GtkWidget        *tandem_a2ui_surface_view_get_widget    (TandemA2uiSurfaceView *self,
                                                          const char            *component_id);
const char       *tandem_a2ui_surface_view_get_status_text (TandemA2uiSurfaceView *self);
guint             tandem_a2ui_surface_view_get_n_builds  (TandemA2uiSurfaceView *self);

gboolean          tandem_a2ui_is_surface                 (AguiActivityPart      *part);

G_END_DECLS
