/* tandem-attachment-tray.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-attachment-tray.h"
#include "tandem-media-view.h"

/**
 * TandemAttachmentTray:
 *
 * The files attached to the message being written, above the composer:
 * one chip each, with its name, size and a button to take it off. They
 * go out with the message as AG-UI content parts, the bytes inline
 * (`{"type":"image","source":{"type":"data","value":BASE64,"mimeType":…},
 * "metadata":{"filename":…}}`; `audio`, `video` or `document` by the MIME
 * type), so an agent needs no access to this computer and the store keeps
 * them with the conversation. A file over %TANDEM_ATTACHMENT_MAX_BYTES,
 * or one that would take the message over
 * %TANDEM_ATTACHMENT_MAX_TOTAL_BYTES, is refused with its size and the
 * limit; what is already attached stays.
 */

typedef struct
{
  char      *name;
  char      *mime_type;
  GBytes    *bytes;
  GtkWidget *chip;
} Attachment;

struct _TandemAttachmentTray
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GPtrArray *attachments;
  GQueue     waiting;   /* files to read, in the order chosen */
  GTask     *reading;   /* the one being read, borrowed */
};

G_DEFINE_FINAL_TYPE (TandemAttachmentTray, tandem_attachment_tray, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_N_ATTACHMENTS, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
attachment_free (Attachment *attachment)
{
  g_free (attachment->name);
  g_free (attachment->mime_type);
  g_clear_pointer (&attachment->bytes, g_bytes_unref);
  g_free (attachment);
}

static const char *
kind_for_mime_type (const char *mime_type)
{
  if (g_str_has_prefix (mime_type, "image/"))
    return "image";
  if (g_str_has_prefix (mime_type, "audio/"))
    return "audio";
  if (g_str_has_prefix (mime_type, "video/"))
    return "video";

  return "document";
}

static gsize
total_bytes (TandemAttachmentTray *self)
{
  gsize total = 0;

  for (guint i = 0; i < self->attachments->len; i++)
    total += g_bytes_get_size (((Attachment *) self->attachments->pdata[i])->bytes);

  return total;
}

/* Whether @size more fits, and if not, why not, in words */
static gboolean
check_size (TandemAttachmentTray  *self,
            const char            *name,
            goffset                size,
            GError               **error)
{
  g_autofree char *size_text = g_format_size (size);

  if (size > TANDEM_ATTACHMENT_MAX_BYTES)
    {
      g_autofree char *limit = g_format_size (TANDEM_ATTACHMENT_MAX_BYTES);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("“%s” is too large to attach: it is %s, and a file may be at most %s"),
                   name, size_text, limit);
      return FALSE;
    }

  if (total_bytes (self) + size > TANDEM_ATTACHMENT_MAX_TOTAL_BYTES)
    {
      g_autofree char *limit = g_format_size (TANDEM_ATTACHMENT_MAX_TOTAL_BYTES);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("“%s” (%s) does not fit: the files of one message may be at most %s together"),
                   name, size_text, limit);
      return FALSE;
    }

  return TRUE;
}

static void
on_remove_clicked_cb (GtkButton            *button,
                      TandemAttachmentTray *self)
{
  GtkWidget *chip = gtk_widget_get_parent (GTK_WIDGET (button));

  for (guint i = 0; i < self->attachments->len; i++)
    {
      Attachment *attachment = self->attachments->pdata[i];

      if (attachment->chip == chip)
        {
          gtk_flow_box_remove (GTK_FLOW_BOX (self->box), chip);
          g_ptr_array_remove_index (self->attachments, i);
          break;
        }
    }

  gtk_widget_set_visible (GTK_WIDGET (self), self->attachments->len > 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTACHMENTS]);
}

static GtkWidget *
create_chip (TandemAttachmentTray *self,
             Attachment           *attachment)
{
  const char *kind = kind_for_mime_type (attachment->mime_type);
  GtkWidget *chip = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (attachment->name);
  g_autofree char *size = g_format_size (g_bytes_get_size (attachment->bytes));
  GtkWidget *size_label = gtk_label_new (size);
  GtkWidget *remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  g_autofree char *remove_label = g_strdup_printf (_("Remove “%s”"), attachment->name);

  gtk_box_append (GTK_BOX (chip),
                  tandem_accessible_icon_new (g_str_equal (kind, "image") ? "image-x-generic-symbolic"
                                              : g_str_equal (kind, "audio") ? "audio-x-generic-symbolic"
                                              : g_str_equal (kind, "video") ? "video-x-generic-symbolic"
                                              : "text-x-generic-symbolic"));
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 24);
  gtk_box_append (GTK_BOX (chip), name);
  gtk_widget_add_css_class (size_label, "dim-label");
  gtk_widget_add_css_class (size_label, "caption");
  gtk_box_append (GTK_BOX (chip), size_label);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_add_css_class (remove, "circular");
  gtk_widget_set_tooltip_text (remove, remove_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label,
                                  -1);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked_cb), self, 0);
  gtk_box_append (GTK_BOX (chip), remove);
  gtk_widget_add_css_class (chip, "attachment-chip");

  return chip;
}

static void
add_attachment (TandemAttachmentTray *self,
                const char           *name,
                const char           *mime_type,
                GBytes               *bytes)
{
  Attachment *attachment = g_new0 (Attachment, 1);

  attachment->name = g_strdup (name);
  attachment->mime_type = g_strdup (mime_type != NULL ? mime_type : "application/octet-stream");
  attachment->bytes = g_bytes_ref (bytes);
  attachment->chip = create_chip (self, attachment);
  gtk_flow_box_append (GTK_FLOW_BOX (self->box), attachment->chip);
  g_ptr_array_add (self->attachments, attachment);

  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTACHMENTS]);
}

/* Adding a file */

typedef struct
{
  GFile *file;
  char  *name;
  char  *mime_type;
} FileLoad;

static void
file_load_free (FileLoad *load)
{
  g_clear_object (&load->file);
  g_free (load->name);
  g_free (load->mime_type);
  g_free (load);
}

static void on_file_queried_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data);

/* One file at a time, so that several chosen at once are attached in
 * their order, not in the order their reads end */
static void
read_next (TandemAttachmentTray *self)
{
  FileLoad *load;

  if (self->reading != NULL || (self->reading = g_queue_pop_head (&self->waiting)) == NULL)
    return;

  load = g_task_get_task_data (self->reading);
  g_file_query_info_async (load->file,
                           G_FILE_ATTRIBUTE_STANDARD_DISPLAY_NAME ","
                           G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE ","
                           G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                           G_FILE_ATTRIBUTE_STANDARD_TYPE,
                           G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, g_task_get_cancellable (self->reading),
                           on_file_queried_cb, self->reading);
}

/* The file being read is done with, one way or the other */
static void
read_done (TandemAttachmentTray *self)
{
  self->reading = NULL;
  read_next (self);
}

static void
on_file_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TandemAttachmentTray *self = g_task_get_source_object (task);
  FileLoad *load = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  read_done (self);

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 _("“%s” could not be attached: %s"), load->name, error->message);
      return;
    }

  if (self->box == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The tray is gone");
      return;
    }

  /* Checked again: the file may have grown */
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  if (!tandem_attachment_tray_add_bytes (self, load->name, load->mime_type, bytes, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_file_queried_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TandemAttachmentTray *self = g_task_get_source_object (task);
  FileLoad *load = g_task_get_task_data (task);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!(info = g_file_query_info_finish (G_FILE (object), result, &error)))
    {
      g_autofree char *name = g_file_get_parse_name (G_FILE (object));

      read_done (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 _("“%s” could not be attached: %s"), name, error->message);
      return;
    }

  load->name = g_strdup (g_file_info_get_display_name (info));
  if (g_file_info_get_content_type (info) != NULL)
    load->mime_type = g_content_type_get_mime_type (g_file_info_get_content_type (info));

  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      read_done (self);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                               _("“%s” could not be attached: only files can be, not folders"), load->name);
      return;
    }

  /* Refused before it is read: a film is not loaded only to be turned
   * away. Checked against what is attached by now, earlier files included. */
  if (!check_size (self, load->name, g_file_info_get_size (info), &error))
    {
      read_done (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  cancellable = g_task_get_cancellable (task);
  g_file_load_contents_async (G_FILE (object), cancellable,
                              on_file_loaded_cb, g_steal_pointer (&task));
}

/* GObject */

static void
tandem_attachment_tray_dispose (GObject *object)
{
  TandemAttachmentTray *self = TANDEM_ATTACHMENT_TRAY (object);
  GTask *task;

  /* Those not started are answered now; the one being read ends with
   * its own cancellable, or finds the tray empty */
  while ((task = g_queue_pop_head (&self->waiting)) != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The tray is gone");
      g_object_unref (task);
    }

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_attachment_tray_parent_class)->dispose (object);
}

static void
tandem_attachment_tray_finalize (GObject *object)
{
  TandemAttachmentTray *self = TANDEM_ATTACHMENT_TRAY (object);

  g_clear_pointer (&self->attachments, g_ptr_array_unref);

  G_OBJECT_CLASS (tandem_attachment_tray_parent_class)->finalize (object);
}

static void
tandem_attachment_tray_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TandemAttachmentTray *self = TANDEM_ATTACHMENT_TRAY (object);

  switch (prop_id)
    {
    case PROP_N_ATTACHMENTS:
      g_value_set_uint (value, self->attachments->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_attachment_tray_class_init (TandemAttachmentTrayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_attachment_tray_dispose;
  object_class->finalize = tandem_attachment_tray_finalize;
  object_class->get_property = tandem_attachment_tray_get_property;

  properties[PROP_N_ATTACHMENTS] =
    g_param_spec_uint ("n-attachments", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attachmenttray");
}

static void
tandem_attachment_tray_init (TandemAttachmentTray *self)
{
  self->attachments = g_ptr_array_new_with_free_func ((GDestroyNotify) attachment_free);
  self->box = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->box), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->box), 8);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->box), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->box), 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Attachments"),
                                  -1);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* API */

GtkWidget *
tandem_attachment_tray_new (void)
{
  return g_object_new (TANDEM_TYPE_ATTACHMENT_TRAY, NULL);
}

/**
 * tandem_attachment_tray_add_file_async:
 * @self: the tray
 * @file: a file to attach
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once it is attached or refused
 * @user_data: data for @callback
 *
 * Reads @file, without blocking, and attaches it.
 */
void
tandem_attachment_tray_add_file_async (TandemAttachmentTray *self,
                                       GFile                *file,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  FileLoad *load;

  g_return_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_attachment_tray_add_file_async);
  load = g_new0 (FileLoad, 1);
  load->file = g_object_ref (file);
  g_task_set_task_data (task, load, (GDestroyNotify) file_load_free);

  g_queue_push_tail (&self->waiting, g_steal_pointer (&task));
  read_next (self);
}

/**
 * tandem_attachment_tray_add_file_finish:
 * @self: the tray
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: whether the file was attached; if not, @error says why in
 *   words for the person (too large, unreadable, a folder)
 */
gboolean
tandem_attachment_tray_add_file_finish (TandemAttachmentTray  *self,
                                        GAsyncResult          *result,
                                        GError               **error)
{
  g_return_val_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tandem_attachment_tray_add_bytes:
 * @self: the tray
 * @name: what to call it
 * @mime_type: (nullable): its MIME type
 * @bytes: its contents
 * @error: return location for a #GError
 *
 * Attaches @bytes, as pasting an image does.
 *
 * Returns: whether they were attached; not when they are too large
 */
gboolean
tandem_attachment_tray_add_bytes (TandemAttachmentTray  *self,
                                  const char            *name,
                                  const char            *mime_type,
                                  GBytes                *bytes,
                                  GError               **error)
{
  g_return_val_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  if (!check_size (self, name, g_bytes_get_size (bytes), error))
    return FALSE;

  add_attachment (self, name, mime_type, bytes);

  return TRUE;
}

guint
tandem_attachment_tray_get_n_attachments (TandemAttachmentTray *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self), 0);

  return self->attachments->len;
}

/**
 * tandem_attachment_tray_dup_content_parts:
 * @self: the tray
 *
 * Returns: (transfer full): one AG-UI content part per attachment
 */
JsonArray *
tandem_attachment_tray_dup_content_parts (TandemAttachmentTray *self)
{
  JsonArray *parts;

  g_return_val_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self), NULL);

  parts = json_array_new ();
  for (guint i = 0; i < self->attachments->len; i++)
    {
      Attachment *attachment = self->attachments->pdata[i];
      JsonObject *part = json_object_new ();
      JsonObject *source = json_object_new ();
      JsonObject *metadata = json_object_new ();
      gsize size;
      gconstpointer data = g_bytes_get_data (attachment->bytes, &size);
      g_autofree char *base64 = g_base64_encode (data, size);

      json_object_set_string_member (source, "type", "data");
      json_object_set_string_member (source, "value", base64);
      json_object_set_string_member (source, "mimeType", attachment->mime_type);
      json_object_set_string_member (metadata, "filename", attachment->name);
      json_object_set_string_member (part, "type", kind_for_mime_type (attachment->mime_type));
      json_object_set_object_member (part, "source", source);
      json_object_set_object_member (part, "metadata", metadata);
      json_array_add_object_element (parts, part);
    }

  return parts;
}

/**
 * tandem_attachment_tray_clear:
 * @self: the tray
 *
 * Takes every attachment off, as sending the message does.
 */
void
tandem_attachment_tray_clear (TandemAttachmentTray *self)
{
  g_return_if_fail (TANDEM_IS_ATTACHMENT_TRAY (self));

  if (self->attachments->len == 0)
    return;

  for (guint i = 0; i < self->attachments->len; i++)
    gtk_flow_box_remove (GTK_FLOW_BOX (self->box), ((Attachment *) self->attachments->pdata[i])->chip);
  g_ptr_array_set_size (self->attachments, 0);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTACHMENTS]);
}
