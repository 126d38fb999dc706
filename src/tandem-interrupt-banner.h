/* tandem-interrupt-banner.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_INTERRUPT_BANNER (tandem_interrupt_banner_get_type ())
G_DECLARE_FINAL_TYPE (TandemInterruptBanner, tandem_interrupt_banner, TANDEM, INTERRUPT_BANNER, GtkWidget)

GtkWidget  *tandem_interrupt_banner_new       (void);
guint       tandem_interrupt_banner_get_count (TandemInterruptBanner *self);
void        tandem_interrupt_banner_set_count (TandemInterruptBanner *self,
                                               guint                  count);
void        tandem_interrupt_banner_set_expired (TandemInterruptBanner *self,
                                                 guint                  expired);
const char *tandem_interrupt_banner_get_text  (TandemInterruptBanner *self);

G_END_DECLS
