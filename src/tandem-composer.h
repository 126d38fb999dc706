/* tandem-composer.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_COMPOSER (tandem_composer_get_type ())
G_DECLARE_FINAL_TYPE (TandemComposer, tandem_composer, TANDEM, COMPOSER, AdwBin)

GtkWidget     *tandem_composer_new                 (void);
gboolean       tandem_composer_get_busy            (TandemComposer  *self);
void           tandem_composer_set_busy            (TandemComposer  *self,
                                                    gboolean         busy);
gboolean       tandem_composer_get_waiting         (TandemComposer  *self);
void           tandem_composer_set_waiting         (TandemComposer  *self,
                                                    gboolean         waiting);
guint          tandem_composer_get_n_attachments   (TandemComposer  *self);
GtkTextView   *tandem_composer_get_view            (TandemComposer  *self);
GtkTextBuffer *tandem_composer_get_buffer          (TandemComposer  *self);
char          *tandem_composer_dup_text            (TandemComposer  *self);
gboolean       tandem_composer_has_content         (TandemComposer  *self);
JsonArray     *tandem_composer_dup_content_parts   (TandemComposer  *self);
void           tandem_composer_clear_attachments   (TandemComposer  *self);
void           tandem_composer_attach_file         (TandemComposer  *self,
                                                    GFile           *file);
void           tandem_composer_set_hint            (TandemComposer  *self,
                                                    const char      *hint,
                                                    gboolean         blocked);
gboolean       tandem_composer_handle_key          (TandemComposer  *self,
                                                    guint            keyval,
                                                    GdkModifierType  state);

G_END_DECLS
