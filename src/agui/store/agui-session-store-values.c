/* agui-session-store-values.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-json-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-session-store-db-private.h"
#include "agui-session-store-private.h"

/* Surface values: what the person set in an A2UI surface, kept with the
 * conversation (schema 7). Kept apart, in this one place, from the
 * turns: the agent never sees them, and a turn never writes them. */

gboolean
_agui_session_store_set_surface_values (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        const char        *message_id,
                                        const char        *json,
                                        GError           **error)
{
  const char *what = "Could not keep the values set in the agent's form";
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (json != NULL, FALSE);

  locker = g_mutex_locker_new (&self->mutex);
  /* A conversation deleted meanwhile (or never stored) keeps nothing */
  if (!(stmt = _agui_session_store_prepare_for_thread (self,
                        "INSERT INTO surface_values (thread_id, message_id, json) "
                        "SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM threads WHERE id = ?1) "
                        "ON CONFLICT (thread_id, message_id) DO UPDATE SET json = excluded.json",
                        thread_id, what, error)))
    return FALSE;

  sqlite3_bind_text (stmt, 2, message_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, json, -1, SQLITE_STATIC);

  return _agui_session_store_step_done (self, stmt, what, error);
}

static void
add_surface_values_row (sqlite3_stmt *stmt,
                        gpointer      values)
{
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  if (!_agui_json_doc_parse ((const char *) sqlite3_column_text (stmt, 1), sqlite3_column_bytes (stmt, 1),
                             &value, NULL))
    return;
  if (value.kind == AGUI_JSON_DOC_OBJECT)
    _agui_json_object_set (values, (const char *) sqlite3_column_text (stmt, 0), &value);
  else
    _agui_json_value_clear (&value);
}

/* {"message id": {"/pointer": value, ...}, ...} into @values (null
 * before); a row that is not a JSON object is skipped, so one damaged
 * row loses only itself */
gboolean
_agui_session_store_dup_surface_values_locked (AguiSessionStore  *self,
                                               const char        *thread_id,
                                               AguiJsonValue     *values,
                                               const char        *what,
                                               GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  AguiJsonDocObject *object = _agui_json_value_set_object (values, 0);

  if (!(stmt = _agui_session_store_prepare_for_thread (self, "SELECT message_id, json FROM surface_values WHERE thread_id = ?1",
                                                       thread_id, what, error)) ||
      !_agui_session_store_each_row (self, stmt, add_surface_values_row, object, what, error))
    {
      _agui_json_value_clear (values);
      return FALSE;
    }

  return TRUE;
}

JsonObject *
_agui_session_store_dup_surface_values (AguiSessionStore  *self,
                                        const char        *thread_id,
                                        GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_auto(AguiJsonValue) values = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (thread_id != NULL, NULL);

  locker = g_mutex_locker_new (&self->mutex);
  if (!_agui_session_store_dup_surface_values_locked (self, thread_id, &values,
                                                      "Could not read the values set in the agent's forms", error))
    return NULL;

  /* The app's surfaces take json-glib */
  node = _agui_json_value_to_node (&values);
  return json_node_dup_object (node);
}

/* An import's values, {"message id": {"/pointer": value, ...}, ...}, all
 * or none. Checked by _agui_session_store_check_surface_values() first. */
gboolean
_agui_session_store_set_all_surface_values (AguiSessionStore  *self,
                                            const char        *thread_id,
                                            AguiJsonDocObject *values,
                                            const char        *what,
                                            GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (AGUI_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (thread_id != NULL, FALSE);
  g_return_val_if_fail (values != NULL, FALSE);

  locker = g_mutex_locker_new (&self->mutex);
  if (!_agui_session_store_exec (self, "BEGIN IMMEDIATE", what, error))
    return FALSE;
  if (!(stmt = _agui_session_store_prepare (self,
                                            "INSERT INTO surface_values (thread_id, message_id, json) VALUES (?1, ?2, ?3) "
                                            "ON CONFLICT (thread_id, message_id) DO UPDATE SET json = excluded.json",
                                            what, error)))
    {
      _agui_session_store_rollback (self);
      return FALSE;
    }

  for (guint slot = 0; slot < _agui_json_object_get_n_slots (values); slot++)
    {
      const AguiJsonValue *value = _agui_json_object_slot_value (values, slot);
      g_autofree char *json = NULL;

      if (value->kind == AGUI_JSON_DOC_HOLE)
        continue;
      if (!(json = _agui_json_value_to_string (value, FALSE, error)))
        {
          _agui_session_store_rollback (self);
          return FALSE;
        }
      sqlite3_bind_text (stmt, 1, thread_id, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, _agui_json_object_slot_name (values, slot), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, json, -1, SQLITE_TRANSIENT);
      if (!_agui_session_store_step_done (self, stmt, what, error))
        {
          _agui_session_store_rollback (self);
          return FALSE;
        }
    }

  return _agui_session_store_commit (self, what, error);
}

/* Why an export's "surfaceValues" cannot be kept, or NULL: an object of
 * objects, one for each surface's message */
const char *
_agui_session_store_check_surface_values (const AguiJsonValue *member)
{
  AguiJsonDocObject *values;

  if (member->kind != AGUI_JSON_DOC_OBJECT)
    return "its surface values are not an object";

  values = member->u.object;
  for (guint slot = 0; slot < _agui_json_object_get_n_slots (values); slot++)
    {
      const AguiJsonValue *value = _agui_json_object_slot_value (values, slot);

      if (value->kind != AGUI_JSON_DOC_HOLE && value->kind != AGUI_JSON_DOC_OBJECT)
        return "the surface values of a message are not an object";
    }

  return NULL;
}

typedef struct
{
  char *thread_id;
  char *message_id;
  char *json;
} SurfaceValues;

static void
surface_values_free (SurfaceValues *values)
{
  g_free (values->thread_id);
  g_free (values->message_id);
  g_free (values->json);
  g_free (values);
}

static void
set_surface_values_job (AguiSessionStore *self,
                        GTask            *task,
                        gpointer          data)
{
  SurfaceValues *values = data;
  GError *error = NULL;
  gboolean done = _agui_session_store_set_surface_values (self, values->thread_id, values->message_id, values->json, &error);

  _agui_session_store_return_boolean (task, done, error);
}

void
_agui_session_store_set_surface_values_async (AguiSessionStore    *self,
                                              const char          *thread_id,
                                              const char          *message_id,
                                              const char          *json,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  SurfaceValues *values;

  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);
  g_return_if_fail (message_id != NULL);
  g_return_if_fail (json != NULL);

  values = g_new0 (SurfaceValues, 1);
  values->thread_id = g_strdup (thread_id);
  values->message_id = g_strdup (message_id);
  values->json = g_strdup (json);
  _agui_session_store_start_job (self, cancellable, callback, user_data, _agui_session_store_set_surface_values_async,
             set_surface_values_job, values, (GDestroyNotify) surface_values_free);
}

gboolean
_agui_session_store_set_surface_values_finish (AguiSessionStore  *self,
                                               GAsyncResult      *result,
                                               GError           **error)
{
  return _agui_session_store_finish_boolean (self, result, _agui_session_store_set_surface_values_async, error);
}

void
_agui_session_store_dup_surface_values_async (AguiSessionStore    *self,
                                              const char          *thread_id,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  g_return_if_fail (AGUI_IS_SESSION_STORE (self));
  g_return_if_fail (thread_id != NULL);

  _agui_session_store_start_read_thread (self, thread_id, cancellable, callback, user_data, _agui_session_store_dup_surface_values_async,
                     (AguiStoreThreadRead) _agui_session_store_dup_surface_values, (GDestroyNotify) json_object_unref);
}

JsonObject *
_agui_session_store_dup_surface_values_finish (AguiSessionStore  *self,
                                               GAsyncResult      *result,
                                               GError           **error)
{
  return _agui_session_store_finish_pointer (self, result, _agui_session_store_dup_surface_values_async, error);
}
