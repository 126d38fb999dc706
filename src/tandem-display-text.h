/* tandem-display-text.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The longest line a label is given */
#define TANDEM_DISPLAY_LINE_BYTES 512
/* The most of a tool's arguments or result a card shows */
#define TANDEM_DISPLAY_TOOL_BYTES (8 * 1024)
/* The most of a message of the person's own a bubble shows */
#define TANDEM_DISPLAY_MESSAGE_BYTES (64 * 1024)

char *tandem_display_text (const char *text,
                           gsize       max_bytes,
                           gboolean    streaming);

char *tandem_code_language_name (const char *language);

G_END_DECLS
