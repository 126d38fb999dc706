#!/usr/bin/env python3
# test-accessibility.py: Tandem as a screen reader meets it. The app runs
# as its own process with the accessibility bus of at-spi2-core beside it
# (at-spi-bus-launcher, which activates at-spi2-registryd), and pyatspi
# walks its tree in the states a person goes through with the demo agent:
# the welcome page, an answer with its approval dialog, the A2UI
# dashboard, Preferences' Add Agent form. In each, every interactive object
# on screen must have a real name (not GTK's type-name fallback such as
# "GtkButton") that does not repeat its mnemonic ("_Deny Deny"); the
# approval dialog must describe its question; each message must be read
# as one, by who wrote it and when, however many rows its paragraphs and
# cards take; how a run ends (complete,
# waiting for an answer, failed) must be there for a screen reader to read
# (a status object's name); Tab from the composer must reach a message,
# the arrow keys a tool card, and Tab from the dashboard's message every
# control of the dashboard.
#
# GTK 4.8 never sets "showing": on screen means visible with a size inside
# its window, which also counts a stack's hidden pages (stricter, not
# laxer).
#
# Run by meson under dbus-run-session (a bus of its own); it starts its
# own Xvfb. `--report` prints the table and asserts nothing.
#
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

try:
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, Gio, GLib  # noqa: F401
except (ImportError, ValueError):
    print('SKIP: python3-gi and gir1.2-atspi-2.0 are needed', file=sys.stderr)
    sys.exit(77)

# libatspi's interface getters are all marked deprecated in its GIR
warnings.filterwarnings('ignore', category=DeprecationWarning)

BUS_LAUNCHER = '/usr/libexec/at-spi-bus-launcher'
# A loaded machine runs the demo agent's typing slowly; the tree is read
# at most once a second so that reading it does not slow the app too.
TIMEOUT = 150
POLL_SECONDS = 1.0

INTERACTIVE_ROLES = {
    'push button', 'toggle button', 'check box', 'radio button', 'combo box', 'entry', 'text',
    'password text', 'slider', 'spin button', 'link', 'menu item', 'check menu item',
    'radio menu item', 'list item', 'page tab', 'switch', 'toggle', 'tree item',
}
# GTK 4.8 names an object nobody named after its type
TYPE_NAME = re.compile(r'(Gtk|Adw|Tandem)[A-Z]\w*')
MNEMONIC = re.compile(r'(^|\s)_\w')

failures = []


def fail(message):
    failures.append(message)
    print('FAIL: ' + message, flush=True)


def wait_for(condition, what, timeout=TIMEOUT):
    print('waiting for ' + what, flush=True)
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except GLib.Error:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError('Timed out waiting for ' + what)
        pump(POLL_SECONDS)


def pump(seconds):
    """Lets libatspi dispatch the events it received."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        while context.pending():
            context.iteration(False)
        time.sleep(0.01)


def wait_for_bus_name(name):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)

    def has_owner():
        reply = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                              'NameHasOwner', GLib.Variant('(s)', (name,)), None, 0, -1, None)
        return reply.unpack()[0]
    wait_for(has_owner, name + ' on the session bus')


# --- Reading the tree ----------------------------------------------------

def children(obj):
    try:
        count = obj.get_child_count()
    except GLib.Error:
        return []
    found = []
    for i in range(count):
        try:
            child = obj.get_child_at_index(i)
        except GLib.Error:
            continue
        if child is not None:
            found.append(child)
    return found


def walk(obj):
    """The object and those under it, less what has no size: a page
    of a stack not shown, a revealer folded, a pane closed."""
    yield obj
    box = extents(obj)
    if box is not None and (box[2] <= 0 or box[3] <= 0):
        return
    for child in children(obj):
        yield from walk(child)


def dump(obj, out, depth=0):
    box = extents(obj)
    out.write('{}[{}] "{}" ({}) {} {}\n'.format(
        '  ' * depth, role(obj), name(obj), obj.get_description() or '', box,
        ','.join(Atspi.StateType(s).value_nick for s in states(obj).get_states()
                 if s in (Atspi.StateType.FOCUSABLE, Atspi.StateType.FOCUSED))))
    if box is not None and (box[2] <= 0 or box[3] <= 0):
        return
    for child in children(obj):
        dump(child, out, depth + 1)


# The tree changes while it is read (a tooltip comes and goes): an
# object gone reads as nothing.

def role(obj):
    try:
        return obj.get_role_name()
    except GLib.Error:
        return ''


def name(obj):
    try:
        return obj.get_name() or ''
    except GLib.Error:
        return ''


def states(obj):
    try:
        return obj.get_state_set()
    except GLib.Error:
        return Atspi.StateSet.new([])


def extents(obj):
    try:
        component = obj.get_component_iface()
        if component is None:
            return None
        rect = component.get_extents(Atspi.CoordType.WINDOW)
    except GLib.Error:
        return (0, 0, 0, 0)
    return (rect.x, rect.y, rect.width, rect.height)


def toplevels(app):
    return [w for w in children(app) if states(w).contains(Atspi.StateType.VISIBLE)]


def on_screen(obj, window_size):
    if not states(obj).contains(Atspi.StateType.VISIBLE):
        return False
    box = extents(obj)
    if box is None or box[2] <= 0 or box[3] <= 0:
        return False
    x, y, width, height = box
    return x < window_size[0] and y < window_size[1] and x + width > 0 and y + height > 0


def interactive_on_screen(window):
    size = extents(window)[2:]
    return [obj for obj in walk(window) if role(obj) in INTERACTIVE_ROLES and on_screen(obj, size)]


def real_name(text):
    # "You: " is who wrote a message without its words
    return (text.strip() != '' and text != '(None)' and not TYPE_NAME.fullmatch(text)
            and not text.rstrip().endswith(':'))


def labelled_by(obj):
    try:
        relations = obj.get_relation_set()
    except GLib.Error:
        return []
    targets = []
    for relation in relations:
        if relation.get_relation_type() == Atspi.RelationType.LABELLED_BY:
            targets += [relation.get_target(i) for i in range(relation.get_n_targets())]
    return targets


def repeats_itself(obj):
    """A mnemonic read out ("_Deny Deny"), or a name of its own run
    together with its label's ("Use “Demo” for new conversations Demo")."""
    text = name(obj)
    if MNEMONIC.search(text):
        return True
    words = text.split()
    half = len(words) // 2
    if len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]:
        return True
    labels = ' '.join(name(target) for target in labelled_by(obj)).strip()
    return labels != '' and text != labels and text.endswith(' ' + labels)


def describe(obj):
    return '{} "{}"'.format(role(obj), name(obj))


def find(root, predicate):
    for obj in walk(root):
        try:
            if predicate(obj):
                return obj
        except GLib.Error:
            continue
    return None


def find_in_app(app, predicate):
    for window in toplevels(app):
        found = find(window, predicate)
        if found is not None:
            return found
    return None


def named(role_name, text):
    return lambda obj: role(obj) == role_name and name(obj) == text


def click(obj):
    action = obj.get_action_iface()
    assert action is not None, describe(obj) + ' has no action'
    action.do_action(0)


# --- The audit -----------------------------------------------------------

table = []


def audit(state, windows):
    print('reading the tree: ' + state, flush=True)
    objects = []
    for window in windows:
        objects += interactive_on_screen(window)
    unnamed = [obj for obj in objects if not real_name(name(obj))]
    doubled = [obj for obj in objects if real_name(name(obj)) and repeats_itself(obj)]
    table.append((state, len(objects), [describe(o) for o in unnamed], [describe(o) for o in doubled]))
    if os.environ.get('TANDEM_A11Y_DUMP'):
        with open(os.path.join(os.environ['TANDEM_A11Y_DUMP'], re.sub(r'\W+', '-', state) + '.txt'), 'w') as out:
            for window in windows:
                dump(window, out)
    for obj in unnamed:
        fail('{}: {} on screen has no name'.format(state, describe(obj)))
    for obj in doubled:
        fail('{}: {} repeats its mnemonic'.format(state, describe(obj)))


def print_table():
    print('| state | interactive objects on screen | without a real name | names that repeat their mnemonic |')
    print('|---|---|---|---|')
    for state, count, unnamed, doubled in table:
        print('| {} | {} | {} | {} |'.format(
            state, count,
            len(unnamed) if not unnamed else '{} ({})'.format(len(unnamed), ', '.join(unnamed)),
            len(doubled) if not doubled else '{} ({})'.format(len(doubled), ', '.join(doubled))))


# --- Keys, as a person presses them --------------------------------------

def press(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


class FocusWatcher:
    """The objects that took focus, in order, as a screen reader hears of them."""

    def __init__(self):
        self.focused = []
        self.listener = Atspi.EventListener.new(self.on_event)
        self.listener.register('object:state-changed:focused')

    def on_event(self, event):
        if event.detail1 == 1:
            self.focused.append(event.source)

    def next_focus(self, what):
        count = len(self.focused)
        wait_for(lambda: len(self.focused) > count, what, timeout=10)
        return self.focused[-1]


def check_status(window, expected):
    """The status a screen reader reads on request (GTK 4.8 has no way
    to say it unasked)."""
    status = find(window, lambda o: role(o) == 'status bar')
    if status is None:
        fail('the window has no status object')
        return
    try:
        wait_for(lambda: name(status).startswith(expected), 'the status to read "{}"'.format(expected), timeout=30)
    except TimeoutError:
        fail('the status reads "{}", not "{}"'.format(name(status), expected))


# Who wrote a message, and when ("Agent, 21:48"; "1 Dec 2026, 21:48"
# for an older one)
WHO = r'(?P<who>(?:Agent|You|System|Tool)(?:, [^:]*?\d\d?:\d\d)?)'
# A message's first row: who, then its first words
MESSAGE_NAME = re.compile(WHO + r': \S')
# Each later row of a long message says whose it goes on with
CONTINUES = re.compile(r'Continues the message from ' + WHO)
TOOL_CARD_NAME = re.compile(r'((Agent(, [^:]*)?: )?tool call \S+|\S+, (Complete|Denied))$')
TAB, UP, DOWN = 0xff09, 0xff52, 0xff54


def description(obj):
    try:
        return obj.get_description() or ''
    except GLib.Error:
        return ''


def is_message(obj):
    return role(obj) in ('panel', 'list item') and (MESSAGE_NAME.match(name(obj)) is not None or
                                                   CONTINUES.fullmatch(description(obj)) is not None)


def is_tool_card(obj):
    return TOOL_CARD_NAME.match(name(obj)) is not None


def check_messages(window, state):
    """Each message is one group a screen reader can hold, though its
    Markdown paragraphs and cards are rows of their own: its first row
    is named by who wrote it and when, and each later row says whose
    message it goes on with. Returns the messages, (who, rows) in order."""
    transcript = find(window, named('list', 'Conversation'))
    if transcript is None:
        fail(state + ': no list named "Conversation"')
        return []
    messages = []
    for row in children(transcript):
        if role(row) != 'list item' or not on_screen(row, extents(window)[2:]):
            continue
        start, more = MESSAGE_NAME.match(name(row)), CONTINUES.fullmatch(description(row))
        if start is not None and more is None:
            messages.append([start.group('who'), 1])
        elif more is not None and start is None and (not messages or messages[-1][0] == more.group('who')):
            # The first row in sight may go on with a message above it
            if not messages:
                messages.append([more.group('who'), 0])
            messages[-1][1] += 1
        else:
            fail('{}: the row {} ("{}") is neither a message nor part of the one before'.format(
                state, describe(row), description(row)))
    print('{}: messages {}'.format(state, '; '.join('{} ({} rows)'.format(who, n) for who, n in messages)))
    for who, _ in messages:
        if not re.search(r'\d:\d\d$', who):
            fail('{}: a message by "{}" does not say when it was written'.format(state, who))
    return messages


def walk_focus(watcher, keysym, presses, stop):
    """Presses a key until stop(focused) holds; returns that object or None
    (also once three presses in a row moved nothing: the end of a list)."""
    still = 0
    for _ in range(presses):
        press(keysym)
        try:
            focused = watcher.next_focus('the focus to move')
        except TimeoutError:
            print('  (no focus change)')
            still += 1
            if still == 3:
                return None
            continue
        still = 0
        print('  focus: ' + describe(focused))
        if stop(focused):
            return focused
    return None


def check_tab_reach(window, watcher):
    """Tab from the composer reaches a message; the arrow keys walk the
    messages from there to a tool card; Tab from the dashboard's message
    goes through every control of the dashboard."""
    messages_focusable = False
    for obj in walk(window):
        if role(obj) == 'panel' and MESSAGE_NAME.match(name(obj)):
            messages_focusable = states(obj).contains(Atspi.StateType.FOCUSABLE)
            break
    if not messages_focusable:
        fail('messages take no focus')
        return
    message = walk_focus(watcher, TAB, 40, is_message)
    if message is None:
        fail('Tab from the composer never reached a message')
        return
    print('Tab reached ' + describe(message))
    # Tab lands on a message in view, the newest one at the end of the
    # conversation: the tool card may be above or below it
    card = walk_focus(watcher, UP, 40, is_tool_card) or walk_focus(watcher, DOWN, 40, is_tool_card)
    if card is None:
        fail('the arrow keys from a message never reached a tool card')
        return
    print('the arrow keys reached ' + describe(card))

    # Down to the dashboard's message, then Tab through its controls
    dashboard = walk_focus(watcher, DOWN, 40,
                           lambda o: find(o, lambda c: role(c) == 'slider') is not None)
    if dashboard is None:
        fail('the arrow keys never reached the dashboard\'s message')
        return
    # GTK 4.8 reads a toggle button (the chips) as a push button
    controls = [('slider', None), ('push button', 'Calm'), ('push button', 'Busy'),
                ('push button', 'Tired'), ('check box', None), ('push button', 'Plan my day')]
    reached = set()

    def all_reached(obj):
        for control in controls:
            if role(obj) in (control[0], 'toggle button') and (control[1] is None or name(obj) == control[1]):
                reached.add(control)
        return len(reached) == len(controls)

    if walk_focus(watcher, TAB, 20, all_reached) is None:
        fail('Tab from the dashboard\'s message never reached: ' +
             ', '.join('{} {}'.format(r, n or '') for r, n in controls if (r, n) not in reached))


def start_x_server():
    """An Xvfb of the test's own, on the first display number it can lock.

    -noreset: the AT-SPI launcher connects, sets its property on the root
    window and leaves; an X server left to reset when its last client
    goes refuses a client connecting meanwhile. Tandem, started just
    then, met "cannot open display" with the server running (CI saw it;
    here 2 in 60 such starts failed without -noreset, none in 90 with it).

    The numbers start at 20, away from the :0 of a desktop or a CI runner
    and the :99 where xvfb-run -a starts; the lock file decides, as for
    xvfb-run's servers, and a number taken sends the server on to the
    next.
    """
    number = 20
    # meson's MALLOC_PERTURB_ is for Tandem, not for the X server.
    server_env = {k: v for k, v in os.environ.items() if k != 'MALLOC_PERTURB_'}
    for _ in range(64):
        while os.path.exists('/tmp/.X{}-lock'.format(number)):
            number += 1
        read_end, write_end = os.pipe()
        server = subprocess.Popen(['Xvfb', ':{}'.format(number), '-displayfd', str(write_end),
                                   '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'],
                                  pass_fds=(write_end,), start_new_session=True, env=server_env)
        os.close(write_end)
        # The server writes its number once it accepts connections, and
        # exits without writing when another holds the lock.
        with os.fdopen(read_end) as display_pipe:
            display = display_pipe.readline().strip()
        if display and server.poll() is None:
            return server, display
        server.wait()
        number += 1
    raise RuntimeError('Xvfb did not start on any display')


# --- The states ----------------------------------------------------------

def main():
    report_only = '--report' in sys.argv
    app_path = [a for a in sys.argv[1:] if not a.startswith('--')][0]
    scratch = tempfile.mkdtemp(prefix='tandem-a11y-')
    processes = []

    try:
        server, display = start_x_server()
        processes.append(server)
        os.environ['DISPLAY'] = ':' + display
        os.environ.pop('XAUTHORITY', None)

        launcher = subprocess.Popen([BUS_LAUNCHER, '--launch-immediately'], start_new_session=True)
        processes.append(launcher)
        wait_for_bus_name('org.a11y.Bus')

        env = dict(os.environ)
        for variable in ('GTK_A11Y', 'NO_AT_BRIDGE'):
            env.pop(variable, None)
        env.update({
            'SECRET_BACKEND': 'file',
            'SECRET_FILE_TEST_PATH': os.path.join(scratch, 'keyring'),
            'SECRET_FILE_TEST_PASSWORD': 'tandem-tests',
            'XDG_DATA_HOME': os.path.join(scratch, 'data'),
            'XDG_CONFIG_HOME': os.path.join(scratch, 'config'),
            'XDG_CACHE_HOME': os.path.join(scratch, 'cache'),
            'XDG_STATE_HOME': os.path.join(scratch, 'state'),
            'GDK_BACKEND': 'x11',
        })
        app_process = subprocess.Popen([app_path, '--store', os.path.join(scratch, 'store.db')], env=env)
        processes.append(app_process)

        def find_app():
            if app_process.poll() is not None:
                raise RuntimeError('Tandem exited with {} (the X server on :{} {})'.format(
                    app_process.returncode, display,
                    'is running' if server.poll() is None else 'exited with {}'.format(server.returncode)))
            desktop = Atspi.get_desktop(0)
            for app in children(desktop):
                if app.get_process_id() == app_process.pid:
                    return app
            return None
        app = wait_for(find_app, 'Tandem on the accessibility bus')
        window = wait_for(lambda: find(app, lambda o: role(o) == 'frame' and name(o) == 'Tandem'),
                          'the main window')
        composer = wait_for(lambda: find(window, named('text', 'Message')), 'the composer')
        wait_for(lambda: find(window, lambda o: role(o) == 'push button' and name(o) == 'A tool call'),
                 'the welcome page')
        # Keys typed through XTEST go where the pointer is: there is no
        # window manager to give the window focus.
        box = extents(window)
        Atspi.generate_mouse_event(box[0] + box[2] // 2, box[1] + 10, 'abs')

        audit('welcome', toplevels(app))

        # An answer, a tool call the app answers, and a second one the
        # agent asks to approve
        watcher = FocusWatcher()
        click(find(window, lambda o: role(o) == 'push button' and name(o) == 'A tool call'))
        dialog = wait_for(lambda: [w for w in toplevels(app) if role(w) in ('dialog', 'alert')],
                          'the approval dialog')[0]
        wait_for(lambda: find(dialog, lambda o: role(o) == 'push button' and 'Deny' in name(o)),
                 'the dialog\'s buttons')
        audit('answer + approval dialog', toplevels(app))
        description = dialog.get_description() or ''
        if 'archive' not in description:
            fail('the approval dialog does not describe its question: "{}"'.format(description))
        check_status(window, 'The agent is waiting for your answer')

        click(find(dialog, lambda o: role(o) == 'push button' and 'Deny' in name(o)))
        wait_for(lambda: find(window, lambda o: 'Denied' in name(o)), 'the denied tool call')

        # The question, then an answer of several paragraphs and cards:
        # two messages (or more), not a row each
        messages = check_messages(window, 'answer')
        authors = [who.split(',')[0] for who, _ in messages]
        if 'You' not in authors or 'Agent' not in authors:
            fail('the transcript does not say who wrote its messages: {}'.format(messages))
        if not any(n > 1 for _, n in messages):
            fail('no message of several rows is read as one: {}'.format(messages))

        # The dashboard, in the same conversation
        composer.get_editable_text_iface().set_text_contents('Show me a dashboard')
        send = wait_for(lambda: find(window, lambda o: role(o) == 'push button' and name(o) == 'Send'
                                     and states(o).contains(Atspi.StateType.SENSITIVE)), 'Send')
        click(send)
        wait_for(lambda: find(window, lambda o: role(o) == 'slider'), 'the dashboard')
        check_status(window, 'The answer is complete')
        audit('dashboard (A2UI)', toplevels(app))
        check_messages(window, 'dashboard (A2UI)')

        # Tab from the composer, as a person walks the window
        box = extents(composer)
        Atspi.generate_mouse_event(box[0] + box[2] // 2, box[1] + box[3] // 2, 'b1c')
        wait_for(lambda: states(composer).contains(Atspi.StateType.FOCUSED), 'the composer\'s focus')
        check_tab_reach(window, watcher)

        # A run that fails, in a new chat
        click(find(window, named('push button', 'New Chat')))
        error_prompt = wait_for(lambda: find(window, lambda o: role(o) == 'push button' and name(o) == 'An error'
                                             and on_screen(o, extents(window)[2:])), 'the welcome page again')
        click(error_prompt)
        check_status(window, 'The run failed')

        # Preferences → Add Agent, from the welcome page of a new chat
        click(find(window, named('push button', 'New Chat')))
        add = wait_for(lambda: find(window, lambda o: role(o) == 'push button' and 'Add an Agent' in name(o)
                                    and on_screen(o, extents(window)[2:])), 'the welcome page again')
        click(add)
        preferences = wait_for(lambda: [w for w in toplevels(app) if name(w) == 'Preferences'], 'Preferences')[0]
        wait_for(lambda: find(preferences, lambda o: role(o) in ('text', 'entry') and on_screen(o, extents(preferences)[2:])),
                 'the Add Agent form')
        audit('Preferences → Add Agent', [preferences])

        click(find(preferences, named('push button', 'Back')))
        wait_for(lambda: find(preferences, lambda o: role(o) == 'check box' and on_screen(o, extents(preferences)[2:])),
                 'the agents in Preferences')
        audit('Preferences', [preferences])
        if app_process.poll() is not None:
            fail('Tandem exited on its own, with {}'.format(app_process.returncode))
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(scratch, ignore_errors=True)

    print_table()
    if report_only:
        return 0
    print('{} passed, {} failed'.format(0 if failures else 1, 1 if failures else 0))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
