/* agui-id.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-util-private.h"

/* GLib 2.74 (Debian 12) races an interned string's last release against
 * its lookup: g_ref_string_release() drops the count to zero, and only
 * then takes the intern table's lock to remove the string; meanwhile
 * g_ref_string_new_intern(), holding that lock, finds it there, fails
 * to acquire it ("g_atomic_ref_count_inc: assertion 'old_value > 0'")
 * and hands it out anyway, to be freed under its new owner. libagui
 * meets it whenever a conversation is reopened while the transcript it
 * showed before is let go: the restore folds on a worker and interns
 * the very ids the main thread is releasing. Every id is made and
 * released under this one lock, so a release that reaches zero has
 * removed the string before any lookup can see it. */
G_LOCK_DEFINE_STATIC (ids);

char *
_agui_id_new (const char *id)
{
  char *shared;

  if (id == NULL)
    return NULL;

  G_LOCK (ids);
  shared = g_ref_string_new_intern (id);
  G_UNLOCK (ids);

  return shared;
}

void
_agui_id_release (char *id)
{
  if (id == NULL)
    return;

  G_LOCK (ids);
  g_ref_string_release (id);
  G_UNLOCK (ids);
}
