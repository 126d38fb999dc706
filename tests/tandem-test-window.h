/* tandem-test-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui-test-util.h"
#include "tandem-application.h"
#include "tandem-window.h"

G_BEGIN_DECLS

/* What the widget tests share: looking into a real window as a person
 * would see it. */

void       tandem_test_wait_for_layout  (gpointer      window);
void       tandem_test_destroy_window   (gpointer      window);
void       tandem_test_close_window     (gpointer      window);
void       tandem_test_wait_for_frame   (gpointer      widget);
void       tandem_test_wait_for_threads (TandemWindow *window);
GtkWidget *tandem_test_child       (TandemWindow *window,
                                    const char   *name);
void       tandem_test_collect     (GtkWidget    *widget,
                                    GType         type,
                                    GPtrArray    *found);
GPtrArray *tandem_test_find_all    (gpointer      widget,
                                    GType         type);
GtkLabel  *tandem_test_find_label  (gpointer      widget,
                                    const char   *text);

void               tandem_test_init             (int          *argc,
                                                 char       ***argv);
char              *tandem_test_make_store_dir   (const char   *name,
                                                 char        **store_path);
void               tandem_test_remove_store     (const char   *store_dir,
                                                 const char   *store_path);
TandemApplication *tandem_test_application_new  (const char   *application_id,
                                                 const char   *store_path);
void               tandem_test_move_pointer     (GtkWidget    *widget,
                                                 double        x,
                                                 double        y);
GPtrArray         *tandem_test_take_notifications     (void);
GPtrArray         *tandem_test_wait_for_notifications (guint         n);
void               tandem_test_assert_notification    (GVariant           *notification,
                                                       const char         *summary,
                                                       const char         *body,
                                                       const char * const *actions);
void               tandem_test_unfocus_windows  (gpointer         window);
void               tandem_test_load_style       (void);
void               tandem_test_click            (GtkWidget    *widget,
                                                 double        x,
                                                 double        y,
                                                 guint         button);
void               tandem_test_wheel            (GtkWidget       *widget,
                                                 double           x,
                                                 double           y,
                                                 guint            button,
                                                 GdkModifierType  modifiers);
void               tandem_test_press_key        (GtkWidget       *widget,
                                                 guint            keyval,
                                                 GdkModifierType  modifiers);

G_END_DECLS
