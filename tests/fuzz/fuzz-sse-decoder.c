/* fuzz-sse-decoder.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * However a body is cut into chunks, the decoder gives the same frames
 * and fails or succeeds alike.
 */

#include "config.h"

#include "agui.h"
#include "agui-sse-decoder-private.h"
#include "fuzz.h"

static char *
decode (const uint8_t *data,
        size_t         size,
        gboolean       chunked,
        gboolean      *failed)
{
  g_autoptr(AguiSseDecoder) decoder = _agui_sse_decoder_new ();
  g_autoptr(GString) frames = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  size_t offset = 0;
  AguiSseFrame *frame;

  /* A small cap, so the over-cap path is reached too. */
  _agui_sse_decoder_set_max_frame_size (decoder, 1024);

  while (ok && offset < size)
    {
      /* The chunk sizes come from the data itself: 1 to 8 bytes. */
      size_t length = chunked ? MIN (size - offset, (size_t) (data[offset] % 8) + 1) : size;

      ok = _agui_sse_decoder_push (decoder, data + offset, length, &error);
      offset += length;
    }
  if (ok)
    ok = _agui_sse_decoder_finish (decoder, &error);

  while ((frame = _agui_sse_decoder_next_frame (decoder)) != NULL)
    {
      g_string_append_printf (frames, "[%s|%s|%" G_GINT64_FORMAT "|",
                              _agui_sse_frame_get_event (frame) ? _agui_sse_frame_get_event (frame) : "-",
                              _agui_sse_frame_get_id (frame) ? _agui_sse_frame_get_id (frame) : "-",
                              _agui_sse_frame_get_retry (frame));
      g_string_append_len (frames, _agui_sse_frame_get_data (frame), _agui_sse_frame_get_data_length (frame));
      g_string_append (frames, "]\n");
      _agui_sse_frame_unref (frame);
    }

  *failed = !ok;
  return g_string_free (g_steal_pointer (&frames), FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *whole = NULL;
  g_autofree char *pieces = NULL;
  gboolean whole_failed, pieces_failed;

  fuzz_init ();

  whole = decode (data, size, FALSE, &whole_failed);
  pieces = decode (data, size, TRUE, &pieces_failed);

  FUZZ_CHECK (whole_failed == pieces_failed, "chunking changed whether the body fails");
  if (!whole_failed)
    FUZZ_CHECK (g_str_equal (whole, pieces), "chunking changed the frames:\n%s\nvs\n%s", whole, pieces);

  return 0;
}
