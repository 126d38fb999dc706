/* agui-media-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-media-part.h"

G_BEGIN_DECLS

/* @content_part: an element of a message's content array, an object */
AguiMediaPart *_agui_media_part_new (const char          *message_id,
                                     const AguiJsonValue *content_part);

G_END_DECLS
