/* tandem-test-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <adwaita.h>

#include "tandem-composer.h"
#include "tandem-sidebar.h"
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

/* The window's template child @name, or one of its panes', which must
 * exist: the tests name the widgets a person sees, wherever they live */
GtkWidget *
tandem_test_child (TandemWindow *window,
                   const char   *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (window), TANDEM_TYPE_WINDOW, name);

  if (object == NULL)
    object = gtk_widget_get_template_child (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                                       TANDEM_TYPE_WINDOW,
                                                                                       "sidebar")),
                                            TANDEM_TYPE_SIDEBAR, name);
  if (object == NULL)
    object = gtk_widget_get_template_child (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                                       TANDEM_TYPE_WINDOW,
                                                                                       "composer")),
                                            TANDEM_TYPE_COMPOSER, name);
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

static GSubprocess *notification_daemon;
static char *keyring_dir;

static void
clean_up_at_exit (void)
{
  g_autofree char *keyring = NULL;

  if (notification_daemon != NULL)
    g_subprocess_force_exit (notification_daemon);
  if (keyring_dir != NULL)
    {
      keyring = g_build_filename (keyring_dir, "keyring", NULL);
      g_unlink (keyring);
      g_rmdir (keyring_dir);
    }
}

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* python3-dbusmock's notification daemon on the test's own session bus,
 * so what the app sends reaches no desktop and can be read back. */
static void
start_notification_daemon (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  const char *python = g_getenv ("TANDEM_TEST_PYTHON");
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  gboolean has_owner = FALSE;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  notification_daemon = g_subprocess_launcher_spawn (launcher, &error,
                                                     python != NULL ? python : "python3",
                                                     "-m", "dbusmock", "--template", "notification_daemon",
                                                     NULL);
  g_assert_no_error (error);

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);

  for (;;)
    {
      g_autoptr(GVariant) reply = NULL;

      reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                           "org.freedesktop.DBus", "NameHasOwner",
                                           g_variant_new ("(s)", "org.freedesktop.Notifications"),
                                           G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
      g_assert_no_error (error);
      g_variant_get (reply, "(b)", &has_owner);
      if (has_owner)
        break;

      if (g_get_monotonic_time () > deadline)
        g_error ("The mock notification daemon did not come up on the test's bus within 30 s");
      g_usleep (20 * 1000);
    }
}

/* A test that hangs is killed by meson with nothing said. Given
 * TANDEM_TEST_WATCHDOG seconds (tests/meson.build sets it under meson's
 * timeout), it prints where each of its threads is, with gdb when there
 * is one, and aborts: the log of a hang on CI says where it hung. */
static gpointer
watchdog_thread (gpointer data)
{
  guint seconds = GPOINTER_TO_UINT (data);
  g_autofree char *gdb = g_find_program_in_path ("gdb");
  g_autofree char *pid = g_strdup_printf ("%d", (int) getpid ());
  g_autofree char *stacks = NULL;

  g_usleep (seconds * G_USEC_PER_SEC);
  g_printerr ("The test still runs after %u s; where its threads are:\n", seconds);

  if (gdb != NULL)
    {
      const char *argv[] = { gdb, "-nx", "-batch", "-p", pid, "-ex", "thread apply all bt", NULL };

      /* Where ptrace is only for a parent (Yama), the child gdb may too */
      prctl (PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &stacks, NULL, NULL, NULL);
      g_printerr ("%s\n", stacks != NULL ? stacks : "(gdb said nothing)");
    }
  else
    {
      g_printerr ("(no gdb to ask)\n");
    }

  abort ();
  return NULL;
}

/* A fatal critical (SIGTRAP), a failed assertion (SIGABRT) or a crash
 * says only its message; a rare one, seen once in many runs, needs the
 * stack to be found. So a widget test that dies on one of these signals
 * first has gdb print every thread's stack. Only fork (), exec and
 * waitpid () run here, which a signal handler may call; the strings are
 * made at start. Under ASan, which reports a crash itself with its
 * stack, SIGSEGV and SIGBUS stay its own. */
static char *crash_gdb;
static char crash_pid[32];

static void
on_fatal_signal (int signal_number)
{
  pid_t child = fork ();

  if (child == 0)
    {
      /* gdb's output to stderr, where the test's log takes it */
      dup2 (STDERR_FILENO, STDOUT_FILENO);
      execl (crash_gdb, crash_gdb, "-nx", "-batch", "-p", crash_pid,
             "-ex", "thread apply all bt", (char *) NULL);
      _exit (127);
    }
  if (child > 0)
    waitpid (child, NULL, 0);

  /* SA_RESETHAND put the default action back: die of the same signal */
  raise (signal_number);
}

static void
print_stacks_on_fatal_signals (void)
{
  int signals[] = { SIGTRAP, SIGABRT,
#ifndef __SANITIZE_ADDRESS__
                    SIGSEGV, SIGBUS,
#endif
                  };
  struct sigaction action = { 0 };

  crash_gdb = g_find_program_in_path ("gdb");
  if (crash_gdb == NULL)
    return;
  g_snprintf (crash_pid, sizeof crash_pid, "%d", (int) getpid ());
  prctl (PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);

  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset (&action.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    sigaction (signals[i], &action, NULL);
}

/* GTK and libadwaita for a widget test, where a warning is a bug:
 * gtk_test_init() leaves GTK's own warnings non-fatal.
 *
 * The test runs on a session bus of its own, never the machine's:
 * tests/meson.build starts each under dbus-run-session (and says so in
 * TANDEM_TEST_PRIVATE_BUS); run by hand, the test starts one itself.
 * Keyring and settings stay in the test too: libsecret's file backend in
 * a scratch folder, GSettings in memory. */
void
tandem_test_init (int    *argc,
                  char ***argv)
{
  g_autofree char *keyring = NULL;
  g_autoptr(GError) error = NULL;

  if (g_getenv ("TANDEM_TEST_PRIVATE_BUS") == NULL)
    {
      /* Left up: its watcher process ends it with us */
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);

      g_test_dbus_up (bus);
    }

  keyring_dir = g_dir_make_tmp ("tandem-test-keyring-XXXXXX", &error);
  g_assert_no_error (error);
  atexit (clean_up_at_exit);
  keyring = g_build_filename (keyring_dir, "keyring", NULL);
  g_setenv ("SECRET_BACKEND", "file", TRUE);
  g_setenv ("SECRET_FILE_TEST_PATH", keyring, TRUE);
  g_setenv ("SECRET_FILE_TEST_PASSWORD", "tandem-tests", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  gtk_test_init (argc, argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  adw_init ();

  start_notification_daemon ();

  if (g_getenv ("TANDEM_TEST_WATCHDOG") != NULL)
    {
      guint64 seconds = g_ascii_strtoull (g_getenv ("TANDEM_TEST_WATCHDOG"), NULL, 10);

      if (seconds > 0)
        g_thread_unref (g_thread_new ("watchdog", watchdog_thread, GUINT_TO_POINTER ((guint) seconds)));

      /* the same switch: set where a log should say where a test died */
      print_stacks_on_fatal_signals ();
    }
}

/* The notifications that reached the mock daemon since the last call,
 * oldest first, each as a GVariant of Notify's arguments (susssasa{sv}i) */
GPtrArray *
tandem_test_take_notifications (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) cleared = NULL;
  g_autoptr(GVariant) calls = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *notifications = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  GVariantIter iter;
  GVariant *args;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                       "org.freedesktop.DBus.Mock", "GetMethodCalls",
                                       g_variant_new ("(s)", "Notify"),
                                       G_VARIANT_TYPE ("(a(tav))"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  cleared = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                         "org.freedesktop.DBus.Mock", "ClearCalls", NULL,
                                         NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);

  calls = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, calls);
  while (g_variant_iter_next (&iter, "(t@av)", NULL, &args))
    {
      GVariantBuilder builder;
      GVariantIter arg_iter;
      GVariant *boxed;

      /* dbusmock logs each argument as a variant */
      g_variant_builder_init (&builder, G_VARIANT_TYPE_TUPLE);
      g_variant_iter_init (&arg_iter, args);
      while ((boxed = g_variant_iter_next_value (&arg_iter)) != NULL)
        {
          g_variant_builder_add_value (&builder, g_variant_get_variant (boxed));
          g_variant_unref (boxed);
        }
      g_ptr_array_add (notifications, g_variant_ref_sink (g_variant_builder_end (&builder)));
      g_variant_unref (args);
    }

  return notifications;
}

/* Waits until @n notifications reached the mock daemon since the last
 * take, and returns them */
GPtrArray *
tandem_test_wait_for_notifications (guint n)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  while (all->len < n)
    {
      g_autoptr(GPtrArray) more = NULL;

      if (g_get_monotonic_time () > deadline)
        g_error ("%u notifications expected, %u reached the notification daemon within 10 s", n, all->len);
      g_main_context_iteration (NULL, FALSE);
      more = tandem_test_take_notifications ();
      g_ptr_array_extend_and_steal (all, g_steal_pointer (&more));
      if (all->len < n)
        g_usleep (10 * 1000);
    }

  return all;
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

/* The app's own style.css, which a test application (with an id of its
 * own, and so no resource base path) does not load: for the tests of
 * geometry that it sets */
void
tandem_test_load_style (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/tandemdesk/Tandem/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* Clicks @button (1 the primary, 3 the secondary) at (@x, @y) of
 * @widget's own, through the X server, as a person's mouse would. */
void
tandem_test_click (GtkWidget *widget,
                   double     x,
                   double     y,
                   guint      button)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));

  tandem_test_move_pointer (widget, x, y);
  XTestFakeButtonEvent (xdisplay, button, True, CurrentTime);
  XTestFakeButtonEvent (xdisplay, button, False, CurrentTime);
  XFlush (xdisplay);
}

/* Turns the mouse wheel one notch at (@x, @y) of @widget's own, through
 * the X server, with @modifiers (Shift, Control) held: @button 4 up, 5
 * down, 6 left, 7 right. The X server's test pointer has no smooth
 * scrolling valuators, so GDK reports a discrete scroll, as it does for
 * a mouse wheel's notches. */
void
tandem_test_wheel (GtkWidget       *widget,
                   double           x,
                   double           y,
                   guint            button,
                   GdkModifierType  modifiers)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  const struct { GdkModifierType mask; KeySym keysym; } keys[] = {
    { GDK_SHIFT_MASK, XK_Shift_L }, { GDK_CONTROL_MASK, XK_Control_L },
  };

  g_assert_cmpuint (button, >=, 4);
  g_assert_cmpuint (button, <=, 7);

  tandem_test_move_pointer (widget, x, y);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (modifiers & keys[i].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keys[i].keysym), True, CurrentTime);
  XTestFakeButtonEvent (xdisplay, button, True, CurrentTime);
  XTestFakeButtonEvent (xdisplay, button, False, CurrentTime);
  for (guint i = G_N_ELEMENTS (keys); i > 0; i--)
    if (modifiers & keys[i - 1].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keys[i - 1].keysym), False, CurrentTime);
  XFlush (xdisplay);
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

/* Takes the keyboard focus from every window, as clicking another
 * application does: without a window manager the X server may give it
 * to whichever window is under the pointer. */
void
tandem_test_unfocus_windows (gpointer window)
{
  Display *xdisplay;

  g_assert_true (GDK_IS_X11_DISPLAY (gtk_widget_get_display (window)));
  xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (window));
  XSetInputFocus (xdisplay, None, RevertToNone, CurrentTime);
  XFlush (xdisplay);
  agui_test_wait_until (!gtk_window_is_active (window), "the window lost the focus");
}

/* Asserts that @notification (from tandem_test_take_notifications())
 * came from this application with @summary, @body (NULL: any) and
 * @actions, the daemon's flat list of key and label pairs */
void
tandem_test_assert_notification (GVariant           *notification,
                                 const char         *summary,
                                 const char         *body,
                                 const char * const *actions)
{
  g_autoptr(GVariant) hints = NULL;
  g_autofree const char **got_actions = NULL;
  const char *got_summary;
  const char *got_body;
  const char *desktop_entry = NULL;

  g_assert_true (g_variant_is_of_type (notification, G_VARIANT_TYPE ("(susssasa{sv}i)")));
  g_variant_get (notification, "(&su&s&s&s^a&s@a{sv}i)", NULL, NULL, NULL,
                 &got_summary, &got_body, &got_actions, &hints, NULL);

  g_assert_cmpstr (got_summary, ==, summary);
  if (body != NULL)
    g_assert_cmpstr (got_body, ==, body);
  g_assert_cmpstrv (got_actions, actions);
  g_assert_true (g_variant_lookup (hints, "desktop-entry", "&s", &desktop_entry));
  g_assert_cmpstr (desktop_entry, ==, g_application_get_application_id (g_application_get_default ()));
}
