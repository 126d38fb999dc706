/* agui-id.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-id-index-private.h"
#include "agui-util-private.h"

/* Ids are interned here rather than with g_ref_string_new_intern (),
 * for their size: a long run holds one or two per tool call, and a
 * GRefString's 16-byte header put an id of eight characters (tc100000)
 * in a 48-byte block where a 4-byte count keeps it in 32, while GLib's
 * intern table, which grows to twice its entries, took 24 bytes a string
 * more than an AguiIdIndex's 12 at 53-80% full (9 since it keeps a
 * byte of each hash, not four). From the slice
 * allocator, which has no header to pay for, an id of up to eleven
 * characters takes 16 bytes.
 *
 * One lock guards the table and every count. It also keeps clear of
 * what GLib 2.74 got wrong with its own: g_ref_string_release() dropped
 * the count to zero and only then took the intern table's lock to remove
 * the string, so a lookup meanwhile could hand out a string about to be
 * freed (the restore folds on a worker and interns the very ids the main
 * thread is releasing). Here a release that reaches zero removes the id
 * before any lookup can see it. */
typedef struct
{
  guint refs;
  char  str[];
} Id;

#define ID_OF(string) ((Id *) ((string) - G_STRUCT_OFFSET (Id, str)))

G_LOCK_DEFINE_STATIC (ids);
/* Of the ids' strings themselves (width 1, no key function) */
static AguiIdIndex table = { .width = 1 };

/* The ids made last, by their hash: a fold interns each id several times
 * in a few events (the parser, the verifier, the reducer, the record
 * and its call), and in a long run the table's slot for it is a cache
 * miss each time; this is not. */
#define RECENT_SIZE 64
static char *recent[RECENT_SIZE];

char *
_agui_id_new (const char *id)
{
  gpointer *slot;
  char *shared;
  char **seen;

  if (id == NULL)
    return NULL;

  seen = &recent[g_str_hash (id) % RECENT_SIZE];

  G_LOCK (ids);
  if (*seen != NULL && strcmp (*seen, id) == 0)
    {
      ID_OF (*seen)->refs++;
      shared = *seen;
      G_UNLOCK (ids);

      return shared;
    }

  slot = _agui_id_index_insert (&table, id);
  if (slot[0] == NULL)
    {
      gsize length = strlen (id);
      Id *made = g_slice_alloc (sizeof (Id) + length + 1);

      made->refs = 1;
      memcpy (made->str, id, length + 1);
      slot[0] = made->str;
    }
  else
    {
      ID_OF ((char *) slot[0])->refs++;
    }
  shared = *seen = slot[0];
  G_UNLOCK (ids);

  return shared;
}

void
_agui_id_release (char *id)
{
  Id *held;

  if (id == NULL)
    return;

  G_LOCK (ids);
  held = ID_OF (id);
  g_assert (held->refs > 0);
  if (--held->refs == 0)
    {
      char **seen = &recent[g_str_hash (id) % RECENT_SIZE];

      if (*seen == id)
        *seen = NULL;
      _agui_id_index_remove (&table, id);
      g_slice_free1 (sizeof (Id) + strlen (id) + 1, held);
    }
  G_UNLOCK (ids);
}
