/* test-transfer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>

#include "agui-session-store-db-private.h"
#include "agui-test-server.h"
#include "tandem-application.h"
#include "tandem-conversation-io.h"
#include "tandem-attachment-tray.h"
#include "tandem-media-view.h"
#include "tandem-window.h"
#include "tandem-test-window.h"

/* What goes in and out of a conversation as files: attachments reaching
 * the loopback server as AG-UI content parts and shown in the message,
 * images from the agent (and broken ones), export to Markdown and JSON,
 * import from the menu's file chooser and by a drop. */

#define TIMEOUT_MS 10000

#define RS(run)  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define RF(run)  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"" run "\"}"
#define TEXT(id, text) \
  "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}", \
  "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" text "\"}", \
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"

static TandemApplication *app;
static char *store_dir;
static char *store_path;

typedef struct
{
  AguiTestServer    *server;
  AguiHttpTransport *transport;
  AguiAgentSession  *session;
  TandemWindow      *window;
  char              *dir;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tandem-transfer-XXXXXX", &error);
  g_assert_no_error (error);
  f->server = agui_test_server_new (&error);
  g_assert_no_error (error);
  f->transport = agui_http_transport_new (agui_test_server_get_url (f->server), &error);
  g_assert_no_error (error);

  f->window = tandem_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  gtk_window_present (GTK_WINDOW (f->window));

  f->session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (f->transport), "thread-id", NULL, "tools", NULL,
                          "store", tandem_application_get_store (app), "agent", agui_test_server_get_url (f->server), NULL);
  tandem_window_set_session (f->window, f->session);
  tandem_test_wait_for_layout (f->window);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GList *toplevels = gtk_window_list_toplevels ();
  g_autoptr(GDir) dir = NULL;
  const char *name;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (l->data != (gpointer) f->window)
      gtk_window_destroy (l->data);
  g_list_free (toplevels);

  tandem_test_destroy_window (f->window);
  g_clear_object (&f->session);
  g_clear_object (&f->transport);
  agui_test_server_stop (f->server);
  g_clear_object (&f->server);

  dir = g_dir_open (f->dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

/* Helpers */

static GBytes *
make_png (int width,
          int height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize size = 0;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, "png", &error, NULL));
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, size);
}

static GFile *
write_file (Fixture    *f,
            const char *name,
            GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

static gboolean
session_idle (gpointer data)
{
  Fixture *f = data;

  return !agui_agent_session_get_busy (tandem_window_get_session (f->window));
}

typedef struct
{
  TandemAttachmentTray *tray;
  guint                 n;
} TrayWait;

static gboolean
tray_has (gpointer data)
{
  TrayWait *wait = data;

  return tandem_attachment_tray_get_n_attachments (wait->tray) == wait->n;
}

static gboolean
toast_says (gpointer data)
{
  void **args = data;
  g_autoptr(GPtrArray) labels = tandem_test_find_all (args[0], GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (labels->pdata[i]), args[1]) != NULL &&
        gtk_widget_get_ancestor (labels->pdata[i], g_type_from_name ("AdwToastWidget")) != NULL)
      return TRUE;

  return FALSE;
}

static gboolean
wait_for_toast (TandemWindow *window,
                const char   *text)
{
  void *args[2] = { window, (void *) text };

  return agui_test_wait_for (toast_says, args, TIMEOUT_MS);
}

static gboolean
error_dialog_says (gpointer data)
{
  const char *text = data;
  GList *toplevels = gtk_window_list_toplevels ();
  gboolean found = FALSE;

  for (GList *l = toplevels; l != NULL && !found; l = l->next)
    {
      g_autoptr(GPtrArray) labels = NULL;

      if (!ADW_IS_MESSAGE_DIALOG (l->data))
        continue;
      labels = tandem_test_find_all (l->data, GTK_TYPE_LABEL);
      for (guint i = 0; i < labels->len && !found; i++)
        found = strstr (gtk_label_get_text (labels->pdata[i]), text) != NULL;
    }
  g_list_free (toplevels);

  return found;
}

/* A failed import or export says why in a dialog, whole */
static gboolean
wait_for_error_dialog (const char *text)
{
  return agui_test_wait_for (error_dialog_says, (gpointer) text, TIMEOUT_MS);
}

static gboolean
images_decoded (gpointer data)
{
  void **args = data;
  g_autoptr(GPtrArray) views = tandem_test_find_all (args[0], TANDEM_TYPE_MEDIA_VIEW);
  guint decoded = 0;

  for (guint i = 0; i < views->len; i++)
    if (tandem_media_view_get_image (views->pdata[i]) != NULL || tandem_media_view_get_problem (views->pdata[i]) != NULL)
      decoded++;

  return decoded >= GPOINTER_TO_UINT (args[1]);
}

static TandemMediaView *
find_media (gpointer    widget,
            const char *filename)
{
  g_autoptr(GPtrArray) views = tandem_test_find_all (widget, TANDEM_TYPE_MEDIA_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (g_strcmp0 (agui_media_part_get_filename (tandem_media_view_get_part (views->pdata[i])), filename) == 0)
      return views->pdata[i];

  return NULL;
}

typedef struct
{
  TandemWindow *window;
  const char   *not_thread_id;
} ThreadWait;

/* Another conversation than @not_thread_id is shown, whole */
static gboolean
shows_other_thread (gpointer data)
{
  ThreadWait *wait = data;
  AguiAgentSession *session = tandem_window_get_session (wait->window);

  return session != NULL &&
         g_strcmp0 (agui_agent_session_get_thread_id (session), wait->not_thread_id) != 0 &&
         g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (session))) == 2;
}

/* Tests */

static void
test_attachments (Fixture       *f,
                  gconstpointer  data)
{
  TandemAttachmentTray *tray = TANDEM_ATTACHMENT_TRAY (tandem_test_child (f->window, "attachment_tray"));
  g_autoptr(GBytes) png = make_png (64, 48);
  /* 28 bytes: 40 characters of base64, two of them padding */
  g_autoptr(GBytes) notes = g_bytes_new_static ("Buy milk\nand eggs\nand bread\n", 28);
  g_autofree char *notes_size = tandem_media_describe_size (28);
  g_autofree char *notes_details = g_strdup_printf ("text/plain, %s", notes_size);
  g_autoptr(GFile) image_file = write_file (f, "photo.png", png);
  g_autoptr(GFile) notes_file = write_file (f, "notes.txt", notes);
  g_autofree char *png_base64 = g_base64_encode (g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  g_autofree char *thread_id = NULL;
  TrayWait wait = { tray, 2 };
  JsonArray *messages, *content;
  JsonObject *user, *image, *document, *source;
  TandemMediaView *view;
  graphene_rect_t bounds;
  void *args[2];

  g_test_summary ("Attached files go out as AG-UI content parts, show in the message and come back after a reopen");

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tray)));
  /* The larger first: they are attached in the order given */
  tandem_window_attach_file (f->window, image_file);
  tandem_window_attach_file (f->window, notes_file);
  g_assert_true (agui_test_wait_for (tray_has, &wait, TIMEOUT_MS));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tray)));
  g_assert_nonnull (tandem_test_find_label (tray, "photo.png"));
  g_assert_nonnull (tandem_test_find_label (tray, "notes.txt"));
  g_assert_nonnull (tandem_test_find_label (tray, notes_size));
  /* Files alone may be sent */
  g_assert_true (gtk_widget_is_sensitive (tandem_test_child (f->window, "send_button")));

  agui_test_server_push_response (f->server,
                                  agui_test_response_new_events (RS ("r1"), TEXT ("m1", "A blue square."), RF ("r1"), NULL));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (tandem_test_child (f->window, "composer_view"))),
                            "What is this?", -1);
  g_assert_true (tandem_window_handle_composer_key (f->window, GDK_KEY_Return, 0));
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
  g_assert_cmpuint (tandem_attachment_tray_get_n_attachments (tray), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tray)));

  /* What the server got */
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 1);
  messages = json_object_get_array_member (json_node_get_object (agui_test_server_get_request (f->server, 0)->json), "messages");
  user = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  g_assert_cmpstr (json_object_get_string_member (user, "role"), ==, "user");
  content = json_object_get_array_member (user, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0), "text"), ==, "What is this?");
  image = json_array_get_object_element (content, 1);
  g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "image");
  source = json_object_get_object_member (image, "source");
  g_assert_cmpstr (json_object_get_string_member (source, "type"), ==, "data");
  g_assert_cmpstr (json_object_get_string_member (source, "mimeType"), ==, "image/png");
  g_assert_cmpstr (json_object_get_string_member (source, "value"), ==, png_base64);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (image, "metadata"), "filename"), ==, "photo.png");
  document = json_array_get_object_element (content, 2);
  g_assert_cmpstr (json_object_get_string_member (document, "type"), ==, "document");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (document, "source"), "mimeType"), ==, "text/plain");

  /* What the person sees: the image as a thumbnail in their message, the notes as a chip */
  args[0] = f->window;
  args[1] = GUINT_TO_POINTER (1);
  g_assert_true (agui_test_wait_for (images_decoded, args, TIMEOUT_MS));
  view = find_media (f->window, "photo.png");
  g_assert_nonnull (view);
  agui_test_wait_until (gtk_widget_get_width (GTK_WIDGET (view)) >= 32 && gtk_widget_get_height (GTK_WIDGET (view)) >= 24,
                        "the thumbnail was laid out at its size");
  g_assert_nonnull (tandem_media_view_get_image (view));
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (tandem_media_view_get_image (view)), ==, 64);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (view), GTK_WIDGET (f->window), &bounds));
  g_assert_cmpfloat (bounds.size.width, >=, 32);
  g_assert_cmpfloat (bounds.size.height, >=, 24);
  g_assert_nonnull (find_media (f->window, "notes.txt"));
  g_assert_nonnull (tandem_test_find_label (f->window, "notes.txt"));
  /* The size the tray said */
  g_assert_nonnull (tandem_test_find_label (find_media (f->window, "notes.txt"), notes_details));

  /* A click opens it larger, in a window of its own */
  {
    GtkWindow *larger = tandem_media_view_open (view);

    g_assert_nonnull (larger);
    g_assert_cmpstr (gtk_window_get_title (larger), ==, "photo.png");
    gtk_window_destroy (larger);
  }

  /* Kept: a new window on the same store shows them again */
  thread_id = g_strdup (agui_agent_session_get_thread_id (f->session));
  {
    TandemWindow *second = tandem_window_new (app);

    gtk_window_present (GTK_WINDOW (second));
    tandem_window_open_thread (second, thread_id);
    args[0] = second;
    g_assert_true (agui_test_wait_for (images_decoded, args, TIMEOUT_MS));
    g_assert_nonnull (tandem_media_view_get_image (find_media (second, "photo.png")));
    g_assert_nonnull (find_media (second, "notes.txt"));
    tandem_test_destroy_window (second);
  }

  /* Exported from the app and imported again: both files, whole */
  {
    g_autofree char *export_path = g_build_filename (f->dir, "attached.json", NULL);
    g_autoptr(GFile) export_file = g_file_new_for_path (export_path);
    ThreadWait imported = { f->window, thread_id };

    tandem_window_export_to_file (f->window, TANDEM_EXPORT_JSON, export_file);
    g_assert_true (wait_for_toast (f->window, "Conversation exported"));
    tandem_window_import_file (f->window, export_file);
    g_assert_true (agui_test_wait_for (shows_other_thread, &imported, TIMEOUT_MS));
    args[0] = f->window;
    g_assert_true (agui_test_wait_for (images_decoded, args, TIMEOUT_MS));
    g_assert_nonnull (tandem_media_view_get_image (find_media (f->window, "photo.png")));
    g_assert_nonnull (find_media (f->window, "notes.txt"));
    g_assert_nonnull (tandem_test_find_label (find_media (f->window, "notes.txt"), notes_details));
    g_assert_nonnull (tandem_test_find_label (f->window, "A blue square."));
  }
}

static void
test_attachment_too_large (Fixture       *f,
                           gconstpointer  data)
{
  TandemAttachmentTray *tray = TANDEM_ATTACHMENT_TRAY (tandem_test_child (f->window, "attachment_tray"));
  g_autoptr(GBytes) small = g_bytes_new_static ("notes", 5);
  g_autoptr(GFile) small_file = write_file (f, "small.txt", small);
  g_autofree char *big_path = g_build_filename (f->dir, "film.mp4", NULL);
  g_autoptr(GFile) big_file = g_file_new_for_path (big_path);
  TrayWait wait = { tray, 1 };
  FILE *big;

  g_test_summary ("A file over the limit is refused with its size and the limit, and loses nothing attached");

  tandem_window_attach_file (f->window, small_file);
  g_assert_true (agui_test_wait_for (tray_has, &wait, TIMEOUT_MS));

  /* 9 MiB, sparse */
  big = g_fopen (big_path, "wb");
  g_assert_nonnull (big);
  g_assert_cmpint (fseek (big, 9 * 1024 * 1024 - 1, SEEK_SET), ==, 0);
  g_assert_cmpint (fputc (0, big), ==, 0);
  fclose (big);

  tandem_window_attach_file (f->window, big_file);
  g_assert_true (wait_for_toast (f->window, /* g_format_size() puts a no-break space before the unit */
                                   "“film.mp4” is too large to attach: it is 9.4\u00a0MB, and a file may be at most 8.4\u00a0MB"));
  g_assert_cmpuint (tandem_attachment_tray_get_n_attachments (tray), ==, 1);
  g_assert_nonnull (tandem_test_find_label (tray, "small.txt"));
  g_assert_cmpuint (agui_test_server_get_n_requests (f->server), ==, 0);
}

static gboolean
composer_has_text (GtkWidget  *composer,
                   const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (composer));
  g_autofree char *contents = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  contents = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);

  return strstr (contents, text) != NULL;
}

static void
test_paste_image (Fixture       *f,
                  gconstpointer  data)
{
  TandemAttachmentTray *tray = TANDEM_ATTACHMENT_TRAY (tandem_test_child (f->window, "attachment_tray"));
  GtkWidget *composer = tandem_test_child (f->window, "composer_view");
  g_autoptr(GBytes) png = make_png (20, 10);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  TrayWait wait = { tray, 1 };

  g_test_summary ("Pasting an image into the composer attaches it as a PNG");

  texture = gdk_texture_new_from_bytes (png, &error);
  g_assert_no_error (error);
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (composer), texture);
  g_signal_emit_by_name (composer, "paste-clipboard");
  g_assert_true (agui_test_wait_for (tray_has, &wait, TIMEOUT_MS));
  g_assert_nonnull (tandem_test_find_label (tray, "Pasted image.png"));

  /* Text is pasted as text */
  tandem_attachment_tray_clear (tray);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (composer), "plain words");
  g_signal_emit_by_name (composer, "paste-clipboard");
  agui_test_wait_until (composer_has_text (composer, "plain words"), "the text was pasted into the composer");
  /* And nothing else: give a wrong attachment time to be added. */
  agui_test_wait_to_rule_out (100, "pasted text being attached");
  g_assert_cmpuint (tandem_attachment_tray_get_n_attachments (tray), ==, 0);
}

static const char tiny_png_base64[] =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

static void
test_agent_images (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *snapshot = NULL;
  TandemMediaView *good, *broken, *elsewhere;
  void *args[2] = { f->window, GUINT_TO_POINTER (3) };

  g_test_summary ("Images an agent sends are shown decoded; a broken one is a placeholder that says why");

  /* AG-UI gives an assistant message text only: an agent's images come in
   * the multimodal messages of a snapshot it sends */
  snapshot = g_strdup_printf ("{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                              "{\"id\":\"u1\",\"role\":\"user\",\"content\":["
                              "{\"type\":\"text\",\"text\":\"Here:\"},"
                              "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"%s\",\"mimeType\":\"image/png\"},\"metadata\":{\"filename\":\"dot.png\"}},"
                              "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"bm90IGFuIGltYWdl\",\"mimeType\":\"image/png\"},\"metadata\":{\"filename\":\"broken.png\"}},"
                              "{\"type\":\"image\",\"source\":{\"type\":\"file\",\"value\":\"file-123\",\"mimeType\":\"image/png\"},\"metadata\":{\"filename\":\"held.png\"}}"
                              "]}]}", tiny_png_base64);
  agui_test_server_push_response (f->server, agui_test_response_new_events (RS ("r1"), snapshot, RF ("r1"), NULL));
  tandem_window_send (f->window, "Draw");
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (images_decoded, args, TIMEOUT_MS));

  good = find_media (f->window, "dot.png");
  g_assert_nonnull (good);
  g_assert_nonnull (tandem_media_view_get_image (good));
  g_assert_null (tandem_media_view_get_problem (good));

  broken = find_media (f->window, "broken.png");
  g_assert_nonnull (broken);
  g_assert_null (tandem_media_view_get_image (broken));
  g_assert_true (g_str_has_prefix (tandem_media_view_get_problem (broken), "The image cannot be shown: "));
  g_assert_nonnull (tandem_test_find_label (broken, tandem_media_view_get_problem (broken)));
  g_assert_null (tandem_media_view_open (broken));

  elsewhere = find_media (f->window, "held.png");
  g_assert_nonnull (elsewhere);
  g_assert_nonnull (tandem_media_view_get_problem (elsewhere));
}

typedef struct
{
  GFile  *file;
  gsize   min_size;
} FileWait;

static gboolean
file_written (gpointer data)
{
  FileWait *wait = data;
  g_autoptr(GFileInfo) info = g_file_query_info (wait->file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, NULL);

  return info != NULL && (gsize) g_file_info_get_size (info) >= wait->min_size;
}

/* Whether @path holds a whole JSON document (an export being written
 * may be seen part way) */
static gboolean
json_file_complete (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;
  node = json_from_string (contents, NULL);

  return node != NULL;
}

static void
send_and_finish (Fixture          *f,
                 const char       *question,
                 AguiTestResponse *answer)
{
  agui_test_server_push_response (f->server, answer);
  tandem_window_send (f->window, question);
  g_assert_true (agui_test_wait_for (session_idle, f, TIMEOUT_MS));
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autofree char *markdown_path = g_build_filename (f->dir, "chat.md", NULL);
  g_autofree char *json_path = g_build_filename (f->dir, "chat.json", NULL);
  g_autoptr(GFile) markdown_file = g_file_new_for_path (markdown_path);
  g_autoptr(GFile) json_file = g_file_new_for_path (json_path);
  g_autofree char *expected_markdown = NULL;
  g_autofree char *written = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  const char *thread_id;
  FileWait wait;
  JsonArray *messages;

  g_test_summary ("Export writes the conversation as tandem-cli show --markdown and --export print it");

  send_and_finish (f, "Export me",
                   agui_test_response_new_events (RS ("r1"), TEXT ("m1", "**Done**, exported."), RF ("r1"), NULL));
  thread_id = agui_agent_session_get_thread_id (f->session);

  tandem_window_export_to_file (f->window, TANDEM_EXPORT_MARKDOWN, markdown_file);
  g_assert_true (wait_for_toast (f->window, "Conversation exported"));
  expected_markdown = agui_session_store_export_markdown (store, thread_id, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (markdown_path, &written, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (written, ==, expected_markdown);
  g_assert_nonnull (strstr (written, "Export me"));
  g_assert_nonnull (strstr (written, "**Done**, exported."));

  wait.file = json_file;
  wait.min_size = 1;
  tandem_window_export_to_file (f->window, TANDEM_EXPORT_JSON, json_file);
  g_assert_true (agui_test_wait_for (file_written, &wait, TIMEOUT_MS));
  agui_test_wait_until (json_file_complete (json_path), "the JSON export was written whole");
  g_clear_pointer (&written, g_free);
  g_assert_true (g_file_get_contents (json_path, &written, NULL, &error));
  parsed = json_from_string (written, &error);
  g_assert_no_error (error);
  messages = json_object_get_array_member (json_node_get_object (parsed), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                   ==, "**Done**, exported.");

  /* A folder that does not exist: said, and nothing else changes */
  {
    g_autofree char *nowhere_path = g_build_filename (f->dir, "missing", "chat.md", NULL);
    g_autoptr(GFile) nowhere = g_file_new_for_path (nowhere_path);

    tandem_window_export_to_file (f->window, TANDEM_EXPORT_MARKDOWN, nowhere);
    g_assert_true (wait_for_error_dialog ("The conversation could not be written to"));
  }
}

static GtkFileChooser *
find_file_chooser (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  GtkFileChooser *found = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (toplevels);

  return found;
}

typedef struct
{
  GtkFileChooser *chooser;
  GFile          *file;
} ChooserWait;

static gboolean
chooser_has_file (gpointer data)
{
  ChooserWait *wait = data;
  g_autoptr(GFile) chosen = gtk_file_chooser_get_file (wait->chooser);

  return chosen != NULL && g_file_equal (chosen, wait->file);
}

static gboolean
file_chooser_shown (gpointer data)
{
  return find_file_chooser () != NULL;
}

typedef struct
{
  TandemWindow *window;
  const char   *text;
} OpenWait;

static gboolean
shows_imported (gpointer data)
{
  OpenWait *wait = data;
  AguiAgentSession *session = tandem_window_get_session (wait->window);

  return session != NULL && g_list_model_get_n_items (G_LIST_MODEL (agui_agent_session_get_transcript (session))) == 2 &&
         tandem_test_find_label (tandem_test_child (wait->window, "transcript_view"), wait->text) != NULL;
}

static char *
export_thread (Fixture    *f,
               const char *question)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name = g_strdup_printf ("%s.json", question);

  send_and_finish (f, question,
                   agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Answered."), RF ("r1"), NULL));
  exported = agui_session_store_export_json (store, agui_agent_session_get_thread_id (f->session), &error);
  g_assert_no_error (error);
  text = json_to_string (exported, TRUE);
  path = g_build_filename (f->dir, name, NULL);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static guint
count_threads (void)
{
  g_autoptr(JsonArray) threads = agui_session_store_list_threads (tandem_application_get_store (app), NULL, NULL);

  return json_array_get_length (threads);
}

static void
test_import_menu (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = export_thread (f, "Imported by the menu");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *bad_path = g_build_filename (f->dir, "bad.json", NULL);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  GtkFileChooser *chooser;
  OpenWait wait = { f->window, "Imported by the menu" };
  AguiAgentSession *before;
  guint threads;

  g_test_summary ("Import Conversation… in the menu takes a JSON export through the file chooser and opens it");

  before = tandem_window_get_session (f->window);
  tandem_window_new_chat (f->window);
  agui_test_wait_until (tandem_window_get_session (f->window) != before, "New Chat switched to another session");
  g_assert_null (tandem_test_find_label (tandem_test_child (f->window, "transcript_view"), "Imported by the menu"));
  threads = count_threads ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.import", NULL));
  g_assert_true (agui_test_wait_for (file_chooser_shown, NULL, TIMEOUT_MS));
  chooser = find_file_chooser ();
  g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
  g_assert_true (gtk_file_chooser_set_file (chooser, file, &error));
  g_assert_no_error (error);
  /* The chooser selects the file once it has read its folder, which a
   * busy machine takes its time over: accepted before, it gives none */
  {
    ChooserWait chosen = { chooser, file };

    g_assert_true (agui_test_wait_for (chooser_has_file, &chosen, TIMEOUT_MS));
  }
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);

  g_assert_true (agui_test_wait_for (shows_imported, &wait, TIMEOUT_MS));
  g_assert_cmpuint (count_threads (), ==, threads + 1);
  g_assert_true (wait_for_toast (f->window, "Conversation imported"));
  /* The copy is told apart from its original by its name */
  agui_test_wait_until (g_strcmp0 (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))),
                                   "Imported by the menu (Imported)") == 0,
                        "the imported copy is named as one");
  tandem_window_import_file (f->window, file);
  agui_test_wait_until (g_strcmp0 (adw_window_title_get_title (ADW_WINDOW_TITLE (tandem_test_child (f->window, "window_title"))),
                                   "Imported by the menu (Imported 2)") == 0,
                        "the second copy is numbered");
  threads++;

  /* Not an export: said, and the store is as it was */
  g_file_set_contents (bad_path, "{\"not\": \"an export\"", -1, &error);
  g_assert_no_error (error);
  tandem_window_import_file (f->window, bad);
  g_assert_true (wait_for_error_dialog ("could not be imported: it is not valid JSON"));
  g_assert_cmpuint (count_threads (), ==, threads + 1);
}

static void
test_drop (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *path = export_thread (f, "Imported by a drop");
  g_autoptr(GFile) export = g_file_new_for_path (path);
  g_autoptr(GBytes) png = make_png (8, 8);
  g_autoptr(GFile) image = write_file (f, "dropped.png", png);
  TandemAttachmentTray *tray = TANDEM_ATTACHMENT_TRAY (tandem_test_child (f->window, "attachment_tray"));
  OpenWait wait = { f->window, "Imported by a drop" };
  TrayWait tray_wait = { tray, 1 };
  AguiAgentSession *before;
  GSList *files = NULL;

  g_test_summary ("Dropping an export on the window imports it; dropping another file attaches it");

  before = tandem_window_get_session (f->window);
  tandem_window_new_chat (f->window);
  agui_test_wait_until (tandem_window_get_session (f->window) != before, "New Chat switched to another session");
  files = g_slist_append (files, export);
  files = g_slist_append (files, image);
  tandem_window_receive_files (f->window, files);
  g_slist_free (files);

  g_assert_true (agui_test_wait_for (shows_imported, &wait, TIMEOUT_MS));
  g_assert_true (agui_test_wait_for (tray_has, &tray_wait, TIMEOUT_MS));
  g_assert_nonnull (tandem_test_find_label (tray, "dropped.png"));
}

static gboolean
chooser_starts_in (GFile *expected)
{
  GList *toplevels = gtk_window_list_toplevels ();
  gboolean found = FALSE;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      {
        g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (l->data);

        if (folder != NULL && g_file_equal (folder, expected))
          found = TRUE;
        else if (folder != NULL)
          g_test_message ("a chooser starts in %s", g_file_peek_path (folder));
      }
  g_list_free (toplevels);

  return found;
}

/* GTK 4.8's chooser, shown before its folder was set, went to its
 * startup folder a moment after going to the one asked for: it has to
 * stay there too. */
static void
assert_chooser_stays_in (GFile      *folder,
                         const char *what)
{
  agui_test_wait_until (chooser_starts_in (folder), "%s", what);
  agui_test_wait_to_rule_out (500, "the chooser moving to another folder");
  if (!chooser_starts_in (folder))
    g_error ("%s, then moved to another folder", what);
}

static void
test_export_folder (Fixture       *f,
                    gconstpointer  data)
{
  GSettings *settings = tandem_application_get_settings (app);
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autoptr(GFile) first = g_file_new_for_path (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                                                ? documents : g_get_home_dir ());
  g_autoptr(GFile) chosen_folder = g_file_new_for_path (f->dir);
  g_autoptr(GFile) chosen = g_file_get_child (chosen_folder, "Exported here.md");
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *expected_uri = g_file_get_uri (chosen_folder);
  g_autofree char *name = NULL;
  GtkFileChooser *chooser;

  g_test_summary ("An export starts in Documents, then in the folder the last one went to");

  g_settings_reset (settings, "export-folder");
  send_and_finish (f, "Exported where?", agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Here."), RF ("r1"), NULL));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.export", "s", "markdown"));
  assert_chooser_stays_in (first, "the first export starts in Documents (or home)");

  chooser = find_file_chooser ();
  /* Named after the conversation, the question mark FAT refuses dropped
   * rather than made a dash at the end */
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_cmpstr (name, ==, "Exported where.md");
  g_assert_true (gtk_file_chooser_set_current_folder (chooser, chosen_folder, &error));
  g_assert_no_error (error);
  gtk_file_chooser_set_current_name (chooser, "Exported here.md");
  {
    ChooserWait wait = { chooser, chosen };

    g_assert_true (agui_test_wait_for (chooser_has_file, &wait, TIMEOUT_MS));
  }
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  g_assert_true (wait_for_toast (f->window, "Conversation exported"));
  uri = g_settings_get_string (settings, "export-folder");
  g_assert_cmpstr (uri, ==, expected_uri);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.export", "s", "json"));
  assert_chooser_stays_in (chosen_folder, "the next export starts where the last one went");
  gtk_dialog_response (GTK_DIALOG (find_file_chooser ()), GTK_RESPONSE_CANCEL);
  g_settings_reset (settings, "export-folder");
}

/* An export of @count messages (@count / 2 question and answer turns of
 * about 800 bytes a message), as Tandem writes one, in @path; returns
 * its size */
static gsize
write_long_export (const char *path,
                   guint       count)
{
  g_autoptr(GString) json = g_string_new ("{\"format\":\"tandem-thread\",\"version\":1,"
                                          "\"thread\":{\"title\":\"Long\",\"agent\":null},\"messages\":[");
  g_autoptr(GString) events = g_string_new ("");
  g_autofree char *said = NULL;
  g_autoptr(GError) error = NULL;

  said = g_strnfill (640, 'w');
  for (guint turn = 0; turn < count / 2; turn++)
    {
      g_autofree char *asked = g_strdup_printf ("Question %u: what comes next in this long conversation?", turn);

      g_string_append_printf (json, "%s{\"id\":\"q%u\",\"role\":\"user\",\"content\":\"%s\"},"
                              "{\"id\":\"a%u\",\"role\":\"assistant\",\"content\":\"%s\"}",
                              turn > 0 ? "," : "", turn, asked, turn, said);
      g_string_append_printf (events,
                              "%s{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"q%u\",\"role\":\"user\"},"
                              "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"q%u\",\"delta\":\"%s\"},"
                              "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"q%u\"},"
                              "{\"type\":\"RUN_STARTED\",\"threadId\":\"long\",\"runId\":\"r%u\"},"
                              "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a%u\",\"role\":\"assistant\"},"
                              "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a%u\",\"delta\":\"%s\"},"
                              "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a%u\"},"
                              "{\"type\":\"RUN_FINISHED\",\"threadId\":\"long\",\"runId\":\"r%u\"}",
                              turn > 0 ? "," : "", turn, turn, asked, turn, turn, turn, turn, said, turn, turn);
    }
  g_string_append (json, "],\"state\":null,\"pendingInterrupts\":[],\"events\":[");
  g_string_append_len (json, events->str, events->len);
  g_string_append (json, "]}");
  g_assert_true (g_file_set_contents (path, json->str, json->len, &error));
  g_assert_no_error (error);

  return json->len;
}

static gsize
status_bytes (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, field);
  g_assert_nonnull (line);

  return g_ascii_strtoull (line + strlen (field), NULL, 10) * 1024;
}

/* The peak resident size starts again from what is resident now (Linux
 * since 4.0); returns that */
static gsize
reset_peak (void)
{
  FILE *clear = fopen ("/proc/self/clear_refs", "w");

  if (clear == NULL || fputs ("5", clear) < 0 || fclose (clear) != 0)
    g_test_skip ("The peak resident size cannot be reset here");

  return status_bytes ("VmRSS:");
}

/* Under AddressSanitizer freed memory waits in quarantine and every
 * block carries red zones: the peak says nothing of the app's own. */
#if defined(__SANITIZE_ADDRESS__)
#define MEASURES_MEMORY FALSE
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEASURES_MEMORY FALSE
#endif
#endif
#ifndef MEASURES_MEMORY
#define MEASURES_MEMORY TRUE
#endif

static void
test_large (Fixture       *f,
            gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autofree char *path = g_build_filename (f->dir, "long.json", NULL);
  g_autofree char *out_path = g_build_filename (f->dir, "long-again.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) out = g_file_new_for_path (out_path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *thread_id = NULL;
  g_autofree char *written = NULL;
  gsize size, base, peak, written_size;

  g_test_summary ("A 10,000-message conversation is imported in a few times its file's room, and exported in less than it");

  size = write_long_export (path, 10000);
  base = reset_peak ();
  if (g_test_failed () || g_test_get_path () == NULL)
    return;

  tandem_conversation_import_async (store, file, NULL, NULL, NULL, agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 120000);
  thread_id = tandem_conversation_import_finish (result, &error);
  g_assert_no_error (error);
  peak = status_bytes ("VmHWM:") - base;
  g_test_message ("import: %.1f MB more at the peak for %.1f MB of file (%.2f times)",
                  peak / 1e6, size / 1e6, (double) peak / size);
  /* Read whole and parsed to a tree, it took 12 times */
  if (MEASURES_MEMORY)
    g_assert_cmpuint (peak, <=, 5 * size);
  g_clear_object (&result);

  base = reset_peak ();
  tandem_conversation_export_async (store, thread_id, TANDEM_EXPORT_JSON, out, NULL, NULL, NULL,
                                    agui_test_store_result_cb, &result);
  agui_test_wait_for_result (&result, 120000);
  g_assert_true (tandem_conversation_export_finish (result, &error));
  g_assert_no_error (error);
  peak = status_bytes ("VmHWM:") - base;
  g_test_message ("export: %.1f MB more at the peak for %.1f MB of file (%.2f times)",
                  peak / 1e6, size / 1e6, (double) peak / size);
  /* A row and a buffer at a time: the whole text alone would be more */
  if (MEASURES_MEMORY)
    g_assert_cmpuint (peak, <=, size);

  g_assert_true (g_file_get_contents (out_path, &written, &written_size, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written_size, >=, size);
  g_assert_nonnull (strstr (written, "\"id\" : \"a4999\""));
}

typedef struct
{
  GMutex   mutex;
  GCond    cond;
  gboolean open;
} Gate;

/* Holds the store's worker until the gate opens: what is asked of the
 * store meanwhile waits behind it */
static void
wait_at_gate (AguiSessionStore *store,
              GTask            *task,
              gpointer          data)
{
  Gate *gate = data;

  g_mutex_lock (&gate->mutex);
  while (!gate->open)
    g_cond_wait (&gate->cond, &gate->mutex);
  g_mutex_unlock (&gate->mutex);
  g_task_return_boolean (task, TRUE);
}

static void
open_gate (Gate *gate)
{
  g_mutex_lock (&gate->mutex);
  gate->open = TRUE;
  g_cond_signal (&gate->cond);
  g_mutex_unlock (&gate->mutex);
}

static void
cancel_on_progress (double   fraction,
                    gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

static guint
count_files (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;

  return n;
}

static void
test_export_cancelled (Fixture       *f,
                       gconstpointer  data)
{
  AguiSessionStore *store = tandem_application_get_store (app);
  g_autofree char *kept_path = g_build_filename (f->dir, "kept.json", NULL);
  g_autofree char *new_path = g_build_filename (f->dir, "new.json", NULL);
  const char *paths[] = { kept_path, new_path };
  g_autoptr(GError) error = NULL;
  const char *thread_id;

  g_test_summary ("An export cancelled once the file is open leaves the file there as it was, and no new one");

  send_and_finish (f, "Exported halfway",
                   agui_test_response_new_events (RS ("r1"), TEXT ("m1", "Answered."), RF ("r1"), NULL));
  thread_id = agui_agent_session_get_thread_id (f->session);
  g_assert_true (g_file_set_contents (kept_path, "old", -1, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GAsyncResult) gated = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      Gate gate = { 0, };

      g_mutex_init (&gate.mutex);
      g_cond_init (&gate.cond);
      _agui_session_store_start_job (store, NULL, agui_test_store_result_cb, &gated, wait_at_gate,
                                     wait_at_gate, &gate, NULL);
      /* The progress starts once the file is open and the export is
       * asked of the store, which the gate holds */
      tandem_conversation_export_async (store, thread_id, TANDEM_EXPORT_JSON, file, cancel_on_progress, cancellable,
                                        cancellable, agui_test_store_result_cb, &result);
      agui_test_wait_until (g_cancellable_is_cancelled (cancellable), "the export was under way");
      open_gate (&gate);
      agui_test_wait_for_result (&result, TIMEOUT_MS);
      agui_test_wait_for_result (&gated, TIMEOUT_MS);
      g_mutex_clear (&gate.mutex);
      g_cond_clear (&gate.cond);

      g_assert_false (tandem_conversation_export_finish (result, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      /* The replacement's temporary file, or the new one, goes */
      agui_test_wait_until (count_files (f->dir) == 1, "only the file that was there is left");
    }

  {
    g_autofree char *kept = NULL;

    g_assert_true (g_file_get_contents (kept_path, &kept, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (kept, ==, "old");
    g_assert_false (g_file_test (new_path, G_FILE_TEST_EXISTS));
  }
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tandem_test_init (&argc, &argv);

  store_dir = tandem_test_make_store_dir ("transfer", &store_path);
  app = tandem_test_application_new ("io.github.tandemdesk.Tandem.Test", store_path);

#define ADD(path, fn) g_test_add ("/tandem/transfer/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("attachments", test_attachments);
  ADD ("attachment-too-large", test_attachment_too_large);
  ADD ("paste-image", test_paste_image);
  ADD ("agent-images", test_agent_images);
  ADD ("export", test_export);
  ADD ("import-menu", test_import_menu);
  ADD ("export-folder", test_export_folder);
  ADD ("drop", test_drop);
  ADD ("large", test_large);
  ADD ("export-cancelled", test_export_cancelled);
#undef ADD

  result = g_test_run ();

  g_clear_object (&app);
  tandem_test_remove_store (store_dir, store_path);
  g_free (store_path);
  g_free (store_dir);

  return result;
}
