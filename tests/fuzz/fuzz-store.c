/* fuzz-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any bytes, written as a store file, are refused with a reason or
 * opened; an opened store lists, reads and exports its threads with an
 * answer or an error for each call, opens again to read the same, and
 * takes a write or refuses it.
 * A file never runs code of its own, never crashes a call and never
 * keeps one running (libFuzzer's -timeout finds that).
 */

#include "config.h"

#include <glib/gstdio.h>

#include "agui.h"
#include "fuzz.h"

/* At most this many threads are read: each costs the same, and a
 * fuzzed file may list thousands. */
#define MAX_THREADS 8

static char *store_path;
static char *store_dir;

/* The folder goes when the process does: the suite replays the corpus
 * on every run. */
static void
remove_dir (void)
{
  g_rmdir (store_dir);
}

static const char *
get_path (void)
{
  if (store_path == NULL)
    {
      g_autoptr(GError) error = NULL;
      /* Memory-backed where the system has it: every input is a file. */
      g_autofree char *dir = NULL;

      if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
        {
          g_autofree char *template = g_build_filename ("/dev/shm", "fuzz-store-XXXXXX", NULL);

          if (g_mkdtemp (template) != NULL)
            dir = g_steal_pointer (&template);
        }
      if (dir == NULL)
        dir = g_dir_make_tmp ("fuzz-store-XXXXXX", &error);
      if (dir == NULL)
        g_error ("%s", error->message);
      store_path = g_build_filename (dir, "store.db", NULL);
      store_dir = g_steal_pointer (&dir);
      atexit (remove_dir);
    }

  return store_path;
}

static void
remove_store (const char *path)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *name = g_strconcat (path, suffixes[i], NULL);

      g_unlink (name);
    }
}

static void
write_store (const char    *path,
             const uint8_t *data,
             size_t         size)
{
  FILE *file;

  remove_store (path);
  file = fopen (path, "wb");
  if (file == NULL || fwrite (data, 1, size, file) != size || fclose (file) != 0)
    g_error ("cannot write %s", path);
}

static char *
read_thread (AguiSessionStore *store,
             const char       *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(GListModel) interrupts = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonArray) branches = NULL;
  g_autofree char *markdown = NULL;
  int turns;

  thread = agui_session_store_get_thread (store, id, &error);
  FUZZ_CHECK ((thread != NULL) == (error == NULL), "get_thread: no answer and no error");
  g_clear_error (&error);
  events = agui_session_store_load_events (store, id, &error);
  FUZZ_CHECK ((events != NULL) == (error == NULL), "load_events: no answer and no error");
  g_clear_error (&error);
  snapshot = agui_session_store_get_last_snapshot (store, id, &error);
  g_clear_error (&error);
  turns = agui_session_store_get_turn_count (store, id, &error);
  FUZZ_CHECK ((turns >= 0) == (error == NULL), "get_turn_count: %d", turns);
  g_clear_error (&error);
  interrupts = agui_session_store_get_pending_interrupts (store, id, &error);
  FUZZ_CHECK ((interrupts != NULL) == (error == NULL), "get_pending_interrupts: no answer and no error");
  g_clear_error (&error);
  branches = agui_session_store_list_branches (store, id, &error);
  g_clear_error (&error);
  markdown = agui_session_store_export_markdown (store, id, &error);
  FUZZ_CHECK ((markdown != NULL) == (error == NULL), "export_markdown: no answer and no error");
  g_clear_error (&error);
  exported = agui_session_store_export_json (store, id, &error);
  FUZZ_CHECK ((exported != NULL) == (error == NULL), "export_json: no answer and no error");

  return exported != NULL ? json_to_string (exported, FALSE) : g_strdup ("");
}

/* Everything the store shows of its threads, to compare two openings. */
static char *
read_store (AguiSessionStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) threads = NULL;
  g_autoptr(JsonArray) found = NULL;
  GString *out = g_string_new (NULL);

  threads = agui_session_store_list_threads (store, NULL, &error);
  FUZZ_CHECK ((threads != NULL) == (error == NULL), "list_threads: no answer and no error");
  if (threads == NULL)
    return g_string_free (out, FALSE);

  found = agui_session_store_list_threads (store, "a", NULL);

  for (guint i = 0; i < json_array_get_length (threads) && i < MAX_THREADS; i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);
      const char *id = thread != NULL ? json_object_get_string_member_with_default (thread, "id", NULL) : NULL;
      g_autofree char *text = NULL;

      FUZZ_CHECK (id != NULL, "a listed thread has no id");
      text = read_thread (store, id);
      g_string_append_printf (out, "%s\n%s\n", id, text);
    }

  return g_string_free (out, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = get_path ();
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiSessionStore) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  fuzz_init ();

  /* An empty file is a store that lost everything: refused after half
   * a second's wait for a writer, which the store's tests cover. */
  if (size == 0)
    return 0;

  write_store (path, data, size);
  store = agui_session_store_new (path, &error);
  if (store == NULL)
    {
      FUZZ_CHECK (g_error_matches (error, AGUI_ERROR, AGUI_ERROR_STORE), "refused without a store error: %s",
                  error != NULL ? error->message : "(none)");
      FUZZ_CHECK (strstr (error->message, path) != NULL, "the refusal does not name the file: %s", error->message);
      remove_store (path);
      return 0;
    }

  first = read_store (store);
  g_clear_object (&store);

  again = agui_session_store_new (path, &error);
  FUZZ_CHECK (again != NULL, "an opened store does not open again: %s", error->message);
  second = read_store (again);
  FUZZ_CHECK (g_strcmp0 (first, second) == 0, "the store reads otherwise when opened again");

  /* Writing goes through the same file; a damaged one may refuse. */
  if (agui_session_store_create_thread (again, "fuzz-thread", "Fuzz", NULL, NULL))
    {
      agui_session_store_rename_thread (again, "fuzz-thread", "Fuzz again", NULL);
      agui_session_store_delete_thread (again, "fuzz-thread", NULL);
    }

  g_clear_object (&again);
  remove_store (path);
  return 0;
}
