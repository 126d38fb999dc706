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

/* The most items a change may bring into a window at once: GTK 4.8's
 * list view keeps rows for 200 around its anchor. A window given more
 * shows the source's tail again (see tandem_block_window_new()). */
#define TANDEM_BLOCK_WINDOW_MAX_BULK 200

TandemBlockWindow *tandem_block_window_new          (GListModel        *source,
                                                     guint              tail);
GListModel        *tandem_block_window_get_source   (TandemBlockWindow *self);
guint              tandem_block_window_get_offset   (TandemBlockWindow *self);
guint              tandem_block_window_reveal       (TandemBlockWindow *self,
                                                     guint              count);
guint              tandem_block_window_reveal_after (TandemBlockWindow *self,
                                                     guint              count);
guint              tandem_block_window_drop_front   (TandemBlockWindow *self,
                                                     guint              count);
gboolean           tandem_block_window_get_shows_end (TandemBlockWindow *self);
void               tandem_block_window_show_range   (TandemBlockWindow *self,
                                                     guint              first,
                                                     guint              count);
void               tandem_block_window_show_tail    (TandemBlockWindow *self,
                                                     guint              tail);
guint              tandem_block_window_to_window    (TandemBlockWindow *self,
                                                     guint              position,
                                                     guint              margin);

G_END_DECLS
