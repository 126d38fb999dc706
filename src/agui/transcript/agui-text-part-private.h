/* agui-text-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-text-part.h"

G_BEGIN_DECLS

AguiTextPart *_agui_text_part_new        (const char   *message_id,
                                          const char   *text);
void          _agui_text_part_append     (AguiTextPart *self,
                                          const char   *delta);
void          _agui_text_part_set_text   (AguiTextPart *self,
                                          const char   *text);
GString      *_agui_text_part_get_buffer (AguiTextPart *self);

G_END_DECLS
