/* test-save-banner.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "agui-session-store-private.h"
#include "tandem-save-banner.h"
#include "agui-test-util.h"

static void
wait_until (gboolean (*done) (gpointer), gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!done (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static gboolean
is_hidden (gpointer data)
{
  return !gtk_widget_get_visible (data);
}

static void
send (AguiAgentSession    *session,
      AguiReplayTransport *replay,
      const char          *events)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (agui_replay_transport_add_run_json (replay, events, &error));
  agui_agent_session_send_async (session, "hi", NULL, NULL, agui_test_store_result_cb, &result);
  wait_until (has_result, &result);
  state = agui_agent_session_send_finish (session, result, &error);
  g_assert_no_error (error);
}

static void
test_banner_and_retry (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tandem-banner-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.db", NULL);
  g_autoptr(AguiSessionStore) store = agui_session_store_new (path, NULL);
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", store, "agent", NULL, NULL);
  g_autofree char *big = agui_test_incompressible_text (256 * 1024);
  g_autofree char *events = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *banner = tandem_save_banner_new ();
  GtkWidget *box, *label, *button;
  gint64 pages;

  g_test_summary ("The banner shows while the conversation is not saved, says why, and Retry saves it");

  gtk_window_set_child (GTK_WINDOW (window), banner);
  tandem_save_banner_set_session (TANDEM_SAVE_BANNER (banner), session);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_false (gtk_widget_get_visible (banner));

  send (session, replay, "[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"},"
                         "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}]");
  g_assert_false (gtk_widget_get_visible (banner));

  pages = _agui_session_store_set_max_page_count (store, 1);
  events = g_strdup_printf ("[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\"},"
                            "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"},"
                            "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"%s\"},"
                            "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"},"
                            "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r2\"}]", big);
  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*full*");
  send (session, replay, events);
  g_test_assert_expected_messages ();

  g_assert_true (gtk_widget_get_visible (banner));
  box = gtk_widget_get_first_child (banner);
  label = gtk_widget_get_next_sibling (gtk_widget_get_first_child (box));
  button = gtk_widget_get_next_sibling (label);
  g_assert_true (GTK_IS_LABEL (label));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "not being saved"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "full"));

  g_assert_cmpint (_agui_session_store_set_max_page_count (store, 1073741823), >, pages);
  g_signal_emit_by_name (button, "clicked");
  wait_until (is_hidden, banner);
  g_assert_cmpint (agui_session_store_get_turn_count (store, "t", NULL), ==, 2);

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&session);
  g_clear_object (&store);
  {
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (path, "-shm", NULL);

    g_unlink (path);
    g_unlink (wal);
    g_unlink (shm);
    g_rmdir (dir);
  }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/save-banner/banner-and-retry", test_banner_and_retry);

  return g_test_run ();
}
