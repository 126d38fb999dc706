/* agui-types.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <glib-object.h>

#include "agui-version-macros.h"

G_BEGIN_DECLS

#define AGUI_ERROR (agui_error_quark ())

/**
 * AguiError:
 * @AGUI_ERROR_FAILED: a failure with no more specific code
 * @AGUI_ERROR_INVALID_FRAME: the SSE body is not valid UTF-8 or a frame is over the size cap
 * @AGUI_ERROR_INVALID_JSON: a frame's data is not a JSON object carrying an event type
 * @AGUI_ERROR_INVALID_EVENT: an event breaks the protocol schema (a missing or mistyped member)
 * @AGUI_ERROR_CHUNK: a `*_CHUNK` event cannot be expanded
 * @AGUI_ERROR_PROTOCOL: the event stream breaks the protocol's state machine
 * @AGUI_ERROR_PATCH: a JSON Patch could not be applied
 * @AGUI_ERROR_CONFIG: a transport was configured with a bad URL or header
 * @AGUI_ERROR_CONNECT: the agent could not be reached
 * @AGUI_ERROR_HTTP_STATUS: the agent answered with a status outside 2xx
 * @AGUI_ERROR_STREAM: the response broke off or stalled mid-stream
 * @AGUI_ERROR_UNSUPPORTED: the agent answered in a format this client does not speak
 * @AGUI_ERROR_RUN: the agent ended the run with `RUN_ERROR`
 * @AGUI_ERROR_INTERRUPTED: the thread waits for answers to its interrupts
 * @AGUI_ERROR_INVALID_ARGUMENT: the caller passed input the protocol does not allow
 * @AGUI_ERROR_EXPIRED: an interrupt's answer came after it expired
 * @AGUI_ERROR_STORE: the session store could not read or write
 *
 * Error codes in the %AGUI_ERROR domain.
 */
typedef enum
{
  AGUI_ERROR_FAILED,
  AGUI_ERROR_INVALID_FRAME,
  AGUI_ERROR_INVALID_JSON,
  AGUI_ERROR_INVALID_EVENT,
  AGUI_ERROR_CHUNK,
  AGUI_ERROR_PROTOCOL,
  AGUI_ERROR_PATCH,
  AGUI_ERROR_CONFIG,
  AGUI_ERROR_CONNECT,
  AGUI_ERROR_HTTP_STATUS,
  AGUI_ERROR_STREAM,
  AGUI_ERROR_UNSUPPORTED,
  AGUI_ERROR_RUN,
  AGUI_ERROR_INTERRUPTED,
  AGUI_ERROR_INVALID_ARGUMENT,
  AGUI_ERROR_EXPIRED,
  AGUI_ERROR_STORE,
} AguiError;

/**
 * AguiStage:
 * @AGUI_STAGE_NONE: no stage failed
 * @AGUI_STAGE_CLIENT: the client refused to start the run (nothing was sent)
 * @AGUI_STAGE_TRANSPORT: HTTP, SSE framing or JSON framing
 * @AGUI_STAGE_ENFORCE: schema enforcement
 * @AGUI_STAGE_CHUNKS: chunk expansion
 * @AGUI_STAGE_VERIFY: the protocol state machine
 * @AGUI_STAGE_AGENT: the agent reported the failure itself (`RUN_ERROR`)
 *
 * The pipeline stage at which a run failed.
 */
typedef enum
{
  AGUI_STAGE_NONE,
  AGUI_STAGE_CLIENT,
  AGUI_STAGE_TRANSPORT,
  AGUI_STAGE_ENFORCE,
  AGUI_STAGE_CHUNKS,
  AGUI_STAGE_VERIFY,
  AGUI_STAGE_AGENT,
} AguiStage;

/**
 * AguiRole:
 * @AGUI_ROLE_USER: the person
 * @AGUI_ROLE_ASSISTANT: the agent (a turn of it: text, reasoning, tool calls, activities)
 * @AGUI_ROLE_SYSTEM: a system prompt
 * @AGUI_ROLE_DEVELOPER: a developer prompt
 * @AGUI_ROLE_TOOL: a tool's answer
 * @AGUI_ROLE_REASONING: the agent's visible reasoning
 * @AGUI_ROLE_ACTIVITY: structured progress (a plan, a search)
 *
 * The role of an AG-UI message.
 */
typedef enum
{
  AGUI_ROLE_USER,
  AGUI_ROLE_ASSISTANT,
  AGUI_ROLE_SYSTEM,
  AGUI_ROLE_DEVELOPER,
  AGUI_ROLE_TOOL,
  AGUI_ROLE_REASONING,
  AGUI_ROLE_ACTIVITY,
} AguiRole;

/**
 * AguiToolCallStatus:
 * @AGUI_TOOL_CALL_STREAMING: the arguments are still arriving
 * @AGUI_TOOL_CALL_AWAITING_RESULT: the call is complete; nobody has answered it yet
 * @AGUI_TOOL_CALL_AWAITING_APPROVAL: the run stopped to ask the person about this call
 * @AGUI_TOOL_CALL_COMPLETE: the tool answered
 * @AGUI_TOOL_CALL_FAILED: the tool answered with an error
 * @AGUI_TOOL_CALL_APPROVED: the person approved the call; its result has not come yet
 * @AGUI_TOOL_CALL_APPROVED_EDITED: the person approved the call with changed arguments; its result has not come yet
 * @AGUI_TOOL_CALL_DENIED: the person refused the call
 * @AGUI_TOOL_CALL_CANCELLED: the person dismissed the question about the call
 * @AGUI_TOOL_CALL_DECLINED: the person refused to let a tool on this computer run
 * @AGUI_TOOL_CALL_EXPIRED: the question about the call expired unanswered
 * @AGUI_TOOL_CALL_NO_RESULT: the run that should have answered the call ended without a result for it
 *
 * Where a tool call stands. The person's answer outranks the result: a
 * denied call stays denied whatever the agent then reports for it.
 */
typedef enum
{
  AGUI_TOOL_CALL_STREAMING,
  AGUI_TOOL_CALL_AWAITING_RESULT,
  AGUI_TOOL_CALL_AWAITING_APPROVAL,
  AGUI_TOOL_CALL_COMPLETE,
  AGUI_TOOL_CALL_FAILED,
  AGUI_TOOL_CALL_APPROVED,
  AGUI_TOOL_CALL_APPROVED_EDITED,
  AGUI_TOOL_CALL_DENIED,
  AGUI_TOOL_CALL_CANCELLED,
  AGUI_TOOL_CALL_DECLINED,
  AGUI_TOOL_CALL_EXPIRED,
  AGUI_TOOL_CALL_NO_RESULT,
} AguiToolCallStatus;

/**
 * AguiAttempt:
 * @AGUI_ATTEMPT_NONE: the part belongs to a run that ended normally, or is still running
 * @AGUI_ATTEMPT_FAILED: the part belongs to a run that failed
 * @AGUI_ATTEMPT_STOPPED: the part belongs to a run the person stopped
 *
 * How the run a part came from ended, when it did not end normally.
 */
typedef enum
{
  AGUI_ATTEMPT_NONE,
  AGUI_ATTEMPT_FAILED,
  AGUI_ATTEMPT_STOPPED,
} AguiAttempt;

/**
 * AguiAnswer:
 * @AGUI_ANSWER_NONE: nobody has answered a question about the call
 * @AGUI_ANSWER_APPROVED: approved as the agent asked
 * @AGUI_ANSWER_APPROVED_EDITED: approved with changed arguments
 * @AGUI_ANSWER_DENIED: refused
 * @AGUI_ANSWER_CANCELLED: the question was dismissed unanswered
 * @AGUI_ANSWER_EXPIRED: the question expired before it was answered
 * @AGUI_ANSWER_ANSWERED: answered with a value (input the agent asked for)
 * @AGUI_ANSWER_DECLINED: the person refused to let a tool on this computer run
 *
 * What the person answered when asked about a tool call.
 */
typedef enum
{
  AGUI_ANSWER_NONE,
  AGUI_ANSWER_APPROVED,
  AGUI_ANSWER_APPROVED_EDITED,
  AGUI_ANSWER_DENIED,
  AGUI_ANSWER_CANCELLED,
  AGUI_ANSWER_EXPIRED,
  AGUI_ANSWER_ANSWERED,
  AGUI_ANSWER_DECLINED,
} AguiAnswer;

/**
 * AguiRunStatus:
 * @AGUI_RUN_IDLE: no run has started
 * @AGUI_RUN_RUNNING: a run is streaming
 * @AGUI_RUN_FINISHED: the last run finished (successfully, cancelled or interrupted)
 * @AGUI_RUN_FAILED: the last run failed
 *
 * The state of a thread's latest run.
 */
typedef enum
{
  AGUI_RUN_IDLE,
  AGUI_RUN_RUNNING,
  AGUI_RUN_FINISHED,
  AGUI_RUN_FAILED,
} AguiRunStatus;

/**
 * AguiRunOutcome:
 * @AGUI_OUTCOME_NONE: the run has not finished
 * @AGUI_OUTCOME_SUCCESS: it completed
 * @AGUI_OUTCOME_INTERRUPT: it paused to ask; the next run must resume it
 * @AGUI_OUTCOME_CANCELLED: whoever ran it stopped it
 *
 * How a finished run ended.
 */
typedef enum
{
  AGUI_OUTCOME_NONE,
  AGUI_OUTCOME_SUCCESS,
  AGUI_OUTCOME_INTERRUPT,
  AGUI_OUTCOME_CANCELLED,
} AguiRunOutcome;

typedef struct _AguiEvent AguiEvent;
typedef struct _AguiRunState AguiRunState;

AGUI_AVAILABLE_IN_ALL
GQuark      agui_error_quark          (void);
AGUI_AVAILABLE_IN_ALL
AguiStage   agui_stage_from_error     (const GError *error);
AGUI_AVAILABLE_IN_ALL
const char *agui_stage_to_string      (AguiStage     stage);
AGUI_AVAILABLE_IN_ALL
const char *agui_role_to_string       (AguiRole      role);
AGUI_AVAILABLE_IN_ALL
gboolean    agui_role_from_string     (const char   *name,
                                       AguiRole     *role);

G_END_DECLS
