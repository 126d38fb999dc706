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

/* A run that keeps calling frontend tools is stopped after this many
 * follow-ups rather than looping forever. */
#define MAX_FOLLOW_UPS 25

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

typedef enum
{
  EXCHANGE_SEND,
  EXCHANGE_RUN,
  EXCHANGE_RESUME,
} ExchangeKind;

typedef struct
{
  ExchangeKind       kind;
  JsonNode          *content;
  JsonArray         *answers;
  AguiRunParameters *parameters;
  /* An A2UI user action: forwarded with the first run only, so a tool
   * follow-up does not repeat what the person did. */
  JsonObject        *a2ui_action;
  /* A regenerated answer or an edited message: the row the branch starts
   * at, and the run it branches from (the first run's parentRunId). */
  char              *fork_id;
  char              *parent_run_id;
  GCancellable      *cancellable;
  GCancellable      *caller_cancellable;
  gulong             caller_cancelled_id;

  /* The run in flight. */
  AguiPipeline      *pipeline;
  AguiEventStream   *stream;
  AguiToolRunner    *tool_runner;
  guint              runs;
  gboolean           stream_done;
  gboolean           cancelled;
  guint              attempt;

  /* The turn: everything this exchange added to the thread, for the store. */
  gboolean           started;
  GError            *finish_error;
  char              *snapshot_id;
  GPtrArray         *turn_events;
} Exchange;

struct _AguiAgentSession
{
  GObject           parent_instance;
  AguiTransport    *transport;
  AguiTranscript   *transcript;
  AguiReducer      *reducer;
  AguiToolRegistry *tools;
  char             *thread_id;
  char             *agent;
  GQueue            waiting;
  GTask            *current;

  AguiSessionStore *store;
  char             *default_title;
  guint64           max_state_size;
  AguiTurnRecorder *recorder;
  /* A restore is drawing the thread: turns wait for it. */
  gboolean          restoring;
  /* The branch chosen last, and whether a write of a choice is in
   * flight: one at a time, so that quick switches land in order. */
  char             *branch_to_keep;
  gboolean          keeping_branch;

  /* The messages of the next run's input, kept up to date between turns
   * in slices so that a send on a long thread has little left to make */
  AguiInputMessages *input_messages;
  guint              input_messages_id;
};

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

static void start_next (AguiAgentSession *self);
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
  self->reducer = agui_reducer_new (self->transcript);
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

/* The exchange */

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

static void
keep_input_messages (AguiAgentSession *self)
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);

  if (error != NULL)
    g_task_return_error (finished, error);
  else
    g_task_return_pointer (finished,
                           agui_run_state_ref (agui_transcript_get_run_state (self->transcript)),
                           (GDestroyNotify) agui_run_state_unref);

  if (self->current == NULL)
    start_next (self);
  keep_input_messages (self);
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

          agui_reducer_fail (self->reducer, error);
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
        agui_reducer_fail (self->reducer, error);

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
        {
          g_ptr_array_add (exchange->turn_events, agui_event_ref (g_ptr_array_index (events, i)));
          _agui_turn_recorder_journal_add (self->recorder, g_ptr_array_index (events, i));
        }

      /* Write-ahead: the person's message is in the store (and the
       * conversation listed) before the request leaves */
      _agui_turn_recorder_journal_flush_async (self->recorder, on_message_kept, g_object_ref (task));
      return;
    }

  _agui_turn_recorder_journal_begin (self->recorder, self->transcript, exchange->snapshot_id);
  start_run (task);
}

static void
start_next (AguiAgentSession *self)
{
  g_assert (self->current == NULL);

  if (self->restoring)
    return;

  self->current = g_queue_pop_head (&self->waiting);
  if (self->current == NULL)
    return;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  begin_exchange (self->current);
}

static void
on_caller_cancelled (GCancellable *caller,
                     GCancellable *internal)
{
  g_cancellable_cancel (internal);
}

static GTask *
exchange_task_new (AguiAgentSession    *self,
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

static void
enqueue_task (AguiAgentSession *self,
              GTask            *task)
{
  g_queue_push_tail (&self->waiting, task);
  if (self->current == NULL)
    start_next (self);
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
  enqueue_task (self, exchange_task_new (self, kind, content, answers, parameters,
                                         cancellable, callback, user_data, source_tag));
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

static AguiRunState *
propagate (AguiAgentSession  *self,
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
  return propagate (self, result, agui_agent_session_send_async, error);
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
  return propagate (self, result, agui_agent_session_run_async, error);
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

  task = exchange_task_new (self, EXCHANGE_RUN, NULL, NULL, parameters, cancellable, callback, user_data,
                            agui_agent_session_send_a2ui_action_async);
  exchange = g_task_get_task_data (task);
  exchange->a2ui_action = json_object_ref (user_action);
  enqueue_task (self, task);
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
  return propagate (self, result, agui_agent_session_send_a2ui_action_async, error);
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
  return propagate (self, result, agui_agent_session_resume_async, error);
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

  return propagate (self, result, agui_agent_session_send_async, error);
}

/* Restore */

typedef struct
{
  GPtrArray  *events;
  JsonObject *snapshot;
  /* Every snapshot, to rebuild the thread's branches */
  JsonArray  *snapshots;
  int         turn_count;
  guint       folded;
  guint       idle_id;
  /* When each turn was saved, by the run that ended it, and how many
   * of the transcript's records have their time from it */
  GHashTable *run_times;
  guint       timed;
  /* What the journal kept of turns a crash cut short, and their ids */
  GPtrArray  *journal;
  GStrv       journal_ids;
  /* The log and the journal reach the transcript as a live stream
   * does, as a log: they were verified when they were written */
  AguiPipeline *pipeline;
} Restore;

static void
restore_free (Restore *restore)
{
  g_clear_handle_id (&restore->idle_id, g_source_remove);
  /* The events not folded yet, when the restore was cancelled */
  for (guint i = restore->folded; restore->events != NULL && i < restore->events->len; i++)
    agui_event_unref (g_ptr_array_index (restore->events, i));
  g_clear_pointer (&restore->events, g_ptr_array_unref);
  g_clear_pointer (&restore->snapshot, json_object_unref);
  g_clear_pointer (&restore->snapshots, json_array_unref);
  g_clear_pointer (&restore->run_times, g_hash_table_unref);
  g_clear_pointer (&restore->journal, g_ptr_array_unref);
  g_strfreev (restore->journal_ids);
  g_clear_pointer (&restore->pipeline, _agui_pipeline_free);
  g_free (restore);
}

/* Reads everything a restore needs in one go: on the store's worker for
 * restore_async, after the writes asked for before it, so a long log
 * never blocks the main loop. */
static Restore *
restore_load (AguiSessionStore  *store,
              const char        *thread_id,
              GError           **error)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(GError) local_error = NULL;
  Restore *restore;

  events = agui_session_store_load_events (store, thread_id, error);
  if (events == NULL)
    return NULL;

  snapshot = _agui_session_store_get_last_snapshot_for_restore (store, thread_id, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  restore = g_new0 (Restore, 1);
  /* Best effort: without it the thread opens as its last saved turn */
  restore->journal = _agui_session_store_load_journal (store, thread_id, &restore->journal_ids, &local_error);
  if (restore->journal == NULL)
    {
      g_warning ("%s", local_error->message);
      g_clear_error (&local_error);
    }
  restore->events = g_steal_pointer (&events);
  /* Each event is let go as it is folded, within the slice's time:
   * freeing 60,000 at the end held the main loop for 80-100 ms */
  g_ptr_array_set_free_func (restore->events, NULL);
  restore->snapshot = g_steal_pointer (&snapshot);
  restore->turn_count = restore->snapshot != NULL
                        ? agui_session_store_get_turn_count (store, thread_id, NULL) : 0;
  /* Reading every snapshot costs the thread's length times its turns:
   * only a thread that forked needs them. Best effort: without them the
   * thread still opens as its log says. */
  if (restore->snapshot != NULL && _agui_session_store_count_branches (store, thread_id, NULL) > 1)
    {
      restore->snapshots = _agui_session_store_list_snapshots (store, thread_id, &local_error);
      if (restore->snapshots == NULL)
        g_warning ("%s", local_error->message);
    }
  /* Otherwise the messages' times come from the turns' times; without
   * them a message's time is when it was read back */
  else if (restore->snapshot != NULL)
    {
      restore->run_times = _agui_session_store_dup_run_times (store, thread_id, &local_error);
      if (restore->run_times == NULL)
        g_debug ("%s", local_error->message);
    }

  return restore;
}

/* A run of the log ended: what was said since the last timed run is as
 * old as the turn this run ended. A run that did not end its turn (a
 * tool's answer or a resume came next) has no time of its own, and its
 * records wait for the run that did. */
static void
restore_run_time (AguiAgentSession *self,
                  Restore          *restore,
                  const char       *run_id)
{
  const gint64 *time;
  guint n_records;

  if (restore->run_times == NULL || run_id == NULL ||
      !(time = g_hash_table_lookup (restore->run_times, run_id)))
    return;

  n_records = _agui_transcript_get_n_records (self->transcript);
  _agui_transcript_set_times (self->transcript, restore->timed, n_records, *time);
  restore->timed = n_records;
}

/* Folds up to @budget_us microseconds' worth of the log (all of it when
 * negative). Returns whether the log is folded. */
static gboolean
restore_fold (AguiAgentSession *self,
              Restore          *restore,
              gint64            budget_us)
{
  gint64 deadline = budget_us >= 0 ? g_get_monotonic_time () + budget_us : G_MAXINT64;

  if (restore->pipeline == NULL)
    restore->pipeline = _agui_pipeline_new_full (self->reducer, AGUI_PIPELINE_LOG);

  while (restore->folded < restore->events->len)
    {
      AguiEvent *event = g_ptr_array_index (restore->events, restore->folded);
      AguiEventType type = agui_event_get_event_type (event);

      _agui_pipeline_push_event (restore->pipeline, event);
      restore->folded++;
      if (type == AGUI_EVENT_RUN_FINISHED || type == AGUI_EVENT_RUN_ERROR)
        restore_run_time (self, restore, agui_event_get_string (event, "runId"));
      g_ptr_array_index (restore->events, restore->folded - 1) = NULL;
      agui_event_unref (event);

      /* Reading the clock costs; every few events is often enough. */
      if ((restore->folded & 0x1f) == 0 && g_get_monotonic_time () >= deadline)
        return restore->folded == restore->events->len;
    }

  return TRUE;
}

/* What the log cannot say, from the last snapshot: what the person
 * answered, which calls got no result, how the last turn ended if not by
 * an event, and where the snapshot chain goes on. */
static void
restore_finish (AguiAgentSession *self,
                Restore          *restore)
{
  JsonObject *snapshot = restore->snapshot;
  const char *status;

  if (snapshot == NULL)
    return;

  if (json_object_has_member (snapshot, "messages") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (snapshot, "messages")))
    _agui_transcript_restore_local_state (self->transcript, json_object_get_array_member (snapshot, "messages"));

  status = json_object_get_string_member_with_default (snapshot, "status", NULL);
  if (g_strcmp0 (status, "ABORTED") == 0)
    {
      _agui_reducer_cancel_run (self->reducer);
    }
  else if (g_strcmp0 (status, "FAILED") == 0 &&
           agui_run_state_get_status (agui_transcript_get_run_state (self->transcript)) != AGUI_RUN_FAILED)
    {
      const char *reason = json_object_get_string_member_with_default (snapshot, "finishReason", NULL);
      g_autoptr(AguiRunState) failed = NULL;
      AguiRunState *current = agui_transcript_get_run_state (self->transcript);
      AguiStage stage = AGUI_STAGE_TRANSPORT;

      for (AguiStage s = AGUI_STAGE_CLIENT; s <= AGUI_STAGE_AGENT; s++)
        if (g_strcmp0 (agui_stage_to_string (s), reason) == 0)
          stage = s;

      failed = agui_run_state_new_failed (agui_run_state_get_thread_id (current),
                                          agui_run_state_get_run_id (current),
                                          json_object_get_string_member_with_default (snapshot, "error", ""),
                                          NULL, stage);
      _agui_reducer_set_run_state (self->reducer, failed);
    }

  /* A damaged latest snapshot is skipped on reading; the next turn must
   * still not reuse its index. */
  _agui_turn_recorder_restore (self->recorder,
                               json_object_get_string_member_with_default (snapshot, "id", NULL),
                               MAX ((guint) json_object_get_int_member_with_default (snapshot, "turnIndex", 0) + 1,
                                    (guint) MAX (0, restore->turn_count)));

  /* A thread that forked replays as its branches one after the other;
   * the snapshots say what each held. */
  if (restore->snapshots != NULL)
    _agui_transcript_restore_branches (self->transcript, restore->snapshots,
                                       _agui_turn_recorder_get_last_snapshot_id (self->recorder));
}

/* A crash cut a turn short: what its journal kept is drawn as it was
 * shown, the answer marked as failed (so that it can be retried), and
 * the next turn that saves writes it to the log. */
static void
restore_journal (AguiAgentSession *self,
                 Restore          *restore)
{
  AguiRunStatus status;
  guint attempt = 0;

  if (restore->journal == NULL || restore->journal->len == 0)
    return;

  for (guint i = 0; i < restore->journal->len; i++)
    {
      AguiEvent *event = g_ptr_array_index (restore->journal, i);

      if (agui_event_get_event_type (event) == AGUI_EVENT_RUN_STARTED)
        attempt = _agui_transcript_begin_attempt (self->transcript);
      _agui_pipeline_push_event (restore->pipeline, event);
    }

  status = agui_run_state_get_status (agui_transcript_get_run_state (self->transcript));
  if (status != AGUI_RUN_FINISHED && status != AGUI_RUN_FAILED)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                                                     "The answer was interrupted: the program stopped "
                                                     "before it ended");

      if (json_array_get_length (_agui_transcript_get_pending_interrupts_json (self->transcript)) == 0)
        _agui_transcript_mark_unanswered_calls (self->transcript);
      agui_reducer_fail (self->reducer, error);
      _agui_transcript_mark_attempt (self->transcript, attempt, AGUI_ATTEMPT_FAILED);
    }

  _agui_turn_recorder_adopt_journals (self->recorder, restore->journal,
                                      (const char * const *) restore->journal_ids);
}

gboolean
_agui_agent_session_restore (AguiAgentSession  *self,
                             GError           **error)
{
  Restore *restore;

  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);
  g_return_val_if_fail (self->current == NULL && !self->restoring, FALSE);

  if (!(restore = restore_load (self->store, self->thread_id, error)))
    return FALSE;

  restore_fold (self, restore, -1);
  restore_finish (self, restore);
  restore_journal (self, restore);
  restore_free (restore);

  return TRUE;
}

static void
restore_done (GTask  *task,
              GError *error)
{
  AguiAgentSession *self = g_task_get_source_object (task);

  self->restoring = FALSE;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);

  /* A turn asked for meanwhile waited for the thread to be whole. */
  if (self->current == NULL)
    start_next (self);
  keep_input_messages (self);
}

/* The log is folded a slice at a time, so the main loop keeps drawing
 * (a long conversation takes far longer to fold than a frame lasts). */
static gboolean
restore_fold_slice (gpointer user_data)
{
  GTask *task = user_data;
  AguiAgentSession *self = g_task_get_source_object (task);
  Restore *restore = g_task_get_task_data (task);

  if (g_task_return_error_if_cancelled (task))
    {
      restore->idle_id = 0;
      self->restoring = FALSE;
      if (self->current == NULL)
        start_next (self);
      return G_SOURCE_REMOVE;
    }

  if (!restore_fold (self, restore, 4000))
    return G_SOURCE_CONTINUE;

  restore->idle_id = 0;
  restore_finish (self, restore);
  restore_journal (self, restore);
  restore_done (task, NULL);
  return G_SOURCE_REMOVE;
}

static void
on_restore_loaded (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  Restore *restore;

  restore = _agui_session_store_read_thread_finish (AGUI_SESSION_STORE (object), result, &error);
  if (restore == NULL)
    {
      restore_done (task, error);
      return;
    }

  g_task_set_task_data (task, restore, (GDestroyNotify) restore_free);
  /* Not an idle: a window that draws all the time (an animation, a
   * slow renderer) would starve it. A slice runs at most every
   * millisecond, and the main loop serves everything else in between. */
  restore->idle_id = g_timeout_add_full (G_PRIORITY_DEFAULT, 1, restore_fold_slice,
                                         g_object_ref (task), g_object_unref);
}

/**
 * agui_agent_session_restore_async:
 * @self: a session with a store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the thread is drawn again
 * @user_data: data for @callback
 *
 * Rebuilds the thread from the store: its log is folded again, so the
 * transcript draws exactly as it did, a thread that was waiting on
 * interrupts waits again, and the next turn's snapshot chains to the last
 * one saved. Call it before the first turn; a turn asked for while the
 * restore runs waits for it.
 *
 * The store is read on its worker thread, in order with the writes
 * asked for before, and the log is folded into the transcript in slices
 * between which the main loop runs, so a long conversation fills in
 * while the window stays responsive. A cancelled restore leaves a
 * partial transcript: discard the session.
 */
void
agui_agent_session_restore_async (AguiAgentSession    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (self->store != NULL);
  g_return_if_fail (self->current == NULL && !self->restoring);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_agent_session_restore_async);
  self->restoring = TRUE;

  /* On the store's worker, in order with the writes: a turn saved just
   * before is read back */
  _agui_session_store_read_thread_async (self->store, self->thread_id, (AguiStoreThreadRead) restore_load,
                                         (GDestroyNotify) restore_free, cancellable,
                                         on_restore_loaded, g_steal_pointer (&task));
}

/**
 * agui_agent_session_restore_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; an unknown thread is not an error (it
 *   restores as empty)
 */
gboolean
agui_agent_session_restore_finish (AguiAgentSession  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agui_agent_session_restore_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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

  task = exchange_task_new (self, EXCHANGE_RUN, NULL, NULL, parameters, cancellable, callback, user_data,
                            agui_agent_session_regenerate_async);
  ((Exchange *) g_task_get_task_data (task))->fork_id = g_strdup (message_id);
  enqueue_task (self, task);
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
  return propagate (self, result, agui_agent_session_regenerate_async, error);
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
  task = exchange_task_new (self, EXCHANGE_SEND, content, NULL, parameters, cancellable, callback, user_data,
                            agui_agent_session_edit_async);
  ((Exchange *) g_task_get_task_data (task))->fork_id = g_strdup (message_id);
  enqueue_task (self, task);
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
  return propagate (self, result, agui_agent_session_edit_async, error);
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
  keep_input_messages (self);

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
