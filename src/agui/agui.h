/* agui.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#define AGUI_INSIDE
# include "agui-version-macros.h"
# include "agui-types.h"
# include "agui-enums.h"
# include "agui-event.h"
# include "agui-part.h"
# include "agui-text-part.h"
# include "agui-reasoning-part.h"
# include "agui-tool-call-part.h"
# include "agui-activity-part.h"
# include "agui-a2ui-component.h"
# include "agui-a2ui-surface.h"
# include "agui-media-part.h"
# include "agui-speaker-turn.h"
# include "agui-interrupt.h"
# include "agui-subagent-run.h"
# include "agui-run-state.h"
# include "agui-transcript.h"
# include "agui-event-stream.h"
# include "agui-transport.h"
# include "agui-demo-agent.h"
# include "agui-http-transport.h"
# include "agui-openai-agent.h"
# include "agui-replay-transport.h"
# include "agui-tool.h"
# include "agui-tool-registry.h"
# include "agui-run-parameters.h"
# include "agui-agent-session.h"
# include "agui-session-store.h"
# include "agui-thread-info.h"
# include "agui-thread-list.h"
#undef AGUI_INSIDE
