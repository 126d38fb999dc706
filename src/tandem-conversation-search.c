/* tandem-conversation-search.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tandem-block-list.h"
#include "tandem-block-row.h"
#include "tandem-block-window.h"
#include "tandem-block.h"
#include "tandem-message-row.h"
#include "tandem-conversation-search.h"
#include "tandem-conversation-search-exclude.h"

/**
 * TandemConversationSearch:
 *
 * Find in Conversation: a search bar over the transcript view that counts
 * the matches of its query in the conversation's text (every block, not
 * only the rows on screen), steps through them, scrolls each into view
 * and highlights the matches in the rows shown.
 *
 * Counting reads the text each block's row shows, from the model, as
 * tandem_part_dup_text() gives it: the person's messages and their
 * files' names, the agent's Markdown source, other roles' text, the
 * reasoning (its folded section opens at the match stepped to), a tool
 * card's name, answer, arguments and result, an activity card's type and
 * content; not an A2UI surface, drawn from components. Highlighting works
 * on the labels of the rows shown, since the list view only makes rows
 * for what is on screen, leaving out the rows' own words (titles, states:
 * tandem_conversation_search_exclude()); rendered Markdown drops its
 * marks, so a query spanning `**` is counted in the source and may show
 * no highlight. Case does not matter.
 *
 * A long conversation is counted a slice at a time, from its first
 * block, when the main loop has nothing more urgent: the first match is
 * stepped to as soon as it is found, and the bar shows the count as it
 * grows ("1 of 12…"). A change to the conversation counts again only the
 * blocks it touched.
 */

/* A block not counted yet */
#define UNCOUNTED G_MAXUINT

/* The text counted in one slice: a millisecond or two of the main loop */
#define SLICE_BYTES (64 * 1024)

struct _TandemConversationSearch
{
  GtkWidget    parent_instance;

  GtkWidget   *search_bar;
  GtkWidget   *entry;
  GtkWidget   *status;
  GtkWidget   *previous_button;
  GtkWidget   *next_button;

  GtkListView *view;
  GListModel  *blocks;        /* all of the conversation's */
  TandemBlockWindow *window;  /* what the view shows of them, if not all */
  char        *query;
  GArray      *counts;        /* of guint: matches in each block, or UNCOUNTED */
  guint        n_matches;     /* in the blocks counted */
  guint        n_uncounted;
  guint        first_uncounted;  /* no block before it is UNCOUNTED */
  char        *status_text;
  guint        current_block;  /* of the match stepped to, or G_MAXUINT */
  guint        current_nth;    /* which match in that block */
  guint        count_id;
  TandemBlock *last_block;    /* watched: it grows as an answer streams */
  gulong       last_block_changed_id;
  guint        step_pending : 1;  /* a new query: step to its first match when found */
  guint        highlight_id;
  guint        highlight_frames;
  guint        highlighted : 1;  /* some label may still carry a highlight */
  guint        rescroll : 2;     /* frames to scroll again in: the view was given other rows */
};

G_DEFINE_FINAL_TYPE (TandemConversationSearch, tandem_conversation_search, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_ACTIVE, PROP_CURRENT, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* Blocks either side of a match far from what the view shows, when the
 * view is given a window of its own around the match: each is a row
 * made in the frame that shows the match; the window grows from there,
 * a few rows a frame */
#define MATCH_MARGIN 3

/* Matching */

/* The end of @query matched at @text, case aside, or NULL */
static const char *
match_at (const char *text,
          const char *end,
          const char *query)
{
  const char *t = text;

  for (const char *q = query; *q != '\0'; q = g_utf8_next_char (q))
    {
      if (t >= end)
        return NULL;
      if (g_unichar_tolower (g_utf8_get_char (t)) != g_unichar_tolower (g_utf8_get_char (q)))
        return NULL;
      t = g_utf8_next_char (t);
    }

  return t;
}

/**
 * tandem_conversation_search_count:
 * @text: valid UTF-8
 * @length: its length in bytes
 * @query: what to find, not empty
 * @offsets: (nullable) (element-type guint): receives a start and an end
 *   byte offset for each match
 *
 * Returns: how often @query occurs in @text, case aside, matches not
 *   overlapping
 */
guint
tandem_conversation_search_count (const char *text,
                                  gsize       length,
                                  const char *query,
                                  GArray     *offsets)
{
  const char *end = text + length;
  gunichar first;
  guint n = 0;

  g_return_val_if_fail (query != NULL && query[0] != '\0', 0);

  first = g_unichar_tolower (g_utf8_get_char (query));
  for (const char *p = text; p != NULL && p < end;)
    {
      const char *match_end;

      /* Most places fail at the first character: an ASCII one is told
       * apart without decoding (a character beyond ASCII may still
       * lower to an ASCII one, so those take the long way) */
      if ((guchar) *p < 0x80 && (gunichar) g_ascii_tolower (*p) != first)
        {
          p++;
          continue;
        }

      match_end = match_at (p, end, query);
      if (match_end == NULL)
        {
          p = g_utf8_next_char (p);
          continue;
        }

      if (offsets != NULL)
        {
          guint start_offset = p - text, end_offset = match_end - text;

          g_array_append_val (offsets, start_offset);
          g_array_append_val (offsets, end_offset);
        }
      n++;
      p = match_end;
    }

  return n;
}

/* What of @block can be found: what its row shows, see the class overview */
static char *
dup_block_text (TandemBlock *block)
{
  AguiSpeakerTurn *message = tandem_block_get_message (block);
  AguiPart *part = tandem_block_get_part (block);
  const char *start;
  gsize length;

  switch (tandem_block_get_kind (block))
    {
    case TANDEM_BLOCK_USER:
      {
        GListModel *parts = agui_speaker_turn_get_parts (message);
        GString *text = g_string_new (NULL);

        /* The person's message is drawn whole, a widget for each part */
        for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
          {
            g_autoptr(AguiPart) item = g_list_model_get_item (parts, i);
            g_autofree char *piece = tandem_part_dup_text (AGUI_ROLE_USER, item);

            if (piece[0] == '\0')
              continue;
            if (text->len > 0)
              g_string_append_c (text, '\n');
            g_string_append (text, piece);
          }

        return g_string_free (text, FALSE);
      }

    case TANDEM_BLOCK_MARKDOWN:
      start = tandem_block_peek_text (block, &length);
      return g_strndup (start != NULL ? start : "", start != NULL ? length : 0);

    case TANDEM_BLOCK_TEXT:
    case TANDEM_BLOCK_REASONING:
    case TANDEM_BLOCK_TOOL_CALL:
    case TANDEM_BLOCK_ACTIVITY:
    case TANDEM_BLOCK_MEDIA:
    default:
      return part != NULL ? tandem_part_dup_text (agui_speaker_turn_get_role (message), part) : g_strdup ("");
    }
}

/* Highlighting */

static PangoAttrList *
create_highlights (const char *text,
                   const char *query,
                   guint      *counter,
                   guint       current_nth,
                   gboolean    in_current_block)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint));
  PangoAttrList *attrs;

  if (tandem_conversation_search_count (text, strlen (text), query, offsets) == 0)
    return NULL;

  attrs = pango_attr_list_new ();
  for (guint i = 0; i + 1 < offsets->len; i += 2)
    {
      gboolean current = in_current_block && *counter == current_nth;
      PangoAttribute *background;
      PangoAttribute *foreground;

      /* Yellow for a match, orange for the one stepped to, with dark
       * text on both whatever the style */
      background = current ? pango_attr_background_new (0xffff, 0x9999, 0x0000)
                           : pango_attr_background_new (0xffff, 0xeeee, 0x5555);
      foreground = pango_attr_foreground_new (0x1111, 0x1111, 0x1111);
      background->start_index = foreground->start_index = g_array_index (offsets, guint, i);
      background->end_index = foreground->end_index = g_array_index (offsets, guint, i + 1);
      pango_attr_list_insert (attrs, background);
      pango_attr_list_insert (attrs, foreground);
      (*counter)++;
    }

  return attrs;
}

typedef struct
{
  const char *query;
  guint       counter;      /* matches met so far in the row */
  guint       current_nth;  /* the one stepped to, if in this row */
  gboolean    in_current_block;
  GPtrArray  *folded;       /* the folded expanders around the label being done */
  GPtrArray  *unfold;       /* those around the match stepped to */
} Highlight;

static void
highlight_labels (GtkWidget *widget,
                  Highlight *state)
{
  if (tandem_conversation_search_is_excluded (widget))
    return;

  if (GTK_IS_LABEL (widget))
    {
      g_autoptr(PangoAttrList) attrs = NULL;
      guint before = state->counter;
      PangoAttrList *old;

      if (state->query != NULL)
        attrs = create_highlights (gtk_label_get_text (GTK_LABEL (widget)), state->query,
                                   &state->counter, state->current_nth, state->in_current_block);
      /* New attributes lay the label out again: only when they differ */
      old = gtk_label_get_attributes (GTK_LABEL (widget));
      if ((attrs != NULL || old != NULL) &&
          (attrs == NULL || old == NULL || !pango_attr_list_equal (attrs, old)))
        gtk_label_set_attributes (GTK_LABEL (widget), attrs);
      if (state->in_current_block && before <= state->current_nth && state->current_nth < state->counter)
        for (guint i = 0; i < state->folded->len; i++)
          g_ptr_array_add (state->unfold, state->folded->pdata[i]);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    highlight_labels (child, state);

  /* A folded expander keeps its child out of the widget tree, yet its
   * text counts: its labels are done too, in the order shown, and it
   * opens if the match stepped to is in there */
  if (GTK_IS_EXPANDER (widget) && !gtk_expander_get_expanded (GTK_EXPANDER (widget)) &&
      gtk_expander_get_child (GTK_EXPANDER (widget)) != NULL)
    {
      g_ptr_array_add (state->folded, widget);
      highlight_labels (gtk_expander_get_child (GTK_EXPANDER (widget)), state);
      g_ptr_array_remove_index (state->folded, state->folded->len - 1);
    }
}

static void
collect_rows (GtkWidget *widget,
              GPtrArray *rows)
{
  if (TANDEM_IS_BLOCK_ROW (widget))
    {
      g_ptr_array_add (rows, widget);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_rows (child, rows);
}

static void
highlight (TandemConversationSearch *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(TandemBlock) current_block = NULL;
  gboolean active = tandem_conversation_search_get_active (self);
  const char *query = active && self->query != NULL && self->query[0] != '\0' ? self->query : NULL;
  guint current_nth = 0;

  if (self->view == NULL)
    return;

  if (query != NULL)
    self->highlighted = TRUE;

  if (query != NULL && self->current_block != G_MAXUINT && self->blocks != NULL)
    {
      current_block = g_list_model_get_item (self->blocks, self->current_block);
      current_nth = self->current_nth;
    }

  collect_rows (GTK_WIDGET (self->view), rows);
  for (guint i = 0; i < rows->len; i++)
    {
      TandemBlock *block = tandem_block_row_get_block (rows->pdata[i]);
      g_autoptr(GPtrArray) folded = g_ptr_array_new ();
      g_autoptr(GPtrArray) unfold = g_ptr_array_new ();
      Highlight state = { query, 0, current_nth, block != NULL && block == current_block, folded, unfold };

      highlight_labels (rows->pdata[i], &state);
      for (guint k = 0; k < unfold->len; k++)
        gtk_expander_set_expanded (unfold->pdata[k], TRUE);
    }
}

static gboolean
highlight_tick_cb (GtkWidget     *widget,
                   GdkFrameClock *clock,
                   gpointer       user_data)
{
  TandemConversationSearch *self = user_data;

  /* A list view given other rows (a window around a match far back)
   * scrolls among rows it has not measured yet, and loses the place when
   * its own size changes before it lays them out (the search bar opening
   * as the first match is stepped to): ask again in the next two frames,
   * after a layout of the new rows */
  if (self->rescroll > 0 && self->current_block != G_MAXUINT)
    gtk_widget_activate_action (widget, "list.scroll-to-item", "u",
                                tandem_block_window_to_window (self->window, self->current_block, MATCH_MARGIN));
  if (self->rescroll > 0)
    self->rescroll--;

  highlight (self);
  if (--self->highlight_frames > 0)
    return G_SOURCE_CONTINUE;

  self->highlight_id = 0;
  return G_SOURCE_REMOVE;
}

/* Rows scrolled to are made in the layout of the frame that follows, and
 * a row the list view kept aside comes back with its old labels: so the
 * labels are done at the start of the next two frames, after those
 * layouts. */
static void
queue_highlight (TandemConversationSearch *self)
{
  if (self->view == NULL)
    return;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self->view)))
    {
      highlight (self);
      return;
    }

  self->highlight_frames = 2;
  if (self->highlight_id == 0)
    self->highlight_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), highlight_tick_cb, self, NULL);
}

/* Searching */

static void
update_status (TandemConversationSearch *self)
{
  guint n = self->n_matches;
  int current = tandem_conversation_search_get_current (self);

  g_clear_pointer (&self->status_text, g_free);
  if (self->query == NULL || self->query[0] == '\0')
    self->status_text = g_strdup ("");
  else if (n == 0 && self->n_uncounted > 0)
    self->status_text = g_strdup (_("Searching…"));
  else if (n == 0)
    self->status_text = g_strdup (_("No results"));
  else if (self->n_uncounted > 0)
    /* Translators: the match stepped to, and how many were found so far
     * in a long conversation still being searched */
    self->status_text = g_strdup_printf (_("%d of %u…"), current + 1, n);
  else
    /* Translators: the match stepped to, and how many there are */
    self->status_text = g_strdup_printf (_("%d of %u"), current + 1, n);

  gtk_label_set_text (GTK_LABEL (self->status), self->status_text);
  gtk_widget_set_sensitive (self->previous_button, n > 0);
  gtk_widget_set_sensitive (self->next_button, n > 0);
}

/* The block and the match in it of the @index-th match counted */
static gboolean
locate_match (TandemConversationSearch *self,
              guint                     index,
              guint                    *block,
              guint                    *nth)
{
  for (guint i = 0; i < self->counts->len; i++)
    {
      guint count = g_array_index (self->counts, guint, i);

      if (count == UNCOUNTED)
        continue;
      if (index < count)
        {
          *block = i;
          *nth = index;
          return TRUE;
        }
      index -= count;
    }

  return FALSE;
}

static void
show_current (TandemConversationSearch *self)
{
  update_status (self);
  if (self->current_block != G_MAXUINT && self->view != NULL)
    {
      guint position = self->current_block;

      if (self->window != NULL)
        {
          guint offset = tandem_block_window_get_offset (self->window);

          position = tandem_block_window_to_window (self->window, position, MATCH_MARGIN);
          if (offset != tandem_block_window_get_offset (self->window))
            self->rescroll = 2;
        }
      gtk_widget_activate_action (GTK_WIDGET (self->view), "list.scroll-to-item", "u", position);
    }
  queue_highlight (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT]);
}

/* Every block to be counted again, from the first */
static void watch_last_block (TandemConversationSearch *self);

static void
uncount_all (TandemConversationSearch *self)
{
  gboolean asked = self->blocks != NULL && self->query != NULL && self->query[0] != '\0';
  guint n;

  /* A long conversation just opened may not have all its blocks yet:
   * matches are counted from the first message */
  if (asked && TANDEM_IS_BLOCK_LIST (self->blocks))
    tandem_block_list_take_all (TANDEM_BLOCK_LIST (self->blocks));
  n = asked ? g_list_model_get_n_items (self->blocks) : 0;

  g_array_set_size (self->counts, n);
  for (guint i = 0; i < n; i++)
    g_array_index (self->counts, guint, i) = UNCOUNTED;
  self->n_matches = 0;
  self->n_uncounted = n;
  self->first_uncounted = 0;
  watch_last_block (self);
}

static void
uncount (TandemConversationSearch *self,
         guint                     position)
{
  guint *count = &g_array_index (self->counts, guint, position);

  if (*count == UNCOUNTED)
    return;

  self->n_matches -= *count;
  self->n_uncounted++;
  self->first_uncounted = MIN (self->first_uncounted, position);
  *count = UNCOUNTED;
}

/* Counts the next blocks not counted yet, SLICE_BYTES of their text at
 * most; TRUE when some are left */
static gboolean
count_slice (TandemConversationSearch *self)
{
  gsize done = 0;
  guint i;

  for (i = self->first_uncounted; i < self->counts->len && self->n_uncounted > 0 && done < SLICE_BYTES; i++)
    {
      guint *count = &g_array_index (self->counts, guint, i);
      g_autoptr(TandemBlock) block = NULL;
      g_autofree char *text = NULL;
      gsize length;

      if (*count != UNCOUNTED)
        continue;

      block = g_list_model_get_item (self->blocks, i);
      if (tandem_block_get_kind (block) == TANDEM_BLOCK_MARKDOWN)
        {
          /* Its stretch of the part's text, without a copy */
          const char *start = tandem_block_peek_text (block, &length);

          *count = start != NULL ? tandem_conversation_search_count (start, length, self->query, NULL) : 0;
        }
      else
        {
          text = dup_block_text (block);
          length = strlen (text);
          *count = tandem_conversation_search_count (text, length, self->query, NULL);
        }
      self->n_matches += *count;
      self->n_uncounted--;
      done += length + 1;
    }
  self->first_uncounted = i;

  return self->n_uncounted > 0;
}

static gboolean count_cb (gpointer user_data);

/* Counts a slice now, and the rest a slice at a time after input, at
 * the priority of GTK's redraws, so that a frame and a slice take turns.
 * Not at G_PRIORITY_DEFAULT_IDLE: while the find bar's cursor blinks, the
 * window is redrawn frame after frame, and on a slow machine each frame
 * is late, so the redraw is always ready and such an idle did not run
 * until the blinking stopped, 10 s later (the count stood still). The
 * match stepped to is kept, or the next one after it if it went; the
 * first one found if there was none, stepped to (brought into view) for
 * a new query. */
static void
count_some (TandemConversationSearch *self)
{
  int current;

  if (count_slice (self))
    {
      if (self->count_id == 0)
        self->count_id = g_idle_add_full (GDK_PRIORITY_REDRAW, count_cb, self, NULL);
    }
  else
    g_clear_handle_id (&self->count_id, g_source_remove);

  if (self->current_block != G_MAXUINT && self->current_block < self->counts->len)
    {
      guint count = g_array_index (self->counts, guint, self->current_block);

      if (count == UNCOUNTED || self->current_nth < count)
        {
          update_status (self);
          queue_highlight (self);
          return;
        }
    }

  /* The first match after the place, or the last one before it */
  current = -1;
  if (self->current_block != G_MAXUINT)
    {
      guint index = 0;

      for (guint i = 0; i < self->counts->len && current < 0; i++)
        {
          guint count = g_array_index (self->counts, guint, i);

          if (count == UNCOUNTED)
            continue;
          if (i >= self->current_block && count > 0)
            current = index;
          index += count;
        }
      if (current < 0 && self->n_matches > 0 && self->n_uncounted == 0)
        current = self->n_matches - 1;
    }
  else if (self->n_matches > 0)
    current = 0;

  if (current >= 0 && locate_match (self, current, &self->current_block, &self->current_nth))
    {
      if (self->step_pending)
        {
          self->step_pending = FALSE;
          show_current (self);
          return;
        }
      update_status (self);
      queue_highlight (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT]);
    }
  else
    {
      /* Still looking: the place is kept until its block is counted */
      if (self->n_uncounted == 0)
        self->current_block = G_MAXUINT;
      update_status (self);
      queue_highlight (self);
    }
}

static gboolean
count_cb (gpointer user_data)
{
  TandemConversationSearch *self = user_data;

  self->count_id = 0;
  count_some (self);

  return G_SOURCE_REMOVE;
}

/* The conversation grew or changed: count again what changed, keep the
 * place */
static void
on_blocks_items_changed_cb (TandemConversationSearch *self,
                            guint                     position,
                            guint                     removed,
                            guint                     added,
                            GListModel               *blocks)
{
  guint n;

  if (self->counts->len == 0 && self->n_uncounted == 0 &&
      (self->query == NULL || self->query[0] == '\0' || !tandem_conversation_search_get_active (self)))
    return;

  for (guint i = position; i < position + removed; i++)
    {
      guint count = g_array_index (self->counts, guint, i);

      if (count == UNCOUNTED)
        self->n_uncounted--;
      else
        self->n_matches -= count;
    }
  g_array_remove_range (self->counts, position, removed);
  g_array_set_size (self->counts, self->counts->len + added);
  if (added > 0 && position + added < self->counts->len)
    memmove (&g_array_index (self->counts, guint, position + added),
             &g_array_index (self->counts, guint, position),
             (self->counts->len - position - added) * sizeof (guint));
  for (guint i = position; i < position + added; i++)
    g_array_index (self->counts, guint, i) = UNCOUNTED;
  self->n_uncounted += added;
  self->first_uncounted = MIN (self->first_uncounted, position);

  if (self->current_block != G_MAXUINT)
    {
      if (self->current_block >= position + removed)
        self->current_block = self->current_block - removed + added;
      else if (self->current_block >= position)
        {
          self->current_block = position;
          self->current_nth = 0;
        }
    }

  /* The block before the change may have been cut short, and the last
   * one grows as an answer streams */
  n = self->counts->len;
  if (position > 0 && position - 1 < n)
    uncount (self, position - 1);
  if (n > 0)
    uncount (self, n - 1);
  watch_last_block (self);

  /* A stream changes blocks many times a second: count (and highlight)
   * at most 5 times */
  if (self->count_id == 0)
    self->count_id = g_timeout_add (200, count_cb, self);
}

/* Text appended to the conversation's last block changes the block, not
 * the list: an answer counted as it began is counted again as it grows,
 * at most 5 times a second as above */
static void
on_last_block_changed_cb (TandemConversationSearch *self)
{
  if (self->counts->len == 0)
    return;

  uncount (self, self->counts->len - 1);
  if (self->count_id == 0)
    self->count_id = g_timeout_add (200, count_cb, self);
}

/* Follows the block at the end of what is counted (none when nothing is) */
static void
watch_last_block (TandemConversationSearch *self)
{
  g_autoptr(TandemBlock) last = NULL;

  if (self->counts->len > 0 && self->blocks != NULL)
    last = g_list_model_get_item (self->blocks, self->counts->len - 1);
  if (last == self->last_block)
    return;

  if (self->last_block != NULL)
    g_clear_signal_handler (&self->last_block_changed_id, self->last_block);
  g_set_object (&self->last_block, last);
  if (self->last_block != NULL)
    self->last_block_changed_id = g_signal_connect_object (self->last_block, "changed",
                                                           G_CALLBACK (on_last_block_changed_cb),
                                                           self, G_CONNECT_SWAPPED);
}

static void
search (TandemConversationSearch *self,
        const char               *query)
{
  if (g_strcmp0 (self->query, query) == 0)
    return;

  g_free (self->query);
  self->query = g_strdup (query);
  g_clear_handle_id (&self->count_id, g_source_remove);
  uncount_all (self);
  self->current_block = G_MAXUINT;
  self->step_pending = TRUE;
  count_some (self);
  if (self->step_pending)
    show_current (self);
}

static void
on_search_changed_cb (TandemConversationSearch *self)
{
  search (self, gtk_editable_get_text (GTK_EDITABLE (self->entry)));
}

static void
on_search_mode_changed_cb (TandemConversationSearch *self)
{
  g_clear_handle_id (&self->count_id, g_source_remove);
  if (!tandem_conversation_search_get_active (self))
    {
      g_array_set_size (self->counts, 0);
      self->n_matches = self->n_uncounted = self->first_uncounted = 0;
      update_status (self);
      queue_highlight (self);
    }
  else
    {
      uncount_all (self);
      count_some (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}

static void
on_stop_search_cb (TandemConversationSearch *self)
{
  tandem_conversation_search_close (self);
}

static void
on_view_scrolled_cb (TandemConversationSearch *self)
{
  /* Closed, a row may come back highlighted from before */
  if (tandem_conversation_search_get_active (self) || self->highlighted)
    queue_highlight (self);
}

static GtkWidget *
create_icon_button (const char *icon_name,
                    const char *label,
                    GCallback   callback,
                    gpointer    user_data)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  g_signal_connect_swapped (button, "clicked", callback, user_data);

  return button;
}

/* GObject */

static void
tandem_conversation_search_dispose (GObject *object)
{
  TandemConversationSearch *self = TANDEM_CONVERSATION_SEARCH (object);

  g_clear_handle_id (&self->count_id, g_source_remove);
  if (self->highlight_id != 0 && self->view != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->highlight_id);
  self->highlight_id = 0;
  tandem_conversation_search_set_blocks (self, NULL);
  g_array_set_size (self->counts, 0);
  watch_last_block (self);
  tandem_conversation_search_set_view (self, NULL);
  g_clear_pointer (&self->search_bar, gtk_widget_unparent);

  G_OBJECT_CLASS (tandem_conversation_search_parent_class)->dispose (object);
}

static void
tandem_conversation_search_finalize (GObject *object)
{
  TandemConversationSearch *self = TANDEM_CONVERSATION_SEARCH (object);

  g_clear_pointer (&self->counts, g_array_unref);
  g_clear_pointer (&self->query, g_free);
  g_clear_pointer (&self->status_text, g_free);

  G_OBJECT_CLASS (tandem_conversation_search_parent_class)->finalize (object);
}

static void
tandem_conversation_search_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  TandemConversationSearch *self = TANDEM_CONVERSATION_SEARCH (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      g_value_set_boolean (value, tandem_conversation_search_get_active (self));
      break;
    case PROP_CURRENT:
      g_value_set_int (value, tandem_conversation_search_get_current (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_conversation_search_class_init (TandemConversationSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tandem_conversation_search_dispose;
  object_class->finalize = tandem_conversation_search_finalize;
  object_class->get_property = tandem_conversation_search_get_property;

  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_CURRENT] =
    g_param_spec_int ("current", NULL, NULL, -1, G_MAXINT, -1,
                      (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "conversationsearch");
}

static void
tandem_conversation_search_init (TandemConversationSearch *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *clamp;

  self->counts = g_array_new (FALSE, FALSE, sizeof (guint));
  self->current_block = G_MAXUINT;

  self->entry = gtk_search_entry_new ();
  gtk_widget_set_hexpand (self->entry, TRUE);
  g_object_set (self->entry, "placeholder-text", _("Find in conversation"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find in conversation"),
                                  -1);
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (on_search_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (tandem_conversation_search_next), self);
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (tandem_conversation_search_next), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (tandem_conversation_search_previous), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (on_stop_search_cb), self);

  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_add_css_class (self->status, "numeric");
  gtk_label_set_width_chars (GTK_LABEL (self->status), 9);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Matches"),
                                  -1);

  self->previous_button = create_icon_button ("go-up-symbolic", _("Previous Match"),
                                              G_CALLBACK (tandem_conversation_search_previous), self);
  self->next_button = create_icon_button ("go-down-symbolic", _("Next Match"),
                                          G_CALLBACK (tandem_conversation_search_next), self);
  gtk_widget_add_css_class (buttons, "linked");
  gtk_box_append (GTK_BOX (buttons), self->previous_button);
  gtk_box_append (GTK_BOX (buttons), self->next_button);

  gtk_box_append (GTK_BOX (box), self->entry);
  gtk_box_append (GTK_BOX (box), self->status);
  gtk_box_append (GTK_BOX (box), buttons);

  /* As wide as a phone at most, and no wider than the window: a fixed
   * width would hold a narrow window wide */
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 360);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 360);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);

  self->search_bar = gtk_search_bar_new ();
  gtk_search_bar_set_child (GTK_SEARCH_BAR (self->search_bar), clamp);
  gtk_search_bar_set_show_close_button (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_search_bar_connect_entry (GTK_SEARCH_BAR (self->search_bar), GTK_EDITABLE (self->entry));
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (on_search_mode_changed_cb), self);
  gtk_widget_set_parent (self->search_bar, GTK_WIDGET (self));

  update_status (self);
}

/* API */

GtkWidget *
tandem_conversation_search_new (void)
{
  return g_object_new (TANDEM_TYPE_CONVERSATION_SEARCH, NULL);
}

/**
 * tandem_conversation_search_set_view:
 * @self: the search
 * @view: (nullable): the transcript view, to scroll and highlight
 */
void
tandem_conversation_search_set_view (TandemConversationSearch *self,
                                     GtkListView              *view)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));
  g_return_if_fail (!view || GTK_IS_LIST_VIEW (view));

  if (self->view == view)
    return;

  if (self->view != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view));

      if (self->highlight_id != 0)
        gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->highlight_id);
      self->highlight_id = 0;
      if (adjustment != NULL)
        g_signal_handlers_disconnect_by_data (adjustment, self);
      g_object_remove_weak_pointer (G_OBJECT (self->view), (gpointer *) &self->view);
    }

  self->view = view;

  if (self->view != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view));

      g_object_add_weak_pointer (G_OBJECT (self->view), (gpointer *) &self->view);
      if (adjustment != NULL)
        g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (on_view_scrolled_cb),
                                 self, G_CONNECT_SWAPPED);
    }
}

/**
 * tandem_conversation_search_set_blocks:
 * @self: the search
 * @blocks: (nullable): the conversation's blocks, as the view shows them:
 *   all of them, or a [class@Tandem.BlockWindow] on them, which is moved
 *   to each match stepped to (every block is searched)
 */
void
tandem_conversation_search_set_blocks (TandemConversationSearch *self,
                                       GListModel               *blocks)
{
  TandemBlockWindow *window;
  GListModel *all;

  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));
  g_return_if_fail (!blocks || G_IS_LIST_MODEL (blocks));

  window = TANDEM_IS_BLOCK_WINDOW (blocks) ? TANDEM_BLOCK_WINDOW (blocks) : NULL;
  all = window != NULL ? tandem_block_window_get_source (window) : blocks;
  if (self->blocks == all && self->window == window)
    return;

  g_set_object (&self->window, window);
  if (self->blocks != NULL)
    g_signal_handlers_disconnect_by_data (self->blocks, self);
  g_set_object (&self->blocks, all);
  if (self->blocks != NULL)
    g_signal_connect_object (self->blocks, "items-changed", G_CALLBACK (on_blocks_items_changed_cb),
                             self, G_CONNECT_SWAPPED);

  /* Another conversation: its own matches, from the first; its rows
   * are made afresh */
  self->current_block = G_MAXUINT;
  self->highlighted = FALSE;
  g_clear_handle_id (&self->count_id, g_source_remove);
  if (tandem_conversation_search_get_active (self))
    {
      uncount_all (self);
      count_some (self);
    }
  else
    {
      g_array_set_size (self->counts, 0);
      self->n_matches = self->n_uncounted = self->first_uncounted = 0;
      watch_last_block (self);
    }
}

/**
 * tandem_conversation_search_open:
 * @self: the search
 *
 * Shows the search bar and puts the focus in it, its text selected.
 */
void
tandem_conversation_search_open (TandemConversationSearch *self)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_widget_grab_focus (self->entry);
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

void
tandem_conversation_search_close (TandemConversationSearch *self)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), FALSE);
}

gboolean
tandem_conversation_search_get_active (TandemConversationSearch *self)
{
  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), FALSE);

  return self->search_bar != NULL && gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->search_bar));
}

/**
 * tandem_conversation_search_set_query:
 * @self: the search
 * @query: (nullable): what to find
 *
 * Finds @query, as typing it does: the first match is stepped to.
 */
void
tandem_conversation_search_set_query (TandemConversationSearch *self,
                                      const char               *query)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));

  if (query == NULL)
    query = "";

  /* The entry shows what is searched; its own search-changed comes later
   * and finds the search done */
  if (g_strcmp0 (query, gtk_editable_get_text (GTK_EDITABLE (self->entry))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->entry), query);

  search (self, query);
}

guint
tandem_conversation_search_get_n_matches (TandemConversationSearch *self)
{
  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), 0);

  return self->n_matches;
}

/**
 * tandem_conversation_search_get_counting:
 * @self: the search
 *
 * Returns: whether some of the conversation is still to be searched:
 *   the number of matches may still grow
 */
gboolean
tandem_conversation_search_get_counting (TandemConversationSearch *self)
{
  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), FALSE);

  return self->n_uncounted > 0;
}

/**
 * tandem_conversation_search_get_current:
 * @self: the search
 *
 * Returns: the match stepped to, from 0, or -1 when there is none
 */
int
tandem_conversation_search_get_current (TandemConversationSearch *self)
{
  guint index = 0;

  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), -1);

  if (self->current_block == G_MAXUINT || self->current_block >= self->counts->len)
    return -1;

  for (guint i = 0; i < self->current_block; i++)
    {
      guint count = g_array_index (self->counts, guint, i);

      if (count != UNCOUNTED)
        index += count;
    }

  return (int) (index + self->current_nth);
}

/**
 * tandem_conversation_search_get_current_block:
 * @self: the search
 *
 * Returns: the position in all the conversation's blocks of the match
 *   stepped to, or %GTK_INVALID_LIST_POSITION
 */
guint
tandem_conversation_search_get_current_block (TandemConversationSearch *self)
{
  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), GTK_INVALID_LIST_POSITION);

  if (self->current_block == G_MAXUINT)
    return GTK_INVALID_LIST_POSITION;

  return self->current_block;
}

void
tandem_conversation_search_next (TandemConversationSearch *self)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));

  if (self->n_matches == 0)
    return;

  locate_match (self, (guint) (tandem_conversation_search_get_current (self) + 1) % self->n_matches,
                &self->current_block, &self->current_nth);
  show_current (self);
}

void
tandem_conversation_search_previous (TandemConversationSearch *self)
{
  g_return_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self));

  if (self->n_matches == 0)
    return;

  locate_match (self, (guint) (tandem_conversation_search_get_current (self) + (int) self->n_matches - 1) % self->n_matches,
                &self->current_block, &self->current_nth);
  show_current (self);
}

/**
 * tandem_conversation_search_get_status:
 * @self: the search
 *
 * Returns: what the bar says of the matches: "2 of 5", "No results", or
 *   nothing without a query
 */
const char *
tandem_conversation_search_get_status (TandemConversationSearch *self)
{
  g_return_val_if_fail (TANDEM_IS_CONVERSATION_SEARCH (self), NULL);

  return self->status_text;
}
