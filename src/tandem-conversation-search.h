/* tandem-conversation-search.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_CONVERSATION_SEARCH (tandem_conversation_search_get_type ())
G_DECLARE_FINAL_TYPE (TandemConversationSearch, tandem_conversation_search, TANDEM, CONVERSATION_SEARCH, GtkWidget)

GtkWidget  *tandem_conversation_search_new               (void);
void        tandem_conversation_search_set_view          (TandemConversationSearch *self,
                                                          GtkListView              *view);
void        tandem_conversation_search_set_blocks        (TandemConversationSearch *self,
                                                          GListModel               *blocks);
void        tandem_conversation_search_open              (TandemConversationSearch *self);
void        tandem_conversation_search_close             (TandemConversationSearch *self);
gboolean    tandem_conversation_search_get_active        (TandemConversationSearch *self);
void        tandem_conversation_search_set_query         (TandemConversationSearch *self,
                                                          const char               *query);
guint       tandem_conversation_search_get_n_matches     (TandemConversationSearch *self);
gboolean    tandem_conversation_search_get_counting      (TandemConversationSearch *self);
int         tandem_conversation_search_get_current       (TandemConversationSearch *self);
guint       tandem_conversation_search_get_current_block (TandemConversationSearch *self);
void        tandem_conversation_search_next              (TandemConversationSearch *self);
void        tandem_conversation_search_previous          (TandemConversationSearch *self);
const char *tandem_conversation_search_get_status        (TandemConversationSearch *self);
guint       tandem_conversation_search_count             (const char               *text,
                                                          gsize                     length,
                                                          const char               *query,
                                                          GArray                   *offsets);

G_END_DECLS
