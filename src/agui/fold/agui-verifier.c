/* agui-verifier.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-id-index-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-util-private.h"
#include "agui-verifier-private.h"

/**
 * AguiVerifier:
 *
 * The AG-UI protocol state machine (section 11): it sees every event after
 * chunk expansion and either accepts it, advancing its state, or rejects
 * it with an %AGUI_ERROR_PROTOCOL error whose message is the one the
 * reference client uses, so that runs fail the same way everywhere.
 *
 * A rejected event leaves the state as it was; the caller is expected to
 * stop the run. One verifier checks one event stream, which may hold
 * several runs back to back; [method@Agui.Verifier.reset] prepares it for
 * a new stream.
 *
 * ```c
 * if (!_agui_verifier_check (verifier, event, &error))
 *   return fail_run (error);
 * apply (event);
 * ```
 */

/* A set of strings that remembers insertion order, for the lists in the
 * RUN_FINISHED errors, with O(1) insertion and removal. */
typedef struct
{
  GHashTable *links;   /* key (borrowed from the link) → GList */
  GQueue      order;   /* of owned keys, oldest first */
} OrderedSet;

/* Steps are keyed by (owner, name); an entry sits in two queues: the open
 * order, and the list of owners that have a step of its name open. */
typedef struct
{
  char  *key;
  char  *owner;        /* NULL: the parent agent */
  char  *name;
  GList  order_link;
  GList  name_link;
} StepEntry;

/* Who opened each message or call: id → owner, a NULL owner being the
 * parent agent. That is nearly every id, and a long run has one or two
 * per tool call: those sit in a set of the ids themselves (a slot of 9
 * bytes where a GHashTable's was 20), and only ids a subagent owns in a
 * table, which is read first. An id moved to the parent is taken out of
 * that table; one moved to a subagent shadows its entry in the set. The
 * ids are from _agui_id_new(), which the transcript shares. */
typedef struct
{
  AguiIdIndex  parent;
  GHashTable  *subagent;   /* id → owner */
} Owners;

struct _AguiVerifier
{
  GObject      parent_instance;

  OrderedSet   text_messages;
  OrderedSet   tool_calls;
  OrderedSet   reasoning_spans;
  OrderedSet   reasoning_messages;
  OrderedSet   active_subagents;
  GHashTable  *finished_subagents;     /* set of ids */

  GHashTable  *steps;                  /* key → StepEntry (owned) */
  GHashTable  *steps_by_name;          /* name → GQueue of StepEntry */
  GQueue       step_order;

  /* id → owner (see Owners). Spans and reasoning messages share one. */
  Owners       message_owners;
  Owners       tool_call_owners;
  Owners       activity_owners;
  Owners       reasoning_owners;

  guint        seen_first_event : 1;
  guint        run_active : 1;
  guint        run_finished : 1;
  guint        run_errored : 1;
};

G_DEFINE_FINAL_TYPE (AguiVerifier, _agui_verifier, G_TYPE_OBJECT)

static void
ordered_set_init (OrderedSet *set)
{
  set->links = g_hash_table_new (g_str_hash, g_str_equal);
  g_queue_init (&set->order);
}

static void
ordered_set_clear (OrderedSet *set)
{
  g_hash_table_remove_all (set->links);
  g_queue_clear_full (&set->order, g_free);
}

static void
ordered_set_destroy (OrderedSet *set)
{
  ordered_set_clear (set);
  g_clear_pointer (&set->links, g_hash_table_unref);
}

static gboolean
ordered_set_contains (OrderedSet *set,
                      const char *key)
{
  return g_hash_table_contains (set->links, key);
}

static void
ordered_set_add (OrderedSet *set,
                 const char *key)
{
  g_assert (!ordered_set_contains (set, key));

  g_queue_push_tail (&set->order, g_strdup (key));
  g_hash_table_insert (set->links, set->order.tail->data, set->order.tail);
}

static void
ordered_set_remove (OrderedSet *set,
                    const char *key)
{
  GList *link = g_hash_table_lookup (set->links, key);

  g_assert (link != NULL);

  g_hash_table_remove (set->links, key);
  g_free (link->data);
  g_queue_delete_link (&set->order, link);
}

static gboolean
ordered_set_is_empty (OrderedSet *set)
{
  return g_queue_is_empty (&set->order);
}

static char *
ordered_set_join (OrderedSet *set)
{
  GString *joined = g_string_new (NULL);

  for (GList *l = set->order.head; l != NULL; l = l->next)
    {
      if (l != set->order.head)
        g_string_append (joined, ", ");
      g_string_append (joined, l->data);
    }

  return g_string_free (joined, FALSE);
}

static void
step_entry_free (StepEntry *entry)
{
  g_free (entry->key);
  g_free (entry->owner);
  g_free (entry->name);
  g_free (entry);
}

/* Ids are arbitrary strings, so the owner is length-prefixed to keep
 * ("a", "bc") apart from ("ab", "c"). */
static char *
step_key (const char *owner,
          const char *name)
{
  if (owner == NULL)
    return g_strconcat ("-", name, NULL);

  return g_strdup_printf ("%" G_GSIZE_FORMAT ":%s%s", strlen (owner), owner, name);
}

static void
owners_init (Owners *owners)
{
  _agui_id_index_init (&owners->parent, 1, NULL);
  owners->subagent = g_hash_table_new_full (g_str_hash, g_str_equal,
                                            (GDestroyNotify) _agui_id_release, g_free);
}

static void
owners_clear (Owners *owners)
{
  gpointer *slot;
  guint position = 0;

  while ((slot = _agui_id_index_next (&owners->parent, &position)))
    _agui_id_release (slot[0]);
  _agui_id_index_clear (&owners->parent);
  g_hash_table_remove_all (owners->subagent);
}

static void
owners_destroy (Owners *owners)
{
  owners_clear (owners);
  g_clear_pointer (&owners->subagent, g_hash_table_unref);
}

static gboolean
lookup_owner (Owners      *owners,
              const char  *id,
              const char **owner)
{
  gpointer value = NULL;

  if (g_hash_table_size (owners->subagent) > 0 &&
      g_hash_table_lookup_extended (owners->subagent, id, NULL, &value))
    {
      *owner = value;
      return TRUE;
    }

  if (_agui_id_index_lookup (&owners->parent, id) == NULL)
    return FALSE;

  *owner = NULL;
  return TRUE;
}

static gboolean
owners_contains (Owners     *owners,
                 const char *id)
{
  const char *owner;

  return lookup_owner (owners, id, &owner);
}

static void
record_owner (Owners     *owners,
              const char *id,
              const char *owner,
              gboolean    overwrite)
{
  if (!overwrite && owners_contains (owners, id))
    return;

  if (owner != NULL)
    {
      g_hash_table_insert (owners->subagent, _agui_id_new (id), g_strdup (owner));
    }
  else
    {
      gpointer *slot = _agui_id_index_insert (&owners->parent, id);

      if (slot[0] == NULL)
        slot[0] = _agui_id_new (id);
      g_hash_table_remove (owners->subagent, id);
    }
}

static void
clear_run_state (AguiVerifier *self)
{
  ordered_set_clear (&self->text_messages);
  ordered_set_clear (&self->tool_calls);
  ordered_set_clear (&self->reasoning_spans);
  ordered_set_clear (&self->reasoning_messages);
  ordered_set_clear (&self->active_subagents);
  g_hash_table_remove_all (self->finished_subagents);

  g_hash_table_remove_all (self->steps_by_name);
  g_queue_init (&self->step_order);
  g_hash_table_remove_all (self->steps);

  owners_clear (&self->message_owners);
  owners_clear (&self->tool_call_owners);
  owners_clear (&self->activity_owners);
  owners_clear (&self->reasoning_owners);
}

static const char *
owner_to_string (const char *owner)
{
  return owner != NULL ? owner : "(the parent agent)";
}

/* Section 11.3: an untagged event never mismatches, a recorded owner of
 * "parent agent" does. */
static gboolean
check_tag (AguiEvent   *event,
           Owners      *owners,
           const char  *kind,
           const char  *id,
           GError     **error)
{
  const char *tag = agui_event_get_subagent_run_id (event);
  const char *owner;

  if (tag == NULL || !lookup_owner (owners, id, &owner))
    return TRUE;

  if (g_strcmp0 (owner, tag) == 0)
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
               "Cannot send '%s': subagentRunId '%s' does not match the %s '%s' opener's subagent '%s'.",
               agui_event_get_type_name (event), tag, kind, id, owner_to_string (owner));
  return FALSE;
}

/* Schema enforcement guarantees the members the rules below look up; an
 * event built without it may lack one, and is refused rather than read. */
static gboolean
require_string (AguiEvent   *event,
                const char  *member,
                const char **value,
                GError     **error)
{
  *value = agui_event_get_string (event, member);
  if (*value != NULL)
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
               "Cannot send '%s' without a '%s'.",
               agui_event_get_type_name (event), member);
  return FALSE;
}

/* An event's nested member when it is of @kind, else NULL. */
static const AguiJsonValue *
member_of_kind (AguiEvent       *event,
                const char      *name,
                AguiJsonDocKind  kind)
{
  const AguiJsonValue *value = _agui_event_peek_member (event, name);

  return value != NULL && value->kind == kind ? value : NULL;
}

static gboolean
member_is_null (const AguiJsonValue *object,
                const char          *member)
{
  const AguiJsonValue *value = _agui_json_doc_get_member (object, member);

  return value != NULL && value->kind == AGUI_JSON_DOC_NULL;
}

/* The string member @name of @object, or @default_value when it is
 * absent or not a string. */
static const char *
string_or (const AguiJsonValue *object,
           const char          *name,
           const char          *default_value)
{
  const char *string = _agui_json_doc_get_string (object, name);

  return string != NULL ? string : default_value;
}

static gboolean
check_null_member (AguiEvent   *event,
                   const char  *member,
                   GError     **error)
{
  if (!_agui_event_member_is_null (event, member))
    return TRUE;

  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
               "Cannot send '%s' with '%s: null'. The field is optional — omit it entirely.",
               agui_event_get_type_name (event), member);
  return FALSE;
}

static gboolean
check_message_nulls (const AguiJsonValue  *messages,
                     GError              **error)
{
  guint n = _agui_json_doc_get_length (messages);

  for (guint i = 0; i < n; i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);

      if (message->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      if (member_is_null (message, "subagentRunId"))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send a message (id '%s') with 'subagentRunId: null'. The field is optional — omit it entirely.",
                       string_or (message, "id", ""));
          return FALSE;
        }
    }

  return TRUE;
}

static const AguiJsonValue *
get_input_messages (AguiEvent *event)
{
  return _agui_json_doc_get_array (_agui_event_peek_member (event, "input"), "messages");
}

static char *
describe_json (const AguiJsonValue *value)
{
  if (value == NULL)
    return g_strdup ("undefined");

  if (_agui_json_value_is_string (value))
    return g_strdup (_agui_json_value_get_string (value));

  return _agui_json_value_to_string (value, FALSE, NULL);
}

static gboolean
check_subagent_outcome (AguiEvent   *event,
                        GError     **error)
{
  const AguiJsonValue *node = _agui_event_peek_member (event, "outcome");
  const AguiJsonValue *outcome;
  const AguiJsonValue *ids;
  const char *type;

  /* absent or null; a flat event's outcome is a scalar, not an object */
  if (!agui_event_has_member (event, "outcome") || (node != NULL && node->kind == AGUI_JSON_DOC_NULL))
    return TRUE;

  outcome = node != NULL && node->kind == AGUI_JSON_DOC_OBJECT ? node : NULL;
  type = _agui_json_doc_get_string (outcome, "type");
  if (g_strcmp0 (type, "success") != 0 && g_strcmp0 (type, "suspended") != 0)
    {
      g_autofree char *shown = describe_json (_agui_json_doc_get_member (outcome, "type"));

      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send '%s' with outcome type '%s'. The outcome is either { type: \"success\" } or { type: \"suspended\" }.",
                   agui_event_get_type_name (event), shown);
      return FALSE;
    }

  ids = _agui_json_doc_get_member (outcome, "interruptIds");
  if (ids == NULL)
    return TRUE;

  if (ids->kind == AGUI_JSON_DOC_NULL)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send '%s' with 'outcome.interruptIds: null'. The field is optional — omit it entirely.",
                   agui_event_get_type_name (event));
      return FALSE;
    }

  for (guint i = 0; i < _agui_json_doc_get_length (ids); i++)
    {
      if (!_agui_json_value_is_string (_agui_json_doc_get_element (ids, i)))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send '%s' with a non-string entry in 'outcome.interruptIds'. Interrupt ids are strings.",
                       agui_event_get_type_name (event));
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
check_interrupt_nulls (AguiEvent   *event,
                       GError     **error)
{
  const AguiJsonValue *outcome = member_of_kind (event, "outcome", AGUI_JSON_DOC_OBJECT);
  const AguiJsonValue *interrupts;

  if (g_strcmp0 (_agui_json_doc_get_string (outcome, "type"), "interrupt") != 0)
    return TRUE;

  interrupts = _agui_json_doc_get_array (outcome, "interrupts");
  for (guint i = 0; i < _agui_json_doc_get_length (interrupts); i++)
    {
      const AguiJsonValue *interrupt = _agui_json_doc_get_element (interrupts, i);

      if (interrupt->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      if (member_is_null (interrupt, "subagentRunId"))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send 'RUN_FINISHED' with an interrupt (id '%s') carrying 'subagentRunId: null'. The field is optional — omit it entirely.",
                       string_or (interrupt, "id", ""));
          return FALSE;
        }
    }

  return TRUE;
}

/* Section 11.2: nulls that schema enforcement would have refused. */
static gboolean
check_nulls (AguiEvent   *event,
             GError     **error)
{
  if (!check_null_member (event, "subagentRunId", error))
    return FALSE;

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_SUBAGENT_STARTED:
      return check_null_member (event, "description", error) &&
             check_null_member (event, "parentSubagentRunId", error) &&
             check_null_member (event, "parentToolCallId", error) &&
             check_null_member (event, "parentMessageId", error);

    case AGUI_EVENT_SUBAGENT_FINISHED:
      return check_null_member (event, "outcome", error) &&
             check_subagent_outcome (event, error);

    case AGUI_EVENT_SUBAGENT_ERROR:
      return check_null_member (event, "code", error);

    case AGUI_EVENT_RUN_FINISHED:
      return check_interrupt_nulls (event, error);

    case AGUI_EVENT_MESSAGES_SNAPSHOT:
      return check_message_nulls (member_of_kind (event, "messages", AGUI_JSON_DOC_ARRAY), error);

    case AGUI_EVENT_RUN_STARTED:
      return check_message_nulls (get_input_messages (event), error);

    default:
      return TRUE;
    }
}

/* Section 11.1. */
static gboolean
check_lifecycle (AguiVerifier  *self,
                 AguiEvent     *event,
                 GError       **error)
{
  AguiEventType type = agui_event_get_event_type (event);

  if (self->run_errored && type != AGUI_EVENT_RUN_STARTED)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send event type '%s': The run has already errored with 'RUN_ERROR'. No further events can be sent.",
                   agui_event_get_type_name (event));
      return FALSE;
    }

  if (self->run_finished && type != AGUI_EVENT_RUN_STARTED && type != AGUI_EVENT_RUN_ERROR)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send event type '%s': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.",
                   agui_event_get_type_name (event));
      return FALSE;
    }

  if (!self->seen_first_event)
    {
      if (type != AGUI_EVENT_RUN_STARTED && type != AGUI_EVENT_RUN_ERROR)
        {
          g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                               "First event must be 'RUN_STARTED'");
          return FALSE;
        }
    }
  else if (type == AGUI_EVENT_RUN_STARTED && self->run_active)
    {
      g_set_error_literal (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                           "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.");
      return FALSE;
    }

  return TRUE;
}

static void
record_message_owners (AguiVerifier        *self,
                       const AguiJsonValue *messages,
                       gboolean             overwrite)
{
  guint n = _agui_json_doc_get_length (messages);

  for (guint i = 0; i < n; i++)
    {
      const AguiJsonValue *message = _agui_json_doc_get_element (messages, i);
      const AguiJsonValue *tool_calls;
      const char *id;
      const char *owner;

      if (message->kind != AGUI_JSON_DOC_OBJECT)
        continue;

      id = _agui_json_doc_get_string (message, "id");
      owner = _agui_json_doc_get_string (message, "subagentRunId");
      if (id == NULL)
        continue;

      record_owner (&self->message_owners, id, owner, overwrite);

      /* RUN_STARTED.input records only the messages themselves. */
      if (!overwrite)
        continue;

      tool_calls = _agui_json_doc_get_array (message, "toolCalls");
      for (guint j = 0; j < _agui_json_doc_get_length (tool_calls); j++)
        {
          const char *call_id = _agui_json_doc_get_string (_agui_json_doc_get_element (tool_calls, j), "id");

          if (call_id != NULL)
            record_owner (&self->tool_call_owners, call_id, owner, TRUE);
        }
    }
}

static gboolean
check_run_started (AguiVerifier  *self,
                   AguiEvent     *event,
                   GError       **error)
{
  if (self->run_finished || self->run_errored)
    clear_run_state (self);

  self->run_active = TRUE;
  self->run_finished = FALSE;
  self->run_errored = FALSE;

  record_message_owners (self, get_input_messages (event), FALSE);

  return TRUE;
}

static char *
join_steps (AguiVerifier *self)
{
  GString *joined = g_string_new (NULL);

  for (GList *l = self->step_order.head; l != NULL; l = l->next)
    {
      StepEntry *entry = l->data;

      if (l != self->step_order.head)
        g_string_append (joined, ", ");
      g_string_append (joined, entry->name);
      if (entry->owner != NULL)
        g_string_append_printf (joined, " (subagent '%s')", entry->owner);
    }

  return g_string_free (joined, FALSE);
}

static gboolean
fail_unfinished (OrderedSet  *set,
                 const char  *what,
                 GError     **error)
{
  g_autofree char *list = NULL;

  if (ordered_set_is_empty (set))
    return TRUE;

  list = ordered_set_join (set);
  g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
               "Cannot send 'RUN_FINISHED' while %s are still active: %s",
               what, list);
  return FALSE;
}

/* Section 11.10. */
static gboolean
check_run_finished (AguiVerifier  *self,
                    AguiEvent     *event,
                    GError       **error)
{
  if (!g_queue_is_empty (&self->step_order))
    {
      g_autofree char *list = join_steps (self);

      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'RUN_FINISHED' while steps are still active: %s", list);
      return FALSE;
    }

  if (!fail_unfinished (&self->text_messages, "text messages", error) ||
      !fail_unfinished (&self->reasoning_messages, "reasoning messages", error) ||
      !fail_unfinished (&self->reasoning_spans, "reasoning spans", error) ||
      !fail_unfinished (&self->tool_calls, "tool calls", error) ||
      !fail_unfinished (&self->active_subagents, "subagents", error))
    return FALSE;

  self->run_active = FALSE;
  self->run_finished = TRUE;

  return TRUE;
}

/* Section 11.4. */
static gboolean
check_text_message (AguiVerifier  *self,
                    AguiEvent     *event,
                    GError       **error)
{
  AguiEventType type = agui_event_get_event_type (event);
  const char *id;

  if (!require_string (event, "messageId", &id, error))
    return FALSE;

  if (type == AGUI_EVENT_TEXT_MESSAGE_START)
    {
      if (ordered_set_contains (&self->text_messages, id))
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '%s' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.",
                       id);
          return FALSE;
        }

      if (!check_tag (event, &self->message_owners, "message", id, error))
        return FALSE;

      record_owner (&self->message_owners, id, agui_event_get_subagent_run_id (event), FALSE);
      ordered_set_add (&self->text_messages, id);
      return TRUE;
    }

  if (!ordered_set_contains (&self->text_messages, id))
    {
      if (type == AGUI_EVENT_TEXT_MESSAGE_CONTENT)
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '%s'. Start a text message with 'TEXT_MESSAGE_START' first.",
                     id);
      else
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '%s'. A 'TEXT_MESSAGE_START' event must be sent first.",
                     id);
      return FALSE;
    }

  if (!check_tag (event, &self->message_owners, "message", id, error))
    return FALSE;

  if (type == AGUI_EVENT_TEXT_MESSAGE_END)
    ordered_set_remove (&self->text_messages, id);

  return TRUE;
}

/* Section 11.5, rules 16 to 19. */
static gboolean
check_tool_call_start (AguiVerifier  *self,
                       AguiEvent     *event,
                       GError       **error)
{
  const char *tag = agui_event_get_subagent_run_id (event);
  const char *parent_id = agui_event_get_string (event, "parentMessageId");
  const char *parent_owner = NULL;
  gboolean parent_known = FALSE;
  const char *call_owner;
  const char *id;

  if (!require_string (event, "toolCallId", &id, error))
    return FALSE;

  if (ordered_set_contains (&self->tool_calls, id))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'TOOL_CALL_START' event: A tool call with ID '%s' is already in progress. Complete it with 'TOOL_CALL_END' first.",
                   id);
      return FALSE;
    }

  if (parent_id != NULL)
    parent_known = lookup_owner (&self->message_owners, parent_id, &parent_owner);

  if (tag != NULL && parent_known && g_strcmp0 (parent_owner, tag) != 0)
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'TOOL_CALL_START': subagentRunId '%s' does not match its parent message '%s' owner '%s'. A tool call belongs to the message that carries it.",
                   tag, parent_id, owner_to_string (parent_owner));
      return FALSE;
    }

  if (lookup_owner (&self->tool_call_owners, id, &call_owner))
    {
      if (!check_tag (event, &self->tool_call_owners, "tool call", id, error))
        return FALSE;

      if (tag == NULL && parent_known && g_strcmp0 (parent_owner, call_owner) != 0)
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send 'TOOL_CALL_START': tool call '%s' is owned by '%s' but its parent message '%s' is owned by '%s'. A tool call belongs to the message that carries it.",
                       id, owner_to_string (call_owner), parent_id, owner_to_string (parent_owner));
          return FALSE;
        }
    }
  else
    {
      record_owner (&self->tool_call_owners, id, tag != NULL ? tag : parent_owner, FALSE);
    }

  ordered_set_add (&self->tool_calls, id);

  return TRUE;
}

/* Section 11.5, rules 20 to 22. */
static gboolean
check_tool_call_continuation (AguiVerifier  *self,
                              AguiEvent     *event,
                              GError       **error)
{
  const char *id;

  if (!require_string (event, "toolCallId", &id, error))
    return FALSE;

  if (!ordered_set_contains (&self->tool_calls, id))
    {
      if (agui_event_get_event_type (event) == AGUI_EVENT_TOOL_CALL_ARGS)
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '%s'. Start a tool call with 'TOOL_CALL_START' first.",
                     id);
      else
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '%s'. A 'TOOL_CALL_START' event must be sent first.",
                     id);
      return FALSE;
    }

  if (!check_tag (event, &self->tool_call_owners, "tool call", id, error))
    return FALSE;

  if (agui_event_get_event_type (event) == AGUI_EVENT_TOOL_CALL_END)
    ordered_set_remove (&self->tool_calls, id);

  return TRUE;
}

/* Section 11.6. */
static gboolean
check_step (AguiVerifier  *self,
            AguiEvent     *event,
            GError       **error)
{
  const char *tag = agui_event_get_subagent_run_id (event);
  g_autofree char *key = NULL;
  StepEntry *entry;
  GQueue *same_name;
  const char *name;

  if (!require_string (event, "stepName", &name, error))
    return FALSE;

  key = step_key (tag, name);
  entry = g_hash_table_lookup (self->steps, key);
  same_name = g_hash_table_lookup (self->steps_by_name, name);

  if (agui_event_get_event_type (event) == AGUI_EVENT_STEP_STARTED)
    {
      if (entry != NULL)
        {
          if (tag != NULL)
            g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                         "Step \"%s\" is already active for 'STEP_STARTED' in subagent '%s'",
                         name, tag);
          else
            g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                         "Step \"%s\" is already active for 'STEP_STARTED'", name);
          return FALSE;
        }

      entry = g_new0 (StepEntry, 1);
      entry->key = g_steal_pointer (&key);
      entry->owner = g_strdup (tag);
      entry->name = g_strdup (name);
      entry->order_link.data = entry;
      entry->name_link.data = entry;

      if (same_name == NULL)
        {
          /* Not g_queue_new(): its free would release the links, which
           * live inside the entries. */
          same_name = g_new0 (GQueue, 1);
          g_hash_table_insert (self->steps_by_name, g_strdup (name), same_name);
        }

      g_hash_table_insert (self->steps, entry->key, entry);
      g_queue_push_tail_link (&self->step_order, &entry->order_link);
      g_queue_push_tail_link (same_name, &entry->name_link);
      return TRUE;
    }

  if (entry == NULL)
    {
      if (same_name != NULL)
        {
          StepEntry *other = g_queue_peek_head (same_name);
          g_autofree char *attributed = NULL;
          g_autofree char *open_under = NULL;

          attributed = tag != NULL ? g_strdup_printf ("subagent '%s'", tag) : g_strdup ("the parent agent");
          open_under = other->owner != NULL ? g_strdup_printf ("subagent '%s'", other->owner) : g_strdup ("the parent agent");
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send 'STEP_FINISHED' for step \"%s\" attributed to %s: that step is open under %s. A step must be finished by whoever started it.",
                       name, attributed, open_under);
        }
      else
        {
          g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                       "Cannot send 'STEP_FINISHED' for step \"%s\" that was not started", name);
        }
      return FALSE;
    }

  g_assert (same_name != NULL);

  g_queue_unlink (&self->step_order, &entry->order_link);
  g_queue_unlink (same_name, &entry->name_link);
  if (g_queue_is_empty (same_name))
    g_hash_table_remove (self->steps_by_name, name);
  g_hash_table_remove (self->steps, entry->key);

  return TRUE;
}

/* Section 11.7, rules 26 to 28. */
static gboolean
check_reasoning_start (AguiVerifier  *self,
                       AguiEvent     *event,
                       GError       **error)
{
  gboolean is_span = agui_event_get_event_type (event) == AGUI_EVENT_REASONING_START;
  OrderedSet *open = is_span ? &self->reasoning_spans : &self->reasoning_messages;
  const char *id;

  if (!require_string (event, "messageId", &id, error))
    return FALSE;

  if (ordered_set_contains (open, id))
    {
      if (is_span)
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'REASONING_START' event: A reasoning span with ID '%s' is already in progress. Complete it with 'REASONING_END' first.",
                     id);
      else
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '%s' is already in progress. Complete it with 'REASONING_MESSAGE_END' first.",
                     id);
      return FALSE;
    }

  if (!check_tag (event, &self->reasoning_owners, "reasoning message", id, error))
    return FALSE;

  record_owner (&self->reasoning_owners, id, agui_event_get_subagent_run_id (event), FALSE);
  ordered_set_add (open, id);

  return TRUE;
}

/* Section 11.7, rules 29 to 31. */
static gboolean
check_reasoning_continuation (AguiVerifier  *self,
                              AguiEvent     *event,
                              GError       **error)
{
  AguiEventType type = agui_event_get_event_type (event);
  gboolean is_span = type == AGUI_EVENT_REASONING_END;
  OrderedSet *open = is_span ? &self->reasoning_spans : &self->reasoning_messages;
  const char *id;

  if (!require_string (event, "messageId", &id, error))
    return FALSE;

  if (!ordered_set_contains (open, id))
    {
      if (is_span)
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send 'REASONING_END' event: No active reasoning span found with ID '%s'. A 'REASONING_START' event must be sent first.",
                     id);
      else
        g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                     "Cannot send '%s' event: No active reasoning message found with ID '%s'. Start a reasoning message with 'REASONING_MESSAGE_START' first.",
                     agui_event_get_type_name (event), id);
      return FALSE;
    }

  if (!check_tag (event, &self->reasoning_owners, "reasoning message", id, error))
    return FALSE;

  if (type != AGUI_EVENT_REASONING_MESSAGE_CONTENT)
    ordered_set_remove (open, id);

  return TRUE;
}

/* Section 11.7, rule 32. */
static gboolean
check_encrypted_value (AguiVerifier  *self,
                       AguiEvent     *event,
                       GError       **error)
{
  const char *subtype = agui_event_get_string (event, "subtype");
  const char *entity_id = agui_event_get_string (event, "entityId");

  if (subtype == NULL || entity_id == NULL)
    return TRUE;

  if (g_str_equal (subtype, "tool-call"))
    return check_tag (event, &self->tool_call_owners, "tool call", entity_id, error);

  if (g_str_equal (subtype, "message"))
    {
      if (owners_contains (&self->message_owners, entity_id))
        return check_tag (event, &self->message_owners, "message", entity_id, error);

      return check_tag (event, &self->reasoning_owners, "message", entity_id, error);
    }

  return TRUE;
}

/* Section 11.9, rules 34 to 37. */
static gboolean
check_subagent_started (AguiVerifier  *self,
                        AguiEvent     *event,
                        GError       **error)
{
  const char *parent_id = agui_event_get_string (event, "parentSubagentRunId");
  const char *name;
  const char *id;

  if (!require_string (event, "subagentRunId", &id, error) ||
      !require_string (event, "name", &name, error))
    return FALSE;

  if (ordered_set_contains (&self->active_subagents, id))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'SUBAGENT_STARTED': subagent '%s' is already active. Finish it with 'SUBAGENT_FINISHED' first.",
                   id);
      return FALSE;
    }

  if (g_hash_table_contains (self->finished_subagents, id))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'SUBAGENT_STARTED': subagent '%s' has already finished in this run. Subagent IDs are per-invocation and cannot be reused.",
                   id);
      return FALSE;
    }

  if (parent_id != NULL &&
      !ordered_set_contains (&self->active_subagents, parent_id) &&
      !g_hash_table_contains (self->finished_subagents, parent_id))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '%s' has not been started in this run.",
                   parent_id);
      return FALSE;
    }

  ordered_set_add (&self->active_subagents, id);

  return TRUE;
}

/* Section 11.9, rules 38 and 39. */
static gboolean
check_subagent_ended (AguiVerifier  *self,
                      AguiEvent     *event,
                      GError       **error)
{
  const char *message;
  const char *id;

  if (!require_string (event, "subagentRunId", &id, error))
    return FALSE;

  if (agui_event_get_event_type (event) == AGUI_EVENT_SUBAGENT_ERROR &&
      !require_string (event, "message", &message, error))
    return FALSE;

  if (!ordered_set_contains (&self->active_subagents, id))
    {
      g_set_error (error, AGUI_ERROR, AGUI_ERROR_PROTOCOL,
                   "Cannot send '%s': no active subagent found with ID '%s'. A 'SUBAGENT_STARTED' event must be sent first.",
                   agui_event_get_type_name (event), id);
      return FALSE;
    }

  ordered_set_remove (&self->active_subagents, id);
  g_hash_table_add (self->finished_subagents, g_strdup (id));

  return TRUE;
}

static gboolean
check_event (AguiVerifier  *self,
             AguiEvent     *event,
             GError       **error)
{
  const char *id;

  switch (agui_event_get_event_type (event))
    {
    case AGUI_EVENT_RUN_STARTED:
      return check_run_started (self, event, error);

    case AGUI_EVENT_RUN_FINISHED:
      return check_run_finished (self, event, error);

    case AGUI_EVENT_RUN_ERROR:
      self->run_active = FALSE;
      self->run_errored = TRUE;
      return TRUE;

    case AGUI_EVENT_STEP_STARTED:
    case AGUI_EVENT_STEP_FINISHED:
      return check_step (self, event, error);

    case AGUI_EVENT_TEXT_MESSAGE_START:
    case AGUI_EVENT_TEXT_MESSAGE_CONTENT:
    case AGUI_EVENT_TEXT_MESSAGE_END:
      return check_text_message (self, event, error);

    case AGUI_EVENT_TOOL_CALL_START:
      return check_tool_call_start (self, event, error);

    case AGUI_EVENT_TOOL_CALL_ARGS:
    case AGUI_EVENT_TOOL_CALL_END:
      return check_tool_call_continuation (self, event, error);

    case AGUI_EVENT_TOOL_CALL_RESULT:
      if ((id = agui_event_get_message_id (event)) != NULL)
        record_owner (&self->message_owners, id, agui_event_get_subagent_run_id (event), TRUE);
      return TRUE;

    case AGUI_EVENT_REASONING_START:
    case AGUI_EVENT_REASONING_MESSAGE_START:
      return check_reasoning_start (self, event, error);

    case AGUI_EVENT_REASONING_MESSAGE_CONTENT:
    case AGUI_EVENT_REASONING_MESSAGE_END:
    case AGUI_EVENT_REASONING_END:
      return check_reasoning_continuation (self, event, error);

    case AGUI_EVENT_REASONING_ENCRYPTED_VALUE:
      return check_encrypted_value (self, event, error);

    case AGUI_EVENT_MESSAGES_SNAPSHOT:
      record_message_owners (self, member_of_kind (event, "messages", AGUI_JSON_DOC_ARRAY), TRUE);
      return TRUE;

    case AGUI_EVENT_ACTIVITY_SNAPSHOT:
      if ((id = agui_event_get_message_id (event)) != NULL)
        record_owner (&self->activity_owners, id, agui_event_get_subagent_run_id (event),
                      agui_event_get_boolean (event, "replace", TRUE));
      return TRUE;

    case AGUI_EVENT_ACTIVITY_DELTA:
      if ((id = agui_event_get_message_id (event)) != NULL)
        return check_tag (event, &self->activity_owners, "activity", id, error);
      return TRUE;

    case AGUI_EVENT_SUBAGENT_STARTED:
      return check_subagent_started (self, event, error);

    case AGUI_EVENT_SUBAGENT_FINISHED:
    case AGUI_EVENT_SUBAGENT_ERROR:
      return check_subagent_ended (self, event, error);

    case AGUI_EVENT_TEXT_MESSAGE_CHUNK:
    case AGUI_EVENT_TOOL_CALL_CHUNK:
    case AGUI_EVENT_REASONING_MESSAGE_CHUNK:
      g_critical ("%s reached the verifier: chunks must be expanded first",
                  agui_event_get_type_name (event));
      return TRUE;

    case AGUI_EVENT_STATE_SNAPSHOT:
    case AGUI_EVENT_STATE_DELTA:
    case AGUI_EVENT_RAW:
    case AGUI_EVENT_CUSTOM:
    default:
      return TRUE;
    }
}

static void
_agui_verifier_finalize (GObject *object)
{
  AguiVerifier *self = (AguiVerifier *) object;

  clear_run_state (self);

  ordered_set_destroy (&self->text_messages);
  ordered_set_destroy (&self->tool_calls);
  ordered_set_destroy (&self->reasoning_spans);
  ordered_set_destroy (&self->reasoning_messages);
  ordered_set_destroy (&self->active_subagents);
  g_clear_pointer (&self->finished_subagents, g_hash_table_unref);
  g_clear_pointer (&self->steps_by_name, g_hash_table_unref);
  g_clear_pointer (&self->steps, g_hash_table_unref);
  owners_destroy (&self->message_owners);
  owners_destroy (&self->tool_call_owners);
  owners_destroy (&self->activity_owners);
  owners_destroy (&self->reasoning_owners);

  G_OBJECT_CLASS (_agui_verifier_parent_class)->finalize (object);
}

static void
_agui_verifier_class_init (AguiVerifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = _agui_verifier_finalize;
}

static void
_agui_verifier_init (AguiVerifier *self)
{
  ordered_set_init (&self->text_messages);
  ordered_set_init (&self->tool_calls);
  ordered_set_init (&self->reasoning_spans);
  ordered_set_init (&self->reasoning_messages);
  ordered_set_init (&self->active_subagents);
  self->finished_subagents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->steps = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) step_entry_free);
  self->steps_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_queue_init (&self->step_order);

  owners_init (&self->message_owners);
  owners_init (&self->tool_call_owners);
  owners_init (&self->activity_owners);
  owners_init (&self->reasoning_owners);
}

/**
 * _agui_verifier_new:
 *
 * Returns: (transfer full): a verifier expecting the first event of a
 *   stream
 */
AguiVerifier *
_agui_verifier_new (void)
{
  return g_object_new (AGUI_TYPE_VERIFIER, NULL);
}

/**
 * _agui_verifier_check:
 * @self: a verifier
 * @event: the next event of the stream, after chunk expansion
 * @error: return location for a #GError
 *
 * Checks @event against the protocol's rules in the order section 11
 * gives them: the run lifecycle first, then nulls that schema enforcement
 * would have refused, then the rules of the event's own type. An accepted
 * event advances the state; a rejected one is an %AGUI_ERROR_PROTOCOL
 * error and changes nothing.
 *
 * Returns: %TRUE if @event is allowed here, %FALSE with @error set otherwise
 */
gboolean
_agui_verifier_check (AguiVerifier  *self,
                     AguiEvent     *event,
                     GError       **error)
{
  g_return_val_if_fail (AGUI_IS_VERIFIER (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_lifecycle (self, event, error) ||
      !check_nulls (event, error) ||
      !check_event (self, event, error))
    return FALSE;

  self->seen_first_event = TRUE;

  return TRUE;
}

/**
 * _agui_verifier_reset:
 * @self: a verifier
 *
 * Forgets everything, runs included, so that the next event is checked
 * as the first of a new stream.
 */
void
_agui_verifier_reset (AguiVerifier *self)
{
  g_return_if_fail (AGUI_IS_VERIFIER (self));

  clear_run_state (self);
  self->seen_first_event = FALSE;
  self->run_active = FALSE;
  self->run_finished = FALSE;
  self->run_errored = FALSE;
}
