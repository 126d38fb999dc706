/* agui-json-doc-access-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* A value on the heap, for a value kept apart from any tree. */
AguiJsonValue      *_agui_json_doc_value_dup      (const AguiJsonValue  *value);
void                _agui_json_doc_value_free     (AguiJsonValue        *value);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AguiJsonValue, _agui_json_value_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiJsonValue, _agui_json_doc_value_free)

/* Reading JSON text into the compact tree, and the getters and setters
 * that code reading a request or building one needs, so that it never
 * makes a json-glib tree on the way. */

/* What _agui_json_parse () reads, with the same checks and errors, into
 * @value (null before); FALSE, and @value untouched, for what it
 * refuses. */
gboolean            _agui_json_doc_parse          (const char           *text,
                                                   gssize                length,
                                                   AguiJsonValue        *value,
                                                   GError              **error);

/* The member @name of @object when it is of that kind; %NULL when it is
 * absent, of another kind, or @object is %NULL or not an object. Agent
 * data is mistyped at will. Borrowed, as _agui_json_object_slot_value ()
 * is. */
AguiJsonValue      *_agui_json_doc_get_member     (const AguiJsonValue  *object,
                                                   const char           *name);
const char         *_agui_json_doc_get_string     (const AguiJsonValue  *object,
                                                   const char           *name);
AguiJsonValue      *_agui_json_doc_get_object     (const AguiJsonValue  *object,
                                                   const char           *name);
AguiJsonValue      *_agui_json_doc_get_array      (const AguiJsonValue  *object,
                                                   const char           *name);
/* TRUE and @integer for a member that is an integer (not 1.0). */
gboolean            _agui_json_doc_get_int        (const AguiJsonValue  *object,
                                                   const char           *name,
                                                   gint64               *integer);

/* The same getters on an object's members, for code that holds the
 * object itself: %NULL for a member absent or of another kind. */
static inline AguiJsonValue *
_agui_json_members_get (AguiJsonDocObject *object,
                        const char        *name)
{
  int slot = _agui_json_object_find (object, name);

  return slot >= 0 ? _agui_json_object_slot_value (object, slot) : NULL;
}

static inline const char *
_agui_json_members_get_string (AguiJsonDocObject *object,
                               const char        *name)
{
  AguiJsonValue *member = _agui_json_members_get (object, name);

  return member != NULL && _agui_json_value_is_string (member) ? _agui_json_value_get_string (member) : NULL;
}

static inline AguiJsonDocObject *
_agui_json_members_get_object (AguiJsonDocObject *object,
                               const char        *name)
{
  AguiJsonValue *member = _agui_json_members_get (object, name);

  return member != NULL && member->kind == AGUI_JSON_DOC_OBJECT ? member->u.object : NULL;
}

static inline AguiJsonDocArray *
_agui_json_members_get_array (AguiJsonDocObject *object,
                              const char        *name)
{
  AguiJsonValue *member = _agui_json_members_get (object, name);

  return member != NULL && member->kind == AGUI_JSON_DOC_ARRAY ? member->u.array : NULL;
}

/* Moves the member @name out of @object into @value (null before) and
 * closes its slot; FALSE, @value left null, when there is none. */
static inline gboolean
_agui_json_members_take (AguiJsonDocObject *object,
                         const char        *name,
                         AguiJsonValue     *value)
{
  int slot = _agui_json_object_find (object, name);

  if (slot < 0)
    return FALSE;

  _agui_json_object_remove_slot (object, slot, value);
  _agui_json_object_compact (object);

  return TRUE;
}

/* The length of @array, 0 when it is %NULL or not an array; its element
 * @index, borrowed. */
guint               _agui_json_doc_get_length     (const AguiJsonValue  *array);
AguiJsonValue      *_agui_json_doc_get_element    (const AguiJsonValue  *array,
                                                   guint                 index);

/* Building: each sets the member @name of @object as json-glib's setters
 * do (a member there keeps its place) and returns the container it made. */
void                _agui_json_doc_set_string     (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   const char           *string);
void                _agui_json_doc_set_null       (AguiJsonDocObject    *object,
                                                   const char           *name);
void                _agui_json_doc_set_boolean    (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   gboolean              boolean);
void                _agui_json_doc_set_int        (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   gint64                integer);
void                _agui_json_doc_set_double     (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   double                number);
/* Copies @value. */
void                _agui_json_doc_set_copy       (AguiJsonDocObject    *object,
                                                   const char           *name,
                                                   const AguiJsonValue  *value);
AguiJsonDocObject  *_agui_json_doc_set_object     (AguiJsonDocObject    *object,
                                                   const char           *name);
AguiJsonDocArray   *_agui_json_doc_set_array      (AguiJsonDocObject    *object,
                                                   const char           *name);
void                _agui_json_doc_add_string     (AguiJsonDocArray     *array,
                                                   const char           *string);
AguiJsonDocObject  *_agui_json_doc_add_object     (AguiJsonDocArray     *array);

/* Sets each member of the object @source in *@target as
 * json_object_set_member () would (a member there keeps its place),
 * taking them and leaving @source null. *@target is an object on the heap
 * (freed with _agui_json_doc_value_free ()), made from @source when it is
 * NULL. */
void                _agui_json_doc_merge_object   (AguiJsonValue       **target,
                                                   AguiJsonValue        *source);

G_END_DECLS
