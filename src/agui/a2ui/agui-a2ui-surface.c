/* agui-a2ui-surface.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-a2ui-component-private.h"
#include "agui-a2ui-surface-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-types.h"
#include "agui-util-private.h"

/**
 * AguiA2uiSurface:
 *
 * The model of one A2UI surface, a user interface an agent sends as an
 * `a2ui-surface` activity. Feed it the activity's content each time it
 * changes with [method@Agui.A2uiSurface.apply_content]; it keeps the
 * components by id and the data model they bind to, in one shape whether
 * the agent spoke A2UI v0.8 (`surfaceUpdate`, `dataModelUpdate`,
 * `beginRendering`, `deleteSurface`) or v0.9 (`createSurface`,
 * `updateComponents`, `updateDataModel`, `deleteSurface`).
 *
 * Nothing is ready to draw before `beginRendering` (v0.8) or
 * `createSurface` (v0.9): until then components and data are buffered.
 * An activity delta that appends operations applies only the new ones;
 * ::structure-changed is emitted only when a component, the root or the
 * readiness changed, ::data-changed when only the data model did, so a
 * view updates its bound properties instead of rebuilding.
 *
 * A surface never refuses a whole update for one bad part: an unknown
 * component type, a child id that names nothing, a cycle or a bad path
 * is listed in [method@Agui.A2uiSurface.get_errors] and the rest is kept.
 */

/* A template repeats at most this many times. */
#define MAX_TEMPLATE_ITEMS 500
#define MAX_ERRORS 50

struct _AguiA2uiSurface
{
  GObject     parent_instance;
  char       *surface_id;
  char       *root_id;
  char       *status;
  GHashTable *components;
  JsonNode   *data;
  /* the operations applied so far, to tell the new ones from them; null
   * before any */
  AguiJsonValue applied;
  GPtrArray  *operation_errors;
  GPtrArray  *errors;
  guint       ready : 1;
  guint       deleted : 1;
};

G_DEFINE_FINAL_TYPE (AguiA2uiSurface, agui_a2ui_surface, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SURFACE_ID,
  PROP_ROOT_ID,
  PROP_STATUS,
  PROP_READY,
  PROP_DELETED,
  PROP_ERRORS,
  N_PROPS
};

static GParamSpec *pspecs[N_PROPS];

enum {
  STRUCTURE_CHANGED,
  DATA_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Errors */

void
_agui_a2ui_surface_operation_error (AguiA2uiSurface *self,
                                    const char      *format,
                                    ...)
{
  va_list args;

  if (self->operation_errors->len >= MAX_ERRORS)
    return;

  va_start (args, format);
  g_ptr_array_add (self->operation_errors, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Applying operations */

static void
store_component (AguiA2uiSurface *self,
                 JsonNode        *item,
                 guint            index)
{
  g_autoptr(GPtrArray) initializers = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_a2ui_initializer_free);
  g_autoptr(JsonObject) properties = NULL;
  JsonObject *object;
  JsonNode *component;
  const char *id;
  const char *type_name = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (item))
    {
      _agui_a2ui_surface_operation_error (self, "Component %u is not an object", index);
      return;
    }

  object = json_node_get_object (item);
  id = _agui_a2ui_string_member (object, "id", NULL);
  if (id == NULL || id[0] == '\0')
    {
      _agui_a2ui_surface_operation_error (self, "Component %u has no id", index);
      return;
    }

  component = json_object_get_member (object, "component");
  if (component != NULL && JSON_NODE_HOLDS_VALUE (component) &&
      json_node_get_value_type (component) == G_TYPE_STRING)
    {
      /* v0.9: {"id", "component": "Text", ...properties} */
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      type_name = json_node_get_string (component);
      properties = json_object_new ();
      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &member))
        if (!g_str_equal (name, "id") && !g_str_equal (name, "component"))
          json_object_set_member (properties, name, _agui_json_node_copy_deep (member));
    }
  else if (component != NULL && JSON_NODE_HOLDS_OBJECT (component) &&
           json_object_get_size (json_node_get_object (component)) == 1)
    {
      /* v0.8: {"id", "component": {"Text": {...properties}}} */
      g_autoptr(GList) names = json_object_get_members (json_node_get_object (component));

      type_name = names->data;
      properties = _agui_a2ui_convert_properties_v08 (type_name,
                                           json_object_get_member (json_node_get_object (component), type_name),
                                           initializers);
    }
  else
    {
      _agui_a2ui_surface_operation_error (self, "Component '%s' does not say which type it is", id);
      return;
    }

  for (guint i = 0; i < initializers->len; i++)
    {
      AguiA2uiInitializer *initializer = g_ptr_array_index (initializers, i);
      g_autofree char *path = _agui_a2ui_absolute_path (NULL, initializer->path);
      g_autoptr(GError) error = NULL;

      if (!_agui_a2ui_pointer_store (&self->data, path, json_node_ref (initializer->value), &error))
        _agui_a2ui_surface_operation_error (self, "Component '%s': %s", id, error->message);
    }

  json_object_seal (properties);
  g_hash_table_replace (self->components, g_strdup (id), _agui_a2ui_component_new (id, type_name, properties));
}

static void
apply_components (AguiA2uiSurface *self,
                  JsonObject      *body)
{
  JsonNode *components = json_object_get_member (body, "components");
  JsonArray *array;

  if (components == NULL || !JSON_NODE_HOLDS_ARRAY (components))
    {
      _agui_a2ui_surface_operation_error (self, "A component update has no list of components");
      return;
    }

  array = json_node_get_array (components);
  for (guint i = 0; i < json_array_get_length (array); i++)
    store_component (self, json_array_get_element (array, i), i);
}

static void
apply_data_v08 (AguiA2uiSurface *self,
                JsonObject      *body)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) contents = _agui_a2ui_convert_contents_v08 (problems, json_object_get_member (body, "contents"), 0);
  g_autofree char *path = _agui_a2ui_absolute_path (NULL, _agui_a2ui_string_member (body, "path", "/"));
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  for (guint i = 0; i < problems->len; i++)
    _agui_a2ui_surface_operation_error (self, "%s", (const char *) g_ptr_array_index (problems, i));

  json_object_iter_init (&iter, json_node_get_object (contents));
  while (json_object_iter_next (&iter, &key, &value))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *target = NULL;

      /* An entry keyed "." is the value at the path itself. */
      if (g_str_equal (key, "."))
        target = g_strdup (path);
      else
        {
          g_autofree char *escaped = NULL;
          g_auto(GStrv) parts = g_strsplit (key, "~", -1);
          g_autofree char *tilde = g_strjoinv ("~0", parts);
          g_auto(GStrv) slashes = g_strsplit (tilde, "/", -1);

          escaped = g_strjoinv ("~1", slashes);
          target = g_str_equal (path, "/") ? g_strconcat ("/", escaped, NULL)
                                          : g_strconcat (path, "/", escaped, NULL);
        }

      if (!_agui_a2ui_pointer_store (&self->data, target, _agui_json_node_copy_deep (value), &error))
        _agui_a2ui_surface_operation_error (self, "dataModelUpdate: %s", error->message);
    }
}

static void
apply_data_v09 (AguiA2uiSurface *self,
                JsonObject      *body)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = _agui_a2ui_absolute_path (NULL, _agui_a2ui_string_member (body, "path", "/"));
  JsonNode *value = json_object_get_member (body, "value");

  if (!_agui_a2ui_pointer_store (&self->data, path, value ? _agui_json_node_copy_deep (value) : NULL, &error))
    _agui_a2ui_surface_operation_error (self, "updateDataModel: %s", error->message);
}

static void
apply_operation (AguiA2uiSurface *self,
                 JsonNode        *operation,
                 guint            index)
{
  static const char * const kinds[] = {
    "surfaceUpdate", "updateComponents", "dataModelUpdate", "updateDataModel",
    "beginRendering", "createSurface", "deleteSurface", NULL
  };
  JsonObject *object;
  JsonObject *body = NULL;
  const char *kind = NULL;
  const char *surface_id;

  if (!JSON_NODE_HOLDS_OBJECT (operation))
    {
      _agui_a2ui_surface_operation_error (self, "Operation %u is not an object", index);
      return;
    }

  object = json_node_get_object (operation);
  for (guint i = 0; kinds[i] != NULL && kind == NULL; i++)
    {
      JsonNode *member = json_object_get_member (object, kinds[i]);

      if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
        {
          kind = kinds[i];
          body = json_node_get_object (member);
        }
    }

  if (kind == NULL)
    {
      g_autoptr(GList) names = json_object_get_members (object);
      GList *name = names;

      /* "version" is v0.9's envelope, not an operation. */
      while (name != NULL && g_str_equal (name->data, "version"))
        name = name->next;
      _agui_a2ui_surface_operation_error (self, "Operation %u is not one this client knows ('%s')",
                       index, name ? (const char *) name->data : "empty");
      return;
    }

  surface_id = _agui_a2ui_string_member (body, "surfaceId", NULL);
  if (surface_id != NULL)
    {
      if (self->surface_id == NULL)
        {
          self->surface_id = g_strdup (surface_id);
        }
      else if (!g_str_equal (self->surface_id, surface_id))
        {
          _agui_a2ui_surface_operation_error (self, "%s for surface '%s' ignored: this is surface '%s'",
                           kind, surface_id, self->surface_id);
          return;
        }
    }

  if (g_str_equal (kind, "surfaceUpdate") || g_str_equal (kind, "updateComponents"))
    {
      apply_components (self, body);
    }
  else if (g_str_equal (kind, "dataModelUpdate"))
    {
      apply_data_v08 (self, body);
    }
  else if (g_str_equal (kind, "updateDataModel"))
    {
      apply_data_v09 (self, body);
    }
  else if (g_str_equal (kind, "beginRendering"))
    {
      const char *root = _agui_a2ui_string_member (body, "root", NULL);

      if (root == NULL)
        {
          _agui_a2ui_surface_operation_error (self, "beginRendering names no root component");
          return;
        }
      g_free (self->root_id);
      self->root_id = g_strdup (root);
      self->ready = TRUE;
      self->deleted = FALSE;
    }
  else if (g_str_equal (kind, "createSurface"))
    {
      /* v0.9 has no beginRendering: the root is the component "root". */
      g_free (self->root_id);
      self->root_id = g_strdup ("root");
      self->ready = TRUE;
      self->deleted = FALSE;
    }
  else if (g_str_equal (kind, "deleteSurface"))
    {
      g_hash_table_remove_all (self->components);
      json_node_unref (self->data);
      self->data = _agui_json_node_new_object (json_object_new ());
      self->ready = FALSE;
      self->deleted = TRUE;
    }
}

/* Checking the tree */

static void
tree_error (AguiA2uiSurface *self,
            GHashTable      *seen,
            char            *message)
{
  if (self->errors->len < MAX_ERRORS && g_hash_table_add (seen, message))
    g_ptr_array_add (self->errors, g_strdup (message));
}

static void
check_component (AguiA2uiSurface *self,
                 const char      *id,
                 const char      *parent,
                 GHashTable      *path,
                 GHashTable      *checked,
                 GHashTable      *seen,
                 guint            depth)
{
  AguiA2uiComponent *component;
  g_auto(GStrv) children = NULL;
  const char *template;

  if (g_hash_table_contains (path, id))
    {
      tree_error (self, seen, g_strdup_printf ("Component '%s' contains itself (through '%s'): it is drawn once",
                                               id, parent));
      return;
    }

  component = g_hash_table_lookup (self->components, id);
  if (component == NULL)
    {
      if (parent != NULL)
        tree_error (self, seen, g_strdup_printf ("Component '%s' names a child '%s' that does not exist", parent, id));
      else
        tree_error (self, seen, g_strdup_printf ("The root component '%s' does not exist", id));
      return;
    }

  if (depth >= MAX_TREE_DEPTH)
    {
      tree_error (self, seen, g_strdup_printf ("Component '%s' is nested deeper than %u levels", id, MAX_TREE_DEPTH));
      return;
    }

  if (!g_hash_table_add (checked, (gpointer) id))
    return;

  if (agui_a2ui_component_get_kind (component) == AGUI_A2UI_COMPONENT_UNKNOWN)
    tree_error (self, seen, g_strdup_printf ("Component '%s' has the unknown type '%s'",
                                             id, agui_a2ui_component_get_type_name (component)));

  g_hash_table_add (path, (gpointer) id);

  children = agui_a2ui_component_dup_child_ids (component);
  for (guint i = 0; children[i] != NULL; i++)
    check_component (self, children[i], id, path, checked, seen, depth + 1);

  template = agui_a2ui_component_get_template (component, NULL);
  if (template != NULL)
    check_component (self, template, id, path, checked, seen, depth + 1);

  g_hash_table_remove (path, id);
}

static void
check_tree (AguiA2uiSurface *self)
{
  g_autoptr(GHashTable) path = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) checked = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_ptr_array_set_size (self->errors, 0);
  for (guint i = 0; i < self->operation_errors->len; i++)
    g_ptr_array_add (self->errors, g_strdup (g_ptr_array_index (self->operation_errors, i)));

  if (self->ready && self->root_id != NULL)
    check_component (self, self->root_id, NULL, path, checked, seen, 0);

}

static gboolean
strv_equal (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (a->pdata[i], b->pdata[i]) != 0)
      return FALSE;

  return TRUE;
}

static gboolean
components_equal (GHashTable *a,
                  GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!_agui_a2ui_component_equal (value, g_hash_table_lookup (b, key)))
      return FALSE;

  return TRUE;
}

static void
reset (AguiA2uiSurface *self)
{
  g_hash_table_remove_all (self->components);
  json_node_unref (self->data);
  self->data = _agui_json_node_new_object (json_object_new ());
  _agui_json_value_clear (&self->applied);
  g_clear_pointer (&self->root_id, g_free);
  g_ptr_array_set_size (self->operation_errors, 0);
  self->ready = FALSE;
  self->deleted = FALSE;
}

/* json_node_equal ()'s equality, which the tree's is: 1 equals 1.0,
 * members in any order. */
static gboolean
is_prefix (const AguiJsonValue *prefix,
           const AguiJsonValue *array)
{
  guint n = _agui_json_doc_get_length (prefix);

  if (_agui_json_doc_get_length (array) < n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!_agui_json_value_equal (_agui_json_doc_get_element (prefix, i), _agui_json_doc_get_element (array, i)))
      return FALSE;

  return TRUE;
}

/* GObject */

static void
agui_a2ui_surface_finalize (GObject *object)
{
  AguiA2uiSurface *self = AGUI_A2UI_SURFACE (object);

  g_clear_pointer (&self->surface_id, g_free);
  g_clear_pointer (&self->root_id, g_free);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->components, g_hash_table_unref);
  g_clear_pointer (&self->data, json_node_unref);
  _agui_json_value_clear (&self->applied);
  g_clear_pointer (&self->operation_errors, g_ptr_array_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);

  G_OBJECT_CLASS (agui_a2ui_surface_parent_class)->finalize (object);
}

static void
agui_a2ui_surface_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AguiA2uiSurface *self = AGUI_A2UI_SURFACE (object);

  switch (prop_id)
    {
    case PROP_SURFACE_ID:
      g_value_set_string (value, self->surface_id);
      break;

    case PROP_ROOT_ID:
      g_value_set_string (value, self->root_id);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;

    case PROP_DELETED:
      g_value_set_boolean (value, self->deleted);
      break;

    case PROP_ERRORS:
      g_value_set_boxed (value, agui_a2ui_surface_get_errors (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_a2ui_surface_class_init (AguiA2uiSurfaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_a2ui_surface_finalize;
  object_class->get_property = agui_a2ui_surface_get_property;

  pspecs[PROP_SURFACE_ID] =
    g_param_spec_string ("surface-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  pspecs[PROP_ROOT_ID] =
    g_param_spec_string ("root-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  pspecs[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  pspecs[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  pspecs[PROP_DELETED] =
    g_param_spec_boolean ("deleted", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  pspecs[PROP_ERRORS] =
    g_param_spec_boxed ("errors", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, pspecs);

  /**
   * AguiA2uiSurface::structure-changed:
   *
   * A component, the root, readiness or deletion changed: the view is
   * rebuilt from the root.
   */
  signals[STRUCTURE_CHANGED] =
    g_signal_new ("structure-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * AguiA2uiSurface::data-changed:
   *
   * Only the data model changed: bound properties are read again.
   */
  signals[DATA_CHANGED] =
    g_signal_new ("data-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
agui_a2ui_surface_init (AguiA2uiSurface *self)
{
  self->components = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->data = _agui_json_node_new_object (json_object_new ());
  self->operation_errors = g_ptr_array_new_with_free_func (g_free);
  /* NULL-terminated, so get_errors() can hand out its pdata. */
  self->errors = g_ptr_array_new_null_terminated (0, g_free, TRUE);
}

/* API */

/**
 * agui_a2ui_surface_new:
 *
 * Returns: (transfer full): an empty surface, not ready to draw
 */
AguiA2uiSurface *
agui_a2ui_surface_new (void)
{
  return g_object_new (AGUI_TYPE_A2UI_SURFACE, NULL);
}

/**
 * agui_a2ui_surface_apply_content:
 * @self: a surface
 * @content: (nullable): the content of an `a2ui-surface` activity
 *
 * Brings the surface up to date with the activity's content,
 * `{"operations": [...]}` (the key the middleware also spells
 * `a2ui_operations`), optionally with the middleware's lifecycle
 * `status` ("building", "retrying", "failed"). When the operations
 * continue those already applied, only the new ones are applied;
 * otherwise the surface is rebuilt from them.
 */
void
agui_a2ui_surface_apply_content (AguiA2uiSurface *self,
                                 JsonNode        *content)
{
  g_autoptr(GHashTable) old_components = NULL;
  g_autoptr(JsonNode) old_data = NULL;
  g_autoptr(GPtrArray) old_errors = NULL;
  g_autofree char *old_root = NULL;
  gboolean old_ready, old_deleted;
  JsonObject *object = NULL;
  JsonNode *operations = NULL;
  JsonArray *array;
  guint start = 0;

  g_return_if_fail (AGUI_IS_A2UI_SURFACE (self));

  old_components = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, self->components);
    while (g_hash_table_iter_next (&iter, &key, &value))
      g_hash_table_insert (old_components, g_strdup (key), g_object_ref (value));
  }
  old_data = _agui_json_node_copy_deep (self->data);
  old_errors = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->errors->len; i++)
    g_ptr_array_add (old_errors, g_strdup (self->errors->pdata[i]));
  old_root = g_strdup (self->root_id);
  old_ready = self->ready;
  old_deleted = self->deleted;

  if (content != NULL && JSON_NODE_HOLDS_OBJECT (content))
    {
      object = json_node_get_object (content);
      operations = json_object_get_member (object, "operations");
      if (operations == NULL)
        operations = json_object_get_member (object, "a2ui_operations");
    }

  if (_agui_set_str (&self->status, object ? _agui_a2ui_string_member (object, "status", NULL) : NULL))
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_STATUS]);

  if (operations != NULL && JSON_NODE_HOLDS_ARRAY (operations))
    {
      g_auto(AguiJsonValue) received = AGUI_JSON_VALUE_INIT;

      array = json_node_get_array (operations);
      _agui_json_value_set_node (&received, operations);

      if (self->applied.kind == AGUI_JSON_DOC_ARRAY && is_prefix (&self->applied, &received))
        start = _agui_json_doc_get_length (&self->applied);
      else
        reset (self);

      for (guint i = start; i < json_array_get_length (array); i++)
        apply_operation (self, json_array_get_element (array, i), i);

      _agui_json_value_move (&self->applied, &received);
    }
  else
    {
      reset (self);
      /* A lifecycle snapshot (building, retrying) carries no operations yet. */
      if (self->status == NULL)
        _agui_a2ui_surface_operation_error (self, "The surface's content has no list of operations");
      else if (g_str_equal (self->status, "failed"))
        _agui_a2ui_surface_operation_error (self, "The agent could not build this surface: %s",
                         _agui_a2ui_string_member (object, "error", "no reason given"));
    }

  check_tree (self);

  if (g_strcmp0 (old_root, self->root_id) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_ROOT_ID]);
  if (old_ready != self->ready)
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_READY]);
  if (old_deleted != self->deleted)
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_DELETED]);
  if (!strv_equal (old_errors, self->errors))
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_ERRORS]);
  g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_SURFACE_ID]);

  if (g_strcmp0 (old_root, self->root_id) != 0 || old_ready != self->ready ||
      old_deleted != self->deleted || !components_equal (old_components, self->components))
    g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  else if (!json_node_equal (old_data, self->data))
    g_signal_emit (self, signals[DATA_CHANGED], 0);
}

/**
 * agui_a2ui_surface_get_surface_id:
 * @self: a surface
 *
 * Returns: (nullable): the surface id the operations named
 */
const char *
agui_a2ui_surface_get_surface_id (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  return self->surface_id;
}

/**
 * agui_a2ui_surface_get_root_id:
 * @self: a surface
 *
 * Returns: (nullable): the root component's id, once rendering began
 */
const char *
agui_a2ui_surface_get_root_id (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  return self->root_id;
}

/**
 * agui_a2ui_surface_get_status:
 * @self: a surface
 *
 * Returns: (nullable): the middleware's lifecycle status ("building",
 *   "retrying", "failed"), or %NULL for a painted surface
 */
const char *
agui_a2ui_surface_get_status (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  return self->status;
}

/**
 * agui_a2ui_surface_get_ready:
 * @self: a surface
 *
 * Returns: whether rendering began (`beginRendering` or `createSurface`)
 */
gboolean
agui_a2ui_surface_get_ready (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), FALSE);

  return self->ready;
}

/**
 * agui_a2ui_surface_get_deleted:
 * @self: a surface
 *
 * Returns: whether the agent deleted the surface
 */
gboolean
agui_a2ui_surface_get_deleted (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), FALSE);

  return self->deleted;
}

/**
 * agui_a2ui_surface_get_errors:
 * @self: a surface
 *
 * What could not be applied or drawn, in technical English: bad
 * operations and paths, unknown component types, missing children,
 * cycles.
 *
 * Returns: (transfer none) (array zero-terminated=1): the errors, possibly none
 */
const char * const *
agui_a2ui_surface_get_errors (AguiA2uiSurface *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  /* An empty null-terminated GPtrArray may have no pdata at all. */
  if (self->errors->pdata == NULL)
    return none;

  return (const char * const *) self->errors->pdata;
}

/**
 * agui_a2ui_surface_get_n_components:
 * @self: a surface
 *
 * Returns: how many components the surface holds
 */
guint
agui_a2ui_surface_get_n_components (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), 0);

  return g_hash_table_size (self->components);
}

/**
 * agui_a2ui_surface_get_component:
 * @self: a surface
 * @id: a component id
 *
 * Returns: (transfer none) (nullable): the component
 */
AguiA2uiComponent *
agui_a2ui_surface_get_component (AguiA2uiSurface *self,
                                 const char      *id)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  return id ? g_hash_table_lookup (self->components, id) : NULL;
}

/**
 * agui_a2ui_surface_get_root:
 * @self: a surface
 *
 * Returns: (transfer none) (nullable): the root component, when the
 *   surface is ready and the root exists
 */
AguiA2uiComponent *
agui_a2ui_surface_get_root (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  if (!self->ready)
    return NULL;

  return agui_a2ui_surface_get_component (self, self->root_id);
}

static void
add_child (GPtrArray  *children,
           GPtrArray  *scopes,
           gpointer    component,
           const char *scope)
{
  if (component == NULL)
    return;

  g_ptr_array_add (children, g_object_ref (component));
  g_ptr_array_add (scopes, g_strdup (scope));
}

/**
 * agui_a2ui_surface_list_children:
 * @self: a surface
 * @component: one of its components
 * @scope: (nullable): the data path @component is drawn in, %NULL for the root
 * @scopes: (out) (optional) (transfer full) (element-type utf8): the data
 *   path each child is drawn in
 *
 * The components drawn inside @component, in order: the ones it names,
 * or its template once per item of the bound list (each in the scope of
 * its item). Ids that name nothing are left out.
 *
 * Returns: (transfer full) (element-type AguiA2uiComponent): the children
 */
GPtrArray *
agui_a2ui_surface_list_children (AguiA2uiSurface    *self,
                                 AguiA2uiComponent  *component,
                                 const char         *scope,
                                 GPtrArray         **scopes)
{
  g_autoptr(GPtrArray) child_scopes = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *children = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) ids = NULL;
  const char *template;
  const char *path = NULL;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (component), NULL);

  ids = agui_a2ui_component_dup_child_ids (component);
  for (guint i = 0; ids[i] != NULL; i++)
    add_child (children, child_scopes, g_hash_table_lookup (self->components, ids[i]), scope);

  template = agui_a2ui_component_get_template (component, &path);
  if (template != NULL && path != NULL)
    {
      g_autofree char *list_path = _agui_a2ui_absolute_path (scope, path);
      AguiA2uiComponent *item = g_hash_table_lookup (self->components, template);
      JsonNode *list = _agui_a2ui_pointer_lookup (self->data, list_path);
      const char *separator = g_str_has_suffix (list_path, "/") ? "" : "/";

      if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
        {
          guint n = MIN (json_array_get_length (json_node_get_array (list)), MAX_TEMPLATE_ITEMS);

          for (guint i = 0; i < n; i++)
            {
              g_autofree char *item_scope = g_strdup_printf ("%s%s%u", list_path, separator, i);

              add_child (children, child_scopes, item, item_scope);
            }
        }
      else if (list != NULL && JSON_NODE_HOLDS_OBJECT (list))
        {
          g_autoptr(GList) keys = json_object_get_members (json_node_get_object (list));
          guint n = 0;

          for (GList *key = keys; key != NULL && n < MAX_TEMPLATE_ITEMS; key = key->next, n++)
            {
              g_auto(GStrv) tildes = g_strsplit (key->data, "~", -1);
              g_autofree char *tilde = g_strjoinv ("~0", tildes);
              g_auto(GStrv) slashes = g_strsplit (tilde, "/", -1);
              g_autofree char *escaped = g_strjoinv ("~1", slashes);
              g_autofree char *item_scope = g_strconcat (list_path, separator, escaped, NULL);

              add_child (children, child_scopes, item, item_scope);
            }
        }
    }

  if (scopes != NULL)
    *scopes = g_steal_pointer (&child_scopes);

  return children;
}

/**
 * agui_a2ui_surface_get_data_model:
 * @self: a surface
 *
 * Returns: (transfer none): the data model, a JSON object
 */
JsonNode *
agui_a2ui_surface_get_data_model (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  return self->data;
}

static const char *
bound_path (JsonNode *value)
{
  JsonObject *object;

  if (value == NULL || !JSON_NODE_HOLDS_OBJECT (value))
    return NULL;

  object = json_node_get_object (value);
  if (json_object_get_size (object) != 1)
    return NULL;

  return _agui_a2ui_string_member (object, "path", NULL);
}

/**
 * agui_a2ui_surface_dup_bound_path:
 * @self: a surface
 * @value: (nullable): a component's property
 * @scope: (nullable): the data path the component is drawn in
 *
 * Returns: (transfer full) (nullable): the absolute data path @value is
 *   bound to, or %NULL for a literal
 */
char *
agui_a2ui_surface_dup_bound_path (AguiA2uiSurface *self,
                                  JsonNode        *value,
                                  const char      *scope)
{
  const char *path;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  if ((path = bound_path (value)) == NULL)
    return NULL;

  return _agui_a2ui_absolute_path (scope, path);
}

/**
 * agui_a2ui_surface_resolve:
 * @self: a surface
 * @value: (nullable): a component's property: a literal or `{"path": ...}`
 * @scope: (nullable): the data path the component is drawn in
 *
 * Returns: (transfer none) (nullable): the value, or %NULL when the path
 *   holds nothing yet or @value is a function call this client does not
 *   evaluate
 */
JsonNode *
agui_a2ui_surface_resolve (AguiA2uiSurface *self,
                           JsonNode        *value,
                           const char      *scope)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  if (value == NULL)
    return NULL;

  if ((path = agui_a2ui_surface_dup_bound_path (self, value, scope)) != NULL)
    return _agui_a2ui_pointer_lookup (self->data, path);

  if (JSON_NODE_HOLDS_OBJECT (value) && json_object_has_member (json_node_get_object (value), "call"))
    return NULL;

  return value;
}

/**
 * agui_a2ui_surface_resolve_string:
 * @self: a surface
 * @value: (nullable): a component's property
 * @scope: (nullable): the data path the component is drawn in
 *
 * Resolves @value as text: strings as they are, numbers and booleans
 * written out, lists and objects as compact JSON.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when nothing
 *   is there
 */
char *
agui_a2ui_surface_resolve_string (AguiA2uiSurface *self,
                                  JsonNode        *value,
                                  const char      *scope)
{
  JsonNode *resolved;
  GType type;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  resolved = agui_a2ui_surface_resolve (self, value, scope);
  if (resolved == NULL || JSON_NODE_HOLDS_NULL (resolved))
    return NULL;

  if (!JSON_NODE_HOLDS_VALUE (resolved))
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();

      json_generator_set_root (generator, resolved);
      return json_generator_to_data (generator, NULL);
    }

  type = json_node_get_value_type (resolved);
  if (type == G_TYPE_STRING)
    return g_strdup (json_node_get_string (resolved));
  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (resolved) ? "true" : "false");
  if (type == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (resolved));
  if (type == G_TYPE_DOUBLE)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.15g", json_node_get_double (resolved)));
    }

  return NULL;
}

/**
 * agui_a2ui_surface_set_value:
 * @self: a surface
 * @path: an absolute data path, as from [method@Agui.A2uiSurface.dup_bound_path]
 * @value: (transfer none): the new value
 * @error: return location for a #GError
 *
 * Writes what the person entered into the data model. Emits
 * ::data-changed when the value changed.
 *
 * Returns: whether the value could be stored at @path
 */
gboolean
agui_a2ui_surface_set_value (AguiA2uiSurface  *self,
                             const char       *path,
                             JsonNode         *value,
                             GError          **error)
{
  JsonNode *current;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  current = _agui_a2ui_pointer_lookup (self->data, path);
  if (current != NULL && json_node_equal (current, value))
    return TRUE;

  if (!_agui_a2ui_pointer_store (&self->data, path, _agui_json_node_copy_deep (value), error))
    return FALSE;

  g_signal_emit (self, signals[DATA_CHANGED], 0);

  return TRUE;
}

/**
 * agui_a2ui_surface_build_action:
 * @self: a surface
 * @component: the component the person used, with a server `action`
 * @scope: (nullable): the data path @component is drawn in
 * @error: return location for a #GError
 *
 * Builds the `userAction` the A2UI middleware expects in
 * `forwardedProps.a2uiAction.userAction`: the action's name, the surface
 * and component ids, a timestamp and the action's context, its bound
 * values resolved against the data model as it is now.
 *
 * Returns: (transfer full) (nullable): the user action, or %NULL when
 *   @component has no server action
 */
JsonObject *
agui_a2ui_surface_build_action (AguiA2uiSurface    *self,
                                AguiA2uiComponent  *component,
                                const char         *scope,
                                GError            **error)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *timestamp = NULL;
  JsonObject *action;
  JsonObject *event;
  JsonObject *context;
  JsonObject *resolved;
  JsonNode *node;
  const char *name;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (component), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  node = agui_a2ui_component_get_property (component, "action");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      (node = json_object_get_member (json_node_get_object (node), "event")) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "Component '%s' has no action for the agent", agui_a2ui_component_get_id (component));
      return NULL;
    }

  event = json_node_get_object (node);
  name = _agui_a2ui_string_member (event, "name", NULL);
  if (name == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "The action of component '%s' has no name", agui_a2ui_component_get_id (component));
      return NULL;
    }

  resolved = json_object_new ();
  node = json_object_get_member (event, "context");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      context = json_node_get_object (node);
      json_object_iter_init (&iter, context);
      while (json_object_iter_next (&iter, &key, &value))
        {
          JsonNode *result = agui_a2ui_surface_resolve (self, value, scope);

          json_object_set_member (resolved, key, result ? _agui_json_node_copy_deep (result)
                                                        : json_node_new (JSON_NODE_NULL));
        }
    }

  now = g_date_time_new_now_utc ();
  timestamp = g_date_time_format_iso8601 (now);

  action = json_object_new ();
  json_object_set_string_member (action, "name", name);
  json_object_set_string_member (action, "surfaceId", self->surface_id ? self->surface_id : "");
  json_object_set_string_member (action, "sourceComponentId", agui_a2ui_component_get_id (component));
  json_object_set_string_member (action, "timestamp", timestamp);
  json_object_set_object_member (action, "context", resolved);

  return action;
}
