/* tandem-quit-dialog.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-quit-dialog.h"

/**
 * tandem_quit_dialog_new:
 * @parent: the window it is about
 * @n_running: how many answers are being written
 *
 * Asks before quitting stops answers still being written, in the
 * background too: responses "cancel" and "quit". Quitting keeps what
 * they wrote, marked stopped, as Stop does.
 *
 * Returns: (transfer floating): an #AdwMessageDialog, not yet presented
 */
GtkWidget *
tandem_quit_dialog_new (GtkWindow *parent,
                        guint      n_running)
{
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Stop %u Running Answer?",
                                          "Stop %u Running Answers?", n_running),
                             n_running);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, NULL));
  adw_message_dialog_set_body (dialog,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "An agent is still answering. Quitting stops it; what it wrote so far is kept.",
                                            "Agents are still answering. Quitting stops them; what they wrote so far is kept.",
                                            n_running));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "quit", _("_Quit"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "quit", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");

  return GTK_WIDGET (dialog);
}
