/* agui-event-new.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-event-reader-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

/* The public constructors that check what they are given against the
 * schema. They sit above both the event (agui-event.c) and the schema
 * (agui-event-schema.c), which then need not know each other both ways:
 * the schema names event types, the event knows no schema. */

/* Takes @tree, the members as one object of the compact tree. */
static AguiEvent *
new_checked (AguiEventType   type,
             AguiJsonValue  *tree,
             GPtrArray      *warnings,
             GError        **error)
{
  if (!_agui_event_schema_enforce_tree (type, tree->u.object, warnings, error))
    {
      _agui_json_value_clear (tree);
      return NULL;
    }

  return _agui_event_new_tree (type, tree);
}

AguiEvent *
_agui_event_new_checked (AguiEventType   type,
                         AguiJsonValue  *members,
                         GError        **error)
{
  g_return_val_if_fail ((guint) type <= AGUI_EVENT_SUBAGENT_ERROR, NULL);
  g_return_val_if_fail (members != NULL && members->kind == AGUI_JSON_DOC_OBJECT, NULL);

  _agui_json_doc_set_string (members->u.object, "type", agui_event_type_to_string (type));

  return new_checked (type, members, NULL, error);
}

/**
 * agui_event_new:
 * @type: the event type
 * @members: (transfer full): the event's members; "type" may be left out
 * @error: return location for a #GError
 *
 * Builds an event in code and checks it against the schema as if it had
 * arrived on the wire.
 *
 * Returns: (transfer full) (nullable): the event, or %NULL if @members
 *   do not make a valid event of @type
 */
AguiEvent *
agui_event_new (AguiEventType   type,
                JsonObject     *members,
                GError        **error)
{
  g_autoptr(JsonObject) owned = members;
  g_autoptr(JsonNode) node = NULL;
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;

  g_return_val_if_fail ((guint) type <= AGUI_EVENT_SUBAGENT_ERROR, NULL);
  g_return_val_if_fail (members != NULL, NULL);

  json_object_set_string_member (owned, "type", agui_event_type_to_string (type));
  node = json_node_init_object (json_node_alloc (), owned);
  _agui_json_value_set_node (&tree, node);

  return new_checked (type, &tree, NULL, error);
}

/**
 * agui_event_new_from_json:
 * @node: a JSON object node
 * @warnings: (nullable) (element-type utf8): where to append a warning for
 *   each unknown member removed
 * @error: return location for a #GError
 *
 * Makes an event from its JSON form, enforcing the 1.0 schema: unknown
 * members are removed (with a warning), a missing or mistyped known member
 * is an %AGUI_ERROR_INVALID_EVENT error naming the event type and the
 * member. An unknown event type is an %AGUI_ERROR_INVALID_EVENT error too;
 * a stream reader that wants to skip such events checks the type first,
 * as [class@Agui.EventStream] does. @node is not modified.
 *
 * Returns: (transfer full) (nullable): the event, or %NULL on error
 */
AguiEvent *
agui_event_new_from_json (JsonNode   *node,
                          GPtrArray  *warnings,
                          GError    **error)
{
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;
  JsonObject *object;
  const char *name;
  AguiEventType type;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame is not a JSON object.");
      return NULL;
    }

  object = json_node_get_object (node);
  name = json_object_get_string_member_with_default (object, "type", NULL);
  if (name == NULL || name[0] == '\0' ||
      json_node_get_value_type (json_object_get_member (object, "type")) != G_TYPE_STRING)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame carries no event type.");
      return NULL;
    }

  if (!agui_event_type_from_string (name, &type))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
                   "Unknown event type '%s'", name);
      return NULL;
    }

  _agui_json_value_set_node (&tree, node);

  return new_checked (type, &tree, warnings, error);
}

/**
 * agui_event_new_from_string:
 * @json: the event as JSON text
 * @length: length of @json in bytes, or -1 if it is nul-terminated
 * @error: return location for a #GError
 *
 * Parses @json and makes an event of it as [ctor@Agui.Event.new_from_json]
 * does. Handy for tests and fixtures; a stream is better read with
 * [method@Agui.EventStream.read_sse], which also translates deprecated
 * shapes.
 *
 * Returns: (transfer full) (nullable): the event, or %NULL on error
 */
AguiEvent *
agui_event_new_from_string (const char  *json,
                            gssize       length,
                            GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (json != NULL, NULL);

  /* The one reader, with its limits: json-glib alone would wrap a large
   * integer, keep a lone surrogate as invalid UTF-8, and give an empty
   * text no root at all. */
  node = _agui_json_parse (json, length, &local_error);
  if (node == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                   "Invalid event: %s", local_error->message);
      return NULL;
    }

  return agui_event_new_from_json (node, NULL, error);
}

/* An event the store kept after it passed the pipeline: read by the event
 * reader as a stream's frame is, into the lean forms (flat, or the
 * compact tree), without the schema. */
AguiEvent *
_agui_event_new_from_stored (const char  *json,
                             gsize        length,
                             GError     **error)
{
  gssize text_length = length;
  AguiEventReader *reader;
  AguiFlatMember *members;
  const char *arena;
  const char *name = NULL;
  gsize arena_length;
  AguiEventType type;
  guint n;

  reader = _agui_json_prepare_text (&json, &text_length, error);
  if (reader == NULL)
    return NULL;

  switch (_agui_event_reader_read (reader, json, text_length, error))
    {
    case AGUI_READ_OK:
      break;
    case AGUI_READ_NOT_OBJECT:
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "the text is not a JSON object");
      return NULL;
    default:
      return NULL;
    }

  n = _agui_event_reader_get_members (reader, &members);
  arena = _agui_event_reader_get_arena (reader, &arena_length);
  for (guint i = 0; i < n && name == NULL; i++)
    {
      if (strcmp (arena + members[i].name, "type") == 0 && members[i].kind == AGUI_FLAT_STRING)
        name = arena + members[i].string;
    }

  if (name == NULL || !agui_event_type_from_string (name, &type))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
                   "its type is %s%s%s", name ? "'" : "not given", name ? name : "", name ? "'" : "");
      return NULL;
    }

  if (_agui_event_reader_is_flat (reader))
    return _agui_event_new_flat (type, members, n, arena, arena_length);

  {
    AguiJsonValue tree = AGUI_JSON_VALUE_INIT;

    _agui_event_reader_steal_tree (reader, &tree);
    return _agui_event_new_tree (type, &tree);
  }
}
