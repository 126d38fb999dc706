/* test-session-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "agui-test-tree.h"
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <grp.h>
#include <sqlite3.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif

#include "agui.h"
#include "agui-agent-session-private.h"
#include "agui-test-util.h"
#include "agui-chunk-normalizer-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-reducer-private.h"
#include "agui-event-compactor-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-journal-private.h"

/* The version the last migration makes */
#define SCHEMA_LATEST 9

/* The shape of the turns store-child.c writes: RUN_STARTED, per tool call
 * START + ARGS + END once compacted, START + one CONTENT + END of the
 * text, RUN_FINISHED. */
#define CHILD_TEXT_DELTAS 50
#define CHILD_EVENTS_PER_TURN(calls) (3 * (calls) + 5)

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
set_up (Fixture       *f,
        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("session-store-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "tandem.db", NULL);
}

static void
tear_down (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_chmod (f->dir, 0700);
  dir = g_dir_open (f->dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);

  g_free (f->path);
  g_free (f->dir);
}

/* Helpers */

static AguiEvent *
event (const char *json)
{
  g_autoptr(GError) error = NULL;
  AguiEvent *result = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  return result;
}

static GPtrArray *
events_from_strings (const char * const *jsons)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  for (guint i = 0; jsons != NULL && jsons[i] != NULL; i++)
    g_ptr_array_add (events, event (jsons[i]));

  return events;
}

static JsonNode *
json (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  return node;
}

static char *
to_string (JsonNode *node)
{
  return node ? json_to_string (node, FALSE) : g_strdup ("(none)");
}

static char *
array_string (JsonArray *array)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), array);

  return json_to_string (node, FALSE);
}

/* The interrupts as the JSON array they were read from. */
static char *
interrupts_string (GListModel *interrupts)
{
  g_autoptr(JsonArray) array = json_array_new ();

  g_assert_true (g_list_model_get_item_type (interrupts) == AGUI_TYPE_INTERRUPT);
  for (guint i = 0; i < g_list_model_get_n_items (interrupts); i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (interrupts, i);

      json_array_add_element (array, agui_interrupt_to_json (interrupt));
    }

  return array_string (array);
}

static char *
member_string (JsonObject *object,
               const char *name)
{
  return to_string (json_object_get_member (object, name));
}

typedef struct
{
  const char         *thread_id;
  const char         *snapshot_id;
  const char         *parent_id;
  int                 turn_index;
  AguiSnapshotStatus  status;
  const char         *finish_reason;
  const char         *error;
  const char         *messages;
  const char         *state;
  const char         *interrupts;
  const char * const *events;
} TurnSpec;

static gboolean
save (AguiSessionStore  *store,
      const TurnSpec    *spec,
      GError           **error)
{
  g_autoptr(JsonNode) messages = json (spec->messages ? spec->messages : "[]");
  g_autoptr(JsonNode) state = json (spec->state ? spec->state : "null");
  g_autoptr(JsonNode) interrupts = json (spec->interrupts ? spec->interrupts : "[]");
  g_autoptr(GPtrArray) events = events_from_strings (spec->events);
  AguiTurnRecord turn = {
    .thread_id = spec->thread_id,
    .snapshot_id = spec->snapshot_id,
    .parent_id = spec->parent_id,
    .turn_index = spec->turn_index,
    .status = spec->status,
    .finish_reason = spec->finish_reason,
    .error = spec->error,
    .messages = agui_test_tree (messages),
    .state = agui_test_tree (state),
    .events = events,
    .pending_interrupts = agui_test_tree (interrupts),
  };

  return _agui_session_store_save_turn (store, &turn, error);
}

static void
save_ok (AguiSessionStore *store,
         const TurnSpec   *spec)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (save (store, spec, &error));
  g_assert_no_error (error);
}

static AguiSessionStore *
open_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  AguiSessionStore *store = agui_session_store_new (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* Reads one integer (or text) with a connection of our own, beside the store's. */
static gint64
sql_int (const char *path,
         const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

static char *
sql_text (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
assert_integrity (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

static char *
events_string (GPtrArray *events)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *text = agui_event_to_string (g_ptr_array_index (events, i));

      g_string_append_printf (out, "%s%s", i ? "," : "", text);
    }
  g_string_append_c (out, ']');

  return g_string_free (out, FALSE);
}

static char *
snapshot_field (AguiSessionStore *store,
                const char       *thread_id,
                const char       *member)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) snapshot = agui_session_store_get_last_snapshot (store, thread_id, &error);

  g_assert_no_error (error);
  g_assert_nonnull (snapshot);
  return member_string (snapshot, member);
}

/* Transcript structure: every row's role and id, then each part's type
 * and text, so two transcripts compare as they would be drawn. */
static char *
describe_transcript (AguiTranscript *transcript)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (G_LIST_MODEL (transcript), i);
      GListModel *parts = agui_speaker_turn_get_parts (message);

      g_string_append_printf (out, "row %s %s\n", agui_role_to_string (agui_speaker_turn_get_role (message)),
                              agui_speaker_turn_get_id (message));
      for (guint j = 0; j < g_list_model_get_n_items (parts); j++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (parts, j);

          g_string_append_printf (out, "  %s complete=%d", G_OBJECT_TYPE_NAME (part),
                                  agui_part_get_complete (part));
          if (AGUI_IS_TEXT_PART (part))
            g_string_append_printf (out, " \"%s\"", agui_text_part_get_text (AGUI_TEXT_PART (part)));
          else if (AGUI_IS_REASONING_PART (part))
            g_string_append_printf (out, " \"%s\"", agui_reasoning_part_get_text (AGUI_REASONING_PART (part)));
          else if (AGUI_IS_TOOL_CALL_PART (part))
            g_string_append_printf (out, " %s %s '%s' status=%d",
                                    agui_tool_call_part_get_tool_call_id (AGUI_TOOL_CALL_PART (part)),
                                    agui_tool_call_part_get_tool_name (AGUI_TOOL_CALL_PART (part)),
                                    agui_tool_call_part_get_arguments (AGUI_TOOL_CALL_PART (part)),
                                    agui_tool_call_part_get_status (AGUI_TOOL_CALL_PART (part)));
          g_string_append_c (out, '\n');
        }
    }

  return g_string_free (out, FALSE);
}

static void
fold (GPtrArray  *events,
      char      **messages,
      char      **structure,
      char      **state)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);

  for (guint i = 0; i < events->len; i++)
    _agui_reducer_apply (reducer, g_ptr_array_index (events, i));

  *messages = array_string (agui_transcript_to_messages (transcript, TRUE));
  *structure = describe_transcript (transcript);
  *state = to_string (agui_transcript_get_state (transcript));
}

static void
assert_same_transcript (GPtrArray *raw,
                        GPtrArray *compacted)
{
  g_autofree char *raw_messages = NULL, *raw_structure = NULL, *raw_state = NULL;
  g_autofree char *messages = NULL, *structure = NULL, *state = NULL;

  fold (raw, &raw_messages, &raw_structure, &raw_state);
  fold (compacted, &messages, &structure, &state);

  g_assert_cmpstr (structure, ==, raw_structure);
  g_assert_cmpstr (messages, ==, raw_messages);
  g_assert_cmpstr (state, ==, raw_state);
}

/* Schema */

static void
test_schema_version (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;

  g_test_summary ("A new database gets schema version 6, the tables, WAL and its indexes");

  store = open_store (f->path);
  g_assert_cmpstr (agui_session_store_get_path (store), ==, f->path);

  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, SCHEMA_LATEST);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM pragma_table_info ('threads') WHERE name = 'branch'"), ==, 1);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM pragma_table_info ('threads') WHERE name = 'key'"), ==, 1);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM pragma_table_info ('threads') WHERE name = 'pinned'"), ==, 1);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM pragma_table_info ('snapshots') WHERE name = 'run_id'"), ==, 1);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM sqlite_master WHERE type = 'table' AND name IN "
                                     "('threads', 'log', 'snapshots', 'interrupts', "
                                     "'journal', 'drafts', 'messages', 'surface_values')"), ==, 8);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM sqlite_master WHERE type = 'index' AND name IN "
                                     "('threads_by_updated', 'threads_by_key')"), ==, 2);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), ==, 1);
  g_clear_object (&store);

  /* Reopening a current database changes nothing. */
  store = open_store (f->path);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, SCHEMA_LATEST);
}

static void
test_schema_future (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A database from a newer version is refused, untouched");

  sql_exec (f->path, "CREATE TABLE later (x); PRAGMA user_version = 99;");

  store = agui_session_store_new (f->path, &error);
  g_assert_null (store);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "newer version"));
  g_assert_nonnull (strstr (error->message, f->path));
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, 99);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM sqlite_master WHERE name = 'threads'"), ==, 0);
}

static void
test_not_a_database (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A file that is not a database is a clear error");

  g_assert_true (g_file_set_contents (f->path, "This is not SQLite, just some text that is long enough "
                                               "to fill a database header and then some more.", -1, NULL));
  store = agui_session_store_new (f->path, &error);
  g_assert_null (store);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "not a database"));
}

static void
test_default_path (void)
{
  g_autofree char *path = agui_session_store_dup_default_path ();
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "tandem", "tandem.db", NULL);
  g_autofree char *folder = g_path_get_dirname (expected);
  g_autoptr(AguiSessionStore) store = NULL;

  g_test_summary ("The default database lives under the user data folder, which is created");

  g_assert_cmpstr (path, ==, expected);
  store = open_store (NULL);
  g_assert_cmpstr (agui_session_store_get_path (store), ==, expected);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
}

/* Threads */

static const char * const one_message_events[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"a\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hello \"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"there\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"a\",\"runId\":\"r1\"}",
  NULL
};

static char *
list_ids (AguiSessionStore *store,
          const char       *search)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) threads = agui_session_store_list_threads (store, search, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (threads);
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);

      g_string_append_printf (out, "%s%s", i ? " " : "", json_object_get_string_member (thread, "id"));
    }

  return g_string_free (out, FALSE);
}

static void
test_threads (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autofree char *ids = NULL;
  TurnSpec turn = {
    .thread_id = "a", .snapshot_id = "a-0", .turn_index = 0,
    .messages = "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Where is the Zebra report?\"},"
                "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Hello there\"}]",
    .state = "{\"topic\":\"reports\"}",
    .events = one_message_events,
  };

  g_test_summary ("Threads are created, listed newest first, searched, renamed and deleted");

  g_assert_true (agui_session_store_create_thread (store, "a", "First", "http://agent/a", &error));
  g_assert_no_error (error);
  g_assert_true (agui_session_store_create_thread (store, "b", "Ärger im Büro", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (agui_session_store_create_thread (store, "c", "Third", NULL, &error));
  g_assert_no_error (error);

  g_assert_false (agui_session_store_create_thread (store, "a", "Again", NULL, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "already exists"));
  g_clear_error (&error);

  ids = list_ids (store, NULL);
  g_assert_cmpstr (ids, ==, "c b a");
  g_clear_pointer (&ids, g_free);

  thread = agui_session_store_get_thread (store, "a", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (thread, "title"), ==, "First");
  g_assert_cmpstr (json_object_get_string_member (thread, "agent"), ==, "http://agent/a");
  g_assert_cmpint (json_object_get_int_member (thread, "created"), >, 0);
  g_clear_pointer (&thread, json_object_unref);

  /* A turn makes its thread the newest. */
  save_ok (store, &turn);
  ids = list_ids (store, NULL);
  g_assert_cmpstr (ids, ==, "a c b");
  g_clear_pointer (&ids, g_free);

  /* Search looks at titles and message text, ignoring case in any script,
   * but not at ids or roles. */
  ids = list_ids (store, "zebra");
  g_assert_cmpstr (ids, ==, "a");
  g_clear_pointer (&ids, g_free);
  ids = list_ids (store, "ÄRGER");
  g_assert_cmpstr (ids, ==, "b");
  g_clear_pointer (&ids, g_free);
  ids = list_ids (store, "HELLO THERE");
  g_assert_cmpstr (ids, ==, "a");
  g_clear_pointer (&ids, g_free);
  ids = list_ids (store, "assistant");
  g_assert_cmpstr (ids, ==, "");
  g_clear_pointer (&ids, g_free);
  ids = list_ids (store, "%");
  g_assert_cmpstr (ids, ==, "");
  g_clear_pointer (&ids, g_free);
  ids = list_ids (store, "");
  g_assert_cmpstr (ids, ==, "a c b");
  g_clear_pointer (&ids, g_free);

  g_assert_true (agui_session_store_rename_thread (store, "c", "Zebras, renamed", &error));
  g_assert_no_error (error);
  ids = list_ids (store, "zebra");
  g_assert_cmpstr (ids, ==, "a c");
  g_clear_pointer (&ids, g_free);

  g_assert_false (agui_session_store_rename_thread (store, "nope", "x", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no such thread"));
  g_clear_error (&error);

  g_assert_true (agui_session_store_delete_thread (store, "a", &error));
  g_assert_no_error (error);
  ids = list_ids (store, NULL);
  g_assert_cmpstr (ids, ==, "c b");
  g_clear_pointer (&ids, g_free);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log"), ==, 0);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM snapshots"), ==, 0);
  g_assert_cmpint (agui_session_store_get_turn_count (store, "a", &error), ==, 0);
  g_assert_no_error (error);

  g_assert_false (agui_session_store_delete_thread (store, "a", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  thread = agui_session_store_get_thread (store, "a", &error);
  g_assert_null (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no such thread"));
}

/* Turns */

static void
test_turns (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) good = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;
  TurnSpec turns[] = {
    { .thread_id = "t", .snapshot_id = "s0", .turn_index = 0, .status = AGUI_SNAPSHOT_COMPLETED,
      .finish_reason = "stop", .state = "{\"n\":0}", .events = one_message_events },
    { .thread_id = "t", .snapshot_id = "s1", .parent_id = "s0", .turn_index = 1,
      .status = AGUI_SNAPSHOT_COMPLETED, .state = "{\"n\":1}",
      .interrupts = "[{\"id\":\"i1\",\"reason\":\"approve\"}]" },
    { .thread_id = "t", .snapshot_id = "s2", .parent_id = "s1", .turn_index = 2,
      .status = AGUI_SNAPSHOT_FAILED, .error = "the agent broke", .state = "{\"n\":2}",
      .events = one_message_events },
    { .thread_id = "t", .snapshot_id = "s3", .parent_id = "s2", .turn_index = 3,
      .status = AGUI_SNAPSHOT_ABORTED, .finish_reason = "cancelled", .state = "{\"n\":3}" },
  };

  g_test_summary ("Turns count failures, the last good state skips them, parents are kept");

  g_assert_cmpint (agui_session_store_get_turn_count (store, "t", &error), ==, 0);
  g_assert_no_error (error);
  snapshot = agui_session_store_get_last_snapshot (store, "t", &error);
  g_assert_null (snapshot);
  g_assert_no_error (error);
  good = agui_session_store_get_last_good_state (store, "t", &error);
  g_assert_null (good);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (turns); i++)
    {
      g_autofree char *parent = NULL;
      g_autofree char *id = NULL;
      g_autofree char *expected_parent = i == 0 ? g_strdup ("null") : g_strdup_printf ("\"s%u\"", i - 1);
      g_autofree char *expected_id = g_strdup_printf ("\"s%u\"", i);

      save_ok (store, &turns[i]);
      g_assert_cmpint (agui_session_store_get_turn_count (store, "t", &error), ==, i + 1);
      g_assert_no_error (error);

      parent = snapshot_field (store, "t", "parentId");
      id = snapshot_field (store, "t", "id");
      g_assert_cmpstr (parent, ==, expected_parent);
      g_assert_cmpstr (id, ==, expected_id);
    }

  /* The thread was created by the first turn, untitled. */
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads WHERE id = 't' AND title = ''"), ==, 1);

  good = agui_session_store_get_last_good_state (store, "t", &error);
  g_assert_no_error (error);
  text = to_string (good);
  g_assert_cmpstr (text, ==, "{\"n\":1}");
  g_clear_pointer (&text, g_free);

  snapshot = agui_session_store_get_last_snapshot (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (snapshot, "status"), ==, "ABORTED");
  g_assert_cmpstr (json_object_get_string_member (snapshot, "finishReason"), ==, "cancelled");
  g_assert_false (json_object_has_member (snapshot, "error"));
  g_assert_cmpstr (json_object_get_string_member (snapshot, "threadId"), ==, "t");
  g_assert_cmpint (json_object_get_int_member (snapshot, "turnIndex"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (snapshot, "createdAt"), >, 0);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (snapshot, "messages")), ==, 0);
  g_clear_pointer (&snapshot, json_object_unref);

  /* Each turn replaces the interrupts; the aborted one left none. */
  interrupts = agui_session_store_get_pending_interrupts (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_list_model_get_n_items (interrupts), ==, 0);
  g_clear_object (&interrupts);

  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM snapshots WHERE id = 's2' AND status = 'FAILED' "
                                     "AND error = 'the agent broke'"), ==, 1);

  /* Two turns of one message each, compacted to five events apiece, with
   * consecutive sequence numbers under the thread's key. */
  events = agui_session_store_load_events (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpint (events->len, ==, 10);
  g_assert_cmpstr (agui_event_get_delta (g_ptr_array_index (events, 2)), ==, "Hello there");
  g_assert_cmpint (sql_int (f->path, "SELECT MAX (seq) FROM log WHERE thread_key = "
                                     "(SELECT key FROM threads WHERE id = 't')"), ==, 9);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log"), ==, 10);

  /* Turn 1 had interrupts: check them by saving one more. */
  {
    TurnSpec more = { .thread_id = "t", .snapshot_id = "s4", .parent_id = "s3", .turn_index = 4,
                      .interrupts = "[{\"id\":\"i1\"},{\"id\":\"i2\"}]" };

    save_ok (store, &more);
    interrupts = agui_session_store_get_pending_interrupts (store, "t", &error);
    g_assert_no_error (error);
    text = interrupts_string (interrupts);
    g_assert_cmpstr (text, ==, "[{\"id\":\"i1\"},{\"id\":\"i2\"}]");
  }
}

static void
assert_turn_not_written (Fixture          *f,
                         AguiSessionStore *store,
                         gint64            updated_before)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autofree char *id = NULL;

  g_assert_cmpint (agui_session_store_get_turn_count (store, "t", &error), ==, 1);
  events = agui_session_store_load_events (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpint (events->len, ==, 5);
  interrupts = agui_session_store_get_pending_interrupts (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_list_model_get_n_items (interrupts), ==, 1);
  thread = agui_session_store_get_thread (store, "t", &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (thread, "updated"), ==, updated_before);
  id = snapshot_field (store, "t", "id");
  g_assert_cmpstr (id, ==, "\"s0\"");
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads"), ==, 1);
}

static void
test_turn_atomic (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) thread = NULL;
  gint64 updated;
  TurnSpec first = { .thread_id = "t", .snapshot_id = "s0", .turn_index = 0,
                     .interrupts = "[{\"id\":\"keep\"}]", .events = one_message_events };
  TurnSpec same_id = { .thread_id = "t", .snapshot_id = "s0", .turn_index = 1,
                       .interrupts = "[]", .events = one_message_events };
  TurnSpec same_index = { .thread_id = "t", .snapshot_id = "s1", .turn_index = 0,
                          .interrupts = "[]", .events = one_message_events };

  g_test_summary ("A turn that fails halfway writes nothing: no events, thread bump or interrupts");

  save_ok (store, &first);
  thread = agui_session_store_get_thread (store, "t", &error);
  g_assert_no_error (error);
  updated = json_object_get_int_member (thread, "updated");

  /* The snapshot insert fails after the thread bump and the events. */
  g_assert_false (save (store, &same_id, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "Could not save the turn"));
  g_assert_nonnull (strstr (error->message, "'s0' already exists"));
  g_clear_error (&error);
  assert_turn_not_written (f, store, updated);

  g_assert_false (save (store, &same_index, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "already has a turn 0"));
  g_clear_error (&error);
  assert_turn_not_written (f, store, updated);

  /* The store is still usable. */
  same_id.snapshot_id = "s1";
  save_ok (store, &same_id);
  g_assert_cmpint (agui_session_store_get_turn_count (store, "t", &error), ==, 2);
}

static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GString) big_state = g_string_new ("{\"blob\":\"");
  g_autoptr(GPtrArray) many = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  gint64 updated;
  TurnSpec first = { .thread_id = "t", .snapshot_id = "s0", .turn_index = 0,
                     .interrupts = "[{\"id\":\"keep\"}]", .events = one_message_events };
  TurnSpec second = { .thread_id = "t", .snapshot_id = "s1", .parent_id = "s0", .turn_index = 1 };

  g_test_summary ("A full disk is a clear error; the earlier turns stay and the store recovers");

  save_ok (store, &first);
  thread = agui_session_store_get_thread (store, "t", &error);
  g_assert_no_error (error);
  updated = json_object_get_int_member (thread, "updated");

  /* Thousands of tool calls that cannot be compacted, and a large state:
   * the write runs out of pages partway through the events. */
  for (int i = 0; i < 2000; i++)
    {
      g_ptr_array_add (many, g_strdup_printf ("{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc%d\","
                                              "\"toolCallName\":\"n\"}", i));
      g_ptr_array_add (many, g_strdup_printf ("{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc%d\"}", i));
    }
  g_ptr_array_add (many, NULL);
  for (int i = 0; i < 100000; i++)
    g_string_append_c (big_state, 'a' + i % 26);
  g_string_append (big_state, "\"}");
  second.events = (const char * const *) many->pdata;
  second.state = big_state->str;

  g_assert_cmpint (_agui_session_store_set_max_page_count (store, 1), >, 0);
  g_assert_false (save (store, &second, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_cmpstr (error->message, ==, "Could not save the turn: the disk is full");
  g_clear_error (&error);

  assert_turn_not_written (f, store, updated);
  assert_integrity (f->path);

  /* Room again: the same turn goes through. */
  g_assert_cmpint (_agui_session_store_set_max_page_count (store, 1 << 30), >=, 1 << 30);
  save_ok (store, &second);
  g_assert_cmpint (agui_session_store_get_turn_count (store, "t", &error), ==, 2);
  text = snapshot_field (store, "t", "state");
  g_assert_cmpstr (text, ==, big_state->str);
}

/* Compaction */

static const char * const stream_events[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hel\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"lo\"}",
  "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"reasoning\"}",
  /* After a START: not joined to "Hello". */
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\" wor\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\"think\"}",
  /* Only another stream's delta in between: joined. */
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ld\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\"ing\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc2\",\"delta\":\"{\\\"s\\\":\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"1}\"}",
  /* Text after the tool calls is a new part of m1: it must not join "Hello world". */
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"after\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc2\",\"delta\":\"2}\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\" tools\"}",
  /* Metadata is merged by the reducer on each delta: kept apart, but later deltas join it. */
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"!\",\"metadata\":{\"k\":1}}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"?\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}",
  "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"ok\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"a\",\"timestamp\":1}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"b\",\"timestamp\":2}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"c\",\"timestamp\":3}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"d\",\"timestamp\":4}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
  /* The same id again after an END is a new stretch. */
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"e\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"done\":true}}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
  NULL
};

static const char * const expected_compacted[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hello\"}",
  "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"reasoning\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\" world\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\"thinking\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc2\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":1}\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc2\",\"delta\":\"{\\\"s\\\":2}\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"after tools\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"!?\",\"metadata\":{\"k\":1}}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc2\"}",
  "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"ok\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"abcd\",\"timestamp\":1}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m2\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"e\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m2\"}",
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"done\":true}}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
  NULL
};

static void
assert_events_equal (GPtrArray          *events,
                     const char * const *expected)
{
  g_autoptr(GPtrArray) expected_events = events_from_strings (expected);
  g_autofree char *got = events_string (events);
  g_autofree char *want = events_string (expected_events);

  g_assert_cmpstr (got, ==, want);
}

static void
test_compaction (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) raw = events_from_strings (stream_events);
  g_autoptr(GPtrArray) compacted = _agui_event_compactor_compact (raw);
  g_autoptr(GPtrArray) again = _agui_event_compactor_compact (compacted);
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  TurnSpec turn = { .thread_id = "t", .snapshot_id = "s0", .events = stream_events };
  g_autofree char *structure = NULL, *messages = NULL, *state = NULL;

  g_test_summary ("Deltas join only across other streams' deltas, and the transcript is the same");

  assert_events_equal (compacted, expected_compacted);
  assert_same_transcript (raw, compacted);

  /* The fold really did see text after the tool calls as its own part. */
  fold (compacted, &messages, &structure, &state);
  g_assert_nonnull (strstr (structure, "AguiTextPart complete=0 \"Hello world\"\n"));
  g_assert_nonnull (strstr (structure, "status=1\n  AguiTextPart complete=1 \"after tools!?\"\n"));

  /* Compacting a compacted log changes nothing. */
  assert_events_equal (again, expected_compacted);

  /* The store writes the compacted log and reads it back. */
  save_ok (store, &turn);
  loaded = agui_session_store_load_events (store, "t", &error);
  g_assert_no_error (error);
  assert_events_equal (loaded, expected_compacted);
  assert_same_transcript (raw, loaded);
}

static void
test_compaction_random (void)
{
  g_test_summary ("Randomly interleaved streams replay to the same transcript once compacted");

  for (int round = 0; round < 50; round++)
    {
      g_autoptr(GPtrArray) raw = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      g_autoptr(GPtrArray) compacted = NULL;
      gboolean open_text[3] = { FALSE, }, open_call[3] = { FALSE, }, started_call[3] = { FALSE, };
      gboolean open_reasoning = FALSE;

      g_ptr_array_add (raw, event ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"));
      for (int step = 0; step < 300; step++)
        {
          int which = g_test_rand_int_range (0, 3);
          g_autofree char *text = NULL;

          switch (g_test_rand_int_range (0, 9))
            {
            case 0:
              if (!open_text[which])
                text = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%d\"}", which);
              else
                text = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%d\"}", which);
              open_text[which] = !open_text[which];
              break;

            case 1:
              if (!open_call[which] && !started_call[which])
                text = g_strdup_printf ("{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c%d\","
                                        "\"toolCallName\":\"f\",\"parentMessageId\":\"m%d\"}",
                                        which, g_test_rand_int_range (0, 3));
              else if (open_call[which])
                text = g_strdup_printf ("{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c%d\"}", which);
              started_call[which] = TRUE;
              open_call[which] = text != NULL && !open_call[which];
              break;

            case 2:
              text = g_strdup_printf (open_reasoning
                                        ? "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r\"}"
                                        : "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r\","
                                          "\"role\":\"reasoning\"}");
              open_reasoning = !open_reasoning;
              break;

            case 3: case 4: case 5:
              if (open_text[which])
                text = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%d\","
                                        "\"delta\":\"%c%d\"}", which, 'a' + which, step);
              break;

            case 6: case 7:
              if (open_call[which])
                text = g_strdup_printf ("{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c%d\","
                                        "\"delta\":\"%d,\"}", which, step);
              break;

            default:
              if (open_reasoning)
                text = g_strdup_printf ("{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r\","
                                        "\"delta\":\"r%d\"}", step);
              break;
            }

          if (text != NULL)
            g_ptr_array_add (raw, event (text));
        }

      compacted = _agui_event_compactor_compact (raw);
      g_assert_cmpuint (compacted->len, <, raw->len);
      assert_same_transcript (raw, compacted);
    }
}

/* Export and import */

static const char * const export_events[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"x\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"Let me \"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"check.\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a1\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"a1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\\\"zebra\\\"}\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"x\",\"runId\":\"r1\"}",
  NULL
};

static const char export_messages[] =
  "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Find the zebra report\"},"
  "{\"id\":\"r1\",\"role\":\"reasoning\",\"content\":\"The user wants a report.\\nLook it up.\"},"
  "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Let me check.\",\"toolCalls\":[{\"id\":\"tc1\","
  "\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":\\\"zebra\\\"}\"}}]},"
  "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"tc1\",\"content\":\"Found 3 reports.\"},"
  "{\"id\":\"a2\",\"role\":\"assistant\",\"content\":\"There are three: ```a```.\"}]";

static void
save_export_thread (AguiSessionStore *store)
{
  g_autoptr(GError) error = NULL;
  TurnSpec first = { .thread_id = "x", .snapshot_id = "x0", .turn_index = 0,
                     .messages = "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Find the zebra report\"}]",
                     .state = "{\"step\":1}", .events = export_events };
  TurnSpec second = { .thread_id = "x", .snapshot_id = "x1", .parent_id = "x0", .turn_index = 1,
                      .messages = export_messages, .state = "{\"step\":2,\"found\":[1,2,3]}",
                      .interrupts = "[{\"id\":\"i1\",\"reason\":\"confirm\"}]", .events = export_events };

  g_assert_true (agui_session_store_create_thread (store, "x", "Zebra reports", "demo", &error));
  g_assert_no_error (error);
  save_ok (store, &first);
  save_ok (store, &second);
}

static void
test_export_markdown (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  const char *expected =
    "# Zebra reports\n"
    "\n"
    "Agent: demo\n"
    "\n"
    "### User\n"
    "\n"
    "Find the zebra report\n"
    "\n"
    "> **Reasoning**\n"
    ">\n"
    "> The user wants a report.\n"
    "> Look it up.\n"
    "\n"
    "### Assistant\n"
    "\n"
    "Let me check.\n"
    "\n"
    "**Tool call:** `lookup`\n"
    "\n"
    "```json\n"
    "{\n"
    "  \"q\" : \"zebra\"\n"
    "}\n"
    "```\n"
    "\n"
    "> **Tool result** (`lookup`)\n"
    ">\n"
    "> Found 3 reports.\n"
    "\n"
    "### Assistant\n"
    "\n"
    "There are three: ```a```.\n"
    "\n";

  g_test_summary ("Markdown export: title, messages by role, tool calls as JSON, quoted results; "
                  "not the state, which is the agent's working data");

  save_export_thread (store);
  markdown = agui_session_store_export_markdown (store, "x", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (markdown, ==, expected);

  g_assert_null (agui_session_store_export_markdown (store, "missing", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_export_markdown_arguments (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *pretty = NULL;
  g_autofree char *block = NULL;
  /* No empty object below the first level: libagui's printers write
   * "{  }" at every level, json-glib indents it as deep as it is */
  const char *text = "{\"a\":[1.5,2e-7,-0.0,3.0,[]],\"b\":{\"c\":[],\"d\":null},\"g\":{},"
                     "\"e\":\"caf\\u00e9 \\ud83d\\ude00 \\u0001 \\\" </x>\",\"f\":9007199254740993}";
  g_autofree char *escaped = g_strescape (text, NULL);
  g_autofree char *messages =
    g_strdup_printf ("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Go\"},"
                     "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[{\"id\":\"tc1\","
                     "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"%s\"}}]},"
                     "{\"id\":\"a2\",\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[{\"id\":\"tc2\","
                     "\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{not json\"}}]}]",
                     escaped);
  TurnSpec turn = { .thread_id = "m", .snapshot_id = "m0", .turn_index = 0,
                    .messages = messages, .state = "{}" };

  g_test_summary ("Markdown export: a tool call's arguments printed pretty as json-glib prints them, "
                  "or as they came when they are not JSON");

  g_assert_true (agui_session_store_create_thread (store, "m", "Arguments", "demo", &error));
  g_assert_no_error (error);
  save_ok (store, &turn);

  arguments = json_from_string (text, &error);
  g_assert_no_error (error);
  pretty = json_to_string (arguments, TRUE);
  block = g_strdup_printf ("**Tool call:** `f`\n\n```json\n%s\n```\n", pretty);

  markdown = agui_session_store_export_markdown (store, "m", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, block));
  g_assert_nonnull (strstr (markdown, "**Tool call:** `g`\n\n```json\n{not json\n```\n"));
}

static void
test_export_markdown_stopped (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  /* As the transcript marks them: the last message of a stopped run,
   * and a note on the question of a failed run that said nothing */
  TurnSpec turn = { .thread_id = "s", .snapshot_id = "s0", .turn_index = 0, .status = AGUI_SNAPSHOT_ABORTED,
                    .messages =
                      "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Tell me a story\"},"
                      "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Once upon\","
                      "\"metadata\":{\"tandem\":{\"attempt\":\"stopped\",\"attemptEnd\":true}}},"
                      "{\"id\":\"u2\",\"role\":\"user\",\"content\":\"Again\","
                      "\"metadata\":{\"tandem\":{\"notes\":[{\"kind\":\"run-end\",\"attempt\":\"failed\"}]}}}]",
                    .state = "{\"secret\":\"working data\"}" };
  const char *expected =
    "# Stories\n"
    "\n"
    "### User\n"
    "\n"
    "Tell me a story\n"
    "\n"
    "### Assistant\n"
    "\n"
    "Once upon\n"
    "\n"
    "*Stopped*\n"
    "\n"
    "### User\n"
    "\n"
    "Again\n"
    "\n"
    "*Failed*\n"
    "\n";

  g_test_summary ("Markdown export says in words where an answer was stopped or failed");

  g_assert_true (agui_session_store_create_thread (store, "s", "Stories", NULL, &error));
  g_assert_no_error (error);
  save_ok (store, &turn);
  markdown = agui_session_store_export_markdown (store, "s", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (markdown, ==, expected);
  g_clear_pointer (&markdown, g_free);

  markdown = agui_session_store_export_branches_markdown (store, "s", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "Once upon\n\n*Stopped*\n"));
  g_assert_null (strstr (markdown, "working data"));
}

/* A thread whose messages and state are what its log folds to, as
 * every thread a session writes is. */
static const char * const consistent_events[] = {
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u1\",\"role\":\"user\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"u1\",\"delta\":\"Find the zebra report\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"u1\"}",
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"y\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a1\",\"delta\":\"Let me check.\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a1\"}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"a1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\\\"zebra\\\"}\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"step\":2,\"found\":[1,2,3]}}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"y\",\"runId\":\"r1\"}",
  NULL
};

static void
save_consistent_thread (AguiSessionStore *store,
                        const char       *thread_id)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiChunkNormalizer) normalizer = _agui_chunk_normalizer_new ();
  g_autoptr(JsonArray) folded = NULL;
  g_autoptr(JsonNode) folded_node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *messages = NULL;
  g_autofree char *state = NULL;

  for (guint i = 0; consistent_events[i] != NULL; i++)
    {
      g_autoptr(AguiEvent) event = agui_event_new_from_string (consistent_events[i], -1, &error);
      g_autoptr(GPtrArray) expanded = NULL;

      g_assert_no_error (error);
      expanded = _agui_chunk_normalizer_expand (normalizer, event, &error);
      g_assert_no_error (error);
      g_ptr_array_set_free_func (expanded, (GDestroyNotify) agui_event_unref);
      for (guint j = 0; j < expanded->len; j++)
        _agui_reducer_apply (reducer, g_ptr_array_index (expanded, j));
    }
  folded = agui_transcript_to_messages (_agui_reducer_get_transcript (reducer), TRUE);
  folded_node = json_node_init_array (json_node_alloc (), folded);
  messages = json_to_string (folded_node, FALSE);
  state = json_to_string (agui_transcript_get_state (_agui_reducer_get_transcript (reducer)), FALSE);

  g_assert_true (agui_session_store_create_thread (store, thread_id, "Zebra reports", "demo", &error));
  g_assert_no_error (error);
  save_ok (store, &(TurnSpec) { .thread_id = thread_id, .snapshot_id = "y0", .messages = messages,
                                .state = state, .interrupts = "[{\"id\":\"i1\",\"reason\":\"confirm\"}]",
                                .events = consistent_events });
}

static void
test_export_import (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) reexported = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) imported_events = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autofree char *new_id = NULL;
  g_autofree char *text = NULL, *imported_text = NULL;
  JsonObject *root;

  g_test_summary ("A JSON export imports as a new thread with the same messages, state and events");

  /* The thread of the Markdown test holds messages its log does not
   * reproduce: imported, they would vanish from the next snapshot. */
  save_export_thread (store);
  exported = agui_test_export_streamed (store, "x");
  root = json_node_get_object (exported);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "tandem-thread");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "thread"), "id"), ==, "x");
  text = member_string (root, "messages");
  g_assert_cmpstr (text, ==, export_messages);
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (root, "events")), ==, 16);
  g_assert_null (agui_session_store_import_json (store, exported, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "message 0 (id 'u1') is not what its event log reproduces"));
  g_clear_error (&error);
  g_assert_null (agui_test_import_streamed (store, exported, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "message 0 (id 'u1') is not what its event log reproduces"));
  g_clear_error (&error);
  g_clear_pointer (&exported, json_node_unref);

  save_consistent_thread (store, "y");
  exported = agui_test_export_streamed (store, "y");
  root = json_node_get_object (exported);

  new_id = agui_test_import_streamed (store, exported, &error);
  g_assert_no_error (error);
  g_assert_nonnull (new_id);
  g_assert_cmpstr (new_id, !=, "y");
  g_assert_true (g_uuid_string_is_valid (new_id));

  thread = agui_session_store_get_thread (store, new_id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (thread, "title"), ==, "Zebra reports");
  g_assert_cmpstr (json_object_get_string_member (thread, "agent"), ==, "demo");

  text = snapshot_field (store, "y", "messages");
  imported_text = snapshot_field (store, new_id, "messages");
  g_assert_cmpstr (imported_text, ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&imported_text, g_free);

  text = snapshot_field (store, "y", "state");
  imported_text = snapshot_field (store, new_id, "state");
  g_assert_cmpstr (imported_text, ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&imported_text, g_free);

  events = agui_session_store_load_events (store, "y", &error);
  g_assert_no_error (error);
  imported_events = agui_session_store_load_events (store, new_id, &error);
  g_assert_no_error (error);
  text = events_string (events);
  imported_text = events_string (imported_events);
  g_assert_cmpstr (imported_text, ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&imported_text, g_free);

  interrupts = agui_session_store_get_pending_interrupts (store, new_id, &error);
  g_assert_no_error (error);
  text = interrupts_string (interrupts);
  g_assert_cmpstr (text, ==, "[{\"id\":\"i1\",\"reason\":\"confirm\"}]");
  g_clear_pointer (&text, g_free);

  /* Re-exporting the import gives the same document but for the thread. */
  reexported = agui_session_store_export_json (store, new_id, &error);
  g_assert_no_error (error);
  json_object_remove_member (json_node_get_object (reexported), "thread");
  json_object_remove_member (root, "thread");
  text = to_string (exported);
  imported_text = to_string (reexported);
  g_assert_cmpstr (imported_text, ==, text);
}

static void
test_import_expands_chunks (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(JsonNode) node = json ("{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{\"title\":\"c\"},"
                                   "\"messages\":[{\"id\":\"m\",\"role\":\"assistant\",\"content\":\"hello\"}],"
                                   "\"state\":null,\"events\":["
                                   "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"},"
                                   "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"role\":\"assistant\",\"delta\":\"hello\"},"
                                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}]}");
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("CHUNK events in an import are expanded as a live stream's are, and reopen with their text");

  id = agui_session_store_import_json (store, node, &error);
  g_assert_no_error (error);
  events = agui_session_store_load_events (store, id, &error);
  g_assert_no_error (error);
  text = events_string (events);
  g_assert_null (strstr (text, "CHUNK"));
  g_assert_nonnull (strstr (text, "TEXT_MESSAGE_START"));
  g_assert_nonnull (strstr (text, "TEXT_MESSAGE_END"));
}

static void
test_import_invalid (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) exported = NULL;
  struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "[]", "not a JSON object" },
    { "{\"format\":\"other\",\"version\":1}", "not a Tandem thread export" },
    { "{\"format\":\"tandem-thread\",\"version\":2,\"thread\":{},\"messages\":[],\"events\":[]}", "version 2" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"messages\":[],\"events\":[]}", "no thread" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[{\"id\":\"m\",\"role\":\"robot\"}],"
      "\"events\":[]}", "messages are invalid" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],"
      "\"events\":[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\"},{\"type\":\"NOPE\"}]}", "event 0 is invalid" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"events\":[],"
      "\"pendingInterrupts\":{}}", "interrupts are not an array" },
    { "{\"format\":7,\"version\":1}", "not a Tandem thread export" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"events\":[{\"type\":5}]}",
      "event 0 is not an object with a string \"type\"" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},"
      "\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":\"not in the log\"}],\"events\":[]}",
      "it has 1 messages but its event log reproduces 0" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"state\":{\"lost\":true},"
      "\"events\":[]}", "its state is not what its event log reproduces" },
  };

  struct {
    const char *json;
    const char *message;
  } file_cases[] = {
    { "", "Could not import the thread: it is not valid JSON: the file is empty at byte 0" },
    { "  7", "Could not import the thread: it is not a JSON object" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"events\":[{\"type\":",
      "Could not import the thread: it is not valid JSON: a value is cut short at byte 74" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[] \"events\":[]}",
      "Could not import the thread: it is not valid JSON: expected ',' or '}' at byte 64" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"events\":[]} {}",
      "Could not import the thread: it is not valid JSON: more follows the object at byte 77" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[],\"events\":[],\"events\":[]}",
      "Could not import the thread: the export has two events arrays" },
    { "{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},\"messages\":[{\"id\":tru}],\"events\":[]}",
      "Could not import the thread: it is not valid JSON: line 1, column 7: expected a value, found 'tru' "
      "(in the value at byte 62)" },
  };

  g_test_summary ("A bad import is refused with the reason, and writes nothing");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json (cases[i].json);
      g_autoptr(GInputStream) in = agui_test_trickle_stream_new (cases[i].json);
      g_autofree char *id = agui_session_store_import_json (store, node, &error);
      g_autofree char *reason = NULL;

      g_assert_null (id);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
      g_assert_true (g_str_has_prefix (error->message, "Could not import the thread: "));
      g_assert_nonnull (strstr (error->message, cases[i].message));
      reason = g_strdup (error->message);
      g_clear_error (&error);

      /* Read from a file a piece at a time, for the same reason */
      id = agui_session_store_import_stream (store, in, NULL, &error);
      g_assert_null (id);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
      g_assert_cmpstr (error->message, ==, reason);
      g_clear_error (&error);
    }

  /* What only a file can be: cut short, or more than one object, or
   * with a second log that would have to undo the first */
  for (guint i = 0; i < G_N_ELEMENTS (file_cases); i++)
    {
      g_autoptr(GInputStream) in = agui_test_trickle_stream_new (file_cases[i].json);
      g_autofree char *id = agui_session_store_import_stream (store, in, NULL, &error);

      g_assert_null (id);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
      g_assert_cmpstr (error->message, ==, file_cases[i].message);
      g_clear_error (&error);
    }

  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads"), ==, 0);
}

static void
test_import_lone_surrogate (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  /* A lone surrogate as json-glib 1.6 stores \uD83D: three bytes that
   * are not UTF-8. */
  static const char lone[] = "a\xED\xA0\xBD";
  static const char * const places[] = { "title", "agent", "state", "message", "delta", "interrupt", "key" };
  static const char * const pointers[] = {
    "at /thread/title ", "at /thread/agent ", "at /state/k ", "at /messages/0/content ", "at /events/3/delta ",
    "at /pendingInterrupts/0/id ", "a member name at /state ",
  };

  g_test_summary ("A tree holding a lone surrogate is refused, as the same export read from a file is");

  for (guint i = 0; i < G_N_ELEMENTS (places); i++)
    {
      g_autoptr(JsonNode) node = json ("{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{\"title\":\"t\"},"
                                       "\"messages\":[{\"id\":\"m\",\"role\":\"assistant\",\"content\":\"hi\"}],"
                                       "\"state\":{\"k\":\"v\"},"
                                       "\"events\":[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"},"
                                       "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"k\":\"v\"}},"
                                       "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"},"
                                       "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"hi\"},"
                                       "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"},"
                                       "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}],"
                                       "\"pendingInterrupts\":[]}");
      JsonObject *root = json_node_get_object (node);
      JsonArray *events = json_object_get_array_member (root, "events");
      g_autoptr(GError) error = NULL;
      g_autofree char *id = NULL;

      if (g_str_equal (places[i], "title") || g_str_equal (places[i], "agent"))
        json_object_set_string_member (json_object_get_object_member (root, "thread"), places[i], lone);
      else if (g_str_equal (places[i], "state"))
        {
          json_object_set_string_member (json_object_get_object_member (root, "state"), "k", lone);
        }
      else if (g_str_equal (places[i], "message"))
        json_object_set_string_member (json_array_get_object_element (json_object_get_array_member (root, "messages"), 0), "content", lone);
      else if (g_str_equal (places[i], "delta"))
        {
          json_object_set_string_member (json_array_get_object_element (json_object_get_array_member (root, "messages"), 0), "content", lone);
          json_object_set_string_member (json_array_get_object_element (events, 3), "delta", lone);
        }
      else if (g_str_equal (places[i], "interrupt"))
        {
          JsonObject *interrupt = json_object_new ();

          json_object_set_string_member (interrupt, "id", lone);
          json_object_set_string_member (interrupt, "reason", "r");
          json_array_add_object_element (json_object_get_array_member (root, "pendingInterrupts"), interrupt);
        }
      else
        json_object_set_string_member (json_object_get_object_member (root, "state"), lone, "v");

      id = agui_session_store_import_json (store, node, &error);
      g_assert_null (id);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
      g_test_message ("%s: %s", places[i], error->message);
      g_assert_true (g_str_has_prefix (error->message, "Could not import the thread: it cannot be stored: "));
      g_assert_nonnull (strstr (error->message, " contains the lone high surrogate \\uD83D"));
      g_assert_nonnull (strstr (error->message, pointers[i]));
    }

  /* Other bytes that are not UTF-8 are refused too. */
  {
    g_autoptr(JsonNode) node = json ("{\"format\":\"tandem-thread\",\"version\":1,\"thread\":{},"
                                     "\"messages\":[],\"events\":[]}");
    g_autoptr(GError) error = NULL;
    g_autofree char *id = NULL;

    json_object_set_string_member (json_object_get_object_member (json_node_get_object (node), "thread"),
                                   "title", "bad\xff");
    id = agui_session_store_import_json (store, node, &error);
    g_assert_null (id);
    g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
    g_assert_nonnull (strstr (error->message, "the string at /thread/title is not valid UTF-8"));
  }

  /* The same export as text: its parser refuses it as well. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = _agui_json_parse ("{\"format\":\"tandem-thread\",\"version\":1,"
                                                 "\"thread\":{\"title\":\"a\\uD83D\"}}", -1, &error);

    g_assert_null (node);
    g_assert_nonnull (strstr (error->message, "lone high surrogate \\uD83D"));
  }

  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads"), ==, 0);
}

/* Other processes */

static char *
child_path (void)
{
  return g_test_build_filename (G_TEST_BUILT, "store-child", NULL);
}

static void
check_child_turns (AguiSessionStore *store,
                   const char       *path,
                   const char       *thread_id,
                   int               count,
                   int               calls)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *state = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *expected_interrupts = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected_state = g_strdup_printf ("{\"turn\":%d}", count - 1);
  g_autofree char *expected_parent = g_strdup_printf ("\"%s-snap-%d\"", thread_id, count - 2);
  int per_turn = CHILD_EVENTS_PER_TURN (calls);

  g_assert_cmpint (agui_session_store_get_turn_count (store, thread_id, &error), ==, count);
  g_assert_no_error (error);

  /* Every turn is whole, in order, compacted. */
  events = agui_session_store_load_events (store, thread_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (events->len, ==, count * per_turn);
  for (int turn = 0; turn < count; turn++)
    {
      AguiEvent *first = g_ptr_array_index (events, turn * per_turn);
      AguiEvent *content = g_ptr_array_index (events, turn * per_turn + 3 * calls + 2);
      AguiEvent *last = g_ptr_array_index (events, (turn + 1) * per_turn - 1);
      g_autofree char *run_id = g_strdup_printf ("run-%d", turn);
      g_autoptr(GString) expected = g_string_new (NULL);

      for (int i = 0; i < CHILD_TEXT_DELTAS; i++)
        g_string_append_printf (expected, "w%d.%d ", turn, i);

      g_assert_cmpint (agui_event_get_event_type (first), ==, AGUI_EVENT_RUN_STARTED);
      g_assert_cmpstr (agui_event_get_string (first, "runId"), ==, run_id);
      g_assert_cmpint (agui_event_get_event_type (content), ==, AGUI_EVENT_TEXT_MESSAGE_CONTENT);
      g_assert_cmpstr (agui_event_get_delta (content), ==, expected->str);
      g_assert_cmpint (agui_event_get_event_type (last), ==, AGUI_EVENT_RUN_FINISHED);
      g_assert_cmpstr (agui_event_get_string (last, "runId"), ==, run_id);
    }

  sql = g_strdup_printf ("SELECT COUNT (*) FROM snapshots WHERE thread_id = '%s' "
                         "AND json_extract (state, '$.turn') = turn_index "
                         "AND id = '%s-snap-' || turn_index",
                         thread_id, thread_id);
  g_assert_cmpint (sql_int (path, sql), ==, count);
  snapshots = _agui_session_store_list_snapshots (store, thread_id, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (snapshots->len, ==, count);
  for (int turn = 0; turn < count; turn++)
    {
      AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, turn);
      g_autofree char *message_id = g_strdup_printf ("msg-%d", turn);

      g_assert_cmpuint (snapshot->n_messages, ==, 1);
      g_assert_cmpuint (_agui_json_doc_get_length (&snapshot->messages), ==, 1);
      g_assert_cmpstr (_agui_json_doc_get_string (_agui_json_doc_get_element (&snapshot->messages, 0), "id"), ==,
                       message_id);
    }

  state = snapshot_field (store, thread_id, "state");
  g_assert_cmpstr (state, ==, expected_state);
  parent = snapshot_field (store, thread_id, "parentId");
  if (count > 1)
    g_assert_cmpstr (parent, ==, expected_parent);

  interrupts = agui_session_store_get_pending_interrupts (store, thread_id, &error);
  g_assert_no_error (error);
  text = interrupts_string (interrupts);
  expected_interrupts = g_strdup_printf ("[{\"id\":\"int-%d\"}]", count - 1);
  g_assert_cmpstr (text, ==, expected_interrupts);
}

static void
test_kill (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *child = child_path ();
  const int calls = 300;
  int acked = -1;

  g_test_summary ("A writer killed mid-turn loses only that turn; the database stays sound");

  for (int round = 0; round < 4; round++)
    {
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GDataInputStream) lines = NULL;
      g_autoptr(AguiSessionStore) store = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *calls_arg = g_strdup_printf ("%d", calls);
      int wanted = g_test_rand_int_range (1, 4);
      int count;
      char *line;

      process = g_subprocess_launcher_spawn (launcher, &error, child, "loop", f->path, "kill", calls_arg, NULL);
      g_assert_no_error (error);
      lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

      for (int seen = 0; seen < wanted; seen++)
        {
          line = g_data_input_stream_read_line (lines, NULL, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (line);
          g_assert_cmpint (sscanf (line, "saved %d", &acked), ==, 1);
          g_free (line);
        }

      /* Somewhere into the next turn (or two). */
      g_usleep (g_test_rand_int_range (0, 40000));
      g_subprocess_send_signal (process, SIGKILL);

      while ((line = g_data_input_stream_read_line (lines, NULL, NULL, NULL)) != NULL)
        {
          g_assert_cmpint (sscanf (line, "saved %d", &acked), ==, 1);
          g_free (line);
        }
      g_assert_true (g_subprocess_wait (process, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_signaled (process));
      g_assert_cmpint (g_subprocess_get_term_sig (process), ==, SIGKILL);

      assert_integrity (f->path);

      store = open_store (f->path);
      count = agui_session_store_get_turn_count (store, "kill", &error);
      g_assert_no_error (error);
      g_test_message ("round %d: %d turns reported saved, %d in the database", round, acked + 1, count);

      /* The turn in flight may have committed before its "saved" line. */
      g_assert_cmpint (count, >=, acked + 1);
      g_assert_cmpint (count, <=, acked + 2);
      check_child_turns (store, f->path, "kill", count, calls);
      acked = count - 1;
    }
}

/* A line of store-child's "stream" mode, read back: its kind, when it
 * was printed, and what it says */
static gboolean
parse_stream_line (const char  *line,
                   char       **kind,
                   gint64      *time,
                   char       **rest)
{
  g_auto(GStrv) words = g_strsplit (line, " ", 3);

  if (g_strv_length (words) < 2)
    return FALSE;

  *kind = g_strdup (words[0]);
  *time = g_ascii_strtoll (words[1], NULL, 10);
  *rest = g_strdup (words[2] ? words[2] : "");
  return TRUE;
}

/* What a round that lost a message saw, for the log: the child's lines,
 * the restored rows and the journal the restore read */
static void
dump_lost_message (GPtrArray        *seen,
                   GListModel       *transcript,
                   AguiSessionStore *store)
{
  g_auto(GStrv) ids = NULL;
  g_autoptr(GPtrArray) journal = NULL;

  for (guint i = 0; i < seen->len; i++)
    g_printerr ("child: %s\n", (char *) g_ptr_array_index (seen, i));

  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (transcript, i);
      g_autofree char *text = NULL;

      if (!AGUI_IS_SPEAKER_TURN (item))
        continue;
      text = agui_speaker_turn_dup_text (AGUI_SPEAKER_TURN (item));
      g_printerr ("row %u (%s): %.80s\n", i, agui_speaker_turn_get_id (AGUI_SPEAKER_TURN (item)),
                  text != NULL ? text : "");
    }

  journal = _agui_session_store_load_journal (store, "crash", &ids, NULL);
  for (guint i = 0; journal != NULL && i < journal->len; i++)
    {
      g_autoptr(JsonNode) node = agui_event_to_json (g_ptr_array_index (journal, i));
      g_autofree char *json = json_to_string (node, FALSE);

      g_printerr ("journal: %.200s\n", json);
    }
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    g_printerr ("journal of turn %s\n", ids[i]);
}

static void
test_kill_streaming (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *child = child_path ();
  int rounds = g_test_slow () ? 100 : 25;
  int interrupted = 0;
  int checked_parts = 0;
  int kept_messages = 0;

  g_test_summary ("A session killed at random instants of streamed answers keeps, after each "
                  "restore, every message the person sent once the store said it was written "
                  "(which it says before the answer begins) and every part of the answer shown "
                  "up to 250 ms before the kill; the cut answer is marked failed");

  for (int round = 0; round < rounds; round++)
    {
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GDataInputStream) lines = NULL;
      g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(AguiSessionStore) store = NULL;
      g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
      g_autoptr(AguiAgentSession) session = NULL;
      g_autoptr(GHashTable) lengths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GError) error = NULL;
      GListModel *transcript;
      g_autofree char *asked = NULL;
      gint64 asked_at = 0;
      gint64 killed_at;
      gboolean sent = FALSE;
      char *line;

      process = g_subprocess_launcher_spawn (launcher, &error, child, "stream", f->path, "crash", NULL);
      g_assert_no_error (error);
      lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

      /* Once it asks, somewhere into the answer (or the next) */
      while (!sent && (line = g_data_input_stream_read_line (lines, NULL, NULL, &error)) != NULL)
        {
          sent = g_str_has_prefix (line, "send ");
          g_ptr_array_add (seen, line);
        }
      g_assert_no_error (error);
      g_assert_true (sent);
      g_usleep (g_test_rand_int_range (0, 2500000));
      killed_at = g_get_monotonic_time ();
      g_subprocess_send_signal (process, SIGKILL);

      while ((line = g_data_input_stream_read_line (lines, NULL, NULL, NULL)) != NULL)
        g_ptr_array_add (seen, line);
      g_assert_true (g_subprocess_wait (process, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_signaled (process));

      assert_integrity (f->path);

      store = open_store (f->path);
      session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", agent, "thread-id", "crash",
                              "store", store, NULL);
      g_assert_true (_agui_agent_session_restore (session, &error));
      g_assert_no_error (error);

      transcript = G_LIST_MODEL (agui_agent_session_get_transcript (session));
      for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (transcript, i);
          g_autofree char *text = NULL;

          if (!AGUI_IS_SPEAKER_TURN (item))
            continue;
          text = agui_speaker_turn_dup_text (AGUI_SPEAKER_TURN (item));
          g_hash_table_insert (lengths, g_strdup (agui_speaker_turn_get_id (AGUI_SPEAKER_TURN (item))),
                               GSIZE_TO_POINTER (text ? strlen (text) : 0));
          if (text != NULL && g_str_has_prefix (text, "long question "))
            g_hash_table_insert (lengths, g_strdup (text), GSIZE_TO_POINTER (1));
        }

      for (guint i = 0; i < seen->len; i++)
        {
          g_autofree char *kind = NULL;
          g_autofree char *rest = NULL;
          gint64 time;

          /* The kill may cut the last line */
          if (!parse_stream_line (g_ptr_array_index (seen, i), &kind, &time, &rest))
            continue;

          /* The message is written ahead of its answer, however long the
           * write takes (a busy disk can hold it for a second): once the
           * store said so, it is there, and no answer is shown before. */
          if (g_str_equal (kind, "send"))
            {
              g_free (asked);
              asked = g_strdup (rest);
              asked_at = time;
            }
          else if (g_str_equal (kind, "stored") && asked != NULL)
            {
              if (!g_hash_table_contains (lengths, asked))
                dump_lost_message (seen, transcript, store);
              if (!g_hash_table_contains (lengths, asked))
                g_error ("round %d: the message '%s', stored %" G_GINT64_FORMAT " ms after it was sent and %"
                         G_GINT64_FORMAT " ms before the kill, is lost",
                         round, asked, (time - asked_at) / 1000, (killed_at - time) / 1000);
              kept_messages++;
              g_clear_pointer (&asked, g_free);
            }
          else if (g_str_equal (kind, "shown") && asked != NULL && !g_str_has_suffix (rest, " user") &&
                   i + 1 < seen->len)
            {
              g_error ("round %d: an answer to '%s' was shown before the store wrote the message", round, asked);
            }

          /* The person's own message counts as written above */
          if (time > killed_at - 250000 || g_str_has_suffix (rest, " user"))
            continue;

          if (g_str_equal (kind, "shown"))
            {
              g_auto(GStrv) words = g_strsplit (rest, " ", 2);
              gsize shown = g_ascii_strtoull (words[1], NULL, 10);
              gsize kept = GPOINTER_TO_SIZE (g_hash_table_lookup (lengths, words[0]));

              if (kept < shown)
                g_error ("round %d: message %s showed %" G_GSIZE_FORMAT " bytes %" G_GINT64_FORMAT
                         " ms before the kill (line %u of %u); %" G_GSIZE_FORMAT " were kept",
                         round, words[0], shown, (killed_at - time) / 1000, i, seen->len, kept);
              checked_parts++;
            }
        }

      if (agui_run_state_get_status (agui_agent_session_get_run_state (session)) == AGUI_RUN_FAILED)
        interrupted++;
    }

  g_test_message ("%d rounds, %d cut short, %d messages and %d parts of answers checked",
                  rounds, interrupted, kept_messages, checked_parts);
  g_assert_cmpint (interrupted, >, 0);
  g_assert_cmpint (kept_messages, >, 0);
  g_assert_cmpint (checked_parts, >, 0);
}

/* What the store's first announcement of a turn found written */
typedef struct
{
  gboolean  announced;
  char     *kept;
} FirstWrite;

static void
on_first_write (AguiSessionStore *store,
                const char       *thread_id,
                AguiThreadInfo   *info,
                gpointer          user_data)
{
  FirstWrite *first = user_data;
  g_autoptr(GPtrArray) journal = NULL;
  g_autoptr(GError) error = NULL;
  GString *text = g_string_new (NULL);

  if (first->announced)
    return;
  first->announced = TRUE;

  journal = _agui_session_store_load_journal (store, thread_id, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < journal->len; i++)
    {
      AguiEvent *event = g_ptr_array_index (journal, i);

      if (agui_event_get_event_type (event) == AGUI_EVENT_TEXT_MESSAGE_CONTENT)
        g_string_append (text, agui_event_get_delta (event));
    }
  first->kept = g_string_free (text, FALSE);
}

static void
test_journal_whole_message (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *question = NULL;
  FirstWrite first = { FALSE, NULL };
  GString *text = g_string_new ("long question ");

  g_test_summary ("The store says a conversation changed once the person's message is written "
                  "whole: the worker, on its own thread, never writes the message's start alone "
                  "while its text is still being printed");

  /* Long enough that printing its text takes the worker time to take
   * and write whatever waits before it */
  while (text->len < 8 * 1024 * 1024)
    g_string_append (text, "and what about \"this\", then? ");
  question = g_string_free (text, FALSE);

  agui_demo_agent_set_delay (agent, 0);
  g_signal_connect (store, "thread-changed", G_CALLBACK (on_first_write), &first);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", agent, "thread-id", "whole",
                          "store", store, NULL);
  agui_agent_session_send_async (session, question, NULL, NULL, agui_test_store_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  state = agui_agent_session_send_finish (session, result, &error);
  g_assert_no_error (error);

  g_assert_true (first.announced);
  g_assert_cmpuint (strlen (first.kept), ==, strlen (question));
  g_assert_true (g_str_equal (first.kept, question));
  g_free (first.kept);
}

/* Schema 6: what the person set in an agent's form, by the message that
 * drew it, on a store migrated from the release */
static void
test_surface_values (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v3.db", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *form = NULL;
  gsize length;

  g_test_summary ("The values set in an agent's form are kept by conversation and message, the last "
                  "write winning; nothing is kept for a conversation not stored, a damaged row loses "
                  "only itself, and deleting the conversation deletes them");

  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);
  store = open_store (f->path);

  values = _agui_session_store_dup_surface_values (store, "old-thread", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_object_get_size (values), ==, 0);
  g_clear_pointer (&values, json_object_unref);

  g_assert_true (_agui_session_store_set_surface_values (store, "old-thread", "form", "{\"/city\":\"Rome\"}", &error));
  g_assert_no_error (error);
  g_assert_true (_agui_session_store_set_surface_values (store, "old-thread", "form",
                                                         "{\"/city\":\"Oslo\",\"/hours\":5}", &error));
  g_assert_no_error (error);
  g_assert_true (_agui_session_store_set_surface_values (store, "plain-thread", "other", "{\"/on\":true}", &error));
  g_assert_no_error (error);
  g_assert_true (_agui_session_store_set_surface_values (store, "no-such-thread", "form", "{\"/x\":1}", &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM surface_values"), ==, 2);
  sql_exec (f->path, "INSERT INTO surface_values VALUES ('old-thread', 'damaged', '{not json')");

  values = _agui_session_store_dup_surface_values (store, "old-thread", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_object_get_size (values), ==, 1);
  form = json_to_string (json_object_get_member (values, "form"), FALSE);
  g_assert_cmpstr (form, ==, "{\"/city\":\"Oslo\",\"/hours\":5}");

  g_assert_true (agui_session_store_delete_thread (store, "old-thread", &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM surface_values WHERE thread_id = 'old-thread'"), ==, 0);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM surface_values"), ==, 1);
  assert_integrity (f->path);
}

static void
test_export_surface_values (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v3.db", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) plain = NULL;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *imported = NULL;
  g_autofree char *again = NULL;
  g_autofree char *printed = NULL;
  gint64 threads;
  gsize length;

  g_test_summary ("What the person typed into an agent's forms goes out with a Tandem JSON export and "
                  "comes back with its import; an export without any has no such member, and values "
                  "that are not objects are refused with nothing stored");

  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);
  store = open_store (f->path);

  plain = agui_session_store_export_json (store, "old-thread", &error);
  g_assert_no_error (error);
  g_assert_false (json_object_has_member (json_node_get_object (plain), "surfaceValues"));

  g_assert_true (_agui_session_store_set_surface_values (store, "old-thread", "form",
                                                         "{\"/city\":\"Oslo\",\"/hours\":5}", &error));
  g_assert_no_error (error);
  g_assert_true (_agui_session_store_set_surface_values (store, "old-thread", "dashboard",
                                                         "{\"/filters/0\":{\"on\":true}}", &error));
  g_assert_no_error (error);

  exported = agui_test_export_streamed (store, "old-thread");
  printed = json_to_string (json_object_get_member (json_node_get_object (exported), "surfaceValues"), FALSE);
  g_assert_true (g_str_equal (printed, "{\"form\":{\"/city\":\"Oslo\",\"/hours\":5},\"dashboard\":{\"/filters/0\":{\"on\":true}}}") ||
                 g_str_equal (printed, "{\"dashboard\":{\"/filters/0\":{\"on\":true}},\"form\":{\"/city\":\"Oslo\",\"/hours\":5}}"));

  /* Through the text of a file, as the app writes and reads it */
  {
    g_autofree char *text = json_to_string (exported, TRUE);
    g_autoptr(JsonNode) read_back = json_from_string (text, &error);

    g_assert_no_error (error);
    imported = agui_test_import_streamed (store, read_back, &error);
    g_assert_no_error (error);
  }
  values = _agui_session_store_dup_surface_values (store, imported, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_object_get_size (values), ==, 2);
  g_clear_pointer (&printed, g_free);
  printed = json_to_string (json_object_get_member (values, "form"), FALSE);
  g_assert_cmpstr (printed, ==, "{\"/city\":\"Oslo\",\"/hours\":5}");
  g_clear_pointer (&printed, g_free);
  printed = json_to_string (json_object_get_member (values, "dashboard"), FALSE);
  g_assert_cmpstr (printed, ==, "{\"/filters/0\":{\"on\":true}}");

  /* Bad values: a clear reason, and no thread half imported */
  threads = sql_int (f->path, "SELECT COUNT (*) FROM threads");
  json_object_set_member (json_node_get_object (exported), "surfaceValues",
                          json_from_string ("{\"form\":[1,2]}", NULL));
  again = agui_session_store_import_json (store, exported, &error);
  g_assert_null (again);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "surface values"));
  g_clear_error (&error);
  json_object_set_member (json_node_get_object (exported), "surfaceValues", json_from_string ("[]", NULL));
  again = agui_session_store_import_json (store, exported, &error);
  g_assert_null (again);
  g_assert_nonnull (strstr (error->message, "surface values are not an object"));
  g_clear_error (&error);
  again = agui_test_import_streamed (store, exported, &error);
  g_assert_null (again);
  g_assert_nonnull (strstr (error->message, "surface values are not an object"));
  g_clear_error (&error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM threads"), ==, threads);
  assert_integrity (f->path);
}

/* tests/data/store-v3.db was written by Tandem before each message was
 * stored once (schema 3): a session on a replay transport sent six
 * questions ("old-thread"; the third with a 28-byte text file attached)
 * and regenerated the last answer (two branches); a second session one
 * question ("plain-thread"). */
static JsonNode *
raw_snapshot_messages (const char *path,
                       const char *snapshot_id)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  JsonNode *node;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT messages FROM snapshots WHERE id = ?1", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, snapshot_id, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  node = json_from_string ((const char *) sqlite3_column_text (stmt, 0), NULL);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_assert_nonnull (node);
  return node;
}

static void
test_migrate_release_store (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v3.db", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GHashTable) before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_node_unref);
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) imported_session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *imported = NULL;
  gsize length;
  int n_snapshots;

  g_test_summary ("A store written by the release before schema 5 migrates: every snapshot reads the "
                  "messages it held, the thread restores, its branches list, and it exports and imports");

  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, 3);

  /* What each snapshot held, as the release wrote it */
  n_snapshots = sql_int (f->path, "SELECT COUNT (*) FROM snapshots");
  g_assert_cmpint (n_snapshots, ==, 8);
  {
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT id FROM snapshots", -1, &stmt, NULL), ==, SQLITE_OK);
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *id = (const char *) sqlite3_column_text (stmt, 0);

        g_hash_table_insert (before, g_strdup (id), raw_snapshot_messages (f->path, id));
      }
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }

  store = open_store (f->path);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, SCHEMA_LATEST);
  assert_integrity (f->path);
  /* Each message once: nine in the old thread's branches, two in the other */
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM messages WHERE thread_key = "
                           "(SELECT key FROM threads WHERE id = 'old-thread')"), ==, 13);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM messages WHERE thread_key = "
                           "(SELECT key FROM threads WHERE id = 'plain-thread')"), ==, 2);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM snapshots WHERE json_type (messages) = 'array'"), ==, 0);

  for (guint t = 0; t < 2; t++)
    {
      const char *thread_id = t == 0 ? "old-thread" : "plain-thread";

      g_clear_pointer (&snapshots, g_ptr_array_unref);
      snapshots = _agui_session_store_list_snapshots (store, thread_id, TRUE, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < snapshots->len; i++)
        {
          AguiTurnSnapshot *snapshot = g_ptr_array_index (snapshots, i);
          JsonNode *held = g_hash_table_lookup (before, snapshot->id);
          g_autoptr(JsonNode) messages = _agui_json_value_to_node (&snapshot->messages);

          g_assert_nonnull (held);
          g_assert_cmpuint (snapshot->n_messages, ==, json_array_get_length (json_node_get_array (messages)));
          g_assert_true (json_node_equal (held, messages));
          n_snapshots--;
        }
    }
  g_assert_cmpint (n_snapshots, ==, 0);

  branches = agui_session_store_list_branches (store, "old-thread", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (branches), ==, 2);

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "old-thread",
                          "store", store, NULL);
  g_assert_true (_agui_agent_session_restore (session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (session)), ==, 12);
  g_assert_cmpuint (agui_transcript_get_n_branches (agui_agent_session_get_transcript (session)), >=, 2);

  /* A turn after the migration goes on from the snapshot it read */
  agui_replay_transport_add_run_json (replay,
                                      "[{\"type\":\"RUN_STARTED\",\"threadId\":\"old-thread\",\"runId\":\"after\"},"
                                      "{\"type\":\"RUN_FINISHED\",\"threadId\":\"old-thread\",\"runId\":\"after\"}]",
                                      &error);
  g_assert_no_error (error);
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(AguiRunState) state = NULL;
    g_autoptr(JsonObject) last = NULL;

    agui_agent_session_send_async (session, "After the migration", NULL, NULL, agui_test_store_result_cb, &result);
    agui_test_wait_for_result (&result, 10000);
    state = agui_agent_session_send_finish (session, result, &error);
    g_assert_no_error (error);
    last = agui_session_store_get_last_snapshot (store, "old-thread", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (last, "messages")), ==, 13);
  }

  exported = agui_session_store_export_json (store, "old-thread", &error);
  g_assert_no_error (error);
  imported = agui_session_store_import_json (store, exported, &error);
  g_assert_no_error (error);
  imported_session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", imported,
                                   "store", store, NULL);
  g_assert_true (_agui_agent_session_restore (imported_session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (imported_session)), ==, 13);
  assert_integrity (f->path);
}

/* tests/data/store-v5.db was written by the release with schema 5: the
 * v3 store above, migrated, and a conversation the demo agent had (it
 * waits on an approval) */
static void
test_migrate_v5_store (Fixture       *f,
                       gconstpointer  data)
{
  static const char * const threads[] = { "old-thread", "plain-thread", NULL };
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v5.db", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *demo = NULL;
  g_autoptr(GHashTable) logs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiAgentSession) imported_session = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(JsonArray) branches = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *imported = NULL;
  gint64 n_events;
  gsize length;

  g_test_summary ("A store written by the release with schema 5 migrates to the smaller log: every "
                  "thread keeps its log, restores, goes on, exports and imports, and its branches list");

  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, 5);

  demo = sql_text (f->path, "SELECT id FROM threads WHERE id NOT IN ('old-thread', 'plain-thread')");
  n_events = sql_int (f->path, "SELECT COUNT (*) FROM events");
  g_assert_cmpint (n_events, >, 0);
  for (guint i = 0; i < 3; i++)
    {
      const char *id = threads[i] != NULL ? threads[i] : demo;
      g_autofree char *sql = g_strdup_printf ("SELECT group_concat (json, char (10)) FROM "
                                              "(SELECT json FROM events WHERE thread_id = '%s' ORDER BY seq)", id);

      g_hash_table_insert (logs, g_strdup (id), sql_text (f->path, sql));
    }

  store = open_store (f->path);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, SCHEMA_LATEST);
  assert_integrity (f->path);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log"), ==, n_events);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (DISTINCT key) FROM threads"), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const char *id = threads[i] != NULL ? threads[i] : demo;
      g_autofree char *sql = g_strdup_printf ("SELECT group_concat (json, char (10)) FROM (SELECT json FROM log "
                                              "WHERE thread_key = (SELECT key FROM threads WHERE id = '%s') "
                                              "ORDER BY seq)", id);
      g_autofree char *log = sql_text (f->path, sql);

      g_assert_cmpstr (log, ==, g_hash_table_lookup (logs, id));
    }

  branches = agui_session_store_list_branches (store, "old-thread", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (branches), ==, 2);
  interrupts = agui_session_store_get_pending_interrupts (store, demo, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (interrupts), ==, 1);

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "plain-thread",
                          "store", store, NULL);
  g_assert_true (_agui_agent_session_restore (session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (session)), ==, 2);

  /* A turn after the migration goes on in the log under the same key */
  agui_replay_transport_add_run_json (replay,
                                      "[{\"type\":\"RUN_STARTED\",\"threadId\":\"plain-thread\",\"runId\":\"after\"},"
                                      "{\"type\":\"RUN_FINISHED\",\"threadId\":\"plain-thread\",\"runId\":\"after\"}]",
                                      &error);
  g_assert_no_error (error);
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(AguiRunState) state = NULL;
    g_autoptr(GPtrArray) events = NULL;
    g_autoptr(AguiAgentSession) reopened = NULL;

    agui_agent_session_send_async (session, "After the migration", NULL, NULL, agui_test_store_result_cb, &result);
    agui_test_wait_for_result (&result, 10000);
    state = agui_agent_session_send_finish (session, result, &error);
    g_assert_no_error (error);
    events = agui_session_store_load_events (store, "plain-thread", &error);
    g_assert_no_error (error);
    g_assert_cmpint (agui_event_get_event_type (g_ptr_array_index (events, events->len - 1)), ==,
                     AGUI_EVENT_RUN_FINISHED);

    reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "plain-thread",
                             "store", store, NULL);
    g_assert_true (_agui_agent_session_restore (reopened, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), ==, 3);
  }

  exported = agui_session_store_export_json (store, "old-thread", &error);
  g_assert_no_error (error);
  imported = agui_session_store_import_json (store, exported, &error);
  g_assert_no_error (error);
  /* A new thread gets a key of its own */
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (DISTINCT key) FROM threads WHERE key IS NOT NULL"), ==, 4);
  imported_session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", imported,
                                   "store", store, NULL);
  g_assert_true (_agui_agent_session_restore (imported_session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (imported_session)), ==, 12);

  /* Deleting a thread takes its log along */
  n_events = sql_int (f->path, "SELECT COUNT (*) FROM log");
  g_assert_true (agui_session_store_delete_thread (store, "old-thread", &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log"), <, n_events);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log WHERE thread_key NOT IN (SELECT key FROM threads)"), ==, 0);
  assert_integrity (f->path);
}

/* tests/data/store-v8.db was written by the release with schema 8: the
 * v5 store above, migrated, a demo conversation more, a pinned thread
 * and values typed into a surface */
static void
test_migrate_v8_store (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "store-v8.db", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *messages_before = NULL;
  g_autofree char *messages_after = NULL;
  g_autofree char *lisbon = NULL;
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(JsonArray) found = NULL;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(JsonObject) last = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = agui_test_incompressible_text (100);
  g_autofree char *long_answer = NULL;
  gsize length;

  g_test_summary ("A store written by the release with schema 8 migrates to messages under the thread's key: "
                  "every message is kept in its order, searches find them, threads restore, go on with "
                  "deflated rows, and keep their pins and surface values");

  g_assert_true (g_file_get_contents (fixture, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, 8);
  messages_before = sql_text (f->path, "SELECT group_concat (thread_id || ' ' || hash || ' ' || json, char (10)) "
                                       "FROM (SELECT * FROM messages ORDER BY rowid)");

  store = open_store (f->path);
  g_assert_cmpint (sql_int (f->path, "PRAGMA user_version"), ==, SCHEMA_LATEST);
  assert_integrity (f->path);
  messages_after = sql_text (f->path, "SELECT group_concat (t.id || ' ' || m.hash || ' ' || m.json, char (10)) "
                                      "FROM (SELECT * FROM messages ORDER BY rowid) m JOIN threads t ON t.key = m.thread_key");
  g_assert_cmpstr (messages_after, ==, messages_before);

  /* The search reads the messages under their thread */
  found = agui_session_store_list_threads (store, "weather in Lisbon", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (found), ==, 1);
  lisbon = g_strdup (json_object_get_string_member (json_array_get_object_element (found, 0), "id"));
  g_clear_pointer (&found, json_array_unref);
  found = agui_session_store_list_threads (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (found), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (found, 0), "id"), ==, "plain-thread");
  values = _agui_session_store_dup_surface_values (store, "plain-thread", &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (values, "surface-1"));

  /* A long answer after the migration is kept deflated, and reads back */
  long_answer = g_strnfill (2000, 'a');
  {
    g_autofree char *events = g_strdup_printf ("[{\"type\":\"RUN_STARTED\",\"threadId\":\"plain-thread\",\"runId\":\"after\"},"
                                               "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"long\",\"role\":\"assistant\"},"
                                               "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"long\",\"delta\":\"%s\"},"
                                               "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"long\"},"
                                               "{\"type\":\"RUN_FINISHED\",\"threadId\":\"plain-thread\",\"runId\":\"after\"}]",
                                               long_answer);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(AguiRunState) state = NULL;
    g_autoptr(AguiAgentSession) reopened = NULL;
    JsonArray *messages;

    agui_replay_transport_add_run_json (replay, events, &error);
    g_assert_no_error (error);
    session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "plain-thread",
                            "store", store, NULL);
    g_assert_true (_agui_agent_session_restore (session, &error));
    g_assert_no_error (error);
    agui_agent_session_send_async (session, answer, NULL, NULL, agui_test_store_result_cb, &result);
    agui_test_wait_for_result (&result, 10000);
    state = agui_agent_session_send_finish (session, result, &error);
    g_assert_no_error (error);

    g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM log WHERE typeof (json) = 'blob'"), ==, 1);
    g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM messages WHERE typeof (json) = 'blob'"), ==, 1);

    last = agui_session_store_get_last_snapshot (store, "plain-thread", &error);
    g_assert_no_error (error);
    messages = json_object_get_array_member (last, "messages");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, json_array_get_length (messages) - 1),
                                                    "content"), ==, long_answer);
    g_clear_pointer (&found, json_array_unref);
    found = agui_session_store_list_threads (store, "aaaaaaaaaa", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (found), ==, 1);

    reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", "plain-thread",
                             "store", store, NULL);
    g_assert_true (_agui_agent_session_restore (reopened, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (reopened)), ==, 4);
  }

  /* Deleting a thread takes its messages along */
  g_assert_true (agui_session_store_delete_thread (store, lisbon, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM messages WHERE thread_key NOT IN (SELECT key FROM threads)"), ==, 0);
  assert_integrity (f->path);
}

/* Storage */

/* Text as people write it, for answers that deflate as prose does
 * rather than as a counted list of words */
static const char prose_text[] =
  "Lisbon sits on seven hills above the wide mouth of the Tagus, and most visitors learn this on the first "
  "afternoon, when the tram they meant to take is full and the street they chose climbs without end. The old "
  "quarters were rebuilt after the earthquake of 1755 on a grid that the Marquis of Pombal drew in a hurry, "
  "which is why the lower town feels so orderly beside the tangled alleys of Alfama. Coffee is strong and "
  "cheap; pastries are eaten standing at the counter. In summer the light is hard and white until eight in "
  "the evening, and then the river turns the colour of brass. If you have only two days, walk from the castle "
  "down to the water, take the ferry across to Cacilhas for the view back, and spend the second morning in "
  "Belem, where the monastery's cloister repays an early start before the coaches arrive. Bring shoes with "
  "grip: the limestone pavements are polished smooth by centuries of feet and become treacherous in rain. ";

/* A conversation as a session saves it: turn i adds the person's
 * question and an answer of about @answer_length bytes (counted words,
 * or with @prose a window on prose_text), its events (the question's
 * three, and the run's, the answer's deltas joined), and a snapshot of
 * the whole conversation so far. Adds the bytes of the messages (once
 * each) and of the events it wrote to *@content. */
static void
write_conversation (AguiSessionStore *store,
                    const char       *thread_id,
                    int               turns,
                    int               answer_length,
                    gboolean          prose,
                    gsize            *content)
{
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autofree char *parent = NULL;

  for (int i = 0; i < turns; i++)
    {
      g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      g_autoptr(JsonObject) question = json_object_new ();
      g_autoptr(JsonObject) answer = json_object_new ();
      g_autoptr(JsonObject) state = json_object_new ();
      g_autoptr(JsonNode) state_node = NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *run_id = g_uuid_string_random ();
      g_autofree char *question_id = g_uuid_string_random ();
      g_autofree char *answer_id = g_uuid_string_random ();
      g_autofree char *snapshot_id = g_uuid_string_random ();
      g_autofree char *asked = g_strdup_printf ("Question %d: what comes next in this long conversation?", i);
      AguiTurnRecord turn = { NULL, };
      const char *jsons[8];

      if (prose)
        for (gsize at = (i * 97) % (sizeof prose_text - 1); text->len < (gsize) answer_length;
             at = (at + 1) % (sizeof prose_text - 1))
          g_string_append_c (text, prose_text[at]);
      else
        for (int w = 0; g_utf8_strlen (text->str, -1) < answer_length; w++)
          g_string_append_printf (text, "word%d.%d ", i, w);

      jsons[0] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"%s\",\"role\":\"user\"}", question_id);
      jsons[1] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"%s\",\"delta\":\"%s\"}", question_id, asked);
      jsons[2] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"%s\"}", question_id);
      jsons[3] = g_strdup_printf ("{\"type\":\"RUN_STARTED\",\"threadId\":\"%s\",\"runId\":\"%s\"}", thread_id, run_id);
      jsons[4] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"%s\",\"role\":\"assistant\"}", answer_id);
      jsons[5] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"%s\",\"delta\":\"%s\"}", answer_id, text->str);
      jsons[6] = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"%s\"}", answer_id);
      jsons[7] = g_strdup_printf ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"%s\",\"runId\":\"%s\"}", thread_id, run_id);
      for (guint e = 0; e < G_N_ELEMENTS (jsons); e++)
        {
          g_ptr_array_add (events, agui_event_new_from_string (jsons[e], -1, &error));
          g_assert_no_error (error);
          *content += strlen (jsons[e]);
          g_free ((char *) jsons[e]);
        }

      json_object_set_string_member (question, "id", question_id);
      json_object_set_string_member (question, "role", "user");
      json_object_set_string_member (question, "content", asked);
      json_object_set_string_member (answer, "id", answer_id);
      json_object_set_string_member (answer, "role", "assistant");
      json_object_set_string_member (answer, "content", text->str);
      for (guint m = 0; m < 2; m++)
        {
          JsonObject *message = m == 0 ? question : answer;
          g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), message);
          g_autofree char *json = json_to_string (node, FALSE);

          *content += strlen (json);
          json_array_add_object_element (messages, json_object_ref (message));
        }

      json_object_set_int_member (state, "turn", i);
      state_node = json_node_init_object (json_node_alloc (), state);

      turn.thread_id = thread_id;
      turn.snapshot_id = snapshot_id;
      turn.parent_id = parent;
      turn.turn_index = i;
      turn.status = AGUI_SNAPSHOT_COMPLETED;
      turn.messages = agui_test_array_tree (messages);
      turn.state = agui_test_tree (state_node);
      turn.events = events;
      turn.run_id = run_id;
      g_assert_true (_agui_session_store_save_turn (store, &turn, &error));
      g_assert_no_error (error);

      g_free (parent);
      parent = g_strdup (snapshot_id);
    }
}

/* The database's size with its write-ahead log folded in */
static gint64
store_size (const char *path)
{
  sql_exec (path, "PRAGMA wal_checkpoint (TRUNCATE)");
  return sql_int (path, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size");
}

static void
test_export_long_log (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(JsonNode) exported = NULL;
  gsize content = 0;

  g_test_summary ("A log longer than a page of rows exports whole, as the tree prints it");

  write_conversation (store, "long", 70, 40, FALSE, &content);
  exported = agui_test_export_streamed (store, "long");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (exported), "events")),
                    ==, 70 * 8);
}

static void
test_storage_linear (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(JsonObject) last = NULL;
  g_autoptr(GError) error = NULL;
  gsize content = 0;
  gint64 empty, half, whole;

  g_test_summary ("Each message is stored once: a conversation twice as long takes about twice the room, "
                  "and its last snapshot still reads whole");

  empty = store_size (f->path);
  write_conversation (store, "9a4d4e1e-0c53-4b7a-a1a4-5b6f0e4c2d11", 100, 600, FALSE, &content);
  half = store_size (f->path) - empty;
  write_conversation (store, "0b7e5f2a-1d64-4c8b-b2b5-6c7f1f5d3e22", 200, 600, FALSE, &content);
  whole = store_size (f->path) - empty - half;

  g_test_message ("100 turns: %" G_GINT64_FORMAT " bytes; 200 turns: %" G_GINT64_FORMAT " bytes", half, whole);
  /* The square would be four times */
  g_assert_cmpfloat ((double) whole / half, <, 2.3);

  last = agui_session_store_get_last_snapshot (store, "0b7e5f2a-1d64-4c8b-b2b5-6c7f1f5d3e22", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (last, "messages")), ==, 400);
  g_assert_cmpint (json_object_get_int_member (last, "turnIndex"), ==, 199);
}

/* -m perf: the sizes the issue measured (30, 60 and 120 turns took 2.9,
 * 11.8 and 45.7 MB), and a 1,000-turn conversation against the bytes of
 * its messages and events, with short answers and with 4 KB ones */
static void
test_bench_storage (Fixture       *f,
                    gconstpointer  data)
{
  static const int lengths[] = { 30, 60, 120, 250, 500, 1000 };
  static const int answers[] = { 600, 4096 };
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  gint64 before = store_size (f->path);

  for (guint a = 0; a < G_N_ELEMENTS (answers); a++)
    {
      double at_120 = 0;

      for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
        {
          g_autofree char *thread_id = g_uuid_string_random ();
          gsize content = 0;
          gint64 size;
          double per_turn;

          write_conversation (store, thread_id, lengths[i], answers[a], FALSE, &content);
          size = store_size (f->path) - before;
          before += size;
          per_turn = (double) size / lengths[i];
          g_test_minimized_result (per_turn,
                                   "%4d turns, %4d-byte answers: %8" G_GINT64_FORMAT " bytes, %6.0f per turn, "
                                   "%.2f times its messages and events",
                                   lengths[i], answers[a], size, per_turn, (double) size / content);

          /* Linear: from 120 turns on, a turn costs what it did at 120
           * (stored as the square, it would cost 8 times as much at
           * 1,000). Shorter threads are cheaper per turn, their pages
           * shared with the ones written before. */
          if (lengths[i] == 120)
            at_120 = per_turn;
          else if (lengths[i] > 120)
            g_assert_cmpfloat (per_turn, <=, at_120 * 1.25);
        }
    }
}

/* -m perf: the 1,000-turn conversation with 600-byte answers alone,
 * counted words and prose, the bytes each takes (the file's growth, its
 * write-ahead log folded in) against those of its messages (each once,
 * as JSON) and the events it logged (as JSON); and where they go, table
 * by table */
static void
test_bench_storage_1000 (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 before = store_size (f->path);

  for (guint prose = 0; prose < 2; prose++)
    {
      g_autofree char *thread_id = g_uuid_string_random ();
      gsize content = 0;
      gint64 size;

      write_conversation (store, thread_id, 1000, 600, prose, &content);
      size = store_size (f->path) - before;
      before += size;
      g_test_minimized_result ((double) size / content,
                               "1000 turns, 600-byte answers (%s): %" G_GINT64_FORMAT " bytes, %" G_GSIZE_FORMAT
                               " of messages and events, %.3f times", prose ? "prose" : "counted words",
                               size, content, (double) size / content);
    }

  g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  /* dbstat is optional in SQLite: without it, the totals above are all */
  if (sqlite3_prepare_v2 (db, "SELECT name, SUM (pgsize), SUM (payload), SUM (unused) FROM dbstat "
                          "GROUP BY name HAVING SUM (payload) > 0 ORDER BY 2 DESC", -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      g_test_message ("%-32s %9lld bytes in pages, %9lld payload, %8lld unused", sqlite3_column_text (stmt, 0),
                      sqlite3_column_int64 (stmt, 1), sqlite3_column_int64 (stmt, 2), sqlite3_column_int64 (stmt, 3));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* -m perf: reading back the last snapshot of a 10,000-message thread
 * (written as 1,000 turns, then 8,000 messages in one), as a restore
 * does, from a store just opened */
static void
test_bench_snapshot_10000 (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(AguiSessionStore) reopened = NULL;
  g_autoptr(AguiTurnSnapshot) for_restore = NULL;
  g_autoptr(JsonObject) last = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  gsize content = 0;
  gint64 start, read_snapshot, read_events;

  write_conversation (store, "bench-10000", 1000, 600, FALSE, &content);
  {
    g_autoptr(JsonObject) snapshot = agui_session_store_get_last_snapshot (store, "bench-10000", &error);
    JsonArray *messages = json_object_get_array_member (snapshot, "messages");
    g_autofree char *snapshot_id = g_uuid_string_random ();
    AguiTurnRecord turn = { NULL, };

    g_assert_no_error (error);
    for (int i = 0; i < 8000; i++)
      {
        JsonObject *message = json_object_new ();
        g_autofree char *id = g_strdup_printf ("bulk-%d", i);

        json_object_set_string_member (message, "id", id);
        json_object_set_string_member (message, "role", i % 2 ? "assistant" : "user");
        json_object_set_string_member (message, "content", "A message among many, of a few words.");
        json_array_add_object_element (messages, message);
      }
    turn.thread_id = "bench-10000";
    turn.snapshot_id = snapshot_id;
    turn.parent_id = json_object_get_string_member (snapshot, "id");
    turn.turn_index = 1000;
    turn.status = AGUI_SNAPSHOT_COMPLETED;
    turn.messages = agui_test_array_tree (messages);
    g_assert_true (_agui_session_store_save_turn (store, &turn, &error));
    g_assert_no_error (error);
  }
  g_clear_object (&store);

  reopened = open_store (f->path);
  start = g_get_monotonic_time ();
  for_restore = _agui_session_store_get_last_snapshot_for_restore (reopened, "bench-10000", &error);
  g_assert_no_error (error);
  g_assert_nonnull (for_restore);
  read_snapshot = g_get_monotonic_time ();
  events = agui_session_store_load_events (reopened, "bench-10000", &error);
  g_assert_no_error (error);
  read_events = g_get_monotonic_time ();
  last = agui_session_store_get_last_snapshot (reopened, "bench-10000", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (last, "messages")), ==, 10000);
  g_test_minimized_result ((read_snapshot - start) / 1000.0,
                           "10,000 messages in 1,001 turns: the last snapshot read for a restore in %.0f ms, "
                           "whole in %.0f ms, the log (%u events) in %.0f ms; %" G_GINT64_FORMAT " bytes",
                           (read_snapshot - start) / 1000.0, (g_get_monotonic_time () - read_events) / 1000.0,
                           events->len, (read_events - read_snapshot) / 1000.0, store_size (f->path));
}

static void
on_restored (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  gint64 *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (agui_agent_session_restore_finish (AGUI_AGENT_SESSION (object), result, &error));
  g_assert_no_error (error);
  *done = g_get_monotonic_time ();
}

/* -m perf: a 10,000-message thread as it is said, 5,000 turns of a
 * question and a 600-byte answer (40,000 logged events), opened again:
 * the store read a restore makes, and the whole restore (read on the
 * store's worker, then folded in slices on the main loop) until the
 * last message is in the transcript, from a store just opened */
static void
test_bench_restore_10000 (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(AguiSessionStore) reopened = NULL;
  g_autoptr(AguiReplayTransport) replay = agui_replay_transport_new ();
  const char *thread_id = "c0ffee00-1000-4000-8000-000000010000";
  gsize content = 0;

  write_conversation (store, thread_id, 5000, 600, TRUE, &content);
  g_clear_object (&store);

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(AguiAgentSession) session = NULL;
      g_autoptr(GPtrArray) events = NULL;
      g_autoptr(AguiTurnSnapshot) snapshot = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start, read, done = 0;

      /* The store's part alone */
      reopened = open_store (f->path);
      start = g_get_monotonic_time ();
      events = agui_session_store_load_events (reopened, thread_id, &error);
      g_assert_no_error (error);
      snapshot = _agui_session_store_get_last_snapshot_for_restore (reopened, thread_id, &error);
      g_assert_no_error (error);
      read = g_get_monotonic_time () - start;
      g_clear_pointer (&events, g_ptr_array_unref);
      g_clear_object (&reopened);

      /* The whole restore, as the app asks for it */
      reopened = open_store (f->path);
      session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", replay, "thread-id", thread_id,
                              "store", reopened, NULL);
      start = g_get_monotonic_time ();
      agui_agent_session_restore_async (session, NULL, on_restored, &done);
      while (done == 0)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (agui_agent_session_get_transcript (session)), ==, 10000);
      g_test_minimized_result ((done - start) / 1000.0,
                               "10,000 messages (5,000 turns, 40,000 events): the store read a restore makes "
                               "in %.0f ms; restore_async to the last message in the transcript in %.0f ms",
                               read / 1000.0, (done - start) / 1000.0);
      g_clear_object (&session);
      g_clear_object (&reopened);
    }
}

static void
test_two_writers (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *child = child_path ();
  g_autoptr(GSubprocess) even = NULL;
  g_autoptr(GSubprocess) odd = NULL;
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const int calls = 20;
  const int per_child = 25;
  int per_turn = CHILD_EVENTS_PER_TURN (calls);

  g_test_summary ("Two processes writing turns into one thread at once: all turns, whole, no damage");

  /* Both start on a database that does not exist yet, so they also race
   * to create the schema. */
  even = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                           child, "write", f->path, "shared", "0", "2", "25", "20", NULL);
  g_assert_no_error (error);
  odd = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                          child, "write", f->path, "shared", "1", "2", "25", "20", NULL);
  g_assert_no_error (error);

  g_assert_true (g_subprocess_wait_check (even, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (odd, NULL, &error));
  g_assert_no_error (error);

  assert_integrity (f->path);

  store = open_store (f->path);
  g_assert_cmpint (agui_session_store_get_turn_count (store, "shared", &error), ==, 2 * per_child);
  g_assert_no_error (error);

  /* The log is a sequence of whole turns, each one unbroken. */
  events = agui_session_store_load_events (store, "shared", &error);
  g_assert_no_error (error);
  g_assert_cmpint (events->len, ==, 2 * per_child * per_turn);
  for (guint start = 0; start < events->len; start += per_turn)
    {
      AguiEvent *first = g_ptr_array_index (events, start);
      AguiEvent *last = g_ptr_array_index (events, start + per_turn - 1);
      const char *run_id = agui_event_get_string (first, "runId");

      g_assert_cmpint (agui_event_get_event_type (first), ==, AGUI_EVENT_RUN_STARTED);
      g_assert_cmpint (agui_event_get_event_type (last), ==, AGUI_EVENT_RUN_FINISHED);
      g_assert_cmpstr (agui_event_get_string (last, "runId"), ==, run_id);
      for (int i = 1; i < per_turn - 1; i++)
        g_assert_cmpint (agui_event_get_event_type (g_ptr_array_index (events, start + i)), !=,
                         AGUI_EVENT_RUN_STARTED);
      g_assert_true (g_hash_table_add (runs, g_strdup (run_id)));
    }
  for (int i = 0; i < 2 * per_child; i++)
    {
      g_autofree char *run_id = g_strdup_printf ("run-%d", i);

      g_assert_true (g_hash_table_contains (runs, run_id));
    }

  g_assert_cmpint (sql_int (f->path, "SELECT COUNT (*) FROM snapshots WHERE "
                                     "json_extract (state, '$.turn') = turn_index"), ==, 2 * per_child);
}

static void
drop_privileges (gpointer user_data)
{
  /* Root writes through any file mode, so the child runs as nobody. */
  if (geteuid () == 0)
    {
      if (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0)
        _exit (99);
#ifdef __linux__
      /* Changing user makes the process undumpable, which stops the leak
       * checker of sanitizer builds from tracing it. */
      prctl (PR_SET_DUMPABLE, 1);
#endif
    }
}

static char *
run_save_once (const char *path,
               int         turn_index)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *child = child_path ();
  g_autofree char *turn_arg = g_strdup_printf ("%d", turn_index);
  char *output = NULL;

  g_subprocess_launcher_set_child_setup (launcher, drop_privileges, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, child, "save-once", path, "ro", turn_arg, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &output, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));

  return output;
}

static void
test_read_only (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  struct {
    const char *what;
    int         dir_mode;
    int         file_mode;
    const char *message;
  } cases[] = {
    { "read-only file", 0777, 0444, "the database is read-only\n" },
    { "read-only folder", 0555, 0666, "the database's folder is read-only\n" },
  };

  g_test_summary ("Saving into a read-only file or folder is a clear error, and loses nothing");

  save_ok (store, &(TurnSpec) { .thread_id = "ro", .snapshot_id = "ro-snap-0", .events = one_message_events });
  g_clear_object (&store);

  /* The folder can be entered by the unprivileged child, and it works
   * there before the modes change. */
  g_assert_cmpint (g_chmod (f->dir, 0777), ==, 0);
  g_assert_cmpint (g_chmod (f->path, 0666), ==, 0);
  output = run_save_once (f->path, 1);
  g_assert_cmpstr (output, ==, "turns 1\nsaved\n");
  g_clear_pointer (&output, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpint (g_chmod (f->path, cases[i].file_mode), ==, 0);
      g_assert_cmpint (g_chmod (f->dir, cases[i].dir_mode), ==, 0);

      output = run_save_once (f->path, 2);
      g_test_message ("%s: %s", cases[i].what, output);
      g_assert_true (g_str_has_prefix (output, "turns 2\nerror: Could not save the turn: "));
      g_assert_nonnull (strstr (output, cases[i].message));
      g_clear_pointer (&output, g_free);

      g_assert_cmpint (g_chmod (f->dir, 0777), ==, 0);
      g_assert_cmpint (g_chmod (f->path, 0666), ==, 0);

      assert_integrity (f->path);
      store = open_store (f->path);
      g_assert_cmpint (agui_session_store_get_turn_count (store, "ro", &error), ==, 2);
      g_assert_no_error (error);
      g_clear_object (&store);
    }
}

/* Benchmark */

static void
test_bench_reopen (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = open_store (f->path);
  g_autoptr(AguiReducer) writer = _agui_reducer_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  const int turns = 10;
  guint raw_total = 0;
  double save_seconds = 0;

  g_test_summary ("Reopening a thread whose log held 100 000 events before compaction");

  for (int turn = 0; turn < turns; turn++)
    {
      g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
      g_autoptr(JsonArray) messages = NULL;
      g_autofree char *snapshot_id = g_strdup_printf ("b%d", turn);
      g_autofree char *parent_id = g_strdup_printf ("b%d", turn - 1);
      AguiTurnRecord record = { NULL, };

#define ADD(...) G_STMT_START { \
    g_autofree char *text_ = g_strdup_printf (__VA_ARGS__); \
    g_ptr_array_add (events, event (text_)); \
  } G_STMT_END

      ADD ("{\"type\":\"RUN_STARTED\",\"threadId\":\"bench\",\"runId\":\"r%d\"}", turn);
      for (int m = 0; m < 20; m++)
        {
          ADD ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%d-%d\",\"role\":\"assistant\"}", turn, m);
          for (int d = 0; d < 500; d++)
            ADD ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%d-%d\",\"delta\":\"token%d \"}",
                 turn, m, d);
          ADD ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%d-%d\"}", turn, m);
          ADD ("{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c%d-%d\",\"toolCallName\":\"f\","
               "\"parentMessageId\":\"m%d-%d\"}", turn, m, turn, m);
          ADD ("{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c%d-%d\",\"delta\":\"{\\\"a\\\":\"}", turn, m);
          ADD ("{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c%d-%d\",\"delta\":\"%d}\"}", turn, m, m);
          ADD ("{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c%d-%d\"}", turn, m);
        }
      ADD ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"bench\",\"runId\":\"r%d\"}", turn);
#undef ADD

      for (guint i = 0; i < events->len; i++)
        _agui_reducer_apply (writer, g_ptr_array_index (events, i));
      messages = agui_transcript_to_messages (_agui_reducer_get_transcript (writer), FALSE);

      record.thread_id = "bench";
      record.snapshot_id = snapshot_id;
      record.parent_id = turn > 0 ? parent_id : NULL;
      record.turn_index = turn;
      record.status = AGUI_SNAPSHOT_COMPLETED;
      record.messages = agui_test_array_tree (messages);
      record.events = events;

      g_timer_start (timer);
      g_assert_true (_agui_session_store_save_turn (store, &record, &error));
      g_assert_no_error (error);
      save_seconds += g_timer_elapsed (timer, NULL);
      raw_total += events->len;
    }
  g_clear_object (&store);
  g_assert_cmpuint (raw_total, >=, 100000);

  /* Reopen: open the database, read the last snapshot, and replay the
   * log into a fresh transcript, as the app does when a thread is
   * selected. */
  for (int run = 0; run < 3; run++)
    {
      g_autoptr(AguiReducer) reader = _agui_reducer_new (NULL);
      g_autoptr(GPtrArray) events = NULL;
      g_autoptr(JsonObject) snapshot = NULL;
      double open_s, snapshot_s, load_s, fold_s;

      g_timer_start (timer);
      store = open_store (f->path);
      open_s = g_timer_elapsed (timer, NULL);
      snapshot = agui_session_store_get_last_snapshot (store, "bench", &error);
      g_assert_no_error (error);
      snapshot_s = g_timer_elapsed (timer, NULL);
      events = agui_session_store_load_events (store, "bench", &error);
      g_assert_no_error (error);
      load_s = g_timer_elapsed (timer, NULL);
      for (guint i = 0; i < events->len; i++)
        _agui_reducer_apply (reader, g_ptr_array_index (events, i));
      fold_s = g_timer_elapsed (timer, NULL);

      g_test_message ("reopen %d: %u raw events stored as %u; open %.1f ms, last snapshot %.1f ms, "
                      "load log %.1f ms, fold %.1f ms, total %.1f ms (saving all %d turns took %.1f ms)",
                      run, raw_total, events->len, open_s * 1000, (snapshot_s - open_s) * 1000,
                      (load_s - snapshot_s) * 1000, (fold_s - load_s) * 1000, fold_s * 1000,
                      turns, save_seconds * 1000);
      if (run == 2)
        g_test_minimized_result (fold_s, "reopen of a 100k-event thread: %.1f ms", fold_s * 1000);
      g_clear_object (&store);
    }
}

static void
async_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (*result == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }

  return *result;
}

static void
test_async_calls (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GAsyncResult) opened = NULL;
  g_autoptr(GAsyncResult) renamed = NULL;
  g_autoptr(GAsyncResult) listed = NULL;
  g_autoptr(GAsyncResult) searched = NULL;
  g_autoptr(GAsyncResult) got = NULL;
  g_autoptr(GAsyncResult) missing = NULL;
  g_autoptr(GAsyncResult) interrupts = NULL;
  g_autoptr(GAsyncResult) exported = NULL;
  g_autoptr(GAsyncResult) markdown = NULL;
  g_autoptr(GAsyncResult) imported = NULL;
  g_autoptr(GAsyncResult) deleted = NULL;
  g_autoptr(GAsyncResult) after = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GAsyncResult) never = NULL;
  g_autoptr(JsonArray) threads = NULL;
  g_autoptr(JsonArray) found = NULL;
  g_autoptr(GListModel) pending = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(JsonNode) export = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *copy_id = NULL;

  g_test_summary ("Every call the window makes has an asynchronous form that runs on the store's worker, "
                  "in the order the calls were made");

  agui_session_store_new_async (f->path, NULL, async_result_cb, &opened);
  store = agui_session_store_new_finish (wait_result (&opened), &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  save_export_thread (store);

  /* Made one after the other without waiting: the listing sees the rename. */
  agui_session_store_rename_thread_async (store, "x", "Zebras, renamed", NULL, async_result_cb, &renamed);
  agui_session_store_list_threads_async (store, NULL, NULL, async_result_cb, &listed);
  agui_session_store_list_threads_async (store, "ZEBRA REPORT", NULL, async_result_cb, &searched);
  agui_session_store_get_thread_async (store, "x", NULL, async_result_cb, &got);
  agui_session_store_get_thread_async (store, "nobody", NULL, async_result_cb, &missing);
  agui_session_store_get_pending_interrupts_async (store, "x", NULL, async_result_cb, &interrupts);
  agui_session_store_export_json_async (store, "x", NULL, async_result_cb, &exported);
  agui_session_store_export_markdown_async (store, "x", NULL, async_result_cb, &markdown);
  g_cancellable_cancel (cancelled);
  agui_session_store_list_threads_async (store, NULL, cancelled, async_result_cb, &never);

  g_assert_true (agui_session_store_rename_thread_finish (store, wait_result (&renamed), &error));
  g_assert_no_error (error);
  threads = agui_session_store_list_threads_finish (store, wait_result (&listed), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (threads), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 0), "title"), ==,
                   "Zebras, renamed");
  found = agui_session_store_list_threads_finish (store, wait_result (&searched), &error);
  g_assert_cmpuint (json_array_get_length (found), ==, 1);
  thread = agui_session_store_get_thread_finish (store, wait_result (&got), &error);
  g_assert_cmpstr (json_object_get_string_member (thread, "agent"), ==, "demo");
  g_assert_null (agui_session_store_get_thread_finish (store, wait_result (&missing), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  pending = agui_session_store_get_pending_interrupts_finish (store, wait_result (&interrupts), &error);
  g_assert_cmpuint (g_list_model_get_n_items (pending), ==, 1);
  export = agui_session_store_export_json_finish (store, wait_result (&exported), &error);
  g_assert_no_error (error);
  text = agui_session_store_export_markdown_finish (store, wait_result (&markdown), &error);
  g_assert_true (g_str_has_prefix (text, "# Zebras, renamed\n"));
  g_assert_null (agui_session_store_list_threads_finish (store, wait_result (&never), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* That thread's messages are not what its log folds to; this one's are. */
  g_clear_pointer (&export, json_node_unref);
  save_consistent_thread (store, "y");
  export = agui_session_store_export_json (store, "y", &error);
  g_assert_no_error (error);
  agui_session_store_import_json_async (store, export, NULL, async_result_cb, &imported);
  /* The import has its own copy: the caller may change the export at once. */
  json_object_set_string_member (json_node_get_object (export), "format", "changed");
  copy_id = agui_session_store_import_json_finish (store, wait_result (&imported), &error);
  g_assert_no_error (error);
  g_assert_nonnull (copy_id);

  agui_session_store_delete_thread_async (store, "x", NULL, async_result_cb, &deleted);
  agui_session_store_list_threads_async (store, NULL, NULL, async_result_cb, &after);
  g_assert_true (agui_session_store_delete_thread_finish (store, wait_result (&deleted), &error));
  g_clear_pointer (&threads, json_array_unref);
  threads = agui_session_store_list_threads_finish (store, wait_result (&after), &error);
  g_assert_cmpuint (json_array_get_length (threads), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 0), "id"), ==, copy_id);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 1), "id"), ==, "y");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD_TEST(path, fn) g_test_add (path, Fixture, NULL, set_up, fn, tear_down)

  ADD_TEST ("/agui/session-store/schema/version", test_schema_version);
  ADD_TEST ("/agui/session-store/schema/future", test_schema_future);
  ADD_TEST ("/agui/session-store/schema/not-a-database", test_not_a_database);
  g_test_add_func ("/agui/session-store/schema/default-path", test_default_path);
  ADD_TEST ("/agui/session-store/threads", test_threads);
  ADD_TEST ("/agui/session-store/turns/basics", test_turns);
  ADD_TEST ("/agui/session-store/turns/atomic", test_turn_atomic);
  ADD_TEST ("/agui/session-store/turns/disk-full", test_disk_full);
  ADD_TEST ("/agui/session-store/compaction/streams", test_compaction);
  g_test_add_func ("/agui/session-store/compaction/random", test_compaction_random);
  ADD_TEST ("/agui/session-store/export/markdown", test_export_markdown);
  ADD_TEST ("/agui/session-store/export/markdown-arguments", test_export_markdown_arguments);
  ADD_TEST ("/agui/session-store/export/markdown-stopped", test_export_markdown_stopped);
  ADD_TEST ("/agui/session-store/async-calls", test_async_calls);
  ADD_TEST ("/agui/session-store/export/round-trip", test_export_import);
  ADD_TEST ("/agui/session-store/export/invalid", test_import_invalid);
  ADD_TEST ("/agui/session-store/export/lone-surrogate", test_import_lone_surrogate);
  ADD_TEST ("/agui/session-store/export/expands-chunks", test_import_expands_chunks);
  ADD_TEST ("/agui/session-store/export/long-log", test_export_long_log);
  ADD_TEST ("/agui/session-store/processes/kill", test_kill);
  ADD_TEST ("/agui/session-store/processes/kill-streaming", test_kill_streaming);
  ADD_TEST ("/agui/session-store/journal/whole-message", test_journal_whole_message);
  ADD_TEST ("/agui/session-store/storage/linear", test_storage_linear);
  ADD_TEST ("/agui/session-store/schema/migrate-release", test_migrate_release_store);
  ADD_TEST ("/agui/session-store/schema/migrate-v5", test_migrate_v5_store);
  ADD_TEST ("/agui/session-store/schema/migrate-v8", test_migrate_v8_store);
  ADD_TEST ("/agui/session-store/surface-values", test_surface_values);
  ADD_TEST ("/agui/session-store/export/surface-values", test_export_surface_values);
  ADD_TEST ("/agui/session-store/processes/two-writers", test_two_writers);
  ADD_TEST ("/agui/session-store/processes/read-only", test_read_only);
  if (g_test_perf ())
    {
      ADD_TEST ("/agui/session-store/bench/reopen-100k", test_bench_reopen);
      ADD_TEST ("/agui/session-store/bench/storage", test_bench_storage);
      ADD_TEST ("/agui/session-store/bench/storage-1000", test_bench_storage_1000);
      ADD_TEST ("/agui/session-store/bench/snapshot-10000", test_bench_snapshot_10000);
      ADD_TEST ("/agui/session-store/bench/restore-10000", test_bench_restore_10000);
    }

#undef ADD_TEST

  return g_test_run ();
}
