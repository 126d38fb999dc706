/* agui-json-doc-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <json-glib/json-glib.h>

#include "agui-json-private.h"

G_BEGIN_DECLS

/* A mutable JSON tree made for patching: the shared state. A json-glib
 * object costs some 600 bytes and a dozen allocations; here a value is 16
 * bytes held inside its container, a short string or member name lives
 * inside the value or member, and an object finds its members through a
 * hash index only once it has more than a handful. Numbers are what the
 * event reader makes of them: a gint64 for an integer, a double for the
 * rest, printed as json-glib prints them. */
typedef enum
{
  AGUI_JSON_DOC_NULL,
  AGUI_JSON_DOC_BOOLEAN,
  AGUI_JSON_DOC_INT,
  AGUI_JSON_DOC_DOUBLE,
  AGUI_JSON_DOC_STRING,       /* on the heap */
  AGUI_JSON_DOC_SHORT_STRING, /* inside the value */
  AGUI_JSON_DOC_ARRAY,
  AGUI_JSON_DOC_OBJECT,
  /* a removed member's slot, until its object is compacted */
  AGUI_JSON_DOC_HOLE,
} AguiJsonDocKind;

typedef struct _AguiJsonDocArray  AguiJsonDocArray;
typedef struct _AguiJsonDocObject AguiJsonDocObject;

/* The bytes after kind hold a short string (up to 14 bytes and its NUL)
 * across head and the union. */
typedef struct
{
  guint8 kind;
  char   head[7];
  union {
    gboolean           boolean;
    gint64             integer;
    double             number;
    char              *string;
    AguiJsonDocArray  *array;
    AguiJsonDocObject *object;
  } u;
} AguiJsonValue;

#define AGUI_JSON_VALUE_INIT { .kind = AGUI_JSON_DOC_NULL }

void                _agui_json_value_clear        (AguiJsonValue        *value);
/* Moves @source into @target (cleared first), leaving @source null. */
void                _agui_json_value_move         (AguiJsonValue        *target,
                                                   AguiJsonValue        *source);
void                _agui_json_value_copy         (AguiJsonValue        *target,
                                                   const AguiJsonValue  *source);
void                _agui_json_value_set_boolean  (AguiJsonValue        *value,
                                                   gboolean              boolean);
void                _agui_json_value_set_int      (AguiJsonValue        *value,
                                                   gint64                integer);
void                _agui_json_value_set_double   (AguiJsonValue        *value,
                                                   double                number);
void                _agui_json_value_set_string   (AguiJsonValue        *value,
                                                   const char           *string,
                                                   gsize                 length);
AguiJsonDocArray   *_agui_json_value_set_array    (AguiJsonValue        *value,
                                                   guint                 reserve);
AguiJsonDocObject  *_agui_json_value_set_object   (AguiJsonValue        *value,
                                                   guint                 reserve);

static inline gboolean
_agui_json_value_is_string (const AguiJsonValue *value)
{
  return value->kind == AGUI_JSON_DOC_STRING || value->kind == AGUI_JSON_DOC_SHORT_STRING;
}

static inline const char *
_agui_json_value_get_string (const AguiJsonValue *value)
{
  return value->kind == AGUI_JSON_DOC_SHORT_STRING ? (const char *) value + 1 : value->u.string;
}

/* Bounds on what patches may make of a document (the shared state, an
 * activity's content), checked before every operation changes it, so that
 * no run of small deltas builds what no single frame could carry.
 *
 * Depth: a value at a path of d tokens of height h (a scalar 0, [] 1,
 * [[]] 2) nests d + h levels; at most what a snapshot frame can carry,
 * the frame's own object being one of the parser's levels. Every function
 * that recurses over a document therefore recurses at most this deep.
 *
 * Size: an estimate of the document's compact JSON in bytes, kept as a
 * running total by the patches (no reprinting): a string counts its bytes
 * and quotes, an integer its digits, any other number 8, null and
 * booleans their word, a container its brackets and a comma for each
 * element, a member its quoted name and colon too. A patch that would grow
 * a document past the cap fails; one that shrinks it never does. */
#define AGUI_JSON_DOC_MAX_DEPTH        (AGUI_JSON_MAX_DEPTH - 1)
#define AGUI_JSON_DOC_DEFAULT_MAX_SIZE (8 * 1024 * 1024)

typedef struct
{
  gsize size;      /* in: the document's (_agui_json_value_measure ()); out: after the patch */
  gsize max_size;  /* 0 for no cap */
} AguiJsonDocBounds;

/* What a member @name adds to its object's size besides its value. */
static inline gsize
_agui_json_member_overhead (const char *name)
{
  return strlen (name) + 4;
}

/* Adds @value's size to @size, descending at most @max_height levels:
 * FALSE when @value nests deeper (then @size is partial). Recurses at most
 * @max_height + 1 deep. */
gboolean            _agui_json_value_measure      (const AguiJsonValue  *value,
                                                   guint                 max_height,
                                                   gsize                *size);
/* The same for a json-glib tree. */
gboolean            _agui_json_node_measure       (JsonNode             *node,
                                                   guint                 max_height,
                                                   gsize                *size);

/* JSON Patch's `test` equality: 1 equals 1.0, members in any order. */
gboolean            _agui_json_value_equal        (const AguiJsonValue  *a,
                                                   const AguiJsonValue  *b);

/* Copies @node (any JsonNode, sealed or not) into @value. */
void                _agui_json_value_set_node     (AguiJsonValue        *value,
                                                   JsonNode             *node);
/* A new unsealed json-glib tree of @value: O(size of @value). */
JsonNode           *_agui_json_value_to_node      (const AguiJsonValue  *value);
/* What _agui_json_append () and _agui_json_to_string () write for the
 * json-glib tree of @value, byte for byte, and the same errors. */
gboolean            _agui_json_value_append       (GString              *out,
                                                   const AguiJsonValue  *value,
                                                   gboolean              pretty,
                                                   guint                 level,
                                                   GError              **error);
char               *_agui_json_value_to_string    (const AguiJsonValue  *value,
                                                   gboolean              pretty,
                                                   GError              **error);

guint               _agui_json_array_get_length   (AguiJsonDocArray     *array);
/* Borrowed, and only until @array next changes. */
AguiJsonValue      *_agui_json_array_get          (AguiJsonDocArray     *array,
                                                   guint                 index);
/* Takes @value (leaving it null). O(1) amortised at the end. */
void                _agui_json_array_insert       (AguiJsonDocArray     *array,
                                                   guint                 index,
                                                   AguiJsonValue        *value);
/* Takes @n_values values, in one move of the elements after @index. */
void                _agui_json_array_insert_many  (AguiJsonDocArray     *array,
                                                   guint                 index,
                                                   AguiJsonValue        *values,
                                                   guint                 n_values);
/* Moves the element out into @removed. */
void                _agui_json_array_remove       (AguiJsonDocArray     *array,
                                                   guint                 index,
                                                   AguiJsonValue        *removed);
void                _agui_json_array_remove_many  (AguiJsonDocArray     *array,
                                                   guint                 index,
                                                   guint                 count);

/* Members live in slots, in insertion order. A removed member leaves a
 * hole until _agui_json_object_compact (), so that a slot number stays
 * valid for an undo log while a patch applies. */
guint               _agui_json_object_get_size    (AguiJsonDocObject    *object);
guint               _agui_json_object_get_n_slots (AguiJsonDocObject    *object);
/* NULL for a hole. */
const char         *_agui_json_object_slot_name   (AguiJsonDocObject    *object,
                                                   guint                 slot);
/* Borrowed, and only until @object next gains a member. */
AguiJsonValue      *_agui_json_object_slot_value  (AguiJsonDocObject    *object,
                                                   guint                 slot);
/* The slot of the member @name, or -1. O(1) on average. */
int                 _agui_json_object_find        (AguiJsonDocObject    *object,
                                                   const char           *name);
/* Appends a member @name, which must not be there, taking @value; returns
 * its slot. */
guint               _agui_json_object_append      (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   AguiJsonValue        *value);
/* Sets @name as json-glib does: a member there keeps its place. */
void                _agui_json_object_set         (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   AguiJsonValue        *value);
/* Makes @slot a hole (which keeps the name), its value moved into
 * @removed. */
void                _agui_json_object_remove_slot (AguiJsonDocObject    *object,
                                                   guint                 slot,
                                                   AguiJsonValue        *removed);
/* Undoes _agui_json_object_remove_slot (): @slot must still be that hole. */
void                _agui_json_object_restore_slot (AguiJsonDocObject   *object,
                                                    guint                slot,
                                                    AguiJsonValue       *value);
/* Undoes the last _agui_json_object_append (). */
void                _agui_json_object_pop         (AguiJsonDocObject    *object,
                                                   AguiJsonValue        *removed);
/* Closes the holes when they are many enough for that to cost O(1) per
 * removal; renumbers the slots. */
void                _agui_json_object_compact     (AguiJsonDocObject    *object);

G_END_DECLS
