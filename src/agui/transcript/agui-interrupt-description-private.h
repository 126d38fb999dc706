/* agui-interrupt-description-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-interrupt.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

/* What the person is shown of an interrupt, the same in the approval
 * dialog and in tandem-cli: whether it is a yes/no question, the agent's
 * own words for it, and what answering lets the agent do. Each front end
 * words the rest (a fallback question, labels) itself. */
typedef enum
{
  AGUI_INTERRUPT_ACTION_NONE,
  /* a call in the transcript (toolCallId): tool_name and the arguments */
  AGUI_INTERRUPT_ACTION_CALL,
  /* a toolCallId the transcript does not hold: only the id is known */
  AGUI_INTERRUPT_ACTION_UNKNOWN_CALL,
  /* a tool named in the metadata (Mastra's `metadata.mastra`, or a plain
   * `toolName` and `args`): tool_name and the arguments */
  AGUI_INTERRUPT_ACTION_METADATA_TOOL,
  /* metadata of no known shape: details */
  AGUI_INTERRUPT_ACTION_DETAILS,
} AguiInterruptActionKind;

typedef struct
{
  gboolean                 approval;
  /* the interrupt's message, else the reason a metadata tool gives; NULL
   * when the agent put the question in no words */
  const char              *question;
  AguiInterruptActionKind  action;
  const char              *tool_call_id;
  char                    *tool_name;
  /* the arguments as JSON, when they are; and as they are shown:
   * indented JSON, or the text the agent sent when it is not JSON */
  JsonNode                *arguments;
  char                    *arguments_text;
  JsonObject              *details;
} AguiInterruptDescription;

void _agui_interrupt_describe          (AguiInterrupt            *self,
                                        AguiTranscript           *transcript,
                                        AguiInterruptDescription *description);
void _agui_interrupt_description_clear (AguiInterruptDescription *description);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AguiInterruptDescription, _agui_interrupt_description_clear)

G_END_DECLS
