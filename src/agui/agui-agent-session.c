/* agui-agent-session.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-agent-session.h"
#include "agui-interrupts-private.h"
#include "agui-json-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-session-store.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-private.h"
#include "agui-session-store-private.h"

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
 * itself: the call is assembled from its events, the tool runs, its
 * answer is folded into the transcript, and once the run has finished a
 * follow-up run carries the answer back, until a run calls no tool. A
 * call to a tool the registry lacks belongs to the agent and is left
 * alone.
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
  char     *id;
  char     *name;
  gboolean  ended;
  gboolean  answered;
} FrontendCall;

typedef struct
{
  ExchangeKind       kind;
  JsonNode          *content;
  JsonArray         *answers;
  AguiRunParameters *parameters;
  /* An A2UI user action: forwarded with the first run only, so a tool
   * follow-up does not repeat what the person did. */
  JsonObject        *a2ui_action;
  GCancellable      *cancellable;
  GCancellable      *caller_cancellable;
  gulong             caller_cancelled_id;

  /* The run in flight. */
  AguiPipeline      *pipeline;
  AguiEventStream   *stream;
  GHashTable        *calls;
  guint              in_flight;
  guint              runs;
  gboolean           stream_done;
  gboolean           called_tools;
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
  char             *last_snapshot_id;
  guint             turn_index;
  char             *store_error;
  /* The events of turns whose save failed: written with the next turn
   * that saves, so the log still replays everything the snapshot holds. */
  GPtrArray        *unsaved_events;
  /* The last turn that could not be saved, for a retry. */
  struct _TurnSave *failed_save;
};

G_DEFINE_FINAL_TYPE (AguiAgentSession, agui_agent_session, G_TYPE_OBJECT)

static void turn_save_free (struct _TurnSave *save);

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
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void start_next (AguiAgentSession *self);
static void start_run  (GTask            *task);

static void
frontend_call_free (FrontendCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_free (call);
}

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
  g_clear_pointer (&exchange->pipeline, _agui_pipeline_free);
  if (exchange->stream != NULL)
    agui_event_stream_close (exchange->stream);
  g_clear_object (&exchange->stream);
  g_clear_pointer (&exchange->calls, g_hash_table_unref);
  g_free (exchange->snapshot_id);
  g_clear_pointer (&exchange->turn_events, g_ptr_array_unref);
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
agui_agent_session_constructed (GObject *object)
{
  AguiAgentSession *self = AGUI_AGENT_SESSION (object);

  G_OBJECT_CLASS (agui_agent_session_parent_class)->constructed (object);

  if (self->thread_id == NULL)
    self->thread_id = g_uuid_string_random ();

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
  g_clear_pointer (&self->last_snapshot_id, g_free);
  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, turn_save_free);
  g_clear_pointer (&self->store_error, g_free);

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
      g_value_set_boxed (value, agui_agent_session_get_pending_interrupts (self));
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
      g_value_set_string (value, self->last_snapshot_id);
      break;

    case PROP_TURN_INDEX:
      g_value_set_uint (value, self->turn_index);
      break;

    case PROP_STORE_ERROR:
      g_value_set_string (value, self->store_error);
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

  properties[PROP_PENDING_INTERRUPTS] =
    g_param_spec_boxed ("pending-interrupts", NULL, NULL, JSON_TYPE_ARRAY,
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
   * Why the last turn could not be saved, or %NULL. The conversation in
   * memory goes on regardless.
   */
  properties[PROP_STORE_ERROR] =
    g_param_spec_string ("store-error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_agent_session_init (AguiAgentSession *self)
{
  g_queue_init (&self->waiting);
  self->transcript = agui_transcript_new ();
  self->reducer = agui_reducer_new (self->transcript);
}

/**
 * agui_agent_session_new:
 * @transport: how to reach the agent
 *
 * Returns: (transfer full): a session on a new thread, without frontend tools
 */
AguiAgentSession *
agui_agent_session_new (AguiTransport *transport)
{
  g_return_val_if_fail (AGUI_IS_TRANSPORT (transport), NULL);

  return g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", transport, NULL);
}

/**
 * agui_agent_session_new_for_thread:
 * @transport: how to reach the agent
 * @thread_id: (nullable): the thread, or %NULL for a new one
 * @tools: (nullable): frontend tools to run for the agent
 *
 * Returns: (transfer full): a session
 */
AguiAgentSession *
agui_agent_session_new_for_thread (AguiTransport    *transport,
                                   const char       *thread_id,
                                   AguiToolRegistry *tools)
{
  g_return_val_if_fail (AGUI_IS_TRANSPORT (transport), NULL);
  g_return_val_if_fail (!tools || AGUI_IS_TOOL_REGISTRY (tools), NULL);

  return g_object_new (AGUI_TYPE_AGENT_SESSION,
                       "transport", transport,
                       "thread-id", thread_id,
                       "tools", tools,
                       NULL);
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
 * Returns: (transfer none): the interrupts the thread waits on
 */
JsonArray *
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

/* The exchange */

static const char *
finish_reason (AguiRunState *state,
               gboolean      cancelled)
{
  if (cancelled)
    return "cancelled";

  switch (agui_run_state_get_status (state))
    {
    case AGUI_RUN_FAILED:
      return agui_stage_to_string (agui_run_state_get_error_stage (state));

    case AGUI_RUN_FINISHED:
      switch (agui_run_state_get_outcome (state))
        {
        case AGUI_OUTCOME_INTERRUPT: return "interrupt";
        case AGUI_OUTCOME_CANCELLED: return "cancelled";
        case AGUI_OUTCOME_SUCCESS:
        case AGUI_OUTCOME_NONE:
        default:                     return "success";
        }

    case AGUI_RUN_IDLE:
    case AGUI_RUN_RUNNING:
    default:
      return NULL;
    }
}

static void
set_store_error (AguiAgentSession *self,
                 const char       *message)
{
  if (g_strcmp0 (self->store_error, message) == 0)
    return;

  g_free (self->store_error);
  self->store_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE_ERROR]);
}

/* A user message's text: its content, or the first text part of a
 * multimodal one */
static const char *
peek_user_text (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");
  JsonArray *parts;

  if (content != NULL && json_node_get_value_type (content) == G_TYPE_STRING)
    return json_node_get_string (content);
  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return NULL;

  parts = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = json_array_get_element (parts, i);

      if (JSON_NODE_HOLDS_OBJECT (part) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (part), "type", NULL), "text") == 0)
        return json_object_get_string_member_with_default (json_node_get_object (part), "text", NULL);
    }

  return NULL;
}

static char *
title_for (AguiAgentSession *self)
{
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (self->transcript, FALSE);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *content = peek_user_text (message);

      if (g_strcmp0 (json_object_get_string_member (message, "role"), "user") == 0 &&
          content != NULL && content[0] != '\0')
        {
          g_autofree char *line = g_strndup (content, strcspn (content, "\n"));

          if (g_utf8_strlen (line, -1) > 60)
            {
              char *cut = g_utf8_offset_to_pointer (line, 59);

              *cut = '\0';
              return g_strconcat (line, "…", NULL);
            }
          return g_steal_pointer (&line);
        }
    }

  return g_strdup ("New conversation");
}

/* What one turn writes, copied so that a worker thread can write it while
 * the conversation goes on in the main thread. */
typedef struct _TurnSave
{
  char               *thread_id;
  char               *title;
  char               *agent;
  char               *snapshot_id;
  char               *parent_id;
  char               *finish_reason;
  char               *error;
  int                 turn_index;
  AguiSnapshotStatus  status;
  JsonNode           *messages;
  JsonNode           *state;
  JsonNode           *pending_interrupts;
  GPtrArray          *events;
} TurnSave;

static void
turn_save_free (TurnSave *save)
{
  g_free (save->thread_id);
  g_free (save->title);
  g_free (save->agent);
  g_free (save->snapshot_id);
  g_free (save->parent_id);
  g_free (save->finish_reason);
  g_free (save->error);
  g_clear_pointer (&save->messages, json_node_unref);
  g_clear_pointer (&save->state, json_node_unref);
  g_clear_pointer (&save->pending_interrupts, json_node_unref);
  g_clear_pointer (&save->events, g_ptr_array_unref);
  g_free (save);
}

/* Shares the trees: nothing modifies a save once it is made. */
static TurnSave *
turn_save_copy (const TurnSave *save)
{
  TurnSave *copy = g_new0 (TurnSave, 1);

  copy->thread_id = g_strdup (save->thread_id);
  copy->title = g_strdup (save->title);
  copy->agent = g_strdup (save->agent);
  copy->snapshot_id = g_strdup (save->snapshot_id);
  copy->parent_id = g_strdup (save->parent_id);
  copy->finish_reason = g_strdup (save->finish_reason);
  copy->error = g_strdup (save->error);
  copy->turn_index = save->turn_index;
  copy->status = save->status;
  copy->messages = save->messages ? json_node_ref (save->messages) : NULL;
  copy->state = save->state ? json_node_ref (save->state) : NULL;
  copy->pending_interrupts = save->pending_interrupts ? json_node_ref (save->pending_interrupts) : NULL;
  copy->events = save->events ? g_ptr_array_ref (save->events) : NULL;

  return copy;
}

static void
save_turn_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  AguiSessionStore *store = source_object;
  TurnSave *save = task_data;
  AguiTurnRecord turn = { 0 };
  GError *error = NULL;

  turn.thread_id = save->thread_id;
  turn.snapshot_id = save->snapshot_id;
  turn.parent_id = save->parent_id;
  turn.turn_index = save->turn_index;
  turn.status = save->status;
  turn.finish_reason = save->finish_reason;
  turn.error = save->error;
  turn.messages = json_node_get_array (save->messages);
  turn.state = save->state;
  turn.events = save->events;
  turn.pending_interrupts = json_node_get_array (save->pending_interrupts);

  /* The thread is created in the turn's transaction: a kill between
   * the two must not leave a titled thread with no messages. */
  if (_agui_session_store_save_turn_in_thread (store, &turn, save->title, save->agent, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void complete_exchange (GTask  *task,
                               GError *error);

static void
advance_turn (AguiAgentSession *self,
              const char       *snapshot_id)
{
  g_free (self->last_snapshot_id);
  self->last_snapshot_id = g_strdup (snapshot_id);
  self->turn_index++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_SNAPSHOT_ID]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TURN_INDEX]);
}

static void
turn_saved (AguiAgentSession *self,
            const TurnSave   *save)
{
  g_autofree char *snapshot_id = g_strdup (save->snapshot_id);

  g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
  g_clear_pointer (&self->failed_save, turn_save_free);
  set_store_error (self, NULL);
  advance_turn (self, snapshot_id);
}

static void
on_turn_saved (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) exchange_task = user_data;
  AguiAgentSession *self = g_task_get_source_object (exchange_task);
  Exchange *exchange = g_task_get_task_data (exchange_task);
  g_autoptr(GError) error = NULL;

  TurnSave *save = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_warning ("%s", error->message);
      set_store_error (self, error->message);

      /* The turn counter and the parent link stay on the last snapshot
       * that was written, and this turn's events wait for the next
       * save, so a retried save neither skips an index nor names a
       * parent that does not exist. */
      g_clear_pointer (&self->unsaved_events, g_ptr_array_unref);
      self->unsaved_events = g_ptr_array_ref (save->events);
      g_clear_pointer (&self->failed_save, turn_save_free);
      self->failed_save = turn_save_copy (save);
    }
  else
    {
      turn_saved (self, save);
    }

  complete_exchange (exchange_task, g_steal_pointer (&exchange->finish_error));
}

/* The turn ends as a snapshot chained to the one before it: COMPLETED,
 * FAILED with its error, or ABORTED when cancelled. The write happens in
 * a worker thread (a turn's log can be long, and SQLite syncs the disk),
 * and the exchange completes once it is done, so a caller that sees the
 * turn end also sees it stored. A store that cannot write says so on the
 * session; the conversation itself goes on. Returns whether a write was
 * started. */
static gboolean
persist_turn (AguiAgentSession *self,
              GTask            *exchange_task)
{
  Exchange *exchange = g_task_get_task_data (exchange_task);
  AguiRunState *state = agui_transcript_get_run_state (self->transcript);
  gboolean started = FALSE;

  if (self->store != NULL)
    {
      g_autoptr(GTask) task = NULL;
      TurnSave *save = g_new0 (TurnSave, 1);
      g_autoptr(JsonNode) messages = NULL;
      g_autoptr(JsonNode) interrupts = NULL;

      save->thread_id = g_strdup (self->thread_id);
      save->title = title_for (self);
      save->agent = g_strdup (self->agent);
      save->snapshot_id = g_strdup (exchange->snapshot_id);
      save->parent_id = self->last_snapshot_id && self->last_snapshot_id[0] ? g_strdup (self->last_snapshot_id) : NULL;
      save->turn_index = self->turn_index;
      save->status = exchange->cancelled ? AGUI_SNAPSHOT_ABORTED
                     : agui_run_state_get_status (state) == AGUI_RUN_FAILED ? AGUI_SNAPSHOT_FAILED
                     : AGUI_SNAPSHOT_COMPLETED;
      save->finish_reason = g_strdup (finish_reason (state, exchange->cancelled));
      save->error = save->status == AGUI_SNAPSHOT_FAILED ? g_strdup (agui_run_state_get_error_message (state)) : NULL;
      /* Deep copies: the transcript goes on changing while the thread writes. */
      messages = _agui_json_node_new_array (agui_transcript_to_messages (self->transcript, TRUE));
      save->messages = _agui_json_node_copy_deep (messages);
      save->state = _agui_json_node_copy_deep (agui_transcript_get_state (self->transcript));
      interrupts = json_node_init_array (json_node_alloc (), agui_transcript_get_pending_interrupts (self->transcript));
      save->pending_interrupts = _agui_json_node_copy_deep (interrupts);
      if (self->unsaved_events != NULL)
        {
          save->events = g_ptr_array_new_full (self->unsaved_events->len + exchange->turn_events->len,
                                               (GDestroyNotify) agui_event_unref);
          for (guint i = 0; i < self->unsaved_events->len; i++)
            g_ptr_array_add (save->events, agui_event_ref (g_ptr_array_index (self->unsaved_events, i)));
          for (guint i = 0; i < exchange->turn_events->len; i++)
            g_ptr_array_add (save->events, agui_event_ref (g_ptr_array_index (exchange->turn_events, i)));
        }
      else
        {
          save->events = g_ptr_array_ref (exchange->turn_events);
        }

      task = g_task_new (self->store, NULL, on_turn_saved, g_object_ref (exchange_task));
      g_task_set_source_tag (task, persist_turn);
      g_task_set_task_data (task, save, (GDestroyNotify) turn_save_free);
      g_task_run_in_thread (task, save_turn_in_thread);
      started = TRUE;
    }
  else
    {
      advance_turn (self, exchange->snapshot_id);
    }

  return started;
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
      json_array_get_length (agui_transcript_get_pending_interrupts (self->transcript)) == 0)
    _agui_transcript_mark_unanswered_calls (self->transcript);

  /* Only a turn that started is a turn: refused input writes nothing. */
  if (exchange->started && persist_turn (self, task))
    {
      exchange->finish_error = error;
      return;
    }

  complete_exchange (task, error);
}

static JsonNode *
copy_array (JsonArray *array)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), array);

  return _agui_json_node_copy_deep (node);
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

static JsonNode *
build_input (AguiAgentSession *self,
             Exchange         *exchange,
             const char       *run_id)
{
  g_autoptr(JsonObject) input = json_object_new ();
  g_autoptr(GHashTable) declared = g_hash_table_new (g_str_hash, g_str_equal);
  AguiRunParameters *parameters = exchange->parameters;
  JsonArray *tools = json_array_new ();
  JsonArray *caller_tools = parameters ? agui_run_parameters_get_tools (parameters) : NULL;
  JsonArray *context = parameters ? agui_run_parameters_get_context (parameters) : NULL;
  JsonNode *forwarded = parameters ? agui_run_parameters_get_forwarded_props (parameters) : NULL;
  JsonNode *state = parameters ? agui_run_parameters_get_state (parameters) : NULL;

  json_object_set_string_member (input, "threadId", self->thread_id);
  json_object_set_string_member (input, "runId", run_id);
  json_object_set_string_member (input, "protocolVersion", "1.0");
  /* A caller's state applies to the run it starts; its follow-ups go on
   * from where that run left the state. */
  json_object_set_member (input, "state",
                          _agui_json_node_copy_deep (state && exchange->runs == 0
                                                     ? state : agui_transcript_get_state (self->transcript)));
  json_object_set_member (input, "messages",
                          _agui_json_node_new_array (agui_transcript_to_messages (self->transcript, FALSE)));

  /* The caller's tools first, then the session's own. */
  for (guint i = 0; caller_tools && i < json_array_get_length (caller_tools); i++)
    {
      JsonNode *tool = json_array_get_element (caller_tools, i);

      json_array_add_element (tools, _agui_json_node_copy_deep (tool));
      if (JSON_NODE_HOLDS_OBJECT (tool))
        g_hash_table_add (declared,
                          (gpointer) json_object_get_string_member_with_default (json_node_get_object (tool), "name", ""));
    }
  if (self->tools != NULL)
    {
      g_autoptr(JsonArray) own = agui_tool_registry_to_json (self->tools);

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
  if (exchange->a2ui_action != NULL && exchange->runs == 0)
    add_a2ui_action (input, exchange->a2ui_action);

  if (exchange->kind == EXCHANGE_RESUME && exchange->runs == 0)
    json_object_set_member (input, "resume", copy_array (exchange->answers));

  return json_node_init_object (json_node_alloc (), input);
}

/* Frontend tools */

typedef struct
{
  GTask        *task;
  FrontendCall *call;
} ToolExecution;

static void maybe_finish_run (GTask *task);

static void
answer_call (AguiAgentSession *self,
             FrontendCall     *call,
             const char       *content,
             const char       *error)
{
  g_autofree char *message_id = g_uuid_string_random ();
  Exchange *exchange = g_task_get_task_data (self->current);
  AguiEvent *event;

  call->answered = TRUE;
  event = _agui_reducer_add_tool_result (self->reducer, message_id, call->id, content, error);
  g_ptr_array_add (exchange->turn_events, event);
}

static void
on_tool_executed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  ToolExecution *execution = user_data;
  g_autoptr(GTask) task = execution->task;
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  answer = agui_tool_execute_finish (AGUI_TOOL (object), result, &error);

  /* A tool stopped mid-way still answers: with its failure, so the
   * agent's history never holds a call without an answer. */
  if (answer == NULL)
    {
      g_autofree char *content = g_strdup_printf ("Tool execution failed: %s", error->message);
      AguiToolCallPart *part = agui_transcript_lookup_tool_call (self->transcript, execution->call->id);

      /* A tool that asks the person first fails with PERMISSION_DENIED
       * when they say no: that is their answer, not the tool failing. */
      if (part != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
        _agui_tool_call_part_set_answer (part, AGUI_ANSWER_DECLINED, NULL, NULL);

      answer_call (self, execution->call, content, error->message);
    }
  else
    {
      answer_call (self, execution->call, answer, NULL);
    }

  g_free (execution);
  exchange->in_flight--;
  maybe_finish_run (task);
}

static void
run_frontend_call (GTask        *task,
                   FrontendCall *call)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  AguiTool *tool = agui_tool_registry_lookup (self->tools, call->name);
  AguiToolCallPart *part = agui_transcript_lookup_tool_call (self->transcript, call->id);
  ToolExecution *execution;

  exchange->called_tools = TRUE;

  if (g_cancellable_is_cancelled (exchange->cancellable))
    {
      answer_call (self, call, "Tool was not run: the run was cancelled before it started.",
                   "cancelled before it ran");
      return;
    }

  execution = g_new0 (ToolExecution, 1);
  execution->task = g_object_ref (task);
  execution->call = call;
  exchange->in_flight++;

  agui_tool_execute_async (tool,
                           part ? agui_tool_call_part_get_parsed_arguments (part) : NULL,
                           exchange->cancellable,
                           on_tool_executed, execution);
}

/* Sees every event after verification and folding: the tool runner. */
static void
on_event_applied (AguiEvent *event,
                  gpointer   user_data)
{
  GTask *task = user_data;
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  const char *id = agui_event_get_tool_call_id (event);
  FrontendCall *call;

  g_ptr_array_add (exchange->turn_events, agui_event_ref (event));

  if (self->tools == NULL || id == NULL)
    return;

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_TOOL_CALL_START:
      if (agui_tool_registry_lookup (self->tools, agui_event_get_string (event, "toolCallName")) &&
          !g_hash_table_contains (exchange->calls, id))
        {
          call = g_new0 (FrontendCall, 1);
          call->id = g_strdup (id);
          call->name = g_strdup (agui_event_get_string (event, "toolCallName"));
          g_hash_table_insert (exchange->calls, call->id, call);
        }
      break;

    case AGUI_EVENT_TOOL_CALL_END:
      call = g_hash_table_lookup (exchange->calls, id);
      if (call != NULL && !call->ended)
        {
          call->ended = TRUE;
          run_frontend_call (task, call);
        }
      break;

    case AGUI_EVENT_TOOL_CALL_RESULT:
      /* The agent answered it itself after all. */
      call = g_hash_table_lookup (exchange->calls, id);
      if (call != NULL && !call->ended)
        call->answered = TRUE;
      break;

    default:
      break;
    }
}

/* The run */

static void
maybe_finish_run (GTask *task)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  AguiRunState *state;
  GHashTableIter iter;
  FrontendCall *call;

  if (!exchange->stream_done || exchange->in_flight > 0)
    return;

  /* Calls whose arguments never finished streaming never ran; say so. */
  g_hash_table_iter_init (&iter, exchange->calls);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &call))
    if (!call->answered && !call->ended)
      answer_call (self, call, "Tool was not run: the run ended before its arguments were complete.",
                   "not run");

  g_clear_pointer (&exchange->pipeline, _agui_pipeline_free);
  g_clear_pointer (&exchange->calls, g_hash_table_unref);

  if (exchange->cancelled)
    {
      _agui_transcript_mark_attempt (self->transcript, exchange->attempt, AGUI_ATTEMPT_STOPPED);
      _agui_reducer_cancel_run (self->reducer);
      finish_exchange (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                  "The run was cancelled"));
      return;
    }

  state = agui_transcript_get_run_state (self->transcript);
  if (exchange->called_tools &&
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

  input = build_input (self, exchange, run_id);
  exchange->attempt = _agui_transcript_begin_attempt (self->transcript);
  exchange->runs++;
  exchange->stream_done = FALSE;
  exchange->called_tools = FALSE;
  exchange->pipeline = _agui_pipeline_new (self->reducer);
  exchange->calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) frontend_call_free);
  _agui_pipeline_set_callbacks (exchange->pipeline, on_event_applied, NULL, task);

  agui_transport_run_async (self->transport, input, exchange->cancellable,
                            on_run_started, g_object_ref (task));
}

static gboolean
check_answers (AguiAgentSession  *self,
               JsonArray         *answers,
               GError           **error)
{
  JsonArray *pending = agui_transcript_get_pending_interrupts (self->transcript);
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

/* The person's answer is part of the conversation: it goes on the call the
 * interrupt is bound to, before the run that delivers it, so the card
 * says "approved" while the agent works and the turn's snapshot keeps it. */
static void
record_answers (AguiAgentSession *self,
                JsonArray        *answers)
{
  JsonArray *pending = agui_transcript_get_pending_interrupts (self->transcript);
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

      if (tool_call_id == NULL || !(part = agui_transcript_lookup_tool_call (self->transcript, tool_call_id)))
        continue;

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

      _agui_tool_call_part_set_answer (part, kind, edited, text);
    }
}

static void
begin_exchange (GTask *task)
{
  AguiAgentSession *self = g_task_get_source_object (task);
  Exchange *exchange = g_task_get_task_data (task);
  JsonArray *pending = agui_transcript_get_pending_interrupts (self->transcript);
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

  if (exchange->kind == EXCHANGE_RESUME && !check_answers (self, exchange->answers, &error))
    {
      finish_exchange (task, error);
      return;
    }

  if (exchange->kind == EXCHANGE_RESUME)
    record_answers (self, exchange->answers);

  /* The turn begins: a snapshot id is reserved (none without a store). */
  exchange->started = TRUE;
  exchange->snapshot_id = self->store ? g_uuid_string_random () : g_strdup ("");
  exchange->turn_events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  if (exchange->kind == EXCHANGE_SEND)
    {
      g_autofree char *message_id = g_uuid_string_random ();
      g_autoptr(GPtrArray) events = _agui_reducer_add_user_message (self->reducer, message_id, exchange->content);

      for (guint i = 0; i < events->len; i++)
        g_ptr_array_add (exchange->turn_events, agui_event_ref (g_ptr_array_index (events, i)));
    }

  start_run (task);
}

static void
start_next (AguiAgentSession *self)
{
  g_assert (self->current == NULL);

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

static gboolean
validate_user_message (JsonObject  *message,
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

  if (!validate_user_message (message, &error))
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

/**
 * agui_agent_session_new_full:
 * @transport: how to reach the agent
 * @thread_id: (nullable): the thread, or %NULL for a new one
 * @tools: (nullable): frontend tools to run for the agent
 * @store: (nullable): where to persist turns, or %NULL for client-managed mode
 * @agent: (nullable): a label for the agent, kept with the thread
 *
 * Returns: (transfer full): a session
 */
AguiAgentSession *
agui_agent_session_new_full (AguiTransport    *transport,
                             const char       *thread_id,
                             AguiToolRegistry *tools,
                             AguiSessionStore *store,
                             const char       *agent)
{
  g_return_val_if_fail (AGUI_IS_TRANSPORT (transport), NULL);
  g_return_val_if_fail (!tools || AGUI_IS_TOOL_REGISTRY (tools), NULL);
  g_return_val_if_fail (!store || AGUI_IS_SESSION_STORE (store), NULL);

  return g_object_new (AGUI_TYPE_AGENT_SESSION,
                       "transport", transport,
                       "thread-id", thread_id,
                       "tools", tools,
                       "store", store,
                       "agent", agent,
                       NULL);
}

/**
 * agui_agent_session_restore:
 * @self: a session with a store
 * @error: return location for a #GError
 *
 * Rebuilds the thread from the store: its log is folded again, so the
 * transcript draws exactly as it did, a thread that was waiting on
 * interrupts waits again, and the next turn's snapshot chains to the last
 * one saved. Call it before the first turn.
 *
 * Returns: %TRUE on success; an unknown thread is not an error
 */
gboolean
agui_agent_session_restore (AguiAgentSession  *self,
                            GError           **error)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *status;

  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);
  g_return_val_if_fail (self->current == NULL, FALSE);

  events = agui_session_store_load_events (self->store, self->thread_id, error);
  if (events == NULL)
    return FALSE;

  snapshot = agui_session_store_get_last_snapshot (self->store, self->thread_id, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  for (guint i = 0; i < events->len; i++)
    agui_reducer_apply (self->reducer, g_ptr_array_index (events, i));

  if (snapshot == NULL)
    return TRUE;

  /* What the log cannot say: what the person answered, which calls got
   * no result... */
  if (json_object_has_member (snapshot, "messages") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (snapshot, "messages")))
    _agui_transcript_restore_local_state (self->transcript, json_object_get_array_member (snapshot, "messages"));

  /* ...and how the last turn ended if not by an event. */
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

  g_free (self->last_snapshot_id);
  self->last_snapshot_id = g_strdup (json_object_get_string_member_with_default (snapshot, "id", NULL));
  self->turn_index = (guint) json_object_get_int_member_with_default (snapshot, "turnIndex", 0) + 1;
  /* A damaged latest snapshot is skipped on reading; the next turn must
   * still not reuse its index. */
  self->turn_index = MAX (self->turn_index,
                          (guint) MAX (0, agui_session_store_get_turn_count (self->store, self->thread_id, NULL)));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_SNAPSHOT_ID]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TURN_INDEX]);

  return TRUE;
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

  return self->last_snapshot_id;
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

  return self->turn_index;
}

/**
 * agui_agent_session_get_store_error:
 * @self: a session
 *
 * Returns: (nullable): why the last turn could not be saved
 */
const char *
agui_agent_session_get_store_error (AguiAgentSession *self)
{
  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (self), NULL);

  return self->store_error;
}

static void
on_retry_saved (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiAgentSession *self = g_task_get_source_object (task);
  TurnSave *save = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      set_store_error (self, error->message);
      g_task_return_error (task, error);
      return;
    }

  /* A turn that saved meanwhile carried these events and this index. */
  if (self->failed_save != NULL && g_strcmp0 (self->failed_save->snapshot_id, save->snapshot_id) == 0)
    turn_saved (self, save);
  g_task_return_boolean (task, TRUE);
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
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) save_task = NULL;

  g_return_if_fail (AGUI_IS_AGENT_SESSION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_agent_session_retry_save_async);

  if (self->failed_save == NULL || self->store == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  save_task = g_task_new (self->store, cancellable, on_retry_saved, g_steal_pointer (&task));
  g_task_set_source_tag (save_task, agui_agent_session_retry_save_async);
  g_task_set_task_data (save_task, turn_save_copy (self->failed_save), (GDestroyNotify) turn_save_free);
  g_task_run_in_thread (save_task, save_turn_in_thread);
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

  return g_task_propagate_boolean (G_TASK (result), error);
}
