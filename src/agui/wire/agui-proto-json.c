/* agui-proto-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "agui-events.pb-c.h"

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-proto-json-private.h"
#include "agui-types.h"

/* Most of the JSON form follows from the schema alone: a field is named by
 * its proto name in camelCase (as ts-proto names it), a field with a
 * default (proto3's implicit presence) is always there, an optional one
 * only when set, a repeated one always, as an array. google.protobuf's
 * Struct, Value and ListValue are JSON values. What does not follow from
 * the schema is done after, per event type, as @ag-ui/proto's decode()
 * does it. */

/* Struct → FieldsEntry → Value is three wire levels for one JSON level. */
#define MAX_WIRE_DEPTH (3 * AGUI_JSON_MAX_DEPTH + 16)

/* Integers a JavaScript number holds exactly; the reference decoder
 * refuses an int64 beyond them, and so do we rather than round it. */
#define MAX_SAFE_INTEGER G_GINT64_CONSTANT (9007199254740991)

static const char * const envelope_types[] = {
  [1] = "TEXT_MESSAGE_START",
  [2] = "TEXT_MESSAGE_CONTENT",
  [3] = "TEXT_MESSAGE_END",
  [4] = "TOOL_CALL_START",
  [5] = "TOOL_CALL_ARGS",
  [6] = "TOOL_CALL_END",
  [7] = "STATE_SNAPSHOT",
  [8] = "STATE_DELTA",
  [9] = "MESSAGES_SNAPSHOT",
  [10] = "RAW",
  [11] = "CUSTOM",
  [12] = "RUN_STARTED",
  [13] = "RUN_FINISHED",
  [14] = "RUN_ERROR",
  [15] = "STEP_STARTED",
  [16] = "STEP_FINISHED",
  [17] = "TEXT_MESSAGE_CHUNK",
  [18] = "TOOL_CALL_CHUNK",
  [19] = "SUBAGENT_STARTED",
  [20] = "SUBAGENT_FINISHED",
  [21] = "SUBAGENT_ERROR",
  [22] = "TOOL_CALL_RESULT",
  [23] = "ACTIVITY_SNAPSHOT",
  [24] = "ACTIVITY_DELTA",
  [25] = "REASONING_START",
  [26] = "REASONING_MESSAGE_START",
  [27] = "REASONING_MESSAGE_CONTENT",
  [28] = "REASONING_MESSAGE_END",
  [29] = "REASONING_MESSAGE_CHUNK",
  [30] = "REASONING_END",
  [31] = "REASONING_ENCRYPTED_VALUE",
};

static const char * const patch_ops[] = { "add", "remove", "replace", "move", "copy", "test" };

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: the binary frame %s", message);

  return FALSE;
}

/* The wire walk */

typedef struct
{
  const ProtobufCMessageDescriptor *descriptor;
  gsize                             end;
} Level;

static gboolean
read_varint (const guint8 *data,
             gsize         end,
             gsize        *offset,
             guint64      *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*offset >= end)
        return FALSE;

      byte = data[(*offset)++];
      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }

  return FALSE;
}

/* Walks the frame as the schema describes it, with an explicit stack:
 * protobuf-c recurses into nested messages, and a frame of nested Values
 * would otherwise take the stack down. Checks what protobuf-c would not:
 * depth, and strings that are UTF-8 without NUL (a C string would end
 * at it, silently). */
static gboolean
walk_wire (const guint8  *data,
           gsize          length,
           GError       **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Level));
  Level level = { &agui__wire__event__descriptor, length };
  gsize offset = 0;

  for (;;)
    {
      const ProtobufCFieldDescriptor *field = NULL;
      guint64 tag, value;
      guint32 number;

      while (offset == level.end)
        {
          if (stack->len == 0)
            return TRUE;
          level = g_array_index (stack, Level, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
        }

      if (!read_varint (data, level.end, &offset, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
        return invalid (error, "has a broken field tag at byte %" G_GSIZE_FORMAT, offset);

      number = tag >> 3;
      if (level.descriptor != NULL)
        field = protobuf_c_message_descriptor_get_field (level.descriptor, number);

      switch (tag & 7)
        {
        case PROTOBUF_C_WIRE_TYPE_VARINT:
          if (!read_varint (data, level.end, &offset, &value))
            return invalid (error, "has a broken number at byte %" G_GSIZE_FORMAT, offset);
          break;

        case PROTOBUF_C_WIRE_TYPE_64BIT:
          if (level.end - offset < 8)
            return invalid (error, "ends inside a number at byte %" G_GSIZE_FORMAT, offset);
          offset += 8;
          break;

        case PROTOBUF_C_WIRE_TYPE_32BIT:
          if (level.end - offset < 4)
            return invalid (error, "ends inside a number at byte %" G_GSIZE_FORMAT, offset);
          offset += 4;
          break;

        case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
          if (!read_varint (data, level.end, &offset, &value) || value > level.end - offset)
            return invalid (error, "has a field at byte %" G_GSIZE_FORMAT " that runs past the end "
                            "of its message", offset);

          if (field != NULL && field->type == PROTOBUF_C_TYPE_MESSAGE)
            {
              if (stack->len + 1 >= MAX_WIRE_DEPTH)
                return invalid (error, "is nested deeper than %d levels", AGUI_JSON_MAX_DEPTH);
              g_array_append_val (stack, level);
              level.descriptor = field->descriptor;
              level.end = offset + value;
              continue;
            }

          if (field != NULL && field->type == PROTOBUF_C_TYPE_STRING)
            {
              const char *text = (const char *) data + offset;

              if (memchr (text, '\0', value) != NULL)
                return invalid (error, "has a string holding a NUL character at byte %" G_GSIZE_FORMAT,
                                offset);
              if (!g_utf8_validate (text, value, NULL))
                return invalid (error, "has a string that is not valid UTF-8 at byte %" G_GSIZE_FORMAT,
                                offset);
            }
          offset += value;
          break;

        default:
          /* Groups are proto2's, and no AG-UI schema has used them. */
          return invalid (error, "has a field of wire type %u at byte %" G_GSIZE_FORMAT
                          ", which the AG-UI schema never uses", (guint) (tag & 7), offset);
        }
    }
}

/* Whether an unknown field's payload reads as a message at all, so that
 * garbage is not mistaken for an event from a later protocol. */
static gboolean
walks_as_message (const guint8 *data,
                  gsize         length)
{
  gsize offset = 0;

  while (offset < length)
    {
      guint64 tag, value;

      if (!read_varint (data, length, &offset, &tag) || (tag >> 3) == 0)
        return FALSE;

      switch (tag & 7)
        {
        case PROTOBUF_C_WIRE_TYPE_VARINT:
          if (!read_varint (data, length, &offset, &value))
            return FALSE;
          break;
        case PROTOBUF_C_WIRE_TYPE_64BIT:
          if (length - offset < 8)
            return FALSE;
          offset += 8;
          break;
        case PROTOBUF_C_WIRE_TYPE_32BIT:
          if (length - offset < 4)
            return FALSE;
          offset += 4;
          break;
        case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
          if (!read_varint (data, length, &offset, &value) || value > length - offset)
            return FALSE;
          offset += value;
          break;
        default:
          return FALSE;
        }
    }

  return TRUE;
}

/* From protobuf-c's structs to the compact tree */

/* What JavaScript's undefined becomes here: a Value with nothing set.
 * No JSON value has this kind, and a tree never holds it. */
#define UNDEFINED AGUI_JSON_DOC_HOLE

static gboolean message_to_value (const ProtobufCMessage  *message,
                                  guint                   depth,
                                  AguiJsonValue          *value,
                                  GError                **error);

/* Into @buffer: every name in agui-events.proto is short, and this runs
 * for every field of every event. */
static const char *
camel_case (const char *name,
            char       *buffer,
            gsize       size)
{
  gsize n = 0;

  for (const char *p = name; *p != '\0' && n + 1 < size; p++)
    {
      if (*p == '_' && p[1] != '\0')
        buffer[n++] = g_ascii_toupper (*++p);
      else
        buffer[n++] = *p;
    }
  buffer[n] = '\0';

  return buffer;
}

static gboolean
check_depth (guint    depth,
             GError **error)
{
  if (depth > AGUI_JSON_MAX_DEPTH)
    return invalid (error, "is nested deeper than %d levels", AGUI_JSON_MAX_DEPTH);

  return TRUE;
}

static void
set_string (AguiJsonValue *value,
            const char    *string)
{
  _agui_json_value_set_string (value, string, strlen (string));
}

/* A JavaScript number has no integer kind; the SSE encoder writes an
 * integral one without a fraction, which our SSE path reads as an
 * integer. The same number off the wire reads the same way. */
static gboolean
number_to_value (double          number,
                 AguiJsonValue  *value,
                 GError        **error)
{
  if (!isfinite (number))
    return invalid (error, "holds a number that is not finite, which JSON cannot hold");

  if (number == floor (number) && fabs (number) <= (double) MAX_SAFE_INTEGER)
    _agui_json_value_set_int (value, (gint64) number);
  else
    _agui_json_value_set_double (value, number);

  return TRUE;
}

/* Each of these fills @value, null before; on failure @value may hold
 * part of the tree, which the caller clears. */

static gboolean
struct_to_value (const Agui__Wire__Struct  *wire,
                 guint                      depth,
                 AguiJsonValue             *value,
                 GError                   **error)
{
  AguiJsonDocObject *object;

  if (!check_depth (depth, error))
    return FALSE;

  object = _agui_json_value_set_object (value, wire->n_fields);
  for (gsize i = 0; i < wire->n_fields; i++)
    {
      const Agui__Wire__Struct__FieldsEntry *entry = wire->fields[i];
      g_auto(AguiJsonValue) member = AGUI_JSON_VALUE_INIT;

      /* A Value with nothing set is undefined in JavaScript: no member. */
      if (entry->value == NULL)
        continue;
      if (!message_to_value (&entry->value->base, depth, &member, error))
        return FALSE;
      /* A key given twice keeps its first place, as json-glib keeps it. */
      if (member.kind != UNDEFINED)
        _agui_json_object_set (object, entry->key, &member);
    }

  return TRUE;
}

static gboolean
list_to_value (const Agui__Wire__ListValue  *wire,
               guint                         depth,
               AguiJsonValue                *value,
               GError                      **error)
{
  AguiJsonDocArray *array;

  if (!check_depth (depth, error))
    return FALSE;

  array = _agui_json_value_set_array (value, wire->n_values);
  for (gsize i = 0; i < wire->n_values; i++)
    {
      g_auto(AguiJsonValue) element = AGUI_JSON_VALUE_INIT;

      if (!message_to_value (&wire->values[i]->base, depth, &element, error))
        return FALSE;
      /* JSON.stringify writes an undefined element as null. */
      if (element.kind == UNDEFINED)
        element.kind = AGUI_JSON_DOC_NULL;
      _agui_json_array_insert (array, i, &element);
    }

  return TRUE;
}

/* In the order ts-proto's Value.unwrap() picks when several are set. */
static gboolean
value_to_value (const Agui__Wire__Value  *wire,
                guint                     depth,
                AguiJsonValue            *value,
                GError                  **error)
{
  if (wire->string_value != NULL)
    set_string (value, wire->string_value);
  else if (wire->has_number_value)
    return number_to_value (wire->number_value, value, error);
  else if (wire->has_bool_value)
    _agui_json_value_set_boolean (value, wire->bool_value);
  else if (wire->struct_value != NULL)
    return struct_to_value (wire->struct_value, depth + 1, value, error);
  else if (wire->list_value != NULL)
    return list_to_value (wire->list_value, depth + 1, value, error);
  else if (!wire->has_null_value)
    value->kind = UNDEFINED;

  return TRUE;
}

static gboolean
field_to_value (const ProtobufCFieldDescriptor  *field,
                const void                      *member,
                guint                            depth,
                AguiJsonValue                   *value,
                GError                         **error)
{
  gint64 integer;

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      set_string (value, *(char * const *) member);
      return TRUE;

    case PROTOBUF_C_TYPE_BOOL:
      _agui_json_value_set_boolean (value, *(const protobuf_c_boolean *) member);
      return TRUE;

    case PROTOBUF_C_TYPE_DOUBLE:
      return number_to_value (*(const double *) member, value, error);

    case PROTOBUF_C_TYPE_INT64:
      integer = *(const gint64 *) member;
      if (integer > MAX_SAFE_INTEGER || integer < -MAX_SAFE_INTEGER)
        return invalid (error, "holds the integer %" G_GINT64_FORMAT " in “%s”, beyond the 53 bits "
                        "the protocol's numbers hold exactly", integer, field->name);
      _agui_json_value_set_int (value, integer);
      return TRUE;

    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
      _agui_json_value_set_int (value, *(const gint32 *) member);
      return TRUE;

    case PROTOBUF_C_TYPE_MESSAGE:
      return message_to_value (*(ProtobufCMessage * const *) member, depth, value, error);

    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_BYTES:
    default:
      /* agui-events.proto uses none of these. */
      g_assert_not_reached ();
    }
}

static gboolean
field_is_set (const ProtobufCFieldDescriptor *field,
              const guint8                   *base)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
      /* protobuf-c points a defaulted string at its default. */
      return *(void * const *) (base + field->offset) != NULL;

    default:
      return field->default_value != NULL ||
             *(const protobuf_c_boolean *) (base + field->quantifier_offset);
    }
}

/* The fields of @message from @first on, as members of @object, which is
 * at @depth. */
static gboolean
fields_to_object (const ProtobufCMessage  *message,
                  guint                   first,
                  guint                   depth,
                  AguiJsonDocObject      *object,
                  GError                **error)
{
  const ProtobufCMessageDescriptor *descriptor = message->descriptor;
  const guint8 *base = (const guint8 *) message;

  for (guint i = first; i < descriptor->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &descriptor->fields[i];
      char buffer[64];
      const char *name = camel_case (field->name, buffer, sizeof buffer);
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          gsize n = *(const size_t *) (base + field->quantifier_offset);
          const guint8 *elements = *(const guint8 * const *) (base + field->offset);
          gsize size = field->type == PROTOBUF_C_TYPE_STRING || field->type == PROTOBUF_C_TYPE_MESSAGE
                       ? sizeof (void *) : (field->type == PROTOBUF_C_TYPE_INT64 ||
                                            field->type == PROTOBUF_C_TYPE_DOUBLE ? 8 : 4);
          AguiJsonDocArray *array;

          if (!check_depth (depth + 1, error))
            return FALSE;

          array = _agui_json_value_set_array (&value, n);
          for (gsize j = 0; j < n; j++)
            {
              g_auto(AguiJsonValue) element = AGUI_JSON_VALUE_INIT;

              if (!field_to_value (field, elements + j * size, depth + 1, &element, error))
                return FALSE;
              if (element.kind == UNDEFINED)
                element.kind = AGUI_JSON_DOC_NULL;
              _agui_json_array_insert (array, j, &element);
            }
          _agui_json_object_set (object, name, &value);
          continue;
        }

      if (!field_is_set (field, base))
        continue;
      if (!field_to_value (field, base + field->offset, depth, &value, error))
        return FALSE;
      if (value.kind != UNDEFINED)
        _agui_json_object_set (object, name, &value);
      else
        value.kind = AGUI_JSON_DOC_NULL;
    }

  return TRUE;
}

static gboolean
message_to_value (const ProtobufCMessage  *message,
                  guint                   depth,
                  AguiJsonValue          *value,
                  GError                **error)
{
  const ProtobufCMessageDescriptor *descriptor = message->descriptor;

  if (descriptor == &agui__wire__value__descriptor)
    return value_to_value ((const Agui__Wire__Value *) message, depth, value, error);
  if (descriptor == &agui__wire__struct__descriptor)
    return struct_to_value ((const Agui__Wire__Struct *) message, depth + 1, value, error);
  if (descriptor == &agui__wire__list_value__descriptor)
    return list_to_value ((const Agui__Wire__ListValue *) message, depth + 1, value, error);

  if (!check_depth (++depth, error))
    return FALSE;

  return fields_to_object (message, 0, depth,
                           _agui_json_value_set_object (value, descriptor->n_fields), error);
}

/* The shapes decode() gives, after the schema's */

/* The member @name of @object, or %NULL. Borrowed, until @object next
 * changes. */
static gboolean
has_member (AguiJsonDocObject *object,
            const char        *name)
{
  return _agui_json_object_find (object, name) >= 0;
}

static gboolean
array_is_empty (AguiJsonDocObject *object,
                const char        *name)
{
  AguiJsonDocArray *array = _agui_json_members_get_array (object, name);

  return array == NULL || _agui_json_array_get_length (array) == 0;
}

static void
remove_member (AguiJsonDocObject *object,
               const char        *name)
{
  g_auto(AguiJsonValue) removed = AGUI_JSON_VALUE_INIT;

  _agui_json_members_take (object, name, &removed);
}

static void
move_member (AguiJsonDocObject *to,
             AguiJsonDocObject *from,
             const char        *name)
{
  AguiJsonValue *value = _agui_json_members_get (from, name);

  if (value != NULL)
    _agui_json_object_set (to, name, value);
}

static void
set_string_member (AguiJsonDocObject *object,
                   const char        *name,
                   const char        *string)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  set_string (&value, string);
  _agui_json_object_set (object, name, &value);
}

/* The arm of a oneof that the wire spells as optional members, of the
 * names in @arms: FALSE when more than one is there. */
static gboolean
find_arm (AguiJsonDocObject   *wire,
          const char * const  *arms,
          guint                n_arms,
          AguiJsonDocObject  **arm,
          const char         **kind)
{
  *arm = NULL;
  *kind = NULL;
  for (guint i = 0; i < n_arms; i++)
    {
      if (!has_member (wire, arms[i]))
        continue;
      if (*kind != NULL)
        return FALSE;
      *arm = _agui_json_members_get_object (wire, arms[i]);
      *kind = arms[i];
    }

  return TRUE;
}

static gboolean
source_from_wire (AguiJsonDocObject  *wire,
                  AguiJsonValue      *source,
                  GError            **error)
{
  static const char * const arms[] = { "data", "url", "file" };
  AguiJsonDocObject *object;
  AguiJsonDocObject *arm;
  const char *kind;

  if (!find_arm (wire, arms, G_N_ELEMENTS (arms), &arm, &kind))
    return invalid (error, "has a content source with more than one kind");

  if (arm == NULL)
    return TRUE;

  object = _agui_json_value_set_object (source, 4);
  set_string_member (object, "type", kind);
  move_member (object, arm, "value");
  move_member (object, arm, "provider");
  move_member (object, arm, "mimeType");

  return TRUE;
}

/* A content part off the wire, into @part; @part stays null (no error)
 * for one that is dropped, as the reference drops it. */
static gboolean
part_from_wire (AguiJsonDocObject  *wire,
                GPtrArray          *warnings,
                AguiJsonValue      *part,
                GError            **error)
{
  static const char * const arms[] = { "text", "image", "audio", "video", "document" };
  g_auto(AguiJsonValue) result = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;
  AguiJsonDocObject *arm;
  const char *kind;

  if (!find_arm (wire, arms, G_N_ELEMENTS (arms), &arm, &kind))
    return invalid (error, "has a content part with more than one kind");

  if (arm == NULL)
    {
      if (warnings != NULL)
        g_ptr_array_add (warnings, g_strdup ("Dropped a content part of a kind this client does not know"));
      return TRUE;
    }

  object = _agui_json_value_set_object (&result, 4);
  set_string_member (object, "type", kind);
  move_member (object, arm, "id");
  if (g_str_equal (kind, "text"))
    {
      move_member (object, arm, "text");
    }
  else if (has_member (arm, "source"))
    {
      AguiJsonValue source = AGUI_JSON_VALUE_INIT;

      if (!source_from_wire (_agui_json_members_get_object (arm, "source"), &source, error))
        return FALSE;
      if (source.kind != AGUI_JSON_DOC_OBJECT)
        {
          if (warnings != NULL)
            g_ptr_array_add (warnings, g_strdup ("Dropped a content part whose source is of a kind "
                                                 "this client does not know"));
          return TRUE;
        }
      _agui_json_object_set (object, "source", &source);
    }
  move_member (object, arm, "metadata");
  _agui_json_value_move (part, &result);

  return TRUE;
}

static gboolean
parts_from_wire (AguiJsonDocArray  *wire,
                 GPtrArray         *warnings,
                 AguiJsonValue     *parts,
                 GError           **error)
{
  guint n = wire != NULL ? _agui_json_array_get_length (wire) : 0;
  AguiJsonDocArray *array = _agui_json_value_set_array (parts, n);

  for (guint i = 0; i < n; i++)
    {
      AguiJsonValue *element = _agui_json_array_get (wire, i);
      g_auto(AguiJsonValue) part = AGUI_JSON_VALUE_INIT;

      if (element->kind == AGUI_JSON_DOC_OBJECT &&
          !part_from_wire (element->u.object, warnings, &part, error))
        return FALSE;
      if (part.kind != AGUI_JSON_DOC_NULL)
        _agui_json_array_insert (array, _agui_json_array_get_length (array), &part);
    }

  return TRUE;
}

/* The wire's one Message carries every role's fields; the role says which
 * of them is the JSON `content`. */
static gboolean
message_from_wire (AguiJsonDocObject  *message,
                   GPtrArray          *warnings,
                   GError            **error)
{
  static const char * const known_roles[] = {
    "developer", "system", "assistant", "user", "tool", "activity", "reasoning", NULL
  };
  const char *role = _agui_json_members_get_string (message, "role");
  gboolean known = g_strv_contains (known_roles, role);
  gboolean has_content = has_member (message, "content");
  gboolean has_parts = !array_is_empty (message, "contentParts");
  gboolean has_map = has_member (message, "activityContent");
  gboolean uses_parts, uses_map;

  uses_parts = known ? (g_str_equal (role, "user") || g_str_equal (role, "tool")) : has_parts;
  uses_map = known ? g_str_equal (role, "activity") : (!uses_parts && has_map);

  if (!known && has_content + has_parts + has_map > 1)
    return invalid (error, "has a message with more than one form of content");
  if (known)
    {
      if (!uses_parts && has_parts)
        return invalid (error, "has content parts on a %s message, which has none", role);
      if (has_map && !uses_map)
        return invalid (error, "has activity content on a %s message", role);
      if (uses_map && has_content)
        return invalid (error, "has an activity message with other content besides");
      if (uses_parts && has_content && has_parts)
        return invalid (error, "has a message with both text content and content parts");
    }

  if (uses_parts && !has_content)
    {
      AguiJsonValue parts = AGUI_JSON_VALUE_INIT;

      if (!parts_from_wire (_agui_json_members_get_array (message, "contentParts"), warnings, &parts, error))
        {
          _agui_json_value_clear (&parts);
          return FALSE;
        }
      _agui_json_object_set (message, "content", &parts);
    }
  if (uses_map && has_map)
    {
      AguiJsonValue content = AGUI_JSON_VALUE_INIT;

      _agui_json_members_take (message, "activityContent", &content);
      _agui_json_object_set (message, "content", &content);
    }

  remove_member (message, "activityContent");
  remove_member (message, "contentParts");
  if (array_is_empty (message, "toolCalls"))
    remove_member (message, "toolCalls");

  return TRUE;
}

static gboolean
messages_from_wire (AguiJsonDocArray  *messages,
                    GPtrArray         *warnings,
                    GError           **error)
{
  guint n = messages != NULL ? _agui_json_array_get_length (messages) : 0;

  for (guint i = 0; i < n; i++)
    {
      AguiJsonValue *message = _agui_json_array_get (messages, i);

      if (message->kind == AGUI_JSON_DOC_OBJECT &&
          !message_from_wire (message->u.object, warnings, error))
        return FALSE;
    }

  return TRUE;
}

static void
ops_from_wire (AguiJsonDocArray *operations)
{
  guint n = operations != NULL ? _agui_json_array_get_length (operations) : 0;

  for (guint i = 0; i < n; i++)
    {
      AguiJsonValue *element = _agui_json_array_get (operations, i);
      AguiJsonValue *op_value;
      gint64 op = 0;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;
      op_value = _agui_json_members_get (element->u.object, "op");
      if (op_value != NULL && op_value->kind == AGUI_JSON_DOC_INT)
        op = op_value->u.integer;

      /* An operation this schema does not know keeps its number, and the
       * schema check refuses it by name. */
      if (op >= 0 && op < (gint64) G_N_ELEMENTS (patch_ops))
        set_string_member (element->u.object, "op", patch_ops[op]);
      else
        {
          g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, op);

          set_string_member (element->u.object, "op", number);
        }
    }
}

static gboolean
is_nonempty_array (const AguiJsonValue *value)
{
  return value->kind == AGUI_JSON_DOC_ARRAY && _agui_json_array_get_length (value->u.array) > 0;
}

/* RUN_FINISHED and SUBAGENT_FINISHED carry their outcome flattened: its
 * type as a string, its lists beside it. */
static void
outcome_from_wire (AguiJsonDocObject  *event,
                   const char * const *lists)
{
  g_autofree char *kind = g_strdup (_agui_json_members_get_string (event, "outcome"));
  g_auto(AguiJsonValue) outcome = AGUI_JSON_VALUE_INIT;
  AguiJsonValue saved[2] = { AGUI_JSON_VALUE_INIT, AGUI_JSON_VALUE_INIT };
  AguiJsonDocObject *object;

  for (guint i = 0; lists[i] != NULL; i++)
    _agui_json_members_take (event, lists[i], &saved[i]);
  remove_member (event, "outcome");

  if (kind[0] == '\0')
    {
      /* No outcome: the lists stay where they were, when there is
       * anything in them. */
      for (guint i = 0; lists[i] != NULL; i++)
        {
          if (is_nonempty_array (&saved[i]))
            _agui_json_object_set (event, lists[i], &saved[i]);
          _agui_json_value_clear (&saved[i]);
        }
      return;
    }

  object = _agui_json_value_set_object (&outcome, 3);
  set_string_member (object, "type", kind);
  for (guint i = 0; lists[i] != NULL; i++)
    {
      /* An interrupt outcome always lists its interrupts. */
      if (is_nonempty_array (&saved[i]) ||
          (saved[i].kind == AGUI_JSON_DOC_ARRAY && g_str_equal (kind, "interrupt") &&
           g_str_equal (lists[i], "interrupts")))
        _agui_json_object_set (object, lists[i], &saved[i]);
      _agui_json_value_clear (&saved[i]);
    }
  _agui_json_object_set (event, "outcome", &outcome);
}

static gboolean
event_from_wire (const char        *type,
                 AguiJsonDocObject *event,
                 GPtrArray         *warnings,
                 GError           **error)
{
  if (g_str_equal (type, "MESSAGES_SNAPSHOT"))
    return messages_from_wire (_agui_json_members_get_array (event, "messages"), warnings, error);

  if (g_str_equal (type, "RUN_FINISHED"))
    {
      static const char * const lists[] = { "pendingToolCallIds", "interrupts", NULL };

      outcome_from_wire (event, lists);
      if (array_is_empty (event, "usage"))
        remove_member (event, "usage");
      return TRUE;
    }

  if (g_str_equal (type, "SUBAGENT_FINISHED"))
    {
      static const char * const lists[] = { "interruptIds", NULL };

      outcome_from_wire (event, lists);
      return TRUE;
    }

  if (g_str_equal (type, "RUN_ERROR"))
    {
      if (array_is_empty (event, "usage"))
        remove_member (event, "usage");
      return TRUE;
    }

  if (g_str_equal (type, "STATE_DELTA"))
    ops_from_wire (_agui_json_members_get_array (event, "delta"));
  else if (g_str_equal (type, "ACTIVITY_DELTA"))
    ops_from_wire (_agui_json_members_get_array (event, "patch"));
  else if (g_str_equal (type, "TOOL_CALL_RESULT"))
    {
      gboolean has_content = has_member (event, "content");

      if (has_content && !array_is_empty (event, "contentParts"))
        return invalid (error, "has a tool result with both text content and content parts");
      if (!has_content)
        {
          AguiJsonValue parts = AGUI_JSON_VALUE_INIT;

          if (!parts_from_wire (_agui_json_members_get_array (event, "contentParts"), warnings, &parts, error))
            {
              _agui_json_value_clear (&parts);
              return FALSE;
            }
          _agui_json_object_set (event, "content", &parts);
        }
      remove_member (event, "contentParts");
    }
  else if (g_str_equal (type, "RUN_STARTED") && has_member (event, "input"))
    {
      AguiJsonDocObject *input = _agui_json_members_get_object (event, "input");

      return input == NULL || messages_from_wire (_agui_json_members_get_array (input, "messages"), warnings, error);
    }

  return TRUE;
}

static gboolean
has_unknown_arm (const ProtobufCMessage *message)
{
  for (guint i = 0; i < message->n_unknown_fields; i++)
    {
      const ProtobufCMessageUnknownField *field = &message->unknown_fields[i];
      gsize offset = 0;
      guint64 length;

      /* protobuf-c keeps the field's own length in front of it. */
      if (field->wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED &&
          read_varint (field->data, field->len, &offset, &length) &&
          length == field->len - offset &&
          walks_as_message (field->data + offset, length))
        return TRUE;
    }

  return FALSE;
}

AguiProtoResult
_agui_proto_event_to_value (const guint8   *data,
                            gsize           length,
                            GPtrArray      *warnings,
                            AguiJsonValue  *event,
                            GError        **error)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;
  Agui__Wire__Event *envelope;
  const ProtobufCMessage *arm = NULL;
  const ProtobufCFieldDescriptor *arm_field = NULL;
  const Agui__Wire__BaseEvent *base;
  const ProtobufCEnumValue *declared = NULL;
  const char *type;
  gboolean ok;

  g_return_val_if_fail (data != NULL || length == 0, AGUI_PROTO_INVALID);
  g_return_val_if_fail (event != NULL, AGUI_PROTO_INVALID);

  if (!walk_wire (data, length, error))
    return AGUI_PROTO_INVALID;

  if (!(envelope = agui__wire__event__unpack (NULL, length, data)))
    {
      invalid (error, "is not an AG-UI event message");
      return AGUI_PROTO_INVALID;
    }

  for (guint i = 0; i < agui__wire__event__descriptor.n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &agui__wire__event__descriptor.fields[i];
      const ProtobufCMessage *candidate = *(ProtobufCMessage * const *) ((const guint8 *) envelope + field->offset);

      if (candidate == NULL)
        continue;
      if (arm != NULL)
        {
          agui__wire__event__free_unpacked (envelope, NULL);
          invalid (error, "carries two events, %s and %s", envelope_types[arm_field->id],
                   envelope_types[field->id]);
          return AGUI_PROTO_INVALID;
        }
      arm = candidate;
      arm_field = field;
    }

  if (arm == NULL)
    {
      gboolean future = has_unknown_arm (&envelope->base);

      agui__wire__event__free_unpacked (envelope, NULL);
      if (future)
        return AGUI_PROTO_UNKNOWN_EVENT;
      invalid (error, "carries no event");
      return AGUI_PROTO_INVALID;
    }

  g_assert (arm_field->id < G_N_ELEMENTS (envelope_types));
  type = envelope_types[arm_field->id];
  /* Every event message starts with its base event. */
  base = *(Agui__Wire__BaseEvent * const *) ((const guint8 *) arm + arm->descriptor->fields[0].offset);

  /* "type" first, as on an SSE stream, then the event's own fields, then
   * the base event's others. */
  object = _agui_json_value_set_object (&value, arm->descriptor->n_fields +
                                        agui__wire__base_event__descriptor.n_fields - 1);
  set_string_member (object, "type", type);

  if (base == NULL)
    ok = invalid (error, "carries a %s without its base event", type);
  else if (!(declared = protobuf_c_enum_descriptor_get_value (&agui__wire__event_type__descriptor, base->type)) ||
           g_strcmp0 (declared->name, type) != 0)
    ok = invalid (error, "carries a %s whose base event declares %s", type,
                  declared != NULL ? declared->name : "an unknown type");
  else
    ok = fields_to_object (arm, 1, 1, object, error) &&
         fields_to_object (&base->base, 1, 1, object, error);

  agui__wire__event__free_unpacked (envelope, NULL);
  if (!ok)
    return AGUI_PROTO_INVALID;

  if (!event_from_wire (type, object, warnings, error))
    return AGUI_PROTO_INVALID;

  _agui_json_value_move (event, &value);

  return AGUI_PROTO_OK;
}
