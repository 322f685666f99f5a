#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every C++ file of the repository follows the checked-in .clang-format (CI runs this first).
# With --fix, reformats the files instead of listing them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v clang-format >/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-format
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format for all the files (one per file took a minute of CI): its findings name them.
bad=()
if ! findings=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  mapfile -t bad < <(printf '%s\n' "$findings" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
  [ ${#bad[@]} -gt 0 ] || bad=("(clang-format failed: $findings)")
fi
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) do not follow .clang-format ($(clang-format --version | head -1)):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "check-format: run 'bash resources/check-format.sh --fix'" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
