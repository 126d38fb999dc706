/* tandem-a2ui-image-loader.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_A2UI_IMAGE_MAX_BYTES (8 * 1024 * 1024)
#define TANDEM_A2UI_IMAGE_MAX_SIZE  1024

void        tandem_a2ui_image_load_async  (const char           *url,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
void        tandem_a2ui_image_decode_base64_async (const char          *base64,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
GdkTexture *tandem_a2ui_image_load_finish (GAsyncResult         *result,
                                           GError              **error);

G_END_DECLS
