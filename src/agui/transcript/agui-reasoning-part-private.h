/* agui-reasoning-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-reasoning-part.h"

G_BEGIN_DECLS

AguiReasoningPart *_agui_reasoning_part_new                 (const char        *message_id,
                                                             const char        *text);
void               _agui_reasoning_part_append              (AguiReasoningPart *self,
                                                             const char        *delta);
void               _agui_reasoning_part_set_encrypted_value (AguiReasoningPart *self,
                                                             const char        *value);

G_END_DECLS
