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

/* How long a test waits for something that should happen: long enough
 * for a loaded sanitizer build, and only ever reached when it fails. */
#define AGUI_TEST_WAIT_MS 10000

/* Iterates the thread-default main context until @condition (any
 * expression) holds; after AGUI_TEST_WAIT_MS the test fails, saying what
 * did not happen (the printf-style rest) and the condition's text. */
#define agui_test_wait_until(condition, ...)                                                    \
  G_STMT_START {                                                                                \
    gint64 agui_test_deadline_ = g_get_monotonic_time () + AGUI_TEST_WAIT_MS * G_TIME_SPAN_MILLISECOND; \
    while (!(condition) &&                                                                      \
           agui_test_wait_step (agui_test_deadline_, __FILE__, __LINE__, G_STRFUNC, #condition, \
                                __VA_ARGS__))                                                   \
      ;                                                                                         \
  } G_STMT_END

gboolean agui_test_wait_step         (gint64              deadline,
                                      const char         *file,
                                      int                 line,
                                      const char         *func,
                                      const char         *condition,
                                      const char         *format,
                                      ...) G_GNUC_PRINTF (6, 7);
void     agui_test_wait_to_rule_out  (guint               milliseconds,
                                      const char         *what);

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

/* @length letters that deflate hardly at all (the store deflates long
 * rows): for a turn that must need room on disk */
char    *agui_test_incompressible_text (gsize               length);
gboolean agui_test_json_matches      (JsonNode           *expected,
                                      JsonNode           *actual,
                                      GHashTable         *minted);

JsonNode *agui_test_export_streamed  (AguiSessionStore   *store,
                                     const char         *thread_id);
GInputStream *agui_test_trickle_stream_new (const char *text);
char    *agui_test_import_streamed   (AguiSessionStore   *store,
                                     JsonNode           *exported,
                                     GError            **error);
gboolean agui_test_session_idle      (gpointer            session);
gboolean agui_test_session_busy      (gpointer            session);
void     agui_test_wait_for_exchange (AguiAgentSession   *session);

G_END_DECLS
