/* tandem-connection-test.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui.h"
#include "tandem-connection-test.h"

/* Test Connection in the agent editor: one real run request on the
 * transport a conversation would use with the settings as typed (made by
 * tandem_agent_create_transport(), as a conversation's is), so a success
 * means a conversation would start and an error is the one a
 * conversation would show. It starts a run with no messages and
 * hangs up as soon as the agent answers with an event stream: nothing of
 * the run is read, so an agent that bills by the answer is barely used. */

typedef struct
{
  GCancellable *run_cancellable;
  GCancellable *cancellable;
  gulong        cancelled_id;
  char         *url;
} Check;

static void
check_free (Check *check)
{
  if (check->cancelled_id != 0)
    g_cancellable_disconnect (check->cancellable, check->cancelled_id);
  g_cancellable_cancel (check->run_cancellable);
  g_clear_object (&check->run_cancellable);
  g_clear_object (&check->cancellable);
  g_free (check->url);
  g_free (check);
}

static void
on_cancelled_cb (GCancellable *cancellable,
                 GCancellable *run_cancellable)
{
  g_cancellable_cancel (run_cancellable);
}

static JsonNode *
empty_run_input (void)
{
  g_autoptr(JsonObject) input = json_object_new ();
  g_autofree char *thread_id = g_uuid_string_random ();
  g_autofree char *run_id = g_uuid_string_random ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (input, "threadId", thread_id);
  json_object_set_string_member (input, "runId", run_id);
  json_object_set_array_member (input, "messages", json_array_new ());
  json_object_set_array_member (input, "tools", json_array_new ());
  json_object_set_array_member (input, "context", json_array_new ());
  json_object_set_object_member (input, "state", json_object_new ());
  json_object_set_object_member (input, "forwardedProps", json_object_new ());
  json_node_set_object (node, input);

  return node;
}

static void
on_run_started_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Check *check = g_task_get_task_data (task);
  g_autoptr(AguiEventStream) stream = NULL;
  GError *error = NULL;

  stream = agui_transport_run_finish (AGUI_TRANSPORT (object), result, &error);
  if (stream == NULL)
    {
      /* The caller's cancel is a cancel; ours only ever follows it */
      g_task_return_error (task, error);
      return;
    }

  /* Enough: hang up before the run says anything */
  g_cancellable_cancel (check->run_cancellable);
  g_task_return_pointer (task,
                         g_strdup_printf (_("Connected: %s answered with an AG-UI event stream."), check->url),
                         g_free);
}

/**
 * tandem_connection_test_async:
 * @transport: the transport a run would go out on, from
 *   tandem_agent_create_transport()
 * @url: the agent's URL, to name it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the outcome
 * @user_data: data for @callback
 *
 * Asks the agent for a run on @transport, as a conversation would, and
 * stops at its answer's headers.
 */
void
tandem_connection_test_async (AguiTransport       *transport,
                              const char          *url,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(GTask) task = NULL;
  Check *check;

  g_return_if_fail (AGUI_IS_TRANSPORT (transport));
  g_return_if_fail (url != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_connection_test_async);
  check = g_new0 (Check, 1);
  check->url = g_strdup (url);
  check->run_cancellable = g_cancellable_new ();
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);
  if (cancellable != NULL)
    {
      check->cancellable = g_object_ref (cancellable);
      check->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled_cb),
                                                   check->run_cancellable, NULL);
    }

  input = empty_run_input ();
  agui_transport_run_async (transport, input, check->run_cancellable,
                            on_run_started_cb, g_steal_pointer (&task));
}

/**
 * tandem_connection_test_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): a sentence saying the agent
 *   answered, or %NULL with the error a conversation would have met
 */
char *
tandem_connection_test_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
