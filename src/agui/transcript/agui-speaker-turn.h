/* agui-speaker-turn.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agui-part.h"

G_BEGIN_DECLS

#define AGUI_TYPE_SPEAKER_TURN (agui_speaker_turn_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiSpeakerTurn, agui_speaker_turn, AGUI, SPEAKER_TURN, GObject)

AGUI_AVAILABLE_IN_ALL
const char *agui_speaker_turn_get_id         (AguiSpeakerTurn *self);
AGUI_AVAILABLE_IN_ALL
AguiRole    agui_speaker_turn_get_role       (AguiSpeakerTurn *self);
AGUI_AVAILABLE_IN_ALL
const char *agui_speaker_turn_get_name       (AguiSpeakerTurn *self);
AGUI_AVAILABLE_IN_ALL
GListModel *agui_speaker_turn_get_parts      (AguiSpeakerTurn *self);
AGUI_AVAILABLE_IN_ALL
char       *agui_speaker_turn_dup_text       (AguiSpeakerTurn *self);

G_END_DECLS
