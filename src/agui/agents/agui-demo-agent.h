/* agui-demo-agent.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-transport.h"

G_BEGIN_DECLS

#define AGUI_TYPE_DEMO_AGENT (agui_demo_agent_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiDemoAgent, agui_demo_agent, AGUI, DEMO_AGENT, GObject)

AGUI_AVAILABLE_IN_ALL
AguiDemoAgent *agui_demo_agent_new       (void);
AGUI_AVAILABLE_IN_ALL
guint          agui_demo_agent_get_delay (AguiDemoAgent *self);
AGUI_AVAILABLE_IN_ALL
void           agui_demo_agent_set_delay (AguiDemoAgent *self,
                                          guint          milliseconds);

G_END_DECLS
