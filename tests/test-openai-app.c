/* test-openai-app.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "agui-test-openai.h"
#include "agui-test-server.h"
#include "tandem-agent-transport.h"
#include "tandem-application.h"
#include "tandem-preferences-window.h"
#include "tandem-tool-card.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* The app with a model on a loopback OpenAI-compatible server as its
 * agent: added in Preferences (the model chosen from the server's list),
 * then chatting through a desktop tool the person approves. */

#define TIMEOUT_MS 20000
#define CLIPBOARD_TEXT "Meeting at 3pm in room B"

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer *server;
  char           *base_url;
  TandemWindow   *window;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  url = g_strdup (agui_test_server_get_url (f->server));
  if (g_str_has_suffix (url, "/"))
    url[strlen (url) - 1] = '\0';
  f->base_url = g_strconcat (url, "/v1", NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) || TANDEM_IS_PREFERENCES_WINDOW (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  if (f->window != NULL)
    tandem_test_destroy_window (f->window);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
  g_free (f->base_url);
}

static gboolean
session_is_openai (gpointer data)
{
  Fixture *f = data;
  AguiAgentSession *session = tandem_window_get_session (f->window);

  AguiTransport *transport = session != NULL ? agui_agent_session_get_transport (session) : NULL;

  /* The conversation's transport follows the agent's settings; it runs on the model */
  return TANDEM_IS_AGENT_TRANSPORT (transport) &&
         AGUI_IS_OPENAI_AGENT (tandem_agent_transport_get_current (TANDEM_AGENT_TRANSPORT (transport)));
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  AdwMessageDialog *dialog = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_list_free (toplevels);

  return dialog;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_message_dialog () != NULL;
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

static gboolean
session_idle (gpointer data)
{
  Fixture *f = data;

  return !agui_agent_session_get_busy (tandem_window_get_session (f->window));
}

static void
send_text (Fixture    *f,
           const char *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
}

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

/* A window whose new conversation talks to the model on the loopback
 * server, as after choosing it in Preferences. */
static void
open_window_on_model (Fixture *f)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;

  agent = tandem_agent_new_openai ("local-model", "Local model", f->base_url, NULL, "qwen3:8b",
                                   "You are Tandem's helper.", 0.2, 30);
  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);
  tandem_agents_set_active_id (agents, "local-model");

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (agui_test_wait_for (session_is_openai, f, TIMEOUT_MS));
  tandem_test_wait_for_layout (f->window);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (f->window)), CLIPBOARD_TEXT);
}

static void
push_clipboard_call (Fixture    *f,
                     const char *answer)
{
  g_autofree char *text = g_strdup_printf (TEXT ("%s"), answer);

  agui_test_server_push_response (f->server, chunks (
    FIRST, TEXT ("Let me look at your clipboard."),
    CALL_START (0, "call_clip", "read_clipboard"), CALL_ARGS (0, "{}"),
    FINISH ("tool_calls"), USAGE, DONE, NULL));
  agui_test_server_push_response (f->server, chunks (FIRST, text, FINISH ("stop"), DONE, NULL));
}

static JsonObject *
request_message (Fixture *f,
                 guint    request,
                 guint    index)
{
  JsonArray *messages = json_object_get_array_member (agui_test_server_get_request_body (f->server, request), "messages");

  g_assert_cmpuint (index, <, json_array_get_length (messages));

  return json_array_get_object_element (messages, index);
}

static gboolean
tools_offered (Fixture    *f,
               const char *name)
{
  JsonArray *tools = json_object_get_array_member (agui_test_server_get_request_body (f->server, 0), "tools");

  for (guint i = 0; i < json_array_get_length (tools); i++)
    if (g_strcmp0 (json_object_get_string_member (json_object_get_object_member (json_array_get_object_element (tools, i), "function"), "name"), name) == 0)
      return TRUE;

  return FALSE;
}

static void
test_chat_through_approval (Fixture       *f,
                            gconstpointer  data)
{
  AdwMessageDialog *dialog;
  TandemToolCard *card;
  Count two = { f, 2 };
  JsonObject *tool;

  g_test_summary ("The app chats with a model through a desktop tool call the person approves; "
                  "the tool's result goes back to the model and its answer shows");

  open_window_on_model (f);
  push_clipboard_call (f, "Your clipboard says: " CLIPBOARD_TEXT);

  send_text (f, "What is on my clipboard?");
  g_assert_true (agui_test_wait_for (dialog_shown, NULL, TIMEOUT_MS));
  dialog = find_message_dialog ();
  card = find_card (f->window, "call_clip");
  g_assert_nonnull (card);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  /* The desktop's tools, offered as functions with their schemas */
  g_assert_true (tools_offered (f, "read_clipboard"));
  g_assert_true (tools_offered (f, "get_current_time"));
  g_assert_true (tools_offered (f, "open_link"));
  g_assert_cmpstr (json_object_get_string_member (request_message (f, 0, 0), "content"), ==, "You are Tandem's helper.");

  adw_message_dialog_response (dialog, "allow");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
  agui_test_wait_until (tandem_test_find_label (f->window, "Your clipboard says: " CLIPBOARD_TEXT) != NULL,
                        "the model's answer is shown");

  tool = request_message (f, 1, 3);
  g_assert_cmpstr (json_object_get_string_member (tool, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_clip");
  g_assert_nonnull (strstr (json_object_get_string_member (tool, "content"), CLIPBOARD_TEXT));

  card = find_card (f->window, "call_clip");
  g_assert_nonnull (card);
  g_assert_cmpstr (tandem_tool_card_get_status_text (card), ==, "Complete");
  g_assert_nonnull (tandem_test_find_label (f->window, "Your clipboard says: " CLIPBOARD_TEXT));
}

static void
test_denied (Fixture       *f,
             gconstpointer  data)
{
  AdwMessageDialog *dialog;
  Count two = { f, 2 };
  JsonObject *tool;

  g_test_summary ("Denied, the tool does not run: the model hears so, and the card says Declined");

  open_window_on_model (f);
  push_clipboard_call (f, "Understood, I will not look.");

  send_text (f, "What is on my clipboard?");
  g_assert_true (agui_test_wait_for (dialog_shown, NULL, TIMEOUT_MS));
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "deny");
  g_assert_true (agui_test_wait_for (server_has_requests, &two, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
  agui_test_wait_until (find_card (f->window, "call_clip") != NULL &&
                        g_strcmp0 (tandem_tool_card_get_status_text (find_card (f->window, "call_clip")), "Declined") == 0,
                        "the card says Declined");

  tool = request_message (f, 1, 3);
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_clip");
  g_assert_null (strstr (json_object_get_string_member (tool, "content"), CLIPBOARD_TEXT));
  g_assert_cmpstr (tandem_tool_card_get_status_text (find_card (f->window, "call_clip")), ==, "Declined");
}

static gboolean
editor_ready (gpointer data)
{
  TandemPreferencesWindow *window = data;
  GtkEditable *name = tandem_preferences_window_get_editor_field (window, "name");

  return tandem_preferences_window_get_editor_openai (window) != NULL &&
         name != NULL && gtk_widget_get_mapped (GTK_WIDGET (name));
}

static gboolean
not_refreshing (gpointer data)
{
  return !tandem_openai_editor_get_refreshing (data);
}

static void
test_preferences_add_model (Fixture       *f,
                            gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  TandemPreferencesWindow *window;
  TandemOpenaiEditor *editor;
  TandemAgent *added;

  g_test_summary ("Add Agent offers an OpenAI-compatible server: presets fill the URL, the model is "
                  "chosen from the server's list, and a server that is not running says so");

  window = TANDEM_PREFERENCES_WINDOW (tandem_preferences_window_new (NULL, agents));
  gtk_window_present (GTK_WINDOW (window));
  tandem_test_wait_for_layout (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "agents.add", NULL));
  g_assert_true (agui_test_wait_for (editor_ready, window, TIMEOUT_MS));

  editor = tandem_preferences_window_get_editor_openai (window);
  g_assert_nonnull (editor);
  g_assert_false (tandem_openai_editor_is_openai (editor));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "model"))));
  tandem_openai_editor_set_openai (editor, TRUE);
  agui_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "model"))),
                        "the model's field is shown");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "model"))));
  /* Only an AG-UI agent has an encoding. */
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_encoding (window))));

  /* llama.cpp's preset: its URL; nothing listens there in a test, or it
   * is someone's real server, so only the URL is checked. */
  tandem_openai_editor_select_preset (editor, 2);
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "url")), ==,
                   "http://localhost:8080/v1");
  g_assert_true (agui_test_wait_for (not_refreshing, editor, TIMEOUT_MS));

  agui_test_server_push_response (f->server, agui_test_response_new_error (
    200, "application/json",
    "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3:8b\",\"object\":\"model\"},{\"id\":\"llama3.2:latest\",\"object\":\"model\"}]}"));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "url"), f->base_url);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "name"), "Local Qwen");
  tandem_openai_editor_refresh_models (editor);
  g_assert_true (agui_test_wait_for (not_refreshing, editor, TIMEOUT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (tandem_openai_editor_get_models (editor)), ==, 2);
  /* The first is chosen while none is */
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "model")), ==, "llama3.2:latest");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "model"), "qwen3:8b");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "system-prompt"), "Answer briefly.");

  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "temperature"), "7");
  g_assert_false (tandem_preferences_window_save_editor (window));
  g_assert_nonnull (strstr (tandem_preferences_window_get_editor_error (window), "temperature"));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "temperature"), "0,7");
  g_assert_true (tandem_preferences_window_save_editor (window));

  added = NULL;
  for (guint i = 0; i < g_list_model_get_n_items (tandem_agents_get_model (agents)); i++)
    {
      g_autoptr(TandemAgent) agent = g_list_model_get_item (tandem_agents_get_model (agents), i);

      if (g_strcmp0 (tandem_agent_get_name (agent), "Local Qwen") == 0)
        added = agent;
    }
  g_assert_nonnull (added);
  g_assert_true (tandem_agent_is_openai (added));
  g_assert_cmpstr (tandem_agent_get_url (added), ==, f->base_url);
  g_assert_cmpstr (tandem_agent_get_model (added), ==, "qwen3:8b");
  g_assert_cmpstr (tandem_agent_get_system_prompt (added), ==, "Answer briefly.");
  g_assert_cmpfloat_with_epsilon (tandem_agent_get_temperature (added), 0.7, 1e-9);

  /* Reopened, the editor shows a model server with its settings; with
   * the server gone, refreshing says it is not running. */
  tandem_preferences_window_edit_agent (window, tandem_agent_get_id (added));
  g_assert_true (agui_test_wait_for (editor_ready, window, TIMEOUT_MS));
  editor = tandem_preferences_window_get_editor_openai (window);
  g_assert_true (tandem_openai_editor_is_openai (editor));
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "model")), ==, "qwen3:8b");
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "temperature")), ==, "0.7");
  agui_test_server_stop (f->server);
  tandem_openai_editor_refresh_models (editor);
  g_assert_true (agui_test_wait_for (not_refreshing, editor, TIMEOUT_MS));
  g_assert_nonnull (strstr (tandem_openai_editor_get_status (editor), "is the model server running?"));

  tandem_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  /* On the test's own session bus, with its notification daemon */
  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("openai", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.OpenAI", store_path);

#define ADD(path, fn) g_test_add ("/tandem/openai/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("chat-through-approval", test_chat_through_approval);
  ADD ("denied", test_denied);
  ADD ("preferences-add-model", test_preferences_add_model);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
