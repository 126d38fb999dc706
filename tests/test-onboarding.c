/* test-onboarding.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "agui-session-store-private.h"
#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-preferences-window.h"
#include "tandem-welcome-prompts.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* What a newcomer meets: the composer's hint naming the agent, the
 * welcome page's example prompts, "Add an Agent…" going straight to the
 * form, Test Connection against a real server and a closed port, and a
 * relaunch reopening the conversation that was open. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}", \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}", \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer *server;
  TandemWindow   *window;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);

  tandem_agents_set_active_id (tandem_application_get_agents (app), TANDEM_AGENTS_DEMO_ID);
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

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_PREFERENCES_WINDOW (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  if (f->window != NULL)
    tandem_test_destroy_window (f->window);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

typedef struct
{
  TandemWindow *window;
  const char   *agent;
} AgentWait;

static gboolean
session_has_agent (gpointer data)
{
  AgentWait *wait = data;
  AguiAgentSession *session = tandem_window_get_session (wait->window);
  g_autofree char *agent = NULL;

  if (session == NULL)
    return FALSE;
  g_object_get (session, "agent", &agent, NULL);

  return g_strcmp0 (agent, wait->agent) == 0;
}

static void
test_placeholder (Fixture       *f,
                  gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkLabel *placeholder = GTK_LABEL (tandem_test_child (f->window, "composer_placeholder"));
  GtkTextView *composer = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  AgentWait wait = { f->window, "loopback" };
  graphene_rect_t hint, view;

  g_test_summary ("The empty composer names the conversation's agent and hides the hint once typed in");

  g_assert_cmpstr (gtk_label_get_text (placeholder), ==, "Message the demo agent…");
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (placeholder)));
  /* Drawn inside the composer, where the text goes */
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (placeholder), GTK_WIDGET (composer), &hint));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (composer), GTK_WIDGET (composer), &view));
  g_assert_true (graphene_rect_contains_rect (&view, &hint));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (composer), "Hello", -1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (placeholder)));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (composer), "", -1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (placeholder)));

  agent = tandem_agent_new ("loopback", "Loopback Agent", agui_test_server_get_url (f->server), NULL);
  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);
  tandem_agents_set_active_id (agents, "loopback");
  tandem_window_new_chat (f->window);
  g_assert_true (agui_test_wait_for (session_has_agent, &wait, TIMEOUT_MS));
  g_assert_cmpstr (gtk_label_get_text (placeholder), ==, "Message Loopback Agent…");

  tandem_agents_set_active_id (agents, TANDEM_AGENTS_DEMO_ID);
  g_assert_true (tandem_agents_remove (agents, "loopback", &error));

  /* An agent given with --agent is named by its address */
  {
    g_autofree char *expected = g_strdup_printf ("Message %s…", agui_test_server_get_url (f->server));
    AgentWait url_wait = { f->window, agui_test_server_get_url (f->server) };

    tandem_application_set_agent_url (app, agui_test_server_get_url (f->server));
    tandem_window_new_chat (f->window);
    g_assert_true (agui_test_wait_for (session_has_agent, &url_wait, TIMEOUT_MS));
    g_assert_cmpstr (gtk_label_get_text (placeholder), ==, expected);
    tandem_application_set_agent_url (app, NULL);
  }
}

static gboolean
transcript_has_user_text (gpointer data)
{
  Fixture *f = data;
  AguiAgentSession *session = tandem_window_get_session (f->window);
  GListModel *transcript = G_LIST_MODEL (agui_agent_session_get_transcript (session));
  g_autoptr(AguiSpeakerTurn) first = NULL;
  g_autofree char *text = NULL;

  if (g_list_model_get_n_items (transcript) == 0)
    return FALSE;
  first = g_list_model_get_item (transcript, 0);
  text = agui_speaker_turn_dup_text (first);

  return agui_speaker_turn_get_role (first) == AGUI_ROLE_USER && g_strcmp0 (text, "Please archive my old notes") == 0;
}

static void
test_prompts (Fixture       *f,
              gconstpointer  data)
{
  TandemWelcomePrompts *prompts = TANDEM_WELCOME_PROMPTS (tandem_test_child (f->window, "welcome_prompts"));
  g_autoptr(GPtrArray) buttons = NULL;
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  GtkButton *approval = NULL;

  g_test_summary ("The welcome page offers the demo agent's repertoire; a prompt is sent as typed");

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (f->window, "content_stack"))), ==, "welcome");
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (prompts)));
  g_assert_cmpuint (tandem_welcome_prompts_get_n_prompts (prompts), ==, 6);
  /* A title for each thing the demo shows */
  g_assert_nonnull (tandem_test_find_label (prompts, "A Markdown answer"));
  g_assert_nonnull (tandem_test_find_label (prompts, "A tool call"));
  g_assert_nonnull (tandem_test_find_label (prompts, "An approval"));
  g_assert_nonnull (tandem_test_find_label (prompts, "A long answer"));
  g_assert_nonnull (tandem_test_find_label (prompts, "An error"));

  buttons = tandem_test_find_all (prompts, GTK_TYPE_BUTTON);
  g_assert_cmpuint (buttons->len, ==, 6);
  for (guint i = 0; i < buttons->len; i++)
    if (tandem_test_find_label (buttons->pdata[i], "An approval") != NULL)
      approval = buttons->pdata[i];
  g_assert_nonnull (approval);
  g_signal_emit_by_name (approval, "clicked");
  g_assert_true (agui_test_wait_for (transcript_has_user_text, f, TIMEOUT_MS));
  agui_agent_session_cancel (tandem_window_get_session (f->window));

  /* Tandem cannot know what another agent does: it shows nothing */
  transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (transport), "thread-id", NULL, "tools", NULL,
                          "store", NULL, "agent", "other", NULL);
  tandem_window_set_session (f->window, session);
  g_assert_cmpuint (tandem_welcome_prompts_get_n_prompts (prompts), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (prompts)));
}

/* Where @button is, in @prompts' coordinates */
static graphene_rect_t
button_bounds (TandemWelcomePrompts *prompts,
               GtkWidget            *button)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (button, GTK_WIDGET (prompts), &bounds));

  return bounds;
}

static int
minimum_width (TandemWindow *window)
{
  int minimum = 0;

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);

  return minimum;
}

typedef struct
{
  TandemWindow         *window;
  TandemWelcomePrompts *prompts;
  GPtrArray            *buttons;
  gboolean              narrow;
} PromptsWait;

/* The window has been laid out wide (900 asked), or narrow (360) */
static gboolean
laid_out_at (gpointer data)
{
  PromptsWait *wait = data;
  graphene_rect_t bounds;

  int width = gtk_widget_get_width (GTK_WIDGET (wait->window));

  return (wait->narrow ? width <= 360 : width >= 800) &&
         gtk_widget_compute_bounds (wait->buttons->pdata[0], GTK_WIDGET (wait->prompts), &bounds) &&
         bounds.size.width > 0;
}

static void
test_prompts_narrow (Fixture       *f,
                     gconstpointer  data)
{
  TandemWelcomePrompts *prompts = TANDEM_WELCOME_PROMPTS (tandem_test_child (f->window, "welcome_prompts"));
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (prompts, GTK_TYPE_BUTTON);
  PromptsWait wait = { f->window, prompts, buttons, FALSE };
  graphene_rect_t first, second, third;
  int minimum;

  g_test_summary ("The example prompts stand three to a row in a wide window and stack in a narrow one, "
                  "which they never hold wider than a phone's width");

  g_assert_cmpuint (buttons->len, ==, 6);
  g_assert_true (agui_test_wait_for (laid_out_at, &wait, TIMEOUT_MS));
  first = button_bounds (prompts, buttons->pdata[0]);
  second = button_bounds (prompts, buttons->pdata[1]);
  third = button_bounds (prompts, buttons->pdata[2]);
  g_assert_cmpfloat (first.origin.y, ==, third.origin.y);
  g_assert_cmpfloat (first.origin.x, <, second.origin.x);
  g_assert_cmpfloat (second.origin.x, <, third.origin.x);

  /* With GNOME's window buttons: a close button alone */
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  agui_test_wait_until ((minimum = minimum_width (f->window)) <= 360,
                        "the window could narrow to 360 with a close button alone (it needs %d)", minimum);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  wait.narrow = TRUE;
  g_assert_true (agui_test_wait_for (laid_out_at, &wait, TIMEOUT_MS));
  first = button_bounds (prompts, buttons->pdata[0]);
  second = button_bounds (prompts, buttons->pdata[1]);
  /* Stacked, and each inside the page */
  g_assert_cmpfloat (first.origin.x, ==, second.origin.x);
  g_assert_cmpfloat (second.origin.y, >=, first.origin.y + first.size.height);
  g_assert_cmpfloat (first.origin.x, >=, 0);
  g_assert_cmpfloat (first.origin.x + first.size.width, <=, gtk_widget_get_width (GTK_WIDGET (prompts)));

  gtk_settings_reset_property (gtk_settings_get_default (), "gtk-decoration-layout");
}

static TandemPreferencesWindow *
find_preferences (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  TandemPreferencesWindow *found = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_PREFERENCES_WINDOW (l->data))
      found = l->data;
  g_list_free (toplevels);

  return found;
}

/* The form to add or edit an agent is open and drawn */
static gboolean
editor_shown (TandemPreferencesWindow *preferences)
{
  GtkEditable *name = tandem_preferences_window_get_editor_field (preferences, "name");

  return name != NULL && gtk_widget_is_drawable (GTK_WIDGET (name));
}

static void
test_add_agent (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *button = tandem_test_child (f->window, "welcome_preferences_button");
  TandemPreferencesWindow *preferences;
  GtkEditable *name;

  g_test_summary ("Add an Agent… opens the form to add one, not the list");

  g_assert_true (gtk_widget_is_drawable (button));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "app.add-agent");
  g_assert_null (find_preferences ());
  g_signal_emit_by_name (button, "clicked");
  agui_test_wait_until ((preferences = find_preferences ()) != NULL && editor_shown (preferences),
                        "Add an Agent… opened the preferences on the form");

  name = tandem_preferences_window_get_editor_field (preferences, "name");
  g_assert_nonnull (name);
  g_assert_cmpstr (gtk_editable_get_text (name), ==, "");
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (name)));
  g_assert_nonnull (tandem_test_find_label (preferences, "Add Agent"));
}

static gboolean
connection_tested (gpointer data)
{
  return tandem_preferences_window_get_connection_result (data) != NULL;
}

static guint
closed_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  /* Bound and closed again: nothing listens there */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, address, TRUE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  g_socket_close (socket, NULL);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
test_connection (Fixture       *f,
                 gconstpointer  data)
{
  GtkWidget *widget = tandem_preferences_window_new (GTK_WINDOW (f->window), tandem_application_get_agents (app));
  TandemPreferencesWindow *preferences = TANDEM_PREFERENCES_WINDOW (widget);
  g_autofree char *refused_url = NULL;
  guint n_agents = g_list_model_get_n_items (tandem_agents_get_model (tandem_application_get_agents (app)));
  const AguiTestRequest *request;
  const char *result;

  g_test_summary ("Test Connection makes a real request with the headers typed, and says what came of it");

  gtk_window_present (GTK_WINDOW (preferences));
  tandem_preferences_window_edit_agent (preferences, NULL);
  agui_test_wait_until (editor_shown (preferences), "the form to add an agent was shown");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "name"), "Loopback");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "url"),
                         agui_test_server_get_url (f->server));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), "s3cret");
  tandem_preferences_window_add_editor_header (preferences, "X-Gateway", "blue");

  /* The run would go on; the test hangs up at the headers */
  {
    AguiTestResponse *response = agui_test_response_new_events (RS ("r1"), NULL);

    agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
    agui_test_server_push_response (f->server, response);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  result = tandem_preferences_window_get_connection_result (preferences);
  g_assert_true (g_str_has_prefix (result, "Connected"));
  g_assert_nonnull (tandem_test_find_label (preferences, result));

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "X-Gateway"), ==, "blue");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer s3cret");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (request->json));
  g_assert_true (json_object_has_member (json_node_get_object (request->json), "threadId"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (request->json), "messages")), ==, 0);

  /* A port nobody listens on: the error a conversation would show */
  refused_url = g_strdup_printf ("http://127.0.0.1:%u/agent", closed_port ());
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "url"), refused_url);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  result = tandem_preferences_window_get_connection_result (preferences);
  g_assert_nonnull (strstr (result, "Nothing is listening at"));
  g_assert_nonnull (strstr (result, refused_url));

  /* Testing saves nothing */
  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (tandem_application_get_agents (app))), ==, n_agents);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

typedef struct
{
  TandemAgents *agents;
  const char   *id;
  char         *token;
  gboolean      done;
} TokenLookup;

static void
on_token_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  TokenLookup *lookup = user_data;
  g_autoptr(GError) error = NULL;

  lookup->token = tandem_agents_lookup_token_finish (TANDEM_AGENTS (object), result, &error);
  g_assert_no_error (error);
  lookup->done = TRUE;
}

static gboolean
token_stored (gpointer data)
{
  TokenLookup *lookup = data;

  lookup->done = FALSE;
  g_clear_pointer (&lookup->token, secret_password_free);
  tandem_agents_lookup_token_async (lookup->agents, lookup->id, NULL, on_token_looked_up_cb, lookup);
  while (!lookup->done)
    g_main_context_iteration (NULL, TRUE);

  return lookup->token != NULL;
}

static gboolean
editor_open (gpointer data)
{
  return tandem_preferences_window_get_editor_field (data, "token") != NULL;
}

static TandemAgent *
find_agent_named (TandemAgents *agents,
                  const char   *name)
{
  GListModel *model = tandem_agents_get_model (agents);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TandemAgent) agent = g_list_model_get_item (model, i);

      if (g_strcmp0 (tandem_agent_get_name (agent), name) == 0)
        return g_steal_pointer (&agent);
    }

  return NULL;
}

static void
test_connection_stored_token (Fixture       *f,
                              gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkWidget *widget = tandem_preferences_window_new (GTK_WINDOW (f->window), agents);
  TandemPreferencesWindow *preferences = TANDEM_PREFERENCES_WINDOW (widget);
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  TokenLookup lookup = { agents, NULL, NULL, FALSE };
  const AguiTestRequest *request;
  const char *result;

  g_test_summary ("On a saved agent, Test Connection with the token field left empty sends the token the keyring keeps");

  gtk_window_present (GTK_WINDOW (preferences));
  tandem_preferences_window_edit_agent (preferences, NULL);
  agui_test_wait_until (editor_shown (preferences), "the form to add an agent was shown");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "name"), "Keyring agent");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "url"),
                         agui_test_server_get_url (f->server));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), "st0red-t0ken");
  /* A header written by hand loses to the keyring's token, as in a conversation */
  tandem_preferences_window_add_editor_header (preferences, "Authorization", "Bearer typed-header");
  g_assert_true (tandem_preferences_window_save_editor (preferences));

  agent = find_agent_named (agents, "Keyring agent");
  g_assert_nonnull (agent);
  lookup.id = tandem_agent_get_id (agent);
  g_assert_true (agui_test_wait_for (token_stored, &lookup, TIMEOUT_MS));
  g_assert_cmpstr (lookup.token, ==, "st0red-t0ken");

  /* Opened again, the editor shows the token field empty */
  tandem_preferences_window_edit_agent (preferences, tandem_agent_get_id (agent));
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (preferences, "token")), ==, "");

  for (guint i = 0; i < 2; i++)
    {
      AguiTestResponse *response = agui_test_response_new_events (RS ("r1"), NULL);

      agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
      agui_test_server_push_response (f->server, response);
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  result = tandem_preferences_window_get_connection_result (preferences);
  g_assert_true (g_str_has_prefix (result, "Connected"));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer st0red-t0ken");

  /* A token typed in is the one tested */
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), "n3w-t0ken");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  request = agui_test_server_get_request (f->server, 1);
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer n3w-t0ken");

  /* Testing stored nothing: the keyring still has the saved token */
  g_assert_true (token_stored (&lookup));
  g_assert_cmpstr (lookup.token, ==, "st0red-t0ken");
  g_clear_pointer (&lookup.token, secret_password_free);

  tandem_test_destroy_window (preferences);
  g_assert_true (tandem_agents_remove (agents, tandem_agent_get_id (agent), &error));
  g_assert_no_error (error);
}

typedef struct
{
  TokenLookup *lookup;
  const char  *expected;
} TokenWait;

/* The keyring holds @expected for the agent, or nothing when it is NULL */
static gboolean
token_is (gpointer data)
{
  TokenWait *wait = data;
  gboolean stored = token_stored (wait->lookup);

  return g_strcmp0 (stored ? wait->lookup->token : NULL, wait->expected) == 0;
}

static gboolean
first_request_streaming (gpointer data)
{
  return agui_test_server_get_n_requests (data) > 0 &&
         agui_test_server_get_request (data, 0)->state == AGUI_TEST_EXCHANGE_STREAMING;
}

static gboolean
has_a_request (gpointer data)
{
  return agui_test_server_get_n_requests (data) > 0;
}

/* A saved agent, its token stored, edited in @preferences */
static TandemAgent *
save_agent (TandemPreferencesWindow *preferences,
            TokenLookup             *lookup,
            const char              *name,
            const char              *url,
            const char              *token)
{
  TokenWait wait = { lookup, token };
  TandemAgent *agent;

  tandem_preferences_window_edit_agent (preferences, NULL);
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "name"), name);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "url"), url);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), token);
  g_assert_true (tandem_preferences_window_save_editor (preferences));

  agent = find_agent_named (lookup->agents, name);
  g_assert_nonnull (agent);
  lookup->id = tandem_agent_get_id (agent);
  g_assert_true (agui_test_wait_for (token_is, &wait, TIMEOUT_MS));

  return agent;
}

static void
remove_agent (TandemAgent *agent)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  g_autoptr(GError) error = NULL;

  tandem_agents_set_active_id (agents, TANDEM_AGENTS_DEMO_ID);
  g_assert_true (tandem_agents_remove (agents, tandem_agent_get_id (agent), &error));
  g_assert_no_error (error);
}

static void
test_saved_settings_reach_open_conversation (Fixture       *f,
                                             gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkWidget *widget = tandem_preferences_window_new (GTK_WINDOW (f->window), agents);
  TandemPreferencesWindow *preferences = TANDEM_PREFERENCES_WINDOW (widget);
  g_autoptr(AguiTestServer) moved = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  TokenLookup lookup = { agents, NULL, NULL, FALSE };
  TokenWait wait = { &lookup, "n3w-t0ken" };
  AgentWait agent_wait = { f->window, NULL };
  AguiAgentSession *session;
  AguiTestResponse *response;
  const AguiTestRequest *request;

  g_test_summary ("A token, header and URL saved in Preferences go with the next run of a conversation already "
                  "open, and a run under way ends on what it started with");

  moved = agui_test_server_new (&error);
  g_assert_no_error (error);

  gtk_window_present (GTK_WINDOW (preferences));
  agent = save_agent (preferences, &lookup, "Live agent", agui_test_server_get_url (f->server), "0ld-t0ken");
  tandem_agents_set_active_id (agents, tandem_agent_get_id (agent));
  tandem_window_new_chat (f->window);
  agent_wait.agent = tandem_agent_get_id (agent);
  g_assert_true (agui_test_wait_for (session_has_agent, &agent_wait, TIMEOUT_MS));
  session = tandem_window_get_session (f->window);

  /* The first answer pauses long enough for the settings to change under it */
  response = agui_test_response_new_events (RS ("r1"), NULL);
  agui_test_response_append_stall (response, 4000);
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Answered on the old settings\"}");
  agui_test_response_append_event_json (response, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  agui_test_response_append_event_json (response, RF ("r1"));
  agui_test_server_push_response (f->server, response);
  tandem_window_send (f->window, "First question");
  g_assert_true (agui_test_wait_for (first_request_streaming, f->server, TIMEOUT_MS));

  tandem_preferences_window_edit_agent (preferences, tandem_agent_get_id (agent));
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "url"),
                         agui_test_server_get_url (moved));
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), "n3w-t0ken");
  tandem_preferences_window_add_editor_header (preferences, "X-Tenant", "blue");
  g_assert_true (tandem_preferences_window_save_editor (preferences));
  g_assert_true (agui_test_wait_for (token_is, &wait, TIMEOUT_MS));
  /* Saved while the answer was still coming */
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==, AGUI_TEST_EXCHANGE_STREAMING);
  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_present (GTK_WINDOW (f->window));

  /* The run under way is not cut: it ends on the old server */
  g_assert_true (agui_test_wait_for (agui_test_session_idle, session, TIMEOUT_MS));
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_COMPLETE);
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer 0ld-t0ken");
  g_assert_cmpint (agui_run_state_get_status (agui_agent_session_get_run_state (session)), ==, AGUI_RUN_FINISHED);
  /* Its row is made as the view lays out, after the run ended */
  agui_test_wait_until (tandem_test_find_label (f->window, "Answered on the old settings") != NULL,
                        "the answer on the old settings is shown");

  /* The same conversation, still open, sends its next message with what was saved */
  g_assert_true (tandem_window_get_session (f->window) == session);
  agui_test_server_push_response (moved,
                                  agui_test_response_new_events (RS ("r2"), TEXT ("m2", "Answered on the new settings"),
                                                                 RF ("r2"), NULL));
  tandem_window_send (f->window, "Second question");
  g_assert_true (agui_test_wait_for (has_a_request, moved, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (agui_test_session_idle, session, TIMEOUT_MS));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (agui_test_server_get_n_requests (moved), ==, 1);
  request = agui_test_server_get_request (moved, 0);
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer n3w-t0ken");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "X-Tenant"), ==, "blue");
  agui_test_wait_until (tandem_test_find_label (f->window, "Answered on the new settings") != NULL,
                        "the answer on the new settings is shown");

  g_clear_pointer (&lookup.token, secret_password_free);
  remove_agent (agent);
  agui_test_server_stop (moved);
}

static void
test_connection_as_a_run (Fixture       *f,
                          gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkWidget *widget = tandem_preferences_window_new (GTK_WINDOW (f->window), agents);
  TandemPreferencesWindow *preferences = TANDEM_PREFERENCES_WINDOW (widget);
  g_autoptr(TandemAgent) agent = NULL;
  TokenLookup lookup = { agents, NULL, NULL, FALSE };
  AgentWait agent_wait = { f->window, NULL };
  const AguiTestRequest *tested;
  const AguiTestRequest *run;
  const char *names[] = { "Authorization", "X-Tenant", "Accept", "Content-Type", NULL };

  g_test_summary ("Test Connection sends what a run of the saved agent sends; a typed token is tried, not saved, "
                  "and the run then goes with the saved one");

  gtk_window_present (GTK_WINDOW (preferences));
  agent = save_agent (preferences, &lookup, "Tested agent", agui_test_server_get_url (f->server), "s4ved-t0ken");

  /* Saved with a header, and a hand-written Authorization the token beats */
  tandem_preferences_window_edit_agent (preferences, tandem_agent_get_id (agent));
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  tandem_preferences_window_add_editor_header (preferences, "X-Tenant", "green");
  tandem_preferences_window_add_editor_header (preferences, "Authorization", "Bearer by-hand");
  g_assert_true (tandem_preferences_window_save_editor (preferences));
  g_clear_object (&agent);
  agent = find_agent_named (agents, "Tested agent");

  for (guint i = 0; i < 2; i++)
    {
      AguiTestResponse *response = agui_test_response_new_events (RS ("t"), NULL);

      agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
      agui_test_server_push_response (f->server, response);
    }

  /* The saved settings, the field left empty */
  tandem_preferences_window_edit_agent (preferences, tandem_agent_get_id (agent));
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  g_assert_true (g_str_has_prefix (tandem_preferences_window_get_connection_result (preferences), "Connected"));

  /* An unsaved token is what is tested */
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (preferences, "token"), "uns4ved-t0ken");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.test-connection", NULL));
  g_assert_true (agui_test_wait_for (connection_tested, preferences, TIMEOUT_MS));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpstr (soup_message_headers_get_one (agui_test_server_get_request (f->server, 1)->headers, "Authorization"),
                   ==, "Bearer uns4ved-t0ken");
  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_present (GTK_WINDOW (f->window));

  /* A run of a conversation with the agent */
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Hello"), RF ("r1"), NULL));
  tandem_agents_set_active_id (agents, tandem_agent_get_id (agent));
  tandem_window_new_chat (f->window);
  agent_wait.agent = tandem_agent_get_id (agent);
  g_assert_true (agui_test_wait_for (session_has_agent, &agent_wait, TIMEOUT_MS));
  tandem_window_send (f->window, "Hello");
  g_assert_true (agui_test_wait_for (agui_test_session_idle, tandem_window_get_session (f->window), TIMEOUT_MS));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 3);

  tested = agui_test_server_get_request (f->server, 0);
  run = agui_test_server_get_request (f->server, 2);
  g_assert_cmpstr (soup_message_headers_get_one (run->headers, "Authorization"), ==, "Bearer s4ved-t0ken");
  g_assert_cmpstr (soup_message_headers_get_one (run->headers, "X-Tenant"), ==, "green");
  for (guint i = 0; names[i] != NULL; i++)
    g_assert_cmpstr (soup_message_headers_get_one (tested->headers, names[i]), ==,
                     soup_message_headers_get_one (run->headers, names[i]));
  g_assert_cmpstr (tested->path, ==, run->path);

  g_clear_pointer (&lookup.token, secret_password_free);
  remove_agent (agent);
}

/* libsecret's file backend writes its whole file against the tag of its
 * last write: a second write begun before the first is on disk failed as
 * "externally modified", and Forget Stored Token then offered no Undo. */
static void
test_keyring_writes_in_a_row (Fixture       *f,
                              gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GAsyncResult *results[4] = { NULL, };
  const char *tokens[G_N_ELEMENTS (results)] = { "first", NULL, "third", "fourth" };
  g_autoptr(TandemAgent) agent = tandem_agent_new ("in-a-row", "In a row", agui_test_server_get_url (f->server), NULL);
  TokenLookup lookup = { agents, "in-a-row", NULL, FALSE };
  TokenWait last = { &lookup, "fourth" };
  g_autoptr(GError) error = NULL;

  g_test_summary ("Keyring writes made one right after the other all succeed, the last one winning");

  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    tandem_agents_store_token_async (agents, "in-a-row", tokens[i], NULL, agui_test_store_result_cb, &results[i]);

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      agui_test_wait_until (results[i] != NULL, "the keyring's answer to each write");
      g_assert_true (tandem_agents_store_token_finish (agents, results[i], &error));
      g_assert_no_error (error);
      g_clear_object (&results[i]);
    }
  g_assert_true (token_is (&last));

  g_clear_pointer (&lookup.token, secret_password_free);
  remove_agent (agent);
}

/* Not a button clicked already, on a toast going away */
static GtkButton *
find_drawn_button (gpointer    widget,
                   const char *label)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), label) == 0 &&
        gtk_widget_is_drawable (buttons->pdata[i]) && gtk_widget_is_sensitive (buttons->pdata[i]))
      return buttons->pdata[i];

  return NULL;
}

static gboolean
undo_shown (gpointer data)
{
  return find_drawn_button (data, "_Undo") != NULL;
}

static gboolean
undo_gone (gpointer data)
{
  return !undo_shown (data);
}

static void
test_forget_token_undo (Fixture       *f,
                        gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkWidget *widget = tandem_preferences_window_new (GTK_WINDOW (f->window), agents);
  TandemPreferencesWindow *preferences = TANDEM_PREFERENCES_WINDOW (widget);
  g_autoptr(TandemAgent) agent = NULL;
  TokenLookup lookup = { agents, NULL, NULL, FALSE };
  TokenWait gone = { &lookup, NULL };
  TokenWait back = { &lookup, "k33p-m3" };

  g_test_summary ("Forget Stored Token removes the token from the keyring at once, and its toast's Undo puts the "
                  "same token back");

  gtk_window_present (GTK_WINDOW (preferences));
  agent = save_agent (preferences, &lookup, "Forgetful agent", agui_test_server_get_url (f->server), "k33p-m3");

  tandem_preferences_window_edit_agent (preferences, tandem_agent_get_id (agent));
  g_assert_true (agui_test_wait_for (editor_open, preferences, TIMEOUT_MS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.forget-token", NULL));
  g_assert_true (agui_test_wait_for (undo_shown, preferences, TIMEOUT_MS));
  g_assert_true (token_is (&gone));
  g_assert_nonnull (tandem_test_find_label (preferences, "The token was removed from the keyring"));

  /* Clicked as the person would, on the toast's button */
  g_signal_emit_by_name (find_drawn_button (preferences, "_Undo"), "clicked");
  g_assert_true (agui_test_wait_for (token_is, &back, TIMEOUT_MS));

  /* Undo is done once: a second Forget and its Undo still work */
  g_assert_true (agui_test_wait_for (undo_gone, preferences, TIMEOUT_MS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.forget-token", NULL));
  g_assert_true (agui_test_wait_for (token_is, &gone, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (undo_shown, preferences, TIMEOUT_MS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "editor.undo-forget-token", NULL));
  g_assert_true (agui_test_wait_for (token_is, &back, TIMEOUT_MS));

  g_clear_pointer (&lookup.token, secret_password_free);
  gtk_window_destroy (GTK_WINDOW (preferences));
  remove_agent (agent);
}

typedef struct
{
  GtkApplication *application;
  const char     *thread_id;
} Relaunch;

static gboolean
relaunched_on_thread (gpointer data)
{
  Relaunch *relaunch = data;
  GtkWindow *window = gtk_application_get_active_window (relaunch->application);
  AguiAgentSession *session = TANDEM_IS_WINDOW (window) ? tandem_window_get_session (TANDEM_WINDOW (window)) : NULL;

  return session != NULL && g_strcmp0 (agui_agent_session_get_thread_id (session), relaunch->thread_id) == 0;
}

static gboolean
remembered_thread (gpointer data)
{
  g_autofree char *remembered = g_settings_get_string (tandem_application_get_settings (app), "last-thread");

  return g_strcmp0 (remembered, data) == 0;
}

static void
test_relaunch (Fixture       *f,
               gconstpointer  data)
{
  GSettings *settings = tandem_application_get_settings (app);
  g_autoptr(TandemApplication) second = NULL;
  g_autoptr(TandemApplication) third = NULL;
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *remembered = NULL;
  GtkWindow *window;
  Relaunch relaunch;

  g_test_summary ("A relaunch reopens the conversation that was open, and a new chat after a new chat");

  transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (transport), "thread-id", NULL, "tools", NULL,
                          "store", tandem_application_get_store (app), "agent", agui_test_server_get_url (f->server), NULL);
  tandem_window_set_session (f->window, session);
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Still here"), RF ("r1"), NULL));
  g_settings_set_string (settings, "last-thread", "");
  tandem_window_send (f->window, "Keep this open");
  g_assert_true (agui_test_wait_for (agui_test_session_idle, session, TIMEOUT_MS));
  thread_id = g_strdup (agui_agent_session_get_thread_id (session));

  /* Remembered while the window is open, so a killed app reopens it too */
  g_assert_true (agui_test_wait_for (remembered_thread, thread_id, TIMEOUT_MS));

  /* Quit with it open: closing the window keeps its state */
  tandem_test_close_window (f->window);
  f->window = NULL;
  remembered = g_settings_get_string (settings, "last-thread");
  g_assert_cmpstr (remembered, ==, thread_id);

  /* Launch again on the same store and settings */
  second = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test2", store_path);
  g_application_activate (G_APPLICATION (second));
  relaunch.application = GTK_APPLICATION (second);
  relaunch.thread_id = thread_id;
  g_assert_true (agui_test_wait_for (relaunched_on_thread, &relaunch, TIMEOUT_MS));
  window = gtk_application_get_active_window (GTK_APPLICATION (second));
  agui_test_wait_until (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (TANDEM_WINDOW (window), "content_stack"))),
                                   "transcript") == 0 &&
                        tandem_test_find_label (window, "Keep this open") != NULL,
                        "the relaunched window showed the conversation left open");

  /* A new chat is what is open now: the next launch starts one */
  tandem_window_new_chat (TANDEM_WINDOW (window));
  tandem_test_close_window (window);
  g_clear_pointer (&remembered, g_free);
  remembered = g_settings_get_string (settings, "last-thread");
  g_assert_cmpstr (remembered, ==, "");

  third = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test3", store_path);
  g_application_activate (G_APPLICATION (third));
  window = gtk_application_get_active_window (GTK_APPLICATION (third));
  g_assert_nonnull (window);
  tandem_test_wait_for_layout (window);
  /* Welcome is where a window starts: give a wrong reopen time to show. */
  agui_test_wait_to_rule_out (100, "the next launch reopening a conversation");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tandem_test_child (TANDEM_WINDOW (window), "content_stack"))),
                   ==, "welcome");
  tandem_test_destroy_window (window);
}

static gboolean
composer_says (TandemWindow *window,
               const char   *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (window, "composer_view")));
  g_autofree char *shown = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);

  return g_strcmp0 (shown, text) == 0;
}

static void
test_relaunch_draft (Fixture       *f,
                     gconstpointer  data)
{
  GSettings *settings = tandem_application_get_settings (app);
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *stored = NULL;
  GtkTextBuffer *buffer;
  GtkWindow *window;
  Relaunch relaunch;

  g_test_summary ("What was typed into a new conversation and never sent is there after a relaunch, "
                  "kept as it is typed, so a killed app shows it too");

  g_settings_set_string (settings, "last-thread", "");
  tandem_window_new_chat (f->window);
  agui_test_wait_until (tandem_window_get_session (f->window) != NULL &&
                        agui_agent_session_get_store (tandem_window_get_session (f->window)) != NULL,
                        "a new conversation, kept");
  thread_id = g_strdup (agui_agent_session_get_thread_id (tandem_window_get_session (f->window)));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view")));
  gtk_text_buffer_set_text (buffer, "Half a question", -1);

  /* What a kill would leave: the draft in the store, the conversation remembered */
  g_assert_true (agui_test_wait_for (remembered_thread, thread_id, TIMEOUT_MS));
  agui_test_wait_until ((g_free (stored), stored = _agui_session_store_dup_draft (store, thread_id, NULL)) != NULL &&
                        g_str_equal (stored, "Half a question"),
                        "the draft was written to the store");
  tandem_test_destroy_window (f->window);
  f->window = NULL;

  second = tandem_test_application_new ("io.github.tandemdesk.Tandem.DraftRelaunch", store_path);
  g_application_activate (G_APPLICATION (second));
  relaunch.application = GTK_APPLICATION (second);
  relaunch.thread_id = thread_id;
  g_assert_true (agui_test_wait_for (relaunched_on_thread, &relaunch, TIMEOUT_MS));
  window = gtk_application_get_active_window (GTK_APPLICATION (second));
  agui_test_wait_until (composer_says (TANDEM_WINDOW (window), "Half a question"),
                        "the relaunched window shows the draft of the conversation never sent");

  /* Emptied, it is nothing to reopen */
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (TANDEM_WINDOW (window), "composer_view"))),
                            "", -1);
  g_assert_true (agui_test_wait_for (remembered_thread, (gpointer) "", TIMEOUT_MS));
  tandem_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  char *keyring_path;
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("onboarding", &store_path);
  keyring_path = g_build_filename (store_dir, "test.keyring", NULL);
  /* A real keyring with no session bus: libsecret's file backend, in the
   * store's scratch folder, unlocked by a fixed password */
  g_setenv ("SECRET_BACKEND", "file", TRUE);
  g_setenv ("SECRET_FILE_TEST_PATH", keyring_path, TRUE);
  g_setenv ("SECRET_FILE_TEST_PASSWORD", "tandem-tests", TRUE);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

#define ADD(path, fn) g_test_add ("/tandem/onboarding/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("placeholder", test_placeholder);
  ADD ("prompts", test_prompts);
  ADD ("prompts-narrow", test_prompts_narrow);
  ADD ("add-agent", test_add_agent);
  ADD ("test-connection", test_connection);
  ADD ("test-connection-stored-token", test_connection_stored_token);
  ADD ("test-connection-as-a-run", test_connection_as_a_run);
  ADD ("saved-settings-reach-open-conversation", test_saved_settings_reach_open_conversation);
  ADD ("keyring-writes-in-a-row", test_keyring_writes_in_a_row);
  ADD ("forget-token-undo", test_forget_token_undo);
  ADD ("relaunch", test_relaunch);
  ADD ("relaunch-draft", test_relaunch_draft);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  g_unlink (keyring_path);
  g_free (keyring_path);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
