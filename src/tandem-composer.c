/* tandem-composer.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-attachment-tray.h"
#include "tandem-composer.h"

/* Where the person writes: the text, the files attached (chosen,
 * dropped or pasted), Send or Stop. It is told whether an answer is
 * being written (busy) and whether a question waits; sending is the
 * window's win.send, which it activates on Enter. What goes wrong while
 * attaching is said through ::error, for the window to show. */

struct _TandemComposer
{
  AdwBin                parent_instance;

  GCancellable         *cancellable;
  guint                 busy : 1;
  guint                 waiting : 1;
  guint                 preedit_active : 1;

  /* Template children */
  GtkTextView          *composer_view;
  GtkLabel             *composer_placeholder;
  TandemAttachmentTray *attachment_tray;
  GtkWidget            *send_button;
  GtkWidget            *stop_button;
};

G_DEFINE_FINAL_TYPE (TandemComposer, tandem_composer, ADW_TYPE_BIN)

enum { PROP_0, PROP_BUSY, PROP_WAITING, PROP_N_ATTACHMENTS, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { ERROR, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;

  return TRUE;
}

static void
tandem_composer_show_error (TandemComposer *self,
                            const char     *message)
{
  g_signal_emit (self, signals[ERROR], 0, message);
}

static void
on_composer_preedit_changed_cb (TandemComposer *self,
                                const char     *preedit)
{
  self->preedit_active = preedit != NULL && preedit[0] != '\0';
}

static gboolean
on_composer_key_pressed_cb (TandemComposer        *self,
                            guint                  keyval,
                            guint                  keycode,
                            GdkModifierType        state,
                            GtkEventControllerKey *controller)
{
  return tandem_composer_handle_key (self, keyval, state);
}

static void
on_buffer_changed_cb (TandemComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);

  gtk_widget_set_visible (GTK_WIDGET (self->composer_placeholder), gtk_text_buffer_get_char_count (buffer) == 0);
}

static void
on_attached_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TandemComposer) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tandem_attachment_tray_add_file_finish (TANDEM_ATTACHMENT_TRAY (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    tandem_composer_show_error (self, error->message);
}

static void
on_clipboard_texture_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(TandemComposer) self = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GError) error = NULL;

  if (!(texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tandem_composer_show_error (self, error->message);
      return;
    }

  png = gdk_texture_save_to_png_bytes (texture);
  if (!tandem_attachment_tray_add_bytes (self->attachment_tray, _("Pasted image.png"), "image/png", png, &error))
    tandem_composer_show_error (self, error->message);
}

/* Pasting an image (and not text) into the composer attaches it */
static void
on_composer_paste_cb (TandemComposer *self,
                      GtkTextView    *view)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (view));
  GdkContentFormats *formats = gdk_clipboard_get_formats (clipboard);

  if (!gdk_content_formats_contain_gtype (formats, GDK_TYPE_TEXTURE) ||
      gdk_content_formats_contain_gtype (formats, G_TYPE_STRING))
    return;

  g_signal_stop_emission_by_name (view, "paste-clipboard");
  gdk_clipboard_read_texture_async (clipboard, self->cancellable, on_clipboard_texture_cb, g_object_ref (self));
}

static void
on_n_attachments_changed_cb (TandemComposer *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTACHMENTS]);
}

static void
tandem_composer_dispose (GObject *object)
{
  TandemComposer *self = TANDEM_COMPOSER (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TANDEM_TYPE_COMPOSER);

  G_OBJECT_CLASS (tandem_composer_parent_class)->dispose (object);
}

static void
tandem_composer_finalize (GObject *object)
{
  TandemComposer *self = TANDEM_COMPOSER (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (tandem_composer_parent_class)->finalize (object);
}

static void
tandem_composer_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TandemComposer *self = TANDEM_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_WAITING:
      g_value_set_boolean (value, self->waiting);
      break;
    case PROP_N_ATTACHMENTS:
      g_value_set_uint (value, tandem_composer_get_n_attachments (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_composer_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TandemComposer *self = TANDEM_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      tandem_composer_set_busy (self, g_value_get_boolean (value));
      break;
    case PROP_WAITING:
      tandem_composer_set_waiting (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_composer_class_init (TandemComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_composer_dispose;
  object_class->finalize = tandem_composer_finalize;
  object_class->get_property = tandem_composer_get_property;
  object_class->set_property = tandem_composer_set_property;

  /* An answer is being written: Stop instead of Send */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* A question of the agent waits for its answer: Enter sends nothing */
  properties[PROP_WAITING] =
    g_param_spec_boolean ("waiting", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_N_ATTACHMENTS] =
    g_param_spec_uint ("n-attachments", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A file or an image could not be attached: why, for the person */
  signals[ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (TANDEM_TYPE_ATTACHMENT_TRAY);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tandemdesk/Tandem/tandem-composer.ui");
  gtk_widget_class_bind_template_child (widget_class, TandemComposer, composer_view);
  gtk_widget_class_bind_template_child (widget_class, TandemComposer, composer_placeholder);
  gtk_widget_class_bind_template_child (widget_class, TandemComposer, attachment_tray);
  gtk_widget_class_bind_template_child (widget_class, TandemComposer, send_button);
  gtk_widget_class_bind_template_child (widget_class, TandemComposer, stop_button);
  gtk_widget_class_bind_template_callback (widget_class, on_composer_preedit_changed_cb);
}

static void
tandem_composer_init (TandemComposer *self)
{
  GtkEventController *controller;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_composer_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->composer_view), controller);

  g_signal_connect_object (gtk_text_view_get_buffer (self->composer_view), "changed",
                           G_CALLBACK (on_buffer_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer_view, "paste-clipboard",
                           G_CALLBACK (on_composer_paste_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->attachment_tray, "notify::n-attachments",
                           G_CALLBACK (on_n_attachments_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
tandem_composer_new (void)
{
  return g_object_new (TANDEM_TYPE_COMPOSER, NULL);
}

gboolean
tandem_composer_get_busy (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), FALSE);

  return self->busy;
}

void
tandem_composer_set_busy (TandemComposer *self,
                          gboolean        busy)
{
  g_return_if_fail (TANDEM_IS_COMPOSER (self));

  busy = !!busy;
  gtk_widget_set_visible (self->send_button, !busy);
  gtk_widget_set_visible (self->stop_button, busy);
  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

gboolean
tandem_composer_get_waiting (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), FALSE);

  return self->waiting;
}

void
tandem_composer_set_waiting (TandemComposer *self,
                             gboolean        waiting)
{
  g_return_if_fail (TANDEM_IS_COMPOSER (self));

  waiting = !!waiting;
  if (self->waiting == waiting)
    return;

  self->waiting = waiting;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WAITING]);
}

guint
tandem_composer_get_n_attachments (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), 0);

  return tandem_attachment_tray_get_n_attachments (self->attachment_tray);
}

/**
 * tandem_composer_get_view:
 * @self: a composer
 *
 * Returns: (transfer none): the text view the person types in
 */
GtkTextView *
tandem_composer_get_view (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), NULL);

  return self->composer_view;
}

/**
 * tandem_composer_get_buffer:
 * @self: a composer
 *
 * Returns: (transfer none): what the person typed
 */
GtkTextBuffer *
tandem_composer_get_buffer (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), NULL);

  return gtk_text_view_get_buffer (self->composer_view);
}

char *
tandem_composer_dup_text (TandemComposer *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), NULL);

  buffer = gtk_text_view_get_buffer (self->composer_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * tandem_composer_has_content:
 * @self: a composer
 *
 * Returns: whether there is something to send: text, or a file
 */
gboolean
tandem_composer_has_content (TandemComposer *self)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), FALSE);

  text = tandem_composer_dup_text (self);

  return !is_blank (text) || tandem_attachment_tray_get_n_attachments (self->attachment_tray) > 0;
}

/**
 * tandem_composer_dup_content_parts:
 * @self: a composer
 *
 * Returns: (transfer full): the files attached, as AG-UI content parts
 */
JsonArray *
tandem_composer_dup_content_parts (TandemComposer *self)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), NULL);

  return tandem_attachment_tray_dup_content_parts (self->attachment_tray);
}

void
tandem_composer_clear_attachments (TandemComposer *self)
{
  g_return_if_fail (TANDEM_IS_COMPOSER (self));

  tandem_attachment_tray_clear (self->attachment_tray);
}

/**
 * tandem_composer_attach_file:
 * @self: a composer
 * @file: a file
 *
 * Attaches @file to the message being written; one too large is
 * refused, and ::error says so.
 */
void
tandem_composer_attach_file (TandemComposer *self,
                             GFile          *file)
{
  g_return_if_fail (TANDEM_IS_COMPOSER (self));
  g_return_if_fail (G_IS_FILE (file));

  tandem_attachment_tray_add_file_async (self->attachment_tray, file, self->cancellable,
                                         on_attached_cb, g_object_ref (self));
}

/**
 * tandem_composer_set_hint:
 * @self: a composer
 * @hint: (nullable): what the empty composer says
 * @blocked: whether it says why nothing can be typed
 *
 * A composer that cannot take a message says why, instead of letting
 * typing silently do nothing.
 */
void
tandem_composer_set_hint (TandemComposer *self,
                          const char     *hint,
                          gboolean        blocked)
{
  g_return_if_fail (TANDEM_IS_COMPOSER (self));

  gtk_label_set_text (self->composer_placeholder, hint != NULL ? hint : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->composer_view),
                                  GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, hint != NULL ? hint : "",
                                  -1);
  if (blocked)
    gtk_widget_add_css_class (GTK_WIDGET (self->composer_placeholder), "composer-blocked");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->composer_placeholder), "composer-blocked");
}

/**
 * tandem_composer_handle_key:
 * @self: a composer
 * @keyval: the key pressed
 * @state: the modifiers held
 *
 * What the composer does with a key, before the text view sees it: Enter
 * sends (win.send), Shift+Enter is left to the text view (a new line),
 * and so is Enter while an input method is composing. GTK 4.8 has no
 * getter for the text view's input method context, so composing is
 * tracked through the text view's #GtkTextView::preedit-changed signal:
 * a non-empty preedit means the input method owns the key.
 *
 * Returns: %TRUE if the key was handled
 */
gboolean
tandem_composer_handle_key (TandemComposer  *self,
                            guint            keyval,
                            GdkModifierType  state)
{
  g_return_val_if_fail (TANDEM_IS_COMPOSER (self), FALSE);

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return FALSE;

  if (self->preedit_active)
    return FALSE;

  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK | GDK_META_MASK)) != 0)
    return FALSE;

  if (tandem_composer_has_content (self) && !self->busy && !self->waiting)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.send", NULL);

  return TRUE;
}
