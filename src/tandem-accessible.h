/* tandem-accessible.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void  tandem_accessible_init             (void);
void  tandem_accessible_announce         (GtkWidget  *widget,
                                          const char *message);
char *tandem_accessible_excerpt          (const char *text,
                                          guint       max_chars);
gboolean tandem_accessible_set_label     (GtkWidget  *widget,
                                          const char *label);
gboolean tandem_accessible_set_description (GtkWidget  *widget,
                                            const char *description);

GtkWidget *tandem_accessible_icon_new    (const char *icon_name);
void  tandem_accessible_label_by_content (GtkWidget  *widget,
                                          GtkWidget  *content);

G_END_DECLS
