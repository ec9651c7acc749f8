#!/usr/bin/env bash
# Issue 18's dead-rows benchmark: what deleted and expired rows cost a
# listing, against the same listing without them, in one mount of one
# binary. The store holds
#   b.t partition 0: ROWS rows, all but the last 10 then deleted one by one
#                    (DELETE ... WHERE p = 0 AND c = N through @cql),
#   b.t partition 9: 10 rows, never deleted,
#   b.x:             EXPIRED single-row partitions written with TTL 2,
#   b.e:             empty,
#   b.l, b.m:        LIVE single-row partitions each; b.m also had LIVE/10
#                    more rows that were deleted and buried (what a table
#                    with buried rows costs the reads of its live data).
# It times the first `ls -U` of partition 0 after the deletes (which finds
# the dead rows and hands them to the sweeper), waits SETTLE seconds for the
# sweeper, then mounts again with entry and attribute timeouts 0 (so every
# ls also looks its path up), lists partition 0 and b.x once more (a
# remount forgets what the reads handed to the sweeper), waits SETTLE
# seconds again and times ROUNDS interleaved pairs, each side five
# listings: ls -U of partition 0 / of partition 9, ls -U of b.x / of b.e,
# and once each (lookups included) ls -U of b.m / of b.l and cat of every
# 100th cell of b.m / of b.l.
# Prints each figure's median [min-max] and that of the per-pair ratios.
#
# Usage (as root):
#   cmake --build build --target cellfs fs_bench_load
#   tools/bench/run_dead_rows_bench.sh CELLFS [ROWS=100000] [EXPIRED=100000] [ROUNDS=9] [SETTLE=20] [LIVE=20000]
# BUILD_DIR overrides the build directory holding fs_bench_load.
# Figures: docs/BENCHMARKS.md "Dead rows".
set -euo pipefail

cellfs=$1
rows=${2:-100000}
expired=${3:-100000}
rounds=${4:-9}
settle=${5:-20}
live_rows=${6:-20000}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
load=$build/tools/bench/fs_bench_load
for binary in "$cellfs" "$load"; do
  [[ -x $binary ]] || { echo "run_dead_rows_bench: $binary is missing" >&2; exit 1; }
done
work=$(mktemp -d /tmp/cellfs-dead-bench.XXXXXX)
mnt=$work/mnt
data=$work/data
mkdir -p "$mnt"
pid=
bench_name=run_dead_rows_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"
cleanup() {
  set +e
  is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  [[ -n $pid ]] && { wait_exited "$pid" || kill "$pid"; }
  [[ -n ${KEEP_LOG:-} ]] && cp "$work/cellfs.log" "$KEEP_LOG"
  rm -rf "$work"
}
trap cleanup EXIT

mount_with() {  # mount_with [OPTIONS]
  "$cellfs" mount -f "$@" "$data" "$mnt" 2>>"$work/cellfs.log" &
  pid=$!
  wait_mounted "$pid" "$mnt"
}
unmount() {
  fusermount3 -u "$mnt"
  wait_exited "$pid"
  pid=
}
count() {  # count DIR N: ls -U of DIR lists N names
  local n
  n=$(LC_ALL=C ls -U "$1" | wc -l)
  [[ $n -eq $2 ]] || { echo "run_dead_rows_bench: $1 lists $n, not $2" >&2; exit 1; }
}
count5() { for _ in 1 2 3 4 5; do count "$@"; done; }

live=10
mount_with
printf '%s\n' \
  "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
  "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" \
  "CREATE TABLE b.x (p int PRIMARY KEY, v text);" \
  "CREATE TABLE b.e (p int PRIMARY KEY, v text);" \
  "CREATE TABLE b.l (p int PRIMARY KEY, v text);" \
  "CREATE TABLE b.m (p int PRIMARY KEY, v text);" >"$mnt/@cql"
printf 'INSERT INTO b.t (p, c, v) VALUES (9, %d, '"'"'x'"'"');\n' $(seq "$live") >"$mnt/@cql"
unmount
"$load" "$data" b.t 0 "$rows" >/dev/null
mount_with
count "$mnt/b/t/0" "$rows"
printf 'DELETE FROM b.t WHERE p = 0 AND c = %d;\n' $(seq 0 $((rows - live - 1))) >"$mnt/@cql"
{ echo p,v; seq "$expired" | sed 's/$/,gone/'; } >"$mnt/b/x/@insert@ttl=2"
{ echo p,v; seq "$live_rows" | sed 's/$/,here/'; } >"$mnt/b/l/@insert"
{ echo p,v; seq $((live_rows + live_rows / 10)) | sed 's/$/,here/'; } >"$mnt/b/m/@insert"
# Every 11th partition of b.m deleted: interleaved with the live ones.
seq 11 11 $((live_rows + live_rows / 10)) | sed 's/.*/DELETE FROM b.m WHERE p = &;/' >"$mnt/@cql"
count "$mnt/b/m" "$live_rows"  # hands the dead rows to the sweeper
sleep 3  # every row of b.x has expired
first=$(seconds count "$mnt/b/t/0" "$live")
first_x=$(seconds count "$mnt/b/x" 0)
sleep "$settle"
unmount
echo "== $(nproc) cores, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rows rows, $((rows - live)) deleted; $expired expired; $rounds rounds"
echo "  first ls -U of partition 0 after the deletes: $first s; of b.x after expiry: $first_x s"

mount_with -o entry_timeout=0,attr_timeout=0
count "$mnt/b/t/0" "$live"
count "$mnt/b/x" 0
sleep "$settle"
cells() {  # cells DIR: cat of every 100th partition's cell (none of b.m's deleted ones)
  local p
  for p in $(seq 1 100 "$live_rows"); do
    if ((p % 11)); then cat "$mnt/$1/$p/v"; fi
  done >/dev/null
}
for round in $(seq "$rounds"); do
  dead=$(seconds count5 "$mnt/b/t/0" "$live")
  clean=$(seconds count5 "$mnt/b/t/9" "$live")
  gone=$(seconds count5 "$mnt/b/x" 0)
  empty=$(seconds count5 "$mnt/b/e" 0)
  with=$(seconds count "$mnt/b/m" "$live_rows")
  without=$(seconds count "$mnt/b/l" "$live_rows")
  cat_with=$(seconds cells b/m)
  cat_without=$(seconds cells b/l)
  echo "$round $dead $clean $gone $empty $with $without $cat_with $cat_without" | tee -a "$work/rows"
done
unmount

column() { column_range "$work/rows" "$1"; }
ratio() { ratio_range "$work/rows" "$1" "$2"; }
printf '  %-56s %s\n' "5 x ls -U partition 0 ($live live, $((rows - live)) deleted) (s)" "$(column 2)"
printf '  %-56s %s\n' "5 x ls -U partition 9 ($live rows) (s)" "$(column 3)"
printf '  %-56s %s\n' "  ratio" "$(ratio 2 3)"
printf '  %-56s %s\n' "5 x ls -U b.x ($expired expired partitions) (s)" "$(column 4)"
printf '  %-56s %s\n' "5 x ls -U b.e (empty) (s)" "$(column 5)"
printf '  %-56s %s\n' "  ratio" "$(ratio 4 5)"
printf '  %-56s %s\n' "ls -U b.m ($live_rows live, $((live_rows / 10)) buried) (s)" "$(column 6)"
printf '  %-56s %s\n' "ls -U b.l ($live_rows live) (s)" "$(column 7)"
printf '  %-56s %s\n' "  ratio" "$(ratio 6 7)"
printf '  %-56s %s\n' "cat of every 100th live cell of b.m (s)" "$(column 8)"
printf '  %-56s %s\n' "cat of the same cells of b.l (s)" "$(column 9)"
printf '  %-56s %s\n' "  ratio" "$(ratio 8 9)"
