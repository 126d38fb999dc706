/* tandem-window.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agui-run-state-private.h"

#include "tandem-accessible.h"
#include "tandem-approval-dialog.h"
#include "tandem-block-row.h"
#include "tandem-desktop-tools.h"
#include "tandem-composer.h"
#include "tandem-quit-dialog.h"
#include "tandem-sidebar.h"
#include "tandem-window-private.h"

G_DEFINE_FINAL_TYPE (TandemWindow, tandem_window, ADW_TYPE_APPLICATION_WINDOW)

static void
on_sidebar_thread_activated_cb (TandemWindow *self,
                                const char   *id)
{
  if (self->session == NULL || g_strcmp0 (id, agui_agent_session_get_thread_id (self->session)) != 0)
    tandem_window_open_thread (self, id);
  /* Opening a result ends the search, or the next new chat is hidden */
  tandem_keyboard_search_done (self->keyboard);

  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
}

static void tandem_window_queue_fit_agent (TandemWindow *self);

static void
on_agent_selected_cb (TandemWindow *self,
                      GParamSpec   *pspec,
                      GtkDropDown  *dropdown)
{
  TandemAgent *agent = gtk_drop_down_get_selected_item (dropdown);
  const char *id;

  /* The welcome page's copy follows, a moment later: not while the
   * agents' list tells the header's of a change, which it has not told
   * the copy yet */
  if (dropdown == self->agent_dropdown)
    tandem_window_queue_fit_agent (self);

  if (self->syncing_dropdown || agent == NULL)
    return;

  id = tandem_agent_get_id (agent);
  if (g_strcmp0 (id, self->agent_id) == 0)
    return;

  if (self->agents != NULL)
    tandem_agents_set_active_id (self->agents, id);

  /* A new conversation starts over with that agent */
  _tandem_window_open (self, NULL, id);
}

/* The composer */

/**
 * tandem_window_handle_composer_key:
 * @self: a window
 * @keyval: the key pressed
 * @state: the modifiers held
 *
 * What the composer does with a key, before the text view sees it (see
 * tandem_composer_handle_key(), which the composer's key controller
 * calls); tests call this, as GTK 4 cannot synthesize key events.
 *
 * Returns: %TRUE if the key was handled
 */
gboolean
tandem_window_handle_composer_key (TandemWindow    *self,
                                   guint            keyval,
                                   GdkModifierType  state)
{
  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  return tandem_composer_handle_key (self->composer, keyval, state);
}

/**
 * tandem_window_handle_escape:
 * @self: a window
 *
 * Escape stops the run only while focus is in the composer or the
 * transcript: pressed to close the conversation search, a popover or a
 * dialog, it is theirs. The window's key controller calls this; tests
 * call it directly, as GTK 4 cannot synthesize key events.
 *
 * Returns: %TRUE if the run was stopped
 */
gboolean
tandem_window_handle_escape (TandemWindow *self)
{
  GtkWidget *focus;

  g_return_val_if_fail (TANDEM_IS_WINDOW (self), FALSE);

  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (!_tandem_window_is_busy (self) || focus == NULL || gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return FALSE;

  if (focus != GTK_WIDGET (self->composer) && !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->composer)) &&
      focus != GTK_WIDGET (self->transcript_scroller) &&
      !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->transcript_scroller)))
    return FALSE;

  gtk_widget_activate_action (GTK_WIDGET (self), "win.stop", NULL);
  return TRUE;
}

static gboolean
on_window_key_pressed_cb (TandemWindow          *self,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          GtkEventControllerKey *controller)
{
  if (keyval != GDK_KEY_Escape || (state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;

  return tandem_window_handle_escape (self);
}

/* The window's buttons belong in its corners, whichever pane is there */
static void
tandem_window_update_title_buttons (TandemWindow *self)
{
  gboolean inspector = adw_flap_get_reveal_flap (self->inspector_flap);

  adw_header_bar_set_show_start_title_buttons (self->conversation_header, !adw_flap_get_reveal_flap (self->flap));
  adw_header_bar_set_show_end_title_buttons (self->conversation_header, !inspector);
  adw_header_bar_set_show_end_title_buttons (self->inspector_header, inspector);
}

static void
on_flap_reveal_changed_cb (TandemWindow *self)
{
  tandem_window_update_title_buttons (self);
  if (self->settings != NULL && !adw_flap_get_folded (self->flap))
    g_settings_set_boolean (self->settings, "sidebar-visible", adw_flap_get_reveal_flap (self->flap));
}

/* Only a side-by-side inspector is remembered: one opened over the
 * conversation in a narrow window would cover it at the next start */
static void
on_inspector_flap_changed_cb (TandemWindow *self)
{
  tandem_window_update_title_buttons (self);
  if (self->settings != NULL && !adw_flap_get_folded (self->inspector_flap))
    g_settings_set_boolean (self->settings, "inspector-visible", adw_flap_get_reveal_flap (self->inspector_flap));
}

/* The agent selector in a narrow window */

/* Between the buttons at the header's start */
#define AGENT_SPACING 6

/* Where the agent selector goes: in the header while the agent's name
 * and the conversation's title fit there, on the welcome page (beside
 * which it is shown: for a new conversation only) once the header
 * squeezes the name to "…". Back in the header once there is room for
 * it with everything at its natural width (more than it needs not to be
 * squeezed), so it never goes back and forth at one width.
 */
static void
tandem_window_fit_agent (TandemWindow *self)
{
  GtkWidget *dropdown = GTK_WIDGET (self->agent_dropdown);
  int width = gtk_widget_get_width (GTK_WIDGET (self->conversation_header));
  gboolean narrow = self->agent_narrow;
  int natural;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self->conversation_header)))
    return;

  if (!narrow && gtk_widget_get_mapped (dropdown))
    {
      gtk_widget_measure (dropdown, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      if (gtk_widget_get_width (dropdown) < natural)
        {
          narrow = TRUE;
          self->agent_narrow_width = width;
        }
    }
  else if (narrow && gtk_widget_get_mapped (GTK_WIDGET (self->welcome_agent_dropdown)))
    {
      int header;

      /* Back when the header has room for the copy's width beside what
       * it shows now, centred title and all */
      gtk_widget_measure (GTK_WIDGET (self->conversation_header), GTK_ORIENTATION_HORIZONTAL, -1,
                          NULL, &header, NULL, NULL);
      gtk_widget_measure (GTK_WIDGET (self->welcome_agent_dropdown), GTK_ORIENTATION_HORIZONTAL, -1,
                          NULL, &natural, NULL, NULL);
      narrow = width < header + natural + AGENT_SPACING;
    }
  else if (narrow)
    narrow = width <= self->agent_narrow_width;

  if (narrow == self->agent_narrow)
    return;

  self->agent_narrow = narrow;
  _tandem_window_update_agent (self);
  _tandem_window_update_content_page (self);
}

/* Below this width (in 1× text's pixels; scaled with the text, as
 * libadwaita's breakpoints are in sp) the conversation takes the whole
 * window and the sidebar slides over it: beside a 260 px sidebar the
 * header would leave a conversation's title a stub. */
#define SIDEBAR_FOLD_WIDTH 720

static void
tandem_window_fit_sidebar (TandemWindow *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int dpi = 0;
  double scale;
  AdwFlapFoldPolicy policy;

  /* Not before the window has a width: folding and unfolding at once
   * leaves AdwFlap allocating its children a garbage width */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || width <= 0)
    return;

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-xft-dpi", &dpi, NULL);
  scale = dpi > 0 ? dpi / (96.0 * 1024) : 1.0;
  policy = width < SIDEBAR_FOLD_WIDTH * scale
           ? ADW_FLAP_FOLD_POLICY_ALWAYS : ADW_FLAP_FOLD_POLICY_AUTO;
  if (adw_flap_get_fold_policy (self->flap) != policy)
    adw_flap_set_fold_policy (self->flap, policy);
}

/* The conversation's title comes before the words beside the header's
 * spinner ("Working…", a step's name): when they leave the title cut,
 * the spinner stays alone (its tooltip says them). They come back once
 * the header has room for them, or the title changed. */
/* Between the spinner and its words (the box's spacing in the .ui) */
#define STEPS_SPACING 6

static void
tandem_window_fit_steps (TandemWindow *self)
{
  GtkWidget *title = GTK_WIDGET (self->window_title);
  int width = gtk_widget_get_width (GTK_WIDGET (self->conversation_header));
  gboolean narrow = self->steps_narrow;
  int natural;

  if (!gtk_widget_get_mapped (self->steps_box))
    return;

  if (!narrow)
    {
      gtk_widget_measure (title, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      if (gtk_widget_get_width (title) < natural)
        {
          int words;

          /* Back once the header has grown by the words' width: not
           * back and forth at one width */
          gtk_widget_measure (GTK_WIDGET (self->steps_label), GTK_ORIENTATION_HORIZONTAL, -1,
                              NULL, &words, NULL, NULL);
          narrow = TRUE;
          self->steps_narrow_width = width + words + STEPS_SPACING;
        }
    }
  else
    narrow = width < self->steps_narrow_width;

  if (narrow == self->steps_narrow)
    return;
  self->steps_narrow = narrow;
  gtk_widget_set_visible (GTK_WIDGET (self->steps_label), !narrow);
}

/* The header's pieces and the sidebar, fitted to the window's width */
static gboolean
fit_agent_cb (gpointer user_data)
{
  TandemWindow *self = user_data;
  guint selected = gtk_drop_down_get_selected (self->agent_dropdown);

  self->fit_agent_id = 0;
  tandem_window_fit_sidebar (self);
  tandem_window_fit_agent (self);
  tandem_window_fit_steps (self);

  if (selected != GTK_INVALID_LIST_POSITION && gtk_drop_down_get_selected (self->welcome_agent_dropdown) != selected)
    {
      self->syncing_dropdown = TRUE;
      gtk_drop_down_set_selected (self->welcome_agent_dropdown, selected);
      self->syncing_dropdown = FALSE;
    }

  return G_SOURCE_REMOVE;
}

/* Not from inside an allocation, which a widget shown or hidden leaves
 * half done: before the next frame is drawn */
static void
tandem_window_queue_fit_agent (TandemWindow *self)
{
  if (self->fit_agent_id == 0)
    self->fit_agent_id = g_idle_add_full (GDK_PRIORITY_REDRAW - 10, fit_agent_cb, self, NULL);
}

static void
tandem_window_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  TandemWindow *self = TANDEM_WINDOW (widget);

  GTK_WIDGET_CLASS (tandem_window_parent_class)->size_allocate (widget, width, height, baseline);
  tandem_window_queue_fit_agent (self);
}

/* GObject */

static gboolean
close_timeout_cb (gpointer user_data)
{
  TandemWindow *self = user_data;

  self->close_timeout_id = 0;
  g_warning ("The conversation was not saved in time; closing without it");
  gtk_window_destroy (GTK_WINDOW (self));

  return G_SOURCE_REMOVE;
}

/* Closed during runs: their turns, stopped, are saved; the window can go */
static void
on_runs_n_running_cb (TandemWindow *self)
{
  if (self->close_timeout_id != 0 && tandem_run_registry_get_n_running (self->runs) == 0)
    {
      g_clear_handle_id (&self->close_timeout_id, g_source_remove);
      gtk_window_destroy (GTK_WINDOW (self));
    }
}

static void
on_quit_response_cb (TandemWindow     *self,
                     const char       *response,
                     AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "quit") != 0)
    return;

  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
tandem_window_close_request (GtkWindow *window)
{
  TandemWindow *self = TANDEM_WINDOW (window);
  guint n_running = tandem_run_registry_get_n_running (self->runs);

  /* Answers being written, shown or not, are not stopped unasked */
  if (n_running > 0 && !self->close_confirmed)
    {
      if (self->quit_dialog == NULL)
        {
          GtkWidget *dialog = tandem_quit_dialog_new (window, n_running);

          g_signal_connect_object (dialog, "response", G_CALLBACK (on_quit_response_cb), self, G_CONNECT_SWAPPED);
          g_set_weak_pointer (&self->quit_dialog, GTK_WINDOW (dialog));
        }
      gtk_window_present (self->quit_dialog);
      return TRUE;
    }

  if (self->settings != NULL)
    {
      int width, height;

      /* Not in delay-apply mode: these settings are the application's,
       * and would stay in it after the apply, holding back every later
       * change (the active agent, another window's conversation) */
      gtk_window_get_default_size (window, &width, &height);
      if (!gtk_window_is_maximized (window))
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      _tandem_window_remember_thread (self);
    }

  _tandem_window_flush_pending_deletes (self);

  /* Closing while agents answer stops every run as Stop does, and the
   * window, hidden at once, goes when the turns (the person's messages
   * and the answers so far) are saved: quitting must not lose them. A
   * store that does not answer in time is not waited for forever. */
  if (n_running > 0)
    {
      if (self->close_timeout_id == 0)
        {
          self->close_timeout_id = g_timeout_add_seconds (CLOSE_TIMEOUT_S, close_timeout_cb, self);
          gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
          tandem_run_registry_stop_all (self->runs);
        }
      return TRUE;
    }

  return GTK_WINDOW_CLASS (tandem_window_parent_class)->close_request (window);
}

static void
show_store_error (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *error = NULL;

  if (application != NULL)
    g_object_get (application, "store-error", &error, NULL);

  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Conversations will not be saved: %s"), error);
      tandem_window_show_toast (self, text);
    }
}

static void
on_application_store_cb (TandemWindow   *self,
                         GParamSpec     *pspec,
                         GtkApplication *application)
{
  g_clear_object (&self->store);
  g_object_get (application, "store", &self->store, NULL);
  show_store_error (self);
  tandem_window_refresh_threads (self);

  if (self->reopen_thread != NULL)
    {
      _tandem_window_check_reopen (self);
      return;
    }

  _tandem_window_adopt_store (self);
}

/* GtkWindow:application is not a construct property: this runs once it is set. */
static void
tandem_window_setup (TandemWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (application != NULL)
    {
      g_clear_object (&self->settings);
      g_clear_object (&self->store);
      g_clear_object (&self->agents);
      g_object_get (application,
                    "settings", &self->settings,
                    "store", &self->store,
                    "agents", &self->agents,
                    NULL);
    }

  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      adw_flap_set_reveal_flap (self->flap, g_settings_get_boolean (self->settings, "sidebar-visible"));
      adw_flap_set_reveal_flap (self->inspector_flap, g_settings_get_boolean (self->settings, "inspector-visible"));
      if (self->agents != NULL)
        {
          g_signal_connect_object (self->settings, "changed::active-agent",
                                   G_CALLBACK (_tandem_window_update_content_page), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (tandem_agents_get_model (self->agents), "items-changed",
                                   G_CALLBACK (_tandem_window_update_content_page), self, G_CONNECT_SWAPPED);
        }
    }

  if (_tandem_window_is_store_opening (self))
    g_signal_connect_object (application, "notify::store", G_CALLBACK (on_application_store_cb),
                             self, G_CONNECT_SWAPPED);
  else
    show_store_error (self);

  self->tools = tandem_desktop_tools_new (GTK_WINDOW (self));

  tandem_window_refresh_threads (self);
  tandem_window_new_chat (self);
}

static void
tandem_window_dispose (GObject *object)
{
  TandemWindow *self = TANDEM_WINDOW (object);

  /* HACK: the dialog outlives us until its cancellation is dispatched,
   * and GTK 4.8 would then unlink it from a freed transient parent. */
  if (self->approval_dialog != NULL)
    gtk_window_set_transient_for (self->approval_dialog, NULL);
  g_clear_weak_pointer (&self->approval_dialog);
  if (self->quit_dialog != NULL)
    gtk_window_destroy (self->quit_dialog);
  g_clear_weak_pointer (&self->quit_dialog);
  if (self->runs != NULL)
    g_signal_handlers_disconnect_by_data (self->runs, self);

  g_clear_handle_id (&self->close_timeout_id, g_source_remove);
  g_clear_handle_id (&self->fit_agent_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->open_cancellable);
  _tandem_window_clear_file_chooser (self);
  if (self->follow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->follow_tick);
  self->follow_tick = 0;
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->reveal_tick);
  self->reveal_tick = 0;
  g_clear_handle_id (&self->drop_id, g_source_remove);
  g_clear_handle_id (&self->open_rest_id, g_source_remove);

  _tandem_window_flush_pending_deletes (self);
  g_clear_object (&self->toaster);
  g_clear_object (&self->draft_keeper);
  g_clear_object (&self->keyboard);
  g_clear_object (&self->scroll_span);

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (self->transcript, self);
      g_signal_handlers_disconnect_by_data (agui_transcript_get_subagents (self->transcript), self);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_WINDOW);

  g_clear_object (&self->session);
  g_clear_object (&self->runs);
  g_clear_object (&self->block_window);
  g_clear_object (&self->blocks);
  self->transcript = NULL;
  g_clear_object (&self->tools);
  g_clear_object (&self->agents);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_object (&self->open_cancellable);

  G_OBJECT_CLASS (tandem_window_parent_class)->dispose (object);
}

static void
tandem_window_finalize (GObject *object)
{
  TandemWindow *self = TANDEM_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->last_user_text, g_free);
  g_clear_pointer (&self->reopen_thread, g_free);
  g_clear_pointer (&self->agent_id, g_free);
  g_clear_pointer (&self->agent_problem, g_free);
  g_clear_pointer (&self->composer_hint, g_free);
  g_clear_pointer (&self->next_agent_problem, g_free);

  G_OBJECT_CLASS (tandem_window_parent_class)->finalize (object);
}

static void
tandem_window_class_init (TandemWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tandem_window_dispose;
  object_class->finalize = tandem_window_finalize;
  widget_class->size_allocate = tandem_window_size_allocate;
  window_class->close_request = tandem_window_close_request;

  g_type_ensure (TANDEM_TYPE_AGENT);
  g_type_ensure (TANDEM_TYPE_BLOCK_ROW);
  g_type_ensure (TANDEM_TYPE_SIDEBAR);
  g_type_ensure (TANDEM_TYPE_STATE_INSPECTOR);
  g_type_ensure (TANDEM_TYPE_INTERRUPT_BANNER);
  g_type_ensure (TANDEM_TYPE_APPROVAL_NOTICE);
  g_type_ensure (TANDEM_TYPE_SAVE_BANNER);
  g_type_ensure (TANDEM_TYPE_WELCOME_PROMPTS);
  g_type_ensure (TANDEM_TYPE_CONVERSATION_SEARCH);
  g_type_ensure (TANDEM_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_agent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_missing_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, approval_notice);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, agent_missing_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, continue_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_box);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_spinner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, steps_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, status);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_page);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_preferences_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, welcome_prompts);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, conversation_search);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_scroller);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_view);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, transcript_selection);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, jump_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, save_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_details);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, error_details_label);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, interrupt_revealer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, interrupt_banner);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, composer);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_flap);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_close_button);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, conversation_header);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector_header);
  gtk_widget_class_bind_template_child (widget_class, TandemWindow, inspector);
  gtk_widget_class_bind_template_callback (widget_class, on_flap_reveal_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_inspector_flap_changed_cb);

  _tandem_window_class_init_actions (widget_class);
}

static void
tandem_window_init (TandemWindow *self)
{
  GtkEventController *controller;

  self->approvals.asks_shown = _tandem_window_asks_shown;
  self->approvals.ask_interrupts = _tandem_window_ask_interrupts;
  self->approvals.sync_approval = _tandem_window_sync_approval;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = tandem_toaster_new (GTK_WIDGET (self->toast_overlay));

  /* The striped header bar of a development build, as GNOME apps show it */
  if (DEVELOPMENT_PROFILE)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  self->cancellable = g_cancellable_new ();
  self->runs = tandem_run_registry_new (TANDEM_RUN_REGISTRY_MAX_RUNS);
  g_signal_connect_object (self->runs, "changed", G_CALLBACK (_tandem_window_on_runs_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runs, "approval-needed", G_CALLBACK (_tandem_window_on_runs_approval_needed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runs, "notify::n-running", G_CALLBACK (on_runs_n_running_cb),
                           self, G_CONNECT_SWAPPED);
  tandem_sidebar_set_runs (self->sidebar, self->runs);
  g_signal_connect_object (self->sidebar, "thread-activated", G_CALLBACK (on_sidebar_thread_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar, "threads-changed", G_CALLBACK (_tandem_window_update_title),
                           self, G_CONNECT_SWAPPED);
  self->following = TRUE;

  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_window_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  g_signal_connect_object (tandem_composer_get_buffer (self->composer), "changed",
                           G_CALLBACK (_tandem_window_update_actions), self, G_CONNECT_SWAPPED);
  self->draft_keeper = tandem_draft_keeper_new (tandem_composer_get_buffer (self->composer));
  g_signal_connect_object (tandem_composer_get_buffer (self->composer), "changed",
                           G_CALLBACK (_tandem_window_remember_thread), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "notify::n-attachments",
                           G_CALLBACK (_tandem_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "error",
                           G_CALLBACK (tandem_window_show_toast), self, G_CONNECT_SWAPPED);

  _tandem_window_init_transcript (self);

  g_signal_connect_object (self->agent_dropdown, "notify::selected",
                           G_CALLBACK (on_agent_selected_cb), self, G_CONNECT_SWAPPED);
  /* The same selector, shown on the welcome page in a narrow window */
  gtk_drop_down_set_factory (self->welcome_agent_dropdown, gtk_drop_down_get_factory (self->agent_dropdown));
  gtk_drop_down_set_list_factory (self->welcome_agent_dropdown, gtk_drop_down_get_list_factory (self->agent_dropdown));
  gtk_drop_down_set_expression (self->welcome_agent_dropdown, gtk_drop_down_get_expression (self->agent_dropdown));
  g_signal_connect_object (self->welcome_agent_dropdown, "notify::selected",
                           G_CALLBACK (on_agent_selected_cb), self, G_CONNECT_SWAPPED);

  self->keyboard = tandem_keyboard_new (GTK_WINDOW (self));
  tandem_keyboard_set_sidebar (self->keyboard, GTK_WIDGET (self->sidebar),
                               tandem_sidebar_get_thread_list (self->sidebar),
                               tandem_sidebar_get_search_bar (self->sidebar),
                               tandem_sidebar_get_search_entry (self->sidebar));
  tandem_keyboard_set_conversation (self->keyboard, GTK_WIDGET (self->content_stack), GTK_WIDGET (self->transcript_view));
  tandem_keyboard_set_composer (self->keyboard, GTK_WIDGET (self->composer),
                                tandem_composer_get_view (self->composer),
                                GTK_WIDGET (self->interrupt_revealer));

  _tandem_window_init_actions (self);

  _tandem_window_update_actions (self);
}

/* API */

TandemWindow *
tandem_window_new (TandemApplication *application)
{
  TandemWindow *self;

  g_return_val_if_fail (TANDEM_IS_APPLICATION (application), NULL);

  self = g_object_new (TANDEM_TYPE_WINDOW, "application", application, NULL);
  tandem_window_setup (self);

  return self;
}

/**
 * tandem_window_confirm_close:
 * @self: a window
 *
 * Closing @self may stop its runs without asking: the person agreed
 * already (Quit asks once for every window).
 */
void
tandem_window_confirm_close (TandemWindow *self)
{
  g_return_if_fail (TANDEM_IS_WINDOW (self));

  self->close_confirmed = TRUE;
}
