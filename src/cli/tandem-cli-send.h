/* tandem-cli-send.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agui.h"

G_BEGIN_DECLS

AguiToolRegistry *tandem_cli_tools_new     (void);
AguiTransport    *tandem_cli_transport_new (const char          *url,
                                            const char * const  *headers,
                                            GError             **error);
int               tandem_cli_send          (AguiAgentSession    *session,
                                            const char          *message,
                                            const char          *answer_mode,
                                            const char          *answers_path,
                                            gboolean             json);
int               tandem_cli_chat          (AguiAgentSession    *session);
JsonNode         *tandem_cli_transcript_json (AguiTranscript    *transcript,
                                              const GError      *failure);

G_END_DECLS
