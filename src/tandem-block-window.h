/* tandem-block-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_BLOCK_WINDOW (tandem_block_window_get_type ())
G_DECLARE_FINAL_TYPE (TandemBlockWindow, tandem_block_window, TANDEM, BLOCK_WINDOW, GObject)

TandemBlockWindow *tandem_block_window_new          (GListModel        *source,
                                                     guint              tail);
GListModel        *tandem_block_window_get_source   (TandemBlockWindow *self);
guint              tandem_block_window_get_offset   (TandemBlockWindow *self);
guint              tandem_block_window_reveal       (TandemBlockWindow *self,
                                                     guint              count);
void               tandem_block_window_reveal_all   (TandemBlockWindow *self);
guint              tandem_block_window_to_window    (TandemBlockWindow *self,
                                                     guint              position);

G_END_DECLS
