#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clang-tidy with the checked-in .clang-tidy over the production code (core/, collector/, widgets/,
# app/; not tests/, bench/ or generated files), the project's headers they include with them.
# Prints each finding and exits 1 if there is one. It configures a tree of its own,
# $RADT_TIDY_BUILD_DIR (default build-tidy/), without a unity build, so that the compilation
# database names each source (a configure is enough: no source includes moc output; ~10 s).
#
#     bash resources/tidy.sh            # what changed: the .cpp files changed since the base, and
#                                       # those that include a changed header (CI)
#     bash resources/tidy.sh --all      # every production .cpp: ~19 min of CPU (~10 on 2 cores)
#     bash resources/tidy.sh FILE.cpp...
#
# The base: $RADT_TIDY_BASE; else the commit in resources/tidy-clean-at, the last one a whole-tree
# run (--all) found clean, when HEAD descends from it: CI then checks everything changed since,
# every commit of a session, not only its last; else where HEAD left origin/main (its merge-base),
# or, on main itself, HEAD's first parent. When none can be found (a shallow clone, no history),
# every file is checked. After a clean --all run, write HEAD's id into resources/tidy-clean-at.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# clang-tidy beside what the build needs (the configure below): nothing to do when all is there.
bash "$root/resources/install-deps.sh" clang-tidy
jobs=${RADT_TIDY_JOBS:-$(nproc 2>/dev/null || echo 2)}
build=${RADT_TIDY_BUILD_DIR:-$root/build-tidy}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DBUILD_GUI=ON -DBUILD_TESTING=OFF >/dev/null
fi
# An existing tree keeps its other options; a unity build's database would name its joined files.
cmake -S "$root" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_UNITY_BUILD=OFF >/dev/null

# The tracked production sources the build compiles (a BUILD_GUI=OFF tree has no widgets/).
mapfile -t production < <(git ls-files 'core/*.cpp' 'collector/*.cpp' 'widgets/*.cpp' 'app/*.cpp' |
  grep -Fxf <(sed -n 's|^  "file": "'"$root"'/\(.*\)",\{0,1\}$|\1|p' "$build/compile_commands.json"))
mode=changed base=
if [ $# -gt 0 ]; then
  if [ "$1" = --all ]; then mode=all; else mode=given; fi
fi
if [ $mode = changed ]; then
  base=${RADT_TIDY_BASE:-}
  if [ -z "$base" ] && [ -f "$root/resources/tidy-clean-at" ]; then
    clean=$(tr -d '[:space:]' <"$root/resources/tidy-clean-at")
    if git merge-base --is-ancestor "$clean" HEAD 2>/dev/null; then base=$clean; fi
  fi
  if [ -z "$base" ]; then
    base=$(git merge-base HEAD origin/main 2>/dev/null || true)
    if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
      base=$(git rev-parse -q --verify 'HEAD^1' 2>/dev/null || true)
    fi
  fi
  if [ -z "$base" ]; then
    echo "tidy: no base to compare with (no history here): every file"
    mode=all
  fi
fi
case $mode in
given) files=("$@") ;;
all) files=("${production[@]}") ;;
changed)
  # The production .cpp files changed since the base, and those that include a changed header
  # (the header is checked through them). A deleted file is not checked.
  # A file whose only change is its licence line (SPDX) cannot have a new finding: not checked.
  mapfile -t changed < <(git diff --diff-filter=d -I'^// SPDX-License-Identifier: MIT$' "$base" -- \
    core collector widgets app | sed -n 's|^diff --git a/\(.*\) b/.*|\1|p')
  mapfile -t files < <(
    {
      printf '%s\n' "${changed[@]}" | grep '\.cpp$' || true
      printf '%s\n' "${changed[@]}" | grep '\.h$' | while read -r header; do
        grep -lF "#include \"$header\"" "${production[@]}" || true
      done
    } | grep -Fxf <(printf '%s\n' "${production[@]}") | sort -u
  )
  if [ ${#files[@]} -eq 0 ]; then
    echo "tidy: no production source changed since $(git rev-parse --short "$base")"
    exit 0
  fi
  ;;
esac
[ ${#files[@]} -gt 0 ] || { echo "tidy: no files to check in $build/compile_commands.json" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The compilation database without the precompiled header (resources/PrecompiledHeaders.cmake):
# clang cannot read GCC's .gch, and each file must stand on its own includes anyway.
mkdir -p "$out/db"
python3 - "$build/compile_commands.json" "$out/db/compile_commands.json" <<'PY'
import json, re, sys
entries = json.load(open(sys.argv[1]))
for entry in entries:
    command = re.sub(r" -Winvalid-pch", "", entry["command"])
    command = re.sub(r" -Xclang -include-pch -Xclang \S+", "", command)
    entry["command"] = re.sub(r" -include \S+cmake_pch\.hxx", "", command)
json.dump(entries, open(sys.argv[2], "w"))
PY
echo "tidy: $(clang-tidy --version | grep -o 'LLVM version [0-9.]*'), ${#files[@]} files${base:+ changed since $(git rev-parse --short "$base")}, $jobs at a time"
start=$SECONDS
# One clang-tidy per file, each writing its own log (named after the path, so they list in its
# order): the findings of a file stay together. A run that fails (a compile error) is a finding.
# shellcheck disable=SC2016 # the inner shell expands them
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} sh -c \
  'log="$3/$(printf %s "$2" | tr / %).log"; clang-tidy -p "$1" --quiet "$2" >"$log" 2>&1 || echo "clang-tidy exit $?" >>"$log"' \
  tidy "$out/db" {} "$out"
failed=0
for log in "$out"/*.log; do
  # What is left once clang's summary lines ("12 warnings generated.") are gone is a finding.
  if grep -v -E '^[0-9]+ (warning|error)s? (and [0-9]+ (warning|error)s? )?generated\.$' "$log" | grep -q .; then
    grep -v -E '^[0-9]+ (warning|error)s? (and [0-9]+ (warning|error)s? )?generated\.$' "$log"
    failed=1
  fi
done
elapsed=$((SECONDS - start))
if [ $failed -ne 0 ]; then
  found=$(cat "$out"/*.log | grep -E '^/.*: (warning|error): ' | sort -u)
  echo "tidy: $(printf '%s\n' "$found" | grep -c .) finding(s) in $elapsed s; by check:" >&2
  printf '%s\n' "$found" | sed -n 's/.*\[\([^]]*\)\]$/\1/p' | sort | uniq -c | sort -rn >&2
  echo "tidy: fix them, or where a check is wrong, '// NOLINT(check): why' (see .clang-tidy)" >&2
  exit 1
fi
echo "tidy: ${#files[@]} files clean in $elapsed s"
