/* tandem-message-actions.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tandem-block.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_MESSAGE_ACTIONS (tandem_message_actions_get_type ())
G_DECLARE_FINAL_TYPE (TandemMessageActions, tandem_message_actions, TANDEM, MESSAGE_ACTIONS, GtkWidget)

GtkWidget *tandem_message_actions_new         (TandemBlock          *block);
GtkWidget *tandem_message_actions_new_column  (TandemBlock          *block);
void       tandem_message_actions_set_block   (TandemMessageActions *self,
                                               TandemBlock          *block);
gboolean   tandem_message_actions_get_editing (TandemMessageActions *self);
void       tandem_message_actions_begin_edit  (TandemMessageActions *self);
void       tandem_message_actions_update_time (TandemMessageActions *self);

char      *tandem_message_dup_markdown        (AguiSpeakerTurn      *message);
char      *tandem_message_dup_time            (TandemBlock          *block,
                                               char                **full);

G_END_DECLS
