/* agui-store-guard-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* How long one statement may run before it is interrupted: far beyond
 * anything a real store needs, so that only a loop a file drives ends. */
#define AGUI_STORE_GUARD_STATEMENT_LIMIT_US (30 * G_USEC_PER_SEC)

/* Per connection; lives as long as the connection it guards. */
typedef struct
{
  gint64 statement_limit_us;
  gint64 statement_started;
} AguiStoreGuard;

void     _agui_store_guard_init         (AguiStoreGuard     *guard,
                                         gint64              statement_limit_us);
gboolean _agui_store_guard_harden       (AguiStoreGuard     *guard,
                                         sqlite3            *db,
                                         GError            **error);
gboolean _agui_store_guard_check_schema (sqlite3            *db,
                                         const char * const *migrations,
                                         int                 n_migrations,
                                         int                 version,
                                         int                *sqlite_code,
                                         GError            **error);

G_END_DECLS
