/* agui-event-compat.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-compat-private.h"
#include "agui-json-doc-access-private.h"

/* Compatibility translations (protocol digest section 8): the second stage
 * of the event parser, on the compact tree of an event that is not flat.
 * Each translation appends what it did to @warnings; the parser emits
 * them, in order, before it goes on. Every change is reported: an event
 * that gained no warning is untouched.
 *
 * The translations edit the tree as json-glib's setters would: a member
 * set again keeps its place, a new one goes last, a removed one leaves
 * the order of the rest alone. */

static void warn (GPtrArray  *warnings,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

static void
warn (GPtrArray  *warnings,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

void
_agui_thinking_ids_clear (AguiThinkingIds *ids)
{
  g_clear_pointer (&ids->span_id, g_free);
  g_clear_pointer (&ids->message_id, g_free);
}

/* Compacting renumbers the slots (and moves short strings held inside
 * them): nothing here keeps a slot or a member's value across a removal.
 * A large object may keep its hole; readers of the tree skip holes. */
static void
remove_slot (AguiJsonDocObject *object,
             int                slot)
{
  g_auto(AguiJsonValue) removed = AGUI_JSON_VALUE_INIT;

  _agui_json_object_remove_slot (object, (guint) slot, &removed);
  _agui_json_object_compact (object);
}

static void
remove_null_member (GPtrArray         *warnings,
                    AguiJsonDocObject *object,
                    const char        *name,
                    const char        *where)
{
  int slot = _agui_json_object_find (object, name);

  if (slot < 0 || _agui_json_object_slot_value (object, slot)->kind != AGUI_JSON_DOC_NULL)
    return;

  warn (warnings, "Converting deprecated %s.%s: null to an absent field", where, name);
  remove_slot (object, slot);
}

/* The names this file knows, so that @name may be the event's own "type"
 * string: once matched, the literal is used, which no edit of the tree
 * moves. */
static const char *
known_name (const char        *name,
            const char *const *known)
{
  for (guint i = 0; known[i] != NULL; i++)
    {
      if (g_str_equal (name, known[i]))
        return known[i];
    }

  return NULL;
}

const char *
_agui_event_translate_thinking_tree (AguiThinkingIds   *ids,
                                     AguiJsonDocObject *object,
                                     const char        *name,
                                     GPtrArray         *warnings)
{
  static const char *const deprecated[] = {
    "THINKING_START", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT",
    "THINKING_TEXT_MESSAGE_END", "THINKING_END", NULL
  };
  const char *translated;
  const char *id;

  name = known_name (name, deprecated);
  if (name == NULL)
    return NULL;

  if (name == deprecated[0])
    {
      int slot = _agui_json_object_find (object, "title");

      g_free (ids->span_id);
      ids->span_id = g_uuid_string_random ();
      id = ids->span_id;
      translated = "REASONING_START";

      if (slot >= 0)
        {
          AguiJsonValue *title = _agui_json_object_slot_value (object, slot);

          if (_agui_json_value_is_string (title))
            warn (warnings, "Dropping THINKING_START.title \"%s\": REASONING_START has no title field",
                  _agui_json_value_get_string (title));
          else
            warn (warnings, "Dropping THINKING_START.title: REASONING_START has no title field");
          remove_slot (object, slot);
        }
    }
  else if (name == deprecated[1])
    {
      g_free (ids->message_id);
      ids->message_id = g_uuid_string_random ();
      id = ids->message_id;
      translated = "REASONING_MESSAGE_START";
      _agui_json_doc_set_string (object, "role", "reasoning");
    }
  else if (name == deprecated[2])
    {
      id = ids->message_id;
      translated = "REASONING_MESSAGE_CONTENT";
    }
  else if (name == deprecated[3])
    {
      id = ids->message_id;
      translated = "REASONING_MESSAGE_END";
    }
  else
    {
      id = ids->span_id;
      translated = "REASONING_END";
    }

  warn (warnings, "Converting deprecated %s to %s", name, translated);

  /* With nothing open the event gets an id no opener announced, which the
   * verifier then rejects: that is the reference's behaviour too. */
  if (id != NULL)
    {
      _agui_json_doc_set_string (object, "messageId", id);
    }
  else
    {
      g_autofree char *fresh = g_uuid_string_random ();

      _agui_json_doc_set_string (object, "messageId", fresh);
    }

  if (g_str_equal (translated, "REASONING_MESSAGE_END"))
    g_clear_pointer (&ids->message_id, g_free);
  else if (g_str_equal (translated, "REASONING_END"))
    g_clear_pointer (&ids->span_id, g_free);

  _agui_json_doc_set_string (object, "type", translated);

  return translated;
}

static const char *
media_kind_for_mime_type (const char *mime_type)
{
  if (mime_type == NULL)
    return "document";
  if (g_str_has_prefix (mime_type, "image/"))
    return "image";
  if (g_str_has_prefix (mime_type, "audio/"))
    return "audio";
  if (g_str_has_prefix (mime_type, "video/"))
    return "video";

  return "document";
}

/* Makes in @upgraded (null before) the modern part for a pre-1.0 binary
 * part and returns its kind, or returns %NULL if it cannot be converted
 * (only an id: enforcement then drops it as unknown). */
static const char *
upgrade_binary_part (AguiJsonDocObject *part,
                     AguiJsonValue     *upgraded)
{
  const char *mime_type = _agui_json_members_get_string (part, "mimeType");
  const char *filename = _agui_json_members_get_string (part, "filename");
  const char *kind = media_kind_for_mime_type (mime_type);
  const char *value;
  const char *source_type;
  AguiJsonDocObject *object;
  AguiJsonDocObject *source;

  if ((value = _agui_json_members_get_string (part, "data")) != NULL)
    source_type = "data";
  else if ((value = _agui_json_members_get_string (part, "url")) != NULL)
    source_type = "url";
  else
    return NULL;

  object = _agui_json_value_set_object (upgraded, 3);
  _agui_json_doc_set_string (object, "type", kind);

  source = _agui_json_doc_set_object (object, "source");
  _agui_json_doc_set_string (source, "type", source_type);
  _agui_json_doc_set_string (source, "value", value);
  if (mime_type != NULL)
    _agui_json_doc_set_string (source, "mimeType", mime_type);

  if (filename != NULL)
    _agui_json_doc_set_string (_agui_json_doc_set_object (object, "metadata"), "filename", filename);

  return kind;
}

/* Equality as JSON Patch's `test` has it (members in any order). A part
 * holds no number here, so how 1 and 1.0 compare does not arise. */
static gboolean
array_holds_equal (AguiJsonDocArray    *array,
                   const AguiJsonValue *value)
{
  for (guint i = 0; i < _agui_json_array_get_length (array); i++)
    {
      if (_agui_json_value_equal (_agui_json_array_get (array, i), value))
        return TRUE;
    }

  return FALSE;
}

static void
upgrade_message_content (GPtrArray         *warnings,
                         AguiJsonDocObject *message,
                         const char        *where)
{
  AguiJsonDocArray *content = _agui_json_members_get_array (message, "content");
  /* Per part, once a binary one is met: null to keep it, an object to
   * put in its place, a hole to drop it. */
  g_autofree AguiJsonValue *outcomes = NULL;
  guint length;

  if (content == NULL)
    return;

  length = _agui_json_array_get_length (content);

  /* A binary part is compared with the parts as they stand, the binary
   * ones not yet upgraded and the null metadata of the earlier ones
   * already gone: the outcomes wait until every part has been seen. */
  for (guint i = 0; i < length; i++)
    {
      AguiJsonValue *part_value = _agui_json_array_get (content, i);
      AguiJsonValue replacement = AGUI_JSON_VALUE_INIT;
      AguiJsonDocObject *part;
      const char *type;
      const char *kind;

      if (part_value->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      part = part_value->u.object;
      type = _agui_json_members_get_string (part, "type");

      if (g_strcmp0 (type, "binary") != 0)
        {
          /* Media part metadata: null is legacy; text part metadata is
           * "any" and keeps its null. */
          if (g_strcmp0 (type, "text") != 0)
            remove_null_member (warnings, part, "metadata", where);
          continue;
        }

      if (outcomes == NULL)
        outcomes = g_new0 (AguiJsonValue, length);

      kind = upgrade_binary_part (part, &replacement);

      if (kind == NULL)
        {
          warn (warnings, "Cannot convert a deprecated binary content part in %s: it carries neither data nor url", where);
        }
      else if (array_holds_equal (content, &replacement))
        {
          warn (warnings, "Dropping a deprecated binary content part in %s: the message already holds the same part", where);
          _agui_json_value_clear (&replacement);
          outcomes[i].kind = AGUI_JSON_DOC_HOLE;
        }
      else
        {
          warn (warnings, "Converting a deprecated binary content part in %s to a %s part", where, kind);
          outcomes[i] = replacement;
        }
    }

  if (outcomes == NULL)
    return;

  /* From the end, so that a removal leaves the indices ahead alone. */
  for (guint i = length; i-- > 0;)
    {
      if (outcomes[i].kind == AGUI_JSON_DOC_HOLE)
        {
          g_auto(AguiJsonValue) removed = AGUI_JSON_VALUE_INIT;

          _agui_json_array_remove (content, i, &removed);
        }
      else if (outcomes[i].kind == AGUI_JSON_DOC_OBJECT)
        {
          _agui_json_value_move (_agui_json_array_get (content, i), &outcomes[i]);
        }
    }
}

static void
upgrade_messages (GPtrArray         *warnings,
                  AguiJsonDocObject *container,
                  const char        *where)
{
  AguiJsonDocArray *messages = _agui_json_members_get_array (container, "messages");

  if (messages == NULL)
    return;

  for (guint i = 0; i < _agui_json_array_get_length (messages); i++)
    {
      AguiJsonValue *message = _agui_json_array_get (messages, i);
      g_autofree char *message_where = NULL;

      if (message->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      message_where = g_strdup_printf ("%s.messages[%u].content", where, i);
      upgrade_message_content (warnings, message->u.object, message_where);
    }
}

static void
remove_nulls_in_array (GPtrArray         *warnings,
                       AguiJsonDocObject *container,
                       const char        *array_name,
                       const char        *member,
                       const char        *where)
{
  AguiJsonDocArray *array = _agui_json_members_get_array (container, array_name);

  if (array == NULL)
    return;

  for (guint i = 0; i < _agui_json_array_get_length (array); i++)
    {
      AguiJsonValue *element = _agui_json_array_get (array, i);
      g_autofree char *element_where = NULL;

      if (element->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      element_where = g_strdup_printf ("%s.%s[%u]", where, array_name, i);
      remove_null_member (warnings, element->u.object, member, element_where);
    }
}

void
_agui_event_translate_compat_tree (const char        *name,
                                   AguiJsonDocObject *object,
                                   GPtrArray         *warnings)
{
  static const char *const with_more[] = {
    "RUN_FINISHED", "SUBAGENT_FINISHED", "TOOL_CALL_START", "TOOL_CALL_CHUNK",
    "MESSAGES_SNAPSHOT", "RUN_STARTED", NULL
  };
  const char *known = known_name (name, with_more);
  AguiJsonDocObject *input;

  remove_null_member (warnings, object, "rawEvent", name);

  if (known == NULL)
    return;

  if (known == with_more[0])
    {
      remove_null_member (warnings, object, "result", known);
      remove_null_member (warnings, object, "outcome", known);
    }
  else if (known == with_more[1])
    {
      remove_null_member (warnings, object, "result", known);
    }
  else if (known == with_more[2] || known == with_more[3])
    {
      remove_null_member (warnings, object, "parentMessageId", known);
    }
  else if (known == with_more[4])
    {
      upgrade_messages (warnings, object, known);
    }
  else if ((input = _agui_json_members_get_object (object, "input")) != NULL)
    {
      remove_null_member (warnings, input, "state", "RUN_STARTED.input");
      remove_null_member (warnings, input, "forwardedProps", "RUN_STARTED.input");
      remove_nulls_in_array (warnings, input, "tools", "parameters", "RUN_STARTED.input");
      remove_nulls_in_array (warnings, input, "resume", "payload", "RUN_STARTED.input");
      upgrade_messages (warnings, input, "RUN_STARTED.input");
    }
}
