/* agui-thread-info-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-thread-info.h"

G_BEGIN_DECLS

/* Times are microseconds since the Unix epoch, as the store keeps them.
 * An info may be made on the store's worker: it is handed to the main
 * thread whole, and only changed there. */
AguiThreadInfo *_agui_thread_info_new              (const char       *id,
                                                    const char       *title,
                                                    const char       *agent_id,
                                                    gint64            created,
                                                    gint64            updated,
                                                    AguiThreadStatus  status,
                                                    gboolean          pinned);
gint64          _agui_thread_info_get_updated_time (AguiThreadInfo   *self);
/* Takes @from's stored fields (not its snippet), notifying each that
 * changed. Returns whether any did. */
gboolean        _agui_thread_info_update           (AguiThreadInfo   *self,
                                                    AguiThreadInfo   *from);
gboolean        _agui_thread_info_set_snippet      (AguiThreadInfo   *self,
                                                    const char       *snippet);

G_END_DECLS
