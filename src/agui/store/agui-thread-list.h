/* agui-thread-list.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agui-session-store.h"
#include "agui-thread-info.h"

G_BEGIN_DECLS

#define AGUI_TYPE_THREAD_LIST (agui_thread_list_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiThreadList, agui_thread_list, AGUI, THREAD_LIST, GObject)

AGUI_AVAILABLE_IN_ALL
AguiThreadList   *agui_thread_list_new         (AguiSessionStore *store);
AGUI_AVAILABLE_IN_ALL
AguiSessionStore *agui_thread_list_get_store   (AguiThreadList   *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_thread_list_get_search  (AguiThreadList   *self);
AGUI_AVAILABLE_IN_ALL
void              agui_thread_list_set_search  (AguiThreadList   *self,
                                                const char       *search);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_thread_list_is_loading  (AguiThreadList   *self);
AGUI_AVAILABLE_IN_ALL
const GError     *agui_thread_list_get_error   (AguiThreadList   *self);
AGUI_AVAILABLE_IN_ALL
AguiThreadInfo   *agui_thread_list_lookup      (AguiThreadList   *self,
                                                const char       *thread_id,
                                                guint            *position);

G_END_DECLS
