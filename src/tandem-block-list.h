/* tandem-block-list.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agui.h"
#include "tandem-block.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_BLOCK_LIST (tandem_block_list_get_type ())
G_DECLARE_FINAL_TYPE (TandemBlockList, tandem_block_list, TANDEM, BLOCK_LIST, GObject)

TandemBlockList *tandem_block_list_new            (AguiTranscript  *transcript);
AguiTranscript  *tandem_block_list_get_transcript (TandemBlockList *self);
void             tandem_block_list_set_session    (TandemBlockList  *self,
                                                   AguiAgentSession *session);
void             tandem_block_list_take_all       (TandemBlockList *self);
guint            tandem_block_list_find_message   (TandemBlockList *self,
                                                   AguiSpeakerTurn *message);
void             tandem_block_list_set_attempt_collapsed (TandemBlockList *self,
                                                          TandemBlock     *end,
                                                          gboolean         collapsed);

G_END_DECLS
