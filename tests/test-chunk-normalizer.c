/* test-chunk-normalizer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-chunk-normalizer-private.h"

#define RS "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RF "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"

/* Every input is pushed in order; output is everything appended to the
 * array across all pushes. With error set, the last input must fail with
 * exactly that message, and output still lists what was appended before
 * the failure. */
typedef struct
{
  const char *path;
  const char *summary;
  const char *input[16];
  const char *output[24];
  const char *error;
} ChunkCase;

static const ChunkCase chunk_cases[] = {
  {
    "text-basic", "An opener and an id-less continuation; RUN_FINISHED closes the message",
    { RS,
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"Hel\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"lo\"}",
      RF },
    { RS,
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hel\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"lo\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      RF },
  },
  {
    "text-chunk-id-change", "The example of section 10.4: a new id closes the previous message",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"one\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m2\",\"delta\":\"two\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\" more\"}",
      RF },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"one\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"two\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\" more\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
      RF },
  },
  {
    "text-same-id-continues", "A chunk repeating the open id, role and name continues the message",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\",\"delta\":\"b\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"b\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\"}" },
  },
  {
    "text-opener-without-delta", "An opener with no delta emits only the START",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"typed\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"typed\"}" },
  },
  {
    "text-first-without-id", "An id-less chunk with nothing open fails",
    { RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"x\"}" },
    { RS },
    "First TEXT_MESSAGE_CHUNK must have a messageId",
  },
  {
    "text-role-mismatch", "A later chunk may not change the role",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"role\":\"user\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"role\":\"assistant\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"user\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}" },
    "Cannot continue text message 'm1': chunk role 'assistant' does not match the open stream's role 'user'.",
  },
  {
    "text-role-mismatch-default", "The opener's role is \"assistant\" when it had none",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"role\":\"assistant\",\"delta\":\"ok\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"role\":\"system\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ok\"}" },
    "Cannot continue text message 'm1': chunk role 'system' does not match the open stream's role 'assistant'.",
  },
  {
    "text-name-mismatch-absent", "A later chunk may not add a name the opener lacked",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"name\":\"Bob\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}" },
    "Cannot continue text message 'm1': chunk name 'Bob' does not match the open stream's name '(absent)'.",
  },
  {
    "text-name-mismatch", "A later chunk may not change the name",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"name\":\"Ada\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"name\":\"Bob\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\",\"name\":\"Ada\"}" },
    "Cannot continue text message 'm1': chunk name 'Bob' does not match the open stream's name 'Ada'.",
  },
  {
    "tool-basic", "A tool chunk opens a call with name and parent; deltas become ARGS",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\",\"parentMessageId\":\"m1\",\"delta\":\"{\\\"a\\\":1,\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallName\":\"calc\",\"parentMessageId\":\"m1\",\"delta\":\"\\\"b\\\":2}\"}",
      RF },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\",\"parentMessageId\":\"m1\"}",
      "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"a\\\":1,\"}",
      "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"\\\"b\\\":2}\"}",
      "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
      RF },
  },
  {
    "tool-first-without-id", "The id is checked before the name",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"delta\":\"{}\"}" },
    { NULL },
    "First TOOL_CALL_CHUNK must have a toolCallId",
  },
  {
    "tool-first-without-name", "A tool call cannot open without a name",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"delta\":\"{}\"}" },
    { NULL },
    "First TOOL_CALL_CHUNK must have a toolCallName",
  },
  {
    "tool-name-mismatch", "A later chunk may not rename the call",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallName\":\"other\",\"delta\":\"{}\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}" },
    "Cannot continue tool call 'tc1': chunk toolCallName 'other' does not match the open stream's toolCallName 'calc'.",
  },
  {
    "tool-parent-mismatch", "A later chunk may not add a parent the opener lacked",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"parentMessageId\":\"m9\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}" },
    "Cannot continue tool call 'tc1': chunk parentMessageId 'm9' does not match the open stream's parentMessageId '(absent)'.",
  },
  {
    "reasoning-basic", "Reasoning chunks open a reasoning message; REASONING_END closes it first",
    { "{\"type\":\"REASONING_START\",\"messageId\":\"span1\"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"rm1\",\"delta\":\"thinking \"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"delta\":\"hard\"}",
      "{\"type\":\"REASONING_END\",\"messageId\":\"span1\"}" },
    { "{\"type\":\"REASONING_START\",\"messageId\":\"span1\"}",
      "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"rm1\",\"role\":\"reasoning\"}",
      "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rm1\",\"delta\":\"thinking \"}",
      "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rm1\",\"delta\":\"hard\"}",
      "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"rm1\"}",
      "{\"type\":\"REASONING_END\",\"messageId\":\"span1\"}" },
  },
  {
    "reasoning-first-without-id", "An id-less reasoning chunk with nothing open fails",
    { RS, "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"delta\":\"x\"}" },
    { RS },
    "First REASONING_MESSAGE_CHUNK must have a messageId",
  },
  {
    "kind-change-closes", "One stream per lane: a chunk of another kind closes the open one",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"Let me check.\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\",\"delta\":\"{}\"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"hm\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m2\",\"delta\":\"Done.\"}",
      RF },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Let me check.\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
      "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{}\"}",
      "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
      "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"reasoning\"}",
      "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"hm\"}",
      "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"Done.\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
      RF },
  },
  {
    "close-before-missing-id", "The lane's stream is closed before the missing id is reported, and the END stays in the output",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"x\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}" },
    "First TEXT_MESSAGE_CHUNK must have a messageId",
  },
  {
    "metadata-carried", "metadata goes on START and CONTENT, rawEvent only on CONTENT, neither on the synthetic END; timestamp is not carried",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\",\"timestamp\":5,\"metadata\":{\"model\":\"x\"},\"rawEvent\":{\"n\":1}}",
      RF },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\",\"metadata\":{\"model\":\"x\"}}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\",\"metadata\":{\"model\":\"x\"},\"rawEvent\":{\"n\":1}}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      RF },
  },
  {
    "metadata-on-opener-only", "An opener with metadata but no delta emits a START carrying it and no content",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\",\"metadata\":{\"a\":1}}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\",\"metadata\":{\"a\":1}}" },
  },
  {
    "late-metadata", "A continuation with only metadata emits an empty content event carrying it",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"metadata\":{\"finishReason\":\"stop\",\"usage\":{\"out\":2}}}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"metadata\":{\"done\":true}}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\",\"metadata\":{\"finishReason\":\"stop\",\"usage\":{\"out\":2}}}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"calc\"}",
      "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"\",\"metadata\":{\"done\":true}}" },
  },
  {
    "raw-event-only", "A chunk with only a rawEvent emits an empty content event carrying it",
    { "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"rm1\",\"rawEvent\":{\"n\":1}}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"rawEvent\":{\"n\":2}}" },
    { "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"rm1\",\"role\":\"reasoning\"}",
      "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rm1\",\"delta\":\"\",\"rawEvent\":{\"n\":1}}",
      "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rm1\",\"delta\":\"\",\"rawEvent\":{\"n\":2}}" },
  },
  {
    "lanes-parallel-subagents", "Each subagent has its own lane; id-less chunks follow their tag; SUBAGENT_FINISHED/ERROR close only their lane",
    { RS,
      "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"alpha\"}",
      "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa2\",\"name\":\"beta\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\",\"delta\":\"alpha \"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\",\"delta\":\"beta \"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"subagentRunId\":\"sa1\",\"delta\":\"done\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"subagentRunId\":\"sa2\",\"delta\":\"failed\"}",
      "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\" again\"}",
      "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa2\",\"message\":\"crash\"}" },
    { RS,
      "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"alpha\"}",
      "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa2\",\"name\":\"beta\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"alpha \",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x2\",\"role\":\"assistant\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x2\",\"delta\":\"beta \",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"done\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x2\",\"delta\":\"failed\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x2\",\"delta\":\" again\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa2\",\"message\":\"crash\"}" },
  },
  {
    "lanes-parent-preferred", "An untagged id-less chunk goes to the parent lane when it has a stream of that kind",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"b\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"c\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"a\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"b\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"c\"}" },
  },
  {
    "lanes-only-open-lane", "An untagged id-less chunk goes to the only lane with a stream of its kind; the content carries that lane's owner",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"a\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"delta\":\"{}\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"t\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"a\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x2\",\"role\":\"assistant\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{}\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x2\",\"delta\":\"t\",\"subagentRunId\":\"sa2\"}" },
  },
  {
    "lanes-ambiguous-text", "Two subagent lanes with open text and an unattributed id-less chunk",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"?\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x2\",\"role\":\"assistant\",\"subagentRunId\":\"sa2\"}" },
    "Ambiguous TEXT_MESSAGE_CHUNK: it carries neither a messageId nor a subagentRunId, but 2 lanes have an open text message. Attribute the chunk to the subagent it belongs to.",
  },
  {
    "lanes-ambiguous-tool", "Three subagent lanes with open tool calls and an unattributed id-less chunk",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"a\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"b\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa3\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"delta\":\"{}\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"a\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"b\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa3\"}" },
    "Ambiguous TOOL_CALL_CHUNK: it carries neither a toolCallId nor a subagentRunId, but 3 lanes have an open tool call. Attribute the chunk to the subagent it belongs to.",
  },
  {
    "lanes-ambiguous-reasoning", "Two subagent lanes with open reasoning and an unattributed id-less chunk",
    { "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"a\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"b\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"delta\":\"?\"}" },
    { "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"a\",\"role\":\"reasoning\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"b\",\"role\":\"reasoning\",\"subagentRunId\":\"sa2\"}" },
    "Ambiguous REASONING_MESSAGE_CHUNK: it carries neither a messageId nor a subagentRunId, but 2 lanes have an open reasoning message. Attribute the chunk to the subagent it belongs to.",
  },
  {
    "lanes-id-finds-lane", "An untagged chunk naming an id open in a subagent lane continues it there",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"delta\":\"b\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\",\"delta\":\"c\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"a\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"b\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"c\",\"subagentRunId\":\"sa1\"}" },
  },
  {
    "lanes-subagent-mismatch", "A chunk naming an open id with another subagent's tag fails",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa2\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"a\",\"subagentRunId\":\"sa1\"}" },
    "Cannot continue text message 'x1': chunk subagentRunId 'sa2' does not match the open stream's subagent 'sa1'.",
  },
  {
    "lanes-parent-mismatch", "A tagged chunk naming a tool call the parent agent has open fails",
    { "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"subagentRunId\":\"sa1\",\"delta\":\"{}\"}" },
    { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}" },
    "Cannot continue tool call 'tc1': chunk subagentRunId 'sa1' does not match the open stream's subagent '(the parent agent)'.",
  },
  {
    "lanes-tagged-without-id", "A tagged id-less chunk goes to its own lane even when another lane has a stream",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"subagentRunId\":\"sa1\",\"delta\":\"x\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}" },
    "First TEXT_MESSAGE_CHUNK must have a messageId",
  },
  {
    "own-lane-closed", "An explicit event closes only its own lane's stream",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"subagentRunId\":\"sa1\",\"delta\":\"still open\"}",
      "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"subagentRunId\":\"sa1\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x1\",\"delta\":\"still open\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"x1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"subagentRunId\":\"sa1\"}" },
  },
  {
    "closed-then-id-less", "After an explicit event closed the lane, an id-less chunk has nothing to continue",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":null}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":null}" },
    "First TEXT_MESSAGE_CHUNK must have a messageId",
  },
  {
    "reopen-same-id", "A chunk naming an id closed earlier opens it again",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{}}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"b\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
      "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{}}",
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"b\"}" },
  },
  {
    "run-event-closes-all-in-order", "A run event closes every lane, in the order the streams were opened",
    { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}",
      "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"r1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}" },
    { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"x2\",\"role\":\"assistant\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}",
      "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"reasoning\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"x2\",\"subagentRunId\":\"sa2\"}",
      "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
      "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r1\",\"subagentRunId\":\"sa1\"}",
      "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}" },
  },
  {
    "stream-end-emits-nothing", "A stream that simply stops leaves the pending message unterminated",
    { RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"cut off\"}" },
    { RS,
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
      "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"cut off\"}" },
  },
};

/* Section 10.4, row by row: what each non-chunk event does to a pending
 * parent-lane stream. */
static const char * const own_lane_closers[] = {
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m9\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m9\",\"delta\":\"x\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m9\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"t9\",\"toolCallName\":\"f\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"t9\",\"delta\":\"{}\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"t9\"}",
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r9\",\"toolCallId\":\"t9\",\"content\":\"ok\"}",
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":null}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[]}",
  "{\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":1}",
  "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}",
  "{\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}",
  "{\"type\":\"REASONING_START\",\"messageId\":\"s9\"}",
  "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"s9\",\"role\":\"reasoning\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"s9\",\"delta\":\"x\"}",
  "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"s9\"}",
  "{\"type\":\"REASONING_END\",\"messageId\":\"s9\"}",
};

static const char * const all_lane_closers[] = {
  RS,
  RF,
  "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[]}",
};

static const char * const non_closers[] = {
  "{\"type\":\"RAW\",\"event\":{\"provider\":\"x\"},\"source\":\"test\"}",
  "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a1\",\"activityType\":\"p\",\"content\":{}}",
  "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a1\",\"activityType\":\"p\",\"patch\":[]}",
  "{\"type\":\"REASONING_ENCRYPTED_VALUE\",\"subtype\":\"message\",\"entityId\":\"m1\",\"encryptedValue\":\"e\"}",
  "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"n\"}",
  "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\"}",
  "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa1\",\"message\":\"m\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m9\",\"subagentRunId\":\"sa1\"}",
  "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"subagentRunId\":\"sa1\"}",
};

static AguiEvent *
event_new (const char *json)
{
  g_autoptr(GError) error = NULL;
  AguiEvent *event;

  event = agui_event_new_from_string (json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (event);

  return event;
}

static void
assert_events_equal (GPtrArray          *actual,
                     const char * const *expected,
                     guint               n_expected)
{
  for (guint i = 0; i < MAX (actual->len, n_expected); i++)
    {
      g_autofree char *actual_text = NULL;

      if (i < actual->len)
        actual_text = agui_event_to_string (g_ptr_array_index (actual, i));

      if (i >= n_expected)
        g_error ("event %u: unexpected %s", i, actual_text);

      if (i >= actual->len)
        g_error ("event %u: missing %s", i, expected[i]);

      {
        g_autoptr(JsonNode) want = json_from_string (expected[i], NULL);
        g_autoptr(JsonNode) got = agui_event_to_json (g_ptr_array_index (actual, i));

        g_assert_nonnull (want);
        if (!json_node_equal (want, got))
          g_error ("event %u: expected %s, got %s", i, expected[i], actual_text);
      }
    }
}

static guint
count_strings (const char * const *strings,
               guint               max)
{
  guint n = 0;

  while (n < max && strings[n] != NULL)
    n++;

  return n;
}

static void
test_chunk_case (gconstpointer data)
{
  const ChunkCase *test_case = data;
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  guint n_input = count_strings (test_case->input, G_N_ELEMENTS (test_case->input));

  g_test_summary (test_case->summary);

  for (guint i = 0; i < n_input; i++)
    {
      g_autoptr(AguiEvent) event = event_new (test_case->input[i]);
      g_autoptr(GError) error = NULL;
      gboolean ok;

      ok = _agui_chunk_normalizer_push (normalizer, event, out, &error);

      if (test_case->error != NULL && i == n_input - 1)
        {
          g_assert_false (ok);
          g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK);
          g_assert_cmpstr (error->message, ==, test_case->error);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_true (ok);
        }
    }

  assert_events_equal (out, test_case->output,
                       count_strings (test_case->output, G_N_ELEMENTS (test_case->output)));
}

static void
push_all (AguiChunkNormalizer *normalizer,
          const char * const  *input,
          guint                n_input,
          GPtrArray           *out)
{
  for (guint i = 0; i < n_input; i++)
    {
      g_autoptr(AguiEvent) event = event_new (input[i]);
      g_autoptr(GError) error = NULL;

      g_assert_true (_agui_chunk_normalizer_push (normalizer, event, out, &error));
      g_assert_no_error (error);
    }
}

static void
test_closed_by_own_lane_event (void)
{
  g_test_summary ("Section 10.4: these events close their own lane's stream, END first");

  for (guint i = 0; i < G_N_ELEMENTS (own_lane_closers); i++)
    {
      g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
      g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      const char *input[] = {
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
        own_lane_closers[i],
      };
      const char *expected[] = {
        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
        own_lane_closers[i],
      };

      g_test_message ("closer: %s", own_lane_closers[i]);
      push_all (normalizer, input, G_N_ELEMENTS (input), out);
      assert_events_equal (out, expected, G_N_ELEMENTS (expected));
    }
}

static void
test_closed_by_run_event (void)
{
  g_test_summary ("Section 10.4: run events and MESSAGES_SNAPSHOT close every lane");

  for (guint i = 0; i < G_N_ELEMENTS (all_lane_closers); i++)
    {
      g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
      g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      const char *input[] = {
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\"}",
        "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa1\"}",
        all_lane_closers[i],
      };
      const char *expected[] = {
        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
        "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\",\"subagentRunId\":\"sa1\"}",
        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
        "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\",\"subagentRunId\":\"sa1\"}",
        all_lane_closers[i],
      };

      g_test_message ("closer: %s", all_lane_closers[i]);
      push_all (normalizer, input, G_N_ELEMENTS (input), out);
      assert_events_equal (out, expected, G_N_ELEMENTS (expected));
    }
}

static void
test_not_closed (void)
{
  g_test_summary ("Section 10.4: these events leave the parent lane's stream open");

  for (guint i = 0; i < G_N_ELEMENTS (non_closers); i++)
    {
      g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
      g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      const char *input[] = {
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
        non_closers[i],
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"b\"}",
      };
      const char *expected[] = {
        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\"}",
        non_closers[i],
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"b\"}",
      };

      g_test_message ("event: %s", non_closers[i]);
      push_all (normalizer, input, G_N_ELEMENTS (input), out);
      assert_events_equal (out, expected, G_N_ELEMENTS (expected));
    }
}

static void
test_passes_same_event (void)
{
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(AguiEvent) event = event_new (RS);
  g_autoptr(GError) error = NULL;

  g_test_summary ("A non-chunk event is passed on as a new reference, not a copy");

  g_assert_true (_agui_chunk_normalizer_push (normalizer, event, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 1);
  g_assert_true (g_ptr_array_index (out, 0) == (gpointer) event);
}

static void
test_appends_to_out (void)
{
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(AguiEvent) first = event_new (RS);
  g_autoptr(AguiEvent) chunk = event_new ("{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}");

  g_test_summary ("push appends after what the caller's array already holds");

  g_ptr_array_add (out, agui_event_ref (first));
  g_assert_true (_agui_chunk_normalizer_push (normalizer, chunk, out, NULL));
  g_assert_cmpuint (out->len, ==, 3);
  g_assert_true (g_ptr_array_index (out, 0) == (gpointer) first);
  g_assert_cmpint (agui_event_get_event_type (g_ptr_array_index (out, 1)), ==, AGUI_EVENT_TEXT_MESSAGE_START);
  g_assert_cmpint (agui_event_get_event_type (g_ptr_array_index (out, 2)), ==, AGUI_EVENT_TEXT_MESSAGE_CONTENT);
}

static void
test_reset (void)
{
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(AguiEvent) opener = event_new ("{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"subagentRunId\":\"sa1\"}");
  g_autoptr(AguiEvent) opener2 = event_new ("{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"tc1\",\"toolCallName\":\"f\"}");
  g_autoptr(AguiEvent) continuation = event_new ("{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"x\"}");
  g_autoptr(AguiEvent) run_finished = event_new (RF);
  g_autoptr(GError) error = NULL;

  g_test_summary ("reset forgets every lane without emitting anything");

  g_assert_true (_agui_chunk_normalizer_push (normalizer, opener, out, NULL));
  g_assert_true (_agui_chunk_normalizer_push (normalizer, opener2, out, NULL));
  g_assert_cmpuint (out->len, ==, 2);

  _agui_chunk_normalizer_reset (normalizer);
  g_ptr_array_set_size (out, 0);

  g_assert_false (_agui_chunk_normalizer_push (normalizer, continuation, out, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK);
  g_assert_cmpstr (error->message, ==, "First TEXT_MESSAGE_CHUNK must have a messageId");
  g_assert_cmpuint (out->len, ==, 0);

  g_assert_true (_agui_chunk_normalizer_push (normalizer, run_finished, out, NULL));
  g_assert_cmpuint (out->len, ==, 1);
}

static void
test_expand (void)
{
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(AguiEvent) chunk = agui_event_new_from_string ("{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"hi\"}", -1, NULL);
  g_autoptr(AguiEvent) bad = agui_event_new_from_string ("{\"type\":\"TOOL_CALL_CHUNK\",\"delta\":\"x\"}", -1, NULL);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("expand() returns what push() would append, the caller owning the events");

  events = _agui_chunk_normalizer_expand (normalizer, chunk, &error);
  g_assert_no_error (error);
  g_ptr_array_set_free_func (events, (GDestroyNotify) agui_event_unref);
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpint (agui_event_get_event_type (g_ptr_array_index (events, 0)), ==, AGUI_EVENT_TEXT_MESSAGE_START);
  g_assert_cmpstr (agui_event_get_delta (g_ptr_array_index (events, 1)), ==, "hi");

  g_assert_null (_agui_chunk_normalizer_expand (normalizer, bad, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/chunk-normalizer/expand", test_expand);

  for (guint i = 0; i < G_N_ELEMENTS (chunk_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/chunk-normalizer/%s", chunk_cases[i].path);

      g_test_add_data_func (path, &chunk_cases[i], test_chunk_case);
    }

  g_test_add_func ("/agui/chunk-normalizer/closed-by-own-lane-event", test_closed_by_own_lane_event);
  g_test_add_func ("/agui/chunk-normalizer/closed-by-run-event", test_closed_by_run_event);
  g_test_add_func ("/agui/chunk-normalizer/not-closed", test_not_closed);
  g_test_add_func ("/agui/chunk-normalizer/passes-same-event", test_passes_same_event);
  g_test_add_func ("/agui/chunk-normalizer/appends-to-out", test_appends_to_out);
  g_test_add_func ("/agui/chunk-normalizer/reset", test_reset);

  return g_test_run ();
}
