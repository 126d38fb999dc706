/* agui-test-proto.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agui.h"
#include "agui-events.pb-c.h"

#include "agui-test-proto.h"
#include "agui-sse-decoder-private.h"

static gboolean
refuse (GError     **error,
        const char  *format,
        ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError     **error,
        const char  *format,
        ...)
{
  va_list args;

  va_start (args, format);
  *error = g_error_new_valist (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, format, args);
  va_end (args);

  return FALSE;
}

static char *
snake_case (const char *name)
{
  GString *result = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p))
        {
          g_string_append_c (result, '_');
          g_string_append_c (result, g_ascii_tolower (*p));
        }
      else
        g_string_append_c (result, *p);
    }

  return g_string_free (result, FALSE);
}

/* From the JSON shapes to the wire's, as encode() does */

static JsonObject *
wrap (const char *name,
      JsonObject *inner)
{
  JsonObject *outer = json_object_new ();

  json_object_set_object_member (outer, name, inner);
  return outer;
}

static gboolean
source_to_wire (JsonObject  *source,
                JsonObject **wire,
                GError     **error)
{
  const char *kind = json_object_get_string_member_with_default (source, "type", "");
  JsonObject *inner;

  if (!g_str_equal (kind, "data") && !g_str_equal (kind, "url") && !g_str_equal (kind, "file"))
    return refuse (error, "a content source of type “%s” has no binary form", kind);

  inner = json_object_new ();
  for (const char * const *name = (const char * const[]) { "value", "mimeType", "provider", NULL }; *name; name++)
    if (json_object_has_member (source, *name))
      json_object_set_member (inner, *name, json_object_dup_member (source, *name));
  *wire = wrap (kind, inner);

  return TRUE;
}

static gboolean
part_to_wire (JsonNode  *node,
              JsonNode **wire,
              GError   **error)
{
  static const char * const kinds[] = { "text", "image", "audio", "video", "document", NULL };
  JsonObject *part, *inner;
  const char *kind;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return refuse (error, "a content part is not an object");

  part = json_node_get_object (node);
  kind = json_object_get_string_member_with_default (part, "type", "");
  if (!g_strv_contains (kinds, kind))
    return refuse (error, "a content part of type “%s” has no binary form", kind);

  inner = json_object_new ();
  for (const char * const *name = (const char * const[]) { "id", "text", "metadata", NULL }; *name; name++)
    if (json_object_has_member (part, *name))
      json_object_set_member (inner, *name, json_object_dup_member (part, *name));
  if (json_object_has_member (part, "source"))
    {
      JsonObject *source = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (part, "source")))
        {
          json_object_unref (inner);
          return refuse (error, "a content source is not an object");
        }
      if (!source_to_wire (json_object_get_object_member (part, "source"), &source, error))
        {
          json_object_unref (inner);
          return FALSE;
        }
      json_object_set_object_member (inner, "source", source);
    }

  {
    JsonObject *wrapped = wrap (kind, inner);

    *wire = json_node_init_object (json_node_alloc (), wrapped);
    json_object_unref (wrapped);
  }

  return TRUE;
}

static gboolean
parts_to_wire (JsonObject  *object,
               const char  *from,
               const char  *to,
               GError     **error)
{
  JsonArray *parts = json_object_get_array_member (object, from);
  g_autoptr(JsonArray) wire = json_array_new ();

  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = NULL;

      if (!part_to_wire (json_array_get_element (parts, i), &part, error))
        return FALSE;
      json_array_add_element (wire, part);
    }

  json_object_remove_member (object, from);
  json_object_set_array_member (object, to, g_steal_pointer (&wire));

  return TRUE;
}

static gboolean
message_to_wire (JsonNode  *node,
                 GError   **error)
{
  JsonObject *message;
  JsonNode *content;
  const char *role;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return refuse (error, "a message is not an object");

  message = json_node_get_object (node);
  role = json_object_get_string_member_with_default (message, "role", "");
  content = json_object_get_member (message, "content");

  if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    return parts_to_wire (message, "content", "contentParts", error);

  if (g_str_equal (role, "activity") && content != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (content))
        return refuse (error, "activity content that is not an object has no binary form");
      json_object_set_member (message, "activityContent", json_node_copy (content));
      json_object_remove_member (message, "content");
    }

  return TRUE;
}

static gboolean
messages_to_wire (JsonArray  *messages,
                  GError    **error)
{
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    if (!message_to_wire (json_array_get_element (messages, i), error))
      return FALSE;

  return TRUE;
}

static void
flatten_outcome (JsonObject         *event,
                 const char * const *lists)
{
  JsonNode *node = json_object_get_member (event, "outcome");
  g_autoptr(JsonObject) outcome = NULL;

  /* encode() writes "" for no outcome at all. */
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      json_object_set_string_member (event, "outcome", "");
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;

  outcome = json_object_ref (json_node_get_object (node));
  json_object_set_string_member (event, "outcome",
                                 json_object_get_string_member_with_default (outcome, "type", ""));
  for (guint i = 0; lists[i] != NULL; i++)
    if (json_object_has_member (outcome, lists[i]))
      json_object_set_member (event, lists[i], json_object_dup_member (outcome, lists[i]));
}

static gboolean
ops_to_wire (JsonArray  *operations,
             GError    **error)
{
  static const char * const ops[] = { "add", "remove", "replace", "move", "copy", "test", NULL };

  for (guint i = 0; operations != NULL && i < json_array_get_length (operations); i++)
    {
      JsonNode *node = json_array_get_element (operations, i);
      JsonObject *operation;
      const char *op;
      guint index;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return refuse (error, "a patch operation is not an object");
      operation = json_node_get_object (node);
      op = json_object_get_string_member_with_default (operation, "op", "");
      for (index = 0; ops[index] != NULL && !g_str_equal (ops[index], op); index++)
        ;
      if (ops[index] == NULL)
        return refuse (error, "the patch operation “%s” has no binary form", op);
      json_object_set_int_member (operation, "op", index);
    }

  return TRUE;
}

static gboolean
event_to_wire (const char  *type,
               JsonObject  *event,
               GError     **error)
{
  if (g_str_equal (type, "MESSAGES_SNAPSHOT") && json_object_has_member (event, "messages"))
    return messages_to_wire (json_object_get_array_member (event, "messages"), error);
  if (g_str_equal (type, "RUN_FINISHED"))
    flatten_outcome (event, (const char * const[]) { "pendingToolCallIds", "interrupts", NULL });
  if (g_str_equal (type, "SUBAGENT_FINISHED"))
    flatten_outcome (event, (const char * const[]) { "interruptIds", NULL });
  if (g_str_equal (type, "STATE_DELTA") && json_object_has_member (event, "delta"))
    return ops_to_wire (json_object_get_array_member (event, "delta"), error);
  if (g_str_equal (type, "ACTIVITY_DELTA") && json_object_has_member (event, "patch"))
    return ops_to_wire (json_object_get_array_member (event, "patch"), error);
  if (g_str_equal (type, "TOOL_CALL_RESULT") && json_object_has_member (event, "content") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (event, "content")))
    return parts_to_wire (event, "content", "contentParts", error);
  if (g_str_equal (type, "RUN_STARTED") && json_object_has_member (event, "input"))
    {
      JsonObject *input = json_object_get_object_member (event, "input");

      if (input != NULL && json_object_has_member (input, "messages"))
        return messages_to_wire (json_object_get_array_member (input, "messages"), error);
    }

  return TRUE;
}

/* From JSON to protobuf-c's structs */

static ProtobufCMessage *json_to_message (const ProtobufCMessageDescriptor  *descriptor,
                                          JsonNode                          *node,
                                          GError                           **error);

static ProtobufCMessage *
new_message (const ProtobufCMessageDescriptor *descriptor)
{
  ProtobufCMessage *message = malloc (descriptor->sizeof_message);

  descriptor->message_init (message);
  return message;
}

static ProtobufCMessage *
json_to_value (JsonNode *node)
{
  Agui__Wire__Value *value = (Agui__Wire__Value *) new_message (&agui__wire__value__descriptor);

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      value->has_null_value = TRUE;
      break;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        value->string_value = strdup (json_node_get_string (node));
      else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        {
          value->has_bool_value = TRUE;
          value->bool_value = json_node_get_boolean (node);
        }
      else
        {
          value->has_number_value = TRUE;
          value->number_value = json_node_get_double (node);
        }
      break;

    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) names = json_object_get_members (object);
        Agui__Wire__Struct *structure = (Agui__Wire__Struct *) new_message (&agui__wire__struct__descriptor);
        guint i = 0;

        structure->n_fields = g_list_length (names);
        structure->fields = malloc (MAX (structure->n_fields, 1) * sizeof (gpointer));
        for (GList *l = names; l != NULL; l = l->next, i++)
          {
            Agui__Wire__Struct__FieldsEntry *entry;

            entry = (Agui__Wire__Struct__FieldsEntry *) new_message (&agui__wire__struct__fields_entry__descriptor);
            entry->key = strdup (l->data);
            entry->value = (Agui__Wire__Value *) json_to_value (json_object_get_member (object, l->data));
            structure->fields[i] = entry;
          }
        value->struct_value = structure;
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        Agui__Wire__ListValue *list = (Agui__Wire__ListValue *) new_message (&agui__wire__list_value__descriptor);

        list->n_values = json_array_get_length (array);
        list->values = malloc (MAX (list->n_values, 1) * sizeof (gpointer));
        for (guint i = 0; i < list->n_values; i++)
          list->values[i] = (Agui__Wire__Value *) json_to_value (json_array_get_element (array, i));
        value->list_value = list;
      }
      break;

    default:
      g_assert_not_reached ();
    }

  return &value->base;
}

static gboolean
is_value_of (JsonNode *node,
             GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* Stores one element of a field; @slot is where it goes. */
static gboolean
json_to_slot (const ProtobufCFieldDescriptor  *field,
              JsonNode                        *node,
              void                            *slot,
              GError                         **error)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      if (!is_value_of (node, G_TYPE_STRING))
        return refuse (error, "“%s” is not a string", field->name);
      *(char **) slot = strdup (json_node_get_string (node));
      return TRUE;

    case PROTOBUF_C_TYPE_BOOL:
      if (!is_value_of (node, G_TYPE_BOOLEAN))
        return refuse (error, "“%s” is not a boolean", field->name);
      *(protobuf_c_boolean *) slot = json_node_get_boolean (node);
      return TRUE;

    case PROTOBUF_C_TYPE_DOUBLE:
      if (!is_value_of (node, G_TYPE_INT64) && !is_value_of (node, G_TYPE_DOUBLE))
        return refuse (error, "“%s” is not a number", field->name);
      *(double *) slot = json_node_get_double (node);
      return TRUE;

    case PROTOBUF_C_TYPE_INT64:
      if (!is_value_of (node, G_TYPE_INT64))
        return refuse (error, "“%s” is not an integer", field->name);
      *(gint64 *) slot = json_node_get_int (node);
      return TRUE;

    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
      if (!is_value_of (node, G_TYPE_INT64))
        return refuse (error, "“%s” is not an integer", field->name);
      *(gint32 *) slot = json_node_get_int (node);
      return TRUE;

    case PROTOBUF_C_TYPE_MESSAGE:
      if (field->descriptor == &agui__wire__value__descriptor)
        *(ProtobufCMessage **) slot = json_to_value (node);
      else if (field->descriptor == &agui__wire__struct__descriptor)
        {
          Agui__Wire__Value *wrapper;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            return refuse (error, "“%s” is not an object", field->name);
          wrapper = (Agui__Wire__Value *) json_to_value (node);
          *(ProtobufCMessage **) slot = &wrapper->struct_value->base;
          wrapper->struct_value = NULL;
          protobuf_c_message_free_unpacked (&wrapper->base, NULL);
        }
      else if (!(*(ProtobufCMessage **) slot = json_to_message (field->descriptor, node, error)))
        return FALSE;
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

static gsize
slot_size (const ProtobufCFieldDescriptor *field)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof (gpointer);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    default:
      return 4;
    }
}

static ProtobufCMessage *
json_to_message (const ProtobufCMessageDescriptor  *descriptor,
                 JsonNode                          *node,
                 GError                           **error)
{
  ProtobufCMessage *message;
  guint8 *base;
  JsonObject *object;
  g_autoptr(GList) names = NULL;
  g_autofree gboolean *seen = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      refuse (error, "a %s is not an object", descriptor->short_name);
      return NULL;
    }

  object = json_node_get_object (node);
  message = new_message (descriptor);
  base = (guint8 *) message;
  seen = g_new0 (gboolean, descriptor->n_fields);
  names = json_object_get_members (object);

  for (GList *l = names; l != NULL; l = l->next)
    {
      g_autofree char *name = snake_case (l->data);
      const ProtobufCFieldDescriptor *field = protobuf_c_message_descriptor_get_field_by_name (descriptor, name);
      JsonNode *value = json_object_get_member (object, l->data);

      /* Unknown members are not written; a null is omitted, unless the
       * field is a Value, which holds null itself. */
      if (field == NULL ||
          (JSON_NODE_HOLDS_NULL (value) && field->descriptor != &agui__wire__value__descriptor))
        continue;
      seen[field - descriptor->fields] = TRUE;

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          JsonArray *array;
          gsize n;
          guint8 *elements;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            {
              refuse (error, "“%s” is not an array", field->name);
              goto failed;
            }
          array = json_node_get_array (value);
          n = json_array_get_length (array);
          elements = calloc (MAX (n, 1), slot_size (field));
          *(void **) (base + field->offset) = elements;
          for (gsize i = 0; i < n; i++)
            {
              if (!json_to_slot (field, json_array_get_element (array, i), elements + i * slot_size (field), error))
                goto failed;
              *(size_t *) (base + field->quantifier_offset) = i + 1;
            }
          continue;
        }

      if (!json_to_slot (field, value, base + field->offset, error))
        goto failed;
      if (field->type != PROTOBUF_C_TYPE_STRING && field->type != PROTOBUF_C_TYPE_MESSAGE)
        *(protobuf_c_boolean *) (base + field->quantifier_offset) = TRUE;
    }

  /* proto3 writes no default and reads "" or 0 for a missing one: an
   * event lacking it would not read back the same. */
  for (guint i = 0; i < descriptor->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &descriptor->fields[i];

      if (field->default_value != NULL && !seen[i])
        {
          refuse (error, "the %s lacks “%s”, which the binary form cannot leave out",
                  descriptor->short_name, field->name);
          goto failed;
        }
    }

  return message;

failed:
  protobuf_c_message_free_unpacked (message, NULL);
  return NULL;
}

gboolean
agui_test_proto_append_event (GByteArray  *frames,
                              JsonObject  *event,
                              GError     **error)
{
  g_autoptr(JsonNode) copy = NULL;
  g_autoptr(JsonObject) base = json_object_new ();
  g_autofree char *arm_name = NULL;
  const ProtobufCFieldDescriptor *arm;
  const ProtobufCEnumValue *type_value;
  Agui__Wire__Event envelope = AGUI__WIRE__EVENT__INIT;
  ProtobufCMessage *message;
  Agui__Wire__BaseEvent *base_event = NULL;
  JsonObject *object;
  const char *type;
  guint8 prefix[4];
  gsize length;

  g_return_val_if_fail (frames != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  /* A private copy to reshape: json_node_copy() would share members. */
  {
    g_autoptr(JsonNode) original = json_node_init_object (json_node_alloc (), event);
    g_autofree char *text = json_to_string (original, FALSE);

    copy = json_from_string (text, NULL);
  }
  object = json_node_get_object (copy);
  type = json_object_get_string_member_with_default (object, "type", "");
  arm_name = g_ascii_strdown (type, -1);

  if (!(arm = protobuf_c_message_descriptor_get_field_by_name (&agui__wire__event__descriptor, arm_name)) ||
      !(type_value = protobuf_c_enum_descriptor_get_value_by_name (&agui__wire__event_type__descriptor, type)))
    return refuse (error, "the event type “%s” has no binary form", type);

  if (!event_to_wire (type, object, error))
    return FALSE;

  json_object_set_int_member (base, "type", type_value->value);
  for (const char * const *name = (const char * const[]) { "timestamp", "rawEvent", "metadata", NULL }; *name; name++)
    {
      if (json_object_has_member (object, *name))
        json_object_set_member (base, *name, json_object_dup_member (object, *name));
      json_object_remove_member (object, *name);
    }
  json_object_remove_member (object, "type");
  {
    g_autoptr(JsonNode) base_node = json_node_init_object (json_node_alloc (), base);

    if (!(base_event = (Agui__Wire__BaseEvent *) json_to_message (&agui__wire__base_event__descriptor,
                                                                   base_node, error)))
      return FALSE;
  }

  if (!(message = json_to_message (arm->descriptor, copy, error)))
    {
      protobuf_c_message_free_unpacked (&base_event->base, NULL);
      return FALSE;
    }
  *(Agui__Wire__BaseEvent **) ((guint8 *) message + message->descriptor->fields[0].offset) = base_event;
  *(ProtobufCMessage **) ((guint8 *) &envelope + arm->offset) = message;

  length = agui__wire__event__get_packed_size (&envelope);
  prefix[0] = length >> 24;
  prefix[1] = length >> 16;
  prefix[2] = length >> 8;
  prefix[3] = length;
  g_byte_array_append (frames, prefix, 4);
  g_byte_array_set_size (frames, frames->len + length);
  agui__wire__event__pack (&envelope, frames->data + frames->len - length);

  protobuf_c_message_free_unpacked (message, NULL);

  return TRUE;
}

gboolean
agui_test_proto_append_json (GByteArray  *frames,
                             const char  *json,
                             GError     **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (json != NULL, FALSE);

  if (!(node = json_from_string (json, NULL)) || !JSON_NODE_HOLDS_OBJECT (node))
    return refuse (error, "the frame is not a JSON object");

  return agui_test_proto_append_event (frames, json_node_get_object (node), error);
}

GBytes *
agui_test_proto_encode_sse (const char  *sse,
                            gsize        length,
                            GError     **error)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  AguiSseFrame *frame;

  if (!_agui_sse_decoder_push (decoder, (const guint8 *) sse, length, error) ||
      !_agui_sse_decoder_finish (decoder, error))
    return NULL;

  while ((frame = _agui_sse_decoder_next_frame (decoder)))
    {
      g_autoptr(AguiSseFrame) owned = frame;
      g_autofree char *data = g_strndup (_agui_sse_frame_get_data (frame), _agui_sse_frame_get_data_length (frame));

      if (!agui_test_proto_append_json (frames, data, error))
        return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&frames));
}
