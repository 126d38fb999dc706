/* agui-tool-call-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-tool-call-part.h"

G_BEGIN_DECLS

AguiToolCallPart *_agui_tool_call_part_new                 (const char         *message_id,
                                                            const char         *tool_call_id,
                                                            const char         *tool_name);
void              _agui_tool_call_part_set_tool_name       (AguiToolCallPart   *self,
                                                            const char         *tool_name);
void              _agui_tool_call_part_append_arguments    (AguiToolCallPart   *self,
                                                            const char         *delta);
void              _agui_tool_call_part_set_arguments       (AguiToolCallPart   *self,
                                                            const char         *arguments);
void              _agui_tool_call_part_finish_arguments    (AguiToolCallPart   *self);
void              _agui_tool_call_part_set_result          (AguiToolCallPart   *self,
                                                            const char         *result,
                                                            const char         *error);
/* The same with @result lent, not copied: its owner (a tool message's
 * record, see _agui_record_lend_result ()) keeps it as it is, and the
 * call alive, until it takes it back */
void              _agui_tool_call_part_lend_result         (AguiToolCallPart   *self,
                                                            const char         *result,
                                                            const char         *error);
/* Copies the result if it is still @lent, before @lent changes or goes */
void              _agui_tool_call_part_take_back_result    (AguiToolCallPart   *self,
                                                            const char         *lent);
void              _agui_tool_call_part_set_awaiting_approval (AguiToolCallPart *self,
                                                              gboolean          awaiting);
void              _agui_tool_call_part_set_question_expired (AguiToolCallPart *self,
                                                             gboolean          expired);
/* An object of the compact tree, or NULL */
AguiJsonValue    *_agui_tool_call_part_get_metadata        (AguiToolCallPart   *self);
/* @metadata: (nullable): an object, taken, left null */
void              _agui_tool_call_part_merge_metadata      (AguiToolCallPart   *self,
                                                            AguiJsonValue      *metadata);
const char       *_agui_tool_call_part_get_encrypted_value (AguiToolCallPart   *self);
const char       *_agui_answer_get_name                    (AguiAnswer          answer);
void              _agui_tool_call_part_set_encrypted_value (AguiToolCallPart   *self,
                                                            const char         *value);
void              _agui_tool_call_part_set_answer          (AguiToolCallPart   *self,
                                                            AguiAnswer          answer,
                                                            const char         *edited_arguments,
                                                            const char         *answer_text);
void              _agui_tool_call_part_set_no_result       (AguiToolCallPart   *self,
                                                            gboolean            no_result);
gboolean          _agui_tool_call_part_get_has_result      (AguiToolCallPart   *self);
gboolean          _agui_tool_call_part_get_awaiting_approval (AguiToolCallPart *self);
/* @local: NULL only to ask whether there is any */
gboolean          _agui_tool_call_part_get_local_state     (AguiToolCallPart   *self,
                                                            AguiJsonValue      *local);
/* @local: what _agui_tool_call_part_get_local_state () gave, an object */
void              _agui_tool_call_part_restore_local_state (AguiToolCallPart   *self,
                                                            const AguiJsonValue *local);
void              _agui_tool_call_part_copy_local_state    (AguiToolCallPart   *self,
                                                            AguiToolCallPart   *source);

G_END_DECLS
