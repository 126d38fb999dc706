/* agui-a2ui-v08.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-a2ui-component-private.h"
#include "agui-a2ui-surface-private.h"
#include "agui-json-doc-access-private.h"

/* A2UI v0.8 messages normalized to the v0.9 shape the surface keeps:
 * components' {"Type": {...}} wrapping, bound values with literals,
 * explicit and template children, actions, and the data model's
 * adjacency lists of typed entries. */

void
_agui_a2ui_initializer_free (AguiA2uiInitializer *initializer)
{
  g_free (initializer->path);
  _agui_json_value_clear (&initializer->value);
  g_free (initializer);
}

static gboolean
is_bound_value (AguiJsonDocObject *object)
{
  static const char * const keys[] = {
    "path", "literalString", "literalNumber", "literalBoolean", "literalArray", NULL
  };
  guint n = 0;

  for (guint slot = 0; slot < _agui_json_object_get_n_slots (object); slot++)
    {
      const char *name = _agui_json_object_slot_name (object, slot);

      if (name == NULL)
        continue;
      if (!g_strv_contains (keys, name))
        return FALSE;
      n++;
    }

  return n > 0;
}

static void convert_v08 (const AguiJsonValue *value,
                         GPtrArray           *initializers,
                         guint                depth,
                         AguiJsonValue       *converted);

static void
convert_bound_v08 (const AguiJsonValue *object,
                   GPtrArray           *initializers,
                   AguiJsonValue       *converted)
{
  static const char * const literals[] = {
    "literalString", "literalNumber", "literalBoolean", "literalArray", NULL
  };
  const char *path = _agui_json_doc_get_string (object, "path");
  const AguiJsonValue *literal = NULL;

  for (guint i = 0; literals[i] != NULL && literal == NULL; i++)
    literal = _agui_json_doc_get_member (object, literals[i]);

  if (path == NULL)
    {
      if (literal != NULL)
        _agui_json_value_copy (converted, literal);
      else
        _agui_json_value_clear (converted);
      return;
    }

  /* v0.8's shorthand: a path with a literal initializes the data there. */
  if (literal != NULL)
    {
      AguiA2uiInitializer *initializer = g_new0 (AguiA2uiInitializer, 1);

      initializer->path = g_strdup (path);
      _agui_json_value_copy (&initializer->value, literal);
      g_ptr_array_add (initializers, initializer);
    }

  _agui_json_doc_set_string (_agui_json_value_set_object (converted, 1), "path", path);
}

static void
convert_v08 (const AguiJsonValue *value,
             GPtrArray           *initializers,
             guint                depth,
             AguiJsonValue       *converted)
{
  if (depth > MAX_TREE_DEPTH)
    {
      _agui_json_value_clear (converted);
      return;
    }

  if (value->kind == AGUI_JSON_DOC_OBJECT)
    {
      AguiJsonDocObject *object = value->u.object;
      AguiJsonDocObject *target;

      if (is_bound_value (object))
        {
          convert_bound_v08 (value, initializers, converted);
          return;
        }

      target = _agui_json_value_set_object (converted, _agui_json_object_get_size (object));
      for (guint slot = 0; slot < _agui_json_object_get_n_slots (object); slot++)
        {
          const char *name = _agui_json_object_slot_name (object, slot);
          AguiJsonValue member = AGUI_JSON_VALUE_INIT;

          if (name == NULL)
            continue;
          convert_v08 (_agui_json_object_slot_value (object, slot), initializers, depth + 1, &member);
          _agui_json_object_set (target, name, &member);
        }
      return;
    }

  if (value->kind == AGUI_JSON_DOC_ARRAY)
    {
      guint length = _agui_json_doc_get_length (value);
      AguiJsonDocArray *target = _agui_json_value_set_array (converted, length);

      for (guint i = 0; i < length; i++)
        {
          AguiJsonValue element = AGUI_JSON_VALUE_INIT;

          convert_v08 (_agui_json_doc_get_element (value, i), initializers, depth + 1, &element);
          _agui_json_array_insert (target, i, &element);
        }
      return;
    }

  _agui_json_value_copy (converted, value);
}

/* Removes the member @name of @object, if there. */
static void
remove_member (AguiJsonDocObject *object,
               const char        *name)
{
  g_auto(AguiJsonValue) removed = AGUI_JSON_VALUE_INIT;
  int slot = _agui_json_object_find (object, name);

  if (slot < 0)
    return;

  _agui_json_object_remove_slot (object, slot, &removed);
  _agui_json_object_compact (object);
}

/* As json-glib would: the member moves to the end under its new name. */
static void
rename_member (AguiJsonDocObject *object,
               const char        *from,
               const char        *to)
{
  AguiJsonValue member = AGUI_JSON_VALUE_INIT;
  int slot = _agui_json_object_find (object, from);

  if (slot < 0 || _agui_json_object_find (object, to) >= 0)
    return;

  _agui_json_object_remove_slot (object, slot, &member);
  _agui_json_object_append (object, to, &member);
  _agui_json_object_compact (object);
}

static void
convert_children_v08 (AguiJsonValue *properties)
{
  AguiJsonValue *children = _agui_json_doc_get_object (properties, "children");
  AguiJsonValue *list;
  AguiJsonValue *template;

  if (children == NULL)
    return;

  list = _agui_json_doc_get_member (children, "explicitList");
  template = _agui_json_doc_get_object (children, "template");

  if (list != NULL)
    {
      /* Copied before "children", which holds it, is replaced. */
      _agui_json_doc_set_copy (properties->u.object, "children", list);
    }
  else if (template != NULL)
    {
      g_auto(AguiJsonValue) converted = AGUI_JSON_VALUE_INIT;
      AguiJsonDocObject *object = _agui_json_value_set_object (&converted, 2);
      AguiJsonValue *id = _agui_json_doc_get_member (template, "componentId");
      AguiJsonValue *binding = _agui_json_doc_get_member (template, "dataBinding");

      if (id != NULL)
        _agui_json_doc_set_copy (object, "componentId", id);
      if (binding != NULL)
        _agui_json_doc_set_copy (object, "path", binding);
      _agui_json_object_set (properties->u.object, "children", &converted);
    }
}

static void
convert_action_v08 (AguiJsonValue *properties)
{
  AguiJsonValue *source = _agui_json_doc_get_object (properties, "action");
  g_auto(AguiJsonValue) converted = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *event;
  AguiJsonDocObject *context;
  AguiJsonValue *entries;
  AguiJsonValue *name;

  if (source == NULL)
    return;

  if (_agui_json_doc_get_member (source, "event") != NULL ||
      _agui_json_doc_get_member (source, "functionCall") != NULL)
    return;

  event = _agui_json_doc_set_object (_agui_json_value_set_object (&converted, 1), "event");
  if ((name = _agui_json_doc_get_member (source, "name")) != NULL)
    _agui_json_doc_set_copy (event, "name", name);
  context = _agui_json_doc_set_object (event, "context");

  entries = _agui_json_doc_get_array (source, "context");
  for (guint i = 0; i < _agui_json_doc_get_length (entries); i++)
    {
      AguiJsonValue *entry = _agui_json_doc_get_element (entries, i);
      const char *key = _agui_json_doc_get_string (entry, "key");
      AguiJsonValue *value = _agui_json_doc_get_member (entry, "value");

      if (key != NULL && value != NULL)
        _agui_json_doc_set_copy (context, key, value);
    }

  _agui_json_object_set (properties->u.object, "action", &converted);
}

/* The v0.8 properties @source of a component of type @type_name, into
 * @properties (an object), in the v0.9 shape; the literals of bound
 * values go into @initializers. */
void
_agui_a2ui_convert_properties_v08 (const char          *type_name,
                                   const AguiJsonValue *source,
                                   GPtrArray           *initializers,
                                   AguiJsonValue       *properties)
{
  AguiA2uiComponentKind kind = _agui_a2ui_component_kind_for_name (type_name);
  AguiJsonDocObject *object;
  AguiJsonValue *member;

  convert_v08 (source, initializers, 0, properties);
  if (properties->kind != AGUI_JSON_DOC_OBJECT)
    {
      _agui_json_value_set_object (properties, 0);
      return;
    }

  object = properties->u.object;
  convert_children_v08 (properties);
  convert_action_v08 (properties);

  switch (kind)
    {
    case AGUI_A2UI_COMPONENT_TEXT:
      rename_member (object, "usageHint", "variant");
      break;

    case AGUI_A2UI_COMPONENT_IMAGE:
      rename_member (object, "altText", "description");
      rename_member (object, "usageHint", "variant");
      if (g_strcmp0 (_agui_json_doc_get_string (properties, "fit"), "scale-down") == 0)
        _agui_json_doc_set_string (object, "fit", "scaleDown");
      break;

    case AGUI_A2UI_COMPONENT_ROW:
    case AGUI_A2UI_COMPONENT_COLUMN:
      rename_member (object, "distribution", "justify");
      rename_member (object, "alignment", "align");
      break;

    case AGUI_A2UI_COMPONENT_LIST:
      rename_member (object, "alignment", "align");
      break;

    case AGUI_A2UI_COMPONENT_TABS:
      rename_member (object, "tabItems", "tabs");
      break;

    case AGUI_A2UI_COMPONENT_MODAL:
      rename_member (object, "entryPointChild", "trigger");
      rename_member (object, "contentChild", "content");
      break;

    case AGUI_A2UI_COMPONENT_BUTTON:
      if ((member = _agui_json_doc_get_member (properties, "primary")) != NULL)
        {
          gboolean primary = member->kind == AGUI_JSON_DOC_BOOLEAN && member->u.boolean;

          remove_member (object, "primary");
          _agui_json_doc_set_string (object, "variant", primary ? "primary" : "default");
        }
      break;

    case AGUI_A2UI_COMPONENT_TEXT_FIELD:
      rename_member (object, "text", "value");
      rename_member (object, "textFieldType", "variant");
      break;

    case AGUI_A2UI_COMPONENT_CHOICE_PICKER:
      {
        gint64 max = 0;

        rename_member (object, "selections", "value");
        rename_member (object, "variant", "displayStyle");
        if (_agui_json_doc_get_int (properties, "maxAllowedSelections", &max) && max == 1)
          _agui_json_doc_set_string (object, "variant", "mutuallyExclusive");
        else
          _agui_json_doc_set_string (object, "variant", "multipleSelection");
      }
      break;

    case AGUI_A2UI_COMPONENT_SLIDER:
      rename_member (object, "minValue", "min");
      rename_member (object, "maxValue", "max");
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
}

/* v0.8 sends data as an adjacency list of typed entries, read into
 * @converted, an object. What it cannot read goes into @problems, for
 * the surface to report. */
void
_agui_a2ui_convert_contents_v08 (GPtrArray           *problems,
                                 const AguiJsonValue *contents,
                                 guint                depth,
                                 AguiJsonValue       *converted)
{
  static const char * const scalars[] = {
    "valueString", "valueNumber", "valueBoolean", "valueArray", NULL
  };
  AguiJsonDocObject *object;

  if (depth > MAX_TREE_DEPTH)
    {
      g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate nests deeper than %u levels: the rest is ignored", MAX_TREE_DEPTH));
      _agui_json_value_set_object (converted, 0);
      return;
    }

  if (contents == NULL || contents->kind != AGUI_JSON_DOC_ARRAY)
    {
      /* The specification's own example sends "contents": {}. */
      if (contents != NULL && contents->kind == AGUI_JSON_DOC_OBJECT)
        _agui_json_value_copy (converted, contents);
      else
        _agui_json_value_set_object (converted, 0);
      return;
    }

  object = _agui_json_value_set_object (converted, 0);
  for (guint i = 0; i < _agui_json_doc_get_length (contents); i++)
    {
      AguiJsonValue *entry = _agui_json_doc_get_element (contents, i);
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;
      AguiJsonValue *member;
      gboolean found = FALSE;
      const char *key;

      if (entry->kind != AGUI_JSON_DOC_OBJECT)
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry %u is not an object", i));
          continue;
        }
      key = _agui_json_doc_get_string (entry, "key");
      if (key == NULL)
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry %u has no key", i));
          continue;
        }

      if ((member = _agui_json_doc_get_member (entry, "valueMap")) != NULL)
        {
          _agui_a2ui_convert_contents_v08 (problems, member, depth + 1, &value);
          found = TRUE;
        }
      for (guint j = 0; scalars[j] != NULL && !found; j++)
        if ((member = _agui_json_doc_get_member (entry, scalars[j])) != NULL)
          {
            _agui_json_value_copy (&value, member);
            found = TRUE;
          }

      if (!found)
        {
          g_ptr_array_add (problems, g_strdup_printf ("dataModelUpdate: entry '%s' has no value", key));
          continue;
        }
      _agui_json_object_set (object, key, &value);
    }
}
