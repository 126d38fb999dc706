/* agui-error-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-types.h"

G_BEGIN_DECLS

void        _agui_error_set_details (GError       *error,
                                     const char   *details);
const char *_agui_error_get_details (const GError *error);

G_END_DECLS
