/* agui-a2ui-component.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-a2ui-component-private.h"
#include "agui-json-doc-access-private.h"

/**
 * AguiA2uiComponent:
 *
 * One component of an A2UI surface, as the agent defined it: its id, its
 * type from the standard catalog and its properties. The properties are
 * kept in the v0.9 shape whichever version the agent spoke: a bound value
 * is a literal JSON value or an object `{"path": "/pointer"}`, containers
 * name their `children` as an array of ids or a template
 * `{"componentId": "...", "path": "/list"}`. Values are resolved against
 * the data model by [method@Agui.A2uiSurface.resolve], never here.
 */
struct _AguiA2uiComponent
{
  GObject                parent_instance;
  char                  *id;
  char                  *type_name;
  AguiA2uiComponentKind  kind;
  /* an object; never changes once made */
  AguiJsonValue          properties;
  /* its json-glib copy, for the public getters: built when first asked
   * for and kept as long as the component, which is as long as the
   * properties live */
  JsonNode              *properties_node;
};

G_DEFINE_FINAL_TYPE (AguiA2uiComponent, agui_a2ui_component, G_TYPE_OBJECT)

static const struct
{
  const char            *name;
  AguiA2uiComponentKind  kind;
} kinds[] = {
  { "Text", AGUI_A2UI_COMPONENT_TEXT },
  { "Image", AGUI_A2UI_COMPONENT_IMAGE },
  { "Icon", AGUI_A2UI_COMPONENT_ICON },
  { "Divider", AGUI_A2UI_COMPONENT_DIVIDER },
  { "Row", AGUI_A2UI_COMPONENT_ROW },
  { "Column", AGUI_A2UI_COMPONENT_COLUMN },
  { "List", AGUI_A2UI_COMPONENT_LIST },
  { "Card", AGUI_A2UI_COMPONENT_CARD },
  { "Tabs", AGUI_A2UI_COMPONENT_TABS },
  { "Modal", AGUI_A2UI_COMPONENT_MODAL },
  { "Button", AGUI_A2UI_COMPONENT_BUTTON },
  { "TextField", AGUI_A2UI_COMPONENT_TEXT_FIELD },
  { "CheckBox", AGUI_A2UI_COMPONENT_CHECK_BOX },
  { "DateTimeInput", AGUI_A2UI_COMPONENT_DATE_TIME_INPUT },
  { "MultipleChoice", AGUI_A2UI_COMPONENT_CHOICE_PICKER },   /* v0.8 */
  { "ChoicePicker", AGUI_A2UI_COMPONENT_CHOICE_PICKER },     /* v0.9 */
  { "Slider", AGUI_A2UI_COMPONENT_SLIDER },
};

static void
agui_a2ui_component_finalize (GObject *object)
{
  AguiA2uiComponent *self = AGUI_A2UI_COMPONENT (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->type_name, g_free);
  _agui_json_value_clear (&self->properties);
  g_clear_pointer (&self->properties_node, json_node_unref);

  G_OBJECT_CLASS (agui_a2ui_component_parent_class)->finalize (object);
}

static void
agui_a2ui_component_class_init (AguiA2uiComponentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_a2ui_component_finalize;
}

static void
agui_a2ui_component_init (AguiA2uiComponent *self)
{
}

AguiA2uiComponentKind
_agui_a2ui_component_kind_for_name (const char *type_name)
{
  for (guint i = 0; type_name != NULL && i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (kinds[i].name, type_name))
      return kinds[i].kind;

  return AGUI_A2UI_COMPONENT_UNKNOWN;
}

/* Takes @properties, an object, leaving it null. */
AguiA2uiComponent *
_agui_a2ui_component_new (const char    *id,
                          const char    *type_name,
                          AguiJsonValue *properties)
{
  AguiA2uiComponent *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (type_name != NULL, NULL);
  g_return_val_if_fail (properties != NULL && properties->kind == AGUI_JSON_DOC_OBJECT, NULL);

  self = g_object_new (AGUI_TYPE_A2UI_COMPONENT, NULL);
  self->id = g_strdup (id);
  self->type_name = g_strdup (type_name);
  self->kind = _agui_a2ui_component_kind_for_name (type_name);
  _agui_json_value_move (&self->properties, properties);

  return self;
}

const AguiJsonValue *
_agui_a2ui_component_get_tree (AguiA2uiComponent *self)
{
  return &self->properties;
}

gboolean
_agui_a2ui_component_equal (AguiA2uiComponent *a,
                            AguiA2uiComponent *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (g_strcmp0 (a->id, b->id) != 0 || g_strcmp0 (a->type_name, b->type_name) != 0)
    return FALSE;

  return _agui_json_value_equal (&a->properties, &b->properties);
}

/**
 * agui_a2ui_component_get_id:
 * @self: a component
 *
 * Returns: the id other components refer to it by
 */
const char *
agui_a2ui_component_get_id (AguiA2uiComponent *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);

  return self->id;
}

/**
 * agui_a2ui_component_get_type_name:
 * @self: a component
 *
 * Returns: the catalog type the agent named, such as "Text", also when
 *   this client does not know it
 */
const char *
agui_a2ui_component_get_type_name (AguiA2uiComponent *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);

  return self->type_name;
}

/**
 * agui_a2ui_component_get_kind:
 * @self: a component
 *
 * Returns: the standard catalog type, or %AGUI_A2UI_COMPONENT_UNKNOWN
 */
AguiA2uiComponentKind
agui_a2ui_component_get_kind (AguiA2uiComponent *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), AGUI_A2UI_COMPONENT_UNKNOWN);

  return self->kind;
}

/**
 * agui_a2ui_component_get_properties:
 * @self: a component
 *
 * The properties as a json-glib object, sealed: the component keeps them
 * in a form of its own and builds this copy when first asked. It is the
 * component's, as long as the component lives; a component never
 * changes, the surface replaces it.
 *
 * Returns: (transfer none): the properties in the v0.9 shape
 */
JsonObject *
agui_a2ui_component_get_properties (AguiA2uiComponent *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);

  if (self->properties_node == NULL)
    {
      self->properties_node = _agui_json_value_to_node (&self->properties);
      json_node_seal (self->properties_node);
    }

  return json_node_get_object (self->properties_node);
}

/**
 * agui_a2ui_component_get_property:
 * @self: a component
 * @name: a property name in the v0.9 shape, such as "text"
 *
 * Returns: (transfer none) (nullable): the property, unresolved, from
 *   [method@Agui.A2uiComponent.get_properties] and as long-lived
 */
JsonNode *
agui_a2ui_component_get_property (AguiA2uiComponent *self,
                                  const char        *name)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return json_object_get_member (agui_a2ui_component_get_properties (self), name);
}

/**
 * agui_a2ui_component_get_string:
 * @self: a component
 * @name: a property that is a plain string, such as "variant"
 *
 * Returns: (nullable): the string, or %NULL when the property is absent
 *   or not a string
 */
const char *
agui_a2ui_component_get_string (AguiA2uiComponent *self,
                                const char        *name)
{
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return _agui_json_doc_get_string (&self->properties, name);
}

/**
 * agui_a2ui_component_get_boolean:
 * @self: a component
 * @name: a property that is a plain boolean, such as "enableDate"
 * @default_value: what an absent or mistyped property means
 *
 * Returns: the boolean
 */
gboolean
agui_a2ui_component_get_boolean (AguiA2uiComponent *self,
                                 const char        *name,
                                 gboolean           default_value)
{
  AguiJsonValue *value;

  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), default_value);
  g_return_val_if_fail (name != NULL, default_value);

  value = _agui_json_doc_get_member (&self->properties, name);
  if (value == NULL || value->kind != AGUI_JSON_DOC_BOOLEAN)
    return default_value;

  return value->u.boolean;
}

/**
 * agui_a2ui_component_get_number:
 * @self: a component
 * @name: a property that is a plain number, such as "min"
 * @default_value: what an absent or mistyped property means
 *
 * Returns: the number
 */
double
agui_a2ui_component_get_number (AguiA2uiComponent *self,
                                const char        *name,
                                double             default_value)
{
  AguiJsonValue *value;

  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), default_value);
  g_return_val_if_fail (name != NULL, default_value);

  value = _agui_json_doc_get_member (&self->properties, name);
  if (value == NULL)
    return default_value;
  if (value->kind == AGUI_JSON_DOC_DOUBLE)
    return value->u.number;
  if (value->kind == AGUI_JSON_DOC_INT)
    return (double) value->u.integer;

  return default_value;
}

/**
 * agui_a2ui_component_get_template:
 * @self: a container component
 * @path: (out) (optional) (transfer none): the data model path it repeats over
 *
 * Returns: (nullable): the id of the component drawn once per item of the
 *   list at @path, or %NULL when the children are an explicit list
 */
const char *
agui_a2ui_component_get_template (AguiA2uiComponent  *self,
                                  const char        **path)
{
  AguiJsonValue *template;

  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);

  if (path != NULL)
    *path = NULL;

  template = _agui_json_doc_get_object (&self->properties, "children");
  if (template == NULL)
    return NULL;

  if (path != NULL)
    *path = _agui_json_doc_get_string (template, "path");

  return _agui_json_doc_get_string (template, "componentId");
}

static void
add_id (GPtrArray           *ids,
        const AguiJsonValue *value)
{
  if (value != NULL && _agui_json_value_is_string (value))
    g_ptr_array_add (ids, g_strdup (_agui_json_value_get_string (value)));
}

/**
 * agui_a2ui_component_dup_child_ids:
 * @self: a component
 *
 * The ids this component names directly, in order: its `children` list,
 * its `child`, a modal's `trigger` and `content`, each tab's `child`. A
 * template's component is not among them.
 *
 * Returns: (transfer full): the child ids, possibly none
 */
char **
agui_a2ui_component_dup_child_ids (AguiA2uiComponent *self)
{
  GPtrArray *ids;
  AguiJsonValue *list;

  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (self), NULL);

  ids = g_ptr_array_new ();

  /* _agui_json_doc_get_array () is NULL for anything but a list. */
  list = _agui_json_doc_get_array (&self->properties, "children");
  for (guint i = 0; i < _agui_json_doc_get_length (list); i++)
    add_id (ids, _agui_json_doc_get_element (list, i));

  add_id (ids, _agui_json_doc_get_member (&self->properties, "child"));
  add_id (ids, _agui_json_doc_get_member (&self->properties, "trigger"));
  add_id (ids, _agui_json_doc_get_member (&self->properties, "content"));

  list = _agui_json_doc_get_array (&self->properties, "tabs");
  for (guint i = 0; i < _agui_json_doc_get_length (list); i++)
    add_id (ids, _agui_json_doc_get_member (_agui_json_doc_get_element (list, i), "child"));

  g_ptr_array_add (ids, NULL);

  return (char **) g_ptr_array_free (ids, FALSE);
}
