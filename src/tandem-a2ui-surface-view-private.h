/* tandem-a2ui-surface-view-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-a2ui-surface-view.h"

G_BEGIN_DECLS

typedef struct _TandemA2uiBinding TandemA2uiBinding;
typedef void (*TandemA2uiRefreshFunc) (TandemA2uiBinding *binding);

/* One widget drawn for a component: what it shows is re-read from the
 * surface by @refresh, and what the person sets there goes back through
 * it. The view owns its bindings and drops them all on a rebuild; the
 * signals connected with _tandem_a2ui_binding_connect() go with them. */
struct _TandemA2uiBinding
{
  TandemA2uiSurfaceView *view;
  GtkWidget             *widget;
  AguiA2uiComponent     *component;
  char                  *scope;
  TandemA2uiRefreshFunc  refresh;
  GPtrArray             *sources;

  /* Kept by some kinds of component */
  char                  *loaded_url;   /* Image: the address shown or loading */
  guint                  tab_index;    /* Tabs: which tab's title */
  GPtrArray             *choices;      /* ChoicePicker: each option button's value, in order */
  GtkCalendar           *calendar;     /* DateTimeInput */
  GtkSpinButton         *hour;
  GtkSpinButton         *minute;
};

TandemA2uiBinding *_tandem_a2ui_binding_new            (GtkWidget             *widget,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope,
                                                        TandemA2uiRefreshFunc  refresh);
void               _tandem_a2ui_binding_connect        (TandemA2uiBinding     *binding,
                                                        gpointer               instance,
                                                        const char            *signal,
                                                        GCallback              callback);
AguiA2uiSurface   *_tandem_a2ui_binding_get_surface    (TandemA2uiBinding     *binding);
char              *_tandem_a2ui_binding_dup_text       (TandemA2uiBinding     *binding,
                                                        const char            *property);
gboolean           _tandem_a2ui_binding_is_refreshing  (TandemA2uiBinding     *binding);
void               _tandem_a2ui_binding_write_value    (TandemA2uiBinding     *binding,
                                                        const char            *property,
                                                        JsonNode              *value);

TandemA2uiBinding *_tandem_a2ui_surface_view_add_binding (TandemA2uiSurfaceView *self,
                                                          TandemA2uiBinding     *binding);
TandemA2uiBinding *_tandem_a2ui_surface_view_bind      (TandemA2uiSurfaceView *self,
                                                        GtkWidget             *widget,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope,
                                                        TandemA2uiRefreshFunc  refresh);
GtkWidget         *_tandem_a2ui_surface_view_build     (TandemA2uiSurfaceView *self,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope,
                                                        guint                  depth);
GCancellable      *_tandem_a2ui_surface_view_get_cancellable (TandemA2uiSurfaceView *self);
void               _tandem_a2ui_surface_view_press     (TandemA2uiSurfaceView *self,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope);

const char        *_tandem_a2ui_string_member          (JsonObject            *object,
                                                        const char            *name);

/* Display: tandem-a2ui-display.c */
GtkWidget *_tandem_a2ui_build_text        (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_image       (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_icon        (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_divider     (AguiA2uiComponent     *component);
GtkWidget *_tandem_a2ui_build_placeholder (AguiA2uiComponent     *component);

/* Layout: tandem-a2ui-layout.c */
GtkWidget *_tandem_a2ui_build_box         (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth,
                                           GtkOrientation         orientation);
GtkWidget *_tandem_a2ui_build_list        (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth);
GtkWidget *_tandem_a2ui_build_card        (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth);
GtkWidget *_tandem_a2ui_build_tabs        (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth);
GtkWidget *_tandem_a2ui_build_modal       (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth);

/* Inputs: tandem-a2ui-inputs.c */
GtkWidget *_tandem_a2ui_build_button      (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope,
                                           guint                  depth);
GtkWidget *_tandem_a2ui_build_text_field  (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_check_box   (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_slider      (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);
GtkWidget *_tandem_a2ui_build_choice_picker (TandemA2uiSurfaceView *self,
                                             AguiA2uiComponent     *component,
                                             const char            *scope);
GtkWidget *_tandem_a2ui_build_date_time   (TandemA2uiSurfaceView *self,
                                           AguiA2uiComponent     *component,
                                           const char            *scope);

G_END_DECLS
