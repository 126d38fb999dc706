/* agui-proto-decoder-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agui-event-parser-private.h"

G_BEGIN_DECLS

#define AGUI_PROTO_CONTENT_TYPE "application/vnd.ag-ui.event+proto"

/* Splits a body in the binary AG-UI framing (a 4-byte big-endian length,
 * then that many bytes of one event) fed in arbitrary chunks, the way
 * AguiSseDecoder splits SSE. A pure state machine: no main loop, no I/O.
 *
 * A length over the frame cap loses the framing (nothing after it can be
 * found), so it ends the body: next_frame() fails with it. A frame that does not decode
 * is refused by _agui_proto_decoder_parse_frame() alone, and the frames
 * after it are read as usual, as a malformed SSE frame is. */
typedef struct _AguiProtoDecoder AguiProtoDecoder;

AguiProtoDecoder *_agui_proto_decoder_new                (void);
void              _agui_proto_decoder_free               (AguiProtoDecoder  *self);
void              _agui_proto_decoder_set_max_frame_size (AguiProtoDecoder  *self,
                                                          gsize              max_frame_size);
gsize             _agui_proto_decoder_get_max_frame_size (AguiProtoDecoder  *self);
void              _agui_proto_decoder_push               (AguiProtoDecoder  *self,
                                                          const guint8      *data,
                                                          gsize              length);
/* The body ended: FALSE with @error when it ended inside a frame. */
gboolean          _agui_proto_decoder_finish             (AguiProtoDecoder  *self,
                                                          GError           **error);
/* The next complete frame's payload, valid until the next push; FALSE
 * when no complete frame is buffered, with @error when the next length
 * prefix is over the cap (then nothing more is read). @index counts
 * frames from 1. */
gboolean          _agui_proto_decoder_next_frame         (AguiProtoDecoder  *self,
                                                          const guint8     **data,
                                                          gsize             *length,
                                                          guint             *index,
                                                          GError           **error);

/* One frame's payload as an event, through @parser as an SSE frame's JSON
 * would go (deprecated shapes, the schema). NULL with @error for a frame
 * that is not a valid event; NULL without for an event kind from a later
 * protocol, dropped. */
AguiEvent        *_agui_proto_decoder_parse_frame        (AguiEventParser   *parser,
                                                          const guint8      *data,
                                                          gsize              length,
                                                          guint              index,
                                                          GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AguiProtoDecoder, _agui_proto_decoder_free)

G_END_DECLS
