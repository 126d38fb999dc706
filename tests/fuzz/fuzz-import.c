/* fuzz-import.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any JSON given to the import is refused with a reason or imported;
 * what was imported exports, and that export imports again to the same
 * messages, state, interrupts and log.
 */

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-json-private.h"
#include "fuzz.h"

static AguiSessionStore *
get_store (void)
{
  static AguiSessionStore *store;

  if (store == NULL)
    {
      g_autoptr(GError) error = NULL;

      /* In memory: a file would make each input cost a sync. */
      store = agui_session_store_new (":memory:", &error);
      if (store == NULL)
        g_error ("%s", error->message);
    }

  return store;
}

static char *
content_of (JsonNode *exported)
{
  JsonObject *root = json_node_get_object (exported);
  GString *out = g_string_new (NULL);
  static const char * const members[] = { "messages", "state", "pendingInterrupts", "events" };

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      g_autofree char *text = _agui_json_to_string (json_object_get_member (root, members[i]), FALSE, NULL);

      FUZZ_CHECK (text != NULL, "the export's %s do not print", members[i]);
      g_string_append_printf (out, "%s\n", text);
    }

  return g_string_free (out, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  AguiSessionStore *store;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) reparsed = NULL;
  g_autoptr(JsonNode) exported_again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *id_again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  fuzz_init ();
  store = get_store ();

  if (!(input = _agui_json_parse ((const char *) data, size, NULL)))
    return 0;

  if (!(id = agui_session_store_import_json (store, input, &error)))
    {
      FUZZ_CHECK (error != NULL, "a refused import without a reason");
      return 0;
    }

  exported = agui_session_store_export_json (store, id, &error);
  FUZZ_CHECK (exported != NULL, "an imported thread does not export: %s", error->message);
  text = _agui_json_to_string (exported, TRUE, &error);
  FUZZ_CHECK (text != NULL, "an export does not print: %s", error->message);
  reparsed = _agui_json_parse (text, -1, &error);
  FUZZ_CHECK (reparsed != NULL, "a printed export does not parse: %s", error->message);

  /* The export is written a row at a time as it is printed whole, and
   * read back from the file a piece at a time */
  {
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GInputStream) in = NULL;
    g_autoptr(GBytes) bytes = NULL;

    FUZZ_CHECK (agui_session_store_export_to_stream (store, id, out, NULL, &error),
                "an imported thread does not export to a stream: %s", error->message);
    FUZZ_CHECK (g_output_stream_close (out, NULL, NULL), "the export's stream does not close");
    bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    FUZZ_CHECK (g_bytes_get_size (bytes) == strlen (text) && memcmp (g_bytes_get_data (bytes, NULL), text, strlen (text)) == 0,
                "the streamed export is not the export printed whole");
    in = g_memory_input_stream_new_from_bytes (bytes);
    id_again = agui_session_store_import_stream (store, in, NULL, &error);
  }
  FUZZ_CHECK (id_again != NULL, "an export does not import again: %s", error->message);
  exported_again = agui_session_store_export_json (store, id_again, &error);
  FUZZ_CHECK (exported_again != NULL, "a re-import does not export: %s", error->message);

  first = content_of (exported);
  second = content_of (exported_again);
  FUZZ_CHECK (g_str_equal (first, second), "export → import → export changed the thread:\n%s\nvs\n%s", first, second);

  agui_session_store_delete_thread (store, id, NULL);
  agui_session_store_delete_thread (store, id_again, NULL);

  return 0;
}
