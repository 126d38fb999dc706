/* agui-openai-request.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-openai-request-private.h"

/* What the OpenAI agent sends: the run's conversation as OpenAI chat
 * messages, and its tools as functions. */

/* A text file is inlined for the model up to this size. */
#define MAX_INLINE_FILE (512 * 1024)

/* Messages: AG-UI → OpenAI */

static char *
dup_text_content (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");
  JsonArray *parts;
  GString *text;

  if (content == NULL || JSON_NODE_HOLDS_NULL (content))
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (content) && json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));
  if (!JSON_NODE_HOLDS_ARRAY (content))
    return NULL;

  parts = json_node_get_array (content);
  text = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = json_array_get_element (parts, i);
      const char *piece;

      if (JSON_NODE_HOLDS_OBJECT (part) && (piece = _agui_json_object_get_string (json_node_get_object (part), "text")))
        g_string_append (text, piece);
    }

  return g_string_free (text, FALSE);
}

static gboolean
is_text_mime_type (const char *mime_type)
{
  static const char * const textual[] = {
    "application/json", "application/xml", "application/javascript", "application/x-sh",
    "application/x-yaml", "application/yaml", "application/toml", "application/sql", NULL
  };

  if (mime_type == NULL)
    return FALSE;
  if (g_str_has_prefix (mime_type, "text/"))
    return TRUE;

  return g_strv_contains (textual, mime_type);
}

static void
add_text_part (AguiJsonDocArray *parts,
               const char       *text)
{
  AguiJsonDocObject *part = _agui_json_doc_add_object (parts);

  _agui_json_doc_set_string (part, "type", "text");
  _agui_json_doc_set_string (part, "text", text);
}

/* One AG-UI content part as OpenAI parts: images by URL (a data URL for
 * attached bytes), text files inlined, anything else named so the model
 * knows it was there. */
static void
convert_part (JsonObject       *part,
              AguiJsonDocArray *parts,
              gboolean         *has_media)
{
  const char *type = _agui_json_object_get_string (part, "type");
  JsonObject *source = _agui_json_object_get_object (part, "source");
  const char *source_type = _agui_json_object_get_string (source, "type");
  const char *value = _agui_json_object_get_string (source, "value");
  const char *mime_type = _agui_json_object_get_string (source, "mimeType");
  const char *filename = _agui_json_object_get_string (_agui_json_object_get_object (part, "metadata"), "filename");

  if (g_strcmp0 (type, "text") == 0)
    {
      if (_agui_json_object_get_string (part, "text") != NULL)
        add_text_part (parts, _agui_json_object_get_string (part, "text"));
      return;
    }

  if (g_strcmp0 (type, "image") == 0 && value != NULL &&
      (g_strcmp0 (source_type, "data") == 0 || g_strcmp0 (source_type, "url") == 0))
    {
      AguiJsonDocObject *image = _agui_json_doc_add_object (parts);
      g_autofree char *url = NULL;

      if (g_strcmp0 (source_type, "data") == 0)
        url = g_strdup_printf ("data:%s;base64,%s", mime_type ? mime_type : "image/png", value);
      else
        url = g_strdup (value);

      _agui_json_doc_set_string (image, "type", "image_url");
      _agui_json_doc_set_string (_agui_json_doc_set_object (image, "image_url"), "url", url);
      *has_media = TRUE;
      return;
    }

  if (g_strcmp0 (source_type, "data") == 0 && value != NULL && is_text_mime_type (mime_type))
    {
      gsize length = 0;
      g_autofree guchar *bytes = g_base64_decode (value, &length);

      if (length <= MAX_INLINE_FILE && g_utf8_validate ((const char *) bytes, length, NULL))
        {
          g_autofree char *text = g_strndup ((const char *) bytes, length);
          g_autofree char *inlined = g_strdup_printf ("Attached file “%s” (%s):\n\n```\n%s\n```",
                                                      filename ? filename : "untitled",
                                                      mime_type, text);

          add_text_part (parts, inlined);
          return;
        }
    }

  if (type != NULL)
    {
      g_autofree char *note = g_strdup_printf ("[An attachment (%s%s%s, %s) is not shown to this model: "
                                               "it reads only text and images.]",
                                               type, filename ? " “" : "", filename ? filename : "",
                                               mime_type ? mime_type : "unknown type");
      if (filename != NULL)
        {
          g_free (note);
          note = g_strdup_printf ("[The attachment “%s” (%s) is not shown to this model: "
                                  "it reads only text and images.]",
                                  filename, mime_type ? mime_type : type);
        }
      add_text_part (parts, note);
    }
}

/* Sets the member "content" of @out. */
static void
convert_user_content (JsonObject        *message,
                      AguiJsonDocObject *out)
{
  JsonNode *content = json_object_get_member (message, "content");
  g_auto(AguiJsonValue) parts = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *array;
  gboolean has_media = FALSE;
  g_autoptr(GString) joined = NULL;

  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    {
      g_autofree char *text = dup_text_content (message);

      _agui_json_doc_set_string (out, "content", text ? text : "");
      return;
    }

  array = _agui_json_value_set_array (&parts, 0);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (content)); i++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (content), i);

      if (JSON_NODE_HOLDS_OBJECT (element))
        convert_part (json_node_get_object (element), array, &has_media);
    }

  if (has_media)
    {
      _agui_json_object_set (out, "content", &parts);
      return;
    }

  /* Text only: one string, which every server's chat template takes. */
  joined = g_string_new (NULL);
  for (guint i = 0; i < _agui_json_doc_get_length (&parts); i++)
    {
      if (i > 0)
        g_string_append (joined, "\n\n");
      g_string_append (joined, _agui_json_doc_get_string (_agui_json_doc_get_element (&parts, i), "text"));
    }

  _agui_json_doc_set_string (out, "content", joined->str);
}

/* Appends the message to @converted, unless it is no turn. */
static void
convert_assistant (JsonObject       *message,
                   AguiJsonDocArray *converted)
{
  JsonArray *calls = _agui_json_object_get_array (message, "toolCalls");
  g_autofree char *text = dup_text_content (message);
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) calls_value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *out = _agui_json_value_set_object (&value, 3);
  AguiJsonDocArray *tool_calls = NULL;

  _agui_json_doc_set_string (out, "role", "assistant");
  /* json-glib's setters kept a member's first place: "content" goes
   * before "tool_calls" whatever came first. */
  _agui_json_doc_set_null (out, "content");

  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonNode *element = json_array_get_element (calls, i);
      JsonObject *function;
      AguiJsonDocObject *call, *out_function;
      const char *arguments;

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !(function = _agui_json_object_get_object (json_node_get_object (element), "function")) ||
          _agui_json_object_get_string (json_node_get_object (element), "id") == NULL ||
          _agui_json_object_get_string (function, "name") == NULL)
        continue;

      if (tool_calls == NULL)
        tool_calls = _agui_json_value_set_array (&calls_value, 0);
      arguments = _agui_json_object_get_string (function, "arguments");
      call = _agui_json_doc_add_object (tool_calls);
      _agui_json_doc_set_string (call, "id", _agui_json_object_get_string (json_node_get_object (element), "id"));
      _agui_json_doc_set_string (call, "type", "function");
      out_function = _agui_json_doc_set_object (call, "function");
      _agui_json_doc_set_string (out_function, "name", _agui_json_object_get_string (function, "name"));
      /* Chat templates parse the arguments as JSON: an empty string would
       * fail there. */
      _agui_json_doc_set_string (out_function, "arguments", arguments && arguments[0] ? arguments : "{}");
    }

  if (text != NULL && text[0] != '\0')
    _agui_json_doc_set_string (out, "content", text);
  else if (tool_calls == NULL)
    return;  /* An answer that never got a word out (a failed run) is no turn. */

  if (tool_calls != NULL)
    _agui_json_object_append (out, "tool_calls", &calls_value);

  _agui_json_array_insert (converted, _agui_json_array_get_length (converted), &value);
}

void
_agui_openai_convert_messages (const char       *system_prompt,
                               JsonObject       *input,
                               AguiJsonDocArray *converted)
{
  JsonArray *messages = _agui_json_object_get_array (input, "messages");
  JsonArray *context = _agui_json_object_get_array (input, "context");
  g_autoptr(GString) system = g_string_new (system_prompt);

  for (guint i = 0; context != NULL && i < json_array_get_length (context); i++)
    {
      JsonNode *element = json_array_get_element (context, i);
      const char *description, *value;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      description = _agui_json_object_get_string (json_node_get_object (element), "description");
      value = _agui_json_object_get_string (json_node_get_object (element), "value");
      if (value == NULL)
        continue;
      if (system->len > 0)
        g_string_append (system, "\n\n");
      g_string_append_printf (system, "%s%s%s", description ? description : "", description ? ": " : "", value);
    }

  if (system->len > 0)
    {
      AguiJsonDocObject *message = _agui_json_doc_add_object (converted);

      _agui_json_doc_set_string (message, "role", "system");
      _agui_json_doc_set_string (message, "content", system->str);
    }

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message;
      AguiJsonDocObject *out;
      const char *role;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      message = json_node_get_object (element);
      role = _agui_json_object_get_string (message, "role");

      if (g_strcmp0 (role, "user") == 0)
        {
          out = _agui_json_doc_add_object (converted);
          _agui_json_doc_set_string (out, "role", "user");
          convert_user_content (message, out);
        }
      else if (g_strcmp0 (role, "system") == 0 || g_strcmp0 (role, "developer") == 0)
        {
          g_autofree char *text = dup_text_content (message);

          out = _agui_json_doc_add_object (converted);
          _agui_json_doc_set_string (out, "role", "system");
          _agui_json_doc_set_string (out, "content", text ? text : "");
        }
      else if (g_strcmp0 (role, "assistant") == 0)
        {
          convert_assistant (message, converted);
        }
      else if (g_strcmp0 (role, "tool") == 0 && _agui_json_object_get_string (message, "toolCallId") != NULL)
        {
          g_autofree char *text = dup_text_content (message);
          const char *error = _agui_json_object_get_string (message, "error");

          out = _agui_json_doc_add_object (converted);
          _agui_json_doc_set_string (out, "role", "tool");
          _agui_json_doc_set_string (out, "tool_call_id", _agui_json_object_get_string (message, "toolCallId"));
          if ((text == NULL || text[0] == '\0') && error != NULL)
            {
              g_free (text);
              text = g_strdup_printf ("Error: %s", error);
            }
          _agui_json_doc_set_string (out, "content", text ? text : "");
        }
      /* else reasoning, activity: nothing the model needs back */
    }
}

void
_agui_openai_convert_tools (JsonObject       *input,
                            GHashTable       *declared,
                            AguiJsonDocArray *converted)
{
  JsonArray *tools = _agui_json_object_get_array (input, "tools");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      JsonObject *tool;
      AguiJsonDocObject *wrapper, *function;
      JsonNode *parameters;
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      tool = json_node_get_object (element);
      if (!(name = _agui_json_object_get_string (tool, "name")) || g_hash_table_contains (declared, name))
        continue;

      wrapper = _agui_json_doc_add_object (converted);
      _agui_json_doc_set_string (wrapper, "type", "function");
      function = _agui_json_doc_set_object (wrapper, "function");
      _agui_json_doc_set_string (function, "name", name);
      if (_agui_json_object_get_string (tool, "description") != NULL)
        _agui_json_doc_set_string (function, "description", _agui_json_object_get_string (tool, "description"));
      parameters = json_object_get_member (tool, "parameters");
      if (parameters != NULL && JSON_NODE_HOLDS_OBJECT (parameters))
        {
          AguiJsonValue value = AGUI_JSON_VALUE_INIT;

          _agui_json_value_set_node (&value, parameters);
          _agui_json_object_append (function, "parameters", &value);
        }
      else
        {
          AguiJsonDocObject *schema = _agui_json_doc_set_object (function, "parameters");

          _agui_json_doc_set_string (schema, "type", "object");
          _agui_json_doc_set_object (schema, "properties");
        }

      g_hash_table_add (declared, g_strdup (name));
    }
}
