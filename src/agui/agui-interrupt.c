/* agui-interrupt.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-interrupt-private.h"
#include "agui-json-private.h"
#include "agui-tool-call-part.h"

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
  GObject     parent_instance;
  JsonObject *object;
  GDateTime  *expires_at;
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

static const char *
get_string (AguiInterrupt *self,
            const char    *member)
{
  JsonNode *node = json_object_get_member (self->object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonNode *
get_node (AguiInterrupt *self,
          const char    *member)
{
  JsonNode *node = json_object_get_member (self->object, member);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? node : NULL;
}

static void
agui_interrupt_finalize (GObject *object)
{
  AguiInterrupt *self = AGUI_INTERRUPT (object);

  g_clear_pointer (&self->object, json_object_unref);
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

AguiInterrupt *
_agui_interrupt_new (JsonObject *object)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) copy = NULL;
  AguiInterrupt *self;
  const char *expires_at;

  g_return_val_if_fail (object != NULL, NULL);

  /* A copy of its own: nothing the transcript or a caller does to the
   * JSON changes an interrupt. */
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  copy = _agui_json_node_copy_deep (node);

  self = g_object_new (AGUI_TYPE_INTERRUPT, NULL);
  self->object = json_node_dup_object (copy);

  /* As agui-interrupts.c reads it when it checks a resume. */
  if ((expires_at = get_string (self, "expiresAt")) != NULL)
    self->expires_at = g_date_time_new_from_iso8601 (expires_at, NULL);

  return self;
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

  return get_node (self, "responseSchema");
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

  return get_node (self, "metadata");
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
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (AGUI_IS_INTERRUPT (self), NULL);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, self->object);

  return _agui_json_node_copy_deep (node);
}

/* Describing an interrupt */

static const char *
object_get_string (JsonObject *object,
                   const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  return NULL;
}

static JsonObject *
node_get_object (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);

  return NULL;
}

static JsonObject *
object_get_object (JsonObject *object,
                   const char *member)
{
  return object ? node_get_object (json_object_get_member (object, member)) : NULL;
}

/* A response schema asking for yes or no: none at all, or one with
 * `approved` or `editedArgs` among its properties. */
static gboolean
is_approval_shape (JsonObject *response_schema)
{
  JsonObject *members;

  if (response_schema == NULL)
    return TRUE;

  if (!(members = object_get_object (response_schema, "properties")))
    return FALSE;

  return json_object_has_member (members, "approved") ||
         json_object_has_member (members, "editedArgs");
}

/* Known ways agents describe a suspended tool in `metadata`: Mastra's
 * `metadata.mastra` ({toolName, args, reason or suspendPayload}), and the
 * plain `toolName`/`args` many servers use. */
static JsonObject *
find_tool_shape (JsonObject *metadata)
{
  JsonObject *mastra;

  if (metadata == NULL)
    return NULL;

  if ((mastra = object_get_object (metadata, "mastra")) &&
      (object_get_string (mastra, "toolName") || object_get_string (mastra, "tool_name")))
    return mastra;

  if (object_get_string (metadata, "toolName") || object_get_string (metadata, "tool_name"))
    return metadata;

  return NULL;
}

static const char *
shape_get_reason (JsonObject *shape)
{
  JsonObject *suspend;

  if (object_get_string (shape, "reason"))
    return object_get_string (shape, "reason");
  if ((suspend = object_get_object (shape, "suspendPayload")))
    return object_get_string (suspend, "reason") ? object_get_string (suspend, "reason")
                                                 : object_get_string (suspend, "message");

  return NULL;
}

/* Arguments as an agent sends them: JSON, or JSON in a string. */
static void
take_arguments (AguiInterruptDescription *description,
                JsonNode                 *arguments)
{
  if (arguments == NULL)
    return;

  if (JSON_NODE_HOLDS_VALUE (arguments) && json_node_get_value_type (arguments) == G_TYPE_STRING)
    {
      description->arguments = json_from_string (json_node_get_string (arguments), NULL);
      if (description->arguments == NULL)
        description->arguments_text = g_strdup (json_node_get_string (arguments));
    }
  else
    {
      description->arguments = json_node_copy (arguments);
    }

  if (description->arguments != NULL)
    description->arguments_text = json_to_string (description->arguments, TRUE);
}

/* Fills @description in (free its members with
 * _agui_interrupt_description_clear ()); a call the interrupt is bound
 * to is looked up in @transcript, when there is one. Never an empty
 * question: the front end shows the description's question, else its
 * own words for the action, else for the reason. */
void
_agui_interrupt_describe (AguiInterrupt            *self,
                          AguiTranscript           *transcript,
                          AguiInterruptDescription *description)
{
  JsonObject *response_schema = node_get_object (agui_interrupt_get_response_schema (self));
  JsonObject *metadata = node_get_object (agui_interrupt_get_metadata (self));
  const char *message = agui_interrupt_get_message (self);
  const char *tool_call_id = agui_interrupt_get_tool_call_id (self);
  AguiToolCallPart *part = NULL;
  JsonObject *shape = find_tool_shape (metadata);

  g_return_if_fail (AGUI_IS_INTERRUPT (self));
  g_return_if_fail (!transcript || AGUI_IS_TRANSCRIPT (transcript));
  g_return_if_fail (description != NULL);

  memset (description, 0, sizeof *description);
  description->approval = is_approval_shape (response_schema) &&
                          g_strcmp0 (agui_interrupt_get_reason (self), "input_required") != 0;
  description->question = message != NULL && message[0] != '\0' ? message : NULL;
  description->tool_call_id = tool_call_id;

  if (tool_call_id != NULL && transcript != NULL)
    part = agui_transcript_lookup_tool_call (transcript, tool_call_id);

  if (part != NULL)
    {
      JsonNode *parsed = agui_tool_call_part_get_parsed_arguments (part);

      description->action = AGUI_INTERRUPT_ACTION_CALL;
      description->tool_name = g_strdup (agui_tool_call_part_get_tool_name (part));
      if (parsed != NULL)
        {
          description->arguments = json_node_copy (parsed);
          description->arguments_text = json_to_string (parsed, TRUE);
        }
      else
        {
          description->arguments_text = g_strdup (agui_tool_call_part_get_arguments (part));
        }
    }
  else if (tool_call_id != NULL && shape == NULL)
    {
      description->action = AGUI_INTERRUPT_ACTION_UNKNOWN_CALL;
    }
  else if (shape != NULL)
    {
      JsonNode *arguments = json_object_get_member (shape, "args");

      description->action = AGUI_INTERRUPT_ACTION_METADATA_TOOL;
      description->tool_name = g_strdup (object_get_string (shape, "toolName") ? object_get_string (shape, "toolName")
                                                                               : object_get_string (shape, "tool_name"));
      take_arguments (description, arguments ? arguments : json_object_get_member (shape, "arguments"));
      if (description->question == NULL)
        description->question = shape_get_reason (shape);
    }
  else if (metadata != NULL && json_object_get_size (metadata) > 0)
    {
      description->action = AGUI_INTERRUPT_ACTION_DETAILS;
      description->details = metadata;
    }
}

void
_agui_interrupt_description_clear (AguiInterruptDescription *description)
{
  g_return_if_fail (description != NULL);

  g_clear_pointer (&description->tool_name, g_free);
  g_clear_pointer (&description->arguments, json_node_unref);
  g_clear_pointer (&description->arguments_text, g_free);
}
