/* tandem-approval-notice.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_APPROVAL_NOTICE (tandem_approval_notice_get_type ())
G_DECLARE_FINAL_TYPE (TandemApprovalNotice, tandem_approval_notice, TANDEM, APPROVAL_NOTICE, GtkWidget)

GtkWidget  *tandem_approval_notice_new           (void);
void        tandem_approval_notice_set_thread    (TandemApprovalNotice *self,
                                                  const char           *thread_id,
                                                  const char           *title);
const char *tandem_approval_notice_get_thread_id (TandemApprovalNotice *self);
const char *tandem_approval_notice_get_text      (TandemApprovalNotice *self);
GtkWidget  *tandem_approval_notice_get_button    (TandemApprovalNotice *self);

G_END_DECLS
