/* test-agents.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "tandem-agents.h"
#include "tandem-desktop-tools.h"
#include "tandem-preferences-window.h"
#include "agui-test-util.h"
#include "tandem-test-window.h"

#define SECRET_TOKEN "s3cr3t-t0ken-do-not-leak"

static GSettings *
new_settings (void)
{
  GSettings *settings = g_settings_new (APPLICATION_ID);

  /* The memory backend lives as long as the process: start each test clean. */
  g_settings_reset (settings, "agents");
  g_settings_reset (settings, "active-agent");

  return settings;
}

static guint
count_agents_in_settings (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "agents");

  return g_variant_n_children (value);
}

static TandemAgent *
get_agent (TandemAgents *agents,
           guint         position)
{
  return g_list_model_get_item (tandem_agents_get_model (agents), position);
}

static void
test_agents_demo_first (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) demo = NULL;
  g_autoptr(TandemAgent) saved = NULL;
  g_autoptr(TandemAgent) first = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (agents)), ==, 1);
  demo = get_agent (agents, 0);
  g_assert_true (tandem_agent_is_demo (demo));
  g_assert_cmpstr (tandem_agent_get_id (demo), ==, TANDEM_AGENTS_DEMO_ID);
  g_assert_null (tandem_agent_get_url (demo));
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);

  saved = tandem_agent_new ("a1", "Remote", "https://example.com/agent", NULL);
  g_assert_true (tandem_agents_save (agents, saved, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (agents)), ==, 2);
  first = get_agent (agents, 0);
  g_assert_true (first == demo);

  /* The demo agent can be neither saved over nor removed. */
  g_assert_false (tandem_agents_save (agents, demo, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tandem_agents_remove (agents, TANDEM_AGENTS_DEMO_ID, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 1);
}

static void
test_agents_validate (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  const struct {
    const char *name;
    const char *url;
    const char *headers[3];
  } bad[] = {
    { "", "https://example.com/", { NULL } },
    { "   ", "https://example.com/", { NULL } },
    { "Bad URL", "not a url", { NULL } },
    { "Bad URL", "", { NULL } },
    { "File URL", "file:///etc/passwd", { NULL } },
    { "FTP URL", "ftp://example.com/", { NULL } },
    { "No host", "http://", { NULL } },
    { "Bad header", "https://example.com/", { "Bad Name: value", NULL } },
    { "Bad header", "https://example.com/", { "X-Ok: fine", "(x): y", NULL } },
    { "Bad header", "https://example.com/", { ": no name", NULL } },
    { "Bad header", "https://example.com/", { "no colon", NULL } },
    { "Bad value", "https://example.com/", { "X-Inject: a\r\nEvil: yes", NULL } },
    { "Bad value", "https://example.com/", { "X-Inject: a\nb", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(TandemAgent) agent = tandem_agent_new ("bad", bad[i].name, bad[i].url, bad[i].headers);
      g_autoptr(GError) error = NULL;

      g_test_message ("case %u: “%s” %s", i, bad[i].name, bad[i].url);
      g_assert_false (tandem_agents_save (agents, agent, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (error->message, !=, "");
      g_assert_cmpuint (count_agents_in_settings (settings), ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (agents)), ==, 1);
    }

  g_assert_true (tandem_agents_check_url ("http://localhost:8000/agent", NULL));
  g_assert_true (tandem_agents_check_header ("X-Api-Key", "abc def", NULL));
  g_assert_false (tandem_agents_check_header ("X Api", "abc", NULL));
  g_assert_false (tandem_agents_check_header ("X-Api", "a\rb", NULL));
}

static void
test_agents_round_trip (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgents) other = NULL;
  g_autoptr(TandemAgent) a = NULL;
  g_autoptr(TandemAgent) b = NULL;
  g_autoptr(TandemAgent) b2 = NULL;
  g_autoptr(TandemAgent) read = NULL;
  g_autoptr(GVariant) value = NULL;
  g_autoptr(GError) error = NULL;
  const char *headers[] = { "X-Api-Key: abc", "X-Team: blue green", NULL };
  const char *url;
  const char *name;
  g_autoptr(GVariant) dict = NULL;

  a = tandem_agent_new ("a", "First", "https://a.example.com/run", headers);
  b = tandem_agent_new ("b", "Second", "http://127.0.0.1:8000/", NULL);
  g_assert_true (tandem_agents_save (agents, a, &error));
  g_assert_true (tandem_agents_save (agents, b, &error));
  g_assert_no_error (error);

  value = g_settings_get_value (settings, "agents");
  g_assert_cmpuint (g_variant_n_children (value), ==, 2);
  g_variant_get_child (value, 0, "(&s&s@a{ss})", NULL, &name, &dict);
  g_assert_cmpstr (name, ==, "First");
  g_assert_true (g_variant_lookup (dict, "url", "&s", &url));
  g_assert_cmpstr (url, ==, "https://a.example.com/run");
  g_assert_true (g_variant_lookup (dict, "header:X-Api-Key", "&s", &url));
  g_assert_cmpstr (url, ==, "abc");
  g_assert_true (g_variant_lookup (dict, "header:X-Team", "&s", &url));
  g_assert_cmpstr (url, ==, "blue green");

  /* A second reader of the same settings sees the same agents. */
  other = tandem_agents_new (settings);
  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (other)), ==, 3);
  g_assert_nonnull (tandem_agents_lookup (other, "a"));
  read = g_object_ref (tandem_agents_lookup (other, "a"));
  g_assert_cmpstr (tandem_agent_get_name (read), ==, "First");
  g_assert_cmpstr (tandem_agent_get_url (read), ==, "https://a.example.com/run");
  g_assert_cmpstrv (tandem_agent_get_headers (read), headers);
  g_clear_object (&read);

  /* Saving with an existing id replaces in place, and the other reader follows. */
  b2 = tandem_agent_new ("b", "Second, renamed", "http://127.0.0.1:9000/", NULL);
  g_assert_true (tandem_agents_save (agents, b2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 2);
  read = g_object_ref (tandem_agents_lookup (other, "b"));
  g_assert_cmpstr (tandem_agent_get_name (read), ==, "Second, renamed");
  g_clear_object (&read);
  read = get_agent (other, 2);
  g_assert_cmpstr (tandem_agent_get_id (read), ==, "b");
  g_clear_object (&read);
  read = get_agent (other, 0);
  g_assert_true (tandem_agent_is_demo (read));

  /* Written by someone else altogether. */
  g_settings_set_value (settings, "agents",
                        g_variant_new_parsed ("[('z', 'Zed', {'url': 'https://z.example/'})]"));
  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (agents)), ==, 2);
  g_clear_object (&read);
  read = get_agent (agents, 1);
  g_assert_cmpstr (tandem_agent_get_id (read), ==, "z");
  g_assert_cmpstrv (tandem_agent_get_headers (read), ((const char *[]) { NULL }));
}

static void
test_agents_remove (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  g_autoptr(TandemAgent) b = tandem_agent_new ("b", "B", "https://b.example/", NULL);
  g_autoptr(TandemAgent) left = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (tandem_agents_save (agents, a, NULL));
  g_assert_true (tandem_agents_save (agents, b, NULL));
  g_assert_true (tandem_agents_remove (agents, "a", &error));
  g_assert_no_error (error);

  g_assert_cmpuint (count_agents_in_settings (settings), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (tandem_agents_get_model (agents)), ==, 2);
  g_assert_null (tandem_agents_lookup (agents, "a"));
  left = get_agent (agents, 1);
  g_assert_cmpstr (tandem_agent_get_id (left), ==, "b");

  g_assert_false (tandem_agents_remove (agents, "a", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  /* Let the background token removal fail against the missing keyring. */
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
on_agent_changed_cb (TandemAgents *agents,
                     const char   *id,
                     GString      *heard)
{
  g_string_append_printf (heard, "%s;", id);
}

static void
test_agents_changed (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  g_autoptr(TandemAgent) b = tandem_agent_new ("b", "B", "https://b.example/", NULL);
  g_autoptr(TandemAgent) same_a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  const char * const headers[] = { "X-Tenant: blue", NULL };
  g_autoptr(TandemAgent) new_a = tandem_agent_new ("a", "A", "https://a.example/", headers);
  g_autoptr(GString) heard = g_string_new (NULL);

  g_test_summary ("Saving an agent with a change, or removing it, tells which agent changed, and only that one");

  g_assert_true (tandem_agents_save (agents, a, NULL));
  g_assert_true (tandem_agents_save (agents, b, NULL));
  g_signal_connect (agents, "agent-changed", G_CALLBACK (on_agent_changed_cb), heard);

  g_assert_true (tandem_agents_save (agents, same_a, NULL));
  g_assert_cmpstr (heard->str, ==, "");

  g_assert_true (tandem_agents_save (agents, new_a, NULL));
  g_assert_cmpstr (heard->str, ==, "a;");

  g_string_truncate (heard, 0);
  g_assert_true (tandem_agents_remove (agents, "b", NULL));
  g_assert_cmpstr (heard->str, ==, "b;");

  /* Let the background token removal fail against the missing keyring. */
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_signal_handlers_disconnect_by_data (agents, heard);
}

static void
test_agents_active (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  g_autofree char *stored = NULL;

  g_assert_true (tandem_agents_save (agents, a, NULL));
  tandem_agents_set_active_id (agents, "a");
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, "a");
  stored = g_settings_get_string (settings, "active-agent");
  g_assert_cmpstr (stored, ==, "a");
  g_clear_pointer (&stored, g_free);

  /* An id no agent has falls back to the demo. */
  tandem_agents_set_active_id (agents, "nope");
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);

  tandem_agents_set_active_id (agents, "a");
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, "a");

  /* The agent disappears behind our back: the demo is active. */
  g_settings_set_value (settings, "agents", g_variant_new_parsed ("@a(ssa{ss}) []"));
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);

  /* A stale setting from an earlier run. */
  g_settings_set_string (settings, "active-agent", "gone");
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);

  /* Removing the active agent resets it. */
  g_assert_true (tandem_agents_save (agents, a, NULL));
  tandem_agents_set_active_id (agents, "a");
  g_assert_true (tandem_agents_remove (agents, "a", NULL));
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);
  stored = g_settings_get_string (settings, "active-agent");
  g_assert_cmpstr (stored, ==, TANDEM_AGENTS_DEMO_ID);

  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
assert_no_token_in_settings (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *printed = g_variant_print (value, TRUE);

      g_assert_null (strstr (printed, SECRET_TOKEN));
      g_assert_null (strstr (printed, "Bearer"));
    }
}

static void
test_agents_token_no_keyring (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Without a keyring the token is refused, never written elsewhere");

  g_assert_true (tandem_agents_save (agents, a, NULL));
  tandem_agents_store_token_async (agents, "a", SECRET_TOKEN, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  g_assert_false (tandem_agents_store_token_finish (agents, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "not saved"));
  g_assert_nonnull (strstr (error->message, "keyring"));
  g_assert_null (strstr (error->message, SECRET_TOKEN));

  assert_no_token_in_settings (settings);
}

static void
test_agents_lookup_token_no_keyring (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Looking a token up says when no keyring answers, a missing agent, and that the demo has none");

  g_assert_true (tandem_agents_save (agents, a, NULL));
  tandem_agents_lookup_token_async (agents, "a", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  g_assert_null (tandem_agents_lookup_token_finish (agents, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "keyring"));
  g_clear_error (&error);
  g_clear_object (&result);

  tandem_agents_lookup_token_async (agents, "gone", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  g_assert_null (tandem_agents_lookup_token_finish (agents, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_clear_object (&result);

  tandem_agents_lookup_token_async (agents, TANDEM_AGENTS_DEMO_ID, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  g_assert_null (tandem_agents_lookup_token_finish (agents, result, &error));
  g_assert_no_error (error);
}

static void
test_agents_transport_demo (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  tandem_agents_create_transport_async (agents, TANDEM_AGENTS_DEMO_ID, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  transport = tandem_agents_create_transport_finish (agents, result, &error);
  g_assert_no_error (error);
  g_assert_true (AGUI_IS_DEMO_AGENT (transport));
}

static void
test_agents_transport_http (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  const char *headers[] = { "X-Api-Key: abc", "X-Team: blue", NULL };
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/run", headers);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) sent = NULL;
  g_autofree char *joined = NULL;

  g_assert_true (tandem_agents_save (agents, a, NULL));

  tandem_agents_create_transport_async (agents, "a", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  transport = tandem_agents_create_transport_finish (agents, result, &error);
  g_assert_no_error (error);
  g_assert_true (AGUI_IS_HTTP_TRANSPORT (transport));
  g_assert_cmpstr (agui_http_transport_get_url (AGUI_HTTP_TRANSPORT (transport)), ==, "https://a.example/run");
  g_assert_cmpuint (agui_http_transport_get_connect_timeout (AGUI_HTTP_TRANSPORT (transport)), ==, 30000);

  sent = agui_http_transport_dup_headers (AGUI_HTTP_TRANSPORT (transport));
  joined = g_strjoinv ("\n", sent);
  g_test_message ("headers: %s", joined);
  g_assert_true (g_strv_contains ((const char * const *) sent, "X-Api-Key: abc"));
  g_assert_true (g_strv_contains ((const char * const *) sent, "X-Team: blue"));
  g_assert_null (strstr (joined, "Authorization"));
  g_clear_object (&result);

  tandem_agents_create_transport_async (agents, "missing", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  g_assert_null (tandem_agents_create_transport_finish (agents, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_agents_transport_settings (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgents) reread = NULL;
  g_autoptr(TandemAgent) a = NULL;
  g_autoptr(TandemAgent) plain = tandem_agent_new ("p", "P", "https://p.example/run", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) sent = NULL;
  TandemAgent *found;

  g_test_summary ("An agent's idle timeout, largest event and encoding survive the settings "
                  "and reach its transport; an agent without them gets the defaults");

  {
    g_autoptr(TandemAgent) sse = tandem_agent_new_full ("a", "A", "https://a.example/run", NULL, 45, 10 * 1024 * 1024);

    a = tandem_agent_with_encoding (sse, AGUI_HTTP_ENCODING_PROTOBUF);
  }
  g_assert_true (tandem_agents_save (agents, a, NULL));
  g_assert_true (tandem_agents_save (agents, plain, NULL));

  reread = tandem_agents_new (settings);
  found = tandem_agents_lookup (reread, "a");
  g_assert_nonnull (found);
  g_assert_cmpuint (tandem_agent_get_idle_timeout (found), ==, 45);
  g_assert_cmpuint (tandem_agent_get_max_frame_size (found), ==, 10 * 1024 * 1024);
  g_assert_cmpint (tandem_agent_get_encoding (found), ==, AGUI_HTTP_ENCODING_PROTOBUF);
  found = tandem_agents_lookup (reread, "p");
  g_assert_cmpuint (tandem_agent_get_idle_timeout (found), ==, 300);
  g_assert_cmpuint (tandem_agent_get_max_frame_size (found), ==, 0);
  g_assert_cmpint (tandem_agent_get_encoding (found), ==, AGUI_HTTP_ENCODING_SSE);

  tandem_agents_create_transport_async (reread, "a", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  transport = tandem_agents_create_transport_finish (reread, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agui_http_transport_get_idle_timeout (AGUI_HTTP_TRANSPORT (transport)), ==, 45000);
  g_assert_cmpuint (agui_http_transport_get_max_frame_size (AGUI_HTTP_TRANSPORT (transport)), ==, 10 * 1024 * 1024);
  sent = agui_http_transport_dup_headers (AGUI_HTTP_TRANSPORT (transport));
  g_assert_true (g_strv_contains ((const char * const *) sent, "Accept: application/vnd.ag-ui.event+proto"));
  g_clear_object (&result);
  g_clear_object (&transport);
  g_clear_pointer (&sent, g_strfreev);

  tandem_agents_create_transport_async (reread, "p", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  transport = tandem_agents_create_transport_finish (reread, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agui_http_transport_get_idle_timeout (AGUI_HTTP_TRANSPORT (transport)), ==, AGUI_HTTP_DEFAULT_IDLE_TIMEOUT);
  g_assert_cmpuint (agui_http_transport_get_max_frame_size (AGUI_HTTP_TRANSPORT (transport)), ==, 0);
  sent = agui_http_transport_dup_headers (AGUI_HTTP_TRANSPORT (transport));
  g_assert_true (g_strv_contains ((const char * const *) sent, "Accept: text/event-stream"));
}

static void
test_agents_openai (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgents) reread = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(TandemAgent) unnamed = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  TandemAgent *found;

  g_test_summary ("A model on an OpenAI-compatible server survives the settings with its model, "
                  "prompt and temperature, and its transport is an AguiOpenaiAgent");

  agent = tandem_agent_new_openai ("o", "Local", "http://localhost:11434/v1", NULL, "llama3.2",
                                   "Be brief.", 0.3, 120);
  g_assert_true (tandem_agents_save (agents, agent, NULL));
  unnamed = tandem_agent_new_openai ("n", "No model", "http://localhost:11434/v1", NULL, " ", NULL, -1, 120);
  g_assert_false (tandem_agents_save (agents, unnamed, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  reread = tandem_agents_new (settings);
  found = tandem_agents_lookup (reread, "o");
  g_assert_nonnull (found);
  g_assert_true (tandem_agent_is_openai (found));
  g_assert_cmpstr (tandem_agent_get_model (found), ==, "llama3.2");
  g_assert_cmpstr (tandem_agent_get_system_prompt (found), ==, "Be brief.");
  g_assert_cmpfloat_with_epsilon (tandem_agent_get_temperature (found), 0.3, 1e-9);
  g_assert_cmpuint (tandem_agent_get_idle_timeout (found), ==, 120);

  tandem_agents_create_transport_async (reread, "o", NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 10000);
  transport = tandem_agents_create_transport_finish (reread, result, &error);
  g_assert_no_error (error);
  g_assert_true (AGUI_IS_OPENAI_AGENT (transport));
  g_assert_cmpstr (agui_openai_agent_get_base_url (AGUI_OPENAI_AGENT (transport)), ==, "http://localhost:11434/v1");
  g_assert_cmpstr (agui_openai_agent_get_model (AGUI_OPENAI_AGENT (transport)), ==, "llama3.2");
  g_assert_cmpstr (agui_openai_agent_get_system_prompt (AGUI_OPENAI_AGENT (transport)), ==, "Be brief.");
  g_assert_cmpfloat_with_epsilon (agui_openai_agent_get_temperature (AGUI_OPENAI_AGENT (transport)), 0.3, 1e-9);
  g_assert_cmpuint (agui_openai_agent_get_idle_timeout (AGUI_OPENAI_AGENT (transport)), ==, 120000);
}

static void
test_agents_cancelled (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/run", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) store_result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (tandem_agents_save (agents, a, NULL));

  tandem_agents_create_transport_async (agents, "a", cancellable, agui_test_store_result_cb, &result);
  tandem_agents_store_token_async (agents, "a", SECRET_TOKEN, cancellable, agui_test_store_result_cb, &store_result);
  g_cancellable_cancel (cancellable);
  agui_test_wait_for_result (&result, 10000);
  agui_test_wait_for_result (&store_result, 10000);

  g_assert_null (tandem_agents_create_transport_finish (agents, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (tandem_agents_store_token_finish (agents, store_result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Preferences */

static void
flush_events (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GPtrArray *
list_row_titles (GtkListBox *list)
{
  GPtrArray *titles = g_ptr_array_new ();
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)); i++)
    g_ptr_array_add (titles, (gpointer) adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));

  return titles;
}

static void
test_preferences_lists_agents (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "<b>Remote</b>", "https://a.example/", NULL);
  g_autoptr(GPtrArray) titles = NULL;
  GtkWidget *window;
  GtkListBox *list;

  g_assert_true (tandem_agents_save (agents, a, NULL));
  tandem_agents_set_active_id (agents, "a");

  window = tandem_preferences_window_new (NULL, agents);
  gtk_window_present (GTK_WINDOW (window));
  flush_events ();

  list = tandem_preferences_window_get_agent_list (TANDEM_PREFERENCES_WINDOW (window));
  titles = list_row_titles (list);
  g_assert_cmpuint (titles->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (titles, 0), ==, "Demo agent (built in)");
  g_assert_cmpstr (g_ptr_array_index (titles, 1), ==, "<b>Remote</b>");
  g_assert_false (adw_preferences_row_get_use_markup (ADW_PREFERENCES_ROW (gtk_list_box_get_row_at_index (list, 1))));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (gtk_list_box_get_row_at_index (list, 1))),
                   ==, "https://a.example/");
  g_assert_nonnull (adw_action_row_get_subtitle (ADW_ACTION_ROW (gtk_list_box_get_row_at_index (list, 0))));

  /* A new agent shows up while the window is open. */
  {
    g_autoptr(TandemAgent) b = tandem_agent_new ("b", "Second", "https://b.example/", NULL);

    g_assert_true (tandem_agents_save (agents, b, NULL));
    g_clear_pointer (&titles, g_ptr_array_unref);
    titles = list_row_titles (list);
    g_assert_cmpuint (titles->len, ==, 3);
    g_assert_cmpstr (g_ptr_array_index (titles, 2), ==, "Second");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  flush_events ();
}

/* Whether @window shows a toast (the type exists once one was made) */
static gboolean
shows_toast (gpointer window)
{
  GType type = g_type_from_name ("AdwToastWidget");
  g_autoptr(GPtrArray) toasts = NULL;

  if (type == G_TYPE_INVALID)
    return FALSE;
  toasts = g_ptr_array_new ();
  tandem_test_collect (window, type, toasts);

  return toasts->len > 0;
}

static void
wait_for_editor (TandemPreferencesWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (tandem_preferences_window_get_editor_field (window, "name") == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  flush_events ();
}

static void
test_preferences_add_agent (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) added = NULL;
  TandemPreferencesWindow *window;
  g_autoptr(GPtrArray) titles = NULL;
  const char *expected_headers[] = { "X-Api-Key: k1", NULL };

  window = TANDEM_PREFERENCES_WINDOW (tandem_preferences_window_new (NULL, agents));
  gtk_window_present (GTK_WINDOW (window));
  flush_events ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "agents.add", NULL));
  flush_events ();
  g_assert_nonnull (tandem_preferences_window_get_editor_field (window, "name"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "name"))));

  /* Invalid: no name, a bad URL, a bad header. Nothing is written. */
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "url"), "ftp://x");
  tandem_preferences_window_add_editor_header (window, "Bad Name", "v");
  g_assert_false (tandem_preferences_window_save_editor (window));
  g_assert_nonnull (tandem_preferences_window_get_editor_error (window));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "name")), "error"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "url")), "error"));
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 0);

  /* Start again, properly this time. */
  tandem_preferences_window_edit_agent (window, NULL);
  wait_for_editor (window);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "name"), "  My agent ");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "url"), "https://agent.example/run");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "token"), SECRET_TOKEN);
  tandem_preferences_window_add_editor_header (window, "X-Api-Key", "k1");
  tandem_preferences_window_add_editor_header (window, "", "");
  g_assert_true (tandem_preferences_window_save_editor (window));
  g_assert_null (tandem_preferences_window_get_editor_error (window));

  g_assert_cmpuint (count_agents_in_settings (settings), ==, 1);
  added = get_agent (agents, 1);
  g_assert_cmpstr (tandem_agent_get_name (added), ==, "My agent");
  g_assert_cmpstr (tandem_agent_get_url (added), ==, "https://agent.example/run");
  g_assert_cmpstrv (tandem_agent_get_headers (added), expected_headers);
  g_assert_true (g_uuid_string_is_valid (tandem_agent_get_id (added)));

  titles = list_row_titles (tandem_preferences_window_get_agent_list (window));
  g_assert_cmpuint (titles->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (titles, 1), ==, "My agent");

  /* The keyring refuses the token (shown as a toast); the token goes nowhere else. */
  agui_test_wait_until (shows_toast (window), "the keyring's refusal was shown");
  assert_no_token_in_settings (settings);

  /* Edit keeps the id and rewrites in place; the editor shows again even
   * if asked for while the last one is still closing. */
  g_assert_null (tandem_preferences_window_get_editor_field (window, "name"));
  tandem_preferences_window_edit_agent (window, tandem_agent_get_id (added));
  wait_for_editor (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tandem_preferences_window_get_editor_field (window, "name"))));
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "name")), ==, "My agent");
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "token")), ==, "");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "name"), "Renamed");
  /* The defaults were shown: five minutes, 8 MiB. */
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "idle-timeout")), ==, "300");
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "max-frame-size")), ==, "8");
  g_assert_cmpuint (adw_combo_row_get_selected (tandem_preferences_window_get_editor_encoding (window)), ==,
                    AGUI_HTTP_ENCODING_SSE);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "idle-timeout"), "60");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "max-frame-size"), "10");
  adw_combo_row_set_selected (tandem_preferences_window_get_editor_encoding (window), AGUI_HTTP_ENCODING_PROTOBUF);
  g_assert_true (tandem_preferences_window_save_editor (window));
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 1);
  g_clear_object (&added);
  added = get_agent (agents, 1);
  g_assert_cmpstr (tandem_agent_get_name (added), ==, "Renamed");
  g_assert_cmpstrv (tandem_agent_get_headers (added), expected_headers);
  g_assert_cmpuint (tandem_agent_get_idle_timeout (added), ==, 60);
  g_assert_cmpuint (tandem_agent_get_max_frame_size (added), ==, 10 * 1024 * 1024);
  g_assert_cmpint (tandem_agent_get_encoding (added), ==, AGUI_HTTP_ENCODING_PROTOBUF);

  /* Reopened, the editor shows what was saved. */
  tandem_preferences_window_edit_agent (window, tandem_agent_get_id (added));
  wait_for_editor (window);
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "idle-timeout")), ==, "60");
  g_assert_cmpstr (gtk_editable_get_text (tandem_preferences_window_get_editor_field (window, "max-frame-size")), ==, "10");
  g_assert_cmpuint (adw_combo_row_get_selected (tandem_preferences_window_get_editor_encoding (window)), ==,
                    AGUI_HTTP_ENCODING_PROTOBUF);
  /* The encoding is said in words, not as a number. */
  g_assert_cmpstr (gtk_string_object_get_string (adw_combo_row_get_selected_item (
                     tandem_preferences_window_get_editor_encoding (window))), ==, "Binary (Protocol Buffers)");

  gtk_window_destroy (GTK_WINDOW (window));
  flush_events ();
}

/* The check button of the list's row @index */
static GtkCheckButton *
row_check (GtkListBox *list,
           int         index)
{
  g_autoptr(GPtrArray) checks = g_ptr_array_new ();

  tandem_test_collect (GTK_WIDGET (gtk_list_box_get_row_at_index (list, index)), GTK_TYPE_CHECK_BUTTON, checks);
  g_assert_cmpuint (checks->len, ==, 1);

  return g_ptr_array_index (checks, 0);
}

/* A row's check button chooses its agent, and follows the agent chosen
 * elsewhere: the row is given the agents, it does not ask its window. */
static void
test_preferences_row_chooses_agent (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "Remote", "https://a.example/", NULL);
  GtkWidget *window;
  GtkListBox *list;

  g_assert_true (tandem_agents_save (agents, a, NULL));
  window = tandem_preferences_window_new (NULL, agents);
  gtk_window_present (GTK_WINDOW (window));
  flush_events ();

  list = tandem_preferences_window_get_agent_list (TANDEM_PREFERENCES_WINDOW (window));
  g_assert_true (gtk_check_button_get_active (row_check (list, 0)));
  g_assert_false (gtk_check_button_get_active (row_check (list, 1)));

  g_assert_true (gtk_widget_activate (GTK_WIDGET (row_check (list, 1))));
  flush_events ();
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, "a");
  g_assert_false (gtk_check_button_get_active (row_check (list, 0)));

  tandem_agents_set_active_id (agents, TANDEM_AGENTS_DEMO_ID);
  flush_events ();
  g_assert_true (gtk_check_button_get_active (row_check (list, 0)));
  g_assert_false (gtk_check_button_get_active (row_check (list, 1)));

  gtk_window_destroy (GTK_WINDOW (window));
  flush_events ();
  /* Taking the rows down chose nothing */
  g_assert_cmpstr (tandem_agents_get_active_id (agents), ==, TANDEM_AGENTS_DEMO_ID);
}

/* A header row's remove button takes that row, and only it, away */
static void
test_preferences_remove_header (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) added = NULL;
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autoptr(GPtrArray) removes = g_ptr_array_new ();
  TandemPreferencesWindow *window;
  const char *expected_headers[] = { "X-One: 1", "X-Three: 3", NULL };

  window = TANDEM_PREFERENCES_WINDOW (tandem_preferences_window_new (NULL, agents));
  gtk_window_present (GTK_WINDOW (window));
  flush_events ();

  tandem_preferences_window_edit_agent (window, NULL);
  wait_for_editor (window);
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "name"), "Headers");
  gtk_editable_set_text (tandem_preferences_window_get_editor_field (window, "url"), "https://agent.example/run");
  tandem_preferences_window_add_editor_header (window, "X-One", "1");
  tandem_preferences_window_add_editor_header (window, "X-Two", "2");
  tandem_preferences_window_add_editor_header (window, "X-Three", "3");

  tandem_test_collect (GTK_WIDGET (window), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (g_ptr_array_index (buttons, i)), "Remove header") == 0)
      g_ptr_array_add (removes, g_ptr_array_index (buttons, i));
  g_assert_cmpuint (removes->len, ==, 3);

  g_signal_emit_by_name (g_ptr_array_index (removes, 1), "clicked");
  flush_events ();
  g_assert_true (tandem_preferences_window_save_editor (window));

  added = get_agent (agents, 1);
  g_assert_cmpstrv (tandem_agent_get_headers (added), expected_headers);

  gtk_window_destroy (GTK_WINDOW (window));
  flush_events ();
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n_items = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

static void
test_preferences_remove_confirms (void)
{
  g_autoptr(GSettings) settings = new_settings ();
  g_autoptr(TandemAgents) agents = tandem_agents_new (settings);
  g_autoptr(TandemAgent) a = tandem_agent_new ("a", "A", "https://a.example/", NULL);
  GtkWidget *window;
  AdwMessageDialog *dialog;

  g_assert_true (tandem_agents_save (agents, a, NULL));
  window = tandem_preferences_window_new (NULL, agents);
  gtk_window_present (GTK_WINDOW (window));
  flush_events ();

  g_assert_true (gtk_widget_activate_action (window, "agents.remove", "s", "a"));
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  /* A click answers and closes; response() alone only answers. */
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  flush_events ();
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 1);

  g_assert_true (gtk_widget_activate_action (window, "agents.remove", "s", "a"));
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "remove");
  gtk_window_destroy (GTK_WINDOW (dialog));
  flush_events ();
  g_assert_cmpuint (count_agents_in_settings (settings), ==, 0);
  g_assert_null (find_message_dialog ());

  gtk_window_destroy (GTK_WINDOW (window));
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* Desktop tools */

typedef struct
{
  GtkWindow        *parent;
  AguiToolRegistry *registry;
} ToolsFixture;

static void
tools_set_up (ToolsFixture  *fixture,
              gconstpointer  data)
{
  fixture->parent = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (fixture->parent);
  fixture->registry = tandem_desktop_tools_new (fixture->parent);
}

static void
tools_tear_down (ToolsFixture  *fixture,
                 gconstpointer  data)
{
  g_clear_object (&fixture->registry);
  gtk_window_destroy (fixture->parent);
  flush_events ();
}

static void
call_tool_async (ToolsFixture  *fixture,
                 const char    *name,
                 const char    *arguments,
                 GCancellable  *cancellable,
                 GAsyncResult **result)
{
  AguiTool *tool = agui_tool_registry_lookup (fixture->registry, name);
  g_autoptr(JsonNode) node = NULL;

  g_assert_nonnull (tool);
  if (arguments != NULL)
    node = json_from_string (arguments, NULL);

  agui_tool_execute_async (tool, node, cancellable, agui_test_store_result_cb, result);
}

static char *
call_tool_finish (ToolsFixture  *fixture,
                  const char    *name,
                  GAsyncResult **result,
                  GError       **error)
{
  AguiTool *tool = agui_tool_registry_lookup (fixture->registry, name);
  char *text;

  agui_test_wait_for_result (result, 10000);
  text = agui_tool_execute_finish (tool, *result, error);
  g_clear_object (result);

  return text;
}

static char *
call_tool (ToolsFixture  *fixture,
           const char    *name,
           const char    *arguments,
           GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  call_tool_async (fixture, name, arguments, NULL, &result);
  return call_tool_finish (fixture, name, &result, error);
}

static void
test_tools_registry (ToolsFixture  *fixture,
                     gconstpointer  data)
{
  const char *names[] = { "get_current_time", "read_clipboard", "copy_to_clipboard", "open_link", "send_notification" };
  g_autoptr(JsonArray) declared = agui_tool_registry_to_json (fixture->registry);

  g_assert_cmpuint (json_array_get_length (declared), ==, G_N_ELEMENTS (names));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      AguiTool *tool = agui_tool_registry_lookup (fixture->registry, names[i]);
      JsonNode *parameters;
      JsonObject *schema;

      g_assert_nonnull (tool);
      g_assert_cmpuint (strlen (agui_tool_get_description (tool)), >, 20);
      parameters = agui_tool_get_parameters (tool);
      g_assert_nonnull (parameters);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (parameters));
      schema = json_node_get_object (parameters);
      g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
      g_assert_true (json_object_has_member (schema, "properties"));
    }
}

static void
test_tools_current_time (ToolsFixture  *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) iso = g_regex_new ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d$", 0, 0, NULL);
  const char *cases[][2] = {
    { "{}", NULL },
    { "{\"timezone\":\"local\"}", NULL },
    { "{\"timezone\":\"Europe/Berlin\"}", "Europe/Berlin" },
    { "{\"timezone\":\"UTC\"}", "UTC" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = call_tool (fixture, "get_current_time", cases[i][0], &error);
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;
      const char *time;

      g_assert_no_error (error);
      g_test_message ("%s → %s", cases[i][0], text);
      node = json_from_string (text, &error);
      g_assert_no_error (error);
      object = json_node_get_object (node);
      time = json_object_get_string_member (object, "time");
      g_assert_true (g_regex_match (iso, time, 0, NULL));
      g_assert_nonnull (json_object_get_string_member (object, "timezone"));
      if (cases[i][1] != NULL)
        g_assert_cmpstr (json_object_get_string_member (object, "timezone"), ==, cases[i][1]);
      if (g_strcmp0 (cases[i][1], "UTC") == 0)
        g_assert_true (g_str_has_suffix (time, "+00:00"));
      if (g_strcmp0 (cases[i][1], "Europe/Berlin") == 0)
        g_assert_true (g_str_has_suffix (time, "+01:00") || g_str_has_suffix (time, "+02:00"));
    }

  g_assert_null (call_tool (fixture, "get_current_time", "{\"timezone\":\"Mars/Olympus_Mons\"}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Mars/Olympus_Mons"));
  g_clear_error (&error);

  g_assert_null (call_tool (fixture, "get_current_time", "{\"timezone\":3}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_null (call_tool (fixture, "get_current_time", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
}

static void
test_tools_copy (ToolsFixture  *fixture,
                 gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->parent));
  g_autoptr(GError) error = NULL;
  g_autofree char *result = NULL;
  g_autofree char *text = NULL;

  result = call_tool (fixture, "copy_to_clipboard", "{\"text\":\"Grüße\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (result, ==, "Copied 5 characters");

  gdk_clipboard_read_text_async (clipboard, NULL, read_text_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (text, ==, "Grüße");

  g_assert_null (call_tool (fixture, "copy_to_clipboard", "{}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "text"));
  g_clear_error (&error);
  g_assert_null (call_tool (fixture, "copy_to_clipboard", "{\"text\":[1]}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (call_tool (fixture, "copy_to_clipboard", "[\"text\"]", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_tools_read_clipboard (ToolsFixture  *fixture,
                           gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->parent));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AdwMessageDialog *dialog;

  gdk_clipboard_set_text (clipboard, "private words");

  /* Allowed */
  call_tool_async (fixture, "read_clipboard", "{}", NULL, &result);
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == fixture->parent);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "The agent wants to read your clipboard");
  g_assert_null (result);
  adw_message_dialog_response (dialog, "allow");
  text = call_tool_finish (fixture, "read_clipboard", &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "private words");
  g_assert_null (find_message_dialog ());
  g_clear_pointer (&text, g_free);

  /* Denied */
  call_tool_async (fixture, "read_clipboard", "{}", NULL, &result);
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "deny");
  g_assert_null (call_tool_finish (fixture, "read_clipboard", &result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_cmpstr (error->message, ==, "The user declined");
  g_assert_null (find_message_dialog ());
  g_clear_error (&error);

  /* Closed unanswered (Escape): declined too */
  call_tool_async (fixture, "read_clipboard", "{}", NULL, &result);
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_null (call_tool_finish (fixture, "read_clipboard", &result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_null (find_message_dialog ());
}

static void
test_tools_open_link (ToolsFixture  *fixture,
                      gconstpointer  data)
{
  const char *rejected[] = {
    "{\"url\":\"file:///etc/passwd\"}",
    "{\"url\":\"javascript:alert(1)\"}",
    "{\"url\":\"smb://server/share\"}",
    "{\"url\":\"not a url\"}",
    "{\"url\":\"http://\"}",
    "{}",
    "{\"url\":42}",
  };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *url = "https://example.com/<b>?q=1&x=\"2\"";
  g_autofree char *arguments = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  AdwMessageDialog *dialog;

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_test_message ("%s", rejected[i]);
      call_tool_async (fixture, "open_link", rejected[i], NULL, &result);
      g_assert_null (find_message_dialog ());
      g_assert_null (call_tool_finish (fixture, "open_link", &result, &error));
      g_assert_true (error->domain == G_IO_ERROR);
      g_assert_true (error->code == G_IO_ERROR_INVALID_ARGUMENT || error->code == G_IO_ERROR_PERMISSION_DENIED);
      g_clear_error (&error);
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  arguments = json_to_string (root, FALSE);

  call_tool_async (fixture, "open_link", arguments, NULL, &result);
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, url);
  g_assert_false (adw_message_dialog_get_body_use_markup (dialog));
  adw_message_dialog_response (dialog, "deny");
  g_assert_null (call_tool_finish (fixture, "open_link", &result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_null (find_message_dialog ());
}

static void
test_tools_cancel (ToolsFixture  *fixture,
                   gconstpointer  data)
{
  const char *asking[][2] = {
    { "read_clipboard", "{}" },
    { "open_link", "{\"url\":\"https://example.com/\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (asking); i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;

      call_tool_async (fixture, asking[i][0], asking[i][1], cancellable, &result);
      g_assert_nonnull (find_message_dialog ());
      g_cancellable_cancel (cancellable);
      g_assert_null (call_tool_finish (fixture, asking[i][0], &result, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (find_message_dialog ());

      /* Cancelled before it starts: no question at all. */
      call_tool_async (fixture, asking[i][0], asking[i][1], cancellable, &result);
      g_assert_null (find_message_dialog ());
      g_clear_error (&error);
      g_assert_null (call_tool_finish (fixture, asking[i][0], &result, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
}

static void
test_tools_parent_gone (void)
{
  GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
  g_autoptr(AguiToolRegistry) registry = tandem_desktop_tools_new (parent);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = json_from_string ("{}", NULL);
  AguiTool *tool = agui_tool_registry_lookup (registry, "read_clipboard");
  AdwMessageDialog *dialog;
  GWeakRef weak;

  g_weak_ref_init (&weak, parent);
  gtk_window_destroy (parent);
  flush_events ();
  /* The tools did not keep the window alive. */
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);

  agui_tool_execute_async (tool, arguments, NULL, agui_test_store_result_cb, &result);
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "deny");
  agui_test_wait_for_result (&result, 10000);
  g_assert_null (agui_tool_execute_finish (tool, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
}

static void
test_tools_notification (ToolsFixture  *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (call_tool (fixture, "send_notification", "{\"body\":\"no title\"}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* No registered application in this process: a clear failure. */
  g_assert_null (g_application_get_default ());
  g_assert_null (call_tool (fixture, "send_notification", "{\"title\":\"Done\",\"body\":\"All good\"}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "registered"));
}

int
main (int   argc,
      char *argv[])
{
  /* No session bus: libsecret must fail fast, as on CI. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);

  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init() leaves GTK's own warnings non-fatal; a warning is a bug. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  adw_init ();

  g_test_add_func ("/agents/demo-first", test_agents_demo_first);
  g_test_add_func ("/agents/validate", test_agents_validate);
  g_test_add_func ("/agents/round-trip", test_agents_round_trip);
  g_test_add_func ("/agents/openai", test_agents_openai);
  g_test_add_func ("/agents/remove", test_agents_remove);
  g_test_add_func ("/agents/changed", test_agents_changed);
  g_test_add_func ("/agents/active", test_agents_active);
  g_test_add_func ("/agents/token-no-keyring", test_agents_token_no_keyring);
  g_test_add_func ("/agents/lookup-token-no-keyring", test_agents_lookup_token_no_keyring);
  g_test_add_func ("/agents/transport-demo", test_agents_transport_demo);
  g_test_add_func ("/agents/transport-http", test_agents_transport_http);
  g_test_add_func ("/agents/transport-settings", test_agents_transport_settings);
  g_test_add_func ("/agents/cancelled", test_agents_cancelled);
  g_test_add_func ("/preferences/lists-agents", test_preferences_lists_agents);
  g_test_add_func ("/preferences/add-agent", test_preferences_add_agent);
  g_test_add_func ("/preferences/remove-confirms", test_preferences_remove_confirms);
  g_test_add_func ("/preferences/row-chooses-agent", test_preferences_row_chooses_agent);
  g_test_add_func ("/preferences/remove-header", test_preferences_remove_header);
  g_test_add ("/desktop-tools/registry", ToolsFixture, NULL, tools_set_up, test_tools_registry, tools_tear_down);
  g_test_add ("/desktop-tools/current-time", ToolsFixture, NULL, tools_set_up, test_tools_current_time, tools_tear_down);
  g_test_add ("/desktop-tools/copy", ToolsFixture, NULL, tools_set_up, test_tools_copy, tools_tear_down);
  g_test_add ("/desktop-tools/read-clipboard", ToolsFixture, NULL, tools_set_up, test_tools_read_clipboard, tools_tear_down);
  g_test_add ("/desktop-tools/open-link", ToolsFixture, NULL, tools_set_up, test_tools_open_link, tools_tear_down);
  g_test_add ("/desktop-tools/cancel", ToolsFixture, NULL, tools_set_up, test_tools_cancel, tools_tear_down);
  g_test_add_func ("/desktop-tools/parent-gone", test_tools_parent_gone);
  g_test_add ("/desktop-tools/notification", ToolsFixture, NULL, tools_set_up, test_tools_notification, tools_tear_down);

  return g_test_run ();
}
