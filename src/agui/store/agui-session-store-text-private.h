/* agui-session-store-text-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* @text folded for a comparison that ignores case in any script */
char *_agui_session_store_fold_text           (const char *text);
/* What a search may look for in a message's JSON before it reads the
 * message: the text itself, unless printing it as JSON would escape it;
 * else "", which every message has. */
const char *_agui_session_store_raw_needle    (const char *search);
/* What the search looks at: every string under a "content" or "text"
 * member of @messages */
char *_agui_session_store_search_text_for     (const AguiJsonValue *messages);
/* agui_text_matches (haystack, needle) and agui_message_text (json), for
 * the store's queries. Returns an SQLite result code. */
int   _agui_session_store_add_text_functions  (sqlite3    *db);

G_END_DECLS
