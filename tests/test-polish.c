/* test-polish.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>

#include "agui-test-server.h"
#include "tandem-agents.h"
#include "tandem-application.h"
#include "tandem-preferences-window.h"
#include "tandem-tool-card.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* What a person sees of the window's frame: the panes at every width
 * and text size, the window's buttons, the agent choice, the welcome
 * page. Run twice by meson: in English, and in German (with
 * TANDEM_TEST_LOCALEDIR set) where the same geometry must hold for the
 * longer words, and the text must be German. */

static TandemApplication *app;
static char *store_dir;
static char *store_path;
static gboolean german;

typedef struct
{
  TandemWindow *window;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  /* GNOME's window buttons: a close button alone, as on a phone */
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  tandem_agents_set_active_id (tandem_application_get_agents (app), TANDEM_AGENTS_DEMO_ID);
  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 760);
  gtk_window_present (GTK_WINDOW (f->window));
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (TANDEM_IS_PREFERENCES_WINDOW (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  tandem_test_destroy_window (f->window);
  g_settings_reset (tandem_application_get_settings (app), "inspector-visible");
  g_settings_reset (tandem_application_get_settings (app), "sidebar-visible");
  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
  gtk_settings_reset_property (gtk_settings_get_default (), "gtk-decoration-layout");
}

/* Helpers */

/* @widget's bounds in @window's coordinates, or an empty rectangle for
 * one not drawn */
static graphene_rect_t
bounds_in_window (gpointer widget,
                  gpointer window)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, window, &bounds))
    return GRAPHENE_RECT_INIT (0, 0, 0, 0);

  return bounds;
}

/* Whether @widget is drawn whole inside @window's width */
static gboolean
inside_window (gpointer widget,
               gpointer window,
               int      min_width)
{
  graphene_rect_t bounds = bounds_in_window (widget, window);

  return bounds.size.width >= min_width && bounds.origin.x >= -0.5 &&
         bounds.origin.x + bounds.size.width <= gtk_widget_get_width (window) + 0.5;
}

/* The window's end-side buttons that are drawn */
static GtkWidget *
find_end_controls (TandemWindow *window)
{
  g_autoptr(GPtrArray) controls = tandem_test_find_all (window, GTK_TYPE_WINDOW_CONTROLS);
  GtkWidget *found = NULL;

  for (guint i = 0; i < controls->len; i++)
    {
      GtkWindowControls *candidate = controls->pdata[i];

      if (gtk_window_controls_get_side (candidate) == GTK_PACK_END &&
          !gtk_window_controls_get_empty (candidate) && gtk_widget_get_mapped (GTK_WIDGET (candidate)))
        {
          g_assert_null (found);
          found = GTK_WIDGET (candidate);
        }
    }

  return found;
}

static gboolean
controls_in_corner (TandemWindow *window)
{
  GtkWidget *controls = find_end_controls (window);
  graphene_rect_t bounds;

  if (controls == NULL)
    return FALSE;
  bounds = bounds_in_window (controls, window);

  /* The header bar's own padding, and nothing else, to the right */
  return bounds.size.width > 0 && bounds.origin.x + bounds.size.width >= gtk_widget_get_width (GTK_WIDGET (window)) - 12;
}

/* Whether @label shows its whole text: given at least the width it
 * asks for, and inside @pane */
static gboolean
label_whole (GtkWidget *label,
             GtkWidget *pane)
{
  graphene_rect_t bounds, pane_bounds;
  int natural;

  if (!gtk_widget_get_mapped (label) ||
      !gtk_widget_compute_bounds (label, pane, &bounds) ||
      !gtk_widget_compute_bounds (pane, pane, &pane_bounds))
    return FALSE;
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);

  return bounds.size.width >= natural && bounds.origin.x >= 0 &&
         bounds.origin.x + bounds.size.width <= pane_bounds.size.width;
}

/* The name of the indicator a check button draws: "check" or "radio" */
static const char *
indicator_name (GtkCheckButton *button)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (button));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "check") == 0 ||
        g_strcmp0 (gtk_widget_get_css_name (child), "radio") == 0)
      return gtk_widget_get_css_name (child);

  return NULL;
}

static TandemPreferencesWindow *
open_preferences (TandemWindow *window)
{
  GtkWidget *preferences = tandem_preferences_window_new (GTK_WINDOW (window),
                                                          tandem_application_get_agents (app));

  gtk_window_present (GTK_WINDOW (preferences));
  tandem_test_wait_for_layout (preferences);

  return TANDEM_PREFERENCES_WINDOW (preferences);
}

static guint
count_check_buttons (gpointer widget)
{
  g_autoptr(GPtrArray) checks = tandem_test_find_all (widget, GTK_TYPE_CHECK_BUTTON);

  return checks->len;
}

static void
assert_agent_choices_are_radios (TandemPreferencesWindow *preferences,
                                 guint                    n)
{
  g_autoptr(GPtrArray) checks = NULL;

  agui_test_wait_until (count_check_buttons (preferences) == n, "the preferences list %u agents", n);
  checks = tandem_test_find_all (preferences, GTK_TYPE_CHECK_BUTTON);
  for (guint i = 0; i < checks->len; i++)
    g_assert_cmpstr (indicator_name (checks->pdata[i]), ==, "radio");
}

/* Tests */

static void
test_inspector_narrow (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *inspector = tandem_test_child (f->window, "inspector");
  GtkWidget *button = tandem_test_child (f->window, "inspector_button");
  GtkWidget *composer = tandem_test_child (f->window, "composer_view");

  g_test_summary ("At 360 px the inspector's toggle opens the inspector over the conversation, whole; "
                  "closing it gives the conversation back");

  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 360, "the window is 360 px wide");
  agui_test_wait_until (adw_flap_get_folded (ADW_FLAP (tandem_test_child (f->window, "flap"))),
                        "the sidebar folded away");
  g_assert_false (gtk_widget_get_mapped (inspector));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  agui_test_wait_until (inside_window (inspector, f->window, 300), "the inspector is drawn whole in the window");
  agui_test_wait_until (adw_flap_get_reveal_progress (ADW_FLAP (tandem_test_child (f->window, "inspector_flap"))) == 1,
                        "the inspector finished sliding in");
  g_assert_true (inside_window (inspector, f->window, 300));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));

  /* Its own header closes it, as the conversation's is under it */
  g_assert_true (controls_in_corner (f->window));
  g_assert_true (inside_window (tandem_test_child (f->window, "inspector_close_button"), f->window, 16));
  gtk_widget_activate (tandem_test_child (f->window, "inspector_close_button"));
  agui_test_wait_until (!gtk_widget_get_mapped (inspector), "the inspector went away");
  g_assert_true (inside_window (composer, f->window, 200));
}

static void
test_window_buttons (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *button = tandem_test_child (f->window, "inspector_button");
  GtkWidget *inspector = tandem_test_child (f->window, "inspector");

  g_test_summary ("The window's buttons stay in its top right corner with the inspector open (beside the "
                  "conversation) or closed");

  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "icon:minimize,close", NULL);

  agui_test_wait_until (controls_in_corner (f->window), "the window's buttons are in the corner");

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  agui_test_wait_until (inside_window (inspector, f->window, 300) &&
                        adw_flap_get_reveal_progress (ADW_FLAP (tandem_test_child (f->window, "inspector_flap"))) == 1,
                        "the inspector opened");
  g_assert_false (adw_flap_get_folded (ADW_FLAP (tandem_test_child (f->window, "inspector_flap"))));
  agui_test_wait_until (controls_in_corner (f->window), "the window's buttons moved to the corner");
  g_assert_true (gtk_widget_is_ancestor (find_end_controls (f->window), tandem_test_child (f->window, "inspector_header")));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), FALSE);
  agui_test_wait_until (!gtk_widget_get_mapped (inspector), "the inspector closed");
  agui_test_wait_until (controls_in_corner (f->window), "the window's buttons went back to the corner");
  g_assert_true (gtk_widget_is_ancestor (find_end_controls (f->window), tandem_test_child (f->window, "conversation_header")));
}

/* At @scale× text, once the window has refitted its sidebar to it:
 * beside the conversation, or (@folded) folded away and then shown over
 * it; either way its title whole. The refit comes after the relayout the
 * text's size causes: the sidebar is looked at only once it is done. */
static void
check_sidebar_title (Fixture  *f,
                     double    scale,
                     gboolean  folded)
{
  GtkWidget *title = tandem_test_child (f->window, "sidebar_title");
  GtkWidget *sidebar = tandem_test_child (f->window, "sidebar");
  AdwFlap *flap = ADW_FLAP (tandem_test_child (f->window, "flap"));

  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", (int) (96 * 1024 * scale), NULL);
  agui_test_wait_until (adw_flap_get_folded (flap) == folded, "the sidebar %s at %.1f× text, %d px wide",
                        folded ? "folded away" : "is beside the conversation", scale,
                        gtk_widget_get_width (GTK_WIDGET (f->window)));
  adw_flap_set_reveal_flap (flap, TRUE);
  agui_test_wait_until (label_whole (title, sidebar) && inside_window (sidebar, f->window, 200),
                        "the sidebar's title is whole at %.1f× text", scale);
  g_assert_true (adw_flap_get_folded (flap) == folded);
}

static void
test_sidebar_title (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *title = tandem_test_child (f->window, "sidebar_title");

  g_test_summary ("The sidebar's title is never cut, in German or at 1.5× text, beside the "
                  "conversation or folded away over it at 360 px and where 1.5× text makes the window narrow");

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, _("Conversations"));
  if (german)
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "Unterhaltungen");

  check_sidebar_title (f, 1.0, FALSE);
  /* 1000 px is under the window's 720 px breakpoint at 1.5× text */
  check_sidebar_title (f, 1.5, TRUE);

  check_sidebar_title (f, 1.0, FALSE);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1240, 760);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) >= 1200, "the window is 1240 px wide");
  check_sidebar_title (f, 1.5, FALSE);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 360, "the window is 360 px wide");
  check_sidebar_title (f, 1.5, TRUE);
}

/* The label drawn in @widget that reads @text, or NULL */
static GtkWidget *
drawn_label (GtkWidget  *widget,
             const char *text)
{
  g_autoptr(GPtrArray) labels = tandem_test_find_all (widget, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_get_mapped (labels->pdata[i]) && g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];

  return NULL;
}

/* How much of its natural width the title "New Chat" is given */
static double
title_shown (TandemWindow *window)
{
  GtkWidget *title = drawn_label (tandem_test_child (window, "window_title"), _("New Chat"));
  graphene_rect_t bounds;
  int natural;

  /* Its bounds, padding and all, as it measures itself */
  if (title == NULL || !gtk_widget_compute_bounds (title, title, &bounds))
    return 0;
  gtk_widget_measure (title, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);

  return natural > 0 ? MIN (1.0, bounds.size.width / natural) : 0;
}

/* One agent selector drawn, the header's or the welcome page's, showing
 * @name whole, and the title "New Chat" whole (at least @title_part of
 * it: at 1.5× text in German, at 360 px, it is cut, not to a stub) */
static gboolean
agent_and_title_shown (TandemWindow *window,
                       GtkWidget    *expected,
                       const char   *name,
                       double        title_part)
{
  GtkWidget *header = tandem_test_child (window, "agent_dropdown");
  GtkWidget *welcome = tandem_test_child (window, "welcome_agent_dropdown");
  GtkWidget *label = drawn_label (expected, name);

  return gtk_widget_get_mapped (header) != gtk_widget_get_mapped (welcome) && gtk_widget_get_mapped (expected) &&
         label != NULL && label_whole (label, GTK_WIDGET (window)) && title_shown (window) >= title_part;
}

#define agent_and_title_whole(window, expected, name) agent_and_title_shown (window, expected, name, 1.0)

static void
test_agent_narrow (Fixture       *f,
                   gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  GtkWidget *header = tandem_test_child (f->window, "agent_dropdown");
  GtkWidget *welcome = tandem_test_child (f->window, "welcome_agent_dropdown");
  AdwWindowTitle *title = ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"));
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  const char *demo;

  g_test_summary ("At 360 px, at 1× and 1.5× text, the agent selector leaves the header for the welcome page, "
                  "where the agent's name shows whole, and the title \"New Chat\" is whole; wide, it is back "
                  "in the header; either chooses the agent");

  agent = tandem_agent_new ("narrow", "Assistant at Work", "http://127.0.0.1:9/", NULL);
  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);
  tandem_agents_set_active_id (agents, TANDEM_AGENTS_DEMO_ID);
  demo = tandem_agent_get_name (tandem_agents_lookup (agents, TANDEM_AGENTS_DEMO_ID));
  /* Wide enough for the German names with the sidebar open */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1240, 760);

  agui_test_wait_until (agent_and_title_whole (f->window, header, demo),
                        "wide, the header shows the agent and the title (in the header: %d, on the welcome page: %d, "
                        "the window %d px wide, the agent's name %s whole, the title %s whole, %.0f%%)",
                        gtk_widget_get_mapped (header), gtk_widget_get_mapped (welcome),
                        gtk_widget_get_width (GTK_WIDGET (f->window)),
                        drawn_label (header, demo) && label_whole (drawn_label (header, demo), GTK_WIDGET (f->window)) ? "is" : "is not",
                        label_whole (drawn_label (tandem_test_child (f->window, "window_title"), _("New Chat")),
                                     GTK_WIDGET (f->window)) ? "is" : "is not", 100 * title_shown (f->window));

  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 360, "the window is 360 px wide");
  agui_test_wait_until (agent_and_title_whole (f->window, welcome, demo),
                        "at 360 px the welcome page shows the agent whole and the header the title");
  /* and says where it is */
  agui_test_wait_until (g_strcmp0 (adw_status_page_get_description (ADW_STATUS_PAGE (tandem_test_child (f->window, "welcome_page"))),
                                   _("You are chatting with the built-in demo agent. Choose one of your own below.")) == 0,
                        "the welcome page says the agent is chosen below");
  if (german)
    g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (tandem_test_child (f->window, "welcome_page"))), ==,
                     "Sie chatten mit dem eingebauten Demo-Agenten. Wählen Sie unten einen eigenen aus.");

  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", (int) (96 * 1024 * 1.5), NULL);
  agui_test_wait_until (agent_and_title_shown (f->window, welcome, demo, german ? 0.7 : 1.0),
                        "so it does at 1.5× text (the agent's name %s whole, the title shown %.0f%%)",
                        label_whole (drawn_label (welcome, demo), GTK_WIDGET (f->window)) ? "is" : "is not",
                        100 * title_shown (f->window));

  /* Chosen there, the new conversation is the other agent's */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (welcome), 1 - gtk_drop_down_get_selected (GTK_DROP_DOWN (welcome)));
  agui_test_wait_until (g_strcmp0 (adw_window_title_get_subtitle (title), "Assistant at Work") == 0,
                        "the agent chosen on the welcome page is the conversation's (not %s)",
                        adw_window_title_get_subtitle (title));
  agui_test_wait_until (agent_and_title_shown (f->window, welcome, "Assistant at Work", german ? 0.7 : 1.0),
                        "the welcome page shows the agent chosen");

  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1240, 760);
  agui_test_wait_until (agent_and_title_whole (f->window, header, "Assistant at Work"),
                        "wide again, the agent is back in the header");

  tandem_agents_set_active_id (agents, TANDEM_AGENTS_DEMO_ID);
  g_assert_true (tandem_agents_remove (agents, "narrow", &error));
  g_assert_no_error (error);
}

static void
test_agent_radios (Fixture       *f,
                   gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  TandemPreferencesWindow *preferences;
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("The agent for new conversations is chosen by radio buttons, with one agent as with two");

  preferences = open_preferences (f->window);
  assert_agent_choices_are_radios (preferences, 1);

  agent = tandem_agent_new ("polish", "Polish Agent", "http://127.0.0.1:9/", NULL);
  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);
  assert_agent_choices_are_radios (preferences, 2);

  g_assert_true (tandem_agents_remove (agents, "polish", &error));
  g_assert_no_error (error);
  assert_agent_choices_are_radios (preferences, 1);
}

static void
test_welcome_own_agent (Fixture       *f,
                        gconstpointer  data)
{
  TandemAgents *agents = tandem_application_get_agents (app);
  AdwStatusPage *welcome = ADW_STATUS_PAGE (tandem_test_child (f->window, "welcome_page"));
  GtkWidget *add_button = tandem_test_child (f->window, "welcome_preferences_button");
  GtkWidget *jump = tandem_test_child (f->window, "jump_button");
  g_autoptr(TandemAgent) agent = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("The welcome page offers to add an agent only until there is one of the person's own, "
                  "and has no Jump to Latest");

  g_assert_cmpstr (adw_status_page_get_description (welcome), ==,
                   _("You are chatting with the built-in demo agent. Add your own agent in Preferences."));
  g_assert_true (gtk_widget_is_drawable (add_button));
  g_assert_false (gtk_widget_get_visible (jump));

  agent = tandem_agent_new ("polish", "Polish Agent", "http://127.0.0.1:9/", NULL);
  g_assert_true (tandem_agents_save (agents, agent, &error));
  g_assert_no_error (error);
  agui_test_wait_until (!gtk_widget_get_visible (add_button), "Add an Agent… went away");
  g_assert_cmpstr (adw_status_page_get_description (welcome), ==,
                   _("You are chatting with the built-in demo agent. Choose one of your own at the top of the window."));
  if (german)
    g_assert_cmpstr (adw_status_page_get_description (welcome), ==,
                     "Sie chatten mit dem eingebauten Demo-Agenten. Wählen Sie oben im Fenster einen eigenen aus.");
  g_assert_false (gtk_widget_get_visible (jump));

  g_assert_true (tandem_agents_remove (agents, "polish", &error));
  g_assert_no_error (error);
  agui_test_wait_until (gtk_widget_get_visible (add_button), "Add an Agent… came back");
}

static void
test_welcome_prompts (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *prompts = tandem_test_child (f->window, "welcome_prompts");

  g_test_summary ("The example prompts are in the person's language");

  g_assert_nonnull (tandem_test_find_label (prompts, _("Please archive my old notes")));
  g_assert_nonnull (tandem_test_find_label (prompts, _("An approval")));
  if (german)
    {
      g_assert_nonnull (tandem_test_find_label (prompts, "Bitte archiviere meine alten Notizen"));
      g_assert_nonnull (tandem_test_find_label (prompts, "Zeig mir, wie ein Fehler aussieht"));
      g_assert_null (tandem_test_find_label (prompts, "Please archive my old notes"));
    }
}

/* Whether the header's title shows its whole text, @text */
static gboolean
title_whole (TandemWindow *window,
             const char   *text)
{
  GtkWidget *label = drawn_label (tandem_test_child (window, "window_title"), text);

  return label != NULL && label_whole (label, GTK_WIDGET (window)) &&
         !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label)));
}

static int
window_min_width (TandemWindow *window)
{
  int minimum;

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);

  return minimum;
}

static void
test_header_title_run (Fixture       *f,
                       gconstpointer  data)
{
  const char *text = "Bitte archiviere meine alten Notizen";
  g_autoptr(AguiTestServer) server = NULL;
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  AguiTestResponse *response;
  GtkWidget *spinner = tandem_test_child (f->window, "steps_spinner");
  GtkWidget *steps = tandem_test_child (f->window, "steps_label");
  GtkTextView *composer = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));
  int width;

  g_test_summary ("At 700 px, while a run works, the conversation's title is whole beside the working "
                  "indicator, which gives way to a spinner alone rather than cut the title or itself");

  server = agui_test_server_new (&error);
  g_assert_no_error (error);
  transport = agui_http_transport_new (agui_test_server_get_url (server), &error);
  g_assert_no_error (error);
  /* Stored, as the window's own are: the title is the stored thread's */
  agui_test_wait_until (tandem_application_get_store (app) != NULL, "the store opened");
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (transport), "agent", "test",
                          "store", tandem_application_get_store (app), NULL);
  tandem_window_set_session (f->window, session);

  response = agui_test_response_new_events ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}", NULL);
  agui_test_response_append_stall (response, AGUI_TEST_STALL_FOREVER);
  agui_test_response_append_event_json (response, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}");
  agui_test_server_push_response (server, response);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 700, 700);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 700, "the window is 700 px wide");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (composer), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));

  agui_test_wait_until (gtk_widget_get_mapped (spinner) && gtk_spinner_get_spinning (GTK_SPINNER (spinner)),
                        "the header's spinner turns while the run works");
  agui_test_wait_until (title_whole (f->window, text), "the title “%s” is whole beside the spinner (it reads “%s”)",
                        text, adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))));
  /* The words, when there is room for them, whole: never "Arb…" */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (steps)), ==, _("Working…"));
  if (german)
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (steps)), ==, "Arbeitet …");
  agui_test_wait_until (gtk_widget_get_mapped (steps) && gtk_widget_get_width (steps) > 0,
                        "at 700 px the header says “%s” beside the title", _("Working…"));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (steps))));

  /* Narrower, to where the title and the words no longer fit together:
   * the words go, the title stays whole, the spinner turns on */
  for (width = 690; width >= 400 && gtk_widget_get_mapped (steps); width -= 10)
    {
      gtk_window_set_default_size (GTK_WINDOW (f->window), width, 700);
      agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= width, "the window is %d px wide (%d, at least %d)",
                            width, gtk_widget_get_width (GTK_WIDGET (f->window)), window_min_width (f->window));
      agui_test_wait_until (title_whole (f->window, text) || !gtk_widget_get_mapped (steps),
                            "at %d px the title is whole, or the words beside the spinner went", width);
    }
  g_test_message ("the words went at %d px", width + 10);
  g_assert_false (gtk_widget_get_mapped (steps));
  agui_test_wait_until (title_whole (f->window, text), "the title is whole once the words went (%d px)", width + 10);
  g_assert_true (gtk_widget_get_mapped (spinner));
  /* …and whoever points at the spinner reads them */
  g_assert_cmpstr (gtk_widget_get_tooltip_text (tandem_test_child (f->window, "steps_box")), ==, _("Working…"));

  /* Wide, the words are back beside the spinner */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1240, 700);
  agui_test_wait_until (gtk_widget_get_mapped (steps) && gtk_widget_get_width (steps) > 0 &&
                        !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (steps))) &&
                        title_whole (f->window, text),
                        "wide, the header says “%s” whole beside the whole title", _("Working…"));

  g_assert_true (agui_test_server_resume (server, 0));
  agui_test_wait_for_exchange (session);
  agui_test_wait_until (!gtk_widget_get_visible (tandem_test_child (f->window, "steps_box")),
                        "the working indicator went when the run ended");
  agui_test_server_stop (server);
}

/* The drawn tool card whose call awaits the person's approval, or NULL */
static GtkWidget *
awaiting_card (TandemWindow *window)
{
  g_autoptr(GPtrArray) cards = tandem_test_find_all (window, TANDEM_TYPE_TOOL_CARD);

  for (guint i = 0; i < cards->len; i++)
    if (gtk_widget_get_mapped (cards->pdata[i]) &&
        g_strcmp0 (tandem_tool_card_get_status_text (cards->pdata[i]), _("Awaiting approval")) == 0)
      return cards->pdata[i];

  return NULL;
}

static void
test_tool_card_narrow (Fixture       *f,
                       gconstpointer  data)
{
  GtkTextView *composer = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));
  g_autoptr(AguiTestServer) server = NULL;
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *card = NULL, *name, *status;

  g_test_summary ("At 360 px a tool card's header shows the tool's name whole: the status's words give way "
                  "to its icon, whose tooltip says them; wide, both show");

  /* The demo agent's question, as an agent asks it */
  server = agui_test_server_new (&error);
  g_assert_no_error (error);
  transport = agui_http_transport_new (agui_test_server_get_url (server), &error);
  g_assert_no_error (error);
  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (transport), "agent", "test", NULL);
  tandem_window_set_session (f->window, session);
  agui_test_server_push_response (server, agui_test_response_new_events (
    "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc1\",\"toolCallName\":\"archive_notes\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"tc1\",\"delta\":\"{\\\"folder\\\":\\\"Demo\\\"}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc1\"}",
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\",\"outcome\":{\"type\":\"interrupt\","
    "\"interrupts\":[{\"id\":\"i1\",\"reason\":\"tool_call\",\"toolCallId\":\"tc1\",\"message\":\"Archive?\"}]}}",
    NULL));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (composer), _("Please archive my old notes"), -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  agui_test_wait_until ((card = awaiting_card (f->window)) != NULL, "the agent asks to archive the notes");
  name = GTK_WIDGET (drawn_label (card, "archive_notes"));
  status = GTK_WIDGET (tandem_test_find_label (card, _("Awaiting approval")));
  g_assert_nonnull (name);
  g_assert_nonnull (status);
  if (german)
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "Warten auf Genehmigung");

  agui_test_wait_until (gtk_widget_get_mapped (status) && label_whole (name, card),
                        "wide, the card shows the tool's name and its status");

  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 360, "the window is 360 px wide");
  /* The card laid out at that width */
  agui_test_wait_until ((card = awaiting_card (f->window)) != NULL && gtk_widget_get_width (card) < 360,
                        "the card is laid out in the narrow window");
  tandem_test_wait_for_frame (f->window);
  g_test_message ("the card %d px wide, the name %d px", gtk_widget_get_width (card),
                  gtk_widget_get_width (GTK_WIDGET (drawn_label (card, "archive_notes"))));
  agui_test_wait_until ((card = awaiting_card (f->window)) != NULL &&
                        (name = GTK_WIDGET (drawn_label (card, "archive_notes"))) != NULL &&
                        label_whole (name, card) &&
                        !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (name))),
                        "at 360 px the tool's name is whole");
  status = GTK_WIDGET (tandem_test_find_label (card, _("Awaiting approval")));
  if (gtk_widget_get_mapped (status))
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (status))));
  {
    g_autoptr(GPtrArray) images = tandem_test_find_all (card, GTK_TYPE_IMAGE);
    gboolean said = FALSE;

    for (guint i = 0; i < images->len; i++)
      if (gtk_widget_get_mapped (images->pdata[i]) &&
          g_strcmp0 (gtk_widget_get_tooltip_text (images->pdata[i]), _("Awaiting approval")) == 0)
        said = TRUE;
    g_assert_true (said);
  }

  /* The question waits: the dialog it opened goes with the window */
  agui_test_server_stop (server);
}

static void
test_banner_icon (Fixture       *f,
                  gconstpointer  data)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (f->window)));
  g_autoptr(GPtrArray) images = tandem_test_find_all (tandem_test_child (f->window, "interrupt_banner"), GTK_TYPE_IMAGE);

  g_test_summary ("The questions banner's icon is one Adwaita has, and not the diamond that reads as “�”");

  g_assert_cmpuint (images->len, ==, 1);
  g_assert_cmpint (gtk_image_get_storage_type (images->pdata[0]), ==, GTK_IMAGE_ICON_NAME);
  g_assert_true (gtk_icon_theme_has_icon (theme, gtk_image_get_icon_name (images->pdata[0])));
  g_assert_cmpstr (gtk_image_get_icon_name (images->pdata[0]), !=, "dialog-question-symbolic");
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("TANDEM_TEST_LOCALEDIR");
  int result;

  german = localedir != NULL;
  if (german)
    {
      g_setenv ("LANGUAGE", "de", TRUE);
      g_setenv ("LC_ALL", "de_DE.UTF-8", TRUE);
    }

  tandem_test_init (&argc, &argv);

  if (german)
    {
      /* build-aux/install-deps.sh generates it */
      if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
        g_error ("The de_DE.UTF-8 locale is missing: generate it with locale-gen");
      bindtextdomain (GETTEXT_PACKAGE, localedir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }

  store_dir = tandem_test_make_store_dir ("polish", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);
  /* What fits depends on the margins the app's style gives */
  tandem_test_load_style ();

#define ADD(path, fn) g_test_add ("/tandem/polish/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("inspector-narrow", test_inspector_narrow);
  ADD ("window-buttons", test_window_buttons);
  ADD ("sidebar-title", test_sidebar_title);
  ADD ("agent-narrow", test_agent_narrow);
  ADD ("agent-radios", test_agent_radios);
  ADD ("welcome-own-agent", test_welcome_own_agent);
  ADD ("welcome-prompts", test_welcome_prompts);
  ADD ("banner-icon", test_banner_icon);
  ADD ("header-title-run", test_header_title_run);
  ADD ("tool-card-narrow", test_tool_card_narrow);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
