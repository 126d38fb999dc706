/* agui-event-compat-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The ids minted for a stream's THINKING_* events, which carry none: the
 * open span's and the open message's. A parser keeps one per stream. */
typedef struct
{
  char *span_id;
  char *message_id;
} AguiThinkingIds;

void        _agui_thinking_ids_clear       (AguiThinkingIds *ids);

/* If @name is a deprecated THINKING_* type, rewrites @object as the
 * REASONING_* event it stands for (its "type" included) and returns the new
 * type's name; else %NULL, @object untouched. */
const char *_agui_event_translate_thinking (AguiThinkingIds *ids,
                                            JsonObject      *object,
                                            const char      *name,
                                            GPtrArray       *warnings);

/* Removes the nulls that pre-1.0 producers wrote for absent members and
 * upgrades pre-1.0 binary content parts, in an event of type @name. */
void        _agui_event_translate_compat   (const char      *name,
                                            JsonObject      *object,
                                            GPtrArray       *warnings);

G_END_DECLS
