/* agui-transcript.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agui-run-state.h"
#include "agui-subagent-run.h"
#include "agui-tool-call-part.h"

G_BEGIN_DECLS

#define AGUI_TYPE_TRANSCRIPT (agui_transcript_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiTranscript, agui_transcript, AGUI, TRANSCRIPT, GObject)

AGUI_AVAILABLE_IN_ALL
AguiTranscript     *agui_transcript_new                    (void);
AGUI_AVAILABLE_IN_ALL
JsonNode           *agui_transcript_get_state              (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
JsonArray          *agui_transcript_get_last_state_delta   (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
const char         *agui_transcript_get_state_error        (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
AguiRunState       *agui_transcript_get_run_state          (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
GListModel         *agui_transcript_get_pending_interrupts (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
const char * const *agui_transcript_get_steps              (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
GListModel         *agui_transcript_get_subagents          (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
AguiToolCallPart   *agui_transcript_lookup_tool_call       (AguiTranscript  *self,
                                                            const char      *tool_call_id);
AGUI_AVAILABLE_IN_ALL
guint               agui_transcript_get_n_ag_ui_messages   (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
JsonArray          *agui_transcript_to_messages            (AguiTranscript  *self,
                                                            gboolean         include_activity);
AGUI_AVAILABLE_IN_ALL
gboolean            agui_transcript_load_messages          (AguiTranscript  *self,
                                                            JsonArray       *messages,
                                                            GError         **error);
AGUI_AVAILABLE_IN_ALL
gboolean            agui_transcript_get_branch_position    (AguiTranscript  *self,
                                                            const char      *message_id,
                                                            guint           *index,
                                                            guint           *n_branches);
AGUI_AVAILABLE_IN_ALL
gint64              agui_transcript_get_message_time       (AguiTranscript  *self,
                                                            const char      *message_id);
AGUI_AVAILABLE_IN_ALL
guint               agui_transcript_get_n_branches         (AguiTranscript  *self);
AGUI_AVAILABLE_IN_ALL
JsonArray          *agui_transcript_dup_branch_messages    (AguiTranscript  *self,
                                                            guint            index);

G_END_DECLS
