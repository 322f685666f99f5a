#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README command 2: install what is needed, build (Release, GUI and tests), run the whole suite.
#
#     bash resources/test.sh          # the whole suite (ctest), in one Release tree ($RADT_BUILD_DIR)
#     bash resources/test.sh --fast   # the fast tier: every test but the slow ones (tests/slow-tests.txt)
#
# Under CI=true (as .ci/run runs it), or with RADT_TEST_SPLIT=1, the same whole suite runs split
# over two trees, so that no test runs twice and every test that can runs under a sanitizer: the
# tests that need no GUI in the clang ASan+UBSan tree of resources/sanitize.sh
# ($RADT_FUZZ_BUILD_DIR), then the GUI tests, and any test that skipped there because of the
# sanitizer or the missing GUI, in the Release tree. The Release tree builds only what those need.
#
# Every run ends with the skips counted by reason (resources/test-report.py); under CI=true a skip
# of a test the CI machine should run (PostgreSQL, X11 under openbox, pdflatex and pdftotext)
# fails the run, naming the test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RADT_BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)
tier=all
case ${1:-} in
"") ;;
--fast) tier=fast ;;
*) echo "usage: bash resources/test.sh [--fast]" >&2; exit 2 ;;
esac
split=${RADT_TEST_SPLIT:-0}
# A unity build (CMake joins 8 sources of a library into one translation unit): the programs' cold
# build at -O1 took 155 s instead of 305 s on 2 cores (each header parsed once per 8 sources). Each
# test stays a source of its own. RADT_UNITY_BUILD=OFF for a tree where one source is edited often.
unity=-DCMAKE_UNITY_BUILD=${RADT_UNITY_BUILD:-ON}
if [ "${CI:-}" = true ] && [ -z "${RADT_TEST_SPLIT:-}" ] && [ $tier = all ]; then split=1; fi

# A line per stage with its time, so the next slowdown is seen where it starts.
stage_start=$SECONDS
stage_done() { echo "test.sh: $1 took $((SECONDS - stage_start)) s"; stage_start=$SECONDS; }

bash "$root/resources/install-deps.sh"
stage_done "install-deps"
# New trees build with Ninja (install-deps installs it): it starts a target's compiles before the
# libraries it links are built and keeps both cores busy where make's per-directory steps left one
# idle. An existing tree keeps the generator it was made with.
if command -v ninja >/dev/null; then export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}; fi

# The PostgreSQL store tests need a server: pg_virtualenv (postgresql-common) starts a throwaway
# cluster on loopback, sets PGHOST/PGUSER/PGPASSWORD for the tests and removes it afterwards.
pg=()
if command -v pg_virtualenv >/dev/null; then
  # -t: the cluster in a temporary folder, so a run interrupted earlier (its cluster left behind)
  # or another one at the same time never stops this one ("Cluster 15/regress exists").
  pg=(pg_virtualenv -t)
else
  echo "test.sh: pg_virtualenv not found; the PostgreSQL tests will be skipped" >&2
fi
logs=()
# run_ctest TREE CTEST-ARGS...: the suite runs in a home of its own, empty at the start, and fails
# if a test left anything there: each test keeps its data (stores, artifact roots) in folders of its
# own (tests/TempDir.cpp), never in the user's home. Caches (fontconfig's, TeX's fonts) go beside
# it. Twice as many tests as cores: most of the suite waits on real time (tools, outages); the
# tests that load the machine take two slots (PROCESSORS in tests/CMakeLists.txt).
run_ctest() {
  local tree=$1 status=0
  shift
  local suite_home="$tree/test-home"
  rm -rf "$suite_home" "$tree/Testing/Temporary/LastTest.log"
  mkdir -p "$suite_home" "$tree/Testing/Temporary"
  # A fresh tree starts from the recorded test times (ctest's own cost file, kept in the repository)
  # so that ctest starts the longest tests first instead of leaving them to the end, one by one.
  # ctest updates the file after each run.
  [ -f "$tree/Testing/Temporary/CTestCostData.txt" ] ||
    cp "$root/tests/ctest-costs.txt" "$tree/Testing/Temporary/CTestCostData.txt"
  # PATH: Debian's python3 first (the one install-deps gives python3-scipy). A pyenv or other shim
  # ahead of it on PATH costs up to a second per start, and the suite starts python3 hundreds of
  # times (workloads, the fake GPU tools, another client's SQL).
  (cd "$tree" && PATH="/usr/bin:$PATH" HOME="$suite_home" XDG_CACHE_HOME="$tree/test-cache" \
    TEXMFVAR="$tree/test-cache/texmf-var" QT_QPA_PLATFORM=offscreen "${pg[@]}" ctest --output-on-failure "$@") ||
    status=$?
  logs+=("$tree/Testing/Temporary/LastTest.log")
  local left
  left=$(find "$suite_home" -mindepth 1 | head -20)
  if [ -n "$left" ]; then
    echo "test.sh: the test suite left files in its home $suite_home (a test wrote outside its own folders):" >&2
    echo "$left" >&2
    status=1
  fi
  return $status
}
report_args=()
[ "${CI:-}" = true ] && report_args+=(--ci)

if [ "$split" != 1 ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_GUI=ON -DBUILD_TESTING=ON "$unity" >/dev/null
  cmake --build "$build" -j"$jobs"
  stage_done "build ($build)"
  status=0
  if [ $tier = fast ]; then
    # tests/slow-tests.txt names the slow tier (a name, or a name and its parameter's comment).
    slow=$(python3 "$root/resources/test-report.py" --slow-regex "$root/tests/slow-tests.txt")
    run_ctest "$build" -j"$((jobs * 2))" --timeout 300 -E "$slow" || status=$?
  else
    run_ctest "$build" -j"$((jobs * 2))" --timeout 300 || status=$?
  fi
  stage_done "ctest ($tier)"
  python3 "$root/resources/test-report.py" "${report_args[@]}" "${logs[@]}" || status=1
  exit $status
fi

# --- Split: the tests without GUI under ASan+UBSan, then what needs the GUI in Release ---
sanitized=${RADT_FUZZ_BUILD_DIR:-$root/build-fuzz}
# shellcheck source=resources/sanitizer-env.sh
source "$root/resources/sanitizer-env.sh" "$sanitized"
sanitizer_configure
cmake --build "$sanitized" -j"$jobs"
stage_done "sanitized build ($sanitized)"
status=0
# CI's fuzzers (RADT_FUZZ_BESIDE_TESTS=1, set by .ci/run) run beside the sanitized tests, one at a
# time at the lowest priority, on the CPU the tests leave (many wait on real time), instead of
# 165 s of their own after everything. Each runs its 30 s; at nice 19 it yields whenever a test
# wants the core (a build beside the tests, which wants memory and disk too, slowed them by a
# third; a lone fuzzer wants neither).
fuzz_pid=
if [ "${RADT_FUZZ_BESIDE_TESTS:-}" = 1 ]; then
  RADT_FUZZ_JOBS=1 nice -n 19 bash "$root/resources/sanitize.sh" --fuzz-only >"$sanitized/fuzzers.log" 2>&1 &
  fuzz_pid=$!
fi
# Two more than the cores: at one more, the long tests that wait (an outage, a disk that fills)
# held the slots while a core idled or ran the niced fuzzers (72 % of the CPU went to the tests:
# 461 s); at two more, 355 s, all passing. Not twice the cores as in Release: ASan's shadow memory
# and slower code starved the tests that wait on real time (two radt creating one store) there.
run_ctest "$sanitized" -j"$((jobs + 2))" --timeout 600 || status=$?
stage_done "ctest under ASan+UBSan (tests without GUI)"
if [ -n "$fuzz_pid" ]; then
  fuzz_status=0
  wait "$fuzz_pid" || fuzz_status=$?
  cat "$sanitized/fuzzers.log"
  [ $fuzz_status = 0 ] || { echo "test.sh: a fuzzer found something (above)" >&2; status=1; }
  stage_done "fuzzers beside the sanitized tests (the wait after them)"
fi
# The Release tree, after the sanitized tests, not beside them: built at the lowest priority
# beside them it slowed them from 330 to 434 s (memory and disk are shared, not only the cores)
# and still had 542 s of its build left. At -O1 (the Release tree of the split only): it runs the
# GUI tests and makes the .deb packages the round trip installs, neither of which measures speed,
# and -O1 compiles in two thirds of -O3's time (ChartPanel.cpp 3.0 s against 4.7). README command
# 1, the whole suite without CI=true and the benchmarks build at -O3. The GUI tests: those made in
# tests/CMakeLists.txt's BUILD_GUI block.
# With clang, as the sanitized tree: it built these programs and tests in 388 s cold on 2 cores
# where GCC took 516 (nlohmann-json's templates most: ConfigurationInsight.cpp 5.4 s against 9.0);
# 184 s with Ninja and the tests' own code at -O0 (tests/CMakeLists.txt).
CC=$sanitizer_cc CXX=$sanitizer_cxx cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DBUILD_GUI=ON -DBUILD_TESTING=ON "$unity" >/dev/null
mapfile -t gui_tests < <(sed -n 's/^ *radt_add_test(\([a-z0-9_]*\).*/\1/p' \
  <(sed -n '/# GUI_TESTS_BEGIN/,/# GUI_TESTS_END/p' "$root/tests/CMakeLists.txt"))
# Tests that skipped there for what the sanitized tree lacks (a GUI, meaningful resident sizes)
# run in the Release tree, so the split leaves nothing unrun.
mapfile -t rerun < <(python3 "$root/resources/test-report.py" --rerun-in-release "${logs[0]}")
targets=(radt radt-explorer "${gui_tests[@]}")
while read -r target; do
  [ -n "$target" ] && targets+=("$target")
done < <(printf '%s\n' "${rerun[@]}" | cut -d. -f1 | sort -u)
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
stage_done "Release build (-O1) of the programs and the GUI tests ($build)"
regex="^($(IFS='|'; echo "${gui_tests[*]}"))\\."
if [ ${#rerun[@]} -gt 0 ]; then
  echo "test.sh: run in Release too, as they skipped under the sanitizer: ${rerun[*]}"
  regex+=$(printf '|^%s$' "${rerun[@]}" | sed 's/\./\\./g')
fi
run_ctest "$build" -j"$((jobs * 2))" --timeout 300 -R "$regex" || status=$?
stage_done "ctest in Release (GUI tests)"
python3 "$root/resources/test-report.py" "${report_args[@]}" "${logs[@]}" || status=1
exit $status
