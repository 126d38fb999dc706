/* agui-agent-session.c
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


/**
 * AguiAgentSession:
 *
 * One agent, one thread, one transcript.
 *
 * A session folds every run on its thread into a single
 * [class@Agui.Transcript] through one reducer that lives as long as the
 * session, so a second run grows the conversation instead of replacing
 * it. Runs take turns: a second [method@Agui.AgentSession.send_async]
 * while one is in flight waits for it to end; events of two runs never
 * interleave.
 *
 * Every way a run can go wrong (the agent is unreachable, the stream
 * breaks, the agent sends `RUN_ERROR`, the stream breaks the protocol)
 * ends as a failed [struct@Agui.RunState] with the reason; the transcript
 * keeps everything that arrived.
 *
 * Given an [class@Agui.ToolRegistry], the session declares its tools in
 * every run, after the caller's own, and answers the agent's calls to them
 * itself: the call is assembled from its events and the tool runs as
 * soon as its arguments are complete. Its answer is folded into the
 * transcript once the run's stream has ended, as the reference client
 * does: a `MESSAGES_SNAPSHOT` the agent sends after the call cannot know
 * the answer and would otherwise drop it, and the answer lands after
 * any result the agent gave the call's siblings. An answer the agent
 * gave the call itself (a `TOOL_CALL_RESULT`, or a tool message in a
 * snapshot) wins. A follow-up run then carries the answers back, until
 * a run calls no tool. A call to a tool the registry lacks belongs to
 * the agent and is left alone.
 *
 * A run that finishes with an interrupt leaves the thread waiting: while
 * it waits, `send` and `run` fail with %AGUI_ERROR_INTERRUPTED, and
 * [method@Agui.AgentSession.resume_async], which must answer every open
 * interrupt, is the one call that starts a run. An answer to an interrupt
 * that has expired is refused.
 *
 * Answers that could not be delivered are kept: a tool's result whose run
 * failed or was cancelled goes out with the next run, and a tool stopped
 * mid-way answers that it failed, so the history never holds a call
 * without an answer.
 *
 * A run that fails or is stopped is marked as a failed or stopped attempt
 * ([property@Agui.Part:attempt]) and stays in the transcript. Retrying it
 * runs the agent again on the person's question: the next run's input
 * leaves out a failed attempt's text and reasoning (the agent must not
 * take its own broken-off words for its answer), keeps every call of it
 * that got a result together with that result (a result goes with the
 * call it answers), and leaves out calls no one answered, so the history
 * stays one the agent can continue. A stopped attempt keeps its text.
 *
 * The session never disposes a transport it was given.
 */

G_DEFINE_FINAL_TYPE (AguiAgentSession, agui_agent_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRANSPORT,
  PROP_THREAD_ID,
  PROP_TOOLS,
  PROP_TRANSCRIPT,
  PROP_RUN_STATE,
  PROP_PENDING_INTERRUPTS,
  PROP_BUSY,
  PROP_STORE,
  PROP_AGENT,
  PROP_LAST_SNAPSHOT_ID,
  PROP_TURN_INDEX,
  PROP_STORE_ERROR,
  PROP_DEFAULT_TITLE,
  PROP_MAX_STATE_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
on_transcript_notify (AguiAgentSession *self,
                      GParamSpec       *pspec,
                      AguiTranscript   *transcript)
{
  if (g_str_equal (pspec->name, "run-state"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN_STATE]);
  else if (g_str_equal (pspec->name, "pending-interrupts"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_INTERRUPTS]);
}

GParamSpec *
_agui_agent_session_get_busy_pspec (void)
{
  return properties[PROP_BUSY];
}

static void
on_recorder_changed (GObject                 *owner,
                     AguiTurnRecorderChanges  changes)
{
  if (changes & AGUI_TURN_RECORDER_CHANGED_CHAIN)
    {
      g_object_notify_by_pspec (owner, properties[PROP_LAST_SNAPSHOT_ID]);
      g_object_notify_by_pspec (owner, properties[PROP_TURN_INDEX]);
    }
  if (changes & AGUI_TURN_RECORDER_CHANGED_STORE_ERROR)
    g_object_notify_by_pspec (owner, properties[PROP_STORE_ERROR]);
}

static void
agui_agent_session_constructed (GObject *object)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  G_OBJECT_CLASS (agui_agent_session_parent_class)->constructed (object);

  if (self->thread_id == NULL)
    self->thread_id = g_uuid_string_random ();

  self->recorder = _agui_turn_recorder_new (object, on_recorder_changed, self->store, self->thread_id, self->agent,
                                            self->default_title);

  g_signal_connect_object (self->transcript, "notify",
                           G_CALLBACK (on_transcript_notify), self, G_CONNECT_SWAPPED);
}

static void
agui_agent_session_dispose (GObject *object)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  /* Exchanges hold a reference on the session, so none can be in flight. */
  g_assert (self->current == NULL);
  g_assert (g_queue_is_empty (&self->waiting));

  g_clear_handle_id (&self->input_messages_id, g_source_remove);
  g_clear_object (&self->transport);
  g_clear_object (&self->tools);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (agui_agent_session_parent_class)->dispose (object);
}

static void
agui_agent_session_finalize (GObject *object)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  g_clear_object (&self->reducer);
  g_clear_object (&self->transcript);
  g_clear_pointer (&self->thread_id, g_free);
  g_clear_pointer (&self->agent, g_free);
  g_clear_pointer (&self->default_title, g_free);
  g_clear_pointer (&self->recorder, _agui_turn_recorder_free);
  g_clear_pointer (&self->branch_to_keep, g_free);
  g_clear_pointer (&self->input_messages, _agui_input_messages_free);

  G_OBJECT_CLASS (agui_agent_session_parent_class)->finalize (object);
}

static void
agui_agent_session_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      g_value_set_object (value, self->transport);
      break;

    case PROP_THREAD_ID:
      g_value_set_string (value, self->thread_id);
      break;

    case PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;

    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;

    case PROP_RUN_STATE:
      g_value_set_boxed (value, agui_agent_session_get_run_state (self));
      break;

    case PROP_PENDING_INTERRUPTS:
      g_value_set_object (value, agui_agent_session_get_pending_interrupts (self));
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, agui_agent_session_get_busy (self));
      break;

    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_AGENT:
      g_value_set_string (value, self->agent);
      break;

    case PROP_LAST_SNAPSHOT_ID:
      g_value_set_string (value, agui_agent_session_get_last_snapshot_id (self));
      break;

    case PROP_TURN_INDEX:
      g_value_set_uint (value, agui_agent_session_get_turn_index (self));
      break;

    case PROP_STORE_ERROR:
      g_value_set_boxed (value, agui_agent_session_get_store_error (self));
      break;

    case PROP_DEFAULT_TITLE:
      g_value_set_string (value, self->default_title);
      break;

    case PROP_MAX_STATE_SIZE:
      g_value_set_uint64 (value, self->max_state_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_agent_session_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      self->transport = g_value_dup_object (value);
      break;

    case PROP_THREAD_ID:
      self->thread_id = g_value_dup_string (value);
      break;

    case PROP_TOOLS:
      self->tools = g_value_dup_object (value);
      break;

    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;

    case PROP_AGENT:
      self->agent = g_value_dup_string (value);
      break;

    case PROP_DEFAULT_TITLE:
      self->default_title = g_value_dup_string (value);
      break;

    case PROP_MAX_STATE_SIZE:
      agui_agent_session_set_max_state_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_agent_session_class_init (AguiAgentSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agui_agent_session_constructed;
  object_class->dispose = agui_agent_session_dispose;
  object_class->finalize = agui_agent_session_finalize;
  object_class->get_property = agui_agent_session_get_property;
  object_class->set_property = agui_agent_session_set_property;

  /**
   * AguiAgentSession:transport:
   *
   * How runs reach the agent. The session holds a reference and never
   * disposes it.
   */
  properties[PROP_TRANSPORT] =
    g_param_spec_object ("transport", NULL, NULL, AGUI_TYPE_TRANSPORT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:thread-id:
   *
   * The thread, fixed for the session's life (a new UUID when not given).
   */
  properties[PROP_THREAD_ID] =
    g_param_spec_string ("thread-id", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:tools:
   *
   * The frontend tools the session runs for the agent, or %NULL.
   */
  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL, AGUI_TYPE_TOOL_REGISTRY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, AGUI_TYPE_TRANSCRIPT,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_RUN_STATE] =
    g_param_spec_boxed ("run-state", NULL, NULL, AGUI_TYPE_RUN_STATE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:pending-interrupts:
   *
   * The interrupts the thread waits on: a list of [class@Agui.Interrupt],
   * the transcript's ([property@Agui.Transcript:pending-interrupts]).
   * While it is not empty, [method@Agui.AgentSession.send_async] and
   * [method@Agui.AgentSession.run_async] fail with
   * %AGUI_ERROR_INTERRUPTED; [method@Agui.AgentSession.resume_async]
   * answers them.
   */
  properties[PROP_PENDING_INTERRUPTS] =
    g_param_spec_object ("pending-interrupts", NULL, NULL, G_TYPE_LIST_MODEL,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:busy:
   *
   * Whether an exchange (a run and its tool follow-ups) is in flight.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:store:
   *
   * Where turns are persisted, or %NULL for client-managed mode, where
   * nothing is written and snapshot ids are empty.
   */
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGUI_TYPE_SESSION_STORE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:agent:
   *
   * A label for the agent (its URL, or "demo"), kept with the thread.
   */
  properties[PROP_AGENT] =
    g_param_spec_string ("agent", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:last-snapshot-id:
   *
   * The snapshot the last turn saved: %NULL before any turn, the empty
   * string in client-managed mode.
   */
  properties[PROP_LAST_SNAPSHOT_ID] =
    g_param_spec_string ("last-snapshot-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:turn-index:
   *
   * How many turns the thread has had, failed and cancelled ones included.
   */
  properties[PROP_TURN_INDEX] =
    g_param_spec_uint ("turn-index", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:store-error:
   *
   * Why the last turn could not be saved, or %NULL: an %AGUI_ERROR_STORE
   * (the disk is full, the store is read-only) or the error a value that
   * cannot be stored gave. The conversation in memory goes on
   * regardless, and [method@Agui.AgentSession.retry_save_async] writes
   * it again.
   */
  properties[PROP_STORE_ERROR] =
    g_param_spec_boxed ("store-error", NULL, NULL, G_TYPE_ERROR,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:default-title:
   *
   * The title a stored thread gets when the person's first message has
   * no text to name it after (only media, say). The library has no words
   * of its own for it: an application passes its own, translated; the
   * default is the empty string.
   */
  properties[PROP_DEFAULT_TITLE] =
    g_param_spec_string ("default-title", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiAgentSession:max-state-size:
   *
   * How large the agent's shared state, and each activity's content, may
   * grow through patches, in bytes of compact JSON (estimated: every
   * number but an integer counts 8). A `STATE_DELTA` or `ACTIVITY_DELTA`
   * that would grow it past this is refused whole, as one that does not
   * apply is: the state stays as it was, and
   * [property@Agui.Transcript:state-error] says why. Patches that shrink
   * a larger state, and snapshots (which the frame size bounds), always
   * apply. 0 means no cap; the default is 8 MiB, like the transport's
   * frame cap. Whatever the cap, no patch may nest the state deeper than a
   * snapshot could carry (511 levels).
   */
  properties[PROP_MAX_STATE_SIZE] =
    g_param_spec_uint64 ("max-state-size", NULL, NULL, 0, G_MAXUINT64, AGUI_JSON_DOC_DEFAULT_MAX_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_agent_session_init (AguiAgentSession *self)
{
  g_queue_init (&self->waiting);
  self->transcript = agui_transcript_new ();
  self->reducer = _agui_reducer_new (self->transcript);
  self->max_state_size = AGUI_JSON_DOC_DEFAULT_MAX_SIZE;
  self->input_messages = _agui_input_messages_new ();
}

/**
 * agui_agent_session_new:
 * @transport: how to reach the agent
 *
 * A session on a new thread, without frontend tools or a store. Set the
 * construct properties with g_object_new() for more: a thread to go on
 * ([property@Agui.AgentSession:thread-id]), frontend
 * [property@Agui.AgentSession:tools], a
 * [property@Agui.AgentSession:store] and the
 * [property@Agui.AgentSession:agent] it is kept under.
 *
 * Returns: (transfer full): a session
 */
AguiAgentSession *
agui_agent_session_new (AguiTransport *transport)
{
  g_return_val_if_fail (AGUI_IS_TRANSPORT (transport), NULL);

  return g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", transport, NULL);
}

/**
 * agui_agent_session_get_thread_id:
 * @self: a session
 *
 * Returns: the thread id
 */
const char *
agui_agent_session_get_thread_id (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->thread_id;
}

/**
 * agui_agent_session_get_transport:
 * @self: a session
 *
 * Returns: (transfer none): the transport
 */
AguiTransport *
agui_agent_session_get_transport (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->transport;
}

/**
 * agui_agent_session_get_transcript:
 * @self: a session
 *
 * Returns: (transfer none): the transcript every run folds into
 */
AguiTranscript *
agui_agent_session_get_transcript (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->transcript;
}

/**
 * agui_agent_session_get_tools:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the frontend tools
 */
AguiToolRegistry *
agui_agent_session_get_tools (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->tools;
}

/**
 * agui_agent_session_get_run_state:
 * @self: a session
 *
 * Returns: (transfer none): where the latest run stands
 */
AguiRunState *
agui_agent_session_get_run_state (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return agui_transcript_get_run_state (self->transcript);
}

/**
 * agui_agent_session_get_pending_interrupts:
 * @self: a session
 *
 * Returns: (transfer none): the interrupts the thread waits on, a list of
 *   [class@Agui.Interrupt] that stays the same object for the session's
 *   life; see [property@Agui.AgentSession:pending-interrupts]
 */
GListModel *
agui_agent_session_get_pending_interrupts (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return agui_transcript_get_pending_interrupts (self->transcript);
}

/**
 * agui_agent_session_get_busy:
 * @self: a session
 *
 * Returns: %TRUE while an exchange is in flight
 */
gboolean
agui_agent_session_get_busy (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);

  return self->current != NULL;
}

/**
 * agui_agent_session_get_max_state_size:
 * @self: a session
 *
 * Returns: the cap on the state's size, 0 for none; see
 *   [property@Agui.AgentSession:max-state-size]
 */
guint64
agui_agent_session_get_max_state_size (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), 0);

  return self->max_state_size;
}

/**
 * agui_agent_session_set_max_state_size:
 * @self: a session
 * @max_size: the cap in bytes, 0 for none
 *
 * Sets [property@Agui.AgentSession:max-state-size], for the patches that
 * come after.
 */
void
agui_agent_session_set_max_state_size (AguiAgentSession *self,
                                       guint64           max_size)
{
  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));

  if (self->max_state_size == max_size)
    return;

  self->max_state_size = max_size;
  _agui_reducer_set_max_state_size (self->reducer, (gsize) MIN (max_size, G_MAXSIZE));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_STATE_SIZE]);
}

/**
 * agui_agent_session_get_store:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the store
 */
AguiSessionStore *
agui_agent_session_get_store (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->store;
}

/**
 * agui_agent_session_get_last_snapshot_id:
 * @self: a session
 *
 * Returns: (nullable): the last turn's snapshot id: %NULL before any turn,
 *   empty in client-managed mode
 */
const char *
agui_agent_session_get_last_snapshot_id (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return _agui_turn_recorder_get_last_snapshot_id (self->recorder);
}

/**
 * agui_agent_session_get_turn_index:
 * @self: a session
 *
 * Returns: how many turns the thread has had, failed ones included
 */
guint
agui_agent_session_get_turn_index (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), 0);

  return _agui_turn_recorder_get_turn_index (self->recorder);
}

/**
 * agui_agent_session_get_store_error:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): why the last turn could not be
 *   saved; see [property@Agui.AgentSession:store-error]
 */
const GError *
agui_agent_session_get_store_error (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return _agui_turn_recorder_get_store_error (self->recorder);
}

/**
 * agui_agent_session_retry_save_async:
 * @self: a session
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the save is done
 * @user_data: data for @callback
 *
 * Writes again the last turn that could not be saved (see
 * [property@Agui.AgentSession:store-error]), with the events of every
 * unsaved turn before it. Nothing to retry is a success. On success the
 * store error is cleared and the turn index advances; on failure the
 * store error says why.
 */
void
agui_agent_session_retry_save_async (AguiAgentSession    *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_turn_recorder_retry_async (self->recorder, cancellable, callback, user_data);
}

/**
 * agui_agent_session_retry_save_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE if the turn is saved now (or nothing needed saving)
 */
gboolean
agui_agent_session_retry_save_finish (AguiAgentSession  *self,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return _agui_turn_recorder_retry_finish (self->recorder, result, error);
}
