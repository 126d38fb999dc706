/* tandem-nested-scroll.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tandem-nested-scroll.h"

/* A scrolled window inside the conversation (a code block, the Edit and
 * Resend editor) must not stop the wheel of a person reading past it.
 * GTK 4.8's scrolled window keeps every turn of the wheel over it: on an
 * axis it does not scroll, while its content fits, and at its ends
 * (later GTKs pass some of these on, not all). Its own scroll
 * controllers are switched off here, and ours scrolls only along
 * @orientation, only while the content can move that way; any other turn
 * goes on to the conversation. */

/* GtkScrolledWindow's own step for a wheel notch, over @page pixels */
#define WHEEL_STEP(page) (pow ((page), 2.0 / 3.0))
/* and its factor for a touchpad's pixels */
#define SURFACE_SCROLL_FACTOR 2.5

static gboolean
on_scroll_cb (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              gpointer                  user_data)
{
  GtkOrientation orientation = GPOINTER_TO_INT (user_data);
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GtkAdjustment *adjustment;
  double along = orientation == GTK_ORIENTATION_HORIZONTAL ? dx : dy;
  double across = orientation == GTK_ORIENTATION_HORIZONTAL ? dy : dx;
  double value, page, end;


  /* Shift turns the wheel sideways, as in GtkScrolledWindow */
  if (state & GDK_SHIFT_MASK)
    {
      double swap = along;

      along = across;
      across = swap;
    }
  if (along == 0 || fabs (across) > fabs (along))
    return GDK_EVENT_PROPAGATE;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    adjustment = gtk_scrolled_window_get_hadjustment (scroller);
  else
    adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  end = gtk_adjustment_get_upper (adjustment) - page;
  /* Fits, or already at the end the wheel turns to: the conversation
   * goes on moving, as a web page's does past a scrolled box's end. */
  if (end <= gtk_adjustment_get_lower (adjustment) ||
      (along < 0 && value <= gtk_adjustment_get_lower (adjustment)) ||
      (along > 0 && value >= end))
    return GDK_EVENT_PROPAGATE;

  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    along *= WHEEL_STEP (page);
  else
    along *= SURFACE_SCROLL_FACTOR;
  gtk_adjustment_set_value (adjustment, value + along);

  return GDK_EVENT_STOP;
}

/**
 * tandem_nested_scroll_pass_on:
 * @scroller: a scrolled window inside the conversation
 * @orientation: the axis it scrolls
 *
 * Makes @scroller take a turn of the wheel only along @orientation and
 * only while its content can move that way, passing every other turn on
 * to the scrollable around it.
 */
void
tandem_nested_scroll_pass_on (GtkScrolledWindow *scroller,
                              GtkOrientation     orientation)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (scroller));
  GtkEventController *scroll;

  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (scroller));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller))
        gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_NONE);
    }
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_name (scroll, "nested-scroll");
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll_cb), GINT_TO_POINTER (orientation));
  gtk_widget_add_controller (GTK_WIDGET (scroller), scroll);
}
