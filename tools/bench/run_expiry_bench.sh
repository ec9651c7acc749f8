#!/usr/bin/env bash
# Issue 18's mass-expiry benchmark: ROWS rows (1000 partitions of ROWS/1000
# rows) written through @insert@ttl=TTL into a fresh mount, all expiring
# within the few seconds the load took; the daemon's CPU time (user +
# system, /proc/PID/stat) from just before the first expiry until the
# sweeper is done (under 50 ms of CPU a second for 3 s in a row), its VmHWM
# after, and its
# VmRSS then (what it keeps), beside sqlite3 deleting the same rows with an
# indexed `DELETE FROM t WHERE expires <= ?` (CPU of the statement alone).
# Binaries A and B (e.g. before and after a change) take turns, A B A B ...,
# each on a fresh data directory. Prints each figure's median [min-max] per
# side and the per-round ratios B/A and cellfs/sqlite3.
#
# Usage (as root):
#   tools/bench/run_expiry_bench.sh CELLFS_A CELLFS_B [ROWS=1000000] [ROUNDS=3] [TTL=30]
# Figures: docs/BENCHMARKS.md "Mass expiry".
set -euo pipefail

a=$1
b=$2
rows=${3:-1000000}
rounds=${4:-3}
ttl=${5:-30}
repo=$(cd "$(dirname "$0")/../.." && pwd)
for binary in "$a" "$b"; do
  [[ -x $binary ]] || { echo "run_expiry_bench: $binary is missing" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "run_expiry_bench: needs sqlite3" >&2; exit 1; }
work=$(mktemp -d /tmp/cellfs-expiry-bench.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
pid=
bench_name=run_expiry_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"
cleanup() {
  set +e
  is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  [[ -n $pid ]] && { wait_exited "$pid" || kill "$pid"; }
  rm -rf "$work"
}
trap cleanup EXIT

per=$((rows / 1000))
awk -v per="$per" 'BEGIN { print "p,c,v"; for (p = 0; p < 1000; p++) for (c = 0; c < per; c++)
  printf "%d,%d,value %d\n", p, c, c }' >"$work/rows.csv"
ticks=$(getconf CLK_TCK)
cpu_seconds() { awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$1/stat"; }
mb() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

cellfs_round() {  # cellfs_round BINARY SIDE ROUND
  local data=$work/data-$2-$3 cpu0 cpu last still start
  "$1" mount -f "$data" "$mnt" 2>>"$work/cellfs.log" &
  pid=$!
  wait_mounted "$pid" "$mnt"
  printf '%s\n' \
    "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
    "CREATE TABLE b.e (p int, c int, v text, PRIMARY KEY (p, c));" >"$mnt/@cql"
  start=$(date +%s)
  cat "$work/rows.csv" >"$mnt/b/e/@insert@ttl=$ttl"
  # Until just before the first row expires: the load's own work settles.
  while (($(date +%s) < start + ttl - 1)); do sleep 0.5; done
  cpu0=$(cpu_seconds "$pid")
  last=$cpu0
  still=0
  while ((still < 3)); do
    sleep 1
    cpu=$(cpu_seconds "$pid")
    if (($(echo "$cpu - $last < 0.05" | bc -l))) && (($(date +%s) > start + ttl + 2)); then
      still=$((still + 1))
    else
      still=0
    fi
    last=$cpu
  done
  [[ $(ls -U "$mnt/b/e" | wc -l) -eq 0 ]] || { echo "run_expiry_bench: rows left" >&2; exit 1; }
  echo "$3 $2 $(echo "$last - $cpu0" | bc -l) $(mb "$pid" VmHWM) $(mb "$pid" VmRSS)" |
    tee -a "$work/cellfs"
  fusermount3 -u "$mnt"
  wait_exited "$pid"
  pid=
  rm -rf "$data"
}

sqlite_round() {  # sqlite_round ROUND: CPU seconds of the indexed DELETE
  local db=$work/sqlite-$1.db
  {
    echo "CREATE TABLE t (p INTEGER, c INTEGER, v TEXT, expires INTEGER, PRIMARY KEY (p, c));"
    echo "CREATE INDEX t_expires ON t (expires);"
    echo ".mode csv"
    echo ".import $work/rows.csv raw"
    echo "INSERT INTO t SELECT p, c, v, 1000 + (rowid % 5) FROM raw; DROP TABLE raw;"
  } | sqlite3 "$db"
  /usr/bin/time -f "%U %S" -o "$work/sqlite-time" sqlite3 "$db" \
    "DELETE FROM t WHERE expires <= 1004;" >/dev/null
  [[ $(sqlite3 "$db" "SELECT count(*) FROM t;") -eq 0 ]] || { echo "sqlite left rows" >&2; exit 1; }
  awk -v r="$1" '{ print r, $1 + $2 }' "$work/sqlite-time" | tee -a "$work/sqlite"
  rm -f "$db"
}

echo "== $(nproc) cores, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rows rows, TTL $ttl s, $rounds rounds"
for round in $(seq "$rounds"); do
  cellfs_round "$a" A "$round"
  cellfs_round "$b" B "$round"
  sqlite_round "$round"
done

side() { awk -v s="$1" -v c="$2" '$2 == s { print $c }' "$work/cellfs" | median_range; }
for col in "3 sweeper CPU (s)" "4 daemon VmHWM (MB)" "5 daemon VmRSS after (MB)"; do
  c=${col%% *}
  printf '  %-28s A: %s  B: %s  B/A: %s\n' "${col#* }" "$(side A "$c")" "$(side B "$c")" \
    "$(awk -v c="$c" '$2 == "A" { a[$1] = $c } $2 == "B" { print $c / a[$1] }' "$work/cellfs" |
      median_range)"
done
printf '  %-28s %s\n' "sqlite3 DELETE CPU (s)" "$(awk '{ print $2 }' "$work/sqlite" | median_range)"
for s in A B; do
  printf '  %-28s %s\n' "$s / sqlite3 CPU" "$(awk -v s="$s" 'NR == FNR { q[$1] = $2; next }
    $2 == s { print $3 / q[$1] }' "$work/sqlite" "$work/cellfs" | median_range)"
done
