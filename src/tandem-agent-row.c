/* tandem-agent-row.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-agent-row.h"

/* A row of the agent list: the agent, and the check button that makes it
 * the one new conversations use. */

struct _TandemAgentRow
{
  AdwActionRow    parent_instance;
  TandemAgent    *agent;
  TandemAgents   *agents;
  GtkCheckButton *group;
  GtkCheckButton *check;
};

G_DEFINE_FINAL_TYPE (TandemAgentRow, tandem_agent_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_AGENT,
  PROP_AGENTS,
  PROP_GROUP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
on_check_toggled_cb (GtkCheckButton *check,
                     TandemAgentRow *row)
{
  if (!gtk_check_button_get_active (check))
    return;

  /* Not a row being taken down */
  if (row->agents == NULL || gtk_widget_get_root (GTK_WIDGET (row)) == NULL)
    return;

  tandem_agents_set_active_id (row->agents, tandem_agent_get_id (row->agent));
}

static void
on_active_id_changed_cb (TandemAgentRow *self)
{
  const char *active_id = tandem_agents_get_active_id (self->agents);

  if (g_strcmp0 (tandem_agent_get_id (self->agent), active_id) == 0)
    gtk_check_button_set_active (self->check, TRUE);
}

static GtkWidget *
create_icon_button (const char *icon_name,
                    const char *tooltip,
                    const char *accessible_label,
                    const char *action_name,
                    const char *id)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, tooltip);
  tandem_accessible_set_label (button, accessible_label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);

  return button;
}

static void
tandem_agent_row_constructed (GObject *object)
{
  TandemAgentRow *row = TANDEM_AGENT_ROW (object);
  TandemAgent *agent = row->agent;
  const char *id;
  const char *name;
  g_autofree char *use_label = NULL;

  G_OBJECT_CLASS (tandem_agent_row_parent_class)->constructed (object);

  g_assert (TANDEM_IS_AGENT (row->agent));
  g_assert (TANDEM_IS_AGENTS (row->agents));

  id = tandem_agent_get_id (agent);
  name = tandem_agent_get_name (agent);
  use_label = g_strdup_printf (_("Use “%s” for new conversations"), name);

  /* Names and URLs are the person's text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);

  row->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  gtk_widget_set_valign (GTK_WIDGET (row->check), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->check), _("Use for new conversations"));
  tandem_accessible_set_label (GTK_WIDGET (row->check), use_label);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), GTK_WIDGET (row->check));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), GTK_WIDGET (row->check));
  /* The row makes its title name the check box too, which would read
   * "Use “Demo” for new conversations Demo": the label above says it all */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (row->check), GTK_ACCESSIBLE_RELATION_LABELLED_BY);

  if (tandem_agent_is_demo (agent))
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("Runs inside Tandem, with no server or account; good for trying things out"));
    }
  else
    {
      g_autofree char *edit_label = g_strdup_printf (_("Edit “%s”"), name);
      g_autofree char *remove_label = g_strdup_printf (_("Remove “%s”"), name);

      if (tandem_agent_is_openai (agent))
        {
          /* Translators: a model's name on a server's base URL, such as
           * "llama3.2 on http://localhost:11434/v1" */
          g_autofree char *subtitle = g_strdup_printf (_("%s on %s"), tandem_agent_get_model (agent),
                                                       tandem_agent_get_url (agent));

          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
        }
      else
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), tandem_agent_get_url (agent));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 create_icon_button ("document-edit-symbolic", _("Edit"),
                                                     edit_label, "agents.edit", id));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 create_icon_button ("user-trash-symbolic", _("Remove"),
                                                     remove_label, "agents.remove", id));
    }

  if (row->group != NULL)
    gtk_check_button_set_group (row->check, row->group);
  g_clear_object (&row->group);

  gtk_check_button_set_active (row->check,
                               g_strcmp0 (id, tandem_agents_get_active_id (row->agents)) == 0);
  g_signal_connect (row->check, "toggled", G_CALLBACK (on_check_toggled_cb), row);
  g_signal_connect_object (row->agents, "notify::active-id",
                           G_CALLBACK (on_active_id_changed_cb), row,
                           G_CONNECT_SWAPPED);
}

static void
tandem_agent_row_dispose (GObject *object)
{
  TandemAgentRow *self = TANDEM_AGENT_ROW (object);

  if (self->agents != NULL)
    g_signal_handlers_disconnect_by_data (self->agents, self);
  g_clear_object (&self->agent);
  g_clear_object (&self->agents);
  g_clear_object (&self->group);

  G_OBJECT_CLASS (tandem_agent_row_parent_class)->dispose (object);
}

static void
tandem_agent_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TandemAgentRow *self = TANDEM_AGENT_ROW (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      g_value_set_object (value, self->agent);
      break;

    case PROP_AGENTS:
      g_value_set_object (value, self->agents);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TandemAgentRow *self = TANDEM_AGENT_ROW (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      self->agent = g_value_dup_object (value);
      break;

    case PROP_AGENTS:
      self->agents = g_value_dup_object (value);
      break;

    case PROP_GROUP:
      self->group = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_row_class_init (TandemAgentRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = tandem_agent_row_constructed;
  object_class->dispose = tandem_agent_row_dispose;
  object_class->get_property = tandem_agent_row_get_property;
  object_class->set_property = tandem_agent_row_set_property;

  properties[PROP_AGENT] =
    g_param_spec_object ("agent", NULL, NULL, TANDEM_TYPE_AGENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemAgentRow:agents:
   *
   * The agents, whose active one the row's check button shows and sets.
   */
  properties[PROP_AGENTS] =
    g_param_spec_object ("agents", NULL, NULL, TANDEM_TYPE_AGENTS,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemAgentRow:group:
   *
   * A check button the row's joins, so that it is one of a group of
   * radio buttons.
   */
  properties[PROP_GROUP] =
    g_param_spec_object ("group", NULL, NULL, GTK_TYPE_CHECK_BUTTON,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tandem_agent_row_init (TandemAgentRow *self)
{
}

/**
 * tandem_agent_row_new:
 * @agent: the agent the row shows
 * @agents: the agents, whose active one the row's check button shows and sets
 * @group: (nullable): a check button the row's joins
 *
 * Returns: (transfer floating): a row of the agent list
 */
GtkWidget *
tandem_agent_row_new (TandemAgent    *agent,
                      TandemAgents   *agents,
                      GtkCheckButton *group)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (agent), NULL);
  g_return_val_if_fail (TANDEM_IS_AGENTS (agents), NULL);
  g_return_val_if_fail (group == NULL || GTK_IS_CHECK_BUTTON (group), NULL);

  return g_object_new (TANDEM_TYPE_AGENT_ROW,
                       "agent", agent,
                       "agents", agents,
                       "group", group,
                       NULL);
}
