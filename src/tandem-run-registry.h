/* tandem-run-registry.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "agui.h"

G_BEGIN_DECLS

/* How many answers may be written at once, across a window's conversations */
#define TANDEM_RUN_REGISTRY_MAX_RUNS 4

#define TANDEM_TYPE_RUN_REGISTRY (tandem_run_registry_get_type ())
G_DECLARE_FINAL_TYPE (TandemRunRegistry, tandem_run_registry, TANDEM, RUN_REGISTRY, GObject)

TandemRunRegistry *tandem_run_registry_new            (guint              max_runs);
void               tandem_run_registry_show           (TandemRunRegistry *self,
                                                       AguiAgentSession  *session);
AguiAgentSession  *tandem_run_registry_lookup         (TandemRunRegistry *self,
                                                       const char        *thread_id);
guint              tandem_run_registry_get_n_running  (TandemRunRegistry *self);
guint              tandem_run_registry_get_max_runs   (TandemRunRegistry *self);
gboolean           tandem_run_registry_can_start      (TandemRunRegistry *self);
gboolean           tandem_run_registry_is_working     (TandemRunRegistry *self,
                                                       const char        *thread_id);
gboolean           tandem_run_registry_is_unseen      (TandemRunRegistry *self,
                                                       const char        *thread_id);
gboolean           tandem_run_registry_take_unasked   (TandemRunRegistry *self,
                                                       const char        *thread_id);
char              *tandem_run_registry_dup_unasked    (TandemRunRegistry *self);
void               tandem_run_registry_forget         (TandemRunRegistry *self,
                                                       const char        *thread_id);
void               tandem_run_registry_stop_all       (TandemRunRegistry *self);

gboolean           tandem_session_waits_for_person    (AguiAgentSession  *session);

G_END_DECLS
