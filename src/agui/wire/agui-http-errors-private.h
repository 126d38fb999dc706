/* agui-http-errors-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-types.h"

G_BEGIN_DECLS

/* The messages of AguiHttpTransport's failures, one function a kind, so
 * that each says first what happened and what to do, and keeps the raw
 * material as the error's details (_agui_error_get_details()). They are
 * pure: the tests call them directly as well as through a server. */

/* The reference client quotes this much of an error response. */
#define AGUI_HTTP_ERROR_BODY_MAX_CHARS 2048

char   *_agui_http_format_duration     (guint         milliseconds);
char   *_agui_http_quote_body          (const guint8 *body,
                                        gsize         length,
                                        const char   *content_type);
GError *_agui_http_error_new_status    (const char   *url,
                                        guint         status,
                                        const char   *reason_phrase,
                                        const char   *content_type,
                                        const guint8 *body,
                                        gsize         length);
GError *_agui_http_error_new_not_agui  (const char   *url,
                                        const char   *content_type,
                                        const guint8 *body,
                                        gsize         length);
GError *_agui_http_error_new_connect   (const char   *url,
                                        const GError *cause);
GError *_agui_http_error_new_frame_cap (gsize         size,
                                        gboolean      at_least,
                                        gsize         max_frame_size);
GError *_agui_http_error_new_proto_length (gsize      announced,
                                           gsize      max_frame_size);
GError *_agui_http_error_new_body_read (const GError *cause,
                                        const char   *content_encoding);
GError *_agui_http_error_new_compressed_corrupt (const char *content_encoding);

G_END_DECLS
