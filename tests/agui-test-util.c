/* agui-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-test-util.h"

/* A GAsyncReadyCallback whose @user_data is a `GAsyncResult **`, NULL
 * until the call ends: it keeps a reference to the result there. */
void
agui_test_store_result_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  GAsyncResult **location = user_data;

  g_assert_null (*location);
  *location = g_object_ref (result);
}

static gboolean
on_wait_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;

  return G_SOURCE_REMOVE;
}

/* Iterates the thread-default main context until @predicate holds, for
 * at most @timeout_ms, so that a bug fails a test instead of hanging it. */
gboolean
agui_test_wait_for (AguiTestPredicate predicate,
                    gpointer          data,
                    guint             timeout_ms)
{
  gboolean timed_out = FALSE;
  guint timeout_id;

  timeout_id = g_timeout_add (timeout_ms, on_wait_timeout_cb, &timed_out);
  while (!predicate (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);

  return predicate (data);
}

static gboolean
pointer_is_set (gpointer data)
{
  gpointer *location = data;

  return *location != NULL;
}

gboolean
agui_test_wait_for_pointer (gpointer *location,
                            guint     timeout_ms)
{
  return agui_test_wait_for (pointer_is_set, location, timeout_ms);
}

/* Waits for agui_test_store_result_cb() to have filled @result; failing
 * the test after @timeout_ms. */
void
agui_test_wait_for_result (GAsyncResult **result,
                           guint          timeout_ms)
{
  g_assert_true (agui_test_wait_for_pointer ((gpointer *) result, timeout_ms));
}

gboolean
agui_test_session_idle (gpointer session)
{
  return !agui_agent_session_get_busy (AGUI_AGENT_SESSION (session));
}

gboolean
agui_test_session_busy (gpointer session)
{
  return agui_agent_session_get_busy (AGUI_AGENT_SESSION (session));
}

/* A send or resume started by a click: waits for the session to take it
 * up (briefly: it may be over already) and then to be idle again. */
void
agui_test_wait_for_exchange (AguiAgentSession *session,
                             guint             timeout_ms)
{
  agui_test_wait_for (agui_test_session_busy, session, 500);
  g_assert_true (agui_test_wait_for (agui_test_session_idle, session, timeout_ms));
}
