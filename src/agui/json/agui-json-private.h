/* agui-json-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The deepest nesting of arrays and objects Tandem accepts in any JSON it
 * parses or prints (frames, tool arguments, results, imports, stored rows).
 * Agent data is hostile: without a bound a recursive parser or printer
 * overflows the stack on a frame of a hundred thousand '['. */
#define AGUI_JSON_MAX_DEPTH 512

/* What _agui_json_check() refuses besides nesting deeper than
 * AGUI_JSON_MAX_DEPTH (always checked). */
typedef enum
{
  AGUI_JSON_CHECK_DEPTH = 0,
  /* integers outside int64 and numbers outside double: json-glib 1.6
   * wraps the first and turns the second into inf, which it then prints
   * as the invalid `inf.0` */
  AGUI_JSON_CHECK_NUMBERS = 1 << 0,
  /* \u0000 and raw NUL bytes: the string would end there, silently */
  AGUI_JSON_CHECK_NUL = 1 << 1,
  /* a \uD800-\uDFFF escape that is not half of a pair: json-glib 1.6
   * stores it as invalid UTF-8 */
  AGUI_JSON_CHECK_SURROGATES = 1 << 2,
  AGUI_JSON_CHECK_ALL = AGUI_JSON_CHECK_NUMBERS | AGUI_JSON_CHECK_NUL | AGUI_JSON_CHECK_SURROGATES,
} AguiJsonCheck;

/* A cheap scan of @text (not a full syntax check) for what no tree can
 * keep as sent; the error, in JSON_PARSER_ERROR, says what and where. */
gboolean  _agui_json_check          (const char    *text,
                                     gssize         length,
                                     AguiJsonCheck  checks,
                                     GError       **error);
/* The event reader behind _agui_json_check (text, length,
 * AGUI_JSON_CHECK_ALL): the only way Tandem parses JSON that is not its
 * own constant. Strict RFC 8259 (a leading byte order mark aside); an
 * empty document is an error too. The error says where and why, as
 * _agui_json_check_syntax () does. */
JsonNode *_agui_json_parse          (const char    *text,
                                     gssize         length,
                                     GError       **error);
/* Why @text, refused by a reader, is not one JSON value: FALSE, and
 * @error (JSON_PARSER_ERROR_INVALID_DATA) such as "line 1, column 17:
 * expected ',' or '}' after an object member". TRUE if it finds nothing
 * wrong with the syntax, which leaves a limit or a value to blame. Not
 * fast: for text already refused. */
gboolean  _agui_json_check_syntax   (const char    *text,
                                     gsize          length,
                                     GError       **error);
/* Sets @error to "line L, column C: " and the reason, for the place
 * @offset bytes into @text; every JSON error of a text is worded so. */
void      _agui_json_set_error_at   (GError       **error,
                                     const char    *text,
                                     gsize          offset,
                                     const char    *format,
                                     ...) G_GNUC_PRINTF (4, 5);
/* What _agui_json_parse () refuses in text, looked for in a tree built
 * some other way: a string or member name that is not UTF-8 (a lone
 * surrogate is what json-glib 1.6 stores for \uD83D), and nesting
 * deeper than AGUI_JSON_MAX_DEPTH. The error, in
 * JSON_PARSER_ERROR, names the JSON Pointer of the first. */
gboolean  _agui_json_check_tree     (JsonNode      *node,
                                     GError       **error);
/* Always valid JSON and valid UTF-8: every control character escaped,
 * invalid UTF-8 replaced by U+FFFD. Refuses (NULL and @error) a tree
 * nested deeper than AGUI_JSON_MAX_DEPTH and a number that is not
 * finite, rather than write something no parser reads back. Otherwise
 * the output is json-glib's, byte for byte, where json-glib's is valid. */
char     *_agui_json_to_string      (JsonNode      *node,
                                     gboolean       pretty,
                                     GError       **error);
/* The same, compact, appended to @out as if @node were @level levels
 * deep in a larger tree (an element of an array written piece by piece
 * is at level 1), so the whole still reads back. On error @out may hold
 * part of @node. */
gboolean  _agui_json_append         (GString       *out,
                                     JsonNode      *node,
                                     guint          level,
                                     GError       **error);
/* The same, pretty as _agui_json_to_string (@node, TRUE) prints it, its
 * lines indented for @level: a member of a larger document printed piece
 * by piece reads as if the whole had been printed at once. */
gboolean  _agui_json_append_pretty  (GString       *out,
                                     JsonNode      *node,
                                     guint          level,
                                     GError       **error);

/* The pieces of that printer: a string quoted and escaped, a double as
 * json-glib writes it (an error for one that is not finite). */
void      _agui_json_append_string  (GString       *out,
                                     const char    *string);
gboolean  _agui_json_append_double  (GString       *out,
                                     double         value,
                                     GError       **error);

/* json_node_copy() in json-glib 1.6 shares objects and arrays with its
 * source; this copies the whole tree, unsealed. */
JsonNode *_agui_json_node_copy_deep (JsonNode   *node);
void      _agui_json_object_merge   (JsonObject *target,
                                     JsonObject *source);
/* Unlike json_node_init_object/array(), these take the caller's
 * reference instead of adding one. */
JsonNode *_agui_json_node_new_object (JsonObject *object);
JsonNode *_agui_json_node_new_array  (JsonArray  *array);

/* The member @name of @object when it is of that kind; %NULL when it is
 * absent, of another kind, or @object is %NULL. Agent data is mistyped
 * at will, and json-glib's own getters are critical on it. */
static inline const char *
_agui_json_object_get_string (JsonObject *object,
                              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static inline JsonObject *
_agui_json_object_get_object (JsonObject *object,
                              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static inline JsonArray *
_agui_json_object_get_array (JsonObject *object,
                             const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

G_END_DECLS
