/* agui-patch-reader-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* agui-event-reader-private.h, which needs agui-event-private.h, which
 * needs this header */
typedef struct _AguiEventReader AguiEventReader;

/* A JSON Patch operation read straight from a frame, for the reducer to
 * apply without the patch ever being a json-glib tree. Strings are offsets
 * into a block of nul-terminated strings kept beside the operations. */
typedef enum
{
  AGUI_PATCH_ADD,
  AGUI_PATCH_REMOVE,
  AGUI_PATCH_REPLACE,
  AGUI_PATCH_MOVE,
  AGUI_PATCH_COPY,
  AGUI_PATCH_TEST,
} AguiPatchOpKind;

#define AGUI_PATCH_NO_STRING G_MAXSIZE

typedef struct
{
  AguiPatchOpKind  kind;
  gsize            path;
  gsize            from;      /* AGUI_PATCH_NO_STRING unless move or copy */
  /* add, replace and test: where the value's JSON text is in the patch's,
   * checked already; it is read only when applied, straight into the
   * state's tree */
  gsize            value;
  gsize            value_length;
} AguiPatchOp;

const char *_agui_patch_op_name (AguiPatchOpKind kind);

/* Reads the JSON array at @text (valid UTF-8 with no backslash) as patch
 * operations each of which the schema takes as it is: a known "op", the
 * members that op declares and no other, every pointer a JSON Pointer,
 * strings without escapes, no null "value". On success appends them to
 * @ops, their strings to @strings, and returns the length of the array's
 * text. Returns 0, having appended nothing that stays, for anything else:
 * the caller then reads the frame the general way, which has the words
 * for what is wrong. @reader checks the values plain scanning cannot. */
gsize _agui_patch_reader_scan (AguiEventReader *reader,
                               const char      *text,
                               gsize            length,
                               GArray          *ops,
                               GString         *strings);

/* Reads the value of @op into @value (null before), as the event reader
 * would read it; @patch is the text the operation was read from. FALSE
 * only if the reader now refuses what the scanner took. */
gboolean _agui_patch_op_read_value (const AguiPatchOp *op,
                                    const char        *patch,
                                    AguiJsonValue     *value);

G_END_DECLS
