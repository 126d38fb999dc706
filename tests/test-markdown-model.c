/* test-markdown-model.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Markdown model without GTK: a message cut into rows reads as the
 * whole message does, and a text streamed in reads as the finished one,
 * also where md4c's reading depends on where a line falls in the text.
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "tandem-block-splitter.h"
#include "tandem-markdown-model.h"

static char *
dump_text (const char *text,
           gsize       offset)
{
  g_autoptr(TandemMarkdownModel) model = tandem_markdown_model_new ();
  g_autoptr(GPtrArray) replaced = NULL;
  gboolean rebuilt;
  guint first;

  tandem_markdown_model_set_offset (model, offset);
  replaced = tandem_markdown_model_set_text (model, text, &first, &rebuilt);

  return tandem_markdown_model_dump (model);
}

/* The rows the block list makes of @text, each parsed by a model of its
 * own as the app's rows are, their dumps one after the other */
static char *
dump_rows (const char *text,
           guint      *n_rows)
{
  g_autoptr(TandemBlockSplitter) splitter = tandem_block_splitter_new ();
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (TandemBlockCut));
  GString *out = g_string_new (NULL);
  gsize length = strlen (text);
  gsize start = 0;

  tandem_block_splitter_feed (splitter, text, length, TRUE, cuts);
  g_assert_false (tandem_block_splitter_get_whole (splitter));

  for (guint i = 0; i <= cuts->len; i++)
    {
      gsize end = i < cuts->len ? g_array_index (cuts, TandemBlockCut, i).offset : length;
      g_autofree char *row = g_strndup (text + start, end - start);
      g_autofree char *dump = dump_text (row, start);

      g_string_append (out, dump);
      start = end;
    }
  *n_rows = cuts->len + 1;

  return g_string_free (out, FALSE);
}

/* @tail after @before, with @filler repeated in front so that @mark in
 * @tail lands at @at in the text */
static char *
text_with_mark_at (const char *filler,
                   const char *before,
                   const char *tail,
                   const char *mark,
                   gsize       at)
{
  GString *text = g_string_new (NULL);
  gsize mark_in_tail = strstr (tail, mark) - tail;
  gsize needed = at - mark_in_tail - strlen (before);

  g_assert_cmpuint (needed % strlen (filler), ==, 0);
  for (gsize i = 0; i < needed / strlen (filler); i++)
    g_string_append (text, filler);
  g_string_append (text, before);
  g_string_append (text, tail);
  g_assert_cmpuint (strstr (text->str, tail) + mark_in_tail - text->str, ==, at);

  return g_string_free (text, FALSE);
}

/* md4c 0.4.8 ends a list after two blank lines when the item's last line
 * starts 4 bytes (modulo 256) into what it parses, and goes on with it
 * anywhere else */
#define LOOSE_ITEM "v\n- m\n\n\n  x"

static void
test_rows_read_as_whole (void)
{
  /* The item's text 4 bytes into its row, and at 7, 260, 262 and 516 in
   * the message */
  struct {
    gsize    at;
    gboolean item_goes_on;
  } cases[] = {
    { 7, TRUE },
    { 260, FALSE },
    { 262, TRUE },
    { 516, FALSE },
  };

  g_test_summary ("A message cut into rows reads as the whole message does, where md4c's reading "
                  "of a list going on after two blank lines depends on where its lines fall");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = text_with_mark_at ("a", "\n\n", LOOSE_ITEM, "m\n", cases[i].at);
      g_autofree char *whole = dump_text (text, 0);
      g_autofree char *rows = NULL;
      guint n_rows;

      rows = dump_rows (text, &n_rows);
      g_test_message ("case %u:\n%s", i, whole);
      g_assert_cmpuint (n_rows, ==, 2);
      g_assert_cmpstr (rows, ==, whole);
      /* Which reading it is, is md4c's; that it is one reading is ours */
      g_assert_true (g_str_has_suffix (whole, cases[i].item_goes_on ? "    paragraph \"x\"\n" : "\nparagraph \"x\"\n"));
    }
}

static void
test_loose_item_at_start (void)
{
  g_autofree char *text = g_strdup ("a\n\n" LOOSE_ITEM);
  g_autofree char *rows = NULL;
  g_autofree char *whole = dump_text (text, 0);
  guint n_rows;

  g_test_summary ("The fuzzer's finding: a list item going on after two blank lines, in a row of "
                  "its own, stays one item");

  rows = dump_rows (text, &n_rows);
  g_assert_cmpuint (n_rows, ==, 2);
  g_assert_cmpstr (rows, ==, whole);
  g_assert_cmpstr (whole, ==,
                   "paragraph \"a\"\n"
                   "paragraph \"v\"\n"
                   "list info=\"•\"\n"
                   "  item info=\"•\"\n"
                   "    paragraph \"m\"\n"
                   "    paragraph \"x\"\n");
}

static void
test_fence_under_table (void)
{
  static const char text[] = "|\n:--|\n```\n\n```\n\n|";
  g_autofree char *rows = NULL;
  g_autofree char *whole = dump_text (text, 0);
  guint n_rows;

  g_test_summary ("A fence line under a table, which md4c takes for a row, opens no fence for "
                  "the cuts: the fence after it goes on to the end, in one row");

  rows = dump_rows (text, &n_rows);
  g_assert_cmpstr (rows, ==, whole);
  g_assert_true (g_str_has_suffix (whole, "code info=\"\" \"\\n|\\n\"\n"));
}

static void
test_streaming_reads_as_finished (void)
{
  /* Blocks enough before the list that a streamed model parses it from
   * a block after the start; the item's text at 4 + 256 */
  g_autofree char *text = text_with_mark_at ("a", "\n\nb\n\nc\n\nd\n\n", LOOSE_ITEM, "m\n", 260);
  g_autoptr(TandemMarkdownModel) streamed = tandem_markdown_model_new ();
  gsize length = strlen (text);

  g_test_summary ("Streamed a byte at a time, a text reads as the finished text does, also "
                  "where md4c's reading depends on where a line falls");

  for (gsize end = 1; end <= length; end++)
    {
      g_autofree char *prefix = g_strndup (text, end);
      g_autofree char *fresh = dump_text (prefix, 0);
      g_autofree char *dump = NULL;
      g_autoptr(GPtrArray) replaced = NULL;
      gboolean rebuilt;
      guint first;

      replaced = tandem_markdown_model_set_text (streamed, prefix, &first, &rebuilt);
      dump = tandem_markdown_model_dump (streamed);
      g_assert_cmpstr (dump, ==, fresh);
    }
}

static void
test_offset_change_rebuilds (void)
{
  g_autoptr(TandemMarkdownModel) model = tandem_markdown_model_new ();
  g_autoptr(GPtrArray) replaced = NULL;
  g_autofree char *at_zero = NULL;
  g_autofree char *at_three = NULL;
  gboolean rebuilt;
  guint first;

  g_test_summary ("A row that moves in its message is parsed anew for its new place");

  replaced = tandem_markdown_model_set_text (model, LOOSE_ITEM, &first, &rebuilt);
  at_zero = tandem_markdown_model_dump (model);
  g_clear_pointer (&replaced, g_ptr_array_unref);

  /* The same text, now 3 bytes into the message: read anew */
  tandem_markdown_model_set_offset (model, 3);
  replaced = tandem_markdown_model_set_text (model, LOOSE_ITEM, &first, &rebuilt);
  g_assert_nonnull (replaced);
  g_assert_true (rebuilt);
  at_three = tandem_markdown_model_dump (model);
  g_assert_cmpstr (at_three, !=, at_zero);
  g_clear_pointer (&replaced, g_ptr_array_unref);

  /* 256 further on reads the same, and nothing is parsed */
  tandem_markdown_model_set_offset (model, 259);
  replaced = tandem_markdown_model_set_text (model, LOOSE_ITEM, &first, &rebuilt);
  g_assert_null (replaced);
}

static void
test_plain_text (void)
{
  static const struct
  {
    const char *markdown;
    const char *plain;
  } cases[] = {
    { "## Hello **world**", "Hello world" },
    { "- an item with `code`", "an item with code" },
    { "> quoted [a link](https://example.org)", "quoted a link" },
    { "1. first\n2. second", "first second" },
    { "a &amp; b &#x263A; c", "a & b \u263a c" },
    { "plain text…", "plain text…" },
    { "**never closed", "**never closed" },
    { "", "" },
  };

  g_test_summary ("A line of Markdown reads without its markup in a one-line preview");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *plain = tandem_markdown_plain_text (cases[i].markdown);

      g_assert_cmpstr (plain, ==, cases[i].plain);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown-model/rows-read-as-whole", test_rows_read_as_whole);
  g_test_add_func ("/markdown-model/loose-item-at-start", test_loose_item_at_start);
  g_test_add_func ("/markdown-model/fence-under-table", test_fence_under_table);
  g_test_add_func ("/markdown-model/streaming-reads-as-finished", test_streaming_reads_as_finished);
  g_test_add_func ("/markdown-model/offset-change-rebuilds", test_offset_change_rebuilds);
  g_test_add_func ("/markdown-model/plain-text", test_plain_text);

  return g_test_run ();
}
