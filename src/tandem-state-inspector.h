/* tandem-state-inspector.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_STATE_INSPECTOR (tandem_state_inspector_get_type ())
G_DECLARE_FINAL_TYPE (TandemStateInspector, tandem_state_inspector, TANDEM, STATE_INSPECTOR, GtkWidget)

GtkWidget      *tandem_state_inspector_new            (void);
AguiTranscript *tandem_state_inspector_get_transcript (TandemStateInspector *self);
void            tandem_state_inspector_set_transcript (TandemStateInspector *self,
                                                       AguiTranscript       *transcript);
char           *tandem_state_inspector_dup_text       (TandemStateInspector *self);
char           *tandem_state_inspector_dup_changes    (TandemStateInspector *self);
char           *tandem_state_inspector_dup_error      (TandemStateInspector *self);

G_END_DECLS
