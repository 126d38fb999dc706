/* tandem-a2ui-surface-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tandem-a2ui-image-loader.h"
#include "tandem-a2ui-surface-view.h"
#include "tandem-accessible.h"
#include "tandem-a2ui-values.h"
#include "tandem-window.h"

/* An A2UI surface drawn with GTK widgets: built from an AguiActivityPart
 * whose activityType is "a2ui-surface", kept up to date by the part's
 * notify::content. A structural change rebuilds the widgets from the
 * root; a data-only change re-reads the bound properties of the widgets
 * there are. The agent's strings are only ever shown as plain text.
 *
 * A button's action goes to the agent through the session given at
 * construction, or else the one of the TandemWindow the view sits in; the
 * ::action signal comes first and a handler returning TRUE takes it
 * over. */

#define MAX_DEPTH 64

typedef struct _Binding Binding;
typedef void (*RefreshFunc) (TandemA2uiSurfaceView *self,
                             Binding               *binding);

struct _Binding
{
  GtkWidget         *widget;
  AguiA2uiComponent *component;
  char              *scope;
  RefreshFunc        refresh;
};

struct _TandemA2uiSurfaceView
{
  GtkWidget          parent_instance;

  AguiActivityPart  *part;
  AguiAgentSession  *session;
  AguiA2uiSurface   *surface;
  GCancellable      *cancellable;

  GtkWidget         *box;
  GtkWidget         *content;
  GtkWidget         *tree;
  GtkWidget         *errors;
  GtkWidget         *status_box;
  GtkWidget         *status_spinner;
  GtkWidget         *status_label;

  GPtrArray         *bindings;
  GHashTable        *widgets;
  GHashTable        *ancestors;
  char              *status_text;
  guint              n_builds;
  guint              refreshing : 1;
  guint              lifecycle_status : 1;
};

G_DEFINE_FINAL_TYPE (TandemA2uiSurfaceView, tandem_a2ui_surface_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PART,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACTION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void keep_values (TandemA2uiSurfaceView *self);
static GtkWidget *build (TandemA2uiSurfaceView *self,
                         AguiA2uiComponent     *component,
                         const char            *scope,
                         guint                  depth);

/* json-glib's *_with_default() getters are critical on a mistyped
 * member, and agent data is mistyped at will. */
static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* Bindings */

static void
binding_free (Binding *binding)
{
  g_clear_object (&binding->component);
  g_clear_object (&binding->widget);
  g_free (binding->scope);
  g_free (binding);
}

static void
bind (TandemA2uiSurfaceView *self,
      GtkWidget             *widget,
      AguiA2uiComponent     *component,
      const char            *scope,
      RefreshFunc            refresh)
{
  Binding *binding = g_new0 (Binding, 1);

  /* A modal's widgets may go before the view: keep them alive. */
  binding->widget = g_object_ref (widget);
  binding->component = g_object_ref (component);
  binding->scope = g_strdup (scope);
  binding->refresh = refresh;
  g_ptr_array_add (self->bindings, binding);

  self->refreshing = TRUE;
  refresh (self, binding);
  self->refreshing = FALSE;
}

static char *
resolve_text (TandemA2uiSurfaceView *self,
              Binding               *binding,
              const char            *property)
{
  char *text = agui_a2ui_surface_resolve_string (self->surface,
                                                 agui_a2ui_component_get_property (binding->component, property),
                                                 binding->scope);

  return text ? text : g_strdup ("");
}

static void
write_value (TandemA2uiSurfaceView *self,
             AguiA2uiComponent     *component,
             const char            *scope,
             const char            *property,
             JsonNode              *value)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (self->refreshing)
    return;

  path = agui_a2ui_surface_dup_bound_path (self->surface, agui_a2ui_component_get_property (component, property), scope);
  if (path == NULL)
    return;

  if (!agui_a2ui_surface_set_value (self->surface, path, value, &error))
    g_warning ("A2UI component '%s' could not store its value: %s",
               agui_a2ui_component_get_id (component), error->message);
  else
    {
      keep_values (self);
      tandem_a2ui_values_note (self->surface, path, value);
    }
}

/* Status and errors */

static void
set_status (TandemA2uiSurfaceView *self,
            const char            *text,
            gboolean               busy)
{
  self->lifecycle_status = FALSE;
  g_free (self->status_text);
  self->status_text = g_strdup (text);
  gtk_label_set_text (GTK_LABEL (self->status_label), text ? text : "");
  gtk_widget_set_visible (self->status_box, text != NULL);
  gtk_widget_set_visible (self->status_spinner, busy);
  gtk_spinner_set_spinning (GTK_SPINNER (self->status_spinner), busy);
}

static void
update_errors (TandemA2uiSurfaceView *self)
{
  const char * const *errors = agui_a2ui_surface_get_errors (self->surface);
  GtkWidget *child;
  GtkWidget *title;
  guint n = g_strv_length ((char **) errors);

  while ((child = gtk_widget_get_first_child (self->errors)) != NULL)
    gtk_box_remove (GTK_BOX (self->errors), child);

  gtk_widget_set_visible (self->errors, n > 0);
  if (n == 0)
    return;

  title = gtk_label_new (g_dngettext (GETTEXT_PACKAGE,
                                      "Part of this interface could not be shown:",
                                      "Parts of this interface could not be shown:", n));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (self->errors), title);

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label = gtk_label_new (errors[i]);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (self->errors), label);
    }
}

/* Actions */

static void
on_action_sent_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(TandemA2uiSurfaceView) self = g_weak_ref_get (weak);
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_weak_ref_clear (weak);
  g_free (weak);

  state = agui_agent_session_send_a2ui_action_finish (AGUI_AGENT_SESSION (object), result, &error);
  if (self == NULL)
    return;

  if (state == NULL)
    {
      /* Translators: %s says why an action on an agent's interface was not sent */
      text = g_strdup_printf (_("Could not send: %s"), error->message);
      set_status (self, text, FALSE);
    }
  else if (agui_run_state_get_error_message (state) != NULL)
    {
      /* Translators: %s says why the agent's run failed */
      text = g_strdup_printf (_("The agent could not answer: %s"), agui_run_state_get_error_message (state));
      set_status (self, text, FALSE);
    }
  else
    {
      set_status (self, _("The agent answered."), FALSE);
    }
}

static AguiAgentSession *
find_session (TandemA2uiSurfaceView *self)
{
  GtkWidget *window;

  if (self->session != NULL)
    return self->session;

  window = gtk_widget_get_ancestor (GTK_WIDGET (self), TANDEM_TYPE_WINDOW);

  return window ? tandem_window_get_session (TANDEM_WINDOW (window)) : NULL;
}

/* What the person sets is kept with the conversation the view is in,
 * and what they had set comes back (once per surface) */
static void
keep_values (TandemA2uiSurfaceView *self)
{
  AguiAgentSession *session = find_session (self);

  if (session != NULL && self->part != NULL)
    tandem_a2ui_values_restore (self->surface, session, agui_part_get_message_id (AGUI_PART (self->part)));
}

static void
send_action (TandemA2uiSurfaceView *self,
             AguiA2uiComponent     *component,
             const char            *scope)
{
  g_autoptr(JsonObject) action = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AguiAgentSession *session;
  GWeakRef *weak;
  gboolean handled = FALSE;

  if (!(action = agui_a2ui_surface_build_action (self->surface, component, scope, &error)))
    {
      set_status (self, error->message, FALSE);
      return;
    }

  g_signal_emit (self, signals[ACTION], 0, action, &handled);
  if (handled)
    return;

  if ((session = find_session (self)) == NULL)
    {
      set_status (self, _("Could not send: this conversation has no agent."), FALSE);
      return;
    }

  /* Translators: %s is the name of the action the person took */
  text = g_strdup_printf (_("Sending “%s” to the agent…"), json_object_get_string_member (action, "name"));
  set_status (self, text, TRUE);
  /* The run belongs to the conversation, not to this widget: a list view
   * may recycle the widget while the agent answers, so no cancellable of
   * ours stops it (the window's Stop does), and the answer finds the view
   * through a weak reference. */
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  agui_agent_session_send_a2ui_action_async (session, action, NULL, NULL, on_action_sent_cb, weak);
}

static void
on_open_url_response_cb (AdwMessageDialog *dialog,
                         const char       *response,
                         gpointer          user_data)
{
  const char *url = g_object_get_data (G_OBJECT (dialog), "tandem-url");

  if (g_strcmp0 (response, "open") == 0)
    gtk_show_uri (gtk_window_get_transient_for (GTK_WINDOW (dialog)), url, GDK_CURRENT_TIME);
}

/* Links open only after the person agrees, as the open_link tool asks. */
static void
confirm_open_url (TandemA2uiSurfaceView *self,
                  const char            *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const char *scheme = uri ? g_uri_get_scheme (uri) : NULL;
  GtkWidget *dialog;

  if (scheme == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      set_status (self, _("The agent offered a link that is not a web address; it was not opened."), FALSE);
      return;
    }

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Open Link?"), NULL);
  /* Translators: %s is a web address an agent wants to open */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog), _("The agent wants to open %s in your browser."), url);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "open", _("_Open"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "tandem-url", g_strdup (url), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_url_response_cb), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_button_clicked_cb (GtkButton             *button,
                      TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (button), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (button), "tandem-a2ui-scope");
  JsonNode *action = agui_a2ui_component_get_property (component, "action");
  JsonObject *object = action && JSON_NODE_HOLDS_OBJECT (action) ? json_node_get_object (action) : NULL;
  JsonNode *call = object ? json_object_get_member (object, "functionCall") : NULL;

  if (call != NULL && JSON_NODE_HOLDS_OBJECT (call))
    {
      JsonObject *function = json_node_get_object (call);
      JsonNode *args = json_object_get_member (function, "args");
      const char *name = string_member (function, "call");

      if (g_strcmp0 (name, "openUrl") == 0 &&
          args != NULL && JSON_NODE_HOLDS_OBJECT (args))
        {
          g_autofree char *url = agui_a2ui_surface_resolve_string (self->surface,
                                                                   json_object_get_member (json_node_get_object (args), "url"),
                                                                   scope);
          if (url != NULL)
            confirm_open_url (self, url);
          return;
        }

      set_status (self, _("This button runs a function Tandem does not provide."), FALSE);
      return;
    }

  send_action (self, component, scope);
}

/* Components */

static void
refresh_label (TandemA2uiSurfaceView *self,
               Binding               *binding)
{
  g_autofree char *text = resolve_text (self, binding, "text");

  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (binding->widget)), text) != 0)
    gtk_label_set_text (GTK_LABEL (binding->widget), text);
}

static GtkWidget *
build_text (TandemA2uiSurfaceView *self,
            AguiA2uiComponent     *component,
            const char            *scope)
{
  static const struct { const char *variant; const char *css; } styles[] = {
    { "h1", "title-1" }, { "h2", "title-2" }, { "h3", "title-3" }, { "h4", "title-4" },
    { "h5", "heading" }, { "caption", "caption" }, { "body", "body" },
  };
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *label = gtk_label_new (NULL);

  /* Plain text only: no Pango markup from the agent, ever. */
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  for (guint i = 0; variant != NULL && i < G_N_ELEMENTS (styles); i++)
    if (g_str_equal (variant, styles[i].variant))
      gtk_widget_add_css_class (label, styles[i].css);
  if (g_strcmp0 (variant, "caption") == 0)
    gtk_widget_add_css_class (label, "dim-label");

  bind (self, label, component, scope, refresh_label);

  return label;
}

static void
on_image_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GtkPicture) picture = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  if (!(texture = tandem_a2ui_image_load_finish (result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_widget_set_tooltip_text (GTK_WIDGET (picture), error->message);
          gtk_widget_add_css_class (GTK_WIDGET (picture), "a2ui-image-failed");
        }
      return;
    }

  gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
}

static void
refresh_image (TandemA2uiSurfaceView *self,
               Binding               *binding)
{
  g_autofree char *url = agui_a2ui_surface_resolve_string (self->surface,
                                                           agui_a2ui_component_get_property (binding->component, "url"),
                                                           binding->scope);
  g_autofree char *description = resolve_text (self, binding, "description");
  const char *loaded = g_object_get_data (G_OBJECT (binding->widget), "tandem-url");

  gtk_picture_set_alternative_text (GTK_PICTURE (binding->widget), description);
  if (url == NULL || g_strcmp0 (loaded, url) == 0)
    return;

  g_object_set_data_full (G_OBJECT (binding->widget), "tandem-url", g_strdup (url), g_free);
  gtk_picture_set_paintable (GTK_PICTURE (binding->widget), NULL);
  tandem_a2ui_image_load_async (url, self->cancellable, on_image_loaded_cb, g_object_ref (binding->widget));
}

static GtkWidget *
build_image (TandemA2uiSurfaceView *self,
             AguiA2uiComponent     *component,
             const char            *scope)
{
  static const struct { const char *variant; int size; } sizes[] = {
    { "icon", 24 }, { "avatar", 48 }, { "smallFeature", 96 }, { "mediumFeature", 160 },
    { "largeFeature", 240 }, { "header", 200 },
  };
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  const char *fit = agui_a2ui_component_get_string (component, "fit");
  GtkWidget *picture = gtk_picture_new ();
  int size = 160;

  for (guint i = 0; variant != NULL && i < G_N_ELEMENTS (sizes); i++)
    if (g_str_equal (variant, sizes[i].variant))
      size = sizes[i].size;

  gtk_widget_set_size_request (picture, g_strcmp0 (variant, "header") == 0 ? -1 : size, size);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  if (g_strcmp0 (fit, "fill") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_FILL);
  else if (g_strcmp0 (fit, "cover") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_COVER);
  else if (g_strcmp0 (fit, "scaleDown") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_SCALE_DOWN);
  else
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_halign (picture, g_strcmp0 (variant, "header") == 0 ? GTK_ALIGN_FILL : GTK_ALIGN_START);
  if (g_strcmp0 (variant, "avatar") == 0)
    gtk_widget_add_css_class (picture, "a2ui-avatar");
  gtk_widget_add_css_class (picture, "a2ui-image");

  bind (self, picture, component, scope, refresh_image);

  return picture;
}

static const char *
icon_for_name (const char *name)
{
  static const struct { const char *a2ui; const char *icon; } icons[] = {
    { "accountCircle", "avatar-default-symbolic" }, { "add", "list-add-symbolic" },
    { "arrowBack", "go-previous-symbolic" }, { "arrowForward", "go-next-symbolic" },
    { "attachFile", "mail-attachment-symbolic" }, { "calendarToday", "x-office-calendar-symbolic" },
    { "call", "call-start-symbolic" }, { "camera", "camera-photo-symbolic" },
    { "check", "object-select-symbolic" }, { "close", "window-close-symbolic" },
    { "delete", "user-trash-symbolic" }, { "download", "folder-download-symbolic" },
    { "edit", "document-edit-symbolic" }, { "event", "x-office-calendar-symbolic" },
    { "error", "dialog-error-symbolic" }, { "favorite", "starred-symbolic" },
    { "favoriteOff", "non-starred-symbolic" }, { "folder", "folder-symbolic" },
    { "help", "help-about-symbolic" }, { "home", "go-home-symbolic" },
    { "info", "dialog-information-symbolic" }, { "locationOn", "mark-location-symbolic" },
    { "lock", "changes-prevent-symbolic" }, { "lockOpen", "changes-allow-symbolic" },
    { "mail", "mail-unread-symbolic" }, { "menu", "open-menu-symbolic" },
    { "moreVert", "view-more-symbolic" }, { "moreHoriz", "view-more-horizontal-symbolic" },
    { "notificationsOff", "notifications-disabled-symbolic" }, { "notifications", "preferences-system-notifications-symbolic" },
    { "payment", "money-symbolic" }, { "person", "avatar-default-symbolic" },
    { "phone", "phone-symbolic" }, { "photo", "image-x-generic-symbolic" },
    { "print", "printer-symbolic" }, { "refresh", "view-refresh-symbolic" },
    { "search", "system-search-symbolic" }, { "send", "mail-send-symbolic" },
    { "settings", "emblem-system-symbolic" }, { "share", "emblem-shared-symbolic" },
    { "shoppingCart", "shopping-cart-symbolic" }, { "star", "starred-symbolic" },
    { "starHalf", "semi-starred-symbolic" }, { "starOff", "non-starred-symbolic" },
    { "upload", "document-send-symbolic" }, { "visibility", "view-reveal-symbolic" },
    { "visibilityOff", "view-conceal-symbolic" }, { "warning", "dialog-warning-symbolic" },
  };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (icons); i++)
    if (g_str_equal (name, icons[i].a2ui))
      return icons[i].icon;

  return "image-missing-symbolic";
}

static void
refresh_icon (TandemA2uiSurfaceView *self,
              Binding               *binding)
{
  g_autofree char *name = resolve_text (self, binding, "name");

  gtk_image_set_from_icon_name (GTK_IMAGE (binding->widget), icon_for_name (name));
}

static GtkWidget *
build_box (TandemA2uiSurfaceView *self,
           AguiA2uiComponent     *component,
           const char            *scope,
           guint                  depth,
           GtkOrientation         orientation)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  const char *justify = agui_a2ui_component_get_string (component, "justify");
  const char *align = agui_a2ui_component_get_string (component, "align");
  gboolean spread = justify != NULL && g_str_has_prefix (justify, "space");
  GtkWidget *box = gtk_box_new (orientation, orientation == GTK_ORIENTATION_HORIZONTAL ? 12 : 6);
  GtkAlign main = GTK_ALIGN_FILL;
  GtkAlign cross = GTK_ALIGN_FILL;

  if (g_strcmp0 (justify, "center") == 0)
    main = GTK_ALIGN_CENTER;
  else if (g_strcmp0 (justify, "end") == 0)
    main = GTK_ALIGN_END;
  else if (orientation == GTK_ORIENTATION_HORIZONTAL && !spread)
    main = GTK_ALIGN_START;

  if (g_strcmp0 (align, "center") == 0)
    cross = GTK_ALIGN_CENTER;
  else if (g_strcmp0 (align, "end") == 0)
    cross = GTK_ALIGN_END;
  else if (g_strcmp0 (align, "start") == 0)
    cross = GTK_ALIGN_START;

  gtk_box_set_homogeneous (GTK_BOX (box), spread);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    gtk_widget_set_halign (box, main);
  else
    gtk_widget_set_valign (box, main);

  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = build (self, children->pdata[i], scopes->pdata[i], depth + 1);

      if (child == NULL)
        continue;
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          gtk_widget_set_valign (child, cross);
          if (spread)
            gtk_widget_set_hexpand (child, TRUE);
        }
      else if (cross != GTK_ALIGN_FILL)
        {
          gtk_widget_set_halign (child, cross);
          if (GTK_IS_LABEL (child))
            gtk_label_set_xalign (GTK_LABEL (child), cross == GTK_ALIGN_CENTER ? 0.5 : cross == GTK_ALIGN_END ? 1 : 0);
        }
      gtk_box_append (GTK_BOX (box), child);
    }

  return box;
}

static GtkWidget *
build_list (TandemA2uiSurfaceView *self,
            AguiA2uiComponent     *component,
            const char            *scope,
            guint                  depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = NULL;
  GtkWidget *list;

  if (g_strcmp0 (agui_a2ui_component_get_string (component, "direction"), "horizontal") == 0)
    return build_box (self, component, scope, depth, GTK_ORIENTATION_HORIZONTAL);

  children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");

  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = build (self, children->pdata[i], scopes->pdata[i], depth + 1);
      GtkWidget *row;

      if (child == NULL)
        continue;
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_margin_top (child, 8);
      gtk_widget_set_margin_bottom (child, 8);
      gtk_widget_set_margin_start (child, 12);
      gtk_widget_set_margin_end (child, 12);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), child);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }

  return list;
}

static GtkWidget *
build_card (TandemA2uiSurfaceView *self,
            AguiA2uiComponent     *component,
            const char            *scope,
            guint                  depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "a2ui-card");
  for (guint i = 0; i < children->len; i++)
    {
      GtkWidget *child = build (self, children->pdata[i], scopes->pdata[i], depth + 1);

      if (child != NULL)
        gtk_box_append (GTK_BOX (card), child);
    }

  return card;
}

static void
refresh_tab_title (TandemA2uiSurfaceView *self,
                   Binding               *binding)
{
  JsonNode *tabs = agui_a2ui_component_get_property (binding->component, "tabs");
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (binding->widget), "tandem-tab-index"));
  GtkStackPage *page = gtk_stack_get_page (GTK_STACK (gtk_widget_get_parent (binding->widget)), binding->widget);
  g_autofree char *title = NULL;
  JsonNode *tab;

  if (page == NULL || tabs == NULL || !JSON_NODE_HOLDS_ARRAY (tabs) ||
      index >= json_array_get_length (json_node_get_array (tabs)))
    return;

  tab = json_array_get_element (json_node_get_array (tabs), index);
  if (JSON_NODE_HOLDS_OBJECT (tab))
    title = agui_a2ui_surface_resolve_string (self->surface, json_object_get_member (json_node_get_object (tab), "title"),
                                              binding->scope);
  gtk_stack_page_set_title (page, title ? title : "");
}

static GtkWidget *
build_tabs (TandemA2uiSurfaceView *self,
            AguiA2uiComponent     *component,
            const char            *scope,
            guint                  depth)
{
  JsonNode *tabs = agui_a2ui_component_get_property (component, "tabs");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();
  JsonArray *array;

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  gtk_stack_set_vhomogeneous (GTK_STACK (stack), FALSE);
  gtk_box_append (GTK_BOX (box), switcher);
  gtk_box_append (GTK_BOX (box), stack);

  if (tabs == NULL || !JSON_NODE_HOLDS_ARRAY (tabs))
    return box;

  array = json_node_get_array (tabs);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *tab = json_array_get_element (array, i);
      AguiA2uiComponent *child_component;
      GtkWidget *child;
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (tab))
        continue;
      id = string_member (json_node_get_object (tab), "child");
      if ((child_component = agui_a2ui_surface_get_component (self->surface, id)) == NULL ||
          (child = build (self, child_component, scope, depth + 1)) == NULL)
        continue;

      gtk_stack_add_child (GTK_STACK (stack), child);
      g_object_set_data (G_OBJECT (child), "tandem-tab-index", GUINT_TO_POINTER (i));
      bind (self, child, component, scope, refresh_tab_title);
    }

  return box;
}

typedef struct
{
  TandemA2uiSurfaceView *self;
  AguiA2uiComponent     *component;
  char                  *scope;
} ModalData;

static void
modal_data_free (gpointer data)
{
  ModalData *modal = data;

  g_clear_object (&modal->component);
  g_free (modal->scope);
  g_free (modal);
}

static void
on_modal_trigger_clicked_cb (GtkButton *button,
                             ModalData *modal)
{
  TandemA2uiSurfaceView *self = modal->self;
  AguiA2uiComponent *content;
  GtkWidget *window;
  GtkWidget *header;
  GtkWidget *box;
  GtkWidget *child;
  GtkRoot *root;
  JsonNode *id = agui_a2ui_component_get_property (modal->component, "content");

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING ||
      (content = agui_a2ui_surface_get_component (self->surface, json_node_get_string (id))) == NULL)
    return;

  /* Non-modal: the conversation stays usable while it is open. */
  window = adw_window_new ();
  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  gtk_window_set_modal (GTK_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 420, -1);
  gtk_window_set_title (GTK_WINDOW (window), gtk_widget_get_tooltip_text (GTK_WIDGET (button)));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  child = build (self, content, modal->scope, 1);
  if (child != NULL)
    {
      gtk_widget_set_margin_top (child, 12);
      gtk_widget_set_margin_bottom (child, 18);
      gtk_widget_set_margin_start (child, 18);
      gtk_widget_set_margin_end (child, 18);
      gtk_box_append (GTK_BOX (box), child);
    }
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
}

static GtkWidget *
build_modal (TandemA2uiSurfaceView *self,
             AguiA2uiComponent     *component,
             const char            *scope,
             guint                  depth)
{
  JsonNode *trigger_id = agui_a2ui_component_get_property (component, "trigger");
  AguiA2uiComponent *trigger = NULL;
  GtkWidget *button = gtk_button_new ();
  ModalData *modal;

  if (trigger_id != NULL && JSON_NODE_HOLDS_VALUE (trigger_id) && json_node_get_value_type (trigger_id) == G_TYPE_STRING)
    trigger = agui_a2ui_surface_get_component (self->surface, json_node_get_string (trigger_id));

  /* A trigger that is a Button lends its label; the click opens the dialog. */
  if (trigger != NULL && agui_a2ui_component_get_kind (trigger) == AGUI_A2UI_COMPONENT_BUTTON)
    {
      JsonNode *label_id = agui_a2ui_component_get_property (trigger, "child");

      if (label_id != NULL && JSON_NODE_HOLDS_VALUE (label_id) && json_node_get_value_type (label_id) == G_TYPE_STRING)
        trigger = agui_a2ui_surface_get_component (self->surface, json_node_get_string (label_id));
    }

  if (trigger != NULL)
    {
      GtkWidget *child = build (self, trigger, scope, depth + 1);

      if (child != NULL)
        {
          gtk_button_set_child (GTK_BUTTON (button), child);
          tandem_accessible_label_by_content (button, child);
        }
    }
  if (GTK_IS_LABEL (gtk_button_get_child (GTK_BUTTON (button))))
    gtk_widget_set_tooltip_text (button, gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)))));
  gtk_widget_set_halign (button, GTK_ALIGN_START);

  modal = g_new0 (ModalData, 1);
  modal->self = self;
  modal->component = g_object_ref (component);
  modal->scope = g_strdup (scope);
  g_signal_connect_data (button, "clicked", G_CALLBACK (on_modal_trigger_clicked_cb), modal,
                         (GClosureNotify) (void (*) (void)) modal_data_free, 0);

  return button;
}

static GtkWidget *
build_button (TandemA2uiSurfaceView *self,
              AguiA2uiComponent     *component,
              const char            *scope,
              guint                  depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = agui_a2ui_surface_list_children (self->surface, component, scope, &scopes);
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *button = gtk_button_new ();

  if (children->len > 0)
    {
      GtkWidget *child = build (self, children->pdata[0], scopes->pdata[0], depth + 1);

      /* A label inside a button is not selectable text. */
      if (GTK_IS_LABEL (child))
        gtk_label_set_selectable (GTK_LABEL (child), FALSE);
      if (child != NULL)
        {
          gtk_button_set_child (GTK_BUTTON (button), child);
          tandem_accessible_label_by_content (button, child);
        }
    }

  if (g_strcmp0 (variant, "primary") == 0)
    gtk_widget_add_css_class (button, "suggested-action");
  else if (g_strcmp0 (variant, "borderless") == 0)
    gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);

  g_object_set_data_full (G_OBJECT (button), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
  g_object_set_data_full (G_OBJECT (button), "tandem-a2ui-scope", g_strdup (scope), g_free);
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_button_clicked_cb), self, 0);

  return button;
}

static GtkWidget *
labelled (GtkWidget *field,
          GtkWidget *label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), field);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);

  return box;
}

static void
refresh_field_label (TandemA2uiSurfaceView *self,
                     Binding               *binding)
{
  g_autofree char *text = resolve_text (self, binding, "label");

  gtk_label_set_text (GTK_LABEL (binding->widget), text);
  gtk_widget_set_visible (binding->widget, text[0] != '\0');
}

static void
check_pattern (GtkWidget         *entry,
               AguiA2uiComponent *component,
               const char        *text)
{
  const char *pattern = agui_a2ui_component_get_string (component, "validationRegexp");
  gboolean valid = TRUE;

  /* The pattern is the agent's: a bad one validates nothing. */
  if (pattern != NULL)
    {
      g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, NULL);

      valid = regex == NULL || g_regex_match (regex, text, G_REGEX_MATCH_DEFAULT, NULL);
    }

  if (valid)
    gtk_widget_remove_css_class (entry, "error");
  else
    gtk_widget_add_css_class (entry, "error");
}

static void
on_entry_changed_cb (GtkEditable           *editable,
                     TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (editable), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (editable), "tandem-a2ui-scope");
  const char *text = gtk_editable_get_text (editable);
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  check_pattern (GTK_WIDGET (editable), component, text);

  if (g_strcmp0 (agui_a2ui_component_get_string (component, "variant"), "number") == 0)
    {
      char *end = NULL;
      double number = g_ascii_strtod (text, &end);

      if (text[0] == '\0' || end == NULL || *end != '\0')
        return;
      json_node_set_double (value, number);
    }
  else
    {
      json_node_set_string (value, text);
    }

  write_value (self, component, scope, "value", value);
}

static void
refresh_entry (TandemA2uiSurfaceView *self,
               Binding               *binding)
{
  g_autofree char *text = resolve_text (self, binding, "value");

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (binding->widget)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (binding->widget), text);
}

static void
on_text_buffer_changed_cb (GtkTextBuffer         *buffer,
                           TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (buffer), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (buffer), "tandem-a2ui-scope");
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  json_node_set_string (value, text);
  write_value (self, component, scope, "value", value);
}

static void
refresh_text_view (TandemA2uiSurfaceView *self,
                   Binding               *binding)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (binding->widget));
  g_autofree char *text = resolve_text (self, binding, "value");
  g_autofree char *current = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  current = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (current, text) != 0)
    gtk_text_buffer_set_text (buffer, text, -1);
}

static GtkWidget *
build_text_field (TandemA2uiSurfaceView *self,
                  AguiA2uiComponent     *component,
                  const char            *scope)
{
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *field;

  bind (self, label, component, scope, refresh_field_label);

  if (g_strcmp0 (variant, "longText") == 0)
    {
      GtkWidget *view = gtk_text_view_new ();
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));

      gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
      gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
      gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 6);
      gtk_widget_set_size_request (view, -1, 80);
      gtk_widget_add_css_class (view, "card");
      g_object_set_data_full (G_OBJECT (buffer), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
      g_object_set_data_full (G_OBJECT (buffer), "tandem-a2ui-scope", g_strdup (scope), g_free);
      bind (self, view, component, scope, refresh_text_view);
      g_signal_connect_object (buffer, "changed", G_CALLBACK (on_text_buffer_changed_cb), self, 0);
      field = view;
    }
  else
    {
      field = g_strcmp0 (variant, "obscured") == 0 ? gtk_password_entry_new () : gtk_entry_new ();
      if (GTK_IS_PASSWORD_ENTRY (field))
        gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (field), TRUE);
      else if (g_strcmp0 (variant, "number") == 0)
        gtk_entry_set_input_purpose (GTK_ENTRY (field), GTK_INPUT_PURPOSE_NUMBER);
      g_object_set_data_full (G_OBJECT (field), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
      g_object_set_data_full (G_OBJECT (field), "tandem-a2ui-scope", g_strdup (scope), g_free);
      bind (self, field, component, scope, refresh_entry);
      g_signal_connect_object (field, "changed", G_CALLBACK (on_entry_changed_cb), self, 0);
    }

  return labelled (field, label);
}

static void
on_check_toggled_cb (GtkCheckButton        *check,
                     TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (check), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (check), "tandem-a2ui-scope");
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  json_node_set_boolean (value, gtk_check_button_get_active (check));
  write_value (self, component, scope, "value", value);
}

static void
refresh_check (TandemA2uiSurfaceView *self,
               Binding               *binding)
{
  g_autofree char *label = resolve_text (self, binding, "label");
  JsonNode *value = agui_a2ui_surface_resolve (self->surface,
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);
  gboolean active = value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
                    json_node_get_value_type (value) == G_TYPE_BOOLEAN && json_node_get_boolean (value);

  gtk_check_button_set_label (GTK_CHECK_BUTTON (binding->widget), label);
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (binding->widget)) != active)
    gtk_check_button_set_active (GTK_CHECK_BUTTON (binding->widget), active);
}

static GtkWidget *
build_check_box (TandemA2uiSurfaceView *self,
                 AguiA2uiComponent     *component,
                 const char            *scope)
{
  GtkWidget *check = gtk_check_button_new ();

  g_object_set_data_full (G_OBJECT (check), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
  g_object_set_data_full (G_OBJECT (check), "tandem-a2ui-scope", g_strdup (scope), g_free);
  bind (self, check, component, scope, refresh_check);
  g_signal_connect_object (check, "toggled", G_CALLBACK (on_check_toggled_cb), self, 0);

  return check;
}

static void
on_slider_changed_cb (GtkRange              *range,
                      TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (range), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (range), "tandem-a2ui-scope");
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  json_node_set_double (value, gtk_range_get_value (range));
  write_value (self, component, scope, "value", value);
}

static void
refresh_slider (TandemA2uiSurfaceView *self,
                Binding               *binding)
{
  JsonNode *value = agui_a2ui_surface_resolve (self->surface,
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);

  if (value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
      (json_node_get_value_type (value) == G_TYPE_DOUBLE || json_node_get_value_type (value) == G_TYPE_INT64))
    gtk_range_set_value (GTK_RANGE (binding->widget), json_node_get_double (value));
}

static GtkWidget *
build_slider (TandemA2uiSurfaceView *self,
              AguiA2uiComponent     *component,
              const char            *scope)
{
  double min = agui_a2ui_component_get_number (component, "min", 0);
  double max = agui_a2ui_component_get_number (component, "max", 100);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *scale;

  if (!(max > min))
    max = min + 1;
  /* Whole numbers for a whole-number range: "5", not "5.00". */
  if (min == (double) (gint64) min && max == (double) (gint64) max && max - min >= 2)
    {
      scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, 1);
      gtk_scale_set_digits (GTK_SCALE (scale), 0);
      gtk_range_set_round_digits (GTK_RANGE (scale), 0);
    }
  else
    {
      scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, (max - min) / 100);
    }
  gtk_scale_set_draw_value (GTK_SCALE (scale), TRUE);
  gtk_widget_set_hexpand (scale, TRUE);
  g_object_set_data_full (G_OBJECT (scale), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
  g_object_set_data_full (G_OBJECT (scale), "tandem-a2ui-scope", g_strdup (scope), g_free);
  bind (self, label, component, scope, refresh_field_label);
  bind (self, scale, component, scope, refresh_slider);
  g_signal_connect_object (scale, "value-changed", G_CALLBACK (on_slider_changed_cb), self, 0);

  return labelled (scale, label);
}

/* A choice: one GtkCheckButton per option (grouped as radio buttons when
 * only one may be chosen), or toggle buttons for the "chips" style. */

static GtkWidget *
choice_container (GtkWidget *widget)
{
  return gtk_widget_get_parent (widget);
}

static void
on_choice_toggled_cb (GtkWidget             *button,
                      TandemA2uiSurfaceView *self)
{
  GtkWidget *box = choice_container (button);
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (box), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (box), "tandem-a2ui-scope");
  g_autoptr(JsonNode) value = NULL;
  JsonArray *selected = json_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      gboolean active = GTK_IS_CHECK_BUTTON (child) ? gtk_check_button_get_active (GTK_CHECK_BUTTON (child))
                                                    : gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (child));

      if (active)
        json_array_add_string_element (selected, g_object_get_data (G_OBJECT (child), "tandem-choice"));
    }

  value = json_node_init_array (json_node_alloc (), selected);
  json_array_unref (selected);
  write_value (self, component, scope, "value", value);
}

static void
refresh_choices (TandemA2uiSurfaceView *self,
                 Binding               *binding)
{
  JsonNode *value = agui_a2ui_surface_resolve (self->surface,
                                               agui_a2ui_component_get_property (binding->component, "value"),
                                               binding->scope);
  g_autoptr(GHashTable) chosen = g_hash_table_new (g_str_hash, g_str_equal);

  if (value != NULL && JSON_NODE_HOLDS_ARRAY (value))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (value)); i++)
      {
        JsonNode *element = json_array_get_element (json_node_get_array (value), i);

        if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
          g_hash_table_add (chosen, (gpointer) json_node_get_string (element));
      }
  else if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    g_hash_table_add (chosen, (gpointer) json_node_get_string (value));

  for (GtkWidget *child = gtk_widget_get_first_child (binding->widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gboolean active = g_hash_table_contains (chosen, g_object_get_data (G_OBJECT (child), "tandem-choice"));

      if (GTK_IS_CHECK_BUTTON (child))
        gtk_check_button_set_active (GTK_CHECK_BUTTON (child), active);
      else
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (child), active);
    }
}

static GtkWidget *
build_choice_picker (TandemA2uiSurfaceView *self,
                     AguiA2uiComponent     *component,
                     const char            *scope)
{
  JsonNode *options = agui_a2ui_component_get_property (component, "options");
  gboolean single = g_strcmp0 (agui_a2ui_component_get_string (component, "variant"), "mutuallyExclusive") == 0;
  gboolean chips = g_strcmp0 (agui_a2ui_component_get_string (component, "displayStyle"), "chips") == 0;
  GtkWidget *box = gtk_box_new (chips ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, chips ? 6 : 2);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *first = NULL;

  g_object_set_data_full (G_OBJECT (box), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
  g_object_set_data_full (G_OBJECT (box), "tandem-a2ui-scope", g_strdup (scope), g_free);

  for (guint i = 0; options != NULL && JSON_NODE_HOLDS_ARRAY (options) &&
                    i < json_array_get_length (json_node_get_array (options)); i++)
    {
      JsonNode *option = json_array_get_element (json_node_get_array (options), i);
      g_autofree char *text = NULL;
      g_autofree char *choice = NULL;
      GtkWidget *button;

      if (!JSON_NODE_HOLDS_OBJECT (option))
        continue;
      text = agui_a2ui_surface_resolve_string (self->surface, json_object_get_member (json_node_get_object (option), "label"), scope);
      choice = agui_a2ui_surface_resolve_string (self->surface, json_object_get_member (json_node_get_object (option), "value"), scope);
      if (choice == NULL)
        continue;

      if (chips)
        {
          button = gtk_toggle_button_new_with_label (text ? text : choice);
          gtk_widget_add_css_class (button, "pill");
          if (single && first != NULL)
            gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), GTK_TOGGLE_BUTTON (first));
        }
      else
        {
          button = gtk_check_button_new_with_label (text ? text : choice);
          if (single && first != NULL)
            gtk_check_button_set_group (GTK_CHECK_BUTTON (button), GTK_CHECK_BUTTON (first));
        }
      if (first == NULL)
        first = button;
      g_object_set_data_full (G_OBJECT (button), "tandem-choice", g_steal_pointer (&choice), g_free);
      gtk_box_append (GTK_BOX (box), button);
    }

  bind (self, label, component, scope, refresh_field_label);
  bind (self, box, component, scope, refresh_choices);
  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    g_signal_connect_object (child, "toggled", G_CALLBACK (on_choice_toggled_cb), self, 0);

  return labelled (box, label);
}

/* A date and time as ISO 8601 text: a calendar for the date, spin buttons
 * for the time, both in a popover. */

typedef struct
{
  GtkCalendar   *calendar;
  GtkSpinButton *hour;
  GtkSpinButton *minute;
  GtkMenuButton *button;
} DateTimeWidgets;

static char *
format_date_time (DateTimeWidgets *widgets)
{
  g_autoptr(GDateTime) date = widgets->calendar ? gtk_calendar_get_date (widgets->calendar) : NULL;
  g_autofree char *day = date ? g_date_time_format (date, "%Y-%m-%d") : NULL;
  g_autofree char *time = NULL;

  if (widgets->hour != NULL)
    time = g_strdup_printf ("%02d:%02d", gtk_spin_button_get_value_as_int (widgets->hour),
                            gtk_spin_button_get_value_as_int (widgets->minute));

  if (day != NULL && time != NULL)
    return g_strdup_printf ("%sT%s:00", day, time);

  return g_strdup (day ? day : time ? time : "");
}

static void
on_date_time_changed_cb (GtkWidget             *widget,
                         TandemA2uiSurfaceView *self)
{
  GtkWidget *button = g_object_get_data (G_OBJECT (widget), "tandem-date-button");
  DateTimeWidgets *widgets = g_object_get_data (G_OBJECT (button), "tandem-date-widgets");
  AguiA2uiComponent *component = g_object_get_data (G_OBJECT (button), "tandem-a2ui-component");
  const char *scope = g_object_get_data (G_OBJECT (button), "tandem-a2ui-scope");
  g_autofree char *text = format_date_time (widgets);
  g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

  if (self->refreshing)
    return;
  gtk_menu_button_set_label (widgets->button, text);
  json_node_set_string (value, text);
  write_value (self, component, scope, "value", value);
}

static void
refresh_date_time (TandemA2uiSurfaceView *self,
                   Binding               *binding)
{
  DateTimeWidgets *widgets = g_object_get_data (G_OBJECT (binding->widget), "tandem-date-widgets");
  g_autofree char *text = resolve_text (self, binding, "value");
  g_autoptr(GDateTime) parsed = NULL;
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

  gtk_menu_button_set_label (widgets->button, text[0] != '\0' ? text : _("Choose…"));

  parsed = g_date_time_new_from_iso8601 (text, utc);
  if (parsed == NULL && strlen (text) == 10)
    {
      g_autofree char *midnight = g_strconcat (text, "T00:00:00", NULL);

      parsed = g_date_time_new_from_iso8601 (midnight, utc);
    }
  if (parsed == NULL)
    {
      int hour, minute;

      if (widgets->hour != NULL && sscanf (text, "%d:%d", &hour, &minute) == 2)
        {
          gtk_spin_button_set_value (widgets->hour, CLAMP (hour, 0, 23));
          gtk_spin_button_set_value (widgets->minute, CLAMP (minute, 0, 59));
        }
      return;
    }

  if (widgets->calendar != NULL)
    gtk_calendar_select_day (widgets->calendar, parsed);
  if (widgets->hour != NULL)
    {
      gtk_spin_button_set_value (widgets->hour, g_date_time_get_hour (parsed));
      gtk_spin_button_set_value (widgets->minute, g_date_time_get_minute (parsed));
    }
}

static GtkWidget *
build_date_time (TandemA2uiSurfaceView *self,
                 AguiA2uiComponent     *component,
                 const char            *scope)
{
  gboolean date = agui_a2ui_component_get_boolean (component, "enableDate", TRUE);
  gboolean time = agui_a2ui_component_get_boolean (component, "enableTime", FALSE);
  DateTimeWidgets *widgets = g_new0 (DateTimeWidgets, 1);
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  if (!date && !time)
    date = TRUE;

  widgets->button = GTK_MENU_BUTTON (button);
  if (date)
    {
      widgets->calendar = GTK_CALENDAR (gtk_calendar_new ());
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (widgets->calendar));
      g_object_set_data (G_OBJECT (widgets->calendar), "tandem-date-button", button);
    }
  if (time)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      widgets->hour = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 23, 1));
      widgets->minute = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 59, 1));
      gtk_spin_button_set_wrap (widgets->hour, TRUE);
      gtk_spin_button_set_wrap (widgets->minute, TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (widgets->hour), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Hour"), -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (widgets->minute), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Minute"), -1);
      gtk_box_append (GTK_BOX (row), GTK_WIDGET (widgets->hour));
      gtk_box_append (GTK_BOX (row), gtk_label_new (":"));
      gtk_box_append (GTK_BOX (row), GTK_WIDGET (widgets->minute));
      gtk_widget_set_halign (row, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), row);
      g_object_set_data (G_OBJECT (widgets->hour), "tandem-date-button", button);
      g_object_set_data (G_OBJECT (widgets->minute), "tandem-date-button", button);
    }

  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_always_show_arrow (GTK_MENU_BUTTON (button), TRUE);
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  g_object_set_data_full (G_OBJECT (button), "tandem-date-widgets", widgets, g_free);
  g_object_set_data_full (G_OBJECT (button), "tandem-a2ui-component", g_object_ref (component), g_object_unref);
  g_object_set_data_full (G_OBJECT (button), "tandem-a2ui-scope", g_strdup (scope), g_free);

  bind (self, label, component, scope, refresh_field_label);
  bind (self, button, component, scope, refresh_date_time);

  if (widgets->calendar != NULL)
    g_signal_connect_object (widgets->calendar, "day-selected", G_CALLBACK (on_date_time_changed_cb), self, 0);
  if (widgets->hour != NULL)
    {
      g_signal_connect_object (widgets->hour, "value-changed", G_CALLBACK (on_date_time_changed_cb), self, 0);
      g_signal_connect_object (widgets->minute, "value-changed", G_CALLBACK (on_date_time_changed_cb), self, 0);
    }

  return labelled (button, label);
}

static GtkWidget *
build_placeholder (AguiA2uiComponent *component)
{
  g_autofree char *text = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label;

  /* Translators: %s is the type of a component an agent sent, such as "Video" */
  text = g_strdup_printf (_("Unsupported component “%s”"), agui_a2ui_component_get_type_name (component));
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("dialog-information-symbolic"));
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_add_css_class (box, "dim-label");
  gtk_widget_add_css_class (box, "a2ui-placeholder");

  return box;
}

static GtkWidget *
build (TandemA2uiSurfaceView *self,
       AguiA2uiComponent     *component,
       const char            *scope,
       guint                  depth)
{
  const char *id = agui_a2ui_component_get_id (component);
  GtkWidget *widget = NULL;

  /* The model lists cycles and depth as errors; here they end the walk. */
  if (depth > MAX_DEPTH || g_hash_table_contains (self->ancestors, id))
    return NULL;
  g_hash_table_add (self->ancestors, (gpointer) id);

  switch (agui_a2ui_component_get_kind (component))
    {
    case AGUI_A2UI_COMPONENT_TEXT:
      widget = build_text (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_IMAGE:
      widget = build_image (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_ICON:
      widget = gtk_image_new ();
      gtk_image_set_icon_size (GTK_IMAGE (widget), GTK_ICON_SIZE_NORMAL);
      gtk_widget_set_halign (widget, GTK_ALIGN_START);
      bind (self, widget, component, scope, refresh_icon);
      break;

    case AGUI_A2UI_COMPONENT_DIVIDER:
      widget = gtk_separator_new (g_strcmp0 (agui_a2ui_component_get_string (component, "axis"), "vertical") == 0
                                  ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
      break;

    case AGUI_A2UI_COMPONENT_ROW:
      widget = build_box (self, component, scope, depth, GTK_ORIENTATION_HORIZONTAL);
      break;

    case AGUI_A2UI_COMPONENT_COLUMN:
      widget = build_box (self, component, scope, depth, GTK_ORIENTATION_VERTICAL);
      break;

    case AGUI_A2UI_COMPONENT_LIST:
      widget = build_list (self, component, scope, depth);
      break;

    case AGUI_A2UI_COMPONENT_CARD:
      widget = build_card (self, component, scope, depth);
      break;

    case AGUI_A2UI_COMPONENT_TABS:
      widget = build_tabs (self, component, scope, depth);
      break;

    case AGUI_A2UI_COMPONENT_MODAL:
      widget = build_modal (self, component, scope, depth);
      break;

    case AGUI_A2UI_COMPONENT_BUTTON:
      widget = build_button (self, component, scope, depth);
      break;

    case AGUI_A2UI_COMPONENT_TEXT_FIELD:
      widget = build_text_field (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_CHECK_BOX:
      widget = build_check_box (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_DATE_TIME_INPUT:
      widget = build_date_time (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_CHOICE_PICKER:
      widget = build_choice_picker (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_SLIDER:
      widget = build_slider (self, component, scope);
      break;

    case AGUI_A2UI_COMPONENT_UNKNOWN:
    default:
      widget = build_placeholder (component);
      break;
    }

  g_hash_table_remove (self->ancestors, id);

  if (widget != NULL && !g_hash_table_contains (self->widgets, id))
    g_hash_table_insert (self->widgets, g_strdup (id), widget);

  return widget;
}

/* Following the part */

static void
rebuild (TandemA2uiSurfaceView *self)
{
  AguiA2uiComponent *root = agui_a2ui_surface_get_root (self->surface);
  const char *status = agui_a2ui_surface_get_status (self->surface);

  g_ptr_array_set_size (self->bindings, 0);
  g_hash_table_remove_all (self->widgets);
  if (self->tree != NULL)
    {
      gtk_box_remove (GTK_BOX (self->content), self->tree);
      self->tree = NULL;
    }

  if (root != NULL)
    {
      self->tree = build (self, root, NULL, 0);
      if (self->tree != NULL)
        gtk_box_append (GTK_BOX (self->content), self->tree);
    }
  else if (agui_a2ui_surface_get_deleted (self->surface))
    {
      self->tree = gtk_label_new (_("The agent removed this interface."));
      gtk_widget_add_css_class (self->tree, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (self->tree), 0);
      gtk_box_append (GTK_BOX (self->content), self->tree);
    }

  if (root == NULL && (g_strcmp0 (status, "building") == 0 || g_strcmp0 (status, "retrying") == 0))
    {
      set_status (self, g_str_equal (status, "building") ? _("The agent is building an interface…")
                                                           : _("The agent is trying again to build an interface…"), TRUE);
      self->lifecycle_status = TRUE;
    }
  else if (self->lifecycle_status)
    {
      set_status (self, NULL, FALSE);
      self->lifecycle_status = FALSE;
    }

  self->n_builds++;
  update_errors (self);

  /* Before beginRendering nothing shows, not even an empty frame. */
  gtk_widget_set_visible (GTK_WIDGET (self), self->tree != NULL || gtk_widget_get_visible (self->errors) ||
                                             self->status_text != NULL);
}

static void
refresh (TandemA2uiSurfaceView *self)
{
  self->refreshing = TRUE;
  for (guint i = 0; i < self->bindings->len; i++)
    {
      Binding *binding = g_ptr_array_index (self->bindings, i);

      binding->refresh (self, binding);
    }
  self->refreshing = FALSE;
  update_errors (self);
}

static void
on_structure_changed_cb (TandemA2uiSurfaceView *self)
{
  rebuild (self);
}

static void
on_data_changed_cb (TandemA2uiSurfaceView *self)
{
  /* The person's own typing changes the data too: the widget that wrote
   * already shows the value, and the others bound to it follow. */
  refresh (self);
}

static void
on_part_content_cb (TandemA2uiSurfaceView *self)
{
  agui_a2ui_surface_apply_content (self->surface, agui_activity_part_get_content (self->part));
}

/* GObject */

static void
tandem_a2ui_surface_view_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tandem_a2ui_surface_view_parent_class)->root (widget);

  /* In a window now: its conversation is the one to keep values with */
  keep_values (TANDEM_A2UI_SURFACE_VIEW (widget));
}

static void
tandem_a2ui_surface_view_dispose (GObject *object)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->bindings != NULL)
    g_ptr_array_set_size (self->bindings, 0);
  if (self->widgets != NULL)
    g_hash_table_remove_all (self->widgets);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  if (self->surface != NULL)
    g_signal_handlers_disconnect_by_data (self->surface, self);
  g_clear_object (&self->part);
  g_clear_object (&self->session);
  g_clear_object (&self->surface);

  G_OBJECT_CLASS (tandem_a2ui_surface_view_parent_class)->dispose (object);
}

static void
tandem_a2ui_surface_view_finalize (GObject *object)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->bindings, g_ptr_array_unref);
  g_clear_pointer (&self->widgets, g_hash_table_unref);
  g_clear_pointer (&self->ancestors, g_hash_table_unref);
  g_clear_pointer (&self->status_text, g_free);

  G_OBJECT_CLASS (tandem_a2ui_surface_view_parent_class)->finalize (object);
}

static void
tandem_a2ui_surface_view_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PART:
      g_value_set_object (value, self->part);
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_a2ui_surface_view_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PART:
      g_assert (self->part == NULL);
      self->part = g_value_dup_object (value);
      break;

    case PROP_SESSION:
      tandem_a2ui_surface_view_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GQuark
surface_quark (void)
{
  return g_quark_from_static_string ("tandem-a2ui-surface");
}

static void
tandem_a2ui_surface_view_constructed (GObject *object)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  G_OBJECT_CLASS (tandem_a2ui_surface_view_parent_class)->constructed (object);

  /* One model per part, kept on the part: a list view that recycles this
   * widget, or draws the part again, keeps what the person entered. */
  if (self->part != NULL)
    {
      AguiA2uiSurface *shared = g_object_get_qdata (G_OBJECT (self->part), surface_quark ());

      if (shared == NULL)
        {
          shared = agui_a2ui_surface_new ();
          g_object_set_qdata_full (G_OBJECT (self->part), surface_quark (), shared, g_object_unref);
        }
      self->surface = g_object_ref (shared);
    }
  else
    {
      self->surface = agui_a2ui_surface_new ();
    }

  g_signal_connect_object (self->surface, "structure-changed", G_CALLBACK (on_structure_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->surface, "data-changed", G_CALLBACK (on_data_changed_cb), self, G_CONNECT_SWAPPED);

  if (self->part != NULL)
    {
      g_signal_connect_object (self->part, "notify::content", G_CALLBACK (on_part_content_cb), self, G_CONNECT_SWAPPED);
      agui_a2ui_surface_apply_content (self->surface, agui_activity_part_get_content (self->part));
      /* What the person had set, over what the agent sent */
      keep_values (self);
    }

  /* apply_content() emits nothing for a surface that stays empty. */
  if (self->n_builds == 0)
    rebuild (self);
}

static void
tandem_a2ui_surface_view_class_init (TandemA2uiSurfaceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_a2ui_surface_view_dispose;
  object_class->finalize = tandem_a2ui_surface_view_finalize;
  object_class->get_property = tandem_a2ui_surface_view_get_property;
  object_class->set_property = tandem_a2ui_surface_view_set_property;
  object_class->constructed = tandem_a2ui_surface_view_constructed;
  widget_class->root = tandem_a2ui_surface_view_root;

  properties[PROP_PART] =
    g_param_spec_object ("part", NULL, NULL, AGUI_TYPE_ACTIVITY_PART,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AGUI_TYPE_AGENT_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TandemA2uiSurfaceView::action:
   * @user_action: the A2UI `userAction`, its context resolved
   *
   * The person pressed a button with an action for the agent. Return
   * %TRUE to send it yourself; otherwise the view sends it through its
   * session and shows how that went.
   */
  signals[ACTION] =
    g_signal_new ("action", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 1, JSON_TYPE_OBJECT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "a2uisurface");
}

static void
tandem_a2ui_surface_view_init (TandemA2uiSurfaceView *self)
{
  self->cancellable = g_cancellable_new ();
  self->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  self->widgets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->ancestors = g_hash_table_new (g_str_hash, g_str_equal);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self->box), self->content);

  self->errors = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_name (self->errors, "a2ui-errors");
  gtk_widget_add_css_class (self->errors, "a2ui-errors");
  gtk_widget_set_visible (self->errors, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->errors);

  self->status_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->status_spinner = gtk_spinner_new ();
  self->status_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->status_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 0);
  gtk_widget_add_css_class (self->status_label, "dim-label");
  gtk_widget_add_css_class (self->status_label, "caption");
  gtk_box_append (GTK_BOX (self->status_box), self->status_spinner);
  gtk_box_append (GTK_BOX (self->status_box), self->status_label);
  gtk_widget_set_visible (self->status_box, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->status_box);
}

/* API */

/**
 * tandem_a2ui_is_surface:
 * @part: an activity part
 *
 * Returns: whether @part is an A2UI surface this view draws
 */
gboolean
tandem_a2ui_is_surface (AguiActivityPart *part)
{
  g_return_val_if_fail (AGUI_IS_ACTIVITY_PART (part), FALSE);

  return g_strcmp0 (agui_activity_part_get_activity_type (part), AGUI_A2UI_ACTIVITY_TYPE) == 0;
}

GtkWidget *
tandem_a2ui_surface_view_new (AguiActivityPart *part,
                              AguiAgentSession *session)
{
  g_return_val_if_fail (AGUI_IS_ACTIVITY_PART (part), NULL);
  g_return_val_if_fail (!session || AGUI_IS_AGENT_SESSION (session), NULL);

  return g_object_new (TANDEM_TYPE_A2UI_SURFACE_VIEW, "part", part, "session", session, NULL);
}

AguiActivityPart *
tandem_a2ui_surface_view_get_part (TandemA2uiSurfaceView *self)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), NULL);

  return self->part;
}

AguiA2uiSurface *
tandem_a2ui_surface_view_get_surface (TandemA2uiSurfaceView *self)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), NULL);

  return self->surface;
}

AguiAgentSession *
tandem_a2ui_surface_view_get_session (TandemA2uiSurfaceView *self)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), NULL);

  return self->session;
}

void
tandem_a2ui_surface_view_set_session (TandemA2uiSurfaceView *self,
                                      AguiAgentSession      *session)
{
  g_return_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self));
  g_return_if_fail (!session || AGUI_IS_AGENT_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  if (self->surface != NULL)
    keep_values (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * tandem_a2ui_surface_view_get_widget:
 * @self: a surface view
 * @component_id: a component id
 *
 * Returns: (transfer none) (nullable): the first widget drawn for the
 *   component, for tests and accessibility checks
 */
GtkWidget *
tandem_a2ui_surface_view_get_widget (TandemA2uiSurfaceView *self,
                                     const char            *component_id)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), NULL);

  return g_hash_table_lookup (self->widgets, component_id);
}

const char *
tandem_a2ui_surface_view_get_status_text (TandemA2uiSurfaceView *self)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), NULL);

  return self->status_text;
}

guint
tandem_a2ui_surface_view_get_n_builds (TandemA2uiSurfaceView *self)
{
  g_return_val_if_fail (TANDEM_IS_A2UI_SURFACE_VIEW (self), 0);

  return self->n_builds;
}
