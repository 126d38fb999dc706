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

/* The demo agent chooses its answer by keywords, which it knows in
 * English and German ("archive"/"archiviere", "long"/"lange",
 * "error"/"Fehler", "dashboard"/"Übersicht"): a translated prompt keeps
 * one of them, or it would not show what its title promises. */
static const Prompt demo_prompts[] = {
  { N_("A Markdown answer"), N_("Hi! What can you show me?") },
  { N_("A tool call"), N_("What time is it on my computer?") },
  /* Translators: keep the word "archive" or its German form "archiviere":
   * the demo agent asks for approval when it sees one of them */
  { N_("An approval"), N_("Please archive my old notes") },
  /* Translators: keep the word "long" or its German form "lange": the
   * demo agent writes a long answer when it sees one of them */
  { N_("A long answer"), N_("Write me a long answer to scroll through") },
  /* Translators: keep the word "error" or its German form "Fehler": the
   * demo agent fails on purpose when it sees one of them */
  { N_("An error"), N_("Show me what an error looks like") },
  /* Translators: keep the word "dashboard" or its German form
   * "Übersicht": the demo agent draws one when it sees one of them */
  { N_("A small dashboard"), N_("Show me a dashboard") },
};

struct _TandemWelcomePrompts
{
  GtkWidget     parent_instance;

  const Prompt *prompts;
  guint         n_prompts;
};

G_DEFINE_FINAL_TYPE (TandemWelcomePrompts, tandem_welcome_prompts, GTK_TYPE_WIDGET)

static GtkWidget *
create_prompt_button (const Prompt *prompt)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  const char *prompt_text = _(prompt->prompt);
  GtkWidget *title = gtk_label_new (_(prompt->title));
  GtkWidget *text = gtk_label_new (prompt_text);

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
  gtk_widget_set_tooltip_text (button, prompt_text);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.send-prompt");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (prompt_text));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(prompt->title),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, prompt_text,
                                  -1);

  return button;
}

static void
tandem_welcome_prompts_dispose (GObject *object)
{
  TandemWelcomePrompts *self = TANDEM_WELCOME_PROMPTS (object);

  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tandem_welcome_prompts_parent_class)->dispose (object);
}

#define SPACING     12
#define MAX_COLUMNS 3

/* The widest minimum and natural width of the buttons: the columns are
 * all as wide as the widest button. */
static void
measure_column (TandemWelcomePrompts *self,
                int                  *minimum,
                int                  *natural)
{
  *minimum = 0;
  *natural = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min, child_nat;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, &child_nat, NULL, NULL);
      *minimum = MAX (*minimum, child_min);
      *natural = MAX (*natural, child_nat);
    }
}

/* As many columns as fit @width at their natural width, three at most,
 * one when even that does not fit: a narrow window stacks the examples
 * instead of being held wide by them. */
static guint
columns_for_width (TandemWelcomePrompts *self,
                   int                   width,
                   int                  *column_width)
{
  int minimum, natural;
  guint columns;

  measure_column (self, &minimum, &natural);
  for (columns = MIN (MAX_COLUMNS, MAX (self->n_prompts, 1)); columns > 1; columns--)
    if ((int) columns * natural + ((int) columns - 1) * SPACING <= width)
      break;

  *column_width = MAX (minimum, MIN (natural, (width - ((int) columns - 1) * SPACING) / (int) columns));

  return columns;
}

static int
row_height (TandemWelcomePrompts *self,
            int                   column_width)
{
  int height = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min, child_nat;

      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, column_width, &child_min, &child_nat, NULL, NULL);
      height = MAX (height, child_nat);
    }

  return height;
}

static void
tandem_welcome_prompts_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  TandemWelcomePrompts *self = TANDEM_WELCOME_PROMPTS (widget);

  if (self->n_prompts == 0)
    {
      *minimum = *natural = 0;
      return;
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int column_min, column_nat;
      int columns = MIN (MAX_COLUMNS, (int) self->n_prompts);

      measure_column (self, &column_min, &column_nat);
      *minimum = column_min;
      *natural = columns * column_nat + (columns - 1) * SPACING;
    }
  else
    {
      int column_width;
      guint columns = columns_for_width (self, for_size < 0 ? G_MAXINT / 4 : for_size, &column_width);
      int rows = (int) ((self->n_prompts + columns - 1) / columns);

      *minimum = *natural = rows * row_height (self, column_width) + (rows - 1) * SPACING;
    }
}

static void
tandem_welcome_prompts_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  TandemWelcomePrompts *self = TANDEM_WELCOME_PROMPTS (widget);
  int column_width;
  guint columns;
  int cell_height;
  int x0;
  guint i = 0;

  if (self->n_prompts == 0)
    return;

  columns = columns_for_width (self, width, &column_width);
  cell_height = row_height (self, column_width);
  x0 = MAX (0, (width - ((int) columns * column_width + ((int) columns - 1) * SPACING)) / 2);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child), i++)
    {
      GtkAllocation allocation = {
        x0 + (int) (i % columns) * (column_width + SPACING),
        (int) (i / columns) * (cell_height + SPACING),
        column_width,
        cell_height,
      };

      gtk_widget_size_allocate (child, &allocation, -1);
    }
}

static GtkSizeRequestMode
tandem_welcome_prompts_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tandem_welcome_prompts_class_init (TandemWelcomePromptsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_welcome_prompts_dispose;

  widget_class->measure = tandem_welcome_prompts_measure;
  widget_class->size_allocate = tandem_welcome_prompts_size_allocate;
  widget_class->get_request_mode = tandem_welcome_prompts_get_request_mode;
  gtk_widget_class_set_css_name (widget_class, "welcomeprompts");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tandem_welcome_prompts_init (TandemWelcomePrompts *self)
{
  /* Laid out here, not by a flow box: a flow box of wrapping labels
   * inside a status page never settles on a height in GTK 4.8, and
   * relays itself out on every frame, which starves the main loop's
   * idle work; nor by a grid of three columns, which holds the window
   * 640 pixels wide. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Example Prompts"),
                                  -1);
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

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->prompts = prompts;
  self->n_prompts = demo ? G_N_ELEMENTS (demo_prompts) : 0;
  for (guint i = 0; i < self->n_prompts; i++)
    gtk_widget_set_parent (create_prompt_button (&self->prompts[i]), GTK_WIDGET (self));

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
