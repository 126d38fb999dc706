/* tandem-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agui.h"
#include "tandem-application.h"
#include "tandem-conversation-io.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_WINDOW (tandem_window_get_type ())
G_DECLARE_FINAL_TYPE (TandemWindow, tandem_window, TANDEM, WINDOW, AdwApplicationWindow)

TandemWindow     *tandem_window_new                 (TandemApplication *application);
AguiAgentSession *tandem_window_get_session         (TandemWindow      *self);
void              tandem_window_set_session         (TandemWindow      *self,
                                                     AguiAgentSession  *session);
void              tandem_window_new_chat            (TandemWindow      *self);
void              tandem_window_reopen_thread       (TandemWindow      *self,
                                                     const char        *thread_id);
void              tandem_window_open_thread         (TandemWindow      *self,
                                                     const char        *thread_id);
void              tandem_window_send                (TandemWindow      *self,
                                                     const char        *text);
void              tandem_window_refresh_threads     (TandemWindow      *self);
guint             tandem_window_get_n_running       (TandemWindow      *self);
gboolean          tandem_window_holds_thread        (TandemWindow      *self,
                                                     const char        *thread_id);
void              tandem_window_confirm_close       (TandemWindow      *self);
gboolean          tandem_window_get_threads_loading (TandemWindow      *self);
void              tandem_window_show_toast          (TandemWindow      *self,
                                                     const char        *title);
gboolean          tandem_window_handle_escape       (TandemWindow      *self);
gboolean          tandem_window_handle_composer_key (TandemWindow      *self,
                                                     guint              keyval,
                                                     GdkModifierType    state);

void              tandem_window_user_scrolled       (TandemWindow      *self);
void              tandem_window_export_to_file      (TandemWindow      *self,
                                                     TandemExportFormat format,
                                                     GFile             *file);
void              tandem_window_import_file         (TandemWindow      *self,
                                                     GFile             *file);
void              tandem_window_attach_file         (TandemWindow      *self,
                                                     GFile             *file);
void              tandem_window_receive_files       (TandemWindow      *self,
                                                     GSList            *files);

G_END_DECLS
