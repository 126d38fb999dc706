/* tandem-state-inspector.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-state-inspector.h"
#include "tandem-pretty-json.h"

/* The agent's shared state, live: the paths the last delta touched
 * ("replace /progress") above the state as pretty JSON, the lines of the
 * touched members highlighted. The JSON goes into a GtkTextBuffer as
 * text, so nothing in it is ever read as markup. When the agent's last
 * change to the state was refused (a patch that does not apply, or that
 * would nest or grow the state past its bounds), a note above says so:
 * the state shown may lag behind the agent's. */

struct _TandemStateInspector
{
  GtkWidget       parent_instance;
  AguiTranscript *transcript;

  GtkWidget      *box;
  GtkWidget      *error_label;
  GtkWidget      *changes_label;
  GtkWidget      *text_view;
  GtkTextBuffer  *buffer;
  GtkTextTag     *changed_tag;
};

G_DEFINE_FINAL_TYPE (TandemStateInspector, tandem_state_inspector, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_TRANSCRIPT, N_PROPS };
static GParamSpec *properties[N_PROPS];

static char *
last_path_segment (const char *path)
{
  const char *slash = strrchr (path, '/');
  g_autofree char *segment = g_strdup (slash != NULL ? slash + 1 : path);
  g_autoptr(GString) decoded = g_string_new (segment);

  /* JSON Pointer escapes: ~1 is '/', ~0 is '~'. */
  g_string_replace (decoded, "~1", "/", 0);
  g_string_replace (decoded, "~0", "~", 0);

  return g_string_free (g_steal_pointer (&decoded), FALSE);
}

static void
highlight_member (TandemStateInspector *self,
                  const char           *member)
{
  g_autofree char *quoted = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), member);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  GtkTextIter iter;
  GtkTextIter match_start;
  GtkTextIter match_end;

  if (member[0] == '\0' || g_ascii_isdigit (member[0]))
    return;

  json_generator_set_root (generator, node);
  json = json_generator_to_data (generator, NULL);
  quoted = g_strconcat (json, ":", NULL);

  gtk_text_buffer_get_start_iter (self->buffer, &iter);
  while (gtk_text_iter_forward_search (&iter, quoted, GTK_TEXT_SEARCH_TEXT_ONLY, &match_start, &match_end, NULL))
    {
      GtkTextIter line_start = match_start;
      GtkTextIter line_end = match_start;

      gtk_text_iter_set_line_offset (&line_start, 0);
      if (!gtk_text_iter_ends_line (&line_end))
        gtk_text_iter_forward_to_line_end (&line_end);
      gtk_text_buffer_apply_tag (self->buffer, self->changed_tag, &line_start, &line_end);
      iter = match_end;
    }
}

static void
tandem_state_inspector_update_error (TandemStateInspector *self)
{
  const char *error = self->transcript != NULL ? agui_transcript_get_state_error (self->transcript) : NULL;
  g_autofree char *text = NULL;

  if (error != NULL)
    {
      /* Translators: %s is the reason, as the library gives it (in English) */
      text = g_strdup_printf (_("The agent’s last change to the state was refused, so the state shown "
                                "may be out of date: %s"), error);
      gtk_label_set_text (GTK_LABEL (self->error_label), text);
    }

  gtk_widget_set_visible (self->error_label, error != NULL);
}

static void
tandem_state_inspector_update (TandemStateInspector *self)
{
  JsonNode *state = NULL;
  JsonArray *delta = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) changes = g_string_new (NULL);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func (g_free);

  if (self->transcript != NULL)
    {
      state = agui_transcript_get_state (self->transcript);
      delta = agui_transcript_get_last_state_delta (self->transcript);
    }

  text = tandem_pretty_json (state);
  gtk_text_buffer_set_text (self->buffer, text[0] != '\0' ? text : "{}", -1);

  for (guint i = 0; delta != NULL && i < json_array_get_length (delta); i++)
    {
      JsonObject *operation = json_array_get_object_element (delta, i);
      const char *op;
      const char *path;

      if (operation == NULL)
        continue;

      op = json_object_get_string_member_with_default (operation, "op", "?");
      path = json_object_get_string_member_with_default (operation, "path", "");
      if (changes->len > 0)
        g_string_append_c (changes, '\n');
      g_string_append_printf (changes, "%s %s", op, path[0] != '\0' ? path : "/");
      g_ptr_array_add (members, last_path_segment (path));
    }

  for (guint i = 0; i < members->len; i++)
    highlight_member (self, g_ptr_array_index (members, i));

  gtk_label_set_text (GTK_LABEL (self->changes_label), changes->str);
  gtk_widget_set_visible (self->changes_label, changes->len > 0);
}

static void
tandem_state_inspector_dispose (GObject *object)
{
  TandemStateInspector *self = TANDEM_STATE_INSPECTOR (object);

  if (self->transcript != NULL)
    g_signal_handlers_disconnect_by_data (self->transcript, self);
  g_clear_object (&self->transcript);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_state_inspector_parent_class)->dispose (object);
}

static void
tandem_state_inspector_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TandemStateInspector *self = TANDEM_STATE_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_state_inspector_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  TandemStateInspector *self = TANDEM_STATE_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_TRANSCRIPT:
      tandem_state_inspector_set_transcript (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_state_inspector_class_init (TandemStateInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_state_inspector_dispose;
  object_class->get_property = tandem_state_inspector_get_property;
  object_class->set_property = tandem_state_inspector_set_property;

  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, AGUI_TYPE_TRANSCRIPT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "stateinspector");
}

static void
tandem_state_inspector_init (TandemStateInspector *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->error_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->error_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->error_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_add_css_class (self->error_label, "state-error");
  gtk_widget_set_margin_start (self->error_label, 12);
  gtk_widget_set_margin_end (self->error_label, 12);
  gtk_widget_set_visible (self->error_label, FALSE);

  self->changes_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->changes_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->changes_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->changes_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->changes_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (self->changes_label, "monospace");
  gtk_widget_add_css_class (self->changes_label, "state-changes");
  gtk_widget_set_margin_start (self->changes_label, 12);
  gtk_widget_set_margin_end (self->changes_label, 12);
  gtk_widget_set_visible (self->changes_label, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->changes_label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Last changes"),
                                  -1);

  self->text_view = gtk_text_view_new ();
  self->buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  self->changed_tag = gtk_text_buffer_create_tag (self->buffer, "changed",
                                                  "background", "rgba(53,132,228,0.25)",
                                                  NULL);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->text_view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->text_view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->text_view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->text_view), 12);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (self->text_view), 12);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (self->text_view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (self->text_view), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Shared state as JSON"),
                                  -1);
  gtk_widget_add_css_class (self->text_view, "state-json");

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->text_view);
  gtk_widget_set_vexpand (scrolled, TRUE);

  gtk_box_append (GTK_BOX (self->box), self->error_label);
  gtk_box_append (GTK_BOX (self->box), self->changes_label);
  gtk_box_append (GTK_BOX (self->box), scrolled);

  tandem_state_inspector_update (self);
  tandem_state_inspector_update_error (self);
}

GtkWidget *
tandem_state_inspector_new (void)
{
  return g_object_new (TANDEM_TYPE_STATE_INSPECTOR, NULL);
}

/**
 * tandem_state_inspector_get_transcript:
 * @self: an inspector
 *
 * Returns: (transfer none) (nullable): the transcript shown
 */
AguiTranscript *
tandem_state_inspector_get_transcript (TandemStateInspector *self)
{
  g_return_val_if_fail (TANDEM_IS_STATE_INSPECTOR (self), NULL);

  return self->transcript;
}

void
tandem_state_inspector_set_transcript (TandemStateInspector *self,
                                       AguiTranscript       *transcript)
{
  g_return_if_fail (TANDEM_IS_STATE_INSPECTOR (self));
  g_return_if_fail (!transcript || AGUI_IS_TRANSCRIPT (transcript));

  if (self->transcript == transcript)
    return;

  if (self->transcript != NULL)
    g_signal_handlers_disconnect_by_data (self->transcript, self);
  g_set_object (&self->transcript, transcript);

  if (transcript != NULL)
    {
      g_signal_connect_object (transcript, "notify::state",
                               G_CALLBACK (tandem_state_inspector_update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (transcript, "notify::last-state-delta",
                               G_CALLBACK (tandem_state_inspector_update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (transcript, "notify::state-error",
                               G_CALLBACK (tandem_state_inspector_update_error), self, G_CONNECT_SWAPPED);
    }

  tandem_state_inspector_update (self);
  tandem_state_inspector_update_error (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSCRIPT]);
}

/**
 * tandem_state_inspector_dup_text:
 * @self: an inspector
 *
 * Returns: (transfer full): the JSON shown
 */
char *
tandem_state_inspector_dup_text (TandemStateInspector *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TANDEM_IS_STATE_INSPECTOR (self), NULL);

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);

  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

/**
 * tandem_state_inspector_dup_changes:
 * @self: an inspector
 *
 * Returns: (transfer full): the touched paths, one a line
 */
char *
tandem_state_inspector_dup_changes (TandemStateInspector *self)
{
  g_return_val_if_fail (TANDEM_IS_STATE_INSPECTOR (self), NULL);

  return g_strdup (gtk_label_get_text (GTK_LABEL (self->changes_label)));
}

/**
 * tandem_state_inspector_dup_error:
 * @self: an inspector
 *
 * Returns: (transfer full) (nullable): the note on a refused state change
 *   shown, or %NULL when none is
 */
char *
tandem_state_inspector_dup_error (TandemStateInspector *self)
{
  g_return_val_if_fail (TANDEM_IS_STATE_INSPECTOR (self), NULL);

  if (!gtk_widget_get_visible (self->error_label))
    return NULL;

  return g_strdup (gtk_label_get_text (GTK_LABEL (self->error_label)));
}
