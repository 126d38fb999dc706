/* tandem-block-row.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tandem-a2ui-surface-view.h"
#include "tandem-accessible.h"
#include "tandem-attempt-frame.h"
#include "tandem-block-list.h"
#include "tandem-block-row.h"
#include "tandem-block-window.h"
#include "tandem-markdown-model.h"
#include "tandem-markdown-view.h"
#include "tandem-message-actions.h"
#include "tandem-message-row.h"
#include "tandem-popover-point.h"

/**
 * TandemBlockRow:
 *
 * One row of the transcript view: draws one [class@Tandem.Block]. A
 * Markdown block's view is brought up to date at most once a frame,
 * however many deltas arrive in between, so a burst of a thousand deltas
 * costs one render of the block, and a render costs the size of the block,
 * which the splitter keeps small, not of the answer.
 *
 * The first block of a message carries the message's action line
 * ([class@Tandem.MessageActions]) above it. A long answer is many
 * blocks, and its first may be scrolled away: every later block of it
 * shows the same actions in a column in its right margin, beside the
 * text and covering none of it, while the pointer or the keyboard focus
 * is on it, made the first time either comes. Every block has the message's context menu
 * (secondary click, Shift+F10 or the Menu key): copy the message (or a
 * tool card's arguments or result), regenerate an answer, edit and
 * resend one of the person's messages.
 */

struct _TandemBlockRow
{
  GtkWidget    parent_instance;

  TandemBlock *block;
  GtkWidget   *child;  /* the attempt frame around the view, or the user's message row */
  GtkWidget   *view;
  GtkWidget   *actions;
  GtkWidget   *floating;  /* a later block's actions, over its corner */
  int          floating_floor;  /* the lowest they may reach; see set_actions_floor () */
  GtkWidget   *menu;
  guint        tick_id;
  guint        actions_tick_id;  /* the pointer came: the actions show on the next frame */
};

G_DEFINE_FINAL_TYPE (TandemBlockRow, tandem_block_row, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_BLOCK, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* The most of a block a screen reader hears as its name */
#define EXCERPT_CHARS 60
/* A Markdown block is read that far for its excerpt */
#define EXCERPT_SOURCE_BYTES 512

static const char *
author_name (AguiRole role)
{
  switch (role)
    {
    case AGUI_ROLE_USER:
      return _("You");
    case AGUI_ROLE_SYSTEM:
    case AGUI_ROLE_DEVELOPER:
      return _("System");
    case AGUI_ROLE_TOOL:
      return _("Tool");
    case AGUI_ROLE_ASSISTANT:
    case AGUI_ROLE_REASONING:
    case AGUI_ROLE_ACTIVITY:
    default:
      return _("Agent");
    }
}

/* What the block says, in a few words */
static char *
dup_block_words (TandemBlockRow *self)
{
  AguiSpeakerTurn *message = tandem_block_get_message (self->block);
  AguiPart *part = tandem_block_get_part (self->block);
  const char *start;
  gsize length;

  switch (tandem_block_get_kind (self->block))
    {
    case TANDEM_BLOCK_USER:
      return tandem_message_dup_markdown (message);

    case TANDEM_BLOCK_MARKDOWN:
      {
        g_autofree char *markdown = NULL;

        start = tandem_block_peek_text (self->block, &length);
        if (start == NULL)
          return g_strdup ("");
        /* Not into the middle of a character */
        length = MIN (length, EXCERPT_SOURCE_BYTES);
        while (length > 0 && start[length] != '\0' && (start[length] & 0xC0) == 0x80)
          length--;
        markdown = g_strndup (start, length);
        return tandem_markdown_plain_text (markdown);
      }

    case TANDEM_BLOCK_REASONING:
      return g_strdup (_("Reasoning"));

    case TANDEM_BLOCK_TOOL_CALL:
      /* Translators: a tool card as a screen reader names it; %s is the tool */
      return g_strdup_printf (_("tool call %s"),
                              AGUI_IS_TOOL_CALL_PART (part) && agui_tool_call_part_get_tool_name (AGUI_TOOL_CALL_PART (part))
                              ? agui_tool_call_part_get_tool_name (AGUI_TOOL_CALL_PART (part)) : "");

    case TANDEM_BLOCK_ACTIVITY:
      if (AGUI_IS_ACTIVITY_PART (part) && tandem_a2ui_is_surface (AGUI_ACTIVITY_PART (part)))
        return g_strdup (_("an interactive card"));
      G_GNUC_FALLTHROUGH;

    case TANDEM_BLOCK_TEXT:
    case TANDEM_BLOCK_MEDIA:
    default:
      return part != NULL ? tandem_part_dup_text (agui_speaker_turn_get_role (message), part) : g_strdup ("");
    }
}

/* Who wrote the block's message, and when: "Agent, 21:48" */
static char *
dup_author_and_time (TandemBlockRow *self)
{
  const char *author = author_name (agui_speaker_turn_get_role (tandem_block_get_message (self->block)));
  g_autofree char *time = tandem_message_dup_time (self->block, NULL);

  if (time == NULL)
    return g_strdup (author);

  /* Translators: who wrote a message and when, as a screen reader
   * hears it: "Agent, 21:48" */
  return g_strdup_printf (_("%s, %s"), author, time);
}

/* A message is one group to a screen reader, though its blocks are
 * rows of their own (the list builds only the rows in sight). Its first
 * row is named by who wrote it, when, and its first words; each later
 * row by its own words, and described as going on with that message, so
 * that two answers are heard as two, whichever row the reader is on.
 * The list's row (GTK 4.8 names it after nothing) reads the same. A
 * relation to the first row would break as soon as that row is
 * scrolled away and reused, and GTK 4.8 gives AT-SPI no group
 * position: the name and the description are what a screen reader
 * reads. */
static void
update_accessible_label (TandemBlockRow *self)
{
  g_autofree char *who = NULL;
  g_autofree char *words = NULL;
  g_autofree char *excerpt = NULL;
  g_autofree char *label = NULL;
  g_autofree char *description = NULL;
  GtkWidget *item = gtk_widget_get_parent (GTK_WIDGET (self));

  /* A row is named when it is shown ("map" calls this again), and while
   * shown as its words change. The list view binds a row's block before
   * it maps it: naming it then too made each new row look its message's
   * time up in the transcript (a scan of its records) three times over,
   * which a conversation of 10,000 messages opening 16 rows in one go
   * felt. */
  if (self->block == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  who = dup_author_and_time (self);
  words = dup_block_words (self);
  excerpt = tandem_accessible_excerpt (words, EXCERPT_CHARS);
  if (tandem_block_get_first (self->block))
    {
      /* Translators: who wrote a message (and when), then its first
       * words, as a screen reader names it: "Agent, 21:48: The desktop
       * says it is 23:05…" */
      label = excerpt[0] != '\0' ? g_strdup_printf (_("%s: %s"), who, excerpt) : g_strdup (who);
    }
  else
    {
      /* Translators: a later part of a long message, as a screen reader
       * describes it; %s is who wrote it and when: "Agent, 21:48" */
      description = g_strdup_printf (_("Continues the message from %s"), who);
      label = excerpt[0] != '\0' ? g_steal_pointer (&excerpt) : g_strdup (description);
    }

  tandem_accessible_set_label (GTK_WIDGET (self), label);
  tandem_accessible_set_description (GTK_WIDGET (self), description);
  if (item != NULL && GTK_IS_LIST_VIEW (gtk_widget_get_parent (item)))
    {
      tandem_accessible_set_label (item, label);
      tandem_accessible_set_description (item, description);
    }
}

static void
update_markdown (TandemBlockRow *self)
{
  g_autofree char *text = NULL;
  const char *start;
  gsize length;

  start = tandem_block_peek_text (self->block, &length);
  text = g_strndup (start != NULL ? start : "", length);
  tandem_markdown_view_set_offset (TANDEM_MARKDOWN_VIEW (self->view), tandem_block_get_start (self->block));
  tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (self->view), text);
  update_accessible_label (self);
  if (TANDEM_IS_ATTEMPT_FRAME (self->child))
    tandem_attempt_frame_set_show_mark (TANDEM_ATTEMPT_FRAME (self->child),
                                        tandem_block_get_last_of_part (self->block));
}

static gboolean
on_tick_cb (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       user_data)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  self->tick_id = 0;
  if (self->block != NULL && TANDEM_IS_MARKDOWN_VIEW (self->view))
    update_markdown (self);

  return G_SOURCE_REMOVE;
}

static void
on_block_changed_cb (TandemBlockRow *self)
{
  /* Off screen there are no frames to wait for */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      update_markdown (self);
      return;
    }

  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick_cb, NULL, NULL);
}

static void
on_user_parts_changed_cb (TandemBlockRow *self,
                          guint           position,
                          guint           removed,
                          guint           added,
                          GListModel     *parts)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, i);

      if (AGUI_IS_TEXT_PART (part))
        g_signal_connect_object (part, "notify::text", G_CALLBACK (update_accessible_label), self, G_CONNECT_SWAPPED);
    }

  update_accessible_label (self);
}

/* The row's style classes for @block (none for no block), changed only
 * where they differ: a row drawing one block after another mostly keeps
 * them, and each change has its style looked up again. */
static void
set_classes (TandemBlockRow *self,
             TandemBlock    *block)
{
  static const char * const classes[] = { "user", "agent", "other", "first", "continued", "markdown" };
  gboolean wanted[G_N_ELEMENTS (classes)] = { FALSE, };

  if (block != NULL)
    {
      AguiRole role = agui_speaker_turn_get_role (tandem_block_get_message (block));

      if (tandem_block_get_kind (block) == TANDEM_BLOCK_USER)
        wanted[0] = TRUE;
      else if (role == AGUI_ROLE_ASSISTANT || role == AGUI_ROLE_ACTIVITY)
        wanted[1] = TRUE;
      else
        wanted[2] = TRUE;
      wanted[3] = tandem_block_get_first (block);
      wanted[4] = tandem_block_get_continued (block);
      wanted[5] = tandem_block_get_kind (block) == TANDEM_BLOCK_MARKDOWN;
    }

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      if (wanted[i] && !gtk_widget_has_css_class (GTK_WIDGET (self), classes[i]))
        gtk_widget_add_css_class (GTK_WIDGET (self), classes[i]);
      else if (!wanted[i] && gtk_widget_has_css_class (GTK_WIDGET (self), classes[i]))
        gtk_widget_remove_css_class (GTK_WIDGET (self), classes[i]);
    }
}

/* Widgets a row no longer needs are let go of from the main loop when it
 * is idle, a few at a time, not in the frame that drops them: a jump far
 * back (Home, a match of Find) has the list view give up a dozen rows or
 * more at once, and tearing down their widgets there, action lines and
 * all, was a third of that frame. */
#define FREE_SLICE 4

static GPtrArray *widgets_to_free;
static guint free_id;

static gboolean
free_slice_cb (gpointer user_data)
{
  guint n = MIN (widgets_to_free->len, FREE_SLICE);

  /* From the end: no moving what is left down the array */
  g_ptr_array_remove_range (widgets_to_free, widgets_to_free->len - n, n);
  if (widgets_to_free->len > 0)
    return G_SOURCE_CONTINUE;

  free_id = 0;
  return G_SOURCE_REMOVE;
}

static void
free_later (GtkWidget *widget)
{
  if (widgets_to_free == NULL)
    widgets_to_free = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (widgets_to_free, g_object_ref (widget));
  gtk_widget_unparent (widget);
  if (free_id == 0)
    {
      free_id = g_idle_add_full (G_PRIORITY_LOW, free_slice_cb, NULL, NULL);
      g_source_set_name_by_id (free_id, "[tandem] block row free");
    }
}

/* A few widgets of the kinds every row has (a message's action line, a
 * person's message, the frame around a Markdown view), let go of by one
 * row and kept for the next row that needs one. Reading on through a
 * long conversation, rows are let go of at one end while others are
 * made at the other (see tandem_window's drop_far_front()): each action
 * line made from its template anew was a third of what a new row cost.
 * They hold no object of a conversation while kept (a Markdown view keeps
 * its last text, whose labels the next one reuses). */
#define SPARES_MAX 12

static GPtrArray *spares;

static gboolean
is_spare_kind (GtkWidget *widget)
{
  /* An action line: a later block's column of them, another shape, is
   * never kept (free_later ()) */
  return TANDEM_IS_MESSAGE_ROW (widget) || TANDEM_IS_MESSAGE_ACTIONS (widget) ||
         (TANDEM_IS_ATTEMPT_FRAME (widget) &&
          TANDEM_IS_MARKDOWN_VIEW (tandem_attempt_frame_get_child (TANDEM_ATTEMPT_FRAME (widget))));
}

static void
unparent_later (GtkWidget *widget)
{
  /* Its block holds the conversation, which is saved as it goes: it
   * must not wait for this */
  if (TANDEM_IS_MESSAGE_ACTIONS (widget))
    tandem_message_actions_set_block (TANDEM_MESSAGE_ACTIONS (widget), NULL);

  if (is_spare_kind (widget) && (spares == NULL || spares->len < SPARES_MAX))
    {
      if (TANDEM_IS_MESSAGE_ROW (widget))
        tandem_message_row_set_message (TANDEM_MESSAGE_ROW (widget), NULL);
      else if (TANDEM_IS_ATTEMPT_FRAME (widget))
        tandem_attempt_frame_set_part (TANDEM_ATTEMPT_FRAME (widget), NULL);
      if (spares == NULL)
        spares = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (spares, g_object_ref (widget));
      gtk_widget_unparent (widget);
      return;
    }

  free_later (widget);
}

/* A spare widget that @is_wanted, or %NULL: (transfer full) */
static GtkWidget *
take_spare (gboolean (*is_wanted) (GtkWidget *widget))
{
  for (guint i = spares != NULL ? spares->len : 0; i > 0; i--)
    if (is_wanted (spares->pdata[i - 1]))
      return g_ptr_array_steal_index_fast (spares, i - 1);

  return NULL;
}

static gboolean
is_action_line (GtkWidget *widget)
{
  return TANDEM_IS_MESSAGE_ACTIONS (widget);
}

static gboolean
is_message_row (GtkWidget *widget)
{
  return TANDEM_IS_MESSAGE_ROW (widget);
}

static gboolean
is_markdown_frame (GtkWidget *widget)
{
  return TANDEM_IS_ATTEMPT_FRAME (widget);
}

/* Lets go of the block drawn: its signals, its ticks, what was made for
 * it alone. The child drawing it and the action line are kept when
 * @keep_child and @keep_actions say the next block reuses them. */
static void
tandem_block_row_release (TandemBlockRow *self,
                          gboolean        keep_child,
                          gboolean        keep_actions)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->actions_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->actions_tick_id);
      self->actions_tick_id = 0;
    }
  if (self->block != NULL)
    {
      GListModel *parts = agui_speaker_turn_get_parts (tandem_block_get_message (self->block));

      g_signal_handlers_disconnect_by_data (self->block, self);
      g_signal_handlers_disconnect_by_data (parts, self);
      for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (parts, i);

          g_signal_handlers_disconnect_by_data (part, self);
        }
    }
  g_clear_object (&self->block);
  if (!keep_child && self->child != NULL)
    {
      /* Only what does nothing as it goes: a card or an agent's form
       * keeps what the person did there as it is let go of */
      if (TANDEM_IS_MESSAGE_ROW (self->child) || TANDEM_IS_MARKDOWN_VIEW (self->view))
        {
          /* Another row may take it up */
          g_signal_handlers_disconnect_by_data (self->child, self);
          unparent_later (g_steal_pointer (&self->child));
        }
      else
        g_clear_pointer (&self->child, gtk_widget_unparent);
      self->view = NULL;
    }
  if (!keep_actions && self->actions != NULL)
    {
      /* Letting go of its block closes an open editor: not this row's
       * to hear any more */
      g_signal_handlers_disconnect_by_data (self->actions, self);
      g_clear_pointer (&self->actions, unparent_later);
    }
  g_clear_pointer (&self->floating, free_later);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

static void
tandem_block_row_clear (TandemBlockRow *self)
{
  tandem_block_row_release (self, FALSE, FALSE);
  set_classes (self, NULL);
}

static GtkWidget *
create_child (TandemBlockRow *self)
{
  AguiSpeakerTurn *message = tandem_block_get_message (self->block);
  AguiRole role = agui_speaker_turn_get_role (message);
  GtkWidget *widget;

  switch (tandem_block_get_kind (self->block))
    {
    case TANDEM_BLOCK_USER:
      widget = take_spare (is_message_row);
      if (widget == NULL)
        widget = g_object_ref_sink (tandem_message_row_new ());
      tandem_message_row_set_message (TANDEM_MESSAGE_ROW (widget), message);
      return widget;

    case TANDEM_BLOCK_MARKDOWN:
      widget = take_spare (is_markdown_frame);
      if (widget != NULL)
        {
          tandem_attempt_frame_set_part (TANDEM_ATTEMPT_FRAME (widget), tandem_block_get_part (self->block));
          self->view = tandem_attempt_frame_get_child (TANDEM_ATTEMPT_FRAME (widget));
          return widget;
        }
      self->view = tandem_markdown_view_new ();
      break;

    case TANDEM_BLOCK_TEXT:
    case TANDEM_BLOCK_REASONING:
    case TANDEM_BLOCK_TOOL_CALL:
    case TANDEM_BLOCK_ACTIVITY:
    case TANDEM_BLOCK_MEDIA:
    default:
      self->view = tandem_part_widget_new (role, tandem_block_get_part (self->block),
                                           tandem_block_get_session (self->block));
      break;
    }

  /* A failed or stopped attempt is marked on every block of it */
  return g_object_ref_sink (tandem_attempt_frame_new (tandem_block_get_part (self->block), self->view));
}

/* Message actions */

static AguiToolCallPart *
get_tool_call (TandemBlockRow *self)
{
  AguiPart *part = self->block ? tandem_block_get_part (self->block) : NULL;

  return AGUI_IS_TOOL_CALL_PART (part) ? AGUI_TOOL_CALL_PART (part) : NULL;
}

static AguiRole
get_role (TandemBlockRow *self)
{
  return agui_speaker_turn_get_role (tandem_block_get_message (self->block));
}

static void
update_actions (TandemBlockRow *self)
{
  AguiToolCallPart *call = get_tool_call (self);
  gboolean has_block = self->block != NULL;
  guint index = 0, n = 1;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.copy", has_block);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.copy-arguments", call != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.copy-result",
                                 call != NULL && agui_tool_call_part_get_result (call) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.regenerate",
                                 has_block && get_role (self) == AGUI_ROLE_ASSISTANT);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.edit",
                                 has_block && get_role (self) == AGUI_ROLE_USER && self->actions != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.menu", has_block);

  if (has_block && tandem_block_get_transcript (self->block) != NULL &&
      agui_transcript_get_branch_position (tandem_block_get_transcript (self->block),
                                           agui_speaker_turn_get_id (tandem_block_get_message (self->block)),
                                           &index, &n))
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.previous-branch", index > 0);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.next-branch", index + 1 < n);
    }
  else
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.previous-branch", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.next-branch", FALSE);
    }
}

static void
copy_text (TandemBlockRow *self,
           const char     *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text != NULL ? text : "");
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);
  g_autofree char *text = NULL;

  if (self->block == NULL)
    return;

  text = tandem_message_dup_markdown (tandem_block_get_message (self->block));
  /* A turn that is only tool calls has no text: its card is what it said */
  if (text[0] == '\0' && get_tool_call (self) != NULL)
    copy_text (self, agui_tool_call_part_get_arguments (get_tool_call (self)));
  else
    copy_text (self, text);
}

static void
copy_arguments_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  if (get_tool_call (self) != NULL)
    copy_text (self, agui_tool_call_part_get_arguments (get_tool_call (self)));
}

static void
copy_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  if (get_tool_call (self) != NULL)
    copy_text (self, agui_tool_call_part_get_result (get_tool_call (self)));
}

static void
regenerate_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  if (self->block != NULL)
    gtk_widget_activate_action (widget, "win.regenerate", "s",
                                agui_speaker_turn_get_id (tandem_block_get_message (self->block)));
}

static void
edit_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  if (self->actions != NULL)
    tandem_message_actions_begin_edit (TANDEM_MESSAGE_ACTIONS (self->actions));
}

static void
switch_branch (TandemBlockRow *self,
               int             step)
{
  AguiTranscript *transcript;
  const char *id;
  guint index, n;

  if (self->block == NULL || !(transcript = tandem_block_get_transcript (self->block)))
    return;

  id = agui_speaker_turn_get_id (tandem_block_get_message (self->block));
  if (!agui_transcript_get_branch_position (transcript, id, &index, &n) ||
      (step < 0 && index == 0) || (step > 0 && index + 1 >= n))
    return;

  gtk_widget_activate_action (GTK_WIDGET (self), "win.choose-branch", "(su)", id, index + step);
}

static void
previous_branch_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  switch_branch (TANDEM_BLOCK_ROW (widget), -1);
}

static void
next_branch_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  switch_branch (TANDEM_BLOCK_ROW (widget), 1);
}

static GMenuModel *
create_menu_model (TandemBlockRow *self)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) copy = g_menu_new ();
  g_autoptr(GMenu) change = g_menu_new ();

  g_menu_append (copy, _("_Copy Message"), "message.copy");
  if (get_tool_call (self) != NULL)
    {
      g_menu_append (copy, _("Copy _Arguments"), "message.copy-arguments");
      g_menu_append (copy, _("Copy _Result"), "message.copy-result");
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (copy));

  if (get_role (self) == AGUI_ROLE_ASSISTANT)
    g_menu_append (change, _("_Regenerate"), "message.regenerate");
  if (get_role (self) == AGUI_ROLE_USER && self->actions != NULL)
    g_menu_append (change, _("_Edit and Resend"), "message.edit");
  if (g_menu_model_get_n_items (G_MENU_MODEL (change)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (change));

  return G_MENU_MODEL (menu);
}

static void
popup_menu (TandemBlockRow *self,
            double          x,
            double          y)
{
  g_autoptr(GMenuModel) model = NULL;

  if (self->block == NULL)
    return;

  update_actions (self);
  model = create_menu_model (self);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  if (x >= 0 && y >= 0)
    tandem_popover_point_at (GTK_POPOVER (self->menu), x, y);
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  popup_menu (TANDEM_BLOCK_ROW (widget), -1, -1);
}

static void
on_secondary_pressed_cb (TandemBlockRow  *self,
                         int              n_press,
                         double           x,
                         double           y,
                         GtkGestureClick *gesture)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  GtkWidget *label = picked ? gtk_widget_get_ancestor (picked, GTK_TYPE_LABEL) : NULL;

  /* Text the person selected keeps its own menu (Copy, Select All) */
  if (label != NULL && gtk_label_get_selection_bounds (GTK_LABEL (label), NULL, NULL))
    return;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  popup_menu (self, x, y);
}

static void
on_label_has_focus_cb (GtkWidget *label)
{
  if (gtk_widget_has_focus (label))
    return;

  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_set_can_focus (label, FALSE);
  g_signal_handlers_disconnect_by_func (label, on_label_has_focus_cb, NULL);
}

/* The text is no stop for the keyboard (tabbing onto it selected all of
 * it), yet text clicked takes the focus, for Ctrl+C to copy what the
 * pointer selects, until the focus leaves it */
static void
on_primary_pressed_cb (TandemBlockRow *self,
                       int             n_press,
                       double          x,
                       double          y,
                       GtkGesture     *gesture)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  GtkWidget *label = picked == NULL || GTK_IS_LABEL (picked) ? picked : gtk_widget_get_ancestor (picked, GTK_TYPE_LABEL);

  if (label == NULL || !gtk_label_get_selectable (GTK_LABEL (label)) || gtk_widget_get_focusable (label))
    return;

  gtk_widget_set_can_focus (label, TRUE);
  gtk_widget_set_focusable (label, TRUE);
  g_signal_connect (label, "notify::has-focus", G_CALLBACK (on_label_has_focus_cb), NULL);
}

/* Shift+F10 and the Menu key, wherever the focus is in the row: a
 * selectable label would take them for its own menu (Cut, Copy, Paste)
 * though nothing is selected. Text the person selected, and text being
 * edited, keep theirs. */
static gboolean
on_key_pressed_cb (TandemBlockRow        *self,
                   guint                  keyval,
                   guint                  keycode,
                   GdkModifierType        state,
                   GtkEventControllerKey *controller)
{
  GdkModifierType modifiers = state & gtk_accelerator_get_default_mod_mask ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (!((keyval == GDK_KEY_F10 && modifiers == GDK_SHIFT_MASK) ||
        (keyval == GDK_KEY_Menu && modifiers == 0)))
    return FALSE;

  if (self->block == NULL ||
      (GTK_IS_LABEL (focus) && gtk_label_get_selection_bounds (GTK_LABEL (focus), NULL, NULL)) ||
      (focus != NULL && (gtk_widget_get_ancestor (focus, GTK_TYPE_TEXT_VIEW) != NULL ||
                         gtk_widget_get_ancestor (focus, GTK_TYPE_TEXT) != NULL)))
    return FALSE;

  /* The menu opens where the focus is */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self)) &&
      gtk_widget_compute_bounds (focus, GTK_WIDGET (self), &bounds))
    popup_menu (self, bounds.origin.x, bounds.origin.y + bounds.size.height);
  else
    popup_menu (self, -1, -1);

  return TRUE;
}

static void
on_editing_changed_cb (TandemBlockRow *self)
{
  gtk_widget_set_visible (self->child,
                          !tandem_message_actions_get_editing (TANDEM_MESSAGE_ACTIONS (self->actions)));
}

/**
 * tandem_block_row_popup_menu:
 * @self: a row
 *
 * Opens the row's context menu, as Shift+F10 does.
 */
void
tandem_block_row_popup_menu (TandemBlockRow *self)
{
  g_return_if_fail (TANDEM_IS_BLOCK_ROW (self));

  popup_menu (self, -1, -1);
}

static TandemBlockList *
find_block_list (TandemBlockRow *self)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_LIST_VIEW);
  GListModel *model = view != NULL ? G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (view))) : NULL;

  if (GTK_IS_NO_SELECTION (model))
    model = gtk_no_selection_get_model (GTK_NO_SELECTION (model));
  if (TANDEM_IS_BLOCK_WINDOW (model))
    model = tandem_block_window_get_source (TANDEM_BLOCK_WINDOW (model));

  return TANDEM_IS_BLOCK_LIST (model) ? TANDEM_BLOCK_LIST (model) : NULL;
}

static void
on_toggle_collapsed_cb (TandemBlockRow *self)
{
  TandemBlockList *list = find_block_list (self);

  if (list != NULL && self->block != NULL)
    tandem_block_list_set_attempt_collapsed (list, self->block, !tandem_block_get_collapsed (self->block));
}

/* A folded attempt keeps only its last block's line */
static void
on_collapsed_changed_cb (TandemBlockRow *self)
{
  gboolean collapsed = tandem_block_get_collapsed (self->block);
  AguiPart *part = tandem_block_get_part (self->block);
  gboolean end = part != NULL && agui_part_get_attempt_end (part) && tandem_block_get_last_of_part (self->block);

  if (TANDEM_IS_ATTEMPT_FRAME (self->child))
    tandem_attempt_frame_set_collapsed (TANDEM_ATTEMPT_FRAME (self->child), collapsed);
  gtk_widget_set_visible (GTK_WIDGET (self), !collapsed || end);
}

/* Floating actions */

static gboolean
wants_floating_actions (TandemBlockRow *self)
{
  AguiRole role;

  if (self->block == NULL || self->actions != NULL || tandem_block_get_first (self->block))
    return FALSE;

  role = get_role (self);
  return role == AGUI_ROLE_USER || role == AGUI_ROLE_ASSISTANT;
}

static void
ensure_floating_actions (TandemBlockRow *self)
{
  if (self->floating != NULL || !wants_floating_actions (self))
    return;

  self->floating = tandem_message_actions_new_column (self->block);
  gtk_widget_add_css_class (self->floating, "floating");
  /* Last, so it is drawn over the block and picked first */
  gtk_widget_insert_before (self->floating, GTK_WIDGET (self), NULL);
}

/* Where the floating actions' top goes, for a column @height tall: at
 * the block's top, or as much higher as keeps their bottom above the
 * floor. Above the block is the margin beside the block before, which
 * is as empty as this one's. */
static int
floating_y (TandemBlockRow *self,
            int             height)
{
  return MIN (0, self->floating_floor - height);
}

/* The pointer or the focus came: the actions show, with the time */
static void
show_actions (TandemBlockRow *self)
{
  ensure_floating_actions (self);
  if (self->actions != NULL)
    tandem_message_actions_update_time (TANDEM_MESSAGE_ACTIONS (self->actions));
  if (self->floating != NULL)
    tandem_message_actions_update_time (TANDEM_MESSAGE_ACTIONS (self->floating));
}

static gboolean
on_actions_tick_cb (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  self->actions_tick_id = 0;
  if (self->block != NULL)
    show_actions (self);

  return G_SOURCE_REMOVE;
}

static void
on_pointer_enter_cb (TandemBlockRow *self)
{
  /* On the next frame, before its layout, not now: the pointer also
   * comes to a row when the list view, laying itself out as the person
   * scrolls, takes away the row that was under it. A column added then
   * is not laid out before the frame is drawn: GTK 4.8 leaves the row
   * out of that frame and warns that it has no allocation. */
  if (self->actions_tick_id == 0)
    self->actions_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_actions_tick_cb, NULL, NULL);
}

static void
on_focus_enter_cb (TandemBlockRow *self)
{
  show_actions (self);
  /* A thread read back from the store learns its times as it is read */
  update_accessible_label (self);
}

/* Layout: the action line and the block one above the other, the
 * floating actions over the block, taking no room of their own */

static GtkSizeRequestMode
tandem_block_row_get_request_mode (GtkWidget *widget)
{
  /* Wrapped text: its height depends on the width it is given */
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tandem_block_row_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);

  *minimum = *natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int child_minimum, child_natural;

      if (child == self->floating || !gtk_widget_should_layout (child))
        continue;

      gtk_widget_measure (child, orientation, orientation == GTK_ORIENTATION_VERTICAL ? for_size : -1,
                          &child_minimum, &child_natural, NULL, NULL);
      if (orientation == GTK_ORIENTATION_VERTICAL)
        {
          *minimum += child_minimum;
          *natural += child_natural;
        }
      else
        {
          *minimum = MAX (*minimum, child_minimum);
          *natural = MAX (*natural, child_natural);
        }
    }
}

static void
tandem_block_row_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (widget);
  int total_natural = 0;
  int y = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int child_natural;

      if (child == self->floating || !gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, NULL, &child_natural, NULL, NULL);
      total_natural += child_natural;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int child_minimum, child_natural, child_height;

      if (child == self->floating || !gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, &child_minimum, &child_natural, NULL, NULL);
      child_height = total_natural <= height ? child_natural : child_minimum;
      gtk_widget_allocate (child, width, child_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
      y += child_height;
    }

  if (self->floating != NULL && gtk_widget_should_layout (self->floating))
    {
      GtkBorder padding;
      int floating_width, floating_height, x;

      gtk_widget_measure (self->floating, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &floating_width, NULL, NULL);
      gtk_widget_measure (self->floating, GTK_ORIENTATION_VERTICAL, floating_width, NULL, &floating_height, NULL, NULL);
      /* In the right margin, which the transcript keeps wide enough for
       * it (see style.css), at the block's top: beside the text, over
       * none of it. The row's padding is outside its content box, so
       * the column starts past the width allocated here. */
      gtk_style_context_get_padding (gtk_widget_get_style_context (widget), &padding);
      x = width + padding.right - floating_width - 2;
      gtk_widget_allocate (self->floating, floating_width, floating_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, floating_y (self, floating_height))));
    }

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
tandem_block_row_dispose (GObject *object)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  tandem_block_row_clear (self);

  G_OBJECT_CLASS (tandem_block_row_parent_class)->dispose (object);
}

static void
tandem_block_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      g_value_set_object (value, self->block);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TandemBlockRow *self = TANDEM_BLOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      tandem_block_row_set_block (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_row_class_init (TandemBlockRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_block_row_dispose;
  object_class->get_property = tandem_block_row_get_property;
  object_class->set_property = tandem_block_row_set_property;

  properties[PROP_BLOCK] =
    g_param_spec_object ("block", NULL, NULL, TANDEM_TYPE_BLOCK,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "message.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "message.copy-arguments", NULL, copy_arguments_action);
  gtk_widget_class_install_action (widget_class, "message.copy-result", NULL, copy_result_action);
  gtk_widget_class_install_action (widget_class, "message.regenerate", NULL, regenerate_action);
  gtk_widget_class_install_action (widget_class, "message.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "message.previous-branch", NULL, previous_branch_action);
  gtk_widget_class_install_action (widget_class, "message.next-branch", NULL, next_branch_action);
  gtk_widget_class_install_action (widget_class, "message.menu", NULL, menu_action);

  widget_class->get_request_mode = tandem_block_row_get_request_mode;
  widget_class->measure = tandem_block_row_measure;
  widget_class->size_allocate = tandem_block_row_size_allocate;

  gtk_widget_class_set_css_name (widget_class, "blockrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tandem_block_row_init (TandemBlockRow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->floating_floor = G_MAXINT;
  /* A message is a stop for the keyboard: the arrow keys walk the
   * transcript from one to the next, Tab goes on into its controls */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  /* Named again when shown, in its list's row and with the time the
   * message may have learned since */
  g_signal_connect (self, "map", G_CALLBACK (update_accessible_label), NULL);

  g_signal_connect_object (motion, "enter", G_CALLBACK (on_pointer_enter_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect_object (focus, "enter", G_CALLBACK (on_focus_enter_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
  /* Before the focused widget inside, as a selectable label has a menu
   * of its own on the same keys */
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  /* Before the labels inside, which have a menu of their own */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  /* Before the label clicked, which takes the focus if it can */
  click = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_primary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  update_actions (self);
}

GtkWidget *
tandem_block_row_new (void)
{
  return g_object_new (TANDEM_TYPE_BLOCK_ROW, NULL);
}

/**
 * tandem_block_row_set_actions_floor:
 * @self: a row
 * @floor: the lowest its floating actions may reach, in its own
 *   coordinates, or %G_MAXINT for anywhere
 *
 * Keeps a later block's actions, which float in the transcript's right
 * margin at the block's top, above what floats over the margin at the
 * bottom of the view (Jump to Latest): they move up instead, beside the
 * block before, so neither covers the other.
 */
void
tandem_block_row_set_actions_floor (TandemBlockRow *self,
                                    int             floor)
{
  int height;

  g_return_if_fail (TANDEM_IS_BLOCK_ROW (self));

  if (floor == self->floating_floor)
    return;

  /* Only a column that is there, and would move, is laid out again:
   * the window sets this on every row at every scroll */
  if (self->floating != NULL && gtk_widget_should_layout (self->floating))
    {
      height = gtk_widget_get_height (self->floating);
      if (floating_y (self, height) != MIN (0, floor - height))
        gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  self->floating_floor = floor;
}

/**
 * tandem_block_row_get_block:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the block drawn
 */
TandemBlock *
tandem_block_row_get_block (TandemBlockRow *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_ROW (self), NULL);

  return self->block;
}

/* Whether the child drawing the block shown can draw @block instead: a
 * person's message, or an agent's Markdown. GTK 4.8's list view keeps
 * its rows and gives each the next item to draw as the person scrolls;
 * building a row's widgets anew for each, their styles and their sizes
 * with them, was most of what a frame of scrolling cost. */
static gboolean
can_reuse_child (TandemBlockRow *self,
                 TandemBlock    *block)
{
  TandemBlockKind kind;

  if (self->block == NULL || self->child == NULL || block == NULL)
    return FALSE;

  kind = tandem_block_get_kind (block);
  return kind == tandem_block_get_kind (self->block) &&
         (kind == TANDEM_BLOCK_USER || kind == TANDEM_BLOCK_MARKDOWN);
}

static gboolean
wants_actions (TandemBlock *block)
{
  AguiRole role;

  if (block == NULL || !tandem_block_get_first (block))
    return FALSE;

  role = agui_speaker_turn_get_role (tandem_block_get_message (block));
  return role == AGUI_ROLE_USER || role == AGUI_ROLE_ASSISTANT;
}

void
tandem_block_row_set_block (TandemBlockRow *self,
                            TandemBlock    *block)
{
  gboolean keep_child, keep_actions;

  g_return_if_fail (TANDEM_IS_BLOCK_ROW (self));
  g_return_if_fail (block == NULL || TANDEM_IS_BLOCK (block));

  if (self->block == block)
    return;

  keep_child = can_reuse_child (self, block);
  keep_actions = self->actions != NULL && wants_actions (block);
  tandem_block_row_release (self, keep_child, keep_actions);
  set_classes (self, block);

  if (block != NULL)
    {
      self->block = g_object_ref (block);

      if (keep_child)
        {
          if (TANDEM_IS_MESSAGE_ROW (self->child))
            tandem_message_row_set_message (TANDEM_MESSAGE_ROW (self->child), tandem_block_get_message (block));
          else
            tandem_attempt_frame_set_part (TANDEM_ATTEMPT_FRAME (self->child), tandem_block_get_part (block));
          /* Hidden while the last message's edit was open */
          gtk_widget_set_visible (self->child, TRUE);
        }
      else
        {
          g_autoptr(GtkWidget) child = create_child (self);

          /* A spare may have been hidden with its last message's edit */
          gtk_widget_set_visible (child, TRUE);
          self->child = child;
          gtk_widget_set_parent (self->child, GTK_WIDGET (self));
          if (TANDEM_IS_ATTEMPT_FRAME (self->child))
            g_signal_connect_object (self->child, "toggle-collapsed", G_CALLBACK (on_toggle_collapsed_cb), self, G_CONNECT_SWAPPED);
        }
      g_signal_connect_object (block, "notify::collapsed", G_CALLBACK (on_collapsed_changed_cb), self, G_CONNECT_SWAPPED);
      on_collapsed_changed_cb (self);

      /* Only a message's first block says what can be done with it */
      if (keep_actions)
        {
          tandem_message_actions_set_block (TANDEM_MESSAGE_ACTIONS (self->actions), block);
        }
      else if (wants_actions (block))
        {
          g_autoptr(GtkWidget) actions = take_spare (is_action_line);

          if (actions != NULL)
            tandem_message_actions_set_block (TANDEM_MESSAGE_ACTIONS (actions), block);
          else
            actions = g_object_ref_sink (tandem_message_actions_new (block));
          self->actions = actions;
          gtk_widget_insert_before (self->actions, GTK_WIDGET (self), self->child);
          g_signal_connect_object (self->actions, "notify::editing", G_CALLBACK (on_editing_changed_cb),
                                   self, G_CONNECT_SWAPPED);
        }

      /* A message of the person's may get its words after its row */
      if (tandem_block_get_kind (block) == TANDEM_BLOCK_USER)
        {
          GListModel *parts = agui_speaker_turn_get_parts (tandem_block_get_message (block));

          g_signal_connect_object (parts, "items-changed", G_CALLBACK (on_user_parts_changed_cb), self, G_CONNECT_SWAPPED);
          on_user_parts_changed_cb (self, 0, 0, g_list_model_get_n_items (parts), parts);
        }

      if (tandem_block_get_kind (block) == TANDEM_BLOCK_MARKDOWN)
        {
          update_markdown (self);
          g_signal_connect_object (block, "changed", G_CALLBACK (on_block_changed_cb), self, G_CONNECT_SWAPPED);
        }
    }

  update_accessible_label (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
}
