/* tandem-approval-dialog.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-interrupt-description-private.h"
#include "agui-interrupt-private.h"

#include "tandem-approval-dialog.h"
#include "tandem-schema-form.h"

/**
 * TandemApprovalDialog:
 *
 * Asks the person to answer one AG-UI interrupt and produces its
 * `ResumeEntry`.
 *
 * The dialog is never modal: the person may read the conversation, switch
 * to another or quit while it is open. Closing it (Escape, the close
 * button, the window going away) is "decide later": nothing is answered,
 * and [method@Tandem.ApprovalDialog.ask_finish] fails with
 * %G_IO_ERROR_CANCELLED, so the question stays open for another time.
 *
 * An interrupt whose `responseSchema` is absent or has the approval shape
 * (`approved` or `editedArgs` among its properties) gets the responses
 * `later`, `deny` and `approve`; `editedArgs` adds an "Edit arguments"
 * toggle that reveals a [class@Tandem.SchemaForm] pre-filled with the tool
 * call's arguments. Any other interrupt gets a form for its `responseSchema`
 * (a text field for `input_required` without one) and the responses
 * `later`, `cancel` and `submit`. Focus starts on the primary answer, so
 * Enter approves (or submits).
 *
 * What is asked comes from the interrupt's `message`; without one, from
 * the tool call it is bound to, else from its `metadata` (known shapes
 * such as Mastra's `metadata.mastra` read as a tool and its arguments,
 * anything else shown as JSON), else from its `reason`.
 *
 * | Response | Entry |
 * | --- | --- |
 * | `approve` | `{"status": "resolved", "payload": {"approved": true}}`, plus `editedArgs` while editing |
 * | `deny` | `{"status": "resolved", "payload": {"approved": false}}` |
 * | `submit` | `{"status": "resolved", "payload": <the form's value>}` |
 * | `cancel` | `{"status": "cancelled"}` |
 *
 * Once `expiresAt` has passed, every response but `later` and `cancel`
 * (offered then as Dismiss) is disabled and any answer becomes `cancelled`.
 */

#define RESPONSE_APPROVE "approve"
#define RESPONSE_DENY    "deny"
#define RESPONSE_SUBMIT  "submit"
#define RESPONSE_CANCEL  "cancel"
#define RESPONSE_LATER   "later"

#define CONVERSATION_MAX_CHARS 40

struct _TandemApprovalDialog
{
  AdwMessageDialog  parent_instance;

  AguiTranscript   *transcript;
  AguiInterrupt    *interrupt;
  JsonNode         *arguments;
  GDateTime        *expires_at;
  GTask            *task;
  GSource          *cancelled_source;

  GtkWidget        *edit_button;
  GtkWidget        *edit_revealer;
  GtkWidget        *form;
  GtkWidget        *error_label;
  GtkWidget        *expiry_label;
  GtkWidget        *position_label;
  GtkWidget        *arguments_label;
  char             *conversation;
  char             *arguments_text;

  guint             expiry_timeout_id;
  guint             approval : 1;
  guint             expired : 1;
  guint             finished : 1;
  guint             in_close_request : 1;
};

G_DEFINE_FINAL_TYPE (TandemApprovalDialog, tandem_approval_dialog, ADW_TYPE_MESSAGE_DIALOG)

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
  return node_get_object (json_object_get_member (object, member));
}

static JsonObject *
schema_get_property (JsonObject *schema,
                     const char *name)
{
  JsonObject *properties;

  if (schema == NULL || !(properties = object_get_object (schema, "properties")))
    return NULL;

  if (!json_object_has_member (properties, name))
    return NULL;

  return object_get_object (properties, name);
}

static const char *heading_for_reason (const char *reason,
                                      gboolean    approval);

/* Like a save dialog naming its document, the heading names the
 * conversation that asks: the dialog is not modal, and several
 * conversations may wait at once. */
static char *
dup_heading (const char *reason,
             gboolean    approval,
             const char *conversation)
{
  if (conversation == NULL)
    return g_strdup (heading_for_reason (reason, approval));

  /* Translators: %s is the title of a conversation */
  if (g_strcmp0 (reason, "tool_call") == 0 && approval)
    return g_strdup_printf (_("Approve tool call in “%s”?"), conversation);
  /* Translators: %s is the title of a conversation */
  if (g_strcmp0 (reason, "confirmation") == 0 && approval)
    return g_strdup_printf (_("Confirmation needed in “%s”"), conversation);
  /* Translators: %s is the title of a conversation */
  if (g_strcmp0 (reason, "input_required") == 0)
    return g_strdup_printf (_("The agent in “%s” needs your input"), conversation);

  return g_strdup_printf (approval
                          /* Translators: %s is the title of a conversation */
                          ? _("The agent in “%s” asks for approval")
                          /* Translators: %s is the title of a conversation */
                          : _("The agent in “%s” needs a response"),
                          conversation);
}

static const char *
heading_for_reason (const char *reason,
                    gboolean    approval)
{
  if (g_strcmp0 (reason, "tool_call") == 0 && approval)
    return _("Approve tool call?");
  if (g_strcmp0 (reason, "confirmation") == 0 && approval)
    return _("Confirmation needed");
  if (g_strcmp0 (reason, "input_required") == 0)
    return _("The agent needs your input");

  return approval ? _("The agent asks for approval") : _("The agent needs a response");
}

static gboolean
tandem_approval_dialog_is_expired_now (TandemApprovalDialog *self)
{
  g_autoptr(GDateTime) now = NULL;

  if (self->expires_at == NULL)
    return FALSE;

  now = g_date_time_new_now_utc ();

  return g_date_time_compare (now, self->expires_at) >= 0;
}

static void
tandem_approval_dialog_set_response_available (TandemApprovalDialog *self,
                                               const char           *response,
                                               gboolean              enabled)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (self);

  if (adw_message_dialog_has_response (dialog, response))
    adw_message_dialog_set_response_enabled (dialog, response, enabled);
}

static void
tandem_approval_dialog_mark_expired (TandemApprovalDialog *self)
{
  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));

  g_clear_handle_id (&self->expiry_timeout_id, g_source_remove);

  if (self->expired)
    return;

  self->expired = TRUE;

  tandem_approval_dialog_set_response_available (self, RESPONSE_APPROVE, FALSE);
  tandem_approval_dialog_set_response_available (self, RESPONSE_DENY, FALSE);
  tandem_approval_dialog_set_response_available (self, RESPONSE_SUBMIT, FALSE);
  if (!adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (self), RESPONSE_CANCEL))
    adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (self), RESPONSE_CANCEL, _("_Dismiss"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (self), RESPONSE_CANCEL);

  if (self->edit_button != NULL)
    gtk_widget_set_sensitive (self->edit_button, FALSE);
  if (self->form != NULL)
    gtk_widget_set_sensitive (self->form, FALSE);
  gtk_widget_set_visible (self->error_label, FALSE);

  gtk_label_set_text (GTK_LABEL (self->expiry_label), _("This request has expired"));
  gtk_widget_remove_css_class (self->expiry_label, "dim-label");
  gtk_widget_add_css_class (self->expiry_label, "error");
  gtk_widget_set_visible (self->expiry_label, TRUE);
}

static gboolean on_expiry_timeout_cb (gpointer user_data);

static void
tandem_approval_dialog_update_expiry (TandemApprovalDialog *self)
{
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *formatted = NULL;
  g_autofree char *text = NULL;
  GTimeSpan remaining;
  GTimeSpan wait;

  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));

  if (self->expires_at == NULL)
    return;

  now = g_date_time_new_now_utc ();
  remaining = g_date_time_difference (self->expires_at, now);

  if (remaining <= 0)
    {
      tandem_approval_dialog_mark_expired (self);
      return;
    }

  local = g_date_time_to_local (self->expires_at);

  if (remaining < G_TIME_SPAN_MINUTE)
    {
      int seconds = (int) ((remaining + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND);

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Expires in %d second", "Expires in %d seconds", seconds),
                              seconds);
    }
  else if (remaining < G_TIME_SPAN_DAY)
    {
      /* Translators: a time of day, see g_date_time_format() */
      formatted = g_date_time_format (local, _("%H:%M"));
      /* Translators: %s is a time of day */
      text = g_strdup_printf (_("Expires at %s"), formatted);
    }
  else
    {
      /* Translators: a date and time, see g_date_time_format() */
      formatted = g_date_time_format (local, _("%x %H:%M"));
      /* Translators: %s is a date and time */
      text = g_strdup_printf (_("Expires on %s"), formatted);
    }

  gtk_label_set_text (GTK_LABEL (self->expiry_label), text);
  gtk_widget_set_visible (self->expiry_label, TRUE);

  /* Woken only when the text changes: once a second in the last minute,
   * else when the date, then the minute, countdown begins. */
  if (remaining > G_TIME_SPAN_DAY)
    wait = remaining - G_TIME_SPAN_DAY + 1;
  else if (remaining >= G_TIME_SPAN_MINUTE)
    wait = remaining - G_TIME_SPAN_MINUTE + 1;
  else
    wait = (remaining - 1) % G_TIME_SPAN_SECOND + 1;

  wait = (wait + G_TIME_SPAN_MILLISECOND - 1) / G_TIME_SPAN_MILLISECOND;
  g_clear_handle_id (&self->expiry_timeout_id, g_source_remove);
  self->expiry_timeout_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) MIN (wait, (GTimeSpan) G_MAXUINT),
                                                on_expiry_timeout_cb, self, NULL);
}

static gboolean
on_expiry_timeout_cb (gpointer user_data)
{
  TandemApprovalDialog *self = user_data;

  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));

  self->expiry_timeout_id = 0;
  tandem_approval_dialog_update_expiry (self);

  return G_SOURCE_REMOVE;
}

static JsonObject *
new_entry (TandemApprovalDialog *self,
           const char           *status,
           JsonNode             *payload)
{
  JsonObject *entry = json_object_new ();
  const char *id = agui_interrupt_get_id (self->interrupt);

  json_object_set_string_member (entry, "interruptId", id ? id : "");
  json_object_set_string_member (entry, "status", status);
  if (payload != NULL)
    json_object_set_member (entry, "payload", payload);

  return entry;
}

static void
tandem_approval_dialog_close (TandemApprovalDialog *self)
{
  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));
  g_assert (self->finished);

  /* Inside close-request, returning FALSE lets GTK destroy the window. */
  if (!self->in_close_request)
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
tandem_approval_dialog_stop (TandemApprovalDialog *self)
{
  self->finished = TRUE;
  g_clear_handle_id (&self->expiry_timeout_id, g_source_remove);
  if (self->cancelled_source != NULL)
    {
      g_source_destroy (self->cancelled_source);
      g_clear_pointer (&self->cancelled_source, g_source_unref);
    }
}

static void
tandem_approval_dialog_finish (TandemApprovalDialog *self,
                               JsonObject           *entry)
{
  g_autoptr(GTask) task = NULL;

  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));
  g_assert (entry != NULL);

  tandem_approval_dialog_stop (self);

  if ((task = g_steal_pointer (&self->task)))
    g_task_return_pointer (task, entry, (GDestroyNotify) json_object_unref);
  else
    json_object_unref (entry);
}

/* Nothing is answered: the question stays open for another time. */
static void
tandem_approval_dialog_postpone (TandemApprovalDialog *self)
{
  g_autoptr(GTask) task = NULL;

  tandem_approval_dialog_stop (self);

  if ((task = g_steal_pointer (&self->task)))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "The question was put off");
}

static void
tandem_approval_dialog_show_error (TandemApprovalDialog *self,
                                   const char           *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_widget_set_visible (self->error_label, TRUE);
}

/* editedArgs replaces the arguments, so arguments the form does not show
 * are carried over instead of being dropped. */
static JsonNode *
tandem_approval_dialog_dup_edited_arguments (TandemApprovalDialog *self)
{
  g_autoptr(JsonNode) value = tandem_schema_form_get_value (TANDEM_SCHEMA_FORM (self->form));
  JsonObject *edited;
  JsonObject *original;
  g_autoptr(GList) names = NULL;

  if (value == NULL ||
      tandem_schema_form_is_single (TANDEM_SCHEMA_FORM (self->form)) ||
      !JSON_NODE_HOLDS_OBJECT (value) ||
      self->arguments == NULL ||
      !JSON_NODE_HOLDS_OBJECT (self->arguments))
    return g_steal_pointer (&value);

  edited = json_node_get_object (value);
  original = json_node_get_object (self->arguments);
  names = json_object_get_members (original);

  for (const GList *iter = names; iter != NULL; iter = iter->next)
    {
      const char *name = iter->data;

      if (!tandem_schema_form_has_field (TANDEM_SCHEMA_FORM (self->form), name) &&
          !json_object_has_member (edited, name))
        json_object_set_member (edited, name, json_node_copy (json_object_get_member (original, name)));
    }

  return g_steal_pointer (&value);
}

static void
on_response_cb (TandemApprovalDialog *self,
                const char           *response)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) payload = NULL;

  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));

  if (self->finished || response == NULL)
    return;

  if (g_strcmp0 (response, RESPONSE_LATER) == 0)
    {
      tandem_approval_dialog_postpone (self);
      tandem_approval_dialog_close (self);
      return;
    }

  if (g_strcmp0 (response, RESPONSE_CANCEL) == 0)
    {
      tandem_approval_dialog_finish (self, new_entry (self, "cancelled", NULL));
      tandem_approval_dialog_close (self);
      return;
    }

  if (!adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (self), response))
    return;

  /* The protocol forbids answering after expiresAt, whatever the button
   * state was when the answer was given. */
  if (self->expired || tandem_approval_dialog_is_expired_now (self))
    {
      tandem_approval_dialog_mark_expired (self);
      tandem_approval_dialog_finish (self, new_entry (self, "cancelled", NULL));
      tandem_approval_dialog_close (self);
      return;
    }

  if (g_strcmp0 (response, RESPONSE_APPROVE) == 0 || g_strcmp0 (response, RESPONSE_DENY) == 0)
    {
      gboolean approved = g_strcmp0 (response, RESPONSE_APPROVE) == 0;

      payload = json_object_new ();
      json_object_set_boolean_member (payload, "approved", approved);

      if (approved && tandem_approval_dialog_get_editing (self))
        {
          JsonNode *edited;

          if (!tandem_schema_form_validate (TANDEM_SCHEMA_FORM (self->form), &error))
            {
              tandem_approval_dialog_show_error (self, error->message);
              return;
            }

          if (!(edited = tandem_approval_dialog_dup_edited_arguments (self)))
            {
              tandem_approval_dialog_show_error (self, _("The arguments are missing"));
              return;
            }

          json_object_set_member (payload, "editedArgs", edited);
        }

      tandem_approval_dialog_finish (self,
                                     new_entry (self, "resolved",
                                                json_node_init_object (json_node_alloc (), payload)));
      tandem_approval_dialog_close (self);
      return;
    }

  if (g_strcmp0 (response, RESPONSE_SUBMIT) == 0 && self->form != NULL)
    {
      JsonNode *value;

      if (!tandem_schema_form_validate (TANDEM_SCHEMA_FORM (self->form), &error))
        {
          tandem_approval_dialog_show_error (self, error->message);
          return;
        }

      if (!(value = tandem_schema_form_get_value (TANDEM_SCHEMA_FORM (self->form))))
        {
          tandem_approval_dialog_show_error (self, _("An answer is required"));
          return;
        }

      tandem_approval_dialog_finish (self, new_entry (self, "resolved", value));
      tandem_approval_dialog_close (self);
    }
}

/* The preview shows what Approve would send: the agent's arguments, or
 * the edited ones as the person types. A value the form cannot read yet
 * (half a number) leaves the last one shown. */
static void
tandem_approval_dialog_update_preview (TandemApprovalDialog *self)
{
  g_autoptr(JsonNode) edited = NULL;
  g_autofree char *text = NULL;

  if (self->arguments_label == NULL)
    return;

  if (!tandem_approval_dialog_get_editing (self))
    {
      gtk_label_set_text (GTK_LABEL (self->arguments_label), self->arguments_text);
      return;
    }

  if (!tandem_schema_form_validate (TANDEM_SCHEMA_FORM (self->form), NULL) ||
      !(edited = tandem_approval_dialog_dup_edited_arguments (self)))
    return;

  text = json_to_string (edited, TRUE);
  gtk_label_set_text (GTK_LABEL (self->arguments_label), text);
}

static void
on_edit_button_toggled_cb (TandemApprovalDialog *self)
{
  gboolean editing = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->edit_button));

  gtk_revealer_set_reveal_child (GTK_REVEALER (self->edit_revealer), editing);
  gtk_widget_set_visible (self->error_label, FALSE);
  tandem_approval_dialog_update_preview (self);
}

static gboolean
on_cancelled_cb (GCancellable *cancellable,
                 gpointer      user_data)
{
  TandemApprovalDialog *self = user_data;
  g_autoptr(GTask) task = NULL;

  g_assert (TANDEM_IS_APPROVAL_DIALOG (self));

  if (self->finished)
    return G_SOURCE_REMOVE;

  g_object_ref (self);
  tandem_approval_dialog_stop (self);

  if ((task = g_steal_pointer (&self->task)))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "The question was withdrawn");

  tandem_approval_dialog_close (self);
  g_object_unref (self);

  return G_SOURCE_REMOVE;
}

static GtkWidget *
new_arguments_view (const char  *arguments,
                    GtkWidget  **label_out)
{
  GtkWidget *label = gtk_label_new (arguments != NULL ? arguments : "");
  GtkWidget *scrolled;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "tandem-approval-arguments");
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Arguments"),
                                  -1);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_widget_add_css_class (scrolled, "card");

  if (label_out != NULL)
    *label_out = label;

  return scrolled;
}

static GtkWidget *
new_heading_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Selected by the mouse, but no stop for Tab, which would select all
   * of it on the way to the buttons */
  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_add_css_class (label, "heading");

  return label;
}

static const char *
body_for_reason (const char *reason)
{
  if (g_strcmp0 (reason, "tool_call") == 0)
    return _("The agent wants to run a tool and asks for your approval first.");
  if (g_strcmp0 (reason, "confirmation") == 0)
    return _("The agent asks you to confirm before it goes on.");
  if (g_strcmp0 (reason, "input_required") == 0)
    return _("The agent needs an answer from you to go on.");

  return NULL;
}

/* What answering lets the agent do, from the description libagui makes
 * of the interrupt (the same as tandem-cli prints): the tool and its
 * arguments, a call only known by its id, or the metadata as JSON.
 * Returns the body text it suggests. */
static char *
tandem_approval_dialog_build_action (TandemApprovalDialog     *self,
                                     GtkWidget                *box,
                                     AguiInterruptDescription *description)
{
  g_autofree char *title = NULL;
  GtkWidget *label;

  switch (description->action)
    {
    case AGUI_INTERRUPT_ACTION_UNKNOWN_CALL:
      /* Translators: %s is an opaque tool call id */
      title = g_strdup_printf (_("Tool call %s"), description->tool_call_id);
      label = gtk_label_new (title);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_box_append (GTK_BOX (box), label);
      return NULL;

    case AGUI_INTERRUPT_ACTION_DETAILS:
      {
        g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), description->details);
        g_autofree char *text = json_to_string (node, TRUE);

        gtk_box_append (GTK_BOX (box), new_heading_label (_("Details from the agent")));
        gtk_box_append (GTK_BOX (box), new_arguments_view (text, NULL));
      }
      return NULL;

    case AGUI_INTERRUPT_ACTION_CALL:
    case AGUI_INTERRUPT_ACTION_METADATA_TOOL:
      if (description->arguments != NULL)
        self->arguments = json_node_copy (description->arguments);

      /* Translators: %s is the name of a tool the agent wants to run */
      title = g_strdup_printf (_("Tool: %s"), description->tool_name);
      gtk_box_append (GTK_BOX (box), new_heading_label (title));
      if (description->arguments_text != NULL)
        {
          self->arguments_text = g_strdup (description->arguments_text);
          gtk_box_append (GTK_BOX (box), new_arguments_view (description->arguments_text, &self->arguments_label));
        }

      if (description->tool_name == NULL)
        return NULL;
      /* Translators: %s is the name of a tool */
      return g_strdup_printf (_("The agent wants to run “%s” and asks for your approval first."),
                              description->tool_name);

    case AGUI_INTERRUPT_ACTION_NONE:
    default:
      return NULL;
    }
}

static void
tandem_approval_dialog_build (TandemApprovalDialog *self)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (self);
  JsonObject *response_schema = node_get_object (agui_interrupt_get_response_schema (self->interrupt));
  const char *reason = agui_interrupt_get_reason (self->interrupt);
  GDateTime *expires_at = agui_interrupt_get_expires_at (self->interrupt);
  g_auto(AguiInterruptDescription) description = { 0 };
  g_autofree char *body = NULL;
  GtkWidget *box;

  _agui_interrupt_describe (self->interrupt, self->transcript, &description);
  self->approval = description.approval;

  adw_message_dialog_set_heading_use_markup (dialog, FALSE);
  adw_message_dialog_set_body_use_markup (dialog, FALSE);
  adw_message_dialog_set_heading (dialog, heading_for_reason (reason, self->approval));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  self->position_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->position_label, "dim-label");
  gtk_widget_add_css_class (self->position_label, "caption-heading");
  gtk_widget_set_visible (self->position_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->position_label);

  /* Never an empty question: the agent's words, else what answering
   * lets it do, else the reason. */
  body = tandem_approval_dialog_build_action (self, box, &description);

  if (description.question != NULL)
    adw_message_dialog_set_body (dialog, description.question);
  else if (body != NULL)
    adw_message_dialog_set_body (dialog, body);
  else if (body_for_reason (reason) != NULL)
    adw_message_dialog_set_body (dialog, body_for_reason (reason));
  else
    {
      /* Translators: %s is the agent's own word for why it asks */
      g_autofree char *text = g_strdup_printf (_("The agent asks (%s)."), reason ? reason : _("no reason given"));
      adw_message_dialog_set_body (dialog, text);
    }
  /* A screen reader names the dialog by its heading; the question is
   * what it says next */
  gtk_accessible_update_property (GTK_ACCESSIBLE (dialog),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, adw_message_dialog_get_body (dialog),
                                  -1);

  if (self->approval)
    {
      JsonObject *edited_schema = schema_get_property (response_schema, "editedArgs");

      if (edited_schema != NULL)
        {
          self->form = tandem_schema_form_new (edited_schema, self->arguments);
          g_signal_connect_object (self->form, "changed",
                                   G_CALLBACK (tandem_approval_dialog_update_preview), self,
                                   G_CONNECT_SWAPPED);

          self->edit_button = gtk_toggle_button_new_with_mnemonic (_("_Edit Arguments"));
          gtk_widget_set_halign (self->edit_button, GTK_ALIGN_START);
          g_signal_connect_object (self->edit_button, "toggled",
                                   G_CALLBACK (on_edit_button_toggled_cb), self,
                                   G_CONNECT_SWAPPED);

          self->edit_revealer = gtk_revealer_new ();
          gtk_revealer_set_transition_type (GTK_REVEALER (self->edit_revealer),
                                            GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
          gtk_revealer_set_child (GTK_REVEALER (self->edit_revealer), self->form);

          gtk_box_append (GTK_BOX (box), self->edit_button);
          gtk_box_append (GTK_BOX (box), self->edit_revealer);
        }

      adw_message_dialog_add_responses (dialog,
                                        RESPONSE_LATER, _("_Later"),
                                        RESPONSE_DENY, _("_Deny"),
                                        RESPONSE_APPROVE, _("_Approve"),
                                        NULL);
      adw_message_dialog_set_response_appearance (dialog, RESPONSE_DENY, ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_set_response_appearance (dialog, RESPONSE_APPROVE, ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, RESPONSE_APPROVE);
    }
  else
    {
      g_autoptr(JsonObject) text_schema = NULL;

      if (response_schema == NULL)
        {
          text_schema = json_object_new ();
          json_object_set_string_member (text_schema, "type", "string");
          json_object_set_string_member (text_schema, "title", _("Answer"));
          response_schema = text_schema;
        }

      self->form = tandem_schema_form_new (response_schema, NULL);
      gtk_box_append (GTK_BOX (box), self->form);

      adw_message_dialog_add_responses (dialog,
                                        RESPONSE_LATER, _("_Later"),
                                        RESPONSE_CANCEL, _("_Don’t Answer"),
                                        RESPONSE_SUBMIT, _("_Submit"),
                                        NULL);
      adw_message_dialog_set_response_appearance (dialog, RESPONSE_SUBMIT, ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, RESPONSE_SUBMIT);
    }

  adw_message_dialog_set_close_response (dialog, RESPONSE_LATER);

  self->error_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->error_label);

  self->expiry_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->expiry_label), TRUE);
  gtk_widget_add_css_class (self->expiry_label, "dim-label");
  gtk_widget_set_visible (self->expiry_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->expiry_label);

  gtk_widget_add_css_class (box, "tandem-approval");
  adw_message_dialog_set_extra_child (dialog, box);

  /* An unparseable expiresAt never expires: the interrupt has none. */
  if (expires_at != NULL)
    self->expires_at = g_date_time_ref (expires_at);

  if (self->expires_at != NULL)
    tandem_approval_dialog_update_expiry (self);
}

static gboolean
tandem_approval_dialog_close_request (GtkWindow *window)
{
  TandemApprovalDialog *self = TANDEM_APPROVAL_DIALOG (window);

  /* A response button closes the dialog before it emits its response, and
   * a form that does not validate must stay open; so stay open unless the
   * parent turned the close into an answer or into "later" (Escape). */
  self->in_close_request = TRUE;
  GTK_WINDOW_CLASS (tandem_approval_dialog_parent_class)->close_request (window);
  self->in_close_request = FALSE;

  return !self->finished;
}

/* Destroyed without an answer, say because the app quits: the question
 * is put off, never answered for the person. */
static void
tandem_approval_dialog_abandon (TandemApprovalDialog *self)
{
  if (!self->finished && self->task != NULL)
    tandem_approval_dialog_postpone (self);
  tandem_approval_dialog_stop (self);
}

static void
tandem_approval_dialog_unrealize (GtkWidget *widget)
{
  TandemApprovalDialog *self = TANDEM_APPROVAL_DIALOG (widget);

  g_object_ref (self);
  tandem_approval_dialog_abandon (self);

  GTK_WIDGET_CLASS (tandem_approval_dialog_parent_class)->unrealize (widget);
  g_object_unref (self);
}

static void
tandem_approval_dialog_dispose (GObject *object)
{
  TandemApprovalDialog *self = (TandemApprovalDialog *)object;

  tandem_approval_dialog_abandon (self);

  g_clear_object (&self->transcript);

  G_OBJECT_CLASS (tandem_approval_dialog_parent_class)->dispose (object);
}

static void
tandem_approval_dialog_finalize (GObject *object)
{
  TandemApprovalDialog *self = (TandemApprovalDialog *)object;

  g_clear_object (&self->interrupt);
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_pointer (&self->expires_at, g_date_time_unref);
  g_clear_pointer (&self->arguments_text, g_free);
  g_clear_pointer (&self->conversation, g_free);

  G_OBJECT_CLASS (tandem_approval_dialog_parent_class)->finalize (object);
}

static void
tandem_approval_dialog_class_init (TandemApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tandem_approval_dialog_dispose;
  object_class->finalize = tandem_approval_dialog_finalize;

  widget_class->unrealize = tandem_approval_dialog_unrealize;

  window_class->close_request = tandem_approval_dialog_close_request;

  g_type_ensure (TANDEM_TYPE_SCHEMA_FORM);
}

static void
tandem_approval_dialog_init (TandemApprovalDialog *self)
{
  g_signal_connect (self, "response", G_CALLBACK (on_response_cb), NULL);
}

/**
 * tandem_approval_dialog_new:
 * @parent: (nullable): the window the dialog belongs to
 * @transcript: (nullable): the conversation, to find the tool call
 * @interrupt: the interrupt to ask
 *
 * Returns: (transfer none): a new dialog, owned by GTK like any toplevel;
 *   present it with [method@Tandem.ApprovalDialog.ask_async]
 */
TandemApprovalDialog *
tandem_approval_dialog_new (GtkWindow      *parent,
                            AguiTranscript *transcript,
                            AguiInterrupt  *interrupt)
{
  TandemApprovalDialog *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (!transcript || AGUI_IS_TRANSCRIPT (transcript), NULL);
  g_return_val_if_fail (AGUI_IS_INTERRUPT (interrupt), NULL);

  self = g_object_new (TANDEM_TYPE_APPROVAL_DIALOG,
                       "transient-for", parent,
                       "modal", FALSE,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->transcript = transcript ? g_object_ref (transcript) : NULL;
  self->interrupt = g_object_ref (interrupt);

  tandem_approval_dialog_build (self);

  return self;
}

/**
 * tandem_approval_dialog_ask_async:
 * @self: an approval dialog
 * @cancellable: (nullable): withdraws the question and closes the dialog
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Presents the dialog and waits for the person's answer.
 */
void
tandem_approval_dialog_ask_async (TandemApprovalDialog *self,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TANDEM_IS_APPROVAL_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_approval_dialog_ask_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               "The dialog is already asking");
      return;
    }

  if (self->finished)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               "The dialog has already been answered");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    {
      tandem_approval_dialog_stop (self);
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  self->task = g_steal_pointer (&task);

  if (cancellable != NULL)
    {
      self->cancelled_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancelled_source, G_SOURCE_FUNC (on_cancelled_cb), self, NULL);
      g_source_attach (self->cancelled_source, g_main_context_get_thread_default ());
    }

  gtk_window_present (GTK_WINDOW (self));

  /* Otherwise focus lands on the first focusable child (Edit Arguments),
   * and Enter would open the form instead of approving. */
  if (gtk_window_get_default_widget (GTK_WINDOW (self)) != NULL)
    gtk_widget_grab_focus (gtk_window_get_default_widget (GTK_WINDOW (self)));
}

/**
 * tandem_approval_dialog_set_position:
 * @self: an approval dialog
 * @position: which question this is, from 1
 * @count: how many questions the run asked
 *
 * Shows "1 of 2" when the run asked more than one question.
 */
void
tandem_approval_dialog_set_position (TandemApprovalDialog *self,
                                     guint                 position,
                                     guint                 count)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TANDEM_IS_APPROVAL_DIALOG (self));

  gtk_widget_set_visible (self->position_label, count > 1);
  if (count <= 1)
    return;

  /* Translators: which of the agent's questions this is, as in "1 of 2" */
  text = g_strdup_printf (_("Question %u of %u"), position, count);
  gtk_label_set_text (GTK_LABEL (self->position_label), text);
}

/**
 * tandem_approval_dialog_set_conversation:
 * @self: an approval dialog
 * @title: (nullable): the title of the conversation that asks
 *
 * Names the conversation in the heading.
 */
void
tandem_approval_dialog_set_conversation (TandemApprovalDialog *self,
                                         const char           *title)
{
  g_autofree char *heading = NULL;

  g_return_if_fail (TANDEM_IS_APPROVAL_DIALOG (self));

  if (title != NULL && title[0] == '\0')
    title = NULL;
  g_free (self->conversation);
  self->conversation = NULL;
  /* A heading, not a paragraph: a long title is cut */
  if (title != NULL && g_utf8_strlen (title, -1) > CONVERSATION_MAX_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (title, 0, CONVERSATION_MAX_CHARS - 1);

      self->conversation = g_strconcat (g_strchomp (cut), "…", NULL);
    }
  else
    self->conversation = g_strdup (title);

  heading = dup_heading (agui_interrupt_get_reason (self->interrupt), self->approval, self->conversation);
  /* The window title follows the heading: window lists name it too */
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), heading);
}

const char *
tandem_approval_dialog_get_position_text (TandemApprovalDialog *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_DIALOG (self), NULL);

  return gtk_widget_get_visible (self->position_label) ? gtk_label_get_text (GTK_LABEL (self->position_label)) : NULL;
}

/**
 * tandem_approval_dialog_ask_finish:
 * @self: an approval dialog
 * @result: the result passed to the callback
 * @error: return location for a #GError, %G_IO_ERROR_CANCELLED when the
 *   person put the question off (closed the dialog) or the cancellable
 *   fired: nothing was answered
 *
 * Returns: (transfer full): the `ResumeEntry`: `interruptId`, `status` and,
 *   when resolved, `payload`
 */
JsonObject *
tandem_approval_dialog_ask_finish (TandemApprovalDialog  *self,
                                   GAsyncResult          *result,
                                   GError               **error)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_DIALOG (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tandem_approval_dialog_get_form:
 * @self: an approval dialog
 *
 * Returns: (transfer none) (nullable): the form for `editedArgs` or for the
 *   response schema, if the dialog has one
 */
GtkWidget *
tandem_approval_dialog_get_form (TandemApprovalDialog *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_DIALOG (self), NULL);

  return self->form;
}

/**
 * tandem_approval_dialog_get_editing:
 * @self: an approval dialog
 *
 * Returns: whether approving sends the edited arguments
 */
gboolean
tandem_approval_dialog_get_editing (TandemApprovalDialog *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_DIALOG (self), FALSE);

  return self->edit_button != NULL &&
         gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->edit_button));
}

/**
 * tandem_approval_dialog_set_editing:
 * @self: an approval dialog
 * @editing: whether to show the arguments form
 *
 * Same as toggling "Edit Arguments"; ignored when the interrupt does not
 * offer `editedArgs` or has expired.
 */
void
tandem_approval_dialog_set_editing (TandemApprovalDialog *self,
                                    gboolean              editing)
{
  g_return_if_fail (TANDEM_IS_APPROVAL_DIALOG (self));

  if (self->edit_button == NULL || self->expired)
    return;

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->edit_button), editing);
}

/**
 * tandem_approval_dialog_get_expired:
 * @self: an approval dialog
 *
 * Returns: whether the interrupt's `expiresAt` has passed
 */
gboolean
tandem_approval_dialog_get_expired (TandemApprovalDialog *self)
{
  g_return_val_if_fail (TANDEM_IS_APPROVAL_DIALOG (self), FALSE);

  return self->expired || tandem_approval_dialog_is_expired_now (self);
}
