/* agui-session-store-import-reader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-import-private.h"
#include "agui-session-store-private.h"

/* An export read from a stream a value at a time: the top-level object
 * is split here, and each of its members, and each element of its
 * messages and events arrays, is parsed alone (by _agui_json_parse(),
 * with all its checks) and handed to the import. Memory holds the
 * largest single value, never the file: a 100,000-message export is
 * read through a buffer of a few kilobytes. */

#define READ_SIZE (64 * 1024)

typedef struct
{
  GInputStream *stream;
  GCancellable *cancellable;
  char         *data;
  gsize         size;
  /* the unread bytes are data[start, end) */
  gsize         start;
  gsize         end;
  /* bytes dropped from the buffer before data[0] */
  guint64       dropped;
  gboolean      eof;
  GError       *error;
} Reader;

static void
reader_clear (Reader *reader)
{
  g_free (reader->data);
  g_clear_error (&reader->error);
}

/* Reads more, keeping data[start, end): FALSE at the end or on error */
static gboolean
reader_fill (Reader *reader)
{
  gssize n;

  if (reader->eof || reader->error != NULL)
    return FALSE;

  if (reader->start > 0)
    {
      memmove (reader->data, reader->data + reader->start, reader->end - reader->start);
      reader->dropped += reader->start;
      reader->end -= reader->start;
      reader->start = 0;
    }
  if (reader->size - reader->end < READ_SIZE)
    {
      reader->size = MAX (reader->size * 2, reader->end + READ_SIZE);
      reader->data = g_realloc (reader->data, reader->size);
    }

  n = g_input_stream_read (reader->stream, reader->data + reader->end, reader->size - reader->end,
                           reader->cancellable, &reader->error);
  if (n <= 0)
    {
      reader->eof = n == 0;
      return FALSE;
    }
  reader->end += n;

  return TRUE;
}

/* The byte @offset after the unread ones begin, or -1 past the end */
static inline int
reader_peek (Reader *reader,
             gsize   offset)
{
  while (reader->start + offset >= reader->end)
    if (!reader_fill (reader))
      return -1;

  return (guchar) reader->data[reader->start + offset];
}

static guint64
reader_position (Reader *reader)
{
  return reader->dropped + reader->start;
}

/* The next byte that is not white space, left unread; -1 at the end */
static int
reader_skip_space (Reader *reader)
{
  int c;

  while ((c = reader_peek (reader, 0)) == ' ' || c == '\t' || c == '\n' || c == '\r')
    reader->start++;

  return c;
}

/* Takes @c if it is the next byte after white space */
static gboolean
reader_take (Reader *reader,
             int     c)
{
  if (reader_skip_space (reader) != c)
    return FALSE;
  reader->start++;

  return TRUE;
}

static gboolean
syntax_error (Reader      *reader,
              char       **reason,
              const char  *expected)
{
  if (reader->error != NULL)
    *reason = g_strdup_printf ("it could not be read: %s", reader->error->message);
  else
    *reason = g_strdup_printf ("it is not valid JSON: %s at byte %" G_GUINT64_FORMAT,
                               expected, reader_position (reader));
  return FALSE;
}

/* The length of the JSON value the unread bytes begin with, found by
 * its brackets and quotes only: the parser checks the rest. */
static gboolean
reader_measure_value (Reader  *reader,
                      gsize   *length)
{
  gsize at = 0;
  guint depth = 0;
  int c;

  do
    {
      if ((c = reader_peek (reader, at++)) < 0)
        return FALSE;

      if (c == '"')
        {
          while ((c = reader_peek (reader, at++)) != '"')
            {
              if (c < 0)
                return FALSE;
              if (c == '\\' && reader_peek (reader, at++) < 0)
                return FALSE;
            }
        }
      else if (c == '{' || c == '[')
        {
          depth++;
        }
      else if (c == '}' || c == ']')
        {
          if (depth-- == 0)
            return FALSE;
        }
      else if (depth == 0)
        {
          /* A number, true, false or null: to the next delimiter */
          while ((c = reader_peek (reader, at)) >= 0 &&
                 !strchr (",:]} \t\r\n", c))
            at++;
          if (c < 0 && reader->error != NULL)
            return FALSE;
        }
    }
  while (depth > 0);

  *length = at;
  return TRUE;
}

/* The next value's text, from reader->start: FALSE with @reason when it
 * is cut short. */
static gboolean
reader_measure_next (Reader   *reader,
                     gsize    *length,
                     char    **reason)
{
  if (reader_skip_space (reader) < 0 || !reader_measure_value (reader, length))
    return syntax_error (reader, reason, "a value is cut short");

  return TRUE;
}

static void
invalid_value (Reader  *reader,
               GError  *error,
               char   **reason)
{
  *reason = g_strdup_printf ("it is not valid JSON: %s (in the value at byte %" G_GUINT64_FORMAT ")",
                             error->message, reader_position (reader));
}

/* The next value, parsed into @value (null before); FALSE with @reason */
static gboolean
reader_take_doc (Reader         *reader,
                 AguiJsonValue  *value,
                 char          **reason)
{
  g_autoptr(GError) local_error = NULL;
  gsize length;

  if (!reader_measure_next (reader, &length, reason))
    return FALSE;

  if (!_agui_json_doc_parse (reader->data + reader->start, length, value, &local_error))
    {
      invalid_value (reader, local_error, reason);
      return FALSE;
    }
  reader->start += length;

  return TRUE;
}

/* Takes @c, the next byte after white space, or fails naming it */
static gboolean
reader_expect (Reader      *reader,
               int          c,
               char       **reason,
               const char  *expected)
{
  if (reader_skip_space (reader) != c)
    return syntax_error (reader, reason, expected);
  reader->start++;

  return TRUE;
}

static gboolean
read_array (Reader      *reader,
            AguiImport  *import,
            gboolean     messages,
            char       **reason)
{
  /* past the '[' */
  reader->start++;
  if (reader_take (reader, ']'))
    return TRUE;

  do
    {
      g_auto(AguiJsonValue) element = AGUI_JSON_VALUE_INIT;

      if (!reader_take_doc (reader, &element, reason) ||
          !(messages ? _agui_import_add_message (import, &element, reason)
                     : _agui_import_add_event (import, &element, reason)))
        return FALSE;

      if (g_cancellable_set_error_if_cancelled (reader->cancellable, &reader->error))
        return syntax_error (reader, reason, NULL);
    }
  while (reader_take (reader, ','));

  return reader_expect (reader, ']', reason, "expected ',' or ']'");
}

static gboolean
read_export (Reader      *reader,
             AguiImport  *import,
             char       **reason)
{
  if (reader_skip_space (reader) != '{')
    {
      if (reader->error == NULL && reader_skip_space (reader) >= 0)
        *reason = g_strdup ("it is not a JSON object");
      else
        syntax_error (reader, reason, "the file is empty");
      return FALSE;
    }
  reader->start++;

  if (!reader_take (reader, '}'))
    {
      do
        {
          g_auto(AguiJsonValue) key = AGUI_JSON_VALUE_INIT;
          const char *name;

          if (reader_skip_space (reader) != '"')
            return syntax_error (reader, reason, "expected a member name");
          if (!reader_take_doc (reader, &key, reason))
            return FALSE;
          name = _agui_json_value_get_string (&key);
          if (!reader_expect (reader, ':', reason, "expected ':'"))
            return FALSE;

          if ((g_str_equal (name, "messages") || g_str_equal (name, "events")) &&
              reader_skip_space (reader) == '[')
            {
              if (!_agui_import_begin_array (import, name, reason) ||
                  !read_array (reader, import, g_str_equal (name, "messages"), reason))
                return FALSE;
            }
          else
            {
              g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

              if (!reader_take_doc (reader, &value, reason))
                return FALSE;
              _agui_import_add_member (import, name, &value);
            }
        }
      while (reader_take (reader, ','));

      if (!reader_expect (reader, '}', reason, "expected ',' or '}'"))
        return FALSE;
    }

  if (reader_skip_space (reader) >= 0 || reader->error != NULL)
    return syntax_error (reader, reason, "more follows the object");

  return TRUE;
}

/**
 * agui_session_store_import_stream:
 * @self: a session store
 * @stream: an export, as [method@Agui.SessionStore.export_to_stream] writes
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * [method@Agui.SessionStore.import_json] for an export read from
 * @stream, a message and an event at a time: the export is never whole
 * in memory, as text or as a tree, so an import takes a few times the
 * room of its file. Each message and event is checked as it is read;
 * if anything is wrong (the JSON too, with the byte where it is wrong)
 * nothing is written.
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_stream (AguiSessionStore  *self,
                                  GInputStream      *stream,
                                  GCancellable      *cancellable,
                                  GError           **error)
{
  g_autoptr(AguiImport) import = NULL;
  g_autofree char *reason = NULL;
  Reader reader = { NULL, };

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  reader.stream = stream;
  reader.cancellable = cancellable;
  import = _agui_import_new ();

  if (!read_export (&reader, import, &reason))
    {
      /* Cancelled is not a reason the file gives */
      if (g_error_matches (reader.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&reader.error));
          reader_clear (&reader);
          return NULL;
        }
      reader_clear (&reader);
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_STORE, "Could not import the thread: %s", reason);
      return NULL;
    }
  reader_clear (&reader);

  return _agui_import_finish (import, self, error);
}

static void
import_stream_job (AguiSessionStore *self,
                   GTask            *task,
                   gpointer          data)
{
  GError *error = NULL;
  char *thread_id = agui_session_store_import_stream (self, data, g_task_get_cancellable (task), &error);

  _agui_session_store_return_pointer (task, thread_id, g_free, error);
}

/**
 * agui_session_store_import_stream_async:
 * @self: a session store
 * @stream: an export, as [method@Agui.SessionStore.export_to_stream] writes
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the new thread's id
 * @user_data: data for @callback
 *
 * [method@Agui.SessionStore.import_stream] on the store's worker, in
 * order with the writes asked for before. @stream is read there and
 * must not be used until @callback is called; it is not closed.
 */
void
agui_session_store_import_stream_async (AguiSessionStore    *self,
                                        GInputStream        *stream,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (G_IS_INPUT_STREAM (stream));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  _agui_session_store_start_job (self, cancellable, callback, user_data, agui_session_store_import_stream_async,
                                 import_stream_job, g_object_ref (stream), g_object_unref);
}

/**
 * agui_session_store_import_stream_finish:
 * @self: a session store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the new thread's id, or %NULL on error
 */
char *
agui_session_store_import_stream_finish (AguiSessionStore  *self,
                                         GAsyncResult      *result,
                                         GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, agui_session_store_import_stream_async, error);
}
