/* agui-interrupts.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-interrupts-private.h"
#include "agui-types.h"

static JsonObject *
find_entry (JsonArray  *resume,
            const char *interrupt_id)
{
  if (resume == NULL)
    return NULL;

  for (guint i = 0; i < json_array_get_length (resume); i++)
    {
      JsonNode *element = json_array_get_element (resume, i);
      JsonObject *entry;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      entry = json_node_get_object (element);
      if (g_strcmp0 (json_object_get_string_member_with_default (entry, "interruptId", NULL),
                     interrupt_id) == 0)
        return entry;
    }

  return NULL;
}

/* Before a run starts on an interrupted thread, its input must answer
 * every open interrupt, and must not answer an expired one with anything
 * but a cancellation (AG-UI 13.2 rules 3 and 7, worded as 13.3). Nothing
 * is sent when this fails. */
gboolean
_agui_interrupts_check_resume (JsonArray  *pending,
                               JsonArray  *resume,
                               GDateTime  *now,
                               GError    **error)
{
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();

  if (pending == NULL || json_array_get_length (pending) == 0)
    return TRUE;

  for (guint i = 0; i < json_array_get_length (pending); i++)
    {
      JsonObject *interrupt = json_array_get_object_element (pending, i);
      const char *id = json_object_get_string_member_with_default (interrupt, "id", "");

      if (find_entry (resume, id) == NULL)
        g_ptr_array_add (missing, (gpointer) id);
    }

  if (missing->len > 0)
    {
      g_autofree char *ids = NULL;

      g_ptr_array_add (missing, NULL);
      ids = g_strjoinv (", ", (char **) missing->pdata);

      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INTERRUPTED,
                   "Thread has %u pending interrupt(s) not addressed by resume: %s",
                   missing->len - 1, ids);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (pending); i++)
    {
      JsonObject *interrupt = json_array_get_object_element (pending, i);
      const char *id = json_object_get_string_member_with_default (interrupt, "id", "");
      const char *expires_at = json_object_get_string_member_with_default (interrupt, "expiresAt", NULL);
      JsonObject *entry = find_entry (resume, id);
      g_autoptr(GDateTime) expiry = NULL;

      if (expires_at == NULL)
        continue;

      /* An unparseable expiry never expires. */
      expiry = g_date_time_new_from_iso8601 (expires_at, NULL);
      if (expiry == NULL || g_date_time_compare (expiry, now) > 0)
        continue;

      if (g_strcmp0 (json_object_get_string_member_with_default (entry, "status", NULL), "cancelled") != 0)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_EXPIRED,
                       "Interrupt %s expired at %s and can no longer be answered. "
                       "Cancel it to continue the thread.", id, expires_at);
          return FALSE;
        }
    }

  return TRUE;
}
