/* tandem-bench.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `tandem-cli bench fold FILE [--only new|reference]` */
int tandem_bench_command       (int    argc,
                                char **argv);
/* `tandem-cli bench state [COUNT]` */
int tandem_bench_state_command (int    argc,
                                char **argv);

G_END_DECLS
