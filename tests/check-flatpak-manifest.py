#!/usr/bin/env python3
# check-flatpak-manifest.py: keeps build-aux/io.github.tandemdesk.Tandem.json
# (and its development twin, io.github.tandemdesk.Tandem.Devel.json)
# honest: the right ids and runtime, a minimal sandbox, pinned sources, and
# every dependency() of the meson project either in the GNOME runtime or
# built by a module of the manifest.
#
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: check-flatpak-manifest.py [SOURCE_ROOT]  (default: MESON_SOURCE_ROOT
# or the parent of this script's directory)

import json
import os
import re
import sys

APP_ID = 'io.github.tandemdesk.Tandem'
RUNTIME = 'org.gnome.Platform'
SDK = 'org.gnome.Sdk'
COMMAND = 'tandem'

# What the sandbox may ask for. Anything else (a filesystem, a D-Bus name,
# a device beyond the GPU) needs a reason and an update here.
ALLOWED_FINISH_ARGS = {
    '--share=network',
    '--share=ipc',
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',
}
# Never, whatever the allow list says: the host's files and the sandbox
# escape hatch.
FORBIDDEN_PATTERNS = [
    re.compile(r'^--filesystem=(home|host|host-os|host-etc|~)(/|:|$)'),
    re.compile(r'^--talk-name=org\.freedesktop\.Flatpak$'),
    re.compile(r'^--socket=(session-bus|system-bus)$'),
    re.compile(r'^--device=all$'),
]

# pkg-config names org.gnome.Platform//50 (and its SDK) provides. The
# freedesktop base underneath brings sqlite3; the GNOME layer brings
# GLib, GTK 4, libadwaita, libsoup 3, json-glib and libsecret.
RUNTIME_PROVIDES = {
    'glib-2.0', 'gobject-2.0', 'gio-2.0', 'gio-unix-2.0', 'gmodule-2.0',
    'gthread-2.0', 'gobject-introspection-1.0',
    'gtk4', 'gtk4-wayland', 'gtk4-x11', 'libadwaita-1',
    'libsoup-3.0', 'json-glib-1.0', 'libsecret-1', 'sqlite3',
    'cairo', 'pango', 'pangocairo', 'gdk-pixbuf-2.0', 'graphene-gobject-1.0',
    'libxml-2.0', 'gtksourceview-5', 'gsettings-desktop-schemas',
}

# pkg-config names a manifest module installs, by module name, when the
# module's name alone does not say.
MODULE_PROVIDES = {
    'md4c': {'md4c', 'md4c-html'},
}

DEPENDENCY_RE = re.compile(r"""\bdependency\s*\(\s*['"]([^'"]+)['"]""")

failures = []


def fail(message):
    failures.append(message)
    print('not ok - %s' % message)


def ok(message):
    print('ok - %s' % message)


def check(condition, message):
    if condition:
        ok(message)
    else:
        fail(message)
    return condition


def meson_files(source_root):
    yield os.path.join(source_root, 'meson.build')
    for directory, subdirs, files in os.walk(os.path.join(source_root, 'src')):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(('.', '_')))
        if 'meson.build' in files:
            yield os.path.join(directory, 'meson.build')


def project_dependencies(source_root):
    """Maps each dependency('name') to the meson.build files using it."""
    found = {}
    for path in meson_files(source_root):
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            for line in f:
                code = line.split('#', 1)[0]
                for name in DEPENDENCY_RE.findall(code):
                    found.setdefault(name, set()).add(os.path.relpath(path, source_root))
    return found


def iter_modules(modules):
    """Walks the module tree; entries may be nested or external files."""
    for module in modules:
        if isinstance(module, str):
            fail('module %r is an external file; inline it so it can be checked' % module)
            continue
        yield module
        yield from iter_modules(module.get('modules', []))


def check_manifest(source_root, app_id, development):
    path = os.path.join(source_root, 'build-aux', app_id + '.json')

    try:
        with open(path, encoding='utf-8') as f:
            manifest = json.load(f)
    except (OSError, ValueError) as error:
        fail('%s does not parse: %s' % (path, error))
        return
    ok('%s parses as JSON' % os.path.relpath(path, source_root))

    ids = [manifest[key] for key in ('id', 'app-id') if key in manifest]
    check(ids == [app_id], 'application id is %s (one of id/app-id): %r' % (app_id, ids))
    check(manifest.get('runtime') == RUNTIME, 'runtime is %s' % RUNTIME)
    check(manifest.get('sdk') == SDK, 'sdk is %s' % SDK)
    version = manifest.get('runtime-version', '')
    check(isinstance(version, str) and re.fullmatch(r'[0-9]+', version) is not None,
          'runtime-version is a stable GNOME branch: %r' % version)
    check(manifest.get('command') == COMMAND, 'command is %s' % COMMAND)

    finish_args = manifest.get('finish-args', [])
    for arg in finish_args:
        if any(pattern.match(arg) for pattern in FORBIDDEN_PATTERNS):
            fail('finish-arg %s breaks the sandbox' % arg)
        elif arg not in ALLOWED_FINISH_ARGS:
            fail('finish-arg %s is not in the allowed list' % arg)
    check(len(finish_args) == len(set(finish_args)), 'finish-args have no duplicates')
    check('--share=network' in finish_args, 'the sandbox can reach agents over the network')

    modules = list(iter_modules(manifest.get('modules', [])))
    names = [m.get('name') for m in modules]
    check(all(names) and len(names) == len(set(names)), 'every module has a unique name: %r' % names)
    check(bool(names) and names[-1] == 'tandem', 'the app is the last module')

    provided = set()
    for module in modules:
        name = module.get('name', '?')
        provided.add(name)
        provided |= MODULE_PROVIDES.get(name, set())
        sources = module.get('sources', [])
        if not sources:
            fail('module %s has no sources' % name)
        for source in sources:
            if isinstance(source, str):
                fail('module %s has an external source file %r' % (name, source))
                continue
            kind = source.get('type')
            if kind in ('archive', 'file'):
                url = source.get('url')
                sha256 = source.get('sha256', '')
                if kind == 'file' and 'path' in source:
                    continue
                check(isinstance(url, str) and url.startswith('https://'),
                      'module %s %s source has an https url' % (name, kind))
                check(re.fullmatch(r'[0-9a-f]{64}', sha256 or '') is not None,
                      'module %s %s source is pinned by sha256' % (name, kind))
            elif kind == 'git':
                check(bool(source.get('commit') or source.get('tag')),
                      'module %s git source is pinned by commit or tag' % name)
            elif kind == 'dir':
                check(name == 'tandem', 'only the app itself builds from a local dir (%s)' % name)

    app = next((m for m in modules if m.get('name') == 'tandem'), {})
    check(app.get('buildsystem') == 'meson', 'the app module builds with meson')
    check('-Dtests=false' in app.get('config-opts', []), 'the app module turns the tests off')
    # The development manifest builds the development profile (its own
    # app id and data folder), the other one the app people install
    check(('-Dprofile=development' in app.get('config-opts', [])) == development,
          'the app module builds the %s profile' % ('development' if development else 'default'))

    dependencies = project_dependencies(source_root)
    check('gtk4' in dependencies, 'found the project dependencies (%d)' % len(dependencies))
    for name, users in sorted(dependencies.items()):
        if name in RUNTIME_PROVIDES:
            ok('dependency %s is in the GNOME runtime' % name)
        elif name in provided:
            ok('dependency %s is built by a manifest module' % name)
        else:
            fail('dependency %s (%s) is neither in the GNOME runtime nor built by a module'
                 % (name, ', '.join(sorted(users))))


def main():
    if len(sys.argv) > 1:
        source_root = sys.argv[1]
    else:
        source_root = os.environ.get('MESON_SOURCE_ROOT',
                                     os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    check_manifest(source_root, APP_ID, development=False)
    check_manifest(source_root, APP_ID + '.Devel', development=True)

    if failures:
        print('%d check(s) failed' % len(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
