/* tandem-media-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-a2ui-image-loader.h"
#include "tandem-conversation-search-exclude.h"
#include "tandem-media-view.h"

/**
 * TandemMediaView:
 *
 * An image, audio clip, video or document of a message. An image is a
 * thumbnail, decoded in a worker thread from inline data or fetched from
 * an http(s) URL; a click opens it larger in a window of its own. One
 * that cannot be decoded, is too large or sits at a URL Tandem does not
 * fetch shows a placeholder saying so, never a crash. Anything else is a
 * chip with its name, type and size.
 */

#define THUMBNAIL_WIDTH  240
#define THUMBNAIL_HEIGHT 180

struct _TandemMediaView
{
  GtkWidget      parent_instance;

  AguiMediaPart *part;
  GtkWidget     *child;
  GtkWidget     *picture;
  GdkTexture    *texture;
  char          *problem;
  GCancellable  *cancellable;
};

G_DEFINE_FINAL_TYPE (TandemMediaView, tandem_media_view, GTK_TYPE_WIDGET)

/**
 * tandem_media_describe_size:
 * @bytes: a size
 *
 * Returns: the size as people read it ("12.3 kB")
 */
char *
tandem_media_describe_size (gsize bytes)
{
  return g_format_size (bytes);
}

/**
 * tandem_media_decoded_size:
 * @base64: base64 data
 *
 * Returns: how many bytes @base64 holds once decoded: its padding and
 *   line breaks are not data (a 28-byte file is 40 characters, "=="
 *   included)
 */
gsize
tandem_media_decoded_size (const char *base64)
{
  gsize characters = 0;

  g_return_val_if_fail (base64 != NULL, 0);

  for (const char *p = base64; *p != '\0'; p++)
    if (*p != '=' && !g_ascii_isspace (*p))
      characters++;

  /* Four characters are three bytes; two or three left over are one or
   * two more, padded or not */
  return characters / 4 * 3 + (characters % 4 >= 2 ? characters % 4 - 1 : 0);
}

static gboolean
is_image (AguiMediaPart *part)
{
  return g_strcmp0 (agui_media_part_get_kind (part), "image") == 0;
}

static const char *
icon_for_kind (const char *kind)
{
  if (g_strcmp0 (kind, "image") == 0)
    return "image-x-generic-symbolic";
  if (g_strcmp0 (kind, "audio") == 0)
    return "audio-x-generic-symbolic";
  if (g_strcmp0 (kind, "video") == 0)
    return "video-x-generic-symbolic";

  return "text-x-generic-symbolic";
}

static void
set_child (TandemMediaView *self,
           GtkWidget       *child)
{
  g_clear_pointer (&self->child, gtk_widget_unparent);
  self->child = child;
  gtk_widget_set_parent (child, GTK_WIDGET (self));
}

static GtkWidget *
create_chip (AguiMediaPart *part,
             const char    *problem)
{
  const char *kind = agui_media_part_get_kind (part);
  const char *mime = agui_media_part_get_mime_type (part);
  const char *filename = agui_media_part_get_filename (part);
  const char *value = agui_media_part_get_value (part);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *details = gtk_label_new (NULL);
  g_autofree char *details_text = NULL;
  g_autofree char *size = NULL;

  if (g_strcmp0 (agui_media_part_get_source_type (part), "data") == 0 && value != NULL)
    size = tandem_media_describe_size (tandem_media_decoded_size (value));

  if (filename != NULL && filename[0] != '\0')
    gtk_label_set_text (GTK_LABEL (name), filename);
  else if (g_strcmp0 (kind, "image") == 0)
    gtk_label_set_text (GTK_LABEL (name), _("Image"));
  else if (g_strcmp0 (kind, "audio") == 0)
    gtk_label_set_text (GTK_LABEL (name), _("Audio"));
  else if (g_strcmp0 (kind, "video") == 0)
    gtk_label_set_text (GTK_LABEL (name), _("Video"));
  else
    gtk_label_set_text (GTK_LABEL (name), _("Document"));

  if (problem != NULL)
    details_text = g_strdup (problem);
  else if (size != NULL)
    /* Translators: a file's MIME type and size */
    details_text = g_strdup_printf (_("%s, %s"), mime != NULL ? mime : _("unknown type"), size);
  else
    details_text = g_strdup (mime != NULL ? mime : _("unknown type"));
  gtk_label_set_text (GTK_LABEL (details), details_text);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 32);
  gtk_label_set_xalign (GTK_LABEL (details), 0);
  gtk_label_set_wrap (GTK_LABEL (details), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (details), 40);
  gtk_widget_add_css_class (name, "heading");
  gtk_widget_add_css_class (details, "caption");
  gtk_widget_add_css_class (details, "dim-label");
  /* Only a file's name is the message's; the rest is the chip's */
  tandem_conversation_search_exclude (details);
  if (filename == NULL || filename[0] == '\0')
    tandem_conversation_search_exclude (name);
  gtk_box_append (GTK_BOX (labels), name);
  gtk_box_append (GTK_BOX (labels), details);

  gtk_box_append (GTK_BOX (box),
                  tandem_accessible_icon_new (problem != NULL ? "image-missing-symbolic" : icon_for_kind (kind)));
  gtk_box_append (GTK_BOX (box), labels);
  gtk_widget_set_halign (box, GTK_ALIGN_START);
  gtk_widget_add_css_class (box, "media-chip");
  if (problem != NULL)
    gtk_widget_add_css_class (box, "media-broken");

  return box;
}

static void
on_picture_clicked_cb (TandemMediaView *self)
{
  tandem_media_view_open (self);
}

static void
on_image_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TandemMediaView) self = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *button;

  texture = tandem_a2ui_image_load_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->part == NULL)
    return;

  if (texture == NULL)
    {
      g_free (self->problem);
      self->problem = g_strdup_printf (_("The image cannot be shown: %s"), error->message);
      self->picture = NULL;
      set_child (self, create_chip (self->part, self->problem));
      return;
    }

  g_set_object (&self->texture, texture);
  self->picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (self->picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (self->picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_size_request (self->picture,
                               MIN (THUMBNAIL_WIDTH, gdk_texture_get_width (texture)),
                               MIN (THUMBNAIL_HEIGHT, gdk_texture_get_height (texture)));
  gtk_picture_set_alternative_text (GTK_PICTURE (self->picture),
                                    agui_media_part_get_filename (self->part) ?: _("Image"));

  button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (button), self->picture);
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "media-thumbnail");
  gtk_widget_set_tooltip_text (button, _("Open Larger"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Open Larger"),
                                  -1);
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_picture_clicked_cb), self, G_CONNECT_SWAPPED);
  set_child (self, button);
}

static void
tandem_media_view_load (TandemMediaView *self)
{
  const char *source = agui_media_part_get_source_type (self->part);
  const char *value = agui_media_part_get_value (self->part);
  GtkWidget *spinner;

  if (value == NULL || (g_strcmp0 (source, "data") != 0 && g_strcmp0 (source, "url") != 0))
    {
      /* A provider's file handle is opaque: nothing to show but its kind */
      self->problem = g_strdup (_("The image is kept by the agent's provider and cannot be shown"));
      set_child (self, create_chip (self->part, self->problem));
      return;
    }

  spinner = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_size_request (spinner, 32, 32);
  gtk_widget_set_halign (spinner, GTK_ALIGN_START);
  set_child (self, spinner);

  self->cancellable = g_cancellable_new ();
  if (g_strcmp0 (source, "data") == 0)
    tandem_a2ui_image_decode_base64_async (value, self->cancellable, on_image_loaded_cb, g_object_ref (self));
  else
    tandem_a2ui_image_load_async (value, self->cancellable, on_image_loaded_cb, g_object_ref (self));
}

static void
tandem_media_view_dispose (GObject *object)
{
  TandemMediaView *self = TANDEM_MEDIA_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->child, gtk_widget_unparent);
  self->picture = NULL;
  g_clear_object (&self->texture);
  g_clear_object (&self->part);

  G_OBJECT_CLASS (tandem_media_view_parent_class)->dispose (object);
}

static void
tandem_media_view_finalize (GObject *object)
{
  TandemMediaView *self = TANDEM_MEDIA_VIEW (object);

  g_free (self->problem);

  G_OBJECT_CLASS (tandem_media_view_parent_class)->finalize (object);
}

static void
tandem_media_view_class_init (TandemMediaViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_media_view_dispose;
  object_class->finalize = tandem_media_view_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "mediaview");
}

static void
tandem_media_view_init (TandemMediaView *self)
{
}

/**
 * tandem_media_view_new:
 * @part: the media part to show
 *
 * Returns: (transfer floating): a new view of @part
 */
GtkWidget *
tandem_media_view_new (AguiMediaPart *part)
{
  TandemMediaView *self;

  g_return_val_if_fail (AGUI_IS_MEDIA_PART (part), NULL);

  self = g_object_new (TANDEM_TYPE_MEDIA_VIEW, NULL);
  self->part = g_object_ref (part);
  gtk_widget_set_halign (GTK_WIDGET (self), GTK_ALIGN_START);

  if (is_image (part))
    tandem_media_view_load (self);
  else
    set_child (self, create_chip (part, NULL));

  return GTK_WIDGET (self);
}

AguiMediaPart *
tandem_media_view_get_part (TandemMediaView *self)
{
  g_return_val_if_fail (TANDEM_IS_MEDIA_VIEW (self), NULL);

  return self->part;
}

/**
 * tandem_media_view_get_image:
 * @self: a media view
 *
 * Returns: (transfer none) (nullable): the image shown, once decoded
 */
GdkPaintable *
tandem_media_view_get_image (TandemMediaView *self)
{
  g_return_val_if_fail (TANDEM_IS_MEDIA_VIEW (self), NULL);

  return self->texture != NULL ? GDK_PAINTABLE (self->texture) : NULL;
}

/**
 * tandem_media_view_get_problem:
 * @self: a media view
 *
 * Returns: (nullable): why the image is not shown, if it is not
 */
const char *
tandem_media_view_get_problem (TandemMediaView *self)
{
  g_return_val_if_fail (TANDEM_IS_MEDIA_VIEW (self), NULL);

  return self->problem;
}

/**
 * tandem_media_view_open:
 * @self: a media view showing an image
 *
 * Opens the image larger, in a window of its own, as a click does.
 *
 * Returns: (transfer none) (nullable): the window, or %NULL when there is
 *   no image to show
 */
GtkWindow *
tandem_media_view_open (TandemMediaView *self)
{
  GtkRoot *root;
  GtkWidget *window;
  GtkWidget *picture;
  GtkWidget *box;
  int width, height;

  g_return_val_if_fail (TANDEM_IS_MEDIA_VIEW (self), NULL);

  if (self->texture == NULL)
    return NULL;

  root = gtk_widget_get_root (GTK_WIDGET (self));
  width = gdk_texture_get_width (self->texture);
  height = gdk_texture_get_height (self->texture);

  window = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (window),
                        agui_media_part_get_filename (self->part) ?: _("Image"));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  gtk_window_set_default_size (GTK_WINDOW (window), CLAMP (width, 200, 1024), CLAMP (height, 150, 768) + 46);

  picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (self->texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_widget_set_vexpand (picture, TRUE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), picture);
  adw_window_set_content (ADW_WINDOW (window), box);
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                            gtk_named_action_new ("window.close")));
    gtk_widget_add_controller (window, shortcuts);
  }
  gtk_window_present (GTK_WINDOW (window));

  return GTK_WINDOW (window);
}
