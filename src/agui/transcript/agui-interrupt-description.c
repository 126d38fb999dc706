/* agui-interrupt-description.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-interrupt-description-private.h"
#include "agui-json-private.h"
#include "agui-tool-call-part.h"

/* Describing an interrupt */

static const char *
object_get_string (JsonObject *object,
                   const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  return NULL;
}

static JsonObject *
node_get_object (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);

  return NULL;
}

static JsonObject *
object_get_object (JsonObject *object,
                   const char *member)
{
  return object ? node_get_object (json_object_get_member (object, member)) : NULL;
}

/* A response schema asking for yes or no: none at all, or one with
 * `approved` or `editedArgs` among its properties. */
static gboolean
is_approval_shape (JsonObject *response_schema)
{
  JsonObject *members;

  if (response_schema == NULL)
    return TRUE;

  if (!(members = object_get_object (response_schema, "properties")))
    return FALSE;

  return json_object_has_member (members, "approved") ||
         json_object_has_member (members, "editedArgs");
}

/* Known ways agents describe a suspended tool in `metadata`: Mastra's
 * `metadata.mastra` ({toolName, args, reason or suspendPayload}), and the
 * plain `toolName`/`args` many servers use. */
static JsonObject *
find_tool_shape (JsonObject *metadata)
{
  JsonObject *mastra;

  if (metadata == NULL)
    return NULL;

  if ((mastra = object_get_object (metadata, "mastra")) &&
      (object_get_string (mastra, "toolName") || object_get_string (mastra, "tool_name")))
    return mastra;

  if (object_get_string (metadata, "toolName") || object_get_string (metadata, "tool_name"))
    return metadata;

  return NULL;
}

static const char *
shape_get_reason (JsonObject *shape)
{
  JsonObject *suspend;

  if (object_get_string (shape, "reason"))
    return object_get_string (shape, "reason");
  if ((suspend = object_get_object (shape, "suspendPayload")))
    return object_get_string (suspend, "reason") ? object_get_string (suspend, "reason")
                                                 : object_get_string (suspend, "message");

  return NULL;
}

/* Arguments as an agent sends them: JSON, or JSON in a string. */
static void
take_arguments (AguiInterruptDescription *description,
                JsonNode                 *arguments)
{
  if (arguments == NULL)
    return;

  if (JSON_NODE_HOLDS_VALUE (arguments) && json_node_get_value_type (arguments) == G_TYPE_STRING)
    {
      description->arguments = _agui_json_parse (json_node_get_string (arguments), -1, NULL);
      if (description->arguments == NULL)
        description->arguments_text = g_strdup (json_node_get_string (arguments));
    }
  else
    {
      description->arguments = json_node_copy (arguments);
    }

  if (description->arguments != NULL)
    description->arguments_text = json_to_string (description->arguments, TRUE);
}

/* Fills @description in (free its members with
 * _agui_interrupt_description_clear ()); a call the interrupt is bound
 * to is looked up in @transcript, when there is one. Never an empty
 * question: the front end shows the description's question, else its
 * own words for the action, else for the reason. */
void
_agui_interrupt_describe (AguiInterrupt            *self,
                          AguiTranscript           *transcript,
                          AguiInterruptDescription *description)
{
  JsonObject *response_schema = node_get_object (agui_interrupt_get_response_schema (self));
  JsonObject *metadata = node_get_object (agui_interrupt_get_metadata (self));
  const char *message = agui_interrupt_get_message (self);
  const char *tool_call_id = agui_interrupt_get_tool_call_id (self);
  AguiToolCallPart *part = NULL;
  JsonObject *shape = find_tool_shape (metadata);

  g_return_if_fail (AGUI_IS_INTERRUPT (self));
  g_return_if_fail (!transcript || AGUI_IS_TRANSCRIPT (transcript));
  g_return_if_fail (description != NULL);

  memset (description, 0, sizeof *description);
  description->approval = is_approval_shape (response_schema) &&
                          g_strcmp0 (agui_interrupt_get_reason (self), "input_required") != 0;
  description->question = message != NULL && message[0] != '\0' ? message : NULL;
  description->tool_call_id = tool_call_id;

  if (tool_call_id != NULL && transcript != NULL)
    part = agui_transcript_lookup_tool_call (transcript, tool_call_id);

  if (part != NULL)
    {
      JsonNode *parsed = agui_tool_call_part_get_parsed_arguments (part);

      description->action = AGUI_INTERRUPT_ACTION_CALL;
      description->tool_name = g_strdup (agui_tool_call_part_get_tool_name (part));
      if (parsed != NULL)
        {
          description->arguments = json_node_copy (parsed);
          description->arguments_text = json_to_string (parsed, TRUE);
        }
      else
        {
          description->arguments_text = g_strdup (agui_tool_call_part_get_arguments (part));
        }
    }
  else if (tool_call_id != NULL && shape == NULL)
    {
      description->action = AGUI_INTERRUPT_ACTION_UNKNOWN_CALL;
    }
  else if (shape != NULL)
    {
      JsonNode *arguments = json_object_get_member (shape, "args");

      description->action = AGUI_INTERRUPT_ACTION_METADATA_TOOL;
      description->tool_name = g_strdup (object_get_string (shape, "toolName") ? object_get_string (shape, "toolName")
                                                                               : object_get_string (shape, "tool_name"));
      take_arguments (description, arguments ? arguments : json_object_get_member (shape, "arguments"));
      if (description->question == NULL)
        description->question = shape_get_reason (shape);
    }
  else if (metadata != NULL && json_object_get_size (metadata) > 0)
    {
      description->action = AGUI_INTERRUPT_ACTION_DETAILS;
      description->details = metadata;
    }
}

void
_agui_interrupt_description_clear (AguiInterruptDescription *description)
{
  g_return_if_fail (description != NULL);

  g_clear_pointer (&description->tool_name, g_free);
  g_clear_pointer (&description->arguments, json_node_unref);
  g_clear_pointer (&description->arguments_text, g_free);
}
