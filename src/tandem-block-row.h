/* tandem-block-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tandem-block.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_BLOCK_ROW (tandem_block_row_get_type ())
G_DECLARE_FINAL_TYPE (TandemBlockRow, tandem_block_row, TANDEM, BLOCK_ROW, GtkWidget)

GtkWidget   *tandem_block_row_new       (void);
TandemBlock *tandem_block_row_get_block (TandemBlockRow *self);
void         tandem_block_row_set_block (TandemBlockRow *self,
                                         TandemBlock    *block);
void         tandem_block_row_popup_menu (TandemBlockRow *self);
void         tandem_block_row_set_actions_floor (TandemBlockRow *self,
                                                 int             floor);

G_END_DECLS
