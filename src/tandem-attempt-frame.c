/* tandem-attempt-frame.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-accessible.h"
#include "tandem-attempt-frame.h"

/* One part's widget, and what happened around it that is not a message:
 * how the run it came from ended when that was not normally (a failed
 * attempt is dimmed, as it was not given to the agent as its answer, and
 * after the last part of a failed or stopped attempt a line says
 * "Stopped" or "Failed"), and the part's notes (a run that ended before
 * it produced anything, the person's answer to a question that has no
 * tool card). A failed attempt can be folded away to one line. It follows
 * the part's notifications, so it works as a row of its own, around any
 * part's widget. */

struct _TandemAttemptFrame
{
  GtkWidget  parent_instance;
  AguiPart  *part;
  GtkWidget *box;
  GtkWidget *child;
  GtkWidget *child_box;  /* folds the child away without touching its own visibility */
  GtkWidget *mark;
  GtkWidget *mark_label;
  GtkWidget *collapse_button;
  GtkWidget *notes;
  gboolean   hide_mark;
  gboolean   collapsed;
};

G_DEFINE_FINAL_TYPE (TandemAttemptFrame, tandem_attempt_frame, GTK_TYPE_WIDGET)

enum { TOGGLE_COLLAPSED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* What the question was, in a few words: its message, else the tool a
 * metadata-only interrupt (Mastra's) is about, else nothing. */
static char *
dup_question_text (JsonObject *interrupt)
{
  JsonObject *metadata = get_object (interrupt, "metadata");
  JsonObject *mastra = get_object (metadata, "mastra");
  const char *name = NULL;

  if (get_string (interrupt, "message") != NULL)
    return g_strdup (get_string (interrupt, "message"));

  for (JsonObject *shape = mastra != NULL ? mastra : metadata; shape != NULL && name == NULL;
       shape = shape == mastra ? metadata : NULL)
    name = get_string (shape, "toolName") ? get_string (shape, "toolName") : get_string (shape, "tool_name");

  if (name != NULL)
    /* Translators: %s is the name of a tool the agent wanted to run */
    return g_strdup_printf (_("Run “%s”"), name);

  return NULL;
}

/* The agent's change to the state or an activity was refused: the view
 * may be out of date, which only the conversation can tell the person. */
static char *
dup_refused_patch_text (JsonObject *note)
{
  const char *reason = get_string (note, "reason");
  JsonNode *counted = json_object_get_member (note, "count");
  gint64 count = 1;

  if (counted != NULL && JSON_NODE_HOLDS_VALUE (counted) && json_node_get_value_type (counted) == G_TYPE_INT64)
    count = CLAMP (json_node_get_int (counted), 1, G_MAXINT);
  if (reason == NULL)
    reason = "";

  if (g_strcmp0 (get_string (note, "event"), "ACTIVITY_DELTA") == 0)
    {
      if (count == 1)
        /* Translators: %s is why the change was refused (not translated) */
        return g_strdup_printf (_("The agent’s change to this activity was refused, so it may be out of date: %s"),
                                reason);
      /* Translators: %d (2 or more) is how many of the agent's changes to
       * an activity (a plan, a progress display) were refused, %s why the
       * last one was (not translated) */
      return g_strdup_printf (ngettext ("%d of the agent’s changes to this activity were refused, so it may be out of date. The last: %s",
                                        "%d of the agent’s changes to this activity were refused, so it may be out of date. The last: %s",
                                        (gulong) count),
                              (int) count, reason);
    }

  if (g_strcmp0 (get_string (note, "event"), "STATE_DELTA") == 0)
    {
      if (count == 1)
        /* Translators: %s is why the change was refused (not translated) */
        return g_strdup_printf (_("The agent’s change to the shared state was refused, so it may be out of date: %s"),
                                reason);
      /* Translators: %d (2 or more) is how many of the agent's changes to
       * the state it shares with the app were refused, %s why the last
       * one was (not translated) */
      return g_strdup_printf (ngettext ("%d of the agent’s changes to the shared state were refused, so it may be out of date. The last: %s",
                                        "%d of the agent’s changes to the shared state were refused, so it may be out of date. The last: %s",
                                        (gulong) count),
                              (int) count, reason);
    }

  return NULL;
}

/**
 * tandem_attempt_frame_dup_note_text:
 * @note: one of a part's notes (see [property@Agui.Part:notes])
 *
 * Returns: (transfer full) (nullable): the line that shows @note, %NULL
 *   for a kind of note this version does not know
 */
char *
tandem_attempt_frame_dup_note_text (JsonObject *note)
{
  const char *kind = get_string (note, "kind");
  const char *answer = get_string (note, "answer");
  g_autofree char *question = NULL;
  g_autofree char *line = NULL;

  g_return_val_if_fail (note != NULL, NULL);

  if (g_strcmp0 (kind, "run-end") == 0)
    return g_strdup (g_strcmp0 (get_string (note, "attempt"), "failed") == 0
                       ? _("Failed before the agent answered")
                       : _("Stopped"));

  if (g_strcmp0 (kind, "patch-refused") == 0)
    return dup_refused_patch_text (note);

  if (g_strcmp0 (kind, "answer") != 0 || answer == NULL)
    return NULL;

  if (g_str_equal (answer, "approved"))
    line = g_strdup (_("You approved"));
  else if (g_str_equal (answer, "approved-edited"))
    line = g_strdup (_("You approved with changes"));
  else if (g_str_equal (answer, "denied"))
    line = g_strdup (_("You denied"));
  else if (g_str_equal (answer, "cancelled"))
    line = g_strdup (_("You dismissed the question"));
  else if (g_str_equal (answer, "expired"))
    line = g_strdup (_("The question expired unanswered"));
  else if (g_str_equal (answer, "answered"))
    {
      const char *text = get_string (note, "text");
      g_autoptr(JsonNode) node = text != NULL ? json_from_string (text, NULL) : NULL;
      const char *value = text;

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        value = json_node_get_string (node);

      /* Translators: %s is what the person typed or chose */
      line = g_strdup_printf (_("You answered: %s"), value != NULL ? value : "");
    }
  else
    return NULL;

  question = dup_question_text (get_object (note, "interrupt"));
  if (question == NULL)
    return g_steal_pointer (&line);

  /* Translators: the first %s is the question the agent asked, the
   * second what the person answered, e.g. "Run “archive” — You approved" */
  return g_strdup_printf (_("%s — %s"), question, line);
}

static void
tandem_attempt_frame_update_notes (TandemAttemptFrame *self)
{
  JsonArray *notes = agui_part_get_notes (self->part);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->notes)) != NULL)
    gtk_box_remove (GTK_BOX (self->notes), child);

  for (guint i = 0; notes != NULL && i < json_array_get_length (notes); i++)
    {
      JsonNode *node = json_array_get_element (notes, i);
      g_autofree char *text = JSON_NODE_HOLDS_OBJECT (node) ? tandem_attempt_frame_dup_note_text (json_node_get_object (node)) : NULL;
      const char *kind = JSON_NODE_HOLDS_OBJECT (node) ? get_string (json_node_get_object (node), "kind") : NULL;
      gboolean run_end = g_strcmp0 (kind, "run-end") == 0;
      gboolean refused = g_strcmp0 (kind, "patch-refused") == 0;
      GtkWidget *line;
      GtkWidget *label;

      if (text == NULL)
        continue;

      line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      gtk_widget_add_css_class (line, "attempt-note");
      gtk_widget_add_css_class (line, "dim-label");
      gtk_box_append (GTK_BOX (line),
                      tandem_accessible_icon_new (run_end ? "process-stop-symbolic"
                                                  : refused ? "dialog-warning-symbolic"
                                                  : "object-select-symbolic"));
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (line), label);
      gtk_box_append (GTK_BOX (self->notes), line);
    }

  gtk_widget_set_visible (self->notes, gtk_widget_get_first_child (self->notes) != NULL && !self->hide_mark);
}

static void
tandem_attempt_frame_update (TandemAttemptFrame *self)
{
  AguiAttempt attempt = agui_part_get_attempt (self->part);
  gboolean end = agui_part_get_attempt_end (self->part) && !self->hide_mark;
  gboolean collapsed = self->collapsed && attempt == AGUI_ATTEMPT_FAILED;

  if (attempt == AGUI_ATTEMPT_FAILED)
    gtk_widget_add_css_class (self->child, "failed-attempt");
  else
    gtk_widget_remove_css_class (self->child, "failed-attempt");

  gtk_widget_set_visible (self->child_box, !collapsed);
  gtk_widget_set_visible (self->notes, !collapsed && !self->hide_mark &&
                                       gtk_widget_get_first_child (self->notes) != NULL);

  /* A part drawn as several blocks marks only its last */
  gtk_widget_set_visible (self->mark, end);
  gtk_widget_set_visible (self->collapse_button, end && attempt == AGUI_ATTEMPT_FAILED);
  if (!end)
    return;

  if (collapsed)
    gtk_label_set_text (GTK_LABEL (self->mark_label), _("Failed attempt hidden"));
  else
    gtk_label_set_text (GTK_LABEL (self->mark_label),
                        attempt == AGUI_ATTEMPT_STOPPED
                          ? _("Stopped")
                          : _("Failed — this answer was not given to the agent"));
  gtk_button_set_label (GTK_BUTTON (self->collapse_button), collapsed ? _("Show") : _("Hide"));
  gtk_widget_set_tooltip_text (self->collapse_button,
                               collapsed ? _("Show the failed attempt") : _("Fold the failed attempt away"));
}

static void
on_collapse_clicked_cb (TandemAttemptFrame *self)
{
  g_signal_emit (self, signals[TOGGLE_COLLAPSED], 0);
}

static void
tandem_attempt_frame_dispose (GObject *object)
{
  TandemAttemptFrame *self = TANDEM_ATTEMPT_FRAME (object);

  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  g_clear_object (&self->part);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_attempt_frame_parent_class)->dispose (object);
}

static void
tandem_attempt_frame_class_init (TandemAttemptFrameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_attempt_frame_dispose;

  /**
   * TandemAttemptFrame::toggle-collapsed:
   *
   * The person asked to fold a failed attempt away, or to show it again;
   * whoever knows the attempt's other blocks folds them all.
   */
  signals[TOGGLE_COLLAPSED] =
    g_signal_new ("toggle-collapsed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attemptframe");
}

static void
tandem_attempt_frame_init (TandemAttemptFrame *self)
{
  GtkWidget *icon;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->mark = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->mark, "attempt-mark");
  icon = tandem_accessible_icon_new ("process-stop-symbolic");
  gtk_widget_add_css_class (icon, "dim-label");
  gtk_box_append (GTK_BOX (self->mark), icon);
  self->mark_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->mark_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->mark_label), TRUE);
  /* Else a wrapping label next to the button takes its narrowest width */
  gtk_widget_set_hexpand (self->mark_label, TRUE);
  gtk_widget_add_css_class (self->mark_label, "caption");
  gtk_widget_add_css_class (self->mark_label, "dim-label");
  gtk_box_append (GTK_BOX (self->mark), self->mark_label);
  self->collapse_button = gtk_button_new ();
  gtk_widget_add_css_class (self->collapse_button, "flat");
  gtk_widget_add_css_class (self->collapse_button, "caption");
  gtk_widget_set_valign (self->collapse_button, GTK_ALIGN_CENTER);
  g_signal_connect_object (self->collapse_button, "clicked", G_CALLBACK (on_collapse_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->mark), self->collapse_button);
  gtk_widget_set_visible (self->mark, FALSE);

  self->notes = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_visible (self->notes, FALSE);
}

/**
 * tandem_attempt_frame_new:
 * @part: the part @child shows
 * @child: (transfer floating): the part's widget
 *
 * Returns: (transfer floating): a frame around @child
 */
GtkWidget *
tandem_attempt_frame_new (AguiPart  *part,
                          GtkWidget *child)
{
  TandemAttemptFrame *self;

  g_return_val_if_fail (AGUI_IS_PART (part), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (child), NULL);

  self = g_object_new (TANDEM_TYPE_ATTEMPT_FRAME, NULL);
  self->child = child;
  self->child_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self->child_box), child);
  gtk_box_prepend (GTK_BOX (self->box), self->child_box);
  gtk_box_append (GTK_BOX (self->box), self->mark);
  gtk_box_append (GTK_BOX (self->box), self->notes);
  tandem_attempt_frame_set_part (self, part);

  return GTK_WIDGET (self);
}

/**
 * tandem_attempt_frame_set_part:
 * @self: a frame
 * @part: (nullable): the part its child now draws, or %NULL while the
 *   frame is kept aside for another row
 *
 * Marks @part's attempt instead of the part's the frame was made for,
 * for a row of the transcript that draws another block of the same kind
 * in the same widgets. The frame is shown whole and unfolded until it is
 * told otherwise.
 */
void
tandem_attempt_frame_set_part (TandemAttemptFrame *self,
                               AguiPart           *part)
{
  g_return_if_fail (TANDEM_IS_ATTEMPT_FRAME (self));
  g_return_if_fail (part == NULL || AGUI_IS_PART (part));

  if (self->part != NULL)
    g_signal_handlers_disconnect_by_data (self->part, self);
  g_set_object (&self->part, part);
  self->hide_mark = FALSE;
  self->collapsed = FALSE;
  /* Kept for another part (see tandem-block-row.c): drawn again then */
  if (part == NULL)
    return;

  g_signal_connect_object (part, "notify::attempt", G_CALLBACK (tandem_attempt_frame_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (part, "notify::attempt-end", G_CALLBACK (tandem_attempt_frame_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (part, "notify::notes", G_CALLBACK (tandem_attempt_frame_update_notes), self, G_CONNECT_SWAPPED);
  tandem_attempt_frame_update_notes (self);
  tandem_attempt_frame_update (self);
}

GtkWidget *
tandem_attempt_frame_get_child (TandemAttemptFrame *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  return self->child;
}

/**
 * tandem_attempt_frame_get_mark_text:
 * @self: a frame
 *
 * Returns: (nullable): the "Stopped" or "Failed" line, when shown
 */
const char *
tandem_attempt_frame_get_mark_text (TandemAttemptFrame *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  return gtk_widget_get_visible (self->mark) ? gtk_label_get_text (GTK_LABEL (self->mark_label)) : NULL;
}

/**
 * tandem_attempt_frame_get_collapse_button:
 * @self: a frame
 *
 * Returns: (transfer none): the button that folds a failed attempt away
 */
GtkWidget *
tandem_attempt_frame_get_collapse_button (TandemAttemptFrame *self)
{
  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  return self->collapse_button;
}

/**
 * tandem_attempt_frame_set_show_mark:
 * @self: a frame
 * @show_mark: whether the frame shows the attempt's mark at the attempt's end
 *
 * A part drawn as several blocks (a long Markdown text) has a frame per
 * block; only the last one says "Stopped" or "Failed".
 */
void
tandem_attempt_frame_set_show_mark (TandemAttemptFrame *self,
                                    gboolean            show_mark)
{
  g_return_if_fail (TANDEM_IS_ATTEMPT_FRAME (self));

  if (self->hide_mark == !show_mark)
    return;

  self->hide_mark = !show_mark;
  tandem_attempt_frame_update (self);
}

/**
 * tandem_attempt_frame_set_collapsed:
 * @self: a frame
 * @collapsed: whether a failed attempt is folded away
 *
 * Folded, a failed attempt's part is hidden; the frame of its last block
 * keeps one line that says so, with a button to show it again.
 */
void
tandem_attempt_frame_set_collapsed (TandemAttemptFrame *self,
                                    gboolean            collapsed)
{
  g_return_if_fail (TANDEM_IS_ATTEMPT_FRAME (self));

  if (self->collapsed == !!collapsed)
    return;

  self->collapsed = !!collapsed;
  tandem_attempt_frame_update (self);
}

/**
 * tandem_attempt_frame_get_notes_text:
 * @self: a frame
 *
 * Returns: (transfer full) (nullable): the lines of the part's notes, one
 *   per line, when shown
 */
char *
tandem_attempt_frame_get_notes_text (TandemAttemptFrame *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (TANDEM_IS_ATTEMPT_FRAME (self), NULL);

  if (!gtk_widget_get_visible (self->notes))
    return NULL;

  for (GtkWidget *line = gtk_widget_get_first_child (self->notes); line != NULL; line = gtk_widget_get_next_sibling (line))
    {
      GtkWidget *label = gtk_widget_get_last_child (line);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, gtk_label_get_text (GTK_LABEL (label)));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}
