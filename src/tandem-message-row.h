/* tandem-message-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_MESSAGE_ROW (tandem_message_row_get_type ())
G_DECLARE_FINAL_TYPE (TandemMessageRow, tandem_message_row, TANDEM, MESSAGE_ROW, GtkWidget)

GtkWidget   *tandem_message_row_new         (void);
AguiSpeakerTurn *tandem_message_row_get_message (TandemMessageRow *self);
void         tandem_message_row_set_message (TandemMessageRow *self,
                                             AguiSpeakerTurn  *message);
guint        tandem_message_row_get_n_parts (TandemMessageRow *self);

GtkWidget   *tandem_part_widget_new         (AguiRole          role,
                                             AguiPart         *part,
                                             AguiAgentSession *session);
char        *tandem_part_dup_text           (AguiRole          role,
                                             AguiPart         *part);

G_END_DECLS
