/* test-agents.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  return g_test_run ();
}
