/* agui-run-state.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-interrupt-private.h"
#include "agui-json-doc-node-private.h"
#include "agui-run-state-private.h"

/**
 * AguiRunState:
 *
 * Where a thread's latest run stands, as one immutable value: idle;
 * running (with its thread and run id); finished (with its outcome, its
 * result and the interrupts it left open); or failed (with the message,
 * the agent's code if it gave one, and the pipeline stage that failed).
 */
struct _AguiRunState
{
  gatomicrefcount  ref_count;
  AguiRunStatus    status;
  AguiRunOutcome   outcome;
  AguiStage        stage;
  char            *thread_id;
  char            *run_id;
  /* the result, when has_result, in the tree; its node built when asked */
  AguiJsonValue    result;
  JsonNode        *result_node;
  gboolean         has_result;
  /* a finished run's interrupts, an array (empty for none), in the tree */
  AguiJsonValue    interrupts;
  GListStore      *interrupt_list;  /* the same, as AguiInterrupt */
  char            *error_message;
  char            *error_code;
  char            *error_details;
  GStrv            pending_tool_call_ids;
};

G_DEFINE_BOXED_TYPE (AguiRunState, agui_run_state, agui_run_state_ref, agui_run_state_unref)

static AguiRunState *
run_state_new (AguiRunStatus  status,
               const char    *thread_id,
               const char    *run_id)
{
  AguiRunState *self = g_new0 (AguiRunState, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->status = status;
  self->thread_id = g_strdup (thread_id);
  self->run_id = g_strdup (run_id);

  return self;
}

/**
 * _agui_run_state_new_idle:
 *
 * Returns: (transfer full): the state of a thread that has not run
 */
AguiRunState *
_agui_run_state_new_idle (void)
{
  return run_state_new (AGUI_RUN_IDLE, NULL, NULL);
}

/**
 * _agui_run_state_new_running:
 * @thread_id: (nullable): the thread
 * @run_id: (nullable): the run
 *
 * Returns: (transfer full): the state of a run in flight
 */
AguiRunState *
_agui_run_state_new_running (const char *thread_id,
                            const char *run_id)
{
  return run_state_new (AGUI_RUN_RUNNING, thread_id, run_id);
}

/**
 * _agui_run_state_new_finished:
 * @thread_id: (nullable): the thread
 * @run_id: (nullable): the run
 * @outcome: how it ended
 * @result: (nullable): the run's result value
 * @interrupts: (nullable): the interrupts it left open, an array; copied
 *
 * Returns: (transfer full): the state of a finished run
 */
AguiRunState *
_agui_run_state_new_finished (const char          *thread_id,
                             const char          *run_id,
                             AguiRunOutcome       outcome,
                             AguiJsonValue       *result,
                             const AguiJsonValue *interrupts)
{
  AguiRunState *self = run_state_new (AGUI_RUN_FINISHED, thread_id, run_id);

  self->outcome = outcome;
  self->has_result = result != NULL;
  if (result != NULL)
    _agui_json_value_move (&self->result, result);
  if (interrupts != NULL && interrupts->kind == AGUI_JSON_DOC_ARRAY)
    _agui_json_value_copy (&self->interrupts, interrupts);
  else
    _agui_json_value_set_array (&self->interrupts, 0);
  self->interrupt_list = g_list_store_new (AGUI_TYPE_INTERRUPT);
  for (guint i = 0; i < _agui_json_array_get_length (self->interrupts.u.array); i++)
    {
      const AguiJsonValue *element = _agui_json_array_get (self->interrupts.u.array, i);
      g_autoptr(AguiInterrupt) interrupt = NULL;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;
      interrupt = _agui_interrupt_new_from_value (element);
      g_list_store_append (self->interrupt_list, interrupt);
    }

  return self;
}

/**
 * _agui_run_state_new_failed:
 * @thread_id: (nullable): the thread
 * @run_id: (nullable): the run
 * @message: what went wrong
 * @code: (nullable): the agent's machine-readable code
 * @stage: the stage that failed
 *
 * Returns: (transfer full): the state of a failed run
 */
AguiRunState *
_agui_run_state_new_failed (const char *thread_id,
                           const char *run_id,
                           const char *message,
                           const char *code,
                           AguiStage   stage)
{
  AguiRunState *self = run_state_new (AGUI_RUN_FAILED, thread_id, run_id);

  self->error_message = g_strdup (message);
  self->error_code = g_strdup (code);
  self->stage = stage;

  return self;
}

/**
 * agui_run_state_ref:
 * @self: a run state
 *
 * Returns: (transfer full): @self
 */
AguiRunState *
agui_run_state_ref (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * agui_run_state_unref:
 * @self: (transfer full): a run state
 */
void
agui_run_state_unref (AguiRunState *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->thread_id);
      g_free (self->run_id);
      _agui_json_value_clear (&self->result);
      g_clear_pointer (&self->result_node, json_node_unref);
      _agui_json_value_clear (&self->interrupts);
      g_clear_object (&self->interrupt_list);
      g_free (self->error_message);
      g_free (self->error_code);
      g_free (self->error_details);
      g_strfreev (self->pending_tool_call_ids);
      g_free (self);
    }
}

/**
 * agui_run_state_get_status:
 * @self: a run state
 *
 * Returns: the status
 */
AguiRunStatus
agui_run_state_get_status (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, AGUI_RUN_IDLE);

  return self->status;
}

/**
 * agui_run_state_get_thread_id:
 * @self: a run state
 *
 * Returns: (nullable): the thread id
 */
const char *
agui_run_state_get_thread_id (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->thread_id;
}

/**
 * agui_run_state_get_run_id:
 * @self: a run state
 *
 * Returns: (nullable): the run id
 */
const char *
agui_run_state_get_run_id (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->run_id;
}

/**
 * agui_run_state_get_outcome:
 * @self: a run state
 *
 * Returns: how a finished run ended; %AGUI_OUTCOME_NONE otherwise
 */
AguiRunOutcome
agui_run_state_get_outcome (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, AGUI_OUTCOME_NONE);

  return self->outcome;
}

/**
 * agui_run_state_get_result:
 * @self: a run state
 *
 * Returns: (transfer none) (nullable): the result of a finished run
 */
JsonNode *
agui_run_state_get_result (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (!self->has_result)
    return NULL;

  return _agui_json_value_ensure_node (&self->result, &self->result_node);
}

/**
 * agui_run_state_get_interrupts:
 * @self: a run state
 *
 * Returns: (transfer none) (nullable): the interrupts a finished run left
 *   open, a list of [class@Agui.Interrupt] (empty unless its outcome is
 *   %AGUI_OUTCOME_INTERRUPT); %NULL for a run that did not finish
 */
GListModel *
agui_run_state_get_interrupts (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->interrupt_list != NULL ? G_LIST_MODEL (self->interrupt_list) : NULL;
}

/**
 * agui_run_state_get_error_message:
 * @self: a run state
 *
 * Returns: (nullable): why a failed run failed
 */
const char *
agui_run_state_get_error_message (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->error_message;
}

/* Private: the raw material behind a failed run's short message (an HTTP
 * error body, a Content-Type), for the app's "Details" section. Set on a
 * state before it is published, never afterwards; not part of the JSON
 * form, and not stored. */
void
_agui_run_state_set_error_details (AguiRunState *self,
                                   const char   *details)
{
  g_return_if_fail (self != NULL);

  g_free (self->error_details);
  self->error_details = g_strdup (details);
}

const char *
_agui_run_state_get_error_details (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->error_details;
}

/**
 * agui_run_state_get_error_code:
 * @self: a run state
 *
 * Returns: (nullable): the agent's error code, if it gave one
 */
const char *
agui_run_state_get_error_code (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->error_code;
}

/**
 * agui_run_state_get_error_stage:
 * @self: a run state
 *
 * Returns: the stage at which a failed run failed
 */
AguiStage
agui_run_state_get_error_stage (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, AGUI_STAGE_NONE);

  return self->stage;
}

/**
 * agui_run_state_get_pending_tool_call_ids:
 * @self: a run state
 *
 * The tool calls a successful run left for the application to answer:
 * the ones its outcome names, or else every call started in the run that
 * got no result in it.
 *
 * Returns: (transfer none) (nullable): the ids, or %NULL unless the run
 *   finished successfully
 */
const char * const *
agui_run_state_get_pending_tool_call_ids (AguiRunState *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->pending_tool_call_ids;
}

/* Only while the value is being built, before anyone else sees it. */
void
_agui_run_state_set_pending_tool_call_ids (AguiRunState *self,
                                           GStrv         ids)
{
  g_strfreev (self->pending_tool_call_ids);
  self->pending_tool_call_ids = ids;
}

/**
 * agui_run_state_to_json:
 * @self: a run state
 *
 * Returns: (transfer full): the state as a JSON object, for logs and
 *   `tandem-cli fold`
 */
JsonNode *
agui_run_state_to_json (AguiRunState *self)
{
  static const char * const statuses[] = { "idle", "running", "finished", "failed" };
  static const char * const outcomes[] = { NULL, "success", "interrupt", "cancelled" };
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, statuses[self->status]);
  if (self->thread_id)
    {
      json_builder_set_member_name (builder, "threadId");
      json_builder_add_string_value (builder, self->thread_id);
    }
  if (self->run_id)
    {
      json_builder_set_member_name (builder, "runId");
      json_builder_add_string_value (builder, self->run_id);
    }
  if (outcomes[self->outcome])
    {
      json_builder_set_member_name (builder, "outcome");
      json_builder_add_string_value (builder, outcomes[self->outcome]);
    }
  if (self->has_result)
    {
      json_builder_set_member_name (builder, "result");
      json_builder_add_value (builder, json_node_copy (agui_run_state_get_result (self)));
    }
  if (self->status == AGUI_RUN_FINISHED)
    {
      json_builder_set_member_name (builder, "interrupts");
      json_builder_add_value (builder, _agui_json_value_to_node (&self->interrupts));
    }
  if (self->status == AGUI_RUN_FAILED)
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, self->error_message ? self->error_message : "");
      if (self->error_code)
        {
          json_builder_set_member_name (builder, "code");
          json_builder_add_string_value (builder, self->error_code);
        }
      if (agui_stage_to_string (self->stage))
        {
          json_builder_set_member_name (builder, "stage");
          json_builder_add_string_value (builder, agui_stage_to_string (self->stage));
        }
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
