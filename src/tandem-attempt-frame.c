/* tandem-attempt-frame.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-attempt-frame.h"

/* One part's widget, and how the run it came from ended when that was not
 * normally: a failed attempt is dimmed (it was not given to the agent as
 * its answer), and after the last part of a failed or stopped attempt a
 * line says "Stopped" or "Failed". It follows the part's notifications,
 * so it works as a row of its own, around any part's widget. */

struct _TandemAttemptFrame
{
  GtkWidget  parent_instance;
  AguiPart  *part;
  GtkWidget *box;
  GtkWidget *child;
  GtkWidget *mark;
  GtkWidget *mark_label;
  gboolean   hide_mark;
};

G_DEFINE_FINAL_TYPE (TandemAttemptFrame, tandem_attempt_frame, GTK_TYPE_WIDGET)

static void
tandem_attempt_frame_update (TandemAttemptFrame *self)
{
  AguiAttempt attempt = agui_part_get_attempt (self->part);
  gboolean end = agui_part_get_attempt_end (self->part);

  if (attempt == AGUI_ATTEMPT_FAILED)
    gtk_widget_add_css_class (self->child, "failed-attempt");
  else
    gtk_widget_remove_css_class (self->child, "failed-attempt");

  /* A part drawn as several blocks marks only its last */
  gtk_widget_set_visible (self->mark, end && !self->hide_mark);
  if (!end)
    return;

  gtk_label_set_text (GTK_LABEL (self->mark_label),
                      attempt == AGUI_ATTEMPT_STOPPED
                        ? _("Stopped")
                        : _("Failed — this answer was not given to the agent"));
}

static void
tandem_attempt_frame_dispose (GObject *object)
{
  TandemAttemptFrame *self = TANDEM_ATTEMPT_FRAME (object);

  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  g_clear_object (&self->part);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_attempt_frame_parent_class)->dispose (object);
}

static void
tandem_attempt_frame_class_init (TandemAttemptFrameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_attempt_frame_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attemptframe");
}

static void
tandem_attempt_frame_init (TandemAttemptFrame *self)
{
  GtkWidget *icon;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->mark = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->mark, "attempt-mark");
  gtk_widget_add_css_class (self->mark, "dim-label");
  icon = gtk_image_new_from_icon_name ("process-stop-symbolic");
  gtk_box_append (GTK_BOX (self->mark), icon);
  self->mark_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->mark_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->mark_label), TRUE);
  gtk_widget_add_css_class (self->mark_label, "caption");
  gtk_box_append (GTK_BOX (self->mark), self->mark_label);
  gtk_widget_set_visible (self->mark, FALSE);
}

/**
 * tandem_attempt_frame_new:
 * @part: the part @child shows
 * @child: (transfer floating): the part's widget
 *
 * Returns: (transfer floating): a frame around @child
 */
GtkWidget *
tandem_attempt_frame_new (AguiPart  *part,
                          GtkWidget *child)
{
  TandemAttemptFrame *self;

  g_return_val_if_fail (AGUI_IS_PART (part), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (child), NULL);

  self = g_object_new (TANDEM_TYPE_ATTEMPT_FRAME, NULL);
  self->part = g_object_ref (part);
  self->child = child;
  gtk_box_prepend (GTK_BOX (self->box), child);
  gtk_box_append (GTK_BOX (self->box), self->mark);

  g_signal_connect_object (part, "notify::attempt", G_CALLBACK (tandem_attempt_frame_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (part, "notify::attempt-end", G_CALLBACK (tandem_attempt_frame_update), self, G_CONNECT_SWAPPED);
  tandem_attempt_frame_update (self);

  return GTK_WIDGET (self);
}

GtkWidget *
tandem_attempt_frame_get_child (TandemAttemptFrame *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  return self->child;
}

/**
 * tandem_attempt_frame_get_mark_text:
 * @self: a frame
 *
 * Returns: (nullable): the "Stopped" or "Failed" line, when shown
 */
const char *
tandem_attempt_frame_get_mark_text (TandemAttemptFrame *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  return gtk_widget_get_visible (self->mark) ? gtk_label_get_text (GTK_LABEL (self->mark_label)) : NULL;
}

/**
 * tandem_attempt_frame_set_show_mark:
 * @self: a frame
 * @show_mark: whether the frame shows the attempt's mark at the attempt's end
 *
 * A part drawn as several blocks (a long Markdown text) has a frame per
 * block; only the last one says "Stopped" or "Failed".
 */
void
tandem_attempt_frame_set_show_mark (TandemAttemptFrame *self,
                                    gboolean            show_mark)
{
  g_return_if_fail (TANDEM_IS_ATTEMPT_FRAME (self));

  if (self->hide_mark == !show_mark)
    return;

  self->hide_mark = !show_mark;
  tandem_attempt_frame_update (self);
}
