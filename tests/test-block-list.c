/* test-block-list.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <md4c.h>

#include "agui-reducer-private.h"
#include "agui-test-util.h"
#include "tandem-block-list.h"
#include "tandem-block-window.h"
#include "tandem-block-splitter.h"

/* The display model, headless: where Markdown is cut, that a cut between
 * blocks renders exactly as the whole text, and that the block list
 * follows a streaming transcript with one change per new block. */

/* What md4c makes of a text, as a string: blocks, spans and text runs.
 * Two texts that give the same dump render the same. */

static int
dump_enter_block (MD_BLOCKTYPE type, void *detail, void *data)
{
  g_string_append_printf (data, "<b%d", type);
  if (type == MD_BLOCK_OL)
    g_string_append_printf (data, " start=%u", ((MD_BLOCK_OL_DETAIL *) detail)->start);
  if (type == MD_BLOCK_UL || type == MD_BLOCK_OL)
    g_string_append_printf (data, " tight=%d", type == MD_BLOCK_UL
                                                 ? ((MD_BLOCK_UL_DETAIL *) detail)->is_tight
                                                 : ((MD_BLOCK_OL_DETAIL *) detail)->is_tight);
  if (type == MD_BLOCK_H)
    g_string_append_printf (data, " level=%u", ((MD_BLOCK_H_DETAIL *) detail)->level);
  g_string_append_c (data, '>');
  return 0;
}

static int
dump_leave_block (MD_BLOCKTYPE type, void *detail, void *data)
{
  g_string_append_printf (data, "</b%d>", type);
  return 0;
}

static int
dump_enter_span (MD_SPANTYPE type, void *detail, void *data)
{
  g_string_append_printf (data, "<s%d>", type);
  return 0;
}

static int
dump_leave_span (MD_SPANTYPE type, void *detail, void *data)
{
  g_string_append_printf (data, "</s%d>", type);
  return 0;
}

static int
dump_text (MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *data)
{
  g_string_append_printf (data, "[%d:", type);
  g_string_append_len (data, text, size);
  g_string_append_c (data, ']');
  return 0;
}

static void
dump_append (GString    *out,
             const char *text,
             gsize       length)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
    .enter_block = dump_enter_block,
    .leave_block = dump_leave_block,
    .enter_span = dump_enter_span,
    .leave_span = dump_leave_span,
    .text = dump_text,
  };
  g_autoptr(GString) one = g_string_new (NULL);

  md_parse (text, length, &parser, one);
  /* Every text is a document; only what is inside matters */
  if (g_str_has_prefix (one->str, "<b0>") && g_str_has_suffix (one->str, "</b0>"))
    g_string_append_len (out, one->str + 4, one->len - 9);
  else
    g_string_append (out, one->str);
}

static GArray *
split (const char *text,
       gsize       step)
{
  g_autoptr(TandemBlockSplitter) splitter = tandem_block_splitter_new ();
  GArray *cuts = g_array_new (FALSE, FALSE, sizeof (TandemBlockCut));
  gsize length = strlen (text);

  if (step == 0)
    step = length;
  for (gsize fed = MIN (step, length); ; fed = MIN (fed + step, length))
    {
      tandem_block_splitter_feed (splitter, text, fed, fed == length, cuts);
      if (fed == length)
        break;
    }

  if (tandem_block_splitter_get_whole (splitter))
    g_array_set_size (cuts, 0);

  return cuts;
}

static char *
dup_cut_offsets (GArray *cuts)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < cuts->len; i++)
    g_string_append_printf (out, "%s%" G_GSIZE_FORMAT "%s", i > 0 ? "," : "",
                            g_array_index (cuts, TandemBlockCut, i).offset,
                            g_array_index (cuts, TandemBlockCut, i).continued ? "~" : "");

  return g_string_free (out, FALSE);
}

/* Texts whose cuts are only between top-level blocks, each with where
 * they must be cut. */
static const struct
{
  const char *text;
  const char *cuts;
} block_cases[] = {
  { "One paragraph.", "" },
  { "First.\n\nSecond.\n\nThird.", "8,17" },
  { "# Title\n\nText under it.", "9" },
  { "Text\n\n```\ncode\n\nmore code\n```\n\nAfter.", "6,31" },
  { "~~~~ tildes\n\n~~~\nstill code\n\n~~~~\n\nout", "35" },
  { "- one\n\n- two\n\n- three\n\nAfter the list.", "23" },
  { "1. one\n\n   continued\n\n2. two\n\nDone.", "30" },
  { "> quoted\n\n> another quote\n\nplain", "10,27" },
  { "| a | b |\n|---|---|\n| 1 | 2 |\n\nbelow", "31" },
  { "para\n\n    indented code\n\n    more\n\nend", "35" },
  { "Setext\n======\n\nnext", "15" },
  { "a\n\n\n\nb", "5" },
  { "Uses [a link][ref] here.\n\nMore.\n\n[ref]: https://example.com", "" },
  { "*emphasis\n\nnot closed*", "11" },
  { "```\nunclosed fence\n\nstill in it", "" },
  { "line one\nline two\n\n---\n\nafter rule", "19,24" },
  /* A fence indented under a list item is the item's... */
  { "1. step\n   ```\n   code\n   ```\n\nAfter.", "31" },
  { "- a\n  ```\n\nnot code\n  ```\n\nb", "11" },
  { "- x\n  ```\n  y\n  ```\n- z\n\n  ```\n\nout of the list\n", "32" },
  /* ...or, once the list has ended, a top-level one, open to the end */
  { "- a\n# h\n  ```\n\ncode", "" },
  { "- ```\n  a\n  ```\nx\n\n  ```\n\ny", "" },
  /* md4c takes a fence right after a quote for the close of the quote's */
  { "> ```\n  ```\n\nx\n  ```\n\ny", "13" },
  /* md4c ends a line at a lone carriage return: no cut after one */
  { "a\n\nb\r```\n\nc", "3" },
  { "a\r\n\r\nb\n\nc", "5,8" },
  /* md4c counts a tab before a fence otherwise than CommonMark */
  { "a\n  \t```\n\nb\n", "" },
};

static void
test_splitter_block_cuts (void)
{
  g_test_summary ("Text is cut between top-level blocks, never inside a fence, a loose list or a list item");

  for (guint i = 0; i < G_N_ELEMENTS (block_cases); i++)
    {
      g_autoptr(GArray) cuts = split (block_cases[i].text, 0);
      g_autofree char *got = dup_cut_offsets (cuts);

      g_test_message ("case %u: %s", i, block_cases[i].text);
      g_assert_cmpstr (got, ==, block_cases[i].cuts);
    }
}

static void
test_splitter_streaming (void)
{
  g_test_summary ("Fed in deltas of any size, the splitter finds the cuts it finds in the whole text");

  for (guint i = 0; i < G_N_ELEMENTS (block_cases); i++)
    for (gsize step = 1; step <= 7; step++)
      {
        g_autoptr(GArray) whole = split (block_cases[i].text, 0);
        g_autoptr(GArray) streamed = split (block_cases[i].text, step);
        g_autofree char *a = dup_cut_offsets (whole);
        g_autofree char *b = dup_cut_offsets (streamed);

        g_assert_cmpstr (a, ==, b);
      }
}

static void
test_splitter_exact (void)
{
  g_test_summary ("Rendering the stretches between block cuts apart gives what rendering the whole gives");

  for (guint i = 0; i < G_N_ELEMENTS (block_cases); i++)
    {
      const char *text = block_cases[i].text;
      g_autoptr(GArray) cuts = split (text, 0);
      g_autoptr(GString) whole = g_string_new (NULL);
      g_autoptr(GString) pieces = g_string_new (NULL);
      gsize start = 0;

      dump_append (whole, text, strlen (text));
      for (guint c = 0; c <= cuts->len; c++)
        {
          gsize end = c < cuts->len ? g_array_index (cuts, TandemBlockCut, c).offset : strlen (text);

          dump_append (pieces, text + start, end - start);
          start = end;
        }

      g_test_message ("case %u: %s", i, text);
      g_assert_cmpstr (pieces->str, ==, whole->str);
    }
}

static void
test_splitter_exact_random (void)
{
  static const char *lines[] = {
    "", "", "", "Some text", "more *em", "ph* here", "- item", "* star item", "+ plus",
    "1. first", "2) second", "   indented", "    code", "  - nested", "```", "```c", "~~~",
    "> quote", ">", "# Heading", "## Two", "---", "***", "===", "| a | b |", "|---|---|",
    "`tick", "tock`", "[link](u)", "[x]: http://u", "\\*", "\t tab", "<b>html</b>",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261201);

  g_test_summary ("On random documents, the stretches between block cuts render as the whole does");

  for (guint doc = 0; doc < 3000; doc++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GString) whole = g_string_new (NULL);
      g_autoptr(GString) pieces = g_string_new (NULL);
      g_autoptr(GArray) cuts = NULL;
      guint n = g_rand_int_range (rand, 1, 14);
      gsize start = 0;

      for (guint i = 0; i < n; i++)
        {
          g_string_append (text, lines[g_rand_int_range (rand, 0, G_N_ELEMENTS (lines))]);
          if (i + 1 < n || g_rand_boolean (rand))
            g_string_append_c (text, '\n');
        }

      cuts = split (text->str, g_rand_int_range (rand, 0, 4));
      dump_append (whole, text->str, text->len);
      for (guint c = 0; c <= cuts->len; c++)
        {
          gsize end = c < cuts->len ? g_array_index (cuts, TandemBlockCut, c).offset : text->len;

          dump_append (pieces, text->str + start, end - start);
          start = end;
        }

      if (g_strcmp0 (pieces->str, whole->str) != 0)
        g_error ("Cutting changes the rendering of:\n%s\nwhole:  %s\npieces: %s", text->str, whole->str, pieces->str);
    }
}

static void
test_splitter_long_paragraph (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) cuts = NULL;
  g_autoptr(GArray) streamed = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gsize start = 0;

  g_test_summary ("One long paragraph is cut at words, between sentences where it can, so no stretch grows far past two kilobytes");

  for (guint i = 0; text->len < 200000; i++)
    g_string_append_printf (text, "word%u %s", i, i % 97 == 96 ? "ends here. " : "");

  cuts = split (text->str, 0);
  g_assert_cmpuint (cuts->len, >, 200000 / TANDEM_BLOCK_SPLITTER_WORD_BYTES);
  for (guint c = 0; c <= cuts->len; c++)
    {
      gsize end = c < cuts->len ? g_array_index (cuts, TandemBlockCut, c).offset : text->len;

      g_assert_cmpuint (end - start, <=, TANDEM_BLOCK_SPLITTER_WORD_BYTES + 32);
      if (c < cuts->len)
        {
          g_assert_true (g_array_index (cuts, TandemBlockCut, c).continued);
          g_assert_cmpint (text->str[end - 1], ==, ' ');
          g_assert_true (g_ascii_isalpha (text->str[end]));
        }
      start = end;
    }

  /* In 10-byte deltas, as the benchmark streams it */
  streamed = split (text->str, 10);
  a = dup_cut_offsets (cuts);
  b = dup_cut_offsets (streamed);
  g_assert_cmpstr (a, ==, b);
}

static void
test_splitter_open_spans (void)
{
  g_autoptr(GString) text = g_string_new ("**");
  g_autoptr(GArray) cuts = NULL;
  gsize close;

  g_test_summary ("A long paragraph is never cut inside emphasis, a code span or a link");

  while (text->len < 5000)
    g_string_append (text, "bold words ");
  close = text->len;
  g_string_append (text, "done** then `a code span that is long ");
  while (text->len < 12000)
    g_string_append (text, "more code ");
  g_string_append (text, "` and [a link ");
  while (text->len < 18000)
    g_string_append (text, "text ");
  g_string_append (text, "](https://example.com) end ");
  while (text->len < 21000)
    g_string_append (text, "tail ");

  cuts = split (text->str, 0);
  for (guint c = 0; c < cuts->len; c++)
    {
      gsize at = g_array_index (cuts, TandemBlockCut, c).offset;

      g_assert_cmpuint (at, >, close);
      /* Balanced at the cut: an even number of backticks, brackets closed */
      {
        guint ticks = 0;
        int brackets = 0;

        for (const char *p = text->str; p < text->str + at; p++)
          {
            ticks += *p == '`';
            brackets += (*p == '[') - (*p == ']');
          }
        g_assert_cmpuint (ticks % 2, ==, 0);
        g_assert_cmpint (brackets, ==, 0);
      }
    }
  g_assert_cmpuint (cuts->len, >, 0);
}

/* The block list over a transcript */

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

typedef struct
{
  guint changes;
  guint added;
  guint removed;
} Changes;

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     Changes    *changes)
{
  changes->changes++;
  changes->added += added;
  changes->removed += removed;
}

static TandemBlockKind
kind_at (GListModel *model,
         guint       position)
{
  g_autoptr(TandemBlock) block = g_list_model_get_item (model, position);

  return tandem_block_get_kind (block);
}

static char *
dup_block_text (GListModel *model,
                guint       position)
{
  g_autoptr(TandemBlock) block = g_list_model_get_item (model, position);
  const char *text;
  gsize length;

  text = tandem_block_peek_text (block, &length);

  return g_strndup (text, length);
}

static void
test_list_kinds (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(TandemBlockList) blocks = tandem_block_list_new (transcript);
  GListModel *model = G_LIST_MODEL (blocks);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_test_summary ("A turn becomes a block per part, its Markdown a block per paragraph");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"REASONING_START\",\"messageId\":\"think\"}");
  apply (reducer, "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"think\",\"role\":\"reasoning\"}");
  apply (reducer, "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"think\",\"delta\":\"Hmm\"}");
  apply (reducer, "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"think\"}");
  apply (reducer, "{\"type\":\"REASONING_END\",\"messageId\":\"think\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"One.\\n\\nTwo.\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"clock\",\"parentMessageId\":\"m\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 4);
  {
    guint n = g_list_model_get_n_items (model);
    guint markdown = 0, reasoning = 0, tools = 0;

    for (guint i = 0; i < n; i++)
      {
        switch (kind_at (model, i))
          {
          case TANDEM_BLOCK_MARKDOWN: markdown++; break;
          case TANDEM_BLOCK_REASONING: reasoning++; break;
          case TANDEM_BLOCK_TOOL_CALL: tools++; break;
          default: break;
          }
      }
    g_assert_cmpuint (markdown, ==, 2);
    g_assert_cmpuint (reasoning, ==, 1);
    g_assert_cmpuint (tools, ==, 1);

    for (guint i = 0; i < n; i++)
      if (kind_at (model, i) == TANDEM_BLOCK_MARKDOWN)
        {
          if (first == NULL)
            first = dup_block_text (model, i);
          else
            second = dup_block_text (model, i);
        }
  }
  g_assert_cmpstr (first, ==, "One.\n\n");
  g_assert_cmpstr (second, ==, "Two.");
}

static void
test_list_streaming (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(TandemBlockList) blocks = tandem_block_list_new (transcript);
  GListModel *model = G_LIST_MODEL (blocks);
  Changes changes = { 0, };
  guint last_changed = 0;
  guint deltas = 0;
  g_autoptr(GString) sent = g_string_new (NULL);
  g_autoptr(GString) shown = g_string_new (NULL);

  g_test_summary ("Streaming a 200 KB paragraph adds a block at a time; the blocks hold the text in order");

  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}");
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed_cb), &changes);

  while (sent->len < 200000)
    {
      g_autofree char *delta = g_strdup_printf ("word%05u ", deltas++);
      g_autofree char *event = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"%s\"}", delta);

      g_string_append (sent, delta);
      apply (reducer, event);
      if (changes.changes != last_changed)
        {
          /* Blocks are only ever appended at the end, one at a time */
          g_assert_cmpuint (changes.removed, ==, 0);
          g_assert_cmpuint (changes.added, ==, changes.changes);
          last_changed = changes.changes;
        }
    }
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}");

  g_assert_cmpuint (g_list_model_get_n_items (model), >, 50);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autofree char *text = dup_block_text (model, i);

      g_assert_cmpuint (strlen (text), <=, TANDEM_BLOCK_SPLITTER_WORD_BYTES + 32);
      g_string_append (shown, text);
    }
  g_assert_cmpstr (shown->str, ==, sent->str);
}

static void
test_list_definition (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(TandemBlockList) blocks = tandem_block_list_new (transcript);
  GListModel *model = G_LIST_MODEL (blocks);
  g_autofree char *text = NULL;

  g_test_summary ("A link reference definition arriving late joins the text's blocks back into one");

  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"See [x].\\n\\nMore.\\n\\n\"}");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"[x]: https://example.com\\n\"}");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  text = dup_block_text (model, 0);
  g_assert_cmpstr (text, ==, "See [x].\n\nMore.\n\n[x]: https://example.com\n");
}

static void
test_list_snapshot (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(TandemBlockList) blocks = tandem_block_list_new (transcript);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GListModel *model = G_LIST_MODEL (blocks);

  g_test_summary ("Loading messages gives the person's message one block and splits the answer");

  g_assert_true (json_parser_load_from_data (parser,
                                             "[{\"id\":\"u\",\"role\":\"user\",\"content\":\"Hi\\n\\nthere\"},"
                                             "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"A.\\n\\nB.\\n\\nC.\"}]",
                                             -1, &error));
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (json_parser_get_root (parser)), &error));
  g_assert_no_error (error);

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_cmpint (kind_at (model, 0), ==, TANDEM_BLOCK_USER);
  for (guint i = 1; i < 4; i++)
    {
      g_autoptr(TandemBlock) block = g_list_model_get_item (model, i);

      g_assert_cmpint (tandem_block_get_kind (block), ==, TANDEM_BLOCK_MARKDOWN);
      g_assert_true (tandem_block_get_first (block) == (i == 1));
    }

  /* Replaced: the old blocks go, the new ones come */
  g_assert_true (json_parser_load_from_data (parser, "[{\"id\":\"u2\",\"role\":\"user\",\"content\":\"Only\"}]", -1, &error));
  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (json_parser_get_root (parser)), &error));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
}


static JsonArray *
many_messages (guint n)
{
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < n; i++)
    {
      JsonObject *message = json_object_new ();
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *content = g_strdup_printf ("Message %u.\n\nIts second paragraph.", i);

      json_object_set_string_member (message, "id", id);
      json_object_set_string_member (message, "role", i % 2 ? "assistant" : "user");
      json_object_set_string_member (message, "content", content);
      json_array_add_object_element (messages, message);
    }

  return messages;
}

/* The blocks of @model, as the text of each */
static char *
dup_all_texts (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TandemBlock) block = g_list_model_get_item (model, i);
      g_autofree char *text = NULL;

      if (tandem_block_get_kind (block) == TANDEM_BLOCK_USER)
        text = agui_speaker_turn_dup_text (tandem_block_get_message (block));
      else
        text = dup_block_text (model, i);
      g_string_append_printf (out, "%s%s\n", tandem_block_get_first (block) ? "* " : "  ", text);
    }

  return g_string_free (out, FALSE);
}

static void
on_front_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     Changes    *changes)
{
  /* Put in front only: a view at the end stays where it is */
  g_assert_cmpuint (position, ==, 0);
  g_assert_cmpuint (removed, ==, 0);
  changes->changes++;
  changes->added += added;
}

static void
test_list_long (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiTranscript) other = agui_transcript_new ();
  g_autoptr(JsonArray) messages = many_messages (3000);
  g_autoptr(TandemBlockList) blocks = NULL;
  g_autoptr(TandemBlockList) changed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *texts = NULL;
  Changes changes = { 0, };
  guint first_n, expected_n;

  g_test_summary ("A long transcript's blocks come from its end first, the older ones put in front "
                  "from the main loop, ending as all of them at once would; a change among the older "
                  "ones takes them all in first");

  g_assert_true (agui_transcript_load_messages (transcript, messages, &error));
  g_assert_no_error (error);

  g_assert_true (agui_transcript_load_messages (other, messages, &error));
  /* All at once: built as the transcript filled */
  {
    g_autoptr(TandemBlockList) growing = NULL;
    g_autoptr(AguiTranscript) empty = agui_transcript_new ();

    growing = tandem_block_list_new (empty);
    g_assert_true (agui_transcript_load_messages (empty, messages, &error));
    expected = dup_all_texts (G_LIST_MODEL (growing));
    expected_n = g_list_model_get_n_items (G_LIST_MODEL (growing));
  }

  blocks = tandem_block_list_new (transcript);
  first_n = g_list_model_get_n_items (G_LIST_MODEL (blocks));
  g_assert_cmpuint (first_n, >, 0);
  g_assert_cmpuint (first_n, <, 1000);
  {
    /* The last block is the last message's */
    g_autofree char *last = dup_block_text (G_LIST_MODEL (blocks), first_n - 1);

    g_assert_cmpstr (last, ==, "Its second paragraph.");
  }

  g_signal_connect (blocks, "items-changed", G_CALLBACK (on_front_changed_cb), &changes);
  agui_test_wait_until (g_list_model_get_n_items (G_LIST_MODEL (blocks)) == expected_n,
                        "the older blocks were put in front");
  g_assert_cmpuint (changes.changes, >, 0);
  g_assert_cmpuint (first_n + changes.added, ==, expected_n);
  texts = dup_all_texts (G_LIST_MODEL (blocks));
  g_assert_cmpstr (texts, ==, expected);
  g_signal_handlers_disconnect_by_data (blocks, &changes);

  /* A change far back, before the older ones are in: all of them first */
  changed = tandem_block_list_new (other);
  {
    g_autoptr(JsonArray) fewer = many_messages (2000);

    g_assert_true (agui_transcript_load_messages (other, fewer, &error));
    g_assert_no_error (error);
    g_free (expected);
    g_free (texts);
    {
      g_autoptr(TandemBlockList) fresh = NULL;
      g_autoptr(AguiTranscript) empty = agui_transcript_new ();

      fresh = tandem_block_list_new (empty);
      g_assert_true (agui_transcript_load_messages (empty, fewer, &error));
      expected = dup_all_texts (G_LIST_MODEL (fresh));
    }
    texts = dup_all_texts (G_LIST_MODEL (changed));
    g_assert_cmpstr (texts, ==, expected);
  }
}


static void
test_list_let_go (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(JsonArray) messages = many_messages (3000);
  g_autoptr(GError) error = NULL;
  g_autoptr(TandemBlock) last = NULL;
  TandemBlockList *blocks;
  AguiPart *part;
  guint notify = g_signal_lookup ("notify", G_TYPE_OBJECT);
  GQuark text = g_quark_from_static_string ("text");
  guint n;

  g_test_summary ("A long list let go of while its conversation streams on lets its parts go a slice at "
                  "a time, and ignores their changes meanwhile");

  g_assert_true (agui_transcript_load_messages (transcript, messages, &error));
  g_assert_no_error (error);
  blocks = tandem_block_list_new (transcript);
  apply (reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Streaming\"}");
  /* A user message is a block, an agent's two paragraphs two */
  agui_test_wait_until (g_list_model_get_n_items (G_LIST_MODEL (blocks)) == 1500 + 1500 * 2 + 1,
                        "the older blocks were put in front");
  n = g_list_model_get_n_items (G_LIST_MODEL (blocks));
  last = g_list_model_get_item (G_LIST_MODEL (blocks), n - 1);
  part = tandem_block_get_part (last);
  g_assert_nonnull (part);
  g_assert_true (g_signal_has_handler_pending (part, notify, text, FALSE));

  g_object_unref (blocks);
  /* Still followed, until its slice comes: its changes are ignored */
  g_assert_true (g_signal_has_handler_pending (part, notify, text, FALSE));
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\" on.\\n\\nMore.\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"clock\",\"parentMessageId\":\"m\"}");
  apply (reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c\"}");
  apply (reducer, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}");
  apply (reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  agui_test_wait_until (!g_signal_has_handler_pending (part, notify, text, FALSE),
                        "the list let go of the last message's part");
}

/* The window's items, by their "n" data, as "a b c" */
static char *
window_names (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_string_append_printf (out, "%s%s", i > 0 ? " " : "", (const char *) g_object_get_data (item, "n"));
    }

  return g_string_free (out, FALSE);
}

static GObject *
named (const char *name)
{
  GObject *object = g_object_new (G_TYPE_OBJECT, NULL);

  g_object_set_data_full (object, "n", g_strdup (name), g_free);
  return object;
}

typedef struct
{
  GListModel *model;
  char       *before;  /* the window's items before the change */
  GString    *after;   /* rebuilt from the signals alone */
} Mirror;

/* Applies each items-changed to a copy, so that the signals are checked
 * to describe the change exactly, not only the end state */
static void
on_window_changed_cb (GListModel *model,
                      guint       position,
                      guint       removed,
                      guint       added,
                      GPtrArray  *copy)
{
  g_ptr_array_remove_range (copy, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, position + i);

      g_ptr_array_insert (copy, position + i, g_strdup (g_object_get_data (item, "n")));
    }
}

static char *
copy_names (GPtrArray *copy)
{
  g_ptr_array_add (copy, NULL);
  {
    char *joined = g_strjoinv (" ", (char **) copy->pdata);

    g_ptr_array_remove_index (copy, copy->len - 1);
    return joined;
  }
}

static void
test_block_window (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(TandemBlockWindow) window = NULL;
  g_autoptr(GPtrArray) copy = g_ptr_array_new_with_free_func (g_free);
  const char *names[] = { "a", "b", "c", "d", "e", "f" };
  char *text;

  g_test_summary ("A window on the end of a list shows its tail, puts older items in front, "
                  "and passes on every change as one exact items-changed");

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GObject) item = named (names[i]);
      g_list_store_append (store, item);
    }

  window = tandem_block_window_new (G_LIST_MODEL (store), 3);
  text = window_names (G_LIST_MODEL (window));
  g_assert_cmpstr (text, ==, "d e f");
  g_free (text);
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (copy, g_strdup (names[3 + i]));
  g_signal_connect (window, "items-changed", G_CALLBACK (on_window_changed_cb), copy);

#define CHECK(expected) \
  G_STMT_START { \
    char *_w = window_names (G_LIST_MODEL (window)); \
    char *_c = copy_names (copy); \
    g_assert_cmpstr (_w, ==, expected); \
    g_assert_cmpstr (_c, ==, expected); \
    g_free (_w); g_free (_c); \
  } G_STMT_END

  /* Appended at the end: passed on */
  {
    g_autoptr(GObject) item = named ("g");
    g_list_store_append (store, item);
  }
  CHECK ("d e f g");

  /* Put in front, fewer at the start */
  g_assert_cmpuint (tandem_block_window_reveal (window, 1), ==, 1);
  CHECK ("c d e f g");

  /* Changed before the window: it shows the same items */
  g_list_store_remove (store, 0);
  CHECK ("c d e f g");
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 1);

  /* Changed across its start: it starts where the change does */
  {
    g_autoptr(GObject) x = named ("x");
    g_autoptr(GObject) y = named ("y");
    GObject *items[] = { x, y };

    g_list_store_splice (store, 0, 3, (gpointer *) items, 2);
  }
  CHECK ("x y e f g");
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 0);

  /* Changed inside it */
  g_list_store_remove (store, 3);
  CHECK ("x y e g");

  g_assert_cmpuint (tandem_block_window_reveal (window, 5), ==, 0);
#undef CHECK
}

static void
test_block_window_range (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(TandemBlockWindow) window = NULL;
  g_autoptr(GPtrArray) copy = g_ptr_array_new_with_free_func (g_free);
  const char *names[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };

  g_test_summary ("A window moved far back shows a stretch of the list, grows at either edge, "
                  "lets go of its first items read past, leaves out what comes after it until it "
                  "reaches the end, and passes on every change as one exact items-changed");

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GObject) item = named (names[i]);
      g_list_store_append (store, item);
    }

  window = tandem_block_window_new (G_LIST_MODEL (store), 2);
  g_ptr_array_add (copy, g_strdup ("i"));
  g_ptr_array_add (copy, g_strdup ("j"));
  g_signal_connect (window, "items-changed", G_CALLBACK (on_window_changed_cb), copy);

#define CHECK(expected) \
  G_STMT_START { \
    char *_w = window_names (G_LIST_MODEL (window)); \
    char *_c = copy_names (copy); \
    g_assert_cmpstr (_w, ==, expected); \
    g_assert_cmpstr (_c, ==, expected); \
    g_free (_w); g_free (_c); \
  } G_STMT_END

  /* Far back: a window of its own around the place, one item either side */
  g_assert_cmpuint (tandem_block_window_to_window (window, 3, 1), ==, 1);
  CHECK ("c d e");
  g_assert_false (tandem_block_window_get_shows_end (window));

  /* Just outside it: that edge grows */
  g_assert_cmpuint (tandem_block_window_to_window (window, 1, 1), ==, 0);
  CHECK ("b c d e");
  g_assert_cmpuint (tandem_block_window_to_window (window, 5, 1), ==, 4);
  CHECK ("b c d e f");

  /* Appended to the list, past the window: not shown */
  {
    g_autoptr(GObject) item = named ("k");
    g_list_store_append (store, item);
  }
  CHECK ("b c d e f");

  /* Before it: the same items; inside: passed on */
  g_list_store_remove (store, 0);
  CHECK ("b c d e f");
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 0);
  g_list_store_remove (store, 2);
  CHECK ("b c e f");

  /* Across its end: all of what replaced it comes in */
  {
    g_autoptr(GObject) x = named ("x");
    g_autoptr(GObject) y = named ("y");
    GObject *items[] = { x, y };

    g_list_store_splice (store, 3, 2, (gpointer *) items, 2);
  }
  CHECK ("b c e x y");
  g_assert_false (tandem_block_window_get_shows_end (window));

  /* Grown to the end, it follows the end again */
  g_assert_cmpuint (tandem_block_window_reveal_after (window, 2), ==, 2);
  CHECK ("b c e x y h i");
  g_assert_cmpuint (tandem_block_window_reveal_after (window, 10), ==, 2);
  CHECK ("b c e x y h i j k");
  g_assert_true (tandem_block_window_get_shows_end (window));
  {
    g_autoptr(GObject) item = named ("l");
    g_list_store_append (store, item);
  }
  CHECK ("b c e x y h i j k l");
  g_assert_cmpuint (tandem_block_window_reveal_after (window, 1), ==, 0);

  /* Read on, it lets go of its first items, and still follows the end */
  g_assert_cmpuint (tandem_block_window_drop_front (window, 3), ==, 3);
  CHECK ("x y h i j k l");
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 3);
  g_assert_true (tandem_block_window_get_shows_end (window));
  {
    g_autoptr(GObject) item = named ("m");
    g_list_store_append (store, item);
  }
  CHECK ("x y h i j k l m");

  /* Back to the tail */
  tandem_block_window_show_range (window, 1, 2);
  CHECK ("c e");
  tandem_block_window_show_tail (window, 3);
  CHECK ("k l m");
  g_assert_true (tandem_block_window_get_shows_end (window));

  /* A stretch far back drops its first ones, keeps its end, never empties */
  tandem_block_window_show_range (window, 2, 4);
  CHECK ("e x y h");
  g_assert_cmpuint (tandem_block_window_drop_front (window, 2), ==, 2);
  CHECK ("y h");
  g_assert_false (tandem_block_window_get_shows_end (window));
  g_assert_cmpuint (tandem_block_window_reveal_after (window, 1), ==, 1);
  CHECK ("y h i");
  g_assert_cmpuint (tandem_block_window_drop_front (window, 10), ==, 2);
  CHECK ("i");
  g_assert_cmpuint (tandem_block_window_drop_front (window, 1), ==, 0);
  CHECK ("i");
  /* And grows in front again as the person reads back */
  g_assert_cmpuint (tandem_block_window_reveal (window, 2), ==, 2);
  CHECK ("y h i");
#undef CHECK
}

/* Replaces @removed items at @position with @n named @prefix0, @prefix1, ... */
static void
splice_named (GListStore *store,
              guint       position,
              guint       removed,
              const char *prefix,
              guint       n)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s%u", prefix, i);

      g_ptr_array_add (items, named (name));
    }
  g_list_store_splice (store, position, removed, items->pdata, items->len);
}

static void
test_block_window_bulk (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(TandemBlockWindow) window = NULL;
  g_autoptr(GPtrArray) copy = g_ptr_array_new_with_free_func (g_free);
  guint n;

  g_test_summary ("More items than the list view keeps rows for, brought into a window at once "
                  "(a snapshot, a history loaded into the conversation shown), leave it on the "
                  "source's tail; as many or fewer, or before it, are taken in as they are");

  splice_named (store, 0, 0, "a", 2);
  window = tandem_block_window_new (G_LIST_MODEL (store), 3);
  g_ptr_array_add (copy, g_strdup ("a0"));
  g_ptr_array_add (copy, g_strdup ("a1"));
  g_signal_connect (window, "items-changed", G_CALLBACK (on_window_changed_cb), copy);

#define CHECK(expected) \
  G_STMT_START { \
    char *_w = window_names (G_LIST_MODEL (window)); \
    char *_c = copy_names (copy); \
    g_assert_cmpstr (_w, ==, expected); \
    g_assert_cmpstr (_c, ==, expected); \
    g_free (_w); g_free (_c); \
  } G_STMT_END

  /* As many as the list view keeps rows for: all shown */
  splice_named (store, 2, 0, "b", TANDEM_BLOCK_WINDOW_MAX_BULK);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window)), ==, 2 + TANDEM_BLOCK_WINDOW_MAX_BULK);
  g_assert_cmpuint (copy->len, ==, 2 + TANDEM_BLOCK_WINDOW_MAX_BULK);

  /* One more, at the end it follows: the new tail only */
  splice_named (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0, "c", TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  CHECK ("c198 c199 c200");
  g_assert_true (tandem_block_window_get_shows_end (window));
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, n - 3);

  /* Before the window: it shows the same items, however many */
  splice_named (store, 0, 0, "d", TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  CHECK ("c198 c199 c200");

  /* The whole list replaced, window read back to its start: the tail */
  tandem_block_window_reveal (window, G_MAXUINT);
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 0);
  splice_named (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), "e", 10000);
  CHECK ("e9997 e9998 e9999");

  /* A window far back given more inside it: the tail too */
  tandem_block_window_show_range (window, 10, 2);
  CHECK ("e10 e11");
  splice_named (store, 11, 0, "f", TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  CHECK ("e9997 e9998 e9999");
  g_assert_true (tandem_block_window_get_shows_end (window));

  /* ... but not given them past its end (the f0 before it is shown) */
  tandem_block_window_show_range (window, 10, 2);
  splice_named (store, 100, 0, "g", TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  CHECK ("e10 f0");

  /* Put in front of a window read back to the start: taken in there */
  tandem_block_window_show_tail (window, 3);
  tandem_block_window_reveal (window, G_MAXUINT);
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  splice_named (store, 0, 0, "h", TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  g_assert_cmpuint (tandem_block_window_get_offset (window), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window)), ==, n + TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
  g_assert_cmpuint (copy->len, ==, n + TANDEM_BLOCK_WINDOW_MAX_BULK + 1);
#undef CHECK
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tandem/block-splitter/block-cuts", test_splitter_block_cuts);
  g_test_add_func ("/tandem/block-splitter/streaming", test_splitter_streaming);
  g_test_add_func ("/tandem/block-splitter/exact", test_splitter_exact);
  g_test_add_func ("/tandem/block-splitter/exact-random", test_splitter_exact_random);
  g_test_add_func ("/tandem/block-splitter/long-paragraph", test_splitter_long_paragraph);
  g_test_add_func ("/tandem/block-splitter/open-spans", test_splitter_open_spans);
  g_test_add_func ("/tandem/block-list/kinds", test_list_kinds);
  g_test_add_func ("/tandem/block-list/streaming", test_list_streaming);
  g_test_add_func ("/tandem/block-list/definition", test_list_definition);
  g_test_add_func ("/tandem/block-list/snapshot", test_list_snapshot);
  g_test_add_func ("/tandem/block-list/long", test_list_long);
  g_test_add_func ("/tandem/block-list/let-go", test_list_let_go);
  g_test_add_func ("/tandem/block-window", test_block_window);
  g_test_add_func ("/tandem/block-window/range", test_block_window_range);
  g_test_add_func ("/tandem/block-window/bulk", test_block_window_bulk);

  return g_test_run ();
}
