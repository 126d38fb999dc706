/* tandem-conversation-io.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agui.h"

G_BEGIN_DECLS

/**
 * TandemExportFormat:
 * @TANDEM_EXPORT_MARKDOWN: the conversation as Markdown, as `tandem-cli show --markdown`
 * @TANDEM_EXPORT_JSON: Tandem's JSON export, as `tandem-cli show --export`
 *
 * What an export writes.
 */
typedef enum
{
  TANDEM_EXPORT_MARKDOWN,
  TANDEM_EXPORT_JSON,
} TandemExportFormat;

/**
 * TandemConversationProgressFunc:
 * @fraction: the share done, from 0 to 1, or -1 when it is not known
 * @user_data: the data given with the function
 *
 * Said on the main thread while an import or export runs.
 */
typedef void (*TandemConversationProgressFunc) (double   fraction,
                                                gpointer user_data);

void      tandem_conversation_export_async  (AguiSessionStore     *store,
                                             const char           *thread_id,
                                             TandemExportFormat    format,
                                             GFile                *file,
                                             TandemConversationProgressFunc progress,
                                             gpointer              progress_data,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
gboolean  tandem_conversation_export_finish (GAsyncResult         *result,
                                             GError              **error);
void      tandem_conversation_import_async  (AguiSessionStore     *store,
                                             GFile                *file,
                                             TandemConversationProgressFunc progress,
                                             gpointer              progress_data,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
char     *tandem_conversation_import_finish (GAsyncResult         *result,
                                             GError              **error);
gboolean  tandem_conversation_is_export     (GFile                *file);

G_END_DECLS
