/* tandem-window-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tandem-approval-notice.h"
#include "tandem-block-list.h"
#include "tandem-block-window.h"
#include "tandem-composer.h"
#include "tandem-conversation-search.h"
#include "tandem-draft-keeper.h"
#include "tandem-interrupt-banner.h"
#include "tandem-keyboard.h"
#include "tandem-run-registry.h"
#include "tandem-save-banner.h"
#include "tandem-scroll-span.h"
#include "tandem-sidebar.h"
#include "tandem-state-inspector.h"
#include "tandem-toaster.h"
#include "tandem-welcome-prompts.h"
#include "tandem-window.h"

G_BEGIN_DECLS

/* TandemWindow spans files (tandem-window*.c), as Text Editor's page
 * does: the struct is theirs to share, and nobody else's. */

/* How close to the end counts as "at the bottom", in pixels. */
#define BOTTOM_EPSILON 8.0

/* A conversation opens with its last blocks, a screen or so of them;
 * older ones are put in front this many at a time, a frame each, until
 * a screen's worth is above what is shown, and then as the person reads
 * back (see TandemBlockWindow for why not all at once). Each row costs
 * the frame that makes it about a millisecond: forty at once held the
 * main thread 50-80 ms on opening. */
#define OPEN_BLOCKS 16
/* A jump far back (Home, the scrollbar, a match of Find) shows this many
 * blocks either side of the place jumped to at once, the rest as the
 * person scrolls: the rows made for them are all laid out in the frame
 * of the jump, and eight at once held it 16-25 ms. */
#define REVEAL_BLOCKS 4
/* How long a window closed during a run waits for its turn to be saved */
#define CLOSE_TIMEOUT_S 10

struct _TandemWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  AguiSessionStore     *store;
  TandemAgents         *agents;
  AguiToolRegistry     *tools;
  AguiAgentSession     *session;
  TandemRunRegistry    *runs;          /* the conversations alive, shown or not */
  AguiTranscript       *transcript;
  TandemBlockList      *blocks;
  TandemBlockWindow    *block_window;  /* what the view shows of them */
  guint                 reveal_tick;
  guint                 drop_id;       /* letting go of blocks far above, after a frame */
  guint                 drop_count;
  guint                 open_rest_id;  /* the rest of OPEN_BLOCKS, before the first frame */
  gboolean              reveal_front;
  gboolean              reveal_back;
  /* What putting a block in at an edge costs the frame, as the last
   * frames that did took (see tandem-window-transcript.c) */
  gint64                reveal_started;
  guint                 reveal_shown;
  gint64                reveal_cost_us;
  guint                 close_timeout_id;  /* closed, waiting for the turns' save */
  gboolean              close_confirmed;   /* stopping the runs was agreed to */
  GtkWindow            *quit_dialog;
  char                 *reopen_thread;  /* to reopen once the store is open */
  gboolean              relayout_pending;
  char                 *agent_id;      /* the conversation's: an agent's id or a URL */
  char                 *agent_problem; /* why it cannot be used, or NULL */
  char                 *next_agent_problem;
  GCancellable         *cancellable;
  GCancellable         *open_cancellable;
  GtkWindow            *approval_dialog;
  char                 *last_user_text;
  /* The store opened: what was typed goes to the conversation kept */
  gboolean              keep_composer_text;
  guint                 follow_tick;
  /* Rows were told to keep their actions above Jump to Latest */
  gboolean              row_floors_set;
  GtkNativeDialog      *file_chooser;
  TandemExportFormat    export_format;
  gboolean              chooser_attaches;

  guint                 following : 1;
  struct _AskData      *ask;           /* the questions being asked, or NULL */
  char                 *composer_hint;
  /* Renames and deletes the store has not answered yet */
  guint                 thread_writes;
  guint                 syncing_dropdown : 1;

  TandemToaster        *toaster;
  TandemKeyboard       *keyboard;
  TandemScrollSpan     *scroll_span;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  AdwFlap              *flap;
  TandemSidebar        *sidebar;
  AdwWindowTitle       *window_title;
  GtkDropDown          *agent_dropdown;
  GtkDropDown          *welcome_agent_dropdown;
  /* The header too narrow for the agent's name: the selector is on the
   * welcome page, until the header is wider than it was then */
  gboolean              agent_narrow;
  int                   agent_narrow_width;
  /* The header's "Working…" gave the title its room, at this width */
  gboolean              steps_narrow;
  int                   steps_narrow_width;
  guint                 fit_agent_id;
  GtkWidget            *agent_missing_banner;
  TandemApprovalNotice *approval_notice;
  GtkLabel             *agent_missing_label;
  GtkDropDown          *continue_dropdown;
  GtkWidget            *steps_box;
  GtkSpinner           *steps_spinner;
  GtkLabel             *steps_label;
  /* What a screen reader finds about the run: see tandem_window_update_status() */
  GtkWidget            *status;
  gpointer              status_session;  /* compared, never used */
  GtkStack             *content_stack;
  AdwStatusPage        *welcome_page;
  GtkWidget            *welcome_preferences_button;
  GtkWidget            *inspector_button;
  GtkWidget            *inspector_close_button;
  TandemWelcomePrompts *welcome_prompts;
  TandemConversationSearch *conversation_search;
  GtkScrolledWindow    *transcript_scroller;
  GtkListView          *transcript_view;
  GtkNoSelection       *transcript_selection;
  GtkWidget            *jump_button;
  GtkRevealer          *error_revealer;
  TandemSaveBanner     *save_banner;
  TandemDraftKeeper    *draft_keeper;
  GtkLabel             *error_label;
  GtkExpander          *error_details;
  GtkLabel             *error_details_label;
  GtkRevealer          *interrupt_revealer;
  TandemInterruptBanner *interrupt_banner;
  TandemComposer       *composer;
  AdwFlap              *inspector_flap;
  AdwHeaderBar         *conversation_header;
  AdwHeaderBar         *inspector_header;
  TandemStateInspector *inspector;

  /* What tandem-window-state.c reaches of the approvals piece, which
   * sits above it: set by tandem-window.c at init. */
  struct
  {
    gboolean (*asks_shown)     (TandemWindow *self);
    void     (*ask_interrupts) (TandemWindow *self);
    void     (*sync_approval)  (TandemWindow *self);
  } approvals;
};

gboolean        _tandem_window_is_blank            (const char        *text);
char           *_tandem_window_dup_composer_text   (TandemWindow      *self);
gboolean        _tandem_window_is_busy             (TandemWindow      *self);
void            _tandem_window_show_error_dialog   (TandemWindow      *self,
                                                    const char        *heading,
                                                    const char        *message);
void            _tandem_window_update_jump_button  (TandemWindow      *self);
void            _tandem_window_scroll_to_end       (TandemWindow      *self);
void            _tandem_window_follow              (TandemWindow      *self);
void            _tandem_window_queue_follow        (TandemWindow      *self);
void            _tandem_window_update_actions      (TandemWindow      *self);
/* An exchange with the agent (send, run, regenerate, edit, resume)
 * ends in _tandem_window_on_exchange_done_cb: pass it, as the user data,
 * what _tandem_window_watch_exchange() makes of the window and the
 * _finish of that call. */
typedef AguiRunState *(*TandemExchangeFinish) (AguiAgentSession  *session,
                                               GAsyncResult      *result,
                                               GError           **error);
gpointer        _tandem_window_watch_exchange      (TandemWindow         *self,
                                                    TandemExchangeFinish  finish);
void            _tandem_window_on_exchange_done_cb (GObject           *object,
                                                    GAsyncResult      *result,
                                                    gpointer           user_data);
void            _tandem_window_ask_interrupts      (TandemWindow      *self);
AguiThreadInfo *_tandem_window_lookup_thread       (TandemWindow      *self,
                                                    const char        *thread_id);
gboolean        _tandem_window_may_run             (TandemWindow      *self);
void            _tandem_window_open                (TandemWindow      *self,
                                                    const char        *thread_id,
                                                    const char        *agent_id);
void            _tandem_window_send_with_attachments (TandemWindow    *self,
                                                    const char        *text);

gboolean        _tandem_window_has_pending_interrupts (TandemWindow   *self);
gboolean        _tandem_window_asks_shown          (TandemWindow      *self);
void            _tandem_window_sync_approval       (TandemWindow      *self);
gboolean        _tandem_window_is_url              (const char        *agent);
void            _tandem_window_update_agent        (TandemWindow      *self);
gboolean        _tandem_window_is_new_conversation (TandemWindow      *self);
gboolean        _tandem_window_is_store_opening    (TandemWindow      *self);
void            _tandem_window_remember_thread     (TandemWindow      *self);
void            _tandem_window_update_title        (TandemWindow      *self);
void            _tandem_window_on_runs_changed_cb  (TandemWindow      *self,
                                                    const char        *thread_id);
void            _tandem_window_on_runs_approval_needed_cb (TandemWindow *self,
                                                           const char   *thread_id);
void            _tandem_window_adopt_store         (TandemWindow      *self);
void            _tandem_window_check_reopen        (TandemWindow      *self);

void            _tandem_window_init_transcript     (TandemWindow      *self);
void            _tandem_window_update_content_page (TandemWindow      *self);

void            _tandem_window_init_actions        (TandemWindow      *self);
void            _tandem_window_class_init_actions  (GtkWidgetClass    *widget_class);
void            _tandem_window_flush_pending_deletes (TandemWindow    *self);
void            _tandem_window_clear_file_chooser  (TandemWindow      *self);

G_END_DECLS
