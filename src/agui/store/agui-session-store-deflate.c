/* agui-session-store-deflate.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-session-store-deflate-private.h"

/* Since schema 9 a long row of the log or of the messages is kept
 * deflated (raw DEFLATE, no header): a 600-byte answer takes about half
 * its room. Short rows, and those deflate does not make an eighth
 * smaller, stay JSON text, as every row written before is. */
#define DEFLATE_MIN_BYTES 256

GBytes *
_agui_session_store_deflate (const char *json,
                             gsize       length)
{
  g_autoptr(GZlibCompressor) deflater = NULL;
  g_autofree guint8 *buffer = NULL;
  gsize bytes_read = 0;
  gsize bytes_written = 0;
  gsize room = length - length / 8;

  if (length < DEFLATE_MIN_BYTES)
    return NULL;

  deflater = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW, -1);
  buffer = g_malloc (room);
  /* Output that does not fit the room is not worth keeping */
  if (g_converter_convert (G_CONVERTER (deflater), json, length, buffer, room, G_CONVERTER_INPUT_AT_END,
                           &bytes_read, &bytes_written, NULL) != G_CONVERTER_FINISHED ||
      bytes_read != length)
    return NULL;

  return g_bytes_new_take (g_steal_pointer (&buffer), bytes_written);
}

char *
_agui_session_store_inflate (const guint8  *data,
                             gsize          size,
                             gsize         *length,
                             GError       **error)
{
  /* One inflater per thread, reset for each row: making one sets up
   * zlib's state and window anew, which cost a restore more than the
   * inflating of the 20,000 rows of a long conversation's log */
  static GPrivate inflater_key = G_PRIVATE_INIT (g_object_unref);
  GZlibDecompressor *inflater = g_private_get (&inflater_key);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize consumed = 0;
  gsize used = 0;

  if (inflater == NULL)
    {
      inflater = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW);
      g_private_set (&inflater_key, inflater);
    }
  else
    {
      g_converter_reset (G_CONVERTER (inflater));
    }

  for (;;)
    {
      gsize bytes_read = 0;
      gsize bytes_written = 0;
      GConverterResult result;

      g_byte_array_set_size (out, MAX (used + 4096, used * 2));
      result = g_converter_convert (G_CONVERTER (inflater), data + consumed, size - consumed,
                                    out->data + used, out->len - used, G_CONVERTER_INPUT_AT_END,
                                    &bytes_read, &bytes_written, error);
      if (result == G_CONVERTER_ERROR)
        return NULL;
      consumed += bytes_read;
      used += bytes_written;
      if (result == G_CONVERTER_FINISHED)
        break;
      if (bytes_read == 0 && bytes_written == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "the deflated row is cut short");
          return NULL;
        }
    }

  g_byte_array_set_size (out, used + 1);
  out->data[used] = '\0';
  *length = used;
  return (char *) g_byte_array_free (g_steal_pointer (&out), FALSE);
}

const char *
_agui_session_store_value_json (sqlite3_value  *value,
                                gsize          *length,
                                char          **inflated,
                                GError        **error)
{
  g_assert (inflated != NULL && *inflated == NULL);

  switch (sqlite3_value_type (value))
    {
    case SQLITE_TEXT:
      *length = sqlite3_value_bytes (value);
      return (const char *) sqlite3_value_text (value);

    case SQLITE_BLOB:
      *inflated = _agui_session_store_inflate (sqlite3_value_blob (value), sqlite3_value_bytes (value), length, error);
      return *inflated;

    default:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the row holds neither text nor a deflated text");
      return NULL;
    }
}

const char *
_agui_session_store_column_json (sqlite3_stmt  *stmt,
                                 int            column,
                                 gsize         *length,
                                 char         **inflated,
                                 GError       **error)
{
  /* sqlite3_column_value() gives an unprotected value, which the
   * sqlite3_value_*() calls may not read: the column calls, then */
  g_assert (inflated != NULL && *inflated == NULL);

  switch (sqlite3_column_type (stmt, column))
    {
    case SQLITE_TEXT:
      *length = sqlite3_column_bytes (stmt, column);
      return (const char *) sqlite3_column_text (stmt, column);

    case SQLITE_BLOB:
      *inflated = _agui_session_store_inflate (sqlite3_column_blob (stmt, column), sqlite3_column_bytes (stmt, column),
                                               length, error);
      return *inflated;

    default:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the row holds neither text nor a deflated text");
      return NULL;
    }
}
