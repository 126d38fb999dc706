/* tandem-save-banner.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-save-banner.h"

/* A banner that stays while the conversation is not being saved, says
 * why, and offers Retry. A toast would go away while every later turn
 * kept failing to save; AdwBanner needs libadwaita 1.3. */
struct _TandemSaveBanner
{
  GtkWidget         parent_instance;
  GtkWidget        *box;
  GtkWidget        *label;
  GtkWidget        *retry_button;
  AguiAgentSession *session;
  GCancellable     *cancellable;
};

G_DEFINE_FINAL_TYPE (TandemSaveBanner, tandem_save_banner, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SESSION, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
tandem_save_banner_update (TandemSaveBanner *self)
{
  const GError *error = self->session ? agui_agent_session_get_store_error (self->session) : NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), error != NULL);
  if (error == NULL)
    return;

  text = g_strdup_printf (_("This conversation is not being saved: %s"), error->message);
  gtk_label_set_text (GTK_LABEL (self->label), text);
}

static void
on_retry_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TandemSaveBanner) self = user_data;
  g_autoptr(GError) error = NULL;

  /* A failure shows through the session's store error, like any other. */
  if (!agui_agent_session_retry_save_finish (AGUI_AGENT_SESSION (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_widget_set_sensitive (self->retry_button, TRUE);
}

static void
on_retry_clicked_cb (TandemSaveBanner *self)
{
  if (self->session == NULL)
    return;

  gtk_widget_set_sensitive (self->retry_button, FALSE);
  agui_agent_session_retry_save_async (self->session, self->cancellable,
                                       on_retry_done_cb, g_object_ref (self));
}

static void
tandem_save_banner_dispose (GObject *object)
{
  TandemSaveBanner *self = TANDEM_SAVE_BANNER (object);

  g_cancellable_cancel (self->cancellable);
  tandem_save_banner_set_session (self, NULL);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_save_banner_parent_class)->dispose (object);
}

static void
tandem_save_banner_finalize (GObject *object)
{
  TandemSaveBanner *self = TANDEM_SAVE_BANNER (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (tandem_save_banner_parent_class)->finalize (object);
}

static void
tandem_save_banner_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TandemSaveBanner *self = TANDEM_SAVE_BANNER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_save_banner_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TandemSaveBanner *self = TANDEM_SAVE_BANNER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      tandem_save_banner_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_save_banner_class_init (TandemSaveBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_save_banner_dispose;
  object_class->finalize = tandem_save_banner_finalize;
  object_class->get_property = tandem_save_banner_get_property;
  object_class->set_property = tandem_save_banner_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AGUI_TYPE_AGENT_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ALERT);
}

static void
tandem_save_banner_init (TandemSaveBanner *self)
{
  GtkWidget *icon;

  self->cancellable = g_cancellable_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->box, "tandem-banner");
  gtk_widget_add_css_class (self->box, "error-banner");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  icon = tandem_accessible_icon_new ("document-save-symbolic");
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), icon);

  self->label = gtk_label_new (NULL);
  gtk_widget_set_hexpand (self->label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (self->label), TRUE);
  gtk_box_append (GTK_BOX (self->box), self->label);

  self->retry_button = gtk_button_new_with_mnemonic (_("_Retry"));
  gtk_widget_set_valign (self->retry_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->retry_button, _("Try to save the conversation again"));
  g_signal_connect_swapped (self->retry_button, "clicked", G_CALLBACK (on_retry_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->retry_button);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tandem_save_banner_new (void)
{
  return g_object_new (TANDEM_TYPE_SAVE_BANNER, NULL);
}

AguiAgentSession *
tandem_save_banner_get_session (TandemSaveBanner *self)
{
  g_return_val_if_fail (TANDEM_IS_SAVE_BANNER (self), NULL);

  return self->session;
}

void
tandem_save_banner_set_session (TandemSaveBanner *self,
                                AguiAgentSession *session)
{
  g_return_if_fail (TANDEM_IS_SAVE_BANNER (self));
  g_return_if_fail (!session || AGUI_IS_AGENT_SESSION (session));

  if (self->session == session)
    return;

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    g_signal_connect_object (session, "notify::store-error",
                             G_CALLBACK (tandem_save_banner_update), self, G_CONNECT_SWAPPED);

  tandem_save_banner_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}
