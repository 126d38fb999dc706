/* tandem-save-banner.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_SAVE_BANNER (tandem_save_banner_get_type ())
G_DECLARE_FINAL_TYPE (TandemSaveBanner, tandem_save_banner, TANDEM, SAVE_BANNER, GtkWidget)

GtkWidget        *tandem_save_banner_new         (void);
AguiAgentSession *tandem_save_banner_get_session (TandemSaveBanner *self);
void              tandem_save_banner_set_session (TandemSaveBanner *self,
                                                  AguiAgentSession *session);

G_END_DECLS
