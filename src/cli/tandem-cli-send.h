/* tandem-cli-send.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agui.h"

G_BEGIN_DECLS

/* How `send` and `chat` reach an HTTP agent, from the command line. */
typedef struct
{
  const char * const *headers;
  int                 idle_timeout;    /* seconds; 0 for none, -1 for the library's default */
  int                 deadline;        /* seconds a whole run may take; 0 for none */
  gsize               max_frame_size;  /* bytes; 0 for the default */
  AguiHttpEncoding    encoding;
} TandemCliTransportOptions;

gboolean          tandem_cli_parse_encoding (const char        *text,
                                             AguiHttpEncoding  *encoding,
                                             GError           **error);

AguiToolRegistry *tandem_cli_tools_new     (void);
AguiTransport    *tandem_cli_transport_new (const char                       *url,
                                            const TandemCliTransportOptions  *options,
                                            GError                          **error);
gboolean          tandem_cli_parse_size    (const char                       *text,
                                            gsize                            *size,
                                            GError                          **error);
int               tandem_cli_send          (AguiAgentSession    *session,
                                            const char          *message,
                                            const char          *answer_mode,
                                            const char          *answers_path,
                                            gboolean             json);
int               tandem_cli_chat          (AguiAgentSession    *session);
JsonNode         *tandem_cli_transcript_json (AguiTranscript    *transcript,
                                              const GError      *failure);
JsonNode         *tandem_cli_transcript_run_json (AguiTranscript *transcript,
                                                  const GError   *failure);

G_END_DECLS
