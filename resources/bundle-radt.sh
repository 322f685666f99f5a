#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copies a built radt with every shared library it loads (its dynamic loader included) into one
# folder, so that it runs on a machine with another glibc and no libpqxx: the GPU machine that
# resources/capture-gpu-fixtures.sh records on. Run it as
#   BUNDLE/ld-linux-x86-64.so.2 --library-path BUNDLE BUNDLE/radt ...
#   bash resources/bundle-radt.sh BUILD_DIR BUNDLE_DIR
set -eu
build=${1:?build folder}
bundle=${2:?bundle folder}
rm -rf "$bundle"
mkdir -p "$bundle"
# The PostgreSQL module lies beside radt in a bundle, where radt looks for it when run through the
# bundle's dynamic loader (core/StoreFactory.cpp); its libraries (libpq's chain) come along.
cp "$build/app/radt" "$build/lib/radt/radt-postgres.so" "$bundle/"
ldd "$build/app/radt" "$build/lib/radt/radt-postgres.so" | awk '/=> \//{print $3} /^\t\/lib/{print $1}' |
  sort -u | while read -r lib; do
  cp -L "$lib" "$bundle/"
done
ls "$bundle" | wc -l
