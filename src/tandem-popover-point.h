/* tandem-popover-point.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void tandem_popover_point_at (GtkPopover *popover,
                              double      x,
                              double      y);

G_END_DECLS
