/* test-display-text.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a label is given of a long text: lines broken at characters,
 * a cap that says what it left out, the tail of a streaming text.
 */

#include "config.h"

#include <string.h>

#include "tandem-display-text.h"

static gsize
longest_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gsize longest = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    longest = MAX (longest, strlen (lines[i]));

  return longest;
}

/* @shown without the line breaks it added, to compare with the text */
static char *
without_breaks (const char *shown)
{
  GString *joined = g_string_new (NULL);

  for (const char *p = shown; *p != '\0'; p++)
    if (*p != '\n')
      g_string_append_c (joined, *p);

  return g_string_free (joined, FALSE);
}

static void
test_short (void)
{
  g_autofree char *same = tandem_display_text ("short\nlines\n", 1024, FALSE);
  g_autofree char *empty = tandem_display_text (NULL, 1024, FALSE);

  g_assert_cmpstr (same, ==, "short\nlines\n");
  g_assert_cmpstr (empty, ==, "");
}

static void
test_long_line (void)
{
  GString *text = g_string_new (NULL);
  g_autofree char *shown = NULL;
  g_autofree char *joined = NULL;

  g_test_summary ("A 20 KB line of two- and three-byte characters is broken into lines of at most 512 bytes, "
                  "each at a character, losing nothing");

  while (text->len < 20000)
    g_string_append (text, "é€a");
  shown = tandem_display_text (text->str, 64 * 1024, FALSE);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_cmpuint (longest_line (shown), <=, TANDEM_DISPLAY_LINE_BYTES);
  joined = without_breaks (shown);
  g_assert_cmpstr (joined, ==, text->str);
  g_string_free (text, TRUE);
}

static void
test_cap (void)
{
  g_autofree char *text = g_strnfill (20000, 'x');
  g_autofree char *shown = tandem_display_text (text, 8192, FALSE);

  g_test_summary ("A text over the cap shows the cap's worth and how much it left out");

  g_assert_cmpuint (strlen (shown), <, 8192 + 100);
  g_assert_true (g_str_has_prefix (shown, "xxxx"));
  /* g_format_size() puts a no-break space before the unit */
  g_assert_nonnull (strstr (shown, "11.8\u00a0kB more"));
}

static void
test_streaming (void)
{
  g_autofree char *text = g_strnfill (20000, 'y');
  g_autofree char *shown = NULL;

  g_test_summary ("A streaming text shows its last 2 KB after an ellipsis");

  text[19999] = 'z';
  shown = tandem_display_text (text, 8192, TRUE);
  g_assert_true (g_str_has_prefix (shown, "…"));
  g_assert_true (g_str_has_suffix (shown, "z"));
  g_assert_cmpuint (strlen (shown), <=, 2048 + strlen ("…") + 8);
  g_assert_cmpuint (longest_line (shown), <=, TANDEM_DISPLAY_LINE_BYTES);
}

static void
test_code_language (void)
{
  static const struct
  {
    const char *written;
    const char *shown;
  } cases[] = {
    { "c", "C" }, { "C", "C" }, { "py", "Python" }, { "Python", "Python" },
    { "js", "JavaScript" }, { "c++", "C++" }, { "sh", "Shell" },
    { "json", "JSON" }, { "yml", "YAML" }, { "elvish", "Elvish" },
    { "mIRC", "mIRC" }, { "x86-asm", "X86-asm" }, { "3d", "3d" }, { "", "" },
  };

  g_test_summary ("A code block's language is named as a reader knows it, not as written");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = tandem_code_language_name (cases[i].written);

      g_assert_cmpstr (name, ==, cases[i].shown);
    }

  {
    g_autofree char *none = tandem_code_language_name (NULL);

    g_assert_cmpstr (none, ==, "");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tandem/display-text/short", test_short);
  g_test_add_func ("/tandem/display-text/long-line", test_long_line);
  g_test_add_func ("/tandem/display-text/cap", test_cap);
  g_test_add_func ("/tandem/display-text/streaming", test_streaming);
  g_test_add_func ("/tandem/display-text/code-language", test_code_language);

  return g_test_run ();
}
