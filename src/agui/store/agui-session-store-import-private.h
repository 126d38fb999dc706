/* agui-session-store-import-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-json-doc-private.h"
#include "agui-session-store.h"

G_BEGIN_DECLS

/* An import taken a piece at a time, so that neither the export's text
 * nor a tree of it is ever whole in memory: its small members (format,
 * version, thread, state, interrupts, surface values) as values, its
 * messages and events one by one, each checked and folded as it comes
 * and kept only as the rows the store writes. Each call that can fail
 * says why in *@reason, the words after "Could not import the thread: ". */
typedef struct _AguiImport AguiImport;

/* The parts of the checks on the small members, by what they come before */
typedef enum
{
  AGUI_IMPORT_BEFORE_MESSAGES = 1 << 0,
  AGUI_IMPORT_BEFORE_EVENTS = 1 << 1,
  AGUI_IMPORT_WHOLE = AGUI_IMPORT_BEFORE_MESSAGES | AGUI_IMPORT_BEFORE_EVENTS,
} AguiImportChecks;

AguiImport *_agui_import_new          (void);
void        _agui_import_free         (AguiImport        *self);
/* A member other than the messages and events arrays; @value is taken */
void        _agui_import_add_member   (AguiImport        *self,
                                       const char        *name,
                                       AguiJsonValue     *value);
/* The small members read so far against @checks; with @complete, a
 * member that is missing is an error too. */
gboolean    _agui_import_check        (AguiImport        *self,
                                       AguiImportChecks   checks,
                                       gboolean           complete,
                                       char             **reason);
/* Before the elements of the messages or events array */
gboolean    _agui_import_begin_array  (AguiImport        *self,
                                       const char        *name,
                                       char             **reason);
gboolean    _agui_import_add_message  (AguiImport          *self,
                                       const AguiJsonValue *message,
                                       char               **reason);
/* Takes @event, leaving it null */
gboolean    _agui_import_add_event    (AguiImport        *self,
                                       AguiJsonValue     *event,
                                       char             **reason);
/* The last checks (the messages and state against what the log folds
 * to), then the new thread written whole or not at all. Returns its id. */
char       *_agui_import_finish       (AguiImport        *self,
                                       AguiSessionStore  *store,
                                       GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiImport, _agui_import_free)

G_END_DECLS
