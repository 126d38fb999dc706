/* fuzz-markdown.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any agent text, streamed in arbitrary deltas through the path the app
 * uses (reducer, transcript, block list cutting it into rows, one
 * Markdown model per row brought up to date at arbitrary frames), ends
 * rendered exactly as the finished text is when a conversation is
 * reopened: the same rows, each with the same render model. Where the
 * rows were cut only between top-level blocks, they also render as the
 * whole text does in one model. Every run of markup is valid Pango
 * markup.
 *
 * The first byte of an input chooses the largest delta, the second seeds
 * the delta sizes and the frames; the rest is the text.
 */

#include "config.h"

#include <string.h>

#include <pango/pango.h>

#include "agui.h"
#include "agui-reducer-private.h"
#include "fuzz.h"
#include "tandem-block-list.h"
#include "tandem-markdown-model.h"

typedef struct
{
  AguiTranscript  *transcript;
  AguiReducer     *reducer;
  TandemBlockList *blocks;
  GHashTable      *models;  /* TandemBlock → TandemMarkdownModel */
} Stream;

static void
apply (Stream        *stream,
       AguiEventType  type,
       const char    *delta)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = NULL;
  JsonObject *members = json_object_new ();

  json_object_set_string_member (members, "messageId", "m");
  if (type == AGUI_EVENT_TEXT_MESSAGE_START)
    json_object_set_string_member (members, "role", "assistant");
  if (delta != NULL)
    json_object_set_string_member (members, "delta", delta);

  event = agui_event_new (type, members, &error);
  FUZZ_CHECK (event != NULL, "the event is refused: %s", error->message);
  _agui_reducer_apply (stream->reducer, event);
}

static void
stream_init (Stream *stream)
{
  stream->transcript = agui_transcript_new ();
  stream->reducer = _agui_reducer_new (stream->transcript);
  stream->blocks = tandem_block_list_new (stream->transcript);
  stream->models = g_hash_table_new_full (NULL, NULL, g_object_unref,
                                          (GDestroyNotify) tandem_markdown_model_free);
  apply (stream, AGUI_EVENT_TEXT_MESSAGE_START, NULL);
}

/* Replaces the transcript's messages with one finished answer */
static void
stream_load (Stream     *stream,
             const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) messages = json_array_new ();
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "id", "m");
  json_object_set_string_member (message, "role", "assistant");
  json_object_set_string_member (message, "content", text);
  json_array_add_object_element (messages, message);

  FUZZ_CHECK (agui_transcript_load_messages (stream->transcript, messages, &error),
              "the answer does not load: %s", error->message);
}

static void
stream_clear (Stream *stream)
{
  g_hash_table_unref (stream->models);
  g_object_unref (stream->blocks);
  g_object_unref (stream->reducer);
  g_object_unref (stream->transcript);
}

/* What the rows do on a frame: each brings its model up to the text of
 * its block. A row bound to another block starts afresh, as a new model
 * given a text that does not extend its own does. */
static void
stream_frame (Stream *stream)
{
  GListModel *model = G_LIST_MODEL (stream->blocks);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TandemBlock) block = g_list_model_get_item (model, i);
      g_autoptr(GPtrArray) replaced = NULL;
      g_autofree char *text = NULL;
      TandemMarkdownModel *markdown;
      const char *start;
      gboolean rebuilt;
      gsize length;
      guint first;

      if (tandem_block_get_kind (block) != TANDEM_BLOCK_MARKDOWN)
        continue;

      if (!(markdown = g_hash_table_lookup (stream->models, block)))
        {
          markdown = tandem_markdown_model_new ();
          g_hash_table_insert (stream->models, g_object_ref (block), markdown);
        }
      g_hash_table_add (seen, block);

      start = tandem_block_peek_text (block, &length);
      text = g_strndup (start != NULL ? start : "", length);
      tandem_markdown_model_set_offset (markdown, tandem_block_get_start (block));
      replaced = tandem_markdown_model_set_text (markdown, text, &first, &rebuilt);
    }

  g_hash_table_iter_init (&iter, stream->models);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (seen, key))
      g_hash_table_iter_remove (&iter);
}

/* GtkLabel takes its links out of the markup before Pango parses it; as
 * spans, they must nest as any other. */
static char *
dup_without_links (const char *markup)
{
  GString *out = g_string_new (NULL);
  const char *p = markup;
  const char *link;

  while ((link = strstr (p, "<a href=\"")) != NULL)
    {
      const char *end = strstr (link, "\">");

      FUZZ_CHECK (end != NULL, "a link tag does not end: %s", markup);
      g_string_append_len (out, p, link - p);
      g_string_append (out, "<span>");
      p = end + 2;
    }
  g_string_append (out, p);

  return g_string_free (out, FALSE);
}

static void
check_markup (TandemMarkdownNode *node)
{
  if (node->kind == TANDEM_MARKDOWN_PARAGRAPH ||
      node->kind == TANDEM_MARKDOWN_HEADING ||
      node->kind == TANDEM_MARKDOWN_CELL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *spans = dup_without_links (node->text->str);
      g_auto(GStrv) parts = g_strsplit (spans, "</a>", -1);
      g_autofree char *markup = g_strjoinv ("</span>", parts);

      FUZZ_CHECK (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, &error),
                  "invalid markup: %s\n%s", error->message, node->text->str);
    }

  for (guint i = 0; i < node->children->len; i++)
    check_markup (g_ptr_array_index (node->children, i));
}

/* The rows' models, in order, and whether any row goes on with a
 * paragraph cut for its length. @separate marks where rows begin. */
static char *
stream_dump (Stream   *stream,
             gboolean  separate,
             gboolean *continued)
{
  GListModel *model = G_LIST_MODEL (stream->blocks);
  GString *out = g_string_new (NULL);

  *continued = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TandemBlock) block = g_list_model_get_item (model, i);
      TandemMarkdownModel *markdown = g_hash_table_lookup (stream->models, block);
      g_autofree char *dump = NULL;
      GPtrArray *blocks;

      if (tandem_block_get_kind (block) != TANDEM_BLOCK_MARKDOWN)
        continue;
      FUZZ_CHECK (markdown != NULL, "row %u was never drawn", i);

      *continued |= tandem_block_get_continued (block);
      if (separate)
        g_string_append_printf (out, "-- row %u%s\n", i,
                                tandem_block_get_continued (block) ? " continued" : "");
      dump = tandem_markdown_model_dump (markdown);
      g_string_append (out, dump);

      blocks = tandem_markdown_model_get_blocks (markdown);
      for (guint b = 0; b < blocks->len; b++)
        check_markup (((TandemMarkdownBlock *) g_ptr_array_index (blocks, b))->node);
    }

  return g_string_free (out, FALSE);
}

/* The text of an agent's deltas: valid UTF-8 without NUL, as JSON
 * strings decode to. */
static char *
dup_text (const uint8_t *data,
          size_t         size)
{
  g_autofree char *bytes = g_malloc (size + 1);
  gsize length = 0;

  for (size_t i = 0; i < size; i++)
    if (data[i] != 0)
      bytes[length++] = data[i];

  return g_utf8_make_valid (bytes, length);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_autofree char *streamed = NULL;
  g_autofree char *finished = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *whole = NULL;
  g_autoptr(TandemMarkdownModel) once = tandem_markdown_model_new ();
  g_autoptr(GPtrArray) replaced = NULL;
  Stream stream;
  Stream reopened;
  gboolean continued;
  gboolean rebuilt;
  guint32 seed;
  gsize max_delta;
  gsize length;
  guint first;

  fuzz_init ();

  if (size < 2)
    return 0;

  max_delta = (data[0] & 0x3f) + 1;
  seed = data[1] * 2654435761u + 1;
  text = dup_text (data + 2, size - 2);
  length = strlen (text);
  if (length == 0)
    return 0;

  /* Streamed: deltas of 1 to max_delta bytes, whole characters each, and
   * a frame after some of them */
  stream_init (&stream);
  for (gsize offset = 0; offset < length; )
    {
      g_autofree char *delta = NULL;
      gsize end;

      seed = seed * 1103515245u + 12345u;
      end = MIN (length, offset + 1 + (seed >> 16) % max_delta);
      while (end < length && (text[end] & 0xc0) == 0x80)
        end++;

      delta = g_strndup (text + offset, end - offset);
      apply (&stream, AGUI_EVENT_TEXT_MESSAGE_CONTENT, delta);
      if ((seed >> 8) % 4 != 0)
        stream_frame (&stream);
      offset = end;
    }
  apply (&stream, AGUI_EVENT_TEXT_MESSAGE_END, NULL);
  stream_frame (&stream);
  streamed = stream_dump (&stream, TRUE, &continued);

  /* Finished: the whole text at once, as a reopened conversation has it */
  stream_init (&reopened);
  stream_load (&reopened, text);
  stream_frame (&reopened);
  finished = stream_dump (&reopened, TRUE, &continued);

  FUZZ_CHECK (g_strcmp0 (streamed, finished) == 0,
              "streaming renders differently:\n%s\n== streamed\n%s\n== finished\n%s",
              text, streamed, finished);

  /* Cut only between top-level blocks, the rows render as the whole does */
  if (!continued)
    {
      rows = stream_dump (&reopened, FALSE, &continued);
      replaced = tandem_markdown_model_set_text (once, text, &first, &rebuilt);
      whole = tandem_markdown_model_dump (once);
      FUZZ_CHECK (g_strcmp0 (rows, whole) == 0,
                  "cutting into rows renders differently:\n%s\n== rows\n%s\n== whole\n%s",
                  text, rows, whole);
    }

  stream_clear (&stream);
  stream_clear (&reopened);

  return 0;
}
