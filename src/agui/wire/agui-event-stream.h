/* agui-event-stream.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGUI_INSIDE) && !defined(AGUI_COMPILATION)
# error "Only <agui.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agui-event.h"

G_BEGIN_DECLS

#define AGUI_TYPE_EVENT_STREAM (agui_event_stream_get_type ())
AGUI_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AguiEventStream, agui_event_stream, AGUI, EVENT_STREAM, GObject)

AGUI_AVAILABLE_IN_ALL
AguiEventStream *agui_event_stream_new             (void);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_push_event      (AguiEventStream      *self,
                                                    AguiEvent            *event);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_push_error      (AguiEventStream      *self,
                                                    const GError         *error);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_end             (AguiEventStream      *self,
                                                    const GError         *error);
AGUI_AVAILABLE_IN_ALL
gboolean         agui_event_stream_is_ended        (AguiEventStream      *self);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_next_async      (AguiEventStream      *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
AGUI_AVAILABLE_IN_ALL
AguiEvent       *agui_event_stream_next_finish     (AguiEventStream      *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_close           (AguiEventStream      *self);
AGUI_AVAILABLE_IN_ALL
GCancellable    *agui_event_stream_get_cancellable (AguiEventStream      *self);
AGUI_AVAILABLE_IN_ALL
void             agui_event_stream_read_sse        (AguiEventStream      *self,
                                                    GInputStream         *body,
                                                    gsize                 max_frame_size);

G_END_DECLS
