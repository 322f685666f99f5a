#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages radt-explorer needs to build, test and run, plus any packages
# named as arguments (resources/sanitize.sh adds clang, resources/tidy.sh clang-tidy). Idempotent:
# does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache lld
  libsqlite3-dev nlohmann-json3-dev libpqxx-dev libcli11-dev libboost-math-dev
  postgresql postgresql-common
  qtbase5-dev libqt5charts5-dev libqt5svg5-dev
  libgtest-dev libbenchmark-dev
  python3 python3-scipy python3-pandas xvfb xauth xdotool imagemagick openbox
  texlive-latex-base texlive-latex-recommended poppler-utils
  help2man dpkg-dev python3-venv
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
