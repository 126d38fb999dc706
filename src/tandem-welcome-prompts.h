/* tandem-welcome-prompts.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_WELCOME_PROMPTS (tandem_welcome_prompts_get_type ())
G_DECLARE_FINAL_TYPE (TandemWelcomePrompts, tandem_welcome_prompts, TANDEM, WELCOME_PROMPTS, GtkWidget)

GtkWidget  *tandem_welcome_prompts_new          (void);
void        tandem_welcome_prompts_set_agent    (TandemWelcomePrompts *self,
                                                 const char           *agent_id);
guint       tandem_welcome_prompts_get_n_prompts (TandemWelcomePrompts *self);
const char *tandem_welcome_prompts_get_prompt   (TandemWelcomePrompts *self,
                                                 guint                 index);

G_END_DECLS
