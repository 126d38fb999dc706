/* test-sse-decoder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-sse-decoder-private.h"

#define N_RANDOM_SEEDS 8

typedef enum
{
  CHUNKS_WHOLE,
  CHUNKS_BYTES,
  CHUNKS_FIXED,   /* pieces of `size` bytes */
  CHUNKS_SPLIT,   /* two pieces, cut at `size` */
  CHUNKS_RANDOM,
} ChunkMode;

/* A body with NUL bytes in it, and its length. */
#define WITH_NUL(body) body, sizeof (body) - 1

typedef struct
{
  const char *data;
  gsize       data_length;  /* 0: strlen (data) */
  const char *event;
  const char *id;
  const char *retry;        /* NULL: no retry, -1 expected */
} ExpectedFrame;

typedef struct
{
  const char    *name;
  const char    *body;
  gsize          body_length;     /* 0: strlen (body) */
  gsize          max_frame_size;  /* 0: the default */
  const char    *error_pattern;   /* NULL: no error expected */
  ExpectedFrame  frames[6];       /* ends at the first NULL data */
} DecodeCase;

typedef struct
{
  GPtrArray *frames;
  GError    *error;
} DecodeResult;

static void
decode_result_clear (DecodeResult *result)
{
  g_clear_pointer (&result->frames, g_ptr_array_unref);
  g_clear_error (&result->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DecodeResult, decode_result_clear)

static void
drain (AguiSseDecoder *decoder,
       GPtrArray      *frames)
{
  AguiSseFrame *frame;

  while ((frame = _agui_sse_decoder_next_frame (decoder)) != NULL)
    g_ptr_array_add (frames, frame);
}

/* Decodes @body cut into pieces by @mode, then finishes. After an error,
 * checks that the stream stays dead. */
static void
decode (const guint8 *body,
        gsize         length,
        gsize         max_frame_size,
        ChunkMode     mode,
        gsize         size,
        GRand        *rand,
        DecodeResult *result)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  gsize position = 0;

  result->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) _agui_sse_frame_unref);
  result->error = NULL;

  if (max_frame_size != 0)
    _agui_sse_decoder_set_max_frame_size (decoder, max_frame_size);

  while (position < length)
    {
      gsize chunk;

      if (mode == CHUNKS_WHOLE)
        chunk = length;
      else if (mode == CHUNKS_BYTES)
        chunk = 1;
      else if (mode == CHUNKS_FIXED)
        chunk = size;
      else if (mode == CHUNKS_SPLIT)
        chunk = (position < size) ? size : length - position;
      else if (g_rand_int_range (rand, 0, 8) == 0)
        chunk = g_rand_int_range (rand, 1, 64);
      else
        chunk = g_rand_int_range (rand, 1, 5);

      chunk = MIN (chunk, length - position);

      if (!_agui_sse_decoder_push (decoder, body + position, chunk, &result->error))
        break;
      position += chunk;
      drain (decoder, result->frames);
    }

  if (result->error == NULL)
    {
      _agui_sse_decoder_finish (decoder, &result->error);
    }
  else
    {
      g_autoptr(GError) again = NULL;
      g_autoptr(GError) at_finish = NULL;

      /* Dead: frames that ended before the bad byte are still there, but
       * nothing more goes in. */
      drain (decoder, result->frames);
      g_assert_false (_agui_sse_decoder_push (decoder, (const guint8 *) "data: x\n\n", 9, &again));
      g_assert_error (again, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
      g_assert_cmpstr (again->message, ==, result->error->message);
      g_assert_false (_agui_sse_decoder_finish (decoder, &at_finish));
      g_assert_error (at_finish, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
      g_assert_null (_agui_sse_decoder_next_frame (decoder));
    }

  drain (decoder, result->frames);
}

static void
assert_frames (const DecodeCase   *decode_case,
               const DecodeResult *result,
               const char         *how)
{
  guint n_expected = 0;

  while (n_expected < G_N_ELEMENTS (decode_case->frames) &&
         decode_case->frames[n_expected].data != NULL)
    n_expected++;

  if (g_test_verbose ())
    g_test_message ("%s: %s", decode_case->name, how);

  if (decode_case->error_pattern == NULL)
    {
      g_assert_no_error (result->error);
    }
  else
    {
      g_assert_error (result->error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
      if (!g_pattern_match_simple (decode_case->error_pattern, result->error->message))
        g_error ("%s (%s): error '%s' does not match '%s'", decode_case->name, how,
                 result->error->message, decode_case->error_pattern);
    }

  g_assert_cmpuint (result->frames->len, ==, n_expected);

  for (guint i = 0; i < n_expected; i++)
    {
      const ExpectedFrame *expected = &decode_case->frames[i];
      AguiSseFrame *frame = g_ptr_array_index (result->frames, i);
      gsize expected_length = expected->data_length ? expected->data_length : strlen (expected->data);

      g_assert_cmpmem (_agui_sse_frame_get_data (frame), _agui_sse_frame_get_data_length (frame),
                       expected->data, expected_length);
      g_assert_cmpint (_agui_sse_frame_get_data (frame)[expected_length], ==, '\0');
      g_assert_cmpstr (_agui_sse_frame_get_event (frame), ==, expected->event);
      g_assert_cmpstr (_agui_sse_frame_get_id (frame), ==, expected->id);
      g_assert_cmpint (_agui_sse_frame_get_retry (frame), ==,
                       expected->retry ? g_ascii_strtoll (expected->retry, NULL, 10) : -1);
    }
}

static const DecodeCase decode_cases[] = {
  { "simple", "data: hello\n\n", 0, 0, NULL, { { "hello" } } },
  { "two-frames", "data: one\n\ndata: two\n\n", 0, 0, NULL, { { "one" }, { "two" } } },
  { "multi-line", "data: a\ndata: b\ndata:  c\n\n", 0, 0, NULL, { { "a\nb\n c" } } },
  { "no-space", "data:x\n\ndata:\tx\n\n", 0, 0, NULL, { { "x" }, { "\tx" } } },
  { "one-space-removed", "data:  two spaces \n\n", 0, 0, NULL, { { " two spaces " } } },
  { "value-with-colon", "data: a: b:c\n\n", 0, 0, NULL, { { "a: b:c" } } },
  { "empty-data", "data:\n\ndata: \n\n", 0, 0, NULL, { { "" }, { "" } } },
  { "no-colon", "data\n\ndata\ndata\n\n", 0, 0, NULL, { { "" }, { "\n" } } },
  /* The standard's own example: the last block fires only because finish()
   * dispatches an unterminated frame. */
  { "standard-example", "data\n\ndata\ndata\n\ndata:", 0, 0, NULL, { { "" }, { "\n" }, { "" } } },
  { "empty-line-between-data", "data: a\ndata\ndata: b\n\n", 0, 0, NULL, { { "a\n\nb" } } },
  { "comments", ": keep-alive\n\n:x\ndata: x\n: between\ndata: y\n:\n\n", 0, 0, NULL, { { "x\ny" } } },
  { "only-comments", ": a\n: b\n\n:\n\n", 0, 0, NULL, { { NULL } } },
  { "crlf", "data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n", 0, 0, NULL, { { "a\nb" }, { "c" } } },
  { "cr", "data: a\rdata: b\r\rdata: c\r\r", 0, 0, NULL, { { "a\nb" }, { "c" } } },
  { "mixed-endings", "data: a\r\n\ndata: b\r\rdata: c\n\r\ndata: d\r\n\r", 0, 0, NULL,
    { { "a" }, { "b" }, { "c" }, { "d" } } },
  { "cr-cr-lf", "data: a\r\r\ndata: b\n\n", 0, 0, NULL, { { "a" }, { "b" } } },
  { "blank-lines", "\n\n\r\n\rdata: x\n\n\n\r\n", 0, 0, NULL, { { "x" } } },
  { "bom", "\xEF\xBB\xBF" "data: x\n\n", 0, 0, NULL, { { "x" } } },
  { "bom-only-once", "\xEF\xBB\xBF" "data: \xEF\xBB\xBF" "x\n\n", 0, 0, NULL, { { "\xEF\xBB\xBF" "x" } } },
  /* Only one BOM is skipped: the second is part of the field name, so the
   * field is unknown and the frame has no data. */
  { "double-bom", "\xEF\xBB\xBF\xEF\xBB\xBF" "data: x\n\ndata: y\n\n", 0, 0, NULL, { { "y" } } },
  { "bom-only", "\xEF\xBB\xBF", 0, 0, NULL, { { NULL } } },
  /* U+FEC0 starts like a BOM: the held-back bytes are replayed as body. */
  { "bom-prefix-not-bom", "\xEF\xBB\x80: x\ndata: y\n\n", 0, 0, NULL, { { "y" } } },
  { "bom-prefix-then-ascii", "\xEF\xBB" "data: x\n\n", 0, 0, "*at byte offset 0", { { NULL } } },
  { "bom-prefix-at-end", "\xEF", 0, 0, "*ends inside a UTF-8 sequence at byte offset 0", { { NULL } } },
  { "fields", "event: greet\nid: 42\nretry: 1500\ndata: hi\n\n", 0, 0, NULL,
    { { "hi", 0, "greet", "42", "1500" } } },
  { "fields-per-frame", "event: a\nid: 1\nretry: 5\ndata: x\n\ndata: y\n\n", 0, 0, NULL,
    { { "x", 0, "a", "1", "5" }, { "y" } } },
  { "fields-without-data-dropped", "event: ping\nid: 7\nretry: 9\n\ndata: x\n\n", 0, 0, NULL, { { "x" } } },
  { "fields-last-wins", "event: a\nevent: b\nid: 1\nid: 2\ndata: x\nretry: 1\nretry: 2\n\n", 0, 0, NULL,
    { { "x", 0, "b", "2", "2" } } },
  { "fields-empty", "event\nid\ndata: x\n\nevent:\nid:\ndata: y\n\n", 0, 0, NULL,
    { { "x", 0, "", "" }, { "y", 0, "", "" } } },
  { "retry-invalid", "retry: 12a\ndata: a\n\nretry:\ndata: b\n\nretry: -5\ndata: c\n\n"
    "retry: 99999999999999999999\ndata: d\n\nretry:  7\ndata: e\n\nretry: 0\ndata: f\n\n", 0, 0, NULL,
    { { "a" }, { "b" }, { "c" }, { "d" }, { "e" }, { "f", 0, NULL, NULL, "0" } } },
  { "retry-invalid-keeps-earlier", "retry: 10\nretry: x\ndata: a\n\n", 0, 0, NULL, { { "a", 0, NULL, NULL, "10" } } },
  { "unknown-fields", "foo: bar\nDATA: y\ndata : z\ndata: x\n\n", 0, 0, NULL, { { "x" } } },
  { "nul-in-data", WITH_NUL ("data: a\0b\n\n"), 0, NULL, { { "a\0b", 3 } } },
  { "nul-in-id-ignored", WITH_NUL ("id: 1\nid: a\0b\nevent: e\0f\ndata: x\n\n"), 0, NULL, { { "x", 0, NULL, "1" } } },
  { "finish-without-blank-line", "data: a\n\ndata: b", 0, 0, NULL, { { "a" }, { "b" } } },
  { "finish-after-line-end", "data: a\ndata: b\n", 0, 0, NULL, { { "a\nb" } } },
  { "finish-after-cr", "data: a\r", 0, 0, NULL, { { "a" } } },
  { "finish-no-data", "data: a\n\nevent: x\nid: 3", 0, 0, NULL, { { "a" } } },
  { "finish-comment", "data: a\n\n: bye", 0, 0, NULL, { { "a" } } },
  { "empty-body", "", 0, 0, NULL, { { NULL } } },
  { "utf8", "data: h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF \xF4\x8F\xBF\xBF\n\n", 0, 0, NULL,
    { { "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF \xF4\x8F\xBF\xBF" } } },
  { "utf8-invalid", "data: ok\n\ndata: \xC3\x28\n\n", 0, 0, "*at byte offset 16", { { "ok" } } },
  { "utf8-invalid-same-frame", "data: ok\ndata: \xFF\n\n", 0, 0, "*at byte offset 15", { { NULL } } },
  { "utf8-stray-continuation", "data: \x80\n\n", 0, 0, "*at byte offset 6", { { NULL } } },
  { "utf8-overlong", "data: ok\n\n: \xC0\x80\n\n", 0, 0, "*at byte offset 12", { { "ok" } } },
  { "utf8-overlong-3", "data: \xE0\x9F\xBF\n\n", 0, 0, "*at byte offset 6", { { NULL } } },
  { "utf8-surrogate", "data: \xED\xA0\x80\n\n", 0, 0, "*at byte offset 6", { { NULL } } },
  { "utf8-too-large", "data: \xF4\x90\x80\x80\n\n", 0, 0, "*at byte offset 6", { { NULL } } },
  { "utf8-truncated-before-newline", "data: \xE2\x82\n\n", 0, 0, "*at byte offset 6", { { NULL } } },
  { "utf8-truncated-at-end", "data: a\n\ndata: \xF0\x9F\x98", 0, 0, "*ends inside a UTF-8 sequence at byte offset 15",
    { { "a" } } },
  { "utf8-offset-counts-bom", "\xEF\xBB\xBF" "data: \xFF\n\n", 0, 0, "Invalid UTF-8 in the SSE body at byte offset 9",
    { { NULL } } },
  { "cap-exact", "data: 0123456789\n\n", 0, 16, NULL, { { "0123456789" } } },
  { "cap-exceeded", "data: 0123456789\n\ndata: 0123456789a\n\n", 0, 16,
    "SSE frame exceeds the maximum frame size of 16 bytes", { { "0123456789" } } },
  { "cap-accumulates", "data: 12345\ndata: 12345\n\ndata: 123456\ndata: 123456\n\n", 0, 16,
    "*maximum frame size of 16 bytes", { { "12345\n12345" } } },
  { "cap-many-frames", "data: 0123456789\n\ndata: 0123456789\n\ndata: 0123456789\n\ndata: 0123456789\n\n", 0, 16, NULL,
    { { "0123456789" }, { "0123456789" }, { "0123456789" }, { "0123456789" } } },
  { "cap-comment-line", ": 0123456789abcdef\n\n", 0, 16, "*maximum frame size of 16 bytes", { { NULL } } },
  { "cap-unterminated-line", "data: a\n\ndata: 0123456789abcdef", 0, 16, "*maximum frame size of 16 bytes",
    { { "a" } } },
};

static void
test_decode_case (gconstpointer user_data)
{
  const DecodeCase *decode_case = user_data;
  const guint8 *body = (const guint8 *) decode_case->body;
  gsize length = decode_case->body_length ? decode_case->body_length : strlen (decode_case->body);

  {
    g_auto(DecodeResult) result = { 0 };

    decode (body, length, decode_case->max_frame_size, CHUNKS_WHOLE, 0, NULL, &result);
    assert_frames (decode_case, &result, "whole");
  }

  {
    g_auto(DecodeResult) result = { 0 };

    decode (body, length, decode_case->max_frame_size, CHUNKS_BYTES, 0, NULL, &result);
    assert_frames (decode_case, &result, "byte by byte");
  }

  for (guint32 seed = 1; seed <= N_RANDOM_SEEDS; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autofree char *how = g_strdup_printf ("random chunks, seed %u", seed);
      g_auto(DecodeResult) result = { 0 };

      decode (body, length, decode_case->max_frame_size, CHUNKS_RANDOM, 0, rand, &result);
      assert_frames (decode_case, &result, how);
    }

  /* Every way of cutting the body in two: each split point is where a
   * carried-over state (CR, BOM, UTF-8 sequence, line) must survive. */
  for (gsize split = 1; split < length; split++)
    {
      g_autofree char *how = g_strdup_printf ("split at %" G_GSIZE_FORMAT, split);
      g_auto(DecodeResult) result = { 0 };

      decode (body, length, decode_case->max_frame_size, CHUNKS_SPLIT, split, NULL, &result);
      assert_frames (decode_case, &result, how);
    }
}

static void
test_split_crlf (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A CRLF split between two pushes is one line end, not two");

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "data: a\r", 8, &error));
  g_assert_no_error (error);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\ndata: b\r", 9, &error));
  g_assert_no_error (error);
  /* Taking the LF as a second, empty line would have dispatched "a". */
  g_assert_null (_agui_sse_decoder_next_frame (decoder));

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\n\r", 2, &error));
  g_assert_no_error (error);
  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);
  g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, "a\nb");
  g_assert_null (_agui_sse_decoder_next_frame (decoder));

  /* The pending LF after the last CR closes that CRLF: no new frame. */
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\n", 1, &error));
  g_assert_true (_agui_sse_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));
}

static void
test_split_bom (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A BOM split over three pushes is still skipped");

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\xEF", 1, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\xBB", 1, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\xBF" "data", 5, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) ": x\n\n", 5, &error));
  g_assert_no_error (error);

  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);
  g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, "x");
  g_assert_true (_agui_sse_decoder_finish (decoder, &error));
  g_assert_no_error (error);
}

static void
test_split_utf8 (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A multi-byte character split over pushes is accepted once whole");

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "data: \xF0", 7, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\x9F", 1, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\x98", 1, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\x80\n\n", 3, &error));
  g_assert_no_error (error);

  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);
  g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, "\xF0\x9F\x98\x80");
  g_assert_cmpuint (_agui_sse_frame_get_data_length (frame), ==, 4);
}

static void
test_invalid_utf8_offset (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GError) error = NULL;

  g_test_summary ("Invalid UTF-8 fails the push that brings the bad byte, naming its body offset");

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "data: ab", 8, &error));
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "\xC3", 1, &error));
  g_assert_no_error (error);
  g_assert_false (_agui_sse_decoder_push (decoder, (const guint8 *) "\xC3", 1, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  g_assert_cmpstr (error->message, ==, "Invalid UTF-8 in the SSE body at byte offset 8");
}

static void
test_gzip_any_chunking (void)
{
  static const guint8 body[] = { 0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad };

  g_test_summary ("gzip data is named as such whether its magic comes in one push or two");

  for (gsize split = 0; split < sizeof body; split++)
    {
      g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
      g_autoptr(GError) error = NULL;

      if (split > 0)
        g_assert_true (_agui_sse_decoder_push (decoder, body, split, &error) || split >= 2);
      if (error == NULL)
        g_assert_false (_agui_sse_decoder_push (decoder, body + split, sizeof body - split, &error));
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
      g_assert_cmpstr (error->message, ==,
                       "The SSE body is gzip-compressed data that could not be decompressed (corrupt or cut short)");
    }
}

static void
test_seed_example (void)
{
  static const char first[] = ": keep-alive\n\ndata: {\"type\":\"RUN_ERROR\",\"mes";
  static const char second[] = "sage\":\"boom\"}\n\n";
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  g_test_summary ("A proxy's heartbeat, then half an event (seeds/transports.txt)");

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) first, strlen (first), &error));
  g_assert_no_error (error);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) second, strlen (second), &error));
  g_assert_no_error (error);
  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));

  g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}");
  g_assert_true (json_parser_load_from_data (parser, _agui_sse_frame_get_data (frame),
                                             _agui_sse_frame_get_data_length (frame), &error));
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (object, "type"), ==, "RUN_ERROR");

  g_assert_true (_agui_sse_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));
}

static void
test_queue_order (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_test_summary ("All frames of one push are queued and come out in order");

  for (guint i = 0; i < 100; i++)
    g_string_append_printf (body, "data: frame %u\n\n", i);

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) body->str, body->len, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(AguiSseFrame) frame = _agui_sse_decoder_next_frame (decoder);
      g_autofree char *expected = g_strdup_printf ("frame %u", i);

      g_assert_nonnull (frame);
      g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, expected);
    }

  g_assert_null (_agui_sse_decoder_next_frame (decoder));
}

static void
test_frame_ref (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  AguiSseFrame *copy;
  g_autoptr(GError) error = NULL;

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "data: x\n\n", 9, &error));
  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);

  g_assert_true (g_type_is_a (AGUI_TYPE_SSE_FRAME, G_TYPE_BOXED));
  copy = g_boxed_copy (AGUI_TYPE_SSE_FRAME, frame);
  g_assert_true (copy == frame);
  g_boxed_free (AGUI_TYPE_SSE_FRAME, copy);

  g_assert_true (_agui_sse_frame_ref (frame) == frame);
  _agui_sse_frame_unref (frame);

  /* The frame outlives its decoder. */
  g_clear_object (&decoder);
  g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, "x");
}

static void
on_notify_cb (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_max_frame_size_property (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  guint64 value = 0;
  guint notifications = 0;

  g_assert_cmpuint (_agui_sse_decoder_get_max_frame_size (decoder), ==, 8 * 1024 * 1024);
  g_assert_cmpuint (AGUI_SSE_DEFAULT_MAX_FRAME_SIZE, ==, 8 * 1024 * 1024);

  g_signal_connect (decoder, "notify::max-frame-size", G_CALLBACK (on_notify_cb), &notifications);

  _agui_sse_decoder_set_max_frame_size (decoder, 1024);
  g_assert_cmpuint (_agui_sse_decoder_get_max_frame_size (decoder), ==, 1024);
  g_assert_cmpuint (notifications, ==, 1);

  _agui_sse_decoder_set_max_frame_size (decoder, 1024);
  g_assert_cmpuint (notifications, ==, 1);

  g_object_set (decoder, "max-frame-size", (guint64) 4096, NULL);
  g_object_get (decoder, "max-frame-size", &value, NULL);
  g_assert_cmpuint (value, ==, 4096);
  g_assert_cmpuint (notifications, ==, 2);
}

static void
test_max_frame_size_zero (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();

      _agui_sse_decoder_set_max_frame_size (decoder, 0);
      return;
    }

  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*max_frame_size > 0*");
}

static void
test_push_after_finish (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();

      g_assert_true (_agui_sse_decoder_finish (decoder, NULL));
      _agui_sse_decoder_push (decoder, (const guint8 *) "data: x\n\n", 9, NULL);
      return;
    }

  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*finished*");
}

static void
test_cap_unterminated_line_bounded (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GError) error = NULL;
  guint8 byte = 'a';

  g_test_summary ("An endless line fails as soon as it passes the cap, not at the end");

  _agui_sse_decoder_set_max_frame_size (decoder, 1024);
  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) "data: ", 6, &error));

  for (guint i = 6; i < 1024; i++)
    {
      g_assert_true (_agui_sse_decoder_push (decoder, &byte, 1, &error));
      g_assert_no_error (error);
    }

  g_assert_false (_agui_sse_decoder_push (decoder, &byte, 1, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  g_assert_cmpstr (error->message, ==, "SSE frame exceeds the maximum frame size of 1024 bytes");
}

static void
test_cap_per_frame_not_per_chunk (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *payload = NULL;
  const guint n_frames = 1000;
  const gsize payload_length = 20 * 1024;
  guint n_seen = 0;
  AguiSseFrame *frame;

  g_test_summary ("One 20 MiB push of 1000 small frames passes an 8 MiB cap");

  payload = g_malloc (payload_length + 1);
  memset (payload, 'p', payload_length);
  payload[payload_length] = '\0';

  for (guint i = 0; i < n_frames; i++)
    g_string_append_printf (body, "data: %u %s\n\n", i, payload);
  g_assert_cmpuint (body->len, >, 2 * AGUI_SSE_DEFAULT_MAX_FRAME_SIZE);

  g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) body->str, body->len, &error));
  g_assert_no_error (error);
  g_assert_true (_agui_sse_decoder_finish (decoder, &error));
  g_assert_no_error (error);

  while ((frame = _agui_sse_decoder_next_frame (decoder)) != NULL)
    {
      g_autofree char *expected = g_strdup_printf ("%u %s", n_seen, payload);

      g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, expected);
      _agui_sse_frame_unref (frame);
      n_seen++;
    }

  g_assert_cmpuint (n_seen, ==, n_frames);
}

/* One 4 MiB frame pushed in @step-byte pieces: the scanner must look at
 * each byte a bounded number of times. A decoder that rescans its pending
 * buffer on every push would look at about 4 MiB * 4 MiB / 2 / @step. */
static void
check_linear (gsize step)
{
  const gsize payload_length = 4 * 1024 * 1024;
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(AguiSseFrame) frame = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *body = NULL;
  gsize length = payload_length + strlen ("data: ") + 2;
  const char *data;

  body = g_malloc (length);
  memcpy (body, "data: ", 6);
  for (gsize i = 0; i < payload_length; i++)
    body[6 + i] = 'a' + i % 26;
  body[length - 2] = '\n';
  body[length - 1] = '\n';

  for (gsize position = 0; position < length; position += step)
    {
      if (!_agui_sse_decoder_push (decoder, body + position, MIN (step, length - position), &error))
        g_error ("push at %" G_GSIZE_FORMAT ": %s", position, error->message);
    }

  g_assert_cmpuint (_agui_sse_decoder_get_bytes_scanned (decoder), >=, length);
  g_assert_cmpuint (_agui_sse_decoder_get_bytes_scanned (decoder), <=, 2 * length);

  frame = _agui_sse_decoder_next_frame (decoder);
  g_assert_nonnull (frame);
  g_assert_cmpuint (_agui_sse_frame_get_data_length (frame), ==, payload_length);
  data = _agui_sse_frame_get_data (frame);
  g_assert_cmpmem (data, payload_length, body + 6, payload_length);
  g_assert_null (_agui_sse_decoder_next_frame (decoder));
}

static void
test_linear_one_byte (void)
{
  g_test_summary ("A 4 MiB frame pushed one byte at a time is scanned once");
  check_linear (1);
}

static void
test_linear_seven_bytes (void)
{
  g_test_summary ("A 4 MiB frame pushed in 7-byte reads is scanned once");
  check_linear (7);
}

static void
test_linear_many_lines (void)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  guint n_frames = 0;
  AguiSseFrame *frame;

  g_test_summary ("Short CRLF lines pushed byte by byte are scanned once too");

  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (body, "id: %u\r\ndata: %u\r\n\r\n", i, i);

  for (gsize position = 0; position < body->len; position++)
    g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) body->str + position, 1, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (_agui_sse_decoder_get_bytes_scanned (decoder), <=, 2 * body->len);

  while ((frame = _agui_sse_decoder_next_frame (decoder)) != NULL)
    {
      g_autofree char *expected = g_strdup_printf ("%u", n_frames);

      g_assert_cmpstr (_agui_sse_frame_get_data (frame), ==, expected);
      g_assert_cmpstr (_agui_sse_frame_get_id (frame), ==, expected);
      _agui_sse_frame_unref (frame);
      n_frames++;
    }

  g_assert_cmpuint (n_frames, ==, 10000);
}

static JsonNode *
parse_json (const char  *text,
            gssize       length,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, text, length, error))
    return NULL;

  return json_node_ref (json_parser_get_root (parser));
}

static void
check_fixture_frames (const char *name,
                      GPtrArray  *frames,
                      JsonArray  *events)
{
  g_assert_cmpuint (frames->len, ==, json_array_get_length (events));

  for (guint i = 0; i < frames->len; i++)
    {
      AguiSseFrame *frame = g_ptr_array_index (frames, i);
      JsonNode *event = json_array_get_element (events, i);
      g_autoptr(JsonNode) payload = NULL;
      g_autoptr(GError) error = NULL;

      payload = parse_json (_agui_sse_frame_get_data (frame), _agui_sse_frame_get_data_length (frame), &error);
      g_assert_no_error (error);

      if (!json_node_equal (payload, event))
        g_error ("%s: frame %u is '%s', not the event in \"events\"", name, i, _agui_sse_frame_get_data (frame));
    }
}

static void
test_fixture (gconstpointer user_data)
{
  const char *path = user_data;
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *events;
  const char *sse;
  gsize length;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);

  root = json_node_get_object (json_parser_get_root (parser));
  sse = json_object_get_string_member (root, "sse");
  events = json_object_get_array_member (root, "events");
  g_assert_nonnull (sse);
  g_assert_nonnull (events);
  length = strlen (sse);

  /* Every fixture's body, encoder-written or not, holds one frame per
   * event, and the frame's JSON is that event (http-error-status: a body
   * with no data line, and no events). */
  {
    g_auto(DecodeResult) result = { 0 };

    decode ((const guint8 *) sse, length, 0, CHUNKS_WHOLE, 0, NULL, &result);
    g_assert_no_error (result.error);
    check_fixture_frames (name, result.frames, events);
  }

  {
    g_auto(DecodeResult) result = { 0 };

    decode ((const guint8 *) sse, length, 0, CHUNKS_BYTES, 0, NULL, &result);
    g_assert_no_error (result.error);
    check_fixture_frames (name, result.frames, events);
  }

  /* The reference harness served the fixtures in 7-byte reads. */
  {
    g_auto(DecodeResult) result = { 0 };

    decode ((const guint8 *) sse, length, 0, CHUNKS_FIXED, 7, NULL, &result);
    g_assert_no_error (result.error);
    check_fixture_frames (name, result.frames, events);
  }

  for (guint32 seed = 1; seed <= N_RANDOM_SEEDS; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_auto(DecodeResult) result = { 0 };

      decode ((const guint8 *) sse, length, 0, CHUNKS_RANDOM, 0, rand, &result);
      g_assert_no_error (result.error);
      check_fixture_frames (name, result.frames, events);
    }
}

static void
test_fixture_framing_variants (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "sse-framing-variants.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(DecodeResult) result = { 0 };
  const char *sse;

  g_test_summary ("The hand-written framing fixture keeps event, id and retry on the right frames");

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  sse = json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "sse");

  decode ((const guint8 *) sse, strlen (sse), 0, CHUNKS_BYTES, 0, NULL, &result);
  g_assert_no_error (result.error);
  g_assert_cmpuint (result.frames->len, ==, 5);

  g_assert_cmpstr (_agui_sse_frame_get_event (g_ptr_array_index (result.frames, 0)), ==, "message");
  g_assert_cmpstr (_agui_sse_frame_get_id (g_ptr_array_index (result.frames, 0)), ==, "1");
  g_assert_cmpint (_agui_sse_frame_get_retry (g_ptr_array_index (result.frames, 0)), ==, -1);
  g_assert_null (_agui_sse_frame_get_event (g_ptr_array_index (result.frames, 1)));
  g_assert_null (_agui_sse_frame_get_id (g_ptr_array_index (result.frames, 1)));
  g_assert_cmpint (_agui_sse_frame_get_retry (g_ptr_array_index (result.frames, 2)), ==, 1000);
  g_assert_cmpstr (_agui_sse_frame_get_data (g_ptr_array_index (result.frames, 2)), ==,
                   "{\"type\":\"TEXT_MESSAGE_CONTENT\",\n\"messageId\":\"m1\",\n \"delta\":\"multi-line ok\"}");
  g_assert_cmpstr (_agui_sse_frame_get_data (g_ptr_array_index (result.frames, 4)), ==,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}");
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_fixture_tests (void)
{
  g_autofree char *directory = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const char *entry;

  dir = g_dir_open (directory, 0, &error);
  g_assert_no_error (error);

  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_suffix (entry, ".json"))
        g_ptr_array_add (names, g_strdup (entry));
    }

  /* A missing fixtures directory must not pass as zero tests. */
  g_assert_cmpuint (names->len, >=, 50);
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *stem = g_strndup (file, strlen (file) - strlen (".json"));
      g_autofree char *test_path = g_strdup_printf ("/agui/sse-decoder/fixture/%s", stem);

      /* The path is leaked on purpose: it is the test's data for the whole run. */
      g_test_add_data_func_full (test_path, g_build_filename (directory, file, NULL), test_fixture, g_free);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (decode_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/sse-decoder/case/%s", decode_cases[i].name);

      g_test_add_data_func (path, &decode_cases[i], test_decode_case);
    }

  g_test_add_func ("/agui/sse-decoder/split-crlf", test_split_crlf);
  g_test_add_func ("/agui/sse-decoder/split-bom", test_split_bom);
  g_test_add_func ("/agui/sse-decoder/split-utf8", test_split_utf8);
  g_test_add_func ("/agui/sse-decoder/invalid-utf8-offset", test_invalid_utf8_offset);
  g_test_add_func ("/agui/sse-decoder/gzip-any-chunking", test_gzip_any_chunking);
  g_test_add_func ("/agui/sse-decoder/seed-example", test_seed_example);
  g_test_add_func ("/agui/sse-decoder/queue-order", test_queue_order);
  g_test_add_func ("/agui/sse-decoder/frame-ref", test_frame_ref);
  g_test_add_func ("/agui/sse-decoder/max-frame-size/property", test_max_frame_size_property);
  g_test_add_func ("/agui/sse-decoder/max-frame-size/zero", test_max_frame_size_zero);
  g_test_add_func ("/agui/sse-decoder/max-frame-size/unterminated-line", test_cap_unterminated_line_bounded);
  g_test_add_func ("/agui/sse-decoder/max-frame-size/per-frame-not-per-chunk", test_cap_per_frame_not_per_chunk);
  g_test_add_func ("/agui/sse-decoder/push-after-finish", test_push_after_finish);
  g_test_add_func ("/agui/sse-decoder/linear/one-byte", test_linear_one_byte);
  g_test_add_func ("/agui/sse-decoder/linear/seven-bytes", test_linear_seven_bytes);
  g_test_add_func ("/agui/sse-decoder/linear/many-lines", test_linear_many_lines);
  g_test_add_func ("/agui/sse-decoder/fixture-framing-variants", test_fixture_framing_variants);
  add_fixture_tests ();

  return g_test_run ();
}
