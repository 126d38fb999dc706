/* agui-agent-session.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-run-parameters.h"
#include "agui-run-state.h"
#include "agui-session-store.h"
#include "agui-tool-registry.h"
#include "agui-transcript.h"
#include "agui-transport.h"

G_BEGIN_DECLS

#define AGUI_TYPE_AGENT_SESSION (agui_agent_session_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiAgentSession, agui_agent_session, AGUI, AGENT_SESSION, GObject)

AGUI_AVAILABLE_IN_ALL
AguiAgentSession *agui_agent_session_new                    (AguiTransport        *transport);
AGUI_AVAILABLE_IN_ALL
const char       *agui_agent_session_get_thread_id          (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
AguiTransport    *agui_agent_session_get_transport          (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
AguiTranscript   *agui_agent_session_get_transcript         (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
AguiToolRegistry *agui_agent_session_get_tools              (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_get_run_state          (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
GListModel       *agui_agent_session_get_pending_interrupts (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_agent_session_get_busy               (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
guint64           agui_agent_session_get_max_state_size     (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_set_max_state_size     (AguiAgentSession     *self,
                                                             guint64               max_size);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_send_async             (AguiAgentSession     *self,
                                                             const char           *text,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_send_finish            (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_run_async              (AguiAgentSession     *self,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_run_finish             (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_send_a2ui_action_async  (AguiAgentSession     *self,
                                                             JsonObject           *user_action,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_send_a2ui_action_finish (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_resume_async           (AguiAgentSession     *self,
                                                             JsonArray            *answers,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_resume_finish          (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_cancel                 (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_restore_async          (AguiAgentSession     *self,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_agent_session_restore_finish         (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
AguiSessionStore *agui_agent_session_get_store              (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_agent_session_get_last_snapshot_id   (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
guint             agui_agent_session_get_turn_index         (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
const GError     *agui_agent_session_get_store_error        (AguiAgentSession     *self);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_retry_save_async       (AguiAgentSession     *self,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_agent_session_retry_save_finish      (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_send_message_async     (AguiAgentSession     *self,
                                                             JsonObject           *message,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_send_message_finish    (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_regenerate_async       (AguiAgentSession     *self,
                                                             const char           *message_id,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_regenerate_finish      (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
void              agui_agent_session_edit_async             (AguiAgentSession     *self,
                                                             const char           *message_id,
                                                             const char           *text,
                                                             AguiRunParameters    *parameters,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiRunState     *agui_agent_session_edit_finish            (AguiAgentSession     *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_agent_session_choose_branch          (AguiAgentSession     *self,
                                                             const char           *message_id,
                                                             guint                 index,
                                                             GError              **error);

G_END_DECLS
