/* agui-openai-request-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-access-private.h"

G_BEGIN_DECLS

/* The request AguiOpenaiAgent builds from a RunAgentInput: the
 * conversation as OpenAI chat messages (the system prompt with the run's
 * context after it, user content with its images and text files,
 * assistant tool calls, tool results) and the run's tools as functions.
 * No I/O: the agent sends what these return. */

/* @input is what the public API hands the agent; what these build, in
 * the compact tree, is appended to @converted and printed by the tree's
 * printer, byte for byte as json-glib's. */
void        _agui_openai_convert_messages (const char       *system_prompt,
                                           JsonObject       *input,
                                           AguiJsonDocArray *converted);
/* Adds the name of each tool offered to @declared; a tool whose name
 * is there already is not offered again. */
void        _agui_openai_convert_tools    (JsonObject       *input,
                                           GHashTable       *declared,
                                           AguiJsonDocArray *converted);

G_END_DECLS
