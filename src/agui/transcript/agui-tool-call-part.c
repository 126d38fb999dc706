/* agui-tool-call-part.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-enums.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-part-private.h"
#include "agui-pool-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-util-private.h"

/**
 * AguiToolCallPart:
 *
 * A call the agent made to a tool: its name, the argument text as it
 * streams (and, once complete, the arguments parsed as JSON when they
 * parse), where the call stands ([enum@Agui.ToolCallStatus]) and the
 * tool's answer.
 */
/* A long run keeps every call it made, so a call holds no more than it
 * must: the tool name is one shared string for every call to that tool,
 * the argument text is trimmed to its length once complete, and the
 * arguments are parsed only when someone asks for them (a tree of a few
 * members costs more than the text it came from). */
/* What few calls have, or only once someone asks: allocated with the
 * first of them, and kept in the object's data (extra_quark), as the
 * part's notes are: six pointers a call in a long run of calls that
 * have none was a fifth of each call's object, and the pointer to them
 * another 16 bytes (with it, a call was 96 bytes and not 80). */
typedef struct
{
  JsonNode           *parsed_arguments;
  char               *error;
  AguiJsonValue      *metadata;        /* an object; NULL for none */
  char               *encrypted_value;
  char               *edited_arguments;
  char               *answer_text;
} ToolCallExtra;

struct _AguiToolCallPart
{
  AguiPart            parent_instance;
  char               *tool_call_id;    /* from _agui_id_new() */
  char               *tool_name;       /* from _agui_id_new() */
  char               *arguments;       /* NULL while empty */
  /* from the slice allocator, or, with result_lent, a tool message's
   * (see _agui_tool_call_part_lend_result ()) */
  char               *result;
  /* One word: a terabyte of arguments is past any frame's bound */
  guint64             arguments_len : 40;
  guint64             status : 4;      /* AguiToolCallStatus */
  guint64             answer : 4;      /* AguiAnswer */
  guint64             result_lent : 1;
  guint64             has_result : 1;
  guint64             awaiting_approval : 1;
  guint64             question_expired : 1;
  guint64             no_result : 1;
  /* the arguments were finished: parsed_arguments is theirs once parsed */
  guint64             arguments_final : 1;
  guint64             arguments_parsed : 1;
  /* the arguments' block is exactly their length and a NUL (set whole,
   * or finished); otherwise, streaming, it is arguments_capacity () */
  guint64             arguments_exact : 1;
  guint64             has_extra : 1;
};

G_DEFINE_FINAL_TYPE (AguiToolCallPart, agui_tool_call_part, AGUI_TYPE_PART)

/* With AguiPart's 16 bytes of private data, 80: a word more is a slice
 * size more per call */
G_STATIC_ASSERT (sizeof (AguiToolCallPart) <= 64);

static GQuark extra_quark;

static void
extra_free (ToolCallExtra *extra)
{
  g_clear_pointer (&extra->parsed_arguments, json_node_unref);
  g_free (extra->error);
  g_clear_pointer (&extra->metadata, _agui_json_doc_value_free);
  g_free (extra->encrypted_value);
  g_free (extra->edited_arguments);
  g_free (extra->answer_text);
  g_free (extra);
}

/* The extra, or NULL without one: has_extra spares the look into the
 * object's data for the calls that have none */
static inline ToolCallExtra *
get_extra (AguiToolCallPart *self)
{
  return self->has_extra ? g_object_get_qdata (G_OBJECT (self), extra_quark) : NULL;
}

/* A member of the extra, NULL without one */
#define EXTRA(self, member) ((self)->has_extra ? get_extra (self)->member : NULL)

static ToolCallExtra *
ensure_extra (AguiToolCallPart *self)
{
  if (!self->has_extra)
    {
      g_object_set_qdata_full (G_OBJECT (self), extra_quark, g_new0 (ToolCallExtra, 1), (GDestroyNotify) extra_free);
      self->has_extra = TRUE;
    }

  return get_extra (self);
}

/* _agui_set_str() for a string of the extra at @offset, which a NULL
 * leaves unmade */
static gboolean
set_extra_string (AguiToolCallPart *self,
                  gsize             offset,
                  const char       *value)
{
  if (!self->has_extra && value == NULL)
    return FALSE;

  return _agui_set_str (G_STRUCT_MEMBER_P (ensure_extra (self), offset), value);
}

enum {
  PROP_0,
  PROP_TOOL_CALL_ID,
  PROP_TOOL_NAME,
  PROP_ARGUMENTS,
  PROP_PARSED_ARGUMENTS,
  PROP_STATUS,
  PROP_RESULT,
  PROP_ERROR,
  PROP_ANSWER,
  PROP_EDITED_ARGUMENTS,
  PROP_ANSWER_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The person's answer outranks the result: an agent that reports
 * "done" for a call the person denied has not made it approved. A
 * question still open outranks everything, and "no result" only says
 * something about a call nobody refused. */
static AguiToolCallStatus
derive_status (AguiToolCallPart *self)
{
  gboolean refused = self->answer == AGUI_ANSWER_DENIED ||
                     self->answer == AGUI_ANSWER_CANCELLED ||
                     self->answer == AGUI_ANSWER_EXPIRED;

  /* A question past its expiresAt can no longer be approved: the card
   * says so at once, before anyone dismisses it. */
  if (self->awaiting_approval && !self->has_result)
    return self->question_expired ? AGUI_TOOL_CALL_EXPIRED : AGUI_TOOL_CALL_AWAITING_APPROVAL;

  if (refused)
    return self->answer == AGUI_ANSWER_DENIED ? AGUI_TOOL_CALL_DENIED
           : self->answer == AGUI_ANSWER_CANCELLED ? AGUI_TOOL_CALL_CANCELLED
           : AGUI_TOOL_CALL_EXPIRED;

  if (self->answer == AGUI_ANSWER_DECLINED)
    return AGUI_TOOL_CALL_DECLINED;

  if (self->has_result)
    return EXTRA (self, error) ? AGUI_TOOL_CALL_FAILED : AGUI_TOOL_CALL_COMPLETE;

  if (self->no_result)
    return AGUI_TOOL_CALL_NO_RESULT;

  if (self->answer == AGUI_ANSWER_APPROVED)
    return AGUI_TOOL_CALL_APPROVED;
  if (self->answer == AGUI_ANSWER_APPROVED_EDITED)
    return AGUI_TOOL_CALL_APPROVED_EDITED;

  if (agui_part_get_complete (AGUI_PART (self)))
    return AGUI_TOOL_CALL_AWAITING_RESULT;

  return AGUI_TOOL_CALL_STREAMING;
}

static void
update_status (AguiToolCallPart *self)
{
  AguiToolCallStatus status = derive_status (self);

  if (status != self->status)
    {
      self->status = status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
}

/* _agui_set_str() for the result, whose copy comes from the slice
 * allocator: most answers in a long run are short, and malloc's
 * smallest block (32 bytes) was twice the slice's. @lent: @result is
 * a tool message's, kept rather than copied, the same text or not. */
static gboolean
set_result_text (AguiToolCallPart *self,
                 const char       *result,
                 gboolean          lent)
{
  gboolean changed = g_strcmp0 (self->result, result) != 0;

  if (!changed && !(lent && self->result != result))
    return FALSE;

  if (self->result != NULL && !self->result_lent)
    g_slice_free1 (strlen (self->result) + 1, self->result);
  if (lent || result == NULL)
    self->result = (char *) result;
  else
    self->result = g_slice_copy (strlen (result) + 1, result);
  self->result_lent = lent && result != NULL;

  return changed;
}

/* Arguments that are whole (set whole, or finished) are kept in a block
 * of their size from the pool: those of most calls are a short object,
 * and malloc put one of 25 bytes in a 48-byte chunk where the pool takes
 * 32. While they stream, the block grows by doubling, from malloc. */
static void
free_arguments (AguiToolCallPart *self)
{
  if (self->arguments == NULL)
    return;

  if (self->arguments_exact)
    _agui_pool_free (self->arguments_len + 1, self->arguments);
  else
    g_free (self->arguments);
  self->arguments = NULL;
}

static char *
exact_copy (const char *text,
            gsize       length)
{
  char *copy = _agui_pool_alloc (length + 1);

  memcpy (copy, text, length);
  copy[length] = '\0';

  return copy;
}

static void
agui_tool_call_part_finalize (GObject *object)
{
  AguiToolCallPart *self = AGUI_TOOL_CALL_PART (object);

  g_clear_pointer (&self->tool_call_id, _agui_id_release);
  g_clear_pointer (&self->tool_name, _agui_id_release);
  free_arguments (self);
  set_result_text (self, NULL, FALSE);

  G_OBJECT_CLASS (agui_tool_call_part_parent_class)->finalize (object);
}

static void
agui_tool_call_part_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AguiToolCallPart *self = AGUI_TOOL_CALL_PART (object);

  switch (prop_id)
    {
    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, self->tool_call_id);
      break;

    case PROP_TOOL_NAME:
      g_value_set_string (value, self->tool_name);
      break;

    case PROP_ARGUMENTS:
      g_value_set_string (value, agui_tool_call_part_get_arguments (self));
      break;

    case PROP_PARSED_ARGUMENTS:
      g_value_set_boxed (value, agui_tool_call_part_get_parsed_arguments (self));
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    case PROP_RESULT:
      g_value_set_string (value, self->result);
      break;

    case PROP_ERROR:
      g_value_set_string (value, EXTRA (self, error));
      break;

    case PROP_ANSWER:
      g_value_set_enum (value, self->answer);
      break;

    case PROP_EDITED_ARGUMENTS:
      g_value_set_string (value, EXTRA (self, edited_arguments));
      break;

    case PROP_ANSWER_TEXT:
      g_value_set_string (value, EXTRA (self, answer_text));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_tool_call_part_class_init (AguiToolCallPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  extra_quark = g_quark_from_static_string ("agui-tool-call-part-extra");

  object_class->finalize = agui_tool_call_part_finalize;
  object_class->get_property = agui_tool_call_part_get_property;

  properties[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_TOOL_NAME] =
    g_param_spec_string ("tool-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiToolCallPart:arguments:
   *
   * The argument text as streamed so far (normally JSON, possibly invalid).
   */
  properties[PROP_ARGUMENTS] =
    g_param_spec_string ("arguments", NULL, NULL, "",
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiToolCallPart:parsed-arguments:
   *
   * The arguments parsed as JSON once the call is complete, or %NULL while
   * streaming or when the text is not JSON. It is notified when the call
   * completes; the text is parsed the first time the value is read.
   */
  properties[PROP_PARSED_ARGUMENTS] =
    g_param_spec_boxed ("parsed-arguments", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       AGUI_TYPE_TOOL_CALL_STATUS, AGUI_TOOL_CALL_STREAMING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_RESULT] =
    g_param_spec_string ("result", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiToolCallPart:answer:
   *
   * What the person answered when asked about this call, or declined
   * when the call was to a tool on this computer.
   */
  properties[PROP_ANSWER] =
    g_param_spec_enum ("answer", NULL, NULL,
                       AGUI_TYPE_ANSWER, AGUI_ANSWER_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiToolCallPart:edited-arguments:
   *
   * The arguments the person approved the call with, as JSON text, when
   * they changed them; [property@Agui.ToolCallPart:arguments] keeps what
   * the agent asked for.
   */
  properties[PROP_EDITED_ARGUMENTS] =
    g_param_spec_string ("edited-arguments", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiToolCallPart:answer-text:
   *
   * The value the person answered with, as JSON text, when the agent
   * asked for input rather than approval.
   */
  properties[PROP_ANSWER_TEXT] =
    g_param_spec_string ("answer-text", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_tool_call_part_init (AguiToolCallPart *self)
{
  self->status = AGUI_TOOL_CALL_STREAMING;
}

AguiToolCallPart *
_agui_tool_call_part_new (const char *message_id,
                          const char *tool_call_id,
                          const char *tool_name)
{
  AguiToolCallPart *self = g_object_new (AGUI_TYPE_TOOL_CALL_PART, NULL);

  _agui_part_set_message_id (AGUI_PART (self), message_id);
  self->tool_call_id = _agui_id_new (tool_call_id);
  self->tool_name = _agui_id_new (tool_name);

  return self;
}

/**
 * agui_tool_call_part_get_tool_call_id:
 * @self: a tool call part
 *
 * Returns: the tool call's id
 */
const char *
agui_tool_call_part_get_tool_call_id (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return self->tool_call_id;
}

/**
 * agui_tool_call_part_get_tool_name:
 * @self: a tool call part
 *
 * Returns: (nullable): the name of the tool called
 */
const char *
agui_tool_call_part_get_tool_name (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return self->tool_name;
}

/**
 * agui_tool_call_part_get_arguments:
 * @self: a tool call part
 *
 * Returns: the argument text so far
 */
const char *
agui_tool_call_part_get_arguments (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return self->arguments ? self->arguments : "";
}

/**
 * agui_tool_call_part_get_parsed_arguments:
 * @self: a tool call part
 *
 * Gives [property@Agui.ToolCallPart:parsed-arguments], parsing the
 * argument text on the first call after the call completed; later calls
 * return the same node.
 *
 * Returns: (transfer none) (nullable): the arguments as JSON, once complete
 */
JsonNode *
agui_tool_call_part_get_parsed_arguments (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  if (self->arguments_final && !self->arguments_parsed)
    {
      /* Arguments that do not parse (or nest deeper than the limit) stay
       * text, shown as the agent sent them. */
      JsonNode *parsed = self->arguments_len > 0 ? _agui_json_parse (self->arguments, self->arguments_len, NULL) : NULL;

      if (parsed != NULL)
        ensure_extra (self)->parsed_arguments = parsed;
      self->arguments_parsed = TRUE;
    }

  return EXTRA (self, parsed_arguments);
}

/**
 * agui_tool_call_part_get_status:
 * @self: a tool call part
 *
 * Returns: where the call stands
 */
AguiToolCallStatus
agui_tool_call_part_get_status (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), AGUI_TOOL_CALL_STREAMING);

  return self->status;
}

/**
 * agui_tool_call_part_get_result:
 * @self: a tool call part
 *
 * Returns: (nullable): the tool's answer as text
 */
const char *
agui_tool_call_part_get_result (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return self->result;
}

/**
 * agui_tool_call_part_get_error:
 * @self: a tool call part
 *
 * Returns: (nullable): the error the tool reported
 */
const char *
agui_tool_call_part_get_error (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return EXTRA (self, error);
}

/**
 * agui_tool_call_part_get_answer:
 * @self: a tool call part
 *
 * Returns: what the person answered about the call
 */
AguiAnswer
agui_tool_call_part_get_answer (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), AGUI_ANSWER_NONE);

  return self->answer;
}

/**
 * agui_tool_call_part_get_edited_arguments:
 * @self: a tool call part
 *
 * Returns: (nullable): the arguments the person approved instead of the
 *   agent's, as JSON text
 */
const char *
agui_tool_call_part_get_edited_arguments (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return EXTRA (self, edited_arguments);
}

/**
 * agui_tool_call_part_get_answer_text:
 * @self: a tool call part
 *
 * Returns: (nullable): the value the person answered with, as JSON text
 */
const char *
agui_tool_call_part_get_answer_text (AguiToolCallPart *self)
{
  g_return_val_if_fail (AGUI_IS_TOOL_CALL_PART (self), NULL);

  return EXTRA (self, answer_text);
}

void
_agui_tool_call_part_set_tool_name (AguiToolCallPart *self,
                                    const char       *tool_name)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  if (_agui_set_id (&self->tool_name, tool_name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_NAME]);
}

/* Streamed arguments grow by doubling, so that streaming stays linear in
 * the text's length; the size of the block follows from the length, so
 * a call (a long run keeps thousands) need not hold it. */
static gsize
grown_size (gsize needed)
{
  gsize size = 16;

  while (size < needed)
    size *= 2;

  return size;
}

/* What the arguments' block holds at least: a streaming block was made
 * the grown size of a length, a power of two it still fits in, hence at
 * least the grown size of the length now */
static gsize
arguments_capacity (AguiToolCallPart *self)
{
  if (self->arguments == NULL)
    return 0;

  return self->arguments_exact ? self->arguments_len + 1 : grown_size (self->arguments_len + 1);
}

void
_agui_tool_call_part_append_arguments (AguiToolCallPart *self,
                                       const char       *delta)
{
  gsize length;

  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  if (delta == NULL || delta[0] == '\0')
    return;

  /* Text arriving after the end does not change what the end parsed. */
  if (self->arguments_final)
    agui_tool_call_part_get_parsed_arguments (self);

  length = strlen (delta);
  if (self->arguments == NULL)
    {
      /* Most arguments come whole, in one delta: kept as if finished,
       * with no block to let go of at the end */
      self->arguments = exact_copy (delta, length);
      self->arguments_len = length;
      self->arguments_exact = TRUE;
    }
  else
    {
      if (self->arguments_len + length + 1 > arguments_capacity (self))
        {
          gsize size = grown_size (self->arguments_len + length + 1);
          char *grown;

          if (self->arguments_exact)
            {
              grown = g_malloc (size);
              memcpy (grown, self->arguments, self->arguments_len + 1);
              free_arguments (self);
            }
          else
            {
              grown = g_realloc (self->arguments, size);
            }
          self->arguments = grown;
          self->arguments_exact = FALSE;
        }
      memcpy (self->arguments + self->arguments_len, delta, length + 1);
      self->arguments_len += length;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGUMENTS]);
}

void
_agui_tool_call_part_set_arguments (AguiToolCallPart *self,
                                    const char       *arguments)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  if (g_strcmp0 (agui_tool_call_part_get_arguments (self), arguments ? arguments : "") == 0)
    return;

  if (self->arguments_final)
    agui_tool_call_part_get_parsed_arguments (self);

  free_arguments (self);
  self->arguments_len = arguments ? strlen (arguments) : 0;
  self->arguments = self->arguments_len > 0 ? exact_copy (arguments, self->arguments_len) : NULL;
  self->arguments_exact = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGUMENTS]);
}

/* Marks the arguments complete; they are parsed when first asked for,
 * never per delta: partial JSON never parses, and parsing on every delta
 * would make streaming quadratic. */
void
_agui_tool_call_part_finish_arguments (AguiToolCallPart *self)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  if (self->arguments != NULL && !self->arguments_exact)
    {
      char *exact = exact_copy (self->arguments, self->arguments_len);

      free_arguments (self);
      self->arguments = exact;
      self->arguments_exact = TRUE;
    }

  if (self->has_extra)
    g_clear_pointer (&get_extra (self)->parsed_arguments, json_node_unref);
  self->arguments_final = TRUE;
  self->arguments_parsed = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARSED_ARGUMENTS]);

  _agui_part_set_complete (AGUI_PART (self), TRUE);
  update_status (self);
}

static void
apply_result (AguiToolCallPart *self,
              const char       *result,
              gboolean          lent,
              const char       *error)
{
  self->has_result = TRUE;
  if (set_result_text (self, result, lent))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  if (set_extra_string (self, G_STRUCT_OFFSET (ToolCallExtra, error), error))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);

  /* A result means the arguments are as complete as they will get. */
  if (!agui_part_get_complete (AGUI_PART (self)))
    _agui_part_set_complete (AGUI_PART (self), TRUE);

  update_status (self);
}

void
_agui_tool_call_part_set_result (AguiToolCallPart *self,
                                 const char       *result,
                                 const char       *error)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  apply_result (self, result, FALSE, error);
}

void
_agui_tool_call_part_lend_result (AguiToolCallPart *self,
                                  const char       *result,
                                  const char       *error)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  apply_result (self, result, TRUE, error);
}

void
_agui_tool_call_part_take_back_result (AguiToolCallPart *self,
                                       const char       *lent)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  /* the same text, the call's own now: nothing to notify */
  if (self->result_lent && self->result == lent)
    {
      self->result = g_slice_copy (strlen (lent) + 1, lent);
      self->result_lent = FALSE;
    }
}

void
_agui_tool_call_part_set_awaiting_approval (AguiToolCallPart *self,
                                            gboolean          awaiting)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  self->awaiting_approval = !!awaiting;
  if (!awaiting)
    self->question_expired = FALSE;
  update_status (self);
}

void
_agui_tool_call_part_set_question_expired (AguiToolCallPart *self,
                                           gboolean          expired)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  self->question_expired = !!expired;
  update_status (self);
}

AguiJsonValue *
_agui_tool_call_part_get_metadata (AguiToolCallPart *self)
{
  return EXTRA (self, metadata);
}

void
_agui_tool_call_part_merge_metadata (AguiToolCallPart *self,
                                     AguiJsonValue    *metadata)
{
  if (metadata == NULL)
    return;

  _agui_json_doc_merge_object (&ensure_extra (self)->metadata, metadata);
}

const char *
_agui_tool_call_part_get_encrypted_value (AguiToolCallPart *self)
{
  return EXTRA (self, encrypted_value);
}

void
_agui_tool_call_part_set_encrypted_value (AguiToolCallPart *self,
                                          const char       *value)
{
  set_extra_string (self, G_STRUCT_OFFSET (ToolCallExtra, encrypted_value), value);
}

void
_agui_tool_call_part_set_answer (AguiToolCallPart *self,
                                 AguiAnswer        answer,
                                 const char       *edited_arguments,
                                 const char       *answer_text)
{
  gboolean answer_changed, edited_changed, text_changed;

  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  /* Everything first, then the notifications: a listener reading the
   * answer sees it whole. */
  answer_changed = self->answer != answer;
  self->answer = answer;
  edited_changed = set_extra_string (self, G_STRUCT_OFFSET (ToolCallExtra, edited_arguments), edited_arguments);
  text_changed = set_extra_string (self, G_STRUCT_OFFSET (ToolCallExtra, answer_text), answer_text);

  if (edited_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITED_ARGUMENTS]);
  if (text_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWER_TEXT]);
  if (answer_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWER]);

  update_status (self);
}

void
_agui_tool_call_part_set_no_result (AguiToolCallPart *self,
                                    gboolean          no_result)
{
  g_return_if_fail (AGUI_IS_TOOL_CALL_PART (self));

  self->no_result = !!no_result;
  update_status (self);
}

gboolean
_agui_tool_call_part_get_has_result (AguiToolCallPart *self)
{
  return self->has_result;
}

gboolean
_agui_tool_call_part_get_awaiting_approval (AguiToolCallPart *self)
{
  return self->awaiting_approval;
}

static const char * const answer_names[] = {
  [AGUI_ANSWER_NONE] = NULL,
  [AGUI_ANSWER_APPROVED] = "approved",
  [AGUI_ANSWER_APPROVED_EDITED] = "approved-edited",
  [AGUI_ANSWER_DENIED] = "denied",
  [AGUI_ANSWER_CANCELLED] = "cancelled",
  [AGUI_ANSWER_EXPIRED] = "expired",
  [AGUI_ANSWER_ANSWERED] = "answered",
  [AGUI_ANSWER_DECLINED] = "declined",
};

/* The stored name of an answer, %NULL for none */
const char *
_agui_answer_get_name (AguiAnswer answer)
{
  return (guint) answer < G_N_ELEMENTS (answer_names) ? answer_names[answer] : NULL;
}

/* What only this client knows about the call (the person's answer, that
 * its run ended without a result), for the store, as an object in
 * @local (null before); FALSE, and @local untouched, when there is
 * nothing. It is never sent to an agent. */
gboolean
_agui_tool_call_part_get_local_state (AguiToolCallPart *self,
                                      AguiJsonValue    *local)
{
  AguiJsonDocObject *object;

  if (self->answer == AGUI_ANSWER_NONE && !self->no_result)
    return FALSE;

  if (local == NULL)
    return TRUE;

  object = _agui_json_value_set_object (local, 4);
  if (answer_names[self->answer] != NULL)
    _agui_json_doc_set_string (object, "answer", answer_names[self->answer]);
  if (EXTRA (self, edited_arguments) != NULL)
    _agui_json_doc_set_string (object, "editedArguments", EXTRA (self, edited_arguments));
  if (EXTRA (self, answer_text) != NULL)
    _agui_json_doc_set_string (object, "answerText", EXTRA (self, answer_text));
  if (self->no_result)
    _agui_json_doc_set_boolean (object, "noResult", TRUE);

  return TRUE;
}

/* A stored row may come from an older or newer Tandem: what is not
 * understood is ignored, never an error. */
void
_agui_tool_call_part_restore_local_state (AguiToolCallPart    *self,
                                          const AguiJsonValue *local)
{
  const char *name = _agui_json_doc_get_string (local, "answer");
  AguiAnswer answer = AGUI_ANSWER_NONE;
  const AguiJsonValue *no_result = _agui_json_doc_get_member (local, "noResult");

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (answer_names); i++)
    if (g_strcmp0 (answer_names[i], name) == 0)
      answer = i;

  self->no_result = no_result != NULL && no_result->kind == AGUI_JSON_DOC_BOOLEAN && no_result->u.boolean;
  _agui_tool_call_part_set_answer (self, answer,
                                   _agui_json_doc_get_string (local, "editedArguments"),
                                   _agui_json_doc_get_string (local, "answerText"));
}

void
_agui_tool_call_part_copy_local_state (AguiToolCallPart *self,
                                       AguiToolCallPart *source)
{
  self->no_result = source->no_result;
  _agui_tool_call_part_set_answer (self, source->answer, EXTRA (source, edited_arguments), EXTRA (source, answer_text));
}
