/* tandem-preferences-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tandem-agents.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_PREFERENCES_WINDOW (tandem_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (TandemPreferencesWindow, tandem_preferences_window, TANDEM, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *tandem_preferences_window_new (GtkWindow    *parent,
                                          TandemAgents *agents);

G_END_DECLS
