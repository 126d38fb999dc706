/* agui-verifier-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_VERIFIER (agui_verifier_get_type ())
G_DECLARE_FINAL_TYPE (AguiVerifier, agui_verifier, AGUI, VERIFIER, GObject)

AguiVerifier *agui_verifier_new    (void);
gboolean      agui_verifier_check  (AguiVerifier  *self,
                                    AguiEvent     *event,
                                    GError       **error);
void          agui_verifier_reset  (AguiVerifier  *self);

G_END_DECLS
