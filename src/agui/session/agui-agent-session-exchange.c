/* agui-agent-session-exchange.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-agent-session-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-run-input-private.h"
#include "agui-run-state-private.h"
#include "agui-session-store-private.h"
#include "agui-tool-runner-private.h"
#include "agui-transcript-private.h"
#include "agui-transport-private.h"
#include "agui-turn-recorder-private.h"

/* AguiAgentSession's exchanges: the queue of sends, runs and
 * resumes, each exchange's runs and tool follow-ups, and its turn saved */

/* A run that keeps calling frontend tools is stopped after this many
 * follow-ups rather than looping forever. */
#define MAX_FOLLOW_UPS 25

static void start_run  (GTask            *task);

static void
exchange_free (Exchange *exchange)
{
  if (exchange->caller_cancellable != NULL)
    g_cancellable_disconnect (exchange->caller_cancellable, exchange->caller_cancelled_id);
  g_clear_object (&exchange->caller_cancellable);
  g_clear_object (&exchange->cancellable);
  g_clear_pointer (&exchange->content, json_node_unref);
  g_clear_pointer (&exchange->answers, json_array_unref);
  g_clear_pointer (&exchange->parameters, agui_run_parameters_unref);
  g_clear_pointer (&exchange->a2ui_action, json_object_unref);
  g_free (exchange->fork_id);
  g_free (exchange->parent_run_id);
  g_clear_pointer (&exchange->pipeline, _agui_pipeline_free);
  if (exchange->stream != NULL)
    agui_event_stream_close (exchange->stream);
  g_clear_object (&exchange->stream);
  g_clear_pointer (&exchange->tool_runner, _agui_tool_runner_unref);
  g_free (exchange->snapshot_id);
  _agui_turn_recorder_release_events (g_steal_pointer (&exchange->turn_events));
  g_clear_error (&exchange->finish_error);
  g_free (exchange);
}

static void complete_exchange (GTask  *task,
                               GError *error);

static void
on_turn_saved (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) exchange_task = user_data;
  AguiAgentSession *self = g_task_get_source_object (exchange_task);
  Exchange *exchange = g_task_get_task_data (exchange_task);

  _agui_turn_recorder_save_finish (self->recorder, result);
  complete_exchange (exchange_task, g_steal_pointer (&exchange->finish_error));
}

/* While no turn runs, the next input's messages are brought up to date
 * a slice at a time (a turn changes them as it streams: they wait for
 * its end). A send before they are sees the rest made at once. */
static gboolean
keep_input_messages_slice (gpointer user_data)
{
  AguiAgentSession *self = user_data;

  if (self->current != NULL || self->restoring ||
      _agui_input_messages_update (self->input_messages, self->transcript, 4000))
    {
      self->input_messages_id = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

void
_agui_agent_session_keep_input_messages (AguiAgentSession *self)
{
  if (self->input_messages_id != 0 || self->current != NULL || self->restoring)
    return;

  self->input_messages_id = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, 1, keep_input_messages_slice, self, NULL);
  g_source_set_name_by_id (self->input_messages_id, "[agui] keep input messages");
}

static void
complete_exchange (GTask  *task,
                   GError *error)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  g_autoptr(GTask) finished = NULL;

  g_assert (self->current == task);

  finished = g_steal_pointer (&self->current);
  g_object_notify_by_pspec (G_OBJECT (self), _agui_agent_session_get_busy_pspec ());

  if (error != NULL)
    g_task_return_error (finished, error);
  else
    g_task_return_pointer (finished,
                           agui_run_state_ref (agui_transcript_get_run_state (self->transcript)),
                           (GDestroyNotify) agui_run_state_unref);

  if (self->current == NULL)
    _agui_agent_session_start_next (self);
  _agui_agent_session_keep_input_messages (self);
}

static void
finish_exchange (GTask  *task,
                 GError *error)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);

  g_assert (self->current == task);

  /* No run of this exchange is left to answer a call that is still
   * waiting, unless the thread waits for the person: then the answer may
   * still bring the result. */
  if (exchange->started &&
      json_array_get_length (_agui_transcript_get_pending_interrupts_json (self->transcript)) == 0)
    _agui_transcript_mark_unanswered_calls (self->transcript);

  /* Only a turn that started is a turn: refused input writes nothing. */
  if (exchange->started &&
      _agui_turn_recorder_save_async (self->recorder, self->transcript, exchange->snapshot_id,
                                      exchange->cancelled, exchange->turn_events,
                                      on_turn_saved, task))
    {
      /* The save always completes later, from the main loop. */
      g_object_ref (task);
      exchange->finish_error = error;
      return;
    }

  complete_exchange (task, error);
}

static void maybe_finish_run (GTask *task);

static void
on_tools_idle (gpointer user_data)
{
  maybe_finish_run (G_TASK (user_data));
}

/* Sees every event after verification and folding: the turn keeps it,
 * and the tool runner answers the calls it owns. */
static void
on_event_applied (AguiEvent *event,
                  gpointer   user_data)
{
  GTask *task = user_data;
  Exchange *exchange = g_task_get_task_data (task);

  AguiAgentSession *self = g_task_get_source_object (task);

  g_ptr_array_add (exchange->turn_events, agui_event_ref (event));
  _agui_turn_recorder_journal_add (self->recorder, event);
  _agui_tool_runner_observe (exchange->tool_runner, event);
}

/* The run */

static void
maybe_finish_run (GTask *task)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  AguiRunState *state;
  gboolean called_tools;

  if (!exchange->stream_done || _agui_tool_runner_get_busy (exchange->tool_runner))
    return;

  _agui_tool_runner_finish (exchange->tool_runner);
  called_tools = _agui_tool_runner_get_called_tools (exchange->tool_runner);
  g_clear_pointer (&exchange->pipeline, _agui_pipeline_free);
  g_clear_pointer (&exchange->tool_runner, _agui_tool_runner_unref);

  if (exchange->cancelled)
    {
      _agui_transcript_mark_attempt (self->transcript, exchange->attempt, AGUI_ATTEMPT_STOPPED);
      _agui_reducer_cancel_run (self->reducer);
      finish_exchange (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                  "The run was cancelled"));
      return;
    }

  state = agui_transcript_get_run_state (self->transcript);
  if (called_tools &&
      agui_run_state_get_status (state) == AGUI_RUN_FINISHED &&
      agui_run_state_get_outcome (state) == AGUI_OUTCOME_SUCCESS)
    {
      if (exchange->runs >= MAX_FOLLOW_UPS)
        {
          g_autoptr(GError) error = g_error_new (AGUI_ERROR, AGUI_ERROR_FAILED,
                                                 "The agent kept calling tools: stopped after %u follow-up runs",
                                                 exchange->runs);

          _agui_reducer_fail (self->reducer, error);
          _agui_transcript_mark_attempt (self->transcript, exchange->attempt, AGUI_ATTEMPT_FAILED);
          finish_exchange (task, NULL);
          return;
        }

      start_run (task);
      return;
    }

  if (agui_run_state_get_status (state) == AGUI_RUN_FAILED)
    _agui_transcript_mark_attempt (self->transcript, exchange->attempt, AGUI_ATTEMPT_FAILED);

  finish_exchange (task, NULL);
}

static void
stream_done (GTask *task)
{
  Exchange *exchange = g_task_get_task_data (task);

  exchange->stream_done = TRUE;
  if (exchange->stream != NULL)
    agui_event_stream_close (exchange->stream);
  g_clear_object (&exchange->stream);

  maybe_finish_run (task);
}

static void read_next (GTask *task);

static void
on_next (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Exchange *exchange = g_task_get_task_data (task);
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  event = agui_event_stream_next_finish (AGUI_EVENT_STREAM (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_cancellable_is_cancelled (exchange->cancellable))
    {
      exchange->cancelled = TRUE;
      stream_done (task);
      return;
    }

  if (event != NULL)
    {
      if (!_agui_pipeline_push_event (exchange->pipeline, event))
        {
          /* The stream broke the protocol: nothing after it is trusted. */
          stream_done (task);
          return;
        }
    }
  else if (error != NULL)
    {
      /* An error item, or the error the stream ended with; either way the
       * run fails with the first one, and the next read tells the end. */
      _agui_pipeline_push_error (exchange->pipeline, error);
    }
  else
    {
      _agui_pipeline_finish (exchange->pipeline);
      stream_done (task);
      return;
    }

  read_next (task);
}

static void
read_next (GTask *task)
{
  Exchange *exchange = g_task_get_task_data (task);

  agui_event_stream_next_async (exchange->stream, exchange->cancellable,
                                on_next, g_object_ref (task));
}

static void
on_run_started (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  exchange->stream = agui_transport_run_finish (AGUI_TRANSPORT (object), result, &error);

  if (exchange->stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_cancellable_is_cancelled (exchange->cancellable))
        exchange->cancelled = TRUE;
      else
        _agui_reducer_fail (self->reducer, error);

      stream_done (task);
      return;
    }

  read_next (task);
}



static void
start_run (GTask *task)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  g_autofree char *run_id = g_uuid_string_random ();
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(GBytes) body = NULL;
  char *text = NULL;

  input = _agui_run_input_build (self->thread_id, run_id, self->transcript, self->input_messages, self->tools,
                                 exchange->parameters, exchange->runs == 0, exchange->a2ui_action,
                                 exchange->kind == EXCHANGE_RESUME ? exchange->answers : NULL,
                                 exchange->parent_run_id, &text);
  exchange->attempt = _agui_transcript_begin_attempt (self->transcript);
  exchange->runs++;
  exchange->stream_done = FALSE;
  exchange->pipeline = _agui_pipeline_new (self->reducer);
  exchange->tool_runner = _agui_tool_runner_new (self->tools, self->reducer, exchange->turn_events,
                                                 exchange->cancellable, on_tools_idle, G_OBJECT (task));
  _agui_pipeline_set_callbacks (exchange->pipeline, on_event_applied, NULL, task);

  /* A transport that sends JSON takes the text made from the kept
   * messages rather than print the input again */
  if (text != NULL)
    body = g_bytes_new_take (text, strlen (text));
  _agui_transport_run_body_async (self->transport, input, body, exchange->cancellable,
                                  on_run_started, g_object_ref (task));
}

/* The old branch stays in the transcript; the new turn's snapshot is a
 * second child of the one the branch starts from. */
static gboolean
begin_branch (AguiAgentSession  *self,
              Exchange          *exchange,
              GError           **error)
{
  g_autofree char *parent_snapshot_id = NULL;

  if (!_agui_transcript_fork (self->transcript, exchange->fork_id, exchange->kind == EXCHANGE_SEND,
                              &parent_snapshot_id, &exchange->parent_run_id, error))
    return FALSE;

  _agui_turn_recorder_restore (self->recorder, parent_snapshot_id,
                               _agui_turn_recorder_get_turn_index (self->recorder));

  return TRUE;
}

static void
on_message_kept (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  _agui_turn_recorder_journal_flush_finish (self->recorder, result);
  start_run (task);
}

static void
begin_exchange (GTask *task)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  JsonArray *pending = _agui_transcript_get_pending_interrupts_json (self->transcript);
  GError *error = NULL;

  if (g_cancellable_set_error_if_cancelled (exchange->cancellable, &error))
    {
      finish_exchange (task, error);
      return;
    }

  if (exchange->kind != EXCHANGE_RESUME && json_array_get_length (pending) > 0)
    {
      g_autoptr(GPtrArray) ids = g_ptr_array_new ();
      g_autofree char *joined = NULL;

      for (guint i = 0; i < json_array_get_length (pending); i++)
        g_ptr_array_add (ids, (gpointer) json_object_get_string_member_with_default (json_array_get_object_element (pending, i), "id", "?"));
      g_ptr_array_add (ids, NULL);
      joined = g_strjoinv (", ", (char **) ids->pdata);

      finish_exchange (task, g_error_new (AGUI_ERROR, AGUI_ERROR_INTERRUPTED,
                                          "The thread is waiting for answers to %u interrupt(s) (%s); "
                                          "resume it with an answer for each before starting another run",
                                          json_array_get_length (pending), joined));
      return;
    }

  if (exchange->kind == EXCHANGE_RESUME && !_agui_run_input_check_answers (self->transcript, exchange->answers, &error))
    {
      finish_exchange (task, error);
      return;
    }

  if (exchange->kind == EXCHANGE_RESUME)
    _agui_run_input_record_answers (self->transcript, exchange->answers);

  if (exchange->fork_id != NULL && !begin_branch (self, exchange, &error))
    {
      finish_exchange (task, error);
      return;
    }

  /* The turn begins: a snapshot id is reserved (none without a store). */
  exchange->started = TRUE;
  exchange->snapshot_id = _agui_turn_recorder_reserve_snapshot_id (self->recorder);
  exchange->turn_events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  if (exchange->kind == EXCHANGE_SEND)
    {
      g_autofree char *message_id = g_uuid_string_random ();
      g_autoptr(GPtrArray) events = _agui_reducer_add_user_message (self->reducer, message_id, exchange->content);

      _agui_turn_recorder_journal_begin (self->recorder, self->transcript, exchange->snapshot_id);
      for (guint i = 0; i < events->len; i++)
        g_ptr_array_add (exchange->turn_events, agui_event_ref (g_ptr_array_index (events, i)));
      _agui_turn_recorder_journal_add_all (self->recorder, events);

      /* Write-ahead: the person's message is in the store (and the
       * conversation listed) before the request leaves */
      _agui_turn_recorder_journal_flush_async (self->recorder, on_message_kept, g_object_ref (task));
      return;
    }

  _agui_turn_recorder_journal_begin (self->recorder, self->transcript, exchange->snapshot_id);
  start_run (task);
}

void
_agui_agent_session_start_next (AguiAgentSession *self)
{
  g_assert (self->current == NULL);

  if (self->restoring)
    return;

  self->current = g_queue_pop_head (&self->waiting);
  if (self->current == NULL)
    return;

  g_object_notify_by_pspec (G_OBJECT (self), _agui_agent_session_get_busy_pspec ());
  begin_exchange (self->current);
}

static void
on_caller_cancelled (GCancellable *caller,
                     GCancellable *internal)
{
  g_cancellable_cancel (internal);
}

GTask *
_agui_agent_session_exchange_task_new (AguiAgentSession    *self,
                                       ExchangeKind         kind,
                                       JsonNode            *content,
                                       JsonArray           *answers,
                                       AguiRunParameters   *parameters,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data,
                                       gpointer             source_tag)
{
  GTask *task;
  Exchange *exchange;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  exchange = g_new0 (Exchange, 1);
  exchange->kind = kind;
  exchange->content = content ? _agui_json_node_copy_deep (content) : NULL;
  if (answers != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), answers);
      g_autoptr(JsonNode) copy = _agui_json_node_copy_deep (node);

      exchange->answers = json_array_ref (json_node_get_array (copy));
    }
  exchange->parameters = parameters ? agui_run_parameters_ref (parameters) : NULL;
  /* One cancellable for the exchange, cancelled by the caller's or by
   * agui_agent_session_cancel(). */
  exchange->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      exchange->caller_cancellable = g_object_ref (cancellable);
      exchange->caller_cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                             exchange->cancellable, NULL);
    }
  g_task_set_task_data (task, exchange, (GDestroyNotify) exchange_free);

  return task;
}

void
_agui_agent_session_enqueue_task (AguiAgentSession *self,
                                  GTask            *task)
{
  g_queue_push_tail (&self->waiting, task);
  if (self->current == NULL)
    _agui_agent_session_start_next (self);
}

static void
enqueue (AguiAgentSession    *self,
         ExchangeKind         kind,
         JsonNode            *content,
         JsonArray           *answers,
         AguiRunParameters   *parameters,
         GCancellable        *cancellable,
         GAsyncReadyCallback  callback,
         gpointer             user_data,
         gpointer             source_tag)
{
  _agui_agent_session_enqueue_task (self, _agui_agent_session_exchange_task_new (self, kind, content, answers, parameters,
                                                                                 cancellable, callback, user_data,
                                                                                 source_tag));
}

/**
 * agui_agent_session_send_async:
 * @self: a session
 * @text: what the person says
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Adds a user message and runs the agent, answering its frontend tool
 * calls in follow-up runs until a run calls none. Waits for a run in
 * flight to end first.
 */
void
agui_agent_session_send_async (AguiAgentSession    *self,
                               const char          *text,
                               AguiRunParameters   *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(JsonNode) content = NULL;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  content = json_node_init_string (json_node_alloc (), text);
  enqueue (self, EXCHANGE_SEND, content, NULL, parameters, cancellable, callback, user_data,
           agui_agent_session_send_async);
}

AguiRunState *
_agui_agent_session_propagate (AguiAgentSession  *self,
                               GAsyncResult      *result,
                               gpointer           source_tag,
                               GError           **error)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agui_agent_session_send_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * A run that failed is not an error here: it is a failed run state, with
 * the reason. Errors are for exchanges that could not start (the thread
 * waits on interrupts) or were cancelled.
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_send_finish (AguiAgentSession  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_send_async, error);
}

/**
 * agui_agent_session_run_async:
 * @self: a session
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Runs the agent on the thread as it stands, without adding a message.
 */
void
agui_agent_session_run_async (AguiAgentSession    *self,
                              AguiRunParameters   *parameters,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  enqueue (self, EXCHANGE_RUN, NULL, NULL, parameters, cancellable, callback, user_data,
           agui_agent_session_run_async);
}

/**
 * agui_agent_session_run_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_run_finish (AguiAgentSession  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_run_async, error);
}

/**
 * agui_agent_session_send_a2ui_action_async:
 * @self: a session
 * @user_action: the A2UI `userAction`, as from [method@Agui.A2uiSurface.build_action]
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Tells the agent what the person did on an A2UI surface: runs the agent
 * on the thread as it stands, with no new message, and with
 * `forwardedProps.a2uiAction.userAction` set to @user_action beside the
 * forwarded properties of @parameters. Tool follow-ups of that run do not
 * repeat the action.
 */
void
agui_agent_session_send_a2ui_action_async (AguiAgentSession    *self,
                                           JsonObject          *user_action,
                                           AguiRunParameters   *parameters,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  GTask *task;
  Exchange *exchange;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (user_action != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = _agui_agent_session_exchange_task_new (self, EXCHANGE_RUN, NULL, NULL, parameters, cancellable, callback, user_data,
                                                agui_agent_session_send_a2ui_action_async);
  exchange = g_task_get_task_data (task);
  exchange->a2ui_action = json_object_ref (user_action);
  _agui_agent_session_enqueue_task (self, task);
}

/**
 * agui_agent_session_send_a2ui_action_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_send_a2ui_action_finish (AguiAgentSession  *self,
                                            GAsyncResult      *result,
                                            GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_send_a2ui_action_async, error);
}

/**
 * agui_agent_session_resume_async:
 * @self: a session
 * @answers: AG-UI `ResumeEntry` objects, one for every open interrupt:
 *   `{"interruptId", "status": "resolved", "payload"}` or
 *   `{"interruptId", "status": "cancelled"}`
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Answers the interrupts the thread waits on and runs the agent with the
 * answers. Fails without sending anything when an open interrupt is not
 * answered, when an answer names an interrupt that is not open, or when a
 * resolved answer comes after its interrupt expired.
 */
void
agui_agent_session_resume_async (AguiAgentSession    *self,
                                 JsonArray           *answers,
                                 AguiRunParameters   *parameters,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (answers != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  enqueue (self, EXCHANGE_RESUME, NULL, answers, parameters, cancellable, callback, user_data,
           agui_agent_session_resume_async);
}

/**
 * agui_agent_session_resume_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_resume_finish (AguiAgentSession  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_resume_async, error);
}

/**
 * agui_agent_session_cancel:
 * @self: a session
 *
 * Stops the exchange in flight: the transport stops (an HTTP connection
 * is closed), running tools are cancelled and answer with their failure,
 * and the run ends as cancelled. Exchanges waiting their turn go ahead.
 */
void
agui_agent_session_cancel (AguiAgentSession *self)
{
  Exchange *exchange;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));

  if (self->current == NULL)
    return;

  exchange = g_task_get_task_data (self->current);
  g_cancellable_cancel (exchange->cancellable);
}

/**
 * agui_agent_session_send_message_async:
 * @self: a session
 * @message: an AG-UI user message: `role` absent or `"user"`, `content`
 *   text or text and media parts
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Like [method@Agui.AgentSession.send_async], for a message that may be
 * multimodal. A message of another role, or one carrying tool calls or
 * tool results, is refused at once and nothing is written.
 */
void
agui_agent_session_send_message_async (AguiAgentSession    *self,
                                       JsonObject          *message,
                                       AguiRunParameters   *parameters,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (message != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!_agui_run_input_check_user_message (message, &error))
    {
      g_task_report_error (self, callback, user_data, agui_agent_session_send_async, error);
      return;
    }

  enqueue (self, EXCHANGE_SEND, json_object_get_member (message, "content"), NULL, parameters,
           cancellable, callback, user_data, agui_agent_session_send_async);
}

/**
 * agui_agent_session_send_message_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_send_message_finish (AguiAgentSession  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return _agui_agent_session_propagate (self, result, agui_agent_session_send_async, error);
}
