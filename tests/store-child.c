/* store-child.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A second process for test-session-store: it writes turns into a
 * database while the test kills it, races it against another writer, or
 * runs it as another user. Usage:
 *
 *   store-child loop DB THREAD CALLS           saves turns until killed, resuming after the
 *                                             thread's last turn; prints "saved N" after each
 *   store-child write DB THREAD FIRST STEP N CALLS
 *                                             saves N turns FIRST, FIRST+STEP, ...
 *   store-child save-once DB THREAD TURN      prints "turns N" (the thread's turn count), saves
 *                                             one turn, prints "saved" or "error: MESSAGE"
 *   store-child stream DB THREAD              a session on the demo agent, as the app has:
 *                                             restores THREAD, then asks for long answers
 *                                             until killed, printing (TIME is the monotonic
 *                                             clock, shared by every process)
 *                                               "send TIME TEXT" as it sends TEXT,
 *                                               "stored TIME" as the store says it wrote
 *                                                 the thread (the message at its send,
 *                                                 then the turn),
 *                                               "shown TIME ID LENGTH [user]" as message
 *                                                 ID grows,
 *                                               "done TIME" once a turn is saved
 *
 * Turn N of THREAD is the same in every mode, and test-session-store.c
 * knows its shape: RUN_STARTED (runId "run-N"), CALLS tool calls (START,
 * two ARGS deltas, END), a text message "msg-N" of TEXT_DELTAS deltas,
 * RUN_FINISHED; snapshot "THREAD-snap-N" whose parent is
 * "THREAD-snap-(N-1)"; state {"turn": N}; one interrupt {"id": "int-N"}.
 */

#undef G_DISABLE_ASSERT

#include "agui-json-doc-access-private.h"
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agui.h"
#include "agui-agent-session-private.h"
#include "agui-session-store-private.h"

#define TEXT_DELTAS 50

static void
add_event (GPtrArray  *events,
           const char *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
add_event (GPtrArray  *events,
           const char *format,
           ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  va_list args;
  AguiEvent *event;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);

  event = agui_event_new_from_string (json, -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (events, event);
}

static gboolean
save_turn (AguiSessionStore  *store,
           const char        *thread_id,
           int                turn_index,
           int                calls,
           GError           **error)
{
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(JsonArray) interrupts = json_array_new ();
  g_autoptr(JsonObject) message = json_object_new ();
  g_autoptr(JsonObject) state = json_object_new ();
  g_autoptr(JsonObject) interrupt = json_object_new ();
  g_autoptr(JsonNode) state_node = NULL;
  g_autoptr(JsonNode) messages_node = NULL;
  g_autoptr(JsonNode) interrupts_node = NULL;
  g_auto(AguiJsonValue) messages_tree = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) state_tree = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) interrupts_tree = AGUI_JSON_VALUE_INIT;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *snapshot_id = g_strdup_printf ("%s-snap-%d", thread_id, turn_index);
  g_autofree char *parent_id = g_strdup_printf ("%s-snap-%d", thread_id, turn_index - 1);
  g_autofree char *interrupt_id = g_strdup_printf ("int-%d", turn_index);
  g_autofree char *message_id = g_strdup_printf ("msg-%d", turn_index);
  AguiTurnRecord turn = { NULL, };

  add_event (events, "{\"type\":\"RUN_STARTED\",\"threadId\":\"%s\",\"runId\":\"run-%d\"}",
             thread_id, turn_index);
  for (int i = 0; i < calls; i++)
    {
      add_event (events, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc-%d-%d\",\"toolCallName\":\"probe\"}",
                 turn_index, i);
      add_event (events, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc-%d-%d\",\"delta\":\"{\\\"i\\\":\"}",
                 turn_index, i);
      add_event (events, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc-%d-%d\",\"delta\":\"%d}\"}",
                 turn_index, i, i);
      add_event (events, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc-%d-%d\"}", turn_index, i);
    }
  add_event (events, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"%s\",\"role\":\"assistant\"}",
             message_id);
  for (int i = 0; i < TEXT_DELTAS; i++)
    {
      add_event (events, "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"%s\",\"delta\":\"w%d.%d \"}",
                 message_id, turn_index, i);
      g_string_append_printf (text, "w%d.%d ", turn_index, i);
    }
  add_event (events, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"%s\"}", message_id);
  add_event (events, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"%s\",\"runId\":\"run-%d\"}",
             thread_id, turn_index);

  json_object_set_string_member (message, "id", message_id);
  json_object_set_string_member (message, "role", "assistant");
  json_object_set_string_member (message, "content", text->str);
  json_array_add_object_element (messages, g_steal_pointer (&message));

  json_object_set_int_member (state, "turn", turn_index);
  state_node = json_node_init_object (json_node_alloc (), state);

  json_object_set_string_member (interrupt, "id", interrupt_id);
  json_array_add_object_element (interrupts, g_steal_pointer (&interrupt));

  turn.thread_id = thread_id;
  turn.snapshot_id = snapshot_id;
  turn.parent_id = turn_index > 0 ? parent_id : NULL;
  turn.turn_index = turn_index;
  turn.status = AGUI_SNAPSHOT_COMPLETED;
  /* The store takes trees */
  messages_node = json_node_init_array (json_node_alloc (), messages);
  interrupts_node = json_node_init_array (json_node_alloc (), interrupts);
  _agui_json_value_set_node (&messages_tree, messages_node);
  _agui_json_value_set_node (&state_tree, state_node);
  _agui_json_value_set_node (&interrupts_tree, interrupts_node);
  turn.messages = &messages_tree;
  turn.state = &state_tree;
  turn.events = events;
  turn.pending_interrupts = &interrupts_tree;

  return _agui_session_store_save_turn (store, &turn, error);
}

static int
run_loop (const char *path,
          const char *thread_id,
          int         calls)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;
  int turn_index;

  if (!(store = agui_session_store_new (path, &error)) ||
      (turn_index = agui_session_store_get_turn_count (store, thread_id, &error)) < 0)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  for (;; turn_index++)
    {
      if (!save_turn (store, thread_id, turn_index, calls, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      printf ("saved %d\n", turn_index);
      fflush (stdout);
    }
}

static int
run_write (const char *path,
           const char *thread_id,
           int         first,
           int         step,
           int         count,
           int         calls)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if (!(store = agui_session_store_new (path, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  for (int i = 0; i < count; i++)
    {
      if (!save_turn (store, thread_id, first + i * step, calls, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }

  return 0;
}

static int
run_save_once (const char *path,
               const char *thread_id,
               int         turn_index)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if (!(store = agui_session_store_new (path, &error)))
    {
      printf ("error: %s\n", error->message);
      return 2;
    }

  /* A read-only database still reads. */
  printf ("turns %d\n", agui_session_store_get_turn_count (store, thread_id, NULL));

  if (!save_turn (store, thread_id, turn_index, 1, &error))
    {
      g_assert_true (g_error_matches (error, AGUI_ERROR, AGUI_ERROR_STORE));
      printf ("error: %s\n", error->message);
      return 2;
    }

  printf ("saved\n");
  return 0;
}

typedef struct
{
  AguiTranscript *transcript;
  GHashTable     *shown;
  gboolean        all;
} Watch;

/* What the window would show: the text of the newest messages, each
 * time it grew */
static gboolean
watch_transcript (gpointer user_data)
{
  Watch *watch = user_data;
  GListModel *model = G_LIST_MODEL (watch->transcript);
  guint n = g_list_model_get_n_items (model);

  /* The restored thread whole, then the newest messages */
  for (guint i = n > 4 && !watch->all ? n - 4 : 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_autofree char *text = NULL;
      const char *id;
      gsize length;

      if (!AGUI_IS_SPEAKER_TURN (item))
        continue;
      id = agui_speaker_turn_get_id (AGUI_SPEAKER_TURN (item));
      text = agui_speaker_turn_dup_text (AGUI_SPEAKER_TURN (item));
      length = text ? strlen (text) : 0;
      if (id == NULL || length == GPOINTER_TO_SIZE (g_hash_table_lookup (watch->shown, id)))
        continue;

      g_hash_table_insert (watch->shown, g_strdup (id), GSIZE_TO_POINTER (length));
      printf ("shown %" G_GINT64_FORMAT " %s %" G_GSIZE_FORMAT "%s\n", g_get_monotonic_time (), id, length,
              agui_speaker_turn_get_role (AGUI_SPEAKER_TURN (item)) == AGUI_ROLE_USER ? " user" : "");
    }
  fflush (stdout);

  return G_SOURCE_CONTINUE;
}

static void
on_thread_changed (AguiSessionStore *store,
                   const char       *thread_id,
                   AguiThreadInfo   *info,
                   gpointer          user_data)
{
  printf ("stored %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static int
run_stream (const char *path,
            const char *thread_id)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GHashTable) shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  Watch watch;

  if (!(store = agui_session_store_new (path, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  g_signal_connect (store, "thread-changed", G_CALLBACK (on_thread_changed), NULL);
  agui_demo_agent_set_delay (agent, 4);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION,
                          "transport", agent,
                          "thread-id", thread_id,
                          "store", store,
                          "agent", "demo",
                          NULL);
  if (!_agui_agent_session_restore (session, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  watch.transcript = agui_agent_session_get_transcript (session);
  watch.shown = shown;
  watch.all = TRUE;
  watch_transcript (&watch);
  watch.all = FALSE;
  g_timeout_add (5, watch_transcript, &watch);

  for (int i = 0;; i++)
    {
      g_autofree char *text = g_strdup_printf ("long question %d-%d", (int) getpid (), i);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AguiRunState) state = NULL;

      printf ("send %" G_GINT64_FORMAT " %s\n", g_get_monotonic_time (), text);
      fflush (stdout);
      agui_agent_session_send_async (session, text, NULL, NULL, store_result, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      state = agui_agent_session_send_finish (session, result, NULL);
      watch_transcript (&watch);
      printf ("done %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
      fflush (stdout);
    }
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 4 && g_str_equal (argv[1], "stream"))
    return run_stream (argv[2], argv[3]);

  if (argc == 5 && g_str_equal (argv[1], "loop"))
    return run_loop (argv[2], argv[3], atoi (argv[4]));

  if (argc == 8 && g_str_equal (argv[1], "write"))
    return run_write (argv[2], argv[3], atoi (argv[4]), atoi (argv[5]), atoi (argv[6]), atoi (argv[7]));

  if (argc == 5 && g_str_equal (argv[1], "save-once"))
    return run_save_once (argv[2], argv[3], atoi (argv[4]));

  g_printerr ("usage: store-child loop|write|save-once|stream ...\n");
  return 64;
}
