#!/usr/bin/env bash
# What the exact sizes of generated exports cost (issue 17): a table of ROWS
# rows (1000 partitions), then ROUNDS interleaved rounds of
#   A  `cat TABLE/@json > /dev/null`   (the peer: reading the export once)
#   B  `stat -c %s TABLE/@json`        (one stat: streams the export once)
#   C  `cp TABLE/@json FILE`           (stat, fstat, then the read)
# reporting the median [min-max] of the per-round ratios B/A and C/A, and
# the median time of a stat of one partition's @json (ROWS/1000 rows).
#
# Usage (as root: it mounts; builds nothing):
#   cmake --build build --target cellfs
#   tools/bench/run_export_stat_bench.sh [ROWS=200000] [ROUNDS=7]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# Figures: docs/BENCHMARKS.md "Exact export sizes (issue 17)".
set -euo pipefail

rows=${1:-200000}
rounds=${2:-7}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
[[ -x $cellfs ]] || { echo "run_export_stat_bench: $cellfs is missing" >&2; exit 1; }
[[ $EUID -eq 0 ]] || { echo "run_export_stat_bench: run as root (it mounts)" >&2; exit 1; }

work=$(mktemp -d /tmp/cellfs-export-bench.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
cellfs_pid=
bench_name=run_export_stat_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"
trap 'set +e; is_mounted "$mnt" && fusermount3 -u -z "$mnt";
      [[ -n $cellfs_pid ]] && { wait_exited "$cellfs_pid" || kill "$cellfs_pid"; }; rm -rf "$work"' EXIT


"$cellfs" mount -f "$work/data" "$mnt" 2>>"$work/cellfs.log" &
cellfs_pid=$!
wait_mounted "$cellfs_pid" "$mnt"
mkdir "$mnt/ks"
printf 'CREATE TABLE ks.t (k text, c int, v text, n bigint, PRIMARY KEY (k, c));' >"$mnt/@cql"
python3 - "$rows" >"$mnt/ks/t/@insert" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print('{"k": "p%d", "c": %d, "v": "value %d", "n": %d}' % (i % 1000, i, i, i * 7))
PY
echo "run_export_stat_bench: $rows rows, $(stat -c %s "$mnt/ks/t/@json") bytes of @json, $rounds rounds"

: >"$work/stat"; : >"$work/cp"; : >"$work/partition"
for _ in $(seq "$rounds"); do
  a=$(seconds cat "$mnt/ks/t/@json")
  b=$(seconds stat -c %s "$mnt/ks/t/@json")
  c=$(seconds cp "$mnt/ks/t/@json" "$work/copy.json")
  seconds stat -c %s "$mnt/ks/t/p7/@json" >>"$work/partition"
  awk -v a="$a" -v b="$b" 'BEGIN { print b / a }' >>"$work/stat"
  awk -v a="$a" -v c="$c" 'BEGIN { print c / a }' >>"$work/cp"
done
cmp -s "$work/copy.json" <(cat "$mnt/ks/t/@json") || { echo "run_export_stat_bench: cp copied other bytes" >&2; exit 1; }
echo "stat of the table @json / cat of it:  $(median_range %.2f <"$work/stat")"
echo "cp of the table @json / cat of it:    $(median_range %.2f <"$work/cp")"
echo "stat of a partition's @json (s):      $(median_range %.4f <"$work/partition")"
