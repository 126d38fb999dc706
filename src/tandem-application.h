/* tandem-application.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agui.h"
#include "tandem-agents.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_APPLICATION (tandem_application_get_type ())
G_DECLARE_FINAL_TYPE (TandemApplication, tandem_application, TANDEM, APPLICATION, AdwApplication)

TandemApplication *tandem_application_new             (void);
AguiSessionStore  *tandem_application_get_store       (TandemApplication *self);
const char        *tandem_application_get_store_error (TandemApplication *self);
gboolean           tandem_application_get_store_opening (TandemApplication *self);
void               tandem_application_set_store_path  (TandemApplication *self,
                                                       const char        *path);
TandemAgents      *tandem_application_get_agents      (TandemApplication *self);
GSettings         *tandem_application_get_settings    (TandemApplication *self);
const char        *tandem_application_get_agent_url   (TandemApplication *self);
void               tandem_application_set_agent_url   (TandemApplication *self,
                                                       const char        *url);

G_END_DECLS
