/* agui-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-part.h"

G_BEGIN_DECLS

void _agui_part_set_message_id (AguiPart   *self,
                                const char *message_id);
void _agui_part_set_complete   (AguiPart   *self,
                                gboolean    complete);
void _agui_part_set_attempt    (AguiPart    *self,
                                AguiAttempt  attempt,
                                gboolean     attempt_end);
/* @notes: (nullable): an array of the compact tree, copied */
void _agui_part_set_notes      (AguiPart            *self,
                                const AguiJsonValue *notes);

G_END_DECLS
