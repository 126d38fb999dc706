/* agui-event-reader-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* A top-level member of a flat event: one whose members are all strings,
 * numbers or booleans, which is what nearly every event of a stream is.
 * Such an event keeps its members in one block, strings included, and
 * builds a JsonObject only when an API user asks for it. */
typedef enum
{
  AGUI_FLAT_STRING,
  AGUI_FLAT_INTEGER,
  AGUI_FLAT_DOUBLE,
  AGUI_FLAT_BOOLEAN,
  /* the reader's only: an object, an array or null, kept in the tree
   * until _agui_event_reader_steal_tree () */
  AGUI_FLAT_TREE,
} AguiFlatKind;

typedef struct
{
  gsize         name;      /* offset of the name in the arena */
  gsize         string;    /* AGUI_FLAT_STRING: offset of the value */
  gsize         length;    /* its length in bytes (it may hold U+0000) */
  gint64        integer;
  double        number;
  AguiFlatKind  kind;
  gboolean      boolean;
} AguiFlatMember;

/* Reads the JSON of one SSE frame in a single pass of a streaming parser
 * (yajl): top-level scalars become AguiFlatMembers whose strings live in
 * one arena, and only nested values (objects, arrays) and nulls go into
 * the compact tree. One reader serves a whole stream; nothing is allocated per
 * frame beyond the nodes and the yajl handle. */
typedef struct _AguiEventReader AguiEventReader;

typedef enum
{
  AGUI_READ_OK,
  /* not one JSON value: @error says where and why */
  AGUI_READ_MALFORMED,
  /* a limit is broken (nesting depth, a number out of range) or a string
   * holds U+0000, which no C string can keep: @error says which, and
   * where */
  AGUI_READ_REFUSED,
  /* a frame that is one JSON value, but not an object */
  AGUI_READ_NOT_OBJECT,
} AguiReadResult;

/* Lone UTF-16 surrogate escapes are read as these three bytes, the form a
 * lax UTF-8 encoder would give the surrogate: ED A0..BF 80..BF. Valid
 * UTF-8 never holds them, and a frame is checked to be valid UTF-8 before
 * it is read, so a marker cannot be mistaken for a literal character. */
static inline gboolean
_agui_event_reader_is_marker (const char *p)
{
  return (guchar) p[0] == 0xED && (guchar) p[1] >= 0xA0 && (guchar) p[2] >= 0x80 && (guchar) p[2] <= 0xBF;
}

static inline guint
_agui_event_reader_marker_surrogate (const char *p)
{
  return 0xD000 | (((guint) (guchar) p[1] & 0x3F) << 6) | ((guint) (guchar) p[2] & 0x3F);
}

AguiEventReader *_agui_event_reader_new   (void);
void             _agui_event_reader_free  (AguiEventReader  *self);

AguiReadResult   _agui_event_reader_read  (AguiEventReader  *self,
                                           const char       *data,
                                           gsize             length,
                                           GError          **error);

/* Reads @data, valid UTF-8, as any one JSON value, with the same limits
 * and the same tree as for a nested value of a frame; @depth is how many
 * containers hold it (0 for a whole document), for the nesting limit.
 * %NULL, and @error (JSON_PARSER_ERROR) saying where and why, for text
 * that is not one JSON value, breaks a limit, or holds U+0000 or a lone
 * surrogate. */
JsonNode        *_agui_event_reader_read_value  (AguiEventReader   *self,
                                                 const char        *data,
                                                 gsize              length,
                                                 guint              depth,
                                                 GError           **error);

/* As _agui_event_reader_read_value (), into @value (null before) in the
 * state's own tree; FALSE, and @value untouched, where that gives NULL
 * (the caller only needs to know that). */
gboolean         _agui_event_reader_read_doc_value (AguiEventReader *self,
                                                    const char      *data,
                                                    gsize            length,
                                                    guint            depth,
                                                    AguiJsonValue   *value);
/* After AGUI_READ_OK: the members in the frame's order (a repeated name
 * keeps its first place and its last value). A member of kind
 * AGUI_FLAT_TREE holds an object, an array or null, which only
 * _agui_event_reader_steal_tree () hands out. */
guint            _agui_event_reader_get_members (AguiEventReader   *self,
                                                 AguiFlatMember   **members);
/* The arena the members' offsets point into; _agui_event_reader_add_string ()
 * may move it. */
const char      *_agui_event_reader_get_arena   (AguiEventReader   *self,
                                                 gsize             *length);
gsize            _agui_event_reader_add_string  (AguiEventReader   *self,
                                                 const char        *string);
gboolean         _agui_event_reader_has_markers (AguiEventReader   *self);
/* %TRUE when no member holds an object, an array or null. */
gboolean         _agui_event_reader_is_flat     (AguiEventReader   *self);
/* Builds the frame as one object of the compact tree in @tree (null
 * before), taking the nested values. */
void             _agui_event_reader_steal_tree  (AguiEventReader  *self,
                                                 AguiJsonValue    *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiEventReader, _agui_event_reader_free)

/* The calling thread's reader for JSON text that is not an event frame
 * (agui-json-parse.c), once @text is ready for it: a leading byte order
 * mark skipped, the limits of _agui_json_check () met and UTF-8 valid.
 * NULL, with @error saying why, for text refused before reading. @length
 * may be -1 for text ending in a NUL; both come back as read. */
AguiEventReader *_agui_json_prepare_text (const char **text,
                                          gssize      *length,
                                          GError     **error);

G_END_DECLS
