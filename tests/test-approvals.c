/* test-approvals.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>

#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-approval-dialog.h"
#include "tandem-attempt-frame.h"
#include "tandem-composer.h"
#include "tandem-interrupt-banner.h"
#include "tandem-run-registry.h"
#include "tandem-schema-form.h"
#include "tandem-thread-row.h"
#include "tandem-tool-card.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* Every way a question can be answered, put off or never answered, in a
 * real TandemWindow on a real store, against the loopback AG-UI server;
 * and what the tool card says afterwards, also once the conversation is
 * reopened by a second application on the same file. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}", \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}", \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CALL(id, name) \
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name "\"}", \
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"{\\\"folder\\\":\\\"/tmp/old\\\"}\"}", \
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"
#define RESULT(id, text) \
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"res-" id "\",\"toolCallId\":\"" id "\",\"content\":\"" text "\",\"role\":\"tool\"}"
#define APPROVAL_SCHEMA \
  ",\"responseSchema\":{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"}," \
  "\"editedArgs\":{\"type\":\"object\",\"properties\":{\"folder\":{\"type\":\"string\"}}}}}"
#define INTERRUPTS(run, list) \
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\",\"outcome\":{\"type\":\"interrupt\"," \
  "\"interrupts\":[" list "]}}"
#define ASK(id, call, extra) \
  "{\"id\":\"" id "\",\"toolCallId\":\"" call "\"" extra "}"
#define TOOL_CALL ",\"reason\":\"tool_call\""

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiAgentSession  *session;
  TandemWindow      *window;
} Fixture;

/* Helpers */

static TandemToolCard *
find_card (TandemWindow *window,
           const char   *tool_call_id)
{
  g_autoptr(GPtrArray) cards = tandem_test_find_all (window, TANDEM_TYPE_TOOL_CARD);

  for (guint i = 0; i < cards->len; i++)
    {
      AguiToolCallPart *part = tandem_tool_card_get_part (cards->pdata[i]);

      if (part != NULL && g_strcmp0 (agui_tool_call_part_get_tool_call_id (part), tool_call_id) == 0)
        return cards->pdata[i];
    }

  return NULL;
}

typedef struct
{
  TandemWindow *window;
  const char   *tool_call_id;
  const char   *status;
} CardStatus;

static gboolean
card_has_status (gpointer data)
{
  CardStatus *expected = data;
  TandemToolCard *card = find_card (expected->window, expected->tool_call_id);

  return card != NULL && g_strcmp0 (tandem_tool_card_get_status_text (card), expected->status) == 0;
}

static void
assert_card_status (TandemWindow *window,
                    const char   *tool_call_id,
                    const char   *status)
{
  CardStatus expected = { window, tool_call_id, status };

  if (!agui_test_wait_for (card_has_status, &expected, TIMEOUT_MS))
    {
      TandemToolCard *card = find_card (window, tool_call_id);

      g_error ("Card %s reads “%s”, expected “%s”", tool_call_id,
               card ? tandem_tool_card_get_status_text (card) : "(no card)", status);
    }
}

static TandemApprovalDialog *
find_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  TandemApprovalDialog *dialog = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_APPROVAL_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_list_free (toplevels);

  return dialog;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

static TandemApprovalDialog *
wait_for_dialog (void)
{
  g_assert_true (agui_test_wait_for (dialog_shown, NULL, TIMEOUT_MS));

  return find_dialog ();
}

static gboolean
no_dialog (gpointer data)
{
  return find_dialog () == NULL;
}

typedef struct
{
  Fixture *f;
  guint    n;
} Count;

static gboolean
server_has_requests (gpointer data)
{
  Count *count = data;

  return agui_test_server_get_n_requests (count->f->server) >= count->n;
}

static void
send_text (Fixture    *f,
           const char *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
}

static void
push (Fixture    *f,
      const char *first,
      ...) G_GNUC_NULL_TERMINATED;

static void
push (Fixture    *f,
      const char *first,
      ...)
{
  AguiTestResponse *response = agui_test_response_new ();
  va_list args;

  va_start (args, first);
  for (const char *json = first; json != NULL; json = va_arg (args, const char *))
    agui_test_response_append_event_json (response, json);
  va_end (args);

  agui_test_server_push_response (f->server, response);
}

typedef struct
{
  TandemWindow *window;
  const char   *thread_id;
} Reopen;

static gboolean
thread_opened (gpointer data)
{
  Reopen *reopen = data;
  AguiAgentSession *session = tandem_window_get_session (reopen->window);

  return session != NULL && g_strcmp0 (agui_agent_session_get_thread_id (session), reopen->thread_id) == 0;
}

/* A second application on the same store, as after a restart, showing
 * @thread_id. */
static TandemWindow *
relaunch (TandemApplication **second,
          const char         *thread_id)
{
  g_autoptr(GError) error = NULL;
  static guint n;
  g_autofree char *id = g_strdup_printf ("io.github.tandemdesk.Tandem.Relaunch%u", ++n);
  TandemWindow *window;
  Reopen reopen;

  *second = tandem_test_application_new (id, store_path);

  window = tandem_window_new (*second);
  gtk_window_present (GTK_WINDOW (window));
  reopen.window = window;
  reopen.thread_id = thread_id;
  tandem_window_open_thread (window, thread_id);
  g_assert_true (agui_test_wait_for (thread_opened, &reopen, TIMEOUT_MS));
  tandem_test_wait_for_layout (window);

  return window;
}

/* Fixture: a stored conversation on the loopback agent. */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = g_uuid_string_random ();

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", thread_id, "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  tandem_window_set_session (f->window, f->session);
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

  /* The window is never in front here (no window manager focuses it), so
   * a finished answer was told on the desktop too: only that. */
  notifications = tandem_test_take_notifications ();
  for (guint i = 0; i < notifications->len; i++)
    tandem_test_assert_notification (notifications->pdata[i], "Tandem: the agent answered", NULL,
                                     (const char * const[]) { "default", "", NULL });
  g_clear_object (&f->session);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

/* Tests */

typedef struct
{
  const char *name;
  const char *interrupt;  /* the interrupt's extra members */
  const char *response;   /* the dialog response given */
  gboolean    edit;
  const char *result;     /* the resumed run's result for tc1, or NULL */
  const char *status;     /* what the card reads then, and after a relaunch */
  const char *answer;     /* the answer line */
} Case;

static const Case cases[] = {
  { "approved", TOOL_CALL APPROVAL_SCHEMA, "approve", FALSE, "done", "Complete", "You approved" },
  { "approved-no-result", TOOL_CALL APPROVAL_SCHEMA, "approve", FALSE, NULL, "No result", "You approved" },
  { "approved-edited", TOOL_CALL APPROVAL_SCHEMA, "approve", TRUE, NULL, "No result", "You approved with changes" },
  { "denied", TOOL_CALL APPROVAL_SCHEMA, "deny", FALSE, "The user denied this", "Denied", "You denied" },
  { "denied-no-result", TOOL_CALL, "deny", FALSE, NULL, "Denied", "You denied" },
  { "cancelled", ",\"reason\":\"input_required\"", "cancel", FALSE, "cancelled", "Cancelled", "You dismissed the question" },
  { "expired", TOOL_CALL ",\"expiresAt\":\"2001-02-03T04:05:06Z\"", "cancel", FALSE, "expired", "Expired", "The question expired unanswered" },
  { "answered", ",\"reason\":\"input_required\"", "submit", FALSE, "ok", "Complete", "You answered: /srv/new" },
};

static void
test_card_state (Fixture       *f,
                 gconstpointer  data)
{
  const Case *c = data;
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *interrupt = g_strdup_printf (INTERRUPTS ("r1", ASK ("i1", "tc1", "%s")), c->interrupt);
  g_autofree char *result = c->result ? g_strdup_printf (RESULT ("tc1", "%s"), c->result) : NULL;
  g_autofree char *thread_id = NULL;
  TandemApprovalDialog *dialog;
  TandemToolCard *card;
  TandemWindow *window;
  Count two = { f, 2 };

  g_test_summary ("Each answer leaves the card in its own state, with its answer line, also after a relaunch; "
                  "deny, cancel and expiry never read Complete");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), interrupt, NULL);
  if (result != NULL)
    push (f, RS ("r2"), result, TEXT ("m2", "Finished."), RF ("r2"), NULL);
  else
    push (f, RS ("r2"), TEXT ("m2", "Finished."), RF ("r2"), NULL);

  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  card = find_card (f->window, "tc1");
  /* Past its expiresAt, the card says so before anyone answers */
  if (strstr (c->interrupt, "expiresAt") != NULL)
    {
      assert_card_status (f->window, "tc1", "Expired");
      g_assert_cmpstr (tandem_tool_card_get_answer_text (card), ==, "The question expired unanswered");
    }
  else
    {
      assert_card_status (f->window, "tc1", "Awaiting approval");
      g_assert_cmpstr (tandem_tool_card_get_answer_text (card), ==, "The agent is waiting for your answer");
    }

  if (c->edit)
    {
      GtkWidget *form;

      tandem_approval_dialog_set_editing (dialog, TRUE);
      form = tandem_approval_dialog_get_form (dialog);
      g_assert_nonnull (form);
      {
        g_autoptr(GPtrArray) entries = tandem_test_find_all (form, GTK_TYPE_EDITABLE);

        g_assert_cmpuint (entries->len, >, 0);
        gtk_editable_set_text (GTK_EDITABLE (entries->pdata[0]), "/tmp/older");
      }
    }
  if (g_str_equal (c->response, "submit"))
    {
      g_autoptr(GPtrArray) entries = tandem_test_find_all (tandem_approval_dialog_get_form (dialog), GTK_TYPE_EDITABLE);

      gtk_editable_set_text (GTK_EDITABLE (entries->pdata[0]), "/srv/new");
    }
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), c->response);

  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  assert_card_status (f->window, "tc1", c->status);
  card = find_card (f->window, "tc1");
  g_assert_cmpstr (tandem_tool_card_get_answer_text (card), ==, c->answer);
  if (!g_str_equal (c->status, "Complete"))
    g_assert_cmpstr (tandem_tool_card_get_status_text (card), !=, "Complete");
  if (c->edit)
    {
      g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "/tmp/older"));
      g_assert_nonnull (tandem_test_find_label (card, "Arguments (edited by you)"));
      g_assert_nonnull (strstr (tandem_tool_card_get_original_arguments_text (card), "/tmp/old\""));
    }
  else
    {
      g_assert_null (tandem_tool_card_get_original_arguments_text (card));
    }

  /* The banner went with the question. */
  g_assert_cmpuint (tandem_interrupt_banner_get_count (TANDEM_INTERRUPT_BANNER (tandem_test_child (f->window, "interrupt_banner"))), ==, 0);

  /* After a relaunch, the same. */
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  assert_card_status (window, "tc1", c->status);
  card = find_card (window, "tc1");
  g_assert_cmpstr (tandem_tool_card_get_answer_text (card), ==, c->answer);
  if (c->edit)
    g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "/tmp/older"));
  tandem_test_destroy_window (window);
}

static void
test_decide_later (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  TandemApprovalDialog *dialog;
  TandemInterruptBanner *banner;
  TandemWindow *window;
  AguiAgentSession *session;

  g_test_summary ("With a question open the window scrolls, switches conversations and quits; "
                  "closing the dialog answers nothing and the question is back after a relaunch");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL APPROVAL_SCHEMA)), NULL);
  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  g_assert_false (gtk_window_get_modal (GTK_WINDOW (dialog)));

  /* The window still works while it asks: another conversation... */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != f->session, "New Chat switched to another session");
  /* ...and back. */
  tandem_window_set_session (f->window, f->session);

  /* Escape on the dialog: decide later. */
  dialog = find_dialog ();
  if (dialog != NULL)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
      g_assert_true (agui_test_wait_for (no_dialog, NULL, TIMEOUT_MS));
    }
  /* Deciding later answers nothing: give a wrong resume time to be sent. */
  agui_test_wait_to_rule_out (100, "a resume sent on deciding later");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  banner = TANDEM_INTERRUPT_BANNER (tandem_test_child (f->window, "interrupt_banner"));
  g_assert_cmpuint (tandem_interrupt_banner_get_count (banner), ==, 1);
  g_assert_cmpstr (tandem_interrupt_banner_get_text (banner), ==, "1 question waiting for your answer");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (banner)));
  assert_card_status (f->window, "tc1", "Awaiting approval");

  /* Answer… reopens it; quitting with it open answers nothing either. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.answer-interrupts", NULL));
  wait_for_dialog ();
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = NULL;
  g_assert_true (agui_test_wait_for (no_dialog, NULL, TIMEOUT_MS));
  /* Quitting answers nothing: give a wrong resume time to be sent. */
  agui_test_wait_to_rule_out (100, "a resume sent on quitting with the dialog open");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  window = relaunch (&second, thread_id);
  session = tandem_window_get_session (window);
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (session)), ==, 1);
  assert_card_status (window, "tc1", "Awaiting approval");
  banner = TANDEM_INTERRUPT_BANNER (tandem_test_child (window, "interrupt_banner"));
  g_assert_cmpuint (tandem_interrupt_banner_get_count (banner), ==, 1);
  tandem_test_destroy_window (window);
}

typedef struct
{
  TandemWindow *window;
  gboolean      waiting_only;
} ThreadRows;

/* Whether the sidebar lists rows, at least one of them marked waiting,
 * and (with waiting_only) nothing else. */
static gboolean
rows_marked (gpointer data)
{
  ThreadRows *expected = data;
  GtkWidget *list = tandem_test_child (expected->window, "thread_list");
  guint waiting = 0, others = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      if (!GTK_IS_LIST_BOX_ROW (row))
        continue;
      if (gtk_widget_has_css_class (row, "waiting"))
        waiting++;
      else
        others++;
    }

  return waiting > 0 && (!expected->waiting_only || others == 0);
}

static GtkWidget *
find_waiting_button (TandemWindow *window)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (window, GTK_TYPE_TOGGLE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (buttons->pdata[i]), "Show Only Conversations Waiting for You") == 0)
      return buttons->pdata[i];

  g_assert_not_reached ();
}

static void
test_sidebar_waiting (Fixture       *f,
                      gconstpointer  data)
{
  ThreadRows marked = { f->window, FALSE };
  ThreadRows only = { f->window, TRUE };
  g_autoptr(AguiAgentSession) other = NULL;
  TandemApprovalDialog *dialog;
  GtkWidget *list = tandem_test_child (f->window, "thread_list");
  guint rows = 0;

  g_test_summary ("A conversation waiting for the person is marked in the sidebar; the filter shows only those");

  /* A conversation that does not wait, so the filter has something to hide. */
  push (f, RS ("r0"), TEXT ("m0", "Nothing to ask."), RF ("r0"), NULL);
  send_text (f, "Just chatting");
  agui_test_wait_for_exchange (f->session);

  other = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  tandem_window_set_session (f->window, other);
  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL)), NULL);
  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_true (agui_test_wait_for (no_dialog, NULL, TIMEOUT_MS));
  agui_test_wait_for_exchange (other);

  tandem_window_refresh_threads (f->window);

  tandem_test_wait_for_threads (f->window);
  g_assert_true (agui_test_wait_for (rows_marked, &marked, TIMEOUT_MS));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_waiting_button (f->window)), TRUE);
  g_assert_true (agui_test_wait_for (rows_marked, &only, TIMEOUT_MS));
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    rows += GTK_IS_LIST_BOX_ROW (row);
  g_assert_cmpuint (rows, >=, 1);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_waiting_button (f->window)), FALSE);
  g_assert_false (rows_marked (&only));
}

static void
test_two_questions (Fixture       *f,
                    gconstpointer  data)
{
  TandemApprovalDialog *dialog;
  JsonArray *resume;
  Count two = { f, 2 };

  g_test_summary ("Two questions in one run read 1 of 2 and 2 of 2 and go out in one resume");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), CALL ("tc2", "clean_folder"),
        INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL) "," ASK ("i2", "tc2", TOOL_CALL)), NULL);
  push (f, RS ("r2"), RESULT ("tc1", "done"), RESULT ("tc2", "denied"), RF ("r2"), NULL);

  send_text (f, "Clean both");
  dialog = wait_for_dialog ();
  g_assert_cmpstr (tandem_approval_dialog_get_position_text (dialog), ==, "Question 1 of 2");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  agui_test_wait_until ((dialog = find_dialog ()) != NULL &&
                        g_strcmp0 (tandem_approval_dialog_get_position_text (dialog), "Question 2 of 2") == 0,
                        "the second question's dialog followed the first");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "deny");

  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);
  resume = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "resume");
  g_assert_cmpuint (json_array_get_length (resume), ==, 2);
  assert_card_status (f->window, "tc1", "Complete");
  assert_card_status (f->window, "tc2", "Denied");
}

static void
test_metadata_only (Fixture       *f,
                    gconstpointer  data)
{
  TandemApprovalDialog *dialog;

  g_test_summary ("A Mastra suspension with no message and no streamed call shows its tool name");

  push (f, RS ("r1"), TEXT ("m1", "Let me archive that."),
        INTERRUPTS ("r1", ASK ("i1", "call_archive_2",
                               TOOL_CALL ",\"metadata\":{\"mastra\":{\"toolName\":\"archive_files\","
                               "\"args\":{\"folder\":\"/srv/old\"},\"suspendPayload\":{\"reason\":\"Needs approval\"}}}")),
        NULL);
  send_text (f, "Archive");
  dialog = wait_for_dialog ();
  g_assert_nonnull (tandem_test_find_label (dialog, "Tool: archive_files"));
  g_assert_null (tandem_test_find_label (dialog, "Tool call call_archive_2"));
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "Needs approval");
}

static char *
dup_notes (TandemWindow *window)
{
  g_autoptr(GPtrArray) frames = tandem_test_find_all (window, TANDEM_TYPE_ATTEMPT_FRAME);
  g_autoptr(GString) all = g_string_new (NULL);

  /* Only what is on screen: the list view keeps spare rows */
  for (guint i = 0; i < frames->len; i++)
    {
      g_autofree char *text = gtk_widget_is_drawable (frames->pdata[i])
                              ? tandem_attempt_frame_get_notes_text (frames->pdata[i]) : NULL;

      if (text != NULL)
        g_string_append_printf (all, "%s%s", all->len > 0 ? "\n" : "", text);
    }

  return all->len > 0 ? g_string_free (g_steal_pointer (&all), FALSE) : NULL;
}

static gboolean
window_has_notes (gpointer data)
{
  g_autofree char *notes = dup_notes (data);

  return notes != NULL;
}

static void
test_metadata_answer (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *notes = NULL;
  TandemApprovalDialog *dialog;
  TandemWindow *window;
  Count two = { f, 2 };

  g_test_summary ("The answer to a question with no tool card is a line of the turn, kept after a relaunch");

  push (f, RS ("r1"), TEXT ("m1", "Let me archive that."),
        INTERRUPTS ("r1", "{\"id\":\"i1\",\"reason\":\"tool_call\"" APPROVAL_SCHEMA
                          ",\"metadata\":{\"mastra\":{\"toolName\":\"archive_files\",\"args\":{}}}}"),
        NULL);
  push (f, RS ("r2"), TEXT ("m2", "Archived."), RF ("r2"), NULL);
  send_text (f, "Archive");
  dialog = wait_for_dialog ();
  g_assert_null (dup_notes (f->window));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  g_assert_true (agui_test_wait_for (window_has_notes, f->window, TIMEOUT_MS));
  notes = dup_notes (f->window);
  g_assert_cmpstr (notes, ==, "Run “archive_files” — You approved");
  g_clear_pointer (&notes, g_free);

  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  g_assert_true (agui_test_wait_for (window_has_notes, window, TIMEOUT_MS));
  notes = dup_notes (window);
  g_assert_cmpstr (notes, ==, "Run “archive_files” — You approved");
  tandem_test_destroy_window (window);
}

#define REFUSED_STATE \
  "2 of the agent’s changes to the shared state were refused, so it may be out of date. " \
  "The last: operation 0 (test /version): the value differs from the expected one"
#define REFUSED_ACTIVITY \
  "The agent’s change to this activity was refused, so it may be out of date: " \
  "operation 0 (remove /steps/0): index 0 is out of range at /steps (length 0)"

static void
test_refused_patches (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *notes = NULL;
  TandemWindow *window;

  g_test_summary ("A refused STATE_DELTA or ACTIVITY_DELTA is a line in the conversation, counted, "
                  "with the reason, kept after a relaunch");

  push (f, RS ("r1"), TEXT ("m1", "Planning."),
        "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"version\":1}}",
        "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/version\",\"value\":3}]}",
        "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/version\",\"value\":2}]}",
        "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a1\",\"activityType\":\"plan\",\"content\":{\"steps\":[]}}",
        "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a1\",\"activityType\":\"plan\","
        "\"patch\":[{\"op\":\"remove\",\"path\":\"/steps/0\"}]}",
        RF ("r1"), NULL);
  send_text (f, "Make a plan");
  agui_test_wait_for_exchange (f->session);

  agui_test_wait_until (window_has_notes (f->window), "the refusals shown in the conversation");
  notes = dup_notes (f->window);
  g_assert_cmpstr (notes, ==, REFUSED_STATE "\n" REFUSED_ACTIVITY);
  g_clear_pointer (&notes, g_free);

  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  agui_test_wait_until (window_has_notes (window), "the refusals shown after a relaunch");
  notes = dup_notes (window);
  g_assert_cmpstr (notes, ==, REFUSED_STATE "\n" REFUSED_ACTIVITY);
  tandem_test_destroy_window (window);
}

static void
test_escape_in_search (Fixture       *f,
                       gconstpointer  data)
{
  AguiTestResponse *response;
  AguiRunState *state;

  g_test_summary ("Escape in the search entry does not stop a run; in the composer it does");

  response = agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Working"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  send_text (f, "Take your time");
  g_assert_true (agui_test_wait_for (agui_test_session_busy, f->session, TIMEOUT_MS));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL));
  gtk_widget_grab_focus (tandem_test_child (f->window, "search_entry"));
  agui_test_wait_until (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), tandem_test_child (f->window, "search_entry")) ||
                          gtk_root_get_focus (GTK_ROOT (f->window)) == tandem_test_child (f->window, "search_entry"),
                        "the search entry took the focus");
  g_assert_false (tandem_window_handle_escape (f->window));
  /* Escape in the search must not stop the run: give a wrong stop time. */
  agui_test_wait_to_rule_out (100, "Escape in the search stopping the run");
  g_assert_true (agui_agent_session_get_busy (f->session));

  gtk_widget_grab_focus (tandem_test_child (f->window, "composer_view"));
  g_assert_true (tandem_window_handle_escape (f->window));
  g_assert_true (agui_test_wait_for (agui_test_session_idle, f->session, TIMEOUT_MS));
  state = agui_agent_session_get_run_state (f->session);
  g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_CANCELLED);
}

static const char *
find_mark (TandemWindow *window)
{
  g_autoptr(GPtrArray) frames = tandem_test_find_all (window, TANDEM_TYPE_ATTEMPT_FRAME);

  for (guint i = 0; i < frames->len; i++)
    if (tandem_attempt_frame_get_mark_text (frames->pdata[i]) != NULL)
      return tandem_attempt_frame_get_mark_text (frames->pdata[i]);

  return NULL;
}

static gboolean
window_has_mark (gpointer data)
{
  return find_mark (data) != NULL;
}

/* Every tool result answers a call of an earlier assistant message, and
 * every call has its result. */
static void
assert_history_valid (JsonArray *messages)
{
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  guint results = 0;

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *role = json_object_get_string_member (message, "role");

      if (g_str_equal (role, "assistant") && json_object_has_member (message, "toolCalls"))
        {
          JsonArray *list = json_object_get_array_member (message, "toolCalls");

          for (guint j = 0; j < json_array_get_length (list); j++)
            g_hash_table_add (calls, (gpointer) json_object_get_string_member (json_array_get_object_element (list, j), "id"));
        }
      else if (g_str_equal (role, "tool"))
        {
          g_assert_true (g_hash_table_contains (calls, json_object_get_string_member (message, "toolCallId")));
          results++;
        }
    }

  g_assert_cmpuint (results, ==, g_hash_table_size (calls));
}

static void
test_retry (Fixture       *f,
            gconstpointer  data)
{
  gboolean with_tools = GPOINTER_TO_INT (data);
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  TandemWindow *window;
  JsonArray *messages;
  JsonObject *last;
  Count two = { f, 2 };

  g_test_summary ("Retry answers the person's question again: the failed attempt stays, marked, "
                  "and is not sent as the agent's answer; the tool history stays valid");

  if (with_tools)
    push (f, RS ("r1"), CALL ("tc1", "read_file"), RESULT ("tc1", "contents"), CALL ("tc2", "read_file"),
          TEXT ("m1", "Hello, I am Tan"), "{\"type\":\"RUN_ERROR\",\"message\":\"overloaded\"}", NULL);
  else
    push (f, RS ("r1"), TEXT ("m1", "Hello, I am Tan"), "{\"type\":\"RUN_ERROR\",\"message\":\"overloaded\"}", NULL);
  push (f, RS ("r2"), TEXT ("m2", "Four."), RF ("r2"), NULL);

  send_text (f, "What is 2 + 2?");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (window_has_mark, f->window, TIMEOUT_MS));
  g_assert_cmpstr (find_mark (f->window), ==, "Failed — this answer was not given to the agent");

  /* The mark is kept with the conversation. */
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  g_assert_true (agui_test_wait_for (window_has_mark, window, TIMEOUT_MS));
  tandem_test_destroy_window (window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.retry", NULL));
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  assert_history_valid (messages);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      g_assert_cmpstr (json_object_get_string_member (message, "id"), !=, "m1");
      if (json_object_has_member (message, "content") &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (message, "content")))
        g_assert_cmpstr (json_object_get_string_member (message, "content"), !=, "Hello, I am Tan");
    }

  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  if (with_tools)
    {
      /* The call that was answered goes with its answer, after the
       * question; the one nobody answered is left out. */
      g_assert_cmpstr (json_object_get_string_member (last, "role"), ==, "tool");
      g_assert_cmpstr (json_object_get_string_member (last, "toolCallId"), ==, "tc1");
    }
  else
    {
      g_assert_cmpstr (json_object_get_string_member (last, "role"), ==, "user");
      g_assert_cmpstr (json_object_get_string_member (last, "content"), ==, "What is 2 + 2?");
    }

  /* The failed attempt is still on screen. */
  g_assert_cmpstr (find_mark (f->window), ==, "Failed — this answer was not given to the agent");
}

static void
test_stopped (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  AguiTestResponse *response;
  TandemWindow *window;

  g_test_summary ("A stopped turn says Stopped, also after a relaunch");

  response = agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Let me think"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  send_text (f, "Go slowly");
  g_assert_true (agui_test_wait_for (agui_test_session_busy, f->session, TIMEOUT_MS));
  /* The question shows as it is sent, the answer only once the agent's
   * first events are read: stopped before then, the run has nothing to
   * mark and says Stopped under the question instead (see
   * stopped-before-anything), so wait for the answer begun. */
  agui_test_wait_until (tandem_test_find_label (f->window, "Go slowly") != NULL, "the question was shown");
  agui_test_wait_until (tandem_test_find_label (f->window, "Let me think") != NULL, "the answer begun was shown");
  /* A run still going has no mark: give a wrong one time to show. */
  agui_test_wait_to_rule_out (200, "a mark on a run still going");
  g_assert_null (find_mark (f->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop", NULL));
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (window_has_mark, f->window, TIMEOUT_MS));
  g_assert_cmpstr (find_mark (f->window), ==, "Stopped");

  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  g_assert_true (agui_test_wait_for (window_has_mark, window, TIMEOUT_MS));
  g_assert_cmpstr (find_mark (window), ==, "Stopped");
  tandem_test_destroy_window (window);
}

static void
test_stopped_before_anything (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *notes = NULL;
  AguiTestResponse *response;
  TandemWindow *window;

  g_test_summary ("A run stopped before the agent sent anything leaves Stopped under the question, "
                  "also after a relaunch");

  response = agui_test_response_new_events (RS ("r1"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  send_text (f, "Think hard");
  g_assert_true (agui_test_wait_for (agui_test_session_busy, f->session, TIMEOUT_MS));
  /* A run still going has no notes: give wrong ones time to show. */
  agui_test_wait_to_rule_out (200, "notes on a run still going");
  g_assert_null (dup_notes (f->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop", NULL));
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (window_has_notes, f->window, TIMEOUT_MS));
  notes = dup_notes (f->window);
  g_assert_cmpstr (notes, ==, "Stopped");
  g_clear_pointer (&notes, g_free);

  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  window = relaunch (&second, thread_id);
  g_assert_true (agui_test_wait_for (window_has_notes, window, TIMEOUT_MS));
  notes = dup_notes (window);
  g_assert_cmpstr (notes, ==, "Stopped");
  tandem_test_destroy_window (window);
}

static TandemAttemptFrame *
find_marked_frame (TandemWindow *window)
{
  g_autoptr(GPtrArray) frames = tandem_test_find_all (window, TANDEM_TYPE_ATTEMPT_FRAME);

  for (guint i = 0; i < frames->len; i++)
    if (tandem_attempt_frame_get_mark_text (frames->pdata[i]) != NULL)
      return frames->pdata[i];

  return NULL;
}

static gboolean
failed_text_drawn (TandemWindow *window,
                   const char   *text)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (window, GTK_TYPE_LABEL);

  /* Any of them: the list view keeps spare rows, which are not drawn */
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0 &&
        gtk_widget_is_drawable (labels->pdata[i]))
      return TRUE;

  return FALSE;
}

static gboolean
partial_drawn (gpointer data)
{
  return failed_text_drawn (data, "Partial answer");
}

static gboolean
partial_hidden (gpointer data)
{
  return !failed_text_drawn (data, "Partial answer");
}

static void
test_collapse_failed (Fixture       *f,
                      gconstpointer  data)
{
  TandemAttemptFrame *frame;
  TandemToolCard *card;
  GtkWidget *button;

  g_test_summary ("A failed attempt folds away to one line and comes back");

  push (f, RS ("r1"), TEXT ("m1", "Partial answer"), CALL ("tc1", "read_file"),
        "{\"type\":\"RUN_ERROR\",\"message\":\"overloaded\"}", NULL);
  send_text (f, "Question");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (window_has_mark, f->window, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (partial_drawn, f->window, TIMEOUT_MS));

  frame = find_marked_frame (f->window);
  button = tandem_attempt_frame_get_collapse_button (frame);
  g_assert_true (gtk_widget_is_drawable (button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Hide");
  g_signal_emit_by_name (button, "clicked");

  /* Folded: the text and the card are gone from the screen, one line stays. */
  g_assert_true (agui_test_wait_for (partial_hidden, f->window, TIMEOUT_MS));
  card = find_card (f->window, "tc1");
  g_assert_true (card == NULL || !gtk_widget_is_drawable (GTK_WIDGET (card)));
  frame = find_marked_frame (f->window);
  g_assert_cmpstr (tandem_attempt_frame_get_mark_text (frame), ==, "Failed attempt hidden");
  button = tandem_attempt_frame_get_collapse_button (frame);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Show");
  g_assert_true (gtk_widget_is_drawable (button));
  /* The person's question is not part of the attempt. */
  g_assert_true (failed_text_drawn (f->window, "Question"));

  g_signal_emit_by_name (button, "clicked");
  g_assert_true (agui_test_wait_for (partial_drawn, f->window, TIMEOUT_MS));
  g_assert_cmpstr (find_mark (f->window), ==, "Failed — this answer was not given to the agent");
}

/* The approval dialog's conversation, and the composer while it asks */

static const char *
dialog_heading (TandemApprovalDialog *dialog)
{
  return adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog));
}

static gboolean
dialog_hidden (gpointer data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
}

static gboolean
dialog_visible (gpointer data)
{
  return gtk_widget_get_visible (GTK_WIDGET (data));
}

static const char *
window_title (TandemWindow *window)
{
  return adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (window, "window_title")));
}

typedef struct
{
  TandemApprovalDialog *dialog;
  TandemWindow         *window;
} Named;

/* The heading names the conversation the window shows as its title */
static gboolean
dialog_names_conversation (gpointer data)
{
  Named *named = data;
  g_autofree char *expected = g_strdup_printf ("Approve tool call in “%s”?", window_title (named->window));

  return g_strcmp0 (window_title (named->window), "New Chat") != 0 &&
         g_strcmp0 (dialog_heading (named->dialog), expected) == 0;
}

static void
test_dialog_belongs (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiAgentSession) other = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *title = NULL;
  g_autofree char *heading = NULL;
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(GAsyncResult) restored = NULL;
  g_autofree char *answer = NULL;
  g_autoptr(GError) error = NULL;
  TandemApprovalDialog *dialog;
  GtkWidget *form;
  Named named;
  Count two = { f, 2 };
  JsonArray *resume;

  g_test_summary ("The approval dialog names its conversation, hides while another is shown "
                  "and comes back as it was left when its conversation is opened again");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL APPROVAL_SCHEMA)), NULL);
  push (f, RS ("r2"), RESULT ("tc1", "done"), RF ("r2"), NULL);
  send_text (f, "Clean up my folder");
  dialog = wait_for_dialog ();
  tandem_test_wait_for_threads (f->window);
  named.dialog = dialog;
  named.window = f->window;
  if (!agui_test_wait_for (dialog_names_conversation, &named, TIMEOUT_MS))
    g_error ("The dialog reads “%s” in “%s”", dialog_heading (dialog), window_title (f->window));
  title = g_strdup (window_title (f->window));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (dialog)), title));

  /* An edit in progress, to find again */
  tandem_approval_dialog_set_editing (dialog, TRUE);
  form = tandem_approval_dialog_get_form (dialog);
  {
    g_autoptr(GPtrArray) entries = tandem_test_find_all (form, GTK_TYPE_EDITABLE);

    gtk_editable_set_text (GTK_EDITABLE (entries->pdata[0]), "/tmp/older");
  }

  /* Another conversation shown: the dialog goes with its own */
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  other = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  tandem_window_set_session (f->window, other);
  g_assert_true (agui_test_wait_for (dialog_hidden, dialog, TIMEOUT_MS));
  g_assert_null (find_dialog ());

  /* Its conversation opened again from the store, as the sidebar does (a
   * new session on the thread) but on the loopback agent: the same
   * dialog, edit and all */
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", thread_id, "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  agui_agent_session_restore_async (reopened, NULL, agui_test_store_result_cb, &restored);
  agui_test_wait_for_result (&restored, TIMEOUT_MS);
  g_assert_true (agui_agent_session_restore_finish (reopened, restored, &error));
  g_assert_no_error (error);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  tandem_window_set_session (f->window, reopened);
  g_assert_true (agui_test_wait_for (dialog_visible, dialog, TIMEOUT_MS));
  g_assert_true (find_dialog () == dialog);
  g_assert_true (tandem_approval_dialog_get_editing (dialog));
  heading = g_strdup_printf ("Approve tool call in “%s”?", title);
  g_assert_cmpstr (dialog_heading (dialog), ==, heading);

  /* Answered there, the answer goes out for the conversation shown */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (reopened);
  resume = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "resume");
  g_assert_cmpuint (json_array_get_length (resume), ==, 1);
  answer = json_to_string (json_array_get_element (resume, 0), FALSE);
  g_assert_nonnull (strstr (answer, "/tmp/older"));
  assert_card_status (f->window, "tc1", "Complete");
}

typedef struct
{
  TandemWindow *window;
  gboolean      blocked;
} Composer;

static gboolean
composer_is (gpointer data)
{
  Composer *expected = data;
  GtkLabel *placeholder = GTK_LABEL (tandem_test_child (expected->window, "composer_placeholder"));
  GtkWidget *view = tandem_test_child (expected->window, "composer_view");
  gboolean says = g_strcmp0 (gtk_label_get_text (placeholder), "Answer the question above to continue") == 0;

  return gtk_widget_get_visible (GTK_WIDGET (placeholder)) &&
         says == expected->blocked &&
         gtk_widget_get_sensitive (view) == !expected->blocked;
}

/* The banner's Answer… can be pressed */
static gboolean
answer_offered (gpointer data)
{
  GtkWidget *banner = tandem_test_child (data, "interrupt_banner");
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (banner, GTK_TYPE_BUTTON);

  return gtk_widget_is_drawable (banner) && buttons->len == 1 && gtk_widget_is_sensitive (buttons->pdata[0]);
}

static void
test_composer_blocked (Fixture       *f,
                       gconstpointer  data)
{
  Composer blocked = { f->window, TRUE };
  Composer open = { f->window, FALSE };
  TandemApprovalDialog *dialog;
  Count two = { f, 2 };

  g_test_summary ("While a question waits the composer says to answer it first, and cannot be typed in");

  g_assert_true (agui_test_wait_for (composer_is, &open, TIMEOUT_MS));

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL)), NULL);
  push (f, RS ("r2"), RESULT ("tc1", "done"), RF ("r2"), NULL);
  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  g_assert_true (agui_test_wait_for (composer_is, &blocked, TIMEOUT_MS));
  g_assert_false (gtk_widget_is_sensitive (tandem_test_child (f->window, "composer_view")));

  /* Put off, the question still waits: so does the composer */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "later");
  g_assert_true (agui_test_wait_for (no_dialog, NULL, TIMEOUT_MS));
  g_assert_true (composer_is (&blocked));

  g_assert_true (agui_test_wait_for (answer_offered, f->window, TIMEOUT_MS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.answer-interrupts", NULL));
  dialog = wait_for_dialog ();
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (composer_is, &open, TIMEOUT_MS));
}

typedef struct
{
  TandemWindow *window;
  const char   *thread_id;
  gboolean      waiting;
} ThreadRow;

static gboolean
thread_row_waiting_is (gpointer data)
{
  ThreadRow *expected = data;
  g_autoptr(GPtrArray) rows = tandem_test_find_all (expected->window, TANDEM_TYPE_THREAD_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      AguiThreadInfo *info = tandem_thread_row_get_info (rows->pdata[i]);

      if (info != NULL && g_strcmp0 (agui_thread_info_get_id (info), expected->thread_id) == 0)
        return tandem_thread_row_get_waiting (rows->pdata[i]) == expected->waiting;
    }

  return FALSE;
}

/* While the run that answers the questions streams, the questions are
 * still pending in the library (until that run ends), but the person
 * has answered: nothing may ask them again. */
static void
test_resuming_waits_for_nobody (Fixture       *f,
                                gconstpointer  data)
{
  AguiTestResponse *response;
  TandemApprovalDialog *dialog;
  Count two = { f, 2 };
  g_autofree char *thread_id = NULL;
  ThreadRow not_waiting = { f->window, NULL, FALSE };
  GtkLabel *hint;

  g_test_summary ("While the answered run resumes, the composer, the banner and the sidebar wait for nobody");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL)), NULL);
  response = agui_test_response_new_events (RS ("r2"), TEXT ("m2", "Cleaning"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, response);

  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  not_waiting.thread_id = thread_id;
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (agui_test_session_busy, f->session, TIMEOUT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (f->session)), ==, 1);

  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_true (agui_test_wait_for (thread_row_waiting_is, &not_waiting, TIMEOUT_MS));
  g_assert_false (tandem_session_waits_for_person (f->session));
  g_assert_false (tandem_composer_get_waiting (TANDEM_COMPOSER (tandem_test_child (f->window, "composer"))));
  hint = tandem_test_find_label (f->window, "Answer the question above to continue");
  g_assert_true (hint == NULL || !gtk_widget_is_drawable (GTK_WIDGET (hint)));
  /* The header is brought up to date during the run too (a title, the
   * thread list): the answered question is not taken for an expired one */
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  hint = tandem_test_find_label (f->window, "Dismiss the expired question to continue");
  g_assert_true (hint == NULL || !gtk_widget_is_drawable (GTK_WIDGET (hint)));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (tandem_test_child (f->window, "interrupt_revealer"))));
  g_assert_true (gtk_widget_get_sensitive (tandem_test_child (f->window, "composer_view")));
  /* Nor does the card: it says what the person answered, without an
   * Answer… button that can do nothing */
  assert_card_status (f->window, "tc1", "Approved");
  hint = tandem_test_find_label (GTK_WIDGET (find_card (f->window, "tc1")), "Answer…");
  g_assert_true (hint == NULL || !gtk_widget_is_drawable (GTK_WIDGET (hint)));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop", NULL));
  g_assert_true (agui_test_wait_for (agui_test_session_idle, f->session, TIMEOUT_MS));
}

static gboolean
dialog_expired (gpointer data)
{
  return tandem_approval_dialog_get_expired (data) &&
         tandem_test_find_label (data, "This request has expired") != NULL;
}

static void
test_expires_in_place (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  /* Time enough to see it wait first, on a loaded machine too */
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 4);
  g_autofree char *expires_at = g_date_time_format_iso8601 (soon);
  g_autofree char *extra = g_strdup_printf (TOOL_CALL APPROVAL_SCHEMA ",\"expiresAt\":\"%s\"", expires_at);
  g_autofree char *interrupt = g_strdup_printf (INTERRUPTS ("r1", ASK ("i1", "tc1", "%s")), extra);
  ThreadRow waiting = { f->window, NULL, TRUE };
  ThreadRow expired = { f->window, NULL, FALSE };
  TandemApprovalDialog *dialog;

  g_test_summary ("When the question expires the card, the sidebar and the dialog say so at once");

  push (f, RS ("r1"), CALL ("tc1", "clean_folder"), interrupt, NULL);
  send_text (f, "Clean up");
  dialog = wait_for_dialog ();
  waiting.thread_id = expired.thread_id = agui_agent_session_get_thread_id (f->session);
  tandem_test_wait_for_threads (f->window);
  g_assert_true (agui_test_wait_for (thread_row_waiting_is, &waiting, TIMEOUT_MS));

  assert_card_status (f->window, "tc1", "Expired");
  g_assert_cmpstr (tandem_tool_card_get_answer_text (find_card (f->window, "tc1")), ==,
                   "The question expired unanswered");
  g_assert_true (agui_test_wait_for (thread_row_waiting_is, &expired, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (dialog_expired, dialog, TIMEOUT_MS));
  /* Nothing was answered for the person */
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
}

/* The arguments shown above the form are what Approve will send */
static GtkLabel *
find_arguments_label (TandemApprovalDialog *dialog)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (dialog, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (labels->pdata[i], "tandem-approval-arguments"))
      return labels->pdata[i];

  return NULL;
}

static void
test_preview_follows_form (Fixture       *f,
                           gconstpointer  data)
{
  TandemApprovalDialog *dialog;
  GtkLabel *preview;
  GtkWidget *days;
  g_autofree char *before = NULL;

  g_test_summary ("Editing the arguments updates the JSON shown above the form as it is typed");

  push (f, RS ("r1"),
        "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"archive_notes\"}",
        "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"keepDays\\\":30}\"}",
        "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
        INTERRUPTS ("r1", ASK ("i1", "tc1", TOOL_CALL
                               ",\"responseSchema\":{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"},"
                               "\"editedArgs\":{\"type\":\"object\",\"properties\":{\"keepDays\":{\"type\":\"integer\"}}}}}")),
        NULL);
  send_text (f, "Please archive my old notes");
  dialog = wait_for_dialog ();
  preview = find_arguments_label (dialog);
  g_assert_nonnull (preview);
  before = g_strdup (gtk_label_get_text (preview));
  g_assert_nonnull (strstr (before, "30"));

  tandem_approval_dialog_set_editing (dialog, TRUE);
  days = tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog)), "keepDays");
  g_assert_true (GTK_IS_EDITABLE (days));
  gtk_editable_set_text (GTK_EDITABLE (days), "35");
  g_assert_nonnull (strstr (gtk_label_get_text (preview), "\"keepDays\" : 35"));
  g_assert_null (strstr (gtk_label_get_text (preview), "30"));

  /* Editing off, Approve sends the agent's arguments: the preview shows them */
  tandem_approval_dialog_set_editing (dialog, FALSE);
  g_assert_cmpstr (gtk_label_get_text (preview), ==, before);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("approvals", &store_path);

  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Approvals", store_path);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/tandem/approvals/card/%s", cases[i].name);

      g_test_add (path, Fixture, &cases[i], fixture_set_up, test_card_state, fixture_tear_down);
    }
  g_test_add ("/tandem/approvals/retry/text", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up, test_retry, fixture_tear_down);
  g_test_add ("/tandem/approvals/retry/tools", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up, test_retry, fixture_tear_down);
#define ADD(path, fn) g_test_add ("/tandem/approvals/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("decide-later", test_decide_later);
  ADD ("two-questions", test_two_questions);
  ADD ("resuming-waits-for-nobody", test_resuming_waits_for_nobody);
  ADD ("metadata-only", test_metadata_only);
  ADD ("escape-in-search", test_escape_in_search);
  ADD ("stopped", test_stopped);
  ADD ("stopped-before-anything", test_stopped_before_anything);
  ADD ("metadata-answer", test_metadata_answer);
  ADD ("refused-patches", test_refused_patches);
  ADD ("collapse-failed", test_collapse_failed);
  ADD ("sidebar-waiting", test_sidebar_waiting);
  ADD ("dialog-belongs", test_dialog_belongs);
  ADD ("composer-blocked", test_composer_blocked);
  ADD ("expires-in-place", test_expires_in_place);
  ADD ("preview-follows-form", test_preview_follows_form);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
