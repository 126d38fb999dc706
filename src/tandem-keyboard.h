/* tandem-keyboard.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_KEYBOARD (tandem_keyboard_get_type ())
G_DECLARE_FINAL_TYPE (TandemKeyboard, tandem_keyboard, TANDEM, KEYBOARD, GObject)

TandemKeyboard *tandem_keyboard_new                (GtkWindow      *window);
void            tandem_keyboard_set_sidebar        (TandemKeyboard *self,
                                                    GtkWidget      *sidebar,
                                                    GtkListBox     *list,
                                                    GtkSearchBar   *search_bar,
                                                    GtkSearchEntry *search_entry);
void            tandem_keyboard_set_conversation   (TandemKeyboard *self,
                                                    GtkWidget      *conversation,
                                                    GtkWidget      *transcript);
void            tandem_keyboard_set_composer       (TandemKeyboard *self,
                                                    GtkWidget      *composer,
                                                    GtkTextView    *view,
                                                    GtkWidget      *blocked);
gboolean        tandem_keyboard_cycle_regions      (TandemKeyboard *self,
                                                    gboolean        backwards);
gboolean        tandem_keyboard_focus_composer     (TandemKeyboard *self);
gboolean        tandem_keyboard_focus_conversation (TandemKeyboard *self);
void            tandem_keyboard_search_done        (TandemKeyboard *self);
void            tandem_keyboard_jumped_to_start    (TandemKeyboard *self);

G_END_DECLS
