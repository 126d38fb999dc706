/* agui-demo-agent-scenarios.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the demo agent answers: one plan of events for each kind of
 * request, chosen from the request alone. */

#include "config.h"

#include "agui-json-private.h"
#include "agui-demo-agent-private.h"

#define TIME_TOOL "get_current_time"

static const char *
introduction_markdown (void)
{
  return "## Hello from the demo agent\n\n"
         "I am **Tandem's built-in demo agent**: I run inside the app, so there is no server "
         "and nothing leaves your computer. Everything you see arrives as AG-UI events.\n\n"
         "Here is what I can show you:\n\n"
         "- **streamed Markdown**, word by word, like this message\n"
         "- `inline code`, tables and [links](https://docs.ag-ui.com/)\n"
         "- my reasoning, the shared state and the steps I take\n"
         "- a tool call to your desktop and a question for your approval\n\n"
         "| You see | AG-UI event |\n"
         "| --- | --- |\n"
         "| This text | `TEXT_MESSAGE_CONTENT` |\n"
         "| My plan | `REASONING_MESSAGE_CONTENT` |\n"
         "| A tool card | `TOOL_CALL_START` |\n"
         "| A question | `RUN_FINISHED` with an interrupt |\n\n"
         "A tool is a function the app runs for me, something like this:\n\n"
         "```c\n"
         "static char *\n"
         "get_current_time (const char *timezone)\n"
         "{\n"
         "  g_autoptr(GDateTime) now = g_date_time_new_now_local ();\n"
         "\n"
         "  return g_date_time_format (now, \"%H:%M\");\n"
         "}\n"
         "```\n\n"
         "Say **long** for a long answer to scroll through, **error** to see a run fail, or "
         "**dashboard** for a small interface drawn from A2UI. "
         "Now let me ask your desktop what time it is.";
}

static void
plan_answer (DemoRun             *run,
             const AguiJsonValue *input,
             const char          *user_text)
{
  gboolean frontend = _agui_demo_declares_tool (input, TIME_TOOL);
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *tool_call_id = g_uuid_string_random ();
  g_autofree char *quote = _agui_demo_quote_user (user_text);
  g_autofree char *reasoning = NULL;

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("planning"), FALSE);
  _agui_demo_plan_step (run, "planning", TRUE);
  reasoning = g_strdup_printf ("A new message (turn %u): “%s”. Plan: greet, and show what the "
                               "transcript renders (Markdown with a list, a table and code). "
                               "Then find out the time: %s. Last, offer to archive old notes, "
                               "and ask before doing it, since that changes files.",
                               run->turns, quote,
                               frontend
                                 ? "the app offers " TIME_TOOL ", so I will call it"
                                 : "the app offers no " TIME_TOOL " tool, so I will answer that call myself");
  _agui_demo_plan_reasoning (run, reasoning);
  _agui_demo_plan_step (run, "planning", FALSE);

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("writing"), FALSE);
  _agui_demo_plan_text (run, message_id, introduction_markdown ());

  if (frontend)
    {
      AguiJsonValue *outcome = _agui_demo_members ("type", "success", NULL);

      _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("waiting for the time"), FALSE);
      _agui_demo_plan_tool_call (run, tool_call_id, TIME_TOOL, message_id, "{\"timezone\":\"local\"}", NULL);

      /* The app runs the tool and starts a follow-up run with its answer. */
      _agui_json_doc_add_string (_agui_json_doc_set_array (outcome->u.object, "pendingToolCallIds"), tool_call_id);
      _agui_demo_plan_run_finished (run, outcome);
    }
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *iso = g_date_time_format_iso8601 (now);
      g_autofree char *when = _agui_demo_describe_time (now);
      g_autofree char *lead = NULL;
      g_auto(AguiJsonValue) result = AGUI_JSON_VALUE_INIT;

      _agui_demo_plan_tool_call (run, tool_call_id, TIME_TOOL, message_id, "{\"timezone\":\"local\"}", NULL);
      _agui_demo_string_value (&result, "time", iso, "timezone", g_date_time_get_timezone_abbreviation (now), NULL);
      _agui_demo_plan_tool_result (run, tool_call_id, &result);

      lead = g_strdup_printf ("My own clock says it is %s (Tandem offers no `%s` tool, so I "
                              "answered that call myself).", when, TIME_TOOL);
      _agui_demo_plan_ask_approval (run, lead);
    }
}

static void
plan_long_answer (DemoRun *run)
{
  static const char * const paragraphs[] = {
    "Streaming text arrives as many small deltas. Each one changes a single part of one "
    "message, so the view appends to what it shows instead of drawing everything again.",
    "A transcript is a list model of messages, and each message is a list model of parts: "
    "text, reasoning, tool calls and activities, in the order the agent produced them.",
    "When the answer grows past the window, the view keeps following the end, unless you "
    "scroll up to read something; then it leaves you where you are.",
    "Markdown is rendered as it streams: a **bold** word may open in one delta and close in "
    "the next, and a `code span` is only styled once it is complete.",
  };
  g_autofree char *message_id = g_uuid_string_random ();
  g_autoptr(GString) text = g_string_new ("## A long answer\n\nYou asked for something long, "
                                          "so here are twenty parts to scroll through.\n\n");

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("writing"), FALSE);
  _agui_demo_plan_reasoning (run, "They want a long answer: twenty short parts, no tools.");

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (text, "### Part %u\n\n%s\n\n", i + 1, paragraphs[i % G_N_ELEMENTS (paragraphs)]);
  g_string_append (text, "That is all. The top is a long way up.");

  _agui_demo_plan_text (run, message_id, text->str);
  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("done"), FALSE);
  _agui_demo_plan_run_succeeded (run);
}

static void
plan_failure (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("failing"), FALSE);
  _agui_demo_plan_text_start (run, message_id);
  _agui_demo_plan_words (run, AGUI_EVENT_TEXT_MESSAGE_CONTENT, message_id,
                         "You asked for an error, so let me start an answer and then ");

  /* Mid-message on purpose: a failing agent rarely finishes its sentence. */
  _agui_demo_plan_run_error (run, "The demo agent failed on purpose, because your message asked for an error.",
                             "demo_error");
}

static void
plan_introduction (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();

  _agui_demo_plan_text (run, message_id,
                        "Hi! I am **Tandem's built-in demo agent**. I run inside the app, so you can try "
                        "Tandem without a server.\n\n"
                        "Send me any message and I will stream a Markdown answer, show my reasoning, "
                        "update the shared state, ask your desktop for the time through a tool, and then "
                        "ask for your approval before a pretend action.\n\n"
                        "A few words change what I do:\n\n"
                        "- **long** streams a long answer\n"
                        "- **error** makes the run fail on purpose\n"
                        "- **archive** goes straight to the approval question\n"
                        "- **dashboard** sends a small interactive interface (A2UI)");
  _agui_demo_plan_run_succeeded (run);
}

static void
plan_time_answer (DemoRun             *run,
                  const AguiJsonValue *tool_message)
{
  g_autofree char *content = _agui_demo_content_text (_agui_json_doc_get_member (tool_message, "content"));
  const char *failure = _agui_json_doc_get_string (tool_message, "error");
  g_autofree char *lead = NULL;

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("asking"), FALSE);

  if (failure != NULL)
    {
      g_autofree char *quote = _agui_demo_quote_user (failure);

      lead = g_strdup_printf ("The desktop could not tell me the time (%s). Never mind.", quote);
    }
  else
    {
      g_autofree char *when = _agui_demo_describe_time_result (content);

      lead = g_strdup_printf ("The desktop says it is %s. Thank you!", when);
    }

  _agui_demo_plan_ask_approval (run, lead);
}

void
_agui_demo_plan_run (DemoRun             *run,
                     const AguiJsonValue *input)
{
  AguiJsonValue *messages = _agui_json_doc_get_array (input, "messages");
  AguiJsonValue *resume = _agui_json_doc_get_array (input, "resume");
  guint n_messages = _agui_json_doc_get_length (messages);
  g_autoptr(GPtrArray) open = NULL;
  AguiJsonValue *last = NULL;
  const char *role;

  _agui_demo_plan_run_started (run);

  if (_agui_json_doc_get_length (resume) > 0)
    {
      _agui_demo_plan_resume (run, messages, resume);
      return;
    }

  /* Rule 4: a thread with open questions takes nothing but answers. */
  open = _agui_demo_open_interrupts (run->agent, run->thread_id);
  if (open->len > 0)
    {
      DemoInterrupt *interrupt = g_ptr_array_index (open, 0);
      g_autofree char *message = NULL;

      message = g_strdup_printf ("This thread waits for an answer to interrupt %s. Resume it, "
                                 "answering or cancelling it, before sending anything else.",
                                 interrupt->id);
      _agui_demo_plan_run_error (run, message, "interrupt_pending");
      return;
    }

  if (n_messages > 0)
    last = _agui_demo_array_object (messages, n_messages - 1);
  role = _agui_json_doc_get_string (last, "role");

  if (_agui_demo_a2ui_user_action (input) != NULL)
    {
      _agui_demo_plan_dashboard_answer (run, _agui_demo_a2ui_user_action (input));
      return;
    }

  if (g_strcmp0 (role, "user") == 0)
    {
      g_autofree char *text = _agui_demo_content_text (_agui_json_doc_get_member (last, "content"));
      g_autofree char *folded = g_utf8_casefold (text, -1);

      if (_agui_demo_has_word (folded, "error") || _agui_demo_has_word (folded, "fehler"))
        plan_failure (run);
      else if (_agui_demo_has_word (folded, "long") || _agui_demo_has_word (folded, "lange"))
        plan_long_answer (run);
      else if (_agui_demo_has_word (folded, "dashboard") || _agui_demo_has_word (folded, "übersicht"))
        _agui_demo_plan_dashboard (run);
      else if (_agui_demo_has_word (folded, "archive") || _agui_demo_has_word (folded, "archiviere") || _agui_demo_has_word (folded, "archivieren"))
        {
          _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("asking"), FALSE);
          _agui_demo_plan_ask_approval (run, "You mentioned archiving, so let us skip the small talk.");
        }
      else
        plan_answer (run, input, text);
    }
  else if (g_strcmp0 (role, "tool") == 0 &&
           g_strcmp0 (_agui_demo_called_tool_name (messages, _agui_json_doc_get_string (last, "toolCallId")), TIME_TOOL) == 0)
    {
      plan_time_answer (run, last);
    }
  else
    {
      plan_introduction (run);
    }
}
