/* tandem-quit-dialog.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

GtkWidget *tandem_quit_dialog_new (GtkWindow *parent,
                                   guint      n_running);

G_END_DECLS
