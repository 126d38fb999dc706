/* tandem-welcome-prompts.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-agents.h"
#include "tandem-welcome-prompts.h"

/**
 * TandemWelcomePrompts:
 *
 * Example prompts on the welcome page of a new conversation, one button
 * each, for an agent whose repertoire Tandem knows: the built-in demo
 * agent's. A button activates `win.send-prompt` with its prompt, so it
 * is sent as if typed. For any other agent nothing is shown: an AG-UI
 * agent does not say what it can do, and a guess would mislead.
 */

typedef struct
{
  const char *title;
  const char *prompt;
} Prompt;

/* The prompts stay in English: the demo agent chooses its answer by
 * English keywords ("archive", "long", "error", "dashboard"), and a
 * translated prompt would not show what its title promises. */
static const Prompt demo_prompts[] = {
  { N_("A Markdown answer"), "Hi! What can you show me?" },
  { N_("A tool call"), "What time is it on my computer?" },
  { N_("An approval"), "Please archive my old notes" },
  { N_("A long answer"), "Write me a long answer to scroll through" },
  { N_("An error"), "Show me what an error looks like" },
  { N_("A small dashboard"), "Show me a dashboard" },
};

struct _TandemWelcomePrompts
{
  GtkWidget     parent_instance;

  GtkWidget    *grid;
  const Prompt *prompts;
  guint         n_prompts;
};

G_DEFINE_FINAL_TYPE (TandemWelcomePrompts, tandem_welcome_prompts, GTK_TYPE_WIDGET)

static GtkWidget *
create_prompt_button (const Prompt *prompt)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *title = gtk_label_new (_(prompt->title));
  GtkWidget *text = gtk_label_new (prompt->prompt);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (text), 24);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (text, "dim-label");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), text);
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "card");
  gtk_widget_add_css_class (button, "welcome-prompt");
  gtk_widget_set_tooltip_text (button, prompt->prompt);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.send-prompt");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (prompt->prompt));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(prompt->title),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, prompt->prompt,
                                  -1);

  return button;
}

static void
tandem_welcome_prompts_dispose (GObject *object)
{
  TandemWelcomePrompts *self = TANDEM_WELCOME_PROMPTS (object);

  g_clear_pointer (&self->grid, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_welcome_prompts_parent_class)->dispose (object);
}

static void
tandem_welcome_prompts_class_init (TandemWelcomePromptsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_welcome_prompts_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "welcomeprompts");
}

static void
tandem_welcome_prompts_init (TandemWelcomePrompts *self)
{
  /* A grid, not a flow box: a flow box of wrapping labels inside a status
   * page never settles on a height in GTK 4.8, and relays itself out on
   * every frame, which starves the main loop's idle work */
  self->grid = gtk_grid_new ();
  gtk_grid_set_row_homogeneous (GTK_GRID (self->grid), TRUE);
  gtk_grid_set_column_homogeneous (GTK_GRID (self->grid), TRUE);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 12);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_widget_set_halign (self->grid, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->grid),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Example Prompts"),
                                  -1);
  gtk_widget_set_parent (self->grid, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tandem_welcome_prompts_new (void)
{
  return g_object_new (TANDEM_TYPE_WELCOME_PROMPTS, NULL);
}

/**
 * tandem_welcome_prompts_set_agent:
 * @self: the prompts
 * @agent_id: (nullable): the agent of the new conversation, %NULL for the demo agent
 *
 * Shows the examples for that agent, or nothing when Tandem does not
 * know what it can do.
 */
void
tandem_welcome_prompts_set_agent (TandemWelcomePrompts *self,
                                  const char           *agent_id)
{
  gboolean demo = agent_id == NULL || g_strcmp0 (agent_id, TANDEM_AGENTS_DEMO_ID) == 0;
  const Prompt *prompts = demo ? demo_prompts : NULL;
  GtkWidget *child;

  g_return_if_fail (TANDEM_IS_WELCOME_PROMPTS (self));

  if (prompts == self->prompts)
    return;

  while ((child = gtk_widget_get_first_child (self->grid)) != NULL)
    gtk_grid_remove (GTK_GRID (self->grid), child);
  self->prompts = prompts;
  self->n_prompts = demo ? G_N_ELEMENTS (demo_prompts) : 0;
  for (guint i = 0; i < self->n_prompts; i++)
    gtk_grid_attach (GTK_GRID (self->grid), create_prompt_button (&self->prompts[i]), i % 3, i / 3, 1, 1);

  gtk_widget_set_visible (GTK_WIDGET (self), self->n_prompts > 0);
}

guint
tandem_welcome_prompts_get_n_prompts (TandemWelcomePrompts *self)
{
  g_return_val_if_fail (TANDEM_IS_WELCOME_PROMPTS (self), 0);

  return self->n_prompts;
}

/**
 * tandem_welcome_prompts_get_prompt:
 * @self: the prompts
 * @index: which one
 *
 * Returns: the text the @index-th button sends
 */
const char *
tandem_welcome_prompts_get_prompt (TandemWelcomePrompts *self,
                                   guint                 index)
{
  g_return_val_if_fail (TANDEM_IS_WELCOME_PROMPTS (self), NULL);
  g_return_val_if_fail (index < self->n_prompts, NULL);

  return self->prompts[index].prompt;
}
