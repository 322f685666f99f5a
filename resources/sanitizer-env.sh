# SPDX-License-Identifier: MIT
# Sourced by resources/sanitize.sh and resources/test.sh (CI's split run): the clang ASan+UBSan
# tree of the sanitizer job. One build serves the tests and the libFuzzer harnesses: they share
# the instrumented libraries. `source resources/sanitizer-env.sh BUILD_DIR`, then
# `sanitizer_configure`.
sanitizer_build=$1
# clang and its runtime libraries (ASan, UBSan, libFuzzer) besides the usual packages.
bash "$(dirname "${BASH_SOURCE[0]}")/install-deps.sh" clang-14 libclang-rt-14-dev
sanitizer_cxx=$(command -v clang++ || command -v clang++-14)
sanitizer_cc=$(command -v clang || command -v clang-14)
# A finding must fail the run: abort on the first report, leaks included, with stacks.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# libpqxx 6.4 (Debian 12) leaks one PGresult when BEGIN meets a connection the server dropped
# (PostgresE2E.AServerOutageOf20SecondsLosesNothing): inside the library, past our last frame.
mkdir -p "$sanitizer_build"
printf 'leak:libpqxx\n' >"$sanitizer_build/lsan.supp"
export LSAN_OPTIONS=suppressions="$sanitizer_build/lsan.supp"

# At -O1, ASan's own advice ("reasonable performance"): -O3 made the cold build of this tree take
# 456 s on 2 cores (CI's longest stage but one) for tests that mostly wait on processes and
# servers.
sanitizer_configure() {
  CC=$sanitizer_cc CXX=$sanitizer_cxx cmake -S "$(dirname "${BASH_SOURCE[0]}")/.." -B "$sanitizer_build" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DRADT_FUZZ=ON -DBUILD_GUI=OFF -DBUILD_TESTING=ON \
    "-DCMAKE_UNITY_BUILD=${RADT_UNITY_BUILD:-ON}" >/dev/null # a unity build: see resources/test.sh
}
