/* fuzz.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* The entry point libFuzzer calls, and replay.c when the harness is built
 * without clang to replay the committed corpus in the normal suite. */
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* A property every input must keep: on failure the harness aborts, which
 * is a finding for libFuzzer and a failed test for the replay. */
#define FUZZ_CHECK(condition, ...) \
  G_STMT_START { \
    if (G_UNLIKELY (!(condition))) \
      g_error ("property broken: " __VA_ARGS__); \
  } G_STMT_END

/* Criticals are bugs the fuzzer must report, not noise. */
static inline void
fuzz_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
      g_once_init_leave (&initialized, 1);
    }
}
