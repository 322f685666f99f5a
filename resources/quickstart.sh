#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README command 1: install, build Release, record the bundled CPU demo workload with `radt` into
# the embedded default store, then open radt-explorer on that store.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RADT_BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)

bash "$root/resources/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_GUI=ON -DBUILD_TESTING=OFF
cmake --build "$build" -j"$jobs" --target radt radt-explorer

echo "quickstart: recording the demo workload (about 30 s) into the default store"
"$build/app/radt" -e "demo" -l top+ps+iostat+net+proc "$root/resources/examples/demo_train.py" --epochs 60 --batch-size 32
"$build/app/radt" ls | tail -n 12

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/app/radt-explorer"
fi
# No display (a server or a container): render the window offscreen to a PNG instead.
shot="$build/radt-explorer-screenshot.png"
QT_QPA_PLATFORM=offscreen "$build/app/radt-explorer" --screenshot "$shot"
echo "quickstart: no display found; the explorer window was rendered to $shot"
echo "quickstart: with a display, run $build/app/radt-explorer"
