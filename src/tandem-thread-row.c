/* tandem-thread-row.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-markdown-model.h"
#include "tandem-popover-point.h"
#include "tandem-thread-row.h"

/* One conversation in the sidebar: its title, the line of its messages a
 * search matched, when it was last updated, whether it waits for the
 * person, whether it is pinned, and a menu to pin, rename or delete it. The row follows its
 * AguiThreadInfo, which the thread list updates in place. */
struct _TandemThreadRow
{
  GtkListBoxRow   parent_instance;

  AguiThreadInfo *info;
  guint           waiting : 1;
  guint           working : 1;
  guint           unseen : 1;

  /* Template children */
  GtkLabel       *title_label;
  GtkLabel       *snippet_label;
  GtkLabel       *when_label;
  GtkWidget      *waiting_mark;
  GtkSpinner     *working_mark;
  GtkWidget      *unseen_mark;
  GtkWidget      *pin_mark;
  GtkMenuButton  *menu_button;

  GMenuModel     *menu_model;
  GtkWidget      *context_menu;  /* the same menu, at the pointer */
};

G_DEFINE_FINAL_TYPE (TandemThreadRow, tandem_thread_row, GTK_TYPE_LIST_BOX_ROW)

enum { PROP_0, PROP_INFO, PROP_WAITING, N_PROPS };
static GParamSpec *properties[N_PROPS];

static char *
format_relative_time (GDateTime *updated)
{
  g_autoptr(GDateTime) then = g_date_time_to_local (updated);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  GTimeSpan span;

  if (then == NULL)
    return g_strdup ("");

  span = g_date_time_difference (now, then);
  if (span < G_TIME_SPAN_MINUTE)
    return g_strdup (_("Just now"));
  if (span < G_TIME_SPAN_HOUR)
    {
      int minutes = (int) (span / G_TIME_SPAN_MINUTE);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d minute ago", "%d minutes ago", minutes), minutes);
    }
  if (g_date_time_get_year (now) == g_date_time_get_year (then) &&
      g_date_time_get_day_of_year (now) == g_date_time_get_day_of_year (then))
    return g_date_time_format (then, "%H:%M");
  if (span < 2 * G_TIME_SPAN_DAY)
    return g_strdup (_("Yesterday"));
  if (g_date_time_get_year (now) == g_date_time_get_year (then))
    /* Translators: a date in this year, see g_date_time_format() */
    return g_date_time_format (then, _("%e %B"));

  /* Translators: a date in another year, see g_date_time_format() */
  return g_date_time_format (then, _("%e %B %Y"));
}

/* Pin or Unpin, as the thread is now */
static void
tandem_thread_row_update_menu (TandemThreadRow *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  gboolean pinned = agui_thread_info_get_pinned (self->info);
  g_autoptr(GMenuItem) pin = g_menu_item_new (pinned ? _("Un_pin") : _("_Pin"), NULL);
  g_autoptr(GMenuItem) rename = g_menu_item_new (_("_Rename…"), NULL);
  g_autoptr(GMenuItem) delete = g_menu_item_new (_("_Delete"), NULL);
  const char *id = agui_thread_info_get_id (self->info);

  g_menu_item_set_action_and_target_value (pin, "win.set-thread-pinned", g_variant_new ("(sb)", id, !pinned));
  g_menu_item_set_action_and_target_value (rename, "win.rename-thread", g_variant_new_string (id));
  g_menu_item_set_action_and_target_value (delete, "win.delete-thread", g_variant_new_string (id));
  g_menu_append_item (menu, pin);
  g_menu_append_item (menu, rename);
  g_menu_append_item (menu, delete);
  gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
  g_set_object (&self->menu_model, G_MENU_MODEL (menu));
  gtk_widget_set_visible (self->pin_mark, pinned);
}

/* The ⋮ menu again, where the person clicked (x, y in the row), or
 * under the row's title for the keyboard (x < 0) */
static void
tandem_thread_row_popup_at (TandemThreadRow *self,
                            double           x,
                            double           y)
{
  if (self->info == NULL)
    return;

  if (x < 0 || y < 0)
    {
      graphene_rect_t bounds;

      if (!gtk_widget_compute_bounds (GTK_WIDGET (self->title_label), GTK_WIDGET (self), &bounds))
        graphene_rect_init (&bounds, 0, 0, 0, 0);
      x = bounds.origin.x;
      y = bounds.origin.y + bounds.size.height;
    }

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  self->context_menu = gtk_popover_menu_new_from_model (self->menu_model);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  tandem_popover_point_at (GTK_POPOVER (self->context_menu), x, y);
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
on_secondary_pressed_cb (TandemThreadRow *self,
                         int              n_press,
                         double           x,
                         double           y,
                         GtkGestureClick *gesture)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  tandem_thread_row_popup_at (self, x, y);
}

/* Shift+F10 and the Menu key on the row: a row's ⋮ button is not a
 * stop of its own for the keyboard */
static gboolean
on_key_pressed_cb (TandemThreadRow       *self,
                   guint                  keyval,
                   guint                  keycode,
                   GdkModifierType        state,
                   GtkEventControllerKey *controller)
{
  GdkModifierType modifiers = state & gtk_accelerator_get_default_mod_mask ();

  if (!((keyval == GDK_KEY_F10 && modifiers == GDK_SHIFT_MASK) ||
        (keyval == GDK_KEY_Menu && modifiers == 0)))
    return FALSE;

  tandem_thread_row_popup_at (self, -1, -1);
  return TRUE;
}

static void
tandem_thread_row_update (TandemThreadRow *self)
{
  const char *title = agui_thread_info_get_title (self->info);
  const char *found = agui_thread_info_get_snippet (self->info);
  g_autofree char *snippet = NULL;
  g_autofree char *when = format_relative_time (agui_thread_info_get_updated (self->info));

  if (title == NULL || title[0] == '\0')
    title = _("Untitled conversation");

  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->when_label, when);
  /* The store quotes the message's own line, in Markdown; the ellipsis
   * that says it was cut is kept out of the parse, where it would hide
   * a heading's or a list's mark. */
  if (found != NULL && g_str_has_prefix (found, "…"))
    {
      g_autofree char *rest = tandem_markdown_plain_text (found + strlen ("…"));

      snippet = g_strconcat ("…", rest, NULL);
    }
  else if (found != NULL)
    {
      snippet = tandem_markdown_plain_text (found);
    }

  /* An empty snippet: the thread matched, but no line can be shown */
  gtk_label_set_text (self->snippet_label, snippet ? snippet : "");
  gtk_widget_set_visible (GTK_WIDGET (self->snippet_label), snippet != NULL && snippet[0] != '\0');
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);
}

static void
tandem_thread_row_set_info (TandemThreadRow *self,
                            AguiThreadInfo  *info)
{
  g_assert (self->info == NULL);
  g_assert (AGUI_IS_THREAD_INFO (info));

  self->info = g_object_ref (info);

  g_signal_connect_object (info, "notify", G_CALLBACK (tandem_thread_row_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (info, "notify::pinned", G_CALLBACK (tandem_thread_row_update_menu), self, G_CONNECT_SWAPPED);
  tandem_thread_row_update (self);
  tandem_thread_row_update_menu (self);
  tandem_thread_row_set_waiting (self, agui_thread_info_get_status (info) == AGUI_THREAD_WAITING_FOR_ANSWER);
}

/* The list is one Tab stop: the row's menu opens from the row itself,
 * by the Menu key, Shift+F10 or a secondary click, not by a Tab stop of
 * its own on the ⋮ button */
static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  tandem_thread_row_popup_at (TANDEM_THREAD_ROW (widget), -1, -1);
}

static void
tandem_thread_row_dispose (GObject *object)
{
  TandemThreadRow *self = TANDEM_THREAD_ROW (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_THREAD_ROW);
  g_clear_object (&self->menu_model);
  g_clear_object (&self->info);

  G_OBJECT_CLASS (tandem_thread_row_parent_class)->dispose (object);
}

static void
tandem_thread_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TandemThreadRow *self = TANDEM_THREAD_ROW (object);

  switch (prop_id)
    {
    case PROP_INFO:
      g_value_set_object (value, self->info);
      break;

    case PROP_WAITING:
      g_value_set_boolean (value, self->waiting);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_thread_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TandemThreadRow *self = TANDEM_THREAD_ROW (object);

  switch (prop_id)
    {
    case PROP_INFO:
      tandem_thread_row_set_info (self, g_value_get_object (value));
      break;

    case PROP_WAITING:
      tandem_thread_row_set_waiting (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_thread_row_class_init (TandemThreadRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_thread_row_dispose;
  object_class->get_property = tandem_thread_row_get_property;
  object_class->set_property = tandem_thread_row_set_property;

  properties[PROP_INFO] =
    g_param_spec_object ("info", NULL, NULL, AGUI_TYPE_THREAD_INFO,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /* The store's word, unless the window knows better: the open
   * conversation may be ahead of its last saved turn. */
  properties[PROP_WAITING] =
    g_param_spec_boolean ("waiting", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-thread-row.ui");
  gtk_widget_class_install_action (widget_class, "thread.menu", NULL, menu_action);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, snippet_label);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, when_label);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, waiting_mark);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, working_mark);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, unseen_mark);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, pin_mark);
  gtk_widget_class_bind_template_child (widget_class, TandemThreadRow, menu_button);
}

static void
tandem_thread_row_init (TandemThreadRow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  /* The menu button's own button, which GtkMenuButton keeps inside */
  gtk_widget_set_focusable (gtk_widget_get_first_child (GTK_WIDGET (self->menu_button)), FALSE);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

/**
 * tandem_thread_row_get_context_menu:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the menu the secondary click or
 *   the keyboard opened last, if any
 */
GtkPopover *
tandem_thread_row_get_context_menu (TandemThreadRow *self)
{
  g_return_val_if_fail (TANDEM_IS_THREAD_ROW (self), NULL);

  return self->context_menu ? GTK_POPOVER (self->context_menu) : NULL;
}

GtkWidget *
tandem_thread_row_new (AguiThreadInfo *info)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (info), NULL);

  return g_object_new (TANDEM_TYPE_THREAD_ROW, "info", info, NULL);
}

AguiThreadInfo *
tandem_thread_row_get_info (TandemThreadRow *self)
{
  g_return_val_if_fail (TANDEM_IS_THREAD_ROW (self), NULL);

  return self->info;
}

/* One mark at a time, the one that asks most of the person first; a
 * screen reader hears it as the row's description. */
static void
tandem_thread_row_update_marks (TandemThreadRow *self)
{
  const char *description = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->working_mark), self->working && !self->waiting);
  gtk_spinner_set_spinning (self->working_mark, self->working && !self->waiting);
  gtk_widget_set_visible (self->unseen_mark, self->unseen && !self->working && !self->waiting);

  if (self->waiting)
    description = _("Waiting for your answer");
  else if (self->working)
    description = _("The agent is answering");
  else if (self->unseen)
    description = _("New answer");

  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

gboolean
tandem_thread_row_get_waiting (TandemThreadRow *self)
{
  g_return_val_if_fail (TANDEM_IS_THREAD_ROW (self), FALSE);

  return self->waiting;
}

void
tandem_thread_row_set_waiting (TandemThreadRow *self,
                               gboolean         waiting)
{
  g_return_if_fail (TANDEM_IS_THREAD_ROW (self));

  waiting = !!waiting;
  if (self->waiting == waiting)
    return;

  self->waiting = waiting;
  gtk_widget_set_visible (self->waiting_mark, waiting);
  if (waiting)
    gtk_widget_add_css_class (GTK_WIDGET (self), "waiting");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "waiting");
  tandem_thread_row_update_marks (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WAITING]);
}

gboolean
tandem_thread_row_get_working (TandemThreadRow *self)
{
  g_return_val_if_fail (TANDEM_IS_THREAD_ROW (self), FALSE);

  return self->working;
}

gboolean
tandem_thread_row_get_unseen (TandemThreadRow *self)
{
  g_return_val_if_fail (TANDEM_IS_THREAD_ROW (self), FALSE);

  return self->unseen;
}

/**
 * tandem_thread_row_set_activity:
 * @self: a row
 * @working: whether its agent is answering now
 * @unseen: whether an answer ended that the person has not seen
 *
 * What the window knows of the conversation beyond the store's word.
 */
void
tandem_thread_row_set_activity (TandemThreadRow *self,
                                gboolean         working,
                                gboolean         unseen)
{
  g_return_if_fail (TANDEM_IS_THREAD_ROW (self));

  if (self->working == !!working && self->unseen == !!unseen)
    return;

  self->working = !!working;
  self->unseen = !!unseen;
  tandem_thread_row_update_marks (self);
}
