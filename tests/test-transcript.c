/* test-transcript.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"

static const char all_roles[] =
  "["
  "{\"id\":\"s\",\"role\":\"system\",\"content\":\"Be brief.\"},"
  "{\"id\":\"d\",\"role\":\"developer\",\"content\":\"Use tools.\",\"name\":\"ops\"},"
  "{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Look\"},"
  "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://example.invalid/a.png\",\"mimeType\":\"image/png\"}}]},"
  "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"thinking\",\"encryptedValue\":\"opaque\"},"
  "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"Checking.\",\"toolCalls\":[{\"id\":\"tc\",\"type\":\"function\","
  "\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"},\"metadata\":{\"k\":1}}],\"metadata\":{\"model\":\"m\"}},"
  "{\"id\":\"t\",\"role\":\"tool\",\"toolCallId\":\"tc\",\"content\":\"42\",\"error\":\"partial\"},"
  "{\"id\":\"act\",\"role\":\"activity\",\"activityType\":\"plan\",\"content\":{\"steps\":[\"a\"]}},"
  "{\"id\":\"a2\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"tc2\",\"type\":\"function\","
  "\"function\":{\"name\":\"x\",\"arguments\":\"\"}}],\"subagentRunId\":\"sub\"}"
  "]";

static void
test_round_trip (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(JsonNode) input = json_from_string (all_roles, NULL);
  g_autoptr(JsonArray) output = NULL;
  g_autoptr(JsonNode) output_node = NULL;
  g_autoptr(AguiTranscript) again = agui_transcript_new ();
  g_autoptr(JsonArray) output2 = NULL;
  g_autoptr(JsonNode) output2_node = NULL;
  g_autoptr(GError) error = NULL;
  AguiToolCallPart *call;

  g_test_summary ("Loading AG-UI messages and projecting them back is stable");

  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (input), &error));
  g_assert_no_error (error);

  output = agui_transcript_to_messages (transcript, TRUE);
  output_node = json_node_init_array (json_node_alloc (), output);
  g_assert_true (json_node_equal (input, output_node));

  /* Activities never go back to the agent. */
  {
    g_autoptr(JsonArray) for_run = agui_transcript_to_messages (transcript, FALSE);

    g_assert_cmpuint (json_array_get_length (for_run), ==, json_array_get_length (output) - 1);
  }

  g_assert_true (agui_transcript_load_messages (again, output, &error));
  output2 = agui_transcript_to_messages (again, TRUE);
  output2_node = json_node_init_array (json_node_alloc (), output2);
  g_assert_true (json_node_equal (output_node, output2_node));

  /* Rows: system, developer, user, then one agent turn. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 4);
  call = agui_transcript_lookup_tool_call (transcript, "tc");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_FAILED);
  g_assert_cmpstr (agui_tool_call_part_get_result (call), ==, "42");
  call = agui_transcript_lookup_tool_call (transcript, "tc2");
  g_assert_cmpint (agui_tool_call_part_get_status (call), ==, AGUI_TOOL_CALL_AWAITING_RESULT);
}

static void
test_load_refuses_unknown_role (void)
{
  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();
  g_autoptr(JsonNode) good = json_from_string ("[{\"id\":\"u\",\"role\":\"user\",\"content\":\"hi\"}]", NULL);
  g_autoptr(JsonNode) bad = json_from_string ("[{\"id\":\"x\",\"role\":\"wizard\",\"content\":\"?\"}]", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (agui_transcript_load_messages (transcript, json_node_get_array (good), NULL));
  g_assert_false (agui_transcript_load_messages (transcript, json_node_get_array (bad), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
  /* Nothing changed. */
  g_assert_cmpuint (agui_transcript_get_n_ag_ui_messages (transcript), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/transcript/round-trip", test_round_trip);
  g_test_add_func ("/agui/transcript/load-refuses-unknown-role", test_load_refuses_unknown_role);

  return g_test_run ();
}
