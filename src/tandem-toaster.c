/* tandem-toaster.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-toaster.h"

/* Every toast of the app goes through a toaster, because libadwaita 1.2's
 * AdwToastOverlay frees memory its animations still use.
 *
 * In 1.2 (src/adw-toast-overlay.c, 1.2.2) each shown toast has a ToastInfo
 * with a show and a hide animation. show_toast() connects the show
 * animation's "done" to show_done_cb (info), which does
 * g_clear_object (&info->show_animation), and keeps no handler id.
 * Dismissing the toast (dismissed_cb → hide_current_toast) starts the hide
 * animation, whose "done" is hide_done_cb → free_toast_info (info):
 * g_clear_object (&info->show_animation) drops the overlay's reference but
 * leaves show_done_cb connected, then g_free (info). A playing
 * AdwAnimation holds a reference to itself, so when the show animation is
 * still playing at that point it lives on, and its next tick_cb →
 * adw_animation_skip → "done" runs show_done_cb on the freed info and
 * unrefs whatever the freed memory now holds (with MALLOC_PERTURB_, never
 * NULL): the crash after Undo on "Conversation deleted". The hide animation
 * ends first whenever
 *   - a toast is dismissed within about one frame of being shown: both
 *     animations are 300 ms, and GTK runs the newest tick callback first, so
 *     when both end in one frame the hide's done runs before the show's
 *     (an Undo clicked at once, or a loaded machine skipping frames);
 *   - a toast is shown while another is still hiding, or replaces one
 *     (priority HIGH): its show animation is then 500 ms (REPLACE_DURATION)
 *     against the hide's 300 ms;
 *   - a postponed toast comes back from the overlay's own queue: it is
 *     shown from inside dismissed_cb, again with the 500 ms animation.
 * libadwaita 1.3 fixed it (commit 1674ebc9, "toast-overlay: Prevent
 * show_done from firing after hide_done": free_toast_info disconnects
 * show_done_cb).
 *
 * So with libadwaita older than 1.3 the toaster keeps its own queue and
 * puts one toast at a time in the overlay, and only when the overlay has
 * nothing showing or hiding, so every show animation is the 300 ms one.
 * What it puts there is a copy of the app's toast, which it alone listens
 * to: a dismissal (a click, the timeout, Escape, or a HIGH toast taking
 * the place) that comes while the show animation may still play is held
 * back — its emission stopped before the overlay's handler — and passed on
 * once that animation is over. The toaster holds both toasts until the
 * hide animation is over too, then shows the next. The show animation's
 * end is found as libadwaita finds it: on the host's frame clock, from a
 * start read just after libadwaita read its own. The hide's end is when
 * the overlay lets go of the copy (free_toast_info(), from hide_done_cb),
 * which a toggle reference tells; the frame clock is the fallback.
 *
 * The app's toast gets "button-clicked" and, once, "dismissed", as from
 * the overlay. Newer libadwaita takes the plain path. */

/* libadwaita 1.2's durations, in ms (adw-toast-overlay.c) */
#define SHOW_DURATION 300
#define HIDE_DURATION 300

typedef enum
{
  PHASE_SHOWING,
  PHASE_SHOWN,
  PHASE_HIDING,
} Phase;

typedef struct
{
  gpointer  toaster;
  AdwToast *toast;              /* the app's */
  AdwToast *shown;              /* the copy in the overlay, by a toggle reference */
  Phase     phase;
  gint64    since;              /* frame time the phase's animation started, µs */
  guint     duration;           /* that animation's length, ms */
  gulong    dismissed_id;
  gulong    dismissed_after_id;
  gulong    clicked_id;
  guint     close_id;           /* dismisses it after its button was clicked */
  guint     dismiss_pending : 1; /* held back until the show animation is over */
  guint     preempted : 1;       /* taken down for a HIGH toast: back to the queue */
  guint     released : 1;        /* the overlay let go of the copy: its hide is over */
} Current;

struct _TandemToaster
{
  GObject    parent_instance;
  GtkWidget *host;              /* AdwToastOverlay or AdwPreferencesWindow, weak */
  GQueue     queue;             /* AdwToast *, the app's, owned */
  Current   *current;
  guint      tick_id;
  guint      advance_id;
  gulong     unmap_id;
  guint      reemitting : 1;
  guint      preempting : 1;
  guint      queues_itself : 1;
};

G_DEFINE_FINAL_TYPE (TandemToaster, tandem_toaster, G_TYPE_OBJECT)

static void tandem_toaster_show_next (TandemToaster *self);

static gboolean
host_animates (TandemToaster *self)
{
  return self->host != NULL &&
         gtk_widget_get_mapped (self->host) &&
         adw_get_enable_animations (self->host);
}

static gint64
host_frame_time (TandemToaster *self)
{
  GdkFrameClock *clock = self->host ? gtk_widget_get_frame_clock (self->host) : NULL;

  return clock != NULL ? gdk_frame_clock_get_frame_time (clock) : 0;
}

static void
host_add_toast (TandemToaster *self,
                AdwToast      *toast)
{
  if (ADW_IS_TOAST_OVERLAY (self->host))
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (self->host), toast);
  else
    adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self->host), toast);
}

static gboolean
on_advance_cb (gpointer user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  self->advance_id = 0;
  g_assert (current != NULL);

  switch (current->phase)
    {
    case PHASE_SHOWING:
      current->phase = PHASE_SHOWN;
      if (current->dismiss_pending)
        {
          /* The copy's own handler already unset its overlay, so
           * adw_toast_dismiss() would do nothing: emit again, and this
           * time let the overlay's handler run. */
          current->dismiss_pending = FALSE;
          self->reemitting = TRUE;
          g_signal_emit_by_name (current->shown, "dismissed");
          self->reemitting = FALSE;
        }
      break;

    case PHASE_HIDING:
      tandem_toaster_show_next (self);
      break;

    case PHASE_SHOWN:
    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

/* Runs in the frame's update phase, before or after libadwaita's own tick
 * callback of the same frame; the idle runs once the frame is through, when
 * the animation has certainly ended. */
static void
schedule_advance (TandemToaster *self)
{
  if (self->advance_id == 0)
    self->advance_id = g_idle_add_full (G_PRIORITY_DEFAULT, on_advance_cb, self, NULL);
}

static gboolean
on_host_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  if (current == NULL || current->phase == PHASE_SHOWN)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  /* libadwaita counts whole ms from a start it truncated; the margin
   * covers that and the few µs between its reading and ours. */
  if (gdk_frame_clock_get_frame_time (clock) - current->since < ((gint64) current->duration + 2) * 1000)
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  schedule_advance (self);

  return G_SOURCE_REMOVE;
}

/* The current phase's animation started just now, unless the host plays
 * none (unmapped, or animations off), in which case it is already over. */
static void
start_phase (TandemToaster *self,
             Phase          phase,
             guint          duration)
{
  Current *current = self->current;

  current->phase = phase;
  current->duration = duration;
  current->since = host_frame_time (self);

  if (!host_animates (self))
    {
      schedule_advance (self);
      return;
    }

  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (self->host, on_host_tick_cb, self, NULL);
}

/* Only the toaster holds the copy now: free_toast_info() ran, its hide
 * is over. We are inside libadwaita's hide_done_cb here, so the next toast
 * waits for an idle, or for the app's next add. */
static void
on_shown_toggled_cb (gpointer  user_data,
                     GObject  *object,
                     gboolean  is_last_ref)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  if (!is_last_ref || current == NULL || current->shown != (AdwToast *) object ||
      current->phase != PHASE_HIDING)
    return;

  current->released = TRUE;
  schedule_advance (self);
}

static void
on_host_unmap_cb (GtkWidget *host,
                  gpointer   user_data)
{
  TandemToaster *self = user_data;

  /* libadwaita skipped every playing animation in its own unmap handler,
   * and no frame will come to tell us. */
  if (self->current != NULL && self->current->phase != PHASE_SHOWN)
    schedule_advance (self);
}

static gboolean
on_close_cb (gpointer user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  g_assert (current != NULL);

  current->close_id = 0;
  adw_toast_dismiss (current->shown);

  return G_SOURCE_REMOVE;
}

static void
on_shown_button_clicked_cb (AdwToast *shown,
                            gpointer  user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  g_assert (current != NULL && current->shown == shown);

  /* A second click on a toast whose dismissal is held back */
  if (current->dismiss_pending || current->phase == PHASE_HIDING)
    {
      g_signal_stop_emission_by_name (shown, "button-clicked");
      return;
    }

  g_signal_emit_by_name (current->toast, "button-clicked");

  /* libadwaita 1.2 dismisses a toast whose button was clicked from an
   * idle of G_PRIORITY_DEFAULT_IDLE (action_clicked_cb), below GTK's
   * redraws: while the window draws frame after frame and each takes
   * longer than the next is due (any animation on a slow or loaded
   * machine), that idle does not run, and the toast stayed up for
   * seconds after Undo. The toaster dismisses it itself, once the click
   * is over; libadwaita's idle then finds it dismissed already. */
  if (current->close_id == 0)
    current->close_id = g_idle_add_full (G_PRIORITY_DEFAULT, on_close_cb, self, NULL);
}

static void
on_shown_dismissed_cb (AdwToast *shown,
                       gpointer  user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;

  g_assert (current != NULL && current->shown == shown);

  if (self->preempting)
    current->preempted = TRUE;

  if (self->reemitting || current->phase == PHASE_SHOWN)
    return;

  /* The show animation may still play: the overlay must not start hiding */
  current->dismiss_pending = TRUE;
  g_signal_stop_emission_by_name (shown, "dismissed");
}

/* After the overlay's handler: its hide animation has started */
static void
on_shown_dismissed_after_cb (AdwToast *shown,
                             gpointer  user_data)
{
  TandemToaster *self = user_data;
  Current *current = self->current;
  g_autoptr(AdwToast) toast = NULL;

  g_assert (current != NULL && current->shown == shown);
  g_assert (current->phase == PHASE_SHOWN);

  g_signal_handler_disconnect (shown, current->dismissed_id);
  g_signal_handler_disconnect (shown, current->dismissed_after_id);
  current->dismissed_id = 0;
  current->dismissed_after_id = 0;

  start_phase (self, PHASE_HIDING, HIDE_DURATION);

  if (current->preempted)
    {
      /* Shown again after the HIGH toasts that took its place */
      GList *link = self->queue.head;
      guint position = 0;

      while (link != NULL && adw_toast_get_priority (link->data) == ADW_TOAST_PRIORITY_HIGH)
        {
          link = link->next;
          position++;
        }
      g_queue_push_nth (&self->queue, g_object_ref (current->toast), position);
      return;
    }

  /* The app may show another toast from its handler */
  toast = g_object_ref (current->toast);
  g_signal_emit_by_name (toast, "dismissed");
}

static AdwToast *
copy_toast (AdwToast *toast)
{
  AdwToast *shown = adw_toast_new ("");

  g_object_bind_property (toast, "title", shown, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (toast, "button-label", shown, "button-label", G_BINDING_SYNC_CREATE);
  adw_toast_set_action_name (shown, adw_toast_get_action_name (toast));
  adw_toast_set_action_target_value (shown, adw_toast_get_action_target_value (toast));
  adw_toast_set_timeout (shown, adw_toast_get_timeout (toast));

  return shown;
}

static void
current_free (Current *current)
{
  if (current->dismissed_id != 0)
    g_signal_handler_disconnect (current->shown, current->dismissed_id);
  if (current->dismissed_after_id != 0)
    g_signal_handler_disconnect (current->shown, current->dismissed_after_id);
  if (current->clicked_id != 0)
    g_signal_handler_disconnect (current->shown, current->clicked_id);
  g_clear_handle_id (&current->close_id, g_source_remove);
  if (current->shown != NULL)
    g_object_remove_toggle_ref (G_OBJECT (current->shown), on_shown_toggled_cb, current->toaster);
  g_clear_object (&current->toast);
  g_free (current);
}

static void
tandem_toaster_show_next (TandemToaster *self)
{
  Current *current;

  /* What was scheduled was for the one that goes */
  g_clear_handle_id (&self->advance_id, g_source_remove);
  g_clear_pointer (&self->current, current_free);

  if (self->host == NULL || g_queue_is_empty (&self->queue))
    return;

  current = g_new0 (Current, 1);
  current->toaster = self;
  current->toast = g_queue_pop_head (&self->queue);
  current->shown = copy_toast (current->toast);
  current->clicked_id = g_signal_connect (current->shown, "button-clicked",
                                          G_CALLBACK (on_shown_button_clicked_cb), self);
  current->dismissed_id = g_signal_connect (current->shown, "dismissed",
                                            G_CALLBACK (on_shown_dismissed_cb), self);
  current->dismissed_after_id = g_signal_connect_after (current->shown, "dismissed",
                                                        G_CALLBACK (on_shown_dismissed_after_cb), self);
  self->current = current;

  /* The overlay is empty, so it plays the 300 ms show animation */
  host_add_toast (self, g_object_ref (current->shown));
  g_object_add_toggle_ref (G_OBJECT (current->shown), on_shown_toggled_cb, self);
  g_object_unref (current->shown);
  start_phase (self, PHASE_SHOWING, SHOW_DURATION);
}

static void
tandem_toaster_dispose (GObject *object)
{
  TandemToaster *self = TANDEM_TOASTER (object);
  AdwToast *toast;

  g_clear_handle_id (&self->advance_id, g_source_remove);
  if (self->host != NULL)
    {
      if (self->tick_id != 0)
        gtk_widget_remove_tick_callback (self->host, self->tick_id);
      g_clear_signal_handler (&self->unmap_id, self->host);
    }
  self->tick_id = 0;
  g_clear_weak_pointer (&self->host);

  /* As the overlay's own dispose does: whatever was still offered is
   * dismissed, so an Undo not taken is carried out. */
  if (self->current != NULL)
    {
      Current *current = g_steal_pointer (&self->current);
      /* Once hiding, it was told, or went back to the queue */
      gboolean told = current->phase == PHASE_HIDING;

      toast = g_object_ref (current->toast);
      current_free (current);
      if (!told)
        g_signal_emit_by_name (toast, "dismissed");
      g_object_unref (toast);
    }
  while ((toast = g_queue_pop_head (&self->queue)) != NULL)
    {
      g_signal_emit_by_name (toast, "dismissed");
      g_object_unref (toast);
    }

  G_OBJECT_CLASS (tandem_toaster_parent_class)->dispose (object);
}

static void
tandem_toaster_class_init (TandemToasterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_toaster_dispose;
}

static void
tandem_toaster_init (TandemToaster *self)
{
  g_queue_init (&self->queue);

#if ADW_CHECK_VERSION (1, 3, 0)
  self->queues_itself = FALSE;
#else
  self->queues_itself = adw_get_major_version () == 1 && adw_get_minor_version () < 3;
#endif
}

/**
 * tandem_toaster_new:
 * @host: the `AdwToastOverlay` or `AdwPreferencesWindow` that shows the toasts
 *
 * Returns: (transfer full): a toaster for @host, which it does not keep alive
 */
TandemToaster *
tandem_toaster_new (GtkWidget *host)
{
  TandemToaster *self;

  g_return_val_if_fail (ADW_IS_TOAST_OVERLAY (host) || ADW_IS_PREFERENCES_WINDOW (host), NULL);

  self = g_object_new (TANDEM_TYPE_TOASTER, NULL);
  g_set_weak_pointer (&self->host, host);
  self->unmap_id = g_signal_connect_after (host, "unmap", G_CALLBACK (on_host_unmap_cb), self);

  return self;
}

/**
 * tandem_toaster_add:
 * @toast: (transfer full): the toast
 *
 * Shows @toast when its turn comes: a toast of priority HIGH at once (the
 * one showing goes back to the front of the queue), others in order.
 */
void
tandem_toaster_add (TandemToaster *self,
                    AdwToast      *toast)
{
  g_return_if_fail (TANDEM_IS_TOASTER (self));
  g_return_if_fail (ADW_IS_TOAST (toast));
  g_return_if_fail (adw_toast_get_custom_title (toast) == NULL);

  if (self->host == NULL)
    {
      g_signal_emit_by_name (toast, "dismissed");
      g_object_unref (toast);
      return;
    }

  if (!self->queues_itself)
    {
      host_add_toast (self, toast);
      return;
    }

  if (adw_toast_get_priority (toast) != ADW_TOAST_PRIORITY_HIGH)
    {
      g_queue_push_tail (&self->queue, toast);
    }
  else
    {
      g_queue_push_head (&self->queue, toast);
      if (self->current != NULL && self->current->phase != PHASE_HIDING && !self->current->preempted)
        {
          if (self->current->phase == PHASE_SHOWN)
            {
              self->preempting = TRUE;
              adw_toast_dismiss (self->current->shown);
              self->preempting = FALSE;
            }
          else
            {
              /* Taken down once it is fully in */
              self->current->preempted = TRUE;
              self->current->dismiss_pending = TRUE;
            }
        }
    }

  /* Nothing on screen any more: shown at once, as the overlay would */
  if (self->current == NULL || self->current->released)
    tandem_toaster_show_next (self);
}

/**
 * tandem_toaster_withdraw:
 * @self: a toaster
 * @toast: a toast given to tandem_toaster_add()
 *
 * Takes @toast down as adw_toast_dismiss() would, wherever it is: not
 * shown yet, it never is; shown, it hides as after a click.
 */
void
tandem_toaster_withdraw (TandemToaster *self,
                         AdwToast      *toast)
{
  GList *link;

  g_return_if_fail (TANDEM_IS_TOASTER (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  if (!self->queues_itself)
    {
      adw_toast_dismiss (toast);
      return;
    }

  if ((link = g_queue_find (&self->queue, toast)) != NULL)
    {
      g_queue_delete_link (&self->queue, link);
      g_signal_emit_by_name (toast, "dismissed");
      g_object_unref (toast);
      return;
    }

  /* The copy's dismissal is held back while it still comes in */
  if (self->current != NULL && self->current->toast == toast && self->current->phase != PHASE_HIDING)
    adw_toast_dismiss (self->current->shown);
}

/* Whether the toaster queues toasts itself (libadwaita older than 1.3) or
 * hands them straight to the host. */
gboolean
tandem_toaster_get_queues_itself (TandemToaster *self)
{
  g_return_val_if_fail (TANDEM_IS_TOASTER (self), FALSE);

  return self->queues_itself;
}

void
tandem_toaster_set_queues_itself (TandemToaster *self,
                                  gboolean       queues_itself)
{
  g_return_if_fail (TANDEM_IS_TOASTER (self));
  g_return_if_fail (self->current == NULL && g_queue_is_empty (&self->queue));

  self->queues_itself = !!queues_itself;
}
