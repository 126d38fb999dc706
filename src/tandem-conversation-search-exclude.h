/* tandem-conversation-search-exclude.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     tandem_conversation_search_exclude     (GtkWidget *widget);
gboolean tandem_conversation_search_is_excluded (GtkWidget *widget);

G_END_DECLS
