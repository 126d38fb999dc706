#!/usr/bin/env python3
# check-install.py: installs the build into a scratch DESTDIR and checks
# what lands there: binaries, the shared libagui with its headers,
# pkg-config file and introspection data, the GSettings schema, and the
# desktop integration files whose sources exist in the tree. Then runs the
# installed tandem-cli, and builds and runs a tiny program against the
# installed libagui through pkg-config.
#
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Environment: MESON_BUILD_ROOT, MESON_SOURCE_ROOT (required); MESON (the
# meson command, default "meson"); PREFIX (the configured prefix).

import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

APP_ID = 'io.github.tandemdesk.Tandem'

failures = []


def ok(message):
    print('ok - %s' % message)


def fail(message):
    failures.append(message)
    print('not ok - %s' % message)


def check(condition, message):
    (ok if condition else fail)(message)
    return condition


def build_option(build_root, name):
    with open(os.path.join(build_root, 'meson-info', 'intro-buildoptions.json'), encoding='utf-8') as f:
        for option in json.load(f):
            if option['name'] == name:
                return option['value']
    return None


def project_headers(source_root):
    """The public headers src/agui/meson.build installs."""
    headers = []
    for path in sorted(glob.glob(os.path.join(source_root, 'src', 'agui', '**', 'agui*.h'), recursive=True)):
        name = os.path.basename(path)
        if not name.endswith('-private.h'):
            headers.append(name)
    return headers


def main():
    build_root = os.environ.get('MESON_BUILD_ROOT')
    source_root = os.environ.get('MESON_SOURCE_ROOT')
    if not build_root or not source_root:
        print('MESON_BUILD_ROOT and MESON_SOURCE_ROOT must be set', file=sys.stderr)
        return 99
    meson = shlex.split(os.environ.get('MESON', 'meson'))

    prefix = build_option(build_root, 'prefix')
    datadir = build_option(build_root, 'datadir')
    bindir = build_option(build_root, 'bindir')
    libdir = build_option(build_root, 'libdir')
    includedir = build_option(build_root, 'includedir')
    localedir = build_option(build_root, 'localedir')

    destdir = tempfile.mkdtemp(prefix='tandem-install-')
    try:
        env = dict(os.environ)
        env.pop('DESTDIR', None)
        result = subprocess.run(meson + ['install', '--destdir', destdir, '-C', build_root,
                                         '--no-rebuild', '--quiet'],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True)
        if not check(result.returncode == 0, 'meson install --destdir succeeds'):
            print(result.stdout)
            return 1

        root = os.path.join(destdir, os.path.relpath(prefix, '/'))

        def under(directory):
            return os.path.join(root, directory) if not os.path.isabs(directory) \
                else os.path.join(destdir, os.path.relpath(directory, '/'))

        installed = set()
        for directory, _, files in os.walk(destdir):
            for name in files + [d for d in os.listdir(directory)
                                 if os.path.islink(os.path.join(directory, d))]:
                installed.add(os.path.relpath(os.path.join(directory, name), root))
        ok('%d files installed under %s' % (len(installed), prefix))

        def expect(directory, *parts):
            path = os.path.join(under(directory), *parts)
            return check(os.path.lexists(path),
                         'installed %s' % os.path.relpath(path, root))

        def expect_glob(directory, pattern):
            matches = glob.glob(os.path.join(under(directory), pattern))
            return check(bool(matches), 'installed %s/%s' % (os.path.relpath(under(directory), root), pattern)) \
                and matches

        # Programs.
        expect(bindir, 'tandem')
        expect(bindir, 'tandem-cli')

        # The library: versioned .so with its dev symlink, headers, pkg-config.
        expect_glob(libdir, 'libagui-1.so.0*')
        expect(libdir, 'libagui-1.so')
        check(not glob.glob(os.path.join(under(libdir), 'libagui-static*')),
              'the static helper library is not installed')
        headers_dir = os.path.join(under(includedir), 'libagui-1')
        for header in project_headers(source_root) + ['agui-enums.h']:
            check(os.path.exists(os.path.join(headers_dir, header)),
                  'installed header libagui-1/%s' % header)
        check(not glob.glob(os.path.join(headers_dir, '*-private.h')), 'no private header installed')
        pc = os.path.join(under(libdir), 'pkgconfig', 'agui-1.pc')
        if check(os.path.exists(pc), 'installed %s' % os.path.relpath(pc, root)):
            pkg_config = shutil.which('pkg-config')
            if pkg_config:
                validate = subprocess.run([pkg_config, '--validate', pc],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          universal_newlines=True)
                check(validate.returncode == 0 and not validate.stdout.strip(),
                      'pkg-config --validate agui-1.pc %s' % validate.stdout.strip())

        # Introspection, when the build made it.
        if os.path.exists(os.path.join(build_root, 'src', 'agui', 'Agui-1.0.typelib')):
            expect(datadir, 'gir-1.0', 'Agui-1.0.gir')
            expect(libdir, 'girepository-1.0', 'Agui-1.0.typelib')

        # The API reference, when -Ddocs=true built it.
        if build_option(build_root, 'docs'):
            expect(datadir, 'doc', 'libagui-1', 'index.html')
            expect(datadir, 'doc', 'libagui-1', 'class.AgentSession.html')

        # Data.
        expect(datadir, 'glib-2.0', 'schemas', APP_ID + '.gschema.xml')

        # Desktop integration: each only once its source is in the tree.
        data = os.path.join(source_root, 'data')
        if glob.glob(os.path.join(data, '*.desktop.in*')) or glob.glob(os.path.join(data, '*.desktop')):
            expect(datadir, 'applications', APP_ID + '.desktop')
        if glob.glob(os.path.join(data, '*.metainfo.xml*')) or glob.glob(os.path.join(data, '*.appdata.xml*')):
            expect(datadir, 'metainfo', APP_ID + '.metainfo.xml')
        icons = os.path.join(data, 'icons')
        if glob.glob(os.path.join(icons, '**', APP_ID + '.svg'), recursive=True):
            expect(datadir, 'icons', 'hicolor', 'scalable', 'apps', APP_ID + '.svg')
        if glob.glob(os.path.join(icons, '**', APP_ID + '-symbolic.svg'), recursive=True):
            expect(datadir, 'icons', 'hicolor', 'symbolic', 'apps', APP_ID + '-symbolic.svg')
        if os.path.exists(os.path.join(data, APP_ID + '.service.in')):
            expect(datadir, 'dbus-1', 'services', APP_ID + '.service')
        linguas = os.path.join(source_root, 'po', 'LINGUAS')
        if os.path.exists(linguas):
            with open(linguas, encoding='utf-8') as f:
                languages = [word for line in f for word in line.split('#', 1)[0].split()]
            for language in languages:
                if os.path.exists(os.path.join(source_root, 'po', language + '.po')):
                    expect(localedir, language, 'LC_MESSAGES', 'tandem.mo')

        # The installed CLI runs: it links libagui statically, but point
        # the loader at the DESTDIR library anyway in case that changes.
        lib_path = under(libdir)
        run_env = dict(os.environ)
        run_env['LD_LIBRARY_PATH'] = os.pathsep.join(filter(None, [lib_path, os.environ.get('LD_LIBRARY_PATH')]))
        cli = os.path.join(under(bindir), 'tandem-cli')
        body = ('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
                'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n')
        if os.path.exists(cli):
            run = subprocess.run([cli, 'events'], input=body, env=run_env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 universal_newlines=True, timeout=60)
            lines = run.stdout.splitlines()
            check(run.returncode == 0, 'installed tandem-cli events exits 0 %s' % run.stderr.strip())
            check(len(lines) == 2 and json.loads(lines[0]).get('type') == 'RUN_STARTED'
                  and json.loads(lines[1]).get('type') == 'RUN_FINISHED',
                  'installed tandem-cli events prints the two events: %r' % lines)

        # The installed typelib loads the installed library.
        typelib_dir = os.path.join(under(libdir), 'girepository-1.0')
        if os.path.exists(os.path.join(typelib_dir, 'Agui-1.0.typelib')):
            gi_env = dict(run_env)
            gi_env['GI_TYPELIB_PATH'] = typelib_dir
            script = ('import sys\n'
                      'try:\n'
                      '    import gi\n'
                      'except ImportError:\n'
                      '    sys.exit(77)\n'
                      'gi.require_version("Agui", "1.0")\n'
                      'from gi.repository import Agui\n'
                      'event = Agui.Event.new_from_string(\'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\', -1)\n'
                      'print(event.get_type_name())\n')
            run = subprocess.run([sys.executable, '-c', script], env=gi_env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, universal_newlines=True, timeout=60)
            if run.returncode != 77:
                check(run.returncode == 0 and run.stdout.strip() == 'RUN_STARTED',
                      'the installed typelib works from Python: %r' % run.stdout.strip())

        # A consumer of the installed library: compile through pkg-config,
        # link, run. A copy of agui-1.pc with its prefix moved into the
        # DESTDIR stands in for the installed one (a sysroot would move
        # GLib's paths too).
        cc = shutil.which(os.environ.get('CC', 'cc'))
        pkg_config = shutil.which('pkg-config')
        if cc and pkg_config and os.path.exists(pc):
            relocated = os.path.join(destdir, 'pkgconfig')
            os.mkdir(relocated)
            with open(pc, encoding='utf-8') as f:
                lines = f.read().splitlines()
            check(any(line.startswith('prefix=') for line in lines), 'agui-1.pc defines prefix')
            with open(os.path.join(relocated, 'agui-1.pc'), 'w', encoding='utf-8') as f:
                for line in lines:
                    f.write(('prefix=' + root if line.startswith('prefix=') else line) + '\n')
            pc_env = dict(os.environ)
            pc_env['PKG_CONFIG_PATH'] = os.pathsep.join(filter(None, [relocated, os.environ.get('PKG_CONFIG_PATH')]))
            flags = subprocess.run([pkg_config, '--cflags', '--libs', 'agui-1'], env=pc_env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            if check(flags.returncode == 0, 'pkg-config --cflags --libs agui-1 %s' % flags.stderr.strip()):
                program = os.path.join(destdir, 'consumer.c')
                with open(program, 'w', encoding='utf-8') as f:
                    f.write('#include <agui.h>\n'
                            'int main (void)\n'
                            '{\n'
                            '  g_autoptr(GError) error = NULL;\n'
                            '  g_autoptr(AguiEvent) event = agui_event_new_from_string ('
                            '"{\\"type\\":\\"RUN_STARTED\\",\\"threadId\\":\\"t\\",\\"runId\\":\\"r\\"}", -1, &error);\n'
                            '  g_autoptr(AguiTranscript) transcript = agui_transcript_new ();\n'
                            '  if (event == NULL || agui_event_get_event_type (event) != AGUI_EVENT_RUN_STARTED)\n'
                            '    return 1;\n'
                            '  if (g_list_model_get_n_items (G_LIST_MODEL (transcript)) != 0)\n'
                            '    return 1;\n'
                            '  g_print ("%s\\n", g_enum_to_string (AGUI_TYPE_RUN_STATUS, AGUI_RUN_IDLE));\n'
                            '  return 0;\n'
                            '}\n')
                binary = os.path.join(destdir, 'consumer')
                compile_run = subprocess.run([cc, '-Wall', '-Werror', program, '-o', binary]
                                             + shlex.split(flags.stdout),
                                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                             universal_newlines=True)
                if check(compile_run.returncode == 0,
                         'a program builds against the installed libagui with only <agui.h>'):
                    run = subprocess.run([binary], env=run_env, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, universal_newlines=True, timeout=60)
                    check(run.returncode == 0 and run.stdout.strip() == 'AGUI_RUN_IDLE',
                          'it runs against the installed libagui-1.so: %r' % run.stdout.strip())
                else:
                    print(compile_run.stdout)
    finally:
        shutil.rmtree(destdir, ignore_errors=True)

    if failures:
        print('%d check(s) failed' % len(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
