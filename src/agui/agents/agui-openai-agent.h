/* agui-openai-agent.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <libsoup/soup.h>

#include "agui-transport.h"

G_BEGIN_DECLS

/* Generous: a local server may load a large model before its first token. */
#define AGUI_OPENAI_DEFAULT_IDLE_TIMEOUT (5 * 60 * 1000)

#define AGUI_TYPE_OPENAI_AGENT (agui_openai_agent_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiOpenaiAgent, agui_openai_agent, AGUI, OPENAI_AGENT, GObject)

AGUI_AVAILABLE_IN_ALL
AguiOpenaiAgent  *agui_openai_agent_new                (const char           *base_url,
                                                        const char           *model,
                                                        GError              **error);
AGUI_AVAILABLE_IN_ALL
const char       *agui_openai_agent_get_base_url       (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_openai_agent_get_model          (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
char            **agui_openai_agent_dup_headers        (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
const char       *agui_openai_agent_get_system_prompt  (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
void              agui_openai_agent_set_system_prompt  (AguiOpenaiAgent      *self,
                                                        const char           *system_prompt);
AGUI_AVAILABLE_IN_ALL
double            agui_openai_agent_get_temperature    (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
void              agui_openai_agent_set_temperature    (AguiOpenaiAgent      *self,
                                                        double                temperature);
AGUI_AVAILABLE_IN_ALL
guint             agui_openai_agent_get_idle_timeout   (AguiOpenaiAgent      *self);
AGUI_AVAILABLE_IN_ALL
void              agui_openai_agent_list_models_async  (AguiOpenaiAgent      *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
char            **agui_openai_agent_list_models_finish (AguiOpenaiAgent      *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

G_END_DECLS
