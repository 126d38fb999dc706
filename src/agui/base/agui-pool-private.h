/* agui-pool-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Small blocks a long run keeps by the million (records, ids), in
 * sizes of 8 bytes, carved from blocks of 64 KiB and kept on a free
 * list per size once freed (not handed back to malloc).
 *
 * GLib's slice allocator (2.74) puts blocks of up to 256 bytes in
 * "pages" of 256 to 1024 bytes, each with a 48-byte header and rounded
 * to 16 bytes: an id of 16 bytes took 21, a record of 48 took 57. A
 * million tool calls kept 25 MB in those headers.
 *
 * With G_SLICE=always-malloc in the environment (what the tests run
 * under valgrind set), and in a build with AddressSanitizer, every
 * block is malloc's own, so that those tools see each. Thread-safe. */
#define AGUI_POOL_MAX_SIZE 256

gpointer _agui_pool_alloc  (gsize    size);
gpointer _agui_pool_alloc0 (gsize    size);
/* @size: what the block was asked for with */
void     _agui_pool_free   (gsize    size,
                            gpointer block);

G_END_DECLS
