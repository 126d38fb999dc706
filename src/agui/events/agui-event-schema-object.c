/* agui-event-schema-object.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-event-private.h"

/* Schema enforcement on an event held as a JsonObject, until the event
 * reader and AguiEvent hold nested events as trees: the one walk
 * (agui-event-schema.c) on a tree copied from the object, the result
 * written back. This file goes when its callers do.
 *
 * Faithful both ways: json-glib and the tree both keep an integer as a
 * gint64 and any other number as a double, a string as its bytes (no
 * U+0000 in either; lone-surrogate markers are bytes like any other),
 * members in insertion order, and a converted integer keeps its place in
 * both. */

/* A payload the walk does not look into (a state snapshot, an activity's
 * content, rawEvent, a member it removes) is copied as its kind alone and
 * written back as the very node it was: the copy costs what the walk
 * reads, not the payload's size. */
static gboolean
held_by_kind (AguiEventType  type,
              const char    *name,
              JsonNode      *node)
{
  return (JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node)) &&
         !_agui_event_schema_walks_into (type, name);
}

gboolean
_agui_event_schema_enforce (AguiEventType   type,
                            JsonObject     *members,
                            GPtrArray      *warnings,
                            GError        **error)
{
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  gboolean changed = FALSE;
  gboolean valid;

  g_return_val_if_fail ((guint) type <= AGUI_EVENT_SUBAGENT_ERROR, FALSE);
  g_return_val_if_fail (members != NULL, FALSE);

  object = _agui_json_value_set_object (&tree, json_object_get_size (members));
  json_object_iter_init_ordered (&iter, members);
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      AguiJsonValue member = AGUI_JSON_VALUE_INIT;

      if (!held_by_kind (type, name, node))
        _agui_json_value_set_node (&member, node);
      else if (JSON_NODE_HOLDS_OBJECT (node))
        _agui_json_value_set_object (&member, 0);
      else
        _agui_json_value_set_array (&member, 0);
      _agui_json_object_append (object, name, &member);
    }

  valid = _agui_event_schema_enforce_tree_full (type, object, warnings, &changed, error);

  /* Only what the walk changed is written back: a removed member is
   * removed, a member the walk looked into is replaced, and so is an
   * integer it converted; json_object_set_member () keeps a member's
   * place. An event nothing changed keeps all its nodes, as the walk on
   * the JsonObject itself left them. */
  if (valid && changed)
    {
      g_autoptr(GList) names = json_object_get_members (members);

      for (const GList *l = names; l != NULL; l = l->next)
        {
          /* the name is the object's own, freed by the removal */
          g_autofree char *member_name = g_strdup (l->data);
          JsonNode *original = json_object_get_member (members, member_name);
          int slot = _agui_json_object_find (object, member_name);
          const AguiJsonValue *value;

          if (slot < 0)
            {
              json_object_remove_member (members, member_name);
              continue;
            }

          value = _agui_json_object_slot_value (object, slot);
          if (held_by_kind (type, member_name, original) ||
              (JSON_NODE_HOLDS_VALUE (original) &&
               !(value->kind == AGUI_JSON_DOC_INT &&
                 json_node_get_value_type (original) == G_TYPE_DOUBLE)))
            continue;

          json_object_set_member (members, member_name, _agui_json_value_to_node (value));
        }
    }

  _agui_json_value_clear (&tree);

  return valid;
}
