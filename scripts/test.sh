#!/bin/sh
# The whole test suite, from a fresh clone: setup, a Release build with its tests, then a clang
# AddressSanitizer + UndefinedBehaviorSanitizer build with its tests and every fuzz target run
# over its corpus.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
JOBS=$(nproc 2>/dev/null || echo 2)
# lavapipe (mesa-vulkan-drivers) is installed: a missing Vulkan device fails the GPU tests
export MF_REQUIRE_GPU=1

echo "== release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS"
ctest --test-dir build --output-on-failure -j "$JOBS"

echo "== asan + ubsan build, tests and fuzz corpora"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMF_SANITIZE=ON -DMF_FUZZ=ON >/dev/null
cmake --build build-asan -j "$JOBS"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$JOBS"
echo "== all tests passed"
