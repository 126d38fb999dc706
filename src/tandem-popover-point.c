/* tandem-popover-point.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-popover-point.h"

/**
 * tandem_popover_point_at:
 * @popover: a popover with a parent
 * @x: where it points, in its parent's coordinates (as a click's are)
 * @y: likewise
 *
 * Points @popover at (@x, @y) of its parent. GTK before 4.10 takes the
 * rectangle as relative to the parent's border box, not to its
 * coordinates, which start inside its border and padding:
 * a context menu opened at a click in a padded row landed that padding
 * away from the pointer, up and to the left. Later GTKs take widget
 * coordinates, as given.
 */
void
tandem_popover_point_at (GtkPopover *popover,
                         double      x,
                         double      y)
{
  GtkWidget *parent;
  graphene_rect_t box;

  g_return_if_fail (GTK_IS_POPOVER (popover));

  parent = gtk_widget_get_parent (GTK_WIDGET (popover));
  g_return_if_fail (parent != NULL);

  /* The parent's border box, in its own coordinates, starts at minus its
   * border and padding */
  if (gtk_get_major_version () == 4 && gtk_get_minor_version () < 10 &&
      gtk_widget_compute_bounds (parent, parent, &box))
    {
      x -= box.origin.x;
      y -= box.origin.y;
    }

  gtk_popover_set_pointing_to (popover, &(GdkRectangle) { (int) x, (int) y, 1, 1 });
}
