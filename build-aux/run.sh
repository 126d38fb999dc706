#!/usr/bin/env bash
# Sets up everything, builds, and launches Tandem from the build tree.
# With no agent configured it talks to the built-in demo agent.
set -euo pipefail

cd "$(dirname "$0")/.."

build-aux/install-deps.sh

if [ ! -d _build ]; then
  meson setup _build
fi
meson compile -C _build

# Run uninstalled: the settings schema comes from the build tree.
exec env GSETTINGS_SCHEMA_DIR="$PWD/_build/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}" \
  TANDEM_LOCALEDIR="$PWD/_build/po" \
  _build/src/tandem "$@"
