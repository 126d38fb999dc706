/* tandem-tool-card.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_TOOL_CARD (tandem_tool_card_get_type ())
G_DECLARE_FINAL_TYPE (TandemToolCard, tandem_tool_card, TANDEM, TOOL_CARD, GtkWidget)

GtkWidget        *tandem_tool_card_new             (AguiToolCallPart *part);
AguiToolCallPart *tandem_tool_card_get_part        (TandemToolCard   *self);
void              tandem_tool_card_set_part        (TandemToolCard   *self,
                                                    AguiToolCallPart *part);
const char       *tandem_tool_card_get_status_text (TandemToolCard   *self);
const char       *tandem_tool_card_get_arguments_text (TandemToolCard *self);
const char       *tandem_tool_card_get_result_text (TandemToolCard   *self);
const char       *tandem_tool_card_get_answer_text (TandemToolCard   *self);
const char       *tandem_tool_card_get_original_arguments_text (TandemToolCard *self);

char             *tandem_tool_card_dup_answer_text (AguiToolCallPart *part);
char             *tandem_tool_card_dup_text        (AguiToolCallPart *part);

G_END_DECLS
