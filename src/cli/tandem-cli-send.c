/* tandem-cli-send.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "agui.h"
#include "agui-interrupt-description-private.h"
#include "agui-interrupt-private.h"
#include "agui-run-state-private.h"
#include "agui-json-private.h"
#include "agui-transcript-private.h"

#include "tandem-cli-send.h"

/* SGR faint and back to normal intensity. */
#define DIM "\033[2m"
#define NORMAL "\033[22m"

/* `tandem-cli send` and `tandem-cli chat`: a session on a terminal. The
 * answer is printed as it streams by watching the transcript, exactly as
 * the window does. */

/* A MESSAGES_SNAPSHOT rebuilds the transcript: the rows and parts it
 * shows are new objects with the text that was already printed. So
 * what was printed is kept by what it belongs to, not by object: the
 * text of each message id (and kind), the last status of each tool call,
 * the activities. Parts and rows are watched while they are shown, and
 * held by a reference while they are. */

typedef struct
{
  char  *key;       /* into Printer.texts: the kind and the message id */
  gsize  start;     /* where the part's text starts in what its message printed */
} PartState;

typedef struct
{
  AguiAgentSession *session;
  GMainLoop        *loop;
  GPtrArray        *rows;         /* the transcript's rows, as it has them */
  GHashTable       *parts;        /* AguiPart (a reference) → PartState */
  GHashTable       *texts;        /* key → GString: the text printed for it */
  GHashTable       *tool_status;  /* tool call id → the status printed last, + 1 */
  GHashTable       *activities;   /* message ids whose activity was announced */
  GAsyncResult     *result;
  char             *last_key;     /* the text printed last */
  gboolean          last_reasoning;
  gboolean          quiet;
  gboolean          at_line_start;
  gboolean          dim;           /* a terminal that shows reasoning faint */
} Printer;

static void
part_state_free (PartState *state)
{
  if (state == NULL)
    return;

  g_free (state->key);
  g_free (state);
}

static void
print_raw (Printer    *printer,
           const char *text)
{
  gsize length = strlen (text);

  if (printer->quiet || length == 0)
    return;

  fwrite (text, 1, length, stdout);
  fflush (stdout);
  printer->at_line_start = text[length - 1] == '\n';
}

/* A terminal escape: it moves no cursor, so the line state stays. */
static void
print_escape (Printer    *printer,
              const char *escape)
{
  if (printer->quiet || !printer->dim)
    return;

  fputs (escape, stdout);
  fflush (stdout);
}

static void
print_note (Printer    *printer,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
print_note (Printer    *printer,
            const char *format,
            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  if (printer->quiet)
    return;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  if (!printer->at_line_start)
    print_raw (printer, "\n");
  print_raw (printer, text);
  print_raw (printer, "\n");
}

static const char *
part_get_text (AguiPart *part,
               gsize    *length)
{
  const char *text;

  if (AGUI_IS_TEXT_PART (part))
    {
      *length = agui_text_part_get_length (AGUI_TEXT_PART (part));
      return agui_text_part_get_text (AGUI_TEXT_PART (part));
    }

  /* Reasoning is short; its length is not kept. */
  text = agui_reasoning_part_get_text (AGUI_REASONING_PART (part));
  *length = strlen (text);

  return text;
}

static void
on_text_changed (AguiPart   *part,
                 GParamSpec *pspec,
                 Printer    *printer)
{
  PartState *state = g_hash_table_lookup (printer->parts, part);
  gboolean reasoning = AGUI_IS_REASONING_PART (part);
  GString *printed;
  const char *text;
  gsize length;
  gsize done;

  g_assert (state != NULL);

  printed = g_hash_table_lookup (printer->texts, state->key);
  text = part_get_text (part, &length);

  /* Only the new bytes: O(delta) per event, as in the window. */
  done = printed->len > state->start ? printed->len - state->start : 0;
  if (length <= done)
    return;

  /* Reasoning is a labelled block, the answer starts after a blank
   * line: run together, "…ask the desktop for the time.Hello!" reads
   * as one sentence. */
  if (g_strcmp0 (state->key, printer->last_key) != 0)
    {
      if (reasoning)
        {
          if (!printer->at_line_start)
            print_raw (printer, "\n");
          print_escape (printer, DIM);
          print_raw (printer, "[reasoning]\n");
          print_escape (printer, NORMAL);
        }
      else if (printer->last_reasoning)
        {
          if (!printer->at_line_start)
            print_raw (printer, "\n");
          print_raw (printer, "\n");
        }
      g_free (printer->last_key);
      printer->last_key = g_strdup (state->key);
      printer->last_reasoning = reasoning;
    }

  if (reasoning)
    print_escape (printer, DIM);
  print_raw (printer, text + done);
  if (reasoning)
    print_escape (printer, NORMAL);

  g_string_truncate (printed, MIN (printed->len, state->start));
  g_string_append_len (printed, text, length);
}

static const char *
status_name (AguiToolCallStatus status)
{
  switch (status)
    {
    case AGUI_TOOL_CALL_STREAMING:         return "streaming";
    case AGUI_TOOL_CALL_AWAITING_RESULT:   return "awaiting result";
    case AGUI_TOOL_CALL_AWAITING_APPROVAL: return "awaiting approval";
    case AGUI_TOOL_CALL_COMPLETE:          return "complete";
    case AGUI_TOOL_CALL_FAILED:            return "failed";
    case AGUI_TOOL_CALL_APPROVED:          return "approved";
    case AGUI_TOOL_CALL_APPROVED_EDITED:   return "approved with changes";
    case AGUI_TOOL_CALL_DENIED:            return "denied";
    case AGUI_TOOL_CALL_CANCELLED:         return "cancelled";
    case AGUI_TOOL_CALL_DECLINED:          return "declined";
    case AGUI_TOOL_CALL_EXPIRED:           return "expired";
    case AGUI_TOOL_CALL_NO_RESULT:         return "no result";
    default:                               return "?";
    }
}

static void
on_tool_status (AguiToolCallPart *part,
                GParamSpec       *pspec,
                Printer          *printer)
{
  AguiToolCallStatus status = agui_tool_call_part_get_status (part);
  const char *id = agui_tool_call_part_get_tool_call_id (part);
  gpointer printed;

  if (status == AGUI_TOOL_CALL_STREAMING)
    return;

  /* A snapshot's copy of a call says again what was said of it. */
  if (id != NULL && g_hash_table_lookup_extended (printer->tool_status, id, NULL, &printed) &&
      GPOINTER_TO_INT (printed) == (int) status + 1)
    return;
  if (id != NULL)
    g_hash_table_insert (printer->tool_status, g_strdup (id), GINT_TO_POINTER ((int) status + 1));

  if (status == AGUI_TOOL_CALL_COMPLETE || status == AGUI_TOOL_CALL_FAILED)
    print_note (printer, "[tool] %s → %s: %s",
                agui_tool_call_part_get_tool_name (part), status_name (status),
                agui_tool_call_part_get_error (part) ? agui_tool_call_part_get_error (part)
                                                     : agui_tool_call_part_get_result (part));
  else
    print_note (printer, "[tool] %s(%s) %s",
                agui_tool_call_part_get_tool_name (part),
                agui_tool_call_part_get_arguments (part),
                status_name (status));
}

/* Where @part's text starts in all its message printed of that kind:
 * after the part before it of the same message in @parts (text, a tool
 * call, more text), or at the beginning. */
static gsize
part_start (Printer    *printer,
            GListModel *parts,
            guint       position,
            AguiPart   *part,
            const char *key)
{
  for (guint i = position; i > 0; i--)
    {
      g_autoptr(AguiPart) before = g_list_model_get_item (parts, i - 1);
      PartState *state = g_hash_table_lookup (printer->parts, before);
      gsize length;

      if (state != NULL && g_str_equal (state->key, key) &&
          G_OBJECT_TYPE (before) == G_OBJECT_TYPE (part))
        {
          part_get_text (before, &length);
          return state->start + length;
        }
    }

  return 0;
}

static void
watch_text (Printer    *printer,
            GListModel *parts,
            guint       position,
            AguiPart   *part)
{
  PartState *state = g_new0 (PartState, 1);
  const char *message_id = agui_part_get_message_id (part);
  GString *printed;
  const char *text;
  gsize length;
  gsize same = 0;

  state->key = g_strconcat (AGUI_IS_REASONING_PART (part) ? "reasoning:" : "text:",
                            message_id ? message_id : "", NULL);
  state->start = part_start (printer, parts, position, part, state->key);
  g_hash_table_insert (printer->parts, g_object_ref (part), state);

  printed = g_hash_table_lookup (printer->texts, state->key);
  if (printed == NULL)
    {
      printed = g_string_new (NULL);
      g_hash_table_insert (printer->texts, g_strdup (state->key), printed);
    }

  /* A part made again by a snapshot brings text that was printed; if the
   * agent changed it, what differs is printed from where it does. */
  text = part_get_text (part, &length);
  while (same < length && state->start + same < printed->len &&
         text[same] == printed->str[state->start + same])
    same++;
  if (state->start + same < printed->len && same < length)
    g_string_truncate (printed, state->start + same);

  g_signal_connect (part, "notify::text", G_CALLBACK (on_text_changed), printer);
  on_text_changed (part, NULL, printer);
}

static void
watch_part (Printer    *printer,
            GListModel *parts,
            guint       position,
            AguiPart   *part)
{
  if (g_hash_table_contains (printer->parts, part))
    return;

  if (AGUI_IS_TEXT_PART (part) || AGUI_IS_REASONING_PART (part))
    {
      watch_text (printer, parts, position, part);
    }
  else if (AGUI_IS_TOOL_CALL_PART (part))
    {
      AguiToolCallPart *call = AGUI_TOOL_CALL_PART (part);
      const char *id = agui_tool_call_part_get_tool_call_id (call);

      g_hash_table_insert (printer->parts, g_object_ref (part), NULL);
      if (id == NULL || !g_hash_table_contains (printer->tool_status, id))
        {
          print_note (printer, "[tool] %s called", agui_tool_call_part_get_tool_name (call));
          if (id != NULL)
            g_hash_table_insert (printer->tool_status, g_strdup (id), GINT_TO_POINTER (AGUI_TOOL_CALL_STREAMING + 1));
        }
      g_signal_connect (part, "notify::status", G_CALLBACK (on_tool_status), printer);
      on_tool_status (call, NULL, printer);
    }
  else if (AGUI_IS_ACTIVITY_PART (part))
    {
      const char *id = agui_part_get_message_id (part);

      g_hash_table_insert (printer->parts, g_object_ref (part), NULL);
      if (id == NULL || g_hash_table_add (printer->activities, g_strdup (id)))
        print_note (printer, "[activity] %s", agui_activity_part_get_activity_type (AGUI_ACTIVITY_PART (part)));
    }
}

static void
on_parts_changed (GListModel *parts,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Printer    *printer)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, i);

      watch_part (printer, parts, i, part);
    }
}

static void
watch_message (Printer         *printer,
               AguiSpeakerTurn *message)
{
  GListModel *parts = agui_speaker_turn_get_parts (message);

  /* Only the agent's turns are echoed; the person knows what they said. */
  if (agui_speaker_turn_get_role (message) != AGUI_ROLE_ASSISTANT)
    return;

  g_signal_connect (parts, "items-changed", G_CALLBACK (on_parts_changed), printer);
  on_parts_changed (parts, 0, 0, g_list_model_get_n_items (parts), printer);
}

static void
unwatch_message (Printer         *printer,
                 AguiSpeakerTurn *message)
{
  GListModel *parts = agui_speaker_turn_get_parts (message);

  g_signal_handlers_disconnect_by_data (parts, printer);
  for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, i);

      if (g_hash_table_contains (printer->parts, part))
        {
          g_signal_handlers_disconnect_by_data (part, printer);
          g_hash_table_remove (printer->parts, part);
        }
    }
}

static void
on_rows_changed (GListModel *rows,
                 guint       position,
                 guint       removed,
                 guint       added,
                 Printer    *printer)
{
  for (guint i = position; i < position + removed; i++)
    unwatch_message (printer, g_ptr_array_index (printer->rows, i));
  g_ptr_array_remove_range (printer->rows, position, removed);

  for (guint i = position; i < position + added; i++)
    g_ptr_array_insert (printer->rows, i, g_list_model_get_item (rows, i));
  for (guint i = position; i < position + added; i++)
    watch_message (printer, g_ptr_array_index (printer->rows, i));
}

static void
on_state_changed (AguiTranscript *transcript,
                  GParamSpec     *pspec,
                  Printer        *printer)
{
  JsonArray *delta = agui_transcript_get_last_state_delta (transcript);
  g_autofree char *text = NULL;

  if (delta != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), delta);

      text = _agui_json_to_string (node, FALSE, NULL);
      print_note (printer, "[state] patched %s", text ? text : "(cannot be printed)");
    }
  else
    {
      text = _agui_json_to_string (agui_transcript_get_state (transcript), FALSE, NULL);
      print_note (printer, "[state] %s", text ? text : "(cannot be printed)");
    }
}

static void
on_steps_changed (AguiTranscript *transcript,
                  GParamSpec     *pspec,
                  Printer        *printer)
{
  const char * const *steps = agui_transcript_get_steps (transcript);

  if (steps[0] != NULL)
    print_note (printer, "[step] %s", steps[g_strv_length ((char **) steps) - 1]);
}

static char *
current_time_tool (JsonNode  *arguments,
                   gpointer   user_data,
                   GError   **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  return g_date_time_format_iso8601 (now);
}

AguiToolRegistry *
tandem_cli_tools_new (void)
{
  g_autoptr(AguiToolRegistry) registry = agui_tool_registry_new ();
  g_autoptr(JsonNode) schema = json_from_string ("{\"type\":\"object\",\"properties\":{"
                                                 "\"timezone\":{\"type\":\"string\","
                                                 "\"description\":\"An IANA zone, or 'local'\"}}}", NULL);
  g_autoptr(AguiTool) clock = agui_tool_new_simple ("get_current_time",
                                                    "The current date and time on the user's computer, in ISO 8601",
                                                    schema, current_time_tool, NULL, NULL);

  agui_tool_registry_add (registry, clock);

  return g_steal_pointer (&registry);
}

AguiTransport *
tandem_cli_transport_new (const char                       *url,
                          const TandemCliTransportOptions  *options,
                          GError                          **error)
{
  const char * const *headers = options != NULL ? options->headers : NULL;
  guint idle_timeout = AGUI_HTTP_DEFAULT_IDLE_TIMEOUT;
  guint deadline = 0;
  gsize max_frame_size = 0;
  AguiHttpEncoding encoding = AGUI_HTTP_ENCODING_SSE;

  if (url == NULL || g_str_equal (url, "--demo") || g_str_equal (url, "demo"))
    {
      AguiDemoAgent *demo = agui_demo_agent_new ();
      const char *delay = g_getenv ("TANDEM_DEMO_DELAY");

      /* Scripts and tests want the answer, not the typing effect. */
      if (delay != NULL)
        agui_demo_agent_set_delay (demo, (guint) g_ascii_strtoull (delay, NULL, 10));

      return AGUI_TRANSPORT (demo);
    }

  if (options != NULL)
    {
      if (options->idle_timeout >= 0)
        idle_timeout = (guint) MIN ((gint64) options->idle_timeout * 1000, G_MAXUINT);
      if (options->deadline > 0)
        deadline = (guint) MIN ((gint64) options->deadline * 1000, G_MAXUINT);
      max_frame_size = options->max_frame_size;
      encoding = options->encoding;
    }

  /* The transport checks each "Name: value" line and says which is wrong. */
  return g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, error,
                         "url", url,
                         "headers", headers,
                         "connect-timeout", 30000,
                         "idle-timeout", idle_timeout,
                         "timeout", deadline,
                         "max-frame-size", (guint64) max_frame_size,
                         "encoding", encoding,
                         NULL);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Printer *printer = user_data;

  printer->result = g_object_ref (result);
  g_main_loop_quit (printer->loop);
}

static void
printer_string_free (GString *string)
{
  g_string_free (string, TRUE);
}

static void
printer_init (Printer          *printer,
              AguiAgentSession *session,
              gboolean          quiet)
{
  AguiTranscript *transcript = agui_agent_session_get_transcript (session);

  printer->session = session;
  printer->loop = g_main_loop_new (NULL, FALSE);
  printer->rows = g_ptr_array_new_with_free_func (g_object_unref);
  printer->parts = g_hash_table_new_full (NULL, NULL, g_object_unref, (GDestroyNotify) part_state_free);
  printer->texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) printer_string_free);
  printer->tool_status = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  printer->activities = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  printer->quiet = quiet;
  printer->at_line_start = TRUE;
  /* https://no-color.org: faint text only for a person at a terminal. */
  printer->dim = isatty (fileno (stdout)) && g_getenv ("NO_COLOR") == NULL &&
                 g_strcmp0 (g_getenv ("TERM"), "dumb") != 0;

  g_signal_connect (transcript, "items-changed", G_CALLBACK (on_rows_changed), printer);
  g_signal_connect (transcript, "notify::state", G_CALLBACK (on_state_changed), printer);
  g_signal_connect (transcript, "notify::steps", G_CALLBACK (on_steps_changed), printer);
  on_rows_changed (G_LIST_MODEL (transcript), 0, 0, g_list_model_get_n_items (G_LIST_MODEL (transcript)), printer);
}

static void
printer_clear (Printer *printer)
{
  GHashTableIter iter;
  gpointer part;

  g_signal_handlers_disconnect_by_data (agui_agent_session_get_transcript (printer->session), printer);
  for (guint i = 0; i < printer->rows->len; i++)
    unwatch_message (printer, g_ptr_array_index (printer->rows, i));
  g_clear_pointer (&printer->rows, g_ptr_array_unref);
  /* Parts a row let go of while shown are watched still. */
  g_hash_table_iter_init (&iter, printer->parts);
  while (g_hash_table_iter_next (&iter, &part, NULL))
    g_signal_handlers_disconnect_by_data (part, printer);
  g_clear_pointer (&printer->loop, g_main_loop_unref);
  g_clear_pointer (&printer->parts, g_hash_table_unref);
  g_clear_pointer (&printer->texts, g_hash_table_unref);
  g_clear_pointer (&printer->tool_status, g_hash_table_unref);
  g_clear_pointer (&printer->activities, g_hash_table_unref);
  g_clear_pointer (&printer->last_key, g_free);
  g_clear_object (&printer->result);
}

static AguiRunState *
wait_exchange (Printer  *printer,
               gpointer  finish_func,
               GError  **error)
{
  AguiRunState *(*finish) (AguiAgentSession *, GAsyncResult *, GError **) = finish_func;
  AguiRunState *state;

  g_main_loop_run (printer->loop);
  state = finish (printer->session, printer->result, error);
  g_clear_object (&printer->result);
  if (!printer->at_line_start)
    print_raw (printer, "\n");

  return state;
}

static void
describe_end (Printer      *printer,
              AguiRunState *state)
{
  if (agui_run_state_get_status (state) == AGUI_RUN_FAILED)
    print_note (printer, "[failed] %s%s%s (at the %s stage)",
                agui_run_state_get_error_message (state),
                agui_run_state_get_error_code (state) ? " — " : "",
                agui_run_state_get_error_code (state) ? agui_run_state_get_error_code (state) : "",
                agui_stage_to_string (agui_run_state_get_error_stage (state)));

  /* The raw material behind the short message: an error body, say. */
  if (agui_run_state_get_status (state) == AGUI_RUN_FAILED &&
      _agui_run_state_get_error_details (state) != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (_agui_run_state_get_error_details (state), "\n", -1);

      print_note (printer, "[details]");
      for (guint i = 0; lines[i] != NULL; i++)
        print_note (printer, "  %s", lines[i]);
    }
}

static const char *
question_for_reason (const char *reason)
{
  if (g_strcmp0 (reason, "tool_call") == 0)
    return "The agent wants to run a tool and asks for your approval first.";
  if (g_strcmp0 (reason, "confirmation") == 0)
    return "The agent asks you to confirm before it goes on.";
  if (g_strcmp0 (reason, "input_required") == 0)
    return "The agent needs an answer from you to go on.";

  return NULL;
}

/* What the approval dialog shows, as lines: the question, what answering
 * lets the agent do, and what kind of answer it takes. */
static char *
describe_interrupt (AguiInterrupt  *interrupt,
                    AguiTranscript *transcript)
{
  g_auto(AguiInterruptDescription) description = { 0 };
  const char *reason = agui_interrupt_get_reason (interrupt);
  GString *text = g_string_new (NULL);

  _agui_interrupt_describe (interrupt, transcript, &description);

  if (description.question != NULL)
    g_string_append (text, description.question);
  else if (description.tool_name != NULL)
    g_string_append_printf (text, "The agent wants to run “%s” and asks for your approval first.",
                            description.tool_name);
  else if (question_for_reason (reason) != NULL)
    g_string_append (text, question_for_reason (reason));
  else
    g_string_append_printf (text, "The agent asks (%s).", reason ? reason : "no reason given");

  switch (description.action)
    {
    case AGUI_INTERRUPT_ACTION_CALL:
    case AGUI_INTERRUPT_ACTION_METADATA_TOOL:
      {
        g_autofree char *arguments = description.arguments
                                     ? _agui_json_to_string (description.arguments, FALSE, NULL)
                                     : g_strdup (description.arguments_text);

        g_string_append_printf (text, "\n  runs: %s(%s)",
                                description.tool_name ? description.tool_name : "?",
                                arguments ? arguments : "");
      }
      break;

    case AGUI_INTERRUPT_ACTION_UNKNOWN_CALL:
      g_string_append_printf (text, "\n  runs: the tool call %s", description.tool_call_id);
      break;

    case AGUI_INTERRUPT_ACTION_DETAILS:
      {
        g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), description.details);
        g_autofree char *details = _agui_json_to_string (node, FALSE, NULL);

        g_string_append_printf (text, "\n  details: %s", details ? details : "(cannot be printed)");
      }
      break;

    case AGUI_INTERRUPT_ACTION_NONE:
    default:
      break;
    }

  g_string_append (text, description.approval ? "\n  answer: approve or deny"
                                              : "\n  answer: a value for the agent (JSON), or cancel");

  return g_string_free (text, FALSE);
}

static JsonArray *
answers_for (GListModel *pending,
             const char *mode,
             JsonObject *answers)
{
  JsonArray *result = json_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);
      const char *id = agui_interrupt_get_id (interrupt);
      JsonObject *entry = json_object_new ();

      json_object_set_string_member (entry, "interruptId", id);
      if (answers != NULL)
        {
          JsonNode *payload = json_object_get_member (answers, id);

          if (payload == NULL || (JSON_NODE_HOLDS_VALUE (payload) &&
                                  g_strcmp0 (json_node_get_string (payload), "cancel") == 0))
            {
              json_object_set_string_member (entry, "status", "cancelled");
            }
          else
            {
              json_object_set_string_member (entry, "status", "resolved");
              json_object_set_member (entry, "payload", json_node_copy (payload));
            }
        }
      else
        {
          JsonObject *payload = json_object_new ();

          json_object_set_boolean_member (payload, "approved", g_str_equal (mode, "approve"));
          json_object_set_string_member (entry, "status", "resolved");
          json_object_set_object_member (entry, "payload", payload);
        }
      json_array_add_object_element (result, entry);
    }

  return result;
}

/* {runState, pendingInterrupts, error}: what follows the messages and
 * the state in what `fold`, `send --json` and `show --json` print.
 * @failure is the pipeline's error when there is no session to say it;
 * otherwise a failed run state is. */
JsonNode *
tandem_cli_transcript_run_json (AguiTranscript *transcript,
                                const GError   *failure)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  AguiRunState *state = agui_transcript_get_run_state (transcript);
  const char *message = failure ? failure->message : NULL;
  AguiStage stage = failure ? agui_stage_from_error (failure) : AGUI_STAGE_NONE;
  JsonNode *node;

  if (failure == NULL && agui_run_state_get_status (state) == AGUI_RUN_FAILED)
    {
      message = agui_run_state_get_error_message (state);
      stage = agui_run_state_get_error_stage (state);
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "runState");
  json_builder_add_value (builder, agui_run_state_to_json (state));
  json_builder_set_member_name (builder, "pendingInterrupts");
  node = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (node, _agui_transcript_get_pending_interrupts_json (transcript));
  json_builder_add_value (builder, node);
  json_builder_set_member_name (builder, "error");
  if (message != NULL)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, message);
      json_builder_set_member_name (builder, "stage");
      json_builder_add_string_value (builder, agui_stage_to_string (stage));
      json_builder_end_object (builder);
    }
  else
    {
      json_builder_add_null_value (builder);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* {messages, state, runState, pendingInterrupts, error}, whole */
JsonNode *
tandem_cli_transcript_json (AguiTranscript *transcript,
                            const GError   *failure)
{
  g_autoptr(JsonNode) run = tandem_cli_transcript_run_json (transcript, failure);
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (run));
  JsonObject *output = json_object_new ();

  json_object_set_array_member (output, "messages", agui_transcript_to_messages (transcript, TRUE));
  json_object_set_member (output, "state", json_node_copy (agui_transcript_get_state (transcript)));
  for (const GList *l = names; l != NULL; l = l->next)
    json_object_set_member (output, l->data, json_node_ref (json_object_get_member (json_node_get_object (run),
                                                                                     l->data)));

  return _agui_json_node_new_object (output);
}

int
tandem_cli_send (AguiAgentSession *session,
                 const char       *message,
                 const char       *answer_mode,
                 const char       *answers_path,
                 gboolean          json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(JsonObject) answers = NULL;
  Printer printer = { 0 };
  int status = 0;

  if (answers_path != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (!json_parser_load_from_file (parser, answers_path, &error) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          g_printerr ("tandem-cli: %s: %s\n", answers_path,
                      error ? error->message : "the answers must be a JSON object keyed by interrupt id");
          return 2;
        }
      answers = json_object_ref (json_node_get_object (json_parser_get_root (parser)));
    }

  printer_init (&printer, session, json);

  /* A stored thread may be waiting already: its interrupts are answered
   * first (if we were told how), then the message goes out. */
  for (gboolean sent = message == NULL; error == NULL; )
    {
      GListModel *pending = agui_agent_session_get_pending_interrupts (session);
      g_autoptr(JsonArray) resume = NULL;

      if (g_list_model_get_n_items (pending) == 0)
        {
          if (sent)
            break;

          g_clear_pointer (&state, agui_run_state_unref);
          agui_agent_session_send_async (session, message, NULL, NULL, store_result_cb, &printer);
          state = wait_exchange (&printer, agui_agent_session_send_finish, &error);
          sent = TRUE;
          continue;
        }

      for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
        {
          g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);
          g_autofree char *question = describe_interrupt (interrupt, agui_agent_session_get_transcript (session));

          print_note (&printer, "[interrupt %s] %s", agui_interrupt_get_id (interrupt), question);
        }

      if (answer_mode == NULL && answers == NULL)
        {
          g_printerr ("tandem-cli: the thread %s is waiting for an answer to %u interrupt(s); "
                      "answer with --approve, --deny or --answers FILE%s\n",
                      agui_agent_session_get_thread_id (session), g_list_model_get_n_items (pending),
                      sent ? "" : " (the message was not sent)");
          status = 3;
          break;
        }

      resume = answers_for (pending, answer_mode, answers);
      g_clear_pointer (&state, agui_run_state_unref);
      agui_agent_session_resume_async (session, resume, NULL, NULL, store_result_cb, &printer);
      state = wait_exchange (&printer, agui_agent_session_resume_finish, &error);
      /* Answer each set of interrupts once; new ones need new answers. */
      answer_mode = NULL;
      g_clear_pointer (&answers, json_object_unref);
    }

  if (error != NULL)
    {
      g_printerr ("tandem-cli: %s\n", error->message);
      status = 1;
    }
  else if (state != NULL)
    {
      describe_end (&printer, state);
      if (agui_run_state_get_status (state) == AGUI_RUN_FAILED)
        status = 1;
    }

  /* A conversation that was not kept must not look like one that was. */
  if (agui_agent_session_get_store_error (session) != NULL)
    {
      g_printerr ("tandem-cli: the conversation was not saved: %s\n",
                  agui_agent_session_get_store_error (session)->message);
      if (status == 0 || status == 3)
        status = 1;
    }

  if (json)
    {
      g_autoptr(JsonNode) output = tandem_cli_transcript_json (agui_agent_session_get_transcript (session), NULL);
      g_autoptr(GError) print_error = NULL;
      g_autofree char *text = _agui_json_to_string (output, TRUE, &print_error);

      if (text != NULL)
        {
          fputs (text, stdout);
          fputc ('\n', stdout);
        }
      else
        {
          g_printerr ("tandem-cli: cannot print the transcript as JSON: %s\n", print_error->message);
          status = 1;
        }
    }

  printer_clear (&printer);

  return status;
}

static char *
read_line (const char *prompt)
{
  char buffer[4096];

  fputs (prompt, stdout);
  fflush (stdout);
  if (fgets (buffer, sizeof buffer, stdin) == NULL)
    return NULL;

  return g_strstrip (g_strdup (buffer));
}

static JsonArray *
ask_at_terminal (GListModel     *pending,
                 AguiTranscript *transcript)
{
  JsonArray *result = json_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);
      g_autofree char *question = describe_interrupt (interrupt, transcript);
      JsonObject *entry = json_object_new ();
      g_autofree char *answer = NULL;

      g_print ("\n%s\n", question);
      answer = read_line ("Approve? [y]es / [n]o / [c]ancel / or JSON to answer: ");

      json_object_set_string_member (entry, "interruptId", agui_interrupt_get_id (interrupt));
      if (answer == NULL || answer[0] == 'c')
        {
          json_object_set_string_member (entry, "status", "cancelled");
        }
      else if (answer[0] == '{')
        {
          JsonNode *payload = json_from_string (answer, NULL);

          json_object_set_string_member (entry, "status", "resolved");
          json_object_set_member (entry, "payload", payload ? payload : json_node_init_object (json_node_alloc (), json_object_new ()));
        }
      else
        {
          JsonObject *payload = json_object_new ();

          json_object_set_boolean_member (payload, "approved", answer[0] == 'y' || answer[0] == 'Y');
          json_object_set_string_member (entry, "status", "resolved");
          json_object_set_object_member (entry, "payload", payload);
        }
      json_array_add_object_element (result, entry);
    }

  return result;
}

int
tandem_cli_chat (AguiAgentSession *session)
{
  Printer printer = { 0 };
  int status = 0;

  printer_init (&printer, session, FALSE);
  g_print ("Chatting on thread %s. An empty line or end of input quits.\n", agui_agent_session_get_thread_id (session));

  for (;;)
    {
      g_autoptr(AguiRunState) state = NULL;
      g_autoptr(GError) error = NULL;
      GListModel *pending = agui_agent_session_get_pending_interrupts (session);

      if (g_list_model_get_n_items (pending) > 0)
        {
          g_autoptr(JsonArray) resume = ask_at_terminal (pending, agui_agent_session_get_transcript (session));

          agui_agent_session_resume_async (session, resume, NULL, NULL, store_result_cb, &printer);
          state = wait_exchange (&printer, agui_agent_session_resume_finish, &error);
        }
      else
        {
          g_autofree char *line = read_line ("\n> ");

          if (line == NULL || line[0] == '\0')
            break;

          agui_agent_session_send_async (session, line, NULL, NULL, store_result_cb, &printer);
          state = wait_exchange (&printer, agui_agent_session_send_finish, &error);
        }

      if (error != NULL)
        g_printerr ("tandem-cli: %s\n", error->message);
      else
        describe_end (&printer, state);

      if (agui_agent_session_get_store_error (session) != NULL)
        {
          g_printerr ("tandem-cli: this exchange was not saved: %s\n",
                      agui_agent_session_get_store_error (session)->message);
          status = 1;
        }
    }

  printer_clear (&printer);

  return status;
}

/* "10485760", "10M", "10MiB", "512k": sizes as people write them, in
 * powers of 1024 as the frame cap is. */
gboolean
tandem_cli_parse_size (const char  *text,
                       gsize       *size,
                       GError     **error)
{
  static const struct { const char *suffix; guint64 factor; } units[] = {
    { "", 1 }, { "b", 1 },
    { "k", 1024 }, { "kb", 1024 }, { "kib", 1024 },
    { "m", 1024 * 1024 }, { "mb", 1024 * 1024 }, { "mib", 1024 * 1024 },
    { "g", 1024 * 1024 * 1024 }, { "gb", 1024 * 1024 * 1024 }, { "gib", 1024 * 1024 * 1024 },
  };
  g_autofree char *suffix = NULL;
  guint64 number;
  char *end = NULL;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    goto invalid;

  errno = 0;
  number = g_ascii_strtoull (text, &end, 10);
  if (errno != 0)
    goto invalid;

  suffix = g_strstrip (g_ascii_strdown (end, -1));
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (g_str_equal (suffix, units[i].suffix))
        {
          if (number == 0 || number > G_MAXSIZE / units[i].factor)
            goto invalid;
          *size = (gsize) (number * units[i].factor);
          return TRUE;
        }
    }

invalid:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "'%s' is not a size: give bytes, or a number with K, M or G (e.g. 10M)",
               text != NULL ? text : "");
  return FALSE;
}


/* `--encoding sse|protobuf`: what the agent is asked for. */
gboolean
tandem_cli_parse_encoding (const char        *text,
                           AguiHttpEncoding  *encoding,
                           GError           **error)
{
  if (g_ascii_strcasecmp (text, "sse") == 0)
    *encoding = AGUI_HTTP_ENCODING_SSE;
  else if (g_ascii_strcasecmp (text, "protobuf") == 0)
    *encoding = AGUI_HTTP_ENCODING_PROTOBUF;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--encoding is sse (text, the default) or protobuf (binary), not '%s'", text);
      return FALSE;
    }

  return TRUE;
}
