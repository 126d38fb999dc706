/* bench-proto.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-json-doc-access-private.h"
#include "agui-proto-decoder-private.h"
#include "agui-proto-json-private.h"

#include "agui-test-proto.h"
#include "agui-sse-decoder-private.h"
#include "agui-event-parser-private.h"

/* `meson test --benchmark bench-proto`: the cost of reading one run in
 * each encoding, and where the binary path spends it. It also keeps the
 * measurement behind the choice of protobuf-c: a hand-written reader of
 * the wire, reduced to what a streamed text delta needs (no Struct, no
 * Value, no nesting), against protobuf-c's unpack plus the schema-driven
 * JSON conversion the decoder does. */

#define N_EVENTS 100000

static GPtrArray *
make_events (void)
{
  GPtrArray *events = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (events, g_strdup ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"));
  for (guint i = 0; events->len < N_EVENTS - 24; i++)
    {
      g_ptr_array_add (events, g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%u\","
                                                "\"role\":\"assistant\"}", i));
      for (guint j = 0; j < 20; j++)
        g_ptr_array_add (events, g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%u\","
                                                  "\"delta\":\"word %u of the answer, \"}", i, j));
      g_ptr_array_add (events, g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%u\"}", i));
      g_ptr_array_add (events, g_strdup_printf ("{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\","
                                                "\"path\":\"/turn\",\"value\":%u},{\"op\":\"add\",\"path\":"
                                                "\"/log/-\",\"value\":{\"at\":%u,\"ok\":true}}]}", i, i));
    }
  g_ptr_array_add (events, g_strdup ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"));

  return events;
}

static gboolean
read_varint (const guint8 *data,
             gsize         end,
             gsize        *offset,
             guint64      *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64 && *offset < end; shift += 7)
    {
      guint8 byte = data[(*offset)++];

      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }

  return FALSE;
}

/* The hand-written candidate: TEXT_MESSAGE_CONTENT only, straight from
 * the bytes to its object in the tree. */
static gboolean
hand_decode_content (const guint8  *data,
                     gsize          length,
                     AguiJsonValue *value)
{
  AguiJsonDocObject *object = _agui_json_value_set_object (value, 3);
  gsize offset = 0, end;
  guint64 tag, size;

  if (!read_varint (data, length, &offset, &tag) || tag != 0x12 ||
      !read_varint (data, length, &offset, &size) || size > length - offset)
    return FALSE;
  end = offset + size;
  _agui_json_doc_set_string (object, "type", "TEXT_MESSAGE_CONTENT");

  while (offset < end)
    {
      if (!read_varint (data, end, &offset, &tag) || (tag & 7) != 2 ||
          !read_varint (data, end, &offset, &size) || size > end - offset)
        return FALSE;
      if (tag >> 3 == 2 || tag >> 3 == 3)
        {
          AguiJsonValue text = AGUI_JSON_VALUE_INIT;

          if (!g_utf8_validate ((const char *) data + offset, size, NULL))
            return FALSE;
          _agui_json_value_set_string (&text, (const char *) data + offset, size);
          _agui_json_object_set (object, tag >> 3 == 2 ? "messageId" : "delta", &text);
        }
      offset += size;
    }

  return TRUE;
}

typedef struct
{
  const guint8 *data;
  gsize         length;
} Frame;

static GArray *
split_frames (GBytes *body)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  Frame frame;
  gsize length;
  const guint8 *data = g_bytes_get_data (body, &length);

  /* Frames point into the body itself: walk the prefixes by hand. */
  for (gsize offset = 0; offset + 4 <= length;)
    {
      frame.length = ((gsize) data[offset] << 24) | ((gsize) data[offset + 1] << 16) |
                     ((gsize) data[offset + 2] << 8) | data[offset + 3];
      frame.data = data + offset + 4;
      g_array_append_val (frames, frame);
      offset += 4 + frame.length;
    }
  return frames;
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

static void
report (const char *what,
        double      seconds,
        guint       n)
{
  g_print ("%-52s %8.1f ms  %7.0f ns/event\n", what, seconds * 1000, seconds * 1e9 / n);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) events = make_events ();
  g_autoptr(GString) sse = g_string_new (NULL);
  g_autoptr(GByteArray) proto = g_byte_array_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GArray) content = g_array_new (FALSE, FALSE, sizeof (Frame));
  gint64 start;
  guint n = events->len;

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (sse, "data: %s\n\n", (const char *) g_ptr_array_index (events, i));
      g_assert_true (agui_test_proto_append_json (proto, g_ptr_array_index (events, i), NULL));
    }
  g_print ("%u events: SSE body %zu bytes, binary body %u bytes\n", n, sse->len, proto->len);
  body = g_byte_array_free_to_bytes (g_steal_pointer (&proto));
  frames = split_frames (body);
  g_assert_cmpuint (frames->len, ==, n);
  for (guint i = 0; i < n; i++)
    if (strstr (g_ptr_array_index (events, i), "TEXT_MESSAGE_CONTENT"))
      g_array_append_val (content, g_array_index (frames, Frame, i));

  /* The whole of each path, bytes to typed events. */
  {
    g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
    g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
    AguiSseFrame *frame;
    guint got = 0;

    start = g_get_monotonic_time ();
    g_assert_true (_agui_sse_decoder_push (decoder, (const guint8 *) sse->str, sse->len, NULL));
    while ((frame = _agui_sse_decoder_next_frame (decoder)))
      {
        g_autoptr(AguiEvent) event = _agui_event_parser_parse (parser, _agui_sse_frame_get_data (frame),
                                                              _agui_sse_frame_get_data_length (frame), NULL);

        got += event != NULL;
        _agui_sse_frame_unref (frame);
      }
    report ("SSE: frames, yajl, schema", seconds_since (start), n);
    g_assert_cmpuint (got, ==, n);
  }
  {
    g_autoptr(AguiProtoDecoder) decoder = _agui_proto_decoder_new ();
    g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
    const guint8 *data;
    gsize length;
    guint index, got = 0;

    start = g_get_monotonic_time ();
    _agui_proto_decoder_push (decoder, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
    while (_agui_proto_decoder_next_frame (decoder, &data, &length, &index, NULL))
      {
        g_autoptr(AguiEvent) event = _agui_proto_decoder_parse_frame (parser, data, length, index, NULL);

        got += event != NULL;
      }
    report ("protobuf: frames, protobuf-c, JSON, schema", seconds_since (start), n);
    g_assert_cmpuint (got, ==, n);
  }

  /* The binary path's stages, on every event. */
  {
    start = g_get_monotonic_time ();
    for (guint i = 0; i < n; i++)
      {
        const Frame *frame = &g_array_index (frames, Frame, i);
        g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

        g_assert_cmpint (_agui_proto_event_to_value (frame->data, frame->length, NULL, &value, NULL), ==,
                         AGUI_PROTO_OK);
      }
    report ("protobuf: bytes to the tree only (walk, protobuf-c, convert)", seconds_since (start), n);
  }

  /* The candidates side by side, on the text deltas. */
  {
    guint m = content->len;

    start = g_get_monotonic_time ();
    for (guint i = 0; i < m; i++)
      {
        const Frame *frame = &g_array_index (content, Frame, i);
        g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

        _agui_proto_event_to_value (frame->data, frame->length, NULL, &value, NULL);
      }
    report ("deltas: protobuf-c and the schema-driven conversion", seconds_since (start), m);

    start = g_get_monotonic_time ();
    for (guint i = 0; i < m; i++)
      {
        const Frame *frame = &g_array_index (content, Frame, i);
        g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

        g_assert_true (hand_decode_content (frame->data, frame->length, &value));
      }
    report ("deltas: hand-written reader of the one event kind", seconds_since (start), m);
  }

  return 0;
}
