#!/usr/bin/env bash
# Issue 15's CQL benchmark, two parts, each run as interleaved rounds
# (A B C A B C ...) on one mount, reporting the median [min-max] of the
# per-round ratios:
#  1. writes: ROWS rows as INSERT statements through @cql (`cellfs cql -f`,
#     one script), beside the same rows as JSON Lines through @insert and as
#     cell files (mkdir of the row, then one write of the cell, from one
#     python process); each round writes fresh rows;
#  2. reads: QUERIES SELECTs of a 10-row clustering slice at random places
#     of a partition of WIDE rows (default 1,000,000), beside the same in a
#     partition of 1,000 rows, each batch of queries one `cellfs cql -f`.
#
# Usage (as root: it mounts; builds nothing):
#   cmake --build build --target cellfs
#   tools/bench/run_cql_bench.sh [ROWS=20000] [ROUNDS=5] [WIDE=1000000] [QUERIES=500]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# Figures and their reading: docs/BENCHMARKS.md "CQL statements (issue 15)".
set -euo pipefail

rows=${1:-20000}
rounds=${2:-5}
wide=${3:-1000000}
queries=${4:-500}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs

if [[ ! -x $cellfs ]]; then
  echo "run_cql_bench: $cellfs is missing; run: cmake --build build --target cellfs" >&2
  exit 1
fi
if [[ $EUID -ne 0 ]]; then
  echo "run_cql_bench: run as root (it mounts)" >&2
  exit 1
fi

work=$(mktemp -d /tmp/cellfs-cql-bench.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
cellfs_pid=
bench_name=run_cql_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  if [[ $rc -ne 0 && -s $work/cellfs.log ]]; then
    { echo "--- $work/cellfs.log (last lines)"; tail -n 20 "$work/cellfs.log"; } >&2
  fi
  is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  [[ -n $cellfs_pid ]] && { wait_exited "$cellfs_pid" || kill "$cellfs_pid"; }
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.6f", b - a }'; }

"$cellfs" mount -f "$work/data" "$mnt" 2>>"$work/cellfs.log" &
cellfs_pid=$!
wait_mounted "$cellfs_pid" "$mnt"
"$cellfs" cql "$mnt" -e "CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" >/dev/null
"$cellfs" cql "$mnt" -e "CREATE TABLE b.t (k int, c int, v text, PRIMARY KEY (k, c))" >/dev/null

# Round r's rows: partitions 1000*r + (i % 100), clustering i, one text cell.
make_inputs() {
  local r=$1
  python3 - "$r" "$rows" "$work" <<'EOF'
import sys
r, rows, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(f"{work}/cql.{r}", "w") as cql, open(f"{work}/json.{r}", "w") as js:
    for i in range(rows):
        k = 1_000_000 * r + i % 100
        cql.write(f"INSERT INTO b.t (k, c, v) VALUES ({k}, {i}, 'value {i}');\n")
        js.write(f'{{"k": {k + 500_000}, "c": {i}, "v": "value {i}"}}\n')
EOF
}

files_writer() {  # files_writer ROUND: the rows as directories and cell files
  python3 - "$1" "$rows" "$mnt" <<'EOF'
import os, sys
r, rows, mnt = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for i in range(rows):
    k = 1_000_000 * r + 900_000 + i % 100
    row = f"{mnt}/b/t/{k}/{i}"
    os.makedirs(row, exist_ok=True)
    with open(f"{row}/v", "w") as f:
        f.write(f"value {i}\n")
EOF
}

echo "run_cql_bench: part 1, $rows rows per path per round, $rounds rounds"
: >"$work/ratio_insert"
: >"$work/ratio_files"
: >"$work/rate_cql"
for r in $(seq 1 "$rounds"); do
  make_inputs "$r"
  start=$(now)
  "$cellfs" cql "$mnt" -f "$work/cql.$r" >/dev/null
  t_cql=$(since "$start")
  start=$(now)
  cat "$work/json.$r" >"$mnt/b/t/@insert"
  t_insert=$(since "$start")
  start=$(now)
  files_writer "$r"
  t_files=$(since "$start")
  awk -v n="$rows" -v t="$t_cql" 'BEGIN { printf "%.0f\n", n / t }' >>"$work/rate_cql"
  awk -v a="$t_insert" -v b="$t_cql" 'BEGIN { printf "%.4f\n", a / b }' >>"$work/ratio_insert"
  awk -v a="$t_files" -v b="$t_cql" 'BEGIN { printf "%.4f\n", a / b }' >>"$work/ratio_files"
  printf 'round %d: @cql %.2f s (%.0f statements/s), @insert %.2f s, cell files %.2f s\n' \
    "$r" "$t_cql" "$(awk -v n="$rows" -v t="$t_cql" 'BEGIN { print n / t }')" "$t_insert" "$t_files"
  rm -f "$work/cql.$r" "$work/json.$r"
done
echo "@cql INSERT statements/s: $(median_range <"$work/rate_cql")"
echo "@cql speed relative to @insert (time @insert / time @cql): $(median_range <"$work/ratio_insert")"
echo "@cql speed relative to cell files (time files / time @cql): $(median_range <"$work/ratio_files")"

echo "run_cql_bench: part 2, a $wide-row partition beside a 1000-row one, $queries queries per batch"
python3 - "$wide" "$work" <<'EOF'
import sys
wide, work = int(sys.argv[1]), sys.argv[2]
with open(f"{work}/wide.json", "w") as f:
    for c in range(wide):
        f.write(f'{{"k": -1, "c": {c}, "v": "v{c}"}}\n')
    for c in range(1000):
        f.write(f'{{"k": -2, "c": {c}, "v": "v{c}"}}\n')
EOF
start=$(now)
cat "$work/wide.json" >"$mnt/b/t/@insert"
echo "loaded $((wide + 1000)) rows in $(since "$start") s"
rm -f "$work/wide.json"
select_script() {  # select_script PARTITION WIDTH FILE: QUERIES 10-row slices
  python3 - "$1" "$2" "$queries" "$3" <<'EOF'
import random, sys
k, width, n, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
with open(out, "w") as f:
    for _ in range(n):
        c = random.randrange(0, width - 10)
        f.write(f"SELECT c, v FROM b.t WHERE k = {k} AND c >= {c} AND c < {c + 10};\n")
EOF
}
: >"$work/ratio_select"
for r in $(seq 1 "$rounds"); do
  select_script -1 "$wide" "$work/wide.cql"
  select_script -2 1000 "$work/narrow.cql"
  start=$(now)
  "$cellfs" cql "$mnt" -f "$work/wide.cql" >"$work/wide.out"
  t_wide=$(since "$start")
  start=$(now)
  "$cellfs" cql "$mnt" -f "$work/narrow.cql" >"$work/narrow.out"
  t_narrow=$(since "$start")
  for out in wide narrow; do
    got=$(grep -c '^(10 rows)$' "$work/$out.out" || true)
    [[ $got == "$queries" ]] || { echo "run_cql_bench: $out: $got of $queries queries gave 10 rows" >&2; exit 1; }
  done
  awk -v a="$t_wide" -v b="$t_narrow" 'BEGIN { printf "%.4f\n", a / b }' >>"$work/ratio_select"
  printf 'round %d: %d slices of the %d-row partition %.3f s (%.0f us each), of the 1000-row one %.3f s (%.0f us each)\n' \
    "$r" "$queries" "$wide" "$t_wide" "$(awk -v t="$t_wide" -v n="$queries" 'BEGIN { print t / n * 1e6 }')" \
    "$t_narrow" "$(awk -v t="$t_narrow" -v n="$queries" 'BEGIN { print t / n * 1e6 }')"
done
echo "10-row slice, $wide-row partition time / 1000-row partition time: $(median_range <"$work/ratio_select")"
