/* test-proto.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-pipeline-private.h"
#include "agui-proto-decoder-private.h"

#include "agui-test-proto.h"
#include "agui-reducer-private.h"
#include "agui-event-parser-private.h"

/* The binary encoding without a network: the framing decoder, the frame
 * decoder, and every fixture's events re-encoded, folded through the same
 * pipeline as their SSE body. */

static const char * const events[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\",\"timestamp\":1700000000123}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hé, there 🎉\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"metadata\":{\"k\":[1,2.5,\"x\",true,null,{}]}}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"q\\\":1}\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}",
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"c1\",\"content\":\"42\",\"role\":\"tool\"}",
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"count\":1,\"items\":[\"a\"],\"ratio\":0.25,\"none\":null}}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/items/-\",\"value\":\"b\"},"
  "{\"op\":\"replace\",\"path\":\"/count\",\"value\":2},{\"op\":\"move\",\"from\":\"/ratio\",\"path\":\"/r\"}]}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\"},"
  "{\"id\":\"u2\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
  "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://example.com/a.png\"}}]},"
  "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"ok\",\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\","
  "\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}]},"
  "{\"id\":\"t1\",\"role\":\"tool\",\"content\":\"42\",\"toolCallId\":\"c1\"},"
  "{\"id\":\"x1\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":{\"steps\":[1]}}]}",
  "{\"type\":\"STEP_STARTED\",\"stepName\":\"plan\"}",
  "{\"type\":\"STEP_FINISHED\",\"stepName\":\"plan\"}",
  "{\"type\":\"CUSTOM\",\"name\":\"ping\",\"value\":{\"n\":1}}",
  "{\"type\":\"RAW\",\"event\":{\"any\":\"thing\"},\"source\":\"llm\"}",
  "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"x2\",\"activityType\":\"plan\",\"content\":{\"a\":1}}",
  "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"x2\",\"activityType\":\"plan\",\"patch\":[{\"op\":\"remove\",\"path\":\"/a\"}]}",
  "{\"type\":\"REASONING_START\",\"messageId\":\"r1\"}",
  "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"reasoning\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\"hmm\"}",
  "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r1\"}",
  "{\"type\":\"REASONING_END\",\"messageId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m2\",\"delta\":\"chunk\"}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\",\"outcome\":{\"type\":\"interrupt\","
  "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"c1\",\"message\":\"May I?\"}]}}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r2\",\"result\":{\"ok\":true}}",
  "{\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"E1\"}",
};

static GBytes *
encode_all (const char * const *jsons,
            gsize               n)
{
  g_autoptr(GByteArray) frames = g_byte_array_new ();

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!agui_test_proto_append_json (frames, jsons[i], &error))
        g_error ("%s: %s", jsons[i], error->message);
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&frames));
}

static JsonNode *
event_json (AguiEvent *event)
{
  return agui_event_to_json (event);
}

/* Feeds @body in @step-byte pushes; the events, and "ERROR: …" lines. */
static GPtrArray *
decode_body (GBytes  *body,
             gsize    step,
             GError **end_error)
{
  g_autoptr(AguiProtoDecoder) decoder = _agui_proto_decoder_new ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  gsize length;
  const guint8 *data = g_bytes_get_data (body, &length);

  for (gsize offset = 0; offset <= length; offset += step)
    {
      const guint8 *frame;
      gsize frame_length;
      guint index;
      GError *error = NULL;

      if (offset < length)
        _agui_proto_decoder_push (decoder, data + offset, MIN (step, length - offset));

      while (_agui_proto_decoder_next_frame (decoder, &frame, &frame_length, &index, &error))
        {
          g_autoptr(AguiEvent) event = NULL;
          g_autoptr(GError) frame_error = NULL;

          event = _agui_proto_decoder_parse_frame (parser, frame, frame_length, index, &frame_error);
          if (event != NULL)
            g_ptr_array_add (items, event_json (event));
          else if (frame_error != NULL)
            g_ptr_array_add (items, json_node_init_string (json_node_alloc (), frame_error->message));
        }
      if (error != NULL)
        {
          g_propagate_error (end_error, error);
          return items;
        }
    }

  _agui_proto_decoder_finish (decoder, end_error);

  return items;
}

static void
test_round_trip (void)
{
  g_autoptr(GBytes) body = encode_all (events, G_N_ELEMENTS (events));
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();

  g_test_summary ("Every kind of event reads off the wire as the SSE path reads its JSON, "
                  "whatever the chunking");

  for (gsize step = 1; step <= 4096; step *= 8)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) items = decode_body (body, step, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (items->len, ==, G_N_ELEMENTS (events));
      for (guint i = 0; i < items->len; i++)
        {
          g_autoptr(AguiEvent) expected = _agui_event_parser_parse (parser, events[i], -1, &error);
          g_autoptr(JsonNode) expected_json = NULL;
          JsonNode *got = g_ptr_array_index (items, i);

          g_assert_no_error (error);
          expected_json = event_json (expected);
          if (!json_node_equal (expected_json, got))
            {
              g_autofree char *a = json_to_string (expected_json, FALSE);
              g_autofree char *b = json_to_string (got, FALSE);

              g_error ("event %u differs:\n  sse:      %s\n  protobuf: %s", i, a, b);
            }
        }
    }
}

/* What a body folds to: the AG-UI messages, the state, every applied
 * event and the run's error. */
typedef struct
{
  JsonArray *applied;
} Recording;

static void
on_applied (AguiEvent *event,
            gpointer   user_data)
{
  Recording *recording = user_data;
  JsonNode *node = agui_event_to_json (event);
  JsonObject *object = json_node_get_object (node);

  /* The one difference the encodings have by design: a RunAgentInput
   * echoed in RUN_STARTED cannot say on the wire that it had no resume
   * list, and the reference decoder gives it an empty one. */
  if (json_object_has_member (object, "input"))
    {
      JsonObject *input = json_object_get_object_member (object, "input");

      if (json_object_has_member (input, "resume") &&
          json_array_get_length (json_object_get_array_member (input, "resume")) == 0)
        json_object_remove_member (input, "resume");
    }

  json_array_add_element (recording->applied, node);
}

static JsonNode *
fold_result (AguiTranscript *transcript,
             AguiPipeline   *pipeline,
             JsonArray      *applied)
{
  g_autoptr(JsonObject) result = json_object_new ();
  const GError *error = _agui_pipeline_get_error (pipeline);

  json_object_set_array_member (result, "messages", agui_transcript_to_messages (transcript, TRUE));
  json_object_set_member (result, "state", json_node_copy (agui_transcript_get_state (transcript)));
  json_object_set_array_member (result, "applied", json_array_ref (applied));
  if (error != NULL)
    json_object_set_string_member (result, "error", error->message);

  return json_node_init_object (json_node_alloc (), result);
}

static JsonNode *
fold_sse (const char *sse)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new (reducer);
  g_autoptr(JsonArray) applied = json_array_new ();
  Recording recording = { applied };
  gsize length = strlen (sse);

  _agui_pipeline_set_callbacks (pipeline, on_applied, NULL, &recording);
  for (gsize offset = 0; offset < length; offset += 7)
    if (!_agui_pipeline_push_bytes (pipeline, (const guint8 *) sse + offset, MIN (7, length - offset)))
      break;
  _agui_pipeline_finish (pipeline);

  return fold_result (transcript, pipeline, applied);
}

/* The binary path as the transport takes it: the framing decoder, one
 * event at a time into the pipeline's entry for parsed events. */
static JsonNode *
fold_proto (GBytes *body)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (transcript);
  g_autoptr(AguiPipeline) pipeline = _agui_pipeline_new (reducer);
  g_autoptr(AguiProtoDecoder) decoder = _agui_proto_decoder_new ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(JsonArray) applied = json_array_new ();
  Recording recording = { applied };
  gsize length;
  const guint8 *data = g_bytes_get_data (body, &length);
  gboolean going = TRUE;

  _agui_pipeline_set_callbacks (pipeline, on_applied, NULL, &recording);
  for (gsize offset = 0; going && offset < length; offset += 7)
    {
      const guint8 *frame;
      gsize frame_length;
      guint index;
      g_autoptr(GError) error = NULL;

      _agui_proto_decoder_push (decoder, data + offset, MIN (7, length - offset));
      while (going && _agui_proto_decoder_next_frame (decoder, &frame, &frame_length, &index, &error))
        {
          g_autoptr(AguiEvent) event = NULL;
          g_autoptr(GError) frame_error = NULL;

          event = _agui_proto_decoder_parse_frame (parser, frame, frame_length, index, &frame_error);
          if (event != NULL)
            going = _agui_pipeline_push_event (pipeline, event);
          else if (frame_error != NULL)
            _agui_pipeline_push_error (pipeline, frame_error);
        }
      g_assert_no_error (error);
    }
  if (going)
    g_assert_true (_agui_proto_decoder_finish (decoder, NULL));
  _agui_pipeline_finish (pipeline);

  return fold_result (transcript, pipeline, applied);
}

/* FALSE when the fixture's events have no faithful binary form. */
static gboolean
compare_fixture (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) sse_result = NULL;
  g_autoptr(JsonNode) proto_result = NULL;
  JsonObject *root;
  const char *sse;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  sse = json_object_get_string_member (root, "sse");

  if (!(body = agui_test_proto_encode_sse (sse, strlen (sse), &error)))
    {
      g_test_message ("%s: no faithful binary form: %s", path, error->message);
      return FALSE;
    }

  sse_result = fold_sse (sse);
  proto_result = fold_proto (body);
  if (!json_node_equal (sse_result, proto_result))
    {
      g_autofree char *a = json_to_string (sse_result, TRUE);
      g_autofree char *b = json_to_string (proto_result, TRUE);

      g_error ("%s folds differently:\nSSE: %s\nprotobuf: %s", path, a, b);
    }

  return TRUE;
}

static void
add_fixtures (GPtrArray  *paths,
              const char *dir_path)
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
    g_ptr_array_add (paths, g_build_filename (dir_path, g_ptr_array_index (names, i), NULL));
}

static void
test_fixtures (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *local = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autofree char *shared = g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "fixtures", NULL);
  guint compared = 0;

  g_test_summary ("Every fixture whose events have a binary form folds from it exactly as from its "
                  "SSE body: messages, state, applied events and the run's error");

  add_fixtures (paths, local);
  /* The project's shared fixtures, when the checkout sits beside them. */
  add_fixtures (paths, shared);
  g_assert_cmpuint (paths->len, >, 0);

  for (guint i = 0; i < paths->len; i++)
    compared += compare_fixture (g_ptr_array_index (paths, i));

  /* The others are handwritten SSE, deprecated shapes, unknown types and
   * operations, and members the wire cannot leave out. */
  g_test_message ("%u of %u fixtures compared", compared, paths->len);
  g_assert_cmpuint (compared, >=, paths->len * 3 / 4);
}

static void
test_split_length_prefix (void)
{
  g_autoptr(GBytes) body = encode_all (events, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = decode_body (body, 1, &error);

  g_test_summary ("A frame whose length prefix arrives a byte at a time is read whole");
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 3);
}

static void
test_broken_length_prefix (void)
{
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  g_test_summary ("A length prefix over the frame cap ends the body with a message naming both, "
                  "after the frames before it");

  g_assert_true (agui_test_proto_append_json (frames, events[0], NULL));
  /* An SSE body read as binary frames: "data" is the length. */
  g_byte_array_append (frames, (const guint8 *) "data: {}\n\n", 10);
  body = g_byte_array_free_to_bytes (g_steal_pointer (&frames));

  items = decode_body (body, 5, &error);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  g_assert_nonnull (strstr (error->message, "1.6 GiB (1684108385 bytes)"));
  g_assert_nonnull (strstr (error->message, "8.0 MiB (8388608 bytes)"));
  g_assert_nonnull (strstr (error->message, "length prefix is broken"));
  g_assert_cmpuint (items->len, ==, 1);
}

static void
test_max_frame_size (void)
{
  g_autoptr(AguiProtoDecoder) decoder = _agui_proto_decoder_new ();
  g_autoptr(GBytes) body = encode_all (events, 1);
  g_autoptr(GError) error = NULL;
  const guint8 *frame;
  gsize length, frame_length;
  guint index;
  const guint8 *data = g_bytes_get_data (body, &length);

  g_test_summary ("The frame cap is the decoder's setting, a frame at the cap passes");

  _agui_proto_decoder_set_max_frame_size (decoder, length - 4);
  _agui_proto_decoder_push (decoder, data, length);
  g_assert_true (_agui_proto_decoder_next_frame (decoder, &frame, &frame_length, &index, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (frame_length, ==, length - 4);

  _agui_proto_decoder_set_max_frame_size (decoder, length - 5);
  _agui_proto_decoder_push (decoder, data, length);
  g_assert_false (_agui_proto_decoder_next_frame (decoder, &frame, &frame_length, &index, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
}

static void
test_truncated (void)
{
  g_autoptr(GBytes) whole = encode_all (events, 2);
  gsize length;
  const guint8 *data = g_bytes_get_data (whole, &length);

  g_test_summary ("A body that ends inside a frame, or inside a length prefix, says so");

  {
    g_autoptr(GBytes) body = g_bytes_new (data, length - 3);
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) items = decode_body (body, 7, &error);

    g_assert_cmpuint (items->len, ==, 1);
    g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STREAM);
    g_assert_nonnull (strstr (error->message, "ended inside binary frame 2"));
  }
  {
    g_autoptr(GBytes) first = encode_all (events, 1);
    g_autoptr(GBytes) body = g_bytes_new (data, g_bytes_get_size (first) + 2);
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) items = decode_body (body, 7, &error);

    g_assert_cmpuint (items->len, ==, 1);
    g_assert_error (error, AGUI_ERROR, AGUI_ERROR_STREAM);
    g_assert_nonnull (strstr (error->message, "inside the length of binary frame 2 (2 of its 4 bytes)"));
  }
}

static void
append_raw_frame (GByteArray   *frames,
                  const guint8 *data,
                  gsize         length)
{
  guint8 prefix[4] = { length >> 24, length >> 16, length >> 8, length };

  g_byte_array_append (frames, prefix, 4);
  g_byte_array_append (frames, data, length);
}

/* Each bad frame between two good ones: refused (or dropped) alone. */
static void
assert_frame_refused (const guint8 *data,
                      gsize         length,
                      const char   *message)
{
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  g_assert_true (agui_test_proto_append_json (frames, events[0], NULL));
  append_raw_frame (frames, data, length);
  g_assert_true (agui_test_proto_append_json (frames, events[1], NULL));
  body = g_byte_array_free_to_bytes (g_steal_pointer (&frames));

  items = decode_body (body, 3, &error);
  g_assert_no_error (error);

  if (message == NULL)
    {
      g_assert_cmpuint (items->len, ==, 2);
      return;
    }

  g_assert_cmpuint (items->len, ==, 3);
  g_assert_true (JSON_NODE_HOLDS_VALUE (g_ptr_array_index (items, 1)));
  if (strstr (json_node_get_string (g_ptr_array_index (items, 1)), message) == NULL)
    g_error ("“%s” does not say “%s”", json_node_get_string (g_ptr_array_index (items, 1)), message);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (g_ptr_array_index (items, 2)));
}

static void
test_unknown_event_type (void)
{
  /* Field 40, a message holding a string: an event of a later protocol. */
  static const guint8 future[] = { 0xc2, 0x02, 0x03, 0x0a, 0x01, 'x' };

  g_test_summary ("An event kind from a later protocol is dropped and the stream goes on");
  assert_frame_refused (future, sizeof future, NULL);
}

static void
test_malformed_frames (void)
{
  /* TEXT_MESSAGE_CONTENT (arm 2) with a base event declaring type 0 */
  static const guint8 mismatch[] = { 0x12, 0x06, 0x0a, 0x02, 0x08, 0x00, 0x12, 0x00 };
  /* arms 1 and 3 */
  static const guint8 two[] = { 0x0a, 0x02, 0x0a, 0x00, 0x1a, 0x04, 0x0a, 0x02, 0x08, 0x02 };
  /* TEXT_MESSAGE_START without its base event */
  static const guint8 no_base[] = { 0x0a, 0x03, 0x12, 0x01, 'm' };
  /* a string that is not UTF-8, and one with a NUL */
  static const guint8 latin1[] = { 0x0a, 0x05, 0x0a, 0x00, 0x12, 0x01, 0xe9 };
  static const guint8 nul[] = { 0x0a, 0x06, 0x0a, 0x00, 0x12, 0x02, 'a', 0x00 };
  /* a timestamp beyond 2^53 */
  static const guint8 big[] = { 0x0a, 0x0e, 0x0a, 0x0a, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x12, 0x00 };
  static const guint8 garbage[] = { 0xff, 0xff, 0xff };
  static const guint8 runs_past[] = { 0x0a, 0x40, 0x0a };
  static const guint8 empty[] = { 0 };

  g_test_summary ("A frame that does not decode is refused alone, with a message that says why");

  assert_frame_refused (mismatch, sizeof mismatch, "TEXT_MESSAGE_CONTENT whose base event declares TEXT_MESSAGE_START");
  assert_frame_refused (two, sizeof two, "carries two events, TEXT_MESSAGE_START and TEXT_MESSAGE_END");
  assert_frame_refused (no_base, sizeof no_base, "without its base event");
  assert_frame_refused (latin1, sizeof latin1, "not valid UTF-8");
  assert_frame_refused (nul, sizeof nul, "NUL");
  assert_frame_refused (big, sizeof big, "beyond the 53 bits");
  assert_frame_refused (garbage, sizeof garbage, "broken field tag");
  assert_frame_refused (runs_past, sizeof runs_past, "runs past the end");
  assert_frame_refused (empty, 0, "carries no event");
  /* Frame 2 of three, named. */
  assert_frame_refused (garbage, sizeof garbage, "Binary frame 2:");
}

static void
append_varint (GByteArray *bytes,
               gsize       value)
{
  do
    {
      guint8 byte = (value & 0x7f) | (value > 0x7f ? 0x80 : 0);

      g_byte_array_append (bytes, &byte, 1);
      value >>= 7;
    }
  while (value > 0);
}

static gsize
varint_size (gsize value)
{
  gsize n = 1;

  while (value > 0x7f)
    {
      value >>= 7;
      n++;
    }

  return n;
}

static void
test_deep_nesting (void)
{
  /* Value → ListValue → Value …: two wire levels a JSON level. */
  const guint levels = 2 * 100000;
  g_autofree gsize *sizes = g_new (gsize, levels + 1);
  g_autoptr(GByteArray) frame = g_byte_array_new ();
  gsize arm_size;

  g_test_summary ("A hundred thousand nested lists are refused without recursing");

  /* Sizes innermost out, so the frame can be written in one pass. The
   * innermost Value is null_value: 0. */
  sizes[0] = 2;
  for (guint i = 1; i <= levels; i++)
    sizes[i] = 1 + varint_size (sizes[i - 1]) + sizes[i - 1];

  /* STATE_SNAPSHOT (arm 7): base event of type 6, then snapshot (2). */
  arm_size = 4 + 1 + varint_size (sizes[levels]) + sizes[levels];
  g_byte_array_append (frame, (const guint8 *) "\x3a", 1);
  append_varint (frame, arm_size);
  g_byte_array_append (frame, (const guint8 *) "\x0a\x02\x08\x06\x12", 5);
  append_varint (frame, sizes[levels]);
  for (guint i = levels; i > 0; i--)
    {
      /* Value.list_value (6) at even distances from the innermost Value,
       * ListValue.values (1) at odd ones. */
      g_byte_array_append (frame, (const guint8 *) (i % 2 == 0 ? "\x32" : "\x0a"), 1);
      append_varint (frame, sizes[i - 1]);
    }
  g_byte_array_append (frame, (const guint8 *) "\x08\x00", 2);

  assert_frame_refused (frame->data, frame->len, "nested deeper than 512 levels");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/proto/round-trip", test_round_trip);
  g_test_add_func ("/agui/proto/split-length-prefix", test_split_length_prefix);
  g_test_add_func ("/agui/proto/broken-length-prefix", test_broken_length_prefix);
  g_test_add_func ("/agui/proto/max-frame-size", test_max_frame_size);
  g_test_add_func ("/agui/proto/truncated", test_truncated);
  g_test_add_func ("/agui/proto/unknown-event-type", test_unknown_event_type);
  g_test_add_func ("/agui/proto/malformed-frames", test_malformed_frames);
  g_test_add_func ("/agui/proto/deep-nesting", test_deep_nesting);

  g_test_add_func ("/agui/proto/fixtures", test_fixtures);

  return g_test_run ();
}
