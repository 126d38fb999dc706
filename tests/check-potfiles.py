#!/usr/bin/env python3
"""Fails when a file with translatable strings is missing from po/POTFILES.in,
or when POTFILES.in names a file that does not exist."""

import os
import re
import sys

root = sys.argv[1]
potfiles_path = os.path.join(root, "po", "POTFILES.in")

listed = set()
with open(potfiles_path, encoding="utf-8") as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            listed.add(line)

code = re.compile(r"\b(?:_|N_|C_|NC_|g_dgettext|g_dngettext|ngettext)\s*\(\s*\"")
ui = re.compile(r'translatable="yes"')
problems = []

for directory, _, files in os.walk(os.path.join(root, "src")):
    for name in files:
        path = os.path.join(directory, name)
        relative = os.path.relpath(path, root)
        if name.endswith(".c"):
            with open(path, encoding="utf-8") as f:
                if code.search(f.read()) and relative not in listed:
                    problems.append(f"{relative} has translatable strings but is not in po/POTFILES.in")
        elif name.endswith(".ui"):
            with open(path, encoding="utf-8") as f:
                if ui.search(f.read()) and relative not in listed:
                    problems.append(f"{relative} has translatable strings but is not in po/POTFILES.in")

for name in os.listdir(os.path.join(root, "data")):
    if name.endswith((".desktop.in", ".metainfo.xml.in", ".gschema.xml")):
        relative = os.path.join("data", name)
        if relative not in listed:
            problems.append(f"{relative} is translatable but is not in po/POTFILES.in")

for relative in sorted(listed):
    if not os.path.exists(os.path.join(root, relative)):
        problems.append(f"po/POTFILES.in names {relative}, which does not exist")

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
