/* agui-json-doc-access.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-reader-private.h"
#include "agui-json-doc-access-private.h"

/* Like agui-json-parse.c, this sits above the reader and the tree, so it
 * has a file of its own rather than a place inside agui-json-doc.c. */

gboolean
_agui_json_doc_parse (const char     *text,
                      gssize          length,
                      AguiJsonValue  *value,
                      GError        **error)
{
  AguiEventReader *reader;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  reader = _agui_json_prepare_text (&text, &length, error);
  if (reader == NULL)
    return FALSE;

  if (_agui_event_reader_read_doc_value (reader, text, length, 0, value))
    return TRUE;

  /* The tree's reading says only that it failed; the same reader, asked
   * for a json-glib value, words why. Text already refused is rare. */
  if (error != NULL)
    {
      g_autoptr(JsonNode) node = _agui_event_reader_read_value (reader, text, length, 0, error);

      if (node != NULL && *error == NULL)
        g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                             "the text is not one JSON value");
    }

  return FALSE;
}

AguiJsonValue *
_agui_json_doc_value_dup (const AguiJsonValue *value)
{
  AguiJsonValue *copy = g_new0 (AguiJsonValue, 1);

  _agui_json_value_copy (copy, value);

  return copy;
}

void
_agui_json_doc_value_free (AguiJsonValue *value)
{
  if (value == NULL)
    return;

  _agui_json_value_clear (value);
  g_free (value);
}

/* Reading */

AguiJsonValue *
_agui_json_doc_get_member (const AguiJsonValue *object,
                           const char          *name)
{
  int slot;

  if (object == NULL || object->kind != AGUI_JSON_DOC_OBJECT)
    return NULL;

  slot = _agui_json_object_find (object->u.object, name);

  return slot >= 0 ? _agui_json_object_slot_value (object->u.object, slot) : NULL;
}

const char *
_agui_json_doc_get_string (const AguiJsonValue *object,
                           const char          *name)
{
  AguiJsonValue *member = _agui_json_doc_get_member (object, name);

  return member != NULL && _agui_json_value_is_string (member) ? _agui_json_value_get_string (member) : NULL;
}

AguiJsonValue *
_agui_json_doc_get_object (const AguiJsonValue *object,
                           const char          *name)
{
  AguiJsonValue *member = _agui_json_doc_get_member (object, name);

  return member != NULL && member->kind == AGUI_JSON_DOC_OBJECT ? member : NULL;
}

AguiJsonValue *
_agui_json_doc_get_array (const AguiJsonValue *object,
                          const char          *name)
{
  AguiJsonValue *member = _agui_json_doc_get_member (object, name);

  return member != NULL && member->kind == AGUI_JSON_DOC_ARRAY ? member : NULL;
}

gboolean
_agui_json_doc_get_int (const AguiJsonValue *object,
                        const char          *name,
                        gint64              *integer)
{
  AguiJsonValue *member = _agui_json_doc_get_member (object, name);

  if (member == NULL || member->kind != AGUI_JSON_DOC_INT)
    return FALSE;

  *integer = member->u.integer;
  return TRUE;
}

guint
_agui_json_doc_get_length (const AguiJsonValue *array)
{
  return array != NULL && array->kind == AGUI_JSON_DOC_ARRAY ? _agui_json_array_get_length (array->u.array) : 0;
}

AguiJsonValue *
_agui_json_doc_get_element (const AguiJsonValue *array,
                            guint                index)
{
  g_return_val_if_fail (index < _agui_json_doc_get_length (array), NULL);

  return _agui_json_array_get (array->u.array, index);
}

/* Building */

void
_agui_json_doc_set_string (AguiJsonDocObject *object,
                           const char        *name,
                           const char        *string)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_string (&value, string, strlen (string));
  _agui_json_object_set (object, name, &value);
}

void
_agui_json_doc_set_null (AguiJsonDocObject *object,
                         const char        *name)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_object_set (object, name, &value);
}

void
_agui_json_doc_set_boolean (AguiJsonDocObject *object,
                            const char        *name,
                            gboolean           boolean)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_boolean (&value, boolean);
  _agui_json_object_set (object, name, &value);
}

void
_agui_json_doc_set_int (AguiJsonDocObject *object,
                        const char        *name,
                        gint64             integer)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_int (&value, integer);
  _agui_json_object_set (object, name, &value);
}

void
_agui_json_doc_set_double (AguiJsonDocObject *object,
                           const char        *name,
                           double             number)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_double (&value, number);
  _agui_json_object_set (object, name, &value);
}

void
_agui_json_doc_set_copy (AguiJsonDocObject   *object,
                         const char          *name,
                         const AguiJsonValue *source)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_copy (&value, source);
  _agui_json_object_set (object, name, &value);
}

AguiJsonDocObject *
_agui_json_doc_set_object (AguiJsonDocObject *object,
                           const char        *name)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *made = _agui_json_value_set_object (&value, 0);

  /* The container lives on the heap: moving its value keeps it. */
  _agui_json_object_set (object, name, &value);

  return made;
}

AguiJsonDocArray *
_agui_json_doc_set_array (AguiJsonDocObject *object,
                          const char        *name)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *made = _agui_json_value_set_array (&value, 0);

  _agui_json_object_set (object, name, &value);

  return made;
}

void
_agui_json_doc_add_string (AguiJsonDocArray *array,
                           const char       *string)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_string (&value, string, strlen (string));
  _agui_json_array_insert (array, _agui_json_array_get_length (array), &value);
}

AguiJsonDocObject *
_agui_json_doc_add_object (AguiJsonDocArray *array)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *made = _agui_json_value_set_object (&value, 0);

  _agui_json_array_insert (array, _agui_json_array_get_length (array), &value);

  return made;
}

/* Merging */

void
_agui_json_doc_merge_object (AguiJsonValue **target,
                             AguiJsonValue  *source)
{
  AguiJsonDocObject *from;

  g_assert (source->kind == AGUI_JSON_DOC_OBJECT);

  if (*target == NULL)
    {
      /* the members as they are, in their order: nothing to set one by one */
      *target = g_new0 (AguiJsonValue, 1);
      _agui_json_value_move (*target, source);
      return;
    }

  g_assert ((*target)->kind == AGUI_JSON_DOC_OBJECT);

  from = source->u.object;
  for (guint i = 0; i < _agui_json_object_get_n_slots (from); i++)
    {
      const char *name = _agui_json_object_slot_name (from, i);

      if (name != NULL)
        _agui_json_object_set ((*target)->u.object, name, _agui_json_object_slot_value (from, i));
    }
  _agui_json_value_clear (source);
}
