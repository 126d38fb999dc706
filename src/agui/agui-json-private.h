/* agui-json-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The deepest nesting of arrays and objects Tandem accepts in any JSON it
 * parses or prints (frames, tool arguments, results, imports, stored rows).
 * Agent data is hostile: without a bound a recursive parser or printer
 * overflows the stack on a frame of a hundred thousand '['. */
#define AGUI_JSON_MAX_DEPTH 512

/* json_node_copy() in json-glib 1.6 shares objects and arrays with its
 * source; this copies the whole tree, unsealed. */
JsonNode *_agui_json_node_copy_deep (JsonNode   *node);
void      _agui_json_object_merge   (JsonObject *target,
                                     JsonObject *source);
/* Unlike json_node_init_object/array(), these take the caller's
 * reference instead of adding one. */
JsonNode *_agui_json_node_new_object (JsonObject *object);
JsonNode *_agui_json_node_new_array  (JsonArray  *array);

G_END_DECLS
