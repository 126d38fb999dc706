#!/usr/bin/env python3
"""Writes an SSE body of about N events (default 100,000) for benchmarks.

A long run the way a chatty agent streams it: many assistant messages of
many small text deltas, each followed by a tool call with streamed
arguments, its result and a state delta. The transcript grows all along,
which is what makes a per-event cost that depends on history visible.
"""

import json
import sys


def main():
    path = sys.argv[1]
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    count = 0

    with open(path, "w", encoding="utf-8") as out:
        def emit(event):
            nonlocal count
            out.write("data: " + json.dumps(event, separators=(",", ":")) + "\n\n")
            count += 1

        emit({"type": "RUN_STARTED", "threadId": "bench", "runId": "run-1"})
        emit({"type": "STATE_SNAPSHOT", "snapshot": {"n": 0}})
        turn = 0
        while count < target - 1:
            turn += 1
            message = f"m{turn}"
            emit({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
            for k in range(200):
                emit({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": f"token{k} "})
            emit({"type": "TEXT_MESSAGE_END", "messageId": message})
            call = f"tc{turn}"
            emit({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "lookup",
                  "parentMessageId": message})
            for k in range(20):
                emit({"type": "TOOL_CALL_ARGS", "toolCallId": call,
                      "delta": '{"k":%d}' % k if k == 0 else " "})
            emit({"type": "TOOL_CALL_END", "toolCallId": call})
            emit({"type": "TOOL_CALL_RESULT", "messageId": f"t{turn}", "toolCallId": call,
                  "content": "ok"})
            emit({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/n", "value": turn}]})
        emit({"type": "RUN_FINISHED", "threadId": "bench", "runId": "run-1"})


if __name__ == "__main__":
    main()
