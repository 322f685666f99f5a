#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages end to end (as root, in CI): build them from the build tree, install them
# with apt, use the installed programs (record a run with radt, `python3 -m radt`, a screenshot from
# radt-explorer, the desktop entry and man pages in place), then purge both and check that nothing
# is left behind. Needs a finished build in $RADT_BUILD_DIR (default build/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RADT_BUILD_DIR:-$root/build}
[ "$(id -u)" -eq 0 ] || { echo "deb-roundtrip: needs root (apt-get install)" >&2; exit 1; }
version=$(sed -n 's/^project(radt-explorer VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
work=$(mktemp -d)
# Whatever happens, the machine is left without the packages.
trap 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq radt-explorer radt >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# What the packages install, and only that: CI's Release tree builds the GUI tests but not the rest
# of the suite (resources/test.sh), and cpack would otherwise build `all` first.
cmake -S "$root" -B "$build" -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
man_pages=()
command -v help2man >/dev/null && man_pages=(radt-man radt-explorer-man)
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target radt radt-explorer "${man_pages[@]}" >/dev/null
cd "$build"
rm -f radt_*.deb radt-explorer_*.deb
cpack -G DEB >/dev/null
cp radt_"$version"_*.deb radt-explorer_"$version"_*.deb "$work/"
if dpkg-deb -I "$work"/radt_*.deb | grep -qi 'qt5'; then
  echo "deb-roundtrip: the radt package must not depend on Qt" >&2; exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$work"/radt_*.deb "$work"/radt-explorer_*.deb >/dev/null

fail() { echo "deb-roundtrip: $*" >&2; exit 1; }
[ "$(/usr/bin/radt --version)" = "radt $version" ] || fail "radt --version: $(/usr/bin/radt --version)"
[ "$(/usr/bin/radt-explorer --version)" = "radt-explorer $version" ] || fail "radt-explorer --version"
cat >"$work/train.py" <<'PY'
import radt
with radt.run.RADTBenchmark() as run:
    for epoch in range(1, 4):
        run.log_metric("loss", 1.0 / epoch, epoch)
PY
cd "$work"
/usr/bin/radt --store "$work/s.db" --no-env-capture -e deb train.py >/dev/null 2>"$work/radt.err" ||
  fail "the installed radt failed: $(cat "$work/radt.err")"
# radT's documented form, with the installed module on the path.
PYTHONPATH=/usr/share/radt/python python3 -m radt --store "$work/s.db" --no-env-capture -e deb train.py \
  >/dev/null 2>>"$work/radt.err" || fail "python3 -m radt failed: $(cat "$work/radt.err")"
# `pip install` of the module from the repository, offline (a standard-library build backend).
/usr/bin/python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --no-index "$root/resources/python" || fail "pip install resources/python failed"
"$work/venv/bin/python" -m radt --store "$work/s.db" --no-env-capture -e deb train.py >/dev/null 2>>"$work/radt.err" ||
  fail "python -m radt from the pip-installed module failed: $(cat "$work/radt.err")"
/usr/bin/radt ls --store "$work/s.db" --json | python3 -c '
import json, sys
runs = [r for e in json.load(sys.stdin)["experiments"] for w in e["workloads"] for r in w["runs"]]
assert len(runs) == 3 and all(r["status"] == "FINISHED" for r in runs), runs
assert all(abs(r["latest_metrics"]["loss"] - 1.0 / 3) < 1e-12 for r in runs), runs
' || fail "the recorded runs are not as expected"
# libpq is loaded only for a postgresql:// store, from the installed module (core/StoreFactory.cpp):
# radt itself does not link it, and the module is reached (the refused connection is libpq's answer).
! ldd /usr/bin/radt | grep -q libpq || fail "the installed radt links libpq"
/usr/bin/radt ls --store postgresql://nobody@127.0.0.1:1/none 2>"$work/pg.err" && fail "a refused connection passed"
grep -q "cannot connect to postgresql://nobody@127.0.0.1:1/none" "$work/pg.err" ||
  fail "the installed radt did not reach its PostgreSQL module: $(cat "$work/pg.err")"
QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/cfg" \
  /usr/bin/radt-explorer --store "$work/s.db" --screenshot "$work/shot.png" 2>/dev/null ||
  fail "the installed radt-explorer could not render"
[ -s "$work/shot.png" ] || fail "no screenshot"
for f in /usr/share/applications/radt-explorer.desktop /usr/share/mime/packages/radt-explorer.xml \
         /usr/share/icons/hicolor/scalable/apps/radt-explorer.svg /usr/share/icons/hicolor/48x48/apps/radt-explorer.png \
         /usr/share/man/man1/radt.1.gz /usr/share/man/man1/radt-explorer.1.gz /usr/share/radt/python/radt/__init__.py \
         /usr/share/doc/radt/copyright /usr/share/doc/radt-explorer/copyright /usr/lib/radt/radt-postgres.so; do
  [ -e "$f" ] || fail "$f is not installed"
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate /usr/share/applications/radt-explorer.desktop
fi

cd /
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq radt-explorer radt >/dev/null
for f in /usr/bin/radt /usr/bin/radt-explorer /usr/lib/radt /usr/share/radt /usr/share/applications/radt-explorer.desktop \
         /usr/share/mime/packages/radt-explorer.xml /usr/share/man/man1/radt.1.gz /usr/share/doc/radt; do
  [ ! -e "$f" ] || fail "$f is left after purging"
done
if dpkg-query -W -f='${Status}\n' radt radt-explorer 2>/dev/null | grep -q installed; then
  fail "a package is still installed"
fi
echo "deb-roundtrip: radt $version and radt-explorer $version installed, used and purged cleanly"
