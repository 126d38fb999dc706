/* tandem-agents-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-agent-private.h"
#include "tandem-agents.h"

G_BEGIN_DECLS

struct _TandemAgents
{
  GObject       parent_instance;
  GSettings    *settings;
  GListStore   *model;
  char         *active_id;

  /* Keyring writes, one at a time: libsecret's file backend (the one a
   * Flatpak uses) replaces its file against the tag of its last write, so
   * a second write begun before the first is on disk fails with "The file
   * was externally modified". The head is the write under way. */
  GQueue        keyring_writes;
};

TandemAgent *_tandem_agents_ref_agent           (TandemAgents *self,
                                                 const char   *id);
void         _tandem_agents_emit_agent_changed  (TandemAgents *self,
                                                 const char   *id);
void         _tandem_agents_write               (TandemAgents *self,
                                                 TandemAgent  *replace,
                                                 const char   *remove_id);

G_END_DECLS
