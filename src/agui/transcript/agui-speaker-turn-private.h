/* agui-speaker-turn-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-speaker-turn.h"

G_BEGIN_DECLS

AguiSpeakerTurn *_agui_speaker_turn_new          (const char      *id,
                                                  AguiRole         role,
                                                  const char      *name);
void             _agui_speaker_turn_append_part  (AguiSpeakerTurn *self,
                                                  AguiPart        *part);
void             _agui_speaker_turn_remove_part  (AguiSpeakerTurn *self,
                                                  AguiPart        *part);
void             _agui_speaker_turn_set_name     (AguiSpeakerTurn *self,
                                                  const char      *name);

G_END_DECLS
