/* tandem-toaster.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_TOASTER (tandem_toaster_get_type ())
G_DECLARE_FINAL_TYPE (TandemToaster, tandem_toaster, TANDEM, TOASTER, GObject)

TandemToaster *tandem_toaster_new               (GtkWidget     *host);
void           tandem_toaster_add               (TandemToaster *self,
                                                 AdwToast      *toast);
void           tandem_toaster_withdraw          (TandemToaster *self,
                                                 AdwToast      *toast);
gboolean       tandem_toaster_get_queues_itself (TandemToaster *self);
void           tandem_toaster_set_queues_itself (TandemToaster *self,
                                                 gboolean       queues_itself);

G_END_DECLS
