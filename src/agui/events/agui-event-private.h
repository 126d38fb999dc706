/* agui-event-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"
#include "agui-event-reader-private.h"
#include "agui-patch-reader-private.h"

G_BEGIN_DECLS

/* Copies @members and @arena into one allocation. The members must already
 * satisfy the schema (see _agui_event_schema_enforce_flat ()). */
AguiEvent *_agui_event_new_flat (AguiEventType          type,
                                 const AguiFlatMember  *members,
                                 guint                  n_members,
                                 const char            *arena,
                                 gsize                  arena_length);

/* A STATE_DELTA (or any event with one array member "delta" after its
 * flat members) whose patch the patch reader read: @raw is the array's
 * JSON text, @ops its operations (@ops is emptied), @op_strings their
 * strings. */
AguiEvent *_agui_event_new_patch      (AguiEventType          type,
                                       const AguiFlatMember  *members,
                                       guint                  n_members,
                                       const char            *arena,
                                       gsize                  arena_length,
                                       const char            *raw,
                                       gsize                  raw_length,
                                       GArray                *ops,
                                       GString               *op_strings);
/* The operations of an event made by _agui_event_new_patch (), else NULL;
 * @patch: the text their values are in. */
const AguiPatchOp *_agui_event_get_patch_ops (AguiEvent   *self,
                                              guint       *n_ops,
                                              const char **strings,
                                              const char **patch);

/* A copy of agui_event_get_member (@self, @name), %NULL when absent: a
 * flat event builds that one node, not its whole JsonObject. */
JsonNode  *_agui_event_dup_member      (AguiEvent     *self,
                                        const char    *name);

/* Member @name copied into @value (null before) as a compact tree, with
 * no JsonNode for a flat event; FALSE when the member is absent. */
gboolean   _agui_event_member_to_value (AguiEvent     *self,
                                        const char    *name,
                                        AguiJsonValue *value);

/* The member @name of a tree event, borrowed for the event's life; NULL
 * when absent, and for a flat event (whose members are scalars, to be
 * read with the typed getters) and a patch event's "delta" (see
 * _agui_event_get_patch_ops ()). Reads without building a JsonObject. */
const AguiJsonValue *_agui_event_peek_member (AguiEvent  *self,
                                              const char *name);

/* %TRUE if the member is present and holds null, without building the
 * event's JsonObject. */
gboolean   _agui_event_member_is_null (AguiEvent     *self,
                                       const char    *name);

/* An event with members that are objects, arrays or null, read from a
 * frame, or one the library builds itself (the chunk normalizer, the
 * compactor, the reducer, an export's journal): takes @members, one
 * object of the compact tree, leaving it null; "type" is set here. What
 * was read must satisfy the schema (_agui_event_schema_enforce_tree ());
 * what the library builds, it builds valid, unchecked. Its JsonObject is
 * built only when asked for. */
AguiEvent *_agui_event_new_tree    (AguiEventType   type,
                                    AguiJsonValue  *members);

/* agui_event_new () for members already in the compact tree: takes
 * @members (an object; "type" is set here), checks them against the
 * schema as if they had arrived on the wire. */
AguiEvent *_agui_event_new_checked (AguiEventType   type,
                                    AguiJsonValue  *members,
                                    GError        **error);

/* An event the store kept, read from its JSON @json without the schema
 * (it passed it when it was made); NULL, with @error saying why, for text
 * that is not an object of a known event type. */
AguiEvent *_agui_event_new_from_stored (const char     *json,
                                        gsize           length,
                                        GError        **error);

/* Walks an event's member names in order without building its
 * JsonObject: for (name = _agui_event_member_iter_init (&iter, event);
 * name != NULL; name = _agui_event_member_iter_next (&iter)). */
typedef struct
{
  AguiEvent *event;
  guint      next;
} AguiEventMemberIter;

const char *_agui_event_member_iter_init (AguiEventMemberIter *iter,
                                          AguiEvent           *event);
const char *_agui_event_member_iter_next (AguiEventMemberIter *iter);

/* All of @self's members, "type" included, in order, copied into @tree
 * (null before) as one object: to build a changed event from. */
void       _agui_event_copy_tree (AguiEvent     *self,
                                  AguiJsonValue *tree);

/* Appends the event as compact JSON, the bytes _agui_json_to_string ()
 * writes for agui_event_to_json (@self), without building its JsonObject.
 * FALSE, with @error and @out holding part of it, for what that refuses
 * (a number that is not finite). */
gboolean   _agui_event_append_json (AguiEvent *self,
                                    GString   *out,
                                    GError   **error);

/* Schema enforcement (agui-event-schema.c): strips unknown members with a
 * warning each, then validates what is left. @members is the event object
 * including "type", changed in place (a removed member may leave a hole in
 * a large object, see _agui_json_object_compact ()). */
gboolean   _agui_event_schema_enforce_tree (AguiEventType       type,
                                            AguiJsonDocObject  *members,
                                            GPtrArray          *warnings,
                                            GError            **error);

/* The same checks as _agui_event_schema_enforce_tree () on a flat event,
 * with the same warnings and errors: unknown members are removed from @members
 * (n_members shrinks), an integer written as a double becomes an integer. */
gboolean   _agui_event_schema_enforce_flat (AguiEventType    type,
                                            AguiFlatMember  *members,
                                            guint           *n_members,
                                            const char      *arena,
                                            GPtrArray       *warnings,
                                            GError         **error);

G_END_DECLS
