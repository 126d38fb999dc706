/* agui-demo-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-demo-agent.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"

/**
 * AguiDemoAgent:
 *
 * An agent that lives inside the process: a [iface@Agui.Transport] with
 * no server behind it, so Tandem has someone to talk to on first launch.
 *
 * It behaves like a real agent, deciding each run from its
 * `RunAgentInput` alone (the thread id, the history, the declared tools,
 * the state and the `resume` answers), and it streams its events from
 * the main loop with a pause of [property@Agui.DemoAgent:delay] between
 * deltas, so the answer looks typed:
 *
 * - **A new user message** (the last message has the role `user`): a
 *   `planning` step holding a short reasoning message, state patches to
 *   `/demo` (`turns` and `stage`), then a Markdown answer with a heading, a
 *   list, bold text, inline code, a link, a table and a fenced C block,
 *   word by word. It then calls `get_current_time`: when the input
 *   declares that tool the call (`{"timezone":"local"}`) is left for the
 *   application and the run finishes with it pending; otherwise the agent
 *   treats it as its own backend tool, answers it with the local time and
 *   goes on to the approval below in the same run.
 * - **A tool result for `get_current_time`** (the last message is that tool
 *   message): it says what time the desktop gave, calls `archive_notes`
 *   with `{"folder":"Demo","keepDays":30}` and finishes with an interrupt
 *   (`reason` `tool_call`) asking to approve that call, offering
 *   `editedArgs` in its `responseSchema`. The interrupt expires after ten
 *   minutes.
 * - **A resume** answering that interrupt: the agent does not repeat the
 *   call; it answers it with `TOOL_CALL_RESULT` (archived with the original
 *   or the edited arguments, denied, or cancelled), says so, and sets the
 *   stage to `done`. An interrupt it never asked on the thread, an open
 *   interrupt left unanswered, an answer that does not fit the schema or a
 *   resolved answer after expiry ends the run with `RUN_ERROR`. Replaying
 *   an answer already acted upon is harmless: nothing is done twice.
 * - **Anything else** (an empty history, the last word the agent's own): a
 *   short text explaining what the demo can do.
 *
 * Keywords, as words of their own in the user's message (any case),
 * choose a variant; each has a German form too, so the example prompts
 * a German desktop offers keep what they promise:
 *
 * - `error` (`Fehler`): the answer starts, then the run fails with
 *   `RUN_ERROR` (code `demo_error`), to show how a failed run looks;
 * - `long` (`lange`): a long answer to scroll through, and no tool call;
 * - `dashboard` (`Übersicht`): a small A2UI dashboard;
 * - `archive` (`archiviere`, `archivieren`): skips the time and asks for
 *   approval straight away.
 *
 * The agent speaks English; the times it tells are in the formats of
 * the locale (`LC_TIME`), without names of days or months, so no other
 * language slips into its sentences.
 *
 * The agent remembers the interrupts it asked (to check the answers), and
 * nothing else between runs; runs never share any other state, so several
 * may stream at once. The call an interrupt is about carries the
 * interrupt's id and expiry in its metadata, so an agent started afresh
 * (Tandem restarted) recognises its question in the history and takes the
 * answer. A state that is not a JSON object (nor `null`)
 * belongs to someone else and is left alone.
 *
 * ```c
 * g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
 *
 * agui_transport_run_async (AGUI_TRANSPORT (agent), input, cancellable,
 *                           on_run_started_cb, self);
 * ```
 */

#define DEFAULT_DELAY              25
#define MAX_DELAY                  10000
#define TIME_TOOL                  "get_current_time"
#define ARCHIVE_TOOL               "archive_notes"
#define ARCHIVE_FOLDER             "Demo"
#define ARCHIVE_KEEP_DAYS          30
#define INTERRUPT_LIFETIME_MINUTES 10
#define ARGUMENT_PIECE_LENGTH      7
#define QUOTE_LENGTH               60

#define RESPONSE_SCHEMA \
  "{\"type\":\"object\"," \
  "\"properties\":{" \
    "\"approved\":{\"type\":\"boolean\"}," \
    "\"editedArgs\":{\"type\":\"object\"," \
      "\"properties\":{\"folder\":{\"type\":\"string\",\"minLength\":1}," \
                      "\"keepDays\":{\"type\":\"integer\",\"minimum\":1}}," \
      "\"required\":[\"folder\",\"keepDays\"]}}," \
  "\"required\":[\"approved\"]}"

/* A question the agent asked, kept across runs to check its answer. */
typedef struct
{
  char      *id;
  char      *thread_id;
  char      *tool_call_id;
  char      *folder;
  gint64     keep_days;
  GDateTime *expires_at;
  JsonNode  *answer;   /* the resume entry acted upon; NULL while open */
} DemoInterrupt;

struct _AguiDemoAgent
{
  GObject     parent_instance;
  GPtrArray  *runs;         /* DemoRun, unowned: a run frees itself when it ends */
  GHashTable *interrupts;   /* id → DemoInterrupt */
  guint       delay;
};

static void transport_iface_init (AguiTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiDemoAgent, agui_demo_agent, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT, transport_iface_init))

enum { PROP_0, PROP_DELAY, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* One event of a planned run, and what the agent learns by sending it. */
typedef struct
{
  AguiEvent     *event;
  DemoInterrupt *ask;       /* remembered as the event goes out */
  GPtrArray     *answers;   /* JsonNode resume entries, settled as the event goes out */
  guint          pause;     /* after the event, in multiples of the delay */
} Beat;

typedef struct
{
  AguiDemoAgent   *agent;   /* unowned; NULL once the agent has gone */
  AguiEventStream *stream;
  GMainContext    *context;
  GSource         *source;
  gulong           cancelled_id;
  guint            delay;
  GQueue           beats;
  guint            playing : 1;

  /* For planning: the request, and the state as the client will hold it
   * once the beats planned so far have been applied. */
  char            *thread_id;
  char            *run_id;
  AguiJsonValue    state;
  guint            turns;
  guint            turns_reported : 1;
} DemoRun;

typedef struct
{
  DemoInterrupt *interrupt;
  JsonObject    *entry;
} Answer;

static void
demo_interrupt_free (DemoInterrupt *interrupt)
{
  if (interrupt == NULL)
    return;

  g_free (interrupt->id);
  g_free (interrupt->thread_id);
  g_free (interrupt->tool_call_id);
  g_free (interrupt->folder);
  g_clear_pointer (&interrupt->expires_at, g_date_time_unref);
  g_clear_pointer (&interrupt->answer, json_node_unref);
  g_free (interrupt);
}

static void
beat_free (Beat *beat)
{
  g_clear_pointer (&beat->event, agui_event_unref);
  g_clear_pointer (&beat->ask, demo_interrupt_free);
  g_clear_pointer (&beat->answers, g_ptr_array_unref);
  g_free (beat);
}

/* Building events */

static JsonObject *
string_members (const char *first_name,
                ...) G_GNUC_NULL_TERMINATED;

static JsonObject *
string_members (const char *first_name,
                ...)
{
  JsonObject *object = json_object_new ();
  va_list args;

  va_start (args, first_name);
  for (const char *name = first_name; name != NULL; name = va_arg (args, const char *))
    json_object_set_string_member (object, name, va_arg (args, const char *));
  va_end (args);

  return object;
}

static Beat *
plan_event (DemoRun       *run,
            guint          pause,
            AguiEventType  type,
            JsonObject    *members)
{
  g_autoptr(GError) error = NULL;
  AguiEvent *event;
  Beat *beat;

  g_assert (run != NULL);

  /* The events are built from constants and the request's own strings,
   * so one the schema refuses is a bug here, not bad input. */
  if (!(event = agui_event_new (type, members, &error)))
    {
      g_critical ("The demo agent planned an invalid %s event: %s",
                  agui_event_type_to_string (type), error->message);
      return NULL;
    }

  beat = g_new0 (Beat, 1);
  beat->event = event;
  beat->pause = pause;
  g_queue_push_tail (&run->beats, beat);

  return beat;
}

static void
plan_run_started (DemoRun *run)
{
  plan_event (run, 0, AGUI_EVENT_RUN_STARTED,
              string_members ("threadId", run->thread_id, "runId", run->run_id, NULL));
}

static Beat *
plan_run_finished (DemoRun    *run,
                   JsonObject *outcome)
{
  JsonObject *members = string_members ("threadId", run->thread_id, "runId", run->run_id, NULL);

  json_object_set_object_member (members, "outcome", outcome);

  return plan_event (run, 0, AGUI_EVENT_RUN_FINISHED, members);
}

static void
plan_run_succeeded (DemoRun *run)
{
  plan_run_finished (run, string_members ("type", "success", NULL));
}

static void
plan_run_error (DemoRun    *run,
                const char *message,
                const char *code)
{
  plan_event (run, 0, AGUI_EVENT_RUN_ERROR,
              string_members ("message", message, "code", code, NULL));
}

static void
plan_step (DemoRun    *run,
           const char *name,
           gboolean    started)
{
  plan_event (run, started ? 2 : 0,
              started ? AGUI_EVENT_STEP_STARTED : AGUI_EVENT_STEP_FINISHED,
              string_members ("stepName", name, NULL));
}

/* Pieces end after a run of whitespace, so the text arrives word by word
 * and a newline never starts a delta: Markdown renderers stay calm. */
static void
plan_words (DemoRun       *run,
            AguiEventType  type,
            const char    *message_id,
            const char    *text)
{
  const char *p = text;

  while (*p != '\0')
    {
      const char *end = p;
      g_autofree char *piece = NULL;

      while (*end != '\0' && !g_ascii_isspace (*end))
        end++;
      while (*end != '\0' && g_ascii_isspace (*end))
        end++;

      piece = g_strndup (p, end - p);
      plan_event (run, 1, type, string_members ("messageId", message_id, "delta", piece, NULL));
      p = end;
    }
}

static void
plan_text_start (DemoRun    *run,
                 const char *message_id)
{
  plan_event (run, 0, AGUI_EVENT_TEXT_MESSAGE_START,
              string_members ("messageId", message_id, "role", "assistant", NULL));
}

static void
plan_text_end (DemoRun    *run,
               const char *message_id)
{
  plan_event (run, 0, AGUI_EVENT_TEXT_MESSAGE_END,
              string_members ("messageId", message_id, NULL));
}

static void
plan_text (DemoRun    *run,
           const char *message_id,
           const char *text)
{
  plan_text_start (run, message_id);
  plan_words (run, AGUI_EVENT_TEXT_MESSAGE_CONTENT, message_id, text);
  plan_text_end (run, message_id);
}

static void
plan_reasoning (DemoRun    *run,
                const char *text)
{
  g_autofree char *span_id = g_uuid_string_random ();
  g_autofree char *message_id = g_uuid_string_random ();

  plan_event (run, 0, AGUI_EVENT_REASONING_START,
              string_members ("messageId", span_id, NULL));
  plan_event (run, 0, AGUI_EVENT_REASONING_MESSAGE_START,
              string_members ("messageId", message_id, "role", "reasoning", NULL));
  plan_words (run, AGUI_EVENT_REASONING_MESSAGE_CONTENT, message_id, text);
  plan_event (run, 0, AGUI_EVENT_REASONING_MESSAGE_END,
              string_members ("messageId", message_id, NULL));
  plan_event (run, 2, AGUI_EVENT_REASONING_END,
              string_members ("messageId", span_id, NULL));
}

static void
plan_tool_call (DemoRun    *run,
                const char *tool_call_id,
                const char *tool_name,
                const char *parent_message_id,
                const char *arguments,
                JsonObject *metadata)
{
  const char *p = arguments;
  JsonObject *members = string_members ("toolCallId", tool_call_id,
                                        "toolCallName", tool_name,
                                        "parentMessageId", parent_message_id,
                                        NULL);

  if (metadata != NULL)
    json_object_set_object_member (members, "metadata", metadata);
  plan_event (run, 2, AGUI_EVENT_TOOL_CALL_START, members);

  while (*p != '\0')
    {
      const char *end = p;
      g_autofree char *piece = NULL;

      for (guint i = 0; i < ARGUMENT_PIECE_LENGTH && *end != '\0'; i++)
        end = g_utf8_next_char (end);

      piece = g_strndup (p, end - p);
      plan_event (run, 1, AGUI_EVENT_TOOL_CALL_ARGS,
                  string_members ("toolCallId", tool_call_id, "delta", piece, NULL));
      p = end;
    }

  plan_event (run, 0, AGUI_EVENT_TOOL_CALL_END,
              string_members ("toolCallId", tool_call_id, NULL));
}

static void
plan_tool_result (DemoRun    *run,
                  const char *tool_call_id,
                  JsonObject *result)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result);
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *content = json_to_string (node, FALSE);

  plan_event (run, 4, AGUI_EVENT_TOOL_CALL_RESULT,
              string_members ("messageId", message_id,
                              "toolCallId", tool_call_id,
                              "content", content,
                              "role", "tool",
                              NULL));
}

/* Sets members of `/demo` in the shared state: patches against the state
 * the client holds (the input's, then ours), or a snapshot where a patch
 * has nothing to hold on to. The first change of a run also counts the
 * turns. */
static void
plan_demo_state (DemoRun    *run,
                 JsonObject *changes,
                 gboolean    as_snapshot)
{
  g_autoptr(JsonObject) owned = changes;
  g_autoptr(JsonArray) patch = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *members;

  if (!run->turns_reported)
    {
      json_object_set_int_member (owned, "turns", run->turns);
      run->turns_reported = TRUE;
    }

  if (run->state.kind == AGUI_JSON_DOC_NULL)
    {
      g_autoptr(JsonNode) state = _agui_json_node_new_object (json_object_new ());

      json_object_set_object_member (json_node_get_object (state), "demo", g_steal_pointer (&owned));
      _agui_json_value_set_node (&run->state, state);
      as_snapshot = TRUE;
    }
  else if (run->state.kind == AGUI_JSON_DOC_OBJECT)
    {
      int slot = _agui_json_object_find (run->state.u.object, "demo");
      /* the client's state is not ours to cap */
      AguiJsonDocBounds bounds = { .size = 0, .max_size = 0 };

      patch = json_array_new ();

      if (slot >= 0 && _agui_json_object_slot_value (run->state.u.object, slot)->kind == AGUI_JSON_DOC_OBJECT)
        {
          JsonObjectIter iter;
          const char *name;
          JsonNode *value;

          /* The member names are ours and need no pointer escaping. */
          json_object_iter_init (&iter, owned);
          while (json_object_iter_next (&iter, &name, &value))
            {
              JsonObject *operation = string_members ("op", "add", NULL);
              g_autofree char *path = g_strconcat ("/demo/", name, NULL);

              json_object_set_string_member (operation, "path", path);
              json_object_set_member (operation, "value", _agui_json_node_copy_deep (value));
              json_array_add_object_element (patch, operation);
            }
        }
      else
        {
          JsonObject *operation = string_members ("op", "add", "path", "/demo", NULL);

          json_object_set_object_member (operation, "value", json_object_ref (owned));
          json_array_add_object_element (patch, operation);
        }

      if (!_agui_json_doc_patch_apply (&run->state, &bounds, patch, &error))
        {
          g_critical ("The demo agent planned a patch it cannot apply itself: %s", error->message);
          return;
        }
    }
  else
    {
      return;
    }

  members = json_object_new ();
  if (as_snapshot)
    {
      json_object_set_member (members, "snapshot", _agui_json_value_to_node (&run->state));
      plan_event (run, 1, AGUI_EVENT_STATE_SNAPSHOT, members);
    }
  else
    {
      json_object_set_array_member (members, "delta", g_steal_pointer (&patch));
      plan_event (run, 1, AGUI_EVENT_STATE_DELTA, members);
    }
}

static JsonObject *
stage_changes (const char *stage)
{
  return string_members ("stage", stage, NULL);
}

/* Reading the request */

static char *
content_text (JsonNode *content)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (content == NULL)
    return g_strdup ("");

  if (JSON_NODE_HOLDS_VALUE (content) && json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));

  if (JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonNode *element = json_array_get_element (parts, i);
          JsonObject *part;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;

          part = json_node_get_object (element);
          if (g_strcmp0 (json_object_get_string_member_with_default (part, "type", NULL), "text") == 0)
            {
              if (text->len > 0)
                g_string_append_c (text, ' ');
              g_string_append (text, json_object_get_string_member_with_default (part, "text", ""));
            }
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
object_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonArray *
object_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static JsonObject *
array_object (JsonArray *array,
              guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static gboolean
declares_tool (JsonObject *input,
               const char *name)
{
  JsonArray *tools = object_array (input, "tools");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = array_object (tools, i);

      if (tool != NULL && g_strcmp0 (object_string (tool, "name"), name) == 0)
        return TRUE;
    }

  return FALSE;
}

/* The name of the tool an assistant message in @messages called with
 * @tool_call_id. */
static const char *
called_tool_name (JsonArray  *messages,
                  const char *tool_call_id)
{
  for (guint i = 0; tool_call_id != NULL && i < json_array_get_length (messages); i++)
    {
      JsonObject *message = array_object (messages, i);
      JsonArray *calls;

      if (message == NULL || g_strcmp0 (object_string (message, "role"), "assistant") != 0 ||
          !(calls = object_array (message, "toolCalls")))
        continue;

      for (guint j = 0; j < json_array_get_length (calls); j++)
        {
          JsonObject *call = array_object (calls, j);
          JsonNode *function;

          if (call == NULL || g_strcmp0 (object_string (call, "id"), tool_call_id) != 0)
            continue;

          function = json_object_get_member (call, "function");
          if (function != NULL && JSON_NODE_HOLDS_OBJECT (function))
            return object_string (json_node_get_object (function), "name");
        }
    }

  return NULL;
}

static char *
quote_user (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autoptr(GString) quote = g_string_new (NULL);
  const char *p = stripped;

  for (guint i = 0; *p != '\0' && i < QUOTE_LENGTH; i++, p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_string_append_unichar (quote, g_unichar_isspace (c) ? ' ' : c);
    }
  if (*p != '\0')
    g_string_append (quote, "…");

  return g_string_free (g_steal_pointer (&quote), FALSE);
}

static char *
describe_time (GDateTime *time)
{
  /* The locale's own time and date ("21:48:00 on 01.12.2026" in
   * German, "09:48:00 PM on 12/01/2026" in American English) */
  return g_date_time_format (time, "%X on %x");
}

/* A tool answers as it likes: find a time in JSON, else quote the text. */
static char *
describe_time_result (const char *content)
{
  g_autoptr(JsonNode) node = json_from_string (content, NULL);
  g_autofree char *stripped = NULL;

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      static const char * const names[] = { "time", "now", "datetime", "iso8601" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          const char *value = object_string (json_node_get_object (node), names[i]);
          g_autoptr(GDateTime) time = NULL;

          if (value == NULL)
            continue;
          if ((time = g_date_time_new_from_iso8601 (value, NULL)))
            return describe_time (time);
          return quote_user (value);
        }
    }

  stripped = g_strstrip (g_strdup (content));
  if (stripped[0] == '\0')
    return g_strdup ("a mystery (it answered with nothing)");

  return quote_user (stripped);
}

/* Whether @word is in @text as a word of its own ("long", not
 * "belong"); any non-ASCII byte counts as part of a word. */
static gboolean
has_word (const char *text,
          const char *word)
{
  gsize length = strlen (word);

  for (const char *p = strstr (text, word); p != NULL; p = strstr (p + 1, word))
    {
      gboolean starts = p == text || !(g_ascii_isalnum (p[-1]) || (guchar) p[-1] >= 0x80);
      gboolean ends = !(g_ascii_isalnum (p[length]) || (guchar) p[length] >= 0x80);

      if (starts && ends)
        return TRUE;
    }

  return FALSE;
}

/* Scenarios */

static void
plan_ask_approval (DemoRun    *run,
                   const char *lead)
{
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *tool_call_id = g_uuid_string_random ();
  g_autofree char *question = NULL;
  g_autofree char *text = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *expires_at = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(JsonNode) schema = json_from_string (RESPONSE_SCHEMA, NULL);
  JsonObject *interrupt;
  JsonObject *outcome;
  JsonArray *interrupts;
  DemoInterrupt *ask;
  Beat *beat;

  g_assert (schema != NULL);

  text = g_strdup_printf ("%s\n\nWhile we are here: your **%s** folder holds notes older than "
                          "%d days. I can archive them for you, but that changes your files, "
                          "so I will ask first.",
                          lead, ARCHIVE_FOLDER, ARCHIVE_KEEP_DAYS);
  plan_text (run, message_id, text);

  ask = g_new0 (DemoInterrupt, 1);
  ask->id = g_uuid_string_random ();
  ask->thread_id = g_strdup (run->thread_id);
  ask->tool_call_id = g_strdup (tool_call_id);
  ask->folder = g_strdup (ARCHIVE_FOLDER);
  ask->keep_days = ARCHIVE_KEEP_DAYS;
  ask->expires_at = g_date_time_add_minutes (now, INTERRUPT_LIFETIME_MINUTES);
  expires_at = g_date_time_format_iso8601 (ask->expires_at);

  /* The call carries its question's id, so an agent that forgot (Tandem
   * restarted) finds the question again in the history it is sent. */
  arguments = g_strdup_printf ("{\"folder\":\"%s\",\"keepDays\":%d}", ARCHIVE_FOLDER, ARCHIVE_KEEP_DAYS);
  plan_tool_call (run, tool_call_id, ARCHIVE_TOOL, message_id, arguments,
                  string_members ("interruptId", ask->id, "expiresAt", expires_at, NULL));

  /* Everything needed to resume goes out before the question (rule 9 of
   * AG-UI 13.2); the messages are all in the client's history already. */
  plan_demo_state (run, stage_changes ("awaiting approval"), TRUE);

  question = g_strdup_printf ("May I archive the notes in “%s” older than %d days?",
                              ARCHIVE_FOLDER, ARCHIVE_KEEP_DAYS);
  interrupt = string_members ("id", ask->id,
                              "reason", "tool_call",
                              "toolCallId", tool_call_id,
                              "message", question,
                              "expiresAt", expires_at,
                              NULL);
  json_object_set_member (interrupt, "responseSchema", g_steal_pointer (&schema));
  interrupts = json_array_new ();
  json_array_add_object_element (interrupts, interrupt);
  outcome = string_members ("type", "interrupt", NULL);
  json_object_set_array_member (outcome, "interrupts", interrupts);

  /* The question exists for the agent only once the client has seen it. */
  if ((beat = plan_run_finished (run, outcome)))
    beat->ask = ask;
  else
    demo_interrupt_free (ask);
}

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
plan_answer (DemoRun    *run,
             JsonObject *input,
             const char *user_text)
{
  gboolean frontend = declares_tool (input, TIME_TOOL);
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *tool_call_id = g_uuid_string_random ();
  g_autofree char *quote = quote_user (user_text);
  g_autofree char *reasoning = NULL;
  g_autofree char *text = NULL;

  plan_demo_state (run, stage_changes ("planning"), FALSE);
  plan_step (run, "planning", TRUE);
  reasoning = g_strdup_printf ("A new message (turn %u): “%s”. Plan: greet, and show what the "
                               "transcript renders (Markdown with a list, a table and code). "
                               "Then find out the time: %s. Last, offer to archive old notes, "
                               "and ask before doing it, since that changes files.",
                               run->turns, quote,
                               frontend
                                 ? "the app offers " TIME_TOOL ", so I will call it"
                                 : "the app offers no " TIME_TOOL " tool, so I will answer that call myself");
  plan_reasoning (run, reasoning);
  plan_step (run, "planning", FALSE);

  plan_demo_state (run, stage_changes ("writing"), FALSE);
  plan_text (run, message_id, introduction_markdown ());

  if (frontend)
    {
      JsonObject *outcome = string_members ("type", "success", NULL);
      JsonArray *pending = json_array_new ();

      plan_demo_state (run, stage_changes ("waiting for the time"), FALSE);
      plan_tool_call (run, tool_call_id, TIME_TOOL, message_id, "{\"timezone\":\"local\"}", NULL);

      /* The app runs the tool and starts a follow-up run with its answer. */
      json_array_add_string_element (pending, tool_call_id);
      json_object_set_array_member (outcome, "pendingToolCallIds", pending);
      plan_run_finished (run, outcome);
    }
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *iso = g_date_time_format_iso8601 (now);
      g_autofree char *when = describe_time (now);
      g_autofree char *lead = NULL;

      plan_tool_call (run, tool_call_id, TIME_TOOL, message_id, "{\"timezone\":\"local\"}", NULL);
      plan_tool_result (run, tool_call_id,
                        string_members ("time", iso, "timezone", g_date_time_get_timezone_abbreviation (now), NULL));

      lead = g_strdup_printf ("My own clock says it is %s (Tandem offers no `%s` tool, so I "
                              "answered that call myself).", when, TIME_TOOL);
      plan_ask_approval (run, lead);
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

  plan_demo_state (run, stage_changes ("writing"), FALSE);
  plan_reasoning (run, "They want a long answer: twenty short parts, no tools.");

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (text, "### Part %u\n\n%s\n\n", i + 1, paragraphs[i % G_N_ELEMENTS (paragraphs)]);
  g_string_append (text, "That is all. The top is a long way up.");

  plan_text (run, message_id, text->str);
  plan_demo_state (run, stage_changes ("done"), FALSE);
  plan_run_succeeded (run);
}

static void
plan_failure (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();

  plan_demo_state (run, stage_changes ("failing"), FALSE);
  plan_text_start (run, message_id);
  plan_words (run, AGUI_EVENT_TEXT_MESSAGE_CONTENT, message_id,
              "You asked for an error, so let me start an answer and then ");

  /* Mid-message on purpose: a failing agent rarely finishes its sentence. */
  plan_run_error (run, "The demo agent failed on purpose, because your message asked for an error.",
                  "demo_error");
}

/* The dashboard: a small A2UI surface, in the v0.8 shapes the A2UI
 * middleware sends, so a newcomer sees generative UI with no server.
 * Its button comes back as forwardedProps.a2uiAction, and the answer
 * appends a dataModelUpdate to the same activity. */
#define DASHBOARD_SURFACE    "demo-dashboard"
#define DASHBOARD_MESSAGE_ID "a2ui-surface-" DASHBOARD_SURFACE
#define DASHBOARD_OPERATIONS \
  "[{\"surfaceUpdate\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"components\":[" \
  "{\"id\":\"root\",\"component\":{\"Card\":{\"child\":\"main\"}}}," \
  "{\"id\":\"main\",\"component\":{\"Column\":{\"children\":{\"explicitList\":" \
  "[\"title\",\"stats\",\"divider\",\"focus\",\"mood\",\"remind\",\"plan\",\"summary\"]}}}}," \
  "{\"id\":\"title\",\"component\":{\"Text\":{\"usageHint\":\"h2\",\"text\":{\"literalString\":\"Your day at a glance\"}}}}," \
  "{\"id\":\"stats\",\"component\":{\"Row\":{\"distribution\":\"spaceEvenly\",\"children\":{\"template\":" \
  "{\"componentId\":\"stat\",\"dataBinding\":\"/stats\"}}}}}," \
  "{\"id\":\"stat\",\"component\":{\"Column\":{\"alignment\":\"center\",\"children\":{\"explicitList\":" \
  "[\"stat-icon\",\"stat-value\",\"stat-label\"]}}}}," \
  "{\"id\":\"stat-icon\",\"component\":{\"Icon\":{\"name\":{\"path\":\"icon\"}}}}," \
  "{\"id\":\"stat-value\",\"component\":{\"Text\":{\"usageHint\":\"h1\",\"text\":{\"path\":\"value\"}}}}," \
  "{\"id\":\"stat-label\",\"component\":{\"Text\":{\"usageHint\":\"caption\",\"text\":{\"path\":\"label\"}}}}," \
  "{\"id\":\"divider\",\"component\":{\"Divider\":{}}}," \
  "{\"id\":\"focus\",\"component\":{\"Slider\":{\"label\":{\"literalString\":\"Hours of focus\"}," \
  "\"value\":{\"path\":\"/focus\"},\"minValue\":0,\"maxValue\":8}}}," \
  "{\"id\":\"mood\",\"component\":{\"MultipleChoice\":{\"selections\":{\"path\":\"/mood\"},\"maxAllowedSelections\":1," \
  "\"variant\":\"chips\",\"options\":[{\"label\":{\"literalString\":\"Calm\"},\"value\":\"calm\"}," \
  "{\"label\":{\"literalString\":\"Busy\"},\"value\":\"busy\"},{\"label\":{\"literalString\":\"Tired\"},\"value\":\"tired\"}]}}}," \
  "{\"id\":\"remind\",\"component\":{\"CheckBox\":{\"label\":{\"literalString\":\"Remind me to take breaks\"}," \
  "\"value\":{\"path\":\"/remind\"}}}}," \
  "{\"id\":\"plan-text\",\"component\":{\"Text\":{\"text\":{\"literalString\":\"Plan my day\"}}}}," \
  "{\"id\":\"plan\",\"component\":{\"Button\":{\"child\":\"plan-text\",\"primary\":true,\"action\":{\"name\":\"plan_day\"," \
  "\"context\":[{\"key\":\"focus\",\"value\":{\"path\":\"/focus\"}},{\"key\":\"mood\",\"value\":{\"path\":\"/mood\"}}," \
  "{\"key\":\"remind\",\"value\":{\"path\":\"/remind\"}}]}}}}," \
  "{\"id\":\"summary\",\"component\":{\"Text\":{\"usageHint\":\"caption\",\"text\":{\"path\":\"/summary\"}}}}]}}," \
  "{\"dataModelUpdate\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"contents\":[" \
  "{\"key\":\"stats\",\"valueMap\":[" \
  "{\"key\":\"0\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"event\"},{\"key\":\"value\",\"valueString\":\"3\"}," \
  "{\"key\":\"label\",\"valueString\":\"meetings\"}]}," \
  "{\"key\":\"1\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"check\"},{\"key\":\"value\",\"valueString\":\"7\"}," \
  "{\"key\":\"label\",\"valueString\":\"tasks\"}]}," \
  "{\"key\":\"2\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"mail\"},{\"key\":\"value\",\"valueString\":\"12\"}," \
  "{\"key\":\"label\",\"valueString\":\"unread\"}]}]}," \
  "{\"key\":\"focus\",\"valueNumber\":3},{\"key\":\"mood\",\"valueArray\":[\"calm\"]}," \
  "{\"key\":\"remind\",\"valueBoolean\":true}," \
  "{\"key\":\"summary\",\"valueString\":\"Nothing planned yet.\"}]}}," \
  "{\"beginRendering\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"root\":\"root\"}}]"

static JsonNode *
parse_constant (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  /* Our own constant: a parse failure is a bug here. */
  if (!json_parser_load_from_data (parser, json, -1, NULL))
    g_error ("The demo agent's dashboard is not valid JSON");

  return json_parser_steal_root (parser);
}

static void
plan_dashboard (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();
  JsonObject *content = json_object_new ();
  JsonObject *members = string_members ("messageId", DASHBOARD_MESSAGE_ID, "activityType", "a2ui-surface", NULL);

  plan_text (run, message_id,
             "Here is a small dashboard. It is **generative UI**: I sent it as A2UI operations "
             "and Tandem drew it with its own widgets. Move the slider, pick a mood and press "
             "**Plan my day**: your choices come back to me.");
  json_object_set_member (content, "operations", parse_constant (DASHBOARD_OPERATIONS));
  json_object_set_object_member (members, "content", content);
  json_object_set_boolean_member (members, "replace", TRUE);
  plan_event (run, 1, AGUI_EVENT_ACTIVITY_SNAPSHOT, members);
  plan_run_succeeded (run);
}

static JsonObject *
a2ui_user_action (JsonObject *input)
{
  JsonNode *forwarded = json_object_get_member (input, "forwardedProps");
  JsonNode *action;
  JsonNode *user_action;

  if (forwarded == NULL || !JSON_NODE_HOLDS_OBJECT (forwarded) ||
      (action = json_object_get_member (json_node_get_object (forwarded), "a2uiAction")) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (action) ||
      (user_action = json_object_get_member (json_node_get_object (action), "userAction")) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (user_action))
    return NULL;

  return json_node_get_object (user_action);
}

static void
plan_dashboard_answer (DemoRun    *run,
                       JsonObject *user_action)
{
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *summary = NULL;
  g_autofree char *text = NULL;
  JsonNode *context_node = json_object_get_member (user_action, "context");
  JsonObject *context = context_node && JSON_NODE_HOLDS_OBJECT (context_node) ? json_node_get_object (context_node) : NULL;
  JsonNode *focus = context ? json_object_get_member (context, "focus") : NULL;
  JsonNode *remind = context ? json_object_get_member (context, "remind") : NULL;
  JsonNode *mood = context ? json_object_get_member (context, "mood") : NULL;
  const char *mood_name = "calm";
  const char *name = object_string (user_action, "name");
  double hours = 0;
  JsonObject *update;
  JsonObject *operation;
  JsonObject *patch_entry;
  JsonArray *patch;
  JsonObject *members;

  if (g_strcmp0 (name, "plan_day") != 0)
    {
      text = g_strdup_printf ("You pressed “%s” on a surface, but I only know the dashboard's Plan my day.",
                              name ? name : "something");
      plan_text (run, message_id, text);
      plan_run_succeeded (run);
      return;
    }

  if (focus != NULL && JSON_NODE_HOLDS_VALUE (focus) &&
      (json_node_get_value_type (focus) == G_TYPE_DOUBLE || json_node_get_value_type (focus) == G_TYPE_INT64))
    hours = CLAMP (json_node_get_double (focus), 0, 8);
  if (mood != NULL && JSON_NODE_HOLDS_ARRAY (mood) && json_array_get_length (json_node_get_array (mood)) > 0 &&
      JSON_NODE_HOLDS_VALUE (json_array_get_element (json_node_get_array (mood), 0)) &&
      json_node_get_value_type (json_array_get_element (json_node_get_array (mood), 0)) == G_TYPE_STRING)
    mood_name = json_array_get_string_element (json_node_get_array (mood), 0);

  summary = g_strdup_printf ("Planned: %.0f hours of focus for a %s day%s.", hours,
                             g_str_equal (mood_name, "busy") ? "busy" : g_str_equal (mood_name, "tired") ? "tired" : "calm",
                             remind && JSON_NODE_HOLDS_VALUE (remind) && json_node_get_value_type (remind) == G_TYPE_BOOLEAN &&
                             json_node_get_boolean (remind) ? ", with reminders to take breaks" : "");
  /* ACTIVITY_DELTA appends a dataModelUpdate: the surface changes its
   * summary without being sent again. */
  update = json_object_new ();
  json_object_set_string_member (update, "surfaceId", DASHBOARD_SURFACE);
  {
    JsonArray *contents = json_array_new ();
    JsonObject *entry = string_members ("key", "summary", "valueString", summary, NULL);

    json_array_add_object_element (contents, entry);
    json_object_set_array_member (update, "contents", contents);
  }
  operation = json_object_new ();
  json_object_set_object_member (operation, "dataModelUpdate", update);
  patch_entry = string_members ("op", "add", "path", "/operations/-", NULL);
  json_object_set_object_member (patch_entry, "value", operation);
  patch = json_array_new ();
  json_array_add_object_element (patch, patch_entry);

  members = string_members ("messageId", DASHBOARD_MESSAGE_ID, "activityType", "a2ui-surface", NULL);
  json_object_set_array_member (members, "patch", patch);
  plan_event (run, 1, AGUI_EVENT_ACTIVITY_DELTA, members);

  text = g_strdup_printf ("Got it. %s I updated the dashboard: only its data changed, the card stayed.", summary);
  plan_text (run, message_id, text);
  plan_run_succeeded (run);
}

static void
plan_introduction (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();

  plan_text (run, message_id,
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
  plan_run_succeeded (run);
}

static void
plan_time_answer (DemoRun    *run,
                  JsonObject *tool_message)
{
  g_autofree char *content = content_text (json_object_get_member (tool_message, "content"));
  const char *failure = object_string (tool_message, "error");
  g_autofree char *lead = NULL;

  plan_demo_state (run, stage_changes ("asking"), FALSE);

  if (failure != NULL)
    {
      g_autofree char *quote = quote_user (failure);

      lead = g_strdup_printf ("The desktop could not tell me the time (%s). Never mind.", quote);
    }
  else
    {
      g_autofree char *when = describe_time_result (content);

      lead = g_strdup_printf ("The desktop says it is %s. Thank you!", when);
    }

  plan_ask_approval (run, lead);
}

/* Resuming */

static GPtrArray *
open_interrupts (AguiDemoAgent *self,
                 const char    *thread_id)
{
  GPtrArray *open = g_ptr_array_new ();
  GHashTableIter iter;
  DemoInterrupt *interrupt;

  g_hash_table_iter_init (&iter, self->interrupts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &interrupt))
    if (interrupt->answer == NULL && g_strcmp0 (interrupt->thread_id, thread_id) == 0)
      g_ptr_array_add (open, interrupt);

  return open;
}

static gboolean
read_integer (JsonNode *node,
              gint64   *value)
{
  double number;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      return TRUE;
    }

  /* A spin button's value travels as a double; a whole one will do. */
  if (json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return FALSE;

  number = json_node_get_double (node);
  if (number != (double) (gint64) number)
    return FALSE;

  *value = (gint64) number;
  return TRUE;
}

/* Checks a resolved answer against the responseSchema the question came
 * with (rule 6 of AG-UI 13.2), returning why it does not fit. */
static char *
read_approval (DemoInterrupt  *interrupt,
               JsonNode       *payload,
               gboolean       *approved,
               gboolean       *edited,
               char          **folder,
               gint64         *keep_days)
{
  JsonObject *object = NULL;
  JsonObject *edits = NULL;
  JsonNode *member = NULL;
  const char *edited_folder = NULL;

  if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload))
    {
      object = json_node_get_object (payload);
      member = json_object_get_member (object, "approved");
    }

  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) ||
      json_node_get_value_type (member) != G_TYPE_BOOLEAN)
    return g_strdup_printf ("The answer to interrupt %s must be an object with a boolean "
                            "“approved”, as its responseSchema says.", interrupt->id);

  *approved = json_node_get_boolean (member);
  *edited = FALSE;
  *folder = g_strdup (interrupt->folder);
  *keep_days = interrupt->keep_days;

  member = json_object_get_member (object, "editedArgs");
  if (member == NULL || !*approved)
    return NULL;

  if (JSON_NODE_HOLDS_OBJECT (member))
    {
      edits = json_node_get_object (member);
      edited_folder = object_string (edits, "folder");
    }

  /* editedArgs replaces the arguments whole (rule 10), so it must be
   * complete. */
  if (edited_folder == NULL || edited_folder[0] == '\0' ||
      !read_integer (json_object_get_member (edits, "keepDays"), keep_days) ||
      *keep_days < 1)
    {
      g_clear_pointer (folder, g_free);
      return g_strdup_printf ("The editedArgs of the answer to interrupt %s must hold the whole "
                              "arguments: a non-empty “folder” and a positive integer “keepDays”.",
                              interrupt->id);
    }

  g_free (*folder);
  *folder = g_strdup (edited_folder);
  *edited = g_strcmp0 (*folder, interrupt->folder) != 0 || *keep_days != interrupt->keep_days;

  return NULL;
}

static guint
pretend_count (const char *folder,
               gint64      keep_days)
{
  return (g_str_hash (folder) + (guint) keep_days) % 17 + 3;
}

/* Acts on one valid answer: the call's result, and a sentence about it. */
static void
plan_settle (DemoRun       *run,
             DemoInterrupt *interrupt,
             JsonObject    *entry,
             GString       *text,
             const char   **approval)
{
  gboolean approved = FALSE;
  gboolean edited = FALSE;
  g_autofree char *folder = NULL;
  gint64 keep_days = 0;
  JsonObject *result;

  if (g_strcmp0 (object_string (entry, "status"), "cancelled") == 0)
    {
      plan_tool_result (run, interrupt->tool_call_id,
                        string_members ("status", "cancelled",
                                        "message", "The request was cancelled; nothing was archived.",
                                        NULL));
      g_string_append (text, "The question was cancelled, so I did not touch your notes.");
      *approval = "cancelled";
      return;
    }

  g_free (read_approval (interrupt, json_object_get_member (entry, "payload"),
                         &approved, &edited, &folder, &keep_days));

  if (!approved)
    {
      plan_tool_result (run, interrupt->tool_call_id,
                        string_members ("status", "denied",
                                        "message", "The user said no; nothing was archived.",
                                        NULL));
      g_string_append (text, "Understood, I left them alone.");
      *approval = "denied";
      return;
    }

  result = string_members ("status", "archived", "folder", folder, NULL);
  json_object_set_int_member (result, "keepDays", keep_days);
  json_object_set_int_member (result, "archived", pretend_count (folder, keep_days));
  json_object_set_boolean_member (result, "edited", edited);
  plan_tool_result (run, interrupt->tool_call_id, result);

  if (edited)
    g_string_append_printf (text, "You changed the request, so I archived %u notes in “%s” "
                            "older than %" G_GINT64_FORMAT " days instead of the ones in “%s” "
                            "older than %" G_GINT64_FORMAT " days.",
                            pretend_count (folder, keep_days), folder, keep_days,
                            interrupt->folder, interrupt->keep_days);
  else
    g_string_append_printf (text, "Done: I archived %u notes in “%s” older than %"
                            G_GINT64_FORMAT " days. (Only pretend: this is a demo.)",
                            pretend_count (folder, keep_days), folder, keep_days);
  *approval = edited ? "approved with edits" : "approved";
}

static gboolean
has_tool_answer (JsonArray  *messages,
                 const char *tool_call_id)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = array_object (messages, i);

      if (message != NULL && g_strcmp0 (object_string (message, "role"), "tool") == 0 &&
          g_strcmp0 (object_string (message, "toolCallId"), tool_call_id) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Finds a question this agent asked before it was last started, from
 * the call that carries its id in the history (see plan_ask_approval()).
 * One whose call was answered already counts as answered, in a way no
 * answer matches: any resume of it is a replay. */
static DemoInterrupt *
recover_interrupt (DemoRun    *run,
                   JsonArray  *messages,
                   const char *interrupt_id)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = array_object (messages, i);
      JsonArray *calls = message ? object_array (message, "toolCalls") : NULL;

      for (guint j = 0; calls != NULL && j < json_array_get_length (calls); j++)
        {
          JsonObject *call = array_object (calls, j);
          JsonNode *metadata = call ? json_object_get_member (call, "metadata") : NULL;
          JsonNode *function = call ? json_object_get_member (call, "function") : NULL;
          g_autoptr(JsonNode) arguments = NULL;
          DemoInterrupt *interrupt;
          const char *expires_at;
          const char *folder;
          gint64 keep_days;

          if (metadata == NULL || !JSON_NODE_HOLDS_OBJECT (metadata) ||
              g_strcmp0 (object_string (json_node_get_object (metadata), "interruptId"), interrupt_id) != 0 ||
              function == NULL || !JSON_NODE_HOLDS_OBJECT (function) ||
              g_strcmp0 (object_string (json_node_get_object (function), "name"), ARCHIVE_TOOL) != 0 ||
              object_string (call, "id") == NULL)
            continue;

          arguments = json_from_string (object_string (json_node_get_object (function), "arguments"), NULL);
          if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments) ||
              !(folder = object_string (json_node_get_object (arguments), "folder")) ||
              !read_integer (json_object_get_member (json_node_get_object (arguments), "keepDays"), &keep_days))
            return NULL;

          expires_at = object_string (json_node_get_object (metadata), "expiresAt");

          interrupt = g_new0 (DemoInterrupt, 1);
          interrupt->id = g_strdup (interrupt_id);
          interrupt->thread_id = g_strdup (run->thread_id);
          interrupt->tool_call_id = g_strdup (object_string (call, "id"));
          interrupt->folder = g_strdup (folder);
          interrupt->keep_days = keep_days;
          interrupt->expires_at = expires_at ? g_date_time_new_from_iso8601 (expires_at, NULL) : NULL;
          if (has_tool_answer (messages, interrupt->tool_call_id))
            interrupt->answer = json_node_new (JSON_NODE_NULL);

          return interrupt;
        }
    }

  return NULL;
}

/* What an answer says, to recognise it when it is replayed: the entry
 * without its metadata, which has no meaning for the answer itself. */
static JsonNode *
answer_node (JsonObject *entry)
{
  JsonObject *answer = string_members ("interruptId", object_string (entry, "interruptId"),
                                       "status", object_string (entry, "status"),
                                       NULL);
  JsonNode *payload = json_object_get_member (entry, "payload");
  JsonNode *node;

  if (payload != NULL)
    json_object_set_member (answer, "payload", _agui_json_node_copy_deep (payload));

  node = json_node_init_object (json_node_alloc (), answer);
  json_object_unref (answer);

  return node;
}

/* Finds what is wrong with a resume (AG-UI 13.2 rules 2, 3, 6 and 7);
 * fills @answers with the entries to act upon and @replays with the count
 * of answers already acted upon. */
static char *
check_resume (DemoRun     *run,
              JsonArray   *messages,
              JsonArray   *resume,
              GArray      *answers,
              guint       *replays,
              const char **code)
{
  g_autoptr(GPtrArray) open = open_interrupts (run->agent, run->thread_id);
  g_autoptr(GHashTable) addressed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  *replays = 0;

  for (guint i = 0; i < json_array_get_length (resume); i++)
    {
      JsonObject *entry = array_object (resume, i);
      const char *id = entry ? object_string (entry, "interruptId") : NULL;
      const char *status = entry ? object_string (entry, "status") : NULL;
      DemoInterrupt *interrupt = id ? g_hash_table_lookup (run->agent->interrupts, id) : NULL;
      g_autoptr(JsonNode) answer = NULL;

      if (interrupt == NULL && id != NULL && (interrupt = recover_interrupt (run, messages, id)))
        g_hash_table_replace (run->agent->interrupts, interrupt->id, interrupt);

      if (id == NULL || (g_strcmp0 (status, "resolved") != 0 && g_strcmp0 (status, "cancelled") != 0))
        {
          *code = "invalid_answer";
          return g_strdup_printf ("Resume entry %u is not an answer: it needs an “interruptId” "
                                  "and a “status” of resolved or cancelled.", i);
        }

      if (interrupt == NULL || g_strcmp0 (interrupt->thread_id, run->thread_id) != 0)
        {
          *code = "unknown_interrupt";
          return g_strdup_printf ("I never asked interrupt %s on this thread, so there is "
                                  "nothing to resume.", id);
        }

      if (!g_hash_table_add (addressed, (gpointer) interrupt->id))
        {
          *code = "invalid_answer";
          return g_strdup_printf ("Interrupt %s is answered twice in one resume.", id);
        }

      answer = answer_node (entry);
      if (interrupt->answer != NULL)
        {
          /* Replaying the same answer must be harmless (rule 5). */
          if (JSON_NODE_HOLDS_NULL (interrupt->answer) ||
              agui_json_node_equal (answer, interrupt->answer))
            {
              (*replays)++;
              continue;
            }

          *code = "already_answered";
          return g_strdup_printf ("Interrupt %s was already answered differently; an answer "
                                  "cannot be changed.", id);
        }

      if (g_strcmp0 (status, "resolved") == 0)
        {
          gboolean approved, edited;
          g_autofree char *folder = NULL;
          g_autofree char *problem = NULL;
          gint64 keep_days;

          if (interrupt->expires_at != NULL && g_date_time_compare (interrupt->expires_at, now) <= 0)
            {
              g_autofree char *expiry = g_date_time_format_iso8601 (interrupt->expires_at);

              *code = "interrupt_expired";
              return g_strdup_printf ("Interrupt %s expired at %s and can no longer be "
                                      "answered. Cancel it to continue the thread.", id, expiry);
            }

          problem = read_approval (interrupt, json_object_get_member (entry, "payload"),
                                   &approved, &edited, &folder, &keep_days);
          if (problem != NULL)
            {
              *code = "invalid_answer";
              return g_steal_pointer (&problem);
            }
        }

      g_array_append_vals (answers, &(Answer) { interrupt, entry }, 1);
    }

  for (guint i = 0; i < open->len; i++)
    {
      DemoInterrupt *interrupt = g_ptr_array_index (open, i);

      if (!g_hash_table_contains (addressed, interrupt->id))
        {
          *code = "missing_answer";
          return g_strdup_printf ("The resume does not answer interrupt %s; every open "
                                  "interrupt needs an answer, or a cancellation.", interrupt->id);
        }
    }

  return NULL;
}

static void
plan_resume (DemoRun   *run,
             JsonArray *messages,
             JsonArray *resume)
{
  g_autoptr(GArray) answers = g_array_new (FALSE, FALSE, sizeof (Answer));
  g_autofree char *problem = NULL;
  g_autofree char *message_id = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GPtrArray) settled = NULL;
  const char *approval = NULL;
  const char *code = NULL;
  JsonObject *changes;
  guint replays;
  Beat *beat;

  /* Rule 8: a wrong answer is an error, never silence. The questions stay
   * open, so a corrected resume can follow. */
  if ((problem = check_resume (run, messages, resume, answers, &replays, &code)))
    {
      plan_run_error (run, problem, code);
      return;
    }

  message_id = g_uuid_string_random ();
  if (answers->len == 0)
    {
      plan_text (run, message_id, "I already took care of that; there is nothing left to do.");
      plan_run_succeeded (run);
      return;
    }

  text = g_string_new (NULL);
  settled = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  plan_demo_state (run, stage_changes ("archiving"), FALSE);
  plan_step (run, "archiving", TRUE);
  for (guint i = 0; i < answers->len; i++)
    {
      Answer *answer = &g_array_index (answers, Answer, i);

      if (text->len > 0)
        g_string_append (text, "\n\n");
      plan_settle (run, answer->interrupt, answer->entry, text, &approval);

      g_ptr_array_add (settled, answer_node (answer->entry));
    }
  plan_step (run, "archiving", FALSE);

  plan_text (run, message_id, text->str);

  changes = stage_changes ("done");
  json_object_set_string_member (changes, "approval", approval);
  plan_demo_state (run, changes, FALSE);

  /* Settled once the client has seen the outcome: a run closed before
   * then did nothing, and the same resume may come again. */
  if ((beat = plan_run_finished (run, string_members ("type", "success", NULL))))
    beat->answers = g_steal_pointer (&settled);
}

static void
plan_run (DemoRun    *run,
          JsonObject *input)
{
  JsonArray *messages = object_array (input, "messages");
  JsonArray *resume = object_array (input, "resume");
  g_autoptr(GPtrArray) open = NULL;
  JsonObject *last = NULL;
  const char *role;

  plan_run_started (run);

  if (resume != NULL && json_array_get_length (resume) > 0)
    {
      plan_resume (run, messages, resume);
      return;
    }

  /* Rule 4: a thread with open questions takes nothing but answers. */
  open = open_interrupts (run->agent, run->thread_id);
  if (open->len > 0)
    {
      DemoInterrupt *interrupt = g_ptr_array_index (open, 0);
      g_autofree char *message = NULL;

      message = g_strdup_printf ("This thread waits for an answer to interrupt %s. Resume it, "
                                 "answering or cancelling it, before sending anything else.",
                                 interrupt->id);
      plan_run_error (run, message, "interrupt_pending");
      return;
    }

  if (json_array_get_length (messages) > 0)
    last = array_object (messages, json_array_get_length (messages) - 1);
  role = last ? object_string (last, "role") : NULL;

  if (a2ui_user_action (input) != NULL)
    {
      plan_dashboard_answer (run, a2ui_user_action (input));
      return;
    }

  if (g_strcmp0 (role, "user") == 0)
    {
      g_autofree char *text = content_text (json_object_get_member (last, "content"));
      g_autofree char *folded = g_utf8_casefold (text, -1);

      if (has_word (folded, "error") || has_word (folded, "fehler"))
        plan_failure (run);
      else if (has_word (folded, "long") || has_word (folded, "lange"))
        plan_long_answer (run);
      else if (has_word (folded, "dashboard") || has_word (folded, "übersicht"))
        plan_dashboard (run);
      else if (has_word (folded, "archive") || has_word (folded, "archiviere") || has_word (folded, "archivieren"))
        {
          plan_demo_state (run, stage_changes ("asking"), FALSE);
          plan_ask_approval (run, "You mentioned archiving, so let us skip the small talk.");
        }
      else
        plan_answer (run, input, text);
    }
  else if (g_strcmp0 (role, "tool") == 0 &&
           g_strcmp0 (called_tool_name (messages, object_string (last, "toolCallId")), TIME_TOOL) == 0)
    {
      plan_time_answer (run, last);
    }
  else
    {
      plan_introduction (run);
    }
}

/* Playing a planned run */

static void run_schedule (DemoRun *run,
                          guint    milliseconds);

static void
run_unschedule (DemoRun *run)
{
  if (run->source == NULL)
    return;

  g_source_destroy (run->source);
  g_clear_pointer (&run->source, g_source_unref);
}

static void
run_free (DemoRun *run)
{
  run_unschedule (run);

  if (run->agent != NULL)
    g_ptr_array_remove_fast (run->agent->runs, run);

  g_cancellable_disconnect (agui_event_stream_get_cancellable (run->stream), run->cancelled_id);
  g_queue_clear_full (&run->beats, (GDestroyNotify) beat_free);
  g_clear_object (&run->stream);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_clear_pointer (&run->thread_id, g_free);
  g_clear_pointer (&run->run_id, g_free);
  _agui_json_value_clear (&run->state);
  g_free (run);
}

static gboolean
run_can_go_on (DemoRun *run)
{
  return run->agent != NULL &&
         !g_cancellable_is_cancelled (agui_event_stream_get_cancellable (run->stream));
}

/* Ends the stream as the run ends: normally, or because the agent went
 * away under it (a consumer that closed the stream wants nothing more). */
static void
run_end (DemoRun *run)
{
  if (run->agent == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                                     "The demo agent was shut down mid-run");

      agui_event_stream_end (run->stream, error);
    }
  else
    {
      agui_event_stream_end (run->stream, NULL);
    }

  run_free (run);
}

static void
run_play (DemoRun *run,
          Beat    *beat)
{
  AguiDemoAgent *self = run->agent;

  /* Before the push: a consumer may answer from inside it. */
  if (beat->ask != NULL)
    {
      DemoInterrupt *ask = g_steal_pointer (&beat->ask);
      GHashTableIter iter;
      DemoInterrupt *old;

      /* Only the latest answer on a thread can still be replayed; the
       * older ones need not be kept. */
      g_hash_table_iter_init (&iter, self->interrupts);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &old))
        if (old->answer != NULL && g_strcmp0 (old->thread_id, ask->thread_id) == 0)
          g_hash_table_iter_remove (&iter);

      g_hash_table_replace (self->interrupts, ask->id, ask);
    }

  for (guint i = 0; beat->answers != NULL && i < beat->answers->len; i++)
    {
      JsonNode *answer = g_ptr_array_index (beat->answers, i);
      const char *id = json_object_get_string_member (json_node_get_object (answer), "interruptId");
      DemoInterrupt *interrupt = g_hash_table_lookup (self->interrupts, id);

      if (interrupt != NULL && interrupt->answer == NULL)
        interrupt->answer = json_node_ref (answer);
    }

  agui_event_stream_push_event (run->stream, beat->event);
}

static gboolean
run_tick_cb (gpointer user_data)
{
  DemoRun *run = user_data;
  Beat *beat;

  /* Returning G_SOURCE_REMOVE destroys the source; drop our handle. */
  g_clear_pointer (&run->source, g_source_unref);

  run->playing = TRUE;
  while (run_can_go_on (run) && (beat = g_queue_pop_head (&run->beats)))
    {
      guint pause = beat->pause;

      run_play (run, beat);
      beat_free (beat);

      if (pause > 0 && run_can_go_on (run) && !g_queue_is_empty (&run->beats))
        {
          run->playing = FALSE;
          run_schedule (run, pause * run->delay);
          return G_SOURCE_REMOVE;
        }
    }
  run->playing = FALSE;

  run_end (run);

  return G_SOURCE_REMOVE;
}

static void
run_schedule (DemoRun *run,
              guint    milliseconds)
{
  g_assert (run->source == NULL);

  run->source = milliseconds == 0 ? g_idle_source_new () : g_timeout_source_new (milliseconds);
  /* An idle source at its default priority starves while a window keeps
   * redrawing (a spinner does): events must arrive like network I/O. */
  g_source_set_priority (run->source, G_PRIORITY_DEFAULT);
  g_source_set_callback (run->source, run_tick_cb, run, NULL);
  g_source_set_static_name (run->source, "[agui] demo agent run");
  g_source_attach (run->source, run->context);
}

/* Closing the stream stops the run at once rather than after the pause:
 * the next tick sees the cancellation and frees everything. The stream
 * lives on the run's main context, so this runs there too. */
static void
on_stream_cancelled_cb (GCancellable *cancellable,
                        gpointer      user_data)
{
  DemoRun *run = user_data;

  if (run->playing)
    return;

  run_unschedule (run);
  run_schedule (run, 0);
}

static DemoRun *
run_new (AguiDemoAgent *self,
         JsonObject    *input)
{
  JsonArray *messages = object_array (input, "messages");
  JsonNode *state = json_object_get_member (input, "state");
  DemoRun *run = g_new0 (DemoRun, 1);

  run->agent = self;
  run->stream = agui_event_stream_new ();
  run->context = g_main_context_ref_thread_default ();
  run->delay = self->delay;
  g_queue_init (&run->beats);
  run->thread_id = g_strdup (object_string (input, "threadId"));
  run->run_id = g_strdup (object_string (input, "runId"));
  if (state != NULL)
    _agui_json_value_set_node (&run->state, state);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = array_object (messages, i);

      if (message != NULL && g_strcmp0 (object_string (message, "role"), "user") == 0)
        run->turns++;
    }

  return run;
}

/* A server would answer a malformed request with 400: not a stream. */
static gboolean
check_input (JsonObject  *input,
             GError     **error)
{
  static const char * const arrays[] = { "messages", "tools", "resume" };
  const char *thread_id = object_string (input, "threadId");
  const char *run_id = object_string (input, "runId");

  if (thread_id == NULL || thread_id[0] == '\0' || run_id == NULL || run_id[0] == '\0')
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "The RunAgentInput needs a non-empty threadId and runId");
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    {
      JsonNode *member = json_object_get_member (input, arrays[i]);

      if ((member == NULL && i == 0) || (member != NULL && !JSON_NODE_HOLDS_ARRAY (member)))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "The RunAgentInput's %s must be an array", arrays[i]);
          return FALSE;
        }
    }

  return TRUE;
}

static void
agui_demo_agent_run_async (AguiTransport       *transport,
                           JsonNode            *input,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  DemoRun *run;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_demo_agent_run_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!check_input (json_node_get_object (input), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The whole run is decided now, from the input as it is; the events
   * follow from the main loop, never from inside this call. */
  run = run_new (self, json_node_get_object (input));
  plan_run (run, json_node_get_object (input));
  g_ptr_array_add (self->runs, run);
  run->cancelled_id = g_cancellable_connect (agui_event_stream_get_cancellable (run->stream),
                                             G_CALLBACK (on_stream_cancelled_cb), run, NULL);
  run_schedule (run, 0);

  g_task_set_task_data (task, g_object_ref (run->stream), g_object_unref);
  g_task_return_pointer (task, g_object_ref (run->stream), g_object_unref);
}

static AguiEventStream *
agui_demo_agent_run_finish (AguiTransport  *transport,
                            GAsyncResult   *result,
                            GError        **error)
{
  AguiEventStream *stream;

  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);

  stream = g_task_propagate_pointer (G_TASK (result), error);

  /* Cancelled after the run was set up but before its stream was taken:
   * nobody will read it, so stop the run. */
  if (stream == NULL && g_task_get_task_data (G_TASK (result)) != NULL)
    agui_event_stream_close (g_task_get_task_data (G_TASK (result)));

  return stream;
}

static void
transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_demo_agent_run_async;
  iface->run_finish = agui_demo_agent_run_finish;
}

static void
agui_demo_agent_dispose (GObject *object)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  /* No source outlives the agent: runs end here, with an error on their
   * stream, except one in the middle of a beat, which ends on its own as
   * soon as the beat is out. */
  while (self->runs->len > 0)
    {
      DemoRun *run = g_ptr_array_steal_index_fast (self->runs, self->runs->len - 1);

      run->agent = NULL;
      if (!run->playing)
        run_end (run);
    }

  G_OBJECT_CLASS (agui_demo_agent_parent_class)->dispose (object);
}

static void
agui_demo_agent_finalize (GObject *object)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->interrupts, g_hash_table_unref);

  G_OBJECT_CLASS (agui_demo_agent_parent_class)->finalize (object);
}

static void
agui_demo_agent_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  switch (prop_id)
    {
    case PROP_DELAY:
      g_value_set_uint (value, self->delay);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_demo_agent_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  switch (prop_id)
    {
    case PROP_DELAY:
      agui_demo_agent_set_delay (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_demo_agent_class_init (AguiDemoAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agui_demo_agent_dispose;
  object_class->finalize = agui_demo_agent_finalize;
  object_class->get_property = agui_demo_agent_get_property;
  object_class->set_property = agui_demo_agent_set_property;

  /**
   * AguiDemoAgent:delay:
   *
   * The pause between streamed deltas, in milliseconds; the pauses
   * around steps and tool calls are a few times longer. With 0 the
   * events still come from the main loop, one idle at a time. A run
   * keeps the delay it started with.
   */
  properties[PROP_DELAY] =
    g_param_spec_uint ("delay", NULL, NULL,
                       0, MAX_DELAY, DEFAULT_DELAY,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_demo_agent_init (AguiDemoAgent *self)
{
  self->runs = g_ptr_array_new ();
  self->interrupts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                            (GDestroyNotify) demo_interrupt_free);
  self->delay = DEFAULT_DELAY;
}

/**
 * agui_demo_agent_new:
 *
 * Returns: (transfer full): an in-process demo agent
 */
AguiDemoAgent *
agui_demo_agent_new (void)
{
  return g_object_new (AGUI_TYPE_DEMO_AGENT, NULL);
}

/**
 * agui_demo_agent_get_delay:
 * @self: a demo agent
 *
 * Returns: the pause between streamed deltas, in milliseconds
 */
guint
agui_demo_agent_get_delay (AguiDemoAgent *self)
{
  g_return_val_if_fail (AGUI_IS_DEMO_AGENT (self), 0);

  return self->delay;
}

/**
 * agui_demo_agent_set_delay:
 * @self: a demo agent
 * @milliseconds: the pause between streamed deltas
 *
 * Sets [property@Agui.DemoAgent:delay] for the runs started from now on.
 */
void
agui_demo_agent_set_delay (AguiDemoAgent *self,
                           guint          milliseconds)
{
  g_return_if_fail (AGUI_IS_DEMO_AGENT (self));

  milliseconds = MIN (milliseconds, MAX_DELAY);
  if (self->delay == milliseconds)
    return;

  self->delay = milliseconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DELAY]);
}
