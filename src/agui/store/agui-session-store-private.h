/* agui-session-store-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store.h"
#include "agui-transcript-private.h"

G_BEGIN_DECLS

/* Everything _agui_session_store_save_turn() writes for one turn: the
 * thread, the snapshot id reserved for it (unique in the store), the
 * previous snapshot's id (NULL for the first turn), the turn's position
 * (failed and aborted turns included), how it ended, why the agent
 * stopped and what went wrong (either may be NULL), the thread's AG-UI
 * messages and state after it, its raw events (AguiEvent, in order), the
 * interrupts the thread waits on after it and the run it ended on. The
 * caller owns the record and its members; the store only reads them. */
typedef struct
{
  const char         *thread_id;
  const char         *snapshot_id;
  const char         *parent_id;
  int                 turn_index;
  AguiSnapshotStatus  status;
  const char         *finish_reason;
  const char         *error;
  const AguiJsonValue *messages;            /* an array, or NULL */
  const AguiJsonValue *state;               /* NULL: none */
  GPtrArray          *events;
  const AguiJsonValue *pending_interrupts;  /* an array, or NULL */
  const char         *run_id;
  /* The turns whose journals this turn's events take in (NULL-terminated,
   * may be NULL): their rows go in the turn's transaction. */
  const char * const *journal_ids;
} AguiTurnRecord;

/* A turn as the rows the store writes (see agui-turn-rows-private.h) */
typedef struct _AguiTurnRows AguiTurnRows;

/* Writes one turn synchronously: the CLI and tests. A caller could write
 * an inconsistent snapshot chain with it, so it is not public; sessions
 * save through their turn recorder. */
gboolean   _agui_session_store_save_turn          (AguiSessionStore     *self,
                                                  const AguiTurnRecord *turn,
                                                  GError              **error);


/* Writes @rows in one transaction on the store's worker. */
void       _agui_session_store_write_rows_async  (AguiSessionStore     *self,
                                                  AguiTurnRows         *rows,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean   _agui_session_store_write_rows_finish (AguiSessionStore     *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
/* Takes @rows and lets them go on the store's worker */
void       _agui_session_store_release_rows      (AguiSessionStore     *self,
                                                  AguiTurnRows         *rows);

/* What an AguiThreadList reads, on the worker: every thread as an
 * AguiThreadInfo, newest first; and, for the threads whose message text
 * contains @search (every thread, or only @thread_id), thread id →
 * the snippet around the match. */
void        _agui_session_store_list_thread_infos_async  (AguiSessionStore     *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
GPtrArray  *_agui_session_store_list_thread_infos_finish (AguiSessionStore     *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
void        _agui_session_store_search_threads_async     (AguiSessionStore     *self,
                                                          const char           *search,
                                                          const char           *thread_id,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
GHashTable *_agui_session_store_search_threads_finish    (AguiSessionStore     *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

/* Test hook: caps the database at @max_pages pages (clamped by SQLite to
 * the current size), so the next write that needs a page fails as on a
 * full disk. Returns the cap in effect, or -1 on error. */
gint64     _agui_session_store_set_max_page_count (AguiSessionStore *self,
                                                  gint64            max_pages);

/* The journal: the events of a turn in flight (the person's message
 * first), appended as they come so that a crash loses at most the last
 * moments of an answer. Each batch is one transaction on the worker;
 * the turn, once saved, takes its journal in (see journal_ids above).
 * The rows are made on the caller's thread. */
typedef struct
{
  char      *thread_id;
  /* The turn in flight: its reserved snapshot id */
  char      *snapshot_id;
  /* For the thread's row, if the batch creates it */
  char      *title;
  char      *agent;
  /* Printed events, in order */
  GPtrArray *event_json;
  /* The first batch of a turn lists the thread at once (and bumps it to
   * the top); the ones after only append. */
  gboolean   first;
  /* If set, called on the worker just before the batch is written, to
   * set event_json (and first) to what waits by then: a batch takes
   * every event that came while it waited for the worker, and none waits
   * for the caller's main loop to hand it over. */
  void     (*take)      (gpointer          data,
                         GPtrArray       **event_json,
                         gboolean         *first);
  gpointer       take_data;
  GDestroyNotify take_data_free;
} AguiJournalRows;

void       _agui_journal_rows_free               (AguiJournalRows  *rows);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiJournalRows, _agui_journal_rows_free)

void       _agui_session_store_append_journal_async  (AguiSessionStore     *self,
                                                      AguiJournalRows      *rows,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean   _agui_session_store_append_journal_finish (AguiSessionStore     *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
/* The thread's journal, oldest first, as events: what a crash left of
 * the turns that were not saved. @snapshot_ids is set to the turns it
 * holds (their reserved ids), for the turn that takes it in. */
GPtrArray *_agui_session_store_load_journal      (AguiSessionStore     *self,
                                                  const char           *thread_id,
                                                  GStrv                *snapshot_ids,
                                                  GError              **error);

/* Drafts: what the person typed into a conversation and did not send.
 * An empty @text forgets it. */
void       _agui_session_store_set_draft_async   (AguiSessionStore     *self,
                                                  const char           *thread_id,
                                                  const char           *text,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean   _agui_session_store_set_draft_finish  (AguiSessionStore     *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
gboolean   _agui_session_store_set_draft         (AguiSessionStore     *self,
                                                  const char           *thread_id,
                                                  const char           *text,
                                                  GError              **error);
/* An empty string without a draft; NULL on error */
char      *_agui_session_store_dup_draft         (AguiSessionStore     *self,
                                                  const char           *thread_id,
                                                  GError              **error);
void       _agui_session_store_dup_draft_async   (AguiSessionStore     *self,
                                                  const char           *thread_id,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
char      *_agui_session_store_dup_draft_finish  (AguiSessionStore     *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

/* Surface values: what the person set in the A2UI surface activity
 * message @message_id drew, as {"/pointer": value, ...} in @json; read
 * back for the whole thread as {"message id": {...}, ...}. */
void        _agui_session_store_set_surface_values_async  (AguiSessionStore     *self,
                                                           const char           *thread_id,
                                                           const char           *message_id,
                                                           const char           *json,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
gboolean    _agui_session_store_set_surface_values_finish (AguiSessionStore     *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);
gboolean    _agui_session_store_set_surface_values        (AguiSessionStore     *self,
                                                           const char           *thread_id,
                                                           const char           *message_id,
                                                           const char           *json,
                                                           GError              **error);
JsonObject *_agui_session_store_dup_surface_values        (AguiSessionStore     *self,
                                                           const char           *thread_id,
                                                           GError              **error);
void        _agui_session_store_dup_surface_values_async  (AguiSessionStore     *self,
                                                           const char           *thread_id,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
JsonObject *_agui_session_store_dup_surface_values_finish (AguiSessionStore     *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/* The last snapshot, its messages only those that keep Tandem's own
 * state (all a restore needs of them) */
AguiTurnSnapshot *_agui_session_store_get_last_snapshot_for_restore (AguiSessionStore  *self,
                                                               const char        *thread_id,
                                                               GError           **error);

/* Any read of one thread, run on the store's worker in order with the
 * writes before it: @read makes blocking calls on the store and gives
 * what it read (freed with @free_result if nobody takes it), or NULL
 * with an error. Everything a program with a user interface reads or
 * writes goes through the worker this way. */
typedef gpointer (*AguiStoreThreadRead) (AguiSessionStore  *self,
                                         const char        *thread_id,
                                         GError           **error);

void       _agui_session_store_read_thread_async  (AguiSessionStore     *self,
                                                   const char           *thread_id,
                                                   AguiStoreThreadRead   read,
                                                   GDestroyNotify        free_result,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gpointer   _agui_session_store_read_thread_finish (AguiSessionStore     *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

/* Branches: which one the person chose (the snapshot it ends on), and
 * every snapshot of a thread, to rebuild them. */
gboolean   _agui_session_store_set_branch         (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  const char       *snapshot_id,
                                                  GError          **error);
char      *_agui_session_store_dup_branch         (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);
int        _agui_session_store_count_branches     (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);
void       _agui_session_store_set_branch_async   (AguiSessionStore    *self,
                                                  const char          *thread_id,
                                                  const char          *snapshot_id,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean   _agui_session_store_set_branch_finish  (AguiSessionStore    *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
/* AguiTurnSnapshot, in turn order; messages read of every one
 * @all_messages, else of those that end a branch */
GPtrArray *_agui_session_store_list_snapshots     (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  gboolean          all_messages,
                                                  GError          **error);
GHashTable *_agui_session_store_dup_run_times     (AguiSessionStore *self,
                                                  const char       *thread_id,
                                                  GError          **error);

G_END_DECLS
