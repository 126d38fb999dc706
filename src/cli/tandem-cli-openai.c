/* tandem-cli-openai.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-cli-openai.h"

/* `send` and `chat` with --openai: the same session, printer and store,
 * with a model on an OpenAI-compatible server as the agent. */
AguiTransport *
tandem_cli_openai_transport_new (const char                       *base_url,
                                 const char                       *model,
                                 const char                       *system_prompt,
                                 double                            temperature,
                                 const TandemCliTransportOptions  *options,
                                 GError                          **error)
{
  guint idle_timeout = AGUI_OPENAI_DEFAULT_IDLE_TIMEOUT;

  if (model == NULL || model[0] == '\0')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--openai needs --model MODEL; `tandem-cli models --openai %s` lists them", base_url);
      return NULL;
    }

  if (options != NULL && options->idle_timeout >= 0)
    idle_timeout = (guint) MIN ((gint64) options->idle_timeout * 1000, G_MAXUINT);

  return g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, error,
                         "base-url", base_url,
                         "model", model,
                         "headers", options != NULL ? options->headers : NULL,
                         "system-prompt", system_prompt,
                         "temperature", temperature < 0 ? -1.0 : temperature,
                         "idle-timeout", idle_timeout,
                         NULL);
}

static void
on_models_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

int
tandem_cli_models (int    argc,
                   char **argv)
{
  g_autofree char *base_url = NULL;
  g_auto(GStrv) headers = NULL;
  GOptionEntry entries[] = {
    { "openai", 0, 0, G_OPTION_ARG_STRING, &base_url, "The server's base URL", "BASE_URL" },
    { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, &headers, "Send an extra HTTP header", "'NAME: VALUE'" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(AguiOpenaiAgent) agent = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }
  if (base_url == NULL)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      g_printerr ("%s", help);
      return 2;
    }

  agent = g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, &error,
                          "base-url", base_url,
                          "headers", headers,
                          NULL);
  if (agent == NULL)
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }

  agui_openai_agent_list_models_async (agent, NULL, on_models_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  if (!(models = agui_openai_agent_list_models_finish (agent, result, &error)))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 1;
    }

  for (guint i = 0; models[i] != NULL; i++)
    g_print ("%s\n", models[i]);

  return 0;
}
