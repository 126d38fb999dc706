/* tandem-agents-keyring.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-agents-private.h"

/* TandemAgents and the keyring: bearer tokens stored and looked up, the
 * transports made with them, and removing an agent, which forgets its
 * token too (so the core file never calls down into the keyring). */

#define KEYRING_TIMEOUT_SECONDS 30

static const SecretSchema token_schema = {
  "io.github.tandemdesk.Tandem.Token",
  SECRET_SCHEMA_NONE,
  {
    { "agent-id", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* Keyring calls: our own cancellable, cancelled by the caller's or after
 * a timeout, so that a keyring that never answers cannot hold a run. */

typedef void (*TokenFound) (GTask  *task,
                            char   *token,
                            GError *error);

typedef struct
{
  TokenFound    found;
  gulong        lookup_cancelled_id;
  gboolean      answered;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  guint         timeout_id;
  char         *id;
  char         *label;
  char         *token;
  TandemAgent  *agent;
} KeyringCall;

static void
keyring_call_free (KeyringCall *call)
{
  g_cancellable_disconnect (call->cancellable, call->lookup_cancelled_id);
  if (call->caller_cancellable != NULL)
    g_cancellable_disconnect (call->caller_cancellable, call->caller_cancelled_id);
  g_clear_handle_id (&call->timeout_id, g_source_remove);
  g_clear_object (&call->caller_cancellable);
  g_clear_object (&call->cancellable);
  g_clear_pointer (&call->id, g_free);
  g_clear_pointer (&call->label, g_free);
  if (call->token != NULL)
    secret_password_wipe (call->token);
  g_clear_pointer (&call->token, g_free);
  g_clear_object (&call->agent);
  g_free (call);
}

static void
on_caller_cancelled_cb (GCancellable *caller_cancellable,
                        GCancellable *cancellable)
{
  g_cancellable_cancel (cancellable);
}

static gboolean
on_keyring_timeout_cb (gpointer user_data)
{
  KeyringCall *call = user_data;

  call->timeout_id = 0;
  g_debug ("The keyring did not answer within %d seconds", KEYRING_TIMEOUT_SECONDS);
  g_cancellable_cancel (call->cancellable);

  return G_SOURCE_REMOVE;
}

static KeyringCall *
keyring_call_new (GCancellable *caller_cancellable,
                  const char   *id)
{
  KeyringCall *call = g_new0 (KeyringCall, 1);

  call->cancellable = g_cancellable_new ();
  call->id = g_strdup (id);
  call->timeout_id = g_timeout_add_seconds (KEYRING_TIMEOUT_SECONDS, on_keyring_timeout_cb, call);

  if (caller_cancellable != NULL)
    {
      call->caller_cancellable = g_object_ref (caller_cancellable);
      call->caller_cancelled_id = g_cancellable_connect (caller_cancellable,
                                                         G_CALLBACK (on_caller_cancelled_cb),
                                                         g_object_ref (call->cancellable),
                                                         g_object_unref);
    }

  return call;
}

static GHashTable *
token_attributes (const char *id)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (attributes, (gpointer) "agent-id", (gpointer) id);

  return attributes;
}

static void keyring_write_start (GTask *task);

static void
tandem_agents_store_token_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  TandemAgents *self = g_task_get_source_object (task);
  GTask *next;

  if (call->token != NULL)
    ok = secret_password_store_finish (result, &error);
  else
    ok = secret_password_clear_finish (result, &error) || error == NULL;

  g_assert (g_queue_peek_head (&self->keyring_writes) == task);
  g_object_unref (g_queue_pop_head (&self->keyring_writes));
  next = g_queue_peek_head (&self->keyring_writes);
  if (next != NULL)
    keyring_write_start (g_object_ref (next));

  if (ok)
    {
      _tandem_agents_emit_agent_changed (self, call->id);
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  g_debug ("The keyring is unavailable: %s", error->message);
  if (call->token != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             "%s", _("No keyring is available; the token was not saved"));
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             "%s", _("No keyring is available; the token was not removed"));
}

/**
 * tandem_agents_store_token_async:
 * @self: the agents
 * @id: an agent's id
 * @token: (nullable): its bearer token; %NULL or "" removes it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Keeps @token in the keyring, and only there. When no keyring answers
 * (no secret service, no session bus, or no answer within 30 seconds) the
 * token is not saved anywhere and the finish fails with
 * %G_IO_ERROR_NOT_SUPPORTED and a message saying so.
 */
void
tandem_agents_store_token_async (TandemAgents        *self,
                                 const char          *id,
                                 const char          *token,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  KeyringCall *call;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_store_token_async);

  if (strcmp (id, TANDEM_AGENTS_DEMO_ID) == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "%s", _("The demo agent takes no token"));
      return;
    }

  call = keyring_call_new (cancellable, id);
  if (token != NULL && token[0] != '\0')
    call->token = g_strdup (token);
  agent = _tandem_agents_ref_agent (self, id);
  call->label = g_strdup_printf (_("Tandem token for “%s”"), agent ? agent->name : id);
  g_task_set_task_data (task, call, (GDestroyNotify) keyring_call_free);

  g_queue_push_tail (&self->keyring_writes, g_object_ref (task));
  if (self->keyring_writes.length == 1)
    keyring_write_start (g_steal_pointer (&task));
}

/* Takes @task's reference; the write's callback starts the next one */
static void
keyring_write_start (GTask *task)
{
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = token_attributes (call->id);

  if (call->token != NULL)
    secret_password_storev (&token_schema, attributes, SECRET_COLLECTION_DEFAULT,
                            call->label, call->token, call->cancellable,
                            tandem_agents_store_token_cb, task);
  else
    secret_password_clearv (&token_schema, attributes, call->cancellable,
                            tandem_agents_store_token_cb, task);
}

gboolean
tandem_agents_store_token_finish (TandemAgents  *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The agent a keyring call on behalf of @task is about, or %NULL when
 * @task has already returned (cancelled, or no such agent). */
static TandemAgent *
ref_agent_for_task (TandemAgents *self,
                    GTask        *task,
                    const char   *id)
{
  TandemAgent *agent;

  if (g_task_return_error_if_cancelled (task))
    return NULL;

  if (!(agent = _tandem_agents_ref_agent (self, id)))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                             _("There is no agent with the id “%s”"), id);
  return agent;
}

/* A lookup is never cancelled inside libsecret: its file backend (the
 * tests', and Flatpak's through the portal) reads a cancelled secret with
 * an unset GError and returns its task twice (0.20, on_retrieve_secret()),
 * and conversations opened, switched away from or stopped cancel lookups.
 * The call gives up on our side instead and drops the late answer. */
static void
on_token_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *token;

  token = secret_password_lookup_finish (result, &error);
  if (call->answered)
    {
      if (token != NULL)
        secret_password_free (token);
      return;
    }

  call->answered = TRUE;
  call->found (task, token, error);
}

static void
on_lookup_given_up_cb (GCancellable *cancellable,
                       GTask        *task)
{
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (call->answered)
    return;

  call->answered = TRUE;
  if (g_task_return_error_if_cancelled (task))
    return;

  /* The timeout: as when no keyring answers */
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "No answer within %d seconds", KEYRING_TIMEOUT_SECONDS);
  call->found (task, NULL, error);
}

/* Takes @task and @call; @found gets the token (to free) or the error
 * once, unless the caller cancelled first. */
static void
lookup_token_for_task (GTask       *task,
                       KeyringCall *call,
                       TokenFound   found)
{
  g_autoptr(GHashTable) attributes = token_attributes (call->id);

  g_task_set_task_data (task, call, (GDestroyNotify) keyring_call_free);
  call->found = found;
  call->lookup_cancelled_id = g_cancellable_connect (call->cancellable, G_CALLBACK (on_lookup_given_up_cb),
                                                     task, NULL);
  if (call->answered)
    {
      g_object_unref (task);
      return;
    }

  secret_password_lookupv (&token_schema, attributes, NULL, on_token_looked_up_cb, task);
}

static void
tandem_agents_find_token_cb (GTask  *task,
                             char   *token,
                             GError *error)
{
  KeyringCall *call = g_task_get_task_data (task);

  if (error != NULL)
    {
      g_debug ("No keyring answered for “%s”: %s", call->id, error->message);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "%s", _("No keyring is available"));
      return;
    }

  /* NULL: nothing stored, which is no failure */
  g_task_return_pointer (task, token, (GDestroyNotify) secret_password_free);
}

/**
 * tandem_agents_lookup_token_async:
 * @self: the agents
 * @id: an agent's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the token
 * @user_data: data for @callback
 *
 * Reads the bearer token the keyring keeps for an agent, for a caller
 * that sends requests as the agent's transport would (Test Connection
 * on a saved agent whose token field was left empty). Like every
 * keyring call it gives up after 30 seconds.
 */
void
tandem_agents_lookup_token_async (TandemAgents        *self,
                                  const char          *id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_lookup_token_async);

  if (!(agent = ref_agent_for_task (self, task, id)))
    return;

  if (tandem_agent_is_demo (agent))
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  lookup_token_for_task (g_steal_pointer (&task), keyring_call_new (cancellable, id),
                         tandem_agents_find_token_cb);
}

/**
 * tandem_agents_lookup_token_finish:
 * @self: the agents
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the token, to be freed with
 *   secret_password_free(), which wipes it; %NULL with no error when the
 *   keyring holds none, %NULL with %G_IO_ERROR_NOT_SUPPORTED when no
 *   keyring answered, %G_IO_ERROR_NOT_FOUND for an unknown id
 */
char *
tandem_agents_lookup_token_finish (TandemAgents  *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tandem_agents_lookup_token_cb (GTask  *task,
                               char   *token,
                               GError *error)
{
  KeyringCall *call = g_task_get_task_data (task);
  TandemAgent *agent = call->agent;
  g_autoptr(GError) local_error = NULL;
  AguiTransport *transport;

  if (error != NULL)
    g_debug ("No keyring answered; connecting to “%s” without a token: %s",
             agent->id, error->message);
  else if (token == NULL)
    g_debug ("No token for “%s” in the keyring", agent->id);

  transport = tandem_agent_create_transport (agent, token, &local_error);
  if (token != NULL)
    secret_password_free (token);

  if (transport == NULL)
    g_task_return_error (task, g_steal_pointer (&local_error));
  else
    g_task_return_pointer (task, transport, g_object_unref);
}

/**
 * tandem_agents_create_transport_async:
 * @self: the agents
 * @id: an agent's id, or "demo"
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the transport
 * @user_data: data for @callback
 *
 * Makes the transport to talk to an agent: an [class@Agui.DemoAgent] for
 * "demo", an [class@Agui.OpenaiAgent] for a model on an OpenAI-compatible
 * server (its token as the API key), otherwise an [class@Agui.HttpTransport] with the agent's URL
 * and headers, a 30 second connect timeout, its idle timeout and largest
 * event and, when the keyring holds a
 * token for it, `Authorization: Bearer`. When no keyring answers, the
 * transport goes without the token.
 */
void
tandem_agents_create_transport_async (TandemAgents        *self,
                                      const char          *id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  KeyringCall *call;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_create_transport_async);

  if (!(agent = ref_agent_for_task (self, task, id)))
    return;

  if (tandem_agent_is_demo (agent))
    {
      g_task_return_pointer (task, agui_demo_agent_new (), g_object_unref);
      return;
    }

  call = keyring_call_new (cancellable, id);
  call->agent = g_steal_pointer (&agent);
  lookup_token_for_task (g_steal_pointer (&task), call, tandem_agents_lookup_token_cb);
}

/**
 * tandem_agents_create_transport_finish:
 * @self: the agents
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the transport, or %NULL with @error
 *   set: %G_IO_ERROR_NOT_FOUND for an unknown id, %AGUI_ERROR_CONFIG for a
 *   configuration the transport rejects
 */
AguiTransport *
tandem_agents_create_transport_finish (TandemAgents  *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_remove_token_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!tandem_agents_store_token_finish (TANDEM_AGENTS (object), result, &error))
    g_debug ("The token of a removed agent stays in the keyring: %s", error->message);
}

/**
 * tandem_agents_remove:
 * @self: the agents
 * @id: the id of a configured agent
 * @error: return location for a #GError
 *
 * Forgets the agent and, in the background, its token. Removing the
 * active agent makes the demo agent active.
 *
 * Returns: whether an agent was removed; %G_IO_ERROR_NOT_FOUND if none
 *   has @id, %G_IO_ERROR_INVALID_ARGUMENT for the demo agent
 */
gboolean
tandem_agents_remove (TandemAgents  *self,
                      const char    *id,
                      GError       **error)
{
  gboolean was_active;

  g_return_val_if_fail (TANDEM_IS_AGENTS (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (strcmp (id, TANDEM_AGENTS_DEMO_ID) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The demo agent cannot be removed"));
      return FALSE;
    }

  if (tandem_agents_lookup (self, id) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no agent with the id “%s”"), id);
      return FALSE;
    }

  was_active = g_strcmp0 (self->active_id, id) == 0;
  _tandem_agents_write (self, NULL, id);
  if (was_active)
    tandem_agents_set_active_id (self, TANDEM_AGENTS_DEMO_ID);

  tandem_agents_store_token_async (self, id, NULL, NULL, on_remove_token_cb, NULL);

  return TRUE;
}
