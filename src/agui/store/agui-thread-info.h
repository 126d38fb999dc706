/* agui-thread-info.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <glib-object.h>

#include "agui-version-macros.h"

G_BEGIN_DECLS

/**
 * AguiThreadStatus:
 * @AGUI_THREAD_IDLE: nothing is asked of the person
 * @AGUI_THREAD_WAITING_FOR_ANSWER: the thread waits on interrupts the
 *   person has to answer
 *
 * Where a stored thread stands, as its last turn left it.
 */
typedef enum
{
  AGUI_THREAD_IDLE,
  AGUI_THREAD_WAITING_FOR_ANSWER,
} AguiThreadStatus;

#define AGUI_TYPE_THREAD_INFO (agui_thread_info_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiThreadInfo, agui_thread_info, AGUI, THREAD_INFO, GObject)

AGUI_AVAILABLE_IN_ALL
const char       *agui_thread_info_get_id       (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_thread_info_get_title    (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_thread_info_get_agent_id (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
GDateTime        *agui_thread_info_get_created  (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
GDateTime        *agui_thread_info_get_updated  (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
AguiThreadStatus  agui_thread_info_get_status   (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_thread_info_get_snippet  (AguiThreadInfo *self);
AGUI_AVAILABLE_IN_ALL
gboolean          agui_thread_info_get_pinned   (AguiThreadInfo *self);

G_END_DECLS
