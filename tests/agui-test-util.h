/* agui-test-util.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui.h"

G_BEGIN_DECLS

/* What the tests share besides the loopback server: collecting an async
 * result and waiting, with a deadline, for something to hold. */

typedef gboolean (*AguiTestPredicate) (gpointer data);

void     agui_test_store_result_cb   (GObject            *object,
                                      GAsyncResult       *result,
                                      gpointer            user_data);
gboolean agui_test_wait_for          (AguiTestPredicate   predicate,
                                      gpointer            data,
                                      guint               timeout_ms);
gboolean agui_test_wait_for_pointer  (gpointer           *location,
                                      guint               timeout_ms);
void     agui_test_wait_for_result   (GAsyncResult      **result,
                                      guint               timeout_ms);

gboolean agui_test_session_idle      (gpointer            session);
gboolean agui_test_session_busy      (gpointer            session);
void     agui_test_wait_for_exchange (AguiAgentSession   *session,
                                      guint               timeout_ms);

G_END_DECLS
