/* agui-thread-info.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-enums.h"
#include "agui-thread-info-private.h"
#include "agui-util-private.h"

/**
 * AguiThreadInfo:
 *
 * What a list of conversations shows of one stored thread: its title,
 * the agent it talks to, when it was last updated, whether it waits for
 * the person's answer, whether the person pinned it, and, while an [class@Agui.ThreadList] searches,
 * the line of its messages that matched.
 *
 * Infos are the items of an [class@Agui.ThreadList], which keeps one
 * object per thread and updates it in place (with a notify per changed
 * property) when the thread changes in the store.
 */
struct _AguiThreadInfo
{
  GObject           parent_instance;
  char             *id;
  char             *title;
  char             *agent_id;
  gint64            created_time;
  gint64            updated_time;
  GDateTime        *created;
  GDateTime        *updated;
  AguiThreadStatus  status;
  char             *snippet;
  gboolean          pinned;
};

G_DEFINE_FINAL_TYPE (AguiThreadInfo, agui_thread_info, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_AGENT_ID,
  PROP_CREATED,
  PROP_UPDATED,
  PROP_STATUS,
  PROP_SNIPPET,
  PROP_PINNED,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static GDateTime *
date_time_for (gint64 microseconds)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (microseconds / G_USEC_PER_SEC);

  if (seconds == NULL)
    return g_date_time_new_from_unix_utc (0);

  return g_date_time_add (seconds, microseconds % G_USEC_PER_SEC);
}

static void
agui_thread_info_finalize (GObject *object)
{
  AguiThreadInfo *self = AGUI_THREAD_INFO (object);

  g_free (self->id);
  g_free (self->title);
  g_free (self->agent_id);
  g_clear_pointer (&self->created, g_date_time_unref);
  g_clear_pointer (&self->updated, g_date_time_unref);
  g_free (self->snippet);

  G_OBJECT_CLASS (agui_thread_info_parent_class)->finalize (object);
}

static void
agui_thread_info_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AguiThreadInfo *self = AGUI_THREAD_INFO (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_AGENT_ID:
      g_value_set_string (value, self->agent_id);
      break;

    case PROP_CREATED:
      g_value_set_boxed (value, self->created);
      break;

    case PROP_UPDATED:
      g_value_set_boxed (value, self->updated);
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    case PROP_PINNED:
      g_value_set_boolean (value, self->pinned);
      break;

    case PROP_SNIPPET:
      g_value_set_string (value, self->snippet);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agui_thread_info_class_init (AguiThreadInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agui_thread_info_finalize;
  object_class->get_property = agui_thread_info_get_property;

  /**
   * AguiThreadInfo:id:
   *
   * The thread's id, as the store and AG-UI's `threadId` know it.
   */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:title:
   *
   * The thread's title; empty for an untitled thread.
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:agent-id:
   *
   * The agent the thread talks to (a URL or an application's name for
   * it), or %NULL when the store does not say.
   */
  properties[PROP_AGENT_ID] =
    g_param_spec_string ("agent-id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:created:
   *
   * When the thread was stored first.
   */
  properties[PROP_CREATED] =
    g_param_spec_boxed ("created", NULL, NULL, G_TYPE_DATE_TIME,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:updated:
   *
   * When the thread's last turn was stored; a list of threads is sorted
   * by it, newest first.
   */
  properties[PROP_UPDATED] =
    g_param_spec_boxed ("updated", NULL, NULL, G_TYPE_DATE_TIME,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:status:
   *
   * Whether the thread waits for the person's answer.
   */
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, AGUI_TYPE_THREAD_STATUS, AGUI_THREAD_IDLE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:snippet:
   *
   * While the [class@Agui.ThreadList] holding this info searches, the
   * line of the thread's messages that contains the search text, cut
   * around it; %NULL when no message matches or nothing is searched.
   */
  properties[PROP_SNIPPET] =
    g_param_spec_string ("snippet", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AguiThreadInfo:pinned:
   *
   * Whether the person pinned the thread: lists show pinned threads
   * first.
   */
  properties[PROP_PINNED] =
    g_param_spec_boolean ("pinned", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agui_thread_info_init (AguiThreadInfo *self)
{
}

AguiThreadInfo *
_agui_thread_info_new (const char       *id,
                       const char       *title,
                       const char       *agent_id,
                       gint64            created,
                       gint64            updated,
                       AguiThreadStatus  status,
                       gboolean          pinned)
{
  AguiThreadInfo *self;

  g_return_val_if_fail (id != NULL, NULL);

  self = g_object_new (AGUI_TYPE_THREAD_INFO, NULL);
  self->id = g_strdup (id);
  self->title = g_strdup (title ? title : "");
  self->agent_id = g_strdup (agent_id);
  self->created_time = created;
  self->created = date_time_for (created);
  self->updated_time = updated;
  self->updated = date_time_for (updated);
  self->status = status;
  self->pinned = !!pinned;

  return self;
}

gint64
_agui_thread_info_get_updated_time (AguiThreadInfo *self)
{
  return self->updated_time;
}

gboolean
_agui_thread_info_update (AguiThreadInfo *self,
                          AguiThreadInfo *from)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), FALSE);
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (from), FALSE);

  g_object_freeze_notify (G_OBJECT (self));

  if (_agui_set_str (&self->title, from->title))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
      changed = TRUE;
    }

  if (_agui_set_str (&self->agent_id, from->agent_id))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AGENT_ID]);
      changed = TRUE;
    }

  if (self->updated_time != from->updated_time)
    {
      self->updated_time = from->updated_time;
      g_clear_pointer (&self->updated, g_date_time_unref);
      self->updated = g_date_time_ref (from->updated);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UPDATED]);
      changed = TRUE;
    }

  if (self->status != from->status)
    {
      self->status = from->status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
      changed = TRUE;
    }

  if (self->pinned != from->pinned)
    {
      self->pinned = from->pinned;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PINNED]);
      changed = TRUE;
    }

  g_object_thaw_notify (G_OBJECT (self));

  return changed;
}

gboolean
_agui_thread_info_set_snippet (AguiThreadInfo *self,
                               const char     *snippet)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), FALSE);

  if (!_agui_set_str (&self->snippet, snippet))
    return FALSE;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNIPPET]);
  return TRUE;
}

/**
 * agui_thread_info_get_id:
 * @self: a thread info
 *
 * Returns: the thread's id
 */
const char *
agui_thread_info_get_id (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->id;
}

/**
 * agui_thread_info_get_title:
 * @self: a thread info
 *
 * Returns: the thread's title, empty when it has none
 */
const char *
agui_thread_info_get_title (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->title;
}

/**
 * agui_thread_info_get_agent_id:
 * @self: a thread info
 *
 * Returns: (nullable): the agent the thread talks to, or %NULL when the
 *   store does not say
 */
const char *
agui_thread_info_get_agent_id (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->agent_id;
}

/**
 * agui_thread_info_get_created:
 * @self: a thread info
 *
 * Returns: (transfer none): when the thread was stored first, in UTC
 */
GDateTime *
agui_thread_info_get_created (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->created;
}

/**
 * agui_thread_info_get_updated:
 * @self: a thread info
 *
 * Returns: (transfer none): when the thread's last turn was stored, in UTC
 */
GDateTime *
agui_thread_info_get_updated (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->updated;
}

/**
 * agui_thread_info_get_status:
 * @self: a thread info
 *
 * Returns: whether the thread waits for the person's answer
 */
AguiThreadStatus
agui_thread_info_get_status (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), AGUI_THREAD_IDLE);

  return self->status;
}

/**
 * agui_thread_info_get_snippet:
 * @self: a thread info
 *
 * Returns: (nullable): the matching line of the thread's messages while
 *   its list searches, else %NULL
 */
const char *
agui_thread_info_get_snippet (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), NULL);

  return self->snippet;
}

/**
 * agui_thread_info_get_pinned:
 * @self: a thread info
 *
 * Returns: whether the person pinned the thread, which lists show first
 */
gboolean
agui_thread_info_get_pinned (AguiThreadInfo *self)
{
  g_return_val_if_fail (AGUI_IS_THREAD_INFO (self), FALSE);

  return self->pinned;
}
