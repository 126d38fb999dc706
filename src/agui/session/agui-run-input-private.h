/* agui-run-input-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-input-messages-private.h"
#include "agui-run-parameters.h"
#include "agui-tool-registry.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

JsonNode *_agui_run_input_build              (const char         *thread_id,
                                              const char         *run_id,
                                              AguiTranscript     *transcript,
                                              AguiInputMessages  *kept,
                                              AguiToolRegistry   *own_tools,
                                              AguiRunParameters  *parameters,
                                              gboolean            first_run,
                                              JsonObject         *a2ui_action,
                                              JsonArray          *resume,
                                              const char         *parent_run_id,
                                              char              **text);
gboolean  _agui_run_input_check_user_message (JsonObject         *message,
                                              GError            **error);
gboolean  _agui_run_input_check_answers      (AguiTranscript     *transcript,
                                              JsonArray          *answers,
                                              GError            **error);
void      _agui_run_input_record_answers     (AguiTranscript     *transcript,
                                              JsonArray          *answers);

G_END_DECLS
