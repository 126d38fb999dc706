/* tandem-test-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>

#include "tandem-test-window.h"

#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>

/* A window just presented: wait for its first layout, so that sizes,
 * mapped children and scroll positions are real. */
void
tandem_test_wait_for_layout (gpointer window)
{
  g_assert_true (GTK_IS_WINDOW (window));

  agui_test_wait_until (gtk_widget_get_mapped (window) && gtk_widget_get_width (window) > 0,
                        "the window %p was mapped and laid out", window);
}

/* Waits for @widget's window to draw a new frame: what a change (a
 * scroll, a key) brings is laid out by then. A redraw is asked for, so
 * a frame comes even when nothing else changed. */
void
tandem_test_wait_for_frame (gpointer widget)
{
  GdkFrameClock *clock;
  gint64 before;

  g_assert_true (GTK_IS_WIDGET (widget));
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);

  before = gdk_frame_clock_get_frame_counter (clock);
  gtk_widget_queue_draw (widget);
  agui_test_wait_until (gdk_frame_clock_get_frame_counter (clock) > before, "a new frame was drawn");
}

/* Closes @window as a person would and waits until it is finalized:
 * whatever it does on closing (saving its state, ending an exchange) has
 * happened. A window that refuses to close fails the test. */
void
tandem_test_close_window (gpointer window)
{
  gpointer weak = window;

  g_assert_true (GTK_IS_WINDOW (window));

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (window);
  agui_test_wait_until (weak == NULL, "the closed window %p was finalized", window);
}

/* Destroys @window and waits until it is finalized: whatever its
 * dispose started (a cancelled exchange, a save at close) has ended, so
 * the next step sees its effects and a kept reference fails the test. */
void
tandem_test_destroy_window (gpointer window)
{
  gpointer weak = window;

  g_assert_true (GTK_IS_WINDOW (window));

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_destroy (window);
  agui_test_wait_until (weak == NULL, "the destroyed window %p was finalized", window);
}

/* The sidebar lists what the store answers, on its worker: wait for the
 * answer to the latest question (a refresh, a search, a saved turn). */
void
tandem_test_wait_for_threads (TandemWindow *window)
{
  agui_test_wait_until (!tandem_window_get_threads_loading (window), "the sidebar's threads loaded");
}

/* The window's template child @name, which must exist */
GtkWidget *
tandem_test_child (TandemWindow *window,
                   const char   *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (window), TANDEM_TYPE_WINDOW, name);

  g_assert_nonnull (object);

  return GTK_WIDGET (object);
}

void
tandem_test_collect (GtkWidget *widget,
                     GType      type,
                     GPtrArray *found)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    tandem_test_collect (c, type, found);
}

/* Every widget of @type in @widget's tree, @widget included */
GPtrArray *
tandem_test_find_all (gpointer widget,
                      GType    type)
{
  GPtrArray *found = g_ptr_array_new ();

  tandem_test_collect (GTK_WIDGET (widget), type, found);

  return found;
}

/* The first label in @widget's tree that shows exactly @text */
GtkLabel *
tandem_test_find_label (gpointer    widget,
                        const char *text)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (widget, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];

  return NULL;
}

/* GTK and libadwaita for a widget test, where a warning is a bug:
 * gtk_test_init() leaves GTK's own warnings non-fatal. */
void
tandem_test_init (int    *argc,
                  char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  adw_init ();
}

/* A scratch folder for a store; @store_path receives the store's file */
char *
tandem_test_make_store_dir (const char  *name,
                            char       **store_path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strdup_printf ("tandem-%s-XXXXXX", name);
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  *store_path = g_build_filename (dir, "tandem.db", NULL);

  return dir;
}

void
tandem_test_remove_store (const char *store_dir,
                          const char *store_path)
{
  g_autofree char *wal = g_strconcat (store_path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (store_path, "-shm", NULL);

  g_unlink (store_path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (store_dir);
}

/* A registered application keeping its conversations at @store_path, as
 * after a launch; a second one on the same path is a relaunch. */
TandemApplication *
tandem_test_application_new (const char *application_id,
                             const char *store_path)
{
  g_autoptr(GError) error = NULL;
  TandemApplication *app;

  app = TANDEM_APPLICATION (g_object_new (TANDEM_TYPE_APPLICATION,
                                          "application-id", application_id,
                                          "flags", G_APPLICATION_NON_UNIQUE,
                                          NULL));
  tandem_application_set_store_path (app, store_path);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  /* The store opens on a worker, as at a launch. */
  while (tandem_application_get_store_opening (app))
    g_main_context_iteration (NULL, TRUE);

  return app;
}

/* Moves the X pointer over @widget at (@x, @y) of its own, as a person's
 * mouse would: the server sends the window its crossing and motion
 * events, so hover states and motion controllers react as they do. */
void
tandem_test_move_pointer (GtkWidget *widget,
                          double     x,
                          double     y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  GdkDisplay *display = gtk_widget_get_display (widget);
  graphene_point_t point;
  double surface_x, surface_y;

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &point));
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);

  XWarpPointer (gdk_x11_display_get_xdisplay (display), None, gdk_x11_surface_get_xid (surface),
                0, 0, 0, 0, (int) (point.x + surface_x), (int) (point.y + surface_y));
  XFlush (gdk_x11_display_get_xdisplay (display));
}

/* Presses @keyval with @modifiers (Shift, Control, Alt) on the keyboard
 * of the X server, as a person would, into @widget's window. */
void
tandem_test_press_key (GtkWidget       *widget,
                       guint            keyval,
                       GdkModifierType  modifiers)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));
  Display *xdisplay;
  const struct { GdkModifierType mask; KeySym keysym; } keys[] = {
    { GDK_SHIFT_MASK, XK_Shift_L }, { GDK_CONTROL_MASK, XK_Control_L }, { GDK_ALT_MASK, XK_Alt_L },
  };
  KeyCode code;

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  xdisplay = gdk_x11_display_get_xdisplay (display);
  code = XKeysymToKeycode (xdisplay, keyval);
  g_assert_cmpuint (code, !=, 0);

  XSetInputFocus (xdisplay, gdk_x11_surface_get_xid (surface), RevertToParent, CurrentTime);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (modifiers & keys[i].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keys[i].keysym), True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  for (guint i = G_N_ELEMENTS (keys); i > 0; i--)
    if (modifiers & keys[i - 1].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keys[i - 1].keysym), False, CurrentTime);
  XFlush (xdisplay);
}
