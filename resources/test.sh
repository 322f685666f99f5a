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
  run=(pg_virtualenv)
else
  echo "test.sh: pg_virtualenv not found; the PostgreSQL tests will be skipped" >&2
fi
# Twice as many tests as cores: most of the suite waits on real time (tools, outages, sleeps);
# the tests that load the machine take two slots (PROCESSORS in tests/CMakeLists.txt).
QT_QPA_PLATFORM=offscreen "${run[@]}" ctest --output-on-failure -j"$((jobs * 2))" --timeout 300
