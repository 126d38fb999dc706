/* test-session-turns.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "agui-test-tree.h"
#include "config.h"

#include <glib/gstdio.h>

#include "agui.h"
#include "agui-agent-session-private.h"
#include "agui-json-patch-private.h"
#include "agui-session-store-private.h"
#include "agui-turn-rows-private.h"
#include "agui-test-util.h"

/* A session's turns against a real SQLite file: snapshots chained by
 * parent id, failed and aborted turns, refused input, and a thread that
 * reopens exactly as it was, across a "restart" (a new session). */

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\"}," \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}," \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\" more\"}," \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"

typedef struct
{
  char             *dir;
  char             *path;
  AguiSessionStore *store;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tandem-turns-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "tandem.db", NULL);
  f->store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (f->path, "-shm", NULL);

  g_clear_object (&f->store);
  g_unlink (f->path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* Ten seconds is plenty for a few events; the long threads of the
 * restore test take more under a sanitizer on a busy machine. */
static guint wait_seconds = 10;

static void
script (AguiReplayTransport *replay,
        const char          *events)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf ("[%s]", events);

  g_assert_true (agui_replay_transport_add_run_json (replay, json, &error));
  g_assert_no_error (error);
}

static void
send (AguiAgentSession *session,
      const char       *text)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiRunState) state = NULL;

  agui_agent_session_send_async (session, text, NULL, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, wait_seconds * 1000);
  state = agui_agent_session_send_finish (session, result, NULL);
  g_assert_nonnull (state);
}

static char *
describe_rows (AguiTranscript *transcript)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AguiSpeakerTurn) row = g_list_model_get_item (G_LIST_MODEL (transcript), i);
      GListModel *parts = agui_speaker_turn_get_parts (row);

      g_string_append_printf (out, "%s:", agui_role_to_string (agui_speaker_turn_get_role (row)));
      for (guint j = 0; j < g_list_model_get_n_items (parts); j++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (parts, j);

          if (AGUI_IS_TEXT_PART (part))
            g_string_append_printf (out, " text(%s)", agui_text_part_get_text (AGUI_TEXT_PART (part)));
          else if (AGUI_IS_REASONING_PART (part))
            g_string_append_printf (out, " reasoning(%s)", agui_reasoning_part_get_text (AGUI_REASONING_PART (part)));
          else if (AGUI_IS_TOOL_CALL_PART (part))
            g_string_append_printf (out, " tool(%s,%d,%s)",
                                    agui_tool_call_part_get_tool_name (AGUI_TOOL_CALL_PART (part)),
                                    agui_tool_call_part_get_status (AGUI_TOOL_CALL_PART (part)),
                                    agui_tool_call_part_get_result (AGUI_TOOL_CALL_PART (part)));
          else if (AGUI_IS_ACTIVITY_PART (part))
            g_string_append_printf (out, " activity(%s)",
                                    agui_activity_part_get_activity_type (AGUI_ACTIVITY_PART (part)));
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

static char *
messages_and_state (AguiTranscript *transcript)
{
  g_autoptr(JsonNode) messages = json_node_new (JSON_NODE_ARRAY);
  g_autofree char *m = NULL, *s = NULL;

  json_node_take_array (messages, agui_transcript_to_messages (transcript, TRUE));
  m = json_to_string (messages, FALSE);
  s = json_to_string (agui_transcript_get_state (transcript), FALSE);

  return g_strdup_printf ("%s\n%s", m, s);
}

static char *
clock_tool (JsonNode  *arguments,
            gpointer   user_data,
            GError   **error)
{
  return g_strdup ("09:30");
}

static void
test_client_managed (void)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = agui_agent_session_new (AGUI_TRANSPORT (replay));

  g_test_summary ("With no store nothing is written and the snapshot id is empty");

  g_assert_null (agui_agent_session_get_last_snapshot_id (session));
  script (replay, RS ("r1") "," TEXT ("m1", "hi") "," RF ("r1"));
  send (session, "hello");
  g_assert_cmpstr (agui_agent_session_get_last_snapshot_id (session), ==, "");
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 1);
}

static void
test_snapshots_chain (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", "test-agent", NULL);
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(JsonNode) good = NULL;
  g_autofree char *first = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Each turn saves a snapshot chained to the one before; failed and aborted turns count");

  script (replay, RS ("r1") ",{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1}}," TEXT ("m1", "one") "," RF ("r1"));
  send (session, "first question\nwith a second line");
  first = g_strdup (agui_agent_session_get_last_snapshot_id (session));
  g_assert_cmpuint (strlen (first), ==, 36);

  thread = agui_session_store_get_thread (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (thread, "title"), ==, "first question");
  g_assert_cmpstr (json_object_get_string_member (thread, "agent"), ==, "test-agent");

  script (replay, RS ("r2") ",{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":2}},"
                  "{\"type\":\"RUN_ERROR\",\"message\":\"model overloaded\"}");
  send (session, "second");
  snapshot = agui_session_store_get_last_snapshot (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (snapshot, "parentId"), ==, first);
  g_assert_cmpstr (json_object_get_string_member (snapshot, "status"), ==, "FAILED");
  g_assert_cmpstr (json_object_get_string_member (snapshot, "error"), ==, "model overloaded");
  g_assert_cmpint (json_object_get_int_member (snapshot, "turnIndex"), ==, 1);

  /* The last good state is the one before the failure. */
  good = agui_session_store_get_last_good_state (f->store, "t", &error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (good), "n"), ==, 1);

  /* Cancelled before the transport answered: ABORTED. */
  agui_agent_session_send_async (session, "third", NULL, NULL, agui_test_store_result_cb, &result);
  agui_agent_session_cancel (session);
  agui_test_wait_for_result (&result, wait_seconds * 1000);
  g_assert_null (agui_agent_session_send_finish (session, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_pointer (&snapshot, json_object_unref);
  snapshot = agui_session_store_get_last_snapshot (f->store, "t", NULL);
  g_assert_cmpstr (json_object_get_string_member (snapshot, "status"), ==, "ABORTED");
  g_assert_cmpint (agui_session_store_get_turn_count (f->store, "t", NULL), ==, 3);
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 3);
}

static void
test_refused_input (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  const char *bad[] = {
    "{\"role\":\"assistant\",\"content\":\"hi\"}",
    "{\"role\":\"user\",\"content\":\"hi\",\"toolCalls\":[]}",
    "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":\"x\"}]}",
    "{\"role\":\"tool\",\"toolCallId\":\"c\",\"content\":\"x\"}",
  };

  g_test_summary ("A turn whose input is not a plain user message fails at once and writes nothing");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) message = json_from_string (bad[i], NULL);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;

      agui_agent_session_send_message_async (session, json_node_get_object (message), NULL, NULL,
                                             agui_test_store_result_cb, &result);
      agui_test_wait_for_result (&result, wait_seconds * 1000);
      g_assert_null (agui_agent_session_send_message_finish (session, result, &error));
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
    }

  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 0);
  g_assert_cmpint (agui_session_store_get_turn_count (f->store, "t", NULL), ==, 0);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (session)), ==, 0);
}

static void
test_restore_draws_the_same (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiToolRegistry) tools = agui_tool_registry_new ();
  g_autoptr(AguiTool) clock = agui_tool_new_simple ("clock", "time", NULL, clock_tool, NULL, NULL);
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autofree char *rows_before = NULL, *rows_after = NULL;
  g_autofree char *data_before = NULL, *data_after = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A thread reopened from its log draws exactly as it did");

  agui_tool_registry_add (tools, clock);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", tools, "store", f->store, "agent", NULL, NULL);

  script (replay, RS ("r1") ","
          "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r\",\"role\":\"reasoning\"},"
          "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r\",\"delta\":\"think\"},"
          "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r\"},"
          TEXT ("m1", "Looking") ","
          "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clock\",\"parentMessageId\":\"m1\"},"
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{}\"},"
          "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"},"
          "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"},"
          "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"},"
          TEXT ("m1", "and more") ","
          "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a1\",\"activityType\":\"plan\",\"content\":{\"steps\":[1]}},"
          "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"k\":[1]}},"
          "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/k/-\",\"value\":2}]},"
          RF ("r1"));
  script (replay, RS ("r2") "," TEXT ("m2", "It is half past nine") ","
          "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r2\",\"outcome\":{\"type\":\"interrupt\","
          "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"confirmation\",\"message\":\"OK?\"}]}}");
  send (session, "what time is it?");

  rows_before = describe_rows (agui_agent_session_get_transcript (session));
  data_before = messages_and_state (agui_agent_session_get_transcript (session));
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (session)), ==, 1);

  /* "Restart": a new session on the same store and thread. */
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", tools, "store", f->store, "agent", NULL, NULL);
  g_assert_true (_agui_agent_session_restore (reopened, &error));
  g_assert_no_error (error);

  rows_after = describe_rows (agui_agent_session_get_transcript (reopened));
  data_after = messages_and_state (agui_agent_session_get_transcript (reopened));
  g_assert_cmpstr (rows_after, ==, rows_before);
  g_assert_cmpstr (data_after, ==, data_before);

  /* Still interrupted, and it can be resumed; the next snapshot chains on. */
  g_assert_cmpuint (g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (reopened)), ==, 1);
  g_assert_cmpstr (agui_agent_session_get_last_snapshot_id (reopened), ==,
                   agui_agent_session_get_last_snapshot_id (session));
  {
    g_autoptr(JsonNode) answers = json_from_string ("[{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"ok\":true}}]", NULL);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(AguiRunState) state = NULL;
    g_autoptr(JsonObject) snapshot = NULL;

    script (replay, RS ("r3") "," TEXT ("m3", "Thanks") "," RF ("r3"));
    agui_agent_session_resume_async (reopened, json_node_get_array (answers), NULL, NULL, agui_test_store_result_cb, &result);
    agui_test_wait_for_result (&result, wait_seconds * 1000);
    state = agui_agent_session_resume_finish (reopened, result, &error);
    g_assert_no_error (error);
    g_assert_cmpint (agui_run_state_get_outcome (state), ==, AGUI_OUTCOME_SUCCESS);

    snapshot = agui_session_store_get_last_snapshot (f->store, "t", NULL);
    g_assert_cmpstr (json_object_get_string_member (snapshot, "parentId"), ==,
                     agui_agent_session_get_last_snapshot_id (session));
    g_assert_cmpint (json_object_get_int_member (snapshot, "turnIndex"), ==, 1);
  }
}

static void
restore_result_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* AG-UI messages: one per streamed text message, where the transcript
 * has one row per assistant turn. */
static guint
count_messages (AguiTranscript *transcript)
{
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (transcript, FALSE);

  return json_array_get_length (messages);
}

static void
test_restore_async (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(AguiAgentSession) whole = NULL;
  g_autoptr(AguiAgentSession) cancelled = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) restored = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows_async = NULL, *rows_sync = NULL;
  GString *events = g_string_new (RS ("r1"));
  const guint n_messages = 2000;
  guint final_items, iterations = 0;
  AguiTranscript *transcript;

  wait_seconds = 300;
  g_test_summary ("An asynchronous restore fills the transcript off the main thread while the main loop runs, "
                  "draws what a blocking one draws, and a turn asked for meanwhile waits for it");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  for (guint i = 0; i < n_messages; i++)
    g_string_append_printf (events,
                            ",{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%u\"}"
                            ",{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%u\",\"delta\":\"answer %u\"}"
                            ",{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%u\"}",
                            i, i, i, i);
  g_string_append (events, "," RF ("r1"));
  script (replay, events->str);
  g_string_free (events, TRUE);
  send (session, "many answers");
  final_items = count_messages (agui_agent_session_get_transcript (session));
  g_assert_cmpuint (final_items, ==, n_messages + 1);

  whole = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (whole, &error));
  rows_sync = describe_rows (agui_agent_session_get_transcript (whole));

  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  transcript = agui_agent_session_get_transcript (reopened);
  agui_agent_session_restore_async (reopened, NULL, restore_result_cb, &restored);
  script (replay, RS ("r2") "," TEXT ("m-next", "next") "," RF ("r2"));
  agui_agent_session_send_async (reopened, "and one more", NULL, NULL, agui_test_store_result_cb, &sent);

  /* The transcript is not read meanwhile: another thread fills it */
  while (restored == NULL)
    {
      /* The turn waits for the thread to be whole. */
      g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 1);
      g_main_context_iteration (NULL, TRUE);
      iterations++;
    }
  g_assert_true (agui_agent_session_restore_finish (reopened, restored, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (iterations, >, 0);

  agui_test_wait_for_result (&sent, wait_seconds * 1000);
  state = agui_agent_session_send_finish (reopened, sent, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agui_replay_transport_get_n_requests (replay), ==, 2);
  /* The turn went out with the whole history and chained on. */
  g_assert_cmpuint (count_messages (transcript), ==, final_items + 2);
  g_assert_cmpuint (agui_agent_session_get_turn_index (reopened), ==, 2);

  /* Before the new turn, the asynchronous restore drew what the blocking one did. */
  g_clear_object (&restored);
  g_clear_object (&reopened);
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  g_clear_object (&whole);
  whole = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (whole, &error));
  g_free (rows_sync);
  rows_sync = describe_rows (agui_agent_session_get_transcript (whole));
  agui_agent_session_restore_async (reopened, NULL, restore_result_cb, &restored);
  agui_test_wait_for_result (&restored, wait_seconds * 1000);
  g_assert_true (agui_agent_session_restore_finish (reopened, restored, &error));
  rows_async = describe_rows (agui_agent_session_get_transcript (reopened));
  g_assert_cmpstr (rows_async, ==, rows_sync);

  /* Cancelled halfway: an error, and the session does not hang. */
  g_clear_object (&restored);
  cancelled = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  agui_agent_session_restore_async (cancelled, cancellable, restore_result_cb, &restored);
  g_cancellable_cancel (cancellable);
  agui_test_wait_for_result (&restored, wait_seconds * 1000);
  g_assert_false (agui_agent_session_restore_finish (cancelled, restored, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  wait_seconds = 10;
}

/* Whatever the store is asked to write before a restore is read back by
 * it: both run on the store's one worker, in the order they were asked
 * for. On a thread of its own, the restore could read the thread before
 * the write landed. */
static void
test_restore_after_write (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GAsyncResult) restored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;

  g_test_summary ("A restore asked for right after a write to the store reads what was written");

  for (guint attempt = 0; attempt < 5; attempt++)
    {
      g_autofree char *thread_id = g_strdup_printf ("t%u", attempt);
      AguiJournalRows *busy = g_new0 (AguiJournalRows, 1);
      AguiJournalRows *journal = g_new0 (AguiJournalRows, 1);

      /* A long write first, which the store is busy with when the
       * restore is asked for */
      busy->thread_id = g_strdup ("busy");
      busy->snapshot_id = g_strdup_printf ("busy%u", attempt);
      busy->first = TRUE;
      busy->event_json = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < 10000; i++)
        g_ptr_array_add (busy->event_json, g_strdup ("{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":1}"));
      _agui_session_store_append_journal_async (f->store, busy, NULL, NULL, NULL);

      journal->thread_id = g_strdup (thread_id);
      journal->snapshot_id = g_strdup_printf ("s%u", attempt);
      journal->title = g_strdup ("Kept");
      journal->first = TRUE;
      journal->event_json = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (journal->event_json,
                       g_strdup ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u\",\"role\":\"user\"}"));
      g_ptr_array_add (journal->event_json,
                       g_strdup ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u\",\"delta\":\"kept\"}"));
      g_ptr_array_add (journal->event_json, g_strdup ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u\"}"));
      _agui_session_store_append_journal_async (f->store, journal, NULL, NULL, NULL);

      g_clear_object (&session);
      g_clear_object (&restored);
      session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", thread_id,
                              "store", f->store, NULL);
      agui_agent_session_restore_async (session, NULL, restore_result_cb, &restored);
      agui_test_wait_for_result (&restored, wait_seconds * 1000);
      g_assert_true (agui_agent_session_restore_finish (session, restored, &error));
      g_assert_no_error (error);

      g_free (rows);
      rows = describe_rows (agui_agent_session_get_transcript (session));
      g_assert_cmpstr (rows, ==, "user: text(kept)\n");
    }
}

static void
add_journal (AguiSessionStore *store,
             const char       *snapshot_id,
             gboolean          first,
             const char      **events)
{
  AguiJournalRows *journal = g_new0 (AguiJournalRows, 1);

  journal->thread_id = g_strdup ("t");
  journal->snapshot_id = g_strdup (snapshot_id);
  journal->title = g_strdup ("Kept");
  journal->first = first;
  journal->event_json = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; events[i] != NULL; i++)
    g_ptr_array_add (journal->event_json, g_strdup (events[i]));
  _agui_session_store_append_journal_async (store, journal, NULL, NULL, NULL);
}

/* Two crashes in a row, each before its turn was saved: the first cut
 * its answer in the middle of a message, the second came before the
 * next answer began. The person's second question was kept, and a
 * restore shows it after the first answer, not lost in it. */
static void
test_restore_two_cut_turns (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) again = NULL;
  g_autoptr(GAsyncResult) restored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  const char *cut[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u1\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u1\",\"delta\":\"first\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u1\"}",
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"half\"}",
    NULL
  };
  const char *asked[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u2\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u2\",\"delta\":\"second\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u2\"}",
    NULL
  };

  g_test_summary ("Two turns cut short in a row both come back: the second question is not lost "
                  "in the first, unfinished answer");

  add_journal (f->store, "s1", TRUE, cut);
  add_journal (f->store, "s2", TRUE, asked);

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  agui_agent_session_restore_async (session, NULL, restore_result_cb, &restored);
  agui_test_wait_for_result (&restored, wait_seconds * 1000);
  g_assert_true (agui_agent_session_restore_finish (session, restored, &error));
  g_assert_no_error (error);

  rows = describe_rows (agui_agent_session_get_transcript (session));
  g_assert_cmpstr (rows, ==, "user: text(first)\nassistant: text(half)\nuser: text(second)\n");
  g_assert_cmpint (agui_run_state_get_status (agui_agent_session_get_run_state (session)), ==, AGUI_RUN_FAILED);

  /* The same, read at once */
  again = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (again, &error));
  g_assert_no_error (error);
  g_free (rows);
  rows = describe_rows (agui_agent_session_get_transcript (again));
  g_assert_cmpstr (rows, ==, "user: text(first)\nassistant: text(half)\nuser: text(second)\n");
}

/* What a crash cut short lives only in the journal until the next turn
 * saves it: an export made before that has it all the same, folded as a
 * restore shows it, and an import of it shows that again. */
static void
test_export_cut_turn (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(AguiAgentSession) imported = NULL;
  g_autoptr(GAsyncResult) restored = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *thread_id = NULL;
  JsonObject *root;
  JsonArray *messages;
  JsonArray *events;
  JsonObject *last;
  const char *cut[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u2\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u2\",\"delta\":\"second\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u2\"}",
    RS ("r2"),
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a2\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a2\",\"delta\":\"half\"}",
    NULL
  };

  g_test_summary ("A turn a crash cut short is in the thread's export (JSON and Markdown) as a "
                  "restore shows it, and an import of that export shows it the same");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  script (replay, RS ("r1") "," TEXT ("m1", "saved") "," RF ("r1"));
  send (session, "one");
  g_clear_object (&session);
  add_journal (f->store, "s2", TRUE, cut);

  /* What the app shows after a relaunch; on the store's worker, after the journal is written */
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  agui_agent_session_restore_async (reopened, NULL, restore_result_cb, &restored);
  agui_test_wait_for_result (&restored, wait_seconds * 1000);
  g_assert_true (agui_agent_session_restore_finish (reopened, restored, &error));
  g_assert_no_error (error);
  shown = describe_rows (agui_agent_session_get_transcript (reopened));
  g_assert_cmpstr (shown, ==, "user: text(one)\nassistant: text(saved more)\nuser: text(second)\nassistant: text(half)\n");

  exported = agui_test_export_streamed (f->store, "t");
  root = json_node_get_object (exported);
  messages = json_object_get_array_member (root, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "second");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"), ==, "half");
  events = json_object_get_array_member (root, "events");
  last = json_array_get_object_element (events, json_array_get_length (events) - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "type"), ==, "RUN_ERROR");
  last = json_array_get_object_element (events, json_array_get_length (events) - 2);
  g_assert_cmpstr (json_object_get_string_member (last, "delta"), ==, "half");

  markdown = agui_session_store_export_markdown (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "### User\n\nsecond\n\n### Assistant\n\nhalf\n\n*Failed*\n\n"));
  /* Every branch: the cut turn is on the one the person is on */
  g_free (markdown);
  markdown = agui_session_store_export_branches_markdown (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "## Branch 1 of 1 (chosen)\n\n### User\n\none\n\n"));
  g_assert_nonnull (strstr (markdown, "### User\n\nsecond\n\n### Assistant\n\nhalf\n\n*Failed*\n\n"));

  thread_id = agui_test_import_streamed (f->store, exported, &error);
  g_assert_no_error (error);
  g_assert_nonnull (thread_id);
  imported = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", thread_id, "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (imported, &error));
  g_assert_no_error (error);
  rows = describe_rows (agui_agent_session_get_transcript (imported));
  g_assert_cmpstr (rows, ==, shown);
  /* Ended as the relaunch ends it, so that it can be retried */
  g_assert_cmpint (agui_run_state_get_status (agui_agent_session_get_run_state (reopened)), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_status (agui_agent_session_get_run_state (imported)), ==, AGUI_RUN_FAILED);
  g_assert_true (g_str_has_prefix (agui_run_state_get_error_message (agui_agent_session_get_run_state (imported)),
                                  "The answer was interrupted"));

  /* And once more, from what was imported */
  again = agui_test_export_streamed (f->store, thread_id);
  g_assert_true (_agui_json_node_equal (json_object_get_member (json_node_get_object (again), "messages"),
                                        json_object_get_member (root, "messages")));
}

/* The crash came before the answer began, in a new conversation: all
 * there is is the person's message, and it is in the export */
static void
test_export_cut_question (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(AguiAgentSession) imported = NULL;
  g_autoptr(GAsyncResult) restored = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *thread_id = NULL;
  JsonArray *messages;
  const char *asked[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u1\",\"role\":\"user\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u1\",\"delta\":\"only this\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u1\"}",
    NULL
  };

  g_test_summary ("A question a crash kept before any answer began is in the export, and imports");

  add_journal (f->store, "s1", TRUE, asked);
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  agui_agent_session_restore_async (reopened, NULL, restore_result_cb, &restored);
  agui_test_wait_for_result (&restored, wait_seconds * 1000);
  g_assert_true (agui_agent_session_restore_finish (reopened, restored, &error));
  g_assert_no_error (error);
  shown = describe_rows (agui_agent_session_get_transcript (reopened));
  g_assert_cmpstr (shown, ==, "user: text(only this)\n");

  exported = agui_test_export_streamed (f->store, "t");
  messages = json_object_get_array_member (json_node_get_object (exported), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==, "only this");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (exported), "events")), ==, 3);

  /* No branch was saved yet: every branch is this one */
  markdown = agui_session_store_export_branches_markdown (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "### User\n\nonly this\n\n"));

  thread_id = agui_test_import_streamed (f->store, exported, &error);
  g_assert_no_error (error);
  imported = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", thread_id, "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (imported, &error));
  g_assert_no_error (error);
  rows = describe_rows (agui_agent_session_get_transcript (imported));
  g_assert_cmpstr (rows, ==, shown);
}

static void
test_restore_failed_turn (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_autoptr(AguiAgentSession) reopened = NULL;
  AguiRunState *state;

  g_test_summary ("A turn that failed in the transport reopens failed, with its reason");

  /* No script: the transport cannot start the run. */
  send (session, "anyone there?");
  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_assert_true (_agui_agent_session_restore (reopened, NULL));
  state = agui_agent_session_get_run_state (reopened);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);
  g_assert_cmpint (agui_run_state_get_error_stage (state), ==, AGUI_STAGE_TRANSPORT);
  g_assert_nonnull (strstr (agui_run_state_get_error_message (state), "no script"));
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), ==, 1);
}

static void
test_full_disk_keeps_conversation (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);

  g_test_summary ("A store that cannot write says so on the session; the conversation goes on");

  script (replay, RS ("r1") "," TEXT ("m1", "saved") "," RF ("r1"));
  send (session, "one");
  g_assert_null (agui_agent_session_get_store_error (session));

  _agui_session_store_set_max_page_count (f->store, 1);
  {
    /* Big enough that the turn needs pages the database does not have. */
    g_autofree char *big = agui_test_incompressible_text (256 * 1024);
    g_autofree char *events = g_strdup_printf (RS ("r2") "," TEXT ("m2", "%s") "," RF ("r2"), big);

    script (replay, events);
  }
  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*full*");
  send (session, "two");
  g_test_assert_expected_messages ();

  /* A GError the caller can branch on, as the property gives it too. */
  g_assert_error ((GError *) agui_agent_session_get_store_error (session), AGUI_ERROR, AGUI_ERROR_STORE);
  {
    g_autoptr(GError) property = NULL;

    g_object_get (session, "store-error", &property, NULL);
    g_assert_error (property, AGUI_ERROR, AGUI_ERROR_STORE);
    g_assert_cmpstr (property->message, ==, agui_agent_session_get_store_error (session)->message);
  }
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (session)), ==, 4);
  g_assert_cmpint (agui_session_store_get_turn_count (f->store, "t", NULL), ==, 1);
}

static void
test_full_disk_then_recovers (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autofree char *first_snapshot = NULL;
  g_autofree char *before = NULL, *after = NULL;
  gint64 pages;

  g_test_summary ("A turn that could not be saved advances neither the turn index nor the parent; "
                  "the next save holds its events, so reopening shows every exchange");

  script (replay, RS ("r1") "," TEXT ("m1", "one") "," RF ("r1"));
  send (session, "one");
  first_snapshot = g_strdup (agui_agent_session_get_last_snapshot_id (session));
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 1);

  pages = _agui_session_store_set_max_page_count (f->store, 1);
  {
    g_autofree char *big = agui_test_incompressible_text (256 * 1024);
    g_autofree char *events = g_strdup_printf (RS ("r2") "," TEXT ("m2", "%s") "," RF ("r2"), big);

    script (replay, events);
  }
  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*full*");
  send (session, "two");
  g_test_assert_expected_messages ();
  g_assert_nonnull (agui_agent_session_get_store_error (session));
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 1);
  g_assert_cmpstr (agui_agent_session_get_last_snapshot_id (session), ==, first_snapshot);

  /* The disk has room again. */
  g_assert_cmpint (_agui_session_store_set_max_page_count (f->store, 1073741823), >, pages);
  script (replay, RS ("r3") "," TEXT ("m3", "three") "," RF ("r3"));
  send (session, "three");
  g_assert_null (agui_agent_session_get_store_error (session));
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 2);

  snapshot = agui_session_store_get_last_snapshot (f->store, "t", NULL);
  g_assert_cmpint (json_object_get_int_member (snapshot, "turnIndex"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (snapshot, "parentId"), ==, first_snapshot);
  g_assert_cmpint (agui_session_store_get_turn_count (f->store, "t", NULL), ==, 2);

  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_assert_true (_agui_agent_session_restore (reopened, NULL));
  before = describe_rows (agui_agent_session_get_transcript (session));
  after = describe_rows (agui_agent_session_get_transcript (reopened));
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), ==, 6);
}

static void
test_retry_save (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 pages;

  g_test_summary ("Retry writes the turn that could not be saved, once there is room");

  script (replay, RS ("r1") "," TEXT ("m1", "one") "," RF ("r1"));
  send (session, "one");
  pages = _agui_session_store_set_max_page_count (f->store, 1);
  {
    g_autofree char *big = agui_test_incompressible_text (256 * 1024);
    g_autofree char *events = g_strdup_printf (RS ("r2") "," TEXT ("m2", "%s") "," RF ("r2"), big);

    script (replay, events);
  }
  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*full*");
  send (session, "two");
  g_test_assert_expected_messages ();

  /* Still full: the retry fails and says so. */
  agui_agent_session_retry_save_async (session, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, wait_seconds * 1000);
  g_assert_false (agui_agent_session_retry_save_finish (session, result, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (agui_agent_session_get_store_error (session));
  g_clear_error (&error);
  g_clear_object (&result);

  g_assert_cmpint (_agui_session_store_set_max_page_count (f->store, 1073741823), >, pages);
  agui_agent_session_retry_save_async (session, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, wait_seconds * 1000);
  g_assert_true (agui_agent_session_retry_save_finish (session, result, &error));
  g_assert_no_error (error);
  g_assert_null (agui_agent_session_get_store_error (session));
  g_assert_cmpuint (agui_agent_session_get_turn_index (session), ==, 2);
  g_assert_cmpint (agui_session_store_get_turn_count (f->store, "t", NULL), ==, 2);

  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_assert_true (_agui_agent_session_restore (reopened, NULL));
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), ==, 4);
}

static void
test_unstorable_state (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session =
    g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_autoptr(AguiAgentSession) reopened = NULL;

  g_test_summary ("A state that has no JSON form is refused by the save, which says why; "
                  "what was stored before still opens, with the person's message kept at send");

  script (replay, RS ("r1") "," TEXT ("m1", "one") "," RF ("r1"));
  send (session, "one");

  /* Over HTTP 1e999 is refused as a malformed frame; a replay script
   * is parsed by json-glib, which makes it infinite: the store must not
   * write what it cannot read back. */
  script (replay, RS ("r2") "," TEXT ("m2", "two") ","
                  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"big\":1e999}}," RF ("r2"));
  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*cannot be stored*infinity*");
  send (session, "two");
  g_test_assert_expected_messages ();
  g_assert_nonnull (strstr (agui_agent_session_get_store_error (session)->message, "infinity"));

  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (replay), "thread-id", "t", "tools", NULL, "store", f->store, "agent", NULL, NULL);
  g_assert_true (_agui_agent_session_restore (reopened, NULL));
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), >=, 3);
}

static void
send_message (AguiAgentSession *session,
              const char       *json)
{
  g_autoptr(JsonNode) message = json_from_string (json, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;

  agui_agent_session_send_message_async (session, json_node_get_object (message), NULL, NULL,
                                         agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, wait_seconds * 1000);
  state = agui_agent_session_send_message_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (state);
}

/* The parts the app's attachment tray makes (tandem-attachment-tray.c):
 * "AAEC" is three bytes, "aGVsbG8=" five */
#define ATTACHED_MESSAGE \
  "{\"role\":\"user\",\"content\":[" \
  "{\"type\":\"text\",\"text\":\"Look at these\"}," \
  "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"AAEC\",\"mimeType\":\"image/png\"}," \
  "\"metadata\":{\"filename\":\"dot.png\"}}," \
  "{\"type\":\"document\",\"source\":{\"type\":\"data\",\"value\":\"aGVsbG8=\",\"mimeType\":\"text/plain\"}," \
  "\"metadata\":{\"filename\":\"notes.txt\"}}]}"

static void
test_attachments_round_trip (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) imported = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(JsonArray) sent = NULL;
  g_autoptr(JsonArray) restored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *text = NULL;
  JsonArray *content;

  g_test_summary ("A conversation with an image and a file exports and imports again, "
                  "its attachments whole, into this store and into an empty one");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "t", "store", f->store, NULL);
  script (replay, RS ("r1") "," TEXT ("m1", "Two files") "," RF ("r1"));
  send_message (session, ATTACHED_MESSAGE);
  sent = agui_transcript_to_messages (agui_agent_session_get_transcript (session), FALSE);

  /* As files are: written and read a piece at a time */
  exported = agui_test_export_streamed (f->store, "t");
  thread_id = agui_test_import_streamed (f->store, exported, &error);
  g_assert_no_error (error);
  g_assert_nonnull (thread_id);

  imported = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", thread_id, "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (imported, &error));
  g_assert_no_error (error);
  restored = agui_transcript_to_messages (agui_agent_session_get_transcript (imported), FALSE);
  g_assert_cmpuint (json_array_get_length (restored), ==, 2);
  g_assert_true (_agui_json_node_equal (json_array_get_element (sent, 0), json_array_get_element (restored, 0)));

  content = json_object_get_array_member (json_array_get_object_element (restored, 0), "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_array_get_object_element (content, 2), "source"), "value"),
                   ==, "aGVsbG8=");

  /* And once more, from what was imported */
  again = agui_test_export_streamed (f->store, thread_id);
  g_free (agui_session_store_import_json (f->store, again, &error));
  g_assert_no_error (error);
}

static void
test_multimodal_title (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) pictures = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A multimodal first message names the thread after its text part; "
                  "one with only media gets the title the application gave");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION,
                          "transport", replay, "thread-id", "t", "store", f->store,
                          "default-title", "Untitled (app)",
                          NULL);
  script (replay, RS ("r1") "," TEXT ("m1", "seen") "," RF ("r1"));
  send_message (session,
                "{\"role\":\"user\",\"content\":["
                "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://example.org/a.png\"}},"
                "{\"type\":\"text\",\"text\":\"What is in this picture?\\nIt is blurry\"}]}");
  thread = agui_session_store_get_thread (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (thread, "title"), ==, "What is in this picture?");
  g_clear_pointer (&thread, json_object_unref);

  pictures = g_object_new (AGUI_TYPE_AGENT_SESSION,
                           "transport", replay, "thread-id", "p", "store", f->store,
                           "default-title", "Untitled (app)",
                           NULL);
  script (replay, "{\"type\":\"RUN_STARTED\",\"threadId\":\"p\",\"runId\":\"r2\"},"
                  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"p\",\"runId\":\"r2\"}");
  send_message (pictures,
                "{\"role\":\"user\",\"content\":["
                "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://example.org/b.png\"}}]}");
  thread = agui_session_store_get_thread (f->store, "p", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (thread, "title"), ==, "Untitled (app)");
}

/* The rows a turn is written as, made in slices at the end of a turn,
 * are byte for byte those made in one go. */
static void
test_rows_in_slices (void)
{
  static const char *messages_json =
    "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Plan the \\\"garden\\\"\\nsecond line\"},"
    "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Sure — ünïcode\","
    "\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"look\",\"arguments\":\"{\\\"x\\\":1}\"}}]},"
    "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"sunny\"},"
    "{\"id\":\"u2\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"and this picture\"}]}]";
  static const char *event_json[] = {
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"Sure\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\" — ünïcode\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a1\"}",
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"outside\":\"a run\"}}",
  };
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(JsonNode) messages_node = NULL;
  g_autoptr(JsonArray) messages = NULL;
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(JsonNode) state = json_from_string ("{\"deep\":[[[{\"k\":null}]]],\"n\":1.5}", NULL);
  g_autoptr(JsonArray) interrupts = json_array_new ();
  g_autoptr(AguiTurnRows) whole = NULL;
  g_autoptr(AguiTurnRows) sliced = NULL;
  g_autoptr(AguiTurnRowsBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;
  AguiTurnRecord turn = { 0 };
  gboolean done = FALSE;
  guint steps = 0;

  g_test_summary ("A turn's rows made a slice at a time are those made in one go");

  messages_node = json_from_string (messages_json, &error);
  g_assert_no_error (error);
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (messages_node), &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (event_json); i++)
    {
      AguiEvent *event = agui_event_new_from_string (event_json[i], -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (events, event);
    }
  json_array_add_object_element (interrupts, json_object_new ());

  messages = agui_transcript_to_messages (transcript, TRUE);
  turn.thread_id = "t";
  turn.snapshot_id = "s1";
  turn.turn_index = 3;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.finish_reason = "success";
  turn.messages = agui_test_array_tree (messages);
  turn.state = agui_test_tree (state);
  turn.events = events;
  turn.pending_interrupts = agui_test_array_tree (interrupts);
  turn.run_id = "r1";
  whole = _agui_turn_rows_new (&turn, "Plan", "agent", &error);
  g_assert_no_error (error);

  turn.messages = NULL;
  builder = _agui_turn_rows_builder_new (&turn, transcript, "Plan", "agent", &error);
  g_assert_no_error (error);
  while (!done)
    {
      /* No time at all: one step per slice */
      g_assert_true (_agui_turn_rows_builder_step (builder, 0, &done, &error));
      g_assert_no_error (error);
      steps++;
    }
  sliced = _agui_turn_rows_builder_end (builder);

  /* Each event and each message took a slice of its own */
  g_assert_cmpuint (steps, >=, events->len + json_array_get_length (messages));
  g_assert_cmpuint (sliced->message_json->len, ==, json_array_get_length (messages));
  g_assert_cmpuint (sliced->message_json->len, ==, whole->message_json->len);
  for (guint i = 0; i < whole->message_json->len; i++)
    g_assert_cmpstr (g_ptr_array_index (sliced->message_json, i), ==, g_ptr_array_index (whole->message_json, i));
  g_assert_cmpstr (sliced->state, ==, whole->state);
  g_assert_cmpstr (sliced->title, ==, "Plan");
  g_assert_cmpstr (sliced->snapshot_id, ==, "s1");
  g_assert_cmpint (sliced->turn_index, ==, 3);
  g_assert_cmpuint (sliced->event_json->len, ==, whole->event_json->len);
  /* The two deltas were joined */
  g_assert_cmpuint (sliced->event_json->len, ==, events->len - 1);
  for (guint i = 0; i < whole->event_json->len; i++)
    g_assert_cmpstr (g_ptr_array_index (sliced->event_json, i), ==, g_ptr_array_index (whole->event_json, i));
  g_assert_cmpuint (sliced->interrupts->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (sliced->interrupts, 0), ==, g_ptr_array_index (whole->interrupts, 0));
}

/* A turn with no messages and no events is still a valid row set */
static void
test_rows_in_slices_empty (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiTurnRowsBuilder) builder = NULL;
  g_autoptr(AguiTurnRows) rows = NULL;
  g_autoptr(GError) error = NULL;
  AguiTurnRecord turn = { 0 };
  gboolean done = FALSE;

  turn.thread_id = "t";
  turn.snapshot_id = "s1";
  turn.status = AGUI_SNAPSHOT_ABORTED;
  builder = _agui_turn_rows_builder_new (&turn, transcript, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (_agui_turn_rows_builder_step (builder, G_USEC_PER_SEC, &done, &error));
  g_assert_true (done);
  rows = _agui_turn_rows_builder_end (builder);
  g_assert_cmpuint (rows->message_json->len, ==, 0);
  g_assert_cmpstr (rows->state, ==, "null");
  g_assert_cmpuint (rows->event_json->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/session-turns/client-managed", test_client_managed);
  g_test_add_func ("/agui/session-turns/rows-in-slices", test_rows_in_slices);
  g_test_add_func ("/agui/session-turns/rows-in-slices-empty", test_rows_in_slices_empty);
  g_test_add ("/agui/session-turns/snapshots-chain", Fixture, NULL, fixture_set_up, test_snapshots_chain, fixture_tear_down);
  g_test_add ("/agui/session-turns/refused-input", Fixture, NULL, fixture_set_up, test_refused_input, fixture_tear_down);
  g_test_add ("/agui/session-turns/restore-draws-the-same", Fixture, NULL, fixture_set_up, test_restore_draws_the_same, fixture_tear_down);
  g_test_add ("/agui/session-turns/restore-async", Fixture, NULL, fixture_set_up, test_restore_async, fixture_tear_down);
  g_test_add ("/agui/session-turns/restore-after-write", Fixture, NULL, fixture_set_up, test_restore_after_write, fixture_tear_down);
  g_test_add ("/agui/session-turns/restore-two-cut-turns", Fixture, NULL, fixture_set_up, test_restore_two_cut_turns, fixture_tear_down);
  g_test_add ("/agui/session-turns/export-cut-turn", Fixture, NULL, fixture_set_up, test_export_cut_turn, fixture_tear_down);
  g_test_add ("/agui/session-turns/export-cut-question", Fixture, NULL, fixture_set_up, test_export_cut_question, fixture_tear_down);
  g_test_add ("/agui/session-turns/restore-failed-turn", Fixture, NULL, fixture_set_up, test_restore_failed_turn, fixture_tear_down);
  g_test_add ("/agui/session-turns/full-disk-then-recovers", Fixture, NULL, fixture_set_up, test_full_disk_then_recovers, fixture_tear_down);
  g_test_add ("/agui/session-turns/retry-save", Fixture, NULL, fixture_set_up, test_retry_save, fixture_tear_down);
  g_test_add ("/agui/session-turns/multimodal-title", Fixture, NULL, fixture_set_up, test_multimodal_title, fixture_tear_down);
  g_test_add ("/agui/session-turns/attachments-round-trip", Fixture, NULL, fixture_set_up, test_attachments_round_trip, fixture_tear_down);
  g_test_add ("/agui/session-turns/unstorable-state", Fixture, NULL, fixture_set_up, test_unstorable_state, fixture_tear_down);
  g_test_add ("/agui/session-turns/full-disk-keeps-conversation", Fixture, NULL, fixture_set_up, test_full_disk_keeps_conversation, fixture_tear_down);

  return g_test_run ();
}
