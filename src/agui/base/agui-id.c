/* agui-id.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-pool-private.h"
#include "agui-util-private.h"

/* Ids are shared here rather than with g_ref_string_new_intern (), for
 * their size: a long run holds one or two per tool call, and a
 * GRefString's 16-byte header put an id of eight characters (tc100000)
 * in a 48-byte block where a 4-byte count keeps it in 32. From the pool
 * (agui-pool-private.h), which has no header to pay for, an id of up to
 * eleven characters takes 16 bytes, and one of three 8.
 *
 * An id is shared by the holders that ask for it close together, not
 * interned: the ids made lately are kept by their hash (one each), and
 * an id asked for again while it is there is counted once more. The
 * holders of an id are made within a few events of each other (the
 * verifier, the reducer, the record and its call at a message's start;
 * the tool message at its result), so they share it; one asked for much
 * later may get a copy of its own, which only costs its 16 bytes. A table
 * of every id, as this was, took 15 bytes an id for good (a slot of 9
 * bytes at 53-80% full) and two ids a tool call: a tenth of a long run's
 * memory. Nothing compares ids by their address (see own_call () in
 * agui-transcript.c).
 *
 * One lock guards the ids kept and every count. It also keeps clear of
 * what GLib 2.74 got wrong with its own: g_ref_string_release() dropped
 * the count to zero and only then took the intern table's lock to remove
 * the string, so a lookup meanwhile could hand out a string about to be
 * freed (the restore folds on a worker and shares the very ids the main
 * thread is releasing). Here a release that reaches zero forgets the id
 * before any lookup can see it. */
typedef struct
{
  guint refs;
  char  str[];
} Id;

#define ID_OF(string) ((Id *) ((string) - G_STRUCT_OFFSET (Id, str)))

G_LOCK_DEFINE_STATIC (ids);

/* The ids made lately, by their hash (32 KiB). g_str_hash () of ids
 * that count up (tc1, tc2, …) lands in neighbouring places, so that a
 * run's ids in flight do not push each other out. */
#define RECENT_SIZE 4096
static char *recent[RECENT_SIZE];

char *
_agui_id_new (const char *id)
{
  gsize length;
  char *shared;
  char **seen;
  Id *made;

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
  G_UNLOCK (ids);

  length = strlen (id);
  made = _agui_pool_alloc (sizeof (Id) + length + 1);
  made->refs = 1;
  memcpy (made->str, id, length + 1);

  /* Kept in place of the one there, which its holders still have */
  G_LOCK (ids);
  shared = *seen = made->str;
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
      G_UNLOCK (ids);

      _agui_pool_free (sizeof (Id) + strlen (id) + 1, held);
      return;
    }
  G_UNLOCK (ids);
}
