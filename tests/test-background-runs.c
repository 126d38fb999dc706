/* test-background-runs.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-approval-dialog.h"
#include "tandem-approval-notice.h"
#include "tandem-conversation-search.h"
#include "tandem-run-registry.h"
#include "tandem-thread-row.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* Answers go on being written in conversations that are not shown: a
 * real TandemWindow on a real store, against the loopback AG-UI server,
 * which says whether the app ever went away from a stream. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define START(id) "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}"
#define DELTA(id, text) "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}"
#define END(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define INTERRUPT(run) \
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\",\"outcome\":{\"type\":\"interrupt\"," \
  "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"Delete?\"}]}}"

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer    *server;
  TandemWindow      *window;
} Fixture;

/* Helpers */

/* A new conversation on the loopback agent, kept in the app's store.
 * Each on a transport of its own, as the app opens them: one libsoup
 * session holds at most two connections to a host. */
static AguiAgentSession *
new_session (Fixture *f)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);

  return g_object_new (AGUI_TYPE_AGENT_SESSION,
                       "transport", AGUI_TRANSPORT (transport),
                       "thread-id", NULL,
                       "tools", NULL,
                       "store", tandem_application_get_store (app),
                       "agent", "test",
                       NULL);
}

static void
send_text (Fixture    *f,
           const char *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
}

static char *
dup_composer_text (TandemWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (window, "composer_view")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* An answer in two parts, the second after @stall_ms */
static void
push_slow_answer (Fixture    *f,
                  const char *first,
                  const char *second,
                  guint       stall_ms)
{
  g_autofree char *first_delta = g_strdup_printf (DELTA ("m1", "%s"), first);
  g_autofree char *second_delta = g_strdup_printf (DELTA ("m1", "%s"), second);
  AguiTestResponse *response = agui_test_response_new_events (RS ("r1"), START ("m1"), first_delta, NULL);

  agui_test_response_append_stall (response, stall_ms);
  agui_test_response_append_event_json (response, second_delta);
  agui_test_response_append_event_json (response, END ("m1"));
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);
}

static gboolean
shows_text (TandemWindow *window,
            const char   *text)
{
  return tandem_test_find_label (tandem_test_child (window, "transcript_view"), text) != NULL;
}

static gboolean
shows_thread (TandemWindow *window,
              const char   *thread_id)
{
  AguiAgentSession *session = tandem_window_get_session (window);

  return session != NULL && g_strcmp0 (agui_agent_session_get_thread_id (session), thread_id) == 0;
}

static TandemThreadRow *
find_row (TandemWindow *window,
          const char   *thread_id)
{
  GtkListBox *list = GTK_LIST_BOX (tandem_test_child (window, "thread_list"));
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    if (TANDEM_IS_THREAD_ROW (row) &&
        g_strcmp0 (agui_thread_info_get_id (tandem_thread_row_get_info (TANDEM_THREAD_ROW (row))), thread_id) == 0)
      return TANDEM_THREAD_ROW (row);

  return NULL;
}

/* What the row shows, as the person sees it: the spinner, the dot */
static gboolean
row_marks_are (TandemWindow *window,
               const char   *thread_id,
               gboolean      working,
               gboolean      unseen)
{
  TandemThreadRow *row = find_row (window, thread_id);
  g_autoptr(GPtrArray) spinners = NULL;
  g_autoptr(GPtrArray) images = NULL;
  gboolean spinning = FALSE;
  gboolean dot = FALSE;

  if (row == NULL)
    return FALSE;

  spinners = tandem_test_find_all (row, GTK_TYPE_SPINNER);
  for (guint i = 0; i < spinners->len; i++)
    spinning |= gtk_widget_get_visible (spinners->pdata[i]) && gtk_spinner_get_spinning (spinners->pdata[i]);
  images = tandem_test_find_all (row, GTK_TYPE_IMAGE);
  for (guint i = 0; i < images->len; i++)
    dot |= gtk_widget_get_visible (images->pdata[i]) && gtk_widget_has_css_class (images->pdata[i], "unseen-mark");

  return tandem_thread_row_get_working (row) == working && spinning == working &&
         tandem_thread_row_get_unseen (row) == unseen && dot == unseen;
}

static void
activate_row (TandemWindow *window,
              const char   *thread_id)
{
  TandemThreadRow *row = find_row (window, thread_id);

  g_assert_nonnull (row);
  g_signal_emit_by_name (row, "activate");
}

static void
assert_stream_complete (Fixture *f,
                        guint    index)
{
  const AguiTestRequest *request;

  g_assert_true (agui_test_server_wait_for_end (f->server, index, TIMEOUT_MS));
  request = agui_test_server_get_request (f->server, index);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_COMPLETE);
}

static AdwMessageDialog *
find_quit_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  AdwMessageDialog *found = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data) &&
        adw_message_dialog_has_response (l->data, "quit"))
      found = l->data;
  g_list_free (toplevels);

  return found;
}

/* Presses the dialog's button that reads @label, as a person does */
static void
click_response (AdwMessageDialog *dialog,
                const char       *label)
{
  GtkLabel *found = tandem_test_find_label (dialog, label);
  GtkWidget *button;

  g_assert_nonnull (found);
  button = gtk_widget_get_ancestor (GTK_WIDGET (found), GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}

static TandemApprovalDialog *
find_approval_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  TandemApprovalDialog *dialog = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_APPROVAL_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_list_free (toplevels);

  return dialog;
}

/* The toast that says @text, if one shows */
static gboolean
shows_toast (TandemWindow *window,
             const char   *text)
{
  GType type = g_type_from_name ("AdwToastWidget");
  g_autoptr(GPtrArray) widgets = NULL;

  g_assert_true (type != G_TYPE_INVALID);
  widgets = tandem_test_find_all (tandem_test_child (window, "toast_overlay"), type);
  for (guint i = 0; i < widgets->len; i++)
    if (tandem_test_find_label (widgets->pdata[i], text) != NULL)
      return TRUE;

  return FALSE;
}

/* Fixture */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();
  g_autoptr(GPtrArray) notifications = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  if (f->window != NULL)
    tandem_test_destroy_window (f->window);

  /* The window is never in front here (no window manager focuses it):
   * an answer shown was told on the desktop too, and only that. */
  notifications = tandem_test_take_notifications ();
  for (guint i = 0; i < notifications->len; i++)
    tandem_test_assert_notification (notifications->pdata[i], "Tandem: the agent answered", NULL,
                                     (const char * const[]) { "default", "", NULL });
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

/* Tests */

static void
test_switch_and_back (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autoptr(AguiAgentSession) other = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_autofree char *other_id = g_strdup (agui_agent_session_get_thread_id (other));
  GtkAdjustment *adjustment;

  g_test_summary ("Switching to another conversation from the sidebar during an answer does not stop "
                  "it: back again, the same answer is still streaming, followed, and ends complete, "
                  "and the agent never saw the app go away");

  /* Another conversation in the sidebar, to switch to */
  tandem_window_set_session (f->window, other);
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r0"), START ("m0"), DELTA ("m0", "Elsewhere"),
                                                                 END ("m0"), RF ("r0"), NULL));
  send_text (f, "Somewhere else");
  agui_test_wait_for_exchange (other);

  tandem_window_set_session (f->window, session);
  push_slow_answer (f, "The first half, ", "and the second half.", 1500);
  send_text (f, "Take your time");
  agui_test_wait_until (shows_text (f->window, "The first half,"), "the answer started");
  tandem_test_wait_for_threads (f->window);
  agui_test_wait_until (find_row (f->window, thread_id) != NULL && find_row (f->window, other_id) != NULL,
                        "both conversations are listed");

  /* Away, by the sidebar, as a person does */
  activate_row (f->window, other_id);
  agui_test_wait_until (shows_thread (f->window, other_id), "the other conversation is shown");
  g_assert_true (agui_agent_session_get_busy (session));
  agui_test_wait_until (row_marks_are (f->window, thread_id, TRUE, FALSE), "the sidebar says it works");

  /* Back while it streams: the very session */
  activate_row (f->window, thread_id);
  agui_test_wait_until (tandem_window_get_session (f->window) == session, "the running conversation is shown again");
  g_assert_true (agui_agent_session_get_busy (session));
  agui_test_wait_until (shows_text (f->window, "The first half, and the second half."), "the answer ends on screen");
  agui_test_wait_for_exchange (session);
  assert_stream_complete (f, 1);
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (session)), ==, AGUI_OUTCOME_SUCCESS);

  /* Followed to its end */
  tandem_test_wait_for_layout (f->window);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));
  agui_test_wait_until (gtk_adjustment_get_value (adjustment) >=
                          gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 8,
                        "the view followed the answer to its end");
  g_assert_false (gtk_widget_get_visible (tandem_test_child (f->window, "jump_button")));
  agui_test_wait_until (row_marks_are (f->window, thread_id, FALSE, FALSE), "shown, it is neither working nor unseen");
  tandem_test_take_notifications ();
}

static void
test_marks (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_autoptr(GPtrArray) notifications = NULL;
  AguiAgentSession *shown;

  g_test_summary ("The sidebar marks a conversation working while its answer streams out of sight, "
                  "then unseen once it ended, and clears the mark when it is shown");

  tandem_window_set_session (f->window, session);
  push_slow_answer (f, "Part one. ", "Part two.", 800);
  send_text (f, "Answer while I look away");
  agui_test_wait_until (shows_text (f->window, "Part one."), "the answer started");
  tandem_test_wait_for_threads (f->window);
  agui_test_wait_until (row_marks_are (f->window, thread_id, TRUE, FALSE), "the shown conversation works");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "New Chat is shown");
  agui_test_wait_until (row_marks_are (f->window, thread_id, TRUE, FALSE), "out of sight, it still works");
  tandem_test_unfocus_windows (f->window);

  agui_test_wait_for_exchange (session);
  assert_stream_complete (f, 0);
  agui_test_wait_until (row_marks_are (f->window, thread_id, FALSE, TRUE), "its answer ended unseen");
  /* With the window in the background, the desktop is told too */
  notifications = tandem_test_wait_for_notifications (1);
  tandem_test_assert_notification (notifications->pdata[0], "Tandem: the agent answered", "Part one. Part two.",
                                   (const char * const[]) { "default", "", NULL });

  /* Opened again (from the store now: it is idle), the mark goes */
  activate_row (f->window, thread_id);
  agui_test_wait_until (shows_thread (f->window, thread_id), "the conversation is shown");
  agui_test_wait_until (row_marks_are (f->window, thread_id, FALSE, FALSE), "seen, the mark is gone");
  shown = tandem_window_get_session (f->window);
  agui_test_wait_until (shows_text (f->window, "Part one. Part two."), "the whole answer is there");
  g_assert_true (shown != session);
}

static void
test_new_chat_during_run (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  AguiAgentSession *fresh;

  g_test_summary ("New Chat during an answer shows an empty conversation and the answer goes on, "
                  "complete in the store and on the agent's side");

  tandem_window_set_session (f->window, session);
  push_slow_answer (f, "Still ", "going.", 1000);
  send_text (f, "Keep going");
  agui_test_wait_until (shows_text (f->window, "Still"), "the answer started");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "New Chat is shown");
  fresh = tandem_window_get_session (f->window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (fresh))), ==, 0);
  g_assert_true (agui_agent_session_get_busy (session));
  g_assert_cmpuint (tandem_window_get_n_running (f->window), ==, 1);

  agui_test_wait_for_exchange (session);
  assert_stream_complete (f, 0);
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (session)), ==, AGUI_OUTCOME_SUCCESS);
  g_assert_cmpuint (tandem_window_get_n_running (f->window), ==, 0);
  /* The new chat is still the one shown */
  g_assert_true (tandem_window_get_session (f->window) == fresh);
  tandem_test_wait_for_threads (f->window);
  agui_test_wait_until (row_marks_are (f->window, thread_id, FALSE, TRUE), "the answer waits to be seen");
}

static gboolean
entry_has_text (gpointer data)
{
  return gtk_editable_get_text (GTK_EDITABLE (data))[0] != '\0';
}

static void
test_find_closed_during_run (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  g_autoptr(GPtrArray) entries = NULL;
  GtkWidget *entry = NULL;

  g_test_summary ("Closing Find with Escape during an answer leaves the answer running");

  tandem_window_set_session (f->window, session);
  push_slow_answer (f, "Searchable ", "text.", 1500);
  send_text (f, "Something to find");
  agui_test_wait_until (shows_text (f->window, "Searchable"), "the answer started");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  agui_test_wait_until (tandem_conversation_search_get_active (search), "Find is open");
  entries = tandem_test_find_all (search, GTK_TYPE_SEARCH_ENTRY);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = entries->pdata[0];
  agui_test_wait_until (gtk_widget_has_focus (gtk_widget_get_first_child (entry)) ||
                          gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), entry),
                        "the search entry has the focus");

  /* The X server hands the window its focus a little after it is asked
   * to: a key typed first, until it is seen, shows that keys arrive */
  for (guint i = 0; i < 20 && gtk_editable_get_text (GTK_EDITABLE (entry))[0] == '\0'; i++)
    {
      tandem_test_press_key (entry, GDK_KEY_h, 0);
      agui_test_wait_for (entry_has_text, entry, 250);
    }
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), !=, "");

  tandem_test_press_key (entry, GDK_KEY_Escape, 0);
  agui_test_wait_until (!tandem_conversation_search_get_active (search), "Escape closed Find");
  agui_test_wait_to_rule_out (100, "closing Find stopping the run");
  g_assert_true (agui_agent_session_get_busy (session));

  agui_test_wait_for_exchange (session);
  assert_stream_complete (f, 0);
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (session)), ==, AGUI_OUTCOME_SUCCESS);
  tandem_test_take_notifications ();
}

static void
test_approval_out_of_sight (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  TandemApprovalNotice *notice = TANDEM_APPROVAL_NOTICE (tandem_test_child (f->window, "approval_notice"));
  g_autoptr(GPtrArray) notifications = NULL;
  gboolean by_notification = GPOINTER_TO_INT (data);
  TandemApprovalDialog *dialog;
  AguiTestResponse *response;
  g_autofree char *target = NULL;
  const char *action;
  GVariant *hints;
  GVariant *value;

  g_test_summary ("A question asked in a conversation that is not shown raises a notice naming it and "
                  "a desktop notification; the notice's Open (or the notification) shows it and asks");

  tandem_window_set_session (f->window, session);
  response = agui_test_response_new_events (RS ("r1"), START ("m1"), DELTA ("m1", "Let me clean up."), END ("m1"), NULL);
  agui_test_response_append_stall (response, 800);
  agui_test_response_append_event_json (response, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clean_folder\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  agui_test_response_append_event_json (response, INTERRUPT ("r1"));
  agui_test_server_push_response (f->server, response);
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"), START ("m2"), DELTA ("m2", "Cleaned."),
                                                                 END ("m2"), RF ("r2"), NULL));
  send_text (f, "Clean up my folder");
  agui_test_wait_until (shows_text (f->window, "Let me clean up."), "the answer started");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "New Chat is shown");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (notice)));
  /* The person is in another application */
  tandem_test_unfocus_windows (f->window);

  /* Asked out of sight: the notice, the sidebar, the desktop */
  agui_test_wait_until (gtk_widget_get_visible (GTK_WIDGET (notice)), "the notice shows");
  g_assert_cmpstr (tandem_approval_notice_get_text (notice), ==, "“Clean up my folder” needs your approval");
  g_assert_cmpstr (tandem_approval_notice_get_thread_id (notice), ==, thread_id);
  g_assert_null (find_approval_dialog ());
  tandem_test_wait_for_threads (f->window);
  agui_test_wait_until (find_row (f->window, thread_id) != NULL &&
                          tandem_thread_row_get_waiting (find_row (f->window, thread_id)),
                        "the sidebar says it waits");

  notifications = tandem_test_wait_for_notifications (1);
  g_assert_cmpuint (notifications->len, ==, 1);
  tandem_test_assert_notification (notifications->pdata[0], "The agent needs your approval", "Clean up my folder",
                                   (const char * const[]) { "default", "", NULL });
  /* Its default action opens that conversation: GLib's fdo backend puts
   * the action and its target in the hints */
  hints = g_variant_get_child_value (notifications->pdata[0], 6);
  g_assert_nonnull (hints);
  g_variant_unref (hints);

  if (by_notification)
    {
      g_action_group_activate_action (G_ACTION_GROUP (app), "open-thread", g_variant_new_string (thread_id));
    }
  else
    {
      GtkWidget *button = tandem_approval_notice_get_button (notice);

      action = gtk_actionable_get_action_name (GTK_ACTIONABLE (button));
      g_assert_cmpstr (action, ==, "win.open-thread");
      value = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));
      target = g_variant_dup_string (value, NULL);
      g_assert_cmpstr (target, ==, thread_id);
      g_signal_emit_by_name (button, "clicked");
    }

  agui_test_wait_until (tandem_window_get_session (f->window) == session, "the waiting conversation is shown");
  agui_test_wait_until (find_approval_dialog () != NULL, "its question is asked");
  dialog = find_approval_dialog ();
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (dialog)), "Clean up my folder"));
  agui_test_wait_until (!gtk_widget_get_visible (GTK_WIDGET (notice)), "the notice went");

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  agui_test_wait_until (shows_text (f->window, "Cleaned."), "the approved run answered");
  agui_test_wait_for_exchange (session);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
}

static void
test_approval_notice_goes (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 3);
  g_autofree char *expires_at = g_date_time_format_iso8601 (soon);
  g_autofree char *interrupt = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\","
                                                "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\","
                                                "\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"expiresAt\":\"%s\"}]}}",
                                                expires_at);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  TandemApprovalNotice *notice = TANDEM_APPROVAL_NOTICE (tandem_test_child (f->window, "approval_notice"));
  g_autoptr(GPtrArray) notifications = NULL;
  AguiTestResponse *response;

  g_test_summary ("The notice of a question asked out of sight goes when the question expires, "
                  "and so does the sidebar's waiting mark");

  tandem_window_set_session (f->window, session);
  response = agui_test_response_new_events (RS ("r1"), START ("m1"), DELTA ("m1", "About to ask"), END ("m1"), NULL);
  agui_test_response_append_stall (response, 500);
  agui_test_response_append_event_json (response, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clean_folder\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  agui_test_response_append_event_json (response, interrupt);
  agui_test_server_push_response (f->server, response);
  send_text (f, "Expiring question");
  agui_test_wait_until (shows_text (f->window, "About to ask"), "the answer started");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "New Chat is shown");
  tandem_test_unfocus_windows (f->window);

  agui_test_wait_until (gtk_widget_get_visible (GTK_WIDGET (notice)), "the notice shows");
  notifications = tandem_test_wait_for_notifications (1);
  tandem_test_wait_for_threads (f->window);
  agui_test_wait_until (!gtk_widget_get_visible (GTK_WIDGET (notice)), "the notice went with the question");
  agui_test_wait_until (find_row (f->window, thread_id) != NULL &&
                          !tandem_thread_row_get_waiting (find_row (f->window, thread_id)),
                        "the sidebar does not say it waits");
}

static void
test_open_in_its_window (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  TandemWindow *other;
  AguiAgentSession *other_session;

  g_test_summary ("A notification's action opens its conversation in the window where it runs, "
                  "not in another window opened since");

  tandem_window_set_session (f->window, session);
  push_slow_answer (f, "Over here ", "still.", 1500);
  send_text (f, "Keep this one going");
  agui_test_wait_until (shows_text (f->window, "Over here"), "the answer started");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "New Chat is shown");

  other = tandem_window_new (app);
  gtk_window_present (GTK_WINDOW (other));
  tandem_test_wait_for_layout (other);
  other_session = tandem_window_get_session (other);
  g_assert_true (gtk_application_get_active_window (GTK_APPLICATION (app)) == GTK_WINDOW (other));

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-thread", g_variant_new_string (thread_id));
  agui_test_wait_until (tandem_window_get_session (f->window) == session, "its own window shows it, still running");
  g_assert_true (agui_agent_session_get_busy (session));
  g_assert_true (tandem_window_get_session (other) == other_session);

  agui_test_wait_for_exchange (session);
  assert_stream_complete (f, 0);
  tandem_test_destroy_window (other);
}

static void
test_expired_banner (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 3);
  g_autofree char *expires_at = g_date_time_format_iso8601 (soon);
  g_autofree char *interrupt = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\","
                                                "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\","
                                                "\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"expiresAt\":\"%s\"}]}}",
                                                expires_at);
  GtkWidget *banner = tandem_test_child (f->window, "interrupt_banner");
  TandemApprovalDialog *dialog;

  g_test_summary ("The question banner stops saying a question waits once it expired, and offers to dismiss it");

  tandem_window_set_session (f->window, session);
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"),
                                                                 "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clean_folder\"}",
                                                                 "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
                                                                 interrupt, NULL));
  send_text (f, "Ask me, briefly");
  agui_test_wait_until (find_approval_dialog () != NULL, "the question is asked");
  dialog = find_approval_dialog ();
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "later");
  agui_test_wait_until (find_approval_dialog () == NULL, "put off");
  agui_test_wait_until (gtk_widget_is_drawable (banner) &&
                          tandem_test_find_label (banner, "1 question waiting for your answer") != NULL,
                        "the banner says it waits");

  agui_test_wait_until (tandem_test_find_label (banner, "1 question expired unanswered") != NULL,
                        "the banner says it expired");
  g_assert_null (tandem_test_find_label (banner, "1 question waiting for your answer"));
  g_assert_nonnull (tandem_test_find_label (banner, "Dismiss…"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tandem_test_child (f->window, "composer_placeholder"))), ==,
                   "Dismiss the expired question to continue");
}

static void
test_bound (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AguiAgentSession) fifth = new_session (f);
  g_autofree char *text = NULL;

  g_test_summary ("At most four answers are written at once: a fifth send is refused with a toast "
                  "saying why, its text kept, and goes once one ended");

  g_assert_cmpuint (TANDEM_RUN_REGISTRY_MAX_RUNS, ==, 4);
  for (guint i = 0; i < TANDEM_RUN_REGISTRY_MAX_RUNS; i++)
    {
      AguiAgentSession *session = new_session (f);
      AguiTestResponse *response = agui_test_response_new_events (RS ("r1"), START ("m1"), DELTA ("m1", "Working"), NULL);

      g_ptr_array_add (sessions, session);
      agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
      agui_test_server_push_response (f->server, response);
      tandem_window_set_session (f->window, session);
      send_text (f, "One of many");
      agui_test_wait_until (agui_agent_session_get_busy (session), "a run started");
    }
  g_assert_cmpuint (tandem_window_get_n_running (f->window), ==, 4);
  agui_test_wait_until (agui_test_server_get_n_requests (f->server) == 4, "four requests reached the agent");

  tandem_window_set_session (f->window, fifth);
  send_text (f, "One too many");
  agui_test_wait_until (shows_toast (f->window, "Not sent: 4 answers are already being written. Wait for one or stop one."),
                        "a toast says why the message was not sent");
  g_assert_false (agui_agent_session_get_busy (fifth));
  text = dup_composer_text (f->window);
  g_assert_cmpstr (text, ==, "One too many");
  agui_test_wait_to_rule_out (100, "a fifth request");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 4);

  /* One stopped, there is room */
  agui_agent_session_cancel (sessions->pdata[0]);
  agui_test_wait_until (tandem_window_get_n_running (f->window) == 3, "one run stopped");
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), START ("m1"), DELTA ("m1", "Done"),
                                                                 END ("m1"), RF ("r1"), NULL));
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  agui_test_wait_until (agui_agent_session_get_busy (fifth) || agui_test_server_get_n_requests (f->server) == 5,
                        "the fifth run started");
  agui_test_wait_for_exchange (fifth);

  for (guint i = 1; i < sessions->len; i++)
    agui_agent_session_cancel (sessions->pdata[i]);
  agui_test_wait_until (tandem_window_get_n_running (f->window) == 0, "every run stopped");
  tandem_test_take_notifications ();
}

static void
test_quit_asks (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = new_session (f);
  g_autoptr(AguiAgentSession) shown = new_session (f);
  g_autofree char *thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  TandemWindow *closed = f->window;
  AdwMessageDialog *dialog;
  AguiTestResponse *response;
  const AguiTestRequest *request;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Quit with an answer written out of sight asks first; Cancel keeps it running, "
                  "Quit stops it and saves what it wrote, marked stopped");

  tandem_window_set_session (f->window, session);
  response = agui_test_response_new_events (RS ("r1"), START ("m1"), DELTA ("m1", "Half written"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);
  send_text (f, "Write slowly");
  agui_test_wait_until (shows_text (f->window, "Half written"), "the answer started");
  tandem_window_set_session (f->window, shown);

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  agui_test_wait_until (find_quit_dialog () != NULL, "Quit asks");
  dialog = find_quit_dialog ();
  /* Ctrl+Q again: the same question, not a second one */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_true (find_quit_dialog () == dialog);
  {
    GList *toplevels = gtk_window_list_toplevels ();
    guint n = 0;

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
        n++;
    g_list_free (toplevels);
    g_assert_cmpuint (n, ==, 1);
  }
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Stop 1 Running Answer?");
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "cancel"), ==, "_Cancel");
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "quit"), ==, "_Quit");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "quit"), ==, ADW_RESPONSE_DESTRUCTIVE);

  click_response (dialog, "Cancel");
  agui_test_wait_until (find_quit_dialog () == NULL, "Cancel closed the question");
  agui_test_wait_to_rule_out (100, "Cancel stopping the run or closing the window");
  g_assert_true (agui_agent_session_get_busy (session));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));

  /* Closing the window asks as well */
  gtk_window_close (GTK_WINDOW (f->window));
  agui_test_wait_until (find_quit_dialog () != NULL, "closing asks");
  click_response (find_quit_dialog (), "Cancel");
  agui_test_wait_until (find_quit_dialog () == NULL, "Cancel closed the question");
  g_assert_true (agui_agent_session_get_busy (session));

  g_object_add_weak_pointer (G_OBJECT (closed), (gpointer *) &closed);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  agui_test_wait_until (find_quit_dialog () != NULL, "Quit asks again");
  click_response (find_quit_dialog (), "Quit");
  agui_test_wait_until (closed == NULL, "the window went once the answer was saved");
  f->window = NULL;

  g_assert_false (agui_agent_session_get_busy (session));
  g_assert_cmpint (agui_run_state_get_outcome (agui_agent_session_get_run_state (session)), ==, AGUI_OUTCOME_CANCELLED);
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, TIMEOUT_MS));
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_DISCONNECTED);
  thread = agui_session_store_get_thread (tandem_application_get_store (app), thread_id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (thread);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("background-runs", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

#define ADD(path, fn, data) g_test_add ("/tandem/background/" path, Fixture, data, fixture_set_up, fn, fixture_tear_down)
  ADD ("switch-and-back", test_switch_and_back, NULL);
  ADD ("marks", test_marks, NULL);
  ADD ("new-chat-during-run", test_new_chat_during_run, NULL);
  ADD ("find-closed-during-run", test_find_closed_during_run, NULL);
  ADD ("approval/notice", test_approval_out_of_sight, GINT_TO_POINTER (FALSE));
  ADD ("approval/notification", test_approval_out_of_sight, GINT_TO_POINTER (TRUE));
  ADD ("approval/notice-goes", test_approval_notice_goes, NULL);
  ADD ("open-in-its-window", test_open_in_its_window, NULL);
  ADD ("expired-banner", test_expired_banner, NULL);
  ADD ("bound", test_bound, NULL);
  ADD ("quit-asks", test_quit_asks, NULL);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_dir);
  g_free (store_path);

  return result;
}
