/* tandem-a2ui-binding-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

typedef struct _TandemA2uiBinding TandemA2uiBinding;
typedef struct _TandemA2uiBuilder TandemA2uiBuilder;
typedef void (*TandemA2uiRefreshFunc) (TandemA2uiBinding *binding);

/* What a family's build function is given: filled in by the view, which
 * owns all of it, so that the families build children and press buttons
 * through it rather than calling the view by name. */
struct _TandemA2uiBuilder
{
  GtkWidget        *widget;        /* the view: a modal is transient for its root */
  AguiA2uiSurface  *surface;
  GCancellable     *cancellable;
  GPtrArray        *bindings;      /* of TandemA2uiBinding, dropped on a rebuild */
  gboolean          refreshing;

  GtkWidget *(*build)     (TandemA2uiBuilder *self,
                           AguiA2uiComponent *component,
                           const char        *scope,
                           guint              depth);
  void       (*press)     (TandemA2uiBuilder *self,
                           AguiA2uiComponent *component,
                           const char        *scope);
  void       (*value_set) (TandemA2uiBuilder *self);
};

/* One widget drawn for a component: what it shows is re-read from the
 * surface by @refresh, and what the person sets there goes back through
 * it. The builder holds its bindings and drops them all on a rebuild; the
 * signals connected with _tandem_a2ui_binding_connect() go with them. */
struct _TandemA2uiBinding
{
  TandemA2uiBuilder     *builder;
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

void               _tandem_a2ui_binding_free           (TandemA2uiBinding     *binding);
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

TandemA2uiBinding *_tandem_a2ui_builder_add_binding   (TandemA2uiBuilder     *self,
                                                        TandemA2uiBinding     *binding);
TandemA2uiBinding *_tandem_a2ui_builder_bind          (TandemA2uiBuilder     *self,
                                                        GtkWidget             *widget,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope,
                                                        TandemA2uiRefreshFunc  refresh);
GtkWidget         *_tandem_a2ui_builder_build         (TandemA2uiBuilder     *self,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope,
                                                        guint                  depth);
void               _tandem_a2ui_builder_press         (TandemA2uiBuilder     *self,
                                                        AguiA2uiComponent     *component,
                                                        const char            *scope);

const char        *_tandem_a2ui_string_member          (JsonObject            *object,
                                                        const char            *name);

/* The component families, a file each (tandem-a2ui-display.c, -layout.c
 * and -inputs.c): the function that builds a kind of component, or NULL
 * for a kind of another family's. Display builds the placeholder for
 * AGUI_A2UI_COMPONENT_UNKNOWN. */
typedef GtkWidget *(*TandemA2uiBuildFunc) (TandemA2uiBuilder *self,
                                           AguiA2uiComponent *component,
                                           const char        *scope,
                                           guint              depth);

TandemA2uiBuildFunc _tandem_a2ui_display_builder (AguiA2uiComponentKind kind);
TandemA2uiBuildFunc _tandem_a2ui_layout_builder  (AguiA2uiComponentKind kind);
TandemA2uiBuildFunc _tandem_a2ui_inputs_builder  (AguiA2uiComponentKind kind);

G_END_DECLS
