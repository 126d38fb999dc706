/* agui-util-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

/* GLib 2.74 has no g_set_str(); this is the same contract. */
static inline gboolean
_agui_set_str (char       **str_pointer,
               const char  *new_str)
{
  char *copy;

  if (*str_pointer == new_str ||
      (*str_pointer && new_str && strcmp (*str_pointer, new_str) == 0))
    return FALSE;

  copy = g_strdup (new_str);
  g_free (*str_pointer);
  *str_pointer = copy;

  return TRUE;
}

/* Message and tool call ids are held by several owners at once (the
 * record, its parts, the indexes, the verifier), and a tool's name by
 * every call to it: one counted string shared by the holders that ask
 * for it close together, instead of a copy apiece. A long run of tool
 * calls held eight copies of every call's id and one of the name per
 * call. Not interned: compare them with strcmp (). Made and released
 * only through these two (see agui-id.c for why). */
char *_agui_id_new     (const char *id);
void  _agui_id_release (char       *id);

/* _agui_set_str() for a string from _agui_id_new() */
static inline gboolean
_agui_set_id (char       **id_pointer,
              const char  *new_id)
{
  char *shared;

  if (*id_pointer == new_id ||
      (*id_pointer && new_id && strcmp (*id_pointer, new_id) == 0))
    return FALSE;

  shared = _agui_id_new (new_id);
  g_clear_pointer (id_pointer, _agui_id_release);
  *id_pointer = shared;

  return TRUE;
}

G_END_DECLS
