/* test-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "agui-test-tree.h"
#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>
#include <sqlite3.h>
#include <time.h>

#include "agui-session-store-private.h"
#include "agui-test-server.h"
#include "tandem-agents.h"
#include "tandem-application.h"
#include "tandem-approval-dialog.h"
#include "tandem-desktop-tools.h"
#include "tandem-markdown-view.h"
#include "tandem-block-row.h"
#include "tandem-state-inspector.h"
#include "tandem-tool-card.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

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
set_composer_text (TandemWindow *window,
                   const char   *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
}

static char *
dup_composer_text (TandemWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (window, "composer_view")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
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

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL, "store", NULL, "agent", "test", NULL);
  tandem_window_set_session (f->window, f->session);
  g_assert_true (tandem_window_get_session (f->window) == f->session);
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

  tandem_test_destroy_window (f->window);
  /* No notification the test did not look at */
  notifications = tandem_test_take_notifications ();
  g_assert_cmpuint (notifications->len, ==, 0);
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
  g_autoptr(GPtrArray) views = tandem_test_find_all (f->window, TANDEM_TYPE_MARKDOWN_VIEW);

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

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "content_stack"))), ==, "welcome");

  send_by_enter (f, "Hi");
  agui_test_wait_for_exchange (f->session);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 2);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "content_stack"))), ==, "transcript");
  g_assert_true (agui_test_wait_for (markdown_shows, f, TIMEOUT_MS));

  rows = tandem_test_find_all (f->window, TANDEM_TYPE_BLOCK_ROW);
  g_assert_cmpuint (rows->len, >=, 2);
  g_assert_nonnull (tandem_test_find_label (f->window, "Hi"));
}

static gboolean
steps_shown (gpointer data)
{
  Fixture *f = data;

  return gtk_widget_get_mapped (tandem_test_child (f->window, "steps_spinner"));
}

static void
test_header_status (Fixture       *f,
                    gconstpointer  data)
{
  AguiTestResponse *response;
  GtkLabel *steps;

  g_test_summary ("While a run works, the header says so: beside a title too long for the header, by a "
                  "spinner whose tooltip has the words, never by words cut to “…”");

  response = agui_test_response_new_events (RS ("r1"), NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 760, 600);
  send_by_enter (f, "Please summarise the quarterly report and the notes from every meeting since March");
  g_assert_true (agui_test_wait_for (steps_shown, f, TIMEOUT_MS));

  steps = GTK_LABEL (tandem_test_child (f->window, "steps_label"));
  g_assert_cmpstr (gtk_label_get_text (steps), ==, "Working…");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (tandem_test_child (f->window, "steps_box")), ==, "Working…");
  /* Once laid out: whole or not there */
  tandem_test_wait_for_frame (f->window);
  if (gtk_widget_get_mapped (GTK_WIDGET (steps)))
    {
      int natural;

      gtk_widget_measure (GTK_WIDGET (steps), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_test_message ("the words shown %d px wide, of %d", gtk_widget_get_width (GTK_WIDGET (steps)), natural);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (steps)), >=, natural);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (steps)));
    }

  g_assert_true (agui_test_server_resume (f->server, 0));
  agui_test_wait_for_exchange (f->session);
}

typedef struct
{
  Fixture    *f;
  const char *text;
  const char *tooltip;
} StepsText;

static gboolean
steps_say (gpointer data)
{
  StepsText *expected = data;
  GtkWidget *label = tandem_test_child (expected->f->window, "steps_label");
  GtkWidget *box = tandem_test_child (expected->f->window, "steps_box");

  return gtk_widget_get_mapped (label) &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), expected->text) == 0 &&
         g_strcmp0 (gtk_widget_get_tooltip_text (box), expected->tooltip) == 0;
}

static void
assert_steps_say (Fixture    *f,
                  const char *text,
                  const char *tooltip)
{
  StepsText expected = { f, text, tooltip };
  GtkWidget *label = tandem_test_child (f->window, "steps_label");

  if (!agui_test_wait_for (steps_say, &expected, TIMEOUT_MS))
    g_error ("The header says “%s” (tooltip “%s”, %s), expected “%s” (“%s”)",
             gtk_label_get_text (GTK_LABEL (label)),
             gtk_widget_get_tooltip_text (tandem_test_child (f->window, "steps_box")),
             gtk_widget_get_mapped (label) ? "shown" : "not shown", text, tooltip);
}

static void
test_header_subagent (Fixture       *f,
                      gconstpointer  data)
{
  AguiTestResponse *response;

  g_test_summary ("While a subagent works and no step is open, the header names it and its tooltip says it works; "
                  "a step, or the subagent's end, takes over");

  response = agui_test_response_new_events (RS ("r1"),
                                            "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"researcher\"}",
                                            NULL);
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, "{\"type\":\"STEP_STARTED\",\"stepName\":\"reading\",\"subagentRunId\":\"sa1\"}");
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"reading\",\"subagentRunId\":\"sa1\"}");
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\"}");
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  send_by_enter (f, "Find the report");
  assert_steps_say (f, "researcher", "researcher is working…");
  assert_steps_say (f, "reading", "reading");
  assert_steps_say (f, "researcher", "researcher is working…");
  assert_steps_say (f, "Working…", "Working…");

  agui_test_wait_for_exchange (f->session);
  g_assert_false (gtk_widget_get_visible (tandem_test_child (f->window, "steps_box")));
}

static void
test_settings_after_close (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *other = GTK_WIDGET (tandem_window_new (app));
  g_autoptr(GSettings) fresh = g_settings_new (APPLICATION_ID);
  g_autofree char *read_back = NULL;

  g_test_summary ("After one of two windows closes (and saves its size), later changes to the "
                  "application's settings still reach the backend");

  gtk_window_present (GTK_WINDOW (other));
  tandem_test_wait_for_layout (other);
  g_object_add_weak_pointer (G_OBJECT (other), (gpointer *) &other);
  gtk_window_close (GTK_WINDOW (other));
  agui_test_wait_until (other == NULL, "the second window closed and was finalized");

  g_settings_set_string (tandem_application_get_settings (app), "last-thread", "written-after-close");
  read_back = g_settings_get_string (fresh, "last-thread");
  g_assert_cmpstr (read_back, ==, "written-after-close");
  g_settings_set_string (tandem_application_get_settings (app), "last-thread", "");
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
  g_signal_emit_by_name (tandem_test_child (f->window, "composer_view"), "preedit-changed", "か");
  g_assert_false (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  g_signal_emit_by_name (tandem_test_child (f->window, "composer_view"), "preedit-changed", "");

  set_composer_text (f->window, "   \n\t ");
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  /* Nothing to wait for: a blank message must send nothing, and a send
   * would reach the loopback server well within this. */
  agui_test_wait_to_rule_out (200, "a request for a blank message");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 0);

  set_composer_text (f->window, "line one\nline two");
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_KP_Enter, 0));
  g_assert_true (agui_test_wait_for (server_has_requests, &one, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  text = dup_composer_text (f->window);
  g_assert_cmpstr (text, ==, "");
  g_assert_nonnull (tandem_test_find_label (f->window, "line one\nline two"));
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
  g_autoptr(GPtrArray) cards = tandem_test_find_all (f->window, TANDEM_TYPE_TOOL_CARD);

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
  g_assert_nonnull (tandem_test_find_label (card, "get_time"));
  g_assert_true (agui_test_wait_for (card_has_status, &awaiting, TIMEOUT_MS));
  card = find_card (f);
  g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "\"zone\""));
  g_assert_nonnull (strstr (tandem_tool_card_get_arguments_text (card), "\n"));
  g_assert_true (agui_test_wait_for (card_has_status, &complete, TIMEOUT_MS));
  card = find_card (f);
  g_assert_nonnull (strstr (tandem_tool_card_get_result_text (card), "12:00"));
  agui_test_wait_for_exchange (f->session);
}

static gboolean
markdown_says_noon (gpointer data)
{
  Fixture *f = data;
  g_autoptr(GPtrArray) views = tandem_test_find_all (f->window, TANDEM_TYPE_MARKDOWN_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (g_strcmp0 (tandem_markdown_view_get_text (views->pdata[i]), "It is noon.") == 0)
      return TRUE;

  return FALSE;
}

static void
test_strands_tool_call (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AguiToolRegistry) tools = tandem_desktop_tools_new (GTK_WINDOW (f->window));
  CardStatus complete = { f, "Complete" };
  JsonArray *messages;

  g_test_summary ("With the desktop's tools, a Strands-shaped run (a MESSAGES_SNAPSHOT right after the call) "
                  "ends in two runs: the card completes and the follow-up carries the tool's answer");

  g_clear_object (&f->session);
  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "tools", tools,
                             "agent", "test", NULL);
  tandem_window_set_session (f->window, f->session);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_strands_tool_call ("r1", "tc1", "get_current_time",
                                                                            "{\"timezone\":\"UTC\"}", 5));
  agui_test_server_push_response (f->server, agui_test_response_new_strands_answer ("r2", "answer", "It is noon."));

  send_by_enter (f, "What time is it?");
  agui_test_wait_for_exchange (f->session);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "toolCallId"), ==, "tc1");
  g_assert_true (agui_test_wait_for (card_has_status, &complete, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (markdown_says_noon, f, TIMEOUT_MS));
}

/* The longest line of @text, in bytes */
static gsize
longest_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gsize longest = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    longest = MAX (longest, strlen (lines[i]));

  return longest;
}

static void
test_tool_card_long_arguments (Fixture       *f,
                               gconstpointer  data)
{
  AguiTestResponse *response;
  CardStatus streaming = { f, "Streaming" };
  CardStatus awaiting = { f, "Awaiting result" };
  g_autofree char *content = g_strnfill (20000, 'x');
  g_autofree char *first = g_strdup_printf ("{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\","
                                            "\"delta\":\"{\\\"content\\\":\\\"%s\"}", content);
  g_autofree char *copied = NULL;
  TandemToolCard *card;
  const char *shown;

  g_test_summary ("A tool call's 20 KB one-line argument shows its tail while it streams, then at most "
                  "8 KB in short lines, saying what is left out; Copy still has all of it");

  response = agui_test_response_new_events (RS ("r1"), CALL_START ("tc1", "write_file"), first, NULL);
  agui_test_response_append_stall (response, 600);
  agui_test_response_append_event_json (response,
                                        "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"\\\"}\"}");
  agui_test_response_append_event_json (response, CALL_END ("tc1"));
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);

  send_by_enter (f, "Write it");

  g_assert_true (agui_test_wait_for (card_has_status, &streaming, TIMEOUT_MS));
  card = find_card (f);
  agui_test_wait_until (g_str_has_prefix (tandem_tool_card_get_arguments_text (card), "…"),
                        "the streaming arguments were cut to their tail");
  shown = tandem_tool_card_get_arguments_text (card);
  g_assert_cmpuint (strlen (shown), <=, 2048 + strlen ("…") + 8);
  g_assert_cmpuint (longest_line (shown), <=, 512);

  g_assert_true (agui_test_wait_for (card_has_status, &awaiting, TIMEOUT_MS));
  card = find_card (f);
  shown = tandem_tool_card_get_arguments_text (card);
  g_assert_true (g_str_has_prefix (shown, "{"));
  g_assert_cmpuint (strlen (shown), <, 9 * 1024);
  g_assert_cmpuint (longest_line (shown), <=, 512);
  g_assert_true (g_str_has_suffix (shown, "Copy copies all of it"));
  copied = tandem_tool_card_dup_text (tandem_tool_card_get_part (card));
  g_assert_nonnull (strstr (copied, content));
  agui_agent_session_cancel (tandem_window_get_session (f->window));
  agui_test_wait_for_exchange (f->session);
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
  g_autoptr(GPtrArray) notifications = NULL;
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
  g_assert_false (gtk_widget_get_sensitive (tandem_test_child (f->window, "composer_view")));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  if (edit)
    tandem_approval_dialog_set_editing (dialog, TRUE);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");

  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  resume = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "resume");
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

  g_assert_true (gtk_widget_get_sensitive (tandem_test_child (f->window, "composer_view")));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (tandem_test_child (f->window, "interrupt_revealer"))));

  /* The window is not in front (no window manager focuses it), so the
   * answer is also told on the desktop; a click opens the window. */
  notifications = tandem_test_wait_for_notifications (1);
  tandem_test_assert_notification (notifications->pdata[0], "Tandem: the agent answered", "Deleted.",
                                   (const char * const[]) { "default", "", NULL });
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
  agui_test_wait_until (find_dialog () == NULL, "the approval dialog closed with its window");
  /* The dialog closing must answer nothing: no resume may follow. */
  agui_test_wait_to_rule_out (200, "a resume sent by the cancelled dialog");
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

/* Opening a stored conversation restores it asynchronously: wait for
 * the window to show it. */
static void
wait_for_thread (TandemWindow *window,
                 const char   *thread_id)
{
  Reopen reopen = { 0 };

  reopen.window = window;
  reopen.thread_id = thread_id;
  g_assert_true (agui_test_wait_for (thread_opened, &reopen, TIMEOUT_MS));
  tandem_test_wait_for_threads (window);
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
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", "t", "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  tandem_window_set_session (f->window, session);
  g_set_object (&f->session, session);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Kept for later"), RF ("r1"), NULL));
  send_by_enter (f, "Remember me");
  agui_test_wait_for_exchange (f->session);
  thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_assert_null (agui_agent_session_get_store_error (session));

  /* The thread list shows it. */
  tandem_test_wait_for_threads (f->window);
  g_assert_nonnull (tandem_test_find_label (tandem_test_child (f->window, "thread_list"), "Remember me"));

  /* A second application on the same file, as after a restart. */
  second = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test2", store_path);

  window = tandem_window_new (second);
  gtk_window_present (GTK_WINDOW (window));
  reopen.window = window;
  reopen.thread_id = thread_id;
  tandem_window_open_thread (window, thread_id);
  g_assert_true (agui_test_wait_for (thread_opened, &reopen, TIMEOUT_MS));

  transcript = agui_agent_session_get_transcript (tandem_window_get_session (window));
  agui_test_wait_until (g_list_model_get_n_items (G_LIST_MODEL (transcript)) == 2,
                        "the reopened thread restored its two messages");
  agui_test_wait_until (tandem_test_find_label (window, "Remember me") != NULL,
                        "the reopened thread shows the person's message");
  {
    g_autoptr(GPtrArray) views = tandem_test_find_all (window, TANDEM_TYPE_MARKDOWN_VIEW);
    gboolean found = FALSE;

    for (guint i = 0; i < views->len; i++)
      found |= g_strcmp0 (tandem_markdown_view_get_text (views->pdata[i]), "Kept for later") == 0;
    g_assert_true (found);
  }

  tandem_test_destroy_window (window);
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
  agui_test_wait_for_exchange (f->session);

  g_assert_nonnull (tandem_test_find_label (f->window, text));
  g_assert_nonnull (tandem_test_find_label (f->window, "<b>tool</b>"));
  g_assert_nonnull (tandem_test_find_label (f->window, "<i>broken & markup"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (tandem_test_child (f->window, "error_label"))), "<b>nope</b> & <gone"));
}

static gboolean
adjustment_at_bottom (gpointer data)
{
  GtkAdjustment *adjustment = data;

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 10;
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

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));
  jump = tandem_test_child (f->window, "jump_button");
  /* Laying out 200 rows takes a while on a loaded machine */
  agui_test_wait_for (adjustment_at_bottom, adjustment, TIMEOUT_MS);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 10);
  g_assert_false (gtk_widget_get_visible (jump));

  /* What a wheel or a scrollbar drag does: move up, and say so. */
  gtk_adjustment_set_value (adjustment, 0);
  tandem_window_user_scrolled (TANDEM_WINDOW (f->window));
  agui_test_wait_until (gtk_widget_get_visible (jump), "Jump to Latest appeared after scrolling up");

  /* New content does not pull the person back down. */
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("new", "Fresh"), RF ("r1"), NULL));
  agui_agent_session_run_async (f->session, NULL, NULL, NULL, NULL);
  agui_test_wait_for_exchange (f->session);
  agui_test_wait_until (tandem_test_find_label (f->window, "Fresh") != NULL, "the new reply was shown");
  /* Following would scroll on the next frames: give them time to (not) come. */
  agui_test_wait_to_rule_out (200, "the view scrolled back down to the new reply");
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <, 50);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.jump-to-latest", NULL));
  agui_test_wait_until (adjustment_at_bottom (adjustment), "Jump to Latest scrolled to the bottom");
  g_assert_false (gtk_widget_get_visible (jump));
}

static void
test_failed_run (Fixture       *f,
                 gconstpointer  data)
{
  GtkRevealer *revealer = GTK_REVEALER (tandem_test_child (f->window, "error_revealer"));
  Count two = { f, 2 };

  g_test_summary ("A failed run shows a banner with the short reason, the server's answer "
                  "under Details, and a Retry that runs the agent again");

  agui_test_server_push_response (f->server, agui_test_response_new_error (500, "text/plain", "boom"));
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"), TEXT ("m2", "Better now"), RF ("r2"), NULL));

  send_by_enter (f, "Try");
  agui_test_wait_for_exchange (f->session);

  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tandem_test_child (f->window, "error_label"))), ==,
                   "The run failed: The agent's server failed (HTTP 500): boom");
  /* What the server sent is behind the Details expander. */
  g_assert_true (gtk_widget_get_visible (tandem_test_child (f->window, "error_details")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tandem_test_child (f->window, "error_details_label"))), ==,
                   "HTTP 500 Internal Server Error\nContent-Type: text/plain\n\nboom");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.retry", NULL));
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  agui_test_wait_for_exchange (f->session);

  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  /* The retry runs the thread again: the person's message is not repeated. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, 2);
}

static void
test_state_inspector (Fixture       *f,
                      gconstpointer  data)
{
  TandemStateInspector *inspector = TANDEM_STATE_INSPECTOR (tandem_test_child (f->window, "inspector"));
  g_autofree char *text = NULL;
  g_autofree char *changes = NULL;

  g_test_summary ("The inspector shows the shared state and the paths the last delta touched");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"),
                                                                 "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"progress\":1,\"note\":\"<b>x</b>\"}}",
                                                                 "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/progress\",\"value\":2}]}",
                                                                 RF ("r1"), NULL));
  send_by_enter (f, "state please");
  agui_test_wait_for_exchange (f->session);

  text = tandem_state_inspector_dup_text (inspector);
  changes = tandem_state_inspector_dup_changes (inspector);
  g_assert_nonnull (strstr (text, "\"progress\" : 2"));
  g_assert_nonnull (strstr (text, "<b>x</b>"));
  g_assert_cmpstr (changes, ==, "replace /progress");
}

/* The conversation sidebar */

/* A thread straight in the store: one turn whose only message, from the
 * person, is @text, logged as the events a restore replays. */
static char *
add_thread (const char *title,
            const char *text)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *snapshot_id = g_uuid_string_random ();
  char *thread_id = g_uuid_string_random ();
  JsonObject *message = json_object_new ();
  AguiTurnRecord turn = { 0 };
  AguiEvent *event;

  json_object_set_string_member (message, "id", "m1");
  json_object_set_string_member (message, "role", "user");
  json_object_set_string_member (message, "content", text);
  json_array_add_object_element (messages, message);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "MESSAGES_SNAPSHOT");
  json_builder_set_member_name (builder, "messages");
  json_builder_add_value (builder, json_node_init_array (json_node_alloc (), messages));
  json_builder_end_object (builder);
  snapshot = json_builder_get_root (builder);

  event = agui_event_new_from_string (RS ("r1"), -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (events, event);
  event = agui_event_new_from_json (snapshot, NULL, &error);
  g_assert_no_error (error);
  g_ptr_array_add (events, event);
  event = agui_event_new_from_string (RF ("r1"), -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (events, event);

  g_assert_true (agui_session_store_create_thread (store, thread_id, title, NULL, &error));
  g_assert_no_error (error);

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.messages = agui_test_array_tree (messages);
  turn.events = events;
  g_assert_true (_agui_session_store_save_turn (store, &turn, &error));
  g_assert_no_error (error);

  return thread_id;
}

static gboolean
store_has_thread (const char *thread_id)
{
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GError) error = NULL;

  thread = agui_session_store_get_thread (tandem_application_get_store (app), thread_id, &error);
  g_assert_true ((thread != NULL) == (error == NULL));

  return thread != NULL;
}

/* The sidebar's rows, top to bottom, by the title each shows. */
static GStrv
dup_sidebar_titles (TandemWindow *window)
{
  GtkListBox *list = GTK_LIST_BOX (tandem_test_child (window, "thread_list"));
  g_autoptr(GStrvBuilder) titles = g_strv_builder_new ();
  GtkListBoxRow *row;

  tandem_test_wait_for_threads (window);

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    {
      g_autoptr(GPtrArray) labels = tandem_test_find_all (row, GTK_TYPE_LABEL);

      g_assert_cmpuint (labels->len, >, 0);
      g_strv_builder_add (titles, gtk_label_get_text (labels->pdata[0]));
    }

  return g_strv_builder_end (titles);
}

static int
sidebar_index (TandemWindow *window,
               const char   *title)
{
  g_auto(GStrv) titles = dup_sidebar_titles (window);

  for (guint i = 0; titles[i] != NULL; i++)
    if (g_strcmp0 (titles[i], title) == 0)
      return (int) i;

  return -1;
}

typedef struct
{
  const char *text;
  gboolean    answered;
} Search;

static void
on_search_changed_cb (GtkSearchEntry *entry,
                      Search         *search)
{
  /* Replacing the text empties the entry first, and an empty entry
   * reports at once: only the change to the text typed counts. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), search->text) == 0)
    search->answered = TRUE;
}

static gboolean
search_answered (gpointer data)
{
  Search *search = data;

  return search->answered;
}

/* Types @text into the search entry and waits for the sidebar to have
 * answered it: the entry reports a change only after a pause. */
static void
search_for (Fixture    *f,
            const char *text)
{
  GtkWidget *entry = tandem_test_child (f->window, "search_entry");
  Search search = { text, FALSE };
  gulong handler;

  /* Connected after the window's own handler, so it runs after it. */
  handler = g_signal_connect (entry, "search-changed", G_CALLBACK (on_search_changed_cb), &search);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_assert_true (agui_test_wait_for (search_answered, &search, TIMEOUT_MS));
  g_signal_handler_disconnect (entry, handler);
  /* The search runs on the store's worker. */
  tandem_test_wait_for_threads (f->window);
}

static void
test_threads_newest_first (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *first = add_thread ("Oldest of three", "one");
  g_autofree char *second = add_thread ("Middle of three", "two");
  g_autofree char *third = add_thread ("Newest of three", "three");
  g_auto(GStrv) titles = NULL;
  GtkListBoxRow *selected;

  g_test_summary ("The sidebar lists the conversations newest first and selects the open one");

  tandem_window_refresh_threads (f->window);

  tandem_test_wait_for_threads (f->window);
  titles = dup_sidebar_titles (f->window);

  /* Other tests share the store; these three are the newest in it. */
  g_assert_cmpuint (g_strv_length (titles), >=, 3);
  g_assert_cmpstr (titles[0], ==, "Newest of three");
  g_assert_cmpstr (titles[1], ==, "Middle of three");
  g_assert_cmpstr (titles[2], ==, "Oldest of three");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "threads_stack"))), ==, "list");

  /* A new turn brings a conversation to the top. */
  {
    g_autoptr(JsonArray) messages = json_array_new ();
    g_autoptr(GError) error = NULL;
    g_autofree char *snapshot_id = g_uuid_string_random ();
    AguiTurnRecord turn = { 0 };

    turn.thread_id = first;
    turn.snapshot_id = snapshot_id;
    turn.turn_index = 1;
    turn.status = AGUI_SNAPSHOT_COMPLETED;
    turn.messages = agui_test_array_tree (messages);
    g_assert_true (_agui_session_store_save_turn (tandem_application_get_store (app), &turn, &error));
    g_assert_no_error (error);
  }
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpint (sidebar_index (f->window, "Oldest of three"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Newest of three"), ==, 1);
  g_assert_cmpint (sidebar_index (f->window, "Middle of three"), ==, 2);

  /* The open conversation is the selected row. */
  tandem_window_open_thread (f->window, second);
  wait_for_thread (f->window, second);
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), ==, second);
  selected = gtk_list_box_get_selected_row (GTK_LIST_BOX (tandem_test_child (f->window, "thread_list")));
  g_assert_nonnull (selected);
  g_assert_cmpint (gtk_list_box_row_get_index (selected), ==, sidebar_index (f->window, "Middle of three"));
}

static void
test_threads_open (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *older = add_thread ("Opened from the sidebar", "earlier words");
  g_autoptr(AguiAgentSession) session = NULL;
  GtkListBox *list = GTK_LIST_BOX (tandem_test_child (f->window, "thread_list"));
  g_autofree char *sent_id = NULL;
  GtkListBoxRow *row;

  g_test_summary ("A conversation sent from the window goes to the top, selected; activating a row opens it");

  /* A stored conversation, as New Chat makes, on the scripted agent. */
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  tandem_window_set_session (f->window, session);
  g_set_object (&f->session, session);
  sent_id = g_strdup (agui_agent_session_get_thread_id (session));

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Noted"), RF ("r1"), NULL));
  send_by_enter (f, "Sent from the window");
  agui_test_wait_for_exchange (f->session);
  g_assert_null (agui_agent_session_get_store_error (session));

  g_assert_cmpint (sidebar_index (f->window, "Sent from the window"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Opened from the sidebar"), ==, 1);
  row = gtk_list_box_get_selected_row (list);
  g_assert_nonnull (row);
  g_assert_cmpint (gtk_list_box_row_get_index (row), ==, 0);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))), ==,
                   "Sent from the window");

  /* What a click on the row does. */
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 1));
  wait_for_thread (f->window, older);
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), ==, older);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (tandem_window_get_session (f->window)))), ==, 1);
  g_assert_nonnull (tandem_test_find_label (tandem_test_child (f->window, "transcript_view"), "earlier words"));
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))), ==,
                   "Opened from the sidebar");
  row = gtk_list_box_get_selected_row (list);
  g_assert_nonnull (row);
  g_assert_cmpint (gtk_list_box_row_get_index (row), ==, sidebar_index (f->window, "Opened from the sidebar"));

  /* And back: the first conversation, restored from the store. */
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, sidebar_index (f->window, "Sent from the window")));
  wait_for_thread (f->window, sent_id);
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), ==, sent_id);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (tandem_window_get_session (f->window)))), ==, 2);
}

static void
test_threads_search (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *garden = add_thread ("Garden notes", "The tomatoes need water");
  g_autofree char *budget = add_thread ("Budget review", "Quarterly numbers");
  g_autofree char *travel = add_thread ("Travel", "Pack the Zebra-striped umbrella");
  g_autofree char *fruit = add_thread ("Fruit", "Intro\n## Kiwi heading, **bold** and `code`");
  g_auto(GStrv) titles = NULL;

  g_test_summary ("The search filters the sidebar by title and by message text, quoting the line found "
                  "without its Markdown; clearing it shows all again");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL));
  g_assert_true (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (tandem_test_child (f->window, "search_bar"))));

  /* By title, ignoring case. */
  search_for (f, "BUDGET");
  titles = dup_sidebar_titles (f->window);
  g_assert_cmpstrv (titles, ((const char *[]) { "Budget review", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  /* By what was said, though the title does not match. */
  search_for (f, "zebra");
  titles = dup_sidebar_titles (f->window);
  g_assert_cmpstrv (titles, ((const char *[]) { "Travel", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  /* The line quoted reads as the transcript shows it, not as Markdown */
  search_for (f, "kiwi");
  titles = dup_sidebar_titles (f->window);
  g_assert_cmpstrv (titles, ((const char *[]) { "Fruit", NULL }));
  g_clear_pointer (&titles, g_strfreev);
  {
    GtkListBox *list = GTK_LIST_BOX (tandem_test_child (f->window, "thread_list"));
    g_autoptr(GPtrArray) labels = tandem_test_find_all (gtk_list_box_get_row_at_index (list, 0), GTK_TYPE_LABEL);
    gboolean quoted = FALSE;

    for (guint i = 0; i < labels->len; i++)
      {
        const char *text = gtk_label_get_text (labels->pdata[i]);

        g_assert_null (strchr (text, '#'));
        g_assert_null (strstr (text, "**"));
        quoted |= g_strcmp0 (text, "Kiwi heading, bold and code") == 0 &&
                  gtk_widget_get_visible (labels->pdata[i]);
      }
    g_assert_true (quoted);
  }

  search_for (f, "no conversation says this");
  g_assert_cmpint (sidebar_index (f->window, "Travel"), ==, -1);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "threads_stack"))), ==, "empty");

  search_for (f, "");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "threads_stack"))), ==, "list");
  g_assert_cmpint (sidebar_index (f->window, "Fruit"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Travel"), ==, 1);
  g_assert_cmpint (sidebar_index (f->window, "Budget review"), ==, 2);
  g_assert_cmpint (sidebar_index (f->window, "Garden notes"), ==, 3);
}

static void
test_threads_waiting_empty (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *thread = add_thread ("Nothing to answer", "Just a chat");
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (f->window, GTK_TYPE_TOGGLE_BUTTON);
  GtkStack *stack = GTK_STACK (tandem_test_child (f->window, "threads_stack"));
  GtkWidget *waiting = NULL;
  AdwStatusPage *page;

  g_test_summary ("With none waiting, the waiting filter says nothing waits, not that there are no conversations");

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (buttons->pdata[i]), "Show Only Conversations Waiting for You") == 0)
      waiting = buttons->pdata[i];
  g_assert_nonnull (waiting);

  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpint (sidebar_index (f->window, "Nothing to answer"), >=, 0);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (waiting), TRUE);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "empty");
  page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (stack, "empty"));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "Nothing Waits for You");
  g_assert_cmpstr (adw_status_page_get_description (page), ==, "No conversation is waiting for you.");

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (waiting), FALSE);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "list");
}

static AdwMessageDialog *
find_rename_dialog (Fixture *f)
{
  GList *toplevels = gtk_window_list_toplevels ();
  AdwMessageDialog *dialog = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && !TANDEM_IS_APPROVAL_DIALOG (l->data) &&
        gtk_widget_get_visible (l->data) &&
        gtk_window_get_transient_for (l->data) == GTK_WINDOW (f->window))
      dialog = l->data;
  g_list_free (toplevels);

  return dialog;
}

static GtkButton *
find_button (gpointer    widget,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), label) == 0)
      return buttons->pdata[i];

  return NULL;
}

/* A click, as the person makes it; activating a button would emit
 * clicked only after its press animation. */
static void
click (GtkButton *button)
{
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
}

/* Opens the rename dialog for @thread_id the way the row's menu does,
 * types @title and presses @button. */
static void
rename_through_dialog (Fixture    *f,
                       const char *thread_id,
                       const char *old_title,
                       const char *title,
                       const char *button)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.rename-thread", "s", thread_id));
  dialog = find_rename_dialog (f);
  g_assert_nonnull (dialog);

  entry = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_EDITABLE (entry));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, old_title);
  gtk_editable_set_text (GTK_EDITABLE (entry), title);

  g_assert_nonnull (find_button (dialog, button));
  click (find_button (dialog, button));
  agui_test_wait_until (find_rename_dialog (f) == NULL, "the rename dialog closed");
}

static char *
dup_store_title (const char *thread_id)
{
  g_autoptr(JsonObject) thread = agui_session_store_get_thread (tandem_application_get_store (app), thread_id, NULL);

  g_assert_nonnull (thread);

  return g_strdup (json_object_get_string_member (thread, "title"));
}

static void
test_threads_rename (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *other = add_thread ("Not renamed", "left alone");
  g_autofree char *thread_id = add_thread ("Before the rename", "hello");
  g_autofree char *title = NULL;

  g_test_summary ("Rename asks for a title, saves it and shows it in the sidebar and the header");

  tandem_window_open_thread (f->window, thread_id);
  wait_for_thread (f->window, thread_id);
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), ==, thread_id);
  g_assert_cmpint (sidebar_index (f->window, "Before the rename"), ==, 0);

  /* Cancel changes nothing. */
  rename_through_dialog (f, thread_id, "Before the rename", "Never saved", "_Cancel");
  /* A rename is written on the store's worker: give a wrong one the time to. */
  agui_test_wait_to_rule_out (100, "a cancelled rename reaching the store");
  title = dup_store_title (thread_id);
  g_assert_cmpstr (title, ==, "Before the rename");
  g_clear_pointer (&title, g_free);
  g_assert_cmpint (sidebar_index (f->window, "Never saved"), ==, -1);

  rename_through_dialog (f, thread_id, "Before the rename", "After the rename", "_Rename");
  /* The sidebar hears of the rename from the store, once it is written */
  agui_test_wait_until (sidebar_index (f->window, "After the rename") >= 0, "the sidebar showed the new title");
  title = dup_store_title (thread_id);
  g_assert_cmpstr (title, ==, "After the rename");
  g_clear_pointer (&title, g_free);
  g_assert_cmpint (sidebar_index (f->window, "Before the rename"), ==, -1);
  /* A rename is not activity: the conversation keeps its place. */
  g_assert_cmpint (sidebar_index (f->window, "After the rename"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Not renamed"), ==, 1);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))), ==,
                   "After the rename");

  /* Renaming a conversation that is not open leaves the header alone. */
  rename_through_dialog (f, other, "Not renamed", "Renamed too", "_Rename");
  agui_test_wait_until (sidebar_index (f->window, "Renamed too") >= 0, "the sidebar showed the other's new title");
  title = dup_store_title (other);
  g_assert_cmpstr (title, ==, "Renamed too");
  g_assert_cmpint (sidebar_index (f->window, "Renamed too"), ==, 1);
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))), ==,
                   "After the rename");
}

/* The toast widget showing "Conversation deleted", if any. */
static GtkWidget *
find_delete_toast (Fixture *f)
{
  GType type = g_type_from_name ("AdwToastWidget");
  g_autoptr(GPtrArray) widgets = NULL;

  g_assert_true (type != G_TYPE_INVALID);
  widgets = tandem_test_find_all (tandem_test_child (f->window, "toast_overlay"), type);
  g_assert_cmpuint (widgets->len, <=, 1);
  for (guint i = 0; i < widgets->len; i++)
    if (tandem_test_find_label (widgets->pdata[i], "Conversation deleted") != NULL)
      return widgets->pdata[i];

  return NULL;
}

static gboolean
no_delete_toast (gpointer data)
{
  return find_delete_toast (data) == NULL;
}

/* The row that shows @title, or NULL */
static GtkWidget *
sidebar_row (TandemWindow *window,
             const char   *title)
{
  int index = sidebar_index (window, title);

  if (index < 0)
    return NULL;

  return GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (tandem_test_child (window, "thread_list")), index));
}

static void
test_threads_incremental (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *first = add_thread ("Kept row one", "one");
  g_autofree char *second = add_thread ("Kept row two", "two");
  g_autofree char *third = add_thread ("Moved by a turn", "three");
  g_autoptr(GPtrArray) labels = NULL;
  GtkWidget *one, *two, *moved;
  gboolean shown = FALSE;

  g_test_summary ("A saved turn changes its own row only; a search shows the matching line under the title");

  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  one = sidebar_row (f->window, "Kept row one");
  two = sidebar_row (f->window, "Kept row two");
  moved = sidebar_row (f->window, "Moved by a turn");
  g_assert_nonnull (one);
  g_assert_nonnull (two);
  g_assert_nonnull (moved);
  g_assert_cmpint (sidebar_index (f->window, "Moved by a turn"), ==, 0);

  /* The oldest of the three gets a turn: it goes to the top, and the
   * rows of the others are the same widgets, not made again. */
  {
    g_autoptr(JsonArray) messages = json_array_new ();
    g_autoptr(GError) error = NULL;
    g_autofree char *snapshot_id = g_uuid_string_random ();
    JsonObject *message = json_object_new ();
    AguiTurnRecord turn = { 0 };

    json_object_set_string_member (message, "id", "m1");
    json_object_set_string_member (message, "role", "user");
    json_object_set_string_member (message, "content", "First line\nThe quetzal flew over the garden wall");
    json_array_add_object_element (messages, message);
    turn.thread_id = first;
    turn.snapshot_id = snapshot_id;
    turn.turn_index = 1;
    turn.status = AGUI_SNAPSHOT_COMPLETED;
    turn.messages = agui_test_array_tree (messages);
    g_assert_true (_agui_session_store_save_turn (tandem_application_get_store (app), &turn, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpint (sidebar_index (f->window, "Kept row one"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Moved by a turn"), ==, 1);
  g_assert_cmpint (sidebar_index (f->window, "Kept row two"), ==, 2);
  g_assert_true (sidebar_row (f->window, "Kept row two") == two);
  g_assert_true (sidebar_row (f->window, "Moved by a turn") == moved);

  /* The message text matched on the store's worker: its line shows */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL));
  search_for (f, "QUETZAL");
  g_assert_cmpint (sidebar_index (f->window, "Kept row one"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Kept row two"), ==, -1);
  labels = tandem_test_find_all (sidebar_row (f->window, "Kept row one"), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), "The quetzal flew over the garden wall") == 0)
      shown = gtk_widget_is_visible (labels->pdata[i]) && i == 1;
  g_assert_true (shown);

  /* A title matches in memory, with no store to ask */
  gtk_editable_set_text (GTK_EDITABLE (tandem_test_child (f->window, "search_entry")), "kept ROW two");
  g_signal_emit_by_name (tandem_test_child (f->window, "search_entry"), "search-changed");
  g_assert_cmpint (sidebar_index (f->window, "Kept row two"), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Moved by a turn"), ==, -1);
  search_for (f, "");
}

static void
test_threads_delete (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *kept = add_thread ("Kept around", "stay");
  g_autofree char *thread_id = add_thread ("Deleted twice", "bye");
  g_autoptr(AdwToast) toast = NULL;
  GtkWidget *toast_widget;

  g_test_summary ("Delete hides a conversation at once; Undo brings it back, else it leaves the store");

  tandem_window_refresh_threads (f->window);

  tandem_test_wait_for_threads (f->window);
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.delete-thread", "s", thread_id));
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, -1);
  g_assert_cmpint (sidebar_index (f->window, "Kept around"), ==, 0);
  toast_widget = find_delete_toast (f);
  g_assert_nonnull (toast_widget);
  g_assert_true (store_has_thread (thread_id));

  /* A refresh, as after an exchange, does not bring it back early. */
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, -1);

  /* Undo: back in the list, and the toast going away deletes nothing. */
  click (find_button (toast_widget, "_Undo"));
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, 0);
  g_assert_true (agui_test_wait_for (no_delete_toast, f, TIMEOUT_MS));
  /* A delete would follow the toast going away at once: give it time to. */
  agui_test_wait_to_rule_out (200, "the undone delete reaching the store");
  g_assert_true (store_has_thread (thread_id));
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, 0);

  /* Again, and this time the toast is dismissed. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.delete-thread", "s", thread_id));
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, -1);
  toast_widget = find_delete_toast (f);
  g_assert_nonnull (toast_widget);
  g_object_get (toast_widget, "toast", &toast, NULL);
  g_assert_true (ADW_IS_TOAST (toast));
  g_assert_true (store_has_thread (thread_id));

  /* Dismissed while it still comes in: carried out once it is in */
  adw_toast_dismiss (toast);
  agui_test_wait_until (!store_has_thread (thread_id), "dismissing the toast deleted the thread");
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpint (sidebar_index (f->window, "Deleted twice"), ==, -1);
  g_assert_cmpint (sidebar_index (f->window, "Kept around"), ==, 0);
  g_assert_true (store_has_thread (kept));
}

static void
test_threads_delete_on_close (Fixture       *f,
                              gconstpointer  data)
{
  g_autofree char *closed = add_thread ("Deleted at close", "bye");
  g_autofree char *destroyed = add_thread ("Deleted at destroy", "bye");

  g_test_summary ("A window going away with a delete still offered carries the delete out");

  /* Closed, as Ctrl+W and Quit do. */
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.delete-thread", "s", closed));
  g_assert_nonnull (find_delete_toast (f));
  g_assert_true (store_has_thread (closed));
  gtk_window_close (GTK_WINDOW (f->window));
  agui_test_wait_until (!store_has_thread (closed), "closing the window deleted the thread its toast offered back");

  /* Destroyed without a close request. */
  f->window = tandem_window_new (app);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.delete-thread", "s", destroyed));
  g_assert_true (store_has_thread (destroyed));
  gtk_window_destroy (GTK_WINDOW (f->window));
  agui_test_wait_until (!store_has_thread (destroyed), "destroying the window deleted the thread its toast offered back");

  f->window = tandem_window_new (app);
  g_assert_cmpint (sidebar_index (f->window, "Deleted at destroy"), ==, -1);
}

static gboolean
listed (gpointer data)
{
  TandemWindow *window = data;

  return sidebar_index (window, "Listed while it streams") == 0;
}

static void
test_threads_listed_at_send (Fixture       *f,
                             gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiTestResponse) response = NULL;
  g_autoptr(GPtrArray) kept = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = NULL;

  g_test_summary ("A new conversation is in the store and the sidebar as soon as it is sent, "
                  "while its first answer streams");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL,
                          "tools", NULL, "store", store, "agent", "test", NULL);
  tandem_window_set_session (f->window, session);
  g_set_object (&f->session, session);
  thread_id = g_strdup (agui_agent_session_get_thread_id (session));

  response = agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Slowly"), NULL);
  agui_test_response_append_stall (response, 3000);
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  send_by_enter (f, "Listed while it streams");

  g_assert_true (agui_test_wait_for (listed, f->window, TIMEOUT_MS));
  g_assert_true (agui_agent_session_get_busy (session));
  kept = _agui_session_store_load_journal (store, thread_id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (kept->len, >=, 1);

  agui_test_wait_for_exchange (f->session);
  g_assert_null (agui_agent_session_get_store_error (session));
  g_clear_pointer (&kept, g_ptr_array_unref);
  kept = _agui_session_store_load_journal (store, thread_id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (kept->len, ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Listed while it streams"), ==, 0);
}

typedef struct
{
  const char *thread_id;
  const char *text;
} DraftWait;

static gboolean
draft_stored (gpointer data)
{
  DraftWait *wait = data;
  g_autofree char *stored = _agui_session_store_dup_draft (tandem_application_get_store (app), wait->thread_id, NULL);

  return g_strcmp0 (stored, wait->text) == 0;
}

typedef struct
{
  TandemWindow *window;
  const char   *text;
} ComposerWait;

static gboolean
composer_says (gpointer data)
{
  ComposerWait *wait = data;
  g_autofree char *text = dup_composer_text (wait->window);

  return g_strcmp0 (text, wait->text) == 0;
}

static void
test_threads_draft (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *thread_id = add_thread ("Has a draft", "earlier words");
  g_autofree char *text = NULL;
  DraftWait kept = { thread_id, "half a thought" };
  DraftWait forgotten = { thread_id, "" };
  ComposerWait shown = { f->window, "half a thought" };

  g_test_summary ("What is typed and not sent is kept with its conversation, in the store: "
                  "another conversation starts empty, and coming back shows it again");

  tandem_test_wait_for_threads (f->window);
  tandem_window_open_thread (f->window, thread_id);
  wait_for_thread (f->window, thread_id);

  set_composer_text (f->window, "half a thought");
  g_assert_true (agui_test_wait_for (draft_stored, &kept, TIMEOUT_MS));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  /* Drafts are read on the store's worker: give a wrong one time to come */
  agui_test_wait_to_rule_out (100, "a new chat shows another conversation's draft");
  text = dup_composer_text (f->window);
  g_assert_cmpstr (text, ==, "");

  tandem_window_open_thread (f->window, thread_id);
  wait_for_thread (f->window, thread_id);
  g_assert_true (agui_test_wait_for (composer_says, &shown, TIMEOUT_MS));

  /* Sent, it is no draft any more */
  set_composer_text (f->window, "");
  g_assert_true (agui_test_wait_for (draft_stored, &forgotten, TIMEOUT_MS));
}

static void
test_threads_interrupted_answer (Fixture       *f,
                                 gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autofree char *thread_id = g_uuid_string_random ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AguiJournalRows *rows = g_new0 (AguiJournalRows, 1);
  GtkRevealer *revealer = GTK_REVEALER (tandem_test_child (f->window, "error_revealer"));
  static const char * const events[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"q\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"q\",\"delta\":\"Asked before the crash\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"q\"}",
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a\",\"delta\":\"Half an answer\"}",
  };

  g_test_summary ("A conversation whose answer a crash cut short opens with the question and the answer "
                  "as far as it was kept, marked failed, with Retry");

  /* What the journal held when the program was killed */
  rows->thread_id = g_strdup (thread_id);
  rows->snapshot_id = g_uuid_string_random ();
  rows->title = g_strdup ("Asked before the crash");
  rows->agent = g_strdup (TANDEM_AGENTS_DEMO_ID);
  rows->first = TRUE;
  rows->event_json = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    g_ptr_array_add (rows->event_json, g_strdup (events[i]));
  _agui_session_store_append_journal_async (store, rows, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, TIMEOUT_MS);
  g_assert_true (_agui_session_store_append_journal_finish (store, result, &error));
  g_assert_no_error (error);

  g_assert_cmpint (sidebar_index (f->window, "Asked before the crash"), >=, 0);
  tandem_window_open_thread (f->window, thread_id);
  wait_for_thread (f->window, thread_id);
  agui_test_wait_until (tandem_test_find_label (tandem_test_child (f->window, "transcript_view"), "Half an answer") != NULL &&
                        gtk_revealer_get_reveal_child (revealer),
                        "the answer cut short is shown, with its error");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (tandem_window_get_session (f->window)))), ==, 2);
  g_assert_nonnull (tandem_test_find_label (tandem_test_child (f->window, "transcript_view"), "Asked before the crash"));
  g_assert_nonnull (tandem_test_find_label (tandem_test_child (f->window, "transcript_view"), "Half an answer"));
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (tandem_test_child (f->window, "error_label"))), "interrupted"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.retry", NULL));
  g_assert_true (agui_agent_session_get_busy (tandem_window_get_session (f->window)));
  agui_agent_session_cancel (tandem_window_get_session (f->window));
  agui_test_wait_for_exchange (tandem_window_get_session (f->window));
}

/* Another process holds the database the app opens: the store waits */
static void
test_send_waits_for_store (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(TandemApplication) opening = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *fixture = NULL;
  g_autofree char *contents = NULL;
  TandemWindow *window;
  sqlite3 *db = NULL;
  gsize length;

  g_test_summary ("While the store opens nothing is sent, which it could not keep; what was typed "
                  "meanwhile stays in the composer and, once the store is open, goes out kept");

  /* A store of the release before, which the app migrates under a write lock */
  dir = tandem_test_make_store_dir ("opening", &path);
  fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v3.db", NULL);
  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, contents, length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);

  opening = TANDEM_APPLICATION (g_object_new (TANDEM_TYPE_APPLICATION,
                                              "application-id", "io.github.tandemdesk.Tandem.Opening",
                                              "flags", G_APPLICATION_NON_UNIQUE, NULL));
  tandem_application_set_store_path (opening, path);
  tandem_application_set_agent_url (opening, agui_test_server_get_url (f->server));
  g_assert_true (g_application_register (G_APPLICATION (opening), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tandem_application_get_store_opening (opening));

  window = tandem_window_new (opening);
  gtk_window_present (GTK_WINDOW (window));
  tandem_test_wait_for_layout (window);
  set_composer_text (window, "Typed while the store opens");
  g_assert_true (tandem_window_handle_composer_key (window, GDK_KEY_Return, 0));
  agui_test_wait_to_rule_out (200, "a message went out before the store could keep it");
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 0);
  g_assert_true (tandem_application_get_store_opening (opening));
  text = dup_composer_text (window);
  g_assert_cmpstr (text, ==, "Typed while the store opens");

  /* The other process lets go */
  g_assert_cmpint (sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  agui_test_wait_until (tandem_application_get_store (opening) != NULL, "the store opened");
  agui_test_wait_until (agui_agent_session_get_store (tandem_window_get_session (window)) != NULL,
                        "the window's new conversation is kept");
  g_clear_pointer (&text, g_free);
  text = dup_composer_text (window);
  g_assert_cmpstr (text, ==, "Typed while the store opens");

  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Kept"), RF ("r1"), NULL));
  g_assert_true (tandem_window_handle_composer_key (window, GDK_KEY_Return, 0));
  agui_test_wait_until (agui_test_server_get_n_requests (f->server) == 1, "the message went out");
  agui_test_wait_for_exchange (tandem_window_get_session (window));
  thread_id = g_strdup (agui_agent_session_get_thread_id (tandem_window_get_session (window)));
  thread = agui_session_store_get_thread (tandem_application_get_store (opening), thread_id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (thread);
  g_assert_cmpint (agui_session_store_get_turn_count (tandem_application_get_store (opening), thread_id, &error), ==, 1);
  g_assert_no_error (error);

  tandem_test_destroy_window (window);
  g_clear_object (&opening);
  tandem_test_remove_store (dir, path);
}

static void
test_threads_delete_open (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *thread_id = add_thread ("Open and deleted", "bye");
  AguiAgentSession *session;

  g_test_summary ("Deleting the open conversation starts a new one; Undo lists it again");

  tandem_window_open_thread (f->window, thread_id);
  wait_for_thread (f->window, thread_id);
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), ==, thread_id);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.delete-thread", "s", thread_id));
  session = tandem_window_get_session (f->window);
  g_assert_cmpstr (agui_agent_session_get_thread_id (session), !=, thread_id);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (session))), ==, 0);
  g_assert_cmpint (sidebar_index (f->window, "Open and deleted"), ==, -1);

  click (find_button (find_delete_toast (f), "_Undo"));
  g_assert_true (agui_test_wait_for (no_delete_toast, f, TIMEOUT_MS));
  g_assert_true (store_has_thread (thread_id));
  g_assert_cmpint (sidebar_index (f->window, "Open and deleted"), ==, 0);
}

static void
test_new_chat (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *old_id = NULL;
  g_autofree char *draft = NULL;
  g_auto(GStrv) accels = NULL;
  AguiAgentSession *session;

  g_test_summary ("New Chat, also on Ctrl+N, switches to an empty conversation on a new thread");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Sure"), RF ("r1"), NULL));
  send_by_enter (f, "An old conversation");
  agui_test_wait_for_exchange (f->session);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "content_stack"))), ==, "transcript");
  old_id = g_strdup (agui_agent_session_get_thread_id (f->session));

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.new-chat");
  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>n"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != f->session, "New Chat switched the window to a new session");

  session = tandem_window_get_session (f->window);
  g_assert_nonnull (session);
  g_assert_true (session != f->session);
  g_assert_nonnull (agui_agent_session_get_thread_id (session));
  g_assert_cmpstr (agui_agent_session_get_thread_id (session), !=, "");
  g_assert_cmpstr (agui_agent_session_get_thread_id (session), !=, old_id);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (session))), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "content_stack"))), ==, "welcome");
  g_assert_cmpstr (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))), ==, "New Chat");
  g_assert_null (gtk_list_box_get_selected_row (GTK_LIST_BOX (tandem_test_child (f->window, "thread_list"))));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (tandem_test_child (f->window, "error_revealer"))));
  draft = dup_composer_text (f->window);
  g_assert_cmpstr (draft, ==, "");

  /* A second New Chat is yet another thread. */
  old_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.new-chat", NULL));
  agui_test_wait_until (tandem_window_get_session (f->window) != session, "a second New Chat switched to another session");
  g_assert_cmpstr (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)), !=, old_id);
}

/* Benchmarks, `meson test --benchmark window`: registered only with
 * -m perf, so the suite never lists them as skipped. Each still checks
 * that it did the work it times. */

/* The Markdown view of the message shown with @needle, or NULL */
static GtkWidget *
find_markdown_containing (TandemWindow *window,
                          const char   *needle)
{
  g_autoptr(GPtrArray) views = tandem_test_find_all (window, TANDEM_TYPE_MARKDOWN_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (strstr (tandem_markdown_view_get_text (views->pdata[i]), needle) != NULL)
      return views->pdata[i];

  return NULL;
}

/* Whether a Markdown view in @window shows text containing @needle */
static gboolean
shows_markdown_containing (TandemWindow *window,
                           const char   *needle)
{
  return find_markdown_containing (window, needle) != NULL;
}

/* Each case runs three times, each in a new window talking to a new
 * server, and fails when the best of the three misses a frame: the
 * longest stretch of the main thread's own work (its CPU time, so that
 * other processes on a shared machine do not count). One noisy run does
 * not fail a case; a stall the code causes is in all three. */
#define BENCH_RUNS 3
#define FRAME_BUDGET_US (16 * 1000)

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);

  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* A source due every millisecond: while the loop waits it runs on time;
 * while a handler, a layout or a frame holds the loop it cannot, and the
 * main thread's CPU time between two of its runs is the work that held
 * the loop. */
typedef struct
{
  gint64 last;
  gint64 last_cpu;
  gint64 longest;
  gint64 longest_cpu;
  guint  probes;
  guint  id;
} Stalls;

static gboolean
on_stall_probe_cb (gpointer user_data)
{
  Stalls *stalls = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us ();

  if (stalls->last != 0)
    {
      stalls->longest = MAX (stalls->longest, now - stalls->last);
      stalls->longest_cpu = MAX (stalls->longest_cpu, cpu - stalls->last_cpu);
    }
  stalls->last = now;
  stalls->last_cpu = cpu;
  stalls->probes++;

  return G_SOURCE_CONTINUE;
}

static void
stalls_start (Stalls *stalls)
{
  *stalls = (Stalls) { 0, };
  /* At the default priority, as this benchmark always probed: above
   * the window's own sources, a probe due every millisecond on a loaded
   * machine would take turns from the frames the scroll waits for */
  stalls->id = g_timeout_add (1, on_stall_probe_cb, stalls);
}

/* From now on, the stalls are counted afresh */
static void
stalls_reset (Stalls *stalls)
{
  stalls->longest = 0;
  stalls->longest_cpu = 0;
}

static void
stalls_stop (Stalls *stalls)
{
  g_clear_handle_id (&stalls->id, g_source_remove);
}

/* Fails the case if the best of its runs, @best_us of the main thread's
 * work, is over a frame */
static void
bench_check_budget (const char *what,
                    gint64      best_us)
{
  g_test_minimized_result (best_us / 1000.0, "%s: longest stall %.1f ms (best of %d)",
                           what, best_us / 1000.0, BENCH_RUNS);
  g_print ("# budget: %s: longest stall %.1f ms of CPU, best of %d runs (budget %.0f ms)%s\n",
           what, best_us / 1000.0, BENCH_RUNS, FRAME_BUDGET_US / 1000.0,
           best_us > FRAME_BUDGET_US ? ": OVER BUDGET" : "");
  if (best_us > FRAME_BUDGET_US)
    g_test_fail_printf ("%s: the longest stall, %.1f ms of the main thread's work at best in %d runs, "
                        "is over the %.0f ms budget", what, best_us / 1000.0, BENCH_RUNS, FRAME_BUDGET_US / 1000.0);
}

/* A new window, session and server for the next run: a server's count
 * of requests is its own run's */
static void
bench_next_run (Fixture *f)
{
  fixture_tear_down (f, NULL);
  fixture_set_up (f, NULL);
}

/* Each send reaches the server once; if not, what did */
static void
assert_one_request (Fixture *f)
{
  for (guint i = 0; i < agui_test_server_get_n_requests (f->server); i++)
    {
      const AguiTestRequest *request = agui_test_server_get_request (f->server, i);
      gsize size = request->body != NULL ? g_bytes_get_size (request->body) : 0;
      g_autofree char *body = size > 0 ? g_strndup (g_bytes_get_data (request->body, NULL), MIN (size, 300)) : NULL;

      g_test_message ("request %u: %s %s %s", i, request->method, request->path, body != NULL ? body : "");
    }
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
}

/* One send of a 10,000-delta answer; returns the longest stall of the
 * main thread's work while it streamed */
static gint64
bench_stream_once (Fixture *f)
{
  AguiTestResponse *response;
  Stalls stalls;
  gint64 start, first, first_stall;
  AguiTranscript *transcript;
  g_autofree char *last_word = NULL;

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

  stalls_start (&stalls);
  start = g_get_monotonic_time ();
  send_by_enter (f, "Stream a lot");

  /* The first answer builds the first rows, loads fonts and so on once;
   * that is first-response latency, kept apart from stalls while the
   * answer streams. */
  transcript = agui_agent_session_get_transcript (tandem_window_get_session (f->window));
  agui_test_wait_until (agui_transcript_get_n_ag_ui_messages (transcript) >= 2, "the first delta of the answer arrived");
  first = g_get_monotonic_time () - start;
  first_stall = stalls.longest_cpu;
  stalls_reset (&stalls);

  agui_test_wait_for_exchange (f->session);
  stalls_stop (&stalls);

  last_word = g_strdup_printf ("word%u", 9999);
  agui_test_wait_until (tandem_test_find_label (f->window, "Stream a lot") != NULL, "the person's message was shown");
  assert_one_request (f);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 2);
  agui_test_wait_until (shows_markdown_containing (f->window, last_word), "the answer showed its last delta");

  g_print ("# stream: 10000 deltas in %.1f ms; first delta after %.1f ms (longest stall until then %.1f ms of CPU); "
           "longest stall while streaming %.1f ms of CPU (%.1f ms of wall time) over %u probes\n",
           (g_get_monotonic_time () - start) / 1000.0, first / 1000.0, first_stall / 1000.0,
           stalls.longest_cpu / 1000.0, stalls.longest / 1000.0, stalls.probes);

  return stalls.longest_cpu;
}

static void
test_perf_stream (Fixture       *f,
                  gconstpointer  data)
{
  gint64 best = G_MAXINT64;

  for (guint run = 0; run < BENCH_RUNS; run++)
    {
      /* Not in MIN (), which would run it twice */
      gint64 longest;

      if (run > 0)
        bench_next_run (f);
      longest = bench_stream_once (f);
      best = MIN (best, longest);
    }

  bench_check_budget ("10000 deltas into the window", best);
}

/* The transcript's key controller: Page Down, Home and End as a person
 * presses them, through the window's own handler */
static GtkEventController *
find_transcript_keys (TandemWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (tandem_test_child (window, "transcript_scroller"));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (controller), "transcript-keys") == 0)
        return controller;  /* the scroller keeps it */
    }

  g_assert_not_reached ();
}

/* Whether @widget is drawn whole inside the transcript's viewport */
static gboolean
whole_in_viewport (TandemWindow *window,
                   GtkWidget    *widget)
{
  GtkWidget *scroller = tandem_test_child (window, "transcript_scroller");
  graphene_rect_t bounds;

  return widget != NULL && gtk_widget_get_mapped (widget) &&
         gtk_widget_compute_bounds (widget, scroller, &bounds) &&
         bounds.origin.y >= -1 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller) + 1;
}

/* Walks 10,000 messages loaded into the conversation shown, top to
 * bottom, as a person does: Home, then Page Down, a press a frame, until
 * the last one. Returns the longest stall of the main thread's work on
 * the way. (It used to jump with list.scroll-to-item, which nothing a
 * person does calls, while the window still followed the end: each jump
 * and the follow after it had the list view rebuild its 200 rows.) */
static gint64
bench_scroll_once (Fixture *f)
{
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(GError) error = NULL;
  GtkAdjustment *adjustment;
  GtkEventController *keys;
  GtkWidget *jump;
  Stalls stalls;
  gint64 start;
  gboolean handled = FALSE;
  guint steps = 0;

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
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));
  jump = tandem_test_child (f->window, "jump_button");
  agui_test_wait_until (adjustment_at_bottom (adjustment) &&
                          gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) &&
                          whole_in_viewport (f->window, find_markdown_containing (f->window, "Message 9999 ")),
                        "the 10000 loaded messages were shown at their end");
  g_print ("# scroll: loaded 10000 messages in %.1f ms\n", (g_get_monotonic_time () - start) / 1000.0);

  gtk_widget_grab_focus (tandem_test_child (f->window, "transcript_view"));
  keys = find_transcript_keys (f->window);

  stalls_start (&stalls);
  start = g_get_monotonic_time ();
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Home, 0, 0, &handled);
  g_assert_true (handled);
  agui_test_wait_until (gtk_adjustment_get_value (adjustment) < 1 &&
                          whole_in_viewport (f->window, find_markdown_containing (f->window, "Message 1 ")),
                        "Home showed the first answer");
  g_assert_true (gtk_widget_get_visible (jump));

  /* Until the last message is at the bottom: once shown, a press more
   * cannot move the view, and following resumes there */
  while (!adjustment_at_bottom (adjustment) || gtk_widget_get_visible (jump))
    {
      g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Page_Down, 0, 0, &handled);
      g_assert_true (handled);
      /* Draining the loop never ends while the 1 ms probe is always
       * due; the frame that lays out the rows brought into view does. */
      tandem_test_wait_for_frame (f->window);
      steps++;
      g_assert_cmpuint (steps, <, 20000);
    }
  stalls_stop (&stalls);

  /* Following again, at the end: the last row inside the viewport */
  agui_test_wait_until (whole_in_viewport (f->window, find_markdown_containing (f->window, "Message 9999 ")),
                        "the walk ended with the last message inside the viewport");
  g_assert_false (gtk_widget_get_visible (jump));

  g_print ("# scroll: Home and %u Page Downs over 10000 messages in %.1f ms, longest stall %.1f ms of CPU (%.1f ms of wall time)\n",
           steps, (g_get_monotonic_time () - start) / 1000.0, stalls.longest_cpu / 1000.0, stalls.longest / 1000.0);

  return stalls.longest_cpu;
}

static void
test_perf_scroll (Fixture       *f,
                  gconstpointer  data)
{
  gint64 best = G_MAXINT64;

  for (guint run = 0; run < BENCH_RUNS; run++)
    {
      /* Not in MIN (), which would run it twice */
      gint64 longest;

      if (run > 0)
        bench_next_run (f);
      longest = bench_scroll_once (f);
      best = MIN (best, longest);
    }

  bench_check_budget ("scrolling 10000 messages", best);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("window", &store_path);

  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

#define ADD(path, fn, data) g_test_add ("/tandem/window/" path, Fixture, data, fixture_set_up, fn, fixture_tear_down)
  ADD ("stream", test_stream, NULL);
  ADD ("composer-keys", test_composer_keys, NULL);
  ADD ("header-status", test_header_status, NULL);
  ADD ("header-subagent", test_header_subagent, NULL);
  ADD ("settings-after-close", test_settings_after_close, NULL);
  ADD ("tool-card", test_tool_card, NULL);
  ADD ("tool-card-long-arguments", test_tool_card_long_arguments, NULL);
  ADD ("strands-tool-call", test_strands_tool_call, NULL);
  ADD ("interrupt-approve", test_interrupt, GINT_TO_POINTER (FALSE));
  ADD ("interrupt-edit", test_interrupt, GINT_TO_POINTER (TRUE));
  ADD ("interrupt-cancelled-by-close", test_interrupt_cancelled_by_close, NULL);
  ADD ("reopen", test_reopen, NULL);
  ADD ("markup", test_markup, NULL);
  ADD ("jump-to-latest", test_jump_to_latest, NULL);
  ADD ("failed-run", test_failed_run, NULL);
  ADD ("state-inspector", test_state_inspector, NULL);
  ADD ("threads/newest-first", test_threads_newest_first, NULL);
  ADD ("threads/open", test_threads_open, NULL);
  ADD ("threads/search", test_threads_search, NULL);
  ADD ("threads/waiting-empty", test_threads_waiting_empty, NULL);
  ADD ("threads/incremental", test_threads_incremental, NULL);
  ADD ("threads/rename", test_threads_rename, NULL);
  ADD ("threads/delete", test_threads_delete, NULL);
  ADD ("threads/delete-on-close", test_threads_delete_on_close, NULL);
  ADD ("threads/delete-open", test_threads_delete_open, NULL);
  ADD ("threads/listed-at-send", test_threads_listed_at_send, NULL);
  ADD ("threads/draft", test_threads_draft, NULL);
  ADD ("threads/interrupted-answer", test_threads_interrupted_answer, NULL);
  ADD ("new-chat", test_new_chat, NULL);
  ADD ("send-waits-for-store", test_send_waits_for_store, NULL);
  if (g_test_perf ())
    {
      ADD ("perf/stream-10000-deltas", test_perf_stream, NULL);
      ADD ("perf/scroll-10000-messages", test_perf_scroll, NULL);
    }
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
