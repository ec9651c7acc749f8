#!/usr/bin/env bash
# Issue 18's `ls -l` benchmark: `ls -l` of a 1000-row partition on cellfs
# (its default: extended attributes on) and on cellfs mounted -o noxattr,
# beside `ls -l` of a 1000-entry directory on libfuse's passthrough_ll over
# a tmpfs (the FUSE ceiling; xattrs off by its default), all three mounted
# at once and timed in interleaved rounds, each side five `ls -l` in a row.
# coreutils' ls -l asks security.selinux, system.posix_acl_access and
# system.posix_acl_default of every entry; a filesystem that answers ENODATA
# is asked each time, one that answers ENOSYS (noxattr, passthrough_ll) is
# never asked again. Prints each side's median [min-max] and the per-round
# ratios of passthrough_ll's time to each cellfs's (the issue's "x").
#
# Usage (as root: it mounts a tmpfs):
#   cmake --build build --target cellfs
#   tools/bench/run_ls_l_bench.sh CELLFS [ROWS=1000] [ROUNDS=15]
# Figures: docs/BENCHMARKS.md "ls -l and extended attributes".
set -euo pipefail

cellfs=$1
rows=${2:-1000}
rounds=${3:-15}
repo=$(cd "$(dirname "$0")/../.." && pwd)
example=/usr/share/doc/libfuse3-dev/examples/passthrough_ll.c
[[ -x $cellfs ]] || { echo "run_ls_l_bench: $cellfs is missing" >&2; exit 1; }
[[ -r $example ]] || { echo "run_ls_l_bench: $example is missing (libfuse3-dev)" >&2; exit 1; }
work=$(mktemp -d /tmp/cellfs-ls-l-bench.XXXXXX)
tmpfs=$work/tmpfs
mkdir -p "$tmpfs" "$work/xattr" "$work/noxattr" "$work/pt"
pids=()
bench_name=run_ls_l_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"
cleanup() {
  set +e
  for mnt in "$work/xattr" "$work/noxattr" "$work/pt"; do
    is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  done
  for pid in "${pids[@]}"; do wait_exited "$pid" || kill "$pid"; done
  is_mounted "$tmpfs" && umount "$tmpfs"
  rm -rf "$work"
}
trap cleanup EXIT

ls5() { for _ in 1 2 3 4 5; do LC_ALL=C ls -l "$1" >/dev/null; done; }

for side in xattr noxattr; do
  options=()
  [[ $side == noxattr ]] && options=(-o noxattr)
  "$cellfs" mount -f "${options[@]}" "$work/data-$side" "$work/$side" 2>>"$work/cellfs.log" &
  pids+=($!)
  wait_mounted "${pids[-1]}" "$work/$side"
  printf '%s\n' \
    "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
    "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$work/$side/@cql"
  printf 'INSERT INTO b.t (p, c, v) VALUES (1, %d, '"'"'x'"'"');\n' $(seq "$rows") \
    >"$work/$side/@cql"
done
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
cc -O2 -o "$work/passthrough_ll" "$example" $(pkg-config --cflags --libs fuse3)
mount -t tmpfs -o size=64m,mode=0755 cellfs-ls-l-bench "$tmpfs"
mkdir "$tmpfs/dir"
(cd "$tmpfs/dir" && seq "$rows" | xargs mkdir)
"$work/passthrough_ll" -f -o source="$tmpfs" "$work/pt" 2>>"$work/passthrough.log" &
pids+=($!)
wait_mounted "${pids[-1]}" "$work/pt"

echo "== $(nproc) cores, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rows entries, $rounds rounds of 5 x ls -l each"
for round in $(seq "$rounds"); do
  with=$(seconds ls5 "$work/xattr/b/t/1")
  without=$(seconds ls5 "$work/noxattr/b/t/1")
  pt=$(seconds ls5 "$work/pt/dir")
  echo "$round $with $without $pt" | tee -a "$work/rows"
done
column() { column_range "$work/rows" "$1"; }
ratio() { ratio_range "$work/rows" "$1" "$2"; }
printf '  %-44s %s\n' "cellfs (xattrs on, the default) (s)" "$(column 2)"
printf '  %-44s %s\n' "cellfs -o noxattr (s)" "$(column 3)"
printf '  %-44s %s\n' "passthrough_ll (s)" "$(column 4)"
printf '  %-44s %s\n' "passthrough_ll time / cellfs time" "$(ratio 4 2)"
printf '  %-44s %s\n' "passthrough_ll time / cellfs -o noxattr time" "$(ratio 4 3)"
