/* agui-event-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"

G_BEGIN_DECLS

/* Wraps members that are already known to be valid (built by the chunk
 * normalizer, the demo agent, a stored log): no schema check. Takes
 * ownership of @members; "type" is set here. */
AguiEvent *_agui_event_new_trusted (AguiEventType   type,
                                    JsonObject     *members);

/* Schema enforcement (agui-event-schema.c): strips unknown members with a
 * warning each, then validates what is left. @members is the event object
 * including "type", modified in place. */
gboolean   _agui_event_schema_enforce (AguiEventType   type,
                                       JsonObject     *members,
                                       GPtrArray      *warnings,
                                       GError        **error);

G_END_DECLS
