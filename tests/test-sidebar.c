/* test-sidebar.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "tandem-sidebar.h"
#include "tandem-test-window.h"
#include "tandem-thread-row.h"

/* The sidebar on its own, in a plain window under Xvfb: everything it
 * shows comes from its properties (a real store, the run registry, the
 * conversation shown), never from a TandemWindow around it, and what the
 * person opens comes out as ::thread-activated. */

static char *store_dir;
static char *store_path;

typedef struct
{
  AguiSessionStore *store;
  GtkWindow        *window;
  TandemSidebar    *sidebar;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->store = agui_session_store_new (store_path, &error);
  g_assert_no_error (error);
  /* Oldest first: "third" is the newest */
  g_assert_true (agui_session_store_create_thread (f->store, "first", "First conversation", NULL, &error));
  g_assert_true (agui_session_store_create_thread (f->store, "second", "Second conversation", NULL, &error));
  g_assert_true (agui_session_store_create_thread (f->store, "third", "Third conversation", NULL, &error));
  g_assert_no_error (error);

  f->window = GTK_WINDOW (gtk_window_new ());
  f->sidebar = TANDEM_SIDEBAR (tandem_sidebar_new ());
  gtk_window_set_child (f->window, GTK_WIDGET (f->sidebar));
  gtk_window_set_default_size (f->window, 320, 600);
  gtk_window_present (f->window);
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  tandem_test_destroy_window (f->window);
  for (const char * const *id = (const char * const []) { "first", "second", "third", NULL }; *id != NULL; id++)
    agui_session_store_delete_thread (f->store, *id, NULL);
  g_clear_object (&f->store);
}

static guint
n_rows (TandemSidebar *sidebar)
{
  GtkListBox *list = tandem_sidebar_get_thread_list (sidebar);
  guint n = 0;

  while (gtk_list_box_get_row_at_index (list, n) != NULL)
    n++;

  return n;
}

static const char *
id_at (TandemSidebar *sidebar,
       int            index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (tandem_sidebar_get_thread_list (sidebar), index);

  return row != NULL ? agui_thread_info_get_id (tandem_thread_row_get_info (TANDEM_THREAD_ROW (row))) : NULL;
}

static int
index_of (TandemSidebar *sidebar,
          const char    *thread_id)
{
  for (int i = 0; id_at (sidebar, i) != NULL; i++)
    if (g_strcmp0 (id_at (sidebar, i), thread_id) == 0)
      return i;

  return -1;
}

static void
wait_for_threads (TandemSidebar *sidebar,
                  guint          n)
{
  agui_test_wait_until (!tandem_sidebar_get_loading (sidebar) && n_rows (sidebar) == n,
                        "the sidebar shows %u conversations (it shows %u)", n, n_rows (sidebar));
}

static void
on_thread_activated_cb (TandemSidebar *sidebar,
                        const char    *thread_id,
                        char         **activated)
{
  g_free (*activated);
  *activated = g_strdup (thread_id);
}

static void
test_store (Fixture       *f,
            gconstpointer  data)
{
  g_test_summary ("Without a store the sidebar says conversations are not saved; given one, it lists its threads");

  tandem_sidebar_refresh (f->sidebar);
  wait_for_threads (f->sidebar, 0);
  g_assert_nonnull (tandem_test_find_label (f->sidebar, "Conversations are not saved."));

  tandem_sidebar_set_store (f->sidebar, f->store);
  g_assert_true (tandem_sidebar_get_store (f->sidebar) == f->store);
  wait_for_threads (f->sidebar, 3);
  g_assert_cmpstr (id_at (f->sidebar, 0), ==, "third");
  g_assert_cmpstr (agui_thread_info_get_title (tandem_sidebar_lookup_thread (f->sidebar, "second")),
                   ==, "Second conversation");
  g_assert_null (tandem_sidebar_lookup_thread (f->sidebar, "missing"));
}

static void
test_session_selects (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) transport = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(TandemRunRegistry) runs = tandem_run_registry_new (TANDEM_RUN_REGISTRY_MAX_RUNS);
  GtkListBoxRow *selected;

  g_test_summary ("The row of the conversation shown (the session property) is the one selected");

  tandem_sidebar_set_runs (f->sidebar, runs);
  tandem_sidebar_set_store (f->sidebar, f->store);
  wait_for_threads (f->sidebar, 3);
  g_assert_null (gtk_list_box_get_selected_row (tandem_sidebar_get_thread_list (f->sidebar)));

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", transport, "thread-id", "second", NULL);
  tandem_sidebar_set_session (f->sidebar, session);
  tandem_sidebar_refresh (f->sidebar);
  selected = gtk_list_box_get_selected_row (tandem_sidebar_get_thread_list (f->sidebar));
  g_assert_nonnull (selected);
  g_assert_cmpint (gtk_list_box_row_get_index (selected), ==, index_of (f->sidebar, "second"));
}

static void
test_activate (Fixture       *f,
               gconstpointer  data)
{
  GtkListBox *list = tandem_sidebar_get_thread_list (f->sidebar);
  g_autofree char *activated = NULL;

  g_test_summary ("Activating a row says which conversation the person opened, and opens nothing itself");

  tandem_sidebar_set_store (f->sidebar, f->store);
  wait_for_threads (f->sidebar, 3);
  g_signal_connect (f->sidebar, "thread-activated", G_CALLBACK (on_thread_activated_cb), &activated);

  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, index_of (f->sidebar, "first")));
  g_assert_cmpstr (activated, ==, "first");
}

static void
test_hide (Fixture       *f,
           gconstpointer  data)
{
  g_auto(GStrv) hidden = NULL;

  g_test_summary ("A conversation being deleted is hidden until the delete is undone or done");

  tandem_sidebar_set_store (f->sidebar, f->store);
  wait_for_threads (f->sidebar, 3);

  tandem_sidebar_hide_thread (f->sidebar, "second");
  wait_for_threads (f->sidebar, 2);
  g_assert_cmpint (index_of (f->sidebar, "second"), ==, -1);

  g_assert_true (tandem_sidebar_unhide_thread (f->sidebar, "second"));
  g_assert_false (tandem_sidebar_unhide_thread (f->sidebar, "second"));
  tandem_sidebar_refresh (f->sidebar);
  wait_for_threads (f->sidebar, 3);

  tandem_sidebar_hide_thread (f->sidebar, "first");
  tandem_sidebar_hide_thread (f->sidebar, "third");
  wait_for_threads (f->sidebar, 1);
  hidden = tandem_sidebar_take_hidden (f->sidebar);
  g_assert_cmpuint (g_strv_length (hidden), ==, 2);
  g_assert_true (g_strv_contains ((const char * const *) hidden, "first"));
  g_assert_true (g_strv_contains ((const char * const *) hidden, "third"));
  tandem_sidebar_refresh (f->sidebar);
  wait_for_threads (f->sidebar, 3);
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  GtkEditable *entry = GTK_EDITABLE (tandem_sidebar_get_search_entry (f->sidebar));

  g_test_summary ("The search keeps the conversations whose title has the text; one without a match says so");

  tandem_sidebar_set_store (f->sidebar, f->store);
  wait_for_threads (f->sidebar, 3);

  tandem_sidebar_start_search (f->sidebar);
  g_assert_true (gtk_search_bar_get_search_mode (tandem_sidebar_get_search_bar (f->sidebar)));
  gtk_editable_set_text (entry, "SECOND");
  wait_for_threads (f->sidebar, 1);
  g_assert_cmpstr (id_at (f->sidebar, 0), ==, "second");

  gtk_editable_set_text (entry, "nowhere to be found");
  wait_for_threads (f->sidebar, 0);
  g_assert_nonnull (tandem_test_find_label (f->sidebar, "No Results"));
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);
  store_dir = tandem_test_make_store_dir ("sidebar", &store_path);

#define ADD(path, fn) g_test_add ("/tandem/sidebar/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("store", test_store);
  ADD ("session-selects", test_session_selects);
  ADD ("activate", test_activate);
  ADD ("hide", test_hide);
  ADD ("search", test_search);
#undef ADD

  result = g_test_run ();

  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
