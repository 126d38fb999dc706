/* agui-json-doc-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-doc-access-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"

/* JSON Patch (RFC 6902) over the compact tree (agui-json-doc.c): the
 * shared state, each activity's content and the demo agent's state.
 * Pointers are read by agui-json-pointer.c. The public API hands out
 * json-glib nodes built from these trees, never patched in place.
 *
 * Atomicity: each primitive change records how to undo itself; on failure
 * the log is replayed backwards, which puts back the very values and
 * member order. A removed object member leaves a hole in its slot until
 * the patch has succeeded, so every slot number in the log stays valid;
 * objects are compacted after that (each hole costs one move, once).
 *
 * Cost: finding a member is O(1) (an object's hash index), so an object
 * operation is O(depth of its path) plus its value; an array keeps room at
 * both ends, so inserting or removing at either end is O(1) amortised and
 * elsewhere moves the shorter side once per run of inserts at one place
 * (add /a/0 again and again); `move` moves the value rather than copying
 * it, measuring it only when it goes deeper than it was.
 *
 * Bounds (agui-json-doc-private.h): before an operation changes anything,
 * the value it puts in place is measured (which its copy or conversion
 * costs anyway) against the depth its path leaves and the size cap; the
 * document's size is a running total that each change adjusts by what it
 * adds and takes, restored with the rest on failure. */

typedef enum
{
  UNDO_ROOT,           /* value: the previous root */
  UNDO_OBJECT_APPEND,  /* a member was appended to object */
  UNDO_OBJECT_REPLACE, /* value: the previous value at slot */
  UNDO_OBJECT_REMOVE,  /* value: the value taken from slot, now a hole */
  UNDO_ARRAY_INSERT,   /* count elements were inserted at index */
  UNDO_ARRAY_REMOVE,   /* value: the element taken from index */
  UNDO_ARRAY_REPLACE,  /* value: the previous element at index */
} UndoKind;

typedef struct
{
  UndoKind       kind;
  /* The value this change put in place (or took out) is the one a move
   * carries: undoing takes it into PatchContext.carry instead of freeing
   * it, and the change before it (the move's remove) takes it back. */
  gboolean       moved;
  gpointer       container;
  guint          index;   /* a slot, for an object */
  guint          count;
  AguiJsonValue  value;
} UndoEntry;

/* Inserts into one array at one place, in a row, held until anything
 * else comes, then put in at once: front in reverse order, then back. */
typedef struct
{
  AguiJsonDocArray *array;
  char             *parent;  /* the pointer of the array, as written */
  guint             index;
  GArray           *front;
  GArray           *back;
} InsertRun;

typedef struct
{
  AguiJsonValue *document;
  GArray        *undo;
  InsertRun      run;
  AguiJsonValue  carry;
  /* the running size estimate, and its cap (0: none) */
  gsize          size;
  gsize          max_size;
} PatchContext;

static void
undo_entry_clear (gpointer data)
{
  UndoEntry *entry = data;

  _agui_json_value_clear (&entry->value);
}

static const char *
value_describe (const AguiJsonValue *value)
{
  switch (value->kind)
    {
    case AGUI_JSON_DOC_OBJECT:
      return "an object";
    case AGUI_JSON_DOC_ARRAY:
      return "an array";
    case AGUI_JSON_DOC_NULL:
      return "null";
    case AGUI_JSON_DOC_BOOLEAN:
      return "a boolean";
    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      return "a string";
    default:
      return "a number";
    }
}

static gboolean
container_check (const AguiJsonValue  *value,
                 GPtrArray            *tokens,
                 guint                 depth,
                 GError              **error)
{
  g_autofree char *where = NULL;

  if (value->kind == AGUI_JSON_DOC_OBJECT || value->kind == AGUI_JSON_DOC_ARRAY)
    return TRUE;

  where = depth == 0 ? g_strdup ("the document") : _agui_json_pointer_describe (tokens, depth);
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
               "%s is %s, not an object or array",
               where, value_describe (value));

  return FALSE;
}

/* The child of the container @parent named by token @depth (borrowed,
 * until the next change), and its slot or index. */
static AguiJsonValue *
child_lookup (AguiJsonValue  *parent,
              GPtrArray      *tokens,
              guint           depth,
              guint          *index,
              GError        **error)
{
  const char *token = g_ptr_array_index (tokens, depth);

  if (!container_check (parent, tokens, depth, error))
    return NULL;

  if (parent->kind == AGUI_JSON_DOC_OBJECT)
    {
      int slot = _agui_json_object_find (parent->u.object, token);

      if (slot < 0)
        {
          g_autofree char *where = _agui_json_pointer_describe (tokens, depth);

          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                       "no member '%s' at %s", token, where);
          return NULL;
        }

      *index = (guint) slot;
      return _agui_json_object_slot_value (parent->u.object, *index);
    }

  if (!_agui_json_array_index_resolve (tokens, depth, _agui_json_array_get_length (parent->u.array),
                                       FALSE, index, error))
    return NULL;

  return _agui_json_array_get (parent->u.array, *index);
}

static AguiJsonValue *
pointer_resolve (AguiJsonValue  *document,
                 GPtrArray      *tokens,
                 GError        **error)
{
  AguiJsonValue *value = document;

  for (guint i = 0; i < tokens->len && value != NULL; i++)
    {
      guint index;

      value = child_lookup (value, tokens, i, &index, error);
    }

  return value;
}

/* Bounds */

/* Checks that @value fits at a path of @n_tokens tokens, and adds its
 * size to @size. */
static gboolean
value_check_depth (const AguiJsonValue  *value,
                   guint                 n_tokens,
                   gsize                *size,
                   GError              **error)
{
  if (n_tokens <= AGUI_JSON_DOC_MAX_DEPTH &&
      _agui_json_value_measure (value, AGUI_JSON_DOC_MAX_DEPTH - n_tokens, size))
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
               "the document would be nested deeper than %d levels", AGUI_JSON_DOC_MAX_DEPTH);

  return FALSE;
}

static gsize
value_size (const AguiJsonValue *value)
{
  gsize size = 0;

  /* The document is within the bound, so this stops only at the end. */
  _agui_json_value_measure (value, AGUI_JSON_MAX_DEPTH, &size);

  return size;
}

/* Accounts for a change that adds @added bytes and takes @removed: fails,
 * changing nothing, when it would grow the document past its cap. */
static gboolean
size_change (PatchContext  *ctx,
             gsize          added,
             gsize          removed,
             GError       **error)
{
  gsize kept = ctx->size > removed ? ctx->size - removed : 0;

  if (added > removed && ctx->max_size > 0 && (kept > ctx->max_size || added > ctx->max_size - kept))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "the document would grow past its size limit of %" G_GSIZE_FORMAT " bytes",
                   ctx->max_size);
      return FALSE;
    }

  ctx->size = kept + added;

  return TRUE;
}

/* Undoable changes. Each takes the value it puts in place, leaving it
 * null. */

static UndoEntry *
undo_push (PatchContext *ctx,
           UndoKind      kind,
           gpointer      container,
           guint         index)
{
  UndoEntry entry = { .kind = kind, .container = container, .index = index };

  g_array_append_val (ctx->undo, entry);

  return &g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1);
}

static void
change_root (PatchContext  *ctx,
             AguiJsonValue *value)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ROOT, NULL, 0);

  entry->value = *ctx->document;
  *ctx->document = *value;
  value->kind = AGUI_JSON_DOC_NULL;
}

static void
change_object_set (PatchContext      *ctx,
                   AguiJsonDocObject *object,
                   const char        *name,
                   AguiJsonValue     *value)
{
  int slot = _agui_json_object_find (object, name);
  UndoEntry *entry;

  if (slot < 0)
    {
      undo_push (ctx, UNDO_OBJECT_APPEND, object, 0);
      _agui_json_object_append (object, name, value);
      return;
    }

  /* Replacing keeps the member's place. */
  entry = undo_push (ctx, UNDO_OBJECT_REPLACE, object, (guint) slot);
  entry->value = *_agui_json_object_slot_value (object, (guint) slot);
  *_agui_json_object_slot_value (object, (guint) slot) = *value;
  value->kind = AGUI_JSON_DOC_NULL;
}

static void
change_array_insert (PatchContext     *ctx,
                     AguiJsonDocArray *array,
                     guint             index,
                     AguiJsonValue    *values,
                     guint             count)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ARRAY_INSERT, array, index);

  entry->count = count;
  _agui_json_array_insert_many (array, index, values, count);
}

static void
change_array_replace (PatchContext     *ctx,
                      AguiJsonDocArray *array,
                      guint             index,
                      AguiJsonValue    *value)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ARRAY_REPLACE, array, index);
  AguiJsonValue *element = _agui_json_array_get (array, index);

  entry->value = *element;
  *element = *value;
  value->kind = AGUI_JSON_DOC_NULL;
}

/* Insert runs */

static void
insert_run_drop (PatchContext *ctx)
{
  if (ctx->run.front == NULL)
    return;

  for (guint i = 0; i < ctx->run.front->len; i++)
    _agui_json_value_clear (&g_array_index (ctx->run.front, AguiJsonValue, i));
  for (guint i = 0; i < ctx->run.back->len; i++)
    _agui_json_value_clear (&g_array_index (ctx->run.back, AguiJsonValue, i));
  g_array_set_size (ctx->run.front, 0);
  g_array_set_size (ctx->run.back, 0);
  ctx->run.array = NULL;
  g_clear_pointer (&ctx->run.parent, g_free);
}

static guint
insert_run_length (PatchContext *ctx)
{
  return ctx->run.front->len + ctx->run.back->len;
}

static void
insert_run_flush (PatchContext *ctx)
{
  g_autoptr(GArray) values = NULL;
  guint length;

  if (ctx->run.array == NULL)
    return;

  length = insert_run_length (ctx);
  values = g_array_sized_new (FALSE, FALSE, sizeof (AguiJsonValue), length);
  for (guint i = ctx->run.front->len; i > 0; i--)
    g_array_append_val (values, g_array_index (ctx->run.front, AguiJsonValue, i - 1));
  g_array_append_vals (values, ctx->run.back->data, ctx->run.back->len);
  g_array_set_size (ctx->run.front, 0);
  g_array_set_size (ctx->run.back, 0);

  change_array_insert (ctx, ctx->run.array, ctx->run.index,
                       (AguiJsonValue *) (gpointer) values->data, length);
  insert_run_drop (ctx);
}

static gsize
parent_length (const char *path)
{
  return strrchr (path, '/') - path;
}

static void
insert_run_start (PatchContext     *ctx,
                  const char       *path,
                  AguiJsonDocArray *array,
                  guint             index,
                  AguiJsonValue    *value)
{
  g_assert (ctx->run.array == NULL);

  ctx->run.array = array;
  ctx->run.parent = g_strndup (path, parent_length (path));
  ctx->run.index = index;
  /* made on the first run: most patches have none */
  if (ctx->run.front == NULL)
    {
      ctx->run.front = g_array_new (FALSE, FALSE, sizeof (AguiJsonValue));
      ctx->run.back = g_array_new (FALSE, FALSE, sizeof (AguiJsonValue));
    }
  g_array_append_val (ctx->run.back, *value);
  value->kind = AGUI_JSON_DOC_NULL;
}

/* Whether "add" at @path continues the run: the same array, written the
 * same way (nothing else has happened since the run began, so the pointer
 * still leads to it), at the run's start (@front) or just after its end. */
static gboolean
insert_run_continues (PatchContext  *ctx,
                      const char    *path,
                      GPtrArray     *tokens,
                      gboolean      *front)
{
  const char *token;
  gsize length;
  guint index;

  if (ctx->run.array == NULL || tokens->len == 0)
    return FALSE;

  length = parent_length (path);
  if (length != strlen (ctx->run.parent) || strncmp (path, ctx->run.parent, length) != 0)
    return FALSE;

  token = g_ptr_array_index (tokens, tokens->len - 1);
  if (g_str_equal (token, "-"))
    index = _agui_json_array_get_length (ctx->run.array) + insert_run_length (ctx);
  else if (!_agui_json_array_index_parse (token, &index))
    return FALSE;

  if (index == ctx->run.index)
    *front = TRUE;
  else if (index == ctx->run.index + insert_run_length (ctx))
    *front = FALSE;
  else
    return FALSE;

  return TRUE;
}

static void
insert_run_take (PatchContext  *ctx,
                 gboolean       front,
                 AguiJsonValue *value)
{
  g_array_append_val (front ? ctx->run.front : ctx->run.back, *value);
  value->kind = AGUI_JSON_DOC_NULL;
}

/* Undo */

static void
undo_take (PatchContext  *ctx,
           UndoEntry     *entry,
           AguiJsonValue *taken)
{
  if (entry->moved)
    _agui_json_value_move (&ctx->carry, taken);
  else
    _agui_json_value_clear (taken);
}

static void
undo_all (PatchContext *ctx)
{
  for (guint i = ctx->undo->len; i > 0; i--)
    {
      UndoEntry *entry = &g_array_index (ctx->undo, UndoEntry, i - 1);
      AguiJsonValue taken = AGUI_JSON_VALUE_INIT;

      /* A move's remove: its value is the one the add after it carried. */
      if (entry->moved && (entry->kind == UNDO_OBJECT_REMOVE || entry->kind == UNDO_ARRAY_REMOVE))
        _agui_json_value_move (&entry->value, &ctx->carry);

      switch (entry->kind)
        {
        case UNDO_ROOT:
          taken = *ctx->document;
          *ctx->document = entry->value;
          entry->value.kind = AGUI_JSON_DOC_NULL;
          undo_take (ctx, entry, &taken);
          break;

        case UNDO_OBJECT_APPEND:
          _agui_json_object_pop (entry->container, &taken);
          undo_take (ctx, entry, &taken);
          break;

        case UNDO_OBJECT_REPLACE:
          {
            AguiJsonValue *slot = _agui_json_object_slot_value (entry->container, entry->index);

            taken = *slot;
            *slot = entry->value;
            entry->value.kind = AGUI_JSON_DOC_NULL;
            undo_take (ctx, entry, &taken);
          }
          break;

        case UNDO_OBJECT_REMOVE:
          _agui_json_object_restore_slot (entry->container, entry->index, &entry->value);
          break;

        case UNDO_ARRAY_INSERT:
          if (entry->moved)
            {
              g_assert (entry->count == 1);
              _agui_json_array_remove (entry->container, entry->index, &taken);
              undo_take (ctx, entry, &taken);
            }
          else
            {
              _agui_json_array_remove_many (entry->container, entry->index, entry->count);
            }
          break;

        case UNDO_ARRAY_REMOVE:
          _agui_json_array_insert (entry->container, entry->index, &entry->value);
          break;

        case UNDO_ARRAY_REPLACE:
          {
            AguiJsonValue *element = _agui_json_array_get (entry->container, entry->index);

            taken = *element;
            *element = entry->value;
            entry->value.kind = AGUI_JSON_DOC_NULL;
            undo_take (ctx, entry, &taken);
          }
          break;

        default:
          g_assert_not_reached ();
        }
    }

  g_array_set_size (ctx->undo, 0);
}

/* After success: the holes removals left are closed, each object once
 * its holes are many enough. Every object named in the log is alive:
 * one taken out of the document is held by a later entry. */
static void
commit (PatchContext *ctx)
{
  for (guint i = 0; i < ctx->undo->len; i++)
    {
      UndoEntry *entry = &g_array_index (ctx->undo, UndoEntry, i);

      if (entry->kind == UNDO_OBJECT_REMOVE)
        _agui_json_object_compact (entry->container);
    }

  g_array_set_size (ctx->undo, 0);
}

/* Operations */

static AguiJsonValue *
parent_resolve_for_write (PatchContext  *ctx,
                          GPtrArray     *tokens,
                          GError       **error)
{
  AguiJsonValue *value = ctx->document;

  g_assert (tokens->len > 0);

  for (guint i = 0; i + 1 < tokens->len; i++)
    {
      guint index = 0;

      if (!(value = child_lookup (value, tokens, i, &index, error)))
        return NULL;
    }

  if (!container_check (value, tokens, tokens->len - 1, error))
    return NULL;

  return value;
}

/* Takes *@value on success; on failure leaves it to the caller. A move's
 * add (@moved) neither joins a run nor starts one. @size: the value's, 0
 * for a moved one (whose size never left the document). */
static gboolean
operation_add (PatchContext   *ctx,
               const char     *path,
               GPtrArray      *tokens,
               AguiJsonValue  *value,
               gsize           size,
               gboolean        moved,
               GError        **error)
{
  AguiJsonValue *parent;
  const char *token;
  guint index;

  if (tokens->len == 0)
    {
      /* What was the document is gone, but for the moved value. */
      if (moved)
        size = value_size (value);
      if (!size_change (ctx, size, ctx->size, error))
        return FALSE;
      change_root (ctx, value);
      g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1).moved = moved;
      return TRUE;
    }

  if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
    return FALSE;

  token = g_ptr_array_index (tokens, tokens->len - 1);

  if (parent->kind == AGUI_JSON_DOC_OBJECT)
    {
      int slot = _agui_json_object_find (parent->u.object, token);
      gsize removed = slot >= 0 ? value_size (_agui_json_object_slot_value (parent->u.object, (guint) slot))
                                : 0;
      gsize added = slot >= 0 ? size : size + _agui_json_member_overhead (token);

      if (!size_change (ctx, added, removed, error))
        return FALSE;
      change_object_set (ctx, parent->u.object, token, value);
      g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1).moved = moved;
      return TRUE;
    }

  if (!_agui_json_array_index_resolve (tokens, tokens->len - 1, _agui_json_array_get_length (parent->u.array),
                                       TRUE, &index, error))
    return FALSE;

  if (!size_change (ctx, size + 1, 0, error))
    return FALSE;

  if (!moved && index < _agui_json_array_get_length (parent->u.array))
    {
      insert_run_start (ctx, path, parent->u.array, index, value);
    }
  else
    {
      change_array_insert (ctx, parent->u.array, index, value, 1);
      g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1).moved = moved;
    }

  return TRUE;
}

/* Removes the value at @tokens, which must exist. With @moved, the value
 * goes to @removed and the undo log expects the next change to carry it;
 * else the log keeps it. */
static gboolean
operation_remove (PatchContext   *ctx,
                  GPtrArray      *tokens,
                  AguiJsonValue  *removed,
                  GError        **error)
{
  AguiJsonValue *parent;
  AguiJsonValue taken = AGUI_JSON_VALUE_INIT;
  UndoEntry *entry;
  guint index;

  if (tokens->len == 0)
    {
      AguiJsonValue null = AGUI_JSON_VALUE_INIT;

      /* The reference turns the document into null rather than failing;
       * a move from the root never gets here. */
      g_assert (removed == NULL);
      size_change (ctx, 4, ctx->size, NULL);
      change_root (ctx, &null);
      return TRUE;
    }

  if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
    return FALSE;

  if (!child_lookup (parent, tokens, tokens->len - 1, &index, error))
    return FALSE;

  /* A moved value's own size stays in the document: only its place's
   * goes. */
  if (parent->kind == AGUI_JSON_DOC_OBJECT)
    {
      gsize size = _agui_json_member_overhead (g_ptr_array_index (tokens, tokens->len - 1));

      if (removed == NULL)
        size += value_size (_agui_json_object_slot_value (parent->u.object, index));
      size_change (ctx, 0, size, NULL);
      entry = undo_push (ctx, UNDO_OBJECT_REMOVE, parent->u.object, index);
      _agui_json_object_remove_slot (parent->u.object, index, &taken);
    }
  else
    {
      gsize size = 1;

      if (removed == NULL)
        size += value_size (_agui_json_array_get (parent->u.array, index));
      size_change (ctx, 0, size, NULL);
      entry = undo_push (ctx, UNDO_ARRAY_REMOVE, parent->u.array, index);
      _agui_json_array_remove (parent->u.array, index, &taken);
    }

  if (removed != NULL)
    {
      entry->moved = TRUE;
      *removed = taken;
    }
  else
    {
      entry->value = taken;
    }

  return TRUE;
}

static gboolean
operation_replace (PatchContext   *ctx,
                   GPtrArray      *tokens,
                   AguiJsonValue  *value,
                   gsize           size,
                   GError        **error)
{
  AguiJsonValue *parent;
  AguiJsonValue *old;
  guint index;

  if (tokens->len == 0)
    {
      if (!size_change (ctx, size, ctx->size, error))
        return FALSE;
      change_root (ctx, value);
      return TRUE;
    }

  if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
    return FALSE;

  if (!(old = child_lookup (parent, tokens, tokens->len - 1, &index, error)))
    return FALSE;

  if (!size_change (ctx, size, value_size (old), error))
    return FALSE;

  if (parent->kind == AGUI_JSON_DOC_OBJECT)
    change_object_set (ctx, parent->u.object, g_ptr_array_index (tokens, tokens->len - 1), value);
  else
    change_array_replace (ctx, parent->u.array, index, value);

  return TRUE;
}

static gboolean
operation_move (PatchContext  *ctx,
                const char    *from,
                GPtrArray     *from_tokens,
                const char    *path,
                GPtrArray     *tokens,
                GError       **error)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  gsize from_length = strlen (from);
  gsize size = 0;
  UndoEntry *entry;

  /* Escaping is canonical, so comparing the pointers as strings compares
   * their tokens. */
  if (strncmp (path, from, from_length) == 0 && path[from_length] == '/')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "cannot move a value into its own child");
      return FALSE;
    }

  if (g_str_equal (path, from))
    return pointer_resolve (ctx->document, from_tokens, error) != NULL;

  /* From the root to anywhere else is into its own child. */
  g_assert (from_tokens->len > 0);

  if (!operation_remove (ctx, from_tokens, &value, error))
    return FALSE;

  /* Only a value that goes deeper than it was may nest too deep, so only
   * that one is measured: moving costs O(1) otherwise. */
  if ((tokens->len <= from_tokens->len || value_check_depth (&value, tokens->len, &size, error)) &&
      operation_add (ctx, path, tokens, &value, 0, TRUE, error))
    return TRUE;

  /* Nothing carries the value now: the remove's entry keeps it. */
  entry = &g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1);
  entry->moved = FALSE;
  entry->value = value;

  return FALSE;
}

/* @value: the operation's value, owned (NULL when it has none). */
static gboolean
operation_apply (PatchContext   *ctx,
                 AguiJsonValue  *value,
                 const char     *op,
                 const char     *path,
                 const char     *from,
                 GError        **error)
{
  g_autoptr(GPtrArray) tokens = NULL;
  g_autoptr(GPtrArray) from_tokens = NULL;
  gboolean needs_value;
  gboolean needs_from;
  AguiJsonValue *target;
  gsize size = 0;

  needs_value = g_str_equal (op, "add") || g_str_equal (op, "replace") || g_str_equal (op, "test");
  needs_from = g_str_equal (op, "move") || g_str_equal (op, "copy");

  if (!needs_value && !needs_from && !g_str_equal (op, "remove"))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH, "unknown op '%s'", op);
      return FALSE;
    }

  if (needs_from && from == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH, "missing string member 'from'");
      return FALSE;
    }

  if (needs_value && value == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH, "missing member 'value'");
      return FALSE;
    }

  if (!(tokens = _agui_json_pointer_parse (path, error)))
    return FALSE;

  if (needs_from && !(from_tokens = _agui_json_pointer_parse (from, error)))
    return FALSE;

  if ((g_str_equal (op, "add") || g_str_equal (op, "replace")) &&
      !value_check_depth (value, tokens->len, &size, error))
    return FALSE;

  if (g_str_equal (op, "add"))
    {
      gboolean front;

      if (insert_run_continues (ctx, path, tokens, &front))
        {
          if (!size_change (ctx, size + 1, 0, error))
            return FALSE;
          insert_run_take (ctx, front, value);
          return TRUE;
        }

      insert_run_flush (ctx);
      return operation_add (ctx, path, tokens, value, size, FALSE, error);
    }

  /* Anything else may read or change the array of a run. */
  insert_run_flush (ctx);

  if (g_str_equal (op, "remove"))
    return operation_remove (ctx, tokens, NULL, error);

  if (g_str_equal (op, "replace"))
    return operation_replace (ctx, tokens, value, size, error);

  if (g_str_equal (op, "move"))
    return operation_move (ctx, from, from_tokens, path, tokens, error);

  if (g_str_equal (op, "copy"))
    {
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;
      AguiJsonValue *source;
      gboolean added;

      if (!(source = pointer_resolve (ctx->document, from_tokens, error)))
        return FALSE;

      /* Measured before it is copied: a copy may not nest the document
       * deeper, and one past the size cap is refused by operation_add ()
       * at the cost of one copy below the cap at most. */
      if (!value_check_depth (source, tokens->len, &size, error))
        return FALSE;

      _agui_json_value_copy (&copy, source);
      added = operation_add (ctx, path, tokens, &copy, size, FALSE, error);
      _agui_json_value_clear (&copy);
      return added;
    }

  g_assert (g_str_equal (op, "test"));

  if (!(target = pointer_resolve (ctx->document, tokens, error)))
    return FALSE;

  if (!_agui_json_value_equal (target, value))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "the value differs from the expected one");
      return FALSE;
    }

  return TRUE;
}

static gboolean
operation_apply_named (PatchContext   *ctx,
                       guint           position,
                       AguiJsonValue  *value,
                       const char     *op,
                       const char     *path,
                       const char     *from,
                       GError        **error)
{
  g_autoptr(GError) local_error = NULL;

  if (operation_apply (ctx, value, op, path, from, &local_error))
    return TRUE;

  _agui_json_patch_prefix_error (error, g_steal_pointer (&local_error), position, op, path, from);

  return FALSE;
}

static gboolean
patch_element_apply (PatchContext  *ctx,
                     guint          position,
                     JsonNode      *element,
                     GError       **error)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  JsonNode *value_node;
  const char *op, *path, *from;
  gboolean applied;

  if (!_agui_json_patch_read_operation (element, position, &op, &path, &from, &value_node, error))
    return FALSE;

  if (value_node != NULL)
    _agui_json_value_set_node (&value, value_node);

  applied = operation_apply_named (ctx, position, value_node != NULL ? &value : NULL,
                                   op, path, from, error);
  _agui_json_value_clear (&value);

  return applied;
}

static void
context_init (PatchContext      *ctx,
              AguiJsonValue     *document,
              AguiJsonDocBounds *bounds)
{
  ctx->document = document;
  ctx->max_size = bounds != NULL ? bounds->max_size : AGUI_JSON_DOC_DEFAULT_MAX_SIZE;
  ctx->size = bounds != NULL ? bounds->size : value_size (document);
  ctx->undo = g_array_new (FALSE, TRUE, sizeof (UndoEntry));
  g_array_set_clear_func (ctx->undo, undo_entry_clear);
  ctx->run.array = NULL;
  ctx->run.parent = NULL;
  ctx->run.front = NULL;
  ctx->run.back = NULL;
  ctx->carry.kind = AGUI_JSON_DOC_NULL;
}

static gboolean
context_finish (PatchContext      *ctx,
                AguiJsonDocBounds *bounds,
                gboolean           applied)
{
  if (applied)
    {
      insert_run_flush (ctx);
      commit (ctx);
      if (bounds != NULL)
        bounds->size = ctx->size;
    }
  else
    {
      /* A run not yet in its array has changed nothing. */
      insert_run_drop (ctx);
      undo_all (ctx);
    }

  g_assert (ctx->carry.kind == AGUI_JSON_DOC_NULL);
  g_array_unref (ctx->undo);
  g_clear_pointer (&ctx->run.front, g_array_unref);
  g_clear_pointer (&ctx->run.back, g_array_unref);

  return applied;
}

gboolean
_agui_json_doc_patch_apply (AguiJsonValue      *document,
                            AguiJsonDocBounds  *bounds,
                            JsonArray          *patch,
                            GError            **error)
{
  PatchContext ctx;
  gboolean applied = TRUE;
  guint length;

  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (patch != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  context_init (&ctx, document, bounds);

  length = json_array_get_length (patch);
  for (guint i = 0; i < length && applied; i++)
    applied = patch_element_apply (&ctx, i, json_array_get_element (patch, i), error);

  return context_finish (&ctx, bounds, applied);
}

/* As patch_element_apply () for an operation in the compact tree, with
 * the same checks and errors as _agui_json_patch_read_operation (). */
static gboolean
patch_value_apply (PatchContext         *ctx,
                   guint                 position,
                   const AguiJsonValue  *element,
                   GError              **error)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;
  const AguiJsonValue *value_member;
  const char *op, *path, *from;
  gboolean applied;

  if (element->kind != AGUI_JSON_DOC_OBJECT)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u: not an object", position);
      return FALSE;
    }

  op = _agui_json_doc_get_string (element, "op");
  path = _agui_json_doc_get_string (element, "path");
  from = _agui_json_doc_get_string (element, "from");
  value_member = _agui_json_doc_get_member (element, "value");

  if (op == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u: missing string member 'op'", position);
      return FALSE;
    }

  if (path == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u (%s): missing string member 'path'", position, op);
      return FALSE;
    }

  if (value_member != NULL)
    _agui_json_value_copy (&value, value_member);

  applied = operation_apply_named (ctx, position, value_member != NULL ? &value : NULL,
                                   op, path, from, error);
  _agui_json_value_clear (&value);

  return applied;
}

gboolean
_agui_json_doc_patch_apply_value (AguiJsonValue        *document,
                                  AguiJsonDocBounds    *bounds,
                                  const AguiJsonValue  *patch,
                                  GError              **error)
{
  PatchContext ctx;
  gboolean applied = TRUE;
  guint length;

  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (patch != NULL && patch->kind == AGUI_JSON_DOC_ARRAY, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  context_init (&ctx, document, bounds);

  length = _agui_json_array_get_length (patch->u.array);
  for (guint i = 0; i < length && applied; i++)
    applied = patch_value_apply (&ctx, i, _agui_json_array_get (patch->u.array, i), error);

  return context_finish (&ctx, bounds, applied);
}

gboolean
_agui_json_doc_patch_apply_ops (AguiJsonValue      *document,
                                AguiJsonDocBounds  *bounds,
                                const AguiPatchOp  *ops,
                                guint               n_ops,
                                const char         *strings,
                                const char         *patch,
                                GError            **error)
{
  PatchContext ctx;
  gboolean applied = TRUE;

  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  context_init (&ctx, document, bounds);

  for (guint i = 0; i < n_ops && applied; i++)
    {
      const AguiPatchOp *op = &ops[i];
      const char *from = op->from != AGUI_PATCH_NO_STRING ? strings + op->from : NULL;
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;
      gboolean has_value = op->kind == AGUI_PATCH_ADD || op->kind == AGUI_PATCH_REPLACE ||
                           op->kind == AGUI_PATCH_TEST;

      /* Read from the patch's text straight into the tree; a value that
       * cannot be read is missing, as it was when values became nodes. */
      if (has_value && !_agui_patch_op_read_value (op, patch, &value))
        has_value = FALSE;

      applied = operation_apply_named (&ctx, i, has_value ? &value : NULL,
                                       _agui_patch_op_name (op->kind), strings + op->path, from, error);
      _agui_json_value_clear (&value);
    }

  return context_finish (&ctx, bounds, applied);
}
