/* agui-json-doc-parse.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-reader-private.h"
#include "agui-json-doc-private.h"

/* _agui_json_parse () into the compact tree: the same reader, checks and
 * limits, for JSON text libagui reads for itself (a stored row, a file)
 * and never hands out as a JsonNode. A file of its own, above the event
 * reader as agui-json-parse.c is, so that the two entries can change
 * apart. */

gboolean
_agui_json_parse_doc (const char     *text,
                      gssize          length,
                      AguiJsonValue  *value,
                      GError        **error)
{
  /* One reader per thread, as for _agui_json_parse (): making one costs
   * more than reading a stored message. Nothing it reads calls back in
   * here. */
  static GPrivate reader_key = G_PRIVATE_INIT ((GDestroyNotify) _agui_event_reader_free);
  const char *start = text;
  gsize start_length;
  AguiEventReader *reader;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (value != NULL && value->kind == AGUI_JSON_DOC_NULL, FALSE);

  if (start == NULL)
    start = "";
  if (length < 0)
    length = strlen (start);
  start_length = length;

  /* A file saved by an editor may start with one; RFC 8259 lets a
   * reader ignore it. */
  if (start_length >= 3 && memcmp (start, "\xEF\xBB\xBF", 3) == 0)
    {
      start += 3;
      start_length -= 3;
    }

  /* What the reader cannot keep as sent, and text that is not UTF-8
   * (the reader counts on it), are refused below with their words. */
  if (_agui_json_check (start, start_length, AGUI_JSON_CHECK_ALL, NULL) &&
      g_utf8_validate_len (start, start_length, NULL))
    {
      reader = g_private_get (&reader_key);
      if (reader == NULL)
        {
          reader = _agui_event_reader_new ();
          g_private_set (&reader_key, reader);
        }

      if (_agui_event_reader_read_doc_value (reader, start, start_length, 0, value))
        return TRUE;
    }

  /* Refused: the words are those _agui_json_parse () gives the same
   * text, so it says why. Only a bad row or file pays for reading
   * twice. */
  {
    g_autoptr(JsonNode) node = _agui_json_parse (text, length, error);

    /* The two readers agree on what is JSON; if they ever do not, the
     * text is still refused, with a reason. */
    if (node != NULL)
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           "the text could not be read as one JSON value");
  }

  return FALSE;
}
