/* tandem-markdown-model.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Deeper block quotes and lists are flattened into the deepest one kept */
#define TANDEM_MARKDOWN_MAX_NESTING 16
/* Deeper inline spans (emphasis, links, code) add no markup */
#define TANDEM_MARKDOWN_MAX_SPANS   32

#define TANDEM_MARKDOWN_UNKNOWN_START G_MAXSIZE

/* md4c 0.4.8 reads some lists differently by where their lines fall
 * modulo this (see tandem_markdown_model_set_offset()) */
#define TANDEM_MARKDOWN_MD4C_ALIGNMENT 256

typedef enum
{
  TANDEM_MARKDOWN_PARAGRAPH,
  TANDEM_MARKDOWN_HEADING,
  TANDEM_MARKDOWN_CODE,
  TANDEM_MARKDOWN_RULE,
  TANDEM_MARKDOWN_QUOTE,
  TANDEM_MARKDOWN_LIST,
  TANDEM_MARKDOWN_ITEM,
  TANDEM_MARKDOWN_TABLE,
  TANDEM_MARKDOWN_ROW,
  TANDEM_MARKDOWN_CELL,
} TandemMarkdownKind;

typedef enum
{
  TANDEM_MARKDOWN_ORDERED  = 1 << 0,
  TANDEM_MARKDOWN_HEADER   = 1 << 1,
  TANDEM_MARKDOWN_IMPLICIT = 1 << 2,
} TandemMarkdownFlags;

typedef struct _TandemMarkdownNode TandemMarkdownNode;
struct _TandemMarkdownNode
{
  TandemMarkdownKind   kind;
  TandemMarkdownFlags  flags;
  guint                level;     /* heading level, first number of an ordered list */
  float                xalign;    /* table cells */
  GString             *text;      /* Pango markup of an inline leaf, plain text of code */
  char                *info;      /* code language, list item marker */
  GPtrArray           *children;  /* of TandemMarkdownNode */
  gpointer             widget;    /* the view's: shows this node once built */
  gpointer             box;       /* the view's: holds the children's widgets */
};

typedef struct
{
  TandemMarkdownNode *node;
  gsize               start;  /* of its first line, or TANDEM_MARKDOWN_UNKNOWN_START */
} TandemMarkdownBlock;

typedef struct _TandemMarkdownModel TandemMarkdownModel;

TandemMarkdownModel *tandem_markdown_model_new        (void);
void                 tandem_markdown_model_free       (TandemMarkdownModel *self);
const char          *tandem_markdown_model_get_text   (TandemMarkdownModel *self);
GPtrArray           *tandem_markdown_model_get_blocks (TandemMarkdownModel *self);
GPtrArray           *tandem_markdown_model_set_text   (TandemMarkdownModel *self,
                                                       const char          *text,
                                                       guint               *first,
                                                       gboolean            *rebuilt);
void                 tandem_markdown_model_set_offset (TandemMarkdownModel *self,
                                                       gsize                offset);
char                *tandem_markdown_model_dump       (TandemMarkdownModel *self);

gboolean             tandem_markdown_node_same_shape  (const TandemMarkdownNode *old,
                                                       const TandemMarkdownNode *new);
gboolean             tandem_markdown_node_equal       (const TandemMarkdownNode *old,
                                                       const TandemMarkdownNode *new);
gboolean             tandem_markdown_uri_is_openable  (const char               *uri);
char                *tandem_markdown_plain_text       (const char               *markdown);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TandemMarkdownModel, tandem_markdown_model_free)

G_END_DECLS
