/* agui-demo-agent-dashboard.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The dashboard scenario: an A2UI surface, and the answer to its button. */

#include "config.h"

#include "agui-demo-agent-private.h"

/* The dashboard: a small A2UI surface, in the v0.8 shapes the A2UI
 * middleware sends, so a newcomer sees generative UI with no server.
 * Its button comes back as forwardedProps.a2uiAction, and the answer
 * appends a dataModelUpdate to the same activity. */
#define DASHBOARD_SURFACE    "demo-dashboard"
#define DASHBOARD_MESSAGE_ID "a2ui-surface-" DASHBOARD_SURFACE
#define DASHBOARD_OPERATIONS \
  "[{\"surfaceUpdate\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"components\":[" \
  "{\"id\":\"root\",\"component\":{\"Card\":{\"child\":\"main\"}}}," \
  "{\"id\":\"main\",\"component\":{\"Column\":{\"children\":{\"explicitList\":" \
  "[\"title\",\"stats\",\"divider\",\"focus\",\"mood\",\"remind\",\"plan\",\"summary\"]}}}}," \
  "{\"id\":\"title\",\"component\":{\"Text\":{\"usageHint\":\"h2\",\"text\":{\"literalString\":\"Your day at a glance\"}}}}," \
  "{\"id\":\"stats\",\"component\":{\"Row\":{\"distribution\":\"spaceEvenly\",\"children\":{\"template\":" \
  "{\"componentId\":\"stat\",\"dataBinding\":\"/stats\"}}}}}," \
  "{\"id\":\"stat\",\"component\":{\"Column\":{\"alignment\":\"center\",\"children\":{\"explicitList\":" \
  "[\"stat-icon\",\"stat-value\",\"stat-label\"]}}}}," \
  "{\"id\":\"stat-icon\",\"component\":{\"Icon\":{\"name\":{\"path\":\"icon\"}}}}," \
  "{\"id\":\"stat-value\",\"component\":{\"Text\":{\"usageHint\":\"h1\",\"text\":{\"path\":\"value\"}}}}," \
  "{\"id\":\"stat-label\",\"component\":{\"Text\":{\"usageHint\":\"caption\",\"text\":{\"path\":\"label\"}}}}," \
  "{\"id\":\"divider\",\"component\":{\"Divider\":{}}}," \
  "{\"id\":\"focus\",\"component\":{\"Slider\":{\"label\":{\"literalString\":\"Hours of focus\"}," \
  "\"value\":{\"path\":\"/focus\"},\"minValue\":0,\"maxValue\":8}}}," \
  "{\"id\":\"mood\",\"component\":{\"MultipleChoice\":{\"selections\":{\"path\":\"/mood\"},\"maxAllowedSelections\":1," \
  "\"variant\":\"chips\",\"options\":[{\"label\":{\"literalString\":\"Calm\"},\"value\":\"calm\"}," \
  "{\"label\":{\"literalString\":\"Busy\"},\"value\":\"busy\"},{\"label\":{\"literalString\":\"Tired\"},\"value\":\"tired\"}]}}}," \
  "{\"id\":\"remind\",\"component\":{\"CheckBox\":{\"label\":{\"literalString\":\"Remind me to take breaks\"}," \
  "\"value\":{\"path\":\"/remind\"}}}}," \
  "{\"id\":\"plan-text\",\"component\":{\"Text\":{\"text\":{\"literalString\":\"Plan my day\"}}}}," \
  "{\"id\":\"plan\",\"component\":{\"Button\":{\"child\":\"plan-text\",\"primary\":true,\"action\":{\"name\":\"plan_day\"," \
  "\"context\":[{\"key\":\"focus\",\"value\":{\"path\":\"/focus\"}},{\"key\":\"mood\",\"value\":{\"path\":\"/mood\"}}," \
  "{\"key\":\"remind\",\"value\":{\"path\":\"/remind\"}}]}}}}," \
  "{\"id\":\"summary\",\"component\":{\"Text\":{\"usageHint\":\"caption\",\"text\":{\"path\":\"/summary\"}}}}]}}," \
  "{\"dataModelUpdate\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"contents\":[" \
  "{\"key\":\"stats\",\"valueMap\":[" \
  "{\"key\":\"0\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"event\"},{\"key\":\"value\",\"valueString\":\"3\"}," \
  "{\"key\":\"label\",\"valueString\":\"meetings\"}]}," \
  "{\"key\":\"1\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"check\"},{\"key\":\"value\",\"valueString\":\"7\"}," \
  "{\"key\":\"label\",\"valueString\":\"tasks\"}]}," \
  "{\"key\":\"2\",\"valueMap\":[{\"key\":\"icon\",\"valueString\":\"mail\"},{\"key\":\"value\",\"valueString\":\"12\"}," \
  "{\"key\":\"label\",\"valueString\":\"unread\"}]}]}," \
  "{\"key\":\"focus\",\"valueNumber\":3},{\"key\":\"mood\",\"valueArray\":[\"calm\"]}," \
  "{\"key\":\"remind\",\"valueBoolean\":true}," \
  "{\"key\":\"summary\",\"valueString\":\"Nothing planned yet.\"}]}}," \
  "{\"beginRendering\":{\"surfaceId\":\"" DASHBOARD_SURFACE "\",\"root\":\"root\"}}]"

void
_agui_demo_plan_dashboard (DemoRun *run)
{
  g_autofree char *message_id = g_uuid_string_random ();
  AguiJsonValue *members = _agui_demo_members ("messageId", DASHBOARD_MESSAGE_ID, "activityType", "a2ui-surface", NULL);
  AguiJsonDocObject *content;
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;

  _agui_demo_plan_text (run, message_id,
                        "Here is a small dashboard. It is **generative UI**: I sent it as A2UI operations "
                        "and Tandem drew it with its own widgets. Move the slider, pick a mood and press "
                        "**Plan my day**: your choices come back to me.");
  /* Our own constant: a parse failure is a bug here. */
  if (!_agui_json_doc_parse (DASHBOARD_OPERATIONS, -1, &operations, NULL))
    g_error ("The demo agent's dashboard is not valid JSON");
  content = _agui_json_doc_set_object (members->u.object, "content");
  _agui_json_object_set (content, "operations", &operations);
  _agui_json_doc_set_boolean (members->u.object, "replace", TRUE);
  _agui_demo_plan_event (run, 1, AGUI_EVENT_ACTIVITY_SNAPSHOT, members);
  _agui_demo_plan_run_succeeded (run);
}

AguiJsonValue *
_agui_demo_a2ui_user_action (const AguiJsonValue *input)
{
  return _agui_json_doc_get_object (_agui_json_doc_get_object (_agui_json_doc_get_object (input, "forwardedProps"),
                                                               "a2uiAction"),
                                    "userAction");
}

void
_agui_demo_plan_dashboard_answer (DemoRun             *run,
                                  const AguiJsonValue *user_action)
{
  g_autofree char *message_id = g_uuid_string_random ();
  g_autofree char *summary = NULL;
  g_autofree char *text = NULL;
  AguiJsonValue *context = _agui_json_doc_get_object (user_action, "context");
  AguiJsonValue *focus = _agui_json_doc_get_member (context, "focus");
  AguiJsonValue *remind = _agui_json_doc_get_member (context, "remind");
  AguiJsonValue *mood = _agui_json_doc_get_array (context, "mood");
  AguiJsonValue *first_mood = _agui_json_doc_get_length (mood) > 0 ? _agui_json_doc_get_element (mood, 0) : NULL;
  const char *mood_name = "calm";
  const char *name = _agui_json_doc_get_string (user_action, "name");
  double hours = 0;
  AguiJsonDocObject *patch_entry;
  AguiJsonDocObject *update;
  AguiJsonDocObject *entry;
  AguiJsonValue *members;

  if (g_strcmp0 (name, "plan_day") != 0)
    {
      text = g_strdup_printf ("You pressed “%s” on a surface, but I only know the dashboard's Plan my day.",
                              name ? name : "something");
      _agui_demo_plan_text (run, message_id, text);
      _agui_demo_plan_run_succeeded (run);
      return;
    }

  if (focus != NULL && focus->kind == AGUI_JSON_DOC_DOUBLE)
    hours = CLAMP (focus->u.number, 0, 8);
  else if (focus != NULL && focus->kind == AGUI_JSON_DOC_INT)
    hours = CLAMP ((double) focus->u.integer, 0, 8);
  if (first_mood != NULL && _agui_json_value_is_string (first_mood))
    mood_name = _agui_json_value_get_string (first_mood);

  summary = g_strdup_printf ("Planned: %.0f hours of focus for a %s day%s.", hours,
                             g_str_equal (mood_name, "busy") ? "busy" : g_str_equal (mood_name, "tired") ? "tired" : "calm",
                             remind != NULL && remind->kind == AGUI_JSON_DOC_BOOLEAN && remind->u.boolean
                               ? ", with reminders to take breaks" : "");
  /* ACTIVITY_DELTA appends a dataModelUpdate: the surface changes its
   * summary without being sent again. */
  members = _agui_demo_members ("messageId", DASHBOARD_MESSAGE_ID, "activityType", "a2ui-surface", NULL);
  patch_entry = _agui_json_doc_add_object (_agui_json_doc_set_array (members->u.object, "patch"));
  _agui_json_doc_set_string (patch_entry, "op", "add");
  _agui_json_doc_set_string (patch_entry, "path", "/operations/-");
  update = _agui_json_doc_set_object (_agui_json_doc_set_object (patch_entry, "value"), "dataModelUpdate");
  _agui_json_doc_set_string (update, "surfaceId", DASHBOARD_SURFACE);
  entry = _agui_json_doc_add_object (_agui_json_doc_set_array (update, "contents"));
  _agui_json_doc_set_string (entry, "key", "summary");
  _agui_json_doc_set_string (entry, "valueString", summary);
  _agui_demo_plan_event (run, 1, AGUI_EVENT_ACTIVITY_DELTA, members);

  text = g_strdup_printf ("Got it. %s I updated the dashboard: only its data changed, the card stayed.", summary);
  _agui_demo_plan_text (run, message_id, text);
  _agui_demo_plan_run_succeeded (run);
}
