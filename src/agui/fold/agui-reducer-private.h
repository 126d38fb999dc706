/* agui-reducer-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

#define AGUI_TYPE_REDUCER (_agui_reducer_get_type ())
G_DECLARE_FINAL_TYPE (AguiReducer, _agui_reducer, AGUI, REDUCER, GObject)

AguiReducer    *_agui_reducer_new            (AguiTranscript *transcript);
AguiTranscript *_agui_reducer_get_transcript (AguiReducer    *self);
void            _agui_reducer_apply          (AguiReducer    *self,
                                             AguiEvent      *event);
void            _agui_reducer_fail           (AguiReducer    *self,
                                             const GError   *error);
GPtrArray      *_agui_reducer_get_warnings   (AguiReducer    *self);

/* What the client itself adds to a thread, outside any agent's stream. */
GPtrArray *_agui_reducer_add_user_message (AguiReducer *self,
                                           const char  *message_id,
                                           JsonNode    *content);
AguiEvent *_agui_reducer_add_tool_result  (AguiReducer *self,
                                           const char  *message_id,
                                           const char  *tool_call_id,
                                           const char  *content,
                                           const char  *error);
void       _agui_reducer_cancel_run       (AguiReducer *self);
void       _agui_reducer_set_run_state    (AguiReducer  *self,
                                           AguiRunState *state);
/* The cap on the size of the state and of each activity's content, as
 * agui-json-doc-private.h measures it; 0 for none. */
void       _agui_reducer_set_max_state_size (AguiReducer *self,
                                             gsize        max_size);

G_END_DECLS
