/* agui-json-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-json-private.h"
#include "agui-json-patch-private.h"

/* JSON Patch (RFC 6902) and JSON Pointer (RFC 6901) over JsonNode, for
 * the public API (and so ACTIVITY_DELTA and the demo agent, whose small
 * documents are JsonNodes callers hold). The shared state is patched by
 * agui-json-doc-patch.c over its own tree, with these pointer functions,
 * the same semantics and the same messages; tests/test-json-patch.c and
 * the fuzzer hold the two to that.
 *
 * Atomicity and cost. The reducer applies one STATE_DELTA per event while a
 * run streams, so copying the whole state for every delta (what the
 * reference does, AG-UI.md section 15) would make each delta cost as much as
 * the state is big. Instead the operations are applied to the document in
 * place, and every primitive change (set, remove or insert one object member
 * or array element, replace the root) first records how to undo itself in
 * an undo log. On success the log is dropped; on failure it is replayed
 * backwards, which puts back the very same nodes, containers and member
 * order, so the caller's document is exactly as it was. A patch therefore
 * costs what its operations touch: the nodes along each path, a deep copy of
 * each `value` (and of each `copy` source), and the json-glib container
 * operations themselves. Those are linear in the size of the one container
 * touched: json-glib finds object members by name in a list when replacing
 * or removing them, and JsonArray has no insert, so inserting into an array
 * pops and pushes back the elements after the index. Restoring a removed
 * object member at its old position is linear in that object too, but only
 * happens on failure.
 *
 * Sealed (immutable) containers are never modified: when a path goes
 * through one, that container alone is replaced by a shallow copy (its
 * children are shared, not copied), which is itself an undoable change to
 * its parent, or to the root. Note that json_node_copy() is shallow in
 * json-glib 1.6 (it shares the object or array), so values that go into the
 * document are copied with node_copy_deep() below, never json_node_copy():
 * the document must not alias the patch, nor two places in itself.
 *
 * Pointer syntax follows RFC 6901 strictly: array indices are "0" or digits
 * without a leading zero. The reference accepts "01" as index 1; no fixture
 * depends on that and a client may be stricter (AG-UI.md section 15).
 * Like the reference, a "__proto__" token anywhere in a pointer used by a
 * patch or by agui_json_pointer_get() is refused, so a patch that the
 * reference rejects is rejected here too. Operation indices in error
 * messages start at 0, as in the reference's own messages.
 */

typedef enum
{
  UNDO_ROOT,          /* node: the previous root */
  UNDO_OBJECT_SET,    /* node: the member's previous value, NULL if it was added */
  UNDO_OBJECT_REMOVE, /* node: the removed value, index: its position */
  UNDO_ARRAY_INSERT,  /* index: where an element was inserted */
  UNDO_ARRAY_REMOVE,  /* node: the removed element, index: its position */
  UNDO_ARRAY_SET,     /* node: the element previously at index */
  UNDO_NODE_SET,      /* target: a node given new content, node: its old content */
  UNDO_ARRAY_INSERT_RUN, /* index, count: count elements were inserted at index */
} UndoKind;

typedef struct
{
  UndoKind    kind;
  JsonObject *object;
  JsonArray  *array;
  char       *name;
  guint       index;
  guint       count;
  JsonNode   *node;
  JsonNode   *target;
} UndoEntry;

/* Inserts into one array at one place, in a row (add /a/0 again and
 * again, or at increasing indices), are held in a queue and put into the
 * array at once when anything else comes: json-glib's JsonArray has no
 * insert, so each insert on its own costs the length of the array. */
typedef struct
{
  JsonArray *array;
  char      *parent;        /* the pointer of the array, as written */
  guint      index;         /* where the run goes */
  GQueue     nodes;
} InsertRun;

typedef struct
{
  JsonNode **document;
  GArray    *undo;
  InsertRun  run;
  /* as in agui-json-doc-patch.c, when the caller keeps a size */
  gboolean   sized;
  gsize      size;
  gsize      max_size;
} PatchContext;

static void
undo_entry_clear (gpointer data)
{
  UndoEntry *entry = data;

  g_clear_pointer (&entry->object, json_object_unref);
  g_clear_pointer (&entry->array, json_array_unref);
  g_clear_pointer (&entry->name, g_free);
  g_clear_pointer (&entry->node, json_node_unref);
  g_clear_pointer (&entry->target, json_node_unref);
}

static const char *
node_type_describe (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return "a boolean";
    case G_TYPE_STRING:
      return "a string";
    default:
      return "a number";
    }
}

/* JSON Pointer */

static GPtrArray *
pointer_parse (const char *pointer)
{
  /* sized for the usual few tokens, so that adding them never grows it */
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_full (8, g_free);
  const char *p = pointer;

  if (*p == '\0')
    return g_steal_pointer (&tokens);
  if (*p != '/')
    return NULL;

  /* Decoding left to right in one pass is what RFC 6901 asks for when it
   * says to turn ~1 into / before ~0 into ~: "~01" must become "~1". */
  while (*p == '/')
    {
      const char *start = ++p;
      GString *token;

      /* Nearly every token has no escape: copied at once. */
      while (*p != '\0' && *p != '/' && *p != '~')
        p++;
      if (*p != '~')
        {
          char *plain = g_malloc (p - start + 1);

          memcpy (plain, start, p - start);
          plain[p - start] = '\0';
          g_ptr_array_add (tokens, plain);
          continue;
        }

      token = g_string_new_len (start, p - start);
      for (; *p != '\0' && *p != '/'; p++)
        {
          if (*p != '~')
            g_string_append_c (token, *p);
          else if (p[1] == '0' || p[1] == '1')
            g_string_append_c (token, *++p == '0' ? '~' : '/');
          else
            {
              g_string_free (token, TRUE);
              return NULL;
            }
        }

      g_ptr_array_add (tokens, g_string_free (token, FALSE));
    }

  return g_steal_pointer (&tokens);
}

static GPtrArray *
pointer_parse_checked (const char  *pointer,
                       GError     **error)
{
  g_autoptr(GPtrArray) tokens = NULL;

  if (!(tokens = pointer_parse (pointer)))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'%s' is not a JSON pointer", pointer);
      return NULL;
    }

  for (guint i = 0; i < tokens->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (tokens, i), "__proto__"))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                       "'__proto__' is not allowed in a path");
          return NULL;
        }
    }

  return g_steal_pointer (&tokens);
}

/* The pointer made of the first @n_tokens tokens, for error messages. */
static char *
pointer_describe (GPtrArray *tokens,
                  guint      n_tokens)
{
  GString *string;

  if (n_tokens == 0)
    return g_strdup ("the root");

  string = g_string_new (NULL);
  for (guint i = 0; i < n_tokens; i++)
    {
      const char *token = g_ptr_array_index (tokens, i);

      g_string_append_c (string, '/');
      for (const char *p = token; *p != '\0'; p++)
        {
          if (*p == '~')
            g_string_append (string, "~0");
          else if (*p == '/')
            g_string_append (string, "~1");
          else
            g_string_append_c (string, *p);
        }
    }

  return g_string_free (string, FALSE);
}

/* Indices larger than any array are clamped to G_MAXUINT so that callers
 * report them as out of range rather than as malformed. */
static gboolean
array_index_parse (const char *token,
                   guint      *index)
{
  guint64 value = 0;

  if (token[0] == '\0')
    return FALSE;
  /* RFC 6901 forbids leading zeros; see the comment at the top. */
  if (token[0] == '0' && token[1] != '\0')
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (value <= G_MAXUINT)
        value = value * 10 + (guint64) (*p - '0');
    }

  *index = (guint) MIN (value, (guint64) G_MAXUINT);

  return TRUE;
}

GPtrArray *
_agui_json_pointer_parse (const char  *pointer,
                          GError     **error)
{
  return pointer_parse_checked (pointer, error);
}

char *
_agui_json_pointer_describe (GPtrArray *tokens,
                             guint      n_tokens)
{
  return pointer_describe (tokens, n_tokens);
}

gboolean
_agui_json_array_index_parse (const char *token,
                              guint      *index)
{
  return array_index_parse (token, index);
}

static gboolean
node_is_container (JsonNode *node)
{
  return JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node);
}

static gboolean
container_check (JsonNode   *node,
                 GPtrArray  *tokens,
                 guint       depth,
                 GError    **error)
{
  g_autofree char *where = NULL;

  if (node_is_container (node))
    return TRUE;

  where = depth == 0 ? g_strdup ("the document") : pointer_describe (tokens, depth);
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
               "%s is %s, not an object or array",
               where, node_type_describe (node));

  return FALSE;
}

/* Finds the element of an array of @length named by token @depth of
 * @tokens, which must exist when @for_insert is FALSE and may be one
 * past the end (including "-") when it is TRUE. Both trees' patches
 * resolve indices here, so their messages are the same. */
gboolean
_agui_json_array_index_resolve (GPtrArray  *tokens,
                                guint       depth,
                                guint       length,
                                gboolean    for_insert,
                                guint      *index,
                                GError    **error)
{
  const char *token = g_ptr_array_index (tokens, depth);
  g_autofree char *where = NULL;

  if (for_insert && g_str_equal (token, "-"))
    {
      *index = length;
      return TRUE;
    }

  where = pointer_describe (tokens, depth);

  if (g_str_equal (token, "-"))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'-' names no element of the array at %s", where);
      return FALSE;
    }

  if (!array_index_parse (token, index))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "'%s' is not an array index at %s", token, where);
      return FALSE;
    }

  if (*index > length || (*index == length && !for_insert))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "index %u is out of range at %s (length %u)",
                   *index, where, length);
      return FALSE;
    }

  return TRUE;
}

/* Returns the child of the container @parent named by token @depth
 * (borrowed), and its index if @parent is an array. */
static JsonNode *
child_lookup (JsonNode   *parent,
              GPtrArray  *tokens,
              guint       depth,
              guint      *index,
              GError    **error)
{
  const char *token = g_ptr_array_index (tokens, depth);

  if (!container_check (parent, tokens, depth, error))
    return NULL;

  if (JSON_NODE_HOLDS_OBJECT (parent))
    {
      JsonNode *child = json_object_get_member (json_node_get_object (parent), token);

      if (child == NULL)
        {
          g_autofree char *where = pointer_describe (tokens, depth);

          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                       "no member '%s' at %s", token, where);
        }

      return child;
    }

  if (!_agui_json_array_index_resolve (tokens, depth, json_array_get_length (json_node_get_array (parent)),
                                       FALSE, index, error))
    return NULL;

  return json_array_get_element (json_node_get_array (parent), *index);
}

static JsonNode *
pointer_resolve (JsonNode   *document,
                 GPtrArray  *tokens,
                 GError    **error)
{
  JsonNode *node = document;

  for (guint i = 0; i < tokens->len && node != NULL; i++)
    {
      guint index;

      node = child_lookup (node, tokens, i, &index, error);
    }

  return node;
}

/* Copies */

static JsonNode *node_copy_deep (JsonNode *node);

JsonNode *
_agui_json_node_copy_deep (JsonNode *node)
{
  return node_copy_deep (node);
}

static JsonNode *
node_copy_deep (JsonNode *node)
{
  JsonNode *copy = json_node_alloc ();

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          json_object_set_member (object, name, node_copy_deep (member));

        return json_node_init_object (copy, object);
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *source = json_node_get_array (node);
        guint length = json_array_get_length (source);
        g_autoptr(JsonArray) array = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (array, node_copy_deep (json_array_get_element (source, i)));

        return json_node_init_array (copy, array);
      }

    case JSON_NODE_NULL:
      return json_node_init_null (copy);

    case JSON_NODE_VALUE:
    default:
      break;
    }

  /* A fresh value rather than json_node_copy(), which would share the
   * JsonValue and keep the source's immutability. */
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return json_node_init_boolean (copy, json_node_get_boolean (node));
    case G_TYPE_STRING:
      return json_node_init_string (copy, json_node_get_string (node));
    case G_TYPE_DOUBLE:
      return json_node_init_double (copy, json_node_get_double (node));
    default:
      return json_node_init_int (copy, json_node_get_int (node));
    }
}

static gboolean
node_is_sealed_container (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_node_is_immutable (node) || json_object_is_immutable (json_node_get_object (node));
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_node_is_immutable (node) || json_array_is_immutable (json_node_get_array (node));

  return FALSE;
}

/* A mutable copy of the container @node that shares its children. */
static JsonNode *
node_copy_shallow (JsonNode *node)
{
  JsonNode *copy = json_node_alloc ();

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(JsonObject) object = json_object_new ();
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        json_object_set_member (object, name, json_node_ref (member));

      return json_node_init_object (copy, object);
    }
  else
    {
      JsonArray *source = json_node_get_array (node);
      guint length = json_array_get_length (source);
      g_autoptr(JsonArray) array = json_array_sized_new (length);

      g_assert (JSON_NODE_HOLDS_ARRAY (node));

      for (guint i = 0; i < length; i++)
        json_array_add_element (array, json_node_ref (json_array_get_element (source, i)));

      return json_node_init_array (copy, array);
    }
}

/* Container primitives. json-glib has no array insert or replace, and no
 * object insert at a position, so these pop the tail and push it back. */

static void
array_insert (JsonArray *array,
              guint      index,
              JsonNode  *node)
{
  g_autoptr(GPtrArray) tail = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint length = json_array_get_length (array);

  g_assert (index <= length);

  for (guint i = length; i > index; i--)
    {
      g_ptr_array_add (tail, json_node_ref (json_array_get_element (array, i - 1)));
      json_array_remove_element (array, i - 1);
    }

  json_array_add_element (array, node);

  for (guint i = tail->len; i > 0; i--)
    json_array_add_element (array, json_node_ref (g_ptr_array_index (tail, i - 1)));
}

static JsonNode *
array_take (JsonArray *array,
            guint      index)
{
  JsonNode *node = json_node_ref (json_array_get_element (array, index));

  json_array_remove_element (array, index);

  return node;
}

/* Puts @nodes (taking them) into @array at @index, in one pass over the
 * elements after it. */
static void
array_insert_run (JsonArray *array,
                  guint      index,
                  GQueue    *nodes)
{
  g_autoptr(GPtrArray) tail = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint length = json_array_get_length (array);
  JsonNode *node;

  g_assert (index <= length);

  for (guint i = length; i > index; i--)
    {
      g_ptr_array_add (tail, json_node_ref (json_array_get_element (array, i - 1)));
      json_array_remove_element (array, i - 1);
    }

  while ((node = g_queue_pop_head (nodes)) != NULL)
    json_array_add_element (array, node);

  for (guint i = tail->len; i > 0; i--)
    json_array_add_element (array, json_node_ref (g_ptr_array_index (tail, i - 1)));
}

/* Removes @count elements at @index, in one pass as above. */
static void
array_remove_run (JsonArray *array,
                  guint      index,
                  guint      count)
{
  g_autoptr(GPtrArray) tail = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint length = json_array_get_length (array);

  g_assert (index + count <= length);

  for (guint i = length; i > index + count; i--)
    {
      g_ptr_array_add (tail, json_node_ref (json_array_get_element (array, i - 1)));
      json_array_remove_element (array, i - 1);
    }

  for (guint i = index + count; i > index; i--)
    json_array_remove_element (array, i - 1);

  for (guint i = tail->len; i > 0; i--)
    json_array_add_element (array, json_node_ref (g_ptr_array_index (tail, i - 1)));
}

static void
object_insert_at (JsonObject *object,
                  const char *name,
                  guint       position,
                  JsonNode   *node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  JsonObjectIter iter;
  const char *member_name;
  JsonNode *member;
  guint i = 0;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member_name, &member))
    {
      if (i++ < position)
        continue;
      g_ptr_array_add (names, g_strdup (member_name));
      g_ptr_array_add (values, json_node_ref (member));
    }

  for (i = 0; i < names->len; i++)
    json_object_remove_member (object, g_ptr_array_index (names, i));

  json_object_set_member (object, name, node);

  for (i = 0; i < names->len; i++)
    json_object_set_member (object, g_ptr_array_index (names, i),
                            json_node_ref (g_ptr_array_index (values, i)));
}

static guint
object_member_position (JsonObject *object,
                        const char *name)
{
  JsonObjectIter iter;
  const char *member_name;
  JsonNode *member;
  guint position = 0;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member_name, &member))
    {
      if (g_str_equal (member_name, name))
        break;
      position++;
    }

  return position;
}

/* Undoable changes. Each takes ownership of the node it puts in place. */

static UndoEntry *
undo_push (PatchContext *ctx,
           UndoKind      kind)
{
  UndoEntry entry = { .kind = kind };

  g_array_append_val (ctx->undo, entry);

  return &g_array_index (ctx->undo, UndoEntry, ctx->undo->len - 1);
}

static void
insert_run_drop (PatchContext *ctx)
{
  g_queue_clear_full (&ctx->run.nodes, (GDestroyNotify) json_node_unref);
  g_clear_pointer (&ctx->run.array, json_array_unref);
  g_clear_pointer (&ctx->run.parent, g_free);
}

/* Puts the run into its array, as one undoable change. */
static void
insert_run_flush (PatchContext *ctx)
{
  UndoEntry *entry;

  if (ctx->run.array == NULL)
    return;

  entry = undo_push (ctx, UNDO_ARRAY_INSERT_RUN);
  entry->array = json_array_ref (ctx->run.array);
  entry->index = ctx->run.index;
  entry->count = ctx->run.nodes.length;
  array_insert_run (ctx->run.array, ctx->run.index, &ctx->run.nodes);

  insert_run_drop (ctx);
}

static gsize
parent_length (const char *path)
{
  return strrchr (path, '/') - path;
}

static void
insert_run_start (PatchContext *ctx,
                  const char   *path,
                  JsonArray    *array,
                  guint         index,
                  JsonNode     *node)
{
  g_assert (ctx->run.array == NULL);

  ctx->run.array = json_array_ref (array);
  ctx->run.parent = g_strndup (path, parent_length (path));
  ctx->run.index = index;
  g_queue_push_tail (&ctx->run.nodes, node);
}

/* Whether "add" at @path continues the run: the same array, written the
 * same way (nothing else has happened since the run began, so the pointer
 * still leads to it), at the run's start (@front) or just after its end. */
static gboolean
insert_run_continues (PatchContext *ctx,
                      const char   *path,
                      GPtrArray    *tokens,
                      gboolean     *front)
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
    index = json_array_get_length (ctx->run.array) + ctx->run.nodes.length;
  else if (!array_index_parse (token, &index))
    return FALSE;

  if (index == ctx->run.index)
    *front = TRUE;
  else if (index == ctx->run.index + ctx->run.nodes.length)
    *front = FALSE;
  else
    return FALSE;

  return TRUE;
}

/* Bounds, as agui-json-doc-patch.c checks them */

static gboolean
node_check_depth (JsonNode  *node,
                  guint      n_tokens,
                  gsize     *size,
                  GError   **error)
{
  if (n_tokens <= AGUI_JSON_DOC_MAX_DEPTH &&
      _agui_json_node_measure (node, AGUI_JSON_DOC_MAX_DEPTH - n_tokens, size))
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
               "the document would be nested deeper than %d levels", AGUI_JSON_DOC_MAX_DEPTH);

  return FALSE;
}

/* The size of @node, when the document's is kept (else 0, unmeasured). */
static gsize
node_size (PatchContext *ctx,
           JsonNode     *node)
{
  gsize size = 0;

  if (ctx->sized && node != NULL)
    _agui_json_node_measure (node, AGUI_JSON_MAX_DEPTH, &size);

  return size;
}

static gboolean
size_change (PatchContext  *ctx,
             gsize          added,
             gsize          removed,
             GError       **error)
{
  gsize kept;

  if (!ctx->sized)
    return TRUE;

  kept = ctx->size > removed ? ctx->size - removed : 0;
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

static void
change_root (PatchContext *ctx,
             JsonNode     *node)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ROOT);

  entry->node = g_steal_pointer (ctx->document);
  *ctx->document = node;
}

/* Gives @target the content of @source, both of the same kind; a
 * container is shared, a value copied (never its JsonValue, which
 * json_node_copy () would share). */
static void
node_set_content (JsonNode *target,
                  JsonNode *source)
{
  switch (JSON_NODE_TYPE (source))
    {
    case JSON_NODE_OBJECT:
      json_node_set_object (target, json_node_get_object (source));
      break;
    case JSON_NODE_ARRAY:
      json_node_set_array (target, json_node_get_array (source));
      break;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (source))
        {
        case G_TYPE_BOOLEAN:
          json_node_set_boolean (target, json_node_get_boolean (source));
          break;
        case G_TYPE_STRING:
          json_node_set_string (target, json_node_get_string (source));
          break;
        case G_TYPE_DOUBLE:
          json_node_set_double (target, json_node_get_double (source));
          break;
        default:
          json_node_set_int (target, json_node_get_int (source));
          break;
        }
      break;
    case JSON_NODE_NULL:
    default:
      g_assert_not_reached ();
    }
}

/* A fresh node holding what @node holds now. */
static JsonNode *
node_save_content (JsonNode *node)
{
  JsonNode *saved = json_node_alloc ();

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return json_node_init_object (saved, json_node_get_object (node));
    case JSON_NODE_ARRAY:
      return json_node_init_array (saved, json_node_get_array (node));
    case JSON_NODE_VALUE:
    default:
      json_node_init (saved, JSON_NODE_VALUE);
      node_set_content (saved, node);
      return saved;
    }
}

/* Replacing a member through its object is linear in json-glib 1.6
 * (json_object_set_member () finds the old name in a list), and an array
 * has no replace at all. When the old and the new value are of one kind
 * (two values, two objects, two arrays) and the old node is not sealed,
 * the node keeps its place and takes the new content: O(1) whatever the
 * size of the container. Its old content goes to the undo log. */
static gboolean
change_node_set (PatchContext *ctx,
                 JsonNode     *target,
                 JsonNode     *node)
{
  UndoEntry *entry;

  if (target == NULL || json_node_is_immutable (target) ||
      JSON_NODE_TYPE (target) != JSON_NODE_TYPE (node) || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  entry = undo_push (ctx, UNDO_NODE_SET);
  entry->target = json_node_ref (target);
  entry->node = node_save_content (target);
  node_set_content (target, node);
  json_node_unref (node);

  return TRUE;
}

static void
change_object_set (PatchContext *ctx,
                   JsonObject   *object,
                   const char   *name,
                   JsonNode     *node)
{
  UndoEntry *entry;
  JsonNode *previous = json_object_get_member (object, name);

  if (change_node_set (ctx, previous, node))
    return;

  entry = undo_push (ctx, UNDO_OBJECT_SET);

  entry->object = json_object_ref (object);
  entry->name = g_strdup (name);
  entry->node = previous ? json_node_ref (previous) : NULL;

  /* Replacing an existing member keeps its position. */
  json_object_set_member (object, name, node);
}

static JsonNode *
change_object_remove (PatchContext *ctx,
                      JsonObject   *object,
                      const char   *name)
{
  UndoEntry *entry = undo_push (ctx, UNDO_OBJECT_REMOVE);
  JsonNode *previous = json_object_get_member (object, name);

  g_assert (previous != NULL);

  entry->object = json_object_ref (object);
  entry->name = g_strdup (name);
  entry->index = object_member_position (object, name);
  entry->node = json_node_ref (previous);

  json_object_remove_member (object, name);

  return json_node_ref (previous);
}

static void
change_array_insert (PatchContext *ctx,
                     JsonArray    *array,
                     guint         index,
                     JsonNode     *node)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ARRAY_INSERT);

  entry->array = json_array_ref (array);
  entry->index = index;

  array_insert (array, index, node);
}

static JsonNode *
change_array_remove (PatchContext *ctx,
                     JsonArray    *array,
                     guint         index)
{
  UndoEntry *entry = undo_push (ctx, UNDO_ARRAY_REMOVE);

  entry->array = json_array_ref (array);
  entry->index = index;
  entry->node = array_take (array, index);

  return json_node_ref (entry->node);
}

static void
change_array_set (PatchContext *ctx,
                  JsonArray    *array,
                  guint         index,
                  JsonNode     *node)
{
  UndoEntry *entry;

  if (change_node_set (ctx, json_array_get_element (array, index), node))
    return;

  entry = undo_push (ctx, UNDO_ARRAY_SET);
  entry->array = json_array_ref (array);
  entry->index = index;
  entry->node = array_take (array, index);

  array_insert (array, index, node);
}

/* Removes the members named in @names from @object in one pass, keeping
 * the order of the rest. json_object_remove_member () looks the name up
 * in a list from its head, so removing the k members a patch appended,
 * newest first, would cost k times the object's size; here each member
 * in turn is taken from the head (found at once) and the kept ones are
 * put back at the tail. */
static void
object_drop_members (JsonObject *object,
                     GHashTable *names)
{
  g_autoptr(GPtrArray) kept_names = NULL;
  g_autoptr(GPtrArray) kept_values = NULL;
  g_autoptr(GPtrArray) all = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (g_hash_table_size (names) == 1)
    {
      GHashTableIter names_iter;
      gpointer only;

      g_hash_table_iter_init (&names_iter, names);
      g_hash_table_iter_next (&names_iter, &only, NULL);
      json_object_remove_member (object, only);
      return;
    }

  all = g_ptr_array_new_with_free_func (g_free);
  kept_names = g_ptr_array_new ();
  kept_values = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      char *copy = g_strdup (name);

      g_ptr_array_add (all, copy);
      if (!g_hash_table_contains (names, name))
        {
          g_ptr_array_add (kept_names, copy);
          g_ptr_array_add (kept_values, json_node_ref (member));
        }
    }

  for (guint i = 0; i < all->len; i++)
    json_object_remove_member (object, g_ptr_array_index (all, i));
  for (guint i = 0; i < kept_names->len; i++)
    json_object_set_member (object, g_ptr_array_index (kept_names, i),
                            json_node_ref (g_ptr_array_index (kept_values, i)));
}

/* Members added by the patch, to remove from each object (object → set
 * of names), held back until another undo step touches the object or the
 * undo ends. Steps on different containers commute, since each changes
 * only its own container, so the order within each object is kept. */
static void
flush_drops (GHashTable *drops,
             JsonObject *object)
{
  GHashTable *names = g_hash_table_lookup (drops, object);

  if (names == NULL)
    return;

  object_drop_members (object, names);
  g_hash_table_remove (drops, object);
}

static void
undo_all (PatchContext *ctx)
{
  g_autoptr(GHashTable) drops = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) json_object_unref,
                                                       (GDestroyNotify) g_hash_table_unref);
  GHashTableIter iter;
  gpointer object;
  gpointer names;

  for (guint i = ctx->undo->len; i > 0; i--)
    {
      UndoEntry *entry = &g_array_index (ctx->undo, UndoEntry, i - 1);

      if (entry->kind == UNDO_OBJECT_SET && entry->node == NULL)
        {
          GHashTable *pending = g_hash_table_lookup (drops, entry->object);

          if (pending == NULL)
            {
              pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
              g_hash_table_insert (drops, json_object_ref (entry->object), pending);
            }
          g_hash_table_add (pending, g_steal_pointer (&entry->name));
          continue;
        }

      if (entry->object != NULL)
        flush_drops (drops, entry->object);

      switch (entry->kind)
        {
        case UNDO_ROOT:
          g_clear_pointer (ctx->document, json_node_unref);
          *ctx->document = g_steal_pointer (&entry->node);
          break;

        case UNDO_OBJECT_SET:
          if (entry->node != NULL)
            json_object_set_member (entry->object, entry->name, g_steal_pointer (&entry->node));
          else
            json_object_remove_member (entry->object, entry->name);
          break;

        case UNDO_OBJECT_REMOVE:
          object_insert_at (entry->object, entry->name, entry->index, g_steal_pointer (&entry->node));
          break;

        case UNDO_ARRAY_INSERT:
          json_array_remove_element (entry->array, entry->index);
          break;

        case UNDO_ARRAY_REMOVE:
          array_insert (entry->array, entry->index, g_steal_pointer (&entry->node));
          break;

        case UNDO_ARRAY_SET:
          json_node_unref (array_take (entry->array, entry->index));
          array_insert (entry->array, entry->index, g_steal_pointer (&entry->node));
          break;

        case UNDO_NODE_SET:
          node_set_content (entry->target, entry->node);
          break;

        case UNDO_ARRAY_INSERT_RUN:
          array_remove_run (entry->array, entry->index, entry->count);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  g_hash_table_iter_init (&iter, drops);
  while (g_hash_table_iter_next (&iter, &object, &names))
    object_drop_members (object, names);

  g_array_set_size (ctx->undo, 0);
}

/* Walks to the parent of the last token of @tokens and returns it
 * (borrowed): a container that may be modified, because every sealed
 * container on the way has been replaced by a mutable shallow copy. */
static JsonNode *
parent_resolve_for_write (PatchContext  *ctx,
                          GPtrArray     *tokens,
                          GError       **error)
{
  JsonNode *node;

  g_assert (tokens->len > 0);

  if (node_is_sealed_container (*ctx->document))
    change_root (ctx, node_copy_shallow (*ctx->document));
  node = *ctx->document;

  for (guint i = 0; i + 1 < tokens->len; i++)
    {
      JsonNode *child;
      guint index = 0;

      if (!(child = child_lookup (node, tokens, i, &index, error)))
        return NULL;

      if (node_is_sealed_container (child))
        {
          child = node_copy_shallow (child);
          if (JSON_NODE_HOLDS_OBJECT (node))
            change_object_set (ctx, json_node_get_object (node), g_ptr_array_index (tokens, i), child);
          else
            change_array_set (ctx, json_node_get_array (node), index, child);
        }

      node = child;
    }

  if (!container_check (node, tokens, tokens->len - 1, error))
    return NULL;

  return node;
}

/* Operations. @value is owned by the callee whatever the outcome. @size:
 * its size, 0 for a moved one (whose size never left the document). */

static gboolean
operation_add (PatchContext  *ctx,
               const char    *path,
               GPtrArray     *tokens,
               JsonNode      *value,
               gsize          size,
               gboolean       moved,
               GError       **error)
{
  g_autoptr(JsonNode) owned = value;
  const char *token;
  JsonNode *parent;
  guint index;

  if (tokens->len == 0)
    {
      if (moved)
        size = node_size (ctx, value);
      if (!size_change (ctx, size, ctx->size, error))
        return FALSE;
      change_root (ctx, g_steal_pointer (&owned));
      return TRUE;
    }

  if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
    return FALSE;

  token = g_ptr_array_index (tokens, tokens->len - 1);

  if (JSON_NODE_HOLDS_OBJECT (parent))
    {
      JsonNode *old = json_object_get_member (json_node_get_object (parent), token);

      if (!size_change (ctx, old != NULL ? size : size + _agui_json_member_overhead (token),
                        node_size (ctx, old), error))
        return FALSE;
      change_object_set (ctx, json_node_get_object (parent), token, g_steal_pointer (&owned));
      return TRUE;
    }

  if (!_agui_json_array_index_resolve (tokens, tokens->len - 1, json_array_get_length (json_node_get_array (parent)),
                                       TRUE, &index, error))
    return FALSE;

  if (!size_change (ctx, size + 1, 0, error))
    return FALSE;

  /* An append is cheap already; an insert may be the first of a run. */
  if (index < json_array_get_length (json_node_get_array (parent)))
    insert_run_start (ctx, path, json_node_get_array (parent), index, g_steal_pointer (&owned));
  else
    change_array_insert (ctx, json_node_get_array (parent), index, g_steal_pointer (&owned));

  return TRUE;
}

/* Removes the value at @tokens, which must exist, and returns it in
 * @removed if that is not NULL. */
static gboolean
operation_remove (PatchContext  *ctx,
                  GPtrArray     *tokens,
                  JsonNode     **removed,
                  GError       **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonNode *parent;
  guint index;

  if (tokens->len == 0)
    {
      /* The reference turns the document into null rather than failing. */
      size_change (ctx, 4, ctx->size, NULL);
      node = json_node_ref (*ctx->document);
      change_root (ctx, json_node_new (JSON_NODE_NULL));
    }
  else
    {
      JsonNode *child;

      if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
        return FALSE;

      if (!(child = child_lookup (parent, tokens, tokens->len - 1, &index, error)))
        return FALSE;

      /* A moved value's own size stays in the document. */
      if (JSON_NODE_HOLDS_OBJECT (parent))
        {
          const char *name = g_ptr_array_index (tokens, tokens->len - 1);

          size_change (ctx, 0, _agui_json_member_overhead (name) + (removed ? 0 : node_size (ctx, child)), NULL);
          node = change_object_remove (ctx, json_node_get_object (parent), name);
        }
      else
        {
          size_change (ctx, 0, 1 + (removed ? 0 : node_size (ctx, child)), NULL);
          node = change_array_remove (ctx, json_node_get_array (parent), index);
        }
    }

  if (removed != NULL)
    *removed = g_steal_pointer (&node);

  return TRUE;
}

static gboolean
operation_replace (PatchContext  *ctx,
                   GPtrArray     *tokens,
                   JsonNode      *value,
                   gsize          size,
                   GError       **error)
{
  g_autoptr(JsonNode) owned = value;
  JsonNode *parent;
  JsonNode *old;
  guint index;

  if (tokens->len == 0)
    {
      if (!size_change (ctx, size, ctx->size, error))
        return FALSE;
      change_root (ctx, g_steal_pointer (&owned));
      return TRUE;
    }

  if (!(parent = parent_resolve_for_write (ctx, tokens, error)))
    return FALSE;

  if (!(old = child_lookup (parent, tokens, tokens->len - 1, &index, error)))
    return FALSE;

  if (!size_change (ctx, size, node_size (ctx, old), error))
    return FALSE;

  if (JSON_NODE_HOLDS_OBJECT (parent))
    change_object_set (ctx, json_node_get_object (parent),
                       g_ptr_array_index (tokens, tokens->len - 1), g_steal_pointer (&owned));
  else
    change_array_set (ctx, json_node_get_array (parent), index, g_steal_pointer (&owned));

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
  JsonNode *node = NULL;
  gsize from_length = strlen (from);
  gsize size = 0;

  /* Escaping is canonical, so comparing the pointers as strings compares
   * their tokens. */
  if (strncmp (path, from, from_length) == 0 && path[from_length] == '/')
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "cannot move a value into its own child");
      return FALSE;
    }

  if (g_str_equal (path, from))
    return pointer_resolve (*ctx->document, from_tokens, error) != NULL;

  if (!operation_remove (ctx, from_tokens, &node, error))
    return FALSE;

  /* Only a value that goes deeper than it was may nest too deep. */
  if (tokens->len > from_tokens->len && !node_check_depth (node, tokens->len, &size, error))
    {
      json_node_unref (node);
      return FALSE;
    }

  return operation_add (ctx, path, tokens, node, 0, TRUE, error);
}

/* @value: the operation's "value" member, NULL when it has none; it is
 * copied into the document, never put there itself. */
static gboolean
operation_apply (PatchContext  *ctx,
                 JsonNode      *value,
                 const char    *op,
                 const char    *path,
                 const char    *from,
                 GError       **error)
{
  g_autoptr(GPtrArray) tokens = NULL;
  g_autoptr(GPtrArray) from_tokens = NULL;
  gboolean needs_value;
  gboolean needs_from;
  JsonNode *target;
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

  if (!(tokens = pointer_parse_checked (path, error)))
    return FALSE;

  if (needs_from && !(from_tokens = pointer_parse_checked (from, error)))
    return FALSE;

  if ((g_str_equal (op, "add") || g_str_equal (op, "replace")) &&
      !node_check_depth (value, tokens->len, &size, error))
    return FALSE;

  if (g_str_equal (op, "add"))
    {
      gboolean front;

      if (insert_run_continues (ctx, path, tokens, &front))
        {
          if (!size_change (ctx, size + 1, 0, error))
            return FALSE;
          if (front)
            g_queue_push_head (&ctx->run.nodes, node_copy_deep (value));
          else
            g_queue_push_tail (&ctx->run.nodes, node_copy_deep (value));
          return TRUE;
        }

      insert_run_flush (ctx);
      return operation_add (ctx, path, tokens, node_copy_deep (value), size, FALSE, error);
    }

  /* Anything else may read or change the array of a run. */
  insert_run_flush (ctx);

  if (g_str_equal (op, "remove"))
    return operation_remove (ctx, tokens, NULL, error);

  if (g_str_equal (op, "replace"))
    return operation_replace (ctx, tokens, node_copy_deep (value), size, error);

  if (g_str_equal (op, "move"))
    return operation_move (ctx, from, from_tokens, path, tokens, error);

  if (g_str_equal (op, "copy"))
    {
      JsonNode *source;

      if (!(source = pointer_resolve (*ctx->document, from_tokens, error)))
        return FALSE;

      /* Measured before it is copied, as agui-json-doc-patch.c does. */
      if (!node_check_depth (source, tokens->len, &size, error))
        return FALSE;

      return operation_add (ctx, path, tokens, node_copy_deep (source), size, FALSE, error);
    }

  g_assert (g_str_equal (op, "test"));

  if (!(target = pointer_resolve (*ctx->document, tokens, error)))
    return FALSE;

  if (!agui_json_node_equal (target, value))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "the value differs from the expected one");
      return FALSE;
    }

  return TRUE;
}

/* Both trees' patches name a failed operation the same way */
void
_agui_json_patch_prefix_error (GError     **error,
                               GError      *local_error,
                               guint        position,
                               const char  *op,
                               const char  *path,
                               const char  *from)
{
  if (from != NULL && (g_str_equal (op, "move") || g_str_equal (op, "copy")))
    g_propagate_prefixed_error (error, local_error,
                                "operation %u (%s %s from %s): ", position, op, path, from);
  else
    g_propagate_prefixed_error (error, local_error,
                                "operation %u (%s %s): ", position, op, path);
}

/* Applies one operation, its error prefixed with where it is and what. */
static gboolean
operation_apply_named (PatchContext  *ctx,
                       guint          position,
                       JsonNode      *value,
                       const char    *op,
                       const char    *path,
                       const char    *from,
                       GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (operation_apply (ctx, value, op, path, from, &local_error))
    return TRUE;

  _agui_json_patch_prefix_error (error, g_steal_pointer (&local_error), position, op, path, from);

  return FALSE;
}

static const char *
member_get_string (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* The members of the patch's operation @position, borrowed from
 * @element; @value is NULL when the operation has none. */
gboolean
_agui_json_patch_read_operation (JsonNode     *element,
                                 guint         position,
                                 const char  **op,
                                 const char  **path,
                                 const char  **from,
                                 JsonNode    **value,
                                 GError      **error)
{
  JsonObject *operation;

  if (!JSON_NODE_HOLDS_OBJECT (element))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u: not an object", position);
      return FALSE;
    }

  operation = json_node_get_object (element);
  *op = member_get_string (operation, "op");
  *path = member_get_string (operation, "path");
  *from = member_get_string (operation, "from");
  *value = json_object_get_member (operation, "value");

  if (*op == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u: missing string member 'op'", position);
      return FALSE;
    }

  if (*path == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PATCH,
                   "operation %u (%s): missing string member 'path'", position, *op);
      return FALSE;
    }

  return TRUE;
}

static gboolean
patch_element_apply (PatchContext  *ctx,
                     guint          position,
                     JsonNode      *element,
                     GError       **error)
{
  const char *op, *path, *from;
  JsonNode *value;

  if (!_agui_json_patch_read_operation (element, position, &op, &path, &from, &value, error))
    return FALSE;

  return operation_apply_named (ctx, position, value, op, path, from, error);
}

/**
 * agui_json_patch_apply:
 * @document: (inout) (transfer full): the JSON document to patch
 * @patch: the JSON Patch: an array of operation objects
 * @error: return location for a #GError
 *
 * Applies the RFC 6902 @patch to @document, one operation after the other.
 *
 * The patch is atomic: either every operation applies, or @document is left
 * exactly as it was (the same node, with the same content and member order)
 * and @error is set to an %AGUI_ERROR_PATCH error naming the failing
 * operation's index (starting at 0), op and path, such as
 * `operation 1 (test /version): the value differs from the expected one`.
 *
 * The document is changed in place, so a small patch costs what it touches,
 * not the size of the document. On success *@document may be a new node
 * (when the patch replaced the root, or when the root was sealed), in which
 * case the old one has been unreferenced. Sealed containers inside the
 * document are never modified: the ones on a patched path are replaced by
 * copies. Values taken from @patch are copied, so @patch may be sealed and
 * is never referenced by the result.
 *
 * `test` compares values with [func@Agui.json_node_equal]. The operations
 * follow AG-UI's reference: `remove` of the path `""` makes the document
 * `null`, and a path containing the token `__proto__` fails. Unlike the
 * reference, array indices with leading zeros (`/items/01`) are refused, as
 * RFC 6901 requires. An operation with an unknown `op`, or without a
 * member its op requires, fails the patch; extra members are ignored.
 *
 * Unlike the reference, an operation that would nest the document deeper
 * than 511 levels of arrays and objects (what a snapshot event can carry)
 * fails the patch, so that no run of small patches builds a document that
 * no parser or printer could take.
 *
 * Returns: %TRUE if every operation applied
 */
gboolean
agui_json_patch_apply (JsonNode  **document,
                       JsonArray  *patch,
                       GError    **error)
{
  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (*document != NULL, FALSE);
  g_return_val_if_fail (patch != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _agui_json_patch_apply_bounded (document, NULL, patch, error);
}

gboolean
_agui_json_patch_apply_bounded (JsonNode          **document,
                                AguiJsonDocBounds  *bounds,
                                JsonArray          *patch,
                                GError            **error)
{
  g_autoptr(GArray) undo = NULL;
  PatchContext ctx;
  guint length;

  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (*document != NULL, FALSE);
  g_return_val_if_fail (patch != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  undo = g_array_new (FALSE, TRUE, sizeof (UndoEntry));
  g_array_set_clear_func (undo, undo_entry_clear);
  ctx.document = document;
  ctx.undo = undo;
  ctx.run.array = NULL;
  ctx.run.parent = NULL;
  g_queue_init (&ctx.run.nodes);
  ctx.sized = bounds != NULL;
  ctx.size = bounds != NULL ? bounds->size : 0;
  ctx.max_size = bounds != NULL ? bounds->max_size : 0;

  length = json_array_get_length (patch);
  for (guint i = 0; i < length; i++)
    {
      if (!patch_element_apply (&ctx, i, json_array_get_element (patch, i), error))
        {
          /* A run not yet in its array has changed nothing. */
          insert_run_drop (&ctx);
          undo_all (&ctx);
          return FALSE;
        }
    }

  insert_run_flush (&ctx);
  if (bounds != NULL)
    bounds->size = ctx.size;

  return TRUE;
}

/**
 * agui_json_pointer_is_valid:
 * @pointer: a string
 *
 * Checks the syntax of an RFC 6901 JSON Pointer: `""`, or a sequence of
 * `/`-prefixed tokens in which every `~` is followed by `0` or `1`.
 *
 * Whether a token can index an array is only known against a document, so
 * `/items/01` is valid here even though [func@Agui.json_pointer_get] refuses
 * it on an array.
 *
 * Returns: %TRUE if @pointer is a JSON Pointer
 */
gboolean
agui_json_pointer_is_valid (const char *pointer)
{
  g_autoptr(GPtrArray) tokens = NULL;

  g_return_val_if_fail (pointer != NULL, FALSE);

  tokens = pointer_parse (pointer);

  return tokens != NULL;
}

/**
 * agui_json_pointer_get:
 * @document: a JSON document
 * @pointer: an RFC 6901 JSON Pointer, such as `/items/0`
 * @error: return location for a #GError
 *
 * Finds the value @pointer refers to in @document, the way a JSON Patch
 * resolves its paths: `""` is @document itself, array indices are digits
 * without leading zeros, `-` refers to no element, and the token
 * `__proto__` is refused.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL with an
 *   %AGUI_ERROR_PATCH error if @pointer is malformed or names nothing
 */
JsonNode *
agui_json_pointer_get (JsonNode    *document,
                       const char  *pointer,
                       GError     **error)
{
  g_autoptr(GPtrArray) tokens = NULL;

  g_return_val_if_fail (document != NULL, NULL);
  g_return_val_if_fail (pointer != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(tokens = pointer_parse_checked (pointer, error)))
    return NULL;

  return pointer_resolve (document, tokens, error);
}

/* Equality */

static gboolean
number_equal (JsonNode *a,
              JsonNode *b)
{
  gboolean a_is_double = json_node_get_value_type (a) == G_TYPE_DOUBLE;
  gboolean b_is_double = json_node_get_value_type (b) == G_TYPE_DOUBLE;
  double d;
  gint64 i;

  if (a_is_double && b_is_double)
    return json_node_get_double (a) == json_node_get_double (b);
  if (!a_is_double && !b_is_double)
    return json_node_get_int (a) == json_node_get_int (b);

  d = json_node_get_double (a_is_double ? a : b);
  i = json_node_get_int (a_is_double ? b : a);

  /* Compare exactly: converting the integer to a double would round
   * 2^53 + 1 onto 2^53. Every double in [-2^63, 2^63) that has no
   * fractional part converts to gint64 without loss. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return FALSE;
  if ((double) (gint64) d != d)
    return FALSE;

  return (gint64) d == i;
}

static gboolean
value_equal (JsonNode *a,
             JsonNode *b)
{
  GType a_type = json_node_get_value_type (a);
  GType b_type = json_node_get_value_type (b);
  gboolean a_is_number = a_type == G_TYPE_INT64 || a_type == G_TYPE_DOUBLE;
  gboolean b_is_number = b_type == G_TYPE_INT64 || b_type == G_TYPE_DOUBLE;

  if (a_is_number && b_is_number)
    return number_equal (a, b);
  if (a_type != b_type)
    return FALSE;
  if (a_type == G_TYPE_BOOLEAN)
    return json_node_get_boolean (a) == json_node_get_boolean (b);
  if (a_type == G_TYPE_STRING)
    return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;

  return FALSE;
}

/**
 * agui_json_node_equal:
 * @a: (nullable): a JSON node
 * @b: (nullable): another JSON node
 *
 * Compares two JSON values deeply, as the JSON Patch `test` operation does:
 * objects are equal when they have the same members with equal values, in
 * any order; arrays when their elements are equal in order; numbers when
 * they are numerically equal, so `1` equals `1.0`; a number never equals
 * a string or a boolean.
 *
 * Returns: %TRUE if @a and @b are equal, or both %NULL
 */
gboolean
agui_json_node_equal (JsonNode *a,
                      JsonNode *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      return value_equal (a, b);

    case JSON_NODE_OBJECT:
      {
        JsonObject *a_object = json_node_get_object (a);
        JsonObject *b_object = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (json_object_get_size (a_object) != json_object_get_size (b_object))
          return FALSE;

        json_object_iter_init (&iter, a_object);
        while (json_object_iter_next (&iter, &name, &member))
          {
            if (!agui_json_node_equal (member, json_object_get_member (b_object, name)))
              return FALSE;
          }

        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *a_array = json_node_get_array (a);
        JsonArray *b_array = json_node_get_array (b);
        guint length = json_array_get_length (a_array);

        if (length != json_array_get_length (b_array))
          return FALSE;

        for (guint i = 0; i < length; i++)
          {
            if (!agui_json_node_equal (json_array_get_element (a_array, i),
                                       json_array_get_element (b_array, i)))
              return FALSE;
          }

        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }

  return FALSE;
}
