/* tandem-cli-fold.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>

#include "agui.h"
#include "agui-event-parser-private.h"
#include "agui-event-private.h"
#include "agui-http-errors-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"

#include "tandem-cli-fold.h"
#include "tandem-cli-send.h"

/* `events` and `fold`: an SSE body read from a file or stdin, in blocks,
 * through the pipeline a session uses, and printed as it is made. Neither
 * the body nor the output is ever whole in memory: a fold of a 250 MB
 * body holds what the transcript holds, and a block of each. */

/* What a read takes from the file, and what the pipeline is given at a
 * time: the network's few kilobytes, which the decoder's frame-cap error
 * counts in (it names how far the frame had grown). */
#define READ_SIZE (256 * 1024)
#define PUSH_SIZE 4096

/* Output is written once this much is waiting. */
#define WRITE_SIZE (64 * 1024)

/* A hostile stream may hold a million bad frames: the first few are
 * shown, the rest counted and summarised at the end. */
#define SHOWN_SKIPS 3

typedef struct
{
  guint64  count;
  char    *first;
} Skipped;

static void
print_item_error_cb (const GError *error,
                     gpointer      user_data)
{
  Skipped *skipped = user_data;

  if (skipped->count++ == 0)
    skipped->first = g_strdup (error->message);
  if (skipped->count <= SHOWN_SKIPS)
    g_printerr ("tandem-cli: skipped a frame: %s\n", error->message);
}

static void
skipped_finish (Skipped *skipped)
{
  if (skipped->count > SHOWN_SKIPS)
    {
      g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, skipped->count);
      g_autoptr(GString) count = g_string_new (NULL);
      gsize length = strlen (digits);

      /* Grouped as the issue reports read, whatever the locale. */
      for (gsize i = 0; i < length; i++)
        {
          if (i > 0 && (length - i) % 3 == 0)
            g_string_append_c (count, ',');
          g_string_append_c (count, digits[i]);
        }

      g_printerr ("tandem-cli: skipped %s malformed frames; the first: %s\n", count->str, skipped->first);
    }
  g_clear_pointer (&skipped->first, g_free);
}

/* g_print() converts to the locale's charset; JSON output stays UTF-8
 * whatever the locale, or a C locale would turn every é into '?'. */
static void
write_out (GString *text)
{
  fwrite (text->str, 1, text->len, stdout);
  g_string_truncate (text, 0);
}

static GInputStream *
open_input (const char  *path,
            GError     **error)
{
  g_autoptr(GFile) file = NULL;

  if (path == NULL || g_str_equal (path, "-"))
    return g_unix_input_stream_new (STDIN_FILENO, FALSE);

  file = g_file_new_for_commandline_arg (path);

  return G_INPUT_STREAM (g_file_read (file, NULL, error));
}

/* Feeds @input through @pipeline as it would arrive from a network, in
 * pieces of a few kilobytes, until the end or until the pipeline fails.
 * FALSE only when @input could not be read. */
static gboolean
feed (AguiPipeline  *pipeline,
      GInputStream  *input,
      GError       **error)
{
  g_autofree guint8 *block = g_malloc (READ_SIZE);
  gssize got;

  while ((got = g_input_stream_read (input, block, READ_SIZE, NULL, error)) > 0)
    {
      for (gsize offset = 0; offset < (gsize) got; offset += PUSH_SIZE)
        if (!_agui_pipeline_push_bytes (pipeline, block + offset, MIN (PUSH_SIZE, (gsize) got - offset)))
          return TRUE;
    }

  if (got < 0)
    return FALSE;

  _agui_pipeline_finish (pipeline);

  return TRUE;
}

/* `events` and `fold` read a body as `send` reads an answer: with
 * --max-frame-size. Returns the input's path (NULL for stdin) and 0, or
 * the exit status of a bad command line. */
static int
parse_read_options (const char    *name,
                    int           *argc,
                    char        ***argv,
                    gboolean      *reference,
                    gboolean      *tree,
                    gsize         *max_frame_size,
                    gsize         *max_state_size,
                    const char   **path)
{
  g_autofree char *size = NULL;
  g_autofree char *state_size = NULL;
  GOptionEntry entries[] = {
    { "max-frame-size", 0, 0, G_OPTION_ARG_STRING, &size,
      "Accept events up to this size (default 8M)", "SIZE" },
    /* For the differential tests: the json-glib parser the fast one
     * replaced, which must fold every stream to the same bytes. */
    { "reference", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, reference, NULL, NULL },
    /* fold only, for the same tests: the output built whole as a tree
     * and printed at the end, as before it was streamed */
    { "tree", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, tree, NULL, NULL },
    /* fold only: what the state may grow to */
    { "max-state-size", 0, 0, G_OPTION_ARG_STRING, &state_size,
      "Refuse state and activity patches that would grow past SIZE (8M by default)", "SIZE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILE|-]");
  g_autoptr(GError) error = NULL;

  g_option_context_set_summary (context, g_str_equal (name, "events")
                                         ? "Decode an SSE body and print each checked event as JSON."
                                         : "Fold an SSE body into a transcript and print it as JSON.");
  if (max_state_size == NULL)
    entries[2] = (GOptionEntry) { NULL };
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error) ||
      (size != NULL && !tandem_cli_parse_size (size, max_frame_size, &error)) ||
      (state_size != NULL && !tandem_cli_parse_size (state_size, max_state_size, &error)))
    {
      g_printerr ("tandem-cli %s: %s\n", name, error->message);
      return 2;
    }
  if (*argc > 2)
    {
      g_printerr ("tandem-cli %s: one input at most, not '%s' as well\n", name, (*argv)[2]);
      return 2;
    }

  *path = *argc > 1 ? (*argv)[1] : NULL;

  return 0;
}

/* What stopped the pipeline; a frame over the cap is said as `send`
 * says it, naming the option that raises the cap. */
static GError *
pipeline_dup_error (AguiPipeline *pipeline)
{
  const GError *failure = _agui_pipeline_get_error (pipeline);
  gsize overflow = _agui_pipeline_get_overflow_size (pipeline);

  if (failure == NULL)
    return NULL;

  if (overflow > 0)
    return _agui_http_error_new_frame_cap (overflow, TRUE, _agui_pipeline_get_max_frame_size (pipeline));

  return g_error_copy (failure);
}

/* Prints @event on a line, or says why it cannot be printed: never
 * invalid JSON. */
static void
print_event_cb (AguiEvent *event,
                gpointer   user_data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if (!_agui_event_append_json (event, text, &error))
    {
      g_printerr ("tandem-cli: cannot print the result as JSON: %s\n", error->message);
      return;
    }

  g_string_append_c (text, '\n');
  fwrite (text->str, 1, text->len, stdout);
}

int
tandem_cli_events (int    argc,
                   char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(AguiPipeline) pipeline = NULL;
  Skipped skipped = { 0 };
  gboolean reference = FALSE;
  gsize max_frame_size = 0;
  const char *path = NULL;
  int status;

  if ((status = parse_read_options ("events", &argc, &argv, &reference, NULL, &max_frame_size, NULL, &path)) != 0)
    return status;

  _agui_event_parser_set_reference_by_default (reference);
  if (!(input = open_input (path, &error)))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }

  pipeline = _agui_pipeline_new (NULL);
  _agui_pipeline_set_max_frame_size (pipeline, max_frame_size);
  _agui_pipeline_set_callbacks (pipeline, print_event_cb, print_item_error_cb, &skipped);
  if (!feed (pipeline, input, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }
  skipped_finish (&skipped);

  error = pipeline_dup_error (pipeline);
  if (error == NULL)
    return 0;

  g_printerr ("tandem-cli: %s failed: %s\n",
              agui_stage_to_string (agui_stage_from_error (error)), error->message);

  return 1;
}

/* What the reducer ignored, such as a refused STATE_DELTA: on stderr as
 * it happens, the first few, and all of them in the output's "warnings". */
static void
print_warning_cb (AguiReducer *reducer,
                  const char  *message,
                  gpointer     user_data)
{
  guint *count = user_data;

  if ((*count)++ < SHOWN_SKIPS)
    g_printerr ("tandem-cli: warning: %s\n", message);
}

/* The output as it was before it was streamed, for the tests to compare:
 * one tree, printed whole. */
static gboolean
print_tree (AguiTranscript *transcript,
            const GError   *failure,
            GPtrArray      *warnings)
{
  g_autoptr(JsonNode) output = tandem_cli_transcript_json (transcript, failure);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *warnings_json = json_array_sized_new (warnings->len);

  for (guint i = 0; i < warnings->len; i++)
    json_array_add_string_element (warnings_json, g_ptr_array_index (warnings, i));
  json_object_set_array_member (json_node_get_object (output), "warnings", warnings_json);

  if (!(text = _agui_json_to_string (output, TRUE, &error)))
    {
      g_printerr ("tandem-cli: cannot print the result as JSON: %s\n", error->message);
      return FALSE;
    }

  fputs (text, stdout);
  fputc ('\n', stdout);

  return TRUE;
}

static void
append_member_name (GString    *text,
                    const char *name,
                    gboolean    first)
{
  g_string_append (text, first ? "{\n  " : ",\n  ");
  _agui_json_append_string (text, name);
  g_string_append (text, " : ");
}

/* Message @index of @transcript projected as a tree and printed at @level */
static gboolean
append_projected (GString         *text,
                  AguiTranscript  *transcript,
                  guint            index,
                  guint            level,
                  GError         **error)
{
  g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;

  _agui_transcript_get_record_message (transcript, index, &message);

  return _agui_json_value_append (text, &message, TRUE, level, error);
}

/* Appends message @index of @transcript, printed at @level: straight
 * from its record when it is of a plain shape, else from its projection
 * (in a function of its own, so that the plain path sets up no tree). */
static gboolean
append_message (GString         *text,
                AguiTranscript  *transcript,
                guint            index,
                guint            level,
                GError         **error)
{
  if (_agui_record_append_message (_agui_transcript_get_record (transcript, index), text, level))
    return TRUE;

  return append_projected (text, transcript, index, level, error);
}

/* What tandem_cli_transcript_json () builds, with the warnings after it,
 * printed as print_tree () prints it, byte for byte, but a message at a
 * time. Everything that could fail to print (too deep) is tried before
 * the first byte goes out, so that the output is whole or nothing, as
 * before: the members after the messages are printed first and kept,
 * and every message not of a plain shape is printed once and dropped. */
static gboolean
print_streamed (AguiTranscript *transcript,
                const GError   *failure,
                GPtrArray      *warnings)
{
  g_autoptr(JsonNode) run = tandem_cli_transcript_run_json (transcript, failure);
  g_autoptr(GString) text = g_string_sized_new (WRITE_SIZE + 4096);
  g_autoptr(GString) tail = g_string_new (NULL);
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (run));
  guint n_messages = agui_transcript_get_n_ag_ui_messages (transcript);
  g_autoptr(GError) error = NULL;

  append_member_name (tail, "state", FALSE);
  if (!_agui_json_value_append (tail, _agui_transcript_get_state_doc (transcript), TRUE, 1, &error))
    goto failed;
  for (const GList *l = names; l != NULL; l = l->next)
    {
      append_member_name (tail, l->data, FALSE);
      if (!_agui_json_append_pretty (tail, json_object_get_member (json_node_get_object (run), l->data), 1, &error))
        goto failed;
    }

  for (guint i = 0; i < n_messages; i++)
    {
      if (_agui_record_append_message (_agui_transcript_get_record (transcript, i), NULL, 2))
        continue;
      if (!append_message (text, transcript, i, 2, &error))
        goto failed;
      g_string_truncate (text, 0);
    }

  append_member_name (text, "messages", TRUE);
  g_string_append_c (text, '[');
  for (guint i = 0; i < n_messages; i++)
    {
      g_string_append (text, i == 0 ? "\n    " : ",\n    ");
      if (!append_message (text, transcript, i, 2, &error))
        g_assert_not_reached ();
      if (text->len >= WRITE_SIZE)
        write_out (text);
    }
  if (n_messages > 0)
    g_string_append (text, "\n  ");
  g_string_append_c (text, ']');
  g_string_append_len (text, tail->str, tail->len);

  append_member_name (text, "warnings", FALSE);
  g_string_append_c (text, '[');
  for (guint i = 0; i < warnings->len; i++)
    {
      g_string_append (text, i == 0 ? "\n    " : ",\n    ");
      _agui_json_append_string (text, g_ptr_array_index (warnings, i));
      if (text->len >= WRITE_SIZE)
        write_out (text);
    }
  if (warnings->len > 0)
    g_string_append (text, "\n  ");
  g_string_append (text, "]\n}\n");
  write_out (text);

  return TRUE;

failed:
  g_printerr ("tandem-cli: cannot print the result as JSON: %s\n", error->message);
  return FALSE;
}

static AguiReducer  *folded_reducer;
static AguiPipeline *folded_pipeline;

int
tandem_cli_fold (int    argc,
                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(AguiReducer) reducer = NULL;
  g_autoptr(AguiPipeline) pipeline = NULL;
  gsize max_size = AGUI_JSON_DOC_DEFAULT_MAX_SIZE;
  Skipped skipped = { 0 };
  gboolean reference = FALSE;
  gboolean tree = FALSE;
  gsize max_frame_size = 0;
  const char *path = NULL;
  guint n_warnings = 0;
  gboolean printed;
  int status;

  if ((status = parse_read_options ("fold", &argc, &argv, &reference, &tree, &max_frame_size, &max_size, &path)) != 0)
    return status;

  _agui_event_parser_set_reference_by_default (reference);
  if (!(input = open_input (path, &error)))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }

  reducer = _agui_reducer_new (NULL);
  _agui_reducer_set_max_state_size (reducer, max_size);
  g_signal_connect (reducer, "warning", G_CALLBACK (print_warning_cb), &n_warnings);
  pipeline = _agui_pipeline_new (reducer);
  _agui_pipeline_set_max_frame_size (pipeline, max_frame_size);
  _agui_pipeline_set_callbacks (pipeline, NULL, print_item_error_cb, &skipped);
  if (!feed (pipeline, input, &error))
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      return 2;
    }
  g_clear_object (&input);
  skipped_finish (&skipped);
  if (n_warnings > SHOWN_SKIPS)
    g_printerr ("tandem-cli: %u warnings in all, listed in the output\n", n_warnings);

  error = pipeline_dup_error (pipeline);
  if (tree)
    printed = print_tree (_agui_reducer_get_transcript (reducer), error, _agui_reducer_get_warnings (reducer));
  else
    printed = print_streamed (_agui_reducer_get_transcript (reducer), error, _agui_reducer_get_warnings (reducer));
  fflush (stdout);

  /* The process ends here, and what the fold built goes with it: freed a
   * record at a time, a long run's took an eighth of the command. Kept
   * reachable, so that leak checkers do not count it (git's UNLEAK). */
  folded_reducer = g_steal_pointer (&reducer);
  folded_pipeline = g_steal_pointer (&pipeline);

  if (!printed)
    return 1;

  return error != NULL ? 1 : 0;
}
