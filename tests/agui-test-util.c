/* agui-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-private.h"
#include "agui-test-util.h"

/* A GAsyncReadyCallback whose @user_data is a `GAsyncResult **`, NULL
 * until the call ends: it keeps a reference to the result there. */
void
agui_test_store_result_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  GAsyncResult **location = user_data;

  g_assert_null (*location);
  *location = g_object_ref (result);
}

static gboolean
on_wake_cb (gpointer user_data)
{
  gboolean *woken = user_data;

  *woken = TRUE;

  return G_SOURCE_REMOVE;
}

/* One turn of agui_test_wait_until(): fails the test once @deadline has
 * passed, else iterates the main context once. What the condition reads
 * may change without a source of this context firing (a worker thread's
 * file, a child process), so a short timer wakes the loop to look again. */
gboolean
agui_test_wait_step (gint64      deadline,
                     const char *file,
                     int         line,
                     const char *func,
                     const char *condition,
                     const char *format,
                     ...)
{
  gint64 now = g_get_monotonic_time ();
  gboolean woken = FALSE;
  GSource *wake;

  if (now >= deadline)
    {
      g_autofree char *what = NULL;
      g_autofree char *message = NULL;
      va_list args;

      va_start (args, format);
      what = g_strdup_vprintf (format, args);
      va_end (args);
      message = g_strdup_printf ("after %d ms, still not: %s (waiting until %s)",
                                 AGUI_TEST_WAIT_MS, what, condition);
      g_assertion_message (G_LOG_DOMAIN, file, line, func, message);

      return FALSE;
    }

  wake = g_timeout_source_new (MIN (10, (deadline - now) / G_TIME_SPAN_MILLISECOND + 1));
  g_source_set_callback (wake, on_wake_cb, &woken, NULL);
  g_source_attach (wake, NULL);
  g_main_context_iteration (NULL, TRUE);
  g_source_destroy (wake);
  g_source_unref (wake);

  return TRUE;
}

/* For the few tests that assert something does NOT happen: there is no
 * event to wait for, so the main context runs for @milliseconds and the
 * caller then checks that @what stayed undone. Anything a test waits FOR
 * goes through agui_test_wait_until() instead. */
void
agui_test_wait_to_rule_out (guint       milliseconds,
                            const char *what)
{
  gint64 deadline = g_get_monotonic_time () + milliseconds * G_TIME_SPAN_MILLISECOND;
  gint64 now;

  g_assert_nonnull (what);

  while ((now = g_get_monotonic_time ()) < deadline)
    {
      gboolean woken = FALSE;
      GSource *wake = g_timeout_source_new ((deadline - now) / G_TIME_SPAN_MILLISECOND + 1);

      g_source_set_callback (wake, on_wake_cb, &woken, NULL);
      g_source_attach (wake, NULL);
      g_main_context_iteration (NULL, TRUE);
      g_source_destroy (wake);
      g_source_unref (wake);
    }
}

static gboolean
on_wait_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;

  return G_SOURCE_REMOVE;
}

/* Iterates the thread-default main context until @predicate holds, for
 * at most @timeout_ms, so that a bug fails a test instead of hanging it. */
gboolean
agui_test_wait_for (AguiTestPredicate predicate,
                    gpointer          data,
                    guint             timeout_ms)
{
  gboolean timed_out = FALSE;
  guint timeout_id;

  timeout_id = g_timeout_add (timeout_ms, on_wait_timeout_cb, &timed_out);
  while (!predicate (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);

  return predicate (data);
}

static gboolean
pointer_is_set (gpointer data)
{
  gpointer *location = data;

  return *location != NULL;
}

gboolean
agui_test_wait_for_pointer (gpointer *location,
                            guint     timeout_ms)
{
  return agui_test_wait_for (pointer_is_set, location, timeout_ms);
}

/* Waits for agui_test_store_result_cb() to have filled @result; failing
 * the test after @timeout_ms. */
void
agui_test_wait_for_result (GAsyncResult **result,
                           guint          timeout_ms)
{
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) result, timeout_ms));
}

gboolean
agui_test_session_idle (gpointer session)
{
  return !agui_agent_session_get_busy (AGUI_AGENT_SESSION (session));
}

gboolean
agui_test_session_busy (gpointer session)
{
  return agui_agent_session_get_busy (AGUI_AGENT_SESSION (session));
}

/* A send or resume started by a click: waits for the session to take it
 * up and then to be idle again. A click starts the exchange before it
 * returns, so busy is usually set already; the short bounded wait for it
 * only covers an exchange that has come and gone, which the caller's own
 * assertions (requests, rows) then check. */
void
agui_test_wait_for_exchange (AguiAgentSession *session)
{
  agui_test_wait_for (agui_test_session_busy, session, 500);
  agui_test_wait_until (!agui_agent_session_get_busy (session), "the session's exchange ended");
}

/* Structural comparison where "<minted-N>" in @expected stands for an id
 * the parser minted: the same token must always meet the same id, and
 * different tokens different ids. @minted maps tokens to ids (strings,
 * owned). */
gboolean
agui_test_json_matches (JsonNode   *expected,
                        JsonNode   *actual,
                        GHashTable *minted)
{
  if (JSON_NODE_TYPE (expected) != JSON_NODE_TYPE (actual))
    return FALSE;

  switch (JSON_NODE_TYPE (expected))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *expected_object = json_node_get_object (expected);
        JsonObject *actual_object = json_node_get_object (actual);
        g_autoptr(GList) names = json_object_get_members (expected_object);

        if (json_object_get_size (expected_object) != json_object_get_size (actual_object))
          return FALSE;

        for (const GList *l = names; l != NULL; l = l->next)
          {
            JsonNode *actual_member = json_object_get_member (actual_object, l->data);

            if (actual_member == NULL ||
                !agui_test_json_matches (json_object_get_member (expected_object, l->data), actual_member, minted))
              return FALSE;
          }

        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *expected_array = json_node_get_array (expected);
        JsonArray *actual_array = json_node_get_array (actual);

        if (json_array_get_length (expected_array) != json_array_get_length (actual_array))
          return FALSE;

        for (guint i = 0; i < json_array_get_length (expected_array); i++)
          {
            if (!agui_test_json_matches (json_array_get_element (expected_array, i),
                                         json_array_get_element (actual_array, i), minted))
              return FALSE;
          }

        return TRUE;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (expected) == G_TYPE_STRING &&
          json_node_get_value_type (actual) == G_TYPE_STRING &&
          g_str_has_prefix (json_node_get_string (expected), "<minted-"))
        {
          const char *token = json_node_get_string (expected);
          const char *id = json_node_get_string (actual);
          const char *bound = g_hash_table_lookup (minted, token);
          GHashTableIter iter;
          gpointer key, value;

          if (bound != NULL)
            return g_str_equal (bound, id);

          g_hash_table_iter_init (&iter, minted);
          while (g_hash_table_iter_next (&iter, &key, &value))
            {
              if (g_str_equal (value, id))
                return FALSE;
            }

          g_hash_table_insert (minted, g_strdup (token), g_strdup (id));
          return g_uuid_string_is_valid (id);
        }
      return json_node_equal (expected, actual);

    case JSON_NODE_NULL:
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

char *
agui_test_incompressible_text (gsize length)
{
  static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  g_autoptr(GRand) rand = g_rand_new_with_seed (25);
  char *text = g_malloc (length + 1);

  for (gsize i = 0; i < length; i++)
    text[i] = letters[g_rand_int_range (rand, 0, sizeof letters - 1)];
  text[length] = '\0';

  return text;
}

/* The thread's export as agui_session_store_export_to_stream() writes
 * it, checked byte for byte against agui_session_store_export_json()
 * printed whole, and parsed */
JsonNode *
agui_test_export_streamed (AguiSessionStore *store,
                           const char       *thread_id)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(JsonNode) tree = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *streamed = NULL;
  JsonNode *parsed;

  g_assert_true (agui_session_store_export_to_stream (store, thread_id, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, &error));
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  streamed = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  tree = agui_session_store_export_json (store, thread_id, &error);
  g_assert_no_error (error);
  whole = _agui_json_to_string (tree, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (streamed, ==, whole);

  parsed = _agui_json_parse (streamed, -1, &error);
  g_assert_no_error (error);

  return parsed;
}

/* A stream that gives a few bytes at each read (1 to 7, in turn), so
 * that a reader meets every place a buffer can end */
typedef struct
{
  GInputStream  parent_instance;
  GBytes       *bytes;
  gsize         at;
  guint         reads;
} AguiTestTrickleStream;

typedef struct
{
  GInputStreamClass parent_class;
} AguiTestTrickleStreamClass;

static GType agui_test_trickle_stream_get_type (void);
G_DEFINE_TYPE (AguiTestTrickleStream, agui_test_trickle_stream, G_TYPE_INPUT_STREAM)

static gssize
agui_test_trickle_stream_read (GInputStream  *stream,
                               void          *buffer,
                               gsize          count,
                               GCancellable  *cancellable,
                               GError       **error)
{
  AguiTestTrickleStream *self = (AguiTestTrickleStream *) stream;
  gsize size;
  const char *data = g_bytes_get_data (self->bytes, &size);
  gsize n = self->reads++ % 7 + 1;

  n = MIN (MIN (n, count), size - self->at);
  /* An empty file's bytes have no data pointer at all */
  if (n == 0)
    return 0;

  memcpy (buffer, data + self->at, n);
  self->at += n;

  return n;
}

static void
agui_test_trickle_stream_finalize (GObject *object)
{
  g_bytes_unref (((AguiTestTrickleStream *) object)->bytes);

  G_OBJECT_CLASS (agui_test_trickle_stream_parent_class)->finalize (object);
}

static void
agui_test_trickle_stream_class_init (AguiTestTrickleStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agui_test_trickle_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = agui_test_trickle_stream_read;
}

static void
agui_test_trickle_stream_init (AguiTestTrickleStream *self)
{
}

GInputStream *
agui_test_trickle_stream_new (const char *text)
{
  AguiTestTrickleStream *self = g_object_new (agui_test_trickle_stream_get_type (), NULL);

  self->bytes = g_bytes_new (text, strlen (text));

  return G_INPUT_STREAM (self);
}

/* @exported imported as a file is: printed, and read back a few bytes
 * at a time by agui_session_store_import_stream() */
char *
agui_test_import_streamed (AguiSessionStore  *store,
                           JsonNode          *exported,
                           GError           **error)
{
  g_autofree char *text = _agui_json_to_string (exported, TRUE, NULL);
  g_autoptr(GInputStream) in = NULL;

  g_assert_nonnull (text);
  in = agui_test_trickle_stream_new (text);

  return agui_session_store_import_stream (store, in, NULL, error);
}
