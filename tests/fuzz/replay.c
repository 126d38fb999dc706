/* replay.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Runs a harness over files and folders of inputs, as libFuzzer would
 * with -runs=0: the normal suite replays each committed corpus this way,
 * with gcc, in the plain and the sanitizer build.
 */

#include "config.h"

#include <stdio.h>

#include "fuzz.h"

static guint
replay_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  guint count = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (dir == NULL)
        g_error ("%s", error->message);
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (path, name, NULL));
      /* In a fixed order, so a failure can be found again. */
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        count += replay_path (g_ptr_array_index (names, i));
      return count;
    }

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);

  LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
  return 1;
}

int
main (int   argc,
      char *argv[])
{
  guint count = 0;

  if (argc < 2)
    {
      fprintf (stderr, "Usage: %s FILE|FOLDER...\n", argv[0]);
      return 2;
    }

  for (int i = 1; i < argc; i++)
    count += replay_path (argv[i]);

  if (count == 0)
    {
      fprintf (stderr, "%s: no inputs\n", argv[0]);
      return 1;
    }

  printf ("replayed %u inputs\n", count);
  return 0;
}
