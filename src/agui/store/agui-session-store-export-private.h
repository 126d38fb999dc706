/* agui-session-store-export-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What agui_session_store_export_json() writes and an import reads */
#define EXPORT_FORMAT "tandem-thread"
#define EXPORT_VERSION 1

G_END_DECLS
