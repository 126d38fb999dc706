/* agui-event-parser.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_EVENT_PARSER (agui_event_parser_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiEventParser, agui_event_parser, AGUI, EVENT_PARSER, GObject)

AGUI_AVAILABLE_IN_ALL
AguiEventParser *agui_event_parser_new        (void);
AGUI_AVAILABLE_IN_ALL
AguiEvent       *agui_event_parser_parse      (AguiEventParser  *self,
                                               const char       *data,
                                               gssize            length,
                                               GError          **error);
AGUI_AVAILABLE_IN_ALL
AguiEvent       *agui_event_parser_parse_node (AguiEventParser  *self,
                                               JsonNode         *node,
                                               GError          **error);

G_END_DECLS
