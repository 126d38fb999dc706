/* agui-demo-agent-plan.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The demo agent's vocabulary: the events a run plans, one beat each,
 * and what it reads from the request it answers. */

#include "config.h"

#include <string.h>

#include "agui-demo-agent-private.h"
#include "agui-event-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"

#define ARGUMENT_PIECE_LENGTH 7
#define QUOTE_LENGTH          60

/* Building events */

static void
set_string_members (AguiJsonDocObject *object,
                    const char        *first_name,
                    va_list            args)
{
  for (const char *name = first_name; name != NULL; name = va_arg (args, const char *))
    {
      const char *string = va_arg (args, const char *);

      /* NULL as json_object_set_string_member () takes it: null */
      if (string != NULL)
        _agui_json_doc_set_string (object, name, string);
      else
        _agui_json_doc_set_null (object, name);
    }
}

AguiJsonValue *
_agui_demo_members (const char *first_name,
                    ...)
{
  AguiJsonValue *value = g_new0 (AguiJsonValue, 1);
  va_list args;

  va_start (args, first_name);
  set_string_members (_agui_json_value_set_object (value, 0), first_name, args);
  va_end (args);

  return value;
}

AguiJsonDocObject *
_agui_demo_string_value (AguiJsonValue *value,
                         const char    *first_name,
                         ...)
{
  AguiJsonDocObject *object = _agui_json_value_set_object (value, 0);
  va_list args;

  va_start (args, first_name);
  set_string_members (object, first_name, args);
  va_end (args);

  return object;
}

void
_agui_demo_members_take (AguiJsonValue *members,
                         const char    *name,
                         AguiJsonValue *value)
{
  _agui_json_object_set (members->u.object, name, value);
  _agui_json_doc_value_free (value);
}

Beat *
_agui_demo_plan_event (DemoRun       *run,
                       guint          pause,
                       AguiEventType  type,
                       AguiJsonValue *members)
{
  g_autoptr(AguiJsonValue) owned = members;
  g_autoptr(GError) error = NULL;
  AguiEvent *event;
  Beat *beat;

  g_assert (run != NULL);

  /* The events are built from constants and the request's own strings,
   * so one the schema refuses is a bug here, not bad input. */
  if (!(event = _agui_event_new_checked (type, owned, &error)))
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

void
_agui_demo_plan_run_started (DemoRun *run)
{
  _agui_demo_plan_event (run, 0, AGUI_EVENT_RUN_STARTED,
                         _agui_demo_members ("threadId", run->thread_id, "runId", run->run_id, NULL));
}

Beat *
_agui_demo_plan_run_finished (DemoRun       *run,
                              AguiJsonValue *outcome)
{
  AguiJsonValue *members = _agui_demo_members ("threadId", run->thread_id, "runId", run->run_id, NULL);

  _agui_demo_members_take (members, "outcome", outcome);

  return _agui_demo_plan_event (run, 0, AGUI_EVENT_RUN_FINISHED, members);
}

void
_agui_demo_plan_run_succeeded (DemoRun *run)
{
  _agui_demo_plan_run_finished (run, _agui_demo_members ("type", "success", NULL));
}

void
_agui_demo_plan_run_error (DemoRun    *run,
                           const char *message,
                           const char *code)
{
  _agui_demo_plan_event (run, 0, AGUI_EVENT_RUN_ERROR,
                         _agui_demo_members ("message", message, "code", code, NULL));
}

void
_agui_demo_plan_step (DemoRun    *run,
                      const char *name,
                      gboolean    started)
{
  _agui_demo_plan_event (run, started ? 2 : 0,
                         started ? AGUI_EVENT_STEP_STARTED : AGUI_EVENT_STEP_FINISHED,
                         _agui_demo_members ("stepName", name, NULL));
}

/* Pieces end after a run of whitespace, so the text arrives word by word
 * and a newline never starts a delta: Markdown renderers stay calm. */
void
_agui_demo_plan_words (DemoRun       *run,
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
      _agui_demo_plan_event (run, 1, type, _agui_demo_members ("messageId", message_id, "delta", piece, NULL));
      p = end;
    }
}

void
_agui_demo_plan_text_start (DemoRun    *run,
                            const char *message_id)
{
  _agui_demo_plan_event (run, 0, AGUI_EVENT_TEXT_MESSAGE_START,
                         _agui_demo_members ("messageId", message_id, "role", "assistant", NULL));
}

static void
plan_text_end (DemoRun    *run,
               const char *message_id)
{
  _agui_demo_plan_event (run, 0, AGUI_EVENT_TEXT_MESSAGE_END,
                         _agui_demo_members ("messageId", message_id, NULL));
}

void
_agui_demo_plan_text (DemoRun    *run,
                      const char *message_id,
                      const char *text)
{
  _agui_demo_plan_text_start (run, message_id);
  _agui_demo_plan_words (run, AGUI_EVENT_TEXT_MESSAGE_CONTENT, message_id, text);
  plan_text_end (run, message_id);
}

void
_agui_demo_plan_reasoning (DemoRun    *run,
                           const char *text)
{
  g_autofree char *span_id = g_uuid_string_random ();
  g_autofree char *message_id = g_uuid_string_random ();

  _agui_demo_plan_event (run, 0, AGUI_EVENT_REASONING_START,
                         _agui_demo_members ("messageId", span_id, NULL));
  _agui_demo_plan_event (run, 0, AGUI_EVENT_REASONING_MESSAGE_START,
                         _agui_demo_members ("messageId", message_id, "role", "reasoning", NULL));
  _agui_demo_plan_words (run, AGUI_EVENT_REASONING_MESSAGE_CONTENT, message_id, text);
  _agui_demo_plan_event (run, 0, AGUI_EVENT_REASONING_MESSAGE_END,
                         _agui_demo_members ("messageId", message_id, NULL));
  _agui_demo_plan_event (run, 2, AGUI_EVENT_REASONING_END,
                         _agui_demo_members ("messageId", span_id, NULL));
}

void
_agui_demo_plan_tool_call (DemoRun       *run,
                           const char    *tool_call_id,
                           const char    *tool_name,
                           const char    *parent_message_id,
                           const char    *arguments,
                           AguiJsonValue *metadata)
{
  const char *p = arguments;
  AguiJsonValue *members = _agui_demo_members ("toolCallId", tool_call_id,
                                               "toolCallName", tool_name,
                                               "parentMessageId", parent_message_id,
                                               NULL);

  if (metadata != NULL)
    _agui_demo_members_take (members, "metadata", metadata);
  _agui_demo_plan_event (run, 2, AGUI_EVENT_TOOL_CALL_START, members);

  while (*p != '\0')
    {
      const char *end = p;
      g_autofree char *piece = NULL;

      for (guint i = 0; i < ARGUMENT_PIECE_LENGTH && *end != '\0'; i++)
        end = g_utf8_next_char (end);

      piece = g_strndup (p, end - p);
      _agui_demo_plan_event (run, 1, AGUI_EVENT_TOOL_CALL_ARGS,
                             _agui_demo_members ("toolCallId", tool_call_id, "delta", piece, NULL));
      p = end;
    }

  _agui_demo_plan_event (run, 0, AGUI_EVENT_TOOL_CALL_END,
                         _agui_demo_members ("toolCallId", tool_call_id, NULL));
}

void
_agui_demo_plan_tool_result (DemoRun             *run,
                             const char          *tool_call_id,
                             const AguiJsonValue *result)
{
  g_autofree char *message_id = g_uuid_string_random ();
  /* The tree prints what json_to_string () printed, for a tree that
   * can be printed at all, which this small one always can. */
  g_autofree char *content = _agui_json_value_to_string (result, FALSE, NULL);

  _agui_demo_plan_event (run, 4, AGUI_EVENT_TOOL_CALL_RESULT,
                         _agui_demo_members ("messageId", message_id,
                                             "toolCallId", tool_call_id,
                                             "content", content,
                                             "role", "tool",
                                             NULL));
}

/* Sets members of `/demo` in the shared state: patches against the state
 * the client holds (the input's, then ours), or a snapshot where a patch
 * has nothing to hold on to. The first change of a run also counts the
 * turns. */
void
_agui_demo_plan_demo_state (DemoRun       *run,
                            AguiJsonValue *changes,
                            gboolean       as_snapshot)
{
  g_autoptr(AguiJsonValue) owned = changes;
  g_auto(AguiJsonValue) patch = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  AguiJsonValue *members;

  if (!run->turns_reported)
    {
      _agui_json_doc_set_int (owned->u.object, "turns", run->turns);
      run->turns_reported = TRUE;
    }

  if (run->state.kind == AGUI_JSON_DOC_NULL)
    {
      AguiJsonDocObject *state = _agui_json_value_set_object (&run->state, 1);

      _agui_json_object_append (state, "demo", owned);
      as_snapshot = TRUE;
    }
  else if (run->state.kind == AGUI_JSON_DOC_OBJECT)
    {
      int slot = _agui_json_object_find (run->state.u.object, "demo");
      /* the client's state is not ours to cap */
      AguiJsonDocBounds bounds = { .size = 0, .max_size = 0 };
      AguiJsonDocArray *operations = _agui_json_value_set_array (&patch, 0);

      if (slot >= 0 && _agui_json_object_slot_value (run->state.u.object, slot)->kind == AGUI_JSON_DOC_OBJECT)
        {
          AguiJsonDocObject *object = owned->u.object;

          /* The member names are ours and need no pointer escaping. */
          for (guint i = 0; i < _agui_json_object_get_n_slots (object); i++)
            {
              const char *name = _agui_json_object_slot_name (object, i);
              AguiJsonDocObject *operation;
              g_autofree char *path = NULL;

              if (name == NULL)
                continue;
              path = g_strconcat ("/demo/", name, NULL);
              operation = _agui_json_doc_add_object (operations);
              _agui_json_doc_set_string (operation, "op", "add");
              _agui_json_doc_set_string (operation, "path", path);
              _agui_json_doc_set_copy (operation, "value", _agui_json_object_slot_value (object, i));
            }
        }
      else
        {
          AguiJsonDocObject *operation = _agui_json_doc_add_object (operations);

          _agui_json_doc_set_string (operation, "op", "add");
          _agui_json_doc_set_string (operation, "path", "/demo");
          _agui_json_object_set (operation, "value", owned);
        }

      if (!_agui_json_doc_patch_apply (&run->state, &bounds, &patch, &error))
        {
          g_critical ("The demo agent planned a patch it cannot apply itself: %s", error->message);
          return;
        }
    }
  else
    {
      return;
    }

  members = g_new0 (AguiJsonValue, 1);
  _agui_json_value_set_object (members, 1);
  if (as_snapshot)
    {
      _agui_json_doc_set_copy (members->u.object, "snapshot", &run->state);
      _agui_demo_plan_event (run, 1, AGUI_EVENT_STATE_SNAPSHOT, members);
    }
  else
    {
      _agui_json_object_set (members->u.object, "delta", &patch);
      _agui_demo_plan_event (run, 1, AGUI_EVENT_STATE_DELTA, members);
    }
}

AguiJsonValue *
_agui_demo_stage_changes (const char *stage)
{
  return _agui_demo_members ("stage", stage, NULL);
}

/* Reading the request */

char *
_agui_demo_content_text (const AguiJsonValue *content)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (content == NULL)
    return g_strdup ("");

  if (_agui_json_value_is_string (content))
    return g_strdup (_agui_json_value_get_string (content));

  for (guint i = 0; i < _agui_json_doc_get_length (content); i++)
    {
      AguiJsonValue *part = _agui_json_doc_get_element (content, i);

      if (g_strcmp0 (_agui_json_doc_get_string (part, "type"), "text") == 0)
        {
          if (text->len > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, _agui_json_doc_get_string (part, "text") ?: "");
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

AguiJsonValue *
_agui_demo_array_object (const AguiJsonValue *array,
                         guint                index)
{
  AguiJsonValue *element = _agui_json_doc_get_element (array, index);

  return element->kind == AGUI_JSON_DOC_OBJECT ? element : NULL;
}

gboolean
_agui_demo_declares_tool (const AguiJsonValue *input,
                          const char          *name)
{
  AguiJsonValue *tools = _agui_json_doc_get_array (input, "tools");

  for (guint i = 0; i < _agui_json_doc_get_length (tools); i++)
    {
      if (g_strcmp0 (_agui_json_doc_get_string (_agui_json_doc_get_element (tools, i), "name"), name) == 0)
        return TRUE;
    }

  return FALSE;
}

/* The name of the tool an assistant message in @messages called with
 * @tool_call_id. */
const char *
_agui_demo_called_tool_name (const AguiJsonValue *messages,
                             const char          *tool_call_id)
{
  for (guint i = 0; tool_call_id != NULL && i < _agui_json_doc_get_length (messages); i++)
    {
      AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      AguiJsonValue *calls;

      if (g_strcmp0 (_agui_json_doc_get_string (message, "role"), "assistant") != 0 ||
          !(calls = _agui_json_doc_get_array (message, "toolCalls")))
        continue;

      for (guint j = 0; j < _agui_json_doc_get_length (calls); j++)
        {
          AguiJsonValue *call = _agui_json_doc_get_element (calls, j);
          AguiJsonValue *function;

          if (g_strcmp0 (_agui_json_doc_get_string (call, "id"), tool_call_id) != 0)
            continue;

          if ((function = _agui_json_doc_get_object (call, "function")))
            return _agui_json_doc_get_string (function, "name");
        }
    }

  return NULL;
}

char *
_agui_demo_quote_user (const char *text)
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

char *
_agui_demo_describe_time (GDateTime *time)
{
  /* The locale's own time and date ("21:48:00 on 01.12.2026" in
   * German, "09:48:00 PM on 12/01/2026" in American English) */
  return g_date_time_format (time, "%X on %x");
}

/* A tool answers as it likes: find a time in JSON, else quote the text. */
char *
_agui_demo_describe_time_result (const char *content)
{
  g_auto(AguiJsonValue) node = AGUI_JSON_VALUE_INIT;
  g_autofree char *stripped = NULL;

  if (_agui_json_doc_parse (content, -1, &node, NULL) && node.kind == AGUI_JSON_DOC_OBJECT)
    {
      static const char * const names[] = { "time", "now", "datetime", "iso8601" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          const char *value = _agui_json_doc_get_string (&node, names[i]);
          g_autoptr(GDateTime) time = NULL;

          if (value == NULL)
            continue;
          if ((time = g_date_time_new_from_iso8601 (value, NULL)))
            return _agui_demo_describe_time (time);
          return _agui_demo_quote_user (value);
        }
    }

  stripped = g_strstrip (g_strdup (content));
  if (stripped[0] == '\0')
    return g_strdup ("a mystery (it answered with nothing)");

  return _agui_demo_quote_user (stripped);
}

/* Whether @word is in @text as a word of its own ("long", not
 * "belong"); any non-ASCII byte counts as part of a word. */
gboolean
_agui_demo_has_word (const char *text,
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
