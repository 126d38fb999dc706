#!/usr/bin/env python3
# test-gir.py: drives libagui through GObject Introspection, as a binding
# would, so wrong annotations (transfer, nullable, element-type, array
# lengths, async scopes) show up as failures or crashes here.
#
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run by meson with GI_TYPELIB_PATH and LD_LIBRARY_PATH pointing at the
# build tree. Exits 77 (skip) when PyGObject is not installed.

import gc
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading

try:
    import gi
except ImportError:
    print('SKIP: python3-gi (PyGObject) is not installed', file=sys.stderr)
    sys.exit(77)

gi.require_version('GLib', '2.0')
gi.require_version('GObject', '2.0')
gi.require_version('Gio', '2.0')
gi.require_version('Json', '1.0')
gi.require_version('Agui', '1.0')

from gi.repository import Agui, Gio, GLib, GObject, Json  # noqa: E402

RUN = [
    {'type': 'RUN_STARTED', 'threadId': 'thread-1', 'runId': 'run-1'},
    {'type': 'TEXT_MESSAGE_START', 'messageId': 'msg-1', 'role': 'assistant'},
    {'type': 'TEXT_MESSAGE_CONTENT', 'messageId': 'msg-1', 'delta': 'Hello, '},
    {'type': 'TEXT_MESSAGE_CONTENT', 'messageId': 'msg-1', 'delta': 'Python!'},
    {'type': 'TEXT_MESSAGE_END', 'messageId': 'msg-1'},
    {'type': 'RUN_FINISHED', 'threadId': 'thread-1', 'runId': 'run-1'},
]

failures = 0


def check(condition, what):
    global failures
    if condition:
        print('ok - %s' % what)
    else:
        failures += 1
        print('not ok - %s' % what)


def run_until(predicate, seconds=10):
    """Spins a main loop until predicate() holds, with a deadline."""
    loop = GLib.MainLoop()
    timed_out = []

    def on_timeout():
        timed_out.append(True)
        loop.quit()
        return GLib.SOURCE_REMOVE

    def on_idle():
        if predicate():
            loop.quit()
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE

    timeout_id = GLib.timeout_add_seconds(seconds, on_timeout)
    GLib.idle_add(on_idle)
    loop.run()
    if not timed_out:
        GLib.source_remove(timeout_id)
    return not timed_out


def test_session():
    transport = Agui.ReplayTransport.new()
    check(isinstance(transport, Agui.Transport), 'ReplayTransport implements Agui.Transport')
    check(transport.add_run_json(json.dumps(RUN)), 'add_run_json accepts the scripted run')
    check(transport.get_remaining() == 1, 'one scripted run queued')

    # A bad script raises GLib.Error instead of returning FALSE.
    try:
        transport.add_run_json('{"not": "an array"}')
        check(False, 'add_run_json rejects a non-array')
    except GLib.Error as error:
        check(error.matches(Agui.error_quark(), Agui.Error.INVALID_ARGUMENT),
              'add_run_json raises AGUI_ERROR_INVALID_ARGUMENT')

    session = Agui.AgentSession.new(transport)
    check(session.get_transport() == transport, 'session keeps its transport')
    check(not session.get_busy(), 'a new session is idle')

    loop = GLib.MainLoop()
    outcome = {}

    def on_sent(source, result, *user_data):
        try:
            outcome['state'] = source.send_finish(result)
        except GLib.Error as error:
            outcome['error'] = error
        outcome['user_data'] = user_data
        loop.quit()

    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    session.send_async('Hi there', None, None, on_sent, 'token')
    loop.run()
    GLib.source_remove(timeout_id)

    check('error' not in outcome, 'send_finish does not fail: %s' % outcome.get('error'))
    check(outcome.get('user_data') == ('token',), 'user_data reaches the callback')
    state = outcome.get('state')
    check(isinstance(state, Agui.RunState), 'send_finish returns an Agui.RunState')
    if state is None:
        return
    check(state.get_status() == Agui.RunStatus.FINISHED, 'run status is FINISHED')
    check(state.get_thread_id() == 'thread-1', 'run state thread id')
    check(state.get_run_id() == 'run-1', 'run state run id')
    check(state.get_error_message() is None, 'no error message on a finished run')
    node = state.to_json()
    check(isinstance(node, Json.Node), 'RunState.to_json returns a Json.Node')
    check(session.get_run_state().get_status() == Agui.RunStatus.FINISHED,
          'session run-state property agrees')

    # The request the transport saw carries the user's message.
    check(transport.get_n_requests() == 1, 'transport saw one request')
    request = json.loads(Json.to_string(transport.get_request(0), False))
    check(any(m.get('role') == 'user' and m.get('content') == 'Hi there'
              for m in request.get('messages', [])),
          'request carries the user message')
    check(transport.get_request(5) is None, 'get_request out of range is None')

    transcript = session.get_transcript()
    check(isinstance(transcript, Gio.ListModel), 'transcript is a Gio.ListModel')
    check(transcript.get_item_type() == Agui.SpeakerTurn.__gtype__, 'transcript item type is Agui.SpeakerTurn')
    n_items = transcript.get_n_items()
    check(n_items == 2, 'two messages in the transcript (user, assistant): %d' % n_items)

    assistant_text = None
    user_text = None
    for i in range(n_items):
        message = transcript.get_item(i)
        check(isinstance(message, Agui.SpeakerTurn), 'item %d is an Agui.SpeakerTurn' % i)
        parts = message.get_parts()
        check(isinstance(parts, Gio.ListModel), 'message parts are a Gio.ListModel')
        texts = []
        for j in range(parts.get_n_items()):
            part = parts.get_item(j)
            check(isinstance(part, Agui.Part), 'part %d is an Agui.Part' % j)
            if isinstance(part, Agui.TextPart):
                texts.append(part.get_text())
                check(part.get_length() == len(part.get_text().encode('utf-8')),
                      'TextPart length is its byte length')
        if message.get_role() == Agui.Role.ASSISTANT:
            assistant_text = ''.join(texts)
            check(message.get_id() == 'msg-1', 'assistant message id')
            check(message.dup_text() == assistant_text, 'SpeakerTurn.dup_text matches its parts')
        elif message.get_role() == Agui.Role.USER:
            user_text = ''.join(texts)
    check(assistant_text == 'Hello, Python!', 'assistant text via TextPart.get_text: %r' % assistant_text)
    check(user_text == 'Hi there', 'user text via TextPart.get_text: %r' % user_text)

    messages = transcript.to_messages(False)
    check(isinstance(messages, Json.Array), 'to_messages returns a Json.Array')
    projected = [json.loads(Json.to_string(messages.get_element(i), False))
                 for i in range(messages.get_length())]
    assistant = [m for m in projected if m.get('role') == 'assistant']
    check(len(assistant) == 1 and assistant[0].get('content') == 'Hello, Python!',
          'JSON projection carries the assistant text: %r' % projected)
    check(transcript.get_n_ag_ui_messages() == len(projected), 'n_ag_ui_messages agrees')

    steps = transcript.get_steps()
    check(isinstance(steps, list) and steps == [], 'get_steps is an empty string list')

    # Drop everything and collect: wrong transfer annotations crash here.
    del messages, transcript, state, session, transport
    gc.collect()


def test_event():
    event = Agui.Event.new_from_string(
        '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}', -1)
    check(isinstance(event, Agui.Event), 'Event.new_from_string returns an Agui.Event')
    check(event.get_event_type() == Agui.EventType.TEXT_MESSAGE_CONTENT, 'event type')
    check(event.get_type_name() == 'TEXT_MESSAGE_CONTENT', 'event type name')
    check(event.get_message_id() == 'm', 'event message id')
    check(event.get_delta() == 'hi', 'event delta')
    check(event.get_tool_call_id() is None, 'absent member is None')
    check(event.has_member('delta') and not event.has_member('nope'), 'has_member')
    check(event.get_member('delta').get_string() == 'hi', 'get_member returns a Json.Node')
    check(json.loads(event.to_string()) == {'type': 'TEXT_MESSAGE_CONTENT', 'messageId': 'm', 'delta': 'hi'},
          'to_string round-trips')
    ok, timestamp = event.get_timestamp()
    check(ok is False, 'no timestamp on the event')
    check(Agui.event_type_to_string(Agui.EventType.RUN_STARTED) == 'RUN_STARTED',
          'event_type_to_string')
    ok, event_type = Agui.event_type_from_string('RUN_FINISHED')
    check(ok and event_type == Agui.EventType.RUN_FINISHED, 'event_type_from_string (out)')

    try:
        Agui.Event.new_from_string('{"type":"TEXT_MESSAGE_CONTENT"', -1)
        check(False, 'bad JSON raises')
    except GLib.Error:
        check(True, 'bad JSON raises GLib.Error')

    members = Json.from_string('{"threadId":"t","runId":"r"}').get_object()
    event = Agui.Event.new(Agui.EventType.RUN_STARTED, members)
    check(event.get_string('threadId') == 't', 'Event.new with members')
    del members, event
    gc.collect()


def test_interrupts():
    transport = Agui.ReplayTransport.new()
    transport.add_run_json(json.dumps([
        {'type': 'RUN_STARTED', 'threadId': 'thread-i', 'runId': 'run-i'},
        {'type': 'RUN_FINISHED', 'threadId': 'thread-i', 'runId': 'run-i',
         'outcome': {'type': 'interrupt', 'interrupts': [
             {'id': 'ask-1', 'reason': 'input_required', 'message': 'Which file?',
              'responseSchema': {'type': 'object'}, 'expiresAt': '2001-01-01T00:00:00Z'}]}},
    ]))
    session = Agui.AgentSession(transport=transport, thread_id='thread-i')
    loop = GLib.MainLoop()
    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    states = []
    session.send_async('go', None, None, lambda source, result: (states.append(source.send_finish(result)), loop.quit()))
    loop.run()
    GLib.source_remove(timeout_id)
    left_open = states[0].get_interrupts() if states else None
    check(isinstance(left_open, Gio.ListModel) and left_open.get_n_items() == 1
          and left_open.get_item(0).get_id() == 'ask-1', 'RunState.get_interrupts lists Agui.Interrupt')

    pending = session.props.pending_interrupts
    check(isinstance(pending, Gio.ListModel) and pending.get_item_type() == Agui.Interrupt.__gtype__,
          'pending-interrupts is a Gio.ListModel of Agui.Interrupt')
    check(pending.get_n_items() == 1, 'one pending interrupt')
    interrupt = pending.get_item(0)
    check(interrupt.get_id() == 'ask-1' and interrupt.props.reason == 'input_required'
          and interrupt.get_message() == 'Which file?', 'Interrupt id, reason and message')
    expires = interrupt.get_expires_at()
    check(isinstance(expires, GLib.DateTime) and expires.to_unix() == 978307200,
          'Interrupt.expires_at is a GLib.DateTime')
    check(interrupt.has_expired(None), 'the interrupt has expired')
    schema = interrupt.get_response_schema()
    check(isinstance(schema, Json.Node) and schema.get_object().get_string_member('type') == 'object',
          'Interrupt.response_schema is a Json.Node')
    check(json.loads(Json.to_string(interrupt.to_json(), False))['id'] == 'ask-1', 'Interrupt.to_json')
    del pending, interrupt, session, transport
    gc.collect()


def test_subagents():
    transport = Agui.ReplayTransport.new()
    transport.add_run_json(json.dumps([
        {'type': 'RUN_STARTED', 'threadId': 'thread-s', 'runId': 'run-s'},
        {'type': 'SUBAGENT_STARTED', 'subagentRunId': 'sa1', 'name': 'researcher',
         'description': 'finds things'},
        {'type': 'SUBAGENT_STARTED', 'subagentRunId': 'sa2', 'name': 'checker',
         'parentSubagentRunId': 'sa1'},
        {'type': 'SUBAGENT_FINISHED', 'subagentRunId': 'sa2', 'result': {'found': [1, 2]},
         'outcome': {'type': 'suspended', 'interruptIds': ['i1']}},
        {'type': 'SUBAGENT_ERROR', 'subagentRunId': 'sa1', 'message': 'gave up', 'code': 'E_TIRED'},
        {'type': 'RUN_FINISHED', 'threadId': 'thread-s', 'runId': 'run-s'},
    ]))
    session = Agui.AgentSession(transport=transport, thread_id='thread-s')
    subagents = session.get_transcript().props.subagents
    check(isinstance(subagents, Gio.ListModel) and subagents.get_item_type() == Agui.SubagentRun.__gtype__,
          'Transcript.subagents is a Gio.ListModel of Agui.SubagentRun')
    changes = []
    subagents.connect('items-changed', lambda model, position, removed, added:
                      changes.append((position, removed, added)))
    loop = GLib.MainLoop()
    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    session.send_async('go', None, None, lambda source, result: (source.send_finish(result), loop.quit()))
    loop.run()
    GLib.source_remove(timeout_id)

    check(changes == [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)],
          'one items-changed per subagent started or ended: %r' % changes)
    check(subagents.get_n_items() == 2, 'two subagents')
    if subagents.get_n_items() != 2:
        return
    researcher, checker = subagents.get_item(0), subagents.get_item(1)
    check(researcher.get_id() == 'sa1' and researcher.props.name == 'researcher'
          and researcher.get_description() == 'finds things', 'SubagentRun id, name and description')
    check(researcher.get_status() == Agui.SubagentStatus.FAILED
          and researcher.props.error_message == 'gave up' and researcher.get_error_code() == 'E_TIRED',
          'a failed SubagentRun says why')
    check(checker.props.status == Agui.SubagentStatus.SUSPENDED
          and checker.get_parent_subagent_run_id() == 'sa1', 'a suspended SubagentRun and its parent')
    check(checker.get_interrupt_ids() == ['i1'], 'SubagentRun.get_interrupt_ids is a list of str')
    result = checker.get_result()
    check(isinstance(result, Json.Node) and json.loads(Json.to_string(result, False)) == {'found': [1, 2]},
          'SubagentRun.result is a Json.Node')
    check(researcher.get_result() is None and researcher.get_metadata() is None
          and checker.get_parent_tool_call_id() is None, 'absent members are None')
    del researcher, checker, subagents, session, transport
    gc.collect()


def test_private_api():
    # The pipeline's internals are private: a binding sees the session,
    # the transports, the transcript and the store, not the machinery.
    for name in ['SseDecoder', 'SseFrame', 'EventParser', 'ChunkNormalizer', 'Verifier', 'Reducer',
                 'HttpTransportBuilder', 'TurnRecord']:
        check(not hasattr(Agui, name), 'Agui.%s is not in the introspection data' % name)
    for name in ['json_patch_apply', 'json_pointer_get', 'json_pointer_is_valid', 'json_node_equal']:
        check(not hasattr(Agui, name), 'Agui.%s is not in the introspection data' % name)
    check(not hasattr(Agui.RunState, 'new_idle') and not hasattr(Agui.RunState, 'new_failed'),
          'Agui.RunState has no public constructors')
    check(not hasattr(Agui.SessionStore, 'save_turn'), 'Agui.SessionStore.save_turn is private')
    check(not hasattr(Agui.ReplayTransport, 'copy'), 'Agui.ReplayTransport.copy is private')


class PythonTransport(GObject.Object, Agui.Transport):
    """A transport written in Python: the interface's vfuncs must be
    annotated well enough for a binding to implement them."""

    def __init__(self, body):
        super().__init__()
        self.body = body
        self.inputs = []

    def do_run_async(self, input, cancellable, callback, *user_data):
        self.inputs.append(json.loads(Json.to_string(input, False)))
        # The callback arrives bound to its user_data (closure annotation).
        task = Gio.Task.new(self, cancellable, lambda source, result, *data: callback(source, result), None)
        task.return_boolean(True)

    def do_run_finish(self, result):
        result.propagate_boolean()
        stream = Agui.EventStream.new()
        stream.read_sse(Gio.MemoryInputStream.new_from_bytes(GLib.Bytes.new(self.body)), 0)
        return stream


class UpperTool(Agui.Tool):
    """A tool whose execute vfuncs are written in Python."""

    def do_execute_async(self, arguments, cancellable, callback, *user_data):
        text = arguments.get_object().get_string_member('text') if arguments else ''
        task = Gio.Task.new(self, cancellable, lambda source, result, *data: callback(source, result), None)
        self.answer = text.upper()
        task.return_boolean(True)

    def do_execute_finish(self, result):
        result.propagate_boolean()
        return self.answer


def test_python_implementations():
    body = ''.join('data: %s\n\n' % json.dumps(event) for event in [
        {'type': 'RUN_STARTED', 'threadId': 'py', 'runId': 'py-run'},
        {'type': 'TEXT_MESSAGE_CHUNK', 'messageId': 'py-msg', 'role': 'assistant', 'delta': 'from '},
        {'type': 'TEXT_MESSAGE_CHUNK', 'messageId': 'py-msg', 'delta': 'Python'},
        {'type': 'RUN_FINISHED', 'threadId': 'py', 'runId': 'py-run'},
    ]).encode('utf-8')
    transport = PythonTransport(body)
    session = Agui.AgentSession(transport=transport, thread_id='py')

    loop = GLib.MainLoop()
    outcome = {}

    def on_sent(source, result):
        try:
            outcome['state'] = source.send_finish(result)
        except GLib.Error as error:
            outcome['error'] = error
        loop.quit()

    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    session.send_async('ping', None, None, on_sent)
    loop.run()
    GLib.source_remove(timeout_id)

    check('error' not in outcome, 'a session over a Python transport does not fail: %s' % outcome.get('error'))
    state = outcome.get('state')
    check(state is not None and state.get_status() == Agui.RunStatus.FINISHED,
          'a session over a Python transport finishes its run')
    check(len(transport.inputs) == 1 and transport.inputs[0].get('threadId') == 'py',
          'the Python transport receives the run input as a Json.Node')
    transcript = session.get_transcript()
    texts = [transcript.get_item(i).dup_text() for i in range(transcript.get_n_items())]
    check(texts == ['ping', 'from Python'], 'chunks from the Python transport reach the transcript: %r' % texts)

    tool = GObject.new(UpperTool, name='upper', description='Upper-cases text')
    registry = Agui.ToolRegistry.new()
    registry.add(tool)
    check(registry.lookup('upper') == tool, 'ToolRegistry.lookup finds the Python tool')
    check(registry.lookup('missing') is None, 'ToolRegistry.lookup of a missing tool is None')
    check(json.loads(Json.to_string(tool.to_json(), False)).get('name') == 'upper', 'Tool.to_json')

    loop = GLib.MainLoop()
    answers = []

    def on_executed(source, result):
        answers.append(source.execute_finish(result))
        loop.quit()

    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    tool.execute_async(Json.from_string('{"text":"quiet"}'), None, on_executed)
    loop.run()
    GLib.source_remove(timeout_id)
    check(answers == ['QUIET'], 'a Python tool runs through execute_async/finish: %r' % answers)

    simple = Agui.Tool.new_simple('echo', 'Echoes', None,
                                  lambda arguments, *data: Json.to_string(arguments, False))
    loop = GLib.MainLoop()
    answers = []
    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    simple.execute_async(Json.from_string('{"a":1}'), None, on_executed)
    loop.run()
    GLib.source_remove(timeout_id)
    check(answers == ['{"a":1}'], 'Tool.new_simple calls a Python function: %r' % answers)

    del session, transport, transcript, tool, registry, simple
    gc.collect()


class AgentHandler(http.server.BaseHTTPRequestHandler):
    """A loopback AG-UI agent: answers every POST with RUN as SSE."""

    requests = []

    def do_POST(self):
        length = int(self.headers.get('Content-Length', '0'))
        AgentHandler.requests.append({
            'path': self.path,
            'headers': dict(self.headers),
            'body': json.loads(self.rfile.read(length)),
        })
        body = ''.join('data: %s\n\n' % json.dumps(event) for event in RUN).encode('utf-8')
        self.send_response(200)
        self.send_header('Content-Type', 'text/event-stream')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def send_over(transport, text):
    session = Agui.AgentSession(transport=transport)
    loop = GLib.MainLoop()
    outcome = {}

    def on_sent(source, result):
        try:
            outcome['state'] = source.send_finish(result)
        except GLib.Error as error:
            outcome['error'] = error
        loop.quit()

    timeout_id = GLib.timeout_add_seconds(10, loop.quit)
    session.send_async(text, None, None, on_sent)
    loop.run()
    GLib.source_remove(timeout_id)
    return session, outcome


def test_http_transport():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), AgentHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = 'http://127.0.0.1:%d/agent' % server.server_address[1]

    try:
        # Construct properties, as a binding builds any object; no init()
        # first: the transport checks itself on its first run.
        transport = Agui.HttpTransport(url=url, headers=['X-Tenant: acme'], idle_timeout=20000)
        check(transport.props.url == url and transport.get_idle_timeout() == 20000,
              'HttpTransport(url=..., idle_timeout=...) keeps its construct properties')
        check(list(transport.props.headers) == ['X-Tenant: acme'], 'the headers property reads back')
        session, outcome = send_over(transport, 'Hi over HTTP')
        check('error' not in outcome, 'a run over HttpTransport(url=...) does not fail: %s'
              % outcome.get('error'))
        state = outcome.get('state')
        check(state is not None and state.get_status() == Agui.RunStatus.FINISHED,
              'a run over HttpTransport(url=...) finishes')
        transcript = session.get_transcript()
        texts = [transcript.get_item(i).dup_text() for i in range(transcript.get_n_items())]
        check(texts == ['Hi over HTTP', 'Hello, Python!'],
              'the loopback agent\'s answer reaches the transcript: %r' % texts)
        check(len(AgentHandler.requests) == 1 and AgentHandler.requests[0]['path'] == '/agent'
              and AgentHandler.requests[0]['headers'].get('X-Tenant') == 'acme'
              and AgentHandler.requests[0]['headers'].get('Accept') == 'text/event-stream',
              'the loopback agent got one POST with the caller\'s header and Accept')

        # The same, initialised explicitly, as Gio.Initable asks.
        transport = Agui.HttpTransport(url=url, encoding=Agui.HttpEncoding.SSE)
        check(transport.init(None), 'init() of a transport with a URL succeeds')
        check(Agui.HttpTransport.new(url).get_url() == url, 'HttpTransport.new(url) works')
    finally:
        server.shutdown()
        server.server_close()

    # No URL: a GError from init() (with G_DEBUG=fatal-criticals a critical
    # would abort), and the same error from a run instead of a hang.
    transport = Agui.HttpTransport()
    try:
        transport.init(None)
        check(False, 'init() without a URL raises')
    except GLib.Error as error:
        check(error.matches(Agui.error_quark(), Agui.Error.CONFIG),
              'init() without a URL raises AGUI_ERROR_CONFIG: %s' % error.message)
    session, outcome = send_over(Agui.HttpTransport(), 'Hi')
    state = outcome.get('state')
    failed = state is not None and state.get_status() == Agui.RunStatus.FAILED
    check(failed or 'error' in outcome, 'a run without a URL ends, failed, with no hang: %r' % outcome)

    try:
        Agui.HttpTransport(url='ftp://example.com/agent').init(None)
        check(False, 'init() with an ftp URL raises')
    except GLib.Error as error:
        check(error.matches(Agui.error_quark(), Agui.Error.CONFIG), 'init() with an ftp URL raises CONFIG')
    try:
        Agui.HttpTransport(url=url, headers=['X-Tenant acme']).init(None)
        check(False, 'init() with a header without a colon raises')
    except GLib.Error as error:
        check(error.matches(Agui.error_quark(), Agui.Error.CONFIG) and 'Name: value' in error.message,
              'init() with a header without a colon raises CONFIG: %s' % error.message)
    del session, transport
    gc.collect()


def test_thread_list():
    directory = tempfile.mkdtemp(prefix='test-gir-')
    try:
        store = Agui.SessionStore.new(os.path.join(directory, 'tandem.db'))
        store.create_thread('t-old', 'Older', 'agent-a')
        store.create_thread('t-new', 'Newer', None)

        threads = Agui.ThreadList.new(store)
        check(threads.props.store == store, 'ThreadList keeps its store')
        check(threads.get_item_type() == Agui.ThreadInfo.__gtype__, 'ThreadList holds Agui.ThreadInfo items')
        check(threads.props.loading, 'a new ThreadList is loading')
        check(run_until(lambda: not threads.props.loading), 'the ThreadList is read')
        check(threads.props.error is None, 'no error: %s' % threads.props.error)

        items = [threads.get_item(i) for i in range(threads.get_n_items())]
        check([info.props.id for info in items] == ['t-new', 't-old'], 'threads come newest first')
        check(items[1].props.title == 'Older' and items[1].props.agent_id == 'agent-a',
              'title and agent id read from Python')
        check(items[0].props.agent_id is None, 'no agent is None')
        check(isinstance(items[0].get_updated(), GLib.DateTime), 'updated is a GLib.DateTime')
        check(items[0].props.status == Agui.ThreadStatus.IDLE, 'status is an Agui.ThreadStatus')
        check(items[0].props.snippet is None, 'no search, no snippet')

        found, position = threads.lookup('t-old')
        check(found == items[1] and position == 1, 'lookup gives the info and its position')
        missing, _ = threads.lookup('none')
        check(missing is None, 'lookup of an unknown thread is None')

        changes = []
        threads.connect('items-changed', lambda model, p, r, a: changes.append((p, r, a)))
        store.rename_thread('t-old', 'Renamed')
        check(changes == [(1, 1, 1)], 'a rename changes one item: %s' % changes)
        check(items[1].props.title == 'Renamed', 'the same info object is updated')
        del changes[:]
        store.delete_thread('t-new')
        check(changes == [(0, 1, 0)] and threads.get_n_items() == 1, 'a delete removes one item')

        # A turn written by a session, then found by its text on the worker
        transport = Agui.ReplayTransport.new()
        transport.add_run_json(json.dumps(RUN))
        session = GObject.new(Agui.AgentSession, transport=transport, thread_id='t-chat', store=store)
        done = []
        session.send_async('Where is the platypus?', None, None, lambda *args: done.append(True))
        check(run_until(lambda: done and threads.get_n_items() == 2), 'the saved turn adds its thread')
        check(threads.get_item(0).props.id == 't-chat', 'the new thread is on top')

        threads.props.search = 'PLATYPUS'
        check(threads.props.loading, 'a search runs on the worker')
        check(run_until(lambda: not threads.props.loading), 'the search is answered')
        chat, _ = threads.lookup('t-chat')
        renamed, _ = threads.lookup('t-old')
        check(chat.props.snippet == '…is the platypus?', 'the snippet: %r' % chat.props.snippet)
        check(renamed.props.snippet is None, 'a thread that does not match has no snippet')
        threads.set_search(None)
        check(chat.props.snippet is None, 'no search clears the snippets')
        del session, threads, store
        gc.collect()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


test_session()
test_thread_list()
test_event()
test_private_api()
test_interrupts()
test_subagents()
test_python_implementations()
test_http_transport()

if failures:
    print('%d check(s) failed' % failures, file=sys.stderr)
    sys.exit(1)
