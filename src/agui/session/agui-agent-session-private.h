/* agui-agent-session-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-agent-session.h"
#include "agui-input-messages-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"
#include "agui-tool-runner-private.h"
#include "agui-turn-recorder-private.h"

G_BEGIN_DECLS

/* The session spans files, one job each: agui-agent-session.c (the
 * object and its properties), -exchange.c (the queue of exchanges, their
 * runs and tool follow-ups, the turn saved), -restore.c (a stored thread
 * drawn again) and -branches.c (regenerate, edit, the branch chosen).
 * They share the object below. */

typedef enum
{
  EXCHANGE_SEND,
  EXCHANGE_RUN,
  EXCHANGE_RESUME,
} ExchangeKind;

typedef struct
{
  ExchangeKind       kind;
  JsonNode          *content;
  JsonArray         *answers;
  AguiRunParameters *parameters;
  /* An A2UI user action: forwarded with the first run only, so a tool
   * follow-up does not repeat what the person did. */
  JsonObject        *a2ui_action;
  /* A regenerated answer or an edited message: the row the branch starts
   * at, and the run it branches from (the first run's parentRunId). */
  char              *fork_id;
  char              *parent_run_id;
  GCancellable      *cancellable;
  GCancellable      *caller_cancellable;
  gulong             caller_cancelled_id;

  /* The run in flight. */
  AguiPipeline      *pipeline;
  AguiEventStream   *stream;
  AguiToolRunner    *tool_runner;
  guint              runs;
  gboolean           stream_done;
  gboolean           cancelled;
  guint              attempt;

  /* The turn: everything this exchange added to the thread, for the store. */
  gboolean           started;
  GError            *finish_error;
  char              *snapshot_id;
  GPtrArray         *turn_events;
} Exchange;

struct _AguiAgentSession
{
  GObject           parent_instance;
  AguiTransport    *transport;
  AguiTranscript   *transcript;
  AguiReducer      *reducer;
  AguiToolRegistry *tools;
  char             *thread_id;
  char             *agent;
  GQueue            waiting;
  GTask            *current;

  AguiSessionStore *store;
  char             *default_title;
  guint64           max_state_size;
  AguiTurnRecorder *recorder;
  /* A restore is drawing the thread: turns wait for it. */
  gboolean          restoring;
  /* The branch chosen last, and whether a write of a choice is in
   * flight: one at a time, so that quick switches land in order. */
  char             *branch_to_keep;
  gboolean          keeping_branch;

  /* The messages of the next run's input, kept up to date between turns
   * in slices so that a send on a long thread has little left to make */
  AguiInputMessages *input_messages;
  guint              input_messages_id;
};

/* The exchange's queue, for the restore and the branches */
GTask        *_agui_agent_session_exchange_task_new      (AguiAgentSession    *self,
                                                          ExchangeKind         kind,
                                                          JsonNode            *content,
                                                          JsonArray           *answers,
                                                          AguiRunParameters   *parameters,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data,
                                                          gpointer             source_tag);
void          _agui_agent_session_enqueue_task           (AguiAgentSession    *self,
                                                          GTask               *task);
void          _agui_agent_session_start_next             (AguiAgentSession    *self);
AguiRunState *_agui_agent_session_propagate              (AguiAgentSession    *self,
                                                          GAsyncResult        *result,
                                                          gpointer             source_tag,
                                                          GError             **error);
void          _agui_agent_session_keep_input_messages    (AguiAgentSession    *self);
GParamSpec   *_agui_agent_session_get_busy_pspec         (void);

/* agui_agent_session_restore_async() all at once, blocking on the store:
 * for the CLI and the tests, which have no window to keep drawing. */
gboolean _agui_agent_session_restore (AguiAgentSession  *self,
                                      GError           **error);

/* Whether a branch chosen is still being written to the store, for the
 * tests to wait on the write rather than for a while. */
gboolean _agui_agent_session_get_keeping_branch (AguiAgentSession *self);

G_END_DECLS
