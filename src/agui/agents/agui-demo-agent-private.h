/* agui-demo-agent-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "agui-demo-agent.h"
#include "agui-event-stream.h"
#include "agui-json-doc-access-private.h"

G_BEGIN_DECLS

/* The demo agent in files of one job each: the agent and the playing of
 * a planned run (agui-demo-agent.c), the events a plan is made of and
 * the reading of the request (-plan.c), the answers (-scenarios.c), the
 * dashboard (-dashboard.c) and the approval flow (-approval.c). A run is
 * planned whole before its first event goes out. */

/* A question the agent asked, kept across runs to check its answer. */
typedef struct
{
  char      *id;
  char      *thread_id;
  char      *tool_call_id;
  char      *folder;
  gint64     keep_days;
  GDateTime *expires_at;
  /* the resume entry acted upon; NULL while open, a JSON null when
   * answered in a way no entry matches */
  AguiJsonValue *answer;
} DemoInterrupt;

struct _AguiDemoAgent
{
  GObject     parent_instance;
  GPtrArray  *runs;         /* DemoRun, unowned: a run frees itself when it ends */
  GHashTable *interrupts;   /* id → DemoInterrupt */
  guint       delay;
};


/* One event of a planned run, and what the agent learns by sending it. */
typedef struct
{
  AguiEvent     *event;
  DemoInterrupt *ask;       /* remembered as the event goes out */
  GPtrArray     *answers;   /* AguiJsonValue resume entries, settled as the event goes out */
  guint          pause;     /* after the event, in multiples of the delay */
} Beat;

typedef struct
{
  AguiDemoAgent   *agent;   /* unowned; NULL once the agent has gone */
  AguiEventStream *stream;
  GMainContext    *context;
  GSource         *source;
  gulong           cancelled_id;
  guint            delay;
  GQueue           beats;
  guint            playing : 1;

  /* For planning: the request, and the state as the client will hold it
   * once the beats planned so far have been applied. */
  char            *thread_id;
  char            *run_id;
  AguiJsonValue    state;
  guint            turns;
  guint            turns_reported : 1;
} DemoRun;

/* Planning events, and reading the request: agui-demo-agent-plan.c.
 * An event's members are one object of the compact tree, on the heap,
 * which _agui_demo_plan_event () takes; an object of string members is
 * made by _agui_demo_members () (a NULL string is null, as json-glib's
 * setter makes it), and _agui_demo_members_take () moves a value made
 * so into it as a member. */
AguiJsonValue *_agui_demo_members           (const char *first_name,
                                             ...) G_GNUC_NULL_TERMINATED;
void        _agui_demo_members_take         (AguiJsonValue *members,
                                             const char    *name,
                                             AguiJsonValue *value);
Beat       *_agui_demo_plan_event           (DemoRun       *run,
                                             guint          pause,
                                             AguiEventType  type,
                                             AguiJsonValue *members);
void        _agui_demo_plan_run_started     (DemoRun *run);
Beat       *_agui_demo_plan_run_finished    (DemoRun       *run,
                                             AguiJsonValue *outcome);
void        _agui_demo_plan_run_succeeded   (DemoRun *run);
void        _agui_demo_plan_run_error       (DemoRun    *run,
                                             const char *message,
                                             const char *code);
void        _agui_demo_plan_step            (DemoRun    *run,
                                             const char *name,
                                             gboolean    started);
void        _agui_demo_plan_words           (DemoRun       *run,
                                             AguiEventType  type,
                                             const char    *message_id,
                                             const char    *text);
void        _agui_demo_plan_text_start      (DemoRun    *run,
                                             const char *message_id);
void        _agui_demo_plan_text            (DemoRun    *run,
                                             const char *message_id,
                                             const char *text);
void        _agui_demo_plan_reasoning       (DemoRun    *run,
                                             const char *text);
void        _agui_demo_plan_tool_call       (DemoRun    *run,
                                             const char *tool_call_id,
                                             const char *tool_name,
                                             const char *parent_message_id,
                                             const char *arguments,
                                             AguiJsonValue *metadata);
/* @result is the text of the result, printed from the tree. */
void        _agui_demo_plan_tool_result     (DemoRun             *run,
                                             const char          *tool_call_id,
                                             const AguiJsonValue *result);
/* Makes @value (null before) an object of string members, as
 * _agui_demo_members () does on the heap. */
AguiJsonDocObject *_agui_demo_string_value  (AguiJsonValue *value,
                                             const char    *first_name,
                                             ...) G_GNUC_NULL_TERMINATED;
void        _agui_demo_plan_demo_state      (DemoRun       *run,
                                             AguiJsonValue *changes,
                                             gboolean       as_snapshot);
AguiJsonValue *_agui_demo_stage_changes     (const char *stage);
/* The request is read in the compact tree: a RunAgentInput object, its
 * arrays and their objects are AguiJsonValues, NULL where absent or of
 * another kind. */
char       *_agui_demo_content_text         (const AguiJsonValue *content);
AguiJsonValue *_agui_demo_array_object      (const AguiJsonValue *array,
                                             guint                index);
gboolean    _agui_demo_declares_tool        (const AguiJsonValue *input,
                                             const char          *name);
const char *_agui_demo_called_tool_name     (const AguiJsonValue *messages,
                                             const char          *tool_call_id);
char       *_agui_demo_quote_user           (const char *text);
char       *_agui_demo_describe_time        (GDateTime *time);
char       *_agui_demo_describe_time_result (const char *content);
gboolean    _agui_demo_has_word             (const char *text,
                                             const char *word);

/* The scenarios: agui-demo-agent-scenarios.c */
void _agui_demo_plan_run (DemoRun             *run,
                          const AguiJsonValue *input);

/* The dashboard: agui-demo-agent-dashboard.c */
void        _agui_demo_plan_dashboard        (DemoRun *run);
AguiJsonValue *_agui_demo_a2ui_user_action   (const AguiJsonValue *input);
void        _agui_demo_plan_dashboard_answer (DemoRun             *run,
                                              const AguiJsonValue *user_action);

/* The approval flow: agui-demo-agent-approval.c */
void       _agui_demo_interrupt_free    (DemoInterrupt *interrupt);
void       _agui_demo_plan_ask_approval (DemoRun    *run,
                                         const char *lead);
GPtrArray *_agui_demo_open_interrupts   (AguiDemoAgent *self,
                                         const char    *thread_id);
void       _agui_demo_plan_resume       (DemoRun             *run,
                                         const AguiJsonValue *messages,
                                         const AguiJsonValue *resume);

G_END_DECLS
