/* agui-transport-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-transport.h"

G_BEGIN_DECLS

/* A transport that sends the RunAgentInput as JSON text. The session
 * has that text already (made from the kept messages), so it hands it
 * over with the input instead of having the transport print it again.
 * Not in the public API: a transport of a binding or an application
 * implements AguiTransport alone and prints the input itself. */
#define AGUI_TYPE_JSON_BODY_TRANSPORT (_agui_json_body_transport_get_type ())
G_DECLARE_INTERFACE (AguiJsonBodyTransport, _agui_json_body_transport, AGUI, JSON_BODY_TRANSPORT, AguiTransport)

struct _AguiJsonBodyTransportInterface
{
  GTypeInterface parent_iface;

  /* @body is @input as json_to_string (input, FALSE) prints it; the
   * result is read with agui_transport_run_finish() */
  void (*run_body_async) (AguiJsonBodyTransport *self,
                          JsonNode              *input,
                          GBytes                *body,
                          GCancellable          *cancellable,
                          GAsyncReadyCallback    callback,
                          gpointer               user_data);
};

void _agui_transport_run_body_async (AguiTransport       *self,
                                     JsonNode            *input,
                                     GBytes              *body,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);

G_END_DECLS
