/* tandem-scroll-span.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tandem-block-window.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_SCROLL_SPAN (tandem_scroll_span_get_type ())
G_DECLARE_FINAL_TYPE (TandemScrollSpan, tandem_scroll_span, TANDEM, SCROLL_SPAN, GObject)

TandemScrollSpan *tandem_scroll_span_new           (GtkScrolledWindow *scroller,
                                                    GtkWidget         *view,
                                                    guint              margin);
GtkWidget        *tandem_scroll_span_get_scrollbar (TandemScrollSpan  *self);
GtkAdjustment    *tandem_scroll_span_get_adjustment (TandemScrollSpan *self);
void              tandem_scroll_span_set_window    (TandemScrollSpan  *self,
                                                    TandemBlockWindow *window);
void              tandem_scroll_span_to_start      (TandemScrollSpan  *self);

G_END_DECLS
