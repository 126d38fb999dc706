/* tandem-connection-test.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agui.h"

G_BEGIN_DECLS

void  tandem_connection_test_async  (AguiTransport       *transport,
                                     const char          *url,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
char *tandem_connection_test_finish (GAsyncResult        *result,
                                     GError             **error);

G_END_DECLS
