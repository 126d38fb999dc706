/* agui-interrupts-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gboolean _agui_interrupts_check_resume (JsonArray  *pending,
                                        JsonArray  *resume,
                                        GDateTime  *now,
                                        GError    **error);

G_END_DECLS
