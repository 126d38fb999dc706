/* tandem-agent.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_AGENTS_DEMO_ID "demo"

/* In seconds: the library's five minutes, and a day at most. */
#define TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT (AGUI_HTTP_DEFAULT_IDLE_TIMEOUT / 1000)
#define TANDEM_AGENT_MAX_IDLE_TIMEOUT (24 * 60 * 60)

#define TANDEM_TYPE_AGENT (tandem_agent_get_type ())
G_DECLARE_FINAL_TYPE (TandemAgent, tandem_agent, TANDEM, AGENT, GObject)

TandemAgent        *tandem_agent_new         (const char          *id,
                                              const char          *name,
                                              const char          *url,
                                              const char * const  *headers);
TandemAgent        *tandem_agent_new_full    (const char          *id,
                                              const char          *name,
                                              const char          *url,
                                              const char * const  *headers,
                                              guint                idle_timeout,
                                              gsize                max_frame_size);
const char         *tandem_agent_get_id      (TandemAgent         *self);
const char         *tandem_agent_get_name    (TandemAgent         *self);
const char         *tandem_agent_get_url     (TandemAgent         *self);
const char * const *tandem_agent_get_headers (TandemAgent         *self);
gboolean            tandem_agent_is_demo     (TandemAgent         *self);
guint               tandem_agent_get_idle_timeout   (TandemAgent  *self);
gsize               tandem_agent_get_max_frame_size (TandemAgent  *self);
TandemAgent        *tandem_agent_with_encoding      (TandemAgent      *self,
                                                     AguiHttpEncoding  encoding);
AguiHttpEncoding    tandem_agent_get_encoding       (TandemAgent      *self);
TandemAgent        *tandem_agent_new_openai         (const char          *id,
                                                     const char          *name,
                                                     const char          *base_url,
                                                     const char * const  *headers,
                                                     const char          *model,
                                                     const char          *system_prompt,
                                                     double               temperature,
                                                     guint                idle_timeout);
gboolean            tandem_agent_is_openai          (TandemAgent      *self);
const char         *tandem_agent_get_model          (TandemAgent      *self);
const char         *tandem_agent_get_system_prompt  (TandemAgent      *self);
double              tandem_agent_get_temperature    (TandemAgent      *self);
AguiTransport      *tandem_agent_create_transport   (TandemAgent      *self,
                                                     const char       *token,
                                                     GError          **error);

G_END_DECLS
