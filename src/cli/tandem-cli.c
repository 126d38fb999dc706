/* tandem-cli.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "agui.h"

int
main (int   argc,
      char *argv[])
{
  g_printerr ("usage: tandem-cli COMMAND ...\n");
  return 2;
}
