/* fuzz.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

/* The entry point libFuzzer calls, and replay.c when the harness is built
 * without clang to replay the committed corpus in the normal suite. */
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* A property every input must keep: on failure the harness aborts, which
 * is a finding for libFuzzer and a failed test for the replay. abort(),
 * not g_error(): GLib's fatal messages end in a breakpoint trap, which
 * libFuzzer does not catch, so it would save no reproducer. */
#define FUZZ_CHECK(condition, ...) \
  G_STMT_START { \
    if (G_UNLIKELY (!(condition))) \
      { \
        g_autofree char *fuzz_message_ = g_strdup_printf (__VA_ARGS__); \
        fprintf (stderr, "property broken: %s\n", fuzz_message_); \
        abort (); \
      } \
  } G_STMT_END

/* Criticals are bugs the fuzzer must report, not noise; they abort for
 * the same reason. */
static inline GLogWriterOutput
fuzz_log_writer (GLogLevelFlags   log_level,
                 const GLogField *fields,
                 gsize            n_fields,
                 gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_default (log_level, fields, n_fields, user_data);

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL))
    abort ();

  return output;
}

static inline void
fuzz_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
      g_once_init_leave (&initialized, 1);
    }
}
