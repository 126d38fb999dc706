#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every function of libagui that is neither static nor public starts
with an underscore (STYLE.md, "Files and names"), so that a reader sees
at the call which functions are API and which are not.

A function counts as public when a public header (a header of src/agui
whose name does not end in -private.h) declares it. The names in the
baseline file are let through: they predate this check, and are renamed
once no branch is left that would conflict. A name in the baseline that
is now fine is reported too (without failing, so that a branch that
renames or removes one does not break the others), so that the baseline
is seen to shrink.

Usage: check-private-names.py SRCDIR BASELINE [--list]
  --list prints the names that lack the underscore, one a line (a new
  baseline), and exits 0.
"""

import pathlib
import re
import sys

# A definition in GNU style: the return type on its own line, then the
# name at the start of the next line and its parameters.
DEFINITION = re.compile(r'^(?P<type>[A-Za-z_][^;{}()=#/]*?)\s*\n(?P<name>[A-Za-z_]\w*)\s*\(', re.M)
DECLARED = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
# A type's get_type(), written by a G_DEFINE_* macro
TYPE_DEFINITION = re.compile(r'^G_DEFINE_(?:FINAL_|ABSTRACT_|BOXED_)?(?:TYPE|INTERFACE)\w*\s*\(\s*\w+\s*,\s*(\w+)', re.M)


def public_names(srcdir):
    names = set()
    for header in srcdir.rglob('*.h'):
        if header.name.endswith('-private.h'):
            continue
        names.update(DECLARED.findall(header.read_text(encoding='utf-8')))
    return names


def unprefixed_private(srcdir):
    public = public_names(srcdir)
    found = {}
    for source in sorted(srcdir.rglob('*.c')):
        text = source.read_text(encoding='utf-8')
        for match in DEFINITION.finditer(text):
            return_type = match.group('type').split('\n')[-1].strip()
            name = match.group('name')
            if re.search(r'\bstatic\b', return_type) or return_type.startswith(('G_', 'return', 'else')):
                continue
            if name.startswith('_') or name in public:
                continue
            found.setdefault(name, source.name)
        for type_name in TYPE_DEFINITION.findall(text):
            name = type_name + '_get_type'
            if not name.startswith('_') and name not in public:
                found.setdefault(name, source.name)
    return found


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2

    srcdir = pathlib.Path(argv[1])
    baseline_path = pathlib.Path(argv[2])
    found = unprefixed_private(srcdir)

    if '--list' in argv[3:]:
        for name in sorted(found):
            print(name)
        return 0

    baseline = set()
    for line in baseline_path.read_text(encoding='utf-8').splitlines():
        line = line.strip()
        if line and not line.startswith('#'):
            baseline.add(line)

    new = sorted(set(found) - baseline)
    gone = sorted(baseline - set(found))
    for name in new:
        print(f'{found[name]}: {name}() is private (neither static nor in a public header) '
              f'but lacks the leading underscore: call it _{name}()')
    for name in gone:
        print(f'note: {baseline_path.name}: {name} is fine now (renamed, static, public or gone): '
              f'remove it from the baseline')
    if new:
        return 1

    print(f'{len(found)} private function(s) without the underscore, all in the baseline')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
