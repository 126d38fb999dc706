/* tandem-conform.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  TANDEM_CONFORM_PASS,
  TANDEM_CONFORM_DEVIATION,
  TANDEM_CONFORM_FAIL,
} TandemConformVerdict;

typedef struct
{
  char                 *name;
  TandemConformVerdict  verdict;
  /* One line per structural difference, each naming its field. */
  GString              *diff;
  /* Why the differences are accepted, from the deviation table. */
  char                 *deviation;
} TandemConformResult;

void        tandem_conform_result_clear    (TandemConformResult  *result);
GHashTable *tandem_conform_load_deviations (const char           *markdown,
                                            GError              **error);
gboolean    tandem_conform_run             (const char           *path,
                                            GHashTable           *deviations,
                                            TandemConformResult  *result,
                                            GError              **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TandemConformResult, tandem_conform_result_clear)

G_END_DECLS
