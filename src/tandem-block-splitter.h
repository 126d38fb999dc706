/* tandem-block-splitter.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a streaming Markdown text may be cut into display blocks. */

/* A stretch of one paragraph is cut, at a word, once it is this long... */
#define TANDEM_BLOCK_SPLITTER_SENTENCE_BYTES 384
/* ...preferably after a sentence, at any word once it is this long. */
#define TANDEM_BLOCK_SPLITTER_WORD_BYTES     512

typedef struct _TandemBlockSplitter TandemBlockSplitter;

typedef struct
{
  gsize    offset;     /* where the new block starts */
  gboolean continued;  /* it goes on with a paragraph cut for its length */
} TandemBlockCut;

TandemBlockSplitter *tandem_block_splitter_new   (void);
void                 tandem_block_splitter_free  (TandemBlockSplitter *self);
void                 tandem_block_splitter_feed  (TandemBlockSplitter *self,
                                                  const char          *text,
                                                  gsize                length,
                                                  gboolean             complete,
                                                  GArray              *cuts);
gboolean             tandem_block_splitter_get_whole (TandemBlockSplitter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TandemBlockSplitter, tandem_block_splitter_free)

G_END_DECLS
