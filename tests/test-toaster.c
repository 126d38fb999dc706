/* test-toaster.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <adwaita.h>

#include "tandem-test-window.h"
#include "tandem-toaster.h"

/* Each toast sequence a person can cause, a few hundred times, on real
 * overlays whose animations play. Many overlays run at once, each its
 * own sequence, so the hundreds take seconds, not minutes. With
 * libadwaita 1.2 and the toaster's queue turned off
 * (TANDEM_TEST_TOASTER_PLAIN=1, or a list of the sequences to run:
 * TANDEM_TEST_TOASTER_PLAIN=show,undo) this crashes within a few rounds. */

#define CELLS         20
#define ROUNDS        10
#define DEADLINE_S    120

typedef enum
{
  SEQUENCE_SHOW,         /* shown, closed at once */
  SEQUENCE_REPLACE,      /* a HIGH toast takes a NORMAL one's place */
  SEQUENCE_UNDO,         /* its button clicked at once */
  SEQUENCE_HIDE_DISMISS, /* closed again, and another added, while it hides */
  SEQUENCE_WINDOW_CLOSE, /* its window destroyed while it is up */
  N_SEQUENCES
} Sequence;

typedef struct
{
  AdwToast *toast;
  guint     dismissed;
  guint     clicked;
} Tracked;

typedef struct
{
  Sequence         sequence;
  GtkWindow       *window;     /* its own for SEQUENCE_WINDOW_CLOSE */
  AdwToastOverlay *overlay;
  TandemToaster   *toaster;
  guint            round;
  guint            step;
  gint64           step_since;
  Tracked          first;
  Tracked          second;
} Cell;

static gboolean plain;
static const char * const sequence_names[] = { "show", "replace", "undo", "hide-dismiss", "window-close" };
static guint rounds[N_SEQUENCES];

static void
on_dismissed_cb (AdwToast *toast,
                 Tracked  *tracked)
{
  g_assert_true (toast == tracked->toast);
  tracked->dismissed++;
}

static void
on_button_clicked_cb (AdwToast *toast,
                      Tracked  *tracked)
{
  g_assert_true (toast == tracked->toast);
  tracked->clicked++;
}

static void
on_toast_finalized_cb (gpointer  data,
                       GObject  *where_the_object_was)
{
  Tracked *tracked = data;

  tracked->toast = NULL;
}

static void
add (Cell        *cell,
     Tracked     *tracked,
     const char  *title,
     const char  *button,
     AdwToastPriority priority)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_priority (toast, priority);
  if (button != NULL)
    adw_toast_set_button_label (toast, button);
  tracked->toast = toast;
  tracked->dismissed = 0;
  tracked->clicked = 0;
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_dismissed_cb), tracked);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (on_button_clicked_cb), tracked);
  g_object_weak_ref (G_OBJECT (toast), on_toast_finalized_cb, tracked);
  tandem_toaster_add (cell->toaster, toast);
}

/* The toast widget showing @title, not one on its way out */
static GtkWidget *
find_shown (Cell       *cell,
            const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (cell->overlay)); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (g_str_equal (G_OBJECT_TYPE_NAME (c), "AdwToastWidget") &&
        gtk_widget_get_can_target (c) &&
        tandem_test_find_label (c, title) != NULL)
      return c;

  return NULL;
}

/* A toast widget being hidden */
static GtkWidget *
find_hiding (Cell *cell)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (cell->overlay)); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (g_str_equal (G_OBJECT_TYPE_NAME (c), "AdwToastWidget") && !gtk_widget_get_can_target (c))
      return c;

  return NULL;
}

static gboolean
overlay_empty (Cell *cell)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (cell->overlay)); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (g_str_equal (G_OBJECT_TYPE_NAME (c), "AdwToastWidget"))
      return FALSE;

  return TRUE;
}

/* Clicks the toast's close button (@label NULL) or its action button */
static void
click (GtkWidget  *toast_widget,
       const char *label)
{
  g_autoptr(GPtrArray) buttons = tandem_test_find_all (toast_widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkButton *button = buttons->pdata[i];
      gboolean is_close = g_strcmp0 (gtk_button_get_icon_name (button), "window-close-symbolic") == 0;

      if (label == NULL ? is_close : g_strcmp0 (gtk_button_get_label (button), label) == 0)
        {
          g_signal_emit_by_name (button, "clicked");
          return;
        }
    }

  g_assert_not_reached ();
}

static void
next_step (Cell *cell)
{
  cell->step++;
  cell->step_since = g_get_monotonic_time ();
}

static void
cell_open (Cell *cell)
{
  GtkWidget *child = gtk_label_new ("");

  gtk_widget_set_size_request (child, 240, 90);
  cell->overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (cell->overlay, child);
  cell->toaster = tandem_toaster_new (GTK_WIDGET (cell->overlay));
  if (plain)
    tandem_toaster_set_queues_itself (cell->toaster, FALSE);
  else
    g_assert_true (tandem_toaster_get_queues_itself (cell->toaster) ==
                   (adw_get_major_version () == 1 && adw_get_minor_version () < 3));
}

/* A round is over when everything its toasts should have been told was
 * told exactly once, and the overlay is empty again. */
static gboolean
round_over (Cell *cell)
{
  /* Nothing keeps a toast once it is gone */
  if (cell->first.toast != NULL || cell->second.toast != NULL)
    return FALSE;

  switch (cell->sequence)
    {
    case SEQUENCE_SHOW:
      return cell->first.dismissed == 1 && overlay_empty (cell);
    case SEQUENCE_REPLACE:
    case SEQUENCE_HIDE_DISMISS:
      return cell->first.dismissed == 1 && cell->second.dismissed == 1 && overlay_empty (cell);
    case SEQUENCE_UNDO:
      return cell->first.clicked == 1 && cell->first.dismissed == 1 && overlay_empty (cell);
    case SEQUENCE_WINDOW_CLOSE:
    case N_SEQUENCES:
    default:
      g_assert_not_reached ();
    }
}

static void
step_window_close (Cell *cell)
{
  GtkWidget *shown;

  switch (cell->step)
    {
    case 0:
      cell->window = GTK_WINDOW (gtk_window_new ());
      cell_open (cell);
      gtk_window_set_child (cell->window, GTK_WIDGET (cell->overlay));
      gtk_window_present (cell->window);
      add (cell, &cell->first, "Closed with it", "_Undo", ADW_TOAST_PRIORITY_HIGH);
      next_step (cell);
      /* Before it was ever drawn */
      if (cell->round % 4 != 0)
        return;
      break;

    case 1:
      if ((shown = find_shown (cell, "Closed with it")) == NULL)
        return;
      /* While its show animation plays */
      if (cell->round % 4 == 1)
        break;
      /* Once it is fully in */
      if (cell->round % 4 == 3 && g_get_monotonic_time () - cell->step_since < 400 * 1000)
        return;
      if (cell->round % 4 == 2)
        {
          /* While its dismissal waits or it hides */
          click (shown, NULL);
        }
      break;

    default:
      g_assert_not_reached ();
    }

  g_object_add_weak_pointer (G_OBJECT (cell->toaster), (gpointer *) &cell->toaster);
  gtk_window_destroy (cell->window);
  g_object_unref (cell->toaster);
  g_assert_null (cell->toaster);
  cell->window = NULL;
  cell->overlay = NULL;

  /* Whatever it was still offering was dismissed, once */
  g_assert_cmpuint (cell->first.dismissed, ==, 1);
  g_assert_cmpuint (cell->first.clicked, ==, 0);

  cell->round++;
  cell->step = 0;
}

/* One step of @cell's sequence, if what it waits for has come */
static void
step (Cell *cell)
{
  GtkWidget *widget;

  if (cell->round == rounds[cell->sequence])
    return;

  if (cell->sequence == SEQUENCE_WINDOW_CLOSE)
    {
      step_window_close (cell);
      return;
    }

  switch (cell->step)
    {
    case 0:
      switch (cell->sequence)
        {
        case SEQUENCE_SHOW:
          add (cell, &cell->first, "Shown", NULL, ADW_TOAST_PRIORITY_NORMAL);
          break;
        case SEQUENCE_REPLACE:
          add (cell, &cell->first, "Normal", NULL, ADW_TOAST_PRIORITY_NORMAL);
          break;
        case SEQUENCE_UNDO:
          add (cell, &cell->first, "Deleted", "_Undo", ADW_TOAST_PRIORITY_HIGH);
          break;
        case SEQUENCE_HIDE_DISMISS:
          add (cell, &cell->first, "Hiding", NULL, ADW_TOAST_PRIORITY_NORMAL);
          break;
        case SEQUENCE_WINDOW_CLOSE:
        case N_SEQUENCES:
        default:
          g_assert_not_reached ();
        }
      next_step (cell);
      break;

    case 1:
      switch (cell->sequence)
        {
        case SEQUENCE_SHOW:
          if ((widget = find_shown (cell, "Shown")) == NULL)
            return;
          click (widget, NULL);
          cell->step = 99;
          break;
        case SEQUENCE_REPLACE:
          if (find_shown (cell, "Normal") == NULL)
            return;
          add (cell, &cell->second, "High", NULL, ADW_TOAST_PRIORITY_HIGH);
          next_step (cell);
          break;
        case SEQUENCE_UNDO:
          if ((widget = find_shown (cell, "Deleted")) == NULL)
            return;
          click (widget, "_Undo");
          cell->step = 99;
          break;
        case SEQUENCE_HIDE_DISMISS:
          if ((widget = find_shown (cell, "Hiding")) == NULL)
            return;
          click (widget, NULL);
          next_step (cell);
          break;
        case SEQUENCE_WINDOW_CLOSE:
        case N_SEQUENCES:
        default:
          g_assert_not_reached ();
        }
      break;

    case 2:
      if (cell->sequence == SEQUENCE_REPLACE)
        {
          if ((widget = find_shown (cell, "High")) == NULL)
            return;
          /* The NORMAL one waits, not dismissed */
          g_assert_cmpuint (cell->first.dismissed, ==, 0);
          click (widget, NULL);
          next_step (cell);
        }
      else
        {
          if ((widget = find_hiding (cell)) == NULL)
            return;
          /* Closed again while it goes, another one added */
          click (widget, NULL);
          add (cell, &cell->second, "Next", NULL, ADW_TOAST_PRIORITY_NORMAL);
          next_step (cell);
        }
      break;

    case 3:
      /* REPLACE: the NORMAL one again; HIDE_DISMISS: the next one */
      if ((widget = find_shown (cell, cell->sequence == SEQUENCE_REPLACE ? "Normal" : "Next")) == NULL)
        return;
      g_assert_cmpuint (cell->second.dismissed, ==, cell->sequence == SEQUENCE_REPLACE ? 1 : 0);
      click (widget, NULL);
      cell->step = 99;
      break;

    case 99:
      if (!round_over (cell))
        return;
      g_assert_cmpuint (cell->first.dismissed, ==, 1);
      g_assert_cmpuint (cell->first.clicked, ==, cell->sequence == SEQUENCE_UNDO ? 1 : 0);
      cell->round++;
      cell->step = 0;
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
test_toaster_sequences (void)
{
  Cell cells[N_SEQUENCES][CELLS] = { 0 };
  GtkWindow *windows[N_SEQUENCES] = { NULL };
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  gboolean done = FALSE;

  g_test_summary ("Every toast sequence, hundreds of times with animations playing, "
                  "tells each toast once and frees everything");

  for (guint s = 0; s < N_SEQUENCES; s++)
    {
      GtkWidget *grid = NULL;

      if (s != SEQUENCE_WINDOW_CLOSE)
        {
          windows[s] = GTK_WINDOW (gtk_window_new ());
          grid = gtk_grid_new ();
          gtk_window_set_child (windows[s], grid);
        }

      for (guint i = 0; i < CELLS; i++)
        {
          Cell *cell = &cells[s][i];

          cell->sequence = s;
          if (grid != NULL)
            {
              cell_open (cell);
              gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (cell->overlay), i % 5, i / 5, 1, 1);
            }
        }

      if (windows[s] != NULL)
        gtk_window_present (windows[s]);
    }

  /* Stepped as often as the main loop comes round, so actions land at
   * every point of the animations */
  while (!done)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);

      done = TRUE;
      for (guint s = 0; s < N_SEQUENCES; s++)
        for (guint i = 0; i < CELLS; i++)
          {
            step (&cells[s][i]);
            done = done && cells[s][i].round == rounds[s];
          }
      if (!done)
        g_usleep (1000);
    }

  for (guint s = 0; s < N_SEQUENCES; s++)
    {
      for (guint i = 0; i < CELLS; i++)
        g_clear_object (&cells[s][i].toaster);
      if (windows[s] != NULL)
        tandem_test_destroy_window (windows[s]);
    }
}

/* Always ready, below GTK's redraws and above G_PRIORITY_DEFAULT_IDLE:
 * what a window redrawn frame after frame, each frame late, is to the
 * main loop (a text cursor blinking on a slow machine) */
static gboolean
keep_busy_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
undone (gpointer data)
{
  Cell *cell = data;

  return cell->first.clicked == 1 && cell->first.dismissed == 1 && overlay_empty (cell);
}

static void
test_toaster_undo_while_drawing (void)
{
  Cell cell = { 0 };
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *widget;
  guint busy_id;

  g_test_summary ("A toast whose button was clicked goes away while the window is redrawn "
                  "without a pause, as it is while a cursor blinks on a slow machine");

  cell_open (&cell);
  gtk_window_set_child (window, GTK_WIDGET (cell.overlay));
  gtk_window_present (window);
  tandem_test_wait_for_layout (window);

  add (&cell, &cell.first, "Deleted", "_Undo", ADW_TOAST_PRIORITY_HIGH);
  agui_test_wait_until ((widget = find_shown (&cell, "Deleted")) != NULL, "the toast was shown");
  busy_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 30, keep_busy_cb, NULL, NULL);
  click (widget, "_Undo");
  agui_test_wait_until (undone (&cell), "the toast went away after Undo (clicked %u, dismissed %u)",
                        cell.first.clicked, cell.first.dismissed);
  g_source_remove (busy_id);

  g_clear_object (&cell.toaster);
  tandem_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  tandem_test_init (&argc, &argv);
  plain = g_getenv ("TANDEM_TEST_TOASTER_PLAIN") != NULL;
  for (guint s = 0; s < N_SEQUENCES; s++)
    {
      g_auto(GStrv) chosen = g_strsplit (plain ? g_getenv ("TANDEM_TEST_TOASTER_PLAIN") : "1", ",", -1);

      rounds[s] = g_strv_contains ((const char * const *) chosen, "1") ||
                  g_strv_contains ((const char * const *) chosen, sequence_names[s]) ? ROUNDS : 0;
    }

  g_test_add_func ("/tandem/toaster/sequences", test_toaster_sequences);
  /* The plain path leaves the dismissal to libadwaita */
  if (!plain)
    g_test_add_func ("/tandem/toaster/undo-while-drawing", test_toaster_undo_while_drawing);

  return g_test_run ();
}
