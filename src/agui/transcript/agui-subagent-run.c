/* agui-subagent-run.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-enums.h"
#include "agui-event-private.h"
#include "agui-json-doc-node-private.h"
#include "agui-subagent-run-private.h"

/**
 * AguiSubagentRun:
 *
 * One invocation of a subagent: work the agent delegated within its run,
 * announced by `SUBAGENT_STARTED` and ended by `SUBAGENT_FINISHED` or
 * `SUBAGENT_ERROR`. The events the subagent produces carry its id
 * ([property@Agui.SubagentRun:id]), and so do the AG-UI messages they
 * create (their `subagentRunId`).
 *
 * A transcript lists the subagents of the current run
 * ([property@Agui.Transcript:subagents]) in the order they started. A
 * subagent run is immutable: when one ends, the transcript puts a run
 * that says how it ended in its place, one `items-changed` for each
 * subagent that starts or ends.
 *
 * ```c
 * static void
 * on_subagents_changed_cb (GListModel *subagents,
 *                          guint       position,
 *                          guint       removed,
 *                          guint       added,
 *                          gpointer    user_data)
 * {
 *   for (guint i = position; i < position + added; i++)
 *     {
 *       g_autoptr(AguiSubagentRun) run = g_list_model_get_item (subagents, i);
 *
 *       if (agui_subagent_run_get_status (run) == AGUI_SUBAGENT_FAILED)
 *         g_print ("%s failed: %s\n", agui_subagent_run_get_name (run),
 *                  agui_subagent_run_get_error_message (run));
 *     }
 * }
 * ```
 */

struct _AguiSubagentRun
{
  GObject             parent_instance;
  char               *id;
  char               *name;
  char               *description;
  char               *parent_subagent_run_id;
  char               *parent_tool_call_id;
  char               *parent_message_id;
  /* in the tree, when has_metadata and has_result; their nodes are
   * built when asked for */
  AguiJsonValue       metadata;
  JsonNode           *metadata_node;
  AguiSubagentStatus  status;
  AguiJsonValue       result;
  JsonNode           *result_node;
  gboolean            has_metadata;
  gboolean            has_result;
  GStrv               interrupt_ids;
  char               *error_message;
  char               *error_code;
};

G_DEFINE_FINAL_TYPE (AguiSubagentRun, agui_subagent_run, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_PARENT_SUBAGENT_RUN_ID,
  PROP_PARENT_TOOL_CALL_ID,
  PROP_PARENT_MESSAGE_ID,
  PROP_STATUS,
  PROP_RESULT,
  PROP_INTERRUPT_IDS,
  PROP_ERROR_MESSAGE,
  PROP_ERROR_CODE,
  PROP_METADATA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Member @name of @event into @value; a null member counts as none. The
 * getters' nodes are sealed, as the event keeps them, so a run can share
 * them with any thread. */
static gboolean
take_member (AguiEvent     *event,
             const char    *name,
             AguiJsonValue *value)
{
  if (!_agui_event_member_to_value (event, name, value))
    return FALSE;

  return value->kind != AGUI_JSON_DOC_NULL;
}

static GStrv
interrupt_ids_of (AguiEvent *ended)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonObject *outcome = agui_event_get_object_member (ended, "outcome");
  JsonNode *ids;

  if (outcome != NULL &&
      (ids = json_object_get_member (outcome, "interruptIds")) != NULL &&
      JSON_NODE_HOLDS_ARRAY (ids))
    {
      JsonArray *array = json_node_get_array (ids);

      /* The verifier lets only strings through. */
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_strv_builder_add (builder, json_node_get_string (element));
        }
    }

  return g_strv_builder_end (builder);
}

static void
agui_subagent_run_finalize (GObject *object)
{
  AguiSubagentRun *self = AGUI_SUBAGENT_RUN (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->description);
  g_free (self->parent_subagent_run_id);
  g_free (self->parent_tool_call_id);
  g_free (self->parent_message_id);
  _agui_json_value_clear (&self->metadata);
  g_clear_pointer (&self->metadata_node, json_node_unref);
  _agui_json_value_clear (&self->result);
  g_clear_pointer (&self->result_node, json_node_unref);
  g_clear_pointer (&self->interrupt_ids, g_strfreev);
  g_free (self->error_message);
  g_free (self->error_code);

  G_OBJECT_CLASS (agui_subagent_run_parent_class)->finalize (object);
}

static void
agui_subagent_run_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AguiSubagentRun *self = AGUI_SUBAGENT_RUN (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_PARENT_SUBAGENT_RUN_ID:
      g_value_set_string (value, self->parent_subagent_run_id);
      break;

    case PROP_PARENT_TOOL_CALL_ID:
      g_value_set_string (value, self->parent_tool_call_id);
      break;

    case PROP_PARENT_MESSAGE_ID:
      g_value_set_string (value, self->parent_message_id);
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    case PROP_RESULT:
      g_value_set_boxed (value, agui_subagent_run_get_result (self));
      break;

    case PROP_INTERRUPT_IDS:
      g_value_set_boxed (value, self->interrupt_ids);
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;

    case PROP_ERROR_CODE:
      g_value_set_string (value, self->error_code);
      break;

    case PROP_METADATA:
      g_value_set_boxed (value, agui_subagent_run_get_metadata (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_subagent_run_class_init (AguiSubagentRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_subagent_run_finalize;
  object_class->get_property = agui_subagent_run_get_property;

  /**
   * AguiSubagentRun:id:
   *
   * The invocation's `subagentRunId`, unique in its run.
   */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:name:
   *
   * The subagent's name, as the agent gave it.
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:description:
   *
   * What the subagent was asked to do, or %NULL.
   */
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:parent-subagent-run-id:
   *
   * The subagent run that started this one, or %NULL when the agent
   * itself did.
   */
  properties[PROP_PARENT_SUBAGENT_RUN_ID] =
    g_param_spec_string ("parent-subagent-run-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:parent-tool-call-id:
   *
   * The tool call the subagent works for, or %NULL.
   */
  properties[PROP_PARENT_TOOL_CALL_ID] =
    g_param_spec_string ("parent-tool-call-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:parent-message-id:
   *
   * The message the subagent works for, or %NULL.
   */
  properties[PROP_PARENT_MESSAGE_ID] =
    g_param_spec_string ("parent-message-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:status:
   *
   * Whether the subagent is at work, and how it ended.
   */
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       AGUI_TYPE_SUBAGENT_STATUS, AGUI_SUBAGENT_RUNNING,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:result:
   *
   * The value the subagent finished with, any JSON, or %NULL.
   */
  properties[PROP_RESULT] =
    g_param_spec_boxed ("result", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:interrupt-ids:
   *
   * The interrupts a suspended subagent waits on, as its outcome names
   * them; empty otherwise.
   */
  properties[PROP_INTERRUPT_IDS] =
    g_param_spec_boxed ("interrupt-ids", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:error-message:
   *
   * Why a failed subagent failed, as the agent put it, or %NULL.
   */
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:error-code:
   *
   * The agent's code for a failure, or %NULL.
   */
  properties[PROP_ERROR_CODE] =
    g_param_spec_string ("error-code", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiSubagentRun:metadata:
   *
   * The metadata `SUBAGENT_STARTED` carried, or %NULL.
   */
  properties[PROP_METADATA] =
    g_param_spec_boxed ("metadata", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_subagent_run_init (AguiSubagentRun *self)
{
}

AguiSubagentRun *
_agui_subagent_run_new_started (AguiEvent *started)
{
  AguiSubagentRun *self;

  g_return_val_if_fail (started != NULL, NULL);
  g_return_val_if_fail (agui_event_get_event_type (started) == AGUI_EVENT_SUBAGENT_STARTED, NULL);

  self = g_object_new (AGUI_TYPE_SUBAGENT_RUN, NULL);
  self->id = g_strdup (agui_event_get_subagent_run_id (started));
  self->name = g_strdup (agui_event_get_string (started, "name"));
  self->description = g_strdup (agui_event_get_string (started, "description"));
  self->parent_subagent_run_id = g_strdup (agui_event_get_string (started, "parentSubagentRunId"));
  self->parent_tool_call_id = g_strdup (agui_event_get_string (started, "parentToolCallId"));
  self->parent_message_id = g_strdup (agui_event_get_string (started, "parentMessageId"));
  self->has_metadata = take_member (started, "metadata", &self->metadata);
  self->status = AGUI_SUBAGENT_RUNNING;
  self->interrupt_ids = g_new0 (char *, 1);

  return self;
}

AguiSubagentRun *
_agui_subagent_run_new_ended (AguiSubagentRun *running,
                              AguiEvent       *ended)
{
  AguiSubagentRun *self;
  JsonObject *outcome;

  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (running), NULL);
  g_return_val_if_fail (ended != NULL, NULL);

  self = g_object_new (AGUI_TYPE_SUBAGENT_RUN, NULL);
  self->id = g_strdup (running->id);
  self->name = g_strdup (running->name);
  self->description = g_strdup (running->description);
  self->parent_subagent_run_id = g_strdup (running->parent_subagent_run_id);
  self->parent_tool_call_id = g_strdup (running->parent_tool_call_id);
  self->parent_message_id = g_strdup (running->parent_message_id);
  self->has_metadata = running->has_metadata;
  if (running->has_metadata)
    _agui_json_value_copy (&self->metadata, &running->metadata);

  switch (agui_event_get_event_type (ended))
    {
    case AGUI_EVENT_SUBAGENT_FINISHED:
      outcome = agui_event_get_object_member (ended, "outcome");
      if (outcome != NULL &&
          g_strcmp0 (json_object_get_string_member_with_default (outcome, "type", NULL), "suspended") == 0)
        self->status = AGUI_SUBAGENT_SUSPENDED;
      else
        self->status = AGUI_SUBAGENT_FINISHED;
      self->has_result = take_member (ended, "result", &self->result);
      self->interrupt_ids = interrupt_ids_of (ended);
      break;

    case AGUI_EVENT_SUBAGENT_ERROR:
      self->status = AGUI_SUBAGENT_FAILED;
      self->error_message = g_strdup (agui_event_get_string (ended, "message"));
      self->error_code = g_strdup (agui_event_get_string (ended, "code"));
      self->interrupt_ids = g_new0 (char *, 1);
      break;

    default:
      g_critical ("%s: %s does not end a subagent", G_STRFUNC, agui_event_get_type_name (ended));
      self->status = running->status;
      self->interrupt_ids = g_strdupv (running->interrupt_ids);
    }

  return self;
}

/**
 * agui_subagent_run_get_id:
 * @self: a subagent run
 *
 * Returns: the invocation's `subagentRunId`
 */
const char *
agui_subagent_run_get_id (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->id;
}

/**
 * agui_subagent_run_get_name:
 * @self: a subagent run
 *
 * Returns: the subagent's name
 */
const char *
agui_subagent_run_get_name (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->name;
}

/**
 * agui_subagent_run_get_description:
 * @self: a subagent run
 *
 * Returns: (nullable): what the subagent was asked to do
 */
const char *
agui_subagent_run_get_description (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->description;
}

/**
 * agui_subagent_run_get_parent_subagent_run_id:
 * @self: a subagent run
 *
 * Returns: (nullable): the subagent run that started this one, %NULL
 *   when the agent itself did
 */
const char *
agui_subagent_run_get_parent_subagent_run_id (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->parent_subagent_run_id;
}

/**
 * agui_subagent_run_get_parent_tool_call_id:
 * @self: a subagent run
 *
 * Returns: (nullable): the tool call the subagent works for
 */
const char *
agui_subagent_run_get_parent_tool_call_id (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->parent_tool_call_id;
}

/**
 * agui_subagent_run_get_parent_message_id:
 * @self: a subagent run
 *
 * Returns: (nullable): the message the subagent works for
 */
const char *
agui_subagent_run_get_parent_message_id (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->parent_message_id;
}

/**
 * agui_subagent_run_get_status:
 * @self: a subagent run
 *
 * Returns: whether the subagent is at work, and how it ended
 */
AguiSubagentStatus
agui_subagent_run_get_status (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), AGUI_SUBAGENT_RUNNING);

  return self->status;
}

/**
 * agui_subagent_run_get_result:
 * @self: a subagent run
 *
 * Returns: (transfer none) (nullable): the value the subagent finished
 *   with, sealed
 */
JsonNode *
agui_subagent_run_get_result (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  if (!self->has_result)
    return NULL;

  return _agui_json_value_ensure_node (&self->result, &self->result_node);
}

/**
 * agui_subagent_run_get_interrupt_ids:
 * @self: a subagent run
 *
 * Returns: (transfer none) (array zero-terminated=1): the interrupts a
 *   suspended subagent waits on; empty otherwise
 */
const char * const *
agui_subagent_run_get_interrupt_ids (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return (const char * const *) self->interrupt_ids;
}

/**
 * agui_subagent_run_get_error_message:
 * @self: a subagent run
 *
 * Returns: (nullable): why a failed subagent failed
 */
const char *
agui_subagent_run_get_error_message (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->error_message;
}

/**
 * agui_subagent_run_get_error_code:
 * @self: a subagent run
 *
 * Returns: (nullable): the agent's code for a failure
 */
const char *
agui_subagent_run_get_error_code (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  return self->error_code;
}

/**
 * agui_subagent_run_get_metadata:
 * @self: a subagent run
 *
 * Returns: (transfer none) (nullable): the metadata `SUBAGENT_STARTED`
 *   carried, sealed
 */
JsonNode *
agui_subagent_run_get_metadata (AguiSubagentRun *self)
{
  g_return_val_if_fail (AGUI_IS_SUBAGENT_RUN (self), NULL);

  if (!self->has_metadata)
    return NULL;

  return _agui_json_value_ensure_node (&self->metadata, &self->metadata_node);
}
