/* agui-id-index-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An index of items by an id each item already holds (a record's id, a
 * call's id, a shared id itself), for the tables a long run
 * grows by one entry per message or call. A GHashTable spends a key, a
 * value and a hash per slot (20 bytes), and a separate block per entry
 * where the value is a pair; this keeps only the item (and, with a
 * width of 2, one companion pointer) in an open-addressed array, and
 * asks the item for its key.
 *
 * A slot is @width pointers; an empty slot's first pointer is NULL.
 * Each slot's tag (a byte of its hash), beside them, spares a probe a
 * look into the items but for one in 255 of those it passes; a whole
 * hash there was a third of a width-1 slot, and a long run of tool
 * calls keeps seven entries a call in these tables. */
typedef const char *(*AguiIdIndexKeyFunc) (gconstpointer item);

typedef struct
{
  gpointer           *slots;
  guint8             *tags;     /* each slot's tag; 0: empty */
  guint               capacity; /* 0 with no slots yet */
  guint               n_items;
  guint               width;
  AguiIdIndexKeyFunc  key;      /* NULL: the item is the key */
} AguiIdIndex;

void      _agui_id_index_init   (AguiIdIndex        *index,
                                 guint               width,
                                 AguiIdIndexKeyFunc  key);
/* Forgets every entry and frees the slots; the caller lets go of what
 * the entries held first (see _agui_id_index_next()). */
void      _agui_id_index_clear  (AguiIdIndex        *index);
/* The slot of @id, or NULL */
gpointer *_agui_id_index_lookup (AguiIdIndex        *index,
                                 const char         *id);
/* @id's hash, for a caller that looks an id up in more than one table.
 *
 * g_str_hash() of ids that count up ("tc1", "tc2", …) lands in runs of
 * neighbouring values, which linear probing turns into long clusters:
 * mixed first (murmur3's finaliser), a probe stays a slot or two. */
static inline guint
_agui_id_index_hash (const char *id)
{
  guint h = g_str_hash (id);

  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;

  return h;
}

/* _agui_id_index_lookup () with @id's _agui_id_index_hash () */
gpointer *_agui_id_index_lookup_hashed (AguiIdIndex *index,
                                        const char  *id,
                                        guint        hash);
/* The slot of @id: its entry's when there is one, else an empty one,
 * which the caller fills (first pointer non-NULL, with an item whose key
 * is @id) before it touches the index again. */
gpointer *_agui_id_index_insert (AguiIdIndex        *index,
                                 const char         *id);
/* Takes @id's entry out (the caller lets go of what it held); FALSE
 * when there is none. The tables of a run are cleared whole; this is
 * for one whose entries go one by one. */
gboolean  _agui_id_index_remove (AguiIdIndex        *index,
                                 const char         *id);
/* Walks the full slots: start with *@position = 0; NULL at the end. */
gpointer *_agui_id_index_next   (AguiIdIndex        *index,
                                 guint              *position);

static inline guint
_agui_id_index_size (AguiIdIndex *index)
{
  return index->n_items;
}

G_END_DECLS
