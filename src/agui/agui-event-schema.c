/* agui-event-schema.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"

gboolean
_agui_event_schema_enforce (AguiEventType   type,
                            JsonObject     *members,
                            GPtrArray      *warnings,
                            GError        **error)
{
  /* Placeholder until the schema tables land: accepts everything. */
  return TRUE;
}
