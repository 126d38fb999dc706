#!/usr/bin/env python3
"""Times `tandem-cli fold FILE` against Node's bare frame split and
JSON.parse of the same file (bench-node-parse.js), in the same run, and
fails when fold misses its budget:

    bench-fold-node.py [--rounds N] [--ratio R] [--make COUNT WORKLOAD]
                       TANDEM_CLI STREAM

Both are measured as a person runs them: the whole process, from exec to
exit, fold's output going to /dev/null. The rounds alternate (node, fold,
node, fold...) so that both see the same machine, and each side keeps its
best round. The ratio is Node's time over fold's, on CPU time (user +
system of the process and its threads): on a shared machine wall time
mostly measures the other processes, CPU time much less so. Wall time is
printed too.

fold must reach --ratio (1.0 unless given; 0 for no speed budget) and
its peak RSS must stay within the size of STREAM. With --make, STREAM is written first by
make-bench-stream.py when it is missing or older than that script (the
1M-event streams are up to 260 MB, too big to make on every build).

Exits 77 (skipped) when there is no `node` to compare with.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def make_stream(path, count, workload):
    script = os.path.join(HERE, 'make-bench-stream.py')

    # A stream made by an older generator is made again: it may not be
    # the workload the benchmark now means.
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(script):
        return
    partial = path + '.partial'
    subprocess.run([sys.executable, script, partial, str(count), workload], check=True)
    os.replace(partial, path)


def run(argv, stdout):
    """Runs argv; returns (cpu seconds, wall seconds, peak RSS bytes, output)."""
    start = time.monotonic()
    process = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    stderr = process.stderr.read()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)

    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss * 1024, process.returncode, stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--ratio', type=float, default=1.0)
    parser.add_argument('--make', nargs=2, metavar=('COUNT', 'WORKLOAD'))
    parser.add_argument('tandem_cli')
    parser.add_argument('stream')
    args = parser.parse_args()

    node = shutil.which('node')
    if node is None:
        print('no node to compare with: skipped')
        return 77

    if args.make:
        make_stream(args.stream, int(args.make[0]), args.make[1])

    size = os.path.getsize(args.stream)
    baseline = [node, os.path.join(HERE, 'bench-node-parse.js'), args.stream]
    fold = [args.tandem_cli, 'fold', args.stream]
    best = {'node': None, 'fold': None}

    sys.stdout.write(f'input: {args.stream}, {size} bytes ({size / 1e6:.1f} MB)\n')
    sys.stdout.write(f'load average before: {os.getloadavg()[0]:.2f}\n')
    sys.stdout.write(f'{"round":<6} {"program":<6} {"CPU s":>8} {"wall s":>8} {"peak RSS MB":>12}\n')
    for i in range(args.rounds):
        for name, argv in (('node', baseline), ('fold', fold)):
            with open(os.devnull, 'wb') as devnull:
                cpu, wall, rss, status, stderr = run(argv, devnull if name == 'fold' else subprocess.PIPE)
            # fold's exit status says whether the run in the stream
            # failed; only a crash or a refused command line is a failure
            # of the benchmark.
            if status not in (0, 1) or (name == 'node' and status != 0):
                sys.stdout.write(stderr.decode(errors='replace'))
                print(f'{name} exited with {status}')
                return 1
            sys.stdout.write(f'{i + 1:<6} {name:<6} {cpu:8.3f} {wall:8.3f} {rss / 1e6:12.1f}\n')
            previous = best[name]
            best[name] = (min(cpu, previous[0]) if previous else cpu,
                          min(wall, previous[1]) if previous else wall,
                          max(rss, previous[2]) if previous else rss)
    sys.stdout.write(f'load average after: {os.getloadavg()[0]:.2f}\n')

    node_cpu, node_wall, _ = best['node']
    fold_cpu, fold_wall, fold_rss = best['fold']
    ratio = node_cpu / fold_cpu
    sys.stdout.write(f'best of {args.rounds}: node {node_cpu:.3f} s CPU ({node_wall:.3f} s wall), '
                     f'fold {fold_cpu:.3f} s CPU ({fold_wall:.3f} s wall)\n')
    sys.stdout.write(f'ratio node/fold: {ratio:.2f} on CPU (budget {args.ratio:.2f}), '
                     f'{node_wall / fold_wall:.2f} on wall\n')
    sys.stdout.write(f'fold peak RSS / input: {fold_rss / size:.2f} (budget 1.00)\n')

    failed = False
    if args.ratio <= 0:
        print('no speed budget (a build without optimisation): the ratio is for reading only')
    elif ratio < args.ratio:
        print(f'FAIL: fold is slower than its budget ({ratio:.2f} < {args.ratio:.2f} of node\'s speed)')
        failed = True
    if fold_rss > size:
        print(f'FAIL: fold\'s peak RSS {fold_rss / 1e6:.1f} MB is more than the input\'s {size / 1e6:.1f} MB')
        failed = True

    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
