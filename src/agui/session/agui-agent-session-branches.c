/* agui-agent-session-branches.c
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

/* AguiAgentSession's branches: a regenerated answer, an edited
 * message, and the branch the person chose, kept in the store */

/**
 * agui_agent_session_regenerate_async:
 * @self: a session
 * @message_id: the id of an agent's turn (the row), or of the person's
 *   message it answers
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Asks the agent again for the answer to the person's message: the
 * thread forks before the answer, which stays on its own branch (see
 * [method@Agui.Transcript.get_branch_position]), and the new run is given
 * the history up to the person's message, with `parentRunId` naming the
 * run that history ended on (none for the thread's first turn).
 */
void
agui_agent_session_regenerate_async (AguiAgentSession    *self,
                                     const char          *message_id,
                                     AguiRunParameters   *parameters,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (message_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = _agui_agent_session_exchange_task_new (self, EXCHANGE_RUN, NULL, NULL, parameters, cancellable, callback, user_data,
                                                agui_agent_session_regenerate_async);
  ((Exchange *) g_task_get_task_data (task))->fork_id = g_strdup (message_id);
  _agui_agent_session_enqueue_task (self, task);
}

/**
 * agui_agent_session_regenerate_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_regenerate_finish (AguiAgentSession  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_regenerate_async, error);
}

/**
 * agui_agent_session_edit_async:
 * @self: a session
 * @message_id: the id of a message of the person's
 * @text: what the person says instead
 * @parameters: (nullable): tools, context, forwarded properties and state
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole exchange has ended
 * @user_data: data for @callback
 *
 * Sends @text in place of an earlier message: the thread forks before
 * that message, which stays on its own branch with everything after it,
 * and the new run is given the history before it, then @text, with
 * `parentRunId` as for [method@Agui.AgentSession.regenerate_async].
 */
void
agui_agent_session_edit_async (AguiAgentSession    *self,
                               const char          *message_id,
                               const char          *text,
                               AguiRunParameters   *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(JsonNode) content = NULL;
  GTask *task;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (message_id != NULL);
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  content = json_node_init_string (json_node_alloc (), text);
  task = _agui_agent_session_exchange_task_new (self, EXCHANGE_SEND, content, NULL, parameters, cancellable, callback, user_data,
                                                agui_agent_session_edit_async);
  ((Exchange *) g_task_get_task_data (task))->fork_id = g_strdup (message_id);
  _agui_agent_session_enqueue_task (self, task);
}

/**
 * agui_agent_session_edit_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the state the last run ended in
 */
AguiRunState *
agui_agent_session_edit_finish (AguiAgentSession  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  return _agui_agent_session_propagate (self, result, agui_agent_session_edit_async, error);
}

static void keep_branch (AguiAgentSession *self);

typedef struct
{
  AguiAgentSession *session;
  /* The snapshot written as the branch chosen */
  char             *snapshot_id;
} KeepBranch;

static void
keep_branch_free (KeepBranch *keep)
{
  g_object_unref (keep->session);
  g_free (keep->snapshot_id);
  g_free (keep);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KeepBranch, keep_branch_free)

static void
on_branch_kept (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(KeepBranch) keep = user_data;
  AguiAgentSession *self = keep->session;
  g_autoptr(GError) error = NULL;

  self->keeping_branch = FALSE;
  if (!_agui_session_store_set_branch_finish (AGUI_SESSION_STORE (object), result, &error))
    {
      g_warning ("%s", error->message);
      _agui_turn_recorder_set_store_error (self->recorder, error);
    }

  /* The person switched again while this was written */
  if (g_strcmp0 (keep->snapshot_id, self->branch_to_keep) != 0)
    keep_branch (self);
}

gboolean
_agui_agent_session_get_keeping_branch (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);

  return self->keeping_branch;
}

static void
keep_branch (AguiAgentSession *self)
{
  KeepBranch *keep;

  if (self->keeping_branch || self->store == NULL || self->branch_to_keep == NULL)
    return;

  keep = g_new0 (KeepBranch, 1);
  keep->session = g_object_ref (self);
  keep->snapshot_id = g_strdup (self->branch_to_keep);
  self->keeping_branch = TRUE;
  /* On the store's worker, after the turns written before it */
  _agui_session_store_set_branch_async (self->store, self->thread_id, keep->snapshot_id, NULL,
                                        on_branch_kept, keep);
}

/**
 * agui_agent_session_choose_branch:
 * @self: a session
 * @message_id: the id of a row with alternatives
 * @index: the alternative to show, from 0
 * @error: return location for a #GError
 *
 * Switches the row, and everything after it, to another of its
 * alternatives. The next turn continues that branch, the history sent is
 * that branch's only, and the store remembers the choice (in the
 * background; a failure to keep it shows in
 * [property@Agui.AgentSession:store-error]).
 *
 * Returns: %TRUE on success; an unknown row, an alternative it does not
 *   have, or a session in the middle of an exchange is an error
 */
gboolean
agui_agent_session_choose_branch (AguiAgentSession  *self,
                                  const char        *message_id,
                                  guint              index,
                                  GError           **error)
{
  g_autofree char *leaf = NULL;

  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);

  if (self->current != NULL || self->restoring)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "A branch cannot be chosen while the agent is answering");
      return FALSE;
    }

  if (!_agui_transcript_choose_branch (self->transcript, message_id, index, &leaf, error))
    return FALSE;

  /* The branch's records are new to the kept messages */
  _agui_agent_session_keep_input_messages (self);

  if (g_strcmp0 (leaf, _agui_turn_recorder_get_last_snapshot_id (self->recorder)) == 0)
    return TRUE;

  _agui_turn_recorder_restore (self->recorder, leaf, _agui_turn_recorder_get_turn_index (self->recorder));

  if (leaf != NULL && leaf[0] != '\0')
    {
      g_free (self->branch_to_keep);
      self->branch_to_keep = g_steal_pointer (&leaf);
      keep_branch (self);
    }

  return TRUE;
}
