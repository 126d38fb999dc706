/* agui-allocator-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

G_BEGIN_DECLS

/* glibc keeps small freed blocks in "fast bins" and merges all of them
 * at once, in whichever call next frees or allocates a large block. A
 * long conversation's events are freed in slices between frames, yet
 * that one merge then held the main loop for 30 ms (perf: 71 of 73
 * samples in malloc_consolidate, under the free of the emptied array).
 * Without fast bins each free merges its own block, within the slice
 * that frees it; the per-thread caches still serve the common small
 * allocations. For a program's main(), before any thread starts: the
 * setting is the whole process's. */
static inline void
_agui_allocator_merge_as_freed (void)
{
#if defined(__GLIBC__) && defined(M_MXFAST)
  mallopt (M_MXFAST, 0);
#endif
}

G_END_DECLS
