/* agui-event-compat-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* The ids minted for a stream's THINKING_* events, which carry none: the
 * open span's and the open message's. A parser keeps one per stream. */
typedef struct
{
  char *span_id;
  char *message_id;
} AguiThinkingIds;

void        _agui_thinking_ids_clear            (AguiThinkingIds   *ids);

/* If @name is a deprecated THINKING_* type, rewrites @object as the
 * REASONING_* event it stands for (its "type" rewritten in its place) and
 * returns the new type's name, a static string; else %NULL, @object
 * untouched. @name may be @object's own "type" string, which a
 * translation replaces: after one, use the name returned. */
const char *_agui_event_translate_thinking_tree (AguiThinkingIds   *ids,
                                                 AguiJsonDocObject *object,
                                                 const char        *name,
                                                 GPtrArray         *warnings);

/* Removes the nulls that pre-1.0 producers wrote for absent members and
 * upgrades pre-1.0 binary content parts, in an event of type @name (which
 * may be @object's own "type" string). A removed member may leave a hole
 * in a large object (see _agui_json_object_compact ()). */
void        _agui_event_translate_compat_tree   (const char        *name,
                                                 AguiJsonDocObject *object,
                                                 GPtrArray         *warnings);

G_END_DECLS
