/* agui-session-store-deflate-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Long JSON rows (an answer's text, a tool's result) are kept deflated,
 * as a BLOB; the rest stay text. A reader tells them apart by the
 * column's type. */
GBytes *_agui_session_store_deflate       (const char    *json,
                                           gsize          length);
char   *_agui_session_store_inflate       (const guint8  *data,
                                           gsize          size,
                                           gsize         *length,
                                           GError       **error);
/* The JSON of a column or value, text as it is or a BLOB inflated (into
 * *@inflated, which the caller frees); NULL for anything else, or with
 * @error when a BLOB does not inflate */
const char *_agui_session_store_column_json (sqlite3_stmt  *stmt,
                                             int            column,
                                             gsize         *length,
                                             char         **inflated,
                                             GError       **error);
const char *_agui_session_store_value_json  (sqlite3_value *value,
                                             gsize         *length,
                                             char         **inflated,
                                             GError       **error);

G_END_DECLS
