/* test-a2ui-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>

#include "agui-session-store-private.h"
#include "agui-test-server.h"
#include "tandem-a2ui-surface-view.h"
#include "tandem-application.h"
#include "tandem-block-row.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* A2UI surfaces in a real TandemWindow under Xvfb, sent by the loopback
 * AG-UI server the way the A2UI middleware sends them: an
 * ACTIVITY_SNAPSHOT of activityType "a2ui-surface", then operations
 * appended by ACTIVITY_DELTA. */

#define TIMEOUT_MS 10000

#define RS(run) "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run) "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"

/* A weather card and a form, in the middleware's v0.9 wrapping. */
#define WEATHER_SURFACE \
  "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-surface-call1\",\"activityType\":\"a2ui-surface\"," \
  "\"replace\":true,\"content\":{\"a2ui_operations\":[" \
  "{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"weather\",\"catalogId\":\"basic\"}}," \
  "{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"weather\",\"components\":[" \
  "{\"id\":\"root\",\"component\":\"Card\",\"child\":\"main\"}," \
  "{\"id\":\"main\",\"component\":\"Column\",\"children\":[\"title\",\"summary\",\"divider\",\"city-field\",\"send-btn\"]}," \
  "{\"id\":\"title\",\"component\":\"Text\",\"text\":\"Weather\",\"variant\":\"h2\"}," \
  "{\"id\":\"summary\",\"component\":\"Text\",\"text\":{\"path\":\"/summary\"}}," \
  "{\"id\":\"divider\",\"component\":\"Divider\"}," \
  "{\"id\":\"city-field\",\"component\":\"TextField\",\"label\":\"City\",\"value\":{\"path\":\"/city\"}}," \
  "{\"id\":\"send-text\",\"component\":\"Text\",\"text\":\"Look up\"}," \
  "{\"id\":\"send-btn\",\"component\":\"Button\",\"child\":\"send-text\",\"variant\":\"primary\"," \
  "\"action\":{\"event\":{\"name\":\"lookup_weather\",\"context\":{\"city\":{\"path\":\"/city\"}}}}}]}}," \
  "{\"version\":\"v0.9\",\"updateDataModel\":{\"surfaceId\":\"weather\",\"value\":" \
  "{\"summary\":\"Sunny, 21°\",\"city\":\"\"}}}]}}"

/* A form of every kind of value a person sets */
#define FORM_SURFACE \
  "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-form\",\"activityType\":\"a2ui-surface\"," \
  "\"replace\":true,\"content\":{\"a2ui_operations\":[" \
  "{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"form\",\"catalogId\":\"basic\"}}," \
  "{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"form\",\"components\":[" \
  "{\"id\":\"root\",\"component\":\"Column\",\"children\":[\"city\",\"hours\",\"remote\",\"mode\"]}," \
  "{\"id\":\"city\",\"component\":\"TextField\",\"label\":\"City\",\"value\":{\"path\":\"/city\"}}," \
  "{\"id\":\"hours\",\"component\":\"Slider\",\"label\":\"Hours\",\"min\":0,\"max\":10," \
  "\"value\":{\"path\":\"/hours\"}}," \
  "{\"id\":\"remote\",\"component\":\"CheckBox\",\"label\":\"Remote\",\"value\":{\"path\":\"/remote\"}}," \
  "{\"id\":\"mode\",\"component\":\"ChoicePicker\",\"label\":\"Mode\",\"variant\":\"mutuallyExclusive\"," \
  "\"options\":[{\"label\":\"Fast\",\"value\":\"fast\"},{\"label\":\"Calm\",\"value\":\"calm\"}]," \
  "\"value\":{\"path\":\"/mode\"}}]}}," \
  "{\"version\":\"v0.9\",\"updateDataModel\":{\"surfaceId\":\"form\",\"value\":" \
  "{\"city\":\"\",\"hours\":3,\"remote\":false,\"mode\":[\"fast\"]}}}]}}"

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiAgentSession  *session;
  TandemWindow      *window;
} Fixture;

static gpointer
find_first (gpointer widget,
            GType    type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  tandem_test_collect (GTK_WIDGET (widget), type, found);

  return found->len > 0 ? found->pdata[0] : NULL;
}

static void
send_text (Fixture    *f,
           const char *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
}

static gboolean
surface_view_shows (gpointer data)
{
  Fixture *f = data;
  TandemA2uiSurfaceView *view = find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);

  return view != NULL && gtk_widget_get_visible (GTK_WIDGET (view)) &&
         tandem_a2ui_surface_view_get_widget (view, "root") != NULL;
}

static TandemA2uiSurfaceView *
show_surface (Fixture    *f,
              const char *snapshot)
{
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r1"), snapshot, RF ("r1"), NULL));
  send_text (f, "Show me");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (surface_view_shows, f, TIMEOUT_MS));

  return find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
}

/* Fixture */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL, "store", NULL, "agent", "test", NULL);
  tandem_window_set_session (f->window, f->session);
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (l->data != (gpointer) f->window)
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  tandem_test_destroy_window (f->window);
  g_clear_object (&f->session);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);
}

/* Tests */

static gboolean
status_is_answered (gpointer data)
{
  return g_strcmp0 (tandem_a2ui_surface_view_get_status_text (data), "The agent answered.") == 0;
}

static void
test_action_round_trip (Fixture       *f,
                        gconstpointer  data)
{
  TandemA2uiSurfaceView *view;
  const AguiTestRequest *request;
  GtkWidget *card;
  GtkWidget *summary;
  GtkWidget *button;
  GtkEditable *entry;
  JsonObject *forwarded;
  JsonObject *action;
  JsonNode *city;
  guint builds;
  guint n_messages;

  g_test_summary ("Typing and pressing the button sends a run whose forwarded userAction carries the typed value; "
                  "the answer's dataModelUpdate changes the label without rebuilding the card");
  view = show_surface (f, WEATHER_SURFACE);

  card = tandem_a2ui_surface_view_get_widget (view, "root");
  summary = tandem_a2ui_surface_view_get_widget (view, "summary");
  button = tandem_a2ui_surface_view_get_widget (view, "send-btn");
  g_assert_true (gtk_widget_has_css_class (card, "card"));
  g_assert_true (GTK_IS_LABEL (summary));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (summary)), ==, "Sunny, 21°");
  g_assert_true (gtk_widget_has_css_class (tandem_a2ui_surface_view_get_widget (view, "title"), "title-2"));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
  g_assert_true (GTK_IS_SEPARATOR (tandem_a2ui_surface_view_get_widget (view, "divider")));
  entry = find_first (tandem_a2ui_surface_view_get_widget (view, "city-field"), GTK_TYPE_ENTRY);
  g_assert_nonnull (entry);

  /* Two-way: typing writes the data model. */
  gtk_editable_set_text (entry, "Oslo");
  city = json_object_get_member (json_node_get_object (agui_a2ui_surface_get_data_model (tandem_a2ui_surface_view_get_surface (view))),
                                 "city");
  g_assert_cmpstr (json_node_get_string (city), ==, "Oslo");

  /* A second view of the part (a recycled row) shows what was typed. */
  {
    GtkWidget *again = g_object_ref_sink (tandem_a2ui_surface_view_new (tandem_a2ui_surface_view_get_part (view), NULL));
    GtkEditable *again_entry = find_first (tandem_a2ui_surface_view_get_widget (TANDEM_A2UI_SURFACE_VIEW (again), "city-field"),
                                           GTK_TYPE_ENTRY);

    g_assert_cmpstr (gtk_editable_get_text (again_entry), ==, "Oslo");
    g_object_unref (again);
  }

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"),
                                                                 "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a2ui-surface-call1\","
                                                                 "\"activityType\":\"a2ui-surface\",\"patch\":[{\"op\":\"add\","
                                                                 "\"path\":\"/a2ui_operations/-\",\"value\":{\"version\":\"v0.9\","
                                                                 "\"updateDataModel\":{\"surfaceId\":\"weather\",\"path\":\"/summary\","
                                                                 "\"value\":\"Rain in Oslo, 9°\"}}}]}",
                                                                 RF ("r2"), NULL));
  builds = tandem_a2ui_surface_view_get_n_builds (view);
  n_messages = g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session)));

  g_signal_emit_by_name (button, "clicked");
  g_assert_nonnull (tandem_a2ui_surface_view_get_status_text (view));
  g_assert_true (g_str_has_prefix (tandem_a2ui_surface_view_get_status_text (view), "Sending"));
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (status_is_answered, view, TIMEOUT_MS));

  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
  request = agui_test_server_get_request (f->server, 1);
  forwarded = json_object_get_object_member (json_node_get_object (request->json), "forwardedProps");
  action = json_object_get_object_member (json_object_get_object_member (forwarded, "a2uiAction"), "userAction");
  g_assert_cmpstr (json_object_get_string_member (action, "name"), ==, "lookup_weather");
  g_assert_cmpstr (json_object_get_string_member (action, "surfaceId"), ==, "weather");
  g_assert_cmpstr (json_object_get_string_member (action, "sourceComponentId"), ==, "send-btn");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (action, "context"), "city"), ==, "Oslo");
  /* No message was added for the action: the history is the first run's
   * (activities are never sent back). */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (request->json), "messages")),
                    ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (f->session))), ==, n_messages);

  /* The same card and label, a new text. */
  g_assert_true (tandem_a2ui_surface_view_get_widget (view, "root") == card);
  g_assert_true (tandem_a2ui_surface_view_get_widget (view, "summary") == summary);
  g_assert_cmpuint (tandem_a2ui_surface_view_get_n_builds (view), ==, builds);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (summary)), ==, "Rain in Oslo, 9°");
  /* What the person typed stays typed. */
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Oslo");
}

static void
test_malformed_surface (Fixture       *f,
                        gconstpointer  data)
{
  TandemA2uiSurfaceView *view;
  GtkWidget *errors;
  GtkWidget *placeholder;

  g_test_summary ("A malformed surface shows what it can, a placeholder for an unknown type and an error row");
  view = show_surface (f,
                       "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-surface-bad\",\"activityType\":\"a2ui-surface\","
                       "\"content\":{\"operations\":["
                       "{\"surfaceUpdate\":{\"surfaceId\":\"bad\",\"components\":["
                       "{\"id\":\"root\",\"component\":{\"Column\":{\"children\":{\"explicitList\":[\"ok\",\"odd\",\"nowhere\",\"loop\"]}}}},"
                       "{\"id\":\"ok\",\"component\":{\"Text\":{\"text\":{\"literalString\":\"<b>not markup</b>\"}}}},"
                       "{\"id\":\"odd\",\"component\":{\"Hologram\":{}}},"
                       "{\"id\":\"loop\",\"component\":{\"Card\":{\"child\":\"loop\"}}},"
                       "42]}},"
                       "{\"dataModelUpdate\":{\"surfaceId\":\"bad\",\"path\":\"/x\",\"contents\":[{\"key\":\"y\"}]}},"
                       "{\"beginRendering\":{\"surfaceId\":\"bad\",\"root\":\"root\"}}]}}");

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tandem_a2ui_surface_view_get_widget (view, "ok"))), ==,
                   "<b>not markup</b>");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (tandem_a2ui_surface_view_get_widget (view, "ok"))));
  placeholder = tandem_a2ui_surface_view_get_widget (view, "odd");
  g_assert_true (gtk_widget_has_css_class (placeholder, "a2ui-placeholder"));
  g_assert_nonnull (find_first (placeholder, GTK_TYPE_LABEL));
  g_assert_cmpstr (gtk_label_get_text (find_first (placeholder, GTK_TYPE_LABEL)), ==, "Unsupported component “Hologram”");

  errors = NULL;
  {
    g_autoptr(GPtrArray) boxes = g_ptr_array_new ();

    tandem_test_collect (GTK_WIDGET (view), GTK_TYPE_BOX, boxes);
    for (guint i = 0; i < boxes->len && errors == NULL; i++)
      if (g_strcmp0 (gtk_widget_get_name (boxes->pdata[i]), "a2ui-errors") == 0)
        errors = boxes->pdata[i];
  }
  g_assert_nonnull (errors);
  g_assert_true (gtk_widget_get_visible (errors));
  /* A title and one line per problem: the unknown type, the missing
   * child, the cycle, the item that is no component, the entry with no value. */
  {
    guint n = 0;

    for (GtkWidget *c = gtk_widget_get_first_child (errors); c != NULL; c = gtk_widget_get_next_sibling (c))
      n++;
    g_assert_cmpuint (n, ==, 6);
  }
}

static void
test_buffered_until_begin_rendering (Fixture       *f,
                                     gconstpointer  data)
{
  TandemA2uiSurfaceView *view;

  g_test_summary ("Before beginRendering the surface shows nothing; the delta that begins it draws it");
  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"),
                                                                 "{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-surface-s\","
                                                                 "\"activityType\":\"a2ui-surface\",\"content\":{\"operations\":["
                                                                 "{\"surfaceUpdate\":{\"surfaceId\":\"s\",\"components\":["
                                                                 "{\"id\":\"root\",\"component\":{\"Text\":{\"text\":{\"literalString\":\"Hi\"}}}}]}}]}}",
                                                                 RF ("r1"), NULL));
  send_text (f, "Show me");
  agui_test_wait_for_exchange (f->session);

  view = find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  g_assert_nonnull (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_null (tandem_a2ui_surface_view_get_widget (view, "root"));

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r2"),
                                                                 "{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a2ui-surface-s\","
                                                                 "\"activityType\":\"a2ui-surface\",\"patch\":[{\"op\":\"add\","
                                                                 "\"path\":\"/operations/-\",\"value\":{\"beginRendering\":"
                                                                 "{\"surfaceId\":\"s\",\"root\":\"root\"}}}]}",
                                                                 RF ("r2"), NULL));
  send_text (f, "Go on");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (surface_view_shows, f, TIMEOUT_MS));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tandem_a2ui_surface_view_get_widget (view, "root"))), ==, "Hi");
}

static gboolean
picture_loaded (gpointer data)
{
  return gtk_picture_get_paintable (data) != NULL;
}

static gboolean
picture_failed (gpointer data)
{
  return gtk_widget_has_css_class (data, "a2ui-image-failed");
}

static void
test_image (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 4, 4);
  g_autofree char *png = NULL;
  g_autofree char *snapshot = NULL;
  AguiTestResponse *image;
  TandemA2uiSurfaceView *view;
  const AguiTestRequest *request;
  GtkWidget *loopback;
  GtkWidget *local;
  gsize png_length;
  g_autoptr(GError) error = NULL;

  g_test_summary ("An image loads over http off the main loop; a file: URL is never read");
  gdk_pixbuf_fill (pixbuf, 0x3584e4ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &png, &png_length, "png", &error, NULL));
  g_assert_no_error (error);

  snapshot = g_strdup_printf ("{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-surface-img\",\"activityType\":\"a2ui-surface\","
                              "\"content\":{\"a2ui_operations\":["
                              "{\"createSurface\":{\"surfaceId\":\"img\",\"catalogId\":\"basic\"}},"
                              "{\"updateComponents\":{\"surfaceId\":\"img\",\"components\":["
                              "{\"id\":\"root\",\"component\":\"Row\",\"children\":[\"picture\",\"local\"]},"
                              "{\"id\":\"picture\",\"component\":\"Image\",\"url\":\"http://127.0.0.1:%u/image.png\",\"description\":\"A blue square\","
                              "\"variant\":\"avatar\"},"
                              "{\"id\":\"local\",\"component\":\"Image\",\"url\":\"file:///etc/hostname\"}]}}]}}",
                              agui_test_server_get_port (f->server));
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r1"), snapshot, RF ("r1"), NULL));
  image = agui_test_response_new ();
  agui_test_response_set_content_type (image, "image/png");
  agui_test_response_append_data (image, png, png_length);
  agui_test_server_push_response (f->server, image);

  send_text (f, "Show me");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (surface_view_shows, f, TIMEOUT_MS));
  view = find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  loopback = tandem_a2ui_surface_view_get_widget (view, "picture");
  local = tandem_a2ui_surface_view_get_widget (view, "local");

  g_assert_true (agui_test_wait_for (picture_loaded, loopback, TIMEOUT_MS));
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (gtk_picture_get_paintable (GTK_PICTURE (loopback))), ==, 4);
  g_assert_cmpstr (gtk_picture_get_alternative_text (GTK_PICTURE (loopback)), ==, "A blue square");
  request = agui_test_server_get_request (f->server, 1);
  g_assert_cmpstr (request->method, ==, "GET");
  g_assert_cmpstr (request->path, ==, "/image.png");

  g_assert_true (agui_test_wait_for (picture_failed, local, TIMEOUT_MS));
  g_assert_null (gtk_picture_get_paintable (GTK_PICTURE (local)));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 2);
}

static gboolean
label_says_planned (gpointer data)
{
  return g_str_has_prefix (gtk_label_get_text (data), "Planned: ");
}

static void
test_demo_dashboard (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AguiDemoAgent) demo = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (demo), "thread-id", NULL, "tools", NULL, "store", NULL, "agent", "demo", NULL);
  TandemA2uiSurfaceView *view;
  GtkWidget *summary;
  GtkWidget *card;
  GtkRange *slider;
  guint builds;

  g_test_summary ("The demo agent's dashboard is drawn, and its button's action comes back as a data update");
  /* The demo paces its events for people; the test needs no pauses. */
  agui_demo_agent_set_delay (demo, 0);
  g_set_object (&f->session, session);
  tandem_window_set_session (f->window, session);
  send_text (f, "Show me a dashboard");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (surface_view_shows, f, TIMEOUT_MS));
  view = find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  g_assert_null (agui_a2ui_surface_get_errors (tandem_a2ui_surface_view_get_surface (view))[0]);

  card = tandem_a2ui_surface_view_get_widget (view, "root");
  summary = tandem_a2ui_surface_view_get_widget (view, "summary");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (summary)), ==, "Nothing planned yet.");
  slider = find_first (tandem_a2ui_surface_view_get_widget (view, "focus"), GTK_TYPE_RANGE);
  g_assert_cmpfloat (gtk_range_get_value (slider), ==, 3);
  gtk_range_set_value (slider, 5);
  builds = tandem_a2ui_surface_view_get_n_builds (view);

  g_signal_emit_by_name (tandem_a2ui_surface_view_get_widget (view, "plan"), "clicked");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (label_says_planned, summary, TIMEOUT_MS));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (summary)), "Planned: 5 hours of focus"));
  g_assert_true (tandem_a2ui_surface_view_get_widget (view, "root") == card);
  g_assert_cmpuint (tandem_a2ui_surface_view_get_n_builds (view), ==, builds);
}

/* The widget that has the window's focus, or NULL */
static GtkWidget *
get_focus (TandemWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static const char *
describe_focus (TandemWindow *window)
{
  GtkWidget *focus = get_focus (window);

  return focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "nothing";
}

/* Whether the focus is on @widget or inside it */
static gboolean
focus_in (TandemWindow *window,
          GtkWidget    *widget)
{
  GtkWidget *focus = get_focus (window);

  return focus != NULL && widget != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
test_dashboard_keyboard (Fixture       *f,
                         gconstpointer  data)
{
  static const char * const controls[] = { "focus", "mood", "remind", "plan" };
  g_autoptr(AguiDemoAgent) demo = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (demo), "thread-id", NULL, "tools", NULL, "store", NULL, "agent", "demo", NULL);
  gboolean reached[G_N_ELEMENTS (controls)] = { FALSE };
  gboolean mood_chips[3] = { FALSE };
  g_autoptr(GPtrArray) chips = NULL;
  TandemA2uiSurfaceView *view;
  GtkWidget *composer;
  GtkLabel *asked;
  GtkWidget *row;
  guint n_reached = 0;

  g_test_summary ("From the message that asked for the dashboard, Tab reaches every control of the dashboard, "
                  "each drawn with the focus on it, and no Tab stop on the way is an invisible one");
  agui_demo_agent_set_delay (demo, 0);
  g_set_object (&f->session, session);
  tandem_window_set_session (f->window, session);
  send_text (f, "Show me a dashboard");
  agui_test_wait_for_exchange (f->session);
  g_assert_true (agui_test_wait_for (surface_view_shows, f, TIMEOUT_MS));
  view = find_first (f->window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  chips = tandem_test_find_all (tandem_a2ui_surface_view_get_widget (view, "mood"), GTK_TYPE_TOGGLE_BUTTON);
  g_assert_cmpuint (chips->len, ==, 3);
  composer = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f->window), TANDEM_TYPE_WINDOW, "composer_view"));
  tandem_test_wait_for_layout (f->window);

  /* From the person's own message, as they walk the conversation */
  asked = tandem_test_find_label (gtk_widget_get_template_child (GTK_WIDGET (f->window), TANDEM_TYPE_WINDOW,
                                                                "transcript_view"),
                                  "Show me a dashboard");
  g_assert_nonnull (asked);
  row = gtk_widget_get_ancestor (GTK_WIDGET (asked), TANDEM_TYPE_BLOCK_ROW);
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_grab_focus (row));

  for (guint presses = 0; presses < 40 && n_reached < G_N_ELEMENTS (controls); presses++)
    {
      GtkWidget *before = get_focus (f->window);
      GtkWidget *focus;

      tandem_test_press_key (GTK_WIDGET (f->window), GDK_KEY_Tab, 0);
      agui_test_wait_until (get_focus (f->window) != before, "Tab moved the focus on from a %s",
                            before ? G_OBJECT_TYPE_NAME (before) : "nothing");
      focus = get_focus (f->window);
      g_test_message ("Tab %u: %s", presses + 1, describe_focus (f->window));
      if (focus == composer)
        break;

      /* A Tab stop a person sees: drawn, and not a bare label or pane */
      tandem_test_wait_for_layout (f->window);
      g_assert_true (gtk_widget_is_drawable (focus));
      g_assert_false (GTK_IS_LABEL (focus));
      g_assert_false (GTK_IS_SCROLLED_WINDOW (focus) || GTK_IS_VIEWPORT (focus));

      for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
        if (!reached[i] && focus_in (f->window, tandem_a2ui_surface_view_get_widget (view, controls[i])))
          {
            reached[i] = TRUE;
            n_reached++;
          }
      for (guint i = 0; i < chips->len; i++)
        if (focus == chips->pdata[i])
          mood_chips[i] = TRUE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    if (!reached[i])
      g_error ("Tab never reached the dashboard's “%s” (the focus ended on a %s)", controls[i], describe_focus (f->window));
  /* One chosen chip is the group's stop, as radio buttons are */
  g_assert_true (mood_chips[0] || mood_chips[1] || mood_chips[2]);
}

/* The form's widgets in @view */
typedef struct
{
  GtkEditable    *city;
  GtkRange       *hours;
  GtkCheckButton *remote;
  GtkCheckButton *fast;
  GtkCheckButton *calm;
} Form;

static void
find_form (TandemA2uiSurfaceView *view,
           Form                  *form)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new ();

  form->city = find_first (tandem_a2ui_surface_view_get_widget (view, "city"), GTK_TYPE_ENTRY);
  form->hours = find_first (tandem_a2ui_surface_view_get_widget (view, "hours"), GTK_TYPE_RANGE);
  form->remote = find_first (tandem_a2ui_surface_view_get_widget (view, "remote"), GTK_TYPE_CHECK_BUTTON);
  tandem_test_collect (tandem_a2ui_surface_view_get_widget (view, "mode"), GTK_TYPE_CHECK_BUTTON, choices);
  form->fast = form->calm = NULL;
  for (guint i = 0; i < choices->len; i++)
    {
      const char *label = gtk_check_button_get_label (choices->pdata[i]);

      if (g_strcmp0 (label, "Fast") == 0)
        form->fast = choices->pdata[i];
      else if (g_strcmp0 (label, "Calm") == 0)
        form->calm = choices->pdata[i];
    }
  g_assert_nonnull (form->city);
  g_assert_nonnull (form->hours);
  g_assert_nonnull (form->remote);
  g_assert_nonnull (form->fast);
  g_assert_nonnull (form->calm);
}

static gboolean
form_kept (const char *thread_id)
{
  g_autoptr(JsonObject) values = _agui_session_store_dup_surface_values (tandem_application_get_store (app), thread_id, NULL);
  JsonObject *form;

  if (values == NULL || !json_object_has_member (values, "a2ui-form"))
    return FALSE;
  form = json_object_get_object_member (values, "a2ui-form");

  return json_object_has_member (form, "/city") && json_object_has_member (form, "/hours") &&
         json_object_has_member (form, "/remote") && json_object_has_member (form, "/mode");
}

static gboolean
form_shows_as_left (TandemWindow *window)
{
  TandemA2uiSurfaceView *view = find_first (window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  Form form;

  if (view == NULL || tandem_a2ui_surface_view_get_widget (view, "city") == NULL)
    return FALSE;
  find_form (view, &form);

  return g_str_equal (gtk_editable_get_text (form.city), "Oslo") && gtk_range_get_value (form.hours) == 7 &&
         gtk_check_button_get_active (form.remote) && gtk_check_button_get_active (form.calm) &&
         !gtk_check_button_get_active (form.fast);
}

static void
test_values_kept (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AguiAgentSession) session = NULL;
  g_autoptr(TandemApplication) second = NULL;
  g_autofree char *thread_id = NULL;
  TandemA2uiSurfaceView *view;
  TandemWindow *window;
  Form form;

  g_test_summary ("What the person typed, slid, checked and chose in an agent's form is kept with the "
                  "conversation: a relaunch shows the form as it was left, over the values the agent sent");

  session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL,
                          "tools", NULL, "store", tandem_application_get_store (app), "agent", "test", NULL);
  thread_id = g_strdup (agui_agent_session_get_thread_id (session));
  g_set_object (&f->session, session);
  tandem_window_set_session (f->window, session);
  view = show_surface (f, FORM_SURFACE);

  find_form (view, &form);
  g_assert_cmpfloat (gtk_range_get_value (form.hours), ==, 3);
  g_assert_true (gtk_check_button_get_active (form.fast));
  gtk_editable_set_text (form.city, "Oslo");
  gtk_range_set_value (form.hours, 7);
  gtk_check_button_set_active (form.remote, TRUE);
  gtk_check_button_set_active (form.calm, TRUE);
  agui_test_wait_until (form_kept (thread_id), "the values set in the form were written to the store");

  /* Closed, and opened in a relaunched program */
  tandem_test_destroy_window (f->window);
  g_clear_object (&f->session);
  g_clear_object (&session);
  second = tandem_test_application_new ("io.github.tandemdesk.Tandem.A2uiRelaunch", store_path);
  window = tandem_window_new (second);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_present (GTK_WINDOW (window));
  f->window = window;
  tandem_window_open_thread (window, thread_id);
  agui_test_wait_until (form_shows_as_left (window), "the relaunched window shows the form as it was left");

  /* Changed again there, then the thread reopened: the newest values */
  view = find_first (window, TANDEM_TYPE_A2UI_SURFACE_VIEW);
  find_form (view, &form);
  gtk_editable_set_text (form.city, "Bergen");
  gtk_check_button_set_active (form.remote, FALSE);
  tandem_test_destroy_window (window);
  window = tandem_window_new (second);
  gtk_window_present (GTK_WINDOW (window));
  f->window = window;
  tandem_window_open_thread (window, thread_id);
  agui_test_wait_until ((view = find_first (window, TANDEM_TYPE_A2UI_SURFACE_VIEW)) != NULL &&
                        tandem_a2ui_surface_view_get_widget (view, "city") != NULL &&
                        g_str_equal (gtk_editable_get_text (find_first (tandem_a2ui_surface_view_get_widget (view, "city"),
                                                                        GTK_TYPE_ENTRY)), "Bergen"),
                        "a change made just before closing was kept");
  find_form (view, &form);
  g_assert_false (gtk_check_button_get_active (form.remote));
  g_assert_cmpfloat (gtk_range_get_value (form.hours), ==, 7);
  g_assert_true (gtk_check_button_get_active (form.calm));
  f->session = g_object_ref (tandem_window_get_session (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("a2ui", &store_path);

  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.A2uiTest", store_path);

#define ADD(path, fn) g_test_add ("/tandem/a2ui-view/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("action-round-trip", test_action_round_trip);
  ADD ("malformed-surface", test_malformed_surface);
  ADD ("buffered-until-begin-rendering", test_buffered_until_begin_rendering);
  ADD ("image", test_image);
  ADD ("demo-dashboard", test_demo_dashboard);
  ADD ("dashboard-keyboard", test_dashboard_keyboard);
  ADD ("values-kept", test_values_kept);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
