/* agui-version-macros.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <glib.h>

#ifndef _AGUI_EXTERN
# define _AGUI_EXTERN __attribute__((visibility ("default"))) extern
#endif

#define AGUI_AVAILABLE_IN_ALL _AGUI_EXTERN
