/* agui-interrupt.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-interrupt-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"

/**
 * AguiInterrupt:
 *
 * A question a run stopped on: the agent finished its run with an
 * interrupt outcome and waits for an answer to each of its interrupts
 * before the thread goes on. The session lists the open ones
 * ([property@Agui.AgentSession:pending-interrupts]); each is answered by
 * one entry of [method@Agui.AgentSession.resume_async], resolved with a
 * payload that follows [property@Agui.Interrupt:response-schema] when
 * there is one, or cancelled.
 *
 * An interrupt is immutable. Its members are those of the AG-UI
 * `Interrupt` object; [method@Agui.Interrupt.to_json] gives the object
 * itself, with any member this type does not name.
 *
 * ```c
 * GListModel *pending = agui_agent_session_get_pending_interrupts (session);
 *
 * for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
 *   {
 *     g_autoptr(AguiInterrupt) interrupt = g_list_model_get_item (pending, i);
 *
 *     g_print ("%s: %s\n", agui_interrupt_get_reason (interrupt),
 *              agui_interrupt_get_message (interrupt));
 *   }
 * ```
 */

struct _AguiInterrupt
{
  GObject        parent_instance;
  /* the interrupt's JSON object, in the compact tree */
  AguiJsonValue  object;
  /* built on the first call of their getters */
  JsonNode      *response_schema;
  JsonNode      *metadata;
  GDateTime     *expires_at;
};

G_DEFINE_FINAL_TYPE (AguiInterrupt, agui_interrupt, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_REASON,
  PROP_MESSAGE,
  PROP_TOOL_CALL_ID,
  PROP_SUBAGENT_RUN_ID,
  PROP_RESPONSE_SCHEMA,
  PROP_METADATA,
  PROP_EXPIRES_AT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static AguiJsonValue *
get_member (AguiInterrupt *self,
            const char    *member)
{
  int slot = _agui_json_object_find (self->object.u.object, member);

  return slot >= 0 ? _agui_json_object_slot_value (self->object.u.object, slot) : NULL;
}

static const char *
get_string (AguiInterrupt *self,
            const char    *member)
{
  AguiJsonValue *value = get_member (self, member);

  return value != NULL && _agui_json_value_is_string (value) ? _agui_json_value_get_string (value) : NULL;
}

/* The node of @member (NULL when absent or null), built on the first
 * call and kept in *@cache, published with a compare-and-swap in case two
 * threads ask at once. Not sealed, as the interrupt's own copy was not. */
static JsonNode *
get_node (AguiInterrupt  *self,
          const char     *member,
          JsonNode      **cache)
{
  JsonNode *node = g_atomic_pointer_get (cache);
  AguiJsonValue *value;

  if (node != NULL)
    return node;

  value = get_member (self, member);
  if (value == NULL || value->kind == AGUI_JSON_DOC_NULL)
    return NULL;

  node = _agui_json_value_to_node (value);
  if (!g_atomic_pointer_compare_and_exchange (cache, NULL, node))
    {
      json_node_unref (node);
      node = g_atomic_pointer_get (cache);
    }

  return node;
}

static void
agui_interrupt_finalize (GObject *object)
{
  AguiInterrupt *self = AGUI_INTERRUPT (object);

  _agui_json_value_clear (&self->object);
  g_clear_pointer (&self->response_schema, json_node_unref);
  g_clear_pointer (&self->metadata, json_node_unref);
  g_clear_pointer (&self->expires_at, g_date_time_unref);

  G_OBJECT_CLASS (agui_interrupt_parent_class)->finalize (object);
}

static void
agui_interrupt_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AguiInterrupt *self = AGUI_INTERRUPT (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, agui_interrupt_get_id (self));
      break;

    case PROP_REASON:
      g_value_set_string (value, agui_interrupt_get_reason (self));
      break;

    case PROP_MESSAGE:
      g_value_set_string (value, agui_interrupt_get_message (self));
      break;

    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, agui_interrupt_get_tool_call_id (self));
      break;

    case PROP_SUBAGENT_RUN_ID:
      g_value_set_string (value, agui_interrupt_get_subagent_run_id (self));
      break;

    case PROP_RESPONSE_SCHEMA:
      g_value_set_boxed (value, agui_interrupt_get_response_schema (self));
      break;

    case PROP_METADATA:
      g_value_set_boxed (value, agui_interrupt_get_metadata (self));
      break;

    case PROP_EXPIRES_AT:
      g_value_set_boxed (value, self->expires_at);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_interrupt_class_init (AguiInterruptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_interrupt_finalize;
  object_class->get_property = agui_interrupt_get_property;

  /**
   * AguiInterrupt:id:
   *
   * The interrupt's id, which its answer names.
   */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:reason:
   *
   * Why the run stopped: `tool_call` (a tool call waits for approval, see
   * [property@Agui.Interrupt:tool-call-id]), `input_required`,
   * `confirmation`, or a reason of the agent's framework, namespaced as
   * `framework:name`, to be handled like any other question.
   */
  properties[PROP_REASON] =
    g_param_spec_string ("reason", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:message:
   *
   * The question for the person, as the agent put it, or %NULL.
   */
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:tool-call-id:
   *
   * The tool call a `tool_call` interrupt asks about, or %NULL.
   */
  properties[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:subagent-run-id:
   *
   * The subagent run that asks, or %NULL for the agent itself.
   */
  properties[PROP_SUBAGENT_RUN_ID] =
    g_param_spec_string ("subagent-run-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:response-schema:
   *
   * The JSON Schema the answer's payload is to follow, or %NULL when the
   * agent gave none.
   */
  properties[PROP_RESPONSE_SCHEMA] =
    g_param_spec_boxed ("response-schema", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:metadata:
   *
   * The agent's metadata for the interrupt, or %NULL.
   */
  properties[PROP_METADATA] =
    g_param_spec_boxed ("metadata", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiInterrupt:expires-at:
   *
   * When the interrupt stops taking answers other than a cancellation,
   * or %NULL when it has no `expiresAt` or one that is no ISO 8601 date
   * (which, as the protocol says, never expires).
   */
  properties[PROP_EXPIRES_AT] =
    g_param_spec_boxed ("expires-at", NULL, NULL, G_TYPE_DATE_TIME,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_interrupt_init (AguiInterrupt *self)
{
}

/* Takes @object, leaving it null */
static AguiInterrupt *
interrupt_new_take (AguiJsonValue *object)
{
  AguiInterrupt *self = g_object_new (AGUI_TYPE_INTERRUPT, NULL);
  const char *expires_at;

  _agui_json_value_move (&self->object, object);

  /* As agui-interrupts.c reads it when it checks a resume. */
  if ((expires_at = get_string (self, "expiresAt")) != NULL)
    self->expires_at = g_date_time_new_from_iso8601 (expires_at, NULL);

  return self;
}

AguiInterrupt *
_agui_interrupt_new (JsonObject *object)
{
  g_autoptr(JsonNode) node = NULL;
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  g_return_val_if_fail (object != NULL, NULL);

  /* A copy of its own, in the tree: nothing the transcript or a caller
   * does to the JSON changes an interrupt. */
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  _agui_json_value_set_node (&value, node);

  return interrupt_new_take (&value);
}

AguiInterrupt *
_agui_interrupt_new_from_value (const AguiJsonValue *object)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  g_return_val_if_fail (object != NULL && object->kind == AGUI_JSON_DOC_OBJECT, NULL);

  _agui_json_value_copy (&value, object);

  return interrupt_new_take (&value);
}

/**
 * agui_interrupt_get_id:
 * @self: an interrupt
 *
 * Returns: the interrupt's id
 */
const char *
agui_interrupt_get_id (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_string (self, "id");
}

/**
 * agui_interrupt_get_reason:
 * @self: an interrupt
 *
 * Returns: why the run stopped; see [property@Agui.Interrupt:reason]
 */
const char *
agui_interrupt_get_reason (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_string (self, "reason");
}

/**
 * agui_interrupt_get_message:
 * @self: an interrupt
 *
 * Returns: (nullable): the question for the person
 */
const char *
agui_interrupt_get_message (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_string (self, "message");
}

/**
 * agui_interrupt_get_tool_call_id:
 * @self: an interrupt
 *
 * Returns: (nullable): the tool call the interrupt asks about
 */
const char *
agui_interrupt_get_tool_call_id (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_string (self, "toolCallId");
}

/**
 * agui_interrupt_get_subagent_run_id:
 * @self: an interrupt
 *
 * Returns: (nullable): the subagent run that asks
 */
const char *
agui_interrupt_get_subagent_run_id (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_string (self, "subagentRunId");
}

/**
 * agui_interrupt_get_response_schema:
 * @self: an interrupt
 *
 * Returns: (transfer none) (nullable): the JSON Schema of the expected
 *   payload
 */
JsonNode *
agui_interrupt_get_response_schema (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_node (self, "responseSchema", &self->response_schema);
}

/**
 * agui_interrupt_get_metadata:
 * @self: an interrupt
 *
 * Returns: (transfer none) (nullable): the agent's metadata
 */
JsonNode *
agui_interrupt_get_metadata (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return get_node (self, "metadata", &self->metadata);
}

/**
 * agui_interrupt_get_expires_at:
 * @self: an interrupt
 *
 * Returns: (transfer none) (nullable): when the interrupt expires, or
 *   %NULL if it never does
 */
GDateTime *
agui_interrupt_get_expires_at (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return self->expires_at;
}

/**
 * agui_interrupt_has_expired:
 * @self: an interrupt
 * @now: (nullable): the time to judge by, or %NULL for the current time
 *
 * Whether the interrupt's time to be answered is up: only a cancellation
 * answers it then, and [method@Agui.AgentSession.resume_async] refuses
 * any other answer with %AGUI_ERROR_EXPIRED.
 *
 * Returns: %TRUE once [property@Agui.Interrupt:expires-at] is at or
 *   before @now
 */
gboolean
agui_interrupt_has_expired (AguiInterrupt *self,
                            GDateTime     *now)
{
  g_autoptr(GDateTime) current = NULL;

  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), FALSE);

  if (self->expires_at == NULL)
    return FALSE;

  if (now == NULL)
    now = current = g_date_time_new_now_utc ();

  return g_date_time_compare (self->expires_at, now) <= 0;
}

/**
 * agui_interrupt_to_json:
 * @self: an interrupt
 *
 * Gives the AG-UI `Interrupt` object the interrupt was read from, with
 * every member, those this type names and any other.
 *
 * Returns: (transfer full): a JSON object node, a copy the caller may
 *   change
 */
JsonNode *
agui_interrupt_to_json (AguiInterrupt *self)
{
  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  return _agui_json_value_to_node (&self->object);
}
