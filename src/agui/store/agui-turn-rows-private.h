/* agui-turn-rows-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store-private.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

/* A turn as the rows the store writes: plain strings, made on the
 * caller's thread, so that no JSON crosses to the store's worker. The
 * thread is created with @title and @agent if it does not exist, in the
 * turn's transaction. Rows are immutable and reference-counted. */
struct _AguiTurnRows
{
  gatomicrefcount     ref_count;
  char               *thread_id;
  char               *snapshot_id;
  char               *parent_id;
  char               *run_id;
  int                 turn_index;
  AguiSnapshotStatus  status;
  char               *finish_reason;
  char               *error;
  char               *title;
  char               *agent;
  GPtrArray          *event_json;
  /* Each message printed alone: the store keeps a message once, and a
   * snapshot names its messages */
  GPtrArray          *message_json;
  char               *state;
  GPtrArray          *interrupts;
  GStrv               journal_ids;
};

AguiTurnRows *_agui_turn_rows_new             (const AguiTurnRecord *turn,
                                               const char           *title,
                                               const char           *agent,
                                               GError              **error);
/* @what begins each error message */
AguiTurnRows *_agui_turn_rows_new_full        (const AguiTurnRecord *turn,
                                               const char           *title,
                                               const char           *agent,
                                               const char           *what,
                                               GError              **error);
AguiTurnRows *_agui_turn_rows_ref             (AguiTurnRows         *rows);
void          _agui_turn_rows_unref           (AguiTurnRows         *rows);
const char   *_agui_turn_rows_get_snapshot_id (AguiTurnRows         *rows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiTurnRows, _agui_turn_rows_unref)

/* Makes a turn's rows a slice at a time, so that the main loop keeps
 * drawing while a long turn is prepared: its events are compacted and
 * printed, and its messages read from @transcript and printed, one at
 * a time. Between slices the caller must keep @transcript and the
 * turn's events as they were (a session is busy until its turn is
 * saved). @turn's messages are not read: @transcript's are. */
typedef struct _AguiTurnRowsBuilder AguiTurnRowsBuilder;

AguiTurnRowsBuilder *_agui_turn_rows_builder_new  (const AguiTurnRecord  *turn,
                                                   AguiTranscript        *transcript,
                                                   const char            *title,
                                                   const char            *agent,
                                                   GError               **error);
/* Works for about @budget microseconds. Returns FALSE with @error if
 * the turn cannot be stored, else TRUE, with @done set once the rows
 * are whole. */
gboolean             _agui_turn_rows_builder_step (AguiTurnRowsBuilder   *self,
                                                   gint64                 budget,
                                                   gboolean              *done,
                                                   GError               **error);
AguiTurnRows        *_agui_turn_rows_builder_end  (AguiTurnRowsBuilder   *self);
void                 _agui_turn_rows_builder_free (AguiTurnRowsBuilder   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiTurnRowsBuilder, _agui_turn_rows_builder_free)

G_END_DECLS
