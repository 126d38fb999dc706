/* agui-session-store-export-stream.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-deflate-private.h"
#include "agui-session-store-export-private.h"
#include "agui-session-store-journal-private.h"
#include "agui-session-store-messages-private.h"
#include "agui-session-store-private.h"
#include "agui-session-store-threads-private.h"
#include "agui-session-store-turns-private.h"

/* The JSON export written as it is read: each message and each event of
 * the log goes from its row to the stream, printed where it stands in
 * the document, so that no tree of the thread is ever made and memory
 * holds one row and a buffer. The bytes are those of
 * agui_session_store_export_json() printed pretty, whole. A row is read
 * into the compact tree, which prints as json-glib would: the JsonNodes
 * of the thread, its interrupts and surface values are those the
 * store's other readers give the public API. */

#define WRITE_SIZE (64 * 1024)

typedef struct
{
  AguiSessionStore *store;
  const char       *thread_id;
  const char       *what;
  GOutputStream    *stream;
  GCancellable     *cancellable;
  GString          *out;
  /* the message rows, looked up by hash */
  sqlite3_stmt     *message;
} Writer;

static gboolean
writer_flush (Writer   *writer,
              gsize     at_least,
              GError  **error)
{
  g_autoptr(GError) local_error = NULL;

  if (writer->out->len < at_least || writer->out->len == 0)
    return TRUE;

  if (!g_output_stream_write_all (writer->stream, writer->out->str, writer->out->len, NULL,
                                  writer->cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: %s", writer->what, local_error->message);
      return FALSE;
    }
  g_string_truncate (writer->out, 0);

  return TRUE;
}

static void
writer_indent (Writer *writer,
               guint   level)
{
  g_string_append_c (writer->out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (writer->out, "  ");
}

/* "name" : , at @level inside an object; the first member opens it */
static void
writer_member (Writer     *writer,
               const char *name,
               guint       level,
               gboolean    first)
{
  g_string_append (writer->out, first ? "{" : ",");
  writer_indent (writer, level);
  _agui_json_append_string (writer->out, name);
  g_string_append (writer->out, " : ");
}

/* An element of an array at @level - 1; @n counts those written */
static void
writer_element (Writer *writer,
                guint   level,
                guint  *n)
{
  g_string_append (writer->out, (*n)++ == 0 ? "[" : ",");
  writer_indent (writer, level);
}

static void
writer_end_array (Writer *writer,
                  guint   level,
                  guint   n)
{
  if (n == 0)
    {
      g_string_append (writer->out, "[]");
      return;
    }
  writer_indent (writer, level);
  g_string_append_c (writer->out, ']');
}

static gboolean
writer_doc_value (Writer               *writer,
                  const AguiJsonValue  *value,
                  guint                 level,
                  GError              **error)
{
  return _agui_json_value_append (writer->out, value, TRUE, level, error) &&
         writer_flush (writer, WRITE_SIZE, error);
}

/* The snapshot an export is of: as _agui_session_store_get_last_snapshot_locked()
 * chooses it, without its messages, which are written from their rows */
typedef struct
{
  char          *id;
  AguiJsonValue  state;
  /* the message list of a snapshot older than schema 5, or null */
  AguiJsonValue  messages;
  GArray        *hashes;
} Snapshot;

static void
snapshot_clear (Snapshot *snapshot)
{
  g_clear_pointer (&snapshot->id, g_free);
  _agui_json_value_clear (&snapshot->state);
  _agui_json_value_clear (&snapshot->messages);
  g_clear_pointer (&snapshot->hashes, g_array_unref);
}

/* Sets snapshot->id to NULL (and returns TRUE) when the thread has none */
static gboolean
read_snapshot (Writer    *writer,
               Snapshot  *snapshot,
               GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(AguiMessageReader) reader = NULL;
  int rc;

  if (!(reader = _agui_message_reader_new (writer->store, writer->thread_id, writer->what, error)) ||
      !(stmt = _agui_session_store_prepare (writer->store,
                                            /* The chosen branch's last turn first, then the newest */
                                            "SELECT id, messages, state, turn_index FROM snapshots WHERE thread_id = ?1 "
                                            "ORDER BY id IS (SELECT branch FROM threads WHERE id = ?1) DESC, turn_index DESC",
                                            writer->what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, writer->thread_id, -1, SQLITE_STATIC);

  /* A damaged snapshot is skipped with a warning for the one before
   * it, as a restore does */
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) local_error = NULL;
      AguiJsonValue messages = AGUI_JSON_VALUE_INIT;
      gboolean read;
      GArray *hashes = NULL;

      snapshot_clear (snapshot);
      snapshot->id = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      read = _agui_json_doc_parse ((const char *) sqlite3_column_text (stmt, 1), sqlite3_column_bytes (stmt, 1),
                                   &messages, &local_error) &&
             _agui_json_doc_parse ((const char *) sqlite3_column_text (stmt, 2), sqlite3_column_bytes (stmt, 2),
                                   &snapshot->state, &local_error);

      /* Since schema 5, what changed since the parent snapshot */
      if (read && messages.kind == AGUI_JSON_DOC_OBJECT &&
          (hashes = _agui_message_reader_hashes (reader, snapshot->id, writer->what, &local_error)) != NULL)
        snapshot->hashes = g_array_ref (hashes);
      else if (read && messages.kind == AGUI_JSON_DOC_ARRAY)
        _agui_json_value_move (&snapshot->messages, &messages);
      else if (local_error == NULL)
        g_set_error (&local_error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: the stored messages are not an array", writer->what);

      _agui_json_value_clear (&messages);
      if (local_error == NULL)
        return TRUE;

      g_warning ("%s: skipped the damaged snapshot of turn %d: %s",
                 writer->what, sqlite3_column_int (stmt, 3), local_error->message);
    }

  snapshot_clear (snapshot);
  if (rc != SQLITE_DONE)
    {
      _agui_session_store_set_sqlite_error (writer->store, rc, writer->what, error);
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_stored_message (Writer    *writer,
                      gint64     hash,
                      guint      level,
                      GError   **error)
{
  g_autofree char *inflated = NULL;
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  gboolean read = FALSE;
  gboolean written;
  const char *json = NULL;
  gsize length;
  int rc;

  sqlite3_bind_int64 (writer->message, 2, hash);
  rc = sqlite3_step (writer->message);
  if (rc == SQLITE_ROW)
    json = _agui_session_store_column_json (writer->message, 0, &length, &inflated, NULL);
  if (json != NULL)
    read = _agui_json_doc_parse (json, length, &value, NULL);
  sqlite3_reset (writer->message);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _agui_json_value_clear (&value);
      _agui_session_store_set_sqlite_error (writer->store, rc, writer->what, error);
      return FALSE;
    }
  if (!read)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "%s: a stored message is %s", writer->what,
                   rc == SQLITE_DONE ? "missing" : "not valid JSON");
      return FALSE;
    }

  written = writer_doc_value (writer, &value, level, error);
  _agui_json_value_clear (&value);
  return written;
}

/* The snapshot's messages as an array at @level */
static gboolean
write_messages (Writer    *writer,
                Snapshot  *snapshot,
                guint      level,
                GError   **error)
{
  guint n = 0;

  if (snapshot->messages.kind == AGUI_JSON_DOC_ARRAY)
    {
      AguiJsonDocArray *messages = snapshot->messages.u.array;

      for (guint i = 0; i < _agui_json_array_get_length (messages); i++)
        {
          writer_element (writer, level + 1, &n);
          if (!writer_doc_value (writer, _agui_json_array_get (messages, i), level + 1, error))
            return FALSE;
        }
    }

  for (guint i = 0; snapshot->hashes != NULL && i < snapshot->hashes->len; i++)
    {
      writer_element (writer, level + 1, &n);
      if (!write_stored_message (writer, g_array_index (snapshot->hashes, gint64, i), level + 1, error))
        return FALSE;
    }

  writer_end_array (writer, level, n);
  return TRUE;
}

/* The string member @name of @value, "" when @value is no object or the
 * member no string: stored JSON is not trusted. */
static const char *
doc_object_string (const AguiJsonValue *value,
                   const char          *name)
{
  int slot;

  if (value->kind != AGUI_JSON_DOC_OBJECT ||
      (slot = _agui_json_object_find (value->u.object, name)) < 0 ||
      !_agui_json_value_is_string (_agui_json_object_slot_value (value->u.object, slot)))
    return "";

  return _agui_json_value_get_string (_agui_json_object_slot_value (value->u.object, slot));
}

/* The log, each row as agui_session_store_load_events() reads it. A
 * page of rows at a time: the store's guard stops a statement that
 * runs too long, and a statement stepped while its rows are written
 * runs as long as the writing (a slow pipe, a long thread). */
#define LOG_PAGE 512

static gboolean
write_log (Writer  *writer,
           GError **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 after = G_MININT64;
  guint n = 0;
  guint rows;
  int rc;

  if (!(stmt = _agui_session_store_prepare (writer->store,
                                            "SELECT seq, json FROM log WHERE thread_key = " THREAD_KEY_SQL
                                            " AND seq > ?2 ORDER BY seq LIMIT " G_STRINGIFY (LOG_PAGE),
                                            writer->what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 1, writer->thread_id, -1, SQLITE_STATIC);
  do
    {
      rows = 0;
      sqlite3_bind_int64 (stmt, 2, after);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          g_autofree char *inflated = NULL;
          g_autoptr(GError) local_error = NULL;
          AguiJsonValue event = AGUI_JSON_VALUE_INIT;
          AguiEventType type;
          const char *json;
          gboolean written;
          gsize length;

          rows++;
          after = sqlite3_column_int64 (stmt, 0);
          if ((json = _agui_session_store_column_json (stmt, 1, &length, &inflated, &local_error)) == NULL ||
              !_agui_json_doc_parse (json, length, &event, &local_error) ||
              !agui_event_type_from_string (doc_object_string (&event, "type"), &type))
            {
              _agui_json_value_clear (&event);
              g_warning ("%s: skipped the stored event %" G_GINT64_FORMAT ", which is not an AG-UI event%s%s",
                         writer->what, after, local_error ? ": " : "", local_error ? local_error->message : "");
              continue;
            }

          writer_element (writer, 2, &n);
          written = writer_doc_value (writer, &event, 2, error);
          _agui_json_value_clear (&event);
          if (!written)
            return FALSE;
        }
      sqlite3_reset (stmt);

      if (rc != SQLITE_DONE)
        {
          _agui_session_store_set_sqlite_error (writer->store, rc, writer->what, error);
          return FALSE;
        }
    }
  while (rows == LOG_PAGE);

  writer_end_array (writer, 1, n);
  return TRUE;
}

/* A thread that forked exports its chosen branch as snapshots (see
 * branch_events() in agui-session-store-export.c) */
static gboolean
write_branch_events (Writer    *writer,
                     Snapshot  *snapshot,
                     GError   **error)
{
  guint n = 0;

  writer_element (writer, 2, &n);
  writer_member (writer, "type", 3, TRUE);
  _agui_json_append_string (writer->out, "MESSAGES_SNAPSHOT");
  writer_member (writer, "messages", 3, FALSE);
  if (!write_messages (writer, snapshot, 3, error))
    return FALSE;
  writer_indent (writer, 2);
  g_string_append_c (writer->out, '}');

  if (snapshot->state.kind != AGUI_JSON_DOC_NULL)
    {
      writer_element (writer, 2, &n);
      writer_member (writer, "type", 3, TRUE);
      _agui_json_append_string (writer->out, "STATE_SNAPSHOT");
      writer_member (writer, "snapshot", 3, FALSE);
      if (!writer_doc_value (writer, &snapshot->state, 3, error))
        return FALSE;
      writer_indent (writer, 2);
      g_string_append_c (writer->out, '}');
    }

  writer_end_array (writer, 1, n);
  return TRUE;
}

/* A thread with a journal: what it kept is folded with the whole log
 * (see agui-session-store-export-journal.c), so the export is the
 * tree's, printed. Only a thread a crash cut short has one, until its
 * next turn is saved. */
static gboolean
export_tree_locked (Writer  *writer,
                    GError **error)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;

  if (!_agui_session_store_export_tree_locked (writer->store, writer->thread_id, &tree, writer->what, error))
    return FALSE;

  return writer_doc_value (writer, &tree, 0, error) && writer_flush (writer, 0, error);
}

static gboolean
export_locked (Writer  *writer,
               GError **error)
{
  g_auto(AguiJsonValue) thread = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) interrupts = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) values = AGUI_JSON_VALUE_INIT;
  g_autoptr(sqlite3_stmt) message = NULL;
  Snapshot snapshot = { NULL, AGUI_JSON_VALUE_INIT, AGUI_JSON_VALUE_INIT, NULL };
  gboolean written = FALSE;
  int branches;

  if (!_agui_session_store_get_thread_locked (writer->store, writer->thread_id, &thread, writer->what, error) ||
      !_agui_session_store_get_pending_interrupts_locked (writer->store, writer->thread_id, &interrupts,
                                                          writer->what, error) ||
      (branches = _agui_session_store_count_branches_locked (writer->store, writer->thread_id,
                                                             writer->what, error)) < 0 ||
      !_agui_session_store_dup_surface_values_locked (writer->store, writer->thread_id, &values,
                                                      writer->what, error) ||
      !(message = _agui_session_store_prepare (writer->store,
                                               "SELECT json FROM messages WHERE thread_key = " THREAD_KEY_SQL
                                               " AND hash = ?2",
                                               writer->what, error)) ||
      !read_snapshot (writer, &snapshot, error))
    return FALSE;

  writer->message = message;
  sqlite3_bind_text (message, 1, writer->thread_id, -1, SQLITE_STATIC);

  writer_member (writer, "format", 1, TRUE);
  _agui_json_append_string (writer->out, EXPORT_FORMAT);
  writer_member (writer, "version", 1, FALSE);
  g_string_append_printf (writer->out, "%d", EXPORT_VERSION);
  writer_member (writer, "thread", 1, FALSE);
  if (!writer_doc_value (writer, &thread, 1, error))
    goto out;

  writer_member (writer, "messages", 1, FALSE);
  if (!write_messages (writer, &snapshot, 1, error))
    goto out;
  writer_member (writer, "state", 1, FALSE);
  if (!writer_doc_value (writer, &snapshot.state, 1, error))
    goto out;

  writer_member (writer, "pendingInterrupts", 1, FALSE);
  if (!writer_doc_value (writer, &interrupts, 1, error))
    goto out;
  /* Only when the person typed into a surface: an export without them
   * reads as it always did */
  if (_agui_json_object_get_size (values.u.object) > 0)
    {
      writer_member (writer, "surfaceValues", 1, FALSE);
      if (!writer_doc_value (writer, &values, 1, error))
        goto out;
    }

  writer_member (writer, "events", 1, FALSE);
  if (snapshot.id != NULL && branches > 1 ? !write_branch_events (writer, &snapshot, error) : !write_log (writer, error))
    goto out;
  writer_indent (writer, 0);
  g_string_append_c (writer->out, '}');

  written = writer_flush (writer, 0, error);

out:
  snapshot_clear (&snapshot);
  writer->message = NULL;
  return written;
}

/**
 * agui_session_store_export_to_stream:
 * @self: a session store
 * @thread_id: a thread's id
 * @stream: where to write it
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes the thread's export to @stream, byte for byte what
 * [method@Agui.SessionStore.export_json] gives printed as pretty JSON,
 * a row at a time: however long the thread, memory holds one message
 * or event and a buffer. The stream is not closed. On error @stream
 * may have part of the export.
 *
 * Returns: %TRUE once it is all written
 */
gboolean
agui_session_store_export_to_stream (AguiSessionStore  *self,
                                     const char        *thread_id,
                                     GOutputStream     *stream,
                                     GCancellable      *cancellable,
                                     GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *what = NULL;
  g_autoptr(GString) out = NULL;
  Writer writer = { NULL, };
  gboolean written;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);

  what = g_strdup_printf ("Could not export the thread '%s'", thread_id);
  out = g_string_sized_new (WRITE_SIZE * 2);
  writer.store = self;
  writer.thread_id = thread_id;
  writer.what = what;
  writer.stream = stream;
  writer.cancellable = cancellable;
  writer.out = out;

  locker = g_mutex_locker_new (&self->mutex);

  /* One read transaction, so a writer in another process cannot slip a
   * turn in between the snapshot and the log. */
  if (!_agui_session_store_exec (self, "BEGIN", what, error))
    return FALSE;

  written = _agui_session_store_has_journal_locked (self, thread_id)
              ? export_tree_locked (&writer, error)
              : export_locked (&writer, error);
  _agui_session_store_rollback (self);

  return written;
}

typedef struct
{
  char          *thread_id;
  GOutputStream *stream;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_free (job->thread_id);
  g_clear_object (&job->stream);
  g_free (job);
}

static void
export_to_stream_job (AguiSessionStore *self,
                      GTask            *task,
                      gpointer          data)
{
  ExportJob *job = data;
  GError *error = NULL;
  gboolean written = agui_session_store_export_to_stream (self, job->thread_id, job->stream,
                                                          g_task_get_cancellable (task), &error);

  _agui_session_store_return_boolean (task, written, error);
}

/**
 * agui_session_store_export_to_stream_async:
 * @self: a session store
 * @thread_id: a thread's id
 * @stream: where to write it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once it is written
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.export_to_stream] on the store's worker,
 * after the turns written before. @stream is written there and must not
 * be used until @callback is called; it is not closed.
 */
void
agui_session_store_export_to_stream_async (AguiSessionStore    *self,
                                           const char          *thread_id,
                                           GOutputStream       *stream,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  ExportJob *job;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (G_IS_OUTPUT_STREAM (stream));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (ExportJob, 1);
  job->thread_id = g_strdup (thread_id);
  job->stream = g_object_ref (stream);
  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_export_to_stream_async,
                                 export_to_stream_job, job, (GDestroyNotify) export_job_free);
}

/**
 * agui_session_store_export_to_stream_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE once the export is written
 */
gboolean
agui_session_store_export_to_stream_finish (AguiSessionStore  *self,
                                            GAsyncResult      *result,
                                            GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, agui_session_store_export_to_stream_async, error);
}
