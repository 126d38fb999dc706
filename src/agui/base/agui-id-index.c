/* agui-id-index.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-id-index-private.h"

#define MIN_CAPACITY 8

/* g_str_hash() of ids that count up ("tc1", "tc2", …) lands in runs of
 * neighbouring values, which linear probing turns into long clusters:
 * mixed first (murmur3's finaliser), a probe stays a slot or two. */
static inline guint
hash_id (const char *id)
{
  guint h = g_str_hash (id);

  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;

  return h;
}

static inline const char *
item_key (AguiIdIndex *index,
          gpointer     item)
{
  return index->key != NULL ? index->key (item) : item;
}

void
_agui_id_index_init (AguiIdIndex        *index,
                     guint               width,
                     AguiIdIndexKeyFunc  key)
{
  g_assert (width == 1 || width == 2);

  memset (index, 0, sizeof *index);
  index->width = width;
  index->key = key;
}

void
_agui_id_index_clear (AguiIdIndex *index)
{
  g_clear_pointer (&index->slots, g_free);
  index->hashes = NULL;
  index->mask = 0;
  index->n_items = 0;
}

/* Each slot's hash is kept beside it, never 0 (an empty slot's): a
 * probe reads the item's key (a step into the item, a cache miss in a
 * long run) only when the hashes match, and a resize never does. */
static inline guint32
slot_hash (guint hash)
{
  return hash != 0 ? hash : 1;
}

/* Linear probing from the id's hash: the slot holding @id, or NULL at
 * the first empty one. There are never no empty slots (see grow()). */
static inline gpointer *
find (AguiIdIndex *index,
      const char  *id,
      guint        hash)
{
  guint32 tag = slot_hash (hash);

  for (guint i = hash & index->mask;; i = (i + 1) & index->mask)
    {
      if (index->hashes[i] == 0)
        return NULL;

      if (index->hashes[i] == tag)
        {
          gpointer *slot = index->slots + (gsize) i * index->width;

          if (strcmp (item_key (index, slot[0]), id) == 0)
            return slot;
        }
    }
}

gpointer *
_agui_id_index_lookup (AguiIdIndex *index,
                       const char  *id)
{
  if (index->n_items == 0)
    return NULL;

  return find (index, id, hash_id (id));
}

/* The first empty slot from @hash's, claimed, for a key no entry has */
static inline gpointer *
place (AguiIdIndex *index,
       guint        hash)
{
  guint i = hash & index->mask;

  while (index->hashes[i] != 0)
    i = (i + 1) & index->mask;

  index->hashes[i] = slot_hash (hash);

  return index->slots + (gsize) i * index->width;
}

/* Doubles the slots (or makes the first), placing each entry again */
static void
grow (AguiIdIndex *index)
{
  guint old_capacity = index->slots != NULL ? index->mask + 1 : 0;
  guint capacity = old_capacity > 0 ? old_capacity * 2 : MIN_CAPACITY;
  gpointer *old_slots = index->slots;
  guint32 *old_hashes = index->hashes;

  /* One block: the slots, then their hashes */
  index->slots = g_malloc0 ((gsize) capacity * (index->width * sizeof (gpointer) + sizeof (guint32)));
  index->hashes = (guint32 *) (index->slots + (gsize) capacity * index->width);
  index->mask = capacity - 1;

  for (guint i = 0; i < old_capacity; i++)
    {
      gpointer *slot;

      if (old_hashes[i] == 0)
        continue;

      slot = place (index, old_hashes[i]);
      memcpy (slot, old_slots + (gsize) i * index->width, index->width * sizeof (gpointer));
    }

  g_free (old_slots);
}

gpointer *
_agui_id_index_insert (AguiIdIndex *index,
                       const char  *id)
{
  guint hash = hash_id (id);
  gpointer *slot;

  if (index->slots != NULL && (slot = find (index, id, hash)) != NULL)
    return slot;

  /* Kept at most seven eighths full: probes compare hashes side by
   * side, mostly in one cache line, so a full table costs little time,
   * and a doubling of a long run's table much memory (GHashTable goes
   * to fifteen sixteenths) */
  if (index->slots == NULL || (gsize) (index->n_items + 1) * 8 > (gsize) (index->mask + 1) * 7)
    grow (index);

  slot = place (index, hash);
  index->n_items++;

  return slot;
}

gpointer *
_agui_id_index_next (AguiIdIndex *index,
                     guint       *position)
{
  guint capacity = index->slots != NULL ? index->mask + 1 : 0;

  while (*position < capacity)
    {
      gpointer *slot = index->slots + (gsize) (*position)++ * index->width;

      if (slot[0] != NULL)
        return slot;
    }

  return NULL;
}
