/* tandem-run-registry.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-run-registry.h"

/* The conversations of a window that are alive, shown or not.
 *
 * A window shows one conversation, but an answer goes on being written
 * when another is shown: the registry keeps each conversation's session
 * (and so its transcript and its connection to the agent) for as long as
 * its run goes, and for as long as a question of its agent is open, so
 * that opening it again shows the very session, still
 * streaming. Once it is idle and out of sight it is let go: the store
 * has it all by then, and opening it restores it from there.
 *
 * What the sidebar says of a conversation comes from here too: working
 * (a run going), an answer not yet seen (a run that ended out of sight)
 * and questions asked out of sight that nobody put to the person yet.
 * These are the window's memory, not the store's: a relaunch starts
 * with none.
 *
 * Runs are bounded (TANDEM_RUN_REGISTRY_MAX_RUNS in the window): each
 * holds a connection to an agent and a transcript growing in memory. */

typedef struct
{
  TandemRunRegistry *registry;
  AguiAgentSession  *session;
  char              *thread_id;
  gboolean           busy;
} Entry;

struct _TandemRunRegistry
{
  GObject     parent_instance;
  GHashTable *entries;  /* thread id → Entry */
  GHashTable *unseen;   /* thread ids */
  GPtrArray  *unasked;  /* thread ids, oldest first */
  char       *shown;
  guint       max_runs;
  guint       n_running;
};

G_DEFINE_FINAL_TYPE (TandemRunRegistry, tandem_run_registry, G_TYPE_OBJECT)

enum { PROP_0, PROP_N_RUNNING, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { CHANGED, APPROVAL_NEEDED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Helpers */

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_signal_handlers_disconnect_by_data (entry->session, entry);
  g_clear_object (&entry->session);
  g_free (entry->thread_id);
  g_free (entry);
}

static gboolean
is_shown (TandemRunRegistry *self,
          const char        *thread_id)
{
  return g_strcmp0 (self->shown, thread_id) == 0;
}

static guint
find_unasked (TandemRunRegistry *self,
              const char        *thread_id)
{
  for (guint i = 0; i < self->unasked->len; i++)
    if (g_str_equal (g_ptr_array_index (self->unasked, i), thread_id))
      return i;

  return G_MAXUINT;
}

static void
remove_unasked (TandemRunRegistry *self,
                const char        *thread_id)
{
  guint index = find_unasked (self, thread_id);

  if (index != G_MAXUINT)
    g_ptr_array_remove_index (self->unasked, index);
}

static void
update_n_running (TandemRunRegistry *self)
{
  GHashTableIter iter;
  Entry *entry;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->busy)
      n++;

  if (n == self->n_running)
    return;

  self->n_running = n;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_RUNNING]);
}

/* Out of sight, with no run and no question, a conversation is the
 * store's alone. One whose questions expired is kept all the same: the
 * store knows nothing of expiry, and would have the sidebar say it
 * still waits. */
static void
release_if_idle (TandemRunRegistry *self,
                 const char        *thread_id)
{
  Entry *entry = g_hash_table_lookup (self->entries, thread_id);

  if (entry == NULL)
    return;

  if (!tandem_session_waits_for_person (entry->session))
    remove_unasked (self, thread_id);

  if (is_shown (self, thread_id) || entry->busy ||
      g_list_model_get_n_items (agui_agent_session_get_pending_interrupts (entry->session)) > 0)
    return;

  g_hash_table_remove (self->entries, thread_id);
}

static void
on_session_busy_cb (AguiAgentSession *session,
                    GParamSpec       *pspec,
                    Entry            *entry)
{
  TandemRunRegistry *self = entry->registry;
  /* Letting the entry go drops its reference, in the session's own notify */
  g_autoptr(AguiAgentSession) hold = g_object_ref (session);
  g_autofree char *thread_id = g_strdup (entry->thread_id);
  gboolean busy = agui_agent_session_get_busy (session);
  gboolean asks = FALSE;

  if (busy == entry->busy)
    return;

  entry->busy = busy;
  if (!busy && !is_shown (self, thread_id))
    {
      g_hash_table_add (self->unseen, g_strdup (thread_id));
      if (tandem_session_waits_for_person (session) && find_unasked (self, thread_id) == G_MAXUINT)
        {
          g_ptr_array_add (self->unasked, g_strdup (thread_id));
          asks = TRUE;
        }
    }

  /* The entry may go here */
  release_if_idle (self, thread_id);
  update_n_running (self);
  g_signal_emit (self, signals[CHANGED], 0, thread_id);
  if (asks)
    g_signal_emit (self, signals[APPROVAL_NEEDED], 0, thread_id);
}

/* Answered elsewhere, or expired: nothing waits any more */
static void
on_session_interrupts_cb (AguiAgentSession *session,
                          GParamSpec       *pspec,
                          Entry            *entry)
{
  TandemRunRegistry *self = entry->registry;
  g_autoptr(AguiAgentSession) hold = g_object_ref (session);
  g_autofree char *thread_id = g_strdup (entry->thread_id);

  release_if_idle (self, thread_id);
  g_signal_emit (self, signals[CHANGED], 0, thread_id);
}

/* GObject */

static void
tandem_run_registry_dispose (GObject *object)
{
  TandemRunRegistry *self = TANDEM_RUN_REGISTRY (object);

  g_hash_table_remove_all (self->entries);

  G_OBJECT_CLASS (tandem_run_registry_parent_class)->dispose (object);
}

static void
tandem_run_registry_finalize (GObject *object)
{
  TandemRunRegistry *self = TANDEM_RUN_REGISTRY (object);

  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->unseen, g_hash_table_unref);
  g_clear_pointer (&self->unasked, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_free);

  G_OBJECT_CLASS (tandem_run_registry_parent_class)->finalize (object);
}

static void
tandem_run_registry_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TandemRunRegistry *self = TANDEM_RUN_REGISTRY (object);

  switch (prop_id)
    {
    case PROP_N_RUNNING:
      g_value_set_uint (value, self->n_running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_run_registry_class_init (TandemRunRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_run_registry_dispose;
  object_class->finalize = tandem_run_registry_finalize;
  object_class->get_property = tandem_run_registry_get_property;

  properties[PROP_N_RUNNING] =
    g_param_spec_uint ("n-running", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* What the sidebar says of the conversation may have changed */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /* A conversation out of sight ended its run with questions for the person */
  signals[APPROVAL_NEEDED] =
    g_signal_new ("approval-needed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
tandem_run_registry_init (TandemRunRegistry *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  self->unseen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->unasked = g_ptr_array_new_with_free_func (g_free);
}

/* API */

TandemRunRegistry *
tandem_run_registry_new (guint max_runs)
{
  TandemRunRegistry *self;

  g_return_val_if_fail (max_runs > 0, NULL);

  self = g_object_new (TANDEM_TYPE_RUN_REGISTRY, NULL);
  self->max_runs = max_runs;

  return self;
}

/**
 * tandem_run_registry_show:
 * @self: a registry
 * @session: the conversation the window shows now
 *
 * Keeps @session while it is shown and after, for as long as it runs
 * or waits for the person; the one shown before is let go if idle. Its
 * answer is seen now. Another session kept for the same thread (the
 * conversation opened anew on another agent) is let go, never stopped.
 */
void
tandem_run_registry_show (TandemRunRegistry *self,
                          AguiAgentSession  *session)
{
  g_autofree char *before = NULL;
  const char *thread_id;
  Entry *entry;

  g_return_if_fail (TANDEM_IS_RUN_REGISTRY (self));
  g_return_if_fail (AGUI_IS_AGENT_SESSION (session));

  thread_id = agui_agent_session_get_thread_id (session);
  before = g_steal_pointer (&self->shown);
  self->shown = g_strdup (thread_id);

  entry = g_hash_table_lookup (self->entries, thread_id);
  if (entry != NULL && entry->session != session)
    {
      g_hash_table_remove (self->entries, thread_id);
      entry = NULL;
    }
  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      entry->registry = self;
      entry->session = g_object_ref (session);
      entry->thread_id = g_strdup (thread_id);
      entry->busy = agui_agent_session_get_busy (session);
      g_signal_connect (session, "notify::busy", G_CALLBACK (on_session_busy_cb), entry);
      g_signal_connect (session, "notify::pending-interrupts", G_CALLBACK (on_session_interrupts_cb), entry);
      g_hash_table_insert (self->entries, entry->thread_id, entry);
    }
  g_hash_table_remove (self->unseen, thread_id);

  if (before != NULL && !g_str_equal (before, thread_id))
    release_if_idle (self, before);
  update_n_running (self);

  if (before != NULL && !g_str_equal (before, thread_id))
    g_signal_emit (self, signals[CHANGED], 0, before);
  g_signal_emit (self, signals[CHANGED], 0, thread_id);
}

/**
 * tandem_run_registry_lookup:
 * @self: a registry
 * @thread_id: a conversation's thread
 *
 * Returns: (transfer none) (nullable): the live session of @thread_id,
 *   running or waiting for the person, or %NULL when only the store has it
 */
AguiAgentSession *
tandem_run_registry_lookup (TandemRunRegistry *self,
                            const char        *thread_id)
{
  Entry *entry;

  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), NULL);

  if (thread_id == NULL || (entry = g_hash_table_lookup (self->entries, thread_id)) == NULL)
    return NULL;

  return entry->session;
}

guint
tandem_run_registry_get_n_running (TandemRunRegistry *self)
{
  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), 0);

  return self->n_running;
}

guint
tandem_run_registry_get_max_runs (TandemRunRegistry *self)
{
  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), 0);

  return self->max_runs;
}

/* Whether one more run may start: fewer than the bound are going */
gboolean
tandem_run_registry_can_start (TandemRunRegistry *self)
{
  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), FALSE);

  return self->n_running < self->max_runs;
}

gboolean
tandem_run_registry_is_working (TandemRunRegistry *self,
                                const char        *thread_id)
{
  Entry *entry;

  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), FALSE);

  return thread_id != NULL && (entry = g_hash_table_lookup (self->entries, thread_id)) != NULL && entry->busy;
}

/* An answer ended while another conversation was shown */
gboolean
tandem_run_registry_is_unseen (TandemRunRegistry *self,
                               const char        *thread_id)
{
  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), FALSE);

  return thread_id != NULL && g_hash_table_contains (self->unseen, thread_id);
}

/**
 * tandem_run_registry_take_unasked:
 * @self: a registry
 * @thread_id: a conversation's thread
 *
 * Returns: whether @thread_id has questions asked out of sight that
 *   were never put to the person; they count as put from now on
 */
gboolean
tandem_run_registry_take_unasked (TandemRunRegistry *self,
                                  const char        *thread_id)
{
  guint index;

  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), FALSE);

  if (thread_id == NULL || (index = find_unasked (self, thread_id)) == G_MAXUINT)
    return FALSE;

  g_ptr_array_remove_index (self->unasked, index);
  g_signal_emit (self, signals[CHANGED], 0, thread_id);

  return TRUE;
}

/**
 * tandem_run_registry_dup_unasked:
 * @self: a registry
 *
 * Returns: (transfer full) (nullable): the conversation whose questions,
 *   asked out of sight, came last and are not put to the person yet
 */
char *
tandem_run_registry_dup_unasked (TandemRunRegistry *self)
{
  g_return_val_if_fail (TANDEM_IS_RUN_REGISTRY (self), NULL);

  for (guint i = self->unasked->len; i > 0; i--)
    {
      const char *thread_id = g_ptr_array_index (self->unasked, i - 1);

      if (!is_shown (self, thread_id))
        return g_strdup (thread_id);
    }

  return NULL;
}

/* The conversation was deleted: its run stops, its marks go */
void
tandem_run_registry_forget (TandemRunRegistry *self,
                            const char        *thread_id)
{
  Entry *entry;

  g_return_if_fail (TANDEM_IS_RUN_REGISTRY (self));
  g_return_if_fail (thread_id != NULL);

  if ((entry = g_hash_table_lookup (self->entries, thread_id)) != NULL && !is_shown (self, thread_id))
    {
      g_autoptr(AguiAgentSession) session = g_object_ref (entry->session);

      g_hash_table_remove (self->entries, thread_id);
      agui_agent_session_cancel (session);
    }
  g_hash_table_remove (self->unseen, thread_id);
  remove_unasked (self, thread_id);
  update_n_running (self);
  g_signal_emit (self, signals[CHANGED], 0, thread_id);
}

/* Quitting: every run stops as Stop does, its answer so far saved */
void
tandem_run_registry_stop_all (TandemRunRegistry *self)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  Entry *entry;

  g_return_if_fail (TANDEM_IS_RUN_REGISTRY (self));

  /* Cancelling may change the table under an iterator */
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->busy)
      g_ptr_array_add (sessions, g_object_ref (entry->session));

  for (guint i = 0; i < sessions->len; i++)
    agui_agent_session_cancel (g_ptr_array_index (sessions, i));
}

/**
 * tandem_session_waits_for_person:
 * @session: a conversation
 *
 * Returns: whether @session has a question for the person that has not
 *   expired (an expired one can only be dismissed), and is not already
 *   running on the answer
 */
gboolean
tandem_session_waits_for_person (AguiAgentSession *session)
{
  GListModel *interrupts;
  g_autoptr(GDateTime) now = NULL;

  g_return_val_if_fail (AGUI_IS_AGENT_SESSION (session), FALSE);

  /* The questions stay pending until the run that answers them ends;
   * while it runs, the person has already answered. */
  if (agui_agent_session_get_busy (session))
    return FALSE;

  interrupts = agui_agent_session_get_pending_interrupts (session);
  if (g_list_model_get_n_items (interrupts) == 0)
    return FALSE;

  now = g_date_time_new_now_utc ();
  for (guint i = 0; i < g_list_model_get_n_items (interrupts); i++)
    {
      g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (interrupts, i);

      if (!agui_interrupt_has_expired (interrupt, now))
        return TRUE;
    }

  return FALSE;
}
