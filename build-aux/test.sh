#!/usr/bin/env bash
# Sets up everything and runs the whole test suite twice: a normal build
# (warnings are errors) and a build under AddressSanitizer and
# UndefinedBehaviorSanitizer. Exits non-zero on the first failure.
#
# WIDGET_TEST_REPEAT=N runs the widget suite (suite "app") N times in each
# build, the first time with the rest of the tests; default 1.
set -euo pipefail

widget_repeat=${WIDGET_TEST_REPEAT:-1}
if ! [[ $widget_repeat =~ ^[1-9][0-9]*$ ]]; then
  echo "WIDGET_TEST_REPEAT must be a whole number of 1 or more, not '$widget_repeat'" >&2
  exit 2
fi

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
  if [ "$widget_repeat" -gt 1 ]; then
    echo "== The widget suite $((widget_repeat - 1)) more time(s) in $dir =="
    meson test -C "$dir" --print-errorlogs --num-processes 2 --suite app --repeat $((widget_repeat - 1))
  fi
}

echo "== Build and test, with the API reference =="
# gi-docgen's warnings fail the build: a broken link or an undocumented
# public symbol is caught here.
run_suite _build -Ddocs=true

echo "== Build and test under ASan + UBSan =="
# The sanitizer options (leaks are failures too) are set by tests/meson.build.
run_suite _asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

# Both builds above replayed the committed fuzz corpora (suite
# fuzz-corpus). With clang, each libFuzzer harness also explores for a
# bounded time from its corpus; new inputs go to a scratch copy, so the
# checkout is never changed by CI.
if command -v clang >/dev/null 2>&1; then
  echo "== Fuzz each harness for ${FUZZ_SECONDS:=20} s =="
  if [ ! -d _fuzz ]; then
    CC=clang meson setup _fuzz -Dfuzzing=true -Dintrospection=disabled \
      -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
  fi
  harnesses="json sse-decoder pipeline json-patch import markdown store openai-chunks"
  meson compile -C _fuzz $(for h in $harnesses; do echo "tests/fuzz/fuzz-$h"; done)
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  for h in $harnesses; do
    mkdir -p "$scratch/$h"
    cp tests/fuzz/corpus/"$h"/* "$scratch/$h/"
    # A store file is pages of at least 512 bytes: a real one is longer
    # than the other harnesses' inputs.
    max_len=4096
    [ "$h" = store ] && max_len=32768
    ASAN_OPTIONS=detect_leaks=0 _fuzz/tests/fuzz/fuzz-"$h" "$scratch/$h" \
      -max_total_time="$FUZZ_SECONDS" -max_len="$max_len" -timeout=60 -rss_limit_mb=4096 \
      -artifact_prefix="$scratch/$h-" -print_final_stats=1 2>&1 | grep -E '^(Done|stat::number_of_executed_units|==[0-9]+==|SUMMARY)' || true
    # A slow unit on a loaded machine is no finding; a crash, a
    # timeout or running out of memory is.
    found=$(find "$scratch" -maxdepth 1 \( -name "$h-crash-*" -o -name "$h-timeout-*" -o -name "$h-oom-*" \))
    if [ -n "$found" ]; then
      echo "fuzz-$h found a failing input:" $found
      exit 1
    fi
  done
fi

echo "All tests passed in both builds."
