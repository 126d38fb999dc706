/* agui-a2ui-v08.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-a2ui-component-private.h"
#include "agui-a2ui-surface-private.h"
#include "agui-json-private.h"

/* A2UI v0.8 messages normalized to the v0.9 shape the surface keeps:
 * components' {"Type": {...}} wrapping, bound values with literals,
 * explicit and template children, actions, and the data model's
 * adjacency lists of typed entries. */

void
_agui_a2ui_initializer_free (AguiA2uiInitializer *initializer)
{
  g_free (initializer->path);
  json_node_unref (initializer->value);
  g_free (initializer);
}

static gboolean
is_bound_value (JsonObject *object)
{
  static const char * const keys[] = {
    "path", "literalString", "literalNumber", "literalBoolean", "literalArray", NULL
  };
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  guint n = 0;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    {
      if (!g_strv_contains (keys, name))
        return FALSE;
      n++;
    }

  return n > 0;
}

static JsonNode *convert_v08 (JsonNode  *node,
                              GPtrArray *initializers,
                              guint      depth);

static JsonNode *
convert_bound_v08 (JsonObject *object,
                   GPtrArray  *initializers)
{
  static const char * const literals[] = {
    "literalString", "literalNumber", "literalBoolean", "literalArray", NULL
  };
  const char *path = _agui_a2ui_string_member (object, "path", NULL);
  JsonNode *literal = NULL;

  for (guint i = 0; literals[i] != NULL && literal == NULL; i++)
    literal = json_object_get_member (object, literals[i]);

  if (path == NULL)
    return literal ? _agui_json_node_copy_deep (literal) : json_node_new (JSON_NODE_NULL);

  /* v0.8's shorthand: a path with a literal initializes the data there. */
  if (literal != NULL)
    {
      AguiA2uiInitializer *initializer = g_new0 (AguiA2uiInitializer, 1);

      initializer->path = g_strdup (path);
      initializer->value = _agui_json_node_copy_deep (literal);
      g_ptr_array_add (initializers, initializer);
    }

  {
    JsonObject *bound = json_object_new ();

    json_object_set_string_member (bound, "path", path);
    return _agui_json_node_new_object (bound);
  }
}

static JsonNode *
convert_v08 (JsonNode  *node,
             GPtrArray *initializers,
             guint      depth)
{
  if (depth > MAX_TREE_DEPTH)
    return json_node_new (JSON_NODE_NULL);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonObject *converted;
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      if (is_bound_value (object))
        return convert_bound_v08 (object, initializers);

      converted = json_object_new ();
      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &member))
        json_object_set_member (converted, name, convert_v08 (member, initializers, depth + 1));

      return _agui_json_node_new_object (converted);
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      JsonArray *converted = json_array_sized_new (json_array_get_length (array));

      for (guint i = 0; i < json_array_get_length (array); i++)
        json_array_add_element (converted, convert_v08 (json_array_get_element (array, i), initializers, depth + 1));

      return _agui_json_node_new_array (converted);
    }

  return _agui_json_node_copy_deep (node);
}

static void
rename_member (JsonObject *object,
               const char *from,
               const char *to)
{
  JsonNode *member = json_object_get_member (object, from);

  if (member == NULL || json_object_has_member (object, to))
    return;

  json_object_set_member (object, to, json_node_ref (member));
  json_object_remove_member (object, from);
}

static void
convert_children_v08 (JsonObject *properties)
{
  JsonNode *children = json_object_get_member (properties, "children");
  JsonObject *object;
  JsonNode *list;
  JsonNode *template;

  if (children == NULL || !JSON_NODE_HOLDS_OBJECT (children))
    return;

  object = json_node_get_object (children);
  list = json_object_get_member (object, "explicitList");
  template = json_object_get_member (object, "template");

  if (list != NULL)
    {
      json_object_set_member (properties, "children", json_node_ref (list));
    }
  else if (template != NULL && JSON_NODE_HOLDS_OBJECT (template))
    {
      JsonObject *source = json_node_get_object (template);
      JsonObject *converted = json_object_new ();
      JsonNode *id = json_object_get_member (source, "componentId");
      JsonNode *binding = json_object_get_member (source, "dataBinding");

      if (id != NULL)
        json_object_set_member (converted, "componentId", json_node_ref (id));
      if (binding != NULL)
        json_object_set_member (converted, "path", json_node_ref (binding));
      json_object_set_member (properties, "children", _agui_json_node_new_object (converted));
    }
}

static void
convert_action_v08 (JsonObject *properties)
{
  JsonNode *action = json_object_get_member (properties, "action");
  JsonObject *source;
  JsonObject *event;
  JsonObject *context;
  JsonObject *converted;
  JsonNode *entries;

  if (action == NULL || !JSON_NODE_HOLDS_OBJECT (action))
    return;

  source = json_node_get_object (action);
  if (json_object_has_member (source, "event") || json_object_has_member (source, "functionCall"))
    return;

  event = json_object_new ();
  context = json_object_new ();
  if (json_object_has_member (source, "name"))
    json_object_set_member (event, "name", json_node_ref (json_object_get_member (source, "name")));

  entries = json_object_get_member (source, "context");
  if (entries != NULL && JSON_NODE_HOLDS_ARRAY (entries))
    {
      JsonArray *array = json_node_get_array (entries);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          JsonObject *pair;
          const char *key;
          JsonNode *value;

          if (!JSON_NODE_HOLDS_OBJECT (entry))
            continue;
          pair = json_node_get_object (entry);
          key = _agui_a2ui_string_member (pair, "key", NULL);
          value = json_object_get_member (pair, "value");
          if (key != NULL && value != NULL)
            json_object_set_member (context, key, json_node_ref (value));
        }
    }
  json_object_set_object_member (event, "context", context);

  converted = json_object_new ();
  json_object_set_object_member (converted, "event", event);
  json_object_set_member (properties, "action", _agui_json_node_new_object (converted));
}

JsonObject *
_agui_a2ui_convert_properties_v08 (const char *type_name,
                                   JsonNode   *source,
                                   GPtrArray  *initializers)
{
  g_autoptr(JsonNode) converted = convert_v08 (source, initializers, 0);
  JsonObject *properties;
  AguiA2uiComponentKind kind = _agui_a2ui_component_kind_for_name (type_name);

  if (!JSON_NODE_HOLDS_OBJECT (converted))
    return json_object_new ();

  properties = json_object_ref (json_node_get_object (converted));
  convert_children_v08 (properties);
  convert_action_v08 (properties);

  switch (kind)
    {
    case AGUI_A2UI_COMPONENT_TEXT:
      rename_member (properties, "usageHint", "variant");
      break;

    case AGUI_A2UI_COMPONENT_IMAGE:
      rename_member (properties, "altText", "description");
      rename_member (properties, "usageHint", "variant");
      if (g_strcmp0 (_agui_a2ui_string_member (properties, "fit", NULL), "scale-down") == 0)
        json_object_set_string_member (properties, "fit", "scaleDown");
      break;

    case AGUI_A2UI_COMPONENT_ROW:
    case AGUI_A2UI_COMPONENT_COLUMN:
      rename_member (properties, "distribution", "justify");
      rename_member (properties, "alignment", "align");
      break;

    case AGUI_A2UI_COMPONENT_LIST:
      rename_member (properties, "alignment", "align");
      break;

    case AGUI_A2UI_COMPONENT_TABS:
      rename_member (properties, "tabItems", "tabs");
      break;

    case AGUI_A2UI_COMPONENT_MODAL:
      rename_member (properties, "entryPointChild", "trigger");
      rename_member (properties, "contentChild", "content");
      break;

    case AGUI_A2UI_COMPONENT_BUTTON:
      if (json_object_has_member (properties, "primary"))
        {
          JsonNode *node = json_object_get_member (properties, "primary");
          gboolean primary = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
                             json_node_get_boolean (node);

          json_object_remove_member (properties, "primary");
          json_object_set_string_member (properties, "variant", primary ? "primary" : "default");
        }
      break;

    case AGUI_A2UI_COMPONENT_TEXT_FIELD:
      rename_member (properties, "text", "value");
      rename_member (properties, "textFieldType", "variant");
      break;

    case AGUI_A2UI_COMPONENT_CHOICE_PICKER:
      rename_member (properties, "selections", "value");
      rename_member (properties, "variant", "displayStyle");
      if (json_object_has_member (properties, "maxAllowedSelections") &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (properties, "maxAllowedSelections")) &&
          json_node_get_value_type (json_object_get_member (properties, "maxAllowedSelections")) == G_TYPE_INT64 &&
          json_node_get_int (json_object_get_member (properties, "maxAllowedSelections")) == 1)
        json_object_set_string_member (properties, "variant", "mutuallyExclusive");
      else
        json_object_set_string_member (properties, "variant", "multipleSelection");
      break;

    case AGUI_A2UI_COMPONENT_SLIDER:
      rename_member (properties, "minValue", "min");
      rename_member (properties, "maxValue", "max");
      break;

    case AGUI_A2UI_COMPONENT_UNKNOWN:
    case AGUI_A2UI_COMPONENT_ICON:
    case AGUI_A2UI_COMPONENT_DIVIDER:
    case AGUI_A2UI_COMPONENT_CARD:
    case AGUI_A2UI_COMPONENT_CHECK_BOX:
    case AGUI_A2UI_COMPONENT_DATE_TIME_INPUT:
    default:
      break;
    }

  return properties;
}

/* v0.8 sends data as an adjacency list of typed entries. What it cannot
 * read goes into @problems, for the surface to report. */
JsonNode *
_agui_a2ui_convert_contents_v08 (GPtrArray *problems,
                                 JsonNode  *contents,
                                 guint      depth)
{
  JsonObject *object = json_object_new ();
  JsonArray *entries;

  if (depth > MAX_TREE_DEPTH)
    {
      g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate nests deeper than %u levels: the rest is ignored", MAX_TREE_DEPTH));
      return _agui_json_node_new_object (object);
    }

  if (contents == NULL || !JSON_NODE_HOLDS_ARRAY (contents))
    {
      /* The specification's own example sends "contents": {}. */
      if (contents != NULL && JSON_NODE_HOLDS_OBJECT (contents))
        {
          json_object_unref (object);
          return _agui_json_node_copy_deep (contents);
        }
      return _agui_json_node_new_object (object);
    }

  entries = json_node_get_array (contents);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *entry = json_array_get_element (entries, i);
      JsonObject *pair;
      const char *key;
      JsonNode *value = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (entry))
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry %u is not an object", i));
          continue;
        }
      pair = json_node_get_object (entry);
      key = _agui_a2ui_string_member (pair, "key", NULL);
      if (key == NULL)
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry %u has no key", i));
          continue;
        }

      if (json_object_has_member (pair, "valueMap"))
        value = _agui_a2ui_convert_contents_v08 (problems, json_object_get_member (pair, "valueMap"), depth + 1);
      else if (json_object_has_member (pair, "valueString"))
        value = _agui_json_node_copy_deep (json_object_get_member (pair, "valueString"));
      else if (json_object_has_member (pair, "valueNumber"))
        value = _agui_json_node_copy_deep (json_object_get_member (pair, "valueNumber"));
      else if (json_object_has_member (pair, "valueBoolean"))
        value = _agui_json_node_copy_deep (json_object_get_member (pair, "valueBoolean"));
      else if (json_object_has_member (pair, "valueArray"))
        value = _agui_json_node_copy_deep (json_object_get_member (pair, "valueArray"));

      if (value == NULL)
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry '%s' has no value", key));
          continue;
        }
      json_object_set_member (object, key, value);
    }

  return _agui_json_node_new_object (object);
}
