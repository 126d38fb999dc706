/* agui-verifier-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_VERIFIER (_agui_verifier_get_type ())
G_DECLARE_FINAL_TYPE (AguiVerifier, _agui_verifier, AGUI, VERIFIER, GObject)

AguiVerifier *_agui_verifier_new    (void);
gboolean      _agui_verifier_check  (AguiVerifier  *self,
                                    AguiEvent     *event,
                                    GError       **error);
void          _agui_verifier_reset  (AguiVerifier  *self);

G_END_DECLS
