#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sanitizer job of CI (.ci/run): the core and collector test suites built with clang under
# ASan+UBSan, then every libFuzzer harness of tests/fuzz/ for RADT_FUZZ_SECONDS (default 30) on its
# seed corpus. Fails on any test failure, sanitizer report or fuzzer finding. With --fuzz-only
# (CI, after resources/test.sh ran the tests in this same tree) only the fuzzers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RADT_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${RADT_FUZZ_SECONDS:-30}
jobs=${RADT_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)} # CI: 1, beside the sanitized tests (test.sh)

fuzz_only=0
[ "${1:-}" = --fuzz-only ] && fuzz_only=1 # CI: test.sh ran the tests in this tree already
# shellcheck source=resources/sanitizer-env.sh
source "$root/resources/sanitizer-env.sh" "$build"
# Beside the tests in the same tree (test.sh built it just before), never configured or built
# again while ctest reads it.
if [ "${RADT_FUZZ_BESIDE_TESTS:-}" != 1 ]; then
  sanitizer_configure
  cmake --build "$build" -j"$jobs"
fi
if [ $fuzz_only = 0 ]; then
  echo "sanitize: core and collector tests under ASan+UBSan ($build)"
  run=()
  if command -v pg_virtualenv >/dev/null; then
    run=(pg_virtualenv -t) # a throwaway PostgreSQL cluster in a temporary folder, as resources/test.sh does
  else
    echo "sanitize: pg_virtualenv not found; the PostgreSQL tests will be skipped" >&2
  fi
  (cd "$build" && "${run[@]}" ctest --output-on-failure -j"$jobs" --timeout 600)
fi

echo "sanitize: fuzzers, ${seconds} s each ($build)"
fuzz_dir="$build/tests/fuzz"
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One fuzzer per core at a time (RADT_FUZZ_JOBS): each is single-threaded, and -max_total_time bounds it.
fuzz_one() {
  local name=$1 dict=()
  # The fuzzer adds what it finds to its corpus: give it a copy, not the seeds.
  cp -r "$fuzz_dir/corpus/$name" "$work/$name"
  [ -f "$root/tests/fuzz/dict/$name.dict" ] && dict=(-dict="$root/tests/fuzz/dict/$name.dict")
  # -timeout: an input taking 10 s is a hang, and a finding.
  if "$fuzz_dir/$name" "$work/$name" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$name-" >"$work/$name.log" 2>&1; then
    echo "sanitize: $name: $(grep -a 'stat::number_of_executed_units' "$work/$name.log" | awk '{print $2}') executions, no finding"
  else
    tail -n 60 "$work/$name.log" >&2
    echo "sanitize: $name: FINDING (inputs in $artifacts)" >&2
    touch "$work/$name.failed"
  fi
}
export -f fuzz_one
export fuzz_dir work root seconds artifacts
grep -v '^$' "$fuzz_dir/fuzzers.txt" | xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {}
failed=$(find "$work" -maxdepth 1 -name '*.failed' -printf '%f ' | sed 's/\.failed//g')
if [ -n "$failed" ]; then
  echo "sanitize: fuzzers with findings: $failed" >&2
  exit 1
fi
echo "sanitize: all tests and fuzzers passed under ASan+UBSan"
