/* agui-test-server.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "agui.h"
#include "agui-test-util.h"

G_BEGIN_DECLS

#define AGUI_TEST_STALL_FOREVER G_MAXUINT

typedef struct _AguiTestResponse AguiTestResponse;

AguiTestResponse *agui_test_response_new                (void);
AguiTestResponse *agui_test_response_new_events         (const char        *first_json,
                                                         ...) G_GNUC_NULL_TERMINATED;
AguiTestResponse *agui_test_response_new_error          (guint              status,
                                                         const char        *content_type,
                                                         const char        *body);
AguiTestResponse *agui_test_response_new_redirect       (guint              status,
                                                         const char        *location);
void              agui_test_response_free               (AguiTestResponse  *self);
void              agui_test_response_set_status         (AguiTestResponse  *self,
                                                         guint              status);
void              agui_test_response_set_content_type   (AguiTestResponse  *self,
                                                         const char        *content_type);
void              agui_test_response_add_header         (AguiTestResponse  *self,
                                                         const char        *name,
                                                         const char        *value);
void              agui_test_response_set_headers_delay  (AguiTestResponse  *self,
                                                         guint              milliseconds);
void              agui_test_response_set_chunk_interval (AguiTestResponse  *self,
                                                         guint              milliseconds);
void              agui_test_response_set_drip           (AguiTestResponse  *self,
                                                         guint              milliseconds);
void              agui_test_response_append_data        (AguiTestResponse  *self,
                                                         const void        *data,
                                                         gssize             length);
void              agui_test_response_append_event_json  (AguiTestResponse  *self,
                                                         const char        *json);
void              agui_test_response_append_event       (AguiTestResponse  *self,
                                                         AguiEvent         *event);
void              agui_test_response_append_stall       (AguiTestResponse  *self,
                                                         guint              milliseconds);
void              agui_test_response_append_reset       (AguiTestResponse  *self);
void              agui_test_response_append_messages_snapshot
                                                        (AguiTestResponse  *self,
                                                         const char        *messages_json);
AguiTestResponse *agui_test_response_new_strands_tool_call
                                                        (const char        *run_id,
                                                         const char        *tool_call_id,
                                                         const char        *tool_name,
                                                         const char        *arguments_json,
                                                         guint              snapshot_delay_ms);
AguiTestResponse *agui_test_response_new_strands_answer (const char        *run_id,
                                                         const char        *message_id,
                                                         const char        *text);

/* The binary encoding (agui-test-proto.h): the same events as frames, with
 * its Content-Type. */
AguiTestResponse *agui_test_response_new_proto_events   (const char        *first_json,
                                                         ...) G_GNUC_NULL_TERMINATED;
void              agui_test_response_append_proto_event (AguiTestResponse  *self,
                                                         const char        *json);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiTestResponse, agui_test_response_free)

typedef enum
{
  AGUI_TEST_EXCHANGE_WAITING,
  AGUI_TEST_EXCHANGE_STREAMING,
  AGUI_TEST_EXCHANGE_COMPLETE,
  AGUI_TEST_EXCHANGE_RESET,
  AGUI_TEST_EXCHANGE_DISCONNECTED,
} AguiTestExchangeState;

typedef struct
{
  char                  *method;
  char                  *path;
  SoupMessageHeaders    *headers;
  GBytes                *body;
  JsonNode              *json;
  AguiTestExchangeState  state;
  gsize                  bytes_written;
  gint64                 ended_at;
} AguiTestRequest;

#define AGUI_TYPE_TEST_SERVER (agui_test_server_get_type ())
G_DECLARE_FINAL_TYPE (AguiTestServer, agui_test_server, AGUI, TEST_SERVER, GObject)

AguiTestServer        *agui_test_server_new              (GError           **error);
const char            *agui_test_server_get_url          (AguiTestServer    *self);
guint                  agui_test_server_get_port         (AguiTestServer    *self);
void                   agui_test_server_push_response    (AguiTestServer    *self,
                                                          AguiTestResponse  *response);
guint                  agui_test_server_get_n_pending    (AguiTestServer    *self);
guint                  agui_test_server_get_n_requests   (AguiTestServer    *self);
const AguiTestRequest *agui_test_server_get_request      (AguiTestServer    *self,
                                                          guint              index);
gboolean               agui_test_server_wait_for_end     (AguiTestServer    *self,
                                                          guint              index,
                                                          guint              timeout_ms);
gboolean               agui_test_server_resume           (AguiTestServer    *self,
                                                          guint              index);
void                   agui_test_server_stop             (AguiTestServer    *self);
JsonObject            *agui_test_server_get_request_body (AguiTestServer    *self,
                                                          guint              index);

G_END_DECLS
