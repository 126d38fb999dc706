/* agui-tool.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-tool.h"

/**
 * AguiTool:
 *
 * A frontend tool: something the agent may ask the desktop to do (read
 * the clock, copy to the clipboard). A tool has a name, a description and
 * a JSON Schema for its arguments, which are declared to the agent in
 * every run, and an asynchronous `execute` that answers a call with text.
 *
 * Subclass it and implement `execute_async`/`execute_finish` for tools
 * that take time or ask the person first; [ctor@Agui.Tool.new_simple]
 * wraps a function that answers at once.
 */
typedef struct
{
  char     *name;
  char     *description;
  JsonNode *parameters;
} AguiToolPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (AguiTool, agui_tool, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_PARAMETERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
agui_tool_finalize (GObject *object)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (AGUI_TOOL (object));

  g_clear_pointer (&priv->name, g_free);
  g_clear_pointer (&priv->description, g_free);
  g_clear_pointer (&priv->parameters, json_node_unref);

  G_OBJECT_CLASS (agui_tool_parent_class)->finalize (object);
}

static void
agui_tool_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (AGUI_TOOL (object));

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, priv->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, priv->description);
      break;

    case PROP_PARAMETERS:
      g_value_set_boxed (value, priv->parameters);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_tool_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (AGUI_TOOL (object));
  JsonNode *parameters;

  switch (prop_id)
    {
    case PROP_NAME:
      priv->name = g_value_dup_string (value);
      break;

    case PROP_DESCRIPTION:
      priv->description = g_value_dup_string (value);
      break;

    case PROP_PARAMETERS:
      parameters = g_value_get_boxed (value);
      priv->parameters = parameters ? _agui_json_node_copy_deep (parameters) : NULL;
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_tool_real_execute_async (AguiTool            *self,
                              JsonNode            *arguments,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, agui_tool_real_execute_async,
                           G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "The tool %s does not implement execute", agui_tool_get_name (self));
}

static char *
agui_tool_real_execute_finish (AguiTool      *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
agui_tool_class_init (AguiToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_tool_finalize;
  object_class->get_property = agui_tool_get_property;
  object_class->set_property = agui_tool_set_property;

  klass->execute_async = agui_tool_real_execute_async;
  klass->execute_finish = agui_tool_real_execute_finish;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiTool:parameters:
   *
   * The JSON Schema of the tool's arguments.
   */
  properties[PROP_PARAMETERS] =
    g_param_spec_boxed ("parameters", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_tool_init (AguiTool *self)
{
}

/* A tool backed by a function, for agui_tool_new_simple(). */

#define AGUI_TYPE_SIMPLE_TOOL (_agui_simple_tool_get_type ())
G_DECLARE_FINAL_TYPE (AguiSimpleTool, _agui_simple_tool, AGUI, SIMPLE_TOOL, AguiTool)

struct _AguiSimpleTool
{
  AguiTool        parent_instance;
  AguiToolFunc    func;
  gpointer        user_data;
  GDestroyNotify  destroy;
};

G_DEFINE_FINAL_TYPE (AguiSimpleTool, _agui_simple_tool, AGUI_TYPE_TOOL)

static void
_agui_simple_tool_finalize (GObject *object)
{
  AguiSimpleTool *self = AGUI_SIMPLE_TOOL (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);

  G_OBJECT_CLASS (_agui_simple_tool_parent_class)->finalize (object);
}

static void
_agui_simple_tool_execute_async (AguiTool            *tool,
                                JsonNode            *arguments,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  AguiSimpleTool *self = AGUI_SIMPLE_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;
  char *result;

  g_task_set_source_tag (task, _agui_simple_tool_execute_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  result = self->func (arguments, self->user_data, &error);
  if (result == NULL)
    g_task_return_error (task, error ? error : g_error_new_literal (AGUI_ERROR, AGUI_ERROR_FAILED,
                                                                      "The tool returned nothing"));
  else
    g_task_return_pointer (task, result, g_free);
}

static void
_agui_simple_tool_class_init (AguiSimpleToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AguiToolClass *tool_class = AGUI_TOOL_CLASS (klass);

  object_class->finalize = _agui_simple_tool_finalize;
  tool_class->execute_async = _agui_simple_tool_execute_async;
}

static void
_agui_simple_tool_init (AguiSimpleTool *self)
{
}

/**
 * agui_tool_new_simple:
 * @name: the tool's name, as the agent calls it
 * @description: what it does, for the agent
 * @parameters: (nullable): the JSON Schema of its arguments
 * @func: (scope notified): answers a call
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Returns: (transfer full): a tool that answers with @func
 */
AguiTool *
agui_tool_new_simple (const char     *name,
                      const char     *description,
                      JsonNode       *parameters,
                      AguiToolFunc    func,
                      gpointer        user_data,
                      GDestroyNotify  destroy)
{
  AguiSimpleTool *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (AGUI_TYPE_SIMPLE_TOOL,
                       "name", name,
                       "description", description ? description : "",
                       "parameters", parameters,
                       NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;

  return AGUI_TOOL (self);
}

/**
 * agui_tool_get_name:
 * @self: a tool
 *
 * Returns: the tool's name
 */
const char *
agui_tool_get_name (AguiTool *self)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_TOOL (self), NULL);

  return priv->name;
}

/**
 * agui_tool_get_description:
 * @self: a tool
 *
 * Returns: (nullable): what the tool does
 */
const char *
agui_tool_get_description (AguiTool *self)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_TOOL (self), NULL);

  return priv->description;
}

/**
 * agui_tool_get_parameters:
 * @self: a tool
 *
 * Returns: (transfer none) (nullable): the JSON Schema of the arguments
 */
JsonNode *
agui_tool_get_parameters (AguiTool *self)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (self);

  g_return_val_if_fail (AGUI_IS_TOOL (self), NULL);

  return priv->parameters;
}

/**
 * agui_tool_to_json:
 * @self: a tool
 *
 * Returns: (transfer full): the AG-UI `Tool` object that declares it
 */
JsonNode *
agui_tool_to_json (AguiTool *self)
{
  AguiToolPrivate *priv = agui_tool_get_instance_private (self);
  JsonObject *object;

  g_return_val_if_fail (AGUI_IS_TOOL (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "name", priv->name);
  json_object_set_string_member (object, "description", priv->description ? priv->description : "");
  if (priv->parameters != NULL)
    json_object_set_member (object, "parameters", _agui_json_node_copy_deep (priv->parameters));

  return _agui_json_node_new_object (object);
}

/**
 * agui_tool_execute_async:
 * @self: a tool
 * @arguments: (nullable): the call's arguments, or %NULL if they did not parse
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Answers a call.
 */
void
agui_tool_execute_async (AguiTool            *self,
                         JsonNode            *arguments,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_TOOL (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  AGUI_TOOL_GET_CLASS (self)->execute_async (self, arguments, cancellable, callback, user_data);
}

/**
 * agui_tool_execute_finish:
 * @self: a tool
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the answer as text
 */
char *
agui_tool_execute_finish (AguiTool      *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (AGUI_IS_TOOL (self), NULL);

  return AGUI_TOOL_GET_CLASS (self)->execute_finish (self, result, error);
}
