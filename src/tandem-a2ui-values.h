/* tandem-a2ui-values.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agui.h"

G_BEGIN_DECLS

void tandem_a2ui_values_restore (AguiA2uiSurface  *surface,
                                 AguiAgentSession *session,
                                 const char       *message_id);
void tandem_a2ui_values_note    (AguiA2uiSurface  *surface,
                                 const char       *path,
                                 JsonNode         *value);

G_END_DECLS
