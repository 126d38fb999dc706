/* tandem-attachment-tray.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One file; and all of one message, which goes out in one request and is
 * kept whole in the conversation store */
#define TANDEM_ATTACHMENT_MAX_BYTES       (8 * 1024 * 1024)
#define TANDEM_ATTACHMENT_MAX_TOTAL_BYTES (24 * 1024 * 1024)

#define TANDEM_TYPE_ATTACHMENT_TRAY (tandem_attachment_tray_get_type ())
G_DECLARE_FINAL_TYPE (TandemAttachmentTray, tandem_attachment_tray, TANDEM, ATTACHMENT_TRAY, GtkWidget)

GtkWidget *tandem_attachment_tray_new               (void);
void       tandem_attachment_tray_add_file_async    (TandemAttachmentTray  *self,
                                                     GFile                 *file,
                                                     GCancellable          *cancellable,
                                                     GAsyncReadyCallback    callback,
                                                     gpointer               user_data);
gboolean   tandem_attachment_tray_add_file_finish   (TandemAttachmentTray  *self,
                                                     GAsyncResult          *result,
                                                     GError               **error);
gboolean   tandem_attachment_tray_add_bytes         (TandemAttachmentTray  *self,
                                                     const char            *name,
                                                     const char            *mime_type,
                                                     GBytes                *bytes,
                                                     GError               **error);
guint      tandem_attachment_tray_get_n_attachments (TandemAttachmentTray  *self);
JsonArray *tandem_attachment_tray_dup_content_parts (TandemAttachmentTray  *self);
void       tandem_attachment_tray_clear             (TandemAttachmentTray  *self);

G_END_DECLS
