/* agui-http-transport-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "agui-http-transport.h"

G_BEGIN_DECLS

/* AguiHttpTransport in files of one job each: the object and its
 * configuration (agui-http-transport.c), one run from the request to
 * the end of its stream (-run.c), what a request carries (-request.c)
 * and how a body's events are framed (-framing.c). */

struct _AguiHttpTransport
{
  GObject           parent_instance;
  char             *url;
  char            **header_lines;
  GUri             *uri;
  GArray           *headers;
  GError           *init_error;
  SoupSession      *session;
  gsize             max_frame_size;
  guint             connect_timeout;
  guint             idle_timeout;
  guint             timeout;
  AguiHttpEncoding  encoding;
  guint             initialized : 1;
};

G_END_DECLS
