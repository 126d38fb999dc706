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
static void
branch_events (AguiTurnSnapshot *snapshot,
               AguiJsonValue    *events)
{
  AguiJsonDocArray *array = _agui_json_value_set_array (events, 2);
  AguiJsonDocObject *event = _agui_json_doc_add_object (array);

  _agui_json_doc_set_string (event, "type", "MESSAGES_SNAPSHOT");
  _agui_json_doc_set_copy (event, "messages", &snapshot->messages);

  if (snapshot->state.kind != AGUI_JSON_DOC_NULL)
    {
      event = _agui_json_doc_add_object (array);
      _agui_json_doc_set_string (event, "type", "STATE_SNAPSHOT");
      _agui_json_doc_set_copy (event, "snapshot", &snapshot->state);
    }
}

gboolean
_agui_session_store_export_tree_locked (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        AguiJsonValue     *root,
                                        const char        *what,
                                        GError           **error)
{
  g_auto(AguiJsonValue) thread = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) interrupts = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) values = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) events = AGUI_JSON_VALUE_INIT;
  g_autoptr(AguiTurnSnapshot) snapshot = NULL;
  g_autoptr(GPtrArray) log = NULL;
  g_autoptr(GPtrArray) branches = NULL;
  AguiJsonDocObject *object;
  guint chosen;

  if (!_agui_session_store_get_thread_locked (self, thread_id, &thread, what, error) ||
      !_agui_session_store_get_last_snapshot_locked (self, thread_id, FALSE, NULL, &snapshot, what, error) ||
      !(log = _agui_session_store_load_events_locked (self, thread_id, what, error)) ||
      !_agui_session_store_get_pending_interrupts_locked (self, thread_id, &interrupts, what, error) ||
      !(branches = _agui_session_store_list_branches_locked (self, thread_id, &chosen, what, error)) ||
      !_agui_session_store_dup_surface_values_locked (self, thread_id, &values, what, error))
    return FALSE;

  object = _agui_json_value_set_object (root, 8);
  _agui_json_doc_set_string (object, "format", EXPORT_FORMAT);
  _agui_json_doc_set_int (object, "version", EXPORT_VERSION);
  _agui_json_object_append (object, "thread", &thread);

  if (snapshot != NULL && branches->len > 1)
    branch_events (snapshot, &events);
  else
    {
      AguiJsonDocArray *array = _agui_json_value_set_array (&events, log->len);

      for (guint i = 0; i < log->len; i++)
        {
          AguiJsonValue event = AGUI_JSON_VALUE_INIT;

          _agui_event_copy_tree (g_ptr_array_index (log, i), &event);
          _agui_json_array_insert (array, i, &event);
        }
    }

  if (snapshot != NULL)
    {
      _agui_json_object_append (object, "messages", &snapshot->messages);
      _agui_json_object_append (object, "state", &snapshot->state);
    }
  else
    {
      _agui_json_doc_set_array (object, "messages");
      _agui_json_doc_set_null (object, "state");
    }

  _agui_json_object_append (object, "pendingInterrupts", &interrupts);
  /* Only when the person typed into a surface: an export without them
   * reads as it always did */
  if (_agui_json_object_get_size (values.u.object) > 0)
    _agui_json_object_append (object, "surfaceValues", &values);
  _agui_json_object_append (object, "events", &events);

  if (!_agui_session_store_export_add_journal_locked (self, thread_id, root, snapshot, what, error))
    {
      _agui_json_value_clear (root);
      return FALSE;
    }

  return TRUE;
}

/* The export in one read transaction, so a writer in another process
 * cannot slip a turn in between the snapshot and the log; with
 * @branches, the thread's branches (AguiTurnSnapshot) as of the same
 * moment, and which is chosen. */
static gboolean
export_tree (AguiSessionStore  *self,
             const char        *thread_id,
             AguiJsonValue     *root,
             GPtrArray        **branches,
             guint             *chosen,
             GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = g_strdup_printf ("Could not export the thread '%s'", thread_id);
  gboolean done;

  locker = g_mutex_locker_new (&self->mutex);
  if (!_agui_session_store_exec (self, "BEGIN", what, error))
    return FALSE;

  done = _agui_session_store_export_tree_locked (self, thread_id, root, what, error) &&
         (branches == NULL ||
          (*branches = _agui_session_store_list_branches_locked (self, thread_id, chosen, what, error)) != NULL);
  _agui_session_store_rollback (self);
  if (!done)
    _agui_json_value_clear (root);

  return done;
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
  g_auto(AguiJsonValue) exported = AGUI_JSON_VALUE_INIT;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  if (!export_tree (self, thread_id, &exported, NULL, NULL, error))
    return NULL;

  /* json-glib is made here, for the caller, and nowhere before */
  return _agui_json_value_to_node (&exported);
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
append_json_block (GString             *out,
                   const AguiJsonValue *value)
{
  g_autofree char *text = NULL;

  if (!(text = _agui_json_value_to_string (value, TRUE, NULL)))
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

/* A string member of @object, or @fallback */
static const char *
string_or (const AguiJsonValue *object,
           const char          *name,
           const char          *fallback)
{
  const char *string = _agui_json_doc_get_string (object, name);

  return string != NULL ? string : fallback;
}

/* The text of a message's content: a string, or the text of its input
 * parts with a placeholder for each non-text part. */
static char *
content_to_text (const AguiJsonValue *content)
{
  GString *text;

  if (content == NULL || content->kind == AGUI_JSON_DOC_NULL)
    return g_strdup ("");

  if (_agui_json_value_is_string (content))
    return g_strdup (_agui_json_value_get_string (content));

  if (content->kind != AGUI_JSON_DOC_ARRAY)
    {
      char *printed = _agui_json_value_to_string (content, TRUE, NULL);

      return printed != NULL ? printed : g_strdup ("");
    }

  text = g_string_new (NULL);
  for (guint i = 0; i < _agui_json_doc_get_length (content); i++)
    {
      const AguiJsonValue *part = _agui_json_doc_get_element (content, i);
      const char *type = string_or (part, "type", "");

      if (text->len > 0)
        g_string_append (text, "\n\n");

      if (g_str_equal (type, "text"))
        g_string_append (text, string_or (part, "text", ""));
      else if (_agui_json_doc_get_member (part, "mimeType") != NULL)
        g_string_append_printf (text, "*[%s: %s]*", type, string_or (part, "mimeType", ""));
      else
        g_string_append_printf (text, "*[%s]*", type);
    }

  return g_string_free (text, FALSE);
}

static void
append_tool_calls (GString             *out,
                   const AguiJsonValue *calls,
                   GHashTable          *tool_names)
{
  for (guint i = 0; i < _agui_json_doc_get_length (calls); i++)
    {
      const AguiJsonValue *call = _agui_json_doc_get_element (calls, i);
      const AguiJsonValue *function = _agui_json_doc_get_object (call, "function");
      const char *name = string_or (function, "name", "");
      const char *arguments = string_or (function, "arguments", "");
      AguiJsonValue parsed = AGUI_JSON_VALUE_INIT;
      g_autofree char *pretty = NULL;

      if (call->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      if (_agui_json_doc_get_member (call, "id") != NULL)
        g_hash_table_insert (tool_names, g_strdup (string_or (call, "id", "")), g_strdup (name));

      g_string_append_printf (out, "**Tool call:** `%s`\n\n", name);

      /* Arguments arrive as a JSON string; pretty-print them when they
       * parse */
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
append_said (GString             *out,
             const char          *role,
             const char          *text,
             const AguiJsonValue *message,
             GHashTable          *tool_names)
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

  append_tool_calls (out, _agui_json_doc_get_array (message, "toolCalls"), tool_names);
}

/* How the run that ended with @message ended, when not as it should:
 * the transcript's own marks in the message's metadata, on the last
 * message of a stopped or failed run, or in a note on the message
 * shown last before a run that said nothing. NULL for a finished run. */
static const char *
attempt_end_words (const AguiJsonValue *message)
{
  const AguiJsonValue *local = _agui_json_doc_get_object (_agui_json_doc_get_object (message, "metadata"),
                                                          AGUI_TRANSCRIPT_LOCAL_STATE_KEY);
  const AguiJsonValue *end = _agui_json_doc_get_member (local, "attemptEnd");
  const AguiJsonValue *notes = _agui_json_doc_get_array (local, "notes");
  const char *attempt = NULL;

  if (local == NULL)
    return NULL;

  if (end != NULL && end->kind == AGUI_JSON_DOC_BOOLEAN && end->u.boolean)
    attempt = _agui_json_doc_get_string (local, "attempt");

  for (guint i = 0; attempt == NULL && i < _agui_json_doc_get_length (notes); i++)
    {
      const AguiJsonValue *note = _agui_json_doc_get_element (notes, i);

      if (g_strcmp0 (_agui_json_doc_get_string (note, "kind"), "run-end") == 0)
        attempt = _agui_json_doc_get_string (note, "attempt");
    }

  if (g_strcmp0 (attempt, "stopped") == 0)
    return "*Stopped*";
  if (g_strcmp0 (attempt, "failed") == 0)
    return "*Failed*";

  return NULL;
}

static void
append_message (GString             *out,
                const AguiJsonValue *message,
                GHashTable          *tool_names)
{
  const char *ended = attempt_end_words (message);
  const char *role = string_or (message, "role", "");
  const AguiJsonValue *content = _agui_json_doc_get_member (message, "content");
  g_autofree char *text = content_to_text (content);

  if (g_str_equal (role, "tool"))
    {
      const char *call_id = string_or (message, "toolCallId", "");
      const char *name = g_hash_table_lookup (tool_names, call_id);
      const char *failure = _agui_json_doc_get_string (message, "error");
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
      AguiJsonValue null = AGUI_JSON_VALUE_INIT;

      g_string_append_printf (out, "**Activity:** `%s`\n\n", string_or (message, "activityType", ""));
      append_json_block (out, content != NULL ? content : &null);
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
append_messages (GString             *out,
                 const AguiJsonValue *messages,
                 GHashTable          *tool_names)
{
  for (guint i = 0; i < _agui_json_doc_get_length (messages); i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);

      if (message->kind == AGUI_JSON_DOC_OBJECT)
        append_message (out, message, tool_names);
    }
}

/* The export's title and agent */
static GString *
markdown_start (const AguiJsonValue *root)
{
  const AguiJsonValue *thread = _agui_json_doc_get_object (root, "thread");
  const char *title = string_or (thread, "title", "");
  const char *agent = _agui_json_doc_get_string (thread, "agent");
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "# %s\n\n", title[0] != '\0' ? title : "Untitled thread");
  if (agent != NULL)
    g_string_append_printf (out, "Agent: %s\n\n", agent);

  return out;
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
  g_auto(AguiJsonValue) exported = AGUI_JSON_VALUE_INIT;
  g_autoptr(GHashTable) tool_names = NULL;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  if (!export_tree (self, thread_id, &exported, NULL, NULL, error))
    return NULL;

  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  out = markdown_start (&exported);
  append_messages (out, _agui_json_doc_get_array (&exported, "messages"), tool_names);

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
  g_auto(AguiJsonValue) exported = AGUI_JSON_VALUE_INIT;
  g_autoptr(GPtrArray) branches = NULL;
  g_autoptr(GHashTable) tool_names = NULL;
  guint chosen;
  GString *out;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  /* The export has what the chosen branch shows: its saved turns and,
   * after them, a turn a crash cut short that only the journal holds */
  if (!export_tree (self, thread_id, &exported, &branches, &chosen, error))
    return NULL;

  tool_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  out = markdown_start (&exported);

  /* A first turn cut short: no branch was saved yet */
  if (branches->len == 0)
    append_messages (out, _agui_json_doc_get_array (&exported, "messages"), tool_names);

  for (guint i = 0; i < branches->len; i++)
    {
      AguiTurnSnapshot *branch = g_ptr_array_index (branches, i);

      g_string_append_printf (out, "## Branch %u of %u%s\n\n", i + 1, branches->len, i == chosen ? " (chosen)" : "");
      append_messages (out, i == chosen ? _agui_json_doc_get_array (&exported, "messages") : &branch->messages,
                       tool_names);
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
