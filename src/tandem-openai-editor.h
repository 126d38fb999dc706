/* tandem-openai-editor.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tandem-agents.h"

G_BEGIN_DECLS

typedef struct _TandemOpenaiEditor TandemOpenaiEditor;

TandemOpenaiEditor *tandem_openai_editor_new              (AdwPreferencesPage   *page,
                                                           AdwPreferencesGroup  *group,
                                                           AdwEntryRow          *url_row,
                                                           TandemAgents         *agents,
                                                           TandemAgent          *agent);
void                tandem_openai_editor_free             (TandemOpenaiEditor   *self);
void                tandem_openai_editor_set_token_row    (TandemOpenaiEditor   *self,
                                                           AdwPasswordEntryRow  *token_row);
void                tandem_openai_editor_add_agui_only    (TandemOpenaiEditor   *self,
                                                           GtkWidget            *widget);
gboolean            tandem_openai_editor_is_openai        (TandemOpenaiEditor   *self);
void                tandem_openai_editor_set_openai       (TandemOpenaiEditor   *self,
                                                           gboolean              openai);
void                tandem_openai_editor_select_preset    (TandemOpenaiEditor   *self,
                                                           guint                 position);
void                tandem_openai_editor_refresh_models   (TandemOpenaiEditor   *self);
gboolean            tandem_openai_editor_get_refreshing   (TandemOpenaiEditor   *self);
GListModel         *tandem_openai_editor_get_models       (TandemOpenaiEditor   *self);
const char         *tandem_openai_editor_get_status       (TandemOpenaiEditor   *self);
GtkEditable        *tandem_openai_editor_get_field        (TandemOpenaiEditor   *self,
                                                           const char           *field);
TandemAgent        *tandem_openai_editor_create_agent     (TandemOpenaiEditor   *self,
                                                           const char           *id,
                                                           const char           *name,
                                                           const char           *base_url,
                                                           const char * const   *headers,
                                                           guint                 idle_timeout,
                                                           GtkWidget           **bad_field,
                                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TandemOpenaiEditor, tandem_openai_editor_free)

G_END_DECLS
