#!/usr/bin/env bash
# clang-tidy with the checked-in .clang-tidy over every production .cpp (core/, collector/,
# widgets/, app/; not tests/, bench/ or generated files), the headers they include with them.
# Prints each finding and exits 1 if there is one. CI runs it after test.sh, in test.sh's build
# tree ($RADT_BUILD_DIR); alone it configures build-tidy/ (a configure is enough: no source
# includes moc output). With file arguments, checks only those files.
#
#     bash resources/tidy.sh        # all: about 16 min of CPU time (8 on 2 cores), -j$(nproc)
#     bash resources/tidy.sh $(git diff --name-only main... -- '[cwa]*/*.cpp' | grep -v ^tests/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# clang-tidy beside what the build needs (the configure below): nothing to do when all is there.
bash "$root/resources/install-deps.sh" clang-tidy
jobs=${RADT_TIDY_JOBS:-$(nproc 2>/dev/null || echo 2)}
build=${RADT_BUILD_DIR:-$root/build-tidy}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DBUILD_GUI=ON -DBUILD_TESTING=OFF >/dev/null
fi
# An existing tree keeps its options; this only adds the compilation database to it.
cmake -S "$root" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null

if [ $# -gt 0 ]; then
  files=("$@")
else
  # The tracked production sources the build compiles (a BUILD_GUI=OFF tree has no widgets/).
  mapfile -t files < <(git ls-files 'core/*.cpp' 'collector/*.cpp' 'widgets/*.cpp' 'app/*.cpp' |
    grep -Fxf <(sed -n 's|^  "file": "'"$root"'/\(.*\)",\{0,1\}$|\1|p' "$build/compile_commands.json"))
fi
[ ${#files[@]} -gt 0 ] || { echo "tidy: no files to check in $build/compile_commands.json" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "tidy: $(clang-tidy --version | grep -o 'LLVM version [0-9.]*'), ${#files[@]} files, $jobs at a time"
start=$SECONDS
# One clang-tidy per file, each writing its own log (named after the path, so they list in its
# order): the findings of a file stay together. A run that fails (a compile error) is a finding.
# shellcheck disable=SC2016 # the inner shell expands them
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} sh -c \
  'log="$3/$(printf %s "$2" | tr / %).log"; clang-tidy -p "$1" --quiet "$2" >"$log" 2>&1 || echo "clang-tidy exit $?" >>"$log"' \
  tidy "$build" {} "$out"
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
