/* test-event.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-event-compat-private.h"
#include "agui-event-parser-private.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-pipeline-private.h"
#include "agui-test-util.h"

/* Helpers */

static void
on_parser_warning_cb (AguiEventParser *parser,
                      const char      *message,
                      GPtrArray       *warnings)
{
  g_ptr_array_add (warnings, g_strdup (message));
}

static AguiEventParser *
new_parser (GPtrArray *warnings)
{
  AguiEventParser *parser = _agui_event_parser_new ();

  if (warnings != NULL)
    g_signal_connect (parser, "warning", G_CALLBACK (on_parser_warning_cb), warnings);

  return parser;
}

static GPtrArray *
new_warnings (void)
{
  return g_ptr_array_new_with_free_func (g_free);
}

static JsonNode *
parse_json (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);

  return node;
}

static void
assert_warnings (GPtrArray          *warnings,
                 const char * const *expected)
{
  guint n_expected = expected != NULL ? g_strv_length ((char **) expected) : 0;

  for (guint i = 0; i < MIN (warnings->len, n_expected); i++)
    g_assert_cmpstr (g_ptr_array_index (warnings, i), ==, expected[i]);

  if (warnings->len != n_expected)
    {
      for (guint i = 0; i < warnings->len; i++)
        g_test_message ("warning: %s", (const char *) g_ptr_array_index (warnings, i));
    }

  g_assert_cmpuint (warnings->len, ==, n_expected);
}

static void
assert_json_equal (JsonNode   *actual,
                   const char *expected_json)
{
  g_autoptr(JsonNode) expected = parse_json (expected_json);

  g_assert_nonnull (expected);

  if (!json_node_equal (actual, expected))
    {
      g_autofree char *actual_text = json_to_string (actual, FALSE);

      g_test_message ("expected: %s", expected_json);
      g_test_message ("actual:   %s", actual_text);
      g_test_fail ();
    }
}

static void
assert_event_json (AguiEvent  *event,
                   const char *expected_json)
{
  g_autoptr(JsonNode) node = NULL;

  g_assert_nonnull (event);
  node = agui_event_to_json (event);
  assert_json_equal (node, expected_json);
}

/* Parses @json with a fresh parser; asserts success and the warnings. */
static AguiEvent *
parse_ok (const char         *json,
          const char * const *expected_warnings)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(GError) error = NULL;
  AguiEvent *event;

  event = _agui_event_parser_parse (parser, json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (event);
  assert_warnings (warnings, expected_warnings);

  return event;
}

static void
parse_fails (const char *json,
             GQuark      domain,
             int         code,
             const char *message)
{
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  event = _agui_event_parser_parse (parser, json, -1, &error);
  g_assert_null (event);
  g_assert_error (error, domain, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

/* Representative events: every member the schema allows, so that a round
 * trip proves nothing known is lost. */

#define BASE "\"timestamp\":1700000000000,\"rawEvent\":{\"provider\":\"p\",\"raw\":null},\"metadata\":{\"k\":\"v\",\"n\":null}"
#define BASE_SUB BASE ",\"subagentRunId\":\"sub-1\""

#define ALL_MESSAGES \
  "[{\"id\":\"d1\",\"role\":\"developer\",\"content\":\"Be brief.\",\"name\":\"dev\",\"encryptedValue\":\"e\",\"subagentRunId\":\"sub-1\",\"metadata\":{\"a\":null}}," \
  "{\"id\":\"s1\",\"role\":\"system\",\"content\":\"You help.\",\"name\":\"sys\"}," \
  "{\"id\":\"u1\",\"role\":\"user\",\"name\":\"me\",\"content\":[" \
    "{\"type\":\"text\",\"text\":\"Look\",\"id\":\"p1\",\"metadata\":{\"k\":1}}," \
    "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/a.png\",\"mimeType\":\"image/png\"},\"id\":\"p2\",\"metadata\":{\"alt\":\"a\"}}," \
    "{\"type\":\"audio\",\"source\":{\"type\":\"data\",\"value\":\"AAAA\",\"mimeType\":\"audio/wav\"}}," \
    "{\"type\":\"video\",\"source\":{\"type\":\"file\",\"value\":\"file-1\",\"provider\":\"acme\",\"mimeType\":\"video/mp4\"}}," \
    "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/d.pdf\"}}]}," \
  "{\"id\":\"u2\",\"role\":\"user\",\"content\":\"plain\"}," \
  "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Let me check.\",\"name\":\"bot\",\"encryptedValue\":\"e2\"," \
    "\"toolCalls\":[{\"id\":\"tc1\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":1}\"},\"encryptedValue\":\"e3\",\"metadata\":{\"m\":1}}]}," \
  "{\"id\":\"a2\",\"role\":\"assistant\"}," \
  "{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"tc1\",\"content\":\"42\",\"error\":\"partial\",\"encryptedValue\":\"e4\"}," \
  "{\"id\":\"t2\",\"role\":\"tool\",\"toolCallId\":\"tc1\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}," \
  "{\"id\":\"act1\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":{\"steps\":[\"a\",null]},\"subagentRunId\":\"sub-1\",\"metadata\":{}}," \
  "{\"id\":\"r1\",\"role\":\"reasoning\",\"content\":\"Hmm.\",\"encryptedValue\":\"opaque\"}]"

#define INTERRUPT \
  "{\"id\":\"i1\",\"reason\":\"confirmation\",\"message\":\"Sure?\",\"toolCallId\":\"tc1\",\"responseSchema\":{\"type\":\"object\"}," \
  "\"expiresAt\":\"2030-01-01T00:00:00Z\",\"metadata\":{\"x\":1},\"subagentRunId\":\"sub-1\"}"

#define USAGE \
  "[{\"provider\":\"acme\",\"model\":\"m-1\",\"inputTokens\":10,\"outputTokens\":5,\"totalTokens\":15,\"reasoningTokens\":2," \
  "\"cachedInputTokens\":3,\"cacheWriteInputTokens\":0},{}]"

typedef struct
{
  const char *name;
  const char *json;
  const char *required;   /* space-separated top-level required members */
} EventCase;

static const EventCase event_cases[] = {
  { "RUN_STARTED",
    "{\"type\":\"RUN_STARTED\"," BASE ",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"protocolVersion\":\"1.0\",\"parentRunId\":\"run-0\","
    "\"input\":{\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"protocolVersion\":\"1.0\",\"parentRunId\":\"run-0\",\"state\":{\"folder\":null},"
    "\"messages\":" ALL_MESSAGES ",\"tools\":[{\"name\":\"pick\",\"description\":\"Pick a file\",\"parameters\":{\"type\":\"object\"},\"metadata\":{\"v\":2}}],"
    "\"context\":[{\"description\":\"locale\",\"value\":\"en-GB\"}],\"forwardedProps\":{\"temperature\":0.2},"
    "\"resume\":[{\"interruptId\":\"i0\",\"status\":\"resolved\",\"payload\":{\"approved\":false},\"metadata\":{\"sig\":\"s\"}},{\"interruptId\":\"i9\",\"status\":\"cancelled\"}]}}",
    "threadId runId" },
  { "RUN_FINISHED",
    "{\"type\":\"RUN_FINISHED\"," BASE ",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"result\":{\"answer\":null},"
    "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[" INTERRUPT ",{\"id\":\"i2\",\"reason\":\"tool_call\"}]},\"usage\":" USAGE "}",
    "threadId runId" },
  { "RUN_ERROR",
    "{\"type\":\"RUN_ERROR\"," BASE ",\"message\":\"It broke\",\"code\":\"E42\",\"usage\":" USAGE "}",
    "message" },
  { "STEP_STARTED",
    "{\"type\":\"STEP_STARTED\"," BASE_SUB ",\"stepName\":\"plan\"}",
    "stepName" },
  { "STEP_FINISHED",
    "{\"type\":\"STEP_FINISHED\"," BASE_SUB ",\"stepName\":\"plan\"}",
    "stepName" },
  { "TEXT_MESSAGE_START",
    "{\"type\":\"TEXT_MESSAGE_START\"," BASE_SUB ",\"messageId\":\"m1\",\"role\":\"developer\",\"name\":\"Ada\"}",
    "messageId" },
  { "TEXT_MESSAGE_CONTENT",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\"," BASE_SUB ",\"messageId\":\"m1\",\"delta\":\"Caf\\u00e9 \\ud83d\\ude80\"}",
    "messageId delta" },
  { "TEXT_MESSAGE_END",
    "{\"type\":\"TEXT_MESSAGE_END\"," BASE_SUB ",\"messageId\":\"m1\"}",
    "messageId" },
  { "TEXT_MESSAGE_CHUNK",
    "{\"type\":\"TEXT_MESSAGE_CHUNK\"," BASE_SUB ",\"messageId\":\"m1\",\"role\":\"user\",\"name\":\"Ada\",\"delta\":\"hi\"}",
    "" },
  { "TOOL_CALL_START",
    "{\"type\":\"TOOL_CALL_START\"," BASE_SUB ",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\"}",
    "toolCallId toolCallName" },
  { "TOOL_CALL_ARGS",
    "{\"type\":\"TOOL_CALL_ARGS\"," BASE_SUB ",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"q\\\":\"}",
    "toolCallId delta" },
  { "TOOL_CALL_END",
    "{\"type\":\"TOOL_CALL_END\"," BASE_SUB ",\"toolCallId\":\"tc1\"}",
    "toolCallId" },
  { "TOOL_CALL_CHUNK",
    "{\"type\":\"TOOL_CALL_CHUNK\"," BASE_SUB ",\"toolCallId\":\"tc1\",\"toolCallName\":\"lookup\",\"parentMessageId\":\"m1\",\"delta\":\"{}\"}",
    "" },
  { "TOOL_CALL_RESULT",
    "{\"type\":\"TOOL_CALL_RESULT\"," BASE_SUB ",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"role\":\"tool\","
    "\"content\":[{\"type\":\"text\",\"text\":\"chart:\",\"metadata\":null},{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"},\"id\":\"img\"}]}",
    "messageId toolCallId content" },
  { "REASONING_START",
    "{\"type\":\"REASONING_START\"," BASE_SUB ",\"messageId\":\"r1\"}",
    "messageId" },
  { "REASONING_MESSAGE_START",
    "{\"type\":\"REASONING_MESSAGE_START\"," BASE_SUB ",\"messageId\":\"r1\",\"role\":\"reasoning\"}",
    "messageId role" },
  { "REASONING_MESSAGE_CONTENT",
    "{\"type\":\"REASONING_MESSAGE_CONTENT\"," BASE_SUB ",\"messageId\":\"r1\",\"delta\":\"\"}",
    "messageId delta" },
  { "REASONING_MESSAGE_END",
    "{\"type\":\"REASONING_MESSAGE_END\"," BASE_SUB ",\"messageId\":\"r1\"}",
    "messageId" },
  { "REASONING_MESSAGE_CHUNK",
    "{\"type\":\"REASONING_MESSAGE_CHUNK\"," BASE_SUB ",\"messageId\":\"r1\",\"delta\":\"so\"}",
    "" },
  { "REASONING_END",
    "{\"type\":\"REASONING_END\"," BASE_SUB ",\"messageId\":\"r1\"}",
    "messageId" },
  { "REASONING_ENCRYPTED_VALUE",
    "{\"type\":\"REASONING_ENCRYPTED_VALUE\"," BASE_SUB ",\"subtype\":\"tool-call\",\"entityId\":\"tc1\",\"encryptedValue\":\"opaque\"}",
    "subtype entityId encryptedValue" },
  { "STATE_SNAPSHOT",
    "{\"type\":\"STATE_SNAPSHOT\"," BASE_SUB ",\"snapshot\":[1,null,{\"a\":true}]}",
    "snapshot" },
  { "STATE_DELTA",
    "{\"type\":\"STATE_DELTA\"," BASE_SUB ",\"delta\":[{\"op\":\"add\",\"path\":\"/a~1b/~0c\",\"value\":null},{\"op\":\"remove\",\"path\":\"/x\"},"
    "{\"op\":\"replace\",\"path\":\"\",\"value\":{}},{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"},{\"op\":\"copy\",\"from\":\"/b\",\"path\":\"/c/-\"},"
    "{\"op\":\"test\",\"path\":\"/c/0\",\"value\":3,\"comment\":\"extra members stay\"}]}",
    "delta" },
  { "MESSAGES_SNAPSHOT",
    "{\"type\":\"MESSAGES_SNAPSHOT\"," BASE ",\"messages\":" ALL_MESSAGES "}",
    "messages" },
  { "ACTIVITY_SNAPSHOT",
    "{\"type\":\"ACTIVITY_SNAPSHOT\"," BASE_SUB ",\"messageId\":\"act1\",\"activityType\":\"search\",\"content\":{\"q\":null},\"replace\":false}",
    "messageId activityType content" },
  { "ACTIVITY_DELTA",
    "{\"type\":\"ACTIVITY_DELTA\"," BASE_SUB ",\"messageId\":\"act1\",\"activityType\":\"search\",\"patch\":[{\"op\":\"replace\",\"path\":\"/q\",\"value\":\"x\"}]}",
    "messageId activityType patch" },
  { "RAW",
    "{\"type\":\"RAW\"," BASE_SUB ",\"event\":null,\"source\":\"provider\"}",
    "event" },
  { "CUSTOM",
    "{\"type\":\"CUSTOM\"," BASE_SUB ",\"name\":\"ping\",\"value\":[null]}",
    "name value" },
  { "SUBAGENT_STARTED",
    "{\"type\":\"SUBAGENT_STARTED\"," BASE_SUB ",\"name\":\"researcher\",\"description\":\"Finds things\",\"parentSubagentRunId\":\"sub-0\","
    "\"parentToolCallId\":\"tc1\",\"parentMessageId\":\"m1\"}",
    "subagentRunId name" },
  { "SUBAGENT_FINISHED",
    "{\"type\":\"SUBAGENT_FINISHED\"," BASE_SUB ",\"result\":0,\"outcome\":{\"type\":\"suspended\",\"interruptIds\":[\"i1\",\"i2\"]}}",
    "subagentRunId" },
  { "SUBAGENT_ERROR",
    "{\"type\":\"SUBAGENT_ERROR\"," BASE_SUB ",\"message\":\"gave up\",\"code\":\"timeout\"}",
    "subagentRunId message" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (event_cases) == AGUI_EVENT_SUBAGENT_ERROR + 1);

static void
test_event_cases_cover_all_types (void)
{
  g_test_summary ("The table holds every AG-UI 1.0 event type once, in enum order");

  for (guint i = 0; i < G_N_ELEMENTS (event_cases); i++)
    {
      AguiEventType type;

      g_assert_true (agui_event_type_from_string (event_cases[i].name, &type));
      g_assert_cmpint (type, ==, i);
    }
}

static void
test_round_trip (gconstpointer data)
{
  const EventCase *event_case = data;
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(AguiEvent) again = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  AguiEventType type;

  g_test_summary ("An event with every member its type allows parses without warnings and serialises back unchanged");

  event = parse_ok (event_case->json, NULL);
  g_assert_true (agui_event_type_from_string (event_case->name, &type));
  g_assert_cmpint (agui_event_get_event_type (event), ==, type);
  g_assert_cmpstr (agui_event_get_type_name (event), ==, event_case->name);
  assert_event_json (event, event_case->json);

  /* The serialised form parses to the same event again. */
  text = agui_event_to_string (event);
  again = parse_ok (text, NULL);
  node = agui_event_to_json (again);
  assert_json_equal (node, event_case->json);
}

static void
test_required_members (gconstpointer data)
{
  const EventCase *event_case = data;
  g_auto(GStrv) required = g_strsplit (event_case->required, " ", -1);
  g_autoptr(JsonNode) node = parse_json (event_case->json);
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (node));
  guint n_required = 0;

  g_test_summary ("Each required member is reported by name when missing; every other member may be left out");

  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autoptr(JsonNode) copy = NULL;
      g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      if (g_str_equal (name, "type"))
        continue;

      /* Remove @name from a fresh copy made by a round trip through text,
       * since json_node_copy() would share the object. */
      text = json_to_string (node, FALSE);
      copy = parse_json (text);
      json_object_remove_member (json_node_get_object (copy), name);

      event = _agui_event_parser_parse_node (parser, copy, &error);

      if (g_strv_contains ((const char * const *) required, name))
        {
          g_autofree char *expected = g_strdup_printf ("%s: required member '%s' is missing",
                                                       event_case->name, name);

          n_required++;
          g_assert_null (event);
          g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT);
          g_assert_cmpstr (error->message, ==, expected);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_nonnull (event);
          g_assert_false (agui_event_has_member (event, name));
        }
    }

  g_assert_cmpuint (n_required, ==, g_strv_length (required));
}

/* Wrong types and values */

typedef struct
{
  const char *json;
  const char *message;
} FailureCase;

static const FailureCase failure_cases[] = {
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"timestamp\":1.5}",
    "TEXT_MESSAGE_START: member 'timestamp' must be an integer" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"timestamp\":\"1\"}",
    "TEXT_MESSAGE_START: member 'timestamp' must be an integer" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"timestamp\":9007199254740992}",
    "TEXT_MESSAGE_START: member 'timestamp' must be an integer" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"timestamp\":-9.1e15}",
    "TEXT_MESSAGE_START: member 'timestamp' must be an integer" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":7}",
    "TEXT_MESSAGE_START: member 'messageId' must be a string" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"tool\"}",
    "TEXT_MESSAGE_START: member 'role' must be one of 'developer', 'system', 'assistant', 'user'" },
  { "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"role\":\"reasoning\"}",
    "TEXT_MESSAGE_CHUNK: member 'role' must be one of 'developer', 'system', 'assistant', 'user'" },
  { "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":5}",
    "TEXT_MESSAGE_CONTENT: member 'delta' must be a string" },
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"metadata\":[]}",
    "TEXT_MESSAGE_END: member 'metadata' must be an object" },
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"metadata\":\"x\"}",
    "TEXT_MESSAGE_END: member 'metadata' must be an object" },
  { "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"subagentRunId\":1}",
    "STEP_STARTED: member 'subagentRunId' must be a string" },
  { "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"r1\",\"role\":\"assistant\"}",
    "REASONING_MESSAGE_START: member 'role' must be one of 'reasoning'" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":\"x\",\"role\":\"user\"}",
    "TOOL_CALL_RESULT: member 'role' must be one of 'tool'" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":5}",
    "TOOL_CALL_RESULT: member 'content' must be a string or an array" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":[{\"type\":\"text\"}]}",
    "TOOL_CALL_RESULT: required member 'content[0].text' is missing" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"x\"}}]}",
    "TOOL_CALL_RESULT: required member 'content[0].source.mimeType' is missing" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":[\"text\"]}",
    "TOOL_CALL_RESULT: member 'content[0]' must be an object" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc1\",\"content\":[{\"text\":\"x\"}]}",
    "TOOL_CALL_RESULT: required member 'content[0].type' is missing" },
  { "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"n\",\"parentMessageId\":3}",
    "TOOL_CALL_START: member 'parentMessageId' must be a string" },
  { "{\"type\":\"REASONING_ENCRYPTED_VALUE\",\"subtype\":\"span\",\"entityId\":\"r1\",\"encryptedValue\":\"x\"}",
    "REASONING_ENCRYPTED_VALUE: member 'subtype' must be one of 'message', 'tool-call'" },
  { "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":[]}",
    "ACTIVITY_SNAPSHOT: member 'content' must be an object" },
  { "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":{},\"replace\":\"yes\"}",
    "ACTIVITY_SNAPSHOT: member 'replace' must be a boolean" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":{}}",
    "STATE_DELTA: member 'delta' must be an array" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"count\",\"value\":1}]}",
    "STATE_DELTA: member 'delta[0].path' must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/a~2\"}]}",
    "STATE_DELTA: member 'delta[0].path' must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/a~\"}]}",
    "STATE_DELTA: member 'delta[0].path' must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/a\"}]}",
    "STATE_DELTA: required member 'delta[0].value' is missing" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/a\",\"value\":1},{\"op\":\"replace\",\"path\":\"/a\"}]}",
    "STATE_DELTA: required member 'delta[1].value' is missing" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":[{\"path\":\"/a\"}]}",
    "STATE_DELTA: required member 'delta[0].op' is missing" },
  { "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"t\",\"patch\":[{\"op\":\"move\",\"from\":\"a\",\"path\":\"/b\"}]}",
    "ACTIVITY_DELTA: member 'patch[0].from' must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)" },
  { "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"t\",\"patch\":[{\"op\":\"copy\",\"path\":\"/b\"}]}",
    "ACTIVITY_DELTA: required member 'patch[0].from' is missing" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[]}}",
    "RUN_FINISHED: member 'outcome.interrupts' must hold at least 1 element" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\"}}",
    "RUN_FINISHED: required member 'outcome.interrupts' is missing" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\"}]}}",
    "RUN_FINISHED: required member 'outcome.interrupts[0].reason' is missing" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"success\",\"pendingToolCallIds\":\"tc1\"}}",
    "RUN_FINISHED: member 'outcome.pendingToolCallIds' must be an array" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":true}}",
    "RUN_FINISHED: member 'outcome.type' must be a string" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":\"success\"}",
    "RUN_FINISHED: member 'outcome' must be an object" },
  { "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"usage\":[{\"inputTokens\":-1}]}",
    "RUN_FINISHED: member 'usage[0].inputTokens' must be a non-negative integer" },
  { "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"usage\":[{},{\"outputTokens\":1.5}]}",
    "RUN_ERROR: member 'usage[1].outputTokens' must be a non-negative integer" },
  { "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"usage\":[{\"model\":5}]}",
    "RUN_ERROR: member 'usage[0].model' must be a string" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\"}}",
    "RUN_STARTED: required member 'input.messages' is missing" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"a\",\"role\":\"user\",\"content\":\"x\"},{\"id\":\"b\",\"role\":\"user\",\"content\":\"y\"},{\"id\":\"c\",\"role\":5}]}}",
    "RUN_STARTED: member 'input.messages[2].role' must be a string" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"resume\":[{\"interruptId\":\"i\",\"status\":\"maybe\"}]}}",
    "RUN_STARTED: member 'input.resume[0].status' must be one of 'resolved', 'cancelled'" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"tools\":[{\"name\":\"n\"}]}}",
    "RUN_STARTED: required member 'input.tools[0].description' is missing" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"context\":[{\"description\":\"d\",\"value\":1}]}}",
    "RUN_STARTED: member 'input.context[0].value' must be a string" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":[]}",
    "RUN_STARTED: member 'input' must be an object" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"act\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":\"text\"}]}",
    "MESSAGES_SNAPSHOT: member 'messages[0].content' must be an object" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"s\",\"role\":\"system\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}]}",
    "MESSAGES_SNAPSHOT: member 'messages[0].content' must be a string" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc\",\"type\":\"function\",\"function\":{\"name\":\"n\"}}]}]}",
    "MESSAGES_SNAPSHOT: required member 'messages[0].toolCalls[0].function.arguments' is missing" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc\",\"type\":\"method\",\"function\":{\"name\":\"n\",\"arguments\":\"\"}}]}]}",
    "MESSAGES_SNAPSHOT: member 'messages[0].toolCalls[0].type' must be one of 'function'" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
    "MESSAGES_SNAPSHOT: required member 'messages[0].id' is missing" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"x\",\"content\":\"x\"}]}",
    "MESSAGES_SNAPSHOT: required member 'messages[0].role' is missing" },
  { "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"outcome\":{\"type\":\"suspended\",\"interruptIds\":[1]}}",
    "SUBAGENT_FINISHED: member 'outcome.interruptIds[0]' must be a string" },
  { "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"s\",\"name\":[]}",
    "SUBAGENT_STARTED: member 'name' must be a string" },
};

static void
test_failures (void)
{
  g_test_summary ("Malformed known members fail with a message naming the event type and the member path");

  for (guint i = 0; i < G_N_ELEMENTS (failure_cases); i++)
    {
      g_test_message ("%s", failure_cases[i].json);
      parse_fails (failure_cases[i].json, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
                   failure_cases[i].message);
    }
}

static void
test_agui_event_new (void)
{
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *members;

  g_test_summary ("agui_event_new() enforces the schema on code-built members");

  members = json_object_new ();
  json_object_set_string_member (members, "messageId", "m1");
  json_object_set_string_member (members, "futureField", "x");
  event = agui_event_new (AGUI_EVENT_TEXT_MESSAGE_START, members, &error);
  g_assert_no_error (error);
  assert_event_json (event, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}");
  g_clear_pointer (&event, agui_event_unref);

  members = json_object_new ();
  json_object_set_string_member (members, "messageId", "m1");
  event = agui_event_new (AGUI_EVENT_TEXT_MESSAGE_CONTENT, members, &error);
  g_assert_null (event);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT);
  g_assert_cmpstr (error->message, ==, "TEXT_MESSAGE_CONTENT: required member 'delta' is missing");
}

static void
test_event_new_from_string (void)
{
  static const struct { const char *json; const char *problem; } refused[] = {
    { "", "line 1, column 1: expected a value, found the end of the text" },
    { " \n", "line 2, column 1: expected a value, found the end of the text" },
    { "{\"type\":\"STEP_STARTED\",\"stepName\":\"\\ud83d\"}", "surrogate" },
    { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"timestamp\":99999999999999999999}",
      "does not fit in 64 bits" },
    { "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"",
      "line 1, column 38: expected ',' or '}' after an object member, found the end of the text" },
  };
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("agui_event_new_from_string() reads with the limits of every other reader: an "
                  "empty text, a lone surrogate and an integer beyond 64 bits are errors");

  event = agui_event_new_from_string ("{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"x\":1}", -1, &error);
  g_assert_no_error (error);
  assert_event_json (event, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}");

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(AguiEvent) bad = NULL;

      g_clear_error (&error);
      bad = agui_event_new_from_string (refused[i].json, -1, &error);
      g_assert_null (bad);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
      g_assert_true (g_str_has_prefix (error->message, "Invalid event: "));
      if (refused[i].problem != NULL)
        g_assert_nonnull (strstr (error->message, refused[i].problem));
    }
}

/* Integers */

static void
test_integers (void)
{
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(AguiEvent) usage_event = NULL;
  JsonNode *node;
  JsonArray *usage;
  gint64 timestamp = 0;

  g_test_summary ("An integral number is an int, whatever its spelling; the value is normalised to an integer");

  event = parse_ok ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":1.7e12}", NULL);
  node = agui_event_get_member (event, "timestamp");
  g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
  g_assert_true (agui_event_get_timestamp (event, &timestamp));
  g_assert_cmpint (timestamp, ==, G_GINT64_CONSTANT (1700000000000));
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":9007199254740991}", NULL);
  g_assert_true (agui_event_get_timestamp (event, &timestamp));
  g_assert_cmpint (timestamp, ==, G_GINT64_CONSTANT (9007199254740991));
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":-5}", NULL);
  g_assert_true (agui_event_get_timestamp (event, &timestamp));
  g_assert_cmpint (timestamp, ==, -5);

  usage_event = parse_ok ("{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"usage\":[{\"inputTokens\":3.0,\"outputTokens\":0}]}", NULL);
  usage = agui_event_get_array_member (usage_event, "usage");
  node = json_object_get_member (json_array_get_object_element (usage, 0), "inputTokens");
  g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
  g_assert_cmpint (json_node_get_int (node), ==, 3);

  parse_fails ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":1.5}",
               AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "TEXT_MESSAGE_END: member 'timestamp' must be an integer");
  parse_fails ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":true}",
               AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "TEXT_MESSAGE_END: member 'timestamp' must be an integer");
  parse_fails ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"timestamp\":1e300}",
               AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "TEXT_MESSAGE_END: member 'timestamp' must be an integer");
}

/* Nulls */

static void
test_nulls_tolerated (void)
{
  g_autoptr(AguiEvent) event = NULL;

  g_test_summary ("The legacy nulls of section 3.1 are removed with a warning");

  event = parse_ok ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"rawEvent\":null}",
                    (const char *[]) { "Converting deprecated TEXT_MESSAGE_END.rawEvent: null to an absent field", NULL });
  assert_event_json (event, "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"result\":null,\"outcome\":null}",
                    (const char *[]) {
                      "Converting deprecated RUN_FINISHED.result: null to an absent field",
                      "Converting deprecated RUN_FINISHED.outcome: null to an absent field",
                      NULL });
  assert_event_json (event, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"result\":null}",
                    (const char *[]) { "Converting deprecated SUBAGENT_FINISHED.result: null to an absent field", NULL });
  assert_event_json (event, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc\",\"toolCallName\":\"n\",\"parentMessageId\":null}",
                    (const char *[]) { "Converting deprecated TOOL_CALL_START.parentMessageId: null to an absent field", NULL });
  assert_event_json (event, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc\",\"toolCallName\":\"n\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TOOL_CALL_CHUNK\",\"parentMessageId\":null}",
                    (const char *[]) { "Converting deprecated TOOL_CALL_CHUNK.parentMessageId: null to an absent field", NULL });
  assert_event_json (event, "{\"type\":\"TOOL_CALL_CHUNK\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"state\":null,"
                    "\"forwardedProps\":null,\"tools\":[{\"name\":\"n\",\"description\":\"d\",\"parameters\":null}],"
                    "\"resume\":[{\"interruptId\":\"i\",\"status\":\"cancelled\",\"payload\":null}],"
                    "\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"metadata\":null},"
                    "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":null}]}]}}",
                    (const char *[]) {
                      "Converting deprecated RUN_STARTED.input.state: null to an absent field",
                      "Converting deprecated RUN_STARTED.input.forwardedProps: null to an absent field",
                      "Converting deprecated RUN_STARTED.input.tools[0].parameters: null to an absent field",
                      "Converting deprecated RUN_STARTED.input.resume[0].payload: null to an absent field",
                      "Converting deprecated RUN_STARTED.input.messages[0].content.metadata: null to an absent field",
                      NULL });
  assert_event_json (event, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\","
                     "\"tools\":[{\"name\":\"n\",\"description\":\"d\"}],\"resume\":[{\"interruptId\":\"i\",\"status\":\"cancelled\"}],"
                     "\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"metadata\":null},"
                     "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"}}]}]}}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
                    "{\"type\":\"audio\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":null}]}]}",
                    (const char *[]) { "Converting deprecated MESSAGES_SNAPSHOT.messages[0].content.metadata: null to an absent field", NULL });
  assert_event_json (event, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
                     "{\"type\":\"audio\",\"source\":{\"type\":\"url\",\"value\":\"u\"}}]}]}");
}

static const FailureCase null_failure_cases[] = {
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"metadata\":null}",
    "TEXT_MESSAGE_END: member 'metadata' must be an object, not null" },
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"subagentRunId\":null}",
    "TEXT_MESSAGE_END: member 'subagentRunId' must be a string, not null" },
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":null}",
    "TEXT_MESSAGE_END: member 'messageId' must be a string, not null" },
  { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"timestamp\":null}",
    "TEXT_MESSAGE_END: member 'timestamp' must be an integer, not null" },
  { "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"name\":null}",
    "TEXT_MESSAGE_START: member 'name' must be a string, not null" },
  { "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"code\":null}",
    "RUN_ERROR: member 'code' must be a string, not null" },
  { "{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":null,\"message\":\"m\"}",
    "SUBAGENT_ERROR: member 'subagentRunId' must be a string, not null" },
  { "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"outcome\":null}",
    "SUBAGENT_FINISHED: member 'outcome' must be an object, not null" },
  { "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t\",\"toolCallId\":\"tc\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":null}]}",
    "TOOL_CALL_RESULT: member 'content[0].metadata' must not be null" },
  { "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":null}",
    "ACTIVITY_SNAPSHOT: member 'content' must be an object, not null" },
  { "{\"type\":\"STATE_DELTA\",\"delta\":null}",
    "STATE_DELTA: member 'delta' must be an array, not null" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"tools\":[{\"name\":\"n\",\"description\":\"d\",\"metadata\":null}]}}",
    "RUN_STARTED: member 'input.tools[0].metadata' must be an object, not null" },
  { "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"a\",\"role\":\"assistant\",\"content\":null}]}}",
    "RUN_STARTED: member 'input.messages[0].content' must be a string, not null" },
  { "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[null]}",
    "MESSAGES_SNAPSHOT: member 'messages[0]' must be an object, not null" },
};

static void
test_nulls_rejected (void)
{
  g_autoptr(AguiEvent) event = NULL;

  g_test_summary ("Any other null in place of a member fails; nulls inside opaque payloads are data");

  for (guint i = 0; i < G_N_ELEMENTS (null_failure_cases); i++)
    {
      g_test_message ("%s", null_failure_cases[i].json);
      parse_fails (null_failure_cases[i].json, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
                   null_failure_cases[i].message);
    }

  event = parse_ok ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"result\":[null],\"metadata\":{\"x\":null},\"rawEvent\":{\"y\":null}}", NULL);
  assert_event_json (event, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"result\":[null],\"metadata\":{\"x\":null},\"rawEvent\":{\"y\":null}}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":null}", NULL);
  g_assert_true (JSON_NODE_HOLDS_NULL (agui_event_get_member (event, "snapshot")));
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":null}", NULL);
  g_assert_true (JSON_NODE_HOLDS_NULL (agui_event_get_member (event, "value")));
}

/* Unknown material */

static void
test_unknown_members (void)
{
  g_autoptr(AguiEvent) event = NULL;

  g_test_summary ("Undeclared members are removed with a warning naming their JSON Pointer, at any depth");

  event = parse_ok ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\",\"futureField\":\"x\"}",
                    (const char *[]) { "Removed unrecognised material at '/futureField' on TEXT_MESSAGE_START", NULL });
  assert_event_json (event, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc\",\"content\":\"x\",\"error\":\"partial\",\"a/b~c\":1}",
                    (const char *[]) {
                      "Removed unrecognised material at '/error' on TOOL_CALL_RESULT",
                      "Removed unrecognised material at '/a~1b~0c' on TOOL_CALL_RESULT",
                      NULL });
  assert_event_json (event, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t1\",\"toolCallId\":\"tc\",\"content\":\"x\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"subagentRunId\":\"s\","
                    "\"outcome\":{\"type\":\"interrupt\",\"why\":1,\"interrupts\":[{\"id\":\"i\",\"reason\":\"r\",\"extra\":true}]},"
                    "\"usage\":[{\"inputTokens\":1,\"costUsd\":0.1}]}",
                    (const char *[]) {
                      "Removed unrecognised material at '/subagentRunId' on RUN_FINISHED",
                      "Removed unrecognised material at '/outcome/why' on RUN_FINISHED",
                      "Removed unrecognised material at '/outcome/interrupts/0/extra' on RUN_FINISHED",
                      "Removed unrecognised material at '/usage/0/costUsd' on RUN_FINISHED",
                      NULL });
  assert_event_json (event, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\","
                     "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i\",\"reason\":\"r\"}]},\"usage\":[{\"inputTokens\":1}]}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"subagentRunId\":\"s\"}",
                    (const char *[]) { "Removed unrecognised material at '/subagentRunId' on RUN_STARTED", NULL });
  assert_event_json (event, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"subagentRunId\":\"s\"}",
                    (const char *[]) { "Removed unrecognised material at '/subagentRunId' on RUN_ERROR", NULL });
  assert_event_json (event, "{\"type\":\"RUN_ERROR\",\"message\":\"m\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],"
                    "\"tools\":[{\"name\":\"n\",\"description\":\"d\",\"strict\":true}],\"context\":[{\"description\":\"d\",\"value\":\"v\",\"x\":1}],"
                    "\"resume\":[{\"interruptId\":\"i\",\"status\":\"resolved\",\"y\":2}],\"extra\":{}}}",
                    (const char *[]) {
                      "Removed unrecognised material at '/input/extra' on RUN_STARTED",
                      "Removed unrecognised material at '/input/tools/0/strict' on RUN_STARTED",
                      "Removed unrecognised material at '/input/context/0/x' on RUN_STARTED",
                      "Removed unrecognised material at '/input/resume/0/y' on RUN_STARTED",
                      NULL });
  assert_event_json (event, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],"
                     "\"tools\":[{\"name\":\"n\",\"description\":\"d\"}],\"context\":[{\"description\":\"d\",\"value\":\"v\"}],"
                     "\"resume\":[{\"interruptId\":\"i\",\"status\":\"resolved\"}]}}");
}

static void
test_unknown_variants (void)
{
  g_autoptr(AguiEvent) event = NULL;

  g_test_summary ("Unknown union variants are removed: from arrays as one element, from optional members as the member, "
                  "and with the object that requires them");

  event = parse_ok ("{\"type\":\"MESSAGES_SNAPSHOT\",\"subagentRunId\":\"s\",\"messages\":["
                    "{\"id\":\"u\",\"role\":\"user\",\"extra\":1,\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"hologram\",\"x\":1},"
                    "{\"type\":\"image\",\"source\":{\"type\":\"s3\",\"value\":\"v\"}},{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"v\",\"w\":1}}]},"
                    "{\"id\":\"o\",\"role\":\"oracle\",\"content\":\"x\"},"
                    "{\"id\":\"act\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":{},\"name\":\"n\",\"encryptedValue\":\"e\"},"
                    "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"x\",\"name\":\"n\"},"
                    "{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc\",\"type\":\"function\",\"x\":1,\"function\":{\"name\":\"n\",\"arguments\":\"\",\"y\":2}}]}]}",
                    (const char *[]) {
                      "Removed unrecognised material at '/subagentRunId' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/0/extra' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/0/content/1' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/0/content/2' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/0/content/3/source/w' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/1' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/2/name' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/2/encryptedValue' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/3/name' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/4/toolCalls/0/x' on MESSAGES_SNAPSHOT",
                      "Removed unrecognised material at '/messages/4/toolCalls/0/function/y' on MESSAGES_SNAPSHOT",
                      NULL });
  assert_event_json (event, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                     "{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"v\"}}]},"
                     "{\"id\":\"act\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":{}},"
                     "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"x\"},"
                     "{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc\",\"type\":\"function\",\"function\":{\"name\":\"n\",\"arguments\":\"\"}}]}]}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"increment\",\"path\":\"/n\",\"value\":1},{\"op\":\"add\",\"path\":\"/m\",\"value\":2,\"why\":\"kept\"}]}",
                    (const char *[]) { "Removed unrecognised material at '/delta/0' on STATE_DELTA", NULL });
  assert_event_json (event, "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/m\",\"value\":2,\"why\":\"kept\"}]}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"paused\",\"until\":\"later\"},\"result\":1}",
                    (const char *[]) { "Removed unrecognised material at '/outcome' on RUN_FINISHED", NULL });
  assert_event_json (event, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"result\":1}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[]}}",
                    (const char *[]) { "Removed unrecognised material at '/outcome' on SUBAGENT_FINISHED", NULL });
  assert_event_json (event, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\"}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"outcome\":{\"type\":\"success\",\"interruptIds\":[]}}",
                    (const char *[]) { "Removed unrecognised material at '/outcome/interruptIds' on SUBAGENT_FINISHED", NULL });
  assert_event_json (event, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"outcome\":{\"type\":\"success\"}}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t\",\"toolCallId\":\"tc\",\"content\":[{\"type\":\"hologram\"}]}",
                    (const char *[]) { "Removed unrecognised material at '/content/0' on TOOL_CALL_RESULT", NULL });
  assert_event_json (event, "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t\",\"toolCallId\":\"tc\",\"content\":[]}");
  g_clear_pointer (&event, agui_event_unref);

  /* Dropping happens before the minimum is checked: an interrupt outcome
   * is still an outcome, and needs a known interrupt. */
  parse_fails ("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[]},\"extra\":1}",
               AGUI_ERROR, AGUI_ERROR_INVALID_EVENT,
               "RUN_FINISHED: member 'outcome.interrupts' must hold at least 1 element");
}

static void
test_unknown_event_type (void)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("An event type outside 1.0 is dropped with a warning, without an error");

  event = _agui_event_parser_parse (parser, "{\"type\":\"FUTURE_EVENT\",\"payload\":1}", -1, &error);
  g_assert_no_error (error);
  g_assert_null (event);
  assert_warnings (warnings, (const char *[]) { "Dropping unrecognised event 'FUTURE_EVENT'", NULL });

  /* Even one that would break every schema. */
  event = _agui_event_parser_parse (parser, "{\"type\":\"text_message_start\",\"messageId\":null}", -1, &error);
  g_assert_no_error (error);
  g_assert_null (event);
  g_assert_cmpuint (warnings->len, ==, 2);
}

static void
test_transport_errors (void)
{
  g_test_summary ("Frames that are not JSON objects with an event type fail as AGUI_ERROR_INVALID_JSON");

  parse_fails ("{\"type\":", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 9: expected a value, found the end of the text");
  parse_fails ("not json", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 1: expected a value, found 'not'");
  parse_fails ("", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 1: expected a value, found the end of the text");
  parse_fails ("{\"type\":\"RAW\",\"event\":\"\xff\"}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 24: the text is not valid UTF-8 (byte 0xFF)");
  parse_fails ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 45: expected a member name in double quotes, found '}'");
  parse_fails ("{'type':'TEXT_MESSAGE_END'}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 2: expected a member name in double quotes or '}', found a single quote");
  parse_fails ("{\"type\":\"RUN_STARTED\"} trailing", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 24: expected the end of the text after the value, found 'trailing'");
  /* a frame that is not an object is first of all not JSON, if it is not */
  parse_fails ("[1,2", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 5: expected ',' or ']' after an array element, found the end of the text");
  /* a limit is named before the syntax, wherever each is */
  parse_fails ("{\"type\":\"RUN_STARTED\",, \"n\":1e999}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 29: the number 1e999 is too large for a double");
  parse_fails ("{\"type\":\"RUN_STARTED\",\"s\":\"a\\u0000b\"}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON,
               "Invalid event: line 1, column 29: a string contains \\u0000, which Tandem cannot keep");

  parse_fails ("null", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame is not a JSON object.");
  parse_fails ("42", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame is not a JSON object.");
  parse_fails ("\"RUN_STARTED\"", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame is not a JSON object.");
  parse_fails ("[{\"type\":\"RUN_STARTED\"}]", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame is not a JSON object.");

  parse_fails ("{}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
  parse_fails ("{\"messageId\":\"m1\"}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
  parse_fails ("{\"type\":\"\"}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
  parse_fails ("{\"type\":7}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
  parse_fails ("{\"type\":null}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
  parse_fails ("{\"type\":[\"RUN_STARTED\"]}", AGUI_ERROR, AGUI_ERROR_INVALID_JSON, "Invalid event: the frame carries no event type.");
}

static void
test_parse_with_length (void)
{
  const char *data = "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}trailing garbage";
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Only @length bytes of the data are parsed");

  event = _agui_event_parser_parse (parser, data, strlen ("{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}"), &error);
  g_assert_no_error (error);
  assert_event_json (event, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}");
}

static void
test_parse_node_leaves_input (void)
{
  g_autoptr(JsonParser) json_parser = json_parser_new_immutable ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(GError) error = NULL;
  const char * const frames[] = {
    "{\"type\":\"THINKING_START\",\"title\":\"Planning\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"extra\":1,\"rawEvent\":null,\"timestamp\":5.0}",
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"state\":null,"
    "\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"AA\"}]}]}}",
  };

  g_test_summary ("parse_node() neither modifies nor seals nor shares its input");

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autoptr(AguiEvent) event = NULL;
      g_autoptr(JsonNode) expected = parse_json (frames[i]);
      JsonNode *root;

      g_assert_true (json_parser_load_from_data (json_parser, frames[i], -1, &error));
      g_assert_no_error (error);
      root = json_parser_get_root (json_parser);

      event = _agui_event_parser_parse_node (parser, root, &error);
      g_assert_no_error (error);
      g_assert_nonnull (event);
      g_assert_true (json_node_equal (root, expected));
      g_assert_true (agui_event_get_object (event) != json_node_get_object (root));
    }
}

static void
test_parse_value_as_text (void)
{
  g_autoptr(GPtrArray) text_warnings = new_warnings ();
  g_autoptr(GPtrArray) value_warnings = new_warnings ();
  g_autoptr(AguiEventParser) text_parser = new_parser (text_warnings);
  g_autoptr(AguiEventParser) value_parser = new_parser (value_warnings);
  /* (No THINKING_*: the ids minted for them differ from parser to
   * parser.) */
  const char * const frames[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"extra\":1,\"rawEvent\":null,\"timestamp\":5}",
    "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"a\"}",
    "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"b\"}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/a\",\"value\":[1,2.5,{}]}]}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\"}",
    "{\"type\":\"NOT_AN_EVENT\",\"x\":1}",
    "{\"type\":\"\"}",
    "{\"type\":1}",
    "{\"stepName\":\"s\"}",
    "[{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}]",
    "\"STEP_STARTED\"",
  };

  g_test_summary ("parse_value() takes a tree to the event, warnings and error parse() makes of its text");

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autoptr(AguiEvent) from_text = NULL;
      g_autoptr(AguiEvent) from_value = NULL;
      g_autoptr(GError) text_error = NULL;
      g_autoptr(GError) value_error = NULL;
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

      g_assert_true (_agui_json_doc_parse (frames[i], -1, &value, NULL));
      from_text = _agui_event_parser_parse (text_parser, frames[i], -1, &text_error);
      from_value = _agui_event_parser_parse_value (value_parser, &value, &value_error);

      /* taken, whatever became of it */
      g_assert_cmpint (value.kind, ==, AGUI_JSON_DOC_NULL);
      g_assert_true ((from_text == NULL) == (from_value == NULL));
      if (from_text != NULL)
        {
          g_autofree char *expected = agui_event_to_string (from_text);
          g_autofree char *actual = agui_event_to_string (from_value);

          g_assert_cmpstr (actual, ==, expected);
        }
      if (text_error != NULL)
        g_assert_error (value_error, text_error->domain, text_error->code);
      else
        g_assert_no_error (value_error);
      if (text_error != NULL)
        g_assert_cmpstr (value_error->message, ==, text_error->message);
    }

  g_assert_cmpuint (value_warnings->len, ==, text_warnings->len);
  g_assert_cmpuint (text_warnings->len, >, 0);
  for (guint i = 0; i < text_warnings->len; i++)
    g_assert_cmpstr (g_ptr_array_index (value_warnings, i), ==, g_ptr_array_index (text_warnings, i));
}

/* Deprecated shapes */

static void
test_thinking_translation (void)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(AguiEvent) start = NULL;
  g_autoptr(AguiEvent) message_start = NULL;
  g_autoptr(AguiEvent) content = NULL;
  g_autoptr(AguiEvent) message_end = NULL;
  g_autoptr(AguiEvent) end = NULL;
  g_autoptr(AguiEvent) stray = NULL;
  g_autoptr(AguiEvent) stray_end = NULL;
  g_autoptr(AguiEvent) second = NULL;
  g_autoptr(GError) error = NULL;
  const char *span_id;
  const char *message_id;

  g_test_summary ("THINKING_* events become REASONING_* events with minted ids; the title is dropped");

  start = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_START\",\"title\":\"Planning\",\"timestamp\":3}", -1, &error);
  g_assert_no_error (error);
  message_start = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_START\"}", -1, &error);
  g_assert_no_error (error);
  content = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"step one\"}", -1, &error);
  g_assert_no_error (error);
  message_end = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_END\"}", -1, &error);
  g_assert_no_error (error);
  end = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_END\"}", -1, &error);
  g_assert_no_error (error);

  assert_warnings (warnings, (const char *[]) {
                     "Dropping THINKING_START.title \"Planning\": REASONING_START has no title field",
                     "Converting deprecated THINKING_START to REASONING_START",
                     "Converting deprecated THINKING_TEXT_MESSAGE_START to REASONING_MESSAGE_START",
                     "Converting deprecated THINKING_TEXT_MESSAGE_CONTENT to REASONING_MESSAGE_CONTENT",
                     "Converting deprecated THINKING_TEXT_MESSAGE_END to REASONING_MESSAGE_END",
                     "Converting deprecated THINKING_END to REASONING_END",
                     NULL });

  span_id = agui_event_get_message_id (start);
  message_id = agui_event_get_message_id (message_start);
  g_assert_true (g_uuid_string_is_valid (span_id));
  g_assert_true (g_uuid_string_is_valid (message_id));
  g_assert_cmpstr (span_id, !=, message_id);

  g_assert_cmpint (agui_event_get_event_type (start), ==, AGUI_EVENT_REASONING_START);
  g_assert_false (agui_event_has_member (start, "title"));
  g_assert_true (agui_event_get_timestamp (start, NULL));
  g_assert_cmpint (agui_event_get_event_type (message_start), ==, AGUI_EVENT_REASONING_MESSAGE_START);
  g_assert_cmpstr (agui_event_get_role (message_start), ==, "reasoning");
  g_assert_cmpint (agui_event_get_event_type (content), ==, AGUI_EVENT_REASONING_MESSAGE_CONTENT);
  g_assert_cmpstr (agui_event_get_message_id (content), ==, message_id);
  g_assert_cmpstr (agui_event_get_delta (content), ==, "step one");
  g_assert_cmpint (agui_event_get_event_type (message_end), ==, AGUI_EVENT_REASONING_MESSAGE_END);
  g_assert_cmpstr (agui_event_get_message_id (message_end), ==, message_id);
  g_assert_cmpint (agui_event_get_event_type (end), ==, AGUI_EVENT_REASONING_END);
  g_assert_cmpstr (agui_event_get_message_id (end), ==, span_id);

  /* Nothing is open any more: a stray content or end gets a fresh id. */
  stray = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"x\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_true (g_uuid_string_is_valid (agui_event_get_message_id (stray)));
  g_assert_cmpstr (agui_event_get_message_id (stray), !=, message_id);
  stray_end = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_END\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agui_event_get_message_id (stray_end), !=, span_id);
  g_assert_cmpstr (agui_event_get_message_id (stray_end), !=, agui_event_get_message_id (stray));

  /* Each opener mints anew. */
  second = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_START\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agui_event_get_message_id (second), !=, message_id);

  /* A translated event is still enforced. */
  g_clear_pointer (&stray, agui_event_unref);
  stray = _agui_event_parser_parse (parser, "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\"}", -1, &error);
  g_assert_null (stray);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT);
  g_assert_cmpstr (error->message, ==, "REASONING_MESSAGE_CONTENT: required member 'delta' is missing");
}

static void
test_binary_parts (void)
{
  g_autoptr(AguiEvent) event = NULL;

  g_test_summary ("Deprecated binary content parts are upgraded in snapshots and in RUN_STARTED.input");

  event = parse_ok ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
                    "{\"type\":\"text\",\"text\":\"see\"},"
                    "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\",\"filename\":\"a.png\"},"
                    "{\"type\":\"binary\",\"mimeType\":\"application/pdf\",\"url\":\"https://example.invalid/d.pdf\"},"
                    "{\"type\":\"binary\",\"mimeType\":\"audio/ogg\",\"url\":\"https://example.invalid/a.ogg\"},"
                    "{\"type\":\"binary\",\"mimeType\":\"video/webm\",\"data\":\"AAAA\"},"
                    "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"id\":\"file-1\"}]}]}",
                    (const char *[]) {
                      "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a image part",
                      "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a document part",
                      "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a audio part",
                      "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a video part",
                      "Cannot convert a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content: it carries neither data nor url",
                      "Removed unrecognised material at '/messages/0/content/5' on MESSAGES_SNAPSHOT",
                      NULL });
  assert_event_json (event, "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
                     "{\"type\":\"text\",\"text\":\"see\"},"
                     "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"},\"metadata\":{\"filename\":\"a.png\"}},"
                     "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/d.pdf\",\"mimeType\":\"application/pdf\"}},"
                     "{\"type\":\"audio\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/a.ogg\",\"mimeType\":\"audio/ogg\"}},"
                     "{\"type\":\"video\",\"source\":{\"type\":\"data\",\"value\":\"AAAA\",\"mimeType\":\"video/webm\"}}]}]}");
  g_clear_pointer (&event, agui_event_unref);

  event = parse_ok ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":["
                    "{\"id\":\"u\",\"role\":\"user\",\"content\":["
                    "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"}},"
                    "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"}]}]}}",
                    (const char *[]) {
                      "Dropping a deprecated binary content part in RUN_STARTED.input.messages[0].content: the message already holds the same part",
                      NULL });
  assert_event_json (event, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":["
                     "{\"id\":\"u\",\"role\":\"user\",\"content\":["
                     "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"}}]}]}}");
  g_clear_pointer (&event, agui_event_unref);

  /* Not upgraded outside messages: TOOL_CALL_RESULT parts are 1.0 only. */
  event = parse_ok ("{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"t\",\"toolCallId\":\"tc\",\"content\":["
                    "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"}]}",
                    (const char *[]) { "Removed unrecognised material at '/content/0' on TOOL_CALL_RESULT", NULL });
}

/* The compat stage on the compact tree, called as the parser calls it:
 * the THINKING_* translation, then the rest under the name it returns.
 * Results are compared as printed, so that member order and number kinds
 * count. */

typedef struct
{
  AguiThinkingIds ids;
  GPtrArray *warnings;
  AguiJsonValue tree;
  const char *translated;
} CompatRun;

static void
compat_run_clear (CompatRun *run)
{
  _agui_thinking_ids_clear (&run->ids);
  g_clear_pointer (&run->warnings, g_ptr_array_unref);
  _agui_json_value_clear (&run->tree);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CompatRun, compat_run_clear)

/* Translates @json and returns it printed. The name handed in is the
 * event's own "type" string, as a parser reading into the tree has it. */
static char *
compat_run (CompatRun          *run,
            const char         *json,
            const char * const *expected_warnings)
{
  g_autoptr(GError) error = NULL;
  const char *name;
  char *printed;

  _agui_json_value_clear (&run->tree);
  if (run->warnings == NULL)
    run->warnings = new_warnings ();
  g_ptr_array_set_size (run->warnings, 0);

  g_assert_true (_agui_json_doc_parse (json, -1, &run->tree, &error));
  g_assert_no_error (error);
  name = _agui_json_doc_get_string (&run->tree, "type");
  g_assert_nonnull (name);

  run->translated = _agui_event_translate_thinking_tree (&run->ids, run->tree.u.object, name, run->warnings);
  _agui_event_translate_compat_tree (run->translated ? run->translated : name, run->tree.u.object, run->warnings);

  assert_warnings (run->warnings, expected_warnings);
  printed = _agui_json_value_to_string (&run->tree, FALSE, &error);
  g_assert_no_error (error);

  return printed;
}

static void
assert_compat (const char         *json,
               const char * const *expected_warnings,
               const char         *expected_json)
{
  g_auto(CompatRun) run = { .tree = AGUI_JSON_VALUE_INIT };
  g_autofree char *printed = compat_run (&run, json, expected_warnings);

  g_assert_null (run.translated);
  g_assert_cmpstr (printed, ==, expected_json);
}

static void
test_compat_tree_thinking (void)
{
  g_auto(CompatRun) run = { .tree = AGUI_JSON_VALUE_INIT };
  g_autofree char *span = NULL;
  g_autofree char *message = NULL;
  char *printed;
  char *expected;

  g_test_summary ("THINKING_* events become REASONING_* events on the tree, in place, ids minted per span and message");

  /* The title goes, whatever its kind; "type" keeps its place. */
  printed = compat_run (&run, "{\"title\":\"Plan\",\"type\":\"THINKING_START\",\"timestamp\":3}",
                        (const char *[]) {
                          "Dropping THINKING_START.title \"Plan\": REASONING_START has no title field",
                          "Converting deprecated THINKING_START to REASONING_START",
                          NULL });
  g_assert_cmpstr (run.translated, ==, "REASONING_START");
  g_assert_true (g_uuid_string_is_valid (run.ids.span_id));
  span = g_strdup (run.ids.span_id);
  expected = g_strdup_printf ("{\"type\":\"REASONING_START\",\"timestamp\":3,\"messageId\":\"%s\"}", span);
  g_assert_cmpstr (printed, ==, expected);
  g_free (printed);
  g_free (expected);

  /* A second span replaces the first; a title of another kind is named
   * without its value. */
  printed = compat_run (&run, "{\"type\":\"THINKING_START\",\"title\":{\"a\":1}}",
                        (const char *[]) {
                          "Dropping THINKING_START.title: REASONING_START has no title field",
                          "Converting deprecated THINKING_START to REASONING_START",
                          NULL });
  g_assert_cmpstr (run.ids.span_id, !=, span);
  g_free (span);
  span = g_strdup (run.ids.span_id);
  expected = g_strdup_printf ("{\"type\":\"REASONING_START\",\"messageId\":\"%s\"}", span);
  g_assert_cmpstr (printed, ==, expected);
  g_free (printed);
  g_free (expected);

  /* A role and a messageId already there are overwritten in place; a
   * double stays a double. */
  printed = compat_run (&run, "{\"type\":\"THINKING_TEXT_MESSAGE_START\",\"messageId\":\"given\",\"role\":\"assistant\",\"n\":1.0}",
                        (const char *[]) { "Converting deprecated THINKING_TEXT_MESSAGE_START to REASONING_MESSAGE_START", NULL });
  g_assert_cmpstr (run.translated, ==, "REASONING_MESSAGE_START");
  message = g_strdup (run.ids.message_id);
  g_assert_true (g_uuid_string_is_valid (message));
  g_assert_cmpstr (message, !=, span);
  expected = g_strdup_printf ("{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"%s\",\"role\":\"reasoning\",\"n\":1.0}", message);
  g_assert_cmpstr (printed, ==, expected);
  g_free (printed);
  g_free (expected);

  printed = compat_run (&run, "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"d\",\"rawEvent\":null}",
                        (const char *[]) {
                          "Converting deprecated THINKING_TEXT_MESSAGE_CONTENT to REASONING_MESSAGE_CONTENT",
                          "Converting deprecated REASONING_MESSAGE_CONTENT.rawEvent: null to an absent field",
                          NULL });
  expected = g_strdup_printf ("{\"type\":\"REASONING_MESSAGE_CONTENT\",\"delta\":\"d\",\"messageId\":\"%s\"}", message);
  g_assert_cmpstr (printed, ==, expected);
  g_free (printed);
  g_free (expected);

  /* Ends close what they end. */
  printed = compat_run (&run, "{\"type\":\"THINKING_TEXT_MESSAGE_END\"}",
                        (const char *[]) { "Converting deprecated THINKING_TEXT_MESSAGE_END to REASONING_MESSAGE_END", NULL });
  expected = g_strdup_printf ("{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"%s\"}", message);
  g_assert_cmpstr (printed, ==, expected);
  g_assert_null (run.ids.message_id);
  g_assert_cmpstr (run.ids.span_id, ==, span);
  g_free (printed);
  g_free (expected);

  printed = compat_run (&run, "{\"type\":\"THINKING_END\"}",
                        (const char *[]) { "Converting deprecated THINKING_END to REASONING_END", NULL });
  expected = g_strdup_printf ("{\"type\":\"REASONING_END\",\"messageId\":\"%s\"}", span);
  g_assert_cmpstr (printed, ==, expected);
  g_assert_null (run.ids.span_id);
  g_free (printed);
  g_free (expected);

  /* With nothing open, a fresh id that opens nothing. */
  printed = compat_run (&run, "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"x\"}",
                        (const char *[]) { "Converting deprecated THINKING_TEXT_MESSAGE_CONTENT to REASONING_MESSAGE_CONTENT", NULL });
  {
    const char *id = _agui_json_doc_get_string (&run.tree, "messageId");

    g_assert_true (g_uuid_string_is_valid (id));
    g_assert_cmpstr (id, !=, message);
    g_assert_null (run.ids.message_id);
  }
  g_free (printed);

  /* Not a deprecated type: untouched. */
  printed = compat_run (&run, "{\"type\":\"THINKING_SOMETHING\",\"title\":\"t\"}", NULL);
  g_assert_null (run.translated);
  g_assert_cmpstr (printed, ==, "{\"type\":\"THINKING_SOMETHING\",\"title\":\"t\"}");
  g_free (printed);
}

static void
test_compat_tree_nulls (void)
{
  g_test_summary ("The tolerated nulls are removed from the tree, the other members keeping their order");

  assert_compat ("{\"type\":\"TEXT_MESSAGE_END\",\"rawEvent\":null,\"messageId\":\"m\"}",
                 (const char *[]) { "Converting deprecated TEXT_MESSAGE_END.rawEvent: null to an absent field", NULL },
                 "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}");
  /* Only null goes. */
  assert_compat ("{\"type\":\"TEXT_MESSAGE_END\",\"rawEvent\":false}", NULL,
                 "{\"type\":\"TEXT_MESSAGE_END\",\"rawEvent\":false}");
  assert_compat ("{\"type\":\"RUN_FINISHED\",\"result\":null,\"threadId\":\"t\",\"outcome\":null,\"rawEvent\":null}",
                 (const char *[]) {
                   "Converting deprecated RUN_FINISHED.rawEvent: null to an absent field",
                   "Converting deprecated RUN_FINISHED.result: null to an absent field",
                   "Converting deprecated RUN_FINISHED.outcome: null to an absent field",
                   NULL },
                 "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\"}");
  /* The name handed in is the "type" string, which the removal of a
   * member before it moves. */
  assert_compat ("{\"rawEvent\":null,\"type\":\"RUN_FINISHED\",\"result\":null}",
                 (const char *[]) {
                   "Converting deprecated RUN_FINISHED.rawEvent: null to an absent field",
                   "Converting deprecated RUN_FINISHED.result: null to an absent field",
                   NULL },
                 "{\"type\":\"RUN_FINISHED\"}");
  /* SUBAGENT_FINISHED tolerates a null result, not a null outcome. */
  assert_compat ("{\"type\":\"SUBAGENT_FINISHED\",\"result\":null,\"outcome\":null}",
                 (const char *[]) { "Converting deprecated SUBAGENT_FINISHED.result: null to an absent field", NULL },
                 "{\"type\":\"SUBAGENT_FINISHED\",\"outcome\":null}");
  assert_compat ("{\"type\":\"TOOL_CALL_START\",\"parentMessageId\":null,\"toolCallId\":\"c\"}",
                 (const char *[]) { "Converting deprecated TOOL_CALL_START.parentMessageId: null to an absent field", NULL },
                 "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\"}");
  assert_compat ("{\"type\":\"TOOL_CALL_CHUNK\",\"parentMessageId\":null}",
                 (const char *[]) { "Converting deprecated TOOL_CALL_CHUNK.parentMessageId: null to an absent field", NULL },
                 "{\"type\":\"TOOL_CALL_CHUNK\"}");
  assert_compat ("{\"type\":\"TOOL_CALL_END\",\"parentMessageId\":null}", NULL,
                 "{\"type\":\"TOOL_CALL_END\",\"parentMessageId\":null}");

  /* An object past the tree's index keeps holes where members went;
   * the printed event and a reader skipping holes see them gone. */
  {
    g_auto(CompatRun) run = { .tree = AGUI_JSON_VALUE_INIT };
    g_autofree char *printed = compat_run (&run, "{\"type\":\"RUN_FINISHED\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,"
                                           "\"g\":7,\"h\":8,\"result\":null,\"i\":1.5,\"outcome\":null,\"rawEvent\":null}",
                                           (const char *[]) {
                                             "Converting deprecated RUN_FINISHED.rawEvent: null to an absent field",
                                             "Converting deprecated RUN_FINISHED.result: null to an absent field",
                                             "Converting deprecated RUN_FINISHED.outcome: null to an absent field",
                                             NULL });
    AguiJsonDocObject *object = run.tree.u.object;
    g_autoptr(GString) names = g_string_new (NULL);

    g_assert_cmpstr (printed, ==, "{\"type\":\"RUN_FINISHED\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":1.5}");
    g_assert_cmpuint (_agui_json_object_get_size (object), ==, 10);
    for (guint slot = 0; slot < _agui_json_object_get_n_slots (object); slot++)
      {
        const char *name = _agui_json_object_slot_name (object, slot);

        if (name != NULL)
          g_string_append (names, name);
      }
    g_assert_cmpstr (names->str, ==, "typeabcdefghi");
    g_assert_cmpint (_agui_json_object_find (object, "result"), ==, -1);
  }

  assert_compat ("{\"type\":\"RUN_STARTED\",\"input\":{\"state\":null,\"forwardedProps\":null,"
                 "\"tools\":[{\"name\":\"n\",\"parameters\":null},null,{\"parameters\":{}}],"
                 "\"resume\":[7,{\"payload\":null,\"status\":\"cancelled\"}],"
                 "\"messages\":[{\"content\":[{\"type\":\"text\",\"text\":\"x\",\"metadata\":null},"
                 "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":null},"
                 "{\"metadata\":null}]}],\"context\":null}}",
                 (const char *[]) {
                   "Converting deprecated RUN_STARTED.input.state: null to an absent field",
                   "Converting deprecated RUN_STARTED.input.forwardedProps: null to an absent field",
                   "Converting deprecated RUN_STARTED.input.tools[0].parameters: null to an absent field",
                   "Converting deprecated RUN_STARTED.input.resume[1].payload: null to an absent field",
                   "Converting deprecated RUN_STARTED.input.messages[0].content.metadata: null to an absent field",
                   "Converting deprecated RUN_STARTED.input.messages[0].content.metadata: null to an absent field",
                   NULL },
                 /* A text part's metadata is "any": its null stays. So
                  * do nulls the translation does not know. */
                 "{\"type\":\"RUN_STARTED\",\"input\":{\"tools\":[{\"name\":\"n\"},null,{\"parameters\":{}}],"
                 "\"resume\":[7,{\"status\":\"cancelled\"}],"
                 "\"messages\":[{\"content\":[{\"type\":\"text\",\"text\":\"x\",\"metadata\":null},"
                 "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"}},{}]}],\"context\":null}}");
  assert_compat ("{\"type\":\"RUN_STARTED\",\"input\":[{\"state\":null}]}", NULL,
                 "{\"type\":\"RUN_STARTED\",\"input\":[{\"state\":null}]}");
  /* Messages only in RUN_STARTED.input and MESSAGES_SNAPSHOT. */
  assert_compat ("{\"type\":\"CUSTOM\",\"value\":{\"messages\":[{\"content\":[{\"type\":\"image\",\"metadata\":null}]}]}}", NULL,
                 "{\"type\":\"CUSTOM\",\"value\":{\"messages\":[{\"content\":[{\"type\":\"image\",\"metadata\":null}]}]}}");
}

static void
test_compat_tree_binary_parts (void)
{
  g_test_summary ("Pre-1.0 binary parts are upgraded on the tree; one the message already holds is dropped");

  assert_compat ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[7,{\"content\":\"text\"},{\"id\":\"u\",\"content\":["
                 "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\",\"filename\":\"a.png\",\"id\":\"x\"},"
                 "{\"type\":\"binary\",\"url\":\"https://example.invalid/d\",\"filename\":3},"
                 "{\"type\":\"binary\",\"mimeType\":\"audio/ogg\",\"data\":\"D\",\"url\":\"U\"},"
                 "{\"type\":\"binary\",\"mimeType\":\"video/webm\",\"data\":5,\"url\":\"U\"},"
                 "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"id\":\"file-1\"},"
                 "\"loose\"]}]}",
                 (const char *[]) {
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[2].content to a image part",
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[2].content to a document part",
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[2].content to a audio part",
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[2].content to a video part",
                   "Cannot convert a deprecated binary content part in MESSAGES_SNAPSHOT.messages[2].content: it carries neither data nor url",
                   NULL },
                 /* data before url; members of other kinds are ignored;
                  * one that cannot be converted stays for enforcement. */
                 "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[7,{\"content\":\"text\"},{\"id\":\"u\",\"content\":["
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"},\"metadata\":{\"filename\":\"a.png\"}},"
                 "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/d\"}},"
                 "{\"type\":\"audio\",\"source\":{\"type\":\"data\",\"value\":\"D\",\"mimeType\":\"audio/ogg\"}},"
                 "{\"type\":\"video\",\"source\":{\"type\":\"url\",\"value\":\"U\",\"mimeType\":\"video/webm\"}},"
                 "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"id\":\"file-1\"},"
                 "\"loose\"]}]}");

  /* A modern part that comes first, in any member order, makes the
   * binary one a duplicate. */
  assert_compat ("{\"type\":\"RUN_STARTED\",\"input\":{\"messages\":[{\"content\":["
                 "{\"source\":{\"mimeType\":\"image/png\",\"value\":\"iVBO\",\"type\":\"data\"},\"type\":\"image\"},"
                 "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"},"
                 "{\"type\":\"text\",\"text\":\"after\"}]}]}}",
                 (const char *[]) {
                   "Dropping a deprecated binary content part in RUN_STARTED.input.messages[0].content: the message already holds the same part",
                   NULL },
                 "{\"type\":\"RUN_STARTED\",\"input\":{\"messages\":[{\"content\":["
                 "{\"source\":{\"mimeType\":\"image/png\",\"value\":\"iVBO\",\"type\":\"data\"},\"type\":\"image\"},"
                 "{\"type\":\"text\",\"text\":\"after\"}]}]}}");

  /* So does one that comes after it. Two binary parts alike are not
   * duplicates of each other: each is compared with the parts as they
   * came, not as upgraded. */
  assert_compat ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
                 "{\"type\":\"binary\",\"data\":\"v\"},{\"type\":\"binary\",\"data\":\"v\"},"
                 "{\"type\":\"binary\",\"url\":\"w\"},"
                 "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"w\"}}]}]}",
                 (const char *[]) {
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a document part",
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a document part",
                   "Dropping a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content: the message already holds the same part",
                   NULL },
                 "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
                 "{\"type\":\"document\",\"source\":{\"type\":\"data\",\"value\":\"v\"}},"
                 "{\"type\":\"document\",\"source\":{\"type\":\"data\",\"value\":\"v\"}},"
                 "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"w\"}}]}]}");

  /* A modern part's null metadata goes when its turn comes: before the
   * comparison if it comes first (a duplicate), after it if it comes
   * later (not one, so both stay). */
  assert_compat ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"v\",\"mimeType\":\"image/gif\"},\"metadata\":null},"
                 "{\"type\":\"binary\",\"mimeType\":\"image/gif\",\"data\":\"v\"},"
                 "{\"type\":\"binary\",\"mimeType\":\"image/gif\",\"data\":\"w\"},"
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"w\",\"mimeType\":\"image/gif\"},\"metadata\":null}]}]}",
                 (const char *[]) {
                   "Converting deprecated MESSAGES_SNAPSHOT.messages[0].content.metadata: null to an absent field",
                   "Dropping a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content: the message already holds the same part",
                   "Converting a deprecated binary content part in MESSAGES_SNAPSHOT.messages[0].content to a image part",
                   "Converting deprecated MESSAGES_SNAPSHOT.messages[0].content.metadata: null to an absent field",
                   NULL },
                 "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"v\",\"mimeType\":\"image/gif\"}},"
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"w\",\"mimeType\":\"image/gif\"}},"
                 "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"w\",\"mimeType\":\"image/gif\"}}]}]}");
}

/* Surrogate halves */

static char *
join_deltas (GPtrArray *events)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < events->len; i++)
    {
      const char *delta = agui_event_get_delta (g_ptr_array_index (events, i));

      if (delta != NULL)
        g_string_append (text, delta);
    }

  return g_string_free (text, FALSE);
}

static GPtrArray *
parse_all (AguiEventParser    *parser,
           const char * const *frames)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);

  for (guint i = 0; frames[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      AguiEvent *event = _agui_event_parser_parse (parser, frames[i], -1, &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (event);

      text = agui_event_to_string (event);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      g_ptr_array_add (events, event);
    }

  return events;
}

static const char *
delta_at (GPtrArray *events,
          guint      index)
{
  return agui_event_get_delta (g_ptr_array_index (events, index));
}

static void
test_surrogates_split (void)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("An emoji whose surrogate pair a JavaScript producer split across two deltas is joined");

  events = parse_all (parser, (const char *[]) {
                        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\\uD83D\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uDE00b\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\ud83d\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\ude80\"}",
                        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
                        NULL });

  g_assert_cmpstr (delta_at (events, 1), ==, "a");
  g_assert_cmpstr (delta_at (events, 2), ==, "\xF0\x9F\x98\x80" "b");
  g_assert_cmpstr (delta_at (events, 3), ==, "");
  g_assert_cmpstr (delta_at (events, 4), ==, "");
  g_assert_cmpstr (delta_at (events, 5), ==, "\xF0\x9F\x9A\x80");
  text = join_deltas (events);
  g_assert_cmpstr (text, ==, "a\xF0\x9F\x98\x80" "b\xF0\x9F\x9A\x80");
  assert_warnings (warnings, NULL);
}

static void
test_surrogates_streams (void)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(GPtrArray) events = NULL;

  g_test_summary ("Pending halves are kept per stream: kind and id, or the chunk lane");

  events = parse_all (parser, (const char *[]) {
                        /* 0-3: two text messages interleaved */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"x\\uD83D\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"y\\uD83C\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uDE00\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"\\uDF89\"}",
                        /* 4-6: a tool call sharing the id m1 is another stream */
                        "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"m1\",\"delta\":\"\\uD83D\"}",
                        "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uD83E\"}",
                        "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"m1\",\"delta\":\"\\uDE00\"}",
                        /* 7 */
                        "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uDD14!\"}",
                        /* 8-9: an id-less chunk continues its lane's stream */
                        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"c1\",\"delta\":\"\\uD83D\"}",
                        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"\\uDE00\"}",
                        /* 10-12: subagent lanes */
                        "{\"type\":\"TOOL_CALL_CHUNK\",\"subagentRunId\":\"s1\",\"delta\":\"\\uD83D\"}",
                        "{\"type\":\"TOOL_CALL_CHUNK\",\"subagentRunId\":\"s2\",\"delta\":\"\\uD83C\"}",
                        "{\"type\":\"TOOL_CALL_CHUNK\",\"subagentRunId\":\"s1\",\"delta\":\"\\uDE00\"}",
                        /* 13-14 */
                        "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"r9\",\"delta\":\"\\uD83D\"}",
                        "{\"type\":\"REASONING_MESSAGE_CHUNK\",\"messageId\":\"r9\",\"delta\":\"\\uDE00\"}",
                        NULL });

  g_assert_cmpstr (delta_at (events, 0), ==, "x");
  g_assert_cmpstr (delta_at (events, 1), ==, "y");
  g_assert_cmpstr (delta_at (events, 2), ==, "\xF0\x9F\x98\x80");
  g_assert_cmpstr (delta_at (events, 3), ==, "\xF0\x9F\x8E\x89");
  g_assert_cmpstr (delta_at (events, 4), ==, "");
  g_assert_cmpstr (delta_at (events, 5), ==, "");
  g_assert_cmpstr (delta_at (events, 6), ==, "\xF0\x9F\x98\x80");
  g_assert_cmpstr (delta_at (events, 7), ==, "\xF0\x9F\xA4\x94!");
  g_assert_cmpstr (delta_at (events, 8), ==, "");
  g_assert_cmpstr (delta_at (events, 9), ==, "\xF0\x9F\x98\x80");
  g_assert_cmpstr (delta_at (events, 10), ==, "");
  g_assert_cmpstr (delta_at (events, 11), ==, "");
  g_assert_cmpstr (delta_at (events, 12), ==, "\xF0\x9F\x98\x80");
  g_assert_cmpstr (delta_at (events, 13), ==, "");
  g_assert_cmpstr (delta_at (events, 14), ==, "\xF0\x9F\x98\x80");
  assert_warnings (warnings, NULL);
}

static void
test_surrogates_unpaired (void)
{
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AguiEvent) start = NULL;

  g_test_summary ("Halves that cannot be joined become U+FFFD, and nothing but valid UTF-8 leaves the parser");

  events = parse_all (parser, (const char *[]) {
                        /* 0-1: a high half followed by something else */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\\uD83D\"}",
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"b\"}",
                        /* 2: a low half with nothing pending */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uDE00b\"}",
                        /* 3: halves in the middle, and a high before another high */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\\uD83Db\\uDE00c\\uD83D\\uD83D\\uDE00\"}",
                        /* 4: escaped backslashes are not escapes */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\\\uD83D\\\\\\uDE00\"}",
                        /* 5: a high half before the stream ends is kept for its end (see at-end) */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"z\\uD83D\"}",
                        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
                        /* 7: the same id reopened has nothing pending */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\uDE00\"}",
                        /* 8: a lone half outside a delta */
                        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\\uD83D\",\"name\":\"\\uDE00x\",\"metadata\":{\"k\\uDC00\":[\"\\uD800\"]}}",
                        /* 9: private-use characters in a frame with no lone halves are ordinary text */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m3\",\"delta\":\"\xF4\x8F\xA0\x80\\uDBFE\\uDC00\"}",
                        /* 10: a valid pair is left alone */
                        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m3\",\"delta\":\"\\uD83D\\uDE00\"}",
                        NULL });

  g_assert_cmpstr (delta_at (events, 0), ==, "a");
  g_assert_cmpstr (delta_at (events, 1), ==, "\xEF\xBF\xBD" "b");
  g_assert_cmpstr (delta_at (events, 2), ==, "\xEF\xBF\xBD" "b");
  g_assert_cmpstr (delta_at (events, 3), ==, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD\xF0\x9F\x98\x80");
  g_assert_cmpstr (delta_at (events, 4), ==, "\\uD83D\\\xEF\xBF\xBD");
  g_assert_cmpstr (delta_at (events, 5), ==, "z");
  g_assert_cmpstr (delta_at (events, 7), ==, "\xEF\xBF\xBD");
  g_assert_cmpstr (agui_event_get_message_id (g_ptr_array_index (events, 8)), ==, "m\xEF\xBF\xBD");
  g_assert_cmpstr (agui_event_get_string (g_ptr_array_index (events, 8), "name"), ==, "\xEF\xBF\xBDx");
  assert_event_json (g_ptr_array_index (events, 8),
                     "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\\ufffd\",\"name\":\"\\ufffdx\",\"metadata\":{\"k\\ufffd\":[\"\\ufffd\"]}}");
  g_assert_cmpstr (delta_at (events, 9), ==, "\xF4\x8F\xA0\x80\xF4\x8F\xA0\x80");
  g_assert_cmpstr (delta_at (events, 10), ==, "\xF0\x9F\x98\x80");

  /* Each lost half is reported. */
  g_assert_cmpuint (warnings->len, ==, 8);

  /* A string that is not UTF-8 in a node handed in directly is repaired. */
  {
    g_autoptr(JsonNode) node = parse_json ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}");
    g_autoptr(GError) error = NULL;

    json_object_set_string_member (json_node_get_object (node), "name", "bad\xff");
    start = _agui_event_parser_parse_node (parser, node, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (agui_event_get_string (start, "name"), ==, "bad\xEF\xBF\xBD");
  }
}

/* Every UTF-16 code unit of the fixture's text in its own delta, as \u
 * escapes: the worst a JavaScript producer can do. */
/* The text of each message once @frames are folded, one per line. */
static char *
fold_message_texts (gboolean            reference,
                    const char * const *frames)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GString) body = g_string_new ("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
  g_autoptr(JsonArray) messages = NULL;
  GString *out = g_string_new (NULL);
  AguiPipeline *pipeline;

  for (guint i = 0; frames[i] != NULL; i++)
    g_string_append_printf (body, "data: %s\n\n", frames[i]);
  g_string_append (body, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");

  _agui_event_parser_set_reference_by_default (reference);
  pipeline = _agui_pipeline_new (reducer);
  _agui_event_parser_set_reference_by_default (FALSE);
  g_assert_true (_agui_pipeline_push_bytes (pipeline, (const guint8 *) body->str, body->len));
  g_assert_true (_agui_pipeline_finish (pipeline));
  g_assert_null (_agui_pipeline_get_error (pipeline));
  _agui_pipeline_free (pipeline);

  messages = agui_transcript_to_messages (_agui_reducer_get_transcript (reducer), FALSE);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      g_string_append_printf (out, "%s %s\n", json_object_get_string_member (message, "id"),
                              json_object_get_string_member_with_default (message, "content", "(none)"));
    }

  return g_string_free (out, FALSE);
}

static void
test_surrogates_at_end (void)
{
  static const char * const frames[] = {
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"end\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"end\",\"delta\":\"z\\uD83D\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"end\"}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"mid\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"mid\",\"delta\":\"z\\uD83D\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"mid\",\"delta\":\"y\"}",
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"mid\"}",
    NULL,
  };
  g_autoptr(GPtrArray) warnings = new_warnings ();
  g_autoptr(AguiEventParser) parser = new_parser (warnings);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AguiEvent) before = NULL;
  g_autoptr(AguiEvent) end = NULL;

  g_test_summary ("A high half left at the end of a stream becomes U+FFFD, as one in the middle does");

  for (guint reference = 0; reference < 2; reference++)
    {
      g_autofree char *texts = fold_message_texts (reference, frames);

      g_assert_cmpstr (texts, ==, "end z\xEF\xBF\xBD\nmid z\xEF\xBF\xBDy\n");
    }

  /* The parser hands the replacement over as a delta of its own, in the
   * stream (and lane) the end closes. */
  events = parse_all (parser, (const char *[]) {
                        "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r\",\"subagentRunId\":\"s\",\"delta\":\"\\uDBFF\"}",
                        NULL });
  g_assert_null (_agui_event_parser_take_before (parser));
  end = _agui_event_parser_parse (parser, "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"r\",\"subagentRunId\":\"s\"}", -1, NULL);
  g_assert_nonnull (end);
  before = _agui_event_parser_take_before (parser);
  assert_event_json (before, "{\"messageId\":\"r\",\"subagentRunId\":\"s\",\"delta\":\"\\ufffd\",\"type\":\"REASONING_MESSAGE_CONTENT\"}");
  g_assert_null (_agui_event_parser_take_before (parser));
  g_assert_cmpuint (warnings->len, ==, 1);
}

static void
test_surrogates_fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "text-unicode-split.json", NULL);
  g_autoptr(JsonParser) json_parser = json_parser_new ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);
  JsonObject *root;
  JsonArray *events;
  JsonArray *messages;
  const char *expected;
  guint n_deltas = 0;

  g_test_summary ("The text of text-unicode-split, split at every UTF-16 code unit, is joined back exactly");

  g_assert_true (json_parser_load_from_file (json_parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (json_parser));
  events = json_object_get_array_member (root, "events");
  messages = json_object_get_array_member (json_object_get_object_member (root, "expected"), "messages");
  expected = json_object_get_string_member (json_array_get_object_element (messages, 0), "content");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event_object = json_array_get_object_element (events, i);
      g_autofree gunichar2 *utf16 = NULL;
      const char *delta;
      glong n_units = 0;

      if (!g_str_equal (json_object_get_string_member (event_object, "type"), "TEXT_MESSAGE_CONTENT"))
        continue;

      delta = json_object_get_string_member (event_object, "delta");
      utf16 = g_utf8_to_utf16 (delta, -1, NULL, &n_units, &error);
      g_assert_no_error (error);

      for (glong unit = 0; unit < n_units; unit++)
        {
          g_autofree char *frame = g_strdup_printf ("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\\u%04X\"}",
                                                    (guint) utf16[unit]);
          g_autoptr(AguiEvent) event = _agui_event_parser_parse (parser, frame, -1, &error);

          g_assert_no_error (error);
          g_assert_nonnull (event);
          g_assert_true (g_utf8_validate (agui_event_get_delta (event), -1, NULL));
          g_string_append (joined, agui_event_get_delta (event));
          n_deltas++;
        }
    }

  g_assert_cmpuint (n_deltas, >, g_utf8_strlen (expected, -1));
  g_assert_cmpstr (joined->str, ==, expected);
}

/* Fixtures */

/* The data of each SSE frame, for bodies the reference encoder wrote:
 * "data: " + JSON + blank line. */
static GPtrArray *
sse_frames (const char *sse)
{
  g_auto(GStrv) blocks = g_strsplit (sse, "\n\n", -1);
  GPtrArray *frames = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; blocks[i] != NULL; i++)
    {
      if (blocks[i][0] == '\0')
        continue;

      g_assert_true (g_str_has_prefix (blocks[i], "data: "));
      g_assert_null (strchr (blocks[i], '\n'));
      g_ptr_array_add (frames, g_strdup (blocks[i] + strlen ("data: ")));
    }

  return frames;
}

static void
test_fixture (gconstpointer data)
{
  const char *path = data;
  g_autoptr(JsonParser) json_parser = json_parser_new_immutable ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEventParser) text_parser = _agui_event_parser_new ();
  g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  g_autoptr(GHashTable) minted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *expected;
  JsonArray *events;
  JsonArray *applied;
  const char *stage = NULL;
  const char *sse_source;
  gboolean has_chunks = FALSE;
  gboolean failed = FALSE;

  g_test_summary ("A fixture's events parse (or fail where the reference's schema enforcement failed), "
                  "and they are the events the reference applied");

  g_assert_true (json_parser_load_from_file (json_parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (json_parser));
  expected = json_object_get_object_member (root, "expected");
  events = json_object_get_array_member (root, "events");
  applied = json_object_get_array_member (expected, "appliedEvents");
  if (!json_node_is_null (json_object_get_member (expected, "errorStage")))
    stage = json_object_get_string_member (expected, "errorStage");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *node = json_array_get_element (events, i);
      g_autoptr(AguiEvent) event = NULL;
      const char *type = NULL;

      if (JSON_NODE_HOLDS_OBJECT (node))
        type = json_object_get_string_member_with_default (json_node_get_object (node), "type", NULL);
      if (type != NULL && g_str_has_suffix (type, "_CHUNK"))
        has_chunks = TRUE;

      event = _agui_event_parser_parse_node (parser, node, &error);

      if (error != NULL)
        {
          g_test_message ("event %u: %s", i, error->message);

          /* Only where the reference failed at the same stage. */
          if (g_strcmp0 (stage, "enforce") == 0)
            g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT);
          else if (g_strcmp0 (stage, "transport") == 0)
            g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
          else
            g_assert_no_error (error);

          failed = TRUE;
          break;
        }

      if (event != NULL)
        g_ptr_array_add (parsed, g_steal_pointer (&event));
    }

  if (g_strcmp0 (stage, "enforce") == 0)
    {
      g_assert_true (failed);
      /* Enforcement failed at the first event the reference did not apply. */
      g_assert_cmpuint (parsed->len, ==, json_array_get_length (applied));
    }

  /* Without chunks, applying is all that happens after enforcement, so the
   * applied events are the parsed ones (a prefix of them when the verifier
   * or the client stopped the run). */
  if (!has_chunks)
    {
      g_autoptr(JsonNode) parsed_node = json_node_new (JSON_NODE_ARRAY);
      JsonArray *parsed_array = json_array_new ();
      guint n_compared = json_array_get_length (applied);

      if (stage == NULL)
        g_assert_cmpuint (parsed->len, ==, n_compared);
      else
        g_assert_cmpuint (parsed->len, >=, n_compared);

      for (guint i = 0; i < n_compared; i++)
        json_array_add_element (parsed_array, agui_event_to_json (g_ptr_array_index (parsed, i)));
      json_node_take_array (parsed_node, parsed_array);

      if (!agui_test_json_matches (json_object_get_member (expected, "appliedEvents"), parsed_node, minted))
        {
          g_autofree char *text = json_to_string (parsed_node, TRUE);

          g_test_message ("parsed events: %s", text);
          g_test_fail ();
        }
    }

  /* The same events from the SSE text take the same path through
   * _agui_event_parser_parse(). */
  sse_source = json_object_get_string_member_with_default (root, "sseSource", "");
  if (!failed && (g_str_equal (sse_source, "encoder") || g_str_equal (sse_source, "json-stringify")))
    {
      g_autoptr(GPtrArray) frames = sse_frames (json_object_get_string_member (root, "sse"));
      guint n_events = 0;

      for (guint i = 0; i < frames->len; i++)
        {
          g_autoptr(AguiEvent) event = _agui_event_parser_parse (text_parser, g_ptr_array_index (frames, i), -1, &error);
          g_autoptr(JsonNode) node = NULL;
          g_autoptr(JsonNode) reference = NULL;

          g_assert_no_error (error);
          if (event == NULL)
            continue;

          g_assert_cmpuint (n_events, <, parsed->len);
          node = agui_event_to_json (event);
          reference = agui_event_to_json (g_ptr_array_index (parsed, n_events++));

          /* Minted ids differ between two parsers. */
          if (g_str_equal (sse_source, "encoder"))
            g_assert_true (json_node_equal (node, reference));
          else
            g_assert_cmpint (agui_event_get_event_type (event), ==,
                             agui_event_get_event_type (g_ptr_array_index (parsed, n_events - 1)));
        }

      g_assert_cmpuint (n_events, ==, parsed->len);
    }
}

static void
test_fixture_bad_types (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "violation-schema-bad-types.json", NULL);
  g_autoptr(JsonParser) json_parser = json_parser_new ();
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) first = NULL;
  g_autoptr(AguiEvent) second = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *events;

  g_test_summary ("violation-schema-bad-types fails at its second event, naming the timestamp");

  g_assert_true (json_parser_load_from_file (json_parser, path, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (json_parser)), "events");

  first = _agui_event_parser_parse_node (parser, json_array_get_element (events, 0), &error);
  g_assert_no_error (error);
  g_assert_nonnull (first);

  second = _agui_event_parser_parse_node (parser, json_array_get_element (events, 1), &error);
  g_assert_null (second);
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_EVENT);
  g_assert_cmpstr (error->message, ==, "TEXT_MESSAGE_START: member 'timestamp' must be an integer");
}

static void
add_fixture_tests (void)
{
  g_autofree char *directory = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const char *name;

  dir = g_dir_open (directory, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_suffix (name, ".json"))
        g_ptr_array_add (names, g_strdup (name));
    }

  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_assert_cmpuint (names->len, >, 0);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *stem = g_strndup (file, strlen (file) - strlen (".json"));
      g_autofree char *test_path = g_strdup_printf ("/agui/event/fixture/%s", stem);

      /* The path is kept for the life of the program. */
      g_test_add_data_func_full (test_path, g_build_filename (directory, file, NULL),
                                 test_fixture, g_free);
    }
}

/* Limits of the frame reader */

static char *
nested_frame (guint depth)
{
  GString *frame = g_string_new ("{\"type\":\"CUSTOM\",\"name\":\"deep\",\"value\":");

  /* The event object is one level; the value adds the rest. */
  for (guint i = 1; i < depth; i++)
    g_string_append_c (frame, '[');
  for (guint i = 1; i < depth; i++)
    g_string_append_c (frame, ']');
  g_string_append_c (frame, '}');

  return g_string_free (frame, FALSE);
}

static void
test_depth_limit (void)
{
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autofree char *deepest = nested_frame (512);
  g_autofree char *too_deep = nested_frame (513);
  g_autofree char *expected = g_strdup_printf ("nested deeper than %d levels", 512);
  g_autoptr(GString) hostile = g_string_new (NULL);
  g_autoptr(AguiEvent) ok = NULL;
  g_autoptr(AguiEvent) after = NULL;

  g_test_summary ("A frame nested deeper than AGUI_JSON_MAX_DEPTH is refused, naming the limit, "
                  "and the parser reads the next frame");

  ok = _agui_event_parser_parse (parser, deepest, -1, NULL);
  g_assert_nonnull (ok);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AguiEvent) event = NULL;

      if (i == 1)
        {
          /* a hundred thousand brackets, never closed: yajl would reject the
           * frame only at its end; json-glib would recurse off the stack */
          for (guint j = 0; j < 100000; j++)
            g_string_append_c (hostile, '[');
        }

      event = _agui_event_parser_parse (parser, i == 0 ? too_deep : hostile->str, -1, &error);
      g_assert_null (event);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
      g_assert_nonnull (strstr (error->message, expected));
    }

  after = _agui_event_parser_parse (parser, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}", -1, NULL);
  g_assert_nonnull (after);
  g_assert_cmpstr (agui_event_get_string (after, "stepName"), ==, "s");
}

static void
test_numbers_exact (void)
{
  static const struct { const char *frame; const char *problem; } refused[] = {
    { "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":9223372036854775808}", "does not fit in 64 bits" },
    { "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":-12345678901234567890}", "does not fit in 64 bits" },
    { "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":[1e400]}", "is too large for a double" },
    { "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"timestamp\":-1e309}", "is too large for a double" },
  };
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) event = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("Numbers are kept exactly or refused, never wrapped or made infinite");

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AguiEvent) bad = _agui_event_parser_parse (parser, refused[i].frame, -1, &error);

      g_assert_null (bad);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
      g_assert_nonnull (strstr (error->message, refused[i].problem));
    }

  event = _agui_event_parser_parse (parser,
                                   "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"max\":9223372036854775807,"
                                   "\"min\":-9223372036854775808,\"big\":9007199254740993,\"tiny\":1e-400}}",
                                   -1, NULL);
  g_assert_nonnull (event);
  text = agui_event_to_string (event);
  g_assert_cmpstr (text, ==, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"max\":9223372036854775807,"
                             "\"min\":-9223372036854775808,\"big\":9007199254740993,\"tiny\":0.0}}");
}

static void
test_control_characters (void)
{
  static const char * const with_nul[] = {
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"a\\u0000b\"}",
    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"k\":[\"a\\u0000b\"]}}",
    "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"a\\u0000b\":1}}",
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\\u0000\",\"role\":\"assistant\"}",
  };
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(AguiEvent) again = NULL;
  g_autoptr(AguiEvent) after = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) expected = g_string_new ("<");

  g_test_summary ("Every control character but U+0000 survives the typed accessors and a "
                  "round trip; U+0000, which a C string cannot hold, is refused with a reason");

  for (guint c = 1; c < 0x20; c++)
    g_string_append_c (expected, (char) c);
  g_string_append_c (expected, '>');

  event = _agui_event_parser_parse (parser,
                                   "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\\u001f\",\"delta\":\"<"
                                   "\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                                   "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                                   "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f>\"}", -1, NULL);
  g_assert_nonnull (event);
  g_assert_cmpstr (agui_event_get_delta (event), ==, expected->str);
  g_assert_cmpstr (agui_event_get_message_id (event), ==, "m\x1f");

  text = agui_event_to_string (event);
  again = _agui_event_parser_parse (parser, text, -1, NULL);
  g_assert_nonnull (again);
  g_assert_cmpstr (agui_event_get_delta (again), ==, expected->str);
  g_assert_cmpstr (agui_event_get_message_id (again), ==, "m\x1f");

  for (guint i = 0; i < G_N_ELEMENTS (with_nul); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AguiEvent) refused = _agui_event_parser_parse (parser, with_nul[i], -1, &error);

      g_assert_null (refused);
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_JSON);
      g_assert_nonnull (strstr (error->message, "\\u0000"));
    }

  /* The parser is not left in a state that harms the next frame. */
  after = _agui_event_parser_parse (parser, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}", -1, NULL);
  g_assert_nonnull (after);
  g_assert_cmpstr (agui_event_get_string (after, "stepName"), ==, "s");
}

static char *
parse_described (AguiEventParser *parser,
                 const char      *frame)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = _agui_event_parser_parse (parser, frame, -1, &error);

  if (event != NULL)
    return agui_event_to_string (event);
  if (error != NULL)
    return g_strdup_printf ("error %s %d: %s", g_quark_to_string (error->domain), error->code, error->message);

  return g_strdup ("dropped");
}

static void
test_plain_frames (void)
{
  /* Each sits on an edge of the reader's fast path for flat frames
   * without escapes: what it must take, and what it must leave to yajl
   * (and json-glib, for the error) because the two might differ. */
  static const char * const frames[] = {
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}",
    " \t\r\n{ \"type\" : \"STEP_STARTED\" , \"stepName\" : \"s\" } \n",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"a\tb\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"a\x01b\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"caf\xc3\xa9 \x7f\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"stepName\":\"t\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"extra\":1}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"} x",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s}",
    "{\"type\":\"STEP_STARTED\" \"stepName\":\"s\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\"\"s\"}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}{}",
    "{}",
    "{ }",
    "[]",
    "\"STEP_STARTED\"",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"code\":7}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":0}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":-0}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":01}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":-}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":123456789012345678}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":1234567890123456789}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":-999999999999999999}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":99999999999999999999}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":1.0}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":1e3}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":1x}",
    "{\"type\":\"RUN_ERROR\",\"message\":\"m\",\"timestamp\":true}",
    "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":{},\"replace\":false}",
    "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":{},\"replace\":falsey}",
    "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\",\"activityType\":\"t\",\"content\":{},\"replace\":tru}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":null}",
    "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"subagentRunId\":null}",
    "{\"type\":\"NOT_A_TYPE\",\"stepName\":\"s\"}",
    "{\"type\":\"\",\"stepName\":\"s\"}",
    "{\"type\":7}",
  };
  /* yajl takes \v and \f for whitespace, json-glib does not: these go
   * past the fast path to yajl, and are read as yajl reads them. */
  static const char * const yajl_space[] = {
    "\v{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}",
    "{\"type\":\"STEP_STARTED\",\f\"stepName\":\"s\"}",
  };
  g_autoptr(AguiEventParser) fast = _agui_event_parser_new ();
  g_autoptr(AguiEventParser) reference = _agui_event_parser_new ();

  g_test_summary ("Flat frames without escapes, read on the reader's fast path, give the events, "
                  "errors and drops of the json-glib reference, also just past that path's edges");

  _agui_event_parser_set_reference (reference, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *expected = parse_described (reference, frames[i]);
      g_autofree char *got = parse_described (fast, frames[i]);

      g_test_message ("%s → %s", frames[i], expected);
      g_assert_cmpstr (got, ==, expected);
    }

  for (guint i = 0; i < G_N_ELEMENTS (yajl_space); i++)
    {
      g_autofree char *got = parse_described (fast, yajl_space[i]);

      g_assert_cmpstr (got, ==, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}");
    }
}

/* Folds @frames (SSE data) after a RUN_STARTED and a snapshot, and
 * describes the state, the last patch and the warnings. */
static char *
fold_described (gboolean            reference,
                const char * const *frames,
                guint               n_frames)
{
  g_autoptr(AguiReducer) reducer = NULL;
  g_autoptr(GString) body = g_string_new ("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
                                          "data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":"
                                          "{\"a\":[1,2],\"o\":{\"k\":\"v\"},\"n\":1}}\n\n");
  g_autoptr(GString) out = g_string_new (NULL);
  AguiTranscript *transcript;
  GPtrArray *warnings;
  AguiPipeline *pipeline;
  JsonArray *last;
  g_autofree char *state = NULL;

  for (guint i = 0; i < n_frames; i++)
    g_string_append_printf (body, "data: %s\n\n", frames[i]);
  g_string_append (body, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");

  _agui_event_parser_set_reference_by_default (reference);
  reducer = _agui_reducer_new (NULL);
  pipeline = _agui_pipeline_new (reducer);
  _agui_event_parser_set_reference_by_default (FALSE);
  _agui_pipeline_push_bytes (pipeline, (const guint8 *) body->str, body->len);
  _agui_pipeline_finish (pipeline);

  transcript = _agui_reducer_get_transcript (reducer);
  state = json_to_string (agui_transcript_get_state (transcript), FALSE);
  g_string_append_printf (out, "state %s\n", state);
  last = agui_transcript_get_last_state_delta (transcript);
  if (last != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), last);
      g_autofree char *text = json_to_string (node, FALSE);

      g_string_append_printf (out, "last delta %s\n", text);
    }
  warnings = _agui_reducer_get_warnings (reducer);
  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (out, "warning %s\n", (const char *) g_ptr_array_index (warnings, i));
  if (_agui_pipeline_get_error (pipeline) != NULL)
    g_string_append_printf (out, "error %s\n", _agui_pipeline_get_error (pipeline)->message);

  _agui_pipeline_free (pipeline);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_patch_frames (void)
{
  /* Each on an edge of the patch reader: what it reads into operations,
   * and what it leaves to the general path (unknown or repeated members,
   * escapes, null, odd pointers, unknown ops, numbers yajl must check,
   * nesting near the limit, anything after the patch). */
  static const char * const frames[] = {
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/b\",\"value\":{\"x\":1,\"y\":\"z\",\"t\":true}}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/n\",\"value\":-7},{\"op\":\"test\",\"path\":\"/n\",\"value\":-7}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"test\",\"path\":\"/n\",\"value\":8}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/a/-\",\"value\":[1,{\"q\":[null,2.5]}]}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":1.0},{\"op\":\"add\",\"path\":\"/d\",\"value\":1e3}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/d\",\"value\":123456789012345678901}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/d\",\"value\":null}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/d\",\"value\":{\"k\":null}}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/o/k\"},{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/m\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"copy\",\"from\":\"/o\",\"path\":\"/c\"},{\"op\":\"remove\",\"path\":\"/nope\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/x~1y~0\",\"value\":\"s\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/x~2\",\"value\":\"s\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"x\",\"value\":\"s\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/__proto__/x\",\"value\":1}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/e\",\"value\":\"a\\nb\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/e\",\"value\":1,\"note\":\"kept\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"op\":\"remove\",\"path\":\"/n\",\"value\":1}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/n\",\"path\":\"/m\",\"value\":1}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"frob\",\"path\":\"/n\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"value\":1}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/f\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"move\",\"path\":\"/f\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/n\",\"from\":\"/a\"}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":7,\"value\":1}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[7]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":{}}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[ { \"op\" : \"add\" , \"path\" : \"/w\" , \"value\" : { \"s\" : 1 } } ] }\n",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":1}],\"timestamp\":5}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":1}]} x",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":1},]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":{\"a\":1,}}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":tru}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":01}]}",
    "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":\"x\x01\"}]}",
    "{\"delta\":[{\"op\":\"add\",\"path\":\"/w\",\"value\":1}],\"type\":\"STATE_DELTA\"}",
  };
  g_autoptr(AguiEventParser) fast = _agui_event_parser_new ();
  g_autoptr(AguiEventParser) reference = _agui_event_parser_new ();
  g_autoptr(GString) deep = g_string_new ("{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"/deep\",\"value\":");
  const char *one[1];

  g_test_summary ("STATE_DELTA frames read by the patch reader give the events, the state, the "
                  "last patch, the warnings and the errors of the json-glib reference, also "
                  "just past the reader's edges");

  _agui_event_parser_set_reference (reference, TRUE);

  /* The first frames do take the patch reader's path. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(AguiEvent) event = _agui_event_parser_parse (fast, frames[i], -1, NULL);
      const char *strings;
      guint n_ops;

      g_assert_nonnull (_agui_event_get_patch_ops (event, &n_ops, &strings, NULL));
      g_assert_cmpuint (n_ops, >, 0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *expected = parse_described (reference, frames[i]);
      g_autofree char *got = parse_described (fast, frames[i]);
      g_autofree char *expected_fold = NULL;
      g_autofree char *got_fold = NULL;

      g_test_message ("%s → %s", frames[i], expected);
      g_assert_cmpstr (got, ==, expected);

      one[0] = frames[i];
      expected_fold = fold_described (TRUE, one, 1);
      got_fold = fold_described (FALSE, one, 1);
      g_assert_cmpstr (got_fold, ==, expected_fold);
    }

  /* A value as deep as the frame's limit allows, and one level deeper. */
  for (guint extra = 0; extra < 2; extra++)
    {
      g_autoptr(GString) frame = g_string_new (deep->str);
      guint levels = 512 - 3 + extra;
      g_autofree char *expected = NULL;
      g_autofree char *got = NULL;

      for (guint i = 0; i < levels; i++)
        g_string_append_c (frame, '[');
      for (guint i = 0; i < levels; i++)
        g_string_append_c (frame, ']');
      g_string_append (frame, "}]}");

      expected = parse_described (reference, frame->str);
      got = parse_described (fast, frame->str);
      g_assert_cmpstr (got, ==, expected);
      g_assert_true (g_str_has_prefix (got, extra == 0 ? "{" : "error"));
    }

  /* All of them in one run: each patch applies to what the ones before
   * left. */
  {
    g_autofree char *expected_fold = fold_described (TRUE, frames, G_N_ELEMENTS (frames));
    g_autofree char *got_fold = fold_described (FALSE, frames, G_N_ELEMENTS (frames));

    g_assert_cmpstr (got_fold, ==, expected_fold);
  }
}

static void
test_surrogate_marker_literal (void)
{
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) first = NULL;
  g_autoptr(AguiEvent) second = NULL;

  g_test_summary ("A literal character of the last private-use plane is not taken for a "
                  "surrogate marker, even in a frame that has a lone surrogate");

  /* U+10F83D is what the previous parser used as the marker of \uD83D. */
  first = _agui_event_parser_parse (parser,
                                   "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\","
                                   "\"delta\":\"\xF4\x8F\xA0\xBD and \\uD83D\"}", -1, NULL);
  second = _agui_event_parser_parse (parser,
                                    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\\uDE00\"}",
                                    -1, NULL);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_cmpstr (agui_event_get_delta (first), ==, "\xF4\x8F\xA0\xBD and ");
  g_assert_cmpstr (agui_event_get_delta (second), ==, "\xF0\x9F\x98\x80");
}

static void
test_surrogate_marker_after_half (void)
{
  g_autoptr(AguiEventParser) parser = _agui_event_parser_new ();
  g_autoptr(AguiEvent) first = NULL;
  g_autoptr(AguiEvent) second = NULL;

  g_test_summary ("A literal U+10FC00 right after a split high surrogate stays itself, "
                  "not the U+1F400 the old marker of \\uDC00 made of it");

  first = _agui_event_parser_parse (parser,
                                   "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"a\\uD83D\"}",
                                   -1, NULL);
  second = _agui_event_parser_parse (parser,
                                    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\xF4\x8F\xB0\x80\"}",
                                    -1, NULL);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_cmpstr (agui_event_get_delta (first), ==, "a");
  /* The high half that found no low half is a replacement character */
  g_assert_cmpstr (agui_event_get_delta (second), ==, "\xEF\xBF\xBD\xF4\x8F\xB0\x80");
}

static void
test_flat_event_api (void)
{
  g_autoptr(AguiEvent) event = parse_ok ("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\","
                                         "\"role\":\"assistant\",\"timestamp\":1e3}", NULL);
  JsonObject *object;
  gint64 timestamp = 0;

  g_test_summary ("An event read without a tree answers every accessor as one built on a JsonObject");

  g_assert_cmpstr (agui_event_get_message_id (event), ==, "m");
  g_assert_cmpstr (agui_event_get_role (event), ==, "assistant");
  g_assert_null (agui_event_get_delta (event));
  g_assert_null (agui_event_get_metadata (event));
  g_assert_null (agui_event_get_member (event, "name"));
  g_assert_true (agui_event_has_member (event, "role"));
  g_assert_false (agui_event_has_member (event, "name"));
  g_assert_true (agui_event_get_timestamp (event, &timestamp));
  g_assert_cmpint (timestamp, ==, 1000);
  g_assert_cmpint (json_node_get_int (agui_event_get_member (event, "timestamp")), ==, 1000);

  object = agui_event_get_object (event);
  g_assert_true (object == agui_event_get_object (event));
  assert_event_json (event, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\","
                            "\"role\":\"assistant\",\"timestamp\":1000}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/event/cases-cover-all-types", test_event_cases_cover_all_types);

  for (guint i = 0; i < G_N_ELEMENTS (event_cases); i++)
    {
      g_autofree char *round_trip = g_strdup_printf ("/agui/event/round-trip/%s", event_cases[i].name);
      g_autofree char *required = g_strdup_printf ("/agui/event/required/%s", event_cases[i].name);

      g_test_add_data_func (round_trip, &event_cases[i], test_round_trip);
      g_test_add_data_func (required, &event_cases[i], test_required_members);
    }

  g_test_add_func ("/agui/event/invalid/types", test_failures);
  g_test_add_func ("/agui/event/invalid/agui-event-new", test_agui_event_new);
  g_test_add_func ("/agui/event/invalid/new-from-string", test_event_new_from_string);
  g_test_add_func ("/agui/event/integers", test_integers);
  g_test_add_func ("/agui/event/null/tolerated", test_nulls_tolerated);
  g_test_add_func ("/agui/event/null/rejected", test_nulls_rejected);
  g_test_add_func ("/agui/event/unknown/members", test_unknown_members);
  g_test_add_func ("/agui/event/unknown/variants", test_unknown_variants);
  g_test_add_func ("/agui/event/unknown/event-type", test_unknown_event_type);
  g_test_add_func ("/agui/event/parser/transport-errors", test_transport_errors);
  g_test_add_func ("/agui/event/parser/length", test_parse_with_length);
  g_test_add_func ("/agui/event/parser/node-unchanged", test_parse_node_leaves_input);
  g_test_add_func ("/agui/event/parser/value-as-text", test_parse_value_as_text);
  g_test_add_func ("/agui/event/compat/thinking", test_thinking_translation);
  g_test_add_func ("/agui/event/compat/binary-parts", test_binary_parts);
  g_test_add_func ("/agui/event/compat/tree/thinking", test_compat_tree_thinking);
  g_test_add_func ("/agui/event/compat/tree/nulls", test_compat_tree_nulls);
  g_test_add_func ("/agui/event/compat/tree/binary-parts", test_compat_tree_binary_parts);
  g_test_add_func ("/agui/event/surrogates/split", test_surrogates_split);
  g_test_add_func ("/agui/event/surrogates/streams", test_surrogates_streams);
  g_test_add_func ("/agui/event/surrogates/unpaired", test_surrogates_unpaired);
  g_test_add_func ("/agui/event/surrogates/at-end", test_surrogates_at_end);
  g_test_add_func ("/agui/event/surrogates/fixture", test_surrogates_fixture);
  g_test_add_func ("/agui/event/fixture-bad-types", test_fixture_bad_types);
  g_test_add_func ("/agui/event/limits/depth", test_depth_limit);
  g_test_add_func ("/agui/event/limits/numbers", test_numbers_exact);
  g_test_add_func ("/agui/event/limits/control-characters", test_control_characters);
  g_test_add_func ("/agui/event/surrogates/marker-literal", test_surrogate_marker_literal);
  g_test_add_func ("/agui/event/surrogates/marker-after-half", test_surrogate_marker_after_half);
  g_test_add_func ("/agui/event/flat", test_flat_event_api);
  g_test_add_func ("/agui/event/parser/plain-frames", test_plain_frames);
  g_test_add_func ("/agui/event/parser/patch-frames", test_patch_frames);
  add_fixture_tests ();

  return g_test_run ();
}
