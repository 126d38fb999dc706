/* tandem-block.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agui.h"

G_BEGIN_DECLS

/**
 * TandemBlockKind:
 * @TANDEM_BLOCK_USER: a message of the person's, drawn whole
 * @TANDEM_BLOCK_MARKDOWN: a stretch of an agent's text, as Markdown
 * @TANDEM_BLOCK_TEXT: a text of another role (system, developer, tool), plain
 * @TANDEM_BLOCK_REASONING: a reasoning section
 * @TANDEM_BLOCK_TOOL_CALL: one tool card
 * @TANDEM_BLOCK_ACTIVITY: one activity card
 * @TANDEM_BLOCK_MEDIA: an image, audio, video or file part
 *
 * What one row of the transcript view shows.
 */
typedef enum
{
  TANDEM_BLOCK_USER,
  TANDEM_BLOCK_MARKDOWN,
  TANDEM_BLOCK_TEXT,
  TANDEM_BLOCK_REASONING,
  TANDEM_BLOCK_TOOL_CALL,
  TANDEM_BLOCK_ACTIVITY,
  TANDEM_BLOCK_MEDIA,
} TandemBlockKind;

typedef struct _TandemBlockContext TandemBlockContext;

#define TANDEM_TYPE_BLOCK (tandem_block_get_type ())
G_DECLARE_FINAL_TYPE (TandemBlock, tandem_block, TANDEM, BLOCK, GObject)

TandemBlock     *tandem_block_new             (TandemBlockKind  kind,
                                               AguiSpeakerTurn *message,
                                               AguiPart        *part);
TandemBlockKind  tandem_block_get_kind        (TandemBlock     *self);
AguiSpeakerTurn *tandem_block_get_message     (TandemBlock     *self);
AguiPart        *tandem_block_get_part        (TandemBlock     *self);
gboolean         tandem_block_get_first       (TandemBlock     *self);
gboolean         tandem_block_get_continued   (TandemBlock     *self);
gsize            tandem_block_get_start       (TandemBlock     *self);
gboolean         tandem_block_get_last_of_part (TandemBlock    *self);
const char      *tandem_block_peek_text       (TandemBlock     *self,
                                               gsize           *length);
AguiTranscript  *tandem_block_get_transcript  (TandemBlock     *self);

/* For TandemBlockList */
void             tandem_block_set_first       (TandemBlock     *self,
                                               gboolean         first);
void             tandem_block_set_range       (TandemBlock     *self,
                                               gsize            start,
                                               gsize            end,
                                               gboolean         continued);
void             tandem_block_text_changed    (TandemBlock     *self);
AguiAgentSession *tandem_block_get_session    (TandemBlock      *self);
void             tandem_block_set_context     (TandemBlock        *self,
                                               TandemBlockContext *context);
TandemBlockContext *tandem_block_context_new    (AguiTranscript     *transcript);
TandemBlockContext *tandem_block_context_ref    (TandemBlockContext *context);
void                tandem_block_context_unref  (TandemBlockContext *context);
void                tandem_block_context_set_session (TandemBlockContext *context,
                                                      AguiAgentSession   *session);
gboolean         tandem_block_get_collapsed   (TandemBlock     *self);
void             tandem_block_set_collapsed   (TandemBlock     *self,
                                               gboolean         collapsed);

G_END_DECLS
