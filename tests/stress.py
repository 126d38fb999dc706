#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: GPL-3.0-or-later
"""The wrapper of `meson test --setup stress`: runs one test several
times in a row, each round with another MALLOC_PERTURB_, and stops at the
first round that fails. A test that fails now and then (a race with the
main loop, memory read after it was freed) shows here rather than in CI.

Usage: stress.py ROUNDS COMMAND...
  TANDEM_STRESS_ROUNDS in the environment overrides ROUNDS.

Every round but the last runs with its output kept aside; a failing
round's output is printed (it is the test's TAP, so meson reports the
failing case) and its exit status returned. The last round's output
passes through as meson would have seen it from the test alone.
"""

import os
import random
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2

    rounds = int(os.environ.get('TANDEM_STRESS_ROUNDS', argv[1]))
    command = argv[2:]

    for number in range(1, rounds + 1):
        env = dict(os.environ)
        env['MALLOC_PERTURB_'] = str(random.randint(1, 255))
        if number == rounds:
            return exit_status(subprocess.run(command, env=env).returncode)

        result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.stdout.buffer.write(result.stdout)
            sys.stdout.flush()
            how = (f'killed by signal {-result.returncode}' if result.returncode < 0
                   else f'exit status {result.returncode}')
            print(f'stress: round {number} of {rounds} failed ({how}, '
                  f'MALLOC_PERTURB_={env["MALLOC_PERTURB_"]})', file=sys.stderr)
            return exit_status(result.returncode)

    return 0


def exit_status(returncode):
    # A test killed by a signal is reported as a shell would report it
    return returncode if returncode >= 0 else 128 - returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv))
