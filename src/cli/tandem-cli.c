/* tandem-cli.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "agui.h"
#include "agui-agent-session-private.h"
#include "agui-json-private.h"

#include "tandem-bench.h"
#include "tandem-cli-fold.h"
#include "tandem-cli-openai.h"
#include "tandem-cli-send.h"
#include "tandem-conform.h"

static const char usage[] =
  "Usage: tandem-cli COMMAND [ARGS...]\n"
  "\n"
  "Commands:\n"
  "  events [FILE|-]          Decode an SSE body and print each checked event as JSON\n"
  "                           (--max-frame-size SIZE accepts larger events, as for send)\n"
  "  fold [FILE|-]            Fold an SSE body into a transcript and print it as JSON\n"
  "                           (--max-frame-size SIZE likewise; --max-state-size SIZE\n"
  "                           caps the state, 8M by default)\n"
  "  conform FIXTURE.json...  Run reference fixtures and compare with the reference client\n"
  "  bench fold FILE          Measure folding a stream against the previous parser:\n"
  "                           events/s (CPU, wall), MB/s, peak memory\n"
  "  bench state [COUNT]      Time patch inserts, rollback, steps and printing\n"
  "  send URL|--demo MESSAGE  Send a message to an agent and print the answer as it streams\n"
  "  chat URL|--demo          Chat with an agent at the terminal\n"
  "  models --openai BASE_URL List the models of an OpenAI-compatible server\n"
  "  threads --store PATH      List the stored conversations, newest first\n"
  "  show THREAD --store PATH  Print a stored conversation (--markdown, --json or --export;\n"
  "                            the chosen branch, or every one with --all-branches)\n"
  "  import FILE --store PATH  Add a conversation exported with show --export, as a new thread\n"
  "\n"
  "send and chat keep the conversation with --store PATH and continue one with --thread ID.\n"
  "With --openai BASE_URL --model MODEL instead of URL they talk to a model on an\n"
  "OpenAI-compatible server (Ollama http://localhost:11434/v1, llama.cpp\n"
  "http://localhost:8080/v1, LM Studio http://localhost:1234/v1).\n";

/* g_print() converts to the locale's charset; JSON output stays UTF-8
 * whatever the locale, or a C locale would turn every é into '?'. */
static void
print_utf8 (const char *text)
{
  fputs (text, stdout);
  fputc ('\n', stdout);
}

static int
command_conform (int    argc,
                 char **argv)
{
  g_autoptr(GHashTable) deviations = NULL;
  g_autoptr(GBytes) table = NULL;
  guint passed = 0, failed = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: tandem-cli conform FIXTURE.json...\n");
      return 2;
    }

  table = g_resources_lookup_data ("/io/github/tandemdesk/Tandem/cli/conformance-deviations.md", 0, NULL);
  if (table != NULL)
    deviations = tandem_conform_load_deviations (g_bytes_get_data (table, NULL), NULL);

  for (int i = 1; i < argc; i++)
    {
      g_auto(TandemConformResult) result = { 0 };
      g_autoptr(GError) error = NULL;
      g_autofree char *base = g_path_get_basename (argv[i]);

      if (!tandem_conform_run (argv[i], deviations, &result, &error))
        {
          g_print ("FAIL %s: %s\n", base, error->message);
          failed++;
          continue;
        }

      switch (result.verdict)
        {
        case TANDEM_CONFORM_PASS:
          g_print ("PASS %s\n", result.name);
          passed++;
          break;

        case TANDEM_CONFORM_DEVIATION:
          g_print ("PASS %s (documented deviation: %s)\n", result.name, result.deviation);
          passed++;
          break;

        case TANDEM_CONFORM_FAIL:
        default:
          g_print ("FAIL %s\n%s", result.name, result.diff->str);
          failed++;
          break;
        }
    }

  g_print ("%u passed, %u failed\n", passed, failed);

  return failed > 0 ? 1 : 0;
}

typedef struct
{
  char     **headers;
  gboolean   demo;
  gboolean   json;
  gboolean   approve;
  gboolean   deny;
  char      *answers;
  char      *thread;
  char      *store;
  int        idle_timeout;
  int        deadline;
  char      *max_frame_size;
  char      *encoding;
  char      *openai;
  char      *model;
  char      *system_prompt;
  double     temperature;
} SessionOptions;

static void
session_options_clear (SessionOptions *options)
{
  g_strfreev (options->headers);
  g_free (options->answers);
  g_free (options->thread);
  g_free (options->store);
  g_free (options->max_frame_size);
  g_free (options->encoding);
  g_free (options->openai);
  g_free (options->model);
  g_free (options->system_prompt);
}

static AguiAgentSession *
open_session (const char      *url,
              SessionOptions  *options,
              GError         **error)
{
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(AguiToolRegistry) tools = tandem_cli_tools_new ();
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  TandemCliTransportOptions transport_options = {
    .headers = (const char * const *) options->headers,
    .idle_timeout = options->idle_timeout,
    .deadline = options->deadline,
  };

  if (options->idle_timeout < -1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--idle-timeout takes seconds, 0 for none, not %d", options->idle_timeout);
      return NULL;
    }
  if (options->deadline < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--deadline takes seconds, 0 for none, not %d", options->deadline);
      return NULL;
    }
  if (options->max_frame_size != NULL &&
      !tandem_cli_parse_size (options->max_frame_size, &transport_options.max_frame_size, error))
    return NULL;
  if (options->encoding != NULL &&
      !tandem_cli_parse_encoding (options->encoding, &transport_options.encoding, error))
    return NULL;

  if (options->openai != NULL)
    transport = tandem_cli_openai_transport_new (options->openai, options->model, options->system_prompt,
                                                 options->temperature, &transport_options, error);
  else
    transport = tandem_cli_transport_new (options->demo ? NULL : url, &transport_options, error);
  if (transport == NULL)
    return NULL;

  if (options->store != NULL && !(store = agui_session_store_new (options->store, error)))
    return NULL;

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", transport, "thread-id", options->thread, "tools", tools, "store", store, "agent", options->demo ? "demo" : options->openai ? options->openai : url, NULL);

  /* Continuing a stored thread: it reopens as it was, interrupts included. */
  if (store != NULL && options->thread != NULL && !_agui_agent_session_restore (session, error))
    return NULL;

  return g_steal_pointer (&session);
}

static int
command_session (int      argc,
                 char   **argv,
                 gboolean chat)
{
  SessionOptions options = { .idle_timeout = -1, .temperature = -1.0 };
  GOptionEntry entries[] = {
    { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, &options.headers, "Send an extra HTTP header", "'NAME: VALUE'" },
    { "demo", 0, 0, G_OPTION_ARG_NONE, &options.demo, "Talk to the built-in demo agent", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json, "Print the final transcript as JSON instead", NULL },
    { "approve", 0, 0, G_OPTION_ARG_NONE, &options.approve, "Approve every interrupt", NULL },
    { "deny", 0, 0, G_OPTION_ARG_NONE, &options.deny, "Deny every interrupt", NULL },
    { "answers", 0, 0, G_OPTION_ARG_FILENAME, &options.answers, "Answer interrupts from a JSON object keyed by interrupt id", "FILE" },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &options.thread, "The thread id", "ID" },
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &options.store, "Keep the conversation in this database", "PATH" },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &options.idle_timeout,
      "Give up when the agent sends nothing for this long (default 300; 0 waits forever)", "SECONDS" },
    { "deadline", 0, 0, G_OPTION_ARG_INT, &options.deadline,
      "Give up on a run still going after this long, even one the agent keeps alive (default 0, none)", "SECONDS" },
    { "max-frame-size", 0, 0, G_OPTION_ARG_STRING, &options.max_frame_size,
      "Accept events up to this size (default 8M)", "SIZE" },
    { "encoding", 0, 0, G_OPTION_ARG_STRING, &options.encoding,
      "Ask for sse (text, the default) or protobuf (binary) events", "ENCODING" },
    { "openai", 0, 0, G_OPTION_ARG_STRING, &options.openai,
      "Talk to a model on an OpenAI-compatible server instead of an agent", "BASE_URL" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &options.model, "The model to ask, with --openai", "MODEL" },
    { "system", 0, 0, G_OPTION_ARG_STRING, &options.system_prompt, "The system prompt, with --openai", "TEXT" },
    { "temperature", 0, 0, G_OPTION_ARG_DOUBLE, &options.temperature, "The temperature, with --openai", "T" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (chat ? "URL|--demo|--openai BASE_URL" : "URL|--demo|--openai BASE_URL MESSAGE");
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *url = NULL, *message = NULL;
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      session_options_clear (&options);
      return 2;
    }

  if (options.demo || options.openai != NULL)
    message = argc > 1 ? argv[1] : NULL;
  else
    {
      url = argc > 1 ? argv[1] : NULL;
      message = argc > 2 ? argv[2] : NULL;
    }

  if ((!options.demo && options.openai == NULL && url == NULL) || (!chat && message == NULL))
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      g_printerr ("%s", help);
      session_options_clear (&options);
      return 2;
    }

  session = open_session (url, &options, &error);
  if (session == NULL)
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      session_options_clear (&options);
      return 2;
    }

  if (options.store != NULL && !options.json)
    g_printerr ("thread %s\n", agui_agent_session_get_thread_id (session));

  if (chat)
    status = tandem_cli_chat (session);
  else
    status = tandem_cli_send (session, message,
                              options.approve ? "approve" : options.deny ? "deny" : NULL,
                              options.answers, options.json);

  session_options_clear (&options);

  return status;
}

static int
command_threads (int    argc,
                 char **argv)
{
  g_autofree char *store_path = NULL;
  g_autofree char *search = NULL;
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store_path, "The database", "PATH" },
    { "search", 0, 0, G_OPTION_ARG_STRING, &search, "Only threads whose title or messages contain TEXT", "TEXT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(JsonArray) threads = NULL;
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }

  if (!(store = agui_session_store_new (store_path, &error)) ||
      !(threads = agui_session_store_list_threads (store, search, &error)))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 1;
    }

  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);
      g_autoptr(GDateTime) updated = g_date_time_new_from_unix_local (json_object_get_int_member (thread, "updated") / G_USEC_PER_SEC);
      g_autofree char *when = g_date_time_format (updated, "%Y-%m-%d %H:%M");
      g_autofree char *line = g_strdup_printf ("%s  %s  %s", json_object_get_string_member (thread, "id"), when,
                                               json_object_get_string_member_with_default (thread, "title", ""));

      print_utf8 (line);
    }

  return 0;
}

static int
command_show (int    argc,
              char **argv)
{
  g_autofree char *store_path = NULL;
  gboolean markdown = FALSE, json = FALSE, export = FALSE, all_branches = FALSE;
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store_path, "The database", "PATH" },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, "Print it as Markdown (the default)", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the reopened transcript as tandem-cli send --json does", NULL },
    { "export", 0, 0, G_OPTION_ARG_NONE, &export, "Print the JSON export: messages, state and event log", NULL },
    { "all-branches", 0, 0, G_OPTION_ARG_NONE, &all_branches,
      "Print every branch (regenerated answers, edited messages), not only the chosen one", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("THREAD");
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *thread;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2)
    {
      g_printerr ("tandem-cli: %s\n", error ? error->message : "which thread? (tandem-cli threads lists them)");
      return 2;
    }
  thread = argv[1];

  if (!(store = agui_session_store_new (store_path, &error)) ||
      !agui_session_store_get_thread (store, thread, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 1;
    }

  if (json)
    {
      /* Reopen it as the app would, and print what it draws. */
      g_autoptr(AguiDemoAgent) unused = agui_demo_agent_new ();
      g_autoptr(AguiAgentSession) session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (unused), "thread-id", thread, "tools", NULL, "store", store, "agent", NULL, NULL);
      g_autoptr(JsonNode) output = NULL;

      if (!_agui_agent_session_restore (session, &error))
        {
          g_printerr ("tandem-cli: %s\n", error->message);
          return 1;
        }
      output = tandem_cli_transcript_json (agui_agent_session_get_transcript (session), NULL);
      if (all_branches && JSON_NODE_HOLDS_OBJECT (output))
        {
          AguiTranscript *transcript = agui_agent_session_get_transcript (session);
          JsonArray *branches = json_array_new ();

          for (guint i = 0; i < agui_transcript_get_n_branches (transcript); i++)
            json_array_add_array_element (branches, agui_transcript_dup_branch_messages (transcript, i));
          json_object_set_array_member (json_node_get_object (output), "branches", branches);
        }
      text = _agui_json_to_string (output, TRUE, &error);
    }
  else if (export && !all_branches)
    {
      /* Row by row to the output, whatever the thread's length */
      g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

      if (!agui_session_store_export_to_stream (store, thread, out, NULL, &error) ||
          !g_output_stream_write_all (out, "\n", 1, NULL, NULL, &error))
        {
          g_printerr ("tandem-cli: %s\n", error->message);
          return 1;
        }
      return 0;
    }
  else if (export)
    {
      g_autoptr(JsonNode) output = agui_session_store_export_json (store, thread, &error);
      g_autoptr(JsonArray) branches = NULL;

      if (output != NULL && all_branches &&
          !(branches = agui_session_store_list_branches (store, thread, &error)))
        g_clear_pointer (&output, json_node_unref);
      if (branches != NULL)
        json_object_set_array_member (json_node_get_object (output), "branches", g_steal_pointer (&branches));
      if (output != NULL)
        text = _agui_json_to_string (output, TRUE, &error);
    }
  else if (all_branches)
    {
      text = agui_session_store_export_branches_markdown (store, thread, &error);
    }
  else
    {
      text = agui_session_store_export_markdown (store, thread, &error);
    }

  if (text == NULL)
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 1;
    }

  print_utf8 (text);

  return 0;
}

static int
command_import (int    argc,
                char **argv)
{
  g_autofree char *store_path = NULL;
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store_path, "The database", "PATH" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2)
    {
      g_printerr ("tandem-cli: %s\n", error ? error->message : "which file?");
      return 2;
    }

  /* Read as it is imported, a message and an event at a time */
  if (g_str_equal (argv[1], "-"))
    {
      input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[1]);

      input = G_INPUT_STREAM (g_file_read (file, NULL, &error));
    }

  if (input == NULL ||
      !(store = agui_session_store_new (store_path, &error)) ||
      !(id = agui_session_store_import_stream (store, input, NULL, &error)))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 1;
    }

  print_utf8 (id);

  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc < 2)
    {
      g_printerr ("%s", usage);
      return 2;
    }

  if (g_str_equal (argv[1], "events"))
    return tandem_cli_events (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "fold"))
    return tandem_cli_fold (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "conform"))
    return command_conform (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "bench"))
    return tandem_bench_command (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "send"))
    return command_session (argc - 1, argv + 1, FALSE);
  if (g_str_equal (argv[1], "chat"))
    return command_session (argc - 1, argv + 1, TRUE);
  if (g_str_equal (argv[1], "models"))
    return tandem_cli_models (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "threads"))
    return command_threads (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "show"))
    return command_show (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "import"))
    return command_import (argc - 1, argv + 1);

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "help"))
    {
      g_print ("%s", usage);
      return 0;
    }

  g_printerr ("tandem-cli: unknown command '%s'\n\n%s", argv[1], usage);

  return 2;
}
