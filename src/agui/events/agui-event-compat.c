/* agui-event-compat.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-compat-private.h"
#include "agui-json-private.h"

/* Compatibility translations (protocol digest section 8): the second stage
 * of the event parser, on the JsonObject of an event that is not flat.
 * Each translation appends what it did to @warnings; the parser emits
 * them, in order, before it goes on. */

static void warn (GPtrArray  *warnings,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

static void
warn (GPtrArray  *warnings,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

void
_agui_thinking_ids_clear (AguiThinkingIds *ids)
{
  g_clear_pointer (&ids->span_id, g_free);
  g_clear_pointer (&ids->message_id, g_free);
}

static void
remove_null_member (GPtrArray       *warnings,
                    JsonObject      *object,
                    const char      *name,
                    const char      *where)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_NULL (node))
    return;

  warn (warnings, "Converting deprecated %s.%s: null to an absent field", where, name);
  json_object_remove_member (object, name);
}

const char *
_agui_event_translate_thinking (AguiThinkingIds *ids,
                                JsonObject      *object,
                                const char      *name,
                                GPtrArray       *warnings)
{
  const char *translated;
  const char *id;

  if (g_str_equal (name, "THINKING_START"))
    {
      JsonNode *title = json_object_get_member (object, "title");

      g_free (ids->span_id);
      ids->span_id = g_uuid_string_random ();
      id = ids->span_id;
      translated = "REASONING_START";

      if (title != NULL)
        {
          if (json_node_get_value_type (title) == G_TYPE_STRING)
            warn (warnings, "Dropping THINKING_START.title \"%s\": REASONING_START has no title field",
                          json_node_get_string (title));
          else
            warn (warnings, "Dropping THINKING_START.title: REASONING_START has no title field");
          json_object_remove_member (object, "title");
        }
    }
  else if (g_str_equal (name, "THINKING_TEXT_MESSAGE_START"))
    {
      g_free (ids->message_id);
      ids->message_id = g_uuid_string_random ();
      id = ids->message_id;
      translated = "REASONING_MESSAGE_START";
      json_object_set_string_member (object, "role", "reasoning");
    }
  else if (g_str_equal (name, "THINKING_TEXT_MESSAGE_CONTENT"))
    {
      id = ids->message_id;
      translated = "REASONING_MESSAGE_CONTENT";
    }
  else if (g_str_equal (name, "THINKING_TEXT_MESSAGE_END"))
    {
      id = ids->message_id;
      translated = "REASONING_MESSAGE_END";
    }
  else if (g_str_equal (name, "THINKING_END"))
    {
      id = ids->span_id;
      translated = "REASONING_END";
    }
  else
    {
      return NULL;
    }

  warn (warnings, "Converting deprecated %s to %s", name, translated);

  /* With nothing open the event gets an id no opener announced, which the
   * verifier then rejects: that is the reference's behaviour too. */
  if (id != NULL)
    {
      json_object_set_string_member (object, "messageId", id);
    }
  else
    {
      g_autofree char *fresh = g_uuid_string_random ();

      json_object_set_string_member (object, "messageId", fresh);
    }

  if (g_str_equal (translated, "REASONING_MESSAGE_END"))
    g_clear_pointer (&ids->message_id, g_free);
  else if (g_str_equal (translated, "REASONING_END"))
    g_clear_pointer (&ids->span_id, g_free);

  json_object_set_string_member (object, "type", translated);

  return translated;
}

static const char *
media_kind_for_mime_type (const char *mime_type)
{
  if (mime_type == NULL)
    return "document";
  if (g_str_has_prefix (mime_type, "image/"))
    return "image";
  if (g_str_has_prefix (mime_type, "audio/"))
    return "audio";
  if (g_str_has_prefix (mime_type, "video/"))
    return "video";

  return "document";
}

/* Returns the modern part for a pre-1.0 binary part, or %NULL if it cannot
 * be converted (only an id: enforcement then drops it as unknown). */
static JsonNode *
upgrade_binary_part (JsonObject *part)
{
  const char *mime_type = _agui_json_object_get_string (part, "mimeType");
  const char *filename = _agui_json_object_get_string (part, "filename");
  const char *value;
  const char *source_type;
  JsonObject *source;
  JsonObject *upgraded;
  JsonNode *node;

  if ((value = _agui_json_object_get_string (part, "data")) != NULL)
    source_type = "data";
  else if ((value = _agui_json_object_get_string (part, "url")) != NULL)
    source_type = "url";
  else
    return NULL;

  source = json_object_new ();
  json_object_set_string_member (source, "type", source_type);
  json_object_set_string_member (source, "value", value);
  if (mime_type != NULL)
    json_object_set_string_member (source, "mimeType", mime_type);

  upgraded = json_object_new ();
  json_object_set_string_member (upgraded, "type", media_kind_for_mime_type (mime_type));
  json_object_set_object_member (upgraded, "source", source);

  if (filename != NULL)
    {
      JsonObject *metadata = json_object_new ();

      json_object_set_string_member (metadata, "filename", filename);
      json_object_set_object_member (upgraded, "metadata", metadata);
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, upgraded);

  return node;
}

static gboolean
array_holds_equal (JsonArray *array,
                   JsonNode  *node)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      if (json_node_equal (json_array_get_element (array, i), node))
        return TRUE;
    }

  return FALSE;
}

static void
upgrade_message_content (GPtrArray       *warnings,
                         JsonObject      *message,
                         const char      *where)
{
  g_autoptr(JsonArray) upgraded = NULL;
  JsonNode *content_node;
  JsonArray *content;
  gboolean changed = FALSE;

  content_node = json_object_get_member (message, "content");
  if (content_node == NULL || !JSON_NODE_HOLDS_ARRAY (content_node))
    return;

  content = json_node_get_array (content_node);
  upgraded = json_array_new ();

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonNode *part_node = json_array_get_element (content, i);
      g_autoptr(JsonNode) replacement = NULL;
      JsonObject *part;
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (part_node))
        {
          json_array_add_element (upgraded, json_node_ref (part_node));
          continue;
        }

      part = json_node_get_object (part_node);
      type = _agui_json_object_get_string (part, "type");

      if (g_strcmp0 (type, "binary") != 0)
        {
          /* Media part metadata: null is legacy; text part metadata is
           * "any" and keeps its null. */
          if (g_strcmp0 (type, "text") != 0)
            remove_null_member (warnings, part, "metadata", where);
          json_array_add_element (upgraded, json_node_ref (part_node));
          continue;
        }

      replacement = upgrade_binary_part (part);
      changed = TRUE;

      if (replacement == NULL)
        {
          warn (warnings, "Cannot convert a deprecated binary content part in %s: it carries neither data nor url", where);
          json_array_add_element (upgraded, json_node_ref (part_node));
        }
      else if (array_holds_equal (content, replacement))
        {
          warn (warnings, "Dropping a deprecated binary content part in %s: the message already holds the same part", where);
        }
      else
        {
          warn (warnings, "Converting a deprecated binary content part in %s to a %s part", where,
                        _agui_json_object_get_string (json_node_get_object (replacement), "type"));
          json_array_add_element (upgraded, g_steal_pointer (&replacement));
        }
    }

  if (changed)
    json_object_set_array_member (message, "content", g_steal_pointer (&upgraded));
}

static void
upgrade_messages (GPtrArray       *warnings,
                  JsonObject      *container,
                  const char      *where)
{
  JsonNode *messages = json_object_get_member (container, "messages");
  JsonArray *array;

  if (messages == NULL || !JSON_NODE_HOLDS_ARRAY (messages))
    return;

  array = json_node_get_array (messages);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *message = json_array_get_element (array, i);
      g_autofree char *message_where = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (message))
        continue;

      message_where = g_strdup_printf ("%s.messages[%u].content", where, i);
      upgrade_message_content (warnings, json_node_get_object (message), message_where);
    }
}

static void
remove_nulls_in_array (GPtrArray       *warnings,
                       JsonObject      *container,
                       const char      *array_name,
                       const char      *member,
                       const char      *where)
{
  JsonNode *node = json_object_get_member (container, array_name);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;

  array = json_node_get_array (node);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_where = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      element_where = g_strdup_printf ("%s.%s[%u]", where, array_name, i);
      remove_null_member (warnings, json_node_get_object (element), member, element_where);
    }
}

void
_agui_event_translate_compat (const char *name,
                              JsonObject *object,
                              GPtrArray  *warnings)
{
  remove_null_member (warnings, object, "rawEvent", name);

  if (g_str_equal (name, "RUN_FINISHED"))
    {
      remove_null_member (warnings, object, "result", name);
      remove_null_member (warnings, object, "outcome", name);
    }
  else if (g_str_equal (name, "SUBAGENT_FINISHED"))
    {
      remove_null_member (warnings, object, "result", name);
    }
  else if (g_str_equal (name, "TOOL_CALL_START") || g_str_equal (name, "TOOL_CALL_CHUNK"))
    {
      remove_null_member (warnings, object, "parentMessageId", name);
    }
  else if (g_str_equal (name, "MESSAGES_SNAPSHOT"))
    {
      upgrade_messages (warnings, object, name);
    }
  else if (g_str_equal (name, "RUN_STARTED"))
    {
      JsonNode *input = json_object_get_member (object, "input");
      JsonObject *input_object;

      if (input == NULL || !JSON_NODE_HOLDS_OBJECT (input))
        return;

      input_object = json_node_get_object (input);
      remove_null_member (warnings, input_object, "state", "RUN_STARTED.input");
      remove_null_member (warnings, input_object, "forwardedProps", "RUN_STARTED.input");
      remove_nulls_in_array (warnings, input_object, "tools", "parameters", "RUN_STARTED.input");
      remove_nulls_in_array (warnings, input_object, "resume", "payload", "RUN_STARTED.input");
      upgrade_messages (warnings, input_object, "RUN_STARTED.input");
    }
}
