/* tandem-conversation-io.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tandem-conversation-io.h"

/* Export and import in the app, in the formats of `tandem-cli show
 * --markdown/--export` and `tandem-cli import`: the same store functions
 * make the text and take it back, so a file from one opens in the other.
 * The files are read and written without blocking the window, and a
 * JSON export streams both ways: neither the file nor a tree of it is
 * ever whole in memory. A file that is not an export is refused with the
 * reason, and the store is left as it was. */

/* What the person sees of an import or export while it runs: the
 * share of the file read so far (written, for an export, is not known
 * ahead, so only an import has one). Counted on the store's worker,
 * read on the main thread. */
#define TANDEM_TYPE_COUNTING_STREAM (tandem_counting_stream_get_type ())
G_DECLARE_FINAL_TYPE (TandemCountingStream, tandem_counting_stream, TANDEM, COUNTING_STREAM, GFilterInputStream)

struct _TandemCountingStream
{
  GFilterInputStream parent_instance;
  /* KiB, so that an int holds any file there is */
  int                kib_read;
  guint64            read;
};

G_DEFINE_FINAL_TYPE (TandemCountingStream, tandem_counting_stream, G_TYPE_FILTER_INPUT_STREAM)

static gssize
tandem_counting_stream_read (GInputStream  *stream,
                             void          *buffer,
                             gsize          count,
                             GCancellable  *cancellable,
                             GError       **error)
{
  TandemCountingStream *self = TANDEM_COUNTING_STREAM (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize n = g_input_stream_read (base, buffer, count, cancellable, error);

  if (n > 0)
    {
      self->read += n;
      g_atomic_int_set (&self->kib_read, (int) MIN (self->read / 1024, G_MAXINT));
    }

  return n;
}

static void
tandem_counting_stream_class_init (TandemCountingStreamClass *klass)
{
  G_INPUT_STREAM_CLASS (klass)->read_fn = tandem_counting_stream_read;
}

static void
tandem_counting_stream_init (TandemCountingStream *self)
{
}

typedef struct
{
  char                          *name;
  /* Import: the file's size, and what reads it */
  goffset                        size;
  TandemCountingStream          *counter;
  /* Export: what writes it, and whether it is a file made here (gone
   * again if the export fails) rather than one replaced */
  char                          *thread_id;
  GFileOutputStream             *output;
  gboolean                       created;
  TandemConversationProgressFunc progress;
  gpointer                       progress_data;
  guint                          progress_id;
} Transfer;

static void
transfer_free (Transfer *transfer)
{
  g_clear_handle_id (&transfer->progress_id, g_source_remove);
  g_free (transfer->name);
  g_clear_object (&transfer->counter);
  g_free (transfer->thread_id);
  g_clear_object (&transfer->output);
  g_free (transfer);
}

static Transfer *
transfer_new (GFile                          *file,
              TandemConversationProgressFunc  progress,
              gpointer                        progress_data)
{
  Transfer *transfer = g_new0 (Transfer, 1);

  transfer->name = g_file_get_parse_name (file);
  transfer->progress = progress;
  transfer->progress_data = progress_data;

  return transfer;
}

/* Said five times a second: more often is not seen, and each is a
 * main-thread wake-up */
#define PROGRESS_INTERVAL_MS 200

static gboolean
report_progress_cb (gpointer data)
{
  Transfer *transfer = data;
  double fraction = -1.0;

  if (transfer->counter != NULL && transfer->size > 0)
    fraction = CLAMP ((g_atomic_int_get (&transfer->counter->kib_read) * 1024.0) / transfer->size, 0.0, 1.0);
  transfer->progress (fraction, transfer->progress_data);

  return G_SOURCE_CONTINUE;
}

static void
start_progress (Transfer *transfer)
{
  if (transfer->progress != NULL && transfer->progress_id == 0)
    transfer->progress_id = g_timeout_add (PROGRESS_INTERVAL_MS, report_progress_cb, transfer);
}

typedef enum
{
  NOT_WRITTEN,
  NOT_READ,
  NOT_IMPORTED,
} Failure;

/* Returns @error as it is if the person cancelled, else worded as
 * @failure of the file called @name */
static GError *
word_error (GError     *error,
            Failure     failure,
            const char *name)
{
  GError *worded;
  const char *reason = error->message;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  /* The store words its refusal as a sentence of its own; here it is
   * the reason after the file's name */
  if (g_str_has_prefix (reason, "Could not import the thread: "))
    reason += strlen ("Could not import the thread: ");

  switch (failure)
    {
    case NOT_WRITTEN:
      worded = g_error_new (error->domain, error->code,
                            _("The conversation could not be written to “%s”: %s"), name, reason);
      break;
    case NOT_READ:
      worded = g_error_new (error->domain, error->code, _("“%s” could not be read: %s"), name, reason);
      break;
    case NOT_IMPORTED:
    default:
      worded = g_error_new (error->domain, error->code, _("“%s” could not be imported: %s"), name, reason);
      break;
    }
  g_error_free (error);

  return worded;
}

static void
on_export_closed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_output_stream_close_finish (G_OUTPUT_STREAM (object), result, &error))
    {
      /* Replaced only on a close that succeeds: the old file is as it was */
      g_task_return_error (task, word_error (error, NOT_WRITTEN, ((Transfer *) g_task_get_task_data (task))->name));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_export_deleted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  /* Best effort: a file that cannot be removed is left for the person */
  g_file_delete_finish (G_FILE (object), result, NULL);
}

static void
on_export_discarded_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GFile) made = user_data;

  g_output_stream_close_finish (G_OUTPUT_STREAM (object), result, NULL);
  if (made != NULL)
    g_file_delete_async (made, G_PRIORITY_DEFAULT, NULL, on_export_deleted_cb, NULL);
}

/* A failed export leaves no part of itself: a file being replaced is
 * closed cancelled, which keeps the one there; a file made for it is
 * removed. */
static void
discard_export (Transfer *transfer,
                GFile    *file)
{
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();

  g_cancellable_cancel (cancelled);
  g_output_stream_close_async (G_OUTPUT_STREAM (transfer->output), G_PRIORITY_DEFAULT, cancelled,
                               on_export_discarded_cb, transfer->created ? g_object_ref (file) : NULL);
}

static void
on_export_streamed_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transfer *transfer = g_task_get_task_data (task);
  GError *error = NULL;

  if (!agui_session_store_export_to_stream_finish (AGUI_SESSION_STORE (object), result, &error))
    {
      discard_export (transfer, g_object_get_data (G_OBJECT (task), "file"));
      g_task_return_error (task, word_error (error, NOT_WRITTEN, transfer->name));
      return;
    }

  g_output_stream_close_async (G_OUTPUT_STREAM (transfer->output), G_PRIORITY_DEFAULT,
                               g_task_get_cancellable (task), on_export_closed_cb, g_object_ref (task));
}

static void
on_export_opened_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transfer *transfer = g_task_get_task_data (task);
  AguiSessionStore *store = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  if (transfer->created)
    transfer->output = g_file_create_finish (G_FILE (object), result, &error);
  else
    transfer->output = g_file_replace_finish (G_FILE (object), result, &error);

  /* There already: replaced, so that the old one stays until the new
   * one is whole */
  if (transfer->created && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_clear_error (&error);
      transfer->created = FALSE;
      g_file_replace_async (G_FILE (object), NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, G_PRIORITY_DEFAULT,
                            cancellable, on_export_opened_cb, g_steal_pointer (&task));
      return;
    }

  if (transfer->output == NULL)
    {
      g_task_return_error (task, word_error (error, NOT_WRITTEN, transfer->name));
      return;
    }

  /* Written on the store's worker, after the turns written before */
  start_progress (transfer);
  agui_session_store_export_to_stream_async (store, transfer->thread_id, G_OUTPUT_STREAM (transfer->output),
                                             cancellable, on_export_streamed_cb,
                                             g_steal_pointer (&task));
}

static void
on_export_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      g_task_return_error (task, word_error (error, NOT_WRITTEN, ((Transfer *) g_task_get_task_data (task))->name));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_export_markdown_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  char *text;

  if (!(text = agui_session_store_export_markdown_finish (AGUI_SESSION_STORE (object), result, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  /* Markdown is the text a person reads, a fraction of the JSON: it is
   * written whole, in place of the old file once it is all there */
  bytes = g_bytes_new_take (text, strlen (text));
  g_file_replace_contents_bytes_async (g_object_get_data (G_OBJECT (task), "file"), bytes, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION, g_task_get_cancellable (task),
                                       on_export_written_cb, g_object_ref (task));
}

/**
 * tandem_conversation_export_async:
 * @store: the store the conversation is in
 * @thread_id: the conversation
 * @format: what to write
 * @file: where; replaced if it exists, once the new one is whole
 * @progress: (nullable): called on the main thread while it is written
 * @progress_data: data for @progress
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the file is written
 * @user_data: data for @callback
 *
 * Writes the conversation to @file, as `tandem-cli show` prints it. The
 * JSON goes from the store to the file a message at a time, however
 * long the conversation. On error or cancel, a file that was there is
 * left as it was and a file made for the export is removed.
 */
void
tandem_conversation_export_async (AguiSessionStore               *store,
                                  const char                     *thread_id,
                                  TandemExportFormat              format,
                                  GFile                          *file,
                                  TandemConversationProgressFunc  progress,
                                  gpointer                        progress_data,
                                  GCancellable                   *cancellable,
                                  GAsyncReadyCallback             callback,
                                  gpointer                        user_data)
{
  g_autoptr(GTask) task = NULL;
  Transfer *transfer;

  g_return_if_fail (AGUI_IS_SESSION_STORE (store));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_conversation_export_async);
  transfer = transfer_new (file, progress, progress_data);
  transfer->thread_id = g_strdup (thread_id);
  g_task_set_task_data (task, transfer, (GDestroyNotify) transfer_free);
  g_object_set_data_full (G_OBJECT (task), "file", g_object_ref (file), g_object_unref);

  if (format == TANDEM_EXPORT_JSON)
    {
      /* Made new if it can be: a failed export then removes it */
      transfer->created = TRUE;
      g_file_create_async (file, G_FILE_CREATE_NONE, G_PRIORITY_DEFAULT, cancellable,
                           on_export_opened_cb, g_steal_pointer (&task));
    }
  else
    agui_session_store_export_markdown_async (store, thread_id, cancellable, on_export_markdown_cb, g_steal_pointer (&task));
}

gboolean
tandem_conversation_export_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result) && g_task_get_source_tag (G_TASK (result)) == tandem_conversation_export_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Whether a conversation in @threads (as listed by the store) other
 * than @thread_id is called @title */
static gboolean
has_title (JsonArray  *threads,
           const char *thread_id,
           const char *title)
{
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (thread, "id", NULL), thread_id) != 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (thread, "title", NULL), title) == 0)
        return TRUE;
    }

  return FALSE;
}

/* The imported conversation's title in @threads */
static const char *
find_title (JsonArray  *threads,
            const char *thread_id)
{
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (thread, "id", NULL), thread_id) == 0)
        return json_object_get_string_member_with_default (thread, "title", NULL);
    }

  return NULL;
}

static void
on_import_renamed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  char *thread_id = g_object_get_data (G_OBJECT (task), "thread-id");

  /* The conversation is in: a name left as it was is no reason to say
   * the import failed */
  agui_session_store_rename_thread_finish (AGUI_SESSION_STORE (object), result, NULL);
  g_task_return_pointer (task, g_strdup (thread_id), g_free);
}

/* A copy imported beside its original is told apart by its name:
 * "Trip plans (Imported)", then "Trip plans (Imported 2)" and on. A
 * list that cannot be read leaves the name as it is; the import stands
 * regardless. */
static void
on_import_listed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AguiSessionStore *store = AGUI_SESSION_STORE (object);
  const char *thread_id = g_object_get_data (G_OBJECT (task), "thread-id");
  g_autoptr(JsonArray) threads = agui_session_store_list_threads_finish (store, result, NULL);
  const char *title = threads != NULL ? find_title (threads, thread_id) : NULL;

  if (title == NULL || title[0] == '\0' || !has_title (threads, thread_id, title))
    {
      g_task_return_pointer (task, g_strdup (thread_id), g_free);
      return;
    }

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

      if (!has_title (threads, thread_id, name))
        {
          /* Not cancellable: the import is done, and its name goes with it */
          agui_session_store_rename_thread_async (store, thread_id, name, NULL,
                                                  on_import_renamed_cb, g_steal_pointer (&task));
          return;
        }
    }

  g_task_return_pointer (task, g_strdup (thread_id), g_free);
}

static void
on_imported_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transfer *transfer = g_task_get_task_data (task);
  GError *error = NULL;
  char *thread_id;

  g_clear_handle_id (&transfer->progress_id, g_source_remove);
  /* The file is let go of now, not when the task is */
  g_input_stream_close_async (G_INPUT_STREAM (transfer->counter), G_PRIORITY_DEFAULT, NULL, NULL, NULL);

  if (!(thread_id = agui_session_store_import_stream_finish (AGUI_SESSION_STORE (object), result, &error)))
    {
      g_task_return_error (task, word_error (error, NOT_IMPORTED, transfer->name));
      return;
    }

  g_object_set_data_full (G_OBJECT (task), "thread-id", thread_id, g_free);
  agui_session_store_list_threads_async (AGUI_SESSION_STORE (object), NULL, NULL,
                                         on_import_listed_cb, g_steal_pointer (&task));
}

static void
on_import_opened_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transfer *transfer = g_task_get_task_data (task);
  g_autoptr(GFileInputStream) input = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  AguiSessionStore *store = g_task_get_source_object (task);
  GError *error = NULL;

  if (!(input = g_file_read_finish (G_FILE (object), result, &error)))
    {
      g_task_return_error (task, word_error (error, NOT_READ, transfer->name));
      return;
    }

  /* Read and written on the store's worker, a message at a time, in
   * order with everything else: the file is never whole in memory */
  transfer->counter = g_object_new (TANDEM_TYPE_COUNTING_STREAM, "base-stream", input, NULL);
  start_progress (transfer);
  agui_session_store_import_stream_async (store, G_INPUT_STREAM (transfer->counter),
                                          cancellable, on_imported_cb, g_steal_pointer (&task));
}

static void
on_import_queried_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transfer *transfer = g_task_get_task_data (task);
  g_autoptr(GFileInfo) info = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  if (!(info = g_file_query_info_finish (G_FILE (object), result, &error)))
    {
      g_task_return_error (task, word_error (error, NOT_READ, transfer->name));
      return;
    }

  /* Only for the progress: the file's length is no limit, as it is
   * never read whole */
  transfer->size = g_file_info_get_size (info);
  g_file_read_async (G_FILE (object), G_PRIORITY_DEFAULT, cancellable,
                     on_import_opened_cb, g_steal_pointer (&task));
}

/**
 * tandem_conversation_import_async:
 * @store: where to add the conversation
 * @file: a JSON export, as `tandem-cli show --export` writes
 * @progress: (nullable): called on the main thread with the share read
 * @progress_data: data for @progress
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once it is imported
 * @user_data: data for @callback
 *
 * Adds the conversation in @file to @store as a new thread, as
 * `tandem-cli import` does. The file is read a message at a time; if
 * anything in it is wrong, or the import is cancelled, nothing is added.
 */
void
tandem_conversation_import_async (AguiSessionStore               *store,
                                  GFile                          *file,
                                  TandemConversationProgressFunc  progress,
                                  gpointer                        progress_data,
                                  GCancellable                   *cancellable,
                                  GAsyncReadyCallback             callback,
                                  gpointer                        user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGUI_IS_SESSION_STORE (store));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_conversation_import_async);
  g_task_set_task_data (task, transfer_new (file, progress, progress_data), (GDestroyNotify) transfer_free);

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
