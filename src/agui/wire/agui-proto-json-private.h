/* agui-proto-json-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

typedef enum
{
  AGUI_PROTO_OK,
  /* the frame is not a well-formed Event: @error says why */
  AGUI_PROTO_INVALID,
  /* the frame holds only an event kind from a later protocol; a reader
   * drops it, as an SSE reader drops an event type it does not know */
  AGUI_PROTO_UNKNOWN_EVENT,
} AguiProtoResult;

/* Decodes one frame's payload (one agui.wire.Event, agui-events.proto)
 * into the JSON object of the event as @ag-ui/proto 1.0.0's decoder makes
 * it, as an object of the compact tree, ready for AguiEventParser (no
 * json-glib tree on the way): the envelope's arm decides the type, the
 * base event's fields are lifted up, outcomes, patch operations and
 * message contents take their JSON shapes. Before protobuf-c sees the
 * bytes they are walked once without recursion, so that nesting deeper
 * than AGUI_JSON_MAX_DEPTH, a string that is not UTF-8 or holds a NUL,
 * and a frame naming two event kinds are refused with a message saying
 * so. @warnings (nullable) receives a line for each part dropped.
 *
 * @event is null before, and is left null unless the result is
 * AGUI_PROTO_OK. Its strings are valid UTF-8 without NUL, and its
 * integral numbers within 2^53 are integers, as the SSE path reads them. */
AguiProtoResult _agui_proto_event_to_value (const guint8   *data,
                                            gsize           length,
                                            GPtrArray      *warnings,
                                            AguiJsonValue  *event,
                                            GError        **error);

G_END_DECLS
