/* tandem-attempt-frame.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agui.h"

G_BEGIN_DECLS

#define TANDEM_TYPE_ATTEMPT_FRAME (tandem_attempt_frame_get_type ())
G_DECLARE_FINAL_TYPE (TandemAttemptFrame, tandem_attempt_frame, TANDEM, ATTEMPT_FRAME, GtkWidget)

GtkWidget  *tandem_attempt_frame_new           (AguiPart           *part,
                                                GtkWidget          *child);
void        tandem_attempt_frame_set_part      (TandemAttemptFrame *self,
                                                AguiPart           *part);
GtkWidget  *tandem_attempt_frame_get_child     (TandemAttemptFrame *self);
const char *tandem_attempt_frame_get_mark_text (TandemAttemptFrame *self);
void        tandem_attempt_frame_set_show_mark (TandemAttemptFrame *self,
                                                gboolean            show_mark);
void        tandem_attempt_frame_set_collapsed (TandemAttemptFrame *self,
                                                gboolean            collapsed);
GtkWidget  *tandem_attempt_frame_get_collapse_button (TandemAttemptFrame *self);
char       *tandem_attempt_frame_get_notes_text (TandemAttemptFrame *self);
char       *tandem_attempt_frame_dup_note_text (JsonObject         *note);

G_END_DECLS
