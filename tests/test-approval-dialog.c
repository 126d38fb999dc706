/* test-approval-dialog.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "agui.h"
#include "agui-test-util.h"
#include "agui-interrupt-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"
#include "tandem-approval-dialog.h"
#include "tandem-schema-form.h"

#define TOOL_ARGUMENTS "{\"folder\":\"/tmp/a\",\"keepDays\":7,\"dryRun\":false,\"note\":\"<b>bold</b> & <i>\"}"

typedef struct
{
  GtkWindow      *parent;
  AguiReducer    *reducer;
  AguiTranscript *transcript;
  GAsyncResult   *result;
} Fixture;

static void
apply (AguiReducer *reducer,
       const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AguiEvent) event = agui_event_new_from_string (json, -1, &error);

  g_assert_no_error (error);
  _agui_reducer_apply (reducer, event);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);

  return node;
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = parse (json);

  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

/* As the transcript makes them from RUN_FINISHED or a stored row */
static AguiInterrupt *
new_interrupt (const char *json)
{
  g_autoptr(JsonObject) object = parse_object (json);

  return _agui_interrupt_new (object);
}

static void
assert_json_equal (JsonObject *object,
                   const char *expected)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonNode) expected_node = parse (expected);
  g_autofree char *actual = json_to_string (node, FALSE);

  if (!json_node_equal (node, expected_node))
    g_error ("Expected %s, got %s", expected, actual);
}

static void
set_up (Fixture       *f,
        gconstpointer  data)
{
  f->reducer = _agui_reducer_new (NULL);
  f->transcript = _agui_reducer_get_transcript (f->reducer);

  apply (f->reducer, "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}");
  apply (f->reducer, "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"clean_folder\"}");
  apply (f->reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":"
                     "\"{\\\"folder\\\":\\\"/tmp/a\\\",\\\"keepDays\\\":7,\"}");
  apply (f->reducer, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":"
                     "\"\\\"dryRun\\\":false,\\\"note\\\":\\\"<b>bold</b> & <i>\\\"}\"}");
  apply (f->reducer, "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}");
  g_assert_nonnull (agui_transcript_lookup_tool_call (f->transcript, "tc1"));

  f->parent = GTK_WINDOW (gtk_window_new ());
  g_object_ref (f->parent);
  gtk_window_present (f->parent);
}

static void
tear_down (Fixture       *f,
           gconstpointer  data)
{
  g_clear_object (&f->result);
  gtk_window_destroy (f->parent);
  g_clear_object (&f->parent);
  g_clear_object (&f->reducer);

  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
on_ask_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  g_assert_null (f->result);
  f->result = g_object_ref (result);
}

static TandemApprovalDialog *
ask (Fixture    *f,
     const char *interrupt_json)
{
  g_autoptr(AguiInterrupt) interrupt = new_interrupt (interrupt_json);
  TandemApprovalDialog *dialog;

  dialog = g_object_ref (tandem_approval_dialog_new (f->parent, f->transcript, interrupt));
  tandem_approval_dialog_ask_async (dialog, NULL, on_ask_cb, f);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  return dialog;
}

static JsonObject *
respond (Fixture              *f,
         TandemApprovalDialog *dialog,
         const char           *response)
{
  g_autoptr(GError) error = NULL;
  JsonObject *entry;

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), response);
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");

  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (entry);
  g_clear_object (&f->result);

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  return entry;
}

/* The response must be refused: nothing completes and the dialog stays. */
static void
respond_refused (Fixture              *f,
                 TandemApprovalDialog *dialog,
                 const char           *response)
{
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), response);
  /* The response is refused: nothing to wait for, so give a wrong answer
   * the time to come. */
  agui_test_wait_to_rule_out (200, "an answer to a refused response");
  g_assert_null (f->result);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *labels)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (labels, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, labels);
}

static GtkLabel *
find_label (GtkWidget  *root,
            const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_labels (root, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];

  return NULL;
}

static GtkLabel *
find_label_with_class (GtkWidget  *root,
                       const char *css_class)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_labels (root, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (labels->pdata[i], css_class))
      return labels->pdata[i];

  return NULL;
}

static void
collect_buttons (GtkWidget  *widget,
                 const char *label,
                 GPtrArray  *buttons)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    g_ptr_array_add (buttons, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_buttons (child, label, buttons);
}

/* Clicks the response button the person would see, the path on which
 * AdwMessageDialog closes the window before emitting the response. */
static void
click (TandemApprovalDialog *dialog,
       const char           *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect_buttons (GTK_WIDGET (dialog), label, buttons);
  g_assert_cmpuint (buttons->len, >, 0);

  for (guint i = 0; i < buttons->len; i++)
    {
      if (gtk_widget_get_mapped (buttons->pdata[i]))
        {
          g_assert_true (gtk_widget_is_sensitive (buttons->pdata[i]));
          g_signal_emit_by_name (buttons->pdata[i], "clicked");
          return;
        }
    }

  g_assert_not_reached ();
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect_buttons (root, label, buttons);

  return buttons->len > 0 ? buttons->pdata[0] : NULL;
}

static void
test_approve (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(AguiInterrupt) interrupt = NULL;
  g_autoptr(JsonObject) entry = NULL;
  GListModel *pending;

  g_test_summary ("Approve answers a pending tool-call interrupt with approved: true");

  apply (f->reducer, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"outcome\":{\"type\":\"interrupt\","
                     "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\","
                     "\"message\":\"Delete old files?\"}]}}");
  pending = agui_transcript_get_pending_interrupts (f->transcript);
  g_assert_cmpuint (g_list_model_get_n_items (pending), ==, 1);
  interrupt = g_list_model_get_item (pending, 0);

  dialog = g_object_ref (tandem_approval_dialog_new (f->parent, f->transcript, interrupt));
  tandem_approval_dialog_ask_async (dialog, NULL, on_ask_cb, f);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));

  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Approve tool call?");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "Delete old files?");
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "approve"));
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "deny"));
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "later"));
  g_assert_cmpstr (adw_message_dialog_get_close_response (ADW_MESSAGE_DIALOG (dialog)), ==, "later");
  g_assert_false (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "cancel"));
  g_assert_false (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "submit"));
  g_assert_false (gtk_window_get_modal (GTK_WINDOW (dialog)));
  /* One question: no "1 of 1". */
  g_assert_null (tandem_approval_dialog_get_position_text (dialog));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "approve"),
                   ==, ADW_RESPONSE_SUGGESTED);
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Tool: clean_folder"));
  /* Selectable, but Tab passes it by rather than select all of it */
  g_assert_true (gtk_label_get_selectable (find_label (GTK_WIDGET (dialog), "Tool: clean_folder")));
  g_assert_false (gtk_widget_get_focusable (GTK_WIDGET (find_label (GTK_WIDGET (dialog), "Tool: clean_folder"))));
  /* No editedArgs in the schema: no editing. */
  g_assert_null (tandem_approval_dialog_get_form (dialog));

  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i1\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}");
}

static void
test_deny (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;

  g_test_summary ("Deny is a resolved entry with approved: false");

  dialog = ask (f, "{\"id\":\"i2\",\"reason\":\"confirmation\",\"message\":\"Proceed?\"}");
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Confirmation needed");
  entry = respond (f, dialog, "deny");
  assert_json_equal (entry, "{\"interruptId\":\"i2\",\"status\":\"resolved\",\"payload\":{\"approved\":false}}");
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;

  g_test_summary ("Don't Answer is a cancelled entry without payload");

  dialog = ask (f, "{\"id\":\"i3\",\"reason\":\"input_required\",\"message\":\"Which folder?\"}");
  entry = respond (f, dialog, "cancel");
  assert_json_equal (entry, "{\"interruptId\":\"i3\",\"status\":\"cancelled\"}");
  g_assert_false (json_object_has_member (entry, "payload"));
}

/* Asks, closes the dialog as @close does, and checks that nothing was
 * answered: the task fails with CANCELLED and no entry. */
static void
assert_put_off (Fixture              *f,
                TandemApprovalDialog *dialog)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (entry);
  g_clear_object (&f->result);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
}

static void
test_escape (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;

  g_test_summary ("Escape closes the dialog to decide later: nothing is answered");

  dialog = ask (f, "{\"id\":\"i4\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}");

  /* What AdwMessageDialog binds Escape to. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  assert_put_off (f, dialog);

  /* A late response changes nothing either. */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  /* A late response must answer nothing: give a wrong answer the time to come. */
  agui_test_wait_to_rule_out (100, "an answer to a late response");
  g_assert_null (f->result);
}

static void
test_later (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;

  g_test_summary ("Later, on an input form too, answers nothing");

  dialog = ask (f, "{\"id\":\"i4b\",\"reason\":\"input_required\",\"message\":\"Name?\"}");
  click (dialog, "_Later");
  assert_put_off (f, dialog);
}

static void
test_enter_approves (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *focus;

  g_test_summary ("Focus starts on Approve, not on Edit Arguments: Enter approves");

  dialog = ask (f, "{\"id\":\"i4c\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\","
                   "\"responseSchema\":{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"},"
                   "\"editedArgs\":{\"type\":\"object\",\"properties\":{\"folder\":{\"type\":\"string\"}}}}}}");
  g_assert_nonnull (find_button (GTK_WIDGET (dialog), "_Edit Arguments"));

  focus = gtk_root_get_focus (GTK_ROOT (dialog));
  g_assert_nonnull (focus);
  g_assert_true (GTK_IS_BUTTON (focus));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "_Approve");

  /* What Enter does to the focused button. */
  gtk_widget_activate (focus);
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_no_error (error);
  assert_json_equal (entry, "{\"interruptId\":\"i4c\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}");
}

static void
test_position (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;

  g_test_summary ("The second of two questions says so");

  dialog = ask (f, "{\"id\":\"i4d\",\"reason\":\"confirmation\",\"message\":\"Sure?\"}");
  tandem_approval_dialog_set_position (dialog, 2, 2);
  g_assert_cmpstr (tandem_approval_dialog_get_position_text (dialog), ==, "Question 2 of 2");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Question 2 of 2"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_metadata_only (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  GtkLabel *label;

  g_test_summary ("A Mastra suspension with only metadata shows its tool, arguments and reason");

  dialog = ask (f, "{\"id\":\"i4e\",\"reason\":\"tool_call\",\"toolCallId\":\"call_archive_2\","
                   "\"metadata\":{\"mastra\":{\"toolName\":\"archive_files\",\"args\":{\"folder\":\"/srv/old\"},"
                   "\"suspendPayload\":{\"reason\":\"Archiving moves files off this disk\"}}}}");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Tool: archive_files"));
  g_assert_null (find_label (GTK_WIDGET (dialog), "Tool call call_archive_2"));
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "Archiving moves files off this disk");
  label = find_label_with_class (GTK_WIDGET (dialog), "tandem-approval-arguments");
  g_assert_nonnull (label);
  g_assert_nonnull (strstr (gtk_label_get_text (label), "/srv/old"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_unknown_metadata (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  GtkLabel *label;

  g_test_summary ("Metadata of no known shape is shown as JSON; the reason says what is asked");

  dialog = ask (f, "{\"id\":\"i4f\",\"reason\":\"confirmation\",\"metadata\":{\"budget\":5}}");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "The agent asks you to confirm before it goes on.");
  label = find_label_with_class (GTK_WIDGET (dialog), "tandem-approval-arguments");
  g_assert_nonnull (label);
  g_assert_nonnull (strstr (gtk_label_get_text (label), "\"budget\" : 5"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_bound_without_message (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;

  g_test_summary ("Without a message, the bound tool call says what is asked");

  dialog = ask (f, "{\"id\":\"i4g\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "The agent wants to run “clean_folder” and asks for your approval first.");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static const char edit_interrupt[] =
  "{\"id\":\"i5\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"Clean the folder?\","
  "\"responseSchema\":{\"type\":\"object\",\"properties\":{"
  "  \"approved\":{\"type\":\"boolean\"},"
  "  \"editedArgs\":{\"type\":\"object\",\"required\":[\"folder\"],\"properties\":{"
  "    \"folder\":{\"type\":\"string\",\"title\":\"Folder\"},"
  "    \"keepDays\":{\"type\":\"integer\",\"title\":\"Keep days\",\"minimum\":0},"
  "    \"dryRun\":{\"type\":\"boolean\",\"description\":\"Only report\"}}}},"
  "\"required\":[\"approved\"]}}";

static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  TandemSchemaForm *form;
  GtkWidget *folder;

  g_test_summary ("Approving while editing sends editedArgs with the change and the other arguments kept");

  dialog = ask (f, edit_interrupt);
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  g_assert_nonnull (form);
  g_assert_false (tandem_approval_dialog_get_editing (dialog));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Edit Arguments"));

  tandem_approval_dialog_set_editing (dialog, TRUE);
  g_assert_true (tandem_approval_dialog_get_editing (dialog));

  /* Pre-filled from the call's arguments. */
  folder = tandem_schema_form_get_input (form, "folder");
  g_assert_true (ADW_IS_ENTRY_ROW (folder));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (folder)), ==, "/tmp/a");
  g_assert_true (GTK_IS_SPIN_BUTTON (tandem_schema_form_get_input (form, "keepDays")));
  g_assert_true (GTK_IS_SWITCH (tandem_schema_form_get_input (form, "dryRun")));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (tandem_schema_form_get_row (form, "dryRun"))),
                   ==, "Only report");

  /* A required field emptied: approving is refused. */
  gtk_editable_set_text (GTK_EDITABLE (folder), "");
  respond_refused (f, dialog, "approve");
  g_assert_true (gtk_widget_has_css_class (tandem_schema_form_get_row (form, "folder"), "error"));
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "“Folder” is required");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "“Folder” is required"));

  gtk_editable_set_text (GTK_EDITABLE (folder), "/tmp/a");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tandem_schema_form_get_input (form, "keepDays")), 30);
  entry = respond (f, dialog, "approve");
  assert_json_equal (entry,
                     "{\"interruptId\":\"i5\",\"status\":\"resolved\",\"payload\":{\"approved\":true,"
                     "\"editedArgs\":{\"folder\":\"/tmp/a\",\"keepDays\":30,\"dryRun\":false,"
                     "\"note\":\"<b>bold</b> & <i>\"}}}");
}

static void
test_edit_not_editing (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  TandemSchemaForm *form;

  g_test_summary ("Changes in a hidden arguments form are not sent");

  dialog = ask (f, edit_interrupt);
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  tandem_approval_dialog_set_editing (dialog, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (form, "folder")), "/elsewhere");
  tandem_approval_dialog_set_editing (dialog, FALSE);

  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i5\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}");
}

static void
test_edit_json (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) shown = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autofree char *text = NULL;
  TandemSchemaForm *form;
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_test_summary ("editedArgs without properties is edited as JSON text");

  dialog = ask (f, "{\"id\":\"i6\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\","
                   "\"responseSchema\":{\"type\":\"object\",\"properties\":{"
                   "\"approved\":{\"type\":\"boolean\"},\"editedArgs\":{\"type\":\"object\"}}}}");
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  g_assert_true (tandem_schema_form_is_single (form));
  g_assert_true (GTK_IS_TEXT_VIEW (tandem_schema_form_get_input (form, NULL)));
  tandem_approval_dialog_set_editing (dialog, TRUE);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_schema_form_get_input (form, NULL)));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  shown = parse (text);
  arguments = parse (TOOL_ARGUMENTS);
  g_assert_true (json_node_equal (shown, arguments));

  gtk_text_buffer_set_text (buffer, "{\"folder\": ", -1);
  respond_refused (f, dialog, "approve");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "“Value” is not valid JSON"));

  gtk_text_buffer_set_text (buffer, "[1, 2]", -1);
  respond_refused (f, dialog, "approve");

  gtk_text_buffer_set_text (buffer, "{\"folder\": \"/x\"}", -1);
  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i6\",\"status\":\"resolved\","
                            "\"payload\":{\"approved\":true,\"editedArgs\":{\"folder\":\"/x\"}}}");
}

static const char input_interrupt[] =
  "{\"id\":\"i7\",\"reason\":\"input_required\",\"message\":\"Where should the backup go?\","
  "\"responseSchema\":{\"type\":\"object\",\"required\":[\"folder\",\"mode\"],\"properties\":{"
  "  \"folder\":{\"type\":\"string\",\"title\":\"Folder\",\"format\":\"uri\"},"
  "  \"mode\":{\"type\":\"string\",\"title\":\"Mode\",\"enum\":[\"fast\",\"safe\"]},"
  "  \"keepDays\":{\"type\":\"integer\",\"title\":\"Keep days\",\"minimum\":1,\"maximum\":365,\"default\":7},"
  "  \"ratio\":{\"type\":\"number\",\"title\":\"Ratio\"},"
  "  \"notify\":{\"type\":\"boolean\",\"title\":\"Notify\"},"
  "  \"comment\":{\"type\":\"string\"}}}}";

static void
test_input_required (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;
  TandemSchemaForm *form;
  GtkWidget *keep_days;
  GtkWidget *ratio;

  g_test_summary ("input_required gets a form; required and wrong-typed fields block Submit");

  dialog = ask (f, input_interrupt);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "The agent needs your input");
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "submit"));
  g_assert_false (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "approve"));

  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  g_assert_nonnull (form);
  g_assert_true (ADW_IS_ENTRY_ROW (tandem_schema_form_get_input (form, "folder")));
  g_assert_true (ADW_IS_COMBO_ROW (tandem_schema_form_get_input (form, "mode")));
  keep_days = tandem_schema_form_get_input (form, "keepDays");
  ratio = tandem_schema_form_get_input (form, "ratio");
  g_assert_true (GTK_IS_SPIN_BUTTON (keep_days));
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (keep_days)), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_lower (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (keep_days))), ==, 1);
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (keep_days))), ==, 365);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (keep_days)), ==, "7");
  g_assert_true (GTK_IS_SPIN_BUTTON (ratio));
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (ratio)), >, 0);
  g_assert_true (GTK_IS_SWITCH (tandem_schema_form_get_input (form, "notify")));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (tandem_schema_form_get_row (form, "comment"))),
                   ==, "comment");

  /* Nothing filled in: the first required field is named. */
  respond_refused (f, dialog, "submit");
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_cmpstr (error->message, ==, "“Folder” is required");
  g_clear_error (&error);
  g_assert_true (gtk_widget_has_css_class (tandem_schema_form_get_row (form, "folder"), "error"));
  g_assert_true (gtk_widget_has_css_class (tandem_schema_form_get_row (form, "mode"), "error"));

  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (form, "folder")), "/srv/backup");
  g_assert_false (gtk_widget_has_css_class (tandem_schema_form_get_row (form, "folder"), "error"));
  respond_refused (f, dialog, "submit");
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_cmpstr (error->message, ==, "“Mode” is required");
  g_clear_error (&error);

  /* The placeholder comes first, then the enum values in order. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (tandem_schema_form_get_input (form, "mode")), 2);

  /* Wrong types are rejected. */
  gtk_editable_set_text (GTK_EDITABLE (keep_days), "2.5");
  respond_refused (f, dialog, "submit");
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_cmpstr (error->message, ==, "“Keep days” must be a whole number");
  g_clear_error (&error);

  gtk_editable_set_text (GTK_EDITABLE (keep_days), "400");
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_cmpstr (error->message, ==, "“Keep days” must be at most 365");
  g_clear_error (&error);

  gtk_editable_set_text (GTK_EDITABLE (keep_days), "30");
  gtk_editable_set_text (GTK_EDITABLE (ratio), "lots");
  respond_refused (f, dialog, "submit");
  g_assert_false (tandem_schema_form_validate (form, &error));
  g_assert_cmpstr (error->message, ==, "“Ratio” must be a number");
  g_clear_error (&error);

  gtk_editable_set_text (GTK_EDITABLE (ratio), "0.5");
  gtk_switch_set_active (GTK_SWITCH (tandem_schema_form_get_input (form, "notify")), TRUE);
  g_assert_true (tandem_schema_form_validate (form, &error));
  g_assert_no_error (error);

  /* The optional, empty comment is left out. */
  entry = respond (f, dialog, "submit");
  assert_json_equal (entry, "{\"interruptId\":\"i7\",\"status\":\"resolved\",\"payload\":"
                            "{\"folder\":\"/srv/backup\",\"mode\":\"safe\",\"keepDays\":30,"
                            "\"ratio\":0.5,\"notify\":true}}");
}

static void
test_buttons (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  TandemSchemaForm *form;

  g_test_summary ("Clicking Submit on an invalid form keeps the dialog open; a valid one answers");

  dialog = ask (f, "{\"id\":\"i19\",\"reason\":\"input_required\",\"responseSchema\":{\"type\":\"object\","
                   "\"required\":[\"folder\"],\"properties\":{\"folder\":{\"type\":\"string\",\"title\":\"Folder\"}}}}");
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));

  click (dialog, "_Submit");
  /* Refused for the missing field: give a wrong answer the time to come. */
  agui_test_wait_to_rule_out (200, "an answer to a refused response");
  g_assert_null (f->result);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "“Folder” is required"));

  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (form, "folder")), "/srv");
  click (dialog, "_Submit");
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_no_error (error);
  assert_json_equal (entry, "{\"interruptId\":\"i19\",\"status\":\"resolved\",\"payload\":{\"folder\":\"/srv\"}}");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
}

static void
test_button_deny (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Clicking Deny answers approved: false and closes the dialog");

  dialog = ask (f, "{\"id\":\"i20\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}");
  click (dialog, "_Deny");
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_no_error (error);
  assert_json_equal (entry, "{\"interruptId\":\"i20\",\"status\":\"resolved\",\"payload\":{\"approved\":false}}");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
}

static void
test_form_defaults (void)
{
  g_autoptr(JsonObject) schema = NULL;
  g_autoptr(JsonNode) initial = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *form;

  g_test_summary ("Defaults and initial values pre-fill the form; nested values are JSON text");

  schema = parse_object ("{\"type\":\"object\",\"properties\":{"
                         "\"name\":{\"type\":\"string\",\"default\":\"a\"},"
                         "\"level\":{\"type\":\"string\",\"enum\":[\"low\",\"high\"],\"default\":\"high\"},"
                         "\"count\":{\"type\":[\"integer\",\"null\"],\"default\":3},"
                         "\"scale\":{\"type\":\"number\",\"default\":1.25},"
                         "\"on\":{\"type\":\"boolean\",\"default\":true},"
                         "\"limit\":{\"type\":\"integer\"},"
                         "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                         "\"options\":{\"type\":\"object\",\"default\":{\"x\":1}}}}");
  initial = parse ("{\"name\":\"b\",\"tags\":[\"t\"]}");
  form = g_object_ref_sink (tandem_schema_form_new (schema, initial));

  g_assert_true (GTK_IS_LIST_BOX (gtk_widget_get_first_child (form)));
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_first_child (form), "boxed-list"));
  g_assert_true (ADW_IS_ENTRY_ROW (tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (form), "options")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (form), "limit"))),
                   ==, "");

  g_assert_true (tandem_schema_form_validate (TANDEM_SCHEMA_FORM (form), &error));
  g_assert_no_error (error);
  value = tandem_schema_form_get_value (TANDEM_SCHEMA_FORM (form));
  expected = parse ("{\"name\":\"b\",\"level\":\"high\",\"count\":3,\"scale\":1.25,\"on\":true,"
                    "\"tags\":[\"t\"],\"options\":{\"x\":1}}");
  g_assert_true (json_node_equal (value, expected));

  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (form), "options")), "{x}");
  g_assert_false (tandem_schema_form_validate (TANDEM_SCHEMA_FORM (form), &error));
  g_assert_cmpstr (error->message, ==, "“options” is not valid JSON");
  g_clear_error (&error);

  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (form), "options")), "[]");
  g_assert_false (tandem_schema_form_validate (TANDEM_SCHEMA_FORM (form), &error));
  g_assert_cmpstr (error->message, ==, "“options” must be a JSON object");
  g_clear_error (&error);

  g_object_unref (form);
}

static void
test_form_enum_initial (void)
{
  g_autoptr(JsonObject) schema = NULL;
  g_autoptr(JsonNode) initial = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *form;
  GtkWidget *input;

  g_test_summary ("An enum pre-fills a known value, and an optional enum can be left unset");

  schema = parse_object ("{\"type\":\"object\",\"required\":[\"size\"],\"properties\":{"
                         "\"size\":{\"enum\":[1,2,3],\"title\":\"Size\"},"
                         "\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"blue\"]}}}");
  initial = parse ("{\"size\":2,\"color\":\"green\"}");
  form = g_object_ref_sink (tandem_schema_form_new (schema, initial));

  input = tandem_schema_form_get_input (TANDEM_SCHEMA_FORM (form), "size");
  g_assert_true (ADW_IS_COMBO_ROW (input));
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (input))), ==, 3);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (input)), ==, 1);

  g_assert_true (tandem_schema_form_validate (TANDEM_SCHEMA_FORM (form), &error));
  g_assert_no_error (error);
  value = tandem_schema_form_get_value (TANDEM_SCHEMA_FORM (form));
  expected = parse ("{\"size\":2}");
  g_assert_true (json_node_equal (value, expected));

  g_object_unref (form);
}

static void
test_form_single (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  TandemSchemaForm *form;
  GtkWidget *input;

  g_test_summary ("A bare non-object response schema is one field and the payload is its value");

  dialog = ask (f, "{\"id\":\"i8\",\"reason\":\"acme:count\","
                   "\"responseSchema\":{\"type\":\"integer\",\"title\":\"Count\"}}");
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "The agent needs a response");
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  g_assert_true (tandem_schema_form_is_single (form));
  input = tandem_schema_form_get_input (form, NULL);
  g_assert_true (GTK_IS_SPIN_BUTTON (input));

  respond_refused (f, dialog, "submit");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "“Count” is required"));
  respond_refused (f, dialog, "approve");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (input), 3);
  entry = respond (f, dialog, "submit");
  assert_json_equal (entry, "{\"interruptId\":\"i8\",\"status\":\"resolved\",\"payload\":3}");
}

static void
test_input_without_schema (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  TandemSchemaForm *form;

  g_test_summary ("input_required without a schema asks for text");

  dialog = ask (f, "{\"id\":\"i9\",\"reason\":\"input_required\",\"message\":\"Name?\"}");
  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  gtk_editable_set_text (GTK_EDITABLE (tandem_schema_form_get_input (form, NULL)), "Ada");
  entry = respond (f, dialog, "submit");
  assert_json_equal (entry, "{\"interruptId\":\"i9\",\"status\":\"resolved\",\"payload\":\"Ada\"}");
}

static void
test_custom_reason (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;

  g_test_summary ("An unknown reason without a schema is asked as an approval");

  dialog = ask (f, "{\"id\":\"i10\",\"reason\":\"acme:budget\",\"message\":\"Spend $5?\"}");
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "The agent asks for approval");
  respond_refused (f, dialog, "submit");
  respond_refused (f, dialog, "bogus");
  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i10\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}");
}

static void
test_expired (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  AdwMessageDialog *message_dialog;

  g_test_summary ("An expired interrupt can only be cancelled; a forced answer is cancelled");

  dialog = ask (f, "{\"id\":\"i11\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\","
                   "\"expiresAt\":\"2001-02-03T04:05:06Z\",\"responseSchema\":{\"type\":\"object\","
                   "\"properties\":{\"approved\":{\"type\":\"boolean\"},\"editedArgs\":{\"type\":\"object\"}}}}");
  message_dialog = ADW_MESSAGE_DIALOG (dialog);
  g_assert_true (tandem_approval_dialog_get_expired (dialog));
  g_assert_false (adw_message_dialog_get_response_enabled (message_dialog, "approve"));
  g_assert_false (adw_message_dialog_get_response_enabled (message_dialog, "deny"));
  g_assert_true (adw_message_dialog_get_response_enabled (message_dialog, "cancel"));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "This request has expired"));

  tandem_approval_dialog_set_editing (dialog, TRUE);
  g_assert_false (tandem_approval_dialog_get_editing (dialog));

  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i11\",\"status\":\"cancelled\"}");
}

static char *
iso8601_from_now (GTimeSpan offset)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) then = g_date_time_add (now, offset);

  return g_date_time_format_iso8601 (then);
}

static void
test_expires_while_open (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *expires = iso8601_from_now (1500 * G_TIME_SPAN_MILLISECOND);
  g_autofree char *json = NULL;

  g_test_summary ("The countdown disables Submit when the interrupt expires");

  json = g_strdup_printf ("{\"id\":\"i12\",\"reason\":\"input_required\",\"expiresAt\":\"%s\","
                          "\"responseSchema\":{\"type\":\"string\",\"title\":\"Answer\"}}", expires);
  dialog = ask (f, json);
  g_assert_false (tandem_approval_dialog_get_expired (dialog));
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "submit"));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Expires in 2 seconds"));

  agui_test_wait_until (!adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "submit"),
                        "the countdown disabled Submit at the expiry");
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "This request has expired"));

  entry = respond (f, dialog, "cancel");
  assert_json_equal (entry, "{\"interruptId\":\"i12\",\"status\":\"cancelled\"}");
}

static void
test_expires_at_answer (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *expires = iso8601_from_now (300 * G_TIME_SPAN_MILLISECOND);
  g_autofree char *json = NULL;

  g_test_summary ("Expiry is checked when the answer is given, not only by the countdown");

  json = g_strdup_printf ("{\"id\":\"i13\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"expiresAt\":\"%s\"}",
                          expires);
  dialog = ask (f, json);
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "approve"));

  /* Without spinning the main loop the countdown cannot have run. */
  g_usleep (400 * G_TIME_SPAN_MILLISECOND);
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "approve"));

  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i13\",\"status\":\"cancelled\"}");
}

static void
test_expiry_unparseable (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;

  g_test_summary ("An unparseable expiresAt never expires");

  dialog = ask (f, "{\"id\":\"i14\",\"reason\":\"tool_call\",\"expiresAt\":\"next tuesday\"}");
  g_assert_false (tandem_approval_dialog_get_expired (dialog));
  entry = respond (f, dialog, "approve");
  assert_json_equal (entry, "{\"interruptId\":\"i14\",\"status\":\"resolved\",\"payload\":{\"approved\":true}}");
}

static void
test_markup_literal (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonNode) shown = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  const char *message = "<b>Delete</b> & <span foreground='red'>everything</span> <unclosed";
  g_autofree char *json = NULL;
  g_autofree char *escaped = NULL;
  GtkLabel *label;
  TandemSchemaForm *form;
  GtkWidget *row;

  g_test_summary ("Markup in the message, the arguments and schema titles is shown literally");

  escaped = g_strescape (message, NULL);
  json = g_strdup_printf ("{\"id\":\"i15\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"%s\","
                          "\"responseSchema\":{\"type\":\"object\",\"properties\":{\"editedArgs\":{\"type\":\"object\","
                          "\"properties\":{\"folder\":{\"type\":\"string\",\"title\":\"<b>Folder</b>\","
                          "\"description\":\"<i>where</i> & how\"}}}}}}",
                          escaped);
  dialog = ask (f, json);

  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, message);
  g_assert_false (adw_message_dialog_get_body_use_markup (ADW_MESSAGE_DIALOG (dialog)));
  label = find_label (GTK_WIDGET (dialog), message);
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (label));

  label = find_label_with_class (GTK_WIDGET (dialog), "tandem-approval-arguments");
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_true (gtk_label_get_selectable (label));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "monospace"));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "<b>bold</b> & <i>"));
  g_assert_nonnull (strchr (gtk_label_get_text (label), '\n'));
  shown = parse (gtk_label_get_text (label));
  arguments = parse (TOOL_ARGUMENTS);
  g_assert_true (json_node_equal (shown, arguments));

  form = TANDEM_SCHEMA_FORM (tandem_approval_dialog_get_form (dialog));
  row = tandem_schema_form_get_row (form, "folder");
  g_assert_false (adw_preferences_row_get_use_markup (ADW_PREFERENCES_ROW (row)));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "<b>Folder</b>");
  g_assert_nonnull (find_label (row, "<b>Folder</b>"));

  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_cancellable (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(AguiInterrupt) interrupt = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("Cancelling closes the dialog and fails with G_IO_ERROR_CANCELLED");

  interrupt = new_interrupt ("{\"id\":\"i16\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\"}");
  dialog = g_object_ref (tandem_approval_dialog_new (f->parent, f->transcript, interrupt));
  tandem_approval_dialog_ask_async (dialog, cancellable, on_ask_cb, f);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  g_cancellable_cancel (cancellable);
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (entry);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  /* A late response changes nothing. */
  g_clear_object (&f->result);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "approve");
  /* A late response must answer nothing: give a wrong answer the time to come. */
  agui_test_wait_to_rule_out (100, "an answer to a late response");
  g_assert_null (f->result);
}

static void
test_cancelled_before (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(AguiInterrupt) interrupt = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("An already cancelled cancellable fails without showing the dialog");

  interrupt = new_interrupt ("{\"id\":\"i17\",\"reason\":\"tool_call\"}");
  dialog = g_object_ref (tandem_approval_dialog_new (f->parent, f->transcript, interrupt));
  g_cancellable_cancel (cancellable);
  tandem_approval_dialog_ask_async (dialog, cancellable, on_ask_cb, f);
  agui_test_wait_until (f->result != NULL, "the cancelled ask failed");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (entry);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
}

static void
test_destroyed (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TandemApprovalDialog) dialog = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A dialog destroyed without an answer (the app quits) answers nothing");

  dialog = ask (f, "{\"id\":\"i18\",\"reason\":\"confirmation\"}");
  gtk_window_destroy (GTK_WINDOW (dialog));
  agui_test_wait_until (f->result != NULL, "the dialog gave its answer");
  entry = tandem_approval_dialog_ask_finish (dialog, f->result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (entry);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init() leaves GTK's own warnings non-fatal; a warning is a bug. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  adw_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, set_up, func, tear_down)
  ADD ("/approval-dialog/approve", test_approve);
  ADD ("/approval-dialog/deny", test_deny);
  ADD ("/approval-dialog/cancel", test_cancel);
  ADD ("/approval-dialog/escape", test_escape);
  ADD ("/approval-dialog/later", test_later);
  ADD ("/approval-dialog/enter-approves", test_enter_approves);
  ADD ("/approval-dialog/position", test_position);
  ADD ("/approval-dialog/metadata-only", test_metadata_only);
  ADD ("/approval-dialog/unknown-metadata", test_unknown_metadata);
  ADD ("/approval-dialog/bound-without-message", test_bound_without_message);
  ADD ("/approval-dialog/edit", test_edit);
  ADD ("/approval-dialog/edit-not-editing", test_edit_not_editing);
  ADD ("/approval-dialog/edit-json", test_edit_json);
  ADD ("/approval-dialog/input-required", test_input_required);
  ADD ("/approval-dialog/input-without-schema", test_input_without_schema);
  ADD ("/approval-dialog/single-field", test_form_single);
  ADD ("/approval-dialog/custom-reason", test_custom_reason);
  ADD ("/approval-dialog/expired", test_expired);
  ADD ("/approval-dialog/expires-while-open", test_expires_while_open);
  ADD ("/approval-dialog/expires-at-answer", test_expires_at_answer);
  ADD ("/approval-dialog/expiry-unparseable", test_expiry_unparseable);
  ADD ("/approval-dialog/markup-literal", test_markup_literal);
  ADD ("/approval-dialog/cancellable", test_cancellable);
  ADD ("/approval-dialog/cancelled-before", test_cancelled_before);
  ADD ("/approval-dialog/destroyed", test_destroyed);
  ADD ("/approval-dialog/buttons", test_buttons);
  ADD ("/approval-dialog/button-deny", test_button_deny);
#undef ADD
  g_test_add_func ("/schema-form/defaults", test_form_defaults);
  g_test_add_func ("/schema-form/enum-initial", test_form_enum_initial);

  return g_test_run ();
}
