#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tandem developers
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a data file (desktop file, metainfo, GSettings schema) for
another app id, such as the development profile's: the app id and the
settings path made from it change, everything else stays as it is.

Usage: profile-file.py INPUT OUTPUT BASE_ID APP_ID
"""

import sys


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2

    source, output, base_id, app_id = argv[1:]
    with open(source, encoding='utf-8') as f:
        text = f.read()

    def path(name):
        return '/' + name.replace('.', '/') + '/'

    if base_id not in text:
        print(f'{source} does not name {base_id}', file=sys.stderr)
        return 1
    text = text.replace(path(base_id), path(app_id)).replace(base_id, app_id)

    with open(output, 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
