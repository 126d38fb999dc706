/* agui-replay-transport.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-transport.h"

G_BEGIN_DECLS

#define AGUI_TYPE_REPLAY_TRANSPORT (agui_replay_transport_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiReplayTransport, agui_replay_transport, AGUI, REPLAY_TRANSPORT, GObject)

AGUI_AVAILABLE_IN_ALL
AguiReplayTransport *agui_replay_transport_new           (void);
AGUI_AVAILABLE_IN_ALL
void                 agui_replay_transport_add_run       (AguiReplayTransport  *self,
                                                          GPtrArray            *events);
AGUI_AVAILABLE_IN_ALL
gboolean             agui_replay_transport_add_run_json  (AguiReplayTransport  *self,
                                                          const char           *events_json,
                                                          GError              **error);
AGUI_AVAILABLE_IN_ALL
guint                agui_replay_transport_get_remaining (AguiReplayTransport  *self);
AGUI_AVAILABLE_IN_ALL
guint                agui_replay_transport_get_n_requests (AguiReplayTransport *self);
AGUI_AVAILABLE_IN_ALL
JsonNode            *agui_replay_transport_get_request   (AguiReplayTransport  *self,
                                                          guint                 index);

G_END_DECLS
