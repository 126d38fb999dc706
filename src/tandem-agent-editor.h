/* tandem-agent-editor.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tandem-agents.h"
#include "tandem-openai-editor.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_AGENT_EDITOR (tandem_agent_editor_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgentEditor, tandem_agent_editor, TANDEM, AGENT_EDITOR, GtkBox)

GtkWidget          *tandem_agent_editor_new                   (TandemAgents       *agents);
void                tandem_agent_editor_set_agent             (TandemAgentEditor  *self,
                                                               TandemAgent        *agent);
void                tandem_agent_editor_clear                 (TandemAgentEditor  *self);
gboolean            tandem_agent_editor_is_filled             (TandemAgentEditor  *self);
const char         *tandem_agent_editor_get_agent_id          (TandemAgentEditor  *self);
gboolean            tandem_agent_editor_get_testing           (TandemAgentEditor  *self);
TandemAgent        *tandem_agent_editor_create_agent          (TandemAgentEditor  *self,
                                                               gboolean            for_test,
                                                               GError            **error);
void                tandem_agent_editor_test_connection       (TandemAgentEditor  *self);
GtkEditable        *tandem_agent_editor_add_header            (TandemAgentEditor  *self,
                                                               const char         *name,
                                                               const char         *value);
void                tandem_agent_editor_show_error            (TandemAgentEditor  *self,
                                                               const char         *message);
GtkEditable        *tandem_agent_editor_get_field             (TandemAgentEditor  *self,
                                                               const char         *field);
AdwComboRow        *tandem_agent_editor_get_encoding          (TandemAgentEditor  *self);
const char         *tandem_agent_editor_get_error             (TandemAgentEditor  *self);
const char         *tandem_agent_editor_get_connection_result (TandemAgentEditor  *self);
TandemOpenaiEditor *tandem_agent_editor_get_openai            (TandemAgentEditor  *self);

G_END_DECLS
