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

/* One reader per thread, shared by the entries into json-glib and into the
 * compact tree: making one costs more than reading a tool call's
 * arguments. Nothing it reads calls back into either entry. */
static GPrivate reader_key = G_PRIVATE_INIT ((GDestroyNotify) _agui_event_reader_free);

AguiEventReader *
_agui_json_prepare_text (const char **text,
                         gssize      *length,
                         GError     **error)
{
  AguiEventReader *reader;

  if (*text == NULL)
    *text = "";
  if (*length < 0)
    *length = strlen (*text);

  /* A file saved by an editor may start with one; RFC 8259 lets a
   * reader ignore it. */
  if (*length >= 3 && memcmp (*text, "\xEF\xBB\xBF", 3) == 0)
    {
      *text += 3;
      *length -= 3;
    }

  if (!_agui_json_check (*text, *length, AGUI_JSON_CHECK_ALL, error))
    return NULL;

  /* The reader counts on valid UTF-8; the syntax check, which checks
   * that first, says where it is not. */
  if (!g_utf8_validate_len (*text, *length, NULL))
    {
      _agui_json_check_syntax (*text, *length, error);
      return NULL;
    }

  reader = g_private_get (&reader_key);
  if (reader == NULL)
    {
      reader = _agui_event_reader_new ();
      g_private_set (&reader_key, reader);
    }

  return reader;
}

JsonNode *
_agui_json_parse (const char  *text,
                  gssize       length,
                  GError     **error)
{
  AguiEventReader *reader;
  JsonNode *node;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  reader = _agui_json_prepare_text (&text, &length, error);
  if (reader == NULL)
    return NULL;

  node = _agui_event_reader_read_value (reader, text, length, 0, error);
  if (node != NULL)
    json_node_seal (node);

  return node;
}
