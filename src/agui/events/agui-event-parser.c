/* agui-event-parser.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-compat-private.h"
#include "agui-event-parser-private.h"
#include "agui-event-private.h"
#include "agui-event-reader-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

/**
 * AguiEventParser:
 *
 * Turns the data of SSE frames into [struct@Agui.Event]s, one frame at a
 * time, the way the first three stages of an AG-UI client do (protocol
 * digest section 7):
 *
 * 1. the frame must be JSON, an object, with a non-empty string `type`;
 * 2. deprecated shapes are translated to 1.0 ones (tolerated `null`s are
 *    removed, `THINKING_*` events become `REASONING_*` events with minted
 *    ids, pre-1.0 `binary` content parts are upgraded);
 * 3. an event type outside 1.0 is dropped, and the schema is enforced.
 *
 * Everything that is removed or translated along the way is reported with
 * [signal@Agui.EventParser::warning]; none of it fails the stream.
 *
 * A parser keeps state between frames, so use one per stream: the ids it
 * mints for `THINKING_*` events, and the first half of a UTF-16 surrogate
 * pair that a JavaScript producer split across two deltas. Such halves
 * arrive as lone `\uD83D` / `\uDE00` escapes, which UTF-8 cannot
 * represent; the parser joins them, and every string it hands out is valid
 * UTF-8.
 *
 * A frame nested deeper than 512 levels, an integer beyond 64 bits or a
 * number beyond the range of a double is refused with an
 * %AGUI_ERROR_INVALID_JSON error that says so, rather than read as some
 * other number.
 *
 * ```c
 * g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
 * g_autoptr(AguiEvent) event = NULL;
 * g_autoptr(GError) error = NULL;
 *
 * event = _agui_event_parser_parse (parser, frame_data, -1, &error);
 * if (event == NULL && error != NULL)
 *   fail_the_run (error);
 * else if (event != NULL)
 *   handle (event);
 * // else: an unknown event type, dropped with a warning
 * ```
 */

/* Frames are read by AguiEventReader (yajl, one pass, typed members),
 * which also says why it refuses one. The json-glib path below is the
 * implementation that preceded it, kept only as the reference the tests
 * and `tandem-cli bench fold` compare the fast path with (see
 * _agui_event_parser_set_reference ()): it reads what the reader's syntax
 * check accepts, and refuses the rest in the reader's words.
 *
 * In that path, lone surrogate escapes are rewritten, before json-glib sees them, to the
 * code points U+10F800 + (surrogate - 0xD800): Supplementary Private Use
 * Area-B has room for exactly the 2048 surrogates. After parsing, these
 * markers are joined or replaced; none ever leaves the parser. */
#define MARKER_BASE         0x10F800
#define MARKER_LOW_BASE     (MARKER_BASE + 0x400)
#define MARKER_LAST         0x10FFFF
#define REPLACEMENT         0xFFFD

struct _AguiEventParser
{
  GObject     parent_instance;

  AguiThinkingIds thinking;

  /* stream key (see stream_key_for ()) → GUINT_TO_POINTER (high surrogate) */
  GHashTable *pending_highs;
  /* family + lane → the id of the chunk stream last seen in that lane */
  GHashTable *chunk_lane_ids;
  /* The U+FFFD of a high half still pending when its stream ended, as a
   * delta of its own, to be handled before the `*_END` just parsed. */
  AguiEvent  *before;

  AguiEventReader *reader;
  GArray     *patch_ops;      /* AguiPatchOp, for the patch reader */
  GString    *patch_strings;
  GPtrArray  *warnings;
  gboolean    reference;
  /* Streams repeat one type for long stretches: the last one is tried
   * before the table. */
  const char *last_type_name;
  AguiEventType last_type;
};

static gboolean reference_by_default;

G_DEFINE_FINAL_TYPE (AguiEventParser, _agui_event_parser, G_TYPE_OBJECT)

enum {
  WARNING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum
{
  FAMILY_NONE,
  FAMILY_TEXT,
  FAMILY_TOOL,
  FAMILY_REASONING,
} StreamFamily;

static void emit_warning (AguiEventParser *self,
                          const char      *format,
                          ...) G_GNUC_PRINTF (2, 3);

static void
emit_warning (AguiEventParser *self,
              const char      *format,
              ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s", message);
  g_signal_emit (self, signals[WARNING], 0, message);
}

/* Emits, in order, the warnings the stages left in self->warnings. */
static void
flush_warnings (AguiEventParser *self)
{
  for (guint i = 0; i < self->warnings->len; i++)
    emit_warning (self, "%s", (const char *) g_ptr_array_index (self->warnings, i));
  g_ptr_array_set_size (self->warnings, 0);
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

/* Returns %NULL when @data holds no lone surrogate escape (the usual case:
 * nothing is copied). Backslashes are taken in pairs, so the "\u" of an
 * escaped backslash followed by "u" is not mistaken for an escape. */
static GString *
rewrite_lone_surrogates (const char *data,
                         gsize       length)
{
  GString *rewritten = NULL;
  gsize copied = 0;
  gsize i = 0;

  while (i + 1 < length)
    {
      guint unit;
      guint next;

      if (data[i] != '\\')
        {
          i++;
          continue;
        }

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

      if (rewritten == NULL)
        rewritten = g_string_sized_new (length + 16);

      g_string_append_len (rewritten, data + copied, i - copied);
      g_string_append_unichar (rewritten, MARKER_BASE + (unit - 0xD800));
      i += 6;
      copied = i;
    }

  if (rewritten != NULL)
    g_string_append_len (rewritten, data + copied, length - copied);

  return rewritten;
}

static inline gboolean
is_marker (gunichar c)
{
  return c >= MARKER_BASE && c <= MARKER_LAST;
}

static inline gboolean
is_low_marker (gunichar c)
{
  return c >= MARKER_LOW_BASE && c <= MARKER_LAST;
}

/* Makes @string valid UTF-8 and, for a rewritten frame, replaces every
 * marker by U+FFFD: a lone surrogate outside a delta has nothing to join. */
static char *
sanitize_string (const char *string,
                 gboolean    has_markers)
{
  g_autofree char *valid = NULL;
  GString *result;

  if (!g_utf8_validate (string, -1, NULL))
    valid = g_utf8_make_valid (string, -1);

  if (!has_markers)
    return valid != NULL ? g_steal_pointer (&valid) : g_strdup (string);

  result = g_string_new (NULL);

  for (const char *p = valid != NULL ? valid : string; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_string_append_unichar (result, is_marker (c) ? REPLACEMENT : c);
    }

  return g_string_free (result, FALSE);
}

/* A deep copy: json_node_copy() shares objects, arrays and values with
 * the original, and the parser must neither modify its caller's tree nor
 * hand out strings that are not valid UTF-8. */
static JsonNode *
copy_node (JsonNode *node,
           gboolean  has_markers)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObject *object_copy = json_object_new ();
        g_autoptr(GList) names = json_object_get_members (object);

        for (const GList *l = names; l != NULL; l = l->next)
          {
            g_autofree char *name = sanitize_string (l->data, has_markers);

            json_object_set_member (object_copy, name,
                                    copy_node (json_object_get_member (object, l->data),
                                               has_markers));
          }

        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (copy, object_copy);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);
        JsonArray *array_copy = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (array_copy,
                                  copy_node (json_array_get_element (array, i), has_markers));

        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, array_copy);
        return copy;
      }

    case JSON_NODE_NULL:
      return json_node_new (JSON_NODE_NULL);

    case JSON_NODE_VALUE:
      copy = json_node_new (JSON_NODE_VALUE);

      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          {
            g_autofree char *string = sanitize_string (json_node_get_string (node), has_markers);

            json_node_set_string (copy, string);
          }
          break;

        case G_TYPE_INT64:
          json_node_set_int (copy, json_node_get_int (node));
          break;

        case G_TYPE_DOUBLE:
          json_node_set_double (copy, json_node_get_double (node));
          break;

        case G_TYPE_BOOLEAN:
          json_node_set_boolean (copy, json_node_get_boolean (node));
          break;

        default:
          g_assert_not_reached ();
        }

      return copy;

    default:
      g_assert_not_reached ();
    }
}

/* A string delta keeps its markers through the copy: it is joined with its
 * neighbours once the event's stream is known (fix_delta ()). */
static JsonNode *
copy_event (JsonNode *root,
            gboolean  has_markers)
{
  JsonObject *object = json_node_get_object (root);
  JsonNode *delta = json_object_get_member (object, "delta");
  JsonNode *copy = copy_node (root, has_markers);

  if (has_markers && delta != NULL && json_node_get_value_type (delta) == G_TYPE_STRING)
    json_object_set_member (json_node_get_object (copy), "delta", copy_node (delta, FALSE));

  return copy;
}

/* Surrogate halves split across deltas */

static StreamFamily
delta_family (AguiEventType type,
              gboolean     *is_chunk)
{
  *is_chunk = FALSE;

  switch (type)
    {
    case AGUI_EVENT_TEXT_MESSAGE_CHUNK:
      *is_chunk = TRUE;
      G_GNUC_FALLTHROUGH;
    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
      return FAMILY_TEXT;

    case AGUI_EVENT_TOOL_CALL_CHUNK:
      *is_chunk = TRUE;
      G_GNUC_FALLTHROUGH;
    case AGUI_EVENT_TOOL_CALL_ARGS:
      return FAMILY_TOOL;

    case AGUI_EVENT_REASONING_MESSAGE_CHUNK:
      *is_chunk = TRUE;
      G_GNUC_FALLTHROUGH;
    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
      return FAMILY_REASONING;

    default:
      return FAMILY_NONE;
    }
}

static StreamFamily
end_family (AguiEventType type)
{
  switch (type)
    {
    case AGUI_EVENT_TEXT_MESSAGE_END:
      return FAMILY_TEXT;
    case AGUI_EVENT_TOOL_CALL_END:
      return FAMILY_TOOL;
    case AGUI_EVENT_REASONING_MESSAGE_END:
      return FAMILY_REASONING;
    default:
      return FAMILY_NONE;
    }
}

static const char *
family_id_member (StreamFamily family)
{
  return family == FAMILY_TOOL ? "toolCallId" : "messageId";
}

/* The key of the stream a delta belongs to: its family and id. A chunk
 * without an id continues the stream last opened by a chunk in its lane
 * (its subagentRunId), as chunk expansion will decide (section 10.2). */
static char *
stream_key_for (AguiEventParser *self,
                StreamFamily     family,
                gboolean         is_chunk,
                const char      *id,
                const char      *lane)
{
  if (is_chunk)
    {
      g_autofree char *lane_key = g_strdup_printf ("%d\x1f%s", family, lane ? lane : "");

      if (id != NULL)
        g_hash_table_replace (self->chunk_lane_ids, g_steal_pointer (&lane_key), g_strdup (id));
      else
        id = g_hash_table_lookup (self->chunk_lane_ids, lane_key);

      if (id == NULL)
        return g_strdup_printf ("%d\x1elane\x1f%s", family, lane ? lane : "");
    }

  return g_strdup_printf ("%d\x1f%s", family, id ? id : "");
}

/* The delta was copied with its markers; join a pending high surrogate
 * with a low one at the start, keep a high one at the end for the next
 * delta of the stream, and replace every other marker. */
static char *
join_delta (AguiEventParser *self,
            const char      *key,
            const char      *delta,
            gboolean         has_markers)
{
  GString *result = g_string_sized_new (strlen (delta));
  g_autofree char *pending_key = NULL;
  gpointer pending = NULL;
  const char *p = delta;

  if (g_hash_table_steal_extended (self->pending_highs, key, (gpointer *) &pending_key, &pending))
    {
      gunichar high = GPOINTER_TO_UINT (pending);
      gunichar c = g_utf8_get_char (p);

      if (has_markers && is_low_marker (c))
        {
          gunichar low = c - MARKER_BASE + 0xD800;

          g_string_append_unichar (result, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
          p = g_utf8_next_char (p);
        }
      else
        {
          emit_warning (self, "Replacing an unpaired UTF-16 surrogate at the end of a delta with U+FFFD");
          g_string_append_unichar (result, REPLACEMENT);
        }
    }

  for (; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);

      if (!has_markers || !is_marker (c))
        {
          g_string_append_unichar (result, c);
          continue;
        }

      if (!is_low_marker (c) && *next == '\0')
        {
          g_hash_table_insert (self->pending_highs, g_strdup (key),
                               GUINT_TO_POINTER (c - MARKER_BASE + 0xD800));
          continue;
        }

      emit_warning (self, "Replacing an unpaired UTF-16 surrogate in a delta with U+FFFD");
      g_string_append_unichar (result, REPLACEMENT);
    }

  return g_string_free (result, FALSE);
}

static AguiEventType
content_type (StreamFamily family)
{
  switch (family)
    {
    case FAMILY_TEXT:
      return AGUI_EVENT_TEXT_MESSAGE_CONTENT;
    case FAMILY_TOOL:
      return AGUI_EVENT_TOOL_CALL_ARGS;
    case FAMILY_REASONING:
      return AGUI_EVENT_REASONING_MESSAGE_CONTENT;
    case FAMILY_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* A high half still pending when its stream ends becomes U+FFFD, as one
 * in the middle of the text does: a delta of its own, before the end. */
static void
end_pending_high (AguiEventParser *self,
                  StreamFamily     family,
                  AguiEventType    end_type,
                  const char      *key,
                  const char      *id,
                  const char      *lane)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members;

  if (!g_hash_table_remove (self->pending_highs, key))
    return;

  emit_warning (self, "Replacing an unpaired UTF-16 surrogate left at the end of the stream before %s with U+FFFD",
                agui_event_type_to_string (end_type));
  if (id == NULL)
    return;

  members = _agui_json_value_set_object (&tree, 4);
  _agui_json_doc_set_string (members, family_id_member (family), id);
  if (lane != NULL)
    _agui_json_doc_set_string (members, "subagentRunId", lane);
  _agui_json_doc_set_string (members, "delta", "\xEF\xBF\xBD");
  g_clear_pointer (&self->before, agui_event_unref);
  self->before = _agui_event_new_tree (content_type (family), &tree);
}

typedef const char *(*StringGetter) (gpointer    data,
                                     const char *name);

/* The end of a stream, whatever reader read its event: a high half still
 * pending in it becomes a delta of its own (see end_pending_high ()).
 * Inlined for the flat path's sake, as fix_read_delta () is. */
G_ALWAYS_INLINE static inline void
end_stream (AguiEventParser *self,
            StreamFamily     family,
            AguiEventType    end_type,
            StringGetter     get,
            gpointer         data)
{
  const char *id = get (data, family_id_member (family));
  const char *lane = get (data, "subagentRunId");
  g_autofree char *key = stream_key_for (self, family, FALSE, id, lane);

  end_pending_high (self, family, end_type, key, id, lane);
}

/* The reference reader's fix of a delta (its markers are characters of
 * their own, see rewrite_lone_surrogates ()), reading members through
 * @get: the delta to use instead, or %NULL for none. */
static char *
fix_delta (AguiEventParser *self,
           AguiEventType    type,
           gboolean         has_markers,
           StringGetter     get,
           gpointer         data)
{
  g_autofree char *key = NULL;
  StreamFamily family;
  gboolean is_chunk;
  const char *delta;

  family = end_family (type);
  if (family != FAMILY_NONE)
    {
      end_stream (self, family, type, get, data);
      return NULL;
    }

  delta = get (data, "delta");
  if (delta == NULL)
    return NULL;

  family = delta_family (type, &is_chunk);
  if (family == FAMILY_NONE)
    return sanitize_string (delta, has_markers);

  /* A keep-alive between the two halves must not break the pair. */
  if (delta[0] == '\0')
    return NULL;

  key = stream_key_for (self, family, is_chunk, get (data, family_id_member (family)),
                        get (data, "subagentRunId"));

  return join_delta (self, key, delta, has_markers);
}

static AguiEvent *parse_members (AguiEventParser  *self,
                                 AguiJsonValue    *members,
                                 gboolean          has_markers,
                                 gboolean          reference,
                                 GError          **error);

/* The stages after JSON parsing, on a tree the parser does not own. */
static AguiEvent *
parse_tree (AguiEventParser  *self,
            JsonNode         *root,
            gboolean          has_markers,
            GError          **error)
{
  g_autoptr(JsonNode) copy = NULL;
  AguiJsonValue members = AGUI_JSON_VALUE_INIT;
  JsonNode *type_node;

  g_clear_pointer (&self->before, agui_event_unref);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame is not a JSON object.");
      return NULL;
    }

  type_node = json_object_get_member (json_node_get_object (root), "type");
  if (type_node == NULL ||
      json_node_get_value_type (type_node) != G_TYPE_STRING ||
      json_node_get_string (type_node)[0] == '\0')
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame carries no event type.");
      return NULL;
    }

  copy = copy_event (root, has_markers);
  _agui_json_value_set_node (&members, copy);

  return parse_members (self, &members, has_markers, TRUE, error);
}

/* The fast path */

static const char *
tree_getter (gpointer    data,
             const char *name)
{
  AguiJsonDocObject *object = data;
  int slot = _agui_json_object_find (object, name);
  const AguiJsonValue *value;

  if (slot < 0)
    return NULL;

  value = _agui_json_object_slot_value (object, slot);

  return _agui_json_value_is_string (value) ? _agui_json_value_get_string (value) : NULL;
}

static AguiFlatMember *
reader_member (AguiEventReader *reader,
               const char      *name)
{
  AguiFlatMember *members;
  guint n = _agui_event_reader_get_members (reader, &members);
  gsize length;
  const char *arena = _agui_event_reader_get_arena (reader, &length);

  for (guint i = 0; i < n; i++)
    {
      const char *candidate = arena + members[i].name;

      if (candidate[0] == name[0] && strcmp (candidate, name) == 0)
        return members[i].kind != AGUI_FLAT_TREE ? &members[i] : NULL;
    }

  return NULL;
}

/* Inlined into the flat path with fix_read_delta (), as it always was
 * there: the names it is asked for are then constants. */
G_ALWAYS_INLINE static inline const char *
reader_getter (gpointer    data,
               const char *name)
{
  AguiFlatMember *member = reader_member (data, name);
  gsize length;

  if (member == NULL || member->kind != AGUI_FLAT_STRING)
    return NULL;

  return _agui_event_reader_get_arena (data, &length) + member->string;
}

static char *
replace_markers (const char *string)
{
  GString *result = g_string_sized_new (strlen (string));

  for (const char *p = string; *p != '\0';)
    {
      if (_agui_event_reader_is_marker (p))
        {
          g_string_append_unichar (result, REPLACEMENT);
          p += 3;
        }
      else
        {
          g_string_append_c (result, *p++);
        }
    }

  return g_string_free (result, FALSE);
}

/* As join_delta () for a delta read by AguiEventReader, whose lone
 * surrogates are three-byte markers. */
static char *
join_marked_delta (AguiEventParser *self,
                   const char      *key,
                   const char      *delta)
{
  GString *result = g_string_sized_new (strlen (delta) + 4);
  g_autofree char *pending_key = NULL;
  gpointer pending = NULL;
  const char *p = delta;

  if (g_hash_table_steal_extended (self->pending_highs, key, (gpointer *) &pending_key, &pending))
    {
      gunichar high = GPOINTER_TO_UINT (pending);

      if (_agui_event_reader_is_marker (p) && _agui_event_reader_marker_surrogate (p) >= 0xDC00)
        {
          gunichar low = _agui_event_reader_marker_surrogate (p);

          g_string_append_unichar (result, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
          p += 3;
        }
      else
        {
          emit_warning (self, "Replacing an unpaired UTF-16 surrogate at the end of a delta with U+FFFD");
          g_string_append_unichar (result, REPLACEMENT);
        }
    }

  while (*p != '\0')
    {
      guint unit;

      if (!_agui_event_reader_is_marker (p))
        {
          g_string_append_c (result, *p++);
          continue;
        }

      unit = _agui_event_reader_marker_surrogate (p);
      p += 3;

      if (unit <= 0xDBFF && *p == '\0')
        {
          g_hash_table_insert (self->pending_highs, g_strdup (key), GUINT_TO_POINTER (unit));
          continue;
        }

      emit_warning (self, "Replacing an unpaired UTF-16 surrogate in a delta with U+FFFD");
      g_string_append_unichar (result, REPLACEMENT);
    }

  return g_string_free (result, FALSE);
}

/* As fix_delta (), reading members through @get. Returns the delta to
 * use instead, or %NULL when it stands as it is, which is the case, with
 * no work done, for a frame with no lone surrogate while none is pending. */
/* Inlined: each caller's copy then calls its own getter directly, and
 * on the flat path, every stream's hot path, knows the names it asks
 * for. */
G_ALWAYS_INLINE static inline char *
fix_read_delta (AguiEventParser *self,
                AguiEventType    type,
                gboolean         has_markers,
                StringGetter     get,
                gpointer         data)
{
  StreamFamily family;
  gboolean is_chunk;
  gboolean pending = g_hash_table_size (self->pending_highs) > 0;
  const char *delta;

  family = end_family (type);
  if (family != FAMILY_NONE)
    {
      if (pending)
        end_stream (self, family, type, get, data);
      return NULL;
    }

  delta = get (data, "delta");
  if (delta == NULL)
    return NULL;

  family = delta_family (type, &is_chunk);
  if (family == FAMILY_NONE)
    return has_markers ? replace_markers (delta) : NULL;

  /* A keep-alive between the two halves must not break the pair. */
  if (delta[0] == '\0')
    return NULL;

  if (!has_markers && !pending && !is_chunk)
    return NULL;

  {
    g_autofree char *key = stream_key_for (self, family, is_chunk,
                                           get (data, family_id_member (family)),
                                           get (data, "subagentRunId"));

    if (!has_markers && !pending)
      return NULL;

    return join_marked_delta (self, key, delta);
  }
}

static gboolean
emit_warnings_and_check (AguiEventParser  *self,
                         gboolean          valid,
                         GError           *local_error,
                         GError          **error)
{
  flush_warnings (self);

  if (!valid)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  return TRUE;
}

static AguiEvent *
parse_flat (AguiEventParser  *self,
            AguiEventType     type,
            GError          **error)
{
  g_autofree char *fixed = NULL;
  GError *local_error = NULL;
  AguiFlatMember *members;
  const char *arena;
  gsize arena_length;
  guint n;
  gboolean valid;

  fixed = fix_read_delta (self, type, _agui_event_reader_has_markers (self->reader),
                          reader_getter, self->reader);
  if (fixed != NULL)
    {
      gsize offset = _agui_event_reader_add_string (self->reader, fixed);
      AguiFlatMember *delta = reader_member (self->reader, "delta");

      delta->string = offset;
      delta->length = strlen (fixed);
    }

  n = _agui_event_reader_get_members (self->reader, &members);
  arena = _agui_event_reader_get_arena (self->reader, &arena_length);

  valid = _agui_event_schema_enforce_flat (type, members, &n, arena, self->warnings, &local_error);
  if (!emit_warnings_and_check (self, valid, local_error, error))
    return NULL;

  return _agui_event_new_flat (type, members, n, arena, arena_length);
}

/* The stages after reading, on the event's members as one object of the
 * compact tree, which this takes: the deprecated forms translated, the
 * delta's surrogates joined (by the reader's markers, or the reference
 * reader's), the schema enforced. */
static AguiEvent *
parse_members (AguiEventParser  *self,
               AguiJsonValue    *members,
               gboolean          has_markers,
               gboolean          reference,
               GError          **error)
{
  AguiJsonDocObject *object = members->u.object;
  g_autofree char *name = g_strdup (tree_getter (object, "type"));
  g_autofree char *fixed = NULL;
  GError *local_error = NULL;
  const char *translated;
  AguiEventType type;
  gboolean valid;

  if ((translated = _agui_event_translate_thinking_tree (&self->thinking, object, name, self->warnings)) != NULL)
    {
      g_free (name);
      name = g_strdup (translated);
    }

  _agui_event_translate_compat_tree (name, object, self->warnings);
  flush_warnings (self);

  if (!agui_event_type_from_string (name, &type))
    {
      emit_warning (self, "Dropping unrecognised event '%s'", name);
      _agui_json_value_clear (members);
      return NULL;
    }

  if (reference)
    fixed = fix_delta (self, type, has_markers, tree_getter, object);
  else
    fixed = fix_read_delta (self, type, has_markers, tree_getter, object);
  if (fixed != NULL)
    {
      AguiJsonValue delta = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_string (&delta, fixed, strlen (fixed));
      _agui_json_object_set (object, "delta", &delta);
    }

  valid = _agui_event_schema_enforce_tree (type, object, self->warnings, &local_error);
  if (!emit_warnings_and_check (self, valid, local_error, error))
    {
      _agui_json_value_clear (members);
      return NULL;
    }

  return _agui_event_new_tree (type, members);
}

static AguiEvent *
parse_object (AguiEventParser  *self,
              GError          **error)
{
  AguiJsonValue members = AGUI_JSON_VALUE_INIT;

  _agui_event_reader_steal_tree (self->reader, &members);

  return parse_members (self, &members, _agui_event_reader_has_markers (self->reader), FALSE, error);
}

static AguiEvent *parse_reference (AguiEventParser  *self,
                                   const char       *data,
                                   gsize             length,
                                   GError          **error);

static void
set_invalid_json (GError **error,
                  GError  *reason)
{
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: %s", reason->message);
  g_error_free (reason);
}

/* What the reader refuses in a frame it is not given, in its words: one
 * that is not valid UTF-8, or any for the reference. Nesting deeper than
 * AGUI_JSON_MAX_DEPTH, numbers beyond int64 or double and U+0000 first,
 * as the reader checks them, then the syntax. */
static gboolean
frame_check (const char  *data,
             gsize        length,
             GError     **error)
{
  GError *local_error = NULL;

  if (_agui_json_check (data, length, AGUI_JSON_CHECK_NUMBERS | AGUI_JSON_CHECK_NUL, &local_error) &&
      _agui_json_check_syntax (data, length, &local_error))
    return TRUE;

  set_invalid_json (error, local_error);

  return FALSE;
}

/* A STATE_DELTA in the form producers write it, its type first and its
 * patch second, is read by the patch reader: the patch never becomes a
 * json-glib tree unless someone asks for the event's "delta". Returns
 * NULL, having kept nothing, for any other frame, which is then read the
 * general way: the patch reader takes only what that way would take
 * without a warning, and the event it makes is the same event. */
static AguiEvent *
parse_patch_frame (AguiEventParser *self,
                   const char      *data,
                   gsize            length)
{
  static const char prefix[] = "{\"type\":\"STATE_DELTA\",\"delta\":";
  static const char arena[] = "type\0STATE_DELTA";
  const AguiFlatMember type_member = {
    .name = 0, .string = 5, .length = 11, .kind = AGUI_FLAT_STRING,
  };
  const char *patch = data + sizeof prefix - 1;
  const char *end = data + length;
  const char *p;
  gsize patch_length;

  if (length < sizeof prefix || memcmp (data, prefix, sizeof prefix - 1) != 0 ||
      memchr (data, '\\', length) != NULL)
    return NULL;

  g_string_truncate (self->patch_strings, 0);
  patch_length = _agui_patch_reader_scan (self->reader, patch, end - patch,
                                          self->patch_ops, self->patch_strings);
  if (patch_length == 0)
    return NULL;

  p = patch + patch_length;
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  if (p < end && *p == '}')
    p++;
  else
    p = NULL;
  while (p != NULL && p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;

  if (p != end)
    {
      g_array_set_size (self->patch_ops, 0);
      return NULL;
    }

  return _agui_event_new_patch (AGUI_EVENT_STATE_DELTA, &type_member, 1, arena, sizeof arena,
                                patch, patch_length, self->patch_ops, self->patch_strings);
}

static AguiEvent *
parse_fast (AguiEventParser  *self,
            const char       *data,
            gsize             length,
            gboolean          valid_utf8,
            GError          **error)
{
  GError *read_error = NULL;
  AguiFlatMember *type_member;
  AguiEventType type;
  const char *type_name;
  gsize arena_length;

  g_clear_pointer (&self->before, agui_event_unref);
  if (!valid_utf8 && !g_utf8_validate_len (data, length, NULL))
    {
      frame_check (data, length, error);
      return NULL;
    }

  {
    AguiEvent *event = parse_patch_frame (self, data, length);

    if (event != NULL)
      return event;
  }

  switch (_agui_event_reader_read (self->reader, data, length, &read_error))
    {
    case AGUI_READ_OK:
      break;
    case AGUI_READ_REFUSED:
    case AGUI_READ_MALFORMED:
      set_invalid_json (error, read_error);
      return NULL;
    case AGUI_READ_NOT_OBJECT:
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame is not a JSON object.");
      return NULL;
    default:
      g_assert_not_reached ();
    }

  type_member = reader_member (self->reader, "type");
  if (type_member == NULL || type_member->kind != AGUI_FLAT_STRING || type_member->length == 0)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame carries no event type.");
      return NULL;
    }

  type_name = _agui_event_reader_get_arena (self->reader, &arena_length) + type_member->string;

  if (_agui_event_reader_is_flat (self->reader))
    {
      if (self->last_type_name != NULL && strcmp (type_name, self->last_type_name) == 0)
        return parse_flat (self, self->last_type, error);

      if (agui_event_type_from_string (type_name, &type))
        {
          self->last_type = type;
          self->last_type_name = agui_event_type_to_string (type);
          return parse_flat (self, type, error);
        }
    }

  return parse_object (self, error);
}

static void
_agui_event_parser_finalize (GObject *object)
{
  AguiEventParser *self = (AguiEventParser *) object;

  _agui_thinking_ids_clear (&self->thinking);
  g_clear_pointer (&self->pending_highs, g_hash_table_unref);
  g_clear_pointer (&self->before, agui_event_unref);
  g_clear_pointer (&self->chunk_lane_ids, g_hash_table_unref);
  g_clear_pointer (&self->reader, _agui_event_reader_free);
  g_array_unref (self->patch_ops);
  g_string_free (self->patch_strings, TRUE);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);

  G_OBJECT_CLASS (_agui_event_parser_parent_class)->finalize (object);
}

static void
_agui_event_parser_class_init (AguiEventParserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = _agui_event_parser_finalize;

  /**
   * AguiEventParser::warning:
   * @self: the parser
   * @message: what was removed or translated, in technical English
   *
   * Emitted for each deprecated shape translated, each unknown event
   * dropped and each unknown member or variant removed.
   */
  signals[WARNING] =
    g_signal_new ("warning",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
_agui_event_parser_init (AguiEventParser *self)
{
  self->pending_highs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->chunk_lane_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->reader = _agui_event_reader_new ();
  self->patch_ops = g_array_new (FALSE, FALSE, sizeof (AguiPatchOp));
  self->patch_strings = g_string_new (NULL);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->reference = reference_by_default;
}

void
_agui_event_parser_set_reference (AguiEventParser *self,
                                  gboolean         reference)
{
  g_return_if_fail (AGUI_IS_EVENT_PARSER (self));

  self->reference = reference;
}

void
_agui_event_parser_set_reference_by_default (gboolean reference)
{
  reference_by_default = reference;
}

/**
 * _agui_event_parser_new:
 *
 * Returns: (transfer full): a new parser, for one event stream
 */
AguiEventParser *
_agui_event_parser_new (void)
{
  return g_object_new (AGUI_TYPE_EVENT_PARSER, NULL);
}

/**
 * _agui_event_parser_parse:
 * @self: a parser
 * @data: the data of one SSE frame: one JSON event
 * @length: length of @data in bytes, or -1 if it is nul-terminated
 * @error: return location for a #GError
 *
 * Parses one event. %AGUI_ERROR_INVALID_JSON means @data is not JSON, not
 * an object, or has no event type; %AGUI_ERROR_INVALID_EVENT means a known
 * event breaks the schema. Either fails the stream. A frame nested deeper
 * than 512 levels, holding a number that does not fit in a 64-bit integer
 * or a double, or a U+0000 in a string is refused as %AGUI_ERROR_INVALID_JSON
 * rather than changed.
 *
 * Returns: (transfer full) (nullable): the event; %NULL with @error set on
 *   failure, or %NULL with no error when the event type is not one of
 *   AG-UI 1.0 and the event was dropped (with a warning)
 */
AguiEvent *
_agui_event_parser_parse (AguiEventParser  *self,
                         const char       *data,
                         gssize            length,
                         GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (self), NULL);
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = strlen (data);

  if (self->reference)
    return frame_check (data, length, error) ? parse_reference (self, data, length, error) : NULL;

  return parse_fast (self, data, length, FALSE, error);
}

AguiEvent *
_agui_event_parser_parse_valid (AguiEventParser  *self,
                                const char       *data,
                                gsize             length,
                                GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (self), NULL);
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->reference)
    return frame_check (data, length, error) ? parse_reference (self, data, length, error) : NULL;

  return parse_fast (self, data, length, TRUE, error);
}

static AguiEvent *
parse_reference (AguiEventParser  *self,
                 const char       *data,
                 gsize             length,
                 GError          **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GString) rewritten = NULL;

  rewritten = rewrite_lone_surrogates (data, length);
  if (rewritten != NULL)
    {
      data = rewritten->str;
      length = rewritten->len;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                   "Invalid event: %s", local_error->message);
      return NULL;
    }

  return parse_tree (self, json_parser_get_root (parser), rewritten != NULL, error);
}

/**
 * _agui_event_parser_parse_node:
 * @self: a parser
 * @node: one event as JSON; not modified
 * @error: return location for a #GError
 *
 * Like [method@Agui.EventParser.parse] for an event that is already
 * parsed, such as one from a stored list of events.
 *
 * Returns: (transfer full) (nullable): the event, or %NULL as for
 *   [method@Agui.EventParser.parse]
 */
AguiEvent *
_agui_event_parser_parse_node (AguiEventParser  *self,
                              JsonNode         *node,
                              GError          **error)
{
  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (self), NULL);
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_tree (self, node, FALSE, error);
}

AguiEvent *
_agui_event_parser_parse_value (AguiEventParser  *self,
                                AguiJsonValue    *object,
                                GError          **error)
{
  const char *type;

  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (self), NULL);
  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_clear_pointer (&self->before, agui_event_unref);
  if (object->kind != AGUI_JSON_DOC_OBJECT)
    {
      _agui_json_value_clear (object);
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame is not a JSON object.");
      return NULL;
    }

  type = tree_getter (object->u.object, "type");
  if (type == NULL || type[0] == '\0')
    {
      _agui_json_value_clear (object);
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
                           "Invalid event: the frame carries no event type.");
      return NULL;
    }

  /* Nothing in the tree is a marker: no lone surrogate reaches it. */
  return parse_members (self, object, FALSE, FALSE, error);
}

/* A frame may stand for two events: a `*_END` whose stream still waited
 * for the second half of a surrogate pair is preceded by a delta of
 * U+FFFD, as the half would be anywhere else. Whoever handles the event
 * the last parse returned takes this one (transfer full, or NULL) first. */
AguiEvent *
_agui_event_parser_take_before (AguiEventParser *self)
{
  g_return_val_if_fail (AGUI_IS_EVENT_PARSER (self), NULL);

  return g_steal_pointer (&self->before);
}
