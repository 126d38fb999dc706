/* tandem-a2ui-image-loader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "tandem-a2ui-image-loader.h"

/* Images an agent names in an A2UI surface: fetched with libsoup on the
 * main loop without blocking it, decoded in a worker thread, http and
 * https only, at most TANDEM_A2UI_IMAGE_MAX_BYTES on the wire and
 * TANDEM_A2UI_IMAGE_MAX_SIZE pixels a side once decoded (a small file
 * may still claim a huge size). */

typedef struct
{
  GByteArray *data;
  char       *base64;  /* inline data still to decode, or NULL */
} Load;

static void
load_free (Load *load)
{
  g_clear_pointer (&load->data, g_byte_array_unref);
  g_free (load->base64);
  g_free (load);
}

static SoupSession *
shared_session (void)
{
  static SoupSession *session;

  if (session == NULL)
    session = soup_session_new_with_options ("timeout", 30, "max-conns-per-host", 4, NULL);

  return session;
}

/* Shrinks what is larger than the cap before it is decoded, so a small
 * file claiming a huge size never allocates it; never enlarges. */
static void
on_size_prepared_cb (GdkPixbufLoader *loader,
                     int              width,
                     int              height,
                     gpointer         user_data)
{
  double scale;

  if (width <= TANDEM_A2UI_IMAGE_MAX_SIZE && height <= TANDEM_A2UI_IMAGE_MAX_SIZE)
    return;

  scale = (double) TANDEM_A2UI_IMAGE_MAX_SIZE / MAX (width, height);
  gdk_pixbuf_loader_set_size (loader, MAX (1, (int) (width * scale)), MAX (1, (int) (height * scale)));
}

static void
decode_in_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Load *load = task_data;
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  GdkPixbuf *pixbuf;
  GError *error = NULL;

  if (load->base64 != NULL)
    {
      gsize length = 0;
      guchar *bytes = g_base64_decode (load->base64, &length);

      g_byte_array_append (load->data, bytes, length);
      g_free (bytes);
    }

  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_size_prepared_cb), NULL);
  if (!gdk_pixbuf_loader_write (loader, load->data->data, load->data->len, &error) ||
      !gdk_pixbuf_loader_close (loader, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if ((pixbuf = gdk_pixbuf_loader_get_pixbuf (loader)) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "The image could not be decoded");
      return;
    }

  g_task_return_pointer (task, g_object_ref (pixbuf), g_object_unref);
}

static void read_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
read_more (GTask        *task,
           GInputStream *stream)
{
  g_input_stream_read_bytes_async (stream, 64 * 1024, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task), read_cb, task);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Load *load = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  if (!(bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      /* Decoding may take long on a big image: never on the main thread. */
      g_task_run_in_thread (task, decode_in_thread);
      return;
    }

  if (load->data->len + g_bytes_get_size (bytes) > TANDEM_A2UI_IMAGE_MAX_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               "The image is larger than %u MiB", TANDEM_A2UI_IMAGE_MAX_BYTES / (1024 * 1024));
      return;
    }

  g_byte_array_append (load->data, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  read_more (g_steal_pointer (&task), G_INPUT_STREAM (object));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GInputStream) stream = NULL;
  SoupMessage *message;
  GError *error = NULL;
  goffset length;

  if (!(stream = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               "The server answered %u %s", soup_message_get_status (message),
                               soup_message_get_reason_phrase (message));
      return;
    }

  length = soup_message_headers_get_content_length (soup_message_get_response_headers (message));
  if (length > TANDEM_A2UI_IMAGE_MAX_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               "The image is larger than %u MiB", TANDEM_A2UI_IMAGE_MAX_BYTES / (1024 * 1024));
      return;
    }

  read_more (g_steal_pointer (&task), stream);
}

void
tandem_a2ui_image_load_async (const char          *url,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(SoupMessage) message = NULL;
  Load *load;
  const char *scheme;

  g_return_if_fail (url != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_a2ui_image_load_async);
  load = g_new0 (Load, 1);
  load->data = g_byte_array_new ();
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  scheme = uri ? g_uri_get_scheme (uri) : NULL;
  if (scheme == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "Only http and https images are loaded");
      return;
    }

  message = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  soup_message_headers_append (soup_message_get_request_headers (message), "Accept", "image/*");
  soup_session_send_async (shared_session (), message, G_PRIORITY_LOW, cancellable,
                           send_cb, g_steal_pointer (&task));
}

/**
 * tandem_a2ui_image_decode_base64_async:
 * @base64: an image's bytes in base64, as a media part's inline data
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the image; finish with tandem_a2ui_image_load_finish()
 * @user_data: data for @callback
 *
 * Decodes an image sent inline, in a worker thread, with the same caps
 * as a fetched one.
 */
void
tandem_a2ui_image_decode_base64_async (const char          *base64,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Load *load;

  g_return_if_fail (base64 != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_a2ui_image_decode_base64_async);

  /* Four characters carry three bytes */
  if (strlen (base64) / 4 * 3 > TANDEM_A2UI_IMAGE_MAX_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               "The image is larger than %u MiB", TANDEM_A2UI_IMAGE_MAX_BYTES / (1024 * 1024));
      return;
    }

  load = g_new0 (Load, 1);
  load->data = g_byte_array_new ();
  load->base64 = g_strdup (base64);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (task, decode_in_thread);
}

GdkTexture *
tandem_a2ui_image_load_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_autoptr(GdkPixbuf) pixbuf = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  if (!(pixbuf = g_task_propagate_pointer (G_TASK (result), error)))
    return NULL;

  return gdk_texture_new_for_pixbuf (pixbuf);
}
