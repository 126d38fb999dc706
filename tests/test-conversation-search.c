/* test-conversation-search.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-block-row.h"
#include "tandem-block-window.h"
#include "tandem-conversation-search.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* Find in Conversation in a real window: a long answer from the loopback
 * server, Ctrl+F's action, and what a person would check: the count, the
 * row of each match inside the viewport, the highlight on its text. */

#define TIMEOUT_MS 10000

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiAgentSession  *session;
  TandemWindow      *window;
  const char        *word;  /* what the row of the current match shows highlighted */
} Fixture;

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
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 600);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL,
                          "store", NULL, "agent", "test", NULL);
  tandem_window_set_session (f->window, f->session);
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  tandem_test_destroy_window (f->window);
  g_clear_object (&f->session);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

/* An answer of 80 paragraphs, "needle" in the 3rd and the 77th */
static void
push_long_answer (Fixture *f)
{
  AguiTestResponse *response;

  response = agui_test_response_new_events ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
                                            "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
                                            NULL);
  for (guint i = 0; i < 80; i++)
    {
      g_autofree char *event = NULL;

      event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":"
                               "\"Paragraph %u tells of hay and more hay%s, and of fields.\\n\\n\"}",
                               i, i == 2 || i == 76 ? " with a Needle in it" : "");
      agui_test_response_append_event_json (response, event);
    }
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  agui_test_server_push_response (f->server, response);
}

static TandemBlockRow *
find_row (TandemWindow *window,
          TandemBlock  *block)
{
  g_autoptr(GPtrArray) rows = tandem_test_find_all (window, TANDEM_TYPE_BLOCK_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (tandem_block_row_get_block (rows->pdata[i]) == block)
      return rows->pdata[i];

  return NULL;
}

/* The row of the current match is made and inside the viewport, and its
 * text carries the highlight */
static gboolean
current_match_shown (gpointer data)
{
  Fixture *f = data;
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  GListModel *shown = gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_widget_get_template_child (GTK_WIDGET (f->window), TANDEM_TYPE_WINDOW, "transcript_selection")));
  GListModel *blocks = tandem_block_window_get_source (TANDEM_BLOCK_WINDOW (shown));
  guint position = tandem_conversation_search_get_current_block (search);
  g_autoptr(TandemBlock) block = NULL;
  g_autoptr(GPtrArray) labels = NULL;
  TandemBlockRow *row;
  graphene_rect_t bounds;
  gboolean highlighted = FALSE;

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  block = g_list_model_get_item (blocks, position);
  row = find_row (f->window, block);
  if (row == NULL || !gtk_widget_get_mapped (GTK_WIDGET (row)) ||
      !gtk_widget_compute_bounds (GTK_WIDGET (row), scroller, &bounds))
    return FALSE;
  if (bounds.origin.y + bounds.size.height <= 0 || bounds.origin.y >= gtk_widget_get_height (scroller))
    return FALSE;

  labels = tandem_test_find_all (row, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      highlighted |= tandem_conversation_search_count (text, strlen (text), f->word, NULL) > 0 &&
                     gtk_widget_is_drawable (labels->pdata[i]) &&
                     gtk_label_get_attributes (labels->pdata[i]) != NULL;
    }

  return highlighted;
}

static guint
count_highlighted_labels (Fixture *f)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (tandem_test_child (f->window, "transcript_view"), GTK_TYPE_LABEL);
  guint n = 0;

  for (guint i = 0; i < labels->len; i++)
    if (gtk_label_get_attributes (labels->pdata[i]) != NULL)
      n++;

  return n;
}

static void
test_find (Fixture       *f,
           gconstpointer  data)
{
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));
  guint first, second;

  g_test_summary ("Ctrl+F finds every match in the conversation, counts them and scrolls each into view");
  f->word = "Needle";

  push_long_answer (f);
  tandem_window_send (f->window, "Is there a needle?");
  agui_test_wait_until (!agui_agent_session_get_busy (f->session), "the answer ended");
  /* The answer is longer than the window: it follows the end */
  agui_test_wait_until (gtk_adjustment_get_upper (adjustment) > 3 * gtk_adjustment_get_page_size (adjustment),
                        "the long answer was laid out");

  g_assert_false (tandem_conversation_search_get_active (search));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  g_assert_true (tandem_conversation_search_get_active (search));

  /* Case does not matter: the question's "needle" and the two Needles */
  tandem_conversation_search_set_query (search, "NEEDLE");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 3);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "1 of 3");
  g_assert_nonnull (tandem_test_find_label (search, "1 of 3"));
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, 0);

  tandem_conversation_search_next (search);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "2 of 3");
  first = tandem_conversation_search_get_current_block (search);
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));
  /* Reading back: the view stays at the match, rows laid out late must
   * not move it: give them the time to. */
  agui_test_wait_to_rule_out (300, "the view moving away from the match");
  g_assert_true (current_match_shown (f));

  tandem_conversation_search_next (search);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "3 of 3");
  second = tandem_conversation_search_get_current_block (search);
  g_assert_cmpuint (second, >, first);
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));

  /* Back up past the first, to the last */
  tandem_conversation_search_previous (search);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "2 of 3");
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, first);
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));
  tandem_conversation_search_next (search);
  tandem_conversation_search_next (search);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "1 of 3");

  tandem_conversation_search_set_query (search, "haystack");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 0);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "No results");

  /* Closed, nothing stays highlighted */
  tandem_conversation_search_set_query (search, "hay");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 160);
  agui_test_wait_until (count_highlighted_labels (f) > 0, "the matches shown were highlighted");
  tandem_conversation_search_close (search);
  agui_test_wait_until (count_highlighted_labels (f) == 0, "closing the find bar took every highlight away");
  {
    g_autoptr(GPtrArray) labels = tandem_test_find_all (tandem_test_child (f->window, "transcript_view"), GTK_TYPE_LABEL);

    g_assert_false (tandem_conversation_search_get_active (search));
    for (guint i = 0; i < labels->len; i++)
      {
        if (gtk_label_get_attributes (labels->pdata[i]) != NULL)
          g_printerr ("still highlighted: %s\n", gtk_label_get_text (labels->pdata[i]));
        g_assert_null (gtk_label_get_attributes (labels->pdata[i]));
      }
  }
}

/* One turn with a part of each kind, "pumpernickel" in all but the text */
static void
push_every_kind (Fixture *f)
{
  AguiTestResponse *response;

  response = agui_test_response_new_events (
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"REASONING_START\",\"messageId\":\"think\"}",
    "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"think\",\"role\":\"reasoning\"}",
    "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"think\",\"delta\":\"They want Pumpernickel, baked long.\"}",
    "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"think\"}",
    "{\"type\":\"REASONING_END\",\"messageId\":\"think\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Baking now.\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"bake\",\"parentMessageId\":\"m1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"bread\\\":\\\"pumpernickel\\\"}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
    "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"res1\",\"toolCallId\":\"tc1\","
      "\"content\":\"{\\\"loaf\\\":\\\"PUMPERNICKEL, sliced\\\"}\",\"role\":\"tool\"}",
    "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a1\",\"activityType\":\"oven\","
      "\"content\":{\"note\":\"the pumpernickel is in\"}}",
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    NULL);
  agui_test_server_push_response (f->server, response);
}

static GtkExpander *
find_reasoning_expander (Fixture *f)
{
  g_autoptr(GPtrArray) expanders = tandem_test_find_all (f->window, GTK_TYPE_EXPANDER);

  for (guint i = 0; i < expanders->len; i++)
    if (gtk_widget_has_css_class (expanders->pdata[i], "reasoning"))
      return expanders->pdata[i];

  return NULL;
}

static void
test_find_every_kind (Fixture       *f,
                      gconstpointer  data)
{
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  GtkExpander *reasoning;

  g_test_summary ("Find also searches the reasoning, a tool card's arguments and result, and an activity card, "
                  "opening a folded reasoning to show the match, and leaves the cards' own titles alone");

  f->word = "pumpernickel";
  push_every_kind (f);
  tandem_window_send (f->window, "Bake me some bread");
  agui_test_wait_until (!agui_agent_session_get_busy (f->session), "the answer ended");
  agui_test_wait_until ((reasoning = find_reasoning_expander (f)) != NULL, "the reasoning was shown");
  g_assert_false (gtk_expander_get_expanded (reasoning));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  tandem_conversation_search_set_query (search, "Pumpernickel");
  /* The reasoning, the arguments, the result, the activity */
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 4);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "1 of 4");

  /* The first is in the folded reasoning: it opens, the words highlighted */
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));
  g_assert_true (gtk_expander_get_expanded (reasoning));

  /* Then the card's arguments, its result, the activity card */
  for (guint i = 2; i <= 4; i++)
    {
      g_autofree char *status = g_strdup_printf ("%u of 4", i);
      guint before = tandem_conversation_search_get_current_block (search);

      tandem_conversation_search_next (search);
      g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, status);
      g_assert_cmpuint (tandem_conversation_search_get_current_block (search), >=, before);
      g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));
    }
  agui_test_wait_until (count_highlighted_labels (f) == 4, "the four matches were highlighted (%u are)",
                        count_highlighted_labels (f));

  /* The tool card's title and state, the reasoning's title: the app's words */
  tandem_conversation_search_set_query (search, "Result");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 0);
  tandem_conversation_search_set_query (search, "Complete");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 0);
  tandem_conversation_search_set_query (search, "Reasoning");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 0);
  agui_test_wait_until (count_highlighted_labels (f) == 0, "no match left highlighted (%u are)",
                        count_highlighted_labels (f));

  /* The tool's name and the activity's type are the agent's */
  tandem_conversation_search_set_query (search, "bake");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 3);
  tandem_conversation_search_set_query (search, "oven");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 1);
}

static void
test_count (void)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *text = "Grüße, GRÜSSE and grüße";

  g_test_summary ("Matches are counted case aside, never overlapping, with their byte offsets");

  g_assert_cmpuint (tandem_conversation_search_count (text, strlen (text), "grüße", offsets), ==, 2);
  g_assert_cmpuint (offsets->len, ==, 4);
  g_assert_cmpuint (g_array_index (offsets, guint, 0), ==, 0);
  g_assert_cmpuint (g_array_index (offsets, guint, 1), ==, strlen ("Grüße"));
  g_assert_cmpuint (tandem_conversation_search_count ("aaaa", 4, "aa", NULL), ==, 2);
  g_assert_cmpuint (tandem_conversation_search_count ("", 0, "a", NULL), ==, 0);
}

/* @n messages, "needle" in every one: 80 bytes each */
static JsonArray *
long_conversation (guint n)
{
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < n; i++)
    {
      JsonObject *message = json_object_new ();
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *content = g_strdup_printf ("Message %06u of a long conversation, with a needle in the hay.", i);

      json_object_set_string_member (message, "id", id);
      json_object_set_string_member (message, "role", i % 2 ? "assistant" : "user");
      json_object_set_string_member (message, "content", content);
      json_array_add_object_element (messages, message);
    }

  return messages;
}

static void
test_find_in_slices (Fixture       *f,
                     gconstpointer  data)
{
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  g_autoptr(JsonArray) messages = long_conversation (8000);
  g_autoptr(GError) error = NULL;
  guint seen = 0;

  g_test_summary ("Find counts a long conversation a slice at a time: the first match is stepped to at once, "
                  "the count grows to the whole, and a change counts again only what changed");

  g_assert_true (agui_transcript_load_messages (transcript, messages, &error));
  g_assert_no_error (error);
  f->word = "needle";

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  tandem_conversation_search_set_query (search, "Needle");
  g_assert_true (tandem_conversation_search_get_counting (search));
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), >, 0);
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), <, 8000);
  g_assert_cmpint (tandem_conversation_search_get_current (search), ==, 0);
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, 0);
  g_assert_true (g_str_has_suffix (tandem_conversation_search_get_status (search), "…"));
  g_assert_true (g_str_has_prefix (tandem_conversation_search_get_status (search), "1 of "));

  /* The count grows while the main loop turns, never shrinks */
  while (tandem_conversation_search_get_counting (search))
    {
      g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), >=, seen);
      seen = tandem_conversation_search_get_n_matches (search);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 8000);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "1 of 8000");
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));

  /* Stepping back from the first wraps to the last */
  tandem_conversation_search_previous (search);
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "8000 of 8000");
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, 7999);
  g_assert_true (agui_test_wait_for (current_match_shown, f, TIMEOUT_MS));

  /* A new turn, streamed: counted as it comes, the place kept */
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"A needle, \"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"and another needle.\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a1\"}",
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    NULL));
  tandem_window_send (f->window, "More needles?");
  agui_test_wait_until (!agui_agent_session_get_busy (f->session), "the answer ended");
  agui_test_wait_until (!tandem_conversation_search_get_counting (search) &&
                        tandem_conversation_search_get_n_matches (search) == 8003,
                        "the question and the answer were counted (%u matches)",
                        tandem_conversation_search_get_n_matches (search));
  g_assert_cmpstr (tandem_conversation_search_get_status (search), ==, "8000 of 8003");
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, 7999);

  /* Closing stops the count; a new query counts again from the start */
  tandem_conversation_search_set_query (search, "000123 of");
  agui_test_wait_until (!tandem_conversation_search_get_counting (search), "the new query was counted");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 1);
  g_assert_cmpuint (tandem_conversation_search_get_current_block (search), ==, 123);
  tandem_conversation_search_close (search);
  g_assert_false (tandem_conversation_search_get_counting (search));
}

/* An answer that grows after it was counted is counted again: text
 * appended to the last block changes the block, not the list */
static void
test_find_while_growing (Fixture       *f,
                         gconstpointer  data)
{
  TandemConversationSearch *search = TANDEM_CONVERSATION_SEARCH (tandem_test_child (f->window, "conversation_search"));
  AguiTranscript *transcript = agui_agent_session_get_transcript (f->session);
  g_autoptr(JsonArray) messages = long_conversation (4);
  g_autoptr(GError) error = NULL;
  AguiTestResponse *response;

  g_test_summary ("Find counts an answer again as it grows, however long after it was first counted "
                  "the rest of its text comes");

  g_assert_true (agui_transcript_load_messages (transcript, messages, &error));
  g_assert_no_error (error);
  f->word = "needle";
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  tandem_conversation_search_set_query (search, "Needle");
  agui_test_wait_until (!tandem_conversation_search_get_counting (search), "the conversation was counted");
  g_assert_cmpuint (tandem_conversation_search_get_n_matches (search), ==, 4);

  /* The rest of the answer well after the count (at most 200 ms after a
   * change) has looked at its start */
  response = agui_test_response_new_events (
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"A needle, \"}",
    NULL);
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"and another needle.\"}");
  agui_test_response_append_stall (response, 1000);
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\" A third needle\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a1\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  agui_test_server_push_response (f->server, response);
  tandem_window_send (f->window, "Any needles?");

  agui_test_wait_until (tandem_conversation_search_get_n_matches (search) >= 6,
                        "the answer's first words were counted (%u matches)",
                        tandem_conversation_search_get_n_matches (search));
  agui_test_wait_until (tandem_conversation_search_get_n_matches (search) >= 7,
                        "the words that came a second later were counted (%u matches)",
                        tandem_conversation_search_get_n_matches (search));
  agui_test_wait_until (!agui_agent_session_get_busy (f->session), "the answer ended");
  agui_test_wait_until (!tandem_conversation_search_get_counting (search) &&
                        tandem_conversation_search_get_n_matches (search) == 8,
                        "the whole answer was counted (%u matches)", tandem_conversation_search_get_n_matches (search));
}

static void
test_sidebar_no_results (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *stack = tandem_test_child (f->window, "threads_stack");
  GtkEditable *entry = GTK_EDITABLE (tandem_test_child (f->window, "search_entry"));
  AdwStatusPage *page;
  g_autofree char *expected = NULL;

  g_test_summary ("The conversation list's search says it found nothing for the query, not that there is nothing");

  /* With no conversation open, Ctrl+F goes to the list's search */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  g_assert_true (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (tandem_test_child (f->window, "search_bar"))));

  gtk_editable_set_text (entry, "quokka");
  tandem_window_refresh_threads (f->window);
  /* The store lists and searches on its worker */
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (GTK_STACK (stack), "empty"));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No Results");
  expected = g_strdup ("No conversation matches “quokka”.");
  g_assert_cmpstr (adw_status_page_get_description (page), ==, expected);

  gtk_editable_set_text (entry, "");
  tandem_window_refresh_threads (f->window);
  tandem_test_wait_for_threads (f->window);
  g_assert_cmpstr (adw_status_page_get_title (page), !=, "No Results");
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("search", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

  g_test_add_func ("/tandem/conversation-search/count", test_count);
  g_test_add ("/tandem/conversation-search/find", Fixture, NULL, fixture_set_up, test_find, fixture_tear_down);
  g_test_add ("/tandem/conversation-search/every-kind", Fixture, NULL, fixture_set_up, test_find_every_kind, fixture_tear_down);
  g_test_add ("/tandem/conversation-search/in-slices", Fixture, NULL, fixture_set_up, test_find_in_slices, fixture_tear_down);
  g_test_add ("/tandem/conversation-search/while-growing", Fixture, NULL, fixture_set_up, test_find_while_growing,
              fixture_tear_down);
  g_test_add ("/tandem/conversation-search/sidebar-no-results", Fixture, NULL, fixture_set_up,
              test_sidebar_no_results, fixture_tear_down);

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
