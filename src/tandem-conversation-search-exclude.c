/* tandem-conversation-search-exclude.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-conversation-search-exclude.h"

/* The mark a transcript row puts on its own words, in a file of its own:
 * the rows set it and the search reads it, so neither calls the other
 * for it (the search sits above the rows). */

/* Marks what the highlighting leaves alone */
static G_DEFINE_QUARK (tandem-conversation-search-exclude, exclude)

/**
 * tandem_conversation_search_exclude:
 * @widget: a widget of a transcript row
 *
 * Marks @widget, and all it holds, as the row's own words (a title, a
 * state, a button), not the conversation's: the search neither counts
 * nor highlights them.
 */
void
tandem_conversation_search_exclude (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  g_object_set_qdata (G_OBJECT (widget), exclude_quark (), GINT_TO_POINTER (TRUE));
}

/* Whether @widget was marked with tandem_conversation_search_exclude() */
gboolean
tandem_conversation_search_is_excluded (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  return g_object_get_qdata (G_OBJECT (widget), exclude_quark ()) != NULL;
}
