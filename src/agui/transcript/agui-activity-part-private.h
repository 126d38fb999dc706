/* agui-activity-part-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-activity-part.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

AguiActivityPart  *_agui_activity_part_new                  (const char       *message_id);
void               _agui_activity_part_set_activity_type    (AguiActivityPart *self,
                                                             const char       *activity_type);
void               _agui_activity_part_set_content          (AguiActivityPart *self,
                                                             JsonNode         *content);
/* Takes @content (leaving it null); NULL for none. */
void               _agui_activity_part_take_content         (AguiActivityPart *self,
                                                             AguiJsonValue    *content);
/* A json-glib tree of the content for a projection, NULL for none. */
JsonNode          *_agui_activity_part_dup_content          (AguiActivityPart *self);
/* The content's tree, borrowed, NULL for none. */
const AguiJsonValue *_agui_activity_part_peek_content       (AguiActivityPart *self);
AguiJsonValue     *_agui_activity_part_get_content_doc      (AguiActivityPart *self);
/* The content's size estimate, which the patches keep. */
gsize             *_agui_activity_part_get_content_size     (AguiActivityPart *self);
void               _agui_activity_part_content_changed      (AguiActivityPart *self);

G_END_DECLS
