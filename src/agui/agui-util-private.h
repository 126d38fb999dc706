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

G_END_DECLS
