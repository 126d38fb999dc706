/* test-fixtures.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"

#include "tandem-conform.h"
#include "tandem-json-diff.h"

/* Every reference fixture, run two ways: through the conformance logic
 * (`tandem-cli conform`) and through the real `tandem-cli events` binary. */

static GHashTable *deviations;

static void
test_conform (gconstpointer data)
{
  const char *path = data;
  g_auto(TandemConformResult) result = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (tandem_conform_run (path, deviations, &result, &error));
  g_assert_no_error (error);

  if (result.verdict == TANDEM_CONFORM_FAIL)
    g_test_message ("%s differs from the reference:\n%s", result.name, result.diff->str);
  g_assert_cmpint (result.verdict, !=, TANDEM_CONFORM_FAIL);
}

static void
test_events_cli (gconstpointer data)
{
  const char *path = data;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(GBytes) output = NULL;
  g_autoptr(GHashTable) minted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(JsonNode) printed = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) diff = g_string_new (NULL);
  JsonObject *root, *expected;
  JsonArray *events = json_array_new ();
  const char *stage;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  expected = json_object_get_object_member (root, "expected");
  stage = json_object_get_string_member_with_default (expected, "errorStage", NULL);

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                              G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                              &error, g_getenv ("TANDEM_CLI"), "events", "-", NULL);
  g_assert_no_error (error);

  input = g_bytes_new (json_object_get_string_member (root, "sse"),
                       strlen (json_object_get_string_member (root, "sse")));
  g_assert_true (g_subprocess_communicate (process, input, NULL, &output, NULL, &error));
  g_assert_no_error (error);

  lines = g_strsplit (g_bytes_get_data (output, NULL) ? g_bytes_get_data (output, NULL) : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      JsonNode *node;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      json_array_add_element (events, node);
    }
  printed = json_node_init_array (json_node_alloc (), events);
  json_array_unref (events);

  if (!tandem_json_diff ("appliedEvents", json_object_get_member (expected, "appliedEvents"),
                         printed, minted, diff))
    g_test_message ("%s", diff->str);
  g_assert_cmpuint (diff->len, ==, 0);

  /* A failing stage fails the command; the one deviation (a truncated
   * stream) fails it too, on purpose. */
  if (stage != NULL ||
      g_str_equal (json_object_get_string_member (root, "name"), "text-chunk-stream-ends-without-terminal"))
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  else
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
}

/* Whether the scenario has an event stream to decode: not when it is
 * refused before any request, or answered with an HTTP error. Those get
 * no events-cli case (rather than one skipped in every run); their
 * conform case covers them. */
static gboolean
has_event_stream (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *expected, *setup = NULL;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  expected = json_object_get_object_member (root, "expected");
  if (json_object_has_member (root, "setup"))
    setup = json_object_get_object_member (root, "setup");

  return g_strcmp0 (json_object_get_string_member_with_default (expected, "errorStage", NULL), "client") != 0 &&
         (setup == NULL || !json_object_has_member (setup, "http"));
}

static void
add_fixtures (const char *dir_path,
              const char *label)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;

  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *stem = g_strndup (file, strlen (file) - strlen (".json"));
      g_autofree char *conform_path = g_strdup_printf ("/agui/fixtures/%s/conform/%s", label, stem);
      g_autofree char *events_path = g_strdup_printf ("/agui/fixtures/%s/events-cli/%s", label, stem);
      char *full = g_build_filename (dir_path, file, NULL);

      g_test_add_data_func_full (conform_path, full, test_conform, g_free);
      if (has_event_stream (full))
        g_test_add_data_func_full (events_path, g_strdup (full), test_events_cli, g_free);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *table = NULL;
  g_autofree char *table_path = NULL;
  g_autofree char *shared = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  table_path = g_test_build_filename (G_TEST_DIST, "conformance-deviations.md", NULL);
  g_assert_true (g_file_get_contents (table_path, &table, NULL, NULL));
  deviations = tandem_conform_load_deviations (table, NULL);

  {
    g_autofree char *local = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);

    add_fixtures (local, "tests");
  }

  /* The project's shared fixtures, when the checkout sits beside them,
   * may be newer than the copy in tests/. */
  shared = g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "fixtures", NULL);
  if (g_file_test (shared, G_FILE_TEST_IS_DIR))
    add_fixtures (shared, "shared");

  status = g_test_run ();
  g_hash_table_unref (deviations);

  return status;
}
