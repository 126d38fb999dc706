/* agui-session-store.h
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

#include "agui-event.h"

G_BEGIN_DECLS

/**
 * AguiSnapshotStatus:
 * @AGUI_SNAPSHOT_COMPLETED: the turn ran to its end
 * @AGUI_SNAPSHOT_FAILED: the turn failed; the snapshot carries the error
 * @AGUI_SNAPSHOT_ABORTED: the turn was cancelled
 *
 * How the turn a snapshot records ended.
 */
typedef enum
{
  AGUI_SNAPSHOT_COMPLETED,
  AGUI_SNAPSHOT_FAILED,
  AGUI_SNAPSHOT_ABORTED,
} AguiSnapshotStatus;

#define AGUI_TYPE_SESSION_STORE (agui_session_store_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiSessionStore, agui_session_store, AGUI, SESSION_STORE, GObject)

AGUI_AVAILABLE_IN_ALL
const char       *agui_snapshot_status_to_string           (AguiSnapshotStatus   status);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_snapshot_status_from_string         (const char          *name,
                                                            AguiSnapshotStatus  *status);
AGUI_AVAILABLE_IN_ALL
AguiSessionStore *agui_session_store_new                   (const char          *path,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
char             *agui_session_store_dup_default_path      (void);
AGUI_AVAILABLE_IN_ALL
const char       *agui_session_store_get_path              (AguiSessionStore    *self);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_session_store_create_thread         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            const char          *title,
                                                            const char          *agent,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_session_store_rename_thread         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            const char          *title,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_session_store_delete_thread         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonArray        *agui_session_store_list_threads          (AguiSessionStore    *self,
                                                            const char          *search,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonObject       *agui_session_store_get_thread            (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
GPtrArray        *agui_session_store_load_events           (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonObject       *agui_session_store_get_last_snapshot     (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonNode         *agui_session_store_get_last_good_state   (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
int               agui_session_store_get_turn_count        (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
GListModel       *agui_session_store_get_pending_interrupts (AguiSessionStore   *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
char             *agui_session_store_export_markdown       (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonNode         *agui_session_store_export_json           (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
char             *agui_session_store_import_json           (AguiSessionStore    *self,
                                                            JsonNode            *exported,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
char             *agui_session_store_import_stream         (AguiSessionStore    *self,
                                                            GInputStream        *stream,
                                                            GCancellable        *cancellable,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_session_store_export_to_stream      (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GOutputStream       *stream,
                                                            GCancellable        *cancellable,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_new_async             (const char          *path,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
AguiSessionStore *agui_session_store_new_finish            (GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_list_threads_async        (AguiSessionStore    *self,
                                                            const char          *search,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
JsonArray *      agui_session_store_list_threads_finish       (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_get_thread_async          (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
JsonObject *     agui_session_store_get_thread_finish         (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_rename_thread_async       (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            const char          *title,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_session_store_rename_thread_finish      (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_delete_thread_async       (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_session_store_delete_thread_finish      (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_session_store_set_thread_pinned         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            gboolean             pinned,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_set_thread_pinned_async   (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            gboolean             pinned,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_session_store_set_thread_pinned_finish  (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_get_pending_interrupts_async (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
GListModel *     agui_session_store_get_pending_interrupts_finish (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_export_json_async         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
JsonNode *       agui_session_store_export_json_finish        (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_export_markdown_async     (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
char *           agui_session_store_export_markdown_finish    (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_import_json_async         (AguiSessionStore    *self,
                                                            JsonNode            *exported,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
char *           agui_session_store_import_json_finish        (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_import_stream_async       (AguiSessionStore    *self,
                                                            GInputStream        *stream,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
char *           agui_session_store_import_stream_finish      (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
void              agui_session_store_export_to_stream_async    (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GOutputStream       *stream,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_session_store_export_to_stream_finish   (AguiSessionStore    *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
char             *agui_session_store_export_branches_markdown (AguiSessionStore *self,
                                                            const char          *thread_id,
                                                            GError             **error);
AGUI_AVAILABLE_IN_ALL
JsonArray        *agui_session_store_list_branches         (AguiSessionStore    *self,
                                                            const char          *thread_id,
                                                            GError             **error);

G_END_DECLS
