/* agui-input-messages-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-transcript.h"

G_BEGIN_DECLS

typedef struct _AguiInputMessages AguiInputMessages;

AguiInputMessages *_agui_input_messages_new    (void);
void               _agui_input_messages_free   (AguiInputMessages *self);
gboolean           _agui_input_messages_update (AguiInputMessages *self,
                                                AguiTranscript    *transcript,
                                                gint64             budget_us);
JsonArray         *_agui_input_messages_build  (AguiInputMessages *self,
                                                AguiTranscript    *transcript);
void               _agui_input_messages_print  (AguiInputMessages *self,
                                                GString           *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiInputMessages, _agui_input_messages_free)

G_END_DECLS
