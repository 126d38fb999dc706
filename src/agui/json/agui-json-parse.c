/* agui-json-parse.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-reader-private.h"
#include "agui-json-private.h"

/* JSON text that is not an event frame is read by the event reader too: it
 * sits above the value tree and the checks and printer of agui-json.c, so
 * this entry point lives above all three rather than inside agui-json.c. */

JsonNode *
_agui_json_parse (const char  *text,
                  gssize       length,
                  GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    text = "";
  if (length < 0)
    length = strlen (text);

  if (!_agui_json_check (text, length, AGUI_JSON_CHECK_ALL, error))
    return NULL;

  /* yajl reads what it accepts into the very tree json-glib would build
   * (the event reader's nested values, which the differential test holds
   * to json-glib's), for a tenth of the cost: tool arguments are parsed
   * once per call. json-glib still answers everything else, so its
   * errors and leniency stay as they were. */
  if (g_utf8_validate_len (text, length, NULL))
    {
      /* One reader per thread: making one costs more than reading a
       * tool call's arguments. Nothing it reads calls back in here. */
      static GPrivate reader_key = G_PRIVATE_INIT ((GDestroyNotify) _agui_event_reader_free);
      AguiEventReader *reader = g_private_get (&reader_key);
      JsonNode *node;

      if (reader == NULL)
        {
          reader = _agui_event_reader_new ();
          g_private_set (&reader_key, reader);
        }

      node = _agui_event_reader_read_value (reader, text, length, 0);

      if (node != NULL)
        {
          /* as json_parser_new_immutable () gives it */
          json_node_seal (node);
          return node;
        }
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, length, error))
    return NULL;

  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           "the text holds no JSON value");
      return NULL;
    }

  return json_parser_steal_root (parser);
}
