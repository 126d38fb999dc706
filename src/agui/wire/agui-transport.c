/* agui-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-transport-private.h"

/**
 * AguiTransport:
 *
 * The one asynchronous seam of libagui: hand it a `RunAgentInput` and it
 * starts a run, yielding an [class@Agui.EventStream].
 *
 * Failing to start the run (the agent cannot be reached, it answered with
 * an HTTP error, the configuration is wrong) is an error of
 * [method@Agui.Transport.run_finish]. Failing once the run has started is
 * an error item on the stream. The two read differently to a person: "the
 * agent is unreachable" is not "the agent stopped mid-answer".
 *
 * Everything above a transport (parsing, verification, the reducer) is
 * synchronous, so an in-process agent, a recording or an HTTP endpoint
 * are all just transports.
 */

G_DEFINE_INTERFACE (AguiTransport, agui_transport, G_TYPE_OBJECT)

static void
agui_transport_default_init (AguiTransportInterface *iface)
{
}

/**
 * agui_transport_run_async:
 * @self: a transport
 * @input: the `RunAgentInput` as a JSON object
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the run has started, or failed to start
 * @user_data: data for @callback
 *
 * Starts a run.
 */
void
agui_transport_run_async (AguiTransport       *self,
                          JsonNode            *input,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_TRANSPORT (self));
  g_return_if_fail (input != NULL && JSON_NODE_HOLDS_OBJECT (input));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  AGUI_TRANSPORT_GET_IFACE (self)->run_async (self, input, cancellable, callback, user_data);
}

/**
 * agui_transport_run_finish:
 * @self: a transport
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the run's events, or %NULL if the
 *   run could not be started
 */
AguiEventStream *
agui_transport_run_finish (AguiTransport  *self,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (AGUI_IS_TRANSPORT (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AGUI_TRANSPORT_GET_IFACE (self)->run_finish (self, result, error);
}

G_DEFINE_INTERFACE (AguiJsonBodyTransport, _agui_json_body_transport, AGUI_TYPE_TRANSPORT)

static void
_agui_json_body_transport_default_init (AguiJsonBodyTransportInterface *iface)
{
}

/* Starts a run as agui_transport_run_async() does; a transport that
 * sends JSON sends @body, the others never see it. @body: (nullable):
 * @input's JSON text, or %NULL to have the transport print @input. */
void
_agui_transport_run_body_async (AguiTransport       *self,
                                JsonNode            *input,
                                GBytes              *body,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_TRANSPORT (self));
  g_return_if_fail (input != NULL && JSON_NODE_HOLDS_OBJECT (input));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (body != NULL && AGUI_IS_JSON_BODY_TRANSPORT (self))
    AGUI_JSON_BODY_TRANSPORT_GET_IFACE (self)->run_body_async (AGUI_JSON_BODY_TRANSPORT (self), input, body,
                                                               cancellable, callback, user_data);
  else
    agui_transport_run_async (self, input, cancellable, callback, user_data);
}
