/* tandem-a2ui-values.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agui-session-store-private.h"

#include "tandem-a2ui-values.h"

/* What the person sets in an A2UI surface (a slider moved, a field
 * typed in, a box checked, a choice made) is kept with the conversation:
 * each value written into the surface's data model is noted by its
 * pointer and written to the store, and the surface drawn again after a
 * relaunch gets them back over the data model the agent sent. A keeper
 * rides on each surface, which the views of one activity part share. */
#define TANDEM_TYPE_A2UI_VALUES (tandem_a2ui_values_get_type ())
G_DECLARE_FINAL_TYPE (TandemA2uiValues, tandem_a2ui_values, TANDEM, A2UI_VALUES, GObject)

struct _TandemA2uiValues
{
  GObject           parent_instance;
  AguiA2uiSurface  *surface;      /* weak: the surface owns the keeper */
  AguiSessionStore *store;
  char             *thread_id;
  char             *message_id;
  /* {"/pointer": value}: everything set, typed or restored */
  JsonObject       *values;
  /* The pointers set since the stored values were asked for: those win */
  GHashTable       *typed;
  GCancellable     *cancellable;
  guint             write_id;
};

G_DEFINE_FINAL_TYPE (TandemA2uiValues, tandem_a2ui_values, G_TYPE_OBJECT)

/* A slider dragged writes many values: one write for them */
#define WRITE_DELAY_MS 300

static GQuark
values_quark (void)
{
  return g_quark_from_static_string ("tandem-a2ui-values");
}

static char *
dup_json (TandemA2uiValues *self)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, self->values);
  return json_to_string (node, FALSE);
}

static void
on_written_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* What a form showed is a convenience: one not kept is no reason to
   * interrupt the person */
  if (!_agui_session_store_set_surface_values_finish (AGUI_SESSION_STORE (object), result, &error))
    g_warning ("%s", error->message);
}

static gboolean
on_write_cb (gpointer user_data)
{
  TandemA2uiValues *self = user_data;
  g_autofree char *json = dup_json (self);

  self->write_id = 0;
  _agui_session_store_set_surface_values_async (self->store, self->thread_id, self->message_id, json,
                                                NULL, on_written_cb, NULL);

  return G_SOURCE_REMOVE;
}

static void
tandem_a2ui_values_dispose (GObject *object)
{
  TandemA2uiValues *self = TANDEM_A2UI_VALUES (object);

  /* The conversation closes, and the program may end before a job on
   * the store's worker runs: the last change is written here, once */
  if (self->write_id != 0)
    {
      g_autofree char *json = dup_json (self);
      g_autoptr(GError) error = NULL;

      g_clear_handle_id (&self->write_id, g_source_remove);
      if (!_agui_session_store_set_surface_values (self->store, self->thread_id, self->message_id, json, &error))
        g_warning ("%s", error->message);
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_weak_pointer (&self->surface);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tandem_a2ui_values_parent_class)->dispose (object);
}

static void
tandem_a2ui_values_finalize (GObject *object)
{
  TandemA2uiValues *self = TANDEM_A2UI_VALUES (object);

  g_free (self->thread_id);
  g_free (self->message_id);
  g_clear_pointer (&self->values, json_object_unref);
  g_clear_pointer (&self->typed, g_hash_table_unref);

  G_OBJECT_CLASS (tandem_a2ui_values_parent_class)->finalize (object);
}

static void
tandem_a2ui_values_class_init (TandemA2uiValuesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_a2ui_values_dispose;
  object_class->finalize = tandem_a2ui_values_finalize;
}

static void
tandem_a2ui_values_init (TandemA2uiValues *self)
{
  self->values = json_object_new ();
  self->typed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TandemA2uiValues) self = user_data;
  g_autoptr(JsonObject) stored = NULL;
  g_autoptr(GError) error = NULL;
  JsonObjectIter iter;
  const char *path;
  JsonNode *value;

  stored = _agui_session_store_dup_surface_values_finish (AGUI_SESSION_STORE (object), result, &error);
  if (stored == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("%s", error->message);
      return;
    }
  if (self->surface == NULL || !json_object_has_member (stored, self->message_id) ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (stored, self->message_id)))
    return;

  json_object_iter_init (&iter, json_object_get_object_member (stored, self->message_id));
  while (json_object_iter_next (&iter, &path, &value))
    {
      g_autoptr(GError) local_error = NULL;

      /* What the person set while this was read is newer */
      if (g_hash_table_contains (self->typed, path))
        continue;
      /* A value the surface no longer takes is dropped, not kept */
      if (!agui_a2ui_surface_set_value (self->surface, path, value, &local_error))
        continue;
      json_object_set_member (self->values, path, json_node_copy (value));
    }
}

static TandemA2uiValues *
get_keeper (AguiA2uiSurface *surface)
{
  return g_object_get_qdata (G_OBJECT (surface), values_quark ());
}

/**
 * tandem_a2ui_values_restore:
 * @surface: the surface an activity part draws
 * @session: the session showing it
 * @message_id: (nullable): the activity message's id
 *
 * Keeps what the person sets in @surface with @session's conversation
 * from now on, and sets what was kept before, once, over the data model
 * the agent sent. Nothing is kept without a store or a message id.
 */
void
tandem_a2ui_values_restore (AguiA2uiSurface  *surface,
                            AguiAgentSession *session,
                            const char       *message_id)
{
  TandemA2uiValues *self;
  AguiSessionStore *store;
  const char *thread_id;

  g_return_if_fail (AGUI_IS_A2UI_SURFACE (surface));
  g_return_if_fail (AGUI_IS_AGENT_SESSION (session));

  store = agui_agent_session_get_store (session);
  thread_id = agui_agent_session_get_thread_id (session);
  if (store == NULL || thread_id == NULL || message_id == NULL || get_keeper (surface) != NULL)
    return;

  self = g_object_new (TANDEM_TYPE_A2UI_VALUES, NULL);
  g_set_weak_pointer (&self->surface, surface);
  self->store = g_object_ref (store);
  self->thread_id = g_strdup (thread_id);
  self->message_id = g_strdup (message_id);
  self->cancellable = g_cancellable_new ();
  g_object_set_qdata_full (G_OBJECT (surface), values_quark (), self, g_object_unref);

  _agui_session_store_dup_surface_values_async (store, thread_id, self->cancellable, on_read_cb, g_object_ref (self));
}

/**
 * tandem_a2ui_values_note:
 * @surface: a surface
 * @path: the JSON pointer the person set
 * @value: what it now holds
 *
 * Keeps a value the person set, if @surface is kept
 * (tandem_a2ui_values_restore()); written soon after.
 */
void
tandem_a2ui_values_note (AguiA2uiSurface *surface,
                         const char      *path,
                         JsonNode        *value)
{
  TandemA2uiValues *self;

  g_return_if_fail (AGUI_IS_A2UI_SURFACE (surface));
  g_return_if_fail (path != NULL);
  g_return_if_fail (value != NULL);

  if ((self = get_keeper (surface)) == NULL)
    return;

  g_hash_table_add (self->typed, g_strdup (path));
  json_object_set_member (self->values, path, json_node_copy (value));
  if (self->write_id == 0)
    {
      self->write_id = g_timeout_add (WRITE_DELAY_MS, on_write_cb, self);
      g_source_set_name_by_id (self->write_id, "[tandem] a2ui values");
    }
}
