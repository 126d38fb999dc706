/* agui-event-parser-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

#define AGUI_TYPE_EVENT_PARSER (_agui_event_parser_get_type ())
G_DECLARE_FINAL_TYPE (AguiEventParser, _agui_event_parser, AGUI, EVENT_PARSER, GObject)

AguiEventParser *_agui_event_parser_new        (void);
AguiEvent       *_agui_event_parser_parse      (AguiEventParser  *self,
                                               const char       *data,
                                               gssize            length,
                                               GError          **error);
AguiEvent       *_agui_event_parser_parse_node (AguiEventParser  *self,
                                               JsonNode         *node,
                                               GError          **error);
/* As _agui_event_parser_parse_node () for an event already read into the
 * compact tree, which this takes (leaving @object null): it goes through
 * the stages a frame read by the event reader goes through, with no
 * json-glib tree on the way. Its strings must be valid UTF-8. */
AguiEvent       *_agui_event_parser_parse_value (AguiEventParser  *self,
                                                AguiJsonValue    *object,
                                                GError          **error);

/* For the differential tests and `tandem-cli bench fold` only: read frames
 * with the json-glib implementation that preceded the fast reader. */
void _agui_event_parser_set_reference            (AguiEventParser *self,
                                                  gboolean         reference);
/* Parsers made from now on (such as the one inside a pipeline) start with
 * this setting; not thread-safe, set it before making them. */
void _agui_event_parser_set_reference_by_default (gboolean         reference);

/* As _agui_event_parser_parse () for a frame the SSE decoder has already
 * found to be valid UTF-8, which is not checked again. */
AguiEvent *_agui_event_parser_parse_valid (AguiEventParser  *self,
                                           const char       *data,
                                           gsize             length,
                                           GError          **error);

/* The event to handle before the one the last parse returned, if any. */
AguiEvent *_agui_event_parser_take_before (AguiEventParser *self);

G_END_DECLS
