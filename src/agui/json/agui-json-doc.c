/* agui-json-doc.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agui-json-doc-private.h"
#include "agui-json-private.h"

/* Sizes, for a state of a million small objects: a value is 16 bytes, a
 * member 32 (its name inside it up to 14 bytes), an object a 32-byte
 * header and its members (after the header while they are few, else in
 * a vector of their own), an array one vector of values. An object of
 * more than INDEX_THRESHOLD slots also has an open-addressing table of
 * slot numbers and hashes (linear probing, at most half full), 16 to 32
 * bytes a member; below that a lookup compares names, which is faster than
 * hashing for so few. */

#define INDEX_THRESHOLD 8
#define SHORT_STRING_MAX 14

typedef struct
{
  AguiJsonValue value;
  /* name[15] == 1: the name is on the heap, its pointer at the start;
   * else the name itself, NUL-terminated */
  char          name[16];
} Member;

/* The hash is kept so that probing past other names, and growing the
 * index, never reads a member (a cache miss each, in a large object). */
typedef struct
{
  guint32 hash;
  guint32 slot;         /* slot + 1, 0 for an empty place */
} IndexEntry;

/* The elements sit in one vector with room before them as well as
 * after: removing or inserting near the front moves the elements before
 * the index, near the back those after it, so that taking the first
 * element (remove /a/0, move /a/0 to /a/-) or putting one in front
 * (add /a/0) costs O(1) amortised rather than the array's length. */
struct _AguiJsonDocArray
{
  AguiJsonValue *items;     /* the first element; the vector starts offset values earlier */
  guint          length;
  guint          offset;
  guint          capacity;  /* of the vector */
};

struct _AguiJsonDocObject
{
  Member  *slots;       /* inline_slots while they are enough */
  guint    n_slots;
  guint    capacity;
  guint    n_holes;
  guint    index_mask;  /* the index's size less one; 0 when there is none */
  IndexEntry *index;
  /* An object made for a few members holds them in its own allocation:
   * one malloc, and one cache line fewer to reach them. */
  Member   inline_slots[];
};

#define INLINE_SLOTS_MAX 4

G_STATIC_ASSERT (sizeof (AguiJsonValue) == 16);

/* Names */

static inline const char *
member_name (const Member *member)
{
  const char *heap;

  if (member->name[15] != 1)
    return member->name;

  memcpy (&heap, member->name, sizeof heap);

  return heap;
}

static void
member_name_set (Member     *member,
                 const char *name,
                 gsize       length)
{
  if (length <= SHORT_STRING_MAX)
    {
      memcpy (member->name, name, length);
      memset (member->name + length, 0, sizeof member->name - length);
    }
  else
    {
      char *heap = g_strndup (name, length);

      memcpy (member->name, &heap, sizeof heap);
      member->name[15] = 1;
    }
}

static void
member_name_clear (Member *member)
{
  if (member->name[15] == 1)
    g_free ((char *) member_name (member));
  member->name[15] = 0;
  member->name[0] = '\0';
}

static inline guint32
name_hash (const char *name)
{
  guint32 hash = 5381;

  for (const char *p = name; *p != '\0'; p++)
    hash = hash * 33 + (guchar) *p;

  /* Names such as k1, k2, … differ in their last byte only. */
  hash ^= hash >> 16;
  hash *= 0x85ebca6b;
  hash ^= hash >> 13;
  hash *= 0xc2b2ae35;
  hash ^= hash >> 16;

  return hash;
}

/* Values */

void
_agui_json_value_clear (AguiJsonValue *value)
{
  switch (value->kind)
    {
    case AGUI_JSON_DOC_STRING:
      g_free (value->u.string);
      break;

    case AGUI_JSON_DOC_ARRAY:
      {
        AguiJsonDocArray *array = value->u.array;

        for (guint i = 0; i < array->length; i++)
          _agui_json_value_clear (&array->items[i]);
        if (array->items != NULL)
          g_free (array->items - array->offset);
        g_free (array);
      }
      break;

    case AGUI_JSON_DOC_OBJECT:
      {
        AguiJsonDocObject *object = value->u.object;

        for (guint i = 0; i < object->n_slots; i++)
          {
            _agui_json_value_clear (&object->slots[i].value);
            member_name_clear (&object->slots[i]);
          }
        if (object->slots != object->inline_slots)
          g_free (object->slots);
        free (object->index);
        g_free (object);
      }
      break;

    default:
      break;
    }

  value->kind = AGUI_JSON_DOC_NULL;
}

void
_agui_json_value_move (AguiJsonValue *target,
                       AguiJsonValue *source)
{
  if (target == source)
    return;

  _agui_json_value_clear (target);
  *target = *source;
  source->kind = AGUI_JSON_DOC_NULL;
}

void
_agui_json_value_set_boolean (AguiJsonValue *value,
                              gboolean       boolean)
{
  _agui_json_value_clear (value);
  value->kind = AGUI_JSON_DOC_BOOLEAN;
  value->u.boolean = boolean != FALSE;
}

void
_agui_json_value_set_int (AguiJsonValue *value,
                          gint64         integer)
{
  _agui_json_value_clear (value);
  value->kind = AGUI_JSON_DOC_INT;
  value->u.integer = integer;
}

void
_agui_json_value_set_double (AguiJsonValue *value,
                             double         number)
{
  _agui_json_value_clear (value);
  value->kind = AGUI_JSON_DOC_DOUBLE;
  value->u.number = number;
}

void
_agui_json_value_set_string (AguiJsonValue *value,
                             const char    *string,
                             gsize          length)
{
  _agui_json_value_clear (value);

  if (length <= SHORT_STRING_MAX)
    {
      char *inside = (char *) value + 1;

      value->kind = AGUI_JSON_DOC_SHORT_STRING;
      memcpy (inside, string, length);
      inside[length] = '\0';
    }
  else
    {
      value->kind = AGUI_JSON_DOC_STRING;
      value->u.string = g_strndup (string, length);
    }
}

AguiJsonDocArray *
_agui_json_value_set_array (AguiJsonValue *value,
                            guint          reserve)
{
  AguiJsonDocArray *array = g_new (AguiJsonDocArray, 1);

  _agui_json_value_clear (value);
  array->length = 0;
  array->offset = 0;
  array->capacity = reserve;
  array->items = reserve > 0 ? g_new (AguiJsonValue, reserve) : NULL;
  value->kind = AGUI_JSON_DOC_ARRAY;
  value->u.array = array;

  return array;
}

AguiJsonDocObject *
_agui_json_value_set_object (AguiJsonValue *value,
                             guint          reserve)
{
  guint n_inline = reserve <= INLINE_SLOTS_MAX ? reserve : 0;
  AguiJsonDocObject *object = g_malloc0 (sizeof (AguiJsonDocObject) + n_inline * sizeof (Member));

  _agui_json_value_clear (value);
  object->capacity = reserve;
  if (n_inline > 0)
    object->slots = object->inline_slots;
  else if (reserve > 0)
    object->slots = g_new (Member, reserve);
  value->kind = AGUI_JSON_DOC_OBJECT;
  value->u.object = object;

  return object;
}

void
_agui_json_value_copy (AguiJsonValue       *target,
                       const AguiJsonValue *source)
{
  switch (source->kind)
    {
    case AGUI_JSON_DOC_STRING:
      {
        const char *string = source->u.string;

        _agui_json_value_set_string (target, string, strlen (string));
      }
      break;

    case AGUI_JSON_DOC_ARRAY:
      {
        const AguiJsonDocArray *from = source->u.array;
        AguiJsonDocArray *array = _agui_json_value_set_array (target, from->length);

        for (guint i = 0; i < from->length; i++)
          {
            array->items[i].kind = AGUI_JSON_DOC_NULL;
            _agui_json_value_copy (&array->items[i], &from->items[i]);
          }
        array->length = from->length;
      }
      break;

    case AGUI_JSON_DOC_OBJECT:
      {
        const AguiJsonDocObject *from = source->u.object;
        AguiJsonDocObject *object = _agui_json_value_set_object (target, from->n_slots - from->n_holes);

        for (guint i = 0; i < from->n_slots; i++)
          {
            AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

            if (from->slots[i].value.kind == AGUI_JSON_DOC_HOLE)
              continue;
            _agui_json_value_copy (&copy, &from->slots[i].value);
            _agui_json_object_append (object, member_name (&from->slots[i]), &copy);
          }
      }
      break;

    default:
      _agui_json_value_clear (target);
      *target = *source;
      break;
    }
}

/* Arrays */

guint
_agui_json_array_get_length (AguiJsonDocArray *array)
{
  return array->length;
}

AguiJsonValue *
_agui_json_array_get (AguiJsonDocArray *array,
                      guint             index)
{
  g_assert (index < array->length);

  return &array->items[index];
}

/* A new vector for @more elements besides the ones there, twice what
 * they need, with half the room in front when @front, else all of it
 * after: a run of inserts at one end pays one copy per doubling. */
static void
array_regrow (AguiJsonDocArray *array,
              guint             more,
              gboolean          front)
{
  gsize needed = (gsize) array->length + more;
  gsize capacity = MAX (4, needed * 2);
  guint gap;
  AguiJsonValue *items;

  if (capacity > G_MAXUINT)
    capacity = G_MAXUINT;
  g_assert (capacity >= needed);

  gap = front ? (guint) ((capacity - array->length) / 2) : 0;

  if (!front && array->offset == 0)
    {
      array->items = g_renew (AguiJsonValue, array->items, capacity);
      array->capacity = capacity;
      return;
    }

  items = g_new (AguiJsonValue, capacity);
  if (array->length > 0)
    memcpy (items + gap, array->items, array->length * sizeof (AguiJsonValue));
  if (array->items != NULL)
    g_free (array->items - array->offset);
  array->items = items + gap;
  array->offset = gap;
  array->capacity = capacity;
}

void
_agui_json_array_insert_many (AguiJsonDocArray *array,
                              guint             index,
                              AguiJsonValue    *values,
                              guint             n_values)
{
  g_assert (index <= array->length);

  if (n_values == 0)
    return;

  if (index < array->length - index)
    {
      /* Fewer elements before the index: they move towards the front. */
      if (array->offset < n_values)
        array_regrow (array, n_values, TRUE);
      memmove (array->items - n_values, array->items, index * sizeof (AguiJsonValue));
      array->items -= n_values;
      array->offset -= n_values;
    }
  else
    {
      if (array->capacity - array->offset - array->length < n_values)
        array_regrow (array, n_values, FALSE);
      memmove (array->items + index + n_values, array->items + index,
               (array->length - index) * sizeof (AguiJsonValue));
    }

  memcpy (array->items + index, values, n_values * sizeof (AguiJsonValue));
  for (guint i = 0; i < n_values; i++)
    values[i].kind = AGUI_JSON_DOC_NULL;
  array->length += n_values;
}

void
_agui_json_array_insert (AguiJsonDocArray *array,
                         guint             index,
                         AguiJsonValue    *value)
{
  _agui_json_array_insert_many (array, index, value, 1);
}

/* Closes the gap of @count elements at @index from whichever side has
 * fewer elements to move. */
static void
array_close (AguiJsonDocArray *array,
             guint             index,
             guint             count)
{
  guint after = array->length - index - count;

  if (index < after)
    {
      memmove (array->items + count, array->items, index * sizeof (AguiJsonValue));
      array->items += count;
      array->offset += count;
    }
  else
    {
      memmove (array->items + index, array->items + index + count, after * sizeof (AguiJsonValue));
    }

  array->length -= count;
}

void
_agui_json_array_remove (AguiJsonDocArray *array,
                         guint             index,
                         AguiJsonValue    *removed)
{
  g_assert (index < array->length);

  _agui_json_value_clear (removed);
  *removed = array->items[index];
  array_close (array, index, 1);
}

void
_agui_json_array_remove_many (AguiJsonDocArray *array,
                              guint             index,
                              guint             count)
{
  g_assert (index + count <= array->length);

  for (guint i = index; i < index + count; i++)
    _agui_json_value_clear (&array->items[i]);
  array_close (array, index, count);
}

/* Objects */

guint
_agui_json_object_get_size (AguiJsonDocObject *object)
{
  return object->n_slots - object->n_holes;
}

guint
_agui_json_object_get_n_slots (AguiJsonDocObject *object)
{
  return object->n_slots;
}

const char *
_agui_json_object_slot_name (AguiJsonDocObject *object,
                             guint              slot)
{
  g_assert (slot < object->n_slots);

  if (object->slots[slot].value.kind == AGUI_JSON_DOC_HOLE)
    return NULL;

  return member_name (&object->slots[slot]);
}

AguiJsonValue *
_agui_json_object_slot_value (AguiJsonDocObject *object,
                              guint              slot)
{
  g_assert (slot < object->n_slots);

  return &object->slots[slot].value;
}

#define HUGE_PAGE (2 * 1024 * 1024)

/* An index of megabytes is read at random: in 4 KiB pages nearly every
 * lookup of a large object misses the TLB too. */
static IndexEntry *
index_alloc (guint size)
{
  gsize bytes = size * sizeof (IndexEntry);
  void *memory = NULL;

  if (bytes < HUGE_PAGE || posix_memalign (&memory, HUGE_PAGE, bytes) != 0)
    return g_malloc0 (bytes);

#ifdef MADV_HUGEPAGE
  madvise (memory, bytes, MADV_HUGEPAGE);
#endif
  memset (memory, 0, bytes);

  return memory;
}

static void
index_insert (IndexEntry *index,
              guint       mask,
              guint32     hash,
              guint       slot)
{
  guint i = hash & mask;

  while (index[i].slot != 0)
    i = (i + 1) & mask;
  index[i].hash = hash;
  index[i].slot = slot + 1;
}

static void
index_add (AguiJsonDocObject *object,
           guint              slot)
{
  index_insert (object->index, object->index_mask,
                name_hash (member_name (&object->slots[slot])), slot);
}

/* Sized for @n_slots at most half full. When @renumber is FALSE the slots
 * are those of the old index, whose hashes are reused. */
static void
index_rebuild (AguiJsonDocObject *object,
               gboolean           renumber)
{
  IndexEntry *old = g_steal_pointer (&object->index);
  guint old_size = old != NULL ? object->index_mask + 1 : 0;
  guint size = 16;

  object->index_mask = 0;
  if (object->n_slots <= INDEX_THRESHOLD)
    {
      free (old);
      return;
    }

  while (size < object->n_slots * 2)
    size *= 2;
  object->index = index_alloc (size);
  object->index_mask = size - 1;

  if (old != NULL && !renumber)
    {
      for (guint i = 0; i < old_size; i++)
        {
          if (old[i].slot != 0)
            index_insert (object->index, object->index_mask, old[i].hash, old[i].slot - 1);
        }
      free (old);
      return;
    }
  free (old);

  for (guint slot = 0; slot < object->n_slots; slot++)
    {
      if (object->slots[slot].value.kind != AGUI_JSON_DOC_HOLE)
        index_add (object, slot);
    }
}

/* The place in the index of the member at @slot. */
static guint
index_position (AguiJsonDocObject *object,
                guint              slot)
{
  guint i = name_hash (member_name (&object->slots[slot])) & object->index_mask;

  while (object->index[i].slot != slot + 1)
    {
      g_assert (object->index[i].slot != 0);
      i = (i + 1) & object->index_mask;
    }

  return i;
}

/* Backward-shift deletion: the entries after the emptied place that
 * would no longer be found move up, so that no tombstone is needed. */
static void
index_delete (AguiJsonDocObject *object,
              guint              position)
{
  guint mask = object->index_mask;
  guint hole = position;

  for (guint i = (position + 1) & mask; object->index[i].slot != 0; i = (i + 1) & mask)
    {
      guint home = object->index[i].hash & mask;

      /* The entry at i stays if its home is cyclically in (hole, i]. */
      if (hole < i ? (home > hole && home <= i) : (home > hole || home <= i))
        continue;

      object->index[hole] = object->index[i];
      hole = i;
    }

  object->index[hole].slot = 0;
}

int
_agui_json_object_find (AguiJsonDocObject *object,
                        const char        *name)
{
  guint32 hash;

  if (object->index == NULL)
    {
      for (guint slot = 0; slot < object->n_slots; slot++)
        {
          if (object->slots[slot].value.kind != AGUI_JSON_DOC_HOLE &&
              strcmp (member_name (&object->slots[slot]), name) == 0)
            return (int) slot;
        }

      return -1;
    }

  hash = name_hash (name);
  for (guint i = hash & object->index_mask; object->index[i].slot != 0;
       i = (i + 1) & object->index_mask)
    {
      guint slot = object->index[i].slot - 1;

      if (object->index[i].hash == hash && strcmp (member_name (&object->slots[slot]), name) == 0)
        return (int) slot;
    }

  return -1;
}

guint
_agui_json_object_append (AguiJsonDocObject *object,
                          const char        *name,
                          AguiJsonValue     *value)
{
  guint slot = object->n_slots;
  Member *member;

  if (object->n_slots == object->capacity)
    {
      object->capacity = MAX (4, object->capacity * 2);
      if (object->slots == object->inline_slots)
        {
          object->slots = g_new (Member, object->capacity);
          memcpy (object->slots, object->inline_slots, object->n_slots * sizeof (Member));
        }
      else
        {
          object->slots = g_renew (Member, object->slots, object->capacity);
        }
    }

  member = &object->slots[slot];
  member->value = *value;
  value->kind = AGUI_JSON_DOC_NULL;
  member_name_set (member, name, strlen (name));
  object->n_slots++;

  if (object->index != NULL && object->n_slots * 2 <= object->index_mask + 1)
    index_add (object, slot);
  else if (object->n_slots > INDEX_THRESHOLD)
    {
      /* A first index is built from the members, the new one included;
       * a larger one from the old, which lacks it. */
      gboolean grown = object->index != NULL;

      index_rebuild (object, FALSE);
      if (grown)
        index_add (object, slot);
    }

  return slot;
}

void
_agui_json_object_set (AguiJsonDocObject *object,
                       const char        *name,
                       AguiJsonValue     *value)
{
  int slot = _agui_json_object_find (object, name);

  if (slot < 0)
    _agui_json_object_append (object, name, value);
  else
    _agui_json_value_move (&object->slots[slot].value, value);
}

void
_agui_json_object_remove_slot (AguiJsonDocObject *object,
                               guint              slot,
                               AguiJsonValue     *removed)
{
  Member *member = &object->slots[slot];

  g_assert (slot < object->n_slots && member->value.kind != AGUI_JSON_DOC_HOLE);

  if (object->index != NULL)
    index_delete (object, index_position (object, slot));

  _agui_json_value_clear (removed);
  *removed = member->value;
  member->value.kind = AGUI_JSON_DOC_HOLE;
  object->n_holes++;
}

void
_agui_json_object_restore_slot (AguiJsonDocObject *object,
                                guint              slot,
                                AguiJsonValue     *value)
{
  Member *member = &object->slots[slot];

  g_assert (slot < object->n_slots && member->value.kind == AGUI_JSON_DOC_HOLE);

  member->value = *value;
  value->kind = AGUI_JSON_DOC_NULL;
  object->n_holes--;

  if (object->index != NULL)
    index_add (object, slot);
}

void
_agui_json_object_pop (AguiJsonDocObject *object,
                       AguiJsonValue     *removed)
{
  guint slot = object->n_slots - 1;
  Member *member = &object->slots[slot];

  g_assert (object->n_slots > 0 && member->value.kind != AGUI_JSON_DOC_HOLE);

  if (object->index != NULL)
    index_delete (object, index_position (object, slot));

  _agui_json_value_clear (removed);
  *removed = member->value;
  member_name_clear (member);
  object->n_slots--;
}

void
_agui_json_object_compact (AguiJsonDocObject *object)
{
  guint kept = 0;

  /* A small object is compacted at once (it costs a handful of moves);
   * a large one when its holes are as many as its members, so that
   * each removal pays for one move. */
  if (object->n_holes == 0 ||
      (object->n_slots > INDEX_THRESHOLD && object->n_holes * 2 < object->n_slots))
    return;

  for (guint slot = 0; slot < object->n_slots; slot++)
    {
      Member *member = &object->slots[slot];

      if (member->value.kind == AGUI_JSON_DOC_HOLE)
        {
          member_name_clear (member);
          continue;
        }
      if (kept != slot)
        object->slots[kept] = *member;
      kept++;
    }

  object->n_slots = kept;
  object->n_holes = 0;
  index_rebuild (object, TRUE);
}

/* Sizes, as agui-json-doc-private.h defines them */

static gsize
int_size (gint64 integer)
{
  guint64 magnitude = integer < 0 ? -(guint64) integer : (guint64) integer;
  gsize digits = 1;

  while (magnitude >= 10)
    {
      magnitude /= 10;
      digits++;
    }

  return digits + (integer < 0);
}

gboolean
_agui_json_value_measure (const AguiJsonValue *value,
                          guint                max_height,
                          gsize               *size)
{
  switch (value->kind)
    {
    case AGUI_JSON_DOC_ARRAY:
      {
        const AguiJsonDocArray *array = value->u.array;

        if (max_height == 0)
          return FALSE;
        *size += 2 + array->length;
        for (guint i = 0; i < array->length; i++)
          {
            if (!_agui_json_value_measure (&array->items[i], max_height - 1, size))
              return FALSE;
          }
        return TRUE;
      }

    case AGUI_JSON_DOC_OBJECT:
      {
        const AguiJsonDocObject *object = value->u.object;

        if (max_height == 0)
          return FALSE;
        *size += 2;
        for (guint slot = 0; slot < object->n_slots; slot++)
          {
            const Member *member = &object->slots[slot];

            if (member->value.kind == AGUI_JSON_DOC_HOLE)
              continue;
            *size += _agui_json_member_overhead (member_name (member));
            if (!_agui_json_value_measure (&member->value, max_height - 1, size))
              return FALSE;
          }
        return TRUE;
      }

    case AGUI_JSON_DOC_STRING:
      *size += strlen (value->u.string) + 2;
      return TRUE;

    case AGUI_JSON_DOC_SHORT_STRING:
      *size += strlen (_agui_json_value_get_string (value)) + 2;
      return TRUE;

    case AGUI_JSON_DOC_INT:
      *size += int_size (value->u.integer);
      return TRUE;

    case AGUI_JSON_DOC_DOUBLE:
      *size += 8;
      return TRUE;

    case AGUI_JSON_DOC_BOOLEAN:
      *size += value->u.boolean ? 4 : 5;
      return TRUE;

    case AGUI_JSON_DOC_NULL:
    default:
      *size += 4;
      return TRUE;
    }
}

gboolean
_agui_json_node_measure (JsonNode *node,
                         guint     max_height,
                         gsize    *size)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        if (max_height == 0)
          return FALSE;
        *size += 2 + length;
        for (guint i = 0; i < length; i++)
          {
            if (!_agui_json_node_measure (json_array_get_element (array, i), max_height - 1, size))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (max_height == 0)
          return FALSE;
        *size += 2;
        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          {
            *size += _agui_json_member_overhead (name);
            if (!_agui_json_node_measure (member, max_height - 1, size))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_NULL:
      *size += 4;
      return TRUE;

    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      *size += json_node_get_boolean (node) ? 4 : 5;
      break;
    case G_TYPE_STRING:
      {
        const char *string = json_node_get_string (node);

        *size += (string ? strlen (string) : 0) + 2;
      }
      break;
    case G_TYPE_DOUBLE:
      *size += 8;
      break;
    default:
      *size += int_size (json_node_get_int (node));
      break;
    }

  return TRUE;
}

/* Equality, as _agui_json_node_equal () */

static gboolean
number_equal (const AguiJsonValue *a,
              const AguiJsonValue *b)
{
  double d;
  gint64 i;

  if (a->kind == AGUI_JSON_DOC_DOUBLE && b->kind == AGUI_JSON_DOC_DOUBLE)
    return a->u.number == b->u.number;
  if (a->kind == AGUI_JSON_DOC_INT && b->kind == AGUI_JSON_DOC_INT)
    return a->u.integer == b->u.integer;

  d = a->kind == AGUI_JSON_DOC_DOUBLE ? a->u.number : b->u.number;
  i = a->kind == AGUI_JSON_DOC_DOUBLE ? b->u.integer : a->u.integer;

  /* Exactly: 2^53 + 1 must not round onto 2^53. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return FALSE;
  if ((double) (gint64) d != d)
    return FALSE;

  return (gint64) d == i;
}

static gboolean
is_number (const AguiJsonValue *value)
{
  return value->kind == AGUI_JSON_DOC_INT || value->kind == AGUI_JSON_DOC_DOUBLE;
}

gboolean
_agui_json_value_equal (const AguiJsonValue *a,
                        const AguiJsonValue *b)
{
  if (a == b)
    return TRUE;

  if (is_number (a) && is_number (b))
    return number_equal (a, b);
  if (_agui_json_value_is_string (a) && _agui_json_value_is_string (b))
    return strcmp (_agui_json_value_get_string (a), _agui_json_value_get_string (b)) == 0;
  if (a->kind != b->kind)
    return FALSE;

  switch (a->kind)
    {
    case AGUI_JSON_DOC_NULL:
      return TRUE;

    case AGUI_JSON_DOC_BOOLEAN:
      return a->u.boolean == b->u.boolean;

    case AGUI_JSON_DOC_ARRAY:
      if (a->u.array->length != b->u.array->length)
        return FALSE;
      for (guint i = 0; i < a->u.array->length; i++)
        {
          if (!_agui_json_value_equal (&a->u.array->items[i], &b->u.array->items[i]))
            return FALSE;
        }
      return TRUE;

    case AGUI_JSON_DOC_OBJECT:
      {
        AguiJsonDocObject *a_object = a->u.object;
        AguiJsonDocObject *b_object = b->u.object;

        if (_agui_json_object_get_size (a_object) != _agui_json_object_get_size (b_object))
          return FALSE;

        for (guint slot = 0; slot < a_object->n_slots; slot++)
          {
            const Member *member = &a_object->slots[slot];
            int other;

            if (member->value.kind == AGUI_JSON_DOC_HOLE)
              continue;
            other = _agui_json_object_find (b_object, member_name (member));
            if (other < 0 || !_agui_json_value_equal (&member->value, &b_object->slots[other].value))
              return FALSE;
          }

        return TRUE;
      }

    default:
      return FALSE;
    }
}

/* json-glib */

void
_agui_json_value_set_node (AguiJsonValue *value,
                           JsonNode      *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *source = json_node_get_object (node);
        AguiJsonDocObject *object = _agui_json_value_set_object (value, json_object_get_size (source));
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, source);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            AguiJsonValue child = AGUI_JSON_VALUE_INIT;

            _agui_json_value_set_node (&child, member);
            _agui_json_object_append (object, name, &child);
          }
      }
      return;

    case JSON_NODE_ARRAY:
      {
        JsonArray *source = json_node_get_array (node);
        guint length = json_array_get_length (source);
        AguiJsonDocArray *array = _agui_json_value_set_array (value, length);

        for (guint i = 0; i < length; i++)
          {
            array->items[i].kind = AGUI_JSON_DOC_NULL;
            _agui_json_value_set_node (&array->items[i], json_array_get_element (source, i));
          }
        array->length = length;
      }
      return;

    case JSON_NODE_NULL:
      _agui_json_value_clear (value);
      return;

    case JSON_NODE_VALUE:
    default:
      break;
    }

  /* As _agui_json_node_copy_deep () reads a value. */
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      _agui_json_value_set_boolean (value, json_node_get_boolean (node));
      break;
    case G_TYPE_STRING:
      {
        const char *string = json_node_get_string (node);

        _agui_json_value_set_string (value, string ? string : "", string ? strlen (string) : 0);
      }
      break;
    case G_TYPE_DOUBLE:
      _agui_json_value_set_double (value, json_node_get_double (node));
      break;
    default:
      _agui_json_value_set_int (value, json_node_get_int (node));
      break;
    }
}

JsonNode *
_agui_json_value_to_node (const AguiJsonValue *value)
{
  JsonNode *node = json_node_alloc ();

  switch (value->kind)
    {
    case AGUI_JSON_DOC_BOOLEAN:
      return json_node_init_boolean (node, value->u.boolean);
    case AGUI_JSON_DOC_INT:
      return json_node_init_int (node, value->u.integer);
    case AGUI_JSON_DOC_DOUBLE:
      return json_node_init_double (node, value->u.number);
    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      return json_node_init_string (node, _agui_json_value_get_string (value));

    case AGUI_JSON_DOC_ARRAY:
      {
        const AguiJsonDocArray *source = value->u.array;
        JsonArray *array = json_array_sized_new (source->length);

        for (guint i = 0; i < source->length; i++)
          json_array_add_element (array, _agui_json_value_to_node (&source->items[i]));
        json_node_init_array (node, array);
        json_array_unref (array);
        return node;
      }

    case AGUI_JSON_DOC_OBJECT:
      {
        const AguiJsonDocObject *source = value->u.object;
        JsonObject *object = json_object_new ();

        for (guint slot = 0; slot < source->n_slots; slot++)
          {
            const Member *member = &source->slots[slot];

            if (member->value.kind != AGUI_JSON_DOC_HOLE)
              json_object_set_member (object, member_name (member), _agui_json_value_to_node (&member->value));
          }
        json_node_init_object (node, object);
        json_object_unref (object);
        return node;
      }

    case AGUI_JSON_DOC_NULL:
    default:
      return json_node_init_null (node);
    }
}

/* The printer: append_value () in agui-json.c, over this tree. */

static void
append_indent (GString *out,
               gboolean pretty,
               guint    level)
{
  if (!pretty)
    return;

  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

gboolean
_agui_json_value_append (GString              *out,
                         const AguiJsonValue  *value,
                         gboolean              pretty,
                         guint                 level,
                         GError              **error)
{
  switch (value->kind)
    {
    case AGUI_JSON_DOC_OBJECT:
      {
        const AguiJsonDocObject *object = value->u.object;
        guint left = object->n_slots - object->n_holes;

        if (level >= AGUI_JSON_MAX_DEPTH)
          break;

        if (left == 0)
          {
            g_string_append (out, pretty ? "{  }" : "{}");
            return TRUE;
          }

        g_string_append_c (out, '{');
        for (guint slot = 0; slot < object->n_slots; slot++)
          {
            const Member *member = &object->slots[slot];

            if (member->value.kind == AGUI_JSON_DOC_HOLE)
              continue;
            append_indent (out, pretty, level + 1);
            _agui_json_append_string (out, member_name (member));
            g_string_append (out, pretty ? " : " : ":");
            if (!_agui_json_value_append (out, &member->value, pretty, level + 1, error))
              return FALSE;
            if (--left > 0)
              g_string_append_c (out, ',');
          }
        append_indent (out, pretty, level);
        g_string_append_c (out, '}');
        return TRUE;
      }

    case AGUI_JSON_DOC_ARRAY:
      {
        const AguiJsonDocArray *array = value->u.array;

        if (level >= AGUI_JSON_MAX_DEPTH)
          break;

        if (array->length == 0)
          {
            g_string_append (out, "[]");
            return TRUE;
          }

        g_string_append_c (out, '[');
        for (guint i = 0; i < array->length; i++)
          {
            append_indent (out, pretty, level + 1);
            if (!_agui_json_value_append (out, &array->items[i], pretty, level + 1, error))
              return FALSE;
            if (i + 1 < array->length)
              g_string_append_c (out, ',');
          }
        append_indent (out, pretty, level);
        g_string_append_c (out, ']');
        return TRUE;
      }

    case AGUI_JSON_DOC_BOOLEAN:
      g_string_append (out, value->u.boolean ? "true" : "false");
      return TRUE;

    case AGUI_JSON_DOC_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, value->u.integer);
      return TRUE;

    case AGUI_JSON_DOC_DOUBLE:
      return _agui_json_append_double (out, value->u.number, error);

    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      _agui_json_append_string (out, _agui_json_value_get_string (value));
      return TRUE;

    case AGUI_JSON_DOC_NULL:
    default:
      g_string_append (out, "null");
      return TRUE;
    }

  g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
               "arrays and objects are nested deeper than %d levels", AGUI_JSON_MAX_DEPTH);
  return FALSE;
}

char *
_agui_json_value_to_string (const AguiJsonValue  *value,
                            gboolean              pretty,
                            GError              **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (!_agui_json_value_append (out, value, pretty, 0, error))
    return NULL;

  return g_string_free (g_steal_pointer (&out), FALSE);
}
