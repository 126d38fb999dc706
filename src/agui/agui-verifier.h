/* agui-verifier.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_VERIFIER (agui_verifier_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiVerifier, agui_verifier, AGUI, VERIFIER, GObject)

AGUI_AVAILABLE_IN_ALL
AguiVerifier *agui_verifier_new    (void);
AGUI_AVAILABLE_IN_ALL
gboolean      agui_verifier_check  (AguiVerifier  *self,
                                    AguiEvent     *event,
                                    GError       **error);
AGUI_AVAILABLE_IN_ALL
void          agui_verifier_reset  (AguiVerifier  *self);

G_END_DECLS
