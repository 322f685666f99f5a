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
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$jobs" --timeout 300
