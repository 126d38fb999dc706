/* tandem-interrupt-banner.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-interrupt-banner.h"

/* "2 questions waiting" with Answer…: what stays of the agent's questions
 * once their dialog was closed to decide later. The button names the
 * window's win.answer-interrupts, so the banner knows nothing of sessions
 * and can sit wherever the window puts it. It hides itself at zero. */

struct _TandemInterruptBanner
{
  GtkWidget  parent_instance;
  GtkWidget *box;
  GtkWidget *label;
  GtkWidget *button;
  guint      count;
  guint      expired;
};

G_DEFINE_FINAL_TYPE (TandemInterruptBanner, tandem_interrupt_banner, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_COUNT, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
tandem_interrupt_banner_dispose (GObject *object)
{
  TandemInterruptBanner *self = TANDEM_INTERRUPT_BANNER (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_interrupt_banner_parent_class)->dispose (object);
}

static void
tandem_interrupt_banner_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  TandemInterruptBanner *self = TANDEM_INTERRUPT_BANNER (object);

  switch (prop_id)
    {
    case PROP_COUNT:
      g_value_set_uint (value, self->count);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_interrupt_banner_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  TandemInterruptBanner *self = TANDEM_INTERRUPT_BANNER (object);

  switch (prop_id)
    {
    case PROP_COUNT:
      tandem_interrupt_banner_set_count (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_interrupt_banner_class_init (TandemInterruptBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_interrupt_banner_dispose;
  object_class->get_property = tandem_interrupt_banner_get_property;
  object_class->set_property = tandem_interrupt_banner_set_property;

  properties[PROP_COUNT] =
    g_param_spec_uint ("count", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "interruptbanner");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tandem_interrupt_banner_init (TandemInterruptBanner *self)
{
  GtkWidget *icon;
  GtkWidget *button;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->box, "tandem-banner");
  gtk_widget_add_css_class (self->box, "interrupt-banner");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* Adwaita's dialog-question is a question mark in a black diamond,
   * which reads as "�", a character that could not be shown: the
   * sidebar's own mark for what waits for the person is used instead */
  icon = tandem_accessible_icon_new ("mail-unread-symbolic");
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), icon);

  self->label = gtk_label_new (NULL);
  gtk_widget_set_hexpand (self->label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_box_append (GTK_BOX (self->box), self->label);

  button = self->button = gtk_button_new_with_mnemonic (_("_Answer…"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.answer-interrupts");
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_box_append (GTK_BOX (self->box), button);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tandem_interrupt_banner_new (void)
{
  return g_object_new (TANDEM_TYPE_INTERRUPT_BANNER, NULL);
}

guint
tandem_interrupt_banner_get_count (TandemInterruptBanner *self)
{
  g_return_val_if_fail (TANDEM_IS_INTERRUPT_BANNER (self), 0);

  return self->count;
}

/* Questions past their expiry wait for nobody: the banner says they
 * expired, and its button is for dismissing them. */
static void
tandem_interrupt_banner_update (TandemInterruptBanner *self)
{
  g_autofree char *text = NULL;
  guint open = self->count - MIN (self->expired, self->count);

  if (open > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u question waiting for your answer",
                                         "%u questions waiting for your answer", open),
                            open);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u question expired unanswered",
                                         "%u questions expired unanswered", self->count),
                            self->count);
  gtk_label_set_text (GTK_LABEL (self->label), text);
  gtk_button_set_label (GTK_BUTTON (self->button), open > 0 ? _("_Answer…") : _("_Dismiss…"));
  if (open > 0)
    gtk_widget_add_css_class (self->button, "suggested-action");
  else
    gtk_widget_remove_css_class (self->button, "suggested-action");
  gtk_widget_set_visible (GTK_WIDGET (self), self->count > 0);
}

void
tandem_interrupt_banner_set_count (TandemInterruptBanner *self,
                                   guint                  count)
{
  g_return_if_fail (TANDEM_IS_INTERRUPT_BANNER (self));

  if (self->count == count)
    return;

  self->count = count;
  tandem_interrupt_banner_update (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COUNT]);
}

/**
 * tandem_interrupt_banner_set_expired:
 * @self: a banner
 * @expired: how many of the questions counted have expired
 */
void
tandem_interrupt_banner_set_expired (TandemInterruptBanner *self,
                                     guint                  expired)
{
  g_return_if_fail (TANDEM_IS_INTERRUPT_BANNER (self));

  if (self->expired == expired)
    return;

  self->expired = expired;
  tandem_interrupt_banner_update (self);
}

const char *
tandem_interrupt_banner_get_text (TandemInterruptBanner *self)
{
  g_return_val_if_fail (TANDEM_IS_INTERRUPT_BANNER (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->label));
}
