/* agui-interrupt-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-interrupt.h"

G_BEGIN_DECLS

/* @object is an AG-UI Interrupt the verifier has checked; the interrupt
 * keeps a reference to it and never changes it. */
AguiInterrupt *_agui_interrupt_new (JsonObject *object);

G_END_DECLS
