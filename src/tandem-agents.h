/* tandem-agents.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tandem-agent.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_AGENTS (tandem_agents_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgents, tandem_agents, TANDEM, AGENTS, GObject)

TandemAgents  *tandem_agents_new                    (GSettings            *settings);
GListModel    *tandem_agents_get_model              (TandemAgents         *self);
TandemAgent   *tandem_agents_lookup                 (TandemAgents         *self,
                                                     const char           *id);
const char    *tandem_agents_get_active_id          (TandemAgents         *self);
void           tandem_agents_set_active_id          (TandemAgents         *self,
                                                     const char           *id);
gboolean       tandem_agents_save                   (TandemAgents         *self,
                                                     TandemAgent          *agent,
                                                     GError              **error);
gboolean       tandem_agents_remove                 (TandemAgents         *self,
                                                     const char           *id,
                                                     GError              **error);
void           tandem_agents_store_token_async      (TandemAgents         *self,
                                                     const char           *id,
                                                     const char           *token,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean       tandem_agents_store_token_finish     (TandemAgents         *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void           tandem_agents_lookup_token_async     (TandemAgents         *self,
                                                     const char           *id,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
char          *tandem_agents_lookup_token_finish    (TandemAgents         *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void           tandem_agents_create_transport_async (TandemAgents         *self,
                                                     const char           *id,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
AguiTransport *tandem_agents_create_transport_finish (TandemAgents        *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
gboolean       tandem_agents_check_name             (const char           *name,
                                                     GError              **error);
gboolean       tandem_agents_check_url              (const char           *url,
                                                     GError              **error);
gboolean       tandem_agents_check_header           (const char           *name,
                                                     const char           *value,
                                                     GError              **error);

G_END_DECLS
