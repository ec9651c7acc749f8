#!/usr/bin/env bash
# Issue 19's benchmark: cellfs mounted on RADOS (a throw-away cluster of
# tools/ceph-test-cluster.sh: 3 memstore OSDs, 3 replicas) beside the same
# work done by raw librados (rados_peer_bench: cellfs's object operations on
# keys and values of the sizes cellfs writes, nothing else) and by cellfs on
# its LevelDB backend, in one run, the targets interleaved in each round:
#   A  bulk load: `cat rows.csv > TABLE/@insert` of ROWS rows in PARTITIONS
#      partitions (RADOS mount, LevelDB mount), the peer's batches (and the
#      peer plus cellfs's batch log and index keys, "peer+log")
#   B  small cells: fs_bench's phases (mkdir row + create/write/close cell,
#      stat, read, ...) over CELLS rows of one partition on both mounts, the
#      peer's synchronous create, stat and read of CELLS keys
#   C  a 10-row slice (`ls PK/@ge=X/@limit=10`, opendir/readdir from one
#      python process, X random) in a WIDE_ROWS- and a NARROW_ROWS-row
#      partition on RADOS, both loaded once through @insert
#   D  two mounts of the pool each loading ROWS rows into a table of its own
#      at the same time, against one mount loading ROWS alone
# Per round: each target's figures; at the end the per-round pair ratios'
# median [min-max] (the targets of a pair ran in the same round).
#
# Usage (as root: it mounts, and starts a cluster of its own in its work
# directory, stopped on exit):
#   make -C build/release cellfs bulk_bench fs_bench rados_peer_bench
#   BUILD_DIR=build/release tools/bench/run_rados_bench.sh
# Environment (defaults): ROWS (100000), ROUNDS (5), PARTITIONS (100),
# CELLS (2000), WIDE_ROWS (1000000), NARROW_ROWS (1000), SLICES (200 per
# partition per round), PARTS ("A B C D": which parts run), BUILD_DIR
# (build/ of this checkout). Smoke run:
#   ROWS=5000 ROUNDS=2 CELLS=100 WIDE_ROWS=20000 SLICES=20 tools/bench/run_rados_bench.sh
# Needs the packages of tools/install-deps.sh (ceph-mon, ceph-osd,
# ceph-common), fusermount3 and python3. Figures: docs/BENCHMARKS.md
# "Scale-out on RADOS (issue 19)".
set -euo pipefail

rows=${ROWS:-100000}
rounds=${ROUNDS:-5}
partitions=${PARTITIONS:-100}
cells=${CELLS:-2000}
wide_rows=${WIDE_ROWS:-1000000}
narrow_rows=${NARROW_ROWS:-1000}
slices=${SLICES:-200}
read -r -a parts <<<"${PARTS:-A B C D}"
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
bulk=$build/tools/bench/bulk_bench
fsbench=$build/tools/bench/fs_bench
peer=$build/tools/bench/rados_peer_bench
cluster_script=$repo/tools/ceph-test-cluster.sh

for binary in "$cellfs" "$bulk" "$fsbench" "$peer"; do
  if [[ ! -x $binary ]]; then
    echo "run_rados_bench: $binary is missing;" \
      "run: make -C BUILD_DIR cellfs bulk_bench fs_bench rados_peer_bench" >&2
    exit 1
  fi
done
[[ $EUID -eq 0 ]] || { echo "run_rados_bench: run as root (it mounts, starts ceph)" >&2; exit 1; }
for tool in fusermount3 python3 rados ceph-osd; do
  command -v "$tool" >/dev/null || { echo "run_rados_bench: $tool is missing" >&2; exit 1; }
done
if ((slices > narrow_rows - 10 || partitions > rows)); then
  echo "run_rados_bench: want SLICES <= NARROW_ROWS - 10 and PARTITIONS <= ROWS" >&2
  exit 2
fi

work=$(mktemp -d /tmp/cellfs-rados-bench.XXXXXX)
cluster=$work/cluster
rmnt=$work/rados    # mount A of the pool
r2mnt=$work/rados2  # mount B of the pool (part D)
lmnt=$work/leveldb  # the LevelDB mount, its store in $work/data
mkdir -p "$rmnt" "$r2mnt" "$lmnt"
results=$work/results
: >"$results"
rados_pid=
rados2_pid=
leveldb_pid=
cluster_started=

# shellcheck disable=SC2034  # read by mount_wait.sh
bench_name=run_rados_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  show_logs_if_failed "$rc" "$work"
  unmount_all "$rmnt" "$r2mnt" "$lmnt"
  # shellcheck disable=SC2086  # an unset pid is no argument
  reap_all $rados_pid $rados2_pid $leveldb_pid
  [[ -n $cluster_started ]] && "$cluster_script" stop "$cluster"
  if grep -q " $work/" /proc/self/mounts; then
    echo "run_rados_bench: something is still mounted under $work; not removing it" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

began=$SECONDS
load() { cut -d' ' -f1-3 /proc/loadavg; }
# record PART TARGET METRIC VALUE (one round's figure)
record() { echo "$1 $2 $3 $4" >>"$results"; }
values() { awk -v p="$1" -v t="$2" -v m="$3" '$1 == p && $2 == t && $3 == m { print $4 }' "$results"; }
# range PART TARGET METRIC: median [min-max] over the rounds
range() { values "$@" | median_range "${4:-%.0f}"; }
# pair PART A B METRIC [FORMAT]: median [min-max] of the rounds' A/B ratios
pair() {
  paste <(values "$1" "$2" "$4") <(values "$1" "$3" "$4") | awk '$2 > 0 { print $1 / $2 }' |
    median_range "${5:-%.2f}"
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
cat_to() { cat "$1" >"$2"; }
# CPU seconds (user + system) used so far by the processes given.
cpu_seconds() {
  local pid ticks=0
  for pid in "$@"; do ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
# since CPU_SECONDS_BEFORE PID...: the CPU seconds the processes used since.
since() { awk -v a="$1" -v b="$(cpu_seconds "${@:2}")" 'BEGIN { printf "%.2f", b - a }'; }
rados_cli() { rados -c "$conf" -p cellfs -N bench --admin-socket= "$@" 2>/dev/null; }

# mount_rados MNT: a daemon of the pool's namespace `bench` on MNT; its pid
# in $mounted_pid.
mount_rados() {
  "$cellfs" mount -f "rados:cellfs?conf=$conf&ns=bench" "$1" 2>>"$work/$(basename "$1").log" &
  mounted_pid=$!
  wait_mounted "$mounted_pid" "$1"
}
cql() { "$cellfs" cql "$1" -f "$2" >/dev/null; }
# count MNT TABLE: the table's rows (its @count), checked against $3.
check_count() {
  local n
  n=$(cat "$1/b/$2/@count")
  [[ $n -eq $3 ]] || { echo "run_rados_bench: $1 b.$2 holds $n rows, want $3" >&2; exit 1; }
}

echo "== machine"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "$(nproc) cores, $cpu, $(free -g | awk '/^Mem:/ { print $2 }') GB, kernel $(uname -r)," \
  "ceph $(ceph-osd --version | awk '{ print $3 }'), libfuse $(pkg-config --modversion fuse3)"
echo "uptime before: $(uptime)"
echo "work directory $work ($(findmnt -n -o FSTYPE -T "$work"))"
echo "ROWS=$rows ROUNDS=$rounds PARTITIONS=$partitions CELLS=$cells WIDE_ROWS=$wide_rows" \
  "NARROW_ROWS=$narrow_rows SLICES=$slices PARTS=\"${parts[*]}\""

echo
echo "== setup"
start=$SECONDS
conf=$("$cluster_script" start "$cluster" | tail -n1)
cluster_started=1
mapfile -t osds < <(cat "$cluster"/run/osd.*.pid)
echo "cluster up in $((SECONDS - start)) s: $conf (1 mon, 3 memstore OSDs, pool cellfs: 3 replicas)"
mount_rados "$rmnt"
rados_pid=$mounted_pid
"$cellfs" mount -f "$work/data" "$lmnt" 2>>"$work/leveldb.log" &
leveldb_pid=$!
wait_mounted "$leveldb_pid" "$lmnt"
bulk_columns="(p int, c int, a text, b bigint, d double, PRIMARY KEY (p, c))"
cell_columns="(p int, c int, v text, PRIMARY KEY (p, c))"
{
  echo "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};"
  echo "CREATE TABLE b.cal $bulk_columns;"
  echo "CREATE TABLE b.calc $cell_columns;"
  echo "CREATE TABLE b.w $bulk_columns;"
  for r in $(seq "$rounds"); do
    echo "CREATE TABLE b.t$r $bulk_columns;"
    echo "CREATE TABLE b.s$r $cell_columns;"
    echo "CREATE TABLE b.d${r}_0 $bulk_columns;"
    echo "CREATE TABLE b.d${r}_1 $bulk_columns;"
    echo "CREATE TABLE b.d${r}_2 $bulk_columns;"
  done
} >"$work/schema.cql"
cql "$rmnt" "$work/schema.cql"
cql "$lmnt" "$work/schema.cql"
"$bulk" generate "$work/rows" "$rows" "$partitions" >/dev/null
per_partition=$(((rows + partitions - 1) / partitions))
echo "rows: $rows in $partitions partitions of $per_partition (bulk_bench generate: p, c, a text" \
  "of ~17 chars, b bigint, d double), $(stat -c %s "$work/rows/rows.csv") bytes of CSV"

# The sizes the peer writes, measured: a partition of the rows loaded
# through the RADOS mount (the only partition object so far), then one
# small cell written as fs_bench writes them.
head -n $((per_partition + 1)) "$work/rows/rows.csv" >"$work/cal.csv"
cat_to "$work/cal.csv" "$rmnt/b/cal/@insert"
rados_cli ls | grep '^p\.' | sort >"$work/objects-before"
[[ $(wc -l <"$work/objects-before") -eq 1 ]] ||
  { echo "run_rados_bench: want one partition object after the calibration load" >&2; exit 1; }
# omap_sizes OBJECT: "KEYS MEAN_KEY_BYTES MEAN_VALUE_BYTES MAX_VALUE_KEY_BYTES MAX_VALUE_BYTES"
omap_sizes() {
  rados_cli listomapvals "$1" | awk '
    /^key \(/ { gsub(/\(/, ""); k = $2; keys += k; n++ }
    /^value \(/ { gsub(/\(/, ""); v = $2; vals += v; if (v > maxv) { maxv = v; maxk = k } }
    END { printf "%d %.0f %.0f %d %d\n", n, keys / n, vals / n, maxk, maxv }'
}
read -r n bulk_key bulk_value _ _ < <(omap_sizes "$(cat "$work/objects-before")")
echo "measured (rados listomapvals of the partition object): $n keys, mean key $bulk_key B," \
  "mean value $bulk_value B; the peer's bulk rows: keys of $bulk_key B, values of $bulk_value B"
mkdir -p "$rmnt/b/calc/1/$((cells / 2))"
echo "cell value $((cells / 2))" >"$rmnt/b/calc/1/$((cells / 2))/v"
cell_object=$(rados_cli ls | grep '^p\.' | sort | comm -13 "$work/objects-before" -)
read -r n _ _ cell_key cell_value < <(omap_sizes "$cell_object")
echo "measured: a small cell (\"cell value $((cells / 2))\") is $n keys in its partition object" \
  "(row marker, the empty cell O_TRUNC writes, the value); the value's key $cell_key B, value" \
  "$cell_value B: the peer's cells"

if [[ " ${parts[*]} " == *" C "* ]]; then
  "$bulk" generate "$work/wide" "$wide_rows" 1 >/dev/null
  "$bulk" generate "$work/narrow" "$narrow_rows" 1 >/dev/null
  awk -F, -v OFS=, 'NR > 1 { $1 = 1 } 1' "$work/narrow/rows.csv" >"$work/narrow.csv"
  secs=$(seconds cat_to "$work/wide/rows.csv" "$rmnt/b/w/@insert")
  cat_to "$work/narrow.csv" "$rmnt/b/w/@insert"
  echo "part C's partitions loaded: $wide_rows rows into b.w partition 0 in $secs s" \
    "($(rate "$wide_rows" "$secs") rows/s, one partition object), $narrow_rows into partition 1"
  rm -rf "$work/wide" "$work/narrow"
fi
echo "setup took $((SECONDS - began)) s; load $(load)"

# ---- Part A: bulk load.
bulk_rados() {
  local secs before osd
  before=$(cpu_seconds "$rados_pid")
  osd=$(cpu_seconds "${osds[@]}")
  secs=$(seconds cat_to "$work/rows/rows.csv" "$rmnt/b/t$1/@insert")
  record A rados rate "$(rate "$rows" "$secs")"
  record A rados daemon_cpu "$(since "$before" "$rados_pid")"
  record A rados osd_cpu "$(since "$osd" "${osds[@]}")"
  check_count "$rmnt" "t$1" "$rows"
  echo "  rados    @insert: $secs s, $(rate "$rows" "$secs") rows/s"
}
bulk_leveldb() {
  local secs
  secs=$(seconds cat_to "$work/rows/rows.csv" "$lmnt/b/t$1/@insert")
  record A leveldb rate "$(rate "$rows" "$secs")"
  check_count "$lmnt" "t$1" "$rows"
  echo "  leveldb  @insert: $secs s, $(rate "$rows" "$secs") rows/s"
}
# bulk_peer ROUND [logged]
bulk_peer() {
  local line name=peer osd
  [[ $# -eq 2 ]] && name="peer+log"
  osd=$(cpu_seconds "${osds[@]}")
  line=$("$peer" bulk "$conf" cellfs bench-peer "$1" "$rows" "$partitions" "$bulk_key" \
    "$bulk_value" "${@:2}")
  record A "$name" rate "${line##*rows_per_s=}"
  record A "$name" osd_cpu "$(since "$osd" "${osds[@]}")"
  printf '  %-8s %s\n' "$name" "${line#rados_peer_bench bulk }"
}
part_a() {
  echo
  echo "== A: bulk load of $rows rows, $partitions partitions"
  local r i targets=(rados leveldb peer peer+log)
  for r in $(seq "$rounds"); do
    echo "round $r (load $(load))"
    for i in 0 1 2 3; do
      case ${targets[$(((i + r - 1) % 4))]} in
        rados) bulk_rados "$r" ;;
        leveldb) bulk_leveldb "$r" ;;
        peer) bulk_peer "$r" ;;
        peer+log) bulk_peer "$((r + 1000))" logged ;;
      esac
    done
  done
}

# ---- Part B: small cells.
# fs_bench_rate OUTPUT TARGET PHASE-WORD: the round's rate.
fs_bench_rate() { awk -v t="$2" -v w="$3" '$1 == t && $2 == w { print $NF }' <<<"$1"; }
cells_peer() { "$peer" cells "$conf" cellfs bench-peer "$(($1 + 2000))" "$cells" "$cell_key" "$cell_value"; }
part_b() {
  echo
  echo "== B: small cells, $cells rows of one partition (fs_bench phases; peer: per cell" \
    "one omap_set, then one omap_get_vals_by_keys as stat and one as read)"
  local r out line word phase order
  for r in $(seq "$rounds"); do
    echo "round $r (load $(load))"
    order=("rados=$rmnt/b/s$r" "leveldb=$lmnt/b/s$r")
    ((r % 2 == 0)) && order=("${order[1]}" "${order[0]}")
    # The peer goes first in odd rounds, last in even ones.
    if ((r % 2 == 1)); then line=$(cells_peer "$r"); fi
    out=$("$fsbench" "$cells" 1 "${order[@]}")
    if ((r % 2 == 0)); then line=$(cells_peer "$r"); fi
    for target in rados leveldb; do
      for word in create stat read list extra: delete; do
        phase=${word%:}
        [[ $phase == extra ]] && phase=restat
        record B "$target" "$phase" "$(fs_bench_rate "$out" "$target" "$word")"
      done
      echo "  $target: create $(values B "$target" create | tail -n1)/s, stat" \
        "$(values B "$target" stat | tail -n1)/s, read $(values B "$target" read | tail -n1)/s," \
        "list $(values B "$target" list | tail -n1) entries/s, stat after 1.5 s" \
        "$(values B "$target" restat | tail -n1)/s, delete $(values B "$target" delete | tail -n1)/s"
    done
    for phase in create stat read; do
      line=${line#*"${phase}_us="}
      record B peer "${phase}_us" "${line%% *}"
      record B peer "$phase" "$(awk -v us="${line%% *}" 'BEGIN { printf "%.0f", 1e6 / us }')"
    done
    echo "  peer: create $(values B peer create | tail -n1)/s, stat $(values B peer stat | tail -n1)/s," \
      "read $(values B peer read | tail -n1)/s"
  done
}

# ---- Part C: a 10-row slice, wide partition against narrow.
# slice_us PARTITION ROWS: mean microseconds of SLICES listings of
# `@ge=X/@limit=10` at distinct random X, each checked to list 10 rows.
slice_us() {
  python3 - "$rmnt/b/w/$1" "$2" "$slices" <<'EOF'
import os, random, sys, time
directory, rows, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
starts = random.sample(range(rows - 10), count)
begin = time.perf_counter()
for x in starts:
    listed = os.listdir(f"{directory}/@ge={x}/@limit=10")
    if len(listed) != 10:
        sys.exit(f"run_rados_bench: {directory}/@ge={x}/@limit=10 lists {len(listed)} rows")
print(f"{(time.perf_counter() - begin) / count * 1e6:.0f}")
EOF
}
part_c() {
  echo
  echo "== C: a 10-row slice (ls PK/@ge=X/@limit=10), $wide_rows-row partition against" \
    "$narrow_rows-row, $slices slices each per round"
  local r wide narrow
  for r in $(seq "$rounds"); do
    if ((r % 2 == 1)); then
      wide=$(slice_us 0 "$wide_rows")
      narrow=$(slice_us 1 "$narrow_rows")
    else
      narrow=$(slice_us 1 "$narrow_rows")
      wide=$(slice_us 0 "$wide_rows")
    fi
    record C wide us "$wide"
    record C narrow us "$narrow"
    echo "round $r (load $(load)): $wide µs in the wide partition, $narrow µs in the narrow one"
  done
}

# ---- Part D: two mounts loading at once.
part_d() {
  echo
  echo "== D: two mounts of the pool each loading $rows rows at once, against one alone"
  mount_rados "$r2mnt"
  rados2_pid=$mounted_pid
  local r secs one two begin end
  for r in $(seq "$rounds"); do
    if ((r % 2 == 1)); then
      secs=$(seconds cat_to "$work/rows/rows.csv" "$rmnt/b/d${r}_0/@insert")
    fi
    begin=$(date +%s.%N)
    (seconds cat_to "$work/rows/rows.csv" "$rmnt/b/d${r}_1/@insert" >"$work/one") &
    one=$!
    (seconds cat_to "$work/rows/rows.csv" "$r2mnt/b/d${r}_2/@insert" >"$work/two") &
    two=$!
    wait "$one" "$two"
    end=$(date +%s.%N)
    if ((r % 2 == 0)); then
      secs=$(seconds cat_to "$work/rows/rows.csv" "$rmnt/b/d${r}_0/@insert")
    fi
    check_count "$rmnt" "d${r}_1" "$rows"
    check_count "$r2mnt" "d${r}_2" "$rows"
    record D single rate "$(rate "$rows" "$secs")"
    record D both rate "$(rate $((2 * rows)) "$(awk -v a="$begin" -v b="$end" 'BEGIN { print b - a }')")"
    echo "round $r (load $(load)): one mount $(rate "$rows" "$secs") rows/s; two at once" \
      "$(values D both rate | tail -n1) rows/s combined (each: $(rate "$rows" "$(cat "$work/one")")," \
      "$(rate "$rows" "$(cat "$work/two")") rows/s)"
  done
  "$cellfs" umount "$r2mnt"
  wait_exited "$rados2_pid"
  rados2_pid=
}

for part in "${parts[@]}"; do
  case $part in
    A) part_a ;;
    B) part_b ;;
    C) part_c ;;
    D) part_d ;;
    *) echo "run_rados_bench: unknown part $part" >&2; exit 2 ;;
  esac
done

echo
echo "== summary: median [min-max] over $rounds rounds; ratios of the per-round pairs"
if [[ " ${parts[*]} " == *" A "* ]]; then
  echo "A bulk @insert, rows/s: rados $(range A rados rate), leveldb $(range A leveldb rate)," \
    "peer $(range A peer rate), peer+log $(range A peer+log rate)"
  echo "A   rados / peer:     $(pair A rados peer rate)"
  echo "A   rados / peer+log: $(pair A rados peer+log rate)"
  echo "A   rados / leveldb:  $(pair A rados leveldb rate)"
  echo "A   peer+log / peer:  $(pair A peer+log peer rate)"
  echo "A   CPU s per load: rados daemon $(range A rados daemon_cpu %.2f), OSDs under the" \
    "mount $(range A rados osd_cpu %.2f), OSDs under the peer $(range A peer osd_cpu %.2f)"
fi
if [[ " ${parts[*]} " == *" B "* ]]; then
  for phase in create stat read; do
    echo "B $phase per second: rados $(range B rados "$phase"), leveldb $(range B leveldb "$phase")," \
      "peer $(range B peer "$phase") ($(range B peer "${phase}_us" %.0f) µs);" \
      "rados/peer $(pair B rados peer "$phase"), rados/leveldb $(pair B rados leveldb "$phase")"
  done
  for phase in list restat delete; do
    echo "B $phase (fs_bench) per second: rados $(range B rados "$phase")," \
      "leveldb $(range B leveldb "$phase"); rados/leveldb $(pair B rados leveldb "$phase")"
  done
fi
if [[ " ${parts[*]} " == *" C "* ]]; then
  echo "C 10-row slice µs: wide $(range C wide us), narrow $(range C narrow us);" \
    "wide/narrow $(pair C wide narrow us)"
fi
if [[ " ${parts[*]} " == *" D "* ]]; then
  echo "D rows/s: one mount $(range D single rate), two at once $(range D both rate);" \
    "two/one $(pair D both single rate)"
fi
echo "uptime after: $(uptime)"
echo "run took $((SECONDS - began)) s"
