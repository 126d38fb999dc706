/* tandem-cli-openai.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-cli-send.h"

G_BEGIN_DECLS

AguiTransport *tandem_cli_openai_transport_new (const char                       *base_url,
                                                const char                       *model,
                                                const char                       *system_prompt,
                                                double                            temperature,
                                                const TandemCliTransportOptions  *options,
                                                GError                          **error);
int            tandem_cli_models               (int                               argc,
                                                char                            **argv);

G_END_DECLS
