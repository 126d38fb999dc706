/* test-window.c
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
#include "tandem-markdown-view.h"
#include "tandem-message-row.h"
#include "tandem-state-inspector.h"
#include "tandem-tool-card.h"
#include "tandem-window.h"

/* A real TandemWindow on a real TandemApplication, driven by the loopback
 * AG-UI server. Each test waits on conditions with a timeout, so a bug
 * fails it instead of hanging it. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}", \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}", \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CALL_START(id, name) \
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name "\"}"
#define CALL_ARGS(id) \
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"{\\\"zone\\\":\\\"UTC\\\"}\"}"
#define CALL_END(id) \
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"
#define APPROVAL_SCHEMA \
  ",\"responseSchema\":{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"}," \
  "\"editedArgs\":{\"type\":\"object\",\"properties\":{\"zone\":{\"type\":\"string\"}}}}}"
#define INTERRUPT(run, extra) \
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\",\"outcome\":{\"type\":\"interrupt\"," \
  "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"Delete?\"" extra "}]}}"

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

static void
iterate_for (guint milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
child (TandemWindow *window,
       const char   *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (window), TANDEM_TYPE_WINDOW, name);

  g_assert_nonnull (object);

  return GTK_WIDGET (object);
}

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect (c, type, found);
}

static GPtrArray *
find_all (gpointer widget,
          GType    type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (GTK_WIDGET (widget), type, found);

  return found;
}

static GtkLabel *
find_label (gpointer    widget,
            const char *text)
{
  g_autoptr(GPtrArray) labels = find_all (widget, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];

  return NULL;
}

static void
set_composer_text (TandemWindow *window,
                   const char   *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (child (window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
}

static char *
dup_composer_text (TandemWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (child (window, "composer_view")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
session_idle (gpointer data)
{
  Fixture *f = data;

  return !agui_agent_session_get_busy (f->session);
}

static gboolean
session_busy (gpointer data)
{
  Fixture *f = data;

  return agui_agent_session_get_busy (f->session);
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
send_by_enter (Fixture    *f,
               const char *text)
{
  set_composer_text (f->window, text);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
}

static void
wait_for_exchange (Fixture *f)
{
  agui_test_wait_for (session_busy, f, 500);
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
  iterate_for (50);
}

static JsonObject *
request_body (Fixture *f,
              guint    index)
{
  const AguiTestRequest *request = agui_test_server_get_request (f->server, index);

  g_assert_nonnull (request);
  g_assert_nonnull (request->json);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (request->json));

  return json_node_get_object (request->json);
}

/* Fixture */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = agui_agent_session_new_full (AGUI_TRANSPORT (f->transport), NULL, NULL, NULL, "test");
  tandem_window_set_session (f->window, f->session);
  g_assert_true (tandem_window_get_session (f->window) == f->session);
  iterate_for (50);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_APPROVAL_DIALOG (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  gtk_window_destroy (GTK_WINDOW (f->window));
  iterate_for (20);
  g_clear_object (&f->session);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

/* Tests */

static gboolean
markdown_shows (gpointer data)
{
  Fixture *f = data;
  g_autoptr(GPtrArray) views = find_all (f->window, TANDEM_TYPE_MARKDOWN_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (g_strcmp0 (tandem_markdown_view_get_text (views->pdata[i]), "Hello there, how are you?") == 0)
      return TRUE;

  return FALSE;
}

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  AguiTestResponse *response;
  g_autoptr(GPtrArray) rows = NULL;
  const char *words[] = { "Hello", " there,", " how", " are", " you?" };

  g_test_summary ("A sent message streams into rows; the agent's text ends up in its Markdown view");

  response = agui_test_response_new_events (RS ("r1"),
                                            "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
                                            NULL);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      g_autofree char *event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", words[i]);

      agui_test_response_append_stall (response, 20);
      agui_test_response_append_event_json (response, event);
    }
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (f->window, "content_stack"))), ==, "welcome");

  send_by_enter (f, "Hi");
  wait_for_exchange (f);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 2);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (f->window, "content_stack"))), ==, "transcript");
  g_assert_true (agui_test_wait_for (markdown_shows, f, TIMEOUT_MS));

  rows = find_all (f->window, TANDEM_TYPE_MESSAGE_ROW);
  g_assert_cmpuint (rows->len, >=, 2);
  g_assert_nonnull (find_label (f->window, "Hi"));
}

static void
test_composer_keys (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *text = NULL;
  Count one = { f, 1 };

  g_test_summary ("Enter sends, Shift+Enter and Enter while composing do not, blank text never does");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "ok"), RF ("r1"), NULL));

  set_composer_text (f->window, "line one");
  g_assert_false (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, GDK_SHIFT_MASK));
  g_assert_false (tandem_window_handle_composer_key (f->window, GDK_KEY_a, 0));

  /* An input method composing owns Enter. */
  g_signal_emit_by_name (child (f->window, "composer_view"), "preedit-changed", "か");
  g_assert_false (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  g_signal_emit_by_name (child (f->window, "composer_view"), "preedit-changed", "");

  set_composer_text (f->window, "   \n\t ");
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  iterate_for (100);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 0);

  set_composer_text (f->window, "line one\nline two");
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_KP_Enter, 0));
  g_assert_true (agui_test_wait_for (server_has_requests, &one, TIMEOUT_MS));
  wait_for_exchange (f);

  text = dup_composer_text (f->window);
  g_assert_cmpstr (text, ==, "");
  g_assert_nonnull (find_label (f->window, "line one\nline two"));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
}

typedef struct
{
  Fixture    *f;
  const char *status;
} CardStatus;

static TandemToolCard *
find_card (Fixture *f)
{
  g_autoptr(GPtrArray) cards = find_all (f->window, TANDEM_TYPE_TOOL_CARD);

  return cards->len > 0 ? cards->pdata[0] : NULL;
}

static gboolean
card_has_status (gpointer data)
{
  CardStatus *expected = data;
  TandemToolCard *card = find_card (expected->f);

  return card != NULL && g_strcmp0 (tandem_tool_card_get_status_text (card), expected->status) == 0;
}

static void
test_tool_card (Fixture       *f,
                gconstpointer  data)
{
  AguiTestResponse *response;
  CardStatus streaming = { f, "Streaming" };
  CardStatus awaiting = { f, "Awaiting result" };
  CardStatus complete = { f, "Complete" };
  TandemToolCard *card;

  g_test_summary ("A tool card goes from streaming to awaiting its result to complete, with its arguments and result");

  response = agui_test_response_new_events (RS ("r1"), CALL_START ("tc1", "get_time"), NULL);
  agui_test_response_append_stall (response, 400);
  agui_test_response_append_event_json (response, CALL_ARGS ("tc1"));
  agui_test_response_append_event_json (response, CALL_END ("tc1"));
  agui_test_response_append_stall (response, 400);
  agui_test_response_append_event_json (response,
                                        "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"res1\",\"toolCallId\":\"tc1\","
                                        "\"content\":\"{\\\"time\\\":\\\"12:00\\\"}\",\"role\":\"tool\"}");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  send_by_enter (f, "What time is it?");

  g_assert_true (agui_test_wait_for (card_has_status, &streaming, TIMEOUT_MS));
  card = find_card (f);
  g_assert_nonnull (find_label (card, "get_time"));
  g_assert_true (agui_test_wait_for (card_has_status, &awaiting, TIMEOUT_MS));
  card = find_card (f);
  g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "\"zone\""));
  g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "\n"));
  g_assert_true (agui_test_wait_for (card_has_status, &complete, TIMEOUT_MS));
  card = find_card (f);
  g_assert_nonnull (strstr (tandem_tool_card_get_result_text (card), "12:00"));
  wait_for_exchange (f);
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

static void
test_interrupt (Fixture       *f,
                gconstpointer  data)
{
  gboolean edit = GPOINTER_TO_INT (data);
  Count two = { f, 2 };
  TandemApprovalDialog *dialog;
  JsonArray *resume;
  JsonObject *entry;
  JsonObject *payload;

  g_test_summary ("An interrupt opens the approval dialog; its answer goes out in one resume");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), CALL_START ("tc1", "delete_file"),
                                                                 CALL_ARGS ("tc1"), CALL_END ("tc1"),
                                                                 INTERRUPT ("r1", APPROVAL_SCHEMA), NULL));
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"), TEXT ("m2", "Deleted."), RF ("r2"), NULL));

  send_by_enter (f, "Delete it");
  g_assert_true (agui_test_wait_for (dialog_shown, NULL, TIMEOUT_MS));
  dialog = find_dialog ();

  /* While the dialog asks, the composer waits. */
  g_assert_false (gtk_widget_get_sensitive (child (f->window, "composer_view")));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  if (edit)
    tandem_approval_dialog_set_editing (dialog, TRUE);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");

  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  wait_for_exchange (f);

  resume = json_object_get_array_member (request_body (f, 1), "resume");
  g_assert_nonnull (resume);
  g_assert_cmpuint (json_array_get_length (resume), ==, 1);
  entry = json_array_get_object_element (resume, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "interruptId"), ==, "i1");
  g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "resolved");
  payload = json_object_get_object_member (entry, "payload");
  g_assert_true (json_object_get_boolean_member (payload, "approved"));
  if (edit)
    {
      JsonObject *edited = json_object_get_object_member (payload, "editedArgs");

      g_assert_nonnull (edited);
      g_assert_cmpstr (json_object_get_string_member (edited, "zone"), ==, "UTC");
    }
  else
    {
      g_assert_false (json_object_has_member (payload, "editedArgs"));
    }

  g_assert_true (gtk_widget_get_sensitive (child (f->window, "composer_view")));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (child (f->window, "interrupt_revealer"))));
}

static void
test_interrupt_cancelled_by_close (Fixture       *f,
                                   gconstpointer  data)
{
  g_test_summary ("Closing the window cancels the approval dialog it opened");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), CALL_START ("tc1", "delete_file"),
                                                                 CALL_ARGS ("tc1"), CALL_END ("tc1"),
                                                                 INTERRUPT ("r1", ""), NULL));
  send_by_enter (f, "Delete it");
  g_assert_true (agui_test_wait_for (dialog_shown, NULL, TIMEOUT_MS));

  gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = tandem_window_new (app);
  iterate_for (100);
  g_assert_null (find_dialog ());
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
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

static void
test_reopen (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TandemApplication) second = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = NULL;
  AguiTranscript *transcript;
  TandemWindow *window;
  Reopen reopen;

  g_test_summary ("Quitting and reopening on the same store shows the same conversation");

  g_assert_nonnull (tandem_application_get_store (app));
  session = agui_agent_session_new_full (AGUI_TRANSPORT (f->transport), "t", NULL,
                                         tandem_application_get_store (app), "test");
  tandem_window_set_session (f->window, session);
  g_set_object (&f->session, session);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Kept for later"), RF ("r1"), NULL));
  send_by_enter (f, "Remember me");
  wait_for_exchange (f);
  thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_assert_null (agui_agent_session_get_store_error (session));

  /* The thread list shows it. */
  g_assert_nonnull (find_label (child (f->window, "thread_list"), "Remember me"));

  /* A second application on the same file, as after a restart. */
  second = TANDEM_APPLICATION (g_object_new (TANDEM_TYPE_APPLICATION,
                                             "application-id", "io.github.tandemdesk.Tandem.Test2",
                                             "flags", G_APPLICATION_NON_UNIQUE,
                                             NULL));
  tandem_application_set_store_path (second, store_path);
  g_assert_true (g_application_register (G_APPLICATION (second), NULL, &error));
  g_assert_no_error (error);

  window = tandem_window_new (second);
  gtk_window_present (GTK_WINDOW (window));
  reopen.window = window;
  reopen.thread_id = thread_id;
  tandem_window_open_thread (window, thread_id);
  g_assert_true (agui_test_wait_for (thread_opened, &reopen, TIMEOUT_MS));
  iterate_for (100);

  transcript = agui_agent_session_get_transcript (tandem_window_get_session (window));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 2);
  g_assert_nonnull (find_label (window, "Remember me"));
  {
    g_autoptr(GPtrArray) views = find_all (window, TANDEM_TYPE_MARKDOWN_VIEW);
    gboolean found = FALSE;

    for (guint i = 0; i < views->len; i++)
      found |= g_strcmp0 (tandem_markdown_view_get_text (views->pdata[i]), "Kept for later") == 0;
    g_assert_true (found);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  iterate_for (20);
}

static void
test_markup (Fixture       *f,
             gconstpointer  data)
{
  const char *text = "<b>bold</b> &amp; <i>";
  AguiTestResponse *response;

  g_test_summary ("Text from the person and the agent is never read as Pango markup");

  response = agui_test_response_new_events (RS ("r1"),
                                            CALL_START ("tc1", "<b>tool</b>"),
                                            "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"<i>broken & markup\"}",
                                            NULL);
  agui_test_response_append_stall (response, 300);
  agui_test_response_append_event_json (response,
                                        "{\"type\":\"RUN_ERROR\",\"message\":\"<b>nope</b> & <gone\"}");
  agui_test_server_push_response (f->server, response);

  send_by_enter (f, text);
  wait_for_exchange (f);

  g_assert_nonnull (find_label (f->window, text));
  g_assert_nonnull (find_label (f->window, "<b>tool</b>"));
  g_assert_nonnull (find_label (f->window, "<i>broken & markup"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (f->window, "error_label"))), "<b>nope</b> & <gone"));
}

static void
test_jump_to_latest (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(GError) error = NULL;
  GtkAdjustment *adjustment;
  GtkWidget *jump;

  g_test_summary ("Scrolling up stops following the bottom and offers Jump to Latest");

  for (guint i = 0; i < 200; i++)
    {
      JsonObject *message = json_object_new ();
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *content = g_strdup_printf ("Message number %u", i);

      json_object_set_string_member (message, "id", id);
      json_object_set_string_member (message, "role", i % 2 ? "assistant" : "user");
      json_object_set_string_member (message, "content", content);
      json_array_add_object_element (messages, message);
    }
  g_assert_true (agui_transcript_load_messages (agui_agent_session_get_transcript (f->session), messages, &error));
  g_assert_no_error (error);

  iterate_for (500);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (child (f->window, "transcript_scroller")));
  jump = child (f->window, "jump_button");
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 10);
  g_assert_false (gtk_widget_get_visible (jump));

  /* What a wheel or a scrollbar drag does: move up, and say so. */
  gtk_adjustment_set_value (adjustment, 0);
  tandem_window_user_scrolled (TANDEM_WINDOW (f->window));
  iterate_for (100);
  g_assert_true (gtk_widget_get_visible (jump));

  /* New content does not pull the person back down. */
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("new", "Fresh"), RF ("r1"), NULL));
  agui_agent_session_run_async (f->session, NULL, NULL, NULL, NULL);
  wait_for_exchange (f);
  iterate_for (200);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <, 50);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.jump-to-latest", NULL));
  iterate_for (300);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 10);
  g_assert_false (gtk_widget_get_visible (jump));
}

static void
test_failed_run (Fixture       *f,
                 gconstpointer  data)
{
  GtkRevealer *revealer = GTK_REVEALER (child (f->window, "error_revealer"));
  Count two = { f, 2 };

  g_test_summary ("A failed run shows a banner whose Retry runs the agent again");

  agui_test_server_push_response (f->server, agui_test_response_new_error (500, "text/plain", "boom"));
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"), TEXT ("m2", "Better now"), RF ("r2"), NULL));

  send_by_enter (f, "Try");
  wait_for_exchange (f);

  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (f->window, "error_label"))), "500"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.retry", NULL));
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  wait_for_exchange (f);

  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  /* The retry runs the thread again: the person's message is not repeated. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 2);
}

static void
test_state_inspector (Fixture       *f,
                      gconstpointer  data)
{
  TandemStateInspector *inspector = TANDEM_STATE_INSPECTOR (child (f->window, "inspector"));
  g_autofree char *text = NULL;
  g_autofree char *changes = NULL;

  g_test_summary ("The inspector shows the shared state and the paths the last delta touched");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"),
                                                                 "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"progress\":1,\"note\":\"<b>x</b>\"}}",
                                                                 "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/progress\",\"value\":2}]}",
                                                                 RF ("r1"), NULL));
  send_by_enter (f, "state please");
  wait_for_exchange (f);

  text = tandem_state_inspector_dup_text (inspector);
  changes = tandem_state_inspector_dup_changes (inspector);
  g_assert_nonnull (strstr (text, "\"progress\" : 2"));
  g_assert_nonnull (strstr (text, "<b>x</b>"));
  g_assert_cmpstr (changes, ==, "replace /progress");
}

/* Benchmarks: only with -m perf */

typedef struct
{
  gint64 last;
  gint64 longest;
  guint  ticks;
} Stalls;

static gboolean
on_tick_cb (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       user_data)
{
  Stalls *stalls = user_data;
  gint64 now = g_get_monotonic_time ();

  if (stalls->last != 0)
    stalls->longest = MAX (stalls->longest, now - stalls->last);
  stalls->last = now;
  stalls->ticks++;

  return G_SOURCE_CONTINUE;
}

static gboolean
on_idle_probe_cb (gpointer user_data)
{
  Stalls *stalls = user_data;

  on_tick_cb (NULL, NULL, stalls);

  return G_SOURCE_CONTINUE;
}

static void
test_perf_stream (Fixture       *f,
                  gconstpointer  data)
{
  AguiTestResponse *response;
  Stalls stalls = { 0, };
  gint64 start;
  guint tick_id;
  guint idle_id;

  if (!g_test_perf ())
    {
      g_test_skip ("Run with -m perf");
      return;
    }

  response = agui_test_response_new_events (RS ("r1"),
                                            "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
                                            NULL);
  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"word%u %s\"}",
                                                i, i % 40 == 39 ? "\\n\\n" : "");
      agui_test_response_append_event_json (response, event);
    }
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (f->window), on_tick_cb, &stalls, NULL);
  idle_id = g_timeout_add (1, on_idle_probe_cb, &stalls);
  start = g_get_monotonic_time ();
  send_by_enter (f, "Stream a lot");
  wait_for_exchange (f);
  gtk_widget_remove_tick_callback (GTK_WIDGET (f->window), tick_id);
  g_source_remove (idle_id);

  g_test_minimized_result ((g_get_monotonic_time () - start) / 1000.0,
                           "10000 deltas streamed in %.1f ms", (g_get_monotonic_time () - start) / 1000.0);
  g_test_minimized_result (stalls.longest / 1000.0, "longest main loop stall %.1f ms", stalls.longest / 1000.0);
  g_print ("# stream: 10000 deltas in %.1f ms, longest stall %.1f ms over %u probes\n",
           (g_get_monotonic_time () - start) / 1000.0, stalls.longest / 1000.0, stalls.ticks);
}

static void
test_perf_scroll (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(GError) error = NULL;
  GtkAdjustment *adjustment;
  Stalls stalls = { 0, };
  gint64 start;
  guint idle_id;
  guint steps = 0;

  if (!g_test_perf ())
    {
      g_test_skip ("Run with -m perf");
      return;
    }

  for (guint i = 0; i < 10000; i++)
    {
      JsonObject *message = json_object_new ();
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *content = g_strdup_printf ("Message %u with **some** Markdown and `code`", i);

      json_object_set_string_member (message, "id", id);
      json_object_set_string_member (message, "role", i % 2 ? "assistant" : "user");
      json_object_set_string_member (message, "content", content);
      json_array_add_object_element (messages, message);
    }

  start = g_get_monotonic_time ();
  g_assert_true (agui_transcript_load_messages (agui_agent_session_get_transcript (f->session), messages, &error));
  g_assert_no_error (error);
  iterate_for (200);
  g_print ("# scroll: loaded 10000 messages in %.1f ms\n", (g_get_monotonic_time () - start) / 1000.0);

  /* Walk the whole transcript, top to bottom, a few rows at a time, the
   * way a person dragging the scrollbar would bring rows into view. */
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (child (f->window, "transcript_scroller")));
  idle_id = g_timeout_add (1, on_idle_probe_cb, &stalls);
  start = g_get_monotonic_time ();
  for (guint row = 0; row < 10000; row += 20)
    {
      g_assert_true (gtk_widget_activate_action (child (f->window, "transcript_view"),
                                                 "list.scroll-to-item", "u", row));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      steps++;
    }
  g_source_remove (idle_id);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0);

  g_print ("# scroll: %u jumps over 10000 rows in %.1f ms, longest stall %.1f ms\n",
           steps, (g_get_monotonic_time () - start) / 1000.0, stalls.longest / 1000.0);
  g_test_minimized_result (stalls.longest / 1000.0, "longest stall while scrolling %.1f ms", stalls.longest / 1000.0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int result;

  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init() leaves GTK's own warnings non-fatal; a warning is a bug. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  adw_init ();

  store_dir = g_dir_make_tmp ("tandem-window-XXXXXX", &error);
  g_assert_no_error (error);
  store_path = g_build_filename (store_dir, "tandem.db", NULL);

  app = TANDEM_APPLICATION (g_object_new (TANDEM_TYPE_APPLICATION,
                                          "application-id", "io.github.tandemdesk.Tandem.Test",
                                          "flags", G_APPLICATION_NON_UNIQUE,
                                          NULL));
  tandem_application_set_store_path (app, store_path);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

#define ADD(path, fn, data) g_test_add ("/tandem/window/" path, Fixture, data, fixture_set_up, fn, fixture_tear_down)
  ADD ("stream", test_stream, NULL);
  ADD ("composer-keys", test_composer_keys, NULL);
  ADD ("tool-card", test_tool_card, NULL);
  ADD ("interrupt-approve", test_interrupt, GINT_TO_POINTER (FALSE));
  ADD ("interrupt-edit", test_interrupt, GINT_TO_POINTER (TRUE));
  ADD ("interrupt-cancelled-by-close", test_interrupt_cancelled_by_close, NULL);
  ADD ("reopen", test_reopen, NULL);
  ADD ("markup", test_markup, NULL);
  ADD ("jump-to-latest", test_jump_to_latest, NULL);
  ADD ("failed-run", test_failed_run, NULL);
  ADD ("state-inspector", test_state_inspector, NULL);
  ADD ("perf/stream-10000-deltas", test_perf_stream, NULL);
  ADD ("perf/scroll-10000-messages", test_perf_scroll, NULL);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  {
    g_autofree char *wal = g_strconcat (store_path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (store_path, "-shm", NULL);

    g_unlink (store_path);
    g_unlink (wal);
    g_unlink (shm);
    g_rmdir (store_dir);
  }
  g_free (store_path);
  g_free (store_dir);

  return result;
}
