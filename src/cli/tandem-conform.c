/* tandem-conform.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agui.h"
#include "agui-interrupts-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"

#include "tandem-conform.h"
#include "tandem-json-diff.h"

/* Runs a reference fixture (shared/fixtures/README.md) through the same
 * pipeline a session uses, and compares every recorded outcome with what
 * the reference client produced. */

typedef struct
{
  AguiTranscript *transcript;
  JsonArray *applied;
  JsonArray *run_finished;
  JsonArray *run_errors;
  JsonNode  *result;
} Recording;

static void
deviation_free (gpointer data)
{
  GPtrArray *list = data;

  g_ptr_array_unref (list);
}

void
tandem_conform_result_clear (TandemConformResult *result)
{
  g_clear_pointer (&result->name, g_free);
  if (result->diff)
    g_string_free (g_steal_pointer (&result->diff), TRUE);
  g_clear_pointer (&result->deviation, g_free);
}

/* The deviation table is a Markdown table whose rows read
 * `| fixture | field, field | reason |`. */
GHashTable *
tandem_conform_load_deviations (const char  *markdown,
                                GError     **error)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, deviation_free);
  g_auto(GStrv) lines = g_strsplit (markdown, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) cells = NULL;
      g_auto(GStrv) fields = NULL;
      GPtrArray *list;
      char *name;

      if (!g_str_has_prefix (g_strstrip (lines[i]), "|"))
        continue;

      cells = g_strsplit (lines[i] + 1, "|", -1);
      if (g_strv_length (cells) < 3)
        continue;

      name = g_strstrip (cells[0]);
      if (name[0] == '\0' || name[0] == '-' || g_str_equal (name, "Fixture"))
        continue;

      /* Names may be written as code: `name`. */
      name = g_strdelimit (name, "`", ' ');
      name = g_strstrip (name);

      list = g_ptr_array_new_with_free_func (g_free);
      fields = g_strsplit (cells[1], ",", -1);
      for (guint j = 0; fields[j]; j++)
        {
          char *field = g_strstrip (g_strdelimit (fields[j], "`", ' '));

          if (field[0] != '\0')
            g_ptr_array_add (list, g_strdup (field));
        }
      g_ptr_array_add (list, g_strdup (g_strstrip (cells[2])));
      g_hash_table_insert (table, g_strdup (name), list);
    }

  return g_steal_pointer (&table);
}

static void
on_applied (AguiEvent *event,
            gpointer   user_data)
{
  Recording *recording = user_data;
  JsonObject *outcome;
  JsonObject *entry;

  json_array_add_element (recording->applied, agui_event_to_json (event));

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_RUN_ERROR:
      entry = json_object_new ();
      json_object_set_string_member (entry, "message", agui_event_get_string (event, "message"));
      if (agui_event_get_string (event, "code"))
        json_object_set_string_member (entry, "code", agui_event_get_string (event, "code"));
      json_array_add_object_element (recording->run_errors, entry);
      break;

    case AGUI_EVENT_RUN_FINISHED:
      outcome = agui_event_get_object_member (event, "outcome");
      entry = json_object_new ();
      if (outcome && g_strcmp0 (json_object_get_string_member_with_default (outcome, "type", NULL), "interrupt") == 0)
        {
          json_object_set_string_member (entry, "outcome", "interrupt");
          json_object_set_member (entry, "interrupts",
                                  json_node_copy (json_object_get_member (outcome, "interrupts")));
        }
      else if (outcome && g_strcmp0 (json_object_get_string_member_with_default (outcome, "type", NULL), "cancelled") == 0)
        {
          json_object_set_string_member (entry, "outcome", "cancelled");
        }
      else
        {
          AguiRunState *state = agui_transcript_get_run_state (recording->transcript);
          const char * const *pending = agui_run_state_get_pending_tool_call_ids (state);
          JsonArray *ids = json_array_new ();

          json_object_set_string_member (entry, "outcome", "success");
          for (guint i = 0; pending && pending[i]; i++)
            json_array_add_string_element (ids, pending[i]);
          json_object_set_array_member (entry, "pendingToolCallIds", ids);
          if (agui_event_get_member (event, "result"))
            {
              json_object_set_member (entry, "result", json_node_copy (agui_event_get_member (event, "result")));
              g_clear_pointer (&recording->result, json_node_unref);
              recording->result = json_node_copy (agui_event_get_member (event, "result"));
            }
        }
      json_array_add_object_element (recording->run_finished, entry);
      break;

    default:
      break;
    }
}

static JsonNode *
node_or_default (JsonObject *object,
                 const char *name,
                 const char *fallback_json)
{
  if (object != NULL && json_object_has_member (object, name))
    return json_node_copy (json_object_get_member (object, name));

  return json_from_string (fallback_json, NULL);
}

static JsonNode *
array_node (JsonArray *array)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);

  return node;
}

/* The RunAgentInput a session sends for this thread and run. */
static JsonNode *
build_request_body (JsonObject     *setup,
                    AguiTranscript *transcript)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *thread_id = "thread-1";
  const char *run_id = "run-1";

  if (setup && json_object_has_member (setup, "threadId"))
    thread_id = json_object_get_string_member (setup, "threadId");
  if (setup && json_object_has_member (setup, "runId"))
    run_id = json_object_get_string_member (setup, "runId");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "threadId");
  json_builder_add_string_value (builder, thread_id);
  json_builder_set_member_name (builder, "runId");
  json_builder_add_string_value (builder, run_id);
  json_builder_set_member_name (builder, "protocolVersion");
  json_builder_add_string_value (builder, "1.0");
  json_builder_set_member_name (builder, "state");
  json_builder_add_value (builder, json_node_copy (agui_transcript_get_state (transcript)));
  json_builder_set_member_name (builder, "messages");
  json_builder_add_value (builder, array_node (agui_transcript_to_messages (transcript, FALSE)));
  json_builder_set_member_name (builder, "tools");
  json_builder_add_value (builder, node_or_default (setup, "tools", "[]"));
  json_builder_set_member_name (builder, "context");
  json_builder_add_value (builder, node_or_default (setup, "context", "[]"));
  json_builder_set_member_name (builder, "forwardedProps");
  json_builder_add_value (builder, node_or_default (setup, "forwardedProps", "{}"));
  if (setup && json_object_has_member (setup, "resume"))
    {
      json_builder_set_member_name (builder, "resume");
      json_builder_add_value (builder, json_node_copy (json_object_get_member (setup, "resume")));
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
http_error_text (int         status,
                 const char *content_type,
                 const char *body)
{
  g_autofree char *text = NULL;

  if (content_type && strstr (content_type, "application/json"))
    {
      g_autoptr(JsonNode) parsed = json_from_string (body, NULL);

      if (parsed)
        text = json_to_string (parsed, FALSE);
    }

  return g_strdup_printf ("HTTP %d: %s", status, text ? text : body);
}

static gboolean
compare (TandemConformResult *result,
         JsonObject          *expected,
         const char          *field,
         JsonNode            *actual,
         GHashTable          *minted,
         GPtrArray           *differing)
{
  GString *diff = g_string_new (NULL);
  gboolean same;

  same = tandem_json_diff (field, json_object_get_member (expected, field), actual, minted, diff);
  if (!same)
    {
      g_string_append (result->diff, diff->str);
      g_ptr_array_add (differing, g_strdup (field));
    }
  g_string_free (diff, TRUE);

  return same;
}

gboolean
tandem_conform_run (const char           *path,
                    GHashTable           *deviations,
                    TandemConformResult  *result,
                    GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = NULL;
  g_autoptr(AguiPipeline) pipeline = NULL;
  g_autoptr(GHashTable) minted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) differing = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) run_error = NULL;
  g_autoptr(JsonNode) request_body = NULL;
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(JsonNode) pending = NULL;
  g_autoptr(JsonNode) stage_node = NULL;
  g_autoptr(JsonNode) error_node = NULL;
  Recording recording = { 0 };
  JsonObject *root, *setup = NULL, *expected, *http = NULL;
  const char *sse;
  int status = 200;
  const char *content_type = "text/event-stream";
  AguiStage stage = AGUI_STAGE_NONE;
  GPtrArray *deviation;

  memset (result, 0, sizeof *result);
  result->diff = g_string_new (NULL);

  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;

  root = json_node_get_object (json_parser_get_root (parser));
  result->name = g_strdup (json_object_get_string_member_with_default (root, "name", path));
  expected = json_object_get_object_member (root, "expected");
  if (json_object_has_member (root, "setup"))
    setup = json_object_get_object_member (root, "setup");
  sse = json_object_get_string_member_with_default (root, "sse", "");

  /* The thread as it stood before this run. */
  if (setup && json_object_has_member (setup, "messages") &&
      !agui_transcript_load_messages (transcript, json_object_get_array_member (setup, "messages"), error))
    return FALSE;

  reducer = _agui_reducer_new (transcript);
  if (setup && json_object_has_member (setup, "state"))
    {
      g_autoptr(AguiEvent) snapshot = NULL;
      JsonObject *members = json_object_new ();

      json_object_set_member (members, "snapshot", json_node_copy (json_object_get_member (setup, "state")));
      snapshot = agui_event_new (AGUI_EVENT_STATE_SNAPSHOT, members, error);
      if (snapshot == NULL)
        return FALSE;
      _agui_reducer_apply (reducer, snapshot);
    }

  if (setup && json_object_has_member (setup, "pendingInterrupts"))
    {
      g_autoptr(AguiEvent) finished = NULL;
      JsonObject *members = json_object_new ();
      JsonObject *outcome = json_object_new ();

      json_object_set_string_member (outcome, "type", "interrupt");
      json_object_set_member (outcome, "interrupts",
                              json_node_copy (json_object_get_member (setup, "pendingInterrupts")));
      json_object_set_string_member (members, "threadId", "thread-1");
      json_object_set_string_member (members, "runId", "run-0");
      json_object_set_object_member (members, "outcome", outcome);
      if (json_array_get_length (json_object_get_array_member (setup, "pendingInterrupts")) > 0)
        {
          finished = agui_event_new (AGUI_EVENT_RUN_FINISHED, members, error);
          if (finished == NULL)
            return FALSE;
          _agui_reducer_apply (reducer, finished);
        }
      else
        json_object_unref (members);
    }

  if (setup && json_object_has_member (setup, "http"))
    {
      http = json_object_get_object_member (setup, "http");
      status = json_object_get_int_member_with_default (http, "status", 200);
      content_type = json_object_get_string_member_with_default (http, "contentType", content_type);
    }

  recording.transcript = transcript;
  recording.applied = json_array_new ();
  recording.run_finished = json_array_new ();
  recording.run_errors = json_array_new ();

  request_body = build_request_body (setup, transcript);

  {
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

    if (!_agui_interrupts_check_resume (_agui_transcript_get_pending_interrupts_json (transcript),
                                        setup && json_object_has_member (setup, "resume")
                                          ? json_object_get_array_member (setup, "resume") : NULL,
                                        now, &run_error))
      stage = AGUI_STAGE_CLIENT;
  }

  if (run_error == NULL && (status < 200 || status > 299))
    {
      g_autofree char *text = http_error_text (status, content_type, sse);

      run_error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, text);
      stage = AGUI_STAGE_TRANSPORT;
      _agui_reducer_fail (reducer, run_error);
    }

  if (run_error == NULL)
    {
      gsize length = strlen (sse);

      pipeline = _agui_pipeline_new (reducer);
      _agui_pipeline_set_callbacks (pipeline, on_applied, NULL, &recording);

      /* As the reference harness did: the body arrives in 7-byte reads. */
      for (gsize offset = 0; offset < length; offset += 7)
        if (!_agui_pipeline_push_bytes (pipeline, (const guint8 *) sse + offset, MIN (7, length - offset)))
          break;
      _agui_pipeline_finish (pipeline);

      if (_agui_pipeline_get_error (pipeline))
        {
          run_error = g_error_copy (_agui_pipeline_get_error (pipeline));
          stage = agui_stage_from_error (run_error);
        }
    }

  /* Compare. */
  if (json_object_get_member (expected, "request") &&
      !JSON_NODE_HOLDS_NULL (json_object_get_member (expected, "request")))
    {
      JsonObject *request = json_object_get_object_member (expected, "request");
      GString *diff = g_string_new (NULL);

      if (!tandem_json_diff ("request.body", json_object_get_member (request, "body"), request_body, NULL, diff))
        {
          g_string_append (result->diff, diff->str);
          g_ptr_array_add (differing, g_strdup ("request"));
        }
      g_string_free (diff, TRUE);
    }
  else if (stage != AGUI_STAGE_CLIENT)
    {
      g_string_append (result->diff, "  request: the reference sent none, we would have\n");
      g_ptr_array_add (differing, g_strdup ("request"));
    }

  stage_node = agui_stage_to_string (stage)
               ? json_node_init_string (json_node_alloc (), agui_stage_to_string (stage))
               : json_node_init_null (json_node_alloc ());
  compare (result, expected, "errorStage", stage_node, NULL, differing);

  if (json_object_get_member (expected, "errorTextPortable") == NULL ||
      JSON_NODE_HOLDS_NULL (json_object_get_member (expected, "errorTextPortable")) ||
      json_object_get_boolean_member (expected, "errorTextPortable"))
    {
      error_node = run_error && stage != AGUI_STAGE_NONE
                   ? json_node_init_string (json_node_alloc (), run_error->message)
                   : json_node_init_null (json_node_alloc ());
      compare (result, expected, "verifyError", error_node, NULL, differing);
    }

  messages = array_node (agui_transcript_to_messages (transcript, TRUE));
  compare (result, expected, "messages", messages, minted, differing);
  compare (result, expected, "state", agui_transcript_get_state (transcript), NULL, differing);

  {
    g_autoptr(JsonNode) applied = array_node (json_array_ref (recording.applied));
    g_autoptr(JsonNode) finished = array_node (json_array_ref (recording.run_finished));
    g_autoptr(JsonNode) errors = array_node (json_array_ref (recording.run_errors));
    g_autoptr(JsonNode) run_result = recording.result ? json_node_ref (recording.result)
                                                      : json_node_init_null (json_node_alloc ());

    compare (result, expected, "appliedEvents", applied, minted, differing);
    compare (result, expected, "runFinished", finished, NULL, differing);
    compare (result, expected, "runErrors", errors, NULL, differing);
    compare (result, expected, "result", run_result, NULL, differing);
  }

  pending = array_node (json_array_ref (_agui_transcript_get_pending_interrupts_json (transcript)));
  compare (result, expected, "pendingInterrupts", pending, NULL, differing);

  json_array_unref (recording.applied);
  json_array_unref (recording.run_finished);
  json_array_unref (recording.run_errors);
  g_clear_pointer (&recording.result, json_node_unref);

  if (differing->len == 0)
    {
      result->verdict = TANDEM_CONFORM_PASS;
      return TRUE;
    }

  deviation = deviations ? g_hash_table_lookup (deviations, result->name) : NULL;
  if (deviation != NULL)
    {
      gboolean covered = TRUE;

      for (guint i = 0; i < differing->len && covered; i++)
        {
          gboolean listed = FALSE;

          for (guint j = 0; j + 1 < deviation->len; j++)
            listed |= g_str_equal (g_ptr_array_index (deviation, j), g_ptr_array_index (differing, i));
          covered &= listed;
        }

      if (covered)
        {
          result->verdict = TANDEM_CONFORM_DEVIATION;
          result->deviation = g_strdup (g_ptr_array_index (deviation, deviation->len - 1));
          return TRUE;
        }
    }

  result->verdict = TANDEM_CONFORM_FAIL;

  return TRUE;
}
