/* test-verifier.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-chunk-normalizer-private.h"
#include "agui-event-parser-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-verifier-private.h"
#include "agui-test-util.h"

#define RS   "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RF   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RE   "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}"

#define TMS(id)        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\"}"
#define TMS_SA(id, sa) "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"
#define TMC(id)        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"x\"}"
#define TMC_SA(id, sa) "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"x\",\"subagentRunId\":\"" sa "\"}"
#define TME(id)        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define TME_SA(id, sa) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"

#define TCS(id)                "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"f\"}"
#define TCS_SA(id, sa)         "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"f\",\"subagentRunId\":\"" sa "\"}"
#define TCS_P(id, pid)         "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"f\",\"parentMessageId\":\"" pid "\"}"
#define TCS_P_SA(id, pid, sa)  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"f\",\"parentMessageId\":\"" pid "\",\"subagentRunId\":\"" sa "\"}"
#define TCA(id)                "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"{}\"}"
#define TCA_SA(id, sa)         "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"{}\",\"subagentRunId\":\"" sa "\"}"
#define TCE(id)                "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"
#define TCE_SA(id, sa)         "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"
#define TCR(mid, id)           "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"" mid "\",\"toolCallId\":\"" id "\",\"content\":\"ok\"}"

#define SS(name)        "{\"type\":\"STEP_STARTED\",\"stepName\":\"" name "\"}"
#define SS_SA(name, sa) "{\"type\":\"STEP_STARTED\",\"stepName\":\"" name "\",\"subagentRunId\":\"" sa "\"}"
#define SF(name)        "{\"type\":\"STEP_FINISHED\",\"stepName\":\"" name "\"}"
#define SF_SA(name, sa) "{\"type\":\"STEP_FINISHED\",\"stepName\":\"" name "\",\"subagentRunId\":\"" sa "\"}"

#define RSTART(id)        "{\"type\":\"REASONING_START\",\"messageId\":\"" id "\"}"
#define RSTART_SA(id, sa) "{\"type\":\"REASONING_START\",\"messageId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"
#define REND(id)          "{\"type\":\"REASONING_END\",\"messageId\":\"" id "\"}"
#define REND_SA(id, sa)   "{\"type\":\"REASONING_END\",\"messageId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"
#define RMS(id)           "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"reasoning\"}"
#define RMS_SA(id, sa)    "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"reasoning\",\"subagentRunId\":\"" sa "\"}"
#define RMC(id)           "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"x\"}"
#define RMC_SA(id, sa)    "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"x\",\"subagentRunId\":\"" sa "\"}"
#define RME(id)           "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define RME_SA(id, sa)    "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"" id "\",\"subagentRunId\":\"" sa "\"}"
#define REV_SA(subtype, id, sa) "{\"type\":\"REASONING_ENCRYPTED_VALUE\",\"subtype\":\"" subtype "\",\"entityId\":\"" id "\",\"encryptedValue\":\"e\",\"subagentRunId\":\"" sa "\"}"

#define ACT_SA(id, sa)         "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"" id "\",\"activityType\":\"p\",\"content\":{},\"subagentRunId\":\"" sa "\"}"
#define ACT_KEEP_SA(id, sa)    "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"" id "\",\"activityType\":\"p\",\"content\":{},\"replace\":false,\"subagentRunId\":\"" sa "\"}"
#define ACTD_SA(id, sa)        "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"" id "\",\"activityType\":\"p\",\"patch\":[],\"subagentRunId\":\"" sa "\"}"

#define SAS(id)          "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"" id "\",\"name\":\"n\"}"
#define SAS_P(id, pid)   "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"" id "\",\"name\":\"n\",\"parentSubagentRunId\":\"" pid "\"}"
#define SAF(id)          "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"" id "\"}"
#define SAE(id)          "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"" id "\",\"message\":\"m\"}"

#define NULL_TAIL ". The field is optional — omit it entirely."

/* The events are checked in order; all before fail_at must be accepted and
 * the one at fail_at rejected with exactly error (fail_at is -1 and error
 * NULL when every event must be accepted). trusted builds the events
 * without schema enforcement, for the rules only such events can reach. */
typedef struct
{
  const char *path;
  gboolean    trusted;
  const char *events[16];
  int         fail_at;
  const char *error;
} VerifierCase;

static const VerifierCase verifier_cases[] = {
  /* 11.1 Run lifecycle */
  { "rule-01-after-run-error", FALSE,
    { RS, RE, TMS ("m1") }, 2,
    "Cannot send event type 'TEXT_MESSAGE_START': The run has already errored with 'RUN_ERROR'. No further events can be sent." },
  { "rule-01-run-error-twice", FALSE,
    { RS, RE, RE }, 2,
    "Cannot send event type 'RUN_ERROR': The run has already errored with 'RUN_ERROR'. No further events can be sent." },
  { "rule-01-first-event-run-error", FALSE,
    { RE, SS ("s") }, 1,
    "Cannot send event type 'STEP_STARTED': The run has already errored with 'RUN_ERROR'. No further events can be sent." },
  { "rule-01-before-null-rules", TRUE,
    { RS, RE, "{\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":1,\"subagentRunId\":null}" }, 2,
    "Cannot send event type 'CUSTOM': The run has already errored with 'RUN_ERROR'. No further events can be sent." },
  { "rule-02-after-run-finished", FALSE,
    { RS, RF, TMS ("m1") }, 2,
    "Cannot send event type 'TEXT_MESSAGE_START': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'." },
  { "rule-02-run-finished-twice", FALSE,
    { RS, RF, RF }, 2,
    "Cannot send event type 'RUN_FINISHED': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'." },
  { "rule-03-first-event", FALSE,
    { TMS ("m1") }, 0,
    "First event must be 'RUN_STARTED'" },
  { "rule-03-first-event-run-finished", FALSE,
    { RF }, 0,
    "First event must be 'RUN_STARTED'" },
  { "rule-04-run-started-while-active", FALSE,
    { RS, TMS ("m1"), TME ("m1"), RS }, 3,
    "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run." },

  /* 11.2 Null attribution */
  { "rule-05-subagent-run-id-null", TRUE,
    { RS, "{\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":1,\"subagentRunId\":null}" }, 1,
    "Cannot send 'CUSTOM' with 'subagentRunId: null'" NULL_TAIL },
  { "rule-05-before-type-rules", TRUE,
    { RS, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"subagentRunId\":null}" }, 1,
    "Cannot send 'TEXT_MESSAGE_END' with 'subagentRunId: null'" NULL_TAIL },
  { "rule-06-description-null", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"n\",\"description\":null}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' with 'description: null'" NULL_TAIL },
  { "rule-06-parent-subagent-run-id-null", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"n\",\"parentSubagentRunId\":null}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' with 'parentSubagentRunId: null'" NULL_TAIL },
  { "rule-06-parent-tool-call-id-null", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"n\",\"parentToolCallId\":null}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' with 'parentToolCallId: null'" NULL_TAIL },
  { "rule-06-parent-message-id-null", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\",\"name\":\"n\",\"parentMessageId\":null}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' with 'parentMessageId: null'" NULL_TAIL },
  { "rule-06-outcome-null", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\",\"outcome\":null}" }, 2,
    "Cannot send 'SUBAGENT_FINISHED' with 'outcome: null'" NULL_TAIL },
  { "rule-06-code-null", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa1\",\"message\":\"m\",\"code\":null}" }, 2,
    "Cannot send 'SUBAGENT_ERROR' with 'code: null'" NULL_TAIL },
  { "rule-07-outcome-type", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\",\"outcome\":{\"type\":\"interrupt\"}}" }, 2,
    "Cannot send 'SUBAGENT_FINISHED' with outcome type 'interrupt'. The outcome is either { type: \"success\" } or { type: \"suspended\" }." },
  { "rule-08-interrupt-ids-null", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\",\"outcome\":{\"type\":\"suspended\",\"interruptIds\":null}}" }, 2,
    "Cannot send 'SUBAGENT_FINISHED' with 'outcome.interruptIds: null'" NULL_TAIL },
  { "rule-08-interrupt-ids-non-string", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"sa1\",\"outcome\":{\"type\":\"suspended\",\"interruptIds\":[\"i1\",2]}}" }, 2,
    "Cannot send 'SUBAGENT_FINISHED' with a non-string entry in 'outcome.interruptIds'. Interrupt ids are strings." },
  { "rule-09-interrupt-subagent-null", TRUE,
    { RS, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\",\"reason\":\"confirmation\"},{\"id\":\"i2\",\"reason\":\"confirmation\",\"subagentRunId\":null}]}}" }, 1,
    "Cannot send 'RUN_FINISHED' with an interrupt (id 'i2') carrying 'subagentRunId: null'" NULL_TAIL },
  { "rule-10-snapshot-message-null", TRUE,
    { RS, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\",\"subagentRunId\":null}]}" }, 1,
    "Cannot send a message (id 'u1') with 'subagentRunId: null'" NULL_TAIL },
  { "rule-10-input-message-null", TRUE,
    { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\"},{\"id\":\"a1\",\"role\":\"assistant\",\"subagentRunId\":null}]}}" }, 0,
    "Cannot send a message (id 'a1') with 'subagentRunId: null'" NULL_TAIL },

  /* 11.4 Text messages */
  { "rule-11-text-start-duplicate", FALSE,
    { RS, TMS ("m1"), TMS ("m1") }, 2,
    "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID 'm1' is already in progress. Complete it with 'TEXT_MESSAGE_END' first." },
  { "rule-12-text-reopen-other-subagent", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), TMS_SA ("m1", "sa2") }, 3,
    "Cannot send 'TEXT_MESSAGE_START': subagentRunId 'sa2' does not match the message 'm1' opener's subagent 'sa1'." },
  { "rule-12-text-reopen-parent-owned", FALSE,
    { RS, TMS ("m1"), TME ("m1"), TMS_SA ("m1", "sa1") }, 3,
    "Cannot send 'TEXT_MESSAGE_START': subagentRunId 'sa1' does not match the message 'm1' opener's subagent '(the parent agent)'." },
  { "rule-12-text-reopen-tool-result-message", FALSE,
    { RS, TCR ("t1", "tc1"), TMS_SA ("t1", "sa1") }, 2,
    "Cannot send 'TEXT_MESSAGE_START': subagentRunId 'sa1' does not match the message 't1' opener's subagent '(the parent agent)'." },
  { "rule-12-input-message-first-owner-kept", FALSE,
    { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"content\":\"x\",\"subagentRunId\":\"sa1\"},{\"id\":\"m1\",\"role\":\"user\",\"content\":\"y\",\"subagentRunId\":\"sa2\"}]}}",
      TMS_SA ("m1", "sa2") }, 1,
    "Cannot send 'TEXT_MESSAGE_START': subagentRunId 'sa2' does not match the message 'm1' opener's subagent 'sa1'." },
  { "rule-13-text-content-not-open", FALSE,
    { RS, TMC ("m1") }, 1,
    "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID 'm1'. Start a text message with 'TEXT_MESSAGE_START' first." },
  { "rule-13-text-content-after-end", FALSE,
    { RS, TMS ("m1"), TMC ("m1"), TME ("m1"), TMC ("m1") }, 4,
    "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID 'm1'. Start a text message with 'TEXT_MESSAGE_START' first." },
  { "rule-14-text-end-not-open", FALSE,
    { RS, TME ("m1") }, 1,
    "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID 'm1'. A 'TEXT_MESSAGE_START' event must be sent first." },
  { "rule-15-text-content-tag-mismatch", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TMC_SA ("m1", "sa2") }, 2,
    "Cannot send 'TEXT_MESSAGE_CONTENT': subagentRunId 'sa2' does not match the message 'm1' opener's subagent 'sa1'." },
  { "rule-15-text-end-tag-mismatch", FALSE,
    { RS, TMS ("m1"), TMC ("m1"), TME_SA ("m1", "sa1") }, 3,
    "Cannot send 'TEXT_MESSAGE_END': subagentRunId 'sa1' does not match the message 'm1' opener's subagent '(the parent agent)'." },

  /* 11.5 Tool calls */
  { "rule-16-tool-start-duplicate", FALSE,
    { RS, TCS ("tc1"), TCS ("tc1") }, 2,
    "Cannot send 'TOOL_CALL_START' event: A tool call with ID 'tc1' is already in progress. Complete it with 'TOOL_CALL_END' first." },
  { "rule-17-tool-start-parent-owner-mismatch", FALSE,
    { RS, TMS ("m1"), TME ("m1"), TCS_P_SA ("tc1", "m1", "sa1") }, 3,
    "Cannot send 'TOOL_CALL_START': subagentRunId 'sa1' does not match its parent message 'm1' owner '(the parent agent)'. A tool call belongs to the message that carries it." },
  { "rule-17-tool-start-parent-other-subagent", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TCS_P_SA ("tc1", "m1", "sa2") }, 2,
    "Cannot send 'TOOL_CALL_START': subagentRunId 'sa2' does not match its parent message 'm1' owner 'sa1'. A tool call belongs to the message that carries it." },
  { "rule-17-before-rule-18", FALSE,
    { RS, TMS ("m1"), TCS_SA ("tc1", "sa1"), TCE ("tc1"), TCS_P_SA ("tc1", "m1", "sa2") }, 4,
    "Cannot send 'TOOL_CALL_START': subagentRunId 'sa2' does not match its parent message 'm1' owner '(the parent agent)'. A tool call belongs to the message that carries it." },
  { "rule-18-tool-reopen-tag-mismatch", FALSE,
    { RS, TCS_SA ("tc1", "sa1"), TCE ("tc1"), TCS_SA ("tc1", "sa2") }, 3,
    "Cannot send 'TOOL_CALL_START': subagentRunId 'sa2' does not match the tool call 'tc1' opener's subagent 'sa1'." },
  { "rule-18-tool-reopen-snapshot-owner", FALSE,
    { RS, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"a1\",\"role\":\"assistant\",\"subagentRunId\":\"sa1\",\"toolCalls\":[{\"id\":\"tc1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}]}",
      TCS_SA ("tc1", "sa2") }, 2,
    "Cannot send 'TOOL_CALL_START': subagentRunId 'sa2' does not match the tool call 'tc1' opener's subagent 'sa1'." },
  { "rule-19-tool-reopen-parent-owner-differs", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), TCS ("tc1"), TCE ("tc1"), TCS_P ("tc1", "m1") }, 5,
    "Cannot send 'TOOL_CALL_START': tool call 'tc1' is owned by '(the parent agent)' but its parent message 'm1' is owned by 'sa1'. A tool call belongs to the message that carries it." },
  { "rule-20-tool-args-not-open", FALSE,
    { RS, TCA ("tc9") }, 1,
    "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID 'tc9'. Start a tool call with 'TOOL_CALL_START' first." },
  { "rule-20-tool-args-after-end", FALSE,
    { RS, TCS ("tc1"), TCA ("tc1"), TCE ("tc1"), TCA ("tc1") }, 4,
    "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID 'tc1'. Start a tool call with 'TOOL_CALL_START' first." },
  { "rule-21-tool-end-not-open", FALSE,
    { RS, TCE ("tc1") }, 1,
    "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID 'tc1'. A 'TOOL_CALL_START' event must be sent first." },
  { "rule-22-tool-args-tag-mismatch", FALSE,
    { RS, TCS_SA ("tc1", "sa1"), TCA_SA ("tc1", "sa2") }, 2,
    "Cannot send 'TOOL_CALL_ARGS': subagentRunId 'sa2' does not match the tool call 'tc1' opener's subagent 'sa1'." },
  { "rule-22-tool-end-owner-from-parent-message", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TCS_P ("tc1", "m1"), TCA_SA ("tc1", "sa1"), TCE_SA ("tc1", "sa2") }, 4,
    "Cannot send 'TOOL_CALL_END': subagentRunId 'sa2' does not match the tool call 'tc1' opener's subagent 'sa1'." },

  /* 11.6 Steps */
  { "rule-23-step-started-twice", FALSE,
    { RS, SS ("plan"), SS ("plan") }, 2,
    "Step \"plan\" is already active for 'STEP_STARTED'" },
  { "rule-23-step-started-twice-subagent", FALSE,
    { RS, SS ("plan"), SS_SA ("plan", "sa1"), SS_SA ("plan", "sa1") }, 3,
    "Step \"plan\" is already active for 'STEP_STARTED' in subagent 'sa1'" },
  { "rule-24-step-finished-wrong-owner", FALSE,
    { RS, SS ("plan"), SF_SA ("plan", "sa1") }, 2,
    "Cannot send 'STEP_FINISHED' for step \"plan\" attributed to subagent 'sa1': that step is open under the parent agent. A step must be finished by whoever started it." },
  { "rule-24-step-finished-by-parent", FALSE,
    { RS, SS_SA ("plan", "sa1"), SF ("plan") }, 2,
    "Cannot send 'STEP_FINISHED' for step \"plan\" attributed to the parent agent: that step is open under subagent 'sa1'. A step must be finished by whoever started it." },
  { "rule-25-step-finished-not-started", FALSE,
    { RS, SF ("ghost") }, 1,
    "Cannot send 'STEP_FINISHED' for step \"ghost\" that was not started" },
  { "rule-25-step-finished-twice", FALSE,
    { RS, SS_SA ("plan", "sa1"), SF_SA ("plan", "sa1"), SF_SA ("plan", "sa1") }, 3,
    "Cannot send 'STEP_FINISHED' for step \"plan\" that was not started" },

  /* 11.7 Reasoning */
  { "rule-26-reasoning-start-duplicate", FALSE,
    { RS, RSTART ("r1"), RSTART ("r1") }, 2,
    "Cannot send 'REASONING_START' event: A reasoning span with ID 'r1' is already in progress. Complete it with 'REASONING_END' first." },
  { "rule-27-reasoning-message-start-duplicate", FALSE,
    { RS, RMS ("rm1"), RMS ("rm1") }, 2,
    "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID 'rm1' is already in progress. Complete it with 'REASONING_MESSAGE_END' first." },
  { "rule-28-reasoning-start-tag-mismatch", FALSE,
    { RS, RSTART_SA ("r1", "sa1"), REND ("r1"), RSTART_SA ("r1", "sa2") }, 3,
    "Cannot send 'REASONING_START': subagentRunId 'sa2' does not match the reasoning message 'r1' opener's subagent 'sa1'." },
  { "rule-28-shared-owner-table", FALSE,
    { RS, RSTART ("r1"), RMS_SA ("r1", "sa1") }, 2,
    "Cannot send 'REASONING_MESSAGE_START': subagentRunId 'sa1' does not match the reasoning message 'r1' opener's subagent '(the parent agent)'." },
  { "rule-29-reasoning-content-not-open", FALSE,
    { RS, RMC ("rm1") }, 1,
    "Cannot send 'REASONING_MESSAGE_CONTENT' event: No active reasoning message found with ID 'rm1'. Start a reasoning message with 'REASONING_MESSAGE_START' first." },
  { "rule-29-reasoning-end-not-open", FALSE,
    { RS, RSTART ("rm1"), RME ("rm1") }, 2,
    "Cannot send 'REASONING_MESSAGE_END' event: No active reasoning message found with ID 'rm1'. Start a reasoning message with 'REASONING_MESSAGE_START' first." },
  { "rule-30-reasoning-span-end-not-open", FALSE,
    { RS, RMS ("r1"), REND ("r1") }, 2,
    "Cannot send 'REASONING_END' event: No active reasoning span found with ID 'r1'. A 'REASONING_START' event must be sent first." },
  { "rule-31-reasoning-content-tag-mismatch", FALSE,
    { RS, RMS_SA ("rm1", "sa1"), RMC_SA ("rm1", "sa2") }, 2,
    "Cannot send 'REASONING_MESSAGE_CONTENT': subagentRunId 'sa2' does not match the reasoning message 'rm1' opener's subagent 'sa1'." },
  { "rule-31-reasoning-message-end-tag-mismatch", FALSE,
    { RS, RMS ("rm1"), RME_SA ("rm1", "sa1") }, 2,
    "Cannot send 'REASONING_MESSAGE_END': subagentRunId 'sa1' does not match the reasoning message 'rm1' opener's subagent '(the parent agent)'." },
  { "rule-31-reasoning-end-tag-mismatch", FALSE,
    { RS, RSTART_SA ("r1", "sa1"), REND_SA ("r1", "sa2") }, 2,
    "Cannot send 'REASONING_END': subagentRunId 'sa2' does not match the reasoning message 'r1' opener's subagent 'sa1'." },
  { "rule-32-encrypted-tool-call", FALSE,
    { RS, TCS_SA ("tc1", "sa1"), TCE ("tc1"), REV_SA ("tool-call", "tc1", "sa2") }, 3,
    "Cannot send 'REASONING_ENCRYPTED_VALUE': subagentRunId 'sa2' does not match the tool call 'tc1' opener's subagent 'sa1'." },
  { "rule-32-encrypted-message", FALSE,
    { RS, TMS ("m1"), TME ("m1"), REV_SA ("message", "m1", "sa1") }, 3,
    "Cannot send 'REASONING_ENCRYPTED_VALUE': subagentRunId 'sa1' does not match the message 'm1' opener's subagent '(the parent agent)'." },
  { "rule-32-encrypted-reasoning-message", FALSE,
    { RS, RMS_SA ("rm1", "sa1"), RME ("rm1"), REV_SA ("message", "rm1", "sa2") }, 3,
    "Cannot send 'REASONING_ENCRYPTED_VALUE': subagentRunId 'sa2' does not match the message 'rm1' opener's subagent 'sa1'." },

  /* 11.8 Activity */
  { "rule-33-activity-delta-tag-mismatch", FALSE,
    { RS, ACT_SA ("a1", "sa1"), ACTD_SA ("a1", "sa2") }, 2,
    "Cannot send 'ACTIVITY_DELTA': subagentRunId 'sa2' does not match the activity 'a1' opener's subagent 'sa1'." },
  { "rule-33-activity-kept-owner", FALSE,
    { RS, ACT_SA ("a1", "sa1"), ACT_KEEP_SA ("a1", "sa2"), ACTD_SA ("a1", "sa2") }, 3,
    "Cannot send 'ACTIVITY_DELTA': subagentRunId 'sa2' does not match the activity 'a1' opener's subagent 'sa1'." },

  /* 11.9 Subagents */
  { "rule-34-subagent-started-without-id", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"name\":\"n\"}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' without a 'subagentRunId'." },
  { "rule-34-subagent-started-without-name", TRUE,
    { RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"sa1\"}" }, 1,
    "Cannot send 'SUBAGENT_STARTED' without a 'name'." },
  { "rule-35-subagent-started-twice", FALSE,
    { RS, SAS ("sa1"), SAS ("sa1") }, 2,
    "Cannot send 'SUBAGENT_STARTED': subagent 'sa1' is already active. Finish it with 'SUBAGENT_FINISHED' first." },
  { "rule-36-subagent-reused", FALSE,
    { RS, SAS ("sa1"), SAF ("sa1"), SAS ("sa1") }, 3,
    "Cannot send 'SUBAGENT_STARTED': subagent 'sa1' has already finished in this run. Subagent IDs are per-invocation and cannot be reused." },
  { "rule-36-subagent-reused-after-error", FALSE,
    { RS, SAS ("sa1"), SAE ("sa1"), SAS ("sa1") }, 3,
    "Cannot send 'SUBAGENT_STARTED': subagent 'sa1' has already finished in this run. Subagent IDs are per-invocation and cannot be reused." },
  { "rule-37-subagent-unknown-parent", FALSE,
    { RS, SAS ("sa1"), SAS_P ("sa2", "sa-missing") }, 2,
    "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId 'sa-missing' has not been started in this run." },
  { "rule-38-subagent-finished-without-id", TRUE,
    { RS, "{\"type\":\"SUBAGENT_FINISHED\"}" }, 1,
    "Cannot send 'SUBAGENT_FINISHED' without a 'subagentRunId'." },
  { "rule-38-subagent-error-without-id", TRUE,
    { RS, "{\"type\":\"SUBAGENT_ERROR\",\"message\":\"m\"}" }, 1,
    "Cannot send 'SUBAGENT_ERROR' without a 'subagentRunId'." },
  { "rule-38-subagent-error-without-message", TRUE,
    { RS, SAS ("sa1"), "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"sa1\"}" }, 2,
    "Cannot send 'SUBAGENT_ERROR' without a 'message'." },
  { "rule-39-subagent-finished-not-active", FALSE,
    { RS, SAF ("sa1") }, 1,
    "Cannot send 'SUBAGENT_FINISHED': no active subagent found with ID 'sa1'. A 'SUBAGENT_STARTED' event must be sent first." },
  { "rule-39-subagent-error-twice", FALSE,
    { RS, SAS ("sa1"), SAE ("sa1"), SAE ("sa1") }, 3,
    "Cannot send 'SUBAGENT_ERROR': no active subagent found with ID 'sa1'. A 'SUBAGENT_STARTED' event must be sent first." },

  /* 11.10 RUN_FINISHED with unfinished business, each rule winning over
   * the ones after it */
  { "rule-40-run-finished-steps-open", FALSE,
    { RS, SS ("plan"), SS_SA ("plan", "sa1"), SS ("build"), SS ("done"), SF ("done"), TMS ("m1"), RF }, 7,
    "Cannot send 'RUN_FINISHED' while steps are still active: plan, plan (subagent 'sa1'), build" },
  { "rule-41-run-finished-text-open", FALSE,
    { RS, TMS ("m2"), TMS ("m3"), TMS ("m1"), TME ("m3"), RMS ("rm1"), RF }, 6,
    "Cannot send 'RUN_FINISHED' while text messages are still active: m2, m1" },
  { "rule-42-run-finished-reasoning-messages-open", FALSE,
    { RS, RSTART ("r1"), RMS ("rm2"), RMS ("rm1"), RF }, 4,
    "Cannot send 'RUN_FINISHED' while reasoning messages are still active: rm2, rm1" },
  { "rule-43-run-finished-reasoning-spans-open", FALSE,
    { RS, RSTART ("r1"), TCS ("tc1"), RF }, 3,
    "Cannot send 'RUN_FINISHED' while reasoning spans are still active: r1" },
  { "rule-44-run-finished-tool-calls-open", FALSE,
    { RS, TCS ("tc2"), TCS ("tc1"), SAS ("sa1"), RF }, 4,
    "Cannot send 'RUN_FINISHED' while tool calls are still active: tc2, tc1" },
  { "rule-45-run-finished-subagents-open", FALSE,
    { RS, SAS ("sa2"), SAS ("sa1"), SAS ("sa3"), SAF ("sa1"), RF }, 5,
    "Cannot send 'RUN_FINISHED' while subagents are still active: sa2, sa3" },

  /* 11.11 Deliberately not rejected, and other streams that must pass */
  { "accept/several-open-at-once", FALSE,
    { RS, TMS ("m1"), TMS ("m2"), TCS ("tc1"), TCS ("tc2"), TMC ("m1"), TCA ("tc2"), TME ("m2"), TME ("m1"), TCE ("tc1"), TCE ("tc2"), RF }, -1, NULL },
  { "accept/reopen-closed-message", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), TMS_SA ("m1", "sa1"), TMC ("m1"), TME_SA ("m1", "sa1"), TMS ("m1"), TME ("m1"), RF }, -1, NULL },
  { "accept/tool-result-unknown-or-open-call", FALSE,
    { RS, TCR ("t1", "nope"), TCS ("tc1"), TCR ("t2", "tc1"), TCE ("tc1"), RF }, -1, NULL },
  { "accept/tool-result-in-later-run", FALSE,
    { RS, TCS ("tc1"), TCE ("tc1"), RF, RS, TCR ("t1", "tc1"), RF }, -1, NULL },
  { "accept/unknown-entities", FALSE,
    { RS, ACTD_SA ("a9", "sa1"), REV_SA ("message", "m9", "sa1"), REV_SA ("tool-call", "tc9", "sa1"), RF }, -1, NULL },
  { "accept/state-raw-custom", FALSE,
    { RS, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"a\":1}}",
      "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2}]}",
      "{\"type\":\"RAW\",\"event\":null}", "{\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":null}", RF }, -1, NULL },
  { "accept/run-ids-differ", FALSE,
    { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}", "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t2\",\"runId\":\"r2\"}" }, -1, NULL },
  { "accept/stream-ends-mid-run", FALSE,
    { RS, TMS ("m1"), TCS ("tc1"), SS ("s") }, -1, NULL },
  { "accept/run-error-first", FALSE,
    { RE, RS, RF }, -1, NULL },
  { "accept/run-error-after-run-finished", FALSE,
    { RS, RF, RE, RS, RF }, -1, NULL },
  { "accept/run-error-with-open-business", FALSE,
    { RS, TMS ("m1"), SS ("s"), SAS ("sa1"), RE, RS, TMS ("m1"), SS ("s"), SAS ("sa1"), SAF ("sa1"), SF ("s"), TME ("m1"), RF }, -1, NULL },
  { "accept/run-reset-after-run-finished", FALSE,
    { RS, SAS ("sa1"), SAF ("sa1"), TMS_SA ("m1", "sa1"), TME ("m1"), RF,
      RS, SAS ("sa1"), TMS_SA ("m1", "sa2"), TME_SA ("m1", "sa2"), SAF ("sa1"), RF }, -1, NULL },
  { "accept/owner-is-first-opener", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), TMS ("m1"), TME_SA ("m1", "sa1"),
      RSTART_SA ("r1", "sa1"), REND ("r1"), RSTART ("r1"), RMS ("r1"), RME_SA ("r1", "sa1"), REND_SA ("r1", "sa1"), RF }, -1, NULL },
  { "accept/untagged-continuation", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TMC ("m1"), TME ("m1"), RSTART_SA ("r1", "sa1"), REND ("r1"), RF }, -1, NULL },
  { "accept/attribution-without-lifecycle", FALSE,
    { RS, TMS_SA ("m1", "sa9"), TMC_SA ("m1", "sa9"), TME_SA ("m1", "sa9"), SS_SA ("s", "sa9"), SF_SA ("s", "sa9"), RF }, -1, NULL },
  { "accept/steps-same-name-per-owner", FALSE,
    { RS, SS ("plan"), SS_SA ("plan", "sa1"), SS_SA ("plan", "sa2"), SF_SA ("plan", "sa1"), SF ("plan"), SF_SA ("plan", "sa2"), RF }, -1, NULL },
  { "accept/nested-subagent-parent-finished", FALSE,
    { RS, SAS ("sa1"), SAS_P ("sa2", "sa1"), SAF ("sa1"), SAS_P ("sa3", "sa1"), SAF ("sa2"), SAE ("sa3"), RF }, -1, NULL },
  { "accept/tool-call-owner-from-parent-message", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), TCS_P ("tc1", "m1"), TCA_SA ("tc1", "sa1"), TCE ("tc1"), TCS_P_SA ("tc1", "m1", "sa1"), TCE ("tc1"), RF }, -1, NULL },
  { "accept/tool-result-overwrites-owner", FALSE,
    { RS, TMS_SA ("t1", "sa1"), TME ("t1"),
      "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"ok\",\"subagentRunId\":\"sa2\"}",
      REV_SA ("message", "t1", "sa2"), RF }, -1, NULL },
  { "accept/activity-replace-overwrites-owner", FALSE,
    { RS, ACT_SA ("a1", "sa1"), ACT_SA ("a1", "sa2"), ACTD_SA ("a1", "sa2"), RF }, -1, NULL },
  { "accept/input-messages-record-owners", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"), RF,
      "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r2\",\"input\":{\"threadId\":\"t\",\"runId\":\"r2\",\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"x\",\"subagentRunId\":\"sa2\"}]}}",
      TMS_SA ("m1", "sa2"), TME ("m1"), RF }, -1, NULL },
  { "accept/snapshot-overwrites-owner", FALSE,
    { RS, TMS_SA ("m1", "sa1"), TME ("m1"),
      "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"x\",\"subagentRunId\":\"sa2\"}]}",
      TMS_SA ("m1", "sa2"), TME ("m1"), RF }, -1, NULL },
  { "accept/ids-are-namespaced", FALSE,
    { RS, TMS ("x"), TCS ("x"), RSTART ("x"), RMS ("x"), ACT_SA ("x", "sa1"), SS ("x"), SAS ("x"),
      SAF ("x"), SF ("x"), RME ("x"), REND ("x"), TCE ("x") }, -1, NULL },
};

static AguiEvent *
event_new (const char *json,
           gboolean    trusted)
{
  g_autoptr(GError) error = NULL;
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiEventType type;

  if (!trusted)
    {
      AguiEvent *event = agui_event_new_from_string (json, -1, &error);

      g_assert_no_error (error);
      g_assert_nonnull (event);
      return event;
    }

  g_assert_true (_agui_json_doc_parse (json, -1, &tree, &error));
  g_assert_no_error (error);
  g_assert_true (agui_event_type_from_string (_agui_json_doc_get_string (&tree, "type"), &type));

  return _agui_event_new_tree (type, &tree);
}

static void
test_verifier_case (gconstpointer data)
{
  const VerifierCase *test_case = data;
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();
  guint n_events = 0;

  while (n_events < G_N_ELEMENTS (test_case->events) && test_case->events[n_events] != NULL)
    n_events++;

  /* A failure must be the last event listed: what follows is never checked. */
  g_assert_true (test_case->fail_at == -1 || test_case->fail_at == (int) n_events - 1);
  g_assert_true ((test_case->fail_at == -1) == (test_case->error == NULL));

  for (guint i = 0; i < n_events; i++)
    {
      g_autoptr(AguiEvent) event = event_new (test_case->events[i], test_case->trusted);
      g_autoptr(GError) error = NULL;
      gboolean ok;

      ok = _agui_verifier_check (verifier, event, &error);

      if ((int) i == test_case->fail_at)
        {
          g_assert_false (ok);
          g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL);
          g_assert_cmpstr (error->message, ==, test_case->error);
        }
      else
        {
          if (error != NULL)
            g_test_message ("event %u (%s) rejected", i, test_case->events[i]);
          g_assert_no_error (error);
          g_assert_true (ok);
        }
    }
}

static gboolean
check (AguiVerifier  *verifier,
       const char    *json,
       GError       **error)
{
  g_autoptr(AguiEvent) event = event_new (json, FALSE);

  return _agui_verifier_check (verifier, event, error);
}

static void
test_rejected_event_changes_nothing (void)
{
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();
  g_autoptr(GError) error = NULL;

  g_test_summary ("A rejected event leaves the state as it was");

  g_assert_false (check (verifier, TMS ("m1"), &error));
  g_assert_cmpstr (error->message, ==, "First event must be 'RUN_STARTED'");
  g_clear_error (&error);

  g_assert_true (check (verifier, RS, NULL));
  g_assert_true (check (verifier, TMS ("m1"), NULL));
  g_assert_false (check (verifier, TMS ("m1"), &error));
  g_clear_error (&error);
  g_assert_false (check (verifier, SF ("s"), &error));
  g_clear_error (&error);
  g_assert_false (check (verifier, TCS_P_SA ("tc1", "m1", "sa1"), &error));
  g_clear_error (&error);
  g_assert_true (check (verifier, TMC ("m1"), NULL));
  g_assert_true (check (verifier, TME ("m1"), NULL));
  g_assert_true (check (verifier, TCS_P ("tc1", "m1"), NULL));
  g_assert_true (check (verifier, TCE ("tc1"), NULL));
  g_assert_true (check (verifier, RF, NULL));
}

static void
test_reset (void)
{
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();
  g_autoptr(GError) error = NULL;

  g_test_summary ("reset makes the next event the first of a new stream");

  g_assert_true (check (verifier, RS, NULL));
  g_assert_true (check (verifier, TMS_SA ("m1", "sa1"), NULL));
  g_assert_true (check (verifier, SS ("s"), NULL));

  _agui_verifier_reset (verifier);

  g_assert_false (check (verifier, TME ("m1"), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL);
  g_assert_cmpstr (error->message, ==, "First event must be 'RUN_STARTED'");
  g_clear_error (&error);

  g_assert_true (check (verifier, RS, NULL));
  g_assert_true (check (verifier, TMS_SA ("m1", "sa2"), NULL));
  g_assert_true (check (verifier, TME ("m1"), NULL));
  g_assert_true (check (verifier, RF, NULL));

  _agui_verifier_reset (verifier);
  g_assert_true (check (verifier, RE, NULL));
}

static void
test_many_entities (void)
{
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) expected = g_string_new ("Cannot send 'RUN_FINISHED' while tool calls are still active: ");

  g_test_summary ("Open and close many entities; the error lists what is left, oldest first");

  g_assert_true (check (verifier, RS, NULL));

  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *start = g_strdup_printf (TCS ("tc%u"), i);

      g_assert_true (check (verifier, start, NULL));
    }

  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *end = NULL;

      if (i % 500 == 7)
        {
          g_string_append_printf (expected, "%stc%u", i == 7 ? "" : ", ", i);
          continue;
        }

      end = g_strdup_printf (TCE ("tc%u"), i);
      g_assert_true (check (verifier, end, NULL));
    }

  g_assert_false (check (verifier, RF, &error));
  g_assert_cmpstr (error->message, ==, expected->str);
}

/* The reference fixtures, through chunk expansion and verification. */

/* Whether the fixture's run fails before chunk expansion (at the
 * transport, the schema or the client), so that this stage never sees
 * it. Such a fixture is not registered here: test-fixtures runs every
 * fixture through the whole pipeline, and a skip here would only say
 * nothing in every run. */
static gboolean
fails_before_chunk_expansion (const char *filename)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *expected;
  const char *stage;

  g_assert_true (json_parser_load_from_file (parser, filename, &error));
  g_assert_no_error (error);
  expected = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "expected");
  stage = json_object_get_string_member_with_default (expected, "errorStage", NULL);

  return g_strcmp0 (stage, "transport") == 0 ||
         g_strcmp0 (stage, "enforce") == 0 ||
         g_strcmp0 (stage, "client") == 0;
}

static void
test_fixture (gconstpointer data)
{
  const char *filename = data;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(AguiVerifier) verifier = _agui_verifier_new ();
  g_autoptr(AguiEventParser) event_parser = _agui_event_parser_new ();
  /* Ids the parser mints, for the fixture's "<minted-N>" */
  g_autoptr(GHashTable) minted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(GPtrArray) applied = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(GError) run_error = NULL;
  JsonObject *fixture;
  JsonObject *expected;
  JsonArray *input;
  JsonArray *expected_events;
  const char *expected_stage;
  const char *stage = NULL;

  g_assert_true (json_parser_load_from_file (parser, filename, &error));
  g_assert_no_error (error);
  fixture = json_node_get_object (json_parser_get_root (parser));
  expected = json_object_get_object_member (fixture, "expected");

  /* The events as the parser stage hands them on: deprecated THINKING_*
   * translated, legacy fields read, unknown types dropped. */
  input = json_object_get_array_member (fixture, "events");
  for (guint i = 0; i < json_array_get_length (input); i++)
    {
      g_autoptr(GError) parse_error = NULL;
      AguiEvent *event;

      event = _agui_event_parser_parse_node (event_parser, json_array_get_element (input, i), &parse_error);
      g_assert_no_error (parse_error);
      if (event != NULL)
        g_ptr_array_add (events, event);
    }

  for (guint i = 0; i < events->len && stage == NULL; i++)
    {
      g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      g_autoptr(GError) chunk_error = NULL;
      gboolean expanded;

      expanded = _agui_chunk_normalizer_push (normalizer, g_ptr_array_index (events, i), out, &chunk_error);

      /* What the expander emitted before failing is still verified and
       * applied, as the reference's stream does. */
      for (guint j = 0; j < out->len && stage == NULL; j++)
        {
          AguiEvent *event = g_ptr_array_index (out, j);

          if (_agui_verifier_check (verifier, event, &run_error))
            g_ptr_array_add (applied, agui_event_ref (event));
          else
            stage = "verify";
        }

      if (!expanded && stage == NULL)
        {
          g_assert_error (chunk_error, AGUI_ERROR, AGUI_ERROR_CHUNK);
          run_error = g_steal_pointer (&chunk_error);
          stage = "chunks";
        }
    }

  expected_stage = json_object_get_string_member_with_default (expected, "errorStage", NULL);
  if (run_error != NULL)
    g_test_message ("run failed at %s: %s", stage, run_error->message);
  g_assert_cmpstr (stage, ==, expected_stage);
  g_assert_cmpstr (agui_stage_to_string (agui_stage_from_error (run_error)), ==, expected_stage);

  if (run_error != NULL)
    {
      JsonNode *portable = json_object_get_member (expected, "errorTextPortable");

      if (portable == NULL || JSON_NODE_HOLDS_NULL (portable) || json_node_get_boolean (portable))
        g_assert_cmpstr (run_error->message, ==, json_object_get_string_member (expected, "verifyError"));
    }

  expected_events = json_object_get_array_member (expected, "appliedEvents");
  for (guint i = 0; i < MAX (applied->len, json_array_get_length (expected_events)); i++)
    {
      g_autofree char *got = i < applied->len ? agui_event_to_string (g_ptr_array_index (applied, i)) : NULL;
      g_autofree char *want = i < json_array_get_length (expected_events) ? json_to_string (json_array_get_element (expected_events, i), FALSE) : NULL;
      g_autoptr(JsonNode) got_node = i < applied->len ? agui_event_to_json (g_ptr_array_index (applied, i)) : NULL;

      if (got == NULL || want == NULL ||
          !agui_test_json_matches (json_array_get_element (expected_events, i), got_node, minted))
        {
          g_test_fail_printf ("applied event %u: expected %s, got %s", i,
                              want != NULL ? want : "(nothing)", got != NULL ? got : "(nothing)");
          return;
        }
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  /* g_ptr_array_sort() passes pointers to the elements. */
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_fixture_tests (void)
{
  g_autofree char *dirname = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  dir = g_dir_open (dirname, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_suffix (name, ".json"))
        g_ptr_array_add (names, g_strdup (name));
    }

  g_assert_cmpuint (names->len, >, 0);
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *stem = g_strndup (file, strlen (file) - strlen (".json"));
      g_autofree char *path = g_strdup_printf ("/agui/verifier/fixtures/%s", stem);
      g_autofree char *filename = g_build_filename (dirname, file, NULL);

      if (fails_before_chunk_expansion (filename))
        continue;

      g_test_add_data_func_full (path, g_steal_pointer (&filename), test_fixture, g_free);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (verifier_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/verifier/%s", verifier_cases[i].path);

      g_test_add_data_func (path, &verifier_cases[i], test_verifier_case);
    }

  g_test_add_func ("/agui/verifier/rejected-event-changes-nothing", test_rejected_event_changes_nothing);
  g_test_add_func ("/agui/verifier/reset", test_reset);
  g_test_add_func ("/agui/verifier/many-entities", test_many_entities);
  add_fixture_tests ();

  return g_test_run ();
}
