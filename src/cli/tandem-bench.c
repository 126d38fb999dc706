/* tandem-bench.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agui.h"
#include "agui-event-parser-private.h"
#include "agui-pipeline-private.h"
#include "agui-reducer-private.h"

#include "tandem-bench.h"

/* Folds a whole SSE body the way a session does (decoder, parser,
 * normalizer, verifier, reducer), once with the fast reader and once with
 * the json-glib reference it replaced, in the same run on the same bytes,
 * so that a noisy machine still shows the ratio. Each fold runs in a child
 * process of its own, so that one's heap does not hide the other's peak
 * RSS, and reads the file in 64 KiB chunks as from a socket, so that the
 * input is not part of the fold's memory. */

#define CHUNK 65536

typedef struct
{
  const char *name;
  gboolean    reference;
  guint64     events;
  double      cpu;
  double      wall;
  gsize       rss_kib;        /* peak RSS during the fold, above before it */
  gsize       peak_kib;       /* the process's peak during the fold */
  char        error[512];
} Run;

static double
cpu_seconds (void)
{
  struct timespec now;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now);

  return now.tv_sec + now.tv_nsec / 1e9;
}

static gsize
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;

  line = strstr (status, field);
  if (line == NULL)
    return 0;

  return (gsize) g_ascii_strtoull (line + strlen (field), NULL, 10);
}

/* Resets VmHWM to the current RSS (Linux 4.0 and later), so each fold's
 * peak is its own; where that is refused the peaks are the process's. */
static void
reset_peak_rss (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");

  if (file == NULL)
    return;

  fputs ("5", file);
  fclose (file);
}

static void
count_event_cb (AguiEvent *event,
                gpointer   user_data)
{
  (*(guint64 *) user_data)++;
}

static void
fold (const char *path,
      Run        *run)
{
  g_autoptr(AguiReducer) reducer = NULL;
  g_autofree guint8 *buffer = g_malloc (CHUNK);
  AguiPipeline *pipeline;
  gsize before;
  double cpu_start;
  gint64 wall_start;
  gssize got;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      g_snprintf (run->error, sizeof run->error, "cannot open %s", path);
      return;
    }

  reset_peak_rss ();
  before = status_kib ("VmRSS:");

  cpu_start = cpu_seconds ();
  wall_start = g_get_monotonic_time ();

  _agui_event_parser_set_reference_by_default (run->reference);
  reducer = _agui_reducer_new (NULL);
  pipeline = _agui_pipeline_new (reducer);
  _agui_event_parser_set_reference_by_default (FALSE);
  _agui_pipeline_set_callbacks (pipeline, count_event_cb, NULL, &run->events);

  while ((got = read (fd, buffer, CHUNK)) > 0)
    if (!_agui_pipeline_push_bytes (pipeline, buffer, got))
      break;
  _agui_pipeline_finish (pipeline);
  close (fd);

  run->cpu = MAX (cpu_seconds () - cpu_start, 1e-6);
  run->wall = MAX ((g_get_monotonic_time () - wall_start) / (double) G_USEC_PER_SEC, 1e-6);
  run->peak_kib = status_kib ("VmHWM:");
  run->rss_kib = run->peak_kib > before ? run->peak_kib - before : 0;

  if (_agui_pipeline_get_error (pipeline) != NULL)
    g_strlcpy (run->error, _agui_pipeline_get_error (pipeline)->message, sizeof run->error);

  _agui_pipeline_free (pipeline);
}

/* The child folds and writes its Run back through a pipe. */
static gboolean
fold_in_child (const char *path,
               Run        *run)
{
  int fds[2];
  pid_t pid;
  gsize done = 0;
  int status;

  if (pipe (fds) != 0)
    return FALSE;

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    return FALSE;

  if (pid == 0)
    {
      close (fds[0]);
      fold (path, run);
      while (done < sizeof *run)
        {
          gssize written = write (fds[1], (char *) run + done, sizeof *run - done);

          if (written <= 0)
            _exit (1);
          done += written;
        }
      _exit (0);
    }

  close (fds[1]);
  while (done < sizeof *run)
    {
      gssize got = read (fds[0], (char *) run + done, sizeof *run - done);

      if (got <= 0)
        break;
      done += got;
    }
  close (fds[0]);
  waitpid (pid, &status, 0);

  return done == sizeof *run && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static void
print_row (const char *label,
           const Run  *runs,
           guint       n_runs,
           double    (*value) (const Run *run, gsize length),
           gsize       length,
           int         decimals)
{
  g_print ("%-22s", label);
  for (guint i = 0; i < n_runs; i++)
    {
      g_autofree char *cell = g_strdup_printf ("%.*f", decimals, value (&runs[i], length));

      g_print (" %14s", cell);
    }
  if (n_runs == 2 && value (&runs[1], length) > 0)
    g_print (" %9.2fx", value (&runs[0], length) / value (&runs[1], length));
  g_print ("\n");
}

static double events_per_cpu (const Run *run, gsize length) { return run->events / run->cpu; }
static double events_per_wall (const Run *run, gsize length) { return run->events / run->wall; }
static double mb_per_cpu (const Run *run, gsize length) { return length / run->cpu / 1e6; }
static double cpu_time (const Run *run, gsize length) { return run->cpu; }
static double wall_time (const Run *run, gsize length) { return run->wall; }
static double fold_rss (const Run *run, gsize length) { return (double) run->rss_kib; }
static double peak_rss (const Run *run, gsize length) { return (double) run->peak_kib; }

int
tandem_bench_command (int    argc,
                      char **argv)
{
  Run runs[2] = {
    { .name = "new", .reference = FALSE },
    { .name = "reference", .reference = TRUE },
  };
  guint first = 0, n_runs = 2;
  gsize length;
  int status = 0;

  if (argc >= 2 && g_str_equal (argv[1], "state"))
    return tandem_bench_state_command (argc - 1, argv + 1);

  if (argc < 3 || !g_str_equal (argv[1], "fold") ||
      (argc > 3 && (argc != 5 || !g_str_equal (argv[3], "--only") ||
                    !(g_str_equal (argv[4], "new") || g_str_equal (argv[4], "reference")))))
    {
      g_printerr ("Usage: tandem-cli bench fold FILE [--only new|reference]\n"
                  "       tandem-cli bench state [COUNT]\n");
      return 2;
    }

  if (argc == 5)
    {
      first = g_str_equal (argv[4], "new") ? 0 : 1;
      n_runs = 1;
    }

  if (!g_file_test (argv[2], G_FILE_TEST_IS_REGULAR))
    {
      g_printerr ("tandem-cli: %s is not a file\n", argv[2]);
      return 2;
    }
  {
    g_autoptr(GFile) file = g_file_new_for_path (argv[2]);
    g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                   G_FILE_QUERY_INFO_NONE, NULL, NULL);

    length = info != NULL ? (gsize) g_file_info_get_size (info) : 0;
  }

  for (guint i = first; i < first + n_runs; i++)
    {
      if (!fold_in_child (argv[2], &runs[i]))
        {
          g_printerr ("tandem-cli: the %s fold did not finish\n", runs[i].name);
          return 1;
        }
    }

  g_print ("input: %s, %" G_GSIZE_FORMAT " bytes (%.1f MB), %" G_GUINT64_FORMAT " events\n",
           argv[2], length, length / 1e6, runs[first].events);
  g_print ("%-22s", "");
  for (guint i = first; i < first + n_runs; i++)
    g_print (" %14s", runs[i].name);
  if (n_runs == 2)
    g_print (" %10s", "new/ref");
  g_print ("\n");

  print_row ("events/s (CPU)", runs + first, n_runs, events_per_cpu, length, 0);
  print_row ("events/s (wall)", runs + first, n_runs, events_per_wall, length, 0);
  print_row ("MB/s (CPU)", runs + first, n_runs, mb_per_cpu, length, 1);
  print_row ("CPU seconds", runs + first, n_runs, cpu_time, length, 3);
  print_row ("wall seconds", runs + first, n_runs, wall_time, length, 3);
  print_row ("fold peak RSS (KiB)", runs + first, n_runs, fold_rss, length, 0);
  print_row ("process peak RSS (KiB)", runs + first, n_runs, peak_rss, length, 0);
  g_print ("%-22s %14.2f (fold peak RSS / input size, new)\n", "RSS / input",
           runs[first].rss_kib * 1024.0 / MAX (length, 1));

  for (guint i = first; i < first + n_runs; i++)
    {
      if (runs[i].error[0] != '\0')
        {
          g_print ("%s: error: %s\n", runs[i].name, runs[i].error);
          status = 1;
        }
    }

  if (n_runs == 2 && runs[0].events != runs[1].events)
    {
      g_print ("the two folds applied different numbers of events\n");
      status = 1;
    }

  return status;
}
