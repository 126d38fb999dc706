#!/usr/bin/env bash
# Sets up everything and runs the whole test suite twice: a normal build
# (warnings are errors) and a build under AddressSanitizer and
# UndefinedBehaviorSanitizer. Exits non-zero on the first failure.
set -euo pipefail

cd "$(dirname "$0")/.."

build-aux/install-deps.sh

run_suite () {
  local dir=$1; shift
  if [ ! -d "$dir" ]; then
    meson setup "$dir" -Dwerror=true "$@"
  else
    meson configure "$dir" -Dwerror=true "$@" >/dev/null
  fi
  meson compile -C "$dir"
  meson test -C "$dir" --print-errorlogs --num-processes 2
}

echo "== Build and test =="
run_suite _build

echo "== Build and test under ASan + UBSan =="
# The sanitizer options (leaks are failures too) are set by tests/meson.build.
run_suite _asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

echo "All tests passed in both builds."
