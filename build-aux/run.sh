#!/usr/bin/env bash
# Sets up everything, builds, and runs Tandem's main job.
set -euo pipefail

cd "$(dirname "$0")/.."

build-aux/install-deps.sh

if [ ! -d _build ]; then
  meson setup _build
fi
meson compile -C _build

# Until the window lands, Tandem's main job is the command-line client:
# decode, check and print a sample agent stream.
exec _build/src/cli/tandem-cli events tests/data/sample-run.sse
