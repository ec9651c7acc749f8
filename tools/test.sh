#!/usr/bin/env bash
# Checks the format, then builds cellfs and runs every test: the sources
# must match .clang-format exactly (clang-format 14), then a warnings-as-errors build, then an
# ASan+UBSan build, then the concurrency stress tests under TSan, then every
# fuzz target (corpus replay plus a bounded libFuzzer run, tools/fuzz.sh).
# Exits non-zero on the first failure. CELLFS_FUZZ_SECONDS sets the fuzzing
# time per target (default 20; 0 skips the libFuzzer stage).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

configure() {  # configure BUILD_DIR CMAKE_ARGS...
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCELLFS_WERROR=ON "$@" >/dev/null
}

run_suite() {  # run_suite BUILD_DIR CMAKE_ARGS...
  configure "$@"
  cmake --build "$1" -j "$jobs"
  ctest --test-dir "$1" --output-on-failure -j "$jobs"
}

# Every C and C++ source as .clang-format says (a reformat: tools/format.sh).
git ls-files -z '*.cc' '*.h' '*.c' | xargs -0 clang-format-14 --dry-run -Werror

run_suite build/release
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_suite build/asan -DCELLFS_SANITIZE=address,undefined

# TSan: only the tests whose point is concurrency (tests/tsan.supp explains
# each suppression).
stress_targets=(filesystem_stress_test insert_batcher_test engine_durability_test sweeper_test
                crash_rounds_test)
# The binaries run directly: ctest would stop at the test lists of the
# targets this build skips.
configure build/tsan -DCELLFS_SANITIZE=thread
cmake --build build/tsan -j "$jobs" --target "${stress_targets[@]}"
for target in "${stress_targets[@]}"; do
  echo "tsan: $target"
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp" \
    "build/tsan/tests/$target" >"build/tsan/$target.log" 2>&1 ||
    { tail -n 80 "build/tsan/$target.log"; exit 1; }
  tail -n 2 "build/tsan/$target.log"
done

fuzz_seconds=${CELLFS_FUZZ_SECONDS:-20}
if [[ $fuzz_seconds -gt 0 ]]; then bash tools/fuzz.sh "$fuzz_seconds"; fi
