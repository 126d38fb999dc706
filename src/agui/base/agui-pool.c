/* agui-pool.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-pool-private.h"

#define GRANULE 8
#define N_CLASSES (AGUI_POOL_MAX_SIZE / GRANULE)
/* 64 KiB with malloc's header: GLib's slices come in pages that malloc
 * aligns to their size (256 bytes to 1 KiB), and a block that shifted
 * the end of the heap by the header left a gap of up to 1 KiB before
 * the next of those pages (2.4 MB at a million tool calls). */
#define BLOCK_SIZE (64 * 1024 - 2 * sizeof (gsize))

/* One size: the blocks freed (each holding the next), and what is left
 * of the latest 64 KiB block */
typedef struct
{
  gpointer  freed;
  guint8   *next;
  guint8   *end;
} SizeClass;

G_LOCK_DEFINE_STATIC (pool);
static SizeClass classes[N_CLASSES];

/* Whether blocks are malloc's own (see the header) */
static gboolean
use_malloc (void)
{
  static gsize decided = 0;
  static gboolean plain = FALSE;

  if (g_once_init_enter (&decided))
    {
#if defined(__SANITIZE_ADDRESS__)
      plain = TRUE;
#else
      const char *slice = g_getenv ("G_SLICE");

      plain = slice != NULL && strstr (slice, "always-malloc") != NULL;
#endif
      g_once_init_leave (&decided, 1);
    }

  return plain;
}

static inline SizeClass *
class_of (gsize size)
{
  return &classes[(size + GRANULE - 1) / GRANULE - 1];
}

gpointer
_agui_pool_alloc (gsize size)
{
  SizeClass *class;
  gpointer block;

  if (size == 0)
    return NULL;
  if (size > AGUI_POOL_MAX_SIZE || use_malloc ())
    return g_malloc (size);

  class = class_of (size);
  size = (size + GRANULE - 1) / GRANULE * GRANULE;

  G_LOCK (pool);
  if (class->freed != NULL)
    {
      block = class->freed;
      class->freed = *(gpointer *) block;
    }
  else
    {
      if (class->next == NULL || (gsize) (class->end - class->next) < size)
        {
          class->next = g_malloc (BLOCK_SIZE);
          class->end = class->next + BLOCK_SIZE;
        }
      block = class->next;
      class->next += size;
    }
  G_UNLOCK (pool);

  return block;
}

gpointer
_agui_pool_alloc0 (gsize size)
{
  gpointer block = _agui_pool_alloc (size);

  if (block != NULL)
    memset (block, 0, size);

  return block;
}

void
_agui_pool_free (gsize    size,
                 gpointer block)
{
  SizeClass *class;

  if (block == NULL)
    return;
  if (size > AGUI_POOL_MAX_SIZE || use_malloc ())
    {
      g_free (block);
      return;
    }

  class = class_of (size);

  G_LOCK (pool);
  *(gpointer *) block = class->freed;
  class->freed = block;
  G_UNLOCK (pool);
}
