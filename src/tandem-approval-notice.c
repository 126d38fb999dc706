/* tandem-approval-notice.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-approval-notice.h"

/* “Clean up my folder” needs your approval, with Open: a question asked
 * in a conversation that is not shown. It is what AdwBanner (libadwaita
 * 1.3) would be, built as the app's other banners are on 1.2. The button
 * names the window's win.open-thread with the thread's id, so the notice
 * knows nothing of sessions. It hides itself without a thread. */

struct _TandemApprovalNotice
{
  GtkWidget  parent_instance;
  GtkWidget *box;
  GtkWidget *label;
  GtkWidget *button;
  char      *thread_id;
};

G_DEFINE_FINAL_TYPE (TandemApprovalNotice, tandem_approval_notice, GTK_TYPE_WIDGET)

static void
tandem_approval_notice_dispose (GObject *object)
{
  TandemApprovalNotice *self = TANDEM_APPROVAL_NOTICE (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_approval_notice_parent_class)->dispose (object);
}

static void
tandem_approval_notice_finalize (GObject *object)
{
  TandemApprovalNotice *self = TANDEM_APPROVAL_NOTICE (object);

  g_clear_pointer (&self->thread_id, g_free);

  G_OBJECT_CLASS (tandem_approval_notice_parent_class)->finalize (object);
}

static void
tandem_approval_notice_class_init (TandemApprovalNoticeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_approval_notice_dispose;
  object_class->finalize = tandem_approval_notice_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "approvalnotice");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tandem_approval_notice_init (TandemApprovalNotice *self)
{
  GtkWidget *icon;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->box, "tandem-banner");
  gtk_widget_add_css_class (self->box, "interrupt-banner");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  icon = gtk_image_new_from_icon_name ("dialog-question-symbolic");
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), icon);

  self->label = gtk_label_new (NULL);
  gtk_widget_set_hexpand (self->label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->label), PANGO_WRAP_WORD_CHAR);
  gtk_box_append (GTK_BOX (self->box), self->label);

  /* Translators: opens the conversation whose agent asks for approval */
  self->button = gtk_button_new_with_mnemonic (_("_Open"));
  gtk_widget_set_valign (self->button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->button, "suggested-action");
  gtk_box_append (GTK_BOX (self->box), self->button);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tandem_approval_notice_new (void)
{
  return g_object_new (TANDEM_TYPE_APPROVAL_NOTICE, NULL);
}

/**
 * tandem_approval_notice_set_thread:
 * @self: a notice
 * @thread_id: (nullable): the conversation that waits, or %NULL to hide
 * @title: (nullable): its title as the sidebar shows it
 */
void
tandem_approval_notice_set_thread (TandemApprovalNotice *self,
                                   const char           *thread_id,
                                   const char           *title)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TANDEM_IS_APPROVAL_NOTICE (self));

  g_free (self->thread_id);
  self->thread_id = g_strdup (thread_id);
  gtk_widget_set_visible (GTK_WIDGET (self), thread_id != NULL);
  if (thread_id == NULL)
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->button), NULL);
      return;
    }

  if (title != NULL && title[0] != '\0')
    /* Translators: %s is the title of a conversation that is not shown */
    text = g_strdup_printf (_("“%s” needs your approval"), title);
  else
    text = g_strdup (_("Another conversation needs your approval"));
  gtk_label_set_text (GTK_LABEL (self->label), text);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->button), "s", thread_id);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->button), "win.open-thread");
}

const char *
tandem_approval_notice_get_thread_id (TandemApprovalNotice *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_NOTICE (self), NULL);

  return self->thread_id;
}

const char *
tandem_approval_notice_get_text (TandemApprovalNotice *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_NOTICE (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->label));
}

GtkWidget *
tandem_approval_notice_get_button (TandemApprovalNotice *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_NOTICE (self), NULL);

  return self->button;
}
