/* test-id-index.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui-id-index-private.h"
#include "agui-pool-private.h"
#include "agui-util-private.h"

/* AguiIdIndex against a GHashTable of the same entries: whatever is
 * added, found or removed, in whatever order, the two agree. */

typedef struct
{
  char *id;
  int   value;
} Item;

static const char *
item_key (gconstpointer item)
{
  return ((const Item *) item)->id;
}

static void
assert_agrees (AguiIdIndex *index,
               GHashTable  *reference,
               GPtrArray   *items)
{
  g_assert_cmpuint (_agui_id_index_size (index), ==, g_hash_table_size (reference));

  for (guint i = 0; i < items->len; i++)
    {
      Item *item = g_ptr_array_index (items, i);
      gpointer *slot = _agui_id_index_lookup (index, item->id);

      if (g_hash_table_contains (reference, item->id))
        {
          g_assert_nonnull (slot);
          g_assert_true (slot[0] == item);
          g_assert_cmpint (GPOINTER_TO_INT (slot[1]), ==, item->value);
        }
      else
        {
          g_assert_null (slot);
        }
    }
}

static void
test_add_find_remove (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  g_autoptr(GHashTable) reference = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GRand) rand = g_rand_new_with_seed (28);
  AguiIdIndex index;
  gpointer *slot;
  guint position = 0;
  guint walked = 0;

  _agui_id_index_init (&index, 2, item_key);
  g_assert_null (_agui_id_index_lookup (&index, "none"));

  /* ids that count up, as a long run's do, and an empty one */
  for (int i = 0; i < 5000; i++)
    {
      Item *item = g_new0 (Item, 1);

      item->id = i == 0 ? g_strdup ("") : g_strdup_printf ("%s%d", i % 2 ? "tc" : "t", i);
      item->value = i;
      g_ptr_array_add (items, item);
    }

  for (guint i = 0; i < items->len; i++)
    {
      Item *item = g_ptr_array_index (items, i);

      slot = _agui_id_index_insert (&index, item->id);
      g_assert_null (slot[0]);
      slot[0] = item;
      slot[1] = GINT_TO_POINTER (item->value);
      g_hash_table_add (reference, item->id);

      /* a second insert finds the first */
      g_assert_true (_agui_id_index_insert (&index, item->id) == slot);
    }
  assert_agrees (&index, reference, items);

  while ((slot = _agui_id_index_next (&index, &position)))
    walked++;
  g_assert_cmpuint (walked, ==, items->len);

  /* Removed at random, then some back: every entry still found where
   * the shifts left it, none that went */
  for (int round = 0; round < 4; round++)
    {
      for (guint i = 0; i < items->len; i++)
        {
          Item *item = g_ptr_array_index (items, g_rand_int_range (rand, 0, items->len));
          gboolean present = g_hash_table_remove (reference, item->id);

          g_assert_cmpint (_agui_id_index_remove (&index, item->id), ==, present);
        }
      assert_agrees (&index, reference, items);

      for (guint i = 0; i < items->len / 3; i++)
        {
          Item *item = g_ptr_array_index (items, g_rand_int_range (rand, 0, items->len));

          slot = _agui_id_index_insert (&index, item->id);
          if (slot[0] == NULL)
            {
              slot[0] = item;
              slot[1] = GINT_TO_POINTER (item->value);
              g_hash_table_add (reference, item->id);
            }
        }
      assert_agrees (&index, reference, items);
    }

  /* emptied, it lets go of its slots */
  for (guint i = 0; i < items->len; i++)
    _agui_id_index_remove (&index, ((Item *) g_ptr_array_index (items, i))->id);
  g_assert_cmpuint (_agui_id_index_size (&index), ==, 0);
  g_assert_null (index.slots);

  _agui_id_index_clear (&index);
  for (guint i = 0; i < items->len; i++)
    {
      Item *item = g_ptr_array_index (items, i);

      g_free (item->id);
      g_free (item);
    }
}

static void
test_ids_are_shared (void)
{
  g_autofree char *text = g_strdup ("tc100000");
  char *first = _agui_id_new (text);
  char *second = _agui_id_new ("tc100000");
  char *other = _agui_id_new ("tc100001");

  g_assert_cmpstr (first, ==, "tc100000");
  g_assert_true (first == second);
  g_assert_true (first != text);
  g_assert_cmpstr (other, ==, "tc100001");
  g_assert_null (_agui_id_new (NULL));

  /* One release leaves the other holder's copy as it was... */
  _agui_id_release (second);
  g_assert_cmpstr (first, ==, "tc100000");
  g_assert_true (_agui_id_new ("tc100000") == first);
  _agui_id_release (first);
  _agui_id_release (first);

  /* ...and the last one makes the id anew */
  first = _agui_id_new ("tc100000");
  g_assert_cmpstr (first, ==, "tc100000");
  _agui_id_release (first);
  _agui_id_release (other);
  _agui_id_release (NULL);
}

/* A long run's table, past half a million slots, grows by a quarter:
 * at 820,000 entries it is between 64% and 80% full (growing by half,
 * it would be 54%), and finds every entry. */
static void
test_large (void)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  AguiIdIndex index;

  _agui_id_index_init (&index, 1, NULL);
  for (guint i = 0; i < 820000; i++)
    {
      char *id = g_strdup_printf ("%s%u", i % 2 ? "tc" : "t", i);
      gpointer *slot = _agui_id_index_insert (&index, id);

      g_assert_null (slot[0]);
      slot[0] = id;
      g_ptr_array_add (ids, id);
    }

  g_assert_cmpuint (_agui_id_index_size (&index), ==, 820000);
  g_assert_cmpuint ((guint64) index.capacity * 64, <=, (guint64) index.n_items * 100);
  g_assert_cmpuint ((guint64) index.capacity * 80, >=, (guint64) index.n_items * 100);
  for (guint i = 0; i < ids->len; i++)
    {
      gpointer *slot = _agui_id_index_lookup (&index, g_ptr_array_index (ids, i));

      g_assert_nonnull (slot);
      g_assert_true (slot[0] == g_ptr_array_index (ids, i));
    }
  g_assert_null (_agui_id_index_lookup (&index, "tc820000"));

  _agui_id_index_clear (&index);
}

/* An id is shared by the holders that ask for it close together, not
 * interned: once another id took its place, it is asked for anew as a
 * copy of its own, equal in text, and each copy lives as long as its own
 * holders. The other id is found by its place (the same one of the
 * 4096 that agui-id.c keeps by g_str_hash ()). */
static void
test_ids_asked_for_apart (void)
{
  char *first = _agui_id_new ("tc100000");
  char *again;
  char *other = NULL;
  char *copy;

  for (guint i = 0; other == NULL; i++)
    {
      g_autofree char *text = g_strdup_printf ("other%u", i);

      if (g_str_hash (text) % 4096 == g_str_hash ("tc100000") % 4096)
        other = _agui_id_new (text);
    }

  copy = _agui_id_new ("tc100000");
  g_assert_true (copy != first);
  g_assert_cmpstr (copy, ==, first);

  /* the copy is the one shared now; the first lives on with its holder */
  again = _agui_id_new ("tc100000");
  g_assert_true (again == copy);
  _agui_id_release (first);
  g_assert_cmpstr (copy, ==, "tc100000");
  g_assert_true (_agui_id_new ("tc100000") == copy);

  _agui_id_release (copy);
  _agui_id_release (copy);
  _agui_id_release (again);
  _agui_id_release (other);
}

/* The pool hands out distinct blocks of the size asked for, 8-byte
 * aligned (the reducer keeps flags in an id's low bits), zeroed when
 * asked, and the block freed last of a size first again; bigger blocks
 * are malloc's. Under G_SLICE=always-malloc (valgrind's runs), and with
 * AddressSanitizer, every block is malloc's, which promises no order. */
static void
test_pool (void)
{
#if defined(__SANITIZE_ADDRESS__)
  gboolean pooled = FALSE;
#else
  gboolean pooled = g_strrstr (g_getenv ("G_SLICE") ? g_getenv ("G_SLICE") : "", "always-malloc") == NULL;
#endif
  guint8 *blocks[AGUI_POOL_MAX_SIZE + 2];
  guint8 *again;

  g_assert_null (_agui_pool_alloc (0));
  for (gsize size = 1; size <= AGUI_POOL_MAX_SIZE + 1; size++)
    {
      blocks[size] = _agui_pool_alloc0 (size);
      g_assert_nonnull (blocks[size]);
      g_assert_cmpuint (GPOINTER_TO_SIZE (blocks[size]) % 8, ==, 0);
      for (gsize i = 0; i < size; i++)
        g_assert_cmpuint (blocks[size][i], ==, 0);
      memset (blocks[size], (int) size, size);
    }
  /* none overlaps another */
  for (gsize size = 1; size <= AGUI_POOL_MAX_SIZE + 1; size++)
    for (gsize i = 0; i < size; i++)
      g_assert_cmpuint (blocks[size][i], ==, (guint8) size);

  _agui_pool_free (40, blocks[40]);
  again = _agui_pool_alloc (37);
  if (pooled)
    g_assert_true (again == blocks[40]);
  blocks[40] = again;

  for (gsize size = 1; size <= AGUI_POOL_MAX_SIZE + 1; size++)
    _agui_pool_free (size, blocks[size]);
  _agui_pool_free (8, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/id-index/add-find-remove", test_add_find_remove);
  g_test_add_func ("/id-index/large", test_large);
  g_test_add_func ("/id-index/ids-are-shared", test_ids_are_shared);
  g_test_add_func ("/id-index/ids-asked-for-apart", test_ids_asked_for_apart);
  g_test_add_func ("/id-index/pool", test_pool);

  return g_test_run ();
}
