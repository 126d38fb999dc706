/* agui-tool-runner.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agui-reducer-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-tool-runner-private.h"
#include "agui-transcript.h"

typedef struct
{
  char     *id;
  char     *name;
  gboolean  ended;
  gboolean  answered;
  /* The tool's answer, held until the run's stream has ended */
  gboolean  has_answer;
  gboolean  declined;
  char     *content;
  char     *error;
} FrontendCall;

struct _AguiToolRunner
{
  gatomicrefcount         ref_count;
  AguiToolRegistry       *tools;
  AguiReducer            *reducer;
  /* Where each answer's event goes: the turn's record. */
  GPtrArray              *answers;
  GCancellable           *cancellable;
  AguiToolRunnerIdleFunc  idle;
  GObject                *idle_data;
  GHashTable             *calls;
  /* The calls that ran, in the order their arguments completed: the
   * order their answers are folded in. */
  GPtrArray              *ran;
  guint                   in_flight;
  gboolean                folded;
};

typedef struct
{
  AguiToolRunner *runner;
  FrontendCall   *call;
} ToolExecution;

static void
frontend_call_free (FrontendCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_free (call->content);
  g_free (call->error);
  g_free (call);
}

AguiToolRunner *
_agui_tool_runner_new (AguiToolRegistry       *tools,
                       AguiReducer            *reducer,
                       GPtrArray              *answers,
                       GCancellable           *cancellable,
                       AguiToolRunnerIdleFunc  idle,
                       GObject                *idle_data)
{
  AguiToolRunner *self = g_new0 (AguiToolRunner, 1);

  g_return_val_if_fail (!tools || AGUI_IS_TOOL_REGISTRY (tools), NULL);
  g_return_val_if_fail (AGUI_IS_REDUCER (reducer), NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->tools = tools ? g_object_ref (tools) : NULL;
  self->reducer = g_object_ref (reducer);
  self->answers = g_ptr_array_ref (answers);
  self->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  self->idle = idle;
  self->idle_data = idle_data ? g_object_ref (idle_data) : NULL;
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) frontend_call_free);
  self->ran = g_ptr_array_new ();

  return self;
}

AguiToolRunner *
_agui_tool_runner_ref (AguiToolRunner *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
_agui_tool_runner_unref (AguiToolRunner *self)
{
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->tools);
  g_clear_object (&self->reducer);
  g_clear_pointer (&self->answers, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->idle_data);
  g_clear_pointer (&self->ran, g_ptr_array_unref);
  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_free (self);
}

/* Keeps the answer for when the run's stream has ended. */
static void
answer_call (FrontendCall *call,
             const char   *content,
             const char   *error)
{
  call->has_answer = TRUE;
  call->content = g_strdup (content);
  call->error = g_strdup (error);
}

/* Folds a kept answer as the TOOL_CALL_RESULT an agent would send. The
 * agent's own answer to the call, streamed or in a snapshot, wins. */
static gboolean
fold_answer (AguiToolRunner *self,
             FrontendCall   *call)
{
  AguiTranscript *transcript = _agui_reducer_get_transcript (self->reducer);
  AguiToolCallPart *part = agui_transcript_lookup_tool_call (transcript, call->id);
  g_autofree char *message_id = NULL;

  if (part != NULL && _agui_tool_call_part_get_has_result (part))
    return FALSE;

  /* A tool that asks the person first fails with PERMISSION_DENIED
   * when they say no: that is their answer, not the tool failing. */
  if (part != NULL && call->declined)
    _agui_tool_call_part_set_answer (part, AGUI_ANSWER_DECLINED, NULL, NULL);

  message_id = g_uuid_string_random ();
  g_ptr_array_add (self->answers,
                   _agui_reducer_add_tool_result (self->reducer, message_id, call->id,
                                                  call->content, call->error));
  call->answered = TRUE;

  return TRUE;
}

static void
on_tool_executed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  ToolExecution *execution = user_data;
  g_autoptr(AguiToolRunner) self = execution->runner;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  answer = agui_tool_execute_finish (AGUI_TOOL (object), result, &error);

  /* A tool stopped mid-way still answers: with its failure, so the
   * agent's history never holds a call without an answer. */
  if (answer == NULL)
    {
      g_autofree char *content = g_strdup_printf ("Tool execution failed: %s", error->message);

      execution->call->declined = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
      answer_call (execution->call, content, error->message);
    }
  else
    {
      answer_call (execution->call, answer, NULL);
    }

  g_free (execution);
  self->in_flight--;
  if (self->in_flight == 0 && self->idle != NULL)
    self->idle (self->idle_data);
}

static void
run_call (AguiToolRunner *self,
          FrontendCall   *call)
{
  AguiTool *tool = agui_tool_registry_lookup (self->tools, call->name);
  AguiTranscript *transcript = _agui_reducer_get_transcript (self->reducer);
  AguiToolCallPart *part = agui_transcript_lookup_tool_call (transcript, call->id);
  ToolExecution *execution;

  g_ptr_array_add (self->ran, call);

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      answer_call (call, "Tool was not run: the run was cancelled before it started.",
                   "cancelled before it ran");
      return;
    }

  execution = g_new0 (ToolExecution, 1);
  execution->runner = _agui_tool_runner_ref (self);
  execution->call = call;
  self->in_flight++;

  agui_tool_execute_async (tool,
                           part ? agui_tool_call_part_get_parsed_arguments (part) : NULL,
                           self->cancellable,
                           on_tool_executed, execution);
}

/* Sees every event after verification and folding. */
void
_agui_tool_runner_observe (AguiToolRunner *self,
                           AguiEvent      *event)
{
  const char *id = agui_event_get_tool_call_id (event);
  FrontendCall *call;

  if (self->tools == NULL || id == NULL)
    return;

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_TOOL_CALL_START:
      if (agui_tool_registry_lookup (self->tools, agui_event_get_string (event, "toolCallName")) &&
          !g_hash_table_contains (self->calls, id))
        {
          call = g_new0 (FrontendCall, 1);
          call->id = g_strdup (id);
          call->name = g_strdup (agui_event_get_string (event, "toolCallName"));
          g_hash_table_insert (self->calls, call->id, call);
        }
      break;

    case AGUI_EVENT_TOOL_CALL_END:
      call = g_hash_table_lookup (self->calls, id);
      if (call != NULL && !call->ended)
        {
          call->ended = TRUE;
          run_call (self, call);
        }
      break;

    case AGUI_EVENT_TOOL_CALL_RESULT:
      /* The agent answered it itself after all. */
      call = g_hash_table_lookup (self->calls, id);
      if (call != NULL && !call->ended)
        call->answered = TRUE;
      break;

    default:
      break;
    }
}

/* Whether a tool is still working on an answer. */
gboolean
_agui_tool_runner_get_busy (AguiToolRunner *self)
{
  return self->in_flight > 0;
}

/* Whether the run's calls to frontend tools were answered, so a
 * follow-up must carry the answers back. */
gboolean
_agui_tool_runner_get_called_tools (AguiToolRunner *self)
{
  return self->folded;
}

/* The run's stream has ended and no tool is in flight: the answers are
 * folded now, as the reference client runs its tools once the run is
 * over. An agent that sends MESSAGES_SNAPSHOT after a call cannot know
 * the answer, and a snapshot keeps only what it names, so an answer
 * folded earlier would be gone before the follow-up could carry it.
 * Folded last, an answer also lands where the reference puts it: after
 * the results the agent gave the call's siblings. Calls whose arguments
 * never finished streaming never ran; they say so. */
void
_agui_tool_runner_finish (AguiToolRunner *self)
{
  GHashTableIter iter;
  FrontendCall *call;

  g_return_if_fail (self->in_flight == 0);

  for (guint i = 0; i < self->ran->len; i++)
    {
      call = g_ptr_array_index (self->ran, i);
      if (call->has_answer && fold_answer (self, call))
        self->folded = TRUE;
    }

  g_hash_table_iter_init (&iter, self->calls);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &call))
    if (!call->answered && !call->ended)
      {
        answer_call (call, "Tool was not run: the run ended before its arguments were complete.", "not run");
        fold_answer (self, call);
      }

  g_ptr_array_set_size (self->ran, 0);
  g_hash_table_remove_all (self->calls);
  self->idle = NULL;
  g_clear_object (&self->idle_data);
}
