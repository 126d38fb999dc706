/* test-pins.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "tandem-application.h"
#include "tandem-thread-row.h"
#include "tandem-test-window.h"
#include "tandem-window.h"

/* Pinned conversations in a real window under Xvfb: where their rows
 * go, the mark they show, the menu a secondary click opens at the
 * pointer (Pin, Unpin), the keyboard's way to pin, and that a pin stays
 * in the store for the next window. */

#define TIMEOUT_MS 10000

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  TandemWindow *window;
} Fixture;

static void
create_thread (const char *thread_id,
               const char *title)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agui_session_store_create_thread (tandem_application_get_store (app), thread_id, title, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  /* Oldest first: "third" is the newest */
  create_thread ("first", "First conversation");
  create_thread ("second", "Second conversation");
  create_thread ("third", "Third conversation");

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 760);
  gtk_window_present (GTK_WINDOW (f->window));
  tandem_test_wait_for_layout (f->window);
  tandem_test_wait_for_threads (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);

  tandem_test_destroy_window (f->window);
  for (const char * const *id = (const char * const []) { "first", "second", "third", NULL }; *id != NULL; id++)
    agui_session_store_delete_thread (store, *id, NULL);
}

/* Helpers */

static TandemThreadRow *
row_at (TandemWindow *window,
        int           index)
{
  GtkListBox *list = GTK_LIST_BOX (tandem_test_child (window, "thread_list"));
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, index);

  return row != NULL && TANDEM_IS_THREAD_ROW (row) ? TANDEM_THREAD_ROW (row) : NULL;
}

static const char *
id_at (TandemWindow *window,
       int           index)
{
  TandemThreadRow *row = row_at (window, index);

  return row != NULL ? agui_thread_info_get_id (tandem_thread_row_get_info (row)) : NULL;
}

/* Whether the row shows the pin mark: a drawn image named as a pin,
 * with the tooltip that says so */
static gboolean
shows_pin (TandemThreadRow *row)
{
  g_autoptr(GPtrArray) images = tandem_test_find_all (row, GTK_TYPE_IMAGE);

  for (guint i = 0; i < images->len; i++)
    if (gtk_widget_is_drawable (images->pdata[i]) &&
        g_strcmp0 (gtk_image_get_icon_name (images->pdata[i]), "view-pin-symbolic") == 0 &&
        g_strcmp0 (gtk_widget_get_tooltip_text (images->pdata[i]), "Pinned") == 0)
      return TRUE;

  return FALSE;
}

static gboolean
order_is (TandemWindow       *window,
          const char * const *ids)
{
  for (int i = 0; ids[i] != NULL; i++)
    if (g_strcmp0 (id_at (window, i), ids[i]) != 0)
      return FALSE;

  return TRUE;
}

/* The row's context menu, open and laid out */
static GtkPopover *
open_menu (TandemThreadRow *row)
{
  GtkPopover *menu = tandem_thread_row_get_context_menu (row);

  return menu != NULL && gtk_widget_get_mapped (GTK_WIDGET (menu)) && gtk_widget_get_width (GTK_WIDGET (menu)) > 0
           ? menu : NULL;
}

/* Where the popover's visible box (past its shadow) starts, in
 * @window's coordinates */
static void
popover_origin (GtkPopover   *popover,
                TandemWindow *window,
                double       *x,
                double       *y)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (popover));
  GtkWidget *contents = gtk_widget_get_first_child (GTK_WIDGET (popover));
  double window_x, window_y, popover_x, popover_y;
  graphene_rect_t box;

  g_assert_true (gtk_widget_compute_bounds (contents, GTK_WIDGET (popover), &box));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &window_x, &window_y);
  gtk_native_get_surface_transform (GTK_NATIVE (popover), &popover_x, &popover_y);
  /* The popup's position is relative to its parent's surface, the
   * window's */
  *x = gdk_popup_get_position_x (GDK_POPUP (surface)) + popover_x + box.origin.x - window_x;
  *y = gdk_popup_get_position_y (GDK_POPUP (surface)) + popover_y + box.origin.y - window_y;
}

/* Tests */

static void
test_pin_from_menu (Fixture       *f,
                    gconstpointer  data)
{
  TandemThreadRow *row;
  GtkPopover *menu = NULL;
  GdkRectangle pointing;
  graphene_point_t click;
  GtkLabel *pin;
  double menu_x, menu_y;

  g_test_summary ("A secondary click on a conversation opens its menu at the pointer; Pin moves it first, "
                  "marked, and Unpin puts it back");

  g_assert_true (order_is (f->window, (const char * const []) { "third", "second", "first", NULL }));
  row = row_at (f->window, 2);
  g_assert_false (shows_pin (row));

  /* Right-click in the row, past its title */
  tandem_test_click (GTK_WIDGET (row), 40, gtk_widget_get_height (GTK_WIDGET (row)) / 2.0, 3);
  agui_test_wait_until ((menu = open_menu (row)) != NULL, "the row's menu opened");
  g_assert_true (gtk_popover_get_pointing_to (menu, &pointing));
  /* …and it is drawn there, not somewhere else in the window */
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (row), GTK_WIDGET (f->window),
                                           &GRAPHENE_POINT_INIT (40, gtk_widget_get_height (GTK_WIDGET (row)) / 2.0),
                                           &click));
  popover_origin (menu, f->window, &menu_x, &menu_y);
  g_test_message ("clicked at %g,%g, the menu at %g,%g", click.x, click.y, menu_x, menu_y);
  g_assert_cmpfloat (ABS (menu_x - click.x), <=, 2);
  g_assert_cmpfloat (ABS (menu_y - click.y), <=, 2);
  g_assert_null (tandem_test_find_label (menu, "Unpin"));
  pin = tandem_test_find_label (menu, "Pin");
  g_assert_nonnull (pin);
  g_assert_nonnull (tandem_test_find_label (menu, "Rename…"));

  tandem_test_click (GTK_WIDGET (pin), 2, 2, 1);
  agui_test_wait_until (order_is (f->window, (const char * const []) { "first", "third", "second", NULL }),
                        "the pinned conversation went first");
  row = row_at (f->window, 0);
  agui_test_wait_until (shows_pin (row), "the pinned row shows its mark");
  g_assert_false (shows_pin (row_at (f->window, 1)));
  g_assert_true (agui_thread_info_get_pinned (tandem_thread_row_get_info (row)));

  /* Its menu now offers Unpin */
  tandem_test_wait_for_frame (f->window);
  row = row_at (f->window, 0);
  tandem_test_click (GTK_WIDGET (row), 40, 10, 3);
  agui_test_wait_until ((menu = open_menu (row)) != NULL, "the pinned row's menu opened");
  g_assert_null (tandem_test_find_label (menu, "Pin"));
  pin = tandem_test_find_label (menu, "Unpin");
  g_assert_nonnull (pin);
  tandem_test_click (GTK_WIDGET (pin), 2, 2, 1);
  agui_test_wait_until (order_is (f->window, (const char * const []) { "third", "second", "first", NULL }),
                        "the unpinned conversation went back where its time puts it");
  agui_test_wait_until (!shows_pin (row_at (f->window, 2)), "the unpinned row lost its mark");
}

static void
test_pin_by_keyboard (Fixture       *f,
                      gconstpointer  data)
{
  TandemWindow *again;

  g_test_summary ("Ctrl+Alt+P pins the conversation shown, and the next window shows it pinned");

  tandem_window_open_thread (f->window, "second");
  agui_test_wait_until (tandem_window_get_session (f->window) != NULL &&
                        g_strcmp0 (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)),
                                   "second") == 0,
                        "the second conversation opened");
  tandem_test_press_key (GTK_WIDGET (f->window), GDK_KEY_p, GDK_CONTROL_MASK | GDK_ALT_MASK);
  agui_test_wait_until (order_is (f->window, (const char * const []) { "second", "third", "first", NULL }),
                        "the conversation shown went first");
  agui_test_wait_until (shows_pin (row_at (f->window, 0)), "its row shows the pin");

  /* A new window reads the threads from the store again */
  again = tandem_window_new (app);
  gtk_window_present (GTK_WINDOW (again));
  tandem_test_wait_for_layout (again);
  tandem_test_wait_for_threads (again);
  g_assert_true (order_is (again, (const char * const []) { "second", "third", "first", NULL }));
  agui_test_wait_until (shows_pin (row_at (again, 0)), "the new window's row shows the pin");
  tandem_test_destroy_window (again);

  tandem_test_press_key (GTK_WIDGET (f->window), GDK_KEY_p, GDK_CONTROL_MASK | GDK_ALT_MASK);
  agui_test_wait_until (order_is (f->window, (const char * const []) { "third", "second", "first", NULL }),
                        "pressed again, it is unpinned");
}

static void
test_waiting_icon (Fixture       *f,
                   gconstpointer  data)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (f->window)));
  g_autoptr(GPtrArray) images = tandem_test_find_all (row_at (f->window, 0), GTK_TYPE_IMAGE);
  guint marks = 0;

  g_test_summary ("A row's waiting mark is an icon Adwaita has, not the diamond that reads as “�”");

  for (guint i = 0; i < images->len; i++)
    {
      const char *name = gtk_image_get_icon_name (images->pdata[i]);

      g_assert_cmpstr (name, !=, "dialog-question-symbolic");
      g_assert_true (name == NULL || gtk_icon_theme_has_icon (theme, name));
      if (g_strcmp0 (gtk_widget_get_tooltip_text (images->pdata[i]), "Waiting for your answer") == 0)
        {
          g_assert_cmpstr (name, ==, "mail-unread-symbolic");
          marks++;
        }
    }
  g_assert_cmpuint (marks, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("pins", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

#define ADD(path, fn) g_test_add ("/tandem/pins/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("from-menu", test_pin_from_menu);
  ADD ("by-keyboard", test_pin_by_keyboard);
  ADD ("waiting-icon", test_waiting_icon);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
