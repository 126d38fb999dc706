/* agui-media-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-media-part.h"

G_BEGIN_DECLS

AguiMediaPart *_agui_media_part_new (const char *message_id,
                                     JsonObject *content_part);

G_END_DECLS
