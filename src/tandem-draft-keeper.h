/* tandem-draft-keeper.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_DRAFT_KEEPER (tandem_draft_keeper_get_type ())
G_DECLARE_FINAL_TYPE (TandemDraftKeeper, tandem_draft_keeper, TANDEM, DRAFT_KEEPER, GObject)

TandemDraftKeeper *tandem_draft_keeper_new        (GtkTextBuffer     *buffer);
void               tandem_draft_keeper_set_thread (TandemDraftKeeper *self,
                                                   AguiSessionStore  *store,
                                                   const char        *thread_id);
void               tandem_draft_keeper_flush      (TandemDraftKeeper *self);

G_END_DECLS
