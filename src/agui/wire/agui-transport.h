/* agui-transport.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agui-event-stream.h"

G_BEGIN_DECLS

#define AGUI_TYPE_TRANSPORT (agui_transport_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AguiTransport, agui_transport, AGUI, TRANSPORT, GObject)

struct _AguiTransportInterface
{
  GTypeInterface parent_iface;

  void             (*run_async)  (AguiTransport        *self,
                                  JsonNode             *input,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
  AguiEventStream *(*run_finish) (AguiTransport        *self,
                                  GAsyncResult         *result,
                                  GError              **error);
};

AGUI_AVAILABLE_IN_ALL
void             agui_transport_run_async  (AguiTransport        *self,
                                            JsonNode             *input,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiEventStream *agui_transport_run_finish (AguiTransport        *self,
                                            GAsyncResult         *result,
                                            GError              **error);

G_END_DECLS
