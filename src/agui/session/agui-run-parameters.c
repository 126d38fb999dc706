/* agui-run-parameters.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-run-parameters.h"

/**
 * AguiRunParameters:
 *
 * What a caller adds to a run besides the thread's history: its own tools
 * (declared before the session's frontend tools), context entries,
 * forwarded properties, and a state to start from. Follow-up runs that
 * carry frontend tool answers reuse them unchanged.
 */
struct _AguiRunParameters
{
  gatomicrefcount  ref_count;
  JsonArray       *tools;
  JsonArray       *context;
  JsonNode        *forwarded_props;
  JsonNode        *state;
};

G_DEFINE_BOXED_TYPE (AguiRunParameters, agui_run_parameters,
                     agui_run_parameters_ref, agui_run_parameters_unref)

/**
 * agui_run_parameters_new:
 *
 * Returns: (transfer full): empty parameters
 */
AguiRunParameters *
agui_run_parameters_new (void)
{
  AguiRunParameters *self = g_new0 (AguiRunParameters, 1);

  g_atomic_ref_count_init (&self->ref_count);

  return self;
}

/**
 * agui_run_parameters_ref:
 * @self: parameters
 *
 * Returns: (transfer full): @self
 */
AguiRunParameters *
agui_run_parameters_ref (AguiRunParameters *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * agui_run_parameters_unref:
 * @self: (transfer full): parameters
 */
void
agui_run_parameters_unref (AguiRunParameters *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->tools, json_array_unref);
      g_clear_pointer (&self->context, json_array_unref);
      g_clear_pointer (&self->forwarded_props, json_node_unref);
      g_clear_pointer (&self->state, json_node_unref);
      g_free (self);
    }
}

static JsonArray *
copy_array (JsonArray *array)
{
  g_autoptr(JsonNode) node = NULL;
  JsonNode *copy;
  JsonArray *result;

  if (array == NULL)
    return NULL;

  node = json_node_init_array (json_node_alloc (), array);
  copy = _agui_json_node_copy_deep (node);
  result = json_array_ref (json_node_get_array (copy));
  json_node_unref (copy);

  return result;
}

/**
 * agui_run_parameters_set_tools:
 * @self: parameters
 * @tools: (nullable): AG-UI `Tool` objects
 *
 * Sets the caller's tools.
 */
void
agui_run_parameters_set_tools (AguiRunParameters *self,
                               JsonArray         *tools)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->tools, json_array_unref);
  self->tools = copy_array (tools);
}

/**
 * agui_run_parameters_get_tools:
 * @self: parameters
 *
 * Returns: (transfer none) (nullable): the caller's tools
 */
JsonArray *
agui_run_parameters_get_tools (AguiRunParameters *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tools;
}

/**
 * agui_run_parameters_set_context:
 * @self: parameters
 * @context: (nullable): AG-UI `Context` entries
 *
 * Sets the context entries.
 */
void
agui_run_parameters_set_context (AguiRunParameters *self,
                                 JsonArray         *context)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->context, json_array_unref);
  self->context = copy_array (context);
}

/**
 * agui_run_parameters_get_context:
 * @self: parameters
 *
 * Returns: (transfer none) (nullable): the context entries
 */
JsonArray *
agui_run_parameters_get_context (AguiRunParameters *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->context;
}

/**
 * agui_run_parameters_set_forwarded_props:
 * @self: parameters
 * @forwarded_props: (nullable): any JSON value but null
 *
 * Sets what is passed to the agent untouched.
 */
void
agui_run_parameters_set_forwarded_props (AguiRunParameters *self,
                                         JsonNode          *forwarded_props)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->forwarded_props, json_node_unref);
  if (forwarded_props != NULL && !JSON_NODE_HOLDS_NULL (forwarded_props))
    self->forwarded_props = _agui_json_node_copy_deep (forwarded_props);
}

/**
 * agui_run_parameters_get_forwarded_props:
 * @self: parameters
 *
 * Returns: (transfer none) (nullable): the forwarded properties
 */
JsonNode *
agui_run_parameters_get_forwarded_props (AguiRunParameters *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->forwarded_props;
}

/**
 * agui_run_parameters_set_state:
 * @self: parameters
 * @state: (nullable): the state the run starts from, instead of the thread's
 *
 * Sets the starting state.
 */
void
agui_run_parameters_set_state (AguiRunParameters *self,
                               JsonNode          *state)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->state, json_node_unref);
  if (state != NULL)
    self->state = _agui_json_node_copy_deep (state);
}

/**
 * agui_run_parameters_get_state:
 * @self: parameters
 *
 * Returns: (transfer none) (nullable): the starting state
 */
JsonNode *
agui_run_parameters_get_state (AguiRunParameters *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->state;
}
