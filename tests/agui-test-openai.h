/* agui-test-openai.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-test-server.h"

G_BEGIN_DECLS

/* Streaming chat completion chunks as OpenAI, Ollama and llama.cpp's
 * llama-server send them, for the loopback server to replay. */

#define CHUNK(delta, finish) \
  "{\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"created\":1733000000," \
  "\"model\":\"qwen3:8b\",\"system_fingerprint\":\"fp_ollama\"," \
  "\"choices\":[{\"index\":0,\"delta\":" delta ",\"logprobs\":null,\"finish_reason\":" finish "}]}"
#define TEXT(text) CHUNK ("{\"content\":\"" text "\"}", "null")
#define FIRST CHUNK ("{\"role\":\"assistant\",\"content\":\"\"}", "null")
#define FINISH(reason) CHUNK ("{}", "\"" reason "\"")
#define USAGE \
  "{\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"created\":1733000000,\"model\":\"qwen3:8b\"," \
  "\"choices\":[],\"usage\":{\"prompt_tokens\":21,\"completion_tokens\":5,\"total_tokens\":26}}"
#define DONE "[DONE]"
/* A tool call's first piece (id, type, name, no arguments yet), then
 * pieces of its arguments. */
#define CALL_START(index, id, name) \
  CHUNK ("{\"tool_calls\":[{\"index\":" #index ",\"id\":\"" id "\",\"type\":\"function\"," \
         "\"function\":{\"name\":\"" name "\",\"arguments\":\"\"}}]}", "null")
#define CALL_ARGS(index, args) \
  CHUNK ("{\"tool_calls\":[{\"index\":" #index ",\"function\":{\"arguments\":\"" args "\"}}]}", "null")

static inline AguiTestResponse *
chunks (const char *first,
        ...) G_GNUC_NULL_TERMINATED;

/* One `data:` frame per chunk, as every one of these servers frames them. */
static inline AguiTestResponse *
chunks (const char *first,
        ...)
{
  AguiTestResponse *response = agui_test_response_new ();
  va_list args;

  va_start (args, first);
  for (const char *chunk = first; chunk != NULL; chunk = va_arg (args, const char *))
    {
      g_autofree char *frame = g_strdup_printf ("data: %s\n\n", chunk);

      agui_test_response_append_data (response, frame, -1);
    }
  va_end (args);

  return response;
}

G_END_DECLS
