/* test-state-inspector.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "agui-event-private.h"
#include "agui-reducer-private.h"
#include "tandem-state-inspector.h"

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

static void
test_refused_delta_note (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *inspector = tandem_state_inspector_new ();
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("A refused state delta shows a note in the inspector, with the reason, until "
                  "a snapshot brings the state back in step");

  gtk_window_set_child (GTK_WINDOW (window), inspector);
  tandem_state_inspector_set_transcript (TANDEM_STATE_INSPECTOR (inspector), transcript);
  gtk_window_present (GTK_WINDOW (window));

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"version\":1}}");
  g_assert_null (tandem_state_inspector_dup_error (TANDEM_STATE_INSPECTOR (inspector)));

  apply (reducer, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"copy\",\"from\":\"/version\",\"path\":\"/a/b\"}]}");
  note = tandem_state_inspector_dup_error (TANDEM_STATE_INSPECTOR (inspector));
  g_assert_cmpstr (note, ==,
                   "The agent’s last change to the state was refused, so the state shown may be out of date: "
                   "operation 0 (copy /a/b from /version): no member 'a' at the root");
  text = tandem_state_inspector_dup_text (TANDEM_STATE_INSPECTOR (inspector));
  g_assert_nonnull (strstr (text, "\"version\" : 1"));

  apply (reducer, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"version\":2}}");
  g_assert_null (tandem_state_inspector_dup_error (TANDEM_STATE_INSPECTOR (inspector)));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/state-inspector/refused-delta-note", test_refused_delta_note);

  return g_test_run ();
}
