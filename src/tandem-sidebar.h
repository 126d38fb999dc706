/* tandem-sidebar.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agui.h"
#include "tandem-run-registry.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_SIDEBAR (tandem_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (TandemSidebar, tandem_sidebar, TANDEM, SIDEBAR, AdwBin)

GtkWidget         *tandem_sidebar_new              (void);
AguiSessionStore  *tandem_sidebar_get_store        (TandemSidebar     *self);
void               tandem_sidebar_set_store        (TandemSidebar     *self,
                                                    AguiSessionStore  *store);
TandemRunRegistry *tandem_sidebar_get_runs         (TandemSidebar     *self);
void               tandem_sidebar_set_runs         (TandemSidebar     *self,
                                                    TandemRunRegistry *runs);
AguiAgentSession  *tandem_sidebar_get_session      (TandemSidebar     *self);
void               tandem_sidebar_set_session      (TandemSidebar     *self,
                                                    AguiAgentSession  *session);
gboolean           tandem_sidebar_get_loading      (TandemSidebar     *self);
AguiThreadInfo    *tandem_sidebar_lookup_thread    (TandemSidebar     *self,
                                                    const char        *thread_id);
void               tandem_sidebar_refresh          (TandemSidebar     *self);
void               tandem_sidebar_hide_thread      (TandemSidebar     *self,
                                                    const char        *thread_id);
gboolean           tandem_sidebar_unhide_thread    (TandemSidebar     *self,
                                                    const char        *thread_id);
char             **tandem_sidebar_take_hidden      (TandemSidebar     *self);
void               tandem_sidebar_start_search     (TandemSidebar     *self);
GtkListBox        *tandem_sidebar_get_thread_list  (TandemSidebar     *self);
GtkSearchBar      *tandem_sidebar_get_search_bar   (TandemSidebar     *self);
GtkSearchEntry    *tandem_sidebar_get_search_entry (TandemSidebar     *self);

G_END_DECLS
