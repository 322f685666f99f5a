#!/usr/bin/env bash
# README command 2: install what is needed, build (Release, GUI and tests), run the whole suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RADT_BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)

bash "$root/resources/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_GUI=ON -DBUILD_TESTING=ON
cmake --build "$build" -j"$jobs"
cd "$build"
# The PostgreSQL store tests need a server: pg_virtualenv (postgresql-common) starts a throwaway
# cluster on loopback, sets PGHOST/PGUSER/PGPASSWORD for the tests and removes it afterwards.
run=()
if command -v pg_virtualenv >/dev/null; then
  # -t: the cluster in a temporary folder, so a run interrupted earlier (its cluster left behind)
  # or another one at the same time never stops this one ("Cluster 15/regress exists").
  run=(pg_virtualenv -t)
else
  echo "test.sh: pg_virtualenv not found; the PostgreSQL tests will be skipped" >&2
fi
# The suite runs in a home of its own, empty at the start, and fails if a test left anything
# there: each test keeps its data (stores, artifact roots) in folders of its own (tests/TempDir.cpp),
# never in the user's home. Caches (fontconfig's, TeX's fonts) go beside it, not in it.
suite_home="$build/test-home"
rm -rf "$suite_home"
mkdir -p "$suite_home"
# Twice as many tests as cores: most of the suite waits on real time (tools, outages, sleeps);
# the tests that load the machine take two slots (PROCESSORS in tests/CMakeLists.txt).
HOME="$suite_home" XDG_CACHE_HOME="$build/test-cache" TEXMFVAR="$build/test-cache/texmf-var" QT_QPA_PLATFORM=offscreen \
  "${run[@]}" ctest --output-on-failure -j"$((jobs * 2))" --timeout 300
left=$(find "$suite_home" -mindepth 1 | head -20)
if [ -n "$left" ]; then
  echo "test.sh: the test suite left files in its home $suite_home (a test wrote outside its own folders):" >&2
  echo "$left" >&2
  exit 1
fi
