/* agui-message.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agui-part.h"

G_BEGIN_DECLS

#define AGUI_TYPE_MESSAGE (agui_message_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiMessage, agui_message, AGUI, MESSAGE, GObject)

AGUI_AVAILABLE_IN_ALL
const char *agui_message_get_id              (AguiMessage *self);
AGUI_AVAILABLE_IN_ALL
AguiRole    agui_message_get_role            (AguiMessage *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_message_get_name            (AguiMessage *self);
AGUI_AVAILABLE_IN_ALL
GListModel *agui_message_get_parts           (AguiMessage *self);
AGUI_AVAILABLE_IN_ALL
char       *agui_message_dup_text            (AguiMessage *self);

G_END_DECLS
