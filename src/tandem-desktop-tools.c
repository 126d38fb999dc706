/* tandem-desktop-tools.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "tandem-desktop-tools.h"

/* The frontend tools Tandem offers every agent. Their results and errors
 * go back to the agent, so those are plain English for a model; what the
 * person sees (the questions) is translated. Tools that touch something
 * private (the clipboard's contents, the browser) ask the person first. */

typedef enum
{
  TOOL_GET_CURRENT_TIME,
  TOOL_READ_CLIPBOARD,
  TOOL_COPY_TO_CLIPBOARD,
  TOOL_OPEN_LINK,
  TOOL_SEND_NOTIFICATION,
} ToolKind;

#define TANDEM_TYPE_DESKTOP_TOOL (tandem_desktop_tool_get_type ())
G_DECLARE_FINAL_TYPE (TandemDesktopTool, tandem_desktop_tool, TANDEM, DESKTOP_TOOL, AguiTool)

struct _TandemDesktopTool
{
  AguiTool  parent_instance;
  ToolKind  kind;
  GWeakRef  parent;
};

G_DEFINE_FINAL_TYPE (TandemDesktopTool, tandem_desktop_tool, AGUI_TYPE_TOOL)

typedef struct
{
  AdwMessageDialog *dialog;
  GSource          *cancelled_source;
  char             *url;
} Ask;

static void
ask_free (Ask *ask)
{
  g_assert (ask->dialog == NULL);
  g_assert (ask->cancelled_source == NULL);

  g_clear_pointer (&ask->url, g_free);
  g_free (ask);
}

static JsonObject *
arguments_object (JsonNode  *arguments,
                  GError   **error)
{
  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "The arguments must be a JSON object");
      return NULL;
    }

  return json_node_get_object (arguments);
}

static gboolean
get_string_argument (JsonObject  *object,
                     const char  *member,
                     gboolean     required,
                     const char **value,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *value = NULL;

  if (node == NULL || (!required && JSON_NODE_HOLDS_NULL (node)))
    {
      if (required)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "The argument “%s” is required", member);
          return FALSE;
        }

      return TRUE;
    }

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "The argument “%s” must be a string", member);
      return FALSE;
    }

  *value = json_node_get_string (node);

  return TRUE;
}

static GdkClipboard *
tandem_desktop_tool_get_clipboard (TandemDesktopTool *self)
{
  g_autoptr(GtkWindow) parent = g_weak_ref_get (&self->parent);
  GdkDisplay *display;

  display = parent != NULL ? gtk_widget_get_display (GTK_WIDGET (parent)) : gdk_display_get_default ();
  if (display == NULL)
    return NULL;

  return gdk_display_get_clipboard (display);
}

static char *
get_current_time (JsonObject  *object,
                  GError     **error)
{
  g_autoptr(GTimeZone) zone = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *time = NULL;
  const char *name;

  if (!get_string_argument (object, "timezone", FALSE, &name, error))
    return NULL;

  if (name == NULL || name[0] == '\0' || g_ascii_strcasecmp (name, "local") == 0)
    zone = g_time_zone_new_local ();
  else if (!(zone = g_time_zone_new_identifier (name)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a known time zone; use an IANA name such as “Europe/Berlin”, or “local”",
                   name);
      return NULL;
    }

  now = g_date_time_new_now (zone);
  time = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S%:z");

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time);
  json_builder_set_member_name (builder, "timezone");
  json_builder_add_string_value (builder, g_time_zone_get_identifier (zone));
  json_builder_set_member_name (builder, "abbreviation");
  json_builder_add_string_value (builder, g_date_time_get_timezone_abbreviation (now));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

static char *
copy_to_clipboard (TandemDesktopTool  *self,
                   JsonObject         *object,
                   GError            **error)
{
  GdkClipboard *clipboard;
  const char *text;

  if (!get_string_argument (object, "text", TRUE, &text, error))
    return NULL;

  if (!(clipboard = tandem_desktop_tool_get_clipboard (self)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "There is no display with a clipboard");
      return NULL;
    }

  gdk_clipboard_set_text (clipboard, text);

  return g_strdup_printf ("Copied %ld characters", g_utf8_strlen (text, -1));
}

static char *
send_notification (JsonObject  *object,
                   GError     **error)
{
  g_autoptr(GNotification) notification = NULL;
  GApplication *application;
  const char *title;
  const char *body;

  if (!get_string_argument (object, "title", TRUE, &title, error) ||
      !get_string_argument (object, "body", FALSE, &body, error))
    return NULL;

  if (title[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "The argument “title” must not be empty");
      return NULL;
    }

  application = g_application_get_default ();
  if (application == NULL || !g_application_get_is_registered (application))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "Notifications are unavailable: Tandem is not running as a registered application");
      return NULL;
    }

  notification = g_notification_new (title);
  if (body != NULL && body[0] != '\0')
    g_notification_set_body (notification, body);
  g_application_send_notification (application, NULL, notification);

  return g_strdup ("Notification sent");
}

static gboolean
check_link (const char  *url,
            GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (!(uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a valid URL", url);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "Only http and https links can be opened, not %s:", scheme);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || host[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” names no host", url);
      return FALSE;
    }

  return TRUE;
}

static void
read_clipboard_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkContentFormats) formats = NULL;
  char *text;

  if ((text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error)))
    {
      g_task_return_pointer (task, text, g_free);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  formats = gdk_content_formats_union_deserialize_gtypes (gdk_content_formats_ref (gdk_clipboard_get_formats (GDK_CLIPBOARD (object))));
  if (error == NULL || !gdk_content_formats_contain_gtype (formats, G_TYPE_STRING))
    {
      g_debug ("The clipboard holds no text%s%s", error ? ": " : "", error ? error->message : "");
      g_task_return_pointer (task, g_strdup (""), g_free);
      return;
    }

  g_task_return_new_error (task, error->domain, error->code,
                           "Could not read the clipboard: %s", error->message);
}

static void
tandem_desktop_tool_proceed (GTask *task)
{
  TandemDesktopTool *self = g_task_get_source_object (task);
  Ask *ask = g_task_get_task_data (task);
  g_autoptr(GtkWindow) parent = g_weak_ref_get (&self->parent);
  GdkClipboard *clipboard;

  switch (self->kind)
    {
    case TOOL_READ_CLIPBOARD:
      if (!(clipboard = tandem_desktop_tool_get_clipboard (self)))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                   "There is no display with a clipboard");
          return;
        }
      gdk_clipboard_read_text_async (clipboard, g_task_get_cancellable (task),
                                     read_clipboard_cb, g_object_ref (task));
      break;

    case TOOL_OPEN_LINK:
      gtk_show_uri (parent, ask->url, GDK_CURRENT_TIME);
      g_task_return_pointer (task, g_strdup ("Asked the desktop to open the link"), g_free);
      break;

    case TOOL_GET_CURRENT_TIME:
    case TOOL_COPY_TO_CLIPBOARD:
    case TOOL_SEND_NOTIFICATION:
    default:
      g_assert_not_reached ();
    }
}

static void on_ask_response_cb    (AdwMessageDialog *dialog,
                                   const char       *response,
                                   gpointer          user_data);
static void on_ask_destroy_cb     (GtkWidget        *dialog,
                                   gpointer          user_data);

/* Ends the question: closes the dialog and stops watching for its answer
 * and for cancellation. FALSE if it had ended already. */
static gboolean
ask_end (GTask *task)
{
  Ask *ask = g_task_get_task_data (task);
  g_autoptr(AdwMessageDialog) dialog = NULL;

  if (ask->dialog == NULL)
    return FALSE;

  dialog = g_steal_pointer (&ask->dialog);
  g_signal_handlers_disconnect_by_func (dialog, on_ask_response_cb, task);
  g_signal_handlers_disconnect_by_func (dialog, on_ask_destroy_cb, task);

  if (ask->cancelled_source != NULL)
    {
      g_source_destroy (ask->cancelled_source);
      g_clear_pointer (&ask->cancelled_source, g_source_unref);
    }

  gtk_window_destroy (GTK_WINDOW (dialog));

  return TRUE;
}

static void
on_ask_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    gpointer          user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);

  if (!ask_end (task))
    return;

  if (g_strcmp0 (response, "allow") != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                               "The user declined");
      return;
    }

  tandem_desktop_tool_proceed (task);
}

static void
on_ask_destroy_cb (GtkWidget *dialog,
                   gpointer   user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);

  if (!ask_end (task))
    return;

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                           "The user declined: the question was closed unanswered");
}

static void
task_closure_notify (gpointer  data,
                     GClosure *closure)
{
  g_object_unref (data);
}

static gboolean
on_ask_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);

  if (ask_end (task))
    g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

static void
tandem_desktop_tool_ask (TandemDesktopTool *self,
                         GTask             *task,
                         const char        *heading,
                         const char        *body,
                         const char        *allow_label)
{
  Ask *ask = g_task_get_task_data (task);
  g_autoptr(GtkWindow) parent = g_weak_ref_get (&self->parent);
  GCancellable *cancellable = g_task_get_cancellable (task);

  ask->dialog = g_object_ref_sink (ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, NULL)));
  /* Plain text: the body may be a URL the agent chose. */
  adw_message_dialog_set_body_use_markup (ask->dialog, FALSE);
  adw_message_dialog_set_body (ask->dialog, body);
  adw_message_dialog_add_responses (ask->dialog,
                                    "deny", _("_Deny"),
                                    "allow", allow_label,
                                    NULL);
  adw_message_dialog_set_response_appearance (ask->dialog, "allow", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ask->dialog, "deny");
  adw_message_dialog_set_close_response (ask->dialog, "deny");
  gtk_window_set_modal (GTK_WINDOW (ask->dialog), parent != NULL);

  g_signal_connect_data (ask->dialog, "response",
                         G_CALLBACK (on_ask_response_cb),
                         g_object_ref (task), task_closure_notify, 0);
  g_signal_connect_data (ask->dialog, "destroy",
                         G_CALLBACK (on_ask_destroy_cb),
                         g_object_ref (task), task_closure_notify, 0);

  if (cancellable != NULL)
    {
      ask->cancelled_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (ask->cancelled_source, G_SOURCE_FUNC (on_ask_cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_attach (ask->cancelled_source, g_main_context_get_thread_default ());
    }

  gtk_window_present (GTK_WINDOW (ask->dialog));
}

static void
tandem_desktop_tool_execute_async (AguiTool            *tool,
                                   JsonNode            *arguments,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  TandemDesktopTool *self = TANDEM_DESKTOP_TOOL (tool);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  Ask *ask;
  char *result = NULL;
  const char *url;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_desktop_tool_execute_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(object = arguments_object (arguments, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  ask = g_new0 (Ask, 1);
  g_task_set_task_data (task, ask, (GDestroyNotify) ask_free);

  switch (self->kind)
    {
    case TOOL_GET_CURRENT_TIME:
      result = get_current_time (object, &error);
      break;

    case TOOL_COPY_TO_CLIPBOARD:
      result = copy_to_clipboard (self, object, &error);
      break;

    case TOOL_SEND_NOTIFICATION:
      result = send_notification (object, &error);
      break;

    case TOOL_READ_CLIPBOARD:
      tandem_desktop_tool_ask (self, task,
                               _("The agent wants to read your clipboard"),
                               _("The text you copied last will be sent to the agent."),
                               _("_Allow"));
      return;

    case TOOL_OPEN_LINK:
      if (!get_string_argument (object, "url", TRUE, &url, &error) ||
          !check_link (url, &error))
        break;

      ask->url = g_strdup (url);
      tandem_desktop_tool_ask (self, task,
                               _("The agent wants to open a link"),
                               url,
                               _("_Open"));
      return;

    default:
      g_assert_not_reached ();
    }

  if (result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, g_free);
}

static char *
tandem_desktop_tool_execute_finish (AguiTool      *tool,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, tool), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tandem_desktop_tool_finalize (GObject *object)
{
  TandemDesktopTool *self = TANDEM_DESKTOP_TOOL (object);

  g_weak_ref_clear (&self->parent);

  G_OBJECT_CLASS (tandem_desktop_tool_parent_class)->finalize (object);
}

static void
tandem_desktop_tool_class_init (TandemDesktopToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AguiToolClass *tool_class = AGUI_TOOL_CLASS (klass);

  object_class->finalize = tandem_desktop_tool_finalize;
  tool_class->execute_async = tandem_desktop_tool_execute_async;
  tool_class->execute_finish = tandem_desktop_tool_execute_finish;
}

static void
tandem_desktop_tool_init (TandemDesktopTool *self)
{
  g_weak_ref_init (&self->parent, NULL);
}

static AguiTool *
tandem_desktop_tool_new (ToolKind    kind,
                         GtkWindow  *parent,
                         const char *name,
                         const char *description,
                         const char *parameters)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) schema = json_from_string (parameters, &error);
  TandemDesktopTool *self;

  g_assert_no_error (error);

  self = g_object_new (TANDEM_TYPE_DESKTOP_TOOL,
                       "name", name,
                       "description", description,
                       "parameters", schema,
                       NULL);
  self->kind = kind;
  g_weak_ref_set (&self->parent, parent);

  return AGUI_TOOL (self);
}

/**
 * tandem_desktop_tools_new:
 * @parent: (nullable): the window questions are asked over
 *
 * Makes the tools Tandem offers agents: `get_current_time`,
 * `read_clipboard` (asks first), `copy_to_clipboard`, `open_link` (http
 * and https only; asks first) and `send_notification`. The tools keep
 * only a weak reference to @parent; a tool that asks honours its
 * cancellable by closing the question and failing with
 * %G_IO_ERROR_CANCELLED, and one the person declines fails with
 * %G_IO_ERROR_PERMISSION_DENIED.
 *
 * Returns: (transfer full): a registry with the desktop tools
 */
AguiToolRegistry *
tandem_desktop_tools_new (GtkWindow *parent)
{
  AguiToolRegistry *registry;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  registry = agui_tool_registry_new ();

#define ADD(tool) G_STMT_START { g_autoptr(AguiTool) t = (tool); agui_tool_registry_add (registry, t); } G_STMT_END

  ADD (tandem_desktop_tool_new (TOOL_GET_CURRENT_TIME, parent, "get_current_time",
                                "Returns the current date and time as an ISO 8601 timestamp with its "
                                "UTC offset, with the time zone's name, as JSON. Give an IANA time zone "
                                "such as \"Europe/Berlin\", or \"local\" (the default) for the user's "
                                "own time zone.",
                                "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\","
                                "\"description\":\"An IANA time zone name such as \\\"America/New_York\\\", "
                                "or \\\"local\\\" for the user's time zone\"}},"
                                "\"additionalProperties\":false}"));
  ADD (tandem_desktop_tool_new (TOOL_READ_CLIPBOARD, parent, "read_clipboard",
                                "Returns the text on the user's clipboard (an empty string if it holds "
                                "no text). The user is asked for permission first and may decline.",
                                "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"));
  ADD (tandem_desktop_tool_new (TOOL_COPY_TO_CLIPBOARD, parent, "copy_to_clipboard",
                                "Puts text on the user's clipboard, replacing what was there, so that "
                                "they can paste it elsewhere.",
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
                                "\"description\":\"The text to copy\"}},\"required\":[\"text\"],"
                                "\"additionalProperties\":false}"));
  ADD (tandem_desktop_tool_new (TOOL_OPEN_LINK, parent, "open_link",
                                "Opens a web page in the user's browser. Only http and https URLs are "
                                "allowed. The user sees the exact URL and is asked first, and may decline.",
                                "{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\","
                                "\"format\":\"uri\",\"description\":\"An http or https URL\"}},"
                                "\"required\":[\"url\"],\"additionalProperties\":false}"));
  ADD (tandem_desktop_tool_new (TOOL_SEND_NOTIFICATION, parent, "send_notification",
                                "Shows a desktop notification to the user, with a short title and an "
                                "optional body. Use it for things worth the user's attention when they "
                                "may not be looking at the conversation.",
                                "{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\","
                                "\"description\":\"A short title\"},\"body\":{\"type\":\"string\","
                                "\"description\":\"More detail, optional\"}},\"required\":[\"title\"],"
                                "\"additionalProperties\":false}"));

#undef ADD

  return registry;
}
