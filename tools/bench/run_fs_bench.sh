#!/usr/bin/env bash
# Issue 4's filesystem benchmark: fs_bench on a cellfs mount and on libfuse's
# passthrough_ll over a fresh tmpfs (the FUSE ceiling) in the same run, plus
# a second passthrough_ll given cellfs's kernel-facing options and, with
# TABLEFS, TableFS (a FUSE filesystem over LevelDB, the peer in kind); then
# `ls -U | wc -l` of a directory of WIDE_ROWS entries on cellfs (a wide
# partition), passthrough_ll and TableFS in turn, with the daemons' peak RSS.
#
# Usage (as root: it mounts a tmpfs):
#   cmake --build build --target cellfs fs_bench fs_bench_load
#   [TABLEFS=/path/to/tablefs] [PIN_CPU=N] \
#     tools/bench/run_fs_bench.sh [ROWS=2000] [ROUNDS=5] [WIDE_ROWS=1000000]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# TABLEFS names a TableFS binary: it is mounted with its store (-metadir,
#   -datadir) on the disk under /tmp beside cellfs's data, and is fs_bench's
#   4th target and the third listing.
# PIN_CPU=N starts every daemon (cellfs, both passthrough_ll, TableFS) and
#   the clients (fs_bench, ls, the entry creator) under `taskset -c N`:
#   client and daemon on one CPU.
# Figures and their reading: docs/BENCHMARKS.md "Filesystem (issue 4)".
set -euo pipefail

rows=${1:-2000}
rounds=${2:-5}
wide=${3:-1000000}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
bench=$build/tools/bench/fs_bench
load=$build/tools/bench/fs_bench_load
example=/usr/share/doc/libfuse3-dev/examples/passthrough_ll.c
tablefs=${TABLEFS:-}
pin_cpu=${PIN_CPU:-}
pin=()
if [[ -n $pin_cpu ]]; then pin=(taskset -c "$pin_cpu"); fi

for binary in "$cellfs" "$bench" "$load"; do
  if [[ ! -x $binary ]]; then
    echo "run_fs_bench: $binary is missing;" \
      "run: cmake --build build --target cellfs fs_bench fs_bench_load" >&2
    exit 1
  fi
done
if [[ $EUID -ne 0 ]]; then
  echo "run_fs_bench: run as root (it mounts a tmpfs)" >&2
  exit 1
fi
if [[ ! -r $example ]]; then
  echo "run_fs_bench: $example is missing (package libfuse3-dev)" >&2
  exit 1
fi
if [[ -n $tablefs && ! -x $tablefs ]]; then
  echo "run_fs_bench: TABLEFS=$tablefs is not an executable" >&2
  exit 1
fi
if [[ -n $pin_cpu ]] && ! taskset -c "$pin_cpu" true 2>/dev/null; then
  echo "run_fs_bench: PIN_CPU=$pin_cpu is not a CPU taskset -c takes" >&2
  exit 1
fi
if ! command -v python3 >/dev/null; then
  echo "run_fs_bench: python3 is missing (it creates the listing's entries)" >&2
  exit 1
fi

work=$(mktemp -d /tmp/cellfs-fs-bench.XXXXXX)
tmpfs=$work/tmpfs
pt_mnt=$work/passthrough
opts_mnt=$work/passthrough-opts
cellfs_mnt=$work/cellfs
data=$work/data
tfs_mnt=$work/tablefs
tfs_meta=$work/tablefs-meta
tfs_data=$work/tablefs-data
mkdir -p "$tmpfs" "$pt_mnt" "$opts_mnt" "$cellfs_mnt"
cellfs_pid=
pt_pid=
opts_pid=
tfs_pid=

bench_name=run_fs_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  show_logs_if_failed "$rc" "$work"
  unmount_all "$cellfs_mnt" "$pt_mnt" "$opts_mnt" "$tfs_mnt"
  # shellcheck disable=SC2086  # an unset pid is no argument
  reap_all $cellfs_pid $pt_pid $opts_pid $tfs_pid
  is_mounted "$tmpfs" && umount "$tmpfs"
  rm -rf "$work"
}
trap cleanup EXIT

# Each daemon runs in the foreground of a background job, under taskset
# with PIN_CPU (taskset execs it, so $! is the daemon's pid).
start_cellfs() {
  "${pin[@]}" "$cellfs" mount -f "$data" "$cellfs_mnt" 2>>"$work/cellfs.log" &
  cellfs_pid=$!
  wait_mounted "$cellfs_pid" "$cellfs_mnt"
}

stop_cellfs() {
  "$cellfs" umount "$cellfs_mnt"
  wait_exited "$cellfs_pid"
  cellfs_pid=
}

# passthrough_ll with its defaults over $tmpfs/defaults.
start_passthrough() {
  "${pin[@]}" "$work/passthrough_ll" -f -o source="$tmpfs/defaults" "$pt_mnt" \
    2>>"$work/passthrough.log" &
  pt_pid=$!
  wait_mounted "$pt_pid" "$pt_mnt"
}

stop_passthrough() {
  fusermount3 -u "$pt_mnt"
  wait_exited "$pt_pid"
  pt_pid=
}

# TableFS with its defaults (single-threaded, LevelDB without compression,
# files up to 4 KB inline); nothing is logged without -logfile.
start_tablefs() {
  "${pin[@]}" "$tablefs" -mountdir "$tfs_mnt" -metadir "$tfs_meta" -datadir "$tfs_data" \
    -foreground true >>"$work/tablefs.log" 2>&1 &
  tfs_pid=$!
  wait_mounted "$tfs_pid" "$tfs_mnt"
}

stop_tablefs() {
  fusermount3 -u "$tfs_mnt"
  wait_exited "$tfs_pid"
  tfs_pid=
}

# The daemon's memory figures from /proc/PID/status, in MB.
memory() {
  awk '$1 ~ /^(VmHWM|VmRSS|RssAnon|RssFile):$/ { printf "%s %.1f MB  ", $1, $2 / 1024 }' \
    "/proc/$1/status"
}

# The memory of each daemon given as NAME=PID, a line each.
report_memory() {
  local daemon
  for daemon in "$@"; do
    echo "  ${daemon%=*} daemon pid ${daemon#*=}: $(memory "${daemon#*=}")"
  done
}

# Creates the empty files DIR/0 .. DIR/N-1 (make_entries DIR N), one
# open(O_CREAT)/close each: the names of fs_bench_load's rows.
make_entries() {
  "${pin[@]}" python3 -c '
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    os.close(os.open(f"{d}/{i}", os.O_CREAT | os.O_WRONLY, 0o644))
' "$1" "$2"
}

# `ls -U | wc -l` of DIR on filesystem NAME served by daemon PID
# (list_wide NAME DIR PID PASS): the count checked, the time and the
# daemon's memory printed, the time (s) left in $listed.
list_wide() {
  local begin end count verdict
  begin=$(date +%s.%N)
  # shellcheck disable=SC2012  # `ls -U` is what the goal names; key names hold no newline
  count=$(LC_ALL=C "${pin[@]}" ls -U "$2" | wc -l)
  end=$(date +%s.%N)
  listed=$(awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.6f", b - a }')
  verdict=$([[ $count -eq $wide ]] && echo "count right" || echo "COUNT WRONG")
  printf 'ls -U | wc -l #%s %-12s %d entries (%s) in %.3f s; %s\n' "$4" "$1:" "$count" \
    "$verdict" "$listed" "$(memory "$3")"
}

echo "== machine"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "$(nproc) cores, $cpu, kernel $(uname -r), libfuse $(pkg-config --modversion fuse3)," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n $pin_cpu ]]; then
  pinned="cellfs, passthrough_ll x2"
  if [[ -n $tablefs ]]; then pinned+=", tablefs"; fi
  echo "pinned to CPU $pin_cpu (taskset -c $pin_cpu): the daemons ($pinned) and the clients" \
    "(fs_bench, ls, the entry creator)"
else
  echo "not pinned (PIN_CPU unset)"
fi
disk=$(findmnt -n -o FSTYPE,SOURCE --target "$work" | tr -s ' ')
if [[ -n $tablefs ]]; then
  echo "TableFS: $tablefs, store in $work ($disk) beside cellfs's data"
else
  echo "TableFS: not run (TABLEFS unset); cellfs's data in $work ($disk)"
fi

# The peer: passthrough_ll with its defaults (cache=auto: entry and attr
# timeouts 1 s, page cache dropped at each open, no cached listings, no
# writeback cache, xattrs off, no default_permissions, multi-threaded loop)
# over a tmpfs of its own. The second peer adds what cellfs shows the kernel:
# default_permissions, xattrs (so the kernel asks for security.capability
# before writes) and 60 s timeouts.
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
cc -O2 -o "$work/passthrough_ll" "$example" $(pkg-config --cflags --libs fuse3)
# nr_inodes=0: no inode limit, for the listing's WIDE_ROWS entries.
mount -t tmpfs -o size=1g,nr_inodes=0,mode=0755 cellfs-fs-bench "$tmpfs"
mkdir "$tmpfs/defaults" "$tmpfs/opts"
start_passthrough
"${pin[@]}" "$work/passthrough_ll" -f \
  -o source="$tmpfs/opts",default_permissions,xattr,timeout=60 "$opts_mnt" \
  2>>"$work/passthrough-opts.log" &
opts_pid=$!
wait_mounted "$opts_pid" "$opts_mnt"
mkdir -p "$pt_mnt/b/t" "$opts_mnt/b/t"
targets=("cellfs=$cellfs_mnt/b/t" "passthrough=$pt_mnt/b/t" "pt-cellfs-opts=$opts_mnt/b/t")
if [[ -n $tablefs ]]; then
  mkdir -p "$tfs_mnt" "$tfs_meta" "$tfs_data"
  start_tablefs
  mkdir -p "$tfs_mnt/b/t"
  targets+=("tablefs=$tfs_mnt/b/t")
fi

# cellfs with its defaults (entry_timeout=60, attr_timeout=60, commit=periodic)
# on a fresh data directory on the disk under /tmp.
start_cellfs
printf '%s\n' \
  "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
  "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$cellfs_mnt/@cql"
[[ -d $cellfs_mnt/b/t ]] || { echo "run_fs_bench: CREATE TABLE b.t failed" >&2; exit 1; }

echo
echo "== small-cell workload: fs_bench $rows $rounds ${targets[*]/=*/=...}"
"${pin[@]}" "$bench" "$rows" "$rounds" "${targets[@]}"

fusermount3 -u "$opts_mnt"
wait_exited "$opts_pid"
opts_pid=

echo
echo "== listing: ls -U | wc -l of a directory of $wide entries on each filesystem"
# cellfs: one partition of $wide rows, loaded into the stopped store.
stop_cellfs
"$load" "$data" b.t 0 "$wide"
# passthrough_ll: empty files made in its tmpfs directly, not through FUSE.
mkdir "$tmpfs/defaults/w"
make_entries "$tmpfs/defaults/w" "$wide"
# TableFS keeps its metadata in LevelDB: the files are made through it.
if [[ -n $tablefs ]]; then
  mkdir "$tfs_mnt/w"
  secs=$(seconds make_entries "$tfs_mnt/w" "$wide")
  awk -v n="$wide" -v s="$secs" \
    'BEGIN { printf "tablefs: %d empty files created through the mount in %.2f s, %.0f/s\n", n, s, n / s }'
fi
# Every daemon starts afresh, so its memory figures are of the mount and
# the listings only, and no listing finds a cache the others lack.
stop_passthrough
if [[ -n $tablefs ]]; then stop_tablefs; fi
start_cellfs
start_passthrough
daemons=("cellfs=$cellfs_pid" "passthrough=$pt_pid")
if [[ -n $tablefs ]]; then
  start_tablefs
  daemons+=("tablefs=$tfs_pid")
fi
echo "after mount:"
report_memory "${daemons[@]}"
# The cellfs mount replays the loader's log and compacts it in the
# background (TableFS's LevelDB may compact too): the listings start once
# that has settled.
sleep 3
echo "3 s later:"
report_memory "${daemons[@]}"
# The passes interleave the filesystems; one line of times per pass.
: >"$work/listings"
for pass in 1 2 3; do
  list_wide cellfs "$cellfs_mnt/b/t/0" "$cellfs_pid" "$pass"
  times=$listed
  list_wide passthrough "$pt_mnt/w" "$pt_pid" "$pass"
  times+=" $listed"
  if [[ -n $tablefs ]]; then
    list_wide tablefs "$tfs_mnt/w" "$tfs_pid" "$pass"
    times+=" $listed"
  fi
  echo "$times" >>"$work/listings"
done
ratios="passthrough/cellfs $(ratio_range "$work/listings" 2 1)"
if [[ -n $tablefs ]]; then ratios+=", tablefs/cellfs $(ratio_range "$work/listings" 3 1)"; fi
echo "listing time per pass, other / cellfs, median [min-max]: $ratios"
echo "after the listings:"
report_memory "${daemons[@]}"
hwm_kb=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$cellfs_pid/status")
verdict=$([[ $hwm_kb -lt 102400 ]] && echo met || echo MISSED)
echo "peak RSS goal (cellfs VmHWM < 100 MB): $((hwm_kb / 1024)) MB, $verdict"
stop_cellfs
stop_passthrough
if [[ -n $tablefs ]]; then stop_tablefs; fi
umount "$tmpfs"
