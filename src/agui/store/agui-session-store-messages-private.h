/* agui-session-store-messages-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-session-store-db-private.h"

G_BEGIN_DECLS

/* Reads the messages of one thread's snapshots, remembering what it
 * read: the hashes of each snapshot met, and each message parsed, so
 * that the snapshots of a thread with branches cost their own changes */
typedef struct
{
  AguiSessionStore *store;
  char             *thread_id;
  sqlite3_stmt     *snapshot;
  /* snapshot id → GArray of gint64 */
  GHashTable       *lists;
  /* gint64 hash → AguiJsonValue, each message read */
  GHashTable       *nodes;
  /* gint64 hash → the JSON of each of the thread's messages, once read */
  GHashTable       *json;
  /* Only the messages whose JSON holds this, if set */
  const char       *filter;
} AguiMessageReader;

AguiMessageReader *_agui_message_reader_new      (AguiSessionStore   *self,
                                                  const char         *thread_id,
                                                  const char         *what,
                                                  GError            **error);
void               _agui_message_reader_free     (AguiMessageReader  *reader);
/* The hashes of @snapshot_id's messages, in order (borrowed from the
 * reader), or NULL with @error. A missing parent is a thread's start. */
GArray            *_agui_message_reader_hashes   (AguiMessageReader  *reader,
                                                  const char         *snapshot_id,
                                                  const char         *what,
                                                  GError            **error);
/* The messages @hashes name, copied into a new array in @messages
 * (null before) */
gboolean           _agui_message_reader_messages (AguiMessageReader  *reader,
                                                  const GArray       *hashes,
                                                  AguiJsonValue      *messages,
                                                  const char         *what,
                                                  GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiMessageReader, _agui_message_reader_free)

G_END_DECLS
