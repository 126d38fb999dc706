/* tandem-agent-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-agent.h"

G_BEGIN_DECLS

/* TandemAgents reads and writes agents field by field. */
struct _TandemAgent
{
  GObject   parent_instance;
  char     *id;
  char     *name;
  char     *url;
  char    **headers;
  guint64          max_frame_size;
  guint            idle_timeout;
  AguiHttpEncoding encoding;
  /* An OpenAI-compatible server's model, when it has one */
  char            *model;
  char            *system_prompt;
  double           temperature;
};

gboolean _tandem_agent_equal        (TandemAgent  *a,
                                     TandemAgent  *b);
gboolean _tandem_agent_split_header (const char   *header,
                                     char        **name,
                                     char        **value);

G_END_DECLS
