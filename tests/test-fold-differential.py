#!/usr/bin/env python3
"""The fast frame reader must fold every stream to the same bytes as the
json-glib parser it replaced (kept as the reference behind
`tandem-cli fold --reference`): the transcript JSON, the exit status, every
frame error and every parser warning.

And fold's output, printed a message at a time as it is streamed, must be
the same bytes as the whole tree it once built and printed at the end
(kept behind `tandem-cli fold --tree`).

    test-fold-differential.py FIXTURES_DIR [--corpus DIR]... STREAM...

The streams are the generated benchmark workloads; the fixtures' SSE
bodies and a set of awkward frames written here are folded too. The fuzz
corpora of SSE bodies (--corpus) are only compared streamed against the
tree: what the two parsers make of a fuzzer's find is the parser tests'
business.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

TANDEM_CLI = os.environ.get('TANDEM_CLI', 'tandem-cli')

UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
LOG_PREFIX = re.compile(r'^.*?Agui-DEBUG: [0-9:.]+: ', re.M)

# Frames whose reading is easy to get subtly wrong, as SSE data payloads in
# small runs: within a run, state carries from frame to frame (a surrogate
# half waiting for its pair, a chunk lane's id); a run ends at its first
# protocol violation, so each such violation closes its own run.
START = r'{"type":"RUN_STARTED","threadId":"t","runId":"r"}'
FINISH = r'{"type":"RUN_FINISHED","threadId":"t","runId":"r"}'
AWKWARD = {
    'surrogates in text': [
        START,
        r'{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","extra":1,"timestamp":1.0}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"split \uD83D"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":""}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\uDE00 joined"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lone \uDE00 low, pair \uD83D\uDE00, escaped \\uD83D"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"high then text \uD83D\u0041"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"dangling \uD83D"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"no pair"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"nul \u0000 inside"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"end \uDBFF"}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m1"}',
        r'{"type":"TEXT_MESSAGE_START","messageId":"m\uD800x","role":"assistant","name":"n\uDC00"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\uD800x","delta":"bad id"}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m\uFFFDx"}',
        FINISH,
    ],
    'content after the end': [
        START,
        r'{"type":"TEXT_MESSAGE_START","messageId":"m1"}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m1"}',
        r'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"after end"}',
        FINISH,
    ],
    'chunks': [
        START,
        r'{"type":"TEXT_MESSAGE_CHUNK","messageId":"c1","role":"assistant","delta":"chunk \uD83D"}',
        r'{"type":"TEXT_MESSAGE_CHUNK","delta":"\uDE00 lane"}',
        r'{"type":"TEXT_MESSAGE_CHUNK","delta":""}',
        r'{"type":"TOOL_CALL_CHUNK","toolCallId":"k1","toolCallName":"f","delta":"{\"a\":\"\uD83D"}',
        r'{"type":"TOOL_CALL_CHUNK","delta":"\uDE00\"}"}',
        r'{"type":"TEXT_MESSAGE_CHUNK","messageId":"c1","delta":"x","subagentRunId":null}',
        FINISH,
    ],
    'tools': [
        START,
        r'{"type":"TOOL_CALL_START","toolCallId":"tc1","toolCallName":"lookup","parentMessageId":null}',
        r'{"type":"TOOL_CALL_ARGS","toolCallId":"tc1","delta":"{\"q\":\"\uD83D"}',
        r'{"type":"TOOL_CALL_ARGS","toolCallId":"tc1","delta":"\uDE00\"}"}',
        r'{"type":"TOOL_CALL_END","toolCallId":"tc1"}',
        r'{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"tc1","content":[{"type":"text","text":"t\uD83D"}]}',
        r'{"type":"TOOL_CALL_START","toolCallId":"tc2","toolCallName":"lookup"}',
        r'{"type":"TOOL_CALL_END","toolCallId":"tc2"}',
        r'{"type":"TOOL_CALL_START","toolCallId":"tc2","toolCallName":"lookup"}',
        r'{"type":"TOOL_CALL_END","toolCallId":"tc2"}',
        FINISH,
    ],
    'payloads and compatibility': [
        START,
        r'{"type":"STEP_STARTED","stepName":"a"}',
        r'{"type":"STEP_STARTED","stepName":"b"}',
        r'{"type":"STEP_FINISHED","stepName":"a"}',
        r'{"type":"STATE_SNAPSHOT","snapshot":{"d":0.1,"e":1E2,"f":-0,"g":-0.0,"h":9007199254740993,'
        r'"i":-9223372036854775808,"j":1e-400,"k":"\u00e9\u0000cut","l":[true,false,null,{}],"m":{"a":1,"a":2},'
        r'"n\uD800":"\uDFFF","o":2.5e-3,"p":123456789012345678}}',
        r'{"type":"STATE_DELTA","delta":[{"op":"add","path":"/n","value":[1,2]},{"op":"test","path":"/n/1","value":2}]}',
        r'{"type":"STATE_DELTA","delta":[{"op":"add","path":"no-slash","value":1}]}',
        r'{"type":"STATE_DELTA","delta":[{"op":"bogus","path":"/x"},{"op":"remove","path":"/n/0","extra":true}]}',
        r'{"type":"STATE_DELTA","delta":"not an array"}',
        r'{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"plan","content":{"x":1},"replace":true}',
        r'{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"plan","content":{"x":1},"replace":"yes"}',
        r'{"type":"CUSTOM","name":"c","value":null}',
        r'{"type":"CUSTOM","name":"c"}',
        r'{"type":"RAW","event":{"nested":[[[]]]},"rawEvent":null}',
        r'{"type":"THINKING_START","title":"plan"}',
        r'{"type":"THINKING_TEXT_MESSAGE_START"}',
        r'{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"think \uD83D"}',
        r'{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"\uDE00"}',
        r'{"type":"THINKING_TEXT_MESSAGE_END"}',
        r'{"type":"THINKING_END"}',
        r'{"type":"SOMETHING_NEW","x":1}',
        r'{"type":"","x":1}',
        r'{"type":7}',
        r'{"type":["TEXT_MESSAGE_END"]}',
        r'{"notype":true}',
        r'[1,2]',
        r'"just a string"',
        r'42',
        r'null',
        r'{}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m1",}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m1"} trailing',
        r'{"type":"TEXT_MESSAGE_END" "messageId":"m1"}',
        r'{type:"TEXT_MESSAGE_END"}',
        r"{'type':'TEXT_MESSAGE_END'}",
        r'{"type":"TEXT_MESSAGE_END","messageId":"m1"',
        r'{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"robot"}',
        r'{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant","type":"TEXT_MESSAGE_START","messageId":"m3"}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m3","timestamp":"now"}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m3","timestamp":1.5}',
        r'{"type":"TEXT_MESSAGE_END","messageId":3}',
        r'{"type":"TEXT_MESSAGE_END","messageId":"m3","timestamp":1e3,"metadata":{"k":"v"}}',
        r'{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":[{"type":"binary","mimeType":"image/png","data":"AAA"}]}]}',
        r'{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":null,"outcome":null}',
    ],
}


def fold(path, reference, tree=False):
    args = [TANDEM_CLI, 'fold'] + (['--reference'] if reference else []) + (['--tree'] if tree else []) + [path]
    env = dict(os.environ, G_MESSAGES_DEBUG='Agui')
    result = subprocess.run(args, capture_output=True, env=env)
    # The library's debug messages (the parser's warnings among them) carry
    # a pid and a time; both folds must say the same things in order.
    def normalise(output):
        text = LOG_PREFIX.sub('Agui: ', output.decode('utf-8', 'replace'))
        return UUID.sub('<uuid>', text)
    return (result.returncode, normalise(result.stdout), normalise(result.stderr))


def main():
    fixtures_dir = sys.argv[1]
    arguments = sys.argv[2:]
    corpora = []
    while arguments[:1] == ['--corpus']:
        corpora.append(arguments[1])
        arguments = arguments[2:]
    streams = arguments
    failures = 0
    cases = []

    with tempfile.TemporaryDirectory() as tmp:
        for number, (label, frames) in enumerate(AWKWARD.items()):
            path = os.path.join(tmp, 'awkward-%d.sse' % number)
            with open(path, 'w', encoding='utf-8') as out:
                for frame in frames:
                    out.write('data: ' + frame + '\n\n')
            cases.append(('awkward frames: ' + label, path, True))

        for name in sorted(os.listdir(fixtures_dir)):
            if not name.endswith('.json'):
                continue
            with open(os.path.join(fixtures_dir, name), encoding='utf-8') as f:
                fixture = json.load(f)
            if not isinstance(fixture, dict) or not isinstance(fixture.get('sse'), str):
                continue
            path = os.path.join(tmp, name + '.sse')
            with open(path, 'w', encoding='utf-8', newline='') as out:
                out.write(fixture['sse'])
            cases.append(('fixture ' + name, path, True))

        for corpus in corpora:
            for name in sorted(os.listdir(corpus)):
                cases.append(('corpus %s/%s' % (os.path.basename(corpus), name),
                              os.path.join(corpus, name), False))

        for stream in streams:
            cases.append(('workload ' + os.path.basename(stream), stream, True))

        print('1..%d' % len(cases))
        for number, (label, path, against_reference) in enumerate(cases, 1):
            new = fold(path, False)
            pairs = [('tree', fold(path, False, tree=True))]
            if against_reference:
                pairs.append(('reference', fold(path, True)))
            differing = [(name, old) for name, old in pairs if old != new]
            if not differing:
                print('ok %d - %s' % (number, label))
                continue
            failures += 1
            print('not ok %d - %s' % (number, label))
            for name, old in differing:
                for what, a, b in zip(('exit status', 'stdout', 'stderr'), new, old):
                    if a != b:
                        print('# %s differs:\n# new: %r\n# %s: %r' % (what, a[:2000], name, b[:2000]))

    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
