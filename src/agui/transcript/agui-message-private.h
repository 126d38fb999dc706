/* agui-message-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-message.h"

G_BEGIN_DECLS

AguiMessage *_agui_message_new          (const char  *id,
                                         AguiRole     role,
                                         const char  *name);
void         _agui_message_append_part  (AguiMessage *self,
                                         AguiPart    *part);
void         _agui_message_remove_part  (AguiMessage *self,
                                         AguiPart    *part);
void         _agui_message_set_name     (AguiMessage *self,
                                         const char  *name);

G_END_DECLS
