/* tandem-json-diff.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Compares @expected with @actual structurally (member order ignored,
 * 1 == 1.0) and appends one line per difference to @diff, each starting
 * with @path. Strings of the form "<minted-N>" in @expected match any
 * string, consistently: the same N is always the same actual string and
 * two Ns are two strings (@minted keeps the mapping; may be NULL).
 * Returns TRUE when they are equal. */
gboolean tandem_json_diff (const char *path,
                           JsonNode   *expected,
                           JsonNode   *actual,
                           GHashTable *minted,
                           GString    *diff);

G_END_DECLS
