/* agui-event-reader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "agui-event-reader-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"
#include "agui-types.h"

/* Past this many top-level members a name is found through a hash table:
 * a hostile frame of a million members must not cost a million squared. */
#define LINEAR_MEMBERS 16

/* A number longer than this is quoted shortened in an error. */
#define QUOTED_NUMBER 40

/* yajl allocates its handle, lexer and buffers afresh for each frame; they
 * come from this pool, emptied between frames, instead of malloc. */
#define POOL_SIZE 16384
#define POOL_ALIGN 16

typedef struct
{
  JsonNode *container;
  char     *key;            /* the pending member name of an object */
} Level;

/* The same, reading into the shared state's tree. */
typedef struct
{
  AguiJsonValue  container;
  char          *key;
} DocLevel;

/* The members, their values and the arena are plain buffers that keep
 * their size from frame to frame: this runs for every name and value of
 * every frame, so no GArray or GString call stands between yajl and a
 * memcpy. */
struct _AguiEventReader
{
  AguiFlatMember *members;
  AguiJsonValue *values;    /* an AGUI_FLAT_TREE member's value */
  guint       n_members;
  guint       members_size;
  char       *arena;
  gsize       arena_length;
  gsize       arena_size;
  GHashTable *index;        /* name → position + 1, past LINEAR_MEMBERS */
  GArray     *levels;       /* Level: the nested containers open now */
  GString    *rewritten;    /* the frame with its lone surrogates marked */
  GString    *escaped;      /* ... or its raw control characters escaped */
  GString    *scratch;
  GError     *error;
  JsonNode   *root;         /* value mode: the value read */
  gsize       key;          /* the pending top-level name, an arena offset */
  gsize       pool_used;
  guint8     *pool;
  guint       depth;
  guint       base_depth;   /* value mode: how deep the value sits */
  guint       has_markers : 1;
  guint       has_nul : 1;
  guint       root_seen : 1;
  guint       not_object : 1;
  guint       in_delta : 1;
  guint       flat : 1;
  /* Reading any JSON value into a JsonNode (_agui_event_reader_read_value ()),
   * not an event frame into members. */
  guint       value_mode : 1;
  /* ... or into the state's tree (_agui_event_reader_read_doc_value ()) */
  guint       doc_mode : 1;
  GArray     *doc_levels;   /* DocLevel */
  AguiJsonValue doc_root;
};

AguiEventReader *
_agui_event_reader_new (void)
{
  AguiEventReader *self = g_new0 (AguiEventReader, 1);

  self->members_size = LINEAR_MEMBERS;
  self->members = g_new (AguiFlatMember, self->members_size);
  self->values = g_new (AguiJsonValue, self->members_size);
  self->arena_size = 1024;
  self->arena = g_malloc (self->arena_size);
  self->levels = g_array_new (FALSE, FALSE, sizeof (Level));
  self->doc_levels = g_array_new (FALSE, FALSE, sizeof (DocLevel));
  self->rewritten = g_string_new (NULL);
  self->escaped = g_string_new (NULL);
  self->scratch = g_string_new (NULL);
  self->pool = g_malloc (POOL_SIZE);

  return self;
}

static void
reset (AguiEventReader *self)
{
  /* Only a frame that is not flat has values or open levels left. */
  if (!self->flat)
    {
      for (guint i = 0; i < self->n_members; i++)
        _agui_json_value_clear (&self->values[i]);
    }

  if (self->levels->len > 0)
    {
      for (guint i = 0; i < self->levels->len; i++)
        {
          Level *level = &g_array_index (self->levels, Level, i);

          json_node_unref (level->container);
          g_free (level->key);
        }
      g_array_set_size (self->levels, 0);
    }

  for (guint i = 0; i < self->doc_levels->len; i++)
    {
      DocLevel *level = &g_array_index (self->doc_levels, DocLevel, i);

      _agui_json_value_clear (&level->container);
      g_free (level->key);
    }
  g_array_set_size (self->doc_levels, 0);
  _agui_json_value_clear (&self->doc_root);

  g_clear_pointer (&self->root, json_node_unref);
  self->n_members = 0;
  self->arena_length = 0;
  if (self->index != NULL)
    g_clear_pointer (&self->index, g_hash_table_unref);
  if (self->error != NULL)
    g_clear_error (&self->error);
  self->depth = 0;
  self->has_markers = FALSE;
  self->has_nul = FALSE;
  self->root_seen = FALSE;
  self->not_object = FALSE;
  self->in_delta = FALSE;
  self->flat = TRUE;
}

void
_agui_event_reader_free (AguiEventReader *self)
{
  if (self == NULL)
    return;

  reset (self);
  g_free (self->members);
  g_free (self->values);
  g_free (self->arena);
  g_array_unref (self->levels);
  g_array_unref (self->doc_levels);
  g_string_free (self->rewritten, TRUE);
  g_string_free (self->escaped, TRUE);
  g_string_free (self->scratch, TRUE);
  g_free (self->pool);
  g_free (self);
}

/* yajl's memory */

static gboolean
in_pool (AguiEventReader *self,
         void            *pointer)
{
  return (guint8 *) pointer >= self->pool && (guint8 *) pointer < self->pool + POOL_SIZE;
}

/* Each block is preceded by its size, for realloc. */
static void *
pool_malloc (void   *ctx,
             size_t  size)
{
  AguiEventReader *self = ctx;
  gsize needed = POOL_ALIGN + ((size + POOL_ALIGN - 1) & ~(gsize) (POOL_ALIGN - 1));
  guint8 *block;

  if (size > POOL_SIZE || self->pool_used + needed > POOL_SIZE)
    return g_malloc (size);

  block = self->pool + self->pool_used;
  self->pool_used += needed;
  *(gsize *) block = size;

  return block + POOL_ALIGN;
}

static void *
pool_realloc (void   *ctx,
              void   *pointer,
              size_t  size)
{
  AguiEventReader *self = ctx;
  void *moved;
  gsize old_size;

  if (pointer == NULL)
    return pool_malloc (ctx, size);

  if (!in_pool (self, pointer))
    return g_realloc (pointer, size);

  old_size = *(gsize *) ((guint8 *) pointer - POOL_ALIGN);
  if (size <= old_size)
    return pointer;

  moved = pool_malloc (ctx, size);
  memcpy (moved, pointer, old_size);

  return moved;
}

static void
pool_free (void *ctx,
           void *pointer)
{
  if (pointer != NULL && !in_pool (ctx, pointer))
    g_free (pointer);
}

/* Lone surrogates */

static gboolean
read_hex4 (const char *data,
           gsize       available,
           guint      *value)
{
  guint result = 0;

  if (available < 4)
    return FALSE;

  for (guint i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (data[i]);

      if (digit < 0)
        return FALSE;

      result = (result << 4) | (guint) digit;
    }

  *value = result;

  return TRUE;
}

/* yajl turns a lone surrogate escape into '?' or joins it with whatever
 * escape follows, so each one is replaced by its marker first. Returns
 * FALSE, copying nothing, for the usual frame that has none. Backslashes
 * are taken in pairs, so the "\u" of an escaped backslash followed by "u"
 * is not mistaken for an escape. */
static gboolean
mark_lone_surrogates (AguiEventReader *self,
                      const char      *data,
                      gsize            length)
{
  gsize copied = 0;
  gsize i = 0;
  gboolean marked = FALSE;
  const char *p;

  while ((p = memchr (data + i, '\\', length - i)) != NULL)
    {
      guint unit;
      guint next;

      i = p - data;
      if (i + 1 >= length)
        break;

      if (data[i + 1] != 'u' || !read_hex4 (data + i + 2, length - i - 2, &unit))
        {
          i += 2;
          continue;
        }

      if (unit < 0xD800 || unit > 0xDFFF)
        {
          i += 6;
          continue;
        }

      if (unit <= 0xDBFF &&
          i + 12 <= length &&
          data[i + 6] == '\\' && data[i + 7] == 'u' &&
          read_hex4 (data + i + 8, length - i - 8, &next) &&
          next >= 0xDC00 && next <= 0xDFFF)
        {
          i += 12;
          continue;
        }

      if (!marked)
        {
          g_string_truncate (self->rewritten, 0);
          marked = TRUE;
        }

      g_string_append_len (self->rewritten, data + copied, i - copied);
      g_string_append_c (self->rewritten, (char) 0xED);
      g_string_append_c (self->rewritten, (char) (0x80 | ((unit >> 6) & 0x3F)));
      g_string_append_c (self->rewritten, (char) (0x80 | (unit & 0x3F)));
      i += 6;
      copied = i;
    }

  if (marked)
    g_string_append_len (self->rewritten, data + copied, length - copied);

  return marked;
}

/* Appends @string to @out with every marker replaced by U+FFFD: a lone
 * surrogate outside a delta has nothing to join. */
static void
append_sanitized (GString    *out,
                  const char *string,
                  gsize       length)
{
  gsize copied = 0;

  for (gsize i = 0; i + 2 < length; i++)
    {
      if (!_agui_event_reader_is_marker (string + i))
        continue;

      g_string_append_len (out, string + copied, i - copied);
      g_string_append (out, "\xEF\xBF\xBD");
      i += 2;
      copied = i + 1;
    }

  g_string_append_len (out, string + copied, length - copied);
}

static void
arena_reserve (AguiEventReader *self,
               gsize            more)
{
  if (G_LIKELY (self->arena_length + more <= self->arena_size))
    return;

  while (self->arena_length + more > self->arena_size)
    self->arena_size *= 2;
  self->arena = g_realloc (self->arena, self->arena_size);
}

/* Returns the arena offset of a nul-terminated copy of @string. */
static gsize
arena_add (AguiEventReader *self,
           const char      *string,
           gsize            length,
           gboolean         sanitize)
{
  gsize offset = self->arena_length;

  if (G_UNLIKELY (sanitize && self->has_markers))
    {
      g_autoptr(GString) sanitized = g_string_sized_new (length + 3);

      append_sanitized (sanitized, string, length);
      string = sanitized->str;
      length = sanitized->len;
      arena_reserve (self, length + 1);
      memcpy (self->arena + offset, string, length);
    }
  else
    {
      arena_reserve (self, length + 1);
      memcpy (self->arena + offset, string, length);
    }

  self->arena[offset + length] = '\0';
  self->arena_length = offset + length + 1;

  return offset;
}

static const char *
scratch_string (AguiEventReader *self,
                const char      *string,
                gsize            length)
{
  g_string_truncate (self->scratch, 0);
  if (self->has_markers)
    append_sanitized (self->scratch, string, length);
  else
    g_string_append_len (self->scratch, string, length);

  return self->scratch->str;
}

/* Building values */

static AguiFlatMember *
top_member (AguiEventReader *self)
{
  const char *name = self->arena + self->key;
  AguiFlatMember *member;
  guint position = G_MAXUINT;

  if (self->index != NULL)
    {
      gpointer found = g_hash_table_lookup (self->index, name);

      if (found != NULL)
        position = GPOINTER_TO_UINT (found) - 1;
    }
  else
    {
      for (guint i = 0; i < self->n_members; i++)
        {
          const char *candidate = self->arena + self->members[i].name;

          if (candidate[0] == name[0] && strcmp (candidate, name) == 0)
            {
              position = i;
              break;
            }
        }
    }

  if (position != G_MAXUINT)
    {
      /* json-glib's parser keeps the first place and the last value. */
      _agui_json_value_clear (&self->values[position]);
      return &self->members[position];
    }

  if (G_UNLIKELY (self->n_members == self->members_size))
    {
      self->members_size *= 2;
      self->members = g_renew (AguiFlatMember, self->members, self->members_size);
      self->values = g_renew (AguiJsonValue, self->values, self->members_size);
    }

  member = &self->members[self->n_members];
  *member = (AguiFlatMember) { .name = self->key };
  self->values[self->n_members] = (AguiJsonValue) AGUI_JSON_VALUE_INIT;
  self->n_members++;

  if (G_UNLIKELY (self->n_members > LINEAR_MEMBERS))
    {
      /* Offsets, not pointers, go in: the arena may move. Keys are
       * compared as strings of the arena at lookup time. */
      if (self->index == NULL)
        {
          self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          for (guint i = 0; i < self->n_members; i++)
            g_hash_table_insert (self->index,
                                 g_strdup (self->arena + self->members[i].name),
                                 GUINT_TO_POINTER (i + 1));
        }
      else
        {
          g_hash_table_insert (self->index, g_strdup (name), GUINT_TO_POINTER (self->n_members));
        }
    }

  return member;
}

/* Puts a finished value where it belongs, in value mode. */
static void
add_node (AguiEventReader *self,
          JsonNode        *node)
{
  if (self->levels->len == 0)
    {
      self->root = node;
      self->root_seen = TRUE;
    }
  else
    {
      Level *level = &g_array_index (self->levels, Level, self->levels->len - 1);

      if (JSON_NODE_HOLDS_ARRAY (level->container))
        {
          json_array_add_element (json_node_get_array (level->container), node);
        }
      else
        {
          g_autofree char *key = g_steal_pointer (&level->key);

          json_object_set_member (json_node_get_object (level->container), key, node);
        }
    }
}

/* Puts a finished value where it belongs, in the tree; takes @value. A
 * repeated name keeps its first place and takes the last value, as
 * json_object_set_member () does. */
static void
add_doc (AguiEventReader *self,
         AguiJsonValue   *value)
{
  DocLevel *level;

  if (self->doc_levels->len == 0 && self->doc_mode)
    {
      _agui_json_value_move (&self->doc_root, value);
      self->root_seen = TRUE;
      return;
    }

  if (self->doc_levels->len == 0)
    {
      /* a frame's member that is not a string, number or boolean */
      AguiFlatMember *member = top_member (self);
      guint position = (guint) (member - self->members);

      member->kind = AGUI_FLAT_TREE;
      _agui_json_value_move (&self->values[position], value);
      self->flat = FALSE;
      return;
    }

  level = &g_array_index (self->doc_levels, DocLevel, self->doc_levels->len - 1);
  if (level->container.kind == AGUI_JSON_DOC_ARRAY)
    {
      _agui_json_array_insert (level->container.u.array,
                               _agui_json_array_get_length (level->container.u.array), value);
    }
  else
    {
      g_autofree char *key = g_steal_pointer (&level->key);

      _agui_json_object_set (level->container.u.object, key, value);
    }
}

static gboolean
at_top (AguiEventReader *self)
{
  return self->depth == 1 && !self->value_mode;
}

/* A frame's nested values go into the tree, as does a value read in doc
 * mode; only _agui_event_reader_read_value () builds JsonNodes. */
static inline gboolean
builds_tree (AguiEventReader *self)
{
  return self->doc_mode || !self->value_mode;
}

/* A scalar outside any container: the whole value in value mode, else
 * a frame that is not an object. */
static gboolean
refuse_bare_scalar (AguiEventReader *self)
{
  if (self->depth > 0 || self->value_mode)
    return FALSE;

  self->not_object = TRUE;

  return TRUE;
}

static int
on_null (void *ctx)
{
  AguiEventReader *self = ctx;

  if (refuse_bare_scalar (self))
    return 0;

  if (builds_tree (self))
    {
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      add_doc (self, &value);
      return 1;
    }

  add_node (self, json_node_new (JSON_NODE_NULL));

  return 1;
}

static int
on_boolean (void *ctx,
            int   value)
{
  AguiEventReader *self = ctx;

  if (refuse_bare_scalar (self))
    return 0;

  if (at_top (self))
    {
      AguiFlatMember *member = top_member (self);

      member->kind = AGUI_FLAT_BOOLEAN;
      member->boolean = value != 0;
    }
  else if (builds_tree (self))
    {
      AguiJsonValue doc = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_boolean (&doc, value != 0);
      add_doc (self, &doc);
    }
  else
    {
      add_node (self, json_node_init_boolean (json_node_alloc (), value != 0));
    }

  return 1;
}

static void
refuse_number (AguiEventReader *self,
               const char      *text,
               gsize            length,
               const char      *problem)
{
  g_autofree char *quoted = g_strndup (text, MIN (length, QUOTED_NUMBER));

  g_set_error (&self->error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
               "the %s %s%s %s", problem[0] == 'd' ? "integer" : "number", quoted,
               length > QUOTED_NUMBER ? "…" : "", problem);
}

/* An integer beyond 64 bits or a double beyond its range would be kept
 * as some other number than the one sent, so such a text is refused. */
static int
on_number (void       *ctx,
           const char *text,
           size_t      length)
{
  AguiEventReader *self = ctx;
  gboolean is_double = memchr (text, '.', length) || memchr (text, 'e', length) || memchr (text, 'E', length);
  char buffer[64];
  g_autofree char *long_text = NULL;
  const char *string;
  gint64 integer = 0;
  double number = 0;

  if (refuse_bare_scalar (self))
    return 0;

  if (length < sizeof buffer)
    {
      memcpy (buffer, text, length);
      buffer[length] = '\0';
      string = buffer;
    }
  else
    {
      string = long_text = g_strndup (text, length);
    }

  errno = 0;
  if (is_double)
    {
      number = g_ascii_strtod (string, NULL);
      if (!isfinite (number))
        {
          refuse_number (self, text, length, "is too large for a double");
          return 0;
        }
    }
  else
    {
      integer = g_ascii_strtoll (string, NULL, 10);
      if (errno == ERANGE)
        {
          refuse_number (self, text, length, "does not fit in 64 bits");
          return 0;
        }
    }

  if (at_top (self))
    {
      AguiFlatMember *member = top_member (self);

      member->kind = is_double ? AGUI_FLAT_DOUBLE : AGUI_FLAT_INTEGER;
      member->integer = integer;
      member->number = number;
    }
  else if (builds_tree (self))
    {
      AguiJsonValue doc = AGUI_JSON_VALUE_INIT;

      if (is_double)
        _agui_json_value_set_double (&doc, number);
      else
        _agui_json_value_set_int (&doc, integer);
      add_doc (self, &doc);
    }
  else if (is_double)
    {
      add_node (self, json_node_init_double (json_node_alloc (), number));
    }
  else
    {
      add_node (self, json_node_init_int (json_node_alloc (), integer));
    }

  return 1;
}

/* Every accessor of an event hands out C strings, which would end at a
 * U+0000 without a word; the frame is refused instead (explain () finds
 * the place for the message). */
static int
refuse_nul (AguiEventReader *self)
{
  self->has_nul = TRUE;

  return 0;
}

static int
on_string (void                *ctx,
           const unsigned char *string,
           size_t               length)
{
  AguiEventReader *self = ctx;

  if (refuse_bare_scalar (self))
    return 0;

  if (memchr (string, '\0', length) != NULL)
    return refuse_nul (self);

  if (at_top (self))
    {
      /* A delta keeps its markers: the parser joins split halves once it
       * knows the delta's stream. */
      gboolean sanitize = !self->in_delta;
      gsize offset = arena_add (self, (const char *) string, length, sanitize);
      AguiFlatMember *member = top_member (self);

      member->kind = AGUI_FLAT_STRING;
      member->string = offset;
      member->length = self->arena_length - offset - 1;
    }
  else if (builds_tree (self))
    {
      AguiJsonValue doc = AGUI_JSON_VALUE_INIT;

      scratch_string (self, (const char *) string, length);
      _agui_json_value_set_string (&doc, self->scratch->str, self->scratch->len);
      add_doc (self, &doc);
    }
  else
    {
      add_node (self, json_node_init_string (json_node_alloc (),
                                             scratch_string (self, (const char *) string, length)));
    }

  return 1;
}

static int
on_key (void                *ctx,
        const unsigned char *key,
        size_t               length)
{
  AguiEventReader *self = ctx;

  if (memchr (key, '\0', length) != NULL)
    return refuse_nul (self);

  if (at_top (self))
    {
      self->key = arena_add (self, (const char *) key, length, TRUE);
      self->in_delta = length == 5 && memcmp (key, "delta", 5) == 0;
    }
  else if (builds_tree (self))
    {
      DocLevel *level = &g_array_index (self->doc_levels, DocLevel, self->doc_levels->len - 1);

      g_free (level->key);
      level->key = g_strdup (scratch_string (self, (const char *) key, length));
    }
  else
    {
      Level *level = &g_array_index (self->levels, Level, self->levels->len - 1);

      g_free (level->key);
      level->key = g_strdup (scratch_string (self, (const char *) key, length));
    }

  return 1;
}

static int
open_container (AguiEventReader *self,
                JsonNodeType     type)
{
  Level level = { NULL, NULL };

  if (++self->depth + self->base_depth > AGUI_JSON_MAX_DEPTH)
    {
      g_set_error (&self->error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "arrays and objects are nested deeper than %d levels",
                   AGUI_JSON_MAX_DEPTH);
      return 0;
    }

  if (self->depth == 1 && !self->value_mode)
    {
      self->root_seen = TRUE;
      if (type != JSON_NODE_OBJECT)
        {
          self->not_object = TRUE;
          return 0;
        }
      return 1;
    }

  if (builds_tree (self))
    {
      DocLevel doc_level = { AGUI_JSON_VALUE_INIT, NULL };

      if (type == JSON_NODE_OBJECT)
        _agui_json_value_set_object (&doc_level.container, 0);
      else
        _agui_json_value_set_array (&doc_level.container, 0);
      g_array_append_val (self->doc_levels, doc_level);
      return 1;
    }

  level.container = json_node_new (type);
  if (type == JSON_NODE_OBJECT)
    json_node_take_object (level.container, json_object_new ());
  else
    json_node_take_array (level.container, json_array_new ());

  g_array_append_val (self->levels, level);

  return 1;
}

static int
close_container (AguiEventReader *self)
{
  Level level;

  self->depth--;
  if (self->depth == 0 && !self->value_mode)
    return 1;

  if (builds_tree (self))
    {
      DocLevel doc_level = g_array_index (self->doc_levels, DocLevel, self->doc_levels->len - 1);

      g_array_set_size (self->doc_levels, self->doc_levels->len - 1);
      g_free (doc_level.key);
      add_doc (self, &doc_level.container);
      return 1;
    }

  level = g_array_index (self->levels, Level, self->levels->len - 1);
  g_array_set_size (self->levels, self->levels->len - 1);
  g_free (level.key);
  add_node (self, level.container);

  return 1;
}

static int
on_start_map (void *ctx)
{
  return open_container (ctx, JSON_NODE_OBJECT);
}

static int
on_start_array (void *ctx)
{
  return open_container (ctx, JSON_NODE_ARRAY);
}

static int
on_end (void *ctx)
{
  return close_container (ctx);
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_boolean,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_key,
  .yajl_end_map = on_end,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end,
};

static AguiReadResult read_frame (AguiEventReader  *self,
                                  const char       *data,
                                  gsize             length,
                                  GError          **error);

AguiReadResult
_agui_event_reader_read (AguiEventReader  *self,
                         const char       *data,
                         gsize             length,
                         GError          **error)
{
  self->value_mode = FALSE;

  return read_frame (self, data, length, error);
}

JsonNode *
_agui_event_reader_read_value (AguiEventReader  *self,
                               const char       *data,
                               gsize             length,
                               guint             depth,
                               GError          **error)
{
  AguiReadResult result;

  self->value_mode = TRUE;
  self->base_depth = depth;
  result = read_frame (self, data, length, error);
  self->value_mode = FALSE;
  self->base_depth = 0;

  /* Only a frame's deltas join surrogate halves; in a value, a lone one
   * is refused, as _agui_json_check () words it. */
  if (result == AGUI_READ_OK && self->has_markers &&
      _agui_json_check (data, length, AGUI_JSON_CHECK_SURROGATES, error))
    g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                         "a string contains a lone surrogate");

  if (result != AGUI_READ_OK || self->has_markers)
    {
      reset (self);
      return NULL;
    }

  return g_steal_pointer (&self->root);
}

gboolean
_agui_event_reader_read_doc_value (AguiEventReader *self,
                                   const char      *data,
                                   gsize            length,
                                   guint            depth,
                                   AguiJsonValue   *value)
{
  AguiReadResult result;

  self->value_mode = TRUE;
  self->doc_mode = TRUE;
  self->base_depth = depth;
  result = read_frame (self, data, length, NULL);
  self->value_mode = FALSE;
  self->doc_mode = FALSE;
  self->base_depth = 0;

  if (result != AGUI_READ_OK || self->has_markers || !self->root_seen)
    {
      reset (self);
      return FALSE;
    }

  _agui_json_value_move (value, &self->doc_root);

  return TRUE;
}

/* The fast path */

static inline const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;

  return p;
}

/* A string with no escape (the frame has no backslash) and no control
 * character: @p is past the opening quote. Returns the closing quote. */
static inline const char *
scan_plain_string (const char *p,
                   const char *end)
{
  const char *quote = memchr (p, '"', end - p);

  if (quote == NULL)
    return NULL;

  for (const char *c = p; c < quote; c++)
    {
      if ((guchar) *c < 0x20)
        return NULL;
    }

  return quote;
}

/* Most frames are one flat object of strings, small integers and
 * booleans, without a single escape: those are read here, several times
 * faster than through yajl's callbacks, into the very members yajl would
 * give. Anything else, or anything yajl might read differently (a null,
 * a nested value, a double, a long number, an escape, whitespace beyond
 * JSON's four) returns FALSE, and yajl reads the frame afresh. The
 * grammar below accepts a subset of what yajl accepts. */
static gboolean
read_plain_frame (AguiEventReader *self,
                  const char      *data,
                  gsize            length)
{
  const char *end = data + length;
  const char *p = skip_space (data, end);

  if (p == end || *p != '{')
    return FALSE;
  p = skip_space (p + 1, end);

  if (p < end && *p == '}')
    goto closed;

  for (;;)
    {
      const char *close;
      AguiFlatMember *member;

      if (p == end || *p != '"')
        return FALSE;
      if ((close = scan_plain_string (p + 1, end)) == NULL)
        return FALSE;
      self->key = arena_add (self, p + 1, close - p - 1, FALSE);

      p = skip_space (close + 1, end);
      if (p == end || *p != ':')
        return FALSE;
      p = skip_space (p + 1, end);
      if (p == end)
        return FALSE;

      if (*p == '"')
        {
          gsize offset;

          if ((close = scan_plain_string (p + 1, end)) == NULL)
            return FALSE;
          offset = arena_add (self, p + 1, close - p - 1, FALSE);
          member = top_member (self);
          member->kind = AGUI_FLAT_STRING;
          member->string = offset;
          member->length = close - p - 1;
          p = close + 1;
        }
      else if (*p == '-' || g_ascii_isdigit (*p))
        {
          gboolean negative = *p == '-';
          const char *digits = negative ? p + 1 : p;
          const char *q = digits;
          gint64 value = 0;

          /* past 18 digits the value is not wanted, and could overflow */
          while (q < end && g_ascii_isdigit (*q))
            {
              if (q - digits < 18)
                value = value * 10 + (*q - '0');
              q++;
            }

          /* 18 digits cannot overflow; "01" is not JSON */
          if (q == digits || q - digits > 18 || (*digits == '0' && q - digits > 1))
            return FALSE;
          if (q < end && (*q == '.' || *q == 'e' || *q == 'E'))
            return FALSE;

          member = top_member (self);
          member->kind = AGUI_FLAT_INTEGER;
          member->integer = negative ? -value : value;
          member->number = 0;
          p = q;
        }
      else if (end - p >= 4 && memcmp (p, "true", 4) == 0)
        {
          member = top_member (self);
          member->kind = AGUI_FLAT_BOOLEAN;
          member->boolean = TRUE;
          p += 4;
        }
      else if (end - p >= 5 && memcmp (p, "false", 5) == 0)
        {
          member = top_member (self);
          member->kind = AGUI_FLAT_BOOLEAN;
          member->boolean = FALSE;
          p += 5;
        }
      else
        {
          return FALSE;
        }

      p = skip_space (p, end);
      if (p == end)
        return FALSE;
      if (*p == '}')
        break;
      if (*p != ',')
        return FALSE;
      p = skip_space (p + 1, end);
    }

closed:
  if (skip_space (p + 1, end) != end)
    return FALSE;

  self->root_seen = TRUE;

  return TRUE;
}

/* Why the reader refused @data (as given, before any marking), in the
 * words of every JSON reader of Tandem: a limit or a value no tree keeps
 * (_agui_json_check ()) before a syntax error (_agui_json_check_syntax ()),
 * both at their place in the text. */
static AguiReadResult
explain (AguiEventReader  *self,
         const char       *data,
         gsize             length,
         gsize             stopped,
         GError          **error)
{
  /* a frame's lone surrogates are data, joined or replaced later */
  AguiJsonCheck checks = self->value_mode ? AGUI_JSON_CHECK_ALL
                                          : AGUI_JSON_CHECK_NUMBERS | AGUI_JSON_CHECK_NUL;

  if (error == NULL)
    return AGUI_READ_MALFORMED;

  if (!_agui_json_check (data, length, checks, error))
    return AGUI_READ_REFUSED;

  if (!_agui_json_check_syntax (data, length, error))
    return AGUI_READ_MALFORMED;

  /* Syntax and values are fine: a limit that counts the containers
   * around a nested value, or a frame that is not an object. */
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return AGUI_READ_REFUSED;
    }

  if (self->not_object)
    return AGUI_READ_NOT_OBJECT;

  /* yajl and the syntax check disagree: say where yajl stopped */
  _agui_json_set_error_at (error, data, MIN (stopped, length), "not valid JSON");

  return AGUI_READ_MALFORMED;
}

/* Reads @data with yajl, its lone surrogates marked first; returns how
 * many bytes yajl took, and whether it read the whole as it should. */
static gboolean
read_with_yajl (AguiEventReader *self,
                const char      *data,
                gsize            length,
                gsize           *stopped)
{
  yajl_handle handle;
  yajl_status status;

  if (mark_lone_surrogates (self, data, length))
    {
      self->has_markers = TRUE;
      data = self->rewritten->str;
      length = self->rewritten->len;
    }

  {
    yajl_alloc_funcs funcs = { pool_malloc, pool_realloc, pool_free, self };

    self->pool_used = 0;
    handle = yajl_alloc (&callbacks, &funcs, self);
  }
  /* The caller has checked that the frame is valid UTF-8, more strictly
   * than yajl would (which lets surrogates and overlong forms through),
   * and markers are deliberately not UTF-8. */
  yajl_config (handle, yajl_dont_validate_strings, 1);

  status = yajl_parse (handle, (const unsigned char *) data, length);
  if (status == yajl_status_ok)
    status = yajl_complete_parse (handle);
  *stopped = yajl_get_bytes_consumed (handle);
  yajl_free (handle);

  return status == yajl_status_ok && self->error == NULL && !self->has_nul &&
         !self->not_object && self->root_seen;
}

/* json-glib 1.6 writes U+001F in a string raw, and Tandem stored rows it
 * printed; so a raw control character in a string (but U+0000) is read
 * as if it were escaped, as json-glib read it. Copies @data into @out
 * with each one escaped; FALSE when there is none. */
static gboolean
escape_raw_controls (GString    *out,
                     const char *data,
                     gsize       length)
{
  gboolean in_string = FALSE;
  gboolean found = FALSE;

  g_string_truncate (out, 0);
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar) data[i];

      if (in_string && c == '\\' && i + 1 < length)
        {
          g_string_append_len (out, data + i, 2);
          i++;
          continue;
        }

      if (c == '"')
        in_string = !in_string;
      else if (in_string && c < 0x20 && c != 0)
        {
          g_string_append_printf (out, "\\u%04X", c);
          found = TRUE;
          continue;
        }

      g_string_append_c (out, (char) c);
    }

  return found;
}

/* The cold end of read_frame (): yajl refused @data, which took it
 * @stopped bytes in. Apart from the hot path, so that stays small. */
static G_GNUC_NO_INLINE AguiReadResult
read_refused (AguiEventReader  *self,
              const char       *data,
              gsize             length,
              gsize             stopped,
              GError          **error)
{
  /* Only yajl objected: not a limit, a U+0000 or a frame's shape. */
  if (self->error == NULL && !self->has_nul && !self->not_object &&
      escape_raw_controls (self->escaped, data, length))
    {
      reset (self);
      if (read_with_yajl (self, self->escaped->str, self->escaped->len, &stopped))
        return AGUI_READ_OK;
    }

  /* Markers and escapes change the length of the text: the place is only
   * roughly yajl's then, and explain () finds the exact one itself. */
  return explain (self, data, length, stopped, error);
}

static AguiReadResult
read_frame (AguiEventReader  *self,
            const char       *data,
            gsize             length,
            GError          **error)
{
  gsize stopped;

  reset (self);

  if (!self->value_mode && memchr (data, '\\', length) == NULL)
    {
      if (read_plain_frame (self, data, length))
        return AGUI_READ_OK;
      reset (self);
    }

  if (G_LIKELY (read_with_yajl (self, data, length, &stopped)))
    return AGUI_READ_OK;

  return read_refused (self, data, length, stopped, error);
}

guint
_agui_event_reader_get_members (AguiEventReader   *self,
                                AguiFlatMember   **members)
{
  *members = self->members;

  return self->n_members;
}

const char *
_agui_event_reader_get_arena (AguiEventReader *self,
                              gsize           *length)
{
  *length = self->arena_length;

  return self->arena;
}

gsize
_agui_event_reader_add_string (AguiEventReader *self,
                               const char      *string)
{
  return arena_add (self, string, strlen (string), FALSE);
}

gboolean
_agui_event_reader_has_markers (AguiEventReader *self)
{
  return self->has_markers;
}

gboolean
_agui_event_reader_is_flat (AguiEventReader *self)
{
  return self->flat;
}

void
_agui_event_reader_steal_tree (AguiEventReader *self,
                               AguiJsonValue   *tree)
{
  AguiJsonDocObject *object = _agui_json_value_set_object (tree, self->n_members);
  const char *arena = self->arena;

  for (guint i = 0; i < self->n_members; i++)
    {
      const AguiFlatMember *member = &self->members[i];
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      switch (member->kind)
        {
        case AGUI_FLAT_STRING:
          _agui_json_value_set_string (&value, arena + member->string, member->length);
          break;
        case AGUI_FLAT_INTEGER:
          _agui_json_value_set_int (&value, member->integer);
          break;
        case AGUI_FLAT_DOUBLE:
          _agui_json_value_set_double (&value, member->number);
          break;
        case AGUI_FLAT_BOOLEAN:
          _agui_json_value_set_boolean (&value, member->boolean);
          break;
        case AGUI_FLAT_TREE:
          _agui_json_value_move (&value, &self->values[i]);
          break;
        default:
          g_assert_not_reached ();
        }

      /* the reader kept each name once */
      _agui_json_object_append (object, arena + member->name, &value);
    }
}
