/* agui-event-compactor-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event.h"

G_BEGIN_DECLS

/* Joins each stream's consecutive deltas into one event as a turn's
 * events are added, one at a time (see agui-event-compactor.c for when
 * two deltas may be joined). Once every event is added, the compacted
 * events are read one at a time; a later event may still join an
 * earlier one, so none is read before the last is added. */
typedef struct _AguiEventCompactor AguiEventCompactor;

AguiEventCompactor *_agui_event_compactor_new          (void);
void                _agui_event_compactor_free         (AguiEventCompactor *self);
void                _agui_event_compactor_add          (AguiEventCompactor *self,
                                                        AguiEvent          *event);
guint               _agui_event_compactor_get_n_events (AguiEventCompactor *self);
AguiEvent          *_agui_event_compactor_dup_event    (AguiEventCompactor *self,
                                                        guint               index);

/* Joins each stream's consecutive deltas into one event, as a compactor
 * does. Returns a new array of new references; @events is left as it
 * was. */
GPtrArray          *_agui_event_compactor_compact      (GPtrArray          *events);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiEventCompactor, _agui_event_compactor_free)

G_END_DECLS
