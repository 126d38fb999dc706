/* test-app-kill.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <adwaita.h>

#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>

#include "agui-agent-session-private.h"
#include "tandem-test-window.h"

/* The tandem program itself, started as a person starts it (HOME and the
 * XDG folders its own, the test's display and session bus, --agent at a
 * loopback agent), is asked a question typed on the X server's keyboard
 * and killed (SIGKILL) at a random instant of the answer. The agent
 * streams a word every WORD_MS and notes when each left; the test pings
 * the window meanwhile to know when the program's main loop took a word
 * in, and watches the window's damage to know when it was drawn after
 * that, and so shown. After each kill the store holds, as
 * a relaunch restores it, the question (whenever the agent saw it) and
 * every word that left and was shown KEEP_MS or more before the kill;
 * every few rounds a relaunched window shows them too. Each launch after
 * the first starts on the store the kill before left.
 *
 * TANDEM_TEST_KILL_ROUNDS: the number of kills (default 100);
 * TANDEM_TEST_KILL_WINDOW_EVERY: a window checks every Nth (default 10). */

#define WORDS 60
#define WORD_MS 20
#define KEEP_MS 250
#define SEND_TIMEOUT_S 30

/* The agent: a SoupServer on a thread of its own, so that its clock and
 * the words it sends never wait on the test's main loop */

typedef struct
{
  char   *thread_id;
  char   *question;
  /* Where each word's chunk ends in the body, and when that much of the
   * body was written to the socket (0: not yet) */
  gsize   word_end[WORDS];
  gint64  word_sent[WORDS];
  gsize   written;
} Run;

typedef struct
{
  GMutex        lock;
  GCond         ready;
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  char         *url;
  GPtrArray    *runs;
} Agent;

typedef struct
{
  Agent             *agent;
  Run               *run;
  SoupServerMessage *msg;
  GSource           *timer;
  guint              next_word;
  gsize              appended;
  gboolean           gone;
} Stream;

static void
run_free (Run *run)
{
  g_free (run->thread_id);
  g_free (run->question);
  g_free (run);
}

static char *
word (guint index)
{
  return g_strdup_printf ("w%u ", index);
}

static void
stream_append (Stream     *stream,
               const char *json)
{
  g_autofree char *frame = NULL;
  gsize length;

  if (stream->gone)
    return;

  frame = g_strdup_printf ("data: %s\n\n", json);
  length = strlen (frame);
  soup_message_body_append (soup_server_message_get_response_body (stream->msg), SOUP_MEMORY_COPY, frame, length);
  stream->appended += length;
  soup_server_message_unpause (stream->msg);
}

static gboolean
on_word_cb (gpointer user_data)
{
  Stream *stream = user_data;

  if (stream->gone)
    return G_SOURCE_REMOVE;

  if (stream->next_word < WORDS)
    {
      g_autofree char *text = word (stream->next_word);
      g_autofree char *json = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"answer\",\"delta\":\"%s\"}",
                                               text);

      stream_append (stream, json);
      g_mutex_lock (&stream->agent->lock);
      stream->run->word_end[stream->next_word++] = stream->appended;
      g_mutex_unlock (&stream->agent->lock);
      return G_SOURCE_CONTINUE;
    }

  stream_append (stream, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"answer\"}");
  stream_append (stream, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  if (!stream->gone)
    {
      soup_message_body_complete (soup_server_message_get_response_body (stream->msg));
      soup_server_message_unpause (stream->msg);
    }
  g_clear_pointer (&stream->timer, g_source_unref);

  return G_SOURCE_REMOVE;
}

/* What reached the socket: the words whose chunks it holds have left */
static void
on_wrote_body_data_cb (SoupServerMessage *msg,
                       guint              size,
                       Stream            *stream)
{
  gint64 now = g_get_monotonic_time ();
  Run *run = stream->run;

  g_mutex_lock (&stream->agent->lock);
  run->written += size;
  for (guint i = 0; i < WORDS && run->word_end[i] != 0; i++)
    if (run->word_sent[i] == 0 && run->word_end[i] <= run->written)
      run->word_sent[i] = now;
  g_mutex_unlock (&stream->agent->lock);
}

static gboolean
free_stream_cb (gpointer user_data)
{
  Stream *stream = user_data;

  g_object_unref (stream->msg);
  g_free (stream);

  return G_SOURCE_REMOVE;
}

/* Answered, or the client gone (killed). libsoup says so with "finished";
 * for a response paused between two words when the client dies, it may
 * say only "disconnected", after which the message takes no more unpause
 * (that was CI's SIGTRAP: soup_server_message_unpause () on a message
 * without I/O). Either may come from inside the word timer's unpause, so
 * the stream is freed in an idle, and everything that writes to the
 * message first looks whether it is gone. */
static void
on_finished_cb (SoupServerMessage *msg,
                Stream            *stream)
{
  GSource *idle;

  if (stream->gone)
    return;

  stream->gone = TRUE;
  if (stream->timer != NULL)
    {
      g_source_destroy (stream->timer);
      g_clear_pointer (&stream->timer, g_source_unref);
    }
  g_signal_handlers_disconnect_by_data (msg, stream);

  idle = g_idle_source_new ();
  g_source_set_callback (idle, free_stream_cb, stream, NULL);
  g_source_attach (idle, stream->agent->context);
  g_source_unref (idle);
}

static char *
dup_question (JsonObject *input)
{
  JsonArray *messages;
  JsonObject *last;
  JsonNode *content;

  if (!json_object_has_member (input, "messages"))
    return NULL;
  messages = json_object_get_array_member (input, "messages");
  if (json_array_get_length (messages) == 0)
    return NULL;
  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  content = json_object_get_member (last, "content");
  if (content != NULL && JSON_NODE_HOLDS_VALUE (content))
    return g_strdup (json_node_get_string (content));

  return NULL;
}

static void
on_request_cb (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  Agent *agent = user_data;
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autoptr(JsonNode) input = NULL;
  Stream *stream;
  Run *run;

  input = json_from_string (g_bytes_get_data (bytes, NULL), NULL);
  if (g_strcmp0 (soup_server_message_get_method (msg), "POST") != 0 ||
      input == NULL || !JSON_NODE_HOLDS_OBJECT (input))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  run = g_new0 (Run, 1);
  run->thread_id = g_strdup (json_object_get_string_member_with_default (json_node_get_object (input), "threadId", ""));
  run->question = dup_question (json_node_get_object (input));

  stream = g_new0 (Stream, 1);
  stream->agent = agent;
  stream->run = run;
  stream->msg = g_object_ref (msg);
  g_signal_connect (msg, "wrote-body-data", G_CALLBACK (on_wrote_body_data_cb), stream);
  g_signal_connect (msg, "finished", G_CALLBACK (on_finished_cb), stream);
  g_signal_connect (msg, "disconnected", G_CALLBACK (on_finished_cb), stream);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg), SOUP_ENCODING_CHUNKED);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Content-Type", "text/event-stream");
  soup_server_message_pause (msg);

  g_mutex_lock (&agent->lock);
  g_ptr_array_add (agent->runs, run);
  g_mutex_unlock (&agent->lock);

  stream_append (stream, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  stream_append (stream, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"answer\",\"role\":\"assistant\"}");

  stream->timer = g_timeout_source_new (WORD_MS);
  g_source_set_callback (stream->timer, on_word_cb, stream, NULL);
  g_source_attach (stream->timer, agent->context);
}

static gpointer
agent_thread (gpointer data)
{
  Agent *agent = data;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;

  g_main_context_push_thread_default (agent->context);

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, on_request_cb, agent, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);

  g_mutex_lock (&agent->lock);
  agent->url = g_uri_to_string (uris->data);
  g_cond_signal (&agent->ready);
  g_mutex_unlock (&agent->lock);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);

  g_main_loop_run (agent->loop);

  soup_server_disconnect (server);
  g_clear_object (&server);
  while (g_main_context_iteration (agent->context, FALSE))
    ;
  g_main_context_pop_thread_default (agent->context);

  return NULL;
}

static Agent *
agent_start (void)
{
  Agent *agent = g_new0 (Agent, 1);

  g_mutex_init (&agent->lock);
  g_cond_init (&agent->ready);
  agent->context = g_main_context_new ();
  agent->loop = g_main_loop_new (agent->context, FALSE);
  agent->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) run_free);

  g_mutex_lock (&agent->lock);
  agent->thread = g_thread_new ("agent", agent_thread, agent);
  while (agent->url == NULL)
    g_cond_wait (&agent->ready, &agent->lock);
  g_mutex_unlock (&agent->lock);

  return agent;
}

static gboolean
on_quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
agent_stop (Agent *agent)
{
  GSource *quit = g_idle_source_new ();

  g_source_set_callback (quit, on_quit_cb, agent->loop, NULL);
  g_source_attach (quit, agent->context);
  g_source_unref (quit);
  g_thread_join (agent->thread);

  g_main_loop_unref (agent->loop);
  g_main_context_unref (agent->context);
  g_ptr_array_unref (agent->runs);
  g_free (agent->url);
  g_mutex_clear (&agent->lock);
  g_cond_clear (&agent->ready);
  g_free (agent);
}

static guint
agent_n_runs (Agent *agent)
{
  guint n;

  g_mutex_lock (&agent->lock);
  n = agent->runs->len;
  g_mutex_unlock (&agent->lock);

  return n;
}

/* A copy of run @index as it is now, for the main thread */
static Run *
agent_dup_run (Agent *agent,
               guint  index)
{
  Run *copy = g_new0 (Run, 1);
  Run *run;

  g_mutex_lock (&agent->lock);
  run = g_ptr_array_index (agent->runs, index);
  *copy = *run;
  copy->thread_id = g_strdup (run->thread_id);
  copy->question = g_strdup (run->question);
  g_mutex_unlock (&agent->lock);

  return copy;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* The program, and the X server's keyboard */

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocess *
launch_app (const char *home,
            const char *store_path,
            const char *agent_url)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  const char *program = g_getenv ("TANDEM_APP");
  static const char * const folders[][2] = {
    { "XDG_CONFIG_HOME", "config" }, { "XDG_DATA_HOME", "data" },
    { "XDG_CACHE_HOME", "cache" }, { "XDG_STATE_HOME", "state" },
  };
  GSubprocess *process;

  g_assert_nonnull (program);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *folder = g_build_filename (home, folders[i][1], NULL);

      g_subprocess_launcher_setenv (launcher, folders[i][0], folder, TRUE);
    }
  /* llvmpipe's stalls, which the benchmarks avoid too, would make the
   * program fall behind the words it is sent */
  g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", "cairo", TRUE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);

  process = g_subprocess_launcher_spawn (launcher, &error, program, "--store", store_path, "--agent", agent_url, NULL);
  g_assert_no_error (error);

  return process;
}

static Display *
x_display (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return gdk_x11_display_get_xdisplay (display);
}

/* The program's window once the X server shows it: a toplevel whose
 * _NET_WM_PID is @pid (GTK's hidden leader window has it too, unmapped) */
static Window
find_window (pid_t pid)
{
  Display *display = x_display ();
  Atom pid_atom = XInternAtom (display, "_NET_WM_PID", False);
  Window root = DefaultRootWindow (display);
  Window parent;
  Window *children = NULL;
  unsigned int n = 0;
  Window found = None;

  gdk_x11_display_error_trap_push (gdk_display_get_default ());
  if (XQueryTree (display, root, &root, &parent, &children, &n))
    for (unsigned int i = 0; i < n && found == None; i++)
      {
        XWindowAttributes attributes;
        unsigned char *data = NULL;
        unsigned long items = 0, after;
        Atom type;
        int format;

        if (!XGetWindowAttributes (display, children[i], &attributes) || attributes.map_state != IsViewable)
          continue;
        if (XGetWindowProperty (display, children[i], pid_atom, 0, 1, False, XA_CARDINAL,
                                &type, &format, &items, &after, &data) == Success &&
            data != NULL && items == 1 && format == 32 && (pid_t) *(unsigned long *) data == pid)
          found = children[i];
        if (data != NULL)
          XFree (data);
      }
  if (children != NULL)
    XFree (children);
  gdk_x11_display_error_trap_pop_ignored (gdk_display_get_default ());

  return found;
}

static void
press (Display *display,
       KeySym   keysym)
{
  KeyCode code = XKeysymToKeycode (display, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (display, code, True, CurrentTime);
  XTestFakeKeyEvent (display, code, False, CurrentTime);
}

/* Types @text (lower-case letters, digits and spaces) into @window */
static void
type_text (Window      window,
           const char *text)
{
  Display *display = x_display ();

  gdk_x11_display_error_trap_push (gdk_display_get_default ());
  XSetInputFocus (display, window, RevertToParent, CurrentTime);
  for (const char *c = text; *c != '\0'; c++)
    press (display, *c == ' ' ? XK_space : (KeySym) *c);
  XFlush (display);
  gdk_x11_display_error_trap_pop_ignored (gdk_display_get_default ());
}

static void
press_return (Window window)
{
  Display *display = x_display ();

  gdk_x11_display_error_trap_push (gdk_display_get_default ());
  XSetInputFocus (display, window, RevertToParent, CurrentTime);
  press (display, XK_Return);
  XFlush (display);
  gdk_x11_display_error_trap_pop_ignored (gdk_display_get_default ());
}

/* A new launch is the program's first instance only once the killed one
 * left the bus */
static gboolean
app_name_owned (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  gboolean owned = FALSE;

  g_assert_nonnull (bus);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "NameHasOwner",
                                       g_variant_new ("(s)", APPLICATION_ID),
                                       G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  g_assert_nonnull (reply);
  g_variant_get (reply, "(b)", &owned);

  return owned;
}

/* When a word was shown: the window manager's ping (_NET_WM_PING),
 * which GTK answers from its main loop, and the X server's damage
 * reports of the window, which say when the program drew in it. Pings go
 * one at a time, each once the one before was answered, so that each
 * answer is a turn of the program's loop after the one before: all the
 * pings sent while the program had no time would be answered in one go.
 * Everything comes on one connection, in the order the X server made it,
 * so a drawing reported after an answer was asked for after it.
 *
 * A word that reached the program before a ping was sent was taken in by
 * the turn of the loop that answered it (its socket was ready then, and
 * is read at the priority X events are); the turn after that one did
 * whatever the word queued; the first drawing after that has the word in
 * it. A program the machine gave no time (a loaded CI runner) has shown
 * nothing, and a journal can keep nothing it did not see. */

#define MAX_PINGS 4096
#define MAX_DAMAGES 65536

typedef struct
{
  Display *display;
  Atom     protocols;
  Atom     ping;
  int      damage_event;
  Damage   damage;
  guint    n_sent;
  gint64   sent[MAX_PINGS];
  gint64   answered[MAX_PINGS];
  /* How many damage reports had come when each ping was answered, and
   * when each came */
  guint    damages_before[MAX_PINGS];
  guint    n_damages;
  gint64   damaged[MAX_DAMAGES];
} Pinger;

static Pinger the_pinger;

static void
pinger_init (Pinger *pinger)
{
  int damage_error;

  memset (pinger, 0, sizeof *pinger);
  pinger->display = XOpenDisplay (NULL);
  g_assert_nonnull (pinger->display);
  pinger->protocols = XInternAtom (pinger->display, "WM_PROTOCOLS", False);
  pinger->ping = XInternAtom (pinger->display, "_NET_WM_PING", False);
  g_assert_true (XDamageQueryExtension (pinger->display, &pinger->damage_event, &damage_error));
  /* GTK sends the answer to the root window */
  XSelectInput (pinger->display, DefaultRootWindow (pinger->display), SubstructureNotifyMask);
  XFlush (pinger->display);
}

static void
pinger_collect (Pinger *pinger)
{
  while (XPending (pinger->display))
    {
      XEvent event;
      unsigned long serial;

      XNextEvent (pinger->display, &event);
      if (event.type == pinger->damage_event + XDamageNotify)
        {
          if (pinger->n_damages < MAX_DAMAGES)
            pinger->damaged[pinger->n_damages++] = g_get_monotonic_time ();
          continue;
        }
      if (event.type != ClientMessage || event.xclient.message_type != pinger->protocols ||
          (Atom) event.xclient.data.l[0] != pinger->ping)
        continue;
      serial = (unsigned long) event.xclient.data.l[1];
      if (serial >= 1 && serial <= pinger->n_sent && pinger->answered[serial - 1] == 0)
        {
          pinger->answered[serial - 1] = g_get_monotonic_time ();
          pinger->damages_before[serial - 1] = pinger->n_damages;
        }
    }
}

static void
pinger_send (Pinger *pinger,
             Window  window)
{
  XEvent event = { 0 };

  if (pinger->n_sent == MAX_PINGS)
    return;
  pinger->sent[pinger->n_sent++] = g_get_monotonic_time ();
  event.xclient.type = ClientMessage;
  event.xclient.window = window;
  event.xclient.message_type = pinger->protocols;
  event.xclient.format = 32;
  event.xclient.data.l[0] = pinger->ping;
  event.xclient.data.l[1] = pinger->n_sent;
  event.xclient.data.l[2] = window;
  XSendEvent (pinger->display, window, False, NoEventMask, &event);
  XFlush (pinger->display);
}

/* Waits until @until, pinging @window whenever its last ping was
 * answered, and noting when the window was drawn */
static void
pinger_watch (Pinger *pinger,
              Window  window,
              gint64  until)
{
  pinger->n_sent = 0;
  pinger->n_damages = 0;
  memset (pinger->answered, 0, sizeof pinger->answered);
  pinger->damage = XDamageCreate (pinger->display, window, XDamageReportRawRectangles);
  XFlush (pinger->display);
  while (g_get_monotonic_time () < until)
    {
      if (pinger->n_sent == 0 || pinger->answered[pinger->n_sent - 1] != 0)
        pinger_send (pinger, window);
      pinger_collect (pinger);
      g_usleep (MIN (1000, MAX (until - g_get_monotonic_time (), 0)));
    }
  pinger_collect (pinger);
  XDamageDestroy (pinger->display, pinger->damage);
  XSync (pinger->display, False);
}

/* When what reached the program at @time was on screen: the program's
 * loop went round twice after it (the first ping sent after it was
 * answered, and the next one, sent after that answer), and drew after
 * that; 0 if it did not before the kill */
static gint64
shown_at (const Pinger *pinger,
          gint64        time)
{
  for (guint i = 0; i + 1 < pinger->n_sent; i++)
    if (pinger->sent[i] > time)
      {
        guint drawn;

        if (pinger->answered[i + 1] == 0)
          return 0;
        drawn = pinger->damages_before[i + 1];
        return drawn < pinger->n_damages ? pinger->damaged[drawn] : 0;
      }

  return 0;
}

/* What a relaunch finds */

/* The answer as far as the store must keep it: every word that left
 * the agent and was shown KEEP_MS or more before @killed_at */
static char *
dup_kept_words (const Run    *run,
                const Pinger *pinger,
                gint64        killed_at)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < WORDS && run->word_sent[i] != 0 && run->word_sent[i] <= killed_at - KEEP_MS * 1000; i++)
    {
      gint64 shown = shown_at (pinger, run->word_sent[i]);

      g_autofree char *next = NULL;

      if (shown == 0 || shown > killed_at - KEEP_MS * 1000)
        break;
      next = word (i);
      g_string_append (text, next);
    }

  return g_string_free (text, FALSE);
}

/* For a failure: when each word left and was shown, before the kill */
static char *
dup_timeline (const Run    *run,
              const Pinger *pinger,
              gint64        killed_at)
{
  GString *text = g_string_new (NULL);
  guint answered = 0;

  for (guint i = 0; i < pinger->n_sent; i++)
    answered += pinger->answered[i] != 0;
  g_string_append_printf (text, "killed at %" G_GINT64_FORMAT "; %u pings, %u answered, %u drawings;",
                          killed_at, pinger->n_sent, answered, pinger->n_damages);
  for (guint i = 0; i < WORDS && run->word_sent[i] != 0 && run->word_sent[i] <= killed_at; i++)
    {
      gint64 shown = shown_at (pinger, run->word_sent[i]);

      g_string_append_printf (text, " w%u left %" G_GINT64_FORMAT " ms before the kill, ", i,
                              (killed_at - run->word_sent[i]) / 1000);
      if (shown != 0)
        g_string_append_printf (text, "shown %" G_GINT64_FORMAT " ms before;", (killed_at - shown) / 1000);
      else
        g_string_append (text, "not shown;");
    }

  return g_string_free (text, FALSE);
}

static char *
dup_full_answer (void)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < WORDS; i++)
    {
      g_autofree char *next = word (i);

      g_string_append (text, next);
    }

  return g_string_free (text, FALSE);
}

/* Restores the run's conversation from the store, as the window does on
 * opening it; returns whether the answer was cut short */
static gboolean
check_store (const char *store_path,
             const Run  *run,
             gint64      killed_at,
             int         round)
{
  g_autoptr(AguiSessionStore) store = NULL;
  g_autoptr(AguiDemoAgent) demo = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) answer = g_string_new (NULL);
  g_autofree char *kept = dup_kept_words (run, &the_pinger, killed_at);
  g_autofree char *full = dup_full_answer ();
  gboolean asked = FALSE;
  GListModel *transcript;

  store = agui_session_store_new (store_path, &error);
  g_assert_no_error (error);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", demo, "thread-id", run->thread_id,
                          "store", store, NULL);
  g_assert_true (_agui_agent_session_restore (session, &error));
  g_assert_no_error (error);

  transcript = G_LIST_MODEL (agui_agent_session_get_transcript (session));
  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (transcript, i);
      g_autofree char *text = NULL;

      if (!AGUI_IS_SPEAKER_TURN (item))
        continue;
      text = agui_speaker_turn_dup_text (AGUI_SPEAKER_TURN (item));
      if (agui_speaker_turn_get_role (AGUI_SPEAKER_TURN (item)) == AGUI_ROLE_USER && g_strcmp0 (text, run->question) == 0)
        asked = TRUE;
      else if (agui_speaker_turn_get_role (AGUI_SPEAKER_TURN (item)) == AGUI_ROLE_ASSISTANT && text != NULL)
        g_string_append (answer, text);
    }

  if (!asked)
    g_error ("round %d: the question “%s”, which the agent received, is not in the store after the kill",
             round, run->question);
  if (!g_str_has_prefix (answer->str, kept))
    {
      g_autofree char *timeline = dup_timeline (run, &the_pinger, killed_at);

      g_error ("round %d: the store kept “%s” of the answer; “%s” had left and been shown %d ms or more before "
               "the kill (%s)", round, answer->str, kept, KEEP_MS, timeline);
    }
  if (!g_str_has_prefix (full, answer->str))
    g_error ("round %d: the store holds “%s”, which the agent never said", round, answer->str);

  return agui_run_state_get_status (agui_agent_session_get_run_state (session)) == AGUI_RUN_FAILED;
}

static gboolean
transcript_shows (TandemWindow *window,
                  const char   *question,
                  const char   *answer)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (tandem_test_child (window, "transcript_view"), GTK_TYPE_LABEL);
  g_autofree char *answer_shown = g_strstrip (g_strdup (answer));
  gboolean asked = FALSE;
  gboolean answered = answer_shown[0] == '\0';

  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      asked |= g_str_equal (text, question);
      answered |= g_str_has_prefix (text, answer_shown);
    }

  return asked && answered;
}

static gboolean
retry_offered (TandemWindow *window)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (window, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), "win.retry") == 0)
      return gtk_widget_is_sensitive (buttons->pdata[i]) && gtk_widget_is_drawable (buttons->pdata[i]);

  return FALSE;
}

/* The conversation opened in a relaunched window, as the program's code
 * shows it (the program's main() does nothing more than run it) */
static void
check_window (const char *store_path,
              const Run  *run,
              gint64      killed_at,
              gboolean    cut_short)
{
  static guint n;
  g_autofree char *id = g_strdup_printf ("io.github.tandemdesk.Tandem.Relaunch%u", n++);
  g_autoptr(TandemApplication) app = tandem_test_application_new (id, store_path);
  g_autofree char *kept = dup_kept_words (run, &the_pinger, killed_at);
  TandemWindow *window = tandem_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  tandem_test_wait_for_layout (window);
  tandem_window_open_thread (window, run->thread_id);
  agui_test_wait_until (transcript_shows (window, run->question, kept),
                        "the relaunched window shows the question “%s” and the answer “%s”", run->question, kept);
  /* An answer cut short says so, and offers Retry */
  if (cut_short)
    agui_test_wait_until (gtk_revealer_get_reveal_child (GTK_REVEALER (tandem_test_child (window, "error_revealer"))) &&
                          retry_offered (window),
                          "the answer cut short is marked failed, with Retry");
  tandem_test_destroy_window (window);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static int
env_int (const char *name,
         int         fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && value[0] != '\0' ? (int) g_ascii_strtoll (value, NULL, 10) : fallback;
}

static void
test_kill_streamed_runs (void)
{
  int rounds = env_int ("TANDEM_TEST_KILL_ROUNDS", 100);
  int window_every = MAX (env_int ("TANDEM_TEST_KILL_WINDOW_EVERY", 10), 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("tandem-app-kill-XXXXXX", &error);
  g_autofree char *store_path = NULL;
  Agent *agent;
  gint64 started = g_get_monotonic_time ();
  int cut_short = 0;
  int windows = 0;
  int words_checked = 0;

  g_test_summary ("The tandem program killed (SIGKILL) at random instants of streamed answers keeps the "
                  "question always and every word of the answer shown 250 ms before the kill");

  g_assert_no_error (error);
  store_path = g_build_filename (home, "tandem.db", NULL);
  agent = agent_start ();
  pinger_init (&the_pinger);

  for (int round = 0; round < rounds; round++)
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(Run) run = NULL;
      g_autofree char *question = g_strdup_printf ("question %d about the weather in town %u",
                                                   round, g_test_rand_int_range (1, 1000));
      g_autofree char *kept = NULL;
      guint before = agent_n_runs (agent);
      gint64 deadline;
      gint64 asked_at;
      gint64 killed_at;
      Window window = None;
      gboolean interrupted;
      pid_t pid;

      agui_test_wait_until (!app_name_owned (), "the killed program left the session bus");
      process = launch_app (home, store_path, agent->url);
      pid = (pid_t) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);
      agui_test_wait_until ((window = find_window (pid)) != None, "round %d: the program's window is shown", round);

      /* Return until it is taken: the program may still be opening its store */
      type_text (window, question);
      deadline = g_get_monotonic_time () + SEND_TIMEOUT_S * G_USEC_PER_SEC;
      while (agent_n_runs (agent) == before)
        {
          gint64 next = g_get_monotonic_time () + 100 * 1000;

          if (g_get_monotonic_time () > deadline)
            g_error ("round %d: the question typed was not sent within %d s", round, SEND_TIMEOUT_S);
          press_return (window);
          while (agent_n_runs (agent) == before && g_get_monotonic_time () < next)
            {
              g_main_context_iteration (NULL, FALSE);
              g_usleep (2000);
            }
        }
      asked_at = g_get_monotonic_time ();
      g_assert_cmpuint (agent_n_runs (agent), ==, before + 1);

      /* Anywhere from the request to a while after the answer ended */
      pinger_watch (&the_pinger, window, g_get_monotonic_time () + g_test_rand_int_range (0, (WORDS * WORD_MS + 400) * 1000));
      killed_at = g_get_monotonic_time ();
      g_subprocess_send_signal (process, SIGKILL);
      g_assert_true (g_subprocess_wait (process, NULL, &error));
      g_assert_no_error (error);
      if (!g_subprocess_get_if_signaled (process) || g_subprocess_get_term_sig (process) != SIGKILL)
        g_error ("round %d: the program ended before it was killed", round);

      run = agent_dup_run (agent, before);
      g_assert_cmpstr (run->question, ==, question);
      kept = dup_kept_words (run, &the_pinger, killed_at);
      for (const char *c = kept; *c != '\0'; c++)
        words_checked += *c == ' ';
      g_test_message ("round %d: killed %" G_GINT64_FORMAT " ms after the question, %zu bytes of the answer to keep",
                      round, (killed_at - asked_at) / 1000, strlen (kept));

      interrupted = check_store (store_path, run, killed_at, round);
      cut_short += interrupted;
      if (round % window_every == window_every - 1)
        {
          check_window (store_path, run, killed_at, interrupted);
          windows++;
        }
    }

  agent_stop (agent);
  XCloseDisplay (the_pinger.display);
  if (rounds >= 10)
    {
      g_assert_cmpint (cut_short, >, 0);
      g_assert_cmpint (words_checked, >, 0);
    }
  g_print ("# %d kills in %.1f s: %d answers cut short, %d words checked, %d windows looked at\n",
           rounds, (g_get_monotonic_time () - started) / 1e6, cut_short, words_checked, windows);

  remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  tandem_test_init (&argc, &argv);

  g_test_add_func ("/tandem/app-kill/streamed-runs", test_kill_streamed_runs);

  return g_test_run ();
}
