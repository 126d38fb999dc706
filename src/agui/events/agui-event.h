/* agui-event.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

typedef enum
{
  AGUI_EVENT_RUN_STARTED,
  AGUI_EVENT_RUN_FINISHED,
  AGUI_EVENT_RUN_ERROR,
  AGUI_EVENT_STEP_STARTED,
  AGUI_EVENT_STEP_FINISHED,
  AGUI_EVENT_TEXT_MESSAGE_START,
  AGUI_EVENT_TEXT_MESSAGE_CONTENT,
  AGUI_EVENT_TEXT_MESSAGE_END,
  AGUI_EVENT_TEXT_MESSAGE_CHUNK,
  AGUI_EVENT_TOOL_CALL_START,
  AGUI_EVENT_TOOL_CALL_ARGS,
  AGUI_EVENT_TOOL_CALL_END,
  AGUI_EVENT_TOOL_CALL_CHUNK,
  AGUI_EVENT_TOOL_CALL_RESULT,
  AGUI_EVENT_REASONING_START,
  AGUI_EVENT_REASONING_MESSAGE_START,
  AGUI_EVENT_REASONING_MESSAGE_CONTENT,
  AGUI_EVENT_REASONING_MESSAGE_END,
  AGUI_EVENT_REASONING_MESSAGE_CHUNK,
  AGUI_EVENT_REASONING_END,
  AGUI_EVENT_REASONING_ENCRYPTED_VALUE,
  AGUI_EVENT_STATE_SNAPSHOT,
  AGUI_EVENT_STATE_DELTA,
  AGUI_EVENT_MESSAGES_SNAPSHOT,
  AGUI_EVENT_ACTIVITY_SNAPSHOT,
  AGUI_EVENT_ACTIVITY_DELTA,
  AGUI_EVENT_RAW,
  AGUI_EVENT_CUSTOM,
  AGUI_EVENT_SUBAGENT_STARTED,
  AGUI_EVENT_SUBAGENT_FINISHED,
  AGUI_EVENT_SUBAGENT_ERROR,
} AguiEventType;

#define AGUI_TYPE_EVENT (agui_event_get_type ())

AGUI_AVAILABLE_IN_ALL
GType          agui_event_get_type             (void) G_GNUC_CONST;
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_type_to_string       (AguiEventType   type);
AGUI_AVAILABLE_IN_ALL
gboolean       agui_event_type_from_string     (const char     *name,
                                                AguiEventType  *type);
AGUI_AVAILABLE_IN_ALL
AguiEvent     *agui_event_new                  (AguiEventType   type,
                                                JsonObject     *members,
                                                GError        **error);
AGUI_AVAILABLE_IN_ALL
AguiEvent     *agui_event_new_from_json        (JsonNode       *node,
                                                GPtrArray      *warnings,
                                                GError        **error);
AGUI_AVAILABLE_IN_ALL
AguiEvent     *agui_event_new_from_string      (const char     *json,
                                                gssize          length,
                                                GError        **error);
AGUI_AVAILABLE_IN_ALL
AguiEvent     *agui_event_ref                  (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
void           agui_event_unref                (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
AguiEventType  agui_event_get_event_type       (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_type_name        (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
JsonObject    *agui_event_get_object           (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
JsonNode      *agui_event_get_member           (AguiEvent      *self,
                                                const char     *name);
AGUI_AVAILABLE_IN_ALL
gboolean       agui_event_has_member           (AguiEvent      *self,
                                                const char     *name);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_string           (AguiEvent      *self,
                                                const char     *name);
AGUI_AVAILABLE_IN_ALL
gboolean       agui_event_get_boolean          (AguiEvent      *self,
                                                const char     *name,
                                                gboolean        default_value);
AGUI_AVAILABLE_IN_ALL
JsonObject    *agui_event_get_object_member    (AguiEvent      *self,
                                                const char     *name);
AGUI_AVAILABLE_IN_ALL
JsonArray     *agui_event_get_array_member     (AguiEvent      *self,
                                                const char     *name);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_message_id       (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_tool_call_id     (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_delta            (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_role             (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
const char    *agui_event_get_subagent_run_id  (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
JsonObject    *agui_event_get_metadata         (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
gboolean       agui_event_get_timestamp        (AguiEvent      *self,
                                                gint64         *timestamp);
AGUI_AVAILABLE_IN_ALL
JsonNode      *agui_event_to_json              (AguiEvent      *self);
AGUI_AVAILABLE_IN_ALL
char          *agui_event_to_string            (AguiEvent      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiEvent, agui_event_unref)

G_END_DECLS
