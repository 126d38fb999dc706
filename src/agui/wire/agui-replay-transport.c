/* agui-replay-transport.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-replay-transport-private.h"
#include "agui-transport-private.h"

/**
 * AguiReplayTransport:
 *
 * A transport that plays scripted runs: one list of events per run, in
 * order. It records every `RunAgentInput` it is given, so a test can
 * assert what a client sent (a resume carrying the right answers, a tool
 * result placed after its call), and says how many scripted runs remain.
 * A run it has no script for fails: a test that runs twice by accident
 * should say so.
 */

typedef struct
{
  gatomicrefcount  ref_count;
  GQueue           runs;       /* GPtrArray of AguiEvent, per run */
  GPtrArray       *requests;   /* Request */
  guint            scripted;
} Script;

struct _AguiReplayTransport
{
  GObject  parent_instance;
  Script  *script;
};

static void transport_iface_init (AguiTransportInterface *iface);
static void json_body_iface_init (AguiJsonBodyTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiReplayTransport, agui_replay_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT, transport_iface_init)
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_JSON_BODY_TRANSPORT, json_body_iface_init))

/* A run's input is kept as the text a network transport would send, and
 * read back only when asked for: the session hands over that text,
 * made from its kept messages, where copying the input of a long thread
 * cost as much as making it. */
typedef struct
{
  char     *text;
  JsonNode *input;
} Request;

static void
request_free (Request *request)
{
  g_free (request->text);
  g_clear_pointer (&request->input, json_node_unref);
  g_free (request);
}

static void
script_unref (Script *script)
{
  if (g_atomic_ref_count_dec (&script->ref_count))
    {
      g_queue_clear_full (&script->runs, (GDestroyNotify) g_ptr_array_unref);
      g_ptr_array_unref (script->requests);
      g_free (script);
    }
}

typedef struct
{
  AguiEventStream *stream;
  GPtrArray       *events;
} Playback;

static void
playback_free (Playback *playback)
{
  g_object_unref (playback->stream);
  g_ptr_array_unref (playback->events);
  g_free (playback);
}

static gboolean
play_run (gpointer user_data)
{
  Playback *playback = user_data;

  for (guint i = 0; i < playback->events->len; i++)
    agui_event_stream_push_event (playback->stream, g_ptr_array_index (playback->events, i));
  agui_event_stream_end (playback->stream, NULL);

  return G_SOURCE_REMOVE;
}

/* Takes @text, the input's JSON text */
static void
start_run (AguiReplayTransport *self,
           char                *text,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(AguiEventStream) stream = NULL;
  GPtrArray *events;
  Playback *playback;

  g_task_set_source_tag (task, start_run);

  {
    Request *request = g_new0 (Request, 1);

    request->text = text;
    g_ptr_array_add (self->script->requests, request);
  }

  if (g_task_return_error_if_cancelled (task))
    return;

  events = g_queue_pop_head (&self->script->runs);
  if (events == NULL)
    {
      g_task_return_new_error (task, AGUI_ERROR, AGUI_ERROR_FAILED,
                               "The replay has no script for run %u (%u run(s) were scripted)",
                               self->script->requests->len, self->script->scripted);
      return;
    }

  /* Events arrive from the main loop, as a network would deliver them. */
  stream = agui_event_stream_new ();
  playback = g_new0 (Playback, 1);
  playback->stream = g_object_ref (stream);
  playback->events = events;
  g_idle_add_full (G_PRIORITY_DEFAULT, play_run, playback, (GDestroyNotify) playback_free);

  g_task_return_pointer (task, g_steal_pointer (&stream), g_object_unref);
}

static void
agui_replay_transport_run_async (AguiTransport       *transport,
                                 JsonNode            *input,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  start_run (AGUI_REPLAY_TRANSPORT (transport), json_to_string (input, FALSE), cancellable, callback, user_data);
}

static void
agui_replay_transport_run_body_async (AguiJsonBodyTransport *transport,
                                      JsonNode              *input,
                                      GBytes                *body,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  gsize length;
  const char *data = g_bytes_get_data (body, &length);

  start_run (AGUI_REPLAY_TRANSPORT (transport), g_strndup (data, length), cancellable, callback, user_data);
}

static AguiEventStream *
agui_replay_transport_run_finish (AguiTransport  *transport,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_replay_transport_run_async;
  iface->run_finish = agui_replay_transport_run_finish;
}

static void
json_body_iface_init (AguiJsonBodyTransportInterface *iface)
{
  iface->run_body_async = agui_replay_transport_run_body_async;
}

static void
agui_replay_transport_finalize (GObject *object)
{
  AguiReplayTransport *self = AGUI_REPLAY_TRANSPORT (object);

  g_clear_pointer (&self->script, script_unref);

  G_OBJECT_CLASS (agui_replay_transport_parent_class)->finalize (object);
}

static void
agui_replay_transport_class_init (AguiReplayTransportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agui_replay_transport_finalize;
}

static void
agui_replay_transport_init (AguiReplayTransport *self)
{
}

/**
 * agui_replay_transport_new:
 *
 * Returns: (transfer full): a transport with no scripted runs
 */
AguiReplayTransport *
agui_replay_transport_new (void)
{
  AguiReplayTransport *self = g_object_new (AGUI_TYPE_REPLAY_TRANSPORT, NULL);

  self->script = g_new0 (Script, 1);
  g_atomic_ref_count_init (&self->script->ref_count);
  g_queue_init (&self->script->runs);
  self->script->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);

  return self;
}

/**
 * _agui_replay_transport_copy:
 * @self: a replay transport
 *
 * Returns: (transfer full): a new handle sharing @self's script and recording
 */
AguiReplayTransport *
_agui_replay_transport_copy (AguiReplayTransport *self)
{
  AguiReplayTransport *copy;

  g_return_val_if_fail (AGUI_IS_REPLAY_TRANSPORT (self), NULL);

  copy = g_object_new (AGUI_TYPE_REPLAY_TRANSPORT, NULL);
  copy->script = self->script;
  g_atomic_ref_count_inc (&self->script->ref_count);

  return copy;
}

/**
 * agui_replay_transport_add_run:
 * @self: a replay transport
 * @events: (element-type AguiEvent): the events of one run
 *
 * Scripts the next run.
 */
void
agui_replay_transport_add_run (AguiReplayTransport *self,
                               GPtrArray           *events)
{
  GPtrArray *copy;

  g_return_if_fail (AGUI_IS_REPLAY_TRANSPORT (self));
  g_return_if_fail (events != NULL);

  copy = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  for (guint i = 0; i < events->len; i++)
    g_ptr_array_add (copy, agui_event_ref (g_ptr_array_index (events, i)));

  g_queue_push_tail (&self->script->runs, copy);
  self->script->scripted++;
}

/**
 * agui_replay_transport_add_run_json:
 * @self: a replay transport
 * @events_json: a JSON array of events
 * @error: return location for a #GError
 *
 * Scripts the next run from JSON, checking each event against the schema.
 *
 * Returns: %TRUE if every event was valid
 */
gboolean
agui_replay_transport_add_run_json (AguiReplayTransport  *self,
                                    const char           *events_json,
                                    GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  JsonArray *array;

  g_return_val_if_fail (AGUI_IS_REPLAY_TRANSPORT (self), FALSE);
  g_return_val_if_fail (events_json != NULL, FALSE);

  /* json-glib, not the checked reader: a script may hold what no agent
   * could send over HTTP (1e999 made infinite), to test what the store
   * does with it. */
  if (!json_parser_load_from_data (parser, events_json, -1, error))
    return FALSE;

  if (!JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "A scripted run is a JSON array of events");
      return FALSE;
    }

  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      AguiEvent *event = agui_event_new_from_json (json_array_get_element (array, i), NULL, error);

      if (event == NULL)
        return FALSE;
      g_ptr_array_add (events, event);
    }

  agui_replay_transport_add_run (self, events);

  return TRUE;
}

/**
 * agui_replay_transport_get_remaining:
 * @self: a replay transport
 *
 * Returns: how many scripted runs have not been played
 */
guint
agui_replay_transport_get_remaining (AguiReplayTransport *self)
{
  g_return_val_if_fail (AGUI_IS_REPLAY_TRANSPORT (self), 0);

  return self->script->runs.length;
}

/**
 * agui_replay_transport_get_n_requests:
 * @self: a replay transport
 *
 * Returns: how many runs were asked for
 */
guint
agui_replay_transport_get_n_requests (AguiReplayTransport *self)
{
  g_return_val_if_fail (AGUI_IS_REPLAY_TRANSPORT (self), 0);

  return self->script->requests->len;
}

/**
 * agui_replay_transport_get_request:
 * @self: a replay transport
 * @index: which run, from 0
 *
 * Returns: (transfer none) (nullable): the `RunAgentInput` of that run
 */
JsonNode *
agui_replay_transport_get_request (AguiReplayTransport *self,
                                   guint                index)
{
  Request *request;

  g_return_val_if_fail (AGUI_IS_REPLAY_TRANSPORT (self), NULL);

  if (index >= self->script->requests->len)
    return NULL;

  request = g_ptr_array_index (self->script->requests, index);
  if (request->input == NULL)
    {
      g_autoptr(GError) error = NULL;

      /* Printed by json-glib: it reads back */
      request->input = _agui_json_parse (request->text, -1, &error);
      g_assert_no_error (error);
    }

  return request->input;
}
