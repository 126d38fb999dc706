#!/usr/bin/env node
// bench-node-parse.js
//
// SPDX-FileCopyrightText: 2026 The Tandem developers
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The baseline `tandem-cli fold` is measured against (bench-fold-node.py):
// V8 reading an SSE body, splitting it into frames and running JSON.parse
// on each frame's data, and nothing else: no checks, no events, no fold,
// no output. Usage: node bench-node-parse.js FILE
//
// It prints the number of frames parsed, so that the harness can see both
// programs read the same stream.

"use strict";

const fs = require("fs");

function main() {
  const path = process.argv[2];
  if (path === undefined) {
    process.stderr.write("Usage: node bench-node-parse.js FILE\n");
    process.exit(2);
  }

  const text = fs.readFileSync(path, "utf8");
  let frames = 0;
  let start = 0;
  let keep = 0;

  while (start < text.length) {
    let end = text.indexOf("\n\n", start);
    if (end < 0)
      end = text.length;

    // A frame's data lines, joined by newlines as the SSE spec says; a
    // frame of one line (all the workloads) costs no join.
    let data = null;
    let line = start;
    while (line < end) {
      let next = text.indexOf("\n", line);
      if (next < 0 || next > end)
        next = end;
      if (text.startsWith("data:", line)) {
        const value = text.slice(line + (text.charCodeAt(line + 5) === 32 ? 6 : 5), next);
        data = data === null ? value : data + "\n" + value;
      }
      line = next + 1;
    }

    if (data !== null) {
      const event = JSON.parse(data);
      keep ^= typeof event === "object" ? 1 : 0;  // the parse is used, so not skipped
      frames++;
    }
    start = end + 2;
  }

  process.stdout.write(`${frames} frames ${keep}\n`);
}

main();
