/* agui-turn-recorder-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agui-session-store.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

/* Persists a session's turns: each turn ends as a snapshot chained to the
 * one before it, written on a worker thread so that a long log never
 * holds up the conversation. It keeps the chain's end (the last snapshot
 * and the turn index), why the last save failed, and what a retry must
 * write again.
 *
 * The recorder's state is its owner's: the owner is told what changed
 * through @changed, and announces it as it sees fit. */
typedef struct _AguiTurnRecorder AguiTurnRecorder;

typedef enum
{
  AGUI_TURN_RECORDER_CHANGED_CHAIN       = 1 << 0,  /* the last snapshot and the turn index */
  AGUI_TURN_RECORDER_CHANGED_STORE_ERROR = 1 << 1,
} AguiTurnRecorderChanges;

typedef void (*AguiTurnRecorderChanged) (GObject                 *owner,
                                         AguiTurnRecorderChanges  changes);

AguiTurnRecorder *_agui_turn_recorder_new                  (GObject              *owner,
                                                            AguiTurnRecorderChanged  changed,
                                                            AguiSessionStore     *store,
                                                            const char           *thread_id,
                                                            const char           *agent,
                                                            const char           *default_title);
void              _agui_turn_recorder_free                 (AguiTurnRecorder     *self);
char             *_agui_turn_recorder_reserve_snapshot_id  (AguiTurnRecorder     *self);
gboolean          _agui_turn_recorder_save_async           (AguiTurnRecorder     *self,
                                                            AguiTranscript       *transcript,
                                                            const char           *snapshot_id,
                                                            gboolean              cancelled,
                                                            GPtrArray            *events,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
void              _agui_turn_recorder_save_finish          (AguiTurnRecorder     *self,
                                                            GAsyncResult         *result);
void              _agui_turn_recorder_retry_async          (AguiTurnRecorder     *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
gboolean          _agui_turn_recorder_retry_finish         (AguiTurnRecorder     *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
void              _agui_turn_recorder_restore              (AguiTurnRecorder     *self,
                                                            const char           *snapshot_id,
                                                            guint                 turn_index);
const char       *_agui_turn_recorder_get_last_snapshot_id (AguiTurnRecorder     *self);
guint             _agui_turn_recorder_get_turn_index       (AguiTurnRecorder     *self);
const GError     *_agui_turn_recorder_get_store_error      (AguiTurnRecorder     *self);
void              _agui_turn_recorder_set_store_error      (AguiTurnRecorder     *self,
                                                            const GError         *error);
char             *_agui_turn_recorder_dup_title            (AguiTurnRecorder     *self,
                                                            AguiTranscript       *transcript);
/* The journal of the turn in flight (see agui-session-store-private.h) */
void              _agui_turn_recorder_journal_begin        (AguiTurnRecorder     *self,
                                                            AguiTranscript       *transcript,
                                                            const char           *snapshot_id);
void              _agui_turn_recorder_journal_add          (AguiTurnRecorder     *self,
                                                            AguiEvent            *event);
void              _agui_turn_recorder_journal_add_all      (AguiTurnRecorder     *self,
                                                            GPtrArray            *events);
void              _agui_turn_recorder_journal_flush_async  (AguiTurnRecorder     *self,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
void              _agui_turn_recorder_journal_flush_finish (AguiTurnRecorder     *self,
                                                            GAsyncResult         *result);
void              _agui_turn_recorder_adopt_journals       (AguiTurnRecorder     *self,
                                                            GPtrArray            *events,
                                                            const char * const   *snapshot_ids);
/* Drops a reference to a turn's events (AguiEvents); a long turn's
 * events whose last reference this was are freed a slice at a time
 * from the main loop. */
void              _agui_turn_recorder_release_events       (GPtrArray            *events);

G_END_DECLS
