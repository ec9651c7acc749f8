#!/usr/bin/env bash
# Checks the format, then builds cellfs and runs every test: the sources
# must match .clang-format exactly (clang-format 14), then a warnings-as-errors build, then an
# ASan+UBSan build, then the concurrency stress tests under TSan, then every
# fuzz target (corpus replay plus a fixed-seed, fixed-length libFuzzer run:
# tools/fuzz.sh --fixed). Exits non-zero on the first failure. CELLFS_SKIP_FUZZ=1
# skips the libFuzzer stage.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Debug information is line tables only (-g1): enough for backtraces and
# sanitizer reports, and it compiles about a third faster than -g.
configure() {  # configure BUILD_DIR CMAKE_ARGS...
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCELLFS_WERROR=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" "$@" >/dev/null
}
# The sanitizer builds: -O1, as the sanitizers' documentation advises (it
# halves their compile time against -O2), and no benchmarks.
sanitizer_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCELLFS_BUILD_BENCHMARKS=OFF)

# Prints the time each stage took, so that CI logs show where the time goes.
stage_started=$SECONDS
stage() {  # stage NAME: ends the previous stage
  echo "test.sh: $1 at $((SECONDS / 60))m$((SECONDS % 60))s (previous stage" \
    "$(((SECONDS - stage_started) / 60))m$(((SECONDS - stage_started) % 60))s)"
  stage_started=$SECONDS
}

run_suite() {  # run_suite BUILD_DIR CMAKE_ARGS...
  configure "$@"
  cmake --build "$1" -j "$jobs"
  stage "$1 built"
  ctest --test-dir "$1" --output-on-failure -j "$jobs"
  stage "$1 tested"
}

# Every C and C++ source as .clang-format says (a reformat: tools/format.sh).
git ls-files -z '*.cc' '*.h' '*.c' | xargs -0 clang-format-14 --dry-run -Werror

run_suite build/release
# tests/lsan.supp: leaks of Debian libraries (each explained there).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
  run_suite build/asan -DCELLFS_SANITIZE=address,undefined "${sanitizer_flags[@]}"

# TSan: only the tests whose point is concurrency (tests/tsan.supp explains
# each suppression).
stress_targets=(filesystem_stress_test insert_batcher_test engine_durability_test sweeper_test
                crash_rounds_test kernel_notifier_test index_build_test)
# The binaries run directly: ctest would stop at the test lists of the
# targets this build skips.
stage "TSan stage"
configure build/tsan -DCELLFS_SANITIZE=thread "${sanitizer_flags[@]}"
cmake --build build/tsan -j "$jobs" --target "${stress_targets[@]}"
for target in "${stress_targets[@]}"; do
  echo "tsan: $target"
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp" \
    "build/tsan/tests/$target" >"build/tsan/$target.log" 2>&1 ||
    { tail -n 80 "build/tsan/$target.log"; exit 1; }
  tail -n 2 "build/tsan/$target.log"
done

# The fixed fuzz run: the same inputs on every machine and every run, so it
# fails only for a change in the tree (exploration: tools/fuzz.sh SECONDS).
stage "fuzz stage"
if [[ ${CELLFS_SKIP_FUZZ:-0} != 1 ]]; then bash tools/fuzz.sh --fixed; fi
stage "done"
