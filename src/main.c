/* main.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "agui-allocator-private.h"
#include "tandem-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TandemApplication) app = NULL;

  _agui_allocator_merge_as_freed ();
  setlocale (LC_ALL, "");
  /* Run from the build tree, the translations are not installed yet. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("TANDEM_LOCALEDIR") ? g_getenv ("TANDEM_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = tandem_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
