/* tandem-desktop-tools.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

AguiToolRegistry *tandem_desktop_tools_new (GtkWindow *parent);

G_END_DECLS
