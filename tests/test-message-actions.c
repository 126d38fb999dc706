/* test-message-actions.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-block-list.h"
#include "tandem-block-row.h"
#include "tandem-message-row.h"
#include "tandem-markdown-view.h"
#include "tandem-message-actions.h"
#include "tandem-test-window.h"
#include "tandem-window.h"

/* A message's actions in a real window under Xvfb, against the loopback
 * AG-UI server: what the clipboard holds after Copy, what the agent is
 * sent after Regenerate or Edit and Resend, and what the version
 * switcher reads and shows. Buttons are pressed, not actions called. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}", \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}", \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define ANSWER(run, id, text) agui_test_response_new_events (RS (run), TEXT (id, text), RF (run), NULL)

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
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 800);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "agent", "test", NULL);
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

static void
send (Fixture    *f,
      const char *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  agui_test_wait_for_exchange (f->session);
}

/* The rows drawing the message that shows @text (its first block's), in
 * the order they are drawn. */
static GPtrArray *
rows_of (Fixture    *f,
         const char *text)
{
  g_autoptr(GPtrArray) rows = tandem_test_find_all (f->window, TANDEM_TYPE_BLOCK_ROW);
  GPtrArray *found = g_ptr_array_new ();
  AguiSpeakerTurn *message = NULL;

  for (guint i = 0; i < rows->len && message == NULL; i++)
    {
      TandemBlock *block = tandem_block_row_get_block (rows->pdata[i]);
      g_autofree char *markdown = block ? tandem_message_dup_markdown (tandem_block_get_message (block)) : NULL;

      if (markdown != NULL && g_str_has_prefix (markdown, text))
        message = tandem_block_get_message (block);
    }
  /* None yet (the callers wait for or assert rows): none found */
  if (message == NULL)
    return found;

  for (guint i = 0; i < rows->len; i++)
    {
      TandemBlock *block = tandem_block_row_get_block (rows->pdata[i]);

      if (block != NULL && tandem_block_get_message (block) == message && gtk_widget_get_mapped (rows->pdata[i]))
        g_ptr_array_add (found, rows->pdata[i]);
    }

  return found;
}

static guint
n_rows_of (Fixture    *f,
           const char *text)
{
  g_autoptr(GPtrArray) rows = rows_of (f, text);

  return rows->len;
}

/* The row drawing the tool card, or NULL */
static GtkWidget *
find_tool_call_row (Fixture *f)
{
  g_autoptr(GPtrArray) all = tandem_test_find_all (f->window, TANDEM_TYPE_BLOCK_ROW);

  for (guint i = 0; i < all->len; i++)
    if (tandem_block_row_get_block (all->pdata[i]) != NULL &&
        tandem_block_get_kind (tandem_block_row_get_block (all->pdata[i])) == TANDEM_BLOCK_TOOL_CALL)
      return all->pdata[i];

  return NULL;
}

/* Rows are laid out in the frame after a change or a scroll */
static GtkWidget *
first_row_of (Fixture    *f,
              const char *text)
{
  g_autoptr(GPtrArray) rows = NULL;

  agui_test_wait_until (n_rows_of (f, text) > 0, "a row of the message “%s” is shown", text);
  rows = rows_of (f, text);

  return rows->pdata[0];
}

/* The button of @row's action line that names @action, as a person
 * would press it: it must be there and sensitive. */
static void
press (GtkWidget  *row,
       const char *action)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (row, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), action) == 0)
      {
        g_assert_true (gtk_widget_get_visible (buttons->pdata[i]));
        g_assert_true (gtk_widget_is_sensitive (buttons->pdata[i]));
        g_signal_emit_by_name (buttons->pdata[i], "clicked");
        return;
      }

  g_assert_not_reached ();
}

static const char *
switcher_text (GtkWidget *row)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (row, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (labels->pdata[i], "numeric"))
      return gtk_widget_is_visible (labels->pdata[i]) ? gtk_label_get_text (labels->pdata[i]) : NULL;

  return NULL;
}

static gboolean
markdown_shows (TandemWindow *window,
                const char   *text)
{
  g_autoptr(GPtrArray) views = tandem_test_find_all (window, TANDEM_TYPE_MARKDOWN_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (gtk_widget_get_mapped (views->pdata[i]) &&
        g_strcmp0 (tandem_markdown_view_get_text (views->pdata[i]), text) == 0)
      return TRUE;

  return FALSE;
}

static void
on_clipboard_text_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
}

static char *
read_clipboard (Fixture *f)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (f->window)), NULL,
                                 on_clipboard_text_cb, &text);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &text, TIMEOUT_MS));

  return text;
}

#define PARAGRAPH "This paragraph is long enough that the view cuts the answer into several blocks, " \
                  "so that copying one block must still copy the whole message. "

static void
test_copy (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GString) source = g_string_new ("# Heading\\n\\n");
  g_autoptr(GString) expected = g_string_new ("# Heading\n\n");
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *event = NULL;
  GtkWidget *card_row = NULL;

  g_test_summary ("Copy puts the Markdown source of the whole message on the clipboard, from any of its blocks; "
                  "a tool card's menu copies its arguments");

  for (guint i = 0; i < 12; i++)
    {
      g_string_append_printf (source, "%u. **%s** %s%s\\n\\n", i, "Part", PARAGRAPH, PARAGRAPH);
      g_string_append_printf (expected, "%u. **%s** %s%s\n\n", i, "Part", PARAGRAPH, PARAGRAPH);
    }
  event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", source->str);
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"),
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}", event,
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\\\"tandem\\\"}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
    RF ("r1"), NULL));
  send (f, "Write at length");

  /* The answer is drawn by several rows; the last one's menu copies all. */
  gtk_widget_activate_action (tandem_test_child (f->window, "transcript_view"), "list.scroll-to-item", "u", 1);
  agui_test_wait_until (n_rows_of (f, "# Heading") > 1, "the answer's rows were laid out");
  rows = rows_of (f, "# Heading");
  g_assert_true (gtk_widget_activate_action (rows->pdata[rows->len - 1], "message.copy", NULL));
  copied = read_clipboard (f);
  g_assert_cmpstr (copied, ==, expected->str);
  g_clear_pointer (&copied, g_free);

  /* The same from the button on the message's action line */
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (f->window)), "something else");
  gtk_widget_activate_action (tandem_test_child (f->window, "transcript_view"), "list.scroll-to-item", "u", 0);
  agui_test_wait_until (n_rows_of (f, "# Heading") > 0, "the answer's first row was scrolled into view");
  press (first_row_of (f, "# Heading"), "message.copy");
  copied = read_clipboard (f);
  g_assert_cmpstr (copied, ==, expected->str);
  g_clear_pointer (&copied, g_free);

  /* The person's message */
  press (first_row_of (f, "Write at length"), "message.copy");
  copied = read_clipboard (f);
  g_assert_cmpstr (copied, ==, "Write at length");
  g_clear_pointer (&copied, g_free);

  /* A tool card: its arguments */
  gtk_widget_activate_action (tandem_test_child (f->window, "transcript_view"), "list.scroll-to-item", "u",
                              g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (tandem_test_child (f->window, "transcript_view"))))) - 1);
  agui_test_wait_until ((card_row = find_tool_call_row (f)) != NULL, "the tool card was scrolled into view");
  g_assert_true (gtk_widget_activate_action (card_row, "message.copy-arguments", NULL));
  copied = read_clipboard (f);
  g_assert_cmpstr (copied, ==, "{\"q\":\"tandem\"}");
}

static TandemMessageActions *
find_actions (GtkWidget *row)
{
  g_autoptr(GPtrArray) found = tandem_test_find_all (row, TANDEM_TYPE_MESSAGE_ACTIONS);

  return found->len > 0 ? found->pdata[0] : NULL;
}

static GtkWidget *
find_action_button (GtkWidget  *widget,
                    const char *action)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), action) == 0)
      return buttons->pdata[i];

  return NULL;
}

typedef struct
{
  Fixture   *f;
  GtkWidget *row;
} Hover;

/* The row is under the pointer and its actions are drawn over it */
static gboolean
actions_shown_on_hover (gpointer data)
{
  Hover *hover = data;
  TandemMessageActions *actions = find_actions (hover->row);

  return (gtk_widget_get_state_flags (hover->row) & GTK_STATE_FLAG_PRELIGHT) != 0 &&
         actions != NULL && gtk_widget_is_drawable (GTK_WIDGET (actions));
}

static gboolean
row_left (gpointer data)
{
  Hover *hover = data;

  return (gtk_widget_get_state_flags (hover->row) & GTK_STATE_FLAG_PRELIGHT) == 0;
}

/* The one menu shown anywhere under @widget, or NULL */
static GtkWidget *
shown_menu (GtkWidget *widget)
{
  g_autoptr(GPtrArray) popovers = tandem_test_find_all (widget, GTK_TYPE_POPOVER_MENU);
  GtkWidget *shown = NULL;

  for (guint i = 0; i < popovers->len; i++)
    if (gtk_widget_get_visible (popovers->pdata[i]))
      {
        g_assert_null (shown);
        shown = popovers->pdata[i];
      }

  return shown;
}

static gboolean
menu_open (gpointer data)
{
  g_autoptr(GPtrArray) popovers = tandem_test_find_all (data, GTK_TYPE_POPOVER_MENU);

  return popovers->len == 1 && gtk_widget_get_visible (popovers->pdata[0]);
}

/* Whether the transcript is scrolled to its end, as following leaves it */
static gboolean
follows_to_bottom (Fixture *f)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
}

/* A later block of the message, drawn inside the viewport */
static GtkWidget *
later_row_on_screen (Fixture    *f,
                     const char *text)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  g_autoptr(GPtrArray) rows = rows_of (f, text);

  for (guint i = 0; i < rows->len; i++)
    {
      TandemBlock *block = tandem_block_row_get_block (rows->pdata[i]);
      graphene_rect_t bounds;

      if (tandem_block_get_first (block) || tandem_block_get_kind (block) != TANDEM_BLOCK_MARKDOWN ||
          !gtk_widget_compute_bounds (rows->pdata[i], scroller, &bounds))
        continue;
      if (bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller))
        return rows->pdata[i];
    }

  return NULL;
}

/* No drawn text of @row (its labels, each line's box) is under
 * @widget, both in @scroller's coordinates */
static void
assert_covers_no_text (GtkWidget *row,
                       GtkWidget *widget,
                       GtkWidget *scroller)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (row, GTK_TYPE_LABEL);
  graphene_rect_t covered;
  guint checked = 0;

  g_assert_true (gtk_widget_compute_bounds (widget, scroller, &covered));
  for (guint i = 0; i < labels->len; i++)
    {
      graphene_rect_t text;

      if (!gtk_widget_is_drawable (labels->pdata[i]) || gtk_widget_is_ancestor (labels->pdata[i], widget) ||
          gtk_label_get_text (labels->pdata[i])[0] == '\0' ||
          !gtk_widget_compute_bounds (labels->pdata[i], scroller, &text))
        continue;
      checked++;
      if (graphene_rect_intersection (&covered, &text, NULL))
        g_error ("“%.40s…” at %g,%g %gx%g is under the widget at %g,%g %gx%g",
                 gtk_label_get_text (labels->pdata[i]), text.origin.x, text.origin.y, text.size.width,
                 text.size.height, covered.origin.x, covered.origin.y, covered.size.width, covered.size.height);
    }
  g_assert_cmpuint (checked, >, 0);
}

static void
test_every_block (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GString) source = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *event = NULL;
  g_autofree char *copied = NULL;
  g_autoptr(GPtrArray) popovers = NULL;
  g_autoptr(GRegex) clock = g_regex_new ("^[0-9]{2}:[0-9]{2}$", 0, 0, NULL);
  GtkWidget *scroller;
  TandemMessageActions *actions;
  GtkWidget *row, *other, *button, *time_label = NULL;
  graphene_rect_t row_bounds, actions_bounds, viewport;
  Hover hover;

  g_test_summary ("Hovering any block of a long answer, not only its first, shows the answer's actions and "
                  "time beside that block's text, covering none of it; its Copy copies the whole answer; "
                  "its menu is there by keyboard");

  for (guint i = 0; i < 12; i++)
    {
      g_string_append_printf (source, "Part %u: %s%s\\n\\n", i, PARAGRAPH, PARAGRAPH);
      g_string_append_printf (expected, "Part %u: %s%s\n\n", i, PARAGRAPH, PARAGRAPH);
    }
  g_string_insert (source, 0, "Long answer\\n\\n");
  g_string_insert (expected, 0, "Long answer\n\n");
  event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", source->str);
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"), "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}", event,
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}", RF ("r1"), NULL));
  send (f, "Write at length");

  /* The answer's first block, with its action line, is scrolled away */
  scroller = tandem_test_child (f->window, "transcript_scroller");
  agui_test_wait_until (follows_to_bottom (f) && (row = later_row_on_screen (f, "Long answer")) != NULL,
                        "the view followed the answer to its end, a later block of it on screen");
  g_assert_false (tandem_block_get_first (tandem_block_row_get_block (TANDEM_BLOCK_ROW (row))));
  g_assert_null (find_actions (row));

  hover.f = f;
  hover.row = row;
  tandem_test_move_pointer (row, gtk_widget_get_width (row) / 3.0, gtk_widget_get_height (row) / 2.0);
  g_assert_true (agui_test_wait_for (actions_shown_on_hover, &hover, TIMEOUT_MS));
  actions = find_actions (row);
  agui_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (actions)) && gtk_widget_get_width (GTK_WIDGET (actions)) > 0,
                        "the hovered block's actions were laid out");

  /* Beside the block's text, in its margin, inside the viewport, taking
   * no room: the block is as tall as before, and no line of it is
   * under the buttons */
  g_assert_true (gtk_widget_compute_bounds (row, scroller, &row_bounds));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (actions), scroller, &actions_bounds));
  graphene_rect_init (&viewport, 0, 0, gtk_widget_get_width (scroller), gtk_widget_get_height (scroller));
  g_assert_true (graphene_rect_contains_rect (&viewport, &actions_bounds));
  g_assert_cmpfloat (actions_bounds.origin.y, >=, row_bounds.origin.y);
  g_assert_cmpfloat (actions_bounds.origin.x + actions_bounds.size.width, <=,
                     row_bounds.origin.x + row_bounds.size.width + 0.5);
  assert_covers_no_text (row, GTK_WIDGET (actions), scroller);

  /* Copy and Regenerate, and when the answer came */
  g_assert_true (gtk_widget_is_drawable (find_action_button (GTK_WIDGET (actions), "message.copy")));
  g_assert_true (gtk_widget_is_drawable (find_action_button (GTK_WIDGET (actions), "message.regenerate")));
  button = find_action_button (GTK_WIDGET (actions), "message.edit");
  g_assert_true (button == NULL || !gtk_widget_is_drawable (button));
  /* The column has no room for the time: it says it when pointed at */
  {
    g_autoptr(GPtrArray) labels = tandem_test_find_all (actions, GTK_TYPE_LABEL);

    for (guint i = 0; i < labels->len; i++)
      if (g_regex_match (clock, gtk_label_get_text (labels->pdata[i]), 0, NULL))
        time_label = labels->pdata[i];
  }
  g_assert_nonnull (time_label);
  g_assert_false (gtk_widget_is_drawable (time_label));
  g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (actions)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (actions)), ==, gtk_widget_get_tooltip_text (time_label));

  /* Its Copy is the whole answer's */
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (f->window)), "something else");
  button = find_action_button (GTK_WIDGET (actions), "message.copy");
  g_signal_emit_by_name (button, "clicked");
  copied = read_clipboard (f);
  g_assert_cmpstr (copied, ==, expected->str);

  /* Elsewhere, the block is no longer hovered */
  other = tandem_test_child (f->window, "composer_view");
  tandem_test_move_pointer (other, 10, 10);
  g_assert_true (agui_test_wait_for (row_left, &hover, TIMEOUT_MS));

  /* By keyboard: the focus on the block, Shift+F10 opens the message's
   * menu, not its text's own (Cut, Copy, Paste). The text itself is no
   * stop for the keyboard: tabbing onto it would select all of it. */
  {
    g_autoptr(GPtrArray) labels = tandem_test_find_all (row, GTK_TYPE_LABEL);
    GtkWidget *text = NULL;

    for (guint i = 0; i < labels->len && text == NULL; i++)
      if (gtk_widget_is_drawable (labels->pdata[i]) &&
          strstr (gtk_label_get_text (labels->pdata[i]), "Part") != NULL)
        text = labels->pdata[i];
    g_assert_nonnull (text);
    g_assert_false (gtk_widget_get_focusable (text));
    tandem_test_move_pointer (text, 2, 2);
    g_assert_true (gtk_widget_grab_focus (row));
    agui_test_wait_until (actions_shown_on_hover (&hover) && gtk_widget_is_focus (row),
                          "the pointer reached the block's text and the block took the focus");
    gtk_label_select_region (GTK_LABEL (text), 0, 0);
    tandem_test_press_key (row, GDK_KEY_F10, GDK_SHIFT_MASK);
    g_assert_true (agui_test_wait_for (menu_open, row, TIMEOUT_MS));
  }
  popovers = tandem_test_find_all (row, GTK_TYPE_POPOVER_MENU);
  g_assert_cmpuint (popovers->len, ==, 1);
  g_assert_nonnull (tandem_test_find_label (popovers->pdata[0], "Copy Message"));
  g_assert_nonnull (tandem_test_find_label (popovers->pdata[0], "Regenerate"));
  gtk_popover_popdown (popovers->pdata[0]);
}

/* An answer of a dozen long paragraphs, many blocks, followed to its end */
static void
send_long_answer (Fixture *f)
{
  g_autoptr(GString) source = g_string_new ("Long answer\\n\\n");
  g_autofree char *event = NULL;

  for (guint i = 0; i < 12; i++)
    g_string_append_printf (source, "Part %u: %s%s\\n\\n", i, PARAGRAPH, PARAGRAPH);
  event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", source->str);
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r1"), "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}", event,
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}", RF ("r1"), NULL));
  send (f, "Write at length");
  agui_test_wait_until (follows_to_bottom (f), "the view followed the answer to its end");
}

/* Whether @row is where it was at the last call (in @last), a frame on */
static gboolean
row_settled (GtkWidget       *row,
             graphene_rect_t *last)
{
  graphene_rect_t now;
  gboolean same;

  tandem_test_wait_for_frame (row);
  if (!gtk_widget_compute_bounds (row, GTK_WIDGET (gtk_widget_get_root (row)), &now))
    return FALSE;
  same = graphene_rect_equal (&now, last);
  *last = now;

  return same;
}

/* Where @popover's visible box (past its shadow) starts, in @window's
 * coordinates */
static graphene_point_t
popover_origin (GtkPopover   *popover,
                TandemWindow *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (popover));
  GtkWidget *contents = gtk_widget_get_first_child (GTK_WIDGET (popover));
  double window_x, window_y, popover_x, popover_y;
  graphene_rect_t box;

  g_assert_true (gtk_widget_compute_bounds (contents, GTK_WIDGET (popover), &box));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &window_x, &window_y);
  gtk_native_get_surface_transform (GTK_NATIVE (popover), &popover_x, &popover_y);
  /* A popup's position is relative to its parent's surface, the window's */
  return GRAPHENE_POINT_INIT (gdk_popup_get_position_x (GDK_POPUP (surface)) + popover_x + box.origin.x - window_x,
                              gdk_popup_get_position_y (GDK_POPUP (surface)) + popover_y + box.origin.y - window_y);
}

static void
test_menu_at_pointer (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  GtkWidget *transcript = tandem_test_child (f->window, "transcript_view");
  GtkWidget *row = NULL;

  g_test_summary ("A secondary click in a message opens its menu at the pointer, in a long conversation "
                  "scrolled to its end and halfway up");

  send_long_answer (f);

  for (guint pass = 0; pass < 2; pass++)
    {
      GtkWidget *menu = NULL;
      graphene_rect_t settled = GRAPHENE_RECT_INIT (0, 0, 0, 0);
      graphene_point_t click, origin;
      GdkRectangle pointing;
      double x, y;

      if (pass == 1)
        {
          /* Halfway up, as a person scrolls: the rows there are others */
          gtk_adjustment_set_value (adjustment, (gtk_adjustment_get_upper (adjustment) -
                                                 gtk_adjustment_get_page_size (adjustment)) / 2);
          tandem_window_user_scrolled (f->window);
          tandem_test_wait_for_frame (f->window);
        }
      agui_test_wait_until (later_row_on_screen (f, "Long answer") != NULL, "a block of the answer is on screen");
      /* The rows it scrolled to are laid out and stay */
      tandem_test_wait_for_frame (f->window);
      row = later_row_on_screen (f, "Long answer");
      g_assert_nonnull (row);
      /* On a loaded machine the list view may still be measuring rows it
       * just made, moving the others: click once the row stays put */
      agui_test_wait_until (row_settled (row, &settled), "the row stopped moving");
      x = gtk_widget_get_width (row) / 2.0;
      y = gtk_widget_get_height (row) / 2.0;
      /* Where the pointer is, which is where the menu must open, even if
       * a row moved under it */
      g_assert_true (gtk_widget_compute_point (row, GTK_WIDGET (f->window), &GRAPHENE_POINT_INIT (x, y), &click));
      tandem_test_click (row, x, y, 3);
      agui_test_wait_until ((menu = shown_menu (transcript)) != NULL,
                            "a menu opened at the secondary click (pass %u)", pass);

      g_assert_true (gtk_popover_get_pointing_to (GTK_POPOVER (menu), &pointing));
      /* …and the menu is drawn there */
      agui_test_wait_until (gtk_widget_get_mapped (menu) && gtk_widget_get_width (menu) > 0,
                            "the menu is drawn");
      tandem_test_wait_for_frame (menu);
      origin = popover_origin (GTK_POPOVER (menu), f->window);
      g_test_message ("pass %u: clicked at %g,%g, the menu at %g,%g", pass, click.x, click.y, origin.x, origin.y);
      g_assert_cmpfloat (ABS (origin.x - click.x), <=, 2);
      g_assert_cmpfloat (ABS (origin.y - click.y), <=, 2);
      g_assert_nonnull (tandem_test_find_label (menu, "Copy Message"));
      gtk_popover_popdown (GTK_POPOVER (menu));
      agui_test_wait_until (!gtk_widget_get_mapped (menu), "the menu closed");
    }
}

static void
test_jump_beside_text (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  GtkWidget *jump = tandem_test_child (f->window, "jump_button");
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  graphene_rect_t bounds;

  g_test_summary ("Jump to Latest sits beside the transcript's text, over none of it, wherever it is scrolled");

  agui_test_server_push_response (f->server, ANSWER ("r0", "m0", "A short answer first"));
  send (f, "A question of the person's own, to have a bubble");
  send_long_answer (f);

  for (guint step = 1; step <= 4; step++)
    {
      g_autoptr(GPtrArray) rows = NULL;

      gtk_adjustment_set_value (adjustment, (gtk_adjustment_get_upper (adjustment) -
                                             gtk_adjustment_get_page_size (adjustment)) * (4 - step) / 4);
      tandem_window_user_scrolled (f->window);
      agui_test_wait_until (gtk_widget_get_mapped (jump), "Jump to Latest shows, scrolled up");
      tandem_test_wait_for_frame (f->window);
      g_assert_true (gtk_widget_compute_bounds (jump, scroller, &bounds));
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (scroller));

      rows = tandem_test_find_all (scroller, TANDEM_TYPE_BLOCK_ROW);
      for (guint i = 0; i < rows->len; i++)
        {
          graphene_rect_t row_bounds;

          if (gtk_widget_is_drawable (rows->pdata[i]) &&
              gtk_widget_compute_bounds (rows->pdata[i], scroller, &row_bounds) &&
              graphene_rect_intersection (&row_bounds, &bounds, NULL))
            assert_covers_no_text (rows->pdata[i], jump, scroller);
        }
    }
}

/* The mapped row that draws @block, or NULL */
static GtkWidget *
row_of_block (Fixture     *f,
              TandemBlock *block)
{
  g_autoptr(GPtrArray) rows = tandem_test_find_all (f->window, TANDEM_TYPE_BLOCK_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (tandem_block_row_get_block (rows->pdata[i]) == block && gtk_widget_get_mapped (rows->pdata[i]))
      return rows->pdata[i];

  return NULL;
}

/* The later block of the message whose top is lowest in the viewport */
static GtkWidget *
lowest_later_row (Fixture    *f,
                  const char *text)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  g_autoptr(GPtrArray) rows = rows_of (f, text);
  GtkWidget *lowest = NULL;
  double lowest_y = -1;

  for (guint i = 0; i < rows->len; i++)
    {
      TandemBlock *block = tandem_block_row_get_block (rows->pdata[i]);
      graphene_rect_t bounds;

      if (tandem_block_get_first (block) || tandem_block_get_kind (block) != TANDEM_BLOCK_MARKDOWN ||
          !gtk_widget_compute_bounds (rows->pdata[i], scroller, &bounds))
        continue;
      if (bounds.origin.y >= 0 && bounds.origin.y < gtk_widget_get_height (scroller) && bounds.origin.y > lowest_y)
        {
          lowest = rows->pdata[i];
          lowest_y = bounds.origin.y;
        }
    }

  return lowest;
}

/* The row's floating actions, laid out and drawn over the view, or NULL */
static GtkWidget *
shown_floating_actions (GtkWidget *row)
{
  TandemMessageActions *actions = find_actions (row);

  if (actions == NULL || !gtk_widget_has_css_class (GTK_WIDGET (actions), "floating") ||
      !gtk_widget_get_mapped (GTK_WIDGET (actions)) || gtk_widget_get_height (GTK_WIDGET (actions)) == 0 ||
      (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_PRELIGHT) == 0)
    return NULL;

  return GTK_WIDGET (actions);
}

static void
test_actions_above_jump (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  GtkWidget *jump = tandem_test_child (f->window, "jump_button");
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  graphene_rect_t settled = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  graphene_rect_t jump_bounds, row_bounds, actions_bounds, viewport;
  GtkWidget *row = NULL, *actions = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  TandemBlock *block;

  g_test_summary ("A later block hovered at the bottom of the view shows its actions in the margin above "
                  "Jump to Latest, which stays where it is: neither covers the other, nor any text");

  send_long_answer (f);

  /* Scrolled up a little, Jump to Latest shows at the bottom */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) - gtk_adjustment_get_page_size (adjustment) / 2);
  tandem_window_user_scrolled (f->window);
  agui_test_wait_until (gtk_widget_get_mapped (jump) && gtk_widget_get_height (jump) > 0,
                        "Jump to Latest shows, scrolled up");
  tandem_test_wait_for_frame (f->window);
  g_assert_true (gtk_widget_compute_bounds (jump, scroller, &jump_bounds));

  /* A later block of the answer in view; then scrolled until its top is
   * level with the middle of the button, where its actions, at its top,
   * would be over the button */
  agui_test_wait_until ((row = lowest_later_row (f, "Long answer")) != NULL, "a later block is on screen");
  agui_test_wait_until (row_settled (row, &settled), "the row stopped moving");
  row = lowest_later_row (f, "Long answer");
  block = tandem_block_row_get_block (TANDEM_BLOCK_ROW (row));
  g_assert_true (gtk_widget_compute_bounds (row, scroller, &row_bounds));
  g_test_message ("the row's top at %g, the value %g of %g (page %g), the button at %g",
                  row_bounds.origin.y, gtk_adjustment_get_value (adjustment), gtk_adjustment_get_upper (adjustment),
                  gtk_adjustment_get_page_size (adjustment), jump_bounds.origin.y);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + row_bounds.origin.y -
                                        (jump_bounds.origin.y + jump_bounds.size.height / 2));
  tandem_window_user_scrolled (f->window);
  /* The list view may give the block another row as it scrolls */
  settled = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  agui_test_wait_until ((row = row_of_block (f, block)) != NULL && row_settled (row, &settled),
                        "the block's row stopped moving, scrolled");
  g_assert_true (gtk_widget_compute_bounds (row, scroller, &row_bounds));
  g_test_message ("the row's top at %g, the button from %g to %g, the value %g", row_bounds.origin.y,
                  jump_bounds.origin.y, jump_bounds.origin.y + jump_bounds.size.height,
                  gtk_adjustment_get_value (adjustment));
  g_assert_cmpfloat (row_bounds.origin.y, >, jump_bounds.origin.y - 30);
  g_assert_cmpfloat (row_bounds.origin.y, <, jump_bounds.origin.y + jump_bounds.size.height);
  g_assert_true (gtk_widget_get_mapped (jump));

  /* Pointed at, just below its top, on its text */
  tandem_test_move_pointer (row, gtk_widget_get_width (row) / 3.0, 4);
  agui_test_wait_until ((actions = shown_floating_actions (row)) != NULL, "the hovered block shows its actions");
  tandem_test_wait_for_frame (f->window);

  g_assert_true (gtk_widget_compute_bounds (actions, scroller, &actions_bounds));
  g_assert_true (gtk_widget_compute_bounds (jump, scroller, &jump_bounds));
  g_test_message ("the actions at %g,%g %gx%g, the button at %g,%g %gx%g",
                  actions_bounds.origin.x, actions_bounds.origin.y, actions_bounds.size.width, actions_bounds.size.height,
                  jump_bounds.origin.x, jump_bounds.origin.y, jump_bounds.size.width, jump_bounds.size.height);
  g_assert_false (graphene_rect_intersection (&actions_bounds, &jump_bounds, NULL));
  /* Both drawn whole in the view, the button where it always is */
  graphene_rect_init (&viewport, 0, 0, gtk_widget_get_width (scroller), gtk_widget_get_height (scroller));
  g_assert_true (graphene_rect_contains_rect (&viewport, &actions_bounds));
  g_assert_true (graphene_rect_contains_rect (&viewport, &jump_bounds));
  g_assert_true (gtk_widget_get_mapped (jump));
  /* In the margin, over no text of any block */
  rows = tandem_test_find_all (scroller, TANDEM_TYPE_BLOCK_ROW);
  for (guint i = 0; i < rows->len; i++)
    {
      graphene_rect_t other;

      if (gtk_widget_is_drawable (rows->pdata[i]) &&
          gtk_widget_compute_bounds (rows->pdata[i], scroller, &other) &&
          graphene_rect_intersection (&other, &actions_bounds, NULL))
        assert_covers_no_text (rows->pdata[i], actions, scroller);
    }
  /* …and its Copy is there to press */
  g_assert_true (gtk_widget_is_drawable (find_action_button (actions, "message.copy")));

  /* Back at the end, the button gone, the actions are at the block's
   * top again; shown by the keyboard's focus this time */
  tandem_test_move_pointer (tandem_test_child (f->window, "composer_view"), 10, 10);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.jump-to-latest", NULL));
  agui_test_wait_until (!gtk_widget_get_mapped (jump), "Jump to Latest went at the end");
  agui_test_wait_until ((row = lowest_later_row (f, "Long answer")) != NULL, "a later block is on screen");
  settled = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  agui_test_wait_until (row_settled (row, &settled), "the row stopped moving");
  g_assert_true (gtk_widget_grab_focus (row));
  agui_test_wait_until ((actions = GTK_WIDGET (find_actions (row))) != NULL && gtk_widget_get_mapped (actions) &&
                        gtk_widget_get_height (actions) > 0, "the focused block shows its actions");
  tandem_test_wait_for_frame (f->window);
  g_assert_true (gtk_widget_compute_bounds (actions, row, &actions_bounds));
  g_assert_cmpfloat (actions_bounds.origin.y, ==, 0);
}

static void
test_menu (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GPtrArray) popovers = NULL;
  GtkWidget *row;
  GtkWidget *button = NULL;
  g_autoptr(GPtrArray) buttons = NULL;

  g_test_summary ("Shift+F10 on a message opens its context menu with the actions it offers");

  agui_test_server_push_response (f->server, ANSWER ("r1", "m1", "An answer"));
  send (f, "A question");

  row = first_row_of (f, "An answer");
  /* Keyboard focus on the message's action line, then Shift+F10 */
  buttons = tandem_test_find_all (row, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), "message.copy") == 0)
      button = buttons->pdata[i];
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_focusable (button));
  g_assert_true (gtk_widget_grab_focus (button));
  g_assert_true (gtk_widget_activate_action (row, "message.menu", NULL));
  agui_test_wait_until (menu_open (row), "the message's menu opened");

  popovers = tandem_test_find_all (row, GTK_TYPE_POPOVER_MENU);
  g_assert_cmpuint (popovers->len, ==, 1);
  g_assert_true (gtk_widget_get_visible (popovers->pdata[0]));
  g_assert_nonnull (tandem_test_find_label (popovers->pdata[0], "Regenerate"));
  g_assert_nonnull (tandem_test_find_label (popovers->pdata[0], "Copy Message"));
  g_assert_null (tandem_test_find_label (popovers->pdata[0], "Edit and Resend"));
  gtk_popover_popdown (popovers->pdata[0]);
}

static void
test_regenerate (Fixture       *f,
                 gconstpointer  data)
{
  JsonObject *body;
  JsonArray *messages;

  g_test_summary ("Regenerate asks again with the history up to the question and parentRunId; "
                  "the switcher reads 2 / 2 and switches what is shown");

  agui_test_server_push_response (f->server, ANSWER ("r1", "m1", "First answer"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "m2", "Second answer"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "m3", "Second answer, again"));
  send (f, "One");
  send (f, "Two");
  g_assert_null (switcher_text (first_row_of (f, "Second answer")));

  press (first_row_of (f, "Second answer"), "message.regenerate");
  agui_test_wait_for_exchange (f->session);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 3);
  body = agui_test_server_get_request_body (f->server, 2);
  messages = json_object_get_array_member (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "Two");
  g_assert_cmpstr (json_object_get_string_member_with_default (body, "parentRunId", NULL), ==, "r1");

  agui_test_wait_until (markdown_shows (f->window, "Second answer, again") && !markdown_shows (f->window, "Second answer"),
                        "the regenerated answer took the place of the first");
  g_assert_cmpstr (switcher_text (first_row_of (f, "Second answer, again")), ==, "2 / 2");
  {
    g_autoptr(GRegex) clock = g_regex_new ("^[0-2][0-9]:[0-5][0-9]$", 0, 0, NULL);
    g_autoptr(GPtrArray) labels = tandem_test_find_all (first_row_of (f, "Second answer, again"), GTK_TYPE_LABEL);
    gboolean shown = FALSE;

    /* The time it arrived, on the action line */
    for (guint i = 0; i < labels->len; i++)
      shown |= gtk_widget_is_visible (labels->pdata[i]) &&
               g_regex_match (clock, gtk_label_get_text (labels->pdata[i]), 0, NULL);
    g_assert_true (shown);
  }

  press (first_row_of (f, "Second answer, again"), "message.previous-branch");
  agui_test_wait_until (markdown_shows (f->window, "Second answer") && !markdown_shows (f->window, "Second answer, again"),
                        "the previous branch's answer took the place of the regenerated one");
  g_assert_cmpstr (switcher_text (first_row_of (f, "Second answer")), ==, "1 / 2");

  press (first_row_of (f, "Second answer"), "message.next-branch");
  agui_test_wait_until (markdown_shows (f->window, "Second answer, again"), "the next branch's answer was shown");
  g_assert_cmpstr (switcher_text (first_row_of (f, "Second answer, again")), ==, "2 / 2");
}

static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GPtrArray) editors = NULL;
  GtkWidget *row;
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  JsonArray *messages;

  g_test_summary ("Edit and Resend puts the text in an editor; sending it makes a branch the switcher can leave");

  agui_test_server_push_response (f->server, ANSWER ("r1", "m1", "About cats"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "m2", "About dogs"));
  send (f, "Tell me about cats");

  row = first_row_of (f, "Tell me about cats");
  press (row, "message.edit");
  editors = tandem_test_find_all (row, GTK_TYPE_TEXT_VIEW);
  g_assert_cmpuint (editors->len, ==, 1);
  g_assert_true (gtk_widget_is_visible (editors->pdata[0]));
  buffer = gtk_text_view_get_buffer (editors->pdata[0]);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (text, ==, "Tell me about cats");
  /* Its one line shown whole, not a sliver */
  agui_test_wait_until (gtk_widget_get_height (gtk_widget_get_parent (editors->pdata[0])) >= 30,
                        "the editor showed its line (%d pixels)",
                        gtk_widget_get_height (gtk_widget_get_parent (editors->pdata[0])));

  gtk_text_buffer_set_text (buffer, "Tell me about dogs", -1);
  press (row, "editor.send");
  agui_test_wait_for_exchange (f->session);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==,
                   "Tell me about dogs");
  g_assert_false (json_object_has_member (agui_test_server_get_request_body (f->server, 1), "parentRunId"));

  agui_test_wait_until (markdown_shows (f->window, "About dogs"), "the edited question's answer was shown");
  g_assert_cmpstr (switcher_text (first_row_of (f, "Tell me about dogs")), ==, "2 / 2");
  g_assert_null (tandem_test_find_label (f->window, "Tell me about cats"));

  press (first_row_of (f, "Tell me about dogs"), "message.previous-branch");
  agui_test_wait_until (tandem_test_find_label (f->window, "Tell me about cats") != NULL,
                        "the previous branch's question was shown");
  agui_test_wait_until (markdown_shows (f->window, "About cats") && !markdown_shows (f->window, "About dogs"),
                        "the first branch's answer took the place of the edited one's");
  g_assert_cmpstr (switcher_text (first_row_of (f, "Tell me about cats")), ==, "1 / 2");
}

/* Whether @widget is laid out and drawn whole inside the transcript's
 * viewport */
static gboolean
shows_whole (Fixture   *f,
             GtkWidget *widget)
{
  GtkWidget *scroller = tandem_test_child (f->window, "transcript_scroller");
  graphene_rect_t bounds;

  return gtk_widget_is_drawable (widget) &&
         gtk_widget_compute_bounds (widget, scroller, &bounds) &&
         bounds.size.height > 0 &&
         bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

/* Turns the wheel down over the middle of @widget, through the X server
 * (see tandem_test_wheel()), a notch a frame until @moved moves */
static void
wheel_down_until_moved (Fixture       *f,
                        GtkWidget     *widget,
                        GtkAdjustment *moved,
                        const char    *what)
{
  double before = gtk_adjustment_get_value (moved);
  gint64 deadline = g_get_monotonic_time () + TIMEOUT_MS * 1000;

  while (gtk_adjustment_get_value (moved) < before + 1)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("The wheel over the editor did not scroll %s", what);
      tandem_test_wheel (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, 5, 0);
      tandem_test_wait_for_frame (f->window);
    }
}

static void
test_edit_wheel (Fixture       *f,
                 gconstpointer  data)
{
  GtkAdjustment *transcript = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tandem_test_child (f->window, "transcript_scroller")));
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GPtrArray) scrollers = NULL;
  GtkTextBuffer *buffer;
  GtkTextIter start;
  GtkAdjustment *editor;
  GtkWidget *scroller;
  double transcript_at;

  g_test_summary ("The wheel over Edit and Resend's editor scrolls its text while the text can move, "
                  "and the conversation when it fits or is at its end");

  send_long_answer (f);
  /* Back at the question, as the person's own scroll */
  gtk_adjustment_set_value (transcript, 0);
  tandem_window_user_scrolled (f->window);
  press (first_row_of (f, "Write at length"), "message.edit");
  scrollers = tandem_test_find_all (first_row_of (f, "Write at length"), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_cmpuint (scrollers->len, ==, 1);
  scroller = scrollers->pdata[0];
  editor = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))));

  /* Taller than the editor: the wheel scrolls the text, not the
   * conversation, which the person scrolled back to its start */
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (lines, "Line %u of a long question\n", i);
  gtk_text_buffer_set_text (buffer, lines->str, -1);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  /* It shows as much of the text as it can, not a few lines */
  agui_test_wait_until (gtk_widget_get_height (scroller) >= gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (scroller)),
                        "the editor grew to its largest height for a long text (%d pixels)",
                        gtk_widget_get_height (scroller));
  gtk_adjustment_set_value (transcript, 0);
  tandem_window_user_scrolled (f->window);
  agui_test_wait_until (gtk_adjustment_get_value (transcript) == 0 && shows_whole (f, scroller) &&
                        gtk_widget_get_height (scroller) >= 200 &&
                        gtk_adjustment_get_upper (editor) > gtk_adjustment_get_page_size (editor) + 100 &&
                        gtk_adjustment_get_value (editor) == 0,
                        "the editor, its text taller than it, was shown whole at the top");
  transcript_at = gtk_adjustment_get_value (transcript);
  wheel_down_until_moved (f, scroller, editor, "its text");
  g_assert_cmpfloat (gtk_adjustment_get_value (transcript), ==, transcript_at);

  /* At the text's end, the wheel goes on to the conversation */
  gtk_adjustment_set_value (editor, gtk_adjustment_get_upper (editor) - gtk_adjustment_get_page_size (editor));
  wheel_down_until_moved (f, scroller, transcript, "the conversation past the text's end");
  g_assert_cmpfloat (gtk_adjustment_get_value (editor), ==,
                     gtk_adjustment_get_upper (editor) - gtk_adjustment_get_page_size (editor));

  /* Opened again on the message's own line: it fits, and the wheel
   * scrolls the conversation */
  press (first_row_of (f, "Write at length"), "editor.cancel");
  gtk_adjustment_set_value (transcript, 0);
  tandem_window_user_scrolled (f->window);
  press (first_row_of (f, "Write at length"), "message.edit");
  agui_test_wait_until (gtk_adjustment_get_value (transcript) == 0 &&
                        gtk_widget_get_height (scroller) < 100 &&
                        gtk_adjustment_get_upper (editor) <= gtk_adjustment_get_page_size (editor) &&
                        shows_whole (f, scroller),
                        "the editor opened small on its one line (%d pixels)", gtk_widget_get_height (scroller));
  wheel_down_until_moved (f, scroller, transcript, "the conversation");
}

/* The one widget of @type in @row's tree, or NULL; fails if more */
static gpointer
find_only (GtkWidget *row,
           GType      type)
{
  g_autoptr(GPtrArray) found = tandem_test_find_all (row, type);

  g_assert_cmpuint (found->len, <=, 1);
  return found->len > 0 ? found->pdata[0] : NULL;
}

static TandemBlock *
block_at (TandemBlockList *blocks,
          guint            position)
{
  g_autoptr(TandemBlock) block = g_list_model_get_item (G_LIST_MODEL (blocks), position);

  /* The list keeps it */
  return block;
}

static void
test_row_reuse (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(TandemBlockList) blocks = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *row = g_object_ref_sink (tandem_block_row_new ());
  TandemMarkdownView *view;
  GtkWidget *actions;
  GtkWidget *message_row;

  g_test_summary ("A row given another block of the same kind draws it in the same widgets, "
                  "and one of another kind in its own; a new row takes up what another let go of");

  g_assert_true (json_parser_load_from_data (parser,
                                             "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Question one\"},"
                                             "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Answer **one**\"},"
                                             "{\"id\":\"u2\",\"role\":\"user\",\"content\":\"Question two\"},"
                                             "{\"id\":\"a2\",\"role\":\"assistant\",\"content\":\"Answer two\"}]",
                                             -1, &error));
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (json_parser_get_root (parser)), &error));
  g_assert_no_error (error);
  blocks = tandem_block_list_new (transcript);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (blocks)), ==, 4);

  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), block_at (blocks, 1));
  view = find_only (row, TANDEM_TYPE_MARKDOWN_VIEW);
  actions = find_only (row, TANDEM_TYPE_MESSAGE_ACTIONS);
  g_assert_nonnull (view);
  g_assert_nonnull (actions);
  g_assert_cmpstr (tandem_markdown_view_get_text (view), ==, "Answer **one**");
  g_assert_true (gtk_widget_has_css_class (row, "agent"));

  /* Another answer: the same view and action line, saying the new one */
  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), block_at (blocks, 3));
  g_assert_true (find_only (row, TANDEM_TYPE_MARKDOWN_VIEW) == view);
  g_assert_true (find_only (row, TANDEM_TYPE_MESSAGE_ACTIONS) == actions);
  g_assert_cmpstr (tandem_markdown_view_get_text (view), ==, "Answer two");
  g_assert_null (tandem_test_find_label (row, "Answer one"));

  /* The person's message is drawn otherwise; its line is the same one */
  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), block_at (blocks, 0));
  g_assert_null (find_only (row, TANDEM_TYPE_MARKDOWN_VIEW));
  message_row = find_only (row, TANDEM_TYPE_MESSAGE_ROW);
  g_assert_nonnull (message_row);
  g_assert_true (find_only (row, TANDEM_TYPE_MESSAGE_ACTIONS) == actions);
  g_assert_nonnull (tandem_test_find_label (row, "Question one"));
  g_assert_true (gtk_widget_has_css_class (row, "user"));
  g_assert_false (gtk_widget_has_css_class (row, "agent"));
  g_assert_false (gtk_widget_has_css_class (row, "markdown"));

  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), block_at (blocks, 2));
  g_assert_true (find_only (row, TANDEM_TYPE_MESSAGE_ROW) == message_row);
  g_assert_nonnull (tandem_test_find_label (row, "Question two"));
  g_assert_null (tandem_test_find_label (row, "Question one"));

  /* Back to an answer: a view of its own again */
  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), block_at (blocks, 1));
  view = find_only (row, TANDEM_TYPE_MARKDOWN_VIEW);
  g_assert_nonnull (view);
  g_assert_cmpstr (tandem_markdown_view_get_text (view), ==, "Answer **one**");
  g_assert_null (find_only (row, TANDEM_TYPE_MESSAGE_ROW));

  tandem_block_row_set_block (TANDEM_BLOCK_ROW (row), NULL);
  g_assert_null (gtk_widget_get_first_child (row));
  g_assert_false (gtk_widget_has_css_class (row, "agent"));

  /* What a row let go of, the next new row takes up (the list view drops
   * rows at one end while it makes others at the other), saying its own
   * block: the action line, an answer's view, a person's message */
  {
    GtkWidget *answer = g_object_ref_sink (tandem_block_row_new ());
    GtkWidget *question = g_object_ref_sink (tandem_block_row_new ());

    tandem_block_row_set_block (TANDEM_BLOCK_ROW (answer), block_at (blocks, 3));
    g_assert_true (find_only (answer, TANDEM_TYPE_MESSAGE_ACTIONS) == actions);
    g_assert_true (find_only (answer, TANDEM_TYPE_MARKDOWN_VIEW) == view);
    g_assert_cmpstr (tandem_markdown_view_get_text (view), ==, "Answer two");
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));

    tandem_block_row_set_block (TANDEM_BLOCK_ROW (question), block_at (blocks, 2));
    g_assert_true (find_only (question, TANDEM_TYPE_MESSAGE_ROW) == message_row);
    g_assert_nonnull (tandem_test_find_label (question, "Question two"));
    g_assert_null (tandem_test_find_label (question, "Question one"));
    /* The line there is a new one: the only one let go of is in use */
    g_assert_nonnull (find_only (question, TANDEM_TYPE_MESSAGE_ACTIONS));
    g_assert_true (find_only (question, TANDEM_TYPE_MESSAGE_ACTIONS) != actions);

    g_object_unref (answer);
    g_object_unref (question);
  }

  g_object_unref (row);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("message-actions", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.TestActions", store_path);
  /* Where the actions go depends on the margins it gives the rows */
  tandem_test_load_style ();

#define ADD(path, fn) g_test_add ("/tandem/message-actions/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("copy", test_copy);
  ADD ("menu", test_menu);
  ADD ("every-block", test_every_block);
  ADD ("menu-at-pointer", test_menu_at_pointer);
  ADD ("jump-beside-text", test_jump_beside_text);
  ADD ("actions-above-jump", test_actions_above_jump);
  ADD ("regenerate", test_regenerate);
  ADD ("edit", test_edit);
  ADD ("edit-wheel", test_edit_wheel);
  g_test_add_func ("/tandem/message-actions/row-reuse", test_row_reuse);

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_dir);
  g_free (store_path);

  return result;
}
