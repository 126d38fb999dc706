/* agui-test-proto.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The producing side of the binary encoding, for tests only: what
 * @ag-ui/encoder writes for an event (its JSON form mapped onto
 * agui-events.proto as @ag-ui/proto's encode() maps it, packed by
 * protobuf-c, behind a 4-byte big-endian length). Written apart from the
 * library's decoder, from the schema and the reference, so that the two
 * check each other.
 *
 * An event whose binary form would not read back as the same event is
 * refused with @error saying why: a member the schema gives a default
 * (the wire cannot tell it absent from ""), a value of the wrong JSON
 * type, a deprecated shape with no message of its own. Members the
 * schema does not know are left out, as the reference leaves them. */
gboolean  agui_test_proto_append_event (GByteArray  *frames,
                                        JsonObject  *event,
                                        GError     **error);
gboolean  agui_test_proto_append_json  (GByteArray  *frames,
                                        const char  *json,
                                        GError     **error);
/* Every frame of an SSE body, re-encoded. */
GBytes   *agui_test_proto_encode_sse   (const char  *sse,
                                        gsize        length,
                                        GError     **error);

G_END_DECLS
