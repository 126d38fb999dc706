/* tandem-a2ui-layout.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "tandem-a2ui-binding-private.h"
#include "tandem-accessible.h"

/* The components that hold others: Row, Column, List, Card, Tabs, and
 * Modal (a button that opens its content in a window of its own). */

static GtkWidget *
build_box (TandemA2uiBuilder     *self,
           AguiA2uiComponent     *component,
           const char            *scope,
           guint                  depth,
           GtkOrientation         orientation)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  const char *justify = agui_a2ui_component_get_string (component, "justify");
  const char *align = agui_a2ui_component_get_string (component, "align");
  gboolean spread = justify != NULL && g_str_has_prefix (justify, "space");
  GtkWidget *box = gtk_box_new (orientation, orientation == GTK_ORIENTATION_HORIZONTAL ? 12 : 6);
  GtkAlign main = GTK_ALIGN_FILL;
  GtkAlign cross = GTK_ALIGN_FILL;

  if (g_strcmp0 (justify, "center") == 0)
    main = GTK_ALIGN_CENTER;
  else if (g_strcmp0 (justify, "end") == 0)
    main = GTK_ALIGN_END;
  else if (orientation == GTK_ORIENTATION_HORIZONTAL && !spread)
    main = GTK_ALIGN_START;

  if (g_strcmp0 (align, "center") == 0)
    cross = GTK_ALIGN_CENTER;
  else if (g_strcmp0 (align, "end") == 0)
    cross = GTK_ALIGN_END;
  else if (g_strcmp0 (align, "start") == 0)
    cross = GTK_ALIGN_START;

  gtk_box_set_homogeneous (GTK_BOX (box), spread);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    gtk_widget_set_halign (box, main);
  else
    gtk_widget_set_valign (box, main);

  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = _tandem_a2ui_builder_build (self, children->pdata[i], scopes->pdata[i], depth + 1);

      if (child == NULL)
        continue;
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          gtk_widget_set_valign (child, cross);
          if (spread)
            gtk_widget_set_hexpand (child, TRUE);
        }
      else if (cross != GTK_ALIGN_FILL)
        {
          gtk_widget_set_halign (child, cross);
          if (GTK_IS_LABEL (child))
            gtk_label_set_xalign (GTK_LABEL (child), cross == GTK_ALIGN_CENTER ? 0.5 : cross == GTK_ALIGN_END ? 1 : 0);
        }
      gtk_box_append (GTK_BOX (box), child);
    }

  return box;
}

static GtkWidget *
build_row (TandemA2uiBuilder *self,
           AguiA2uiComponent *component,
           const char        *scope,
           guint              depth)
{
  return build_box (self, component, scope, depth, GTK_ORIENTATION_HORIZONTAL);
}

static GtkWidget *
build_column (TandemA2uiBuilder *self,
              AguiA2uiComponent *component,
              const char        *scope,
              guint              depth)
{
  return build_box (self, component, scope, depth, GTK_ORIENTATION_VERTICAL);
}

static GtkWidget *
build_list (TandemA2uiBuilder *self,
            AguiA2uiComponent *component,
            const char        *scope,
            guint              depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = NULL;
  GtkWidget *list;

  if (g_strcmp0 (agui_a2ui_component_get_string (component, "direction"), "horizontal") == 0)
    return build_row (self, component, scope, depth);

  children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");

  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = _tandem_a2ui_builder_build (self, children->pdata[i], scopes->pdata[i], depth + 1);
      GtkWidget *row;

      if (child == NULL)
        continue;
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_margin_top (child, 8);
      gtk_widget_set_margin_bottom (child, 8);
      gtk_widget_set_margin_start (child, 12);
      gtk_widget_set_margin_end (child, 12);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), child);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }

  return list;
}

static GtkWidget *
build_card (TandemA2uiBuilder *self,
            AguiA2uiComponent *component,
            const char        *scope,
            guint              depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "a2ui-card");
  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = _tandem_a2ui_builder_build (self, children->pdata[i], scopes->pdata[i], depth + 1);

      if (child != NULL)
        gtk_box_append (GTK_BOX (card), child);
    }

  return card;
}

static void
refresh_tab_title (TandemA2uiBinding *binding)
{
  JsonNode *tabs = agui_a2ui_component_get_property (binding->component, "tabs");
  guint index = binding->tab_index;
  GtkStackPage *page = gtk_stack_get_page (GTK_STACK (gtk_widget_get_parent (binding->widget)), binding->widget);
  g_autofree char *title = NULL;
  JsonNode *tab;

  if (page == NULL || tabs == NULL || !JSON_NODE_HOLDS_ARRAY (tabs) ||
      index >= json_array_get_length (json_node_get_array (tabs)))
    return;

  tab = json_array_get_element (json_node_get_array (tabs), index);
  if (JSON_NODE_HOLDS_OBJECT (tab))
    title = agui_a2ui_surface_resolve_string (_tandem_a2ui_binding_get_surface (binding),
                                              json_object_get_member (json_node_get_object (tab), "title"),
                                              binding->scope);
  gtk_stack_page_set_title (page, title ? title : "");
}

static GtkWidget *
build_tabs (TandemA2uiBuilder *self,
            AguiA2uiComponent *component,
            const char        *scope,
            guint              depth)
{
  JsonNode *tabs = agui_a2ui_component_get_property (component, "tabs");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();
  JsonArray *array;

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  gtk_stack_set_vhomogeneous (GTK_STACK (stack), FALSE);
  gtk_box_append (GTK_BOX (box), switcher);
  gtk_box_append (GTK_BOX (box), stack);

  if (tabs == NULL || !JSON_NODE_HOLDS_ARRAY (tabs))
    return box;

  array = json_node_get_array (tabs);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *tab = json_array_get_element (array, i);
      AguiA2uiComponent *child_component;
      TandemA2uiBinding *binding;
      GtkWidget *child;
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (tab))
        continue;
      id = _tandem_a2ui_string_member (json_node_get_object (tab), "child");
      if ((child_component = agui_a2ui_surface_get_component (self->surface, id)) == NULL ||
          (child = _tandem_a2ui_builder_build (self, child_component, scope, depth + 1)) == NULL)
        continue;

      gtk_stack_add_child (GTK_STACK (stack), child);
      binding = _tandem_a2ui_binding_new (child, component, scope, refresh_tab_title);
      binding->tab_index = i;
      _tandem_a2ui_builder_add_binding (self, binding);
    }

  return box;
}

typedef struct
{
  TandemA2uiBuilder     *self;
  AguiA2uiComponent     *component;
  char                  *scope;
} ModalData;

static void
modal_data_free (gpointer data)
{
  ModalData *modal = data;

  g_clear_object (&modal->component);
  g_free (modal->scope);
  g_free (modal);
}

static void
on_modal_trigger_clicked_cb (GtkButton *button,
                             ModalData *modal)
{
  TandemA2uiBuilder *self = modal->self;
  AguiA2uiComponent *content;
  GtkWidget *window;
  GtkWidget *header;
  GtkWidget *box;
  GtkWidget *child;
  GtkRoot *root;
  JsonNode *id = agui_a2ui_component_get_property (modal->component, "content");

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING ||
      (content = agui_a2ui_surface_get_component (self->surface, json_node_get_string (id))) == NULL)
    return;

  /* Non-modal: the conversation stays usable while it is open. */
  window = adw_window_new ();
  root = gtk_widget_get_root (self->widget);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  gtk_window_set_modal (GTK_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 420, -1);
  gtk_window_set_title (GTK_WINDOW (window), gtk_widget_get_tooltip_text (GTK_WIDGET (button)));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  child = _tandem_a2ui_builder_build (self, content, modal->scope, 1);
  if (child != NULL)
    {
      gtk_widget_set_margin_top (child, 12);
      gtk_widget_set_margin_bottom (child, 18);
      gtk_widget_set_margin_start (child, 18);
      gtk_widget_set_margin_end (child, 18);
      gtk_box_append (GTK_BOX (box), child);
    }
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
}

static GtkWidget *
build_modal (TandemA2uiBuilder *self,
             AguiA2uiComponent *component,
             const char        *scope,
             guint              depth)
{
  JsonNode *trigger_id = agui_a2ui_component_get_property (component, "trigger");
  AguiA2uiComponent *trigger = NULL;
  GtkWidget *button = gtk_button_new ();
  ModalData *modal;

  if (trigger_id != NULL && JSON_NODE_HOLDS_VALUE (trigger_id) && json_node_get_value_type (trigger_id) == G_TYPE_STRING)
    trigger = agui_a2ui_surface_get_component (self->surface, json_node_get_string (trigger_id));

  /* A trigger that is a Button lends its label; the click opens the dialog. */
  if (trigger != NULL && agui_a2ui_component_get_kind (trigger) == AGUI_A2UI_COMPONENT_BUTTON)
    {
      JsonNode *label_id = agui_a2ui_component_get_property (trigger, "child");

      if (label_id != NULL && JSON_NODE_HOLDS_VALUE (label_id) && json_node_get_value_type (label_id) == G_TYPE_STRING)
        trigger = agui_a2ui_surface_get_component (self->surface, json_node_get_string (label_id));
    }

  if (trigger != NULL)
    {
      GtkWidget *child = _tandem_a2ui_builder_build (self, trigger, scope, depth + 1);

      if (child != NULL)
        {
          gtk_button_set_child (GTK_BUTTON (button), child);
          tandem_accessible_label_by_content (button, child);
        }
    }
  if (GTK_IS_LABEL (gtk_button_get_child (GTK_BUTTON (button))))
    gtk_widget_set_tooltip_text (button, gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)))));
  gtk_widget_set_halign (button, GTK_ALIGN_START);

  modal = g_new0 (ModalData, 1);
  modal->self = self;
  modal->component = g_object_ref (component);
  modal->scope = g_strdup (scope);
  g_signal_connect_data (button, "clicked", G_CALLBACK (on_modal_trigger_clicked_cb), modal,
                         (GClosureNotify) (void (*) (void)) modal_data_free, 0);

  return button;
}

TandemA2uiBuildFunc
_tandem_a2ui_layout_builder (AguiA2uiComponentKind kind)
{
  static const TandemA2uiBuildFunc builders[] = {
    [AGUI_A2UI_COMPONENT_ROW]    = build_row,
    [AGUI_A2UI_COMPONENT_COLUMN] = build_column,
    [AGUI_A2UI_COMPONENT_LIST]   = build_list,
    [AGUI_A2UI_COMPONENT_CARD]   = build_card,
    [AGUI_A2UI_COMPONENT_TABS]   = build_tabs,
    [AGUI_A2UI_COMPONENT_MODAL]  = build_modal,
  };

  return (guint) kind < G_N_ELEMENTS (builders) ? builders[kind] : NULL;
}
