#!/usr/bin/env bash
# Issue 13's data-path benchmark: two cellfs binaries, BEFORE and AFTER, on
# five data paths through real mounts (path_bench.cc says what each
# operation is): 1 cat of a cell, 2 echo V > cell, 3 ls -U of a 1000-row
# partition, 4 ls -U of a table without clustering columns (2000 partitions)
# and of one of its partition directories, 5 @insert of 20k JSON lines.
#
# Usage (as root or a user who may mount FUSE):
#   cmake --build build --target cellfs path_bench
#   tools/bench/run_path_bench.sh BEFORE_CELLFS AFTER_CELLFS [ROUNDS=10]
# Environment: BUILD_DIR (where path_bench is; default build/ of this
# checkout) or PATH_BENCH (the driver itself); MOUNT_OPTS, extra `-o`
# options for both mounts (default none: cellfs's 60 s entry and attribute
# timeouts; `entry_timeout=0,attr_timeout=0` makes every operation walk its
# path with LOOKUPs); WIDE_ROWS (1000), KV_PARTITIONS (2000).
#
# Method: each binary gets its own data directory. First, one at a time,
# each is mounted with `-o debug` (foreground): the schema and the data are
# written (path_bench setup), and the requests per operation are counted
# from libfuse's "unique: N, opcode: OP" lines: after an uncounted priming
# run, each path runs twice with N1 and N2 operations, and (lines of the
# second - lines of the first) / (N2 - N1) cancels what does not recur per
# operation (the process's warm-up operation and its lookups). Then both are mounted without debug at once, and each
# round runs every path on BEFORE and on AFTER back to back (the order
# alternates per round: A B, B A, ...); a sample is OPS operations timed as
# a whole after one untimed operation. Per path: median time per
# operation per binary, and the median [min-max] of the rounds' AFTER/BEFORE
# ratios; the same for the daemon's CPU time per operation (its process
# CPU clock, read by path_bench around each timed sample). Figures:
# docs/BENCHMARKS.md "Data paths (issue 13)".
set -euo pipefail

usage="usage: $0 BEFORE_CELLFS AFTER_CELLFS [ROUNDS=10]"
[[ $# -ge 2 && $# -le 3 ]] || { echo "$usage" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
declare -A binary
binary[before]=$(realpath "$1")
binary[after]=$(realpath "$2")
rounds=${3:-10}
bench=${PATH_BENCH:-${BUILD_DIR:-$repo/build}/tools/bench/path_bench}
mount_opts=${MOUNT_OPTS:-}
wide_rows=${WIDE_ROWS:-1000}
kv_partitions=${KV_PARTITIONS:-2000}

paths=(cat echo ls-wide ls-kv ls-kv-partition insert)
# Operations per timed sample: each sample a few tenths of a second.
declare -A sample_ops=([cat]=2000 [echo]=1000 [ls-wide]=50 [ls-kv]=20
  [ls-kv-partition]=1000 [insert]=2)
# Operations of the two counting runs (N1 N2).
declare -A count_ops=([cat]="10 110" [echo]="10 110" [ls-wide]="5 25" [ls-kv]="3 23"
  [ls-kv-partition]="10 110" [insert]="1 3")

for b in "${binary[@]}" "$bench"; do
  [[ -x $b ]] || { echo "run_path_bench: $b is missing or not executable" >&2; exit 1; }
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
command -v python3 >/dev/null || { echo "run_path_bench: python3 is needed" >&2; exit 1; }

work=$(mktemp -d /tmp/cellfs-path-bench.XXXXXX)
declare -A pid=([before]="" [after]="")
for side in before after; do mkdir -p "$work/$side/data" "$work/$side/mnt"; done

bench_name=run_path_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  for side in before after; do
    if [[ $rc -ne 0 && -s $work/$side/daemon.log ]]; then
      { echo "--- $side daemon log (last lines)"; tail -n 20 "$work/$side/daemon.log"; } >&2
    fi
    is_mounted "$work/$side/mnt" && fusermount3 -u -z "$work/$side/mnt"
  done
  for side in before after; do
    [[ -n ${pid[$side]} ]] && { wait_exited "${pid[$side]}" || kill "${pid[$side]}"; }
  done
  # Never rm -r through a live mount.
  if grep -q " $work/" /proc/self/mounts; then
    echo "run_path_bench: a mount under $work remains; leaving it" >&2
  else
    rm -rf "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM HUP
trap 'exit 130' INT

# start SIDE [OPTION]: mounts SIDE's data directory in the foreground with
# MOUNT_OPTS plus OPTION; stderr goes to LOG (the debug log when debugging).
start() {
  local side=$1 extra=${2:-} opts
  opts=$(printf '%s,%s' "$mount_opts" "$extra" | sed 's/^,*//; s/,*$//')
  local -a args=(mount -f)
  [[ -n $opts ]] && args+=(-o "$opts")
  env --default-signal=INT "${binary[$side]}" "${args[@]}" "$work/$side/data" \
    "$work/$side/mnt" 2>>"$work/$side/${extra:-daemon}.log" &
  pid[$side]=$!
  wait_mounted "${pid[$side]}" "$work/$side/mnt"
}

stop() {
  fusermount3 -u "$work/$1/mnt"
  wait_exited "${pid[$1]}"
  pid[$1]=""
}

# Waits until FILE has stopped growing (the asynchronous RELEASEs logged).
settle() {
  local before after
  for _ in $(seq 50); do
    before=$(stat -c %s "$1")
    sleep 0.3
    after=$(stat -c %s "$1")
    [[ $before == "$after" ]] && return 0
  done
}

echo "== machine"
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "kernel $(uname -r), libfuse $(pkg-config --modversion fuse3 2>/dev/null || echo '?')," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
for side in before after; do
  echo "$side: ${binary[$side]} (sha256 $(sha256sum "${binary[$side]}" | cut -c1-12)," \
    "$(date -r "${binary[$side]}" '+%F %T'))"
done
echo "mount options: ${mount_opts:-(cellfs defaults)}; $rounds rounds;" \
  "wide partition $wide_rows rows; kv table $kv_partitions partitions"

# Setup and request counts, one binary at a time, under -o debug.
for side in before after; do
  echo "== $side: setup and request counts (-o debug)"
  start "$side" debug
  log=$work/$side/debug.log
  mnt=$work/$side/mnt
  "$bench" setup "$mnt" "$wide_rows" "$kv_partitions" >/dev/null
  for path in "${paths[@]}"; do
    read -r n1 n2 <<<"${count_ops[$path]}"
    "$bench" "$path" "$mnt" "$n1" >/dev/null  # primes: both counted runs start alike
    settle "$log"
    o0=$(stat -c %s "$log")
    "$bench" "$path" "$mnt" "$n1" >/dev/null
    settle "$log"
    o1=$(stat -c %s "$log")
    "$bench" "$path" "$mnt" "$n2" >/dev/null
    settle "$log"
    o2=$(stat -c %s "$log")
    python3 - "$log" "$o0" "$o1" "$o2" "$n1" "$n2" "$side" "$path" >>"$work/counts.jsonl" <<'EOF'
import collections, json, re, sys
log, o0, o1, o2, n1, n2, side, path = sys.argv[1:]
o0, o1, o2, n1, n2 = map(int, (o0, o1, o2, n1, n2))
with open(log, 'rb') as f:
    data = f.read(o2)
def ops(chunk):
    return collections.Counter(re.findall(rb'opcode: ([A-Z_]+)', chunk))
first, second = ops(data[o0:o1]), ops(data[o1:o2])
per_op = {k.decode(): (second[k] - first[k]) / (n2 - n1) for k in set(first) | set(second)}
print(json.dumps({"side": side, "path": path, "per_op": per_op}))
EOF
  done
  stop "$side"
done

# Timing: both mounted, without debug.
echo "== timing: $rounds rounds"
for side in before after; do start "$side"; done
sleep 3  # let the compactions of the replayed logs finish
for round in $(seq "$rounds"); do
  if ((round % 2)); then order=(before after); else order=(after before); fi
  for path in "${paths[@]}"; do
    for side in "${order[@]}"; do
      line=$(DAEMON_PID=${pid[$side]} "$bench" "$path" "$work/$side/mnt" "${sample_ops[$path]}")
      echo "{\"side\":\"$side\",\"round\":$round,\"run\":$line}" >>"$work/times.jsonl"
    done
  done
  echo "round $round done"
done
for side in before after; do stop "$side"; done

python3 - "$work/counts.jsonl" "$work/times.jsonl" "$wide_rows" "$kv_partitions" <<'EOF'
import collections, json, statistics, sys
counts_file, times_file, wide_rows, kv_partitions = sys.argv[1:]
labels = {
    "cat": "1. cat cell (open, read to EOF, close)",
    "echo": "2. echo V > cell (open O_TRUNC, write, close)",
    "ls-wide": f"3. ls -U partition of {wide_rows} rows",
    "ls-kv": f"4a. ls -U table without clustering, {kv_partitions} partitions",
    "ls-kv-partition": "4b. ls -U partition dir of that table (3 cells)",
    "insert": "5. @insert of 20000 JSON lines (5.0 MB)",
}
expected_entries = {"ls-wide": int(wide_rows), "ls-kv": int(kv_partitions),
                    "ls-kv-partition": 3}
counts = {}
for line in open(counts_file):
    c = json.loads(line)
    counts[(c["side"], c["path"])] = c["per_op"]
times = collections.defaultdict(dict)  # (path, round) -> side -> ns/op
cpu = collections.defaultdict(dict)  # (path, round) -> side -> daemon CPU ns/op
ops = {}
for line in open(times_file):
    t = json.loads(line)
    run = t["run"]
    want = expected_entries.get(run["path"])
    if want is not None and run["entries"] != want:
        sys.exit(f"run_path_bench: {run['path']} listed {run['entries']} entries, not {want}")
    times[(run["path"], t["round"])][t["side"]] = run["ns"] / run["ops"]
    if run.get("daemon_cpu_ns", -1) < 0:
        sys.exit("run_path_bench: the daemon's CPU clock could not be read")
    cpu[(run["path"], t["round"])][t["side"]] = run["daemon_cpu_ns"] / run["ops"]
    ops[run["path"]] = run["ops"]

def fmt_time(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.1f} µs"

def total(per_op):
    return sum(per_op.values())

def breakdown(per_op):
    order = ["LOOKUP", "GETATTR", "SETATTR", "GETXATTR", "OPEN", "OPENDIR", "CREATE", "READ",
             "READDIR", "READDIRPLUS", "WRITE", "FLUSH", "FSYNC", "RELEASE", "RELEASEDIR",
             "FORGET", "BATCH_FORGET"]
    keys = sorted(per_op, key=lambda k: (order.index(k) if k in order else len(order), k))
    parts = [f"{k} {per_op[k]:.2f}".rstrip("0").rstrip(".") for k in keys if abs(per_op[k]) > 1e-9]
    return " ".join(parts) + f" = {total(per_op):.1f} req/op"

print()
print("| path | ops/sample | req/op before | req/op after | before, median/op "
      "| after, median/op | after/before median [min–max] |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
for path in labels:
    rounds = sorted(r for (p, r) in times if p == path)
    before = [times[(path, r)]["before"] for r in rounds]
    after = [times[(path, r)]["after"] for r in rounds]
    ratios = [a / b for a, b in zip(after, before)]
    print(f"| {labels[path]} | {ops[path]} | {total(counts[('before', path)]):.1f} "
          f"| {total(counts[('after', path)]):.1f} "
          f"| {fmt_time(statistics.median(before))} | {fmt_time(statistics.median(after))} "
          f"| {statistics.median(ratios):.3f} [{min(ratios):.3f}–{max(ratios):.3f}] |")
print()
print("Daemon CPU time per operation (all its threads, during the timed samples):")
print()
print("| path | before, median/op | after, median/op | after/before median [min–max] |")
print("| --- | ---: | ---: | --- |")
for path in labels:
    rounds = sorted(r for (p, r) in cpu if p == path)
    before = [cpu[(path, r)]["before"] for r in rounds]
    after = [cpu[(path, r)]["after"] for r in rounds]
    ratios = [a / b for a, b in zip(after, before) if b > 0]
    print(f"| {labels[path]} | {fmt_time(statistics.median(before))} "
          f"| {fmt_time(statistics.median(after))} "
          f"| {statistics.median(ratios):.3f} [{min(ratios):.3f}–{max(ratios):.3f}] |")
print()
print("Requests per operation (from -o debug):")
for path in labels:
    print(f"- {path}: before {breakdown(counts[('before', path)])}")
    print(f"  {' ' * len(path)}  after  {breakdown(counts[('after', path)])}")
EOF
