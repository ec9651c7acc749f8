#!/usr/bin/env bash
# Issue 18's permissions benchmark: a private cellfs mount as cellfs makes
# it now (no default_permissions: the daemon checks the modes) against the
# same build mounted with `-o default_permissions` (the kernel checks them,
# at the cost of more requests), side by side in one run: fs_bench's
# small-cell phases, then `ls -l` of a 1000-row partition, A and B
# interleaved; each phase's median [min-max] of the per-round ratios
# (private / default_permissions; above 1: the private mount is faster).
#
# Usage (as root):
#   cmake --build build --target cellfs fs_bench
#   tools/bench/run_permissions_bench.sh [ROWS=2000] [ROUNDS=7] [LS_ROUNDS=15]
# BUILD_DIR overrides the build directory (default: build/ of this checkout).
# Figures: docs/BENCHMARKS.md "Permissions on private mounts".
set -euo pipefail

rows=${1:-2000}
rounds=${2:-7}
ls_rounds=${3:-15}
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$repo/build}
cellfs=$build/tools/cellfs/cellfs
bench=$build/tools/bench/fs_bench
for binary in "$cellfs" "$bench"; do
  [[ -x $binary ]] || { echo "run_permissions_bench: $binary is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/cellfs-perm-bench.XXXXXX)
names=(private dp)
declare -A pids
bench_name=run_permissions_bench
# shellcheck source=tools/bench/mount_wait.sh
source "$repo/tools/bench/mount_wait.sh"

cleanup() {
  set +e
  for name in "${names[@]}"; do
    is_mounted "$work/$name" && fusermount3 -u -z "$work/$name"
    [[ -n ${pids[$name]:-} ]] && { wait_exited "${pids[$name]}" || kill "${pids[$name]}"; }
  done
  rm -rf "$work"
}
trap cleanup EXIT

for name in "${names[@]}"; do
  mkdir -p "$work/$name"
  extra=()
  [[ $name == dp ]] && extra=(-o default_permissions)
  "$cellfs" mount -f "${extra[@]}" "$work/data-$name" "$work/$name" 2>>"$work/$name.log" &
  pids[$name]=$!
  wait_mounted "${pids[$name]}" "$work/$name"
  printf '%s\n' \
    "CREATE KEYSPACE b WITH replication = {'class':'SimpleStrategy','replication_factor':1};" \
    "CREATE TABLE b.t (p int, c int, v text, PRIMARY KEY (p, c));" >"$work/$name/@cql"
done
grep -q default_permissions <<<"$(findmnt -n -o OPTIONS "$work/dp")" ||
  { echo "run_permissions_bench: the dp mount lacks default_permissions" >&2; exit 1; }
! grep -q default_permissions <<<"$(findmnt -n -o OPTIONS "$work/private")" ||
  { echo "run_permissions_bench: the private mount has default_permissions" >&2; exit 1; }

echo "== $(nproc) cores, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== fs_bench $rows $rounds private=... dp=..."
"$bench" "$rows" "$rounds" "private=$work/private/b/t" "dp=$work/dp/b/t" | tee "$work/fs_bench.out"
echo
echo "== per-phase median [min-max] of the per-round ratios private/dp (rates: above 1 is faster)"
# fs_bench prints, per target and phase, "  NAME  PHASE  rate rate ...".
while IFS= read -r phase; do
  a=$(grep -F "  private" "$work/fs_bench.out" | grep -F "$phase" | head -n 1 | awk '{ for (i = NF; $i ~ /^[0-9.]+$/; i--) n++; for (j = NF - n + 1; j <= NF; j++) printf "%s ", $j }')
  b=$(grep -F "  dp " "$work/fs_bench.out" | grep -F "$phase" | head -n 1 | awk '{ for (i = NF; $i ~ /^[0-9.]+$/; i--) n++; for (j = NF - n + 1; j <= NF; j++) printf "%s ", $j }')
  read -r -a ra <<<"$a"
  read -r -a rb <<<"$b"
  ratios=$(for i in "${!ra[@]}"; do echo "${ra[$i]} / ${rb[$i]}" | bc -l; done | median_range)
  printf '  %-48s %s\n' "$phase" "$ratios"
done < <(printf '%s\n' "create (mkdir row" "stat cell" "read cell" "list partition" \
  "stat cell again" "delete (unlink")

echo
echo "== ls -l of a 1000-row partition, $ls_rounds rounds interleaved (time ratio dp/private)"
for name in "${names[@]}"; do
  mkdir "$work/$name/b/t/9"
  printf 'INSERT INTO b.t (p, c, v) VALUES (9, %d, '"'"'x'"'"');\n' $(seq 1000) >"$work/$name/@cql"
done
times() {  # times NAME: seconds for one `ls -l` of the partition
  local begin end
  begin=$(date +%s.%N)
  LC_ALL=C ls -l "$work/$1/b/t/9" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $begin" | bc -l
}
for _ in $(seq "$ls_rounds"); do
  p=$(times private)
  d=$(times dp)
  echo "$d / $p" | bc -l
done | median_range
echo
