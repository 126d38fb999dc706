#!/usr/bin/env python3
"""Writes an SSE body of about N events (default 100,000) for benchmarks.

    make-bench-stream.py OUTPUT [COUNT] [chat|tools|state|mixed]
    make-bench-stream.py --bench TANDEM_CLI OUTPUT COUNT WORKLOAD

The second form (the meson benchmarks) writes OUTPUT only when it is not
there yet or older than this script, then runs `TANDEM_CLI bench fold
OUTPUT`: the 1M-event streams
are up to 260 MB, too big to make on every build.

Each workload is one long run, the way a chatty agent streams it, so that a
per-event cost that depends on history shows up as growth from 100k to 1M:

chat   assistant messages of 200 small text deltas each;
tools  tool calls with 20 streamed argument deltas and a result;
state  state deltas on a document that keeps growing: a new member, a
       replace of an older one, an append to a long array, a test;
mixed  (the default) a message, a tool call and a state delta per turn;
calls  tool calls of one argument delta and a result each, four events a
       call: 4,000,000 events are a million calls, about 300 MB.
"""

import json
import os
import sys


def main():
    if sys.argv[1] == "--bench":
        tandem_cli, path = sys.argv[2], sys.argv[3]
        # A stream made by an older generator is made again: it may not
        # be the workload the benchmark now means.
        if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(__file__):
            partial = path + ".partial"
            write(partial, int(sys.argv[4]), sys.argv[5])
            os.replace(partial, path)
        sys.stdout.flush()
        os.execv(tandem_cli, [tandem_cli, "bench", "fold", path])
    write(sys.argv[1],
          int(sys.argv[2]) if len(sys.argv) > 2 else 100_000,
          sys.argv[3] if len(sys.argv) > 3 else "mixed")


def write(path, target, workload):
    if workload not in ("chat", "tools", "state", "mixed", "calls"):
        sys.exit(f"make-bench-stream.py: unknown workload '{workload}'")
    count = 0

    with open(path, "w", encoding="utf-8") as out:
        def emit(event):
            nonlocal count
            out.write("data: " + json.dumps(event, separators=(",", ":")) + "\n\n")
            count += 1

        def message(turn):
            message = f"m{turn}"
            emit({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
            for k in range(200):
                emit({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": f"token{k} "})
            emit({"type": "TEXT_MESSAGE_END", "messageId": message})
            return message

        def tool_call(turn, parent):
            call = f"tc{turn}"
            start = {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "lookup"}
            if parent is not None:
                start["parentMessageId"] = parent
            emit(start)
            for k in range(20):
                emit({"type": "TOOL_CALL_ARGS", "toolCallId": call,
                      "delta": '{"k":%d}' % k if k == 0 else " "})
            emit({"type": "TOOL_CALL_END", "toolCallId": call})
            emit({"type": "TOOL_CALL_RESULT", "messageId": f"t{turn}", "toolCallId": call,
                  "content": "ok"})

        def call(turn):
            call = f"tc{turn}"
            emit({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "lookup"})
            emit({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"query":"item %d"}' % turn})
            emit({"type": "TOOL_CALL_END", "toolCallId": call})
            emit({"type": "TOOL_CALL_RESULT", "messageId": f"t{turn}", "toolCallId": call,
                  "content": "found %d" % turn})

        def state_delta(turn):
            emit({"type": "STATE_DELTA", "delta": [
                {"op": "add", "path": f"/keys/k{turn}", "value": {"n": turn, "tag": "new"}},
                {"op": "replace", "path": f"/keys/k{(turn + 1) // 2}/n", "value": -turn},
                {"op": "add", "path": "/log/-", "value": turn},
                {"op": "test", "path": f"/keys/k{turn}/tag", "value": "new"},
            ]})

        emit({"type": "RUN_STARTED", "threadId": "bench", "runId": "run-1"})
        if workload in ("state", "mixed"):
            emit({"type": "STATE_SNAPSHOT", "snapshot": {"n": 0, "keys": {}, "log": []}})
        turn = 0
        while count < target - 1:
            turn += 1
            if workload == "chat":
                message(turn)
            elif workload == "tools":
                tool_call(turn, None)
            elif workload == "state":
                state_delta(turn)
            elif workload == "calls":
                call(turn)
            else:
                parent = message(turn)
                tool_call(turn, parent)
                emit({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/n", "value": turn}]})
        emit({"type": "RUN_FINISHED", "threadId": "bench", "runId": "run-1"})


if __name__ == "__main__":
    main()
