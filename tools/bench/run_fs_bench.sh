#!/usr/bin/env bash
# Issue 4's filesystem benchmark: fs_bench on a cellfs mount and on libfuse's
# passthrough_ll over a fresh tmpfs (the FUSE ceiling) in the same run, plus
# a second passthrough_ll given cellfs's kernel-facing options; then
# `ls -U | wc -l` of a wide partition with the cellfs daemon's peak RSS.
#
# Usage (as root: it mounts a tmpfs):
#   cmake --build build --target cellfs fs_bench fs_bench_load
#   tools/bench/run_fs_bench.sh [ROWS=2000] [ROUNDS=5] [WIDE_ROWS=1000000]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
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

work=$(mktemp -d /tmp/cellfs-fs-bench.XXXXXX)
tmpfs=$work/tmpfs
pt_mnt=$work/passthrough
opts_mnt=$work/passthrough-opts
cellfs_mnt=$work/cellfs
data=$work/data
mkdir -p "$tmpfs" "$pt_mnt" "$opts_mnt" "$cellfs_mnt"
cellfs_pid=
pt_pid=
opts_pid=

bench_name=run_fs_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  if [[ $rc -ne 0 ]]; then
    for log in "$work"/*.log; do
      [[ -s $log ]] && { echo "--- $log (last lines)"; tail -n 20 "$log"; } >&2
    done
  fi
  for mnt in "$cellfs_mnt" "$pt_mnt" "$opts_mnt"; do
    is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  done
  for pid in $cellfs_pid $pt_pid $opts_pid; do wait_exited "$pid" || kill "$pid"; done
  is_mounted "$tmpfs" && umount "$tmpfs"
  rm -rf "$work"
}
trap cleanup EXIT

start_cellfs() {
  "$cellfs" mount -f "$data" "$cellfs_mnt" 2>>"$work/cellfs.log" &
  cellfs_pid=$!
  wait_mounted "$cellfs_pid" "$cellfs_mnt"
}

stop_cellfs() {
  "$cellfs" umount "$cellfs_mnt"
  wait_exited "$cellfs_pid"
  cellfs_pid=
}

# The daemon's memory figures from /proc/PID/status, in MB.
memory() {
  awk '$1 ~ /^(VmHWM|VmRSS|RssAnon|RssFile):$/ { printf "%s %.1f MB  ", $1, $2 / 1024 }' \
    "/proc/$1/status"
}

echo "== machine"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "$(nproc) cores, $cpu, kernel $(uname -r), libfuse $(pkg-config --modversion fuse3)," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"

# The peer: passthrough_ll with its defaults (cache=auto: entry and attr
# timeouts 1 s, page cache dropped at each open, no cached listings, no
# writeback cache, xattrs off, no default_permissions, multi-threaded loop)
# over a tmpfs of its own. The second peer adds what cellfs shows the kernel:
# default_permissions, xattrs (so the kernel asks for security.capability
# before writes) and 60 s timeouts.
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
cc -O2 -o "$work/passthrough_ll" "$example" $(pkg-config --cflags --libs fuse3)
mount -t tmpfs -o size=1g,mode=0755 cellfs-fs-bench "$tmpfs"
mkdir "$tmpfs/defaults" "$tmpfs/opts"
"$work/passthrough_ll" -f -o source="$tmpfs/defaults" "$pt_mnt" 2>>"$work/passthrough.log" &
pt_pid=$!
wait_mounted "$pt_pid" "$pt_mnt"
"$work/passthrough_ll" -f -o source="$tmpfs/opts",default_permissions,xattr,timeout=60 \
  "$opts_mnt" 2>>"$work/passthrough-opts.log" &
opts_pid=$!
wait_mounted "$opts_pid" "$opts_mnt"
mkdir -p "$pt_mnt/b/t" "$opts_mnt/b/t"

# cellfs with its defaults (entry_timeout=60, attr_timeout=60, commit=periodic)
# on a fresh data directory on the disk under /tmp.
start_cellfs
printf '%s\n' \
  "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
  "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$cellfs_mnt/@cql"
[[ -d $cellfs_mnt/b/t ]] || { echo "run_fs_bench: CREATE TABLE b.t failed" >&2; exit 1; }

echo
echo "== small-cell workload: fs_bench $rows $rounds cellfs=... passthrough=... pt-cellfs-opts=..."
"$bench" "$rows" "$rounds" "cellfs=$cellfs_mnt/b/t" "passthrough=$pt_mnt/b/t" \
  "pt-cellfs-opts=$opts_mnt/b/t"

fusermount3 -u "$pt_mnt"
fusermount3 -u "$opts_mnt"
wait_exited "$pt_pid"
wait_exited "$opts_pid"
pt_pid=
opts_pid=
umount "$tmpfs"

echo
echo "== listing: ls -U | wc -l of one partition of $wide rows"
stop_cellfs
"$load" "$data" b.t 0 "$wide"
start_cellfs
echo "daemon pid $cellfs_pid after mount: $(memory "$cellfs_pid")"
# The mount replays the loader's log and compacts it in the background: the
# listings start once that has settled.
sleep 3
echo "3 s later: $(memory "$cellfs_pid")"
for pass in 1 2 3; do
  begin=$(date +%s.%N)
  # shellcheck disable=SC2012  # `ls -U` is what the goal names; key names hold no newline
  count=$(LC_ALL=C ls -U "$cellfs_mnt/b/t/0" | wc -l)
  end=$(date +%s.%N)
  verdict=$([[ $count -eq $wide ]] && echo "count right" || echo "COUNT WRONG")
  printf 'ls -U | wc -l #%s: %d entries (%s) in %.2f s; %s\n' "$pass" "$count" "$verdict" \
    "$(echo "$end - $begin" | bc)" "$(memory "$cellfs_pid")"
done
hwm_kb=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$cellfs_pid/status")
verdict=$([[ $hwm_kb -lt 102400 ]] && echo met || echo MISSED)
echo "peak RSS goal (VmHWM < 100 MB): $((hwm_kb / 1024)) MB, $verdict"
stop_cellfs
