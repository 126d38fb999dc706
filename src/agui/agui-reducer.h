/* agui-reducer.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include "agui-event.h"
#include "agui-transcript.h"

G_BEGIN_DECLS

#define AGUI_TYPE_REDUCER (agui_reducer_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiReducer, agui_reducer, AGUI, REDUCER, GObject)

AGUI_AVAILABLE_IN_ALL
AguiReducer    *agui_reducer_new            (AguiTranscript *transcript);
AGUI_AVAILABLE_IN_ALL
AguiTranscript *agui_reducer_get_transcript (AguiReducer    *self);
AGUI_AVAILABLE_IN_ALL
void            agui_reducer_apply          (AguiReducer    *self,
                                             AguiEvent      *event);
AGUI_AVAILABLE_IN_ALL
void            agui_reducer_fail           (AguiReducer    *self,
                                             const GError   *error);
AGUI_AVAILABLE_IN_ALL
GPtrArray      *agui_reducer_get_warnings   (AguiReducer    *self);

G_END_DECLS
