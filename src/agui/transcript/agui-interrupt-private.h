/* agui-interrupt-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-interrupt.h"
#include "agui-json-doc-private.h"

G_BEGIN_DECLS

/* @object is an AG-UI Interrupt the verifier has checked; the interrupt
 * keeps a copy of its own, in the compact tree. */
AguiInterrupt *_agui_interrupt_new            (JsonObject          *object);
/* The same for an object in the compact tree */
AguiInterrupt *_agui_interrupt_new_from_value (const AguiJsonValue *object);

G_END_DECLS
