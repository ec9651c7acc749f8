#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan+UBSan, build/fuzz),
# replays each seed corpus, then fuzzes each target.
# Usage: tools/fuzz.sh [SECONDS_PER_TARGET (default 30)] [TARGET...]
#        tools/fuzz.sh --fixed [TARGET...]
# SECONDS: exploration, a random seed each run, new units kept in
# build/fuzz/corpus and fed to the next run. --fixed: what CI runs, the same
# inputs every time: seed 1, a fixed number of runs per target (about 20 s
# each here), starting from the seed corpus alone, so a failure is this
# tree's and reproduces with the same command.
# Needs clang-14 and libclang-rt-14-dev (CXX overrides the compiler). Exits
# non-zero on any crash, leak, timeout or failed property; crash inputs are
# kept in build/fuzz/artifacts (the seed corpora in tests/fuzz/corpus are
# never written).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

fixed=0
if [[ ${1:-} == --fixed ]]; then
  fixed=1
  seconds=0
  shift
else
  seconds=${1:-30}
  shift || true
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(cql_parser_fuzz key_name_fuzz key_codec_fuzz literal_fuzz insert_line_fuzz
           json_differential_fuzz)
fi
if [[ $fixed -eq 0 ]] && { ! [[ $seconds =~ ^[0-9]+$ ]] || [[ $seconds -lt 1 ]]; }; then
  echo "fuzz.sh: SECONDS_PER_TARGET must be a positive integer, got '$seconds'" >&2
  exit 2
fi

cxx=${CXX:-clang++-14}
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: $cxx not found (apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi

build=$root/build/fuzz
cmake_args=(-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCELLFS_WERROR=ON
            -DCELLFS_FUZZ=ON -DCELLFS_SANITIZE=fuzzer-no-link,address,undefined
            -DCELLFS_RADOS=OFF)
# The generator is chosen at the first configure only.
if [[ ! -f $build/CMakeCache.txt ]] && command -v ninja >/dev/null; then cmake_args+=(-G Ninja); fi
if command -v ccache >/dev/null; then cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
mkdir -p "$build"
cmake -S "$root" -B "$build" "${cmake_args[@]}" >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log" >&2
  exit 1
}
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target "${targets[@]}"

# Longest input libFuzzer may try, per target: a few times the largest seed.
max_len() {
  case $1 in
    cql_parser_fuzz) echo 8192 ;;
    insert_line_fuzz | json_differential_fuzz) echo 4096 ;;
    *) echo 1024 ;;
  esac
}

# Runs per target in --fixed mode: about 20 s each on a 2-core CI machine.
fixed_runs() {
  case $1 in
    cql_parser_fuzz) echo 10000 ;;
    insert_line_fuzz) echo 70000 ;;
    json_differential_fuzz) echo 150000 ;;
    key_name_fuzz) echo 350000 ;;
    *) echo 500000 ;;
  esac
}

mkdir -p "$build/artifacts" "$build/logs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=0
for target in "${targets[@]}"; do
  binary=$build/tests/fuzz/$target
  seeds=$root/tests/fuzz/corpus/$target
  scratch=$build/corpus/$target
  log=$build/logs/$target.log
  if [[ $fixed -eq 1 ]]; then
    scratch=$build/corpus-fixed/$target
    rm -rf "$scratch"
    budget=(-seed=1 -runs="$(fixed_runs "$target")" -reload=0)
    # Without address randomisation, so that pointer values seen by the
    # comparison tracing do not steer the mutations differently each run.
    launcher=(setarch "$(uname -m)" -R)
  else
    budget=(-max_total_time="$seconds")
    launcher=()
  fi
  mkdir -p "$scratch"

  # Replay: each seed file run once (files, not the directory, so nothing is
  # written next to them).
  if ! "$binary" "$seeds"/* >"$build/logs/$target.replay.log" 2>&1; then
    tail -n 40 "$build/logs/$target.replay.log" >&2
    echo "fuzz: $target: FAILED replaying $seeds (log: $build/logs/$target.replay.log)" >&2
    failed=1
    continue
  fi

  # Fuzz: new units go to the scratch corpus (first directory), seeds are read.
  status=0
  touch "$build/logs/$target.start"
  started=$SECONDS
  "${launcher[@]}" "$binary" "${budget[@]}" -max_len="$(max_len "$target")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
    "$scratch" "$seeds" >"$log" 2>&1 || status=$?

  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  new_units=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  elapsed=$((SECONDS - started))
  if [[ $status -ne 0 ]]; then
    tail -n 60 "$log" >&2
    artifacts=$(find "$build/artifacts" -name "$target-*" -newer "$build/logs/$target.start" |
                tr '\n' ' ')
    echo "fuzz: $target: FAILED (exit $status) after ${elapsed}s, ${execs:-?} execs;" \
      "artifacts: ${artifacts:-none} (log: $log)" >&2
    failed=1
    continue
  fi
  echo "fuzz: $target: ok, ${elapsed}s, ${execs:-?} execs (${rate:-?}/s), cov ${cov:-?}," \
    "ft ${ft:-?}, corpus ${corp:-?} (${new_units:-?} new units)"
done
exit "$failed"
