/* tandem-thread-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_THREAD_ROW (tandem_thread_row_get_type ())
G_DECLARE_FINAL_TYPE (TandemThreadRow, tandem_thread_row, TANDEM, THREAD_ROW, GtkListBoxRow)

GtkWidget      *tandem_thread_row_new              (AguiThreadInfo  *info);
AguiThreadInfo *tandem_thread_row_get_info         (TandemThreadRow *self);
gboolean        tandem_thread_row_get_waiting      (TandemThreadRow *self);
void            tandem_thread_row_set_waiting      (TandemThreadRow *self,
                                                    gboolean         waiting);
gboolean        tandem_thread_row_get_working      (TandemThreadRow *self);
gboolean        tandem_thread_row_get_unseen       (TandemThreadRow *self);
void            tandem_thread_row_set_activity     (TandemThreadRow *self,
                                                    gboolean         working,
                                                    gboolean         unseen);
GtkPopover     *tandem_thread_row_get_context_menu (TandemThreadRow *self);

G_END_DECLS
