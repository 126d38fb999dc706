/* agui-tool-registry.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-tool-registry.h"

/**
 * AguiToolRegistry:
 *
 * The frontend tools a session offers the agent, as a [iface@Gio.ListModel]
 * of [class@Agui.Tool] in the order they were added. A session declares
 * them in every run after the caller's own tools, and runs the calls the
 * agent makes to them.
 */
struct _AguiToolRegistry
{
  GObject    parent_instance;
  GPtrArray *tools;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiToolRegistry, agui_tool_registry, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
agui_tool_registry_get_item_type (GListModel *model)
{
  return AGUI_TYPE_TOOL;
}

static guint
agui_tool_registry_get_n_items (GListModel *model)
{
  return AGUI_TOOL_REGISTRY (model)->tools->len;
}

static gpointer
agui_tool_registry_get_item (GListModel *model,
                             guint       position)
{
  AguiToolRegistry *self = AGUI_TOOL_REGISTRY (model);

  if (position >= self->tools->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->tools, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agui_tool_registry_get_item_type;
  iface->get_n_items = agui_tool_registry_get_n_items;
  iface->get_item = agui_tool_registry_get_item;
}

static void
agui_tool_registry_finalize (GObject *object)
{
  AguiToolRegistry *self = AGUI_TOOL_REGISTRY (object);

  g_clear_pointer (&self->tools, g_ptr_array_unref);

  G_OBJECT_CLASS (agui_tool_registry_parent_class)->finalize (object);
}

static void
agui_tool_registry_class_init (AguiToolRegistryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agui_tool_registry_finalize;
}

static void
agui_tool_registry_init (AguiToolRegistry *self)
{
  self->tools = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * agui_tool_registry_new:
 *
 * Returns: (transfer full): an empty registry
 */
AguiToolRegistry *
agui_tool_registry_new (void)
{
  return g_object_new (AGUI_TYPE_TOOL_REGISTRY, NULL);
}

static gboolean
find (AguiToolRegistry *self,
      const char       *name,
      guint            *position)
{
  for (guint i = 0; i < self->tools->len; i++)
    {
      if (g_strcmp0 (agui_tool_get_name (g_ptr_array_index (self->tools, i)), name) == 0)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * agui_tool_registry_add:
 * @self: a registry
 * @tool: a tool; one with the same name is replaced
 *
 * Adds a tool.
 */
void
agui_tool_registry_add (AguiToolRegistry *self,
                        AguiTool         *tool)
{
  guint position;

  g_return_if_fail (AGUI_IS_TOOL_REGISTRY (self));
  g_return_if_fail (AGUI_IS_TOOL (tool));

  if (find (self, agui_tool_get_name (tool), &position))
    {
      g_object_unref (g_ptr_array_index (self->tools, position));
      self->tools->pdata[position] = g_object_ref (tool);
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
      return;
    }

  g_ptr_array_add (self->tools, g_object_ref (tool));
  g_list_model_items_changed (G_LIST_MODEL (self), self->tools->len - 1, 0, 1);
}

/**
 * agui_tool_registry_remove:
 * @self: a registry
 * @name: a tool name
 *
 * Returns: %TRUE if a tool was removed
 */
gboolean
agui_tool_registry_remove (AguiToolRegistry *self,
                           const char       *name)
{
  guint position;

  g_return_val_if_fail (AGUI_IS_TOOL_REGISTRY (self), FALSE);

  if (!find (self, name, &position))
    return FALSE;

  g_ptr_array_remove_index (self->tools, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);

  return TRUE;
}

/**
 * agui_tool_registry_lookup:
 * @self: a registry
 * @name: a tool name
 *
 * Returns: (transfer none) (nullable): the tool with that name
 */
AguiTool *
agui_tool_registry_lookup (AguiToolRegistry *self,
                           const char       *name)
{
  guint position;

  g_return_val_if_fail (AGUI_IS_TOOL_REGISTRY (self), NULL);

  if (name == NULL || !find (self, name, &position))
    return NULL;

  return g_ptr_array_index (self->tools, position);
}

/**
 * agui_tool_registry_to_json:
 * @self: a registry
 *
 * Returns: (transfer full): the AG-UI `Tool` objects declaring every tool
 */
JsonArray *
agui_tool_registry_to_json (AguiToolRegistry *self)
{
  JsonArray *array;

  g_return_val_if_fail (AGUI_IS_TOOL_REGISTRY (self), NULL);

  array = json_array_new ();
  for (guint i = 0; i < self->tools->len; i++)
    json_array_add_element (array, agui_tool_to_json (g_ptr_array_index (self->tools, i)));

  return array;
}
