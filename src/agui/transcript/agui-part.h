/* agui-part.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agui-types.h"

G_BEGIN_DECLS

#define AGUI_TYPE_PART (agui_part_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (AguiPart, agui_part, AGUI, PART, GObject)

struct _AguiPartClass
{
  GObjectClass parent_class;

  /*< private >*/
  gpointer _reserved[4];
};

AGUI_AVAILABLE_IN_ALL
const char *agui_part_get_message_id (AguiPart *self);
AGUI_AVAILABLE_IN_ALL
gboolean    agui_part_get_complete   (AguiPart *self);
AGUI_AVAILABLE_IN_ALL
AguiAttempt agui_part_get_attempt    (AguiPart *self);
AGUI_AVAILABLE_IN_ALL
gboolean    agui_part_get_attempt_end (AguiPart *self);
AGUI_AVAILABLE_IN_ALL
JsonArray  *agui_part_get_notes      (AguiPart *self);

G_END_DECLS
