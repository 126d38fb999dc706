/* agui-demo-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-demo-agent-private.h"

/**
 * AguiDemoAgent:
 *
 * An agent that lives inside the process: a [iface@Agui.Transport] with
 * no server behind it, so Tandem has someone to talk to on first launch.
 *
 * It behaves like a real agent, deciding each run from its
 * `RunAgentInput` alone (the thread id, the history, the declared tools,
 * the state and the `resume` answers), and it streams its events from
 * the main loop with a pause of [property@Agui.DemoAgent:delay] between
 * deltas, so the answer looks typed:
 *
 * - **A new user message** (the last message has the role `user`): a
 *   `planning` step holding a short reasoning message, state patches to
 *   `/demo` (`turns` and `stage`), then a Markdown answer with a heading, a
 *   list, bold text, inline code, a link, a table and a fenced C block,
 *   word by word. It then calls `get_current_time`: when the input
 *   declares that tool the call (`{"timezone":"local"}`) is left for the
 *   application and the run finishes with it pending; otherwise the agent
 *   treats it as its own backend tool, answers it with the local time and
 *   goes on to the approval below in the same run.
 * - **A tool result for `get_current_time`** (the last message is that tool
 *   message): it says what time the desktop gave, calls `archive_notes`
 *   with `{"folder":"Demo","keepDays":30}` and finishes with an interrupt
 *   (`reason` `tool_call`) asking to approve that call, offering
 *   `editedArgs` in its `responseSchema`. The interrupt expires after ten
 *   minutes.
 * - **A resume** answering that interrupt: the agent does not repeat the
 *   call; it answers it with `TOOL_CALL_RESULT` (archived with the original
 *   or the edited arguments, denied, or cancelled), says so, and sets the
 *   stage to `done`. An interrupt it never asked on the thread, an open
 *   interrupt left unanswered, an answer that does not fit the schema or a
 *   resolved answer after expiry ends the run with `RUN_ERROR`. Replaying
 *   an answer already acted upon is harmless: nothing is done twice.
 * - **Anything else** (an empty history, the last word the agent's own): a
 *   short text explaining what the demo can do.
 *
 * Keywords, as words of their own in the user's message (any case),
 * choose a variant; each has a German form too, so the example prompts
 * a German desktop offers keep what they promise:
 *
 * - `error` (`Fehler`): the answer starts, then the run fails with
 *   `RUN_ERROR` (code `demo_error`), to show how a failed run looks;
 * - `long` (`lange`): a long answer to scroll through, and no tool call;
 * - `dashboard` (`Übersicht`): a small A2UI dashboard;
 * - `archive` (`archiviere`, `archivieren`): skips the time and asks for
 *   approval straight away.
 *
 * The agent speaks English; the times it tells are in the formats of
 * the locale (`LC_TIME`), without names of days or months, so no other
 * language slips into its sentences.
 *
 * The agent remembers the interrupts it asked (to check the answers), and
 * nothing else between runs; runs never share any other state, so several
 * may stream at once. The call an interrupt is about carries the
 * interrupt's id and expiry in its metadata, so an agent started afresh
 * (Tandem restarted) recognises its question in the history and takes the
 * answer. A state that is not a JSON object (nor `null`)
 * belongs to someone else and is left alone.
 *
 * ```c
 * g_autoptr(AguiDemoAgent) agent = agui_demo_agent_new ();
 *
 * agui_transport_run_async (AGUI_TRANSPORT (agent), input, cancellable,
 *                           on_run_started_cb, self);
 * ```
 */

#define DEFAULT_DELAY 25
#define MAX_DELAY     10000

static void transport_iface_init (AguiTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AguiDemoAgent, agui_demo_agent, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGUI_TYPE_TRANSPORT, transport_iface_init))

enum { PROP_0, PROP_DELAY, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
beat_free (Beat *beat)
{
  g_clear_pointer (&beat->event, agui_event_unref);
  g_clear_pointer (&beat->ask, _agui_demo_interrupt_free);
  g_clear_pointer (&beat->answers, g_ptr_array_unref);
  g_free (beat);
}

/* Playing a planned run */

static void run_schedule (DemoRun *run,
                          guint    milliseconds);

static void
run_unschedule (DemoRun *run)
{
  if (run->source == NULL)
    return;

  g_source_destroy (run->source);
  g_clear_pointer (&run->source, g_source_unref);
}

static void
run_free (DemoRun *run)
{
  run_unschedule (run);

  if (run->agent != NULL)
    g_ptr_array_remove_fast (run->agent->runs, run);

  g_cancellable_disconnect (agui_event_stream_get_cancellable (run->stream), run->cancelled_id);
  g_queue_clear_full (&run->beats, (GDestroyNotify) beat_free);
  g_clear_object (&run->stream);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_clear_pointer (&run->thread_id, g_free);
  g_clear_pointer (&run->run_id, g_free);
  _agui_json_value_clear (&run->state);
  g_free (run);
}

static gboolean
run_can_go_on (DemoRun *run)
{
  return run->agent != NULL &&
         !g_cancellable_is_cancelled (agui_event_stream_get_cancellable (run->stream));
}

/* Ends the stream as the run ends: normally, or because the agent went
 * away under it (a consumer that closed the stream wants nothing more). */
static void
run_end (DemoRun *run)
{
  if (run->agent == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                                     "The demo agent was shut down mid-run");

      agui_event_stream_end (run->stream, error);
    }
  else
    {
      agui_event_stream_end (run->stream, NULL);
    }

  run_free (run);
}

static void
run_play (DemoRun *run,
          Beat    *beat)
{
  AguiDemoAgent *self = run->agent;

  /* Before the push: a consumer may answer from inside it. */
  if (beat->ask != NULL)
    {
      DemoInterrupt *ask = g_steal_pointer (&beat->ask);
      GHashTableIter iter;
      DemoInterrupt *old;

      /* Only the latest answer on a thread can still be replayed; the
       * older ones need not be kept. */
      g_hash_table_iter_init (&iter, self->interrupts);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &old))
        if (old->answer != NULL && g_strcmp0 (old->thread_id, ask->thread_id) == 0)
          g_hash_table_iter_remove (&iter);

      g_hash_table_replace (self->interrupts, ask->id, ask);
    }

  for (guint i = 0; beat->answers != NULL && i < beat->answers->len; i++)
    {
      AguiJsonValue *answer = g_ptr_array_index (beat->answers, i);
      const char *id = _agui_json_doc_get_string (answer, "interruptId");
      DemoInterrupt *interrupt = g_hash_table_lookup (self->interrupts, id);

      if (interrupt != NULL && interrupt->answer == NULL)
        interrupt->answer = _agui_json_doc_value_dup (answer);
    }

  agui_event_stream_push_event (run->stream, beat->event);
}

static gboolean
run_tick_cb (gpointer user_data)
{
  DemoRun *run = user_data;
  Beat *beat;

  /* Returning G_SOURCE_REMOVE destroys the source; drop our handle. */
  g_clear_pointer (&run->source, g_source_unref);

  run->playing = TRUE;
  while (run_can_go_on (run) && (beat = g_queue_pop_head (&run->beats)))
    {
      guint pause = beat->pause;

      run_play (run, beat);
      beat_free (beat);

      if (pause > 0 && run_can_go_on (run) && !g_queue_is_empty (&run->beats))
        {
          run->playing = FALSE;
          run_schedule (run, pause * run->delay);
          return G_SOURCE_REMOVE;
        }
    }
  run->playing = FALSE;

  run_end (run);

  return G_SOURCE_REMOVE;
}

static void
run_schedule (DemoRun *run,
              guint    milliseconds)
{
  g_assert (run->source == NULL);

  run->source = milliseconds == 0 ? g_idle_source_new () : g_timeout_source_new (milliseconds);
  /* An idle source at its default priority starves while a window keeps
   * redrawing (a spinner does): events must arrive like network I/O. */
  g_source_set_priority (run->source, G_PRIORITY_DEFAULT);
  g_source_set_callback (run->source, run_tick_cb, run, NULL);
  g_source_set_static_name (run->source, "[agui] demo agent run");
  g_source_attach (run->source, run->context);
}

/* Closing the stream stops the run at once rather than after the pause:
 * the next tick sees the cancellation and frees everything. The stream
 * lives on the run's main context, so this runs there too. */
static void
on_stream_cancelled_cb (GCancellable *cancellable,
                        gpointer      user_data)
{
  DemoRun *run = user_data;

  if (run->playing)
    return;

  run_unschedule (run);
  run_schedule (run, 0);
}

static DemoRun *
run_new (AguiDemoAgent       *self,
         const AguiJsonValue *input)
{
  AguiJsonValue *messages = _agui_json_doc_get_array (input, "messages");
  AguiJsonValue *state = _agui_json_doc_get_member (input, "state");
  DemoRun *run = g_new0 (DemoRun, 1);

  run->agent = self;
  run->stream = agui_event_stream_new ();
  run->context = g_main_context_ref_thread_default ();
  run->delay = self->delay;
  g_queue_init (&run->beats);
  run->thread_id = g_strdup (_agui_json_doc_get_string (input, "threadId"));
  run->run_id = g_strdup (_agui_json_doc_get_string (input, "runId"));
  if (state != NULL)
    _agui_json_value_copy (&run->state, state);

  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      if (g_strcmp0 (_agui_json_doc_get_string (_agui_json_doc_get_element (messages, i), "role"), "user") == 0)
        run->turns++;
    }

  return run;
}

/* A server would answer a malformed request with 400: not a stream. */
static gboolean
check_input (const AguiJsonValue  *input,
             GError              **error)
{
  static const char * const arrays[] = { "messages", "tools", "resume" };
  const char *thread_id = _agui_json_doc_get_string (input, "threadId");
  const char *run_id = _agui_json_doc_get_string (input, "runId");

  if (thread_id == NULL || thread_id[0] == '\0' || run_id == NULL || run_id[0] == '\0')
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                           "The RunAgentInput needs a non-empty threadId and runId");
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    {
      AguiJsonValue *member = _agui_json_doc_get_member (input, arrays[i]);

      if ((member == NULL && i == 0) || (member != NULL && member->kind != AGUI_JSON_DOC_ARRAY))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT,
                       "The RunAgentInput's %s must be an array", arrays[i]);
          return FALSE;
        }
    }

  return TRUE;
}

static void
agui_demo_agent_run_async (AguiTransport       *transport,
                           JsonNode            *input_node,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(AguiJsonValue) input = AGUI_JSON_VALUE_INIT;
  DemoRun *run;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agui_demo_agent_run_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  /* The input comes through the public API as json-glib; the agent reads
   * it in the compact tree, copied once. */
  _agui_json_value_set_node (&input, input_node);
  if (!check_input (&input, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The whole run is decided now, from the input as it is; the events
   * follow from the main loop, never from inside this call. */
  run = run_new (self, &input);
  _agui_demo_plan_run (run, &input);
  g_ptr_array_add (self->runs, run);
  run->cancelled_id = g_cancellable_connect (agui_event_stream_get_cancellable (run->stream),
                                             G_CALLBACK (on_stream_cancelled_cb), run, NULL);
  run_schedule (run, 0);

  g_task_set_task_data (task, g_object_ref (run->stream), g_object_unref);
  g_task_return_pointer (task, g_object_ref (run->stream), g_object_unref);
}

static AguiEventStream *
agui_demo_agent_run_finish (AguiTransport  *transport,
                            GAsyncResult   *result,
                            GError        **error)
{
  AguiEventStream *stream;

  g_return_val_if_fail (g_task_is_valid (result, transport), NULL);

  stream = g_task_propagate_pointer (G_TASK (result), error);

  /* Cancelled after the run was set up but before its stream was taken:
   * nobody will read it, so stop the run. */
  if (stream == NULL && g_task_get_task_data (G_TASK (result)) != NULL)
    agui_event_stream_close (g_task_get_task_data (G_TASK (result)));

  return stream;
}

static void
transport_iface_init (AguiTransportInterface *iface)
{
  iface->run_async = agui_demo_agent_run_async;
  iface->run_finish = agui_demo_agent_run_finish;
}

static void
agui_demo_agent_dispose (GObject *object)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  /* No source outlives the agent: runs end here, with an error on their
   * stream, except one in the middle of a beat, which ends on its own as
   * soon as the beat is out. */
  while (self->runs->len > 0)
    {
      DemoRun *run = g_ptr_array_steal_index_fast (self->runs, self->runs->len - 1);

      run->agent = NULL;
      if (!run->playing)
        run_end (run);
    }

  G_OBJECT_CLASS (agui_demo_agent_parent_class)->dispose (object);
}

static void
agui_demo_agent_finalize (GObject *object)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->interrupts, g_hash_table_unref);

  G_OBJECT_CLASS (agui_demo_agent_parent_class)->finalize (object);
}

static void
agui_demo_agent_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  switch (prop_id)
    {
    case PROP_DELAY:
      g_value_set_uint (value, self->delay);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_demo_agent_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AguiDemoAgent *self = AGUI_DEMO_AGENT (object);

  switch (prop_id)
    {
    case PROP_DELAY:
      agui_demo_agent_set_delay (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_demo_agent_class_init (AguiDemoAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agui_demo_agent_dispose;
  object_class->finalize = agui_demo_agent_finalize;
  object_class->get_property = agui_demo_agent_get_property;
  object_class->set_property = agui_demo_agent_set_property;

  /**
   * AguiDemoAgent:delay:
   *
   * The pause between streamed deltas, in milliseconds; the pauses
   * around steps and tool calls are a few times longer. With 0 the
   * events still come from the main loop, one idle at a time. A run
   * keeps the delay it started with.
   */
  properties[PROP_DELAY] =
    g_param_spec_uint ("delay", NULL, NULL,
                       0, MAX_DELAY, DEFAULT_DELAY,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_demo_agent_init (AguiDemoAgent *self)
{
  self->runs = g_ptr_array_new ();
  self->interrupts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                            (GDestroyNotify) _agui_demo_interrupt_free);
  self->delay = DEFAULT_DELAY;
}

/**
 * agui_demo_agent_new:
 *
 * Returns: (transfer full): an in-process demo agent
 */
AguiDemoAgent *
agui_demo_agent_new (void)
{
  return g_object_new (AGUI_TYPE_DEMO_AGENT, NULL);
}

/**
 * agui_demo_agent_get_delay:
 * @self: a demo agent
 *
 * Returns: the pause between streamed deltas, in milliseconds
 */
guint
agui_demo_agent_get_delay (AguiDemoAgent *self)
{
  g_return_val_if_fail (AGUI_IS_DEMO_AGENT (self), 0);

  return self->delay;
}

/**
 * agui_demo_agent_set_delay:
 * @self: a demo agent
 * @milliseconds: the pause between streamed deltas
 *
 * Sets [property@Agui.DemoAgent:delay] for the runs started from now on.
 */
void
agui_demo_agent_set_delay (AguiDemoAgent *self,
                           guint          milliseconds)
{
  g_return_if_fail (AGUI_IS_DEMO_AGENT (self));

  milliseconds = MIN (milliseconds, MAX_DELAY);
  if (self->delay == milliseconds)
    return;

  self->delay = milliseconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DELAY]);
}
