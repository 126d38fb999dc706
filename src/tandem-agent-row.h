/* tandem-agent-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tandem-agents.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_AGENT_ROW (tandem_agent_row_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgentRow, tandem_agent_row, TANDEM, AGENT_ROW, AdwActionRow)

GtkWidget *tandem_agent_row_new (TandemAgent    *agent,
                                 TandemAgents   *agents,
                                 GtkCheckButton *group);

G_END_DECLS
