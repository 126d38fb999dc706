/* agui-id-index.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-id-index-private.h"

#define MIN_CAPACITY 8

/* A slot's tag: a byte of the hash never 0 (an empty slot's), from its
 * low bits, which start () hardly uses, so that the neighbours of a
 * cluster do not share it */
static inline guint8
tag_of (guint hash)
{
  return (guint8) (1 + hash % 255);
}

/* Where @hash's probe starts: its place in [0, capacity), by the high
 * bits of a multiply, so that the capacity need not be a power of two */
static inline guint
start (AguiIdIndex *index,
       guint        hash)
{
  return (guint) (((guint64) hash * index->capacity) >> 32);
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
  index->tags = NULL;
  index->capacity = 0;
  index->n_items = 0;
}

/* Linear probing from the id's hash: the slot holding @id, or NULL at
 * the first empty one. There are never no empty slots (see grow()). */
static inline gpointer *
find (AguiIdIndex *index,
      const char  *id,
      guint        hash)
{
  guint8 tag = tag_of (hash);

  /* Each slot's tag is kept beside it: a probe reads the item's key (a
   * step into the item, a cache miss in a long run) only when the tags
   * match, and a resize never does. */
  for (guint i = start (index, hash);; i = i + 1 < index->capacity ? i + 1 : 0)
    {
      if (index->tags[i] == 0)
        return NULL;

      if (index->tags[i] == tag)
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

  return find (index, id, _agui_id_index_hash (id));
}

gpointer *
_agui_id_index_lookup_hashed (AguiIdIndex *index,
                              const char  *id,
                              guint        hash)
{
  if (index->n_items == 0)
    return NULL;

  return find (index, id, hash);
}

/* The first empty slot from @hash's, claimed, for a key no entry has */
static inline gpointer *
place (AguiIdIndex *index,
       guint        hash)
{
  guint i = start (index, hash);

  while (index->tags[i] != 0)
    i = i + 1 < index->capacity ? i + 1 : 0;

  index->tags[i] = tag_of (hash);

  return index->slots + (gsize) i * index->width;
}

/* Makes half as many slots again (or the first): doubling left a long
 * run's tables between 40% and 80% full, growing by half keeps them
 * between 53% and 80%. A table of half a million slots and more grows by a
 * quarter, between 64% and 80% full: the tables of a long run of tool
 * calls are a fifth of what it holds, and one more resize of a table
 * that size costs a few milliseconds. */
#define LARGE_CAPACITY (1u << 19)

static void resize (AguiIdIndex *index,
                    guint        capacity);

static void
grow (AguiIdIndex *index)
{
  guint capacity = index->capacity;

  if (capacity == 0)
    capacity = MIN_CAPACITY;
  else if (capacity < LARGE_CAPACITY)
    capacity += capacity / 2;
  else
    capacity += capacity / 4;

  resize (index, capacity);
}

gpointer *
_agui_id_index_insert (AguiIdIndex *index,
                       const char  *id)
{
  guint hash = _agui_id_index_hash (id);
  gpointer *slot;

  if (index->slots != NULL && (slot = find (index, id, hash)) != NULL)
    return slot;

  /* Kept at most four fifths full: probes compare tags side by side,
   * mostly in one cache line, so a fuller table costs little time, and
   * a long run's tables are most of what it holds besides its records.
   * At seven eighths, a stream of short messages whose every delta
   * looks its message up spent 1% more time probing than GHashTable. */
  if (index->slots == NULL || (gsize) (index->n_items + 1) * 5 > (gsize) index->capacity * 4)
    grow (index);

  slot = place (index, hash);
  index->n_items++;

  return slot;
}

gpointer *
_agui_id_index_next (AguiIdIndex *index,
                     guint       *position)
{
  while (*position < index->capacity)
    {
      gpointer *slot = index->slots + (gsize) (*position)++ * index->width;

      if (slot[0] != NULL)
        return slot;
    }

  return NULL;
}

/* Backward-shift deletion: each entry after the hole that may move into
 * it does, so that no probe ever meets an empty slot before its entry */
static void
remove_at (AguiIdIndex *index,
           guint        hole)
{
  guint j = hole;

  for (;;)
    {
      guint home;

      j = j + 1 < index->capacity ? j + 1 : 0;
      if (index->tags[j] == 0)
        break;

      /* an entry whose probe starts after the hole, up to it, stays */
      home = start (index, _agui_id_index_hash (item_key (index, index->slots[(gsize) j * index->width])));
      if (hole <= j ? (hole < home && home <= j) : (hole < home || home <= j))
        continue;

      index->tags[hole] = index->tags[j];
      memcpy (index->slots + (gsize) hole * index->width,
              index->slots + (gsize) j * index->width,
              index->width * sizeof (gpointer));
      hole = j;
    }

  index->tags[hole] = 0;
  memset (index->slots + (gsize) hole * index->width, 0, index->width * sizeof (gpointer));
  index->n_items--;
}

#define RESIZE_AHEAD 16

static inline void
prefetch (gconstpointer address)
{
#if defined(__GNUC__)
  __builtin_prefetch (address);
#endif
}

/* Makes the slots fit @capacity, placing each entry again */
static void
resize (AguiIdIndex *index,
        guint        capacity)
{
  guint old_capacity = index->capacity;
  gpointer *old_slots = index->slots;
  guint8 *old_tags = index->tags;

  /* One block: the slots, then their tags. Each entry's hash is made
   * again from its key: a look into each item, once a resize, where
   * keeping the hashes took four bytes a slot for good. */
  index->slots = g_malloc0 ((gsize) capacity * (index->width * sizeof (gpointer) + sizeof (guint8)));
  index->tags = (guint8 *) (index->slots + (gsize) capacity * index->width);
  index->capacity = capacity;

  for (guint i = 0; i < old_capacity; i++)
    {
      gpointer *slot;

      /* The items are all over a long run's memory: each is asked
       * for ahead of its turn, and its key once the item is in, so
       * that the misses overlap rather than follow one another */
      if (i + 2 * RESIZE_AHEAD < old_capacity && old_tags[i + 2 * RESIZE_AHEAD] != 0)
        prefetch (old_slots[(gsize) (i + 2 * RESIZE_AHEAD) * index->width]);
      if (i + RESIZE_AHEAD < old_capacity && old_tags[i + RESIZE_AHEAD] != 0)
        prefetch (item_key (index, old_slots[(gsize) (i + RESIZE_AHEAD) * index->width]));

      if (old_tags[i] == 0)
        continue;

      slot = place (index, _agui_id_index_hash (item_key (index, old_slots[(gsize) i * index->width])));
      memcpy (slot, old_slots + (gsize) i * index->width, index->width * sizeof (gpointer));
    }

  g_free (old_slots);
}

gboolean
_agui_id_index_remove (AguiIdIndex *index,
                       const char  *id)
{
  gpointer *slot = _agui_id_index_lookup (index, id);

  if (slot == NULL)
    return FALSE;

  remove_at (index, (guint) ((slot - index->slots) / index->width));

  /* A long run's table goes when its ids do */
  if (index->n_items == 0)
    _agui_id_index_clear (index);
  else if (index->capacity > MIN_CAPACITY && index->n_items < index->capacity / 4)
    resize (index, MAX (index->capacity / 2, MIN_CAPACITY));

  return TRUE;
}
