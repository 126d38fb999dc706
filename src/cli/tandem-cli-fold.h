/* tandem-cli-fold.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `tandem-cli events [FILE|-]` */
int tandem_cli_events (int    argc,
                       char **argv);
/* `tandem-cli fold [FILE|-]` */
int tandem_cli_fold   (int    argc,
                       char **argv);

G_END_DECLS
