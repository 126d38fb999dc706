/* tandem-markdown-view.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The width-chars of every wrapping label that shows an agent's text:
 * see text_label_init() for why it is not left at -1. */
#define TANDEM_MARKDOWN_LABEL_MIN_CHARS 20

#define TANDEM_TYPE_MARKDOWN_VIEW (tandem_markdown_view_get_type ())
G_DECLARE_FINAL_TYPE (TandemMarkdownView, tandem_markdown_view, TANDEM, MARKDOWN_VIEW, GtkWidget)

GtkWidget  *tandem_markdown_view_new              (void);
const char *tandem_markdown_view_get_text         (TandemMarkdownView *self);
void        tandem_markdown_view_set_text         (TandemMarkdownView *self,
                                                   const char         *text);
void        tandem_markdown_view_set_offset       (TandemMarkdownView *self,
                                                   gsize               offset);
guint       tandem_markdown_view_get_blocks_built (TandemMarkdownView *self);

G_END_DECLS
