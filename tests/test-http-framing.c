/* test-http-framing.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-http-framing-private.h"

#include "agui-test-proto.h"
#include "agui-test-util.h"

/* The one place an HTTP body's framing is chosen, without a network:
 * what a transport asks for, how a response's Content-Type is read, and
 * the body reader handing either framing to the same stream.
 * test-http-transport checks the same through a server. */

static const char * const events[] = {
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}",
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}",
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hé, there 🎉\"}",
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}",
};

/* Every item of @stream until its end, events as their type names and
 * error items as "error:" and their message. */
static GPtrArray *
drain (AguiEventStream *stream)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

  for (;;)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) error = NULL;

      agui_event_stream_next_async (stream, NULL, agui_test_store_result_cb, &result);
      agui_test_wait_for_result (&result, 5000);
      event = agui_event_stream_next_finish (stream, result, &error);
      if (event != NULL)
        g_ptr_array_add (items, g_strdup (agui_event_get_type_name (event)));
      else if (error != NULL)
        g_ptr_array_add (items, g_strconcat ("error:", error->message, NULL));
      else
        break;

      if (error != NULL && agui_event_stream_is_ended (stream))
        break;
    }

  return items;
}

/* @body pushed in pieces of @piece bytes, then the end. */
static GPtrArray *
read_body (AguiHttpFraming  framing,
           const guint8    *body,
           gsize            length,
           gsize            piece)
{
  g_autoptr(AguiEventStream) stream = agui_event_stream_new ();
  g_autoptr(AguiHttpBodyReader) reader = NULL;
  g_autoptr(GError) error = NULL;

  reader = _agui_http_body_reader_new (framing, stream, 0, NULL);
  for (gsize offset = 0; offset < length; offset += piece)
    {
      g_assert_true (_agui_http_body_reader_push (reader, body + offset, MIN (piece, length - offset), &error));
      g_assert_no_error (error);
    }
  g_assert_true (_agui_http_body_reader_finish (reader, &error));
  g_assert_no_error (error);
  agui_event_stream_end (stream, NULL);

  return drain (stream);
}

static void
test_accept (void)
{
  g_test_summary ("A transport asks for exactly one media type, the one of its encoding");

  g_assert_cmpstr (_agui_http_framing_get_accept (AGUI_HTTP_ENCODING_SSE), ==, "text/event-stream");
  g_assert_cmpstr (_agui_http_framing_get_accept (AGUI_HTTP_ENCODING_PROTOBUF), ==,
                   "application/vnd.ag-ui.event+proto");
}

static void
test_content_type (void)
{
  static const struct
  {
    const char      *content_type;   /* NULL: no header */
    AguiHttpFraming  framing;
  } cases[] = {
    { NULL, AGUI_HTTP_FRAMING_SSE },
    { "text/event-stream", AGUI_HTTP_FRAMING_SSE },
    { "Text/Event-Stream; charset=utf-8", AGUI_HTTP_FRAMING_SSE },
    { "application/vnd.ag-ui.event+proto", AGUI_HTTP_FRAMING_PROTOBUF },
    { "APPLICATION/VND.AG-UI.EVENT+PROTO ; q=1", AGUI_HTTP_FRAMING_PROTOBUF },
    { "text/html; charset=utf-8", AGUI_HTTP_FRAMING_NONE },
    { "application/json", AGUI_HTTP_FRAMING_NONE },
    { "text/event-stream-ish", AGUI_HTTP_FRAMING_NONE },
  };

  g_test_summary ("A response's Content-Type chooses the framing, parameters and case aside; "
                  "none at all is read as SSE, anything else is no AG-UI body");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SoupMessageHeaders) headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);

      if (cases[i].content_type != NULL)
        soup_message_headers_replace (headers, "Content-Type", cases[i].content_type);
      g_assert_cmpint (_agui_http_framing_for_response (headers), ==, cases[i].framing);
    }
}

static void
test_same_events (void)
{
  g_autoptr(GString) sse = g_string_new (NULL);
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  g_autoptr(GPtrArray) from_sse = NULL;
  g_autoptr(GPtrArray) from_proto = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Either framing, cut anywhere, gives the same events on the stream");

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_string_append_printf (sse, "data: %s\n\n", events[i]);
      g_assert_true (agui_test_proto_append_json (frames, events[i], &error));
      g_assert_no_error (error);
    }

  for (gsize piece = 1; piece <= 64; piece *= 4)
    {
      g_clear_pointer (&from_sse, g_ptr_array_unref);
      g_clear_pointer (&from_proto, g_ptr_array_unref);
      from_sse = read_body (AGUI_HTTP_FRAMING_SSE, (const guint8 *) sse->str, sse->len, piece);
      from_proto = read_body (AGUI_HTTP_FRAMING_PROTOBUF, frames->data, frames->len, piece);

      g_assert_cmpuint (from_sse->len, ==, G_N_ELEMENTS (events));
      g_assert_cmpuint (from_proto->len, ==, from_sse->len);
      for (guint i = 0; i < from_sse->len; i++)
        g_assert_cmpstr (g_ptr_array_index (from_proto, i), ==, g_ptr_array_index (from_sse, i));
      g_assert_cmpstr (g_ptr_array_index (from_sse, 0), ==, "RUN_STARTED");
    }
}

static void
test_cut_off (void)
{
  g_autoptr(AguiEventStream) stream = agui_event_stream_new ();
  g_autoptr(AguiHttpBodyReader) reader = _agui_http_body_reader_new (AGUI_HTTP_FRAMING_PROTOBUF, stream, 0, NULL);
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  g_test_summary ("A binary body that ends inside a frame is an error");

  g_assert_true (agui_test_proto_append_json (frames, events[0], &error));
  g_assert_no_error (error);

  g_assert_true (_agui_http_body_reader_push (reader, frames->data, frames->len - 1, &error));
  g_assert_no_error (error);
  g_assert_false (_agui_http_body_reader_finish (reader, &error));
  g_assert_nonnull (error);
}

static void
test_frame_cap (void)
{
  g_autoptr(AguiEventStream) stream = agui_event_stream_new ();
  g_autoptr(AguiHttpBodyReader) reader = _agui_http_body_reader_new (AGUI_HTTP_FRAMING_SSE, stream, 64, NULL);
  g_autoptr(GString) body = g_string_new ("data: ");
  g_autoptr(GError) error = NULL;

  g_test_summary ("An SSE frame over the cap ends the body with the transport's message");

  for (guint i = 0; i < 200; i++)
    g_string_append_c (body, 'x');

  g_assert_false (_agui_http_body_reader_push (reader, (const guint8 *) body->str, body->len, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  g_assert_nonnull (strstr (error->message, "larger than the maximum frame size of 64 bytes"));
}

static void
test_closed (void)
{
  g_autoptr(AguiEventStream) stream = agui_event_stream_new ();
  g_autoptr(AguiHttpBodyReader) reader = _agui_http_body_reader_new (AGUI_HTTP_FRAMING_SSE, stream, 0, NULL);
  g_autoptr(GError) error = NULL;
  const char *sse = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n";

  g_test_summary ("Once the consumer has closed the stream, a push says stop without an error");

  agui_event_stream_close (stream);
  g_assert_false (_agui_http_body_reader_push (reader, (const guint8 *) sse, strlen (sse), &error));
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/http-framing/accept", test_accept);
  g_test_add_func ("/agui/http-framing/content-type", test_content_type);
  g_test_add_func ("/agui/http-framing/same-events", test_same_events);
  g_test_add_func ("/agui/http-framing/cut-off", test_cut_off);
  g_test_add_func ("/agui/http-framing/frame-cap", test_frame_cap);
  g_test_add_func ("/agui/http-framing/closed", test_closed);

  return g_test_run ();
}
