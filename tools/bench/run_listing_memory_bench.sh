#!/usr/bin/env bash
# Issue 18's listing-memory benchmark: two cellfs binaries (A, B: e.g. before
# and after a change) mount the same store in turn, A B A B ...; each mount
# times `ls -U | wc -l` of one partition of WIDE rows and records the
# daemon's peak RSS (VmHWM) after it, then times five `ls -l` of a
# 1000-row partition (a listing that benefits from cached blocks). Prints
# each figure's median [min-max] per binary and of the per-round ratios.
#
# Usage (as root):
#   cmake --build build --target cellfs fs_bench_load
#   tools/bench/run_listing_memory_bench.sh CELLFS_A CELLFS_B [WIDE=1000000] [ROUNDS=5]
# BUILD_DIR overrides the build directory holding fs_bench_load.
# Figures: docs/BENCHMARKS.md "Listing memory".
set -euo pipefail

a=$1
b=$2
wide=${3:-1000000}
rounds=${4:-5}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
load=$build/tools/bench/fs_bench_load
for binary in "$a" "$b" "$load"; do
  [[ -x $binary ]] || { echo "run_listing_memory_bench: $binary is missing" >&2; exit 1; }
done
work=$(mktemp -d /tmp/cellfs-list-bench.XXXXXX)
mnt=$work/mnt
data=$work/data
mkdir -p "$mnt"
pid=
bench_name=run_listing_memory_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"
cleanup() {
  set +e
  is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  [[ -n $pid ]] && { wait_exited "$pid" || kill "$pid"; }
  rm -rf "$work"
}
trap cleanup EXIT

mount_with() {  # mount_with CELLFS
  "$1" mount -f "$data" "$mnt" 2>>"$work/cellfs.log" &
  pid=$!
  wait_mounted "$pid" "$mnt"
}
unmount() {
  fusermount3 -u "$mnt"
  wait_exited "$pid"
  pid=
}
count_wide() { [[ $(LC_ALL=C ls -U "$mnt/b/t/0" | wc -l) -eq $wide ]] || { echo "count wrong" >&2; exit 1; }; }
ls_small() { for _ in 1 2 3 4 5; do LC_ALL=C ls -l "$mnt/b/t/9" >/dev/null; done; }

mount_with "$a"
printf '%s\n' \
  "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
  "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$mnt/@cql"
printf 'INSERT INTO b.t (p, c, v) VALUES (9, %d, '"'"'x'"'"');\n' $(seq 1000) >"$mnt/@cql"
unmount
"$load" "$data" b.t 0 "$wide" >/dev/null
echo "== $(nproc) cores, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $wide rows, $rounds rounds"

for round in $(seq "$rounds"); do
  for side in A B; do
    binary=$a
    [[ $side == B ]] && binary=$b
    mount_with "$binary"
    sleep 2  # the mount's log replay and compaction settle
    wide_s=$(seconds count_wide)
    hwm=$(awk '$1 == "VmHWM:" { printf "%.1f", $2 / 1024 }' "/proc/$pid/status")
    small_s=$(seconds ls_small)
    echo "$round $side $wide_s $hwm $small_s" | tee -a "$work/rows"
    unmount
  done
done

summary() {  # summary COLUMN LABEL
  for side in A B; do
    printf '  %-34s %s: %s\n' "$2" "$side" \
      "$(awk -v s="$side" -v c="$1" '$2 == s { print $c }' "$work/rows" | median_range)"
  done
  printf '  %-34s B/A: %s\n' "$2" "$(awk -v c="$1" '$2 == "A" { a[$1] = $c } $2 == "B" { print $c / a[$1] }' \
    "$work/rows" | median_range)"
}
summary 3 "ls -U | wc -l of the wide one (s)"
summary 4 "daemon VmHWM after it (MB)"
summary 5 "5 x ls -l of 1000 rows (s)"
