# Shared by the benchmark runners (sourced): waiting for a FUSE daemon to
# mount, and for it to exit after its unmount; cleaning up after a run;
# timing a command; the median
# [min-max] they report. Callers set `bench_name` for messages.

is_mounted() { grep -q " $1 " /proc/self/mounts; }

# Waits (10 s at most) for daemon $1 to have mounted $2.
wait_mounted() {
  for _ in $(seq 100); do
    is_mounted "$2" && return 0
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  echo "$bench_name: $2 did not mount" >&2
  return 1
}

# Waits (60 s at most: closing a cellfs store waits for its compactions)
# for daemon $1 to exit after its unmount.
wait_exited() {
  for _ in $(seq 600); do
    kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  echo "$bench_name: daemon $1 did not exit" >&2
  return 1
}

# For cleanup traps. Exit status $1 not 0: the last lines of every log in
# directory $2 to stderr (show_logs_if_failed RC DIR).
show_logs_if_failed() {
  [[ $1 -eq 0 ]] && return 0
  local log
  for log in "$2"/*.log; do
    [[ -s $log ]] && { echo "--- $log (last lines)"; tail -n 20 "$log"; } >&2
  done
  return 0
}
# Lazily unmounts each given mount point that is mounted.
unmount_all() {
  local mnt
  for mnt in "$@"; do
    is_mounted "$mnt" && fusermount3 -u -z "$mnt"
  done
  return 0
}
# Waits for each given daemon to exit, killing one that does not.
reap_all() {
  local pid
  for pid in "$@"; do wait_exited "$pid" || kill "$pid"; done
  return 0
}

# The median [min-max] of the numbers on stdin, one per line, each printed
# with printf format $1 (default %.2f).
median_range() {
  sort -g | awk -v f="${1:-%.2f}" '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf f " [" f "-" f "]", m, v[1], v[NR] }'
}

# The wall time of CMD... in seconds (its output discarded).
seconds() {
  local begin end
  begin=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
}

# Of a file of rounds, one per line, numbers in columns: the median
# [min-max] of column $2 (column_range FILE COLUMN), and of the per-round
# ratios of column $2 to column $3 (ratio_range FILE A B).
column_range() { awk -v c="$2" '{ print $c }' "$1" | median_range; }
ratio_range() { awk -v a="$2" -v b="$3" '{ print $a / $b }' "$1" | median_range; }
