#!/usr/bin/env bash
# Issue 5's bulk benchmark: ROWS rows loaded into a fresh cellfs mount through
# TABLE/@insert as JSON Lines (`cat > @insert`, and `cellfs load`), beside
# sqlite3's `.import --csv` of the same rows and the engine's own batch API,
# in the same run; the daemon's RSS sampled during the load; then the table's
# export (@csv, @json) beside sqlite3's `SELECT *` in csv and json modes.
#
# Usage (as root: it mounts; builds nothing):
#   cmake --build build --target cellfs bulk_bench
#   tools/bench/run_bulk_bench.sh [ROWS=1000000] [PARTITIONS=1000] [ROUNDS=3]
# Needs sqlite3 (the Debian package sqlite3, installed on the development
# machine; the script refuses to run without it) and fusermount3.
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# TARGETS="cellfs_cat sqlite-norowid ..." runs only those targets (of
# cellfs_cat cellfs_load cellfs_offline sqlite-norowid sqlite-rowid sqlite-wal
# engine-mib engine-1000), e.g. for 10M rows.
# PERF_DIR=DIR adds, after the rounds, one more `cat > @insert` load with
# `perf record` (DWARF call graphs) attached to the daemon, its report written into DIR.
# Figures and their reading: docs/BENCHMARKS.md "Bulk load and export (issue 5)".
set -euo pipefail

rows=${1:-1000000}
partitions=${2:-1000}
rounds=${3:-3}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
bench=$build/tools/bench/bulk_bench
perf_dir=${PERF_DIR:-}

for binary in "$cellfs" "$bench"; do
  if [[ ! -x $binary ]]; then
    echo "run_bulk_bench: $binary is missing; run: cmake --build build --target cellfs bulk_bench" >&2
    exit 1
  fi
done
if [[ $EUID -ne 0 ]]; then
  echo "run_bulk_bench: run as root (it mounts)" >&2
  exit 1
fi
for tool in sqlite3 fusermount3; do
  command -v "$tool" >/dev/null || { echo "run_bulk_bench: $tool is missing" >&2; exit 1; }
done
if [[ -n $perf_dir ]] && ! command -v perf >/dev/null; then
  echo "run_bulk_bench: PERF_DIR needs perf (package linux-perf)" >&2
  exit 1
fi

# Everything (the row files, the cellfs data directories, the sqlite3
# databases, the engine's store) lives in one directory on one filesystem.
work=$(mktemp -d /tmp/cellfs-bulk-bench.XXXXXX)
mnt=$work/mnt
results=$work/results
mkdir -p "$mnt"
: >"$results"
cellfs_pid=
sampler_pid=

bench_name=run_bulk_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  [[ -n $sampler_pid ]] && kill "$sampler_pid" 2>/dev/null
  if [[ $rc -ne 0 && -s $work/cellfs.log ]]; then
    { echo "--- $work/cellfs.log (last lines)"; tail -n 20 "$work/cellfs.log"; } >&2
  fi
  is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  [[ -n $cellfs_pid ]] && { wait_exited "$cellfs_pid" || kill "$cellfs_pid"; }
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
# record TARGET METRIC VALUE: one measurement, for the medians at the end.
record() { echo "$1 $2 $3" >>"$results"; }

# Starts a daemon on a fresh data directory and creates the table.
start_cellfs() {
  rm -rf "$work/data"
  "$cellfs" mount -f "$work/data" "$mnt" 2>>"$work/cellfs.log" &
  cellfs_pid=$!
  wait_mounted "$cellfs_pid" "$mnt"
  printf '%s\n' \
    "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
    "CREATE TABLE b.t (p int, c int, a text, b bigint, d double, PRIMARY KEY (p, c));" \
    >"$mnt/@cql"
  [[ -d $mnt/b/t ]] || { echo "run_bulk_bench: CREATE TABLE b.t failed" >&2; exit 1; }
}

stop_cellfs() {
  "$cellfs" umount "$mnt"
  wait_exited "$cellfs_pid"
  cellfs_pid=
  rm -rf "$work/data"
}

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
# Bytes process $1 (all its threads: LevelDB's compactions too) caused to
# be written to storage so far.
written_bytes() { awk '$1 == "write_bytes:" { print $2 }' "/proc/$1/io"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }

# Samples the daemon's VmRSS (kB) every 0.2 s into $work/rss until stopped.
start_sampler() {
  : >"$work/rss"
  (while kill -0 "$1" 2>/dev/null; do
    status_kb "$1" VmRSS >>"$work/rss" 2>/dev/null || break
    sleep 0.2
  done) &
  sampler_pid=$!
}

stop_sampler() {
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  sampler_pid=
}

# "min/median/max" of the samples, in MB, and the series at 1 s steps.
rss_summary() {
  sort -n "$work/rss" | awk '{ v[NR] = $1 } END {
    printf "VmRSS min %.1f / median %.1f / max %.1f MB over %d samples", v[1] / 1024,
      v[int((NR + 1) / 2)] / 1024, v[NR] / 1024, NR }'
}
rss_series() { awk 'NR % 5 == 1 { printf "%.0f ", $1 / 1024 }' "$work/rss"; }

# Waits (30 s at most) until the daemon used under 5% of a CPU over 0.5 s:
# the compactions the load started have finished. Prints the wait.
settle() {
  local start ticks before after
  start=$(now)
  ticks=$(getconf CLK_TCK)
  for _ in $(seq 60); do
    before=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    sleep 0.5
    after=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    (((after - before) * 100 < ticks * 5 / 2)) && break
  done
  since "$start"
}

# Times one command, its output to /dev/null; prints seconds.
time_quiet() {
  local start
  start=$(now)
  "$@" >/dev/null
  since "$start"
}

cat_to() { cat "$1" >"$2"; }

# ---- Targets. Each starts from a fresh store and records its figures.

# `cat rows.jsonl > @insert`, the daemon's RSS sampled; then the exports.
target_cellfs_cat() {
  start_cellfs
  local base seconds hwm count wait written store
  base=$(status_kb "$cellfs_pid" VmRSS)
  written=$(written_bytes "$cellfs_pid")
  sync
  start_sampler "$cellfs_pid"
  seconds=$(time_quiet cat_to "$work/rows/rows.jsonl" "$mnt/b/t/@insert")
  stop_sampler
  hwm=$(status_kb "$cellfs_pid" VmHWM)
  record cellfs-insert load "$(rate "$rows" "$seconds")"
  record cellfs-insert rss_max_mb "$(sort -n "$work/rss" | tail -n1 | awk '{ printf "%.1f", $1 / 1024 }')"
  record cellfs-insert hwm_mb "$(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }')"
  echo "  cellfs cat > @insert: $seconds s, $(rate "$rows" "$seconds") rows/s;" \
    "before the load VmRSS $((base / 1024)) MB; during: $(rss_summary); VmHWM after $((hwm / 1024)) MB"
  echo "    VmRSS at 1 s steps (MB): $(rss_series)"
  wait=$(settle "$cellfs_pid")
  echo "    compactions settled $wait s after the load; VmRSS $(($(status_kb "$cellfs_pid" VmRSS) / 1024)) MB"
  written=$(($(written_bytes "$cellfs_pid") - written))
  store=$(du -sb "$work/data" | cut -f1)
  echo "    the daemon wrote $(mb "$written") MB to storage for a store of $(mb "$store") MB" \
    "($(awk -v w="$written" -v s="$store" 'BEGIN { printf "%.1f", w / s }')x; input" \
    "$(mb "$(stat -c %s "$work/rows/rows.jsonl")") MB of JSON)"
  count=$(($(wc -l <"$mnt/b/t/@csv") - 1))
  [[ $count -eq $rows ]] || { echo "run_bulk_bench: @csv has $count rows, want $rows" >&2; exit 1; }
  local kind
  for kind in csv json; do
    seconds=$(time_quiet cat "$mnt/b/t/@$kind")
    record "cellfs-@$kind" export "$(rate "$rows" "$seconds")"
    echo "  cellfs cat @$kind: $seconds s, $(rate "$rows" "$seconds") rows/s"
  done
  echo "    daemon VmHWM after the exports $(($(status_kb "$cellfs_pid" VmHWM) / 1024)) MB"
  stop_cellfs
}

target_cellfs_load() {
  if [[ $("$cellfs" --help) != *" load "* ]]; then
    echo "  cellfs load: not in this build, skipped"
    return 0
  fi
  start_cellfs
  local seconds
  sync
  start_sampler "$cellfs_pid"
  seconds=$(time_quiet "$cellfs" load "$mnt" b.t "$work/rows/rows.jsonl")
  stop_sampler
  record cellfs-load load "$(rate "$rows" "$seconds")"
  echo "  cellfs load: $seconds s, $(rate "$rows" "$seconds") rows/s; $(rss_summary)"
  stop_cellfs
}

# Diagnosis: the same parser and batcher in-process, no FUSE (`load --offline`).
target_cellfs_offline() {
  rm -rf "$work/offline"
  start_cellfs_offline_store
  local seconds
  sync
  seconds=$(time_quiet "$cellfs" load --offline "$work/offline" b.t "$work/rows/rows.jsonl")
  record cellfs-load-offline load "$(rate "$rows" "$seconds")"
  echo "  cellfs load --offline: $seconds s, $(rate "$rows" "$seconds") rows/s (includes open and sync)"
  rm -rf "$work/offline"
}

# An offline store needs the table: made through a short-lived mount.
start_cellfs_offline_store() {
  start_cellfs
  "$cellfs" umount "$mnt"
  wait_exited "$cellfs_pid"
  cellfs_pid=
  mv "$work/data" "$work/offline"
}

# sqlite3 with its defaults (journal_mode=DELETE, synchronous=FULL): .import
# runs in one transaction, synced at its COMMIT. $1 names the variant.
target_sqlite() {
  local variant=$1 db=$work/sqlite.db table_sql pragma="" seconds kind
  table_sql="CREATE TABLE t (p INTEGER, c INTEGER, a TEXT, b INTEGER, d REAL, PRIMARY KEY (p, c))"
  case $variant in
    sqlite-norowid) table_sql+=" WITHOUT ROWID" ;;
    sqlite-rowid) ;;
    sqlite-wal)
      table_sql+=" WITHOUT ROWID"
      pragma="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
      ;;
  esac
  rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
  sqlite3 "$db" "$table_sql;" >/dev/null
  sync
  seconds=$(time_quiet sqlite3 "$db" ${pragma:+-cmd "$pragma"} \
    ".import --csv --skip 1 $work/rows/rows.csv t")
  record "$variant" load "$(rate "$rows" "$seconds")"
  [[ $(sqlite3 "$db" "SELECT count(*) FROM t;") -eq $rows ]] ||
    { echo "run_bulk_bench: $variant stored a wrong count" >&2; exit 1; }
  echo "  $variant .import: $seconds s, $(rate "$rows" "$seconds") rows/s; database" \
    "$(mb "$(stat -c %s "$db")") MB"
  for kind in csv json; do
    seconds=$(time_quiet sqlite3 "$db" ".mode $kind" ".output /dev/null" "SELECT * FROM t;")
    record "$variant-$kind" export "$(rate "$rows" "$seconds")"
    echo "  $variant .mode $kind SELECT *: $seconds s, $(rate "$rows" "$seconds") rows/s"
  done
  rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
}

# The engine's batch API from in-memory inputs (bulk_bench engine), $1 the batch.
target_engine() {
  local line
  sync
  line=$("$bench" engine "$work/engine" "$rows" "$partitions" "$1")
  record "engine-$1" load "${line##*rows_per_s=}"
  echo "  $line"
  rm -rf "$work/engine"
}

echo "== machine"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "$(nproc) cores, $cpu, kernel $(uname -r), libfuse $(pkg-config --modversion fuse3 2>/dev/null)," \
  "sqlite3 $(sqlite3 --version | cut -d' ' -f1), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "work directory $work on $(findmnt -n -o FSTYPE -T "$work")"

echo
echo "== rows: $rows in $partitions partitions of $((rows / partitions))"
"$bench" generate "$work/rows" "$rows" "$partitions"

if [[ -n ${TARGETS:-} ]]; then
  read -r -a targets <<<"$TARGETS"
else
  targets=(cellfs_cat cellfs_load sqlite-norowid sqlite-rowid sqlite-wal engine-mib engine-1000
    cellfs_offline)
fi
run_target() {
  case $1 in
    cellfs_cat) target_cellfs_cat ;;
    cellfs_load) target_cellfs_load ;;
    cellfs_offline) target_cellfs_offline ;;
    sqlite-*) target_sqlite "$1" ;;
    engine-*) target_engine "${1#engine-}" ;;
  esac
}

for round in $(seq "$rounds"); do
  echo
  echo "== round $round (load $(cut -d' ' -f1-3 /proc/loadavg))"
  # Targets take turns going first.
  n=${#targets[@]}
  for i in $(seq 0 $((n - 1))); do
    run_target "${targets[$(((i + (round - 1) * 3) % n))]}"
  done
done

# median TARGET METRIC: the median of the rounds' figures ("" if none).
median() {
  awk -v t="$1" -v m="$2" '$1 == t && $2 == m { print $3 }' "$results" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2fx", a / b; else print "-" }'; }
# pair_ratios A B METRIC: round by round, A's figure over B's (the targets
# ran in the same round, interleaved), as "median [min-max]"; "-" if none.
pair_ratios() {
  local a b
  a=$(awk -v t="$1" -v m="$3" '$1 == t && $2 == m { print $3 }' "$results")
  b=$(awk -v t="$2" -v m="$3" '$1 == t && $2 == m { print $3 }' "$results")
  if [[ -z $a || -z $b ]]; then
    echo "-"
    return
  fi
  paste <(echo "$a") <(echo "$b") | awk '$2 > 0 { print $1 / $2 }' | median_range %.2f
}
verdict() { awk -v r="${1%x}" -v g="$2" 'BEGIN { print (r != "-" && r + 0 >= g) ? "met" : "MISSED" }'; }
# The faster of two targets' medians, as "TARGET VALUE".
faster() {
  local a b
  a=$(median "$1" "$3")
  b=$(median "$2" "$3")
  awk -v ta="$1" -v a="$a" -v tb="$2" -v b="$b" 'BEGIN { if (a + 0 >= b + 0) print ta, a; else print tb, b }'
}

echo
echo "== medians of $rounds rounds"
for target in cellfs-insert cellfs-load cellfs-load-offline sqlite-norowid sqlite-rowid sqlite-wal \
  engine-mib engine-1000; do
  value=$(median "$target" load)
  [[ -n $value ]] && echo "load  $target: $value rows/s"
done
for target in cellfs-@csv cellfs-@json sqlite-norowid-csv sqlite-norowid-json sqlite-rowid-csv \
  sqlite-rowid-json sqlite-wal-csv sqlite-wal-json; do
  echo "export $target: $(median "$target" export) rows/s"
done
echo "daemon during cat > @insert: max VmRSS $(median cellfs-insert rss_max_mb) MB," \
  "VmHWM $(median cellfs-insert hwm_mb) MB (medians over rounds)"

read -r sqlite_peer sqlite_rate < <(faster sqlite-norowid sqlite-rowid load)
read -r engine_peer engine_rate < <(faster engine-mib engine-1000 load)
insert=$(median cellfs-insert load)
load=$(median cellfs-load load)
echo
echo "== ratios (peers: $sqlite_peer, the faster sqlite3 table at default durability;" \
  "$engine_peer, the faster engine batching)"
r=$(ratio "$insert" "$sqlite_rate")
echo "cat > @insert / $sqlite_peer: $r of the medians (goal >= 1.5x: $(verdict "$r" 1.5));" \
  "per round: $(pair_ratios cellfs-insert "$sqlite_peer" load)"
r=$(ratio "$insert" "$engine_rate")
echo "cat > @insert / $engine_peer: $r (goal >= 0.5x: $(verdict "$r" 0.5))"
if [[ -n $load ]]; then
  echo "cellfs load / $sqlite_peer: $(ratio "$load" "$sqlite_rate") of the medians;" \
    "per round: $(pair_ratios cellfs-load "$sqlite_peer" load);" \
    "/ $engine_peer: $(ratio "$load" "$engine_rate")"
fi
if [[ -n $(median cellfs-load-offline load) ]]; then
  echo "cellfs load --offline / $sqlite_peer: per round: $(pair_ratios cellfs-load-offline \
    "$sqlite_peer" load)"
fi
for kind in csv json; do
  echo "export @$kind / $sqlite_peer .mode $kind: $(ratio "$(median "cellfs-@$kind" export)" \
    "$(median "$sqlite_peer-$kind" export)")"
done

if [[ -n $perf_dir ]]; then
  echo
  echo "== perf: one more cat > @insert with perf record -g on the daemon, into $perf_dir"
  mkdir -p "$perf_dir"
  start_cellfs
  # The build has no frame pointers: DWARF unwinding gives whole stacks.
  perf record --call-graph dwarf,16384 -F 997 -o "$perf_dir/perf.data" -p "$cellfs_pid" \
    2>"$perf_dir/perf-record.log" &
  perf_pid=$!
  sleep 1
  seconds=$(time_quiet cat_to "$work/rows/rows.jsonl" "$mnt/b/t/@insert")
  kill -INT "$perf_pid"
  wait "$perf_pid" || true
  echo "load under perf: $seconds s"
  perf report -i "$perf_dir/perf.data" --no-children --sort dso,symbol --stdio -g none \
    >"$perf_dir/report-self.txt" 2>/dev/null
  perf report -i "$perf_dir/perf.data" --children --sort symbol --stdio -g none \
    >"$perf_dir/report-children.txt" 2>/dev/null
  echo "reports: $perf_dir/report-self.txt, $perf_dir/report-children.txt"
  stop_cellfs
fi
