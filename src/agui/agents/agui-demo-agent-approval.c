/* agui-demo-agent-approval.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The approval flow: the question the demo agent asks before it
 * archives, and the resume that answers it (AG-UI 13.2). */

#include "config.h"

#include "agui-demo-agent-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"

#define ARCHIVE_TOOL               "archive_notes"
#define ARCHIVE_FOLDER             "Demo"
#define ARCHIVE_KEEP_DAYS          30
#define INTERRUPT_LIFETIME_MINUTES 10

#define RESPONSE_SCHEMA \
  "{\"type\":\"object\"," \
  "\"properties\":{" \
    "\"approved\":{\"type\":\"boolean\"}," \
    "\"editedArgs\":{\"type\":\"object\"," \
      "\"properties\":{\"folder\":{\"type\":\"string\",\"minLength\":1}," \
                      "\"keepDays\":{\"type\":\"integer\",\"minimum\":1}}," \
      "\"required\":[\"folder\",\"keepDays\"]}}," \
  "\"required\":[\"approved\"]}"

typedef struct
{
  DemoInterrupt       *interrupt;
  const AguiJsonValue *entry;
} Answer;

void
_agui_demo_interrupt_free (DemoInterrupt *interrupt)
{
  if (interrupt == NULL)
    return;

  g_free (interrupt->id);
  g_free (interrupt->thread_id);
  g_free (interrupt->tool_call_id);
  g_free (interrupt->folder);
  g_clear_pointer (&interrupt->expires_at, g_date_time_unref);
  g_clear_pointer (&interrupt->answer, _agui_json_doc_value_free);
  g_free (interrupt);
}

void
_agui_demo_plan_ask_approval (DemoRun    *run,
                              const char *lead)
{
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *tool_call_id = g_uuid_string_random ();
  g_autofree char *question = NULL;
  g_autofree char *text = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *expires_at = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_auto(AguiJsonValue) schema = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *interrupt;
  AguiJsonValue *outcome;
  DemoInterrupt *ask;
  Beat *beat;

  if (!_agui_json_doc_parse (RESPONSE_SCHEMA, -1, &schema, NULL))
    g_assert_not_reached ();

  text = g_strdup_printf ("%s\n\nWhile we are here: your **%s** folder holds notes older than "
                          "%d days. I can archive them for you, but that changes your files, "
                          "so I will ask first.",
                          lead, ARCHIVE_FOLDER, ARCHIVE_KEEP_DAYS);
  _agui_demo_plan_text (run, message_id, text);

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
  _agui_demo_plan_tool_call (run, tool_call_id, ARCHIVE_TOOL, message_id, arguments,
                             _agui_demo_members ("interruptId", ask->id, "expiresAt", expires_at, NULL));

  /* Everything needed to resume goes out before the question (rule 9 of
   * AG-UI 13.2); the messages are all in the client's history already. */
  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("awaiting approval"), TRUE);

  question = g_strdup_printf ("May I archive the notes in “%s” older than %d days?",
                              ARCHIVE_FOLDER, ARCHIVE_KEEP_DAYS);
  outcome = _agui_demo_members ("type", "interrupt", NULL);
  interrupt = _agui_json_doc_add_object (_agui_json_doc_set_array (outcome->u.object, "interrupts"));
  _agui_json_doc_set_string (interrupt, "id", ask->id);
  _agui_json_doc_set_string (interrupt, "reason", "tool_call");
  _agui_json_doc_set_string (interrupt, "toolCallId", tool_call_id);
  _agui_json_doc_set_string (interrupt, "message", question);
  _agui_json_doc_set_string (interrupt, "expiresAt", expires_at);
  _agui_json_object_set (interrupt, "responseSchema", &schema);

  /* The question exists for the agent only once the client has seen it. */
  if ((beat = _agui_demo_plan_run_finished (run, outcome)))
    beat->ask = ask;
  else
    _agui_demo_interrupt_free (ask);
}

/* Resuming */

GPtrArray *
_agui_demo_open_interrupts (AguiDemoAgent *self,
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
read_integer (const AguiJsonValue *node,
              gint64              *value)
{
  double number;

  if (node == NULL)
    return FALSE;

  if (node->kind == AGUI_JSON_DOC_INT)
    {
      *value = node->u.integer;
      return TRUE;
    }

  /* A spin button's value travels as a double; a whole one will do. */
  if (node->kind != AGUI_JSON_DOC_DOUBLE)
    return FALSE;

  number = node->u.number;
  if (number != (double) (gint64) number)
    return FALSE;

  *value = (gint64) number;
  return TRUE;
}

/* Checks a resolved answer against the responseSchema the question came
 * with (rule 6 of AG-UI 13.2), returning why it does not fit. */
static char *
read_approval (DemoInterrupt  *interrupt,
               const AguiJsonValue  *payload,
               gboolean             *approved,
               gboolean             *edited,
               char                **folder,
               gint64               *keep_days)
{
  AguiJsonValue *edits = NULL;
  AguiJsonValue *member = _agui_json_doc_get_member (payload, "approved");
  const char *edited_folder = NULL;

  if (member == NULL || member->kind != AGUI_JSON_DOC_BOOLEAN)
    return g_strdup_printf ("The answer to interrupt %s must be an object with a boolean "
                            "“approved”, as its responseSchema says.", interrupt->id);

  *approved = member->u.boolean;
  *edited = FALSE;
  *folder = g_strdup (interrupt->folder);
  *keep_days = interrupt->keep_days;

  member = _agui_json_doc_get_member (payload, "editedArgs");
  if (member == NULL || !*approved)
    return NULL;

  if (member->kind == AGUI_JSON_DOC_OBJECT)
    {
      edits = member;
      edited_folder = _agui_json_doc_get_string (edits, "folder");
    }

  /* editedArgs replaces the arguments whole (rule 10), so it must be
   * complete. */
  if (edited_folder == NULL || edited_folder[0] == '\0' ||
      !read_integer (_agui_json_doc_get_member (edits, "keepDays"), keep_days) ||
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
             const AguiJsonValue *entry,
             GString             *text,
             const char         **approval)
{
  gboolean approved = FALSE;
  gboolean edited = FALSE;
  g_autofree char *folder = NULL;
  gint64 keep_days = 0;
  g_auto(AguiJsonValue) result = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;

  if (g_strcmp0 (_agui_json_doc_get_string (entry, "status"), "cancelled") == 0)
    {
      _agui_demo_string_value (&result, "status", "cancelled", "message", "The request was cancelled; nothing was archived.", NULL);
      _agui_demo_plan_tool_result (run, interrupt->tool_call_id, &result);
      g_string_append (text, "The question was cancelled, so I did not touch your notes.");
      *approval = "cancelled";
      return;
    }

  g_free (read_approval (interrupt, _agui_json_doc_get_member (entry, "payload"),
                         &approved, &edited, &folder, &keep_days));

  if (!approved)
    {
      _agui_demo_string_value (&result, "status", "denied", "message", "The user said no; nothing was archived.", NULL);
      _agui_demo_plan_tool_result (run, interrupt->tool_call_id, &result);
      g_string_append (text, "Understood, I left them alone.");
      *approval = "denied";
      return;
    }

  object = _agui_demo_string_value (&result, "status", "archived", "folder", folder, NULL);
  _agui_json_doc_set_int (object, "keepDays", keep_days);
  _agui_json_doc_set_int (object, "archived", pretend_count (folder, keep_days));
  _agui_json_doc_set_boolean (object, "edited", edited);
  _agui_demo_plan_tool_result (run, interrupt->tool_call_id, &result);

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
has_tool_answer (const AguiJsonValue *messages,
                 const char          *tool_call_id)
{
  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      AguiJsonValue *message = _agui_json_doc_get_element (messages, i);

      if (g_strcmp0 (_agui_json_doc_get_string (message, "role"), "tool") == 0 &&
          g_strcmp0 (_agui_json_doc_get_string (message, "toolCallId"), tool_call_id) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Finds a question this agent asked before it was last started, from
 * the call that carries its id in the history (see _agui_demo_plan_ask_approval()).
 * One whose call was answered already counts as answered, in a way no
 * answer matches: any resume of it is a replay. */
static DemoInterrupt *
recover_interrupt (DemoRun             *run,
                   const AguiJsonValue *messages,
                   const char          *interrupt_id)
{
  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      AguiJsonValue *calls = _agui_json_doc_get_array (_agui_json_doc_get_element (messages, i), "toolCalls");

      for (guint j = 0; j < _agui_json_doc_get_length (calls); j++)
        {
          AguiJsonValue *call = _agui_json_doc_get_element (calls, j);
          AguiJsonValue *metadata = _agui_json_doc_get_object (call, "metadata");
          AguiJsonValue *function = _agui_json_doc_get_object (call, "function");
          g_auto(AguiJsonValue) arguments = AGUI_JSON_VALUE_INIT;
          DemoInterrupt *interrupt;
          const char *text;
          const char *expires_at;
          const char *folder;
          gint64 keep_days;

          if (g_strcmp0 (_agui_json_doc_get_string (metadata, "interruptId"), interrupt_id) != 0 ||
              g_strcmp0 (_agui_json_doc_get_string (function, "name"), ARCHIVE_TOOL) != 0 ||
              _agui_json_doc_get_string (call, "id") == NULL)
            continue;

          text = _agui_json_doc_get_string (function, "arguments");
          if (text == NULL || !_agui_json_doc_parse (text, -1, &arguments, NULL) ||
              !(folder = _agui_json_doc_get_string (&arguments, "folder")) ||
              !read_integer (_agui_json_doc_get_member (&arguments, "keepDays"), &keep_days))
            return NULL;

          expires_at = _agui_json_doc_get_string (metadata, "expiresAt");

          interrupt = g_new0 (DemoInterrupt, 1);
          interrupt->id = g_strdup (interrupt_id);
          interrupt->thread_id = g_strdup (run->thread_id);
          interrupt->tool_call_id = g_strdup (_agui_json_doc_get_string (call, "id"));
          interrupt->folder = g_strdup (folder);
          interrupt->keep_days = keep_days;
          interrupt->expires_at = expires_at ? g_date_time_new_from_iso8601 (expires_at, NULL) : NULL;
          if (has_tool_answer (messages, interrupt->tool_call_id))
            interrupt->answer = g_new0 (AguiJsonValue, 1);

          return interrupt;
        }
    }

  return NULL;
}

/* What an answer says, to recognise it when it is replayed: the entry
 * without its metadata, which has no meaning for the answer itself. */
static AguiJsonValue *
answer_value (const AguiJsonValue *entry)
{
  static const char * const names[] = { "interruptId", "status" };
  AguiJsonValue *answer = g_new0 (AguiJsonValue, 1);
  AguiJsonDocObject *object = _agui_json_value_set_object (answer, 3);
  AguiJsonValue *payload = _agui_json_doc_get_member (entry, "payload");

  /* Both are strings by the time an entry is acted upon; null otherwise,
   * as a json-glib setter given NULL made them. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *value = _agui_json_doc_get_string (entry, names[i]);

      if (value != NULL)
        _agui_json_doc_set_string (object, names[i], value);
      else
        _agui_json_doc_set_null (object, names[i]);
    }
  if (payload != NULL)
    _agui_json_doc_set_copy (object, "payload", payload);

  return answer;
}

/* Finds what is wrong with a resume (AG-UI 13.2 rules 2, 3, 6 and 7);
 * fills @answers with the entries to act upon and @replays with the count
 * of answers already acted upon. */
static char *
check_resume (DemoRun              *run,
              const AguiJsonValue  *messages,
              const AguiJsonValue  *resume,
              GArray               *answers,
              guint                *replays,
              const char          **code)
{
  g_autoptr(GPtrArray) open = _agui_demo_open_interrupts (run->agent, run->thread_id);
  g_autoptr(GHashTable) addressed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  *replays = 0;

  for (guint i = 0; i < _agui_json_doc_get_length (resume); i++)
    {
      AguiJsonValue *entry = _agui_json_doc_get_element (resume, i);
      const char *id = _agui_json_doc_get_string (entry, "interruptId");
      const char *status = _agui_json_doc_get_string (entry, "status");
      DemoInterrupt *interrupt = id ? g_hash_table_lookup (run->agent->interrupts, id) : NULL;
      g_autoptr(AguiJsonValue) answer = NULL;

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

      answer = answer_value (entry);
      if (interrupt->answer != NULL)
        {
          /* Replaying the same answer must be harmless (rule 5). */
          if (interrupt->answer->kind == AGUI_JSON_DOC_NULL ||
              _agui_json_value_equal (answer, interrupt->answer))
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

          problem = read_approval (interrupt, _agui_json_doc_get_member (entry, "payload"),
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

void
_agui_demo_plan_resume (DemoRun             *run,
                        const AguiJsonValue *messages,
                        const AguiJsonValue *resume)
{
  g_autoptr(GArray) answers = g_array_new (FALSE, FALSE, sizeof (Answer));
  g_autofree char *problem = NULL;
  g_autofree char *message_id = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GPtrArray) settled = NULL;
  const char *approval = NULL;
  const char *code = NULL;
  AguiJsonValue *changes;
  guint replays;
  Beat *beat;

  /* Rule 8: a wrong answer is an error, never silence. The questions stay
   * open, so a corrected resume can follow. */
  if ((problem = check_resume (run, messages, resume, answers, &replays, &code)))
    {
      _agui_demo_plan_run_error (run, problem, code);
      return;
    }

  message_id = g_uuid_string_random ();
  if (answers->len == 0)
    {
      _agui_demo_plan_text (run, message_id, "I already took care of that; there is nothing left to do.");
      _agui_demo_plan_run_succeeded (run);
      return;
    }

  text = g_string_new (NULL);
  settled = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_json_doc_value_free);

  _agui_demo_plan_demo_state (run, _agui_demo_stage_changes ("archiving"), FALSE);
  _agui_demo_plan_step (run, "archiving", TRUE);
  for (guint i = 0; i < answers->len; i++)
    {
      Answer *answer = &g_array_index (answers, Answer, i);

      if (text->len > 0)
        g_string_append (text, "\n\n");
      plan_settle (run, answer->interrupt, answer->entry, text, &approval);

      g_ptr_array_add (settled, answer_value (answer->entry));
    }
  _agui_demo_plan_step (run, "archiving", FALSE);

  _agui_demo_plan_text (run, message_id, text->str);

  changes = _agui_demo_stage_changes ("done");
  /* every answer settled says how (plan_settle ()) */
  _agui_json_doc_set_string (changes->u.object, "approval", approval);
  _agui_demo_plan_demo_state (run, changes, FALSE);

  /* Settled once the client has seen the outcome: a run closed before
   * then did nothing, and the same resume may come again. */
  if ((beat = _agui_demo_plan_run_finished (run, _agui_demo_members ("type", "success", NULL))))
    beat->answers = g_steal_pointer (&settled);
}
