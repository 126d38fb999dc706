/* test-session-threads.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "agui-test-tree.h"
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "agui.h"
#include "agui-session-store-private.h"

/* AguiThreadList over a real SQLite file: read once on the store's
 * worker, then changed one item at a time as the store writes. */

typedef struct
{
  char             *dir;
  char             *path;
  AguiSessionStore *store;
} Fixture;

static void
set_up (Fixture       *f,
        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("session-threads-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "tandem.db", NULL);
  f->store = agui_session_store_new (f->path, &error);
  g_assert_no_error (error);
}

static void
tear_down (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_clear_object (&f->store);
  /* Jobs still queued hold the store; let them run out */
  while (g_main_context_iteration (NULL, FALSE))
    ;

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

static JsonArray *
user_messages (const char *text)
{
  JsonArray *messages = json_array_new ();
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "id", "m1");
  json_object_set_string_member (message, "role", "user");
  json_object_set_string_member (message, "content", text);
  json_array_add_object_element (messages, message);

  return messages;
}

/* A turn on @thread_id whose messages say @text; with @waiting, the
 * thread then waits on an interrupt. */
static void
save_turn (Fixture    *f,
           const char *thread_id,
           int         turn_index,
           const char *text,
           gboolean    waiting)
{
  g_autoptr(JsonArray) messages = user_messages (text);
  g_autoptr(JsonArray) interrupts = json_array_new ();
  g_autofree char *snapshot_id = g_uuid_string_random ();
  g_autoptr(GError) error = NULL;
  AguiTurnRecord turn = { 0 };

  if (waiting)
    {
      JsonObject *interrupt = json_object_new ();

      json_object_set_string_member (interrupt, "id", "i1");
      json_object_set_string_member (interrupt, "reason", "tool_call");
      json_array_add_object_element (interrupts, interrupt);
    }

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.turn_index = turn_index;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  turn.messages = agui_test_array_tree (messages);
  turn.pending_interrupts = agui_test_array_tree (interrupts);
  g_assert_true (_agui_session_store_save_turn (f->store, &turn, &error));
  g_assert_no_error (error);
}

static void
create_thread (Fixture    *f,
               const char *thread_id,
               const char *title)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agui_session_store_create_thread (f->store, thread_id, title, "agent-a", &error));
  g_assert_no_error (error);
}

static void
wait_loaded (AguiThreadList *list)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (agui_thread_list_is_loading (list))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static AguiThreadInfo *
item (AguiThreadList *list,
      guint           position)
{
  /* The list holds its own reference: borrowing it is safe here. */
  g_autoptr(AguiThreadInfo) info = g_list_model_get_item (G_LIST_MODEL (list), position);

  g_assert_nonnull (info);
  return info;
}

static GStrv
dup_ids (AguiThreadList *list)
{
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    g_strv_builder_add (ids, agui_thread_info_get_id (item (list, i)));

  return g_strv_builder_end (ids);
}

/* Every items-changed, as "position,removed,added" */
static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GPtrArray  *log)
{
  g_ptr_array_add (log, g_strdup_printf ("%u,%u,%u", position, removed, added));
}

static void
assert_log (GPtrArray          *log,
            const char * const *expected)
{
  g_ptr_array_add (log, NULL);
  if (g_strv_length ((GStrv) log->pdata) != g_strv_length ((GStrv) expected))
    g_test_message ("items-changed: %s", g_strjoinv (" ", (GStrv) log->pdata));
  g_assert_cmpstrv ((const char * const *) log->pdata, expected);
  g_ptr_array_set_size (log, 0);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Tests */

static void
test_load (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) ids = NULL;
  AguiThreadInfo *info;
  guint position = 0;

  g_test_summary ("The list reads every thread once, newest first, on the worker, with typed fields");

  create_thread (f, "old", "The oldest");
  create_thread (f, "middle", "In between");
  create_thread (f, "new", "The newest");
  save_turn (f, "middle", 0, "hello", TRUE);

  list = agui_thread_list_new (f->store);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), log);
  g_assert_true (agui_thread_list_is_loading (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == AGUI_TYPE_THREAD_INFO);
  g_assert_true (agui_thread_list_get_store (list) == f->store);

  wait_loaded (list);
  g_assert_null (agui_thread_list_get_error (list));
  assert_log (log, (const char *[]) { "0,0,3", NULL });
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "middle", "new", "old", NULL }));

  info = item (list, 0);
  g_assert_cmpstr (agui_thread_info_get_title (info), ==, "In between");
  g_assert_cmpstr (agui_thread_info_get_agent_id (info), ==, "agent-a");
  g_assert_cmpint (agui_thread_info_get_status (info), ==, AGUI_THREAD_WAITING_FOR_ANSWER);
  g_assert_null (agui_thread_info_get_snippet (info));
  g_assert_cmpint (agui_thread_info_get_status (item (list, 1)), ==, AGUI_THREAD_IDLE);
  /* The times are the store's, as GDateTimes */
  g_assert_cmpint (g_date_time_compare (agui_thread_info_get_updated (info),
                                        agui_thread_info_get_updated (item (list, 1))), >, 0);
  g_assert_cmpint (g_date_time_compare (agui_thread_info_get_created (info),
                                        agui_thread_info_get_updated (info)), <=, 0);
  g_assert_cmpint (g_date_time_get_year (agui_thread_info_get_updated (info)), >=, 2024);

  g_assert_true (agui_thread_list_lookup (list, "old", &position) == item (list, 2));
  g_assert_cmpuint (position, ==, 2);
  g_assert_null (agui_thread_list_lookup (list, "never", NULL));
}

static void
test_incremental (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) renamed = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = NULL;
  AguiThreadInfo *old;
  guint notified = 0;

  g_test_summary ("A saved turn, a rename, a delete and a new thread each change one item, as the store writes them");

  create_thread (f, "a", "First");
  create_thread (f, "b", "Second");
  create_thread (f, "c", "Third");
  list = agui_thread_list_new (f->store);
  wait_loaded (list);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), log);
  old = item (list, 2);
  g_assert_cmpstr (agui_thread_info_get_id (old), ==, "a");
  g_signal_connect_swapped (old, "notify::updated", G_CALLBACK (g_nullify_pointer), &notified);
  notified = 1;

  /* A turn brings the oldest to the top: the same object moves. */
  save_turn (f, "a", 0, "news", TRUE);
  assert_log (log, (const char *[]) { "2,1,0", "0,0,1", NULL });
  g_assert_true (item (list, 0) == old);
  g_assert_cmpuint (notified, ==, 0);
  g_assert_cmpint (agui_thread_info_get_status (old), ==, AGUI_THREAD_WAITING_FOR_ANSWER);
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "a", "c", "b", NULL }));
  g_clear_pointer (&ids, g_strfreev);

  /* A turn on the top one keeps it there: one item changed. */
  save_turn (f, "a", 1, "more news", FALSE);
  assert_log (log, (const char *[]) { "0,1,1", NULL });
  g_assert_cmpint (agui_thread_info_get_status (old), ==, AGUI_THREAD_IDLE);

  /* A rename, from the worker: announced before its callback runs */
  agui_session_store_rename_thread_async (f->store, "b", "Renamed", NULL, result_cb, &renamed);
  g_assert_cmpuint (log->len, ==, 0);
  while (renamed == NULL)
    {
      g_main_context_iteration (NULL, TRUE);
      g_assert_true (renamed == NULL || log->len == 1);
    }
  g_assert_true (agui_session_store_rename_thread_finish (f->store, renamed, &error));
  g_assert_no_error (error);
  assert_log (log, (const char *[]) { "2,1,1", NULL });
  g_assert_cmpstr (agui_thread_info_get_title (item (list, 2)), ==, "Renamed");

  /* A new thread, and a delete */
  create_thread (f, "d", "Fourth");
  assert_log (log, (const char *[]) { "0,0,1", NULL });
  g_assert_true (agui_session_store_delete_thread (f->store, "c", &error));
  g_assert_no_error (error);
  assert_log (log, (const char *[]) { "2,1,0", NULL });
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "d", "a", "b", NULL }));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);

  /* A write that fails changes nothing. */
  g_assert_false (agui_session_store_rename_thread (f->store, "gone", "x", &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (log->len, ==, 0);
}

static void
test_pinned (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(AguiThreadList) again = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = NULL;
  AguiThreadInfo *oldest;

  g_test_summary ("Pinned threads come first, newest first among them; a pin moves its thread and keeps its time");

  create_thread (f, "a", "First");
  create_thread (f, "b", "Second");
  create_thread (f, "c", "Third");
  list = agui_thread_list_new (f->store);
  wait_loaded (list);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), log);
  oldest = item (list, 2);
  g_assert_false (agui_thread_info_get_pinned (oldest));

  g_assert_true (agui_session_store_set_thread_pinned (f->store, "a", TRUE, &error));
  g_assert_no_error (error);
  assert_log (log, (const char *[]) { "2,1,0", "0,0,1", NULL });
  g_assert_true (item (list, 0) == oldest);
  g_assert_true (agui_thread_info_get_pinned (oldest));
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "a", "c", "b", NULL }));
  g_clear_pointer (&ids, g_strfreev);

  /* A turn on an unpinned thread brings it to the top of the unpinned */
  save_turn (f, "b", 0, "news", FALSE);
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "a", "b", "c", NULL }));
  g_clear_pointer (&ids, g_strfreev);

  /* Among the pinned, the newest first; a new thread goes below them */
  g_assert_true (agui_session_store_set_thread_pinned (f->store, "c", TRUE, &error));
  g_assert_no_error (error);
  create_thread (f, "d", "Fourth");
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "c", "a", "d", "b", NULL }));
  g_clear_pointer (&ids, g_strfreev);

  /* The store lists them so too, read again */
  again = agui_thread_list_new (f->store);
  wait_loaded (again);
  ids = dup_ids (again);
  g_assert_cmpstrv (ids, ((const char *[]) { "c", "a", "d", "b", NULL }));
  g_clear_pointer (&ids, g_strfreev);

  /* Unpinned, a thread goes back where its time puts it */
  g_assert_true (agui_session_store_set_thread_pinned (f->store, "a", FALSE, &error));
  g_assert_no_error (error);
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "c", "d", "b", "a", NULL }));
}

static void
test_change_while_loading (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) ids = NULL;

  g_test_summary ("Changes made while the first read is under way are in the list once it is read");

  create_thread (f, "a", "First");
  list = agui_thread_list_new (f->store);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), log);
  /* Made on this thread before the worker reads: the read sees them,
   * and their announcements come before it. */
  create_thread (f, "b", "Second");
  g_assert_true (agui_session_store_rename_thread (f->store, "a", "First, renamed", NULL));
  g_assert_cmpuint (log->len, ==, 0);

  wait_loaded (list);
  assert_log (log, (const char *[]) { "0,0,2", NULL });
  ids = dup_ids (list);
  g_assert_cmpstrv (ids, ((const char *[]) { "b", "a", NULL }));
  g_assert_cmpstr (agui_thread_info_get_title (item (list, 1)), ==, "First, renamed");
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  const char *snippet;

  g_test_summary ("A search runs on the worker and fills the snippets of the threads whose messages match");

  create_thread (f, "garden", "Garden notes");
  save_turn (f, "garden", 0, "The tomatoes need water", FALSE);
  create_thread (f, "travel", "Travel");
  save_turn (f, "travel", 0,
             "First line\nPack the ZEBRA-striped umbrella, the one from the market by the harbour, "
             "and the blue one as well, since it will rain for the whole of the week we are there", FALSE);
  create_thread (f, "budget", "Budget review");
  save_turn (f, "budget", 0, "Quarterly numbers", FALSE);

  list = agui_thread_list_new (f->store);
  wait_loaded (list);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), log);

  agui_thread_list_set_search (list, "zebra");
  g_assert_cmpstr (agui_thread_list_get_search (list), ==, "zebra");
  g_assert_true (agui_thread_list_is_loading (list));
  wait_loaded (list);
  g_assert_null (agui_thread_list_get_error (list));

  /* Only the matching thread changed; the others have no snippet */
  assert_log (log, (const char *[]) { "1,1,1", NULL });
  snippet = agui_thread_info_get_snippet (agui_thread_list_lookup (list, "travel", NULL));
  g_assert_nonnull (snippet);
  g_assert_true (g_str_has_prefix (snippet, "Pack the ZEBRA-striped umbrella"));
  g_assert_true (g_str_has_suffix (snippet, "…"));
  g_assert_cmpint (g_utf8_strlen (snippet, -1), <=, 81);
  g_assert_null (strstr (snippet, "First line"));
  g_assert_null (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "garden", NULL)));
  /* The title is the view's to match, in memory */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);

  /* A turn that now mentions it is searched again, alone. */
  save_turn (f, "garden", 1, "A zebra ate the tomatoes", FALSE);
  assert_log (log, (const char *[]) { "2,1,0", "0,0,1", NULL });
  wait_loaded (list);
  assert_log (log, (const char *[]) { "0,1,1", NULL });
  g_assert_cmpstr (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "garden", NULL)), ==,
                   "A zebra ate the tomatoes");

  /* Any script, ignoring case */
  save_turn (f, "budget", 1, "Eine Überweisung an die ÄRZTE", FALSE);
  agui_thread_list_set_search (list, "ärzte");
  wait_loaded (list);
  /* A few words before the match, cut at a word */
  g_assert_cmpstr (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "budget", NULL)), ==,
                   "…an die ÄRZTE");
  g_assert_null (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "travel", NULL)));
  g_ptr_array_set_size (log, 0);

  /* No search: the snippets go at once */
  agui_thread_list_set_search (list, "");
  g_assert_null (agui_thread_list_get_search (list));
  g_assert_false (agui_thread_list_is_loading (list));
  assert_log (log, (const char *[]) { "0,1,1", NULL });
  g_assert_null (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "budget", NULL)));
}

static void
test_search_replaced (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;

  g_test_summary ("A search replaced before its answer leaves no trace of it");

  create_thread (f, "one", "One");
  save_turn (f, "one", 0, "apples", FALSE);
  create_thread (f, "two", "Two");
  save_turn (f, "two", 0, "pears", FALSE);

  list = agui_thread_list_new (f->store);
  wait_loaded (list);
  agui_thread_list_set_search (list, "apples");
  agui_thread_list_set_search (list, "pears");
  wait_loaded (list);
  g_assert_null (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "one", NULL)));
  g_assert_cmpstr (agui_thread_info_get_snippet (agui_thread_list_lookup (list, "two", NULL)), ==, "pears");
}

static void
on_notify_cb (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_error (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AguiThreadList) list = NULL;
  g_autoptr(AguiThreadList) searched = NULL;
  const GError *error;
  GError *property = NULL;
  sqlite3 *db = NULL;
  guint errors = 0, loading = 0;

  g_test_summary ("A read the store cannot answer ends the loading and says why in the error property");

  create_thread (f, "one", "One");
  searched = agui_thread_list_new (f->store);
  wait_loaded (searched);

  /* Another program breaks the database under the store */
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "ALTER TABLE threads RENAME TO gone; DROP TABLE messages",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  list = agui_thread_list_new (f->store);
  g_signal_connect (list, "notify::error", G_CALLBACK (on_notify_cb), &errors);
  g_signal_connect (list, "notify::loading", G_CALLBACK (on_notify_cb), &loading);
  wait_loaded (list);
  g_assert_cmpuint (errors, ==, 1);
  g_assert_cmpuint (loading, ==, 1);
  error = agui_thread_list_get_error (list);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "Could not list the threads"));
  g_object_get (list, "error", &property, NULL);
  g_assert_error (property, AGUI_ERROR, AGUI_ERROR_STORE);
  g_clear_error (&property);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);

  /* A search that fails keeps the threads read before */
  agui_thread_list_set_search (searched, "anything");
  wait_loaded (searched);
  g_assert_error (agui_thread_list_get_error (searched), AGUI_ERROR, AGUI_ERROR_STORE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (searched)), ==, 1);
}

static void
test_dispose_while_loading (Fixture       *f,
                            gconstpointer  data)
{
  AguiThreadList *list;
  GWeakRef weak;

  g_test_summary ("A list dropped while it reads goes away once the worker answers, with nothing emitted");

  create_thread (f, "one", "One");
  list = agui_thread_list_new (f->store);
  agui_thread_list_set_search (list, "one");
  g_weak_ref_init (&weak, list);
  g_object_run_dispose (G_OBJECT (list));
  g_object_unref (list);
  while (g_main_context_iteration (NULL, FALSE) || g_weak_ref_get (&weak) != NULL)
    {
      GObject *still = g_weak_ref_get (&weak);

      if (still == NULL)
        break;
      g_object_unref (still);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
}

/* A question that expired while its conversation was closed waits for
 * nobody: the list says so without the conversation being opened */
static void
test_expired_interrupt (Fixture       *f,
                        gconstpointer  data)
{
  const char *expires[] = { "2001-01-01T00:00:00Z", "2999-01-01T00:00:00Z", "not a date" };
  const AguiThreadStatus expected[] = { AGUI_THREAD_IDLE, AGUI_THREAD_WAITING_FOR_ANSWER,
                                        AGUI_THREAD_WAITING_FOR_ANSWER };
  g_autoptr(AguiThreadList) list = NULL;

  g_test_summary ("A thread whose open interrupts have all expired is not waiting; a later or unreadable "
                  "expiry still waits");

  for (guint i = 0; i < G_N_ELEMENTS (expires); i++)
    {
      g_autofree char *thread_id = g_strdup_printf ("expiry-%u", i);
      g_autoptr(JsonArray) messages = user_messages ("question");
      g_autoptr(JsonArray) interrupts = json_array_new ();
      g_autofree char *snapshot_id = g_uuid_string_random ();
      g_autoptr(GError) error = NULL;
      JsonObject *interrupt = json_object_new ();
      AguiTurnRecord turn = { 0 };

      json_object_set_string_member (interrupt, "id", "i1");
      json_object_set_string_member (interrupt, "reason", "tool_call");
      json_object_set_string_member (interrupt, "expiresAt", expires[i]);
      json_array_add_object_element (interrupts, interrupt);

      create_thread (f, thread_id, "Expiring");
      turn.thread_id = thread_id;
      turn.snapshot_id = snapshot_id;
      turn.status = AGUI_SNAPSHOT_COMPLETED;
      turn.messages = agui_test_array_tree (messages);
      turn.pending_interrupts = agui_test_array_tree (interrupts);
      g_assert_true (_agui_session_store_save_turn (f->store, &turn, &error));
      g_assert_no_error (error);
    }

  /* Newest first */
  list = agui_thread_list_new (f->store);
  wait_loaded (list);
  g_assert_null (agui_thread_list_get_error (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, G_N_ELEMENTS (expires));
  for (guint i = 0; i < G_N_ELEMENTS (expires); i++)
    {
      AguiThreadInfo *info = item (list, G_N_ELEMENTS (expires) - 1 - i);
      g_autofree char *thread_id = g_strdup_printf ("expiry-%u", i);

      g_assert_cmpstr (agui_thread_info_get_id (info), ==, thread_id);
      g_assert_cmpint (agui_thread_info_get_status (info), ==, expected[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/agui/thread-list/load", Fixture, NULL, set_up, test_load, tear_down);
  g_test_add ("/agui/thread-list/incremental", Fixture, NULL, set_up, test_incremental, tear_down);
  g_test_add ("/agui/thread-list/pinned", Fixture, NULL, set_up, test_pinned, tear_down);
  g_test_add ("/agui/thread-list/expired-interrupt", Fixture, NULL, set_up, test_expired_interrupt, tear_down);
  g_test_add ("/agui/thread-list/change-while-loading", Fixture, NULL, set_up, test_change_while_loading, tear_down);
  g_test_add ("/agui/thread-list/search", Fixture, NULL, set_up, test_search, tear_down);
  g_test_add ("/agui/thread-list/search-replaced", Fixture, NULL, set_up, test_search_replaced, tear_down);
  g_test_add ("/agui/thread-list/error", Fixture, NULL, set_up, test_error, tear_down);
  g_test_add ("/agui/thread-list/dispose-while-loading", Fixture, NULL, set_up, test_dispose_while_loading, tear_down);

  return g_test_run ();
}
