/* tandem-agent-transport.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-agents.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_AGENT_TRANSPORT (tandem_agent_transport_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgentTransport, tandem_agent_transport, TANDEM, AGENT_TRANSPORT, GObject)

TandemAgentTransport *tandem_agent_transport_new (TandemAgents  *agents,
                                                  const char    *agent_id,
                                                  AguiTransport *current);
AguiTransport        *tandem_agent_transport_get_current (TandemAgentTransport *self);

G_END_DECLS
