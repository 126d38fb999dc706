/* agui-chunk-normalizer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-chunk-normalizer-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"

/**
 * AguiChunkNormalizer:
 *
 * Expands the `*_CHUNK` shorthand events into ordinary START, CONTENT and
 * END events, as AG-UI section 10 describes, so that nothing after it in
 * the pipeline ever sees a chunk.
 *
 * Each producer (a `subagentRunId`, or the parent agent when that is
 * absent) has one lane holding at most one pending stream opened by
 * chunks. A chunk continues or replaces its lane's stream; other events
 * close the streams of the lanes they concern before they pass through.
 *
 * ```c
 * g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
 *
 * if (!_agui_chunk_normalizer_push (normalizer, event, out, &error))
 *   return fail_run (error);   // events already in @out are still valid
 * for (guint i = 0; i < out->len; i++)
 *   verify_and_apply (g_ptr_array_index (out, i));
 * ```
 */

typedef enum
{
  STREAM_TEXT,
  STREAM_TOOL,
  STREAM_REASONING,
  N_STREAM_KINDS
} StreamKind;

typedef struct
{
  StreamKind  kind;
  char       *owner;              /* NULL: the parent agent */
  char       *id;
  char       *role;               /* text: as established, never NULL */
  char       *name;               /* text: nullable */
  char       *tool_call_name;     /* tool */
  char       *parent_message_id;  /* tool: nullable */
  GList       link;               /* in open_order */
} PendingStream;

typedef struct
{
  const char    *label;
  const char    *chunk_type;
  const char    *id_member;
  AguiEventType  start;
  AguiEventType  content;
  AguiEventType  end;
} StreamKindInfo;

static const StreamKindInfo kind_info[N_STREAM_KINDS] = {
  [STREAM_TEXT] = {
    "text message", "TEXT_MESSAGE_CHUNK", "messageId",
    AGUI_EVENT_TEXT_MESSAGE_START, AGUI_EVENT_TEXT_MESSAGE_CONTENT, AGUI_EVENT_TEXT_MESSAGE_END,
  },
  [STREAM_TOOL] = {
    "tool call", "TOOL_CALL_CHUNK", "toolCallId",
    AGUI_EVENT_TOOL_CALL_START, AGUI_EVENT_TOOL_CALL_ARGS, AGUI_EVENT_TOOL_CALL_END,
  },
  [STREAM_REASONING] = {
    "reasoning message", "REASONING_MESSAGE_CHUNK", "messageId",
    AGUI_EVENT_REASONING_MESSAGE_START, AGUI_EVENT_REASONING_MESSAGE_CONTENT, AGUI_EVENT_REASONING_MESSAGE_END,
  },
};

struct _AguiChunkNormalizer
{
  GObject        parent_instance;

  /* A lane exists only while it has a pending stream, so a lane and its
   * stream are the same record. Every table borrows the streams; they are
   * owned by open_order. */
  PendingStream *parent_lane;
  GHashTable    *subagent_lanes;            /* owner → PendingStream */
  GHashTable    *by_id[N_STREAM_KINDS];     /* id → PendingStream */
  GQueue         open_order;                /* of PendingStream, oldest first */
};

G_DEFINE_FINAL_TYPE (AguiChunkNormalizer, _agui_chunk_normalizer, G_TYPE_OBJECT)

static void
pending_stream_free (PendingStream *stream)
{
  g_free (stream->owner);
  g_free (stream->id);
  g_free (stream->role);
  g_free (stream->name);
  g_free (stream->tool_call_name);
  g_free (stream->parent_message_id);
  g_free (stream);
}

static const char *
owner_to_string (const char *owner)
{
  return owner != NULL ? owner : "(the parent agent)";
}

/* Null-valued members are read as absent: the compatibility stage removes
 * the tolerated nulls, and schema enforcement rejects the others. */
static gboolean
has_present_member (AguiEvent  *event,
                    const char *name)
{
  return agui_event_has_member (event, name) && !_agui_event_member_is_null (event, name);
}

static PendingStream *
lookup_lane (AguiChunkNormalizer *self,
             const char          *owner)
{
  if (owner == NULL)
    return self->parent_lane;

  return g_hash_table_lookup (self->subagent_lanes, owner);
}

static PendingStream *
open_stream (AguiChunkNormalizer *self,
             StreamKind           kind,
             const char          *owner,
             const char          *id)
{
  PendingStream *stream;

  g_assert (lookup_lane (self, owner) == NULL);
  g_assert (!g_hash_table_contains (self->by_id[kind], id));

  stream = g_new0 (PendingStream, 1);
  stream->kind = kind;
  stream->owner = g_strdup (owner);
  stream->id = g_strdup (id);
  stream->link.data = stream;

  if (owner == NULL)
    self->parent_lane = stream;
  else
    g_hash_table_insert (self->subagent_lanes, stream->owner, stream);
  g_hash_table_insert (self->by_id[kind], stream->id, stream);
  g_queue_push_tail_link (&self->open_order, &stream->link);

  return stream;
}

static void
forget_stream (AguiChunkNormalizer *self,
               PendingStream       *stream)
{
  if (stream->owner == NULL)
    self->parent_lane = NULL;
  else
    g_hash_table_remove (self->subagent_lanes, stream->owner);
  g_hash_table_remove (self->by_id[stream->kind], stream->id);
  g_queue_unlink (&self->open_order, &stream->link);

  pending_stream_free (stream);
}

/* The END carries only the id and the owner: the chunk that caused it may
 * belong to another message entirely, so none of its members apply. */
static void
close_stream (AguiChunkNormalizer *self,
              PendingStream       *stream,
              GPtrArray           *out)
{
  const StreamKindInfo *info = &kind_info[stream->kind];
  g_auto(AguiJsonValue) members = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object = _agui_json_value_set_object (&members, 3);

  _agui_json_doc_set_string (object, info->id_member, stream->id);
  if (stream->owner != NULL)
    _agui_json_doc_set_string (object, "subagentRunId", stream->owner);
  g_ptr_array_add (out, _agui_event_new_tree (info->end, &members));

  forget_stream (self, stream);
}

static void
close_lane (AguiChunkNormalizer *self,
            const char          *owner,
            GPtrArray           *out)
{
  PendingStream *stream = lookup_lane (self, owner);

  if (stream != NULL)
    close_stream (self, stream, out);
}

static void
close_all_lanes (AguiChunkNormalizer *self,
                 GPtrArray           *out)
{
  while (self->open_order.head != NULL)
    close_stream (self, self->open_order.head->data, out);
}

static gboolean
check_continuation_field (PendingStream  *stream,
                          AguiEvent      *chunk,
                          const char     *field,
                          const char     *established,
                          GError        **error)
{
  const char *value = agui_event_get_string (chunk, field);

  if (value == NULL || g_strcmp0 (value, established) == 0)
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK,
               "Cannot continue %s '%s': chunk %s '%s' does not match the open stream's %s '%s'.",
               kind_info[stream->kind].label, stream->id, field, value,
               field, established != NULL ? established : "(absent)");
  return FALSE;
}

static gboolean
check_continuation (PendingStream  *stream,
                    AguiEvent      *chunk,
                    GError        **error)
{
  switch (stream->kind)
    {
    case STREAM_TEXT:
      return check_continuation_field (stream, chunk, "role", stream->role, error) &&
             check_continuation_field (stream, chunk, "name", stream->name, error);

    case STREAM_TOOL:
      return check_continuation_field (stream, chunk, "toolCallName", stream->tool_call_name, error) &&
             check_continuation_field (stream, chunk, "parentMessageId", stream->parent_message_id, error);

    case STREAM_REASONING:
      return TRUE;

    case N_STREAM_KINDS:
    default:
      g_assert_not_reached ();
    }
}

/* Copies the chunk's member @name unless it is absent or null. */
static void
copy_present_member (AguiJsonDocObject *members,
                     AguiEvent         *chunk,
                     const char        *name)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

  if (_agui_event_member_to_value (chunk, name, &value) && value.kind != AGUI_JSON_DOC_NULL)
    _agui_json_object_set (members, name, &value);
}

static void
set_optional_string (AguiJsonDocObject *members,
                     const char        *name,
                     const char        *value)
{
  if (value != NULL)
    _agui_json_doc_set_string (members, name, value);
}

static void
emit_start (PendingStream *stream,
            AguiEvent     *chunk,
            GPtrArray     *out)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members = _agui_json_value_set_object (&tree, 6);

  _agui_json_doc_set_string (members, kind_info[stream->kind].id_member, stream->id);

  switch (stream->kind)
    {
    case STREAM_TEXT:
      _agui_json_doc_set_string (members, "role", stream->role);
      set_optional_string (members, "name", stream->name);
      break;

    case STREAM_TOOL:
      _agui_json_doc_set_string (members, "toolCallName", stream->tool_call_name);
      set_optional_string (members, "parentMessageId", stream->parent_message_id);
      break;

    case STREAM_REASONING:
      _agui_json_doc_set_string (members, "role", "reasoning");
      break;

    case N_STREAM_KINDS:
    default:
      g_assert_not_reached ();
    }

  copy_present_member (members, chunk, "metadata");
  set_optional_string (members, "subagentRunId", stream->owner);

  g_ptr_array_add (out, _agui_event_new_tree (kind_info[stream->kind].start, &tree));
}

static void
emit_content (PendingStream *stream,
              AguiEvent     *chunk,
              const char    *delta,
              GPtrArray     *out)
{
  g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *members = _agui_json_value_set_object (&tree, 6);

  _agui_json_doc_set_string (members, kind_info[stream->kind].id_member, stream->id);
  _agui_json_doc_set_string (members, "delta", delta != NULL ? delta : "");
  copy_present_member (members, chunk, "metadata");
  copy_present_member (members, chunk, "rawEvent");
  set_optional_string (members, "subagentRunId", stream->owner);

  g_ptr_array_add (out, _agui_event_new_tree (kind_info[stream->kind].content, &tree));
}

/* Section 10.2: which lane a chunk belongs to. On success *owner is the
 * lane's owner (a new string, NULL for the parent agent). */
static gboolean
find_lane (AguiChunkNormalizer  *self,
           StreamKind            kind,
           AguiEvent            *chunk,
           char                **owner,
           GError              **error)
{
  const StreamKindInfo *info = &kind_info[kind];
  const char *id = agui_event_get_string (chunk, info->id_member);
  const char *tag = agui_event_get_subagent_run_id (chunk);
  PendingStream *stream;
  guint n_open;

  *owner = NULL;

  if (id != NULL && (stream = g_hash_table_lookup (self->by_id[kind], id)) != NULL)
    {
      if (tag != NULL && g_strcmp0 (tag, stream->owner) != 0)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK,
                       "Cannot continue %s '%s': chunk subagentRunId '%s' does not match the open stream's subagent '%s'.",
                       info->label, id, tag, owner_to_string (stream->owner));
          return FALSE;
        }

      *owner = g_strdup (stream->owner);
      return TRUE;
    }

  if (id != NULL || tag != NULL)
    {
      *owner = g_strdup (tag);
      return TRUE;
    }

  if (self->parent_lane != NULL && self->parent_lane->kind == kind)
    return TRUE;

  /* The parent lane has no stream of this kind, so every one indexed here
   * belongs to a subagent lane. */
  n_open = g_hash_table_size (self->by_id[kind]);
  if (n_open == 1)
    {
      GHashTableIter iter;

      g_hash_table_iter_init (&iter, self->by_id[kind]);
      g_hash_table_iter_next (&iter, NULL, (gpointer *) &stream);
      *owner = g_strdup (stream->owner);
    }
  else if (n_open > 1)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK,
                   "Ambiguous %s: it carries neither a %s nor a subagentRunId, but %u lanes have an open %s. Attribute the chunk to the subagent it belongs to.",
                   info->chunk_type, info->id_member, n_open, info->label);
      return FALSE;
    }

  return TRUE;
}

/* Section 10.3: expanding a chunk in its lane. */
static gboolean
push_chunk (AguiChunkNormalizer  *self,
            StreamKind            kind,
            AguiEvent            *chunk,
            GPtrArray            *out,
            GError              **error)
{
  const StreamKindInfo *info = &kind_info[kind];
  const char *id = agui_event_get_string (chunk, info->id_member);
  const char *delta = agui_event_get_delta (chunk);
  gboolean has_raw_event = has_present_member (chunk, "rawEvent");
  g_autofree char *owner = NULL;
  PendingStream *stream;

  if (!find_lane (self, kind, chunk, &owner, error))
    return FALSE;

  stream = lookup_lane (self, owner);

  if (stream != NULL && stream->kind == kind &&
      (id == NULL || g_str_equal (id, stream->id)))
    {
      if (!check_continuation (stream, chunk, error))
        return FALSE;

      /* Late metadata (usage, finish reason) must still reach the
       * message, so a chunk with nothing else to say gets an empty
       * content event to carry it. */
      if (delta != NULL || has_raw_event || has_present_member (chunk, "metadata"))
        emit_content (stream, chunk, delta, out);

      return TRUE;
    }

  if (stream != NULL)
    close_stream (self, stream, out);

  if (id == NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_CHUNK,
                   "First %s must have a %s", info->chunk_type, info->id_member);
      return FALSE;
    }

  if (kind == STREAM_TOOL && agui_event_get_string (chunk, "toolCallName") == NULL)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_CHUNK,
                           "First TOOL_CALL_CHUNK must have a toolCallName");
      return FALSE;
    }

  stream = open_stream (self, kind, owner, id);

  switch (kind)
    {
    case STREAM_TEXT:
      stream->role = g_strdup (agui_event_get_role (chunk));
      if (stream->role == NULL)
        stream->role = g_strdup ("assistant");
      stream->name = g_strdup (agui_event_get_string (chunk, "name"));
      break;

    case STREAM_TOOL:
      stream->tool_call_name = g_strdup (agui_event_get_string (chunk, "toolCallName"));
      stream->parent_message_id = g_strdup (agui_event_get_string (chunk, "parentMessageId"));
      break;

    case STREAM_REASONING:
      break;

    case N_STREAM_KINDS:
    default:
      g_assert_not_reached ();
    }

  emit_start (stream, chunk, out);

  if (delta != NULL || has_raw_event)
    emit_content (stream, chunk, delta, out);

  return TRUE;
}

static void
_agui_chunk_normalizer_finalize (GObject *object)
{
  AguiChunkNormalizer *self = (AguiChunkNormalizer *) object;

  _agui_chunk_normalizer_reset (self);
  g_clear_pointer (&self->subagent_lanes, g_hash_table_unref);
  for (guint i = 0; i < N_STREAM_KINDS; i++)
    g_clear_pointer (&self->by_id[i], g_hash_table_unref);

  G_OBJECT_CLASS (_agui_chunk_normalizer_parent_class)->finalize (object);
}

static void
_agui_chunk_normalizer_class_init (AguiChunkNormalizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = _agui_chunk_normalizer_finalize;
}

static void
_agui_chunk_normalizer_init (AguiChunkNormalizer *self)
{
  self->subagent_lanes = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < N_STREAM_KINDS; i++)
    self->by_id[i] = g_hash_table_new (g_str_hash, g_str_equal);
  g_queue_init (&self->open_order);
}

/**
 * _agui_chunk_normalizer_new:
 *
 * Returns: (transfer full): a normalizer with no open lanes
 */
AguiChunkNormalizer *
_agui_chunk_normalizer_new (void)
{
  return g_object_new (AGUI_TYPE_CHUNK_NORMALIZER, NULL);
}

/**
 * _agui_chunk_normalizer_push:
 * @self: a chunk normalizer
 * @event: the next event of the stream, after schema enforcement
 * @out: (element-type AguiEvent): an array with [method@Agui.Event.unref]
 *   as its free function, where the resulting events are appended
 * @error: return location for a #GError
 *
 * Feeds one event. For a chunk, appends the events it expands to (section
 * 10.3): the END of whatever its lane had pending when it opens a new
 * stream, a START, and a content event. For any other event, appends the
 * synthetic END events of the pending streams it closes (section 10.4),
 * then a new reference to @event itself.
 *
 * On failure the chunk is an %AGUI_ERROR_CHUNK error and the run must
 * stop. Events appended before the failure (a synthetic END closing the
 * lane's previous stream) stay in @out: they are valid, and the caller
 * passes them on before reporting the error.
 *
 * The end of the byte stream needs no call: a stream still pending then
 * stays unterminated, as the protocol specifies.
 *
 * Returns: %TRUE if @event was expanded, %FALSE with @error set otherwise
 */
gboolean
_agui_chunk_normalizer_push (AguiChunkNormalizer  *self,
                            AguiEvent            *event,
                            GPtrArray            *out,
                            GError              **error)
{
  g_return_val_if_fail (AGUI_IS_CHUNK_NORMALIZER (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_TEXT_MESSAGE_CHUNK:
      return push_chunk (self, STREAM_TEXT, event, out, error);

    case AGUI_EVENT_TOOL_CALL_CHUNK:
      return push_chunk (self, STREAM_TOOL, event, out, error);

    case AGUI_EVENT_REASONING_MESSAGE_CHUNK:
      return push_chunk (self, STREAM_REASONING, event, out, error);

    case AGUI_EVENT_RUN_STARTED:
    case AGUI_EVENT_RUN_FINISHED:
    case AGUI_EVENT_RUN_ERROR:
    case AGUI_EVENT_MESSAGES_SNAPSHOT:
      close_all_lanes (self, out);
      break;

    case AGUI_EVENT_SUBAGENT_FINISHED:
    case AGUI_EVENT_SUBAGENT_ERROR:
      if (agui_event_get_subagent_run_id (event) != NULL)
        close_lane (self, agui_event_get_subagent_run_id (event), out);
      break;

    case AGUI_EVENT_TEXT_MESSAGE_START:
    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
    case AGUI_EVENT_TEXT_MESSAGE_END:
    case AGUI_EVENT_TOOL_CALL_START:
    case AGUI_EVENT_TOOL_CALL_ARGS:
    case AGUI_EVENT_TOOL_CALL_END:
    case AGUI_EVENT_TOOL_CALL_RESULT:
    case AGUI_EVENT_STATE_SNAPSHOT:
    case AGUI_EVENT_STATE_DELTA:
    case AGUI_EVENT_CUSTOM:
    case AGUI_EVENT_STEP_STARTED:
    case AGUI_EVENT_STEP_FINISHED:
    case AGUI_EVENT_REASONING_START:
    case AGUI_EVENT_REASONING_MESSAGE_START:
    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
    case AGUI_EVENT_REASONING_MESSAGE_END:
    case AGUI_EVENT_REASONING_END:
      close_lane (self, agui_event_get_subagent_run_id (event), out);
      break;

    case AGUI_EVENT_RAW:
    case AGUI_EVENT_ACTIVITY_SNAPSHOT:
    case AGUI_EVENT_ACTIVITY_DELTA:
    case AGUI_EVENT_REASONING_ENCRYPTED_VALUE:
    case AGUI_EVENT_SUBAGENT_STARTED:
    default:
      break;
    }

  g_ptr_array_add (out, agui_event_ref (event));

  return TRUE;
}

gboolean
_agui_chunk_normalizer_passes (AguiChunkNormalizer *self,
                               AguiEvent           *event)
{
  AguiEventType type = agui_event_get_event_type (event);

  return self->open_order.head == NULL &&
         type != AGUI_EVENT_TEXT_MESSAGE_CHUNK &&
         type != AGUI_EVENT_TOOL_CALL_CHUNK &&
         type != AGUI_EVENT_REASONING_MESSAGE_CHUNK;
}

/**
 * _agui_chunk_normalizer_reset:
 * @self: a chunk normalizer
 *
 * Forgets every lane without emitting anything, for a new byte stream.
 */
void
_agui_chunk_normalizer_reset (AguiChunkNormalizer *self)
{
  g_return_if_fail (AGUI_IS_CHUNK_NORMALIZER (self));

  while (self->open_order.head != NULL)
    forget_stream (self, self->open_order.head->data);
}

/**
 * _agui_chunk_normalizer_expand:
 * @self: a chunk normalizer
 * @event: the next event of the stream, after schema enforcement
 * @error: return location for a #GError
 *
 * Like [method@Agui.ChunkNormalizer.push], returning the events instead of
 * appending them to a caller's array; the form bindings can use. On
 * failure the synthetic END events emitted before it are lost: callers
 * that must apply them use push().
 *
 * The array has no free function, as introspection expects of a
 * (transfer full) array: a C caller unrefs the events itself, or sets
 * agui_event_unref() with g_ptr_array_set_free_func().
 *
 * Returns: (transfer full) (element-type AguiEvent) (nullable): the events
 *   @event expands to, in order, or %NULL with @error set
 */
GPtrArray *
_agui_chunk_normalizer_expand (AguiChunkNormalizer  *self,
                              AguiEvent            *event,
                              GError              **error)
{
  g_autoptr(GPtrArray) out = NULL;

  g_return_val_if_fail (AGUI_IS_CHUNK_NORMALIZER (self), NULL);
  g_return_val_if_fail (event != NULL, NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  if (!_agui_chunk_normalizer_push (self, event, out, error))
    return NULL;

  g_ptr_array_set_free_func (out, NULL);

  return g_steal_pointer (&out);
}
