/* test-http-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-error-private.h"
#include "agui-pipeline-private.h"
#include "agui-transport-private.h"
#include "agui-test-server.h"

/* Every wait is bounded: a bug fails the test instead of hanging it. */
#define WAIT_MS 5000

#define RUN_STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"
#define TEXT_START "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}"
#define TEXT_CONTENT "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hé, there\"}"
#define TEXT_END "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}"
#define RUN_FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"

#define INPUT_JSON \
  "{\"threadId\":\"t1\",\"runId\":\"r1\",\"state\":{},\"messages\":" \
  "[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"héllo\"}]," \
  "\"tools\":[],\"context\":[],\"forwardedProps\":{}}"

typedef struct
{
  AguiTestServer *server;
} Fixture;

/* What a stream gave, in order: event type names and "ERROR" for error
 * items and the end error alike, those errors kept aside. */
typedef struct
{
  GPtrArray *items;
  GPtrArray *errors;
  gboolean   ended;
} Collected;

static void
collected_clear (Collected *collected)
{
  g_clear_pointer (&collected->items, g_ptr_array_unref);
  g_clear_pointer (&collected->errors, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Collected, collected_clear)

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  g_assert_nonnull (f->server);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->server);
}

static JsonNode *
make_input (void)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (INPUT_JSON, &error);

  g_assert_no_error (error);
  return node;
}

/* g_initable_new() asserting success: the URL and what the test sets. */
static AguiHttpTransport *
new_transport_with (const char *first_property,
                    ...)
{
  g_autoptr(GError) error = NULL;
  GObject *transport;
  va_list args;

  va_start (args, first_property);
  transport = g_initable_new_valist (AGUI_TYPE_HTTP_TRANSPORT, first_property, args, NULL, &error);
  va_end (args);
  g_assert_no_error (error);
  g_assert_nonnull (transport);

  return AGUI_HTTP_TRANSPORT (transport);
}

static AguiHttpTransport *
new_transport (Fixture *f)
{
  return new_transport_with ("url", agui_test_server_get_url (f->server), NULL);
}

static AguiEventStream *
run_within (AguiHttpTransport  *transport,
            GCancellable       *cancellable,
            guint               wait_ms,
            GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) input = make_input ();

  agui_transport_run_async (AGUI_TRANSPORT (transport), input, cancellable,
                            agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, wait_ms));

  return agui_transport_run_finish (AGUI_TRANSPORT (transport), result, error);
}

static AguiEventStream *
run (AguiHttpTransport  *transport,
     GCancellable       *cancellable,
     GError            **error)
{
  return run_within (transport, cancellable, WAIT_MS, error);
}

static AguiEventStream *
run_ok (AguiHttpTransport *transport)
{
  g_autoptr(GError) error = NULL;
  AguiEventStream *stream = run (transport, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (stream);
  return stream;
}

/* The next item; FALSE at the end of the stream. */
static gboolean
next_item (AguiEventStream  *stream,
           AguiEvent       **event,
           GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *local_error = NULL;

  agui_event_stream_next_async (stream, NULL, agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));

  *event = agui_event_stream_next_finish (stream, result, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return TRUE;
    }

  return *event != NULL;
}

static AguiEvent *
next_event (AguiEventStream *stream)
{
  g_autoptr(GError) error = NULL;
  AguiEvent *event = NULL;

  g_assert_true (next_item (stream, &event, &error));
  g_assert_no_error (error);
  g_assert_nonnull (event);
  return event;
}

static void
collect (AguiEventStream *stream,
         Collected       *collected)
{
  collected->items = g_ptr_array_new_with_free_func (g_free);
  collected->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);

  for (guint i = 0; i < 10000; i++)
    {
      g_autoptr(AguiEvent) event = NULL;
      GError *error = NULL;

      if (!next_item (stream, &event, &error))
        {
          collected->ended = TRUE;
          return;
        }

      if (error != NULL)
        {
          g_ptr_array_add (collected->items, g_strdup ("ERROR"));
          g_ptr_array_add (collected->errors, error);
        }
      else
        {
          g_ptr_array_add (collected->items, g_strdup (agui_event_get_type_name (event)));
        }
    }

  g_assert_not_reached ();
}

static char *
items_to_string (Collected *collected)
{
  g_ptr_array_add (collected->items, NULL);
  g_ptr_array_set_size (collected->items, collected->items->len - 1);

  return g_strjoinv (" ", (char **) collected->items->pdata);
}

static void
assert_items (Collected  *collected,
              const char *expected)
{
  g_autofree char *items = items_to_string (collected);

  g_assert_true (collected->ended);
  g_assert_cmpstr (items, ==, expected);
}

static const GError *
last_error (Collected *collected)
{
  g_assert_cmpuint (collected->errors->len, >, 0);

  return g_ptr_array_index (collected->errors, collected->errors->len - 1);
}

static AguiTestResponse *
full_run_response (void)
{
  return agui_test_response_new_events (RUN_STARTED, TEXT_START, TEXT_CONTENT, TEXT_END,
                                        RUN_FINISHED, NULL);
}

#define FULL_RUN "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED"

static gint64
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1000;
}

/* The request */

static void
test_request_shape (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(JsonNode) input = make_input ();
  g_auto(GStrv) headers = NULL;
  g_auto(Collected) collected = { 0 };
  const AguiTestRequest *request;
  const char * const expected_headers[] = {
    "Authorization: Bearer token",
    "X-Tenant: acme",
    "Content-Type: application/json",
    "Accept: text/event-stream",
    NULL
  };

  g_test_summary ("One POST to the URL as configured, with the caller's headers and "
                  "exactly the transport's Accept and Content-Type");

  agui_test_server_push_response (f->server, full_run_response ());

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "headers", (const char * const[]) {
                                    "Authorization: Bearer token",
                                    "accept: */*",
                                    "X-Tenant: acme",
                                    "Content-Type: text/plain",
                                    NULL
                                  },
                                  NULL);

  g_assert_cmpstr (agui_http_transport_get_url (transport), ==, agui_test_server_get_url (f->server));
  headers = agui_http_transport_dup_headers (transport);
  g_assert_cmpstrv (headers, expected_headers);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (request->path, ==, "/agent");
  /* get_list joins repeated headers, so a second Accept would show. */
  g_assert_cmpstr (soup_message_headers_get_list (request->headers, "Accept"), ==, "text/event-stream");
  g_assert_cmpstr (soup_message_headers_get_list (request->headers, "Content-Type"), ==, "application/json");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer token");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "X-Tenant"), ==, "acme");
  g_assert_nonnull (request->json);
  g_assert_true (json_node_equal (request->json, input));
  /* Compact: exactly what json-glib writes without pretty-printing. */
  g_assert_cmpmem (g_bytes_get_data (request->body, NULL), g_bytes_get_size (request->body),
                   INPUT_JSON, strlen (INPUT_JSON));
}

/* The session's text of the input is what goes out, byte for byte: the
 * transport does not print the input again */
static void
test_request_body_given (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) input = make_input ();
  g_autoptr(GBytes) body = NULL;
  g_autofree char *spaced = NULL;
  g_auto(Collected) collected = { 0 };
  const AguiTestRequest *request;

  g_test_summary ("A body handed over with the input is sent as it is, not printed again from the input");

  /* The same JSON as the input, in bytes json-glib would never print */
  spaced = g_strdup_printf (" %s\n", INPUT_JSON);
  body = g_bytes_new (spaced, strlen (spaced));

  agui_test_server_push_response (f->server, full_run_response ());
  _agui_transport_run_body_async (AGUI_TRANSPORT (transport), input, body, NULL,
                                  agui_test_store_result_cb, &result);
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, WAIT_MS));
  stream = agui_transport_run_finish (AGUI_TRANSPORT (transport), result, &error);
  g_assert_no_error (error);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpmem (g_bytes_get_data (request->body, NULL), g_bytes_get_size (request->body),
                   spaced, strlen (spaced));
}

static void
assert_config_error (const char *url,
                     const char *header_line)
{
  const char * const headers[] = { header_line, NULL };
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, &error,
                              "url", url,
                              "headers", header_line != NULL ? headers : NULL,
                              NULL);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG);
  g_assert_null (transport);
}

static void
test_config_errors (void)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) headers = NULL;
  g_auto(GStrv) given = NULL;
  const char * const expected_headers[] = {
    "X-Tenant: acme\tcorp",
    "X-Trimmed: value",
    "Content-Type: application/json",
    "Accept: text/event-stream",
    NULL
  };

  g_test_summary ("Bad URLs and headers are refused when initialised, not when set");

  assert_config_error (NULL, NULL);
  assert_config_error ("not a url", NULL);
  assert_config_error ("", NULL);
  assert_config_error ("http://", NULL);
  assert_config_error ("ftp://example.com/agent", NULL);
  assert_config_error ("file:///tmp/agent", NULL);
  assert_config_error ("http://example.com/agent", "X Tenant: acme");
  assert_config_error ("http://example.com/agent", ": acme");
  assert_config_error ("http://example.com/agent", "X-Tenant acme");
  assert_config_error ("http://example.com/agent", "X-Tenant: acme\r\nX-Evil: 1");
  assert_config_error ("http://example.com/agent", "X-Tenant: acme\n");
  assert_config_error ("http://example.com/agent", "X-Tenant: a\001b");

  transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, &error,
                              "url", "https://example.com/agent?x=1",
                              "headers", (const char * const[]) { "X-Tenant: acme\tcorp", " X-Trimmed :\tvalue ", NULL },
                              "connect-timeout", 5000,
                              "timeout", 60000,
                              NULL);
  g_assert_no_error (error);
  g_assert_cmpstr (agui_http_transport_get_url (transport), ==, "https://example.com/agent?x=1");
  headers = agui_http_transport_dup_headers (transport);
  g_assert_cmpstrv (headers, expected_headers);
  g_object_get (transport, "headers", &given, NULL);
  g_assert_cmpuint (g_strv_length (given), ==, 2);
  g_assert_cmpstr (given[1], ==, " X-Trimmed :\tvalue ");
  g_assert_cmpuint (agui_http_transport_get_connect_timeout (transport), ==, 5000);
  g_assert_cmpuint (agui_http_transport_get_timeout (transport), ==, 60000);
  g_clear_object (&transport);

  transport = agui_http_transport_new ("http://127.0.0.1:1/agent", &error);
  g_assert_no_error (error);
  g_assert_true (AGUI_IS_TRANSPORT (transport));
}

static void
test_null_url (void)
{
  if (g_test_subprocess ())
    {
      agui_http_transport_new (NULL, NULL);
      return;
    }

  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*");
}

static void
test_uninitialised (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiHttpTransport) unset = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A transport constructed as a binding does, without g_initable_init(), "
                  "checks itself on its first run: a good one runs, one without a URL "
                  "fails that run with a configuration error instead of a critical");

  agui_test_server_push_response (f->server, full_run_response ());

  transport = g_object_new (AGUI_TYPE_HTTP_TRANSPORT, "url", agui_test_server_get_url (f->server), NULL);
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);

  unset = g_object_new (AGUI_TYPE_HTTP_TRANSPORT, NULL);
  g_assert_null (run (unset, NULL, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "URL"));
  g_clear_error (&error);

  /* The first answer stands: init says the same afterwards. */
  g_assert_false (g_initable_init (G_INITABLE (unset), NULL, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONFIG);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_default_session (void)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  guint timeout = G_MAXUINT;

  g_test_summary ("The transport's own session has no I/O timeout to cut a slow stream");

  transport = agui_http_transport_new ("http://127.0.0.1:1/agent", &error);
  g_assert_no_error (error);
  g_object_get (agui_http_transport_get_session (transport), "timeout", &timeout, NULL);
  g_assert_cmpuint (timeout, ==, 0);
}

/* Streaming */

static void
test_events_in_order (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  agui_test_server_push_response (f->server, full_run_response ());
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_cmpuint (collected.errors->len, ==, 0);
}

static void
test_corrupt_gzip (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_auto(Collected) collected = { 0 };
  static const guint8 body[] = { 0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x03, 0xff, 0xfe, 0xfd, 0x01, 0x02 };

  g_test_summary ("A compressed body that does not decompress says so");

  agui_test_response_add_header (response, "Content-Encoding", "gzip");
  agui_test_response_append_data (response, body, sizeof body);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  stream = run_ok (transport);
  collect (stream, &collected);
  for (guint i = 0; i < collected.errors->len; i++)
    g_test_message ("error: %s", ((GError *) g_ptr_array_index (collected.errors, i))->message);
  g_assert_cmpuint (collected.errors->len, >, 0);
  g_assert_nonnull (strstr (((GError *) g_ptr_array_index (collected.errors, collected.errors->len - 1))->message,
                            "compressed (Content-Encoding: gzip) and corrupt, so it could not be decompressed"));
}

static void
test_no_content_type (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A 2xx without a Content-Type is read as SSE, as the reference does");

  agui_test_response_set_content_type (response, NULL);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
}

static void
test_drip (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A body written one byte at a time gives the same events");

  agui_test_response_set_drip (response, 1);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==, AGUI_TEST_EXCHANGE_COMPLETE);
}

static void
test_first_event_before_stall (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_autoptr(AguiEvent) first = NULL;
  g_auto(Collected) collected = { 0 };
  const AguiTestRequest *request;
  gint64 started;

  g_test_summary ("The first event reaches the consumer while the agent still thinks");

  agui_test_response_append_event_json (response, RUN_STARTED);
  agui_test_response_append_stall (response, 1500);
  agui_test_response_append_event_json (response, RUN_FINISHED);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  started = g_get_monotonic_time ();
  stream = run_ok (transport);
  first = next_event (stream);
  g_assert_cmpstr (agui_event_get_type_name (first), ==, "RUN_STARTED");
  g_assert_cmpint (elapsed_ms (started), <, 1000);

  /* Proof that nothing more had been sent yet. */
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_STREAMING);
  g_assert_cmpuint (request->bytes_written, ==, strlen ("data: " RUN_STARTED "\n\n"));

  collect (stream, &collected);
  assert_items (&collected, "RUN_FINISHED");
  g_assert_cmpint (elapsed_ms (started), >=, 1500);
}

static void
test_slow_stream_within_connect_timeout (Fixture       *f,
                                         gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };
  gint64 started;

  g_test_summary ("The connect timeout bounds the setup only, never the stream");

  /* A connect timeout a loaded machine (an ASan build, in parallel with
   * other tests) still connects to loopback within, and a stream that
   * lasts well past it */
  agui_test_response_set_chunk_interval (response, 800);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "connect-timeout", 2000,
                                  NULL);

  started = g_get_monotonic_time ();
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_cmpint (elapsed_ms (started), >=, 4 * 800);
}

static void
test_missing_run_finished (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A body that ends without RUN_FINISHED ends the stream cleanly; "
                  "judging the run is the verifier's job");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RUN_STARTED, TEXT_START, NULL));
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START");
  g_assert_cmpuint (collected.errors->len, ==, 0);
}

static void
on_pipeline_event_cb (AguiEvent *event,
                      gpointer   user_data)
{
  g_ptr_array_add (user_data, g_strdup (agui_event_get_type_name (event)));
}

static void
on_pipeline_item_error_cb (const GError *error,
                           gpointer      user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("ERROR %s", error->message));
}

static void
test_same_byte_path (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GPtrArray) over_http = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) folded = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AguiPipeline) pipeline = NULL;
  g_autofree char *http_items = NULL;
  g_autofree char *folded_items = NULL;
  gboolean ended = FALSE;

  g_test_summary ("The HTTP transport turns bytes into events and error items exactly as the "
                  "pipeline the CLI and the conformance suite fold with: U+0000, nesting past "
                  "the limit and a frame cut by the end of the body included");

  g_string_append (body, "data: " RUN_STARTED "\n\ndata: " TEXT_START "\n\n");
  g_string_append (body, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\\u0000b\"}\n\n");
  g_string_append (body, "data: " TEXT_CONTENT "\n\ndata: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":");
  for (guint i = 0; i < 600; i++)
    g_string_append_c (body, '[');
  for (guint i = 0; i < 600; i++)
    g_string_append_c (body, ']');
  g_string_append (body, "}\n\ndata: " TEXT_END "\n\ndata: " RUN_FINISHED "\n\n");
  g_string_append (body, "data: {\"type\":\"TEXT_MESSAGE_ST");
  agui_test_response_append_data (response, body->str, body->len);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  while (!ended)
    {
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) error = NULL;

      if (!next_item (stream, &event, &error))
        ended = TRUE;
      else if (error != NULL)
        g_ptr_array_add (over_http, g_strdup_printf ("ERROR %s", error->message));
      else
        g_ptr_array_add (over_http, g_strdup (agui_event_get_type_name (event)));
    }

  pipeline = _agui_pipeline_new (NULL);
  _agui_pipeline_set_callbacks (pipeline, on_pipeline_event_cb, on_pipeline_item_error_cb, folded);
  for (gsize offset = 0; offset < body->len; offset += 7)
    g_assert_true (_agui_pipeline_push_bytes (pipeline, (const guint8 *) body->str + offset,
                                              MIN (7, body->len - offset)));
  _agui_pipeline_finish (pipeline);

  g_ptr_array_add (over_http, NULL);
  g_ptr_array_add (folded, NULL);
  http_items = g_strjoinv ("\n", (char **) over_http->pdata);
  folded_items = g_strjoinv ("\n", (char **) folded->pdata);
  g_assert_cmpstr (http_items, ==, folded_items);
  /* and the three bad frames are there, each said for what it is */
  g_assert_nonnull (strstr (http_items, "\\u0000"));
  g_assert_nonnull (strstr (http_items, "nested deeper than 512 levels"));
  g_assert_nonnull (strstr (http_items, "closed in the middle of an event"));
  g_assert_nonnull (strstr (http_items, "TEXT_MESSAGE_CONTENT\nERROR"));
  g_assert_true (g_str_has_prefix (strstr (http_items, "RUN_FINISHED\nERROR"),
                                   "RUN_FINISHED\nERROR The connection closed in the middle of an event"));
}

/* Failing to start */

static void
assert_run_fails (AguiHttpTransport *transport,
                  GQuark             domain,
                  int                code,
                  GError           **out_error)
{
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  stream = run (transport, NULL, &error);
  g_assert_null (stream);
  g_assert_error (error, domain, code);
  if (out_error != NULL)
    *out_error = g_steal_pointer (&error);
}

static void
test_http_500_html (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiTestResponse) response = NULL;
  g_autoptr(GString) html = g_string_new ("<html><body>");
  g_autoptr(GError) error = NULL;
  const AguiTestRequest *request;
  const char *details;
  const char *quoted;
  gint64 started;

  g_test_summary ("A 500 with a large HTML page fails with the status and a short reason; "
                  "the details quote the first 2048 characters (not bytes) of the body, "
                  "without the rest being read");

  /* Three bytes a character: a cut counting bytes would quote 683, and
   * the 1 KiB chunks below split characters. */
  while (html->len < 100 * 1024)
    g_string_append (html, "€");
  g_string_append (html, "</body></html>");

  response = agui_test_response_new ();
  agui_test_response_set_status (response, 500);
  agui_test_response_set_content_type (response, "text/html");
  for (gsize offset = 0; offset < html->len; offset += 1024)
    agui_test_response_append_data (response, html->str + offset, MIN (1024, html->len - offset));
  /* A page the server takes half a second to write. */
  agui_test_response_set_chunk_interval (response, 5);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  started = g_get_monotonic_time ();
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpint (elapsed_ms (started), <, 400);
  g_assert_cmpstr (error->message, ==, "The agent's server failed (HTTP 500): Internal Server Error");

  details = _agui_error_get_details (error);
  g_assert_nonnull (details);
  g_assert_true (g_str_has_prefix (details, "HTTP 500 Internal Server Error\nContent-Type: text/html\n\n<html><body>€€"));
  g_assert_true (g_utf8_validate (details, -1, NULL));
  quoted = strstr (details, "\n\n") + 2;
  g_assert_cmpint (g_utf8_strlen (quoted, -1), ==, 2048);

  /* The connection is dropped rather than the rest read. */
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_DISCONNECTED);
  g_assert_cmpuint (request->bytes_written, <, html->len);
}

static void
test_http_500_json (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(GError) error = NULL;

  g_test_summary ("A JSON error body gives its detail as the reason; the details quote it "
                  "as compact JSON, as the reference does");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (500, "application/json; charset=utf-8",
                                                                "{\n  \"error\" : \"internal\",\n"
                                                                "  \"detail\" : \"database unavailable\"\n}\n"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==, "The agent's server failed (HTTP 500): database unavailable");
  g_assert_cmpstr (_agui_error_get_details (error), ==,
                   "HTTP 500 Internal Server Error\nContent-Type: application/json; charset=utf-8\n\n"
                   "{\"error\":\"internal\",\"detail\":\"database unavailable\"}");
}

static void
test_http_401 (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(GError) error = NULL;

  g_test_summary ("401 and 403 say to check the token in Preferences");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (401, "text/plain", "bad token"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==,
                   "The agent's server refused the credentials (HTTP 401): bad token; "
                   "check the agent's token in Preferences");
  g_clear_error (&error);

  /* No body: the reason phrase says what the status means. */
  agui_test_server_push_response (f->server, agui_test_response_new_error (401, "text/plain", NULL));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==,
                   "The agent's server refused the credentials (HTTP 401): Unauthorized; "
                   "check the agent's token in Preferences");
  g_clear_error (&error);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (403, "application/json",
                                                                "{\"error\":{\"message\":\"Key expired\",\"code\":7}}"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==,
                   "The agent's server refused the credentials (HTTP 403): Key expired; "
                   "check the agent's token in Preferences");
}

static void
test_http_404 (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  g_test_summary ("A 404 says that no agent is at the URL; a 422's FastAPI detail list gives its first message");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (404, "text/html", "<h1>Not Found</h1>"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  expected = g_strdup_printf ("There is no AG-UI agent at %s (HTTP 404): Not Found; check the agent's URL",
                              agui_test_server_get_url (f->server));
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (422, "application/json",
                                                                "{\"detail\":[{\"loc\":[\"body\",\"runId\"],"
                                                                "\"msg\":\"field required\"}]}"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==, "The agent's server rejected the request (HTTP 422): field required");
  g_clear_error (&error);

  agui_test_server_push_response (f->server, agui_test_response_new_error (503, NULL, NULL));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_cmpstr (error->message, ==,
                   "The agent's server is unavailable (HTTP 503): Service Unavailable; try again later");
}

static void
test_not_an_event_stream (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  g_test_summary ("A 200 web page is no event stream: the error says the URL does not look "
                  "like an AG-UI endpoint and names the Content-Type; the page is in the details");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (200, "text/html; charset=utf-8",
                                                                "<!doctype html><title>Welcome</title>"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_UNSUPPORTED, &error);
  expected = g_strdup_printf ("%s does not look like an AG-UI endpoint: it answered with "
                              "text/html; charset=utf-8 instead of an event stream; check the agent's URL",
                              agui_test_server_get_url (f->server));
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpstr (_agui_error_get_details (error), ==,
                   "Content-Type: text/html; charset=utf-8\n\n<!doctype html><title>Welcome</title>");
  g_clear_error (&error);

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_error (200, "application/json", "{\"status\":\"ok\"}"));
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_UNSUPPORTED, &error);
  g_assert_nonnull (strstr (error->message, "answered with application/json instead of an event stream"));
}

static void
test_content_type_parameters (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  const char * const types[] = { "text/event-stream; charset=utf-8", "Text/Event-Stream", "text/event-stream;charset=UTF-8", NULL };

  g_test_summary ("An event stream is recognised whatever its parameters and case");

  for (guint i = 0; types[i] != NULL; i++)
    {
      g_autoptr(AguiTestResponse) response = full_run_response ();
      g_autoptr(AguiEventStream) stream = NULL;
      g_auto(Collected) collected = { 0 };

      agui_test_response_set_content_type (response, types[i]);
      agui_test_server_push_response (f->server, g_steal_pointer (&response));
      stream = run_ok (transport);
      collect (stream, &collected);
      assert_items (&collected, FULL_RUN);
    }
}

/* The binary encoding */

static AguiHttpTransport *
new_proto_transport (Fixture *f,
                     gsize    max_frame_size)
{

  return new_transport_with ("url", agui_test_server_get_url (f->server),
                             "encoding", AGUI_HTTP_ENCODING_PROTOBUF,
                             "max-frame-size", (guint64) max_frame_size,
                             NULL);
}

static AguiTestResponse *
full_run_proto_response (void)
{
  return agui_test_response_new_proto_events (RUN_STARTED, TEXT_START, TEXT_CONTENT, TEXT_END,
                                              RUN_FINISHED, NULL);
}

static void
test_protobuf (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_proto_transport (f, 0);
  g_autoptr(AguiTestResponse) response = full_run_proto_response ();
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiEvent) event = NULL;
  g_auto(GStrv) headers = agui_http_transport_dup_headers (transport);
  g_auto(Collected) collected = { 0 };
  const AguiTestRequest *request;

  g_test_summary ("An agent set to protobuf is asked for exactly the binary type, and its frames, "
                  "arriving a byte at a time, are the run's events");

  g_assert_cmpint (agui_http_transport_get_encoding (transport), ==, AGUI_HTTP_ENCODING_PROTOBUF);
  g_assert_true (g_strv_contains ((const char * const *) headers, "Accept: application/vnd.ag-ui.event+proto"));

  agui_test_response_set_drip (response, 1);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  stream = run_ok (transport);
  g_assert_nonnull ((event = next_event (stream)));
  g_assert_cmpstr (agui_event_get_type_name (event), ==, "RUN_STARTED");
  collect (stream, &collected);
  assert_items (&collected, "TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED");

  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpstr (soup_message_headers_get_list (request->headers, "Accept"), ==,
                   "application/vnd.ag-ui.event+proto");
}

static void
test_protobuf_content_type (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) sse_transport = new_transport (f);
  g_autoptr(AguiHttpTransport) proto_transport = new_proto_transport (f, 0);
  const char * const types[] = {
    "application/vnd.ag-ui.event+proto",
    "application/vnd.ag-ui.event+proto; charset=binary",
    "Application/Vnd.AG-UI.Event+Proto;q=1",
    NULL
  };

  g_test_summary ("A binary body is recognised whatever its parameters and case, whichever "
                  "encoding was asked for; SSE sent to a protobuf agent is read as SSE");

  for (guint i = 0; types[i] != NULL; i++)
    for (guint j = 0; j < 2; j++)
      {
        g_autoptr(AguiTestResponse) response = full_run_proto_response ();
        g_autoptr(AguiEventStream) stream = NULL;
        g_auto(Collected) collected = { 0 };

        agui_test_response_set_content_type (response, types[i]);
        agui_test_server_push_response (f->server, g_steal_pointer (&response));
        stream = run_ok (j == 0 ? sse_transport : proto_transport);
        collect (stream, &collected);
        assert_items (&collected, FULL_RUN);
      }

  {
    g_autoptr(AguiEventStream) stream = NULL;
    g_auto(Collected) collected = { 0 };

    agui_test_server_push_response (f->server, full_run_response ());
    stream = run_ok (proto_transport);
    collect (stream, &collected);
    assert_items (&collected, FULL_RUN);
  }
}

static void
test_protobuf_malformed_frame (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_proto_transport (f, 0);
  g_autoptr(AguiTestResponse) response = agui_test_response_new_proto_events (RUN_STARTED, TEXT_START, NULL);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A binary frame that does not decode is refused like a malformed SSE frame, "
                  "and the frames after it are read; an unknown event kind is dropped");

  /* A frame of three bytes that are no protobuf message. */
  agui_test_response_append_data (response, "\0\0\0\3\xff\xff\xff", 7);
  /* Field 40: an event kind from a later protocol. */
  agui_test_response_append_data (response, "\0\0\0\6\xc2\x02\x03\x0a\x01x", 10);
  agui_test_response_append_proto_event (response, TEXT_CONTENT);
  agui_test_response_append_proto_event (response, TEXT_END);
  agui_test_response_append_proto_event (response, RUN_FINISHED);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START ERROR TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
  g_assert_cmpstr (last_error (&collected)->message, ==,
                   "Binary frame 3: Invalid event: the binary frame has a broken field tag at byte 3");
}

static void
test_protobuf_broken_length (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_proto_transport (f, 1024);
  g_autoptr(AguiTestResponse) response = agui_test_response_new_proto_events (RUN_STARTED, TEXT_START, NULL);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A length prefix over the frame cap ends the stream, saying what it announced, "
                  "the cap, and both ways it comes about");

  agui_test_response_append_data (response, "\x00\x10\x00\x00", 4);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START ERROR");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  g_assert_cmpstr (last_error (&collected)->message, ==,
                   "A binary frame announces 1.0 MiB (1048576 bytes), more than the maximum frame size "
                   "of 1.0 KiB (1024 bytes): its length prefix is broken, or the event is that large "
                   "(then raise the agent's maximum frame size, in Preferences or --max-frame-size "
                   "for tandem-cli)");
  /* The stalled connection was let go rather than waited on. */
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
}

static void
test_protobuf_truncated (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_proto_transport (f, 0);
  g_autoptr(AguiTestResponse) response = agui_test_response_new_proto_events (RUN_STARTED, TEXT_START, NULL);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A binary body that ends inside a frame says the connection ended before the "
                  "answer was complete");

  agui_test_response_append_data (response, "\0\0\0\x20\x0a\x02", 6);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START ERROR");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (last_error (&collected)->message, ==,
                   "The connection to the agent ended inside binary frame 3 (2 of its 32 bytes), "
                   "before the answer was complete; try again");
}

/* A run with a bit of everything the reducer folds. */
static const char * const rich_run[] = {
  RUN_STARTED,
  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"count\":1,\"items\":[\"a\"],\"ratio\":0.5}}",
  "{\"type\":\"REASONING_START\",\"messageId\":\"r1\"}",
  "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"reasoning\"}",
  "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r1\",\"delta\":\"Let me look.\"}",
  "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r1\"}",
  "{\"type\":\"REASONING_END\",\"messageId\":\"r1\"}",
  TEXT_START,
  TEXT_CONTENT,
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
  "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"q\\\":\\\"é\\\"}\"}",
  "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}",
  "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"c1\",\"content\":\"42\",\"role\":\"tool\"}",
  "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/items/-\",\"value\":\"b\"},"
  "{\"op\":\"replace\",\"path\":\"/count\",\"value\":2}]}",
  TEXT_END,
  "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m2\",\"delta\":\"Done.\"}",
  RUN_FINISHED,
};

static JsonNode *
send_and_fold (Fixture          *f,
               AguiTestResponse *response,
               AguiHttpEncoding  encoding)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) folded = json_object_new ();
  AguiTranscript *transcript;

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "encoding", encoding,
                                  NULL);
  session = agui_agent_session_new (AGUI_TRANSPORT (transport));

  agui_test_response_set_drip (response, 1);
  agui_test_server_push_response (f->server, response);
  agui_agent_session_send_async (session, "Hello", NULL, NULL, agui_test_store_result_cb, &result);
  /* A byte a millisecond is seconds of body; slower under ASan. */
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) &result, 12 * WAIT_MS));
  state = agui_agent_session_send_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (state);

  transcript = agui_agent_session_get_transcript (session);
  g_assert_cmpstr (agui_run_state_get_error_message (agui_transcript_get_run_state (transcript)), ==, NULL);
  json_object_set_array_member (folded, "messages", agui_transcript_to_messages (transcript, TRUE));
  /* The person's message has an id of its own each time. */
  json_object_set_string_member (json_array_get_object_element (json_object_get_array_member (folded, "messages"), 0),
                                 "id", "user");
  json_object_set_member (folded, "state", json_node_copy (agui_transcript_get_state (transcript)));

  return json_node_init_object (json_node_alloc (), folded);
}

static void
test_protobuf_same_transcript (Fixture       *f,
                               gconstpointer  data)
{
  AguiTestResponse *sse = agui_test_response_new ();
  AguiTestResponse *proto = agui_test_response_new ();
  g_autoptr(JsonNode) from_sse = NULL;
  g_autoptr(JsonNode) from_proto = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("The same run sent in both encodings, a byte at a time, leaves the same transcript");

  agui_test_response_set_content_type (proto, "application/vnd.ag-ui.event+proto");
  for (guint i = 0; i < G_N_ELEMENTS (rich_run); i++)
    {
      agui_test_response_append_event_json (sse, rich_run[i]);
      agui_test_response_append_proto_event (proto, rich_run[i]);
    }

  from_sse = send_and_fold (f, sse, AGUI_HTTP_ENCODING_SSE);
  from_proto = send_and_fold (f, proto, AGUI_HTTP_ENCODING_PROTOBUF);
  g_assert_cmpstr (soup_message_headers_get_list (agui_test_server_get_request (f->server, 0)->headers, "Accept"),
                   ==, "text/event-stream");
  g_assert_cmpstr (soup_message_headers_get_list (agui_test_server_get_request (f->server, 1)->headers, "Accept"),
                   ==, "application/vnd.ag-ui.event+proto");

  text = json_to_string (from_proto, FALSE);
  /* Not trivially equal: the run's text, tool result and state are there. */
  g_assert_nonnull (strstr (text, "Hé, there"));
  g_assert_nonnull (strstr (text, "\"content\":\"Done.\""));
  g_assert_nonnull (strstr (text, "\"count\":2"));
  g_assert_nonnull (strstr (text, "\"content\":\"42\""));
  g_assert_true (json_node_equal (from_sse, from_proto));
}

static void
test_connection_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;

  g_test_summary ("Nobody listening is AGUI_ERROR_CONNECT saying that nothing listens at the URL");

  /* Bound but not listening: a port nobody else can take meanwhile. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, 0);
  g_socket_bind (socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  url = g_strdup_printf ("http://127.0.0.1:%u/agent",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  transport = agui_http_transport_new (url, &error);
  g_assert_no_error (error);

  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_CONNECT, &error);
  expected = g_strdup_printf ("Nothing is listening at %s: check that the agent's server is running "
                              "and that the URL (host and port) is right", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_nonnull (_agui_error_get_details (error));
}

/* A TCP server that accepts and never says a word: a TLS handshake with
 * it never completes, which is a connection that cannot be set up. */
typedef struct
{
  GSocketListener *listener;
  GPtrArray       *connections;
  guint16          port;
} SilentServer;

static void
on_silent_accept_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  SilentServer *server = user_data;
  GSocketConnection *connection;

  connection = g_socket_listener_accept_finish (G_SOCKET_LISTENER (object), result, NULL, NULL);
  if (connection == NULL)
    return;

  g_ptr_array_add (server->connections, connection);
  g_socket_listener_accept_async (server->listener, NULL, on_silent_accept_cb, server);
}

static void
silent_server_start (SilentServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) effective = NULL;

  server->listener = g_socket_listener_new ();
  server->connections = g_ptr_array_new_with_free_func (g_object_unref);
  g_socket_listener_add_address (server->listener, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                 NULL, &effective, &error);
  g_assert_no_error (error);
  server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_socket_listener_accept_async (server->listener, NULL, on_silent_accept_cb, server);
}

static void
silent_server_stop (SilentServer *server)
{
  g_socket_listener_close (server->listener);
  g_clear_object (&server->listener);
  g_clear_pointer (&server->connections, g_ptr_array_unref);
}

static void
test_connect_timeout (void)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;
  SilentServer server = { 0 };
  gint64 started;

  g_test_summary ("A connection that cannot be set up (a TLS handshake never answered) "
                  "fails at the connect timeout, with its own message");

  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    {
      g_test_skip ("No TLS backend (glib-networking) to start a handshake with");
      return;
    }

  silent_server_start (&server);
  url = g_strdup_printf ("https://127.0.0.1:%u/agent", server.port);
  transport = new_transport_with ("url", url,
                                  "connect-timeout", 200,
                                  NULL);

  /* The first TLS connection of a process loads the TLS backend and the
   * system's certificates, blocking the main loop (for seconds under
   * ASan); that one-time cost is not the timeout's, so it is paid first. */
  g_assert_null (run_within (transport, NULL, 60000, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_CONNECT);
  g_clear_error (&error);

  started = g_get_monotonic_time ();
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_CONNECT, &error);
  g_assert_cmpint (elapsed_ms (started), >=, 200);
  /* Without the timeout the handshake waits forever; a loaded machine
   * under ASan took 4 s to notice one of 200 ms */
  g_assert_cmpint (elapsed_ms (started), <, 20000);
  expected = g_strdup_printf ("Could not connect to %s within 200 ms (the connect timeout): "
                              "check the network and the agent's URL", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (server.connections->len, ==, 2);

  silent_server_stop (&server);
}

static void
test_slow_headers_within_idle_timeout (Fixture       *f,
                                       gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };
  g_autoptr(GError) error = NULL;
  gint64 started;

  g_test_summary ("An agent that thinks before its headers (35 s against 30 s, scaled down) "
                  "is waited for: the connect timeout bounds only the connection");

  /* Room for a loaded machine to connect, then headers well after */
  agui_test_response_set_headers_delay (response, 4500);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  /* 1.5 s was missed by a sanitizer build on a machine loaded 7× over:
   * the server answers from this process's own main loop */
  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "connect-timeout", 3000,
                                  NULL);

  /* The headers come 4.5 s in: the wait for the run allows for that on
   * top of the usual margin, which a loaded sanitizer build used up */
  started = g_get_monotonic_time ();
  stream = run_within (transport, NULL, 4500 + WAIT_MS, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stream);
  g_assert_cmpint (elapsed_ms (started), >=, 4500);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
}

static void
test_idle_timeout_before_headers (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  gint64 started;

  g_test_summary ("Headers slower than the idle timeout fail the call with the idle timeout's message");

  agui_test_response_set_headers_delay (response, 3000);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "connect-timeout", 1000,
                                  "idle-timeout", 400,
                                  NULL);
  g_assert_cmpuint (agui_http_transport_get_idle_timeout (transport), ==, 400);

  started = g_get_monotonic_time ();
  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_CONNECT, &error);
  g_assert_cmpint (elapsed_ms (started), >=, 400);
  g_assert_cmpint (elapsed_ms (started), <, 2500);
  expected = g_strdup_printf ("The agent at %s did not start answering within 400 ms (the idle timeout); "
                              "an agent that thinks longer before it answers needs a longer idle timeout",
                              agui_test_server_get_url (f->server));
  g_assert_cmpstr (error->message, ==, expected);

  /* The request was given up, and the server sees it go. */
  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_idle_timeout_mid_stream (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_auto(Collected) collected = { 0 };
  const GError *error;
  gint64 started;

  g_test_summary ("A stream that stalls mid-answer ends at the idle timeout with AGUI_ERROR_STREAM, "
                  "after the events that came, and hangs up");

  agui_test_response_append_event_json (response, RUN_STARTED);
  agui_test_response_append_event_json (response, TEXT_START);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "idle-timeout", 300,
                                  NULL);

  started = g_get_monotonic_time ();
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START ERROR");
  error = last_error (&collected);
  g_assert_error ((GError *) error, AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (error->message, ==,
                   "The agent stopped sending before the answer was complete: nothing arrived for "
                   "300 ms (the idle timeout); try again, or raise the idle timeout for a slow agent");
  g_assert_cmpint (elapsed_ms (started), >=, 300);
  g_assert_cmpint (elapsed_ms (started), <, 2500);

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_idle_timeout_restarts (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };
  gint64 started;

  g_test_summary ("Each arrival starts the idle timeout over: a stream longer than it, "
                  "with shorter gaps, completes");

  agui_test_response_set_headers_delay (response, 250);
  agui_test_response_set_chunk_interval (response, 250);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "idle-timeout", 600,
                                  NULL);

  started = g_get_monotonic_time ();
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_cmpint (elapsed_ms (started), >=, 5 * 250);
}

static void
test_run_timeout_before_headers (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_autoptr(GError) error = NULL;

  g_test_summary ("The whole-run timeout also bounds the wait for headers");

  agui_test_response_set_headers_delay (response, 3000);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "connect-timeout", 10000,
                                  "timeout", 200,
                                  NULL);

  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_CONNECT, &error);
  g_assert_true (g_str_has_suffix (error->message, "did not answer within 200 ms, the time limit of a whole run"));
}

static void
test_cancel_before_headers (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  gint64 started;

  g_test_summary ("Cancelling before the headers fails the call with G_IO_ERROR_CANCELLED");

  agui_test_response_set_headers_delay (response, 3000);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  g_timeout_add_once (100, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  started = g_get_monotonic_time ();
  stream = run (transport, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (stream);
  g_assert_cmpint (elapsed_ms (started), <, 2000);

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_cancelled_already (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  agui_test_server_push_response (f->server, full_run_response ());
  g_cancellable_cancel (cancellable);
  stream = run (transport, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (stream);
}

/* Failing mid-stream */

static void
test_run_timeout (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_auto(Collected) collected = { 0 };
  const GError *error;
  gint64 started;

  g_test_summary ("The whole-run timeout cuts a stalled stream with AGUI_ERROR_STREAM");

  agui_test_response_append_event_json (response, RUN_STARTED);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "timeout", 300,
                                  NULL);

  started = g_get_monotonic_time ();
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED ERROR");
  error = last_error (&collected);
  g_assert_error ((GError *) error, AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (error->message, ==, "The run took longer than its time limit of 300 ms, and the answer is incomplete");
  g_assert_cmpint (elapsed_ms (started), >=, 300);
  g_assert_cmpint (elapsed_ms (started), <, 2000);

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

/* An agent that keeps the connection open with SSE comments only,
 * every 100 ms, for far longer than any test waits. */
static AguiTestResponse *
comments_response (guint n_comments)
{
  AguiTestResponse *response = agui_test_response_new ();

  agui_test_response_set_chunk_interval (response, 100);
  agui_test_response_append_event_json (response, RUN_STARTED);
  for (guint i = 0; i < n_comments; i++)
    agui_test_response_append_data (response, ": keep-alive\n\n", -1);

  return response;
}

static void
test_comments_keep_alive (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = comments_response (10);
  g_auto(Collected) collected = { 0 };

  g_test_summary ("SSE comments are life: a slow agent's keep-alives, far apart from its events, "
                  "keep the idle timeout from cutting it off");

  agui_test_response_append_event_json (response, RUN_FINISHED);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "idle-timeout", 300,
                                  NULL);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED RUN_FINISHED");
}

static void
test_comments_only_run_timeout (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };
  const GError *error;

  g_test_summary ("A run an agent keeps alive with comments alone ends at the whole-run timeout");

  agui_test_server_push_response (f->server, comments_response (3000));
  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "idle-timeout", 300,
                                  "timeout", 1000,
                                  NULL);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED ERROR");
  error = last_error (&collected);
  g_assert_error ((GError *) error, AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpstr (error->message, ==, "The run took longer than its time limit of 1 s, and the answer is incomplete");

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_run_timeout_not_reached (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A run done within the timeout is not touched by it later");

  agui_test_server_push_response (f->server, full_run_response ());
  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "timeout", 200,
                                  NULL);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  /* The 200 ms timeout must not fire once the run is done: wait past it */
  agui_test_wait_to_rule_out (300, "the run timeout firing after the run ended");
  g_assert_cmpuint (collected.errors->len, ==, 0);
}

static void
test_reset_mid_stream (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A connection dropped mid-stream gives the events before it, "
                  "then an AGUI_ERROR_STREAM end");

  response = agui_test_response_new_events (RUN_STARTED, TEXT_START, NULL);
  agui_test_response_append_data (response, "data: {\"type\":\"TEXT_MES", -1);
  agui_test_response_append_reset (response);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED TEXT_MESSAGE_START ERROR");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_STREAM);
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==, AGUI_TEST_EXCHANGE_RESET);
}

static void
test_invalid_utf8 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = NULL;
  g_auto(Collected) collected = { 0 };

  response = agui_test_response_new_events (RUN_STARTED, NULL);
  agui_test_response_append_data (response,
                                  "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\","
                                  "\"delta\":\"\xff\xfe\"}\n\n", -1);
  agui_test_response_append_event_json (response, RUN_FINISHED);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED ERROR");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
}

static void
test_frame_over_cap (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = NULL;
  g_autofree char *padding = g_strnfill (500, 'x');
  g_autofree char *big = NULL;
  g_auto(Collected) collected = { 0 };

  big = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"%s\"}", padding);
  response = agui_test_response_new_events (RUN_STARTED, big, RUN_FINISHED, NULL);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "max-frame-size", (guint64) 128,
                                  NULL);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED ERROR");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_INVALID_FRAME);
  /* The size, the cap and the way past it; the size is what had arrived
   * when the cap was passed, so a lower bound. */
  g_assert_true (g_regex_match_simple ("^An event of at least [0-9]+ bytes is larger than the maximum frame "
                                       "size of 128 bytes; raise the agent's maximum frame size \\(in "
                                       "Preferences, or --max-frame-size for tandem-cli\\) to accept it$",
                                       last_error (&collected)->message, 0, 0));
}

static void
test_malformed_frame (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };

  g_test_summary ("One malformed frame is an error item; the events after it still arrive");

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RUN_STARTED, "{not json", TEXT_START,
                                                                 TEXT_END, RUN_FINISHED, NULL));
  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, "RUN_STARTED ERROR TEXT_MESSAGE_START TEXT_MESSAGE_END RUN_FINISHED");
  g_assert_error ((GError *) last_error (&collected), AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
}

/* Closing */

static void
test_close_mid_run (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_autoptr(AguiEvent) first = NULL;
  const AguiTestRequest *request;
  gsize total = 0;
  gsize written;
  gint64 closed_at;

  g_test_summary ("Closing the stream closes the connection: the server stops writing");

  for (guint i = 0; i < 200; i++)
    {
      agui_test_response_append_event_json (response, i == 0 ? RUN_STARTED : TEXT_CONTENT);
      total += strlen ("data: \n\n") + strlen (i == 0 ? RUN_STARTED : TEXT_CONTENT);
    }
  agui_test_response_set_chunk_interval (response, 20);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  first = next_event (stream);
  g_assert_cmpstr (agui_event_get_type_name (first), ==, "RUN_STARTED");

  agui_event_stream_close (stream);
  closed_at = g_get_monotonic_time ();

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (elapsed_ms (closed_at), <, 1000);
  request = agui_test_server_get_request (f->server, 0);
  g_assert_cmpint (request->state, ==, AGUI_TEST_EXCHANGE_DISCONNECTED);

  written = request->bytes_written;
  g_assert_cmpuint (written, <, total);
  /* A chunk is due every 20 ms: ten of them would have been written */
  agui_test_wait_to_rule_out (200, "the server writing on after the close");
  g_assert_cmpuint (request->bytes_written, ==, written);
}

static void
test_close_during_stall (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = agui_test_response_new ();
  g_autoptr(AguiEvent) first = NULL;
  gint64 closed_at;

  g_test_summary ("Closing while the agent writes nothing still hangs up on it");

  agui_test_response_append_event_json (response, RUN_STARTED);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));

  stream = run_ok (transport);
  first = next_event (stream);
  g_assert_cmpstr (agui_event_get_type_name (first), ==, "RUN_STARTED");

  agui_event_stream_close (stream);
  closed_at = g_get_monotonic_time ();

  g_assert_true (agui_test_server_wait_for_end (f->server, 0, WAIT_MS));
  g_assert_cmpint (elapsed_ms (closed_at), <, 1000);
  g_assert_cmpint (agui_test_server_get_request (f->server, 0)->state, ==,
                   AGUI_TEST_EXCHANGE_DISCONNECTED);
}

static void
test_stream_outlives_transport (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport (f);
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(AguiTestResponse) response = full_run_response ();
  g_auto(Collected) collected = { 0 };

  g_test_summary ("A run stands alone: dropping the transport does not cut its stream");

  agui_test_response_set_chunk_interval (response, 20);
  agui_test_server_push_response (f->server, g_steal_pointer (&response));
  stream = run_ok (transport);
  g_clear_object (&transport);

  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
}

/* Redirects */

typedef struct
{
  AguiTestServer *server;
  AguiTestServer *other;
} RedirectFixture;

static void
redirect_set_up (RedirectFixture *f,
                 gconstpointer    data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->other = agui_test_server_new (&error);
  g_assert_no_error (error);
}

static void
redirect_tear_down (RedirectFixture *f,
                    gconstpointer    data)
{
  g_clear_object (&f->server);
  g_clear_object (&f->other);
}

static AguiHttpTransport *
new_transport_with_secrets (const char *url)
{
  return new_transport_with ("url", url,
                             "headers", (const char * const[]) {
                               "Authorization: Bearer secret",
                               "X-Api-Key: key",
                               "Cookie: session=1",
                               NULL
                             },
                             NULL);
}

static void
test_redirect_307_other_origin (RedirectFixture *f,
                                gconstpointer    data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport_with_secrets (agui_test_server_get_url (f->server));
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };
  g_autoptr(JsonNode) input = make_input ();
  const AguiTestRequest *request;

  g_test_summary ("A 307 to another port is followed with the same POST and body, "
                  "but none of the caller's headers reach the other origin");

  agui_test_server_push_response (f->server, agui_test_response_new_redirect (307, agui_test_server_get_url (f->other)));
  agui_test_server_push_response (f->other, full_run_response ());

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->other), ==, 1);
  request = agui_test_server_get_request (f->other, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_true (json_node_equal (request->json, input));
  g_assert_cmpstr (soup_message_headers_get_list (request->headers, "Accept"), ==, "text/event-stream");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Content-Type"), ==, "application/json");
  g_assert_null (soup_message_headers_get_one (request->headers, "Authorization"));
  g_assert_null (soup_message_headers_get_one (request->headers, "X-Api-Key"));
  g_assert_null (soup_message_headers_get_one (request->headers, "Cookie"));
}

static void
test_redirect_308_same_origin (RedirectFixture *f,
                               gconstpointer    data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport_with_secrets (agui_test_server_get_url (f->server));
  g_autoptr(AguiEventStream) stream = NULL;
  g_auto(Collected) collected = { 0 };
  const AguiTestRequest *request;

  g_test_summary ("A 308 within the agent's origin keeps the caller's headers and the body");

  agui_test_server_push_response (f->server, agui_test_response_new_redirect (308, "/v2/agent"));
  agui_test_server_push_response (f->server, full_run_response ());

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  request = agui_test_server_get_request (f->server, 1);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (request->path, ==, "/v2/agent");
  g_assert_nonnull (request->json);
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Authorization"), ==, "Bearer secret");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "X-Api-Key"), ==, "key");
  g_assert_cmpstr (soup_message_headers_get_one (request->headers, "Cookie"), ==, "session=1");
}

static void
test_redirect_302_not_followed (RedirectFixture *f,
                                gconstpointer    data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport_with_secrets (agui_test_server_get_url (f->server));
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  const guint statuses[] = { 301, 302, 303 };

  g_test_summary ("A 301, 302 or 303 is never turned into a GET: it is an error naming the new location, "
                  "and the other server hears nothing");

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      agui_test_server_push_response (f->server,
                                      agui_test_response_new_redirect (statuses[i], agui_test_server_get_url (f->other)));
      assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
      expected = g_strdup_printf ("The agent moved to %s (HTTP %u); a POST redirected this way is not "
                                  "followed, because it would be sent again as a GET without the run: "
                                  "set the agent's URL to the new location",
                                  agui_test_server_get_url (f->other), statuses[i]);
      g_assert_cmpstr (error->message, ==, expected);
      g_clear_error (&error);
      g_clear_pointer (&expected, g_free);
    }

  g_assert_cmpuint (agui_test_server_get_n_requests (f->other), ==, 0);
}

static void
test_redirect_loop (RedirectFixture *f,
                    gconstpointer    data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport_with_secrets (agui_test_server_get_url (f->server));
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  g_test_summary ("A redirect loop is a clear error, found on its first repetition");

  agui_test_server_push_response (f->server, agui_test_response_new_redirect (307, agui_test_server_get_url (f->other)));
  agui_test_server_push_response (f->other, agui_test_response_new_redirect (307, agui_test_server_get_url (f->server)));

  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  expected = g_strdup_printf ("The agent's server redirects in a loop (%s leads back to %s); "
                              "check the agent's URL and the server's configuration",
                              agui_test_server_get_url (f->other), agui_test_server_get_url (f->server));
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (agui_test_server_get_n_requests (f->other), ==, 1);
}

static void
test_redirect_too_many (RedirectFixture *f,
                        gconstpointer    data)
{
  g_autoptr(AguiHttpTransport) transport = new_transport_with_secrets (agui_test_server_get_url (f->server));
  g_autoptr(GError) error = NULL;

  g_test_summary ("At most five hops are followed");

  for (guint i = 1; i <= 7; i++)
    {
      g_autofree char *path = g_strdup_printf ("/hop%u", i);

      agui_test_server_push_response (f->server, agui_test_response_new_redirect (307, path));
    }

  assert_run_fails (transport, AGUI_ERROR, AGUI_ERROR_HTTP_STATUS, &error);
  g_assert_true (g_str_has_prefix (error->message, "The agent's server redirected the run more than 5 times (last to "));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 6);
}

/* A caller's session */

static void
on_request_queued_cb (SoupSession *session,
                      SoupMessage *message,
                      gpointer     user_data)
{
  guint *n_queued = user_data;

  (*n_queued)++;
}

static void
test_caller_session (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiEventStream) stream = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  SoupSession *weak_session = session;
  g_auto(Collected) collected = { 0 };
  g_auto(Collected) again = { 0 };
  guint n_queued = 0;

  g_test_summary ("A caller's session is used, and neither aborted nor disposed");

  g_object_add_weak_pointer (G_OBJECT (session), (gpointer *) &weak_session);
  g_signal_connect (session, "request-queued", G_CALLBACK (on_request_queued_cb), &n_queued);

  agui_test_server_push_response (f->server, full_run_response ());
  agui_test_server_push_response (f->server, full_run_response ());

  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "session", session,
                                  NULL);
  g_assert_true (agui_http_transport_get_session (transport) == session);

  stream = run_ok (transport);
  collect (stream, &collected);
  assert_items (&collected, FULL_RUN);
  g_assert_cmpuint (n_queued, ==, 1);

  g_clear_object (&stream);
  g_clear_object (&transport);
  g_assert_nonnull (weak_session);

  /* Still whole: a new transport on it runs as before. */
  transport = new_transport_with ("url", agui_test_server_get_url (f->server),
                                  "session", session,
                                  NULL);
  stream = run_ok (transport);
  collect (stream, &again);
  assert_items (&again, FULL_RUN);
  g_assert_cmpuint (n_queued, ==, 2);

  g_clear_object (&stream);
  g_clear_object (&transport);
  g_object_remove_weak_pointer (G_OBJECT (session), (gpointer *) &weak_session);
}

#define ADD_REDIRECT(path, func) \
  g_test_add ("/agui/http-transport/" path, RedirectFixture, NULL, redirect_set_up, func, redirect_tear_down)

#define ADD(path, func) \
  g_test_add ("/agui/http-transport/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  ADD ("request-shape", test_request_shape);
  ADD ("request-body-given", test_request_body_given);
  ADD ("stream/corrupt-gzip", test_corrupt_gzip);
  g_test_add_func ("/agui/http-transport/config-errors", test_config_errors);
  g_test_add_func ("/agui/http-transport/null-url", test_null_url);
  g_test_add_func ("/agui/http-transport/default-session", test_default_session);
  ADD ("uninitialised", test_uninitialised);
  ADD ("events-in-order", test_events_in_order);
  ADD ("no-content-type", test_no_content_type);
  ADD ("drip", test_drip);
  ADD ("first-event-before-stall", test_first_event_before_stall);
  ADD ("slow-stream-within-connect-timeout", test_slow_stream_within_connect_timeout);
  ADD ("missing-run-finished", test_missing_run_finished);
  ADD ("same-byte-path", test_same_byte_path);
  ADD ("http-500-html", test_http_500_html);
  ADD ("http-500-json", test_http_500_json);
  ADD ("http-401", test_http_401);
  ADD ("http-404", test_http_404);
  ADD ("not-an-event-stream", test_not_an_event_stream);
  ADD ("content-type-parameters", test_content_type_parameters);
  ADD ("protobuf", test_protobuf);
  ADD ("protobuf/content-type", test_protobuf_content_type);
  ADD ("protobuf/malformed-frame", test_protobuf_malformed_frame);
  ADD ("protobuf/broken-length-prefix", test_protobuf_broken_length);
  ADD ("protobuf/truncated", test_protobuf_truncated);
  ADD ("protobuf/same-transcript", test_protobuf_same_transcript);
  g_test_add_func ("/agui/http-transport/connection-refused", test_connection_refused);
  g_test_add_func ("/agui/http-transport/connect-timeout", test_connect_timeout);
  ADD ("slow-headers-within-idle-timeout", test_slow_headers_within_idle_timeout);
  ADD ("idle-timeout-before-headers", test_idle_timeout_before_headers);
  ADD ("idle-timeout-mid-stream", test_idle_timeout_mid_stream);
  ADD ("idle-timeout-restarts", test_idle_timeout_restarts);
  ADD ("run-timeout-before-headers", test_run_timeout_before_headers);
  ADD ("cancel-before-headers", test_cancel_before_headers);
  ADD ("cancelled-already", test_cancelled_already);
  ADD ("run-timeout", test_run_timeout);
  ADD ("run-timeout-not-reached", test_run_timeout_not_reached);
  ADD ("comments-keep-alive", test_comments_keep_alive);
  ADD ("comments-only-run-timeout", test_comments_only_run_timeout);
  ADD ("reset-mid-stream", test_reset_mid_stream);
  ADD ("invalid-utf8", test_invalid_utf8);
  ADD ("frame-over-cap", test_frame_over_cap);
  ADD ("malformed-frame", test_malformed_frame);
  ADD ("close-mid-run", test_close_mid_run);
  ADD ("close-during-stall", test_close_during_stall);
  ADD ("stream-outlives-transport", test_stream_outlives_transport);
  ADD ("caller-session", test_caller_session);
  ADD_REDIRECT ("redirect-307-other-origin", test_redirect_307_other_origin);
  ADD_REDIRECT ("redirect-308-same-origin", test_redirect_308_same_origin);
  ADD_REDIRECT ("redirect-302-not-followed", test_redirect_302_not_followed);
  ADD_REDIRECT ("redirect-loop", test_redirect_loop);
  ADD_REDIRECT ("redirect-too-many", test_redirect_too_many);

  return g_test_run ();
}
