/* tandem-preferences-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tandem-agents.h"
#include "tandem-openai-editor.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_PREFERENCES_WINDOW (tandem_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (TandemPreferencesWindow, tandem_preferences_window, TANDEM, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget   *tandem_preferences_window_new               (GtkWindow               *parent,
                                                          TandemAgents            *agents);
GtkListBox  *tandem_preferences_window_get_agent_list    (TandemPreferencesWindow *self);
void         tandem_preferences_window_edit_agent        (TandemPreferencesWindow *self,
                                                          const char              *id);
GtkEditable *tandem_preferences_window_get_editor_field  (TandemPreferencesWindow *self,
                                                          const char              *field);
AdwComboRow *tandem_preferences_window_get_editor_encoding (TandemPreferencesWindow *self);
void         tandem_preferences_window_add_editor_header (TandemPreferencesWindow *self,
                                                          const char              *name,
                                                          const char              *value);
gboolean     tandem_preferences_window_save_editor       (TandemPreferencesWindow *self);
const char  *tandem_preferences_window_get_editor_error  (TandemPreferencesWindow *self);
const char  *tandem_preferences_window_get_connection_result (TandemPreferencesWindow *self);
TandemOpenaiEditor *tandem_preferences_window_get_editor_openai (TandemPreferencesWindow *self);

G_END_DECLS
