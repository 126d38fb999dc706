/* tandem-agent-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-transport-private.h"

#include "tandem-agent-transport.h"

/**
 * TandemAgentTransport:
 *
 * The transport of a conversation with a configured agent. A session
 * keeps its transport for as long as it lives, but the person may save
 * a new URL, header or token for the agent meanwhile: this one makes
 * each run on the transport of the agent's settings and token as they
 * are when the run starts. The transport made for the last run is kept
 * until the agent changes, so that most runs start at once.
 *
 * A run under way keeps the transport it started on: a change is never
 * felt in the middle of an answer.
 */
struct _TandemAgentTransport
{
  GObject        parent_instance;
  TandemAgents  *agents;
  char          *agent_id;
  /* NULL once the agent changed: the next run makes a new one */
  AguiTransport *current;
  guint          generation;
};

static void tandem_agent_transport_iface_init (AguiTransportInterface *iface);
static void tandem_agent_transport_json_body_iface_init (AguiJsonBodyTransportInterface *iface);

/* The session's JSON text of the input goes through to the agent's
 * transport, so that a long thread's input is not printed twice */
G_DEFINE_FINAL_TYPE_WITH_CODE (TandemAgentTransport, tandem_agent_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT, tandem_agent_transport_iface_init)
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_JSON_BODY_TRANSPORT,
                                                      tandem_agent_transport_json_body_iface_init))

typedef struct
{
  JsonNode *input;
  GBytes   *body;
  guint     generation;
} Start;

static void
start_free (Start *start)
{
  g_clear_pointer (&start->input, json_node_unref);
  g_clear_pointer (&start->body, g_bytes_unref);
  g_free (start);
}

static void
on_agent_changed_cb (TandemAgents         *agents,
                     const char           *id,
                     TandemAgentTransport *self)
{
  g_assert (TANDEM_IS_AGENT_TRANSPORT (self));

  if (g_strcmp0 (id, self->agent_id) != 0)
    return;

  g_clear_object (&self->current);
  self->generation++;
}

static void
on_run_started_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  AguiEventStream *stream;

  if (!(stream = agui_transport_run_finish (AGUI_TRANSPORT (object), result, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stream, g_object_unref);
}

static void
on_transport_created_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TandemAgentTransport *self = g_task_get_source_object (task);
  Start *start = g_task_get_task_data (task);
  g_autoptr(AguiTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  if (!(transport = tandem_agents_create_transport_finish (TANDEM_AGENTS (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                 "%s", _("The agent of this conversation was removed."));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Unless the agent changed again while the keyring was read */
  if (start->generation == self->generation)
    g_set_object (&self->current, transport);

  _agui_transport_run_body_async (transport, start->input, start->body, g_task_get_cancellable (task),
                                  on_run_started_cb, g_object_ref (task));
}

/* @body: (nullable): @input's JSON text */
static void
tandem_agent_transport_run_body_async (AguiJsonBodyTransport *transport,
                                       JsonNode              *input,
                                       GBytes                *body,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback    callback,
                                       gpointer               user_data)
{
  TandemAgentTransport *self = TANDEM_AGENT_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  Start *start;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agent_transport_run_body_async);

  if (self->current != NULL)
    {
      _agui_transport_run_body_async (self->current, input, body, cancellable,
                                      on_run_started_cb, g_steal_pointer (&task));
      return;
    }

  start = g_new0 (Start, 1);
  start->input = json_node_ref (input);
  start->body = body != NULL ? g_bytes_ref (body) : NULL;
  start->generation = self->generation;
  g_task_set_task_data (task, start, (GDestroyNotify) start_free);
  tandem_agents_create_transport_async (self->agents, self->agent_id, cancellable,
                                        on_transport_created_cb, g_steal_pointer (&task));
}

static void
tandem_agent_transport_run_async (AguiTransport       *transport,
                                  JsonNode            *input,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  tandem_agent_transport_run_body_async (AGUI_JSON_BODY_TRANSPORT (transport), input, NULL,
                                         cancellable, callback, user_data);
}

static AguiEventStream *
tandem_agent_transport_run_finish (AguiTransport  *transport,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tandem_agent_transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = tandem_agent_transport_run_async;
  iface->run_finish = tandem_agent_transport_run_finish;
}

static void
tandem_agent_transport_json_body_iface_init (AguiJsonBodyTransportInterface *iface)
{
  iface->run_body_async = tandem_agent_transport_run_body_async;
}

static void
tandem_agent_transport_dispose (GObject *object)
{
  TandemAgentTransport *self = TANDEM_AGENT_TRANSPORT (object);

  if (self->agents != NULL)
    g_signal_handlers_disconnect_by_data (self->agents, self);
  g_clear_object (&self->agents);
  g_clear_object (&self->current);

  G_OBJECT_CLASS (tandem_agent_transport_parent_class)->dispose (object);
}

static void
tandem_agent_transport_finalize (GObject *object)
{
  TandemAgentTransport *self = TANDEM_AGENT_TRANSPORT (object);

  g_clear_pointer (&self->agent_id, g_free);

  G_OBJECT_CLASS (tandem_agent_transport_parent_class)->finalize (object);
}

static void
tandem_agent_transport_class_init (TandemAgentTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_agent_transport_dispose;
  object_class->finalize = tandem_agent_transport_finalize;
}

static void
tandem_agent_transport_init (TandemAgentTransport *self)
{
}

/**
 * tandem_agent_transport_new:
 * @agents: the agents
 * @agent_id: the id of one of them
 * @current: (nullable): a transport just made for it, for the first run
 *
 * Returns: (transfer full): a transport whose runs follow the settings
 *   and token of the agent with @agent_id
 */
TandemAgentTransport *
tandem_agent_transport_new (TandemAgents  *agents,
                            const char    *agent_id,
                            AguiTransport *current)
{
  TandemAgentTransport *self;

  g_return_val_if_fail (TANDEM_IS_AGENTS (agents), NULL);
  g_return_val_if_fail (agent_id != NULL, NULL);
  g_return_val_if_fail (current == NULL || AGUI_IS_TRANSPORT (current), NULL);

  self = g_object_new (TANDEM_TYPE_AGENT_TRANSPORT, NULL);
  self->agents = g_object_ref (agents);
  self->agent_id = g_strdup (agent_id);
  g_set_object (&self->current, current);
  g_signal_connect_object (agents, "agent-changed", G_CALLBACK (on_agent_changed_cb), self, 0);

  return self;
}

/**
 * tandem_agent_transport_get_current:
 * @self: the transport
 *
 * Returns: (transfer none) (nullable): the transport the next run goes
 *   out on, or %NULL when the agent changed since the last run and the
 *   next one makes it anew
 */
AguiTransport *
tandem_agent_transport_get_current (TandemAgentTransport *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT_TRANSPORT (self), NULL);

  return self->current;
}
