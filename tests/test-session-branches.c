/* test-session-branches.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "agui.h"
#include "agui-test-server.h"
#include "agui-agent-session-private.h"
#include "agui-session-store-private.h"

/* Regenerated answers and edited messages fork the thread: what the
 * agent receives over real HTTP (the branch's history only, and
 * parentRunId), what the transcript can switch between, and what a real
 * SQLite store gives back after a relaunch. */

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TS(id)   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\"}"
#define TC(id, d) "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" d "\"}"
#define TE(id)   "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define ANSWER(run, id, text) agui_test_response_new_events (RS (run), TS (id), TC (id, text), TE (id), RF (run), NULL)

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiSessionStore  *store;
  AguiAgentSession  *session;
  char              *path;
} Fixture;

static void
open_session (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&f->session);
  g_clear_object (&f->store);
  f->store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport),
                             "thread-id", "t", "store", f->store, "agent", "test", NULL);
  g_assert_true (_agui_agent_session_restore (f->session, &error));
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, &error,
                                 "url", agui_test_server_get_url (f->server),
                                 NULL);
  g_assert_no_error (error);

  /* Per test (isolated dirs): a choice still being written by the last
   * test must not land in this one's database */
  g_mkdir_with_parents (g_get_user_data_dir (), 0700);
  f->path = g_build_filename (g_get_user_data_dir (), "branches.sqlite", NULL);
  g_unlink (f->path);
  open_session (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (f->path, "-shm", NULL);

  g_clear_object (&f->session);
  g_clear_object (&f->store);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
  g_unlink (f->path);
  g_unlink (wal);
  g_unlink (shm);
  g_free (f->path);
}

typedef enum { SEND, REGENERATE, EDIT } Action;

static void
act (Fixture    *f,
     Action      action,
     const char *message_id,
     const char *text)
{
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;

  if (action == SEND)
    agui_agent_session_send_async (f->session, text, NULL, NULL, agui_test_store_result_cb, &result);
  else if (action == REGENERATE)
    agui_agent_session_regenerate_async (f->session, message_id, NULL, NULL, agui_test_store_result_cb, &result);
  else
    agui_agent_session_edit_async (f->session, message_id, text, NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));

  if (action == SEND)
    state = agui_agent_session_send_finish (f->session, result, &error);
  else if (action == REGENERATE)
    state = agui_agent_session_regenerate_finish (f->session, result, &error);
  else
    state = agui_agent_session_edit_finish (f->session, result, &error);
  g_object_unref (result);

  g_assert_no_error (error);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FINISHED);
  g_assert_null (agui_agent_session_get_store_error (f->session));
}

/* "user:hello assistant:one" for the history: roles and text. */
static char *
describe (JsonArray *messages)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      g_string_append_printf (out, "%s%s:%s", i ? " " : "",
                              json_object_get_string_member (message, "role"),
                              json_object_get_string_member_with_default (message, "content", ""));
    }

  return g_string_free (out, FALSE);
}

static char *
describe_transcript (Fixture *f)
{
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (agui_agent_session_get_transcript (f->session), FALSE);

  return describe (messages);
}

static const char *
message_id_at (Fixture *f,
               guint    position)
{
  g_autoptr(AguiSpeakerTurn) row = g_list_model_get_item (G_LIST_MODEL (agui_agent_session_get_transcript (f->session)), position);

  g_assert_nonnull (row);
  /* The transcript keeps the row alive. */
  return agui_speaker_turn_get_id (row);
}

static void
assert_position (Fixture *f,
                 guint    row,
                 guint    expected_index,
                 guint    expected_n)
{
  guint index = G_MAXUINT, n = 0;

  g_assert_true (agui_transcript_get_branch_position (agui_agent_session_get_transcript (f->session),
                                                      message_id_at (f, row), &index, &n));
  g_assert_cmpuint (index, ==, expected_index);
  g_assert_cmpuint (n, ==, expected_n);
}

static void
assert_described (char       *description,
                  const char *expected)
{
  g_assert_cmpstr (description, ==, expected);
  g_free (description);
}

/* Whether the store holds the branch the session shows */
static gboolean
store_holds_chosen (Fixture *f)
{
  g_autoptr(JsonObject) snapshot = agui_session_store_get_last_snapshot (f->store, "t", NULL);

  return snapshot != NULL &&
         g_strcmp0 (json_object_get_string_member (snapshot, "id"),
                    agui_agent_session_get_last_snapshot_id (f->session)) == 0;
}

/* The choice is written in the background; a relaunch must see it.
 * Choices made in a row are written one after the other, so the store
 * may hold the one asked for while an earlier one is still on its way:
 * the writes must be done, and the last one have written it. */
static void
wait_for_chosen (Fixture *f)
{
  agui_test_wait_until (!_agui_agent_session_get_keeping_branch (f->session) && store_holds_chosen (f),
                        "the chosen branch was written to the store");
}

static void
test_regenerate_input (Fixture       *f,
                       gconstpointer  data)
{
  JsonObject *body;
  gint64 before;

  g_test_summary ("A regenerate sends the history up to the person's message, with parentRunId, and keeps the old answer");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "two again"));
  act (f, SEND, NULL, "first");
  act (f, SEND, NULL, "second");
  assert_position (f, 3, 0, 1);

  before = g_get_real_time ();
  act (f, REGENERATE, message_id_at (f, 3), NULL);
  g_assert_cmpint (agui_transcript_get_message_time (agui_agent_session_get_transcript (f->session), message_id_at (f, 3)),
                   >=, before);

  body = agui_test_server_get_request_body (f->server, 2);
  assert_described (describe (json_object_get_array_member (body, "messages")),
                    "user:first assistant:one user:second");
  g_assert_cmpstr (json_object_get_string_member_with_default (body, "parentRunId", NULL), ==, "r1");
  /* The first two runs started no branch. */
  g_assert_false (json_object_has_member (agui_test_server_get_request_body (f->server, 0), "parentRunId"));
  g_assert_false (json_object_has_member (agui_test_server_get_request_body (f->server, 1), "parentRunId"));

  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two again");
  assert_position (f, 3, 1, 2);
  assert_position (f, 2, 0, 1);
  g_assert_cmpuint (agui_transcript_get_n_branches (agui_agent_session_get_transcript (f->session)), ==, 2);

  /* Back to the first answer: the next turn continues that branch only. */
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 3), 0, NULL));
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two");
  assert_position (f, 3, 0, 2);

  agui_test_server_push_response (f->server, ANSWER ("r4", "a4", "three"));
  act (f, SEND, NULL, "third");
  assert_described (describe (json_object_get_array_member (agui_test_server_get_request_body (f->server, 3), "messages")),
                    "user:first assistant:one user:second assistant:two user:third");
  g_assert_false (json_object_has_member (agui_test_server_get_request_body (f->server, 3), "parentRunId"));
}

static void
test_edit_input (Fixture       *f,
                 gconstpointer  data)
{
  JsonObject *body;

  g_test_summary ("An edited message replaces the original in the history sent, and the original stays a branch");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "deux"));
  act (f, SEND, NULL, "first");
  act (f, SEND, NULL, "second");

  act (f, EDIT, message_id_at (f, 2), "seconde");

  body = agui_test_server_get_request_body (f->server, 2);
  assert_described (describe (json_object_get_array_member (body, "messages")),
                    "user:first assistant:one user:seconde");
  g_assert_cmpstr (json_object_get_string_member_with_default (body, "parentRunId", NULL), ==, "r1");
  assert_position (f, 2, 1, 2);
  /* The answer to the edited message has nothing to switch to. */
  assert_position (f, 3, 0, 1);

  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 2), 0, NULL));
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two");
}

/* Request @index went out as a from-scratch build would print it: its
 * messages are the transcript's projection now, less the answer the
 * run added, and its other members as they are */
static void
assert_sent_as_from_scratch (Fixture *f,
                             guint    index)
{
  const AguiTestRequest *request = agui_test_server_get_request (f->server, index);
  g_autoptr(JsonArray) messages = agui_transcript_to_messages (agui_agent_session_get_transcript (f->session), FALSE);
  g_autoptr(JsonArray) sent = json_array_new ();
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *expected_text = NULL;
  g_autofree char *body = NULL;
  gsize len;

  for (guint i = 0; i + 1 < json_array_get_length (messages); i++)
    json_array_add_element (sent, json_node_copy (json_array_get_element (messages, i)));
  expected = json_node_copy (request->json);
  json_object_set_array_member (json_node_get_object (expected), "messages", json_array_ref (sent));
  expected_text = json_to_string (expected, FALSE);

  body = g_strndup (g_bytes_get_data (request->body, &len), g_bytes_get_size (request->body));
  g_assert_cmpuint (len, ==, strlen (expected_text));
  g_assert_cmpstr (body, ==, expected_text);
}

static void
test_input_as_from_scratch (Fixture       *f,
                            gconstpointer  data)
{
  g_test_summary ("After an edit, a regenerate and a branch switch, a send carries exactly what a from-scratch build does");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "two \\\"again\\\""));
  agui_test_server_push_response (f->server, ANSWER ("r4", "a4", "three"));
  agui_test_server_push_response (f->server, ANSWER ("r5", "a5", "deux"));
  agui_test_server_push_response (f->server, ANSWER ("r6", "a6", "four"));

  act (f, SEND, NULL, "first");
  assert_sent_as_from_scratch (f, 0);
  act (f, SEND, NULL, "second");
  assert_sent_as_from_scratch (f, 1);
  act (f, REGENERATE, message_id_at (f, 3), NULL);
  assert_sent_as_from_scratch (f, 2);

  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 3), 0, NULL));
  act (f, SEND, NULL, "third");
  assert_sent_as_from_scratch (f, 3);
  assert_described (describe (json_object_get_array_member (agui_test_server_get_request_body (f->server, 3), "messages")),
                    "user:first assistant:one user:second assistant:two user:third");

  act (f, EDIT, message_id_at (f, 2), "seconde");
  assert_sent_as_from_scratch (f, 4);
  assert_described (describe (json_object_get_array_member (agui_test_server_get_request_body (f->server, 4), "messages")),
                    "user:first assistant:one user:seconde");

  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 2), 0, NULL));
  act (f, SEND, NULL, "fourth");
  assert_sent_as_from_scratch (f, 5);
  assert_described (describe (json_object_get_array_member (agui_test_server_get_request_body (f->server, 5), "messages")),
                    "user:first assistant:one user:second assistant:two user:third assistant:three user:fourth");
}

static void
test_edit_refuses_an_answer (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiRunState) state = NULL;
  GAsyncResult *result = NULL;

  g_test_summary ("Only the person's messages can be edited; nothing is sent or forked otherwise");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  act (f, SEND, NULL, "first");

  agui_agent_session_edit_async (f->session, message_id_at (f, 1), "x", NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  state = agui_agent_session_edit_finish (f->session, result, &error);
  g_object_unref (result);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
  g_assert_null (state);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (agui_transcript_get_n_branches (agui_agent_session_get_transcript (f->session)), ==, 1);
  assert_described (describe_transcript (f), "user:first assistant:one");
}

static void
test_times_survive_relaunch (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GPtrArray) snapshots = NULL;
  AguiTranscript *transcript;
  gint64 reopened, first, second;

  g_test_summary ("A thread that never forked, reopened, dates each message by its turn, not by the reopening");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  act (f, SEND, NULL, "first");
  act (f, SEND, NULL, "second");

  snapshots = _agui_session_store_list_snapshots (f->store, "t", FALSE, NULL);
  g_assert_cmpuint (snapshots->len, ==, 2);
  first = ((AguiTurnSnapshot *) g_ptr_array_index (snapshots, 0))->created_at;
  second = ((AguiTurnSnapshot *) g_ptr_array_index (snapshots, 1))->created_at;
  g_assert_cmpint (first, >, 0);
  g_assert_cmpint (second, >=, first);

  g_usleep (2000);
  reopened = g_get_real_time ();
  open_session (f);
  transcript = agui_agent_session_get_transcript (f->session);
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two");
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 0)), ==, first);
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 1)), ==, first);
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 2)), ==, second);
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 3)), ==, second);
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 3)), <, reopened);

  /* A new turn is dated as it happens */
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "three"));
  act (f, SEND, NULL, "third");
  g_assert_cmpint (agui_transcript_get_message_time (transcript, message_id_at (f, 5)), >=, reopened);
}

static void
test_branches_survive_relaunch (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(JsonObject) snapshot = NULL;

  g_test_summary ("Both branches come back from the store, on the branch last chosen, and go on from it");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "two again"));
  act (f, SEND, NULL, "first");
  act (f, SEND, NULL, "second");
  act (f, REGENERATE, message_id_at (f, 3), NULL);

  open_session (f);
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two again");
  assert_position (f, 3, 1, 2);
  /* A reopened message's time is when its turn was written */
  snapshot = agui_session_store_get_last_snapshot (f->store, "t", NULL);
  g_assert_cmpint (agui_transcript_get_message_time (agui_agent_session_get_transcript (f->session), message_id_at (f, 3)),
                   ==, json_object_get_int_member (snapshot, "createdAt"));
  g_clear_pointer (&snapshot, json_object_unref);

  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 3), 0, NULL));
  wait_for_chosen (f);

  open_session (f);
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two");
  assert_position (f, 3, 0, 2);

  /* The next turn chains to the chosen branch's last snapshot. */
  agui_test_server_push_response (f->server, ANSWER ("r4", "a4", "three"));
  act (f, SEND, NULL, "third");
  assert_described (describe (json_object_get_array_member (agui_test_server_get_request_body (f->server, 3), "messages")),
                    "user:first assistant:one user:second assistant:two user:third");

  open_session (f);
  assert_described (describe_transcript (f),
                    "user:first assistant:one user:second assistant:two user:third assistant:three");
  assert_position (f, 3, 0, 2);
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 3), 1, NULL));
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two again");
}

/* Two branches of "second": the first answer "two", the chosen one "two again". */
static void
make_two_branches (Fixture *f)
{
  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, ANSWER ("r2", "a2", "two"));
  agui_test_server_push_response (f->server, ANSWER ("r3", "a3", "two again"));
  act (f, SEND, NULL, "first");
  act (f, SEND, NULL, "second");
  act (f, REGENERATE, message_id_at (f, 3), NULL);
}

static void
test_store_branches (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  JsonObject *first, *second;

  g_test_summary ("The store lists both branches, the chosen one marked, and prints them all as Markdown");

  make_two_branches (f);

  branches = agui_session_store_list_branches (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (branches), ==, 2);
  first = json_array_get_object_element (branches, 0);
  second = json_array_get_object_element (branches, 1);
  g_assert_false (json_object_get_boolean_member (first, "chosen"));
  g_assert_true (json_object_get_boolean_member (second, "chosen"));
  /* The regenerated turn is a second child of the first turn's snapshot */
  g_assert_cmpstr (json_object_get_string_member (second, "parentId"), ==,
                   json_object_get_string_member (first, "parentId"));
  g_assert_cmpstr (json_object_get_string_member (second, "runId"), ==, "r3");
  assert_described (describe (json_object_get_array_member (first, "messages")),
                    "user:first assistant:one user:second assistant:two");
  assert_described (describe (json_object_get_array_member (second, "messages")),
                    "user:first assistant:one user:second assistant:two again");

  markdown = agui_session_store_export_branches_markdown (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "## Branch 1 of 2\n"));
  g_assert_nonnull (strstr (markdown, "## Branch 2 of 2 (chosen)\n"));
  g_assert_true (strstr (markdown, "two\n") < strstr (markdown, "## Branch 2 of 2"));
  g_assert_true (strstr (markdown, "two again\n") > strstr (markdown, "## Branch 2 of 2"));

  /* The chosen branch alone in the plain export */
  g_clear_pointer (&markdown, g_free);
  markdown = agui_session_store_export_markdown (f->store, "t", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "two again"));
  g_assert_null (strstr (markdown, "two\n"));
}

/* A branch's end whose messages cannot be read is left out with a
 * warning, as a damaged last snapshot is: the other branch opens, and
 * the thread no longer offers the lost one. Its turn's own list of
 * messages is intact, so only reading its messages finds the damage. */
static void
test_damaged_branch_end (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_test_summary ("A branch whose last turn's messages are damaged is skipped; the other one opens");

  make_two_branches (f);
  g_clear_object (&f->session);
  g_clear_object (&f->store);

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE messages SET json = '{\"id\": broken' "
                                     "WHERE json LIKE '%\"content\":\"two\"%'", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);

  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*skipped the damaged snapshot of turn 1*");
  open_session (f);
  g_test_assert_expected_messages ();
  assert_described (describe_transcript (f), "user:first assistant:one user:second assistant:two again");
  assert_position (f, 3, 0, 1);

  g_test_expect_message ("Agui", G_LOG_LEVEL_WARNING, "*skipped the damaged snapshot of turn 1*");
  branches = agui_session_store_list_branches (f->store, "t", &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (branches), ==, 1);
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (branches, 0), "chosen"));
  assert_described (describe (json_object_get_array_member (json_array_get_object_element (branches, 0), "messages")),
                    "user:first assistant:one user:second assistant:two again");
}

static void
test_export_import (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autoptr(AguiAgentSession) imported = NULL;
  g_autoptr(JsonArray) messages = NULL;

  g_test_summary ("A thread that forked exports its chosen branch, and the export imports back to exactly that");

  make_two_branches (f);
  exported = agui_test_export_streamed (f->store, "t");
  assert_described (describe (json_object_get_array_member (json_node_get_object (exported), "messages")),
                    "user:first assistant:one user:second assistant:two again");

  id = agui_test_import_streamed (f->store, exported, &error);
  g_assert_no_error (error);
  g_assert_nonnull (id);

  imported = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport),
                           "thread-id", id, "store", f->store, NULL);
  g_assert_true (_agui_agent_session_restore (imported, &error));
  g_assert_no_error (error);
  messages = agui_transcript_to_messages (agui_agent_session_get_transcript (imported), FALSE);
  assert_described (describe (messages), "user:first assistant:one user:second assistant:two again");
}

static char *
run_cli (int        *status,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (process);

  return out;
}

static void
test_cli_all_branches (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *chosen = NULL;
  g_autofree char *all = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonArray *branches;
  int status;

  g_test_summary ("tandem-cli show prints the chosen branch, and every one with --all-branches");

  if (g_getenv ("TANDEM_CLI") == NULL)
    {
      g_test_skip ("TANDEM_CLI is not set");
      return;
    }

  make_two_branches (f);
  g_clear_object (&f->session);
  g_clear_object (&f->store);

  chosen = run_cli (&status, "show", "t", "--store", f->path, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (chosen, "two again"));
  g_assert_null (strstr (chosen, "two\n"));
  g_assert_null (strstr (chosen, "Branch"));

  all = run_cli (&status, "show", "t", "--store", f->path, "--all-branches", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (all, "## Branch 1 of 2\n"));
  g_assert_nonnull (strstr (all, "## Branch 2 of 2 (chosen)\n"));
  g_assert_nonnull (strstr (all, "two\n"));
  g_assert_nonnull (strstr (all, "two again\n"));

  json = run_cli (&status, "show", "t", "--store", f->path, "--export", "--all-branches", NULL);
  g_assert_cmpint (status, ==, 0);
  node = json_from_string (json, NULL);
  g_assert_nonnull (node);
  branches = json_object_get_array_member (json_node_get_object (node), "branches");
  g_assert_cmpuint (json_array_get_length (branches), ==, 2);

  open_session (f);
}

static void
test_run_state_follows_branch (Fixture       *f,
                               gconstpointer  data)
{
  AguiTranscript *transcript;
  GAsyncResult *result = NULL;
  g_autoptr(AguiRunState) state = NULL;

  g_test_summary ("A branch shows how its own last run ended: a failure stays with the branch that failed");

  agui_test_server_push_response (f->server, ANSWER ("r1", "a1", "one"));
  agui_test_server_push_response (f->server, agui_test_response_new_events (
    RS ("r2"), TS ("a2"), TC ("a2", "half"), "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}", NULL));
  act (f, SEND, NULL, "first");

  agui_agent_session_regenerate_async (f->session, message_id_at (f, 1), NULL, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 10000));
  state = agui_agent_session_regenerate_finish (f->session, result, NULL);
  g_object_unref (result);
  g_assert_cmpint (agui_run_state_get_status (state), ==, AGUI_RUN_FAILED);

  transcript = agui_agent_session_get_transcript (f->session);
  assert_position (f, 1, 1, 2);
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 1), 0, NULL));
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FINISHED);
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 1), 1, NULL));
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FAILED);

  /* After a relaunch, on the failed branch; the other one failed nothing */
  wait_for_chosen (f);
  open_session (f);
  transcript = agui_agent_session_get_transcript (f->session);
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FAILED);
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 1), 0, NULL));
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), !=, AGUI_RUN_FAILED);
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 1), 1, NULL));
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), ==, AGUI_RUN_FAILED);

  /* Reopened on the branch that answered, the log's last failure is not its own */
  g_assert_true (agui_agent_session_choose_branch (f->session, message_id_at (f, 1), 0, NULL));
  wait_for_chosen (f);
  open_session (f);
  transcript = agui_agent_session_get_transcript (f->session);
  assert_described (describe_transcript (f), "user:first assistant:one");
  g_assert_cmpint (agui_run_state_get_status (agui_transcript_get_run_state (transcript)), !=, AGUI_RUN_FAILED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/agui/session-branches/regenerate-input", Fixture, NULL, fixture_set_up, test_regenerate_input, fixture_tear_down);
  g_test_add ("/agui/session-branches/edit-input", Fixture, NULL, fixture_set_up, test_edit_input, fixture_tear_down);
  g_test_add ("/agui/session-branches/input-as-from-scratch", Fixture, NULL, fixture_set_up, test_input_as_from_scratch, fixture_tear_down);
  g_test_add ("/agui/session-branches/edit-refuses-an-answer", Fixture, NULL, fixture_set_up, test_edit_refuses_an_answer, fixture_tear_down);
  g_test_add ("/agui/session-branches/store", Fixture, NULL, fixture_set_up, test_store_branches, fixture_tear_down);
  g_test_add ("/agui/session-branches/damaged-branch-end", Fixture, NULL, fixture_set_up, test_damaged_branch_end, fixture_tear_down);
  g_test_add ("/agui/session-branches/export-import", Fixture, NULL, fixture_set_up, test_export_import, fixture_tear_down);
  g_test_add ("/agui/session-branches/cli-all-branches", Fixture, NULL, fixture_set_up, test_cli_all_branches, fixture_tear_down);
  g_test_add ("/agui/session-branches/run-state-follows-branch", Fixture, NULL, fixture_set_up, test_run_state_follows_branch, fixture_tear_down);
  g_test_add ("/agui/session-branches/survive-relaunch", Fixture, NULL, fixture_set_up, test_branches_survive_relaunch, fixture_tear_down);
  g_test_add ("/agui/session-branches/times-survive-relaunch", Fixture, NULL, fixture_set_up, test_times_survive_relaunch, fixture_tear_down);

  return g_test_run ();
}
