/* agui-session-store-export.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-export-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-threads-private.h"
#include "agui-session-store-turns-private.h"
#include "agui-transcript-private.h"

/* Export: a thread as Tandem's JSON (which an import reads back) or as
 * Markdown for people. */

/* A thread that forked has one log for all its branches, which replays
 * as none of them: its export carries, in place of the log, the chosen
 * branch as a snapshot of its messages and one of its state, which an
 * import folds to exactly what the export says. */
static JsonArray *
branch_events (AguiTurnSnapshot *snapshot)
{
  JsonArray *events = json_array_new ();
  JsonObject *messages = json_object_new ();

  json_object_set_string_member (messages, "type", "MESSAGES_SNAPSHOT");
  json_object_set_member (messages, "messages", _agui_json_value_to_node (&snapshot->messages));
  json_array_add_object_element (events, messages);

  if (snapshot->state.kind != AGUI_JSON_DOC_NULL)
    {
      JsonObject *state = json_object_new ();

      json_object_set_string_member (state, "type", "STATE_SNAPSHOT");
      json_object_set_member (state, "snapshot", _agui_json_value_to_node (&snapshot->state));
      json_array_add_object_element (events, state);
    }

  return events;
}

JsonNode *
_agui_session_store_export_json_locked (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        const char        *what,
                                        GError           **error)
{
  g_autoptr(JsonObject) thread = NULL;
  g_autoptr(AguiTurnSnapshot) snapshot = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonArray) interrupts = NULL;
  g_autoptr(GPtrArray) branches = NULL;
  guint chosen;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(JsonObject) root = NULL;
  JsonArray *event_array;

  if (!(thread = _agui_session_store_get_thread_locked (self, thread_id, what, error)) ||
      !_agui_session_store_get_last_snapshot_locked (self, thread_id, FALSE, NULL, &snapshot, what, error) ||
      !(events = _agui_session_store_load_events_locked (self, thread_id, what, error)) ||
      !(interrupts = _agui_session_store_get_pending_interrupts_locked (self, thread_id, what, error)) ||
      !(branches = _agui_session_store_list_branches_locked (self, thread_id, &chosen, what, error)) ||
      !(values = _agui_session_store_dup_surface_values_locked (self, thread_id, what, error)))
    return NULL;

  root = json_object_new ();
  json_object_set_string_member (root, "format", EXPORT_FORMAT);
  json_object_set_int_member (root, "version", EXPORT_VERSION);
  json_object_set_object_member (root, "thread", g_steal_pointer (&thread));

  if (snapshot != NULL)
    {
      json_object_set_member (root, "messages", _agui_json_value_to_node (&snapshot->messages));
      json_object_set_member (root, "state", _agui_json_value_to_node (&snapshot->state));
    }
  else
    {
      json_object_set_array_member (root, "messages", json_array_new ());
      json_object_set_null_member (root, "state");
    }

  json_object_set_array_member (root, "pendingInterrupts", g_steal_pointer (&interrupts));
  /* Only when the person typed into a surface: an export without them
   * reads as it always did */
  if (json_object_get_size (values) > 0)
    json_object_set_object_member (root, "surfaceValues", g_steal_pointer (&values));

  if (snapshot != NULL && branches->len > 1)
    {
      event_array = branch_events (snapshot);
    }
  else
    {
      event_array = json_array_sized_new (events->len);
      for (guint i = 0; i < events->len; i++)
        json_array_add_element (event_array, agui_event_to_json (g_ptr_array_index (events, i)));
    }
  json_object_set_array_member (root, "events", event_array);

  if (!_agui_session_store_export_add_journal_locked (self, thread_id, root, snapshot, what, error))
    return NULL;

  return json_node_init_object (json_node_alloc (), root);
}

/**
 * agui_session_store_export_json:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Exports a thread as one JSON object:
 *
 * ```json
 * { "format": "tandem-thread", "version": 1,
 *   "thread": { "id": …, "title": …, "agent": …, "created": …, "updated": … },
 *   "messages": [ AG-UI messages ], "state": …, "pendingInterrupts": [ … ],
 *   "surfaceValues": { "activity message id": { "/pointer": value } },
 *   "events": [ the compacted log ] }
 * ```
 *
 * `surfaceValues`, what the person set in the A2UI surfaces the agent
 * drew, is there only when they set something.
 *
 * The messages and state are those of the latest turn of the branch the
 * person chose. The snapshot chain is not exported: it belongs to this
 * database; a thread that forked exports, in place of its log (which
 * holds every branch), a `MESSAGES_SNAPSHOT` and a `STATE_SNAPSHOT` of
 * the chosen branch ([method@Agui.SessionStore.list_branches] has the
 * others).
 *
 * A turn not saved yet (one a crash cut short, or one still streaming)
 * is there too, as far as the store's journal kept it: its events after
 * the others, ended by a `RUN_ERROR` saying the answer was interrupted
 * when it had not ended, and its messages folded as a restore shows
 * them, so that an import reopens it as a relaunch does.
 * [method@Agui.SessionStore.import_json] reads it back.
 *
 * Returns: (transfer full) (nullable): the export, or %NULL on error
 */
JsonNode *
agui_session_store_export_json (AguiSessionStore  *self,
                                const char        *thread_id,
                                GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;
  JsonNode *exported;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not export the thread '%s'", thread_id);
  locker = g_mutex_locker_new (&self->mutex);

  /* One read transaction, so a writer in another process cannot slip a
   * turn in between the snapshot and the log. */
  if (!_agui_session_store_exec (self, "BEGIN", what, error))
    return NULL;

  exported = _agui_session_store_export_json_locked (self, thread_id, what, error);
  _agui_session_store_rollback (self);

  return exported;
}

/* Markdown */

/* A fence longer than any run of backticks in @text, so the block
 * cannot end early. */
static char *
fence_for (const char *text)
{
  guint longest = 0;
  guint run = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }

  return g_strnfill (MAX (3, longest + 1), '`');
}

static void
append_code_block (GString    *out,
                   const char *language,
                   const char *text)
{
  g_autofree char *fence = fence_for (text);

  g_string_append_printf (out, "%s%s\n%s%s%s\n\n",
                          fence, language, text,
                          g_str_has_suffix (text, "\n") || text[0] == '\0' ? "" : "\n",
                          fence);
}

static void
append_json_block (GString  *out,
                   JsonNode *node)
{
  g_autofree char *text = NULL;

  if (!(text = _agui_json_to_string (node, TRUE, NULL)))
    text = g_strdup ("(a value that cannot be shown as JSON)");

  append_code_block (out, "json", text);
}

static void
append_quoted (GString    *out,
               const char *heading,
               const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_string_append_printf (out, "> %s\n>\n", heading);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        g_string_append (out, ">\n");
      else
        g_string_append_printf (out, "> %s\n", lines[i]);
    }
  g_string_append_c (out, '\n');
}

/* The text of a message's content: a string, or the text of its input
 * parts with a placeholder for each non-text part. */
static char *
content_to_text (JsonNode *content)
{
  GString *text;
  JsonArray *parts;

  if (content == NULL || JSON_NODE_HOLDS_NULL (content))
    return g_strdup ("");

  if (json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));

  if (!JSON_NODE_HOLDS_ARRAY (content))
    {
      char *printed = _agui_json_to_string (content, TRUE, NULL);

      return printed != NULL ? printed : g_strdup ("");
    }

  text = g_string_new (NULL);
  parts = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *element = json_array_get_element (parts, i);
      JsonObject *part = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *type = part ? json_object_get_string_member_with_default (part, "type", "") : "";

      if (text->len > 0)
        g_string_append (text, "\n\n");

      if (g_str_equal (type, "text"))
        g_string_append (text, json_object_get_string_member_with_default (part, "text", ""));
      else if (part != NULL && json_object_has_member (part, "mimeType"))
        g_string_append_printf (text, "*[%s: %s]*", type,
                                json_object_get_string_member_with_default (part, "mimeType", ""));
      else
        g_string_append_printf (text, "*[%s]*", type);
    }

  return g_string_free (text, FALSE);
}

static void
append_tool_calls (GString    *out,
                   JsonArray  *calls,
                   GHashTable *tool_names)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *element = json_array_get_element (calls, i);
      JsonObject *call = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonObject *function = call && json_object_has_member (call, "function")
                               ? json_object_get_object_member (call, "function") : NULL;
      const char *name = function ? json_object_get_string_member_with_default (function, "name", "") : "";
      const char *arguments = function
                                ? json_object_get_string_member_with_default (function, "arguments", "")
                                : "";
      AguiJsonValue parsed = AGUI_JSON_VALUE_INIT;
      g_autofree char *pretty = NULL;

      if (call == NULL)
        continue;

      if (json_object_has_member (call, "id"))
        g_hash_table_insert (tool_names,
                             g_strdup (json_object_get_string_member_with_default (call, "id", "")),
                             g_strdup (name));

      g_string_append_printf (out, "**Tool call:** `%s`\n\n", name);

      /* Arguments arrive as a JSON string; pretty-print them when they
       * parse, read into the compact tree, which prints as json-glib
       * would */
      if (_agui_json_doc_parse (arguments, -1, &parsed, NULL))
        {
          if (!(pretty = _agui_json_value_to_string (&parsed, TRUE, NULL)))
            pretty = g_strdup ("(a value that cannot be shown as JSON)");
          _agui_json_value_clear (&parsed);
          append_code_block (out, "json", pretty);
        }
      else
        append_code_block (out, "json", arguments);
    }
}

/* A message someone said, under its role */
static void
append_said (GString    *out,
             const char *role,
             const char *text,
             JsonObject *message,
             GHashTable *tool_names)
{
  if (g_str_equal (role, "user"))
    g_string_append (out, "### User\n\n");
  else if (g_str_equal (role, "assistant"))
    g_string_append (out, "### Assistant\n\n");
  else if (g_str_equal (role, "system"))
    g_string_append (out, "### System\n\n");
  else if (g_str_equal (role, "developer"))
    g_string_append (out, "### Developer\n\n");
  else
    g_string_append_printf (out, "### %s\n\n", role);

  if (text[0] != '\0')
    g_string_append_printf (out, "%s\n\n", text);

  if (json_object_has_member (message, "toolCalls") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (message, "toolCalls")))
    append_tool_calls (out, json_object_get_array_member (message, "toolCalls"), tool_names);
}

/* How the run that ended with @message ended, when not as it should:
 * the transcript's own marks in the message's metadata, on the last
 * message of a stopped or failed run, or in a note on the message
 * shown last before a run that said nothing. NULL for a finished run. */
static const char *
attempt_end_words (JsonObject *message)
{
  JsonObject *metadata = NULL;
  JsonObject *local = NULL;
  JsonArray *notes = NULL;
  const char *attempt = NULL;

  if (json_object_has_member (message, "metadata") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (message, "metadata")))
    metadata = json_object_get_object_member (message, "metadata");
  if (metadata != NULL && json_object_has_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY) &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY)))
    local = json_object_get_object_member (metadata, AGUI_TRANSCRIPT_LOCAL_STATE_KEY);
  if (local == NULL)
    return NULL;

  if (json_object_get_boolean_member_with_default (local, "attemptEnd", FALSE))
    attempt = json_object_get_string_member_with_default (local, "attempt", NULL);

  if (json_object_has_member (local, "notes") && JSON_NODE_HOLDS_ARRAY (json_object_get_member (local, "notes")))
    notes = json_object_get_array_member (local, "notes");
  for (guint i = 0; attempt == NULL && notes != NULL && i < json_array_get_length (notes); i++)
    {
      JsonNode *element = json_array_get_element (notes, i);
      JsonObject *note = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;

      if (note != NULL && g_strcmp0 (json_object_get_string_member_with_default (note, "kind", NULL), "run-end") == 0)
        attempt = json_object_get_string_member_with_default (note, "attempt", NULL);
    }

  if (g_strcmp0 (attempt, "stopped") == 0)
    return "*Stopped*";
  if (g_strcmp0 (attempt, "failed") == 0)
    return "*Failed*";

  return NULL;
}

static void
append_message (GString    *out,
                JsonObject *message,
                GHashTable *tool_names)
{
  const char *ended = attempt_end_words (message);
  const char *role = json_object_get_string_member_with_default (message, "role", "");
  JsonNode *content = json_object_get_member (message, "content");
  g_autofree char *text = content_to_text (content);

  if (g_str_equal (role, "tool"))
    {
      const char *call_id = json_object_get_string_member_with_default (message, "toolCallId", "");
      const char *name = g_hash_table_lookup (tool_names, call_id);
      const char *failure = json_object_get_string_member_with_default (message, "error", NULL);
      g_autofree char *heading = g_strdup_printf ("**Tool result** (`%s`)%s",
                                                  name ? name : call_id,
                                                  failure ? " — failed" : "");

      append_quoted (out, heading, failure && text[0] == '\0' ? failure : text);
    }
  else if (g_str_equal (role, "reasoning"))
    {
      append_quoted (out, "**Reasoning**", text);
    }
  else if (g_str_equal (role, "activity"))
    {
      g_string_append_printf (out, "**Activity:** `%s`\n\n",
                              json_object_get_string_member_with_default (message, "activityType", ""));
      append_json_block (out, content);
    }
  else
    {
      append_said (out, role, text, message, tool_names);
    }

  if (ended != NULL)
    g_string_append_printf (out, "%s\n\n", ended);
}

/* The state is left out: it is the agent's working data, not what was
 * said, and the JSON export keeps it. */
static void
append_messages (GString    *out,
                 JsonArray  *messages,
                 GHashTable *tool_names)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);

      if (JSON_NODE_HOLDS_OBJECT (element))
        append_message (out, json_node_get_object (element), tool_names);
    }
}

/**
 * agui_session_store_export_markdown:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Renders a thread for people to read: its title, then each message
 * under its role, tool calls with their arguments as JSON blocks, tool
 * results and reasoning as quotes, and a stopped or failed answer marked
 * so in words. The state, the agent's working data, is left out: the
 * JSON export has it.
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_markdown (AguiSessionStore  *self,
                                    const char        *thread_id,
                                    GError           **error)
{
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GHashTable) tool_names = NULL;
  JsonObject *root;
  JsonObject *thread;
  JsonArray *messages;
  const char *title;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  if (!(exported = agui_session_store_export_json (self, thread_id, error)))
    return NULL;

  root = json_node_get_object (exported);
  thread = json_object_get_object_member (root, "thread");
  messages = json_object_get_array_member (root, "messages");
  title = json_object_get_string_member (thread, "title");
  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n\n", title[0] != '\0' ? title : "Untitled thread");
  if (!json_object_get_null_member (thread, "agent"))
    g_string_append_printf (out, "Agent: %s\n\n", json_object_get_string_member (thread, "agent"));

  append_messages (out, messages, tool_names);

  return g_string_free (out, FALSE);
}

/**
 * agui_session_store_export_branches_markdown:
 * @self: a session store
 * @thread_id: a thread's id
 * @error: return location for a #GError
 *
 * Like [method@Agui.SessionStore.export_markdown], with every branch of
 * the thread one after the other, each under its own heading ("Branch 2
 * of 3", the chosen one marked), whole.
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_branches_markdown (AguiSessionStore  *self,
                                             const char        *thread_id,
                                             GError           **error)
{
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GPtrArray) branches = NULL;
  g_autoptr(GHashTable) tool_names = NULL;
  g_autofree char *what = NULL;
  JsonObject *root;
  JsonObject *thread;
  const char *title;
  guint chosen;
  guint n;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  what = g_strdup_printf ("Could not export the thread '%s'", thread_id);

  /* The export has what the chosen branch shows: its saved turns and,
   * after them, a turn a crash cut short that only the journal holds */
  {
    G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);

    if (!_agui_session_store_exec (self, "BEGIN", what, error))
      return NULL;
    exported = _agui_session_store_export_json_locked (self, thread_id, what, error);
    branches = exported ? _agui_session_store_list_branches_locked (self, thread_id, &chosen, what, error) : NULL;
    _agui_session_store_rollback (self);
    if (branches == NULL)
      return NULL;
  }

  root = json_node_get_object (exported);
  thread = json_object_get_object_member (root, "thread");
  title = json_object_get_string_member (thread, "title");
  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n\n", title[0] != '\0' ? title : "Untitled thread");
  if (!json_object_get_null_member (thread, "agent"))
    g_string_append_printf (out, "Agent: %s\n\n", json_object_get_string_member (thread, "agent"));

  /* A first turn cut short: no branch was saved yet */
  n = branches->len;
  if (n == 0)
    append_messages (out, json_object_get_array_member (root, "messages"), tool_names);

  for (guint i = 0; i < n; i++)
    {
      AguiTurnSnapshot *branch = g_ptr_array_index (branches, i);
      g_autoptr(JsonNode) messages = NULL;

      g_string_append_printf (out, "## Branch %u of %u%s\n\n", i + 1, n, i == chosen ? " (chosen)" : "");
      if (i == chosen)
        {
          append_messages (out, json_object_get_array_member (root, "messages"), tool_names);
          continue;
        }
      messages = _agui_json_value_to_node (&branch->messages);
      append_messages (out, json_node_get_array (messages), tool_names);
    }

  return g_string_free (out, FALSE);
}

/**
 * agui_session_store_export_json_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the export
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.export_json] on the store's worker.
 */
void
agui_session_store_export_json_async (AguiSessionStore    *self,
                                      const char          *thread_id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_export_json_async,
                                         (AguiStoreThreadRead) agui_session_store_export_json, (GDestroyNotify) json_node_unref);
}

/**
 * agui_session_store_export_json_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the export, or %NULL on error
 */
JsonNode *
agui_session_store_export_json_finish (AguiSessionStore  *self,
                                       GAsyncResult      *result,
                                       GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_export_json_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agui_session_store_export_markdown_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the text
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.export_markdown] on the store's worker.
 */
void
agui_session_store_export_markdown_async (AguiSessionStore    *self,
                                          const char          *thread_id,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, agui_session_store_export_markdown_async,
                                         (AguiStoreThreadRead) agui_session_store_export_markdown, g_free);
}

/**
 * agui_session_store_export_markdown_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the Markdown text, or %NULL on error
 */
char *
agui_session_store_export_markdown_finish (AguiSessionStore  *self,
                                           GAsyncResult      *result,
                                           GError           **error)
{
  g_return_val_if_fail (_agui_session_store_job_is_valid (self, result, agui_session_store_export_markdown_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
