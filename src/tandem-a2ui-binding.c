/* tandem-a2ui-binding.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-a2ui-binding-private.h"
#include "tandem-a2ui-values.h"

/* The layer under the A2UI view and its component families: a binding
 * ties one widget to its component, and the builder is what a family's
 * build function is given. The view fills in the builder (its surface,
 * its cancellable, how to build a child and press a button), so the
 * families never call the view by name. */

/* json-glib's *_with_default() getters are critical on a mistyped
 * member, and agent data is mistyped at will. */
const char *
_tandem_a2ui_string_member (JsonObject *object,
                            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* Bindings */

void
_tandem_a2ui_binding_free (TandemA2uiBinding *binding)
{
  /* A modal's window may outlive the view's bindings: what is left of
   * it calls back into nothing. */
  for (guint i = 0; i < binding->sources->len; i++)
    g_signal_handlers_disconnect_by_data (binding->sources->pdata[i], binding);
  g_ptr_array_unref (binding->sources);
  g_clear_object (&binding->component);
  g_clear_object (&binding->widget);
  g_clear_pointer (&binding->choices, g_ptr_array_unref);
  g_free (binding->loaded_url);
  g_free (binding->scope);
  g_free (binding);
}

/**
 * _tandem_a2ui_binding_new:
 * @widget: the widget drawn for @component
 * @component: the component
 * @scope: (nullable): the data path a template child resolves against
 * @refresh: (nullable): reads what @widget shows from the surface
 *
 * A binding not yet in a view: fill in what its kind keeps, then give
 * it to _tandem_a2ui_builder_add_binding().
 *
 * Returns: (transfer full): a new binding
 */
TandemA2uiBinding *
_tandem_a2ui_binding_new (GtkWidget             *widget,
                          AguiA2uiComponent     *component,
                          const char            *scope,
                          TandemA2uiRefreshFunc  refresh)
{
  TandemA2uiBinding *binding;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (AGUI_IS_A2UI_COMPONENT (component), NULL);

  binding = g_new0 (TandemA2uiBinding, 1);
  /* A modal's widgets may go before the view: keep them alive. */
  binding->widget = g_object_ref (widget);
  binding->component = g_object_ref (component);
  binding->scope = g_strdup (scope);
  binding->refresh = refresh;
  binding->sources = g_ptr_array_new_with_free_func (g_object_unref);

  return binding;
}

/**
 * _tandem_a2ui_binding_connect:
 * @binding: a binding
 * @instance: a widget of the binding's, or an object of one
 * @signal: a signal of @instance
 * @callback: called with @binding as its data
 *
 * Connects @callback for as long as the binding lasts.
 */
void
_tandem_a2ui_binding_connect (TandemA2uiBinding *binding,
                              gpointer           instance,
                              const char        *signal,
                              GCallback          callback)
{
  g_return_if_fail (binding != NULL);
  g_return_if_fail (G_IS_OBJECT (instance));

  g_ptr_array_add (binding->sources, g_object_ref (instance));
  g_signal_connect (instance, signal, callback, binding);
}

AguiA2uiSurface *
_tandem_a2ui_binding_get_surface (TandemA2uiBinding *binding)
{
  g_return_val_if_fail (binding != NULL && binding->builder != NULL, NULL);

  return binding->builder->surface;
}

gboolean
_tandem_a2ui_binding_is_refreshing (TandemA2uiBinding *binding)
{
  g_return_val_if_fail (binding != NULL && binding->builder != NULL, FALSE);

  return binding->builder->refreshing;
}

/* Returns: (transfer full): the text @property resolves to, "" for none */
char *
_tandem_a2ui_binding_dup_text (TandemA2uiBinding *binding,
                               const char        *property)
{
  char *text;

  g_return_val_if_fail (binding != NULL && binding->builder != NULL, NULL);

  text = agui_a2ui_surface_resolve_string (binding->builder->surface,
                                           agui_a2ui_component_get_property (binding->component, property),
                                           binding->scope);

  return text ? text : g_strdup ("");
}

TandemA2uiBinding *
_tandem_a2ui_builder_add_binding (TandemA2uiBuilder *self,
                                  TandemA2uiBinding *binding)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (binding != NULL && binding->builder == NULL, NULL);

  binding->builder = self;
  g_ptr_array_add (self->bindings, binding);

  if (binding->refresh != NULL)
    {
      self->refreshing = TRUE;
      binding->refresh (binding);
      self->refreshing = FALSE;
    }

  return binding;
}

/* Returns: (transfer none): the binding, the builder's */
TandemA2uiBinding *
_tandem_a2ui_builder_bind (TandemA2uiBuilder     *self,
                           GtkWidget             *widget,
                           AguiA2uiComponent     *component,
                           const char            *scope,
                           TandemA2uiRefreshFunc  refresh)
{
  return _tandem_a2ui_builder_add_binding (self, _tandem_a2ui_binding_new (widget, component, scope, refresh));
}

GtkWidget *
_tandem_a2ui_builder_build (TandemA2uiBuilder *self,
                            AguiA2uiComponent *component,
                            const char        *scope,
                            guint              depth)
{
  g_return_val_if_fail (self != NULL && self->build != NULL, NULL);

  return self->build (self, component, scope, depth);
}

void
_tandem_a2ui_builder_press (TandemA2uiBuilder *self,
                            AguiA2uiComponent *component,
                            const char        *scope)
{
  g_return_if_fail (self != NULL && self->press != NULL);

  self->press (self, component, scope);
}

/* What the person set in @binding's widget goes to the data model path
 * @property is bound to; a refresh's own changes go nowhere. */
void
_tandem_a2ui_binding_write_value (TandemA2uiBinding *binding,
                                  const char        *property,
                                  JsonNode          *value)
{
  TandemA2uiBuilder *self;
  AguiA2uiComponent *component;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (binding != NULL && binding->builder != NULL);

  self = binding->builder;
  component = binding->component;
  if (self->refreshing)
    return;

  path = agui_a2ui_surface_dup_bound_path (self->surface, agui_a2ui_component_get_property (component, property),
                                           binding->scope);
  if (path == NULL)
    return;

  if (!agui_a2ui_surface_set_value (self->surface, path, value, &error))
    g_warning ("A2UI component '%s' could not store its value: %s",
               agui_a2ui_component_get_id (component), error->message);
  else
    {
      if (self->value_set != NULL)
        self->value_set (self);
      tandem_a2ui_values_note (self->surface, path, value);
    }
}
