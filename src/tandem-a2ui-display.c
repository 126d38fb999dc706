/* tandem-a2ui-display.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-a2ui-image-loader.h"
#include "tandem-a2ui-binding-private.h"

/* The components that show something and take no input: Text, Image,
 * Icon, Divider, and the placeholder for a kind Tandem does not draw.
 * The agent's strings are only ever shown as plain text. */

static void
refresh_label (TandemA2uiBinding *binding)
{
  g_autofree char *text = _tandem_a2ui_binding_dup_text (binding, "text");

  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (binding->widget)), text) != 0)
    gtk_label_set_text (GTK_LABEL (binding->widget), text);
}

static GtkWidget *
build_text (TandemA2uiBuilder *self,
            AguiA2uiComponent *component,
            const char        *scope,
            guint              depth)
{
  static const struct { const char *variant; const char *css; } styles[] = {
    { "h1", "title-1" }, { "h2", "title-2" }, { "h3", "title-3" }, { "h4", "title-4" },
    { "h5", "heading" }, { "caption", "caption" }, { "body", "body" },
  };
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  GtkWidget *label = gtk_label_new (NULL);

  /* Plain text only: no Pango markup from the agent, ever. */
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* As a message's text: selected with the pointer, and no Tab stop,
   * where the focus would show nothing (the message row lets text clicked
   * take the focus, for Ctrl+C). A label that cannot be focused still
   * answers Tab in GTK 4.8, so it cannot take part at all. */
  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_set_can_focus (label, FALSE);
  for (guint i = 0; variant != NULL && i < G_N_ELEMENTS (styles); i++)
    if (g_str_equal (variant, styles[i].variant))
      gtk_widget_add_css_class (label, styles[i].css);
  if (g_strcmp0 (variant, "caption") == 0)
    gtk_widget_add_css_class (label, "dim-label");

  _tandem_a2ui_builder_bind (self, label, component, scope, refresh_label);

  return label;
}

static void
on_image_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GtkPicture) picture = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  if (!(texture = tandem_a2ui_image_load_finish (result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_widget_set_tooltip_text (GTK_WIDGET (picture), error->message);
          gtk_widget_add_css_class (GTK_WIDGET (picture), "a2ui-image-failed");
        }
      return;
    }

  gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
}

static void
refresh_image (TandemA2uiBinding *binding)
{
  g_autofree char *url = agui_a2ui_surface_resolve_string (_tandem_a2ui_binding_get_surface (binding),
                                                           agui_a2ui_component_get_property (binding->component, "url"),
                                                           binding->scope);
  g_autofree char *description = _tandem_a2ui_binding_dup_text (binding, "description");

  gtk_picture_set_alternative_text (GTK_PICTURE (binding->widget), description);
  if (url == NULL || g_strcmp0 (binding->loaded_url, url) == 0)
    return;

  g_free (binding->loaded_url);
  binding->loaded_url = g_strdup (url);
  gtk_picture_set_paintable (GTK_PICTURE (binding->widget), NULL);
  tandem_a2ui_image_load_async (url, binding->builder->cancellable,
                                on_image_loaded_cb, g_object_ref (binding->widget));
}

static GtkWidget *
build_image (TandemA2uiBuilder *self,
             AguiA2uiComponent *component,
             const char        *scope,
             guint              depth)
{
  static const struct { const char *variant; int size; } sizes[] = {
    { "icon", 24 }, { "avatar", 48 }, { "smallFeature", 96 }, { "mediumFeature", 160 },
    { "largeFeature", 240 }, { "header", 200 },
  };
  const char *variant = agui_a2ui_component_get_string (component, "variant");
  const char *fit = agui_a2ui_component_get_string (component, "fit");
  GtkWidget *picture = gtk_picture_new ();
  int size = 160;

  for (guint i = 0; variant != NULL && i < G_N_ELEMENTS (sizes); i++)
    if (g_str_equal (variant, sizes[i].variant))
      size = sizes[i].size;

  gtk_widget_set_size_request (picture, g_strcmp0 (variant, "header") == 0 ? -1 : size, size);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  if (g_strcmp0 (fit, "fill") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_FILL);
  else if (g_strcmp0 (fit, "cover") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_COVER);
  else if (g_strcmp0 (fit, "scaleDown") == 0)
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_SCALE_DOWN);
  else
    gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_halign (picture, g_strcmp0 (variant, "header") == 0 ? GTK_ALIGN_FILL : GTK_ALIGN_START);
  if (g_strcmp0 (variant, "avatar") == 0)
    gtk_widget_add_css_class (picture, "a2ui-avatar");
  gtk_widget_add_css_class (picture, "a2ui-image");

  _tandem_a2ui_builder_bind (self, picture, component, scope, refresh_image);

  return picture;
}

static const char *
icon_for_name (const char *name)
{
  static const struct { const char *a2ui; const char *icon; } icons[] = {
    { "accountCircle", "avatar-default-symbolic" }, { "add", "list-add-symbolic" },
    { "arrowBack", "go-previous-symbolic" }, { "arrowForward", "go-next-symbolic" },
    { "attachFile", "mail-attachment-symbolic" }, { "calendarToday", "x-office-calendar-symbolic" },
    { "call", "call-start-symbolic" }, { "camera", "camera-photo-symbolic" },
    { "check", "object-select-symbolic" }, { "close", "window-close-symbolic" },
    { "delete", "user-trash-symbolic" }, { "download", "folder-download-symbolic" },
    { "edit", "document-edit-symbolic" }, { "event", "x-office-calendar-symbolic" },
    { "error", "dialog-error-symbolic" }, { "favorite", "starred-symbolic" },
    { "favoriteOff", "non-starred-symbolic" }, { "folder", "folder-symbolic" },
    { "help", "help-about-symbolic" }, { "home", "go-home-symbolic" },
    { "info", "dialog-information-symbolic" }, { "locationOn", "mark-location-symbolic" },
    { "lock", "changes-prevent-symbolic" }, { "lockOpen", "changes-allow-symbolic" },
    { "mail", "mail-unread-symbolic" }, { "menu", "open-menu-symbolic" },
    { "moreVert", "view-more-symbolic" }, { "moreHoriz", "view-more-horizontal-symbolic" },
    { "notificationsOff", "notifications-disabled-symbolic" }, { "notifications", "preferences-system-notifications-symbolic" },
    { "payment", "money-symbolic" }, { "person", "avatar-default-symbolic" },
    { "phone", "phone-symbolic" }, { "photo", "image-x-generic-symbolic" },
    { "print", "printer-symbolic" }, { "refresh", "view-refresh-symbolic" },
    { "search", "system-search-symbolic" }, { "send", "mail-send-symbolic" },
    { "settings", "emblem-system-symbolic" }, { "share", "emblem-shared-symbolic" },
    { "shoppingCart", "shopping-cart-symbolic" }, { "star", "starred-symbolic" },
    { "starHalf", "semi-starred-symbolic" }, { "starOff", "non-starred-symbolic" },
    { "upload", "document-send-symbolic" }, { "visibility", "view-reveal-symbolic" },
    { "visibilityOff", "view-conceal-symbolic" }, { "warning", "dialog-warning-symbolic" },
  };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (icons); i++)
    if (g_str_equal (name, icons[i].a2ui))
      return icons[i].icon;

  return "image-missing-symbolic";
}

static void
refresh_icon (TandemA2uiBinding *binding)
{
  g_autofree char *name = _tandem_a2ui_binding_dup_text (binding, "name");

  gtk_image_set_from_icon_name (GTK_IMAGE (binding->widget), icon_for_name (name));
}

static GtkWidget *
build_icon (TandemA2uiBuilder *self,
            AguiA2uiComponent *component,
            const char        *scope,
            guint              depth)
{
  GtkWidget *widget = gtk_image_new ();

  gtk_image_set_icon_size (GTK_IMAGE (widget), GTK_ICON_SIZE_NORMAL);
  gtk_widget_set_halign (widget, GTK_ALIGN_START);
  _tandem_a2ui_builder_bind (self, widget, component, scope, refresh_icon);

  return widget;
}

static GtkWidget *
build_divider (TandemA2uiBuilder *self,
               AguiA2uiComponent *component,
               const char        *scope,
               guint              depth)
{
  return gtk_separator_new (g_strcmp0 (agui_a2ui_component_get_string (component, "axis"), "vertical") == 0
                            ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
}

static GtkWidget *
build_placeholder (TandemA2uiBuilder *self,
                   AguiA2uiComponent *component,
                   const char        *scope,
                   guint              depth)
{
  g_autofree char *text = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label;

  /* Translators: %s is the type of a component an agent sent, such as "Video" */
  text = g_strdup_printf (_("Unsupported component “%s”"), agui_a2ui_component_get_type_name (component));
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("dialog-information-symbolic"));
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_add_css_class (box, "dim-label");
  gtk_widget_add_css_class (box, "a2ui-placeholder");

  return box;
}

TandemA2uiBuildFunc
_tandem_a2ui_display_builder (AguiA2uiComponentKind kind)
{
  static const TandemA2uiBuildFunc builders[] = {
    [AGUI_A2UI_COMPONENT_TEXT]    = build_text,
    [AGUI_A2UI_COMPONENT_IMAGE]   = build_image,
    [AGUI_A2UI_COMPONENT_ICON]    = build_icon,
    [AGUI_A2UI_COMPONENT_DIVIDER] = build_divider,
    [AGUI_A2UI_COMPONENT_UNKNOWN] = build_placeholder,
  };

  return (guint) kind < G_N_ELEMENTS (builders) ? builders[kind] : NULL;
}
