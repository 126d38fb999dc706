/* tandem-conversation-io.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agui-json-private.h"

#include "tandem-conversation-io.h"

/* Export and import in the app, in the formats of `tandem-cli show
 * --markdown/--export` and `tandem-cli import`: the same store functions
 * make the text and take it back, so a file from one opens in the other.
 * The files are read and written without blocking the window; a file
 * that is not an export is refused with the reason, and the store is left
 * as it was. */

/* A Tandem JSON export is far smaller than this; a larger file is
 * something else and is not read into memory. */
#define MAX_IMPORT_BYTES (256 * 1024 * 1024)

static void
on_export_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      g_autofree char *name = g_file_get_parse_name (G_FILE (object));

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, error);
      else
        {
          g_task_return_new_error (task, error->domain, error->code,
                                   _("The conversation could not be written to “%s”: %s"),
                                   name, error->message);
          g_error_free (error);
        }
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_export_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiSessionStore *store = AGUI_SESSION_STORE (object);
  GFile *file = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  char *text;

  if (g_async_result_is_tagged (result, agui_session_store_export_json_async))
    {
      g_autoptr(JsonNode) exported = agui_session_store_export_json_finish (store, result, &error);

      text = exported != NULL ? _agui_json_to_string (exported, TRUE, &error) : NULL;
    }
  else
    {
      text = agui_session_store_export_markdown_finish (store, result, &error);
    }

  if (text == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  bytes = g_bytes_new_take (text, strlen (text));
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       g_task_get_cancellable (task), on_export_written_cb, g_object_ref (task));
}

/**
 * tandem_conversation_export_async:
 * @store: the store the conversation is in
 * @thread_id: the conversation
 * @format: what to write
 * @file: where; replaced if it exists
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the file is written
 * @user_data: data for @callback
 *
 * Writes the conversation to @file, as `tandem-cli show` prints it.
 */
void
tandem_conversation_export_async (AguiSessionStore    *store,
                                  const char          *thread_id,
                                  TandemExportFormat   format,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_SESSION_STORE (store));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_conversation_export_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);

  /* Read on the store's worker, after the turns written before */
  if (format == TANDEM_EXPORT_JSON)
    agui_session_store_export_json_async (store, thread_id, cancellable, on_export_read_cb, g_steal_pointer (&task));
  else
    agui_session_store_export_markdown_async (store, thread_id, cancellable, on_export_read_cb, g_steal_pointer (&task));
}

gboolean
tandem_conversation_export_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Whether a conversation in @threads (as listed by the store) is
 * called @title */
static gboolean
has_title (JsonArray  *threads,
           const char *title)
{
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (thread, "title", NULL), title) == 0)
        return TRUE;
    }

  return FALSE;
}

/* A copy imported beside its original is told apart by its name:
 * "Trip plans (Imported)", then "Trip plans (Imported 2)" and on. A
 * list that cannot be read leaves the name as it is; the import goes
 * on regardless. */
static void
name_imported_copy (AguiSessionStore *store,
                    JsonNode         *exported)
{
  g_autoptr(JsonArray) threads = NULL;
  JsonObject *thread = NULL;
  const char *title;

  if (JSON_NODE_HOLDS_OBJECT (exported) &&
      json_object_has_member (json_node_get_object (exported), "thread") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (exported), "thread")))
    thread = json_object_get_object_member (json_node_get_object (exported), "thread");
  title = thread != NULL ? json_object_get_string_member_with_default (thread, "title", NULL) : NULL;
  if (title == NULL || title[0] == '\0')
    return;

  if (!(threads = agui_session_store_list_threads (store, NULL, NULL)) || !has_title (threads, title))
    return;

  for (guint n = 1; n < 1000; n++)
    {
      g_autofree char *name = NULL;

      if (n == 1)
        /* Translators: the name of an imported conversation whose
         * original is already there; %s is the original's name */
        name = g_strdup_printf (_("%s (Imported)"), title);
      else
        /* Translators: as "%s (Imported)", for the second, third… copy;
         * %s is the original's name, %u the copy's number */
        name = g_strdup_printf (_("%s (Imported %u)"), title, n);

      if (!has_title (threads, name))
        {
          json_object_set_string_member (thread, "title", name);
          return;
        }
    }
}

static void
on_imported_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const char *name = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *thread_id;

  if (!(thread_id = agui_session_store_import_json_finish (AGUI_SESSION_STORE (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 _("“%s” could not be imported: %s"), name, error->message);
      return;
    }

  g_task_return_pointer (task, thread_id, g_free);
}

static void
on_import_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiSessionStore *store = g_task_get_source_object (task);
  g_autofree char *name = g_file_get_parse_name (G_FILE (object));
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  gsize length;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 _("“%s” could not be read: %s"), name, error->message);
      return;
    }

  if (!(exported = _agui_json_parse (contents, length, &error)))
    {
      g_task_return_new_error (task, error->domain, error->code,
                               _("“%s” is not a Tandem export: it is not valid JSON (%s)"), name, error->message);
      return;
    }

  /* Written on the store's worker, in order with everything else */
  name_imported_copy (store, exported);
  cancellable = g_task_get_cancellable (task);
  g_task_set_task_data (task, g_steal_pointer (&name), g_free);
  agui_session_store_import_json_async (store, exported, cancellable, on_imported_cb, g_steal_pointer (&task));
}

static void
on_import_queried_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (G_FILE (object));
  GCancellable *cancellable;

  if (!(info = g_file_query_info_finish (G_FILE (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 _("“%s” could not be read: %s"), name, error->message);
      return;
    }

  if (g_file_info_get_size (info) > MAX_IMPORT_BYTES)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               _("“%s” is not a Tandem export: at %s it is far larger than any conversation"),
                               name, size);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  g_file_load_contents_async (G_FILE (object), cancellable,
                              on_import_loaded_cb, g_steal_pointer (&task));
}

/**
 * tandem_conversation_import_async:
 * @store: where to add the conversation
 * @file: a JSON export, as `tandem-cli show --export` writes
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once it is imported
 * @user_data: data for @callback
 *
 * Adds the conversation in @file to @store as a new thread, as
 * `tandem-cli import` does.
 */
void
tandem_conversation_import_async (AguiSessionStore    *store,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_SESSION_STORE (store));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_conversation_import_async);

  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                           G_PRIORITY_DEFAULT, cancellable, on_import_queried_cb, g_steal_pointer (&task));
}

/**
 * tandem_conversation_import_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the new thread's id
 */
char *
tandem_conversation_import_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result) && g_task_get_source_tag (G_TASK (result)) == tandem_conversation_import_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tandem_conversation_is_export:
 * @file: a file
 *
 * Returns: whether @file is named as a JSON export is: dropped on the
 *   window, it is imported rather than attached
 */
gboolean
tandem_conversation_is_export (GFile *file)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  name = g_file_get_basename (file);

  return name != NULL && g_str_has_suffix (name, ".json");
}
