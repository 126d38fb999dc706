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
  /* the data model, always an object */
  AguiJsonValue data;
  /* json-glib copies of it handed out by the getters, built on demand and
   * dropped whenever the data is written: the whole model, and the value
   * at each path resolved (path to JsonNode) */
  JsonNode   *data_node;
  GHashTable *resolved;
  /* while apply_content () runs, where the data goes as it was before its
   * first write, to tell whether it changed; NULL once written */
  AguiJsonValue *before;
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

/* The data model */

static void
data_will_change (AguiA2uiSurface *self)
{
  /* Copied only when written: most deltas add components or change
   * nothing, and the data may be large. */
  if (self->before != NULL)
    {
      _agui_json_value_copy (self->before, &self->data);
      self->before = NULL;
    }

  g_clear_pointer (&self->data_node, json_node_unref);
  g_hash_table_remove_all (self->resolved);
}

/* Every write to the data model goes through here, so that no JsonNode
 * handed out describes data that is gone. */
static gboolean
store_data (AguiA2uiSurface  *self,
            const char       *pointer,
            AguiJsonValue    *value,
            GError          **error)
{
  data_will_change (self);

  return _agui_a2ui_pointer_store (&self->data, pointer, value, error);
}

static void
clear_data (AguiA2uiSurface *self)
{
  data_will_change (self);
  _agui_json_value_set_object (&self->data, 0);
}

/* Applying operations */

/* The first member's name of @object, or %NULL. */
static const char *
first_name (const AguiJsonValue *object,
            const char          *skip)
{
  AguiJsonDocObject *members = object->u.object;

  for (guint slot = 0; slot < _agui_json_object_get_n_slots (members); slot++)
    {
      const char *name = _agui_json_object_slot_name (members, slot);

      if (name != NULL && g_strcmp0 (name, skip) != 0)
        return name;
    }

  return NULL;
}

static void
store_component (AguiA2uiSurface     *self,
                 const AguiJsonValue *item,
                 guint                index)
{
  g_autoptr(GPtrArray) initializers = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_a2ui_initializer_free);
  g_auto(AguiJsonValue) properties = AGUI_JSON_VALUE_INIT;
  AguiJsonValue *component;
  const char *id;
  const char *type_name = NULL;

  if (item->kind != AGUI_JSON_DOC_OBJECT)
    {
      _agui_a2ui_surface_operation_error (self, "Component %u is not an object", index);
      return;
    }

  id = _agui_json_doc_get_string (item, "id");
  if (id == NULL || id[0] == '\0')
    {
      _agui_a2ui_surface_operation_error (self, "Component %u has no id", index);
      return;
    }

  component = _agui_json_doc_get_member (item, "component");
  if (component != NULL && _agui_json_value_is_string (component))
    {
      /* v0.9: {"id", "component": "Text", ...properties} */
      AguiJsonDocObject *members = item->u.object;
      AguiJsonDocObject *object;

      type_name = _agui_json_value_get_string (component);
      object = _agui_json_value_set_object (&properties, _agui_json_object_get_size (members));
      for (guint slot = 0; slot < _agui_json_object_get_n_slots (members); slot++)
        {
          const char *name = _agui_json_object_slot_name (members, slot);

          if (name != NULL && !g_str_equal (name, "id") && !g_str_equal (name, "component"))
            _agui_json_doc_set_copy (object, name, _agui_json_object_slot_value (members, slot));
        }
    }
  else if (component != NULL && component->kind == AGUI_JSON_DOC_OBJECT &&
           _agui_json_object_get_size (component->u.object) == 1)
    {
      /* v0.8: {"id", "component": {"Text": {...properties}}} */
      type_name = first_name (component, NULL);
      _agui_a2ui_convert_properties_v08 (type_name, _agui_json_doc_get_member (component, type_name),
                                         initializers, &properties);
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

      if (!store_data (self, path, &initializer->value, &error))
        _agui_a2ui_surface_operation_error (self, "Component '%s': %s", id, error->message);
    }

  g_hash_table_replace (self->components, g_strdup (id), _agui_a2ui_component_new (id, type_name, &properties));
}

static void
apply_components (AguiA2uiSurface     *self,
                  const AguiJsonValue *body)
{
  AguiJsonValue *components = _agui_json_doc_get_array (body, "components");

  if (components == NULL)
    {
      _agui_a2ui_surface_operation_error (self, "A component update has no list of components");
      return;
    }

  for (guint i = 0; i < _agui_json_doc_get_length (components); i++)
    store_component (self, _agui_json_doc_get_element (components, i), i);
}

/* The member "path" of @body as an absolute path, "/" when it has none. */
static char *
body_path (const AguiJsonValue *body)
{
  const char *path = _agui_json_doc_get_string (body, "path");

  return _agui_a2ui_absolute_path (NULL, path != NULL ? path : "/");
}

static void
apply_data_v08 (AguiA2uiSurface     *self,
                const AguiJsonValue *body)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_auto(AguiJsonValue) contents = AGUI_JSON_VALUE_INIT;
  g_autofree char *path = body_path (body);
  AguiJsonDocObject *entries;

  _agui_a2ui_convert_contents_v08 (problems, _agui_json_doc_get_member (body, "contents"), 0, &contents);
  for (guint i = 0; i < problems->len; i++)
    _agui_a2ui_surface_operation_error (self, "%s", (const char *) g_ptr_array_index (problems, i));

  entries = contents.u.object;
  for (guint slot = 0; slot < _agui_json_object_get_n_slots (entries); slot++)
    {
      const char *key = _agui_json_object_slot_name (entries, slot);
      g_autoptr(GError) error = NULL;
      g_autofree char *target = NULL;

      if (key == NULL)
        continue;

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

      /* The entries are ours: each value moves into the data model. */
      if (!store_data (self, target, _agui_json_object_slot_value (entries, slot), &error))
        _agui_a2ui_surface_operation_error (self, "dataModelUpdate: %s", error->message);
    }
}

static void
apply_data_v09 (AguiA2uiSurface     *self,
                const AguiJsonValue *body)
{
  g_autoptr(GError) error = NULL;
  g_auto(AguiJsonValue) copy = AGUI_JSON_VALUE_INIT;
  g_autofree char *path = body_path (body);
  AguiJsonValue *value = _agui_json_doc_get_member (body, "value");

  if (value != NULL)
    _agui_json_value_copy (&copy, value);
  if (!store_data (self, path, value != NULL ? &copy : NULL, &error))
    _agui_a2ui_surface_operation_error (self, "updateDataModel: %s", error->message);
}

static void
apply_operation (AguiA2uiSurface     *self,
                 const AguiJsonValue *operation,
                 guint                index)
{
  static const char * const kinds[] = {
    "surfaceUpdate", "updateComponents", "dataModelUpdate", "updateDataModel",
    "beginRendering", "createSurface", "deleteSurface", NULL
  };
  const AguiJsonValue *body = NULL;
  const char *kind = NULL;
  const char *surface_id;

  if (operation->kind != AGUI_JSON_DOC_OBJECT)
    {
      _agui_a2ui_surface_operation_error (self, "Operation %u is not an object", index);
      return;
    }

  for (guint i = 0; kinds[i] != NULL && kind == NULL; i++)
    if ((body = _agui_json_doc_get_object (operation, kinds[i])) != NULL)
      kind = kinds[i];

  if (kind == NULL)
    {
      /* "version" is v0.9's envelope, not an operation. */
      const char *name = first_name (operation, "version");

      _agui_a2ui_surface_operation_error (self, "Operation %u is not one this client knows ('%s')",
                       index, name ? name : "empty");
      return;
    }

  surface_id = _agui_json_doc_get_string (body, "surfaceId");
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
      const char *root = _agui_json_doc_get_string (body, "root");

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
      clear_data (self);
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
  clear_data (self);
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
  _agui_json_value_clear (&self->data);
  g_clear_pointer (&self->data_node, json_node_unref);
  g_clear_pointer (&self->resolved, g_hash_table_unref);
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
  _agui_json_value_set_object (&self->data, 0);
  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_node_unref);
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
  g_auto(AguiJsonValue) old_data = AGUI_JSON_VALUE_INIT;
  g_autoptr(GPtrArray) old_errors = NULL;
  g_autofree char *old_root = NULL;
  gboolean old_ready, old_deleted, data_written;
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonValue *operations = NULL;
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
  self->before = &old_data;
  old_errors = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->errors->len; i++)
    g_ptr_array_add (old_errors, g_strdup (self->errors->pdata[i]));
  old_root = g_strdup (self->root_id);
  old_ready = self->ready;
  old_deleted = self->deleted;

  /* The content is read in the tree, as everything inside the library. */
  if (content != NULL)
    _agui_json_value_set_node (&tree, content);
  operations = _agui_json_doc_get_member (&tree, "operations");
  if (operations == NULL)
    operations = _agui_json_doc_get_member (&tree, "a2ui_operations");

  if (_agui_set_str (&self->status, _agui_json_doc_get_string (&tree, "status")))
    g_object_notify_by_pspec (G_OBJECT (self), pspecs[PROP_STATUS]);

  if (operations != NULL && operations->kind == AGUI_JSON_DOC_ARRAY)
    {
      if (self->applied.kind == AGUI_JSON_DOC_ARRAY && is_prefix (&self->applied, operations))
        start = _agui_json_doc_get_length (&self->applied);
      else
        reset (self);

      for (guint i = start; i < _agui_json_doc_get_length (operations); i++)
        apply_operation (self, _agui_json_doc_get_element (operations, i), i);

      /* Kept whole, to tell the next delta's new operations. */
      _agui_json_value_move (&self->applied, operations);
    }
  else
    {
      reset (self);
      /* A lifecycle snapshot (building, retrying) carries no operations yet. */
      if (self->status == NULL)
        _agui_a2ui_surface_operation_error (self, "The surface's content has no list of operations");
      else if (g_str_equal (self->status, "failed"))
        {
          const char *reason = _agui_json_doc_get_string (&tree, "error");

          _agui_a2ui_surface_operation_error (self, "The agent could not build this surface: %s",
                                              reason != NULL ? reason : "no reason given");
        }
    }

  check_tree (self);
  /* still set when nothing wrote the data */
  data_written = self->before == NULL;
  self->before = NULL;

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
  else if (data_written && !_agui_json_value_equal (&old_data, &self->data))
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
      AguiJsonValue *list = _agui_a2ui_pointer_lookup (&self->data, list_path);
      const char *separator = g_str_has_suffix (list_path, "/") ? "" : "/";

      if (list != NULL && list->kind == AGUI_JSON_DOC_ARRAY)
        {
          guint n = MIN (_agui_json_doc_get_length (list), MAX_TEMPLATE_ITEMS);

          for (guint i = 0; i < n; i++)
            {
              g_autofree char *item_scope = g_strdup_printf ("%s%s%u", list_path, separator, i);

              add_child (children, child_scopes, item, item_scope);
            }
        }
      else if (list != NULL && list->kind == AGUI_JSON_DOC_OBJECT)
        {
          AguiJsonDocObject *object = list->u.object;
          guint n = 0;

          for (guint slot = 0; slot < _agui_json_object_get_n_slots (object) && n < MAX_TEMPLATE_ITEMS; slot++)
            {
              const char *key = _agui_json_object_slot_name (object, slot);
              g_auto(GStrv) tildes = NULL;
              g_autofree char *tilde = NULL;
              g_auto(GStrv) slashes = NULL;
              g_autofree char *escaped = NULL;
              g_autofree char *item_scope = NULL;

              /* a removed member's hole */
              if (key == NULL)
                continue;

              tildes = g_strsplit (key, "~", -1);
              tilde = g_strjoinv ("~0", tildes);
              slashes = g_strsplit (tilde, "/", -1);
              escaped = g_strjoinv ("~1", slashes);
              item_scope = g_strconcat (list_path, separator, escaped, NULL);

              add_child (children, child_scopes, item, item_scope);
              n++;
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
 * The data model as a json-glib tree, sealed. The surface keeps its data
 * in a form of its own and builds this copy when asked; it owns the copy
 * and drops it whenever the data model is written (by
 * [method@Agui.A2uiSurface.apply_content] or
 * [method@Agui.A2uiSurface.set_value], so before any ::data-changed or
 * ::structure-changed). Take a reference to keep it longer: it then stays
 * as it was.
 *
 * Returns: (transfer none): the data model, a JSON object
 */
JsonNode *
agui_a2ui_surface_get_data_model (AguiA2uiSurface *self)
{
  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);

  if (self->data_node == NULL)
    {
      self->data_node = _agui_json_value_to_node (&self->data);
      json_node_seal (self->data_node);
    }

  return self->data_node;
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

  /* json-glib's *_with_default() getters are critical on a mistyped
   * member, and agent data is mistyped at will. */
  value = json_object_get_member (object, "path");
  if (value == NULL || !JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (value);
}

/* The same two on the tree, for the surface's own reading of its
 * components. */
static const char *
bound_path_value (const AguiJsonValue *value)
{
  if (value == NULL || value->kind != AGUI_JSON_DOC_OBJECT || _agui_json_object_get_size (value->u.object) != 1)
    return NULL;

  return _agui_json_doc_get_string (value, "path");
}

static const AguiJsonValue *
resolve_value (AguiA2uiSurface     *self,
               const AguiJsonValue *value,
               const char          *scope)
{
  const char *path = bound_path_value (value);

  if (path != NULL)
    {
      g_autofree char *absolute = _agui_a2ui_absolute_path (scope, path);

      return _agui_a2ui_pointer_lookup (&self->data, absolute);
    }

  if (_agui_json_doc_get_member (value, "call") != NULL)
    return NULL;

  return value;
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
 * A bound value is read from the data model into a json-glib copy,
 * sealed, which the surface owns and drops whenever the data model is
 * written (by [method@Agui.A2uiSurface.apply_content] or
 * [method@Agui.A2uiSurface.set_value], so before any ::data-changed or
 * ::structure-changed); take a reference to keep it longer. A literal is
 * @value itself.
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
    {
      AguiJsonValue *found;
      JsonNode *node;

      /* Every bound property of a view is resolved again on each change
       * of the data: one copy per path until the next. */
      if ((node = g_hash_table_lookup (self->resolved, path)) != NULL)
        return node;
      if ((found = _agui_a2ui_pointer_lookup (&self->data, path)) == NULL)
        return NULL;

      node = _agui_json_value_to_node (found);
      json_node_seal (node);
      g_hash_table_insert (self->resolved, g_steal_pointer (&path), node);

      return node;
    }

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
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonValue *current;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  _agui_json_value_set_node (&tree, value);
  current = _agui_a2ui_pointer_lookup (&self->data, path);
  if (current != NULL && _agui_json_value_equal (current, &tree))
    return TRUE;

  if (!store_data (self, path, &tree, error))
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
  const AguiJsonValue *event;
  const AguiJsonValue *context;
  JsonObject *action;
  JsonObject *resolved;
  const char *name;

  g_return_val_if_fail (AGUI_IS_A2UI_SURFACE (self), NULL);
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (component), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  event = _agui_json_doc_get_object (_agui_json_doc_get_object (_agui_a2ui_component_get_tree (component), "action"),
                                     "event");
  if (event == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "Component '%s' has no action for the agent", agui_a2ui_component_get_id (component));
      return NULL;
    }

  name = _agui_json_doc_get_string (event, "name");
  if (name == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "The action of component '%s' has no name", agui_a2ui_component_get_id (component));
      return NULL;
    }

  /* The one json-glib tree made here is the one handed out. */
  resolved = json_object_new ();
  if ((context = _agui_json_doc_get_object (event, "context")) != NULL)
    {
      AguiJsonDocObject *members = context->u.object;

      for (guint slot = 0; slot < _agui_json_object_get_n_slots (members); slot++)
        {
          const char *key = _agui_json_object_slot_name (members, slot);
          const AguiJsonValue *result;

          if (key == NULL)
            continue;
          result = resolve_value (self, _agui_json_object_slot_value (members, slot), scope);
          json_object_set_member (resolved, key, result ? _agui_json_value_to_node (result)
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
