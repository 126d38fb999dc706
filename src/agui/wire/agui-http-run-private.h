/* agui-http-run-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-http-transport-private.h"

G_BEGIN_DECLS

/* Starts a run of @self (initialised, and so configured correctly) that
 * POSTs @body, and returns @task, which it takes, with the run's
 * AguiEventStream once the response's headers say it is one, or an
 * error. @cancellable, the task's, bounds the setup only; closing the
 * stream ends the rest. The run copies what it needs of @self, so it
 * goes on after @self is dropped. */
void _agui_http_run_start (AguiHttpTransport *self,
                           GTask             *task,
                           GBytes            *body,
                           GCancellable      *cancellable);

G_END_DECLS
