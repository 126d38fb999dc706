/* tandem-approval-dialog.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_APPROVAL_DIALOG (tandem_approval_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TandemApprovalDialog, tandem_approval_dialog, TANDEM, APPROVAL_DIALOG, AdwMessageDialog)

TandemApprovalDialog *tandem_approval_dialog_new         (GtkWindow            *parent,
                                                          AguiTranscript       *transcript,
                                                          AguiInterrupt        *interrupt);
void                  tandem_approval_dialog_ask_async   (TandemApprovalDialog *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
JsonObject           *tandem_approval_dialog_ask_finish  (TandemApprovalDialog *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
GtkWidget            *tandem_approval_dialog_get_form    (TandemApprovalDialog *self);
gboolean              tandem_approval_dialog_get_editing (TandemApprovalDialog *self);
void                  tandem_approval_dialog_set_editing (TandemApprovalDialog *self,
                                                          gboolean              editing);
gboolean              tandem_approval_dialog_get_expired (TandemApprovalDialog *self);
void                  tandem_approval_dialog_set_position (TandemApprovalDialog *self,
                                                           guint                 position,
                                                           guint                 count);
void                  tandem_approval_dialog_set_conversation (TandemApprovalDialog *self,
                                                               const char           *title);
const char           *tandem_approval_dialog_get_position_text (TandemApprovalDialog *self);

G_END_DECLS
