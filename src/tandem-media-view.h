/* tandem-media-view.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_MEDIA_VIEW (tandem_media_view_get_type ())
G_DECLARE_FINAL_TYPE (TandemMediaView, tandem_media_view, TANDEM, MEDIA_VIEW, GtkWidget)

GtkWidget     *tandem_media_view_new         (AguiMediaPart   *part);
AguiMediaPart *tandem_media_view_get_part    (TandemMediaView *self);
GdkPaintable  *tandem_media_view_get_image   (TandemMediaView *self);
const char    *tandem_media_view_get_problem (TandemMediaView *self);
GtkWindow     *tandem_media_view_open        (TandemMediaView *self);
char          *tandem_media_describe_size    (gsize            bytes);
gsize          tandem_media_decoded_size     (const char      *base64);

G_END_DECLS
