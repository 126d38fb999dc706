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

#include "tandem-a2ui-binding-private.h"
#include "tandem-a2ui-surface-view.h"
#include "tandem-a2ui-values.h"

/* An A2UI surface drawn with GTK widgets: built from an AguiActivityPart
 * whose activityType is "a2ui-surface", kept up to date by the part's
 * notify::content. A structural change rebuilds the widgets from the
 * root; a data-only change re-reads the bound properties of the widgets
 * there are. The agent's strings are only ever shown as plain text.
 *
 * The widgets of each family of components are built in a file of their
 * own (tandem-a2ui-display.c, -layout.c, -inputs.c); what each keeps is
 * in its TandemA2uiBinding. They are given the view's TandemA2uiBuilder
 * (tandem-a2ui-binding.c), never the view itself.
 *
 * A button's action goes to the agent through the view's session; the
 * ::action signal comes first and a handler returning TRUE takes it
 * over. */

#define MAX_DEPTH 64

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

  TandemA2uiBuilder  builder;
  GHashTable        *widgets;
  GHashTable        *ancestors;
  char              *status_text;
  guint              n_builds;
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

/* What the person sets is kept with the conversation the view is in,
 * and what they had set comes back (once per surface) */
static void
keep_values (TandemA2uiSurfaceView *self)
{
  if (self->session != NULL && self->part != NULL)
    tandem_a2ui_values_restore (self->surface, self->session, agui_part_get_message_id (AGUI_PART (self->part)));
}

static void
value_set (TandemA2uiBuilder *builder)
{
  keep_values (TANDEM_A2UI_SURFACE_VIEW (builder->widget));
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

  if ((session = self->session) == NULL)
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
                         const char       *url)
{
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
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_open_url_response_cb), g_strdup (url),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A Button of @component pressed: its function, or its action sent */
static void
press (TandemA2uiBuilder *builder,
       AguiA2uiComponent *component,
       const char        *scope)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (builder->widget);
  JsonNode *action = agui_a2ui_component_get_property (component, "action");
  JsonObject *object = action && JSON_NODE_HOLDS_OBJECT (action) ? json_node_get_object (action) : NULL;
  JsonNode *call = object ? json_object_get_member (object, "functionCall") : NULL;

  if (call != NULL && JSON_NODE_HOLDS_OBJECT (call))
    {
      JsonObject *function = json_node_get_object (call);
      JsonNode *args = json_object_get_member (function, "args");
      const char *name = _tandem_a2ui_string_member (function, "call");

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

static TandemA2uiBuildFunc
build_func (AguiA2uiComponentKind kind)
{
  TandemA2uiBuildFunc func;

  if ((func = _tandem_a2ui_display_builder (kind)) ||
      (func = _tandem_a2ui_layout_builder (kind)) ||
      (func = _tandem_a2ui_inputs_builder (kind)))
    return func;

  /* A kind no family draws (yet) */
  return _tandem_a2ui_display_builder (AGUI_A2UI_COMPONENT_UNKNOWN);
}

static GtkWidget *
build (TandemA2uiBuilder *builder,
       AguiA2uiComponent *component,
       const char        *scope,
       guint              depth)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (builder->widget);
  const char *id = agui_a2ui_component_get_id (component);
  GtkWidget *widget = NULL;

  /* The model lists cycles and depth as errors; here they end the walk. */
  if (depth > MAX_DEPTH || g_hash_table_contains (self->ancestors, id))
    return NULL;
  g_hash_table_add (self->ancestors, (gpointer) id);

  widget = build_func (agui_a2ui_component_get_kind (component)) (builder, component, scope, depth);

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

  g_ptr_array_set_size (self->builder.bindings, 0);
  g_hash_table_remove_all (self->widgets);
  if (self->tree != NULL)
    {
      gtk_box_remove (GTK_BOX (self->content), self->tree);
      self->tree = NULL;
    }

  if (root != NULL)
    {
      self->tree = build (&self->builder, root, NULL, 0);
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
  self->builder.refreshing = TRUE;
  for (guint i = 0; i < self->builder.bindings->len; i++)
    {
      TandemA2uiBinding *binding = g_ptr_array_index (self->builder.bindings, i);

      if (binding->refresh != NULL)
        binding->refresh (binding);
    }
  self->builder.refreshing = FALSE;
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
tandem_a2ui_surface_view_dispose (GObject *object)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->builder.bindings != NULL)
    g_ptr_array_set_size (self->builder.bindings, 0);
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
  self->builder.surface = NULL;

  G_OBJECT_CLASS (tandem_a2ui_surface_view_parent_class)->dispose (object);
}

static void
tandem_a2ui_surface_view_finalize (GObject *object)
{
  TandemA2uiSurfaceView *self = TANDEM_A2UI_SURFACE_VIEW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->builder.bindings, g_ptr_array_unref);
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
  self->builder.surface = self->surface;

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
  self->builder.widget = GTK_WIDGET (self);
  self->builder.cancellable = self->cancellable;
  self->builder.bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) _tandem_a2ui_binding_free);
  self->builder.build = build;
  self->builder.press = press;
  self->builder.value_set = value_set;
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
