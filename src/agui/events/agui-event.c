/* agui-event.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-event-reader-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

/**
 * AguiEvent:
 *
 * One AG-UI event: an immutable, reference-counted value with a type and
 * the members the 1.0 schema allows for that type.
 *
 * Events are made from JSON by [ctor@Agui.Event.new_from_json], which
 * enforces the schema (unknown members are removed, malformed known members
 * are an error naming the event type and the member), or built by code
 * with [ctor@Agui.Event.new]. Members are read with the typed accessors;
 * an absent optional member reads as %NULL.
 */
struct _AguiEvent
{
  gatomicrefcount  ref_count;
  AguiEventType    type;
  /* A flat or tree event builds this on first request; events are shared
   * across threads, so it is published with a compare-and-swap. */
  JsonObject      *object;
  /* An event read with members that are objects, arrays or null: all its
   * members, "type" included, as one object of the compact tree, which
   * follows the struct. */
  AguiJsonValue   *tree;
  /* NULL for a tree event */
  AguiFlatMember  *flat;
  const char      *arena;
  guint            n_flat;
  /* A STATE_DELTA read by the patch reader: its operations, their
   * strings, and the patch's JSON text, from which the "delta" member is
   * built only when asked for. (n_ops beside n_flat: a flat event, the
   * struct and its members, stays 80 bytes before its strings.) */
  guint            n_ops;
  AguiPatchOp     *ops;
  const char      *op_strings;
  const char      *raw;
  gsize            raw_length;
};

G_DEFINE_BOXED_TYPE (AguiEvent, agui_event, agui_event_ref, agui_event_unref)

static const char * const event_type_names[] = {
  [AGUI_EVENT_RUN_STARTED] = "RUN_STARTED",
  [AGUI_EVENT_RUN_FINISHED] = "RUN_FINISHED",
  [AGUI_EVENT_RUN_ERROR] = "RUN_ERROR",
  [AGUI_EVENT_STEP_STARTED] = "STEP_STARTED",
  [AGUI_EVENT_STEP_FINISHED] = "STEP_FINISHED",
  [AGUI_EVENT_TEXT_MESSAGE_START] = "TEXT_MESSAGE_START",
  [AGUI_EVENT_TEXT_MESSAGE_CONTENT] = "TEXT_MESSAGE_CONTENT",
  [AGUI_EVENT_TEXT_MESSAGE_END] = "TEXT_MESSAGE_END",
  [AGUI_EVENT_TEXT_MESSAGE_CHUNK] = "TEXT_MESSAGE_CHUNK",
  [AGUI_EVENT_TOOL_CALL_START] = "TOOL_CALL_START",
  [AGUI_EVENT_TOOL_CALL_ARGS] = "TOOL_CALL_ARGS",
  [AGUI_EVENT_TOOL_CALL_END] = "TOOL_CALL_END",
  [AGUI_EVENT_TOOL_CALL_CHUNK] = "TOOL_CALL_CHUNK",
  [AGUI_EVENT_TOOL_CALL_RESULT] = "TOOL_CALL_RESULT",
  [AGUI_EVENT_REASONING_START] = "REASONING_START",
  [AGUI_EVENT_REASONING_MESSAGE_START] = "REASONING_MESSAGE_START",
  [AGUI_EVENT_REASONING_MESSAGE_CONTENT] = "REASONING_MESSAGE_CONTENT",
  [AGUI_EVENT_REASONING_MESSAGE_END] = "REASONING_MESSAGE_END",
  [AGUI_EVENT_REASONING_MESSAGE_CHUNK] = "REASONING_MESSAGE_CHUNK",
  [AGUI_EVENT_REASONING_END] = "REASONING_END",
  [AGUI_EVENT_REASONING_ENCRYPTED_VALUE] = "REASONING_ENCRYPTED_VALUE",
  [AGUI_EVENT_STATE_SNAPSHOT] = "STATE_SNAPSHOT",
  [AGUI_EVENT_STATE_DELTA] = "STATE_DELTA",
  [AGUI_EVENT_MESSAGES_SNAPSHOT] = "MESSAGES_SNAPSHOT",
  [AGUI_EVENT_ACTIVITY_SNAPSHOT] = "ACTIVITY_SNAPSHOT",
  [AGUI_EVENT_ACTIVITY_DELTA] = "ACTIVITY_DELTA",
  [AGUI_EVENT_RAW] = "RAW",
  [AGUI_EVENT_CUSTOM] = "CUSTOM",
  [AGUI_EVENT_SUBAGENT_STARTED] = "SUBAGENT_STARTED",
  [AGUI_EVENT_SUBAGENT_FINISHED] = "SUBAGENT_FINISHED",
  [AGUI_EVENT_SUBAGENT_ERROR] = "SUBAGENT_ERROR",
};

/**
 * agui_event_type_to_string:
 * @type: an event type
 *
 * Returns: the wire name of @type, such as `"TEXT_MESSAGE_START"`
 */
const char *
agui_event_type_to_string (AguiEventType type)
{
  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (event_type_names), NULL);

  return event_type_names[type];
}

/**
 * agui_event_type_from_string:
 * @name: a wire name such as `"RUN_STARTED"`
 * @type: (out) (optional): where to store the type
 *
 * Returns: %TRUE if @name is an AG-UI 1.0 event type
 */
gboolean
agui_event_type_from_string (const char    *name,
                             AguiEventType *type)
{
  /* Asked once per frame: a hash lookup, not 31 string compares. */
  static GHashTable *types;
  gpointer found;

  g_return_val_if_fail (name != NULL, FALSE);

  if (g_once_init_enter (&types))
    {
      GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < G_N_ELEMENTS (event_type_names); i++)
        g_hash_table_insert (table, (gpointer) event_type_names[i], GUINT_TO_POINTER (i + 1));

      g_once_init_leave (&types, table);
    }

  found = g_hash_table_lookup (types, name);
  if (found == NULL)
    return FALSE;

  if (type != NULL)
    *type = (AguiEventType) (GPOINTER_TO_UINT (found) - 1);

  return TRUE;
}

AguiEvent *
_agui_event_new_tree (AguiEventType  type,
                      AguiJsonValue *members)
{
  AguiEvent *self;
  AguiJsonValue type_value = AGUI_JSON_VALUE_INIT;

  g_assert ((guint) type < G_N_ELEMENTS (event_type_names));
  g_assert (members->kind == AGUI_JSON_DOC_OBJECT);

  /* A translated name (THINKING_START) takes its place, as
   * json_object_set_string_member () does. */
  _agui_json_value_set_string (&type_value, event_type_names[type], strlen (event_type_names[type]));
  _agui_json_object_set (members->u.object, "type", &type_value);
  _agui_json_object_compact (members->u.object);

  self = g_malloc0 (sizeof (AguiEvent) + sizeof (AguiJsonValue));
  g_atomic_ref_count_init (&self->ref_count);
  self->type = type;
  self->tree = (AguiJsonValue *) (self + 1);
  _agui_json_value_move (self->tree, members);

  return self;
}

/* The value of member @name of a tree event, or NULL. */
static inline const AguiJsonValue *
tree_lookup (AguiEvent  *self,
             const char *name)
{
  AguiJsonDocObject *object = self->tree->u.object;
  int slot = _agui_json_object_find (object, name);

  return slot >= 0 ? _agui_json_object_slot_value (object, slot) : NULL;
}

static inline gboolean
tree_holds (AguiEvent       *self,
            const char      *name,
            AguiJsonDocKind  kind)
{
  const AguiJsonValue *value = tree_lookup (self, name);

  return value != NULL && value->kind == kind;
}

/* The members and the arena follow the struct in one block. */
G_STATIC_ASSERT (sizeof (AguiEvent) % G_ALIGNOF (AguiFlatMember) == 0);
G_STATIC_ASSERT (sizeof (AguiEvent) % G_ALIGNOF (AguiJsonValue) == 0);
G_STATIC_ASSERT (sizeof (AguiEvent) <= 80 || GLIB_SIZEOF_VOID_P != 8);

AguiEvent *
_agui_event_new_flat (AguiEventType         type,
                      const AguiFlatMember *members,
                      guint                 n_members,
                      const char           *arena,
                      gsize                 arena_length)
{
  gsize members_size = n_members * sizeof (AguiFlatMember);
  AguiEvent *self;
  char *block;

  g_assert ((guint) type < G_N_ELEMENTS (event_type_names));

  block = g_malloc (sizeof (AguiEvent) + members_size + arena_length);
  self = (AguiEvent *) block;
  g_atomic_ref_count_init (&self->ref_count);
  self->type = type;
  self->object = NULL;
  self->tree = NULL;
  self->n_flat = n_members;
  self->flat = (AguiFlatMember *) (block + sizeof (AguiEvent));
  if (members_size > 0)
    memcpy (self->flat, members, members_size);
  memcpy (block + sizeof (AguiEvent) + members_size, arena, arena_length);
  self->arena = block + sizeof (AguiEvent) + members_size;
  self->ops = NULL;
  self->n_ops = 0;
  self->op_strings = NULL;
  self->raw = NULL;
  self->raw_length = 0;

  return self;
}

AguiEvent *
_agui_event_new_patch (AguiEventType         type,
                       const AguiFlatMember *members,
                       guint                 n_members,
                       const char           *arena,
                       gsize                 arena_length,
                       const char           *raw,
                       gsize                 raw_length,
                       GArray               *ops,
                       GString              *op_strings)
{
  gsize members_size = n_members * sizeof (AguiFlatMember);
  gsize head = sizeof (AguiEvent) + members_size + arena_length;
  AguiEvent *self;
  char *block;

  g_assert ((guint) type < G_N_ELEMENTS (event_type_names));

  block = g_malloc (head + raw_length + 1 + op_strings->len + ops->len * sizeof (AguiPatchOp));
  self = (AguiEvent *) block;
  g_atomic_ref_count_init (&self->ref_count);
  self->type = type;
  self->object = NULL;
  self->tree = NULL;
  self->n_flat = n_members;
  self->flat = (AguiFlatMember *) (block + sizeof (AguiEvent));
  if (members_size > 0)
    memcpy (self->flat, members, members_size);
  memcpy (block + sizeof (AguiEvent) + members_size, arena, arena_length);
  self->arena = block + sizeof (AguiEvent) + members_size;

  memcpy (block + head, raw, raw_length);
  block[head + raw_length] = '\0';
  self->raw = block + head;
  self->raw_length = raw_length;

  memcpy (block + head + raw_length + 1, op_strings->str, op_strings->len);
  self->op_strings = block + head + raw_length + 1;

  /* The strings before them are bytes, so the operations are copied to
   * an aligned place. */
  self->n_ops = ops->len;
  self->ops = g_memdup2 (ops->data, ops->len * sizeof (AguiPatchOp));
  g_array_set_size (ops, 0);

  return self;
}

const AguiPatchOp *
_agui_event_get_patch_ops (AguiEvent   *self,
                           guint       *n_ops,
                           const char **strings,
                           const char **patch)
{
  *n_ops = self->n_ops;
  *strings = self->op_strings;
  if (patch != NULL)
    *patch = self->raw;

  return self->ops;
}

/* Whether the flat members alone answer for @name: the "delta" of a
 * patch read by the patch reader is not among them. */
static inline gboolean
flat_only (AguiEvent  *self,
           const char *name)
{
  return self->flat != NULL &&
         (self->raw == NULL || name[0] != 'd' || strcmp (name, "delta") != 0);
}

static const AguiFlatMember *
flat_lookup (AguiEvent  *self,
             const char *name)
{
  for (guint i = 0; i < self->n_flat; i++)
    {
      const char *candidate = self->arena + self->flat[i].name;

      if (candidate[0] == name[0] && strcmp (candidate, name) == 0)
        return &self->flat[i];
    }

  return NULL;
}

static JsonNode *
flat_to_node (AguiEvent            *self,
              const AguiFlatMember *member)
{
  JsonNode *node = json_node_alloc ();

  switch (member->kind)
    {
    case AGUI_FLAT_STRING:
      return json_node_init_string (node, self->arena + member->string);
    case AGUI_FLAT_INTEGER:
      return json_node_init_int (node, member->integer);
    case AGUI_FLAT_DOUBLE:
      return json_node_init_double (node, member->number);
    case AGUI_FLAT_BOOLEAN:
      return json_node_init_boolean (node, member->boolean);
    default:
      g_assert_not_reached ();
    }
}

static JsonObject *
ensure_object (AguiEvent *self)
{
  JsonObject *object = g_atomic_pointer_get (&self->object);

  if (object != NULL)
    return object;

  object = json_object_new ();
  if (self->tree != NULL)
    {
      AguiJsonDocObject *tree = self->tree->u.object;

      for (guint i = 0; i < _agui_json_object_get_n_slots (tree); i++)
        {
          const char *name = _agui_json_object_slot_name (tree, i);

          if (name != NULL)
            json_object_set_member (object, name,
                                    _agui_json_value_to_node (_agui_json_object_slot_value (tree, i)));
        }
    }
  for (guint i = 0; i < self->n_flat; i++)
    json_object_set_member (object, self->arena + self->flat[i].name,
                            flat_to_node (self, &self->flat[i]));
  if (self->raw != NULL)
    {
      /* The tree the general path would have read from the frame. The
       * patch reader took nothing this reader would refuse. */
      g_autoptr(AguiEventReader) reader = _agui_event_reader_new ();
      g_autoptr(GError) error = NULL;
      JsonNode *delta = _agui_event_reader_read_value (reader, self->raw, self->raw_length, 1, &error);

      if (delta == NULL)
        {
          g_critical ("A STATE_DELTA's patch does not read back: %s", error->message);
          delta = json_node_new (JSON_NODE_NULL);
        }
      json_object_set_member (object, "delta", delta);
    }
  json_object_seal (object);

  if (!g_atomic_pointer_compare_and_exchange (&self->object, NULL, object))
    {
      json_object_unref (object);
      object = g_atomic_pointer_get (&self->object);
    }

  return object;
}

const char *
_agui_event_member_iter_init (AguiEventMemberIter *iter,
                              AguiEvent           *event)
{
  iter->event = event;
  iter->next = 0;

  return _agui_event_member_iter_next (iter);
}

const char *
_agui_event_member_iter_next (AguiEventMemberIter *iter)
{
  AguiEvent *self = iter->event;

  if (self->tree != NULL)
    {
      AguiJsonDocObject *tree = self->tree->u.object;

      while (iter->next < _agui_json_object_get_n_slots (tree))
        {
          const char *name = _agui_json_object_slot_name (tree, iter->next++);

          if (name != NULL)
            return name;
        }

      return NULL;
    }

  if (iter->next < self->n_flat)
    return self->arena + self->flat[iter->next++].name;

  /* A patch's "delta" comes last, as in ensure_object (). */
  if (iter->next == self->n_flat && self->raw != NULL)
    {
      iter->next++;
      return "delta";
    }

  return NULL;
}

void
_agui_event_copy_tree (AguiEvent     *self,
                       AguiJsonValue *tree)
{
  AguiEventMemberIter iter;
  AguiJsonDocObject *members;

  g_return_if_fail (self != NULL);

  if (self->tree != NULL)
    {
      _agui_json_value_copy (tree, self->tree);
      return;
    }

  members = _agui_json_value_set_object (tree, self->n_flat + 1);
  for (const char *name = _agui_event_member_iter_init (&iter, self);
       name != NULL;
       name = _agui_event_member_iter_next (&iter))
    {
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

      _agui_event_member_to_value (self, name, &value);
      _agui_json_object_append (members, name, &value);
    }
}

static gboolean
append_flat_member (AguiEvent            *self,
                    const AguiFlatMember *member,
                    GString              *out,
                    GError              **error)
{
  switch (member->kind)
    {
    case AGUI_FLAT_STRING:
      /* up to a NUL, as json_node_init_string () in flat_to_node () */
      _agui_json_append_string (out, self->arena + member->string);
      return TRUE;
    case AGUI_FLAT_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, member->integer);
      return TRUE;
    case AGUI_FLAT_DOUBLE:
      return _agui_json_append_double (out, member->number, error);
    case AGUI_FLAT_BOOLEAN:
      g_string_append (out, member->boolean ? "true" : "false");
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

gboolean
_agui_event_append_json (AguiEvent *self,
                         GString   *out,
                         GError   **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (self->tree != NULL)
    return _agui_json_value_append (out, self->tree, FALSE, 0, error);

  g_string_append_c (out, '{');
  for (guint i = 0; i < self->n_flat; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      _agui_json_append_string (out, self->arena + self->flat[i].name);
      g_string_append_c (out, ':');
      if (!append_flat_member (self, &self->flat[i], out, error))
        return FALSE;
    }
  if (self->raw != NULL)
    {
      g_auto(AguiJsonValue) delta = AGUI_JSON_VALUE_INIT;
      g_autoptr(GError) local_error = NULL;

      /* The patch reader took nothing this reader would refuse. */
      if (!_agui_json_doc_parse (self->raw, self->raw_length, &delta, &local_error))
        g_critical ("A STATE_DELTA's patch does not read back: %s", local_error->message);
      if (self->n_flat > 0)
        g_string_append_c (out, ',');
      g_string_append (out, "\"delta\":");
      if (!_agui_json_value_append (out, &delta, FALSE, 1, error))
        return FALSE;
    }
  g_string_append_c (out, '}');

  return TRUE;
}

gboolean
_agui_event_member_is_null (AguiEvent  *self,
                            const char *name)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, FALSE);

  if (flat_only (self, name))
    return FALSE;

  if (self->tree != NULL)
    {
      const AguiJsonValue *value = tree_lookup (self, name);

      return value != NULL && value->kind == AGUI_JSON_DOC_NULL;
    }

  node = json_object_get_member (ensure_object (self), name);

  return node != NULL && JSON_NODE_HOLDS_NULL (node);
}

/**
 * agui_event_ref:
 * @self: an event
 *
 * Returns: (transfer full): @self
 */
AguiEvent *
agui_event_ref (AguiEvent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * agui_event_unref:
 * @self: (transfer full): an event
 */
void
agui_event_unref (AguiEvent *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      if (self->object != NULL)
        json_object_unref (self->object);
      if (self->tree != NULL)
        _agui_json_value_clear (self->tree);
      g_free (self->ops);
      g_free (self);
    }
}

/**
 * agui_event_get_event_type:
 * @self: an event
 *
 * Returns: the type of @self
 */
AguiEventType
agui_event_get_event_type (AguiEvent *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->type;
}

/**
 * agui_event_get_type_name:
 * @self: an event
 *
 * Returns: the wire name of the type of @self
 */
const char *
agui_event_get_type_name (AguiEvent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return event_type_names[self->type];
}

/**
 * agui_event_get_object:
 * @self: an event
 *
 * Returns: (transfer none): the event's members, sealed: do not modify
 */
JsonObject *
agui_event_get_object (AguiEvent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return ensure_object (self);
}

/**
 * agui_event_get_member:
 * @self: an event
 * @name: a member name
 *
 * Returns: (transfer none) (nullable): the member, or %NULL when absent.
 *   A member present with the value `null` is a node holding null.
 */
JsonNode *
agui_event_get_member (AguiEvent  *self,
                       const char *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (flat_only (self, name) && flat_lookup (self, name) == NULL)
    return NULL;

  if (self->tree != NULL && tree_lookup (self, name) == NULL)
    return NULL;

  return json_object_get_member (ensure_object (self), name);
}

/* json_node_copy (agui_event_get_member ()), without building the whole
 * JsonObject of a flat event for one member. */
JsonNode *
_agui_event_dup_member (AguiEvent  *self,
                        const char *name)
{
  JsonNode *node;

  if (flat_only (self, name) && g_atomic_pointer_get (&self->object) == NULL)
    {
      const AguiFlatMember *member = flat_lookup (self, name);

      if (member == NULL)
        return NULL;

      /* sealed, as ensure_object () leaves every member */
      node = flat_to_node (self, member);
      json_node_seal (node);
      return node;
    }

  if (self->tree != NULL && g_atomic_pointer_get (&self->object) == NULL)
    {
      const AguiJsonValue *value = tree_lookup (self, name);

      if (value == NULL)
        return NULL;

      node = _agui_json_value_to_node (value);
      json_node_seal (node);
      return node;
    }

  node = agui_event_get_member (self, name);

  return node != NULL ? json_node_copy (node) : NULL;
}

/* Copies member @name into @value (null before), in the compact tree,
 * without a JsonNode for a flat event's member; FALSE, and @value left
 * null, when the member is absent. */
gboolean
_agui_event_member_to_value (AguiEvent     *self,
                             const char    *name,
                             AguiJsonValue *value)
{
  JsonNode *node;

  if (flat_only (self, name))
    {
      const AguiFlatMember *member = flat_lookup (self, name);
      const char *string;

      if (member == NULL)
        return FALSE;

      switch (member->kind)
        {
        case AGUI_FLAT_STRING:
          /* up to the NUL, as json_node_init_string () in flat_to_node () */
          string = self->arena + member->string;
          _agui_json_value_set_string (value, string, strlen (string));
          break;
        case AGUI_FLAT_INTEGER:
          _agui_json_value_set_int (value, member->integer);
          break;
        case AGUI_FLAT_DOUBLE:
          _agui_json_value_set_double (value, member->number);
          break;
        case AGUI_FLAT_BOOLEAN:
          _agui_json_value_set_boolean (value, member->boolean);
          break;
        default:
          g_assert_not_reached ();
        }

      return TRUE;
    }

  if (self->tree != NULL)
    {
      const AguiJsonValue *member = tree_lookup (self, name);

      if (member == NULL)
        return FALSE;

      _agui_json_value_copy (value, member);
      return TRUE;
    }

  node = json_object_get_member (ensure_object (self), name);
  if (node == NULL)
    return FALSE;

  _agui_json_value_set_node (value, node);

  return TRUE;
}

const AguiJsonValue *
_agui_event_peek_member (AguiEvent  *self,
                         const char *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return self->tree != NULL ? tree_lookup (self, name) : NULL;
}

/**
 * agui_event_has_member:
 * @self: an event
 * @name: a member name
 *
 * Returns: %TRUE if the member is present (even as `null`)
 */
gboolean
agui_event_has_member (AguiEvent  *self,
                       const char *name)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (flat_only (self, name))
    return flat_lookup (self, name) != NULL;

  if (self->tree != NULL)
    return tree_lookup (self, name) != NULL;

  return json_object_has_member (ensure_object (self), name);
}

/**
 * agui_event_get_string:
 * @self: an event
 * @name: a member name
 *
 * Returns: (nullable): the member's string value, or %NULL when it is
 *   absent or not a string
 */
const char *
agui_event_get_string (AguiEvent  *self,
                       const char *name)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (flat_only (self, name))
    {
      const AguiFlatMember *member = flat_lookup (self, name);

      if (member == NULL || member->kind != AGUI_FLAT_STRING)
        return NULL;

      return self->arena + member->string;
    }

  if (self->tree != NULL)
    {
      const AguiJsonValue *value = tree_lookup (self, name);

      return value != NULL && _agui_json_value_is_string (value) ? _agui_json_value_get_string (value) : NULL;
    }

  node = json_object_get_member (ensure_object (self), name);
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/**
 * agui_event_get_boolean:
 * @self: an event
 * @name: a member name
 * @default_value: what to return when the member is absent
 *
 * Returns: the member's boolean value, or @default_value
 */
gboolean
agui_event_get_boolean (AguiEvent  *self,
                        const char *name,
                        gboolean    default_value)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, default_value);
  g_return_val_if_fail (name != NULL, default_value);

  if (flat_only (self, name))
    {
      const AguiFlatMember *member = flat_lookup (self, name);

      if (member == NULL || member->kind != AGUI_FLAT_BOOLEAN)
        return default_value;

      return member->boolean;
    }

  if (self->tree != NULL)
    {
      const AguiJsonValue *value = tree_lookup (self, name);

      return value != NULL && value->kind == AGUI_JSON_DOC_BOOLEAN ? value->u.boolean : default_value;
    }

  node = json_object_get_member (ensure_object (self), name);
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return default_value;

  return json_node_get_boolean (node);
}

/**
 * agui_event_get_object_member:
 * @self: an event
 * @name: a member name
 *
 * Returns: (transfer none) (nullable): the member's object value, or %NULL
 */
JsonObject *
agui_event_get_object_member (AguiEvent  *self,
                              const char *name)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* A flat event holds no objects; nor is one built for a member that is
   * not one. */
  if (flat_only (self, name))
    return NULL;
  if (self->tree != NULL && !tree_holds (self, name, AGUI_JSON_DOC_OBJECT))
    return NULL;

  node = json_object_get_member (ensure_object (self), name);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

/**
 * agui_event_get_array_member:
 * @self: an event
 * @name: a member name
 *
 * Returns: (transfer none) (nullable): the member's array value, or %NULL
 */
JsonArray *
agui_event_get_array_member (AguiEvent  *self,
                             const char *name)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (flat_only (self, name))
    return NULL;
  if (self->tree != NULL && !tree_holds (self, name, AGUI_JSON_DOC_ARRAY))
    return NULL;

  node = json_object_get_member (ensure_object (self), name);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

/**
 * agui_event_get_message_id:
 * @self: an event
 *
 * Returns: (nullable): the `messageId` member
 */
const char *
agui_event_get_message_id (AguiEvent *self)
{
  return agui_event_get_string (self, "messageId");
}

/**
 * agui_event_get_tool_call_id:
 * @self: an event
 *
 * Returns: (nullable): the `toolCallId` member
 */
const char *
agui_event_get_tool_call_id (AguiEvent *self)
{
  return agui_event_get_string (self, "toolCallId");
}

/**
 * agui_event_get_delta:
 * @self: an event
 *
 * Returns: (nullable): the `delta` member when it is a string (text,
 *   reasoning and tool argument deltas)
 */
const char *
agui_event_get_delta (AguiEvent *self)
{
  return agui_event_get_string (self, "delta");
}

/**
 * agui_event_get_role:
 * @self: an event
 *
 * Returns: (nullable): the `role` member
 */
const char *
agui_event_get_role (AguiEvent *self)
{
  return agui_event_get_string (self, "role");
}

/**
 * agui_event_get_subagent_run_id:
 * @self: an event
 *
 * Returns: (nullable): the `subagentRunId` attribution, %NULL for the
 *   parent agent
 */
const char *
agui_event_get_subagent_run_id (AguiEvent *self)
{
  return agui_event_get_string (self, "subagentRunId");
}

/**
 * agui_event_get_metadata:
 * @self: an event
 *
 * Returns: (transfer none) (nullable): the `metadata` member
 */
JsonObject *
agui_event_get_metadata (AguiEvent *self)
{
  return agui_event_get_object_member (self, "metadata");
}

/**
 * agui_event_get_timestamp:
 * @self: an event
 * @timestamp: (out) (optional): where to store the timestamp
 *
 * Returns: %TRUE if the event carries a timestamp
 */
gboolean
agui_event_get_timestamp (AguiEvent *self,
                          gint64    *timestamp)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, FALSE);

  if (flat_only (self, "timestamp"))
    {
      const AguiFlatMember *member = flat_lookup (self, "timestamp");

      if (member == NULL || member->kind == AGUI_FLAT_STRING || member->kind == AGUI_FLAT_BOOLEAN)
        return FALSE;

      if (timestamp != NULL)
        *timestamp = member->kind == AGUI_FLAT_DOUBLE ? (gint64) member->number : member->integer;

      return TRUE;
    }

  if (self->tree != NULL)
    {
      const AguiJsonValue *value = tree_lookup (self, "timestamp");

      if (value == NULL || (value->kind != AGUI_JSON_DOC_INT && value->kind != AGUI_JSON_DOC_DOUBLE))
        return FALSE;

      if (timestamp != NULL)
        *timestamp = value->kind == AGUI_JSON_DOC_DOUBLE ? (gint64) value->u.number : value->u.integer;

      return TRUE;
    }

  node = json_object_get_member (ensure_object (self), "timestamp");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (timestamp != NULL)
    {
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        *timestamp = (gint64) json_node_get_double (node);
      else
        *timestamp = json_node_get_int (node);
    }

  return TRUE;
}

/**
 * agui_event_to_json:
 * @self: an event
 *
 * Returns: (transfer full): a new JSON object node holding a copy of the
 *   event's members
 */
JsonNode *
agui_event_to_json (AguiEvent *self)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, ensure_object (self));

  return node;
}

/**
 * agui_event_to_string:
 * @self: an event
 *
 * Returns: (transfer full): the event as compact JSON, as an AG-UI encoder
 *   would write it in an SSE frame
 */
char *
agui_event_to_string (AguiEvent *self)
{
  g_autoptr(GString) out = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_new (NULL);
  if (_agui_event_append_json (self, out, NULL))
    return g_string_free (g_steal_pointer (&out), FALSE);

  /* A number that is not finite, which only json-glib writes. */
  node = agui_event_to_json (self);

  return json_to_string (node, FALSE);
}
