/* agui-run-input.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agui-interrupts-private.h"
#include "agui-json-private.h"
#include "agui-run-input-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-private.h"

/* What a session sends: the RunAgentInput of each run, and the checks on
 * what a caller asks a turn to send (a user message, interrupt answers)
 * before anything is sent. */

static JsonNode *
copy_array (JsonArray *array)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), array);

  return _agui_json_node_copy_deep (node);
}

/* As json_to_string() prints @input, but with the messages' text
 * given: an object is its members in order, each as "name":value, with
 * no space. libagui's printer writes what json-glib's generator does,
 * byte for byte; it refuses a value nested deeper than libagui reads
 * (a caller's state or forwarded props may be), and then this gives
 * NULL and the transport prints the input itself. */
static char *
print_input (JsonObject        *input,
             AguiInputMessages *kept)
{
  g_autoptr(GString) text = g_string_new (NULL);
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  gboolean first = TRUE;

  g_string_append_c (text, '{');
  json_object_iter_init_ordered (&iter, input);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      if (!first)
        g_string_append_c (text, ',');
      first = FALSE;

      _agui_json_append_string (text, name);
      g_string_append_c (text, ':');

      if (g_str_equal (name, "messages"))
        _agui_input_messages_print (kept, text);
      else if (!_agui_json_append (text, value, 0, NULL))
        return NULL;
    }
  g_string_append_c (text, '}');

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The A2UI middleware reads forwardedProps.a2uiAction.userAction; a
 * caller's forwardedProps that are not an object are replaced. */
static void
add_a2ui_action (JsonObject *input,
                 JsonObject *user_action)
{
  JsonNode *forwarded = json_object_get_member (input, "forwardedProps");
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), user_action);
  g_autoptr(JsonNode) copy = _agui_json_node_copy_deep (node);
  JsonObject *wrapper;

  if (!JSON_NODE_HOLDS_OBJECT (forwarded))
    {
      json_object_set_member (input, "forwardedProps", _agui_json_node_new_object (json_object_new ()));
      forwarded = json_object_get_member (input, "forwardedProps");
    }

  wrapper = json_object_new ();
  json_object_set_member (wrapper, "userAction", g_steal_pointer (&copy));
  json_object_set_object_member (json_node_get_object (forwarded), "a2uiAction", wrapper);
}

/* The RunAgentInput of one run of an exchange. @first_run: whether it is
 * the exchange's first run, which alone carries the caller's state, the
 * A2UI action and the resume answers (its follow-ups carry the tools'
 * answers instead, in the messages); @parent_run_id: the run a branch
 * starts from, for the first run. With @kept, the messages come from
 * it, and @text (when not NULL) receives the input's JSON as
 * json_to_string() prints it, made from the messages' kept text. */
JsonNode *
_agui_run_input_build (const char         *thread_id,
                       const char         *run_id,
                       AguiTranscript     *transcript,
                       AguiInputMessages  *kept,
                       AguiToolRegistry   *own_tools,
                       AguiRunParameters  *parameters,
                       gboolean            first_run,
                       JsonObject         *a2ui_action,
                       JsonArray          *resume,
                       const char         *parent_run_id,
                       char              **text)
{
  g_autoptr(JsonObject) input = json_object_new ();
  g_autoptr(GHashTable) declared = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *tools = json_array_new ();
  JsonArray *caller_tools = parameters ? agui_run_parameters_get_tools (parameters) : NULL;
  JsonArray *context = parameters ? agui_run_parameters_get_context (parameters) : NULL;
  JsonNode *forwarded = parameters ? agui_run_parameters_get_forwarded_props (parameters) : NULL;
  JsonNode *state = parameters ? agui_run_parameters_get_state (parameters) : NULL;

  json_object_set_string_member (input, "threadId", thread_id);
  json_object_set_string_member (input, "runId", run_id);
  json_object_set_string_member (input, "protocolVersion", "1.0");
  /* A caller's state applies to the run it starts; its follow-ups go on
   * from where that run left the state. */
  json_object_set_member (input, "state",
                          _agui_json_node_copy_deep (state && first_run
                                                     ? state : agui_transcript_get_state (transcript)));
  json_object_set_member (input, "messages",
                          _agui_json_node_new_array (kept != NULL
                                                     ? _agui_input_messages_build (kept, transcript)
                                                     : agui_transcript_to_messages (transcript, FALSE)));

  /* The caller's tools first, then the session's own. */
  for (guint i = 0; caller_tools && i < json_array_get_length (caller_tools); i++)
    {
      JsonNode *tool = json_array_get_element (caller_tools, i);

      json_array_add_element (tools, _agui_json_node_copy_deep (tool));
      if (JSON_NODE_HOLDS_OBJECT (tool))
        g_hash_table_add (declared,
                          (gpointer) json_object_get_string_member_with_default (json_node_get_object (tool), "name", ""));
    }
  if (own_tools != NULL)
    {
      g_autoptr(JsonArray) own = agui_tool_registry_to_json (own_tools);

      for (guint i = 0; i < json_array_get_length (own); i++)
        {
          JsonObject *tool = json_array_get_object_element (own, i);

          if (!g_hash_table_contains (declared, json_object_get_string_member (tool, "name")))
            json_array_add_element (tools, _agui_json_node_copy_deep (json_array_get_element (own, i)));
        }
    }
  json_object_set_member (input, "tools", _agui_json_node_new_array (tools));

  json_object_set_member (input, "context",
                          context ? copy_array (context) : _agui_json_node_new_array (json_array_new ()));
  json_object_set_member (input, "forwardedProps",
                          forwarded ? _agui_json_node_copy_deep (forwarded)
                                    : _agui_json_node_new_object (json_object_new ()));
  if (a2ui_action != NULL && first_run)
    add_a2ui_action (input, a2ui_action);

  if (resume != NULL && first_run)
    json_object_set_member (input, "resume", copy_array (resume));

  if (parent_run_id != NULL && first_run)
    json_object_set_string_member (input, "parentRunId", parent_run_id);

  if (text != NULL)
    *text = kept != NULL ? print_input (input, kept) : NULL;

  return json_node_init_object (json_node_alloc (), input);
}

/* Answers for the interrupts the thread waits on: each names an open
 * interrupt, and together they answer every one (see
 * _agui_interrupts_check_resume()). */
gboolean
_agui_run_input_check_answers (AguiTranscript  *transcript,
                               JsonArray       *answers,
                               GError         **error)
{
  JsonArray *pending = _agui_transcript_get_pending_interrupts_json (transcript);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  if (json_array_get_length (pending) == 0)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "The thread is not waiting on any interrupt; there is nothing to resume");
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (answers); i++)
    {
      JsonNode *element = json_array_get_element (answers, i);
      JsonObject *answer;
      const char *id, *status;
      gboolean known = FALSE;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "Answer %u is not a resume entry object", i);
          return FALSE;
        }

      answer = json_node_get_object (element);
      id = json_object_get_string_member_with_default (answer, "interruptId", NULL);
      status = json_object_get_string_member_with_default (answer, "status", NULL);
      if (id == NULL || (g_strcmp0 (status, "resolved") != 0 && g_strcmp0 (status, "cancelled") != 0))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "Answer %u needs an interruptId and a status of resolved or cancelled", i);
          return FALSE;
        }

      for (guint j = 0; j < json_array_get_length (pending); j++)
        known |= g_strcmp0 (json_object_get_string_member_with_default (json_array_get_object_element (pending, j), "id", NULL), id) == 0;
      if (!known)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "Answer %u is for interrupt %s, which the thread is not waiting on", i, id);
          return FALSE;
        }
    }

  return _agui_interrupts_check_resume (pending, answers, now, error);
}

static char *
node_to_text (JsonNode *node)
{
  return node != NULL ? json_to_string (node, FALSE) : NULL;
}

/* An answer to a question that is about no tool call in the transcript
 * (a Mastra suspension, a plain question) has no card to show it, so it
 * becomes a note of the turn. */
static void
note_answer (AguiTranscript *transcript,
             JsonObject     *interrupt,
             AguiAnswer      kind,
             const char     *text)
{
  g_autoptr(JsonObject) note = json_object_new ();
  g_autoptr(JsonNode) question = json_node_init_object (json_node_alloc (), interrupt);
  /* A desktop tool the person declined always has its card */
  if (_agui_answer_get_name (kind) == NULL || kind == AGUI_ANSWER_DECLINED)
    return;

  json_object_set_string_member (note, "kind", "answer");
  json_object_set_string_member (note, "answer", _agui_answer_get_name (kind));
  if (text != NULL)
    json_object_set_string_member (note, "text", text);
  json_object_set_member (note, "interrupt", _agui_json_node_copy_deep (question));
  _agui_transcript_add_note (transcript, note);
}

/* The person's answer is part of the conversation: it goes on the call the
 * interrupt is bound to, before the run that delivers it, so the card
 * says "approved" while the agent works and the turn's snapshot keeps it. */
void
_agui_run_input_record_answers (AguiTranscript *transcript,
                                JsonArray      *answers)
{
  JsonArray *pending = _agui_transcript_get_pending_interrupts_json (transcript);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  for (guint i = 0; i < json_array_get_length (pending); i++)
    {
      JsonObject *interrupt = json_array_get_object_element (pending, i);
      const char *id = json_object_get_string_member_with_default (interrupt, "id", NULL);
      const char *tool_call_id = json_object_get_string_member_with_default (interrupt, "toolCallId", NULL);
      const char *expires_at = json_object_get_string_member_with_default (interrupt, "expiresAt", NULL);
      AguiToolCallPart *part;
      JsonObject *answer = NULL;
      JsonObject *payload = NULL;
      g_autofree char *edited = NULL;
      g_autofree char *text = NULL;
      AguiAnswer kind;

      part = tool_call_id != NULL ? agui_transcript_lookup_tool_call (transcript, tool_call_id) : NULL;

      for (guint j = 0; j < json_array_get_length (answers); j++)
        {
          JsonObject *entry = json_array_get_object_element (answers, j);

          if (g_strcmp0 (json_object_get_string_member_with_default (entry, "interruptId", NULL), id) == 0)
            answer = entry;
        }
      if (answer == NULL)
        continue;

      if (json_object_has_member (answer, "payload") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "payload")))
        payload = json_object_get_object_member (answer, "payload");

      if (g_strcmp0 (json_object_get_string_member_with_default (answer, "status", NULL), "cancelled") == 0)
        {
          g_autoptr(GDateTime) expiry = expires_at ? g_date_time_new_from_iso8601 (expires_at, NULL) : NULL;

          kind = expiry != NULL && g_date_time_compare (expiry, now) <= 0 ? AGUI_ANSWER_EXPIRED : AGUI_ANSWER_CANCELLED;
        }
      else if (payload != NULL && json_object_has_member (payload, "approved"))
        {
          gboolean approved = json_object_get_boolean_member_with_default (payload, "approved", FALSE);

          if (approved && json_object_has_member (payload, "editedArgs"))
            {
              kind = AGUI_ANSWER_APPROVED_EDITED;
              edited = node_to_text (json_object_get_member (payload, "editedArgs"));
            }
          else
            {
              kind = approved ? AGUI_ANSWER_APPROVED : AGUI_ANSWER_DENIED;
            }
        }
      else
        {
          kind = AGUI_ANSWER_ANSWERED;
          text = node_to_text (json_object_get_member (answer, "payload"));
        }

      if (part != NULL)
        _agui_tool_call_part_set_answer (part, kind, edited, text);
      else
        note_answer (transcript, interrupt, kind, text);
    }
}

/* A turn starts with a user message: text, or text and media parts; no
 * other role, no tool calls or results. */
gboolean
_agui_run_input_check_user_message (JsonObject  *message,
                                    GError     **error)
{
  JsonNode *content = json_object_get_member (message, "content");
  const char *role = json_object_get_string_member_with_default (message, "role", "user");

  if (g_strcmp0 (role, "user") != 0)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                   "A turn starts with a user message, not a %s message", role);
      return FALSE;
    }

  if (json_object_has_member (message, "toolCalls") || json_object_has_member (message, "toolCallId"))
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "A user message cannot carry tool calls or tool results");
      return FALSE;
    }

  if (content == NULL || (!JSON_NODE_HOLDS_ARRAY (content) &&
                          json_node_get_value_type (content) != G_TYPE_STRING))
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "A user message needs content: text, or an array of content parts");
      return FALSE;
    }

  if (JSON_NODE_HOLDS_ARRAY (content))
    {
      static const char * const kinds[] = { "text", "image", "audio", "video", "document", NULL };
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonNode *part = json_array_get_element (parts, i);
          const char *type = JSON_NODE_HOLDS_OBJECT (part)
                             ? json_object_get_string_member_with_default (json_node_get_object (part), "type", NULL)
                             : NULL;

          if (type == NULL || !g_strv_contains (kinds, type))
            {
              g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "Content part %u of a user message is a '%s' part; "
                           "only text and media parts are allowed (no tool calls or tool results)",
                           i, type ? type : "(untyped)");
              return FALSE;
            }
        }
    }

  return TRUE;
}
