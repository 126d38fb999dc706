/* tandem-accessible.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tandem-accessible.h"

/*
 * What a screen reader is told, where GTK 4.8 tells it wrong or nothing.
 *
 * GTK 4.8 names a button with a mnemonic twice: gtk_button_set_label()
 * sets the accessible label to the raw text ("_Deny"), and the label
 * inside, whose mnemonic widget the button is, adds a labelled-by
 * relation that names it again ("Deny"); the two run together as "_Deny
 * Deny". The same comes with every such button libadwaita makes (a
 * message dialog's responses). An expander is named by nothing at all
 * ("GtkExpander"), nor a drop-down's inner button ("GtkToggleButton"),
 * nor a password entry's peek icon ("GtkImage"). tandem_accessible_init() mends every widget of the
 * kind as it is first shown, so that no button has to remember it.
 */

#define MENDED_KEY "tandem-accessible-mended"

static void
mend_button (GtkButton *button)
{
  GtkWidget *child = gtk_button_get_child (button);

  /* The label inside names the button, without its underline */
  if (gtk_button_get_use_underline (button) && gtk_button_get_label (button) != NULL &&
      GTK_IS_LABEL (child) && gtk_label_get_mnemonic_widget (GTK_LABEL (child)) == GTK_WIDGET (button))
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

static void
mend_expander (GtkExpander *expander)
{
  GtkWidget *label = gtk_expander_get_label_widget (expander);

  /* One with a label of its own words; a custom header is named by
   * whoever made it */
  if (GTK_IS_LABEL (label))
    tandem_accessible_set_label (GTK_WIDGET (expander), gtk_label_get_text (GTK_LABEL (label)));
}

/* A password entry's peek icon works as a button, named by nothing */
static void
mend_peek_icon (GtkImage *icon)
{
  const char *name = gtk_image_get_icon_name (icon);

  if (g_strcmp0 (name, "view-reveal-symbolic") == 0)
    tandem_accessible_set_label (GTK_WIDGET (icon), _("Show Text"));
  else if (g_strcmp0 (name, "view-conceal-symbolic") == 0)
    tandem_accessible_set_label (GTK_WIDGET (icon), _("Hide Text"));
}

static gboolean
on_widget_map_hook (GSignalInvocationHint *hint,
                    guint                  n_params,
                    const GValue          *params,
                    gpointer               user_data)
{
  GObject *object = g_value_get_object (&params[0]);
  GtkWidget *parent;

  if (g_object_get_data (object, MENDED_KEY) != NULL)
    return TRUE;

  if (GTK_IS_BUTTON (object))
    {
      g_object_set_data (object, MENDED_KEY, GINT_TO_POINTER (TRUE));
      g_signal_connect (object, "notify::label", G_CALLBACK (mend_button), NULL);
      g_signal_connect (object, "notify::use-underline", G_CALLBACK (mend_button), NULL);
      mend_button (GTK_BUTTON (object));

      /* Named as the drop-down it opens is */
      parent = gtk_widget_get_parent (GTK_WIDGET (object));
      if (GTK_IS_TOGGLE_BUTTON (object) && GTK_IS_DROP_DOWN (parent))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (object),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, parent, NULL,
                                        -1);
    }
  else if (GTK_IS_IMAGE (object) &&
           gtk_widget_get_ancestor (GTK_WIDGET (object), ADW_TYPE_PASSWORD_ENTRY_ROW) != NULL)
    {
      g_object_set_data (object, MENDED_KEY, GINT_TO_POINTER (TRUE));
      g_signal_connect (object, "notify::icon-name", G_CALLBACK (mend_peek_icon), NULL);
      mend_peek_icon (GTK_IMAGE (object));
    }
  else if (GTK_IS_EXPANDER (object))
    {
      g_object_set_data (object, MENDED_KEY, GINT_TO_POINTER (TRUE));
      g_signal_connect (object, "notify::label", G_CALLBACK (mend_expander), NULL);
      mend_expander (GTK_EXPANDER (object));
    }

  return TRUE;
}

/**
 * tandem_accessible_init:
 *
 * Mends, from now on, the accessible names GTK 4.8 gets wrong (see
 * above). Call once, before the first window.
 */
void
tandem_accessible_init (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      /* Its signals exist once its class does */
      g_type_class_unref (g_type_class_ref (GTK_TYPE_WIDGET));
      g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0,
                                  on_widget_map_hook, NULL, NULL);
      g_once_init_leave (&installed, 1);
    }
}

/**
 * tandem_accessible_announce:
 * @widget: the widget the news is about
 * @message: what a screen reader should say
 *
 * Says @message through a screen reader now, where GTK can (4.14 and
 * later). Before that, the caller's widget states change, which a screen
 * reader reads when asked (see the window's status).
 */
void
tandem_accessible_announce (GtkWidget  *widget,
                            const char *message)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (message == NULL || message[0] == '\0')
    return;

#if GTK_CHECK_VERSION (4, 14, 0)
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_accessible_announce (GTK_ACCESSIBLE (widget), message, GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
  G_GNUC_END_IGNORE_DEPRECATIONS
#endif
}

/**
 * tandem_accessible_excerpt:
 * @text: (nullable): some text
 * @max_chars: the most characters to keep
 *
 * The start of @text on one line, its runs of white space made one
 * space, cut after a whole word with "…" when longer than @max_chars.
 *
 * Returns: (transfer full): the excerpt, maybe empty
 */
char *
tandem_accessible_excerpt (const char *text,
                           guint       max_chars)
{
  GString *out = g_string_new (NULL);
  gsize last_word_end = 0;
  guint n_chars = 0;
  gboolean space = FALSE;
  gboolean cut = FALSE;

  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        break;

      if (g_unichar_isspace (c))
        {
          space = out->len > 0;
          continue;
        }

      if (n_chars >= max_chars)
        {
          cut = TRUE;
          break;
        }

      if (space)
        {
          last_word_end = out->len;
          g_string_append_c (out, ' ');
          n_chars++;
          space = FALSE;
        }
      g_string_append_unichar (out, c);
      n_chars++;
    }

  if (cut)
    {
      if (last_word_end > 0)
        g_string_truncate (out, last_word_end);
      g_string_append (out, "…");
    }

  return g_string_free (out, FALSE);
}

/**
 * tandem_accessible_set_label:
 * @widget: a widget
 * @label: (nullable): its accessible name, or %NULL for none of its own
 *
 * Sets @widget's accessible label when it changed: a screen reader hears
 * of each change, so an unchanged name is not set again.
 *
 * Returns: whether the label changed
 */
gboolean
tandem_accessible_set_label (GtkWidget  *widget,
                             const char *label)
{
  static GQuark quark = 0;
  const char *current;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  if G_UNLIKELY (quark == 0)
    quark = g_quark_from_static_string ("tandem-accessible-label");

  current = g_object_get_qdata (G_OBJECT (widget), quark);
  if (g_strcmp0 (current, label) == 0)
    return FALSE;

  g_object_set_qdata_full (G_OBJECT (widget), quark, g_strdup (label), g_free);
  if (label != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);

  return TRUE;
}

/**
 * tandem_accessible_set_description:
 * @widget: a widget
 * @description: (nullable): its accessible description, or %NULL for none
 *
 * Sets @widget's accessible description when it changed, as
 * tandem_accessible_set_label() does its label.
 *
 * Returns: whether the description changed
 */
gboolean
tandem_accessible_set_description (GtkWidget  *widget,
                                   const char *description)
{
  static GQuark quark = 0;
  const char *current;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  if G_UNLIKELY (quark == 0)
    quark = g_quark_from_static_string ("tandem-accessible-description");

  current = g_object_get_qdata (G_OBJECT (widget), quark);
  if (g_strcmp0 (current, description) == 0)
    return FALSE;

  g_object_set_qdata_full (G_OBJECT (widget), quark, g_strdup (description), g_free);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  return TRUE;
}

/**
 * tandem_accessible_icon_new:
 * @icon_name: the icon
 *
 * An icon beside words that say the same, which a screen reader passes
 * over rather than read as an unnamed image.
 *
 * Returns: (transfer floating): the icon
 */
GtkWidget *
tandem_accessible_icon_new (const char *icon_name)
{
  return g_object_new (GTK_TYPE_IMAGE,
                       "icon-name", icon_name,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                       NULL);
}

static GtkWidget *
find_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *label = find_label (child);

      if (label != NULL)
        return label;
    }

  return NULL;
}

/**
 * tandem_accessible_label_by_content:
 * @widget: a button or such, whose child GTK 4.8 does not name it by
 * @content: what it shows
 *
 * Names @widget by the first label within @content, as it reads when
 * asked, so a label that changes renames it.
 */
void
tandem_accessible_label_by_content (GtkWidget *widget,
                                    GtkWidget *content)
{
  GtkWidget *label;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (GTK_IS_WIDGET (content));

  if ((label = find_label (content)) != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                    -1);
}
