/* test-hostile.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Each input an agent could send that once crashed Tandem, bricked a
 * conversation or produced invalid output, through the real tandem-cli. */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>
#include <grp.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("tandem-hostile-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_chmod (path, 0600);
      g_unlink (path);
    }
  g_chmod (f->dir, 0700);
  g_rmdir (f->dir);
  g_free (f->dir);
}

static void
drop_privileges (gpointer user_data)
{
  /* Root writes through any file mode, so the child runs as nobody. */
  if (geteuid () == 0 && (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0))
    _exit (99);
}

static gboolean as_nobody;

static char *
run_cli (int         *status,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TANDEM_CLI"));
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (as_nobody)
    g_subprocess_launcher_set_child_setup (launcher, drop_privileges, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, err, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  *status = g_subprocess_get_exit_status (process);

  return out;
}

/* Valid JSON by a parser that is not json-glib's (nor ours): Python's
 * strict one, which refuses inf, NaN and raw control characters. */
static void
assert_strict_json (const char *text)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE |
                              G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                              "python3", "-c",
                              "import json, sys\n"
                              "def refuse(name): raise ValueError('not JSON: ' + name)\n"
                              "json.loads(sys.stdin.buffer.read().decode('utf-8'), strict=True, parse_constant=refuse)\n",
                              NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, text, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (process))
    g_error ("not valid JSON (%s): %.200s", err, text);
}

static char *
write_sse (Fixture    *f,
           const char *name,
           const char *first,
           ...)
{
  g_autoptr(GString) body = g_string_new (NULL);
  char *path = g_build_filename (f->dir, name, NULL);
  const char *frame;
  va_list args;

  va_start (args, first);
  for (frame = first; frame != NULL; frame = va_arg (args, const char *))
    g_string_append_printf (body, "data: %s\n\n", frame);
  va_end (args);

  g_assert_true (g_file_set_contents (path, body->str, body->len, NULL));

  return path;
}

static char *
nested (guint depth)
{
  return g_strnfill (depth, '[');
}

#define RUN_STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
#define RUN_FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"

static void
test_deep_frame (Fixture       *f,
                 gconstpointer  data)
{
  /* 100,000 overflowed json-glib's parser; 60,000 parsed, then
   * overflowed the CLI's printer */
  static const guint depths[] = { 100000, 60000 };

  g_test_summary ("A frame of 100,000 or 60,000 '[' is refused as a malformed event naming the "
                  "limit; the stream goes on and fold prints valid JSON");

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      g_autofree char *deep = nested (depths[i]);
      g_autofree char *path = NULL;
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr(JsonNode) folded = NULL;
      int status;

      path = write_sse (f, "deep.sse", RUN_STARTED, deep,
                        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"after\"}",
                        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}",
                        RUN_FINISHED, NULL);
      out = run_cli (&status, &err, "fold", path, NULL);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, "nested deeper than 512 levels"));
      assert_strict_json (out);
      folded = json_from_string (out, NULL);
      g_assert_nonnull (strstr (out, "after"));
    }
}

static void
test_deep_tool_arguments (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *deep = nested (100000);
  g_autofree char *args = g_strdup_printf ("{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"%s\"}", deep);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("Tool-call arguments of 100,000 '[' end as text, not a stack overflow");

  path = write_sse (f, "args.sse", RUN_STARTED,
                    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\"}",
                    args,
                    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c\"}",
                    RUN_FINISHED, NULL);
  out = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 0);
  assert_strict_json (out);
  g_assert_nonnull (strstr (out, "[[[[[[[[[["));
}

static void
test_hostile_values_fold (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("1e999, a 30-digit integer and \\u0000 are refused as malformed events; "
                  "U+001F is escaped; fold's output is strict JSON");

  path = write_sse (f, "values.sse", RUN_STARTED,
                    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"big\":1e999}}",
                    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"wide\":123456789012345678901234567890}}",
                    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"nul\":\"a\\u0000b\"}}",
                    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"unit\":\"a\\u001fb\",\"edge\":9223372036854775807}}",
                    RUN_FINISHED, NULL);
  out = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "too large for a double"));
  assert_strict_json (out);
  g_assert_nonnull (strstr (out, "a\\u001fb"));
  g_assert_nonnull (strstr (out, "9223372036854775807"));
}

static void
test_skipped_summary (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GString) body = g_string_new ("data: " RUN_STARTED "\n\n");
  g_autofree char *path = g_build_filename (f->dir, "skips.sse", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  g_test_summary ("Many malformed frames print three lines and one summary with the count and the first");

  for (guint i = 0; i < 1234; i++)
    g_string_append_printf (body, "data: {\"bad\": %u\n\n", i);
  g_string_append (body, "data: " RUN_FINISHED "\n\n");
  g_assert_true (g_file_set_contents (path, body->str, body->len, NULL));

  out = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 1);
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_prefix (lines[3], "tandem-cli: skipped 1,234 malformed frames; the first: Invalid event"));
  assert_strict_json (out);
}

static void
test_closed_mid_frame (Fixture       *f,
                       gconstpointer  data)
{
  static const char body[] = "data: " RUN_STARTED "\n\ndata: {\"type\":\"TEXT_MESSAGE_ST";
  g_autofree char *path = g_build_filename (f->dir, "cut.sse", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("A body cut inside a frame says so, not just 'parse error'");

  g_assert_true (g_file_set_contents (path, body, sizeof body - 1, NULL));
  out = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "The connection closed in the middle of an event, after 24 bytes of it"));
  assert_strict_json (out);
}

static void
test_nul_byte (Fixture       *f,
               gconstpointer  data)
{
  static const char body[] = "data: " RUN_STARTED "\n\ndata: {\"type\":\0\"RUN_FINISHED\"}\n\n";
  g_autofree char *path = g_build_filename (f->dir, "nul.sse", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("A raw NUL byte in a frame is named as such");

  g_assert_true (g_file_set_contents (path, body, sizeof body - 1, NULL));
  out = run_cli (&status, &err, "fold", path, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "NUL byte"));
  assert_strict_json (out);
}

static void
sql (const char *path,
     const char *statement)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "python3", "-c",
                              "import sqlite3, sys\n"
                              "db = sqlite3.connect(sys.argv[1])\n"
                              "db.executescript(sys.argv[2])\n"
                              "db.commit()\n",
                              path, statement, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (process, NULL, &error));
  g_assert_no_error (error);
}

static char *
first_thread (const char *db,
              const char *search)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  out = run_cli (&status, &err, "threads", "--store", db, "--search", search, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");

  return g_strndup (out, strcspn (out, " \n"));
}

static void
test_store_stays_readable (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *db = g_build_filename (f->dir, "t.db", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *unit = NULL, *other = NULL;
  int status;

  g_test_summary ("U+001F in a message, a damaged event row and a damaged snapshot: every output "
                  "stays strict JSON, the damaged thread opens with a warning, search still works");

  g_free (run_cli (&status, &err, "send", "--demo", "alpha\x1f" "beta", "--approve", "--store", db, NULL));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_free (run_cli (&status, &err, "send", "--demo", "second thread", "--approve", "--store", db, NULL));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);

  unit = first_thread (db, "beta");
  other = first_thread (db, "second");
  g_assert_cmpstr (unit, !=, "");
  g_assert_cmpstr (other, !=, "");
  g_assert_cmpstr (unit, !=, other);

  out = run_cli (&status, &err, "show", unit, "--store", db, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  assert_strict_json (out);
  g_assert_nonnull (strstr (out, "alpha\\u001fbeta"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (&status, &err, "show", unit, "--store", db, "--export", NULL);
  g_assert_cmpint (status, ==, 0);
  assert_strict_json (out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Damage written by something else than this version of Tandem. */
  {
    g_autofree char *damage = g_strdup_printf (
      "UPDATE log SET json = '{\"type\": inf.0' WHERE thread_key = (SELECT key FROM threads WHERE id = '%s') "
      "  AND seq = (SELECT MAX (seq) FROM log WHERE thread_key = (SELECT key FROM threads WHERE id = '%s'));"
      "UPDATE snapshots SET messages = '[' || messages WHERE thread_id = '%s';",
      unit, unit, other);

    sql (db, damage);
  }

  out = run_cli (&status, &err, "show", unit, "--store", db, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "skipped the stored event"));
  assert_strict_json (out);
  g_assert_nonnull (strstr (out, "alpha\\u001fbeta"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "show", other, "--store", db, "--export", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "skipped the damaged snapshot"));
  assert_strict_json (out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_free (first_thread (db, "beta"));
  g_free (first_thread (db, "second"));
}

static void
test_deep_row_search (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *db = g_build_filename (f->dir, "t.db", NULL);
  g_autofree char *deep = g_strnfill (2001, '[');
  g_autofree char *damage = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("Activity content nested 2,001 deep in a stored row, which SQLite's JSON "
                  "functions refuse, breaks neither search nor the other threads");

  g_free (run_cli (&status, &err, "send", "--demo", "deep thread", "--approve", "--store", db, NULL));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_free (run_cli (&status, &err, "send", "--demo", "other thread", "--approve", "--store", db, NULL));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  unit = first_thread (db, "deep");

  /* Written by something else than this version of Tandem, which
   * refuses such an event before it is stored */
  damage = g_strdup_printf ("UPDATE log SET json = '{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\","
                            "\"activityType\":\"x\",\"content\":{\"d\":%s}}' "
                            "WHERE thread_key = (SELECT key FROM threads WHERE id = '%s') AND seq = "
                            "  (SELECT MAX (seq) FROM log WHERE thread_key = (SELECT key FROM threads WHERE id = '%s'));",
                            deep, unit, unit);
  sql (db, damage);

  g_free (first_thread (db, "deep"));
  g_free (first_thread (db, "other"));

  out = run_cli (&status, &err, "show", unit, "--store", db, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "skipped the stored event"));
  assert_strict_json (out);
  g_assert_nonnull (strstr (out, "deep thread"));
}

static void
test_empty_store_file (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *db = g_build_filename (f->dir, "empty.db", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_test_summary ("A zero-length store file is refused with a clear message, not taken for a new store");

  g_assert_true (g_file_set_contents (db, "", 0, NULL));
  out = run_cli (&status, &err, "threads", "--store", db, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "the file is empty (0 bytes)"));

  {
    GStatBuf buf;

    g_assert_cmpint (g_stat (db, &buf), ==, 0);
    g_assert_cmpint (buf.st_size, ==, 0);
  }
}

static void
test_read_only_send (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *db = g_build_filename (f->dir, "t.db", NULL);
  g_autofree char *out = NULL, *err = NULL, *id = NULL;
  int status;

  g_test_summary ("send into a store that cannot be written still reads it, and fails saying so");

  g_free (run_cli (&status, &err, "send", "--demo", "first", "--approve", "--store", db, NULL));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  id = first_thread (db, "first");

  g_assert_cmpint (g_chmod (f->dir, 0777), ==, 0);
  g_assert_cmpint (g_chmod (db, 0444), ==, 0);
  as_nobody = TRUE;
  out = run_cli (&status, &err, "send", "--demo", "second", "--approve", "--store", db, "--thread", id, NULL);
  as_nobody = FALSE;
  g_test_message ("%s", err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "the conversation was not saved"));
  g_assert_nonnull (strstr (err, "read-only"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/tandem/hostile/deep-frame", Fixture, NULL, fixture_set_up, test_deep_frame, fixture_tear_down);
  g_test_add ("/tandem/hostile/deep-tool-arguments", Fixture, NULL, fixture_set_up, test_deep_tool_arguments, fixture_tear_down);
  g_test_add ("/tandem/hostile/values-fold", Fixture, NULL, fixture_set_up, test_hostile_values_fold, fixture_tear_down);

  g_test_add ("/tandem/hostile/skipped-summary", Fixture, NULL, fixture_set_up, test_skipped_summary, fixture_tear_down);
  g_test_add ("/tandem/hostile/closed-mid-frame", Fixture, NULL, fixture_set_up, test_closed_mid_frame, fixture_tear_down);
  g_test_add ("/tandem/hostile/nul-byte", Fixture, NULL, fixture_set_up, test_nul_byte, fixture_tear_down);

  g_test_add ("/tandem/hostile/store-stays-readable", Fixture, NULL, fixture_set_up, test_store_stays_readable, fixture_tear_down);
  g_test_add ("/tandem/hostile/deep-row-search", Fixture, NULL, fixture_set_up, test_deep_row_search, fixture_tear_down);
  g_test_add ("/tandem/hostile/empty-store-file", Fixture, NULL, fixture_set_up, test_empty_store_file, fixture_tear_down);
  g_test_add ("/tandem/hostile/read-only-send", Fixture, NULL, fixture_set_up, test_read_only_send, fixture_tear_down);

  return g_test_run ();
}
