/* agui-event-schema.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "agui-event-private.h"

/* The AG-UI 1.0 schema as tables (protocol digest sections 4, 5 and 6).
 * Each event lists its members; a member has a type, and a type may be an
 * object with its own member list, an array of a type, or a union of
 * object shapes told apart by a tag member ("type", "role", "op").
 *
 * One walk both strips and validates: unknown members and unknown union
 * variants are removed with a warning (section 3.2), everything that is
 * left must match its declaration or the event is an error (section 9). */

#define MAX_SAFE_INTEGER G_GINT64_CONSTANT (9007199254740991)

typedef enum
{
  TYPE_STRING,
  TYPE_BOOLEAN,
  TYPE_INTEGER,
  TYPE_COUNT,           /* a non-negative integer */
  TYPE_OBJECT,          /* any object, open by key */
  TYPE_ANY,             /* any JSON value but null */
  TYPE_ANY_OR_NULL,     /* opaque payloads, where null is data */
  TYPE_POINTER,         /* an RFC 6901 JSON Pointer */
  TYPE_ENUM,
  TYPE_ARRAY,
  TYPE_STRING_OR_ARRAY, /* content: text, or an array of parts */
  TYPE_SHAPE,
  TYPE_UNION,
} TypeKind;

typedef struct _Type    Type;
typedef struct _Field   Field;
typedef struct _Variant Variant;

struct _Type
{
  TypeKind            kind;
  const char * const *values;     /* TYPE_ENUM, NULL-terminated */
  const Type         *element;    /* TYPE_ARRAY, TYPE_STRING_OR_ARRAY */
  guint               min_items;  /* TYPE_ARRAY */
  const Field        *fields;     /* TYPE_SHAPE, terminated by a NULL name */
  const char         *tag;        /* TYPE_UNION */
  const Variant      *variants;   /* TYPE_UNION, terminated by a NULL value */
};

struct _Field
{
  const char *name;
  const Type *type;
  gboolean    required;
};

struct _Variant
{
  const char  *value;
  const Field *fields;
  gboolean     open;              /* keeps undeclared members (patch operations) */
};

typedef enum
{
  CHECK_OK,
  CHECK_DROP,                     /* an unknown variant: the container removes it */
  CHECK_ERROR,
} CheckResult;

typedef struct
{
  const char *name;               /* NULL for an array index */
  guint       index;
} PathSegment;

typedef struct
{
  const char  *event_name;
  GPtrArray   *warnings;
  GArray      *path;
  GError     **error;
} Context;

/* One value as the checks see it, from either form of an event: a value
 * of an event held as a tree (value_from_tree ()), or a member of a
 * flat event (_agui_event_schema_enforce_flat ()), which is never null nor
 * a container. */
typedef enum
{
  VALUE_NULL,
  VALUE_STRING,
  VALUE_INTEGER,
  VALUE_DOUBLE,
  VALUE_BOOLEAN,
  VALUE_ARRAY,
  VALUE_OBJECT,
} ValueKind;

typedef struct
{
  ValueKind      kind;
  AguiJsonValue *tree;            /* the tree's value: an array's or an object's */
  const char    *string;
  gint64         integer;
  double         number;
  gboolean       converted;       /* a double the type took as this integer */
} Value;

/* Scalars */

static const Type type_string = { TYPE_STRING };
static const Type type_boolean = { TYPE_BOOLEAN };
static const Type type_integer = { TYPE_INTEGER };
static const Type type_count = { TYPE_COUNT };
static const Type type_object = { TYPE_OBJECT };
static const Type type_any = { TYPE_ANY };
static const Type type_any_or_null = { TYPE_ANY_OR_NULL };
static const Type type_pointer = { TYPE_POINTER };
static const Type type_string_array = { TYPE_ARRAY, .element = &type_string };

static const char * const text_roles[] = { "developer", "system", "assistant", "user", NULL };
static const char * const tool_roles[] = { "tool", NULL };
static const char * const reasoning_roles[] = { "reasoning", NULL };
static const char * const function_types[] = { "function", NULL };
static const char * const resume_statuses[] = { "resolved", "cancelled", NULL };
static const char * const encrypted_subtypes[] = { "message", "tool-call", NULL };

static const Type type_text_role = { TYPE_ENUM, .values = text_roles };
static const Type type_tool_role = { TYPE_ENUM, .values = tool_roles };
static const Type type_reasoning_role = { TYPE_ENUM, .values = reasoning_roles };
static const Type type_function_type = { TYPE_ENUM, .values = function_types };
static const Type type_resume_status = { TYPE_ENUM, .values = resume_statuses };
static const Type type_encrypted_subtype = { TYPE_ENUM, .values = encrypted_subtypes };

/* 6.3 ContentPart and PartSource */

static const Field data_source_fields[] = {
  { "value", &type_string, TRUE },
  { "mimeType", &type_string, TRUE },
  { NULL }
};

static const Field url_source_fields[] = {
  { "value", &type_string, TRUE },
  { "mimeType", &type_string, FALSE },
  { NULL }
};

static const Field file_source_fields[] = {
  { "value", &type_string, TRUE },
  { "provider", &type_string, FALSE },
  { "mimeType", &type_string, FALSE },
  { NULL }
};

static const Variant part_source_variants[] = {
  { "data", data_source_fields },
  { "url", url_source_fields },
  { "file", file_source_fields },
  { NULL }
};

static const Type type_part_source = { TYPE_UNION, .tag = "type", .variants = part_source_variants };

static const Field text_part_fields[] = {
  { "text", &type_string, TRUE },
  { "id", &type_string, FALSE },
  { "metadata", &type_any_or_null, FALSE },
  { NULL }
};

/* A null media metadata is a legacy shape the compatibility stage removes
 * (section 8); one that reaches this point is malformed. */
static const Field media_part_fields[] = {
  { "source", &type_part_source, TRUE },
  { "id", &type_string, FALSE },
  { "metadata", &type_any, FALSE },
  { NULL }
};

static const Variant content_part_variants[] = {
  { "text", text_part_fields },
  { "image", media_part_fields },
  { "audio", media_part_fields },
  { "video", media_part_fields },
  { "document", media_part_fields },
  { NULL }
};

static const Type type_content_part = { TYPE_UNION, .tag = "type", .variants = content_part_variants };
static const Type type_content = { TYPE_STRING_OR_ARRAY, .element = &type_content_part };

/* 6.2 ToolCall */

static const Field function_call_fields[] = {
  { "name", &type_string, TRUE },
  { "arguments", &type_string, TRUE },
  { NULL }
};

static const Type type_function_call = { TYPE_SHAPE, .fields = function_call_fields };

static const Field tool_call_fields[] = {
  { "id", &type_string, TRUE },
  { "type", &type_function_type, TRUE },
  { "function", &type_function_call, TRUE },
  { "encryptedValue", &type_string, FALSE },
  { "metadata", &type_object, FALSE },
  { NULL }
};

static const Type type_tool_call = { TYPE_SHAPE, .fields = tool_call_fields };
static const Type type_tool_call_array = { TYPE_ARRAY, .element = &type_tool_call };

/* 6.1 Message */

#define MESSAGE_COMMON_FIELDS \
  { "subagentRunId", &type_string, FALSE }, \
  { "metadata", &type_object, FALSE }

static const Field developer_message_fields[] = {
  { "id", &type_string, TRUE },
  { "content", &type_string, TRUE },
  { "name", &type_string, FALSE },
  { "encryptedValue", &type_string, FALSE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Field user_message_fields[] = {
  { "id", &type_string, TRUE },
  { "content", &type_content, TRUE },
  { "name", &type_string, FALSE },
  { "encryptedValue", &type_string, FALSE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Field assistant_message_fields[] = {
  { "id", &type_string, TRUE },
  { "content", &type_string, FALSE },
  { "toolCalls", &type_tool_call_array, FALSE },
  { "name", &type_string, FALSE },
  { "encryptedValue", &type_string, FALSE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Field tool_message_fields[] = {
  { "id", &type_string, TRUE },
  { "toolCallId", &type_string, TRUE },
  { "content", &type_content, TRUE },
  { "error", &type_string, FALSE },
  { "encryptedValue", &type_string, FALSE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Field activity_message_fields[] = {
  { "id", &type_string, TRUE },
  { "activityType", &type_string, TRUE },
  { "content", &type_object, TRUE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Field reasoning_message_fields[] = {
  { "id", &type_string, TRUE },
  { "content", &type_string, TRUE },
  { "encryptedValue", &type_string, FALSE },
  MESSAGE_COMMON_FIELDS,
  { NULL }
};

static const Variant message_variants[] = {
  { "developer", developer_message_fields },
  { "system", developer_message_fields },
  { "user", user_message_fields },
  { "assistant", assistant_message_fields },
  { "tool", tool_message_fields },
  { "activity", activity_message_fields },
  { "reasoning", reasoning_message_fields },
  { NULL }
};

static const Type type_message = { TYPE_UNION, .tag = "role", .variants = message_variants };
static const Type type_message_array = { TYPE_ARRAY, .element = &type_message };

/* 6.4 Tool, 6.5 Context, 6.6 Interrupt, 6.7 ResumeEntry */

static const Field tool_fields[] = {
  { "name", &type_string, TRUE },
  { "description", &type_string, TRUE },
  { "parameters", &type_any, FALSE },
  { "metadata", &type_object, FALSE },
  { NULL }
};

static const Type type_tool = { TYPE_SHAPE, .fields = tool_fields };
static const Type type_tool_array = { TYPE_ARRAY, .element = &type_tool };

static const Field context_fields[] = {
  { "description", &type_string, TRUE },
  { "value", &type_string, TRUE },
  { NULL }
};

static const Type type_context = { TYPE_SHAPE, .fields = context_fields };
static const Type type_context_array = { TYPE_ARRAY, .element = &type_context };

static const Field interrupt_fields[] = {
  { "id", &type_string, TRUE },
  { "reason", &type_string, TRUE },
  { "message", &type_string, FALSE },
  { "toolCallId", &type_string, FALSE },
  { "responseSchema", &type_object, FALSE },
  { "expiresAt", &type_string, FALSE },
  { "metadata", &type_object, FALSE },
  { "subagentRunId", &type_string, FALSE },
  { NULL }
};

static const Type type_interrupt = { TYPE_SHAPE, .fields = interrupt_fields };
static const Type type_interrupt_array = { TYPE_ARRAY, .element = &type_interrupt, .min_items = 1 };

static const Field resume_entry_fields[] = {
  { "interruptId", &type_string, TRUE },
  { "status", &type_resume_status, TRUE },
  { "payload", &type_any, FALSE },
  { "metadata", &type_object, FALSE },
  { NULL }
};

static const Type type_resume_entry = { TYPE_SHAPE, .fields = resume_entry_fields };
static const Type type_resume_array = { TYPE_ARRAY, .element = &type_resume_entry };

/* 6.8 RunFinishedOutcome, and the smaller SUBAGENT_FINISHED outcome */

static const Field success_outcome_fields[] = {
  { "pendingToolCallIds", &type_string_array, FALSE },
  { NULL }
};

static const Field interrupt_outcome_fields[] = {
  { "interrupts", &type_interrupt_array, TRUE },
  { NULL }
};

static const Field no_fields[] = {
  { NULL }
};

static const Variant run_outcome_variants[] = {
  { "success", success_outcome_fields },
  { "interrupt", interrupt_outcome_fields },
  { "cancelled", no_fields },
  { NULL }
};

static const Type type_run_outcome = { TYPE_UNION, .tag = "type", .variants = run_outcome_variants };

static const Field suspended_outcome_fields[] = {
  { "interruptIds", &type_string_array, FALSE },
  { NULL }
};

static const Variant subagent_outcome_variants[] = {
  { "success", no_fields },
  { "suspended", suspended_outcome_fields },
  { NULL }
};

static const Type type_subagent_outcome = { TYPE_UNION, .tag = "type", .variants = subagent_outcome_variants };

/* 6.9 TokenUsage */

static const Field token_usage_fields[] = {
  { "provider", &type_string, FALSE },
  { "model", &type_string, FALSE },
  { "inputTokens", &type_count, FALSE },
  { "outputTokens", &type_count, FALSE },
  { "totalTokens", &type_count, FALSE },
  { "reasoningTokens", &type_count, FALSE },
  { "cachedInputTokens", &type_count, FALSE },
  { "cacheWriteInputTokens", &type_count, FALSE },
  { NULL }
};

static const Type type_token_usage = { TYPE_SHAPE, .fields = token_usage_fields };
static const Type type_usage_array = { TYPE_ARRAY, .element = &type_token_usage };

/* 6.10 RunAgentInput */

static const Field run_agent_input_fields[] = {
  { "threadId", &type_string, TRUE },
  { "runId", &type_string, TRUE },
  { "protocolVersion", &type_string, FALSE },
  { "parentRunId", &type_string, FALSE },
  { "state", &type_any, FALSE },
  { "messages", &type_message_array, TRUE },
  { "tools", &type_tool_array, FALSE },
  { "context", &type_context_array, FALSE },
  { "forwardedProps", &type_any, FALSE },
  { "resume", &type_resume_array, FALSE },
  { NULL }
};

static const Type type_run_agent_input = { TYPE_SHAPE, .fields = run_agent_input_fields };

/* 6.11 JSON Patch operation */

static const Field patch_value_fields[] = {
  { "path", &type_pointer, TRUE },
  { "value", &type_any_or_null, TRUE },
  { NULL }
};

static const Field patch_path_fields[] = {
  { "path", &type_pointer, TRUE },
  { NULL }
};

static const Field patch_from_fields[] = {
  { "from", &type_pointer, TRUE },
  { "path", &type_pointer, TRUE },
  { NULL }
};

static const Variant patch_variants[] = {
  { "add", patch_value_fields, TRUE },
  { "remove", patch_path_fields, TRUE },
  { "replace", patch_value_fields, TRUE },
  { "move", patch_from_fields, TRUE },
  { "copy", patch_from_fields, TRUE },
  { "test", patch_value_fields, TRUE },
  { NULL }
};

static const Type type_patch_operation = { TYPE_UNION, .tag = "op", .variants = patch_variants };
static const Type type_patch = { TYPE_ARRAY, .element = &type_patch_operation };

/* Section 4: base members. SUBAGENT_* declare subagentRunId themselves as
 * required; the run-level events and MESSAGES_SNAPSHOT do not have it. */

#define BASE_FIELDS \
  { "timestamp", &type_integer, FALSE }, \
  { "rawEvent", &type_any, FALSE }, \
  { "metadata", &type_object, FALSE }

static const Field base_fields[] = {
  BASE_FIELDS,
  { "subagentRunId", &type_string, FALSE },
  { NULL }
};

static const Field base_fields_without_subagent[] = {
  BASE_FIELDS,
  { NULL }
};

/* Section 5: the events */

static const Field run_started_fields[] = {
  { "threadId", &type_string, TRUE },
  { "runId", &type_string, TRUE },
  { "protocolVersion", &type_string, FALSE },
  { "parentRunId", &type_string, FALSE },
  { "input", &type_run_agent_input, FALSE },
  { NULL }
};

static const Field run_finished_fields[] = {
  { "threadId", &type_string, TRUE },
  { "runId", &type_string, TRUE },
  { "result", &type_any, FALSE },
  { "outcome", &type_run_outcome, FALSE },
  { "usage", &type_usage_array, FALSE },
  { NULL }
};

static const Field run_error_fields[] = {
  { "message", &type_string, TRUE },
  { "code", &type_string, FALSE },
  { "usage", &type_usage_array, FALSE },
  { NULL }
};

static const Field step_fields[] = {
  { "stepName", &type_string, TRUE },
  { NULL }
};

static const Field text_message_start_fields[] = {
  { "messageId", &type_string, TRUE },
  { "role", &type_text_role, FALSE },
  { "name", &type_string, FALSE },
  { NULL }
};

static const Field message_delta_fields[] = {
  { "messageId", &type_string, TRUE },
  { "delta", &type_string, TRUE },
  { NULL }
};

static const Field message_id_fields[] = {
  { "messageId", &type_string, TRUE },
  { NULL }
};

static const Field text_message_chunk_fields[] = {
  { "messageId", &type_string, FALSE },
  { "role", &type_text_role, FALSE },
  { "name", &type_string, FALSE },
  { "delta", &type_string, FALSE },
  { NULL }
};

static const Field tool_call_start_fields[] = {
  { "toolCallId", &type_string, TRUE },
  { "toolCallName", &type_string, TRUE },
  { "parentMessageId", &type_string, FALSE },
  { NULL }
};

static const Field tool_call_args_fields[] = {
  { "toolCallId", &type_string, TRUE },
  { "delta", &type_string, TRUE },
  { NULL }
};

static const Field tool_call_end_fields[] = {
  { "toolCallId", &type_string, TRUE },
  { NULL }
};

static const Field tool_call_chunk_fields[] = {
  { "toolCallId", &type_string, FALSE },
  { "toolCallName", &type_string, FALSE },
  { "parentMessageId", &type_string, FALSE },
  { "delta", &type_string, FALSE },
  { NULL }
};

static const Field tool_call_result_fields[] = {
  { "messageId", &type_string, TRUE },
  { "toolCallId", &type_string, TRUE },
  { "content", &type_content, TRUE },
  { "role", &type_tool_role, FALSE },
  { NULL }
};

static const Field reasoning_message_start_fields[] = {
  { "messageId", &type_string, TRUE },
  { "role", &type_reasoning_role, TRUE },
  { NULL }
};

static const Field reasoning_message_chunk_fields[] = {
  { "messageId", &type_string, FALSE },
  { "delta", &type_string, FALSE },
  { NULL }
};

static const Field reasoning_encrypted_value_fields[] = {
  { "subtype", &type_encrypted_subtype, TRUE },
  { "entityId", &type_string, TRUE },
  { "encryptedValue", &type_string, TRUE },
  { NULL }
};

static const Field state_snapshot_fields[] = {
  { "snapshot", &type_any_or_null, TRUE },
  { NULL }
};

static const Field state_delta_fields[] = {
  { "delta", &type_patch, TRUE },
  { NULL }
};

static const Field messages_snapshot_fields[] = {
  { "messages", &type_message_array, TRUE },
  { NULL }
};

static const Field activity_snapshot_fields[] = {
  { "messageId", &type_string, TRUE },
  { "activityType", &type_string, TRUE },
  { "content", &type_object, TRUE },
  { "replace", &type_boolean, FALSE },
  { NULL }
};

static const Field activity_delta_fields[] = {
  { "messageId", &type_string, TRUE },
  { "activityType", &type_string, TRUE },
  { "patch", &type_patch, TRUE },
  { NULL }
};

static const Field raw_fields[] = {
  { "event", &type_any_or_null, TRUE },
  { "source", &type_string, FALSE },
  { NULL }
};

static const Field custom_fields[] = {
  { "name", &type_string, TRUE },
  { "value", &type_any_or_null, TRUE },
  { NULL }
};

static const Field subagent_started_fields[] = {
  { "subagentRunId", &type_string, TRUE },
  { "name", &type_string, TRUE },
  { "description", &type_string, FALSE },
  { "parentSubagentRunId", &type_string, FALSE },
  { "parentToolCallId", &type_string, FALSE },
  { "parentMessageId", &type_string, FALSE },
  { NULL }
};

static const Field subagent_finished_fields[] = {
  { "subagentRunId", &type_string, TRUE },
  { "result", &type_any, FALSE },
  { "outcome", &type_subagent_outcome, FALSE },
  { NULL }
};

static const Field subagent_error_fields[] = {
  { "subagentRunId", &type_string, TRUE },
  { "message", &type_string, TRUE },
  { "code", &type_string, FALSE },
  { NULL }
};

typedef struct
{
  const Field *base;
  const Field *fields;
} EventSchema;

static const EventSchema event_schemas[] = {
  [AGUI_EVENT_RUN_STARTED] = { base_fields_without_subagent, run_started_fields },
  [AGUI_EVENT_RUN_FINISHED] = { base_fields_without_subagent, run_finished_fields },
  [AGUI_EVENT_RUN_ERROR] = { base_fields_without_subagent, run_error_fields },
  [AGUI_EVENT_STEP_STARTED] = { base_fields, step_fields },
  [AGUI_EVENT_STEP_FINISHED] = { base_fields, step_fields },
  [AGUI_EVENT_TEXT_MESSAGE_START] = { base_fields, text_message_start_fields },
  [AGUI_EVENT_TEXT_MESSAGE_CONTENT] = { base_fields, message_delta_fields },
  [AGUI_EVENT_TEXT_MESSAGE_END] = { base_fields, message_id_fields },
  [AGUI_EVENT_TEXT_MESSAGE_CHUNK] = { base_fields, text_message_chunk_fields },
  [AGUI_EVENT_TOOL_CALL_START] = { base_fields, tool_call_start_fields },
  [AGUI_EVENT_TOOL_CALL_ARGS] = { base_fields, tool_call_args_fields },
  [AGUI_EVENT_TOOL_CALL_END] = { base_fields, tool_call_end_fields },
  [AGUI_EVENT_TOOL_CALL_CHUNK] = { base_fields, tool_call_chunk_fields },
  [AGUI_EVENT_TOOL_CALL_RESULT] = { base_fields, tool_call_result_fields },
  [AGUI_EVENT_REASONING_START] = { base_fields, message_id_fields },
  [AGUI_EVENT_REASONING_MESSAGE_START] = { base_fields, reasoning_message_start_fields },
  [AGUI_EVENT_REASONING_MESSAGE_CONTENT] = { base_fields, message_delta_fields },
  [AGUI_EVENT_REASONING_MESSAGE_END] = { base_fields, message_id_fields },
  [AGUI_EVENT_REASONING_MESSAGE_CHUNK] = { base_fields, reasoning_message_chunk_fields },
  [AGUI_EVENT_REASONING_END] = { base_fields, message_id_fields },
  [AGUI_EVENT_REASONING_ENCRYPTED_VALUE] = { base_fields, reasoning_encrypted_value_fields },
  [AGUI_EVENT_STATE_SNAPSHOT] = { base_fields, state_snapshot_fields },
  [AGUI_EVENT_STATE_DELTA] = { base_fields, state_delta_fields },
  [AGUI_EVENT_MESSAGES_SNAPSHOT] = { base_fields_without_subagent, messages_snapshot_fields },
  [AGUI_EVENT_ACTIVITY_SNAPSHOT] = { base_fields, activity_snapshot_fields },
  [AGUI_EVENT_ACTIVITY_DELTA] = { base_fields, activity_delta_fields },
  [AGUI_EVENT_RAW] = { base_fields, raw_fields },
  [AGUI_EVENT_CUSTOM] = { base_fields, custom_fields },
  [AGUI_EVENT_SUBAGENT_STARTED] = { base_fields_without_subagent, subagent_started_fields },
  [AGUI_EVENT_SUBAGENT_FINISHED] = { base_fields_without_subagent, subagent_finished_fields },
  [AGUI_EVENT_SUBAGENT_ERROR] = { base_fields_without_subagent, subagent_error_fields },
};

G_STATIC_ASSERT (G_N_ELEMENTS (event_schemas) == AGUI_EVENT_SUBAGENT_ERROR + 1);

/* Paths: errors read like code ("input.messages[2].role"), warnings are
 * JSON Pointers ("/input/messages/2/role") as the reference prints them. */

/* Warnings and errors are rare: the path they print is made only when a
 * member is more than a string where a string is wanted. */
static void
path_push (Context     *ctx,
           PathSegment  segment)
{
  if (ctx->path == NULL)
    ctx->path = g_array_new (FALSE, FALSE, sizeof (PathSegment));
  g_array_append_val (ctx->path, segment);
}

static void
path_push_name (Context    *ctx,
                const char *name)
{
  path_push (ctx, (PathSegment) { name, 0 });
}

static void
path_push_index (Context *ctx,
                 guint    index)
{
  path_push (ctx, (PathSegment) { NULL, index });
}

static void
path_pop (Context *ctx)
{
  g_assert (ctx->path->len > 0);

  g_array_set_size (ctx->path, ctx->path->len - 1);
}

static char *
path_to_member_string (Context *ctx)
{
  GString *string = g_string_new (NULL);

  for (guint i = 0; i < ctx->path->len; i++)
    {
      const PathSegment *segment = &g_array_index (ctx->path, PathSegment, i);

      if (segment->name == NULL)
        g_string_append_printf (string, "[%u]", segment->index);
      else if (i == 0)
        g_string_append (string, segment->name);
      else
        g_string_append_printf (string, ".%s", segment->name);
    }

  return g_string_free (string, FALSE);
}

static char *
path_to_pointer (Context *ctx)
{
  GString *string = g_string_new (NULL);

  for (guint i = 0; i < ctx->path->len; i++)
    {
      const PathSegment *segment = &g_array_index (ctx->path, PathSegment, i);

      g_string_append_c (string, '/');

      if (segment->name == NULL)
        {
          g_string_append_printf (string, "%u", segment->index);
          continue;
        }

      for (const char *p = segment->name; *p != '\0'; p++)
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

static void
warn_removed (Context *ctx)
{
  g_autofree char *pointer = NULL;

  if (ctx->warnings == NULL)
    return;

  pointer = path_to_pointer (ctx);
  g_ptr_array_add (ctx->warnings,
                   g_strdup_printf ("Removed unrecognised material at '%s' on %s",
                                    pointer, ctx->event_name));
}

static CheckResult
fail (Context    *ctx,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static CheckResult
fail (Context    *ctx,
      const char *format,
      ...)
{
  g_autofree char *member = path_to_member_string (ctx);
  g_autofree char *problem = NULL;
  va_list args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (ctx->error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "%s: member '%s' %s", ctx->event_name, member, problem);

  return CHECK_ERROR;
}

static CheckResult
fail_missing (Context    *ctx,
              const char *name)
{
  g_autofree char *member = NULL;

  path_push_name (ctx, name);
  member = path_to_member_string (ctx);
  path_pop (ctx);

  g_set_error (ctx->error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "%s: required member '%s' is missing", ctx->event_name, member);

  return CHECK_ERROR;
}

static const char *
describe_type (const Type *type)
{
  switch (type->kind)
    {
    case TYPE_STRING:
    case TYPE_ENUM:
      return "a string";
    case TYPE_BOOLEAN:
      return "a boolean";
    case TYPE_INTEGER:
      return "an integer";
    case TYPE_COUNT:
      return "a non-negative integer";
    case TYPE_OBJECT:
    case TYPE_SHAPE:
    case TYPE_UNION:
      return "an object";
    case TYPE_ANY:
    case TYPE_ANY_OR_NULL:
      return "a JSON value";
    case TYPE_POINTER:
      return "a JSON Pointer";
    case TYPE_ARRAY:
      return "an array";
    case TYPE_STRING_OR_ARRAY:
      return "a string or an array";
    default:
      g_assert_not_reached ();
    }
}

static gboolean
is_json_pointer (const char *string)
{
  if (string[0] != '\0' && string[0] != '/')
    return FALSE;

  for (const char *p = string; *p != '\0'; p++)
    {
      if (*p == '~' && p[1] != '0' && p[1] != '1')
        return FALSE;
    }

  return TRUE;
}

/* The field of @fields called @name, or NULL. */
static const Field *
field_list_find (const Field *fields,
                 const char  *name)
{
  for (const Field *field = fields; field != NULL && field->name != NULL; field++)
    {
      if (field->name[0] == name[0] && strcmp (field->name, name) == 0)
        return field;
    }

  return NULL;
}

static CheckResult check_value (Context    *ctx,
                                const Type *type,
                                Value      *value);

/* One member of an object, as the walk below sees it. */
typedef struct
{
  const char  *name;
  Value        value;
  const Field *field;             /* the field it is; NULL for the tag or unknown */
  gboolean     removed;
} Slot;

/* The one walk over an object's members, for both forms of an event:
 * unknown members are marked removed with a warning, then every field is
 * checked. The caller writes back what the walk marked (removed members,
 * integers written as doubles). @base may be NULL; @tag names the union's
 * discriminator, already checked by the caller. */
/* Inlined: the flat path is every stream's hot path, and its copy then
 * knows its tag and that it is not open. */
G_ALWAYS_INLINE static inline CheckResult
check_members (Context     *ctx,
               const Field *base,
               const Field *fields,
               const char  *tag,
               gboolean     open,
               Slot        *slots,
               guint        n_slots,
               gboolean    *changed)
{
  const Field *lists[] = { base, fields };

  *changed = FALSE;

  for (guint i = 0; i < n_slots; i++)
    {
      Slot *slot = &slots[i];

      /* The tag first: every member of a stream's events meets it. No
       * variant lists its tag among its fields. */
      if ((tag != NULL && slot->name[0] == tag[0] && strcmp (slot->name, tag) == 0) ||
          (slot->field = field_list_find (base, slot->name)) != NULL ||
          (slot->field = field_list_find (fields, slot->name)) != NULL ||
          open)
        continue;

      path_push_name (ctx, slot->name);
      warn_removed (ctx);
      path_pop (ctx);
      slot->removed = TRUE;
      *changed = TRUE;
    }

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      for (const Field *field = lists[l]; field != NULL && field->name != NULL; field++)
        {
          Slot *slot = NULL;
          CheckResult result;

          for (guint i = 0; i < n_slots && slot == NULL; i++)
            {
              if (slots[i].field == field)
                slot = &slots[i];
            }

          if (slot == NULL)
            {
              if (field->required)
                return fail_missing (ctx, field->name);
              continue;
            }

          if (field->type->kind == TYPE_STRING && slot->value.kind == VALUE_STRING)
            continue;

          path_push_name (ctx, field->name);
          result = check_value (ctx, field->type, &slot->value);

          if (result == CHECK_DROP && !field->required)
            warn_removed (ctx);

          path_pop (ctx);

          if (result == CHECK_ERROR)
            return CHECK_ERROR;

          /* An unknown variant in a required member takes its whole
           * object with it (section 3.2). */
          if (result == CHECK_DROP && field->required)
            return CHECK_DROP;

          if (result == CHECK_DROP)
            slot->removed = TRUE;
          if (result == CHECK_DROP || slot->value.converted)
            *changed = TRUE;
        }
    }

  return CHECK_OK;
}

/* A value of the tree, read where it lies: a string is not copied, and
 * a converted integer is written back into the same value. */
static void
value_from_tree (Value         *value,
                 AguiJsonValue *tree)
{
  value->tree = tree;
  value->converted = FALSE;

  switch ((AguiJsonDocKind) tree->kind)
    {
    case AGUI_JSON_DOC_NULL:
      value->kind = VALUE_NULL;
      break;
    case AGUI_JSON_DOC_BOOLEAN:
      value->kind = VALUE_BOOLEAN;
      break;
    case AGUI_JSON_DOC_INT:
      value->kind = VALUE_INTEGER;
      value->integer = tree->u.integer;
      break;
    case AGUI_JSON_DOC_DOUBLE:
      value->kind = VALUE_DOUBLE;
      value->number = tree->u.number;
      break;
    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      value->kind = VALUE_STRING;
      value->string = _agui_json_value_get_string (tree);
      break;
    case AGUI_JSON_DOC_ARRAY:
      value->kind = VALUE_ARRAY;
      break;
    case AGUI_JSON_DOC_OBJECT:
      value->kind = VALUE_OBJECT;
      break;
    case AGUI_JSON_DOC_HOLE:
    default:
      g_assert_not_reached ();
    }
}

/* check_members () on an object of the tree, changed in place: a removed
 * member leaves a hole until the object is compacted (a large object
 * keeps a few; every reader of slots skips them), a converted integer
 * keeps its slot, as json_object_set_member () keeps a member's place. */
static CheckResult
check_object (Context           *ctx,
              const Field       *base,
              const Field       *fields,
              const char        *tag,
              gboolean           open,
              AguiJsonDocObject *object)
{
  guint n_object_slots = _agui_json_object_get_n_slots (object);
  Slot stack_slots[16];
  g_autofree Slot *heap_slots = NULL;
  Slot *slots = stack_slots;
  CheckResult result;
  gboolean changed;
  guint n_slots = 0;

  if (_agui_json_object_get_size (object) > G_N_ELEMENTS (stack_slots))
    slots = heap_slots = g_new (Slot, _agui_json_object_get_size (object));

  for (guint s = 0; s < n_object_slots; s++)
    {
      const char *name = _agui_json_object_slot_name (object, s);

      if (name == NULL)
        continue;

      slots[n_slots].name = name;
      slots[n_slots].field = NULL;
      slots[n_slots].removed = FALSE;
      value_from_tree (&slots[n_slots].value, _agui_json_object_slot_value (object, s));
      n_slots++;
    }

  result = check_members (ctx, base, fields, tag, open, slots, n_slots, &changed);
  if (result != CHECK_OK || !changed)
    return result;

  /* The slots above are the object's members in slot order, holes left
   * out; nothing was added to the object since. */
  for (guint s = 0, i = 0; s < n_object_slots; s++)
    {
      Slot *slot;

      if (_agui_json_object_slot_name (object, s) == NULL)
        continue;

      slot = &slots[i++];
      if (slot->removed)
        {
          AguiJsonValue removed = AGUI_JSON_VALUE_INIT;

          _agui_json_object_remove_slot (object, s, &removed);
          _agui_json_value_clear (&removed);
        }
      else if (slot->value.converted)
        {
          _agui_json_value_set_int (slot->value.tree, slot->value.integer);
        }
    }

  _agui_json_object_compact (object);

  return CHECK_OK;
}

/* An element keeps the number it was written as (no array of the schema
 * holds integers), as the JsonObject walk this replaced did. */
static CheckResult
check_array (Context          *ctx,
             const Type       *type,
             AguiJsonDocArray *array)
{
  guint original_index = 0;
  guint i = 0;

  while (i < _agui_json_array_get_length (array))
    {
      CheckResult result;
      Value value;

      value_from_tree (&value, _agui_json_array_get (array, i));

      path_push_index (ctx, original_index++);
      result = check_value (ctx, type->element, &value);

      if (result == CHECK_DROP)
        warn_removed (ctx);

      path_pop (ctx);

      if (result == CHECK_ERROR)
        return CHECK_ERROR;

      if (result == CHECK_DROP)
        {
          AguiJsonValue removed = AGUI_JSON_VALUE_INIT;

          _agui_json_array_remove (array, i, &removed);
          _agui_json_value_clear (&removed);
        }
      else
        {
          i++;
        }
    }

  if (_agui_json_array_get_length (array) < type->min_items)
    return fail (ctx, "must hold at least %u element%s",
                 type->min_items, type->min_items == 1 ? "" : "s");

  return CHECK_OK;
}

static CheckResult
check_union (Context           *ctx,
             const Type        *type,
             AguiJsonDocObject *object)
{
  int slot = _agui_json_object_find (object, type->tag);
  const AguiJsonValue *tag_value;
  CheckResult result;
  const char *tag;

  if (slot < 0)
    return fail_missing (ctx, type->tag);

  tag_value = _agui_json_object_slot_value (object, slot);
  if (!_agui_json_value_is_string (tag_value))
    {
      path_push_name (ctx, type->tag);
      result = fail (ctx, "must be a string");
      path_pop (ctx);
      return result;
    }

  tag = _agui_json_value_get_string (tag_value);

  for (const Variant *variant = type->variants; variant->value != NULL; variant++)
    {
      if (g_str_equal (variant->value, tag))
        return check_object (ctx, NULL, variant->fields, type->tag,
                             variant->open, object);
    }

  return CHECK_DROP;
}

static CheckResult
check_integer (Context    *ctx,
               const Type *type,
               Value      *value)
{
  gint64 integer;

  if (value->kind == VALUE_INTEGER)
    {
      integer = value->integer;
    }
  else if (value->kind == VALUE_DOUBLE)
    {
      double number = value->number;

      /* The readers read "1.0" and "1e3" as doubles; JSON itself does not
       * tell them from 1 and 1000. */
      if (!isfinite (number) || floor (number) != number ||
          fabs (number) > (double) MAX_SAFE_INTEGER)
        return fail (ctx, "must be %s", describe_type (type));

      integer = (gint64) number;
    }
  else
    {
      return fail (ctx, "must be %s", describe_type (type));
    }

  if (integer > MAX_SAFE_INTEGER || integer < -MAX_SAFE_INTEGER ||
      (type->kind == TYPE_COUNT && integer < 0))
    return fail (ctx, "must be %s", describe_type (type));

  if (value->kind == VALUE_DOUBLE)
    {
      value->kind = VALUE_INTEGER;
      value->integer = integer;
      value->converted = TRUE;
    }

  return CHECK_OK;
}

/* Every rule of a member's type, for both forms of an event. */
static CheckResult
check_value (Context    *ctx,
             const Type *type,
             Value      *value)
{
  if (value->kind == VALUE_NULL)
    {
      if (type->kind == TYPE_ANY_OR_NULL)
        return CHECK_OK;

      if (type->kind == TYPE_ANY)
        return fail (ctx, "must not be null");

      return fail (ctx, "must be %s, not null", describe_type (type));
    }

  switch (type->kind)
    {
    case TYPE_STRING:
      if (value->kind != VALUE_STRING)
        return fail (ctx, "must be a string");
      return CHECK_OK;

    case TYPE_BOOLEAN:
      if (value->kind != VALUE_BOOLEAN)
        return fail (ctx, "must be a boolean");
      return CHECK_OK;

    case TYPE_INTEGER:
    case TYPE_COUNT:
      return check_integer (ctx, type, value);

    case TYPE_OBJECT:
      if (value->kind != VALUE_OBJECT)
        return fail (ctx, "must be an object");
      return CHECK_OK;

    case TYPE_ANY:
    case TYPE_ANY_OR_NULL:
      return CHECK_OK;

    case TYPE_POINTER:
      if (value->kind != VALUE_STRING)
        return fail (ctx, "must be a string");
      if (!is_json_pointer (value->string))
        return fail (ctx, "must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)");
      return CHECK_OK;

    case TYPE_ENUM:
      {
        g_autofree char *allowed = NULL;

        if (value->kind != VALUE_STRING)
          return fail (ctx, "must be a string");
        if (g_strv_contains ((const char * const *) type->values, value->string))
          return CHECK_OK;

        allowed = g_strjoinv ("', '", (char **) type->values);
        return fail (ctx, "must be one of '%s'", allowed);
      }

    case TYPE_ARRAY:
      if (value->kind != VALUE_ARRAY)
        return fail (ctx, "must be an array");
      return check_array (ctx, type, value->tree->u.array);

    case TYPE_STRING_OR_ARRAY:
      if (value->kind == VALUE_STRING)
        return CHECK_OK;
      if (value->kind != VALUE_ARRAY)
        return fail (ctx, "must be a string or an array");
      return check_array (ctx, type, value->tree->u.array);

    case TYPE_SHAPE:
      if (value->kind != VALUE_OBJECT)
        return fail (ctx, "must be an object");
      return check_object (ctx, NULL, type->fields, NULL, FALSE,
                           value->tree->u.object);

    case TYPE_UNION:
      if (value->kind != VALUE_OBJECT)
        return fail (ctx, "must be an object");
      return check_union (ctx, type, value->tree->u.object);

    default:
      g_assert_not_reached ();
    }
}

gboolean
_agui_event_schema_enforce_tree (AguiEventType       type,
                                 AguiJsonDocObject  *members,
                                 GPtrArray          *warnings,
                                 GError            **error)
{
  const EventSchema *schema;
  CheckResult result;
  Context ctx;

  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (event_schemas), FALSE);
  g_return_val_if_fail (members != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  schema = &event_schemas[type];

  ctx.event_name = agui_event_type_to_string (type);
  ctx.warnings = warnings;
  ctx.path = NULL;
  ctx.error = error;

  result = check_object (&ctx, schema->base, schema->fields, "type", FALSE, members);
  g_clear_pointer (&ctx.path, g_array_unref);

  /* No event has a required member of a union type, so an event can only
   * be dropped whole through a table mistake; never pass one on. */
  g_assert (result != CHECK_DROP);

  return result == CHECK_OK;
}

/* A flat event: check_members () on members that are all scalars, giving
 * the same warnings and errors without a tree. */
gboolean
_agui_event_schema_enforce_flat (AguiEventType    type,
                                 AguiFlatMember  *members,
                                 guint           *n_members,
                                 const char      *arena,
                                 GPtrArray       *warnings,
                                 GError         **error)
{
  static const ValueKind kinds[] = {
    [AGUI_FLAT_STRING] = VALUE_STRING,
    [AGUI_FLAT_INTEGER] = VALUE_INTEGER,
    [AGUI_FLAT_DOUBLE] = VALUE_DOUBLE,
    [AGUI_FLAT_BOOLEAN] = VALUE_BOOLEAN,
  };
  const EventSchema *schema;
  CheckResult result;
  Context ctx;
  Slot stack_slots[16];
  g_autofree Slot *heap_slots = NULL;
  Slot *slots = stack_slots;
  gboolean changed;
  guint kept = 0;

  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (event_schemas), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  schema = &event_schemas[type];
  ctx.event_name = agui_event_type_to_string (type);
  ctx.warnings = warnings;
  ctx.path = NULL;
  ctx.error = error;

  if (*n_members > G_N_ELEMENTS (stack_slots))
    slots = heap_slots = g_new (Slot, *n_members);

  for (guint i = 0; i < *n_members; i++)
    {
      const AguiFlatMember *member = &members[i];
      Slot *slot = &slots[i];

      slot->name = arena + member->name;
      slot->field = NULL;
      slot->removed = FALSE;
      slot->value.kind = kinds[member->kind];
      slot->value.string = arena + member->string;
      slot->value.integer = member->integer;
      slot->value.number = member->number;
      slot->value.converted = FALSE;
    }

  result = check_members (&ctx, schema->base, schema->fields, "type", FALSE,
                          slots, *n_members, &changed);
  g_clear_pointer (&ctx.path, g_array_unref);

  for (guint i = 0; i < *n_members && result == CHECK_OK && changed; i++)
    {
      if (slots[i].removed)
        continue;

      members[kept] = members[i];
      if (slots[i].value.converted)
        {
          members[kept].kind = AGUI_FLAT_INTEGER;
          members[kept].integer = slots[i].value.integer;
        }
      kept++;
    }
  if (result == CHECK_OK && changed)
    *n_members = kept;

  g_assert (result != CHECK_DROP);

  return result == CHECK_OK;
}
