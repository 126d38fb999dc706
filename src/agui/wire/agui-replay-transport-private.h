/* agui-replay-transport-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-replay-transport.h"

G_BEGIN_DECLS

/* A transport with the same scripted runs still to come and none of the
 * requests seen; for tests that replay one script twice. */
AguiReplayTransport *_agui_replay_transport_copy (AguiReplayTransport *self);

G_END_DECLS
