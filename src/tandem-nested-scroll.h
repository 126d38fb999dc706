/* tandem-nested-scroll.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void tandem_nested_scroll_pass_on (GtkScrolledWindow *scroller,
                                   GtkOrientation     orientation);

G_END_DECLS
