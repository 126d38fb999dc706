#!/usr/bin/env python3
"""Imports and exports threads of 20,000, 50,000 and 100,000 messages with
`tandem-cli import` and `tandem-cli show --export`, each a process of its
own, and fails when memory is not what it should be:

- an import peaks at more than 5 times the size of the export it reads,
- an import's peak grows faster than the thread (the 100,000-message
  one over 6 times the 20,000-message one),
- an export's peak grows with the thread (over 2 times): it streams.

The times are CPU seconds of each process (user and system), since the
machine may be shared.

    bench-import.py TANDEM_CLI WORKDIR [COUNT…]

The threads are made once, in WORKDIR, by importing a generated export
(question and answer turns of about 800 bytes a message); the export of
that thread is what is measured, imported into a new store and exported
again (which must give the same messages and log).
"""

import itertools
import json
import os
import subprocess
import sys

PROSE = ("The conversation goes on, turn after turn, with answers of a few "
         "sentences each: what was asked, what the agent found, and what it "
         "suggests doing next. Nothing here is special, which is the point: "
         "a long thread is mostly ordinary text. ")

IMPORT_BUDGET = 5.0   # peak RSS / export size
LINEAR_BUDGET = 6.0   # import peak at 100k / at 20k (5 times the messages)
EXPORT_GROWTH_BUDGET = 2.0   # the same for an export, which streams


def generate(path, count):
    """An export of COUNT messages (COUNT / 2 turns) as Tandem writes one."""
    messages = []
    events = []
    thread = "c0ffee00-0000-4000-8000-%012d" % count
    for turn in range(count // 2):
        question, answer, run = f"q{turn}", f"a{turn}", f"run{turn}"
        asked = f"Question {turn}: what comes next in this long conversation?"
        start = (turn * 97) % len(PROSE)
        said = (PROSE[start:] + PROSE * 3)[:640]
        events += [
            {"type": "TEXT_MESSAGE_START", "messageId": question, "role": "user"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": question, "delta": asked},
            {"type": "TEXT_MESSAGE_END", "messageId": question},
            {"type": "RUN_STARTED", "threadId": thread, "runId": run},
            {"type": "TEXT_MESSAGE_START", "messageId": answer, "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": answer, "delta": said},
            {"type": "TEXT_MESSAGE_END", "messageId": answer},
            {"type": "RUN_FINISHED", "threadId": thread, "runId": run},
        ]
        messages.append({"id": question, "role": "user", "content": asked})
        messages.append({"id": answer, "role": "assistant", "content": said})
    export = {"format": "tandem-thread", "version": 1,
              "thread": {"id": thread, "title": f"{count} messages", "agent": None},
              "messages": messages, "state": None, "pendingInterrupts": [], "events": events}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(export, out)


def run(argv, stdout=None):
    """Runs ARGV; returns (CPU seconds, peak RSS in bytes, stdout bytes).

    The machine may be shared, so the time is the child's CPU time, not
    the wall clock's."""
    child = subprocess.Popen(argv, stdout=stdout or subprocess.PIPE)
    output = b""
    if stdout is None:
        output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"bench-import.py: {' '.join(argv)} failed ({child.returncode})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, output


def same_but_thread(first, second):
    """Whether two exports are the same but for their "thread" member (a
    new id and times). Line by line: a child's peak RSS counts what its
    parent held when it was started, so this process stays small."""
    def lines(path):
        with open(path, encoding="utf-8") as f:
            in_thread = False
            for line in f:
                if line.startswith('  "thread" : {'):
                    in_thread = True
                if not in_thread:
                    yield line
                if in_thread and line.startswith("  }"):
                    in_thread = False
    return all(a == b for a, b in itertools.zip_longest(lines(first), lines(second)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--generate":
        generate(sys.argv[2], int(sys.argv[3]))
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, workdir = sys.argv[1], sys.argv[2]
    counts = [int(c) for c in sys.argv[3:]] or [20_000, 50_000, 100_000]
    os.makedirs(workdir, exist_ok=True)
    rows = []
    failures = []

    for count in counts:
        generated = os.path.join(workdir, f"generated-{count}.json")
        source = os.path.join(workdir, f"source-{count}.db")
        if not os.path.exists(generated):
            # In a process of its own, which the measured ones do not inherit
            subprocess.run([sys.executable, __file__, "--generate", generated + ".partial", str(count)], check=True)
            os.replace(generated + ".partial", generated)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(source + suffix):
                os.remove(source + suffix)
        _, _, thread = run([cli, "import", generated, "--store", source])
        thread = thread.decode().strip()

        exported = os.path.join(workdir, f"export-{count}.json")
        with open(exported, "wb") as out:
            export_s, export_rss, _ = run([cli, "show", thread, "--export", "--store", source], stdout=out)
        size = os.path.getsize(exported)

        target = os.path.join(workdir, f"target-{count}.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(target + suffix):
                os.remove(target + suffix)
        import_s, import_rss, imported = run([cli, "import", exported, "--store", target])

        again = os.path.join(workdir, f"again-{count}.json")
        with open(again, "wb") as out:
            run([cli, "show", imported.decode().strip(), "--export", "--store", target], stdout=out)
        if not same_but_thread(again, exported):
            failures.append(f"{count} messages: the import's export is not the export it read")

        rows.append((count, size, import_s, import_rss, export_s, export_rss))
        if import_rss > IMPORT_BUDGET * size:
            failures.append(f"{count} messages: the import peaked at {import_rss / size:.1f}× the export "
                            f"(budget {IMPORT_BUDGET}×)")
        for name in (generated, exported, again):
            if name != generated:
                os.remove(name)

    print("| messages | export | import (CPU) | import peak | peak / export | per message "
          "| export (CPU) | export peak |")
    print("|---|---|---|---|---|---|---|---|")
    for count, size, import_s, import_rss, export_s, export_rss in rows:
        print(f"| {count:,} | {size / 1e6:.1f} MB | {import_s:.2f} s | {import_rss / 1e6:.0f} MB "
              f"| {import_rss / size:.2f} | {import_rss / count:.0f} B | {export_s:.2f} s "
              f"| {export_rss / 1e6:.0f} MB |")

    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        scale = last[0] / first[0]
        for name, column, budget in (("import", 3, LINEAR_BUDGET), ("export", 5, EXPORT_GROWTH_BUDGET)):
            growth = last[column] / first[column]
            print(f"{name} peak at {last[0]:,} / at {first[0]:,} messages: {growth:.2f} ({scale:.0f}× the messages)")
            if scale == 5 and growth > budget:
                failures.append(f"the {name} peak grows with the thread: {growth:.2f}× for {scale:.0f}× the messages "
                                f"(budget {budget}×)")

    for failure in failures:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
