#!/usr/bin/env bash
# Issue 18's space benchmark: bytes on disk per small file after
# compaction, cellfs beside TableFS (a FUSE filesystem over LevelDB). The
# same client writes the same bytes into each: FILES cells of 13-16 bytes
# (fs_bench's small cells), 1000 rows a partition, as `P/C/v` into cellfs's
# table `(p int, c int, v text, PRIMARY KEY (p, c))`; into TableFS as the
# same tree (a directory per row, so two inodes per file) and, since TableFS
# pays an inode per directory that cellfs does not, also as FILES files in
# one directory. Every store is unmounted, mounted again (its log becomes
# table files) and unmounted, then compacted whole offline by
# leveldb_compact with its own table options; then `du` of each store,
# divided by FILES.
#
# Usage (as root: it mounts):
#   cmake --build build --target cellfs leveldb_compact
#   tools/bench/run_disk_bytes_bench.sh TABLEFS_BINARY [FILES=100000]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# Figures: docs/BENCHMARKS.md "Issue 18 re-measured".
set -euo pipefail

tablefs=${1:?usage: run_disk_bytes_bench.sh TABLEFS_BINARY [FILES]}
files=${2:-100000}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
compact=$build/tools/bench/leveldb_compact
for binary in "$cellfs" "$compact" "$tablefs"; do
  [[ -x $binary ]] || { echo "run_disk_bytes_bench: $binary is missing" >&2; exit 1; }
done
[[ $EUID -eq 0 ]] || { echo "run_disk_bytes_bench: run as root (it mounts)" >&2; exit 1; }

work=$(mktemp -d /tmp/cellfs-disk-bench.XXXXXX)
cellfs_mnt=$work/cellfs
data=$work/data
# Two TableFS stores, tree and flat: each a mount point, a metadata
# directory (its LevelDB, in META/meta) and a data directory.
mkdir -p "$cellfs_mnt"
for store in tree flat; do mkdir -p "$work/tablefs-$store"/{mnt,meta,data}; done
cellfs_pid=
tfs_pid=

bench_name=run_disk_bytes_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  local rc=$?
  set +e
  show_logs_if_failed "$rc" "$work"
  unmount_all "$cellfs_mnt" "$work"/tablefs-*/mnt
  # shellcheck disable=SC2086  # an unset pid is no argument
  reap_all $cellfs_pid $tfs_pid
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
# start_tablefs STORE / stop_tablefs STORE: $work/tablefs-STORE/mnt.
start_tablefs() {
  local dir=$work/tablefs-$1
  "$tablefs" -mountdir "$dir/mnt" -metadir "$dir/meta" -datadir "$dir/data" \
    -foreground true >>"$work/tablefs.log" 2>&1 &
  tfs_pid=$!
  wait_mounted "$tfs_pid" "$dir/mnt"
}
stop_tablefs() {
  fusermount3 -u "$work/tablefs-$1/mnt"
  wait_exited "$tfs_pid"
  tfs_pid=
}

# The client, one process for every store: `tree DIR` writes DIR/P/C/v
# holding "cell value N\n" for N < FILES, 1000 rows a partition (one mkdir
# a row, one open/write/close a cell); `flat DIR` writes the same bytes as
# DIR/N.
writer='
import os, sys
shape, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(n):
    if shape == "tree":
        p, c = divmod(i, 1000)
        if c == 0:
            os.makedirs(f"{root}/{p}", exist_ok=True)
        os.mkdir(f"{root}/{p}/{c}")
        path = f"{root}/{p}/{c}/v"
    else:
        path = f"{root}/{i}"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
    os.write(fd, f"cell value {i}\n".encode())
    os.close(fd)
'
write() { python3 -c "$writer" "$1" "$2" "$files"; }

# check SHAPE DIR: three of the files read back through the mount.
check() {
  local i path
  for i in 0 $((files / 2)) $((files - 1)); do
    if [[ $1 == tree ]]; then path=$2/$((i / 1000))/$((i % 1000))/v; else path=$2/$i; fi
    [[ $(cat "$path") == "cell value $i" ]] ||
      { echo "run_disk_bytes_bench: $path is wrong" >&2; exit 1; }
  done
}

bytes_of() { du -sb "$@" | awk '{ s += $1 } END { print s }'; }
tablefs_bytes() { bytes_of "$work/tablefs-$1/meta" "$work/tablefs-$1/data"; }

echo "== $files small files (13-16 bytes each) through the mounts"
start_cellfs
printf '%s\n' \
  "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
  "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$cellfs_mnt/@cql"
echo "cellfs, P/C/v:    $(seconds write tree "$cellfs_mnt/b/t") s"
stop_cellfs
start_tablefs tree
mkdir -p "$work/tablefs-tree/mnt/b/t"
echo "tablefs, P/C/v:   $(seconds write tree "$work/tablefs-tree/mnt/b/t") s"
stop_tablefs tree
start_tablefs flat
mkdir -p "$work/tablefs-flat/mnt/d"
echo "tablefs, one dir: $(seconds write flat "$work/tablefs-flat/mnt/d") s"
stop_tablefs flat

# Mounted again (each store replays its log into table files) and read back.
start_cellfs
check tree "$cellfs_mnt/b/t"
stop_cellfs
start_tablefs tree
check tree "$work/tablefs-tree/mnt/b/t"
stop_tablefs tree
start_tablefs flat
check flat "$work/tablefs-flat/mnt/d"
stop_tablefs flat

before=("$(bytes_of "$data")" "$(tablefs_bytes tree)" "$(tablefs_bytes flat)")
# Compacted whole, each with its own table options (cellfs: Bloom filters
# of 10 bits a key, Snappy; TableFS: 12 bits, no compression, its default).
"$compact" --bloom-bits=10 "$data"
"$compact" --bloom-bits=12 --no-compression "$work/tablefs-tree/meta/meta"
"$compact" --bloom-bits=12 --no-compression "$work/tablefs-flat/meta/meta"
after=("$(bytes_of "$data")" "$(tablefs_bytes tree)" "$(tablefs_bytes flat)")

echo
echo "== bytes on disk (du -sb of each store), per file"
awk -v f="$files" -v c0="${before[0]}" -v t0="${before[1]}" -v l0="${before[2]}" \
  -v c="${after[0]}" -v t="${after[1]}" -v l="${after[2]}" 'BEGIN {
    printf "%-24s %12s %12s\n", "store", "remounted", "compacted"
    printf "%-24s %10.1f B %10.1f B\n", "cellfs, P/C/v", c0 / f, c / f
    printf "%-24s %10.1f B %10.1f B\n", "tablefs, P/C/v", t0 / f, t / f
    printf "%-24s %10.1f B %10.1f B\n", "tablefs, one directory", l0 / f, l / f
    printf "compacted, cellfs / tablefs: %.2fx (the same tree), %.2fx (tablefs in one directory)\n",
      c / t, c / l
  }'
